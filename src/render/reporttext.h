/*
 * reporttext: a report (analysis/report.h) as `perf report --stdio`
 * prints it: the header lines, per event the "# Samples" block, the
 * column header, one line per entry and its call graph in perf's graph
 * (absolute), fractal (relative), flat or folded form, with perf's tree
 * characters, indentation, thresholds and percentages.
 * Stage: render. Writes into a strbuf; cannot fail.
 */
#ifndef SCORCH_RENDER_REPORTTEXT_H
#define SCORCH_RENDER_REPORTTEXT_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/report.h"
#include "base/strbuf.h"

enum rep_graph { REP_G_NONE, REP_G_GRAPH, REP_G_FRACTAL, REP_G_FLAT, REP_G_FOLDED };

struct rep_text_opts {
	enum rep_graph mode;
	double min_percent;    /* call graph threshold (perf: 0.5) */
	double percent_limit;  /* hide entries below (0: none) */
	unsigned long print_limit; /* call graph lines per level (0: all) */
	bool period_values;    /* -g period: periods, not percentages */
	bool samples;          /* -n: the Samples column */
	bool period;           /* the Period column */
	bool skip_first;       /* sort list starts with sym: a single
				* chain root's first frame is the entry */
	uint64_t nr_lost;
};

void rep_text_print(struct strbuf *o, const struct rep *r, const struct rep_text_opts *t);

#endif
