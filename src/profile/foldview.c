/*
 * foldview: the folded text view of a profile (see profile.h).
 * Stage: profile. Key invariant: the lines are those stacks/table writes
 * for the same stacks: the text of a stack is its names joined with ';'
 * root first, lines are sorted bytewise by that text (a name that is a
 * prefix of another, or holds a ';', sorts by the joined bytes, not by
 * names), and stacks whose texts are equal are summed into one line.
 */
#include "profile/profile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

/* The name paths of the stacks to print, and their weight columns. */
struct lines {
	struct prof_names *nm;
	uint32_t *ids;              /* name ids of every path, back to back */
	size_t nids, ids_cap;
	size_t *off;                /* per line: its path is ids[off[i], off[i+1]) */
	uint32_t *stack;            /* per line: the stack it came from */
	uint64_t *head;             /* per line: its first 8 bytes, big endian,
				     * 0-padded: orders lines as their texts
				     * do, except where equal (see heads) */
	size_t n;
};

static void path_of(struct lines *l, const struct profile *p, uint32_t stack)
{
	size_t n;
	const uint32_t *frames = profile_stack_frames(p, stack, &n);
	const struct prof_frames *fs = &p->frames;
	bool java = n > 0 && prof_frames_get(fs, frames[0])->kind == PROF_FRAME_COMM &&
		    prof_names_java(l->nm, fs, frames[0]);
	for (size_t i = 0; i < n; i++) {
		const uint32_t *ids;
		size_t k = prof_names_of(l->nm, fs, frames[i], java, &ids);
		XGROW(l->ids, l->ids_cap, l->nids + k);
		memcpy(l->ids + l->nids, ids, k * sizeof(*ids));
		l->nids += k;
	}
}

/* Paths of the stacks for which keep says so (keep NULL: samples > 0). */
static void collect(struct lines *l, const struct profile *p, const uint8_t *keep)
{
	size_t count = 0, n = profile_stacks(p);
	for (size_t i = 0; i < n; i++)
		count += keep ? keep[i] : p->counts[i].samples > 0;
	l->off = xreallocarray(NULL, count + 1, sizeof(*l->off));
	XGROW(l->ids, l->ids_cap, 1); /* never NULL: paths may all be empty */
	l->stack = xreallocarray(NULL, count ? count : 1, sizeof(*l->stack));
	for (size_t i = 0; i < n; i++) {
		if (!(keep ? keep[i] : p->counts[i].samples > 0))
			continue;
		l->off[l->n] = l->nids;
		l->stack[l->n++] = (uint32_t)i;
		path_of(l, p, (uint32_t)i);
	}
	l->off[l->n] = l->nids;
}

static void lines_release(struct lines *l)
{
	free(l->ids);
	free(l->off);
	free(l->stack);
	free(l->head);
}

/* A cursor over the joined text of a path, byte by byte. */
struct jcur {
	const struct prof_names *nm;
	const uint32_t *ids;
	size_t n, i;                /* name i of n */
	const char *s;
	size_t len, at;
};

static void jcur_load(struct jcur *c)
{
	c->s = c->i < c->n ? prof_name_text(c->nm, c->ids[c->i], &c->len) : NULL;
	c->at = 0;
}

/* The next byte (0-255), or -1 at the end. */
static int jcur_next(struct jcur *c)
{
	if (c->s && c->at < c->len)
		return (unsigned char)c->s[c->at++];
	if (c->i + 1 >= c->n)
		return -1;
	c->i++;
	jcur_load(c);
	return ';';
}

static int cmp_paths(const struct prof_names *nm, const uint32_t *a, size_t na,
		     const uint32_t *b, size_t nb)
{
	size_t k = 0;
	while (k < na && k < nb && a[k] == b[k])
		k++;
	if (k == na && k == nb)
		return 0;
	/* the texts agree up to the end of name k - 1: both cursors stand
	 * there (the separator before name k, if any, comes next) */
	struct jcur x = { nm, a, na, k, "", 0, 0 }, y = { nm, b, nb, k, "", 0, 0 };
	if (k > 0) {
		x.i = y.i = k - 1;
	} else {
		jcur_load(&x);
		jcur_load(&y);
	}
	for (;;) {
		int cx = jcur_next(&x), cy = jcur_next(&y);
		if (cx != cy)
			return cx < cy ? -1 : 1;
		if (cx < 0)
			return 0;
	}
}

/* The first 8 bytes of each line's text as a number: a shorter text
 * (padded with 0) sorts before the texts it starts, and real bytes
 * compare as bytes, so unequal heads order lines as their texts; equal
 * heads (a real 0 byte, or a common start of 8 bytes) leave it to
 * cmp_paths. Most comparisons of a sort end here. */
static void heads(struct lines *l)
{
	l->head = xreallocarray(NULL, l->n ? l->n : 1, sizeof(*l->head));
	for (size_t i = 0; i < l->n; i++) {
		struct jcur c = { l->nm, l->ids + l->off[i], l->off[i + 1] - l->off[i],
				  0, NULL, 0, 0 };
		jcur_load(&c);
		uint64_t h = 0;
		for (int k = 0; k < 8; k++) {
			int b = jcur_next(&c);
			h = h << 8 | (uint64_t)(b < 0 ? 0 : b);
			if (b < 0) {
				h <<= 8 * (7 - k);
				break;
			}
		}
		l->head[i] = h;
	}
}

static int cmp_lines(const void *pa, const void *pb, void *ctx)
{
	const struct lines *l = ctx;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	if (l->head[a] != l->head[b])
		return l->head[a] < l->head[b] ? -1 : 1;
	int c = cmp_paths(l->nm, l->ids + l->off[a], l->off[a + 1] - l->off[a],
			  l->ids + l->off[b], l->off[b + 1] - l->off[b]);
	if (c)
		return c;
	return a < b ? -1 : a > b; /* equal texts: any fixed order */
}

static size_t *sorted_lines(struct lines *l)
{
	size_t *ord = xreallocarray(NULL, l->n ? l->n : 1, sizeof(*ord));
	for (size_t i = 0; i < l->n; i++)
		ord[i] = i;
	heads(l);
	qsort_r(ord, l->n, sizeof(*ord), cmp_lines, l);
	return ord;
}

static void add_text(const struct lines *l, size_t line, struct strbuf *out)
{
	for (size_t i = l->off[line]; i < l->off[line + 1]; i++) {
		size_t len;
		const char *s = prof_name_text(l->nm, l->ids[i], &len);
		if (i > l->off[line])
			sb_addc(out, ';');
		sb_add(out, s, len);
	}
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static bool same_text(const struct lines *l, size_t a, size_t b)
{
	return l->head[a] == l->head[b] && cmp_paths(l->nm, l->ids + l->off[a], l->off[a + 1] - l->off[a],
			 l->ids + l->off[b], l->off[b + 1] - l->off[b]) == 0;
}

/* Lines in order, runs of equal text summed; cols weight arrays by stack
 * (ncols of them). flush, when given, empties out now and then. */
static int write_lines(struct lines *l, const uint64_t *const *cols, int ncols,
		       struct strbuf *out, FILE *f)
{
	size_t *ord = sorted_lines(l);
	int rc = 0;
	for (size_t i = 0; i < l->n && rc == 0;) {
		uint64_t sum[2] = { 0, 0 };
		size_t j = i;
		for (; j < l->n && same_text(l, ord[i], ord[j]); j++)
			for (int c = 0; c < ncols; c++)
				sum[c] = sat_add(sum[c], cols[c][l->stack[ord[j]]]);
		add_text(l, ord[i], out);
		for (int c = 0; c < ncols; c++)
			sb_addf(out, " %llu", (unsigned long long)sum[c]);
		sb_addc(out, '\n');
		i = j;
		if (f && out->len >= 65536) {
			if (fwrite(out->buf, 1, out->len, f) != out->len)
				rc = -1;
			sb_reset(out);
		}
	}
	free(ord);
	return rc;
}

static uint64_t *stack_weights(const struct profile *p)
{
	size_t n = profile_stacks(p);
	uint64_t *w = xreallocarray(NULL, n ? n : 1, sizeof(*w));
	for (size_t i = 0; i < n; i++)
		w[i] = p->counts[i].weight;
	return w;
}

static int fold_write(const struct profile *p, struct prof_names *nm,
		      struct strbuf *out, FILE *f)
{
	struct lines l = { .nm = nm };
	collect(&l, p, NULL);
	uint64_t *w = stack_weights(p);
	const uint64_t *cols[1] = { w };
	int rc = write_lines(&l, cols, 1, out, f);
	free(w);
	lines_release(&l);
	return rc;
}

void profile_fold_write_sb(const struct profile *p, struct prof_names *nm,
			   struct strbuf *out)
{
	fold_write(p, nm, out, NULL);
}

int profile_fold_write(const struct profile *p, struct prof_names *nm, FILE *f)
{
	struct strbuf out = SB_INIT;
	int rc = fold_write(p, nm, &out, f);
	if (rc == 0 && out.len && fwrite(out.buf, 1, out.len, f) != out.len)
		rc = -1;
	sb_release(&out);
	if (rc == 0 && fflush(f) != 0)
		rc = -1;
	return rc;
}

/* One side of a diff: its weights and kept flags on the merged stacks. */
static void diff_side(const struct profile *side, const uint32_t *map,
		      uint64_t *w, uint8_t *keep)
{
	for (size_t i = 0; i < profile_stacks(side); i++) {
		const struct prof_counts *c = &side->counts[i];
		if (!c->samples)
			continue;
		w[map[i]] = sat_add(w[map[i]], c->weight);
		keep[map[i]] = 1;
	}
}

void profile_diff_write_sb(const struct profile *a, const struct profile *b,
			   const struct collapse_opts *o, struct strbuf *out)
{
	struct profile m;
	profile_init(&m, 0);
	uint32_t *ma, *mb;
	profile_merge(&m, a, &ma);
	profile_merge(&m, b, &mb);
	size_t n = profile_stacks(&m) ? profile_stacks(&m) : 1;
	uint64_t *wa = xcalloc(n, sizeof(*wa));
	uint64_t *wb = xcalloc(n, sizeof(*wb));
	uint8_t *keep = xcalloc(n, 1);
	diff_side(a, ma, wa, keep);
	diff_side(b, mb, wb, keep);
	struct prof_names nm;
	prof_names_init(&nm, o);
	struct lines l = { .nm = &nm };
	collect(&l, &m, keep);
	const uint64_t *cols[2] = { wa, wb };
	write_lines(&l, cols, 2, out, NULL);
	lines_release(&l);
	prof_names_release(&nm);
	free(keep);
	free(wa);
	free(wb);
	free(ma);
	free(mb);
	profile_release(&m);
}
