/*
 * cmd/heatmap_subsecond: `scorch heatmap subsecond`, FlameScope's map of
 * sample offsets within each second (with range flame graphs), from
 * perf.data or perf script text. Stage: command. cmd/heatmap parses the
 * options of both subcommands (one table) and hands this one its
 * values; the offsets are analysis/subsecond's, the page
 * render/subsecond's.
 */
#ifndef SCORCH_CMD_HEATMAP_SUBSECOND_H
#define SCORCH_CMD_HEATMAP_SUBSECOND_H

#include <stdbool.h>

struct heatmap_subsecond_opts {
	long rows;              /* offsets per second */
	bool all;               /* keep idle samples */
	bool cells;             /* the cells as TSV, not the page */
	const char *title;      /* NULL: the default title */
};

/* The map of path (NULL: perf.data when readable, else standard input)
 * to standard output. Returns the exit status (messages printed). */
int heatmap_subsecond(const struct heatmap_subsecond_opts *o, const char *path);

#endif
