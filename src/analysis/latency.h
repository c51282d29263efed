/*
 * latency: pair two tracepoint events of a perf.data by key fields
 * (default block:block_rq_issue -> block:block_rq_complete by dev and
 * sector) and report each pair's start and end time.
 * Stage: analysis (above perfdata; reads samples with RAW payloads and
 * the recorded tracing data formats through analysis/tracepoint).
 * Events are put in time order the way perf does it (buffered between
 * FINISHED_ROUND records), then paired: a start opens its key (a second
 * start on an open key replaces it and is counted as re-issued), an end
 * closes it; ends without an open start and starts never closed are
 * counted, not fatal. Memory grows with distinct keys and with the events
 * of one round, not with the file.
 */
#ifndef SCORCH_ANALYSIS_LATENCY_H
#define SCORCH_ANALYSIS_LATENCY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/tracepoint.h"
#include "base/diag.h"
#include "base/hmap.h"
#include "base/strbuf.h"
#include "perfdata/reader.h"

#define AN_LATENCY_MAX_KEYS 8

/* Called for each pair in time order of the end event; non-zero stops. */
typedef int (*an_pair_fn)(void *ctx, uint64_t start_ns, uint64_t end_ns);

struct an_latency_opts {
	const char *start;  /* "system:event" */
	const char *end;
	const char *key;    /* "f1,f2" or "startfield=endfield,..." */
	an_pair_fn on_pair;
	void *ctx;
};

struct an_event {
	uint64_t time, seq;
	uint32_t key;       /* id in keys */
	bool is_end;
};

struct an_latency {
	struct an_latency_opts o;
	struct an_tp tp;
	bool resolved;
	struct tep_event *ev_start, *ev_end;
	struct an_tp_field kstart[AN_LATENCY_MAX_KEYS], kend[AN_LATENCY_MAX_KEYS];
	size_t nkeys;
	struct hmap keys;       /* key bytes -> value: open start time + 1 */
	struct an_event *pend;  /* events of the current rounds */
	size_t npend, pend_cap;
	uint64_t seq, round_max, prev_round_max;
	bool stopped;
	int stop_rc;
	/* counts */
	uint64_t npairs, unmatched_start, unmatched_end, reissued;
	uint64_t nstart, nend, bad_payload;
	struct pd_dropped dropped; /* samples that did not decode (perfdata/reader.h) */
};

void an_latency_init(struct an_latency *l, const struct an_latency_opts *o);
void an_latency_release(struct an_latency *l);
/* Read r (opened by the caller, freed here) and deliver the pairs.
 * Returns 0 (d may still hold a warning about damage at the end of the
 * file), or negative with d filled: unreadable file, no tracing data,
 * unknown event or key field, no start or end event at all. */
int an_latency_read(struct an_latency *l, struct pd_reader *r, struct diag *d);

/* After the read: when some events did not pair (starts never ended,
 * ends without a start, re-issued starts, payloads too short for the
 * key), the counts as one line (no newline) added to out, and true. */
bool an_latency_note(const struct an_latency *l, struct strbuf *out);

#endif
