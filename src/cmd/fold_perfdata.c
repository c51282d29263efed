/*
 * fold_perfdata: placeholder for the perf.data input of `scorch fold`
 * (see fold_perfdata.h). Stage: command. The symbols work replaces this
 * body; until then it says so and fails.
 */
#include "cmd/fold_perfdata.h"
#include "base/diag.h"

int fold_perfdata(const char *path, const struct fold_perfdata_opts *o,
		  struct stack_table *out)
{
	(void)o;
	(void)out;
	diag_error("%s: reading perf.data is not available in this build yet; "
		   "use 'perf script -i %s | scorch fold'", path, path);
	return 1;
}
