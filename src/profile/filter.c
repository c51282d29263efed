/*
 * filter: which samples count, as perf script's --time, --cpu, --comm
 * and --event choose them (see filter.h). Stage: profile.
 */
#include "profile/filter.h"

#include "base/opt.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* "2390.371200" -> ns; returns 0 or -1. */
static int parse_seconds(const char *s, size_t n, uint64_t *out)
{
	uint64_t sec = 0, frac = 0;
	size_t i = 0;
	int fd = 0;
	for (; i < n && isdigit((unsigned char)s[i]); i++) {
		if (sec > UINT64_MAX / 10 / 1000000000u)
			return -1;
		sec = sec * 10 + (uint64_t)(s[i] - '0');
	}
	if (i == 0 && (i >= n || s[i] != '.'))
		return -1;
	if (i < n && s[i] == '.') {
		for (i++; i < n && isdigit((unsigned char)s[i]); i++)
			if (fd < 9) {
				frac = frac * 10 + (uint64_t)(s[i] - '0');
				fd++;
			}
	}
	if (i != n)
		return -1;
	while (fd++ < 9)
		frac *= 10;
	*out = sec * 1000000000u + frac;
	return 0;
}

static int parse_time(struct prof_filter *f, const char *t)
{
	const char *comma = strchr(t, ',');
	if (!comma)
		return -1;
	const char *a = t, *b = comma + 1;
	size_t an = (size_t)(comma - t), bn = strlen(b);
	if ((an && a[0] == '+') || (bn && b[0] == '+')) {
		f->relative = true;
		if (an && a[0] == '+')
			a++, an--;
		if (bn && b[0] == '+')
			b++, bn--;
	}
	if (an) {
		if (parse_seconds(a, an, &f->start) < 0)
			return -1;
		f->have_start = true;
	}
	if (bn) {
		if (parse_seconds(b, bn, &f->end) < 0)
			return -1;
		f->have_end = true;
	}
	return 0;
}

static int parse_cpus(struct prof_filter *f, const char *s)
{
	const char *p = s;
	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b;
		if (end == p || a < 0 || a >= 1024)
			return -1;
		b = a;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (end == p + 1 || b < a || b >= 1024)
				return -1;
			p = end;
		}
		for (long c = a; c <= b; c++)
			f->cpus[c / 64] |= 1ull << (c % 64);
		if (*p == ',')
			p++;
		else if (*p)
			return -1;
	}
	f->have_cpus = true;
	return 0;
}

int prof_filter_init(struct prof_filter *f, const char *time,
		     const char *cpu, const char *comm, const char *event,
		     struct diag *d)
{
	memset(f, 0, sizeof(*f));
	if (time && parse_time(f, time) < 0) {
		diag_set(d, "bad --time '%s': expected START,END in seconds (either may be empty, +S for seconds from the first sample)", time);
		return -EINVAL;
	}
	if (cpu && parse_cpus(f, cpu) < 0) {
		diag_set(d, "bad --cpu '%s': expected a list such as 0-3,6", cpu);
		return -EINVAL;
	}
	f->comms = comm;
	f->event = event;
	f->time_arg = time;
	f->cpu_arg = cpu;
	return 0;
}

const char *prof_event_name(const struct proc_sample *ps)
{
	return ps->s->attr && ps->s->attr->name ? ps->s->attr->name : "unknown";
}

static bool event_match(const char *want, const char *name)
{
	size_t n = strlen(want);
	if (strcmp(want, name) == 0)
		return true;
	if (strncmp(want, name, n) != 0 || name[n] != ':')
		return false;
	for (const char *p = name + n + 1; *p; p++)
		if (!strchr("ukhpPGHSDIW", *p))
			return false;
	return true;
}

static bool keep(struct prof_filter *f, const struct proc_sample *ps)
{
	const struct pd_sample *s = ps->s;
	if (f->have_start || f->have_end) {
		uint64_t t = s->time;
		if (f->relative)
			t = t >= f->first_time ? t - f->first_time : 0;
		if ((f->have_start && t < f->start) || (f->have_end && t > f->end))
			return f->out_time++, false;
	}
	if (f->have_cpus) {
		if (!(s->sample_type & PD_SAMPLE_CPU) || s->cpu >= 1024 ||
		    !(f->cpus[s->cpu / 64] >> (s->cpu % 64) & 1))
			return f->out_cpu++, false;
	}
	if (f->comms && !opt_list_has(f->comms, ps->thread->comm))
		return f->out_comm++, false;
	if (f->event && !event_match(f->event, prof_event_name(ps)))
		return f->out_event++, false;
	return true;
}

bool prof_filter_keep(struct prof_filter *f, const struct proc_sample *ps)
{
	uint64_t t = ps->s->time;
	if (!f->have_first) {
		f->first_time = f->min_time = f->max_time = t;
		f->have_first = true;
	}
	f->min_time = t < f->min_time ? t : f->min_time;
	f->max_time = t > f->max_time ? t : f->max_time;
	f->seen++;
	bool k = keep(f, ps);
	f->kept += k;
	return k;
}

bool prof_filter_note(const struct prof_filter *f, const char *path,
		      struct strbuf *sb)
{
	if (!f->seen || f->kept)
		return false;
	const char *what = NULL, *arg = NULL;
	if (f->out_time == f->seen) {
		sb_addf(sb, "%s: no sample in --time %s: the %llu samples span "
			"%llu.%06llu to %llu.%06llu s (+%.6f s)", path, f->time_arg,
			(unsigned long long)f->seen,
			(unsigned long long)(f->min_time / 1000000000u),
			(unsigned long long)(f->min_time % 1000000000u / 1000u),
			(unsigned long long)(f->max_time / 1000000000u),
			(unsigned long long)(f->max_time % 1000000000u / 1000u),
			(double)(f->max_time - f->min_time) / 1e9);
		return true;
	}
	if (f->out_cpu == f->seen)
		what = "--cpu", arg = f->cpu_arg;
	else if (f->out_comm == f->seen)
		what = "--comm", arg = f->comms;
	else if (f->out_event == f->seen)
		what = "--event", arg = f->event;
	if (what)
		sb_addf(sb, "%s: no sample matches %s %s (of %llu samples)", path, what,
			arg, (unsigned long long)f->seen);
	else
		sb_addf(sb, "%s: no sample matches the filters (of %llu: %llu outside "
			"--time, %llu --cpu, %llu --comm, %llu --event)", path,
			(unsigned long long)f->seen, (unsigned long long)f->out_time,
			(unsigned long long)f->out_cpu, (unsigned long long)f->out_comm,
			(unsigned long long)f->out_event);
	return true;
}
