/*
 * record: sampling with perf_event_open(2) into a perf.data writer.
 * Stage: record (sits on perfdata; used only by cmd/record.c). A
 * session opens one event fd per (event, cpu, thread), sends every fd of
 * a cpu into that cpu's ring buffer, synthesizes what already exists
 * (kernel map, COMM/FORK/MMAP2 of running targets from /proc) and then
 * copies ring buffer records to the writer until the target ends or
 * rec_session_stop is called. Invariant: ring buffer bytes are passed
 * on unchanged (whole records, in ring order); only our own synthesized
 * records are built here, each with a zeroed sample_id trailer sized
 * for the events' sample_type, as perf writes them.
 * Errors: 0 or -errno, with the detail in the session's diag (and a hint
 * naming the fix for permission problems).
 */
#ifndef SCORCH_RECORD_RECORD_H
#define SCORCH_RECORD_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <signal.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

#include "base/diag.h"
#include "base/strbuf.h"
#include "perfdata/writer.h"

/* ---- events (events.c) ---- */

struct rec_event {
	char name[128];         /* as given, e.g. "cpu-clock", "sched:sched_switch" */
	uint32_t type;          /* PERF_TYPE_* */
	uint64_t config;
	bool exclude_user, exclude_kernel;  /* :u / :k modifiers */
	bool is_default;        /* not asked for: fall back quietly */
};

/* Parse one event name (no commas) into ev. Tracepoints are looked up
 * in tracefs. Returns 0, -ENOENT (unknown name or tracepoint). */
int rec_event_parse(struct rec_event *ev, const char *spec, struct diag *d);
/* Switch a hardware cycles event to cpu-clock (perf's fallback). Returns
 * true when it did. */
bool rec_event_fallback(struct rec_event *ev);

/* ---- tracefs (tracefs.c) ---- */

/* The tracefs mount point, mounting it on /sys/kernel/tracing when no
 * tracefs is mounted; NULL when there is none. */
const char *rec_tracefs_dir(void);
/* The tracefs mount point in *dir (mounting it as above): 0, -EACCES
 * when one is mounted but we may not read it (*dir names it), -ENOENT. */
int rec_tracefs_find(const char **dir);
/* Tracepoint id of "sys:name", or -ENOENT / -errno. */
int rec_tracepoint_id(const char *sys, const char *name, uint64_t *id,
		      struct diag *d);
/* perf's tracing data blob (trace-event-info.c layout, version 0.6) for
 * the tracepoint events in evs. Returns 0 or -errno. */
int rec_tracing_data(struct strbuf *out, const struct rec_event *evs,
		     size_t nr, struct diag *d);

/* ---- host description features (sysinfo.c) ---- */

/* HOSTNAME, OSRELEASE, VERSION, ARCH, NRCPUS, CPUDESC, CPUID,
 * TOTAL_MEM, CMDLINE (argv as given, argv[0] replaced by our path). */
void rec_sysinfo_features(struct pd_writer *w, int argc, char **argv);

/* ---- options and session (session.c) ---- */

enum rec_callgraph { REC_CG_NONE, REC_CG_FP, REC_CG_DWARF };

struct rec_opts {
	struct rec_event *events;
	size_t nr_events;
	uint64_t freq;          /* -F; 0 when period is used */
	bool freq_given;        /* -F was given (else the default may be lowered) */
	uint64_t period;        /* -c */
	enum rec_callgraph callgraph;
	uint32_t stack_size;    /* dwarf dump size */
	bool system_wide;       /* -a */
	const char *cpu_list;   /* --cpu */
	pid_t *pids;            /* -p: processes (all their threads) */
	size_t nr_pids;
	pid_t *tids;            /* -t: threads */
	size_t nr_tids;
	bool inherit;           /* follow children (default true) */
	size_t mmap_pages;      /* data pages per ring (power of two) */
};

/* ---- option values (opts.c) ---- */

/* The defaults: -F 4000, inherit, dwarf stack 8192, 128 pages a ring. */
void rec_opts_init(struct rec_opts *o);
/* Free the event and pid lists; o is then empty. */
void rec_opts_release(struct rec_opts *o);
/* A decimal u64 with nothing around it (no sign). */
bool rec_parse_u64(const char *s, uint64_t *v);
/* Add the events of a comma list; -EINVAL (diag) at an unknown one. */
int rec_opts_add_events(struct rec_opts *o, const char *list, struct diag *d);
/* Add a comma list of pids (1 to 2^31-1) to *list; -EINVAL when bad. */
int rec_opts_add_pids(pid_t **list, size_t *n, const char *s);
/* --call-graph fp or dwarf[,SIZE] (SIZE 1-65528, rounded up to 8);
 * -EINVAL when bad. */
int rec_opts_callgraph(struct rec_opts *o, const char *m);
/* After the options: the default event (cycles, falling back quietly)
 * and 512 pages a ring for dwarf unless -m was given (mmap_set).
 * -EINVAL (diag) when the default event cannot be parsed. */
int rec_opts_finish(struct rec_opts *o, bool mmap_set, struct diag *d);

/* ---- the output file (output.c) ---- */

/* Open path for writing ("-": stdout, *pipe_mode), keeping a non-empty
 * regular file as path.old first (a recording that cannot be kept is
 * not overwritten). A FIFO or device sets *pipe_mode. Returns the fd,
 * or -1 (diag). */
int rec_output_open(const char *path, bool *pipe_mode, struct diag *d);
/* Open writer w on fd and give it what precedes the records: zstd
 * compression at zlevel (0: none), the host features and, for
 * tracepoint events, the tracing data. Returns 0 or negative (diag). */
int rec_output_setup(struct pd_writer *w, int fd, bool pipe_mode,
		     const struct rec_opts *o, int zlevel, int argc, char **argv,
		     struct diag *d);

struct rec_ring;
struct rec_dsos;

struct rec_session {
	struct rec_opts *opts;
	struct pd_writer *w;
	struct perf_event_attr *attrs;   /* one per event */
	uint64_t **ids;                  /* per event */
	size_t *nr_ids;
	int *fds;
	size_t nr_fds;
	struct rec_ring *rings;          /* one per cpu */
	size_t nr_rings;
	int *cpus;
	size_t nr_cpus;
	pid_t workload;                  /* command started by us, or 0 */
	size_t id_hdr_size;              /* sample_id trailer size */
	uint64_t samples, lost, lost_records, bytes;
	uint64_t first_time, last_time;
	struct rec_dsos *dsos;
	struct strbuf stage;             /* ring copy */
	struct strbuf warnings;          /* lines for the command to print */
	struct diag diag;
};

/* Build attrs, open and map everything. workload: pid of a stopped
 * child to be exec'd (enable_on_exec), or 0. */
int rec_session_open(struct rec_session *s, struct rec_opts *o, pid_t workload);
/* Write the attrs and the synthesized startup records to w. */
int rec_session_start(struct rec_session *s, struct pd_writer *w);
/* Enable counting (for -p/-a/-t; a workload enables itself on exec). */
void rec_session_enable(struct rec_session *s);
/* Drain every ring once; *got says whether anything was read. timeout_ms
 * waits with poll first (-1 forever, 0 none). Returns 0 or -errno. */
int rec_session_poll(struct rec_session *s, int timeout_ms, bool *got);
/* Whether every target thread is gone (per-thread fds hung up). */
bool rec_session_targets_gone(struct rec_session *s);
void rec_session_disable(struct rec_session *s);
/* Final drain, SAMPLE_TIME and BUILD_ID features; does not finish w. */
int rec_session_stop(struct rec_session *s, bool buildid_cache);
void rec_session_close(struct rec_session *s);
/* Write one synthesized record (a multiple of 8 bytes, trailer
 * included) and let the DSO tracker see it. */
int rec_session_emit(struct rec_session *s, const void *rec, size_t len);

/* ---- synthesized records (synth.c) ---- */

int rec_synth_kernel(struct rec_session *s);
/* An MMAP per loaded kernel module (/proc/modules). */
int rec_synth_modules(struct rec_session *s);
/* Parse a /proc/modules line: name, load address, size. Returns 0, or
 * -1 for a line without a usable address (hidden by kptr_restrict). */
int rec_module_line(const char *line, char *name, size_t size,
		    uint64_t *addr, uint64_t *len);
/* Module name of a module file ("/lib/.../nf-tables.ko.xz" or
 * "[nf_tables]"): basename without ".ko..." and brackets, '-' as '_'. */
void rec_module_name(const char *path, size_t len, char *out, size_t size);
/* COMM (and FORK for other threads) of pid's threads, MMAP2 of its
 * executable maps; comm_only for a workload not yet exec'd. */
int rec_synth_process(struct rec_session *s, pid_t pid, bool comm_only);
/* Every process in /proc (system-wide mode). */
int rec_synth_all(struct rec_session *s);

/* ---- DSO hits and build ids (dsos.c) ---- */

struct rec_dsos *rec_dsos_new(void);
void rec_dsos_free(struct rec_dsos *ds);
/* Feed a record (synthesized or from a ring): maps, forks, execs,
 * samples. sample_type of the record's event. */
void rec_dsos_record(struct rec_dsos *ds, const uint8_t *rec, size_t len,
		     uint64_t sample_type);
/* BUILD_ID feature payload for the DSOs with hits; fills the build-id
 * cache under $HOME/.debug when cache is set. */
void rec_dsos_buildids(struct rec_dsos *ds, struct strbuf *out, bool cache);

/* ---- the workload (workload.c) ---- */

struct rec_workload {
	pid_t pid;     /* 0: none */
	int go;        /* write end: one byte starts the exec */
	int err;       /* read end: errno of a failed exec, or EOF */
};
#define REC_WORKLOAD_INIT { 0, -1, -1 }

/* Fork argv[0] (PATH searched), held before its exec; the child has
 * SIGINT, SIGTERM and SIGPIPE at their defaults. pipe_mode: our stdout
 * carries perf.data, so the workload's stdout goes to stderr (as perf
 * does). Returns 0 or -errno (pipe, fork). */
int rec_workload_prepare(struct rec_workload *w, char **argv, bool pipe_mode);
/* Let the workload exec; returns 0 or the errno of a failed exec. */
int rec_workload_start(struct rec_workload *w);
/* Close what is still open and reap the child, if any. */
void rec_workload_abort(struct rec_workload *w);
/* Copy the rings to the writer until the workload exits (wl->pid > 0),
 * the targets are gone (no workload), or *stop is set (by a signal
 * handler): then the workload gets SIGTERM, SIGKILL after 50 polls,
 * and the rings are drained until it is gone. Its wait status goes to
 * *status (-1: none). Returns what rec_session_poll returned. */
int rec_workload_run(struct rec_session *s, struct rec_workload *wl,
		     const volatile sig_atomic_t *stop, int *status);
/* The exit code that passes a wait status through (128 + signal). */
int rec_workload_exit_status(int status);

/* ---- one recording, start to end (run.c) ---- */

/* What rec_run needs and tells. Messages reach the caller through the
 * callbacks, in the order they arise (only commands print):
 *   struct rec_run run = { .o = &opts, .output = "perf.data",
 *                          .workload = argv_or_NULL, .argc = argc, .argv = argv,
 *                          .warn = say, .fail = print, .cannot = complain, .ctx = me };
 *   if (rec_run(&run) == 0) the file is whole: run.size, run.samples, ...
 * All three callbacks must be set. Ownership: everything in is borrowed
 * for the call. */
struct rec_run {
	struct rec_opts *o;
	const char *output;      /* path, "-": standard output (pipe mode) */
	int zlevel;              /* zstd level, 0: no compression */
	bool no_cache, no_buildid;
	char **workload;         /* command to run (argv), or NULL */
	int argc;                /* our own command line, for CMDLINE */
	char **argv;
	void *ctx;
	/* one line of the session's notes (len bytes, no newline) */
	void (*warn)(void *ctx, const char *line, int len);
	/* a failure, d naming file (NULL: none) */
	void (*fail)(void *ctx, const struct diag *d, const char *file);
	/* the workload could not "start" (fork) or "run" (exec): errno err */
	void (*cannot)(void *ctx, const char *what, int err);
	/* out */
	bool exec_failed;        /* cannot(ctx, "run", ...) was called */
	int status;              /* the workload's wait status, -1: none */
	uint64_t size;           /* bytes written */
	uint64_t samples, lost, lost_records;
};

/* Record until the workload exits, the targets are gone or a signal
 * (rec_signals_install, which this calls) stops it, and finish the
 * file. Returns 0 when the file is whole, -1 after run->fail or
 * run->cannot. */
int rec_run(struct rec_run *run);

/* The signal that asked the recording to stop (SIGINT, SIGTERM, SIGHUP),
 * or 0: what rec_signals_install's handlers set, for rec_workload_run. */
extern volatile sig_atomic_t rec_stop_signal;
/* Stop on SIGINT/SIGTERM/SIGHUP (rec_stop_signal), wake the poll on
 * SIGCHLD, and ignore SIGPIPE (a reader that goes away is a write error
 * the command reports, not a reason to die with the workload running). */
void rec_signals_install(void);

#endif
