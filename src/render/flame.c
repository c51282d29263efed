/*
 * flame: call tree to SVG flame graph (see flame.h).
 * Stage: render. Two steps: layout walks the tree depth first in
 * flamegraph.pl's line order and keeps the frames wide enough to draw (x
 * in count units, depth), ordering children only where it draws (with
 * whole counts it skips narrow subtrees; with fractional ones it visits
 * them, so every x is the same running sum Perl computes); then the
 * writer prints the preamble
 * (whose height needs the deepest drawn level), the frames and the
 * viewer script. Geometry follows flamegraph.pl: xpad 10, top padding
 * 3*fontsize (+2*fontsize with a subtitle), bottom 2*fontsize+10, frame
 * rects one pixel shorter than a level.
 */
#include "render/flame.h"

#include "base/opt.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "profile/fold.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

enum { XPAD = 10, FLUSH_AT = 1 << 20 };

void render_flame_opts_init(struct render_flame_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->width = 1200;
	o->frameheight = 16;
	o->minwidth = 0.1;
	o->fonttype = "Verdana";
	o->fontsize = 12;
	o->fontwidth = 0.59;
	o->countname = "samples";
	o->nametype = "Function:";
	o->factor = 1;
	o->palette = PAL_HOT;
	o->color_mode = COLOR_NAME;
	o->search_color = "rgb(230,0,230)";
}

/* ---------------------------------------------------------------- */
/* layout                                                            */

/* A drawn frame is a node, or part of one: flamegraph.pl draws the
 * folded lines in sorted order and merges only adjacent lines, so a node
 * whose own lines ("a;b 5") and deeper lines ("a;b;c 1") are kept apart
 * by a sibling's ("a;b-x 2", since '-' sorts between ' ' and ';') is
 * drawn as two frames: its self time, and its children. */
enum part {
	PART_ALL,   /* the node: its own lines, then its children */
	PART_SELF,  /* its own lines only */
	PART_KIDS,  /* its children only */
	PART_ROOT,  /* (layout only) the root's own lines: no frame */
	PART_END,   /* (layout only) end of the frame at index node */
};

struct frame {
	uint32_t node;
	uint32_t depth;
	enum part part;
	double start; /* count units from the left edge: the sum of the */
	double end;   /* counts of the lines before (and up to) the frame */
};

struct layout {
	struct frame *frames;
	size_t count, cap;
	uint32_t depthmax;
};

/* One entry of a node's children in flamegraph.pl's line order: the
 * lines that end at child node (term ' ') or go through it (term ';').
 * node 0 with ' ' stands for the root's own lines (" 5"). */
struct item {
	uint32_t node;
	char term;
};

static const char *item_name(struct render_tree *t, const struct item *it, size_t *len)
{
	if (it->node == 0) {
		*len = 0;
		return "";
	}
	return render_tree_name(t, it->node, len);
}

/* Sort key: the name followed by term, compared bytewise, as Perl's sort
 * compares the lines. (Where a name continues with ' ' after another
 * name, Perl compares it with that line's count text; we sort the
 * shorter name first.) */
static int by_line(const void *a, const void *b, void *arg)
{
	struct render_tree *t = arg;
	const struct item *ia = a, *ib = b;
	size_t la, lb;
	const unsigned char *sa = (const unsigned char *)item_name(t, ia, &la);
	const unsigned char *sb = (const unsigned char *)item_name(t, ib, &lb);
	int c = memcmp(sa, sb, la < lb ? la : lb);
	if (c)
		return c;
	unsigned char ta = (unsigned char)ia->term, tb = (unsigned char)ib->term;
	if (la == lb)
		return (ta > tb) - (ta < tb);
	if (la < lb)
		return ta > sb[la] ? 1 : -1;
	return tb > sa[lb] ? -1 : 1;
}

static void add_item(struct item **items, size_t *n, size_t *cap, uint32_t node, char term)
{
	XGROW(*items, *cap, *n + 1);
	(*items)[*n].node = node;
	(*items)[(*n)++].term = term;
}

/* The children of node in line order, into *items. */
static size_t line_order(struct render_tree *t, uint32_t node, struct item **items,
			 size_t *cap)
{
	size_t n = 0;
	if (node == 0 && t->nodes[0].has_self)
		add_item(items, &n, cap, 0, ' ');
	for (uint32_t c = t->nodes[node].child; c != RENDER_NONE; c = t->nodes[c].next) {
		if (t->nodes[c].has_self)
			add_item(items, &n, cap, c, ' ');
		if (t->nodes[c].child != RENDER_NONE)
			add_item(items, &n, cap, c, ';');
	}
	if (n > 1)
		qsort_r(*items, n, sizeof(**items), by_line, t);
	return n;
}

struct walk {
	struct render_tree *t;
	struct frame *st;     /* frames still to visit; end holds the width */
	size_t sn, scap;
	struct item *items;
	size_t icap;
	double now;           /* running total of the lines visited */
	double min_value;
	bool exact;           /* visit narrow frames too (fractional counts) */
};

static void push(struct walk *k, uint32_t node, uint32_t depth, enum part part, double width)
{
	XGROW(k->st, k->scap, k->sn + 1);
	k->st[k->sn++] = (struct frame){ node, depth, part, 0, width };
}

/* The frames under f onto the stack, the leftmost on top. A node's own
 * lines and its deeper lines are one frame when adjacent in line order. */
static void push_children(struct walk *k, const struct frame *f)
{
	struct render_tree *t = k->t;
	size_t n = line_order(t, f->node, &k->items, &k->icap);
	for (size_t i = n; i-- > 0;) {
		struct item it = k->items[i];
		const struct render_node *c = &t->nodes[it.node];
		if (it.node == 0) {
			push(k, 0, f->depth, PART_ROOT, render_tree_self(t, 0));
		} else if (it.term == ';' && i > 0 && k->items[i - 1].node == it.node) {
			push(k, it.node, f->depth + 1, PART_ALL, c->value);
			i--;
		} else if (it.term == ' ') {
			push(k, it.node, f->depth + 1, PART_SELF, render_tree_self(t, it.node));
		} else if (c->has_self) {
			push(k, it.node, f->depth + 1, PART_KIDS,
			     c->value - render_tree_self(t, it.node));
		} else {
			push(k, it.node, f->depth + 1, PART_ALL, c->value);
		}
	}
}

static void add_frame(struct layout *l, const struct frame *f)
{
	XGROW(l->frames, l->cap, l->count + 1);
	l->frames[l->count++] = *f;
}

/* The end of frames[i] is known: drop it (and what follows it, its
 * descendants) when narrower than the minimum, as flamegraph.pl does. */
static void close_frame(struct walk *k, struct layout *l, size_t i)
{
	struct frame *fr = &l->frames[i];
	fr->end = k->now;
	if (fr->end - fr->start < k->min_value)
		l->count = i;
}

/* One frame popped from the stack, visited in line order. */
static void visit(struct walk *k, struct layout *l, struct frame f)
{
	if (f.part == PART_END) {
		close_frame(k, l, f.node);
		return;
	}
	if (f.part == PART_ROOT) {
		k->now += f.end;
		return;
	}
	double width = f.end;
	if (!k->exact && width < k->min_value) { /* integer sums: exact */
		k->now += width;
		return;
	}
	size_t i = l->count;
	f.start = k->now;
	add_frame(l, &f);
	if (f.node != 0 && f.part != PART_KIDS)
		k->now += render_tree_self(k->t, f.node);
	if (f.part == PART_SELF) {
		close_frame(k, l, i);
		return;
	}
	push(k, (uint32_t)i, 0, PART_END, 0);
	push_children(k, &f);
}

/* Flame graph: frames in flamegraph.pl's sorted line order, depth-first
 * pre-order, at least min_value wide. With whole counts the widths of
 * skipped frames are exact and their subtrees are not visited. */
static void layout_sorted(struct render_tree *t, double total, double min_value,
			  struct layout *l)
{
	struct walk k = { .t = t, .min_value = min_value, .exact = t->fractional };
	push(&k, 0, 0, PART_ALL, total);
	while (k.sn) {
		struct frame f = k.st[--k.sn];
		visit(&k, l, f);
	}
	if (l->count)
		l->frames[0].end = total; /* the root spans --total too */
	free(k.st);
	free(k.items);
}

/* Flame chart: children in time order, each where it started. */
static void layout_timed(struct render_tree *t, double total, double min_value,
			 struct layout *l)
{
	struct frame *st = NULL;
	size_t sn = 0, scap = 0;
	XGROW(st, scap, 1);
	st[sn++] = (struct frame){ 0, 0, PART_ALL, 0, total };
	while (sn) {
		struct frame f = st[--sn];
		if (f.end - f.start < min_value)
			continue;
		add_frame(l, &f);
		/* children are linked newest first: the oldest is pushed
		 * last and pops first */
		for (uint32_t c = t->nodes[f.node].child; c != RENDER_NONE; c = t->nodes[c].next) {
			XGROW(st, scap, sn + 1);
			st[sn++] = (struct frame){ c, f.depth + 1, PART_ALL, t->start[c],
						   render_tree_end(t, c) };
		}
	}
	free(st);
}

static void layout(struct render_tree *t, double total, double min_value, struct layout *l)
{
	if (t->flamechart)
		layout_timed(t, total, min_value, l);
	else
		layout_sorted(t, total, min_value, l);
	for (size_t i = 0; i < l->count; i++)
		if (l->frames[i].depth > l->depthmax)
			l->depthmax = l->frames[i].depth;
}

/* ---------------------------------------------------------------- */
/* text helpers                                                      */

/* Shortest text for v with at most 4 decimals ("12", "12.5", "0.0625"). */
static void add_num(struct strbuf *sb, double v)
{
	char buf[64];
	if (v == floor(v) && fabs(v) < 1e15) {
		snprintf(buf, sizeof(buf), "%.0f", v);
	} else {
		snprintf(buf, sizeof(buf), "%.4f", v);
		char *e = buf + strlen(buf);
		while (e > buf && e[-1] == '0')
			*--e = '\0';
		if (e > buf && e[-1] == '.')
			*--e = '\0';
		if (strcmp(buf, "-0") == 0)
			strcpy(buf, "0");
	}
	sb_adds(sb, buf);
}

/* v rounded to 0.1 as printf's "%.1f" rounds it (Perl's sprintf). */
static double tenth(double v)
{
	char buf[64];
	snprintf(buf, sizeof(buf), "%.1f", v);
	return strtod(buf, NULL);
}

/* Count with thousands separators, as flamegraph.pl prints it. */
static void add_count(struct strbuf *sb, double v)
{
	char buf[64], out[96];
	snprintf(buf, sizeof(buf), "%.0f", v);
	size_t len = strlen(buf), o = 0, i = 0;
	if (buf[0] == '-')
		out[o++] = buf[i++];
	size_t digits = len - i;
	for (; i < len; i++) {
		out[o++] = buf[i];
		size_t left = len - i - 1;
		if (left && left % 3 == 0 && digits > 3)
			out[o++] = ',';
	}
	out[o] = '\0';
	sb_adds(sb, out);
}

/* Bytes of the UTF-8 character at s (1 for an invalid byte). */
static size_t char_len(const unsigned char *s, size_t left)
{
	size_t n = s[0] < 0x80 ? 1 : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 :
		   s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 1;
	if (s[0] >= 0xf5 || n > left)
		return 1;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 1;
	return n;
}

static size_t count_chars(const char *s, size_t len)
{
	size_t n = 0;
	for (size_t i = 0; i < len; n++)
		i += char_len((const unsigned char *)s + i, len - i);
	return n;
}

/* Byte offset after the first k characters. */
static size_t skip_chars(const char *s, size_t len, size_t k)
{
	size_t i = 0;
	while (k-- > 0 && i < len)
		i += char_len((const unsigned char *)s + i, len - i);
	return i;
}

/* The label that fits w pixels: whole name, "nam.." or "..ame"; never
 * cuts a multi-byte character. */
static void add_label(struct strbuf *sb, const char *s, size_t len, double w,
		      const struct render_flame_opts *o)
{
	double cw = o->fontsize * o->fontwidth;
	size_t chars = cw > 0 ? (size_t)(w / cw) : 0;
	if (chars < 3)
		return;
	size_t have = count_chars(s, len);
	if (have <= chars) {
		sb_add_xml(sb, s, len);
	} else if (o->truncate_left) {
		size_t from = skip_chars(s, len, have - (chars - 2));
		sb_adds(sb, "..");
		sb_add_xml(sb, s + from, len - from);
	} else {
		sb_add_xml(sb, s, skip_chars(s, len, chars - 2));
		sb_adds(sb, "..");
	}
}

/* Name without a trailing _[k] _[w] _[i] _[j] annotation. */
static size_t display_len(const char *s, size_t len)
{
	if (len >= 4 && s[len - 4] == '_' && s[len - 3] == '[' && s[len - 1] == ']' &&
	    strchr("kwij", s[len - 2]) && s[len - 2])
		return len - 4;
	return len;
}

/* XML comments may not contain "--" or end in "-". */
static void add_comment_text(struct strbuf *sb, const char *s)
{
	struct strbuf tmp = SB_INIT;
	sb_add_xml(&tmp, s, strlen(s));
	for (size_t i = 0; i < tmp.len; i++) {
		sb_addc(sb, tmp.buf[i]);
		if (tmp.buf[i] == '-' && (i + 1 == tmp.len || tmp.buf[i + 1] == '-'))
			sb_addc(sb, ' ');
	}
	sb_release(&tmp);
}

static void add_attr(struct strbuf *sb, const char *name, const char *value)
{
	sb_addf(sb, " %s=\"", name);
	sb_add_xml(sb, value, strlen(value));
	sb_addc(sb, '"');
}

/* ---------------------------------------------------------------- */
/* writer                                                            */

struct writer {
	struct render_tree *t;
	const struct render_flame_opts *o;
	struct strbuf sb;
	FILE *out;
	int err;
	double total;     /* count units across the image */
	double scale;     /* px per count unit */
	double maxdelta;
	double *before;   /* differential: inclusive first-column count */
	double height;    /* px; fractional with a fractional --fontsize */
	double ypad1, ypad2;
	uint32_t depthmax;
};

static void maybe_flush(struct writer *w)
{
	if (w->sb.len >= FLUSH_AT && sb_flush(&w->sb, w->out) < 0 && !w->err)
		w->err = -errno;
}

static const char *default_title(const struct render_flame_opts *o)
{
	if (o->title)
		return o->title;
	if (o->flamechart)
		return "Flame Chart";
	return o->inverted ? "Icicle Graph" : "Flame Graph";
}

/* A font name as CSS text: letters, digits and " ,.-_" only, so it cannot
 * end the rule or add others. */
static void add_font(struct strbuf *sb, const char *font)
{
	for (const char *p = font; *p; p++) {
		char c = *p;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || strchr(" ,.-_", c);
		sb_addc(sb, ok ? c : ' ');
	}
}

static void write_style(struct writer *w)
{
	const struct render_flame_opts *o = w->o;
	struct strbuf *sb = &w->sb;
	sb_adds(sb, "<style type=\"text/css\">\n\ttext { font-family:");
	add_font(sb, o->fonttype);
	sb_addf(sb, "; font-size:%gpx; fill:rgb(0,0,0); }\n", o->fontsize);
	sb_addf(sb, "\t#title { text-anchor:middle; font-size:%gpx; }\n", o->fontsize + 5);
	sb_adds(sb, "\t#subtitle { text-anchor:middle; font-color:rgb(160,160,160); }\n"
		"\t#search, #ignorecase { opacity:0.1; cursor:pointer; }\n"
		"\t#search:hover, #search.show, #ignorecase:hover, #ignorecase.show { opacity:1; }\n"
		"\t#unzoom { cursor:pointer; }\n"
		"\t#frames > *:hover { stroke:black; stroke-width:0.5; cursor:pointer; }\n"
		"\t#frames > *:hover > rect { vector-effect:non-scaling-stroke; }\n"
		"\t#labels { pointer-events:none; }\n"
		"\t.hide { display:none; }\n"
		"\t#frames > .p { opacity:0.5; }\n"
		"</style>\n");
}

/* XML declaration, svg element, notes, gradient, clip and style. */
static void write_header(struct writer *w)
{
	const struct render_flame_opts *o = w->o;
	struct strbuf *sb = &w->sb;
	const char *top, *bottom;
	if (render_palette_bg(o->bgcolor, o->palette, &top, &bottom) < 0)
		render_palette_bg(NULL, o->palette, &top, &bottom);
	sb_adds(sb, "<?xml version=\"1.0\"");
	if (o->encoding)
		add_attr(sb, "encoding", o->encoding);
	sb_adds(sb, " standalone=\"no\"?>\n"
		"<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
		"\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n");
	sb_addf(sb, "<svg version=\"1.1\" width=\"%d\" height=\"%.15g\" viewBox=\"0 0 %d %.15g\" "
		"xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n",
		o->width, w->height, o->width, w->height);
	sb_adds(sb, "<!-- Flame graph drawn by scorch. -->\n<!-- NOTES: ");
	if (o->notes)
		add_comment_text(sb, o->notes);
	sb_adds(sb, " -->\n");
	sb_addf(sb, "<defs>\n\t<linearGradient id=\"background\" y1=\"0\" y2=\"1\" x1=\"0\" x2=\"0\">\n"
		"\t\t<stop stop-color=\"%s\" offset=\"5%%\"/>\n"
		"\t\t<stop stop-color=\"%s\" offset=\"95%%\"/>\n"
		"\t</linearGradient>\n", top, bottom);
	sb_addf(sb, "\t<clipPath id=\"frameclip\"><rect x=\"%d\" y=\"0\" width=\"%d\" "
		"height=\"%.15g\"/></clipPath>\n</defs>\n", XPAD, o->width - 2 * XPAD, w->height);
	write_style(w);
}

/* Background, titles and the viewer's buttons and status lines. */
static void write_texts(struct writer *w)
{
	const struct render_flame_opts *o = w->o;
	struct strbuf *sb = &w->sb;
	sb_addf(sb, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%.15g\" fill=\"url(#background)\"/>\n",
		o->width, w->height);
	sb_addf(sb, "<text id=\"title\" x=\"%g\" y=\"%g\">", o->width / 2.0, o->fontsize * 2);
	const char *title = default_title(o);
	sb_add_xml(sb, title, strlen(title));
	sb_adds(sb, "</text>\n");
	if (o->subtitle && *o->subtitle) {
		sb_addf(sb, "<text id=\"subtitle\" x=\"%g\" y=\"%g\">", o->width / 2.0,
			o->fontsize * 4);
		sb_add_xml(sb, o->subtitle, strlen(o->subtitle));
		sb_adds(sb, "</text>\n");
	}
	double by = w->height - w->ypad2 / 2.0;
	sb_addf(sb, "<text id=\"details\" x=\"%d\" y=\"%g\"> </text>\n", XPAD, by);
	sb_addf(sb, "<text id=\"unzoom\" class=\"hide\" x=\"%d\" y=\"%g\">Reset Zoom</text>\n",
		XPAD, o->fontsize * 2);
	sb_addf(sb, "<text id=\"search\" x=\"%d\" y=\"%g\">Search</text>\n",
		o->width - XPAD - 100, o->fontsize * 2);
	sb_addf(sb, "<text id=\"ignorecase\" x=\"%d\" y=\"%g\">ic</text>\n",
		o->width - XPAD - 16, o->fontsize * 2);
	sb_addf(sb, "<text id=\"matched\" x=\"%d\" y=\"%g\"> </text>\n",
		o->width - XPAD - 100, by);
}

static void write_preamble(struct writer *w)
{
	const struct render_flame_opts *o = w->o;
	struct strbuf *sb = &w->sb;
	write_header(w);
	write_texts(w);
	sb_adds(sb, "<g clip-path=\"url(#frameclip)\">\n");
	sb_addf(sb, "<g id=\"frames\" data-width=\"%d\" data-xpad=\"%d\" data-frameheight=\"%d\" "
		"data-fontsize=\"%g\" data-fontwidth=\"%g\" data-inverted=\"%d\"",
		o->width, XPAD, o->frameheight, o->fontsize, o->fontwidth, o->inverted ? 1 : 0);
	if (o->truncate_left)
		sb_adds(sb, " data-truncate=\"left\"");
	add_attr(sb, "data-searchcolor", o->search_color);
	add_attr(sb, "data-nametype", o->nametype);
	sb_adds(sb, ">\n");
}

/* Differential input: each node's inclusive count in the first column.
 * Deltas sit on leaves; a parent's id is always below its children's,
 * so one backward pass over the ids sums them without recursion. */
static double *inclusive_before(const struct render_tree *t)
{
	double *b = xcalloc(t->count, sizeof(*b));
	for (size_t id = t->count; id-- > 0;) {
		b[id] += t->delta[id];
		if (id)
			b[t->nodes[id].parent] += b[id];
	}
	for (size_t id = 0; id < t->count; id++)
		b[id] = t->nodes[id].value - b[id];
	return b;
}

/* Self delta of a drawn frame: a node's children drawn apart from its
 * own lines have none. */
static double frame_delta(const struct writer *w, const struct frame *f)
{
	return f->part == PART_KIDS ? 0 : w->t->delta[f->node];
}

static struct render_rgb frame_color(struct writer *w, const struct frame *f,
				     const char *name, size_t len)
{
	const struct render_flame_opts *o = w->o;
	uint32_t node = f->node;
	if (len == 2 && memcmp(name, "--", 2) == 0 && node)
		return (struct render_rgb){ 160, 160, 160 };
	if (len == 1 && name[0] == '-' && node)
		return (struct render_rgb){ 200, 200, 200 };
	if (w->t->delta) {
		double d = frame_delta(w, f);
		return render_palette_delta(o->negate ? -d : d, w->maxdelta);
	}
	if (node == 0) {
		name = "";
		len = 0;
	}
	struct render_rgb c = render_palette_color(o->palette, o->color_mode, name, len);
	if (o->palette_map)
		c = render_palette_map_get(o->palette_map, name, len, c);
	return c;
}

/* "name (N samples, P%)" as flamegraph.pl writes it: N is the frame's
 * width rounded, P is computed from N; the root is always 100%. */
static void write_title(struct writer *w, const struct frame *f, const char *name,
			size_t dlen, const struct render_attr *a)
{
	const struct render_flame_opts *o = w->o;
	struct strbuf *sb = &w->sb;
	sb_adds(sb, "<title>");
	if (a && a->title) {
		sb_add_xml(sb, a->title, strlen(a->title));
		sb_adds(sb, "</title>");
		return;
	}
	sb_add_xml(sb, name, dlen);
	double n = rint((f->end - f->start) * o->factor); /* "%.0f" */
	double all = w->total * o->factor;
	sb_adds(sb, " (");
	add_count(sb, n);
	sb_addc(sb, ' ');
	sb_add_xml(sb, o->countname, strlen(o->countname));
	if (f->node == 0) {
		sb_adds(sb, ", 100%)</title>");
		return;
	}
	sb_addf(sb, ", %.2f%%", all > 0 ? 100.0 * n / all : 0);
	if (w->t->delta) {
		double d = frame_delta(w, f);
		if (o->negate)
			d = -d;
		if (d == 0)
			d = 0; /* Perl's integer 0 when negated: "0.00", not "-0.00" */
		double dp = all > 0 ? 100.0 * d / all : 0;
		sb_addf(sb, "; %s%.2f%%", d > 0 ? "+" : "", dp);
	}
	sb_adds(sb, ")</title>");
}

/* Differential frames carry their before and after counts for the
 * viewer's hover line. */
static void add_diff_attrs(struct writer *w, const struct frame *f)
{
	if (!w->before)
		return;
	double self_before = render_tree_self(w->t, f->node) - w->t->delta[f->node];
	double before = f->part == PART_ALL ? w->before[f->node]
		      : f->part == PART_SELF ? self_before : w->before[f->node] - self_before;
	sb_adds(&w->sb, " data-before=\"");
	add_num(&w->sb, before * w->o->factor);
	sb_adds(&w->sb, "\" data-after=\"");
	add_num(&w->sb, (f->end - f->start) * w->o->factor);
	sb_addc(&w->sb, '"');
}

static void open_frame(struct writer *w, const struct render_attr *a, const struct frame *f)
{
	struct strbuf *sb = &w->sb;
	if (!a) {
		sb_adds(sb, "<g");
		add_diff_attrs(w, f);
		sb_addc(sb, '>');
		return;
	}
	sb_adds(sb, a->href ? "<a" : "<g");
	add_diff_attrs(w, f);
	if (a->href) {
		add_attr(sb, "xlink:href", a->href);
		add_attr(sb, "target", a->target ? a->target : "_top");
	}
	if (a->id)
		add_attr(sb, "id", a->id);
	if (a->cls)
		add_attr(sb, "class", a->cls);
	if (a->href && a->a_extra)
		sb_adds(sb, a->a_extra);
	if (!a->href && a->g_extra)
		sb_adds(sb, a->g_extra);
	sb_addc(sb, '>');
}

/* Pixel box of a drawn frame. */
static void frame_box(const struct writer *w, const struct frame *f, double *x1,
		      double *x2, double *y1)
{
	const struct render_flame_opts *o = w->o;
	*x1 = XPAD + f->start * w->scale;
	*x2 = XPAD + f->end * w->scale;
	*y1 = o->inverted ? w->ypad1 + (double)f->depth * o->frameheight
			  : w->height - w->ypad2 - (double)(f->depth + 1) * o->frameheight + 1;
}

static void write_frame(struct writer *w, const struct frame *f)
{
	const struct render_flame_opts *o = w->o;
	struct strbuf *sb = &w->sb;
	size_t len;
	const char *name = render_tree_name(w->t, f->node, &len);
	const struct render_attr *a = f->node ? render_nameattr_find(o->nameattr, name, len) : NULL;
	double x1, x2, y1;
	frame_box(w, f, &x1, &x2, &y1);
	struct render_rgb c = frame_color(w, f, name, len);
	open_frame(w, a, f);
	write_title(w, f, name, display_len(name, len), a);
	/* flamegraph.pl's numbers: both edges to 0.1 px, the width their
	 * difference */
	x1 = tenth(x1);
	x2 = tenth(x2);
	sb_adds(sb, "<rect x=\"");
	add_num(sb, x1);
	sb_adds(sb, "\" y=\"");
	add_num(sb, y1);
	sb_adds(sb, "\" width=\"");
	add_num(sb, tenth(x2 - x1));
	sb_addf(sb, "\" height=\"%d\" fill=\"rgb(%d,%d,%d)\"/>", o->frameheight - 1,
		c.r, c.g, c.b);
	sb_adds(sb, a && a->href ? "</a>\n" : "</g>\n");
	maybe_flush(w);
}

/* Labels sit in their own group above the frames, so the viewer can zoom
 * the frames with one transform and redraw only the labels that fit. */
static void write_label(struct writer *w, const struct frame *f)
{
	struct strbuf *sb = &w->sb;
	size_t len;
	const char *name = render_tree_name(w->t, f->node, &len);
	double x1, x2, y1;
	frame_box(w, f, &x1, &x2, &y1);
	double width = x2 - x1;
	size_t mark = sb->len;
	sb_adds(sb, "<text x=\"");
	add_num(sb, x1 + 3);
	sb_adds(sb, "\" y=\"");
	add_num(sb, y1 + (w->o->frameheight - 1) / 2.0 + 3);
	sb_adds(sb, "\">");
	size_t before = sb->len;
	add_label(sb, name, display_len(name, len), width, w->o);
	if (sb->len == before) {
		sb_setlen(sb, mark);
		return;
	}
	sb_adds(sb, "</text>\n");
	maybe_flush(w);
}

static int finish(struct writer *w)
{
	sb_adds(&w->sb, "<script type=\"text/ecmascript\"><![CDATA[\n");
	sb_adds(&w->sb, render_flame_js);
	sb_adds(&w->sb, "]]></script>\n</svg>\n");
	if (sb_flush(&w->sb, w->out) < 0 && !w->err)
		w->err = -errno;
	if (fflush(w->out) != 0 && !w->err)
		w->err = -errno;
	sb_release(&w->sb);
	return w->err;
}

int render_flame_write(struct render_tree *t, const struct render_flame_opts *o,
		       FILE *out, struct diag *d)
{
	struct writer w = { .t = t, .o = o, .sb = SB_INIT, .out = out };
	w.total = t->nodes[0].value;
	if (o->total > w.total)
		w.total = o->total;
	w.scale = w.total > 0 ? (o->width - 2.0 * XPAD) / w.total : 0;
	double min_value = o->minwidth_pct ? w.total * o->minwidth / 100
					   : (w.scale > 0 ? o->minwidth / w.scale : 0);
	struct layout l = { 0 };
	layout(t, w.total, min_value, &l);
	w.maxdelta = t->maxdelta < 1 ? 1 : t->maxdelta;
	if (t->delta)
		w.before = inclusive_before(t);
	w.ypad1 = o->fontsize * 3;
	w.ypad2 = o->fontsize * 2 + 10;
	if (o->subtitle && *o->subtitle)
		w.ypad1 += o->fontsize * 2; /* flamegraph.pl draws icicles over it */
	w.height = (double)(l.depthmax + 1) * o->frameheight + w.ypad1 + w.ypad2;
	write_preamble(&w);
	for (size_t i = 0; i < l.count; i++)
		write_frame(&w, &l.frames[i]);
	sb_adds(&w.sb, "</g>\n</g>\n<g id=\"labels\">\n");
	for (size_t i = 0; i < l.count; i++)
		write_label(&w, &l.frames[i]);
	sb_adds(&w.sb, "</g>\n");
	free(l.frames);
	free(w.before);
	int rc = finish(&w);
	if (rc < 0)
		diag_set(d, "writing the SVG: %s", strerror(-rc));
	return rc;
}

/* ---- option values ---- */

static int parse_num(const char *s, double lo, double hi, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < lo || v > hi)
		return -EINVAL;
	*out = v;
	return 0;
}

static int set_minwidth(struct render_flame_opts *o, const char *s)
{
	size_t n = strlen(s);
	char buf[64];
	if (n == 0 || n >= sizeof(buf) || strspn(s, "0123456789.%") != n ||
	    (strchr(s, '%') && strchr(s, '%') != s + n - 1))
		return -EINVAL;
	memcpy(buf, s, n + 1);
	o->minwidth_pct = buf[n - 1] == '%';
	if (o->minwidth_pct)
		buf[n - 1] = '\0';
	return parse_num(buf, 0, 1e9, &o->minwidth);
}

int render_flame_opts_number(struct render_flame_opts *o, const char *name,
			     const char *arg)
{
	double v = 0;
	int bad = 0;
	if (!strcmp(name, "width")) {
		bad = parse_num(arg, 40, 1e6, &v);
		o->width = (int)v;
	} else if (!strcmp(name, "height")) {
		bad = parse_num(arg, 2, 1000, &v);
		o->frameheight = (int)v;
	} else if (!strcmp(name, "minwidth")) {
		bad = set_minwidth(o, arg);
	} else if (!strcmp(name, "fontsize")) {
		bad = parse_num(arg, 0.5, 1000, &o->fontsize);
	} else if (!strcmp(name, "fontwidth")) {
		bad = parse_num(arg, 0.01, 10, &o->fontwidth);
	} else if (!strcmp(name, "factor")) {
		bad = parse_num(arg, 0, 1e300, &o->factor);
	} else if (!strcmp(name, "total")) {
		bad = parse_num(arg, 0, 1e300, &o->total);
	} else {
		return 1;
	}
	return bad;
}

#define FIELD(name, field, value) { name, offsetof(struct render_flame_opts, field), value }
/* The text options (the field takes the value given) and the flags (the
 * field takes the row's value). */
static const struct opt_field text_opts[] = {
	FIELD("title", title, 0), FIELD("subtitle", subtitle, 0),
	FIELD("fonttype", fonttype, 0), FIELD("countname", countname, 0),
	FIELD("nametype", nametype, 0), FIELD("notes", notes, 0),
	FIELD("search-color", search_color, 0), FIELD("encoding", encoding, 0),
};
static const struct opt_field flag_opts[] = {
	FIELD("inverted", inverted, true), FIELD("flamechart", flamechart, true),
	FIELD("negate", negate, true), FIELD("truncate-text-right", truncate_left, false),
	FIELD("truncate-text-left", truncate_left, true),
};
#undef FIELD

/* The colour modes by option name; 1 for another name. */
static int set_color_mode(struct render_flame_opts *o, const char *name)
{
	static const struct { const char *name; enum render_color_mode mode; } modes[] = {
		{ "hash", COLOR_HASH }, { "random", COLOR_RANDOM }, { "deterministic", COLOR_NAME },
	};
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcmp(name, modes[i].name)) {
			o->color_mode = modes[i].mode;
			return 0;
		}
	return 1;
}

int render_flame_opts_set(struct render_flame_opts *o, const char *name,
			  const char *arg)
{
	int rc = render_flame_opts_number(o, name, arg);
	if (rc != 1)
		return rc;
	bool value;
	const char **text = OPT_FIELD(text_opts, o, name, NULL);
	bool *flag = OPT_FIELD(flag_opts, o, name, &value);
	if (text)
		*text = arg;
	else if (flag)
		*flag = value;
	if (text || flag)
		return 0;
	if (!strcmp(name, "colors"))
		return render_palette_parse(arg, &o->palette);
	if (!strcmp(name, "bgcolors")) {
		const char *top, *bottom;
		o->bgcolor = arg;
		return render_palette_bg(arg, PAL_HOT, &top, &bottom);
	}
	return set_color_mode(o, name);
}

void render_flame_opts_perf_labels(struct render_flame_opts *o,
				   const struct fold_perfdata_info *info, bool keep_title,
				   bool keep_counts, struct strbuf *title)
{
	const char *countname;
	double factor;
	fold_perfdata_labels(info, NULL, &countname, &factor, title);
	if (!keep_title)
		o->title = title->buf;
	if (!keep_counts) {
		o->countname = countname;
		o->factor = factor;
	}
}

int render_flame_write_table(const struct stack_table *st,
			     const struct render_flame_opts *o, FILE *out,
			     struct diag *d)
{
	if (stack_table_count(st) == 0)
		return render_flame_write_empty(o, out);
	struct render_tree tree;
	render_tree_init(&tree, false, false);
	render_tree_add_table(&tree, st);
	int rc = render_flame_write(&tree, o, out, d);
	render_tree_release(&tree);
	return rc;
}

int render_flame_write_empty(const struct render_flame_opts *o, FILE *out)
{
	struct strbuf sb = SB_INIT;
	int height = (int)(o->fontsize * 5);
	sb_adds(&sb, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
		"\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n");
	sb_addf(&sb, "<svg version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"xmlns=\"http://www.w3.org/2000/svg\">\n", o->width, height, o->width, height);
	sb_addf(&sb, "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\" font-family=\"",
		o->width / 2.0, o->fontsize * 2);
	add_font(&sb, o->fonttype);
	sb_addf(&sb, "\" font-size=\"%g\">ERROR: No samples: no valid input.</text>\n</svg>\n",
		o->fontsize);
	int rc = sb_flush(&sb, out) < 0 || fflush(out) != 0 ? -errno : 0;
	sb_release(&sb);
	return rc;
}
