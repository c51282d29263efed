/* u64map: 64-bit key to 64-bit value hash map (see u64map.h). Stage:
 * base. Invariant: cap is 0 or a power of two and used < 3/4 cap after
 * every put, so probing always ends at an empty slot. */
#include "base/u64map.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

static size_t home(const struct u64map *m, uint64_t stored)
{
	return (size_t)((stored * 0x9e3779b97f4a7c15ULL) >> 32) & (m->cap - 1);
}

static struct u64map_slot *probe(const struct u64map *m, uint64_t stored)
{
	size_t i = home(m, stored);
	while (m->slots[i].key && m->slots[i].key != stored)
		i = (i + 1) & (m->cap - 1);
	return &m->slots[i];
}

uint64_t *u64map_find(const struct u64map *m, uint64_t key)
{
	if (key == UINT64_MAX)
		return m->has_top ? (uint64_t *)&m->top : NULL;
	if (!m->cap)
		return NULL;
	struct u64map_slot *s = probe(m, key + 1);
	return s->key ? &s->val : NULL;
}

static void grow(struct u64map *m)
{
	struct u64map_slot *old = m->slots;
	size_t n = m->cap;
	m->cap = n ? 2 * n : 64;
	m->slots = xcalloc(m->cap, sizeof(*m->slots));
	for (size_t i = 0; i < n; i++)
		if (old[i].key)
			*probe(m, old[i].key) = old[i];
	free(old);
}

uint64_t *u64map_put(struct u64map *m, uint64_t key, bool *added)
{
	if (key == UINT64_MAX) {
		*added = !m->has_top;
		if (*added)
			m->top = 0;
		m->has_top = true;
		return &m->top;
	}
	if (4 * (m->used + 1) > 3 * m->cap)
		grow(m);
	struct u64map_slot *s = probe(m, key + 1);
	*added = s->key == 0;
	if (*added) {
		s->key = key + 1;
		s->val = 0;
		m->used++;
	}
	return &s->val;
}

void u64map_each(const struct u64map *m, void (*fn)(uint64_t val, void *ctx),
		 void *ctx)
{
	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].key)
			fn(m->slots[i].val, ctx);
	if (m->has_top)
		fn(m->top, ctx);
}

void u64map_clear(struct u64map *m)
{
	if (m->slots)
		memset(m->slots, 0, m->cap * sizeof(*m->slots));
	m->used = 0;
	m->has_top = false;
}

void u64map_release(struct u64map *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = m->used = 0;
	m->has_top = false;
}
