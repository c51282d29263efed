/*
 * table: folded stacks interned to summed counts, and a builder that
 * assembles one stack frame by frame.
 * Stage: stacks. A stack is its frame strings joined by ';' (the folded
 * format); identical stacks share one entry whose count is the sum of
 * every add. Memory grows with distinct stacks only: keys live in the
 * table's hmap arena until stack_table_release. Output is deterministic:
 * lines "stack count\n" sorted bytewise, as Perl's sort (cmp) orders them.
 *
 *   struct stack_table t = STACK_TABLE_INIT;
 *   struct stack_builder b = STACK_BUILDER_INIT;
 *   stack_builder_push(&b, "leaf", 4);        // frames in any order...
 *   stack_builder_push(&b, "main", 4);
 *   stack_table_add_built(&t, &b, STACK_LEAF_FIRST, 1);  // ...say which
 *   stack_table_write(&t, stdout);
 *   stack_builder_release(&b); stack_table_release(&t);
 *
 * Nothing here fails except allocation, which is fatal (xalloc).
 */
#ifndef SCORCH_STACKS_TABLE_H
#define SCORCH_STACKS_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/hmap.h"
#include "base/strbuf.h"

struct stack_table {
	struct hmap map;    /* key: folded stack; entry value: summed count */
	uint64_t total;     /* sum of all counts (saturates at UINT64_MAX) */
};

#define STACK_TABLE_INIT { HMAP_INIT, 0 }

void stack_table_init(struct stack_table *t);
/* Free everything; t is empty and reusable. */
void stack_table_release(struct stack_table *t);
/* Add count to the stack (bytes, not NUL-terminated, may be empty);
 * returns the stack's dense id. Counts saturate at UINT64_MAX. */
size_t stack_table_add(struct stack_table *t, const char *stack, size_t len,
		       uint64_t count);
/* Add count to the stack with this id (from stack_table_add). */
void stack_table_add_id(struct stack_table *t, size_t id, uint64_t count);
/* Add every entry of src to t (merging tables from several inputs). */
void stack_table_merge(struct stack_table *t, const struct stack_table *src);
static inline size_t stack_table_count(const struct stack_table *t)
{
	return t->map.count;
}
/* Ids of all stacks sorted bytewise by stack text; caller frees. */
size_t *stack_table_sorted(const struct stack_table *t);
/* Stack text and count of an id: borrowed until release. */
const char *stack_table_key(const struct stack_table *t, size_t id, size_t *len);
uint64_t stack_table_value(const struct stack_table *t, size_t id);
/* Write "stack count\n" lines sorted; 0, or -1 with errno on write error. */
int stack_table_write(const struct stack_table *t, FILE *f);
/* The same to path (NULL or "-": standard output), created or
 * truncated, and closed. Returns 0 or -errno; *opened tells whether the
 * error came after the file was opened (a write or close error). */
int stack_table_write_path(const struct stack_table *t, const char *path,
			   bool *opened);
/* The same lines appended to a strbuf. */
void stack_table_write_sb(const struct stack_table *t, struct strbuf *out);

/*
 * stack_builder: frames of one stack pushed one at a time, in either
 * order, without an allocation per sample once its buffers have grown.
 * Frames may be empty strings; they are joined with ';' verbatim.
 */
enum stack_order { STACK_ROOT_FIRST, STACK_LEAF_FIRST };

struct stack_builder {
	struct strbuf text;   /* frame bytes back to back, in push order */
	size_t *ends;         /* ends[i]: offset in text after frame i */
	size_t nframes, cap;
	struct strbuf joined; /* scratch for the joined stack */
};

#define STACK_BUILDER_INIT { SB_INIT, NULL, 0, 0, SB_INIT }

void stack_builder_init(struct stack_builder *b);
void stack_builder_release(struct stack_builder *b);
/* Forget the frames, keep the memory. */
void stack_builder_reset(struct stack_builder *b);
void stack_builder_push(struct stack_builder *b, const char *frame, size_t len);
/* Open a frame whose bytes the caller appends to b->text, then close it
 * with stack_builder_end_frame (no copy through a temporary). */
static inline struct strbuf *stack_builder_begin_frame(struct stack_builder *b)
{
	return &b->text;
}
void stack_builder_end_frame(struct stack_builder *b);
/* Reverse the order of the last n frames (n is capped at nframes). */
void stack_builder_reverse_tail(struct stack_builder *b, size_t n);
/* Frame i in push order: borrowed until the next push or reset. */
const char *stack_builder_frame(const struct stack_builder *b, size_t i,
				size_t *len);
/* The frames joined root first with ';'; borrowed until the next call. */
const char *stack_builder_join(struct stack_builder *b, enum stack_order order,
			       size_t *len);
/* Join and add to the table; the builder is left unchanged. */
size_t stack_table_add_built(struct stack_table *t, struct stack_builder *b,
			     enum stack_order order, uint64_t count);

#endif
