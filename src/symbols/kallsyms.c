/*
 * kallsyms: kernel symbol text files (see kallsyms.h).
 * Stage: symbols. The file is read in blocks and the complete lines of
 * each block are parsed in place (no per-line copy or callback); names
 * are packed back to back into the table's arena. Invariant: the table
 * equals what feeding each line to sym_kallsyms_line gives; memory is one
 * block (plus the longest line) besides the table itself.
 */
#include "symbols/kallsyms.h"

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

/* Eight hex digits, s[0] the most significant, into *out; false when a
 * byte is not a hex digit. All eight at once, a byte per lane: for bytes
 * x below 0x80, x + (0x80 - '0') has its high bit set when x >= '0' and
 * x + (0x7f - '9') when x > '9', with no carry into the next lane. */
static bool hex8(const char *s, uint32_t *out)
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

/* The usual address: 16 hex digits. False when one is not a digit. */
static bool hex16(const char *s, uint64_t *out)
{
	uint32_t hi, lo;
	if (!hex8(s, &hi) || !hex8(s + 8, &lo))
		return false;
	*out = (uint64_t)hi << 32 | lo;
	return true;
}

/* Leading hex digits of line[0, len) into *addr; returns their count. */
static size_t hex_prefix(const char *line, size_t len, uint64_t *addr)
{
	if (len > 16 && line[16] == ' ' && hex16(line, addr))
		return 16;
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

uint64_t sym_kallsyms_addr_of(const struct sym_table *t, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->syms[i].name, name) == 0)
			return t->syms[i].start;
	return 0;
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

/* Copy name into the packing block, NUL-terminated. */
static const char *keep_name(struct ks_load *l, const char *s, size_t len)
{
	if (len >= l->names_left) {
		size_t want = len >= KS_BLOCK / 2 ? len + 1 : KS_BLOCK;
		l->names = sym_table_name_block(l->t, want);
		l->names_left = want;
	}
	char *p = l->names;
	memcpy(p, s, len);
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

static void load_line(struct ks_load *l, const char *line, size_t len,
		      const char *tab)
{
	struct ks_fields f;
	int r = split(line, len, tab, &f);
	if (r < 0)
		l->bad++;
	if (r <= 0)
		return;
	const char *name = keep_name(l, f.name, f.len);
	sym_table_add_kept(l->t, f.addr, 0, f.bind, name)->module = f.module;
	l->added++;
	if (!l->have_text && is_text(f.name, f.len)) {
		l->have_text = true;
		l->text = f.addr;
	}
}

/* Parse the complete lines of buf[0, n); returns the bytes they took.
 * The next '\t' is searched once for all the lines before it (module
 * symbols come last: most blocks have none), not once per line. */
static size_t load_lines(struct ks_load *l, const char *buf, size_t n)
{
	const char *p = buf, *end = buf + n, *nl, *tab = NULL;
	while ((nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		l->lineno++;
		if ((!tab || tab < p) && !(tab = memchr(p, '\t', (size_t)(end - p))))
			tab = end;
		if (nl > p)
			load_line(l, p, (size_t)(nl - p), tab < nl ? tab : NULL);
		p = nl + 1;
	}
	return (size_t)(p - buf);
}

static ssize_t read_some(int fd, char *buf, size_t n)
{
	ssize_t got;
	do
		got = read(fd, buf, n);
	while (got < 0 && errno == EINTR);
	return got < 0 ? -errno : got;
}

/* Read fd to the end, parsing as blocks arrive. Returns 0 or -errno. */
static int load_fd(struct ks_load *l, int fd)
{
	size_t cap = KS_BLOCK, have = 0;
	char *buf = xmalloc(cap);
	ssize_t got;
	while ((got = read_some(fd, buf + have, cap - have)) > 0) {
		have += (size_t)got;
		size_t used = load_lines(l, buf, have);
		memmove(buf, buf + used, have - used);
		have -= used;
		if (have > LINES_MAX_LINE) {
			got = -E2BIG;
			break;
		}
		if (have == cap)
			buf = xrealloc(buf, cap *= 2);
	}
	if (got == 0 && have > 0) {
		l->lineno++;
		load_line(l, buf, have, memchr(buf, '\t', have));
	}
	free(buf);
	return got < 0 ? (int)got : 0;
}

/* A "_text" already in the table comes first (as the linear search). */
static void find_text(struct ks_load *l)
{
	for (size_t i = 0; i < l->t->n && !l->have_text; i++) {
		if (strcmp(l->t->syms[i].name, "_text") == 0) {
			l->have_text = true;
			l->text = l->t->syms[i].start;
		}
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
