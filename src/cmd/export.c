/*
 * export: `scorch export --format pprof [-o FILE] [options] [INPUT...]`:
 * the samples `scorch fold` reads from perf.data, perf script text,
 * folded or pprof files, written for other viewers (reading:
 * cmd/export_input.c; encoding: render/pprof.h). Stage:
 * command. The symbol options and sample filters are the perf.data
 * commands' (cmd/symopts.h), the naming options fold's.
 * Key invariant: the output file is written whole, or not at all (built
 * in memory, written to a temporary file renamed over FILE).
 */
#include "cmd/cmd.h"
SCORCH_COMMAND(export, "write stacks for other viewers and stores (pprof, speedscope, ClickHouse TSV)")

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/fdio.h"
#include "base/lines.h"
#include "base/opt.h"
#include "base/strbuf.h"
#include "cmd/export_input.h"
#include "cmd/input.h"
#include "cmd/namingopts.h"
#include "cmd/export_speedscope.h"
#include "cmd/exporttsv.h"
#include "cmd/symopts.h"

enum {
	O_FORMAT = 1, O_OUTPUT, O_CPU_LABEL, O_HOST, O_BUCKET,
	O_PER, O_TIMELINE,
};

static const struct opt_spec opts[] = {
	{ "format", 'f', OPT_REQ, "FMT", "output format: pprof (gzip'd profile.proto), speedscope (JSON), tsv (fleet rows for ClickHouse)", O_FORMAT },
	{ "output", 'o', OPT_REQ, "FILE", "write FILE (default, or -: standard output)", O_OUTPUT },
	NAMING_SPECS,
	{ "cpu-label", 0, OPT_NONE, NULL, "perf.data: a cpu label on each sample", O_CPU_LABEL },
	SYMOPTS_SPECS,
	{ "host", 0, OPT_REQ, "NAME", "tsv: the host column (default: the recording's hostname)", O_HOST },
	{ "bucket", 0, OPT_REQ, "SECONDS", "tsv: time bucket width (default 10)", O_BUCKET },
	{ "per", 0, OPT_REQ, "WHAT", "speedscope: a profile per thread (default), process or none", O_PER },
	{ "timeline", 0, OPT_NONE, NULL, "speedscope: evented profiles in sample time order (perf.data)", O_TIMELINE },
	OPT_END_SPEC
};

static const struct opt_cmd export_cmd = {
	"export", "scorch export --format pprof|speedscope|tsv [-o FILE] [options] [INPUT...]",
	"Write the samples of perf.data, perf script text, folded or pprof INPUTs\n"
	"(default: standard input) as a pprof profile (from perf.data with\n"
	"addresses, mappings, build ids, inline lines and comm/pid/tid labels),\n"
	"a speedscope file or fleet rows for ClickHouse.",
	opts, true,
};

/* The symbol options and filters, as the perf.data commands take them. */
int cmd_export(int argc, char **argv)
{
	const char *format = NULL, *output = NULL, *arg;
	enum speedscope_per per = SPEEDSCOPE_PER_THREAD;
	bool timeline = false;
	struct opt_state st = OPT_STATE_INIT;
	struct symopts so;
	memset(&so, 0, sizeof(so));
	struct export_opts e = EXPORT_OPTS_INIT;
	int id;
	struct export_tsv_opts tsv = { NULL, NULL };
	while ((id = opt_next(&st, argc, argv, &export_cmd, &arg)) > 0) {
		if (id == O_FORMAT)
			format = arg;
		else if (id == O_OUTPUT)
			output = arg;
		else if (id == O_HOST)
			tsv.host = arg;
		else if (id == O_BUCKET)
			tsv.bucket = arg;
		else if (id == O_TIMELINE)
			timeline = true;
		else if (id == O_CPU_LABEL)
			e.cpu_label = true;
		else if (id == O_PER) {
			if (export_speedscope_per(arg, &per))
				return opt_usage_error(&export_cmd, "--per: '%s' is not "
						       "thread, process or none", arg);
		} else if (!symopts_option(&so, id, arg))
			namingopts_option(&e.fold, id, arg);
	}
	if (id == OPT_HELP)
		return 0;
	if (id < 0)
		return 2;
	if (!format)
		return opt_usage_error(&export_cmd, "--format is required (pprof, speedscope, tsv)");
	if (strcmp(format, "pprof") && strcmp(format, "speedscope") && strcmp(format, "tsv"))
		return opt_usage_error(&export_cmd, "unknown format '%s' (known: pprof, "
				       "speedscope, tsv)", format);
	symopts_to_fold(&so, &e.fold);
	collapse_opts_finish(&e.fold.collapse);
	if (!strcmp(format, "tsv"))
		return export_tsv(&e.fold, &tsv, argv + st.ind, argc - st.ind, output);
	if (!strcmp(format, "speedscope"))
		return export_speedscope(argv + st.ind, argc - st.ind, &e.fold, output, per,
					 timeline);

	struct export_run r;
	export_run_init(&r, &e);
	int rc = 0;
	if (st.ind >= argc)
		rc = export_read(&r, "-");
	for (int i = st.ind; i < argc && !rc; i++)
		rc = export_read(&r, argv[i]);
	struct strbuf out = SB_INIT;
	if (!rc)
		rc = export_pprof(&r, output ? output : "<stdout>", &out);
	if (!rc)
		rc = cmd_write_output(output, out.buf, out.len);
	sb_release(&out);
	export_run_release(&r);
	return rc;
}
