/*
 * recordout: record's --folded, --svg and --html outputs (see
 * recordout.h). Stage: command helpers.
 */
#include "cmd/recordout.h"

#include "base/diag.h"
#include "base/strbuf.h"
#include "cmd/perfinput.h"
#include "cmd/viewpage.h"
#include "render/flame.h"
#include "stacks/table.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int write_folded(const struct stack_table *t, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f || stack_table_write(t, f) < 0 || fclose(f) != 0) {
		diag_error("%s: %s", path, strerror(errno));
		return 1;
	}
	return 0;
}

/* Title and count label of the --svg graph: as given, else by the
 * event and the command (fold_perfdata_labels). */
static void svg_labels(const struct record_outputs *a,
		       const struct fold_perfdata_info *info,
		       struct render_flame_opts *o, struct strbuf *title)
{
	struct strbuf cmdline = SB_INIT;
	for (char **p = a->command; p && *p; p++) {
		if (p != a->command)
			sb_addc(&cmdline, ' ');
		sb_adds(&cmdline, *p);
	}
	fold_perfdata_labels(info, a->command ? cmdline.buf : NULL, &o->countname,
			     &o->factor, title);
	sb_release(&cmdline);
	o->title = a->title ? a->title : title->buf;
	if (a->countname) {
		o->countname = a->countname;
		o->factor = 1;
	}
}

static int write_svg(const struct record_outputs *a, const struct stack_table *t,
		     const struct fold_perfdata_info *info)
{
	const char *path = a->svg;
	struct render_flame_opts o;
	struct strbuf title = SB_INIT;
	struct diag d = DIAG_INIT;
	render_flame_opts_init(&o);
	svg_labels(a, info, &o, &title);
	FILE *f = fopen(path, "w");
	int r = f ? render_flame_write_table(t, &o, f, &d) : -errno;
	if (f && fclose(f) != 0 && r == 0)
		r = -errno;
	sb_release(&title);
	if (r < 0) {
		diag_error("%s: %s", path, d.set ? d.msg : strerror(-r));
		return 1;
	}
	return 0;
}

/* The explorer page (scorch view) of the recording. */
static int write_html(const struct record_outputs *a, struct view_data *v,
		      const struct stack_table *t, const struct fold_perfdata_info *info)
{
	struct render_flame_opts o;
	struct strbuf title = SB_INIT;
	render_flame_opts_init(&o);
	svg_labels(a, info, &o, &title);
	struct view_page pg = { o.title, o.countname, o.factor };
	const struct stack_table *cols[1] = { t };
	int rc = viewpage_write(v, cols, &pg, a->html);
	sb_release(&title);
	return rc;
}

int record_outputs_write(const struct record_outputs *a)
{
	struct fold_perfdata_opts fo = FOLD_PERFDATA_OPTS_INIT;
	struct fold_perfdata_info info = FOLD_PERFDATA_INFO_INIT;
	struct stack_table t;
	struct view_data v;
	int rc = 0;
	fo.info = &info;
	view_data_init(&v, 1);
	if (a->html) /* sample rows and modules for the page */
		viewpage_collect(&fo, &v, true);
	stack_table_init(&t);
	if (fold_perfdata(a->input, &fo, &t) != 0) {
		diag_error("%s was written, but could not be folded", a->input);
		rc = 1;
	}
	if (rc == 0 && a->folded)
		rc = write_folded(&t, a->folded);
	if (rc == 0 && a->svg)
		rc = write_svg(a, &t, &info);
	if (rc == 0 && a->html)
		rc = write_html(a, &v, &t, &info);
	view_data_release(&v);
	stack_table_release(&t);
	fold_perfdata_info_release(&info);
	return rc;
}

