/* Unit tests for unwind/sample: the call chain of a DWARF sample (kernel
 * part kept, user part replaced by the unwound frames), samples without a
 * stack copy untouched, and the single summary warning. */
#include "unwind/sample.h"
#include "unit.h"

#include <string.h>

UNIT_TEST(unwind_sample_callchain)
{
	struct sym_config cfg;
	struct sym_dsos dsos;
	struct proc_machine m;
	memset(&cfg, 0, sizeof(cfg));
	cfg.no_proc_kallsyms = true;
	sym_dsos_init(&dsos, &cfg);
	proc_machine_init(&m, &dsos);
	struct unw_perf up;
	unw_perf_init(&up, &m, "x86_64", false);

	uint64_t chain[] = { PD_CONTEXT_KERNEL, 0xffffffff81000010ULL,
			     0xffffffff81000020ULL };
	uint64_t regs[20] = { 0 };
	regs[7] = 0x7000;   /* sp (block position 7) */
	regs[8] = 0x1234;   /* ip */
	uint8_t stack[64] = { 0 };
	struct pd_sample s;
	memset(&s, 0, sizeof(s));
	s.sample_type = PD_SAMPLE_CALLCHAIN;
	s.pid = s.tid = 42;
	s.nr_callchain = 3;
	s.callchain = chain;
	s.regs_user.abi = 2;
	s.regs_user.mask = unw_perf_dwarf_mask(UNW_ARCH_X86_64);
	s.regs_user.regs = regs;
	s.regs_user.nr = 20;
	s.stack = stack;
	s.stack_size = s.stack_dyn_size = sizeof(stack);

	uint64_t out[16];
	size_t n = unw_perf_callchain(&up, &s, out, 16);
	/* nothing is mapped: the kernel part, the marker and the sampled pc */
	CHECK(n == 5 && out[0] == PD_CONTEXT_KERNEL && out[2] == 0xffffffff81000020ULL &&
	      out[3] == PD_CONTEXT_USER && out[4] == 0x1234);
	CHECK(unw_perf_has_stack(&s));
	/* the output never passes max */
	CHECK(unw_perf_callchain(&up, &s, out, 4) <= 4);

	/* no stack copy: the callchain as recorded */
	s.stack = NULL;
	s.stack_dyn_size = 0;
	CHECK(!unw_perf_has_stack(&s));
	n = unw_perf_callchain(&up, &s, out, 16);
	CHECK(n == 3 && out[1] == 0xffffffff81000010ULL);

	struct strbuf sb = SB_INIT;
	CHECK(unw_perf_summary(&up, &sb) && strstr(sb.buf, "no module"));
	sb_release(&sb);
	unw_perf_release(&up);
	proc_machine_release(&m);
	sym_dsos_release(&dsos);
}
