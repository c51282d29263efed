/*
 * symopts: what the perf.data commands (fold, script, report,
 * buildid-list, archive) share: symbol source options turned into a
 * sym_config, and the sample filters --time, --cpu, --comm, --event.
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
#include <stdint.h>

#include "process/session.h"
#include "symbols/dso.h"

struct symopts {
	const char *buildid_dir;
	const char *symfs;
	const char *kallsyms;
	const char *vdso;
	const char *jit_dir;
	char *tmpdir;          /* unpacked archive, removed at release */
	char *home_debug;      /* ~/.debug */
};

/* Fill cfg; returns 0, or 1 after printing a message (bad archive). */
int symopts_config(struct symopts *so, struct sym_config *cfg);
void symopts_release(struct symopts *so);

struct sample_filter {
	bool have_start, have_end, relative;
	uint64_t start, end;   /* ns (relative: from the first sample) */
	uint64_t first_time;
	bool have_first;
	uint64_t cpus[16];     /* bitmap of CPUs 0..1023 */
	bool have_cpus;
	const char *comms;     /* comma-separated list, or NULL */
	const char *event;     /* or NULL */
};

/* Parse the option strings (each may be NULL). Returns 0, or 2 after
 * printing a usage message. */
int sample_filter_init(struct sample_filter *f, const char *time,
		       const char *cpu, const char *comm, const char *event,
		       const char *cmd);
/* true when the sample is kept. */
bool sample_filter_keep(struct sample_filter *f, const struct proc_sample *ps);
/* Event name of a sample as perf script prints it. */
const char *sample_event_name(const struct proc_sample *ps);

/* Print the symbol loader's warnings (lying ELF files, bad map lines)
 * and the reader's damage note. */
void symopts_report_warnings(struct proc_session *ses, const char *path);

#endif
