/*
 * source: read-ahead window over a perf.data byte stream.
 * Stage: perfdata. A regular file is mapped read-only and served like
 * a memory buffer: no copy, and records stay where they are, so the
 * session can queue them without copying their stack dumps (read(2)
 * copying a 300 MB DWARF recording cost 4x what mapping it does). The
 * pages behind the reader are dropped every SRC_DROP bytes (a later
 * access to a queued record faults them back in from the page cache).
 * Pipes, and files that cannot be mapped, go through one buffer of
 * SRC_CHUNK bytes refilled with read(2); bytes a command already read
 * from a pipe to tell its format are put in that buffer first
 * (src_open_fd), so nothing is read twice and no path is opened again. A
 * file-mode stream on a pipe is copied to a temporary file (src_spool).
 * Memory mode serves a caller's buffer directly (fuzzing, tests).
 * Invariant: start <= end <= cap, and buf[start] is the byte at pos.
 * A mapped file that another process truncates while we read it raises
 * SIGBUS, as for perf, which maps it too.
 */
#include "perfdata/source.h"
#include "base/fdio.h"

#include "base/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum { SRC_CHUNK = 1 << 20 };
#define SRC_DROP ((uint64_t)1 << 20)

static void src_init(struct pd_source *s)
{
	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->limit = UINT64_MAX;
}

/* Map the whole file (from offset 0: pos indexes mem); false leaves
 * the read(2) path in charge. */
static bool map_file(struct pd_source *s)
{
	if (s->file_size == 0 || s->file_size > SIZE_MAX / 2)
		return false;
	void *p = mmap(NULL, (size_t)s->file_size, PROT_READ, MAP_PRIVATE, s->fd, 0);
	if (p == MAP_FAILED)
		return false;
	s->mem = p;
	s->mapped = true;
	return true;
}

/* s->fd is open: a regular file is read from where head began (pos is
 * its offset; mapped when map is set), anything else from head first
 * (the window starts out holding it), then from the fd. */
static int setup_fd(struct pd_source *s, bool map, const void *head,
		    size_t head_len)
{
	struct stat st;

	if (fstat(s->fd, &st) == 0 && S_ISREG(st.st_mode)) {
		off_t cur = lseek(s->fd, 0, SEEK_CUR);
		s->seekable = true;
		s->file_size = (uint64_t)st.st_size;
		s->pos = cur > 0 && (uint64_t)cur > head_len ? (uint64_t)cur - head_len : 0;
		if (head_len && lseek(s->fd, (off_t)s->pos, SEEK_SET) < 0)
			return -errno;
		if (map && map_file(s))
			return 0;
		head_len = 0; /* the file's own bytes are read again */
	}
	s->cap = head_len > SRC_CHUNK ? head_len : SRC_CHUNK;
	s->buf = xmalloc(s->cap);
	if (head_len)
		memcpy(s->buf, head, head_len);
	s->end = head_len;
	return 0;
}

int src_open(struct pd_source *s, const char *path, bool map)
{
	src_init(s);
	if (strcmp(path, "-") == 0) {
		s->fd = 0;
	} else {
		s->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (s->fd < 0)
			return -errno;
		s->own_fd = true;
	}
	return setup_fd(s, map, NULL, 0);
}

int src_open_fd(struct pd_source *s, int fd, bool map, const void *head,
		size_t head_len)
{
	src_init(s);
	s->fd = fd;
	return setup_fd(s, map, head, head_len);
}

/* An unlinked temporary file in $TMPDIR (default /tmp): fd or -errno. */
static int temp_fd(void)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];

	if (!dir || !*dir)
		dir = "/tmp";
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
	if ((size_t)snprintf(path, sizeof(path), "%s/scorch-XXXXXX", dir) >= sizeof(path))
		return -ENAMETOOLONG;
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	unlink(path);
	return fd;
}

int src_spool(struct pd_source *s)
{
	if (s->seekable)
		return 0;
	if (s->pos != 0)
		return -ESPIPE; /* the spool's offsets would not be the stream's */
	int fd = temp_fd();
	if (fd < 0)
		return fd;
	int rc = fd_write_all(fd, s->buf + s->start, s->end - s->start);
	while (rc == 0) {
		ssize_t n = fd_read(s->fd, s->buf, s->cap);
		if (n <= 0) {
			rc = (int)n;
			break;
		}
		rc = fd_write_all(fd, s->buf, (size_t)n);
	}
	if (rc == 0 && lseek(fd, 0, SEEK_SET) < 0)
		rc = -errno;
	if (rc < 0) {
		close(fd);
		return rc;
	}
	if (s->own_fd)
		close(s->fd);
	free(s->buf);
	uint64_t limit = s->limit;
	src_init(s);
	s->fd = fd;
	s->own_fd = true;
	s->limit = limit;
	return setup_fd(s, true, NULL, 0);
}

void src_open_mem(struct pd_source *s, const void *data, size_t size)
{
	src_init(s);
	s->mem = data;
	s->seekable = true;
	s->file_size = size;
}

void src_close(struct pd_source *s)
{
	if (s->mapped)
		munmap((void *)s->mem, (size_t)s->file_size);
	if (s->own_fd && s->fd >= 0)
		close(s->fd);
	free(s->buf);
	src_init(s);
}

static uint64_t room(const struct pd_source *s)
{
	uint64_t end = s->limit;

	if (s->seekable && s->file_size < end)
		end = s->file_size;
	return end > s->pos ? end - s->pos : 0;
}

/* Read more bytes so that at least want are buffered (or EOF). */
static void fill(struct pd_source *s, size_t want)
{
	if (s->start > 0 && s->start == s->end)
		s->start = s->end = 0;
	if (s->cap - s->start < want) {
		memmove(s->buf, s->buf + s->start, s->end - s->start);
		s->end -= s->start;
		s->start = 0;
		if (s->cap < want)
			s->buf = xrealloc(s->buf, s->cap = want);
	}
	while (s->end - s->start < want) {
		size_t space = s->cap - s->end;
		uint64_t r = room(s) - (s->end - s->start);
		if (r < space)
			space = (size_t)r;
		if (space == 0)
			return;
		ssize_t n = fd_read(s->fd, s->buf + s->end, space);
		if (n < 0) {
			s->err = (int)n;
			return;
		}
		if (n == 0)
			return;
		s->end += (size_t)n;
	}
}

size_t src_peek(struct pd_source *s, size_t n, const uint8_t **p)
{
	uint64_t r = room(s);

	if (s->mem) {
		*p = s->mem + s->pos;
		return n < r ? n : (size_t)r;
	}
	if (s->end - s->start < n)
		fill(s, n);
	*p = s->buf + s->start;
	return s->end - s->start < n ? s->end - s->start : n;
}

/* Give back the mapped pages more than SRC_DROP behind pos. */
static void drop_behind(struct pd_source *s)
{
	if (s->pos < s->dropped + 2 * SRC_DROP)
		return;
	uint64_t upto = s->pos - SRC_DROP;
	upto -= upto % (uint64_t)sysconf(_SC_PAGESIZE);
	madvise((void *)(s->mem + s->dropped), (size_t)(upto - s->dropped),
		MADV_DONTNEED);
	s->dropped = upto;
}

void src_consume(struct pd_source *s, size_t n)
{
	s->pos += n;
	if (!s->mem)
		s->start += n;
	else if (s->mapped)
		drop_behind(s);
}

uint64_t src_skip(struct pd_source *s, uint64_t n)
{
	uint64_t done = 0, r = room(s);

	if (s->seekable && s->limit != UINT64_MAX && n > r)
		n = r;
	if (s->mem || s->seekable) {
		if (s->seekable && s->pos + n > s->file_size)
			n = s->file_size > s->pos ? s->file_size - s->pos : 0;
		if (!s->mem && src_seek(s, s->pos + n) < 0)
			return 0;
		if (s->mem)
			s->pos += n;
		if (s->mapped)
			drop_behind(s);
		return n;
	}
	while (done < n) {
		const uint8_t *p;
		uint64_t want = n - done < SRC_CHUNK ? n - done : SRC_CHUNK;
		size_t got = src_peek(s, (size_t)want, &p);
		if (got == 0)
			break;
		src_consume(s, got);
		done += got;
	}
	return done;
}

int src_seek(struct pd_source *s, uint64_t off)
{
	if (!s->seekable)
		return -ESPIPE;
	s->pos = off;
	s->start = s->end = 0;
	if (!s->mem && lseek(s->fd, (off_t)off, SEEK_SET) < 0)
		return -errno;
	return 0;
}

int src_pread(struct pd_source *s, void *dst, size_t n, uint64_t off)
{
	size_t done = 0;

	if (!s->seekable)
		return -ESPIPE;
	if (off > s->file_size || n > s->file_size - off)
		return -EIO;
	if (s->mem) {
		memcpy(dst, s->mem + off, n);
		return 0;
	}
	while (done < n) {
		ssize_t r = fd_pread(s->fd, (uint8_t *)dst + done, n - done, off + done);
		if (r <= 0)
			return r < 0 ? (int)r : -EIO;
		done += (size_t)r;
	}
	return 0;
}
