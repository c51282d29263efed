/*
 * dsos_test: the record-side map tracker reads only inside each record.
 * Stage: record (unit tests).
 * Records are placed at the very end of a readable page followed by an
 * inaccessible one, so a read past the record faults even without ASan.
 */
#include "record/record.h"
#include "unit.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

/* A copy of len bytes ending exactly at a PROT_NONE page; *map is the
 * mapping to munmap (2 pages). */
static uint8_t *at_page_end(const void *p, size_t len, uint8_t **map, size_t *maplen)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	*maplen = 2 * pg;
	*map = mmap(NULL, *maplen, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (*map == MAP_FAILED || len > pg)
		return NULL;
	mprotect(*map + pg, pg, PROT_NONE);
	uint8_t *r = *map + pg - len;
	memcpy(r, p, len);
	return r;
}

/* MMAP (type 1) of pid -1 whose name is a short, unterminated prefix of
 * "[kernel.kallsyms]": found by fuzz-record-dsos from an empty corpus. */
UNIT_TEST(record_dsos_short_kernel_name)
{
	uint8_t rec[47] = { 1, 0, 0, 0, 0, 0, 47, 0, 0xff, 0xff, 0xff, 0xff };
	memcpy(rec + 40, "[kernel", 7);
	uint8_t *map;
	size_t maplen;
	uint8_t *r = at_page_end(rec, sizeof(rec), &map, &maplen);
	CHECK(r != NULL);
	if (!r)
		return;
	/* the old code's strncmp(name, "[kernel.kallsyms]", 17) read on
	 * into the guard page: the runner dies with SIGSEGV before the check */
	struct rec_dsos *ds = rec_dsos_new();
	rec_dsos_record(ds, r, sizeof(rec), PERF_SAMPLE_IP | PERF_SAMPLE_TID);
	rec_dsos_free(ds);
	munmap(map, maplen);
	CHECK("MMAP name read within the record, no fault");
}
