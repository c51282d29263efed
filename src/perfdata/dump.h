/*
 * dump: the records of a perf.data file as text, one line per record
 * (offset, size, type, key fields) like `perf report -D`, or counts per
 * record type and per event (samples, first and last time).
 * Stage: perfdata. The record handlers only format; output is
 * deterministic (file order, fixed type order for the statistics).
 *
 * Usage:
 *   struct pd_dump d;
 *   pd_dump_init(&d, r, stats, stdout);
 *   struct pd_handlers h;
 *   pd_dump_handlers(&d, &h);
 *   rc = pd_reader_run(r, &h);       // 1: a write failed (d.write_err)
 *   pd_dump_finish(&d);              // the statistics, then the rest written
 *   pd_dump_samples(&d) samples seen, d.write_err
 *   pd_dump_release(&d);
 *
 * Ownership: d borrows the reader and the stream; it owns its buffer and
 * counts. Failure: a failed write stops the run (a handler returns 1)
 * and leaves its errno in write_err; nothing else fails but allocation.
 */
#ifndef SCORCH_PERFDATA_DUMP_H
#define SCORCH_PERFDATA_DUMP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/strbuf.h"
#include "perfdata/reader.h"

struct pd_dump_event {
	uint64_t samples, first, last;
	bool have_time;
};

struct pd_dump {
	struct pd_reader *r;    /* borrowed */
	FILE *to;               /* borrowed: where the text goes */
	struct strbuf out;      /* text not written yet */
	bool stats;             /* counts only, no record lines */
	struct pd_dump_event *ev; /* per attr index */
	size_t nr_ev;
	int write_err;          /* errno of a failed write, or 0 */
};

void pd_dump_init(struct pd_dump *d, struct pd_reader *r, bool stats, FILE *to);
void pd_dump_release(struct pd_dump *d);
/* Fills h (all of it) with d's handlers: samples only when stats. */
void pd_dump_handlers(struct pd_dump *d, struct pd_handlers *h);
/* After the run: adds the statistics (stats) and writes what is left.
 * Returns 0, or -1 with write_err set. */
int pd_dump_finish(struct pd_dump *d);
/* Samples seen, all events. */
uint64_t pd_dump_samples(const struct pd_dump *d);

#endif
