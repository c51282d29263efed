/*
 * locframes: exact frames of chain addresses, memoized (see
 * locframes.h). Stage: profile. Key invariant: an id list handed out is
 * what interning proc_session_ip_frames' frames of that ip, in that
 * thread, would give: a memo is keyed by everything the resolution
 * reads (the ip, or the map address, and the map's values and object;
 * or the stamp of the thread's maps and the ip).
 */
#include "profile/locframes.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "profile/collect.h"

/* An ip outside user maps (kernel code, or no map), and its frames. */
struct prof_loc_ip {
	uint64_t start, end, pgoff; /* the map's values; 0 with no map */
	uintptr_t object;           /* the map's object + 1; 0: no map */
	uint32_t flags;             /* kernel << 1 | inl */
	uint32_t next;              /* index + 1 of the ip's previous variant */
	size_t at;                  /* in ids: count, frame ids leaf first */
};

/* An ip as the maps of one stamp resolve it, and its frames. */
struct prof_loc_stamp {
	uint64_t key;               /* stamp << 2 | kernel << 1 | inl */
	uint64_t ip;
	size_t at;                  /* in ids + 1: count, frame ids leaf first;
				     * 0: an empty slot */
};

/* A map address in a user map's object: the frames first made of it. */
struct prof_loc_addr {
	uintptr_t object;           /* the map's object */
	bool inl;
	uint32_t next;              /* index + 1 of the address's previous variant */
	size_t at;                  /* in ids: count, frame ids leaf first */
	size_t tf;                  /* in tframes: the frames of those ids (read
				     * there, beside the others, not in fs) */
};

void prof_loc_frames_init(struct prof_loc_frames *lf, struct prof_frames *fs)
{
	memset(lf, 0, sizeof(*lf));
	lf->fs = fs;
}

void prof_loc_frames_release(struct prof_loc_frames *lf)
{
	free(lf->stamps);
	u64map_release(&lf->by_ip);
	u64map_release(&lf->by_addr);
	free(lf->ips);
	free(lf->addrs);
	free(lf->ids);
	free(lf->tframes);
	u64map_release(&lf->by_sym);
	free(lf->syms);
	prof_loc_frames_init(lf, lf->fs);
}

static void map_desc(struct prof_loc_frames *lf, const struct proc_frame *f,
		     struct prof_map_desc *m)
{
	memset(m, 0, sizeof(*m));
	m->start = f->map->start;
	m->limit = f->map->end;
	m->offset = f->map->pgoff;
	if (!f->dso)
		return;
	m->file = f->dso->name;
	m->file_len = strlen(f->dso->name);
	const struct sym_buildid *b = &f->dso->buildid;
	for (size_t i = 0; i < b->size; i++) {
		lf->hex[2 * i] = "0123456789abcdef"[b->id[i] >> 4];
		lf->hex[2 * i + 1] = "0123456789abcdef"[b->id[i] & 15];
	}
	if (b->size) {
		m->build_id = lf->hex;
		m->build_id_len = 2 * (size_t)b->size;
	}
}

/* A resolved frame, interned from its description. */
static uint32_t frame_id(struct prof_loc_frames *lf, const struct proc_frame *f)
{
	struct prof_frame_desc d;
	struct prof_map_desc m;
	prof_desc_of_frame(f, &d);
	d.flags |= PROF_F_LOC;
	d.ip = f->ip;
	if (f->map) {
		map_desc(lf, f, &m);
		d.map = &m;
	}
	return prof_frames_intern(lf->fs, &d);
}

/* Room for a list of n ids in lf->ids; returns where it starts. */
static size_t ids_add(struct prof_loc_frames *lf, size_t n)
{
	size_t at = lf->nids;
	XGROW(lf->ids, lf->ids_cap, at + n + 1);
	lf->ids[at] = (uint32_t)n;
	lf->nids = at + n + 1;
	return at;
}

/* A resolved frame by what its fields come from (symbol, inline name,
 * object, kernel, whether a map holds it): the frame first made of it,
 * which another ip or map of the same moves (its address taken along
 * when it is identity: no symbol, or a name holding "[unknown]"). */
struct prof_loc_sym {
	const void *sym, *dso, *inl;
	bool kernel, map, with_addr;
	uint32_t next;              /* index + 1 of the key's previous variant */
	struct prof_frame f;        /* the frame first made */
};

static uint64_t sym_key(const struct proc_frame *fr)
{
	return (uintptr_t)fr->sym * 0x9e3779b97f4a7c15u ^ (uintptr_t)fr->dso * 0xc2b2ae3d27d4eb4fu ^
	       (uintptr_t)fr->inline_name;
}

static bool same_sym(const struct prof_loc_sym *e, const struct proc_frame *fr)
{
	return e->sym == fr->sym && e->dso == fr->dso && e->inl == fr->inline_name &&
	       e->kernel == fr->kernel && e->map == (fr->map != NULL);
}

/* Frame id template (a frame of another ip in another mapping of the
 * same object) with ip and map's values instead. */
static uint32_t moved_frame(struct prof_loc_frames *lf, const struct prof_frame *template,
			    uint64_t ip, const struct proc_map *map)
{
	struct prof_frame f = *template;
	/* the mapping: the template's object and build id at map's range,
	 * most often the one the last address of this map got */
	struct prof_loc_mapc *c = &lf->mapc[((uintptr_t)map >> 4) % PROF_LOC_MAPC];
	if (c->map != map || c->tmap != f.map || c->start != map->start ||
	    c->end != map->end || c->pgoff != map->pgoff) {
		struct prof_map m = *prof_frames_map(lf->fs, f.map);
		m.start = map->start;
		m.limit = map->end;
		m.offset = map->pgoff;
		*c = (struct prof_loc_mapc){ map, map->start, map->end, map->pgoff, f.map,
					     prof_frames_intern_map(lf->fs, &m) };
	}
	f.ip = ip;
	f.map = c->id;
	return prof_frames_intern_frame(lf->fs, &f);
}

/* frame_id of fr: moved from the frame first made of its symbol (or
 * object, with no symbol) when met before, so that no string is hashed
 * (a new address in a library, a kernel symbol's other addresses), else
 * from its fields. */
static uint32_t sym_frame(struct prof_loc_frames *lf, const struct proc_frame *fr)
{
	uint64_t key = sym_key(fr);
	const uint64_t *head = u64map_find(&lf->by_sym, key);
	for (size_t v = head ? *head : 0; v; v = lf->syms[v - 1].next) {
		const struct prof_loc_sym *e = &lf->syms[v - 1];
		if (!same_sym(e, fr))
			continue;
		struct prof_frame f = e->f;
		if (e->with_addr)
			f.addr = fr->addr;
		if (fr->map)
			return moved_frame(lf, &f, fr->ip, fr->map);
		f.ip = fr->ip;
		return prof_frames_intern_frame(lf->fs, &f);
	}
	uint32_t id = frame_id(lf, fr);
	if (!fr->addr) /* with_addr is told by the frame's addr */
		return id;
	const struct prof_frame *f = prof_frames_get(lf->fs, id);
	struct prof_loc_sym e = { fr->sym, fr->dso, fr->inline_name, fr->kernel,
				  fr->map != NULL, f->addr != 0, 0, *f };
	bool added;
	uint64_t *h = u64map_put(&lf->by_sym, key, &added);
	e.next = (uint32_t)*h;
	XGROW(lf->syms, lf->syms_cap, lf->nsyms + 1);
	lf->syms[lf->nsyms] = e;
	*h = ++lf->nsyms;
	return id;
}

/* The frames of ip in user map: moved from the frames of its map
 * address in the same object when met before, else resolved (and kept
 * by map address when every frame is in that map, as a user map's are). */
static size_t user_frames(struct prof_loc_frames *lf, struct proc_session *ses,
			  struct proc_thread *t, uint64_t ip, const struct proc_map *map,
			  bool inl)
{
	uint64_t addr = proc_map_addr(map, ip);
	const uint64_t *head = u64map_find(&lf->by_addr, addr);
	for (size_t v = head ? *head : 0; v; v = lf->addrs[v - 1].next) {
		const struct prof_loc_addr *a = &lf->addrs[v - 1];
		if (a->object != (uintptr_t)map->dso || a->inl != inl)
			continue;
		size_t n = lf->ids[a->at], tf = a->tf, at = ids_add(lf, n);
		for (size_t i = 0; i < n; i++)
			lf->ids[at + 1 + i] = moved_frame(lf, &lf->tframes[tf + i], ip, map);
		return at;
	}
	struct proc_frame *fr;
	size_t n = proc_session_ip_frames(ses, t, false, inl, ip, &fr);
	size_t at = ids_add(lf, n);
	bool movable = true;
	for (size_t i = 0; i < n; i++) {
		lf->ids[at + 1 + i] = sym_frame(lf, &fr[i]);
		movable &= fr[i].map == map && fr[i].dso == map->dso && fr[i].ip == ip;
	}
	if (movable) {
		bool added;
		uint64_t *h = u64map_put(&lf->by_addr, addr, &added);
		XGROW(lf->addrs, lf->addrs_cap, lf->naddrs + 1);
		XGROW(lf->tframes, lf->tframes_cap, lf->ntframes + n);
		for (size_t i = 0; i < n; i++)
			lf->tframes[lf->ntframes + i] = *prof_frames_get(lf->fs, lf->ids[at + 1 + i]);
		lf->addrs[lf->naddrs] = (struct prof_loc_addr){ (uintptr_t)map->dso, inl,
								(uint32_t)*h, at, lf->ntframes };
		lf->ntframes += n;
		*h = ++lf->naddrs;
	}
	return at;
}

/* The ids entry of ip in map with flags, or SIZE_MAX. */
static size_t ip_find(const struct prof_loc_frames *lf, uint64_t ip,
		      const struct proc_map *map, uint32_t flags)
{
	const uint64_t *head = u64map_find(&lf->by_ip, ip);
	uintptr_t object = map ? (uintptr_t)map->dso + 1 : 0;
	for (size_t v = head ? *head : 0; v; v = lf->ips[v - 1].next) {
		const struct prof_loc_ip *e = &lf->ips[v - 1];
		if (e->object == object && e->flags == flags &&
		    (!map || (e->start == map->start && e->end == map->end &&
			      e->pgoff == map->pgoff)))
			return e->at;
	}
	return SIZE_MAX;
}

/* Make the frames of ip outside user maps (kernel code, or no map)
 * and keep them by ip. */
static size_t ip_add(struct prof_loc_frames *lf, struct proc_session *ses,
		     struct proc_thread *t, uint64_t ip, const struct proc_map *map,
		     bool kernel, bool inl)
{
	struct proc_frame *fr;
	size_t n = proc_session_ip_frames(ses, t, kernel, inl, ip, &fr);
	size_t at = ids_add(lf, n);
	for (size_t i = 0; i < n; i++)
		lf->ids[at + 1 + i] = sym_frame(lf, &fr[i]);
	struct prof_loc_ip e = { 0, 0, 0, 0, (uint32_t)kernel << 1 | (uint32_t)inl, 0, at };
	if (map) {
		e.start = map->start;
		e.end = map->end;
		e.pgoff = map->pgoff;
		e.object = (uintptr_t)map->dso + 1;
	}
	bool added;
	uint64_t *head = u64map_put(&lf->by_ip, ip, &added);
	e.next = (uint32_t)*head;
	XGROW(lf->ips, lf->ips_cap, lf->nips + 1);
	lf->ips[lf->nips] = e;
	*head = ++lf->nips;
	return at;
}

/* The slot of (key, ip) in stamps. */
static struct prof_loc_stamp *stamp_slot(struct prof_loc_frames *lf, uint64_t key,
					 uint64_t ip)
{
	if (!lf->stamps)
		lf->stamps = xcalloc((size_t)1 << PROF_LOC_STAMP_BITS, sizeof(*lf->stamps));
	uint64_t h = (key * 0x9e3779b97f4a7c15u ^ ip) * 0xc2b2ae3d27d4eb4fu;
	return &lf->stamps[h >> (64 - PROF_LOC_STAMP_BITS)];
}

size_t prof_loc_frames_of(struct prof_loc_frames *lf, struct proc_session *ses,
			  struct proc_thread *t, uint64_t ip, bool kernel, bool inl,
			  const uint32_t **ids)
{
	uint32_t flags = (uint32_t)kernel << 1 | (uint32_t)inl;
	uint64_t key = proc_thread_stamp(&ses->machine, t, kernel) << 2 | flags;
	struct prof_loc_stamp *s = stamp_slot(lf, key, ip);
	if (!s->at || s->key != key || s->ip != ip) {
		const struct proc_map *map = proc_thread_find_map(&ses->machine, t, kernel, ip);
		size_t at;
		if (map && !kernel) {
			at = user_frames(lf, ses, t, ip, map, inl);
		} else {
			at = ip_find(lf, ip, map, flags);
			if (at == SIZE_MAX)
				at = ip_add(lf, ses, t, ip, map, kernel, inl);
		}
		*s = (struct prof_loc_stamp){ key, ip, at + 1 };
	}
	*ids = lf->ids + s->at;
	return lf->ids[s->at - 1];
}
