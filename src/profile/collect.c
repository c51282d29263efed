/*
 * collect: resolved frames and threads as frame descriptions, and the
 * sample collector of fold's perf.data input (see collect.h). Stage:
 * profile. Key invariant: a description holds what perf script prints
 * for the frame (symbol or inline name, dso), so its folded name equals
 * the pipeline's; a sample folds to what stackcollapse-perf.pl makes of
 * perf script's lines for it.
 */
#include "profile/collect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "symbols/inline.h"

void prof_desc_of_frame(const struct proc_frame *f, struct prof_frame_desc *d)
{
	memset(d, 0, sizeof(*d));
	d->flags = f->kernel ? PROF_F_KERNEL : PROF_F_USER;
	if (f->dso) {
		d->dso = f->dso->name;
		d->dso_len = strlen(f->dso->name);
		if (f->dso->kind == SYM_DSO_JIT)
			d->flags |= PROF_F_JIT;
	}
	d->addr = f->addr;
	if (f->inline_name) {
		d->kind = PROF_FRAME_SYMBOL;
		d->flags |= PROF_F_INLINE;
		d->name = f->inline_name;
	} else if (f->sym) {
		d->kind = PROF_FRAME_SYMBOL;
		d->name = f->sym->name;
	} else {
		d->kind = PROF_FRAME_ADDRESS;
	}
	d->name_len = d->name ? strlen(d->name) : 0;
}

void prof_desc_of_comm(const char *comm, int32_t pid, int32_t tid,
		       struct prof_frame_desc *d)
{
	memset(d, 0, sizeof(*d));
	d->kind = PROF_FRAME_COMM;
	d->name = comm;
	d->name_len = comm ? strlen(comm) : 0;
	d->pid = pid;
	d->tid = tid;
}

/* ---- the collector ---- */

/*
 * What one address of a chain resolves to (its frame, or its inline
 * rows) depends only on the object its map holds and the address in
 * it (the map address), whether it resolved in kernel maps and whether
 * it expands into inline rows; its names also on the java flag. So the
 * memo is keyed by (map address, object): an address of a library met
 * in one process is found again in every other process and after any
 * MMAP, FORK or COMM, and only finding the map is paid per new chain.
 * A DWARF recording makes many distinct chains of few addresses (the
 * leaf's exact pc, recursion depths), and a system-wide one thousands
 * of processes running the same few programs.
 */
struct prof_ip_variant {
	uintptr_t object; /* the map's object + 1, 0: no map */
	uint32_t next;    /* index + 1 of the address's previous variant, 0: none */
	uint32_t at;      /* flags << 29 | its entry in ids: frame count, name
			   * count, frame ids, name ids leaf first */
};

/* A resolved frame by the session's pointers (symbol, object, inline
 * name: they live as long as the session), so that a frame met again
 * (a new chain, a new generation of the same maps) finds its id with
 * one hash of these 40 bytes instead of interning its strings. */
struct frame_ptrs {
	uint64_t addr;    /* 0 when a symbol or inline name names it */
	uintptr_t sym, dso, inl;
	uint64_t kernel;
};

/* Bounds of the memo and of the frames met: past them, all is dropped
 * and met again. MEMO_MAX variants fill the address map's 2^16 slots
 * to 3/4 (one more would double it) and take 768 KiB; IDS_MAX ids
 * 1 MiB (~4 an address). The arrays grow to these bounds and not past
 * them (doubled, a memo of 2^18 variants took 25 MB, its growth copying
 * half that again: the peak RSS of a system-wide fold). The two
 * halvings of the bounds from 3 << 16 took 5.5 and 2.5 MB off that
 * fold's peak for +1.6% and +1.8% instructions (addresses resolved
 * again after a clear). */
enum {
	MEMO_MAX = 3u << 14, IDS_MAX = 1u << 18, IDS_SLACK = 4096,
	FRAMES_MAX = 1u << 20, CHAINS_MAX = 1u << 18, AT_BITS = 29
};

void prof_collector_init(struct prof_collector *c, const struct collapse_opts *o,
			 struct stack_table *out)
{
	memset(c, 0, sizeof(*c));
	c->out = out;
	c->copts = *o;
	collapse_opts_finish(&c->copts);
	prof_frames_init(&c->frames);
	prof_names_init(&c->names, &c->copts);
	hmap_init(&c->frame_ids);
	hmap_init(&c->src_files);
	prof_chain_cache_init(&c->chains, CHAINS_MAX);
	stack_builder_init(&c->b);
	sb_init(&c->pname);
	sb_init(&c->scratch);
}

void prof_collector_release(struct prof_collector *c)
{
	prof_frames_release(&c->frames);
	prof_names_release(&c->names);
	hmap_release(&c->frame_ids);
	prof_chain_cache_release(&c->chains);
	u64map_release(&c->ip_memo);
	free(c->ipv);
	free(c->ids);
	free(c->model_of);
	free(c->chain);
	stack_builder_release(&c->b);
	sb_release(&c->pname);
	sb_release(&c->scratch);
	sym_inline_free(c->src_inl);
	free(c->src);
	hmap_release(&c->src_files);
}

/* Forget every address of the memo (not the frames: ids of them may
 * be held for the sample being built). */
static void memo_clear(struct prof_collector *c)
{
	u64map_clear(&c->ip_memo);
	c->nipv = 0;
	c->nids = 0;
}

/* Bound the frames the memo points to (the stacks already in out keep
 * their names); between samples, as the model's chain holds frame ids. */
static void memo_bound(struct prof_collector *c)
{
	if (prof_frames_count(&c->frames) <= FRAMES_MAX)
		return;
	memo_clear(c);
	prof_frames_release(&c->frames);
	prof_frames_init(&c->frames);
	prof_names_release(&c->names);
	prof_names_init(&c->names, &c->copts);
	hmap_release(&c->frame_ids);
	hmap_init(&c->frame_ids);
	c->nsrc = 0;
	if (c->model_of)
		memset(c->model_of, 0, c->model_of_cap * sizeof(*c->model_of));
}

/* Room for need ids: doubling up to IDS_MAX, past it only as needed
 * (an entry begun near the bound). */
static void ids_room(struct prof_collector *c, size_t need)
{
	if (need <= c->ids_cap)
		return;
	size_t cap = c->ids_cap ? 2 * c->ids_cap : 1024;
	if (cap > IDS_MAX)
		cap = IDS_MAX;
	if (cap < need)
		cap = need;
	c->ids = xreallocarray(c->ids, cap, sizeof(*c->ids));
	c->ids_cap = cap;
}

/* Room for one more variant: doubling up to MEMO_MAX. */
static void ipv_room(struct prof_collector *c)
{
	if (c->nipv < c->ipv_cap)
		return;
	size_t cap = c->ipv_cap ? 2 * c->ipv_cap : 1024;
	if (cap > MEMO_MAX)
		cap = MEMO_MAX;
	c->ipv = xreallocarray(c->ipv, cap, sizeof(*c->ipv));
	c->ipv_cap = cap;
}

/* The memo entry of addr in object with flags, or SIZE_MAX. */
static size_t ip_memo_find(const struct prof_collector *c, uint64_t addr,
			   uintptr_t object, uint32_t flags)
{
	const uint64_t *head = u64map_find(&c->ip_memo, addr);
	uint32_t mask = (1u << AT_BITS) - 1;
	for (size_t v = head ? *head : 0; v; v = c->ipv[v - 1].next)
		if (c->ipv[v - 1].object == object && c->ipv[v - 1].at >> AT_BITS == flags)
			return c->ipv[v - 1].at & mask;
	return SIZE_MAX;
}

/*
 * A frame without a symbol is its address, for the model and the
 * exports; folded, without --addrs, it is named from its object alone
 * ("[dso]", "[unknown]"). Without a model the address is left out of
 * its identity, so that the unresolved addresses of a system-wide
 * recording (nine in ten of its ~100k frames) become a few frames
 * instead of one each (about 200 bytes a frame in the maps below).
 */
static bool addr_is_identity(const struct prof_collector *c)
{
	return c->model || c->copts.addrs;
}

static uint32_t frame_id(struct prof_collector *c, const struct proc_frame *f)
{
	bool no_addr = f->sym || f->inline_name || !addr_is_identity(c);
	struct frame_ptrs k = { no_addr ? 0 : f->addr, (uintptr_t)f->sym,
				(uintptr_t)f->dso, (uintptr_t)f->inline_name, f->kernel };
	bool added;
	size_t at = hmap_put(&c->frame_ids, &k, sizeof(k), &added);
	if (added) {
		struct prof_frame_desc d;
		prof_desc_of_frame(f, &d);
		if (!addr_is_identity(c))
			d.addr = 0;
		hmap_at(&c->frame_ids, at)->value = prof_frames_intern(&c->frames, &d);
	}
	return (uint32_t)hmap_at(&c->frame_ids, at)->value;
}

void prof_collector_sources(struct prof_collector *c)
{
	if (!c->src_inl)
		c->src_inl = sym_inline_new();
}

/* The source of frame id, new, met as row i of n at its address: row i
 * of the address's inline rows, or with one frame the concrete function. */
static void note_source(struct prof_collector *c, uint32_t id,
			const struct proc_frame *f, size_t i, size_t n)
{
	XGROW(c->src, c->src_cap, (size_t)id + 1);
	while (c->nsrc <= id)
		c->src[c->nsrc++] = (struct prof_src){ 0, 0 };
	struct sym_inline_frame fr;
	if (!f->dso || !f->sym || f->kernel ||
	    sym_inline_decl(c->src_inl, f->dso, f->addr, n > 1 ? i : SYM_INLINE_CONCRETE,
			    &fr) != 1)
		return;
	size_t file = hmap_put(&c->src_files, fr.file, strlen(fr.file), NULL);
	c->src[id] = (struct prof_src){ (uint32_t)file + 1, fr.line };
}

/* Append the names of frame id, leaf first, to the memo entry at. */
static void add_names(struct prof_collector *c, size_t at, uint32_t id, bool java)
{
	const uint32_t *names;
	size_t k = prof_names_of(&c->names, &c->frames, id, java, &names);
	ids_room(c, c->nids + k);
	while (k-- > 0) { /* names are root first, the builder leaf first */
		c->ids[c->nids++] = names[k];
		c->ids[at + 1]++;
	}
}

/* Resolve ip and record its frame and name ids as a new memo entry
 * of (addr, object, flags). */
static size_t ip_memo_add(struct prof_collector *c, struct proc_session *ses,
			  struct proc_thread *t, uint64_t ip, uint64_t addr,
			  uintptr_t object, uint32_t flags)
{
	bool kernel = flags & 4, inl = flags & 2, java = flags & 1;
	struct proc_frame *frames;
	size_t n = proc_session_ip_frames(ses, t, kernel, inl, ip, &frames);
	if (c->nipv == MEMO_MAX || c->nids + n + IDS_SLACK > IDS_MAX)
		memo_clear(c);
	size_t at = c->nids;
	ids_room(c, at + n + 2);
	c->ids[at] = (uint32_t)n;
	c->ids[at + 1] = 0;
	for (size_t i = 0; i < n; i++) {
		c->ids[at + 2 + i] = frame_id(c, &frames[i]);
		if (c->src_inl && c->ids[at + 2 + i] >= c->nsrc)
			note_source(c, c->ids[at + 2 + i], &frames[i], i, n);
	}
	c->nids = at + n + 2;
	for (size_t i = 0; i < n; i++)
		add_names(c, at, c->ids[at + 2 + i], java);
	bool added;
	uint64_t *head = u64map_put(&c->ip_memo, addr, &added);
	ipv_room(c);
	c->ipv[c->nipv] = (struct prof_ip_variant){ object, (uint32_t)*head,
						     flags << AT_BITS | (uint32_t)at };
	*head = ++c->nipv;
	return at;
}

/* Push the names of one address's frames, leaf first; returns how many
 * frames (not names) it resolved to. */
static size_t push_ip(struct prof_collector *c, struct proc_session *ses,
		      struct proc_thread *t, uint64_t ip, bool kernel, bool inl,
		      bool java)
{
	const struct proc_map *map = proc_thread_find_map(&ses->machine, t, kernel, ip);
	uint64_t addr = map ? proc_map_addr(map, ip) : ip;
	uintptr_t object = map ? (uintptr_t)map->dso + 1 : 0;
	uint32_t flags = (uint32_t)kernel << 2 | (uint32_t)inl << 1 | (uint32_t)java;
	size_t at = ip_memo_find(c, addr, object, flags);
	if (at == SIZE_MAX)
		at = ip_memo_add(c, ses, t, ip, addr, object, flags);
	size_t n = c->ids[at], k = c->ids[at + 1];
	const uint32_t *names = c->ids + at + 2 + n;
	if (c->model) { /* frames leaf first, as the chain */
		XGROW(c->chain, c->chain_cap, c->nchain + n);
		memcpy(c->chain + c->nchain, c->ids + at + 2, n * sizeof(*c->chain));
		c->nchain += n;
	}
	for (size_t i = 0; i < k; i++) {
		size_t len;
		const char *s = prof_name_text(&c->names, names[i], &len);
		stack_builder_push(&c->b, s, len);
	}
	return n;
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
bool prof_minus_one_pname(const struct collapse_opts *o, const struct proc_sample *ps,
			  const char *ev, struct strbuf *scratch, struct strbuf *pname)
{
	const struct pd_sample *s = ps->s;
	struct strbuf *h = scratch;
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
	return collapse_perf_header_pname(o, h->buf, h->len, pname);
}

static bool minus_one_pname(struct prof_collector *c, const struct proc_sample *ps,
			    const char *ev)
{
	return prof_minus_one_pname(&c->copts, ps, ev, &c->scratch, &c->pname);
}

static void comm_pname(struct prof_collector *c, const struct proc_sample *ps)
{
	char pid[16] = "", tid[16] = "";
	size_t pl = 0, tl = 0;
	if (c->copts.pid || c->copts.tid) { /* else the name is comm alone */
		pl = int_to_text(pid, (int)ps->s->pid);
		tl = int_to_text(tid, (int)ps->s->tid);
	}
	sb_reset(&c->pname);
	const char *comm = ps->thread->comm;
	collapse_perf_comm(&c->copts, comm, strlen(comm), pid, pl, tid, tl, &c->pname);
}

void prof_collector_model(struct prof_collector *c, struct profile *model)
{
	c->model = model;
}

/* The model's id of frame id (copied into the model when new). */
static uint32_t model_frame(struct prof_collector *c, uint32_t id)
{
	if (id >= c->model_of_cap) {
		size_t old = c->model_of_cap;
		XGROW(c->model_of, c->model_of_cap, (size_t)id + 1);
		memset(c->model_of + old, 0, (c->model_of_cap - old) * sizeof(*c->model_of));
	}
	if (!c->model_of[id]) {
		struct prof_frame_desc d;
		prof_frames_desc(&c->frames, id, &d);
		c->model_of[id] = prof_frames_intern(&c->model->frames, &d) + 1;
	}
	return c->model_of[id] - 1;
}

/* The model's stack of the chain just walked: process frame, then the
 * frames root first (c->chain holds them leaf first). */
static uint32_t model_stack(struct prof_collector *c, const struct proc_sample *ps)
{
	size_t n = c->nchain;
	XGROW(c->chain, c->chain_cap, 2 * n + 1);
	uint32_t *f = c->chain + n;
	struct prof_frame_desc d;
	prof_desc_of_comm(ps->thread->comm, (int32_t)ps->s->pid, (int32_t)ps->s->tid, &d);
	f[0] = prof_frames_intern(&c->model->frames, &d);
	for (size_t i = 0; i < n; i++)
		f[1 + i] = model_frame(c, c->chain[n - 1 - i]);
	return profile_stack(c->model, f, n + 1);
}

static void model_sample(struct prof_collector *c, const struct proc_sample *ps,
			 uint32_t stack, uint64_t weight)
{
	const struct pd_sample *s = ps->s;
	struct prof_sample row = { 0, (int32_t)s->pid, (int32_t)s->tid, s->cpu };
	if (s->sample_type & PD_SAMPLE_TIME)
		row.time = s->time;
	else
		c->untimed++;
	profile_sample(c->model, stack, weight, &row);
}

/* Add the stack of ps (its process name in c->pname) to out; with a
 * model, its stack there in *mstack. */
static size_t build_stack(struct prof_collector *c, struct proc_session *ses,
			  const struct proc_sample *ps, uint64_t weight, uint32_t *mstack)
{
	bool java = collapse_perf_is_java(c->pname.buf, c->pname.len);
	stack_builder_reset(&c->b);
	c->nchain = 0;
	memo_bound(c);
	struct proc_chain_walk w;
	uint64_t ip;
	bool kernel, inl;
	size_t n = 0;
	proc_chain_walk_init(ses, ps->s, &w);
	while (n < w.max_frames && proc_chain_walk_next(&w, &ip, &kernel, &inl))
		n += push_ip(c, ses, ps->thread, ip, kernel, inl, java);
	stack_builder_push(&c->b, c->pname.buf, c->pname.len);
	if (c->model)
		*mstack = model_stack(c, ps);
	return stack_table_add_built(c->out, &c->b, STACK_LEAF_FIRST, weight);
}

bool prof_collector_add(struct prof_collector *c, struct proc_session *ses,
			const struct proc_sample *ps, uint64_t weight, const char *ev)
{
	if ((int)ps->s->tid < 0) { /* rare, and its name holds the time */
		if (!minus_one_pname(c, ps, ev))
			return false;
		uint32_t ms;
		c->last = build_stack(c, ses, ps, weight, &ms);
		if (c->model)
			model_sample(c, ps, ms, weight);
		return true;
	}
	bool added;
	uint64_t *slot = prof_chain_cache_slot(&c->chains, ses, ps, &added);
	if (!added) { /* the table's stack id, the model's above it */
		stack_table_add_id(c->out, (size_t)(uint32_t)*slot, weight);
		c->last = (uint32_t)*slot;
		if (c->model)
			model_sample(c, ps, (uint32_t)(*slot >> 32), weight);
		return true;
	}
	comm_pname(c, ps);
	uint32_t ms = 0;
	size_t sid = build_stack(c, ses, ps, weight, &ms);
	*slot = (uint64_t)ms << 32 | (uint32_t)sid; /* build_stack leaves the cache alone */
	c->last = sid;
	if (c->model)
		model_sample(c, ps, ms, weight);
	return true;
}

void prof_collector_each_name(struct prof_collector *c, prof_name_fn fn, void *ctx)
{
	size_t n = prof_frames_count(&c->frames);
	for (uint32_t id = 0; id < n; id++) {
		const struct prof_frame *f = prof_frames_get(&c->frames, id);
		if (f->kind != PROF_FRAME_SYMBOL && f->kind != PROF_FRAME_ADDRESS)
			continue;
		struct prof_name_info in = { .flags = f->flags };
		in.dso = prof_frames_str(&c->frames, f->dso, &in.dso_len);
		const struct prof_src *src = id < c->nsrc ? &c->src[id] : NULL;
		if (src && src->file) {
			const struct hmap_entry *e = &c->src_files.entries[src->file - 1];
			in.file = e->key;
			in.file_len = e->len;
			in.line = src->line;
		}
		const uint32_t *names;
		size_t k = prof_names_of(&c->names, &c->frames, id, false, &names);
		for (size_t i = 0; i < k; i++) {
			size_t len;
			const char *s = prof_name_text(&c->names, names[i], &len);
			fn(ctx, s, len, &in);
		}
	}
}
