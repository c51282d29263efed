/* hmap: open-addressing string-to-id map (see hmap.h). */
#include "base/hmap.h"
#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

static inline uint64_t mix(uint64_t x)
{
	x ^= x >> 32;
	x *= 0xd6e8feb86659fd93ULL;
	x ^= x >> 32;
	x *= 0xd6e8feb86659fd93ULL;
	x ^= x >> 32;
	return x;
}

/* One lane step: the multiply by the input word doesn't wait for the
 * lane, so two lanes keep a 16-byte step at a few cycles (hashing long
 * keys such as call chains was 3.5% of folding a DWARF recording). */
static inline uint64_t lane(uint64_t acc, uint64_t w)
{
	acc += w * 0xc2b2ae3d27d4eb4fULL;
	acc = (acc << 31) | (acc >> 33);
	return acc * 0x9e3779b185ebca87ULL;
}

uint64_t hash_bytes(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t a = 0x9e3779b97f4a7c15ULL ^ (len * 0xff51afd7ed558ccdULL);
	uint64_t b = 0x165667b19e3779f9ULL;
	uint64_t w, v;
	for (; len >= 16; p += 16, len -= 16) {
		memcpy(&w, p, 8);
		memcpy(&v, p + 8, 8);
		a = lane(a, w);
		b = lane(b, v);
	}
	if (len >= 8) {
		memcpy(&w, p, 8);
		a = lane(a, w);
		p += 8;
		len -= 8;
	}
	w = 0;
	memcpy(&w, p, len);
	a = lane(a, w ^ len);
	return mix(a ^ mix(b));
}

void hmap_init(struct hmap *h)
{
	memset(h, 0, sizeof(*h));
	arena_init(&h->keys);
}

void hmap_release(struct hmap *h)
{
	free(h->entries);
	free(h->slots);
	arena_release(&h->keys);
	hmap_init(h);
}

/* A slot holds the id and the top half of its key's hash: probing
 * compares that tag and reads an entry (and its key) only on a likely
 * match. Reading each entry instead cost a cache miss per probe, and
 * linear probing at 3/4 load makes about 8 probes per absent key. */
#define TAG_MASK 0xffffffff00000000ULL

static inline uint64_t slot_of(uint64_t hash, size_t id)
{
	return (hash & TAG_MASK) | (uint64_t)(id + 1);
}

static void rehash(struct hmap *h)
{
	size_t n = h->nslots ? h->nslots * 2 : 64;
	uint64_t *slots = xcalloc(n, sizeof(*slots));
	for (size_t id = 0; id < h->count; id++) {
		uint64_t hash = h->entries[id].hash;
		size_t i = hash & (n - 1);
		while (slots[i])
			i = (i + 1) & (n - 1);
		slots[i] = slot_of(hash, id);
	}
	free(h->slots);
	h->slots = slots;
	h->nslots = n;
}

static size_t lookup(const struct hmap *h, const void *key, size_t len,
		     uint64_t hash, size_t *slot)
{
	size_t mask = h->nslots - 1;
	size_t i = hash & mask;
	uint64_t tag = hash & TAG_MASK;
	for (;;) {
		uint64_t s = h->slots[i];
		if (!s) {
			*slot = i;
			return (size_t)-1;
		}
		if ((s & TAG_MASK) == tag) {
			size_t id = (uint32_t)s - 1;
			const struct hmap_entry *e = &h->entries[id];
			if (e->hash == hash && e->len == len &&
			    memcmp(e->key, key, len) == 0)
				return id;
		}
		i = (i + 1) & mask;
	}
}

size_t hmap_find(const struct hmap *h, const void *key, size_t len)
{
	size_t slot;
	if (!h->nslots)
		return (size_t)-1;
	return lookup(h, key, len, hash_bytes(key, len), &slot);
}

size_t hmap_put(struct hmap *h, const void *key, size_t len, bool *added)
{
	size_t slot;
	uint64_t hash = hash_bytes(key, len);
	if ((h->count + 1) * 4 > h->nslots * 3)
		rehash(h);
	size_t id = lookup(h, key, len, hash, &slot);
	if (added)
		*added = id == (size_t)-1;
	if (id != (size_t)-1)
		return id;
	if (h->count >= UINT32_MAX - 1)
		xmalloc((size_t)-1); /* more keys than ids: treat as OOM */
	XGROW(h->entries, h->entries_cap, h->count + 1);
	id = h->count++;
	struct hmap_entry *e = &h->entries[id];
	e->key = arena_strndup(&h->keys, key, len);
	e->len = len;
	e->hash = hash;
	e->value = 0;
	h->slots[slot] = slot_of(hash, id);
	return id;
}

static int cmp_keys(const void *a, const void *b, void *ctx)
{
	const struct hmap_entry *ents = ctx;
	const struct hmap_entry *x = &ents[*(const size_t *)a];
	const struct hmap_entry *y = &ents[*(const size_t *)b];
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->key, y->key, n);
	if (c)
		return c;
	return (x->len > y->len) - (x->len < y->len);
}

size_t *hmap_sorted(const struct hmap *h)
{
	size_t n = h->count;
	size_t *ids = xreallocarray(NULL, n ? n : 1, sizeof(*ids));
	for (size_t i = 0; i < n; i++)
		ids[i] = i;
	qsort_r(ids, n, sizeof(*ids), cmp_keys, h->entries);
	return ids;
}
