/*
 * expr: evaluation of the DWARF expressions found in CFI, over a frame.
 * Stage: unwind. Covers what compilers put in .eh_frame/.debug_frame
 * (register + offset, constants, arithmetic, comparisons, branches,
 * dereference of the stack copy). Invariant: a fixed-size value stack
 * and a cap on executed operations, so any byte sequence terminates;
 * memory reads go through unw_mem_read only.
 */
#include "unwind/frame.h"

#include <dwarf.h>
#include <string.h>

#define EXPR_STACK 64
#define EXPR_MAX_STEPS 256

bool unw_mem_read(const struct unw_frame *f, uint64_t addr, unsigned size,
		  uint64_t *out)
{
	const struct unw_sample *s = f->smp;
	uint64_t off = addr - f->stack_base;

	if (addr < f->stack_base || off > s->stack_size ||
	    s->stack_size - off < size || size > 8)
		return false;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (size == 8 && !s->big_endian) { /* the common case: one load */
		memcpy(out, s->stack + off, 8);
		return true;
	}
#endif
	uint8_t b[8];
	memcpy(b, s->stack + off, size);
	uint64_t v = 0;
	for (unsigned i = 0; i < size; i++) {
		unsigned k = s->big_endian ? i : size - 1 - i;
		v = (v << 8) | b[k];
	}
	*out = v;
	return true;
}

static bool reg_value(const struct unw_frame *f, uint64_t regno, uint64_t *v)
{
	if (regno >= f->ai->nregs || !(f->regs.valid & (1ULL << regno)))
		return false;
	*v = f->regs.r[regno];
	return true;
}

struct expr_stack {
	uint64_t v[EXPR_STACK];
	size_t n;
};

static bool push(struct expr_stack *st, uint64_t v)
{
	if (st->n >= EXPR_STACK)
		return false;
	st->v[st->n++] = v;
	return true;
}

static bool pop(struct expr_stack *st, uint64_t *v)
{
	if (st->n == 0)
		return false;
	*v = st->v[--st->n];
	return true;
}

/* Binary operators: pops b then a, pushes a OP b. */
static bool binary(struct expr_stack *st, uint8_t atom)
{
	uint64_t a, b, r;
	if (!pop(st, &b) || !pop(st, &a))
		return false;
	switch (atom) {
	case DW_OP_plus: r = a + b; break;
	case DW_OP_minus: r = a - b; break;
	case DW_OP_mul: r = a * b; break;
	case DW_OP_and: r = a & b; break;
	case DW_OP_or: r = a | b; break;
	case DW_OP_xor: r = a ^ b; break;
	case DW_OP_shl: r = b >= 64 ? 0 : a << b; break;
	case DW_OP_shr: r = b >= 64 ? 0 : a >> b; break;
	case DW_OP_shra: r = (uint64_t)((int64_t)a >> (b >= 64 ? 63 : b)); break;
	case DW_OP_div:
		if (b == 0 || ((int64_t)a == INT64_MIN && (int64_t)b == -1))
			return false;
		r = (uint64_t)((int64_t)a / (int64_t)b);
		break;
	case DW_OP_mod:
		if (b == 0)
			return false;
		r = a % b;
		break;
	case DW_OP_eq: r = a == b; break;
	case DW_OP_ne: r = a != b; break;
	case DW_OP_lt: r = (int64_t)a < (int64_t)b; break;
	case DW_OP_le: r = (int64_t)a <= (int64_t)b; break;
	case DW_OP_gt: r = (int64_t)a > (int64_t)b; break;
	case DW_OP_ge: r = (int64_t)a >= (int64_t)b; break;
	default: return false;
	}
	return push(st, r);
}

/* Index of the op at byte offset target, or nops when there is none. */
static size_t op_at(const Dwarf_Op *ops, size_t nops, uint64_t target)
{
	for (size_t i = 0; i < nops; i++)
		if (ops[i].offset == target)
			return i;
	return nops;
}

/* Target of DW_OP_skip/bra: number is relative to the next op. */
static size_t jump(const Dwarf_Op *ops, size_t nops, size_t i)
{
	uint64_t next = ops[i].offset + 3; /* the op and its 2-byte operand */
	return op_at(ops, nops, next + (uint64_t)(int16_t)ops[i].number);
}

/* Stack-shuffling and unary ops; false when atom is not one of them or
 * the stack is too short. */
static bool stack_op(struct expr_stack *st, const Dwarf_Op *op)
{
	uint64_t a, b;
	switch (op->atom) {
	case DW_OP_dup:
		return st->n > 0 && push(st, st->v[st->n - 1]);
	case DW_OP_drop:
		return pop(st, &a);
	case DW_OP_over:
		return st->n > 1 && push(st, st->v[st->n - 2]);
	case DW_OP_pick:
		return op->number < st->n && push(st, st->v[st->n - 1 - op->number]);
	case DW_OP_swap:
		if (!pop(st, &a) || !pop(st, &b))
			return false;
		return push(st, a) && push(st, b);
	case DW_OP_rot:
		if (st->n < 3)
			return false;
		a = st->v[st->n - 1];
		st->v[st->n - 1] = st->v[st->n - 2];
		st->v[st->n - 2] = st->v[st->n - 3];
		st->v[st->n - 3] = a;
		return true;
	case DW_OP_neg:
		return pop(st, &a) && push(st, -a);
	case DW_OP_not:
		return pop(st, &a) && push(st, ~a);
	case DW_OP_abs:
		return pop(st, &a) && push(st, (int64_t)a < 0 ? -a : a);
	case DW_OP_plus_uconst:
		return pop(st, &a) && push(st, a + op->number);
	default:
		return false;
	}
}

/* Ops that push a value: literals, constants, registers. */
static int push_op(const struct unw_frame *f, struct expr_stack *st,
		   const Dwarf_Op *op, bool has_cfa, uint64_t cfa)
{
	uint8_t a = op->atom;
	uint64_t v;
	if (a >= DW_OP_lit0 && a <= DW_OP_lit31)
		return push(st, a - DW_OP_lit0) ? 1 : -1;
	if (a >= DW_OP_breg0 && a <= DW_OP_breg31) {
		if (!reg_value(f, a - DW_OP_breg0, &v))
			return -1;
		return push(st, v + op->number) ? 1 : -1;
	}
	switch (a) {
	case DW_OP_bregx:
		if (!reg_value(f, op->number, &v))
			return -1;
		return push(st, v + op->number2) ? 1 : -1;
	case DW_OP_const1u: case DW_OP_const1s: case DW_OP_const2u:
	case DW_OP_const2s: case DW_OP_const4u: case DW_OP_const4s:
	case DW_OP_const8u: case DW_OP_const8s: case DW_OP_constu:
	case DW_OP_consts: case DW_OP_addr:
		return push(st, op->number) ? 1 : -1;
	case DW_OP_call_frame_cfa:
		return has_cfa && push(st, cfa) ? 1 : -1;
	default:
		return 0;
	}
}

static bool deref(const struct unw_frame *f, struct expr_stack *st,
		  unsigned size)
{
	uint64_t addr, v;
	if (size == 0 || size > 8 || !pop(st, &addr))
		return false;
	return unw_mem_read(f, addr, size, &v) && push(st, v);
}

/* One op at ops[*i]; advances *i. Returns 0, 1 for stack_value, -1. */
static int step_op(const struct unw_frame *f, struct expr_stack *st,
		   const Dwarf_Op *ops, size_t nops, size_t *i, bool has_cfa,
		   uint64_t cfa)
{
	const Dwarf_Op *op = &ops[*i];
	uint64_t v;
	int r = push_op(f, st, op, has_cfa, cfa);
	if (r != 0) {
		(*i)++;
		return r > 0 ? 0 : -1;
	}
	switch (op->atom) {
	case DW_OP_nop:
		break;
	case DW_OP_deref:
		if (!deref(f, st, 8))
			return -1;
		break;
	case DW_OP_deref_size:
		if (!deref(f, st, (unsigned)op->number))
			return -1;
		break;
	case DW_OP_skip:
		*i = jump(ops, nops, *i);
		return 0;
	case DW_OP_bra:
		if (!pop(st, &v))
			return -1;
		*i = v ? jump(ops, nops, *i) : *i + 1;
		return 0;
	case DW_OP_stack_value:
		(*i)++;
		return 1;
	default:
		if (!stack_op(st, op) && !binary(st, op->atom))
			return -1;
	}
	(*i)++;
	return 0;
}

int unw_expr_eval(const struct unw_frame *f, const Dwarf_Op *ops, size_t nops,
		  bool has_cfa, uint64_t cfa, uint64_t *result, bool *is_value)
{
	struct expr_stack st = { .n = 0 };
	size_t i = 0, steps = 0;

	*is_value = !has_cfa; /* a CFA expression yields a value */
	while (i < nops) {
		if (++steps > EXPR_MAX_STEPS)
			return -1;
		int r = step_op(f, &st, ops, nops, &i, has_cfa, cfa);
		if (r < 0)
			return -1;
		if (r == 1) {
			*is_value = true;
			break;
		}
	}
	return pop(&st, result) ? 0 : -1;
}
