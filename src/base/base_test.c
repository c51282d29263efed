/* Unit tests for base/: strbuf, arena, hmap, cursor, lines. */
#include "base/opt.h"
#include "base/arena.h"
#include "base/cursor.h"
#include "base/fdio.h"
#include "base/hmap.h"
#include "base/lines.h"
#include "base/strbuf.h"
#include "unit.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

UNIT_TEST(strbuf_append)
{
	struct strbuf sb = SB_INIT;
	CHECK(sb.buf[0] == '\0' && sb.len == 0);
	sb_adds(&sb, "abc");
	sb_addf(&sb, "-%d-", 42);
	for (int i = 0; i < 100; i++)
		sb_addc(&sb, 'x');
	CHECK(sb.len == 3 + 4 + 100);
	CHECK(strncmp(sb.buf, "abc-42-x", 8) == 0);
	size_t len;
	char *p = sb_detach(&sb, &len);
	CHECK(len == 107 && sb.len == 0 && sb.buf[0] == '\0');
	free(p);
}

/* sb_add_fixed2 is "%*.2f": against printf on percentages of many
 * totals (ties such as 0.125 and 2.675 among them), large and odd values
 * and widths. */
UNIT_TEST(strbuf_fixed2)
{
	struct strbuf a = SB_INIT;
	char want[128];
	int bad = 0, n = 0;
	static const double odd[] = { 0, 0.005, 0.015, 0.125, 0.375, 2.675, 1.005, 99.995,
				      100, 12345.678, 0.0049999999, 1e11 + 0.125, 1e13, -0.0, -1.5 };
	static const int widths[] = { 0, 7, 12 };
	for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++) {
		for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++, n++) {
			sb_reset(&a);
			sb_add_fixed2(&a, odd[i], widths[w]);
			snprintf(want, sizeof(want), "%*.2f", widths[w], odd[i]);
			bad += strcmp(a.buf, want) != 0;
		}
	}
	for (uint64_t total = 1; total < 3000; total += 7) {
		for (uint64_t part = 0; part <= total; part++, n++) {
			double v = 100.0 * (double)part / (double)total;
			sb_reset(&a);
			sb_add_fixed2(&a, v, 7);
			snprintf(want, sizeof(want), "%7.2f", v);
			bad += strcmp(a.buf, want) != 0;
		}
	}
	CHECK(n > 600000 && bad == 0);
	sb_release(&a);
}

/* sb_add_hex is "%*llx": padded to a width, never cut, 0 as "0". */
UNIT_TEST(strbuf_hex)
{
	struct strbuf sb = SB_INIT;
	sb_add_hex(&sb, 0, 0);
	sb_addc(&sb, '|');
	sb_add_hex(&sb, 0xabc, 6);
	sb_addc(&sb, '|');
	sb_add_hex(&sb, UINT64_MAX, 4);
	sb_addc(&sb, '|');
	sb_add_hex(&sb, 0xffffffff81000000ULL, 16);
	CHECK(strcmp(sb.buf, "0|   abc|ffffffffffffffff|ffffffff81000000") == 0);
	CHECK(sb.len == strlen(sb.buf));
	sb_release(&sb);
}

UNIT_TEST(strbuf_xml_escape)
{
	struct strbuf sb = SB_INIT;
	const char in[] = "a<b>&\"'\x01\xff\xc3\xa9";
	sb_add_xml(&sb, in, sizeof(in) - 1);
	CHECK_EQ_STR(sb.buf, "a&lt;b&gt;&amp;&quot;&apos;\xef\xbf\xbd\xef\xbf\xbd\xc3\xa9");
	sb_release(&sb);
}

UNIT_TEST(arena_strings)
{
	struct arena a = ARENA_INIT;
	char *first = arena_strdup(&a, "first");
	for (int i = 0; i < 100000; i++)
		arena_strdup(&a, "some string that fills chunks");
	char *big = arena_alloc(&a, 1 << 20);
	big[(1 << 20) - 1] = 1;
	CHECK_EQ_STR(first, "first");
	arena_release(&a);
}

/* An arena holding a few bytes takes a small chunk (processes keep
 * hundreds of such arenas); chunks grow as it fills, to 64 KiB. */
UNIT_TEST(arena_chunks_grow)
{
	struct arena a = ARENA_INIT;
	arena_strdup(&a, "x");
	CHECK(a.left < 1024);
	size_t most = 0;
	for (int i = 0; i < 20000; i++) {
		arena_alloc(&a, 24);
		most = a.left > most ? a.left : most;
	}
	CHECK(most > 32 * 1024 && most < 64 * 1024);
	char *mid = arena_alloc(&a, 20000); /* a big block keeps the chunk */
	mid[19999] = 1;
	CHECK(a.total == 8 + 20000 * 24 + 20000);
	arena_release(&a);
}

UNIT_TEST(hmap_ids)
{
	struct hmap h = HMAP_INIT;
	char key[32];
	bool added, ok = true;
	for (int i = 0; i < 10000; i++) {
		int n = snprintf(key, sizeof(key), "key%d", i);
		ok = ok && hmap_put(&h, key, (size_t)n, &added) == (size_t)i && added;
	}
	CHECK(ok);
	CHECK(hmap_put(&h, "key77", 5, &added) == 77 && !added);
	CHECK(hmap_find(&h, "key9999", 7) == 9999);
	CHECK(hmap_find(&h, "nokey", 5) == (size_t)-1);
	CHECK_EQ_STR(hmap_at(&h, 123)->key, "key123");
	hmap_release(&h);
}

UNIT_TEST(cursor_bounds_and_swap)
{
	const uint8_t b[] = { 1, 0, 0, 0, 0, 0, 0, 2, 9 };
	struct cursor c;
	cur_init(&c, b, sizeof(b), 100, false);
	CHECK(cur_u32(&c) == 1);
	CHECK(c.off == 104);
	cur_init(&c, b + 4, 4, 0, true);
	CHECK(cur_u32(&c) == 2);
	CHECK(!c.err);
	CHECK(cur_u64(&c) == 0 && c.err);
	cur_init(&c, b, sizeof(b), 0, false);
	struct cursor s = cur_sub(&c, 20);
	CHECK(s.err && c.err && s.left == 0);
}

UNIT_TEST(lines_stream)
{
	char path[] = "/tmp/scorch-lines-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	FILE *f = fdopen(fd, "w");
	for (int i = 0; i < 300000; i++)
		fprintf(f, "line %d\n", i);
	fputs("last without newline", f);
	fclose(f);
	struct lines lr;
	CHECK(lines_open(&lr, path) == 0);
	const char *line;
	size_t len;
	int n = 0, rc;
	bool ok = true;
	char want[64];
	while ((rc = lines_next(&lr, &line, &len)) == 1) {
		if (n < 300000) {
			int wl = snprintf(want, sizeof(want), "line %d", n);
			ok = ok && len == (size_t)wl && memcmp(line, want, len) == 0;
		} else {
			ok = ok && len == 20 && memcmp(line, "last without newline", 20) == 0;
		}
		n++;
	}
	CHECK(rc == 0 && n == 300001 && ok);
	lines_close(&lr);
	unlink(path);
}

UNIT_TEST(opt_list_has_whole_names)
{
	CHECK(opt_list_has("sleep,work_fp", "sleep"));
	CHECK(opt_list_has("sleep,work_fp", "work_fp"));
	CHECK(!opt_list_has("sleep,work_fp", "work"));
	CHECK(!opt_list_has("sleep,work_fp", "sleep,work_fp"));
	CHECK(!opt_list_has("", "a"));
	CHECK(opt_list_has("a,,b", ""));
	CHECK(!opt_list_has("a,b", ""));
}

/* fd_write_file: the whole new contents or the old ones, and no
 * temporary file left behind either way. */
UNIT_TEST(fdio_write_file_whole)
{
	char dir[] = "/tmp/scorch-unit-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char p[512], q[512];
	snprintf(p, sizeof(p), "%s/out", dir);
	CHECK(fd_write_file(p, "old", 3) == 0);
	CHECK(fd_write_file(p, "new!", 4) == 0);
	FILE *f = fopen(p, "r");
	char buf[8] = { 0 };
	CHECK(f && fread(buf, 1, sizeof(buf), f) == 4);
	if (f)
		fclose(f);
	CHECK_EQ_STR(buf, "new!");
	snprintf(q, sizeof(q), "%s/no/such/dir/out", dir);
	CHECK(fd_write_file(q, "x", 1) == -ENOENT);
	size_t n = 0;
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d));)
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	CHECK(n == 1); /* "out" alone */
	unlink(p);
	rmdir(dir);
}
