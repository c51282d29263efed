/*
 * profile: stacks as arrays of frame ids, sample counts, per-sample rows
 * (see profile.h). Stage: profile. Key invariant: a sequence of frame
 * ids has exactly one stack id; counts[id] exists for every stack.
 */
#include "profile/profile.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

void profile_init(struct profile *p, unsigned columns)
{
	memset(p, 0, sizeof(*p));
	prof_frames_init(&p->frames);
	hmap_init(&p->stacks);
	p->rows.mask = columns;
}

static void rows_release(struct prof_rows *r)
{
	free(r->stack);
	free(r->weight);
	free(r->time);
	free(r->pid);
	free(r->tid);
	free(r->cpu);
}

void profile_release(struct profile *p)
{
	unsigned columns = p->rows.mask;
	prof_frames_release(&p->frames);
	hmap_release(&p->stacks);
	free(p->counts);
	rows_release(&p->rows);
	profile_init(p, columns);
}

uint32_t profile_stack(struct profile *p, const uint32_t *frames, size_t n)
{
	if (n > SIZE_MAX / 8)
		xreallocarray(NULL, SIZE_MAX, 2); /* dies: see profile.h */
	bool added;
	size_t id = hmap_put(&p->stacks, frames, n * sizeof(*frames), &added);
	if (id >= PROF_MAX_IDS)
		xreallocarray(NULL, SIZE_MAX, 2);
	if (added) {
		XGROW(p->counts, p->counts_cap, id + 1);
		p->counts[id] = (struct prof_counts){ 0, 0 };
	}
	return (uint32_t)id;
}

const uint32_t *profile_stack_frames(const struct profile *p, uint32_t stack,
				     size_t *n)
{
	const struct hmap_entry *e = &p->stacks.entries[stack];
	*n = e->len / sizeof(uint32_t);
	return (const uint32_t *)(const void *)e->key; /* arena: 8-aligned */
}

void profile_add_many(struct profile *p, uint32_t stack, uint64_t samples,
		      uint64_t weight)
{
	struct prof_counts *c = &p->counts[stack];
	c->samples = sat_add(c->samples, samples);
	c->weight = sat_add(c->weight, weight);
	p->samples = sat_add(p->samples, samples);
	p->weight = sat_add(p->weight, weight);
}

void profile_add(struct profile *p, uint32_t stack, uint64_t weight)
{
	profile_add_many(p, stack, 1, weight);
}

/* The TEXT frames of "a;b;c" (len bytes; one per ';'-separated part,
 * so "" is one empty frame) interned into ids, which has room for
 * them; returns their number. */
static size_t text_frames(struct profile *p, const char *stack, size_t len,
			  uint32_t *ids)
{
	const char *s = stack, *end = stack + len;
	size_t k = 0;
	for (;;) {
		const char *semi = memchr(s, ';', (size_t)(end - s));
		const char *stop = semi ? semi : end;
		struct prof_frame_desc d = { .kind = PROF_FRAME_TEXT, .name = s,
					     .name_len = (size_t)(stop - s) };
		ids[k++] = prof_frames_intern(&p->frames, &d);
		if (!semi)
			return k;
		s = stop + 1;
	}
}

uint32_t profile_add_folded(struct profile *p, const char *stack, size_t len,
			    uint64_t samples, uint64_t weight)
{
	uint32_t small[64] = { 0 }, *ids = small;
	size_t n = 1;
	for (size_t i = 0; i < len; i++)
		n += stack[i] == ';';
	if (n > 64)
		ids = xreallocarray(NULL, n, sizeof(*ids));
	text_frames(p, stack, len, ids);
	/* "" is one empty frame here but no frame in a table: both join to "" */
	uint32_t id = profile_stack(p, ids, len ? n : 0);
	profile_add_many(p, id, samples, weight);
	if (ids != small)
		free(ids);
	return id;
}

/* The thread of a process frame "comm-PID/TID" (PID "?": the TID);
 * returns the comm's length, or 0 when f is not one. */
static size_t thread_of(const char *f, size_t len, int32_t *pid, int32_t *tid)
{
	const char *dash = NULL;
	for (size_t i = 0; i < len; i++)
		if (f[i] == '-')
			dash = f + i;
	if (!dash || dash == f)
		return 0;
	char *end;
	const char *slash = memchr(dash, '/', (size_t)(f + len - dash));
	if (!slash || slash + 1 >= f + len || slash[1] < '0' || slash[1] > '9')
		return 0;
	long t = strtol(slash + 1, &end, 10), pp = t;
	if (end != f + len || t > INT32_MAX)
		return 0;
	if (!(slash == dash + 2 && dash[1] == '?')) {
		if (dash[1] < '0' || dash[1] > '9')
			return 0;
		pp = strtol(dash + 1, &end, 10);
		if (end != slash || pp > INT32_MAX)
			return 0;
	}
	*pid = (int32_t)pp;
	*tid = (int32_t)t;
	return (size_t)(dash - f);
}

uint32_t profile_add_thread_folded(struct profile *p, const char *stack, size_t len,
				   uint64_t samples, uint64_t weight)
{
	const char *semi = memchr(stack, ';', len);
	size_t first = semi ? (size_t)(semi - stack) : len;
	struct prof_frame_desc d = { .kind = PROF_FRAME_COMM, .name = stack };
	d.name_len = thread_of(stack, first, &d.pid, &d.tid);
	if (!d.name_len)
		return profile_add_folded(p, stack, len, samples, weight);
	uint32_t *ids = xreallocarray(NULL, len + 2, sizeof(*ids));
	size_t n = 1;
	ids[0] = prof_frames_intern(&p->frames, &d);
	if (semi)
		n += text_frames(p, semi + 1, (size_t)(stack + len - semi - 1), ids + 1);
	uint32_t id = profile_stack(p, ids, n);
	profile_add_many(p, id, samples, weight);
	free(ids);
	return id;
}

static void rows_grow(struct prof_rows *r)
{
	if (r->n < r->cap)
		return;
	size_t cap = r->cap ? r->cap * 2 : 4096;
	r->stack = xreallocarray(r->stack, cap, sizeof(*r->stack));
	r->weight = xreallocarray(r->weight, cap, sizeof(*r->weight));
	if (r->mask & PROF_COL_TIME)
		r->time = xreallocarray(r->time, cap, sizeof(*r->time));
	if (r->mask & PROF_COL_PID)
		r->pid = xreallocarray(r->pid, cap, sizeof(*r->pid));
	if (r->mask & PROF_COL_TID)
		r->tid = xreallocarray(r->tid, cap, sizeof(*r->tid));
	if (r->mask & PROF_COL_CPU)
		r->cpu = xreallocarray(r->cpu, cap, sizeof(*r->cpu));
	r->cap = cap;
}

static void rows_add(struct prof_rows *r, uint32_t stack, uint64_t weight,
		     const struct prof_sample *s)
{
	rows_grow(r);
	size_t i = r->n++;
	r->stack[i] = stack;
	r->weight[i] = weight;
	if (r->time)
		r->time[i] = s->time;
	if (r->pid)
		r->pid[i] = s->pid;
	if (r->tid)
		r->tid[i] = s->tid;
	if (r->cpu)
		r->cpu[i] = s->cpu;
}

void profile_sample(struct profile *p, uint32_t stack, uint64_t weight,
		    const struct prof_sample *s)
{
	profile_add(p, stack, weight);
	if (p->rows.mask)
		rows_add(&p->rows, stack, weight, s);
}

static uint32_t *ids_new(size_t n)
{
	return xreallocarray(NULL, n ? n : 1, sizeof(uint32_t));
}

/* src's frame ids mapped to dst's; the caller frees. */
static uint32_t *merge_frames(struct profile *dst, const struct profile *src)
{
	size_t n = prof_frames_count(&src->frames);
	uint32_t *map = ids_new(n);
	for (size_t i = 0; i < n; i++) {
		struct prof_frame_desc d;
		prof_frames_desc(&src->frames, (uint32_t)i, &d);
		map[i] = prof_frames_intern(&dst->frames, &d);
	}
	return map;
}

static void merge_rows(struct profile *dst, const struct profile *src,
		       const uint32_t *stacks)
{
	const struct prof_rows *r = &src->rows;
	if (!dst->rows.mask)
		return;
	for (size_t i = 0; i < r->n; i++) {
		struct prof_sample s = { r->time ? r->time[i] : 0, r->pid ? r->pid[i] : 0,
					 r->tid ? r->tid[i] : 0, r->cpu ? r->cpu[i] : 0 };
		rows_add(&dst->rows, stacks[r->stack[i]], r->weight[i], &s);
	}
}

void profile_merge(struct profile *dst, const struct profile *src, uint32_t **map)
{
	uint32_t *frames = merge_frames(dst, src);
	size_t n = profile_stacks(src);
	uint32_t *stacks = ids_new(n);
	uint32_t *ids = NULL;
	size_t ids_cap = 0;
	for (size_t i = 0; i < n; i++) {
		size_t len;
		const uint32_t *f = profile_stack_frames(src, (uint32_t)i, &len);
		XGROW(ids, ids_cap, len + 1);
		for (size_t k = 0; k < len; k++)
			ids[k] = frames[f[k]];
		stacks[i] = profile_stack(dst, ids, len);
		const struct prof_counts *c = &src->counts[i];
		profile_add_many(dst, stacks[i], c->samples, c->weight);
	}
	merge_rows(dst, src, stacks);
	free(ids);
	free(frames);
	if (map)
		*map = stacks;
	else
		free(stacks);
}
