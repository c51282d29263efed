/*
 * sched: perf sched latency / timehist arithmetic (see sched.h).
 * Stage: analysis. Latency follows perf's work atoms, keeping only the
 * last atom of each task: a switch-out opens an atom (runnable when the
 * task was preempted, sleeping otherwise), a wakeup of a sleeping task
 * makes it runnable, a switch-in of a runnable task closes it and adds the
 * delay. Timehist keeps per task its last switch-out time and state and
 * when it became runnable; the CPU's previous switch time starts the run.
 * Key invariant: a RAW field is read only through an_tp_read_u64.
 */
#include "analysis/sched.h"

#include "analysis/tpsession.h"
#include "base/xalloc.h"
#include "perfdata/feature.h"
#include "process/session.h"

#include <errno.h>
#include <event-parse.h>
#include <stdlib.h>
#include <string.h>


void an_sched_init(struct an_sched *s)
{
	memset(s, 0, sizeof(*s));
	hmap_init(&s->tasks);
}

void an_sched_timehist(struct an_sched *s, const struct an_timehist_opts *th,
		       struct strbuf *out, an_sched_flush_fn flush, void *ctx)
{
	s->timehist = true;
	s->th = *th;
	s->out = out;
	s->flush = flush;
	s->ctx = ctx;
}

void an_sched_release(struct an_sched *s)
{
	hmap_release(&s->tasks);
	free(s->task);
	free(s->cpu_last);
	free(s->cpu_curr);
	memset(s, 0, sizeof(*s));
}

/* Key: tid, or for the idle task (tid 0) one task per CPU. */
static struct an_task *task_of(struct an_sched *s, uint32_t tid, uint32_t cpu,
			       bool *added)
{
	uint64_t key = tid ? tid : ((uint64_t)1 << 32) | cpu;
	bool add = false;
	size_t id = hmap_put(&s->tasks, &key, sizeof(key), &add);
	if (add) {
		XGROW(s->task, s->task_cap, s->ntask + 1);
		hmap_at(&s->tasks, id)->value = s->ntask++;
	}
	struct an_task *t = &s->task[hmap_at(&s->tasks, id)->value];
	if (add) {
		memset(t, 0, sizeof(*t));
		t->tid = tid;
		t->state = AN_ATOM_NONE;
		t->ptid = -1;
		t->idle = tid == 0;
		t->cpu = cpu;
	}
	if (added)
		*added = add;
	return t;
}

/* perf 6.1's task state letter of a prev_state value: the lowest bit set,
 * n, gives "RSDTtZXxKWP"[n + 1] (the kernel's letters of long ago: a
 * TASK_IDLE kthread, 0x80 now, shows as K, a zombie as X), none gives R. */
static char state_char(uint64_t state)
{
	static const char chars[] = "RSDTtZXxKWP";
	unsigned bit = state ? (unsigned)__builtin_ffsll((long long)state) : 0;
	return bit < sizeof(chars) - 1 ? chars[bit] : '?';
}

/* ---- latency atoms ---- */

static void sched_out(struct an_task *t, char state, uint64_t ts)
{
	t->sched_out = ts;
	t->state = AN_ATOM_SLEEPING;
	if (state == 'R') {
		t->state = AN_ATOM_WAIT_CPU;
		t->wake_up = ts;
	}
}

static void sched_in(struct an_task *t, uint64_t ts)
{
	if (t->state != AN_ATOM_WAIT_CPU)
		return;
	if (ts < t->wake_up) {
		t->state = AN_ATOM_IGNORE;
		return;
	}
	t->state = AN_ATOM_SCHED_IN;
	uint64_t delta = ts - t->wake_up;
	t->total_lat += delta;
	if (delta > t->max_lat) {
		t->max_lat = delta;
		t->max_start = t->wake_up;
		t->max_end = ts;
	}
	t->nb_atoms++;
}

/* ---- event handlers ---- */

struct fields {
	struct tep_event *sw, *rt, *wk[3];
	struct an_tp_field prev_pid, prev_state, next_pid, rt_pid, rt_runtime, wk_pid[3];
	bool have_rt, have_wk[3];
};

struct run {
	struct an_sched *s;
	struct an_tpsession t;
	struct fields f;
	struct strbuf name, name2, chain;
	int err;
};

static int64_t known_pid(struct run *r, uint32_t tid)
{
	struct proc_thread *t = proc_machine_find_thread(&r->t.ses->machine, tid);
	return t ? (int64_t)t->pid : 0;
}

/* perf's machine__findnew_thread(pid, tid) on the task's thread: the pid
 * when first seen, or a pid given later while it was -1. */
static void see_pid(struct an_task *t, int64_t pid)
{
	if (!t->pid_seen || ((int32_t)t->pid == -1 && (int32_t)pid != -1)) {
		t->pid_seen = true;
		t->pid = pid;
	}
}

/* The task's name as timehist prints it now, in out. */
static const char *make_name_in(struct run *r, struct strbuf *out, const struct an_task *t,
				uint32_t tid)
{
	if (tid == 0)
		return an_timehist_name(r->s, out, "<idle>", 0, 0);
	char buf[24];
	const char *comm = buf;
	struct proc_thread *th = proc_machine_find_thread(&r->t.ses->machine, tid);
	if (th && th->comm && th->comm_set)
		comm = th->comm;
	else
		snprintf(buf, sizeof(buf), ":%d", (int)tid);
	return an_timehist_name(r->s, out, comm, tid, t->pid);
}

/* A switch-out of task t (tid) on cpu at ts, the CPU's previous switch at
 * tprev: perf's timehist_sched_change_event. */
/* perf's timehist marks these ignored and leaves them out of a chain */
static bool ignored_frame(const char *name)
{
	return !strcmp(name, "schedule") || !strcmp(name, "__schedule") ||
	       !strcmp(name, "preempt_schedule");
}

/* The call chain as perf's timehist ends a row: "  " then " name" for
 * the first frame and " <- name" for the next ones, at most max_stack + 2
 * frames resolved (the session's limit), the ignored ones left out. */
static const char *chain_text(struct run *r, const struct proc_sample *ps)
{
	struct proc_frame *frames;
	size_t n = proc_session_frames(r->t.ses, ps, &frames);
	bool first = true;
	sb_reset(&r->chain);
	sb_adds(&r->chain, "  ");
	for (size_t i = 0; i < n; i++) {
		const struct proc_frame *f = &frames[i];
		const char *name = f->inline_name ? f->inline_name
				   : f->sym ? f->sym->name : "[unknown]";
		if ((f->inline_name || f->sym) && ignored_frame(name))
			continue;
		sb_addf(&r->chain, "%s %s", first ? "" : " <-", name);
		first = false;
	}
	return r->chain.buf;
}

static void timehist_switch(struct run *r, struct an_task *t, uint32_t tid,
			    const struct proc_sample *ps, uint64_t tprev, char state)
{
	struct an_sched *s = r->s;
	uint32_t cpu = ps->s->cpu;
	uint64_t ts = ps->s->time;
	if (!s->hist_start)
		s->hist_start = ts;
	s->hist_end = ts;
	if (an_timehist_filtered(s, t->pid, tid)) {
		s->skipped++;
		return;
	}
	struct an_sched_row row = { .time = ts, .cpu = cpu, .idle = tid == 0, .state = state };
	if (tprev) {
		row.run = ts - tprev;
		if (t->ready_to_run && t->ready_to_run <= tprev)
			row.delay = tprev - t->ready_to_run;
		if (t->last_time && t->last_time <= tprev)
			row.wait = tprev - t->last_time;
	}
	if (an_cpuset_has(&s->th.cpus, cpu)) {
		an_runstats_add(&t->st, &row, t->last_state);
		if (s->th.rows) {
			row.name = make_name_in(r, &r->name, t, tid);
			if (tid && s->th.callchain && (ps->s->sample_type & PD_SAMPLE_CALLCHAIN))
				row.chain = chain_text(r, ps);
			an_timehist_row(s, &row);
		}
	}
	t->last_time = ts;
	t->last_state = state;
	t->ready_to_run = 0;   /* perf resets it at every switch-out */
}

static uint64_t *cpu_slot(struct an_sched *s, uint32_t cpu)
{
	if (cpu >= 4096)
		cpu = 4095;
	if (cpu >= s->ncpu) {
		size_t old = s->ncpu;
		XGROW(s->cpu_last, s->ncpu, (size_t)cpu + 1);
		memset(s->cpu_last + old, 0, (s->ncpu - old) * sizeof(*s->cpu_last));
	}
	return &s->cpu_last[cpu];
}

static int64_t *curr_slot(struct an_sched *s, uint32_t cpu)
{
	if (cpu >= 4096)
		cpu = 4095;
	if (cpu >= s->ncurr) {
		size_t old = s->ncurr;
		XGROW(s->cpu_curr, s->ncurr, (size_t)cpu + 1);
		for (size_t i = old; i < s->ncurr; i++)
			s->cpu_curr[i] = -1;
	}
	return &s->cpu_curr[cpu];
}

static int on_switch(struct run *r, const struct proc_sample *ps)
{
	const struct pd_sample *smp = ps->s;
	uint64_t prev_pid, prev_state, next_pid;
	bool swap = smp->rec && smp->rec->swap;
	if (an_tp_read_u64(&r->f.prev_pid, smp->raw, smp->raw_size, swap, &prev_pid) ||
	    an_tp_read_u64(&r->f.prev_state, smp->raw, smp->raw_size, swap, &prev_state) ||
	    an_tp_read_u64(&r->f.next_pid, smp->raw, smp->raw_size, swap, &next_pid)) {
		r->s->nr_bad++;
		return 0;
	}
	struct an_sched *s = r->s;
	s->nr_switch++;
	char state = state_char(prev_state);
	uint64_t ts = smp->time, *last = cpu_slot(s, smp->cpu), tprev = *last;
	*last = ts;
	int64_t *curr = curr_slot(s, smp->cpu);
	if (*curr != -1 && *curr != (int64_t)prev_pid)
		s->nr_cs_bugs++;
	*curr = (int64_t)next_pid;
	/* latency: keyed by the tracepoint's pids */
	struct an_task *out = task_of(s, (uint32_t)prev_pid, smp->cpu, NULL);
	sched_out(out, state, ts);
	bool added;
	struct an_task *in = task_of(s, (uint32_t)next_pid, smp->cpu, &added);
	if (added || in->state == AN_ATOM_NONE)
		sched_out(in, 'R', ts);
	sched_in(in, ts);
	if (!s->timehist)
		return 0;
	/* timehist: the task the sample belongs to */
	uint32_t tid = smp->pid == 0 ? 0 : (smp->tid ? smp->tid : smp->pid);
	if (smp->pid && smp->pid != tid)   /* perf also makes the main thread */
		see_pid(task_of(s, smp->pid, smp->cpu, NULL), smp->pid);
	struct an_task *th = task_of(s, tid, smp->cpu, NULL);
	see_pid(th, smp->pid);
	if (tid == 0 && smp->cpu >= s->nr_idle_slots) {
		/* perf's idle threads grow to a power of two */
		uint32_t n = 1;
		while (n <= smp->cpu)
			n *= 2;
		s->nr_idle_slots = n;
	}
	timehist_switch(r, th, tid, ps, tprev, state);
	return 0;
}

static void on_runtime(struct run *r, const struct pd_sample *smp)
{
	uint64_t pid, runtime;
	bool swap = smp->rec && smp->rec->swap;
	if (an_tp_read_u64(&r->f.rt_pid, smp->raw, smp->raw_size, swap, &pid) ||
	    an_tp_read_u64(&r->f.rt_runtime, smp->raw, smp->raw_size, swap, &runtime)) {
		r->s->nr_bad++;
		return;
	}
	r->s->nr_runtime++;
	bool added;
	struct an_task *t = task_of(r->s, (uint32_t)pid, smp->cpu, &added);
	if (added || t->state == AN_ATOM_NONE)
		sched_out(t, 'R', smp->time);
	t->runtime += runtime;
}

/* timehist -w: "awakened" line, the waker being the sample's task; left
 * out when -p/-t leave out both (each check counts as perf's) */
static void wakeup_row(struct run *r, const struct pd_sample *smp, size_t wakee_id,
		       uint32_t wakee_tid)
{
	struct an_sched *s = r->s;
	uint32_t tid = smp->pid == 0 ? 0 : (smp->tid ? smp->tid : smp->pid);
	int64_t pid = 0;
	size_t waker_id = 0;
	if (tid) {
		struct an_task *w = task_of(s, tid, smp->cpu, NULL);
		see_pid(w, smp->pid);
		pid = w->pid;
		waker_id = (size_t)(w - s->task);
	}
	const struct an_task *wakee = &s->task[wakee_id];
	if (an_timehist_filtered(s, pid, tid) && (s->skipped++, true) &&
	    an_timehist_filtered(s, wakee->pid, wakee_tid)) {
		s->skipped++;
		return;
	}
	/* perf names the waker through its machine's thread 0, which it
	 * calls "swapper"; only switch rows use the per-CPU "<idle>" */
	const char *name = tid ? make_name_in(r, &r->name, &s->task[waker_id], tid)
			       : an_timehist_name(s, &r->name, "swapper", 0, 0);
	struct an_sched_row row = { .time = smp->time, .cpu = smp->cpu, .idle = tid == 0,
				    .name = name, .width = s->comm_width };
	row.wakee = make_name_in(r, &r->name2, wakee, wakee_tid);
	an_timehist_row(s, &row);
}

static void on_wakeup(struct run *r, const struct pd_sample *smp, int which)
{
	uint64_t pid;
	bool swap = smp->rec && smp->rec->swap;
	if (an_tp_read_u64(&r->f.wk_pid[which], smp->raw, smp->raw_size, swap, &pid)) {
		r->s->nr_bad++;
		return;
	}
	struct an_sched *s = r->s;
	s->nr_wakeup++;
	bool added;
	struct an_task *t = task_of(s, (uint32_t)pid, smp->cpu, &added);
	if (!t->pid_seen)   /* perf: findnew(0, pid) */
		see_pid(t, known_pid(r, (uint32_t)pid));
	else
		see_pid(t, 0);
	if (t->ready_to_run == 0)
		t->ready_to_run = smp->time;
	if (s->timehist && s->th.wakeups && s->th.rows) {
		size_t id = (size_t)(t - s->task);
		wakeup_row(r, smp, id, (uint32_t)pid);
		/* the waker's entry may have moved s->task */
		t = &s->task[id];
	}
	if (which == 1)        /* perf sched latency ignores sched_waking */
		return;
	if (added || t->state == AN_ATOM_NONE)
		sched_out(t, 'S', smp->time);
	if (t->state != AN_ATOM_SLEEPING)
		return;
	s->nr_timestamps++;
	if (t->sched_out > smp->time) {
		s->nr_unordered++;
		return;
	}
	t->state = AN_ATOM_WAIT_CPU;
	t->wake_up = smp->time;
}

/* ---- setup ---- */

static int find_fields(void *ctx)
{
	struct run *r = ctx;
	static const char *wk[3] = { "sched:sched_wakeup", "sched:sched_waking",
				     "sched:sched_wakeup_new" };
	struct fields *f = &r->f;
	f->sw = an_tp_event_by_name(&r->t.tp, "sched:sched_switch");
	if (!f->sw || !an_tp_field(f->sw, "prev_pid", &f->prev_pid) ||
	    !an_tp_field(f->sw, "prev_state", &f->prev_state) ||
	    !an_tp_field(f->sw, "next_pid", &f->next_pid)) {
		diag_set(r->t.d, "no sched:sched_switch events with prev_pid, prev_state "
			 "and next_pid fields (record with perf sched record)");
		return -EINVAL;
	}
	f->rt = an_tp_event_by_name(&r->t.tp, "sched:sched_stat_runtime");
	f->have_rt = f->rt && an_tp_field(f->rt, "pid", &f->rt_pid) &&
		     an_tp_field(f->rt, "runtime", &f->rt_runtime);
	for (int i = 0; i < 3; i++) {
		f->wk[i] = an_tp_event_by_name(&r->t.tp, wk[i]);
		f->have_wk[i] = f->wk[i] && an_tp_field(f->wk[i], "pid", &f->wk_pid[i]);
	}
	return 0;
}

static int on_event(void *ctx, struct tep_event *ev, const struct proc_sample *ps)
{
	struct run *r = ctx;
	struct an_sched *s = r->s;
	const struct pd_sample *smp = ps->s;
	if (s->timehist && smp->cpu > s->max_cpu && smp->cpu < AN_SCHED_MAX_CPUS)
		s->max_cpu = smp->cpu;
	if (ev == r->f.sw)
		on_switch(r, ps);
	if (ev == r->f.rt && r->f.have_rt)
		on_runtime(r, smp);
	for (int i = 0; i < 3; i++)
		if (ev == r->f.wk[i] && r->f.have_wk[i])
			on_wakeup(r, smp, i);
	if (s->timehist && s->out->len > 65536 && s->flush(s->ctx, s->out) < 0) {
		r->err = -EIO;
		return -EIO;
	}
	return 0;
}

/* perf's machine makes a new thread for tid (pid as given): the task so
 * far, if any, is retired with its name and exit of now; the new one
 * takes the tid. */
static void retire(struct run *r, uint32_t tid, uint32_t pid)
{
	struct an_sched *s = r->s;
	uint64_t key = tid;
	size_t id = hmap_find(&s->tasks, &key, sizeof(key));
	if (id == (size_t)-1)
		return;
	struct an_task *old = &s->task[hmap_at(&s->tasks, id)->value];
	struct proc_thread *th = proc_machine_find_thread(&r->t.ses->machine, tid);
	old->comm = th && th->comm ? arena_strdup(&s->tasks.keys, th->comm) : NULL;
	old->ptid = th ? th->ptid : -1;
	old->retired = true;
	old->retire_seq = ++s->nretired;
	XGROW(s->task, s->task_cap, s->ntask + 1);
	hmap_at(&s->tasks, id)->value = s->ntask;
	struct an_task *t = &s->task[s->ntask++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->state = AN_ATOM_NONE;
	t->ptid = -1;
	t->pid = pid;
	t->pid_seen = true;
}

/* A FORK record, before the machine applies it: perf replaces the
 * child's thread, and (timehist) a parent thread it knew under another
 * pid (one first seen being woken has pid 0 there). An EXIT marks the
 * task's thread exited (perf's thread may exist where the machine's does
 * not yet: made when the task was woken). */
static int on_task(void *ctx, const struct pd_task *task)
{
	struct run *r = ctx;
	struct an_sched *s = r->s;
	uint64_t key = task->exit ? task->tid : task->ptid;
	if (task->exit && !s->timehist)
		return 0;
	if (task->exit) {
		/* perf has a thread for it after a COMM or FORK, or once
		 * timehist met the task (pid_seen) */
		size_t id = task->tid ? hmap_find(&s->tasks, &key, sizeof(key)) : (size_t)-1;
		struct proc_thread *th = proc_machine_find_thread(&r->t.ses->machine, task->tid);
		bool known = th && (th->comm_set || th->nfork);
		if (id != (size_t)-1 && (known || s->task[hmap_at(&s->tasks, id)->value].pid_seen))
			s->task[hmap_at(&s->tasks, id)->value].exited = true;
		else if (task->tid && known)
			task_of(s, task->tid, 0, NULL)->exited = true;
		return 0;
	}
	size_t id = task->ptid ? hmap_find(&s->tasks, &key, sizeof(key)) : (size_t)-1;
	if (s->timehist && id != (size_t)-1) {
		const struct an_task *p = &s->task[hmap_at(&s->tasks, id)->value];
		if (p->pid_seen && p->pid != (int64_t)task->ppid)
			retire(r, task->ptid, task->ppid);
	}
	if (task->tid)
		retire(r, task->tid, task->pid);
	return 0;
}

/* timehist: perf prints a line for each LOST record among the rows */
static int on_lost(void *ctx, const struct pd_lost *l)
{
	struct run *r = ctx;
	struct an_sched *s = r->s;
	int cpu = l->sid.present & PD_SAMPLE_CPU ? (int)l->sid.cpu : -1;
	an_timehist_lost(s, l->sid.time, cpu, l->lost);
	if (s->out->len > 65536 && s->flush(s->ctx, s->out) < 0) {
		r->err = -EIO;
		return -EIO;
	}
	return 0;
}

static void final_names(struct an_sched *s, struct proc_session *ses)
{
	for (size_t i = 0; i < s->ntask; i++) {
		struct an_task *t = &s->task[i];
		if (t->retired)
			continue;      /* named when retired */
		struct proc_thread *th = t->tid ? proc_machine_find_thread(&ses->machine, t->tid) : NULL;
		t->comm = th && th->comm ? arena_strdup(&s->tasks.keys, th->comm) : NULL;
		if (th && !t->idle)
			t->ptid = th->ptid;
	}
}

int an_sched_read(struct an_sched *s, const char *path, const struct sym_config *cfg,
		  struct diag *d)
{
	struct proc_session ses;
	struct run r = { .s = s, .name = SB_INIT, .name2 = SB_INIT, .chain = SB_INIT };
	an_tpsession_init(&r.t, &ses, d);
	r.t.find_fields = find_fields;
	r.t.on_event = on_event;
	if (s->timehist)   /* perf prints them with -s too */
		r.t.on_lost = on_lost;
	r.t.on_task = on_task;
	r.t.ctx = &r;
	struct proc_session_opts sopts = PROC_SESSION_OPTS_INIT;
	sopts.lazy = true; /* frames only for timehist's call chains */
	if (s->timehist && s->th.callchain) {
		sopts.max_stack = (size_t)s->th.max_stack + 2; /* as perf resolves them */
		sopts.no_mmap2 = true; /* perf's timehist maps only MMAP records */
	}
	int rc = proc_session_open(&ses, path, cfg, &sopts);
	if (rc < 0) {
		*d = ses.diag;
		goto out;
	}
	if (s->timehist) {
		/* perf: CPUs online as the header says, else 4 */
		const struct pd_features *f = pd_reader_features(ses.reader);
		s->nr_online = f && f->nrcpus_online ? f->nrcpus_online : 4;
		if (s->nr_online > AN_SCHED_MAX_CPUS)
			s->nr_online = AN_SCHED_MAX_CPUS;
		s->max_cpu = s->nr_online;
		s->nr_idle_slots = s->nr_online;
		s->comm_width = 30;
		if (s->th.rows)
			an_timehist_header(s);
	}
	rc = an_tpsession_run(&r.t, "no tracing data (event formats) in the file; record with "
			      "perf sched record");
	if (r.err)
		rc = r.err;
	if (rc >= 0)
		final_names(s, &ses);
	s->have_runtime = r.f.have_rt;
	s->nr_lost = ses.nr_lost;
	rc = rc > 0 ? -EIO : rc;
out:
	if (ses.reader)
		pd_reader_dropped(ses.reader, &s->dropped);
	proc_session_close(&ses);
	an_tpsession_release(&r.t);
	sb_release(&r.name);
	sb_release(&r.name2);
	sb_release(&r.chain);
	return rc;
}
