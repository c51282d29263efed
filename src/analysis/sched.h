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
 * scheduling delay (runnable to running) and the time it ran; per task
 * the run-time statistics of the summary (analysis/timehist prints them).
 * Key invariant: memory grows with the number of tasks, not events.
 */
#ifndef SCORCH_ANALYSIS_SCHED_H
#define SCORCH_ANALYSIS_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/schedlist.h"
#include "base/diag.h"
#include "base/hmap.h"
#include "base/strbuf.h"
#include "perfdata/reader.h"

struct sym_config;

/* The tracepoints these analyses read (sched_stat_runtime for the run
 * times), as `perf sched record` records them. */
#define AN_SCHED_EVENTS \
	"sched:sched_switch,sched:sched_wakeup,sched:sched_wakeup_new,sched:sched_stat_runtime"

/* A task's last latency atom (perf's work atom states); NONE: no latency
 * event yet. */
enum { AN_ATOM_SLEEPING = 0, AN_ATOM_WAIT_CPU, AN_ATOM_SCHED_IN, AN_ATOM_IGNORE,
       AN_ATOM_NONE };

/* perf's struct stats over a task's run times, and its wait totals. */
struct an_runstats {
	double n, mean, m2;   /* Welford's running mean and squared deviations */
	uint64_t min, max;
	uint64_t run, sleep, iowait, preempt, delay;  /* totals, ns */
};

/* Per-task state (indexed by the task's id in an_sched.tasks). */
struct an_task {
	uint32_t tid;
	int64_t pid;          /* timehist: pid when first seen (0: as a wakee) */
	bool pid_seen;
	char state;           /* latency atom state: AN_ATOM_* */
	uint64_t sched_out, wake_up;
	uint64_t runtime, total_lat, max_lat, max_start, max_end, nb_atoms;
	/* timehist */
	uint64_t last_time, ready_to_run;
	char last_state;
	struct an_runstats st;
	/* set after the run */
	const char *comm;     /* final name */
	int32_t ptid;         /* the thread that forked it, -1 unknown */
	bool exited;          /* an EXIT record went by */
	bool idle;            /* the idle task of CPU cpu */
	uint32_t cpu;
	/* perf makes a new thread for a tid at a FORK record (and for the
	 * parent of one whose pid it had wrong): the old one is retired,
	 * keeping its name and state of then */
	bool retired;
	uint64_t retire_seq;  /* order of retirement (perf's dead list) */
};

struct an_sched_row {       /* one timehist line */
	uint64_t time;
	uint32_t cpu;
	bool idle;
	char state;             /* prev_state letter */
	uint64_t wait, delay, run;
	const char *name;       /* "comm[tid]" etc., borrowed for the call */
	const char *wakee;      /* a wakeup line: who was woken */
	const char *chain;      /* the call chain text, or NULL */
	int width;              /* of the name column; 0: comm_width */
};

/* What timehist prints (perf sched timehist's options). */
struct an_timehist_opts {
	bool wakeups;           /* -w: a line per wakeup */
	bool state;             /* --state: the prev_state column and the
				 * wait-time summary */
	bool visual;            /* -V: the CPU visualisation column */
	bool summary;           /* -s/-S: the summary after the run */
	bool rows;              /* the rows (false for -s) */
	struct an_cpuset cpus;  /* -C: only these CPUs */
	struct an_idlist pids, tids;  /* -p, -t: only these tasks */
	bool callchain;         /* the switch's call chain when recorded */
	unsigned max_stack;     /* perf's --max-stack (5): it resolves 2 more */
};
/* perf's defaults: the rows, call chains, --max-stack 5. */
void an_timehist_opts_init(struct an_timehist_opts *o);

struct an_sched {
	struct hmap tasks;      /* key: tid, or (1 << 32 | cpu) for idle;
				 * value: the live task's index in task */
	struct an_task *task;   /* every task, retired ones included */
	size_t ntask, task_cap;
	uint64_t nretired;
	uint64_t *cpu_last;     /* last sched_switch time per CPU */
	int64_t *cpu_curr;      /* next_pid of the last switch per CPU, -1 none */
	size_t ncpu, ncurr;
	/* timehist: set timehist, th, out, flush and ctx before the run */
	bool timehist;
	struct an_timehist_opts th;
	struct strbuf *out;
	an_sched_flush_fn flush;
	void *ctx;
	int comm_width;         /* perf's: 30, wider after a longer name */
	uint32_t max_cpu;       /* perf's: CPUs online, or the highest seen */
	uint32_t nr_online;     /* CPUs online (header; 4 when absent) */
	uint32_t nr_idle_slots; /* idle tasks perf lists: CPUs online, more
				 * (a power of two) after idle on a higher CPU */
	uint64_t hist_start, hist_end, skipped;
	uint64_t nr_switch, nr_wakeup, nr_runtime, nr_bad;
	struct pd_dropped dropped; /* samples that did not decode (perfdata/reader.h) */
	uint64_t nr_timestamps, nr_unordered;
	uint64_t nr_cs_bugs;    /* switch-outs of a task that was not current */
	bool have_runtime;      /* the file has sched:sched_stat_runtime */
	uint64_t nr_lost;       /* events lost while recording (LOST records) */
};

void an_sched_init(struct an_sched *s);
/* Make the run a timehist: lines by th (borrowed lists) into out,
 * given to flush(ctx, out) as it grows. */
void an_sched_timehist(struct an_sched *s, const struct an_timehist_opts *th,
		       struct strbuf *out, an_sched_flush_fn flush, void *ctx);
/* Frees the tasks; the timehist lists in s->th are the caller's. */
void an_sched_release(struct an_sched *s);
/* Replay path; timehist lines go to s->out as they are made. Returns 0 (d
 * may hold a damage warning) or negative with d filled. */
int an_sched_read(struct an_sched *s, const char *path,
		  const struct sym_config *cfg, struct diag *d);

/* ---- the latency table (analysis/schedlat.c) ---- */

/* Sort keys for the latency table: comma-separated avg, max, switch,
 * runtime, pid (default "avg,max,switch,runtime"). Returns 0 or -EINVAL. */
int an_sched_set_sort(const char *keys);
/* perf sched latency's table (tasks merged by name, sorted by average,
 * maximum, switches, run time). */
void an_sched_latency_table(const struct an_sched *s, struct strbuf *out);
/* What the file lacks for the table to mean what it says, as warning
 * lines ("PATH: ...\n") appended to out: no sched_stat_runtime events
 * (every Runtime 0), lost events (the context switch bugs are those
 * gaps). Nothing when all is well. */
void an_sched_latency_notes(const struct an_sched *s, const char *path,
			    struct strbuf *out);

/* ---- timehist lines (analysis/timehist.c) ---- */

/* The header, for the CPUs known when the run starts. */
void an_timehist_header(struct an_sched *s);
/* perf's task name: "comm", "comm[tid]" or "comm[tid/pid]", cut to 31
 * bytes; a longer one than any before widens the name column. */
const char *an_timehist_name(struct an_sched *s, struct strbuf *buf,
			     const char *comm, uint32_t tid, int64_t pid);
void an_timehist_row(struct an_sched *s, const struct an_sched_row *r);
/* perf's line for a LOST record: "TIME lost N events on cpu C". */
void an_timehist_lost(struct an_sched *s, uint64_t time, int cpu, uint64_t lost);
/* Fold one run (and the wait before it) into st. */
void an_runstats_add(struct an_runstats *st, const struct an_sched_row *r,
		     char last_state);
/* Whether -p/-t leave the task out. */
bool an_timehist_filtered(const struct an_sched *s, int64_t pid, uint32_t tid);
/* The summary of -s/-S (after an_sched_read). */
void an_timehist_summary(struct an_sched *s);

#endif
