/*
 * table: sorted symbol table with perf's alias and end rules (see
 * table.h). Stage: symbols. Invariant after finish: sorted, unique starts.
 */
#include "symbols/table.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/lines.h"
#include "base/permute.h"
#include "base/xalloc.h"
#include "symbols/demangle.h"

void sym_table_init(struct sym_table *t)
{
	memset(t, 0, sizeof(*t));
	arena_init(&t->names);
}

void sym_table_release(struct sym_table *t)
{
	free(t->syms);
	free(t->dropped);
	arena_release(&t->names);
	for (size_t i = 0; i < t->nmaps; i++)
		munmap(t->maps[i].p, t->maps[i].len);
	free(t->maps);
	sym_table_init(t);
}

void sym_table_keep_map(struct sym_table *t, void *p, size_t len)
{
	t->maps = xrealloc(t->maps, (t->nmaps + 1) * sizeof(*t->maps));
	t->maps[t->nmaps++] = (struct sym_map){ p, len };
}

void sym_table_own_name(struct sym_table *t, struct sym_entry *e)
{
	size_t i = 0;
	while (i < t->nmaps && !(e->name >= (const char *)t->maps[i].p &&
	       e->name < (const char *)t->maps[i].p + t->maps[i].len))
		i++;
	if (i == t->nmaps) {
		sym_entry_demangle(e, &t->names);
		return;
	}
	const char *in_file = e->name;
	sym_entry_demangle(e, &t->names); /* a copy when it demangles */
	if (e->name == in_file)
		e->name = arena_strdup(&t->names, e->name);
	sym_table_drop_map_pages(t);
}

void sym_table_drop_map_pages(struct sym_table *t)
{
	for (size_t i = 0; i < t->nmaps; i++)
		(void)madvise(t->maps[i].p, t->maps[i].len, MADV_DONTNEED);
}

enum { PREFAULT_BYTES = 64 * 1024 }; /* table pages faulted in per call */

/* Fault in the whole pages of [p, p + len) with one call instead of a
 * page fault each (MADV_POPULATE_WRITE, Linux 5.14; loading a 5 MB
 * kallsyms into fresh memory: ~0.9 ms of ~8 less). Only a hint: on
 * failure, or without it, pages fault in when first written. Contents
 * are not touched. */
static void prefault(void *p, size_t len)
{
#ifdef MADV_POPULATE_WRITE
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t a = ((uintptr_t)p + page - 1) & ~(page - 1);
	uintptr_t b = ((uintptr_t)p + len) & ~(page - 1);
	if (b > a)
		(void)madvise((void *)a, b - a, MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)len;
#endif
}

/* Fault in the next entries to be written, PREFAULT_BYTES at a time. */
static void prefault_syms(struct sym_table *t)
{
	size_t n = PREFAULT_BYTES / sizeof(*t->syms);
	if (n > t->cap - t->n)
		n = t->cap - t->n;
	prefault(t->syms + t->n, n * sizeof(*t->syms));
	t->faulted = t->n + n;
}

char *sym_table_name_block(struct sym_table *t, size_t size)
{
	char *p = arena_alloc(&t->names, size);
	prefault(p, size);
	return p;
}

void sym_table_reserve(struct sym_table *t, size_t n)
{
	if (n <= SIZE_MAX - t->n && t->n + n > t->cap) {
		XGROW(t->syms, t->cap, t->n + n);
		t->faulted = t->n;
	}
}

struct sym_entry *sym_table_add_kept(struct sym_table *t, uint64_t start,
				     uint64_t size, int bind, const char *name)
{
	if (t->n == t->cap) {
		XGROW(t->syms, t->cap, t->n + 1);
		t->faulted = t->n; /* the array may have moved */
	}
	if (t->n >= t->faulted)
		prefault_syms(t);
	return sym_table_put(t, start, size, bind, name);
}

struct sym_entry *sym_table_add(struct sym_table *t, uint64_t start,
				uint64_t size, int bind, const char *name,
				size_t len)
{
	return sym_table_add_kept(t, start, size, bind,
				  arena_strndup(&t->names, name, len));
}

static int by_start(const void *pa, const void *pb)
{
	const struct sym_entry *a = pa, *b = pb;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static uint64_t page_up(uint64_t v)
{
	uint64_t r = (v + 4095) & ~(uint64_t)4095;
	return r < v ? UINT64_MAX : r;
}

static void fixup_end(struct sym_table *t, bool kallsyms)
{
	for (size_t i = 1; i < t->n; i++) {
		struct sym_entry *prev = &t->syms[i - 1], *cur = &t->syms[i];
		if (prev->end != prev->start)
			continue;
		if (kallsyms && prev->module != cur->module)
			prev->end = page_up(prev->end + 4096);
		else
			prev->end = cur->start;
	}
	if (t->n) {
		struct sym_entry *last = &t->syms[t->n - 1];
		if (last->end == last->start)
			last->end = page_up(last->start) + 4096;
	}
}

static size_t leading_underscores(const char *s)
{
	size_t n = 0;
	while (s[n] == '_')
		n++;
	return n;
}

bool sym_entry_better(const struct sym_entry *a, const struct sym_entry *b)
{
	bool az = a->end == a->start, bz = b->end == b->start;
	if (az != bz)
		return bz;
	bool aw = a->bind == SYM_BIND_WEAK, bw = b->bind == SYM_BIND_WEAK;
	if (aw != bw)
		return bw;
	bool ag = a->bind == SYM_BIND_GLOBAL, bg = b->bind == SYM_BIND_GLOBAL;
	if (ag != bg)
		return ag;
	size_t au = leading_underscores(a->name), bu = leading_underscores(b->name);
	if (au != bu)
		return au < bu;
	size_t al = strlen(a->name), bl = strlen(b->name);
	if (al != bl)
		return al > bl;
	return true;
}

void sym_entry_demangle(struct sym_entry *e, struct arena *names)
{
	if (!e->mangled)
		return;
	e->mangled = false;
	char *dm = sym_demangle(e->name);
	if (dm)
		e->name = arena_strndup(names, dm, strlen(dm));
	free(dm);
}

static bool ctor_variants(const struct sym_entry *a, const struct sym_entry *b);

static int by_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
	return a < b ? -1 : a > b;
}

/* Index of the first entry of t starting at or above start. */
static size_t first_at(const struct sym_table *t, uint64_t start)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->syms[mid].start < start)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void sym_table_demangle_aliases(struct sym_table *t, const struct sym_table *objs)
{
	size_t no = objs ? objs->n : 0;
	uint64_t *ostart = xmalloc((no + 1) * sizeof(*ostart));
	for (size_t i = 0; i < no; i++)
		ostart[i] = objs->syms[i].start;
	qsort(ostart, no, sizeof(*ostart), by_u64);
	/* dropped entries come by start, a group per kept entry */
	for (size_t g = 0, end; g < t->ndropped; g = end) {
		uint64_t start = t->dropped[g].start;
		for (end = g; end < t->ndropped && t->dropped[end].start == start; end++)
			;
		size_t k = first_at(t, start);
		struct sym_entry *kept = k < t->n && t->syms[k].start == start ? &t->syms[k] : NULL;
		/* constructor variants alone at their start compare alike
		 * mangled: left as they are */
		bool alike = kept && !bsearch(&start, ostart, no, sizeof(*ostart), by_u64);
		for (size_t i = g; alike && i < end; i++)
			alike = ctor_variants(kept, &t->dropped[i]);
		if (alike)
			continue;
		for (size_t i = g; i < end; i++)
			sym_entry_demangle(&t->dropped[i], &t->names);
		if (kept)
			sym_entry_demangle(kept, &t->names);
	}
	free(ostart);
}

void sym_table_demangle_all(struct sym_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		sym_entry_demangle(&t->syms[i], &t->names);
}

static void drop(struct sym_table *t, const struct sym_entry *e)
{
	XGROW(t->dropped, t->capdropped, t->ndropped + 1);
	t->dropped[t->ndropped++] = *e;
}

/* Whether sym_entry_better gets as far as the names (size, weak and
 * global alike). */
static bool names_decide(const struct sym_entry *a, const struct sym_entry *b)
{
	return (a->end == a->start) == (b->end == b->start) &&
	       (a->bind == SYM_BIND_WEAK) == (b->bind == SYM_BIND_WEAK) &&
	       (a->bind == SYM_BIND_GLOBAL) == (b->bind == SYM_BIND_GLOBAL);
}

/* Whether two mangled names are variants of one constructor or
 * destructor (C1/C2/C3, D0/D1/D2: one digit apart after a 'C' or 'D',
 * before the end of the nested name 'E', template arguments 'I' or an
 * ABI tag 'B'), which demangle to one text: the C++ libraries' most
 * common aliases, decided without demangling them. */
static bool ctor_variants(const struct sym_entry *a, const struct sym_entry *b)
{
	if (!a->mangled || !b->mangled)
		return false;
	const char *x = a->name, *y = b->name;
	size_t i = 0;
	while (x[i] && x[i] == y[i])
		i++;
	if (!x[i] || !y[i] || i == 0 || strcmp(x + i + 1, y + i + 1) != 0)
		return false;
	char c = x[i - 1], next = x[i + 1];
	return (c == 'C' || c == 'D') && x[i] >= '0' && x[i] <= '9' &&
	       y[i] >= '0' && y[i] <= '9' && (next == 'E' || next == 'I' || next == 'B');
}

static void fixup_duplicates(struct sym_table *t, bool kallsyms)
{
	size_t out = 0;
	for (size_t i = 0; i < t->n; i++) {
		if (out && t->syms[out - 1].start == t->syms[i].start) {
			/* names only when they decide, and not for a pair
			 * that demangles alike (a tie: the first stays) */
			if (names_decide(&t->syms[out - 1], &t->syms[i]) &&
			    !ctor_variants(&t->syms[out - 1], &t->syms[i])) {
				sym_entry_demangle(&t->syms[out - 1], &t->names);
				sym_entry_demangle(&t->syms[i], &t->names);
			}
			bool keep = sym_entry_better(&t->syms[out - 1], &t->syms[i]);
			if (!kallsyms)
				drop(t, keep ? &t->syms[i] : &t->syms[out - 1]);
			if (!keep)
				t->syms[out - 1] = t->syms[i];
			continue;
		}
		t->syms[out++] = t->syms[i];
	}
	t->n = out;
}

static bool seq_ascending(const struct sym_table *t)
{
	for (size_t i = 1; i < t->n; i++)
		if (t->syms[i].seq < t->syms[i - 1].seq)
			return false;
	return true;
}

struct start_key {
	uint64_t start;
	size_t i;
};

/* One stable counting pass of keys a into b on the byte at shift; false
 * (nothing moved) when every key has the same byte there. */
static bool radix_pass(const struct start_key *a, struct start_key *b,
		       size_t n, unsigned shift)
{
	size_t count[257] = { 0 };
	for (size_t i = 0; i < n; i++)
		count[((a[i].start >> shift) & 255) + 1]++;
	if (count[((a[0].start >> shift) & 255) + 1] == n)
		return false;
	for (size_t d = 1; d < 257; d++)
		count[d] += count[d - 1];
	for (size_t i = 0; i < n; i++)
		b[count[(a[i].start >> shift) & 255]++] = a[i];
	return true;
}

/* permute(syms, keys, n): the entries in the sorted keys' order, in
 * place (no second array of entries while a large table is sorted,
 * the peak of loading it). */
PERMUTE_IN_PLACE(permute, struct sym_entry, struct start_key)

/* Stable radix sort by start: when seq ascends in the array (every
 * table but one whose seqs were set by hand), the order by_start gives,
 * at a fraction of qsort's cost on a large .dynsym. */
static void sort_by_start(struct sym_table *t)
{
	size_t n = t->n;
	if (n < 2)
		return;
	struct start_key *a = xmalloc(2 * n * sizeof(*a)), *b = a + n;
	for (size_t i = 0; i < n; i++)
		a[i] = (struct start_key){ t->syms[i].start, i };
	for (unsigned shift = 0; shift < 64; shift += 8)
		if (radix_pass(a, b, n, shift)) {
			struct start_key *x = a;
			a = b;
			b = x;
		}
	permute(t->syms, a, n);
	free(a < b ? a : b);
}

void sym_table_finish(struct sym_table *t, bool kallsyms)
{
	/* in by_start order unless an add went down (seq grows with adds) */
	if (t->unsorted && seq_ascending(t))
		sort_by_start(t);
	else if (t->unsorted)
		qsort(t->syms, t->n, sizeof(*t->syms), by_start);
	t->unsorted = false;
	fixup_end(t, kallsyms);
	fixup_duplicates(t, kallsyms);
	/* the array grew by doubling and lost the aliases: give back what
	 * is unused (a large library's table stays as long as its dso) */
	if (t->syms && t->n && t->cap - t->n > t->n / 8 + 16) {
		t->syms = xreallocarray(t->syms, t->n, sizeof(*t->syms));
		t->cap = t->faulted = t->n;
	}
	sym_table_drop_map_pages(t);
}

/* The index of the first symbol starting after addr (n: none). */
static size_t first_after(const struct sym_table *t, uint64_t addr)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct sym_entry *sym_table_floor(const struct sym_table *t, uint64_t addr)
{
	size_t lo = first_after(t, addr);
	return lo ? &t->syms[lo - 1] : NULL;
}

const struct sym_entry *sym_table_find(const struct sym_table *t,
				       uint64_t addr)
{
	size_t lo = first_after(t, addr);
	/* lo: first symbol starting after addr. The nearest symbol below
	 * wins unless it is a zero-size label inside a sized function. */
	const struct sym_entry *best = NULL;
	for (size_t k = 0; k < 64 && lo > 0; k++, lo--) {
		const struct sym_entry *e = &t->syms[lo - 1];
		if (addr >= e->end)
			continue;
		if (e->sized)
			return e;
		if (!best)
			best = e;
	}
	return best;
}

int sym_table_read_lines(const char *path, struct sym_table *t, sym_line_fn fn,
			 uint64_t *bad, uint64_t *first_bad, struct diag *d)
{
	struct lines lr;
	int rc = lines_open(&lr, path);
	if (rc < 0) {
		diag_set(d, "%s", strerror(-rc));
		return rc;
	}
	const char *line;
	size_t len;
	int added = 0;
	*bad = 0;
	*first_bad = 0;
	while ((rc = lines_next(&lr, &line, &len)) > 0) {
		if (len == 0)
			continue;
		int r = fn(t, line, len);
		if (r > 0)
			added++;
		else if (r < 0 && (*bad)++ == 0)
			*first_bad = lr.lineno;
	}
	lines_close(&lr);
	if (rc < 0) {
		diag_set(d, "line %llu: %s", (unsigned long long)lr.lineno, strerror(-rc));
		return rc;
	}
	return added;
}
