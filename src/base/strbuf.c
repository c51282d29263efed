/* strbuf: growable NUL-terminated byte string (see strbuf.h). */
#include "base/strbuf.h"
#include "base/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

char sb_empty[1];

void sb_init(struct strbuf *sb)
{
	sb->buf = sb_empty;
	sb->len = 0;
	sb->cap = 0;
}

void sb_release(struct strbuf *sb)
{
	if (sb->cap)
		free(sb->buf);
	sb_init(sb);
}

void sb_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->cap)
		sb->buf[0] = '\0';
}

char *sb_detach(struct strbuf *sb, size_t *len)
{
	char *p = sb->cap ? sb->buf : xstrdup("");
	if (len)
		*len = sb->len;
	sb_init(sb);
	return p;
}

void sb_grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;
	if (need < extra)
		xmalloc((size_t)-1);
	if (need <= sb->cap)
		return;
	size_t cap = sb->cap ? sb->cap : 64;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	if (sb->cap) {
		sb->buf = xrealloc(sb->buf, cap);
	} else {
		sb->buf = xmalloc(cap);
		sb->buf[0] = '\0';
	}
	sb->cap = cap;
}

void sb_add(struct strbuf *sb, const void *data, size_t len)
{
	if (len >= sb->cap - sb->len)   /* no room for len bytes and the NUL */
		sb_grow(sb, len);
	if (len) /* data may be NULL when len is 0 (an empty callchain) */
		memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void sb_adds(struct strbuf *sb, const char *s)
{
	sb_add(sb, s, strlen(s));
}

/* Appends buf[n-1] .. buf[0] right-aligned in width columns. */
static void add_reversed(struct strbuf *sb, const char *buf, int n, int width)
{
	size_t pad = width > n ? (size_t)(width - n) : 0;
	sb_grow(sb, pad + (size_t)n);
	memset(sb->buf + sb->len, ' ', pad);
	sb->len += pad;
	while (n > 0)
		sb->buf[sb->len++] = buf[--n];
	sb->buf[sb->len] = '\0';
}

void sb_add_hex(struct strbuf *sb, uint64_t v, int width)
{
	char buf[16];
	int n = 0;
	do {
		buf[n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	add_reversed(sb, buf, n, width);
}

/* The rounding is read off t = v * 100, whose error (~1e-12 below 1e12)
 * decides nothing unless t is that close to x.5, where printf rounds the
 * double's exact value. */
void sb_add_fixed2(struct strbuf *sb, double v, int width)
{
	double t = v * 100.0, fl = floor(t);
	if (!(v >= 0 && v < 1e12) || signbit(v) || fabs(t - fl - 0.5) < 1e-6) {
		sb_addf(sb, "%*.2f", width, v);
		return;
	}
	uint64_t k = (uint64_t)fl + (t - fl > 0.5);
	char buf[32];
	int n = 0;
	buf[n++] = (char)('0' + k % 10);
	k /= 10;
	buf[n++] = (char)('0' + k % 10);
	k /= 10;
	buf[n++] = '.';
	do {
		buf[n++] = (char)('0' + k % 10);
		k /= 10;
	} while (k);
	add_reversed(sb, buf, n, width);
}

void sb_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	va_copy(cp, ap);
	char tmp[256];
	int n = vsnprintf(tmp, sizeof(tmp), fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(tmp)) {
		sb_add(sb, tmp, (size_t)n);
		return;
	}
	sb_grow(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void sb_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(sb, fmt, ap);
	va_end(ap);
}

void sb_setlen(struct strbuf *sb, size_t len)
{
	if (len > sb->len)
		sb_grow(sb, len - sb->len);
	sb->len = len;
	if (sb->cap)
		sb->buf[len] = '\0';
}

/* Length of a valid UTF-8 sequence at s (1..4), or 0 if invalid. */
static size_t utf8_seq_len(const unsigned char *s, size_t left)
{
	unsigned char c = s[0];
	size_t n;
	uint32_t cp;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	if (left < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	if (cp >= 0xd800 && cp <= 0xdfff)
		return 0;
	if (cp == 0xfffe || cp == 0xffff)
		return 0;
	return n;
}

void sb_add_xml(struct strbuf *sb, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, start = 0;
	sb_grow(sb, len);
	while (i < len) {
		unsigned char c = s[i];
		const char *rep = NULL;
		size_t adv = 1;
		if (c >= 0x20 && c < 0x80 && c != '&' && c != '<' && c != '>' &&
		    c != '"' && c != '\'') {
			i++;
			continue;
		}
		switch (c) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = "&quot;"; break;
		case '\'': rep = "&apos;"; break;
		case '\t': case '\n': case '\r': break;
		default:
			if (c < 0x20) {
				rep = "\xef\xbf\xbd";
			} else {
				adv = utf8_seq_len(s + i, len - i);
				if (!adv) {
					rep = "\xef\xbf\xbd";
					adv = 1;
				}
			}
		}
		if (rep) {
			sb_add(sb, s + start, i - start);
			sb_adds(sb, rep);
			i += adv;
			start = i;
		} else {
			i += adv;
		}
	}
	sb_add(sb, s + start, i - start);
}

int sb_flush(struct strbuf *sb, FILE *f)
{
	if (sb->len && fwrite(sb->buf, 1, sb->len, f) != sb->len)
		return errno ? -errno : -EIO;
	sb_reset(sb);
	return 0;
}

/* "%d" of v (see strbuf.h). */
size_t int_to_text(char *buf, int v)
{
	char tmp[12];
	size_t n = 0, len = 0;
	uint32_t u = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		buf[len++] = '-';
	while (n > 0)
		buf[len++] = tmp[--n];
	buf[len] = '\0';
	return len;
}
