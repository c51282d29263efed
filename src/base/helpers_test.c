/* Unit tests for the shared helpers that replaced duplicated loops:
 * lines_read_file (base/lines), hmap_sorted (base/hmap) and the fdio
 * calls. */
#include "base/fdio.h"
#include "base/hmap.h"
#include "base/lines.h"
#include "base/opt.h"
#include "unit.h"

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
UNIT_TEST(opt_number_and_integer)
{
	static const struct opt_spec none[] = { OPT_END_SPEC };
	static const struct opt_cmd cmd = { "unit", "unit", "unit", none, false };
	double d = 0;
	long l = 0;
	CHECK(opt_number(&cmd, "x", "2.5", 0, &d) == 0 && d == 2.5);
	CHECK(opt_number(&cmd, "x", "-1", 0, &d) == 2 && d == 2.5);
	CHECK(opt_number(&cmd, "x", "inf", 0, &d) == 2);
	CHECK(opt_integer(&cmd, "x", "7", 1, 10, &l) == 0 && l == 7);
	CHECK(opt_integer(&cmd, "x", "7.5", 1, 10, &l) == 2 && l == 7);
	CHECK(opt_integer(&cmd, "x", "11", 1, 10, &l) == 2);
}
