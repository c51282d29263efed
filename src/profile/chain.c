/*
 * chain: the shared chain cache (see chain.h). Stage: profile.
 * Key invariant: two samples get one slot only when their frames
 * resolve alike (same generation, thread, comm, cpumode, chain source
 * and addresses).
 */
#include "profile/chain.h"

#include <string.h>

/* The fixed part of a chain key, in an order without padding before
 * its last byte (only bytes up to it are hashed). */
struct chain_head {
	uint64_t generation;
	const char *comm;
	uint32_t pid, tid;
	uint8_t cpumode, hooked;
};

void prof_chain_cache_init(struct prof_chain_cache *cc, size_t max)
{
	hmap_init(&cc->map);
	sb_init(&cc->key);
	cc->max = max;
}

void prof_chain_cache_release(struct prof_chain_cache *cc)
{
	hmap_release(&cc->map);
	sb_release(&cc->key);
}

void prof_chain_cache_clear(struct prof_chain_cache *cc)
{
	hmap_release(&cc->map);
	hmap_init(&cc->map);
}

static void chain_key(struct strbuf *k, struct proc_session *ses,
		      const struct proc_sample *ps)
{
	const struct pd_sample *s = ps->s;
	struct chain_head head = { ses->machine.generation, ps->thread->comm, s->pid,
				   s->tid, (uint8_t)s->cpumode,
				   proc_session_hooked(ses, s) };
	const uint64_t *chain = &s->ip;   /* the sampled ip is the one frame */
	size_t n = 1;
	if (head.hooked)
		n = proc_session_chain(ses, s, &chain);
	else if ((s->sample_type & PD_SAMPLE_CALLCHAIN) && s->nr_callchain)
		chain = s->callchain, n = (size_t)s->nr_callchain;
	size_t hlen = offsetof(struct chain_head, hooked) + 1;
	sb_reset(k);
	sb_grow(k, hlen + n * 8);
	memcpy(k->buf, &head, hlen);
	memcpy(k->buf + hlen, chain, n * 8);
	sb_setlen(k, hlen + n * 8);
}

uint64_t *prof_chain_cache_slot(struct prof_chain_cache *cc, struct proc_session *ses,
				const struct proc_sample *ps, bool *added)
{
	if (cc->map.count > cc->max)
		prof_chain_cache_clear(cc);
	chain_key(&cc->key, ses, ps);
	size_t id = hmap_put(&cc->map, cc->key.buf, cc->key.len, added);
	return &hmap_at(&cc->map, id)->value;
}
