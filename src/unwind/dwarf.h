/*
 * dwarf: unwinding of --call-graph dwarf samples with the binaries' CFI.
 * Stage: unwind. A sample carries the user registers and a copy of the
 * user stack from the sampled sp upward; this unwinder replays the CFI
 * rules (.eh_frame, else .debug_frame of a separate debug file) over that
 * copy, frame by frame, with elfutils' libdw for the CFI tables and its
 * own evaluation of registers, memory and DWARF expressions.
 *
 * The caller tells where code lives through a find callback (its process
 * maps); the unwinder does not know threads or maps. Everything cacheable
 * is cached in the session across samples: one entry per ELF file (its
 * Elf, Dwarf_CFI and program headers) and a memo of CFI rules per file
 * address, so nothing is rebuilt per sample.
 *
 * Invariants: stack memory is read only inside the copy; every step must
 * move sp up, or keep it while the pc moves, at most a few steps in a
 * row (loop guard: leaf frames keep sp); depth is capped by the caller's max
 * and UNW_MAX_DEPTH; when a frame has no CFI, frame pointers are tried
 * and the result says from which frame on they were used.
 *
 * Usage:
 *   struct unw_session *u = unw_session_new();
 *   struct unw_sample smp = { regs, arch, stack, stack_size, big_endian };
 *   struct unw_result res;
 *   unw_dwarf_unwind(u, &smp, my_find, my_ctx, ips, max, &res);
 *   // ips[0..res.n): ips[0] is the sampled pc, the others are return
 *   // addresses minus one (the call instruction), as perf prints them.
 *   unw_session_free(u);
 *
 * Ownership: the session owns its ELF handles and memo; paths passed in
 * unw_module are copied. A session is not thread-safe.
 */
#ifndef SCORCH_UNWIND_DWARF_H
#define SCORCH_UNWIND_DWARF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "unwind/regs.h"

#define UNW_MAX_DEPTH 1024

/* Where an address is mapped, as the caller's maps know it. */
struct unw_module {
	const char *path;        /* ELF with .eh_frame (the binary, or its
				  * build-id cache copy); NULL: no file.
				  * Recent files are found by this pointer:
				  * the string must stay valid and unchanged
				  * while the unw_session lives */
	const char *debug_path;  /* separate debug file (.debug_frame), or NULL */
	uint64_t start, end;     /* the mapping [start, end) */
	uint64_t pgoff;          /* file offset mapped at start */
};

/* Fill *m for the mapping that holds addr in the sampled process.
 * Returns 0 when found, negative when nothing is mapped there. */
typedef int (*unw_find_fn)(void *ctx, uint64_t addr, struct unw_module *m);

struct unw_sample {
	struct unw_regs regs;    /* from unw_regs_from_perf */
	enum unw_arch arch;
	const uint8_t *stack;    /* copy of [sp, sp + stack_size) */
	size_t stack_size;       /* the valid bytes (perf's dyn_size) */
	bool big_endian;         /* the recorder's byte order */
	/* Optional (0: unknown): an address space and its generation. While
	 * both stay the same, a pc lies in the same module (the find
	 * callback's answer is stable), and the unwinder may remember the
	 * CFI row per pc instead of asking again. */
	uint64_t space, space_gen;
};

/* Why an unwind ended. */
enum unw_stop {
	UNW_STOP_NONE = 0,    /* internal: a step succeeded; never in a result */
	UNW_STOP_END,         /* outermost frame: return address undefined or 0 */
	UNW_STOP_NO_MODULE,   /* pc not in any mapping, or its file is absent */
	UNW_STOP_NO_CFI,      /* no CFI and frame pointers did not help */
	UNW_STOP_MEMORY,      /* a read left the stack copy */
	UNW_STOP_LOOP,        /* sp went down, or stayed with the same pc
			       * (or for too many steps) */
	UNW_STOP_DEPTH,       /* max frames reached */
	UNW_STOP_BAD_REGS,    /* unknown arch, no pc/sp, or a CFI rule failed */
	UNW_STOP_COUNT
};

struct unw_result {
	size_t n;                 /* frames written to ips */
	enum unw_stop stop;
	size_t fp_from;           /* first frame found by frame pointers, or n */
};

/* Counters over a session, for one summary warning per run. */
struct unw_stats {
	uint64_t samples;
	uint64_t frames;
	uint64_t stops[UNW_STOP_COUNT];
	uint64_t fp_frames;       /* frames recovered by the fp fallback */
	uint64_t memo_hits, memo_misses;
	uint64_t files_missing;   /* distinct ELF paths that failed to open */
};

struct unw_session;

/* Never returns NULL. */
struct unw_session *unw_session_new(void);
void unw_session_free(struct unw_session *u);   /* NULL-safe */

/* Unwind one sample into ips[0..max). Returns the number of frames
 * (also in res->n, at least 1 when regs has a pc and max > 0). Never
 * fails harder than stopping early; res->stop says why it ended. */
size_t unw_dwarf_unwind(struct unw_session *u, const struct unw_sample *smp,
			unw_find_fn find, void *ctx, uint64_t *ips, size_t max,
			struct unw_result *res);

const struct unw_stats *unw_session_stats(const struct unw_session *u);

/* Short text for a stop reason ("no module", "loop", ...). */
const char *unw_stop_name(enum unw_stop s);

#endif
