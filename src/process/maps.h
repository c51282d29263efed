/*
 * maps: one address space's memory maps, an ordered set of
 * non-overlapping [start, end) ranges.
 * Stage: process. A treap (binary search tree by start, heap by a
 * pseudo-random priority) whose nodes live in one array and link by
 * index, so that:
 *  - inserting, punching and finding cost O(log n) whatever the order
 *    of the MMAPs (a sorted array costs O(n) per insertion: quadratic
 *    for maps arriving in descending address order);
 *  - a table is copied with one memcpy, and tables are shared between
 *    processes by reference count until one of them is written
 *    (proc_maps_share / proc_maps_writable): a FORK costs nothing, as
 *    in the kernel, instead of a copy of every map per fork.
 *  - inserts wait in a list until the table is first read (find,
 *    next_start, a copy): most processes of a system-wide recording
 *    map their objects and exit unsampled, and their maps are then
 *    never put in order at all (the inserts were 9% of the
 *    instructions folding one). Reading applies them in their order,
 *    which gives the table the same contents, so a reader sees no
 *    difference (the list is a cache: reads take the table const).
 * Ownership: a returned proc_map is borrowed until the next change to
 * the table.
 */
#ifndef SCORCH_PROCESS_MAPS_H
#define SCORCH_PROCESS_MAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "symbols/dso.h"

struct proc_map {
	uint64_t start, end;   /* [start, end) */
	uint64_t pgoff;
	struct sym_dso *dso;
	bool identity;         /* map address = address (kernel, JIT, anon) */
};

struct proc_map_node {
	struct proc_map m;
	uint32_t left, right;  /* node indexes, MAPS_NIL for none; the
				* priority is a hash of the index (maps.c) */
};

struct proc_maps {
	struct proc_map_node *v;
	size_t used, cap;      /* v[0, used) allocated (live or free) */
	size_t n;              /* live maps */
	uint32_t root, free;   /* free: list through .left */
	unsigned refs;         /* owners (proc_maps_share) */
	uint64_t stamp;        /* the owner's name for these contents: a
				* copy keeps it, the owner gives a new one
				* after each change (0 for a new table) */
	struct proc_map *pend; /* inserts not yet in the tree, in order */
	size_t npend, pend_cap;
	uint32_t hint;         /* the node the last find returned (a
				* chain's frames often share a map), or
				* none: any change of the tree forgets it */
};

/* A new empty table with one owner. Can't fail (allocation aborts). */
struct proc_maps *proc_maps_new(void);
/* Drop one owner; the last one frees it. NULL-safe. */
void proc_maps_put(struct proc_maps *ms);
/* One more owner of ms; returns ms. */
struct proc_maps *proc_maps_share(struct proc_maps *ms);
/* A table the caller may change: *ms itself when it has one owner,
 * else a private copy that replaces *ms (the shared one loses an owner). */
struct proc_maps *proc_maps_writable(struct proc_maps **ms);

/* Add mp, first removing whatever part of older maps it overlaps
 * (partial overlaps are split; a tail keeps its file offset). */
void proc_maps_insert(struct proc_maps *ms, const struct proc_map *mp);
/* Remove every map. */
void proc_maps_clear(struct proc_maps *ms);
/* The map holding addr, or NULL. */
const struct proc_map *proc_maps_find(const struct proc_maps *ms, uint64_t addr);
/* The lowest start above addr, or UINT64_MAX when no map starts there. */
uint64_t proc_maps_next_start(const struct proc_maps *ms, uint64_t addr);

#endif
