/*
 * events: event names to perf_event_attr type/config.
 * Stage: record. Knows perf's software and hardware event names and
 * tracepoints ("subsystem:name", id from tracefs); a ":u"/":k" suffix
 * limits a named event to user or kernel space. Invariant: a parsed
 * event always has a name perf would print for it.
 */
#include "record/record.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

struct named_event {
	const char *name;
	uint32_t type;
	uint64_t config;
};

static const struct named_event named[] = {
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "dummy", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY },
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
};

/* Strip a trailing ":u", ":k" or ":uk" modifier into ev. */
static void modifiers(struct rec_event *ev, char *base)
{
	char *colon = strrchr(base, ':');
	if (!colon || strspn(colon + 1, "ukp") != strlen(colon + 1) || !colon[1])
		return;
	bool u = strchr(colon + 1, 'u'), k = strchr(colon + 1, 'k');
	if (u && !k)
		ev->exclude_kernel = true;
	if (k && !u)
		ev->exclude_user = true;
	*colon = 0;
}

static int parse_tracepoint(struct rec_event *ev, const char *spec,
			    struct diag *d)
{
	char sys[128], name[128];
	const char *colon = strchr(spec, ':');
	size_t n = (size_t)(colon - spec);
	if (n == 0 || n >= sizeof(sys) || strlen(colon + 1) >= sizeof(name) ||
	    !colon[1] || strchr(colon + 1, ':')) {
		diag_set(d, "bad tracepoint '%s' (expected subsystem:name)", spec);
		return -EINVAL;
	}
	memcpy(sys, spec, n);
	sys[n] = 0;
	snprintf(name, sizeof(name), "%s", colon + 1);
	ev->type = PERF_TYPE_TRACEPOINT;
	return rec_tracepoint_id(sys, name, &ev->config, d);
}

int rec_event_parse(struct rec_event *ev, const char *spec, struct diag *d)
{
	char base[128];
	memset(ev, 0, sizeof(*ev));
	if (strlen(spec) >= sizeof(base) || !*spec) {
		diag_set(d, "bad event name '%s'", spec);
		return -EINVAL;
	}
	snprintf(ev->name, sizeof(ev->name), "%s", spec);
	snprintf(base, sizeof(base), "%s", spec);
	modifiers(ev, base);
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (!strcmp(base, named[i].name)) {
			ev->type = named[i].type;
			ev->config = named[i].config;
			return 0;
		}
	if (strchr(base, ':'))
		return parse_tracepoint(ev, base, d);
	diag_set(d, "unknown event '%s' (known: cpu-clock, task-clock, "
		 "page-faults, context-switches, cycles, instructions, ..., "
		 "and tracepoints as subsystem:name)", spec);
	return -ENOENT;
}

bool rec_event_fallback(struct rec_event *ev)
{
	if (ev->type != PERF_TYPE_HARDWARE ||
	    ev->config != PERF_COUNT_HW_CPU_CYCLES)
		return false;
	ev->type = PERF_TYPE_SOFTWARE;
	ev->config = PERF_COUNT_SW_CPU_CLOCK;
	snprintf(ev->name, sizeof(ev->name), "cpu-clock");
	return true;
}
