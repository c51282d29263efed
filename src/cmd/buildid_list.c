/*
 * buildid_list: `perf buildid-list` for a perf.data file: "BUILD-ID NAME"
 * per shared object, in perf's order (the BUILD_ID feature's order; the
 * order objects were first mapped when only the records tell).
 * --with-hits keeps the objects that a sample's address fell in; a file
 * without a BUILD_ID feature (pipe mode) always lists those, with 40
 * blanks for a missing build id, as perf does.
 * Stage: command. Key invariant: without --with-hits on a file with the
 * feature, no record is read (the feature table is enough).
 */
#include "cmd/cmd.h"
SCORCH_COMMAND(buildid_list, "list the build ids of the objects a perf.data file maps")

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/opt.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "cmd/symopts.h"
#include "process/session.h"

enum { O_INPUT = 1, O_WITH_HITS };

static const struct opt_spec opts[] = {
	{ "input", 'i', OPT_REQ, "FILE", "perf.data file to read (default perf.data; - for stdin)", O_INPUT },
	{ "with-hits", 'H', OPT_NONE, NULL, "only objects that samples hit", O_WITH_HITS },
	OPT_END_SPEC
};

static const struct opt_cmd buildid_list_cmd = {
	"buildid-list", "scorch buildid-list [--with-hits] [FILE]",
	"List the build ids of the shared objects FILE (default perf.data) maps.",
	opts, false,
};

struct bl {
	bool *hit;       /* by dso id */
	size_t cap;
};

static int on_sample(void *ctx, struct proc_session *ses, const struct proc_sample *ps)
{
	struct bl *b = ctx;
	const struct pd_sample *s = ps->s;
	bool kernel = pd_cpumode_is_kernel(s->cpumode);
	const struct proc_map *m = proc_thread_find_map(&ses->machine, ps->thread, kernel, s->ip);
	if (!m)
		m = proc_thread_find_map(&ses->machine, ps->thread, !kernel, s->ip);
	if (!m)
		return 0;
	size_t id = m->dso->id;
	if (id >= b->cap) {
		size_t old = b->cap;
		XGROW(b->hit, b->cap, id + 1);
		memset(b->hit + old, 0, (b->cap - old) * sizeof(*b->hit));
	}
	b->hit[id] = true;
	return 0;
}

static void print_dso(struct strbuf *o, const struct sym_dso *d)
{
	char hex[41];
	sym_buildid_hex(&d->buildid, hex);
	sb_addf(o, "%-40s %s\n", hex, d->name);
}

int cmd_buildid_list(int argc, char **argv)
{
	const char *input = NULL;
	bool with_hits = false;
	struct opt_state st = OPT_STATE_INIT;
	const char *arg;
	int id;
	while ((id = opt_next(&st, argc, argv, &buildid_list_cmd, &arg)) > 0) {
		switch (id) {
		case O_INPUT: input = arg; break;
		case O_WITH_HITS: with_hits = true; break;
		}
	}
	if (id == OPT_HELP)
		return 0;
	if (id < 0)
		return 2;
	if (symopts_operand(&st, argc, argv, &buildid_list_cmd, &input))
		return 2;
	struct sym_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	struct proc_session ses;
	struct proc_session_opts sopts = PROC_SESSION_OPTS_INIT;
	sopts.lazy = true; /* no frames asked */
	if (proc_session_open(&ses, input, &cfg, &sopts) < 0) {
		diag_print(&ses.diag, input);
		proc_session_close(&ses);
		return 1;
	}
	const struct pd_features *f = pd_reader_features(ses.reader);
	bool feature = f && f->state[PD_FEAT_BUILD_ID] == PD_FEAT_OK;
	if (!feature || pd_reader_is_pipe(ses.reader))
		with_hits = true;
	struct bl b = { NULL, 0 };
	int rc = 0;
	if (with_hits) {
		rc = proc_session_run(&ses, on_sample, &b);
		if (rc < 0)
			diag_print(&ses.diag, input);
		else if (symopts_report_session_dropped(&ses, input))
			rc = -1; /* every sample dropped: no hits to list */
	}
	struct strbuf o = SB_INIT;
	for (size_t i = 0; rc >= 0 && i < ses.dsos.n; i++) {
		const struct sym_dso *d = ses.dsos.v[i];
		bool hit = i < b.cap && b.hit[i];
		if (with_hits ? !hit : !d->buildid.size)
			continue;
		print_dso(&o, d);
	}
	if (rc >= 0 && sb_flush(&o, stdout) != 0) {
		diag_write_error(NULL, errno);
		rc = 1;
	}
	sb_release(&o);
	free(b.hit);
	proc_session_close(&ses);
	return rc ? 1 : 0;
}
