/*
 * view_html: the single-file HTML explorer of `scorch view`: the page,
 * its script and style (view.js, view.css, embedded as C strings by
 * view2c.sh) and the profile encoded by view_data, all inline: the file
 * opens from disk with no network. Stage: render.
 *
 *   struct view_page pg = { .title = "cpu-clock: ./app", .unit = "samples" };
 *   view_html_write(&v, &pg, &out);    // appends the whole page to out
 *
 * Text from the caller (title, unit) is HTML-escaped; frame names travel
 * in the base64 data only and the script draws them as text, so no name
 * can become markup. Ownership: out is the caller's. Cannot fail but for
 * allocation (fatal).
 */
#ifndef SCORCH_RENDER_VIEW_HTML_H
#define SCORCH_RENDER_VIEW_HTML_H

#include "base/strbuf.h"
#include "render/view_data.h"

extern const char render_view_js[];
extern const char render_view_css[];

struct view_page {
	const char *title;   /* shown in the header and <title> */
	const char *unit;    /* what the counts are: "samples", "µs", ... */
	double factor;       /* counts are shown times this (0: 1) */
};

void view_html_write(const struct view_data *v, const struct view_page *pg,
		     struct strbuf *out);

#endif
