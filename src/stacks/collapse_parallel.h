/*
 * collapse_parallel: one perf script text file folded by several threads.
 * Stage: stacks. The file is cut after blank lines (where the Perl
 * script's state is back to its start: no process name, no open stack),
 * each piece is folded by its own collapse_perf into its own table, and
 * the tables and counters are merged in file order. Key invariant: the
 * result, warnings included, is byte-identical to folding the file in one
 * thread; the default event filter (the first event of the file) is found
 * first and given to every piece.
 */
#ifndef SCORCH_STACKS_COLLAPSE_PARALLEL_H
#define SCORCH_STACKS_COLLAPSE_PARALLEL_H

#include "base/diag.h"
#include "stacks/collapse_perf.h"

/* Fold path with up to jobs threads into p (whose table, counters and
 * messages then read as if p had been fed every line). p must be fresh
 * (nothing fed yet); --srcline input is not supported (callers fold it in
 * one thread). Returns 0, or a negative errno with d filled. */
int collapse_parallel_file(struct collapse_perf *p, const char *path, int jobs,
			   struct diag *d);

#endif
