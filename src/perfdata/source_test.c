/*
 * source_test: the mapped source keeps its resident size bounded and
 * its stable pointers valid. Stage: perfdata (tests). A 200 MB file
 * (sparse, with a marker every MB) is read through src_peek/src_consume
 * touching every page; the pages behind the reader are given back, so
 * the resident size stays well under the file size, and bytes consumed
 * long ago still read back right (they fault in again). Bytes a caller
 * read from a pipe to tell its format are read again (src_open_fd), and
 * a pipe is copied to a seekable temporary file from its first byte
 * (src_spool).
 */
#include "unit.h"

#include "perfdata/source.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum { MB = 1 << 20, FILE_MB = 200 };

static long resident_mb(void)
{
	long size = 0, res = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld %ld", &size, &res) != 2)
		res = -1;
	fclose(f);
	return res < 0 ? -1 : res * sysconf(_SC_PAGESIZE) / MB;
}

static bool make_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	bool ok = fd >= 0 && ftruncate(fd, (off_t)FILE_MB * MB) == 0;
	for (int i = 0; ok && i < FILE_MB; i++) {
		unsigned char m = (unsigned char)(i * 7 + 1);
		ok = pwrite(fd, &m, 1, (off_t)i * MB) == 1;
	}
	if (fd >= 0)
		close(fd);
	return ok;
}

UNIT_TEST(source_mapped_bounded)
{
	char path[] = "/tmp/scorch-source-XXXXXX";
	int tfd = mkstemp(path);
	if (tfd < 0 || !make_file(path)) {
		CHECK(!"temporary file");
		if (tfd >= 0)
			unlink(path);
		return;
	}
	close(tfd);
	struct pd_source s;
	CHECK(src_open(&s, path, true) == 0);
	CHECK(s.mapped && src_stable(&s));
	const uint8_t *first = NULL, *p;
	long before = resident_mb(), peak = 0;
	bool marks = true;
	unsigned sum = 0;
	for (int i = 0; i < FILE_MB * (MB / 4096); i++) {
		if (src_peek(&s, 4096, &p) != 4096)
			break;
		if (i == 0)
			first = p;
		sum += p[0] + p[4095];   /* touch the page */
		if (i % (MB / 4096) == 0)
			marks &= p[0] == (unsigned char)(i / (MB / 4096) * 7 + 1);
		src_consume(&s, 4096);
		if (i % 4096 == 0 && resident_mb() > peak)
			peak = resident_mb();
	}
	printf("# resident %ld MB before, peak %ld MB over a %d MB file\n",
	       before, peak, FILE_MB);
	CHECK(marks && sum > 0);
	CHECK(s.pos == (uint64_t)FILE_MB * MB);
	CHECK(peak - before < 32);
	/* a pointer from the start is still good after its pages went */
	CHECK(first && first[0] == 1 && first[MB] == 8);
	src_close(&s);
	/* not mapped on request: a window, not stable */
	CHECK(src_open(&s, path, false) == 0);
	CHECK(!s.mapped && !src_stable(&s));
	CHECK(src_peek(&s, 1, &p) == 1 && p[0] == 1);
	src_close(&s);
	unlink(path);
}

/* A pipe holding "0123456789" of which a caller read "0123" to tell the
 * format: src_open_fd reads those four again, then the rest, once. */
static bool pipe_with(int fds[2], const char *rest)
{
	if (pipe(fds) != 0)
		return false;
	size_t n = strlen(rest);
	bool ok = write(fds[1], rest, n) == (ssize_t)n;
	close(fds[1]);
	return ok;
}

UNIT_TEST(source_fd_head_read_again)
{
	int fds[2];
	CHECK(pipe_with(fds, "456789"));
	struct pd_source s;
	const uint8_t *p;
	CHECK(src_open_fd(&s, fds[0], false, "0123", 4) == 0);
	CHECK(!s.seekable);
	CHECK(src_peek(&s, 16, &p) == 10 && memcmp(p, "0123456789", 10) == 0);
	src_consume(&s, 2);
	CHECK(src_peek(&s, 16, &p) == 8 && p[0] == '2');
	src_close(&s);
	CHECK(fcntl(fds[0], F_GETFD) != -1); /* the caller's fd stays open */
	close(fds[0]);
}

UNIT_TEST(source_spool_pipe)
{
	int fds[2];
	CHECK(pipe_with(fds, "456789"));
	struct pd_source s;
	const uint8_t *p;
	CHECK(src_open_fd(&s, fds[0], true, "0123", 4) == 0);
	CHECK(src_peek(&s, 2, &p) == 2);
	CHECK(src_spool(&s) == 0);
	CHECK(s.seekable && s.file_size == 10 && src_stable(&s));
	uint8_t buf[4];
	CHECK(src_pread(&s, buf, 4, 6) == 0 && memcmp(buf, "6789", 4) == 0);
	CHECK(src_peek(&s, 16, &p) == 10 && p[0] == '0');
	src_close(&s);
	close(fds[0]);
	/* bytes already consumed from the stream cannot be copied */
	CHECK(pipe_with(fds, "456789"));
	CHECK(src_open_fd(&s, fds[0], true, "0123", 4) == 0);
	src_consume(&s, 1);
	CHECK(src_spool(&s) == -ESPIPE);
	src_close(&s);
	close(fds[0]);
}

UNIT_TEST(source_fd_regular_from_head)
{
	char path[] = "/tmp/scorch-source-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0 && write(fd, "0123456789", 10) == 10);
	unlink(path);
	/* a caller read "0123" from offset 2: the source starts at 2 */
	CHECK(lseek(fd, 6, SEEK_SET) == 6);
	struct pd_source s;
	const uint8_t *p;
	CHECK(src_open_fd(&s, fd, true, "2345", 4) == 0);
	CHECK(s.seekable && s.pos == 2);
	CHECK(src_peek(&s, 3, &p) == 3 && memcmp(p, "234", 3) == 0);
	src_close(&s);
	CHECK(lseek(fd, 6, SEEK_SET) == 6);
	CHECK(src_open_fd(&s, fd, false, "2345", 4) == 0);
	CHECK(src_peek(&s, 3, &p) == 3 && memcmp(p, "234", 3) == 0);
	src_close(&s);
	close(fd);
}
