/*
 * lines: streaming line reader over a file descriptor.
 * Stage: base. One pass, bounded memory: the buffer holds at most one
 * chunk plus the longest line seen (capped at LINES_MAX_LINE). A returned
 * line is borrowed until the next lines_next call; it is not
 * NUL-terminated and excludes the '\n'. A final line without a newline is
 * still returned.
 */
#ifndef SCORCH_BASE_LINES_H
#define SCORCH_BASE_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LINES_MAX_LINE (256u << 20)

struct lines {
	int fd;
	bool own_fd;
	bool eof;
	char *buf;
	size_t cap, start, end;
	uint64_t lineno;    /* number of the line last returned (1-based) */
	uint64_t bytes;     /* bytes consumed so far */
	const char *name;   /* for messages: path or "<stdin>" */
};

/* Open path ("-" or NULL means stdin). Returns 0 or -errno. */
int lines_open(struct lines *lr, const char *path);
/* Read from an fd the caller keeps owning. */
void lines_init_fd(struct lines *lr, int fd, const char *name);
/* 1: a line; 0: end of input; negative: -errno, or -E2BIG for a line
 * over LINES_MAX_LINE. */
int lines_next(struct lines *lr, const char **line, size_t *len);
/* Look at up to n bytes ahead without consuming them (fills the buffer);
 * returns the number of bytes available, which can be less than n. */
size_t lines_peek(struct lines *lr, const char **data, size_t n);
/* The bytes read ahead from the fd and not yet returned as lines (all
 * of them: what another reader taking over the fd must see first).
 * *data is borrowed until the next call that reads. */
size_t lines_buffered(const struct lines *lr, const char **data);
void lines_close(struct lines *lr);

/* For readers of text formats, to reject binary input at once instead
 * of reading it as one endless line: looks at the first 4096 bytes
 * (without consuming them). Returns -1 when they hold only text, else
 * the offset of the first NUL or other control byte (tab, CR, LF, VT,
 * FF and ESC are text) and its value in *byte. nul_line1: only a NUL
 * in the first line counts (for formats whose names may hold any other
 * byte, as flamegraph.pl's folded stacks). */
long lines_sniff_binary(struct lines *lr, bool nul_line1, unsigned char *byte);
/* lines_sniff_binary (any control byte counts) as a reader's check:
 * -EINVAL with d "binary data (byte 0xNN at offset N), not WHAT" for
 * binary input, else 0. */
struct diag;
int lines_refuse_binary(struct lines *lr, const char *what, struct diag *d);

/* One line of lines_read_file; 0 goes on, negative stops the read. */
typedef int (*lines_fn)(void *ctx, const char *line, size_t len);
/* Stream the text file path through fn, one line at a time with a
 * trailing '\r' dropped. Returns 0; -errno when path does not open
 * (*failed 0) or reading line *failed fails; or what fn returned for
 * line *failed. */
int lines_read_file(const char *path, lines_fn fn, void *ctx, uint64_t *failed);

#endif
