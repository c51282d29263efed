/*
 * diff: two folded profiles side by side, as difffolded.pl pairs them:
 * every distinct stack once, with its count before (side 0) and after
 * (side 1), 0 where a profile has none. Stage: stacks. Counts are
 * doubles: folded counts may have fractions (flamegraph.pl accepts
 * them), so this is not the profile model's integer weights.
 *
 * Usage:
 *   struct stack_diff df;
 *   stack_diff_init(&df, strip_hex);
 *   stack_diff_add(&df, 0, "a;b", 3, 10);   // BEFORE's lines, then AFTER's
 *   stack_diff_normalize(&df);              // optional: difffolded.pl -n
 *   size_t *order = stack_diff_sorted(&df); // stack text, bytewise
 *   stack_diff_write(&df, order, stdout);   // "stack before after" lines
 *   free(order); stack_diff_release(&df);
 *
 * Ownership: df owns copies of the stacks; keys are borrowed until
 * release. Failure: only allocation (fatal) and writes (returned).
 */
#ifndef SCORCH_STACKS_DIFF_H
#define SCORCH_STACKS_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/hmap.h"
#include "base/strbuf.h"

struct stack_diff {
	struct hmap stacks;   /* stack -> id */
	double *counts;       /* two per id: before, after */
	size_t cap;
	double total[2];      /* per side */
	bool strip_hex;       /* every 0x[0-9a-fA-F]+ compared as "0x..." */
	struct strbuf tmp;
};

void stack_diff_init(struct stack_diff *df, bool strip_hex);
void stack_diff_release(struct stack_diff *df);
/* Add v to the count of stack (len bytes) on side 0 (before) or 1. */
void stack_diff_add(struct stack_diff *df, int side, const char *stack,
		    size_t len, double v);
/* difffolded.pl -n: before = int(before * total_after / total_before),
 * unless the totals are equal or before's is 0. */
void stack_diff_normalize(struct stack_diff *df);
static inline size_t stack_diff_count(const struct stack_diff *df)
{
	return df->stacks.count;
}
/* Stack ids by stack text, bytewise (the caller frees). */
size_t *stack_diff_sorted(const struct stack_diff *df);
/* Stack id's text (borrowed) and its counts. */
const char *stack_diff_key(struct stack_diff *df, size_t id, size_t *len);
static inline double stack_diff_before(const struct stack_diff *df, size_t id)
{
	return df->counts[2 * id];
}
static inline double stack_diff_after(const struct stack_diff *df, size_t id)
{
	return df->counts[2 * id + 1];
}
/* "stack before after" lines in order, counts as Perl prints numbers.
 * Returns 0, or negative errno of a failed write. */
int stack_diff_write(struct stack_diff *df, const size_t *order, FILE *f);

#endif
