/*
 * fold_perfdata: the perf.data input of `scorch fold` (see
 * fold_perfdata.h). Stage: command. Each sample becomes the strings
 * `perf script` would print for it (process name, ids, and per frame the
 * address, symbol and dso), which go through the same collapse_perf_*
 * functions as the text path, so both paths fold identically.
 * Key invariant: what perf script would not show (filtered samples, an
 * event other than the first one met unless --event-filter) is skipped
 * exactly as stackcollapse-perf.pl skips it.
 */
#include "cmd/fold_perfdata.h"

#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#include "base/diag.h"
#include "base/hmap.h"
#include "base/u64map.h"
#include "base/xalloc.h"
#include "base/strbuf.h"
#include "cmd/symopts.h"
#include "perfdata/feature.h"
#include "process/session.h"
#include "unwind/sample.h"

struct fold_ctx {
	const struct fold_perfdata_opts *o;
	struct collapse_opts copts;
	struct stack_table *out;
	struct sample_filter filter;
	struct stack_builder b;
	struct strbuf pname, scratch;
	struct strbuf event;       /* the event kept (given or first seen) */
	struct hmap chains;        /* sample key -> stack id + 1 (see chain_key) */
	struct strbuf key;
	struct hmap frame_memo;    /* struct frame_key -> offset in memo_text */
	struct u64map ip_memo;     /* chain address -> index + 1 in ipv of
				    * its latest variant (see push_ip) */
	struct ip_variant *ipv;
	size_t nipv, ipv_cap;
	struct strbuf memo_text;   /* per memo entry: u32 count, then per
				    * part u32 length and its bytes (an
				    * ip_memo entry: u32 frames first) */
	bool event_set, event_defaulted, warned, info_set;
	uint64_t samples;
};

/* The event name perf script ends the header with, or NULL when the
 * header line does not end with "event:" (tracepoints print their
 * fields after it). Samples without a call chain (perf script prints
 * them on one line, which stackcollapse-perf.pl folds to nothing) are
 * folded here as "comm;symbol" weighted by their period, as if perf had
 * printed the sampled frame below the header. */
static const char *header_event(const struct proc_sample *ps)
{
	const struct pd_attr *a = ps->s->attr;
	if (!a || a->type == PD_TYPE_TRACEPOINT)
		return NULL;
	return sample_event_name(ps);
}

static bool keep_event(struct fold_ctx *c, const char *ev)
{
	if (!ev)
		return true;
	if (!c->event_set) {
		sb_adds(&c->event, ev);
		c->event_set = true;
		c->event_defaulted = true;
		return true;
	}
	if (strcmp(ev, c->event.buf) == 0)
		return true;
	if (c->event_defaulted && !c->warned) {
		diag_warn("Filtering for events of type: %s", c->event.buf);
		c->warned = true;
	}
	return false;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/*
 * Split "SYM (DSO)" as stackcollapse-perf.pl's /(.+) \((\S*)\)/ does:
 * the rightmost " (" followed by a run of non-space bytes that holds a
 * ')'; the dso is that run up to its last ')'. Names with spaces or
 * parentheses (a "(deleted)" mapping) split where Perl splits them.
 */
static bool perl_split(const char *t, size_t n, size_t *func_len,
		       size_t *mod_off, size_t *mod_len)
{
	for (size_t p = n; p-- > 1;) {
		if (t[p] != '(' || t[p - 1] != ' ' || p - 1 == 0)
			continue;
		size_t q = p + 1, last = 0;
		bool found = false;
		for (; q < n && !is_space(t[q]); q++)
			if (t[q] == ')') {
				last = q;
				found = true;
			}
		if (!found)
			continue;
		*func_len = p - 1;
		*mod_off = p + 1;
		*mod_len = last - (p + 1);
		return true;
	}
	return false;
}

static void push_frame(struct fold_ctx *c, const struct proc_frame *f, bool java)
{
	struct strbuf *s = &c->scratch;
	sb_reset(s);
	sb_add_hex(s, f->addr, 0);
	size_t pc_len = s->len;
	const char *sym = f->sym ? f->sym->name : "[unknown]";
	const char *dso = f->dso ? f->dso->name : "[unknown]";
	if (f->inline_name) { /* perf script: "name+off (inlined)" */
		sym = f->inline_name;
		dso = "inlined";
	}
	size_t text = s->len;
	sb_adds(s, sym);   /* "sym (dso)", as perf script prints it */
	sb_add(s, " (", 2);
	sb_adds(s, dso);
	sb_addc(s, ')');
	size_t func_len, mod_off, mod_len;
	if (!perl_split(s->buf + text, s->len - text, &func_len, &mod_off, &mod_len))
		return; /* Perl would not see a frame line */
	struct collapse_frame cf = {
		s->buf, pc_len, s->buf + text, func_len, s->buf + text + mod_off,
		mod_len, NULL, NULL
	};
	collapse_perf_frame(&c->copts, java, &cf, &c->b);
}

/*
 * What a frame folds to depends only on its address, symbol, dso,
 * inline name and the java flag (the options are fixed for the run):
 * push_frame's text work is done once per distinct frame and its parts
 * replayed from the memo (every frame of every new chain comes here;
 * recursive code makes many chains of few frames).
 */
struct frame_key {
	uint64_t addr;
	uintptr_t sym, dso, inl;
	uint64_t java;
};

static void memo_put_u32(struct strbuf *m, uint32_t v)
{
	sb_add(m, &v, sizeof(v));
}

static uint32_t memo_u32(const struct strbuf *m, size_t at)
{
	uint32_t v;
	memcpy(&v, m->buf + at, sizeof(v));
	return v;
}

/* Record the parts push_frame added to b since frame index first. */
static size_t memo_record(struct fold_ctx *c, size_t first)
{
	struct strbuf *m = &c->memo_text;
	const struct stack_builder *b = &c->b;
	size_t at = m->len;
	memo_put_u32(m, (uint32_t)(b->nframes - first));
	for (size_t i = first; i < b->nframes; i++) {
		size_t start = i ? b->ends[i - 1] : 0;
		memo_put_u32(m, (uint32_t)(b->ends[i] - start));
		sb_add(m, b->text.buf + start, b->ends[i] - start);
	}
	return at;
}

static void memo_replay(struct fold_ctx *c, size_t at)
{
	const struct strbuf *m = &c->memo_text;
	uint32_t n = memo_u32(m, at);
	at += 4;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t len = memo_u32(m, at);
		stack_builder_push(&c->b, m->buf + at + 4, len);
		at += 4 + (size_t)len;
	}
}

static void push_frame_memo(struct fold_ctx *c, const struct proc_frame *f,
			    bool java)
{
	struct frame_key k = { f->addr, (uintptr_t)f->sym, (uintptr_t)f->dso,
			       (uintptr_t)f->inline_name, java };
	bool added;
	size_t id = hmap_put(&c->frame_memo, &k, sizeof(k), &added);
	if (!added) {
		memo_replay(c, hmap_at(&c->frame_memo, id)->value);
		return;
	}
	size_t first = c->b.nframes;
	push_frame(c, f, java);
	hmap_at(&c->frame_memo, id)->value = memo_record(c, first);
}

/*
 * Samples with the same call chain, thread and comm fold to the same
 * stack as long as no COMM, FORK or MMAP changed how addresses resolve
 * (the machine's generation): remember the stack id and skip the symbol
 * lookups and the string work. For DWARF samples the chain is the one
 * the unwinder gave (it depends on the stack copy, so it is unwound
 * first; a flag keeps it apart from a recorded chain with the same ips,
 * since it resolves differently: inline rows, the end mark).
 */
/* The fixed part of a chain key, in an order without padding before
 * its last byte (only bytes up to it are hashed). */
struct chain_head {
	uint64_t generation;
	const char *comm;
	uint32_t pid, tid;
	uint8_t cpumode, hooked;
};

static void chain_key(struct fold_ctx *c, struct proc_session *ses,
		      const struct proc_sample *ps)
{
	struct strbuf *k = &c->key;
	const struct pd_sample *s = ps->s;
	struct chain_head head = { ses->machine.generation, ps->thread->comm, s->pid, s->tid,
		   (uint8_t)s->cpumode, proc_session_hooked(ses, s) };
	const uint64_t *chain = &s->ip;   /* the sampled ip is the one frame */
	size_t n = 1;
	if (head.hooked)
		n = proc_session_chain(ses, s, &chain);
	else if ((s->sample_type & PD_SAMPLE_CALLCHAIN) && s->nr_callchain)
		chain = s->callchain, n = (size_t)s->nr_callchain;
	size_t hlen = offsetof(struct chain_head, hooked) + 1;
	sb_reset(k);
	sb_grow(k, hlen + n * 8);
	memcpy(k->buf, &head, hlen);
	memcpy(k->buf + hlen, chain, n * 8);
	sb_setlen(k, hlen + n * 8);
}

/*
 * What one address of a chain folds to (its frame, or its inline rows)
 * depends only on the address space resolving it (the kernel's, or the
 * thread's maps as of the machine's generation), whether it expands
 * into inline rows, and the java flag: each such address is resolved
 * and its parts built once, then replayed. A DWARF recording makes many
 * distinct chains of few addresses (the leaf's exact pc, recursion
 * depths), and resolving every frame of each new chain cost more than
 * unwinding it.
 */
struct ip_variant {
	uint64_t generation;
	uint64_t space;   /* (maps_id + 1, 0: the kernel) << 2 | inl << 1 | java */
	size_t at;        /* its entry in memo_text */
	size_t next;      /* index + 1 of the ip's previous variant, 0: none */
};

/* Both memos and their text, dropped together when one grows large
 * (ip variants point into the text). */
static void memo_bound(struct fold_ctx *c)
{
	if (c->frame_memo.count <= (1u << 20) && c->nipv <= (1u << 20) &&
	    c->memo_text.len <= (64u << 20))
		return;
	hmap_release(&c->frame_memo);
	hmap_init(&c->frame_memo);
	u64map_clear(&c->ip_memo);
	c->nipv = 0;
	sb_reset(&c->memo_text);
}

/* The memo entry of ip in space as of generation, or SIZE_MAX. An
 * address's variants are newest first, and generations only grow: the
 * walk stops at the first older one (a shell starting programs makes
 * thousands of generations). */
static size_t ip_memo_find(const struct fold_ctx *c, uint64_t ip,
			   uint64_t generation, uint64_t space)
{
	const uint64_t *head = u64map_find(&c->ip_memo, ip);
	for (size_t v = head ? *head : 0; v && c->ipv[v - 1].generation == generation;
	     v = c->ipv[v - 1].next)
		if (c->ipv[v - 1].space == space)
			return c->ipv[v - 1].at;
	return SIZE_MAX;
}

static void ip_memo_add(struct fold_ctx *c, uint64_t ip, uint64_t generation,
			uint64_t space, size_t at)
{
	bool added;
	uint64_t *head = u64map_put(&c->ip_memo, ip, &added);
	XGROW(c->ipv, c->ipv_cap, c->nipv + 1);
	c->ipv[c->nipv] = (struct ip_variant){ generation, space, at, (size_t)*head };
	*head = ++c->nipv;
}

/* Push the parts of one address's frames; returns how many frames. */
static size_t push_ip(struct fold_ctx *c, struct proc_session *ses,
		      struct proc_thread *t, uint64_t ip, bool kernel, bool inl,
		      bool java)
{
	uint64_t gen = ses->machine.generation;
	uint64_t space = (kernel ? 0 : (uint64_t)t->maps_id + 1) << 2 |
			 (uint64_t)inl << 1 | (uint64_t)java;
	size_t at = ip_memo_find(c, ip, gen, space);
	if (at != SIZE_MAX) {
		memo_replay(c, at + 4);
		return memo_u32(&c->memo_text, at);
	}
	struct proc_frame *frames;
	size_t n = proc_session_ip_frames(ses, t, kernel, inl, ip, &frames);
	size_t first = c->b.nframes;
	for (size_t i = 0; i < n; i++)
		push_frame_memo(c, &frames[i], java);
	at = c->memo_text.len;
	memo_put_u32(&c->memo_text, (uint32_t)n);
	memo_record(c, first);
	ip_memo_add(c, ip, gen, space, at);
	return n;
}

/* "%d" of v into buf (room for 12 bytes), without printf: twice per
 * new chain, snprintf was 4% of the instructions folding a DWARF
 * recording of many distinct chains. */
static size_t int_text(char *buf, int v)
{
	char tmp[12];
	size_t n = 0, len = 0;
	uint32_t u = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		buf[len++] = '-';
	while (n > 0)
		buf[len++] = tmp[--n];
	buf[len] = '\0';
	return len;
}

/*
 * An exiting task sampled system-wide has pid/tid -1, which perf script
 * prints as ":-1    -1 [000] ...": the Perl header regex wants a space
 * before the id, so it takes the id from the period and the process
 * name from everything before it (or finds none in a tracepoint's
 * fields, whose values follow '='). Give its rules the header perf
 * script prints (the event name and field values cannot hold " N ");
 * false: Perl drops the sample.
 */
static bool minus_one_pname(struct fold_ctx *c, const struct proc_sample *ps,
			    const char *ev)
{
	const struct pd_sample *s = ps->s;
	struct strbuf *h = &c->scratch;
	if (!ev)
		return false; /* a tracepoint: "name=value" fields only */
	sb_reset(h);
	sb_addf(h, "%s %5d ", ps->thread->comm, (int)s->tid);
	if (s->sample_type & PD_SAMPLE_CPU)
		sb_addf(h, "[%03u] ", s->cpu);
	if (s->sample_type & PD_SAMPLE_TIME)
		sb_addf(h, "%5llu.%06llu: ", (unsigned long long)(s->time / 1000000000u),
			(unsigned long long)(s->time % 1000000000u / 1000u));
	sb_addf(h, "%10llu %s: ", (unsigned long long)s->period, ev);
	return collapse_perf_header_pname(&c->copts, h->buf, h->len, &c->pname);
}

static size_t build_stack(struct fold_ctx *c, struct proc_session *ses,
			  const struct proc_sample *ps, uint64_t weight)
{
	char pid[16], tid[16];
	if ((int)ps->s->tid >= 0) {
		size_t pl = int_text(pid, (int)ps->s->pid);
		size_t tl = int_text(tid, (int)ps->s->tid);
		sb_reset(&c->pname);
		const char *comm = ps->thread->comm;
		collapse_perf_comm(&c->copts, comm, strlen(comm), pid, pl, tid, tl,
				   &c->pname);
	}
	bool java = collapse_perf_is_java(c->pname.buf, c->pname.len);
	stack_builder_reset(&c->b);
	memo_bound(c);
	struct proc_chain_walk w;
	uint64_t ip;
	bool kernel, inl;
	size_t n = 0;
	proc_chain_walk_init(ses, ps->s, &w);
	while (n < w.max_frames && proc_chain_walk_next(&w, &ip, &kernel, &inl))
		n += push_ip(c, ses, ps->thread, ip, kernel, inl, java);
	stack_builder_push(&c->b, c->pname.buf, c->pname.len);
	return stack_table_add_built(c->out, &c->b, STACK_LEAF_FIRST, weight);
}

static void note_event(struct fold_perfdata_info *in, const struct proc_sample *ps,
		       bool weighted)
{
	sb_reset(&in->event);
	sb_adds(&in->event, sample_event_name(ps));
	in->weighted = weighted;
	in->have_attr = ps->s->attr != NULL;
	if (ps->s->attr) {
		in->type = ps->s->attr->type;
		in->config = ps->s->attr->config;
	}
}

static void note_cmdline(struct fold_perfdata_info *in, const struct proc_session *ses)
{
	const struct pd_features *f = pd_reader_features(ses->reader);
	sb_reset(&in->cmdline);
	for (size_t i = 0; f && i < f->cmdline_nr; i++) {
		if (i)
			sb_addc(&in->cmdline, ' ');
		sb_adds(&in->cmdline, f->cmdline[i]);
	}
}

static int on_sample(void *ctx, struct proc_session *ses, const struct proc_sample *ps)
{
	struct fold_ctx *c = ctx;
	if (!sample_filter_keep(&c->filter, ps))
		return 0;
	const char *ev = header_event(ps);
	if (!keep_event(c, ev))
		return 0;
	uint64_t weight = 1;
	if (ev && ps->s->period)
		weight = ps->s->period; /* perf script prints the period */
	if (c->o->info && !c->info_set)
		note_event(c->o->info, ps, ev != NULL);
	c->info_set = true;
	if ((int)ps->s->tid < 0) { /* rare, and its name holds the time */
		if (minus_one_pname(c, ps, ev)) {
			c->samples++;
			build_stack(c, ses, ps, weight);
		}
		return 0;
	}
	c->samples++;
	if (c->chains.count > (1u << 20)) { /* bound the cache */
		hmap_release(&c->chains);
		hmap_init(&c->chains);
	}
	chain_key(c, ses, ps);
	bool added;
	size_t id = hmap_put(&c->chains, c->key.buf, c->key.len, &added);
	if (!added) {
		stack_table_add_id(c->out, hmap_at(&c->chains, id)->value, weight);
		return 0;
	}
	size_t sid = build_stack(c, ses, ps, weight);
	hmap_at(&c->chains, id)->value = sid;
	return 0;
}

/* Fold r's samples (r is freed here); shown names the input. */
static int run(struct pd_reader *r, const char *shown,
	       const struct fold_perfdata_opts *o, struct stack_table *out)
{
	struct symopts so = { .buildid_dir = o->buildid_dir, .symfs = o->symfs,
			      .kallsyms = o->kallsyms, .vdso = o->vdso,
			      .jit_dir = o->jit_dir };
	struct sym_config cfg;
	if (symopts_config(&so, &cfg)) {
		pd_reader_free(r);
		return 1;
	}
	struct fold_ctx c;
	memset(&c, 0, sizeof(c));
	c.o = o;
	c.copts = o->collapse;
	collapse_opts_finish(&c.copts);
	c.out = out;
	int bad = sample_filter_init(&c.filter, o->time, o->cpu, o->comm, o->event, "fold");
	if (bad) {
		pd_reader_free(r);
		symopts_release(&so);
		return bad; /* 2: a usage error, as in script and report */
	}
	if (c.copts.event_filter) {
		sb_adds(&c.event, c.copts.event_filter);
		c.event_set = true;
	}
	hmap_init(&c.chains);
	hmap_init(&c.frame_memo);
	struct proc_session ses;
	int rc = proc_session_attach(&ses, r, &cfg);
	if (rc >= 0)
		ses.resolve = false; /* frames on demand: see chain_key */
	if (rc < 0) {
		diag_print(&ses.diag, shown);
		proc_session_close(&ses);
		symopts_release(&so);
		return 1;
	}
	rc = symopts_run_unwound(&ses, o->no_inline ? UNW_INLINE_NONE
				 : c.copts.inline_ ? UNW_INLINE_ALL : UNW_INLINE_DWARF,
				 on_sample, &c, shown);
	bool all_dropped = symopts_report_run(&ses, rc, shown);
	if (rc >= 0)
		sample_filter_report(&c.filter, shown);
	if (rc >= 0 && o->info)
		note_cmdline(o->info, &ses);
	if (all_dropped)
		rc = -1; /* every sample dropped: nothing was folded */
	proc_session_close(&ses);
	symopts_release(&so);
	stack_builder_release(&c.b);
	hmap_release(&c.chains);
	hmap_release(&c.frame_memo);
	u64map_release(&c.ip_memo);
	free(c.ipv);
	sb_release(&c.memo_text);
	sb_release(&c.key);
	sb_release(&c.pname);
	sb_release(&c.scratch);
	sb_release(&c.event);
	return rc < 0 ? 1 : 0;
}

int fold_perfdata(const char *path, const struct fold_perfdata_opts *o,
		  struct stack_table *out)
{
	struct diag d = DIAG_INIT;
	struct pd_reader *r = pd_reader_open(path, &d);
	if (!r) {
		diag_print(&d, path);
		return 1;
	}
	return run(r, path, o, out);
}

int fold_perfdata_reader(struct pd_reader *r, const char *name,
			 const struct fold_perfdata_opts *o,
			 struct stack_table *out)
{
	return run(r, name, o, out);
}
