/*
 * viewpage: the HTML explorer page of stacks folded from any input, for
 * `scorch view` and `scorch record --html`. Stage: command helpers.
 *
 *   struct view_data v;
 *   view_data_init(&v, 1);
 *   viewpage_collect(&fold_opts, &v, true);   // rows and modules of perf.data
 *   fold_perfdata(path, &fold_opts, &table);
 *   viewpage_write(&v, cols, &page, "out.html");
 *
 * Ownership: v is the caller's; fold_opts point at it until the folding
 * is done. Failure: viewpage_write prints its own message, returns 1.
 */
#ifndef SCORCH_CMD_VIEWPAGE_H
#define SCORCH_CMD_VIEWPAGE_H

#include <stdbool.h>

#include "cmd/fold_perfdata.h"
#include "render/view_html.h"

/* Make the folding of perf.data through fo tell v each folded name's
 * module, flags and source (where its function is defined), and (rows) each sample's time, thread and stack. */
void viewpage_collect(struct fold_perfdata_opts *fo, struct view_data *v, bool rows);
/* Add the stacks of cols (v->ncols tables) to v and write the page to
 * path (NULL or "-": standard output) through a temporary file beside
 * it: a failed run leaves no file. Returns 0, or 1 after a message. */
int viewpage_write(struct view_data *v, const struct stack_table *const *cols,
		   const struct view_page *pg, const char *path);

#endif
