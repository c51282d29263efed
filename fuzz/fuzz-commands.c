/*
 * fuzz-commands: libFuzzer entry for the whole perf.data pipeline as the
 * commands run it: reader, machine (threads, maps), symbols, unwinding,
 * folding (and the per-sample rows of export --format tsv), the pprof and
 * speedscope exports, the tracepoint analyses (offcpu, sched, subsecond),
 * the printers (script, report, header, dump) and the explorer page (view,
 * with its sample rows and modules). Stage: fuzz. The input is
 * written to a memfd and handed to cmd_fold, cmd_script, ... by its
 * /proc/self/fd path, exactly as a user's file would be; their output goes
 * to /dev/null, their messages to stderr. Invariant under test: any bytes
 * end in an exit status, never a crash, leak or UB, in every command.
 */
#include "cmd/cmd.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int cmd_fold(int argc, char **argv);
int cmd_script(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_header(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_offcpu(int argc, char **argv);
int cmd_sched(int argc, char **argv);
int cmd_heatmap(int argc, char **argv);
int cmd_buildid_list(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_view(int argc, char **argv);

static int fd = -1;
static char path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fd = memfd_create("fuzz-commands", 0);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (!freopen("/dev/null", "w", stdout))
		abort();
	setenv("HOME", "/nonexistent", 1); /* no ~/.debug build-id cache */
	return 0;
}

/* Run fn with the words of line (space-separated) then the input's path. */
static void run(int (*fn)(int, char **), const char *line)
{
	char buf[256], *argv[16];
	int argc = 0;
	snprintf(buf, sizeof(buf), "%s", line);
	for (char *w = strtok(buf, " "); w && argc < 14; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc++] = path;
	argv[argc] = NULL;
	fn(argc, argv);
	fflush(stdout);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	run(cmd_fold, "fold --all --pid --buildid-dir /nonexistent");
	run(cmd_export, "export --format pprof --cpu-label --tid --buildid-dir /nonexistent");
	run(cmd_script, "script --buildid-dir /nonexistent");
	run(cmd_report, "report --sort comm,dso,sym --buildid-dir /nonexistent");
	run(cmd_header, "header -I");
	run(cmd_dump, "dump");
	run(cmd_buildid_list, "buildid-list -H");
	run(cmd_offcpu, "offcpu --tid --kernel");
	run(cmd_sched, "sched timehist -w -i");
	run(cmd_sched, "sched timehist -S -V --state -C 0-1 -i");
	run(cmd_sched, "sched latency -i");
	run(cmd_sched, "sched map --compact -i");
	run(cmd_heatmap, "heatmap subsecond --cells");
	run(cmd_heatmap, "heatmap latency --pairs");
	run(cmd_export, "export --format tsv --buildid-dir /nonexistent");
	run(cmd_export, "export --format speedscope --buildid-dir /nonexistent");
	run(cmd_export, "export --format speedscope --timeline --per process");
	run(cmd_view, "view --buildid-dir /nonexistent");
	return 0;
}
