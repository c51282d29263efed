/*
 * flame: call tree to SVG flame graph (see flame.h).
 * Stage: render. Two steps: layout walks the tree depth first and keeps
 * the frames wide enough to draw (x in count units, depth), ordering
 * children only where it draws; then the writer prints the preamble
 * (whose height needs the deepest drawn level), the frames and the
 * viewer script. Geometry follows flamegraph.pl: xpad 10, top padding
 * 3*fontsize (+2*fontsize with a subtitle), bottom 2*fontsize+10, frame
 * rects one pixel shorter than a level.
 */
#include "render/flame.h"

#include "base/strbuf.h"
#include "base/xalloc.h"

#include <errno.h>
#include <math.h>
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

struct frame {
	uint32_t node;
	uint32_t depth;
	double start; /* in count units from the left edge */
};

struct layout {
	struct frame *frames;
	size_t count, cap;
	uint32_t depthmax;
	double maxdelta;
};

static int by_name(const void *a, const void *b, void *arg)
{
	struct render_tree *t = arg;
	size_t la, lb;
	const char *sa = render_tree_name(t, *(const uint32_t *)a, &la);
	const char *sb = render_tree_name(t, *(const uint32_t *)b, &lb);
	int c = memcmp(sa, sb, la < lb ? la : lb);
	return c ? c : (la > lb) - (la < lb);
}

/* Children of node in drawing order, into *kids. */
static size_t children(struct render_tree *t, uint32_t node, uint32_t **kids, size_t *cap)
{
	size_t n = 0;
	for (uint32_t c = t->nodes[node].child; c != RENDER_NONE; c = t->nodes[c].next) {
		XGROW(*kids, *cap, n + 1);
		(*kids)[n++] = c;
	}
	if (t->flamechart) {
		for (size_t i = 0; i < n / 2; i++) {
			uint32_t x = (*kids)[i];
			(*kids)[i] = (*kids)[n - 1 - i];
			(*kids)[n - 1 - i] = x;
		}
	} else if (n > 1) {
		qsort_r(*kids, n, sizeof(**kids), by_name, t);
	}
	return n;
}

static void add_frame(struct layout *l, uint32_t node, uint32_t depth, double start)
{
	XGROW(l->frames, l->cap, l->count + 1);
	l->frames[l->count].node = node;
	l->frames[l->count].depth = depth;
	l->frames[l->count].start = start;
	l->count++;
	if (depth > l->depthmax)
		l->depthmax = depth;
}

/* Depth-first pre-order over frames at least min_value wide. */
static void layout(struct render_tree *t, double min_value, struct layout *l)
{
	struct frame *stack = NULL;
	size_t sn = 0, scap = 0, kcap = 0;
	uint32_t *kids = NULL;
	XGROW(stack, scap, 1);
	stack[sn++] = (struct frame){ 0, 0, 0 };
	while (sn) {
		struct frame f = stack[--sn];
		add_frame(l, f.node, f.depth, f.start);
		if (t->delta && fabs(t->delta[f.node]) > l->maxdelta)
			l->maxdelta = fabs(t->delta[f.node]);
		size_t n = children(t, f.node, &kids, &kcap);
		double x = f.start;
		size_t first = sn;
		for (size_t i = 0; i < n; i++) {
			double v = t->nodes[kids[i]].value;
			if (v >= min_value && v > 0) {
				XGROW(stack, scap, sn + 1);
				stack[sn++] = (struct frame){ kids[i], f.depth + 1, x };
			}
			x += v;
		}
		/* reverse the pushed children so the first pops first */
		for (size_t i = first, j = sn; i + 1 < j; i++, j--) {
			struct frame tmp = stack[i];
			stack[i] = stack[j - 1];
			stack[j - 1] = tmp;
		}
	}
	free(stack);
	free(kids);
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
	int height;
	int ypad1, ypad2;
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
	sb_addf(sb, "<svg version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
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
		"height=\"%d\"/></clipPath>\n</defs>\n", XPAD, o->width - 2 * XPAD, w->height);
	write_style(w);
}

/* Background, titles and the viewer's buttons and status lines. */
static void write_texts(struct writer *w)
{
	const struct render_flame_opts *o = w->o;
	struct strbuf *sb = &w->sb;
	sb_addf(sb, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"url(#background)\"/>\n",
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

static struct render_rgb frame_color(struct writer *w, uint32_t node,
				     const char *name, size_t len)
{
	const struct render_flame_opts *o = w->o;
	if (w->t->delta) {
		double d = w->t->delta[node];
		return render_palette_delta(o->negate ? -d : d, w->maxdelta);
	}
	if (node == 0) {
		name = "";
		len = 0;
	}
	if (len == 2 && memcmp(name, "--", 2) == 0)
		return (struct render_rgb){ 160, 160, 160 };
	if (len == 1 && name[0] == '-')
		return (struct render_rgb){ 200, 200, 200 };
	struct render_rgb c = render_palette_color(o->palette, o->color_mode, name, len);
	if (o->palette_map)
		c = render_palette_map_get(o->palette_map, name, len, c);
	return c;
}

static void write_title(struct writer *w, uint32_t node, const char *name, size_t dlen,
			const struct render_attr *a)
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
	double v = w->t->nodes[node].value;
	sb_adds(sb, " (");
	add_count(sb, v * o->factor);
	sb_addc(sb, ' ');
	sb_add_xml(sb, o->countname, strlen(o->countname));
	double pct = w->total > 0 ? 100.0 * v / w->total : 0;
	if (node == 0 && v >= w->total)
		sb_adds(sb, ", 100%");
	else
		sb_addf(sb, ", %.2f%%", pct);
	if (w->t->delta) {
		double d = w->t->delta[node];
		if (o->negate)
			d = -d;
		double dp = w->total > 0 ? 100.0 * d / w->total : 0;
		sb_addf(sb, "; %s%.2f%%", d > 0 ? "+" : "", dp);
	}
	sb_adds(sb, ")</title>");
}

/* Differential frames carry their before and after counts for the
 * viewer's hover line. */
static void add_diff_attrs(struct writer *w, uint32_t node)
{
	if (!w->before)
		return;
	sb_adds(&w->sb, " data-before=\"");
	add_num(&w->sb, w->before[node] * w->o->factor);
	sb_adds(&w->sb, "\" data-after=\"");
	add_num(&w->sb, w->t->nodes[node].value * w->o->factor);
	sb_addc(&w->sb, '"');
}

static void open_frame(struct writer *w, const struct render_attr *a, uint32_t node)
{
	struct strbuf *sb = &w->sb;
	if (!a) {
		sb_adds(sb, "<g");
		add_diff_attrs(w, node);
		sb_addc(sb, '>');
		return;
	}
	sb_adds(sb, a->href ? "<a" : "<g");
	add_diff_attrs(w, node);
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
		      double *width, double *y1)
{
	const struct render_flame_opts *o = w->o;
	*x1 = XPAD + f->start * w->scale;
	*width = w->t->nodes[f->node].value * w->scale;
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
	double x1, width, y1;
	frame_box(w, f, &x1, &width, &y1);
	struct render_rgb c = frame_color(w, f->node, name, len);
	open_frame(w, a, f->node);
	write_title(w, f->node, name, display_len(name, len), a);
	sb_adds(sb, "<rect x=\"");
	add_num(sb, x1);
	sb_adds(sb, "\" y=\"");
	add_num(sb, y1);
	sb_adds(sb, "\" width=\"");
	add_num(sb, width);
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
	double x1, width, y1;
	frame_box(w, f, &x1, &width, &y1);
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
	layout(t, min_value, &l);
	w.maxdelta = l.maxdelta < 1 ? 1 : l.maxdelta;
	if (t->delta)
		w.before = inclusive_before(t);
	w.ypad1 = (int)(o->fontsize * 3);
	w.ypad2 = (int)(o->fontsize * 2 + 10);
	if (o->subtitle && *o->subtitle)
		w.ypad1 += (int)(o->fontsize * 2);
	w.height = (int)(l.depthmax + 1) * o->frameheight + w.ypad1 + w.ypad2;
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
