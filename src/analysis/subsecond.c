/*
 * subsecond: sample offsets from perf script text or perf.data (see
 * subsecond.h). Stage: analysis. The text path runs the fold parser
 * (stacks/collapse_perf) line by line: when its sample count moves, the
 * stack it stored last (last_id, with the sample's period as weight) is
 * credited to the time of that sample's event line. Key invariant: a sample is counted iff the fold
 * parser emits it, and its time is the one printed on its own event line.
 */
#include "analysis/subsecond.h"

#include "base/lines.h"
#include "base/strbuf.h"
#include "analysis/stackname.h"
#include "perfdata/reader.h"
#include "process/session.h"
#include "stacks/collapse_perf.h"

#include <errno.h>
#include <string.h>

void an_offsets_init(struct an_offsets *a, const struct an_offsets_opts *o)
{
	memset(a, 0, sizeof(*a));
	a->o = *o;
	subsec_map_init(&a->map, o->rows, o->stacks);
}

void an_offsets_release(struct an_offsets *a)
{
	subsec_map_release(&a->map);
	memset(a, 0, sizeof(*a));
}

/* ---- perf script text ---- */

bool an_script_time(const char *line, size_t len, uint64_t *ns)
{
	/* first " <digits and dots>: " followed later by another ':' */
	for (size_t i = 1; i < len; i++) {
		if (line[i - 1] != ' ' || !((line[i] >= '0' && line[i] <= '9') || line[i] == '.'))
			continue;
		size_t j = i;
		while (j < len && ((line[j] >= '0' && line[j] <= '9') || line[j] == '.'))
			j++;
		if (j + 1 < len && line[j] == ':' && line[j + 1] == ' ' &&
		    memchr(line + j + 2, ':', len - j - 2) &&
		    subsec_parse_time(line + i, j - i, ns))
			return true;
		i = j;
	}
	return false;
}

static const char *const idle_names[] = {
	"cpuidle", "cpu_idle", "cpu_bringup_and_idle", "native_safe_halt",
	"xen_hypercall_sched_op", "xen_hypercall_vcpu_op",
};

static bool has(const char *s, size_t len, const char *what)
{
	return memmem(s, len, what, strlen(what)) != NULL;
}

bool an_script_idle(const char *line, size_t len, bool *swapper_seen)
{
	if (!*swapper_seen) {
		const char *sw = memmem(line, len, "swapper", 7);
		if (!sw)
			return false;
		*swapper_seen = true;
		size_t skip = (size_t)(sw - line) + 7;
		line += skip;
		len -= skip;
	}
	for (size_t i = 0; i < sizeof(idle_names) / sizeof(idle_names[0]); i++)
		if (has(line, len, idle_names[i]))
			return true;
	return false;
}

struct script_state {
	struct an_offsets *a;
	struct stack_table table;   /* the fold parser's output (its ids) */
	struct collapse_perf cp;
	uint64_t seen;              /* cp.samples already taken */
	uint64_t cur_time;      /* time of the open sample */
	bool cur_has_time, cur_idle, swapper_seen;
};

static void take_sample(struct script_state *st)
{
	if (st->cp.samples == st->seen)
		return;
	st->seen = st->cp.samples;
	size_t len;
	const char *stack = stack_table_key(&st->table, st->cp.last_id, &len);
	if (!st->cur_has_time)
		st->a->no_time++;
	else if (st->cur_idle && !st->a->o.keep_idle)
		st->a->idle++;
	else
		subsec_map_sample(&st->a->map, st->cur_time, stack, len, st->cp.period);
}

static void script_line(struct script_state *st, const char *line, size_t len,
			uint64_t lineno)
{
	bool header = collapse_perf_is_header(line, len);
	uint64_t t = 0;
	bool has_time = header && an_script_time(line, len, &t);
	if (has_time) {
		st->a->events++;
		subsec_map_event(&st->a->map, t);
	}
	collapse_perf_line(&st->cp, line, len, lineno);
	take_sample(st);   /* a sample this line closed belongs to the old time */
	if (header) {
		st->cur_time = t;
		st->cur_has_time = has_time;
		st->swapper_seen = false;
		st->cur_idle = an_script_idle(line, len, &st->swapper_seen);
	} else if (!st->cur_idle && st->swapper_seen) {
		st->cur_idle = an_script_idle(line, len, &st->swapper_seen);
	}
}

int an_offsets_read_script(struct an_offsets *a, struct lines *lr, struct diag *d)
{
	int rc;
	if (lines_refuse_binary(lr, "perf script text or perf.data", d))
		return -EINVAL;
	struct script_state st = { .a = a };
	struct collapse_opts co = COLLAPSE_OPTS_INIT;
	stack_table_init(&st.table);
	collapse_perf_init(&st.cp, &co, &st.table);
	const char *line;
	size_t len;
	while ((rc = lines_next(lr, &line, &len)) > 0)
		script_line(&st, line, len, lr->lineno);
	if (rc < 0)
		diag_set(d, "line %llu: %s", (unsigned long long)lr->lineno + 1,
			 rc == -E2BIG ? "line longer than 256 MiB" : strerror(-rc));
	else if (a->events == 0)
		diag_set(d, "no perf script samples with times (perf script output expected)");
	else if (st.cp.bad_lines)
		diag_set(d, "line %llu: %llu unrecognized line(s) skipped",
			 (unsigned long long)st.cp.first_bad_line,
			 (unsigned long long)st.cp.bad_lines);
	collapse_perf_release(&st.cp);
	stack_table_release(&st.table);
	return rc < 0 || a->events == 0 ? -EINVAL : 0;
}

/* ---- perf.data ---- */

struct pd_state {
	struct an_offsets *a;
	struct an_stackname names;
	const struct pd_attr *event;   /* the sampled event kept, as fold keeps it */
	uint64_t other_events;
};

/* scorch fold's rule: samples of a non-tracepoint event with call chains
 * weigh their period, and only the first such event is kept. */
static bool fold_keeps(struct pd_state *st, const struct pd_sample *s, uint64_t *weight)
{
	*weight = 1;
	const struct pd_attr *at = s->attr;
	if (!at || at->type == PD_TYPE_TRACEPOINT || !(s->sample_type & PD_SAMPLE_CALLCHAIN))
		return true;
	if (!st->event)
		st->event = at;
	if (at != st->event && strcmp(at->name, st->event->name) != 0) {
		st->other_events++;
		return false;
	}
	if ((s->sample_type & PD_SAMPLE_PERIOD) && s->period)
		*weight = s->period;
	return true;
}

static int pd_sample(void *ctx, struct proc_session *ses, const struct proc_sample *ps)
{
	struct pd_state *st = ctx;
	struct an_offsets *a = st->a;
	const struct pd_sample *s = ps->s;
	(void)ses;
	if (!(s->sample_type & PD_SAMPLE_TIME)) {
		a->no_time++;
		return 0;
	}
	uint64_t weight;
	if (!fold_keeps(st, s, &weight))
		return 0;
	a->events++;
	if (s->pid == 0 && s->tid == 0 && !a->o.keep_idle) {   /* the idle task */
		subsec_map_event(&a->map, s->time);
		a->idle++;
		return 0;
	}
	size_t len = 0;
	const char *stack = a->o.stacks ? an_stackname_of(&st->names, ps, &len) : "";
	subsec_map_sample(&a->map, s->time, stack, len, weight);
	return 0;
}

int an_offsets_read_perfdata(struct an_offsets *a, struct pd_reader *r,
			     const struct sym_config *cfg, struct diag *d)
{
	struct proc_session ses;
	struct pd_state st = { .a = a };
	struct collapse_opts co = COLLAPSE_OPTS_INIT;
	an_stackname_init(&st.names, &co);
	struct proc_session_opts sopts = PROC_SESSION_OPTS_INIT;
	sopts.lazy = !a->o.stacks;
	int rc = proc_session_attach(&ses, r, cfg, &sopts);
	if (rc < 0) {
		*d = ses.diag;
	} else {
		rc = proc_session_run(&ses, pd_sample, &st);
		if (rc < 0)
			*d = ses.diag;
		else if (proc_session_damage(&ses))
			*d = *proc_session_damage(&ses);
		if (rc >= 0 && a->events == 0) {
			diag_set(d, "no samples with times in the file");
			rc = -EINVAL;
		}
	}
	if (ses.reader)
		pd_reader_dropped(ses.reader, &a->dropped);
	proc_session_close(&ses);
	an_stackname_release(&st.names);
	return rc < 0 ? rc : 0;
}
