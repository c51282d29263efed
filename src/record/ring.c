/*
 * ring: reading a perf_event_open ring buffer (see ring.h).
 * Stage: record. data_head is loaded with acquire ordering before the
 * data is read, and data_tail stored with release ordering after it is
 * copied, as perf_event_open(2) asks of a user-space reader.
 */
#include "record/ring.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int rec_ring_map(struct rec_ring *r, int fd, int cpu, size_t pages)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->cpu = cpu;
	r->data_size = pages * page;
	r->map_len = (pages + 1) * page;
	void *p = mmap(NULL, r->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		r->base = NULL;
		return -errno;
	}
	r->base = p;
	return 0;
}

size_t rec_ring_read(struct rec_ring *r, struct strbuf *out)
{
	struct perf_event_mmap_page *meta = r->base;
	if (!meta)
		return 0;
	uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = meta->data_tail;
	uint64_t avail = head - tail;
	if (avail == 0)
		return 0;
	if (avail > r->data_size)   /* cannot happen unless overwritten */
		avail = r->data_size;
	const uint8_t *data = (const uint8_t *)r->base + (r->map_len - r->data_size);
	size_t mask = r->data_size - 1;
	size_t start = (size_t)(tail & mask);
	size_t first = r->data_size - start;
	if (first > avail)
		first = (size_t)avail;
	sb_add(out, data + start, first);
	sb_add(out, data, (size_t)avail - first);
	__atomic_store_n(&meta->data_tail, head, __ATOMIC_RELEASE);
	return (size_t)avail;
}

void rec_ring_unmap(struct rec_ring *r)
{
	if (r->base)
		munmap(r->base, r->map_len);
	r->base = NULL;
}
