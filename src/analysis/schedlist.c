/*
 * schedlist: CPU and task id lists of the sched options (see schedlist.h).
 * Stage: analysis. Key invariant: nothing is kept from a refused list.
 */
#include "analysis/schedlist.h"

#include "base/xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* One unsigned decimal number at *p (no sign), below limit. */
static int number(const char **p, unsigned long limit, unsigned long *out)
{
	const char *s = *p;
	if (*s < '0' || *s > '9')
		return -EINVAL;
	unsigned long v = 0;
	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (unsigned long)(*s++ - '0');
		if (v >= limit)
			return -EINVAL;
	}
	*p = s;
	*out = v;
	return 0;
}

int an_cpuset_parse(struct an_cpuset *s, const char *list)
{
	memset(s, 0, sizeof(*s));
	const char *p = list;
	while (*p) {
		unsigned long a, b;
		if (number(&p, AN_SCHED_MAX_CPUS, &a) < 0)
			goto bad;
		b = a;
		if (*p == '-') {
			p++;
			if (number(&p, AN_SCHED_MAX_CPUS, &b) < 0 || b < a)
				goto bad;
		}
		for (unsigned long c = a; c <= b; c++)
			s->bits[c / 64] |= (uint64_t)1 << (c % 64);
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			goto bad;
	}
	if (p == list)
		goto bad;
	s->set = true;
	return 0;
bad:
	memset(s, 0, sizeof(*s));
	return -EINVAL;
}

bool an_cpuset_has(const struct an_cpuset *s, uint32_t cpu)
{
	if (!s->set)
		return true;
	return cpu < AN_SCHED_MAX_CPUS && (s->bits[cpu / 64] >> (cpu % 64) & 1);
}

static int cmp_id(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

int an_idlist_parse(struct an_idlist *l, const char *list)
{
	memset(l, 0, sizeof(*l));
	size_t cap = 0;
	const char *p = list;
	do {
		char *end;
		errno = 0;
		long v = strtol(p, &end, 10);
		if (end == p || errno || v < INT32_MIN || v > INT32_MAX ||
		    (*end && *end != ',')) {
			an_idlist_release(l);
			return -EINVAL;
		}
		XGROW(l->ids, cap, l->n + 1);
		l->ids[l->n++] = (int32_t)v;
		p = *end ? end + 1 : end;
	} while (*p);
	qsort(l->ids, l->n, sizeof(*l->ids), cmp_id);
	return 0;
}

bool an_idlist_has(const struct an_idlist *l, int32_t id)
{
	return bsearch(&id, l->ids, l->n, sizeof(*l->ids), cmp_id) != NULL;
}

void an_idlist_release(struct an_idlist *l)
{
	free(l->ids);
	memset(l, 0, sizeof(*l));
}
