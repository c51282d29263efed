/*
 * heatmap_input: what a latency heat map is fed from: "time latency"
 * text (trace2heatmap.pl's input) and event pairs from perf.data, and
 * the map built and written at the end (see heatmap.h). Stage: render.
 */
#include "render/heatmap.h"

#include "base/lines.h"

#include <errno.h>
#include <string.h>

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
		if (p < 0 && ts->bad++ == 0) {
			ts->first_bad_line = lr->lineno;
			ts->first_bad_name = lr->name;
		}
		if (p > 0 && (rc = heatmap_add(hm, t, lat)) < 0)
			break;
	}
	return rc < 0 ? rc : 0;
}

bool heatmap_text_note(const struct heatmap_text *ts, struct strbuf *sb)
{
	if (ts->bad)
		sb_addf(sb, "%s: line %llu: %llu line(s) without two numbers skipped",
			ts->first_bad_name, (unsigned long long)ts->first_bad_line,
			(unsigned long long)ts->bad);
	return ts->bad != 0;
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

int heatmap_read_text_input(struct heatmap *hm, struct lines *lr, struct heatmap_text *ts,
			    struct diag *d)
{
	if (lines_refuse_binary(lr, "\"time latency\" text or perf.data", d))
		return -EINVAL;
	int rc = heatmap_read_text(hm, lr, ts);
	if (rc < 0)
		diag_set(d, "line %llu: %s", (unsigned long long)lr->lineno + 1,
			 rc == -E2BIG ? "line longer than 256 MiB" : strerror(-rc));
	return rc;
}

/* ---- latency from perf.data event pairs ---- */

void heatmap_events_init(struct heatmap_events *e, struct heatmap_opts *o,
			 const struct heatmap_events_opts *eo, FILE *f)
{
	e->pc = (struct heatmap_pairs){ NULL, SB_INIT, f, eo->ns, 0, 0 };
	if (o->timefactor == 1)
		o->timefactor = eo->ns ? 1e9 : 1e6;
	if (!*o->unitslabel)
		o->unitslabel = eo->ns ? "ns" : "us";
	heatmap_init(&e->hm, o);
	if (!eo->pairs)
		e->pc.hm = &e->hm;
	struct an_latency_opts lo = {
		.start = eo->start ? eo->start : "block:block_rq_issue",
		.end = eo->end ? eo->end : "block:block_rq_complete",
		.key = eo->key ? eo->key : "dev,sector",
		.on_pair = heatmap_pairs_add, .ctx = &e->pc,
	};
	an_latency_init(&e->lat, &lo);
}

void heatmap_events_release(struct heatmap_events *e)
{
	sb_release(&e->pc.out);
	heatmap_release(&e->hm);
	an_latency_release(&e->lat);
}
