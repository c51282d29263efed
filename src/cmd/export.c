/*
 * export: `scorch export --format pprof [-o FILE] [INPUT...]`: the
 * stacks `scorch fold` makes of perf.data, perf script text or folded
 * files, written for other viewers (render/pprof.h). Stage: command.
 * Key invariant: the output file is written whole, or not at all (it is
 * built in memory first).
 */
#include "cmd/cmd.h"
SCORCH_COMMAND(export, "write stacks for other viewers (pprof, speedscope)")

#include <errno.h>
#include <fcntl.h>
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
#include "cmd/exporttsv.h"
#include "cmd/export_speedscope.h"
#include "cmd/fold_perfdata.h"
#include "cmd/perfinput.h"
#include "render/pprof.h"
#include "stacks/folded.h"
#include "stacks/table.h"

enum { O_FORMAT = 1, O_OUTPUT, O_BUILDID_DIR, O_SYMFS, O_KALLSYMS, O_VDSO, O_JIT_DIR,
       O_HOST, O_BUCKET, O_VMLINUX, O_PER, O_TIMELINE };

static const struct opt_spec opts[] = {
	{ "format", 'f', OPT_REQ, "FMT", "output format: pprof (gzip'd profile.proto), speedscope (JSON), tsv (fleet rows for ClickHouse)", O_FORMAT },
	{ "output", 'o', OPT_REQ, "FILE", "write FILE (default, or -: standard output)", O_OUTPUT },
	{ "buildid-dir", 0, OPT_REQ, "DIR", "build-id cache to read (default ~/.debug)", O_BUILDID_DIR },
	{ "symfs", 0, OPT_REQ, "DIR", "look for object path P as DIR/P first", O_SYMFS },
	{ "kallsyms", 0, OPT_REQ, "FILE", "kernel symbols (default /proc/kallsyms)", O_KALLSYMS },
	{ "vmlinux", 'k', OPT_REQ, "FILE", "kernel symbols from this vmlinux ELF file", O_VMLINUX },
	{ "vdso", 0, OPT_REQ, "FILE", "the recording kernel's vdso image", O_VDSO },
	{ "jit-dir", 0, OPT_REQ, "DIR", "where perf-PID.map files are (default /tmp)", O_JIT_DIR },
	{ "host", 0, OPT_REQ, "NAME", "tsv: the host column (default: the recording's hostname)", O_HOST },
	{ "bucket", 0, OPT_REQ, "SECONDS", "tsv: time bucket width (default 10)", O_BUCKET },
	{ "per", 0, OPT_REQ, "WHAT", "speedscope: a profile per thread (default), process or none", O_PER },
	{ "timeline", 0, OPT_NONE, NULL, "speedscope: evented profiles in sample time order (perf.data)", O_TIMELINE },
	OPT_END_SPEC
};

static const struct opt_cmd export_cmd = {
	"export", "scorch export --format pprof|speedscope|tsv [-o FILE] [INPUT...]",
	"Write the stacks of perf.data, perf script text or folded INPUTs "
	"(default: standard input) as a pprof profile, a speedscope file or "
	"fleet rows for ClickHouse.",
	opts, true,
};

struct export_run {
	struct fold_perfdata_opts fo;   /* symbol options for perf.data */
	struct stack_table t;
	struct fold_perfdata_info info; /* of the first perf input */
	size_t perf_inputs, folded_inputs;
};

static int read_folded(struct export_run *r, struct lines *lr, const char *name)
{
	const char *line;
	size_t len;
	int rc;
	while ((rc = lines_next(lr, &line, &len)) > 0) {
		struct stack_folded f;
		if (len == 0 || line[0] == '#' || stack_folded_parse(line, len, &f) < 0)
			continue; /* as flame: blank, comment, no count */
		if (f.count >= 1)
			stack_table_add(&r->t, f.stack, f.stack_len, (uint64_t)f.count);
	}
	if (rc < 0)
		diag_error("%s: line %llu: %s", name, (unsigned long long)lr->lineno + 1,
			   rc == -E2BIG ? "line too long" : strerror(-rc));
	r->folded_inputs++;
	return rc < 0 ? 1 : 0;
}

static int read_input(struct export_run *r, const char *path)
{
	struct lines lr;
	const char *name = path && strcmp(path, "-") ? path : "<stdin>";
	int rc = lines_open(&lr, path);
	if (rc < 0) {
		diag_error("%s: %s", name, strerror(-rc));
		return 1;
	}
	enum fold_input_kind kind = fold_input_kind(&lr);
	if (kind == FOLD_INPUT_BINARY) {
		fold_input_binary_error(&lr, name, "export");
		rc = 1;
	} else if (kind == FOLD_INPUT_FOLDED) {
		rc = read_folded(r, &lr, name);
	} else {
		struct fold_perfdata_info in = FOLD_PERFDATA_INFO_INIT;
		struct stat st;
		r->fo.info = &in;
		if (kind == FOLD_INPUT_PERF_DATA && path && strcmp(path, "-") &&
		    !fstat(lr.fd, &st) && S_ISREG(st.st_mode))
			rc = fold_perfdata(path, &r->fo, &r->t);
		else /* a pipe, or perf script text: default options */
			rc = fold_perf_input(&lr, path ? path : "-", kind, &r->t, &in);
		if (!rc && r->perf_inputs++ == 0) {
			fold_perfdata_info_release(&r->info);
			r->info = in;
		} else {
			fold_perfdata_info_release(&in);
		}
	}
	lines_close(&lr);
	return rc;
}

/* The sample type: the period of a weighted event (nanoseconds of CPU
 * for cpu-clock and task-clock), else a sample count. */
static void meta_of(const struct export_run *r, struct pprof_meta *m)
{
	const struct fold_perfdata_info *in = &r->info;
	*m = (struct pprof_meta){ "samples", "count", NULL, NULL, 0, false };
	m->comm_label = r->perf_inputs > 0 && r->folded_inputs == 0;
	if (!r->perf_inputs || !in->weighted || !in->event.len)
		return;
	bool ns = in->have_attr ? in->type == 1 /* PERF_TYPE_SOFTWARE */ &&
		  (in->config == 0 || in->config == 1) /* cpu-, task-clock */
		: !strncmp(in->event.buf, "cpu-clock", 9) ||
		  !strncmp(in->event.buf, "task-clock", 10);
	m->type = ns ? "cpu" : in->event.buf;
	m->unit = ns ? "nanoseconds" : "count";
}

static int write_out(const char *path, const struct strbuf *data)
{
	bool std = !path || !strcmp(path, "-");
	int fd = std ? 1 : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || fd_write_all(fd, data->buf, data->len) < 0 ||
	    (!std && close(fd) < 0)) {
		diag_error("%s: %s", std ? "<stdout>" : path, strerror(errno));
		if (!std)
			unlink(path);
		return 1;
	}
	return 0;
}

static int export_pprof(struct export_run *r, const char *output)
{
	struct pprof_meta m;
	meta_of(r, &m);
	struct strbuf pb = SB_INIT, gz = SB_INIT;
	pprof_from_table(&r->t, &m, &pb);
	int rc = pprof_gzip(pb.buf, pb.len, &gz);
	if (rc < 0)
		diag_error("%s: gzip compression failed", output ? output : "<stdout>");
	else
		rc = write_out(output, &gz);
	sb_release(&pb);
	sb_release(&gz);
	return rc ? 1 : 0;
}

int cmd_export(int argc, char **argv)
{
	const char *format = NULL, *output = NULL, *arg;
	enum speedscope_per per = SPEEDSCOPE_PER_THREAD;
	bool timeline = false;
	struct opt_state st = OPT_STATE_INIT;
	int id;
	struct export_tsv_opts tsv = { NULL, NULL };
	struct export_run r = { FOLD_PERFDATA_OPTS_INIT, STACK_TABLE_INIT,
				FOLD_PERFDATA_INFO_INIT, 0, 0 };
	while ((id = opt_next(&st, argc, argv, &export_cmd, &arg)) > 0) {
		switch (id) {
		case O_FORMAT: format = arg; break;
		case O_OUTPUT: output = arg; break;
		case O_BUILDID_DIR: r.fo.buildid_dir = arg; break;
		case O_SYMFS: r.fo.symfs = arg; break;
		case O_KALLSYMS: r.fo.kallsyms = arg; break;
		case O_VDSO: r.fo.vdso = arg; break;
		case O_VMLINUX: r.fo.vmlinux = arg; break;
		case O_JIT_DIR: r.fo.jit_dir = arg; break;
		case O_HOST: tsv.host = arg; break;
		case O_BUCKET: tsv.bucket = arg; break;
		case O_PER:
			if (export_speedscope_per(arg, &per))
				return opt_usage_error(&export_cmd, "--per: '%s' is not "
						       "thread, process or none", arg);
			break;
		case O_TIMELINE: timeline = true; break;
		}
	}
	if (id == OPT_HELP)
		return 0;
	if (id < 0)
		return 2;
	if (!format)
		return opt_usage_error(&export_cmd, "--format is required (pprof, speedscope, tsv)");
	if (!strcmp(format, "tsv"))
		return export_tsv(&r.fo, &tsv, argv + st.ind, argc - st.ind, output);
	if (!strcmp(format, "speedscope"))
		return export_speedscope(argv + st.ind, argc - st.ind, &r.fo, output, per,
					 timeline);
	if (strcmp(format, "pprof"))
		return opt_usage_error(&export_cmd, "unknown format '%s' (known: pprof, "
				       "speedscope, tsv)", format);
	int rc = 0;
	if (st.ind >= argc)
		rc = read_input(&r, NULL);
	for (int i = st.ind; i < argc && !rc; i++)
		rc = read_input(&r, argv[i]);
	if (!rc)
		rc = export_pprof(&r, output);
	stack_table_release(&r.t);
	fold_perfdata_info_release(&r.info);
	return rc;
}
