/*
 * opts: option values of `scorch record` into struct rec_opts: event
 * lists, pid lists, call graph modes, and the defaults and rules that
 * follow from what was given. Stage: record. Returns 0 or -EINVAL; what
 * a command prints on -EINVAL is its own (an event's detail is in diag).
 */
#include "record/record.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

void rec_opts_init(struct rec_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->freq = 4000;
	o->inherit = true;
	o->stack_size = 8192;
	o->mmap_pages = 128;
}

void rec_opts_release(struct rec_opts *o)
{
	free(o->events);
	free(o->pids);
	free(o->tids);
	o->events = NULL;
	o->pids = o->tids = NULL;
	o->nr_events = o->nr_pids = o->nr_tids = 0;
}

bool rec_parse_u64(const char *s, uint64_t *v)
{
	char *end;
	errno = 0;
	unsigned long long x = strtoull(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-')
		return false;
	*v = x;
	return true;
}

int rec_opts_add_events(struct rec_opts *o, const char *list, struct diag *d)
{
	char *copy = xstrdup(list), *save = NULL;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		o->events = xreallocarray(o->events, o->nr_events + 1, sizeof(*o->events));
		if (rec_event_parse(&o->events[o->nr_events], t, d) < 0) {
			free(copy);
			return -EINVAL;
		}
		o->nr_events++;
	}
	free(copy);
	return 0;
}

int rec_opts_add_pids(pid_t **list, size_t *n, const char *s)
{
	char *copy = xstrdup(s), *save = NULL;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		uint64_t v;
		if (!rec_parse_u64(t, &v) || v == 0 || v > 0x7fffffff) {
			free(copy);
			return -EINVAL;
		}
		*list = xreallocarray(*list, *n + 1, sizeof(**list));
		(*list)[(*n)++] = (pid_t)v;
	}
	free(copy);
	return 0;
}

int rec_opts_callgraph(struct rec_opts *o, const char *m)
{
	if (!strcmp(m, "fp")) {
		o->callgraph = REC_CG_FP;
		return 0;
	}
	if (strncmp(m, "dwarf", 5) || (m[5] && m[5] != ','))
		return -EINVAL;
	o->callgraph = REC_CG_DWARF;
	if (m[5] == ',') {
		uint64_t size;
		if (!rec_parse_u64(m + 6, &size) || size == 0 || size > 65528)
			return -EINVAL;
		o->stack_size = (uint32_t)((size + 7) & ~7ULL);
	}
	return 0;
}

int rec_opts_finish(struct rec_opts *o, bool mmap_set, struct diag *d)
{
	if (!o->nr_events) {
		if (rec_opts_add_events(o, "cycles", d) < 0)
			return -EINVAL;
		o->events[0].is_default = true;
	}
	if (o->callgraph == REC_CG_DWARF && !mmap_set)
		o->mmap_pages = 512;
	return 0;
}
