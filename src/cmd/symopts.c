/*
 * symopts: symbol source options and sample filters shared by the
 * perf.data commands (see symopts.h). Stage: command helpers.
 */
#include "cmd/symopts.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "symbols/archive.h"
#include "symbols/fs.h"

/* A file named by --kallsyms or --vdso that is not there is a typo, not
 * "no symbols": say so (exit 1) instead of printing hex addresses. */
static int named_file_exists(const char *option, const char *path)
{
	if (!path)
		return 1;
	char *real = sym_fs_resolve(path);
	if (!real) {
		diag_error("--%s %s: no such file", option, path);
		return 0;
	}
	free(real);
	return 1;
}

/* An archive on a pipe (<(...), a FIFO): the unpacker reads its magic and
 * starts again, so it gets a copy in an unlinked temporary file, named by
 * its /proc path; NULL (errno set) when the copy fails. */
static FILE *copy_pipe(const char *path, char *name, size_t size)
{
	FILE *in = fopen(path, "rb"), *out = in ? tmpfile() : NULL;
	char buf[65536];
	size_t n;
	bool ok = out != NULL;
	while (ok && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		ok = fwrite(buf, 1, n, out) == n;
	int err = errno;
	ok = ok && !ferror(in) && fflush(out) == 0;
	if (in)
		fclose(in);
	if (!ok) {
		if (out)
			fclose(out);
		errno = err ? err : EIO;
		return NULL;
	}
	snprintf(name, size, "/proc/%d/fd/%d", (int)getpid(), fileno(out));
	return out;
}

/* --buildid-dir names an archive: a file, or a pipe that is not a
 * directory (a FIFO, <(...)). Unpacked into so->tmpdir; 0 or 1 after a
 * message. */
static int unpack_archive(struct symopts *so, const char *path)
{
	struct diag d = DIAG_INIT;
	char name[64];
	FILE *copy = NULL;
	if (!sym_fs_is_file(path)) {
		copy = copy_pipe(path, name, sizeof(name));
		if (!copy) {
			diag_error("%s: %s", path, strerror(errno));
			return 1;
		}
	}
	so->tmpdir = sym_archive_unpack(copy ? name : path, &d);
	if (copy)
		fclose(copy);
	if (!so->tmpdir) {
		diag_print(&d, path);
		return 1;
	}
	return 0;
}

int symopts_config(struct symopts *so, struct sym_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	if (!named_file_exists("kallsyms", so->kallsyms) ||
	    !named_file_exists("vdso", so->vdso))
		return 1;
	const char *dir = so->buildid_dir;
	struct stat st;
	if (dir && stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
		if (unpack_archive(so, dir))
			return 1;
		dir = so->tmpdir;
	}
	if (!dir)
		dir = getenv("PERF_BUILDID_DIR");
	if (!dir || !*dir) {
		const char *home = getenv("HOME");
		if (home && *home) {
			so->home_debug = sym_fs_join(home, ".debug");
			dir = so->home_debug;
		}
	}
	if (dir)
		cfg->buildid_dirs[cfg->nr_buildid_dirs++] = dir;
	cfg->symfs = so->symfs;
	cfg->kallsyms = so->kallsyms;
	cfg->vdso = so->vdso;
	if (so->vdso && !sym_fs_is_file(so->vdso)) {
		/* an ELF image is read with seeks: a pipe's is copied first */
		so->vdso_copy = copy_pipe(so->vdso, so->vdso_name, sizeof(so->vdso_name));
		if (!so->vdso_copy) {
			diag_error("--vdso %s: %s", so->vdso, strerror(errno));
			symopts_release(so); /* the unpacked archive, if any */
			return 1;
		}
		cfg->vdso = so->vdso_name;
	}
	cfg->jit_dir = so->jit_dir;
	return 0;
}

void symopts_release(struct symopts *so)
{
	if (so->tmpdir)
		sym_archive_remove_tree(so->tmpdir);
	free(so->tmpdir);
	free(so->home_debug);
	if (so->vdso_copy)
		fclose(so->vdso_copy);
	so->vdso_copy = NULL;
	so->tmpdir = so->home_debug = NULL;
}

bool symopts_option(struct symopts *so, int id, const char *arg)
{
	switch (id) {
	case SYMOPT_BUILDID_DIR: so->buildid_dir = arg; break;
	case SYMOPT_SYMFS: so->symfs = arg; break;
	case SYMOPT_KALLSYMS: so->kallsyms = arg; break;
	case SYMOPT_VDSO: so->vdso = arg; break;
	case SYMOPT_JIT_DIR: so->jit_dir = arg; break;
	case SYMOPT_TIME: so->time = arg; break;
	case SYMOPT_CPU: so->cpu = arg; break;
	case SYMOPT_COMM: so->comm = arg; break;
	case SYMOPT_EVENT: so->event = arg; break;
	default: return false;
	}
	return true;
}

int symopts_operand(struct opt_state *st, int argc, char **argv,
		    const struct opt_cmd *cmd, const char **input)
{
	if (st->ind < argc)
		*input = argv[st->ind++];
	if (st->ind < argc)
		return opt_usage_error(cmd, "too many operands");
	if (!*input)
		*input = "perf.data";
	return 0;
}

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

static int parse_time(struct sample_filter *f, const char *t)
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

static int parse_cpus(struct sample_filter *f, const char *s)
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

int sample_filter_init(struct sample_filter *f, const char *time,
		       const char *cpu, const char *comm, const char *event,
		       const char *cmd)
{
	memset(f, 0, sizeof(*f));
	if (time && parse_time(f, time) < 0) {
		diag_error("bad --time '%s': expected START,END in seconds (either may be empty, +S for seconds from the first sample)", time);
		return 2;
	}
	if (cpu && parse_cpus(f, cpu) < 0) {
		diag_error("bad --cpu '%s': expected a list such as 0-3,6", cpu);
		return 2;
	}
	f->comms = comm;
	f->event = event;
	f->time_arg = time;
	f->cpu_arg = cpu;
	(void)cmd;
	return 0;
}

static bool in_list(const char *list, const char *s)
{
	size_t n = strlen(s);
	for (const char *p = list; *p;) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);
		if (len == n && memcmp(p, s, n) == 0)
			return true;
		if (!c)
			break;
		p = c + 1;
	}
	return false;
}

const char *sample_event_name(const struct proc_sample *ps)
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

static bool keep(struct sample_filter *f, const struct proc_sample *ps)
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
	if (f->comms && !in_list(f->comms, ps->thread->comm))
		return f->out_comm++, false;
	if (f->event && !event_match(f->event, sample_event_name(ps)))
		return f->out_event++, false;
	return true;
}

bool sample_filter_keep(struct sample_filter *f, const struct proc_sample *ps)
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

void sample_filter_report(const struct sample_filter *f, const char *path)
{
	if (!f->seen || f->kept)
		return;
	const char *what = NULL, *arg = NULL;
	if (f->out_time == f->seen) {
		diag_warn("%s: no sample in --time %s: the %llu samples span "
			  "%llu.%06llu to %llu.%06llu s (+%.6f s)", path, f->time_arg,
			  (unsigned long long)f->seen,
			  (unsigned long long)(f->min_time / 1000000000u),
			  (unsigned long long)(f->min_time % 1000000000u / 1000u),
			  (unsigned long long)(f->max_time / 1000000000u),
			  (unsigned long long)(f->max_time % 1000000000u / 1000u),
			  (double)(f->max_time - f->min_time) / 1e9);
		return;
	}
	if (f->out_cpu == f->seen)
		what = "--cpu", arg = f->cpu_arg;
	else if (f->out_comm == f->seen)
		what = "--comm", arg = f->comms;
	else if (f->out_event == f->seen)
		what = "--event", arg = f->event;
	if (what)
		diag_warn("%s: no sample matches %s %s (of %llu samples)", path, what,
			  arg, (unsigned long long)f->seen);
	else
		diag_warn("%s: no sample matches the filters (of %llu: %llu outside "
			  "--time, %llu --cpu, %llu --comm, %llu --event)", path,
			  (unsigned long long)f->seen, (unsigned long long)f->out_time,
			  (unsigned long long)f->out_cpu, (unsigned long long)f->out_comm,
			  (unsigned long long)f->out_event);
}

int symopts_report_dropped(const struct pd_dropped *dr, const char *path)
{
	if (!dr->n)
		return 0;
	bool all = dr->n >= dr->total;
	struct strbuf sb = SB_INIT;
	sb_addf(&sb, "%s: %" PRIu64 " of %" PRIu64 " samples dropped as malformed "
		"(first at offset %#" PRIx64 ": %s)", path, dr->n, dr->total,
		dr->first_offset, dr->why);
	if (all)
		diag_error("%s", sb.buf);
	else
		diag_warn("%s", sb.buf);
	sb_release(&sb);
	return all;
}

int symopts_report_warnings(struct proc_session *ses, const char *path)
{
	struct sym_dsos *d = &ses->dsos;
	if (d->nr_warnings) {
		const char *p = d->warnings.buf;
		while (*p) {
			const char *nl = strchr(p, '\n');
			size_t len = nl ? (size_t)(nl - p) : strlen(p);
			diag_warn("%.*s", (int)len, p);
			p += len + (nl != NULL);
		}
	}
	struct strbuf names = SB_INIT;
	const char *first = NULL;
	size_t n = sym_dsos_missing(d, &names, &first);
	if (n == 1)
		diag_warn("%s: no binary for %s (gone, or rebuilt since the "
			  "recording): its frames show as [%s]", path, names.buf, first);
	else if (n)
		diag_warn("%s: no binary for %s (gone, or rebuilt since the "
			  "recording): their frames show as [name]", path, names.buf);
	sb_release(&names);
	const struct diag *dmg = proc_session_damage(ses);
	if (dmg)
		diag_print_kept(dmg, path);
	return symopts_report_session_dropped(ses, path);
}

int symopts_report_session_dropped(struct proc_session *ses, const char *path)
{
	struct pd_dropped dr;
	pd_reader_dropped(ses->reader, &dr);
	return symopts_report_dropped(&dr, path);
}

int symopts_report_run(struct proc_session *ses, int rc, const char *path)
{
	if (rc >= 0)
		return symopts_report_warnings(ses, path);
	diag_print(&ses->diag, path);
	return 0;
}

int symopts_run_unwound(struct proc_session *ses, enum unw_inline mode,
			proc_sample_fn fn, void *ctx, const char *path)
{
	struct unw_perf up;
	unw_perf_attach(&up, ses, mode);
	int rc = proc_session_run(ses, fn, ctx);
	struct strbuf uw = SB_INIT;
	if (unw_perf_detach(&up, ses, &uw) && rc >= 0)
		diag_warn("%s: %s", path, uw.buf);
	sb_release(&uw);
	return rc;
}
