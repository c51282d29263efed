/*
 * locframes: the exact frames (PROF_F_LOC, see frame.h) of a call chain
 * address, interned in a profile's frames once per address and
 * mapping. Stage: profile. The exports' collector (collect_loc.h) asks
 * for every address of every new chain; a system-wide recording makes
 * a new chain for each new process, and each process maps the same
 * programs at other addresses (ASLR), so the memos here are what keeps
 * that collector near fold's cost:
 *
 *  - by stamp, the latest met of each hash: (the stamp of the maps that
 *    resolve ip in the thread (machine.h: one stamp, the same maps), ip,
 *    kernel, inline) -> its frame ids: an address its process met lately
 *    costs no map lookup (a process's samples come close in time).
 *  - by map address, for user maps: (ip's offset in the object, the
 *    object, inline) -> the frames resolved the first time (fold's memo,
 *    collect.c, uses the same key). A library met at another address in
 *    a new process, or by a new stamp, is not looked up again: its frames
 *    are copied with the new ip and mapping, re-interned by their ids
 *    (no string hashed).
 *  - by address, outside user maps: (ip, the values of the map holding
 *    it (range, file offset, object), kernel, inline) -> its frame ids.
 *    What an address resolves to depends on nothing else (perf resolves
 *    it in that map): the kernel's code is one map for every process.
 *  - by symbol: (symbol, inline name, object, kernel, mapped; the object
 *    alone for an address with no symbol) -> the frame first made of it.
 *    Another address of it (a new address in a library, a kernel symbol
 *    met at another address) is that frame moved to its ip and mapping,
 *    with its address when that is identity (no string hashed).
 *
 *   struct prof_loc_frames lf;
 *   prof_loc_frames_init(&lf, &profile.frames);
 *   const uint32_t *ids;
 *   size_t n = prof_loc_frames_of(&lf, ses, thread, ip, kernel, inl, &ids);
 *   ... ids[0..n): leaf first (inline rows innermost first) ...
 *   prof_loc_frames_release(&lf);
 *
 * Ownership: fs is the caller's and outlives lf; *ids is borrowed until
 * the next call. The memos keep pointers to the session's objects
 * (sym_dso, sym_entry), so lf must not outlive the session whose
 * addresses it was given. Failure: only allocation (fatal).
 */
#ifndef SCORCH_PROFILE_LOCFRAMES_H
#define SCORCH_PROFILE_LOCFRAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/u64map.h"
#include "process/session.h"
#include "profile/frame.h"

/* A mapping id moved frames got: for a map (by pointer and values) and
 * the template's mapping (its object and build id). */
struct prof_loc_mapc {
	const struct proc_map *map;
	uint64_t start, end, pgoff;
	uint32_t tmap, id;
};
enum { PROF_LOC_MAPC = 64, PROF_LOC_STAMP_BITS = 16 };

struct prof_loc_frames {
	struct prof_frames *fs;         /* not owned */
	struct prof_loc_stamp *stamps;  /* 2^PROF_LOC_STAMP_BITS, by a hash of the key */
	struct u64map by_ip;            /* ip -> index + 1 in ips of its latest variant */
	struct prof_loc_ip *ips;
	size_t nips, ips_cap;
	struct u64map by_addr;          /* map address -> index + 1 in addrs */
	struct prof_loc_addr *addrs;
	size_t naddrs, addrs_cap;
	uint32_t *ids;                  /* per ip or address variant: count, frame ids */
	struct prof_frame *tframes;     /* per address variant: its frames */
	size_t ntframes, tframes_cap;
	struct u64map by_sym;           /* symbol -> index + 1 in syms (kernel maps) */
	struct prof_loc_sym *syms;
	size_t nsyms, syms_cap;
	size_t nids, ids_cap;
	char hex[2 * SYM_BUILDID_MAX + 1]; /* scratch: a build id */
	struct prof_loc_mapc mapc[PROF_LOC_MAPC]; /* mapping ids of moved frames,
						  * by map pointer */
};

void prof_loc_frames_init(struct prof_loc_frames *lf, struct prof_frames *fs);
void prof_loc_frames_release(struct prof_loc_frames *lf);
/* The frames of ip as thread t's chain gives it (kernel: in the
 * kernel's maps; inl: expanded into inline rows), leaf first, as
 * proc_session_ip_frames resolves them, interned in fs. Returns how many. */
size_t prof_loc_frames_of(struct prof_loc_frames *lf, struct proc_session *ses,
			  struct proc_thread *t, uint64_t ip, bool kernel, bool inl,
			  const uint32_t **ids);

#endif
