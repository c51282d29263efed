/* diff_test: unit tests for two folded profiles side by side (stacks/diff.c). */
#include "stacks/diff.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>

/* The lines difffolded.pl prints for two small profiles, sorted. */
static char *diff_text(bool strip_hex, bool normalize)
{
	struct stack_diff df;
	stack_diff_init(&df, strip_hex);
	stack_diff_add(&df, 0, "a;f 0x1f", 8, 2);
	stack_diff_add(&df, 0, "a;b", 3, 2);
	stack_diff_add(&df, 1, "a;f 0xab", 8, 3);
	stack_diff_add(&df, 1, "a;c", 3, 5);
	if (normalize)
		stack_diff_normalize(&df);
	size_t *order = stack_diff_sorted(&df);
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	int rc = stack_diff_write(&df, order, f);
	fclose(f);
	free(order);
	stack_diff_release(&df);
	if (rc < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

UNIT_TEST(stack_diff_lines)
{
	char *s = diff_text(false, false);
	CHECK(s && strcmp(s, "a;b 2 0\na;c 0 5\na;f 0x1f 2 0\na;f 0xab 0 3\n") == 0);
	free(s);
	s = diff_text(true, false);
	CHECK(s && strcmp(s, "a;b 2 0\na;c 0 5\na;f 0x... 2 3\n") == 0);
	free(s);
	/* -n: before * 8 / 4, truncated */
	s = diff_text(true, true);
	CHECK(s && strcmp(s, "a;b 4 0\na;c 0 5\na;f 0x... 4 3\n") == 0);
	free(s);
}
