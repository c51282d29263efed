/*
 * fleettsv: a profile as rows of a fleet store (ClickHouse's TSV input
 * format, docs/clickhouse.md). Stage: render (an export view).
 *
 *   struct fleettsv_opts o = { "web-1", 10, 1700000000000000000 };
 *   struct prof_names nm;  prof_names_init(&nm, &collapse_options);
 *   fleettsv_write(&profile, &nm, &o, &out);   // appends the rows
 *
 * One row per (time bucket, pid, stack), tab-separated, in this order:
 *   host     String           o->host
 *   bucket   DateTime('UTC')  start of the sample's bucket, "YYYY-MM-DD hh:mm:ss"
 *   comm     String           the process: a COMM frame's comm, else the
 *                             stack's first name (folded input)
 *   pid      Int32            from the rows; 0 where unknown
 *   hash     UInt64           fleettsv_hash of the names (below)
 *   frames   Array(String)    the folded names, root first (the process
 *                             first, as `scorch fold` prints it)
 *   samples  UInt64           samples of the row
 *   weight   UInt64           their summed weight (what fold prints)
 * The rows of p (wall-clock ns in rows.time) give bucket and pid; what a
 * stack counts beyond its rows (inputs without per-sample rows) goes to
 * the bucket of o->default_ns with pid 0. Rows are ordered by bucket,
 * hash, pid, then stack id: the same profile gives the same bytes.
 *
 * Escaping (ClickHouse's TabSeparated rules): in a String field '\\',
 * TAB, LF, CR, NUL, BS, FF are written \\ \t \n \r \0 \b \f; an array is
 * ['a','b'] with each element single-quoted and '\'' written \' besides
 * the same escapes, so no raw TAB or LF is ever inside a field.
 *
 * Hash: FNV-1a 64-bit (offset basis 0xcbf29ce484222325, prime
 * 0x100000001b3) over, for each name root first, its length as 4 bytes
 * little-endian followed by its bytes. It depends only on the names, so
 * a stack hashes the same on every machine and run.
 *
 * Ownership: out is the caller's; nm names p's frames (one nm per p).
 * Failure: none but allocation (fatal).
 */
#ifndef SCORCH_RENDER_FLEETTSV_H
#define SCORCH_RENDER_FLEETTSV_H

#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "profile/profile.h"

struct fleettsv_opts {
	const char *host;         /* the host column */
	uint64_t bucket_secs;     /* bucket width in seconds (0 taken as 1) */
	uint64_t default_ns;      /* wall time of samples without a row */
};

#define FLEETTSV_HASH_INIT 0xcbf29ce484222325ull

/* h extended by one name (see above). */
uint64_t fleettsv_hash_add(uint64_t h, const char *name, size_t len);

/* s as a TSV String field / as a quoted array element (with quotes). */
void fleettsv_escape(struct strbuf *out, const char *s, size_t len);
void fleettsv_quote(struct strbuf *out, const char *s, size_t len);

/* "YYYY-MM-DD hh:mm:ss" (UTC) of secs since the epoch. */
void fleettsv_time(struct strbuf *out, uint64_t secs);

/* Append the rows of p to out. */
void fleettsv_write(const struct profile *p, struct prof_names *nm,
		    const struct fleettsv_opts *o, struct strbuf *out);

#endif
