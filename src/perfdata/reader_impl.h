/*
 * reader_impl: the pd_reader struct and helpers shared by the reader's
 * files (reader.c open/accessors, filehdr.c file-mode header, stream.c
 * record loop, zstd.c decompression, tracing.c tracepoint names).
 * Stage: perfdata, internal: nothing outside src/perfdata includes it.
 */
#ifndef SCORCH_PERFDATA_READER_IMPL_H
#define SCORCH_PERFDATA_READER_IMPL_H

#include "base/arena.h"
#include "base/hmap.h"
#include "base/u64map.h"
#include "perfdata/decode.h"
#include "perfdata/reader.h"
#include "perfdata/source.h"

#include <stdarg.h>

/* Bounds on what a stream may make the reader keep, however long it
 * runs: attrs, mapped sample ids, and EVENT_UPDATE renames. */
enum {
	PD_MAX_ATTRS = 1 << 16,
	PD_MAX_IDS = 1 << 20,
	PD_MAX_RENAMES = 1 << 12,
};

struct pd_tp_name {
	uint64_t id;
	const char *name;       /* "sched:sched_switch", in r->mem */
};

struct pd_reader {
	char *name;
	struct pd_source src;
	char *dir;              /* directory mode (perf record --threads) */
	int part;               /* -1: the main file; N: reading DIR/data.N */
	struct diag diag;       /* first damage */
	bool damaged;
	char **notes; size_t nr_notes, notes_cap;
	bool pipe, swap, writer_be, ran;
	struct pd_file_header hdr;

	struct pd_attr **attrs; size_t nr_attrs, attrs_cap;
	struct hmap ids;        /* 8-byte id -> attr index + 1 */
	int id_pos;             /* byte offset of the id in samples, or -1 */
	int trailer_pos;        /* id position from the end (u64s), or -1 */
	uint64_t last_id;       /* one-entry cache of pd_reader_attr_by_id */
	const struct pd_attr *last_attr;

	struct pd_features feat;
	struct u64map name_ids; /* EVENT_DESC first id -> event index + 1 */
	uint64_t renames;       /* EVENT_UPDATE names taken */
	size_t nr_ids_kept;     /* ids of all attrs, up to PD_MAX_IDS */
	bool ids_full, feat_repeat;  /* noted once */
	struct arena mem;       /* attrs, names, ids */
	uint8_t *tracing; size_t tracing_size;  /* pipe TRACING_DATA */
	struct pd_tp_name *tp_names; size_t nr_tp_names, tp_cap;
	bool tp_parsed;

	struct pd_decoder dc;
	struct pd_reader_stats stats;
	uint64_t nr_bad;        /* records that failed to decode */
	uint64_t nr_bad_samples;/* samples that failed to decode (not in nr_bad) */
	uint64_t bad_sample_off;/* the first one's offset and reason */
	char bad_sample_why[96];

	void *zds;              /* ZSTD_DStream */
	uint8_t *dbuf; size_t dcap, dpos, dlen;
	bool zstd_broken;
};

void pd_reader_note(struct pd_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void pd_reader_damage(struct pd_reader *r, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
const char *pd_reader_type_name(uint32_t type, char *buf, size_t size);

void pd_reader_map_id(struct pd_reader *r, uint64_t id, size_t idx);
struct pd_attr *pd_reader_add_attr(struct pd_reader *r, const uint8_t *p,
				   size_t len, const uint8_t *idp, size_t n);
void pd_reader_apply_names(struct pd_reader *r);
/* The same for one attr added since (by the last apply_names' map). */
void pd_reader_apply_name(struct pd_reader *r, struct pd_attr *a);

int pd_reader_open_file_mode(struct pd_reader *r, struct diag *d);

/* Dispatch one framed record (stream.c). */
int pd_reader_dispatch(struct pd_reader *r, const struct pd_record *rec,
		       const struct pd_handlers *h);

/* zstd.c: inflate one payload and dispatch the records it completes. */
int pd_zstd_feed(struct pd_reader *r, const struct pd_record *rec,
		 const uint8_t *p, size_t n, const struct pd_handlers *h);
void pd_zstd_finish(struct pd_reader *r);
void pd_zstd_release(struct pd_reader *r);

/* tracing.c: "system:event" for a tracepoint id, or NULL. */
const char *pd_reader_tracepoint_name(struct pd_reader *r, uint64_t id);
void pd_reader_add_tp_name(struct pd_reader *r, uint64_t id, const char *name);
const char *pd_reader_pmu_name(struct pd_reader *r, const struct pd_attr *a);

#endif
