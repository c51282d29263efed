/*
 * maps: an address space's maps as a treap over a node array (see
 * maps.h). Stage: process. Invariant: an in-order walk gives the maps
 * sorted by start and non-overlapping; every node's priority is at
 * least its children's. Priorities are a fixed hash of the node's
 * index, never from the input, so the expected depth is O(log n) for any
 * order of MMAPs and the result is deterministic.
 */
#include "process/maps.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

#define MAPS_NIL UINT32_MAX

enum { MAPS_COPY_ROOM = 8 };

struct proc_maps *proc_maps_new(void)
{
	struct proc_maps *ms = xcalloc(1, sizeof(*ms));
	ms->root = ms->free = ms->hint = MAPS_NIL;
	ms->refs = 1;
	return ms;
}

void proc_maps_put(struct proc_maps *ms)
{
	if (!ms || --ms->refs > 0)
		return;
	free(ms->v);
	free(ms->pend);
	free(ms);
}

static void insert_now(struct proc_maps *ms, const struct proc_map *mp);

/* Put the waiting inserts in the tree, in order (see maps.h). */
static void apply_pending(const struct proc_maps *cms)
{
	struct proc_maps *ms = (struct proc_maps *)(uintptr_t)cms;
	for (size_t i = 0; i < ms->npend; i++)
		insert_now(ms, &ms->pend[i]);
	ms->npend = 0;
}

struct proc_maps *proc_maps_share(struct proc_maps *ms)
{
	ms->refs++;
	return ms;
}

struct proc_maps *proc_maps_writable(struct proc_maps **ms)
{
	struct proc_maps *old = *ms;
	if (old->refs == 1)
		return old;
	apply_pending(old);
	struct proc_maps *c = xmalloc(sizeof(*c));
	*c = *old;
	c->refs = 1;
	c->pend = NULL;
	c->npend = c->pend_cap = 0;
	/* room for the few maps a child adds (an exec's binary, loader,
	 * libraries) without doubling the copy */
	c->cap = old->used + MAPS_COPY_ROOM;
	c->v = xmalloc(c->cap * sizeof(*c->v));
	if (old->used)
		memcpy(c->v, old->v, old->used * sizeof(*c->v));
	old->refs--;
	*ms = c;
	return c;
}

void proc_maps_clear(struct proc_maps *ms)
{
	ms->npend = 0;
	ms->used = ms->n = 0;
	ms->root = ms->free = ms->hint = MAPS_NIL;
}

static uint32_t new_node(struct proc_maps *ms, const struct proc_map *mp)
{
	uint32_t i;
	if (ms->free != MAPS_NIL) {
		i = ms->free;
		ms->free = ms->v[i].left;
	} else {
		if (ms->used >= MAPS_NIL)
			abort();   /* 4G maps: memory ran out long before */
		XGROW(ms->v, ms->cap, ms->used + 1);
		i = (uint32_t)ms->used++;
	}
	ms->v[i] = (struct proc_map_node){ *mp, MAPS_NIL, MAPS_NIL };
	ms->n++;
	return i;
}

/* Split t into nodes with start < key (*l) and the rest (*r). */
static void split(struct proc_maps *ms, uint32_t t, uint64_t key, uint32_t *l,
		  uint32_t *r)
{
	if (t == MAPS_NIL) {
		*l = *r = MAPS_NIL;
		return;
	}
	struct proc_map_node *nd = &ms->v[t];
	if (nd->m.start < key) {
		split(ms, nd->right, key, &ms->v[t].right, r);
		*l = t;
	} else {
		split(ms, nd->left, key, l, &ms->v[t].left);
		*r = t;
	}
}

/* A node's priority: a fixed mix of its index (not stored: a copied
 * table keeps its indexes, so its priorities too). */
static uint32_t prio(uint32_t i)
{
	uint32_t x = i * 0x9E3779B1u + 0x7F4A7C15u;
	x ^= x >> 16;
	x *= 0x85EBCA6Bu;
	x ^= x >> 13;
	x *= 0xC2B2AE35u;
	return x ^ (x >> 16);
}

/* Join a and b, every start in a below every start in b. */
static uint32_t merge(struct proc_maps *ms, uint32_t a, uint32_t b)
{
	if (a == MAPS_NIL)
		return b;
	if (b == MAPS_NIL)
		return a;
	if (prio(a) >= prio(b)) {
		ms->v[a].right = merge(ms, ms->v[a].right, b);
		return a;
	}
	ms->v[b].left = merge(ms, a, ms->v[b].left);
	return b;
}

static uint32_t rightmost(const struct proc_maps *ms, uint32_t t)
{
	while (t != MAPS_NIL && ms->v[t].right != MAPS_NIL)
		t = ms->v[t].right;
	return t;
}

/* Put every node of subtree t on the free list. */
static void drop(struct proc_maps *ms, uint32_t t)
{
	while (t != MAPS_NIL) {
		drop(ms, ms->v[t].left);
		uint32_t next = ms->v[t].right;
		ms->v[t].left = ms->free;
		ms->free = t;
		ms->n--;
		t = next;
	}
}

/* The part of mp from end on. */
static struct proc_map tail_of(const struct proc_map *mp, uint64_t end)
{
	struct proc_map t = *mp;
	t.pgoff += t.identity ? 0 : end - mp->start;
	t.start = end;
	return t;
}

/* Waiting inserts past which they are applied (a process mapping many
 * objects unsampled then costs a bounded list). */
enum { MAPS_PEND_MAX = 256 };

void proc_maps_insert(struct proc_maps *ms, const struct proc_map *mp)
{
	if (ms->npend >= MAPS_PEND_MAX)
		apply_pending(ms);
	XGROW(ms->pend, ms->pend_cap, ms->npend + 1);
	ms->pend[ms->npend++] = *mp;
}

/* Whether [s, e) overlaps no map: an overlapping one is the last map
 * starting below s or the first starting at or above it, and both lie
 * on the search path of s. */
static bool overlaps_none(const struct proc_maps *ms, uint64_t s, uint64_t e)
{
	uint32_t t = ms->root;
	while (t != MAPS_NIL) {
		const struct proc_map *m = &ms->v[t].m;
		if (m->start < e && m->end > s)
			return false;
		t = m->start < s ? ms->v[t].right : ms->v[t].left;
	}
	return true;
}

/* Insert mp, which overlaps no map, as a treap does: below the nodes of
 * higher priority on its search path, the subtree there split around it
 * (one split of a subtree instead of two of the tree and three merges:
 * most MMAPs of a recording land in free address space). */
static void insert_free(struct proc_maps *ms, const struct proc_map *mp)
{
	uint32_t node = new_node(ms, mp); /* first: it may move ms->v */
	uint32_t p = prio(node), at = ms->root, parent = MAPS_NIL;
	while (at != MAPS_NIL && prio(at) >= p) {
		parent = at;
		at = ms->v[at].m.start < mp->start ? ms->v[at].right : ms->v[at].left;
	}
	uint32_t l, r;
	split(ms, at, mp->start, &l, &r);
	ms->v[node].left = l;
	ms->v[node].right = r;
	if (parent == MAPS_NIL)
		ms->root = node;
	else if (ms->v[parent].m.start < mp->start)
		ms->v[parent].right = node;
	else
		ms->v[parent].left = node;
}

static void insert_now(struct proc_maps *ms, const struct proc_map *mp)
{
	uint64_t s = mp->start, e = mp->end;
	uint32_t a, b, mid, c;
	struct proc_map tail;
	bool have_tail = false;

	ms->hint = MAPS_NIL; /* nodes move, end or are freed */
	if (overlaps_none(ms, s, e)) {
		insert_free(ms, mp);
		return;
	}

	split(ms, ms->root, s, &a, &b);
	split(ms, b, e, &mid, &c);
	uint32_t lo = rightmost(ms, a);     /* starts below s: may reach in */
	if (lo != MAPS_NIL && ms->v[lo].m.end > s) {
		if (ms->v[lo].m.end > e) {
			tail = tail_of(&ms->v[lo].m, e);
			have_tail = true;
		}
		ms->v[lo].m.end = s;
	}
	uint32_t hi = rightmost(ms, mid);   /* starts inside: may reach out */
	if (hi != MAPS_NIL && ms->v[hi].m.end > e) {
		tail = tail_of(&ms->v[hi].m, e);
		have_tail = true;
	}
	drop(ms, mid);
	uint32_t node = new_node(ms, mp);
	if (have_tail)
		c = merge(ms, new_node(ms, &tail), c);
	ms->root = merge(ms, a, merge(ms, node, c));
}

const struct proc_map *proc_maps_find(const struct proc_maps *ms, uint64_t addr)
{
	if (ms->npend)
		apply_pending(ms);
	uint32_t h = ms->hint;
	if (h != MAPS_NIL && addr >= ms->v[h].m.start && addr < ms->v[h].m.end)
		return &ms->v[h].m;
	uint32_t t = ms->root, best = MAPS_NIL;
	while (t != MAPS_NIL) {
		if (ms->v[t].m.start <= addr) {
			best = t;
			t = ms->v[t].right;
		} else {
			t = ms->v[t].left;
		}
	}
	if (best == MAPS_NIL || addr >= ms->v[best].m.end)
		return NULL;
	((struct proc_maps *)(uintptr_t)ms)->hint = best; /* a cache: not the contents */
	return &ms->v[best].m;
}

uint64_t proc_maps_next_start(const struct proc_maps *ms, uint64_t addr)
{
	if (ms->npend)
		apply_pending(ms);
	uint32_t t = ms->root;
	uint64_t best = UINT64_MAX;
	while (t != MAPS_NIL) {
		if (ms->v[t].m.start > addr) {
			best = ms->v[t].m.start;
			t = ms->v[t].left;
		} else {
			t = ms->v[t].right;
		}
	}
	return best;
}
