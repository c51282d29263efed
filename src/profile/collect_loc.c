/*
 * collect_loc: perf.data samples as stacks of exact frames (see
 * collect_loc.h). Stage: profile. Key invariant: a frame's identity is
 * what perf resolved (symbol or inline name, object) plus its runtime
 * address and mapping, so the folded names of a stack are the ones
 * prof_collector gives the same sample.
 */
#include "profile/collect_loc.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "profile/collect.h"

enum { CHAINS_MAX = 1u << 20 };

void prof_loc_collector_init(struct prof_loc_collector *c, const struct collapse_opts *o,
			     struct profile *p)
{
	memset(c, 0, sizeof(*c));
	c->p = p;
	c->copts = *o;
	collapse_opts_finish(&c->copts);
	prof_loc_frames_init(&c->frames, &p->frames);
	prof_chain_cache_init(&c->chains, CHAINS_MAX);
	sb_init(&c->pname);
	sb_init(&c->scratch);
}

void prof_loc_collector_release(struct prof_loc_collector *c)
{
	prof_chain_cache_release(&c->chains);
	prof_loc_frames_release(&c->frames);
	u64map_release(&c->comm_ids);
	free(c->comms);
	free(c->ids);
	sb_release(&c->pname);
	sb_release(&c->scratch);
}

/* A thread's process frame, by the machine's comm pointer (a name the
 * chain cache, chain.h, also keys by): each new chain of a thread needs
 * it, and a system-wide recording has a thread per short process. */
struct prof_loc_comm {
	const char *comm;
	uint32_t id;
};

static uint32_t comm_frame(struct prof_loc_collector *c, const struct proc_sample *ps)
{
	bool added;
	uint64_t key = (uint64_t)ps->s->pid << 32 | ps->s->tid;
	uint64_t *v = u64map_put(&c->comm_ids, key, &added);
	if (added) {
		XGROW(c->comms, c->comms_cap, c->ncomms + 1);
		*v = c->ncomms++;
		c->comms[*v].comm = NULL;
	}
	struct prof_loc_comm *e = &c->comms[*v];
	if (e->comm != ps->thread->comm) {
		struct prof_frame_desc d;
		prof_desc_of_comm(ps->thread->comm, (int32_t)ps->s->pid,
				  (int32_t)ps->s->tid, &d);
		e->comm = ps->thread->comm;
		e->id = prof_frames_intern(&c->p->frames, &d);
	}
	return e->id;
}

/* The process frame: comm, pid, tid; a TEXT frame for tid -1. */
static bool root_frame(struct prof_loc_collector *c, const struct proc_sample *ps,
		       const char *ev, uint32_t *id)
{
	if ((int)ps->s->tid >= 0) {
		*id = comm_frame(c, ps);
		return true;
	}
	if (!prof_minus_one_pname(&c->copts, ps, ev, &c->scratch, &c->pname))
		return false;
	struct prof_frame_desc d;
	memset(&d, 0, sizeof(d));
	d.kind = PROF_FRAME_TEXT;
	d.name = c->pname.buf;
	d.name_len = c->pname.len;
	*id = prof_frames_intern(&c->p->frames, &d);
	return true;
}

/* The stack of ps: its process, then its frames root first. */
static bool build_stack(struct prof_loc_collector *c, struct proc_session *ses,
			const struct proc_sample *ps, const char *ev, uint32_t *sid)
{
	struct proc_chain_walk w;
	uint64_t ip;
	bool kernel, inl;
	size_t n = 1;
	XGROW(c->ids, c->ids_cap, 1);
	if (!root_frame(c, ps, ev, &c->ids[0]))
		return false;
	proc_chain_walk_init(ses, ps->s, &w);
	while (n - 1 < w.max_frames && proc_chain_walk_next(&w, &ip, &kernel, &inl)) {
		const uint32_t *ids;
		size_t k = prof_loc_frames_of(&c->frames, ses, ps->thread, ip, kernel, inl, &ids);
		XGROW(c->ids, c->ids_cap, n + k);
		memcpy(c->ids + n, ids, k * sizeof(*ids));
		n += k;
	}
	for (size_t i = 1, j = n - 1; i < j; i++, j--) { /* leaf first -> root first */
		uint32_t t = c->ids[i];
		c->ids[i] = c->ids[j];
		c->ids[j] = t;
	}
	*sid = profile_stack(c->p, c->ids, n);
	return true;
}

static void note_time(struct prof_loc_collector *c, const struct pd_sample *s)
{
	if (!(s->sample_type & PD_SAMPLE_TIME))
		return;
	if (!c->have_time || s->time < c->first_time)
		c->first_time = s->time;
	if (!c->have_time || s->time > c->last_time)
		c->last_time = s->time;
	c->have_time = true;
}

bool prof_loc_collector_add(struct prof_loc_collector *c, struct proc_session *ses,
			    const struct proc_sample *ps, uint64_t weight, const char *ev)
{
	uint32_t sid;
	if ((int)ps->s->tid < 0) { /* its name holds the time: not cached */
		if (!build_stack(c, ses, ps, ev, &sid))
			return false;
	} else {
		bool added;
		uint64_t *slot = prof_chain_cache_slot(&c->chains, ses, ps, &added);
		if (added) { /* build_stack leaves the cache alone */
			build_stack(c, ses, ps, ev, &sid);
			*slot = sid;
		} else {
			sid = (uint32_t)*slot;
		}
	}
	const struct pd_sample *s = ps->s;
	struct prof_sample row = { s->time, (int32_t)s->pid, (int32_t)s->tid,
				   s->sample_type & PD_SAMPLE_CPU ? s->cpu : UINT32_MAX };
	profile_sample(c->p, sid, weight, &row);
	note_time(c, s);
	return true;
}
