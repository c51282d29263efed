/*
 * u64map: open-addressing hash map from 64-bit keys to 64-bit values.
 * Stage: base. For per-address memos (CFI rows, inline frames): any key
 * is allowed (stored as key + 1 so 0 marks an empty slot; the one key
 * that can't be, UINT64_MAX, has a slot of its own), the table doubles
 * at 3/4 full, so memory grows with distinct keys only.
 * Pointers returned by u64map_put/u64map_find stay valid until the next
 * u64map_put (which may grow the table) or u64map_clear.
 *
 *   struct u64map m = U64MAP_INIT;
 *   bool added;
 *   uint64_t *v = u64map_put(&m, addr, &added);
 *   if (added) *v = compute(addr);
 *   u64map_each(&m, use, ctx);   (use(value, ctx) for every key)
 *   u64map_release(&m);
 */
#ifndef SCORCH_BASE_U64MAP_H
#define SCORCH_BASE_U64MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct u64map_slot {
	uint64_t key;   /* the key + 1; 0 = empty */
	uint64_t val;
};

struct u64map {
	struct u64map_slot *slots;
	size_t cap;     /* 0 or a power of two */
	size_t used;    /* keys in slots */
	bool has_top;   /* the key UINT64_MAX is present, its value in top */
	uint64_t top;
};

#define U64MAP_INIT { NULL, 0, 0, false, 0 }

/* The value slot of key, or NULL when absent. */
uint64_t *u64map_find(const struct u64map *m, uint64_t key);
/* The value slot of key, added (value 0, *added true) when absent.
 * Never returns NULL. */
uint64_t *u64map_put(struct u64map *m, uint64_t key, bool *added);
/* fn(value, ctx) for every key present, in no particular order (memos
 * holding pointers free them this way before clear or release). */
void u64map_each(const struct u64map *m, void (*fn)(uint64_t val, void *ctx),
		 void *ctx);
/* Forget every key; keeps the memory. */
void u64map_clear(struct u64map *m);
/* Free everything; m is empty and reusable. */
void u64map_release(struct u64map *m);

#endif
