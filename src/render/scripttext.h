/*
 * scripttext: a sample as `perf script` prints it with its default
 * fields, byte for byte: "comm tid [cpu] time: period event: "
 * (tracepoints: their fields as libtraceevent formats them), then one
 * line per call chain entry, "\t%16x sym+0xoff (dso)", and a blank line.
 * Stage: render. The frames come from the session (proc_session_frames,
 * resolved on demand); chains met again are copied from the chain cache
 * fold uses (profile/chain.h) instead of being printed again.
 * Key invariant: fields appear exactly when perf 6.1 prints them by
 * default (cpu only with PERF_SAMPLE_CPU, period only with
 * PERF_SAMPLE_PERIOD and not for tracepoints). In pipe mode perf 6.1
 * sets up a tracepoint's chain fields as the attr arrives, with ip and
 * sym only: "\t%16x sym" (no offset, no object).
 *
 * Usage:
 *   struct render_script rs;
 *   render_script_init(&rs);
 *   per sample kept: render_script_sample(&rs, ses, ps);
 *                    write and sb_reset rs.out when it grows large
 *   if (rs.tp_diag.set) warn with rs.tp_diag (tracing data unreadable)
 *   render_script_release(&rs);
 *
 * Ownership: rs owns its text (out), its cache and the tracepoint
 * formats; the caller writes out and empties it. Failure: none but
 * allocation (fatal); unreadable tracing data leaves tracepoint fields
 * out and is said once in tp_diag.
 */
#ifndef SCORCH_RENDER_SCRIPTTEXT_H
#define SCORCH_RENDER_SCRIPTTEXT_H

#include <event-parse.h>
#include <stdbool.h>

#include "analysis/tracepoint.h"
#include "base/diag.h"
#include "base/strbuf.h"
#include "process/session.h"
#include "profile/chain.h"

struct render_script {
	struct strbuf out;     /* the text printed so far: the caller's to write */
	struct diag tp_diag;   /* set when the tracing data could not be read */
	int name_width;        /* widest event name, once known */
	bool tp_loaded;
	struct an_tp tp;
	struct trace_seq seq;
	struct prof_chain_cache chains; /* chain -> offset of its frame lines in blocks */
	struct strbuf blocks;  /* u32 length + frame lines, back to back */
};

void render_script_init(struct render_script *rs);
void render_script_release(struct render_script *rs);
/* Appends the text of sample ps (header and chain lines) to rs->out. */
void render_script_sample(struct render_script *rs, struct proc_session *ses,
			  const struct proc_sample *ps);

#endif
