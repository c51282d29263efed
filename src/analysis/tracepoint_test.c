/*
 * tracepoint_test: event formats whose print format libtraceevent
 * cannot parse.
 * Stage: analysis (unit tests). Under the sanitizer build with leak
 * detection on (tests/ci.sh), a leak of ours fails the run; the one
 * libtraceevent makes itself on such a format is suppressed in
 * tests/lsan.supp.
 */
#include "analysis/tracepoint.h"
#include "base/strbuf.h"
#include "unit.h"

#include <stdio.h>

/* Tracing data (perf's layout: magic, version, endianness, long size,
 * page size, empty header_page and header_event, no ftrace formats, one
 * system "sys" with one event) whose one event prints with print_fmt. */
static void tracing_data(struct strbuf *sb, const char *print_fmt)
{
	static const char magic[10] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	const uint64_t zero = 0;
	const uint32_t page = 4096, none = 0, one = 1;
	char fmt[512];
	int n = snprintf(fmt, sizeof(fmt), "name: ev\nID: 7\nformat:\n"
			 "\tfield:int x;\toffset:8;\tsize:4;\tsigned:1;\n\n"
			 "print fmt: %s\n", print_fmt);
	uint64_t len = (uint64_t)n;
	sb_add(sb, magic, sizeof(magic));
	sb_add(sb, "0.6\0\0\10", 6);               /* little-endian, long 8 */
	sb_add(sb, &page, 4);
	sb_add(sb, "header_page", 12);
	sb_add(sb, &zero, 8);
	sb_add(sb, "header_event", 13);
	sb_add(sb, &zero, 8);
	sb_add(sb, &none, 4);
	sb_add(sb, &one, 4);
	sb_add(sb, "sys", 4);
	sb_add(sb, &one, 4);
	sb_add(sb, &len, 8);
	sb_add(sb, fmt, len);
}

UNIT_TEST(analysis_tp_bad_print_fmt)
{
	static const char *const fmts[] = {
		"\"%d\", REC->x",        /* good */
		"\"%d\", -",             /* libtraceevent leaks a token */
		"\"%d\", REC->x ? 1 ",
		"\"%d\", REC->",
	};
	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		struct strbuf sb = SB_INIT;
		struct an_tp tp;
		struct diag d = DIAG_INIT;
		tracing_data(&sb, fmts[i]);
		an_tp_init(&tp);
		tp.keep_print = true;
		int r = an_tp_load(&tp, (const uint8_t *)sb.buf, sb.len, &d);
		CHECK(r == 0 && tp.nr_events + tp.nr_bad_formats == 1);
		CHECK(i > 0 || an_tp_event_by_name(&tp, "sys:ev") != NULL);
		an_tp_release(&tp);
		sb_release(&sb);
	}
}
