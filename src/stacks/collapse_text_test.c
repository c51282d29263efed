/* collapse_text_test: unit tests for the text collapsers behind one door
 * (stacks/collapse_text.c): each format into one table, as fold reads it. */
#include "stacks/collapse_text.h"
#include "unit.h"

#include <string.h>
#include <unistd.h>

/* Fold text as fmt into t through a pipe (the door reads struct lines). */
static int fold_text(struct collapse_text *ct, const char *text, enum stack_format fmt)
{
	int p[2];
	if (pipe(p) != 0)
		return -1;
	size_t n = strlen(text);
	if (write(p[1], text, n) != (ssize_t)n)
		return -1;
	close(p[1]);
	struct lines lr;
	lines_init_fd(&lr, p[0], "in");
	int rc = collapse_text_read(ct, &lr, fmt);
	lines_close(&lr);
	close(p[0]);
	return rc;
}

UNIT_TEST(collapse_text_three_formats_one_table)
{
	struct collapse_opts o = COLLAPSE_OPTS_INIT;
	collapse_opts_finish(&o);
	struct stack_table t = STACK_TABLE_INIT;
	struct collapse_text ct;
	collapse_text_init(&ct, &o, &t);
	CHECK(fold_text(&ct, "prog 12 1.000000: 1 cpu-clock:\n"
			"\t401000 leaf+0x1 (/bin/prog)\n"
			"\t401100 main+0x2 (/bin/prog)\n\n", FMT_PERF_SCRIPT) == 0);
	CHECK(fold_text(&ct, "CPU     ID                    FUNCTION:NAME\n"
			"  0  64091                        :tick-60s \n\n\n"
			"              prog`leaf+0x1\n"
			"              prog`main+0x2\n"
			"                5\n\n", FMT_DTRACE) == 0);
	CHECK(collapse_text_pending(&ct) == 0);
	struct strbuf out = SB_INIT;
	stack_table_write_sb(&t, &out);
	CHECK_EQ_STR(out.buf, "prog;main;leaf 1\nprog`main;prog`leaf 5\n");
	sb_release(&out);
	collapse_text_release(&ct);
	stack_table_release(&t);
}

/* The notes fold prints: an unrecognized line (told once per input), a
 * sample not ended by a blank line, no call chains, --inline with text,
 * stap frames after the last count; none when all is well. */
UNIT_TEST(collapse_text_notes)
{
	struct collapse_opts o = COLLAPSE_OPTS_INIT;
	collapse_opts_finish(&o);
	struct stack_table t = STACK_TABLE_INIT;
	struct collapse_text ct;
	struct strbuf notes = SB_INIT;
	collapse_text_init(&ct, &o, &t);
	CHECK(fold_text(&ct, "prog 12 1.000000: 1 cpu-clock:\n"
			"\t401000 leaf+0x1 (/bin/prog)\n\n", FMT_PERF_SCRIPT) == 0);
	collapse_text_input_notes(&ct, "a.txt", &notes);
	ct.last_perf = "a.txt";
	collapse_text_end_notes(&ct, false, &notes);
	CHECK(notes.len == 0);
	CHECK(fold_text(&ct, "what is this\n"
			"prog 12 2.000000: 1 cpu-clock:\n"
			"\t401000 leaf+0x1 (/bin/prog)\n", FMT_PERF_SCRIPT) == 0);
	collapse_text_input_notes(&ct, "b.txt", &notes);
	CHECK_EQ_STR(notes.buf, "b.txt: ignored 1 unrecognized line (first at line 1: "
		     "'what is this')\n");
	sb_reset(&notes);
	collapse_text_input_notes(&ct, "b.txt", &notes);
	CHECK(notes.len == 0);
	CHECK(fold_text(&ct, "  0xffff\n  0xfffe\n", FMT_STAP) == 0);
	ct.last_perf = "b.txt";
	collapse_text_end_notes(&ct, true, &notes);
	CHECK(strstr(notes.buf, "b.txt: the sample at line 2 is not ended by a blank line") == notes.buf);
	CHECK(strstr(notes.buf, "\n--inline needs the binaries") != NULL);
	CHECK(strstr(notes.buf, "\nframes after the last count line were left out\n") != NULL);
	CHECK(strstr(notes.buf, "no call chains") == NULL);
	sb_release(&notes);
	collapse_text_release(&ct);
	stack_table_release(&t);
}
