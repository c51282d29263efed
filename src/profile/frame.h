/*
 * frame: the frames of a profile, interned once by identity, and the
 * names stackcollapse-perf.pl gives them, decided from their fields.
 * Stage: profile (after process/symbols/unwind, before render).
 *
 * A frame is what a sample's call chain entry resolved to, kept as
 * structure: a symbol in an object, an address in an object (no
 * symbol), a process (comm, pid, tid), or a name given as text (the text
 * collapsers: perf script, stap, dtrace, folded input). Flags say what
 * the producer knew (kernel maps, an inline row, a JIT map, user code);
 * they are part of the identity, so exports (pprof, speedscope, the HTML
 * explorer) can tell frames apart that fold to the same name.
 *
 *   struct prof_frames fs = PROF_FRAMES_INIT;
 *   struct prof_frame_desc d = { .kind = PROF_FRAME_SYMBOL,
 *           .name = "main", .name_len = 4, .dso = "/bin/x", .dso_len = 6 };
 *   uint32_t id = prof_frames_intern(&fs, &d);   // same d: same id
 *   struct prof_names nm;
 *   prof_names_init(&nm, &collapse_options);
 *   const uint32_t *ids; size_t n = prof_names_of(&nm, &fs, id, false, &ids);
 *   ... prof_name_text(&nm, ids[i], &len) ...
 *   prof_names_release(&nm); prof_frames_release(&fs);
 *
 * Naming (prof_names_of) applies stackcollapse-perf.pl's rules
 * (stacks/collapse_perf.h: offset strip, "->" split, unknown, tidy,
 * annotations) to the fields, with no "sym (dso)" line printed and parsed
 * back. The one place structure and text can disagree is the Perl frame
 * regex /^\s*(\w+)\s*(.+) \((.*)\)/ itself: a symbol with leading
 * whitespace loses it, and an object name holding " (" (a "(deleted)"
 * mapping) moves the split into the object name. Those two cases are
 * decided from the fields (see split_like_perl in frame.c), so the names
 * equal what `perf script | stackcollapse-perf.pl` prints for the frame.
 * A frame names to 0 or more parts: 0 when the symbol starts with '(',
 * several for an inline chain "a->b". Names depend on the java flag of
 * the process (stackcollapse-perf.pl's Java rule), so they are kept per
 * (frame, java) and computed on first use.
 *
 * Ownership: prof_frames copies every string it is given into its own
 * arena; pointers it returns (struct prof_frame, strings) are borrowed
 * until prof_frames_release. Names and name ids belong to a prof_names
 * and live until prof_names_release. Ids are dense, from 0, in first-seen
 * order, so callers keep per-frame data in arrays.
 * Failure: none but allocation (fatal, base/xalloc.h); more than
 * PROF_MAX_IDS frames or names is treated as allocation failure.
 */
#ifndef SCORCH_PROFILE_FRAME_H
#define SCORCH_PROFILE_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/hmap.h"
#include "stacks/collapse_perf.h"
#include "stacks/table.h"

enum { PROF_NONE = UINT32_MAX, PROF_MAX_IDS = UINT32_MAX - 1 };

enum prof_frame_kind {
	PROF_FRAME_SYMBOL,  /* name: symbol (or inline function) in dso */
	PROF_FRAME_ADDRESS, /* no symbol: addr in dso (dso may be unknown) */
	PROF_FRAME_COMM,    /* a process: name is comm, with pid and tid */
	PROF_FRAME_TEXT,    /* name is the folded frame, verbatim */
};

enum prof_frame_flag {
	PROF_F_KERNEL = 1,  /* resolved in the kernel's maps */
	PROF_F_INLINE = 2,  /* an inlined-function row (perf: "(inlined)") */
	PROF_F_JIT = 4,     /* from a JIT map (perf-PID.map) */
	PROF_F_USER = 8,    /* resolved in a user process's maps */
	PROF_F_LOC = 16,    /* an exact location: ip and map are identity too
			     * (exports; see struct prof_map) */
};

/* The mapping of a PROF_F_LOC frame, as pprof's Mapping has it: the
 * runtime range [start, limit), the file offset of start, the object as
 * recorded and its build id (hex), each string NULL when unknown. */
struct prof_map_desc {
	uint64_t start, limit, offset;
	const char *file;
	size_t file_len;
	const char *build_id;
	size_t build_id_len;
};

/* An interned mapping: strings are ids into prof_frames' strings. */
struct prof_map {
	uint64_t start, limit, offset;
	uint32_t file, build_id;    /* PROF_NONE: unknown */
};

/* What a producer says about one frame; strings are copied when new. */
struct prof_frame_desc {
	enum prof_frame_kind kind;
	unsigned flags;             /* enum prof_frame_flag bits */
	uint64_t addr;              /* ADDRESS: the map address perf prints */
	const char *name;           /* symbol, comm or text; may be NULL (unknown) */
	size_t name_len;
	const char *dso;            /* object as recorded; NULL: unknown */
	size_t dso_len;
	int32_t pid, tid;           /* COMM: pid < 0 when unknown ("?") */
	/* with PROF_F_LOC only (SYMBOL, ADDRESS): */
	uint64_t ip;                /* the runtime address */
	const struct prof_map_desc *map; /* NULL: no mapping holds ip */
	struct prof_map_desc map_store; /* what prof_frames_desc points map at */
};

/* An interned frame: string fields are ids into prof_frames' strings. */
struct prof_frame {
	uint8_t kind, flags;
	int32_t pid, tid;
	uint32_t name, dso;         /* string ids, PROF_NONE: unknown */
	uint32_t map;               /* PROF_F_LOC: mapping id, or PROF_NONE */
	uint64_t addr;              /* ADDRESS only, else 0 */
	uint64_t ip;                /* PROF_F_LOC only, else 0 */
};                                  /* 40 bytes: an export has one per address
				     * per mapping */

struct prof_frames {
	struct hmap strs;           /* string -> string id */
	uint64_t *slots;            /* frames by their fields' hash: the hash's
				     * top half | (id + 1), 0: empty */
	size_t nslots, count;       /* nslots 0 or a power of two, at most
				     * half full; count: frames */
	struct prof_frame *v;       /* frames by id */
	size_t cap;
	struct hmap maps;           /* packed mapping (32 bytes) -> mapping id */
	struct prof_map *mv;        /* mappings by id */
	size_t mcap;
};

#define PROF_FRAMES_INIT { HMAP_INIT, NULL, 0, 0, NULL, 0, HMAP_INIT, NULL, 0 }

void prof_frames_init(struct prof_frames *fs);
/* Free everything; fs is empty and reusable. */
void prof_frames_release(struct prof_frames *fs);
/* The id of the frame d describes, adding it when new. Only the fields
 * of d's kind count (a SYMBOL's addr is ignored). Cannot fail. */
uint32_t prof_frames_intern(struct prof_frames *fs, const struct prof_frame_desc *d);
/* The ids of a frame and of a mapping given in fs's own terms (string
 * and mapping ids of fs; a frame with only the fields of its kind set,
 * as prof_frames_get returns them), added when new: a frame of fs with
 * another ip or mapping costs one hash, where a description hashes each
 * string again. Cannot fail. */
uint32_t prof_frames_intern_frame(struct prof_frames *fs, const struct prof_frame *f);
uint32_t prof_frames_intern_map(struct prof_frames *fs, const struct prof_map *m);
static inline size_t prof_frames_count(const struct prof_frames *fs)
{
	return fs->count;
}
/* The frame with this id, borrowed until release (id < count). */
const struct prof_frame *prof_frames_get(const struct prof_frames *fs, uint32_t id);
/* A string of a frame; NULL for PROF_NONE. */
const char *prof_frames_str(const struct prof_frames *fs, uint32_t sid, size_t *len);
/* The description of frame id (strings borrowed from fs): what
 * prof_frames_intern would map back to id, in any other prof_frames
 * (d->map, when set, points at d->map_store). */
void prof_frames_desc(const struct prof_frames *fs, uint32_t id,
		      struct prof_frame_desc *d);
/* Mappings of PROF_F_LOC frames: ids dense from 0, in first-seen order. */
static inline size_t prof_frames_maps(const struct prof_frames *fs)
{
	return fs->maps.count;
}
static inline const struct prof_map *prof_frames_map(const struct prof_frames *fs,
						      uint32_t id)
{
	return &fs->mv[id];
}

struct prof_name_slot {
	uint32_t name, dso;
	uint64_t addr;
	uint8_t kind, bits;         /* bits: inline flag | java << 7 */
	uint32_t at;                /* offset + 1 in parts, 0: empty */
};

/*
 * prof_names: folded names of frames under fixed collapse options.
 * Names are interned: equal text, equal name id, in any frame.
 */
struct prof_names {
	struct collapse_opts opts;  /* finished (all -> kernel, jit) */
	struct hmap names;          /* name text -> name id */
	uint32_t *at[2];            /* per frame and java flag: offset + 1 of
				     * its names in parts, 0: not named yet */
	size_t at_cap;              /* entries in each of at[0], at[1] */
	uint32_t *parts;            /* lists: count, then name ids root first */
	size_t nparts, parts_cap;
	struct hmap loc_at;         /* PROF_F_LOC frames: what names them (kind,
				     * inline flag, name, dso, addr, java) ->
				     * offset + 1 of their names in parts */
	struct prof_name_slot *loc_slots; /* the same, the last met of each
				     * hash: most found without hashing bytes */
	struct stack_builder b;     /* scratch for collapse_perf_frame */
	struct strbuf scratch;
};

void prof_names_init(struct prof_names *nm, const struct collapse_opts *o);
void prof_names_release(struct prof_names *nm);
/* The names frame id of fs folds to, root first, in a process whose
 * java flag is java: *ids is borrowed until the next call; returns how
 * many (0 when the frame is left out). A COMM frame names the process
 * ("comm", "comm-PID", "comm-PID/TID" by the options). nm must be used
 * with one fs only. */
size_t prof_names_name(struct prof_names *nm, const struct prof_frames *fs,
		       uint32_t id, bool java, const uint32_t **ids);
static inline size_t prof_names_of(struct prof_names *nm, const struct prof_frames *fs,
				   uint32_t id, bool java, const uint32_t **ids)
{
	uint32_t at = id < nm->at_cap ? nm->at[java][id] : 0;
	if (!at) /* not named yet: name it */
		return prof_names_name(nm, fs, id, java, ids);
	*ids = nm->parts + at;
	return nm->parts[at - 1];
}
static inline const char *prof_name_text(const struct prof_names *nm, uint32_t id,
					 size_t *len)
{
	*len = nm->names.entries[id].len;
	return nm->names.entries[id].key;
}
/* True when a process name (a COMM frame's name) takes the Java rule. */
bool prof_names_java(struct prof_names *nm, const struct prof_frames *fs,
		     uint32_t comm_frame);

#endif
