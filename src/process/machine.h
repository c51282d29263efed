/*
 * machine: threads, processes and their address spaces, rebuilt from the
 * COMM, FORK, EXIT and MMAP/MMAP2 records of a recording.
 * Stage: process. Threads are keyed by tid; all threads of a process
 * (same pid) share one address space, as in the kernel. FORK into a new
 * process shares the parent's maps until one of the two changes them
 * (copy on write, see maps.h); FORK of a thread shares them for good. On
 * exec (COMM with the exec flag) the new image's MMAPs replace old maps
 * where they overlap; as in perf the rest stays, so samples taken inside
 * execve still resolve against the old image (clear_on_exec empties the
 * address space instead). Kernel maps ([kernel.kallsyms], modules) live in one
 * kernel address space shared by all. An MMAP replaces whatever part of
 * older maps it overlaps. A thread first seen in a sample is created
 * with perf's name ":TID"; tid 0 is "swapper".
 *
 * For the unwinder: proc_machine_find_thread -> proc_thread_find_map
 * (map for an address) -> map->dso (sym_dso: elf_path, segs for the
 * load bias: file offset = addr - map->start + map->pgoff).
 * Ownership: threads, maps and comm strings belong to the machine until
 * proc_machine_release; dsos belong to the sym_dsos given at init.
 */
#ifndef SCORCH_PROCESS_MACHINE_H
#define SCORCH_PROCESS_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/hmap.h"
#include "base/u64map.h"
#include "process/maps.h"
#include "symbols/dso.h"

struct proc_thread {
	uint32_t pid, tid;
	const char *comm;      /* the machine's copy (or tid_comm): ":TID"
				* until a COMM or FORK names it */
	bool comm_set;
	size_t maps_id;        /* index into machine->spaces */
	uint32_t ppid;         /* parent process (FORK), 0: unknown */
	int32_t ptid;          /* the thread that forked it (FORK), -1: unknown */
	uint32_t nfork;        /* FORK records of this tid: perf makes a new
				* thread at every FORK */
	uint32_t ncomm_made;   /* COMM records this thread made since its
				* last FORK (their sample id names it; perf
				* sched map names the task again after one) */
	bool exited;           /* an EXIT since its last FORK (a FORK of its
				* tid revives it) */
	char tid_comm[16];     /* ":TID" (not interned: one per thread) */
};

struct proc_machine {
	struct sym_dsos *dsos;
	struct u64map threads;     /* tid -> index in thread */
	struct proc_thread **thread;
	size_t nthreads, thread_cap;
	struct u64map pids;        /* pid -> index in spaces */
	struct proc_maps **spaces; /* shared between processes until written */
	size_t nspaces, spaces_cap;
	struct proc_space_info {
		uint32_t pid;          /* whose space it is */
		uint32_t live;         /* its threads not exited */
		bool dead;             /* its maps dropped, no thread since */
	} *space_info;             /* per space */
	size_t info_cap;
	size_t ndead;              /* dead spaces not yet forgotten */
	bool forget_exited;        /* forget dead spaces and their threads
				    * (default false: see proc_machine_exit) */
	struct proc_maps *empty;   /* shared by the spaces of exited processes */
	struct proc_exited { size_t space; uint64_t time; } *exited;
	size_t exited_head, nexited, exited_cap; /* exited[head, n): to drop */
	struct proc_maps *kernel;  /* kernel and module maps */
	struct sym_dso *kernel_dso;
	struct u64map ended_comms; /* tid << 32 | nfork -> the comm (a
				    * pointer) that incarnation of the tid
				    * ended with: perf makes a new thread at
				    * each FORK of a tid (pids wrap) */
	struct hmap comms;         /* every comm met, once (a name is kept
				    * once however many threads take it) */
	bool clear_on_exec;        /* default false, as perf */
	uint64_t generation;       /* bumped by every COMM, FORK and MMAP: while it
				    * stays, an address resolves the same way */
	uint64_t stamps;           /* the last stamp given to a maps table */
	struct proc_thread *last;  /* the previous findnew's answer (threads
				    * live as long as the machine) */
	/* Processes that exec'd while named as a recorder's child (see
	 * proc_recorder_child), in order (at most 64): candidates for the
	 * recorded command, which proc_machine_choose_command picks. */
	struct proc_exec { uint32_t pid; char comm[16]; } execs[64];
	size_t nexecs;
	uint32_t command_pid;      /* the recorded command, 0: none */
};

void proc_machine_init(struct proc_machine *m, struct sym_dsos *dsos);
void proc_machine_release(struct proc_machine *m);

struct proc_thread *proc_machine_findnew_thread(struct proc_machine *m,
						uint32_t pid, uint32_t tid);
/* NULL when never seen. */
struct proc_thread *proc_machine_find_thread(struct proc_machine *m,
					     uint32_t tid);

void proc_machine_comm(struct proc_machine *m, uint32_t pid, uint32_t tid,
		       const char *comm, bool exec);
/* The name perf gives the thread t was when its FORK count was nfork:
 * t's comm when that is still its count, else the comm it had when the
 * next FORK of its tid replaced it. */
const char *proc_thread_comm_at(const struct proc_machine *m, const struct proc_thread *t,
				uint32_t nfork);
/* Whether comm is what perf or scorch name the child that will exec the
 * command: "perf", "perf-exec", "scorch", "scorch-exec". */
bool proc_recorder_child(const char *comm);
/* Pick command_pid among the candidates: the first whose new name is
 * the command's (argv of the recorder, the CMDLINE feature: the word
 * after "--", else any word's base name, cut to 15 bytes as the kernel
 * cuts it); with no argv at all, the first candidate. Other recorders
 * running at the same time exec their commands too. */
void proc_machine_choose_command(struct proc_machine *m, const char *const *argv,
				 size_t argc);
/* Whether t belongs to the process tree of the recorded command
 * (command_pid and the processes it forked, by FORK records). */
bool proc_machine_in_command(struct proc_machine *m, const struct proc_thread *t);
void proc_machine_fork(struct proc_machine *m, uint32_t pid, uint32_t ppid,
		       uint32_t tid, uint32_t ptid);
/* A COMM record's sample id names tid (the task that made it). */
void proc_machine_comm_made(struct proc_machine *m, uint32_t tid);
/* EXIT of a thread at time (ns; 0: unknown). When no thread of its
 * process is left, the process's maps are dropped PROC_EXIT_KEEP_NS of
 * recording time later (unless a FORK revived it), so that memory
 * follows the live processes, not all the processes of a recording: an
 * exiting task has no user memory left by the time it writes the EXIT
 * record, but it is still sampled for a few microseconds with its last
 * user address (`_exit`) in its registers, which perf resolves. */
void proc_machine_exit(struct proc_machine *m, uint32_t pid, uint32_t tid,
		       uint64_t time);
/* With m->forget_exited, the threads of such processes are forgotten
 * too, a while after (as if never seen: a thread pointer of them is
 * dangling, proc_machine_find_thread gives NULL), so that a recording 10x
 * longer takes no more memory. Only for a consumer that keeps no thread
 * pointer past a sample and looks up no thread after the replay
 * (fold; not offcpu, which walks the parents of every task at the end). */
#define PROC_EXIT_KEEP_NS 2000000000ull
/* MMAP/MMAP2: pid (uint32_t)-1 or kernel cpumode means kernel maps.
 * build_id may be NULL. exec false (data maps) are ignored. */
void proc_machine_mmap(struct proc_machine *m, uint32_t pid, bool kernel,
		       uint64_t start, uint64_t len, uint64_t pgoff,
		       const char *filename, bool exec,
		       const uint8_t *build_id, size_t build_id_size);

/* The map holding addr: kernel maps when kernel, else the thread's
 * process maps. NULL when none. */
const struct proc_map *proc_thread_find_map(struct proc_machine *m,
					    const struct proc_thread *t,
					    bool kernel, uint64_t addr);
/* A name for the contents of the maps that resolve t's addresses (the
 * kernel's when kernel): while it stays, they resolve the same way,
 * whatever else (other processes, COMM, FORK) changed. Stamps are never
 * reused, and two tables with one stamp hold the same maps (a fork's
 * shared or copied table keeps the parent's until one of them is
 * changed). Cheaper to compare than the machine's generation moves. */
static inline uint64_t proc_thread_stamp(const struct proc_machine *m,
					 const struct proc_thread *t, bool kernel)
{
	return kernel ? m->kernel->stamp : m->spaces[t->maps_id]->stamp;
}
static inline uint64_t proc_map_addr(const struct proc_map *map, uint64_t addr)
{
	return map->identity ? addr : addr - map->start + map->pgoff;
}

#endif
