/*
 * table: folded stacks interned to summed counts (see table.h).
 * Stage: stacks. Invariant: every entry's value is the saturating sum of
 * the counts added for exactly that key; ids are dense in first-seen order.
 */
#include "stacks/table.h"
#include "base/xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- table ---- */

void stack_table_init(struct stack_table *t)
{
	hmap_init(&t->map);
	t->total = 0;
}

void stack_table_release(struct stack_table *t)
{
	hmap_release(&t->map);
	t->total = 0;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

size_t stack_table_add(struct stack_table *t, const char *stack, size_t len,
		       uint64_t count)
{
	size_t id = hmap_put(&t->map, stack, len, NULL);
	struct hmap_entry *e = hmap_at(&t->map, id);
	e->value = add_sat(e->value, count);
	t->total = add_sat(t->total, count);
	return id;
}

void stack_table_add_id(struct stack_table *t, size_t id, uint64_t count)
{
	struct hmap_entry *e = hmap_at(&t->map, id);
	e->value = add_sat(e->value, count);
	t->total = add_sat(t->total, count);
}

void stack_table_merge(struct stack_table *t, const struct stack_table *src)
{
	for (size_t id = 0; id < src->map.count; id++) {
		const struct hmap_entry *e = &src->map.entries[id];
		stack_table_add(t, e->key, e->len, e->value);
	}
}

const char *stack_table_key(const struct stack_table *t, size_t id, size_t *len)
{
	*len = t->map.entries[id].len;
	return t->map.entries[id].key;
}

uint64_t stack_table_value(const struct stack_table *t, size_t id)
{
	return t->map.entries[id].value;
}

size_t *stack_table_sorted(const struct stack_table *t)
{
	return hmap_sorted(&t->map);
}

void stack_table_write_sb(const struct stack_table *t, struct strbuf *out)
{
	size_t *ids = stack_table_sorted(t);
	for (size_t i = 0; i < t->map.count; i++) {
		const struct hmap_entry *e = &t->map.entries[ids[i]];
		sb_add(out, e->key, e->len);
		sb_addf(out, " %llu\n", (unsigned long long)e->value);
	}
	free(ids);
}

int stack_table_write(const struct stack_table *t, FILE *f)
{
	struct strbuf sb = SB_INIT;
	size_t *ids = stack_table_sorted(t);
	int rc = 0;
	for (size_t i = 0; i < t->map.count && rc == 0; i++) {
		const struct hmap_entry *e = &t->map.entries[ids[i]];
		sb_add(&sb, e->key, e->len);
		sb_addf(&sb, " %llu\n", (unsigned long long)e->value);
		if (sb.len >= 1 << 16)
			rc = sb_flush(&sb, f);
	}
	if (rc == 0)
		rc = sb_flush(&sb, f);
	sb_release(&sb);
	free(ids);
	return rc;
}

int stack_table_write_path(const struct stack_table *t, const char *path,
			   bool *opened)
{
	bool to_stdout = !path || !strcmp(path, "-");
	FILE *f = to_stdout ? stdout : fopen(path, "w");
	*opened = f != NULL;
	if (!f)
		return -errno;
	int rc = stack_table_write(t, f);
	if (!to_stdout && fclose(f) != 0 && rc >= 0)
		rc = -errno;
	return rc;
}

/* ---- builder ---- */

void stack_builder_init(struct stack_builder *b)
{
	sb_init(&b->text);
	sb_init(&b->joined);
	b->ends = NULL;
	b->nframes = b->cap = 0;
}

void stack_builder_release(struct stack_builder *b)
{
	sb_release(&b->text);
	sb_release(&b->joined);
	free(b->ends);
	stack_builder_init(b);
}

void stack_builder_reset(struct stack_builder *b)
{
	sb_reset(&b->text);
	b->nframes = 0;
}

void stack_builder_end_frame(struct stack_builder *b)
{
	XGROW(b->ends, b->cap, b->nframes + 1);
	b->ends[b->nframes++] = b->text.len;
}

void stack_builder_push(struct stack_builder *b, const char *frame, size_t len)
{
	sb_add(&b->text, frame, len);
	stack_builder_end_frame(b);
}

const char *stack_builder_frame(const struct stack_builder *b, size_t i,
				size_t *len)
{
	size_t start = i ? b->ends[i - 1] : 0;
	*len = b->ends[i] - start;
	return b->text.buf + start;
}

/* Reversing frames means moving bytes: copy the tail reversed through
 * joined, then turn ends into lengths, reverse them, and sum them up. */
void stack_builder_reverse_tail(struct stack_builder *b, size_t n)
{
	if (n > b->nframes)
		n = b->nframes;
	if (n < 2)
		return;
	size_t first = b->nframes - n, last = b->nframes - 1;
	size_t base = first ? b->ends[first - 1] : 0;
	sb_reset(&b->joined);
	for (size_t i = last + 1; i-- > first;) {
		size_t len;
		const char *f = stack_builder_frame(b, i, &len);
		sb_add(&b->joined, f, len);
	}
	for (size_t i = last; i > first; i--)
		b->ends[i] -= b->ends[i - 1];
	b->ends[first] -= base;
	for (size_t i = first, j = last; i < j; i++, j--) {
		size_t tmp = b->ends[i];
		b->ends[i] = b->ends[j];
		b->ends[j] = tmp;
	}
	for (size_t i = first, off = base; i <= last; i++) {
		off += b->ends[i];
		b->ends[i] = off;
	}
	memcpy(b->text.buf + base, b->joined.buf, b->joined.len);
}

const char *stack_builder_join(struct stack_builder *b, enum stack_order order,
			       size_t *len)
{
	sb_reset(&b->joined);
	sb_grow(&b->joined, b->text.len + b->nframes);
	for (size_t k = 0; k < b->nframes; k++) {
		size_t i = order == STACK_ROOT_FIRST ? k : b->nframes - 1 - k;
		size_t flen;
		const char *f = stack_builder_frame(b, i, &flen);
		if (k)
			b->joined.buf[b->joined.len++] = ';';
		memcpy(b->joined.buf + b->joined.len, f, flen);
		b->joined.len += flen;
	}
	b->joined.buf[b->joined.len] = '\0';
	*len = b->joined.len;
	return b->joined.buf;
}

size_t stack_table_add_built(struct stack_table *t, struct stack_builder *b,
			     enum stack_order order, uint64_t count)
{
	size_t len;
	const char *s = stack_builder_join(b, order, &len);
	return stack_table_add(t, s, len, count);
}
