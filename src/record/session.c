/*
 * session: open the events, own the ring buffers, move records to the
 * writer (see record.h).
 * Stage: record. One fd per (event, cpu, thread); the first fd of each
 * cpu owns that cpu's ring buffer and every other fd of the cpu is
 * redirected into it (PERF_EVENT_IOC_SET_OUTPUT), as perf does. All
 * events share one sample_type so sample ids sit at the same place.
 * Invariant: the ring copy handed to the writer holds whole records;
 * only LOST/SAMPLE headers are looked at here, the bytes pass unchanged.
 */
#include "record/record.h"
#include "record/ring.h"
#include "base/xalloc.h"
#include "perfdata/record.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define DWARF_REGS_X86_64 0xff0fffULL

static long perf_event_open(struct perf_event_attr *a, pid_t pid, int cpu,
			    int group, unsigned long flags)
{
	return syscall(SYS_perf_event_open, a, pid, cpu, group, flags);
}

/* ---- cpus and threads ---- */

/* Parse "0-3,6" into a sorted list of cpus. Returns count or -EINVAL. */
static long parse_cpus(const char *list, int **out)
{
	int *cpus = NULL;
	size_t n = 0, cap = 0;
	const char *p = list;
	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		if (end == p || a < 0 || a > 4095)
			goto bad;
		if (*end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
			if (end == p || b < a || b > 4095)
				goto bad;
		}
		for (long c = a; c <= b; c++) {
			XGROW(cpus, cap, n + 1);
			cpus[n++] = (int)c;
		}
		if (*end == ',')
			end++;
		else if (*end && *end != '\n')
			goto bad;
		p = end;
	}
	if (!n)
		goto bad;
	*out = cpus;
	return (long)n;
bad:
	free(cpus);
	return -EINVAL;
}

static int online_cpus(int **out)
{
	char buf[1024] = "";
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
	}
	long n = buf[0] ? parse_cpus(buf, out) : -EINVAL;
	if (n > 0)
		return (int)n;
	long c = sysconf(_SC_NPROCESSORS_ONLN);
	*out = xcalloc((size_t)c, sizeof(int));
	for (long i = 0; i < c; i++)
		(*out)[i] = (int)i;
	return (int)c;
}

static bool cpu_online(const int *on, size_t n, int cpu)
{
	for (size_t i = 0; i < n; i++)
		if (on[i] == cpu)
			return true;
	return false;
}

static int setup_cpus(struct rec_session *s)
{
	int *on;
	int n = online_cpus(&on);
	if (!s->opts->cpu_list) {
		s->cpus = on;
		s->nr_cpus = (size_t)n;
		return 0;
	}
	long k = parse_cpus(s->opts->cpu_list, &s->cpus);
	if (k < 0) {
		free(on);
		diag_set(&s->diag, "bad cpu list '%s' (expected e.g. 0-3,6)",
			 s->opts->cpu_list);
		return -EINVAL;
	}
	s->nr_cpus = (size_t)k;
	for (size_t i = 0; i < s->nr_cpus; i++)
		if (!cpu_online(on, (size_t)n, s->cpus[i])) {
			diag_set(&s->diag, "cpu %d is not online", s->cpus[i]);
			free(on);
			return -EINVAL;
		}
	free(on);
	return 0;
}

static void add_tid(pid_t **t, size_t *n, size_t *cap, pid_t tid)
{
	XGROW(*t, *cap, *n + 1);
	(*t)[(*n)++] = tid;
}

/* Threads to open events for; -1 alone means every task (system-wide). */
static int target_threads(struct rec_session *s, pid_t **out, size_t *nr)
{
	struct rec_opts *o = s->opts;
	size_t n = 0, cap = 0;
	pid_t *t = NULL;
	if (o->system_wide || (!s->workload && !o->nr_pids && !o->nr_tids)) {
		add_tid(&t, &n, &cap, -1);
	} else if (s->workload) {
		add_tid(&t, &n, &cap, s->workload);
	}
	for (size_t i = 0; !o->system_wide && i < o->nr_pids; i++) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/task", (int)o->pids[i]);
		DIR *d = opendir(path);
		if (!d) {
			diag_set(&s->diag, "no such process: %d", (int)o->pids[i]);
			free(t);
			return -ESRCH;
		}
		struct dirent *e;
		while ((e = readdir(d)))
			if (atoi(e->d_name) > 0)
				add_tid(&t, &n, &cap, atoi(e->d_name));
		closedir(d);
	}
	for (size_t i = 0; !o->system_wide && i < o->nr_tids; i++)
		add_tid(&t, &n, &cap, o->tids[i]);
	*out = t;
	*nr = n;
	return 0;
}

/* ---- attrs ---- */

static uint64_t common_sample_type(const struct rec_session *s)
{
	const struct rec_opts *o = s->opts;
	uint64_t t = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		     PERF_SAMPLE_PERIOD;
	if (o->callgraph != REC_CG_NONE)
		t |= PERF_SAMPLE_CALLCHAIN;
	if (o->callgraph == REC_CG_DWARF)
		t |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	if (o->system_wide || o->cpu_list)
		t |= PERF_SAMPLE_CPU;
	for (size_t i = 0; i < o->nr_events; i++)
		if (o->events[i].type == PERF_TYPE_TRACEPOINT)
			t |= PERF_SAMPLE_RAW | PERF_SAMPLE_CPU;
	if (o->nr_events > 1)
		t |= PERF_SAMPLE_IDENTIFIER;
	return t;
}

static size_t id_hdr_size(uint64_t t)
{
	size_t n = 0;
	uint64_t bits[] = { PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ID,
			    PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU,
			    PERF_SAMPLE_IDENTIFIER };
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (t & bits[i])
			n += 8;
	return n;
}

static void build_attr(struct rec_session *s, size_t i)
{
	const struct rec_opts *o = s->opts;
	const struct rec_event *ev = &o->events[i];
	struct perf_event_attr *a = &s->attrs[i];
	memset(a, 0, sizeof(*a));
	a->size = PD_WRITER_ATTR_SIZE;
	a->type = ev->type;
	a->config = ev->config;
	a->sample_type = common_sample_type(s);
	a->read_format = PERF_FORMAT_ID;
	if (o->period || ev->type == PERF_TYPE_TRACEPOINT) {
		a->sample_period = o->period ? o->period : 1;
	} else {
		a->freq = 1;
		a->sample_freq = o->freq;
	}
	a->disabled = 1;
	a->inherit = o->inherit && !o->system_wide;
	a->enable_on_exec = s->workload && !o->system_wide;
	a->exclude_user = ev->exclude_user;
	a->exclude_kernel = ev->exclude_kernel;
	/* the tracking records come from the first event only */
	a->mmap = a->comm = a->task = a->mmap2 = a->comm_exec = (i == 0);
	a->ksymbol = a->bpf_event = (i == 0);
	a->sample_id_all = 1;
	a->watermark = 1;
	a->wakeup_watermark = (uint32_t)(o->mmap_pages * (size_t)sysconf(_SC_PAGESIZE) / 4);
	if (o->callgraph == REC_CG_DWARF) {
		a->sample_regs_user = DWARF_REGS_X86_64;
		a->sample_stack_user = o->stack_size;
		a->exclude_callchain_user = 1;
		/* perf's unwinder wants the [stack] map: record data maps */
		a->mmap_data = (i == 0);
	}
}

/* ---- opening ---- */

static int paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = 2;
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 2;
		fclose(f);
	}
	return v;
}

static int open_error(struct rec_session *s, size_t ev, pid_t tid, int cpu,
		      int err)
{
	const char *name = s->opts->events[ev].name;
	if (err == EACCES || err == EPERM) {
		diag_set(&s->diag, "no permission to record '%s'%s: "
			 "kernel.perf_event_paranoid is %d; run as root, give "
			 "the binary CAP_PERFMON (setcap cap_perfmon+ep), or "
			 "lower it: sysctl -w kernel.perf_event_paranoid=%d",
			 name, tid == -1 ? " system-wide" : "", paranoid(),
			 tid == -1 ? 0 : 1);
	} else if ((err == ENOENT || err == EOPNOTSUPP || err == ENODEV) &&
		   s->attrs[ev].type == PERF_TYPE_HARDWARE) {
		diag_set(&s->diag, "event '%s' is not supported by this machine: "
			 "it has no hardware PMU that counts it (use a software "
			 "event such as -e cpu-clock)", name);
	} else if (err == ENOENT || err == EOPNOTSUPP || err == ENODEV) {
		diag_set(&s->diag, "event '%s' is not supported by this machine "
			 "(%s)", name, strerror(err));
	} else if (err == ESRCH) {
		diag_set(&s->diag, "no such thread: %d", (int)tid);
	} else if (err == EMFILE) {
		diag_set(&s->diag, "too many open files (%zu event fds): "
			 "raise ulimit -n", s->nr_fds);
	} else {
		diag_set(&s->diag, "perf_event_open of '%s' on cpu %d failed: %s",
			 name, cpu, strerror(err));
	}
	return -err;
}

static int open_one(struct rec_session *s, size_t ev, pid_t tid, int cpu)
{
	for (;;) {
		long fd = perf_event_open(&s->attrs[ev], tid, cpu, -1,
					  PERF_FLAG_FD_CLOEXEC);
		if (fd >= 0)
			return (int)fd;
		int err = errno;
		struct rec_event *e = &s->opts->events[ev];
		struct perf_event_attr *a = &s->attrs[ev];
		if ((err == EACCES || err == EPERM) && tid != -1 &&
		    !a->exclude_kernel && paranoid() >= 2) {
			/* as perf does: user space only is still allowed */
			sb_addf(&s->warnings, "kernel.perf_event_paranoid is %d: "
				"recording user space only (lower it to 1 for "
				"kernel frames)\n", paranoid());
			e->exclude_kernel = true;
			build_attr(s, ev);
			continue;
		}
		if ((err == ENOENT || err == EOPNOTSUPP || err == ENODEV) &&
		    rec_event_fallback(e)) {
			if (!e->is_default)
				sb_adds(&s->warnings, "the cycles event is not "
					"supported (no hardware PMU), falling back "
					"to cpu-clock\n");
			build_attr(s, ev);
			continue;
		}
		return open_error(s, ev, tid, cpu, err);
	}
}

static int attach_ring(struct rec_session *s, int fd, int cpu)
{
	for (size_t i = 0; i < s->nr_rings; i++)
		if (s->rings[i].cpu == cpu) {
			if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, s->rings[i].fd) < 0) {
				diag_set(&s->diag, "redirecting to the cpu %d ring "
					 "buffer: %s", cpu, strerror(errno));
				return -errno;
			}
			return 0;
		}
	s->rings = xreallocarray(s->rings, s->nr_rings + 1, sizeof(*s->rings));
	int r = rec_ring_map(&s->rings[s->nr_rings], fd, cpu, s->opts->mmap_pages);
	if (r < 0) {
		diag_set(&s->diag, "mapping a %zu-page ring buffer for cpu %d: %s%s",
			 s->opts->mmap_pages, cpu, strerror(-r),
			 r == -EPERM ? " (see /proc/sys/kernel/perf_event_mlock_kb)" : "");
		return r;
	}
	s->nr_rings++;
	return 0;
}

static int open_all(struct rec_session *s, const pid_t *tids, size_t nt)
{
	size_t cap = 0;
	for (size_t e = 0; e < s->opts->nr_events; e++) {
		for (size_t c = 0; c < s->nr_cpus; c++)
			for (size_t t = 0; t < nt; t++) {
				int fd = open_one(s, e, tids[t], s->cpus[c]);
				if (fd == -ESRCH && nt > 1) {
					/* a thread that exited meanwhile (or a
					 * zombie leader): go on without it */
					diag_clear(&s->diag);
					continue;
				}
				if (fd < 0)
					return fd;
				XGROW(s->fds, cap, s->nr_fds + 1);
				s->fds[s->nr_fds++] = fd;
				uint64_t id = 0;
				if (ioctl(fd, PERF_EVENT_IOC_ID, &id) < 0) {
					diag_set(&s->diag, "PERF_EVENT_IOC_ID: %s",
						 strerror(errno));
					return -errno;
				}
				s->ids[e][s->nr_ids[e]++] = id;
				int r = attach_ring(s, fd, s->cpus[c]);
				if (r < 0)
					return r;
			}
	}
	if (s->nr_fds == 0) {
		diag_set(&s->diag, "no thread to record: they have all exited");
		return -ESRCH;
	}
	return 0;
}

static int check_freq(struct rec_session *s)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "r");
	unsigned long max = 0;
	if (!f)
		return 0;
	if (fscanf(f, "%lu", &max) != 1)
		max = 0;
	fclose(f);
	if (!max || s->opts->period || s->opts->freq <= max)
		return 0;
	if (!s->opts->freq_given) {
		sb_addf(&s->warnings, "lowering the default frequency from %llu "
			"to the kernel's maximum, %lu Hz "
			"(kernel.perf_event_max_sample_rate)\n",
			(unsigned long long)s->opts->freq, max);
		s->opts->freq = max;
		return 0;
	}
	diag_set(&s->diag, "-F %llu is above the maximum sample rate %lu "
		 "(kernel.perf_event_max_sample_rate): use a lower -F, such as "
		 "997", (unsigned long long)s->opts->freq, max);
	return -EINVAL;
}

int rec_session_open(struct rec_session *s, struct rec_opts *o, pid_t workload)
{
	pid_t *tids = NULL;
	size_t nt = 0;
	memset(s, 0, sizeof(*s));
	s->opts = o;
	s->workload = workload;
	sb_init(&s->stage);
	sb_init(&s->warnings);
	int r = check_freq(s);
	if (r == 0)
		r = setup_cpus(s);
	if (r == 0)
		r = target_threads(s, &tids, &nt);
	if (r < 0)
		return r;
	s->attrs = xcalloc(o->nr_events, sizeof(*s->attrs));
	s->ids = xcalloc(o->nr_events, sizeof(*s->ids));
	s->nr_ids = xcalloc(o->nr_events, sizeof(*s->nr_ids));
	for (size_t e = 0; e < o->nr_events; e++) {
		build_attr(s, e);
		s->ids[e] = xcalloc(s->nr_cpus * nt, sizeof(uint64_t));
	}
	s->id_hdr_size = id_hdr_size(s->attrs[0].sample_type);
	r = open_all(s, tids, nt);
	free(tids);
	return r;
}

/* ---- running ---- */

int rec_session_emit(struct rec_session *s, const void *rec, size_t len)
{
	if (s->dsos)
		rec_dsos_record(s->dsos, rec, len, s->attrs[0].sample_type);
	return pd_writer_record(s->w, rec, len);
}

/* A record that is only its 8-byte header (FINISHED_INIT, _ROUND). */
static int header_only(struct rec_session *s, uint32_t type)
{
	uint8_t h[8] = { 0 };
	uint16_t size = 8;
	memcpy(h, &type, 4);
	memcpy(h + 6, &size, 2);
	return pd_writer_record(s->w, h, 8);
}

static int finished_init(struct rec_session *s)
{
	return header_only(s, PD_RECORD_FINISHED_INIT);
}

int rec_session_start(struct rec_session *s, struct pd_writer *w)
{
	struct rec_opts *o = s->opts;
	s->w = w;
	for (size_t e = 0; e < o->nr_events; e++)
		pd_writer_add_attr(w, &s->attrs[e], s->ids[e], s->nr_ids[e],
				   o->events[e].name);
	int r = pd_writer_begin(w);
	if (r < 0)
		return r;
	rec_synth_kernel(s);
	rec_synth_modules(s);
	if (o->system_wide) {
		rec_synth_all(s);
	} else {
		for (size_t i = 0; i < o->nr_pids; i++)
			rec_synth_process(s, o->pids[i], false);
		for (size_t i = 0; i < o->nr_tids; i++)
			rec_synth_process(s, o->tids[i], false);
	}
	if (s->workload && !o->system_wide)
		rec_synth_process(s, s->workload, true);
	finished_init(s);
	return w->err;
}

void rec_session_enable(struct rec_session *s)
{
	for (size_t i = 0; i < s->nr_fds; i++)
		ioctl(s->fds[i], PERF_EVENT_IOC_ENABLE, 0);
}

void rec_session_disable(struct rec_session *s)
{
	for (size_t i = 0; i < s->nr_fds; i++)
		ioctl(s->fds[i], PERF_EVENT_IOC_DISABLE, 0);
}

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

/* Statistics from one record: samples, times, lost counts. */
static void look_at(struct rec_session *s, const uint8_t *p, size_t size)
{
	uint32_t type;
	memcpy(&type, p, 4);
	uint64_t st = s->attrs[0].sample_type;
	if (type == PERF_RECORD_SAMPLE) {
		size_t off = 8 + ((st & PERF_SAMPLE_IDENTIFIER) ? 8 : 0) + 8 + 8;
		s->samples++;
		if (off + 8 <= size) {
			uint64_t t = rd64(p + off);
			if (!s->first_time || t < s->first_time)
				s->first_time = t;
			if (t > s->last_time)
				s->last_time = t;
		}
	} else if (type == PERF_RECORD_LOST && size >= 24) {
		s->lost += rd64(p + 16);
		s->lost_records++;
	} else if (type == PERF_RECORD_LOST_SAMPLES && size >= 16) {
		s->lost += rd64(p + 8);
		s->lost_records++;
	}
	if (s->dsos)
		rec_dsos_record(s->dsos, p, size, st);
}

static void scan(struct rec_session *s, const uint8_t *p, size_t len)
{
	size_t off = 0;
	while (off + 8 <= len) {
		uint16_t size;
		memcpy(&size, p + off + 6, 2);
		if (size < 8 || off + size > len)
			break;
		look_at(s, p + off, size);
		off += size;
	}
}

static int finished_round(struct rec_session *s)
{
	return header_only(s, PD_RECORD_FINISHED_ROUND);
}

int rec_session_poll(struct rec_session *s, int timeout_ms, bool *got)
{
	*got = false;
	if (timeout_ms) {
		/* a ring whose fd hung up (its thread exited) would make poll
		 * return at once forever: leave it out, it is still drained */
		struct pollfd pf[256];
		size_t at[256], n = 0;
		for (size_t i = 0; i < s->nr_rings && n < 256; i++) {
			if (s->rings[i].hup)
				continue;
			pf[n].fd = s->rings[i].fd;
			pf[n].events = POLLIN;
			pf[n].revents = 0;
			at[n++] = i;
		}
		if (poll(pf, n, timeout_ms) < 0 && errno != EINTR)
			return -errno;
		for (size_t i = 0; i < n; i++)
			if (pf[i].revents & (POLLHUP | POLLERR))
				s->rings[at[i]].hup = true;
	}
	for (size_t i = 0; i < s->nr_rings; i++) {
		sb_reset(&s->stage);
		size_t n = rec_ring_read(&s->rings[i], &s->stage);
		if (!n)
			continue;
		*got = true;
		s->bytes += n;
		scan(s, (const uint8_t *)s->stage.buf, s->stage.len);
		if (pd_writer_data(s->w, s->stage.buf, s->stage.len) < 0) {
			diag_set(&s->diag, "%s", s->w->diag.msg);
			return s->w->err;
		}
	}
	if (*got)
		finished_round(s);
	if (*got && s->w->pipe)
		pd_writer_flush(s->w);   /* a live reader sees each round */
	return s->w->err;
}

bool rec_session_targets_gone(struct rec_session *s)
{
	struct rec_opts *o = s->opts;
	if (o->system_wide || (!o->nr_pids && !o->nr_tids))
		return false;
	for (size_t i = 0; i < o->nr_pids; i++)
		if (kill(o->pids[i], 0) == 0 || errno != ESRCH)
			return false;
	for (size_t i = 0; i < o->nr_tids; i++) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d", (int)o->tids[i]);
		if (access(path, F_OK) == 0)
			return false;
	}
	return true;
}

static void sample_time_feature(struct rec_session *s)
{
	struct strbuf sb = SB_INIT;
	pd_feat_u64(&sb, s->first_time);
	pd_feat_u64(&sb, s->last_time);
	pd_writer_set_feature(s->w, PD_FEAT_SAMPLE_TIME, sb.buf, sb.len);
	sb_release(&sb);
}

int rec_session_stop(struct rec_session *s, bool buildid_cache)
{
	bool got = true;
	int r = 0;
	rec_session_disable(s);
	for (int i = 0; got && i < 1000 && r == 0; i++)
		r = rec_session_poll(s, 0, &got);
	if (r < 0 || s->w->pipe)
		return r;
	if (s->samples)
		sample_time_feature(s);
	if (s->dsos) {
		struct strbuf sb = SB_INIT;
		rec_dsos_buildids(s->dsos, &sb, buildid_cache);
		pd_writer_set_feature(s->w, PD_FEAT_BUILD_ID, sb.buf, sb.len);
		sb_release(&sb);
	}
	return 0;
}

void rec_session_close(struct rec_session *s)
{
	for (size_t i = 0; i < s->nr_rings; i++)
		rec_ring_unmap(&s->rings[i]);
	for (size_t i = 0; i < s->nr_fds; i++)
		close(s->fds[i]);
	free(s->rings);
	free(s->fds);
	if (s->ids)
		for (size_t e = 0; e < s->opts->nr_events; e++)
			free(s->ids[e]);
	free(s->ids);
	free(s->nr_ids);
	free(s->attrs);
	free(s->cpus);
	rec_dsos_free(s->dsos);
	sb_release(&s->stage);
	sb_release(&s->warnings);
	memset(s, 0, sizeof(*s));
}
