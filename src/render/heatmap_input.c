/*
 * heatmap_input: what a latency heat map is fed from: "time latency"
 * text (trace2heatmap.pl's input) and event pairs from perf.data, and
 * the map built and written at the end (see heatmap.h). Stage: render.
 */
#include "render/heatmap.h"

#include "base/lines.h"

int heatmap_read_text(struct heatmap *hm, struct lines *lr, struct heatmap_text *ts)
{
	const char *line;
	size_t len;
	int rc;
	while ((rc = lines_next(lr, &line, &len)) > 0) {
		if (!ts->first_line_seen) {
			ts->first_line_seen = true;
			if (heatmap_is_header(line, len))
				continue;
		}
		double t, lat;
		int p = heatmap_parse_line(line, len, &t, &lat);
		if (p < 0 && ts->bad++ == 0)
			ts->first_bad_line = lr->lineno;
		if (p > 0 && (rc = heatmap_add(hm, t, lat)) < 0)
			break;
	}
	return rc < 0 ? rc : 0;
}

/* time_us = floor(end/1000), latency_us = floor(end/1000) - floor(start/1000):
 * what perf script's truncated microseconds give (../shared/heatmap §3.3). */
int heatmap_pairs_add(void *ctx, uint64_t start, uint64_t end)
{
	struct heatmap_pairs *pc = ctx;
	uint64_t t = pc->ns ? end : end / 1000;
	uint64_t lat = pc->ns ? end - start : end / 1000 - start / 1000;
	if (end < start)
		lat = 0;
	if (pc->hm) {
		int rc = heatmap_add(pc->hm, (double)t, (double)lat);
		if (rc < 0)
			pc->err = rc;
		return rc;
	}
	sb_addf(&pc->out, "%llu %llu\n", (unsigned long long)t, (unsigned long long)lat);
	if (pc->out.len > 65536 && (pc->write_err = sb_flush(&pc->out, pc->f)) < 0)
		return pc->err = pc->write_err;
	return 0;
}

int heatmap_render(struct heatmap *hm, bool cells, struct strbuf *out, struct diag *d)
{
	int rc = heatmap_build(hm, d);
	if (rc < 0)
		return rc;
	if (cells)
		heatmap_write_cells(hm, out);
	else
		heatmap_write_svg(hm, out);
	return 0;
}
