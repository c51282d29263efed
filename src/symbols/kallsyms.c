/*
 * kallsyms: kernel symbol text files (see kallsyms.h).
 * Stage: symbols. The file is read in blocks and the complete lines of
 * each block are parsed in place (no per-line copy or callback); names
 * are packed back to back into the table's arena. The usual line shape
 * (16 hex digits, ' ', type, ' ', name) takes a fast path: the digits
 * checked and converted 16 at once, the line's end found 16 bytes a step
 * (a '\n' sentinel after the block's data bounds the scans). Any other
 * shape goes through split, as sym_kallsyms_line. Invariant: the table
 * equals what feeding each line to sym_kallsyms_line gives; memory is one
 * block (plus the longest line) besides the table itself.
 */
#include "symbols/kallsyms.h"
#include "base/fdio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/lines.h"
#include "base/xalloc.h"

enum {
	KS_BLOCK = 64 * 1024,    /* read size, and the name packing block */
	KS_PAD = 64,             /* initialized bytes after the sentinel */
	KS_LINE_BYTES = 40,      /* presizing: a symbol per 40 file bytes */
	KS_RESERVE_MAX = 1 << 22 /* (at most this many) */
};

/* hex digit value + 1; 0 for any other byte */
static const uint8_t hex1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/* binding + 1 of the kept types (text, weak, data, bss); 0: passed over */
static const uint8_t kept1[256] = {
	['T'] = SYM_BIND_GLOBAL + 1, ['D'] = SYM_BIND_GLOBAL + 1,
	['B'] = SYM_BIND_GLOBAL + 1, ['t'] = SYM_BIND_LOCAL + 1,
	['d'] = SYM_BIND_LOCAL + 1, ['b'] = SYM_BIND_LOCAL + 1,
	['W'] = SYM_BIND_WEAK + 1, ['w'] = SYM_BIND_WEAK + 1,
};

/* One parsed line: name[0, len) is the symbol name. */
struct ks_fields {
	uint64_t addr;
	const char *name;
	size_t len;
	int bind;
	bool module;
};

/* Leading hex digits of line[0, len) into *addr; returns their count.
 * Byte by byte: the reference the block loader's fast path must match. */
static size_t hex_prefix(const char *line, size_t len, uint64_t *addr)
{
	size_t i = 0;
	unsigned v;
	*addr = 0;
	while (i < len && (v = hex1[(uint8_t)line[i]]) != 0) {
		*addr = *addr << 4 | (v - 1);
		i++;
	}
	return i;
}

/* Split "ADDR TYPE NAME[\t[MODULE]]": 1 kept, 0 passed over, -1 bad.
 * tab: the line's first '\t' or NULL (in a kept line it is in the name). */
static int split(const char *line, size_t len, const char *tab,
		 struct ks_fields *f)
{
	uint64_t addr;
	size_t i = hex_prefix(line, len, &addr);
	if (i == 0 || i > 16 || i + 3 > len || line[i] != ' ' || line[i + 2] != ' ')
		return -1;
	int kept = kept1[(uint8_t)line[i + 1]];
	const char *name = line + i + 3;
	size_t nlen = len - i - 3;
	if (!kept)
		return 0;
	if (nlen == 0)
		return -1;
	if (name[0] == '$')
		return 0;
	f->addr = addr;
	f->name = name;
	f->len = tab ? (size_t)(tab - name) : nlen;
	f->bind = kept - 1;
	f->module = tab && memchr(tab, '[', nlen - f->len) != NULL;
	return 1;
}

int sym_kallsyms_line(struct sym_table *t, const char *line, size_t len)
{
	struct ks_fields f;
	int r = split(line, len, memchr(line, '\t', len), &f);
	if (r > 0)
		sym_table_add(t, f.addr, 0, f.bind, f.name, f.len)->module = f.module;
	return r;
}

/* The first symbol called name, in table order, or NULL. */
static const struct sym_entry *first_named(const struct sym_table *t,
					   const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->syms[i].name, name) == 0)
			return &t->syms[i];
	return NULL;
}

uint64_t sym_kallsyms_addr_of(const struct sym_table *t, const char *name)
{
	const struct sym_entry *e = first_named(t, name);
	return e ? e->start : 0;
}

/* ---- loading a whole file ---- */

struct ks_load {
	struct sym_table *t;
	char *names;        /* free room for names in t->names */
	size_t names_left;
	uint64_t bad, lineno;
	int added;
	bool have_text;     /* text holds the first "_text" */
	uint64_t text;
};

/* Copy name into the packing block, NUL-terminated. s lies in the read
 * buffer (64 bytes from it may be read). A name under 64 bytes is copied
 * as one or two fixed 32-byte moves (when the block has room for them)
 * instead of a memcpy call. */
__attribute__((always_inline))
static inline const char *keep_name(struct ks_load *l, const char *s,
				    size_t len)
{
	if (len >= l->names_left) {
		size_t want = len >= KS_BLOCK / 2 ? len + 1 : KS_BLOCK;
		l->names = sym_table_name_block(l->t, want);
		l->names_left = want;
	}
	char *p = l->names;
	if (len < 64 && l->names_left >= 64) {
		memcpy(p, s, 32);
		if (len >= 32)
			memcpy(p + 32, s + 32, 32);
	} else {
		memcpy(p, s, len);
	}
	p[len] = '\0';
	l->names += len + 1;
	l->names_left -= len + 1;
	return p;
}

/* "_text" as a C string (the name stops at its first NUL, as strcmp). */
static bool is_text(const char *s, size_t len)
{
	return len >= 5 && memcmp(s, "_text", 5) == 0 && (len == 5 || s[5] == '\0');
}

/* Inlined: the fast path's per-line cost is a few dozen instructions,
 * a call's register saves would be a good part of it. */
__attribute__((always_inline))
static inline void add(struct ks_load *l, const struct ks_fields *f)
{
	const char *name = keep_name(l, f->name, f->len);
	sym_table_add_kept0(l->t, f->addr, f->bind, name)->module = f->module;
	l->added++;
	if (!l->have_text && is_text(f->name, f->len)) {
		l->have_text = true;
		l->text = f->addr;
	}
}

static void load_line(struct ks_load *l, const char *line, size_t len,
		      const char *tab)
{
	struct ks_fields f;
	int r = split(line, len, tab, &f);
	if (r < 0)
		l->bad++;
	if (r > 0)
		add(l, &f);
}

/*
 * The fast path's tools: 16 hex digits at once, and the first '\n' or
 * '\t' from a point on (the buffer's sentinel stops it). With SSE2 both
 * take 16 bytes a step; without, 8 (a word's bytes as lanes).
 */
#ifdef __SSE2__
#include <emmintrin.h>

/* s[0, 16) as hex digits, s[0] the most significant, into *out; false
 * when one is not a hex digit. A digit is x - '0' <= 9 (unsigned), a
 * letter (x | 0x20) - 'a' <= 5; (x | 0x20) - '0' is then a digit's value
 * and a letter's value + 39. Digit pairs are joined in 16-bit lanes,
 * packed to 8 bytes, and byte-swapped (the first pair is the top byte). */
static inline bool hex16(const char *s, uint64_t *out)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)s);
	__m128i lower = _mm_or_si128(x, _mm_set1_epi8(0x20));
	__m128i d = _mm_sub_epi8(x, _mm_set1_epi8('0'));
	__m128i a = _mm_sub_epi8(lower, _mm_set1_epi8('a'));
	__m128i isd = _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d);
	__m128i isa = _mm_cmpeq_epi8(_mm_min_epu8(a, _mm_set1_epi8(5)), a);
	if (_mm_movemask_epi8(_mm_or_si128(isd, isa)) != 0xffff)
		return false;
	__m128i v = _mm_sub_epi8(_mm_sub_epi8(lower, _mm_set1_epi8('0')),
				 _mm_and_si128(isa, _mm_set1_epi8(39)));
	v = _mm_or_si128(_mm_slli_epi16(v, 4), _mm_srli_epi16(v, 8));
	v = _mm_and_si128(v, _mm_set1_epi16(0xff));
	v = _mm_packus_epi16(v, v);
	*out = __builtin_bswap64((uint64_t)_mm_cvtsi128_si64(v));
	return true;
}

/* The first '\n' or '\t' at or after s: ('\t', '\n') = (9, 10), so a
 * byte is one when x - 9 <= 1 (unsigned). */
static inline const char *scan_nl_tab(const char *s)
{
	for (;; s += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)s);
		__m128i d = _mm_sub_epi8(x, _mm_set1_epi8('\t'));
		int m = _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(1)), d));
		if (m)
			return s + __builtin_ctz((unsigned)m);
	}
}

#else

/* Eight hex digits, s[0] the most significant, into *out; false when a
 * byte is not a hex digit. All eight at once, a byte per lane: for bytes
 * x below 0x80, x + (0x80 - '0') has its high bit set when x >= '0' and
 * x + (0x7f - '9') when x > '9', with no carry into the next lane. */
static inline bool hex8(const char *s, uint32_t *out)
{
	const uint64_t ones = 0x0101010101010101u, highs = ones * 0x80;
	uint64_t w;
	memcpy(&w, s, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	if (w & highs)
		return false;
	uint64_t lower = w | ones * 0x20; /* 'A'-'F' to 'a'-'f' */
	uint64_t digit = (w + ones * (0x80 - '0')) & ~(w + ones * (0x7f - '9'));
	uint64_t alpha = (lower + ones * (0x80 - 'a')) & ~(lower + ones * (0x7f - 'f'));
	if (((digit | alpha) & highs) != highs)
		return false;
	uint64_t v = (w & ones * 0x0f) + ((alpha & highs) >> 7) * 9;
	v = (v << 4 | v >> 8) & 0x00ff00ff00ff00ffu;   /* digit pairs */
	v = (v << 8 | v >> 16) & 0x0000ffff0000ffffu;  /* four digits */
	*out = (uint32_t)(v << 16 | v >> 32);
	return true;
}

static inline bool hex16(const char *s, uint64_t *out)
{
	uint32_t hi, lo;
	if (!hex8(s, &hi) || !hex8(s + 8, &lo))
		return false;
	*out = (uint64_t)hi << 32 | lo;
	return true;
}

/* The first '\n' or '\t' at or after s, 8 bytes a step: a byte of w ^
 * ('\n' in every lane) is 0 where w has a '\n', and (v - ones) & ~v
 * sets the high bit of v's first zero byte (above it, borrows may set
 * more: only the lowest counts). */
static inline const char *scan_nl_tab(const char *s)
{
	const uint64_t ones = 0x0101010101010101u, highs = ones * 0x80;
	for (;; s += 8) {
		uint64_t w;
		memcpy(&w, s, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		w = __builtin_bswap64(w);
#endif
		uint64_t a = w ^ ones * '\n', b = w ^ ones * '\t';
		uint64_t m = ((a - ones) & ~a) | ((b - ones) & ~b);
		if (m & highs)
			return s + __builtin_ctzll(m & highs) / 8;
	}
}

#endif

/* The line at p, when it is "16 HEX DIGITS, ' ', type, ' ', ...": added,
 * counted or passed over as split would, and the next line's start
 * returned; NULL when it has no '\n' before end. p when the line has
 * another shape (for split). The prefix holds no '\t' nor '\n' (the
 * sentinel included), so the line's first tab is in the name. */
static const char *fast_line(struct ks_load *l, const char *p, const char *end)
{
	struct ks_fields f;
	if (p[16] != ' ' || p[18] != ' ' || p[17] == '\n' || !hex16(p, &f.addr))
		return p;
	const char *name = p + 19, *nl, *tab = NULL;
	int kept = kept1[(uint8_t)p[17]];
	if (!kept)
		nl = memchr(name, '\n', (size_t)(end - name) + 1);
	else if (*(nl = scan_nl_tab(name)) == '\t') {
		tab = nl;
		nl = memchr(tab, '\n', (size_t)(end - tab) + 1);
	}
	if (nl == end)
		return NULL;
	l->lineno++;
	if (!kept || name[0] == '$')
		return nl + 1;
	if (nl == name) {
		l->bad++;
		return nl + 1;
	}
	f.name = name;
	f.len = (size_t)((tab ? tab : nl) - name);
	f.bind = kept - 1;
	f.module = tab && memchr(tab, '[', (size_t)(nl - tab)) != NULL;
	add(l, &f);
	return nl + 1;
}

/* The line at p through split; the next line's start, NULL when it has
 * no '\n' before end. */
static const char *slow_line(struct ks_load *l, const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	if (!nl)
		return NULL;
	l->lineno++;
	if (nl > p)
		load_line(l, p, (size_t)(nl - p), memchr(p, '\t', (size_t)(nl - p)));
	return nl + 1;
}

/* Parse the complete lines of buf[0, n) (a read buffer: buf[n] is the
 * sentinel); returns the bytes they took. */
static size_t load_lines(struct ks_load *l, const char *buf, size_t n)
{
	const char *p = buf, *end = buf + n, *next;
	while (p < end) {
		next = fast_line(l, p, end);
		if (next == p)
			next = slow_line(l, p, end);
		if (!next)
			break;
		p = next;
	}
	return (size_t)(p - buf);
}

/* A read buffer of cap data bytes: the data, room for a '\n' right
 * after it (a sentinel, so line scans need no bound) and KS_PAD
 * initialized bytes after that, so the 16-byte loads and the 64-byte
 * name copies may run past the data. */
static char *buf_grow(char *buf, size_t old, size_t cap)
{
	buf = xrealloc(buf, cap + 1 + KS_PAD);
	memset(buf + old, 0, cap - old + 1 + KS_PAD);
	return buf;
}

/* Read fd to the end, parsing as blocks arrive. Returns 0 or -errno. */
static int load_fd(struct ks_load *l, int fd)
{
	size_t cap = KS_BLOCK, have = 0;
	char *buf = buf_grow(NULL, 0, cap);
	ssize_t got;
	while ((got = fd_read(fd, buf + have, cap - have)) > 0) {
		have += (size_t)got;
		buf[have] = '\n';
		size_t used = load_lines(l, buf, have);
		memmove(buf, buf + used, have - used);
		have -= used;
		if (have > LINES_MAX_LINE) {
			got = -E2BIG;
			break;
		}
		if (have == cap) {
			buf = buf_grow(buf, cap + 1 + KS_PAD, cap * 2);
			cap *= 2;
		}
	}
	if (got == 0 && have > 0) {
		buf[have] = '\n';
		l->lineno++;
		load_line(l, buf, have, memchr(buf, '\t', have));
	}
	free(buf);
	return got < 0 ? (int)got : 0;
}

/* A "_text" already in the table comes first (as the linear search). */
static void find_text(struct ks_load *l)
{
	const struct sym_entry *e = first_named(l->t, "_text");
	if (e) {
		l->have_text = true;
		l->text = e->start;
	}
}

/* Room for the symbols a regular file of this size can hold, roughly. */
static void presize(struct sym_table *t, int fd)
{
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		uint64_t n = (uint64_t)st.st_size / KS_LINE_BYTES + 16;
		sym_table_reserve(t, n < KS_RESERVE_MAX ? (size_t)n : KS_RESERVE_MAX);
	}
}

int sym_kallsyms_load(const char *path, struct sym_table *t, uint64_t *bad,
		      uint64_t *text, struct diag *d)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int rc = -errno;
		diag_set(d, "%s", strerror(-rc));
		return rc;
	}
	struct ks_load l = { .t = t };
	find_text(&l);
	presize(t, fd);
	int rc = load_fd(&l, fd);
	close(fd);
	*bad = l.bad;
	if (rc < 0) {
		diag_set(d, "line %llu: %s", (unsigned long long)l.lineno, strerror(-rc));
		return rc;
	}
	*text = l.text;
	sym_table_finish(t, true);
	return l.added;
}
