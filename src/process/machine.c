/*
 * machine: threads and address spaces from task and mmap records (see
 * machine.h). Stage: process. Invariant: every thread's maps_id names a
 * live table in spaces; tables are shared (maps.h) and made private
 * before every change.
 */
#include "process/machine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

void proc_machine_init(struct proc_machine *m, struct sym_dsos *dsos)
{
	memset(m, 0, sizeof(*m));
	m->dsos = dsos;
	m->threads = (struct u64map)U64MAP_INIT;
	m->pids = (struct u64map)U64MAP_INIT;
	m->ended_comms = (struct u64map)U64MAP_INIT;
	hmap_init(&m->comms);
	m->kernel = proc_maps_new();
	m->kernel->stamp = ++m->stamps;
	m->empty = proc_maps_new();
	m->empty->stamp = ++m->stamps;
	m->clear_on_exec = false; /* perf keeps the old maps until new MMAPs replace them */
	m->kernel_dso = sym_dsos_findnew(dsos, "[kernel.kallsyms]");
	struct proc_thread *idle = proc_machine_findnew_thread(m, 0, 0);
	idle->comm = "swapper";
	idle->comm_set = true;
}

void proc_machine_release(struct proc_machine *m)
{
	for (size_t i = 0; i < m->nthreads; i++)
		free(m->thread[i]);
	free(m->thread);
	for (size_t i = 0; i < m->nspaces; i++)
		proc_maps_put(m->spaces[i]);
	free(m->spaces);
	proc_maps_put(m->kernel);
	proc_maps_put(m->empty);
	free(m->space_info);
	free(m->exited);
	u64map_release(&m->threads);
	u64map_release(&m->pids);
	u64map_release(&m->ended_comms);
	hmap_release(&m->comms);
	memset(m, 0, sizeof(*m));
}

/* The machine's copy of comm (one per distinct name). */
static const char *comm_of(struct proc_machine *m, const char *comm)
{
	return hmap_at(&m->comms, hmap_put(&m->comms, comm, strlen(comm), NULL))->key;
}

static size_t space_of(struct proc_machine *m, uint32_t pid)
{
	bool added;
	uint64_t *id = u64map_put(&m->pids, pid, &added);
	if (added) {
		XGROW(m->spaces, m->spaces_cap, m->nspaces + 1);
		XGROW(m->space_info, m->info_cap, m->nspaces + 1);
		m->space_info[m->nspaces] = (struct proc_space_info){ pid, 0, false };
		m->spaces[m->nspaces] = proc_maps_new();
		m->spaces[m->nspaces]->stamp = ++m->stamps;
		*id = m->nspaces++;
	}
	return (size_t)*id;
}

static struct proc_thread *findnew(struct proc_machine *m, uint32_t pid,
				   uint32_t tid);

/* The space of pid with one more live thread in it. */
static size_t live_space(struct proc_machine *m, uint32_t pid)
{
	size_t id = space_of(m, pid);
	struct proc_space_info *in = &m->space_info[id];
	in->live++;
	if (in->dead) { /* the pid is used again */
		in->dead = false;
		m->ndead--;
	}
	return id;
}

/* Move live thread t into the space of pid (counted there). */
static void join_space(struct proc_machine *m, struct proc_thread *t, uint32_t pid)
{
	if (!t->exited)
		m->space_info[t->maps_id].live--;
	t->exited = false;
	t->maps_id = live_space(m, pid);
}

struct proc_thread *proc_machine_find_thread(struct proc_machine *m, uint32_t tid)
{
	const uint64_t *id = u64map_find(&m->threads, tid);
	return id ? m->thread[*id] : NULL;
}

struct proc_thread *proc_machine_findnew_thread(struct proc_machine *m,
						uint32_t pid, uint32_t tid)
{
	/* consecutive samples are mostly of one thread: skip the hash
	 * unless the answer would change the thread (a pid learnt late) */
	struct proc_thread *last = m->last;
	if (last && last->tid == tid &&
	    !(last->pid == (uint32_t)-1 && pid != (uint32_t)-1))
		return last;
	m->last = findnew(m, pid, tid);
	return m->last;
}

/* ":%d" of tid into buf (16 bytes), without printf: once per thread,
 * and a system-wide recording makes a thread per process. */
static void tid_name(char *buf, int tid)
{
	buf[0] = ':';
	int_to_text(buf + 1, tid);
}

static struct proc_thread *findnew(struct proc_machine *m, uint32_t pid,
				   uint32_t tid)
{
	bool added;
	uint64_t *id = u64map_put(&m->threads, tid, &added);
	if (!added) {
		struct proc_thread *t = m->thread[*id];
		if (t->pid != pid && pid != (uint32_t)-1 && t->pid == (uint32_t)-1) {
			t->pid = pid;
			join_space(m, t, pid);
		}
		return t;
	}
	struct proc_thread *t = xcalloc(1, sizeof(*t));
	t->pid = pid;
	t->tid = tid;
	t->ptid = -1;
	tid_name(t->tid_comm, (int)tid); /* perf: -1 for an exiting task */
	t->comm = t->tid_comm;
	t->maps_id = live_space(m, pid);
	XGROW(m->thread, m->thread_cap, m->nthreads + 1);
	*id = m->nthreads;
	m->thread[m->nthreads++] = t;
	return t;
}

bool proc_recorder_child(const char *comm)
{
	return !strcmp(comm, "perf") || !strcmp(comm, "perf-exec") ||
	       !strcmp(comm, "scorch") || !strcmp(comm, "scorch-exec");
}

void proc_machine_comm(struct proc_machine *m, uint32_t pid, uint32_t tid,
		       const char *comm, bool exec)
{
	struct proc_thread *t = proc_machine_findnew_thread(m, pid, tid);
	m->generation++;
	if (exec && m->nexecs < 64 && t->comm_set &&
	    proc_recorder_child(t->comm)) {
		struct proc_exec *e = &m->execs[m->nexecs++];
		e->pid = pid;
		snprintf(e->comm, sizeof(e->comm), "%s", comm);
	}
	if (!t->comm_set || strcmp(t->comm, comm) != 0)
		t->comm = comm_of(m, comm);
	t->comm_set = true;
	if (exec && m->clear_on_exec) {
		proc_maps_writable(&m->spaces[t->maps_id]);
		proc_maps_clear(m->spaces[t->maps_id]);
		m->spaces[t->maps_id]->stamp = ++m->stamps;
	}
}

/* Keep the name t's incarnation ends with (its FORK count goes up). */
static void end_incarnation(struct proc_machine *m, const struct proc_thread *t)
{
	bool added;
	uint64_t *v = u64map_put(&m->ended_comms, (uint64_t)t->tid << 32 | t->nfork, &added);
	*v = (uint64_t)(uintptr_t)t->comm;
}

const char *proc_thread_comm_at(const struct proc_machine *m, const struct proc_thread *t,
				uint32_t nfork)
{
	if (nfork == t->nfork)
		return t->comm;
	const uint64_t *v = u64map_find(&m->ended_comms, (uint64_t)t->tid << 32 | nfork);
	return v ? (const char *)(uintptr_t)*v : t->comm;
}

void proc_machine_fork(struct proc_machine *m, uint32_t pid, uint32_t ppid,
		       uint32_t tid, uint32_t ptid)
{
	struct proc_thread *parent = proc_machine_findnew_thread(m, ppid, ptid);
	m->generation++;
	const char *pcomm = parent->comm;
	bool pset = parent->comm_set;
	size_t pspace = parent->maps_id;
	struct proc_thread *child = proc_machine_find_thread(m, tid);
	if (child)
		end_incarnation(m, child);
	if (child && child->pid != pid) { /* tid reused by a new process */
		child->pid = pid;
		join_space(m, child, pid);
	} else if (child && child->exited) { /* reused in the same pid */
		join_space(m, child, pid);
	}
	if (!child)
		child = proc_machine_findnew_thread(m, pid, tid);
	/* perf's new thread takes the parent's name only when it was set */
	if (pset) {
		child->comm = pcomm;
	} else if (child->comm_set) {
		tid_name(child->tid_comm, (int)tid);
		child->comm = child->tid_comm;
	}
	child->comm_set = pset;
	child->ppid = pid != ppid ? ppid : parent->ppid;
	child->ptid = (int32_t)ptid;
	child->nfork++;
	child->ncomm_made = 0;  /* perf's new thread has made none */
	if (pid != ppid && m->spaces[child->maps_id] != m->spaces[pspace]) {
		/* the child starts with the parent's maps: shared until
		 * one of them is written */
		proc_maps_put(m->spaces[child->maps_id]);
		m->spaces[child->maps_id] = proc_maps_share(m->spaces[pspace]);
	}
}

void proc_machine_comm_made(struct proc_machine *m, uint32_t tid)
{
	struct proc_thread *t = proc_machine_find_thread(m, tid);
	if (t)
		t->ncomm_made++;
}

/* Drop the maps of the processes that exited PROC_EXIT_KEEP_NS before
 * time and have no thread again. */
static void drop_exited(struct proc_machine *m, uint64_t time)
{
	while (m->exited_head < m->nexited &&
	       m->exited[m->exited_head].time + PROC_EXIT_KEEP_NS < time) {
		size_t id = m->exited[m->exited_head++].space;
		if (id == SIZE_MAX || m->space_info[id].live > 0 || m->space_info[id].dead)
			continue;
		m->generation++;
		proc_maps_put(m->spaces[id]);
		m->spaces[id] = proc_maps_share(m->empty);
		m->space_info[id].dead = true;
		m->ndead++;
	}
	if (m->exited_head > 64 && m->exited_head * 2 > m->nexited) {
		m->nexited -= m->exited_head;
		memmove(m->exited, m->exited + m->exited_head,
			m->nexited * sizeof(*m->exited));
		m->exited_head = 0;
	}
}

/* Keep the spaces that are not dead, renumbered, and the threads in
 * them; rebuild the indexes. A dead space's threads have all exited. */
static void forget_dead(struct proc_machine *m)
{
	size_t *renum = xmalloc((m->nspaces ? m->nspaces : 1) * sizeof(*renum));
	size_t ns = 0, nt = 0;
	for (size_t i = 0; i < m->nspaces; i++)
		renum[i] = m->space_info[i].dead ? SIZE_MAX : ns++;
	u64map_clear(&m->threads);
	for (size_t i = 0; i < m->nthreads; i++) {
		struct proc_thread *t = m->thread[i];
		if (renum[t->maps_id] == SIZE_MAX) {
			free(t);
			continue;
		}
		t->maps_id = renum[t->maps_id];
		m->thread[nt] = t;
		bool added;
		*u64map_put(&m->threads, t->tid, &added) = nt;
		nt++;
	}
	for (size_t i = m->exited_head; i < m->nexited; i++) {
		size_t id = m->exited[i].space; /* dead: it exited again since */
		if (id != SIZE_MAX)
			m->exited[i].space = renum[id];
	}
	u64map_clear(&m->pids);
	for (size_t i = 0; i < m->nspaces; i++) {
		if (renum[i] == SIZE_MAX) {
			proc_maps_put(m->spaces[i]);
			continue;
		}
		size_t k = renum[i];
		m->spaces[k] = m->spaces[i];
		m->space_info[k] = m->space_info[i];
		bool added;
		*u64map_put(&m->pids, m->space_info[k].pid, &added) = k;
	}
	free(renum);
	m->nspaces = ns;
	m->nthreads = nt;
	m->ndead = 0;
	m->last = NULL;
	m->generation++;
}

void proc_machine_exit(struct proc_machine *m, uint32_t pid, uint32_t tid,
		       uint64_t time)
{
	drop_exited(m, time);
	if (m->forget_exited && m->ndead >= 4096 && m->ndead * 2 >= m->nspaces)
		forget_dead(m);
	struct proc_thread *t = proc_machine_find_thread(m, tid);
	if (!t || t->exited || t->pid != pid)
		return;
	t->exited = true;
	if (--m->space_info[t->maps_id].live > 0 || !time)
		return;
	XGROW(m->exited, m->exited_cap, m->nexited + 1);
	m->exited[m->nexited++] = (struct proc_exited){ t->maps_id, time };
}

/* The first candidate named like the base name of word. */
static uint32_t exec_named(const struct proc_machine *m, const char *word)
{
	const char *slash = strrchr(word, '/');
	const char *base = slash ? slash + 1 : word;
	for (size_t i = 0; i < m->nexecs; i++)
		if (*base && !strncmp(m->execs[i].comm, base, 15))
			return m->execs[i].pid;
	return 0;
}

void proc_machine_choose_command(struct proc_machine *m, const char *const *argv,
				 size_t argc)
{
	m->command_pid = 0;
	if (!argc) {
		m->command_pid = m->nexecs ? m->execs[0].pid : 0;
		return;
	}
	for (size_t i = 1; i + 1 < argc; i++)
		if (!strcmp(argv[i], "--")) {
			m->command_pid = exec_named(m, argv[i + 1]);
			return;
		}
	for (size_t i = 1; i < argc && !m->command_pid; i++)
		if (argv[i][0] != '-')
			m->command_pid = exec_named(m, argv[i]);
}

bool proc_machine_in_command(struct proc_machine *m, const struct proc_thread *t)
{
	/* up the parents; a bound against pid reuse making a cycle */
	for (int depth = 0; t && m->command_pid && depth < 256; depth++) {
		if (t->pid == m->command_pid)
			return true;
		if (!t->ppid || t->ppid == t->pid)
			return false;
		t = proc_machine_find_thread(m, t->ppid);
	}
	return false;
}

static bool is_anon(const char *f)
{
	if (f[0] == '/' && f[1] != '/' && f[1] != 'd' && f[1] != 'a')
		return false; /* a file's path, mostly: no strncmp */
	return strcmp(f, "//anon") == 0 || strncmp(f, "/dev/zero", 9) == 0 ||
	       strncmp(f, "/anon_hugepage", 14) == 0 || strncmp(f, "[anon", 5) == 0;
}

static bool is_no_dso(const char *f)
{
	if (f[0] == '/' && f[1] != 'S')
		return false;
	return strncmp(f, "[stack", 6) == 0 || strncmp(f, "/SYSV", 5) == 0 ||
	       strcmp(f, "[heap]") == 0;
}

static void kernel_mmap(struct proc_machine *m, uint64_t start, uint64_t end,
			uint64_t pgoff, const char *filename,
			const uint8_t *bid, size_t bid_size)
{
	struct sym_dso *d;
	if (strncmp(filename, "[kernel.kallsyms]", 17) == 0 ||
	    strncmp(filename, "[guest.kernel.kallsyms", 22) == 0)
		d = m->kernel_dso;
	else
		d = sym_dsos_findnew_module(m->dsos, filename, false);
	if (bid && bid_size)
		sym_dso_set_buildid(d, bid, bid_size);
	if (d->kind == SYM_DSO_MODULE)
		d->module_base = start; /* as perf: its .text starts there */
	if (d == m->kernel_dso) {
		if (strcmp(filename + 17, "_text") == 0 || strcmp(filename + 17, "_stext") == 0) {
			d->ref_text = pgoff; /* where _text was when recording */
			d->ref_name = filename[18] == 't' ? "_text" : "_stext";
		}
		/* as perf, the kernel map reaches up to the next kernel map
		 * (init text lies past _etext) */
		end = proc_maps_next_start(m->kernel, start);
	}
	struct proc_map mp = { start, end, pgoff, d, true };
	proc_maps_insert(m->kernel, &mp);
	m->kernel->stamp = ++m->stamps;
}

void proc_machine_mmap(struct proc_machine *m, uint32_t pid, bool kernel,
		       uint64_t start, uint64_t len, uint64_t pgoff,
		       const char *filename, bool exec,
		       const uint8_t *build_id, size_t build_id_size)
{
	uint64_t end = start + len < start ? UINT64_MAX : start + len;
	if (len == 0)
		return;
	m->generation++;
	if (kernel || pid == (uint32_t)-1) {
		kernel_mmap(m, start, end, pgoff, filename, build_id, build_id_size);
		return;
	}
	if (!exec)
		return;
	struct proc_thread *t = proc_machine_findnew_thread(m, pid, pid);
	bool identity = false;
	char jit[64];
	if (is_anon(filename) || is_no_dso(filename)) {
		identity = true;
		snprintf(jit, sizeof(jit), "/tmp/perf-%u.map", pid);
		filename = jit;
	}
	struct sym_dso *d = sym_dsos_findnew(m->dsos, filename);
	if (build_id && build_id_size)
		sym_dso_set_buildid(d, build_id, build_id_size);
	struct proc_map mp = { start, end, pgoff, d, identity };
	struct proc_maps *ms = proc_maps_writable(&m->spaces[t->maps_id]);
	proc_maps_insert(ms, &mp);
	ms->stamp = ++m->stamps;
}

const struct proc_map *proc_thread_find_map(struct proc_machine *m,
					    const struct proc_thread *t,
					    bool kernel, uint64_t addr)
{
	if (kernel)
		return proc_maps_find(m->kernel, addr);
	return t ? proc_maps_find(m->spaces[t->maps_id], addr) : NULL;
}
