/* Unit tests for stacks/detect: format guesses and their errors. */
#include "stacks/detect.h"
#include "unit.h"

#include <string.h>

static enum stack_format detect(const char *s, struct diag *d)
{
	diag_clear(d);
	return stack_format_detect(s, strlen(s), true, d);
}

UNIT_TEST(stack_format_detect_formats)
{
	struct diag d = DIAG_INIT;
	CHECK(detect("", &d) == FMT_EMPTY);
	CHECK(detect("# c\n\n  \n", &d) == FMT_EMPTY);
	CHECK(stack_format_detect("PERFILE2xxxxxxxx", 16, true, &d) == FMT_PERF_DATA);
	CHECK(detect("sh 12 [000] 1.5: 1 cpu-clock:\n\tff f (x)\n\n", &d) == FMT_PERF_SCRIPT);
	CHECK(detect("java 19983 cycles:\nffff8 f ([kernel.kallsyms])\n", &d) == FMT_PERF_SCRIPT);
	CHECK(detect(" 0xffffffff810a5cd6 : native_safe_halt+0xb/0x10 [kernel]\n\t5\n", &d) == FMT_STAP);
	CHECK(detect("CPU ID FUNCTION:NAME\n  0 1 :tick-60s\n", &d) == FMT_DTRACE);
	CHECK(detect("\n\n  genunix`open+0x25\n  1\n", &d) == FMT_DTRACE);
}

UNIT_TEST(stack_format_detect_errors)
{
	struct diag d = DIAG_INIT;
	CHECK(detect("hello\nthere are 3 apples here\n", &d) == FMT_UNKNOWN);
	CHECK(d.set && strstr(d.msg, "line 1: not a known stack format"));
	diag_clear(&d);
	CHECK(stack_format_detect("ab\ncd\0", 6, true, &d) == FMT_UNKNOWN);
	CHECK(strstr(d.msg, "line 2: binary data (byte 0x00 at offset 5)") != NULL);
	diag_clear(&d);
	CHECK(stack_format_detect("\x1f\x8b\x08\x00", 4, true, &d) == FMT_UNKNOWN);
	CHECK(strstr(d.msg, "gzip-compressed") != NULL);
	/* a prefix of comments only, more to come: perf script --header */
	CHECK(stack_format_detect("# x\n# y\n", 8, false, &d) == FMT_PERF_SCRIPT);
	CHECK(stack_format_parse("stap") == FMT_STAP && stack_format_parse("x") == FMT_UNKNOWN);
	CHECK(strcmp(stack_format_name(FMT_DTRACE), "dtrace") == 0);
}

/* A --format is taken for bytes that can be text; else the bytes decide. */
UNIT_TEST(stack_format_choose_forced_or_detected)
{
	struct diag d = DIAG_INIT;
	const char *stap = " 0xffffffff81000000 : f+0x0/0x10 [kernel]\n 3\n";
	CHECK(stack_format_choose(stap, strlen(stap), true, FMT_DTRACE, &d) == FMT_DTRACE);
	CHECK(stack_format_choose("\x1f\x8b\x08\0", 4, true, FMT_DTRACE, &d) == FMT_UNKNOWN && d.set);
	diag_clear(&d);
	CHECK(stack_format_choose("", 0, true, FMT_UNKNOWN, &d) == FMT_EMPTY);
}
