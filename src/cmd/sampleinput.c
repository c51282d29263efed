/*
 * sampleinput: inputs into a profile with per-sample rows (see
 * sampleinput.h). Stage: command helpers. Key invariant: each input is
 * folded into its own stack table, whose stacks and rows are then added
 * to the profile, so the profile's counts are the fold's.
 */
#include "cmd/sampleinput.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/lines.h"
#include "base/xalloc.h"
#include "cmd/input.h"
#include "cmd/perfinput.h"
#include "stacks/folded.h"

/* One sample as the sink saw it (time as recorded). */
struct raw_row {
	size_t stack;
	uint64_t weight, time;
	int32_t pid, tid;
};

struct raw_rows {
	struct raw_row *v;
	size_t n, cap;
};

static void on_row(void *ctx, size_t stack, uint64_t weight, const struct pd_sample *s)
{
	struct raw_rows *r = ctx;
	XGROW(r->v, r->cap, r->n + 1);
	r->v[r->n++] = (struct raw_row){ stack, weight,
		(s->sample_type & PD_SAMPLE_TIME) ? s->time : 0,
		(int32_t)s->pid, (int32_t)s->tid };
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The input's wall time: a regular file's mtime, else now. */
static uint64_t input_time(int fd)
{
	struct stat st;
	if (fd >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_mtim.tv_sec >= 0)
		return (uint64_t)st.st_mtim.tv_sec * 1000000000u + (uint64_t)st.st_mtim.tv_nsec;
	return now_ns();
}

void sample_input_init(struct sample_input *in, const char *cmd)
{
	memset(in, 0, sizeof(*in));
	in->cmd = cmd;
	profile_init(&in->prof, PROF_COL_TIME | PROF_COL_PID | PROF_COL_TID);
	in->info = (struct fold_perfdata_info)FOLD_PERFDATA_INFO_INIT;
}

void sample_input_release(struct sample_input *in)
{
	profile_release(&in->prof);
	fold_perfdata_info_release(&in->info);
	sample_input_init(in, in->cmd);
}

void sample_input_host(const struct sample_input *in, struct strbuf *out)
{
	char name[256];
	sb_reset(out);
	if (in->info.hostname.len) {
		sb_add(out, in->info.hostname.buf, in->info.hostname.len);
		return;
	}
	if (gethostname(name, sizeof(name)) == 0) {
		name[sizeof(name) - 1] = 0;
		sb_adds(out, name);
	}
}

static void note_range(struct sample_input *in, uint64_t t)
{
	if (!in->first_ns || t < in->first_ns)
		in->first_ns = t;
	if (t > in->last_ns)
		in->last_ns = t;
}

/* Wall ns of a recorded time: CLOCK_DATA, else the last sample at when. */
static uint64_t wall_of(const struct fold_perfdata_info *pi, uint64_t t, uint64_t when)
{
	if (!pi->have_times)
		return when;
	if (pi->have_clock)
		return t >= pi->clock_ns ? pi->clock_tod_ns + (t - pi->clock_ns)
			: pi->clock_tod_ns - (pi->clock_ns - t < pi->clock_tod_ns
					      ? pi->clock_ns - t : pi->clock_tod_ns);
	uint64_t back = pi->last_time - t; /* t <= last_time */
	return back < when ? when - back : 0;
}

/* Move one input's table (and rows, when it had any) into the profile. */
static void add_table(struct sample_input *in, const struct stack_table *t,
		      const struct raw_rows *rows, const struct fold_perfdata_info *pi,
		      uint64_t when)
{
	size_t n = stack_table_count(t);
	uint32_t *map = xreallocarray(NULL, n ? n : 1, sizeof(*map));
	for (size_t i = 0; i < n; i++) {
		size_t len;
		const char *key = stack_table_key(t, i, &len);
		uint64_t v = rows ? 0 : stack_table_value(t, i);
		map[i] = profile_add_folded(&in->prof, key, len, v, v);
	}
	for (size_t i = 0; rows && i < rows->n; i++) {
		const struct raw_row *r = &rows->v[i];
		struct prof_sample s = { wall_of(pi, r->time, when), r->pid, r->tid, 0 };
		profile_sample(&in->prof, map[r->stack], r->weight, &s);
		note_range(in, s.time);
	}
	free(map);
}

static void table_add(void *ctx, const char *stack, size_t len, uint64_t count)
{
	stack_table_add(ctx, stack, len, count);
}

static int read_folded(struct stack_table *t, struct lines *lr)
{
	return cmd_read_folded(lr, lr->name, table_add, t);
}

/* perf.data (file or pipe) with the sink: rows kept. */
static int read_perf(struct lines *lr, const char *path, const struct fold_perfdata_opts *fo,
		     struct stack_table *t, struct raw_rows *rows,
		     struct fold_perfdata_info *pi)
{
	struct fold_perfdata_opts o = *fo;
	struct fold_sample_sink sink = { on_row, rows };
	o.info = pi;
	o.sink = &sink;
	return fold_perf_data(lr, path, &o, t);
}

int sample_input_read(struct sample_input *in, const struct fold_perfdata_opts *fo,
		      const char *path)
{
	struct lines lr;
	const char *name = path && strcmp(path, "-") ? path : "<stdin>";
	int rc = lines_open(&lr, path);
	if (rc < 0) {
		diag_error("%s: %s", name, strerror(-rc));
		return 1;
	}
	uint64_t when = input_time(lr.fd);
	if (!in->perf_inputs && !in->folded_inputs)
		in->input_ns = when;
	struct stack_table t = STACK_TABLE_INIT;
	struct raw_rows rows = { NULL, 0, 0 };
	struct fold_perfdata_info pi = FOLD_PERFDATA_INFO_INIT;
	enum fold_input_kind kind = fold_input_kind(&lr);
	bool perf = kind == FOLD_INPUT_PERF_DATA || kind == FOLD_INPUT_PERF_SCRIPT;
	if (kind == FOLD_INPUT_BINARY) {
		fold_input_binary_error(&lr, name, in->cmd);
		rc = 1;
	} else if (kind == FOLD_INPUT_FOLDED) {
		rc = read_folded(&t, &lr);
	} else if (kind == FOLD_INPUT_PERF_DATA) {
		rc = read_perf(&lr, path, fo, &t, &rows, &pi);
	} else {
		rc = fold_perf_input(&lr, path ? path : "-", kind, &t, &pi, NULL);
	}
	if (!rc) {
		add_table(in, &t, kind == FOLD_INPUT_PERF_DATA ? &rows : NULL, &pi, when);
		if (perf && in->perf_inputs++ == 0) {
			fold_perfdata_info_release(&in->info);
			in->info = pi;
			pi = (struct fold_perfdata_info)FOLD_PERFDATA_INFO_INIT;
		}
		in->folded_inputs += !perf;
	}
	fold_perfdata_info_release(&pi);
	stack_table_release(&t);
	free(rows.v);
	lines_close(&lr);
	return rc;
}
