/*
 * heatmap: latency heat maps (time on x, latency bands on y, colour by
 * count), with trace2heatmap.pl's bucketing, drawn as SVG or as a cell list.
 * Stage: render. Input is a stream of (time, latency) pairs; they are
 * spooled to an unlinked temporary file (not memory) because the default
 * bands need the largest latency before the first pair can be bucketed.
 * Key invariant: memory grows with the number of non-empty cells, never
 * with the number of pairs; every cell that was counted is drawn (unless
 * quirks mode asks for trace2heatmap.pl's hidden last column / top band).
 *
 * Bucketing (see docs/scorch-heatmap.md and ../shared/heatmap/README.md):
 *   start = smallest time; largest = largest latency of all pairs
 *   maxlat = opt or largest; step = opt or int((maxlat - minlat) / rows)
 *   pair kept when minlat <= lat <= maxlat (and col <= maxcol if given)
 *   col = int(((t - start) / timefactor) / stepsec)
 *   row = int((lat - minlat) / step)
 * Ownership: strings in heatmap_opts are borrowed for the map's life.
 */
#ifndef SCORCH_RENDER_HEATMAP_H
#define SCORCH_RENDER_HEATMAP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/latency.h"
#include "base/diag.h"
#include "base/hmap.h"
#include "base/strbuf.h"

#define HEATMAP_MAX_COLS 10000   /* as trace2heatmap.pl's $limit_col */
#define HEATMAP_MAX_ROWS 100000

struct heatmap_opts {
	double timefactor;      /* time units per second: 1, 1e3, 1e6, 1e9 */
	const char *unitslabel; /* suffix of latency labels */
	double minlat;          /* drop latency below */
	double maxlat;          /* drop latency above; 0 = largest seen */
	double steplat;         /* band height; 0 = derived from rows */
	long rows;              /* wanted bands when steplat is derived */
	double stepsec;         /* seconds per column */
	long maxcol;            /* drop columns above; -1 = none */
	const char *title;
	const char *fonttype;
	long fontsize;
	long boxsize;           /* cell size in px */
	bool accstats;          /* tooltip adds cumulative counts */
	bool grid;              /* grid lines and labels */
	bool quirks;            /* hide the last column and the top band as
				 * trace2heatmap.pl does */
};

void heatmap_opts_init(struct heatmap_opts *o);
/* The option called name (the long option of `scorch heatmap`, as
 * trace2heatmap.pl names it: unitstime, unitslabel, minlat, maxlat,
 * steplat, stepsec, rows, maxcol, grid, title, boxsize, fonttype,
 * fontsize, accstats, quirks) set from its text v (borrowed; ignored for
 * the flags grid, accstats and quirks), within the map's ranges. Returns
 * 0, 1 when name is none of these, or -1 for a bad value (o unchanged). */
int heatmap_opts_set(struct heatmap_opts *o, const char *name, const char *v);
/* Time units per second of a unit name (s, ms, us, ns) into *factor:
 * 0, or -1 for another name. */
int heatmap_time_units(const char *v, double *factor);

struct heatmap_cell {
	long col, row;
	uint64_t count;
	uint64_t acc;      /* cumulative count bottom-up in its column */
	uint64_t coltotal; /* sum of the drawn cells of its column */
};

struct heatmap {
	struct heatmap_opts o;
	FILE *spool;            /* pairs as two doubles each */
	uint64_t npairs;
	double min_t, max_t, largest_lat;
	/* layout, set by heatmap_build */
	double start, maxlat, step;
	long largest_col, largest_row;
	uint64_t largest_count, kept;
	struct hmap cells;      /* key: two longs (col, row); value: count */
	struct heatmap_cell *drawn; /* sorted column-major, bottom-up */
	size_t ndrawn;
};

void heatmap_init(struct heatmap *hm, const struct heatmap_opts *o);
void heatmap_release(struct heatmap *hm);
/* Add one pair; both must be finite. Returns 0 or -errno (spool I/O). */
int heatmap_add(struct heatmap *hm, double t, double lat);
/* Bucket the spooled pairs. Returns 0, or negative with d filled (no
 * data, row resolution too high, too many columns or rows). */
int heatmap_build(struct heatmap *hm, struct diag *d);
/* Number of columns and rows drawn (after heatmap_build). */
long heatmap_ncols(const struct heatmap *hm);
long heatmap_nrows(const struct heatmap *hm);
/* Append the cell list as TSV with a header line:
 * col row count acc coltotal time_label range_label fill x y */
void heatmap_write_cells(const struct heatmap *hm, struct strbuf *out);
/* Append the interactive SVG. */
void heatmap_write_svg(const struct heatmap *hm, struct strbuf *out);
/* Label helpers (also used by the SVG): the column's time range and the
 * row's latency range as trace2heatmap.pl prints them. */
void heatmap_time_label(const struct heatmap *hm, long col, struct strbuf *sb);
void heatmap_range_label(const struct heatmap *hm, long row, struct strbuf *sb);

/* Parse one "time latency" text line into *t, *lat: 1 = a pair, 0 = a
 * line to skip silently (fewer than two fields), -1 = not numeric. */
int heatmap_parse_line(const char *line, size_t len, double *t, double *lat);
/* true when a first line is a header (contains a letter). */
bool heatmap_is_header(const char *line, size_t len);

/* Build hm and append its cells (cells) or its SVG to out. Returns 0, or
 * heatmap_build's negative code (d). */
int heatmap_render(struct heatmap *hm, bool cells, struct strbuf *out, struct diag *d);

/* ---- inputs (heatmap_input.c) ---- */

/* "time latency" text read so far, over one or more inputs. */
struct heatmap_text {
	uint64_t bad;             /* lines without two numbers, skipped */
	uint64_t first_bad_line;  /* the first one's line in its input */
	const char *first_bad_name; /* and that input's name (lr->name, borrowed) */
	bool first_line_seen;     /* the header check is behind us */
};

/* Add every "time latency" line of lr to hm; the very first line (of
 * the first input) is skipped when it is a header. Lines that are not
 * numeric are counted in ts. Returns 0 at the end of input, or
 * lines_next's or heatmap_add's negative code (lr's lineno then is the
 * line before the one that failed). */
struct lines;
int heatmap_read_text(struct heatmap *hm, struct lines *lr, struct heatmap_text *ts);

/* The note of the skipped lines, when there were some, appended to sb:
 * "NAME: line N: N line(s) without two numbers skipped" (the first
 * one's input and line). Returns whether it was. */
bool heatmap_text_note(const struct heatmap_text *ts, struct strbuf *sb);

/* Event pairs (analysis/latency.h's an_pair_fn, ctx a heatmap_pairs)
 * as points, as perf script's truncated microseconds give them (us:
 * time floor(end/1000), latency floor(end/1000) - floor(start/1000); ns:
 * end, end - start; 0 when end < start): added to hm, or, when hm is
 * NULL, printed as "time latency" lines to out, written to f as out
 * grows (and by the caller at the end). */
struct heatmap_pairs {
	struct heatmap *hm;    /* NULL: print the pairs */
	struct strbuf out;
	FILE *f;
	bool ns;
	int err;               /* negative code that stopped the pairing */
	int write_err;         /* -errno of a failed write of the pairs */
};
int heatmap_pairs_add(void *ctx, uint64_t start, uint64_t end);

/* The input check and the read of heatmap_read_text: lr must hold
 * text (-EINVAL, d "binary data (byte 0xNN at offset N), not ..."),
 * then every line is read as heatmap_read_text does (a read error: its
 * code, d "line N: reason"). Returns 0 or negative with d. */
int heatmap_read_text_input(struct heatmap *hm, struct lines *lr, struct heatmap_text *ts,
			    struct diag *d);

/* A latency heat map of event pairs in a perf.data (analysis/latency.h):
 *   struct heatmap_events e;
 *   heatmap_events_init(&e, &opts, &eo, stdout);
 *   rc = an_latency_read(&e.lat, reader, &d);
 *   then e.pc.err / e.pc.write_err, and draw e.hm (heatmap_render) or
 *   flush e.pc.out (eo.pairs);
 *   heatmap_events_release(&e);
 * e must stay where it is between init and release (it points into
 * itself). */
struct heatmap_events_opts {
	const char *start, *end, *key; /* NULL: block:block_rq_issue,
					* block:block_rq_complete, dev,sector */
	bool ns;                       /* times in ns (else us) */
	bool pairs;                    /* print the pairs to f, no map */
};
struct heatmap_events {
	struct heatmap hm;
	struct heatmap_pairs pc;
	struct an_latency lat;
};
/* Ready e; o's time units (1 = not given) and empty units label take
 * the pairs' unit first (o is changed). */
void heatmap_events_init(struct heatmap_events *e, struct heatmap_opts *o,
			 const struct heatmap_events_opts *eo, FILE *f);
void heatmap_events_release(struct heatmap_events *e);

#endif
