/*
 * chain: the shared chain cache (see chain.h). Stage: profile.
 * Key invariant: two samples get one slot only when their frames
 * resolve alike (same maps contents, thread, comm, cpumode, chain
 * source and addresses).
 */
#include "profile/chain.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

/* The fixed part of a chain key, in an order without padding before
 * its last byte (only bytes up to it are hashed). */
struct chain_head {
	uint64_t user_stamp, kernel_stamp; /* the maps' contents */
	const char *comm;
	uint32_t pid, tid;
	uint8_t cpumode, hooked;
};

void prof_chain_cache_init(struct prof_chain_cache *cc, size_t max)
{
	hmap_init(&cc->map);
	cc->key = NULL;
	cc->key_cap = 0;
	cc->max = max;
	cc->bytes = 0;
}

void prof_chain_cache_release(struct prof_chain_cache *cc)
{
	hmap_release(&cc->map);
	free(cc->key);
	cc->key = NULL;
	cc->key_cap = 0;
}

void prof_chain_cache_clear(struct prof_chain_cache *cc)
{
	hmap_release(&cc->map);
	hmap_init(&cc->map);
	cc->bytes = 0;
}

/* Build ps's key in cc->key; returns its length. */
static size_t chain_key(struct prof_chain_cache *cc, struct proc_session *ses,
			const struct proc_sample *ps)
{
	const struct pd_sample *s = ps->s;
	const struct proc_machine *m = &ses->machine;
	struct chain_head head = { proc_thread_stamp(m, ps->thread, false),
				   proc_thread_stamp(m, ps->thread, true),
				   ps->thread->comm, s->pid,
				   s->tid, (uint8_t)s->cpumode,
				   proc_session_hooked(ses, s) };
	const uint64_t *chain = &s->ip;   /* the sampled ip is the one frame */
	size_t n = 1;
	if (head.hooked)
		n = proc_session_chain(ses, s, &chain);
	else if ((s->sample_type & PD_SAMPLE_CALLCHAIN) && s->nr_callchain)
		chain = s->callchain, n = (size_t)s->nr_callchain;
	size_t hlen = offsetof(struct chain_head, hooked) + 1;
	if (n > (SIZE_MAX - hlen) / 8)
		xmalloc((size_t)-1); /* cannot be: the chain is in memory */
	XGROW(cc->key, cc->key_cap, hlen + n * 8);
	memcpy(cc->key, &head, hlen);
	memcpy(cc->key + hlen, chain, n * 8);
	return hlen + n * 8;
}

uint64_t *prof_chain_cache_slot(struct prof_chain_cache *cc, struct proc_session *ses,
				const struct proc_sample *ps, bool *added)
{
	if (cc->map.count > cc->max || cc->bytes > PROF_CHAIN_CACHE_BYTES)
		prof_chain_cache_clear(cc);
	size_t len = chain_key(cc, ses, ps);
	size_t id = hmap_put(&cc->map, cc->key, len, added);
	if (*added) /* the key's copy, its entry, about two slots */
		cc->bytes += len + 1 + sizeof(struct hmap_entry) + 2 * sizeof(uint64_t);
	return &hmap_at(&cc->map, id)->value;
}
