/*
 * lazyinfo: compressed DWARF sections inflated by scorch, .debug_info on
 * demand (see lazyinfo.h).
 * Stage: symbols. Each section's Elf_Data (what libdw reads) is pointed
 * at our buffer of the inflated size; for .debug_info its d_size is the
 * inflated prefix. The compressed streams stay in libelf's mapping of
 * the file and are inflated forward only, never twice: zlib streams by
 * ISA-L (2.5x zlib's speed here), zstd streams by libzstd (which libdw
 * 0.188 cannot read at all).
 * Invariant: info.data->d_size == info.done, except once the stream
 * broke: then the end of the last whole unit in it (libdw never sees a
 * cut unit); every unit lazy_info_need returned for lies wholly below
 * info.done; all reads of the streams and of .debug_aranges are
 * bounds-checked (the file is untrusted). A compressed section whose
 * header claims more than its stream can hold, or that we can't inflate,
 * is hidden from libdw (SHT_NOBITS): libelf would allocate whatever the
 * header claims.
 */
#include "symbols/lazyinfo.h"

#include "base/xalloc.h"
#include "symbols/elf.h"

#include <isa-l/igzip_lib.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#define ZSTD_STATIC_LINKING_ONLY   /* ZSTD_decompressBound */
#include <zstd.h>

#ifndef ELFCOMPRESS_ZSTD
#define ELFCOMPRESS_ZSTD 2
#endif

enum { FIRST_CHUNK = 4 << 10, SLACK = 64 << 10 };

struct arange {
	uint64_t start, end, unit;
};

/* One compressed section being inflated into out. */
struct zsec {
	Elf_Data *data;         /* libdw's view: d_buf = out, d_size = done */
	uint8_t *out;           /* size bytes, done of them inflated */
	uint64_t size, done;
	const uint8_t *in;      /* the compressed stream */
	size_t in_len;
	struct inflate_state *isal;  /* zlib streams */
	ZSTD_DStream *zs;            /* zstd streams */
	size_t zs_pos;
	bool broken;            /* the stream failed: done is all there is */
};

struct lazy_info {
	struct zsec info;       /* .debug_info, on demand (info.data NULL:
				 * not lazy, inflated with the others) */
	struct zsec *others;    /* inflated whole at setup */
	size_t nothers, others_cap;
	bool be;                /* big-endian file (unit lengths) */
	struct arange *ar;      /* sorted by start */
	size_t nar, ar_cap;
	struct { uint64_t lo, hi; } plt[4];  /* .plt* sections' addresses */
	size_t nplt;
};

static uint64_t rd(const uint8_t *p, int n, bool be)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++)
		v |= (uint64_t)p[be ? i : n - 1 - i] << (8 * (n - 1 - i));
	return v;
}

/* A DWARF initial length at p, with left bytes there: *len the length
 * that follows, *hdr its own size (4, or 12 for 64-bit DWARF). False
 * when the bytes are short or the value is reserved. */
static bool unit_length(const uint8_t *p, uint64_t left, bool be,
			uint64_t *len, int *hdr)
{
	if (left < 4)
		return false;
	*len = rd(p, 4, be);
	*hdr = 4;
	if (*len == 0xffffffffu) {
		if (left < 12)
			return false;
		*len = rd(p + 4, 8, be);
		*hdr = 12;
	} else if (*len >= 0xfffffff0u) {
		return false;
	}
	return true;
}

/* ---- .debug_aranges ---- */

static void add_range(struct lazy_info *l, uint64_t start, uint64_t len,
		      uint64_t unit)
{
	if (len == 0)
		return;
	XGROW(l->ar, l->ar_cap, l->nar + 1);
	l->ar[l->nar].start = start;
	l->ar[l->nar].end = start + len < start ? UINT64_MAX : start + len;
	l->ar[l->nar].unit = unit;
	l->nar++;
}

/* The tuples of one set (DWARF 2-5 aranges, version 2): p..end. */
static void read_set(struct lazy_info *l, const uint8_t *set,
		     const uint8_t *p, const uint8_t *end, int off_size)
{
	if (end - p < 2 + off_size + 2 || rd(p, 2, l->be) != 2)
		return;
	uint64_t unit = rd(p + 2, off_size, l->be);
	p += 2 + off_size;
	int asz = p[0], seg = p[1];
	p += 2;
	if ((asz != 4 && asz != 8) || seg != 0)
		return;
	size_t tuple = 2 * (size_t)asz, used = (size_t)(p - set);
	size_t pad = (tuple - used % tuple) % tuple;
	if ((size_t)(end - p) < pad)
		return;
	for (p += pad; (size_t)(end - p) >= tuple; p += tuple) {
		uint64_t a = rd(p, asz, l->be), n = rd(p + asz, asz, l->be);
		if (a == 0 && n == 0)
			break;
		add_range(l, a, n, unit);
	}
}

static int by_start(const void *pa, const void *pb)
{
	const struct arange *a = pa, *b = pb;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->unit < b->unit ? -1 : a->unit > b->unit;
}

/* After take_others: the section is plain (or ours) by now. */
static bool read_aranges(struct lazy_info *l, Elf *e)
{
	Elf_Scn *scn = sym_elf_section(e, ".debug_aranges");
	GElf_Shdr sh;
	if (!scn || !gelf_getshdr(scn, &sh) || (sh.sh_flags & SHF_COMPRESSED))
		return false;
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!d || !d->d_buf)
		return false;
	const uint8_t *p = d->d_buf, *end = p + d->d_size;
	uint64_t len;
	int hdr;
	while (unit_length(p, (uint64_t)(end - p), l->be, &len, &hdr) &&
	       len <= (uint64_t)(end - p) - (uint64_t)hdr) {
		/* offsets in the set are as wide as 64-bit DWARF says */
		read_set(l, p, p + hdr, p + hdr + len, hdr == 12 ? 8 : 4);
		p += hdr + len;
	}
	if (l->nar == 0)
		return false;
	qsort(l->ar, l->nar, sizeof(*l->ar), by_start);
	return true;
}

bool lazy_info_unit_of(const struct lazy_info *l, uint64_t addr, uint64_t *off)
{
	size_t lo = 0, hi = l->nar;   /* first range starting above addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->ar[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* ranges of different units don't overlap in sane files: look at
	 * a few before, in case they do */
	for (size_t i = lo, k = 0; i > 0 && k < 8; i--, k++) {
		if (addr < l->ar[i - 1].end) {
			*off = l->ar[i - 1].unit;
			return true;
		}
	}
	return false;
}

/* ---- inflating ---- */

static void zsec_step(struct zsec *z, uint64_t want, bool *end)
{
	uint64_t room = want - z->done;
	if (z->isal) {
		z->isal->next_out = z->out + z->done;
		z->isal->avail_out = room > UINT32_MAX ? UINT32_MAX : (uint32_t)room;
		int rc = isal_inflate(z->isal);
		uint64_t now = (uint64_t)(z->isal->next_out - z->out);
		*end = z->isal->block_state == ISAL_BLOCK_FINISH;
		if (rc < 0 || (now == z->done && !*end))
			z->broken = true;
		z->done = now;
		return;
	}
	ZSTD_outBuffer o = { z->out + z->done, (size_t)room, 0 };
	ZSTD_inBuffer i = { z->in, z->in_len, z->zs_pos };
	size_t rc = ZSTD_decompressStream(z->zs, &o, &i);
	/* the stream may be several frames (the format allows it, and a
	 * linker compressing in parallel shards writes them): the end is
	 * the end of the last one */
	*end = rc == 0 && i.pos == i.size;
	if (ZSTD_isError(rc) || (o.pos == 0 && i.pos == z->zs_pos && !*end))
		z->broken = true;
	z->zs_pos = i.pos;
	z->done += o.pos;
}

static int inflate_to(struct zsec *z, uint64_t want)
{
	if (want > z->size)
		want = z->size;
	while (z->done < want && !z->broken) {
		bool end = false;
		zsec_step(z, want, &end);
		if (end && z->done < z->size)
			z->broken = true;
		if (end)
			break;
	}
	z->data->d_size = (size_t)z->done;
	return z->done >= want ? 0 : -1;
}

/* The end of the last unit wholly inside the first n bytes of p. */
static uint64_t whole_units(const uint8_t *p, uint64_t n, bool be)
{
	uint64_t off = 0, len;
	int hdr;
	while (unit_length(p + off, n - off, be, &len, &hdr) &&
	       len <= n - off - (uint64_t)hdr)
		off += (uint64_t)hdr + len;
	return off;
}

/* inflate_to for .debug_info: a broken stream shows whole units only. */
static int info_to(struct lazy_info *l, uint64_t want)
{
	int rc = inflate_to(&l->info, want);
	if (l->info.broken)
		l->info.data->d_size =
			(size_t)whole_units(l->info.out, l->info.done, l->be);
	return rc;
}

int lazy_info_need(struct lazy_info *l, uint64_t off)
{
	struct zsec *z = &l->info;
	uint64_t before = z->done;
	uint64_t len;
	int hdr;
	if (off > z->size || z->size - off < 12 || info_to(l, off + 12) < 0 ||
	    !unit_length(z->out + off, 12, l->be, &len, &hdr) ||
	    len > z->size - off - (uint64_t)hdr)
		return -1;
	/* and a little more: neighbouring units often come next */
	uint64_t end = off + (uint64_t)hdr + len;
	if (end > z->done)
		end = end + SLACK < end ? z->size : end + SLACK;
	if (info_to(l, end) < 0)
		return -1;
	return z->done > before;
}

int lazy_info_all(struct lazy_info *l)
{
	if (!l->info.data)
		return 0;
	uint64_t before = l->info.done;
	int rc = info_to(l, l->info.size);
	return l->info.done > before ? 1 : rc;
}

bool lazy_info_complete(const struct lazy_info *l)
{
	return !l->info.data || l->info.done == l->info.size || l->info.broken;
}

/* ---- setup ---- */

/* Whether the stream can inflate to size bytes: deflate writes at most
 * 1032 bytes per input byte (a 258-byte match in 2 bits); zstd's bound
 * comes from its frame headers (the content size, or blocks of at most
 * 128 KB), and the stream must be whole frames. */
static bool plausible(int type, const uint8_t *in, size_t in_len, uint64_t size)
{
	if (type == ELFCOMPRESS_ZLIB)
		return size / 1032 <= in_len;
	unsigned long long bound = ZSTD_decompressBound(in, in_len);
	return bound != ZSTD_CONTENTSIZE_ERROR && size <= bound;
}

/* The section's compression header: its stream, inflated size and
 * algorithm (0 when not one we inflate, or when the header lies). */
static int read_chdr(Elf *e, const Elf_Data *raw, bool be, struct zsec *z)
{
	bool is64 = gelf_getclass(e) == ELFCLASS64;
	size_t hdr = is64 ? sizeof(Elf64_Chdr) : sizeof(Elf32_Chdr);
	if (!raw || !raw->d_buf || raw->d_size <= hdr)
		return 0;
	const uint8_t *p = raw->d_buf;
	uint64_t type = rd(p, 4, be);
	z->size = is64 ? rd(p + 8, 8, be) : rd(p + 4, 4, be);
	z->in = p + hdr;
	z->in_len = raw->d_size - hdr;
	if (z->size == 0 || z->size > SIZE_MAX / 2 || z->in_len > UINT32_MAX ||
	    (type != ELFCOMPRESS_ZLIB && type != ELFCOMPRESS_ZSTD) ||
	    !plausible((int)type, z->in, z->in_len, z->size))
		return 0;
	return (int)type;
}

static bool zsec_start(struct zsec *z, int type)
{
	if (type == ELFCOMPRESS_ZLIB) {
		z->isal = xmalloc(sizeof(*z->isal));
		isal_inflate_init(z->isal);
		z->isal->crc_flag = ISAL_ZLIB;
		z->isal->next_in = (uint8_t *)z->in;
		z->isal->avail_in = (uint32_t)z->in_len;
	} else {
		z->zs = ZSTD_createDStream();
		if (!z->zs || ZSTD_isError(ZSTD_initDStream(z->zs)))
			return false;
	}
	z->out = malloc((size_t)z->size);
	return z->out != NULL;
}

static void zsec_release(struct zsec *z)
{
	free(z->isal);
	ZSTD_freeDStream(z->zs);
	free(z->out);
}

/* libdw sees no bytes in scn. */
static void hide(Elf_Scn *scn)
{
	GElf_Shdr sh;
	if (gelf_getshdr(scn, &sh)) {
		sh.sh_type = SHT_NOBITS;
		gelf_update_shdr(scn, &sh);
	}
}

/* Take scn over: from now on libdw sees a plain section holding what
 * z inflates. False leaves scn as it was. */
static bool take_over(Elf *e, Elf_Scn *scn, bool be, struct zsec *z)
{
	GElf_Shdr sh;
	Elf_Data *raw = elf_rawdata(scn, NULL);  /* before any elf_getdata */
	int type = read_chdr(e, raw, be, z);
	if (!type || !gelf_getshdr(scn, &sh) || !zsec_start(z, type)) {
		zsec_release(z);
		memset(z, 0, sizeof(*z));
		return false;
	}
	sh.sh_flags &= ~(GElf_Xword)SHF_COMPRESSED;
	z->data = gelf_update_shdr(scn, &sh) ? elf_getdata(scn, NULL) : NULL;
	if (!z->data) {
		sh.sh_flags |= SHF_COMPRESSED;
		gelf_update_shdr(scn, &sh);
		zsec_release(z);
		memset(z, 0, sizeof(*z));
		return false;
	}
	z->data->d_buf = z->out;
	z->data->d_type = ELF_T_BYTE;
	z->data->d_size = 0;
	return true;
}

/* Sections no inline lookup reads (variable locations, macros, name
 * indexes): libc's .debug_loclists alone is 1.4 MB inflated, a quarter
 * of what setup inflated. Hidden instead: libdw would inflate them. */
static bool unread(const char *name)
{
	static const char *const names[] = {
		".debug_loclists", ".debug_loc", ".debug_macro", ".debug_macinfo",
		".debug_pubnames", ".debug_pubtypes", ".debug_gnu_pubnames",
		".debug_gnu_pubtypes", ".debug_names",
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	return false;
}

/* Every other compressed .debug_* section, inflated whole now (what
 * libdw would do, faster); one that fails, or that nothing reads, is
 * hidden. */
static void take_others(struct lazy_info *l, Elf *e, size_t shstrndx,
			bool skip_info)
{
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn)) != NULL;) {
		GElf_Shdr sh;
		const char *n = gelf_getshdr(scn, &sh)
					? elf_strptr(e, shstrndx, sh.sh_name) : NULL;
		if (!n || strncmp(n, ".debug_", 7) || sh.sh_type == SHT_NOBITS ||
		    !(sh.sh_flags & SHF_COMPRESSED) ||
		    (skip_info && !strcmp(n, ".debug_info")))
			continue;
		if (unread(n)) {
			hide(scn);
			continue;
		}
		XGROW(l->others, l->others_cap, l->nothers + 1);
		struct zsec *z = &l->others[l->nothers];
		memset(z, 0, sizeof(*z));
		if (!take_over(e, scn, l->be, z)) {
			hide(scn);
			continue;
		}
		l->nothers++;
		if (inflate_to(z, z->size) < 0)
			z->data->d_size = 0;   /* damaged: libdw sees no section */
	}
}

/* The .plt, .plt.got, .plt.sec sections: code no DWARF describes. */
static void note_plts(struct lazy_info *l, Elf *e, size_t shstrndx)
{
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn)) != NULL;) {
		GElf_Shdr sh;
		const char *n = gelf_getshdr(scn, &sh)
					? elf_strptr(e, shstrndx, sh.sh_name) : NULL;
		if (!n || strncmp(n, ".plt", 4) || (n[4] && n[4] != '.') ||
		    l->nplt == sizeof(l->plt) / sizeof(l->plt[0]) ||
		    sh.sh_addr + sh.sh_size < sh.sh_addr)
			continue;
		l->plt[l->nplt].lo = sh.sh_addr;
		l->plt[l->nplt].hi = sh.sh_addr + sh.sh_size;
		l->nplt++;
	}
}

bool lazy_info_in_plt(const struct lazy_info *l, uint64_t addr)
{
	for (size_t i = 0; i < l->nplt; i++)
		if (addr >= l->plt[i].lo && addr < l->plt[i].hi)
			return true;
	return false;
}

struct lazy_info *lazy_info_new(Elf *e)
{
	const char *ident = elf_getident(e, NULL);
	size_t shstrndx;
	if (!ident || elf_getshdrstrndx(e, &shstrndx) != 0)
		return NULL;
	struct lazy_info *l = xcalloc(1, sizeof(*l));
	l->be = ident[EI_DATA] == ELFDATA2MSB;
	take_others(l, e, shstrndx, true);
	Elf_Scn *info = sym_elf_section(e, ".debug_info");
	GElf_Shdr sh;
	if (info && gelf_getshdr(info, &sh) && (sh.sh_flags & SHF_COMPRESSED) &&
	    read_aranges(l, e) && take_over(e, info, l->be, &l->info)) {
		info_to(l, FIRST_CHUNK);
		note_plts(l, e, shstrndx);
	} else
		take_others(l, e, shstrndx, false);   /* .debug_info whole */
	if (!l->info.data && !l->nothers) {
		lazy_info_free(l);
		return NULL;
	}
	return l;
}

void lazy_info_free(struct lazy_info *l)
{
	if (!l)
		return;
	zsec_release(&l->info);
	for (size_t i = 0; i < l->nothers; i++)
		zsec_release(&l->others[i]);
	free(l->others);
	free(l->ar);
	free(l);
}
