/*
 * tree: merging folded stacks into a call tree (see tree.h).
 * Stage: render. Child lookup is a hash table keyed by (parent, name id)
 * over the node array; a stack that shares a prefix with the previous one
 * reuses the previous path for that prefix without hashing. A flame chart
 * merges only that shared prefix: every frame after it is a new node.
 */
#include "render/tree.h"

#include "base/diag.h"
#include "base/lines.h"
#include "base/xalloc.h"
#include "stacks/folded.h"

#include <errno.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint32_t new_node(struct render_tree *t, uint32_t parent, uint32_t name)
{
	if (t->count >= UINT32_MAX - 1)
		xmalloc((size_t)-1); /* more nodes than ids: treat as out of memory */
	XGROW(t->nodes, t->cap, t->count + 1);
	uint32_t id = (uint32_t)t->count++;
	struct render_node *n = &t->nodes[id];
	n->name = name;
	n->parent = parent;
	n->child = RENDER_NONE;
	n->nchild = 0;
	n->has_self = 0;
	n->value = 0;
	if (parent != RENDER_NONE) {
		n->next = t->nodes[parent].child;
		t->nodes[parent].child = id;
		if (t->nodes[parent].nchild < (1u << 31) - 1)
			t->nodes[parent].nchild++;
	} else {
		n->next = RENDER_NONE;
	}
	if (t->delta) {
		if (t->delta_cap < t->cap) {
			t->delta = xreallocarray(t->delta, t->cap, sizeof(*t->delta));
			t->delta_cap = t->cap;
		}
		t->delta[id] = 0;
	}
	if (t->self) {
		if (t->self_cap < t->cap) {
			t->self = xreallocarray(t->self, t->cap, sizeof(*t->self));
			t->self_cap = t->cap;
		}
		t->self[id] = 0;
	}
	if (t->flamechart) {
		if (t->start_cap < t->cap) {
			t->start = xreallocarray(t->start, t->cap, sizeof(*t->start));
			if (t->end)
				t->end = xreallocarray(t->end, t->cap, sizeof(*t->end));
			t->start_cap = t->cap;
		}
		t->start[id] = t->time;
		if (t->end)
			t->end[id] = t->time;
	}
	return id;
}

void render_tree_init(struct render_tree *t, bool flamechart, bool reverse)
{
	memset(t, 0, sizeof(*t));
	hmap_init(&t->names);
	t->ncache = xcalloc((size_t)1 << RENDER_NAME_CACHE_BITS, sizeof(*t->ncache));
	t->flamechart = flamechart;
	t->reverse = reverse;
	uint32_t root = (uint32_t)hmap_put(&t->names, "all", 3, NULL);
	new_node(t, RENDER_NONE, root);
}

void render_tree_release(struct render_tree *t)
{
	free(t->nodes);
	free(t->delta);
	free(t->start);
	free(t->self);
	free(t->end);
	u64map_release(&t->kids);
	free(t->prev);
	free(t->path);
	free(t->ends);
	free(t->rev);
	free(t->chained);
	free(t->ncache);
	hmap_release(&t->names);
	memset(t, 0, sizeof(*t));
}

/* Children of a node with at most SMALL children are found by walking
 * its child list; only children of wider nodes go into the hash table.
 * Deep, mostly unique stacks then cost no random memory access per new
 * frame: the parent was just created and has no children yet. */
enum { SMALL = 6 };

static uint64_t kid_key(uint32_t parent, uint32_t name)
{
	return ((uint64_t)parent << 32) | name;
}

static void index_child(struct render_tree *t, uint32_t id)
{
	const struct render_node *n = &t->nodes[id];
	bool added;
	*u64map_put(&t->kids, kid_key(n->parent, n->name), &added) = id;
}

static uint32_t child_listed(struct render_tree *t, uint32_t parent, uint32_t name)
{
	for (uint32_t c = t->nodes[parent].child; c != RENDER_NONE; c = t->nodes[c].next)
		if (t->nodes[c].name == name)
			return c;
	uint32_t id = new_node(t, parent, name);
	if (t->nodes[parent].nchild == SMALL + 1) /* crossed: index them all */
		for (uint32_t c = t->nodes[parent].child; c != RENDER_NONE; c = t->nodes[c].next)
			index_child(t, c);
	return id;
}

/* The child of parent named name, created when absent. */
static uint32_t child_hashed(struct render_tree *t, uint32_t parent, uint32_t name)
{
	if (t->nodes[parent].nchild <= SMALL)
		return child_listed(t, parent, name);
	bool added;
	uint64_t *v = u64map_put(&t->kids, kid_key(parent, name), &added);
	if (added)
		*v = new_node(t, parent, name);
	return (uint32_t)*v;
}

/* Name id of a frame. A direct-mapped cache keyed by the frame's first and
 * last 8 bytes and length answers most lookups with one cache line and a
 * memcmp, before the full hash and probe of the names map. */
static uint32_t intern(struct render_tree *t, const char *f, size_t len)
{
	uint64_t a = 0, b = 0;
	memcpy(&a, f, len < 8 ? len : 8);
	if (len > 8)
		memcpy(&b, f + len - 8, 8);
	uint64_t h = (a ^ (b * 0xc2b2ae3d27d4eb4fULL) ^ len) * 0x9e3779b97f4a7c15ULL;
	struct render_name_cache *e = &t->ncache[h >> (64 - RENDER_NAME_CACHE_BITS)];
	if (e->key && e->len == len && memcmp(e->key, f, len) == 0)
		return e->id;
	uint32_t id = (uint32_t)hmap_put(&t->names, f, len, NULL);
	e->key = hmap_at(&t->names, id)->key;
	e->len = len;
	e->id = id;
	return id;
}

static uint32_t child(struct render_tree *t, uint32_t parent, const char *f, size_t len)
{
	uint32_t name = intern(t, f, len);
	return t->flamechart ? new_node(t, parent, name) /* after the shared prefix */
			     : child_hashed(t, parent, name);
}

static void remember(struct render_tree *t, size_t depth, uint32_t node, size_t end)
{
	if (depth >= t->path_cap) {
		size_t cap = t->path_cap;
		XGROW(t->path, cap, depth + 1);
		t->ends = xreallocarray(t->ends, cap, sizeof(*t->ends));
		t->path_cap = cap;
	}
	t->path[depth] = node;
	t->ends[depth] = end;
}

/* Frames of the previous stack that this one repeats byte for byte. */
static size_t shared_frames(const struct render_tree *t, const char *s, size_t len)
{
	size_t n = len < t->prev_len ? len : t->prev_len, l = 0;
	uint64_t a, b;
	while (l + 8 <= n) { /* a word at a time, then bytes */
		memcpy(&a, s + l, 8);
		memcpy(&b, t->prev + l, 8);
		if (a != b)
			break;
		l += 8;
	}
	while (l < n && s[l] == t->prev[l])
		l++;
	size_t k = 0;
	while (k < t->depth && (t->ends[k] < l ||
	       (t->ends[k] == l && (l == len || s[l] == ';'))))
		k++;
	return k;
}

/* Merges s; returns true when its leaf is a node made by this stack. */
static bool add_forward(struct render_tree *t, const char *s, size_t len, double value)
{
	size_t k = shared_frames(t, s, len);
	uint32_t node = 0;
	t->nodes[0].value += value;
	for (size_t d = 0; d < k; d++) {
		node = t->path[d];
		t->nodes[node].value += value;
	}
	size_t pos = k ? t->ends[k - 1] + 1 : 0;
	size_t depth = k;
	bool fresh = false;
	while (pos <= len && len > 0) {
		const char *semi = memchr(s + pos, ';', len - pos);
		size_t end = semi ? (size_t)(semi - s) : len;
		node = child(t, node, s + pos, end - pos);
		t->nodes[node].value += value;
		remember(t, depth++, node, end);
		pos = end + 1;
		fresh = true;
	}
	t->depth = depth;
	if (len > t->prev_cap) {
		t->prev_cap = len + 64;
		t->prev = xrealloc(t->prev, t->prev_cap);
	}
	if (len)
		memcpy(t->prev, s, len);
	t->prev_len = len;
	t->last = node;
	return fresh;
}

/* The frames of s in reverse order, in t->rev. */
static const char *reversed(struct render_tree *t, const char *s, size_t len)
{
	if (!t->rev || len > t->rev_cap) {
		t->rev_cap = len + 64;
		t->rev = xrealloc(t->rev, t->rev_cap);
	}
	size_t out = 0, end = len;
	for (size_t i = len + 1; i-- > 0;) {
		if (i > 0 && s[i - 1] != ';')
			continue;
		memcpy(t->rev + out, s + i, end - i);
		out += end - i;
		if (i > 0)
			t->rev[out++] = ';';
		end = i ? i - 1 : 0;
	}
	return t->rev;
}

/* The end of the part of s (a part of a "--"-separated chain) that
 * starts at p: the next ";--;" or the end. */
static const char *part_end(const char *p, const char *end)
{
	const char *sep = memmem(p, (size_t)(end - p), ";--;", 4);
	return sep ? sep : end;
}

/* --colors chain, as flamegraph.pl rewrites a stack: split at ";--;"
 * (empty trailing parts dropped), the first part (the waker) kept, then
 * ";--;", then the other parts joined by ";--;" with every frame marked
 * "_[w]". A stack without ";--;" so gets a last frame "--". */
static const char *chained(struct render_tree *t, const char *s, size_t *len)
{
	const char *end = s + *len, *first = part_end(s, end);
	if (*len > (SIZE_MAX - 8) / 5)
		xmalloc((size_t)-1); /* cannot grow that far: out of memory */
	if (*len * 5 + 8 > t->chained_cap) {
		t->chained_cap = *len * 5 + 8;
		t->chained = xrealloc(t->chained, t->chained_cap);
	}
	char *o = t->chained;
	size_t n = (size_t)(first - s);
	memcpy(o, s, n);
	memcpy(o + n, ";--;", 4);
	n += 4;
	const char *stop = NULL; /* end of the last part that is not empty */
	for (const char *p = first; p < end;) {
		const char *e = part_end(p + 4, end);
		if (e > p + 4)
			stop = e;
		p = e;
	}
	for (const char *p = first; stop && p < stop;) {
		const char *e = part_end(p + 4, end);
		if (p > first) {
			memcpy(o + n, ";--;", 4);
			n += 4;
		}
		for (const char *c = p + 4; c < e; c++) {
			if (*c == ';') {
				memcpy(o + n, "_[w]", 4);
				n += 4;
			}
			o[n++] = *c;
		}
		memcpy(o + n, "_[w]", 4);
		n += 4;
		p = e;
	}
	*len = n;
	return o;
}

/* Perl's split drops trailing empty fields: "a;b;;" is "a;b". */
static size_t trim_empty(const char *s, size_t len)
{
	while (len > 0 && s[len - 1] == ';')
		len--;
	return len;
}

double render_tree_end(const struct render_tree *t, uint32_t node)
{
	return t->end ? t->end[node] : t->start[node] + t->nodes[node].value;
}

double render_tree_self(const struct render_tree *t, uint32_t node)
{
	if (t->self)
		return t->self[node];
	double v = t->nodes[node].value;
	for (uint32_t c = t->nodes[node].child; c != RENDER_NONE; c = t->nodes[c].next)
		v -= t->nodes[c].value;
	return v;
}

/* The first count that is not a whole number: self counts are kept from
 * now on, those so far worked out exactly from the whole counts. */
static void keep_self(struct render_tree *t)
{
	t->fractional = true;
	t->self = xcalloc(t->cap, sizeof(*t->self));
	t->self_cap = t->cap;
	for (size_t id = 0; id < t->count; id++) {
		t->self[id] += t->nodes[id].value;
		if (id)
			t->self[t->nodes[id].parent] -= t->nodes[id].value;
	}
	if (!t->flamechart)
		return;
	double *end = xreallocarray(NULL, t->start_cap, sizeof(*end));
	for (size_t id = 0; id < t->count; id++)
		end[id] = t->start[id] + t->nodes[id].value;
	t->end = end;
}

void render_tree_add(struct render_tree *t, const char *stack, size_t len,
		     double value, double delta, bool has_delta)
{
	if (has_delta && !t->delta) {
		t->delta = xcalloc(t->cap, sizeof(*t->delta));
		t->delta_cap = t->cap;
	}
	if (t->reverse) {
		len = trim_empty(stack, len);
		stack = reversed(t, stack, len);
	}
	if (t->chain)
		stack = chained(t, stack, &len);
	len = trim_empty(stack, len);
	if (!t->fractional && (value != floor(value) || fabs(value) > 9007199254740992.0))
		keep_self(t);
	bool fresh = add_forward(t, stack, len, value);
	struct render_node *n = &t->nodes[t->last];
	bool first = !n->has_self;
	n->has_self = 1;
	if (t->self)
		t->self[t->last] += value;
	t->time += value;
	if (t->end) /* the stack's frames end at the new time */
		for (uint32_t id = t->last; id != RENDER_NONE; id = t->nodes[id].parent)
			t->end[id] = t->time;
	if (has_delta) {
		if (fabs(delta) > t->maxdelta)
			t->maxdelta = fabs(delta);
		if (t->flamechart ? fresh : first)
			t->delta[t->last] += delta;
	}
}

void render_tree_add_table(struct render_tree *t, const struct stack_table *st)
{
	size_t *ids = stack_table_sorted(st);
	for (size_t i = 0; i < stack_table_count(st); i++) {
		size_t len;
		const char *k = stack_table_key(st, ids[i], &len);
		render_tree_add(t, k, len, (double)stack_table_value(st, ids[i]), 0, false);
	}
	free(ids);
}

static void add_folded(void *ctx, const struct stack_folded *f)
{
	render_tree_add(ctx, f->stack, f->stack_len, f->count, f->count - f->count1,
			f->two);
}

int render_tree_read_folded(struct render_tree *t, struct lines *lr, const char *name,
			    struct stack_folded_bad *bad, struct diag *d)
{
	struct stack_folded_file ff = { 0 };
	int rc = stack_folded_read(lr, name, true, add_folded, t, bad, &ff);
	if (rc < 0)
		diag_set(d, "line %llu: %s", (unsigned long long)lr->lineno + 1,
			 rc == -E2BIG ? "line too long" : strerror(-rc));
	return rc < 0 ? rc : 0;
}
