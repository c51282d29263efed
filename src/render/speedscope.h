/*
 * speedscope: a profile (profile/profile.h) as speedscope's JSON file
 * format (the schema is file-format-schema.json in the speedscope npm
 * package). Stage: render (an export view).
 *
 *   struct speedscope_opts o = { "perf.data", "scorch 0.1.0", "nanoseconds",
 *                                SPEEDSCOPE_PER_THREAD, false };
 *   struct strbuf out = SB_INIT;
 *   speedscope_write(&profile, &names, &o, &out);
 *
 * Model: shared.frames holds one frame per distinct (folded name, object)
 * pair: name as prof_names names it (what `scorch fold` prints), file the
 * frame's object (binary, library, [kernel.kallsyms]) when known. A stack
 * whose first frame is a process (a COMM frame: perf input) goes to the
 * profile of its thread (pid, tid), or of its process (pid), the process
 * frame left out (it names the profile, "comm pid/tid" or "comm pid");
 * with SPEEDSCOPE_PER_NONE, or for stacks without a process frame (folded
 * text), all go to one profile named o->name, process frame kept.
 * Profiles are ordered by (pid, tid), those without a process first;
 * activeProfileIndex is the heaviest.
 *
 * Sampled (o->evented false): one sample per distinct list of frame
 * indexes (root first; stacks that name alike, such as an unknown
 * symbol at several addresses, are one), in first-seen order, with its
 * summed weight in o->unit; startValue 0, endValue the sum. Evented (o->evented): needs the profile's rows with times
 * (PROF_COL_TIME); per profile the samples in time order (ties: row
 * order); at each sample's time the frames that differ from the previous
 * sample's stack are closed (innermost first) and the new ones opened
 * (outermost first). With nanosecond weights a sample lasts its weight
 * at most (all frames closed at time + weight when the next sample is
 * later), else until the next sample; the last closes at its time plus
 * its weight (nanoseconds) or at its time. Times are nanoseconds since
 * the earliest sample of the whole profile, so the profiles line up.
 *
 * Strings are JSON-escaped (quotes, backslashes, control characters as
 * \uXXXX or the short forms); bytes that are not UTF-8 become U+FFFD.
 * Output depends only on the profile's content and order (frames and
 * stacks in first-seen order), so it is deterministic.
 * Ownership: out is the caller's; nm caches names (use it with p only).
 * Failure: allocation is fatal; speedscope_write returns -1 (nothing
 * written) when evented output is asked of a profile without times.
 */
#ifndef SCORCH_RENDER_SPEEDSCOPE_H
#define SCORCH_RENDER_SPEEDSCOPE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/strbuf.h"
#include "profile/profile.h"

enum speedscope_per {
	SPEEDSCOPE_PER_THREAD,      /* a profile per (pid, tid) */
	SPEEDSCOPE_PER_PROCESS,     /* a profile per pid */
	SPEEDSCOPE_PER_NONE,        /* one profile */
};

struct speedscope_opts {
	const char *name;           /* the file's name: the input */
	const char *exporter;       /* "scorch VERSION" */
	const char *unit;           /* sampled weights: "nanoseconds" or "none" */
	enum speedscope_per per;
	bool evented;               /* evented profiles from timed rows */
};

/* s (len bytes) as a JSON string, quotes included, appended to out. */
void speedscope_json_string(struct strbuf *out, const char *s, size_t len);

/* The speedscope file of p, appended to out. Returns 0, or -1 when
 * o->evented and p keeps no sample times. */
int speedscope_write(const struct profile *p, struct prof_names *nm,
		     const struct speedscope_opts *o, struct strbuf *out);

#endif
