/*
 * heatmap: latency heat map bucketing and SVG/TSV output (see heatmap.h).
 * Stage: render. Pairs are spooled to a temporary file, then bucketed in
 * one replay into a sparse (col, row) -> count map; memory grows with the
 * non-empty cells. Numbers in labels and coordinates are printed like
 * Perl prints numbers (%.15g) so cells compare with trace2heatmap.pl's.
 */
#include "render/heatmap.h"

#include "base/opt.h"
#include "base/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- options and lifecycle ---- */

void heatmap_opts_init(struct heatmap_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->timefactor = 1;
	o->unitslabel = "";
	o->rows = 50;
	o->stepsec = 1;
	o->maxcol = -1;
	o->title = "Latency Heat Map";
	o->fonttype = "Verdana";
	o->fontsize = 12;
	o->boxsize = 8;
}

int heatmap_time_units(const char *v, double *factor)
{
	static const struct { const char *name; double f; } u[] = {
		{ "s", 1 }, { "ms", 1e3 }, { "us", 1e6 }, { "ns", 1e9 },
	};
	for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++)
		if (strcmp(v, u[i].name) == 0) {
			*factor = u[i].f;
			return 0;
		}
	return -1;
}

#define FIELD(name, field, value) { name, offsetof(struct heatmap_opts, field), value }
/* The text options (the field takes the value given) and the flags. */
static const struct opt_field text_opts[] = {
	FIELD("unitslabel", unitslabel, 0), FIELD("title", title, 0),
	FIELD("fonttype", fonttype, 0),
};
static const struct opt_field flag_opts[] = {
	FIELD("grid", grid, true), FIELD("accstats", accstats, true),
	FIELD("quirks", quirks, true),
};
#undef FIELD

int heatmap_opts_set(struct heatmap_opts *o, const char *name, const char *v)
{
	if (!strcmp(name, "unitstime"))
		return heatmap_time_units(v, &o->timefactor);
	if (!strcmp(name, "minlat"))
		return opt_value_number(v, -1e300, &o->minlat);
	if (!strcmp(name, "maxlat"))
		return opt_value_number(v, 0, &o->maxlat);
	if (!strcmp(name, "steplat"))
		return opt_value_number(v, 0, &o->steplat);
	if (!strcmp(name, "stepsec"))
		return opt_value_number(v, 1e-9, &o->stepsec);
	if (!strcmp(name, "rows"))
		return opt_value_integer(v, 1, HEATMAP_MAX_ROWS, &o->rows);
	if (!strcmp(name, "maxcol"))
		return opt_value_integer(v, 0, HEATMAP_MAX_COLS, &o->maxcol);
	if (!strcmp(name, "boxsize"))
		return opt_value_integer(v, 1, 1000, &o->boxsize);
	if (!strcmp(name, "fontsize"))
		return opt_value_integer(v, 1, 1000, &o->fontsize);
	bool value;
	const char **text = OPT_FIELD(text_opts, o, name, NULL);
	bool *flag = OPT_FIELD(flag_opts, o, name, &value);
	if (text)
		*text = v;
	else if (flag)
		*flag = value;
	return text || flag ? 0 : 1;
}

void heatmap_init(struct heatmap *hm, const struct heatmap_opts *o)
{
	memset(hm, 0, sizeof(*hm));
	hm->o = *o;
	hmap_init(&hm->cells);
}

void heatmap_release(struct heatmap *hm)
{
	if (hm->spool)
		fclose(hm->spool);
	hmap_release(&hm->cells);
	free(hm->drawn);
	memset(hm, 0, sizeof(*hm));
}

int heatmap_add(struct heatmap *hm, double t, double lat)
{
	if (!hm->spool) {
		hm->spool = tmpfile();
		if (!hm->spool)
			return -errno;
	}
	double pair[2] = { t, lat };
	if (fwrite(pair, sizeof(pair), 1, hm->spool) != 1)
		return -EIO;
	if (hm->npairs == 0 || t < hm->min_t)
		hm->min_t = t;
	if (hm->npairs == 0 || t > hm->max_t)
		hm->max_t = t;
	if (hm->npairs == 0 || lat > hm->largest_lat)
		hm->largest_lat = lat;
	hm->npairs++;
	return 0;
}

/* ---- bucketing ---- */

struct cell_key {
	int32_t col, row;
};

static void count_cell(struct heatmap *hm, long col, long row)
{
	struct cell_key k = { (int32_t)col, (int32_t)row };
	size_t id = hmap_put(&hm->cells, &k, sizeof(k), NULL);
	struct hmap_entry *e = hmap_at(&hm->cells, id);
	e->value++;
	if (e->value > hm->largest_count)
		hm->largest_count = e->value;
	if (col > hm->largest_col)
		hm->largest_col = col;
	hm->kept++;
}

static void bucket(struct heatmap *hm, double t, double lat)
{
	const struct heatmap_opts *o = &hm->o;
	if (lat < o->minlat || lat > hm->maxlat)
		return;
	double dcol = trunc(((t - hm->start) / o->timefactor) / o->stepsec);
	if (o->maxcol >= 0 && dcol > (double)o->maxcol)
		return;
	long col = (long)dcol;
	long row = (long)((lat - o->minlat) / hm->step);
	count_cell(hm, col, row);
}

static int layout(struct heatmap *hm, struct diag *d)
{
	const struct heatmap_opts *o = &hm->o;
	if (hm->npairs == 0) {
		diag_set(d, "no data: no \"time latency\" pairs in the input");
		return -EINVAL;
	}
	hm->start = hm->min_t;
	hm->maxlat = o->maxlat > 0 ? o->maxlat : hm->largest_lat;
	if (hm->maxlat < o->minlat) {
		diag_set(d, "maximum latency %.15g is below --minlat %.15g",
			 hm->maxlat, o->minlat);
		return -EINVAL;
	}
	hm->step = o->steplat > 0 ? o->steplat
				  : trunc((hm->maxlat - o->minlat) / (double)o->rows);
	if (!(hm->step > 0)) {
		diag_set(d, "row resolution too high: latency range %.15g-%.15g "
			 "over %ld rows is below 1; lower --rows or set --steplat",
			 o->minlat, hm->maxlat, o->rows);
		return -EINVAL;
	}
	double rows = trunc((hm->maxlat - o->minlat) / hm->step);
	if (rows > HEATMAP_MAX_ROWS) {
		diag_set(d, "too many rows (%.15g > %d); raise --steplat", rows,
			 HEATMAP_MAX_ROWS);
		return -E2BIG;
	}
	hm->largest_row = (long)rows;
	double cols = trunc(((hm->max_t - hm->start) / o->timefactor) / o->stepsec);
	if (o->maxcol >= 0 && cols > (double)o->maxcol)
		cols = (double)o->maxcol;
	if (!(cols <= HEATMAP_MAX_COLS)) {
		diag_set(d, "too many columns (%.15g > %d); try setting --unitstime "
			 "or --stepsec", cols, HEATMAP_MAX_COLS);
		return -E2BIG;
	}
	return 0;
}

static int cmp_cell(const void *a, const void *b)
{
	const struct heatmap_cell *x = a, *y = b;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return (x->row > y->row) - (x->row < y->row);
}

static bool is_drawn(const struct heatmap *hm, long col, long row)
{
	if (!hm->o.quirks)
		return true;
	return col < hm->largest_col && row < hm->largest_row;
}

static void collect_drawn(struct heatmap *hm)
{
	hm->drawn = xcalloc(hm->cells.count + 1, sizeof(*hm->drawn));
	for (size_t i = 0; i < hm->cells.count; i++) {
		const struct hmap_entry *e = &hm->cells.entries[i];
		struct cell_key k;
		memcpy(&k, e->key, sizeof(k));
		if (!is_drawn(hm, k.col, k.row))
			continue;
		struct heatmap_cell *c = &hm->drawn[hm->ndrawn++];
		c->col = k.col;
		c->row = k.row;
		c->count = e->value;
	}
	qsort(hm->drawn, hm->ndrawn, sizeof(*hm->drawn), cmp_cell);
	for (size_t i = 0, j; i < hm->ndrawn; i = j) {
		uint64_t acc = 0;
		for (j = i; j < hm->ndrawn && hm->drawn[j].col == hm->drawn[i].col; j++) {
			acc += hm->drawn[j].count;
			hm->drawn[j].acc = acc;
		}
		for (size_t k = i; k < j; k++)
			hm->drawn[k].coltotal = acc;
	}
}

int heatmap_build(struct heatmap *hm, struct diag *d)
{
	int rc = layout(hm, d);
	if (rc < 0)
		return rc;
	if (fflush(hm->spool) != 0 || fseek(hm->spool, 0, SEEK_SET) != 0) {
		diag_set(d, "temporary file: %s", strerror(errno));
		return -EIO;
	}
	double pair[2];
	for (uint64_t i = 0; i < hm->npairs; i++) {
		if (fread(pair, sizeof(pair), 1, hm->spool) != 1) {
			diag_set(d, "temporary file: short read");
			return -EIO;
		}
		bucket(hm, pair[0], pair[1]);
	}
	collect_drawn(hm);
	return 0;
}

long heatmap_ncols(const struct heatmap *hm)
{
	return hm->o.quirks ? hm->largest_col : hm->largest_col + 1;
}

long heatmap_nrows(const struct heatmap *hm)
{
	return hm->o.quirks ? hm->largest_row : hm->largest_row + 1;
}

/* ---- labels ---- */

void heatmap_time_label(const struct heatmap *hm, long col, struct strbuf *sb)
{
	double step = hm->o.stepsec, a = (double)col * step;
	if (step <= 1) {
		sb_addf(sb, "%.15g", a);
	} else if (hm->o.quirks || step == trunc(step)) {
		/* whole seconds a .. a+step-1, as trace2heatmap.pl labels them */
		sb_addf(sb, "%.15g-%.15g", a, a - 1 + step);
	} else {
		sb_addf(sb, "%.15g-%.15g", a, a + step);
	}
}

void heatmap_range_label(const struct heatmap *hm, long row, struct strbuf *sb)
{
	double lo = hm->o.minlat + (double)row * hm->step;
	double hi = hm->o.minlat + (double)(row + 1) * hm->step;
	sb_addf(sb, "%.15g-%.15g", lo, hi);
	sb_adds(sb, hm->o.unitslabel);
}

static void add_fill(const struct heatmap *hm, uint64_t count, struct strbuf *sb)
{
	double r = (double)count / (double)hm->largest_count;
	sb_addf(sb, "rgb(255,%.0f,%.0f)", 240 - 240 * r, 220 - 220 * r);
}

/* Geometry as trace2heatmap.pl draws it; row 0 at the bottom. */
struct geom {
	double w, h, ypad1, ypad2, box;
};

static struct geom geometry(const struct heatmap *hm)
{
	struct geom g;
	double fs = (double)hm->o.fontsize;
	g.box = (double)hm->o.boxsize;
	g.ypad1 = fs * 3;
	g.ypad2 = fs * 4.5 + (hm->o.grid ? fs * 1.2 : 0);
	g.w = (double)heatmap_ncols(hm) * g.box + 20;
	if (g.w < 500)
		g.w = 500;
	g.h = (double)heatmap_nrows(hm) * g.box + g.ypad1 + g.ypad2;
	return g;
}

static double cell_y(const struct geom *g, long row)
{
	return g->h - (g->ypad2 + (double)row * g->box);
}

void heatmap_write_cells(const struct heatmap *hm, struct strbuf *out)
{
	struct geom g = geometry(hm);
	sb_adds(out, "col\trow\tcount\tacc\tcoltotal\ttime_label\trange_label\tfill\tx\ty\n");
	for (size_t i = 0; i < hm->ndrawn; i++) {
		const struct heatmap_cell *c = &hm->drawn[i];
		sb_addf(out, "%ld\t%ld\t%llu\t%llu\t%llu\t", c->col, c->row,
			(unsigned long long)c->count, (unsigned long long)c->acc,
			(unsigned long long)c->coltotal);
		heatmap_time_label(hm, c->col, out);
		sb_addc(out, '\t');
		heatmap_range_label(hm, c->row, out);
		sb_addc(out, '\t');
		add_fill(hm, c->count, out);
		sb_addf(out, "\t%.1f\t%.15g\n", 10 + (double)c->col * g.box,
			cell_y(&g, c->row));
	}
}

/* ---- SVG ---- */

static const char svg_script[] =
	"<script type=\"text/ecmascript\"><![CDATA[\n"
	"var details;\n"
	"function init(evt) {\n"
	"\tdetails = document.getElementById(\"details\").firstChild;\n"
	"\t// #hover=N hovers the N-th cell on load (links and tests)\n"
	"\tvar m = /hover=(\\d+)/.exec(location.hash);\n"
	"\tvar cells = document.getElementsByClassName(\"cell\");\n"
	"\tif (m && cells[+m[1]]) cells[+m[1]].dispatchEvent(new MouseEvent(\"mouseover\"));\n"
	"}\n"
	"// show the hovered cell's summary (its <title>) in the details line\n"
	"function s(node) {\n"
	"\tvar t = node.getElementsByTagName(\"title\")[0];\n"
	"\tdetails.nodeValue = t ? t.textContent : \" \";\n"
	"}\n"
	"function c() { details.nodeValue = \" \"; }\n"
	"]]></script>\n";

static void svg_text(struct strbuf *out, double x, double y, const char *anchor,
		     long size, const char *extra, const char *text)
{
	sb_addf(out, "<text x=\"%.15g\" y=\"%.15g\" text-anchor=\"%s\" "
		"font-size=\"%ld\"%s>", x, y, anchor, size, extra);
	sb_add_xml(out, text, strlen(text));
	sb_adds(out, "</text>\n");
}

static void svg_head(const struct heatmap *hm, const struct geom *g,
		     struct strbuf *out)
{
	sb_adds(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
		"\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n");
	sb_addf(out, "<svg version=\"1.1\" width=\"%.15g\" height=\"%.15g\" "
		"onload=\"init(evt)\" viewBox=\"0 0 %.15g %.15g\" "
		"xmlns=\"http://www.w3.org/2000/svg\">\n", g->w, g->h, g->w, g->h);
	sb_adds(out, "<style type=\"text/css\">\ntext { font-family: ");
	sb_add_xml(out, hm->o.fonttype, strlen(hm->o.fonttype));
	sb_adds(out, "; fill: rgb(0,0,0); }\nrect.cell:hover { stroke: black; "
		"stroke-width: 0.5; }\n</style>\n");
	sb_adds(out, svg_script);
	sb_addf(out, "<rect x=\"0\" y=\"0\" width=\"%.15g\" height=\"%.15g\" "
		"fill=\"rgb(255,255,255)\" id=\"bkg\"/>\n", g->w, g->h);
	double fs = (double)hm->o.fontsize;
	svg_text(out, g->w / 2, fs * 2, "middle", hm->o.fontsize + 5, "", hm->o.title);
	svg_text(out, g->w / 2, g->h - fs - 1, "middle", hm->o.fontsize, "", "Time");
	svg_text(out, 10, g->h - fs * 2.5, "start", hm->o.fontsize,
		 " id=\"details\"", " ");
}

static void svg_grid(const struct heatmap *hm, const struct geom *g,
		     struct strbuf *out)
{
	long ncols = heatmap_ncols(hm), nrows = heatmap_nrows(hm);
	double ybot = g->h - g->ypad2 + g->box, ytop = cell_y(g, nrows - 1);
	double xr = 10 + (double)ncols * g->box;
	const char *line = "stroke=\"rgb(160,160,160)\" stroke-width=\"0.5\"";
	sb_addf(out, "<line x1=\"10\" y1=\"%.15g\" x2=\"%.15g\" y2=\"%.15g\" %s/>\n",
		ybot, xr, ybot, line);
	sb_addf(out, "<line x1=\"10\" y1=\"%.15g\" x2=\"%.15g\" y2=\"%.15g\" %s/>\n",
		ytop, xr, ytop, line);
	struct strbuf sb = SB_INIT;
	for (long s = 0; s < ncols; s += 10) {
		double x = 10 + (double)s * g->box;
		sb_addf(out, "<line x1=\"%.15g\" y1=\"%.15g\" x2=\"%.15g\" y2=\"%.15g\" %s/>\n",
			x, ytop, x, ybot, line);
		sb_reset(&sb);
		sb_addf(&sb, "%.15gs", (double)s * hm->o.stepsec);
		svg_text(out, x, ybot + (double)hm->o.fontsize, "middle",
			 hm->o.fontsize - 2, "", sb.buf);
	}
	sb_reset(&sb);
	sb_addf(&sb, "min %.15g", hm->o.minlat);
	sb_adds(&sb, hm->o.unitslabel);
	svg_text(out, xr + 2, ybot, "start", hm->o.fontsize - 2, "", sb.buf);
	sb_reset(&sb);
	sb_addf(&sb, "max %.15g", hm->o.minlat + (double)nrows * hm->step);
	sb_adds(&sb, hm->o.unitslabel);
	svg_text(out, xr + 2, ytop, "start", hm->o.fontsize - 2, "", sb.buf);
	sb_release(&sb);
}

static void svg_cell(const struct heatmap *hm, const struct geom *g,
		     const struct heatmap_cell *c, struct strbuf *out,
		     struct strbuf *tmp)
{
	sb_addf(out, "<rect class=\"cell\" x=\"%.1f\" y=\"%.15g\" width=\"%.1f\" "
		"height=\"%.1f\" fill=\"", 10 + (double)c->col * g->box,
		cell_y(g, c->row), g->box, g->box);
	add_fill(hm, c->count, out);
	sb_adds(out, "\" onmouseover=\"s(this)\" onmouseout=\"c()\"><title>");
	sb_reset(tmp);
	sb_adds(tmp, "time ");
	heatmap_time_label(hm, c->col, tmp);
	sb_adds(tmp, "s, range ");
	heatmap_range_label(hm, c->row, tmp);
	sb_addf(tmp, ", count: %llu, colpct: %llu%%", (unsigned long long)c->count,
		(unsigned long long)(c->count * 100 / c->coltotal));
	if (hm->o.accstats)
		sb_addf(tmp, ", acc: %llu, acc pct: %llu%%", (unsigned long long)c->acc,
			(unsigned long long)(c->acc * 100 / c->coltotal));
	sb_add_xml(out, tmp->buf, tmp->len);
	sb_adds(out, "</title></rect>\n");
}

void heatmap_write_svg(const struct heatmap *hm, struct strbuf *out)
{
	struct geom g = geometry(hm);
	svg_head(hm, &g, out);
	if (hm->o.grid)
		svg_grid(hm, &g, out);
	struct strbuf tmp = SB_INIT;
	for (size_t i = 0; i < hm->ndrawn; i++)
		svg_cell(hm, &g, &hm->drawn[i], out, &tmp);
	sb_release(&tmp);
	sb_adds(out, "</svg>\n");
}

/* ---- text input ---- */

bool heatmap_is_header(const char *line, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (isalpha((unsigned char)line[i]))
			return true;
	return false;
}

/* Next whitespace-separated field of line[*pos..len). */
static bool next_field(const char *line, size_t len, size_t *pos,
		       const char **f, size_t *flen)
{
	size_t i = *pos;
	while (i < len && isspace((unsigned char)line[i]))
		i++;
	if (i == len)
		return false;
	size_t j = i;
	while (j < len && !isspace((unsigned char)line[j]))
		j++;
	*f = line + i;
	*flen = j - i;
	*pos = j;
	return true;
}

/* A decimal number (no hex, no inf/nan), whole field. */
static bool parse_number(const char *f, size_t len, double *v)
{
	char buf[64];
	if (len == 0 || len >= sizeof(buf))
		return false;
	for (size_t i = 0; i < len; i++)
		if (!strchr("0123456789+-.eE", f[i]))
			return false;
	memcpy(buf, f, len);
	buf[len] = 0;
	char *end;
	errno = 0;
	*v = strtod(buf, &end);
	return end == buf + len && isfinite(*v);
}

int heatmap_parse_line(const char *line, size_t len, double *t, double *lat)
{
	const char *f1, *f2;
	size_t l1, l2, pos = 0;
	if (!next_field(line, len, &pos, &f1, &l1) ||
	    !next_field(line, len, &pos, &f2, &l2))
		return 0;
	if (!parse_number(f1, l1, t) || !parse_number(f2, l2, lat))
		return -1;
	return 1;
}
