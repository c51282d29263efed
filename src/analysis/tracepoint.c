/*
 * tracepoint: tracing data walk and RAW field reads (see tracepoint.h).
 * Stage: analysis. Layout of perf's tracing data (tools/perf
 * trace-event-info.c writes it): magic 23 8 68 "tracing", a NUL-ended
 * version, 1 byte big-endian flag, 1 byte long size, u32 page size;
 * "header_page\0" u64 size + bytes; "header_event\0" u64 size + bytes;
 * u32 count of ftrace formats, each u64 size + text; u32 count of
 * systems, each a NUL-ended name, u32 count, each u64 size + text; then
 * kallsyms, printk formats and saved cmdlines (not needed here). Integers
 * are in the tracing data's own byte order. Key invariant: every length
 * is checked against the bytes left before use.
 */
#include "analysis/tracepoint.h"

#include "base/cursor.h"
#include "base/strbuf.h"

#include <errno.h>
#include <event-parse.h>
#include <stdlib.h>
#include <string.h>

void an_tp_init(struct an_tp *tp)
{
	memset(tp, 0, sizeof(*tp));
}

void an_tp_release(struct an_tp *tp)
{
	if (tp->tep)
		tep_free(tp->tep);
	free(tp->scratch);
	memset(tp, 0, sizeof(*tp));
}

/* A NUL-terminated string inside the cursor, or NULL. */
static const char *cur_cstr(struct cursor *c)
{
	const void *nul = c->left ? memchr(c->p, 0, c->left) : NULL;
	if (!nul) {
		cur_need(c, c->left + 1);
		return NULL;
	}
	const char *s = (const char *)c->p;
	cur_advance(c, (size_t)((const uint8_t *)nul - c->p) + 1);
	return s;
}

static int expect_tag(struct cursor *c, const char *tag, struct diag *d)
{
	uint64_t off = c->off;
	const char *s = cur_cstr(c);
	if (!s || strcmp(s, tag) != 0) {
		diag_set_at(d, off, "tracing data: expected \"%s\"", tag);
		return -EINVAL;
	}
	uint64_t size = cur_u64(c);
	if (c->err || !cur_skip(c, size)) {
		diag_set_at(d, off, "tracing data: %s of %llu bytes runs past the end",
			    tag, (unsigned long long)size);
		return -EINVAL;
	}
	return 0;
}

/* ---- format text: validated and rebuilt before libtraceevent sees it ---- */

static bool all_of(const char *s, size_t n, const char *set)
{
	for (size_t i = 0; i < n; i++)
		if (!s[i] || !strchr(set, s[i]))
			return false;
	return n > 0;
}

#define IDENT "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"
#define DIGITS "0123456789"

/* "KEY:VALUE;" at *p (after optional tabs/spaces); VALUE chars from set. */
static bool take_kv(const char **p, const char *end, const char *key,
		    const char *set, struct strbuf *out)
{
	const char *q = *p;
	while (q < end && (*q == '\t' || *q == ' '))
		q++;
	size_t kl = strlen(key);
	if ((size_t)(end - q) < kl || memcmp(q, key, kl) != 0)
		return false;
	q += kl;
	const char *semi = memchr(q, ';', (size_t)(end - q));
	if (!semi || !all_of(q, (size_t)(semi - q), set) || semi - q > 128)
		return false;
	sb_addf(out, "\t%s", key);
	sb_add(out, q, (size_t)(semi - q));
	sb_addc(out, ';');
	*p = semi + 1;
	return true;
}

/* One "\tfield:DECL;\toffset:N;\tsize:N;\tsigned:N;" line. */
static bool field_line(const char *l, size_t n, struct strbuf *out)
{
	const char *p = l, *end = l + n;
	if (!take_kv(&p, end, "field:", IDENT " *[]", out) ||
	    !take_kv(&p, end, "offset:", DIGITS, out) ||
	    !take_kv(&p, end, "size:", DIGITS, out))
		return false;
	if (p < end && !take_kv(&p, end, "signed:", "01", out))
		return false;
	sb_addc(out, '\n');
	return true;
}

/* A print format line scorch script may hand to libtraceevent: printable
 * ASCII, bounded, quotes and parentheses balanced. */
static bool print_fmt_ok(const char *l, size_t len)
{
	int depth = 0;
	bool quoted = false;
	if (len > 4096)
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = l[i];
		if (c < 0x20 || c > 0x7e)
			return false;
		if (c == '\\' && quoted && i + 1 < len)
			i++;
		else if (c == '"')
			quoted = !quoted;
		else if (!quoted && c == '(')
			depth++;
		else if (!quoted && c == ')' && --depth < 0)
			return false;
	}
	return !quoted && depth == 0;
}

/* Rebuild "name:", "ID:", "format:" and field lines; false when the text
 * does not have that shape (the event is then skipped). keep_print keeps
 * a print format that passes print_fmt_ok (for scorch script). */
static bool rebuild_format(const char *t, size_t n, bool keep_print,
			   struct strbuf *out)
{
	const char *end = t + n, *l = t;
	int stage = 0;
	while (l < end) {
		const char *nl = memchr(l, '\n', (size_t)(end - l));
		size_t len = nl ? (size_t)(nl - l) : (size_t)(end - l);
		if (stage == 0 && len > 6 && !memcmp(l, "name: ", 6) && all_of(l + 6, len - 6, IDENT)) {
			sb_add(out, l, len);
			stage = 1;
		} else if (stage == 1 && len > 4 && !memcmp(l, "ID: ", 4) && all_of(l + 4, len - 4, DIGITS) && len < 16) {
			sb_adds(out, "\n");
			sb_add(out, l, len);
			stage = 2;
		} else if (stage == 2 && len == 7 && !memcmp(l, "format:", 7)) {
			sb_adds(out, "\nformat:\n");
			stage = 3;
		} else if (stage == 3 && len == 0) {
			sb_addc(out, '\n');
		} else if (stage == 3 && len > 11 && !memcmp(l, "print fmt:", 10)) {
			if (keep_print && print_fmt_ok(l, len)) {
				sb_addc(out, '\n');
				sb_add(out, l, len);
				sb_addc(out, '\n');
				return true;
			}
			break;
		} else if (stage == 3) {
			if (!field_line(l, len, out))
				return false;
		} else {
			return false;
		}
		l += len + 1;
	}
	if (stage != 3)
		return false;
	sb_adds(out, "\nprint fmt: \"\"\n");
	return true;
}

static int parse_format(struct an_tp *tp, struct cursor *c, const char *sys,
			struct diag *d)
{
	uint64_t off = c->off;
	uint64_t size = cur_u64(c);
	const uint8_t *text = c->err ? NULL : cur_bytes(c, size);
	if (!text) {
		diag_set_at(d, off, "tracing data: event format of %llu bytes runs "
			    "past the end", (unsigned long long)size);
		return -EINVAL;
	}
	/* libtraceevent's parser crashes on some malformed formats: it only
	 * ever sees the fields, validated and rebuilt here, and an empty print
	 * format (the print format is not needed). */
	struct strbuf sb = SB_INIT;
	if (all_of(sys, strlen(sys), IDENT) && rebuild_format((const char *)text, size, tp->keep_print, &sb) &&
	    tep_parse_event(tp->tep, sb.buf, sb.len, sys) == 0)
		tp->nr_events++;
	else
		tp->nr_bad_formats++;
	sb_release(&sb);
	return 0;
}

static int parse_systems(struct an_tp *tp, struct cursor *c, struct diag *d)
{
	uint32_t nftrace = cur_u32(c);
	for (uint32_t i = 0; i < nftrace && !c->err; i++)
		if (parse_format(tp, c, "ftrace", d) < 0)
			return -EINVAL;
	uint32_t nsys = cur_u32(c);
	for (uint32_t i = 0; i < nsys && !c->err; i++) {
		uint64_t off = c->off;
		const char *sys = cur_cstr(c);
		uint32_t n = cur_u32(c);
		if (!sys || c->err) {
			diag_set_at(d, off, "tracing data: system entry runs past the end");
			return -EINVAL;
		}
		for (uint32_t j = 0; j < n; j++)
			if (parse_format(tp, c, sys, d) < 0)
				return -EINVAL;
	}
	if (c->err) {
		diag_set_at(d, c->off, "tracing data: truncated event formats");
		return -EINVAL;
	}
	return 0;
}

int an_tp_load(struct an_tp *tp, const uint8_t *data, size_t size, struct diag *d)
{
	static const uint8_t magic[10] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct cursor c;
	cur_init(&c, data, size, 0, false);
	const uint8_t *m = cur_bytes(&c, sizeof(magic));
	if (!m || memcmp(m, magic, sizeof(magic)) != 0) {
		diag_set_at(d, 0, "tracing data: bad magic");
		return -EINVAL;
	}
	const char *version = cur_cstr(&c);
	uint8_t big = cur_u8(&c);
	uint8_t long_size = cur_u8(&c);
	if (!version || c.err || (long_size != 4 && long_size != 8)) {
		diag_set_at(d, c.off, "tracing data: bad header");
		return -EINVAL;
	}
	bool host_big = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	c.swap = (big != 0) != host_big;
	uint32_t page_size = cur_u32(&c);
	if (tp->tep)
		tep_free(tp->tep);
	tep_set_loglevel(TEP_LOG_NONE);
	tp->tep = tep_alloc();
	tep_set_file_bigendian(tp->tep, big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tp->tep, long_size);
	tep_set_page_size(tp->tep, (int)page_size);
	if (expect_tag(&c, "header_page", d) < 0 || expect_tag(&c, "header_event", d) < 0)
		return -EINVAL;
	return parse_systems(tp, &c, d);
}

struct tep_event *an_tp_event(const struct an_tp *tp, uint64_t id)
{
	if (!tp->tep || id > INT32_MAX)
		return NULL;
	return tep_find_event(tp->tep, (int)id);
}

struct tep_event *an_tp_event_by_name(const struct an_tp *tp, const char *name)
{
	const char *colon = strchr(name, ':');
	if (!tp->tep || !colon)
		return NULL;
	struct strbuf sys = SB_INIT;
	sb_add(&sys, name, (size_t)(colon - name));
	struct tep_event *ev = tep_find_event_by_name(tp->tep, sys.buf, colon + 1);
	sb_release(&sys);
	return ev;
}

bool an_tp_field(struct tep_event *ev, const char *name, struct an_tp_field *out)
{
	struct tep_format_field *f = ev ? tep_find_any_field(ev, name) : NULL;
	if (!f || f->offset < 0 || f->size < 0)
		return false;
	out->f = f;
	out->offset = (unsigned)f->offset;
	out->size = (unsigned)f->size;
	out->is_signed = f->flags & TEP_FIELD_IS_SIGNED;
	out->dynamic = f->flags & TEP_FIELD_IS_DYNAMIC;
	out->string = f->flags & (TEP_FIELD_IS_STRING | TEP_FIELD_IS_ARRAY);
	return true;
}

static uint64_t load(const uint8_t *p, unsigned size, bool swap, bool sign)
{
	uint64_t v = 0;
	switch (size) {
	case 1: v = p[0]; if (sign) v = (uint64_t)(int64_t)(int8_t)v; break;
	case 2: { uint16_t x; memcpy(&x, p, 2); if (swap) x = __builtin_bswap16(x);
		v = sign ? (uint64_t)(int64_t)(int16_t)x : x; break; }
	case 4: { uint32_t x; memcpy(&x, p, 4); if (swap) x = __builtin_bswap32(x);
		v = sign ? (uint64_t)(int64_t)(int32_t)x : x; break; }
	case 8: memcpy(&v, p, 8); if (swap) v = __builtin_bswap64(v); break;
	}
	return v;
}

int an_tp_read_u64(const struct an_tp_field *f, const uint8_t *raw,
		   size_t raw_size, bool swap, uint64_t *out)
{
	unsigned sz = f->size;
	if (sz != 1 && sz != 2 && sz != 4 && sz != 8)
		return -ERANGE;
	if (!raw || (size_t)f->offset + sz > raw_size)
		return -ERANGE;
	*out = load(raw + f->offset, sz, swap, f->is_signed);
	return 0;
}

int an_tp_read_str(const struct an_tp_field *f, const uint8_t *raw,
		   size_t raw_size, bool swap, const char **s, size_t *len)
{
	size_t off = f->offset, n = f->size;
	if (!raw || off + n > raw_size)
		return -ERANGE;
	if (f->dynamic) {
		/* __data_loc: u32 = (length << 16) | offset */
		if (n != 4)
			return -ERANGE;
		uint32_t loc = (uint32_t)load(raw + off, 4, swap, false);
		off = loc & 0xffff;
		n = loc >> 16;
		if (f->f->flags & TEP_FIELD_IS_RELATIVE)
			off += (size_t)f->offset + 4;
		if (off + n > raw_size)
			return -ERANGE;
	}
	const char *p = (const char *)raw + off;
	const char *nul = memchr(p, 0, n);
	*s = p;
	*len = nul ? (size_t)(nul - p) : n;
	return 0;
}

/* The furthest byte any field of ev can make libtraceevent read: a
 * fixed field's end, or a (relative) __data_loc's reach. */
static size_t fields_reach(const struct tep_format_field *f)
{
	size_t reach = 0;
	for (; f; f = f->next) {
		size_t end = (size_t)(unsigned)f->offset + (size_t)(unsigned)f->size;
		if (f->flags & (TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_RELATIVE))
			end += 2 * 65536u;
		if (end > reach)
			reach = end;
	}
	return reach;
}

void an_tp_print(struct an_tp *tp, struct tep_event *ev, const void *raw,
		 size_t raw_size, uint64_t time, int cpu, struct trace_seq *seq)
{
	enum { LIMIT = 1u << 20 };
	size_t reach = fields_reach(ev->format.common_fields);
	size_t r2 = fields_reach(ev->format.fields);
	if (r2 > reach)
		reach = r2;
	if (reach > LIMIT + 2 * 65536u || raw_size > LIMIT)
		return;
	size_t need = (reach > raw_size ? reach : raw_size) + 8;
	if (need > tp->scratch_cap) { /* zero past the copy: the invariant */
		free(tp->scratch);
		tp->scratch = calloc(1, need);
		if (!tp->scratch) {
			tp->scratch_cap = 0;
			return;
		}
		tp->scratch_cap = need;
	}
	memcpy(tp->scratch, raw, raw_size);
	struct tep_record rec;
	memset(&rec, 0, sizeof(rec));
	rec.ts = time;
	rec.cpu = cpu;
	rec.size = (int)raw_size;
	rec.data = tp->scratch;
	tep_print_event(tp->tep, seq, &rec, "%s", TEP_PRINT_INFO);
	memset(tp->scratch, 0, raw_size);
}
