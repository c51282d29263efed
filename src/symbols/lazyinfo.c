/*
 * lazyinfo: .debug_info inflated on demand (see lazyinfo.h).
 * Stage: symbols. The section's Elf_Data (what libdw reads) is pointed
 * at our buffer of the inflated size, its d_size the inflated prefix;
 * the compressed stream stays in libelf's mapping of the file and is
 * inflated forward only, by zlib, never twice.
 * Invariant: data->d_size == done; every unit lazy_info_need returned
 * for lies wholly below done; all reads of the stream and of .debug_
 * aranges are bounds-checked (the file is untrusted).
 */
#include "symbols/lazyinfo.h"

#include "base/xalloc.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

enum { FIRST_CHUNK = 4 << 10 };

struct arange {
	uint64_t start, end, unit;
};

struct lazy_info {
	Elf_Data *data;         /* libdw's view of .debug_info */
	uint8_t *out;           /* size bytes, done of them inflated */
	uint64_t size, done;
	z_stream z;
	bool broken;            /* the stream failed: done is all there is */
	bool be;                /* big-endian file (unit lengths) */
	struct arange *ar;      /* sorted by start */
	size_t nar, ar_cap;
};

static Elf_Scn *find_section(Elf *e, const char *name)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(e, &shstrndx) != 0)
		return NULL;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn)) != NULL;) {
		GElf_Shdr sh;
		const char *n = gelf_getshdr(scn, &sh)
					? elf_strptr(e, shstrndx, sh.sh_name) : NULL;
		if (n && strcmp(n, name) == 0)
			return sh.sh_type == SHT_NOBITS ? NULL : scn;
	}
	return NULL;
}

static uint64_t rd(const uint8_t *p, int n, bool be)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++)
		v |= (uint64_t)p[be ? i : n - 1 - i] << (8 * (n - 1 - i));
	return v;
}

/* ---- .debug_aranges ---- */

static void add_range(struct lazy_info *l, uint64_t start, uint64_t len,
		      uint64_t unit)
{
	if (len == 0 || unit >= l->size)
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

static bool read_aranges(struct lazy_info *l, Elf *e)
{
	Elf_Scn *scn = find_section(e, ".debug_aranges");
	GElf_Shdr sh;
	if (!scn || !gelf_getshdr(scn, &sh))
		return false;
	/* libdw would decompress it anyway: do it in place, once */
	if ((sh.sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0)
		return false;
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!d || !d->d_buf)
		return false;
	const uint8_t *p = d->d_buf, *end = p + d->d_size;
	while (end - p >= 4) {
		const uint8_t *set = p;
		uint64_t len = rd(p, 4, l->be);
		int off_size = 4;
		p += 4;
		if (len == 0xffffffffu) {
			if (end - p < 8)
				break;
			len = rd(p, 8, l->be);
			off_size = 8;
			p += 8;
		} else if (len >= 0xfffffff0u) {
			break;
		}
		if (len > (uint64_t)(end - p))
			break;
		read_set(l, set, p, p + len, off_size);
		p += len;
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

static int inflate_to(struct lazy_info *l, uint64_t want)
{
	if (want > l->size)
		want = l->size;
	while (l->done < want && !l->broken) {
		uint64_t room = want - l->done;
		l->z.next_out = l->out + l->done;
		l->z.avail_out = room > UINT_MAX ? UINT_MAX : (uInt)room;
		int rc = inflate(&l->z, Z_SYNC_FLUSH);
		uint64_t now = (uint64_t)(l->z.next_out - l->out);
		bool moved = now > l->done;
		l->done = now;
		if (rc == Z_STREAM_END ? l->done < l->size
				       : (rc != Z_OK && rc != Z_BUF_ERROR) || !moved)
			l->broken = true;
		if (rc == Z_STREAM_END)
			break;
	}
	l->data->d_size = (size_t)l->done;
	return l->done >= want ? 0 : -1;
}

int lazy_info_need(struct lazy_info *l, uint64_t off)
{
	uint64_t before = l->done;
	if (off > l->size || l->size - off < 12 || inflate_to(l, off + 12) < 0)
		return -1;
	uint64_t len = rd(l->out + off, 4, l->be), hdr = 4;
	if (len == 0xffffffffu) {
		len = rd(l->out + off + 4, 8, l->be);
		hdr = 12;
	} else if (len >= 0xfffffff0u) {
		return -1;
	}
	if (len > l->size - off - hdr)
		return -1;
	uint64_t end = off + hdr + len;
	/* when growing anyway, grow by half at least: few reopenings */
	if (end > l->done && end < l->done + l->done / 2)
		end = l->done + l->done / 2;
	if (inflate_to(l, end) < 0)
		return -1;
	return l->done > before;
}

int lazy_info_all(struct lazy_info *l)
{
	uint64_t before = l->done;
	int rc = inflate_to(l, l->size);
	return l->done > before ? 1 : rc;
}

bool lazy_info_complete(const struct lazy_info *l)
{
	return l->done == l->size || l->broken;
}

/* ---- setup ---- */

/* ch_type and ch_size of the section's compression header. */
static bool read_chdr(Elf *e, const Elf_Data *raw, bool be, uint64_t *size,
		      size_t *hdr)
{
	bool is64 = gelf_getclass(e) == ELFCLASS64;
	*hdr = is64 ? sizeof(Elf64_Chdr) : sizeof(Elf32_Chdr);
	if (!raw || !raw->d_buf || raw->d_size <= *hdr)
		return false;
	const uint8_t *p = raw->d_buf;
	*size = is64 ? rd(p + 8, 8, be) : rd(p + 4, 4, be);
	return rd(p, 4, be) == ELFCOMPRESS_ZLIB && *size > 0 &&
	       *size <= SIZE_MAX / 2;
}

struct lazy_info *lazy_info_new(Elf *e)
{
	Elf_Scn *scn = find_section(e, ".debug_info");
	GElf_Shdr sh;
	const char *ident = elf_getident(e, NULL);
	if (!scn || !ident || !gelf_getshdr(scn, &sh) ||
	    !(sh.sh_flags & SHF_COMPRESSED))
		return NULL;
	struct lazy_info *l = xcalloc(1, sizeof(*l));
	l->be = ident[EI_DATA] == ELFDATA2MSB;
	Elf_Data *raw = elf_rawdata(scn, NULL);  /* before any elf_getdata */
	size_t hdr = 0;
	if (!read_chdr(e, raw, l->be, &l->size, &hdr) || !read_aranges(l, e) ||
	    raw->d_size - hdr > UINT_MAX || inflateInit(&l->z) != Z_OK) {
		free(l->ar);
		free(l);
		return NULL;
	}
	l->z.next_in = (Bytef *)raw->d_buf + hdr;
	l->z.avail_in = (uInt)(raw->d_size - hdr);
	/* from now on libdw sees a plain section holding our prefix */
	sh.sh_flags &= ~(GElf_Xword)SHF_COMPRESSED;
	l->data = gelf_update_shdr(scn, &sh) ? elf_getdata(scn, NULL) : NULL;
	l->out = l->data ? malloc((size_t)l->size) : NULL;
	if (!l->out) {
		sh.sh_flags |= SHF_COMPRESSED;
		gelf_update_shdr(scn, &sh);
		lazy_info_free(l);
		return NULL;
	}
	l->data->d_buf = l->out;
	l->data->d_type = ELF_T_BYTE;
	inflate_to(l, FIRST_CHUNK);
	return l;
}

void lazy_info_free(struct lazy_info *l)
{
	if (!l)
		return;
	inflateEnd(&l->z);
	free(l->out);
	free(l->ar);
	free(l);
}
