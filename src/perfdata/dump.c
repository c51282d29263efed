/*
 * dump: perf.data records as text (see dump.h). Stage: perfdata.
 */
#include "perfdata/dump.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/cursor.h"
#include "base/xalloc.h"

/* Write the buffered lines once there are many; a handler returns what
 * this returns, so a write error stops the reader (1). */
static int flush(struct pd_dump *d)
{
	if (d->out.len > (1u << 16) && sb_flush(&d->out, d->to) < 0) {
		d->write_err = errno;
		return 1;
	}
	return 0;
}

static void line_start(struct pd_dump *d, const struct pd_record *rec)
{
	const char *name = pd_record_name(rec->type);

	sb_addf(&d->out, "0x%" PRIx64 "%s [0x%" PRIx32 "]: PERF_RECORD_",
		rec->offset, rec->decompressed ? "+z" : "", rec->size);
	if (name)
		sb_adds(&d->out, name);
	else
		sb_addf(&d->out, "UNKNOWN(%" PRIu32 ")", rec->type);
}

static void add_sid(struct pd_dump *d, const struct pd_sample_id *sid)
{
	char t[32];

	if (sid->present & PD_SAMPLE_TIME)
		sb_addf(&d->out, " time %s", pd_time_str(sid->time, t, sizeof(t)));
}

static void grow_events(struct pd_dump *d, size_t n)
{
	if (n <= d->nr_ev)
		return;
	d->ev = xreallocarray(d->ev, n, sizeof(*d->ev));
	memset(d->ev + d->nr_ev, 0, (n - d->nr_ev) * sizeof(*d->ev));
	d->nr_ev = n;
}

/* FNV-1a over values, so two files can be compared line by line. */
static uint64_t fnv(uint64_t h, uint64_t v)
{
	for (int i = 0; i < 8; i++) {
		h ^= (v >> (8 * i)) & 0xff;
		h *= 0x100000001b3ull;
	}
	return h;
}

static uint64_t hash_regs(const uint64_t *v, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++)
		h = fnv(h, v[i]);
	return h;
}

/* The stack copy as 64-bit words in the recorder's byte order. */
static uint64_t hash_stack(const struct pd_sample *s)
{
	uint64_t h = 0xcbf29ce484222325ull;
	struct cursor c;

	cur_init(&c, s->stack, (size_t)s->stack_dyn_size, 0, s->rec->swap);
	while (c.left >= 8)
		h = fnv(h, cur_u64(&c));
	return h;
}

static int on_sample(void *ctx, const struct pd_sample *s)
{
	struct pd_dump *d = ctx;
	char t[32];

	grow_events(d, s->attr->index + 1);
	struct pd_dump_event *e = &d->ev[s->attr->index];
	if (s->sample_type & PD_SAMPLE_TIME) {
		if (!e->have_time || s->time < e->first)
			e->first = s->time;
		if (!e->have_time || s->time > e->last)
			e->last = s->time;
		e->have_time = true;
	}
	e->samples++;
	if (d->stats)
		return 0;
	line_start(d, s->rec);
	sb_addf(&d->out, " %s cpumode %u pid %" PRIu32 " tid %" PRIu32
		" ip 0x%" PRIx64 " period %" PRIu64, s->attr->name, s->cpumode,
		s->pid, s->tid, s->ip, s->period);
	if (s->sample_type & PD_SAMPLE_TIME)
		sb_addf(&d->out, " time %s", pd_time_str(s->time, t, sizeof(t)));
	if (s->sample_type & PD_SAMPLE_CPU)
		sb_addf(&d->out, " cpu %" PRIu32, s->cpu);
	if (s->sample_type & PD_SAMPLE_CALLCHAIN) {
		sb_addf(&d->out, " chain %" PRIu64 " [", s->nr_callchain);
		for (uint64_t i = 0; i < s->nr_callchain; i++)
			sb_addf(&d->out, "%s%" PRIx64, i ? " " : "", s->callchain[i]);
		sb_addc(&d->out, ']');
	}
	if (s->raw)
		sb_addf(&d->out, " raw %" PRIu32, s->raw_size);
	if (s->nr_branches)
		sb_addf(&d->out, " branches %" PRIu64, s->nr_branches);
	if (s->regs_user.nr)
		sb_addf(&d->out, " regs %zu #%016" PRIx64, s->regs_user.nr,
			hash_regs(s->regs_user.regs, s->regs_user.nr));
	if (s->stack_size)
		sb_addf(&d->out, " stack %" PRIu64 "/%" PRIu64 " #%016" PRIx64,
			s->stack_dyn_size, s->stack_size, hash_stack(s));
	sb_addc(&d->out, '\n');
	return flush(d);
}

static int on_mmap(void *ctx, const struct pd_mmap *m)
{
	struct pd_dump *d = ctx;
	char bid[41];

	line_start(d, m->rec);
	sb_addf(&d->out, " %d/%d: [0x%" PRIx64 "(0x%" PRIx64 ") @ 0x%" PRIx64 "]",
		(int)m->pid, (int)m->tid, m->start, m->len, m->pgoff);
	if (m->has_build_id)
		sb_addf(&d->out, " build-id %s",
			pd_build_id_hex(m->build_id, m->build_id_size, bid));
	else if (m->mmap2)
		sb_addf(&d->out, " %02x:%02x %" PRIu64, m->maj, m->min, m->ino);
	sb_addf(&d->out, " %s%s: %s", m->data ? "data" : "x",
		m->cpumode == 1 ? " kernel" : "", m->filename);
	add_sid(d, &m->sid);
	sb_addc(&d->out, '\n');
	return flush(d);
}

static int on_comm(void *ctx, const struct pd_comm *c)
{
	struct pd_dump *d = ctx;

	line_start(d, c->rec);
	sb_addf(&d->out, "%s: %s:%" PRIu32 "/%" PRIu32, c->exec ? " exec" : "",
		c->comm, c->pid, c->tid);
	add_sid(d, &c->sid);
	sb_addc(&d->out, '\n');
	return flush(d);
}

static int on_task(void *ctx, const struct pd_task *t)
{
	struct pd_dump *d = ctx;

	line_start(d, t->rec);
	sb_addf(&d->out, " (%" PRIu32 ":%" PRIu32 "):(%" PRIu32 ":%" PRIu32 ")",
		t->pid, t->tid, t->ppid, t->ptid);
	add_sid(d, &t->sid);
	sb_addc(&d->out, '\n');
	return flush(d);
}

static int on_lost(void *ctx, const struct pd_lost *l)
{
	struct pd_dump *d = ctx;

	line_start(d, l->rec);
	sb_addf(&d->out, " id %" PRIu64 " lost %" PRIu64 "\n", l->id, l->lost);
	return flush(d);
}

static int on_switch(void *ctx, const struct pd_switch *sw)
{
	struct pd_dump *d = ctx;

	line_start(d, sw->rec);
	sb_addf(&d->out, " %s%s", sw->out ? "OUT" : "IN",
		sw->preempt ? " preempt" : "");
	if (sw->cpu_wide)
		sb_addf(&d->out, " next_prev %" PRIu32 "/%" PRIu32,
			sw->next_prev_pid, sw->next_prev_tid);
	add_sid(d, &sw->sid);
	sb_addc(&d->out, '\n');
	return flush(d);
}

static int on_ksymbol(void *ctx, const struct pd_ksymbol *k)
{
	struct pd_dump *d = ctx;

	line_start(d, k->rec);
	sb_addf(&d->out, " addr 0x%" PRIx64 " len %" PRIu32 " type %u flags %u %s",
		k->addr, k->len, k->ksym_type, k->flags, k->name);
	add_sid(d, &k->sid);
	sb_addc(&d->out, '\n');
	return flush(d);
}

static int on_build_id(void *ctx, const struct pd_build_id *b)
{
	struct pd_dump *d = ctx;
	char hex[41];

	line_start(d, b->rec);
	sb_addf(&d->out, " %s pid %d %s\n",
		pd_build_id_hex(b->build_id, b->size, hex), (int)b->pid, b->filename);
	return 0;
}

static int on_other(void *ctx, const struct pd_record *rec)
{
	struct pd_dump *d = ctx;

	line_start(d, rec);
	pd_record_describe(rec, &d->out);
	sb_addc(&d->out, '\n');
	return flush(d);
}

static void add_stats(struct pd_dump *d)
{
	const struct pd_reader_stats *st = pd_reader_stats(d->r);
	uint64_t total = 0;
	char a[32], b[32];

	for (int t = 0; t < 128; t++)
		total += st->nr_records[t];
	sb_addf(&d->out, "records: %" PRIu64 "\n", total);
	for (int t = 1; t < 128; t++) {
		const char *n = pd_record_name((uint32_t)t);
		if (st->nr_records[t])
			sb_addf(&d->out, "  %-20s %12" PRIu64 "\n", n ? n : "UNKNOWN",
				st->nr_records[t]);
	}
	if (st->nr_records[0])
		sb_addf(&d->out, "  %-20s %12" PRIu64 "\n", "UNKNOWN", st->nr_records[0]);
	if (st->nr_decompressed)
		sb_addf(&d->out, "decompressed records: %" PRIu64 "\n",
			st->nr_decompressed);
	if (st->nr_unknown_id)
		sb_addf(&d->out, "samples with unknown id: %" PRIu64 "\n",
			st->nr_unknown_id);
	grow_events(d, pd_reader_nr_attrs(d->r));
	for (size_t i = 0; i < pd_reader_nr_attrs(d->r); i++) {
		const struct pd_dump_event *e = &d->ev[i];
		sb_addf(&d->out, "event %s: samples %" PRIu64, pd_reader_attr(d->r, i)->name,
			e->samples);
		if (e->have_time)
			sb_addf(&d->out, " first %s last %s",
				pd_time_str(e->first, a, sizeof(a)),
				pd_time_str(e->last, b, sizeof(b)));
		sb_addc(&d->out, '\n');
	}
}

void pd_dump_init(struct pd_dump *d, struct pd_reader *r, bool stats, FILE *to)
{
	memset(d, 0, sizeof(*d));
	d->r = r;
	d->to = to;
	d->out = (struct strbuf)SB_INIT;
	d->stats = stats;
}

void pd_dump_release(struct pd_dump *d)
{
	sb_release(&d->out);
	free(d->ev);
	d->ev = NULL;
	d->nr_ev = 0;
}

void pd_dump_handlers(struct pd_dump *d, struct pd_handlers *h)
{
	memset(h, 0, sizeof(*h));
	h->ctx = d;
	h->on_sample = on_sample;
	if (d->stats)
		return;
	h->on_mmap = on_mmap;
	h->on_comm = on_comm;
	h->on_task = on_task;
	h->on_lost = on_lost;
	h->on_switch = on_switch;
	h->on_ksymbol = on_ksymbol;
	h->on_build_id = on_build_id;
	h->on_other = on_other;
}

int pd_dump_finish(struct pd_dump *d)
{
	if (d->stats && !d->write_err)
		add_stats(d);
	if (!d->write_err && sb_flush(&d->out, d->to) < 0)
		d->write_err = errno;
	return d->write_err ? -1 : 0;
}

uint64_t pd_dump_samples(const struct pd_dump *d)
{
	uint64_t samples = 0;
	for (size_t i = 0; i < d->nr_ev; i++)
		samples += d->ev[i].samples;
	return samples;
}
