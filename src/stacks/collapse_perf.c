/*
 * collapse_perf: stackcollapse-perf.pl's rules and its perf script parser
 * (see collapse_perf.h for the rules in prose).
 * Stage: stacks. Key invariant: byte-identical output to the Perl script;
 * its regular expressions are replaced by hand-written scans whose
 * comments say which regex (and which backtracking case) they reproduce.
 * Character classes are Perl's on byte strings: \s is [ \t\n\v\f\r],
 * \d is [0-9], \w is [A-Za-z0-9_]; bytes >= 0x80 are none of them.
 */
#include "stacks/collapse_perf.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* ---- character classes and small scans ---- */

static inline bool is_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static inline bool is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static inline bool is_word(unsigned char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       c == '_';
}

static inline bool is_lower_hex(unsigned char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f');
}

static size_t skip_space(const char *s, size_t i, size_t len)
{
	while (i < len && is_space((unsigned char)s[i]))
		i++;
	return i;
}

static size_t skip_digits(const char *s, size_t i, size_t len)
{
	while (i < len && is_digit((unsigned char)s[i]))
		i++;
	return i;
}

/* First "ab" in s (memmem is slow to start for such short needles). */
static const char *find2(const char *s, size_t len, char a, char b)
{
	const char *end = s + len;
	for (const char *p = memchr(s, a, len); p && p + 1 < end;
	     p = memchr(p + 1, a, (size_t)(end - p - 1)))
		if (p[1] == b)
			return p;
	return NULL;
}

static bool contains(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle);
	if (n > len)
		return false;
	for (const char *p = find2(s, len, needle[0], needle[1]); p;
	     p = find2(p + 1, len - (size_t)(p + 1 - s), needle[0], needle[1]))
		if ((size_t)(s + len - p) >= n && memcmp(p, needle, n) == 0)
			return true;
	return false;
}

void collapse_opts_finish(struct collapse_opts *o)
{
	if (o->all)
		o->kernel = o->jit = true;
}

/* ---- process names ---- */

void collapse_perf_comm(const struct collapse_opts *o, const char *comm,
			size_t comm_len, const char *pid, size_t pid_len,
			const char *tid, size_t tid_len, struct strbuf *out)
{
	size_t start = out->len;
	sb_add(out, comm, comm_len);
	if (o->tid || o->pid) {
		sb_addc(out, '-');
		if (pid)
			sb_add(out, pid, pid_len);
		else
			sb_addc(out, '?');
	}
	if (o->tid) {
		sb_addc(out, '/');
		sb_add(out, tid, tid_len);
	}
	for (size_t i = start; i < out->len; i++)
		if (out->buf[i] == ' ')
			out->buf[i] = '_';
}

bool collapse_perf_is_java(const char *pname, size_t len)
{
	return len >= 4 && memcmp(pname, "java", 4) == 0;
}

/* ---- frame naming ---- */

/* s/\+0x[\da-f]+$//: a trailing lower-case hex run right after "+0x". */
static size_t strip_offset(const char *s, size_t len)
{
	size_t h = len;
	while (h > 0 && is_lower_hex((unsigned char)s[h - 1]))
		h--;
	if (h < len && h >= 3 && memcmp(s + h - 3, "+0x", 3) == 0)
		return h - 3;
	return len;
}

/* The Go method test m/\.\(.*\)\./: ".(" with ")." starting after it. */
static bool looks_like_go(const char *s, size_t len)
{
	const char *a = find2(s, len, '.', '(');
	if (!a)
		return false;
	size_t from = (size_t)(a - s) + 2;
	return find2(s + from, len - from, ')', '.') != NULL;
}

/* s/\((?!anonymous namespace\)).* //  (without the space): length up to
 * the first '(' that does not open "(anonymous namespace)". */
static size_t cut_args(const char *s, size_t len)
{
	static const char anon[] = "anonymous namespace)";
	size_t n = sizeof(anon) - 1;
	for (const char *p = memchr(s, '(', len); p;
	     p = memchr(p + 1, '(', len - (size_t)(p + 1 - s))) {
		size_t rest = len - (size_t)(p + 1 - s);
		if (rest < n || memcmp(p + 1, anon, n) != 0)
			return (size_t)(p - s);
	}
	return len;
}

/* Bytes that some tidy rule looks at; most names have none of them. */
enum { SP_SEMI = 1, SP_PAREN = 2, SP_QUOTE = 4, SP_DASH = 8 };
static const unsigned char special[256] = {
	[';'] = SP_SEMI, ['('] = SP_PAREN, ['"'] = SP_QUOTE, ['\''] = SP_QUOTE,
	['-'] = SP_DASH,
};

static unsigned specials(const char *s, size_t len)
{
	unsigned m = 0;
	for (size_t i = 0; i < len; i++)
		m |= special[(unsigned char)s[i]];
	return m;
}

/* Tidy one name in place at the end of sb (from start): ';' -> ':', the
 * argument cut, quote removal, the Java 'L' rule. */
static void tidy_name(struct strbuf *sb, size_t start, bool java)
{
	char *s = sb->buf + start;
	size_t len = sb->len - start;
	unsigned m = specials(s, len);
	if (m & SP_SEMI)
		for (char *p = memchr(s, ';', len); p; p = memchr(p, ';', len - (size_t)(p - s)))
			*p = ':';
	if ((m & SP_PAREN) && !looks_like_go(s, len))
		len = cut_args(s, len);
	if (m & SP_QUOTE) {
		size_t w = 0;
		for (size_t r = 0; r < len; r++)
			if (s[r] != '"' && s[r] != '\'')
				s[w++] = s[r];
		len = w;
	}
	if (java && len > 0 && s[0] == 'L' && memchr(s, '/', len)) {
		memmove(s, s + 1, len - 1);
		len--;
	}
	sb_setlen(sb, start + len);
}

static bool is_kernel_dso(const char *dso, size_t len)
{
	bool k = (len > 0 && dso[0] == '[') ||
		 (len >= 7 && memcmp(dso + len - 7, "vmlinux", 7) == 0);
	return k && !contains(dso, len, "unknown");
}

/* m:/tmp/perf-\d+\.map: anywhere in the dso. */
static bool is_jit_dso(const char *dso, size_t len)
{
	static const char pre[] = "/tmp/perf-";
	const char *p = dso, *end = dso + len;
	while ((p = memmem(p, (size_t)(end - p), pre, sizeof(pre) - 1))) {
		size_t i = (size_t)(p - dso) + sizeof(pre) - 1;
		size_t j = skip_digits(dso, i, len);
		if (j > i && len - j >= 4 && memcmp(dso + j, ".map", 4) == 0)
			return true;
		p++;
	}
	return false;
}

/* The srcline rule: s/\[.*?\]//g, trim \s at both ends, ":" + rest. */
static void add_srcline(struct strbuf *sb, const char *s, size_t len)
{
	size_t start = sb->len;
	sb_addc(sb, ':');
	size_t body = sb->len;
	for (size_t i = 0; i < len;) {
		const char *close = NULL;
		if (s[i] == '[')
			close = memchr(s + i + 1, ']', len - i - 1);
		if (close) {
			i = (size_t)(close - s) + 1;
			continue;
		}
		sb_addc(sb, s[i++]);
	}
	size_t a = body, b = sb->len;
	while (a < b && is_space((unsigned char)sb->buf[a]))
		a++;
	while (b > a && is_space((unsigned char)sb->buf[b - 1]))
		b--;
	memmove(sb->buf + body, sb->buf + a, b - a);
	sb_setlen(sb, b > a ? body + (b - a) : start);
}

/* One "->" part: the unknown rule, tidy, annotations, srcline. */
static void frame_part(const struct collapse_opts *o, bool java,
		       const struct collapse_frame *f, const char *part,
		       size_t len, size_t index, bool *unknown,
		       struct stack_builder *b)
{
	struct strbuf *sb = stack_builder_begin_frame(b);
	size_t start = sb->len;
	if (len == 9 && memcmp(part, "[unknown]", 9) == 0) {
		sb_addc(sb, '[');
		if (f->dso_len == 9 && memcmp(f->dso, "[unknown]", 9) == 0) {
			sb_adds(sb, "unknown");
			*unknown = true;
		} else {
			const char *slash = memrchr(f->dso, '/', f->dso_len);
			size_t skip = slash ? (size_t)(slash - f->dso) + 1 : 0;
			sb_add(sb, f->dso + skip, f->dso_len - skip);
		}
		if (o->addrs) {
			sb_adds(sb, " <");
			sb_add(sb, f->pc, f->pc_len);
			sb_addc(sb, '>');
		}
		sb_addc(sb, ']');
	} else {
		sb_add(sb, part, len);
	}
	tidy_name(sb, start, java);
	const char *name = sb->buf + start;
	size_t nlen = sb->len - start;
	if (index > 0) {
		if (!contains(name, nlen, "_[i]"))
			sb_adds(sb, "_[i]");
	} else if (o->kernel && is_kernel_dso(f->dso, f->dso_len)) {
		sb_adds(sb, "_[k]");
	} else if (o->jit && is_jit_dso(f->dso, f->dso_len)) {
		if (!contains(name, nlen, "_[j]"))
			sb_adds(sb, "_[j]");
	}
	if (o->srcline && !*unknown && f->srcline) {
		size_t slen;
		const char *src = f->srcline(f->srcline_ctx, &slen);
		if (src)
			add_srcline(sb, src, slen);
	}
	stack_builder_end_frame(b);
}

size_t collapse_perf_frame(const struct collapse_opts *o, bool java,
			   const struct collapse_frame *f,
			   struct stack_builder *b)
{
	size_t len = strip_offset(f->sym, f->sym_len);
	const char *s = f->sym;
	if (len > 0 && s[0] == '(')
		return 0;
	/* split /\->/: fields between separators; trailing empty ones go. */
	size_t nparts = 0, end = len;
	while (end > 0) {
		if (end >= 2 && s[end - 2] == '-' && s[end - 1] == '>')
			end -= 2;
		else
			break;
	}
	bool unknown = false;
	size_t pos = 0;
	while (pos < end) {
		const char *sep = find2(s + pos, end - pos, '-', '>');
		size_t stop = sep ? (size_t)(sep - s) : end;
		frame_part(o, java, f, s + pos, stop - pos, nparts, &unknown, b);
		nparts++;
		if (!sep)
			break;
		pos = stop + 2;
	}
	stack_builder_reverse_tail(b, nparts);
	return nparts;
}

/* ---- line classifiers ---- */

/*
 * The sample header regex  ^(\S.+?)\s+(\d+)\/ *(\d+)*\s+  (no space before
 * the '*'): the shortest
 * comm (at least two bytes, the first not a space) followed by
 * spaces, digits, optional slashes and digits, and a space. Backtracking
 * inside the tail never helps (see the notes in tests), so the tail is
 * scanned greedily at each candidate end of comm.
 */
struct header {
	size_t comm_len;
	const char *pid; size_t pid_len;
	const char *tid; size_t tid_len; /* tid_len 0: no second number */
};

static bool header_tail(const char *s, size_t len, size_t p, struct header *h)
{
	size_t q = skip_space(s, p, len);
	if (q == p)
		return false;
	size_t r = skip_digits(s, q, len);
	if (r == q)
		return false;
	size_t t = r;
	while (t < len && s[t] == '/')
		t++;
	size_t u = skip_digits(s, t, len);
	if (u >= len || !is_space((unsigned char)s[u]))
		return false;
	h->comm_len = p;
	h->pid = s + q;
	h->pid_len = r - q;
	h->tid = s + t;
	h->tid_len = u - t;
	return true;
}

/* Perl truth of a string: "" and "0" are false. */
static bool perl_true(const char *s, size_t len)
{
	return !(len == 0 || (len == 1 && s[0] == '0'));
}

static bool parse_header(const char *s, size_t len, struct header *h)
{
	if (len < 2 || is_space((unsigned char)s[0]))
		return false;
	for (size_t p = 2; p < len; p++) {
		if (is_space((unsigned char)s[p]) && header_tail(s, len, p, h))
			return true;
	}
	return false;
}

bool collapse_perf_header_pname(const struct collapse_opts *o, const char *line,
				size_t len, struct strbuf *pname)
{
	struct header h;
	if (!parse_header(line, len, &h))
		return false;
	sb_reset(pname);
	if (perl_true(h.tid, h.tid_len))
		collapse_perf_comm(o, line, h.comm_len, h.pid, h.pid_len, h.tid,
				   h.tid_len, pname);
	else
		collapse_perf_comm(o, line, h.comm_len, NULL, 0, h.pid, h.pid_len,
				   pname);
	return perl_true(pname->buf, pname->len);
}

bool collapse_perf_is_header(const char *line, size_t len)
{
	struct header h;
	return parse_header(line, len, &h);
}

/*
 * The event regex /:\s*(\d+)*\s+(\S+):\s*$/ as a scan from the end:
 * trailing spaces, a ':', the non-space run before it (the event, at
 * least one byte besides the ':'), spaces, optional digits (the period),
 * optional spaces, and a ':'.
 */
static bool parse_event(const char *s, size_t len, const char **ev,
			size_t *ev_len, const char **period, size_t *period_len)
{
	size_t e = len;
	while (e > 0 && is_space((unsigned char)s[e - 1]))
		e--;
	if (e < 2 || s[e - 1] != ':')
		return false;
	size_t b = e - 1;
	while (b > 0 && !is_space((unsigned char)s[b - 1]))
		b--;
	if (b == e - 1 || b == 0)
		return false;
	size_t i = b;
	while (i > 0 && is_space((unsigned char)s[i - 1]))
		i--;
	size_t dend = i;
	while (i > 0 && is_digit((unsigned char)s[i - 1]))
		i--;
	size_t dstart = i;
	if (dstart < dend)
		while (i > 0 && is_space((unsigned char)s[i - 1]))
			i--;
	if (i == 0 || s[i - 1] != ':')
		return false;
	*ev = s + b;
	*ev_len = e - 1 - b;
	*period = s + dstart;
	*period_len = dend - dstart;
	return true;
}

/*
 * The frame regex /^\s*(\w+)\s*(.+) \((.*)\)/: pc is a word run after
 * leading spaces; the symbol runs to the last " (" that has a ')' after
 * it; the dso runs from there to the last ')'. When that " (" leaves no
 * room for a symbol after the pc, Perl backtracks: the symbol becomes the
 * last space before it, or the last byte of the pc.
 */
static bool parse_frame(const char *s, size_t len, struct collapse_frame *f)
{
	size_t w = skip_space(s, 0, len);
	size_t x = w;
	while (x < len && is_word((unsigned char)s[x]))
		x++;
	if (x == w)
		return false;
	const char *close = memrchr(s + x, ')', len - x);
	if (!close)
		return false;
	size_t lp = (size_t)(close - s);
	/* k: the last " (" at or after x that ends before lp */
	size_t k = 0, lim = lp;
	for (;;) {
		const char *open = lim > x + 1 ? memrchr(s + x + 1, '(', lim - x - 1) : NULL;
		if (!open)
			return false;
		k = (size_t)(open - s) - 1;
		if (s[k] == ' ')
			break;
		lim = k + 1;
	}
	size_t y = skip_space(s, x, len);
	size_t sym;
	if (k >= y + 1) {
		sym = y;
	} else if (k >= x + 1) {
		sym = k - 1;
	} else if (x - 1 >= w + 1) {
		sym = x - 1;
		x = x - 1;
	} else {
		return false;
	}
	f->pc = s + w;
	f->pc_len = x - w;
	f->sym = s + sym;
	f->sym_len = k - sym;
	f->dso = s + k + 2;
	f->dso_len = lp - (k + 2);
	return true;
}

bool collapse_perf_is_frame(const char *line, size_t len)
{
	struct collapse_frame f;
	return parse_frame(line, len, &f);
}

/* ---- stacks as id sequences ---- */

static void seq_push(struct collapse_perf *p, uint32_t id)
{
	XGROW(p->seq, p->seq_cap, p->nseq + 2);
	p->seq[++p->nseq] = id; /* seq[0] is kept for the pname id */
}

static void seq_reset(struct collapse_perf *p)
{
	p->nseq = 0;
	p->seq_ok = true;
}

/* ---- frame line cache ----
 * An open-addressing table of its own rather than base/hmap: a lookup
 * touches one 16-byte slot and one record (key and frames side by side),
 * which matters when a system-wide profile has 10^5 distinct lines and
 * every one is looked up. A record: java flag, key length, frames length
 * (bit 15: the line gave no frame), the key, then the frames joined root
 * first. Lines or frames of 32 KiB or more are not cached. */

/* Bounds of the caches (they only speed things up; past a bound lines
 * and samples are parsed again): together at most ~200 MB however long
 * the input, on top of the stack table itself. */
enum {
	CACHE_MAX_LINES = 1 << 20,   /* frame lines cached */
	CACHE_MAX_BYTES = 64 << 20,  /* their records */
	SEQ_MAX_BYTES = 48 << 20,    /* id sequences of samples */
	RAW_MAX_SAMPLE = 1 << 20,    /* a sample held back */
	RAW_MAX_BYTES = 64 << 20,    /* samples remembered byte for byte */
	CACHE_MAX_LEN = 0x7fff,
	CACHE_NONE = 0x8000,
};

struct cache_rec {
	uint8_t java;
	uint16_t key_len, out_len; /* out_len & CACHE_NONE: no frame */
	char data[];               /* key, then frames */
};

static void cache_init(struct collapse_frame_cache *c)
{
	memset(c, 0, sizeof(*c));
	arena_init(&c->mem);
}

static void cache_release(struct collapse_frame_cache *c)
{
	free(c->slots);
	arena_release(&c->mem);
	memset(c, 0, sizeof(*c));
}

/* A cheap hash from the first and last 16 bytes and the length: frame
 * lines differ in their pc (the start) or dso (the end), and equal hashes
 * are told apart by comparing the whole key anyway. */
static uint64_t cache_hash(const char *key, size_t len, int java)
{
	if (len < 16)
		return hash_bytes(key, len) ^ (uint64_t)java;
	uint64_t a, b, c, d;
	memcpy(&a, key, 8);
	memcpy(&b, key + 8, 8);
	memcpy(&c, key + len - 16, 8);
	memcpy(&d, key + len - 8, 8);
	uint64_t h = (a * 0x9e3779b97f4a7c15ULL) ^ (b * 0xc2b2ae3d27d4eb4fULL) ^
		     (c * 0x165667b19e3779f9ULL) ^ (d * 0xd6e8feb86659fd93ULL) ^
		     ((uint64_t)len << 1) ^ (uint64_t)java;
	h ^= h >> 31;
	h *= 0x94d049bb133111ebULL;
	h ^= h >> 29;
	return h;
}

static void cache_grow(struct collapse_frame_cache *c)
{
	size_t n = c->nslots ? c->nslots * 2 : 4096;
	struct cache_slot *slots = xcalloc(n, sizeof(*slots));
	for (size_t i = 0; i < c->nslots; i++) {
		const struct cache_rec *r = c->slots[i].rec;
		if (!r)
			continue;
		size_t k = cache_hash(r->data, r->key_len, r->java) & (n - 1);
		while (slots[k].rec)
			k = (k + 1) & (n - 1);
		slots[k] = c->slots[i];
	}
	free(c->slots);
	c->slots = slots;
	c->nslots = n;
}

/* The slot holding (key, java), or the empty slot where it would go. */
static struct cache_slot *cache_slot(struct collapse_frame_cache *c,
				     const char *key, size_t len, int java)
{
	uint64_t h = cache_hash(key, len, java);
	uint32_t tag = (uint32_t)(h >> 32);
	size_t mask = c->nslots - 1;
	for (size_t k = h & mask;; k = (k + 1) & mask) {
		struct cache_slot *sl = &c->slots[k];
		if (!sl->rec)
			return sl;
		const struct cache_rec *r = sl->rec;
		if (sl->tag == tag && r->key_len == len && r->java == java &&
		    memcmp(r->data, key, len) == 0)
			return sl;
	}
}

/* A frame line seen before: push its frames (as one joined frame, which
 * joins to the same bytes). True when the line was in the cache. */
static bool cached_frame(struct collapse_perf *p, const char *s, size_t len)
{
	struct collapse_frame_cache *c = &p->cache;
	size_t w = skip_space(s, 0, len);
	if (!c->nslots || len - w > CACHE_MAX_LEN ||
	    (w == 0 && len > 0 && !is_word((unsigned char)s[0])))
		return false;
	int j = p->have_pname && collapse_perf_is_java(p->pname.buf, p->pname.len);
	const struct cache_slot *sl = cache_slot(c, s + w, len - w, j);
	const struct cache_rec *r = sl->rec;
	if (!r)
		return false;
	if (p->have_pname) {
		if (!(r->out_len & CACHE_NONE))
			stack_builder_push(&p->frames, r->data + r->key_len, r->out_len);
		seq_push(p, sl->id);
	}
	return true;
}

/* Remember the n frames a line just pushed (last n in the builder). */
static void cache_frame(struct collapse_perf *p, const char *s, size_t len,
			bool java, size_t n)
{
	struct collapse_frame_cache *c = &p->cache;
	struct stack_builder *b = &p->frames;
	size_t w = skip_space(s, 0, len);
	size_t first = b->nframes - n;
	size_t out = n ? b->ends[b->nframes - 1] - (first ? b->ends[first - 1] : 0) + n - 1 : 0;
	if (c->count >= CACHE_MAX_LINES || c->mem.total >= CACHE_MAX_BYTES ||
	    len - w > CACHE_MAX_LEN || out > CACHE_MAX_LEN) {
		p->seq_ok = false;
		return;
	}
	if ((c->count + 1) * 2 > c->nslots)
		cache_grow(c);
	struct cache_slot *sl = cache_slot(c, s + w, len - w, java);
	if (sl->rec) { /* cannot happen: a cached line is not parsed again */
		seq_push(p, sl->id);
		return;
	}
	struct cache_rec *r = arena_alloc(&c->mem, sizeof(*r) + (len - w) + out);
	r->java = java;
	r->key_len = (uint16_t)(len - w);
	r->out_len = (uint16_t)(n ? out : CACHE_NONE);
	memcpy(r->data, s + w, len - w);
	char *o = r->data + (len - w);
	for (size_t i = b->nframes; n > 0 && i-- > first;) {
		size_t flen;
		const char *f = stack_builder_frame(b, i, &flen);
		if (i != b->nframes - 1)
			*o++ = ';';
		memcpy(o, f, flen);
		o += flen;
	}
	sl->rec = r;
	sl->tag = (uint32_t)(cache_hash(s + w, len - w, java) >> 32);
	sl->id = (uint32_t)c->count++;
	seq_push(p, sl->id);
}

/* ---- the parser ---- */

void collapse_perf_init(struct collapse_perf *p, const struct collapse_opts *o,
			struct stack_table *out)
{
	memset(p, 0, sizeof(*p));
	p->opts = *o;
	collapse_opts_finish(&p->opts);
	p->out = out;
	stack_builder_init(&p->frames);
	sb_init(&p->pname);
	sb_init(&p->filter);
	sb_init(&p->filtered_event);
	sb_init(&p->first_bad);
	cache_init(&p->cache);
	hmap_init(&p->pnames);
	hmap_init(&p->seqs);
	hmap_init(&p->raws);
	sb_init(&p->raw);
	seq_reset(p);
	if (o->event_filter && o->event_filter[0]) {
		sb_adds(&p->filter, o->event_filter);
		p->filter_set = true;
	}
}

void collapse_perf_release(struct collapse_perf *p)
{
	stack_builder_release(&p->frames);
	sb_release(&p->pname);
	sb_release(&p->filter);
	sb_release(&p->filtered_event);
	sb_release(&p->first_bad);
	cache_release(&p->cache);
	hmap_release(&p->pnames);
	hmap_release(&p->seqs);
	hmap_release(&p->raws);
	sb_release(&p->raw);
	free(p->seq);
}

/* use_seqs false: the sample missed the raw map, so its id sequence is
 * almost surely new too (the stack table finds its text either way). */
static void end_sample_seqs(struct collapse_perf *p, bool use_seqs)
{
	if (!p->have_pname)
		return;
	size_t sid = (size_t)-1;
	bool added = false;
	if (p->seq_ok && use_seqs) {
		/* one hash and one probe: put when there is room, else find */
		XGROW(p->seq, p->seq_cap, p->nseq + 1);
		p->seq[0] = p->pname_id;
		size_t key_len = (p->nseq + 1) * sizeof(*p->seq);
		if (p->seqs.keys.total < SEQ_MAX_BYTES)
			sid = hmap_put(&p->seqs, p->seq, key_len, &added);
		else
			sid = hmap_find(&p->seqs, p->seq, key_len);
	}
	if (sid != (size_t)-1 && !added) {
		stack_table_add_id(p->out, hmap_at(&p->seqs, sid)->value, p->period);
		p->last_id = hmap_at(&p->seqs, sid)->value;
	} else {
		stack_builder_push(&p->frames, p->pname.buf, p->pname.len);
		size_t id = stack_table_add_built(p->out, &p->frames, STACK_LEAF_FIRST,
						  p->period);
		if (added)
			hmap_at(&p->seqs, sid)->value = id;
		p->last_id = id;
	}
	stack_builder_reset(&p->frames);
	seq_reset(p);
	p->have_pname = false;
	p->samples++;
}

static void end_sample(struct collapse_perf *p)
{
	end_sample_seqs(p, true);
}

static uint64_t parse_period(const char *s, size_t len)
{
	if (!perl_true(s, len))
		return 1;
	uint64_t v = 0;
	for (size_t i = 0; i < len; i++) {
		uint64_t d = (uint64_t)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return UINT64_MAX;
		v = v * 10 + d;
	}
	return v;
}

/* Event filtering; false when the sample is to be skipped. */
static bool keep_event(struct collapse_perf *p, const char *ev, size_t len)
{
	if (!p->filter_set) {
		sb_add(&p->filter, ev, len);
		p->filter_set = p->filter_defaulted = true;
		return true;
	}
	if (len == p->filter.len && memcmp(ev, p->filter.buf, len) == 0)
		return true;
	if (p->filter_defaulted && !p->filtered_warned) {
		sb_add(&p->filtered_event, ev, len);
		p->filtered_warned = true;
	}
	return false;
}

static void header_line(struct collapse_perf *p, const char *s, size_t len,
			const struct header *h)
{
	const char *ev, *per;
	size_t ev_len, per_len = 0;
	if (parse_event(s, len, &ev, &ev_len, &per, &per_len) &&
	    !keep_event(p, ev, ev_len))
		return;
	p->headers++;
	p->period = parse_period(per, per_len);
	bool two = perl_true(h->tid, h->tid_len);
	sb_reset(&p->pname);
	if (two)
		collapse_perf_comm(&p->opts, s, h->comm_len, h->pid, h->pid_len,
				   h->tid, h->tid_len, &p->pname);
	else
		collapse_perf_comm(&p->opts, s, h->comm_len, NULL, 0, h->pid,
				   h->pid_len, &p->pname);
	p->have_pname = perl_true(p->pname.buf, p->pname.len);
	if (p->pnames.keys.total < SEQ_MAX_BYTES / 4)
		p->pname_id = (uint32_t)hmap_put(&p->pnames, p->pname.buf, p->pname.len, NULL);
	else if ((p->pname_id = (uint32_t)hmap_find(&p->pnames, p->pname.buf,
						     p->pname.len)) == UINT32_MAX)
		p->seq_ok = false; /* too many names to intern: fold by text */
}

static const char *srcline_cb(void *ctx, size_t *len)
{
	struct collapse_perf *p = ctx;
	return p->next_line ? p->next_line(p->next_line_ctx, len) : NULL;
}

static void escape_into(struct strbuf *sb, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		sb_addc(sb, ((unsigned char)s[i] < 0x20 && s[i] != '\t') || s[i] == 0x7f ? '?' : s[i]);
}

static void bad_line(struct collapse_perf *p, const char *s, size_t len,
		     uint64_t lineno)
{
	if (p->bad_lines++ == 0) {
		p->first_bad_line = lineno;
		escape_into(&p->first_bad, s, len < 80 ? len : 80);
	}
}

/* A line that is neither blank, a comment nor a sample header. */
static void other_line(struct collapse_perf *p, const char *s, size_t len,
		       uint64_t lineno)
{
	struct collapse_frame f;
	if (p->frames.nframes >= COLLAPSE_MAX_FRAMES ||
	    p->frames.text.len >= COLLAPSE_MAX_SAMPLE_BYTES) {
		/* no blank line for ages: bound the open sample, say so once */
		if (p->have_pname && collapse_perf_is_frame(s, len) && !p->truncated_line)
			p->truncated_line = lineno;
	} else if (!p->opts.srcline && cached_frame(p, s, len)) {
		return;
	} else if (parse_frame(s, len, &f)) {
		if (!p->have_pname)
			return;
		f.srcline = srcline_cb;
		f.srcline_ctx = p;
		bool java = collapse_perf_is_java(p->pname.buf, p->pname.len);
		size_t n = collapse_perf_frame(&p->opts, java, &f, &p->frames);
		if (!p->opts.srcline)
			cache_frame(p, s, len, java, n);
		else
			p->seq_ok = false;
	} else {
		bad_line(p, s, len, lineno);
	}
}

/* ---- whole samples held back ---- */

/* After an accepted header: hold the sample's lines back when it starts
 * clean (no frames left open by a sample without a blank line). */
static void raw_start(struct collapse_perf *p)
{
	p->raw_on = p->have_pname && !p->opts.srcline && p->frames.nframes == 0 &&
		    p->raws.keys.total < RAW_MAX_BYTES;
	if (!p->raw_on)
		return;
	sb_reset(&p->raw);
	sb_add(&p->raw, p->pname.buf, p->pname.len);
	sb_addc(&p->raw, '\n');
	p->raw_lines = 0;
}

/* Parse the lines held back, as they would have been when they came. */
void collapse_perf_flush(struct collapse_perf *p)
{
	if (!p->raw_on)
		return;
	p->raw_on = false;
	const char *s = memchr(p->raw.buf, '\n', p->raw.len) + 1;
	const char *end = p->raw.buf + p->raw.len;
	for (uint64_t ln = p->raw_first; s < end; ln++) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		other_line(p, s, (size_t)(nl - s), ln);
		s = nl + 1;
	}
}

/* A sample put in the raw map whose lines were not all clean: always
 * parsed again (its bad lines are counted each time). */
#define RAW_UNCLEAN UINT64_MAX

static void raw_end(struct collapse_perf *p)
{
	bool added;
	size_t id = hmap_put(&p->raws, p->raw.buf, p->raw.len, &added);
	if (!added && hmap_at(&p->raws, id)->value != RAW_UNCLEAN) {
		p->raw_on = false;
		p->last_id = hmap_at(&p->raws, id)->value;
		stack_table_add_id(p->out, p->last_id, p->period);
		stack_builder_reset(&p->frames);
		seq_reset(p);
		p->have_pname = false;
		p->samples++;
		return;
	}
	uint64_t bad = p->bad_lines, trunc = p->truncated_line;
	collapse_perf_flush(p);
	end_sample_seqs(p, false);
	if (added)
		hmap_at(&p->raws, id)->value = p->bad_lines == bad &&
			p->truncated_line == trunc ? p->last_id : RAW_UNCLEAN;
}

static void raw_hold(struct collapse_perf *p, const char *s, size_t len,
		     uint64_t lineno)
{
	if (p->raw.len + len >= RAW_MAX_SAMPLE) {
		collapse_perf_flush(p);
		other_line(p, s, len, lineno);
		return;
	}
	if (p->raw_lines++ == 0)
		p->raw_first = lineno;
	sb_add(&p->raw, s, len);
	sb_addc(&p->raw, '\n');
}

void collapse_perf_line(struct collapse_perf *p, const char *s, size_t len,
			uint64_t lineno)
{
	struct header h;
	if (len == 0) {
		if (p->raw_on)
			raw_end(p);
		else
			end_sample(p);
		p->unterminated_line = 0;
		return;
	}
	if (s[0] == '#') {
		collapse_perf_flush(p); /* keeps held lines' numbers exact */
		return;
	}
	if (parse_header(s, len, &h)) {
		collapse_perf_flush(p);
		header_line(p, s, len, &h);
		raw_start(p);
		p->unterminated_line = lineno;
	} else if (p->raw_on) {
		raw_hold(p, s, len, lineno);
	} else {
		other_line(p, s, len, lineno);
	}
}

uint64_t collapse_perf_open_sample(const struct collapse_perf *p)
{
	return p->have_pname ? p->unterminated_line : 0;
}
