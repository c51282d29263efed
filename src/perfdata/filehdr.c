/*
 * filehdr: the file-mode header, attrs section and feature sections
 * (perfdata-format.md §2, §3, §5).
 * Stage: perfdata. Random-access reads (pread) of bounded sizes only:
 * every section is checked against the file size before it is read, the
 * attr count and id counts are capped, and a feature payload is read
 * into reader memory only when it is below a size cap, overlaps no other
 * feature (so together they never claim more than the file holds), fits
 * a budget for all features, and is a feature scorch reads at all. On
 * return the source is positioned at the data section with its limit set.
 */
#include "perfdata/reader_impl.h"

#include "base/cursor.h"
#include "base/xalloc.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	MAX_ATTRS = 1 << 16,
	MAX_IDS = 1 << 20,
	MAX_FEATURE = 64 << 20,         /* one payload read into memory */
	MAX_FEATURES_TOTAL = 128 << 20, /* all of them */
};

static bool section_ok(const struct pd_reader *r, uint64_t off, uint64_t size)
{
	return off <= r->src.file_size && size <= r->src.file_size - off;
}

/* Normalise the bitmap to LE bit numbering (byte N/8, bit N%8). */
static void read_bitmap(struct pd_reader *r, const uint8_t *p)
{
	uint8_t *out = r->hdr.features;
	struct cursor c;

	if (!r->writer_be) {
		memcpy(out, p, 32);
		return;
	}
	/* 64-bit BE words first, then 32-bit ones (perf's heuristic). */
	for (int width = 8; width >= 4; width -= 4) {
		memset(out, 0, 32);
		cur_init(&c, p, 32, 0, true);
		for (int w = 0; w < 32 / width; w++) {
			uint64_t v = width == 8 ? cur_u64(&c) : cur_u32(&c);
			for (int b = 0; b < width * 8; b++)
				if (v >> b & 1) {
					int bit = w * width * 8 + b;
					out[bit / 8] |= (uint8_t)(1 << (bit % 8));
				}
		}
		if (out[PD_FEAT_HOSTNAME / 8] & (1 << (PD_FEAT_HOSTNAME % 8)))
			return;
	}
	memset(out, 0, 32);
	out[0] = 1 << PD_FEAT_BUILD_ID;
	pd_reader_note(r, "feature bitmap unreadable; assuming build ids only");
}

static int read_header(struct pd_reader *r, struct diag *d)
{
	uint8_t h[104];
	struct cursor c;

	memset(h, 0, sizeof(h));
	if (r->src.file_size < 72 ||
	    src_pread(&r->src, h, r->src.file_size < 104 ? 72 : 104, 0) < 0) {
		diag_set(d, "file header truncated (%" PRIu64 " bytes)",
			 r->src.file_size);
		return -EINVAL;
	}
	cur_init(&c, h + 8, 96, 8, r->swap);
	r->hdr.size = cur_u64(&c);
	r->hdr.attr_size = cur_u64(&c);
	r->hdr.attrs_offset = cur_u64(&c);
	r->hdr.attrs_size = cur_u64(&c);
	r->hdr.data_offset = cur_u64(&c);
	r->hdr.data_size = cur_u64(&c);
	cur_skip(&c, 16);
	if (r->hdr.size == 104)
		read_bitmap(r, h + 72);
	r->hdr.feat_offset = r->hdr.data_offset + r->hdr.data_size;
	return 0;
}

/* What the ids sections of all attrs may hold together: the file size
 * (in a real file they don't overlap); those beyond it are ignored. */
struct ids_budget {
	uint64_t left;
	uint64_t first_off;     /* the first attr whose ids were ignored */
	uint64_t ignored;
};

static int read_one_attr(struct pd_reader *r, uint64_t off, size_t asz,
			 struct ids_budget *ib, struct diag *d)
{
	uint8_t *buf = xmalloc(asz);
	uint8_t *ids = NULL;
	uint64_t ids_off, ids_size;
	struct cursor c;
	int rc = -EINVAL;

	if (src_pread(&r->src, buf, asz, off) < 0) {
		diag_set_at(d, off, "attr truncated");
		goto out;
	}
	cur_init(&c, buf + asz - 16, 16, off + asz - 16, r->swap);
	ids_off = cur_u64(&c);
	ids_size = cur_u64(&c);
	if (ids_size / 8 > MAX_IDS || !section_ok(r, ids_off, ids_size)) {
		pd_reader_note(r, "attr at offset 0x%" PRIx64 ": ids section "
			       "out of the file; ignored", off);
		ids_size = 0;
	} else if (ids_size > ib->left) {
		if (ib->ignored++ == 0)
			ib->first_off = off;
		ids_size = 0;
	}
	ib->left -= ids_size;
	ids_size -= ids_size % 8;
	ids = xmalloc(ids_size ? ids_size : 1);
	if (ids_size && src_pread(&r->src, ids, ids_size, ids_off) < 0)
		ids_size = 0;
	if (!pd_reader_add_attr(r, buf, asz - 16, ids, ids_size / 8)) {
		diag_set_at(d, off, "attr size field does not fit attr_size "
			    "%zu", asz);
		goto out;
	}
	rc = 0;
out:
	free(buf);
	free(ids);
	return rc;
}

static int read_attrs(struct pd_reader *r, struct diag *d)
{
	uint64_t asz = r->hdr.attr_size, n;

	if (asz == 0) {
		diag_set_at(d, 16, "attr_size is 0 (was perf record properly "
			    "terminated?)");
		return -EINVAL;
	}
	if (asz < 64 + 16 || asz > 4096) {
		diag_set_at(d, 16, "attr_size %" PRIu64 " out of range", asz);
		return -EINVAL;
	}
	if (!section_ok(r, r->hdr.attrs_offset, r->hdr.attrs_size)) {
		diag_set_at(d, 24, "attrs section (offset 0x%" PRIx64 ", size %"
			    PRIu64 ") lies beyond the end of the file",
			    r->hdr.attrs_offset, r->hdr.attrs_size);
		return -EINVAL;
	}
	n = r->hdr.attrs_size / asz;
	if (n == 0 || n > MAX_ATTRS) {
		diag_set_at(d, 32, "attrs section holds %" PRIu64 " attrs", n);
		return -EINVAL;
	}
	struct ids_budget ib = { r->src.file_size, 0, 0 };
	for (uint64_t i = 0; i < n; i++)
		if (read_one_attr(r, r->hdr.attrs_offset + i * asz, (size_t)asz,
				  &ib, d) < 0)
			return -EINVAL;
	if (ib.ignored)
		pd_reader_note(r, "ids sections of %" PRIu64 " attr(s) ignored, "
			       "the first at offset 0x%" PRIx64 ": together they "
			       "claim more than the file holds", ib.ignored,
			       ib.first_off);
	return 0;
}

/* Features whose payload nobody reads: their bytes stay in the file. */
static bool payload_unused(unsigned bit)
{
	return bit >= PD_FEAT_LAST_KNOWN || bit == PD_FEAT_RESERVED ||
	       bit == PD_FEAT_AUXTRACE || bit == PD_FEAT_STAT ||
	       bit == PD_FEAT_DIR_FORMAT || bit == PD_FEAT_BPF_PROG_INFO ||
	       bit == PD_FEAT_BPF_BTF || bit == PD_FEAT_CPU_DOMAIN_INFO;
}

static const char *feat_label(unsigned bit, char *buf, size_t size)
{
	const char *name = pd_feature_name(bit);
	if (name)
		return name;
	snprintf(buf, size, "bit %u", bit);
	return buf;
}

/* A feature section accepted so far. */
struct feat_span {
	unsigned bit;
	uint64_t off, size;
};

/* The accepted feature that [off, off + size) overlaps, or -1. */
static int overlapping(const struct feat_span *seen, int nseen, uint64_t off,
		       uint64_t size)
{
	for (int i = 0; i < nseen; i++)
		if (size && seen[i].size && off < seen[i].off + seen[i].size &&
		    seen[i].off < off + size)
			return (int)seen[i].bit;
	return -1;
}

/* Whether feature bit's section may be read; else *why says why not
 * (the first time). */
static bool feature_ok(struct pd_reader *r, unsigned bit, uint64_t foff,
		       uint64_t fsize, const struct feat_span *seen, int nseen,
		       uint64_t budget, char *why, size_t why_size)
{
	char b1[16], b2[16];
	const char *name = feat_label(bit, b1, sizeof(b1));
	const char *what;
	int other = -1;

	if (!section_ok(r, foff, fsize))
		what = "out of the file";
	else if (fsize > MAX_FEATURE)
		what = "larger than 64 MiB";
	else if ((other = overlapping(seen, nseen, foff, fsize)) >= 0)
		what = "overlaps the section of feature ";
	else if (fsize > budget)
		what = "beyond the 128 MiB all features may take";
	else
		return true;
	if (!*why)
		snprintf(why, why_size, "feature %s: section (offset 0x%" PRIx64
			 ", size %" PRIu64 ") %s%s", name, foff, fsize, what,
			 other >= 0 ? feat_label((unsigned)other, b2, sizeof(b2)) : "");
	r->feat.state[bit] = PD_FEAT_BAD;
	return false;
}

static void read_features(struct pd_reader *r)
{
	const uint8_t *bm = r->hdr.features;
	uint64_t off = r->hdr.feat_offset;
	struct feat_span seen[PD_FEAT_MAX];
	uint64_t budget = MAX_FEATURES_TOTAL;
	int nr = 0, nseen = 0, nbad = 0;
	char why[160] = "";

	for (int bit = 0; bit < PD_FEAT_MAX; bit++)
		nr += bm[bit / 8] >> (bit % 8) & 1;
	if (nr == 0)
		return;
	if (!section_ok(r, off, (uint64_t)nr * 16)) {
		pd_reader_note(r, "feature table at offset 0x%" PRIx64
			       " lies beyond the end of the file", off);
		return;
	}
	uint8_t *tab = xmalloc((size_t)nr * 16);
	struct cursor c;
	src_pread(&r->src, tab, (size_t)nr * 16, off);
	cur_init(&c, tab, (size_t)nr * 16, off, r->swap);
	for (int bit = 0; bit < PD_FEAT_MAX; bit++) {
		if (!(bm[bit / 8] >> (bit % 8) & 1))
			continue;
		uint64_t foff = cur_u64(&c), fsize = cur_u64(&c);
		char b1[16];
		const char *fname = feat_label((unsigned)bit, b1, sizeof(b1));
		if (!feature_ok(r, (unsigned)bit, foff, fsize, seen, nseen, budget,
				why, sizeof(why))) {
			nbad++;
			continue;
		}
		seen[nseen++] = (struct feat_span){ (unsigned)bit, foff, fsize };
		r->feat.raw[bit].offset = foff;
		if (payload_unused((unsigned)bit)) {
			r->feat.state[bit] = PD_FEAT_OK;
			r->feat.raw[bit].size = (size_t)fsize;
			continue;
		}
		budget -= fsize;
		const uint8_t *data = r->src.mem ? r->src.mem + foff : NULL;
		if (!data) {
			uint8_t *copy = arena_alloc(&r->feat.mem, fsize ? fsize : 1);
			if (src_pread(&r->src, copy, (size_t)fsize, foff) < 0)
				continue;
			data = copy;
		}
		int rc = pd_feature_parse(&r->feat, (unsigned)bit, data,
					  (size_t)fsize);
		if (rc < 0)
			pd_reader_note(r, "feature %s unreadable (offset 0x%"
				       PRIx64 ", size %" PRIu64 ")%s",
				       fname, foff, fsize,
				       rc == -EPROTO ? ": written in the other "
				       "byte order" : "");
	}
	free(tab);
	if (nbad)
		pd_reader_note(r, "%d feature section(s) ignored; the first: %s",
			       nbad, why);
}

int pd_reader_open_file_mode(struct pd_reader *r, struct diag *d)
{
	uint64_t fsize = r->src.file_size;

	if (!r->src.seekable) {
		diag_set(d, "file-mode perf.data on a pipe cannot be read: "
			 "record with 'perf record -o -' or pass a file");
		return -EINVAL;
	}
	r->feat.swap = r->swap;
	if (read_header(r, d) < 0 || read_attrs(r, d) < 0)
		return -EINVAL;
	if (r->hdr.data_offset > fsize) {
		diag_set_at(d, 40, "data section starts at 0x%" PRIx64
			    ", beyond the end of the file (%" PRIu64 " bytes)",
			    r->hdr.data_offset, fsize);
		return -EINVAL;
	}
	if (r->hdr.data_size == 0) {
		pd_reader_note(r, "data size is 0: the file was not finalized "
			       "(perf record killed?); reading records up to "
			       "the end of the file");
		r->src.limit = UINT64_MAX;
	} else {
		r->src.limit = r->hdr.data_offset + r->hdr.data_size;
		if (r->src.limit < r->hdr.data_offset)
			r->src.limit = UINT64_MAX;
		read_features(r);
	}
	pd_reader_apply_names(r);
	return src_seek(&r->src, r->hdr.data_offset);
}
