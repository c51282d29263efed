/*
 * profile: the profile model: frames by identity (profile/frame.h),
 * stacks as arrays of frame ids with sample counts and weights, and,
 * when a view asks, one row per sample (time, pid, tid, cpu).
 * Stage: profile. Data flows records -> process/symbols/unwind ->
 * profile -> views (folded text, flame graph, diff, report, exports).
 *
 *   struct profile p;
 *   profile_init(&p, 0);                        // no per-sample columns
 *   uint32_t f[2] = { comm_frame, main_frame };  // root first
 *   uint32_t st = profile_stack(&p, f, 2);       // same frames: same id
 *   profile_add(&p, st, period);                // one sample
 *   profile_fold_write(&p, &names, stdout);     // folded text view
 *   profile_release(&p);
 *
 * Stacks: a stack is its frame ids root first, interned whole (one hash
 * of 4 bytes a frame, where the text table hashed the joined names, ~30
 * bytes a frame), with a dense id in first-seen order; a stack's samples
 * and weight count the samples added to it (weight: what folded output
 * prints, the period perf script shows, or 1). By convention a sample's
 * stack starts with its COMM frame (the process, which folded text puts
 * first) and ends with the sampled frame. (A tree of (parent, frame)
 * nodes was tried first: it took one random map access per frame and
 * was slower than the text table on a system-wide mix; views that want
 * a tree, the flame graph's, build it from the arrays.)
 *
 * Memory grows with unique stacks (per stack: its ids, an hmap entry
 * and a counts pair): adding a sample to a known stack allocates
 * nothing. Per-sample columns are kept only when profile_init is given
 * their bits: the stack id and weight plus the asked columns per sample,
 * in arrays that double; with no bits profile_sample is profile_add.
 *
 * Views: profile_fold_write prints "stack weight" lines as stacks/table
 * does (names joined with ';', bytewise sorted, equal texts summed), byte
 * for byte; profile_merge re-interns another profile's frames and stacks
 * (diff, several inputs); profile_diff_write_sb prints "stack a b" lines.
 *
 * Ownership: the profile owns its frames, stacks and rows; pointers into
 * it are borrowed until the next add or release. Names belong to the
 * prof_names a view is given (use one per profile: it caches names by
 * frame id). Failure: only allocation, which is fatal (base/xalloc.h);
 * more than 2^32 - 2 stacks or frames counts as allocation failure. Sums
 * saturate at UINT64_MAX.
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

struct prof_counts {
	uint64_t samples;           /* samples added to the stack */
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
	uint32_t *stack;            /* the sample's stack; with any column */
	uint64_t *weight;
	uint64_t *time;
	int32_t *pid, *tid;
	uint32_t *cpu;
};

struct profile {
	struct prof_frames frames;
	struct hmap stacks;         /* frame ids root first -> stack id */
	struct prof_counts *counts; /* by stack id */
	size_t counts_cap;
	uint64_t samples, weight;   /* totals over every stack */
	struct prof_rows rows;
};

/* columns: enum prof_column bits to keep per sample (0: none). */
void profile_init(struct profile *p, unsigned columns);
/* Free everything; p is empty (same columns) and reusable. */
void profile_release(struct profile *p);

/* The id of the stack of n frame ids, root first (n may be 0), added
 * with no samples when new. */
uint32_t profile_stack(struct profile *p, const uint32_t *frames, size_t n);
static inline size_t profile_stacks(const struct profile *p)
{
	return p->stacks.count;
}
/* The frame ids of a stack, root first: borrowed until release. */
const uint32_t *profile_stack_frames(const struct profile *p, uint32_t stack,
				     size_t *n);
/* One sample of a stack with this weight (no row kept). */
void profile_add(struct profile *p, uint32_t stack, uint64_t weight);
/* One sample with its columns: a row when the profile keeps any. */
void profile_sample(struct profile *p, uint32_t stack, uint64_t weight,
		    const struct prof_sample *s);
/* Add samples with summed weight at once (merging). */
void profile_add_many(struct profile *p, uint32_t stack, uint64_t samples,
		      uint64_t weight);

/* One folded stack "a;b;c" (len bytes, not NUL-terminated) as TEXT
 * frames, split at every ';', with samples and summed weight: how a
 * stack_table or a folded file enters the model (the text joins back to
 * the same bytes, so the folded view writes what the table wrote).
 * Returns the stack id. */
uint32_t profile_add_folded(struct profile *p, const char *stack, size_t len,
			    uint64_t samples, uint64_t weight);

/* The same for a folded stack whose first frame may name its thread,
 * "comm-PID/TID" as `scorch fold --tid` writes it (PID "?" when perf
 * script printed only the thread id: the thread then stands for its
 * process): that frame is a COMM frame (comm, pid, tid), the others TEXT
 * frames; a stack whose first frame is none is profile_add_folded's.
 * Returns the stack id. */
uint32_t profile_add_thread_folded(struct profile *p, const char *stack, size_t len,
				   uint64_t samples, uint64_t weight);

/* Add every frame, stack and row of src to dst. When map is not NULL it
 * gets src's stack ids mapped to dst's (profile_stacks(src) entries; the
 * caller frees). src is unchanged. */
void profile_merge(struct profile *dst, const struct profile *src, uint32_t **map);

/* ---- folded text view (foldview.c) ---- */

/* Write "stack weight\n" lines: every stack with samples, named by nm
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
