/*
 * hmap: open-addressing hash map from byte strings to dense ids.
 * Stage: base. Each distinct key gets the next id (0, 1, 2, ...) in
 * insertion order, so callers keep per-key data in parallel arrays or in
 * the entry's value. Keys are copied into the map's own arena and live
 * until hmap_release. Memory grows with distinct keys only.
 */
#ifndef SCORCH_BASE_HMAP_H
#define SCORCH_BASE_HMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"

struct hmap_entry {
	const char *key; /* NUL-terminated copy, owned by the map */
	size_t len;
	uint64_t hash;
	uint64_t value;  /* free for the caller; 0 for a new key */
};

struct hmap {
	struct hmap_entry *entries; /* dense, by id */
	size_t count, entries_cap;
	uint64_t *slots;            /* hash's top half | (id + 1), 0 = empty */
	size_t nslots;              /* power of two */
	struct arena keys;
};

#define HMAP_INIT { NULL, 0, 0, NULL, 0, ARENA_INIT }

void hmap_init(struct hmap *h);
void hmap_release(struct hmap *h);
/* Id of key, adding it when absent (*added tells which; may be NULL). */
size_t hmap_put(struct hmap *h, const void *key, size_t len, bool *added);
/* Id of key, or (size_t)-1 when absent. */
size_t hmap_find(const struct hmap *h, const void *key, size_t len);
static inline struct hmap_entry *hmap_at(struct hmap *h, size_t id)
{
	return &h->entries[id];
}

/* Ids of all entries ordered bytewise by key as Perl's cmp orders them
 * (memcmp over the common part, then the shorter first). The caller
 * frees the array (h->count ids; never NULL). */
size_t *hmap_sorted(const struct hmap *h);

uint64_t hash_bytes(const void *data, size_t len);

#endif
