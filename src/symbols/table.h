/*
 * table: one DSO's sorted symbol table, looked up by binary search.
 * Stage: symbols. Symbols are added in any order, then sym_table_finish
 * sorts them and applies perf's rules so names match perf's: a symbol
 * of size 0 ends where the next one starts (the last one at the next
 * page boundary plus a page), and among symbols with the same start one
 * survives (non-zero size, then non-weak, then global, then fewer
 * leading underscores, then the longer name, then the first added).
 * Invariant after finish: syms sorted by start, starts unique.
 * Ownership: names are copied into the table's arena (or, with
 * sym_table_add_kept, already live there or in a file mapping the table
 * owns: sym_table_keep_map) and live until sym_table_release.
 */
#ifndef SCORCH_SYMBOLS_TABLE_H
#define SCORCH_SYMBOLS_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/diag.h"

enum { SYM_BIND_LOCAL = 0, SYM_BIND_GLOBAL = 1, SYM_BIND_WEAK = 2 };

struct sym_entry {
	uint64_t start, end;  /* [start, end) */
	const char *name;
	uint32_t seq;         /* insertion order (tie break) */
	uint8_t bind;         /* SYM_BIND_* */
	bool module;          /* kallsyms: symbol of a module ("[mod]") */
	bool sized;           /* had a size of its own (not fixed up) */
	bool mangled;         /* name not yet demangled: sym_entry_demangle */
};

/* A read-only file mapping (an ELF string table) names point into. */
struct sym_map {
	void *p;
	size_t len;
};

struct sym_table {
	struct sym_entry *syms;
	size_t n, cap;
	struct arena names;
	/* Aliases the same-start rule removed (not for kallsyms), kept so
	 * rbt.c can replay perf's tree, which inserts and then erases them. */
	struct sym_entry *dropped;
	size_t ndropped, capdropped;
	bool unsorted;        /* an add started below the one before it */
	size_t faulted;       /* syms[0, faulted) are faulted in */
	struct sym_map *maps; /* unmapped by sym_table_release */
	size_t nmaps;
};

#define SYM_TABLE_INIT { NULL, 0, 0, ARENA_INIT, NULL, 0, 0, false, 0, NULL, 0 }

void sym_table_init(struct sym_table *t);
void sym_table_release(struct sym_table *t);
/* Add a symbol; name is copied (len bytes). Returns the entry. */
struct sym_entry *sym_table_add(struct sym_table *t, uint64_t start,
				uint64_t size, int bind, const char *name,
				size_t len);
/* Add a symbol whose NUL-terminated name the table does not copy: it must
 * live as long as the table (allocated from t->names). */
struct sym_entry *sym_table_add_kept(struct sym_table *t, uint64_t start,
				     uint64_t size, int bind, const char *name);
/* The entry store both adds share: the next entry, which the caller
 * has made room for (syms[n] with n < faulted <= cap). */
static inline struct sym_entry *sym_table_put(struct sym_table *t, uint64_t start,
					      uint64_t size, int bind,
					      const char *name)
{
	struct sym_entry *e = &t->syms[t->n];
	if (t->n && start < e[-1].start)
		t->unsorted = true;
	e->start = start;
	e->end = start + size < start ? UINT64_MAX : start + size;
	e->name = name;
	e->seq = (uint32_t)t->n;
	e->bind = (uint8_t)bind;
	e->module = false;
	e->sized = size > 0;
	e->mangled = false;
	t->n++;
	return e;
}
/* sym_table_add_kept(t, start, 0, bind, name), inline: only the stores
 * while the next entry is already faulted in; else the call. For loops
 * adding many symbols of size 0 (kallsyms). */
static inline struct sym_entry *sym_table_add_kept0(struct sym_table *t,
						    uint64_t start, int bind,
						    const char *name)
{
	if (t->n >= t->faulted)
		return sym_table_add_kept(t, start, 0, bind, name);
	return sym_table_put(t, start, 0, bind, name);
}
/* The table owns the mapping [p, p + len) (munmap at release); names
 * added with sym_table_add_kept may point into it. */
void sym_table_keep_map(struct sym_table *t, void *p, size_t len);
/* Drop the mappings' pages from the resident set (MADV_DONTNEED: a
 * name read later faults its page back in from the page cache). A
 * large library's string table is megabytes; the names a profile hits
 * are a few pages of it. finish does it; so may a caller that has
 * walked the names since. */
void sym_table_drop_map_pages(struct sym_table *t);
/* A found entry e of t (or of a table sharing its names) is demangled
 * when still mangled (sym_entry_demangle), and a name still in t's
 * mappings gets a copy in t->names; when the name was read there, the
 * mappings' pages are dropped again (demangled names too: a C++
 * library's string table stayed resident when they were not). Why: a read
 * fault on a file mapping maps the cached pages around it too (the
 * kernel's fault-around, 64 KiB), so names read in place would keep
 * tens of KiB resident each (dropping after every 4th or 16th copy
 * instead: +2 and +4 MiB peak folding a system-wide recording, for
 * ~2,600 madvise calls fewer, a few ms). */
void sym_table_own_name(struct sym_table *t, struct sym_entry *e);
/* Make room for n more symbols (a hint: adding beyond it still works). */
void sym_table_reserve(struct sym_table *t, size_t n);
/* size bytes from t->names (for names to add with sym_table_add_kept),
 * their pages faulted in at once. Never NULL. */
char *sym_table_name_block(struct sym_table *t, size_t size);
/* Sort and apply the end and alias rules above. kallsyms selects the
 * kallsyms end rule (no symbol spans a kernel/module boundary). */
void sym_table_finish(struct sym_table *t, bool kallsyms);
/* The symbol containing addr, or NULL. Only after finish. When a
 * zero-size label (its end fixed up to the next symbol) and a function
 * with a size both contain addr, the function wins. */
const struct sym_entry *sym_table_find(const struct sym_table *t,
				       uint64_t addr);

/* The symbol starting nearest at or below addr, containing it or not,
 * or NULL. Only after finish. */
const struct sym_entry *sym_table_floor(const struct sym_table *t, uint64_t addr);

/* perf's choose_best_symbol: true when a is kept over b (same start). */
bool sym_entry_better(const struct sym_entry *a, const struct sym_entry *b);
/* Demangle a name added as mangled (e->mangled) into names, once: ELF
 * symbols are demangled when first found or compared, not at load (a
 * C++ library's tens of thousands of names, most never hit). */
void sym_entry_demangle(struct sym_entry *e, struct arena *names);
/* Demangle the aliases finish dropped and the entries kept at their
 * starts (finish demangles a same-start pair only when the names decide
 * and differ): perf's tree replay (rbt.h) compares them all, and the
 * objects objs (may be NULL) at the same starts. Constructor variants
 * alone at their start (no other alias, no object) compare alike
 * mangled and stay so. */
void sym_table_demangle_aliases(struct sym_table *t, const struct sym_table *objs);
/* Demangle every entry of t still mangled (readers of a whole table). */
void sym_table_demangle_all(struct sym_table *t);

/* One text line into t: 1 a symbol added, 0 passed over, -1 malformed. */
typedef int (*sym_line_fn)(struct sym_table *t, const char *line, size_t len);
/* Feed each non-empty line of the text file path (streamed) to fn; does
 * not finish t. Returns symbols added, or -errno with d set ("line N: ..."
 * on a read error). *bad gets the malformed lines, *first_bad the number
 * of the first one (0 when none). */
int sym_table_read_lines(const char *path, struct sym_table *t, sym_line_fn fn,
			 uint64_t *bad, uint64_t *first_bad, struct diag *d);

#endif
