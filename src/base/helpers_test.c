/* Unit tests for the shared helpers that replaced duplicated loops:
 * lines_read_file (base/lines), hmap_sorted (base/hmap), the fdio
 * calls and gzip_append's levels (base/gzip). */
#include "base/fdio.h"
#include "base/gzip.h"
#include "base/hmap.h"
#include "base/lines.h"
#include "base/opt.h"
#include "unit.h"

#include <isa-l/igzip_lib.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct seen {
	int n;
	char text[64];
	int stop_at;        /* 1-based line that returns -EBADMSG, or 0 */
};

static int collect(void *ctx, const char *line, size_t len)
{
	struct seen *s = ctx;
	s->n++;
	if (s->n == s->stop_at)
		return -EBADMSG;
	size_t at = strlen(s->text);
	if (at + len + 2 < sizeof(s->text)) {
		memcpy(s->text + at, line, len);
		s->text[at + len] = '|';
		s->text[at + len + 1] = '\0';
	}
	return 0;
}

UNIT_TEST(lines_read_file_lines)
{
	char path[] = "/tmp/scorch-lines-read-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs("a\r\n\nbc\nlast", f);
	fclose(f);
	struct seen s = { 0, "", 0 };
	uint64_t at = 99;
	CHECK(lines_read_file(path, collect, &s, &at) == 0);
	CHECK(at == 0 && s.n == 4);
	CHECK_EQ_STR(s.text, "a||bc|last|");
	struct seen stop = { 0, "", 3 };
	CHECK(lines_read_file(path, collect, &stop, &at) == -EBADMSG && at == 3);
	unlink(path);
	CHECK(lines_read_file(path, collect, &s, &at) == -ENOENT && at == 0);
	CHECK(lines_read_file("/", collect, &s, &at) == -EISDIR && at == 1);
}

UNIT_TEST(hmap_sorted_order)
{
	struct hmap h;
	hmap_init(&h);
	const char *keys[] = { "b", "ab", "a", "", "a;b", "B" };
	for (size_t i = 0; i < 6; i++)
		hmap_put(&h, keys[i], strlen(keys[i]), NULL);
	size_t *ids = hmap_sorted(&h);
	char order[32] = "";
	for (size_t i = 0; i < h.count; i++) {
		strcat(order, h.entries[ids[i]].key);
		strcat(order, ",");
	}
	CHECK_EQ_STR(order, ",B,a,a;b,ab,b,");
	free(ids);
	hmap_release(&h);
	hmap_init(&h);
	ids = hmap_sorted(&h);
	CHECK(ids != NULL);
	free(ids);
	hmap_release(&h);
}

/* fdio: data through a pipe and a file, end of file, errors as -errno. */
UNIT_TEST(fdio_calls)
{
	int fds[2];
	char buf[16] = { 0 };
	CHECK(pipe(fds) == 0);
	CHECK(fd_write_all(fds[1], "hello", 5) == 0);
	close(fds[1]);
	CHECK(fd_read(fds[0], buf, sizeof(buf)) == 5 && memcmp(buf, "hello", 5) == 0);
	CHECK(fd_read(fds[0], buf, sizeof(buf)) == 0);
	close(fds[0]);
	CHECK(fd_read(-1, buf, 1) == -EBADF && fd_write_all(-1, "x", 1) == -EBADF);
	FILE *f = tmpfile();
	CHECK(f != NULL);
	if (!f)
		return;
	int fd = fileno(f);
	CHECK(fd_write_all(fd, "0123456789", 10) == 0);
	CHECK(fd_pread(fd, buf, 4, 6) == 4 && memcmp(buf, "6789", 4) == 0);
	CHECK(fd_pread(fd, buf, 4, 10) == 0 && fd_pread(-1, buf, 1, 0) == -EBADF);
	fclose(f);
}

/* Option values with ranges: whole numbers, bounds, text that is not a number. */
UNIT_TEST(opt_value_number_and_integer)
{
	double d = 0;
	long l = 0;
	CHECK(opt_value_number("2.5", 0, &d) == 0 && d == 2.5);
	CHECK(opt_value_number("-1", 0, &d) == -1 && d == 2.5);
	CHECK(opt_value_number("inf", 0, &d) == -1);
	CHECK(opt_value_number("1x", 0, &d) == -1 && opt_value_number("", 0, &d) == -1);
	CHECK(opt_value_integer("7", 1, 10, &l) == 0 && l == 7);
	CHECK(opt_value_integer("7.5", 1, 10, &l) == -1 && l == 7);
	CHECK(opt_value_integer("11", 1, 10, &l) == -1);
	CHECK(opt_value_integer("0", 1, 10, &l) == -1);
}

/* Fields of an options struct by option name, with a flag row's value. */
UNIT_TEST(opt_field_by_name)
{
	struct o { const char *title; bool on, off; } o = { NULL, false, true };
	static const struct opt_field rows[] = {
		{ "title", offsetof(struct o, title), false },
		{ "on", offsetof(struct o, on), true },
		{ "no-off", offsetof(struct o, off), false },
	};
	bool v = true;
	CHECK(OPT_FIELD(rows, &o, "title", NULL) == (void *)&o.title);
	CHECK(OPT_FIELD(rows, &o, "on", &v) == (void *)&o.on && v);
	CHECK(OPT_FIELD(rows, &o, "no-off", &v) == (void *)&o.off && !v);
	CHECK(OPT_FIELD(rows, &o, "tit", &v) == NULL && !v);
}

/* Every level makes a gzip member that inflates back to the input (a
 * higher level no larger on repetitive text); another level is -1. */
UNIT_TEST(gzip_levels)
{
	struct strbuf in = SB_INIT;
	for (int i = 0; i < 4000; i++)
		sb_addf(&in, "main;f%d;g %d\n", i % 37, i % 11);
	size_t prev = SIZE_MAX;
	for (int level = 0; level <= 3; level++) {
		struct strbuf gz = SB_INIT;
		CHECK(gzip_append_level(in.buf, in.len, level, &gz) == 0);
		CHECK(gz.len > 18 && (unsigned char)gz.buf[0] == 0x1f &&
		      (unsigned char)gz.buf[1] == 0x8b);
		CHECK(gz.len <= prev);
		prev = gz.len;
		char *back = malloc(in.len + 1);
		struct inflate_state st;
		isal_inflate_init(&st);
		st.crc_flag = ISAL_GZIP;
		st.next_in = (uint8_t *)gz.buf;
		st.avail_in = (uint32_t)gz.len;
		st.next_out = (uint8_t *)back;
		st.avail_out = (uint32_t)in.len + 1;
		CHECK(isal_inflate(&st) == ISAL_DECOMP_OK);
		CHECK(st.total_out == in.len && memcmp(back, in.buf, in.len) == 0);
		free(back);
		sb_release(&gz);
	}
	struct strbuf gz = SB_INIT;
	CHECK(gzip_append_level(in.buf, in.len, 4, &gz) == -1);
	CHECK(gzip_append(in.buf, in.len, &gz) == 0 && gz.len == prev); /* level 3 */
	sb_release(&gz);
	sb_release(&in);
}
