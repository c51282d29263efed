/*
 * tree: the merged call tree a flame graph is drawn from.
 * Stage: render. Folded stacks are merged line by line as they arrive:
 * each distinct path from the root gets one node whose value is the sum
 * of the counts of all stacks through it. Memory grows with distinct
 * paths (nodes) and distinct frame names, never with input size.
 * Key invariants: node 0 is the root ("all"); a node's value is at least
 * the sum of its children's values (the rest is its self time); names
 * are interned in t->names and borrowed from it until release.
 * Children are linked newest-first; the layout orders them (as
 * flamegraph.pl's sort of the folded lines does, for a flame graph; input
 * order for a flame chart) only where it draws.
 * A flame chart merges a stack only with the frames it shares with the
 * previous stack (flamegraph.pl's flow()), and records where in time each
 * node starts. Trailing empty frames ("a;b;") are dropped, as Perl's
 * split does.
 */
#ifndef SCORCH_RENDER_TREE_H
#define SCORCH_RENDER_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/hmap.h"
#include "base/u64map.h"
#include "stacks/table.h"

#define RENDER_NONE UINT32_MAX

struct render_node {
	uint32_t name;   /* id in names */
	uint32_t parent; /* RENDER_NONE for the root */
	uint32_t child;  /* first child or RENDER_NONE */
	uint32_t next;   /* next sibling or RENDER_NONE */
	uint32_t nchild : 31;   /* number of children (saturates) */
	uint32_t has_self : 1;  /* a stack ends here (even with count 0) */
	double value;    /* inclusive count (the 2nd column of diff lines) */
};

#define RENDER_NAME_CACHE_BITS 14

struct render_name_cache {
	const char *key; /* borrowed from names, NULL when empty */
	size_t len;
	uint32_t id;
};

struct render_tree {
	struct render_node *nodes;
	size_t count, cap;
	double *delta;         /* self delta per node (differential), or NULL */
	size_t delta_cap;
	double maxdelta;       /* largest |delta| of one input stack */
	double *start;         /* flame chart: time each node starts, or NULL */
	double *end;           /* flame chart, once fractional: time each node
				* ends (before, exactly start + value) */
	size_t start_cap;
	double time;           /* sum of all values added, in input order */
	bool fractional;       /* some value is not a whole number (below 2^53) */
	double *self;          /* once fractional: the count of the stacks that
				* end at each node (before, whole counts make it
				* exactly value minus the children's values) */
	size_t self_cap;
	struct hmap names;     /* frame name -> id */
	struct render_name_cache *ncache; /* recent names, before names */
	struct u64map kids;    /* parent << 32 | name -> node, for the
				* children of nodes wider than a few */
	bool flamechart;       /* merge only with the most recent child */
	bool reverse;          /* stacks are merged leaf first */
	bool chain;            /* --colors chain: "waker;--;wakee" stacks get
				* flamegraph.pl's rewrite (set after init) */
	/* The previous stack and its path, to skip lookups for a shared
	 * prefix (folded input is usually sorted). */
	char *prev;
	size_t prev_len, prev_cap;
	uint32_t *path;        /* node per depth of the previous stack */
	size_t *ends;          /* end offset of each frame in prev */
	size_t depth, path_cap;
	char *rev;             /* scratch for --reverse: the reversed stack */
	size_t rev_cap;
	char *chained;         /* scratch for chain: the rewritten stack */
	size_t chained_cap;
	uint32_t last;         /* leaf of the stack added last */
};

void render_tree_init(struct render_tree *t, bool flamechart, bool reverse);
void render_tree_release(struct render_tree *t);

/* Merge one stack ("a;b;c", len bytes) with value, and delta (after -
 * before, for differential input) as the leaf's self delta. As in
 * flamegraph.pl, only the first stack to end at a node sets its delta
 * (in a flame chart: only a stack whose leaf is new). An empty stack adds
 * to the root only. Cannot fail (allocation failure is fatal). */
void render_tree_add(struct render_tree *t, const char *stack, size_t len,
		     double value, double delta, bool has_delta);

/* Every stack of st in sorted order (stack_table_sorted), its count as
 * the value, none differential: a folded profile drawn as flame graph. */
void render_tree_add_table(struct render_tree *t, const struct stack_table *st);

/* Every "stack count" line of lr (flamegraph.pl's input: '#' comments
 * and blank lines skipped, "stack before after" differential), merged
 * as it is read; lines without a count are counted in bad (first named
 * "NAME:LINE"). Returns 0 at the end of input, or a read error (-E2BIG:
 * a line too long) with d saying "line N: reason". */
struct lines;
struct diag;
struct stack_folded_bad;
int render_tree_read_folded(struct render_tree *t, struct lines *lr, const char *name,
			    struct stack_folded_bad *bad, struct diag *d);

/* Flame chart: the time node ends (its start is t->start[node]). */
double render_tree_end(const struct render_tree *t, uint32_t node);

/* The count of the stacks that end at node. */
double render_tree_self(const struct render_tree *t, uint32_t node);

static inline const char *render_tree_name(struct render_tree *t, uint32_t node,
					   size_t *len)
{
	struct hmap_entry *e = hmap_at(&t->names, t->nodes[node].name);
	*len = e->len;
	return e->key;
}

#endif
