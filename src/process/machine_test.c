/* Unit tests for process/machine: maps, fork, exec, kernel map. */
#include "process/machine.h"
#include "unit.h"

#include <string.h>

static const char *dso_at(struct proc_machine *m, uint32_t tid, bool k, uint64_t a)
{
	const struct proc_map *mp = proc_thread_find_map(m, proc_machine_find_thread(m, tid), k, a);
	return mp ? mp->dso->name : "-";
}

UNIT_TEST(machine_maps_fork_exec)
{
	struct sym_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	struct sym_dsos d;
	sym_dsos_init(&d, &cfg);
	struct proc_machine m;
	proc_machine_init(&m, &d);
	proc_machine_comm(&m, 10, 10, "sh", false);
	proc_machine_mmap(&m, 10, false, 0x1000, 0x3000, 0, "/bin/sh", true, NULL, 0);
	proc_machine_mmap(&m, 10, false, 0x2000, 0x1000, 0, "/lib/x.so", true, NULL, 0);
	CHECK_EQ_STR(dso_at(&m, 10, false, 0x1800), "/bin/sh");
	CHECK_EQ_STR(dso_at(&m, 10, false, 0x2800), "/lib/x.so");  /* punched */
	CHECK_EQ_STR(dso_at(&m, 10, false, 0x3800), "/bin/sh");
	const struct proc_map *tail = proc_thread_find_map(&m, proc_machine_find_thread(&m, 10), false, 0x3800);
	CHECK(tail && tail->pgoff == 0x2000 && proc_map_addr(tail, 0x3800) == 0x2800);
	/* a new process copies, a new thread shares */
	proc_machine_fork(&m, 11, 10, 11, 10);
	proc_machine_fork(&m, 10, 10, 12, 10);
	CHECK_EQ_STR(proc_machine_find_thread(&m, 11)->comm, "sh");
	proc_machine_mmap(&m, 10, false, 0x8000, 0x1000, 0, "/lib/late.so", true, NULL, 0);
	CHECK_EQ_STR(dso_at(&m, 12, false, 0x8000), "/lib/late.so");
	CHECK_EQ_STR(dso_at(&m, 11, false, 0x8000), "-");
	/* exec: the comm changes, old maps stay until replaced (as perf) */
	proc_machine_comm(&m, 11, 11, "sleep", true);
	proc_machine_mmap(&m, 11, false, 0x1000, 0x1000, 0, "/bin/sleep", true, NULL, 0);
	CHECK_EQ_STR(dso_at(&m, 11, false, 0x1000), "/bin/sleep");
	CHECK_EQ_STR(dso_at(&m, 11, false, 0x2000), "/lib/x.so");
	/* anonymous executable memory is the JIT map, addresses as is */
	proc_machine_mmap(&m, 10, false, 0x7f000000, 0x1000, 0, "//anon", true, NULL, 0);
	const struct proc_map *jit = proc_thread_find_map(&m, proc_machine_find_thread(&m, 10), false, 0x7f000010);
	CHECK(jit && strcmp(jit->dso->name, "/tmp/perf-10.map") == 0 && proc_map_addr(jit, 0x7f000010) == 0x7f000010);
	/* kernel: the map reaches past _etext; unknown threads get ":TID" */
	proc_machine_mmap(&m, (uint32_t)-1, true, 0xffffffff81000000, 0x1000000, 0xffffffff81000000,
			  "[kernel.kallsyms]_text", true, NULL, 0);
	CHECK_EQ_STR(dso_at(&m, 10, true, 0xffffffff83000000), "[kernel.kallsyms]");
	proc_machine_mmap(&m, (uint32_t)-1, true, 0xffffffffc0000000, 0x10000, 0,
			  "/lib/modules/6.1.0/kernel/fs/nfs-common.ko.xz", true, NULL, 0);
	CHECK_EQ_STR(dso_at(&m, 10, true, 0xffffffffc0000100), "[nfs_common]");
	CHECK_EQ_STR(dso_at(&m, 10, true, 0xffffffffbfffffff), "[kernel.kallsyms]");
	CHECK_EQ_STR(proc_machine_findnew_thread(&m, 99, 99)->comm, ":99");
	CHECK_EQ_STR(proc_machine_find_thread(&m, 0)->comm, "swapper");
	proc_machine_release(&m);
	sym_dsos_release(&d);
}

/* What perf's machine tells the sched analyses: the forking tid, FORKs of
 * a tid, COMM records a thread made since, EXIT; a child of a parent
 * never named keeps its own ":tid". */
UNIT_TEST(machine_fork_exit_counts)
{
	struct sym_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	struct sym_dsos d;
	sym_dsos_init(&d, &cfg);
	struct proc_machine m;
	proc_machine_init(&m, &d);
	proc_machine_findnew_thread(&m, 20, 20);           /* seen in a sample: ":20" */
	proc_machine_fork(&m, 21, 20, 21, 20);
	struct proc_thread *c = proc_machine_find_thread(&m, 21);
	CHECK_EQ_STR(c->comm, ":21");
	CHECK(!c->comm_set && c->ptid == 20 && c->nfork == 1 && !c->exited);
	CHECK(proc_machine_find_thread(&m, 20)->ptid == -1);
	proc_machine_comm(&m, 21, 21, "ls", true);
	proc_machine_comm_made(&m, 21);
	proc_machine_comm_made(&m, 99);                     /* unknown: nothing */
	CHECK(c->ncomm_made == 1 && proc_machine_find_thread(&m, 99) == NULL);
	proc_machine_exit(&m, 21, 21, 0);
	CHECK(c->exited);
	/* the tid forked anew: a new thread for perf */
	proc_machine_comm(&m, 20, 20, "sh", false);
	proc_machine_fork(&m, 21, 20, 21, 20);
	CHECK(c->nfork == 2 && c->ncomm_made == 0 && !c->exited);
	CHECK_EQ_STR(c->comm, "sh");
	proc_machine_release(&m);
	sym_dsos_release(&d);
}

/* Stamps name maps contents; an exited process's maps go
 * PROC_EXIT_KEEP_NS after its last thread's EXIT, not before, and not
 * while a thread of it lives. */
UNIT_TEST(machine_stamps_and_exit)
{
	struct sym_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	struct sym_dsos d;
	sym_dsos_init(&d, &cfg);
	struct proc_machine m;
	proc_machine_init(&m, &d);
	const uint64_t s = 1000000000ull, keep = PROC_EXIT_KEEP_NS;
	proc_machine_mmap(&m, 10, false, 0x1000, 0x1000, 0, "/bin/sh", true, NULL, 0);
	struct proc_thread *p = proc_machine_find_thread(&m, 10);
	uint64_t st = proc_thread_stamp(&m, p, false);
	proc_machine_fork(&m, 11, 10, 11, 10);    /* shared: same contents */
	struct proc_thread *c = proc_machine_find_thread(&m, 11);
	CHECK(proc_thread_stamp(&m, c, false) == st);
	proc_machine_comm(&m, 11, 11, "cat", true);
	CHECK(proc_thread_stamp(&m, c, false) == st);   /* COMM: maps unchanged */
	proc_machine_mmap(&m, 11, false, 0x5000, 0x1000, 0, "/bin/cat", true, NULL, 0);
	uint64_t cst = proc_thread_stamp(&m, c, false);
	CHECK(cst != st && proc_thread_stamp(&m, p, false) == st);
	proc_machine_fork(&m, 11, 11, 12, 11);    /* a second thread of 11 */
	proc_machine_exit(&m, 11, 11, 5 * s);
	proc_machine_exit(&m, 11, 11, 5 * s + keep + 1);  /* twice: once */
	CHECK_EQ_STR(dso_at(&m, 11, false, 0x5000), "/bin/cat"); /* 12 lives */
	proc_machine_exit(&m, 11, 12, 6 * s);
	proc_machine_exit(&m, 10, 99, 6 * s + keep);      /* unknown tid */
	CHECK_EQ_STR(dso_at(&m, 11, false, 0x5000), "/bin/cat"); /* kept a while */
	proc_machine_exit(&m, 10, 99, 6 * s + keep + 1);
	CHECK_EQ_STR(dso_at(&m, 11, false, 0x5000), "-");
	CHECK_EQ_STR(dso_at(&m, 12, false, 0x5000), "-");
	CHECK(proc_thread_stamp(&m, c, false) != cst);
	CHECK_EQ_STR(dso_at(&m, 10, false, 0x1000), "/bin/sh"); /* the parent keeps its own */
	/* a pid reused by a FORK before the drop is not dropped */
	proc_machine_fork(&m, 20, 10, 20, 10);
	proc_machine_exit(&m, 20, 20, 10 * s);
	proc_machine_fork(&m, 20, 10, 20, 10);
	proc_machine_mmap(&m, 20, false, 0x9000, 0x1000, 0, "/bin/ls", true, NULL, 0);
	proc_machine_exit(&m, 10, 99, 10 * s + keep + 1);
	CHECK_EQ_STR(dso_at(&m, 20, false, 0x9000), "/bin/ls");
	proc_machine_release(&m);
	sym_dsos_release(&d);
}

/* forget_exited: dead processes' threads and spaces are forgotten in a
 * sweep; the live ones keep their maps and names through renumbering. */
UNIT_TEST(machine_forget_exited)
{
	struct sym_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	struct sym_dsos d;
	sym_dsos_init(&d, &cfg);
	struct proc_machine m;
	proc_machine_init(&m, &d);
	m.forget_exited = true;
	const uint64_t ms = 1000000ull;
	proc_machine_comm(&m, 1, 1, "sh", false);
	proc_machine_mmap(&m, 1, false, 0x1000, 0x1000, 0, "/bin/sh", true, NULL, 0);
	uint64_t t = 1;
	for (uint32_t pid = 100; pid < 20100; pid++, t += ms) {
		proc_machine_fork(&m, pid, 1, pid, 1);
		proc_machine_mmap(&m, pid, false, 0x5000, 0x1000, 0, "/bin/cat", true, NULL, 0);
		if (pid != 2000) /* one lives on */
			proc_machine_exit(&m, pid, pid, t);
	}
	proc_machine_exit(&m, 1, 99, t + PROC_EXIT_KEEP_NS + 1);
	CHECK(m.nthreads < 12000);  /* swept */
	CHECK(proc_machine_find_thread(&m, 100) == NULL);
	CHECK_EQ_STR(proc_machine_find_thread(&m, 2000)->comm, "sh");
	CHECK_EQ_STR(dso_at(&m, 2000, false, 0x5000), "/bin/cat");
	CHECK_EQ_STR(dso_at(&m, 1, false, 0x1000), "/bin/sh");
	CHECK_EQ_STR(proc_machine_find_thread(&m, 0)->comm, "swapper");
	CHECK_EQ_STR(proc_machine_findnew_thread(&m, 77, 77)->comm, ":77");
	CHECK_EQ_STR(proc_machine_findnew_thread(&m, -1, -1)->comm, ":-1");
	/* a pid met again after it was forgotten starts afresh */
	proc_machine_fork(&m, 100, 1, 100, 1);
	CHECK_EQ_STR(dso_at(&m, 100, false, 0x1000), "/bin/sh");
	CHECK_EQ_STR(dso_at(&m, 100, false, 0x5000), "-");
	proc_machine_release(&m);
	sym_dsos_release(&d);
}
