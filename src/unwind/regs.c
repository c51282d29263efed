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
	/* the psABI's: rbx (3), rbp (6), r12-r15 */
	1u << 3 | 1u << 6 | 0xfu << 12,
};

static const struct unw_arch_info arch_aarch64 = {
	UNW_ARCH_AARCH64, "aarch64", 32, 31, 29, 30, false, 0,
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

void unw_regs_map_init(struct unw_regs_map *m, enum unw_arch arch, uint64_t mask)
{
	memset(m, 0, sizeof(*m));
	m->arch = arch;
	m->mask = mask;
	m->nvals = (unsigned)__builtin_popcountll(mask);
	m->pc_idx = -1;
	const struct unw_arch_info *ai = unw_arch_info(arch);
	if (!ai)
		return;
	unsigned i = 0;
	for (uint64_t b = mask; b; b &= b - 1, i++) { /* set bits, lowest first */
		bool is_pc;
		int d = to_dwarf(arch, (unsigned)__builtin_ctzll(b), &is_pc);
		if (is_pc)
			m->pc_idx = (int)i;
		if (d >= 0) {
			m->dw[m->n] = (uint8_t)d;
			m->idx[m->n++] = (uint8_t)i;
			m->valid |= 1ULL << d;
		}
	}
	m->ok = m->pc_idx >= 0 && (m->valid & (1ULL << ai->sp));
}

/* Once per sample: a copy per register the map names, no per-register
 * decisions (decoding the mask bit by bit was 4% of folding a DWARF
 * recording). */
int unw_regs_map_apply(const struct unw_regs_map *m, const uint64_t *vals,
		       size_t nvals, struct unw_regs *out)
{
	out->valid = 0;
	out->pc = 0;
	out->has_pc = false;
	if (!m->ok || m->nvals > nvals)
		return -EINVAL;
	for (unsigned k = 0; k < m->n; k++)
		out->r[m->dw[k]] = vals[m->idx[k]];
	out->valid = m->valid;
	out->pc = vals[m->pc_idx];
	out->has_pc = true;
	return 0;
}

int unw_regs_from_perf(enum unw_arch arch, uint64_t mask, const uint64_t *vals,
		       size_t nvals, struct unw_regs *out)
{
	struct unw_regs_map m;
	unw_regs_map_init(&m, arch, mask);
	return unw_regs_map_apply(&m, vals, nvals, out);
}

uint64_t unw_perf_dwarf_mask(enum unw_arch arch)
{
	if (arch == UNW_ARCH_X86_64)
		return 0xff0fffULL; /* perf's PERF_REGS_MASK: all but segments */
	if (arch == UNW_ARCH_AARCH64)
		return (1ULL << 33) - 1;
	return 0;
}
