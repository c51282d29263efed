/* Unit tests for stacks/table: interning, sums, sorted output, builder. */
#include "stacks/table.h"
#include "unit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

UNIT_TEST(stack_table_sums_and_sorts)
{
	struct stack_table t = STACK_TABLE_INIT;
	stack_table_add(&t, "b;c", 3, 2);
	stack_table_add(&t, "a", 1, 1);
	stack_table_add(&t, "b;c", 3, 5);
	stack_table_add(&t, "a;z", 3, 1);
	stack_table_add(&t, "", 0, 4);
	struct strbuf sb = SB_INIT;
	stack_table_write_sb(&t, &sb);
	CHECK_EQ_STR(sb.buf, " 4\na 1\na;z 1\nb;c 7\n");
	CHECK(stack_table_count(&t) == 4 && t.total == 13);
	sb_release(&sb);
	stack_table_release(&t);
}

UNIT_TEST(stack_table_bytewise_order)
{
	/* Perl's cmp: bytes unsigned, a prefix sorts first */
	struct stack_table t = STACK_TABLE_INIT;
	stack_table_add(&t, "a\xff", 2, 1);
	stack_table_add(&t, "aB", 2, 1);
	stack_table_add(&t, "ab", 2, 1);
	stack_table_add(&t, "a", 1, 1);
	struct strbuf sb = SB_INIT;
	stack_table_write_sb(&t, &sb);
	CHECK_EQ_STR(sb.buf, "a 1\naB 1\nab 1\na\xff 1\n");
	sb_release(&sb);
	stack_table_release(&t);
}

UNIT_TEST(stack_table_saturates)
{
	struct stack_table t = STACK_TABLE_INIT;
	size_t id = stack_table_add(&t, "x", 1, UINT64_MAX - 1);
	stack_table_add(&t, "x", 1, 5);
	CHECK(stack_table_value(&t, id) == UINT64_MAX);
	stack_table_release(&t);
}

UNIT_TEST(stack_table_merge)
{
	struct stack_table a = STACK_TABLE_INIT, b = STACK_TABLE_INIT;
	stack_table_add(&a, "x", 1, 1);
	stack_table_add(&b, "x", 1, 2);
	stack_table_add(&b, "y", 1, 3);
	stack_table_merge(&a, &b);
	struct strbuf sb = SB_INIT;
	stack_table_write_sb(&a, &sb);
	CHECK_EQ_STR(sb.buf, "x 3\ny 3\n");
	sb_release(&sb);
	stack_table_release(&a);
	stack_table_release(&b);
}

UNIT_TEST(stack_builder_orders)
{
	struct stack_builder b = STACK_BUILDER_INIT;
	size_t len;
	CHECK_EQ_STR(stack_builder_join(&b, STACK_ROOT_FIRST, &len), "");
	stack_builder_push(&b, "leaf", 4);
	stack_builder_push(&b, "", 0);
	stack_builder_push(&b, "main", 4);
	CHECK_EQ_STR(stack_builder_join(&b, STACK_LEAF_FIRST, &len), "main;;leaf");
	CHECK_EQ_STR(stack_builder_join(&b, STACK_ROOT_FIRST, &len), "leaf;;main");
	stack_builder_reset(&b);
	struct strbuf *sb = stack_builder_begin_frame(&b);
	sb_adds(sb, "direct");
	stack_builder_end_frame(&b);
	stack_builder_push(&b, "x", 1);
	CHECK_EQ_STR(stack_builder_join(&b, STACK_ROOT_FIRST, &len), "direct;x");
	CHECK(len == 8);
	stack_builder_release(&b);
}

UNIT_TEST(stack_builder_reverse_tail)
{
	struct stack_builder b = STACK_BUILDER_INIT;
	size_t len;
	stack_builder_push(&b, "keep", 4);
	stack_builder_push(&b, "a", 1);
	stack_builder_push(&b, "bb", 2);
	stack_builder_push(&b, "", 0);
	stack_builder_push(&b, "dddd", 4);
	stack_builder_reverse_tail(&b, 4);
	CHECK_EQ_STR(stack_builder_join(&b, STACK_ROOT_FIRST, &len), "keep;dddd;;bb;a");
	const char *f = stack_builder_frame(&b, 3, &len);
	CHECK(len == 2 && f[0] == 'b');
	stack_builder_reverse_tail(&b, 99);
	CHECK_EQ_STR(stack_builder_join(&b, STACK_ROOT_FIRST, &len), "a;bb;;dddd;keep");
	stack_builder_reverse_tail(&b, 1);
	CHECK_EQ_STR(stack_builder_join(&b, STACK_ROOT_FIRST, &len), "a;bb;;dddd;keep");
	stack_builder_release(&b);
}

UNIT_TEST(stack_table_add_built)
{
	struct stack_table t = STACK_TABLE_INIT;
	struct stack_builder b = STACK_BUILDER_INIT;
	stack_builder_push(&b, "leaf", 4);
	stack_builder_push(&b, "root", 4);
	stack_table_add_built(&t, &b, STACK_LEAF_FIRST, 3);
	stack_table_add(&t, "root;leaf", 9, 1);
	CHECK(stack_table_count(&t) == 1 && t.total == 4);
	stack_builder_release(&b);
	stack_table_release(&t);
}

/* Written sorted to a file; a path that cannot be created fails before
 * opening (the caller's message differs from a write error's). */
UNIT_TEST(stack_table_write_path)
{
	struct stack_table t = STACK_TABLE_INIT;
	stack_table_add(&t, "b;c", 3, 2);
	stack_table_add(&t, "a", 1, 5);
	char path[] = "/tmp/scorch-table-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	bool opened = false;
	CHECK(stack_table_write_path(&t, path, &opened) == 0 && opened);
	char buf[64] = { 0 };
	FILE *f = fopen(path, "r");
	CHECK(f && fread(buf, 1, sizeof(buf) - 1, f) == 10);
	CHECK_EQ_STR(buf, "a 5\nb;c 2\n");
	if (f)
		fclose(f);
	unlink(path);
	CHECK(stack_table_write_path(&t, "/nonexistent-dir/x", &opened) == -ENOENT);
	CHECK(!opened);
	stack_table_release(&t);
}
