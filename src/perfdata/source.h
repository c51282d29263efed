/*
 * source: the bytes of a perf.data stream (internal to perfdata): a
 * regular file mapped read-only, a bounded read-ahead window over a pipe
 * (or a file that cannot be mapped; it starts out holding the bytes a
 * command already read to tell the format), or a caller's memory buffer.
 * Stage: perfdata. The window holds at most cap bytes (grown only to fit
 * one record of at most 64 KiB plus the read-ahead), so memory does not
 * grow with the input; a mapping gives back the pages behind the reader
 * every SRC_DROP bytes, so its resident size stays bounded too.
 * Pointers returned by src_peek are valid until the next src_peek/
 * src_consume/src_skip call, or, when src_stable says so, until
 * src_close (the file's own bytes: zero-copy for the callers).
 */
#ifndef SCORCH_PERFDATA_SOURCE_H
#define SCORCH_PERFDATA_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pd_source {
	int fd;                 /* -1 in memory mode */
	bool own_fd;
	bool seekable;          /* pread works */
	uint64_t file_size;     /* seekable or memory: total size */
	const uint8_t *mem;     /* memory mode (a mapping when mapped) */
	bool mapped;            /* mem is our mmap of the whole file */
	uint64_t dropped;       /* mapped: pages before this were given back */
	uint8_t *buf;           /* window (fd mode) */
	size_t cap, start, end; /* valid bytes buf[start, end) */
	uint64_t pos;           /* file offset of the next unread byte */
	uint64_t limit;         /* stop reading here (UINT64_MAX: EOF) */
	int err;                /* -errno of a failed read, sticky */
};

/* Open path ("-": stdin); a regular file is mapped when map is set. */
int src_open(struct pd_source *s, const char *path, bool map);
/* Read fd (the caller's: src_close leaves it open), whose first head_len
 * bytes the caller has already read into head (to tell the format): they
 * are read again, from head for a pipe, from the file for a regular file
 * (which is then read from the offset where head began). head is copied.
 * Returns 0 or -errno. */
int src_open_fd(struct pd_source *s, int fd, bool map, const void *head,
		size_t head_len);
/* A stream that is not seekable (a pipe) is copied, from its first byte,
 * to an unlinked temporary file in $TMPDIR (or /tmp) that replaces it, so
 * that the reader may seek (file-mode perf.data arriving on a pipe).
 * No-op for a seekable source. Returns 0 or -errno (-ESPIPE when bytes
 * were consumed already); after an error the stream is not readable. */
int src_spool(struct pd_source *s);
void src_open_mem(struct pd_source *s, const void *data, size_t size);
void src_close(struct pd_source *s);
/* True when src_peek's pointers stay valid until src_close. */
static inline bool src_stable(const struct pd_source *s) { return s->mem != NULL; }

/* Make up to n bytes at pos available; returns how many are (< n only
 * at EOF/limit or on error, see s->err). *p points at them. */
size_t src_peek(struct pd_source *s, size_t n, const uint8_t **p);
void src_consume(struct pd_source *s, size_t n);
/* Skip n bytes (seek when possible); returns bytes skipped. */
uint64_t src_skip(struct pd_source *s, uint64_t n);
/* Jump to offset (seekable/memory only); window is dropped. */
int src_seek(struct pd_source *s, uint64_t off);
/* Random-access read of n bytes at off into dst (seekable/memory
 * only). Returns 0 or -errno/-EIO on short read. */
int src_pread(struct pd_source *s, void *dst, size_t n, uint64_t off);

#endif
