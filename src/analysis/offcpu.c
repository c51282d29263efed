/*
 * offcpu: off-CPU time per stack from sched_switch samples (see offcpu.h).
 * Stage: analysis. Times are summed in nanoseconds per distinct stack and
 * converted to the output unit once at the end, so rounding does not
 * accumulate. Key invariant: a RAW field is read only through
 * an_tp_read_u64; a switch whose payload is short is counted, not used.
 */
#include "analysis/offcpu.h"

#include "analysis/stackname.h"
#include "analysis/tpsession.h"
#include "base/opt.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "perfdata/feature.h"
#include "process/session.h"

#include <errno.h>
#include <event-parse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void an_offcpu_init(struct an_offcpu *a, const struct an_offcpu_opts *o)
{
	memset(a, 0, sizeof(*a));
	a->o = *o;
	collapse_opts_finish(&a->o.collapse);
	hmap_init(&a->stacks);
	hmap_init(&a->tasks);
}

void an_offcpu_release(struct an_offcpu *a)
{
	hmap_release(&a->stacks);
	hmap_release(&a->tasks);
	free(a->task);
	memset(a, 0, sizeof(*a));
}

static struct an_offtask *task_of(struct an_offcpu *a, uint32_t tid)
{
	bool added;
	size_t id = hmap_put(&a->tasks, &tid, sizeof(tid), &added);
	XGROW(a->task, a->task_cap, id + 1);
	if (added)
		memset(&a->task[id], 0, sizeof(a->task[id]));
	return &a->task[id];
}

struct run {
	struct an_offcpu *a;
	struct an_tpsession t;
	struct tep_event *sw, *wk[3];
	struct an_tp_field prev_pid, prev_state, next_pid, wk_pid[3];
	bool have_wk[3];
	struct an_stackname names;
	struct strbuf key;
};

/* Stacks are kept per task (key: the tid, a byte saying whether the task
 * was still the recorder's child before its exec, then the folded
 * stack): which tasks belong to the command is known only once it has
 * exec'd, so the choice is made at the end (mark_tasks, an_offcpu_table). */
static uint32_t stack_id(struct run *r, const struct proc_sample *ps, uint32_t tid)
{
	size_t len;
	const char *s = an_stackname_of(&r->names, ps, &len);
	uint8_t prep = proc_recorder_child(ps->thread->comm); /* before its exec */
	sb_reset(&r->key);
	sb_add(&r->key, &tid, sizeof(tid));
	sb_add(&r->key, &prep, 1);
	sb_add(&r->key, s, len);
	return (uint32_t)hmap_put(&r->a->stacks, r->key.buf, r->key.len, NULL);
}

/* After the replay: keep the tasks of the recorded command's process
 * tree (every task with all, or when no command was found). */
static void mark_tasks(struct an_offcpu *a, struct proc_session *ses)
{
	struct proc_machine *m = &ses->machine;
	const struct pd_features *f = pd_reader_features(ses->reader);
	proc_machine_choose_command(m, f ? f->cmdline : NULL, f ? f->cmdline_nr : 0);
	a->command_pid = m->command_pid;
	for (size_t i = 0; i < a->tasks.count; i++) {
		uint32_t tid;
		memcpy(&tid, a->tasks.entries[i].key, sizeof(tid));
		struct an_offtask *t = &a->task[i];
		t->keep = a->o.all || !m->command_pid ||
			  proc_machine_in_command(m, proc_machine_find_thread(m, tid));
	}
}

/* ---- events ---- */

static void switch_in(struct an_offcpu *a, uint32_t tid, uint64_t ts)
{
	if (tid == 0)
		return;
	struct an_offtask *t = task_of(a, tid);
	if (!t->off)
		return;
	uint64_t end = a->o.until_wakeup && t->wake ? t->wake : ts;
	if (end > t->out)
		hmap_at(&a->stacks, t->stack)->value += end - t->out;
	a->nr_added++;
	t->off = false;
}

static int on_switch(struct run *r, const struct proc_sample *ps)
{
	const struct pd_sample *s = ps->s;
	uint64_t prev_pid, prev_state, next_pid;
	bool swap = s->rec && s->rec->swap;
	if (an_tp_read_u64(&r->prev_pid, s->raw, s->raw_size, swap, &prev_pid) ||
	    an_tp_read_u64(&r->prev_state, s->raw, s->raw_size, swap, &prev_state) ||
	    an_tp_read_u64(&r->next_pid, s->raw, s->raw_size, swap, &next_pid)) {
		r->a->nr_bad++;
		return 0;
	}
	struct an_offcpu *a = r->a;
	a->nr_switch++;
	bool comm_ok = !a->o.comms || opt_list_has(a->o.comms, ps->thread->comm);
	if (prev_pid != 0 && comm_ok && !(a->o.no_preempt && prev_state == 0)) {
		struct an_offtask *t = task_of(a, (uint32_t)prev_pid);
		t->out = s->time;
		t->wake = 0;
		t->stack = stack_id(r, ps, (uint32_t)prev_pid);
		t->off = true;
	}
	switch_in(a, (uint32_t)next_pid, s->time);
	return 0;
}

static void on_wakeup(struct run *r, const struct pd_sample *s, int which)
{
	uint64_t pid;
	bool swap = s->rec && s->rec->swap;
	if (an_tp_read_u64(&r->wk_pid[which], s->raw, s->raw_size, swap, &pid))
		return;
	uint32_t tid = (uint32_t)pid;
	size_t id = hmap_find(&r->a->tasks, &tid, sizeof(tid));
	if (id != (size_t)-1 && r->a->task[id].off && !r->a->task[id].wake)
		r->a->task[id].wake = s->time;
}

static int on_event(void *ctx, struct tep_event *ev, const struct proc_sample *ps)
{
	struct run *r = ctx;
	if (ev == r->sw)
		return on_switch(r, ps);
	for (int i = 0; i < 3; i++)
		if (ev == r->wk[i] && r->have_wk[i])
			on_wakeup(r, ps->s, i);
	return 0;
}

static int find_fields(void *ctx)
{
	struct run *r = ctx;
	static const char *wk[3] = { "sched:sched_wakeup", "sched:sched_waking",
				     "sched:sched_wakeup_new" };
	r->sw = an_tp_event_by_name(&r->t.tp, "sched:sched_switch");
	if (!r->sw || !an_tp_field(r->sw, "prev_pid", &r->prev_pid) ||
	    !an_tp_field(r->sw, "prev_state", &r->prev_state) ||
	    !an_tp_field(r->sw, "next_pid", &r->next_pid)) {
		diag_set(r->t.d, "no sched:sched_switch events (record with "
			 "perf record -e sched:sched_switch -a -g, or scorch record --offcpu)");
		return -EINVAL;
	}
	for (int i = 0; i < 3; i++) {
		r->wk[i] = an_tp_event_by_name(&r->t.tp, wk[i]);
		r->have_wk[i] = r->wk[i] && an_tp_field(r->wk[i], "pid", &r->wk_pid[i]);
	}
	return 0;
}

int an_offcpu_read(struct an_offcpu *a, const char *path,
		   const struct sym_config *cfg, struct diag *d)
{
	struct proc_session ses;
	struct run r = { .a = a };
	an_tpsession_init(&r.t, &ses, d);
	r.t.find_fields = find_fields;
	r.t.on_event = on_event;
	r.t.ctx = &r;
	an_stackname_init(&r.names, &a->o.collapse);
	sb_init(&r.key);
	int rc = proc_session_open(&ses, path, cfg, NULL);
	if (rc < 0) {
		*d = ses.diag;
		goto out;
	}
	rc = an_tpsession_run(&r.t, "no tracing data (event formats) in the file; record "
			      "sched:sched_switch with perf record -e or scorch record --offcpu");
	if (rc < 0)
		goto out;
	mark_tasks(a, &ses);
	for (size_t i = 0; i < a->tasks.count; i++)
		a->nr_open += a->task[i].off && a->task[i].keep;
	rc = rc > 0 ? -EIO : rc;
out:
	if (ses.reader)
		pd_reader_dropped(ses.reader, &a->dropped);
	proc_session_close(&ses);
	an_tpsession_release(&r.t);
	an_stackname_release(&r.names);
	sb_release(&r.key);
	return rc;
}

void an_offcpu_table(struct an_offcpu *a, uint64_t unit_ns, struct stack_table *t)
{
	struct hmap sum;   /* stack -> ns over the kept tasks */
	hmap_init(&sum);
	a->total_ns = 0;
	for (size_t i = 0; i < a->stacks.count; i++) {
		const struct hmap_entry *e = &a->stacks.entries[i];
		uint32_t tid;
		memcpy(&tid, e->key, sizeof(tid));
		size_t task = hmap_find(&a->tasks, &tid, sizeof(tid));
		bool prep = e->key[sizeof(tid)];
		if (task == (size_t)-1 || !a->task[task].keep || !e->value ||
		    (prep && a->command_pid && !a->o.all))
			continue;
		size_t id = hmap_put(&sum, e->key + sizeof(tid) + 1,
				     e->len - sizeof(tid) - 1, NULL);
		hmap_at(&sum, id)->value += e->value;
		a->total_ns += e->value;
	}
	for (size_t i = 0; i < sum.count; i++) {
		const struct hmap_entry *e = &sum.entries[i];
		uint64_t v = (e->value + unit_ns / 2) / unit_ns;
		if (v)
			stack_table_add(t, e->key, e->len, v);
	}
	hmap_release(&sum);
}
