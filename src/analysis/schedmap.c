/*
 * schedmap: perf sched map (see schedmap.h).
 * Stage: analysis. Per task: its short name and the FORK and COMM counts
 * of its thread when it was last named (a change means perf's thread is
 * new, or renamed); per CPU: the task last switched in.
 * Key invariant: a RAW field is read only through an_tp_read_u64.
 */
#include "analysis/schedmap.h"

#include "analysis/tpsession.h"
#include "base/xalloc.h"
#include "process/session.h"

#include <errno.h>
#include <event-parse.h>
#include <stdlib.h>
#include <string.h>

#define COLOR_PIDS "\033[34m"   /* perf's PERF_COLOR_BLUE */
#define COLOR_CPUS "\033[41m"   /* PERF_COLOR_BG_RED */
#define COLOR_RESET "\033[m"

struct map_task {
	uint32_t tid;
	char name[3];           /* short name, "" until given */
	uint32_t nfork, ncomm;  /* of the thread when last named */
};

struct map_run {
	const struct an_schedmap_opts *o;
	struct an_tpsession t;
	struct tep_event *sw;
	struct an_tp_field next_pid;
	struct hmap tasks;      /* key: tid -> index in task */
	struct map_task *task;
	size_t task_cap;
	int32_t curr[AN_SCHED_MAX_CPUS];   /* task index, -1 none */
	uint32_t comp[AN_SCHED_MAX_CPUS];  /* --compact: CPUs in order seen */
	size_t ncomp;
	uint64_t seen[AN_SCHED_MAX_CPUS / 64]; /* --compact: CPUs in comp */
	uint32_t max_cpu;
	char next1, next2;      /* the next short name */
	uint64_t nr_lost, nr_lost_chunks;  /* LOST records: events, records */
	struct strbuf *out;
	an_sched_flush_fn flush;
	void *ctx;
	int err;
};

static struct map_task *task_of(struct map_run *r, uint32_t tid, size_t *idx)
{
	bool added;
	size_t id = hmap_put(&r->tasks, &tid, sizeof(tid), &added);
	XGROW(r->task, r->task_cap, id + 1);
	if (added) {
		memset(&r->task[id], 0, sizeof(r->task[id]));
		r->task[id].tid = tid;
	}
	*idx = id;
	return &r->task[id];
}

static void colored(struct map_run *r, const char *color, const char *fmt,
		    const char *s)
{
	bool on = r->o->color && color;
	if (on)
		sb_adds(r->out, color);
	sb_addf(r->out, fmt, s);
	if (on)
		sb_adds(r->out, COLOR_RESET);
}

static bool colored_tid(const struct map_run *r, uint32_t tid)
{
	return r->o->color_pids.n && an_idlist_has(&r->o->color_pids, (int32_t)tid);
}

/* The CPU columns: cpus_nr of them (perf's count, see schedmap.h). */
static void columns(struct map_run *r, uint32_t this_cpu, size_t cpus_nr)
{
	for (size_t i = 0; i < cpus_nr; i++) {
		uint32_t cpu = r->o->compact ? r->comp[i] : (uint32_t)i;
		if (cpu >= AN_SCHED_MAX_CPUS || !an_cpuset_has(&r->o->cpus, cpu))
			continue;
		int32_t cur = r->curr[cpu];
		const char *cpu_color = cpu == this_cpu &&
			r->o->color_cpus.set && an_cpuset_has(&r->o->color_cpus, cpu) ?
			COLOR_CPUS : NULL;
		colored(r, cpu_color, "%s", cpu == this_cpu ? "*" : " ");
		if (cur < 0) {
			sb_adds(r->out, "   ");
			continue;
		}
		const char *pid_color = colored_tid(r, r->task[cur].tid) ? COLOR_PIDS : NULL;
		colored(r, pid_color, "%2s ", r->task[cur].name);
	}
}

static void next_name(struct map_run *r, char *name)
{
	name[0] = r->next1;
	name[1] = r->next2;
	name[2] = 0;
	if (r->next1 < 'Z') {
		r->next1++;
	} else {
		r->next1 = 'A';
		r->next2 = r->next2 < '9' ? (char)(r->next2 + 1) : '0';
	}
}

static int map_line(struct map_run *r, const struct pd_sample *smp, uint32_t next)
{
	uint32_t cpu = smp->cpu;
	if (cpu > r->max_cpu)
		r->max_cpu = cpu;
	bool new_cpu = false;
	uint64_t bit = (uint64_t)1 << (cpu % 64);
	if (r->o->compact && !(r->seen[cpu / 64] & bit)) {
		r->seen[cpu / 64] |= bit;
		r->comp[r->ncomp++] = cpu;
		new_cpu = true;
	}
	size_t cpus_nr = r->o->compact ? r->ncomp : r->max_cpu;
	size_t idx;
	struct map_task *t = task_of(r, next, &idx);
	/* thread 0 is the machine's "swapper" */
	struct proc_thread *th = proc_machine_find_thread(&r->t.ses->machine, next);
	if (th && th->nfork != t->nfork) {   /* perf's thread is a new one */
		t->name[0] = 0;
		t->nfork = th->nfork;
		t->ncomm = 0;
	}
	r->curr[cpu] = (int32_t)idx;
	char comm_buf[24];
	const char *comm = th ? th->comm : comm_buf;
	if (!th)
		snprintf(comm_buf, sizeof(comm_buf), ":%d", (int)next);
	bool new_name = !t->name[0];
	if (new_name && !strcmp(comm, "swapper"))
		memcpy(t->name, ". ", 3);
	else if (new_name)
		next_name(r, t->name);
	bool comm_changed = th && th->ncomm_made != t->ncomm;

	sb_adds(r->out, "  ");
	columns(r, cpu, cpus_nr);
	if (r->o->cpus.set && !an_cpuset_has(&r->o->cpus, cpu)) {
		sb_addc(r->out, '\n');
		return 0;
	}
	char ts[40];
	snprintf(ts, sizeof(ts), "%llu.%06llu", (unsigned long long)(smp->time / 1000000000),
		 (unsigned long long)(smp->time % 1000000000 / 1000));
	sb_addf(r->out, "  %12s secs ", ts);
	if (new_name || comm_changed) {
		const char *pid_color = colored_tid(r, next) ? COLOR_PIDS : NULL;
		bool on = r->o->color && pid_color;
		if (on)
			sb_adds(r->out, pid_color);
		sb_addf(r->out, "%s => %s:%d", t->name, comm, (int)next);
		if (on)
			sb_adds(r->out, COLOR_RESET);
		t->ncomm = th ? th->ncomm_made : 0;
	}
	if (new_cpu)
		sb_addf(r->out, " (CPU %u)", cpu);
	sb_addc(r->out, '\n');
	return 0;
}

static int on_event(void *ctx, struct tep_event *ev, const struct proc_sample *ps)
{
	struct map_run *r = ctx;
	const struct pd_sample *smp = ps->s;
	uint64_t next;
	if (ev != r->sw || smp->cpu >= AN_SCHED_MAX_CPUS ||
	    an_tp_read_u64(&r->next_pid, smp->raw, smp->raw_size,
			   smp->rec && smp->rec->swap, &next))
		return 0;
	map_line(r, smp, (uint32_t)next);
	if (r->out->len > 65536 && r->flush(r->ctx, r->out) < 0) {
		r->err = -EIO;
		return -EIO;
	}
	return 0;
}

static int on_lost(void *ctx, const struct pd_lost *l)
{
	struct map_run *r = ctx;
	r->nr_lost += l->lost;
	r->nr_lost_chunks++;
	return 0;
}

/* perf's closing line when events were lost: their share of all records */
static void lost_info(struct map_run *r)
{
	const struct pd_reader_stats *st = pd_reader_stats(r->t.ses->reader);
	uint64_t total = 0;
	for (int t = 1; t < 128; t++)
		total += st->nr_records[t];
	if (r->nr_lost && total)
		sb_addf(r->out, "  INFO: %.3f%% lost events (%llu out of %llu, in %llu chunks)\n",
			(double)r->nr_lost / (double)total * 100.0,
			(unsigned long long)r->nr_lost, (unsigned long long)total,
			(unsigned long long)r->nr_lost_chunks);
}

static int find_fields(void *ctx)
{
	struct map_run *r = ctx;
	r->sw = an_tp_event_by_name(&r->t.tp, "sched:sched_switch");
	if (!r->sw || !an_tp_field(r->sw, "next_pid", &r->next_pid)) {
		diag_set(r->t.d, "no sched:sched_switch events with a next_pid field "
			 "(record with perf sched record)");
		return -EINVAL;
	}
	return 0;
}

int an_schedmap_run(const char *path, const struct sym_config *cfg,
		    const struct an_schedmap_opts *o, struct strbuf *out,
		    an_sched_flush_fn flush, void *ctx,
		    struct pd_dropped *dropped, struct diag *d)
{
	struct map_run *r = xcalloc(1, sizeof(*r));
	struct proc_session ses;
	r->o = o;
	r->out = out;
	r->flush = flush;
	r->ctx = ctx;
	r->next1 = 'A';
	r->next2 = '0';
	r->max_cpu = o->ncpus;
	for (size_t i = 0; i < AN_SCHED_MAX_CPUS; i++)
		r->curr[i] = -1;
	hmap_init(&r->tasks);
	an_tpsession_init(&r->t, &ses, d);
	r->t.find_fields = find_fields;
	r->t.on_event = on_event;
	r->t.on_lost = on_lost;
	r->t.ctx = r;
	struct proc_session_opts sopts = PROC_SESSION_OPTS_INIT;
	sopts.lazy = true;
	int rc = proc_session_open(&ses, path, cfg, &sopts);
	if (rc < 0) {
		*d = ses.diag;
		goto out;
	}
	rc = an_tpsession_run(&r->t, "no tracing data (event formats) in the file; "
			      "record with perf sched record");
	if (r->err)
		rc = r->err;
	rc = rc > 0 ? -EIO : rc;
	if (rc >= 0)
		lost_info(r);
	if (rc >= 0 && flush(ctx, out) < 0)
		rc = -EIO;
out:
	if (ses.reader)
		pd_reader_dropped(ses.reader, dropped);
	proc_session_close(&ses);
	an_tpsession_release(&r->t);
	hmap_release(&r->tasks);
	free(r->task);
	free(r);
	return rc;
}
