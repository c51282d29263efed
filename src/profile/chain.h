/*
 * chain: the chain cache shared by the perf.data consumers (fold's
 * collector, script): samples whose call chains resolve alike map to
 * one slot, whose value is the caller's (a stack id for fold, the offset
 * of a printed block for script). Stage: profile.
 *
 * Samples with the same call chain, thread and comm resolve to the same
 * frames as long as the maps that resolve them hold the same contents
 * (the stamps of the thread's and the kernel's maps, machine.h): an
 * MMAP, FORK or COMM of another process leaves them alone. For DWARF samples the chain is the one the
 * unwinder gave (it depends on the stack copy); a flag keeps it apart
 * from a recorded chain with the same ips, since it resolves differently
 * (inline rows, the end mark). A sample without a recorded chain is
 * keyed by its sampled ip.
 *
 *   struct prof_chain_cache cc;
 *   prof_chain_cache_init(&cc, 1u << 20);
 *   bool added;
 *   uint64_t *v = prof_chain_cache_slot(&cc, ses, ps, &added);
 *   if (added) *v = build(...); else use(*v);
 *   prof_chain_cache_release(&cc);
 *
 * Ownership: the cache owns its keys; a slot pointer is valid until the
 * next prof_chain_cache_slot or clear. Failure: only allocation (fatal).
 */
#ifndef SCORCH_PROFILE_CHAIN_H
#define SCORCH_PROFILE_CHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/hmap.h"
#include "process/session.h"

struct prof_chain_cache {
	struct hmap map;        /* chain key -> the caller's value */
	unsigned char *key;     /* scratch: the key being looked up */
	size_t key_cap;
	size_t max;             /* more entries than this: emptied first */
	size_t bytes;           /* what the entries take, about */
};
/* More than this in the cache (keys, entries, slots): emptied first. A
 * system-wide recording makes new chains for as long as it makes new
 * processes (a chain is keyed by its thread and maps), so the cache is
 * bounded by its memory, not its use. */
#define PROF_CHAIN_CACHE_BYTES (2u << 20)

void prof_chain_cache_init(struct prof_chain_cache *cc, size_t max);
void prof_chain_cache_release(struct prof_chain_cache *cc);
/* Forget every entry (the caller's values went stale). */
void prof_chain_cache_clear(struct prof_chain_cache *cc);
/* The value slot of ps's chain in ses; *added is true (and the value
 * 0) when the chain is new. Empties the cache first when it is full
 * (max entries or PROF_CHAIN_CACHE_BYTES). */
uint64_t *prof_chain_cache_slot(struct prof_chain_cache *cc, struct proc_session *ses,
				const struct proc_sample *ps, bool *added);

#endif
