/*
 * collect_loc: the exports' collector: each perf.data sample as a stack
 * of exact frames in a struct profile. Stage: profile.
 * Where prof_collector (collect.h) folds a sample to names, this keeps
 * each frame with its runtime address and mapping (PROF_F_LOC: the
 * mapping's range, file offset, object and build id), one frame per
 * inline row (rows of one address share its ip and mapping, innermost
 * first leaf-wards, the row that is the symbol itself last), the
 * process (COMM) frame first, so that pprof gets one location per
 * address and its inline lines. Each sample is one profile_sample with
 * its time, pid, tid and cpu (kept as rows when the profile asks).
 *
 *   struct profile p;  profile_init(&p, PROF_COL_CPU);   // or 0
 *   struct prof_loc_collector c;
 *   prof_loc_collector_init(&c, &collapse_options, &p);
 *   ... per sample kept (after filters and the event choice):
 *   prof_loc_collector_add(&c, ses, ps, weight, event_name);
 *   prof_loc_collector_release(&c);   // p keeps the samples
 *
 * Ownership: the profile is the caller's. A sample of tid -1 gets the
 * process name stackcollapse-perf.pl gives it as a TEXT root frame (see
 * prof_minus_one_pname), or is dropped as Perl drops it. Cannot fail
 * but for allocation (fatal).
 */
#ifndef SCORCH_PROFILE_COLLECT_LOC_H
#define SCORCH_PROFILE_COLLECT_LOC_H

#include <stdbool.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "process/session.h"
#include "profile/chain.h"
#include "profile/locframes.h"
#include "profile/profile.h"

struct prof_loc_collector {
	struct profile *p;              /* not owned */
	struct collapse_opts copts;     /* finished (tid -1 names) */
	struct prof_loc_frames frames;  /* chain addresses -> frame ids */
	struct prof_chain_cache chains; /* chain -> stack id in p */
	struct u64map comm_ids;         /* pid << 32 | tid -> index in comms */
	struct prof_loc_comm *comms;    /* a thread's comm and process frame */
	size_t ncomms, comms_cap;
	uint32_t *ids;                  /* scratch: the stack being built */
	size_t ids_cap;
	struct strbuf pname, scratch;
	uint64_t first_time, last_time; /* of the samples added (with time) */
	bool have_time;
};

void prof_loc_collector_init(struct prof_loc_collector *c, const struct collapse_opts *o,
			     struct profile *p);
void prof_loc_collector_release(struct prof_loc_collector *c);
/* Add ps with weight; ev as for prof_collector_add. False when the
 * sample is dropped (nothing added). */
bool prof_loc_collector_add(struct prof_loc_collector *c, struct proc_session *ses,
			    const struct proc_sample *ps, uint64_t weight, const char *ev);

#endif
