/*
 * source: read-ahead window over a perf.data byte stream.
 * Stage: perfdata. A regular file is mapped read-only and served like
 * a memory buffer: no copy, and records stay where they are, so the
 * session can queue them without copying their stack dumps (read(2)
 * copying a 300 MB DWARF recording cost 4x what mapping it does). The
 * pages behind the reader are dropped every SRC_DROP bytes (a later
 * access to a queued record faults them back in from the page cache).
 * Pipes, and files that cannot be mapped, go through one buffer of
 * SRC_CHUNK bytes refilled with read(2). Memory mode serves a caller's
 * buffer directly (fuzzing, tests).
 * Invariant: start <= end <= cap, and buf[start] is the byte at pos.
 * A mapped file that another process truncates while we read it raises
 * SIGBUS, as for perf, which maps it too.
 */
#include "perfdata/source.h"
#include "base/fdio.h"

#include "base/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum { SRC_CHUNK = 1 << 20 };
#define SRC_DROP ((uint64_t)4 << 20)

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

int src_open(struct pd_source *s, const char *path, bool map)
{
	struct stat st;

	src_init(s);
	if (strcmp(path, "-") == 0) {
		s->fd = 0;
	} else {
		s->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (s->fd < 0)
			return -errno;
		s->own_fd = true;
	}
	if (fstat(s->fd, &st) == 0 && S_ISREG(st.st_mode)) {
		s->seekable = true;
		s->file_size = (uint64_t)st.st_size;
		s->pos = (uint64_t)lseek(s->fd, 0, SEEK_CUR);
		if (s->pos == (uint64_t)-1)
			s->pos = 0;
		if (map && map_file(s))
			return 0;
	}
	s->cap = SRC_CHUNK;
	s->buf = xmalloc(s->cap);
	return 0;
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
