/*
 * pprof_read: pprof profiles (profile.proto: `go tool pprof -proto`, Go
 * programs' CPU profiles, Pyroscope exports, `scorch export`) read back
 * as folded stacks. Stage: stacks (a reader of another tool's stacks).
 *
 *   if (stack_pprof_detect(head, n)) {
 *       struct strbuf pb = SB_INIT;
 *       if (stack_pprof_inflate(data, len, &pb, &d) == 0 &&   // gzip'd or raw
 *           stack_pprof_fold(pb.buf, pb.len, "cpu", &table, &d) == 0) ...
 *   }
 *
 * Each sample's locations (leaf first) and each location's lines
 * (innermost first) are turned around into one stack, root first, names
 * joined by ';' (a line's function name, else its system name; a
 * location without lines is its address "0x..."), added with the value
 * of the chosen sample type (values <= 0 are left out).
 * The protobuf decoder is this file's: every varint, length and index
 * is checked against the bytes and the tables; a bad profile gets one
 * message with the offset in the (decompressed) profile, and nothing is
 * added to the table. Decompressed size, one stack's text and all the
 * stacks' text together are capped (STACK_PPROF_MAX, _MAX_STACK), so a
 * small file naming a long location many times cannot blow up.
 * Ownership: out and the table are the caller's. Failure: negative
 * (-EINVAL) with d filled; allocation is fatal.
 */
#ifndef SCORCH_STACKS_PPROF_READ_H
#define SCORCH_STACKS_PPROF_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "base/strbuf.h"
#include "stacks/table.h"

#define STACK_PPROF_MAX ((size_t)1 << 30)
/* One sample's stack text at most (lines named many times over). */
#define STACK_PPROF_MAX_STACK (16u << 20)

/* The first n bytes start a raw Profile message (its first field a
 * sample_type, then bytes no text has), or a gzip member that inflates
 * to one (give a few KiB: the head is inflated). */
bool stack_pprof_detect(const void *head, size_t n);
/* The Profile message: in itself (raw) or inflated from gzip, into out.
 * Returns 0, or -EINVAL (bad or over-long gzip data). */
int stack_pprof_inflate(const void *in, size_t n, struct strbuf *out, struct diag *d);
/* Add the samples of the Profile message pb to t, weighted by the
 * values of the sample type named type ("cpu", or "cpu/nanoseconds";
 * NULL: default_sample_type when set, else the first). Returns 0, or
 * -EINVAL with d set (nothing added). */
int stack_pprof_fold(const void *pb, size_t n, const char *type,
		     struct stack_table *t, struct diag *d);

#endif
