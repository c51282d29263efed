/*
 * dsos: which mapped files got samples, for the BUILD_ID feature and the
 * build-id cache (~/.debug).
 * Stage: record. Follows the maps of each process through the records
 * that pass (MMAP/MMAP2 add, FORK of a new process copies the parent's,
 * COMM with exec clears) and marks the file under each sample's ip and
 * user call-chain entries (kernel addresses: the module whose MMAP holds
 * them, else the kernel). At the end each hit file's GNU build id is
 * read (symbols/buildid.h; modules from /sys/module/NAME/notes) and written as perf 6.1 writes BUILD_ID
 * entries: header (type 0, misc cpumode|BUILD_ID_SIZE, size), pid -1,
 * 20 id bytes, size byte, 3 reserved, file name NUL-padded to 64.
 * Invariant: memory grows with processes and mappings, not samples.
 */
#include "record/record.h"
#include "base/hmap.h"
#include "base/xalloc.h"
#include "perfdata/record.h"
#include "symbols/buildid.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct dso_map {
	uint64_t start, end;
	uint32_t dso;
};

struct proc_maps {
	struct dso_map *maps;
	size_t n, cap;
};

struct rec_dsos {
	struct hmap pids;            /* 4-byte pid -> index in procs */
	struct proc_maps *procs;
	size_t procs_cap;
	struct hmap names;           /* file name -> dso id */
	bool *hit;
	size_t hit_cap;
	bool kernel_hit;
};

#define KERNEL_PID ((uint32_t)-1)

struct rec_dsos *rec_dsos_new(void)
{
	struct rec_dsos *ds = xcalloc(1, sizeof(*ds));
	hmap_init(&ds->pids);
	hmap_init(&ds->names);
	return ds;
}

void rec_dsos_free(struct rec_dsos *ds)
{
	if (!ds)
		return;
	for (size_t i = 0; i < ds->pids.count; i++)
		free(ds->procs[i].maps);
	free(ds->procs);
	free(ds->hit);
	hmap_release(&ds->pids);
	hmap_release(&ds->names);
	free(ds);
}

static struct proc_maps *proc_of(struct rec_dsos *ds, uint32_t pid)
{
	bool added;
	size_t id = hmap_put(&ds->pids, &pid, sizeof(pid), &added);
	if (added) {
		XGROW(ds->procs, ds->procs_cap, id + 1);
		memset(&ds->procs[id], 0, sizeof(ds->procs[id]));
	}
	return &ds->procs[id];
}

static void add_map(struct rec_dsos *ds, uint32_t pid, uint64_t start,
		    uint64_t len, const char *name, size_t name_max)
{
	size_t n = strnlen(name, name_max);
	bool added;
	size_t id = hmap_put(&ds->names, name, n, &added);
	XGROW(ds->hit, ds->hit_cap, id + 1);
	if (added)
		ds->hit[id] = false;
	struct proc_maps *p = proc_of(ds, pid);
	XGROW(p->maps, p->cap, p->n + 1);
	p->maps[p->n++] = (struct dso_map){ start, start + len, (uint32_t)id };
}

static void fork_proc(struct rec_dsos *ds, uint32_t pid, uint32_t ppid)
{
	struct proc_maps *child = proc_of(ds, pid);
	child->n = 0;
	size_t pi = hmap_find(&ds->pids, &ppid, sizeof(ppid));
	if (pi == (size_t)-1)
		return;
	struct proc_maps *parent = &ds->procs[pi];
	if (parent->n == 0)
		return;
	child = proc_of(ds, pid);    /* procs may have moved */
	XGROW(child->maps, child->cap, parent->n);
	memcpy(child->maps, parent->maps, parent->n * sizeof(*parent->maps));
	child->n = parent->n;
}

static bool mark(struct rec_dsos *ds, uint32_t pid, uint64_t ip)
{
	size_t pi = hmap_find(&ds->pids, &pid, sizeof(pid));
	if (pi == (size_t)-1)
		return false;
	struct proc_maps *p = &ds->procs[pi];
	for (size_t i = p->n; i-- > 0;)
		if (ip >= p->maps[i].start && ip < p->maps[i].end) {
			ds->hit[p->maps[i].dso] = true;
			return true;
		}
	return false;
}

/* A kernel address: a module's map (kept under pid -1), else the kernel. */
static void mark_kernel(struct rec_dsos *ds, uint64_t ip)
{
	if (!mark(ds, KERNEL_PID, ip))
		ds->kernel_hit = true;
}

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

/* Whether the record's name field (max bytes, not always NUL-terminated)
 * starts with the literal lit. */
static bool name_starts(const uint8_t *name, size_t max, const char *lit)
{
	size_t n = strlen(lit);
	return max >= n && memcmp(name, lit, n) == 0;
}

static void sample(struct rec_dsos *ds, const uint8_t *r, size_t len,
		   uint64_t st)
{
	size_t off = 8 + ((st & PERF_SAMPLE_IDENTIFIER) ? 8 : 0);
	if (off + 16 > len)
		return;
	uint64_t ip = rd64(r + off);
	uint32_t pid = rd32(r + off + 8);
	off += 16;
	static const uint64_t skip[] = { PERF_SAMPLE_TIME, PERF_SAMPLE_ADDR,
		PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU,
		PERF_SAMPLE_PERIOD };
	for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		off += (st & skip[i]) ? 8 : 0;
	unsigned mode = rd32(r + 4) & 0xffff & PERF_RECORD_MISC_CPUMODE_MASK;
	if (mode == PERF_RECORD_MISC_KERNEL)
		mark_kernel(ds, ip);
	else
		mark(ds, pid, ip);
	if (!(st & PERF_SAMPLE_CALLCHAIN) || (st & PERF_SAMPLE_READ) ||
	    off + 8 > len)
		return;
	uint64_t nr = rd64(r + off);
	off += 8;
	bool user = false;
	for (uint64_t i = 0; i < nr && off + 8 <= len; i++, off += 8) {
		uint64_t a = rd64(r + off);
		if (a >= PD_CONTEXT_MAX)
			user = a == PD_CONTEXT_USER;
		else if (user)
			mark(ds, pid, a);
		else
			mark_kernel(ds, a);
	}
}

void rec_dsos_record(struct rec_dsos *ds, const uint8_t *r, size_t len,
		     uint64_t sample_type)
{
	uint32_t type = rd32(r);
	uint16_t misc;
	memcpy(&misc, r + 4, 2);
	if (type == PERF_RECORD_SAMPLE) {
		sample(ds, r, len, sample_type);
	} else if (type == PERF_RECORD_MMAP2 && len > 72 &&
		   !(misc & PERF_RECORD_MISC_MMAP_DATA) && rd32(r + 8) != (uint32_t)-1) {
		add_map(ds, rd32(r + 8), rd64(r + 16), rd64(r + 24),
			(const char *)r + 72, len - 72);
	} else if (type == PERF_RECORD_MMAP && len > 40 &&
		   !(misc & PERF_RECORD_MISC_MMAP_DATA) && rd32(r + 8) != (uint32_t)-1) {
		add_map(ds, rd32(r + 8), rd64(r + 16), rd64(r + 24),
			(const char *)r + 40, len - 40);
	} else if (type == PERF_RECORD_MMAP && len > 40 &&
		   !name_starts(r + 40, len - 40, "[kernel.kallsyms]")) {
		/* a kernel module */
		add_map(ds, KERNEL_PID, rd64(r + 16), rd64(r + 24),
			(const char *)r + 40, len - 40);
	} else if (type == PERF_RECORD_FORK && len >= 24 &&
		   rd32(r + 8) != rd32(r + 12)) {
		fork_proc(ds, rd32(r + 8), rd32(r + 12));
	} else if (type == PERF_RECORD_COMM && len >= 16 &&
		   (misc & PERF_RECORD_MISC_COMM_EXEC)) {
		proc_of(ds, rd32(r + 8))->n = 0;
	}
}

/* ---- the build-id cache ---- */

static void mkdirs(char *path)
{
	for (char *p = path + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			mkdir(path, 0755);
			*p = '/';
		}
	mkdir(path, 0755);
}

static int copy_bytes(const char *to, const void *data, size_t len)
{
	int fd = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return errno == EEXIST ? 0 : -errno;
	int r = write(fd, data, len) == (ssize_t)len ? 0 : -EIO;
	close(fd);
	return r;
}

/* Copy a file in 64 KiB pieces (binaries can be large). */
static int copy_file(const char *to, const char *from)
{
	char buf[1 << 16];
	int in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	int out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (out < 0) {
		int e = errno;
		close(in);
		return e == EEXIST ? 0 : -e;
	}
	int r = 0;
	ssize_t n;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			r = -EIO;
			break;
		}
	close(in);
	close(out);
	if (r < 0 || n < 0)
		unlink(to);
	return r < 0 ? r : n < 0 ? -EIO : 0;
}

/* ~/.debug/<name>/<hex>/<leaf> from src (a path) or data, and the
 * .build-id/xx/rest link to its directory. */
static void cache_put(const char *name, const char *hex, const char *leaf,
		      const char *src, const void *data, size_t len)
{
	const char *home = getenv("HOME");
	char dir[4096], file[4200], link[4200], target[4200];
	if (!home || !*home || strlen(hex) < 3)
		return;
	const char *rel = name[0] == '/' ? name + 1 : name;
	snprintf(dir, sizeof(dir), "%s/.debug/%s/%s", home, rel, hex);
	mkdirs(dir);
	snprintf(file, sizeof(file), "%s/%s", dir, leaf);
	if (src)
		copy_file(file, src);
	else
		copy_bytes(file, data, len);
	snprintf(link, sizeof(link), "%s/.debug/.build-id/%.2s", home, hex);
	mkdirs(link);
	snprintf(link, sizeof(link), "%s/.debug/.build-id/%.2s/%s", home, hex, hex + 2);
	snprintf(target, sizeof(target), "../../%s/%s", rel, hex);
	if (symlink(target, link) < 0 && errno != EEXIST)
		return;
}

/* ---- BUILD_ID entries ---- */

static void entry(struct strbuf *out, uint16_t cpumode,
		  const struct sym_buildid *b, const char *name)
{
	size_t n = strlen(name) + 1;
	size_t padded = (n + 63) & ~(size_t)63;
	uint32_t type = 0;
	uint16_t misc = cpumode | PD_MISC_BUILD_ID_SIZE;
	uint16_t size = (uint16_t)(36 + padded);
	int32_t pid = -1;
	uint8_t id[24] = { 0 };
	memcpy(id, b->id, b->size);
	id[20] = b->size;
	sb_add(out, &type, 4);
	sb_add(out, &misc, 2);
	sb_add(out, &size, 2);
	sb_add(out, &pid, 4);
	sb_add(out, id, 24);
	sb_add(out, name, n);
	for (size_t i = n; i < padded; i++)
		sb_addc(out, 0);
}

static bool read_all(const char *path, struct strbuf *sb)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	for (;;) {
		sb_grow(sb, 4096);
		ssize_t n = read(fd, sb->buf + sb->len, 4096);
		if (n <= 0)
			break;
		sb_setlen(sb, sb->len + (size_t)n);
	}
	close(fd);
	return sb->len > 0;
}

static void kernel_entry(struct strbuf *out, bool cache)
{
	struct strbuf notes = SB_INIT;
	struct sym_buildid b = { { 0 }, 0 };
	struct diag d = DIAG_INIT;
	char hex[41];
	if (read_all("/sys/kernel/notes", &notes) &&
	    sym_buildid_from_notes(notes.buf, notes.len, false, &b, &d) == 1) {
		entry(out, PERF_RECORD_MISC_KERNEL, &b, "[kernel.kallsyms]");
		if (cache)
			cache_put("[kernel.kallsyms]", sym_buildid_hex(&b, hex),
				  "kallsyms", "/proc/kallsyms", NULL, 0);
	}
	sb_release(&notes);
}

/* Our own [vdso] image: the same one every process of ours maps. */
static void vdso_entry(struct strbuf *out, bool cache)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	unsigned long long lo = 0, hi = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "[vdso]") &&
		    sscanf(line, "%llx-%llx", &lo, &hi) == 2)
			break;
	fclose(f);
	if (hi <= lo || hi - lo > (1 << 20))
		return;
	const void *img = (const void *)(uintptr_t)lo;
	Elf *elf = elf_memory((char *)(uintptr_t)lo, (size_t)(hi - lo));
	struct sym_buildid b = { { 0 }, 0 };
	struct diag d = DIAG_INIT;
	char hex[41];
	if (elf && sym_buildid_from_elf(elf, &b, &d) == 1) {
		entry(out, PERF_RECORD_MISC_USER, &b, "[vdso]");
		if (cache)
			cache_put("[vdso]", sym_buildid_hex(&b, hex), "vdso",
				  NULL, img, (size_t)(hi - lo));
	}
	if (elf)
		elf_end(elf);
}

/* A kernel module's build id from /sys/module/NAME/notes; its .ko file
 * (uncompressed ones) goes to the cache. */
static void module_entry(struct strbuf *out, const char *file, bool cache)
{
	char name[128], path[512], hex[41];
	struct strbuf notes = SB_INIT;
	struct sym_buildid b = { { 0 }, 0 };
	struct diag d = DIAG_INIT;
	rec_module_name(file, strlen(file), name, sizeof(name));
	snprintf(path, sizeof(path), "/sys/module/%s/notes/.note.gnu.build-id", name);
	if (read_all(path, &notes) &&
	    sym_buildid_from_notes(notes.buf, notes.len, false, &b, &d) == 1) {
		entry(out, PERF_RECORD_MISC_KERNEL, &b, file);
		size_t n = strlen(file);
		if (cache && file[0] == '/' && n > 3 && !strcmp(file + n - 3, ".ko"))
			cache_put(file, sym_buildid_hex(&b, hex), "elf", file, NULL, 0);
	}
	sb_release(&notes);
}

static bool is_module(struct rec_dsos *ds, size_t dso)
{
	size_t pi = hmap_find(&ds->pids, &(uint32_t){ KERNEL_PID }, sizeof(uint32_t));
	if (pi == (size_t)-1)
		return false;
	for (size_t i = 0; i < ds->procs[pi].n; i++)
		if (ds->procs[pi].maps[i].dso == dso)
			return true;
	return false;
}

void rec_dsos_buildids(struct rec_dsos *ds, struct strbuf *out, bool cache)
{
	if (ds->kernel_hit)
		kernel_entry(out, cache);
	elf_version(EV_CURRENT);
	for (size_t i = 0; i < ds->names.count; i++) {
		const char *name = hmap_at(&ds->names, i)->key;
		if (i >= ds->hit_cap || !ds->hit[i])
			continue;
		if (!strcmp(name, "[vdso]")) {
			vdso_entry(out, cache);
			continue;
		}
		if (is_module(ds, i)) {
			module_entry(out, name, cache);
			continue;
		}
		struct sym_buildid b = { { 0 }, 0 };
		struct diag d = DIAG_INIT;
		char hex[41];
		if (name[0] != '/' || sym_buildid_read(name, &b, &d) != 1)
			continue;
		entry(out, PERF_RECORD_MISC_USER, &b, name);
		if (cache)
			cache_put(name, sym_buildid_hex(&b, hex), "elf", name, NULL, 0);
	}
}
