/*
 * session: time-ordered replay of a recording onto a machine, with call
 * chains resolved to symbols (see session.h). Stage: process.
 * Invariant: queued events own deep copies of everything they point to,
 * because the reader's buffers are reused after each handler returns;
 * the one exception is a sample's stack dump (the bulk of a DWARF
 * sample) when its record is stable (a mapped file): it is referenced.
 */
#include "process/session.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "symbols/inline.h"

enum { QEV_SAMPLE, QEV_MMAP, QEV_COMM, QEV_TASK, QEV_LOST };

struct proc_qev {
	uint64_t time, seq;
	size_t bytes;   /* allocated size, for the queue's budget */
	int kind;
	union {
		struct pd_sample s;
		struct pd_mmap m;
		struct pd_comm c;
		struct pd_task t;
		struct pd_lost l;
	} u;
	uint8_t data[]; /* copies of the arrays and strings */
};

/* ---- BUILD_ID feature ---- */

/* A kernel object's name that is a module's: a .ko path, or "[mod]"
 * other than the kernel's own names. */
static bool is_module_name(const char *name)
{
	if (name[0] == '/')
		return sym_module_path(name);
	size_t n = strlen(name);
	return n > 2 && name[0] == '[' && name[n - 1] == ']' &&
	       strncmp(name, "[kernel.kallsyms]", 17) != 0 &&
	       strncmp(name, "[guest.kernel", 13) != 0 &&
	       strncmp(name, "[vdso", 5) != 0;
}

static void apply_build_id(struct proc_session *ses, int cpumode,
			   const char *name, const uint8_t *id, size_t size)
{
	struct sym_dso *d;
	bool kernel = pd_cpumode_is_kernel(cpumode);
	if (kernel && is_module_name(name))
		d = sym_dsos_findnew_module(&ses->dsos, name, name[0] == '/');
	else if (kernel && (strcmp(name, "[kernel.kallsyms]") == 0 || name[0] != '/'))
		d = ses->machine.kernel_dso;
	else
		d = sym_dsos_findnew(&ses->dsos, name);
	if (!d->buildid.size)
		sym_dso_set_buildid(d, id, size);
}

static void read_buildid_feature(struct proc_session *ses)
{
	const struct pd_features *f = pd_reader_features(ses->reader);
	struct pd_build_id b;
	size_t pos = 0;
	if (!f)
		return;
	sym_dsos_set_release(&ses->dsos, f->osrelease);
	while (pd_feature_build_id_next(f, &pos, &b) > 0)
		apply_build_id(ses, b.cpumode, b.filename, b.build_id, b.size);
}

int proc_session_open(struct proc_session *ses, const char *path,
		      const struct sym_config *cfg,
		      const struct proc_session_opts *opts)
{
	struct diag d = DIAG_INIT;
	struct pd_reader *r = pd_reader_open(path, &d);
	int rc = proc_session_attach(ses, r, cfg, opts);
	if (!r)
		ses->diag = d;
	return rc;
}

int proc_session_attach(struct proc_session *ses, struct pd_reader *r,
			const struct sym_config *cfg,
			const struct proc_session_opts *opts)
{
	memset(ses, 0, sizeof(*ses));
	static const struct proc_session_opts defaults = PROC_SESSION_OPTS_INIT;
	ses->opts = opts ? *opts : defaults;
	ses->reader = r;
	if (!ses->reader)
		return -EINVAL;
	sym_dsos_init(&ses->dsos, cfg);
	proc_machine_init(&ses->machine, &ses->dsos);
	ses->machine.forget_exited = ses->opts.forget_exited;
	read_buildid_feature(ses);
	return 0;
}

void proc_session_chain_source(struct proc_session *ses,
			       const struct proc_chain_source *src)
{
	if (src)
		ses->src = *src;
	else
		memset(&ses->src, 0, sizeof(ses->src));
	ses->chain_valid = false;
}

static void drain_pool(struct proc_session *ses);
static void put_qev(struct proc_session *ses, struct proc_qev *e);

void proc_session_close(struct proc_session *ses)
{
	for (size_t i = 0; i < ses->nq; i++)
		free(ses->q[i]);
	drain_pool(ses);
	free(ses->q);
	free(ses->merge);
	free(ses->runs);
	free(ses->frames);
	if (ses->reader) {
		proc_machine_release(&ses->machine);
		sym_dsos_release(&ses->dsos);
		pd_reader_free(ses->reader);
	}
	memset(ses, 0, sizeof(*ses));
}

const struct diag *proc_session_damage(const struct proc_session *ses)
{
	return pd_reader_damaged(ses->reader) ? pd_reader_diag(ses->reader) : NULL;
}

/* ---- resolution ---- */

void proc_session_resolve(struct proc_session *ses, struct proc_thread *t,
			  bool kernel, uint64_t ip, struct proc_frame *out)
{
	memset(out, 0, sizeof(*out));
	out->ip = ip;
	out->addr = ip; /* perf prints the raw address when no map holds it */
	out->kernel = kernel;
	const struct proc_map *map = proc_thread_find_map(&ses->machine, t, kernel, ip);
	if (!map)
		return;
	out->map = map;
	out->dso = map->dso;
	out->addr = proc_map_addr(map, ip);
	struct sym_dso *symdso = map->dso;
	if (symdso == ses->machine.kernel_dso) {
		sym_dsos_load(&ses->dsos, symdso);
		if (!sym_dso_kernel_section(symdso, ip, &out->dso)) {
			out->map = NULL; /* past the vmlinux's sections: perf has no map */
			out->dso = NULL;
			out->addr = ip;
			return;
		}
	} else if (kernel && symdso->kind == SYM_DSO_MODULE) {
		sym_dsos_load(&ses->dsos, symdso);
		if (!symdso->from_elf) /* no .ko: its symbols from kallsyms */
			symdso = ses->machine.kernel_dso;
	}
	out->sym = sym_dsos_find(&ses->dsos, symdso, out->addr);
}

static struct proc_frame *frame_slot(struct proc_session *ses, size_t n)
{
	XGROW(ses->frames, ses->frames_cap, n + 1);
	return &ses->frames[n];
}

/* Replace user frame n - 1 by its inline rows (innermost first); the
 * row named like the ELF symbol stays the symbol. Returns the new n. */
static size_t add_inlines(struct proc_session *ses, size_t n)
{
	struct proc_frame base = ses->frames[n - 1];
	const struct sym_inline_frame *fr;
	if (!base.dso || !base.sym)
		return n;
	size_t k = sym_inline_dso_frames(ses->src.inl, base.dso, base.addr, &fr);
	n--;
	for (size_t i = 0; i < k; i++) {
		struct proc_frame *f = frame_slot(ses, n++);
		*f = base;
		if (!sym_inline_is_symbol(&fr[i], base.sym->name))
			f->inline_name = fr[i].name;
	}
	return k ? n : n + 1;
}

/* The chain of s (the hook's when hooked), unwound once per delivered
 * sample: a second call for the same sample reuses the hook's output. */
static size_t sample_chain(struct proc_session *ses, const struct pd_sample *s,
			   const uint64_t **chain, bool *hooked)
{
	*hooked = proc_session_hooked(ses, s);
	if (!*hooked) {
		*chain = s->callchain;
		return s->nr_callchain;
	}
	if (!ses->chain_valid || ses->chain_of != s) {
		ses->chain_len = ses->src.chain(ses->src.ctx, s, ses->src.buf,
						ses->src.max);
		ses->chain_of = s;
		ses->chain_valid = true;
	}
	*chain = ses->src.buf;
	return ses->chain_len;
}

size_t proc_session_chain(struct proc_session *ses, const struct pd_sample *s,
			  const uint64_t **chain)
{
	bool hooked;
	return sample_chain(ses, s, chain, &hooked);
}

/* True when a recorded chain holds, among the entries perf reads (up to
 * max addresses), a value above PD_CONTEXT_MAX that is no context
 * marker: perf reports "invalid callchain context" and resolves none of
 * the chain (perf script prints the sample with no frames). A context
 * scorch knows is kept, though perf 6.1 takes only HV, KERNEL and USER. */
static bool bad_context(const uint64_t *chain, uint64_t nr, size_t max)
{
	size_t ips = 0;
	for (uint64_t i = 0; i < nr && ips < max; i++) {
		uint64_t v = chain[i];
		if (v < PD_CONTEXT_MAX)
			ips++;
		else if (v != PD_CONTEXT_HV && v != PD_CONTEXT_KERNEL &&
			 v != PD_CONTEXT_USER && v != PD_CONTEXT_USER_DEFERRED &&
			 v != PD_CONTEXT_GUEST_KERNEL && v != PD_CONTEXT_GUEST_USER)
			return true;
	}
	return false;
}

void proc_chain_walk_init(struct proc_session *ses, const struct pd_sample *s,
			  struct proc_chain_walk *w)
{
	memset(w, 0, sizeof(*w));
	w->nr = sample_chain(ses, s, &w->chain, &w->hooked);
	if (!w->hooked && (!(s->sample_type & PD_SAMPLE_CALLCHAIN) || s->nr_callchain == 0)) {
		w->single = s->ip;   /* the sampled ip is the one frame */
		w->chain = &w->single;
		w->nr = 1;
		w->kernel = pd_cpumode_is_kernel(s->cpumode);
		w->max_frames = 1;
		return;
	}
	w->markers = true;
	w->max_frames = ses->opts.max_stack;
	w->inl = ses->src.inl && (w->hooked || ses->src.inline_all);
	if (!w->hooked && bad_context(w->chain, w->nr, w->max_frames))
		w->nr = 0; /* perf drops the whole chain */
}

bool proc_chain_walk_next(struct proc_chain_walk *w, uint64_t *ip, bool *kernel,
			  bool *inl)
{
	while (w->i < w->nr) {
		uint64_t v = w->chain[w->i++];
		/* unwound frames follow the hook's PD_CONTEXT_USER: no markers
		 * there (its end mark, (uint64_t)-1, is an address to perf) */
		if (w->markers && v >= PD_CONTEXT_MAX && !w->unwound) {
			w->unwound = w->hooked && v == PD_CONTEXT_USER;
			if (v == PD_CONTEXT_KERNEL || v == PD_CONTEXT_GUEST_KERNEL)
				w->kernel = true;
			else if (v == PD_CONTEXT_USER || v == PD_CONTEXT_GUEST_USER)
				w->kernel = false;
			continue;
		}
		*ip = v;
		*kernel = w->kernel;
		*inl = w->inl && !w->kernel;
		return true;
	}
	return false;
}

size_t proc_session_ip_frames(struct proc_session *ses, struct proc_thread *t,
			      bool kernel, bool inl, uint64_t ip,
			      struct proc_frame **frames)
{
	proc_session_resolve(ses, t, kernel, ip, frame_slot(ses, 0));
	size_t n = inl ? add_inlines(ses, 1) : 1;
	*frames = ses->frames;
	return n;
}

static size_t resolve_chain(struct proc_session *ses, struct proc_thread *t,
			    const struct pd_sample *s)
{
	size_t n = 0;
	struct proc_chain_walk w;
	uint64_t ip;
	bool kernel, inl;
	proc_chain_walk_init(ses, s, &w);
	while (n < w.max_frames && proc_chain_walk_next(&w, &ip, &kernel, &inl)) {
		proc_session_resolve(ses, t, kernel, ip, frame_slot(ses, n++));
		if (inl)
			n = add_inlines(ses, n);
	}
	return n;
}

size_t proc_session_frames(struct proc_session *ses, const struct proc_sample *ps,
			   struct proc_frame **frames)
{
	size_t n = resolve_chain(ses, ps->thread, ps->s);
	*frames = ses->frames;
	return n;
}

bool proc_session_hooked(const struct proc_session *ses, const struct pd_sample *s)
{
	return ses->src.chain && s->regs_user.abi && s->stack_dyn_size;
}

static int deliver_sample(struct proc_session *ses, const struct pd_sample *s)
{
	ses->nr_samples++;
	ses->chain_valid = false;
	struct proc_thread *t = proc_machine_findnew_thread(&ses->machine, s->pid, s->tid);
	struct proc_sample ps = { s, t, NULL, 0 };
	if (!ses->opts.lazy) {
		ps.nframes = resolve_chain(ses, t, s);
		ps.frames = ses->frames;
		for (size_t i = 0; i < ps.nframes; i++)
			if (ps.frames[i].dso)
				ps.frames[i].dso->hits++;
	}
	return ses->on_sample ? ses->on_sample(ses->ctx, ses, &ps) : 0;
}

static void deliver_mmap(struct proc_session *ses, const struct pd_mmap *m)
{
	bool kernel = pd_cpumode_is_kernel(m->cpumode);
	proc_machine_mmap(&ses->machine, m->pid, kernel, m->start, m->len, m->pgoff,
			  m->filename, !m->data,
			  m->has_build_id ? m->build_id : NULL, m->build_id_size);
}

static int deliver(struct proc_session *ses, const struct proc_qev *e)
{
	switch (e->kind) {
	case QEV_SAMPLE:
		return deliver_sample(ses, &e->u.s);
	case QEV_MMAP:
		if (!(ses->opts.no_mmap2 && e->u.m.mmap2))
			deliver_mmap(ses, &e->u.m);
		break;
	case QEV_COMM:
		proc_machine_comm(&ses->machine, e->u.c.pid, e->u.c.tid, e->u.c.comm,
				  e->u.c.exec);
		if (e->u.c.sid.present & PD_SAMPLE_TID)
			proc_machine_comm_made(&ses->machine, e->u.c.sid.tid);
		break;
	case QEV_LOST:
		return ses->on_lost ? ses->on_lost(ses->ctx, &e->u.l) : 0;
	case QEV_TASK:
		if (ses->on_task) {
			int rc = ses->on_task(ses->ctx, &e->u.t);
			if (rc < 0)
				return rc;
		}
		if (!e->u.t.exit)
			proc_machine_fork(&ses->machine, e->u.t.pid, e->u.t.ppid,
					  e->u.t.tid, e->u.t.ptid);
		else
			proc_machine_exit(&ses->machine, e->u.t.pid, e->u.t.tid, e->time);
		break;
	}
	return 0;
}

/* ---- queue ---- */

static int by_time(const void *pa, const void *pb)
{
	const struct proc_qev *a = *(const struct proc_qev *const *)pa;
	const struct proc_qev *b = *(const struct proc_qev *const *)pb;
	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static bool before(const struct proc_qev *a, const struct proc_qev *b)
{
	return a->time != b->time ? a->time < b->time : a->seq < b->seq;
}

/* Merge the sorted src[lo, mid) and src[mid, hi) into dst[lo, hi). */
static void merge_two(struct proc_qev *const *src, struct proc_qev **dst,
		      size_t lo, size_t mid, size_t hi)
{
	size_t a = lo, b = mid, k = lo;
	while (a < mid && b < hi)
		dst[k++] = before(src[b], src[a]) ? src[b++] : src[a++];
	while (a < mid)
		dst[k++] = src[a++];
	while (b < hi)
		dst[k++] = src[b++];
}

/*
 * Sort q[0, n) by (time, seq): its ascending runs merged pairwise, pass
 * by pass. A round of a system-wide recording is a few runs (one per
 * CPU's buffer, each in time order), so that is a few linear passes
 * where qsort made n log n calls of by_time (9% of the instructions
 * folding one); many short runs go to qsort.
 */
static void sort_runs(struct proc_session *ses, struct proc_qev **q, size_t n)
{
	size_t nruns = 1;
	for (size_t i = 1; i < n; i++)
		nruns += before(q[i], q[i - 1]);
	if (nruns == 1)
		return;
	if (nruns > 64 && nruns > n / 16) {
		qsort(q, n, sizeof(*q), by_time);
		return;
	}
	XGROW(ses->runs, ses->runs_cap, nruns + 1);
	XGROW(ses->merge, ses->merge_cap, n);
	size_t r = 0;
	ses->runs[r++] = 0;
	for (size_t i = 1; i < n; i++)
		if (before(q[i], q[i - 1]))
			ses->runs[r++] = i;
	ses->runs[nruns] = n;
	struct proc_qev **src = q, **dst = ses->merge;
	while (nruns > 1) {
		size_t out = 0;
		for (r = 0; r < nruns; r += 2) {
			size_t lo = ses->runs[r], mid = ses->runs[r + 1];
			size_t hi = r + 1 < nruns ? ses->runs[r + 2] : mid;
			merge_two(src, dst, lo, mid, hi);
			ses->runs[out++] = lo;
		}
		ses->runs[out] = n;
		nruns = out;
		struct proc_qev **t = src;
		src = dst;
		dst = t;
	}
	if (src != q)
		memcpy(q, src, n * sizeof(*q));
}

/*
 * Sort the queue by (time, seq), a total order. What the previous flush
 * left is sorted already: sort only what came since (often in order
 * already) and merge the two runs, instead of sorting everything again.
 */
static void sort_queue(struct proc_session *ses)
{
	struct proc_qev **q = ses->q;
	size_t old = ses->nsorted < ses->nq ? ses->nsorted : 0, n = ses->nq;
	sort_runs(ses, q + old, n - old);
	if (old == 0 || old == n || before(q[old - 1], q[old]))
		return;
	XGROW(ses->merge, ses->merge_cap, old);
	memcpy(ses->merge, q, old * sizeof(*q));
	size_t a = 0, b = old, k = 0;   /* k <= b: writes never pass reads */
	while (a < old && b < n)
		q[k++] = before(q[b], ses->merge[a]) ? q[b++] : ses->merge[a++];
	while (a < old)
		q[k++] = ses->merge[a++];
}

/*
 * Start loading a queued sample's stack copy while the sample before it
 * is delivered: nothing has read those bytes yet (the reader decodes up
 * to them), and unwinding's first loads from each copy waited on memory,
 * each step's behind the last one's. One real load makes sure the page
 * is walked to (a prefetch alone may be dropped there); the lines after
 * it, up to the 2 KB a deep stack's unwinding reads, are prefetched.
 * Sort bench: 2-9% less CPU in two runs of 25-31 alternating runs each;
 * no measurable change on the work bench. (A prefetch of 1 KB without the
 * load measured nothing on either.)
 */
enum { PREFETCH_STACK = 2048 };

static void prefetch_stack(const struct proc_qev *e)
{
	if (e->kind != QEV_SAMPLE)
		return;
	const struct pd_sample *s = &e->u.s;
	uint64_t n = s->stack_dyn_size < s->stack_size ? s->stack_dyn_size : s->stack_size;
	if (n == 0)
		return;
	const volatile uint8_t *p = s->stack;
	(void)p[0];
	for (uint64_t off = 64; off < n && off < PREFETCH_STACK; off += 64)
		__builtin_prefetch((const void *)(p + off));
}

static int flush_upto(struct proc_session *ses, uint64_t limit)
{
	if (ses->nq == 0)
		return 0;
	sort_queue(ses);
	size_t i = 0;
	int rc = 0;
	for (; i < ses->nq && ses->q[i]->time <= limit; i++) {
		if (i + 1 < ses->nq)
			prefetch_stack(ses->q[i + 1]);
		if (rc == 0)
			rc = deliver(ses, ses->q[i]);
		ses->qbytes -= ses->q[i]->bytes;
		put_qev(ses, ses->q[i]);
	}
	memmove(ses->q, ses->q + i, (ses->nq - i) * sizeof(*ses->q));
	ses->nq -= i;
	ses->nsorted = ses->nq;
	return rc;
}

/*
 * The queue's bounds, for streams whose FINISHED_ROUNDs are missing or
 * far apart (perf's ordered_events does the same with its allocation
 * limit): above QUEUE_MAX_BYTES, the older half of the queued time span
 * is delivered; until a round is seen, so is whatever lies more than
 * QUEUE_MAX_SPAN of recording time behind the newest event. Rounds in a
 * perf.data are far smaller, so recordings deliver as before.
 */
enum { QUEUE_MAX_BYTES = 64 << 20 };
#define QUEUE_MAX_SPAN 10000000000ull   /* 10 s in ns */

static int flush_bounded(struct proc_session *ses)
{
	int rc = 0;
	if (ses->qbytes > QUEUE_MAX_BYTES) {
		sort_queue(ses);
		uint64_t first = ses->q[0]->time;
		rc = flush_upto(ses, first + (ses->max_time - first) / 2);
		/* most of it at the newest times: all of it, or every
		 * event would sort the queue again */
		if (rc == 0 && ses->qbytes > QUEUE_MAX_BYTES / 2)
			rc = flush_upto(ses, ses->max_time);
	} else if (!ses->rounds && ses->max_time - ses->oldest > QUEUE_MAX_SPAN) {
		rc = flush_upto(ses, ses->max_time - QUEUE_MAX_SPAN);
	} else {
		return 0;
	}
	/* flush_upto left the queue sorted */
	ses->oldest = ses->nq ? ses->q[0]->time : ses->max_time;
	return rc;
}

static int enqueue(struct proc_session *ses, struct proc_qev *e, bool has_time)
{
	e->seq = ses->seq++;
	if (!has_time) {
		int rc = deliver(ses, e);
		put_qev(ses, e);
		return rc;
	}
	if (e->time > ses->max_time)
		ses->max_time = e->time;
	if (ses->nq == 0 || e->time < ses->oldest)
		ses->oldest = e->time;
	XGROW(ses->q, ses->qcap, ses->nq + 1);
	ses->q[ses->nq++] = e;
	ses->qbytes += e->bytes;
	return flush_bounded(ses);
}

/* The caller fills the union member of its kind and the time (the
 * whole event zeroed first was a 360-byte memset per sample). Events
 * up to PROC_QEV_CLASSES * QEV_CLASS bytes come from the pool of their
 * size class: each MMAP, COMM, FORK, EXIT and sample was a malloc and a
 * free (1.2M of each, 11% of the instructions folding a system-wide
 * recording). The pools hold at most what the queue held at its
 * fullest. */
enum { QEV_CLASS = 128 };

static struct proc_qev *new_qev(struct proc_session *ses, int kind, size_t extra)
{
	size_t bytes = sizeof(struct proc_qev) + extra;
	size_t c = (bytes + QEV_CLASS - 1) / QEV_CLASS;
	struct proc_qev *e;
	if (c < PROC_QEV_CLASSES && ses->pool[c]) {
		e = ses->pool[c];
		memcpy(&ses->pool[c], &e->u, sizeof(e));
	} else {
		if (c < PROC_QEV_CLASSES)
			bytes = c * QEV_CLASS;
		e = xmalloc(bytes);
	}
	e->time = e->seq = 0;
	e->bytes = bytes;
	e->kind = kind;
	return e;
}

/* Done with e: into its pool (linked through its union), or freed. */
static void put_qev(struct proc_session *ses, struct proc_qev *e)
{
	size_t c = e->bytes / QEV_CLASS;
	if (e->bytes % QEV_CLASS || c >= PROC_QEV_CLASSES) {
		free(e);
		return;
	}
	memcpy(&e->u, &ses->pool[c], sizeof(e));
	ses->pool[c] = e;
}

static void drain_pool(struct proc_session *ses)
{
	for (size_t c = 0; c < PROC_QEV_CLASSES; c++) {
		struct proc_qev *e = ses->pool[c];
		while (e) {
			struct proc_qev *next;
			memcpy(&next, &e->u, sizeof(next));
			free(e);
			e = next;
		}
		ses->pool[c] = NULL;
	}
}

static void *copy_into(uint8_t **p, const void *src, size_t n)
{
	if (!src || n == 0)
		return NULL;
	void *dst = *p;
	memcpy(dst, src, n);
	*p += (n + 7) & ~(size_t)7;
	return dst;
}

static size_t up8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

static int on_sample(void *ctx, const struct pd_sample *s)
{
	struct proc_session *ses = ctx;
	size_t chain = (size_t)s->nr_callchain * 8;
	size_t regs = s->regs_user.nr * 8;
	/* only the valid part of the stack copy (usually all of it is
	 * recorded but much less is valid): the rest is never read */
	size_t stack = (size_t)(s->stack_dyn_size < s->stack_size ? s->stack_dyn_size
								   : s->stack_size);
	bool ref_stack = s->rec && s->rec->stable;
	size_t extra = up8(chain) + up8(s->raw_size) + up8(regs) +
		       (ref_stack ? 0 : up8(stack));
	struct proc_qev *e = new_qev(ses, QEV_SAMPLE, extra);
	e->u.s = *s;
	e->u.s.rec = NULL;
	uint8_t *p = e->data;
	e->u.s.callchain = copy_into(&p, s->callchain, chain);
	e->u.s.raw = copy_into(&p, s->raw, s->raw_size);
	e->u.s.regs_user.regs = copy_into(&p, s->regs_user.regs, regs);
	e->u.s.stack = ref_stack ? s->stack : copy_into(&p, s->stack, stack);
	e->u.s.stack_size = stack;
	e->u.s.read = NULL;
	e->u.s.branches = NULL;
	e->u.s.nr_branches = 0;
	e->u.s.regs_intr.regs = NULL;
	e->u.s.regs_intr.nr = 0;
	e->u.s.aux = NULL;
	e->u.s.aux_size = 0;
	e->time = s->time;
	return enqueue(ses, e, (s->sample_type & PD_SAMPLE_TIME) != 0);
}

static int on_mmap(void *ctx, const struct pd_mmap *m)
{
	struct proc_session *ses = ctx;
	size_t len = strlen(m->filename) + 1;
	struct proc_qev *e = new_qev(ses, QEV_MMAP, up8(len));
	e->u.m = *m;
	e->u.m.rec = NULL;
	uint8_t *p = e->data;
	e->u.m.filename = copy_into(&p, m->filename, len);
	e->time = m->sid.time;
	return enqueue(ses, e, (m->sid.present & PD_SAMPLE_TIME) != 0);
}

static int on_comm(void *ctx, const struct pd_comm *c)
{
	struct proc_session *ses = ctx;
	size_t len = strlen(c->comm) + 1;
	struct proc_qev *e = new_qev(ses, QEV_COMM, up8(len));
	e->u.c = *c;
	e->u.c.rec = NULL;
	uint8_t *p = e->data;
	e->u.c.comm = copy_into(&p, c->comm, len);
	e->time = c->sid.time;
	return enqueue(ses, e, (c->sid.present & PD_SAMPLE_TIME) != 0);
}

static int on_task(void *ctx, const struct pd_task *t)
{
	struct proc_session *ses = ctx;
	struct proc_qev *e = new_qev(ses, QEV_TASK, 0);
	e->u.t = *t;
	e->u.t.rec = NULL;
	e->time = t->sid.present & PD_SAMPLE_TIME ? t->sid.time : t->time;
	return enqueue(ses, e, (t->sid.present & PD_SAMPLE_TIME) != 0);
}

static int on_lost(void *ctx, const struct pd_lost *l)
{
	struct proc_session *ses = ctx;
	ses->nr_lost += l->lost;
	if (!ses->on_lost || l->lost_samples)
		return 0;
	struct proc_qev *e = new_qev(ses, QEV_LOST, 0);
	e->u.l = *l;
	e->u.l.rec = NULL;
	e->time = l->sid.time;
	return enqueue(ses, e, (l->sid.present & PD_SAMPLE_TIME) != 0);
}

void proc_session_on_lost(struct proc_session *ses,
			  int (*fn)(void *ctx, const struct pd_lost *l))
{
	ses->on_lost = fn;
}

void proc_session_on_task(struct proc_session *ses,
			  int (*fn)(void *ctx, const struct pd_task *t))
{
	ses->on_task = fn;
}

static int on_build_id(void *ctx, const struct pd_build_id *b)
{
	struct proc_session *ses = ctx;
	apply_build_id(ses, b->cpumode, b->filename, b->build_id, b->size);
	return 0;
}

static int on_round(void *ctx)
{
	struct proc_session *ses = ctx;
	ses->rounds = true;
	int rc = flush_upto(ses, ses->next_flush);
	ses->next_flush = ses->max_time;
	return rc;
}

int proc_session_run(struct proc_session *ses, proc_sample_fn fn, void *ctx)
{
	ses->on_sample = fn;
	ses->ctx = ctx;
	struct pd_handlers h = {
		.ctx = ses,
		.on_sample = on_sample,
		.on_mmap = on_mmap,
		.on_comm = on_comm,
		.on_task = on_task,
		.on_lost = on_lost,
		.on_build_id = on_build_id,
		.on_finished_round = on_round,
	};
	int rc = pd_reader_run(ses->reader, &h);
	if (rc < 0) {
		diag_clear(&ses->diag);
		ses->diag = *pd_reader_diag(ses->reader);
		return rc;
	}
	int frc = flush_upto(ses, UINT64_MAX);
	return rc ? rc : frc;
}
