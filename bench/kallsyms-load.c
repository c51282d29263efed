/*
 * kallsyms-load: timing harness for sym_kallsyms_load, built by
 * bench/kallsyms.sh from a build's library objects. Not a test.
 * Stage: bench. Usage:
 *   kallsyms-load FILE N      load FILE N times, print CPU ms per load
 *                             (the first load, then the minimum and the
 *                             median of all)
 *   kallsyms-load FILE dump   load once, print the finished table (one
 *                             line per symbol) to compare implementations
 * Invariant: each load starts from an empty table and releases it, so
 * every iteration does the whole work a `scorch fold` does once.
 */
#include "symbols/kallsyms.h"
#include "symbols/table.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int load(const char *path, struct sym_table *t, uint64_t *bad,
		uint64_t *text)
{
	struct diag d = DIAG_INIT;
	sym_table_init(t);
	int rc = sym_kallsyms_load(path, t, bad, text, &d);
	if (rc < 0)
		fprintf(stderr, "kallsyms-load: %s: %s\n", path, d.msg);
	return rc;
}

static int dump(const char *path)
{
	struct sym_table t;
	uint64_t bad = 0, text = 0;
	int rc = load(path, &t, &bad, &text);
	printf("added %d bad %" PRIu64 " text %" PRIx64 " n %zu\n", rc, bad, text, t.n);
	for (size_t i = 0; i < t.n; i++) {
		const struct sym_entry *e = &t.syms[i];
		printf("%" PRIx64 " %" PRIx64 " %u %u %d %d %u %s\n", e->start,
		       e->end, e->seq, e->bind, e->module, e->sized, e->name[0] ? 1u : 0u,
		       e->name);
	}
	sym_table_release(&t);
	return rc < 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int timed(const char *path, int n)
{
	double *ms = calloc((size_t)n, sizeof(*ms));
	if (!ms)
		return 1;
	size_t syms = 0;
	for (int i = 0; i < n; i++) {
		struct sym_table t;
		uint64_t bad, text;
		double t0 = cpu_ms();
		if (load(path, &t, &bad, &text) < 0)
			return 1;
		syms = t.n;
		sym_table_release(&t);
		ms[i] = cpu_ms() - t0;
	}
	double first = ms[0]; /* fresh memory: page faults included */
	qsort(ms, (size_t)n, sizeof(*ms), cmp_double);
	printf("%zu symbols, %d loads: first %.2f ms, min %.2f ms, median %.2f ms CPU\n",
	       syms, n, first, ms[0], ms[n / 2]);
	free(ms);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: kallsyms-load FILE N|dump\n");
		return 2;
	}
	if (strcmp(argv[2], "dump") == 0)
		return dump(argv[1]);
	int n = atoi(argv[2]);
	return timed(argv[1], n > 0 ? n : 1);
}
