/*
 * cmd/dump: `scorch dump [--stats] perf.data`: one line per record
 * (offset, size, type, key fields) like `perf report -D`, for debugging;
 * --stats prints counts per record type and per event instead.
 * Stage: command. A thin loop over the perfdata reader; the record
 * callbacks only format. Output is deterministic (file order, fixed
 * type order for the statistics).
 */
#include "cmd/cmd.h"
SCORCH_COMMAND(dump, "print the records of a perf.data file, or counts per type and event")

#include "base/cursor.h"
#include "base/diag.h"
#include "base/opt.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "cmd/symopts.h"
#include "perfdata/reader.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { O_STATS = 1 };

static const struct opt_spec opts[] = {
	{ "stats", 's', OPT_NONE, NULL, "print counts per record type and per event (samples, first and last time) instead of the records", O_STATS },
	OPT_END_SPEC
};

static const struct opt_cmd dump_cmd = {
	.name = "dump",
	.usage = "scorch dump [--stats] [FILE]",
	.summary = "Print the records of FILE (default perf.data; - reads stdin) one per line.",
	.opts = opts,
};

struct event_stat {
	uint64_t samples, first, last;
	bool have_time;
};

struct dump {
	struct pd_reader *r;
	struct strbuf out;
	bool stats;
	struct event_stat *ev;
	size_t nr_ev;
	uint64_t unknown_samples;
	int write_err;          /* errno of a failed write, or 0 */
};

/* Write the buffered lines once there are many; a handler returns what
 * this returns, so a write error stops the reader (1). */
static int flush(struct dump *d)
{
	if (d->out.len > (1u << 16) && sb_flush(&d->out, stdout) < 0) {
		d->write_err = errno;
		return 1;
	}
	return 0;
}

static void line_start(struct dump *d, const struct pd_record *rec)
{
	const char *name = pd_record_name(rec->type);

	sb_addf(&d->out, "0x%" PRIx64 "%s [0x%" PRIx32 "]: PERF_RECORD_",
		rec->offset, rec->decompressed ? "+z" : "", rec->size);
	if (name)
		sb_adds(&d->out, name);
	else
		sb_addf(&d->out, "UNKNOWN(%" PRIu32 ")", rec->type);
}

static void add_sid(struct dump *d, const struct pd_sample_id *sid)
{
	char t[32];

	if (sid->present & PD_SAMPLE_TIME)
		sb_addf(&d->out, " time %s", pd_time_str(sid->time, t, sizeof(t)));
}

static void grow_events(struct dump *d, size_t n)
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
	struct dump *d = ctx;
	char t[32];

	grow_events(d, s->attr->index + 1);
	struct event_stat *e = &d->ev[s->attr->index];
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
	struct dump *d = ctx;
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
	struct dump *d = ctx;

	line_start(d, c->rec);
	sb_addf(&d->out, "%s: %s:%" PRIu32 "/%" PRIu32, c->exec ? " exec" : "",
		c->comm, c->pid, c->tid);
	add_sid(d, &c->sid);
	sb_addc(&d->out, '\n');
	return flush(d);
}

static int on_task(void *ctx, const struct pd_task *t)
{
	struct dump *d = ctx;

	line_start(d, t->rec);
	sb_addf(&d->out, " (%" PRIu32 ":%" PRIu32 "):(%" PRIu32 ":%" PRIu32 ")",
		t->pid, t->tid, t->ppid, t->ptid);
	add_sid(d, &t->sid);
	sb_addc(&d->out, '\n');
	return flush(d);
}

static int on_lost(void *ctx, const struct pd_lost *l)
{
	struct dump *d = ctx;

	line_start(d, l->rec);
	sb_addf(&d->out, " id %" PRIu64 " lost %" PRIu64 "\n", l->id, l->lost);
	return flush(d);
}

static int on_switch(void *ctx, const struct pd_switch *sw)
{
	struct dump *d = ctx;

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
	struct dump *d = ctx;

	line_start(d, k->rec);
	sb_addf(&d->out, " addr 0x%" PRIx64 " len %" PRIu32 " type %u flags %u %s",
		k->addr, k->len, k->ksym_type, k->flags, k->name);
	add_sid(d, &k->sid);
	sb_addc(&d->out, '\n');
	return flush(d);
}

static int on_build_id(void *ctx, const struct pd_build_id *b)
{
	struct dump *d = ctx;
	char hex[41];

	line_start(d, b->rec);
	sb_addf(&d->out, " %s pid %d %s\n",
		pd_build_id_hex(b->build_id, b->size, hex), (int)b->pid, b->filename);
	return 0;
}

static int on_other(void *ctx, const struct pd_record *rec)
{
	struct dump *d = ctx;

	line_start(d, rec);
	pd_record_describe(rec, &d->out);
	sb_addc(&d->out, '\n');
	return flush(d);
}

static void print_stats(struct dump *d)
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
		const struct event_stat *e = &d->ev[i];
		sb_addf(&d->out, "event %s: samples %" PRIu64, pd_reader_attr(d->r, i)->name,
			e->samples);
		if (e->have_time)
			sb_addf(&d->out, " first %s last %s",
				pd_time_str(e->first, a, sizeof(a)),
				pd_time_str(e->last, b, sizeof(b)));
		sb_addc(&d->out, '\n');
	}
}

/* Print the reader's notes and damage; returns the exit status. */
static int report(struct dump *d, const char *path, uint64_t samples)
{
	for (size_t i = 0; i < pd_reader_nr_warnings(d->r); i++)
		diag_warn("%s: %s", path, pd_reader_warning(d->r, i));
	struct pd_dropped dr;
	pd_reader_dropped(d->r, &dr);
	int none_left = symopts_report_dropped(&dr, path);
	if (pd_reader_damaged(d->r)) {
		const struct pd_reader_stats *st = pd_reader_stats(d->r);
		uint64_t total = 0;
		for (int t = 0; t < 128; t++)
			total += st->nr_records[t];
		if (!total) {
			diag_print(pd_reader_diag(d->r), path);
			return 1;
		}
		diag_print_kept(pd_reader_diag(d->r), path);
		diag_warn("%s: kept %" PRIu64 " records (%" PRIu64
			  " samples) read before the damage", path, total, samples);
	}
	return none_left;
}

static int dump_file(const char *path, bool stats)
{
	struct diag dg = DIAG_INIT;
	struct dump d = { .out = SB_INIT, .stats = stats };
	struct pd_handlers h = { .ctx = &d, .on_sample = on_sample };
	int rc;

	d.r = pd_reader_open(path, &dg);
	if (!d.r) {
		diag_print(&dg, path);
		return 1;
	}
	if (!stats) {
		h.on_mmap = on_mmap;
		h.on_comm = on_comm;
		h.on_task = on_task;
		h.on_lost = on_lost;
		h.on_switch = on_switch;
		h.on_ksymbol = on_ksymbol;
		h.on_build_id = on_build_id;
		h.on_other = on_other;
	}
	rc = pd_reader_run(d.r, &h);
	if (rc < 0)
		diag_print(pd_reader_diag(d.r), path);
	if (stats && !d.write_err)
		print_stats(&d);
	if (!d.write_err && sb_flush(&d.out, stdout) < 0)
		d.write_err = errno;
	uint64_t samples = 0;
	for (size_t i = 0; i < d.nr_ev; i++)
		samples += d.ev[i].samples;
	int status = rc < 0 ? 1 : report(&d, path, samples);
	if (d.write_err) {
		diag_write_error(NULL, d.write_err);
		status = 1;
	}
	sb_release(&d.out);
	free(d.ev);
	pd_reader_free(d.r);
	return status;
}

int cmd_dump(int argc, char **argv)
{
	struct opt_state st = OPT_STATE_INIT;
	const char *arg;
	bool stats = false;
	int id;

	while ((id = opt_next(&st, argc, argv, &dump_cmd, &arg)) > 0)
		if (id == O_STATS)
			stats = true;
	if (id == OPT_HELP)
		return 0;
	if (id < 0)
		return 2;
	if (argc - st.ind > 1)
		return opt_usage_error(&dump_cmd, "one FILE at most");
	return dump_file(st.ind < argc ? argv[st.ind] : "perf.data", stats);
}
