/*
 * schedlist: the CPU and task lists of the scorch sched options, parsed
 * as perf parses them: CPUs "0-3,6" (perf's cpu map syntax), task ids
 * "12,345" (comma-separated).
 * Stage: analysis (option values -> sets; no I/O).
 * Key invariant: a set holds CPUs below AN_SCHED_MAX_CPUS only (perf's
 * MAX_CPUS); a list naming a larger one, or malformed, is refused whole.
 * Ownership: embedded objects; an_idlist_release frees the ids.
 */
#ifndef SCORCH_ANALYSIS_SCHEDLIST_H
#define SCORCH_ANALYSIS_SCHEDLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"

#define AN_SCHED_MAX_CPUS 4096

/* The sched analyses append their lines to a strbuf and call this when it
 * holds more than 64 KiB and at the end; it returns 0, or negative to stop
 * the run (the run then returns it). */
typedef int (*an_sched_flush_fn)(void *ctx, struct strbuf *out);

struct an_cpuset {
	bool set;                                /* a list was given */
	uint64_t bits[AN_SCHED_MAX_CPUS / 64];
};

struct an_idlist {
	int32_t *ids;     /* sorted, NULL when no list was given */
	size_t n;
};

/* Parse "0-3,6" into s. Returns 0, or -EINVAL (s then empty and unset). */
int an_cpuset_parse(struct an_cpuset *s, const char *list);
/* Whether cpu is in s (true for any cpu when no list was given). */
bool an_cpuset_has(const struct an_cpuset *s, uint32_t cpu);

/* Parse "12,345" (integers, perf's intlist) into l. Returns 0 or -EINVAL. */
int an_idlist_parse(struct an_idlist *l, const char *list);
bool an_idlist_has(const struct an_idlist *l, int32_t id);
void an_idlist_release(struct an_idlist *l);

#endif
