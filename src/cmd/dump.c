/*
 * cmd/dump: `scorch dump [--stats] perf.data`: one line per record
 * (offset, size, type, key fields) like `perf report -D`, for debugging;
 * --stats prints counts per record type and per event instead.
 * Stage: command: options, then the reader run with the handlers of
 * perfdata/dump.h, which format; this prints the reader's notes.
 */
#include "cmd/cmd.h"
SCORCH_COMMAND(dump, "print the records of a perf.data file, or counts per type and event")

#include "base/diag.h"
#include "base/opt.h"
#include "cmd/symopts.h"
#include "perfdata/dump.h"
#include "perfdata/reader.h"

#include <inttypes.h>
#include <stdio.h>

enum { O_STATS = 1 };

static const struct opt_spec opts[] = {
	{ "stats", 's', OPT_NONE, NULL, "print counts per record type and per event (samples, first and last time) instead of the records", O_STATS },
	OPT_END_SPEC
};

static const struct opt_cmd dump_cmd = {
	.name = "dump",
	.usage = "scorch dump [--stats] [FILE]",
	.summary = "Print the records of FILE (default perf.data; - reads stdin) one per line.",
	.opts = opts,
};

/* Print the reader's notes and damage; returns the exit status. */
static int report(struct pd_reader *r, const char *path, uint64_t samples)
{
	for (size_t i = 0; i < pd_reader_nr_warnings(r); i++)
		diag_warn("%s: %s", path, pd_reader_warning(r, i));
	struct pd_dropped dr;
	pd_reader_dropped(r, &dr);
	int none_left = symopts_report_dropped(&dr, path);
	if (pd_reader_damaged(r)) {
		const struct pd_reader_stats *st = pd_reader_stats(r);
		uint64_t total = 0;
		for (int t = 0; t < 128; t++)
			total += st->nr_records[t];
		if (!total) {
			diag_print(pd_reader_diag(r), path);
			return 1;
		}
		diag_print_kept(pd_reader_diag(r), path);
		diag_warn("%s: kept %" PRIu64 " records (%" PRIu64
			  " samples) read before the damage", path, total, samples);
	}
	return none_left;
}

static int dump_file(const char *path, bool stats)
{
	struct diag dg = DIAG_INIT;
	struct pd_reader *r = pd_reader_open(path, &dg);
	if (!r) {
		diag_print(&dg, path);
		return 1;
	}
	struct pd_dump d;
	struct pd_handlers h;
	pd_dump_init(&d, r, stats, stdout);
	pd_dump_handlers(&d, &h);
	int rc = pd_reader_run(r, &h);
	if (rc < 0)
		diag_print(pd_reader_diag(r), path);
	pd_dump_finish(&d);
	int status = rc < 0 ? 1 : report(r, path, pd_dump_samples(&d));
	if (d.write_err) {
		diag_write_error(NULL, d.write_err);
		status = 1;
	}
	pd_dump_release(&d);
	pd_reader_free(r);
	return status;
}

int cmd_dump(int argc, char **argv)
{
	struct opt_state st = OPT_STATE_INIT;
	const char *arg;
	bool stats = false;
	int id;

	while ((id = opt_next(&st, argc, argv, &dump_cmd, &arg)) > 0)
		if (id == O_STATS)
			stats = true;
	if (id == OPT_HELP)
		return 0;
	if (id < 0)
		return 2;
	if (argc - st.ind > 1)
		return opt_usage_error(&dump_cmd, "one FILE at most");
	return dump_file(st.ind < argc ? argv[st.ind] : "perf.data", stats);
}
