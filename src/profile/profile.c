/*
 * profile: stacks as a tree of frame ids, sample counts, per-sample rows
 * (see profile.h). Stage: profile. Key invariant: a (parent, frame) pair
 * has exactly one node, and a node's id is above its parent's, so
 * walking ids upward visits parents first.
 */
#include "profile/profile.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static void add_root(struct profile *p)
{
	XGROW(p->nodes, p->cap, 1);
	p->nodes[0] = (struct prof_node){ PROF_NONE, PROF_NONE, 0, 0 };
	p->nnodes = 1;
}

void profile_init(struct profile *p, unsigned columns)
{
	memset(p, 0, sizeof(*p));
	prof_frames_init(&p->frames);
	p->rows.mask = columns;
	add_root(p);
}

static void rows_release(struct prof_rows *r)
{
	free(r->node);
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
	free(p->nodes);
	u64map_release(&p->children);
	rows_release(&p->rows);
	profile_init(p, columns);
}

uint32_t profile_child(struct profile *p, uint32_t parent, uint32_t frame)
{
	bool added;
	uint64_t *v = u64map_put(&p->children, (uint64_t)parent << 32 | frame, &added);
	if (!added)
		return (uint32_t)*v;
	if (p->nnodes >= PROF_MAX_IDS)
		xreallocarray(NULL, SIZE_MAX, 2); /* dies: see profile.h */
	XGROW(p->nodes, p->cap, p->nnodes + 1);
	uint32_t id = (uint32_t)p->nnodes++;
	p->nodes[id] = (struct prof_node){ parent, frame, 0, 0 };
	*v = id;
	return id;
}

uint32_t profile_stack(struct profile *p, const uint32_t *frames, size_t n)
{
	uint32_t node = 0;
	for (size_t i = 0; i < n; i++)
		node = profile_child(p, node, frames[i]);
	return node;
}

void profile_add_many(struct profile *p, uint32_t node, uint64_t samples,
		      uint64_t weight)
{
	struct prof_node *nd = &p->nodes[node];
	if (!nd->samples && samples)
		p->stacks++;
	nd->samples = sat_add(nd->samples, samples);
	nd->weight = sat_add(nd->weight, weight);
	p->samples = sat_add(p->samples, samples);
	p->weight = sat_add(p->weight, weight);
}

void profile_add(struct profile *p, uint32_t node, uint64_t weight)
{
	profile_add_many(p, node, 1, weight);
}

static void rows_grow(struct prof_rows *r)
{
	if (r->n < r->cap)
		return;
	size_t cap = r->cap ? r->cap * 2 : 4096;
	r->node = xreallocarray(r->node, cap, sizeof(*r->node));
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

static void rows_add(struct prof_rows *r, uint32_t node, uint64_t weight,
		     const struct prof_sample *s)
{
	rows_grow(r);
	size_t i = r->n++;
	r->node[i] = node;
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

void profile_sample(struct profile *p, uint32_t node, uint64_t weight,
		    const struct prof_sample *s)
{
	profile_add(p, node, weight);
	if (p->rows.mask)
		rows_add(&p->rows, node, weight, s);
}

size_t profile_depth(const struct profile *p, uint32_t node)
{
	size_t d = 0;
	for (; node != 0; node = p->nodes[node].parent)
		d++;
	return d;
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
		       const uint32_t *nodes)
{
	const struct prof_rows *r = &src->rows;
	if (!dst->rows.mask)
		return;
	for (size_t i = 0; i < r->n; i++) {
		struct prof_sample s = { r->time ? r->time[i] : 0, r->pid ? r->pid[i] : 0,
					 r->tid ? r->tid[i] : 0, r->cpu ? r->cpu[i] : 0 };
		rows_add(&dst->rows, nodes[r->node[i]], r->weight[i], &s);
	}
}

void profile_merge(struct profile *dst, const struct profile *src, uint32_t **map)
{
	uint32_t *frames = merge_frames(dst, src);
	uint32_t *nodes = ids_new(src->nnodes);
	nodes[0] = 0;
	for (size_t i = 1; i < src->nnodes; i++) { /* parents come first */
		const struct prof_node *n = &src->nodes[i];
		nodes[i] = profile_child(dst, nodes[n->parent], frames[n->frame]);
		if (n->samples || n->weight)
			profile_add_many(dst, nodes[i], n->samples, n->weight);
	}
	if (src->nodes[0].samples)
		profile_add_many(dst, 0, src->nodes[0].samples, src->nodes[0].weight);
	merge_rows(dst, src, nodes);
	free(frames);
	if (map)
		*map = nodes;
	else
		free(nodes);
}
