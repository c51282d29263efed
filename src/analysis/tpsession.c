/*
 * tpsession: the tracepoint replay loop of sched and offcpu (see
 * tpsession.h). Stage: analysis. Key invariant: formats are loaded at
 * most once, and a failure to load stops the run with -EINVAL.
 */
#include "analysis/tpsession.h"

#include <errno.h>
#include <string.h>

void an_tpsession_init(struct an_tpsession *t, struct proc_session *ses,
		       struct diag *d)
{
	memset(t, 0, sizeof(*t));
	an_tp_init(&t->tp);
	t->ses = ses;
	t->d = d;
}

void an_tpsession_release(struct an_tpsession *t)
{
	an_tp_release(&t->tp);
}

/* The event formats: from the header (file mode) or, in pipe mode, once
 * the TRACING_DATA record has gone by. */
static int load_formats(struct an_tpsession *t)
{
	if (t->loaded)
		return t->loaded;
	size_t size = 0;
	const uint8_t *td = pd_reader_tracing_data(t->ses->reader, &size);
	if (!td || !size)
		return 0;
	if (an_tp_load(&t->tp, td, size, t->d) < 0 || t->find_fields(t->ctx) < 0)
		t->loaded = -EINVAL;
	else
		t->loaded = 1;
	return t->loaded;
}

static int on_lost(void *ctx, const struct pd_lost *l)
{
	struct an_tpsession *t = ctx;
	return t->on_lost(t->ctx, l);
}

static int on_task(void *ctx, const struct pd_task *task)
{
	struct an_tpsession *t = ctx;
	return t->on_task(t->ctx, task);
}

static int on_sample(void *ctx, struct proc_session *ses, const struct proc_sample *ps)
{
	struct an_tpsession *t = ctx;
	const struct pd_sample *s = ps->s;
	(void)ses;
	if (!s->attr || s->attr->type != PD_TYPE_TRACEPOINT || !(s->sample_type & PD_SAMPLE_TIME))
		return 0;
	int lf = load_formats(t);
	if (lf <= 0)
		return lf;
	struct tep_event *ev = an_tp_event(&t->tp, s->attr->config);
	if (!ev)
		return 0;
	return t->on_event(t->ctx, ev, ps);
}

int an_tpsession_run(struct an_tpsession *t, const char *no_data)
{
	struct proc_session *ses = t->ses;
	int rc;
	/* file mode: the formats are known now; pipe mode: after TRACING_DATA */
	if (!pd_reader_is_pipe(ses->reader) && (rc = load_formats(t)) <= 0)
		goto done;
	if (t->on_lost)
		proc_session_on_lost(ses, on_lost);
	if (t->on_task)
		proc_session_on_task(ses, on_task);
	rc = proc_session_run(ses, on_sample, t);
	if (rc < 0 && t->loaded >= 0)
		*t->d = ses->diag;
	else if (rc >= 0 && proc_session_damage(ses))
		*t->d = *proc_session_damage(ses);
done:
	if (t->loaded == 0) {
		diag_set(t->d, "%s", no_data);
		rc = -EINVAL;
	} else if (t->loaded < 0) {
		rc = -EINVAL;
	}
	return rc;
}
