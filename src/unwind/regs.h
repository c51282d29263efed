/*
 * regs: user registers of a perf sample, mapped to DWARF register numbers.
 * Stage: unwind. A sample's REGS_USER block holds one u64 per bit set in
 * the attr's sample_regs_user mask, in increasing bit order, numbered by
 * the kernel's perf_event_<arch>_regs enum. The unwinder works on DWARF
 * register numbers (the ones CFI names), so this file translates the
 * first into the second for the file's architecture, never the host's.
 * Invariant: a register is usable only when its bit is set in
 * unw_regs.valid; values of other slots are meaningless.
 */
#ifndef SCORCH_UNWIND_REGS_H
#define SCORCH_UNWIND_REGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum unw_arch {
	UNW_ARCH_UNKNOWN = 0,
	UNW_ARCH_X86_64,
	UNW_ARCH_AARCH64,
};

/* DWARF numbers: x86_64 uses 0..16 (16 is the return-address column),
 * aarch64 0..31 (31 is sp, 30 the link register). */
#define UNW_NREGS 33

struct unw_regs {
	uint64_t r[UNW_NREGS]; /* by DWARF register number */
	uint64_t valid;        /* bit n set: r[n] is known */
	uint64_t pc;           /* the frame's program counter */
	bool has_pc;
};

/* Copy the first nregs registers of src to dst: a constant-size copy
 * for x86_64's 17 (vector moves) rather than a variable-size one (a rep
 * movs with its startup cost, twice per unwound frame). */
static inline void unw_regs_copy(uint64_t *dst, const uint64_t *src,
				 unsigned nregs)
{
	if (nregs == 17)
		__builtin_memcpy(dst, src, 17 * sizeof(*src));
	else
		__builtin_memcpy(dst, src,
				 (nregs < UNW_NREGS ? nregs : UNW_NREGS) * sizeof(*src));
}

/* Per-architecture facts the unwinder needs. */
struct unw_arch_info {
	enum unw_arch arch;
	const char *name;
	unsigned nregs;     /* DWARF registers tracked: 17 or 32 */
	unsigned sp;        /* DWARF number of the stack pointer */
	unsigned fp;        /* frame pointer (rbp, x29) */
	unsigned ra;        /* return address column (16 on x86_64, x30) */
	bool ra_is_pc;      /* the ra column names no real register: CFI
			     * expressions read it as the pc (x86_64 PLT) */
	uint64_t callee_saved; /* registers a call keeps (bit per DWARF
			     * number) that CFI may leave unmentioned: a
			     * row without a rule for one means "same
			     * value" (libdw 0.188's x86_64 defaults name
			     * rax instead of rbx, leaving rbx undefined) */
};

/* Facts for arch, or NULL for UNW_ARCH_UNKNOWN. Can't fail otherwise. */
const struct unw_arch_info *unw_arch_info(enum unw_arch arch);

/* Architecture from a perf header "arch" string (uname -m: "x86_64",
 * "aarch64", "arm64"); UNW_ARCH_UNKNOWN for anything else or NULL. */
enum unw_arch unw_arch_from_name(const char *name);

/* DWARF register number for perf register index perf_reg of arch, or -1
 * when it has none (flags, segment registers). The pc is reported
 * separately: *is_pc is set when perf_reg is the instruction pointer. */
int unw_perf_to_dwarf(enum unw_arch arch, unsigned perf_reg, bool *is_pc);

/* Fill out from a REGS_USER block: mask is the attr's sample_regs_user,
 * vals[0..nvals) the sample's values in mask bit order. Returns 0, or
 * -EINVAL when the arch is unknown, vals is shorter than the mask says,
 * or the pc or sp is missing (then nothing can be unwound). Only the
 * registers in out->valid are written: other r[] slots keep old bytes. */
int unw_regs_from_perf(enum unw_arch arch, uint64_t mask, const uint64_t *vals,
		       size_t nvals, struct unw_regs *out);

/* A sample_regs_user mask of one arch, compiled once for the samples
 * that share it: which value goes to which DWARF register. */
struct unw_regs_map {
	enum unw_arch arch;
	uint64_t mask;
	unsigned nvals;          /* values a sample carries: popcount(mask) */
	unsigned n;              /* registers with a DWARF number: */
	uint8_t dw[64], idx[64]; /* ... r[dw[k]] = vals[idx[k]] */
	int pc_idx;              /* the pc's value, or -1 */
	uint64_t valid;          /* the registers set */
	bool ok;                 /* arch known, pc and sp present */
};

void unw_regs_map_init(struct unw_regs_map *m, enum unw_arch arch, uint64_t mask);
/* unw_regs_from_perf through a compiled map (same results). */
int unw_regs_map_apply(const struct unw_regs_map *m, const uint64_t *vals,
		       size_t nvals, struct unw_regs *out);

/* The mask perf record --call-graph dwarf sets for arch (all general
 * registers the unwinder may need), for tests and synthetic samples. */
uint64_t unw_perf_dwarf_mask(enum unw_arch arch);

#endif
