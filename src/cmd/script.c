/*
 * script: `perf script` for sampled events, default fields, byte for
 * byte. Tools that read perf script text can be fed by scorch.
 * Stage: command: options, the sample filter and the session; the text
 * of each sample kept is render_script_sample's (render/scripttext.h).
 */
#include "cmd/cmd.h"
SCORCH_COMMAND(script, "print the samples of a perf.data file as perf script does")

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/diag.h"
#include "base/opt.h"
#include "base/strbuf.h"
#include "cmd/symopts.h"
#include "process/session.h"
#include "render/scripttext.h"
#include "unwind/sample.h"

enum { O_INPUT = 1 };

static const struct opt_spec opts[] = {
	{ "input", 'i', OPT_REQ, "FILE", "perf.data file to read (default perf.data; - for stdin)", O_INPUT },
	SYMOPTS_SPECS,
	OPT_END_SPEC
};

static const struct opt_cmd script_cmd = {
	"script", "scorch script [options] [FILE]",
	"Print the samples of FILE (default perf.data) as `perf script` prints them.",
	opts, false,
};

struct script {
	struct prof_filter filter;
	struct render_script rs; /* the text of the samples kept */
	bool tp_warned;
	int write_err;         /* errno of a failed write, or 0 */
};

static int flush_out(struct script *sc)
{
	if (sb_flush(&sc->rs.out, stdout) != 0) {
		sc->write_err = errno;
		return 1;
	}
	return 0;
}

static int on_sample(void *ctx, struct proc_session *ses, const struct proc_sample *ps)
{
	struct script *sc = ctx;
	if (!prof_filter_keep(&sc->filter, ps))
		return 0;
	render_script_sample(&sc->rs, ses, ps);
	if (sc->rs.tp_diag.set && !sc->tp_warned) {
		diag_warn("tracing data unreadable: %s", sc->rs.tp_diag.msg);
		sc->tp_warned = true;
	}
	if (sc->rs.out.len > (1u << 20))
		return flush_out(sc);
	return 0;
}

int cmd_script(int argc, char **argv)
{
	struct symopts so;
	memset(&so, 0, sizeof(so));
	const char *input = NULL;
	struct opt_state st = OPT_STATE_INIT;
	const char *arg;
	int id;
	while ((id = opt_next(&st, argc, argv, &script_cmd, &arg)) > 0) {
		switch (id) {
		case O_INPUT: input = arg; break;
		default: symopts_option(&so, id, arg); break;
		}
	}
	if (id == OPT_HELP)
		return 0;
	if (id < 0)
		return 2;
	if (symopts_operand(&st, argc, argv, &script_cmd, &input))
		return 2;
	struct script sc;
	memset(&sc, 0, sizeof(sc));
	if (symopts_filter(&sc.filter, so.time, so.cpu, so.comm, so.event))
		return 2;
	struct sym_config cfg;
	if (symopts_config(&so, &cfg))
		return 1;
	render_script_init(&sc.rs);
	struct proc_session ses;
	struct proc_session_opts sopts = PROC_SESSION_OPTS_INIT;
	sopts.lazy = true; /* frames on demand: see render/scripttext.h */
	int rc = proc_session_open(&ses, input, &cfg, &sopts);
	if (rc == 0) {
		rc = symopts_run_unwound(&ses, UNW_INLINE_DWARF, on_sample, &sc, input);
		if (rc == 0)
			flush_out(&sc);
		if (symopts_report_filtered_run(&ses, rc, &sc.filter, input))
			rc = 1; /* every sample dropped */
	} else {
		diag_print(&ses.diag, input);
	}
	proc_session_close(&ses);
	render_script_release(&sc.rs);
	symopts_release(&so);
	if (sc.write_err) {
		diag_write_error(NULL, sc.write_err);
		return 1;
	}
	return rc ? 1 : 0;
}
