/*
 * cursor: bounds-checked reader over untrusted bytes.
 * Stage: base. Every read checks the bytes left first; a short read sets
 * the sticky error flag, returns zero, and leaves the cursor at its end,
 * so a parser can read a whole struct and test cur->err once. Integers
 * are loaded with memcpy (records are not always aligned) and byte-swapped
 * when swap is set (file written on a machine of the other byte order).
 * off is the absolute file offset of p, for messages.
 */
#ifndef SCORCH_BASE_CURSOR_H
#define SCORCH_BASE_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct cursor {
	const uint8_t *p;
	size_t left;
	uint64_t off;
	bool swap;
	bool err;
};

static inline void cur_init(struct cursor *c, const void *p, size_t len,
			    uint64_t off, bool swap)
{
	c->p = p;
	c->left = len;
	c->off = off;
	c->swap = swap;
	c->err = false;
}

static inline bool cur_need(struct cursor *c, size_t n)
{
	if (c->left < n) {
		c->p += c->left;
		c->off += c->left;
		c->left = 0;
		c->err = true;
		return false;
	}
	return true;
}

static inline void cur_advance(struct cursor *c, size_t n)
{
	c->p += n;
	c->left -= n;
	c->off += n;
}

static inline uint8_t cur_u8(struct cursor *c)
{
	if (!cur_need(c, 1))
		return 0;
	uint8_t v = c->p[0];
	cur_advance(c, 1);
	return v;
}

static inline uint16_t cur_u16(struct cursor *c)
{
	uint16_t v;
	if (!cur_need(c, 2))
		return 0;
	memcpy(&v, c->p, 2);
	cur_advance(c, 2);
	return c->swap ? __builtin_bswap16(v) : v;
}

static inline uint32_t cur_u32(struct cursor *c)
{
	uint32_t v;
	if (!cur_need(c, 4))
		return 0;
	memcpy(&v, c->p, 4);
	cur_advance(c, 4);
	return c->swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t cur_u64(struct cursor *c)
{
	uint64_t v;
	if (!cur_need(c, 8))
		return 0;
	memcpy(&v, c->p, 8);
	cur_advance(c, 8);
	return c->swap ? __builtin_bswap64(v) : v;
}

/* Pointer to the next n bytes (borrowed from the buffer), or NULL. */
static inline const uint8_t *cur_bytes(struct cursor *c, size_t n)
{
	if (!cur_need(c, n))
		return NULL;
	const uint8_t *p = c->p;
	cur_advance(c, n);
	return p;
}

static inline bool cur_skip(struct cursor *c, size_t n)
{
	if (!cur_need(c, n))
		return false;
	cur_advance(c, n);
	return true;
}

/* A sub-cursor over the next n bytes; the parent moves past them. */
static inline struct cursor cur_sub(struct cursor *c, size_t n)
{
	struct cursor s;
	uint64_t off = c->off;
	const uint8_t *p = cur_bytes(c, n);
	cur_init(&s, p ? p : c->p, p ? n : 0, off, c->swap);
	s.err = p == NULL;
	return s;
}

#endif
