/* folded_test: unit tests for the folded-line parser (stacks/folded.c). */
#include "stacks/folded.h"
#include "base/strbuf.h"
#include "unit.h"

#include <string.h>
#include <unistd.h>

static int parse(const char *s, struct stack_folded *f)
{
	return stack_folded_parse(s, strlen(s), f);
}

UNIT_TEST(folded_single_column)
{
	struct stack_folded f;
	CHECK(parse("a;b;c 42", &f) == 0);
	CHECK(f.stack_len == 5 && memcmp(f.stack, "a;b;c", 5) == 0);
	CHECK(f.count == 42 && !f.two);
}

UNIT_TEST(folded_two_columns)
{
	struct stack_folded f;
	CHECK(parse("a;b 10 14", &f) == 0);
	CHECK(f.two && f.count1 == 10 && f.count == 14);
	CHECK(f.stack_len == 3);
}

UNIT_TEST(folded_fractions)
{
	struct stack_folded f;
	CHECK(parse("x 2.567", &f) == 0 && f.count == 2.567);
	CHECK(parse("x 6.", &f) == 0 && f.count == 6);
	CHECK(parse("x 14.2343983248722834234", &f) == 0 && f.count > 14.2343 && f.count < 14.2344);
	CHECK(parse("x .5", &f) < 0);
	CHECK(parse("x 1.2.3", &f) < 0);
}

UNIT_TEST(folded_malformed)
{
	struct stack_folded f;
	CHECK(parse("THIS IS A BAD LINE", &f) < 0);
	CHECK(parse("42", &f) < 0);
	CHECK(parse("a;b 12x", &f) < 0);
	CHECK(parse("", &f) < 0);
	CHECK(parse("a;b -5", &f) < 0);
}

UNIT_TEST(folded_spaces_and_cr)
{
	struct stack_folded f;
	/* the stack keeps everything before the one separating blank */
	CHECK(parse("a b;c d 7", &f) == 0 && f.stack_len == 7 && f.count == 7);
	CHECK(parse("a;b 3\r", &f) == 0 && f.count == 3 && f.stack_len == 3);
	CHECK(parse(" 5", &f) == 0 && f.stack_len == 0 && f.count == 5);
	CHECK(parse("a\t9", &f) == 0 && f.count == 9 && f.stack_len == 1);
}

UNIT_TEST(folded_invalid_utf8_kept)
{
	struct stack_folded f;
	const char line[] = "a;\xff\xfe;b 3";
	CHECK(stack_folded_parse(line, sizeof(line) - 1, &f) == 0);
	CHECK(f.stack_len == 6 && f.stack[2] == '\xff');
}

UNIT_TEST(folded_format_count)
{
	char buf[40];
	stack_folded_format_count(20, buf);
	CHECK_EQ_STR(buf, "20");
	stack_folded_format_count(14.2343983248722834234, buf);
	CHECK_EQ_STR(buf, "14.2343983248723");
	stack_folded_format_count(3.11, buf);
	CHECK_EQ_STR(buf, "3.11");
}

static void sum_counts(void *ctx, const struct stack_folded *f)
{
	*(double *)ctx += f->count;
}

/* Blank lines pass, comments only when asked; bad lines are counted with
 * the place of the first (over files) and of the file's first. */
UNIT_TEST(folded_read_counts_bad_lines)
{
	int p[2];
	const char text[] = "a;b 2\n\n# mode: wall\nno count\na 3\nbad again\n";
	for (int comments = 0; comments < 2; comments++) {
		CHECK(pipe(p) == 0);
		CHECK(write(p[1], text, sizeof(text) - 1) == (ssize_t)(sizeof(text) - 1));
		close(p[1]);
		struct lines lr;
		lines_init_fd(&lr, p[0], "in");
		struct stack_folded_bad bad = { 0 };
		struct stack_folded_file ff = { 0 };
		double sum = 0;
		CHECK(stack_folded_read(&lr, "in", comments, sum_counts, &sum, &bad, &ff) == 0);
		lines_close(&lr);
		CHECK(sum == 5 && ff.good == 2);
		CHECK(bad.n == (size_t)(comments ? 2 : 3));
		CHECK(ff.first_bad == (comments ? 4u : 3u));
		CHECK(strcmp(bad.first, comments ? "in:4" : "in:3") == 0);
	}
}

/* The note of lines without a count, as flamegraph.pl words it. */
UNIT_TEST(folded_bad_note)
{
	struct stack_folded_bad bad = { 0, "" };
	struct strbuf sb = SB_INIT;
	CHECK(!stack_folded_bad_note(&bad, &sb) && sb.len == 0);
	bad.n = 1;
	strcpy(bad.first, "a.folded:2");
	CHECK(stack_folded_bad_note(&bad, &sb));
	CHECK_EQ_STR(sb.buf, "ignored 1 line with invalid format (first at a.folded:2)");
	sb_reset(&sb);
	bad.n = 3;
	CHECK(stack_folded_bad_note(&bad, &sb));
	CHECK_EQ_STR(sb.buf, "ignored 3 lines with invalid format (first at a.folded:2)");
	sb_release(&sb);
}
