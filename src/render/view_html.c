/*
 * view_html: the explorer page (see view_html.h). Stage: render.
 * The page is fixed markup around three inline parts: the style, the
 * profile gzip'd (the browser's DecompressionStream inflates it) as
 * base64 in a non-executed <script> element (base64 has no '<', so
 * nothing in it can end the element), and the script.
 */
#include "render/view_html.h"

#include <stdbool.h>
#include <string.h>

#include <stdint.h>
#include <stdlib.h>


#include "base/gzip.h"
#include "base/xalloc.h"

static const char page_head[] =
	"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	"script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">\n"
	"<meta name=\"generator\" content=\"scorch view\">\n<title>";

static const char page_body[] =
	"<header>\n<h1 id=\"title\">%s</h1>\n"
	"<span id=\"tabs\"><button data-view=\"flame\">Flame</button> "
	"<button data-view=\"icicle\">Icicle</button> "
	"<button data-view=\"table\">Top functions</button> "
	"<button data-view=\"sandwich\">Sandwich</button> "
	"<button data-view=\"time\" hidden>Time</button></span>\n"
	"<button id=\"reset\" title=\"Esc\">Reset zoom</button>\n"
	"<input id=\"search\" type=\"search\" placeholder=\"Search (regex, /)\" spellcheck=\"false\">\n"
	"<label><input id=\"icase\" type=\"checkbox\"> ignore case</label>\n"
	"<button id=\"prev\" title=\"Shift+Enter, N\">&#x2039;</button>"
	"<button id=\"next\" title=\"Enter, n\">&#x203a;</button>\n"
	"<span id=\"matched\"></span>\n"
	"<button id=\"swap\" hidden>Swap before/after</button>"
	"<button id=\"diffmode\" hidden title=\"colour by the change in share of the total, or in counts\">"
	"Colours: normalised</button>\n"
	"<span id=\"tx-bar\"><button id=\"tx-focus\" title=\"only the stacks through the selected function, from it\">Focus</button>"
	"<button id=\"tx-merge\" title=\"drop the selected function from stacks (its time goes to its callers)\">Merge</button>"
	"<button id=\"tx-hide\" title=\"drop the stacks through the selected function\">Hide</button>"
	"<button id=\"tx-rec\">Collapse recursion</button>"
	"<button id=\"tx-unk\">Collapse [unknown]</button>"
	"<span id=\"tx\"></span><button id=\"tx-reset\" hidden>Undo transforms</button></span>\n"
	"<span class=\"keys\">/ search &#xb7; Esc reset &#xb7; arrows move &#xb7; 1-5 views</span>\n"
	"</header>\n<nav id=\"crumbs\"></nav><div id=\"range\"></div>\n<main>\n"
	"<section class=\"panel\" id=\"p-flame\"><div class=\"viewport\" id=\"v-flame\"></div></section>\n"
	"<section class=\"panel\" id=\"p-icicle\" hidden><div class=\"viewport\" id=\"v-icicle\"></div></section>\n"
	"<section class=\"panel\" id=\"p-table\" hidden><table id=\"fn-table\"><thead><tr>"
	"<th data-key=\"self\">Self</th><th data-key=\"self\">Self %%</th>"
	"<th data-key=\"total\">Total</th><th data-key=\"total\">Total %%</th>"
	"<th data-key=\"name\">Function</th></tr></thead><tbody id=\"fn-rows\"></tbody></table></section>\n"
	"<section class=\"panel\" id=\"p-sandwich\" hidden>"
	"<div class=\"sw-title\">Callers of <span id=\"sw-name\"></span></div>"
	"<div class=\"viewport\" id=\"v-callers\"></div>"
	"<div class=\"sw-title\">Callees</div><div class=\"viewport\" id=\"v-callees\"></div></section>\n"
	"<section class=\"panel\" id=\"p-time\" hidden><div class=\"sw-title\">"
	"Samples per 20 ms: a column is a second, drag across cells to pick a time range "
	"<button id=\"clear-range\">All time</button></div>"
	"<div class=\"time-body\"><div class=\"time-main\"><div class=\"viewport\" id=\"v-time\"></div>"
	"<div class=\"sw-title\">Threads over time (drag for a range, click a name to pick it)</div>"
	"<div id=\"v-timeline\"></div></div>"
	"<div id=\"threads\"></div></div></section>\n"
	"</main>\n<div id=\"tip\"></div>\n";

/* page_body with its one %s (the title) filled, escaped. */
static void add_body(struct strbuf *out, const char *title)
{
	const char *at = strstr(page_body, "%s");
	sb_add(out, page_body, (size_t)(at - page_body));
	sb_add_xml(out, title, strlen(title));
	for (const char *p = at + 2; *p; p++)
		if (!(p[0] == '%' && p[1] == '%'))
			sb_addc(out, *p);
}

void view_html_write(const struct view_data *v, const struct view_page *pg,
		     struct strbuf *out)
{
	const char *title = pg->title ? pg->title : "scorch view";
	const char *unit = pg->unit ? pg->unit : "samples";
	sb_adds(out, page_head);
	sb_add_xml(out, title, strlen(title));
	sb_adds(out, "</title>\n<style>\n");
	sb_adds(out, render_view_css);
	sb_adds(out, "</style>\n</head>\n<body data-unit=\"");
	sb_add_xml(out, unit, strlen(unit));
	sb_addf(out, "\" data-factor=\"%.17g\">\n", pg->factor > 0 ? pg->factor : 1.0);
	add_body(out, title);
	struct strbuf bin = SB_INIT;
	view_data_encode(v, &bin);
	struct strbuf gz = SB_INIT;
	bool zipped = gzip_append(bin.buf, bin.len, &gz) == 0 && gz.len < bin.len;
	sb_adds(out, "<script type=\"application/octet-stream\" id=\"scv-data\"");
	sb_adds(out, zipped ? " data-enc=\"gzip\">\n" : ">\n");
	if (zipped)
		view_base64(gz.buf, gz.len, out);
	else
		view_base64(bin.buf, bin.len, out);
	sb_release(&bin);
	sb_release(&gz);
	sb_adds(out, "\n</script>\n<script>\n");
	sb_adds(out, render_view_js);
	sb_adds(out, "</script>\n</body>\n</html>\n");
}
