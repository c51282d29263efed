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
 *   nframes   { name module+1 flags rgb file+1 [line] }*  module 0:
 *                                       none; rgb: the frame's colour,
 *                                       r << 16 | g << 8 | b; file: the
 *                                       string id of the source file
 *                                       where the function is defined
 *                                       (0: unknown, then no line; line
 *                                       0: unknown)
 *   nnodes    { up2 frame [self*ncols] }*  preorder; up2 = up << 1 |
 *                                       has_self, depth = previous depth
 *                                       + 1 - up (first node: 0); the
 *                                       self columns only when has_self
 *   { tag len payload }* 0              sections, then the end:
 *     1 threads: n { zigzag(pid) zigzag(tid) comm }*
 *     2 samples: n { zigzag(time - previous time) thread node weight }*
 *                (node: preorder index + 1, 0 is the root; first
 *                previous time 0)
 * Sections come only when rows were added (perf.data input), and only
 * with one column.
 * Children of a node come in bytewise order of their stack texts (as
 * flamegraph.pl sorts its input lines); each node's total is its self
 * plus its children's totals, summed by the reader. Column 0 is the
 * profile (for a diff, the "before"), column 1 the "after".
 *
 * Frames of folded text are their names; the annotations of `fold
 * --all` set flags: "_[k]" kernel, "_[i]" inline, "_[j]" JIT; a name
 * given to view_data_name_info gets that module and those flags too,
 * and one given to view_data_name_source that source file and line
 * (folded text has none: file 0).
 * Ownership: v owns its tables and copies every string. Failure: only
 * allocation, fatal (base/xalloc.h); counts saturate at UINT64_MAX.
 */
#ifndef SCORCH_RENDER_VIEW_DATA_H
#define SCORCH_RENDER_VIEW_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "base/hmap.h"
#include "base/strbuf.h"
#include "render/palette.h"
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

/* One sample of a recording: when, which thread, which stack. */
struct view_row {
	uint64_t time;              /* ns, as recorded */
	uint64_t weight;
	uint32_t thread;            /* from view_data_thread */
	uint32_t stack;             /* id in column 0's stack table */
};

struct view_thread {
	int32_t pid, tid;
	uint32_t comm;              /* string id */
};

struct view_data {
	unsigned ncols;             /* weight columns: 1, or 2 for a diff */
	enum render_palette palette; /* frame colours, as `scorch flame`'s */
	struct hmap strs;           /* string -> string id */
	struct hmap frames;         /* packed name, module, flags -> frame id */
	struct view_node *nodes;    /* preorder */
	size_t nnodes, nodes_cap;
	uint32_t *path;             /* node ids of the last stack by depth */
	size_t npath, path_cap;
	uint32_t *scratch;          /* frame ids of the stack being added */
	size_t scratch_cap;
	uint32_t *leaf;             /* column 0's stack id -> node of its leaf */
	size_t nleaf;
	struct view_row *rows;      /* sample rows, in the order added */
	size_t nrows, rows_cap;
	struct hmap name_info;      /* name -> value (module id + 1) << 8 | flags */
	struct hmap name_src;       /* name -> value (file id + 1) << 32 | line */
	uint64_t *frame_src;        /* frame id -> as name_src's value, 0: none */
	size_t frame_src_cap;
	struct hmap thread_ids;     /* packed pid, tid -> thread id */
	struct view_thread *threads;
	size_t threads_cap;
};

/* ncols weight columns; colours from the hot palette (set v->palette
 * after init for another). */
void view_data_init(struct view_data *v, unsigned ncols);
/* Free everything; v is empty and reusable (same ncols). */
void view_data_release(struct view_data *v);
/* Add every stack of cols[0..ncols-1] (the union of their stacks, each
 * column's count from its table) as nodes. Call once per view_data:
 * the preorder needs all stacks in one sorted pass. */
void view_data_add_tables(struct view_data *v, const struct stack_table *const *cols);
/* The id of string s, added when new. */
uint32_t view_data_string(struct view_data *v, const char *s, size_t len);
/* What a folded name is known to be: its module (object path; NULL:
 * unknown) and enum view_flag bits; the first call for a name counts.
 * Call before view_data_add_tables. */
void view_data_name_info(struct view_data *v, const char *name, size_t len,
			 const char *module, size_t module_len, unsigned flags);
/* Where a folded name's function is defined: file (len bytes) and line
 * (0: unknown); the first call for a name counts. Call before
 * view_data_add_tables. */
void view_data_name_source(struct view_data *v, const char *name, size_t len,
			   const char *file, size_t file_len, unsigned line);
/* The id of thread (pid, tid), added with comm (len bytes) when new. */
uint32_t view_data_thread(struct view_data *v, int32_t pid, int32_t tid,
			  const char *comm, size_t len);
/* One sample row: stack is its stack's id in column 0's table. Rows
 * whose stack is not in the table when the data is encoded are left out. */
void view_data_add_row(struct view_data *v, uint64_t time, uint32_t thread,
		       size_t stack, uint64_t weight);
/* Append the encoding of v to out. */
void view_data_encode(const struct view_data *v, struct strbuf *out);
/* Append standard base64 (with '=' padding) of data to out. */
void view_base64(const void *data, size_t len, struct strbuf *out);

#endif
