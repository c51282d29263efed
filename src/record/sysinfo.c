/*
 * sysinfo: the header features that describe the recording host.
 * Stage: record. HOSTNAME, OSRELEASE, VERSION, ARCH, NRCPUS, CPUDESC,
 * CPUID, TOTAL_MEM and CMDLINE, encoded as perf's header.c writes them
 * (strings as perf_header_string, NRCPUS as u32 available then u32
 * online, TOTAL_MEM in kB). Invariant: a value we cannot read is written
 * empty or zero, never left out, so perf's header printer stays quiet.
 */
#include "record/record.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#ifndef SCORCH_VERSION
#define SCORCH_VERSION "0.0-dev"
#endif

static void string_feature(struct pd_writer *w, unsigned bit, const char *s)
{
	struct strbuf sb = SB_INIT;
	pd_feat_string(&sb, s);
	pd_writer_set_feature(w, bit, sb.buf, sb.len);
	sb_release(&sb);
}

/* Value of the first "key<spaces>: value" line of a /proc file. */
static void proc_field(const char *file, const char *key, char *out, size_t size)
{
	FILE *f = fopen(file, "r");
	char line[512];
	size_t klen = strlen(key);
	out[0] = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, klen))
			continue;
		char *v = line + klen + strspn(line + klen, " \t");
		if (*v != ':')
			continue;
		v++;
		v += strspn(v, " \t");
		v[strcspn(v, "\n")] = 0;
		snprintf(out, size, "%s", v);
		break;
	}
	fclose(f);
}

/* Highest cpu number in a list like "0-3,8" plus one. */
static uint32_t cpus_in(const char *path)
{
	FILE *f = fopen(path, "r");
	char buf[256];
	uint32_t max = 0;
	if (!f)
		return (uint32_t)sysconf(_SC_NPROCESSORS_CONF);
	if (fgets(buf, sizeof(buf), f)) {
		char *p = buf;
		while (*p) {
			char *end;
			unsigned long v = strtoul(p, &end, 10);
			if (end == p)
				break;
			if (v + 1 > max)
				max = (uint32_t)v + 1;
			p = end + strspn(end, ",-\n");
		}
	}
	fclose(f);
	return max;
}

/* Collapse runs of spaces, as perf does for the cpu description. */
static void squeeze(char *s)
{
	char *o = s;
	for (char *p = s; *p; p++)
		if (!(*p == ' ' && (o == s || o[-1] == ' ')))
			*o++ = *p;
	while (o > s && o[-1] == ' ')
		o--;
	*o = 0;
}

static void cpu_features(struct pd_writer *w)
{
	char desc[256], vendor[64], fam[32], model[32], step[32], id[256];
	proc_field("/proc/cpuinfo", "model name", desc, sizeof(desc));
	if (!desc[0])
		proc_field("/proc/cpuinfo", "Processor", desc, sizeof(desc));
	squeeze(desc);
	string_feature(w, PD_FEAT_CPUDESC, desc);
	proc_field("/proc/cpuinfo", "vendor_id", vendor, sizeof(vendor));
	proc_field("/proc/cpuinfo", "cpu family", fam, sizeof(fam));
	proc_field("/proc/cpuinfo", "model", model, sizeof(model));
	proc_field("/proc/cpuinfo", "stepping", step, sizeof(step));
	if (vendor[0])
		snprintf(id, sizeof(id), "%s,%s,%s,%s", vendor, fam, model, step);
	else
		proc_field("/proc/cpuinfo", "CPU implementer", id, sizeof(id));
	string_feature(w, PD_FEAT_CPUID, id);
}

static void nrcpus(struct pd_writer *w)
{
	struct strbuf sb = SB_INIT;
	pd_feat_u32(&sb, cpus_in("/sys/devices/system/cpu/present"));
	pd_feat_u32(&sb, (uint32_t)sysconf(_SC_NPROCESSORS_ONLN));
	pd_writer_set_feature(w, PD_FEAT_NRCPUS, sb.buf, sb.len);
	sb_release(&sb);
}

static void total_mem(struct pd_writer *w)
{
	char v[64];
	struct strbuf sb = SB_INIT;
	proc_field("/proc/meminfo", "MemTotal", v, sizeof(v));
	pd_feat_u64(&sb, strtoull(v, NULL, 10));
	pd_writer_set_feature(w, PD_FEAT_TOTAL_MEM, sb.buf, sb.len);
	sb_release(&sb);
}

static void cmdline(struct pd_writer *w, int argc, char **argv)
{
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	struct strbuf sb = SB_INIT;
	self[n > 0 ? n : 0] = 0;
	pd_feat_u32(&sb, (uint32_t)argc + 1);
	pd_feat_string(&sb, n > 0 ? self : "scorch");
	for (int i = 0; i < argc; i++)
		pd_feat_string(&sb, argv[i]);
	pd_writer_set_feature(w, PD_FEAT_CMDLINE, sb.buf, sb.len);
	sb_release(&sb);
}

/* First line of a sysfs file, without the newline ("" when unreadable). */
static void sysfs_line(const char *path, char *out, size_t size)
{
	FILE *f = fopen(path, "r");
	out[0] = 0;
	if (f) {
		if (!fgets(out, (int)size, f))
			out[0] = 0;
		fclose(f);
	}
	out[strcspn(out, "\n")] = 0;
}

static void topo_path(char *buf, size_t size, uint32_t cpu, const char *file)
{
	snprintf(buf, size, "/sys/devices/system/cpu/cpu%u/topology/%s", cpu, file);
}

/* A string list of the distinct values of one topology file. */
static void distinct_list(struct strbuf *sb, uint32_t ncpus, const char *file)
{
	struct strbuf seen = SB_INIT;   /* "\n"-separated values so far */
	uint32_t nr = 0;
	size_t at = sb->len;
	char path[256], v[1024];
	pd_feat_u32(sb, 0);
	for (uint32_t c = 0; c < ncpus; c++) {
		topo_path(path, sizeof(path), c, file);
		sysfs_line(path, v, sizeof(v));
		if (!v[0])
			continue;
		char key[1030];
		snprintf(key, sizeof(key), "\n%s\n", v);
		if (seen.len && strstr(seen.buf, key))
			continue;
		sb_addf(&seen, "\n%s\n", v);
		pd_feat_string(sb, v);
		nr++;
	}
	memcpy(sb->buf + at, &nr, 4);
	sb_release(&seen);
}

static uint32_t topo_u32(uint32_t cpu, const char *file)
{
	char path[256], v[64];
	topo_path(path, sizeof(path), cpu, file);
	sysfs_line(path, v, sizeof(v));
	return (uint32_t)strtoul(v, NULL, 10);
}

/* CPU_TOPOLOGY: package and core sibling lists, per-cpu core and socket
 * ids, then die lists and die ids (perf >= 5.x layout). */
static void cpu_topology(struct pd_writer *w)
{
	uint32_t n = cpus_in("/sys/devices/system/cpu/present");
	struct strbuf sb = SB_INIT;
	distinct_list(&sb, n, "core_siblings_list");
	distinct_list(&sb, n, "thread_siblings_list");
	for (uint32_t c = 0; c < n; c++) {
		pd_feat_u32(&sb, topo_u32(c, "core_id"));
		pd_feat_u32(&sb, topo_u32(c, "physical_package_id"));
	}
	distinct_list(&sb, n, "die_cpus_list");
	for (uint32_t c = 0; c < n; c++)
		pd_feat_u32(&sb, topo_u32(c, "die_id"));
	pd_writer_set_feature(w, PD_FEAT_CPU_TOPOLOGY, sb.buf, sb.len);
	sb_release(&sb);
}

/* PMU_MAPPINGS: u32 nr, then u32 type + name per event source. */
static void pmu_mappings(struct pd_writer *w)
{
	DIR *d = opendir("/sys/bus/event_source/devices");
	struct strbuf sb = SB_INIT;
	uint32_t nr = 0;
	char path[512], v[64];
	if (!d)
		return;
	pd_feat_u32(&sb, 0);
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type",
			 e->d_name);
		sysfs_line(path, v, sizeof(v));
		if (!v[0])
			continue;
		pd_feat_u32(&sb, (uint32_t)strtoul(v, NULL, 10));
		pd_feat_string(&sb, e->d_name);
		nr++;
	}
	closedir(d);
	memcpy(sb.buf, &nr, 4);
	if (nr)
		pd_writer_set_feature(w, PD_FEAT_PMU_MAPPINGS, sb.buf, sb.len);
	sb_release(&sb);
}

void rec_sysinfo_features(struct pd_writer *w, int argc, char **argv)
{
	struct utsname u;
	if (uname(&u) != 0)
		memset(&u, 0, sizeof(u));
	string_feature(w, PD_FEAT_HOSTNAME, u.nodename);
	string_feature(w, PD_FEAT_OSRELEASE, u.release);
	string_feature(w, PD_FEAT_VERSION, "scorch " SCORCH_VERSION);
	string_feature(w, PD_FEAT_ARCH, u.machine);
	nrcpus(w);
	cpu_features(w);
	total_mem(w);
	cmdline(w, argc, argv);
	cpu_topology(w);
	pmu_mappings(w);
}
