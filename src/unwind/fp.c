/*
 * fp: frame-pointer fallback for frames without CFI.
 * Stage: unwind. Both x86_64 and aarch64 keep [fp] = caller's fp and
 * [fp + 8] = return address when code keeps frame pointers. Invariant:
 * the fp must point into the stack copy at or above the current sp, so a
 * garbage fp ends the walk instead of wandering.
 */
#include "unwind/frame.h"

int unw_fp_step(const struct unw_frame *f, struct unw_regs *next)
{
	const struct unw_arch_info *ai = f->ai;
	uint64_t fp, sp, saved_fp, ra;

	if (!(f->regs.valid & (1ULL << ai->fp)) ||
	    !(f->regs.valid & (1ULL << ai->sp)))
		return UNW_STOP_NO_CFI;
	fp = f->regs.r[ai->fp];
	sp = f->regs.r[ai->sp];
	if (fp < sp || fp > UINT64_MAX - 16)
		return UNW_STOP_NO_CFI;
	if (!unw_mem_read8(f, fp, &saved_fp) ||
	    !unw_mem_read8(f, fp + 8, &ra))
		return UNW_STOP_MEMORY;
	*next = f->regs;
	next->valid = (1ULL << ai->sp) | (1ULL << ai->fp);
	next->r[ai->fp] = saved_fp;
	next->r[ai->sp] = fp + 16;
	next->pc = ra;
	next->has_pc = true;
	return 0;
}
