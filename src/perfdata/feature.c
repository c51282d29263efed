/*
 * feature: parsing and printing of perf.data header features
 * (perfdata-format.md §5).
 * Stage: perfdata. Parsers run over a cursor on the payload in the file's
 * byte order; they copy what they keep into the features' arena. A payload
 * that does not parse, or whose numbers only make sense byte-swapped
 * (perf 6.1's cross-endian inject copies some features raw), is marked
 * PD_FEAT_BAD: its fields stay empty and printing says "unreadable".
 * Printing follows perf report --header-only wording and order.
 */
#include "perfdata/feature.h"

#include "base/cursor.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "perfdata/record.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_LIST = 1 << 16 };

static const char *const feat_names[PD_FEAT_LAST_KNOWN] = {
	"RESERVED", "TRACING_DATA", "BUILD_ID", "HOSTNAME", "OSRELEASE",
	"VERSION", "ARCH", "NRCPUS", "CPUDESC", "CPUID", "TOTAL_MEM",
	"CMDLINE", "EVENT_DESC", "CPU_TOPOLOGY", "NUMA_TOPOLOGY",
	"BRANCH_STACK", "PMU_MAPPINGS", "GROUP_DESC", "AUXTRACE", "STAT",
	"CACHE", "SAMPLE_TIME", "MEM_TOPOLOGY", "CLOCKID", "DIR_FORMAT",
	"BPF_PROG_INFO", "BPF_BTF", "COMPRESSED", "CPU_PMU_CAPS",
	"CLOCK_DATA", "HYBRID_TOPOLOGY", "PMU_CAPS", "CPU_DOMAIN_INFO",
};

const char *pd_feature_name(unsigned bit)
{
	return bit < PD_FEAT_LAST_KNOWN ? feat_names[bit] : NULL;
}

void pd_features_release(struct pd_features *f)
{
	arena_release(&f->mem);
	memset(f, 0, sizeof(*f));
}

/* ---- parsing ---- */

/* perf_header_string: u32 len (NUL included, padded) + bytes. */
static const char *read_str(struct pd_features *f, struct cursor *c)
{
	uint32_t len = cur_u32(c);
	const char *p = (const char *)cur_bytes(c, len);

	if (!p || c->err)
		return NULL;
	return arena_strndup(&f->mem, p, strnlen(p, len));
}

static const char **read_str_list(struct pd_features *f, struct cursor *c,
				  size_t *nr)
{
	uint32_t n = cur_u32(c);
	const char **v;

	if (c->err || n > MAX_LIST || n > c->left / 4)
		return NULL;
	v = arena_alloc(&f->mem, (n + 1) * sizeof(*v));
	for (uint32_t i = 0; i < n; i++)
		if (!(v[i] = read_str(f, c)))
			return NULL;
	*nr = n;
	return v;
}

static int parse_event_desc(struct pd_features *f, struct cursor *c)
{
	uint32_t nr = cur_u32(c), asz = cur_u32(c);

	if (c->err || nr > MAX_LIST || asz < 64 || asz > 4096 ||
	    nr > c->left / (asz + 8))
		return -EINVAL;
	struct pd_event_desc *ev = arena_alloc(&f->mem, (nr + 1) * sizeof(*ev));
	memset(ev, 0, (nr + 1) * sizeof(*ev));
	for (uint32_t i = 0; i < nr; i++) {
		const uint8_t *p = cur_bytes(c, asz);
		if (!p || pd_attr_decode(&ev[i].attr, p, asz, c->swap) < 0)
			return -EINVAL;
		uint32_t nids = cur_u32(c);
		ev[i].name = read_str(f, c);
		if (!ev[i].name || nids > c->left / 8)
			return -EINVAL;
		uint64_t *ids = arena_alloc(&f->mem, (nids + 1) * 8);
		for (uint32_t j = 0; j < nids; j++)
			ids[j] = cur_u64(c);
		ev[i].ids = ids;
		ev[i].nr_ids = nids;
		ev[i].attr.index = i;
		ev[i].attr.name = ev[i].name;
		ev[i].attr.ids = ids;
		ev[i].attr.nr_ids = nids;
	}
	f->event_desc = ev;
	f->nr_event_desc = nr;
	return 0;
}

static int parse_pmu_mappings(struct pd_features *f, struct cursor *c)
{
	uint32_t nr = cur_u32(c);

	if (c->err || nr > MAX_LIST || nr > c->left / 8)
		return -EINVAL;
	f->pmu_type = arena_alloc(&f->mem, (nr + 1) * sizeof(uint32_t));
	f->pmu_name = arena_alloc(&f->mem, (nr + 1) * sizeof(char *));
	for (uint32_t i = 0; i < nr; i++) {
		f->pmu_type[i] = cur_u32(c);
		if (!(f->pmu_name[i] = read_str(f, c)))
			return -EINVAL;
	}
	f->nr_pmu = nr;
	return 0;
}

/* Fields that read as nonsense in this byte order (see EPROTO). */
static bool implausible(const struct pd_features *f, unsigned bit)
{
	switch (bit) {
	case PD_FEAT_NRCPUS:
		return f->nrcpus_avail > (1u << 20) ||
		       f->nrcpus_online > (1u << 20);
	case PD_FEAT_TOTAL_MEM:
		return f->total_mem_kb > ((uint64_t)1 << 40);
	case PD_FEAT_COMPRESSED:
		return f->compressed_type > 255;
	default:
		return false;
	}
}

static int parse_into(struct pd_features *f, unsigned bit, struct cursor *c)
{
	switch (bit) {
	case PD_FEAT_HOSTNAME: return (f->hostname = read_str(f, c)) ? 0 : -EINVAL;
	case PD_FEAT_OSRELEASE: return (f->osrelease = read_str(f, c)) ? 0 : -EINVAL;
	case PD_FEAT_VERSION: return (f->version = read_str(f, c)) ? 0 : -EINVAL;
	case PD_FEAT_ARCH: return (f->arch = read_str(f, c)) ? 0 : -EINVAL;
	case PD_FEAT_CPUDESC: return (f->cpudesc = read_str(f, c)) ? 0 : -EINVAL;
	case PD_FEAT_CPUID: return (f->cpuid = read_str(f, c)) ? 0 : -EINVAL;
	case PD_FEAT_NRCPUS:
		f->nrcpus_avail = cur_u32(c);
		f->nrcpus_online = cur_u32(c);
		break;
	case PD_FEAT_TOTAL_MEM:
		f->total_mem_kb = cur_u64(c);
		break;
	case PD_FEAT_CMDLINE:
		f->cmdline = read_str_list(f, c, &f->cmdline_nr);
		return f->cmdline ? 0 : -EINVAL;
	case PD_FEAT_EVENT_DESC:
		return parse_event_desc(f, c);
	case PD_FEAT_PMU_MAPPINGS:
		return parse_pmu_mappings(f, c);
	case PD_FEAT_SAMPLE_TIME:
		f->first_sample_time = cur_u64(c);
		f->last_sample_time = cur_u64(c);
		break;
	case PD_FEAT_CLOCKID:
		f->clockid_res_ns = cur_u64(c);
		break;
	case PD_FEAT_CLOCK_DATA:
		cur_u32(c);
		f->clock_data_clockid = cur_u32(c);
		f->clock_data_tod_ns = cur_u64(c);
		f->clock_data_clockid_ns = cur_u64(c);
		break;
	case PD_FEAT_COMPRESSED:
		cur_u32(c);
		f->compressed_type = cur_u32(c);
		f->compressed_level = cur_u32(c);
		f->compressed_ratio = cur_u32(c);
		f->compressed_mmap_len = cur_u32(c);
		break;
	default:
		return 0;   /* kept raw; printed from the raw bytes */
	}
	return c->err || implausible(f, bit) ? -EINVAL : 0;
}

/* Printing parsers for the raw-only features, run on a scratch copy
 * of f to test whether a payload parses at all. */
static int format_raw(const struct pd_features *f, unsigned bit,
		      bool details, struct strbuf *out, bool swap);
static void pd_feature_clear(struct pd_features *f, unsigned bit);

int pd_feature_parse(struct pd_features *f, unsigned bit,
		     const uint8_t *data, size_t size)
{
	struct cursor c;
	struct strbuf tmp = SB_INIT;
	int rc;

	if (bit >= PD_FEAT_MAX)
		return -EINVAL;
	f->raw[bit].data = data;
	f->raw[bit].size = size;
	cur_init(&c, data, size, 0, f->swap);
	rc = parse_into(f, bit, &c);
	if (rc == 0)
		rc = format_raw(f, bit, true, &tmp, f->swap);
	if (rc < 0) {
		/* Does it parse in the other byte order? Then say so. */
		struct pd_features probe;
		memset(&probe, 0, sizeof(probe));
		arena_init(&probe.mem);
		probe.raw[bit] = f->raw[bit];
		cur_init(&c, data, size, 0, !f->swap);
		bool other = parse_into(&probe, bit, &c) == 0 &&
			     format_raw(&probe, bit, true, &tmp, !f->swap) == 0;
		arena_release(&probe.mem);
		pd_feature_clear(f, bit);
		f->state[bit] = PD_FEAT_BAD;
		rc = other ? -EPROTO : -EINVAL;
	} else {
		f->state[bit] = PD_FEAT_OK;
	}
	sb_release(&tmp);
	return rc;
}

static void pd_feature_clear(struct pd_features *f, unsigned bit)
{
	switch (bit) {
	case PD_FEAT_HOSTNAME: f->hostname = NULL; break;
	case PD_FEAT_OSRELEASE: f->osrelease = NULL; break;
	case PD_FEAT_VERSION: f->version = NULL; break;
	case PD_FEAT_ARCH: f->arch = NULL; break;
	case PD_FEAT_CPUDESC: f->cpudesc = NULL; break;
	case PD_FEAT_CPUID: f->cpuid = NULL; break;
	case PD_FEAT_NRCPUS: f->nrcpus_avail = f->nrcpus_online = 0; break;
	case PD_FEAT_TOTAL_MEM: f->total_mem_kb = 0; break;
	case PD_FEAT_CMDLINE: f->cmdline = NULL; f->cmdline_nr = 0; break;
	case PD_FEAT_EVENT_DESC: f->event_desc = NULL; f->nr_event_desc = 0; break;
	case PD_FEAT_PMU_MAPPINGS: f->nr_pmu = 0; break;
	case PD_FEAT_SAMPLE_TIME:
		f->first_sample_time = f->last_sample_time = 0;
		break;
	case PD_FEAT_COMPRESSED: f->compressed_type = 0; break;
	default: break;
	}
}

/* ---- printing of raw-only features ---- */

/* A string read for printing (no arena): pointer + length. */
static bool pstr(struct cursor *c, const char **s, int *len)
{
	uint32_t n = cur_u32(c);
	const char *p = (const char *)cur_bytes(c, n);

	if (!p || c->err)
		return false;
	*s = p;
	*len = (int)strnlen(p, n);
	return true;
}

static int fmt_str_list(struct cursor *c, struct strbuf *out, const char *label)
{
	uint32_t nr = cur_u32(c);
	const char *s;
	int len;

	if (c->err || nr > c->left / 4)
		return -EINVAL;
	for (uint32_t i = 0; i < nr; i++) {
		if (!pstr(c, &s, &len))
			return -EINVAL;
		sb_addf(out, "# %s : %.*s\n", label, len, s);
	}
	return 0;
}

static int fmt_cpu_topology(const struct pd_features *f, struct cursor *c,
			    struct strbuf *out)
{
	struct strbuf threads = SB_INIT, dies = SB_INIT;
	uint32_t ncpu = f->nrcpus_avail;
	int rc = -EINVAL;

	if (fmt_str_list(c, out, "sibling sockets") < 0 ||
	    fmt_str_list(c, &threads, "sibling threads") < 0)
		goto out;
	if (ncpu && c->left >= (size_t)ncpu * 8) {
		struct cursor ids = cur_sub(c, (size_t)ncpu * 8);
		struct cursor die_ids;
		bool has_dies = c->left > 0;
		if (has_dies && (fmt_str_list(c, &dies, "sibling dies   ") < 0 ||
				 c->left < (size_t)ncpu * 4))
			goto out;
		die_ids = cur_sub(c, has_dies ? (size_t)ncpu * 4 : 0);
		sb_add(out, dies.buf, dies.len);
		sb_add(out, threads.buf, threads.len);
		for (uint32_t i = 0; i < ncpu; i++) {
			uint32_t core = cur_u32(&ids), sock = cur_u32(&ids);
			if (has_dies)
				sb_addf(out, "# CPU %u: Core ID %d, Die ID %d, "
					"Socket ID %d\n", i, (int)core,
					(int)cur_u32(&die_ids), (int)sock);
			else
				sb_addf(out, "# CPU %u: Core ID %d, Socket ID %d\n",
					i, (int)core, (int)sock);
		}
	} else {
		sb_add(out, threads.buf, threads.len);
		sb_adds(out, "# Core ID and Socket ID information is not available\n");
	}
	rc = 0;
out:
	sb_release(&threads);
	sb_release(&dies);
	return rc;
}

static int fmt_numa(struct cursor *c, struct strbuf *out)
{
	uint32_t nr = cur_u32(c);
	const char *s;
	int len;

	if (c->err || nr > c->left / 24)
		return -EINVAL;
	for (uint32_t i = 0; i < nr; i++) {
		uint32_t node = cur_u32(c);
		uint64_t total = cur_u64(c), free_kb = cur_u64(c);
		if (!pstr(c, &s, &len))
			return -EINVAL;
		sb_addf(out, "# node%u meminfo  : total = %" PRIu64 " kB, free = %"
			PRIu64 " kB\n", node, total, free_kb);
		sb_addf(out, "# node%u cpu list : %.*s\n", node, len, s);
	}
	return 0;
}

static int fmt_cache(struct cursor *c, struct strbuf *out)
{
	uint32_t ver = cur_u32(c), nr = cur_u32(c);
	const char *type, *size, *map;
	int tl, sl, ml;

	if (c->err || ver != 1 || nr > c->left / 28)
		return -EINVAL;
	sb_adds(out, "# CPU cache info:\n");
	for (uint32_t i = 0; i < nr; i++) {
		uint32_t level = cur_u32(c);
		cur_skip(c, 12);
		if (!pstr(c, &type, &tl) || !pstr(c, &size, &sl) ||
		    !pstr(c, &map, &ml))
			return -EINVAL;
		sb_addf(out, "#  L%d %-15.*s %8.*s [%.*s]\n", (int)level, tl,
			type, sl, size, ml, map);
	}
	return 0;
}

/* Name of event idx from EVENT_DESC, for group lines. */
static const char *ev_name(const struct pd_features *f, uint32_t idx)
{
	return idx < f->nr_event_desc ? f->event_desc[idx].name : "?";
}

static int fmt_group_desc(const struct pd_features *f, struct cursor *c,
			  struct strbuf *out)
{
	uint32_t nr = cur_u32(c);
	uint64_t events = f->nr_event_desc ? f->nr_event_desc : MAX_LIST;
	uint64_t next = 0;   /* groups come in event order, none overlapping */
	const char *s;
	int len;

	if (c->err || nr > c->left / 12)
		return -EINVAL;
	for (uint32_t i = 0; i < nr; i++) {
		if (!pstr(c, &s, &len))
			return -EINVAL;
		uint32_t leader = cur_u32(c), members = cur_u32(c);
		if (c->err || leader < next || leader >= events ||
		    members > events - leader)
			return -EINVAL;
		next = leader + (uint64_t)(members ? members : 1);
		if (members < 2)
			continue;
		sb_adds(out, "# group: ");
		if (strncmp(s, "{anon_group}", (size_t)len) != 0)
			sb_addf(out, "%.*s=", len, s);
		sb_addf(out, "{%s", ev_name(f, leader));
		for (uint32_t m = 1; m < members; m++)
			sb_addf(out, ",%s", ev_name(f, leader + m));
		sb_adds(out, "}\n");
	}
	return 0;
}

static int fmt_caps(struct cursor *c, struct strbuf *out, const char *pmu)
{
	uint32_t nr = cur_u32(c);
	const char *n, *v;
	int nl, vl;

	if (c->err || nr > c->left / 8)
		return -EINVAL;
	struct strbuf line = SB_INIT;
	for (uint32_t i = 0; i < nr; i++) {
		if (!pstr(c, &n, &nl) || !pstr(c, &v, &vl)) {
			sb_release(&line);
			return -EINVAL;
		}
		sb_addf(&line, "%s%.*s=%.*s", i ? ", " : "", nl, n, vl, v);
	}
	if (pmu)
		sb_addf(out, "# %s pmu capabilities: %s\n", pmu, line.buf);
	else if (nr)
		sb_addf(out, "# cpu pmu capabilities: %s\n", line.buf);
	else
		sb_adds(out, "# cpu pmu capabilities: not available\n");
	sb_release(&line);
	return 0;
}

static int fmt_pmu_caps(struct cursor *c, struct strbuf *out)
{
	uint32_t nr = cur_u32(c);

	if (c->err || nr > c->left / 8)
		return -EINVAL;
	for (uint32_t i = 0; i < nr; i++) {
		struct strbuf caps = SB_INIT;
		/* caps come before the pmu name: print after reading both */
		struct cursor save = *c;
		uint32_t n = cur_u32(c);
		const char *s;
		int len;
		for (uint32_t j = 0; j < 2 * n && !c->err; j++)
			pstr(c, &s, &len);
		if (c->err || !pstr(c, &s, &len)) {
			sb_release(&caps);
			return -EINVAL;
		}
		char name[128];
		snprintf(name, sizeof(name), "%.*s", len, s);
		fmt_caps(&save, &caps, name);
		sb_add(out, caps.buf, caps.len);
		sb_release(&caps);
	}
	return 0;
}

static int fmt_hybrid(struct cursor *c, struct strbuf *out)
{
	uint32_t nr = cur_u32(c);
	const char *p, *cpus;
	int pl, cl;

	if (c->err || nr > c->left / 8)
		return -EINVAL;
	sb_adds(out, "# hybrid cpu system:\n");
	for (uint32_t i = 0; i < nr; i++) {
		if (!pstr(c, &p, &pl) || !pstr(c, &cpus, &cl))
			return -EINVAL;
		sb_addf(out, "# %.*s cpu list : %.*s\n", pl, p, cl, cpus);
	}
	return 0;
}

/* perf's unit_number__scnprintf: 1024-based, integer division. */
static void add_units(struct strbuf *out, uint64_t n)
{
	static const char units[] = "BKMGTPEZY";
	size_t i = 0;

	while (n / 1024 > 1 && i < sizeof(units) - 2) {
		n /= 1024;
		i++;
	}
	sb_addf(out, "%" PRIu64 "%c", n, units[i]);
}

/* Set bits of a bitmap as "0-19,32-105". */
static void add_ranges(struct strbuf *out, struct cursor words, uint64_t nbits)
{
	uint64_t w = 0, start = 0;
	bool in = false, first = true;

	for (uint64_t i = 0; i <= nbits; i++) {
		if (i % 64 == 0 && i < nbits)
			w = cur_u64(&words);
		bool set = i < nbits && (w >> (i % 64) & 1);
		if (set && !in) {
			start = i;
			in = true;
		} else if (!set && in) {
			sb_addf(out, "%s%" PRIu64, first ? "" : ",", start);
			if (i - 1 > start)
				sb_addf(out, "-%" PRIu64, i - 1);
			first = false;
			in = false;
		}
	}
}

static uint64_t popcount_words(struct cursor words, uint64_t nbits)
{
	uint64_t n = 0;

	for (uint64_t i = 0; i < (nbits + 63) / 64; i++) {
		uint64_t w = cur_u64(&words);
		if (nbits - i * 64 < 64)
			w &= ((uint64_t)1 << (nbits - i * 64)) - 1;
		n += (uint64_t)__builtin_popcountll(w);
	}
	return n;
}

static int fmt_mem_topology(struct cursor *c, struct strbuf *out)
{
	uint64_t ver = cur_u64(c), bsize = cur_u64(c), nr = cur_u64(c);

	if (c->err || ver != 1 || nr > c->left / 24)
		return -EINVAL;
	sb_addf(out, "# memory nodes (nr %" PRIu64 ", block size 0x%" PRIx64
		"):\n", nr, bsize);
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t node = cur_u64(c);
		cur_u64(c);
		uint64_t bits = cur_u64(c);
		if (c->err || bits / 64 + 1 > c->left / 8)
			return -EINVAL;
		struct cursor words = cur_sub(c, (size_t)((bits + 63) / 64) * 8);
		if (words.err)
			return -EINVAL;
		sb_addf(out, "#  %3" PRIu64 " [", node);
		add_units(out, popcount_words(words, bits) * bsize);
		sb_adds(out, "]: ");
		add_ranges(out, words, bits);
		sb_addc(out, '\n');
	}
	return 0;
}

static int fmt_build_ids(struct cursor *c)
{
	while (c->left) {
		struct cursor h = *c;
		cur_u32(&h);
		cur_u16(&h);
		uint16_t size = cur_u16(&h);
		if (h.err || size < 8 || !cur_skip(c, size))
			return -EINVAL;
	}
	return 0;
}

static int format_raw(const struct pd_features *f, unsigned bit,
		      bool details, struct strbuf *out, bool swap)
{
	struct cursor c;

	cur_init(&c, f->raw[bit].data, f->raw[bit].size, 0, swap);
	switch (bit) {
	case PD_FEAT_BUILD_ID: return fmt_build_ids(&c);
	case PD_FEAT_CPU_TOPOLOGY: return fmt_cpu_topology(f, &c, out);
	case PD_FEAT_NUMA_TOPOLOGY: return fmt_numa(&c, out);
	case PD_FEAT_CACHE: return fmt_cache(&c, out);
	case PD_FEAT_GROUP_DESC: return fmt_group_desc(f, &c, out);
	case PD_FEAT_CPU_PMU_CAPS: return fmt_caps(&c, out, NULL);
	case PD_FEAT_PMU_CAPS: return fmt_pmu_caps(&c, out);
	case PD_FEAT_HYBRID_TOPOLOGY: return fmt_hybrid(&c, out);
	case PD_FEAT_MEM_TOPOLOGY: return fmt_mem_topology(&c, out);
	default: return 0;
	}
}

/* ---- printing ---- */

static void line_str(struct strbuf *out, const char *label, const char *s)
{
	sb_addf(out, "# %s : %s\n", label, s ? s : "(null)");
}

static bool full_only(unsigned bit)
{
	return bit == PD_FEAT_CPU_TOPOLOGY || bit == PD_FEAT_NUMA_TOPOLOGY ||
	       bit == PD_FEAT_CACHE || bit == PD_FEAT_MEM_TOPOLOGY;
}

static void fmt_sample_time(const struct pd_features *f, struct strbuf *out)
{
	char a[32], b[32];
	uint64_t d = f->last_sample_time - f->first_sample_time;

	sb_addf(out, "# time of first sample : %s\n",
		pd_time_str(f->first_sample_time, a, sizeof(a)));
	sb_addf(out, "# time of last sample : %s\n",
		pd_time_str(f->last_sample_time, b, sizeof(b)));
	sb_addf(out, "# sample duration : %10.3f ms\n", (double)d / 1e6);
}

static void fmt_known(const struct pd_features *f, unsigned bit,
		      struct strbuf *out)
{
	switch (bit) {
	case PD_FEAT_HOSTNAME: line_str(out, "hostname", f->hostname); break;
	case PD_FEAT_OSRELEASE: line_str(out, "os release", f->osrelease); break;
	case PD_FEAT_VERSION: line_str(out, "perf version", f->version); break;
	case PD_FEAT_ARCH: line_str(out, "arch", f->arch); break;
	case PD_FEAT_CPUDESC: line_str(out, "cpudesc", f->cpudesc); break;
	case PD_FEAT_CPUID: line_str(out, "cpuid", f->cpuid); break;
	case PD_FEAT_NRCPUS:
		sb_addf(out, "# nrcpus online : %u\n# nrcpus avail : %u\n",
			f->nrcpus_online, f->nrcpus_avail);
		break;
	case PD_FEAT_TOTAL_MEM:
		sb_addf(out, "# total memory : %" PRIu64 " kB\n", f->total_mem_kb);
		break;
	case PD_FEAT_CMDLINE:
		sb_adds(out, "# cmdline : ");
		for (size_t i = 0; i < f->cmdline_nr; i++)
			sb_addf(out, "%s ", f->cmdline[i]);
		sb_addc(out, '\n');
		break;
	case PD_FEAT_PMU_MAPPINGS:
		sb_adds(out, "# pmu mappings: ");
		for (size_t i = 0; i < f->nr_pmu; i++)
			sb_addf(out, "%s%s = %u", i ? ", " : "", f->pmu_name[i],
				f->pmu_type[i]);
		sb_adds(out, f->nr_pmu ? "\n" : "not available\n");
		break;
	case PD_FEAT_SAMPLE_TIME: fmt_sample_time(f, out); break;
	case PD_FEAT_BRANCH_STACK:
		sb_adds(out, "# contains samples with branch stack\n");
		break;
	case PD_FEAT_AUXTRACE:
		sb_adds(out, "# contains AUX area data (e.g. instruction trace)\n");
		break;
	case PD_FEAT_STAT: sb_adds(out, "# contains stat data\n"); break;
	case PD_FEAT_CLOCKID:
		sb_addf(out, "# clockid frequency: %" PRIu64 " MHz\n",
			f->clockid_res_ns ? 1000 / f->clockid_res_ns : 0);
		break;
	case PD_FEAT_COMPRESSED:
		sb_addf(out, "# compressed : %s, level = %u, ratio = %u\n",
			f->compressed_type == 1 ? "Zstd" : "Unknown",
			f->compressed_level, f->compressed_ratio);
		break;
	default: break;
	}
}

/* perf's wording for the features it prints on one line. */
static const char *const labels[PD_FEAT_LAST_KNOWN] = {
	[PD_FEAT_HOSTNAME] = "hostname", [PD_FEAT_OSRELEASE] = "os release",
	[PD_FEAT_VERSION] = "perf version", [PD_FEAT_ARCH] = "arch",
	[PD_FEAT_NRCPUS] = "nrcpus", [PD_FEAT_CPUDESC] = "cpudesc",
	[PD_FEAT_CPUID] = "cpuid", [PD_FEAT_TOTAL_MEM] = "total memory",
	[PD_FEAT_CMDLINE] = "cmdline", [PD_FEAT_EVENT_DESC] = "event",
	[PD_FEAT_PMU_MAPPINGS] = "pmu mappings",
	[PD_FEAT_SAMPLE_TIME] = "time of first sample",
};

int pd_feature_format(const struct pd_features *f, unsigned bit,
		      bool details, struct strbuf *out)
{
	const char *name = pd_feature_name(bit);

	if (bit >= PD_FEAT_MAX || f->state[bit] == PD_FEAT_ABSENT)
		return 0;
	if (f->state[bit] == PD_FEAT_BAD) {
		const char *label = bit < PD_FEAT_LAST_KNOWN && labels[bit] ?
				    labels[bit] : name;
		sb_addf(out, "# %s : (unreadable)\n", label ? label : "unknown feature");
		return -EINVAL;
	}
	if (full_only(bit) && !details) {
		sb_addf(out, "# %s info available, use -I to display\n", name);
		return 0;
	}
	fmt_known(f, bit, out);
	return format_raw(f, bit, details, out, f->swap);
}

/* ---- BUILD_ID entries ---- */

int pd_feature_build_id_next(const struct pd_features *f, size_t *pos,
			     struct pd_build_id *b)
{
	const struct pd_feature_raw *raw = &f->raw[PD_FEAT_BUILD_ID];
	struct cursor c, e;

	if (f->state[PD_FEAT_BUILD_ID] == PD_FEAT_ABSENT || *pos >= raw->size)
		return 0;
	cur_init(&c, raw->data + *pos, raw->size - *pos, raw->offset + *pos, f->swap);
	cur_u32(&c);
	uint16_t misc = cur_u16(&c), size = cur_u16(&c);
	if (c.err || size < 8 + 4 + 24 || size - 8u > c.left)
		return -EINVAL;
	e = cur_sub(&c, size - 8u);
	memset(b, 0, sizeof(*b));
	b->cpumode = misc & PD_MISC_CPUMODE_MASK;
	b->pid = (int32_t)cur_u32(&e);
	memcpy(b->build_id, cur_bytes(&e, 20), 20);
	b->size = cur_u8(&e);
	cur_skip(&e, 3);
	if (!(misc & PD_MISC_BUILD_ID_SIZE) || b->size > 20)
		b->size = 20;
	b->filename = (const char *)e.p;
	if (!memchr(e.p, 0, e.left))
		return -EINVAL;
	*pos += size;
	return 1;
}
