/*
 * reader: streaming reader for perf.data files (file and pipe mode).
 * Stage: perfdata. Opens a path ("-" = stdin; a directory = the output of
 * perf record --threads: DIR/data, then each DIR/data.N stream), detects
 * file/pipe mode and byte order from the first 16 bytes, reads the attrs
 * and features (file mode) up front, then streams the data section one
 * record at a time through a bounded buffer (never the whole file),
 * decompressing COMPRESSED/COMPRESSED2 payloads as one zstd stream, and
 * calls the handler for each decoded record. Every length and offset is
 * checked.
 *
 * Usage:
 *   struct diag d = DIAG_INIT;
 *   struct pd_reader *r = pd_reader_open(path, &d);
 *   if (!r) { diag_print(&d, path); return 1; }
 *   struct pd_handlers h = { .ctx = me, .on_sample = my_sample };
 *   int rc = pd_reader_run(r, &h);          // < 0: fatal, see pd_reader_diag
 *   if (pd_reader_damaged(r)) warn with pd_reader_diag(r)
 *   pd_reader_free(r);
 *
 * Ownership and lifetimes:
 *  - attrs (pd_reader_attr) and features (pd_reader_features) live until
 *    pd_reader_free. In pipe mode they arrive as records: they are known
 *    once their HEADER_ATTR / HEADER_FEATURE record has been visited, so
 *    code that needs them up front should look from on_attr or after run.
 *  - Every pointer handed to a handler (record structs, strings,
 *    callchains, raw bytes) is valid only until that handler returns.
 *  - A handler returns 0 to go on; any other value stops pd_reader_run,
 *    which then returns that value.
 *
 * Damage (truncated tail, record of size 0 or past the end, garbage after
 * the last record, unfinished file with data size 0): the reader keeps what
 * it read, stops at the damage, records one message in its diag (file
 * offset and record type) and pd_reader_run returns 0; pd_reader_damaged
 * tells the caller. Only when nothing could be read (bad magic, unusable
 * header) does open fail or run return a negative code.
 */
#ifndef SCORCH_PERFDATA_READER_H
#define SCORCH_PERFDATA_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "perfdata/attr.h"
#include "perfdata/feature.h"
#include "perfdata/record.h"

struct pd_reader;

/* Handlers: any may be NULL (the record is then skipped, except that the
 * reader still applies the metadata records itself). ctx is passed back
 * first. on_other receives every record that has no more specific
 * handler set (including user records, unknown types, and records whose
 * handler is NULL when on_other is set), undecoded. */
struct pd_handlers {
	void *ctx;
	int (*on_sample)(void *ctx, const struct pd_sample *s);
	int (*on_mmap)(void *ctx, const struct pd_mmap *m);
	int (*on_comm)(void *ctx, const struct pd_comm *c);
	int (*on_task)(void *ctx, const struct pd_task *t);   /* FORK, EXIT */
	int (*on_lost)(void *ctx, const struct pd_lost *l);
	int (*on_ksymbol)(void *ctx, const struct pd_ksymbol *k);
	int (*on_switch)(void *ctx, const struct pd_switch *s);
	int (*on_build_id)(void *ctx, const struct pd_build_id *b);
	/* an attr became known (file mode: all attrs before the first
	 * record; pipe mode: at each HEADER_ATTR). */
	int (*on_attr)(void *ctx, const struct pd_attr *a);
	/* pipe mode TRACING_DATA record (payload read in full). File mode
	 * tracing data is the TRACING_DATA feature: pd_reader_tracing_data. */
	int (*on_tracing_data)(void *ctx, const uint8_t *data, size_t size);
	int (*on_finished_round)(void *ctx);
	/* every record, before its specific handler (for dump/stats). */
	int (*on_record)(void *ctx, const struct pd_record *rec);
	int (*on_other)(void *ctx, const struct pd_record *rec);
};

/* Open path ("-" for stdin, or a perf record --threads directory).
 * Returns NULL and fills d on failure
 * (not perf.data, unreadable header). */
struct pd_reader *pd_reader_open(const char *path, struct diag *d);
/* Same over fd, opened by the caller (who closes it after
 * pd_reader_free), whose first head_len bytes, head, the caller has
 * already read to tell the format: the reader reads them again (copied)
 * and goes on from the fd, so a pipe is read once, from one open.
 * File-mode perf.data on a pipe (here or through pd_reader_open) is first
 * copied to a temporary file: its features lie after the data section,
 * and the reader needs them before the first record. */
struct pd_reader *pd_reader_open_fd(int fd, const void *head, size_t head_len,
				    const char *name, struct diag *d);
/* Same over a memory buffer (not copied; must outlive the reader). */
struct pd_reader *pd_reader_open_mem(const void *data, size_t size,
				     const char *name, struct diag *d);
void pd_reader_free(struct pd_reader *r);

/* Visit every record in the data section. Returns 0 (also when the data
 * ended in damage: see pd_reader_damaged), a handler's non-zero return,
 * or a negative code when reading failed outright (diag filled). Can be
 * called once per reader. */
int pd_reader_run(struct pd_reader *r, const struct pd_handlers *h);

/* The first damage or error met; empty (set == false) when clean. */
const struct diag *pd_reader_diag(const struct pd_reader *r);
bool pd_reader_damaged(const struct pd_reader *r);
/* Non-fatal notes (e.g. "feature CPUID unreadable") in order; i < n. */
size_t pd_reader_nr_warnings(const struct pd_reader *r);
const char *pd_reader_warning(const struct pd_reader *r, size_t i);

/* Samples dropped because they do not decode (a callchain, stack, raw
 * or branch size past the record's end...): how many, of how many SAMPLE
 * records read, and the first one's file offset and reason. Samples are
 * decoded only for handlers that take them. A command reports this once
 * ("N of M samples dropped as malformed (first at offset 0x...: REASON)"). */
struct pd_dropped {
	uint64_t n, total;
	uint64_t first_offset;
	char why[96];
};
void pd_reader_dropped(const struct pd_reader *r, struct pd_dropped *out);

bool pd_reader_is_pipe(const struct pd_reader *r);
bool pd_reader_swapped(const struct pd_reader *r);  /* other byte order */
bool pd_reader_big_endian(const struct pd_reader *r); /* the recorder's */

/* File header (file mode; zeros in pipe mode). */
struct pd_file_header {
	uint64_t size, attr_size;
	uint64_t attrs_offset, attrs_size;
	uint64_t data_offset, data_size;
	uint64_t feat_offset;       /* data_offset + data_size */
	uint8_t features[32];       /* bitmap, bit N = byte N/8 bit N%8 */
};
const struct pd_file_header *pd_reader_header(const struct pd_reader *r);

size_t pd_reader_nr_attrs(const struct pd_reader *r);
const struct pd_attr *pd_reader_attr(const struct pd_reader *r, size_t i);
/* The attr a sample id belongs to, or NULL. */
const struct pd_attr *pd_reader_attr_by_id(const struct pd_reader *r,
					    uint64_t id);

const struct pd_features *pd_reader_features(const struct pd_reader *r);

/* Raw tracing data (file: TRACING_DATA feature; pipe: the payload of the
 * HEADER_TRACING_DATA record, once visited). Bytes in the tracing data's
 * own byte order. NULL/0 when absent. Owned by the reader. */
const uint8_t *pd_reader_tracing_data(const struct pd_reader *r,
				      size_t *size);

/* Record statistics gathered by pd_reader_run. */
struct pd_reader_stats {
	uint64_t nr_records[128];   /* by type (types >= 128 in nr_records[0]) */
	uint64_t nr_unknown_type;
	uint64_t nr_unknown_id;     /* samples whose id matched no attr */
	uint64_t nr_decompressed;   /* records that came out of zstd payloads */
	uint64_t bytes;             /* data bytes visited */
};
const struct pd_reader_stats *pd_reader_stats(const struct pd_reader *r);

#endif
