/*
 * profile: the profile model: frames by identity (profile/frame.h),
 * stacks as a tree of frame ids with sample counts and weights, and,
 * when a view asks, one row per sample (time, pid, tid, cpu).
 * Stage: profile. Data flows records -> process/symbols/unwind ->
 * profile -> views (folded text, flame graph, diff, report, exports).
 *
 *   struct profile p;
 *   profile_init(&p, 0);                        // no per-sample columns
 *   uint32_t f[2] = { comm_frame, main_frame };  // root first
 *   uint32_t node = profile_stack(&p, f, 2);
 *   profile_add(&p, node, period);              // one sample
 *   profile_fold_write(&p, &names, stdout);     // folded text view
 *   profile_release(&p);
 *
 * Stacks: node 0 is the root; every other node is (parent, frame), so a
 * stack is the node of its last frame (its leaf), interned with one
 * lookup of an 8-byte key per frame and never stored twice. A node's
 * samples and weight count the samples whose stack ends there (weight:
 * what folded output prints, the period perf script shows, or 1). By
 * convention a sample's stack starts with its COMM frame (the process,
 * which folded text puts first) and ends with the sampled frame.
 *
 * Memory grows with unique stacks (a node is 24 bytes plus ~1.5 map
 * slots of 16): adding a sample to a known stack allocates nothing.
 * Per-sample columns are kept only when profile_init is given their
 * bits: one 4-byte node id plus the asked columns per sample, in arrays
 * that double; with no bits profile_sample is profile_add.
 *
 * Views: profile_fold_write prints "stack weight" lines as stacks/table
 * does (names joined with ';', bytewise sorted, equal texts summed), byte
 * for byte; profile_merge re-interns another profile's frames and stacks
 * (diff, several inputs); profile_diff_write prints "stack a b" lines.
 *
 * Ownership: the profile owns its frames, nodes and columns; pointers
 * into it are borrowed until the next add or release. Names belong to
 * the prof_names a view is given (one per profile: names cache per
 * frame id). Failure: only allocation, which is fatal (base/xalloc.h);
 * more than 2^32 - 2 nodes counts as allocation failure. Sums saturate at
 * UINT64_MAX.
 *
 * Design: how commands sit on this model, and what wiring it into
 * fold_perfdata.c, script.c, symopts.c and the session changes, is
 * docs/profile-model.md.
 */
#ifndef SCORCH_PROFILE_PROFILE_H
#define SCORCH_PROFILE_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/strbuf.h"
#include "base/u64map.h"
#include "profile/frame.h"

struct prof_node {
	uint32_t parent;            /* node id; the root's is PROF_NONE */
	uint32_t frame;             /* frame id; the root's is PROF_NONE */
	uint64_t samples;           /* samples whose stack ends here */
	uint64_t weight;            /* their summed weight */
};

enum prof_column {
	PROF_COL_TIME = 1,          /* sample time (ns, as recorded) */
	PROF_COL_PID = 2,
	PROF_COL_TID = 4,
	PROF_COL_CPU = 8,
};

/* One sample's columns (those not asked for are ignored). */
struct prof_sample {
	uint64_t time;
	int32_t pid, tid;
	uint32_t cpu;
};

/* Per-sample rows, struct of arrays: only the asked columns exist. */
struct prof_rows {
	unsigned mask;              /* enum prof_column bits */
	size_t n, cap;
	uint32_t *node;             /* the sample's stack; with any column */
	uint64_t *weight;
	uint64_t *time;
	int32_t *pid, *tid;
	uint32_t *cpu;
};

struct profile {
	struct prof_frames frames;
	struct prof_node *nodes;    /* by id; nodes[0] is the root */
	size_t nnodes, cap;
	struct u64map children;     /* parent << 32 | frame -> node id */
	uint64_t samples, weight;   /* totals over every node */
	size_t stacks;              /* nodes with samples > 0 */
	struct prof_rows rows;
};

/* columns: enum prof_column bits to keep per sample (0: none). */
void profile_init(struct profile *p, unsigned columns);
/* Free everything; p is empty (same columns) and reusable. */
void profile_release(struct profile *p);

/* The node of frame under parent, added when new. */
uint32_t profile_child(struct profile *p, uint32_t parent, uint32_t frame);
/* The node of a stack of n frame ids, root first (n = 0: the root). */
uint32_t profile_stack(struct profile *p, const uint32_t *frames, size_t n);
/* One sample of stack node with this weight (no row kept). */
void profile_add(struct profile *p, uint32_t node, uint64_t weight);
/* One sample with its columns: a row when the profile keeps any. */
void profile_sample(struct profile *p, uint32_t node, uint64_t weight,
		    const struct prof_sample *s);
/* Add n samples with summed weight at once (merging). */
void profile_add_many(struct profile *p, uint32_t node, uint64_t samples,
		      uint64_t weight);

/* Depth of a node (frames from the root); the root's is 0. */
size_t profile_depth(const struct profile *p, uint32_t node);

/* Add every frame, stack and row of src to dst. When map is not NULL it
 * gets src's node ids mapped to dst's (src->nnodes entries; the caller
 * frees). src is unchanged. */
void profile_merge(struct profile *dst, const struct profile *src, uint32_t **map);

/* ---- folded text view (foldview.c) ---- */

/* Write "stack weight\n" lines: every node with samples, named by nm
 * (the Java rule from the stack's first frame when it is a COMM frame),
 * joined root first with ';', sorted bytewise (Perl's cmp), stacks of
 * equal text summed: what stack_table_write prints for the same stacks.
 * Returns 0, or -1 with errno on a write error. */
int profile_fold_write(const struct profile *p, struct prof_names *nm, FILE *f);
void profile_fold_write_sb(const struct profile *p, struct prof_names *nm,
			   struct strbuf *out);
/* Differential lines "stack a b\n" over the stacks of both (0 where one
 * has none), sorted as above; nm names the frames of a merged copy. */
void profile_diff_write_sb(const struct profile *a, const struct profile *b,
			   const struct collapse_opts *o, struct strbuf *out);

#endif
