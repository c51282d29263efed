/*
 * heatmap_test: unit tests for the latency heat map's bucketing and labels
 * and the sub-second map's time parsing and rows (render/heatmap,
 * render/subsecond). Stage: render tests. Each case states the
 * trace2heatmap.pl or FlameScope rule it checks.
 */
#include "render/heatmap.h"
#include "render/subsecond.h"
#include "base/lines.h"
#include "unit.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

static void add_all(struct heatmap *hm, const double (*p)[2], size_t n)
{
	for (size_t i = 0; i < n; i++)
		heatmap_add(hm, p[i][0], p[i][1]);
}

UNIT_TEST(heatmap_parse_line_fields)
{
	double t, lat;
	CHECK(heatmap_parse_line("1.5 20", 6, &t, &lat) == 1 && t == 1.5 && lat == 20);
	CHECK(heatmap_parse_line("  7\t8 extra", 11, &t, &lat) == 1 && t == 7 && lat == 8);
	CHECK(heatmap_parse_line("7", 1, &t, &lat) == 0);
	CHECK(heatmap_parse_line("foo bar", 7, &t, &lat) == -1);
	CHECK(heatmap_parse_line("0x10 1", 6, &t, &lat) == -1);
	CHECK(heatmap_parse_line("inf 1", 5, &t, &lat) == -1);
	/* any letter on line 1 makes it a header, "1e3" included (reference rule) */
	CHECK(heatmap_is_header("TIMEus LATus", 12) && heatmap_is_header("1e3 4", 5));
	CHECK(!heatmap_is_header("10 4.5", 6));
}

UNIT_TEST(heatmap_bucketing_rules)
{
	/* step = int(40 / 4) = 10; col = int(t - start); last column and top
	 * band counted; quirks hides them */
	static const double p[][2] = { { 100, 0 }, { 100.99, 10 }, { 101, 19.9 },
				       { 103, 40 }, { 102, 41 } };
	struct heatmap_opts o;
	heatmap_opts_init(&o);
	o.rows = 4;
	o.maxlat = 40;
	struct heatmap hm;
	heatmap_init(&hm, &o);
	add_all(&hm, p, 5);
	struct diag d = DIAG_INIT;
	CHECK(heatmap_build(&hm, &d) == 0);
	CHECK(hm.step == 10 && hm.largest_row == 4 && hm.largest_col == 3);
	CHECK(hm.kept == 4);  /* 41 > maxlat dropped */
	CHECK(hm.ndrawn == 4 && heatmap_ncols(&hm) == 4 && heatmap_nrows(&hm) == 5);
	heatmap_release(&hm);
	o.quirks = true;
	heatmap_init(&hm, &o);
	add_all(&hm, p, 5);
	CHECK(heatmap_build(&hm, &d) == 0 && hm.ndrawn == 3);
	heatmap_release(&hm);
}

UNIT_TEST(heatmap_errors)
{
	struct heatmap_opts o;
	heatmap_opts_init(&o);
	struct heatmap hm;
	struct diag d = DIAG_INIT;
	heatmap_init(&hm, &o);
	CHECK(heatmap_build(&hm, &d) < 0 && strstr(d.msg, "no data"));
	heatmap_release(&hm);
	diag_clear(&d);
	heatmap_init(&hm, &o);
	heatmap_add(&hm, 0, 10);   /* int(10 / 50) = 0 */
	CHECK(heatmap_build(&hm, &d) < 0 && strstr(d.msg, "row resolution"));
	heatmap_release(&hm);
}

UNIT_TEST(heatmap_labels)
{
	struct heatmap_opts o;
	heatmap_opts_init(&o);
	o.unitslabel = "us";
	o.stepsec = 0.1;
	struct heatmap hm;
	heatmap_init(&hm, &o);
	hm.step = 419;
	struct strbuf sb = SB_INIT;
	heatmap_time_label(&hm, 3, &sb);      /* 0.1 * 3 prints 0.3 */
	CHECK_EQ_STR(sb.buf, "0.3");
	sb_reset(&sb);
	heatmap_range_label(&hm, 1, &sb);
	CHECK_EQ_STR(sb.buf, "419-838us");
	sb_reset(&sb);
	hm.o.stepsec = 2;
	heatmap_time_label(&hm, 1, &sb);      /* whole seconds 2..3 */
	CHECK_EQ_STR(sb.buf, "2-3");
	sb_reset(&sb);
	hm.o.stepsec = 2.5;
	heatmap_time_label(&hm, 0, &sb);      /* the real range, not 0-1.5 */
	CHECK_EQ_STR(sb.buf, "0-2.5");
	sb_release(&sb);
	heatmap_release(&hm);
}

UNIT_TEST(subsecond_time_and_rows)
{
	uint64_t ns = 0;
	CHECK(subsec_parse_time("5086.200000", 11, &ns) && ns == 5086200000000ull);
	CHECK(subsec_parse_time("1.5", 3, &ns) && ns == 1500000000ull);
	CHECK(subsec_parse_time("2.1234567891", 12, &ns) && ns == 2123456789ull);
	CHECK(!subsec_parse_time("1.2.3", 5, &ns) && !subsec_parse_time("", 0, &ns));
	CHECK(!subsec_parse_time("99999999999999999999", 20, &ns));
	struct subsec_map m;
	subsec_map_init(&m, 50, false);
	/* exact boundaries land in the upper slice (FlameScope: 180 ms row) */
	CHECK(subsec_row(&m, 5086200000000ull) == 10);
	CHECK(subsec_row(&m, 5086199999999ull) == 9);
	CHECK(subsec_row(&m, 5117999999000ull) == 49);
	subsec_map_release(&m);
}

/* Pairs become points as perf script's truncated microseconds give them. */
UNIT_TEST(heatmap_pairs_as_text)
{
	struct heatmap_pairs pc = { NULL, SB_INIT, NULL, false, 0, 0 };
	CHECK(heatmap_pairs_add(&pc, 1999, 3000) == 0);   /* us: 3 - 1 */
	CHECK(heatmap_pairs_add(&pc, 5000, 4000) == 0);   /* end first: 0 */
	pc.ns = true;
	CHECK(heatmap_pairs_add(&pc, 1999, 3000) == 0);
	CHECK(strcmp(pc.out.buf, "3 2\n4 0\n3000 1001\n") == 0);
	sb_release(&pc.out);
}

/* Text is checked before it is read: binary bytes are refused with the
 * offset of the first one; text lines (header skipped) become pairs. */
static int read_input(struct heatmap *hm, const char *text, size_t n,
		      struct heatmap_text *ts, struct diag *d)
{
	int p[2];
	if (pipe(p) != 0 || write(p[1], text, n) != (ssize_t)n)
		return -1;
	close(p[1]);
	struct lines lr;
	lines_init_fd(&lr, p[0], "in");
	int rc = heatmap_read_text_input(hm, &lr, ts, d);
	lines_close(&lr);
	close(p[0]);
	return rc;
}

UNIT_TEST(heatmap_text_input)
{
	struct heatmap_opts o;
	heatmap_opts_init(&o);
	struct heatmap hm;
	heatmap_init(&hm, &o);
	struct heatmap_text ts = { 0 };
	struct diag d = DIAG_INIT;
	CHECK(read_input(&hm, "t lat\n1 5\n2 x\n3 7\n", 18, &ts, &d) == 0);
	CHECK(!d.set && hm.npairs == 2 && ts.bad == 1 && ts.first_bad_line == 3);
	/* the note names the input and line of the first skipped line */
	struct strbuf note = SB_INIT;
	CHECK(ts.first_bad_name != NULL && heatmap_text_note(&ts, &note));
	CHECK(strstr(note.buf, ": line 3: 1 line(s) without two numbers skipped") != NULL);
	struct heatmap_text none = { 0 };
	sb_reset(&note);
	CHECK(!heatmap_text_note(&none, &note) && note.len == 0);
	sb_release(&note);
	CHECK(read_input(&hm, "1 5\n\0\x01", 6, &ts, &d) == -EINVAL);
	CHECK_EQ_STR(d.msg, "binary data (byte 0x00 at offset 4), not \"time latency\" "
		     "text or perf.data");
	CHECK(hm.npairs == 2);
	heatmap_release(&hm);
}

/* The pairing note names every count, and is not made when all paired. */
UNIT_TEST(heatmap_latency_note)
{
	struct an_latency l;
	memset(&l, 0, sizeof(l));
	struct strbuf sb = SB_INIT;
	l.npairs = 9;
	CHECK(!an_latency_note(&l, &sb) && sb.len == 0);
	l.unmatched_end = 2;
	l.bad_payload = 1;
	CHECK(an_latency_note(&l, &sb));
	CHECK_EQ_STR(sb.buf, "9 pairs; 0 start events never ended, 2 end events had no "
		     "start, 0 starts were re-issued, 1 payloads too short for the key");
	sb_release(&sb);
}

/* Option values as trace2heatmap.pl takes them, within the map's ranges;
 * a bad value leaves the option as it was. */
UNIT_TEST(heatmap_option_values)
{
	struct heatmap_opts o;
	heatmap_opts_init(&o);
	CHECK(heatmap_opts_set(&o, "unitstime", "us") == 0 && o.timefactor == 1e6);
	CHECK(heatmap_opts_set(&o, "unitstime", "sec") < 0 && o.timefactor == 1e6);
	CHECK(heatmap_opts_set(&o, "minlat", "-5") == 0 && o.minlat == -5);
	CHECK(heatmap_opts_set(&o, "maxlat", "-1") < 0 && o.maxlat == 0);
	CHECK(heatmap_opts_set(&o, "stepsec", "0") < 0 && o.stepsec == 1);
	CHECK(heatmap_opts_set(&o, "stepsec", "0.5") == 0 && o.stepsec == 0.5);
	CHECK(heatmap_opts_set(&o, "rows", "20") == 0 && o.rows == 20);
	CHECK(heatmap_opts_set(&o, "rows", "1.5") < 0 && o.rows == 20);
	CHECK(heatmap_opts_set(&o, "rows", "100001") < 0);
	CHECK(heatmap_opts_set(&o, "maxcol", "10000") == 0 && o.maxcol == 10000);
	CHECK(heatmap_opts_set(&o, "maxcol", "10001") < 0);
	CHECK(heatmap_opts_set(&o, "boxsize", "0") < 0 && o.boxsize == 8);
	CHECK(heatmap_opts_set(&o, "fontsize", "1000") == 0 && o.fontsize == 1000);
	CHECK(heatmap_opts_set(&o, "title", "T") == 0 && !strcmp(o.title, "T"));
	CHECK(heatmap_opts_set(&o, "grid", NULL) == 0 && o.grid);
	CHECK(heatmap_opts_set(&o, "quirks", NULL) == 0 && o.quirks);
	/* not a map option: the command's */
	CHECK(heatmap_opts_set(&o, "cells", NULL) == 1);
	CHECK(heatmap_opts_set(&o, "start", "x") == 1);
}

/* The subsecond page: cells or HTML; the latency map's default title
 * gives the sub-second one. */
UNIT_TEST(subsecond_page)
{
	struct subsec_map m;
	subsec_map_init(&m, 50, true);
	subsec_map_sample(&m, 1500000000ull, "a;b", 3, 1);
	struct strbuf a = SB_INIT, b = SB_INIT;
	render_subsecond(&m, true, "X", &a);
	render_subsecond_cells(&m, &b);
	CHECK(a.len > 0 && !strcmp(a.buf, b.buf));
	sb_reset(&a);
	sb_reset(&b);
	render_subsecond(&m, false, "Latency Heat Map", &a);
	render_subsecond_html(&m, "Sub-second Offset Heat Map", &b);
	CHECK(a.len > 0 && !strcmp(a.buf, b.buf));
	sb_reset(&a);
	render_subsecond(&m, false, "Mine", &a);
	CHECK(strstr(a.buf, "Mine") != NULL && !strstr(a.buf, "Sub-second Offset Heat Map"));
	sb_release(&a);
	sb_release(&b);
	subsec_map_release(&m);
}
