/*
 * viewpage: the explorer page for view and record (see viewpage.h).
 * Stage: command helpers.
 */
#include "cmd/viewpage.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/fdio.h"
#include "cmd/input.h"
#include "profile/frame.h"

/* A sample of a perf.data input: its row (time, thread, stack). */
static void on_row(void *ctx, size_t stack, const struct proc_sample *ps,
		   uint64_t weight)
{
	struct view_data *v = ctx;
	const char *comm = ps->thread && ps->thread->comm ? ps->thread->comm : "";
	uint32_t th = view_data_thread(v, (int32_t)ps->s->pid, (int32_t)ps->s->tid,
				       comm, strlen(comm));
	view_data_add_row(v, ps->s->time, th, stack, weight);
}

/* A folded name of a perf.data input: its module, flags and source. */
static void on_name(void *ctx, const char *name, size_t len,
		    const struct prof_name_info *in)
{
	unsigned vf = (in->flags & PROF_F_KERNEL ? VIEW_F_KERNEL : 0) |
		      (in->flags & PROF_F_INLINE ? VIEW_F_INLINE : 0) |
		      (in->flags & PROF_F_JIT ? VIEW_F_JIT : 0);
	view_data_name_info(ctx, name, len, in->dso, in->dso_len, vf);
	if (in->file)
		view_data_name_source(ctx, name, len, in->file, in->file_len, in->line);
}

void viewpage_collect(struct fold_perfdata_opts *fo, struct view_data *v, bool rows)
{
	fo->on_row = rows ? on_row : NULL;
	fo->on_name = on_name;
	fo->row_ctx = v;
}

int viewpage_write(struct view_data *v, const struct stack_table *const *cols,
		   const struct view_page *pg, const char *path)
{
	view_data_add_tables(v, cols);
	struct strbuf out = SB_INIT;
	view_html_write(v, pg, &out);
	int rc = cmd_write_output(path, out.buf, out.len);
	sb_release(&out);
	return rc;
}
