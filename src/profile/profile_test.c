/*
 * Unit tests for profile/: frame identity, names decided from fields,
 * the folded view against today's text path, rows, merge and diff.
 * The oracle for names and folded text is the existing text path: the
 * same samples printed as `perf script` text and folded by the
 * stacks/collapse_perf parser into a stacks/table, written sorted.
 */
#include "profile/collect.h"
#include "profile/fold.h"
#include "profile/profile.h"
#include "profile_ref.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- random input ---- */

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

#define PICK(s, arr) (arr)[rnd(s) % (sizeof(arr) / sizeof((arr)[0]))]

/* Symbols and objects that reach every naming rule (NULL: unknown). */
static const char *const syms[] = {
	"main", "x", "a;b", "f(int, char)", "ns::(anonymous namespace)::g(int)",
	"go.(*T).M", "it's \"q\"", "(skipped)", "a->b->c", "->a->", "c->b_[i]",
	"Ljava/lang/Thread;.run()V", "[unknown]", "f+0x1f", "g+0x1F", " lead",
	"  ", "\t", "", "tail_[j]", "k_[k]", "a b", "x(", "\xc3\xa9t\xe9", NULL,
};
static const char *const dsos[] = {
	"/bin/x", "/usr/lib/libc.so.6", "[kernel.kallsyms]", "/boot/vmlinux",
	"[unknown]", "/tmp/perf-123.map", "/tmp/perf-.map", "[vdso]",
	"/lib/x.so (deleted)", "/opt/my app/y.so", "a (b) (c", "(x)", " (y",
	"[kunknown]", "/x/unknown-vmlinux", "", "//", NULL,
};
static const char *const comms[] = {
	"perf", "java", "javac", "my prog", "ab;x", "ab", "sh", "kworker/0:1",
};

struct gen_frame {
	const char *sym, *dso;
	uint64_t addr;
	bool inl;
};

/* One sample: perf script text into text, the stack into p. */
static void gen_sample(uint64_t *s, struct profile *p, struct strbuf *text)
{
	const char *comm = PICK(s, comms);
	int pid = (int)(rnd(s) % 4) + 1, tid = pid + (int)(rnd(s) % 2);
	uint64_t period = rnd(s) % 1000 + 1;
	size_t depth = rnd(s) % 7;
	struct gen_frame fr[8];
	for (size_t i = 0; i < depth; i++) {
		fr[i].sym = PICK(s, syms);
		fr[i].dso = PICK(s, dsos);
		fr[i].addr = rnd(s) % 3 ? 0x1000 + rnd(s) % 4 * 0x10 : rnd(s) >> 16;
		fr[i].inl = rnd(s) % 8 == 0 && fr[i].sym;
	}
	sb_addf(text, "%s %d/%d 12.345678: %llu cycles:\n", comm, pid, tid,
		(unsigned long long)period);
	uint32_t ids[8];
	struct prof_frame_desc d = { .kind = PROF_FRAME_COMM, .name = comm,
				     .name_len = strlen(comm), .pid = pid, .tid = tid };
	ids[0] = prof_frames_intern(&p->frames, &d);
	for (size_t i = 0; i < depth; i++) { /* perf prints the leaf first */
		const struct gen_frame *f = &fr[i];
		sb_addf(text, "\t%16llx %s (%s)\n", (unsigned long long)f->addr,
			f->sym ? f->sym : "[unknown]",
			f->inl ? "inlined" : f->dso ? f->dso : "[unknown]");
		struct prof_frame_desc c = {
			.kind = f->sym ? PROF_FRAME_SYMBOL : PROF_FRAME_ADDRESS,
			.flags = f->inl ? PROF_F_INLINE : 0, .addr = f->addr,
			.name = f->sym, .name_len = f->sym ? strlen(f->sym) : 0,
			.dso = f->dso, .dso_len = f->dso ? strlen(f->dso) : 0,
		};
		ids[depth - i] = prof_frames_intern(&p->frames, &c);
	}
	sb_addc(text, '\n');
	profile_add(p, profile_stack(p, ids, depth + 1), period);
}

static void random_opts(uint64_t *s, struct collapse_opts *o)
{
	*o = (struct collapse_opts)COLLAPSE_OPTS_INIT;
	o->pid = rnd(s) % 2;
	o->tid = rnd(s) % 3 == 0;
	o->kernel = rnd(s) % 2;
	o->jit = rnd(s) % 2;
	o->all = rnd(s) % 4 == 0;
	o->addrs = rnd(s) % 2;
}

static void first_difference(const char *a, const char *b)
{
	size_t i = 0;
	while (a[i] && a[i] == b[i])
		i++;
	size_t from = i > 60 ? i - 60 : 0;
	printf("# lengths %zu %zu\n", strlen(a), strlen(b));
	if (getenv("PROF_DUMP")) {
		FILE *x = fopen("/tmp/prof-want", "w"), *y = fopen("/tmp/prof-got", "w");
		fputs(a, x); fputs(b, y); fclose(x); fclose(y);
	}
	printf("# at byte %zu:\n#  text path: %.120s\n#  model:     %.120s\n", i,
	       a + from, b + from);
}

UNIT_TEST(profile_fold_equals_text_path)
{
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	int bad = 0, cases = 400;
	for (int c = 0; c < cases; c++) {
		struct collapse_opts o;
		random_opts(&seed, &o);
		struct profile p;
		profile_init(&p, 0);
		struct strbuf text = SB_INIT, want = SB_INIT, got = SB_INIT;
		int n = (int)(rnd(&seed) % 60) + 1;
		for (int i = 0; i < n; i++)
			gen_sample(&seed, &p, &text);
		profile_ref_fold_script(&o, &text, &want);
		struct prof_names nm;
		prof_names_init(&nm, &o);
		profile_fold_write_sb(&p, &nm, &got);
		if (strcmp(want.buf, got.buf) != 0 && bad++ == 0)
			first_difference(want.buf, got.buf);
		prof_names_release(&nm);
		profile_release(&p);
		sb_release(&text);
		sb_release(&want);
		sb_release(&got);
	}
	CHECK(bad == 0);
}

/* Each symbol and object, alone under every option set, java or not. */
UNIT_TEST(profile_names_every_pair)
{
	int bad = 0;
	for (unsigned m = 0; m < 64; m++) {
		struct collapse_opts o = COLLAPSE_OPTS_INIT;
		o.pid = m & 1, o.tid = m & 2, o.kernel = m & 4, o.jit = m & 8;
		o.all = m & 16, o.addrs = m & 32;
		for (size_t c = 0; c < 2; c++) {
			const char *comm = c ? "java" : "perf";
			struct strbuf text = SB_INIT, want = SB_INIT, got = SB_INIT;
			struct profile p;
			profile_init(&p, 0);
			struct prof_frame_desc cd = { .kind = PROF_FRAME_COMM, .name = comm,
						      .name_len = 4, .pid = 7, .tid = 8 };
			uint32_t ids[2] = { prof_frames_intern(&p.frames, &cd), 0 };
			for (size_t i = 0; i < sizeof(syms) / sizeof(*syms); i++)
				for (size_t j = 0; j < sizeof(dsos) / sizeof(*dsos); j++) {
					const char *sy = syms[i], *ds = dsos[j];
					sb_addf(&text, "%s 7/8 1.0: 1 cycles:\n\t%16x %s (%s)\n\n",
						comm, 0xabc, sy ? sy : "[unknown]",
						ds ? ds : "[unknown]");
					struct prof_frame_desc d = {
						.kind = sy ? PROF_FRAME_SYMBOL : PROF_FRAME_ADDRESS,
						.addr = 0xabc, .name = sy,
						.name_len = sy ? strlen(sy) : 0,
						.dso = ds, .dso_len = ds ? strlen(ds) : 0 };
					ids[1] = prof_frames_intern(&p.frames, &d);
					profile_add(&p, profile_stack(&p, ids, 2), 1);
				}
			profile_ref_fold_script(&o, &text, &want);
			struct prof_names nm;
			prof_names_init(&nm, &o);
			profile_fold_write_sb(&p, &nm, &got);
			if (strcmp(want.buf, got.buf) != 0 && bad++ == 0)
				first_difference(want.buf, got.buf);
			prof_names_release(&nm);
			profile_release(&p);
			sb_release(&text);
			sb_release(&want);
			sb_release(&got);
		}
	}
	CHECK(bad == 0);
}

static const char *names_of(struct prof_names *nm, const struct prof_frames *fs,
			    uint32_t id, bool java)
{
	static struct strbuf out = SB_INIT;
	const uint32_t *ids;
	size_t n = prof_names_of(nm, fs, id, java, &ids);
	sb_reset(&out);
	for (size_t i = 0; i < n; i++) {
		size_t len;
		const char *s = prof_name_text(nm, ids[i], &len);
		if (i)
			sb_addc(&out, '|');
		sb_add(&out, s, len);
	}
	return out.buf;
}

static uint32_t sym_frame(struct prof_frames *fs, const char *sym, const char *dso,
			  unsigned flags)
{
	struct prof_frame_desc d = { .kind = PROF_FRAME_SYMBOL, .flags = flags,
				     .addr = 0x10, .name = sym, .name_len = strlen(sym),
				     .dso = dso, .dso_len = strlen(dso) };
	return prof_frames_intern(fs, &d);
}

UNIT_TEST(profile_frame_names_from_fields)
{
	struct prof_frames fs = PROF_FRAMES_INIT;
	struct collapse_opts o = COLLAPSE_OPTS_INIT;
	o.all = true;
	struct prof_names nm;
	prof_names_init(&nm, &o);
	CHECK_EQ_STR(names_of(&nm, &fs, sym_frame(&fs, "f(int)", "/bin/x", 0), false), "f");
	CHECK_EQ_STR(names_of(&nm, &fs, sym_frame(&fs, "sys_read", "[kernel.kallsyms]",
						 PROF_F_KERNEL), false), "sys_read_[k]");
	CHECK_EQ_STR(names_of(&nm, &fs, sym_frame(&fs, "a->b", "/bin/x", 0), false),
		     "a|b_[i]");
	CHECK_EQ_STR(names_of(&nm, &fs, sym_frame(&fs, "(x)", "/bin/x", 0), false), "");
	CHECK_EQ_STR(names_of(&nm, &fs, sym_frame(&fs, "inl", "/bin/x", PROF_F_INLINE),
			      false), "inl");
	CHECK_EQ_STR(names_of(&nm, &fs, sym_frame(&fs, "Lp/C;.m()V", "/tmp/perf-9.map",
						 PROF_F_JIT), true), "p/C:.m_[j]");
	/* a "(deleted)" object: Perl's regex splits inside the object name,
	 * "f (/lib/x.so" then loses its "(..." to the argument cut */
	CHECK_EQ_STR(names_of(&nm, &fs, sym_frame(&fs, "f", "/lib/x.so (deleted)", 0),
			      false), "f ");
	struct prof_frame_desc d = { .kind = PROF_FRAME_ADDRESS, .addr = 0xbeef,
				     .dso = "/usr/lib/libc.so.6", .dso_len = 18 };
	CHECK_EQ_STR(names_of(&nm, &fs, prof_frames_intern(&fs, &d), false), "[libc.so.6]");
	prof_names_release(&nm);
	o.addrs = true;
	prof_names_init(&nm, &o);
	CHECK_EQ_STR(names_of(&nm, &fs, prof_frames_intern(&fs, &d), false),
		     "[libc.so.6 <beef>]");
	prof_names_release(&nm);
	prof_frames_release(&fs);
}

UNIT_TEST(profile_frames_by_identity)
{
	struct prof_frames fs = PROF_FRAMES_INIT;
	uint32_t a = sym_frame(&fs, "f", "/bin/x", 0);
	CHECK(sym_frame(&fs, "f", "/bin/x", 0) == a);
	CHECK(sym_frame(&fs, "f", "/bin/x", PROF_F_INLINE) != a);
	CHECK(sym_frame(&fs, "f", "/bin/y", 0) != a);
	struct prof_frame_desc d = { .kind = PROF_FRAME_SYMBOL, .addr = 0x99,
				     .name = "f", .name_len = 1, .dso = "/bin/x", .dso_len = 6 };
	CHECK(prof_frames_intern(&fs, &d) == a); /* a symbol's address is no identity */
	d.kind = PROF_FRAME_ADDRESS;
	uint32_t u = prof_frames_intern(&fs, &d);
	d.addr = 0x98;
	CHECK(prof_frames_intern(&fs, &d) != u);
	struct prof_frame_desc back;
	prof_frames_desc(&fs, a, &back);
	CHECK(back.kind == PROF_FRAME_SYMBOL && back.name_len == 1 && back.dso_len == 6);
	CHECK(prof_frames_count(&fs) == 5);
	prof_frames_release(&fs);
}

/* PROF_F_LOC frames: ip and mapping are identity, the name is the same,
 * and a description maps back to the same frame in another prof_frames */
UNIT_TEST(profile_frames_exact_locations)
{
	struct prof_frames fs = PROF_FRAMES_INIT, fs2 = PROF_FRAMES_INIT;
	struct prof_map_desc m = { 0x1000, 0x2000, 0x0, "/bin/x", 6, "abcd", 4 };
	struct prof_frame_desc d = { .kind = PROF_FRAME_SYMBOL, .flags = PROF_F_LOC,
				     .name = "f", .name_len = 1, .dso = "/bin/x",
				     .dso_len = 6, .ip = 0x1234, .map = &m };
	uint32_t a = prof_frames_intern(&fs, &d);
	CHECK(prof_frames_intern(&fs, &d) == a);
	d.ip = 0x1238;
	uint32_t b = prof_frames_intern(&fs, &d);
	CHECK(b != a);
	m.offset = 0x1000;
	CHECK(prof_frames_intern(&fs, &d) != b);
	CHECK(prof_frames_maps(&fs) == 2);
	const struct prof_frame *f = prof_frames_get(&fs, a);
	CHECK(f->ip == 0x1234 && f->map == 0);
	size_t len;
	CHECK(!strcmp(prof_frames_str(&fs, prof_frames_map(&fs, 0)->build_id, &len), "abcd"));
	struct prof_frame_desc back;
	prof_frames_desc(&fs, a, &back);
	CHECK(back.ip == 0x1234 && back.map && back.map->limit == 0x2000 &&
	      back.map->file_len == 6);
	uint32_t c = prof_frames_intern(&fs2, &back);
	CHECK(prof_frames_get(&fs2, c)->ip == 0x1234 && prof_frames_maps(&fs2) == 1);
	/* the plain frame of the same symbol is another frame, named alike */
	CHECK(sym_frame(&fs, "f", "/bin/x", 0) != a);
	struct collapse_opts o = COLLAPSE_OPTS_INIT;
	struct prof_names nm;
	prof_names_init(&nm, &o);
	CHECK_EQ_STR(names_of(&nm, &fs, a, false), "f");
	prof_names_release(&nm);
	prof_frames_release(&fs);
	prof_frames_release(&fs2);
}

/* A frame and mapping given by ids (as locframes moves a frame to another
 * ip and mapping) get the ids their descriptions get, in either order. */
UNIT_TEST(profile_frames_intern_by_ids)
{
	struct prof_frames fs = PROF_FRAMES_INIT;
	struct prof_map_desc m = { 0x1000, 0x2000, 0x0, "/bin/x", 6, "abcd", 4 };
	struct prof_frame_desc d = { .kind = PROF_FRAME_SYMBOL, .flags = PROF_F_LOC,
				     .name = "[unknown]", .name_len = 9, .addr = 0x234,
				     .dso = "/bin/x", .dso_len = 6, .ip = 0x1234, .map = &m };
	uint32_t a = prof_frames_intern(&fs, &d);
	struct prof_frame f = *prof_frames_get(&fs, a);
	CHECK(prof_frames_intern_frame(&fs, &f) == a);
	struct prof_map pm = *prof_frames_map(&fs, f.map);
	CHECK(prof_frames_intern_map(&fs, &pm) == f.map);
	/* moved: a new mapping and ip by ids, then the same by description */
	pm.start = 0x5000;
	pm.limit = 0x6000;
	f.ip = 0x5234;
	f.map = prof_frames_intern_map(&fs, &pm);
	CHECK(f.map == 1 && prof_frames_maps(&fs) == 2);
	uint32_t b = prof_frames_intern_frame(&fs, &f);
	CHECK(b != a && prof_frames_count(&fs) == 2);
	m.start = 0x5000;
	m.limit = 0x6000;
	d.ip = 0x5234;
	CHECK(prof_frames_intern(&fs, &d) == b);
	CHECK(prof_frames_get(&fs, b)->addr == 0x234); /* "[unknown]": addr kept */
	/* by description first, then by ids */
	m.offset = 0x1000;
	d.ip = 0x5238;
	uint32_t c = prof_frames_intern(&fs, &d);
	f = *prof_frames_get(&fs, c);
	CHECK(prof_frames_intern_frame(&fs, &f) == c && prof_frames_count(&fs) == 3);
	prof_frames_release(&fs);
}

/* ---- the folded view against stacks/table on random text frames ---- */

static void random_name(uint64_t *s, struct strbuf *out)
{
	static const char alpha[] = "ab;;\xff\x80 _";
	size_t n = rnd(s) % 4;
	sb_reset(out);
	for (size_t i = 0; i < n; i++)
		sb_addc(out, alpha[rnd(s) % (sizeof(alpha) - 1)]);
}

static void random_table(uint64_t *s, struct profile *p, struct stack_table *t)
{
	struct stack_builder b = STACK_BUILDER_INIT;
	struct strbuf name = SB_INIT;
	size_t n = rnd(s) % 200;
	for (size_t i = 0; i < n; i++) {
		uint32_t ids[6];
		size_t depth = rnd(s) % 6;
		stack_builder_reset(&b);
		for (size_t k = 0; k < depth; k++) {
			random_name(s, &name);
			stack_builder_push(&b, name.buf, name.len);
			struct prof_frame_desc d = { .kind = PROF_FRAME_TEXT,
						     .name = name.buf, .name_len = name.len };
			ids[k] = prof_frames_intern(&p->frames, &d);
		}
		uint64_t w = rnd(s) % 5 == 0 ? UINT64_MAX / 3 : rnd(s) % 100;
		stack_table_add_built(t, &b, STACK_ROOT_FIRST, w);
		profile_add(p, profile_stack(p, ids, depth), w);
	}
	stack_builder_release(&b);
	sb_release(&name);
}

UNIT_TEST(profile_fold_equals_stack_table)
{
	uint64_t seed = 12345;
	int bad = 0;
	struct collapse_opts o = COLLAPSE_OPTS_INIT;
	for (int c = 0; c < 300; c++) {
		struct profile p;
		profile_init(&p, 0);
		struct stack_table t = STACK_TABLE_INIT;
		random_table(&seed, &p, &t);
		struct strbuf want = SB_INIT, got = SB_INIT;
		stack_table_write_sb(&t, &want);
		struct prof_names nm;
		prof_names_init(&nm, &o);
		profile_fold_write_sb(&p, &nm, &got);
		if (strcmp(want.buf, got.buf) != 0 || p.weight != t.total)
			if (bad++ == 0)
				first_difference(want.buf, got.buf);
		prof_names_release(&nm);
		profile_release(&p);
		stack_table_release(&t);
		sb_release(&want);
		sb_release(&got);
	}
	CHECK(bad == 0);
}

UNIT_TEST(profile_merge_and_diff)
{
	uint64_t seed = 777;
	int bad_merge = 0, bad_diff = 0;
	struct collapse_opts o = COLLAPSE_OPTS_INIT;
	for (int c = 0; c < 100; c++) {
		struct profile a, b;
		profile_init(&a, 0);
		profile_init(&b, 0);
		struct stack_table ta = STACK_TABLE_INIT, tb = STACK_TABLE_INIT;
		random_table(&seed, &a, &ta);
		random_table(&seed, &b, &tb);
		/* diff: every stack of either, "stack a b", sorted */
		struct stack_table all = STACK_TABLE_INIT;
		stack_table_merge(&all, &ta);
		stack_table_merge(&all, &tb);
		struct strbuf want = SB_INIT, got = SB_INIT;
		size_t *ord = stack_table_sorted(&all);
		for (size_t i = 0; i < stack_table_count(&all); i++) {
			size_t len;
			const char *k = stack_table_key(&all, ord[i], &len);
			size_t ia = hmap_find(&ta.map, k, len), ib = hmap_find(&tb.map, k, len);
			sb_add(&want, k, len);
			sb_addf(&want, " %llu %llu\n",
				(unsigned long long)(ia == (size_t)-1 ? 0 : stack_table_value(&ta, ia)),
				(unsigned long long)(ib == (size_t)-1 ? 0 : stack_table_value(&tb, ib)));
		}
		free(ord);
		profile_diff_write_sb(&a, &b, &o, &got);
		if (strcmp(want.buf, got.buf) != 0 && bad_diff++ == 0)
			first_difference(want.buf, got.buf);
		/* merge: as stack_table_merge */
		sb_reset(&want);
		sb_reset(&got);
		stack_table_write_sb(&all, &want);
		profile_merge(&a, &b, NULL);
		struct prof_names nm;
		prof_names_init(&nm, &o);
		profile_fold_write_sb(&a, &nm, &got);
		if (strcmp(want.buf, got.buf) != 0 && bad_merge++ == 0)
			first_difference(want.buf, got.buf);
		prof_names_release(&nm);
		sb_release(&want);
		sb_release(&got);
		stack_table_release(&all);
		stack_table_release(&ta);
		stack_table_release(&tb);
		profile_release(&a);
		profile_release(&b);
	}
	CHECK(bad_merge == 0);
	CHECK(bad_diff == 0);
}

UNIT_TEST(profile_rows_only_when_asked)
{
	struct profile p;
	profile_init(&p, 0);
	struct prof_frame_desc d = { .kind = PROF_FRAME_TEXT, .name = "f", .name_len = 1 };
	uint32_t f = prof_frames_intern(&p.frames, &d);
	uint32_t st = profile_stack(&p, &f, 1);
	struct prof_sample s = { 100, 1, 2, 3 };
	for (int i = 0; i < 10000; i++)
		profile_sample(&p, st, 1, &s);
	CHECK(p.rows.n == 0 && !p.rows.stack && !p.rows.time);
	CHECK(p.samples == 10000 && p.counts[st].samples == 10000 && profile_stacks(&p) == 1);
	profile_release(&p);

	profile_init(&p, PROF_COL_TIME | PROF_COL_CPU);
	f = prof_frames_intern(&p.frames, &d);
	st = profile_stack(&p, &f, 1);
	for (int i = 0; i < 5000; i++) {
		s.time = (uint64_t)i * 1000;
		s.cpu = (uint32_t)i % 4;
		profile_sample(&p, st, 2, &s);
	}
	CHECK(p.rows.n == 5000 && p.rows.time && p.rows.cpu && !p.rows.pid && !p.rows.tid);
	CHECK(p.rows.time[4999] == 4999000 && p.rows.cpu[7] == 3 && p.rows.stack[10] == st);
	CHECK(p.weight == 10000);
	struct profile q;
	profile_init(&q, PROF_COL_TIME);
	uint32_t *map;
	profile_merge(&q, &p, &map);
	CHECK(q.rows.n == 5000 && q.rows.time[123] == 123000 && q.rows.stack[0] == map[st]);
	free(map);
	profile_release(&q);
	profile_release(&p);
}

UNIT_TEST(profile_stacks_by_frame_ids)
{
	struct profile p;
	profile_init(&p, 0);
	uint32_t f[3];
	for (int i = 0; i < 3; i++) {
		char name[2] = { (char)('a' + i), 0 };
		struct prof_frame_desc d = { .kind = PROF_FRAME_TEXT, .name = name, .name_len = 1 };
		f[i] = prof_frames_intern(&p.frames, &d);
	}
	uint32_t abc = profile_stack(&p, f, 3), ab = profile_stack(&p, f, 2);
	uint32_t none = profile_stack(&p, f, 0);
	size_t n;
	const uint32_t *back = profile_stack_frames(&p, abc, &n);
	CHECK(n == 3 && back[0] == f[0] && back[2] == f[2]);
	CHECK(profile_stack(&p, f, 3) == abc && abc != ab && profile_stacks(&p) == 3);
	profile_add(&p, none, 4); /* an empty stack folds to " 4", as the table */
	profile_add(&p, ab, 1);
	struct prof_names nm;
	struct collapse_opts o = COLLAPSE_OPTS_INIT;
	prof_names_init(&nm, &o);
	struct strbuf out = SB_INIT;
	profile_fold_write_sb(&p, &nm, &out); /* abc: interned, never added */
	CHECK_EQ_STR(out.buf, " 4\na;b 1\n");
	sb_release(&out);
	prof_names_release(&nm);
	profile_release(&p);
}

UNIT_TEST(profile_add_folded_round_trip)
{
	uint64_t seed = 4242;
	int bad = 0;
	struct collapse_opts o = COLLAPSE_OPTS_INIT;
	for (int c = 0; c < 100; c++) {
		struct profile scratch, p;
		profile_init(&scratch, 0);
		profile_init(&p, 0);
		struct stack_table t = STACK_TABLE_INIT;
		random_table(&seed, &scratch, &t);
		for (size_t id = 0; id < stack_table_count(&t); id++) {
			size_t len;
			const char *k = stack_table_key(&t, id, &len);
			profile_add_folded(&p, k, len, 1, stack_table_value(&t, id));
		}
		struct strbuf want = SB_INIT, got = SB_INIT;
		stack_table_write_sb(&t, &want);
		struct prof_names nm;
		prof_names_init(&nm, &o);
		profile_fold_write_sb(&p, &nm, &got);
		if ((strcmp(want.buf, got.buf) != 0 || p.weight != t.total) && bad++ == 0)
			first_difference(want.buf, got.buf);
		prof_names_release(&nm);
		sb_release(&want);
		sb_release(&got);
		stack_table_release(&t);
		profile_release(&scratch);
		profile_release(&p);
	}
	CHECK(bad == 0);
	struct profile p;
	profile_init(&p, 0);
	uint32_t a = profile_add_folded(&p, "x;;y", 4, 1, 1);
	size_t n;
	profile_stack_frames(&p, a, &n);
	CHECK(n == 3 && profile_add_folded(&p, "x;;y", 4, 1, 1) == a && p.counts[a].samples == 2);
	profile_release(&p);
}

/* Resolved frames as a session gives them, named as perf script prints
 * them ("sym (dso)", "[unknown] (dso)", "name (inlined)"). */
UNIT_TEST(profile_desc_of_frame_names_as_perf_script)
{
	enum { NS = sizeof(syms) / sizeof(*syms), ND = sizeof(dsos) / sizeof(*dsos) };
	static struct sym_entry ents[NS];
	static struct sym_dso objs[ND];
	for (size_t i = 0; i < NS; i++)
		ents[i].name = syms[i];
	for (size_t j = 0; j < ND; j++) {
		objs[j].name = dsos[j];
		objs[j].kind = dsos[j] && strstr(dsos[j], "perf-") ? SYM_DSO_JIT : SYM_DSO_USER;
	}
	uint64_t seed = 99;
	int bad = 0;
	for (int c = 0; c < 64; c++) {
		struct collapse_opts o;
		random_opts(&seed, &o);
		struct profile p;
		profile_init(&p, 0);
		struct strbuf text = SB_INIT, want = SB_INIT, got = SB_INIT;
		struct prof_frame_desc d;
		prof_desc_of_comm("java", 5, 6, &d);
		uint32_t ids[2] = { prof_frames_intern(&p.frames, &d), 0 };
		bool java = c % 2;
		if (!java) {
			prof_desc_of_comm("perf", 5, 6, &d);
			ids[0] = prof_frames_intern(&p.frames, &d);
		}
		for (int k = 0; k < 40; k++) {
			size_t si = rnd(&seed) % NS, dj = rnd(&seed) % ND;
			struct proc_frame f = { 0 };
			f.addr = rnd(&seed) % 0x10000;
			f.kernel = rnd(&seed) % 2;
			f.sym = syms[si] ? &ents[si] : NULL;
			f.dso = dsos[dj] ? &objs[dj] : NULL;
			if (syms[si] && rnd(&seed) % 6 == 0)
				f.inline_name = syms[si];
			sb_addf(&text, "%s 5/6 1.0: 1 cycles:\n\t%16llx %s (%s)\n\n",
				java ? "java" : "perf", (unsigned long long)f.addr,
				f.inline_name ? f.inline_name : f.sym ? f.sym->name : "[unknown]",
				f.inline_name ? "inlined" : f.dso ? f.dso->name : "[unknown]");
			prof_desc_of_frame(&f, &d);
			ids[1] = prof_frames_intern(&p.frames, &d);
			profile_add(&p, profile_stack(&p, ids, 2), 1);
		}
		profile_ref_fold_script(&o, &text, &want);
		struct prof_names nm;
		prof_names_init(&nm, &o);
		profile_fold_write_sb(&p, &nm, &got);
		if (strcmp(want.buf, got.buf) != 0 && bad++ == 0)
			first_difference(want.buf, got.buf);
		prof_names_release(&nm);
		profile_release(&p);
		sb_release(&text);
		sb_release(&want);
		sb_release(&got);
	}
	CHECK(bad == 0);
}

/* The labels of a graph of folded perf input: cpu-clock and task-clock
 * periods are nanoseconds shown as microseconds, another weighted event
 * counts in its name, sample counts are samples; the title is the event
 * and the recorded command after "--" (or as given). */
UNIT_TEST(profile_fold_labels)
{
	struct fold_perfdata_info in = FOLD_PERFDATA_INFO_INIT;
	struct strbuf title = SB_INIT;
	const char *countname;
	double factor;
	sb_adds(&in.event, "cpu-clock:ppp");
	sb_adds(&in.cmdline, "perf record -g -- ./work 3");
	in.weighted = true;
	CHECK(fold_perfdata_counts_ns(&in));
	fold_perfdata_labels(&in, NULL, &countname, &factor, &title);
	CHECK_EQ_STR(countname, "\xc2\xb5s");
	CHECK(factor == 0.001);
	CHECK_EQ_STR(title.buf, "cpu-clock:ppp: ./work 3");
	/* by attr: software config 2 (page-faults) is no clock */
	in.have_attr = true;
	in.type = 1;
	in.config = 2;
	CHECK(!fold_perfdata_counts_ns(&in));
	fold_perfdata_labels(&in, "given", &countname, &factor, &title);
	CHECK_EQ_STR(countname, "cpu-clock:ppp");
	CHECK(factor == 1);
	CHECK_EQ_STR(title.buf, "cpu-clock:ppp: given");
	in.weighted = false;
	sb_reset(&in.event);
	sb_reset(&in.cmdline);
	fold_perfdata_labels(&in, NULL, &countname, &factor, &title);
	CHECK_EQ_STR(countname, "samples");
	CHECK_EQ_STR(title.buf, "Flame Graph");
	sb_release(&title);
	fold_perfdata_info_release(&in);
}

/* A folded stack from `scorch fold --tid`: the thread frame is a COMM
 * frame with its pid and tid ("?" stands for the tid), the rest text;
 * a stack without one is all text. */
UNIT_TEST(profile_thread_folded)
{
	struct profile p;
	profile_init(&p, 0);
	const char *s = "perl-12/34;main;run";
	uint32_t id = profile_add_thread_folded(&p, s, strlen(s), 1, 5);
	size_t n;
	const uint32_t *f = profile_stack_frames(&p, id, &n);
	CHECK(n == 3);
	const struct prof_frame *c = prof_frames_get(&p.frames, f[0]);
	size_t len;
	const char *name = prof_frames_str(&p.frames, c->name, &len);
	CHECK(c->kind == PROF_FRAME_COMM && c->pid == 12 && c->tid == 34);
	CHECK(len == 4 && !memcmp(name, "perl", 4));
	CHECK(prof_frames_get(&p.frames, f[2])->kind == PROF_FRAME_TEXT);
	s = "a-b-?/7";
	f = profile_stack_frames(&p, profile_add_thread_folded(&p, s, strlen(s), 1, 1), &n);
	c = prof_frames_get(&p.frames, f[0]);
	CHECK(n == 1 && c->kind == PROF_FRAME_COMM && c->pid == 7 && c->tid == 7);
	prof_frames_str(&p.frames, c->name, &len);
	CHECK(len == 3);
	/* not threads: no dash, no tid, a pid that is no number */
	const char *text[] = { "perl;main", "perl-12;main", "perl-x/3;main", "-1/2;m" };
	for (size_t i = 0; i < 4; i++) {
		f = profile_stack_frames(&p, profile_add_thread_folded(&p, text[i],
				strlen(text[i]), 1, 1), &n);
		CHECK(n == 2 && prof_frames_get(&p.frames, f[0])->kind == PROF_FRAME_TEXT);
	}
	/* the same stack as profile_add_folded makes for text */
	s = "x;y;";
	CHECK(profile_add_thread_folded(&p, s, 4, 1, 1) == profile_add_folded(&p, s, 4, 1, 1));
	CHECK(p.samples == 8 && p.weight == 12);
	profile_release(&p);
}
