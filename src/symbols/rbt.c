/*
 * rbt: replay of perf's symbol rb-tree (insert, erase, find) so PLT
 * addresses get the name perf 6.1 gives them (see rbt.h for the rule).
 * Stage: symbols. Invariant: a valid red-black tree whose in-order walk
 * is by start, equal starts in insertion order.
 */
#include "symbols/rbt.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/permute.h"
#include "base/xalloc.h"

#define NIL (-1)

static bool is_red(const struct sym_rbt *t, int x)
{
	return x != NIL && t->l[x].red;
}

static void set_child(struct sym_rbt *t, int parent, int old, int child)
{
	if (parent == NIL)
		t->root = child;
	else if (t->l[parent].left == old)
		t->l[parent].left = child;
	else
		t->l[parent].right = child;
	if (child != NIL)
		t->l[child].parent = parent;
}

/* x's left (left) or right kid link. */
static int *kid(struct sym_rbt *t, int x, bool left)
{
	return left ? &t->l[x].left : &t->l[x].right;
}

/* Rotate about x: left moves x down to the left of its right kid. */
static void rotate(struct sym_rbt *t, int x, bool left)
{
	int y = *kid(t, x, !left);
	int inner = *kid(t, y, left);
	*kid(t, x, !left) = inner;
	if (inner != NIL)
		t->l[inner].parent = x;
	set_child(t, t->l[x].parent, x, y);
	*kid(t, y, left) = x;
	t->l[x].parent = y;
}

static void insert_fixup(struct sym_rbt *t, int z)
{
	while (is_red(t, t->l[z].parent)) {
		int p = t->l[z].parent, g = t->l[p].parent;
		bool left = p == t->l[g].left;
		int u = left ? t->l[g].right : t->l[g].left;
		if (is_red(t, u)) {
			t->l[p].red = t->l[u].red = 0;
			t->l[g].red = 1;
			z = g;
			continue;
		}
		if (z == (left ? t->l[p].right : t->l[p].left)) {
			z = p;
			rotate(t, z, left);
			p = t->l[z].parent;
		}
		t->l[p].red = 0;
		t->l[g].red = 1;
		rotate(t, g, !left);
	}
	t->l[t->root].red = 0;
}

/* perf's __symbols__insert: smaller starts left, equal or larger right.
 * Links node t->n, whose entry and answer are filled in. */
static void insert(struct sym_rbt *t)
{
	int z = (int)t->n++;
	t->v[z].order = (uint32_t)z;
	struct sym_rbt_link *zn = &t->l[z];
	zn->start = t->v[z].e.start;
	zn->left = zn->right = zn->parent = NIL;
	zn->red = 1;
	uint64_t start = zn->start;
	int y = NIL, x = t->root;
	while (x != NIL) {
		y = x;
		x = start < t->l[x].start ? t->l[x].left : t->l[x].right;
	}
	t->l[z].parent = y;
	if (y == NIL)
		t->root = z;
	else if (start < t->l[y].start)
		t->l[y].left = z;
	else
		t->l[y].right = z;
	insert_fixup(t, z);
}

static int leftmost(const struct sym_rbt *t, int x)
{
	while (x != NIL && t->l[x].left != NIL)
		x = t->l[x].left;
	return x;
}

static int next(const struct sym_rbt *t, int x)
{
	if (t->l[x].right != NIL)
		return leftmost(t, t->l[x].right);
	int p = t->l[x].parent;
	while (p != NIL && x == t->l[p].right) {
		x = p;
		p = t->l[p].parent;
	}
	return p;
}

/* One step of the erase rebalance with x the left child of xp (or its
 * mirror); returns the new x, or the root when done. */
static int erase_step(struct sym_rbt *t, int x, int *xp, bool left)
{
	int p = *xp;
	int w = left ? t->l[p].right : t->l[p].left;
	if (is_red(t, w)) {
		t->l[w].red = 0;
		t->l[p].red = 1;
		rotate(t, p, left);
		w = left ? t->l[p].right : t->l[p].left;
	}
	int near = left ? t->l[w].left : t->l[w].right;
	int far = left ? t->l[w].right : t->l[w].left;
	if (!is_red(t, near) && !is_red(t, far)) {
		t->l[w].red = 1;
		*xp = t->l[p].parent;
		return p;
	}
	if (!is_red(t, far)) {
		t->l[near].red = 0;
		t->l[w].red = 1;
		rotate(t, w, !left);
		w = left ? t->l[p].right : t->l[p].left;
		far = left ? t->l[w].right : t->l[w].left;
	}
	t->l[w].red = t->l[p].red;
	t->l[p].red = 0;
	if (far != NIL)
		t->l[far].red = 0;
	rotate(t, p, left);
	return t->root;
}

static void erase_fixup(struct sym_rbt *t, int x, int xp)
{
	while (x != t->root && !is_red(t, x) && xp != NIL)
		x = erase_step(t, x, &xp, x == t->l[xp].left);
	if (x != NIL)
		t->l[x].red = 0;
}

static void erase(struct sym_rbt *t, int z)
{
	struct sym_rbt_link *zn = &t->l[z];
	int x, xp, y_red;
	if (zn->left == NIL || zn->right == NIL) {
		x = zn->left == NIL ? zn->right : zn->left;
		xp = zn->parent;
		y_red = zn->red;
		set_child(t, zn->parent, z, x);
	} else {
		int y = leftmost(t, zn->right);
		y_red = t->l[y].red;
		x = t->l[y].right;
		if (t->l[y].parent == z) {
			xp = y;
		} else {
			xp = t->l[y].parent;
			set_child(t, xp, y, x);
			t->l[y].right = zn->right;
			t->l[zn->right].parent = y;
		}
		set_child(t, zn->parent, z, y);
		t->l[y].left = zn->left;
		t->l[zn->left].parent = y;
		t->l[y].red = zn->red;
	}
	zn->left = zn->right = zn->parent = NIL;
	if (!y_red)
		erase_fixup(t, x, xp);
}

/* perf's symbols__fixup_duplicate: walk in order; of two neighbours with
 * the same start, erase the one choose_best_symbol does not keep. */
static void fixup_duplicates(struct sym_rbt *t)
{
	int cur = leftmost(t, t->root);
	while (cur != NIL) {
		int nx = next(t, cur);
		if (nx == NIL)
			break;
		if (t->v[cur].e.start != t->v[nx].e.start) {
			cur = nx;
		} else if (sym_entry_better(&t->v[cur].e, &t->v[nx].e)) {
			erase(t, nx);
		} else {
			erase(t, cur);
			cur = nx;
		}
	}
}

struct rkey {
	uint64_t k;
	size_t i;
};

/* One stable counting pass of a into b on the byte at shift; false
 * (nothing moved) when every key has the same byte there. */
static bool radix_pass(const struct rkey *a, struct rkey *b, size_t n, unsigned shift)
{
	size_t count[257] = { 0 };
	for (size_t i = 0; i < n; i++)
		count[((a[i].k >> shift) & 255) + 1]++;
	if (count[((a[0].k >> shift) & 255) + 1] == n)
		return false;
	for (size_t d = 1; d < 257; d++)
		count[d] += count[d - 1];
	for (size_t i = 0; i < n; i++)
		b[count[(a[i].k >> shift) & 255]++] = a[i];
	return true;
}

/* Sort a[0, n) by k, stably (equal keys keep their order): a radix sort
 * where qsort of the 72-byte pending entries was most of building a
 * large library's tree. b is scratch of n; returns the sorted one. */
static struct rkey *radix_sort(struct rkey *a, struct rkey *b, size_t n)
{
	if (n < 2)
		return a;
	for (unsigned shift = 0; shift < 64; shift += 8)
		if (radix_pass(a, b, n, shift)) {
			struct rkey *x = a;
			a = b;
			b = x;
		}
	return a;
}

static uint64_t page_up(uint64_t v)
{
	uint64_t r = (v + 4095) & ~(uint64_t)4095;
	return r < v ? UINT64_MAX : r;
}

/* symbols__fixup_end over everything dso__load_sym inserted (v in
 * insertion order: ordered by start, then by that order). */
static void fixup_ends(struct sym_rbt_node *v, size_t n, struct rkey *a, struct rkey *b)
{
	for (size_t i = 0; i < n; i++)
		a[i] = (struct rkey){ v[i].e.start, i };
	struct rkey *s = radix_sort(a, b, n);
	for (size_t i = 0; i < n; i++) {
		struct sym_entry *e = &v[s[i].i].e;
		if (e->sized)
			continue;
		e->end = i + 1 < n ? v[s[i + 1].i].e.start : page_up(e->start) + 4096;
		if (e->end < e->start)
			e->end = e->start;
	}
}

/* Node n of v (not yet linked): a copy of e (an unsized one ends at its
 * start until fixup_ends) answering e; a[n] its insertion key. */
static void add(struct sym_rbt_node *v, struct rkey *a, size_t *n,
		const struct sym_entry *e, uint64_t key)
{
	v[*n].e = *e;
	v[*n].orig = e;
	if (!e->sized)
		v[*n].e.end = e->start;
	a[*n] = (struct rkey){ key, *n };
	(*n)++;
}

/* permute(v, keys, n): the nodes in the sorted keys' order, in place. */
PERMUTE_IN_PLACE(permute, struct sym_rbt_node, struct rkey)

void sym_rbt_build(struct sym_rbt *t, const struct sym_table *table,
		   const struct sym_table *objs, const struct sym_table *plt)
{
	memset(t, 0, sizeof(*t));
	t->root = NIL;
	size_t no = objs ? objs->n : 0, n = 0;
	/* the nodes, filled in place and then linked in insertion order:
	 * no copy of the entries beside them (a large library's .plt
	 * replay was the peak of a system-wide fold) */
	t->cap = table->n + table->ndropped + no + plt->n + 1;
	t->v = xreallocarray(NULL, t->cap, sizeof(*t->v));
	t->l = xreallocarray(NULL, t->cap, sizeof(*t->l));
	struct rkey *a = xmalloc(2 * t->cap * sizeof(*a)), *b = a + t->cap;
	for (size_t i = 0; i < table->n; i++)
		add(t->v, a, &n, &table->syms[i], (uint64_t)table->syms[i].seq << 33 | 1u << 31);
	for (size_t i = 0; i < table->ndropped; i++)
		add(t->v, a, &n, &table->dropped[i], (uint64_t)table->dropped[i].seq << 33 | 1u << 31);
	for (size_t i = 0; i < no; i++)
		add(t->v, a, &n, &objs->syms[i], (uint64_t)objs->syms[i].seq << 33 | i);
	/* in dso__load_sym's order: by key (keys are distinct) */
	struct rkey *s = radix_sort(a, b, n);
	permute(t->v, s, n);
	fixup_ends(t->v, n, a, b);
	free(a);
	for (size_t i = 0; i < n; i++)
		insert(t);
	fixup_duplicates(t);
	for (size_t i = 0; i < plt->n; i++) {
		t->v[t->n].e = plt->syms[i];
		t->v[t->n].orig = &plt->syms[i];
		insert(t);
	}
}

void sym_rbt_release(struct sym_rbt *t)
{
	free(t->v);
	free(t->l);
	memset(t, 0, sizeof(*t));
	t->root = NIL;
}

const struct sym_entry *sym_rbt_find(const struct sym_rbt *t, uint64_t addr)
{
	int x = t->v ? t->root : NIL;
	while (x != NIL) {
		const struct sym_entry *e = &t->v[x].e;
		if (addr < e->start)
			x = t->l[x].left;
		else if (addr > e->end || (addr == e->end && addr != e->start))
			x = t->l[x].right;
		else
			return t->v[x].orig;
	}
	return NULL;
}

/* ---- the answers without the tree ---- */

static int cmp_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
	return a < b ? -1 : a > b;
}

static bool in_table(const struct sym_table *t, const struct sym_entry *e)
{
	return t->n && e >= t->syms && e < t->syms + t->n;
}

/* The answer e as s keeps it: itself when in keep, else a copy (one
 * per distinct entry: spans answering alike are adjacent or few). */
static const struct sym_entry *kept_answer(struct sym_rbt_spans *s,
					   const struct sym_entry *e,
					   const struct sym_table *const *keep,
					   size_t nkeep, size_t *cap)
{
	if (!e)
		return NULL;
	for (size_t i = 0; i < nkeep; i++)
		if (in_table(keep[i], e))
			return e;
	for (size_t i = 0; i < s->ncopies; i++)
		if (s->copies[i].start == e->start && s->copies[i].end == e->end &&
		    s->copies[i].seq == e->seq && strcmp(s->copies[i].name, e->name) == 0)
			return (const struct sym_entry *)(uintptr_t)i; /* fixed below */
	XGROW(s->copies, *cap, s->ncopies + 1);
	s->copies[s->ncopies] = *e;
	s->copies[s->ncopies].name = arena_strdup(&s->names, e->name);
	return (const struct sym_entry *)(uintptr_t)s->ncopies++;
}

/* Add address v to the boundaries when inside (lo, hi). */
static void add_bound(uint64_t *b, size_t *n, uint64_t v, uint64_t lo, uint64_t hi)
{
	if (v > lo && v < hi)
		b[(*n)++] = v;
}

void sym_rbt_spans_build(struct sym_rbt_spans *s, const struct sym_rbt *t,
			 uint64_t lo, uint64_t hi,
			 const struct sym_table *const *keep, size_t nkeep)
{
	memset(s, 0, sizeof(*s));
	arena_init(&s->names);
	s->hi = hi;
	if (lo >= hi)
		return;
	size_t nb = 0;
	uint64_t *b = xreallocarray(NULL, 4 * t->n + 1, sizeof(*b));
	b[nb++] = lo;
	for (size_t i = 0; i < t->n; i++) {
		const struct sym_entry *e = &t->v[i].e;
		add_bound(b, &nb, e->start, lo, hi);
		if (e->start != UINT64_MAX)
			add_bound(b, &nb, e->start + 1, lo, hi);
		add_bound(b, &nb, e->end, lo, hi);
		if (e->end != UINT64_MAX)
			add_bound(b, &nb, e->end + 1, lo, hi);
	}
	qsort(b, nb, sizeof(*b), cmp_u64);
	size_t cap = 0, copies_cap = 0;
	bool *copied = NULL;
	size_t copied_cap = 0;
	for (size_t i = 0; i < nb; i++) {
		if (i && b[i] == b[i - 1])
			continue;
		const struct sym_entry *e = sym_rbt_find(t, b[i]);
		const struct sym_entry *k = kept_answer(s, e, keep, nkeep, &copies_cap);
		bool is_copy = e && k != e;
		if (s->n && s->v[s->n - 1].e == k && copied[s->n - 1] == is_copy)
			continue;
		XGROW(s->v, cap, s->n + 1);
		XGROW(copied, copied_cap, s->n + 1);
		s->v[s->n] = (struct sym_rbt_span){ b[i], k };
		copied[s->n++] = is_copy;
	}
	for (size_t i = 0; i < s->n; i++) /* copies moved while growing */
		if (copied[i])
			s->v[i].e = &s->copies[(uintptr_t)s->v[i].e];
	free(copied);
	free(b);
}

struct sym_entry *sym_rbt_spans_find(const struct sym_rbt_spans *s, uint64_t addr)
{
	if (!s->n || addr < s->v[0].start || addr >= s->hi)
		return NULL;
	size_t lo = 0, hi = s->n; /* the last span starting at or below addr */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->v[mid].start <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return (struct sym_entry *)(uintptr_t)s->v[lo].e;
}

void sym_rbt_spans_release(struct sym_rbt_spans *s)
{
	free(s->v);
	free(s->copies);
	arena_release(&s->names);
	memset(s, 0, sizeof(*s));
}
