/*
 * subsecond: sample times (and folded stacks) for the sub-second offset
 * heat map, from `perf script` text or from a perf.data.
 * Stage: analysis (reads stacks/collapse_perf for the text path and a
 * process/session for perf.data; fills a render/subsecond map).
 * Idle samples (FlameScope's rule: "swapper" followed by an idle function
 * in the sample's event line or stack) still extend the column range but
 * are not counted unless keep_idle is set. A sample is counted exactly
 * when `scorch fold` would emit its stack, so a range of cells equals
 * `scorch fold --time` over the same range.
 */
#ifndef SCORCH_ANALYSIS_SUBSECOND_H
#define SCORCH_ANALYSIS_SUBSECOND_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "perfdata/reader.h"
#include "render/subsecond.h"

struct an_offsets_opts {
	long rows;       /* slices per second (default 50) */
	bool keep_idle;  /* count idle samples too */
	bool stacks;     /* keep per-cell folded stacks (for the HTML page) */
};

struct an_offsets {
	struct an_offsets_opts o;
	struct subsec_map map;
	uint64_t events, idle, no_time;
	struct pd_dropped dropped; /* samples that did not decode (perfdata/reader.h) */
};

void an_offsets_init(struct an_offsets *a, const struct an_offsets_opts *o);
void an_offsets_release(struct an_offsets *a);
/* Returns 0 (d may hold a warning) or negative with d filled. */
/* Text from lr, opened by the caller (who closes it). */
struct lines;
int an_offsets_read_script(struct an_offsets *a, struct lines *lr, struct diag *d);
/* r: opened by the caller, freed here. */
struct sym_config;
int an_offsets_read_perfdata(struct an_offsets *a, struct pd_reader *r,
			     const struct sym_config *cfg, struct diag *d);

/* The time of a perf script event line (" SEC.FRAC: event:" pattern),
 * false when the line has none. */
bool an_script_time(const char *line, size_t len, uint64_t *ns);
/* FlameScope's idle test on one line of a sample (event line or frame):
 * *swapper_seen carries "swapper" from earlier lines of the sample. */
bool an_script_idle(const char *line, size_t len, bool *swapper_seen);

#endif
