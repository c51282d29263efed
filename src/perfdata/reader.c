/*
 * reader: opens perf.data (file or pipe mode), reads header, attrs and
 * features, and streams the data section record by record.
 * Stage: perfdata. Byte order is settled here, at the edge: the magic
 * tells the writer's order and every later read goes through a cursor
 * with the swap flag. Records are framed from a bounded window
 * (source.c); COMPRESSED payloads are inflated into a second buffer that
 * holds at most one partial record between chunks (zstd.c).
 * Invariant: a record is handed on only after its whole header.size is
 * buffered; damage stops the stream with one message naming the offset
 * and record type, and everything read before it stays valid.
 */
#include "perfdata/reader_impl.h"

#include "base/cursor.h"
#include "base/strbuf.h"
#include "base/u64map.h"
#include "base/xalloc.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool host_is_be(void)
{
	const uint16_t one = 1;
	uint8_t b;
	memcpy(&b, &one, 1);
	return b == 0;
}

void pd_reader_note(struct pd_reader *r, const char *fmt, ...)
{
	struct strbuf sb = SB_INIT;
	va_list ap;

	if (r->nr_notes >= 64)
		return;
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	XGROW(r->notes, r->notes_cap, r->nr_notes + 1);
	r->notes[r->nr_notes++] = sb_detach(&sb, NULL);
}

/* First damage wins; it also ends the stream. */
void pd_reader_damage(struct pd_reader *r, uint64_t off, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	r->damaged = true;
	if (r->diag.set)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (r->part >= 0)
		diag_set_at(&r->diag, off, "data.%d: %s", r->part, msg);
	else
		diag_set_at(&r->diag, off, "%s", msg);
}

const char *pd_reader_type_name(uint32_t type, char *buf, size_t size)
{
	const char *n = pd_record_name(type);
	snprintf(buf, size, "%s (%" PRIu32 ")", n ? n : "unknown type", type);
	return buf;
}

/* ---- attrs and ids ---- */

void pd_reader_map_id(struct pd_reader *r, uint64_t id, size_t idx)
{
	if (r->ids.count >= PD_MAX_IDS &&
	    hmap_find(&r->ids, &id, sizeof(id)) == (size_t)-1) {
		if (!r->ids_full)
			pd_reader_note(r, "more than %d sample ids; the rest are "
				       "attributed to the first event", PD_MAX_IDS);
		r->ids_full = true;
		return;
	}
	size_t slot = hmap_put(&r->ids, &id, sizeof(id), NULL);
	hmap_at(&r->ids, slot)->value = idx + 1;
	r->last_attr = NULL;
}

const struct pd_attr *pd_reader_attr_by_id(const struct pd_reader *r,
					    uint64_t id)
{
	struct pd_reader *w = (struct pd_reader *)r;   /* cache only */
	size_t slot;

	if (r->last_attr && r->last_id == id)
		return r->last_attr;
	slot = hmap_find(&r->ids, &id, sizeof(id));
	if (slot == (size_t)-1)
		return NULL;
	uint64_t v = r->ids.entries[slot].value;
	if (!v || v > r->nr_attrs)
		return NULL;
	w->last_id = id;
	w->last_attr = r->attrs[v - 1];
	return w->last_attr;
}

static void set_default_name(struct pd_reader *r, struct pd_attr *a)
{
	char buf[128];

	pd_attr_default_name(a, buf, sizeof(buf));
	a->name = arena_strdup(&r->mem, buf);
}

/* Add an attr decoded from p/len with ids (n u64s at idp, file order). */
struct pd_attr *pd_reader_add_attr(struct pd_reader *r, const uint8_t *p,
				   size_t len, const uint8_t *idp, size_t n)
{
	struct pd_attr *a = arena_alloc(&r->mem, sizeof(*a));
	struct cursor c;

	memset(a, 0, sizeof(*a));
	if (pd_attr_decode(a, p, len, r->swap) < 0)
		return NULL;
	a->index = r->nr_attrs;
	if (n > PD_MAX_IDS - r->nr_ids_kept) {
		if (!r->ids_full)
			pd_reader_note(r, "more than %d sample ids; the rest are "
				       "attributed to the first event", PD_MAX_IDS);
		r->ids_full = true;
		n = PD_MAX_IDS - r->nr_ids_kept;
	}
	r->nr_ids_kept += n;
	uint64_t *ids = arena_alloc(&r->mem, n ? n * 8 : 8);
	cur_init(&c, idp, n * 8, 0, r->swap);
	for (size_t i = 0; i < n; i++) {
		ids[i] = cur_u64(&c);
		pd_reader_map_id(r, ids[i], a->index);
	}
	a->ids = ids;
	a->nr_ids = n;
	set_default_name(r, a);
	XGROW(r->attrs, r->attrs_cap, r->nr_attrs + 1);
	r->attrs[r->nr_attrs++] = a;
	r->id_pos = pd_sample_id_pos(r->attrs[0]->sample_type);
	r->trailer_pos = pd_trailer_id_pos(r->attrs[0]->sample_type);
	if (r->nr_attrs > 1 && !(a->sample_type & PD_SAMPLE_IDENTIFIER) &&
	    pd_sample_id_pos(a->sample_type) != r->id_pos)
		pd_reader_note(r, "events have non-matching sample_type "
			       "(id positions differ); samples may be "
			       "attributed to the wrong event");
	return a;
}

/* Names from EVENT_DESC (by id, else by index), tracing data, PMUs. */
void pd_reader_apply_name(struct pd_reader *r, struct pd_attr *a)
{
	const struct pd_features *f = &r->feat;
	const char *name = NULL;
	size_t i = a->index;
	const uint64_t *j = a->nr_ids ? u64map_find(&r->name_ids, a->ids[0]) : NULL;

	if (j)
		name = f->event_desc[*j - 1].name;
	if (!name && i < f->nr_event_desc &&
	    (!f->event_desc[i].nr_ids || !a->nr_ids))
		name = f->event_desc[i].name;
	if (!name && a->type == PD_TYPE_TRACEPOINT)
		name = pd_reader_tracepoint_name(r, a->config);
	if (!name && a->type >= 6)
		name = pd_reader_pmu_name(r, a);
	if (name && *name)
		a->name = name;
}

void pd_reader_apply_names(struct pd_reader *r)
{
	const struct pd_features *f = &r->feat;
	bool added;

	u64map_clear(&r->name_ids);
	for (size_t j = 0; j < f->nr_event_desc; j++) {
		const struct pd_event_desc *e = &f->event_desc[j];
		uint64_t *v = e->nr_ids ? u64map_put(&r->name_ids, e->ids[0], &added)
					: NULL;
		if (v && added)
			*v = j + 1;
	}
	for (size_t i = 0; i < r->nr_attrs; i++)
		pd_reader_apply_name(r, r->attrs[i]);
}

/* ---- public accessors ---- */

const struct diag *pd_reader_diag(const struct pd_reader *r) { return &r->diag; }
bool pd_reader_damaged(const struct pd_reader *r) { return r->damaged; }
size_t pd_reader_nr_warnings(const struct pd_reader *r) { return r->nr_notes; }
const char *pd_reader_warning(const struct pd_reader *r, size_t i)
{
	return i < r->nr_notes ? r->notes[i] : NULL;
}
bool pd_reader_is_pipe(const struct pd_reader *r) { return r->pipe; }
bool pd_reader_swapped(const struct pd_reader *r) { return r->swap; }
bool pd_reader_big_endian(const struct pd_reader *r) { return r->writer_be; }
void pd_reader_dropped(const struct pd_reader *r, struct pd_dropped *out)
{
	memset(out, 0, sizeof(*out));
	out->n = r->nr_bad_samples;
	out->total = r->stats.nr_records[PD_RECORD_SAMPLE];
	if (out->total < out->n)
		out->total = out->n;
	out->first_offset = r->bad_sample_off;
	memcpy(out->why, r->bad_sample_why, sizeof(out->why));
}

const struct pd_file_header *pd_reader_header(const struct pd_reader *r)
{
	return &r->hdr;
}
size_t pd_reader_nr_attrs(const struct pd_reader *r) { return r->nr_attrs; }
const struct pd_attr *pd_reader_attr(const struct pd_reader *r, size_t i)
{
	return i < r->nr_attrs ? r->attrs[i] : NULL;
}
const struct pd_features *pd_reader_features(const struct pd_reader *r)
{
	return &r->feat;
}
const uint8_t *pd_reader_tracing_data(const struct pd_reader *r, size_t *size)
{
	if (r->tracing_size) {
		*size = r->tracing_size;
		return r->tracing;
	}
	*size = r->feat.raw[PD_FEAT_TRACING_DATA].size;
	return r->feat.raw[PD_FEAT_TRACING_DATA].data;
}
const struct pd_reader_stats *pd_reader_stats(const struct pd_reader *r)
{
	return &r->stats;
}

/* ---- open ---- */

static struct pd_reader *reader_new(const char *name)
{
	struct pd_reader *r = xcalloc(1, sizeof(*r));

	r->name = xstrdup(name);
	hmap_init(&r->ids);
	arena_init(&r->mem);
	arena_init(&r->feat.mem);
	r->id_pos = -1;
	r->trailer_pos = -1;
	r->part = -1;
	return r;
}

void pd_reader_free(struct pd_reader *r)
{
	if (!r)
		return;
	src_close(&r->src);
	pd_zstd_release(r);
	pd_decoder_release(&r->dc);
	hmap_release(&r->ids);
	u64map_release(&r->name_ids);
	arena_release(&r->mem);
	pd_features_release(&r->feat);
	for (size_t i = 0; i < r->nr_notes; i++)
		free(r->notes[i]);
	free(r->notes);
	free(r->attrs);
	free(r->tracing);
	free(r->tp_names);
	free(r->name);
	free(r->dir);
	free(r);
}

/* Magic and mode from the first 16 bytes. */
static int detect(struct pd_reader *r, const uint8_t *p, size_t n,
		  struct diag *d)
{
	struct cursor c;
	uint64_t size;

	if (n < 16) {
		diag_set(d, "not a perf.data file: only %zu bytes", n);
		return -EINVAL;
	}
	if (memcmp(p, "PERFILE2", 8) == 0) {
		r->writer_be = false;
	} else if (memcmp(p, "2ELIFREP", 8) == 0) {
		r->writer_be = true;
	} else if (memcmp(p, "PERFFILE", 8) == 0) {
		diag_set(d, "legacy perf.data format (PERFFILE, perf before "
			 "2.6.39) is not supported");
		return -EINVAL;
	} else {
		diag_set(d, "not a perf.data file (bad magic)");
		return -EINVAL;
	}
	r->swap = r->writer_be != host_is_be();
	r->dc.writer_be = r->writer_be;
	cur_init(&c, p + 8, 8, 8, r->swap);
	size = cur_u64(&c);
	if (size == 16) {
		r->pipe = true;
		return 0;
	}
	if (size == 104 || size == 72)
		return 0;
	diag_set_at(d, 8, "header size %" PRIu64 " is neither 16 (pipe) "
		    "nor 104 (file)", size);
	return -EINVAL;
}

static struct pd_reader *finish_open(struct pd_reader *r, struct diag *d)
{
	const uint8_t *p;
	size_t n = src_peek(&r->src, 16, &p);

	if (detect(r, p, n, d) < 0) {
		pd_reader_free(r);
		return NULL;
	}
	int rc = r->pipe ? 0 : src_spool(&r->src);
	if (rc < 0) {
		diag_set(d, "file-mode perf.data on a pipe: cannot copy it to a "
			 "temporary file to read it: %s", strerror(-rc));
		pd_reader_free(r);
		return NULL;
	}
	if (r->pipe) {
		src_consume(&r->src, 16);
		return r;
	}
	if (pd_reader_open_file_mode(r, d) < 0) {
		pd_reader_free(r);
		return NULL;
	}
	return r;
}

struct pd_reader *pd_reader_open(const char *path, struct diag *d)
{
	struct pd_reader *r = reader_new(path);
	struct stat st;
	int rc;

	if (strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		/* perf record --threads: DIR/data, then DIR/data.N */
		struct strbuf sb = SB_INIT;
		sb_addf(&sb, "%s/data", path);
		r->dir = xstrdup(path);
		/* not mapped: the parts replace one another in r->src, and
		 * records must stay valid while they are queued */
		rc = src_open(&r->src, sb.buf, false);
		if (rc < 0)
			diag_set(d, "a directory, read as perf record --threads "
				 "output, but %s cannot be opened: %s", sb.buf,
				 strerror(-rc));
		sb_release(&sb);
	} else {
		rc = src_open(&r->src, path, true);
	}
	if (rc < 0) {
		diag_set(d, "cannot open: %s", strerror(-rc));
		pd_reader_free(r);
		return NULL;
	}
	return finish_open(r, d);
}

struct pd_reader *pd_reader_open_fd(int fd, const void *head, size_t head_len,
				    const char *name, struct diag *d)
{
	struct pd_reader *r = reader_new(name);
	int rc = src_open_fd(&r->src, fd, true, head, head_len);

	if (rc < 0) {
		diag_set(d, "cannot read: %s", strerror(-rc));
		pd_reader_free(r);
		return NULL;
	}
	return finish_open(r, d);
}

struct pd_reader *pd_reader_open_mem(const void *data, size_t size,
				     const char *name, struct diag *d)
{
	struct pd_reader *r = reader_new(name);

	src_open_mem(&r->src, data, size);
	return finish_open(r, d);
}
