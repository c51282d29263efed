/*
 * sched: scheduler analyses of a perf.data with sched:* tracepoints, as
 * `perf sched latency` and `perf sched timehist` compute them.
 * Stage: analysis (above process: events come in time order from a
 * proc_session, fields are decoded through analysis/tracepoint).
 * latency: per task, run time (sched_stat_runtime), the number of times it
 * was switched in after being runnable ("switches"), and the delay from
 * wakeup (or preemption) to switch-in: average and maximum with its
 * start and end. Tasks are merged by command name as perf does.
 * timehist: one row per sched_switch: the task switched out, the time it
 * waited before its last switch-in (sleep, I/O wait or preemption), its
 * scheduling delay (runnable to running) and the time it ran.
 * Key invariant: memory grows with the number of tasks, not events.
 */
#ifndef SCORCH_ANALYSIS_SCHED_H
#define SCORCH_ANALYSIS_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/hmap.h"
#include "base/strbuf.h"
#include "perfdata/reader.h"

struct sym_config;

/* Per-task state (indexed by the task's id in an_sched.tasks). */
struct an_task {
	uint32_t tid;
	int64_t pid;          /* timehist: pid when first seen (0: as a wakee) */
	bool pid_seen;
	char state;           /* latency atom state: see sched.c */
	uint64_t sched_out, wake_up;
	uint64_t runtime, total_lat, max_lat, max_start, max_end, nb_atoms;
	/* timehist */
	uint64_t last_time, ready_to_run;
	char last_state;
	const char *comm;     /* final name, set after the run */
};

struct an_sched_row {       /* one timehist line */
	uint64_t time;
	uint32_t cpu;
	uint32_t task;          /* id in tasks */
	bool idle;
	uint64_t wait, delay, run;
	const char *name;       /* "comm[tid]" etc., borrowed for the call */
	const char *wakee;      /* a wakeup line (wakeups on): who was woken */
	bool wakeups;           /* rows are printed with the wakeup column */
};

typedef int (*an_sched_row_fn)(void *ctx, const struct an_sched_row *row);

struct an_sched {
	struct hmap tasks;      /* key: tid (4 bytes) */
	struct an_task *task;
	size_t task_cap;
	uint64_t *cpu_last;     /* last sched_switch time per CPU */
	int64_t *cpu_curr;      /* next_pid of the last switch per CPU, -1 none */
	size_t ncpu, ncurr;
	an_sched_row_fn on_row; /* timehist rows, or NULL */
	bool wakeups;           /* also wakeup rows (timehist -w) */
	void *ctx;
	uint64_t nr_switch, nr_wakeup, nr_runtime, nr_bad;
	struct pd_dropped dropped; /* samples that did not decode (perfdata/reader.h) */
	uint64_t nr_timestamps, nr_unordered;
	uint64_t nr_cs_bugs;    /* switch-outs of a task that was not current */
	bool have_runtime;      /* the file has sched:sched_stat_runtime */
	uint64_t nr_lost;       /* events lost while recording (LOST records) */
};

void an_sched_init(struct an_sched *s);
void an_sched_release(struct an_sched *s);
/* Replay path; rows go to on_row as they are computed. Returns 0 (d may
 * hold a damage warning) or negative with d filled. */
int an_sched_read(struct an_sched *s, const char *path,
		  const struct sym_config *cfg, struct diag *d);

/* Sort keys for the latency table: comma-separated avg, max, switch,
 * runtime, pid (default "avg,max,switch,runtime"). Returns 0 or -EINVAL. */
int an_sched_set_sort(const char *keys);
/* perf sched latency's table (tasks merged by name, sorted by average,
 * maximum, switches, run time). */
void an_sched_latency_table(const struct an_sched *s, struct strbuf *out);
/* A timehist row as perf sched timehist prints it. */
void an_sched_timehist_header(struct strbuf *out);
void an_sched_timehist_row(const struct an_sched_row *r, struct strbuf *out);

#endif
