/*
 * schedlat: perf sched latency's table from the tasks analysis/sched
 * computed: tasks merged by name, sorted by perf's keys, with the totals
 * and perf's INFO lines.
 * Stage: analysis (numbers -> text in a strbuf; no I/O).
 * Key invariant: a task with no latency event (perf has no atoms for it)
 * is left out, also from the merged counts "comm:(N)".
 */
#include "analysis/sched.h"

#include "base/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct merged {
	const char *comm;
	uint32_t tid;
	size_t n;
	uint64_t runtime, total_lat, nb_atoms, max_lat, max_start, max_end;
};

static uint64_t avg_of(const struct merged *m)
{
	return m->nb_atoms ? m->total_lat / m->nb_atoms : 0;
}

/* Sort keys as perf sched latency -s takes them; each orders descending,
 * ties fall back to the descending task name (perf's merged-tree order). */
static const char *sort_keys[] = { "avg", "max", "switch", "runtime", "pid" };
static int sort_order[8] = { 0, 1, 2, 3, -1, -1, -1, -1 };

static int cmp_key(const struct merged *x, const struct merged *y, int key)
{
	uint64_t a = 0, b = 0;
	switch (key) {
	case 0: a = avg_of(x); b = avg_of(y); break;
	case 1: a = x->max_lat; b = y->max_lat; break;
	case 2: a = x->nb_atoms; b = y->nb_atoms; break;
	case 3: a = x->runtime; b = y->runtime; break;
	case 4: a = x->tid; b = y->tid; break;
	}
	return a == b ? 0 : a > b ? -1 : 1;
}

static int cmp_merged(const void *a, const void *b)
{
	const struct merged *x = a, *y = b;
	for (int i = 0; i < 8 && sort_order[i] >= 0; i++) {
		int c = cmp_key(x, y, sort_order[i]);
		if (c)
			return c;
	}
	return strcmp(y->comm, x->comm);
}

int an_sched_set_sort(const char *keys)
{
	int order[8], n = 0;
	const char *p = keys;
	while (*p) {
		size_t len = strcspn(p, ", ");
		int k = -1;
		for (int i = 0; i < 5; i++)
			if (strlen(sort_keys[i]) == len && !strncmp(p, sort_keys[i], len))
				k = i;
		if (len && (k < 0 || n == 8))
			return -EINVAL;
		if (len)
			order[n++] = k;
		p += len;
		p += strspn(p, ", ");
	}
	if (n == 0)
		return -EINVAL;
	for (int i = 0; i < 8; i++)
		sort_order[i] = i < n ? order[i] : -1;
	return 0;
}

static void add_time(struct strbuf *out, uint64_t ns)
{
	sb_addf(out, "%llu.%06llu", (unsigned long long)(ns / 1000000000),
		(unsigned long long)(ns % 1000000000 / 1000));
}

static size_t merge_tasks(const struct an_sched *s, struct merged *m, struct hmap *byname)
{
	size_t n = 0;
	for (size_t i = 0; i < s->ntask; i++) {
		const struct an_task *t = &s->task[i];
		if (t->tid == 0 || t->state == AN_ATOM_NONE)
			continue;   /* no latency event: perf has no atoms for it */
		char buf[24];
		snprintf(buf, sizeof(buf), ":%d", (int)t->tid);
		const char *comm = t->comm ? t->comm : buf;
		bool added;
		size_t id = hmap_put(byname, comm, strlen(comm), &added);
		if (added) {
			m[n] = (struct merged){ hmap_at(byname, id)->key, t->tid, 0, 0, 0, 0, 0, 0, 0 };
			hmap_at(byname, id)->value = n++;
		}
		struct merged *g = &m[hmap_at(byname, id)->value];
		g->n++;
		g->runtime += t->runtime;
		g->total_lat += t->total_lat;
		g->nb_atoms += t->nb_atoms;
		if (t->max_lat > g->max_lat) {
			g->max_lat = t->max_lat;
			g->max_start = t->max_start;
			g->max_end = t->max_end;
		}
	}
	return n;
}

static void latency_row(const struct merged *g, struct strbuf *out)
{
	size_t start = out->len;
	if (g->n > 1)
		sb_addf(out, "  %s:(%zu) ", g->comm, g->n);
	else
		sb_addf(out, "  %s:%u ", g->comm, g->tid);
	for (size_t i = out->len - start; i < 24; i++)
		sb_addc(out, ' ');
	sb_addf(out, "|%11.3f ms |%9llu | avg:%8.3f ms | max:%8.3f ms | max start: ",
		(double)g->runtime / 1e6, (unsigned long long)g->nb_atoms,
		(double)avg_of(g) / 1e6, (double)g->max_lat / 1e6);
	struct strbuf t = SB_INIT;
	add_time(&t, g->max_start);
	sb_addf(out, "%12s s | max end: ", t.buf);
	sb_reset(&t);
	add_time(&t, g->max_end);
	sb_addf(out, "%12s s\n", t.buf);
	sb_release(&t);
}

void an_sched_latency_table(const struct an_sched *s, struct strbuf *out)
{
	static const char *rule = " ---------------------------------------------------"
				  "----------------------------------------------------"
				  "------------------------------------\n";
	struct merged *m = xcalloc(s->ntask + 1, sizeof(*m));
	struct hmap byname = HMAP_INIT;
	size_t n = merge_tasks(s, m, &byname);
	qsort(m, n, sizeof(*m), cmp_merged);
	sb_addf(out, "\n%s", rule);
	sb_adds(out, "  Task                  |   Runtime ms  | Switches | Avg delay ms    "
		"| Max delay ms    | Max delay start           | Max delay end          |\n");
	sb_adds(out, rule);
	uint64_t runtime = 0, count = 0;
	for (size_t i = 0; i < n; i++) {
		if (!m[i].nb_atoms)
			continue;
		latency_row(&m[i], out);
		runtime += m[i].runtime;
		count += m[i].nb_atoms;
	}
	sb_adds(out, " -----------------------------------------------------------------"
		"------------------------------------------------\n");
	sb_addf(out, "  TOTAL:                |%11.3f ms |%9llu |\n", (double)runtime / 1e6,
		(unsigned long long)count);
	sb_adds(out, " ---------------------------------------------------\n");
	if (s->nr_unordered && s->nr_timestamps)
		sb_addf(out, "  INFO: %.3f%% unordered timestamps (%llu out of %llu)\n",
			(double)s->nr_unordered / (double)s->nr_timestamps * 100.0,
			(unsigned long long)s->nr_unordered, (unsigned long long)s->nr_timestamps);
	if (s->nr_cs_bugs && s->nr_switch)
		sb_addf(out, "  INFO: %.3f%% context switch bugs (%llu out of %llu)\n",
			(double)s->nr_cs_bugs / (double)s->nr_switch * 100.0,
			(unsigned long long)s->nr_cs_bugs, (unsigned long long)s->nr_switch);
	sb_addc(out, '\n');
	hmap_release(&byname);
	free(m);
}

void an_sched_latency_notes(const struct an_sched *s, const char *path,
			    struct strbuf *out)
{
	if (!s->have_runtime || !s->nr_runtime)
		sb_addf(out, "%s: no sched:sched_stat_runtime events, so every Runtime is 0: "
			"record with perf sched record, or scorch record -a -e "
			AN_SCHED_EVENTS "\n", path);
	if (s->nr_lost && s->nr_cs_bugs)
		sb_addf(out, "%s: %llu events were lost while recording (the ring buffer "
			"filled up): the context switch bugs are those gaps; record "
			"with a larger -m or without -g\n", path,
			(unsigned long long)s->nr_lost);
}
