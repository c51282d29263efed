/*
 * regs: perf register numbers to DWARF register numbers, per architecture.
 * Stage: unwind. Tables follow the kernel's uapi asm/perf_regs.h enums and
 * the psABI DWARF register numbering (x86_64 psABI figure 3.36; AAPCS64
 * DWARF supplement). Invariant: nothing here reads host registers; the
 * arch always comes from the recording.
 */
#include "unwind/regs.h"

#include <errno.h>
#include <string.h>

static const struct unw_arch_info arch_x86_64 = {
	UNW_ARCH_X86_64, "x86_64", 17, 7, 6, 16, true,
};

static const struct unw_arch_info arch_aarch64 = {
	UNW_ARCH_AARCH64, "aarch64", 32, 31, 29, 30, false,
};

const struct unw_arch_info *unw_arch_info(enum unw_arch arch)
{
	switch (arch) {
	case UNW_ARCH_X86_64: return &arch_x86_64;
	case UNW_ARCH_AARCH64: return &arch_aarch64;
	default: return NULL;
	}
}

enum unw_arch unw_arch_from_name(const char *name)
{
	if (!name)
		return UNW_ARCH_UNKNOWN;
	if (!strcmp(name, "x86_64") || !strcmp(name, "amd64"))
		return UNW_ARCH_X86_64;
	if (!strcmp(name, "aarch64") || !strcmp(name, "arm64"))
		return UNW_ARCH_AARCH64;
	return UNW_ARCH_UNKNOWN;
}

/* perf_event_x86_regs: AX BX CX DX SI DI BP SP IP FLAGS CS SS DS ES FS GS
 * R8..R15 (16..23). DWARF: rax rdx rcx rbx rsi rdi rbp rsp r8..r15. */
static const signed char x86_64_dwarf[24] = {
	0, 3, 2, 1, 4, 5, 6, 7, -1, -1, -1, -1, -1, -1, -1, -1,
	8, 9, 10, 11, 12, 13, 14, 15,
};
#define X86_PERF_IP 8

/* perf_event_arm64_regs: X0..X30 (LR is 30), SP 31, PC 32; the DWARF
 * numbers of x0..x30 and sp are the same. */
#define ARM64_PERF_PC 32

/* The DWARF number of a perf register (-1: none), *is_pc for the pc. */
static inline int to_dwarf(enum unw_arch arch, unsigned perf_reg, bool *is_pc)
{
	if (arch == UNW_ARCH_X86_64) {
		*is_pc = perf_reg == X86_PERF_IP;
		return perf_reg < sizeof(x86_64_dwarf) ? x86_64_dwarf[perf_reg] : -1;
	}
	*is_pc = arch == UNW_ARCH_AARCH64 && perf_reg == ARM64_PERF_PC;
	return arch == UNW_ARCH_AARCH64 && perf_reg <= 31 ? (int)perf_reg : -1;
}

int unw_perf_to_dwarf(enum unw_arch arch, unsigned perf_reg, bool *is_pc)
{
	return to_dwarf(arch, perf_reg, is_pc);
}

static const signed char arm64_dwarf[32] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
	16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
};

/* Once per sample: only the mask, pc and flags are cleared (r[] values
 * mean something only where valid says so). One table per arch, no
 * per-register decisions (this ran for every sample). */
int unw_regs_from_perf(enum unw_arch arch, uint64_t mask, const uint64_t *vals,
		       size_t nvals, struct unw_regs *out)
{
	const struct unw_arch_info *ai = unw_arch_info(arch);
	bool x86 = arch == UNW_ARCH_X86_64;
	const signed char *tab = x86 ? x86_64_dwarf : arm64_dwarf;
	unsigned ntab = x86 ? sizeof(x86_64_dwarf) : sizeof(arm64_dwarf);
	unsigned pc_bit = x86 ? X86_PERF_IP : ARM64_PERF_PC;
	size_t i = 0;
	out->valid = 0;
	out->pc = 0;
	out->has_pc = false;
	if (!ai || (size_t)__builtin_popcountll(mask) > nvals)
		return -EINVAL;
	for (uint64_t m = mask; m; m &= m - 1, i++) { /* set bits, lowest first */
		unsigned bit = (unsigned)__builtin_ctzll(m);
		int d = bit < ntab ? tab[bit] : -1;
		if (bit == pc_bit) {
			out->pc = vals[i];
			out->has_pc = true;
		}
		if (d >= 0) {
			out->r[d] = vals[i];
			out->valid |= 1ULL << d;
		}
	}
	if (!out->has_pc || !(out->valid & (1ULL << ai->sp)))
		return -EINVAL;
	return 0;
}

uint64_t unw_perf_dwarf_mask(enum unw_arch arch)
{
	if (arch == UNW_ARCH_X86_64)
		return 0xff0fffULL; /* perf's PERF_REGS_MASK: all but segments */
	if (arch == UNW_ARCH_AARCH64)
		return (1ULL << 33) - 1;
	return 0;
}
