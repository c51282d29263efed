/* lines: streaming line reader (see lines.h). */
#include "base/lines.h"
#include "base/diag.h"
#include "base/fdio.h"
#include "base/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { LINES_CHUNK = 1 << 20, PEEK_READ = 64 << 10 };

void lines_init_fd(struct lines *lr, int fd, const char *name)
{
	memset(lr, 0, sizeof(*lr));
	lr->fd = fd;
	lr->name = name;
	lr->cap = LINES_CHUNK;
	lr->buf = xmalloc(lr->cap);
}

int lines_open(struct lines *lr, const char *path)
{
	if (!path || strcmp(path, "-") == 0) {
		lines_init_fd(lr, 0, "<stdin>");
		return 0;
	}
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	lines_init_fd(lr, fd, path);
	lr->own_fd = true;
	return 0;
}

void lines_close(struct lines *lr)
{
	if (lr->own_fd && lr->fd >= 0)
		close(lr->fd);
	free(lr->buf);
	memset(lr, 0, sizeof(*lr));
	lr->fd = -1;
}

/* Make room for at least one more chunk after end; compacts or grows. */
static int make_room(struct lines *lr)
{
	if (lr->start > 0) {
		memmove(lr->buf, lr->buf + lr->start, lr->end - lr->start);
		lr->end -= lr->start;
		lr->start = 0;
	}
	if (lr->cap - lr->end < LINES_CHUNK / 2) {
		if (lr->cap >= LINES_MAX_LINE + (size_t)LINES_CHUNK)
			return -E2BIG;
		lr->cap *= 2;
		lr->buf = xrealloc(lr->buf, lr->cap);
	}
	return 0;
}

/* Read more bytes, at most most; returns bytes read, 0 at EOF, or
 * -errno. */
static ssize_t fill(struct lines *lr, size_t most)
{
	if (lr->eof)
		return 0;
	int rc = make_room(lr);
	if (rc < 0)
		return rc;
	size_t room = lr->cap - lr->end;
	ssize_t n = fd_read(lr->fd, lr->buf + lr->end, room < most ? room : most);
	if (n < 0)
		return n;
	if (n == 0)
		lr->eof = true;
	lr->end += (size_t)n;
	return n;
}

size_t lines_peek(struct lines *lr, const char **data, size_t n)
{
	/* no more than asked for (in PEEK_READ steps): a perf.data input
	 * is peeked, then read by other means, and the chunk's pages the
	 * read would fill stayed resident for the whole run */
	while (lr->end - lr->start < n && fill(lr, PEEK_READ) > 0)
		;
	*data = lr->buf + lr->start;
	size_t have = lr->end - lr->start;
	return have < n ? have : n;
}

long lines_sniff_binary(struct lines *lr, bool nul_line1, unsigned char *byte)
{
	const char *p;
	size_t n = lines_peek(lr, &p, 4096);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		if (nul_line1 && c == '\n')
			break;
		if (nul_line1 ? c == 0 :
		    (c < 0x20 && c != '\t' && c != '\n' && c != '\v' &&
		     c != '\f' && c != '\r' && c != 0x1b) || c == 0x7f) {
			*byte = c;
			return (long)i;
		}
	}
	return -1;
}

size_t lines_buffered(const struct lines *lr, const char **data)
{
	*data = lr->buf + lr->start;
	return lr->end - lr->start;
}

int lines_next(struct lines *lr, const char **line, size_t *len)
{
	size_t scanned = lr->start;
	for (;;) {
		char *nl = memchr(lr->buf + scanned, '\n', lr->end - scanned);
		if (nl) {
			*line = lr->buf + lr->start;
			*len = (size_t)(nl - (lr->buf + lr->start));
			lr->bytes += *len + 1;
			lr->start = (size_t)(nl - lr->buf) + 1;
			lr->lineno++;
			return 1;
		}
		if (lr->end - lr->start > LINES_MAX_LINE)
			return -E2BIG;
		size_t off = lr->end - lr->start;
		ssize_t n = fill(lr, SIZE_MAX);
		if (n < 0)
			return (int)n;
		scanned = lr->start + off;
		if (n == 0) {
			if (lr->end == lr->start)
				return 0;
			*line = lr->buf + lr->start;
			*len = lr->end - lr->start;
			lr->bytes += *len;
			lr->start = lr->end;
			lr->lineno++;
			return 1;
		}
	}
}

int lines_read_file(const char *path, lines_fn fn, void *ctx, uint64_t *failed)
{
	struct lines lr;
	*failed = 0;
	int rc = lines_open(&lr, path);
	if (rc < 0)
		return rc;
	const char *line;
	size_t len;
	while ((rc = lines_next(&lr, &line, &len)) > 0) {
		if (len && line[len - 1] == '\r')
			len--;
		if ((rc = fn(ctx, line, len)) < 0) {
			*failed = lr.lineno;
			break;
		}
	}
	if (rc < 0 && !*failed)
		*failed = lr.lineno + 1;
	lines_close(&lr);
	return rc;
}

int lines_refuse_binary(struct lines *lr, const char *what, struct diag *d)
{
	unsigned char byte;
	long bin = lines_sniff_binary(lr, false, &byte);
	if (bin < 0)
		return 0;
	diag_set(d, "binary data (byte 0x%02x at offset %ld), not %s", byte, bin, what);
	return -EINVAL;
}
