/*
 * synth: records for what existed before recording started.
 * Stage: record. The kernel map (an MMAP of "[kernel.kallsyms]_text"
 * with pgoff = the address of _text, for KASLR relocation), and per
 * running process a FORK and COMM for each thread plus an MMAP2 for each
 * executable mapping in /proc/PID/maps (every mapping when the events
 * record data maps, as the DWARF mode does), as perf's synthetic-events.c
 * does; kernel modules get an MMAP each, named by their .ko path from
 * /lib/modules/RELEASE/modules.dep (or "[name]" when not found), as perf
 * names them. Invariant: every record is padded to 8 bytes and ends with a
 * zeroed sample_id trailer of s->id_hdr_size bytes (perf reads id 0 as
 * "synthesized": the first event).
 */
#include "record/record.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>

#include "base/hmap.h"

static void header(struct strbuf *sb, uint32_t type, uint16_t misc)
{
	uint16_t size = 0;
	sb_reset(sb);
	sb_add(sb, &type, 4);
	sb_add(sb, &misc, 2);
	sb_add(sb, &size, 2);
}

static void put32(struct strbuf *sb, uint32_t v) { sb_add(sb, &v, 4); }
static void put64(struct strbuf *sb, uint64_t v) { sb_add(sb, &v, 8); }

/* NUL-terminated string padded with zeros to 8 bytes. */
static void put_str(struct strbuf *sb, const char *s)
{
	size_t n = strlen(s) + 1;
	sb_add(sb, s, n);
	while (sb->len % 8)
		sb_addc(sb, 0);
}

static int finish(struct rec_session *s, struct strbuf *sb)
{
	for (size_t i = 0; i < s->id_hdr_size; i++)
		sb_addc(sb, 0);
	if (sb->len > 65535)
		return 0;   /* cannot be one record: leave it out */
	uint16_t size = (uint16_t)sb->len;
	memcpy(sb->buf + 6, &size, 2);
	return rec_session_emit(s, sb->buf, sb->len);
}

/* Address of a kallsyms symbol, or 0. */
static uint64_t kallsyms_addr(const char *want)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512];
	uint64_t found = 0;
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, name[256];
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) == 3 &&
		    !strcmp(name, want)) {
			found = addr;
			break;
		}
	}
	fclose(f);
	return found;
}

int rec_synth_kernel(struct rec_session *s)
{
	uint64_t text = kallsyms_addr("_text");
	uint64_t etext = kallsyms_addr("_etext");
	struct strbuf sb = SB_INIT;
	if (!text)
		return 0;   /* kptr_restrict: perf then has no kernel map either */
	header(&sb, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL);
	put32(&sb, (uint32_t)-1);
	put32(&sb, 0);
	put64(&sb, text);
	put64(&sb, etext > text ? etext - text : (uint64_t)-1 - text);
	put64(&sb, text);
	put_str(&sb, "[kernel.kallsyms]_text");
	int r = finish(s, &sb);
	sb_release(&sb);
	return r;
}

/* ---- kernel modules ---- */

int rec_module_line(const char *line, char *name, size_t size,
		    uint64_t *addr, uint64_t *len)
{
	unsigned long long a = 0, l = 0;
	char n[128];
	const char *at = strstr(line, " 0x");
	if (sscanf(line, "%127s %llu", n, &l) != 2 || !at ||
	    sscanf(at + 1, "%llx", &a) != 1 || a == 0 || l == 0)
		return -1;
	snprintf(name, size, "%s", n);
	*addr = a;
	*len = l;
	return 0;
}

void rec_module_name(const char *path, size_t len, char *out, size_t size)
{
	if (len >= 2 && path[0] == '[' && path[len - 1] == ']') {
		path++;
		len -= 2;
	}
	const char *base = path;
	for (size_t i = 0; i < len; i++)
		if (path[i] == '/')
			base = path + i + 1;
	size_t n = (size_t)(path + len - base);
	const char *ko = strstr(base, ".ko");
	if (ko && ko < path + len)
		n = (size_t)(ko - base);
	if (n >= size)
		n = size - 1;
	for (size_t i = 0; i < n; i++)
		out[i] = base[i] == '-' ? '_' : base[i];
	out[n] = 0;
}

/* name -> "/lib/modules/REL/path.ko" for every module in modules.dep;
 * the path is kept as the entry's key after the name's NUL. */
static void module_paths(struct hmap *h, struct strbuf *paths)
{
	struct utsname u;
	char file[512], line[4096], name[128];
	if (uname(&u) != 0)
		return;
	snprintf(file, sizeof(file), "/lib/modules/%s/modules.dep", u.release);
	FILE *f = fopen(file, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		size_t n = strcspn(line, ":");
		if (!line[n])
			continue;
		rec_module_name(line, n, name, sizeof(name));
		bool added;
		size_t id = hmap_put(h, name, strlen(name), &added);
		if (!added)
			continue;
		hmap_at(h, id)->value = paths->len;
		sb_addf(paths, "/lib/modules/%s/%.*s", u.release, (int)n, line);
		sb_addc(paths, 0);
	}
	fclose(f);
}

int rec_synth_modules(struct rec_session *s)
{
	FILE *f = fopen("/proc/modules", "r");
	struct hmap h = HMAP_INIT;
	struct strbuf paths = SB_INIT, sb = SB_INIT;
	char line[1024], name[128], fname[640];
	if (!f)
		return 0;
	hmap_init(&h);
	module_paths(&h, &paths);
	while (fgets(line, sizeof(line), f)) {
		uint64_t addr, len;
		if (rec_module_line(line, name, sizeof(name), &addr, &len) < 0)
			continue;
		size_t id = hmap_find(&h, name, strlen(name));
		if (id != (size_t)-1)
			snprintf(fname, sizeof(fname), "%s", paths.buf + hmap_at(&h, id)->value);
		else
			snprintf(fname, sizeof(fname), "[%s]", name);
		header(&sb, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL);
		put32(&sb, (uint32_t)-1);
		put32(&sb, 0);
		put64(&sb, addr);
		put64(&sb, len);
		put64(&sb, 0);
		put_str(&sb, fname);
		finish(s, &sb);
	}
	fclose(f);
	hmap_release(&h);
	sb_release(&paths);
	sb_release(&sb);
	return 0;
}

/* Name, tgid and ppid of a thread from /proc/PID/task/TID/status. */
static int task_status(pid_t pid, pid_t tid, char *comm, size_t size,
		       pid_t *tgid, pid_t *ppid)
{
	char path[128], line[256];
	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", (int)pid, (int)tid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -errno;
	*tgid = pid;
	*ppid = 0;
	comm[0] = 0;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Name:", 5)) {
			char *v = line + 5 + strspn(line + 5, " \t");
			v[strcspn(v, "\n")] = 0;
			snprintf(comm, size, "%s", v);
		} else if (!strncmp(line, "Tgid:", 5)) {
			*tgid = atoi(line + 5);
		} else if (!strncmp(line, "PPid:", 5)) {
			*ppid = atoi(line + 5);
		}
	}
	fclose(f);
	return 0;
}

static int synth_comm(struct rec_session *s, struct strbuf *sb, pid_t pid,
		      pid_t tid, const char *comm)
{
	header(sb, PERF_RECORD_COMM, 0);
	put32(sb, (uint32_t)pid);
	put32(sb, (uint32_t)tid);
	put_str(sb, comm);
	return finish(s, sb);
}

/* FORK of one thread: the main thread forked from its parent, other
 * threads from the main thread (perf's assumption too). */
static int synth_fork(struct rec_session *s, struct strbuf *sb, pid_t tgid,
		      pid_t tid, pid_t ppid)
{
	pid_t parent = tid == tgid ? ppid : tgid;
	header(sb, PERF_RECORD_FORK, 0);
	put32(sb, (uint32_t)tgid);
	put32(sb, (uint32_t)parent);
	put32(sb, (uint32_t)tid);
	put32(sb, (uint32_t)parent);
	put64(sb, 0);
	return finish(s, sb);
}

static int synth_threads(struct rec_session *s, struct strbuf *sb, pid_t pid)
{
	char path[64], comm[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	if (!d)
		return -errno;
	struct dirent *e;
	while ((e = readdir(d))) {
		pid_t tid = atoi(e->d_name), tgid = pid, ppid = 0;
		if (tid <= 0 || task_status(pid, tid, comm, sizeof(comm), &tgid, &ppid))
			continue;
		synth_fork(s, sb, tgid, tid, ppid);
		synth_comm(s, sb, tgid, tid, comm);
	}
	closedir(d);
	return 0;
}

/* One /proc/PID/maps line to an MMAP2 record (executable maps only). */
static int synth_map(struct rec_session *s, struct strbuf *sb, pid_t pid,
		     const char *line)
{
	unsigned long long start, end, off, ino;
	unsigned maj, min;
	char perm[8];
	int name_at = 0;
	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perm,
		   &off, &maj, &min, &ino, &name_at) < 7 || strlen(perm) < 4)
		return 0;
	bool exec = perm[2] == 'x';
	if (!exec && !s->attrs[0].mmap_data)
		return 0;
	char name[4096];
	snprintf(name, sizeof(name), "%s", name_at ? line + name_at : "");
	name[strcspn(name, "\n")] = 0;
	if (!name[0])
		snprintf(name, sizeof(name), "//anon");
	uint32_t prot = (perm[0] == 'r' ? PROT_READ : 0) |
			(perm[1] == 'w' ? PROT_WRITE : 0) | (exec ? PROT_EXEC : 0);
	header(sb, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER |
	       (exec ? 0 : PERF_RECORD_MISC_MMAP_DATA));
	put32(sb, (uint32_t)pid);
	put32(sb, (uint32_t)pid);
	put64(sb, start);
	put64(sb, end - start);
	put64(sb, off);
	put32(sb, maj);
	put32(sb, min);
	put64(sb, ino);
	put64(sb, 0);
	put32(sb, prot);
	put32(sb, perm[3] == 's' ? MAP_SHARED : MAP_PRIVATE);
	put_str(sb, name);
	return finish(s, sb);
}

static int synth_maps(struct rec_session *s, struct strbuf *sb, pid_t pid)
{
	char path[64], line[8192];
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		synth_map(s, sb, pid, line);
	fclose(f);
	return 0;
}

int rec_synth_process(struct rec_session *s, pid_t pid, bool comm_only)
{
	struct strbuf sb = SB_INIT;
	int r;
	if (comm_only) {
		char comm[64], path[64];
		snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
		FILE *f = fopen(path, "r");
		if (!f || !fgets(comm, sizeof(comm), f))
			snprintf(comm, sizeof(comm), "scorch-exec");
		if (f)
			fclose(f);
		comm[strcspn(comm, "\n")] = 0;
		r = synth_comm(s, &sb, pid, pid, comm);
	} else {
		r = synth_threads(s, &sb, pid);
		if (r == 0)
			synth_maps(s, &sb, pid);
	}
	sb_release(&sb);
	return r;
}

int rec_synth_all(struct rec_session *s)
{
	DIR *d = opendir("/proc");
	if (!d)
		return -errno;
	struct dirent *e;
	while ((e = readdir(d))) {
		pid_t pid = atoi(e->d_name);
		if (pid > 0)
			rec_synth_process(s, pid, false);
	}
	closedir(d);
	return 0;
}
