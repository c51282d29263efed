/*
 * collect: the producer side of the profile model: what a resolved
 * sample gives the model. Stage: profile.
 * Today it holds the mapping of a session's resolved frame (struct
 * proc_frame) and thread to frame descriptions; the wiring step puts
 * the sample collector here (filter, chain cache, per-address memo of
 * frame ids: docs/profile-model.md), out of cmd/fold_perfdata.c.
 *
 *   struct prof_frame_desc d;
 *   prof_desc_of_frame(&ps->frames[i], &d);
 *   uint32_t id = prof_frames_intern(&profile.frames, &d);
 *
 * Ownership: the descriptions borrow the frame's and thread's strings
 * (symbol, inline and dso names, comm); prof_frames_intern copies them.
 * Cannot fail.
 */
#ifndef SCORCH_PROFILE_COLLECT_H
#define SCORCH_PROFILE_COLLECT_H

#include "process/session.h"
#include "profile/frame.h"

/* A resolved frame: a SYMBOL (an inline row is a SYMBOL named by its
 * function, flagged PROF_F_INLINE, in the object of the address), or an
 * ADDRESS when no symbol was found; PROF_F_KERNEL or PROF_F_USER by the
 * maps that resolved it, PROF_F_JIT for a perf-PID.map object. Folded,
 * it names as perf script's "sym (dso)" line does under
 * stackcollapse-perf.pl ("name (inlined)" for inline rows). */
void prof_desc_of_frame(const struct proc_frame *f, struct prof_frame_desc *d);
/* The process frame of a sample: comm, pid and tid. */
void prof_desc_of_comm(const char *comm, int32_t pid, int32_t tid,
		       struct prof_frame_desc *d);

#endif
