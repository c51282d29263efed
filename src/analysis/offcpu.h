/*
 * offcpu: off-CPU stacks weighted by the time tasks spent switched out,
 * from sched:sched_switch samples recorded with call chains (-g), all CPUs.
 * Stage: analysis (above process: a proc_session replays the events in
 * time order with call chains resolved; frames are named by the fold
 * rules of stacks/collapse_perf, so the stacks read like scorch fold's).
 * A switch-out stores the task's folded stack and time; the task's next
 * switch-in (next_pid of a later switch) adds the time between them to
 * that stack; with until_wakeup, the time ends at the task's first
 * wakeup instead (blocked time without the run-queue wait). The idle
 * task is skipped; tasks still off-CPU at the end are counted, not added.
 * Unless all, only the recorded command's process tree is kept (see
 * proc_machine_in_command), the way a CPU profile of a command holds
 * only the command; with no command in the file, every task.
 * Key invariant: memory grows with tasks and distinct stacks, not events.
 */
#ifndef SCORCH_ANALYSIS_OFFCPU_H
#define SCORCH_ANALYSIS_OFFCPU_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/hmap.h"
#include "perfdata/reader.h"
#include "stacks/collapse_perf.h"
#include "stacks/table.h"

struct sym_config;

struct an_offcpu_opts {
	struct collapse_opts collapse;  /* naming: pid, tid, annotations */
	bool until_wakeup;              /* end at the wakeup, not the switch-in */
	bool no_preempt;                /* skip switch-outs in state R */
	bool all;                       /* every task, not only the command's */
	const char *comms;              /* keep only these comms (comma list) */
};

struct an_offcpu {
	struct an_offcpu_opts o;
	struct hmap stacks;     /* tid (4 bytes), recorder's child (1 byte),
				 * folded stack -> id; value: total ns */
	struct hmap tasks;      /* tid -> id */
	struct an_offtask {
		uint64_t out, wake;  /* switch-out time; first wakeup after it */
		uint32_t stack;      /* id in stacks */
		bool off;
		bool keep;           /* reported (set at the end of the read) */
	} *task;
	size_t task_cap;
	uint64_t nr_switch, nr_added, nr_open, nr_bad, total_ns;
	uint32_t command_pid;   /* the recorded command's pid, 0: none found */
	struct pd_dropped dropped; /* samples that did not decode (perfdata/reader.h) */
};

void an_offcpu_init(struct an_offcpu *a, const struct an_offcpu_opts *o);
void an_offcpu_release(struct an_offcpu *a);
/* Replay path. Returns 0 (d may hold a damage warning) or negative
 * with d filled (no sched_switch events, no tracing data, ...). */
int an_offcpu_read(struct an_offcpu *a, const char *path,
		   const struct sym_config *cfg, struct diag *d);
/* Add every stack of the kept tasks to t with its time in units of
 * unit_ns (1000 = us), summed over tasks and rounded once to the nearest
 * unit; stacks that round to 0 are left out. Sets total_ns (kept). */
void an_offcpu_table(struct an_offcpu *a, uint64_t unit_ns,
		     struct stack_table *t);

#endif
