/*
 * rules: CFI rows compiled into a compact form, and one unwind step.
 * Stage: unwind. libdw describes a row (dwarf_cfi_addrframe) as DWARF
 * expressions per register; nearly all are "CFA = reg + off" and "saved
 * at CFA + off", so they are compiled once per address into plain
 * numbers and replayed without libdw. Anything else (the x86_64 PLT's
 * CFA expression, DW_CFA_expression) stays with its Dwarf_Frame and goes
 * through unw_expr_eval. Invariant: a compiled row gives the same caller
 * registers as evaluating the Dwarf_Frame would.
 */
#include "unwind/frame.h"

#include "base/xalloc.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

enum { R_UNDEF, R_SAME, R_OFFSET, R_VAL_OFFSET, R_REG, R_EXPR };

struct rule {
	uint8_t kind;
	uint8_t reg;            /* R_REG: the register holding the value */
	int64_t off;            /* from the CFA (R_OFFSET, R_VAL_OFFSET) or reg */
};

struct unw_rules {
	bool cfa_expr;          /* CFA is an expression: use frame */
	uint8_t cfa_reg;
	int64_t cfa_off;
	int ra;                 /* return address column */
	bool signal;            /* signal frame: the caller's pc is exact */
	Dwarf_Frame *frame;     /* kept when an expression needs it */
	uint64_t same;          /* registers the caller shares (R_SAME) */
	unsigned nsaved;        /* R_OFFSET registers (saved at CFA + off): */
	uint8_t saved[UNW_NREGS]; /* ... by number, in the order of r[] */
	int64_t saved_off[UNW_NREGS]; /* ... and their offsets, alike */
	uint64_t saved_mask;    /* ... as a register set */
	int64_t saved_lo, saved_hi; /* lowest and highest of the offsets */
	unsigned nother;        /* registers with another rule to work out: */
	uint8_t other[UNW_NREGS]; /* ... R_VAL_OFFSET, R_REG, R_EXPR */
	unsigned nregs;
	struct rule r[];
};

/* "reg + off" from [DW_OP_bregN off] or [DW_OP_bregx reg off]. */
static bool breg(const Dwarf_Op *op, uint8_t *reg, int64_t *off)
{
	if (op->atom >= DW_OP_breg0 && op->atom <= DW_OP_breg31) {
		*reg = op->atom - DW_OP_breg0;
		*off = (int64_t)op->number;
		return true;
	}
	if (op->atom == DW_OP_bregx && op->number < UNW_NREGS) {
		*reg = (uint8_t)op->number;
		*off = (int64_t)op->number2;
		return true;
	}
	return false;
}

/* A register location [DW_OP_regN] or [DW_OP_regx reg]: libdw's form
 * of DW_CFA_register ("the caller's value is in that register now"). */
static bool reg_loc(const Dwarf_Op *op, uint8_t *reg)
{
	if (op->atom >= DW_OP_reg0 && op->atom <= DW_OP_reg31) {
		*reg = op->atom - DW_OP_reg0;
		return true;
	}
	if (op->atom == DW_OP_regx && op->number < UNW_NREGS) {
		*reg = (uint8_t)op->number;
		return true;
	}
	return false;
}

/* Compile the rule libdw gives for one register. */
static struct rule compile_reg(Dwarf_Frame *fr, int regno)
{
	Dwarf_Op mem[3], *ops;
	size_t nops;
	struct rule r = { R_EXPR, 0, 0 };
	if (dwarf_frame_register(fr, regno, mem, &ops, &nops) != 0)
		return (struct rule){ R_UNDEF, 0, 0 };
	if (nops == 0)
		return (struct rule){ ops == mem ? R_UNDEF : R_SAME, 0, 0 };
	bool value = ops[nops - 1].atom == DW_OP_stack_value;
	size_t n = value ? nops - 1 : nops;
	if (n >= 1 && n <= 2 && ops[0].atom == DW_OP_call_frame_cfa &&
	    (n == 1 || ops[1].atom == DW_OP_plus_uconst)) {
		r.kind = value ? R_VAL_OFFSET : R_OFFSET;
		r.off = n == 2 ? (int64_t)ops[1].number : 0;
	} else if (n == 1 && value && breg(&ops[0], &r.reg, &r.off)) {
		r.kind = R_REG;
	} else if (nops == 1 && reg_loc(&ops[0], &r.reg)) {
		r.kind = R_REG;   /* e.g. __libc_vfork's return address in rdi */
	}
	return r;
}

static void add_saved(struct unw_rules *rs, unsigned i)
{
	int64_t off = rs->r[i].off;
	if (!rs->nsaved || off < rs->saved_lo)
		rs->saved_lo = off;
	if (!rs->nsaved || off > rs->saved_hi)
		rs->saved_hi = off;
	rs->saved_off[rs->nsaved] = off;
	rs->saved[rs->nsaved++] = (uint8_t)i;
	rs->saved_mask |= 1ULL << i;
}

/* Sort the registers by what a step does with them: copy (same), work
 * out (other), or nothing (undefined, and a pc-only ra column). */
static void index_rules(struct unw_rules *rs, const struct unw_arch_info *ai)
{
	for (unsigned i = 0; i < rs->nregs && i < UNW_NREGS && i < 64; i++) {
		uint8_t kind = rs->r[i].kind;
		if (kind == R_UNDEF || (kind == R_SAME && i == ai->ra && ai->ra_is_pc))
			continue;
		/* sp = CFA (x86_64's every row): what a step ends with anyway */
		if (i == ai->sp && kind == R_VAL_OFFSET && rs->r[i].off == 0)
			continue;
		if (kind == R_SAME)
			rs->same |= 1ULL << i;
		else if (kind == R_OFFSET)
			add_saved(rs, i);
		else
			rs->other[rs->nother++] = (uint8_t)i;
	}
}

struct unw_rules *unw_rules_compile(Dwarf_Frame *fr,
				    const struct unw_arch_info *ai)
{
	struct unw_rules *rs = xcalloc(1, sizeof(*rs) + ai->nregs * sizeof(struct rule));
	Dwarf_Op *ops;
	size_t nops;
	bool keep = false;
	Dwarf_Addr lo, hi;

	rs->nregs = ai->nregs;
	rs->ra = dwarf_frame_info(fr, &lo, &hi, &rs->signal);
	if (dwarf_frame_cfa(fr, &ops, &nops) != 0 || nops == 0)
		rs->cfa_expr = keep = true;   /* evaluated (and failing) later */
	else if (nops != 1 || !breg(&ops[0], &rs->cfa_reg, &rs->cfa_off))
		rs->cfa_expr = keep = true;
	for (unsigned i = 0; i < ai->nregs; i++) {
		rs->r[i] = compile_reg(fr, (int)i);
		/* an unmentioned callee-saved register keeps its value (as
		 * libunwind, perf's unwinder, takes every unmentioned one) */
		if (rs->r[i].kind == R_UNDEF && i < 64 && (ai->callee_saved >> i & 1))
			rs->r[i].kind = R_SAME;
		keep |= rs->r[i].kind == R_EXPR;
	}
	if (keep)
		rs->frame = fr;
	else
		free(fr);
	index_rules(rs, ai);
	return rs;
}

void unw_rules_free(struct unw_rules *rs)
{
	if (!rs)
		return;
	free(rs->frame);
	free(rs);
}

bool unw_rules_signal(const struct unw_rules *rs)
{
	return rs->signal;
}

static bool reg_get(const struct unw_regs *regs, unsigned n, uint64_t *v)
{
	if (n >= UNW_NREGS || !(regs->valid & (1ULL << n)))
		return false;
	*v = regs->r[n];
	return true;
}

/* The caller's value of regno by its expression. 1: *v set, 0: unknown. */
static int expr_reg(const struct unw_frame *f, Dwarf_Frame *fr, int regno,
		    uint64_t cfa, uint64_t *v)
{
	Dwarf_Op mem[3], *ops;
	size_t nops;
	bool is_value;
	if (dwarf_frame_register(fr, regno, mem, &ops, &nops) != 0 || nops == 0 ||
	    unw_expr_eval(f, ops, nops, true, cfa, v, &is_value) != 0)
		return 0;
	return is_value || unw_mem_read8(f, *v, v);
}

static int caller_reg(const struct unw_frame *f, const struct unw_rules *rs,
		      unsigned i, uint64_t cfa, uint64_t *v)
{
	const struct rule *r = &rs->r[i];
	switch (r->kind) {
	case R_SAME: /* a pc-only ra column (x86_64) has no caller value */
		if (i == f->ai->ra && f->ai->ra_is_pc)
			return 0;
		return reg_get(&f->regs, i, v);
	case R_OFFSET:
		return unw_mem_read8(f, cfa + (uint64_t)r->off, v);
	case R_VAL_OFFSET:
		*v = cfa + (uint64_t)r->off;
		return 1;
	case R_REG:
		if (!reg_get(&f->regs, r->reg, v))
			return 0;
		*v += (uint64_t)r->off;
		return 1;
	case R_EXPR:
		return expr_reg(f, rs->frame, (int)i, cfa, v);
	default:
		return 0;
	}
}

static bool cfa_value(const struct unw_frame *f, const struct unw_rules *rs,
		      uint64_t *cfa)
{
	Dwarf_Op *ops;
	size_t nops;
	bool is_value;
	if (!rs->cfa_expr) {
		if (!reg_get(&f->regs, rs->cfa_reg, cfa))
			return false;
		*cfa += (uint64_t)rs->cfa_off;
		return true;
	}
	return rs->frame && dwarf_frame_cfa(rs->frame, &ops, &nops) == 0 &&
	       nops > 0 &&
	       unw_expr_eval(f, ops, nops, false, 0, cfa, &is_value) == 0;
}

/* Where the copy holds all of [cfa + saved_lo, cfa + saved_hi + 8), as
 * a pointer to its first byte, or NULL when any of it is outside (or the
 * copy is big-endian: then each load goes through unw_mem_read8).
 * Modular like unw_mem_read8: lo <= hi rules out a range that wraps. */
static const unsigned char *saved_span(const struct unw_frame *f,
				       const struct unw_rules *rs, uint64_t cfa)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const struct unw_sample *s = f->smp;
	uint64_t lo = cfa + (uint64_t)rs->saved_lo, hi = cfa + (uint64_t)rs->saved_hi;
	uint64_t base = f->stack_base;
	if (!s->big_endian && lo >= base && hi >= lo && hi - base <= s->stack_size &&
	    s->stack_size - (hi - base) >= 8)
		return s->stack + (lo - base);
#else
	(void)f, (void)rs, (void)cfa;
#endif
	return NULL;
}

/* The registers saved on the stack (the bulk of most rows, about five
 * per x86_64 frame), in a loop of their own: when the copy holds them
 * all (nearly always) one bounds check covers the lot and each is a
 * plain load; otherwise each is read alone and may be missing. */
static void load_saved(const struct unw_frame *f, const struct unw_rules *rs,
		       uint64_t cfa, struct unw_regs *next)
{
	if (!rs->nsaved)
		return;
	const unsigned char *at = saved_span(f, rs, cfa);
	if (at) {
		for (unsigned k = 0; k < rs->nsaved; k++)
			__builtin_memcpy(&next->r[rs->saved[k]],
					 at + (rs->saved_off[k] - rs->saved_lo), 8);
		next->valid |= rs->saved_mask;
		return;
	}
	for (unsigned k = 0; k < rs->nsaved; k++) {
		uint64_t v;
		if (unw_mem_read8(f, cfa + (uint64_t)rs->saved_off[k], &v)) {
			next->r[rs->saved[k]] = v;
			next->valid |= 1ULL << rs->saved[k];
		}
	}
}

int unw_rules_step(const struct unw_frame *f, const struct unw_rules *rs,
		   struct unw_regs *next)
{
	const struct unw_arch_info *ai = f->ai;
	uint64_t cfa, v;

	if (!cfa_value(f, rs, &cfa))
		return UNW_STOP_BAD_REGS;
	/* as caller_reg for every register, but only where there is work */
	uint64_t live = ai->nregs >= 64 ? ~0ULL : (1ULL << ai->nregs) - 1;
	/* copying all is cheaper than picking the same ones: the valid mask
	 * says which values mean anything */
	unw_regs_copy(next->r, f->regs.r, ai->nregs);
	next->valid = rs->same & f->regs.valid & live;
	load_saved(f, rs, cfa, next);
	for (unsigned k = 0; k < rs->nother; k++) {
		unsigned i = rs->other[k];
		if (i < ai->nregs && caller_reg(f, rs, i, cfa, &v)) {
			next->r[i] = v;
			next->valid |= 1ULL << i;
		}
	}
	if (rs->ra < 0 || (unsigned)rs->ra >= ai->nregs)
		return UNW_STOP_END;
	if (!(next->valid & (1ULL << rs->ra)))
		return rs->r[rs->ra].kind == R_UNDEF || rs->r[rs->ra].kind == R_SAME
			       ? UNW_STOP_END : UNW_STOP_MEMORY;
	next->pc = next->r[rs->ra];
	next->has_pc = true;
	next->r[ai->sp] = cfa;
	next->valid |= 1ULL << ai->sp;
	return 0;
}
