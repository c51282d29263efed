/* view_data_test: unit tests for the explorer's encoding (render/view_data.c),
 * read back by a small decoder written from the format in view_data.h. */
#include "render/view_data.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct dec {
	const unsigned char *p, *end;
	int bad;
};

static uint64_t get(struct dec *d)
{
	uint64_t x = 0;
	for (int shift = 0; shift < 64; shift += 7) {
		if (d->p >= d->end) {
			d->bad = 1;
			return 0;
		}
		unsigned char b = *d->p++;
		x |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return x;
	}
	d->bad = 1;
	return 0;
}

/* Decode into "name@depth:self" lines (column c), preorder. */
static void decode(const struct strbuf *bin, unsigned c, struct strbuf *out)
{
	struct dec d = { (const unsigned char *)bin->buf + 4,
			 (const unsigned char *)bin->buf + bin->len, 0 };
	unsigned ncols = (unsigned)get(&d);
	size_t ns = get(&d);
	const char **str = calloc(ns + 1, sizeof(*str));
	size_t *slen = calloc(ns + 1, sizeof(*slen));
	for (size_t i = 0; i < ns && !d.bad; i++) {
		slen[i] = get(&d);
		str[i] = (const char *)d.p;
		d.p += slen[i];
	}
	size_t nf = get(&d);
	uint64_t *fname = calloc(nf + 1, sizeof(*fname));
	for (size_t i = 0; i < nf && !d.bad; i++) {
		fname[i] = get(&d);
		get(&d);
		uint64_t fl = get(&d);
		get(&d); /* colour */
		if (fl)
			sb_addf(out, "flag %.*s %llu\n", (int)slen[fname[i]], str[fname[i]],
				(unsigned long long)fl);
		uint64_t file = get(&d);
		if (file && file <= ns) {
			uint64_t line = get(&d);
			sb_addf(out, "source %.*s %.*s:%llu\n", (int)slen[fname[i]],
				str[fname[i]], (int)slen[file - 1], str[file - 1],
				(unsigned long long)line);
		} else if (file) {
			d.bad = 1;
		}
	}
	size_t nn = get(&d);
	long depth = -1;
	for (size_t i = 0; i < nn && !d.bad; i++) {
		uint64_t up2 = get(&d);
		depth = depth + 1 - (long)(up2 >> 1);
		uint64_t f = get(&d);
		uint64_t self[2] = { 0, 0 };
		for (unsigned k = 0; k < ncols && (up2 & 1); k++)
			self[k] = get(&d);
		sb_add(out, str[fname[f]], slen[fname[f]]);
		sb_addf(out, "@%ld:%llu\n", depth, (unsigned long long)self[c]);
	}
	uint64_t tag;
	while (!d.bad && (tag = get(&d)) != 0) {
		uint64_t len = get(&d);
		const unsigned char *sec_end = d.p + len;
		uint64_t n = get(&d);
		for (uint64_t i = 0; i < n && !d.bad; i++) {
			uint64_t a = get(&d), b = get(&d), c = get(&d);
			if (tag == 1)
				sb_addf(out, "thread %llu %llu %.*s\n", (unsigned long long)a,
					(unsigned long long)b, (int)slen[c], str[c]);
			else
				sb_addf(out, "row %llu %llu %llu %llu\n", (unsigned long long)a,
					(unsigned long long)b, (unsigned long long)c,
					(unsigned long long)get(&d));
		}
		if (d.p != sec_end)
			sb_adds(out, "BAD SECTION\n");
	}
	if (d.bad || d.p != d.end)
		sb_adds(out, "BAD END\n");
	free(str);
	free(slen);
	free(fname);
}

static void encode_tables(const struct stack_table *const *t, unsigned ncols,
			  struct strbuf *bin)
{
	struct view_data v;
	view_data_init(&v, ncols);
	view_data_add_tables(&v, t);
	view_data_encode(&v, bin);
	view_data_release(&v);
}

UNIT_TEST(view_data_preorder_tree)
{
	struct stack_table t = STACK_TABLE_INIT;
	stack_table_add(&t, "a;b;c", 5, 10);
	stack_table_add(&t, "a!;x", 4, 1);   /* '!' < ';': must not split "a" */
	stack_table_add(&t, "a", 1, 2);
	stack_table_add(&t, "a;b", 3, 3);
	stack_table_add(&t, "a;b;d", 5, 4);
	stack_table_add(&t, "z", 1, 7);
	const struct stack_table *cols[1] = { &t };
	struct strbuf bin = SB_INIT, out = SB_INIT;
	encode_tables(cols, 1, &bin);
	CHECK(bin.len > 4 && memcmp(bin.buf, "SCV1", 4) == 0);
	decode(&bin, 0, &out);
	CHECK_EQ_STR(out.buf, "a!@0:0\nx@1:1\na@0:2\nb@1:3\nc@2:10\nd@2:4\nz@0:7\n");
	sb_release(&bin);
	sb_release(&out);
	stack_table_release(&t);
}

UNIT_TEST(view_data_diff_columns)
{
	struct stack_table a = STACK_TABLE_INIT, b = STACK_TABLE_INIT;
	stack_table_add(&a, "m;old", 5, 4);
	stack_table_add(&a, "m;same", 6, 5);
	stack_table_add(&b, "m;same", 6, 6);
	stack_table_add(&b, "m;new", 5, 9);
	const struct stack_table *cols[2] = { &a, &b };
	struct strbuf bin = SB_INIT, o0 = SB_INIT, o1 = SB_INIT;
	encode_tables(cols, 2, &bin);
	decode(&bin, 0, &o0);
	decode(&bin, 1, &o1);
	CHECK_EQ_STR(o0.buf, "m@0:0\nnew@1:0\nold@1:4\nsame@1:5\n");
	CHECK_EQ_STR(o1.buf, "m@0:0\nnew@1:9\nold@1:0\nsame@1:6\n");
	sb_release(&bin);
	sb_release(&o0);
	sb_release(&o1);
	stack_table_release(&a);
	stack_table_release(&b);
}

UNIT_TEST(view_data_flags_strings_and_deep)
{
	struct stack_table t = STACK_TABLE_INIT;
	struct strbuf deep = SB_INIT, bin = SB_INIT, out = SB_INIT;
	stack_table_add(&t, "k_[k];<img src=x>;;j_[j]", 24, 1);
	for (int i = 0; i < 3000; i++)
		sb_addf(&deep, "%sf%d", i ? ";" : "", i % 7);
	stack_table_add(&t, deep.buf, deep.len, 300);
	const struct stack_table *cols[1] = { &t };
	encode_tables(cols, 1, &bin);
	decode(&bin, 0, &out);
	CHECK(strstr(out.buf, "flag k_[k] 1\nflag j_[j] 4\n") != NULL);
	CHECK(strstr(out.buf, "<img src=x>@1:0\n@2:0\nj_[j]@3:1\n") != NULL);
	CHECK(strstr(out.buf, "f3@2999:300\n") != NULL);
	CHECK(strstr(out.buf, "BAD END") == NULL);
	sb_release(&deep);
	sb_release(&bin);
	sb_release(&out);
	stack_table_release(&t);
}

UNIT_TEST(view_data_big_counts_and_base64)
{
	struct stack_table t = STACK_TABLE_INIT;
	stack_table_add(&t, "a", 1, UINT64_MAX);
	stack_table_add(&t, "a", 1, 5); /* the table saturates */
	const struct stack_table *cols[1] = { &t };
	struct strbuf bin = SB_INIT, out = SB_INIT, b = SB_INIT;
	encode_tables(cols, 1, &bin);
	decode(&bin, 0, &out);
	CHECK_EQ_STR(out.buf, "a@0:18446744073709551615\n");
	view_base64("", 0, &b);
	CHECK_EQ_STR(b.buf, "");
	view_base64("f", 1, &b);
	sb_addc(&b, ' ');
	view_base64("fo", 2, &b);
	sb_addc(&b, ' ');
	view_base64("foobar", 6, &b);
	sb_addc(&b, ' ');
	view_base64("\xff\xfe", 2, &b);
	CHECK_EQ_STR(b.buf, "Zg== Zm8= Zm9vYmFy //4=");
	sb_release(&bin);
	sb_release(&out);
	sb_release(&b);
	stack_table_release(&t);
}

UNIT_TEST(view_data_rows_and_threads)
{
	struct stack_table t = STACK_TABLE_INIT;
	struct view_data v;
	struct strbuf bin = SB_INIT, out = SB_INIT;
	size_t b = stack_table_add(&t, "p;b", 3, 1);
	size_t a = stack_table_add(&t, "p;a", 3, 2);
	const struct stack_table *cols[1] = { &t };
	view_data_init(&v, 1);
	uint32_t t1 = view_data_thread(&v, 10, 11, "app", 3);
	uint32_t t2 = view_data_thread(&v, -1, 12, "", 0);
	CHECK(view_data_thread(&v, 10, 11, "other", 5) == t1);
	view_data_add_row(&v, 1000, t1, b, 1);
	view_data_add_row(&v, 1500, t2, a, 1);
	view_data_add_row(&v, 1400, t1, a, 1); /* times may step back */
	view_data_add_row(&v, 1600, t1, 99, 1); /* no such stack: left out */
	view_data_add_tables(&v, cols);
	view_data_encode(&v, &bin);
	decode(&bin, 0, &out);
	/* preorder: p (node 1), a (2), b (3); zigzag: 1000 -> 2000, -100 -> 199 */
	CHECK_EQ_STR(out.buf, "p@0:0\na@1:2\nb@1:1\n"
		     "thread 20 22 app\nthread 1 24 \n"
		     "row 2000 0 3 1\nrow 1000 1 2 1\nrow 199 0 2 1\n");
	view_data_release(&v);
	sb_release(&bin);
	sb_release(&out);
	stack_table_release(&t);
}

UNIT_TEST(view_data_name_info_sets_module_and_flags)
{
	struct stack_table t = STACK_TABLE_INIT;
	struct view_data v;
	struct strbuf bin = SB_INIT;
	stack_table_add(&t, "p;main;k", 8, 1);
	const struct stack_table *cols[1] = { &t };
	view_data_init(&v, 1);
	view_data_name_info(&v, "main", 4, "/bin/app", 8, 0);
	view_data_name_info(&v, "main", 4, "/other", 6, VIEW_F_JIT); /* first counts */
	view_data_name_info(&v, "k", 1, "[kernel.kallsyms]", 17, VIEW_F_KERNEL);
	view_data_add_tables(&v, cols);
	view_data_encode(&v, &bin);
	/* frames: p (no module), main (/bin/app), k (kernel, flagged) */
	uint32_t key_main[3] = { (uint32_t)hmap_find(&v.strs, "main", 4),
				 (uint32_t)hmap_find(&v.strs, "/bin/app", 8) + 1, 0 };
	uint32_t key_k[3] = { (uint32_t)hmap_find(&v.strs, "k", 1),
			      (uint32_t)hmap_find(&v.strs, "[kernel.kallsyms]", 17) + 1,
			      VIEW_F_KERNEL };
	uint32_t key_p[3] = { (uint32_t)hmap_find(&v.strs, "p", 1), 0, 0 };
	CHECK(hmap_find(&v.frames, key_main, sizeof(key_main)) != (size_t)-1);
	CHECK(hmap_find(&v.frames, key_k, sizeof(key_k)) != (size_t)-1);
	CHECK(hmap_find(&v.frames, key_p, sizeof(key_p)) != (size_t)-1);
	CHECK(v.frames.count == 3);
	CHECK(hmap_find(&v.strs, "/other", 6) == (size_t)-1);
	view_data_release(&v);
	sb_release(&bin);
	stack_table_release(&t);
}

UNIT_TEST(view_data_frame_colours_are_flames)
{
	struct stack_table t = STACK_TABLE_INIT;
	struct view_data v;
	struct strbuf bin = SB_INIT;
	stack_table_add(&t, "java/lang/Thread.run", 20, 1);
	const struct stack_table *cols[1] = { &t };
	view_data_init(&v, 1);
	v.palette = PAL_JAVA;
	view_data_add_tables(&v, cols);
	view_data_encode(&v, &bin);
	/* "SCV1" 1, 1 string (len 20), 1 frame: name 0, module 0, flags 0, rgb */
	const unsigned char *p = (const unsigned char *)bin.buf + 4 + 3 + 20 + 1 + 3;
	uint64_t rgb = 0;
	for (int shift = 0; shift < 64; shift += 7) {
		rgb |= (uint64_t)(*p & 0x7f) << shift;
		if (!(*p++ & 0x80))
			break;
	}
	struct render_rgb c = render_palette_color(PAL_JAVA, COLOR_NAME,
						   "java/lang/Thread.run", 20);
	CHECK(rgb == ((uint64_t)c.r << 16 | (uint64_t)c.g << 8 | c.b));
	view_data_release(&v);
	sb_release(&bin);
	stack_table_release(&t);
}

UNIT_TEST(view_data_name_source_is_per_frame_and_interned)
{
	struct stack_table t = STACK_TABLE_INIT;
	struct view_data v;
	struct strbuf bin = SB_INIT, out = SB_INIT;
	stack_table_add(&t, "p;main;now_[i]", 14, 2);
	stack_table_add(&t, "p;main;spin", 11, 3);
	const struct stack_table *cols[1] = { &t };
	view_data_init(&v, 1);
	view_data_name_source(&v, "main", 4, "/src/w.c", 8, 64);
	view_data_name_source(&v, "main", 4, "/src/other.c", 12, 9); /* first counts */
	view_data_name_source(&v, "now_[i]", 7, "/src/w.c", 8, 19);
	view_data_name_source(&v, "spin", 4, "/src/w.c", 8, 0); /* line unknown */
	view_data_add_tables(&v, cols);
	view_data_encode(&v, &bin);
	decode(&bin, 0, &out);
	/* frames in first-seen order, p without a source; the file once */
	CHECK_EQ_STR(out.buf, "source main /src/w.c:64\n"
		     "flag now_[i] 2\nsource now_[i] /src/w.c:19\n"
		     "source spin /src/w.c:0\n"
		     "p@0:0\nmain@1:0\nnow_[i]@2:2\nspin@2:3\n");
	CHECK(hmap_find(&v.strs, "/src/other.c", 12) == (size_t)-1);
	size_t n = 0;
	for (size_t i = 0; i + 8 <= bin.len; i++)
		n += memcmp(bin.buf + i, "/src/w.c", 8) == 0;
	CHECK(n == 1);
	view_data_release(&v);
	sb_release(&bin);
	sb_release(&out);
	stack_table_release(&t);
}
