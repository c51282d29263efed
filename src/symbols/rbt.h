/*
 * rbt: a replay of perf's per-DSO symbol rb-tree, used to name PLT
 * addresses exactly as perf 6.1 does. Stage: symbols.
 * Why: perf synthesizes "name@plt" symbols after it has stretched
 * zero-size symbols (such as _init at the start of .init) to the next
 * symbol's start, so an address in .plt is covered by two symbols.
 * perf's symbols__find walks down from the root and returns the FIRST
 * node on the path that contains the address; which of the two that is
 * depends on the tree's shape. The shape is deterministic: it follows
 * from the insertion order (.symtab order; equal starts go right) of
 * what dso__load_sym keeps -- functions, text labels AND data objects
 * (STT_OBJECT, which scorch never names but which shape the tree) --,
 * the erasures of symbols__fixup_duplicate (in-order walk, loser
 * erased), then the PLT symbols in .rela.plt order. Zero-size symbols
 * end where the next one (objects included) starts, as
 * symbols__fixup_end does before the PLT symbols are added.
 * Checked against perf 6.1 by rewriting sample addresses of recordings
 * to every PLT slot: e.g. a binary whose first PLT slot perf names
 * "_init+0x30" and the others "name@plt", and one (the corpus's work_fp)
 * where all three slots are "_init+off"; without the objects the replay
 * gets both wrong. Past the last PLT symbol (.plt.got, IBT .plt.sec) the
 * search can miss the stretched _init altogether: perf prints [unknown],
 * and so does the replay; likewise for node's and libc's PLTs. Linux's rbtree insert and
 * erase make the same rotations as the textbook (CLRS) red-black tree,
 * with the in-order successor replacing an erased node with two
 * children, so replaying those steps reproduces the shape and perf's
 * answer.
 * Invariant: nodes point into the tables they were built from; the
 * tree is valid while those tables are not changed or released.
 */
#ifndef SCORCH_SYMBOLS_RBT_H
#define SCORCH_SYMBOLS_RBT_H

#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "symbols/table.h"

struct sym_rbt_node {
	struct sym_entry e;             /* copy with perf's end */
	const struct sym_entry *orig;   /* what find returns */
	uint32_t order;                 /* insertion order */
};

/* A node's links and start, apart from its entry: an insertion's walk
 * down a large library's tree reads 24 bytes a node, not 64. */
struct sym_rbt_link {
	uint64_t start;
	int left, right, parent;        /* -1: none */
	int red;
};

struct sym_rbt {
	struct sym_rbt_node *v;         /* by insertion order */
	struct sym_rbt_link *l;         /* beside v */
	size_t n, cap;
	int root;
};

/* Build perf's tree for table (finished; its dropped aliases included)
 * and objs (sym_elf_load_objects; may be NULL), followed by plt's
 * entries (finished). Can't fail (allocation failure aborts); O(n log n),
 * no recursion. */
void sym_rbt_build(struct sym_rbt *t, const struct sym_table *table,
		   const struct sym_table *objs, const struct sym_table *plt);
/* Free the nodes; t is empty after (a zeroed t is fine too). */
void sym_rbt_release(struct sym_rbt *t);
/* perf's symbols__find: the first node from the root containing addr
 * (end exclusive; a zero-size one contains only its start), returned as
 * the table entry it copies, or NULL when none does. */
const struct sym_entry *sym_rbt_find(const struct sym_rbt *t, uint64_t addr);

/*
 * The tree's answers over [lo, hi), kept without the tree: a sorted
 * run of spans, each the addresses sym_rbt_find answers alike (the
 * answer changes only at a node's start, start + 1, end or end + 1).
 * A dso keeps these instead of its tree (tens of bytes a PLT entry
 * instead of 64 a symbol). Answers that are entries of keep (the
 * table and PLT the dso keeps) stay pointers into it; any other (a
 * data object, a dropped alias) is copied, name included, so the
 * tables the tree was built from besides keep may be released.
 */
struct sym_rbt_span {
	uint64_t start;                 /* to the next span's start, or hi */
	const struct sym_entry *e;      /* NULL: nothing */
};

struct sym_rbt_spans {
	struct sym_rbt_span *v;
	size_t n;
	uint64_t hi;
	struct sym_entry *copies;       /* answers copied (see above) */
	size_t ncopies;
	struct arena names;             /* their names */
};

/* Record t's answers over [lo, hi) into s; keep, nkeep: the tables whose
 * entries stay pointed to. Can't fail. */
void sym_rbt_spans_build(struct sym_rbt_spans *s, const struct sym_rbt *t,
			 uint64_t lo, uint64_t hi,
			 const struct sym_table *const *keep, size_t nkeep);
/* sym_rbt_find's answer for addr in [lo, hi); NULL elsewhere. The
 * entry is s's or keep's; s's copies may be demangled in place. */
struct sym_entry *sym_rbt_spans_find(const struct sym_rbt_spans *s, uint64_t addr);
void sym_rbt_spans_release(struct sym_rbt_spans *s);

#endif
