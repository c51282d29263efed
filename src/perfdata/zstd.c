/*
 * zstd: inflating COMPRESSED / COMPRESSED2 payloads (perfdata-format.md
 * §13). Stage: perfdata. All payloads of a file form one zstd stream, so
 * one ZSTD_DStream lives as long as the reader. Output goes to dbuf;
 * complete records are dispatched at once and a record that straddles
 * two payloads waits in dbuf for the next one. dbuf grows only to fit
 * one chunk's output (capped), not with the file.
 */
#include "perfdata/reader_impl.h"

#include "base/cursor.h"
#include "base/xalloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

enum { DBUF_MIN = 1 << 20, DBUF_MAX = 512 << 20 };

void pd_zstd_release(struct pd_reader *r)
{
	if (r->zds)
		ZSTD_freeDStream(r->zds);
	r->zds = NULL;
	free(r->dbuf);
	r->dbuf = NULL;
	r->dcap = r->dpos = r->dlen = 0;
}

/* Dispatch the complete records in dbuf; keep a partial tail. */
static int drain(struct pd_reader *r, const struct pd_record *outer,
		 const struct pd_handlers *h)
{
	struct pd_record rec;
	struct cursor c;
	char tn[64], inner[64];

	while (r->dlen - r->dpos >= 8) {
		cur_init(&c, r->dbuf + r->dpos, 8, 0, r->swap);
		rec.type = cur_u32(&c);
		rec.misc = cur_u16(&c);
		rec.size = cur_u16(&c);
		if (rec.size < 8) {
			r->zstd_broken = true;
			pd_reader_damage(r, outer->offset, "%s: record of size %"
					 PRIu32 " inside the compressed data (%s)",
					 pd_reader_type_name(outer->type, tn, sizeof(tn)),
					 rec.size, pd_reader_type_name(rec.type,
					 inner, sizeof(inner)));
			return 0;
		}
		if (rec.size > r->dlen - r->dpos)
			break;
		rec.offset = outer->offset;
		rec.decompressed = true;
		rec.stable = false;
		rec.data = r->dbuf + r->dpos;
		rec.swap = r->swap;
		r->dpos += rec.size;
		int rc = pd_reader_dispatch(r, &rec, h);
		if (rc)
			return rc;
	}
	return 0;
}

static bool grow(struct pd_reader *r)
{
	size_t cap = r->dcap ? r->dcap * 2 : DBUF_MIN;

	if (cap > DBUF_MAX)
		return false;
	r->dbuf = xrealloc(r->dbuf, cap);
	r->dcap = cap;
	return true;
}

/* Move the unconsumed tail to the front of dbuf. */
static void compact(struct pd_reader *r)
{
	if (r->dpos == 0)
		return;
	memmove(r->dbuf, r->dbuf + r->dpos, r->dlen - r->dpos);
	r->dlen -= r->dpos;
	r->dpos = 0;
}

int pd_zstd_feed(struct pd_reader *r, const struct pd_record *rec,
		 const uint8_t *p, size_t n, const struct pd_handlers *h)
{
	ZSTD_inBuffer in = { p, n, 0 };
	char tn[32];

	if (r->zstd_broken)
		return 0;
	if (!r->zds) {
		r->zds = ZSTD_createDStream();
		if (!r->zds || ZSTD_isError(ZSTD_initDStream(r->zds)))
			goto broken_init;
	}
	for (;;) {
		compact(r);
		if (r->dlen == r->dcap && !grow(r)) {
			pd_reader_damage(r, rec->offset, "%s: decompressed "
					 "record larger than %d MB",
					 pd_reader_type_name(rec->type, tn, sizeof(tn)),
					 DBUF_MAX >> 20);
			r->zstd_broken = true;
			return 0;
		}
		ZSTD_outBuffer out = { r->dbuf, r->dcap, r->dlen };
		size_t zr = ZSTD_decompressStream(r->zds, &out, &in);
		if (ZSTD_isError(zr)) {
			pd_reader_damage(r, rec->offset, "%s: zstd: %s",
					 pd_reader_type_name(rec->type, tn, sizeof(tn)),
					 ZSTD_getErrorName(zr));
			r->zstd_broken = true;
			return 0;
		}
		r->dlen = out.pos;
		int rc = drain(r, rec, h);
		if (rc || r->zstd_broken)
			return rc;
		if (in.pos == in.size && out.pos < out.size)
			return 0;
	}
broken_init:
	pd_reader_damage(r, rec->offset, "cannot start zstd decompression");
	r->zstd_broken = true;
	return 0;
}

void pd_zstd_finish(struct pd_reader *r)
{
	if (!r->zstd_broken && r->dlen > r->dpos)
		pd_reader_note(r, "compressed data ends inside a record "
			       "(%zu bytes left over)", r->dlen - r->dpos);
}
