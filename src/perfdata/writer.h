/*
 * writer: write perf.data files that perf itself reads, in file mode or
 * pipe mode (perf record -o -), optionally zstd-compressed (-z).
 * Stage: perfdata. Layout follows perfdata-format.md: file mode is
 * header, id arrays, attrs, data records, feature table and payloads
 * (the header is rewritten at pd_writer_finish, so the output must be
 * seekable); pipe mode is the 16-byte header followed by HEADER_ATTR,
 * HEADER_FEATURE and HEADER_TRACING_DATA records and then the data.
 * Invariant: every record written is a whole record (header.size bytes,
 * 8-byte multiple for our own records); compressed payloads hold whole
 * records too, so a reader never has to join records across chunks.
 *
 * Usage: pd_writer_open, pd_writer_add_attr for each event,
 * pd_writer_set_feature for the features known up front (all of them
 * in pipe mode), pd_writer_begin, then pd_writer_record (metadata we
 * synthesize, never compressed) and pd_writer_data (kernel ring buffer
 * bytes, compressed when -z), and pd_writer_finish (file mode: features
 * set late, such as BUILD_ID and SAMPLE_TIME, may be added before it).
 * Ownership: the writer copies attrs, ids and payloads it is given.
 * Errors: functions return 0 or -errno and fill the writer's diag; after
 * an error further writes are no-ops returning the same error.
 */
#ifndef SCORCH_PERFDATA_WRITER_H
#define SCORCH_PERFDATA_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/strbuf.h"
#include "perfdata/feature.h"

#define PD_WRITER_ATTR_SIZE 128  /* PERF_ATTR_SIZE_VER7: what perf 6.1 knows */
#define PD_WRITER_MAGIC 0x32454c4946524550ULL /* "PERFILE2" */

struct pd_writer_attr {
	uint8_t attr[PD_WRITER_ATTR_SIZE];
	uint64_t *ids;
	size_t nr_ids;
	char *name;
};

struct pd_writer {
	int fd;
	bool pipe;                   /* pipe-mode stream */
	char *buf;                   /* output buffer */
	size_t len, cap;
	uint64_t pos;                /* bytes emitted (buffered included) */
	uint64_t data_offset;
	struct pd_writer_attr *attrs;
	size_t nr_attrs;
	struct strbuf feat[PD_FEAT_LAST_KNOWN];
	bool has_feat[PD_FEAT_LAST_KNOWN];
	void *zstd;                  /* ZSTD_CStream * when compressing */
	int zlevel;
	uint32_t mmap_len;           /* ring size, for the COMPRESSED feature */
	uint64_t bytes_in, bytes_out;/* compression statistics */
	uint8_t *zbuf;
	int err;
	struct diag diag;
};

/* Write to fd (which the caller opened and closes). pipe selects pipe
 * mode. Returns 0 (the writer cannot fail here). */
int pd_writer_open(struct pd_writer *w, int fd, bool pipe);
/* Compress data records with zstd at level (1..22); mmap_len is the
 * largest chunk given to one pd_writer_data call. Returns 0 or -ENOTSUP. */
int pd_writer_compress(struct pd_writer *w, int level, uint32_t mmap_len);
/* attr: a perf_event_attr of PD_WRITER_ATTR_SIZE bytes (attr.size must
 * say so). name: the event name for EVENT_DESC. */
void pd_writer_add_attr(struct pd_writer *w, const void *attr,
			const uint64_t *ids, size_t nr_ids, const char *name);
/* Replace the payload of feature bit. */
void pd_writer_set_feature(struct pd_writer *w, unsigned bit,
			   const void *payload, size_t len);
/* EVENT_DESC from the attrs added (set by pd_writer_begin as well). */
void pd_writer_event_desc(struct pd_writer *w);
/* Tracing data: file mode keeps it as the TRACING_DATA feature, pipe
 * mode writes a HEADER_TRACING_DATA record at pd_writer_begin. */
void pd_writer_tracing_data(struct pd_writer *w, const void *p, size_t len);
int pd_writer_begin(struct pd_writer *w);
/* One record we made ourselves: header included, size a multiple of 8. */
int pd_writer_record(struct pd_writer *w, const void *rec, size_t len);
/* Bytes copied from a ring buffer: whole records. */
int pd_writer_data(struct pd_writer *w, const void *p, size_t len);
int pd_writer_flush(struct pd_writer *w);
/* File mode: feature table, payloads and the final header. Pipe mode:
 * flush. Then the writer is released. */
int pd_writer_finish(struct pd_writer *w);
/* Free memory without finishing (after an error). */
void pd_writer_release(struct pd_writer *w);
/* Bytes written so far (the whole file's size after pd_writer_finish). */
static inline uint64_t pd_writer_size(const struct pd_writer *w)
{
	return w->pos;
}

/* Feature payload helpers (perf_header_string and friends). */
void pd_feat_u32(struct strbuf *sb, uint32_t v);
void pd_feat_u64(struct strbuf *sb, uint64_t v);
/* u32 len (NUL included, padded to 64) + the string + zero padding. */
void pd_feat_string(struct strbuf *sb, const char *s);

#endif
