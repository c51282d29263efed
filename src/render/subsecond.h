/*
 * subsecond: the sub-second offset heat map (FlameScope's view): one
 * column per second of the perf clock, one row per slice of the second,
 * colour by sample count; optionally the folded stacks of every cell, so
 * the HTML page can draw the flame graph of any selected time range.
 * Stage: render. Times are integer nanoseconds, so a sample exactly on a
 * slice boundary lands in the upper slice (FlameScope's float modulo puts
 * some of them one row lower). Columns run from the first second of the
 * earliest event to the second of the latest event, both included (no
 * crash on a whole-second last timestamp).
 * Key invariant: memory grows with non-empty cells and distinct
 * (cell, stack) pairs, not with the number of samples.
 */
#ifndef SCORCH_RENDER_SUBSECOND_H
#define SCORCH_RENDER_SUBSECOND_H

#include <stdbool.h>
#include <stdint.h>

#include "base/hmap.h"
#include "base/strbuf.h"
#include "stacks/table.h"

#define SUBSEC_NS 1000000000ull

struct subsec_map {
	long rows;              /* slices per second */
	bool keep_stacks;
	bool have;              /* at least one event seen */
	uint64_t min_sec, max_sec; /* whole seconds of the first/last event */
	uint64_t samples;       /* samples counted in cells */
	struct hmap cells;      /* key: (sec u64, row u32) -> count */
	struct stack_table stacks;  /* distinct folded stacks */
	struct hmap cellstacks; /* key: (sec, row, stack id) -> count */
};

void subsec_map_init(struct subsec_map *m, long rows, bool keep_stacks);
void subsec_map_release(struct subsec_map *m);
/* Any event, counted or not: extends the column range. */
void subsec_map_event(struct subsec_map *m, uint64_t t_ns);
/* A counted sample at t_ns (its cell counts 1) with its folded stack and
 * the stack's weight (ignored unless keep_stacks; scorch fold weighs a
 * sample by its period). Also calls subsec_map_event. */
void subsec_map_sample(struct subsec_map *m, uint64_t t_ns, const char *stack,
		       size_t len, uint64_t weight);
/* Row of a time, 0 = the lowest offset. */
long subsec_row(const struct subsec_map *m, uint64_t t_ns);

/* TSV with a header: col_second row_topdown row_bottomup offset_ms_lo count,
 * non-empty cells by column, then top row first (FlameScope's order). */
void render_subsecond_cells(const struct subsec_map *m, struct strbuf *out);
/* Self-contained XHTML page: the heat map, two clicks select a range,
 * the range's flame graph and folded stacks are drawn below. */
void render_subsecond_html(const struct subsec_map *m, const char *title,
			   struct strbuf *out);
/* The page of the heat map as `scorch heatmap subsecond` writes it:
 * the cells (TSV) when cells, else the HTML page; title NULL or the
 * latency map's default ("Latency Heat Map", what the heatmap options
 * start with) gives "Sub-second Offset Heat Map". */
void render_subsecond(const struct subsec_map *m, bool cells, const char *title,
		      struct strbuf *out);

/* Parse "SEC.FRACTION" (perf script time, any number of decimals up to 9)
 * into ns; false when it is not such a number. */
bool subsec_parse_time(const char *s, size_t len, uint64_t *ns);

#endif
