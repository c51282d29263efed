/*
 * timehist: the lines of perf sched timehist (rows, wakeups, the header)
 * and its summary (-s/-S), from the numbers analysis/sched computes.
 * Stage: analysis (numbers -> text in a strbuf; no I/O).
 * Key invariant: the layout is perf 6.1's byte for byte: the task column
 * is 30 wide and widens for a longer name (perf's comm_width), times are
 * msec.usec truncated, the summary lists tasks in perf's thread-table
 * order (tid modulo 256, then tid), live ones first, then the exited.
 */
#include "analysis/sched.h"

#include "base/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char dashes[] = "-----------------------------------------------------"
			     "-----------------------------------------------------"
			     "-----------------------------------------------------";

static void add_secs(struct strbuf *out, const char *fmt, uint64_t ns)
{
	char t[40];
	snprintf(t, sizeof(t), "%llu.%06llu", (unsigned long long)(ns / 1000000000),
		 (unsigned long long)(ns % 1000000000 / 1000));
	sb_addf(out, fmt, t);
}

/* perf's print_sched_time: msec.usec, the msec part width wide, a space */
static void msec(struct strbuf *out, uint64_t ns, int width)
{
	sb_addf(out, "%*llu.%03llu ", width, (unsigned long long)(ns / 1000000),
		(unsigned long long)(ns % 1000000 / 1000));
}

static uint32_t ncpus(const struct an_sched *s)
{
	return s->max_cpu + 1;
}

void an_timehist_header(struct an_sched *s)
{
	struct strbuf *out = s->out;
	int w = s->comm_width;
	sb_addf(out, "%15s %6s ", "time", "cpu");
	if (s->th.visual) {
		sb_addc(out, ' ');
		for (uint32_t i = 0; i < ncpus(s); i++)
			sb_addf(out, "%x", i % 16);
		sb_addc(out, ' ');
	}
	sb_addf(out, " %-*s  %9s  %9s  %9s", w, "task name", "wait time", "sch delay", "run time");
	if (s->th.state)
		sb_adds(out, "  state");
	sb_addf(out, "\n%15s %-6s ", "", "");
	if (s->th.visual)
		sb_addf(out, " %*s ", (int)ncpus(s), "");
	sb_addf(out, " %-*s  %9s  %9s  %9s", w, "[tid/pid]", "(msec)", "(msec)", "(msec)");
	if (s->th.state)
		sb_addf(out, "  %5s", "");
	sb_addf(out, "\n%.15s %.6s ", dashes, dashes);
	if (s->th.visual)
		sb_addf(out, " %.*s ", (int)ncpus(s), dashes);
	sb_addf(out, " %.*s  %.9s  %.9s  %.9s", w, dashes, dashes, dashes, dashes);
	if (s->th.state)
		sb_addf(out, "  %.5s", dashes);
	sb_addc(out, '\n');
}

const char *an_timehist_name(struct an_sched *s, struct strbuf *buf,
			     const char *comm, uint32_t tid, int64_t pid)
{
	/* perf prints ids signed: a tid of (u32)-1 shows as -1 */
	sb_reset(buf);
	sb_adds(buf, comm);
	if (pid > 0 && pid != (int64_t)tid)
		sb_addf(buf, "[%d/%d]", (int)tid, (int)pid);
	else if (pid > 0)
		sb_addf(buf, "[%d]", (int)tid);
	if (buf->len > 31)     /* perf formats into 32 bytes */
		sb_setlen(buf, 31);
	if ((int)buf->len > s->comm_width)
		s->comm_width = (int)buf->len;
	return buf->buf;
}

void an_timehist_row(struct an_sched *s, const struct an_sched_row *r)
{
	struct strbuf *out = s->out;
	add_secs(out, "%15s ", r->time);
	sb_addf(out, "[%04u] ", r->cpu);
	if (s->th.visual && r->wakee) {
		sb_addf(out, " %*s ", (int)ncpus(s), "");
	} else if (s->th.visual) {
		sb_addc(out, ' ');
		for (uint32_t i = 0; i < ncpus(s); i++)
			sb_addc(out, i != r->cpu ? ' ' : r->idle ? 'i' : 's');
		sb_addc(out, ' ');
	}
	sb_addf(out, " %-*s ", r->width ? r->width : s->comm_width, r->name);
	if (r->wakee) {
		sb_addf(out, "  %9s  %9s  %9s awakened: %s\n", "", "", "", r->wakee);
		return;
	}
	msec(out, r->wait, 6);
	msec(out, r->delay, 6);
	msec(out, r->run, 6);
	if (s->th.state)
		sb_addf(out, " %5c ", r->idle ? 'I' : r->state);
	if (s->th.wakeups)
		sb_addf(out, "  %-*s", s->comm_width, "");
	if (r->chain)
		sb_adds(out, r->chain);
	sb_addc(out, '\n');
}

void an_timehist_lost(struct an_sched *s, uint64_t time, int cpu, uint64_t lost)
{
	add_secs(s->out, "%15s ", time);
	sb_addf(s->out, "lost %llu events on cpu %d\n", (unsigned long long)lost, cpu);
}

void an_runstats_add(struct an_runstats *st, const struct an_sched_row *r,
		     char last_state)
{
	if (st->n == 0)
		st->min = UINT64_MAX;
	st->n++;
	double delta = (double)r->run - st->mean;
	st->mean += delta / st->n;
	st->m2 += delta * ((double)r->run - st->mean);
	if (r->run > st->max)
		st->max = r->run;
	if (r->run < st->min)
		st->min = r->run;
	st->run += r->run;
	st->delay += r->delay;
	if (last_state == 'R')
		st->preempt += r->wait;
	else if (last_state == 'D')
		st->iowait += r->wait;
	else
		st->sleep += r->wait;
}

bool an_timehist_filtered(const struct an_sched *s, int64_t pid, uint32_t tid)
{
	return (s->th.pids.n && !an_idlist_has(&s->th.pids, (int32_t)pid)) ||
	       (s->th.tids.n && !an_idlist_has(&s->th.tids, (int32_t)tid));
}

/* ---- summary ---- */

/* perf's stddev of the mean, relative to the mean, in percent (a float) */
static float rel_stddev(const struct an_runstats *st)
{
	if (st->n < 2 || st->mean == 0)
		return 0;
	double var = st->m2 / (st->n - 1);
	return (float)(100.0 * sqrt(var / st->n) / st->mean);
}

static void task_line(struct an_sched *s, const struct an_task *t, struct strbuf *name)
{
	struct strbuf *out = s->out;
	char buf[24];
	const char *comm = t->comm;
	if (!comm) {
		snprintf(buf, sizeof(buf), ":%d", (int)t->tid);
		comm = buf;
	}
	an_timehist_name(s, name, comm, t->tid, t->pid);
	sb_addf(out, "%*s   %5d  %9llu ", s->comm_width, name->buf, (int)t->ptid,
		(unsigned long long)t->st.n);
	msec(out, t->st.run, 8);
	if (s->th.state) {
		msec(out, t->st.sleep, 6);
		sb_addc(out, ' ');
		msec(out, t->st.iowait, 6);
		sb_addc(out, ' ');
		msec(out, t->st.preempt, 6);
		sb_addc(out, ' ');
		msec(out, t->st.delay, 6);
	} else {
		msec(out, t->st.min, 6);
		sb_addc(out, ' ');
		msec(out, (uint64_t)t->st.mean, 6);
		sb_addc(out, ' ');
		msec(out, t->st.max, 6);
		sb_addf(out, "  %5.2f   %5llu", rel_stddev(&t->st), 0ULL);
	}
	sb_addc(out, '\n');
}

/* perf's machine thread table: tid modulo 256, then tid (signed) */
static int cmp_table(const void *a, const void *b)
{
	const struct an_task *x = *(const struct an_task *const *)a;
	const struct an_task *y = *(const struct an_task *const *)b;
	uint32_t bx = x->tid % 256, by = y->tid % 256;
	if (bx != by)
		return bx < by ? -1 : 1;
	if (x->retired != y->retired)   /* a bucket's dead list comes last */
		return x->retired ? 1 : -1;
	if (x->retired)
		return x->retire_seq < y->retire_seq ? -1 : 1;
	return ((int32_t)x->tid > (int32_t)y->tid) - ((int32_t)x->tid < (int32_t)y->tid);
}

/* The tasks listed, in perf's order; returns how many. */
static size_t listed_tasks(const struct an_sched *s, const struct an_task **list)
{
	size_t n = 0;
	for (size_t i = 0; i < s->ntask; i++) {
		const struct an_task *t = &s->task[i];
		if (!t->idle && t->st.n && !an_timehist_filtered(s, t->pid, t->tid))
			list[n++] = t;
	}
	qsort(list, n, sizeof(*list), cmp_table);
	return n;
}

static void idle_stats(struct an_sched *s, uint64_t hist, uint64_t *switches)
{
	sb_adds(s->out, "\nIdle stats:\n");
	for (uint32_t cpu = 0; cpu < s->nr_idle_slots; cpu++) {
		if (!an_cpuset_has(&s->th.cpus, cpu))
			continue;
		uint64_t key = (uint64_t)1 << 32 | cpu;
		size_t id = hmap_find(&s->tasks, &key, sizeof(key));
		const struct an_task *t = id == (size_t)-1 ? NULL
					  : &s->task[hmap_at(&s->tasks, id)->value];
		if ((!t || !t->pid_seen) && cpu >= s->nr_online)
			continue;      /* perf has no idle thread there */
		if (!t || !t->st.n) {
			sb_addf(s->out, "    CPU %2u idle entire time window\n", cpu);
			continue;
		}
		*switches += (uint64_t)t->st.n;
		sb_addf(s->out, "    CPU %2u idle for ", cpu);
		msec(s->out, t->st.run, 6);
		sb_addf(s->out, " msec  (%6.2f%%)\n", 100.0 * (double)t->st.run / (double)hist);
	}
}

void an_timehist_opts_init(struct an_timehist_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->rows = o->callchain = true;
	o->max_stack = 5;
}

void an_timehist_summary(struct an_sched *s)
{
	struct strbuf *out = s->out, name = SB_INIT;
	const struct an_task **list = xcalloc(s->ntask + 1, sizeof(*list));
	size_t n = listed_tasks(s, list);
	uint64_t hist = s->hist_end - s->hist_start, tasks = 0, switches = 0, run = 0;
	sb_addf(out, "\n%s summary\n", s->th.state ? "Wait-time" : "Runtime");
	sb_addf(out, "%*s  parent   sched-in  ", s->comm_width, "comm");
	sb_adds(out, s->th.state ? "   run-time      sleep      iowait     preempt       delay\n"
		: "   run-time    min-run     avg-run     max-run  stddev  migrations\n");
	sb_addf(out, "%*s            (count)  ", s->comm_width, "");
	sb_addf(out, "     (msec)     (msec)      (msec)      (msec)       %s\n",
		s->th.state ? "(msec)" : "%");
	sb_addf(out, "%.117s\n", dashes);
	for (int dead = 0; dead < 2; dead++) {
		if (dead)
			sb_adds(out, "\nTerminated tasks:\n");
		uint64_t before = tasks;
		for (size_t i = 0; i < n; i++) {
			if (list[i]->exited != dead)
				continue;
			task_line(s, list[i], &name);
			tasks++;
			switches += (uint64_t)list[i]->st.n;
			run += list[i]->st.run;
		}
		if (tasks == before)
			sb_adds(out, dead ? "<no terminated tasks>\n" : "<no still running tasks>\n");
	}
	if (!s->skipped) {
		idle_stats(s, hist, &switches);
		sb_addf(out, "\n    Total number of unique tasks: %llu\n"
			"Total number of context switches: %llu\n",
			(unsigned long long)tasks, (unsigned long long)switches);
		sb_adds(out, "           Total run time (msec): ");
		msec(out, run, 2);
		sb_adds(out, "\n    Total scheduling time (msec): ");
		msec(out, hist, 2);
		sb_addf(out, " (x %u)\n", s->max_cpu);
	}
	sb_release(&name);
	free(list);
}
