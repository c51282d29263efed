/*
 * stream: the record loop of pd_reader_run and per-type dispatch.
 * Stage: perfdata. Frames records from the source window, applies the
 * metadata records (HEADER_ATTR, ID_INDEX, EVENT_UPDATE, HEADER_FEATURE,
 * TRACING_DATA) to the reader itself, decodes the rest and calls the
 * handlers. Out-of-band payloads (AUXTRACE data, pipe TRACING_DATA) are
 * skipped or read after their record. Hot path: one header parse, one
 * attr lookup and one decode into stack structs; no allocation.
 */
#include "perfdata/reader_impl.h"

#include "base/cursor.h"
#include "base/xalloc.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_TRACING = 256 << 20 };

static uint64_t rd64(const struct pd_record *rec, size_t off)
{
	struct cursor c;
	cur_init(&c, rec->data + off, 8, 0, rec->swap);
	return cur_u64(&c);
}

static const struct pd_attr *sample_attr(struct pd_reader *r,
					 const struct pd_record *rec)
{
	if (r->nr_attrs == 1 || (r->nr_attrs && r->id_pos < 0))
		return r->attrs[0];
	if (r->nr_attrs == 0 || (size_t)r->id_pos + 16 > rec->size)
		return NULL;
	return pd_reader_attr_by_id(r, rd64(rec, 8 + (size_t)r->id_pos));
}

static const struct pd_attr *trailer_attr(struct pd_reader *r,
					  const struct pd_record *rec)
{
	const struct pd_attr *a;

	if (r->nr_attrs == 0 || rec->type >= 64)
		return NULL;
	if (r->nr_attrs == 1 || r->trailer_pos < 0 ||
	    !pd_attr_flag(r->attrs[0], PD_ATTR_SAMPLE_ID_ALL))
		return r->attrs[0];
	if ((size_t)r->trailer_pos * 8 + 8 > rec->size)
		return r->attrs[0];
	a = pd_reader_attr_by_id(r, rd64(rec, rec->size - (size_t)r->trailer_pos * 8));
	return a ? a : r->attrs[0];
}

static int bad_record(struct pd_reader *r, const struct pd_record *rec)
{
	char tn[64];

	if (r->nr_bad++ == 0)
		pd_reader_note(r, "at offset 0x%" PRIx64 ": %s: %s",
			       rec->offset,
			       pd_reader_type_name(rec->type, tn, sizeof(tn)),
			       r->dc.why ? r->dc.why : "malformed");
	return 0;
}

/* A sample is counted apart from other records: every command reports
 * dropped samples (pd_reader_dropped). */
static int bad_sample(struct pd_reader *r, const struct pd_record *rec)
{
	if (r->nr_bad_samples++ == 0) {
		r->bad_sample_off = rec->offset;
		snprintf(r->bad_sample_why, sizeof(r->bad_sample_why), "%s",
			 r->dc.why ? r->dc.why : "malformed");
	}
	return 0;
}

#define CALL(h, fn, arg) ((h)->fn ? (h)->fn((h)->ctx, arg) : \
	(h)->on_other ? (h)->on_other((h)->ctx, rec) : 0)

static int do_sample(struct pd_reader *r, const struct pd_record *rec,
		     const struct pd_handlers *h)
{
	const struct pd_attr *a = sample_attr(r, rec);
	struct pd_sample s;

	if (!a) {
		r->stats.nr_unknown_id++;
		return 0;
	}
	if (!h->on_sample && !h->on_other)
		return 0;
	if (pd_decode_sample(&r->dc, rec, a, &s) < 0)
		return bad_sample(r, rec);
	return CALL(h, on_sample, &s);
}

/* Is anyone listening for this kernel record type? */
static bool wanted(const struct pd_handlers *h, uint32_t type)
{
	if (h->on_other)
		return true;
	switch (type) {
	case PD_RECORD_MMAP: case PD_RECORD_MMAP2: return h->on_mmap;
	case PD_RECORD_COMM: return h->on_comm;
	case PD_RECORD_FORK: case PD_RECORD_EXIT: return h->on_task;
	case PD_RECORD_LOST: case PD_RECORD_LOST_SAMPLES: return h->on_lost;
	case PD_RECORD_KSYMBOL: return h->on_ksymbol;
	default: return h->on_switch;
	}
}

static int do_kernel(struct pd_reader *r, const struct pd_record *rec,
		     const struct pd_handlers *h)
{
	if (!wanted(h, rec->type))
		return 0;
	const struct pd_attr *a = trailer_attr(r, rec);
	union {
		struct pd_mmap m; struct pd_comm c; struct pd_task t;
		struct pd_lost l; struct pd_ksymbol k; struct pd_switch s;
	} u;

	switch (rec->type) {
	case PD_RECORD_MMAP: case PD_RECORD_MMAP2:
		if (pd_decode_mmap(&r->dc, rec, a, &u.m) < 0)
			return bad_record(r, rec);
		return CALL(h, on_mmap, &u.m);
	case PD_RECORD_COMM:
		if (pd_decode_comm(&r->dc, rec, a, &u.c) < 0)
			return bad_record(r, rec);
		return CALL(h, on_comm, &u.c);
	case PD_RECORD_FORK: case PD_RECORD_EXIT:
		if (pd_decode_task(&r->dc, rec, a, &u.t) < 0)
			return bad_record(r, rec);
		return CALL(h, on_task, &u.t);
	case PD_RECORD_LOST: case PD_RECORD_LOST_SAMPLES:
		if (pd_decode_lost(&r->dc, rec, a, &u.l) < 0)
			return bad_record(r, rec);
		return CALL(h, on_lost, &u.l);
	case PD_RECORD_KSYMBOL:
		if (pd_decode_ksymbol(&r->dc, rec, a, &u.k) < 0)
			return bad_record(r, rec);
		return CALL(h, on_ksymbol, &u.k);
	default: /* SWITCH, SWITCH_CPU_WIDE */
		if (pd_decode_switch(&r->dc, rec, a, &u.s) < 0)
			return bad_record(r, rec);
		return CALL(h, on_switch, &u.s);
	}
}

/* HEADER_ATTR: attr (attr.size bytes) then ids to the end. */
static int do_header_attr(struct pd_reader *r, const struct pd_record *rec,
			  const struct pd_handlers *h)
{
	struct cursor c;
	uint32_t asize;
	struct pd_attr *a;

	cur_init(&c, rec->data + 12, rec->size - 8 < 8 ? 0 : 4, 0, rec->swap);
	asize = cur_u32(&c);
	if (asize == 0)
		asize = 64;
	if (c.err || asize < 64 || asize > rec->size - 8) {
		r->dc.why = "attr size does not fit the record";
		return bad_record(r, rec);
	}
	if (r->nr_attrs >= PD_MAX_ATTRS) {
		r->dc.why = "more than 65536 attrs";
		return bad_record(r, rec);
	}
	a = pd_reader_add_attr(r, rec->data + 8, asize, rec->data + 8 + asize,
			       (rec->size - 8 - asize) / 8);
	if (!a)
		return bad_record(r, rec);
	pd_reader_apply_name(r, a);
	return h->on_attr ? h->on_attr(h->ctx, a) : 0;
}

static void do_id_index(struct pd_reader *r, const struct pd_record *rec)
{
	struct cursor c;
	uint64_t nr;

	cur_init(&c, rec->data + 8, rec->size - 8, rec->offset + 8, rec->swap);
	nr = cur_u64(&c);
	if (nr > c.left / 32) {
		r->dc.why = "entries past record end";
		bad_record(r, rec);
		return;
	}
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t id = cur_u64(&c), idx = cur_u64(&c);
		cur_skip(&c, 16);
		if (idx < r->nr_attrs && !pd_reader_attr_by_id(r, id))
			pd_reader_map_id(r, id, (size_t)idx);
	}
}

/* EVENT_UPDATE of type NAME (2): u64 type, u64 id, string. */
static void do_event_update(struct pd_reader *r, const struct pd_record *rec)
{
	struct cursor c;
	struct pd_attr *a;

	cur_init(&c, rec->data + 8, rec->size - 8, rec->offset + 8, rec->swap);
	uint64_t type = cur_u64(&c), id = cur_u64(&c);
	if (c.err || type != 2 || c.left == 0)
		return;
	a = (struct pd_attr *)pd_reader_attr_by_id(r, id);
	if (a && r->renames++ < PD_MAX_RENAMES)
		a->name = arena_strndup(&r->mem, (const char *)c.p,
					strnlen((const char *)c.p, c.left));
}

static void do_header_feature(struct pd_reader *r, const struct pd_record *rec)
{
	uint64_t bit;

	if (rec->size < 16)
		return;
	bit = rd64(rec, 8);
	if (bit >= PD_FEAT_MAX)
		return;
	if (r->feat.state[bit] != PD_FEAT_ABSENT) {
		/* sent once by perf: a repeat would only pile up copies */
		if (!r->feat_repeat)
			pd_reader_note(r, "at offset 0x%" PRIx64 ": HEADER_FEATURE: "
				       "feature bit %" PRIu64 " repeated; ignored",
				       rec->offset, bit);
		r->feat_repeat = true;
		return;
	}
	size_t n = rec->size - 16;
	uint8_t *data = arena_alloc(&r->feat.mem, n ? n : 1);
	memcpy(data, rec->data + 16, n);
	r->feat.swap = r->swap;
	if (pd_feature_parse(&r->feat, (unsigned)bit, data, n) < 0) {
		const char *fname = pd_feature_name((unsigned)bit);
		pd_reader_note(r, "at offset 0x%" PRIx64 ": HEADER_FEATURE: "
			       "feature %s unreadable", rec->offset,
			       fname ? fname : "unknown");
	}
	if (bit == PD_FEAT_EVENT_DESC || bit == PD_FEAT_PMU_MAPPINGS)
		pd_reader_apply_names(r);
}

/* HEADER_EVENT_TYPE (old pipe files): u64 config; char name[64]. */
static void do_event_type(struct pd_reader *r, const struct pd_record *rec)
{
	char name[65];

	if (rec->size < 16 + 1)
		return;
	size_t n = rec->size - 16 < 64 ? rec->size - 16 : 64;
	memcpy(name, rec->data + 16, n);
	name[n] = 0;
	pd_reader_add_tp_name(r, rd64(rec, 8), name);
}

static int do_build_id(struct pd_reader *r, const struct pd_record *rec,
		       const struct pd_handlers *h)
{
	struct pd_build_id b;

	if (pd_decode_build_id(&r->dc, rec->data, rec->size, rec->swap, &b) < 0)
		return bad_record(r, rec);
	b.rec = rec;
	return CALL(h, on_build_id, &b);
}

static int do_compressed(struct pd_reader *r, const struct pd_record *rec,
			 const struct pd_handlers *h)
{
	if (rec->decompressed) {
		r->dc.why = "compressed record inside compressed data";
		return bad_record(r, rec);
	}
	if (rec->type == PD_RECORD_COMPRESSED)
		return pd_zstd_feed(r, rec, rec->data + 8, rec->size - 8, h);
	if (rec->size < 16) {
		r->dc.why = "record too short";
		return bad_record(r, rec);
	}
	uint64_t n = rd64(rec, 8);
	if (n > rec->size - 16u) {
		r->dc.why = "data_size larger than the record";
		return bad_record(r, rec);
	}
	return pd_zstd_feed(r, rec, rec->data + 16, (size_t)n, h);
}

int pd_reader_dispatch(struct pd_reader *r, const struct pd_record *rec,
		       const struct pd_handlers *h)
{
	int rc;

	r->stats.nr_records[rec->type < 128 ? rec->type : 0]++;
	r->stats.bytes += rec->size;
	if (rec->decompressed)
		r->stats.nr_decompressed++;
	if (h->on_record && (rc = h->on_record(h->ctx, rec)) != 0)
		return rc;
	switch (rec->type) {
	case PD_RECORD_SAMPLE:
		return do_sample(r, rec, h);
	case PD_RECORD_MMAP: case PD_RECORD_MMAP2: case PD_RECORD_COMM:
	case PD_RECORD_FORK: case PD_RECORD_EXIT: case PD_RECORD_LOST:
	case PD_RECORD_LOST_SAMPLES: case PD_RECORD_KSYMBOL:
	case PD_RECORD_SWITCH: case PD_RECORD_SWITCH_CPU_WIDE:
		return do_kernel(r, rec, h);
	case PD_RECORD_HEADER_BUILD_ID:
		return do_build_id(r, rec, h);
	case PD_RECORD_FINISHED_ROUND:
		if (h->on_finished_round)
			return h->on_finished_round(h->ctx);
		break;
	case PD_RECORD_HEADER_ATTR:
		if (h->on_attr)
			return do_header_attr(r, rec, h);
		do_header_attr(r, rec, h);
		break;
	default:
		break;
	}
	/* Metadata the reader applies itself; on_other sees it too. */
	if (h->on_other && (rc = h->on_other(h->ctx, rec)) != 0)
		return rc;
	switch (rec->type) {
	case PD_RECORD_HEADER_EVENT_TYPE:
		do_event_type(r, rec);
		return 0;
	case PD_RECORD_ID_INDEX:
		do_id_index(r, rec);
		return 0;
	case PD_RECORD_EVENT_UPDATE:
		do_event_update(r, rec);
		return 0;
	case PD_RECORD_HEADER_FEATURE:
		do_header_feature(r, rec);
		return 0;
	case PD_RECORD_COMPRESSED: case PD_RECORD_COMPRESSED2:
		return do_compressed(r, rec, h);
	default:
		return 0;
	}
}

/* ---- framing ---- */

static bool plausible_type(uint32_t type)
{
	return (type > 0 && type < 128) || (type >= 32768 && type < 65536);
}

/* Pipe TRACING_DATA: read the out-of-band payload into r->tracing. */
static int read_tracing(struct pd_reader *r, uint64_t off, uint32_t size,
			const struct pd_handlers *h)
{
	const uint8_t *p;

	if (size > MAX_TRACING) {
		pd_reader_damage(r, off, "HEADER_TRACING_DATA (66): payload "
				 "size %" PRIu32 " too large", size);
		return -1;
	}
	free(r->tracing);
	r->tracing = xmalloc(size ? size : 1);
	r->tracing_size = 0;
	r->tp_parsed = false;
	while (r->tracing_size < size) {
		size_t want = size - r->tracing_size;
		size_t got = src_peek(&r->src, want < (1u << 20) ? want : 1u << 20, &p);
		if (got == 0)
			break;
		memcpy(r->tracing + r->tracing_size, p, got);
		src_consume(&r->src, got);
		r->tracing_size += got;
	}
	if (r->tracing_size < size) {
		pd_reader_damage(r, off, "HEADER_TRACING_DATA (66): payload of "
				 "%" PRIu32 " bytes cut short at %zu", size,
				 r->tracing_size);
		return -1;
	}
	pd_reader_apply_names(r);
	if (h->on_tracing_data)
		return h->on_tracing_data(h->ctx, r->tracing, r->tracing_size);
	return 0;
}

/* After the record: payloads that follow outside header.size. */
static int out_of_band(struct pd_reader *r, const struct pd_record *rec,
		       uint64_t extra, const struct pd_handlers *h)
{
	if (rec->type == PD_RECORD_HEADER_TRACING_DATA)
		return read_tracing(r, rec->offset, (uint32_t)extra, h);
	if (src_skip(&r->src, extra) < extra) {
		pd_reader_damage(r, rec->offset, "AUXTRACE (71): %" PRIu64
				 " bytes of trace data cut short", extra);
		return -1;
	}
	return 0;
}

/* Length of the data outside header.size (AUXTRACE, TRACING_DATA). */
static uint64_t extra_size(const struct pd_record *rec)
{
	struct cursor c;

	if (rec->type == PD_RECORD_AUXTRACE && rec->size >= 16)
		return rd64(rec, 8);
	if (rec->type == PD_RECORD_HEADER_TRACING_DATA && rec->size >= 12) {
		cur_init(&c, rec->data + 8, 4, 0, rec->swap);
		return cur_u32(&c);
	}
	return 0;
}

/* perf 6.16+ can wrap the u16 header.size of a large COMPRESSED2 record
 * (perfdata-format.md §13): say so, with the data_size it carries. */
static const char *compressed2_hint(struct pd_reader *r,
				    const struct pd_record *rec)
{
	static char hint[160];
	const uint8_t *p;
	struct cursor c;

	if (rec->type != PD_RECORD_COMPRESSED2 || src_peek(&r->src, 16, &p) < 16)
		return "";
	cur_init(&c, p + 8, 8, 0, r->swap);
	snprintf(hint, sizeof(hint), " (its data_size is %" PRIu64 ": perf "
		 "6.16+ wraps header.size of large COMPRESSED2 records)",
		 cur_u64(&c));
	return hint;
}

/* A mapped file is read at memory speed once its pages are mapped: ask
 * for the lines this record's decoding jumps to (its last bytes, e.g.
 * a stack dump's dyn_size) and the next record's first lines, so that
 * their cache misses overlap the work on this one. */
static void prefetch_around(const uint8_t *p, uint32_t size)
{
	__builtin_prefetch(p + size - 8);
	for (uint32_t i = 0; i < 256; i += 64)
		__builtin_prefetch(p + size + i);
}

/* One record from the source: 1 done, 0 end, -1 damage/stop. */
static int next_record(struct pd_reader *r, const struct pd_handlers *h,
		       int *hrc)
{
	struct pd_record rec;
	const uint8_t *p;
	struct cursor c;
	char tn[64];
	uint64_t off = r->src.pos;
	size_t got = src_peek(&r->src, 8, &p);

	if (got == 0)
		return 0;
	if (got < 8) {
		pd_reader_damage(r, off, "truncated record header (%zu of 8 "
				 "bytes)", got);
		return -1;
	}
	cur_init(&c, p, 8, off, r->swap);
	rec.type = cur_u32(&c);
	rec.misc = cur_u16(&c);
	rec.size = cur_u16(&c);
	if (!plausible_type(rec.type) || rec.size < 16)
		pd_reader_type_name(rec.type, tn, sizeof(tn));
	if (!plausible_type(rec.type)) {
		pd_reader_damage(r, off, "%s: not a record (garbage after the "
				 "last record?)", tn);
		return -1;
	}
	if (rec.size < 8 || (rec.type == PD_RECORD_COMPRESSED2 && rec.size < 16)) {
		pd_reader_damage(r, off, "%s: size %" PRIu32 " below minimum %d%s",
				 tn, rec.size, rec.type == PD_RECORD_COMPRESSED2 ? 16 : 8,
				 compressed2_hint(r, &rec));
		return -1;
	}
	got = src_peek(&r->src, rec.size, &p);
	if (got < rec.size) {
		pd_reader_type_name(rec.type, tn, sizeof(tn));
		pd_reader_damage(r, off, "%s: size %" PRIu32 " but only %zu "
				 "bytes left (truncated file?)", tn, rec.size, got);
		return -1;
	}
	if (r->src.mem)
		prefetch_around(p, rec.size);
	rec.offset = off;
	rec.decompressed = false;
	rec.stable = src_stable(&r->src);
	rec.data = p;
	rec.swap = r->swap;
	uint64_t extra = extra_size(&rec);
	*hrc = pd_reader_dispatch(r, &rec, h);
	src_consume(&r->src, rec.size);
	if (*hrc == 0 && extra && out_of_band(r, &rec, extra, h) < 0)
		return -1;
	return 1;
}

static int finish_run(struct pd_reader *r);
static void check_end(struct pd_reader *r);

/* Directory mode: after DIR/data, each DIR/data.N is a bare record
 * stream with its own zstd stream. */
static int run_parts(struct pd_reader *r, const struct pd_handlers *h)
{
	int hrc = 0;

	for (int n = 0; n < 4096 && !r->damaged; n++) {
		char path[4200];
		snprintf(path, sizeof(path), "%s/data.%d", r->dir, n);
		src_close(&r->src);
		if (src_open(&r->src, path, false) < 0)
			break;
		r->part = n;
		r->src.limit = UINT64_MAX;
		pd_zstd_release(r);
		r->zstd_broken = false;
		while (hrc == 0 && next_record(r, h, &hrc) > 0)
			;
		if (hrc)
			return hrc;
		pd_zstd_finish(r);
		check_end(r);
	}
	return finish_run(r);
}

int pd_reader_run(struct pd_reader *r, const struct pd_handlers *h)
{
	int hrc = 0, st;

	if (r->ran) {
		diag_set(&r->diag, "pd_reader_run called twice");
		return -EINVAL;
	}
	r->ran = true;
	for (size_t i = 0; i < r->nr_attrs && h->on_attr && hrc == 0; i++)
		hrc = h->on_attr(h->ctx, r->attrs[i]);
	while (hrc == 0 && (st = next_record(r, h, &hrc)) > 0)
		;
	if (hrc)
		return hrc;
	pd_zstd_finish(r);
	check_end(r);
	if (r->dir && !r->damaged)
		return run_parts(r, h);
	return finish_run(r);
}

static int finish_run(struct pd_reader *r)
{
	if (r->nr_bad > 1)
		pd_reader_note(r, "%" PRIu64 " malformed records skipped",
			       r->nr_bad);
	return 0;
}

/* After one source ended: read errors, a data section cut short. */
static void check_end(struct pd_reader *r)
{
	if (r->src.err && !r->damaged)
		pd_reader_damage(r, r->src.pos, "read error: %s",
				 strerror(-r->src.err));
	if (!r->damaged && !r->pipe && r->src.limit != UINT64_MAX &&
	    r->src.pos < r->src.limit)
		pd_reader_damage(r, r->src.pos, "data section ends at 0x%"
				 PRIx64 " but the file stops here "
				 "(truncated file)", r->src.limit);
}
