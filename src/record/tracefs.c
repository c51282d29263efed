/*
 * tracefs: tracepoint ids and perf's "tracing data" blob.
 * Stage: record. The blob is what perf's TRACING_DATA feature (or pipe
 * HEADER_TRACING_DATA record) holds, laid out as perf 6.1 writes it
 * (trace-event-info.c, version "0.6"): magic "\x17\x08\x44tracing",
 * version string, endianness byte, sizeof(long), page size; then
 * "header_page" and "header_event" each with a u64 size and the file;
 * the ftrace formats of the events used (u32 count, u64 size + text
 * each); the event systems used (u32 count; per system its name, u32
 * count, u64 size + format text per event); an empty kallsyms (u32 0,
 * as perf writes since 5.x);
 * printk_formats (u32 size); saved_cmdlines (u64 size). Integers are in
 * host order, which the endianness byte announces.
 * Invariant: directories are walked in readdir order, as perf does, so
 * the format texts come out in the same order as in perf's files.
 */
#include "record/record.h"
#include "base/fdio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#define TRACEFS_MAGIC_NR 0x74726163

/* 0 when dir is a tracefs we can read, -EACCES when it is one we may
 * not read (mode 700 for a user), -ENOENT when it is none. */
static int tracefs_at(const char *dir)
{
	struct statfs st;
	char path[256];
	if (statfs(dir, &st) != 0 || (uint32_t)st.f_type != TRACEFS_MAGIC_NR)
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/events", dir);
	return access(path, R_OK) == 0 ? 0 : errno == EACCES ? -EACCES : -ENOENT;
}

static const char *tracefs_dirs[] = { "/sys/kernel/tracing",
				      "/sys/kernel/debug/tracing" };

int rec_tracefs_find(const char **dir)
{
	int denied = -1;
	for (int i = 0; i < 2; i++) {
		int r = tracefs_at(tracefs_dirs[i]);
		*dir = tracefs_dirs[i];
		if (r == 0)
			return 0;
		if (r == -EACCES && denied < 0)
			denied = i;
	}
	if (denied >= 0) {
		*dir = tracefs_dirs[denied];
		return -EACCES;
	}
	*dir = tracefs_dirs[0];
	if (mount("nodev", tracefs_dirs[0], "tracefs", 0, NULL) == 0 &&
	    tracefs_at(tracefs_dirs[0]) == 0)
		return 0;
	return -ENOENT;
}

const char *rec_tracefs_dir(void)
{
	const char *dir;
	return rec_tracefs_find(&dir) == 0 ? dir : NULL;
}

/* The message for a tracefs we cannot use, as perf words it. */
static void tracefs_error(struct diag *d, int r, const char *dir,
			  const char *sys, const char *name)
{
	if (r == -EACCES)
		diag_set(d, "tracepoint %s:%s: no permission to read "
			 "%s/events/%s/%s (try: sudo mount -o remount,mode=755 %s)",
			 sys, name, dir, sys, name, dir);
	else
		diag_set(d, "tracepoint %s:%s: tracefs is not mounted and could "
			 "not be mounted (try: mount -t tracefs nodev "
			 "/sys/kernel/tracing)", sys, name);
}

int rec_tracepoint_id(const char *sys, const char *name, uint64_t *id,
		      struct diag *d)
{
	const char *dir;
	char path[512];
	int r = rec_tracefs_find(&dir);
	if (r < 0) {
		tracefs_error(d, r, dir, sys, name);
		return r;
	}
	if (strchr(sys, '/') || strchr(name, '/') || sys[0] == '.' || name[0] == '.') {
		diag_set(d, "bad tracepoint name %s:%s", sys, name);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", dir, sys, name);
	FILE *f = fopen(path, "r");
	if (!f) {
		int err = errno;
		diag_set(d, "unknown tracepoint %s:%s (%s: %s; see %s/available_events)",
			 sys, name, path, strerror(err), dir);
		return -err;
	}
	unsigned long long v;
	int ok = fscanf(f, "%llu", &v) == 1;
	fclose(f);
	if (!ok) {
		diag_set(d, "%s: no tracepoint id", path);
		return -EINVAL;
	}
	*id = v;
	return 0;
}

/* Append the whole file at path; returns its size or -errno. */
static long long add_file(struct strbuf *out, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	long long total = 0;
	for (;;) {
		sb_grow(out, 65536);
		ssize_t n = fd_read(fd, out->buf + out->len, 65536);
		if (n <= 0)
			break;
		sb_setlen(out, out->len + (size_t)n);
		total += n;
	}
	close(fd);
	return total;
}

/* A size field of width bytes, then the file; the size is patched in. */
static int sized_file(struct strbuf *out, const char *path, size_t width)
{
	size_t at = out->len;
	uint64_t zero = 0;
	sb_add(out, &zero, width);
	long long n = add_file(out, path);
	if (n < 0) {
		sb_setlen(out, at + width);
		return (int)n;
	}
	if (width == 4) {
		uint32_t v = (uint32_t)n;
		memcpy(out->buf + at, &v, 4);
	} else {
		uint64_t v = (uint64_t)n;
		memcpy(out->buf + at, &v, 8);
	}
	return 0;
}

static bool in_list(const struct rec_event *evs, size_t nr, const char *sys,
		    const char *name)
{
	for (size_t i = 0; i < nr; i++) {
		if (evs[i].type != PERF_TYPE_TRACEPOINT)
			continue;
		const char *c = strchr(evs[i].name, ':');
		size_t n = c ? (size_t)(c - evs[i].name) : 0;
		if (!c || strlen(sys) != n || strncmp(evs[i].name, sys, n))
			continue;
		if (!name)
			return true;
		size_t len = strcspn(c + 1, ":");
		if (strlen(name) == len && !strncmp(c + 1, name, len))
			return true;
	}
	return false;
}

static bool is_subdir(const struct dirent *e)
{
	return e->d_type == DT_DIR && strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
}

/* The events of one system that are in evs: u32 count, then sized
 * format files. */
static int add_system(struct strbuf *out, const char *dir, const char *sys,
		      const struct rec_event *evs, size_t nr)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/events/%s", dir, sys);
	DIR *d = opendir(path);
	if (!d)
		return -errno;
	size_t at = out->len;
	uint32_t count = 0;
	sb_add(out, &count, 4);
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!is_subdir(e) || !in_list(evs, nr, sys, e->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/events/%s/%s/format", dir, sys,
			 e->d_name);
		if (sized_file(out, path, 8) == 0)
			count++;
		else
			sb_setlen(out, out->len - 8);
	}
	closedir(d);
	memcpy(out->buf + at, &count, 4);
	return 0;
}

static int add_systems(struct strbuf *out, const char *dir,
		       const struct rec_event *evs, size_t nr)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/events", dir);
	DIR *d = opendir(path);
	if (!d)
		return -errno;
	size_t at = out->len;
	uint32_t count = 0;
	sb_add(out, &count, 4);
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!is_subdir(e) || !strcmp(e->d_name, "ftrace") ||
		    !in_list(evs, nr, e->d_name, NULL))
			continue;
		sb_add(out, e->d_name, strlen(e->d_name) + 1);
		add_system(out, dir, e->d_name, evs, nr);
		count++;
	}
	closedir(d);
	memcpy(out->buf + at, &count, 4);
	return 0;
}

static void add_header(struct strbuf *out)
{
	static const char magic[10] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	uint16_t probe = 1;
	uint8_t big = *(uint8_t *)&probe == 0;
	uint8_t lsize = sizeof(long);
	uint32_t page = (uint32_t)sysconf(_SC_PAGESIZE);
	sb_add(out, magic, sizeof(magic));
	sb_add(out, "0.6", 4);
	sb_add(out, &big, 1);
	sb_add(out, &lsize, 1);
	sb_add(out, &page, 4);
}

int rec_tracing_data(struct strbuf *out, const struct rec_event *evs,
		     size_t nr, struct diag *d)
{
	const char *dir = rec_tracefs_dir();
	char path[512];
	int r;
	if (!dir) {
		diag_set(d, "tracefs is not available");
		return -ENOENT;
	}
	add_header(out);
	sb_add(out, "header_page", 12);
	snprintf(path, sizeof(path), "%s/events/header_page", dir);
	if ((r = sized_file(out, path, 8)) < 0)
		goto bad;
	sb_add(out, "header_event", 13);
	snprintf(path, sizeof(path), "%s/events/header_event", dir);
	if ((r = sized_file(out, path, 8)) < 0)
		goto bad;
	if ((r = add_system(out, dir, "ftrace", evs, nr)) < 0 ||
	    (r = add_systems(out, dir, evs, nr)) < 0) {
		snprintf(path, sizeof(path), "%s/events", dir);
		goto bad;
	}
	/* kallsyms: perf writes an empty one (the kernel map comes from the
	 * build-id cache instead) */
	uint32_t none = 0;
	sb_add(out, &none, 4);
	snprintf(path, sizeof(path), "%s/printk_formats", dir);
	if (sized_file(out, path, 4) < 0)
		memset(out->buf + out->len - 4, 0, 4);
	snprintf(path, sizeof(path), "%s/saved_cmdlines", dir);
	if (sized_file(out, path, 8) < 0)
		memset(out->buf + out->len - 8, 0, 8);
	return 0;
bad:
	diag_set(d, "%s: %s", path, strerror(-r));
	return r;
}
