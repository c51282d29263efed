/*
 * subsecond: sub-second offset heat map model, TSV cells and the
 * self-contained HTML page with range selection (see subsecond.h).
 * Stage: render. The page is well-formed XHTML (xmllint-clean): cells are
 * SVG rects drawn here in C with their colours; the per-cell folded
 * stacks are embedded as JSON (with <, > and & escaped as \u00XX) and a
 * small script merges the stacks of the selected cells into a flame
 * graph. Key invariant: output is deterministic (cells sorted by time,
 * stacks by id in first-seen order, stack lists per cell by id).
 */
#include "render/subsecond.h"

#include "base/xalloc.h"

#include <stdlib.h>
#include <string.h>

struct cell_key {
	uint64_t sec;
	uint32_t row, pad;
};

struct cellstack_key {
	uint64_t sec;
	uint32_t row, stack;
};

void subsec_map_init(struct subsec_map *m, long rows, bool keep_stacks)
{
	memset(m, 0, sizeof(*m));
	m->rows = rows > 0 ? rows : 50;
	m->keep_stacks = keep_stacks;
	hmap_init(&m->cells);
	hmap_init(&m->cellstacks);
	stack_table_init(&m->stacks);
}

void subsec_map_release(struct subsec_map *m)
{
	hmap_release(&m->cells);
	hmap_release(&m->cellstacks);
	stack_table_release(&m->stacks);
	memset(m, 0, sizeof(*m));
}

void subsec_map_event(struct subsec_map *m, uint64_t t_ns)
{
	uint64_t sec = t_ns / SUBSEC_NS;
	if (!m->have || sec < m->min_sec)
		m->min_sec = sec;
	if (!m->have || sec > m->max_sec)
		m->max_sec = sec;
	m->have = true;
}

long subsec_row(const struct subsec_map *m, uint64_t t_ns)
{
	/* (t mod 1 s) * rows / 1 s in integers: < 1e9 * 1e5, no overflow */
	return (long)((t_ns % SUBSEC_NS) * (uint64_t)m->rows / SUBSEC_NS);
}

void subsec_map_sample(struct subsec_map *m, uint64_t t_ns, const char *stack,
		       size_t len, uint64_t weight)
{
	subsec_map_event(m, t_ns);
	struct cell_key k = { t_ns / SUBSEC_NS, (uint32_t)subsec_row(m, t_ns), 0 };
	size_t id = hmap_put(&m->cells, &k, sizeof(k), NULL);
	hmap_at(&m->cells, id)->value++;
	m->samples++;
	if (!m->keep_stacks)
		return;
	size_t sid = stack_table_add(&m->stacks, stack, len, weight);
	struct cellstack_key ck = { k.sec, k.row, (uint32_t)sid };
	id = hmap_put(&m->cellstacks, &ck, sizeof(ck), NULL);
	hmap_at(&m->cellstacks, id)->value += weight;
}

bool subsec_parse_time(const char *s, size_t len, uint64_t *ns)
{
	size_t i = 0;
	uint64_t sec = 0, frac = 0, scale = SUBSEC_NS;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		if (sec > (UINT64_MAX / SUBSEC_NS - 9) / 10)
			return false;
		sec = sec * 10 + (uint64_t)(s[i] - '0');
	}
	if (i == 0)
		return false;
	if (i < len && s[i] == '.') {
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
			if (scale > 1) {
				scale /= 10;
				frac += (uint64_t)(s[i] - '0') * scale;
			}
		}
	}
	if (i != len)
		return false;
	*ns = sec * SUBSEC_NS + frac;
	return true;
}

/* ---- sorted cells ---- */

struct cell {
	uint64_t sec;
	long row;
	uint64_t count;
};

static int cmp_cell(const void *a, const void *b)
{
	const struct cell *x = a, *y = b;
	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	return (x->row < y->row) - (x->row > y->row); /* top row first */
}

static struct cell *sorted_cells(const struct subsec_map *m, uint64_t *max)
{
	struct cell *c = xcalloc(m->cells.count + 1, sizeof(*c));
	*max = 0;
	for (size_t i = 0; i < m->cells.count; i++) {
		struct cell_key k;
		memcpy(&k, m->cells.entries[i].key, sizeof(k));
		c[i] = (struct cell){ k.sec, k.row, m->cells.entries[i].value };
		if (c[i].count > *max)
			*max = c[i].count;
	}
	qsort(c, m->cells.count, sizeof(*c), cmp_cell);
	return c;
}

static void add_offset_ms(const struct subsec_map *m, long row, struct strbuf *out)
{
	sb_addf(out, "%.15g", 1000.0 * (double)row / (double)m->rows);
}

void render_subsecond_cells(const struct subsec_map *m, struct strbuf *out)
{
	uint64_t max;
	struct cell *c = sorted_cells(m, &max);
	sb_adds(out, "col_second\trow_topdown\trow_bottomup\toffset_ms_lo\tcount\n");
	for (size_t i = 0; i < m->cells.count; i++) {
		sb_addf(out, "%llu\t%ld\t%ld\t", (unsigned long long)(c[i].sec - m->min_sec),
			m->rows - 1 - c[i].row, c[i].row);
		add_offset_ms(m, c[i].row, out);
		sb_addf(out, "\t%llu\n", (unsigned long long)c[i].count);
	}
	free(c);
}

/* ---- HTML page ---- */

/* FlameScope's scale: white -> #FF5032 -> #E50914 over [0, max/2, max]. */
static void add_colour(uint64_t count, uint64_t max, struct strbuf *out)
{
	double r = max ? (double)count / (double)max : 0;
	double a[3], b[3], t;
	if (r <= 0.5) {
		double w[3] = { 255, 255, 255 }, m[3] = { 255, 80, 50 };
		memcpy(a, w, sizeof(a));
		memcpy(b, m, sizeof(b));
		t = r * 2;
	} else {
		double m[3] = { 255, 80, 50 }, e[3] = { 229, 9, 20 };
		memcpy(a, m, sizeof(a));
		memcpy(b, e, sizeof(b));
		t = (r - 0.5) * 2;
	}
	sb_addf(out, "rgb(%.0f,%.0f,%.0f)", a[0] + (b[0] - a[0]) * t,
		a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t);
}

/* JSON string body with <, >, & escaped so the page stays well-formed. */
static void add_json_str(struct strbuf *out, const char *s, size_t len)
{
	sb_addc(out, '"');
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch == '"' || ch == '\\')
			sb_addf(out, "\\%c", ch);
		else if (ch < 0x20 || ch == '<' || ch == '>' || ch == '&' || ch == 0x7f)
			sb_addf(out, "\\u%04x", ch);
		else
			sb_addc(out, (char)ch);
	}
	sb_addc(out, '"');
}

#define CW 12   /* cell width px */
#define MX 50   /* left margin */
#define MY 20   /* top margin */

static double cell_h(const struct subsec_map *m)
{
	return m->rows <= 50 ? 400.0 / (double)m->rows : 4;
}

static void html_map(const struct subsec_map *m, const struct cell *c,
		     uint64_t max, struct strbuf *out)
{
	uint64_t ncols = m->have ? m->max_sec - m->min_sec + 1 : 0;
	double ch = cell_h(m), h = (double)m->rows * ch;
	sb_addf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"map\" width=\"%llu\" "
		"height=\"%.15g\">\n", (unsigned long long)(MX + ncols * CW + 20), h + MY + 30);
	sb_addf(out, "<rect x=\"%d\" y=\"%d\" width=\"%llu\" height=\"%.15g\" "
		"fill=\"rgb(250,250,250)\"/>\n", MX, MY,
		(unsigned long long)(ncols * CW), h);
	for (long r = 0; r < m->rows; r += (m->rows + 9) / 10) {
		sb_addf(out, "<text x=\"%d\" y=\"%.15g\" text-anchor=\"end\" "
			"font-size=\"10\">", MX - 4, MY + h - (double)r * ch);
		add_offset_ms(m, r, out);
		sb_adds(out, " ms</text>\n");
	}
	/* a label every 10 columns, at most ~100 labels (far-apart times) */
	uint64_t every = 10;
	while (ncols / every > 100)
		every *= 10;
	for (uint64_t s = 0; s < ncols; s += every)
		sb_addf(out, "<text x=\"%llu\" y=\"%.15g\" font-size=\"10\">%llus</text>\n",
			(unsigned long long)(MX + s * CW), MY + h + 14,
			(unsigned long long)s);
	for (size_t i = 0; i < m->cells.count; i++) {
		uint64_t col = c[i].sec - m->min_sec;
		sb_addf(out, "<rect class=\"cell\" data-c=\"%llu\" data-r=\"%ld\" "
			"data-n=\"%llu\" x=\"%llu\" y=\"%.15g\" width=\"%d\" height=\"%.15g\" fill=\"",
			(unsigned long long)col, c[i].row, (unsigned long long)c[i].count,
			(unsigned long long)(MX + col * CW),
			MY + h - (double)(c[i].row + 1) * ch, CW, ch);
		add_colour(c[i].count, max, out);
		sb_addf(out, "\"><title>second: %llu, millisecond: ", (unsigned long long)col);
		add_offset_ms(m, c[i].row, out);
		sb_addf(out, ", count: %llu</title></rect>\n", (unsigned long long)c[i].count);
	}
	sb_adds(out, "</svg>\n");
}

static int cmp_cs(const void *a, const void *b)
{
	const struct cellstack_key *x = a, *y = b;
	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	return (x->stack > y->stack) - (x->stack < y->stack);
}

static void html_data(const struct subsec_map *m, struct strbuf *out)
{
	sb_addf(out, "<script type=\"application/json\" id=\"data\">{\"rows\":%ld,"
		"\"base\":%llu,\"stacks\":[", m->rows, (unsigned long long)m->min_sec);
	for (size_t i = 0; i < stack_table_count(&m->stacks); i++) {
		size_t len;
		const char *s = stack_table_key(&m->stacks, i, &len);
		if (i)
			sb_addc(out, ',');
		add_json_str(out, s, len);
	}
	sb_adds(out, "],\"cells\":[");
	size_t n = m->cellstacks.count;
	struct cellstack_key *k = xcalloc(n + 1, sizeof(*k));
	uint64_t *v = xcalloc(n + 1, sizeof(*v));
	for (size_t i = 0; i < n; i++)
		memcpy(&k[i], m->cellstacks.entries[i].key, sizeof(*k));
	qsort(k, n, sizeof(*k), cmp_cs);
	for (size_t i = 0; i < n; i++)
		v[i] = m->cellstacks.entries[hmap_find(&m->cellstacks, &k[i], sizeof(*k))].value;
	for (size_t i = 0; i < n; i++) {
		bool first = i == 0 || k[i].sec != k[i - 1].sec || k[i].row != k[i - 1].row;
		bool last = i + 1 == n || k[i].sec != k[i + 1].sec || k[i].row != k[i + 1].row;
		if (first)
			sb_addf(out, "%s[%llu,%u,[", i ? "," : "",
				(unsigned long long)(k[i].sec - m->min_sec), k[i].row);
		sb_addf(out, "%s%u,%llu", first ? "" : ",", k[i].stack, (unsigned long long)v[i]);
		if (last)
			sb_adds(out, "]]");
	}
	sb_adds(out, "]}</script>\n");
	free(k);
	free(v);
}

static const char page_style[] =
	"<style type=\"text/css\">\n"
	"body { font-family: Verdana, sans-serif; font-size: 12px; margin: 10px; }\n"
	"rect.cell { cursor: pointer; }\n"
	"rect.cell:hover, rect.sel { stroke: black; stroke-width: 1; }\n"
	"#flame rect { stroke: white; stroke-width: 0.5; }\n"
	"#folded { font-size: 11px; max-height: 20em; overflow: auto; background: #f4f4f4; }\n"
	"</style>\n";

/* The page script: selection, range folding, flame graph drawing. */
static const char page_script[] =
	"<script type=\"text/javascript\">//<![CDATA[\n"
	"var D = JSON.parse(document.getElementById('data').textContent);\n"
	"var NS = 'http://www.w3.org/2000/svg', sel = [];\n"
	"// a cell's place in time: seconds since base * rows + row\n"
	"function idx(c, r) { return c * D.rows + r; }\n"
	"function secs(i, before) {\n"
	"  // absolute seconds of slice boundary i (or the ns before it), as text\n"
	"  var s = D.base + Math.floor(i / D.rows);\n"
	"  var ns = Math.ceil((i % D.rows) * 1e9 / D.rows);\n"
	"  if (before) { if (ns === 0) { s -= 1; ns = 1e9; } ns -= 1; }\n"
	"  return s + '.' + String(1e9 + ns).slice(1);\n"
	"}\n"
	"function status(t) { document.getElementById('status').textContent = t; }\n"
	"function folded(a, b) {\n"
	"  var sum = {};\n"
	"  D.cells.forEach(function (cell) {\n"
	"    var i = idx(cell[0], cell[1]);\n"
	"    if (i < a || i > b) return;\n"
	"    for (var k = 0; k < cell[2].length; k += 2) {\n"
	"      var s = D.stacks[cell[2][k]];\n"
	"      sum[s] = (sum[s] || 0) + cell[2][k + 1];\n"
	"    }\n"
	"  });\n"
	"  var keys = Object.keys(sum).sort(function (x, y) { return x < y ? -1 : x > y ? 1 : 0; });\n"
	"  return keys.map(function (k) { return [k, sum[k]]; });\n"
	"}\n"
	"function tree(lines) {\n"
	"  var root = { n: 'all', v: 0, k: {} };\n"
	"  lines.forEach(function (l) {\n"
	"    var node = root; root.v += l[1];\n"
	"    if (l[0] === '') return;\n"
	"    l[0].split(';').forEach(function (f) {\n"
	"      if (!node.k[f]) node.k[f] = { n: f, v: 0, k: {} };\n"
	"      node = node.k[f]; node.v += l[1];\n"
	"    });\n"
	"  });\n"
	"  return root;\n"
	"}\n"
	"function depth(n) {\n"
	"  var d = 0;\n"
	"  for (var k in n.k) d = Math.max(d, depth(n.k[k]));\n"
	"  return d + 1;\n"
	"}\n"
	"function hue(name) {\n"
	"  var h = 0;\n"
	"  for (var i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) % 997;\n"
	"  return 'rgb(' + (205 + h % 50) + ',' + (80 + h % 150) + ',' + (h % 55) + ')';\n"
	"}\n"
	"function draw(svg, n, x, y, w, total, H) {\n"
	"  if (w < 0.1) return;\n"
	"  var g = document.createElementNS(NS, 'g');\n"
	"  var r = document.createElementNS(NS, 'rect');\n"
	"  r.setAttribute('x', x); r.setAttribute('y', y); r.setAttribute('width', w);\n"
	"  r.setAttribute('height', H - 1); r.setAttribute('fill', n.n === 'all' ? 'rgb(220,220,220)' : hue(n.n));\n"
	"  var t = document.createElementNS(NS, 'title');\n"
	"  t.textContent = n.n + ' (' + n.v + ' samples, ' + (100 * n.v / total).toFixed(2) + '%)';\n"
	"  g.appendChild(t); g.appendChild(r);\n"
	"  if (w > 30) {\n"
	"    var tx = document.createElementNS(NS, 'text');\n"
	"    tx.setAttribute('x', x + 3); tx.setAttribute('y', y + H - 4);\n"
	"    tx.setAttribute('font-size', '11');\n"
	"    var c = Math.floor((w - 6) / 7);\n"
	"    tx.textContent = n.n.length <= c ? n.n : n.n.slice(0, Math.max(c - 2, 0)) + '..';\n"
	"    g.appendChild(tx);\n"
	"  }\n"
	"  svg.appendChild(g);\n"
	"  var cx = x;\n"
	"  Object.keys(n.k).sort().forEach(function (k) {\n"
	"    var c = n.k[k], cw = w * c.v / n.v;\n"
	"    draw(svg, c, cx, y - H, cw, total, H);\n"
	"    cx += cw;\n"
	"  });\n"
	"}\n"
	"function flame(lines) {\n"
	"  var svg = document.getElementById('flame');\n"
	"  while (svg.firstChild) svg.removeChild(svg.firstChild);\n"
	"  var root = tree(lines), H = 16, W = 1200, d = depth(root);\n"
	"  svg.setAttribute('width', W); svg.setAttribute('height', d * H + 10);\n"
	"  if (root.v > 0) draw(svg, root, 10, (d - 1) * H + 5, W - 20, root.v, H);\n"
	"}\n"
	"function select(a, b) {\n"
	"  var lines = folded(a, b), n = 0;\n"
	"  lines.forEach(function (l) { n += l[1]; });\n"
	"  // inclusive at both ends, as scorch fold --time and perf --time\n"
	"  var range = secs(a) + ',' + secs(b + 1, true);\n"
	"  document.getElementById('range').textContent = range;\n"
	"  document.getElementById('folded').textContent =\n"
	"    lines.map(function (l) { return l[0] + ' ' + l[1]; }).join('\\n') + (lines.length ? '\\n' : '');\n"
	"  status('range ' + range + ' s: ' + n + ' samples (scorch fold --time ' + range + ')');\n"
	"  flame(lines);\n"
	"}\n"
	"function click(cell) {\n"
	"  var c = +cell.getAttribute('data-c'), r = +cell.getAttribute('data-r');\n"
	"  if (sel.length === 2) {\n"
	"    sel.forEach(function (s) { s.el.setAttribute('class', 'cell'); });\n"
	"    sel = [];\n"
	"  }\n"
	"  cell.setAttribute('class', 'cell sel');\n"
	"  sel.push({ el: cell, i: idx(c, r) });\n"
	"  if (sel.length === 1) { status('start ' + secs(sel[0].i) + ' s: click the end cell'); return; }\n"
	"  select(Math.min(sel[0].i, sel[1].i), Math.max(sel[0].i, sel[1].i));\n"
	"}\n"
	"function cellAt(c, r) {\n"
	"  return document.querySelector('rect.cell[data-c=\"' + c + '\"][data-r=\"' + r + '\"]');\n"
	"}\n"
	"Array.prototype.forEach.call(document.querySelectorAll('rect.cell'), function (el) {\n"
	"  el.addEventListener('click', function () { click(el); });\n"
	"});\n"
	"// #select=C1,R1,C2,R2 clicks two cells on load (links and tests)\n"
	"var m = /select=(\\d+),(\\d+),(\\d+),(\\d+)/.exec(location.hash);\n"
	"if (m) {\n"
	"  var e1 = cellAt(m[1], m[2]), e2 = cellAt(m[3], m[4]);\n"
	"  if (e1 && e2) { e1.dispatchEvent(new MouseEvent('click')); e2.dispatchEvent(new MouseEvent('click')); }\n"
	"  else status('select: no such cells');\n"
	"}\n"
	"//]]></script>\n";

void render_subsecond_html(const struct subsec_map *m, const char *title,
			   struct strbuf *out)
{
	uint64_t max;
	struct cell *c = sorted_cells(m, &max);
	sb_adds(out, "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\">\n"
		"<head>\n<meta charset=\"utf-8\"/>\n<title>");
	sb_add_xml(out, title, strlen(title));
	sb_adds(out, "</title>\n");
	sb_adds(out, page_style);
	sb_adds(out, "</head>\n<body>\n<h2>");
	sb_add_xml(out, title, strlen(title));
	sb_addf(out, "</h2>\n<p>%llu samples; columns are seconds from %llu s, rows are "
		"offsets within the second (%ld per second). Click a start cell, then an "
		"end cell, to see the flame graph of that time range.</p>\n",
		(unsigned long long)m->samples, (unsigned long long)m->min_sec, m->rows);
	html_map(m, c, max, out);
	sb_adds(out, "<p id=\"status\">no range selected</p>\n"
		"<p>range (seconds, for scorch fold --time): <span id=\"range\"></span></p>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"flame\" width=\"1200\" height=\"10\"></svg>\n"
		"<h3>Folded stacks of the range</h3>\n<pre id=\"folded\"></pre>\n");
	html_data(m, out);
	sb_adds(out, page_script);
	sb_adds(out, "</body>\n</html>\n");
	free(c);
}

void render_subsecond(const struct subsec_map *m, bool cells, const char *title,
		      struct strbuf *out)
{
	if (!title || !strcmp(title, "Latency Heat Map"))
		title = "Sub-second Offset Heat Map";
	if (cells)
		render_subsecond_cells(m, out);
	else
		render_subsecond_html(m, title, out);
}
