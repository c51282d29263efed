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

/* perf report's -g value: the graph options, set field by field. */
struct rep_graph_opts {
	enum rep_graph mode;
	double min;
	unsigned long limit;   /* lines per level, 0: all */
	int order;             /* -1: perf's default for the view */
	bool period;           /* values as periods */
};
/* What perf takes for -g without a value, and the defaults of g. */
#define REP_GRAPH_DEFAULT "graph,0.5,caller,function,percent"
#define REP_GRAPH_OPTS_INIT { REP_G_GRAPH, 0.5, 0, -1, false }
/* Parse a -g value into g: comma-separated MODE (graph, fractal, flat,
 * folded, none), threshold, print limit (in that order, the numbers),
 * caller or callee, function, percent or period; what is not given
 * keeps its value. Returns 0, or -1 for a value perf 6.1 does not take
 * (address and count among them). */
int rep_text_parse_graph(const char *s, struct rep_graph_opts *g);

#endif
