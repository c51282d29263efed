/*
 * fuzz-record-dsos: the record-side map tracker of scorch record
 * (record/dsos.c), which parses MMAP/MMAP2/FORK/COMM/SAMPLE records as
 * they come out of the ring buffers.
 * Stage: fuzz. Input: 8 bytes of sample_type, then records (each record's
 * header.size is honoured, clamped to what is left; sizes below 8 end
 * the input). A perf.data file works too: its data section is used.
 * Build ids are not looked up (that reads files named in the input).
 */
#include "record/record.h"

#include <stdint.h>
#include <string.h>

static size_t data_start(const uint8_t *p, size_t len, size_t *end)
{
	uint64_t off, size;
	*end = len;
	if (len < 104 || memcmp(p, "PERFILE2", 8))
		return 8;
	memcpy(&off, p + 40, 8);
	memcpy(&size, p + 48, 8);
	if (off >= len)
		return len;
	if (size < len - off)
		*end = (size_t)(off + size);
	return (size_t)off;
}

int LLVMFuzzerTestOneInput(const uint8_t *p, size_t len)
{
	uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		      PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_PERIOD;
	size_t end, off;
	if (len < 8)
		return 0;
	off = data_start(p, len, &end);
	if (off == 8)
		memcpy(&st, p, 8);
	struct rec_dsos *ds = rec_dsos_new();
	while (off + 8 <= end) {
		uint16_t size;
		memcpy(&size, p + off + 6, 2);
		if (size < 8)
			break;
		if (size > end - off)
			size = (uint16_t)(end - off);
		rec_dsos_record(ds, p + off, size, st);
		off += size;
	}
	rec_dsos_free(ds);
	return 0;
}
