/*
 * stackname: the folded stack of a resolved sample, named by the rules
 * `scorch fold` applies to perf.data (stacks/collapse_perf): process name
 * at the root, then the frames from the outermost caller to the leaf.
 * Stage: analysis (reads process/session samples, writes stacks text).
 * Key invariant: one builder reused for every sample, so naming a sample
 * allocates nothing once the buffers have grown.
 * Ownership: the returned text is borrowed until the next call.
 */
#ifndef SCORCH_ANALYSIS_STACKNAME_H
#define SCORCH_ANALYSIS_STACKNAME_H

#include <stddef.h>

#include "base/strbuf.h"
#include "stacks/collapse_perf.h"
#include "stacks/table.h"

struct proc_sample;

struct an_stackname {
	struct collapse_opts o;
	struct stack_builder b;
	struct strbuf pname, scratch;
};

void an_stackname_init(struct an_stackname *n, const struct collapse_opts *o);
void an_stackname_release(struct an_stackname *n);
/* The folded stack of ps ("comm;outer;...;leaf"); *len is its length. */
const char *an_stackname_of(struct an_stackname *n, const struct proc_sample *ps,
			    size_t *len);

#endif
