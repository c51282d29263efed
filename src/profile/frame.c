/*
 * frame: frames interned by identity, and their folded names (see
 * frame.h). Stage: profile. Key invariant: a frame's names are what
 * stackcollapse-perf.pl prints for the line `perf script` shows for it,
 * decided from the fields; each (frame, java) is named once.
 */
#include "profile/frame.h"

#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

/* ---- strings and frames ---- */

static uint32_t check_id(size_t id)
{
	if (id >= PROF_MAX_IDS)
		xreallocarray(NULL, SIZE_MAX, 2); /* dies: see frame.h, Failure */
	return (uint32_t)id;
}

static uint32_t str_id(struct prof_frames *fs, const char *s, size_t len)
{
	if (!s)
		return PROF_NONE;
	return check_id(hmap_put(&fs->strs, s, len, NULL));
}

void prof_frames_init(struct prof_frames *fs)
{
	memset(fs, 0, sizeof(*fs));
	hmap_init(&fs->strs);
	hmap_init(&fs->maps);
}

void prof_frames_release(struct prof_frames *fs)
{
	hmap_release(&fs->strs);
	free(fs->slots);
	hmap_release(&fs->maps);
	free(fs->v);
	free(fs->mv);
	prof_frames_init(fs);
}

uint32_t prof_frames_intern_map(struct prof_frames *fs, const struct prof_map *m)
{
	unsigned char k[32];
	memcpy(k, &m->start, 8);
	memcpy(k + 8, &m->limit, 8);
	memcpy(k + 16, &m->offset, 8);
	memcpy(k + 24, &m->file, 4);
	memcpy(k + 28, &m->build_id, 4);
	bool added;
	uint32_t id = check_id(hmap_put(&fs->maps, k, sizeof(k), &added));
	if (added) {
		XGROW(fs->mv, fs->mcap, (size_t)id + 1);
		fs->mv[id] = *m;
	}
	return id;
}

static uint32_t map_id(struct prof_frames *fs, const struct prof_map_desc *d)
{
	if (!d)
		return PROF_NONE;
	struct prof_map m = { d->start, d->limit, d->offset,
			      str_id(fs, d->file, d->file_len),
			      str_id(fs, d->build_id, d->build_id_len) };
	return prof_frames_intern_map(fs, &m);
}

/* A symbol literally named with "[unknown]" takes its address into the
 * name under --addrs ("[dso <pc>]"), so its address is identity too. */
static bool name_uses_addr(const char *s, size_t len)
{
	return s && memmem(s, len, "[unknown]", 9) != NULL;
}

uint32_t prof_frames_intern(struct prof_frames *fs, const struct prof_frame_desc *d)
{
	struct prof_frame f = { (uint8_t)d->kind, (uint8_t)d->flags, 0, 0,
				PROF_NONE, PROF_NONE, PROF_NONE, 0, 0 };
	if (d->kind == PROF_FRAME_COMM)
		f.pid = d->pid, f.tid = d->tid;
	if (d->kind != PROF_FRAME_ADDRESS)
		f.name = str_id(fs, d->name, d->name_len);
	if (d->kind == PROF_FRAME_SYMBOL || d->kind == PROF_FRAME_ADDRESS)
		f.dso = str_id(fs, d->dso, d->dso_len);
	if (d->kind == PROF_FRAME_ADDRESS ||
	    (d->kind == PROF_FRAME_SYMBOL && name_uses_addr(d->name, d->name_len)))
		f.addr = d->addr;
	if ((d->flags & PROF_F_LOC) && (d->kind == PROF_FRAME_SYMBOL ||
					d->kind == PROF_FRAME_ADDRESS)) {
		f.ip = d->ip;
		f.map = map_id(fs, d->map);
	}
	return prof_frames_intern_frame(fs, &f);
}

/*
 * Frames are found by a hash of their fields in a table of ids (no key
 * copied: the frame in v is the key): an export's collector interns a
 * frame per address per mapping, and packing and hashing a 38-byte key
 * into a byte map was a tenth of its instructions.
 */
static uint64_t frame_hash(const struct prof_frame *f)
{
	uint64_t h = ((uint64_t)f->name << 32 | f->dso) * 0x9e3779b97f4a7c15u;
	h ^= ((uint64_t)(uint32_t)f->pid << 32 | (uint32_t)f->tid) * 0xc2b2ae3d27d4eb4fu;
	h ^= ((uint64_t)f->map << 16 | (uint64_t)f->flags << 8 | f->kind) * 0x165667b19e3779f9u;
	h ^= f->addr * 0xd6e8feb86659fd93u;
	h ^= (f->ip ^ (f->ip >> 29)) * 0xff51afd7ed558ccdu;
	h ^= h >> 32;
	h *= 0xd6e8feb86659fd93u;
	return h ^ (h >> 29);
}

static bool same_frame(const struct prof_frame *a, const struct prof_frame *b)
{
	return a->ip == b->ip && a->name == b->name && a->dso == b->dso &&
	       a->map == b->map && a->addr == b->addr && a->kind == b->kind &&
	       a->flags == b->flags && a->pid == b->pid && a->tid == b->tid;
}

/* A slot holds the top half of the hash and the id + 1. Probing starts
 * at the hash's top bits, so that growing reads no frame and moves the
 * slots in order (slot i goes near 2i: no write lands at random). */
#define TAG_MASK 0xffffffff00000000u

/* (nslots at most 2^32: ids are 32 bits and the table half full) */
static size_t slot_start(uint64_t h, size_t nslots)
{
	return (size_t)(h >> 32 >> (32 - __builtin_ctzll(nslots)));
}

/* The slot of f (hash h): holding its id, or empty. */
static uint64_t *frame_slot(const struct prof_frames *fs, const struct prof_frame *f,
			    uint64_t h)
{
	size_t mask = fs->nslots - 1;
	for (size_t i = slot_start(h, fs->nslots);; i = (i + 1) & mask) {
		uint64_t *s = &fs->slots[i];
		if (!*s || ((*s & TAG_MASK) == (h & TAG_MASK) &&
			    same_frame(&fs->v[(*s & ~TAG_MASK) - 1], f)))
			return s;
	}
}

static void frames_rehash(struct prof_frames *fs)
{
	uint64_t *old = fs->slots;
	size_t n = fs->nslots;
	fs->nslots = n ? 2 * n : 1024;
	fs->slots = xcalloc(fs->nslots, sizeof(*fs->slots));
	size_t mask = fs->nslots - 1;
	for (size_t i = 0; i < n; i++) {
		if (!old[i])
			continue;
		size_t at = slot_start(old[i], fs->nslots);
		while (fs->slots[at])
			at = (at + 1) & mask;
		fs->slots[at] = old[i];
	}
	free(old);
}

uint32_t prof_frames_intern_frame(struct prof_frames *fs, const struct prof_frame *f)
{
	if (2 * (fs->count + 1) > fs->nslots)
		frames_rehash(fs);
	uint64_t h = frame_hash(f);
	uint64_t *s = frame_slot(fs, f, h);
	if (*s)
		return (uint32_t)((*s & ~TAG_MASK) - 1);
	uint32_t id = check_id(fs->count);
	XGROW(fs->v, fs->cap, (size_t)id + 1);
	fs->v[id] = *f;
	fs->count++;
	*s = (h & TAG_MASK) | ((uint64_t)id + 1);
	return id;
}

const struct prof_frame *prof_frames_get(const struct prof_frames *fs, uint32_t id)
{
	return &fs->v[id];
}

const char *prof_frames_str(const struct prof_frames *fs, uint32_t sid, size_t *len)
{
	if (sid == PROF_NONE) {
		*len = 0;
		return NULL;
	}
	*len = fs->strs.entries[sid].len;
	return fs->strs.entries[sid].key;
}

void prof_frames_desc(const struct prof_frames *fs, uint32_t id,
		      struct prof_frame_desc *d)
{
	const struct prof_frame *f = &fs->v[id];
	memset(d, 0, sizeof(*d));
	d->kind = (enum prof_frame_kind)f->kind;
	d->flags = f->flags;
	d->addr = f->addr;
	d->pid = f->pid;
	d->tid = f->tid;
	d->name = prof_frames_str(fs, f->name, &d->name_len);
	d->dso = prof_frames_str(fs, f->dso, &d->dso_len);
	d->ip = f->ip;
	if (f->map != PROF_NONE) {
		const struct prof_map *m = &fs->mv[f->map];
		struct prof_map_desc *md = &d->map_store;
		md->start = m->start;
		md->limit = m->limit;
		md->offset = m->offset;
		md->file = prof_frames_str(fs, m->file, &md->file_len);
		md->build_id = prof_frames_str(fs, m->build_id, &md->build_id_len);
		d->map = md;
	}
}

/* ---- names ---- */

void prof_names_init(struct prof_names *nm, const struct collapse_opts *o)
{
	memset(nm, 0, sizeof(*nm));
	nm->opts = *o;
	collapse_opts_finish(&nm->opts);
	hmap_init(&nm->names);
	hmap_init(&nm->loc_at);
	stack_builder_init(&nm->b);
	sb_init(&nm->scratch);
}

void prof_names_release(struct prof_names *nm)
{
	hmap_release(&nm->names);
	hmap_release(&nm->loc_at);
	free(nm->loc_slots);
	free(nm->at[0]);
	free(nm->at[1]);
	free(nm->parts);
	stack_builder_release(&nm->b);
	sb_release(&nm->scratch);
	struct collapse_opts o = nm->opts;
	prof_names_init(nm, &o);
}

static bool is_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/*
 * Where /^\s*(\w+)\s*(.+) \((.*)\)/ splits the line "PC SYM (DSO)": the
 * symbol runs to the last " (" before the final ')', which lies inside
 * DSO when DSO holds " (" (the '(' of such a pair is always in DSO);
 * the \s* after PC takes the symbol's leading whitespace, except that
 * (.+) keeps at least its last byte. The symbol text goes to scratch
 * only when it differs from sym (a DSO with " (", or leading space).
 */
struct split {
	const char *func; size_t func_len;
	const char *mod;  size_t mod_len;
};

static void split_like_perl(struct strbuf *scratch, const char *sym, size_t sym_len,
			    const char *dso, size_t dso_len, struct split *out)
{
	const char *in = NULL;
	for (size_t j = dso_len; j-- > 1;)
		if (dso[j] == '(' && dso[j - 1] == ' ') {
			in = dso + j - 1;
			break;
		}
	const char *full = sym;
	size_t full_len = sym_len;
	out->mod = dso;
	out->mod_len = dso_len;
	if (in) {
		sb_reset(scratch);
		sb_add(scratch, sym, sym_len);
		sb_add(scratch, " (", 2);
		sb_add(scratch, dso, (size_t)(in - dso));
		full = scratch->buf;
		full_len = scratch->len;
		out->mod = in + 2;
		out->mod_len = dso_len - (size_t)(in + 2 - dso);
	}
	size_t y = 0;
	while (y < full_len && is_space((unsigned char)full[y]))
		y++;
	if (y < full_len) {
		out->func = full + y;
		out->func_len = full_len - y;
	} else if (full_len > 0) {
		out->func = full + full_len - 1;  /* all space: its last byte */
		out->func_len = 1;
	} else {
		out->func = " ";                 /* empty: the space after PC */
		out->func_len = 1;
	}
}

static uint32_t name_id(struct prof_names *nm, const char *s, size_t len)
{
	return check_id(hmap_put(&nm->names, s, len, NULL));
}

/* Append the list "count, ids root first" of the frames in nm->b. */
static void record_built(struct prof_names *nm)
{
	size_t n = nm->b.nframes;
	XGROW(nm->parts, nm->parts_cap, nm->nparts + n + 1);
	uint32_t *list = nm->parts + nm->nparts;
	list[0] = (uint32_t)n;
	for (size_t i = 0; i < n; i++) { /* pushed leaf first */
		size_t len;
		const char *s = stack_builder_frame(&nm->b, n - 1 - i, &len);
		list[1 + i] = name_id(nm, s, len);
	}
	nm->nparts += n + 1;
}

static void name_comm(struct prof_names *nm, const struct prof_frames *fs,
		      const struct prof_frame *f)
{
	char pid[16], tid[16];
	size_t clen;
	const char *comm = prof_frames_str(fs, f->name, &clen);
	size_t pl = int_to_text(pid, (int)f->pid);
	size_t tl = int_to_text(tid, (int)f->tid);
	struct strbuf *sb = stack_builder_begin_frame(&nm->b);
	collapse_perf_comm(&nm->opts, comm ? comm : "", clen,
			   f->pid < 0 ? NULL : pid, pl, tid, tl, sb);
	stack_builder_end_frame(&nm->b);
}

static void name_text(struct prof_names *nm, const struct prof_frames *fs,
		      const struct prof_frame *f)
{
	size_t len;
	const char *s = prof_frames_str(fs, f->name, &len);
	stack_builder_push(&nm->b, s ? s : "", len);
}

/* "%llx" of v into buf (room for 17 bytes), without printf: once per
 * frame named, which is every frame of a system-wide recording. */
static size_t hex_text(char *buf, uint64_t v)
{
	size_t n = 1;
	for (uint64_t t = v >> 4; t; t >>= 4)
		n++;
	for (size_t i = n; i-- > 0; v >>= 4)
		buf[i] = "0123456789abcdef"[v & 15];
	buf[n] = '\0';
	return n;
}

static void name_code(struct prof_names *nm, const struct prof_frames *fs,
		      const struct prof_frame *f, bool java)
{
	size_t slen = 9, dlen = 9;
	const char *sym = "[unknown]", *dso = "[unknown]";
	if (f->kind == PROF_FRAME_SYMBOL && f->name != PROF_NONE)
		sym = prof_frames_str(fs, f->name, &slen);
	if (f->flags & PROF_F_INLINE)
		dso = "inlined", dlen = 7; /* perf: "name+off (inlined)" */
	else if (f->dso != PROF_NONE)
		dso = prof_frames_str(fs, f->dso, &dlen);
	char pc[20];
	size_t pl = hex_text(pc, f->addr);
	struct split sp;
	split_like_perl(&nm->scratch, sym, slen, dso, dlen, &sp);
	struct collapse_frame cf = { pc, pl, sp.func, sp.func_len, sp.mod,
				     sp.mod_len, NULL, NULL };
	collapse_perf_frame(&nm->opts, java, &cf, &nm->b);
}

/* Room for frame ids below need in both at arrays, new entries 0. */
static void grow_at(struct prof_names *nm, size_t need)
{
	size_t old = nm->at_cap;
	if (need <= old)
		return;
	size_t cap = old * 2 > need ? old * 2 : need + 64;
	for (int j = 0; j < 2; j++) {
		nm->at[j] = xreallocarray(nm->at[j], cap, sizeof(uint32_t));
		memset(nm->at[j] + old, 0, (cap - old) * sizeof(uint32_t));
	}
	nm->at_cap = cap;
}

/* The names of frame f, recorded in parts: returns their offset + 1. */
static uint32_t name_frame(struct prof_names *nm, const struct prof_frames *fs,
			   const struct prof_frame *f, bool java)
{
	stack_builder_reset(&nm->b);
	if (f->kind == PROF_FRAME_COMM)
		name_comm(nm, fs, f);
	else if (f->kind == PROF_FRAME_TEXT)
		name_text(nm, fs, f);
	else
		name_code(nm, fs, f, java);
	uint32_t at = check_id(nm->nparts + 1);
	record_built(nm);
	return at;
}

/*
 * name_frame of a PROF_F_LOC frame, shared by every frame that differs
 * from it only in ip and mapping (name_code reads neither), or, but
 * with --addrs, in its address (only "[dso <pc>]" prints it): an export's
 * collector makes a frame per address per mapping, each process maps
 * its libraries at other addresses and most addresses of a system-wide
 * recording have no symbol, so most are named before.
 */
enum { NAME_SLOTS_BITS = 15 };

static uint32_t name_loc_frame(struct prof_names *nm, const struct prof_frames *fs,
			       const struct prof_frame *f, bool java)
{
	uint64_t addr = nm->opts.addrs ? f->addr : 0;
	uint8_t bits = (uint8_t)((f->flags & PROF_F_INLINE) | (java ? 0x80 : 0));
	uint64_t h = (f->name * 0x9e3779b97f4a7c15u) ^ (f->dso * 0xc2b2ae3d27d4eb4fu) ^ addr;
	if (!nm->loc_slots)
		nm->loc_slots = xcalloc((size_t)1 << NAME_SLOTS_BITS, sizeof(*nm->loc_slots));
	struct prof_name_slot *slot = &nm->loc_slots[h >> (64 - NAME_SLOTS_BITS)];
	if (slot->at && slot->name == f->name && slot->dso == f->dso && slot->addr == addr &&
	    slot->kind == f->kind && slot->bits == bits)
		return slot->at;
	unsigned char k[18];
	k[0] = f->kind;
	k[1] = bits;
	memcpy(k + 2, &f->name, 4);
	memcpy(k + 6, &f->dso, 4);
	memcpy(k + 10, &addr, 8);
	bool added;
	size_t e = hmap_put(&nm->loc_at, k, sizeof(k), &added);
	if (added)
		hmap_at(&nm->loc_at, e)->value = name_frame(nm, fs, f, java);
	*slot = (struct prof_name_slot){ f->name, f->dso, addr, f->kind, bits,
					 (uint32_t)hmap_at(&nm->loc_at, e)->value };
	return slot->at;
}

/* prof_names_of's slow path (frame.h): name frame id, then look up. */
size_t prof_names_name(struct prof_names *nm, const struct prof_frames *fs,
		       uint32_t id, bool java, const uint32_t **ids)
{
	int j = java ? 1 : 0;
	grow_at(nm, (size_t)id + 1);
	uint32_t at = nm->at[j][id];
	if (!at) {
		const struct prof_frame *f = &fs->v[id];
		bool code = f->kind == PROF_FRAME_SYMBOL || f->kind == PROF_FRAME_ADDRESS;
		at = code && (f->flags & PROF_F_LOC) ? name_loc_frame(nm, fs, f, java)
		     : name_frame(nm, fs, f, java);
		nm->at[j][id] = at;
	}
	*ids = nm->parts + at;
	return nm->parts[at - 1];
}

bool prof_names_java(struct prof_names *nm, const struct prof_frames *fs,
		     uint32_t comm_frame)
{
	const uint32_t *ids;
	size_t n = prof_names_of(nm, fs, comm_frame, false, &ids);
	if (n == 0)
		return false;
	size_t len;
	const char *s = prof_name_text(nm, ids[0], &len);
	return collapse_perf_is_java(s, len);
}
