/*
 * pprof: profile.proto (gzip-compressed protobuf, what `go tool pprof`,
 * Pyroscope and Parca read) written from the profile model. Stage: render
 * (an export view). The protobuf encoder is the few calls below
 * (varints, length-delimited fields, packed repeated varints).
 *
 *   struct strbuf pb = SB_INIT, gz = SB_INIT;
 *   struct pprof_meta m = { { "samples", "cpu" }, { "count", "nanoseconds" }, 2 };
 *   pprof_from_profile(&profile, &names, &m, &pb);  // the Profile message
 *   pprof_gzip(pb.buf, pb.len, &gz);       // the .pb.gz bytes
 *
 * Model (from profile/profile.h): a stack with samples is one sample
 * (one per (stack, cpu) with the cpu label), location ids leaf first.
 * Exact frames (PROF_F_LOC) of one address make one location: its
 * address, its mapping (range, offset, object, build id) and a line per
 * inline row, innermost first; any other frame (the process, a text
 * name) is a location of its own, with no mapping. A line's function is
 * the frame's folded name (several lines when the name splits, as "a->b"
 * does), so -traces reads back what scorch fold prints. A COMM first
 * frame gives the labels comm, pid and tid (numbers). Output depends
 * only on the profile (ids in first-use order): deterministic.
 * Ownership: out is the caller's. Failure: allocation is fatal;
 * pprof_gzip returns -1 when the compressor fails.
 */
#ifndef SCORCH_RENDER_PPROF_H
#define SCORCH_RENDER_PPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "profile/profile.h"

enum { PB_VARINT = 0, PB_LEN = 2 };

void pb_varint(struct strbuf *o, uint64_t v);
void pb_tag(struct strbuf *o, unsigned field, unsigned wire);
/* field as a varint (written even when 0). */
void pb_uint(struct strbuf *o, unsigned field, uint64_t v);
/* field as length-delimited bytes (a string or an embedded message). */
void pb_bytes(struct strbuf *o, unsigned field, const void *p, size_t n);
/* A packed repeated varint field (nothing when n is 0). */
void pb_packed(struct strbuf *o, unsigned field, const uint64_t *v, size_t n);

/* What the values are and what the profile says besides its samples. */
struct pprof_meta {
	const char *type[2], *unit[2]; /* the sample types; values are the
					* stacks' weights (ntypes 1), or
					* their sample counts and weights */
	size_t ntypes;
	const char *period_type, *period_unit;
	uint64_t period;                /* 0: none written */
	bool comm_label;                /* a TEXT first frame is the process */
	bool comm_ids;                  /* ... named "comm-PID[/TID]" (fold's
					 * --pid, --tid): pid, tid labels too */
	bool cpu_label;                 /* the profile's rows have cpus: one
					 * sample per (stack, cpu) */
	uint64_t time_nanos, duration_nanos; /* 0: not written */
};

/* The Profile message of p's stacks, frames named by nm (the folded
 * names; nm used with p's frames only). Stacks without samples are left
 * out; a frame that names to nothing (fold leaves it out) too. */
void pprof_from_profile(const struct profile *p, struct prof_names *nm,
			const struct pprof_meta *m, struct strbuf *out);
/* in as a gzip member appended to out. Returns 0, or -1. */
int pprof_gzip(const void *in, size_t n, struct strbuf *out);

#endif
