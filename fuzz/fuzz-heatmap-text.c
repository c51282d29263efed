/*
 * fuzz-heatmap-text: libFuzzer entry for the latency heat map's text input
 * and its bucketing and output (render/heatmap), and the sub-second map's
 * perf script time and idle parsing (analysis/subsecond, render/subsecond).
 * Stage: fuzz. The first byte picks options (quirks, rows, step), every
 * line is parsed as "time latency" and as a perf script event line.
 * Invariant under test: no crash, leak or undefined behaviour, and a map
 * that builds always renders.
 */
#include "analysis/subsecond.h"
#include "render/heatmap.h"
#include "render/subsecond.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	struct heatmap_opts o;
	heatmap_opts_init(&o);
	o.quirks = data[0] & 1;
	o.rows = 1 + (data[0] >> 1 & 63);
	o.stepsec = (data[0] & 0x80) ? 0.5 : 1;
	o.grid = data[0] & 2;
	struct heatmap hm;
	heatmap_init(&hm, &o);
	struct subsec_map m;
	subsec_map_init(&m, o.rows, true);
	const char *s = (const char *)data + 1, *end = (const char *)data + size;
	bool first = true, swapper = false;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t len = nl ? (size_t)(nl - s) : (size_t)(end - s);
		double t, lat;
		if (!(first && heatmap_is_header(s, len)) && heatmap_parse_line(s, len, &t, &lat) > 0)
			heatmap_add(&hm, t, lat);
		first = false;
		uint64_t ns;
		if (an_script_time(s, len, &ns))
			subsec_map_sample(&m, ns, s, len, 1);
		(void)an_script_idle(s, len, &swapper);
		s += len + 1;
	}
	struct diag d = DIAG_INIT;
	struct strbuf out = SB_INIT;
	if (heatmap_build(&hm, &d) == 0) {
		heatmap_write_cells(&hm, &out);
		heatmap_write_svg(&hm, &out);
	}
	render_subsecond_cells(&m, &out);
	render_subsecond_html(&m, "t<&>", &out);
	sb_release(&out);
	subsec_map_release(&m);
	heatmap_release(&hm);
	return 0;
}
