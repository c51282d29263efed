/*
 * symopts: what the perf.data commands (fold, script, report,
 * buildid-list, archive) share: symbol source options turned into a
 * sym_config, the sample filter options --time, --cpu, --comm, --event
 * (the filter itself is profile/filter.h), and the messages after a run.
 * Stage: command helpers. The build-id caches searched are --buildid-dir
 * (a directory, or a tar made by `scorch archive`/`perf archive`, which
 * is unpacked into a private temporary directory removed at exit), else
 * $PERF_BUILDID_DIR, else ~/.debug.
 * Ownership: strings given are borrowed (argv); the temporary directory
 * belongs to the symopts until symopts_release.
 */
#ifndef SCORCH_CMD_SYMOPTS_H
#define SCORCH_CMD_SYMOPTS_H

#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>

#include "base/opt.h"
#include "process/session.h"
#include "profile/filter.h"
#include "symbols/dso.h"
#include "unwind/sample.h"

struct symopts {
	const char *buildid_dir;
	const char *symfs;
	const char *kallsyms;
	const char *vmlinux;
	const char *vdso;
	const char *jit_dir;
	char *tmpdir;          /* unpacked archive, removed at release */
	FILE *vdso_copy;       /* --vdso on a pipe: its copy (see vdso_name) */
	char vdso_name[64];    /* the copy's /proc path, given as cfg->vdso */
	char *home_debug;      /* ~/.debug */
	const char *time, *cpu, *comm, *event; /* sample filter options */
};

/* Option ids of the shared options; a command's own ids stay below
 * SYMOPT_FIRST, which is above every short option character (opt_next
 * maps an id below 256 that equals a short option to that option).
 * SYMOPTS_SPECS is the table rows of script and report. */
enum {
	SYMOPT_FIRST = 0x1000,
	SYMOPT_BUILDID_DIR = SYMOPT_FIRST, SYMOPT_SYMFS, SYMOPT_KALLSYMS,
	SYMOPT_VDSO, SYMOPT_JIT_DIR, SYMOPT_TIME, SYMOPT_CPU, SYMOPT_COMM,
	SYMOPT_EVENT, SYMOPT_VMLINUX,
};

#define SYMOPTS_SPECS \
	{ "buildid-dir", 0, OPT_REQ, "DIR", "build-id cache directory or archive tar (default ~/.debug)", SYMOPT_BUILDID_DIR }, \
	{ "symfs", 0, OPT_REQ, "DIR", "look for a binary recorded as P at DIR/P first", SYMOPT_SYMFS }, \
	{ "kallsyms", 0, OPT_REQ, "FILE", "kernel symbols from FILE", SYMOPT_KALLSYMS }, \
	{ "vmlinux", 'k', OPT_REQ, "FILE", "kernel symbols from this vmlinux ELF file", SYMOPT_VMLINUX }, \
	{ "vdso", 0, OPT_REQ, "FILE", "the recording kernel's vdso image", SYMOPT_VDSO }, \
	{ "jit-dir", 0, OPT_REQ, "DIR", "directory holding perf-PID.map files (default /tmp)", SYMOPT_JIT_DIR }, \
	{ "time", 0, OPT_REQ, "START,END", "only samples in this time range (seconds; +S from the first sample)", SYMOPT_TIME }, \
	{ "cpu", 0, OPT_REQ, "LIST", "only samples of these CPUs (e.g. 0-3,6)", SYMOPT_CPU }, \
	{ "comm", 0, OPT_REQ, "LIST", "only samples of these process names (comma-separated)", SYMOPT_COMM }, \
	{ "event", 0, OPT_REQ, "EVENT", "only samples of EVENT", SYMOPT_EVENT }

/* Store the value of a shared option id in so; false for other ids. */
bool symopts_option(struct symopts *so, int id, const char *arg);

/* The symbol options and filters of so into fold's options f (the
 * commands that fold perf.data: export, push, view). */
struct fold_perfdata_opts;
void symopts_to_fold(const struct symopts *so, struct fold_perfdata_opts *f);

/* After the options: the one optional FILE operand into *input (default
 * perf.data). Returns 0, or 2 after a usage message (too many). */
int symopts_operand(struct opt_state *st, int argc, char **argv,
		    const struct opt_cmd *cmd, const char **input);

/* Fill cfg; returns 0, or 1 after printing a message (bad archive). */
int symopts_config(struct symopts *so, struct sym_config *cfg);
void symopts_release(struct symopts *so);

/* The sample filters (profile/filter.h) from the option strings (each
 * may be NULL): 0, or 2 after printing a usage message. */
int symopts_filter(struct prof_filter *f, const char *time, const char *cpu,
		   const char *comm, const char *event);
/* prof_filter_note as a warning. */
void symopts_report_filter(const struct prof_filter *f, const char *path);

/* Print the symbol loader's warnings (lying ELF files, bad map lines),
 * the reader's damage note and its dropped samples (see below); returns
 * what symopts_report_dropped returned. */
int symopts_report_warnings(struct proc_session *ses, const char *path);
/* After proc_session_run returned rc: its error when rc < 0 (returns 0),
 * else the warnings above (returns what that returned). */
int symopts_report_run(struct proc_session *ses, int rc, const char *path);
/* After a run over a sample filter: symopts_report_run, then (rc >= 0)
 * the filter's note (symopts_report_filter). Returns what
 * symopts_report_run returned (1: every sample dropped). */
int symopts_report_filtered_run(struct proc_session *ses, int rc,
				const struct prof_filter *f, const char *path);
/* Samples dropped as malformed, in one line: "PATH: N of M samples
 * dropped as malformed (first at offset 0x...: REASON)", a warning when
 * some were kept, an error when none were. Returns 1 for that error
 * (the command has nothing to show: non-zero exit), else 0. */
int symopts_report_dropped(const struct pd_dropped *dr, const char *path);
/* The same for the session's reader. */
int symopts_report_session_dropped(struct proc_session *ses, const char *path);

/* unw_perf_run (the session run with the unwinder handed over); warns
 * "PATH: summary" when the unwinder has one and the run did not fail.
 * Returns what proc_session_run returned. */
int symopts_run_unwound(struct proc_session *ses, enum unw_inline mode,
			proc_sample_fn fn, void *ctx, const char *path);

#endif
