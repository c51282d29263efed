/*
 * latency: event pairing over a perf.data (see latency.h).
 * Stage: analysis. Samples of the two events are reduced to (time, key
 * id, start/end) and buffered; at each FINISHED_ROUND the events up to
 * the previous round's largest time are sorted and paired (perf's own
 * ordering rule), the rest at the end. Key invariant: a RAW field is read
 * only through an_tp_read_* (bounds-checked against the payload).
 */
#include "analysis/latency.h"

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "perfdata/reader.h"

#include <errno.h>
#include <event-parse.h>
#include <stdlib.h>
#include <string.h>

void an_latency_init(struct an_latency *l, const struct an_latency_opts *o)
{
	memset(l, 0, sizeof(*l));
	l->o = *o;
	an_tp_init(&l->tp);
	hmap_init(&l->keys);
}

void an_latency_release(struct an_latency *l)
{
	an_tp_release(&l->tp);
	hmap_release(&l->keys);
	free(l->pend);
	memset(l, 0, sizeof(*l));
}

/* ---- event and key resolution ---- */

static int resolve_key(struct an_latency *l, struct diag *d)
{
	char *spec = strdup(l->o.key), *save = NULL;
	int rc = 0;
	for (char *tok = strtok_r(spec, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		const char *fs = tok, *fe = eq ? eq + 1 : tok;
		if (eq)
			*eq = 0;
		if (l->nkeys == AN_LATENCY_MAX_KEYS) {
			diag_set(d, "--key: more than %d fields", AN_LATENCY_MAX_KEYS);
			rc = -EINVAL;
			break;
		}
		if (!an_tp_field(l->ev_start, fs, &l->kstart[l->nkeys]) ||
		    !an_tp_field(l->ev_end, fe, &l->kend[l->nkeys])) {
			diag_set(d, "--key: event %s or %s has no field '%s'", l->o.start,
				 l->o.end, an_tp_field(l->ev_start, fs, &l->kstart[0]) ? fe : fs);
			rc = -EINVAL;
			break;
		}
		l->nkeys++;
	}
	free(spec);
	if (rc == 0 && l->nkeys == 0) {
		diag_set(d, "--key: no fields given");
		rc = -EINVAL;
	}
	return rc;
}

static int resolve(struct an_latency *l, struct pd_reader *r, struct diag *d)
{
	if (l->resolved)
		return 0;
	size_t size = 0;
	const uint8_t *td = pd_reader_tracing_data(r, &size);
	if (!td || size == 0) {
		diag_set(d, "no tracing data (event formats) in the file; record "
			 "tracepoints with perf record -e or scorch record");
		return -EINVAL;
	}
	int rc = an_tp_load(&l->tp, td, size, d);
	if (rc < 0)
		return rc;
	l->ev_start = an_tp_event_by_name(&l->tp, l->o.start);
	l->ev_end = an_tp_event_by_name(&l->tp, l->o.end);
	if (!l->ev_start || !l->ev_end) {
		diag_set(d, "event %s was not recorded (no format in the tracing data)",
			 l->ev_start ? l->o.end : l->o.start);
		return -EINVAL;
	}
	l->resolved = true;
	return resolve_key(l, d);
}

/* ---- pairing ---- */

static void pair_event(struct an_latency *l, const struct an_event *e)
{
	struct hmap_entry *k = hmap_at(&l->keys, e->key);
	if (!e->is_end) {
		if (k->value)
			l->reissued++;
		k->value = e->time + 1;
		return;
	}
	if (!k->value) {
		l->unmatched_end++;
		return;
	}
	uint64_t start = k->value - 1;
	k->value = 0;
	l->npairs++;
	if (l->stopped || !l->o.on_pair)
		return;
	int rc = l->o.on_pair(l->o.ctx, start, e->time);
	if (rc) {
		l->stopped = true;
		l->stop_rc = rc;
	}
}

static int cmp_event(const void *a, const void *b)
{
	const struct an_event *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Pair the buffered events with time <= limit (all when all is set). */
static void flush(struct an_latency *l, uint64_t limit, bool all)
{
	if (l->npend == 0)
		return;
	qsort(l->pend, l->npend, sizeof(*l->pend), cmp_event);
	size_t i = 0;
	for (; i < l->npend && (all || l->pend[i].time <= limit); i++)
		pair_event(l, &l->pend[i]);
	if (i < l->npend)
		memmove(l->pend, l->pend + i, (l->npend - i) * sizeof(*l->pend));
	l->npend -= i;
}

static int key_bytes(struct an_latency *l, const struct pd_sample *s, bool end,
		     struct strbuf *key)
{
	const struct an_tp_field *f = end ? l->kend : l->kstart;
	bool swap = s->rec && s->rec->swap;
	for (size_t i = 0; i < l->nkeys; i++) {
		if (f[i].string || f[i].dynamic) {
			const char *str;
			size_t len;
			if (an_tp_read_str(&f[i], s->raw, s->raw_size, swap, &str, &len) < 0)
				return -ERANGE;
			uint32_t n = (uint32_t)len;
			sb_add(key, &n, sizeof(n));
			sb_add(key, str, len);
		} else {
			uint64_t v;
			if (an_tp_read_u64(&f[i], s->raw, s->raw_size, swap, &v) < 0)
				return -ERANGE;
			sb_add(key, &v, sizeof(v));
		}
	}
	return 0;
}

struct run_ctx {
	struct an_latency *l;
	struct pd_reader *r;
	struct diag *d;
	struct strbuf key;
	int err;
};

static int on_sample(void *ctx, const struct pd_sample *s)
{
	struct run_ctx *rc = ctx;
	struct an_latency *l = rc->l;
	if (!s->attr || s->attr->type != PD_TYPE_TRACEPOINT)
		return 0;
	if ((rc->err = resolve(l, rc->r, rc->d)) < 0)
		return 1;
	struct tep_event *ev = an_tp_event(&l->tp, s->attr->config);
	if (!ev || (ev != l->ev_start && ev != l->ev_end))
		return 0;
	bool is_end = ev == l->ev_end;
	sb_reset(&rc->key);
	if (key_bytes(l, s, is_end, &rc->key) < 0) {
		l->bad_payload++;
		return 0;
	}
	size_t id = hmap_put(&l->keys, rc->key.buf, rc->key.len, NULL);
	XGROW(l->pend, l->pend_cap, l->npend + 1);
	l->pend[l->npend++] = (struct an_event){ s->time, l->seq++, (uint32_t)id, is_end };
	if (s->time > l->round_max)
		l->round_max = s->time;
	is_end ? l->nend++ : l->nstart++;
	return l->stopped ? 1 : 0;
}

static int on_round(void *ctx)
{
	struct run_ctx *rc = ctx;
	struct an_latency *l = rc->l;
	flush(l, l->prev_round_max, false);
	l->prev_round_max = l->round_max;
	return l->stopped ? 1 : 0;
}

static void count_open(struct an_latency *l)
{
	for (size_t i = 0; i < l->keys.count; i++)
		if (l->keys.entries[i].value)
			l->unmatched_start++;
}

int an_latency_read(struct an_latency *l, struct pd_reader *r, struct diag *d)
{
	struct run_ctx rc = { l, r, d, SB_INIT, 0 };
	struct pd_handlers h = { .ctx = &rc, .on_sample = on_sample,
				 .on_finished_round = on_round };
	int ret = 0;
	if (!pd_reader_is_pipe(r))
		ret = resolve(l, r, d);
	if (ret == 0) {
		ret = pd_reader_run(r, &h);
		if (rc.err < 0)
			ret = rc.err;
		else if (ret < 0)
			*d = *pd_reader_diag(r);
	}
	if (ret >= 0) {
		flush(l, 0, true);
		count_open(l);
		if (pd_reader_damaged(r))
			*d = *pd_reader_diag(r);
		if (l->stopped && l->stop_rc < 0)
			ret = l->stop_rc;
		else if (l->nstart + l->nend == 0 && !d->set) {
			diag_set(d, "no %s or %s events in the file",
				 l->o.start, l->o.end);
			ret = -ENOENT;
		}
		ret = ret > 0 ? 0 : ret;
	}
	sb_release(&rc.key);
	pd_reader_dropped(r, &l->dropped);
	pd_reader_free(r);
	return ret;
}

bool an_latency_note(const struct an_latency *l, struct strbuf *out)
{
	if (!l->unmatched_start && !l->unmatched_end && !l->reissued && !l->bad_payload)
		return false;
	sb_addf(out, "%llu pairs; %llu start events never ended, %llu end events "
		"had no start, %llu starts were re-issued, %llu payloads too short "
		"for the key", (unsigned long long)l->npairs,
		(unsigned long long)l->unmatched_start,
		(unsigned long long)l->unmatched_end,
		(unsigned long long)l->reissued,
		(unsigned long long)l->bad_payload);
	return true;
}
