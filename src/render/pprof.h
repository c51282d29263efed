/*
 * pprof: profile.proto (gzip-compressed protobuf, what `go tool pprof`,
 * Pyroscope and Parca read) written from folded stacks. Stage: render
 * (an export view). The protobuf encoder is the few calls below
 * (varints, length-delimited fields, packed repeated varints).
 *
 *   struct strbuf pb = SB_INIT, gz = SB_INIT;
 *   struct pprof_meta m = { "cpu", "nanoseconds", "cpu", "nanoseconds", 1 };
 *   pprof_from_table(&table, &m, &pb);     // the Profile message
 *   pprof_gzip(pb.buf, pb.len, &gz);       // the .pb.gz bytes
 *
 * Model: every distinct frame name is one function and one location
 * (one line entry, no mapping, address 0); a stack "a;b;c N" is one
 * sample, location ids leaf first, value N. The first frame of a perf
 * input's stack is its process; m->comm_label adds it as a "comm" label
 * too. Output depends only on the table's content (stacks taken in
 * bytewise order, ids in first-use order), so it is deterministic.
 * Ownership: out is the caller's. Failure: allocation is fatal;
 * pprof_gzip returns -1 when the compressor fails.
 */
#ifndef SCORCH_RENDER_PPROF_H
#define SCORCH_RENDER_PPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "stacks/table.h"

enum { PB_VARINT = 0, PB_LEN = 2 };

void pb_varint(struct strbuf *o, uint64_t v);
void pb_tag(struct strbuf *o, unsigned field, unsigned wire);
/* field as a varint (written even when 0). */
void pb_uint(struct strbuf *o, unsigned field, uint64_t v);
/* field as length-delimited bytes (a string or an embedded message). */
void pb_bytes(struct strbuf *o, unsigned field, const void *p, size_t n);
/* A packed repeated varint field (nothing when n is 0). */
void pb_packed(struct strbuf *o, unsigned field, const uint64_t *v, size_t n);

struct pprof_meta {
	const char *type, *unit;               /* the one sample type */
	const char *period_type, *period_unit;
	uint64_t period;                       /* 0: none written */
	bool comm_label;                       /* first frame is the process */
};

/* The Profile message of t's stacks (';'-joined names, root first). */
void pprof_from_table(const struct stack_table *t, const struct pprof_meta *m,
		      struct strbuf *out);
/* in as a gzip member appended to out. Returns 0, or -1. */
int pprof_gzip(const void *in, size_t n, struct strbuf *out);

#endif
