/* tree_test: unit tests for the merged call tree (render/tree.c). */
#include "render/tree.h"
#include "base/diag.h"
#include "base/lines.h"
#include "stacks/folded.h"
#include "unit.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void add(struct render_tree *t, const char *s, double v)
{
	render_tree_add(t, s, strlen(s), v, 0, false);
}

/* Node reached by following names from the root, or RENDER_NONE. */
static uint32_t find(struct render_tree *t, const char *const *path, size_t n)
{
	uint32_t node = 0;
	for (size_t i = 0; i < n && node != RENDER_NONE; i++) {
		uint32_t c = t->nodes[node].child;
		for (; c != RENDER_NONE; c = t->nodes[c].next) {
			size_t len;
			const char *name = render_tree_name(t, c, &len);
			if (len == strlen(path[i]) && memcmp(name, path[i], len) == 0)
				break;
		}
		node = c;
	}
	return node;
}

UNIT_TEST(tree_merges_prefixes)
{
	struct render_tree t;
	render_tree_init(&t, false, false);
	add(&t, "a;b;c", 10);
	add(&t, "a;b;d", 5);
	add(&t, "a;e", 3);
	add(&t, "a;b;c", 1);
	const char *ab[] = { "a", "b" }, *abc[] = { "a", "b", "c" };
	CHECK(t.count == 6);
	CHECK(t.nodes[0].value == 19);
	CHECK(t.nodes[find(&t, ab, 2)].value == 16);
	CHECK(t.nodes[find(&t, abc, 3)].value == 11);
	render_tree_release(&t);
}

UNIT_TEST(tree_prefix_cache_respects_frame_bounds)
{
	struct render_tree t;
	render_tree_init(&t, false, false);
	add(&t, "ab;c", 1);
	add(&t, "a;c", 2);   /* shares bytes "a" but not the frame "ab" */
	add(&t, "ab;cd", 4); /* shares frame "ab", not "c" */
	const char *a[] = { "a" }, *ab[] = { "ab" }, *abcd[] = { "ab", "cd" };
	CHECK(t.nodes[find(&t, a, 1)].value == 2);
	CHECK(t.nodes[find(&t, ab, 1)].value == 5);
	CHECK(t.nodes[find(&t, abcd, 2)].value == 4);
	render_tree_release(&t);
}

UNIT_TEST(tree_wide_parent_hashing)
{
	struct render_tree t;
	char buf[32];
	render_tree_init(&t, false, false);
	for (int round = 0; round < 2; round++)
		for (int i = 0; i < 500; i++) {
			snprintf(buf, sizeof(buf), "root;f%d", (i * 7919) % 500);
			add(&t, buf, 1);
		}
	const char *r[] = { "root" }, *f3[] = { "root", "f3" };
	CHECK(t.count == 502);
	CHECK(t.nodes[find(&t, r, 1)].value == 1000);
	CHECK(t.nodes[find(&t, f3, 2)].value == 2);
	render_tree_release(&t);
}

UNIT_TEST(tree_reverse_and_flamechart)
{
	struct render_tree t;
	render_tree_init(&t, false, true);
	add(&t, "main;lock", 3);
	add(&t, "other;lock", 2);
	const char *lock[] = { "lock" }, *lm[] = { "lock", "main" };
	CHECK(t.nodes[find(&t, lock, 1)].value == 5);
	CHECK(find(&t, lm, 2) != RENDER_NONE);
	render_tree_release(&t);

	render_tree_init(&t, true, false);
	add(&t, "a;b", 1);
	add(&t, "c", 1);
	add(&t, "a;b", 1); /* not adjacent: a new "a" in time order */
	add(&t, "a;x", 1); /* adjacent: merges into the last "a" */
	CHECK(t.nodes[0].nchild == 3);
	CHECK(t.count == 7);
	render_tree_release(&t);
}

UNIT_TEST(tree_delta_on_leaf)
{
	struct render_tree t;
	render_tree_init(&t, false, false);
	render_tree_add(&t, "a;b", 3, 14, 4, true);
	render_tree_add(&t, "a", 1, 2, -3, true);
	const char *a[] = { "a" }, *ab[] = { "a", "b" };
	CHECK(t.delta != NULL);
	CHECK(t.delta[find(&t, ab, 2)] == 4);
	CHECK(t.delta[find(&t, a, 1)] == -3);
	CHECK(t.nodes[0].value == 16);
	render_tree_release(&t);
}

UNIT_TEST(tree_empty_stack_and_empty_frames)
{
	struct render_tree t;
	render_tree_init(&t, false, false);
	add(&t, "", 5);
	add(&t, "a;;b", 1);
	CHECK(t.count == 4);
	CHECK(t.nodes[0].value == 6);
	render_tree_release(&t);
}

UNIT_TEST(tree_self_counts_and_flags)
{
	struct render_tree t;
	render_tree_init(&t, false, false);
	add(&t, "a;b", 0);
	add(&t, "a;b;c", 4);
	add(&t, "a", 2);
	const char *a[] = { "a" }, *ab[] = { "a", "b" }, *abc[] = { "a", "b", "c" };
	CHECK(render_tree_self(&t, find(&t, a, 1)) == 2);
	CHECK(t.nodes[find(&t, ab, 2)].has_self); /* count 0 still ends here */
	CHECK(render_tree_self(&t, find(&t, ab, 2)) == 0);
	CHECK(render_tree_self(&t, find(&t, abc, 3)) == 4);
	CHECK(!t.nodes[0].has_self);
	CHECK(!t.fractional);
	add(&t, "x", 0.5);
	CHECK(t.fractional);
	add(&t, "a;b", 0.25); /* self counts kept from now on */
	CHECK(render_tree_self(&t, find(&t, a, 1)) == 2);
	CHECK(render_tree_self(&t, find(&t, ab, 2)) == 0.25);
	CHECK(render_tree_self(&t, 0) == 0);
	render_tree_release(&t);
}

UNIT_TEST(tree_trailing_empty_frames_dropped)
{
	struct render_tree t;
	render_tree_init(&t, false, false);
	add(&t, "a;b;;", 1); /* Perl's split: "a;b" */
	add(&t, ";", 2);     /* the root */
	const char *ab[] = { "a", "b" };
	CHECK(t.count == 3);
	CHECK(render_tree_self(&t, find(&t, ab, 2)) == 1);
	CHECK(render_tree_self(&t, 0) == 2);
	render_tree_release(&t);

	render_tree_init(&t, false, true); /* reversed: ";a;b" is "b;a;" is "b;a" */
	add(&t, ";a;b", 1);
	const char *ba[] = { "b", "a" };
	CHECK(t.count == 3);
	CHECK(find(&t, ba, 2) != RENDER_NONE);
	render_tree_release(&t);
}

UNIT_TEST(tree_flamechart_times)
{
	struct render_tree t;
	render_tree_init(&t, true, false);
	add(&t, "m;a", 1);
	add(&t, "m", 2);   /* ends the first "a" */
	add(&t, "m;a", 1); /* a new "a", not merged */
	const char *m[] = { "m" };
	uint32_t mi = find(&t, m, 1);
	CHECK(t.nodes[mi].nchild == 2);
	uint32_t a2 = t.nodes[mi].child, a1 = t.nodes[a2].next;
	CHECK(t.start[a1] == 0 && render_tree_end(&t, a1) == 1);
	CHECK(t.start[a2] == 3 && render_tree_end(&t, a2) == 4);
	CHECK(t.start[mi] == 0 && render_tree_end(&t, mi) == 4);
	add(&t, "m;b", 0.5); /* fractional: end times kept from now on */
	CHECK(t.end && t.end[mi] == 4.5 && t.end[a2] == 4 && t.end[a1] == 1);
	render_tree_release(&t);
}

UNIT_TEST(tree_delta_first_line_only)
{
	struct render_tree t;
	render_tree_init(&t, false, false);
	render_tree_add(&t, "a", 1, 3, 2, true);
	render_tree_add(&t, "a", 1, 3, -5, true); /* flamegraph.pl drops it */
	const char *a[] = { "a" };
	CHECK(t.delta[find(&t, a, 1)] == 2);
	CHECK(t.maxdelta == 5);
	render_tree_release(&t);
}

UNIT_TEST(tree_chain_rewrite)
{
	struct render_tree t;
	render_tree_init(&t, false, false);
	t.chain = true;
	add(&t, "a;b", 1);            /* no waker: a;b;-- */
	add(&t, "w;--;x;y;--;", 2);   /* w;--;x_[w];y_[w] */
	const char *abd[] = { "a", "b", "--" }, *wxy[] = { "w", "--", "x_[w]", "y_[w]" };
	CHECK(find(&t, abd, 3) != RENDER_NONE);
	CHECK(find(&t, wxy, 4) != RENDER_NONE);
	CHECK(t.nodes[find(&t, wxy, 4)].value == 2);
	render_tree_release(&t);
}

/* Folded text read into the tree: comments and blank lines skipped, a
 * line without a count counted as bad (named file:line), values merged. */
UNIT_TEST(tree_read_folded)
{
	const char *text = "# comment\nmain;a 10\n\nmain;b 5\nno count here\nmain;a 2\n";
	int p[2];
	CHECK(pipe(p) == 0);
	CHECK(write(p[1], text, strlen(text)) == (ssize_t)strlen(text));
	close(p[1]);
	struct lines lr;
	lines_init_fd(&lr, p[0], "in");
	struct render_tree t;
	struct stack_folded_bad bad = { 0 };
	struct diag d = DIAG_INIT;
	render_tree_init(&t, false, false);
	CHECK(render_tree_read_folded(&t, &lr, "in", &bad, &d) == 0);
	CHECK(!d.set);
	CHECK(bad.n == 1);
	CHECK_EQ_STR(bad.first, "in:5");
	CHECK(t.nodes[0].value == 17);
	const char *pa[] = { "main", "a" };
	uint32_t a = find(&t, pa, 2);
	CHECK(a != RENDER_NONE && t.nodes[a].value == 12);
	render_tree_release(&t);
	lines_close(&lr);
	close(p[0]);
}
