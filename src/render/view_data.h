/*
 * view_data: the profile as the HTML explorer (`scorch view`) reads it:
 * a string table, a frame table and the call tree in preorder, encoded
 * as LEB128 varints (then base64 inside the page). Stage: render.
 *
 *   struct view_data v;
 *   const struct stack_table *cols[1] = { &table };
 *   view_data_init(&v, 1);
 *   view_data_add_tables(&v, cols);     // every stack, nothing merged
 *   struct strbuf bin = SB_INIT, b64 = SB_INIT;
 *   view_data_encode(&v, &bin);
 *   view_base64(bin.buf, bin.len, &b64);
 *   view_data_release(&v);
 *
 * Format (docs/view.md; every integer an unsigned LEB128 varint):
 *   "SCV1" ncols
 *   nstrings  { len bytes }*            UTF-8 as given (the page decodes
 *                                       with replacement, never as markup)
 *   nframes   { name module+1 flags }*  module 0: none
 *   nnodes    { up2 frame [self*ncols] }*  preorder; up2 = up << 1 |
 *                                       has_self, depth = previous depth
 *                                       + 1 - up (first node: 0); the
 *                                       self columns only when has_self
 *   { tag len payload }* 0              sections (none yet), then the end
 * Children of a node come in bytewise order of their stack texts (as
 * flamegraph.pl sorts its input lines); each node's total is its self
 * plus its children's totals, summed by the reader. Column 0 is the
 * profile (for a diff, the "before"), column 1 the "after".
 *
 * Frames of folded text are their names; the annotations of `fold
 * --all` set flags: "_[k]" kernel, "_[i]" inline, "_[j]" JIT.
 * Ownership: v owns its tables and copies every string. Failure: only
 * allocation, fatal (base/xalloc.h); counts saturate at UINT64_MAX.
 */
#ifndef SCORCH_RENDER_VIEW_DATA_H
#define SCORCH_RENDER_VIEW_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "base/hmap.h"
#include "base/strbuf.h"
#include "stacks/table.h"

enum { VIEW_MAX_COLS = 2 };

enum view_flag {
	VIEW_F_KERNEL = 1,
	VIEW_F_INLINE = 2,
	VIEW_F_JIT = 4,
};

struct view_node {
	uint32_t frame;             /* frame id */
	uint32_t depth;             /* 0: a root frame (the process) */
	uint64_t self[VIEW_MAX_COLS];
};

struct view_data {
	unsigned ncols;             /* weight columns: 1, or 2 for a diff */
	struct hmap strs;           /* string -> string id */
	struct hmap frames;         /* packed name, module, flags -> frame id */
	struct view_node *nodes;    /* preorder */
	size_t nnodes, nodes_cap;
	uint32_t *path;             /* node ids of the last stack by depth */
	size_t npath, path_cap;
	uint32_t *scratch;          /* frame ids of the stack being added */
	size_t scratch_cap;
};

void view_data_init(struct view_data *v, unsigned ncols);
/* Free everything; v is empty and reusable (same ncols). */
void view_data_release(struct view_data *v);
/* Add every stack of cols[0..ncols-1] (the union of their stacks, each
 * column's count from its table) as nodes. Call once per view_data:
 * the preorder needs all stacks in one sorted pass. */
void view_data_add_tables(struct view_data *v, const struct stack_table *const *cols);
/* The id of string s, added when new. */
uint32_t view_data_string(struct view_data *v, const char *s, size_t len);
/* Append the encoding of v to out. */
void view_data_encode(const struct view_data *v, struct strbuf *out);
/* Append standard base64 (with '=' padding) of data to out. */
void view_base64(const void *data, size_t len, struct strbuf *out);

#endif
