/*
 * strbuf: growable byte string, always NUL-terminated.
 * Stage: base. Invariant: buf is never NULL after SB_INIT/sb_init (it
 * points at a shared empty string until the first append), len excludes
 * the NUL. Memory leaves the strbuf only through sb_detach.
 */
#ifndef SCORCH_BASE_STRBUF_H
#define SCORCH_BASE_STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct strbuf {
	char *buf;
	size_t len;
	size_t cap; /* 0 while buf is the shared empty string */
};

extern char sb_empty[1];
#define SB_INIT { sb_empty, 0, 0 }

void sb_init(struct strbuf *sb);
void sb_release(struct strbuf *sb);        /* free; sb is empty and reusable */
void sb_reset(struct strbuf *sb);          /* len = 0, keep memory */
char *sb_detach(struct strbuf *sb, size_t *len); /* caller frees */
void sb_grow(struct strbuf *sb, size_t extra);
void sb_add(struct strbuf *sb, const void *data, size_t len);
void sb_adds(struct strbuf *sb, const char *s);
/* One byte: inline, since text is often built a byte at a time. */
static inline void sb_addc(struct strbuf *sb, char c)
{
	if (sb->cap - sb->len < 2)   /* room for c and the NUL? */
		sb_grow(sb, 1);
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = '\0';
}
/* v in lowercase hex, right-aligned in width columns with spaces ("%*llx"
 * without printf: addresses go out once per frame line). */
void sb_add_hex(struct strbuf *sb, uint64_t v, int width);
/* v as "%*.2f" prints it, without printf where that is safe (v in
 * [0, 1e12) and v * 100 not within 1e-6 of a tie; else printf decides):
 * reports print a percentage per line. */
void sb_add_fixed2(struct strbuf *sb, double v, int width);
void sb_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sb_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
void sb_setlen(struct strbuf *sb, size_t len);
/* Append with XML escaping of & < > " ' and of bytes that are not valid
 * in XML 1.0 (control characters become U+FFFD). Invalid UTF-8 sequences
 * become U+FFFD so the output is always well-formed. */
void sb_add_xml(struct strbuf *sb, const char *s, size_t len);
/* Write the whole buffer to f and reset it; returns 0, or -errno (errno
 * set too) with the buffer kept. */
int sb_flush(struct strbuf *sb, FILE *f);

/* "%d" of v into buf (room for 12 bytes) without printf (per process
 * frame named and per new chain folded: snprintf was 4% of the
 * instructions folding a DWARF recording of many distinct chains).
 * Returns its length. */
size_t int_to_text(char *buf, int v);

#endif
