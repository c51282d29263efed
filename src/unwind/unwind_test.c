/* Unit tests for unwind/: register maps (x86_64, aarch64), the DWARF
 * expression evaluator, and a live unwind of this very process compared
 * with glibc's backtrace(). */
#include "unwind/dwarf.h"
#include "unwind/frame.h"
#include "unwind/regs.h"
#include "unit.h"

#include <dwarf.h>
#include <execinfo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

UNIT_TEST(unwind_arch_names)
{
	CHECK(unw_arch_from_name("x86_64") == UNW_ARCH_X86_64);
	CHECK(unw_arch_from_name("aarch64") == UNW_ARCH_AARCH64);
	CHECK(unw_arch_from_name("arm64") == UNW_ARCH_AARCH64);
	CHECK(unw_arch_from_name("s390x") == UNW_ARCH_UNKNOWN);
	CHECK(unw_arch_from_name(NULL) == UNW_ARCH_UNKNOWN);
}

UNIT_TEST(unwind_regs_x86_64)
{
	uint64_t mask = unw_perf_dwarf_mask(UNW_ARCH_X86_64);
	uint64_t vals[20];
	struct unw_regs r;
	for (int i = 0; i < 20; i++)
		vals[i] = 100 + i; /* value = 100 + position in the block */
	CHECK(mask == 0xff0fff);
	CHECK(unw_regs_from_perf(UNW_ARCH_X86_64, mask, vals, 20, &r) == 0);
	/* block order: AX BX CX DX SI DI BP SP IP FLAGS CS SS R8..R15 */
	CHECK(r.r[0] == 100 && r.r[3] == 101 && r.r[2] == 102 && r.r[1] == 103);
	CHECK(r.r[6] == 106 && r.r[7] == 107 && r.pc == 108 && r.has_pc);
	CHECK(r.r[8] == 112 && r.r[15] == 119);
	CHECK(r.valid == 0xffff);
	CHECK(unw_regs_from_perf(UNW_ARCH_X86_64, mask, vals, 19, &r) < 0);
	CHECK(unw_regs_from_perf(UNW_ARCH_X86_64, 0x3f, vals, 6, &r) < 0);
}

/* One compiled map serves many samples; a sample with fewer values than
 * its mask says, or a map without pc or sp, is refused each time. */
UNIT_TEST(unwind_regs_map_reuse)
{
	struct unw_regs_map m;
	struct unw_regs r;
	uint64_t a[20], b[20];
	for (int i = 0; i < 20; i++) {
		a[i] = 100 + i;
		b[i] = 200 + i;
	}
	unw_regs_map_init(&m, UNW_ARCH_X86_64, unw_perf_dwarf_mask(UNW_ARCH_X86_64));
	CHECK(m.ok && m.nvals == 20 && m.pc_idx == 8 && m.valid == 0xffff);
	CHECK(unw_regs_map_apply(&m, a, 20, &r) == 0 && r.r[3] == 101 && r.pc == 108);
	CHECK(unw_regs_map_apply(&m, b, 20, &r) == 0 && r.r[3] == 201 && r.pc == 208 &&
	      r.r[15] == 219 && r.valid == 0xffff && r.has_pc);
	CHECK(unw_regs_map_apply(&m, b, 19, &r) < 0 && !r.has_pc && r.valid == 0);
	unw_regs_map_init(&m, UNW_ARCH_X86_64, 0xff); /* no ip: can't unwind */
	CHECK(!m.ok && unw_regs_map_apply(&m, a, 20, &r) < 0);
	unw_regs_map_init(&m, UNW_ARCH_UNKNOWN, 0xff0fff);
	CHECK(!m.ok && unw_regs_map_apply(&m, a, 20, &r) < 0);
}

UNIT_TEST(unwind_regs_aarch64)
{
	const struct unw_arch_info *ai = unw_arch_info(UNW_ARCH_AARCH64);
	uint64_t mask = unw_perf_dwarf_mask(UNW_ARCH_AARCH64);
	uint64_t vals[33];
	struct unw_regs r;
	bool is_pc;
	for (int i = 0; i < 33; i++)
		vals[i] = 0x1000 + i;
	CHECK(mask == 0x1ffffffffULL);
	CHECK(ai && ai->sp == 31 && ai->fp == 29 && ai->ra == 30 && ai->nregs == 32);
	CHECK(unw_regs_from_perf(UNW_ARCH_AARCH64, mask, vals, 33, &r) == 0);
	CHECK(r.r[0] == 0x1000 && r.r[29] == 0x101d && r.r[30] == 0x101e);
	CHECK(r.r[31] == 0x101f && r.pc == 0x1020 && r.valid == 0xffffffffULL);
	CHECK(unw_perf_to_dwarf(UNW_ARCH_AARCH64, 32, &is_pc) == -1 && is_pc);
	CHECK(unw_perf_to_dwarf(UNW_ARCH_AARCH64, 30, &is_pc) == 30 && !is_pc);
	CHECK(unw_perf_to_dwarf(UNW_ARCH_AARCH64, 40, &is_pc) == -1);
	/* only sp, lr, pc sampled (bits 30..32) */
	uint64_t three[3] = { 0x400500, 0x7ff0, 0x400123 };
	CHECK(unw_regs_from_perf(UNW_ARCH_AARCH64, 7ULL << 30, three, 3, &r) == 0);
	CHECK(r.r[30] == 0x400500 && r.r[31] == 0x7ff0 && r.pc == 0x400123);
}

/* A frame whose stack copy holds words 0..15 at 0x1000.. (value 0x100+i). */
static void fake_frame(struct unw_frame *f, struct unw_sample *s, uint8_t *mem)
{
	memset(f, 0, sizeof(*f));
	memset(s, 0, sizeof(*s));
	for (int i = 0; i < 16; i++) {
		uint64_t v = 0x100 + i;
		memcpy(mem + 8 * i, &v, 8);
	}
	s->stack = mem;
	s->stack_size = 128;
	s->arch = UNW_ARCH_X86_64;
	f->smp = s;
	f->ai = unw_arch_info(UNW_ARCH_X86_64);
	f->stack_base = 0x1000;
	f->regs.r[7] = 0x1000;
	f->regs.r[6] = 0x1010;
	f->regs.valid = (1 << 7) | (1 << 6);
}

UNIT_TEST(unwind_expr_eval)
{
	struct unw_frame f;
	struct unw_sample s;
	uint8_t mem[128];
	uint64_t v;
	bool val;
	fake_frame(&f, &s, mem);
	Dwarf_Op breg[] = { { DW_OP_breg7, 8, 0, 0 } };
	CHECK(unw_expr_eval(&f, breg, 1, false, 0, &v, &val) == 0 && v == 0x1008 && val);
	Dwarf_Op loc[] = { { DW_OP_call_frame_cfa, 0, 0, 0 }, { DW_OP_plus_uconst, 16, 0, 1 } };
	CHECK(unw_expr_eval(&f, loc, 2, true, 0x1000, &v, &val) == 0 && v == 0x1010 && !val);
	Dwarf_Op der[] = { { DW_OP_breg6, 8, 0, 0 }, { DW_OP_deref, 0, 0, 2 } };
	CHECK(unw_expr_eval(&f, der, 2, false, 0, &v, &val) == 0 && v == 0x103);
	Dwarf_Op out[] = { { DW_OP_breg6, 4096, 0, 0 }, { DW_OP_deref, 0, 0, 2 } };
	CHECK(unw_expr_eval(&f, out, 2, false, 0, &v, &val) < 0);
	/* the PLT rule: rsp + 8 + ((rip & 15) >= 11) * 8, with rip in r16 */
	f.regs.r[16] = 0x40102c;
	f.regs.valid |= 1 << 16;
	Dwarf_Op plt[] = {
		{ DW_OP_breg7, 8, 0, 0 }, { DW_OP_breg16, 0, 0, 2 },
		{ DW_OP_lit15, 0, 0, 4 }, { DW_OP_and, 0, 0, 5 },
		{ DW_OP_lit11, 0, 0, 6 }, { DW_OP_ge, 0, 0, 7 },
		{ DW_OP_lit3, 0, 0, 8 }, { DW_OP_shl, 0, 0, 9 },
		{ DW_OP_plus, 0, 0, 10 },
	};
	CHECK(unw_expr_eval(&f, plt, 9, false, 0, &v, &val) == 0 && v == 0x1010);
	/* a backwards skip to itself must stop at the step cap */
	Dwarf_Op loop[] = { { DW_OP_skip, (Dwarf_Word)-3, 0, 0 } };
	CHECK(unw_expr_eval(&f, loop, 1, false, 0, &v, &val) < 0);
	Dwarf_Op under[] = { { DW_OP_plus, 0, 0, 0 } };
	CHECK(unw_expr_eval(&f, under, 1, false, 0, &v, &val) < 0);
	Dwarf_Op div0[] = { { DW_OP_lit1, 0, 0, 0 }, { DW_OP_lit0, 0, 0, 1 }, { DW_OP_div, 0, 0, 2 } };
	CHECK(unw_expr_eval(&f, div0, 3, false, 0, &v, &val) < 0);
	s.big_endian = true;
	CHECK(unw_mem_read(&f, 0x1000, 8, &v) && v == 0x0001000000000000ULL);
	CHECK(!unw_mem_read(&f, 0x1000 + 124, 8, &v) && !unw_mem_read(&f, 0xfff, 1, &v));
}

#if defined(__x86_64__)
/* ---- live unwind of this process ---- */

struct live_map {
	uint64_t start, end, pgoff;
	char path[256];
};

struct live {
	struct live_map maps[256];
	size_t n;
	uint64_t stack_end;
};

static void live_maps(struct live *l)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	l->n = 0;
	while (f && fgets(line, sizeof(line), f) && l->n < 256) {
		struct live_map *m = &l->maps[l->n];
		char perm[8];
		m->path[0] = 0;
		if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %255s", &m->start, &m->end,
			   perm, &m->pgoff, m->path) < 4)
			continue;
		if (strstr(line, "[stack]"))
			l->stack_end = m->end;
		if (perm[2] == 'x' && m->path[0] == '/')
			l->n++;
	}
	if (f)
		fclose(f);
}

static int live_find(void *ctx, uint64_t addr, struct unw_module *m)
{
	struct live *l = ctx;
	for (size_t i = 0; i < l->n; i++) {
		if (addr >= l->maps[i].start && addr < l->maps[i].end) {
			m->path = l->maps[i].path;
			m->debug_path = NULL;
			m->start = l->maps[i].start;
			m->end = l->maps[i].end;
			m->pgoff = l->maps[i].pgoff;
			return 0;
		}
	}
	return -1;
}

struct snap {
	uint64_t regs[17];   /* by DWARF number; [16] = pc */
	uint8_t *stack;
	size_t size;
	void *bt[64];
	int nbt;
};

__attribute__((no_sanitize_address, noinline))
static void copy_stack(uint8_t *dst, const volatile uint8_t *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] = src[i];
}

__attribute__((noinline)) static void live_capture(struct snap *s, uint64_t stack_end)
{
	uint64_t *r = s->regs;
	__asm__ volatile(
		"movq %%rbx, 24(%0)\n\t"
		"movq %%rbp, 48(%0)\n\t"
		"movq %%rsp, 56(%0)\n\t"
		"movq %%r12, 96(%0)\n\t"
		"movq %%r13, 104(%0)\n\t"
		"movq %%r14, 112(%0)\n\t"
		"movq %%r15, 120(%0)\n\t"
		"leaq 0(%%rip), %%rax\n\t"
		"movq %%rax, 128(%0)\n\t"
		: : "r"(r) : "rax", "memory");
	s->size = stack_end - r[7];
	if (s->size > 65536)
		s->size = 65536;
	s->stack = malloc(s->size);
	copy_stack(s->stack, (const uint8_t *)(uintptr_t)r[7], s->size);
	s->nbt = backtrace(s->bt, 64);
}

/* The sample a snapshot stands for: the callee-saved registers, sp, pc. */
static void snap_sample(const struct snap *s, struct unw_sample *smp)
{
	memset(smp, 0, sizeof(*smp));
	smp->arch = UNW_ARCH_X86_64;
	for (int i = 0; i < 16; i++)
		smp->regs.r[i] = s->regs[i];
	smp->regs.valid = (1 << 3) | (1 << 6) | (1 << 7) | (0xf << 12);
	smp->regs.pc = s->regs[16];
	smp->regs.has_pc = true;
	smp->stack = s->stack;
	smp->stack_size = s->size;
}

__attribute__((noinline)) static int live_c(struct snap *s, uint64_t e) { live_capture(s, e); __asm__ volatile("" ::: "memory"); return 1; }
__attribute__((noinline)) static int live_b(struct snap *s, uint64_t e) { return live_c(s, e) + 1; }
__attribute__((noinline)) static int live_a(struct snap *s, uint64_t e) { return live_b(s, e) + 1; }

UNIT_TEST(unwind_live_matches_backtrace)
{
	static struct live l;
	struct snap s;
	memset(&s, 0, sizeof(s));
	live_maps(&l);
	CHECK(l.n > 0 && l.stack_end != 0);
	live_a(&s, l.stack_end);

	struct unw_sample smp;
	snap_sample(&s, &smp);

	struct unw_session *u = unw_session_new();
	uint64_t ips[64];
	struct unw_result res;
	size_t n = unw_dwarf_unwind(u, &smp, live_find, &l, ips, 64, &res);
	/* bt[] starts inside live_capture (or an interceptor under ASan);
	 * from the entry matching our frame 1 on, both list the same
	 * callers: our ips are their return addresses minus one. */
	int o = 0;
	while (o < s.nbt && n > 1 && (uint64_t)(uintptr_t)s.bt[o] != ips[1] + 1)
		o++;
	bool same = n >= 5 && s.nbt - o >= 4;
	size_t k;
	for (k = 1; same && k < n && (int)k - 1 + o < s.nbt; k++)
		same = ips[k] + 1 == (uint64_t)(uintptr_t)s.bt[k - 1 + o];
	CHECK(same);
	CHECK(k >= 5);
	CHECK(res.fp_from == n);
	/* a second run is served from the memo */
	unw_dwarf_unwind(u, &smp, live_find, &l, ips, 64, &res);
	CHECK(unw_session_stats(u)->memo_hits >= n - 1);
	/* depth cap */
	CHECK(unw_dwarf_unwind(u, &smp, live_find, &l, ips, 3, &res) == 3 &&
	      res.stop == UNW_STOP_DEPTH);
	/* a truncated stack copy stops early, with a reason */
	smp.stack_size = 16;
	n = unw_dwarf_unwind(u, &smp, live_find, &l, ips, 64, &res);
	CHECK(n >= 1 && n < 5 && res.stop != UNW_STOP_END);
	unw_session_free(u);
	free(s.stack);
}

/* ---- through a signal frame: the handler captures, the unwinder must
 * cross glibc's __restore_rt (CFA and registers are DWARF expressions
 * reading the ucontext on the stack) back into the interrupted code ---- */

static struct snap sig_snap;
static uint64_t sig_stack_end;

static void on_signal(int sig)
{
	(void)sig;
	live_capture(&sig_snap, sig_stack_end);
}

__attribute__((noinline)) static int sig_raiser(void)
{
	raise(SIGUSR1);
	__asm__ volatile("" ::: "memory");
	return 1;
}

UNIT_TEST(unwind_live_signal_frame)
{
	static struct live l;
	live_maps(&l);
	sig_stack_end = l.stack_end;
	memset(&sig_snap, 0, sizeof(sig_snap));
	struct sigaction sa, old;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGUSR1, &sa, &old);
	sig_raiser();
	sigaction(SIGUSR1, &old, NULL);
	CHECK(sig_snap.stack != NULL);
	if (!sig_snap.stack)
		return;
	struct unw_sample smp;
	snap_sample(&sig_snap, &smp);
	struct unw_session *u = unw_session_new();
	uint64_t ips[64];
	struct unw_result res;
	size_t n = unw_dwarf_unwind(u, &smp, live_find, &l, ips, 64, &res);
	/* sig_raiser's frame must be reached: some ip lies inside it */
	bool found = false;
	uint64_t lo = (uint64_t)(uintptr_t)sig_raiser;
	for (size_t k = 0; k < n; k++)
		found |= ips[k] >= lo && ips[k] < lo + 64;
	CHECK(found);
	CHECK(res.stop == UNW_STOP_END);
	unw_session_free(u);
	free(sig_snap.stack);
}

/* ---- a return address held in a register: like glibc's __libc_vfork,
 * which pops it into rdi around the syscall (CFI: DW_CFA_register rip,
 * rdi; CFA = rsp). The step to the caller keeps sp and takes the pc
 * from rdi; the loop guard must let it through. ---- */

void scorch_test_ra_in_rdi(struct snap *s);
__asm__(
	".text\n"
	".globl scorch_test_ra_in_rdi\n"
	".type scorch_test_ra_in_rdi, @function\n"
	"scorch_test_ra_in_rdi:\n"
	".cfi_startproc\n"
	"	movq %rdi, %rsi\n"
	"	popq %rdi\n"
	".cfi_adjust_cfa_offset -8\n"
	".cfi_register rip, rdi\n"
	"	movq %rbx, 24(%rsi)\n"
	"	movq %rdi, 40(%rsi)\n"
	"	movq %rbp, 48(%rsi)\n"
	"	movq %rsp, 56(%rsi)\n"
	"	movq %r12, 96(%rsi)\n"
	"	movq %r13, 104(%rsi)\n"
	"	movq %r14, 112(%rsi)\n"
	"	movq %r15, 120(%rsi)\n"
	"	leaq 0(%rip), %rax\n"
	"	movq %rax, 128(%rsi)\n"
	"	pushq %rdi\n"
	".cfi_adjust_cfa_offset 8\n"
	".cfi_offset rip, -8\n"
	"	ret\n"
	".cfi_endproc\n"
	".size scorch_test_ra_in_rdi, .-scorch_test_ra_in_rdi\n");

__attribute__((noinline)) static int ra_caller(struct snap *s, uint64_t end)
{
	scorch_test_ra_in_rdi(s);
	/* [sp, end) is this frame and its callers': still intact */
	s->size = end - s->regs[7] < 65536 ? end - s->regs[7] : 65536;
	s->stack = malloc(s->size);
	copy_stack(s->stack, (const uint8_t *)(uintptr_t)s->regs[7], s->size);
	__asm__ volatile("" ::: "memory");
	return 1;
}

UNIT_TEST(unwind_return_address_in_register)
{
	static struct live l;
	struct snap s;
	memset(&s, 0, sizeof(s));
	live_maps(&l);
	ra_caller(&s, l.stack_end);
	struct unw_sample smp;
	snap_sample(&s, &smp);
	smp.regs.valid |= 1 << 5;   /* rdi, as perf samples it */
	struct unw_session *u = unw_session_new();
	uint64_t ips[64];
	struct unw_result res;
	size_t n = unw_dwarf_unwind(u, &smp, live_find, &l, ips, 64, &res);
	uint64_t lo = (uint64_t)(uintptr_t)ra_caller;
	CHECK(n >= 3 && ips[1] + 1 == s.regs[5]);   /* the caller, from rdi */
	CHECK(n >= 3 && ips[1] >= lo && ips[1] < lo + 256);
	CHECK(n >= 4 && res.stop == UNW_STOP_END);  /* on to the outermost */
	unw_session_free(u);
	free(s.stack);
}

UNIT_TEST(unwind_memo_grows_and_restarts)
{
	static struct live l;
	live_maps(&l);
	const struct live_map *text = NULL;
	char exe[256];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[len > 0 ? len : 0] = 0;
	for (size_t i = 0; i < l.n && !text; i++)
		if (!strcmp(l.maps[i].path, exe))
			text = &l.maps[i];
	CHECK(text != NULL);
	if (!text)
		return;
	uint8_t stack[256] = { 0 };
	struct unw_sample smp;
	memset(&smp, 0, sizeof(smp));
	smp.arch = UNW_ARCH_X86_64;
	smp.regs.has_pc = true;
	smp.regs.r[7] = 0x10000;
	smp.regs.valid = 1 << 7;
	smp.stack = stack;
	smp.stack_size = sizeof(stack);
	struct unw_session *u = unw_session_new();
	uint64_t ips[8];
	struct unw_result res;
	bool ok = true;
	uint64_t span = text->end - text->start, pcs = 20000;
	for (uint64_t i = 0; i < pcs; i++) {
		smp.regs.pc = text->start + i % span;
		ok &= unw_dwarf_unwind(u, &smp, live_find, &l, ips, 8, &res) >= 1;
	}
	CHECK(ok);
	/* more distinct addresses than a memo holds: it grew, then restarted */
	CHECK(unw_session_stats(u)->memo_misses >= (span < pcs ? span : pcs));
	unw_session_free(u);
}
#endif

/* ---- aarch64 through the whole unwinder: no CFI covers the pcs (they
 * point into an ELF header), so frame records {x29, x30} are walked ---- */

static char self_path[4096];

static int header_find(void *ctx, uint64_t addr, struct unw_module *m)
{
	/* this test binary "mapped" at 0x400000: offset 0 is its ELF header */
	if (addr < 0x400000 || addr >= 0x400040)
		return -1;
	m->path = self_path;
	m->debug_path = NULL;
	m->start = 0x400000;
	m->end = 0x401000;
	m->pgoff = 0;
	return 0;
}

UNIT_TEST(unwind_aarch64_frame_records)
{
	ssize_t len = readlink("/proc/self/exe", self_path, sizeof(self_path) - 1);
	CHECK(len > 0);
	self_path[len > 0 ? len : 0] = 0;
	/* stack at 0x7000: frame records at 0x7010 -> 0x7030 -> 0 */
	uint64_t words[8] = { 0, 0, 0x7030, 0x400018, 0, 0, 0, 0x400028 };
	uint8_t stack[64];
	memcpy(stack, words, sizeof(words));
	uint64_t vals[33] = { 0 };
	vals[29] = 0x7010;           /* x29 */
	vals[30] = 0x400008;         /* x30 (lr) */
	vals[31] = 0x7000;           /* sp */
	vals[32] = 0x400004;         /* pc */
	struct unw_sample smp;
	memset(&smp, 0, sizeof(smp));
	smp.arch = UNW_ARCH_AARCH64;
	CHECK(unw_regs_from_perf(UNW_ARCH_AARCH64, unw_perf_dwarf_mask(UNW_ARCH_AARCH64),
				 vals, 33, &smp.regs) == 0);
	smp.stack = stack;
	smp.stack_size = sizeof(stack);
	struct unw_session *u = unw_session_new();
	uint64_t ips[16];
	struct unw_result res;
	size_t n = unw_dwarf_unwind(u, &smp, header_find, NULL, ips, 16, &res);
	/* pc, then the return addresses of the two records (minus one); the
	 * third record's fp (0) is below sp, which ends the walk */
	CHECK(n == 3 && ips[0] == 0x400004 && ips[1] == 0x400017 && ips[2] == 0x400027);
	CHECK(res.fp_from == 1 && res.stop == UNW_STOP_NO_CFI);
	/* the same bytes as a big-endian recorder wrote them */
	uint8_t be[64];
	for (int i = 0; i < 8; i++)
		for (int b = 0; b < 8; b++)
			be[8 * i + b] = (uint8_t)(words[i] >> (56 - 8 * b));
	smp.stack = be;
	smp.big_endian = true;
	n = unw_dwarf_unwind(u, &smp, header_find, NULL, ips, 16, &res);
	CHECK(n == 3 && ips[2] == 0x400027);
	/* a record pointing to itself: sp must move up, so it stops */
	uint64_t loop[8] = { 0, 0, 0x7010, 0x400018, 0, 0, 0, 0 };
	memcpy(stack, loop, sizeof(loop));
	smp.stack = stack;
	smp.big_endian = false;
	n = unw_dwarf_unwind(u, &smp, header_find, NULL, ips, 16, &res);
	CHECK(n <= 3 && res.stop != UNW_STOP_DEPTH);
	unw_session_free(u);
}
