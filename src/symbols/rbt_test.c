/* Unit tests for symbols/rbt: the replay of perf's symbol tree names PLT
 * slots as perf 6.1 does (facts measured on the corpus's work_fp), and
 * the tree stays a valid red-black tree through alias erasures. */
#include "symbols/rbt.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>

struct sym_def {
	uint64_t start, size;
	int object;
	const char *name;
};

/* work_fp's .symtab functions and objects, in .symtab order. */
static const struct sym_def work_fp[] = {
	{ 0x37c, 32, 1, "__abi_tag" }, { 0x1110, 0, 0, "deregister_tm_clones" },
	{ 0x1140, 0, 0, "register_tm_clones" }, { 0x1180, 0, 0, "__do_global_dtors_aux" },
	{ 0x4028, 1, 1, "completed.0" }, { 0x3dd8, 0, 1, "fini_array_entry" },
	{ 0x11c0, 0, 0, "frame_dummy" }, { 0x3dd0, 0, 1, "init_array_entry" },
	{ 0x2250, 0, 1, "__FRAME_END__" }, { 0x3de0, 0, 1, "_DYNAMIC" },
	{ 0x3fe8, 0, 1, "_GLOBAL_OFFSET_TABLE_" }, { 0x1350, 31, 0, "recurse" },
	{ 0x12c0, 50, 0, "mid_x" }, { 0x1370, 0, 0, "_fini" },
	{ 0x12b0, 11, 0, "leaf_b" }, { 0x1310, 50, 0, "top_one" },
	{ 0x4020, 0, 1, "__dso_handle" }, { 0x2000, 4, 1, "_IO_stdin_used" },
	{ 0x4030, 8, 1, "sink" }, { 0x10e0, 34, 0, "_start" },
	{ 0x1070, 110, 0, "main" }, { 0x1300, 11, 0, "mid_y" },
	{ 0x4028, 0, 1, "__TMC_END__" }, { 0x12a0, 11, 0, "leaf_a" },
	{ 0x11d0, 203, 0, "spin" }, { 0x1000, 0, 0, "_init" },
};

static void load(struct sym_table *t, struct sym_table *objs, struct sym_table *plt,
		 bool with_objects)
{
	sym_table_init(t);
	sym_table_init(objs);
	sym_table_init(plt);
	for (size_t i = 0; i < sizeof(work_fp) / sizeof(work_fp[0]); i++) {
		const struct sym_def *s = &work_fp[i];
		if (!s->object) {
			sym_table_add(t, s->start, s->size, SYM_BIND_GLOBAL, s->name, strlen(s->name));
		} else if (with_objects) {
			struct sym_entry *e = sym_table_add(objs, s->start, s->size,
							    SYM_BIND_GLOBAL, s->name, strlen(s->name));
			e->seq = (uint32_t)t->n;
		}
	}
	sym_table_add(plt, 0x1030, 16, SYM_BIND_GLOBAL, "strtod@plt", 10);
	sym_table_add(plt, 0x1040, 16, SYM_BIND_GLOBAL, "clock_gettime@plt", 17);
	sym_table_add(plt, 0x1050, 16, SYM_BIND_GLOBAL, "printf@plt", 10);
	sym_table_finish(t, false);
	sym_table_finish(plt, false);
}

static const char *name_at(const struct sym_rbt *r, uint64_t a)
{
	const struct sym_entry *e = sym_rbt_find(r, a);
	return e ? e->name : "-";
}

UNIT_TEST(rbt_plt_names_as_perf)
{
	struct sym_table t, objs, plt;
	struct sym_rbt r;
	load(&t, &objs, &plt, true);
	sym_rbt_build(&r, &t, &objs, &plt);
	/* perf 6.1 prints _init+off for all three slots of work_fp */
	CHECK_EQ_STR(name_at(&r, 0x1030), "_init");
	CHECK_EQ_STR(name_at(&r, 0x1048), "_init");
	CHECK_EQ_STR(name_at(&r, 0x1050), "_init");
	CHECK_EQ_STR(name_at(&r, 0x1100), "_start");
	CHECK_EQ_STR(name_at(&r, 0x1360), "recurse");
	sym_rbt_release(&r);
	sym_table_release(&t);
	sym_table_release(&objs);
	sym_table_release(&plt);
	/* without the objects the tree has another shape */
	load(&t, &objs, &plt, false);
	sym_rbt_build(&r, &t, NULL, &plt);
	CHECK_EQ_STR(name_at(&r, 0x1040), "clock_gettime@plt");
	sym_rbt_release(&r);
	sym_table_release(&t);
	sym_table_release(&objs);
	sym_table_release(&plt);
}

/* Black height of x's subtree, -1 when a rule is broken. */
static int black_height(const struct sym_rbt *r, int x, uint64_t lo, uint64_t hi)
{
	if (x < 0)
		return 1;
	const struct sym_rbt_link *n = &r->l[x];
	if (n->start != r->v[x].e.start || n->start < lo || n->start > hi)
		return -1;
	if (n->red && ((n->left >= 0 && r->l[n->left].red) ||
		       (n->right >= 0 && r->l[n->right].red)))
		return -1;
	int a = black_height(r, n->left, lo, n->start);
	int b = black_height(r, n->right, n->start, hi);
	if (a < 0 || a != b)
		return -1;
	return a + !n->red;
}

UNIT_TEST(rbt_valid_after_alias_erasures)
{
	struct sym_table t, plt;
	sym_table_init(&t);
	sym_table_init(&plt);
	unsigned v = 12345;
	for (int i = 0; i < 3000; i++) {
		v = v * 1103515245u + 12345u;
		uint64_t start = 0x10000 + (v >> 16) % 700 * 16;
		sym_table_add(&t, start, (v >> 8) % 3 ? 16 : 0, (int)(v % 3), "f", 1);
	}
	sym_table_finish(&t, false);
	struct sym_rbt r;
	sym_rbt_build(&r, &t, NULL, &plt);
	CHECK(r.root >= 0 && !r.l[r.root].red);
	CHECK(black_height(&r, r.root, 0, UINT64_MAX) > 0);
	bool all = true;
	for (size_t i = 0; i < t.n; i++)
		all = all && sym_rbt_find(&r, t.syms[i].start) == &t.syms[i];
	CHECK(all);
	CHECK(t.n + t.ndropped == 3000);
	sym_rbt_release(&r);
	sym_table_release(&t);
	sym_table_release(&plt);
}

/* The spans answer as the tree at every address of their range, kept
 * answers pointing into the tables kept, others (objects) copied. */
static bool spans_agree(const struct sym_rbt *r, const struct sym_rbt_spans *s,
			uint64_t lo, uint64_t hi, const struct sym_table *t,
			const struct sym_table *plt)
{
	for (uint64_t a = lo; a < hi; a++) {
		const struct sym_entry *e = sym_rbt_find(r, a);
		const struct sym_entry *f = sym_rbt_spans_find(s, a);
		if (!e || !f) {
			if (e != f)
				return false;
			continue;
		}
		bool kept = (e >= t->syms && e < t->syms + t->n) ||
			    (e >= plt->syms && e < plt->syms + plt->n);
		if (kept ? f != e : (f == e || strcmp(f->name, e->name) != 0 ||
				     f->start != e->start || f->end != e->end))
			return false;
	}
	return true;
}

UNIT_TEST(rbt_spans_answer_as_tree)
{
	struct sym_table t, objs, plt;
	struct sym_rbt r;
	struct sym_rbt_spans s;
	load(&t, &objs, &plt, true);
	sym_rbt_build(&r, &t, &objs, &plt);
	const struct sym_table *keep[2] = { &t, &plt };
	sym_rbt_spans_build(&s, &r, 0x0, 0x4100, keep, 2);
	CHECK(spans_agree(&r, &s, 0x0, 0x4100, &t, &plt));
	CHECK(s.ncopies > 0); /* objects answer in .data */
	CHECK(sym_rbt_spans_find(&s, 0x4100) == NULL);
	sym_rbt_spans_release(&s);
	/* a narrower range answers alike inside, nothing outside */
	sym_rbt_spans_build(&s, &r, 0x1030, 0x1060, keep, 2);
	CHECK(spans_agree(&r, &s, 0x1030, 0x1060, &t, &plt));
	CHECK(sym_rbt_spans_find(&s, 0x102f) == NULL);
	CHECK(s.n <= 4);
	sym_rbt_spans_release(&s);
	sym_rbt_release(&r);
	sym_table_release(&t);
	sym_table_release(&objs);
	sym_table_release(&plt);
	/* many aliases and zero-size symbols */
	sym_table_init(&t);
	sym_table_init(&plt);
	unsigned v = 777;
	for (int i = 0; i < 2000; i++) {
		v = v * 1103515245u + 12345u;
		uint64_t start = 0x10000 + (v >> 16) % 500 * 8;
		sym_table_add(&t, start, (v >> 8) % 3 ? (v >> 4) % 40 : 0, (int)(v % 3), "f", 1);
	}
	sym_table_add(&plt, 0x10100, 16, SYM_BIND_GLOBAL, "a@plt", 5);
	sym_table_add(&plt, 0x10110, 16, SYM_BIND_GLOBAL, "b@plt", 5);
	sym_table_finish(&t, false);
	sym_table_finish(&plt, false);
	sym_rbt_build(&r, &t, NULL, &plt);
	sym_rbt_spans_build(&s, &r, 0xff00, 0x11100, keep, 2);
	CHECK(spans_agree(&r, &s, 0xff00, 0x11100, &t, &plt));
	sym_rbt_spans_release(&s);
	sym_rbt_release(&r);
	sym_table_release(&t);
	sym_table_release(&plt);
}
