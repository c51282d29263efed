/*
 * writer: perf.data output in file or pipe mode, with zstd (see writer.h).
 * Stage: perfdata. Key invariant: w->pos is the file offset of the next
 * byte, whether it still sits in the output buffer or not; the header is
 * written last (file mode), with the real data and feature offsets.
 */
#include "perfdata/writer.h"
#include "base/fdio.h"
#include "base/xalloc.h"
#include "perfdata/record.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

enum {
	WRITER_BUF = 1 << 20,
	HEADER_SIZE = 104,
	PIPE_HEADER_SIZE = 16,
	/* largest COMPRESSED payload: header.size is a u16 */
	ZMAX = 65535 - 8 - 7,
	/* input given to zstd at once, so each COMPRESSED record holds
	 * whole records and decompresses into perf's mmap_len buffer */
	ZIN = 32 << 10,
};

/* ---- low-level output ---- */

static int fail(struct pd_writer *w, int err, const char *what)
{
	if (!w->err) {
		w->err = err;
		diag_set(&w->diag, "%s: %s", what, strerror(-err));
	}
	return w->err;
}

static int write_all(struct pd_writer *w, const void *p, size_t len)
{
	int rc = fd_write_all(w->fd, p, len);
	return rc < 0 ? fail(w, rc, "write") : 0;
}

int pd_writer_flush(struct pd_writer *w)
{
	if (w->err)
		return w->err;
	int r = write_all(w, w->buf, w->len);
	w->len = 0;
	return r;
}

static int emit(struct pd_writer *w, const void *p, size_t len)
{
	if (w->err)
		return w->err;
	w->pos += len;
	if (len >= w->cap) {
		int r = pd_writer_flush(w);
		return r ? r : write_all(w, p, len);
	}
	if (w->len + len > w->cap && pd_writer_flush(w))
		return w->err;
	memcpy(w->buf + w->len, p, len);
	w->len += len;
	return 0;
}

static int emit_zeros(struct pd_writer *w, size_t n)
{
	static const uint8_t zero[64];
	while (n) {
		size_t k = n < sizeof(zero) ? n : sizeof(zero);
		if (emit(w, zero, k))
			return w->err;
		n -= k;
	}
	return 0;
}

static void put_header(uint8_t *p, uint32_t type, uint16_t misc, uint16_t size)
{
	memcpy(p, &type, 4);
	memcpy(p + 4, &misc, 2);
	memcpy(p + 6, &size, 2);
}

/* ---- feature payload helpers ---- */

void pd_feat_u32(struct strbuf *sb, uint32_t v)
{
	sb_add(sb, &v, 4);
}

void pd_feat_u64(struct strbuf *sb, uint64_t v)
{
	sb_add(sb, &v, 8);
}

void pd_feat_string(struct strbuf *sb, const char *s)
{
	size_t n = strlen(s) + 1;
	size_t padded = (n + 63) & ~(size_t)63;
	pd_feat_u32(sb, (uint32_t)padded);
	sb_add(sb, s, n);
	for (size_t i = n; i < padded; i++)
		sb_addc(sb, 0);
}

/* ---- setup ---- */

int pd_writer_open(struct pd_writer *w, int fd, bool pipe)
{
	memset(w, 0, sizeof(*w));
	w->fd = fd;
	w->pipe = pipe;
	w->cap = WRITER_BUF;
	w->buf = xmalloc(w->cap);
	for (size_t i = 0; i < PD_FEAT_LAST_KNOWN; i++)
		sb_init(&w->feat[i]);
	return 0;
}

int pd_writer_compress(struct pd_writer *w, int level, uint32_t mmap_len)
{
	ZSTD_CStream *z = ZSTD_createCStream();
	if (!z)
		return -ENOMEM;
	if (ZSTD_isError(ZSTD_initCStream(z, level))) {
		ZSTD_freeCStream(z);
		return -ENOTSUP;
	}
	w->zstd = z;
	w->zlevel = level;
	w->mmap_len = mmap_len;
	w->zbuf = xmalloc(8 + ZMAX + 8);
	return 0;
}

void pd_writer_add_attr(struct pd_writer *w, const void *attr,
			const uint64_t *ids, size_t nr_ids, const char *name)
{
	w->attrs = xreallocarray(w->attrs, w->nr_attrs + 1, sizeof(*w->attrs));
	struct pd_writer_attr *a = &w->attrs[w->nr_attrs++];
	memcpy(a->attr, attr, PD_WRITER_ATTR_SIZE);
	a->ids = xmemdup(ids, nr_ids ? nr_ids * sizeof(*ids) : 1);
	a->nr_ids = nr_ids;
	a->name = xstrdup(name);
}

void pd_writer_set_feature(struct pd_writer *w, unsigned bit,
			   const void *payload, size_t len)
{
	if (bit == 0 || bit >= PD_FEAT_LAST_KNOWN)
		return;
	sb_reset(&w->feat[bit]);
	sb_add(&w->feat[bit], payload, len);
	w->has_feat[bit] = true;
}

void pd_writer_event_desc(struct pd_writer *w)
{
	struct strbuf sb = SB_INIT;
	pd_feat_u32(&sb, (uint32_t)w->nr_attrs);
	pd_feat_u32(&sb, PD_WRITER_ATTR_SIZE);
	for (size_t i = 0; i < w->nr_attrs; i++) {
		struct pd_writer_attr *a = &w->attrs[i];
		sb_add(&sb, a->attr, PD_WRITER_ATTR_SIZE);
		pd_feat_u32(&sb, (uint32_t)a->nr_ids);
		pd_feat_string(&sb, a->name);
		sb_add(&sb, a->ids, a->nr_ids * sizeof(uint64_t));
	}
	pd_writer_set_feature(w, PD_FEAT_EVENT_DESC, sb.buf, sb.len);
	sb_release(&sb);
}

void pd_writer_tracing_data(struct pd_writer *w, const void *p, size_t len)
{
	pd_writer_set_feature(w, PD_FEAT_TRACING_DATA, p, len);
}

/* ---- begin: header, attrs (file) or metadata records (pipe) ---- */

static int begin_file(struct pd_writer *w)
{
	if (emit_zeros(w, HEADER_SIZE))
		return w->err;
	for (size_t i = 0; i < w->nr_attrs; i++)
		emit(w, w->attrs[i].ids, w->attrs[i].nr_ids * 8);
	uint64_t id_off = HEADER_SIZE;
	for (size_t i = 0; i < w->nr_attrs; i++) {
		struct pd_writer_attr *a = &w->attrs[i];
		uint64_t sec[2] = { id_off, a->nr_ids * 8 };
		emit(w, a->attr, PD_WRITER_ATTR_SIZE);
		emit(w, sec, sizeof(sec));
		id_off += a->nr_ids * 8;
	}
	w->data_offset = w->pos;
	return w->err;
}

static int pipe_attr(struct pd_writer *w, const struct pd_writer_attr *a)
{
	size_t size = 8 + PD_WRITER_ATTR_SIZE + a->nr_ids * 8;
	uint8_t h[8];
	if (size > 65535)
		return fail(w, -E2BIG, "HEADER_ATTR");
	put_header(h, PD_RECORD_HEADER_ATTR, 0, (uint16_t)size);
	emit(w, h, 8);
	emit(w, a->attr, PD_WRITER_ATTR_SIZE);
	return emit(w, a->ids, a->nr_ids * 8);
}

static int pipe_feature(struct pd_writer *w, unsigned bit)
{
	const struct strbuf *p = &w->feat[bit];
	size_t size = 16 + p->len;
	size_t padded = (size + 7) & ~(size_t)7;
	uint8_t h[16];
	uint64_t id = bit;
	if (padded > 65535)
		return fail(w, -E2BIG, "HEADER_FEATURE");
	put_header(h, PD_RECORD_HEADER_FEATURE, 0, (uint16_t)padded);
	memcpy(h + 8, &id, 8);
	emit(w, h, 16);
	emit(w, p->buf, p->len);
	return emit_zeros(w, padded - size);
}

/* HEADER_TRACING_DATA: the payload follows outside header.size, padded
 * to 8 bytes; the size field holds the padded length (as perf writes). */
static int pipe_tracing(struct pd_writer *w)
{
	const struct strbuf *p = &w->feat[PD_FEAT_TRACING_DATA];
	size_t padded = (p->len + 7) & ~(size_t)7;
	uint8_t h[16] = { 0 };
	uint32_t size32 = (uint32_t)padded;
	put_header(h, PD_RECORD_HEADER_TRACING_DATA, 0, 16);
	memcpy(h + 8, &size32, 4);
	emit(w, h, 16);
	emit(w, p->buf, p->len);
	return emit_zeros(w, padded - p->len);
}

static int begin_pipe(struct pd_writer *w)
{
	uint64_t h[2] = { PD_WRITER_MAGIC, PIPE_HEADER_SIZE };
	emit(w, h, sizeof(h));
	for (size_t i = 0; i < w->nr_attrs; i++)
		pipe_attr(w, &w->attrs[i]);
	for (unsigned bit = 1; bit < PD_FEAT_LAST_KNOWN; bit++)
		if (w->has_feat[bit] && bit != PD_FEAT_TRACING_DATA &&
		    bit != PD_FEAT_BUILD_ID)
			pipe_feature(w, bit);
	if (w->has_feat[PD_FEAT_TRACING_DATA])
		pipe_tracing(w);
	w->data_offset = w->pos;
	return w->err;
}

int pd_writer_begin(struct pd_writer *w)
{
	if (!w->has_feat[PD_FEAT_EVENT_DESC])
		pd_writer_event_desc(w);
	if (w->zstd) {
		struct strbuf sb = SB_INIT;
		pd_feat_u32(&sb, 0);            /* version */
		pd_feat_u32(&sb, 1);            /* type: zstd */
		pd_feat_u32(&sb, (uint32_t)w->zlevel);
		pd_feat_u32(&sb, 1);            /* ratio, set again at finish */
		pd_feat_u32(&sb, w->mmap_len);
		pd_writer_set_feature(w, PD_FEAT_COMPRESSED, sb.buf, sb.len);
		sb_release(&sb);
	}
	return w->pipe ? begin_pipe(w) : begin_file(w);
}

/* ---- records ---- */

int pd_writer_record(struct pd_writer *w, const void *rec, size_t len)
{
	return emit(w, rec, len);
}

static int emit_compressed(struct pd_writer *w, size_t n)
{
	put_header(w->zbuf, PD_RECORD_COMPRESSED, 0, (uint16_t)(8 + n));
	w->bytes_out += 8 + n;
	return emit(w, w->zbuf, 8 + n);
}

/* Compress up to ZIN (or mmap_len) bytes of whole records and flush them into one or
 * more COMPRESSED records. */
static int compress_chunk(struct pd_writer *w, const void *p, size_t len)
{
	ZSTD_inBuffer in = { p, len, 0 };
	size_t left;
	do {
		ZSTD_outBuffer out = { w->zbuf + 8, ZMAX, 0 };
		left = ZSTD_compressStream2(w->zstd, &out, &in, ZSTD_e_flush);
		if (ZSTD_isError(left)) {
			diag_set(&w->diag, "zstd: %s", ZSTD_getErrorName(left));
			return fail(w, -EIO, "zstd");
		}
		if (out.pos && emit_compressed(w, out.pos))
			return w->err;
	} while (left || in.pos < in.size);
	w->bytes_in += len;
	return 0;
}

/* Length of the longest prefix of whole records not above max (at least
 * one record). */
static size_t whole_records(const uint8_t *p, size_t len, size_t max)
{
	size_t n = 0;
	while (n + 8 <= len) {
		uint16_t size;
		memcpy(&size, p + n + 6, 2);
		if (size < 8 || n + size > len)
			return len;   /* not records: pass the rest as is */
		if (n && n + size > max)
			break;
		n += size;
	}
	return n ? n : len;
}

int pd_writer_data(struct pd_writer *w, const void *p, size_t len)
{
	if (!w->zstd)
		return emit(w, p, len);
	const uint8_t *c = p;
	while (len && !w->err) {
		/* perf decompresses each record into an mmap_len buffer */
		size_t max = w->mmap_len && w->mmap_len < ZIN ? w->mmap_len : ZIN;
		size_t n = whole_records(c, len, max);
		compress_chunk(w, c, n);
		c += n;
		len -= n;
	}
	return w->err;
}

/* ---- finish ---- */

static void set_ratio(struct pd_writer *w)
{
	if (!w->zstd || !w->has_feat[PD_FEAT_COMPRESSED])
		return;
	uint32_t ratio = w->bytes_out ? (uint32_t)(w->bytes_in / w->bytes_out) : 1;
	if (ratio == 0)
		ratio = 1;
	memcpy(w->feat[PD_FEAT_COMPRESSED].buf + 12, &ratio, 4);
}

static int finish_file(struct pd_writer *w)
{
	uint64_t data_size = w->pos - w->data_offset;
	uint64_t bitmap[4] = { 0 };
	size_t nr = 0;
	set_ratio(w);
	for (unsigned bit = 1; bit < PD_FEAT_LAST_KNOWN; bit++)
		if (w->has_feat[bit]) {
			bitmap[bit / 64] |= 1ULL << (bit % 64);
			nr++;
		}
	uint64_t off = w->pos + nr * 16;
	for (unsigned bit = 1; bit < PD_FEAT_LAST_KNOWN; bit++) {
		if (!w->has_feat[bit])
			continue;
		uint64_t sec[2] = { off, w->feat[bit].len };
		emit(w, sec, sizeof(sec));
		off += w->feat[bit].len;
	}
	for (unsigned bit = 1; bit < PD_FEAT_LAST_KNOWN; bit++)
		if (w->has_feat[bit])
			emit(w, w->feat[bit].buf, w->feat[bit].len);
	if (pd_writer_flush(w))
		return w->err;

	uint64_t h[13] = {
		PD_WRITER_MAGIC, HEADER_SIZE, PD_WRITER_ATTR_SIZE + 16,
		w->data_offset - w->nr_attrs * (PD_WRITER_ATTR_SIZE + 16),
		w->nr_attrs * (PD_WRITER_ATTR_SIZE + 16),
		w->data_offset, data_size, 0, 0,
		bitmap[0], bitmap[1], bitmap[2], bitmap[3],
	};
	if (pwrite(w->fd, h, sizeof(h), 0) != (ssize_t)sizeof(h))
		return fail(w, -errno ? -errno : -EIO, "rewriting the header");
	return 0;
}

int pd_writer_finish(struct pd_writer *w)
{
	int r = w->err;
	if (!r)
		r = w->pipe ? pd_writer_flush(w) : finish_file(w);
	pd_writer_release(w);
	return r;
}

void pd_writer_release(struct pd_writer *w)
{
	for (size_t i = 0; i < w->nr_attrs; i++) {
		free(w->attrs[i].ids);
		free(w->attrs[i].name);
	}
	free(w->attrs);
	w->attrs = NULL;
	w->nr_attrs = 0;
	for (size_t i = 0; i < PD_FEAT_LAST_KNOWN; i++)
		sb_release(&w->feat[i]);
	if (w->zstd)
		ZSTD_freeCStream(w->zstd);
	w->zstd = NULL;
	free(w->zbuf);
	w->zbuf = NULL;
	free(w->buf);
	w->buf = NULL;
}
