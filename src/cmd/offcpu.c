/*
 * cmd/offcpu: `scorch offcpu [options] [FILE]`: off-CPU stacks weighted by
 * the time tasks were switched out, as folded text or (--svg) an off-CPU
 * flame graph in the io (blue) palette.
 * Stage: command. Options, symbol sources and output; the pairing of
 * switch-out and switch-in is analysis/offcpu. Key invariant: output is
 * sorted folded text, so it is deterministic and feeds scorch flame.
 */
#include "cmd/cmd.h"
SCORCH_COMMAND(offcpu, "off-CPU time flame graphs from sched_switch stacks")

#include "analysis/offcpu.h"
#include "base/diag.h"
#include "base/opt.h"
#include "cmd/symopts.h"
#include "render/flame.h"
#include "render/tree.h"
#include "stacks/table.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum {
	O_PID = 1, O_TID, O_KERNEL, O_UNIT, O_UNTIL_WAKEUP, O_NO_PREEMPT, O_SVG,
	O_TITLE, O_SYMFS, O_KALLSYMS, O_BUILDID_DIR, O_OUTPUT, O_ALL, O_COMM,
	O_VMLINUX,
};

static const struct opt_spec opts[] = {
	{ "pid", 0, OPT_NONE, NULL, "process names as comm-PID", O_PID },
	{ "tid", 0, OPT_NONE, NULL, "process names as comm-PID/TID", O_TID },
	{ "kernel", 0, OPT_NONE, NULL, "annotate kernel frames with _[k]", O_KERNEL },
	{ "unit", 0, OPT_REQ, "U", "unit of the weights: us (default), ms or ns", O_UNIT },
	{ "until-wakeup", 0, OPT_NONE, NULL, "count until the wakeup, not the switch-in (no run-queue wait)", O_UNTIL_WAKEUP },
	{ "no-preempt", 0, OPT_NONE, NULL, "leave out preempted (still runnable) switch-outs", O_NO_PREEMPT },
	{ "svg", 0, OPT_NONE, NULL, "draw an off-CPU flame graph instead of folded text", O_SVG },
	{ "title", 0, OPT_REQ, "TEXT", "title of the flame graph", O_TITLE },
	{ "symfs", 0, OPT_REQ, "DIR", "look for binaries under DIR first", O_SYMFS },
	{ "kallsyms", 0, OPT_REQ, "FILE", "kernel symbols from FILE", O_KALLSYMS },
	{ "vmlinux", 'k', OPT_REQ, "FILE", "kernel symbols from this vmlinux ELF file", O_VMLINUX },
	{ "buildid-dir", 0, OPT_REQ, "DIR", "build-id cache directory (default ~/.debug)", O_BUILDID_DIR },
	{ "output", 'o', OPT_REQ, "FILE", "write to FILE instead of standard output", O_OUTPUT },
	{ "all", 'a', OPT_NONE, NULL, "every task of the system, not only the recorded command's process tree", O_ALL },
	{ "comm", 0, OPT_REQ, "LIST", "only tasks with these process names (comma-separated)", O_COMM },
	OPT_END_SPEC
};

static const struct opt_cmd offcpu_cmd = {
	"offcpu",
	"scorch offcpu [options] [FILE]",
	"Fold the stacks of sched:sched_switch samples (recorded with -g on all\n"
	"CPUs) weighted by the time each task then spent off-CPU. Only the\n"
	"recorded command's processes unless --all.",
	opts, true,
};

struct args {
	struct an_offcpu_opts ao;
	uint64_t unit;
	const char *unit_name;
	bool svg;
	const char *title, *output;
	struct symopts so;
};

static int parse(struct args *a, int id, const char *v)
{
	switch (id) {
	case O_PID: a->ao.collapse.pid = true; break;
	case O_TID: a->ao.collapse.tid = true; break;
	case O_KERNEL: a->ao.collapse.kernel = true; break;
	case O_UNTIL_WAKEUP: a->ao.until_wakeup = true; break;
	case O_NO_PREEMPT: a->ao.no_preempt = true; break;
	case O_SVG: a->svg = true; break;
	case O_TITLE: a->title = v; break;
	case O_SYMFS: a->so.symfs = v; break;
	case O_KALLSYMS: a->so.kallsyms = v; break;
	case O_VMLINUX: a->so.vmlinux = v; break;
	case O_BUILDID_DIR: a->so.buildid_dir = v; break;
	case O_OUTPUT: a->output = v; break;
	case O_ALL: a->ao.all = true; break;
	case O_COMM: a->ao.comms = v; break;
	case O_UNIT:
		if (!strcmp(v, "us")) a->unit = 1000;
		else if (!strcmp(v, "ms")) a->unit = 1000000;
		else if (!strcmp(v, "ns")) a->unit = 1;
		else return opt_usage_error(&offcpu_cmd, "--unit: us, ms or ns, not '%s'", v);
		a->unit_name = v;
		break;
	}
	return 0;
}

static int draw(struct args *a, const struct stack_table *t, FILE *f)
{
	struct render_tree tree;
	render_tree_init(&tree, false, false);
	size_t *ids = stack_table_sorted(t);
	for (size_t i = 0; i < stack_table_count(t); i++) {
		size_t len;
		const char *s = stack_table_key(t, ids[i], &len);
		render_tree_add(&tree, s, len, (double)stack_table_value(t, ids[i]), 0, false);
	}
	free(ids);
	struct render_flame_opts fo;
	render_flame_opts_init(&fo);
	fo.title = a->title ? a->title : "Off-CPU Time Flame Graph";
	fo.palette = PAL_IO;
	fo.countname = a->unit_name;
	fo.bgcolor = "blue";
	struct diag d = DIAG_INIT;
	int rc = stack_table_count(t) ? render_flame_write(&tree, &fo, f, &d)
				      : render_flame_write_empty(&fo, f);
	render_tree_release(&tree);
	return rc;
}

static int output(struct args *a, const struct stack_table *t)
{
	FILE *f = a->output ? fopen(a->output, "w") : stdout;
	if (!f) {
		diag_error("%s: %s", a->output, strerror(errno));
		return 1;
	}
	int rc = a->svg ? draw(a, t, f) : stack_table_write(t, f);
	if (f != stdout && fclose(f) != 0 && rc >= 0)
		rc = -errno;
	if (rc < 0) {
		diag_write_error(a->output, -rc);
		return 1;
	}
	return 0;
}

static int run(struct args *a, const char *path)
{
	struct sym_config cfg;
	if (symopts_config(&a->so, &cfg))
		return 1;
	struct an_offcpu off;
	an_offcpu_init(&off, &a->ao);
	struct diag d = DIAG_INIT;
	int rc = an_offcpu_read(&off, path, &cfg, &d);
	if (symopts_report_dropped(&off.dropped, path)) {
		rc = 1; /* every sample dropped: the rest follows from that */
	} else if (rc < 0) {
		diag_print(&d, path);
		rc = 1;
	} else {
		if (d.set)
			diag_print_kept(&d, path);
		if (off.nr_bad)
			diag_warn("%s: %llu sched_switch payloads too short, skipped", path,
				  (unsigned long long)off.nr_bad);
		if (!a->ao.all && !off.command_pid && off.nr_switch)
			diag_warn("%s: no recorded command found (recorded without "
				  "one?): every task is shown, as with --all", path);
		struct stack_table t = STACK_TABLE_INIT;
		an_offcpu_table(&off, a->unit, &t);
		if (off.nr_switch && off.total_ns == 0)
			diag_warn("%s: no off-CPU time left%s", path, a->ao.comms
				  ? " by --comm" : off.command_pid && !a->ao.all
				  ? " for the command's tasks (--all: every task)" : "");
		rc = output(a, &t);
		stack_table_release(&t);
	}
	an_offcpu_release(&off);
	symopts_release(&a->so);
	return rc;
}

int cmd_offcpu(int argc, char **argv)
{
	struct args a;
	memset(&a, 0, sizeof(a));
	a.ao.collapse = (struct collapse_opts)COLLAPSE_OPTS_INIT;
	a.unit = 1000;
	a.unit_name = "us";
	struct opt_state st = OPT_STATE_INIT;
	const char *v;
	int id;
	while ((id = opt_next(&st, argc, argv, &offcpu_cmd, &v)) > 0)
		if (parse(&a, id, v))
			return 2;
	if (id == OPT_HELP)
		return 0;
	if (id < 0)
		return 2;
	if (argc - st.ind > 1)
		return opt_usage_error(&offcpu_cmd, "one input file at most");
	return run(&a, argc - st.ind == 1 ? argv[st.ind] : "perf.data");
}
