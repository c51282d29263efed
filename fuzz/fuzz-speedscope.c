/*
 * fuzz-speedscope: the speedscope encoder (src/render/speedscope.c):
 * its JSON string escaping and whole files of random profiles.
 * Input: byte 0 mode (bits 0-1: per thread, process, none; bit 2:
 * evented; bit 3: process frames), then folded lines "a;b;c N". With
 * bit 3 the first frame of a line becomes a process frame (pid and tid
 * from the line's bytes), else every frame is a text frame; each line
 * is one sample at a time that may go backwards.
 * Checks: the escaped form of the whole input is a JSON string (quotes
 * around, no raw control byte, '"' or '\\', only valid escapes, valid
 * UTF-8) that decodes to UTF-8 which escapes back to the same text; a
 * whole file is valid UTF-8 with no control byte but newlines, and the
 * encoder refuses evented output exactly for a profile without times
 * (bit 4: rows not kept; bit 5: weights counted, not nanoseconds).
 */
#include "render/speedscope.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stacks/folded.h"

/* A valid UTF-8 sequence at p (n bytes left): its length, 0 if none.
 * Written apart from the encoder's, from RFC 3629's table. */
static size_t utf8_seq(const unsigned char *p, size_t n)
{
	unsigned char c = p[0];
	if (c < 0x80)
		return 1;
	size_t len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
	if (c < 0xc2 || c > 0xf4 || n < len)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	unsigned char d = p[1];
	if ((c == 0xe0 && d < 0xa0) || (c == 0xed && d > 0x9f) ||
	    (c == 0xf0 && d < 0x90) || (c == 0xf4 && d > 0x8f))
		return 0;
	return len;
}

enum { CTL_NONE, CTL_NEWLINE, CTL_ANY };

/* p is valid UTF-8 with control bytes as ctl allows; else abort. */
static void check_utf8(const unsigned char *p, size_t n, int ctl)
{
	for (size_t i = 0; i < n;) {
		if (p[i] < 0x20 && ctl != CTL_ANY && !(ctl == CTL_NEWLINE && p[i] == '\n'))
			abort();
		size_t k = utf8_seq(p + i, n - i);
		if (!k)
			abort();
		i += k;
	}
}

/* Decode the JSON string s (quotes included) into out; aborts when it
 * is not one. */
static void decode(const struct strbuf *s, struct strbuf *out)
{
	const char *p = s->buf, *end = s->buf + s->len;
	if (s->len < 2 || p[0] != '"' || end[-1] != '"')
		abort();
	check_utf8((const unsigned char *)p, s->len, CTL_NONE);
	for (p++, end--; p < end; p++) {
		if (*p == '"')
			abort();
		if (*p != '\\') {
			sb_addc(out, *p);
			continue;
		}
		if (++p >= end)
			abort();
		const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
		const char *e = strchr(from, *p);
		if (*p && e) {
			sb_addc(out, to[e - from]);
		} else if (*p == 'u' && end - p > 4) {
			unsigned v = 0;
			for (int i = 1; i <= 4; i++) {
				char h = p[i];
				int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ?
					h - 'a' + 10 : -1;
				if (d < 0)
					abort();
				v = v << 4 | (unsigned)d;
			}
			if (v >= 0x20) /* only control characters need it */
				abort();
			sb_addc(out, (char)v);
			p += 4;
		} else {
			abort();
		}
	}
}

static void check_string(const uint8_t *data, size_t size)
{
	struct strbuf esc = SB_INIT, dec = SB_INIT, again = SB_INIT;
	speedscope_json_string(&esc, (const char *)data, size);
	decode(&esc, &dec);
	check_utf8((const unsigned char *)dec.buf, dec.len, CTL_ANY);
	speedscope_json_string(&again, dec.buf, dec.len);
	if (again.len != esc.len || memcmp(again.buf, esc.buf, esc.len))
		abort();
	sb_release(&esc);
	sb_release(&dec);
	sb_release(&again);
}

static void add_line(struct profile *p, const struct stack_folded *f, unsigned mode,
		     uint64_t i)
{
	const char *semi = memchr(f->stack, ';', f->stack_len);
	uint32_t st;
	if ((mode & 8) && semi) {
		size_t n = 1, cap = 8;
		uint32_t *ids = malloc(cap * sizeof(*ids));
		struct prof_frame_desc d = { .kind = PROF_FRAME_COMM, .name = f->stack,
					     .name_len = (size_t)(semi - f->stack),
					     .pid = (int32_t)(f->stack_len % 3),
					     .tid = (int32_t)(i % 4) };
		ids[0] = prof_frames_intern(&p->frames, &d);
		const char *s = semi + 1, *end = f->stack + f->stack_len;
		while (s <= end) {
			const char *e = memchr(s, ';', (size_t)(end - s));
			e = e ? e : end;
			struct prof_frame_desc t = { .kind = PROF_FRAME_TEXT, .name = s,
						     .name_len = (size_t)(e - s) };
			if (n == cap)
				ids = realloc(ids, (cap *= 2) * sizeof(*ids));
			ids[n++] = prof_frames_intern(&p->frames, &t);
			s = e + 1;
		}
		st = profile_stack(p, ids, n);
		free(ids);
	} else {
		st = profile_add_folded(p, f->stack, f->stack_len, 0, 0);
	}
	uint64_t w = f->count >= 1 && f->count < 1e12 ? (uint64_t)f->count : 1;
	struct prof_sample s = { (i * 7919 + w) % 1000, 0, 0, 0 };
	profile_sample(p, st, w, &s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_string(data, size);
	if (size < 1)
		return 0;
	unsigned mode = data[0];
	struct profile p;
	profile_init(&p, (mode & 16) ? 0 : PROF_COL_TIME);
	const char *s = (const char *)data + 1, *end = (const char *)data + size;
	for (uint64_t i = 0; s < end; i++) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t len = nl ? (size_t)(nl - s) : (size_t)(end - s);
		struct stack_folded f;
		if (stack_folded_parse(s, len, &f) == 0)
			add_line(&p, &f, mode, i);
		s += len + 1;
	}
	struct collapse_opts co = COLLAPSE_OPTS_INIT;
	struct prof_names nm;
	prof_names_init(&nm, &co);
	static const enum speedscope_per per[4] = { SPEEDSCOPE_PER_THREAD,
		SPEEDSCOPE_PER_PROCESS, SPEEDSCOPE_PER_NONE, SPEEDSCOPE_PER_THREAD };
	struct speedscope_opts o = { "fuzz\x01\xff", "scorch", (mode & 32) ? "none" : "nanoseconds",
				     per[mode & 3], (mode & 4) != 0 };
	struct strbuf out = SB_INIT;
	int rc = speedscope_write(&p, &nm, &o, &out);
	if ((rc != 0) != (o.evented && (mode & 16)))
		abort();
	if (rc == 0)
		check_utf8((const unsigned char *)out.buf, out.len, CTL_NEWLINE);
	sb_release(&out);
	prof_names_release(&nm);
	profile_release(&p);
	return 0;
}
