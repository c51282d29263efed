/*
 * cmd/heatmap_subsecond: the subsecond half of `scorch heatmap` (see
 * heatmap_subsecond.h): opening the one input, its messages, the page.
 */
#include "cmd/heatmap_subsecond.h"

#include "analysis/subsecond.h"
#include "base/diag.h"
#include "base/strbuf.h"
#include "cmd/input.h"
#include "cmd/symopts.h"
#include "render/subsecond.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* perf.data or perf script text, read from in. */
static int subsecond_input(const struct heatmap_subsecond_opts *o, struct cmd_input *in)
{
	const char *name = in->name;
	struct symopts so; /* none given: the default symbol sources */
	struct sym_config cfg;
	memset(&so, 0, sizeof(so));
	if (symopts_config(&so, &cfg))
		return 1;
	struct an_offsets off;
	struct an_offsets_opts oo = { .rows = o->rows, .keep_idle = o->all, .stacks = !o->cells };
	an_offsets_init(&off, &oo);
	struct diag d = DIAG_INIT;
	bool perfdata = cmd_input_is_perfdata(in);
	struct pd_reader *r = perfdata ? cmd_input_reader(in, &d) : NULL;
	int rc = !perfdata ? an_offsets_read_script(&off, &in->lr, &d)
		 : r ? an_offsets_read_perfdata(&off, r, &cfg, &d) : -EINVAL;
	symopts_release(&so);
	if (symopts_report_dropped(&off.dropped, name))
		rc = 1; /* every sample dropped */
	else if (rc < 0)
		diag_print(&d, name);
	else if (d.set && perfdata)
		diag_print_kept(&d, name);
	else if (d.set)
		diag_warn("%s: %s", name, d.msg);
	if (rc == 0) {
		struct strbuf out = SB_INIT;
		render_subsecond(&off.map, o->cells, o->title, &out);
		rc = cmd_flush_stdout(&out);
		sb_release(&out);
	}
	an_offsets_release(&off);
	return rc != 0;
}

int heatmap_subsecond(const struct heatmap_subsecond_opts *o, const char *path)
{
	if (!path)
		path = access("perf.data", R_OK) == 0 ? "perf.data" : "-";
	struct cmd_input in;
	if (cmd_input_open(&in, path))
		return 1;
	int rc = subsecond_input(o, &in);
	cmd_input_close(&in);
	return rc;
}
