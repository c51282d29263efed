/*
 * ring: one perf_event_open ring buffer (metadata page + 2^n data pages).
 * Stage: record. The kernel writes whole records at data_head; we copy
 * [data_tail, data_head) out (joining the two halves when it wraps) and
 * only then publish the new data_tail, so the kernel never overwrites
 * bytes we have not copied. Invariant: the copy holds whole records.
 */
#ifndef SCORCH_RECORD_RING_H
#define SCORCH_RECORD_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"

struct rec_ring {
	int fd;                 /* event fd the buffer belongs to */
	int cpu;
	void *base;             /* mmap: metadata page, then data */
	size_t map_len;
	size_t data_size;       /* power of two */
	bool hup;               /* fd hung up (its task exited): not polled */
};

/* Map 1 + pages pages of fd. Returns 0 or -errno. */
int rec_ring_map(struct rec_ring *r, int fd, int cpu, size_t pages);
/* Append the unread bytes to out and release them to the kernel.
 * Returns the number of bytes appended. */
size_t rec_ring_read(struct rec_ring *r, struct strbuf *out);
void rec_ring_unmap(struct rec_ring *r);

#endif
