/*
 * report_test: perf's sort and field lists as scorch report parses them,
 * and the names of call graph lines.
 * Stage: analysis (unit tests). The histogram itself is compared with
 * perf report on recordings (tests/t7720-t7723).
 */
#include "analysis/report.h"
#include "unit.h"

UNIT_TEST(analysis_report_keys)
{
	struct rep_opts o;
	char bad[32];
	memset(&o, 0, sizeof(o));
	CHECK(rep_parse_keys(&o, "comm,dso,symbol", bad, sizeof(bad)) == 0);
	CHECK(o.nkeys == 3 && o.keys[0] == REP_COMM && o.keys[1] == REP_DSO && o.keys[2] == REP_SYM);
	/* perf 6.1 follows symbol_size with its IPC column */
	CHECK(rep_parse_keys(&o, "symbol_size,dso", bad, sizeof(bad)) == 0);
	CHECK(o.nkeys == 3 && o.keys[0] == REP_SYMSIZE && o.keys[1] == REP_DSO && o.keys[2] == REP_IPC);
	CHECK(rep_parse_keys(&o, "srcline,sym", bad, sizeof(bad)) == 0);
	CHECK(o.nkeys == 2 && o.keys[0] == REP_SRCLINE && o.keys[1] == REP_SYM);
	CHECK(rep_parse_keys(&o, "sym,sym", bad, sizeof(bad)) < 0);
	CHECK_EQ_STR(bad, "sym");
	CHECK(rep_parse_keys(&o, "pid,tid", bad, sizeof(bad)) < 0); /* no tid in perf 6.1 */
	CHECK_EQ_STR(bad, "tid");
	CHECK(rep_parse_keys(&o, "comm,", bad, sizeof(bad)) < 0);
	CHECK(rep_parse_keys(&o, "", bad, sizeof(bad)) < 0);
}

UNIT_TEST(analysis_report_fields)
{
	struct rep_opts o;
	char bad[32];
	memset(&o, 0, sizeof(o));
	CHECK(rep_parse_fields(&o, "overhead,period,sym,sample", bad, sizeof(bad)) == 0);
	CHECK(o.nfields == 4 && o.fields[0] == REP_F_OVERHEAD && o.fields[1] == REP_F_PERIOD &&
	      o.fields[2] == REP_SYM && o.fields[3] == REP_F_SAMPLE);
	CHECK(o.nkeys == 1 && o.keys[0] == REP_SYM);
	CHECK(rep_parse_fields(&o, "overhead_children,overhead", bad, sizeof(bad)) == 0);
	CHECK(o.nfields == 2 && o.fields[0] == REP_F_CHILDREN && o.nkeys == 0);
	CHECK(rep_parse_fields(&o, "overhead,bogus", bad, sizeof(bad)) < 0);
	CHECK_EQ_STR(bad, "bogus");
}

UNIT_TEST(analysis_report_sort_fields)
{
	struct rep_opts o;
	char bad[32];
	memset(&o, 0, sizeof(o));
	/* perf: sorted by -s, then -F; columns -F's, then -s's missing keys */
	CHECK(rep_parse_sort_fields(&o, "dso,comm", "overhead,sym,comm", bad, sizeof(bad)) == 0);
	CHECK(o.nkeys == 3 && o.keys[0] == REP_DSO && o.keys[1] == REP_COMM && o.keys[2] == REP_SYM);
	CHECK(o.nfields == 4 && o.fields[0] == REP_F_OVERHEAD && o.fields[1] == REP_SYM &&
	      o.fields[2] == REP_COMM && o.fields[3] == REP_DSO);
	CHECK(o.nsort == 4 && o.sort[0] == REP_DSO && o.sort[1] == REP_COMM &&
	      o.sort[2] == REP_F_OVERHEAD && o.sort[3] == REP_SYM);
	CHECK(rep_parse_sort_fields(&o, "bogus", "overhead", bad, sizeof(bad)) < 0);
	CHECK_EQ_STR(bad, "bogus");
	CHECK(rep_parse_sort_fields(&o, "dso", "overhead,bogus", bad, sizeof(bad)) < 0);
	CHECK_EQ_STR(bad, "bogus");
}

UNIT_TEST(analysis_report_frame_names)
{
	struct sym_entry sym = { 0x1000, 0x1100, "spin", 0, 0, false, true, false };
	struct rep_frame f = { NULL, &sym, NULL, 0x1234, '.' };
	struct strbuf sb = SB_INIT;
	rep_frame_name(&f, &sb);
	CHECK_EQ_STR(sb.buf, "spin");
	f.inl = "now";
	sb_reset(&sb);
	rep_frame_name(&f, &sb);
	CHECK_EQ_STR(sb.buf, "now (inlined)");
	f.sym = NULL;
	f.inl = NULL;
	sb_reset(&sb);
	rep_frame_name(&f, &sb);
	CHECK_EQ_STR(sb.buf, "0x1234");
	f.ip = 0; /* perf's %#llx: no 0x for zero */
	sb_reset(&sb);
	rep_frame_name(&f, &sb);
	CHECK_EQ_STR(sb.buf, "0");
	sb_release(&sb);
}
