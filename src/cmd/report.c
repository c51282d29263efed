/*
 * report: the table `perf report --stdio --no-children -n -g none
 * --sort KEYS` prints, for KEYS any order of comm, pid, dso, sym: per
 * event, one row per distinct key, its share of the event's total
 * period, its sample count, sorted as perf sorts (period descending,
 * ties by the keys ascending), with perf's column widths.
 * Stage: command. Key invariant: rows are keyed by what perf keys them
 * on: an unresolved symbol is its address, a thread is tid + comm.
 * Memory grows with distinct rows, not samples.
 */
#include "cmd/cmd.h"
SCORCH_COMMAND(report, "per-symbol table of a perf.data file as perf report --stdio prints it")

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/hmap.h"
#include "base/opt.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "cmd/symopts.h"
#include "process/session.h"

enum { O_INPUT = 1, O_SORT };

static const struct opt_spec opts[] = {
	{ "input", 'i', OPT_REQ, "FILE", "perf.data file to read (default perf.data; - for stdin)", O_INPUT },
	{ "sort", 's', OPT_REQ, "KEYS", "columns, any order of comm,pid,dso,sym (default comm,dso,sym)", O_SORT },
	SYMOPTS_SPECS,
	OPT_END_SPEC
};

static const struct opt_cmd report_cmd = {
	"report", "scorch report [--sort comm,dso,sym] [options] [FILE]",
	"Print perf report's --stdio table (no children, sample counts) for FILE.",
	opts, false,
};

enum key { K_COMM, K_PID, K_DSO, K_SYM };

struct row {
	const char *comm;
	uint32_t tid;
	const struct sym_dso *dso;
	const struct sym_entry *sym;
	uint64_t addr;
	char level;
	uint64_t period, samples;
	/* the pid column shows the thread's last comm, as perf prints
	 * thread__comm_str() of the entry's thread after all events */
	const struct proc_thread *thread;
};

struct event_rows {
	struct hmap map;        /* key bytes -> index in rows */
	struct row *rows;
	size_t n, cap;
	uint64_t total, samples;
	const struct pd_attr *attr;
};

struct report {
	enum key keys[4];
	size_t nkeys;
	struct prof_filter filter;
	struct event_rows *ev;  /* by attr index */
	size_t nev;
	struct strbuf key;
};

static int parse_sort(struct report *r, const char *s)
{
	r->nkeys = 0;
	const char *p = s;
	while (*p) {
		const char *c = strchr(p, ',');
		size_t n = c ? (size_t)(c - p) : strlen(p);
		enum key k;
		if (n == 4 && !strncmp(p, "comm", 4)) k = K_COMM;
		else if (n == 3 && !strncmp(p, "pid", 3)) k = K_PID;
		else if (n == 3 && !strncmp(p, "dso", 3)) k = K_DSO;
		else if (n == 3 && !strncmp(p, "sym", 3)) k = K_SYM;
		else return -1;
		for (size_t i = 0; i < r->nkeys; i++)
			if (r->keys[i] == k)
				return -1;
		r->keys[r->nkeys++] = k;
		if (!c)
			break;
		p = c + 1;
	}
	return r->nkeys ? 0 : -1;
}

static char level_of(const struct proc_frame *f, uint8_t cpumode)
{
	if (f->kernel)
		return cpumode == PD_MISC_GUEST_KERNEL ? 'g' : 'k';
	if (cpumode == PD_MISC_HYPERVISOR)
		return 'H';
	return cpumode == PD_MISC_GUEST_USER ? 'u' : '.';
}

static void add_key(struct strbuf *k, const void *p, size_t n)
{
	sb_add(k, p, n);
}

static struct event_rows *rows_of(struct report *r, const struct pd_attr *a)
{
	size_t i = a ? a->index : 0;
	if (i >= r->nev) {
		size_t old = r->nev;
		XGROW(r->ev, r->nev, i + 1);
		memset(r->ev + old, 0, (r->nev - old) * sizeof(*r->ev));
		for (size_t k = old; k < r->nev; k++)
			hmap_init(&r->ev[k].map);
	}
	r->ev[i].attr = a;
	return &r->ev[i];
}

static int on_sample(void *ctx, struct proc_session *ses, const struct proc_sample *ps)
{
	struct report *r = ctx;
	if (!prof_filter_keep(&r->filter, ps))
		return 0;
	const struct pd_sample *s = ps->s;
	bool kernel = pd_cpumode_is_kernel(s->cpumode);
	struct proc_frame f;
	proc_session_resolve(ses, ps->thread, kernel, s->ip, &f);
	if (!f.map && !kernel) /* perf: a kernel sample stays in the kernel ([k]) */
		proc_session_resolve(ses, ps->thread, true, s->ip, &f);
	struct row row = { ps->thread->comm, s->tid, f.dso, f.sym, f.addr,
			   level_of(&f, s->cpumode), 0, 0, ps->thread };
	struct strbuf *k = &r->key;
	sb_reset(k);
	for (size_t i = 0; i < r->nkeys; i++) {
		switch (r->keys[i]) {
		case K_COMM: sb_adds(k, row.comm); sb_addc(k, 0); break;
		case K_PID: add_key(k, &row.tid, 4); break; /* perf: the thread */
		case K_DSO: add_key(k, &row.dso, sizeof(row.dso)); break;
		case K_SYM:
			add_key(k, &row.sym, sizeof(row.sym));
			if (!row.sym)
				add_key(k, &row.addr, 8);
			add_key(k, &row.level, 1);
			break;
		}
	}
	struct event_rows *ev = rows_of(r, s->attr);
	bool added;
	size_t id = hmap_put(&ev->map, k->buf, k->len, &added);
	if (added) {
		XGROW(ev->rows, ev->cap, ev->n + 1);
		ev->rows[ev->n++] = row;
	}
	struct row *rw = &ev->rows[id];
	rw->period += s->period;
	rw->samples++;
	ev->total += s->period;
	ev->samples++;
	return 0;
}

/* ---- output ---- */

static const char *dso_name(const struct row *rw)
{
	return rw->dso ? rw->dso->short_name : "[unknown]";
}

static void sym_text(const struct row *rw, struct strbuf *sb)
{
	sb_addf(sb, "[%c] ", rw->level);
	if (rw->sym)
		sb_adds(sb, rw->sym->name);
	else
		sb_addf(sb, "%#.16llx", (unsigned long long)rw->addr);
}

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a, b);
}

static const enum key *g_keys;
static size_t g_nkeys;

static int key_cmp(const struct row *a, const struct row *b, enum key k)
{
	switch (k) {
	case K_COMM:
		return cmp_str(a->comm, b->comm);
	case K_PID:
		if (a->tid != b->tid)
			return a->tid < b->tid ? -1 : 1;
		return cmp_str(a->thread->comm, b->thread->comm);
	case K_DSO:
		return cmp_str(dso_name(a), dso_name(b));
	case K_SYM:
		if (!a->sym || !b->sym) {
			if (a->sym || b->sym)
				return a->sym ? -1 : 1;
			return a->addr < b->addr ? -1 : a->addr > b->addr;
		}
		return cmp_str(a->sym->name, b->sym->name);
	}
	return 0;
}

static int by_output(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;
	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	for (size_t i = 0; i < g_nkeys; i++) {
		int c = key_cmp(a, b, g_keys[i]);
		if (c)
			return c;
	}
	return 0;
}

static const char *const titles[] = { "Command", "Pid:Command", "Shared Object", "Symbol" };

static size_t col_len(const struct row *rw, enum key k)
{
	switch (k) {
	case K_COMM: return strlen(rw->comm);
	case K_PID: return strlen(rw->thread->comm) + 8;
	case K_DSO: return strlen(dso_name(rw));
	case K_SYM: /* perf: name + "[.] ", or 16 hex digits + 6 unresolved */
		return rw->sym ? strlen(rw->sym->name) + 4 : 22;
	}
	return 0;
}

static void cell(struct strbuf *sb, const struct row *rw, enum key k,
		 size_t width, bool last)
{
	size_t start = sb->len;
	switch (k) {
	case K_COMM: sb_adds(sb, rw->comm); break;
	case K_PID: sb_addf(sb, "%7u:%s", rw->tid, rw->thread->comm); break;
	case K_DSO: sb_adds(sb, dso_name(rw)); break;
	case K_SYM: sym_text(rw, sb); break;
	}
	/* perf pads every column but a symbol column that comes last */
	while (!(last && k == K_SYM) && sb->len - start < width)
		sb_addc(sb, ' ');
}

static void units(uint64_t n, uint64_t *v, char *u)
{
	*u = ' ';
	*v = n;
	const char *s = "KMG";
	for (int i = 0; i < 3 && *v > 1000; i++) {
		*v /= 1000;
		*u = s[i];
	}
}

static void print_event(struct report *r, struct event_rows *ev, struct strbuf *o)
{
	uint64_t v;
	char u;
	units(ev->samples, &v, &u);
	sb_addf(o, "# Samples: %llu%c of event '%s'\n", (unsigned long long)v, u,
		ev->attr && ev->attr->name ? ev->attr->name : "unknown");
	sb_addf(o, "# Event count (approx.): %llu\n#\n", (unsigned long long)ev->total);
	size_t w[4];
	for (size_t i = 0; i < r->nkeys; i++) {
		w[i] = strlen(titles[r->keys[i]]);
		for (size_t j = 0; j < ev->n; j++) {
			size_t n = col_len(&ev->rows[j], r->keys[i]);
			/* perf widens the dso column to 16 for unresolved rows */
			if (r->keys[i] == K_DSO && !ev->rows[j].sym && n < 16)
				n = 16;
			if (n > w[i])
				w[i] = n;
		}
	}
	sb_adds(o, "# Overhead       Samples");
	for (size_t i = 0; i < r->nkeys; i++) /* perf right-aligns Pid:Command */
		sb_addf(o, r->keys[i] == K_PID ? "  %*s" : "  %-*s", (int)w[i],
			titles[r->keys[i]]);
	sb_adds(o, "\n# ........  ............");
	for (size_t i = 0; i < r->nkeys; i++) {
		sb_adds(o, "  ");
		for (size_t j = 0; j < w[i]; j++)
			sb_addc(o, '.');
	}
	sb_adds(o, "\n#\n");
	g_keys = r->keys;
	g_nkeys = r->nkeys;
	qsort(ev->rows, ev->n, sizeof(*ev->rows), by_output);
	for (size_t j = 0; j < ev->n; j++) {
		const struct row *rw = &ev->rows[j];
		double pct = ev->total ? 100.0 * (double)rw->period / (double)ev->total : 0.0;
		sb_addf(o, "  %7.2f%%  %12llu", pct, (unsigned long long)rw->samples);
		for (size_t i = 0; i < r->nkeys; i++) {
			sb_adds(o, "  ");
			cell(o, rw, r->keys[i], w[i], i + 1 == r->nkeys);
		}
		sb_addc(o, '\n');
	}
	sb_adds(o, "\n\n");
}

static void print_report(struct report *r, struct proc_session *ses, struct strbuf *o)
{
	sb_adds(o, "# To display the perf.data header info, please use --header/--header-only options.\n#\n#\n");
	sb_addf(o, "# Total Lost Samples: %llu\n#\n", (unsigned long long)ses->nr_lost);
	for (size_t i = 0; i < r->nev; i++)
		if (r->ev[i].samples)
			print_event(r, &r->ev[i], o);
	sb_adds(o, "#\n# (Tip: scorch report reads the same perf.data as perf report.)\n#\n");
}

int cmd_report(int argc, char **argv)
{
	struct symopts so;
	memset(&so, 0, sizeof(so));
	struct report r;
	memset(&r, 0, sizeof(r));
	const char *input = NULL;
	const char *sort = "comm,dso,sym";
	struct opt_state st = OPT_STATE_INIT;
	const char *arg;
	int id;
	while ((id = opt_next(&st, argc, argv, &report_cmd, &arg)) > 0) {
		switch (id) {
		case O_INPUT: input = arg; break;
		case O_SORT: sort = arg; break;
		default: symopts_option(&so, id, arg); break;
		}
	}
	if (id == OPT_HELP)
		return 0;
	if (id < 0)
		return 2;
	if (symopts_operand(&st, argc, argv, &report_cmd, &input))
		return 2;
	if (parse_sort(&r, sort) < 0)
		return opt_usage_error(&report_cmd, "bad --sort '%s': use comm, pid, dso and sym, each once", sort);
	if (symopts_filter(&r.filter, so.time, so.cpu, so.comm, so.event))
		return 2;
	struct sym_config cfg;
	if (symopts_config(&so, &cfg))
		return 1;
	struct proc_session ses;
	/* -g none: only the sample address matters */
	const struct proc_session_opts sopts = { .max_stack = 0 };
	int rc = proc_session_open(&ses, input, &cfg, &sopts);
	if (rc == 0) {
		rc = proc_session_run(&ses, on_sample, &r);
		bool all_dropped = symopts_report_run(&ses, rc, input);
		if (rc >= 0)
			symopts_report_filter(&r.filter, input);
		if (all_dropped)
			rc = -1; /* every sample dropped: no report */
		if (rc >= 0) {
			struct strbuf o = SB_INIT;
			print_report(&r, &ses, &o);
			if (sb_flush(&o, stdout) != 0) {
				diag_write_error(NULL, errno);
				rc = 1;
			}
			sb_release(&o);
		}
	} else {
		diag_print(&ses.diag, input);
	}
	proc_session_close(&ses);
	for (size_t i = 0; i < r.nev; i++) {
		hmap_release(&r.ev[i].map);
		free(r.ev[i].rows);
	}
	free(r.ev);
	sb_release(&r.key);
	symopts_release(&so);
	return rc ? 1 : 0;
}
