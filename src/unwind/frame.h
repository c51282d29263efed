/*
 * frame: internal state shared by the unwinder's files (not public API).
 * Stage: unwind. A unw_frame is one frame's registers plus the stack copy
 * they may point into; unw_mem_read is the only way to read that copy
 * and refuses anything outside it. unw_expr_eval runs a CFI DWARF
 * expression over a frame with a step cap, so damaged CFI can't loop;
 * unw_rules_* replay compiled CFI rows.
 */
#ifndef SCORCH_UNWIND_FRAME_H
#define SCORCH_UNWIND_FRAME_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stdint.h>

#include "unwind/dwarf.h"

struct unw_frame {
	struct unw_regs regs;
	const struct unw_arch_info *ai;
	const struct unw_sample *smp;  /* stack copy and its base (sample sp) */
	uint64_t stack_base;
};

/* Read size (1, 2, 4 or 8) bytes at addr from the stack copy into *out.
 * Returns false when [addr, addr+size) is not all inside the copy. */
bool unw_mem_read(const struct unw_frame *f, uint64_t addr, unsigned size,
		  uint64_t *out);

/* unw_mem_read of 8 bytes, inline for the common case (a little-endian
 * copy on a little-endian host: one load; saved registers are read this
 * way a few times per frame). */
static inline bool unw_mem_read8(const struct unw_frame *f, uint64_t addr,
				 uint64_t *out)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const struct unw_sample *s = f->smp;
	uint64_t off = addr - f->stack_base;
	if (!s->big_endian && addr >= f->stack_base && off <= s->stack_size &&
	    s->stack_size - off >= 8) {
		__builtin_memcpy(out, s->stack + off, 8);
		return true;
	}
#endif
	return unw_mem_read(f, addr, 8, out);
}

/* Evaluate ops[0..nops) with cfa pushed for DW_OP_call_frame_cfa (when
 * has_cfa). *is_value tells whether the result is a value
 * (DW_OP_stack_value or a CFA expression) rather than an address.
 * Returns 0 or -1 (unsupported op, stack under/overflow, bad register,
 * unreadable memory, too many steps). */
int unw_expr_eval(const struct unw_frame *f, const Dwarf_Op *ops, size_t nops,
		  bool has_cfa, uint64_t cfa, uint64_t *result, bool *is_value);

/* A CFI row compiled for fast replay (rules.c). */
struct unw_rules;

/* Compile fr for arch ai; takes ownership of fr (freed, or kept inside
 * when an expression rule needs it). Never returns NULL. */
struct unw_rules *unw_rules_compile(Dwarf_Frame *fr,
				    const struct unw_arch_info *ai);
void unw_rules_free(struct unw_rules *rs);   /* NULL-safe */
/* True when the row is a signal frame's (its caller's pc is exact). */
bool unw_rules_signal(const struct unw_rules *rs);
/* One CFI step from f into next (next->r/valid/pc). Returns 0 or a
 * unw_stop code (END when the return address is undefined). */
int unw_rules_step(const struct unw_frame *f, const struct unw_rules *rs,
		   struct unw_regs *next);

/* One frame-pointer step: from f's fp register, load the caller's fp and
 * return address. Fills next (registers of the caller: sp, fp, pc).
 * Returns 0, or a unw_stop code when it can't. */
int unw_fp_step(const struct unw_frame *f, struct unw_regs *next);

#endif
