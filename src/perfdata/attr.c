/*
 * attr: decoding perf_event_attr and naming events the way perf does.
 * Stage: perfdata. Input is untrusted: only the bytes inside attr.size
 * (and inside the buffer) are read; the rest of the struct reads as zero.
 * The flags word is rebuilt bit by bit so that the bit numbering is the
 * little-endian one even for big-endian writers (perfdata-format.md §3.2).
 */
#include "perfdata/attr.h"

#include "base/cursor.h"
#include "base/strbuf.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Reverse the bits of one byte (big-endian bit-field order). */
static uint8_t rev8(uint8_t b)
{
	b = (uint8_t)((b & 0xf0) >> 4 | (b & 0x0f) << 4);
	b = (uint8_t)((b & 0xcc) >> 2 | (b & 0x33) << 2);
	return (uint8_t)((b & 0xaa) >> 1 | (b & 0x55) << 1);
}

static uint64_t decode_flags(const uint8_t *f, bool big_endian)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < 8; i++)
		v |= (uint64_t)(big_endian ? rev8(f[i]) : f[i]) << (8 * i);
	return v;
}

static bool host_big_endian(void)
{
	const uint16_t one = 1;
	uint8_t b;
	memcpy(&b, &one, 1);
	return b == 0;
}

int pd_attr_decode(struct pd_attr *a, const void *p, size_t len, bool swap)
{
	uint8_t buf[136];
	struct cursor c;
	uint32_t size;

	if (len < 64)
		return -EINVAL;
	cur_init(&c, (const uint8_t *)p + 4, 4, 0, swap);
	size = cur_u32(&c);
	if (size == 0)
		size = 64;
	if (size < 64 || size > len)
		return -EINVAL;
	memset(buf, 0, sizeof(buf));
	memcpy(buf, p, size < sizeof(buf) ? size : sizeof(buf));

	cur_init(&c, buf, sizeof(buf), 0, swap);
	a->type = cur_u32(&c);
	a->size = cur_u32(&c);
	a->config = cur_u64(&c);
	a->sample_period = cur_u64(&c);
	a->sample_type = cur_u64(&c);
	a->read_format = cur_u64(&c);
	a->flags = decode_flags(cur_bytes(&c, 8), host_big_endian() != swap);
	a->wakeup_events = cur_u32(&c);
	a->bp_type = cur_u32(&c);
	a->config1 = cur_u64(&c);
	a->config2 = cur_u64(&c);
	a->branch_sample_type = cur_u64(&c);
	a->sample_regs_user = cur_u64(&c);
	a->sample_stack_user = cur_u32(&c);
	a->clockid = (int32_t)cur_u32(&c);
	a->sample_regs_intr = cur_u64(&c);
	a->aux_watermark = cur_u32(&c);
	a->sample_max_stack = cur_u16(&c);
	cur_u16(&c);
	a->aux_sample_size = cur_u32(&c);
	cur_u32(&c);
	a->sig_data = cur_u64(&c);
	a->config3 = cur_u64(&c);
	return 0;
}

static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses",
	"branches", "branch-misses", "bus-cycles", "stalled-cycles-frontend",
	"stalled-cycles-backend", "ref-cycles",
};

static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches",
	"cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
	"emulation-faults", "dummy", "bpf-output", "cgroup-switches",
};

static const char *const cache_names[] = {
	"L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB", "branch", "node",
};
static const char *const cache_ops[] = { "load", "store", "prefetch" };
static const char *const cache_ops_plural[] = { "loads", "stores", "prefetches" };

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static void cache_name(uint64_t config, char *buf, size_t size)
{
	uint64_t id = config & 0xff, op = (config >> 8) & 0xff;
	uint64_t res = (config >> 16) & 0xff;

	if (id >= NELEM(cache_names) || op >= NELEM(cache_ops) || res > 1) {
		snprintf(buf, size, "unknown-cache-0x%" PRIx64, config);
		return;
	}
	if (res == 0)
		snprintf(buf, size, "%s-%s", cache_names[id], cache_ops_plural[op]);
	else
		snprintf(buf, size, "%s-%s-misses", cache_names[id], cache_ops[op]);
}

/* perf's modifier suffix (":u", ":ppp", ":HG", ...). */
static void add_modifiers(const struct pd_attr *a, char *buf, size_t size)
{
	char mod[16];
	size_t n = 0;
	bool guest_default = false;

	if (pd_attr_flag(a, PD_ATTR_EXCLUDE_KERNEL) ||
	    pd_attr_flag(a, PD_ATTR_EXCLUDE_USER) ||
	    pd_attr_flag(a, PD_ATTR_EXCLUDE_HV)) {
		if (!pd_attr_flag(a, PD_ATTR_EXCLUDE_KERNEL))
			mod[n++] = 'k';
		if (!pd_attr_flag(a, PD_ATTR_EXCLUDE_USER))
			mod[n++] = 'u';
		if (!pd_attr_flag(a, PD_ATTR_EXCLUDE_HV))
			mod[n++] = 'h';
		guest_default = true;
	}
	for (unsigned i = 0; i < pd_attr_precise_ip(a); i++)
		mod[n++] = 'p';
	if (pd_attr_precise_ip(a))
		guest_default = true;
	if (pd_attr_flag(a, PD_ATTR_EXCLUDE_HOST) ||
	    pd_attr_flag(a, PD_ATTR_EXCLUDE_GUEST) == guest_default) {
		if (!pd_attr_flag(a, PD_ATTR_EXCLUDE_HOST))
			mod[n++] = 'H';
		if (!pd_attr_flag(a, PD_ATTR_EXCLUDE_GUEST))
			mod[n++] = 'G';
	}
	mod[n] = 0;
	if (n) {
		size_t len = strlen(buf);
		if (len + 1 < size)
			snprintf(buf + len, size - len, ":%s", mod);
	}
}

void pd_attr_default_name(const struct pd_attr *a, char *buf, size_t size)
{
	uint64_t cfg = a->config & 0xffffffffu;

	switch (a->type) {
	case PD_TYPE_HARDWARE:
		if (cfg < NELEM(hw_names))
			snprintf(buf, size, "%s", hw_names[cfg]);
		else
			snprintf(buf, size, "unknown-hardware");
		break;
	case PD_TYPE_SOFTWARE:
		if (cfg < NELEM(sw_names))
			snprintf(buf, size, "%s", sw_names[cfg]);
		else
			snprintf(buf, size, "unknown-software");
		break;
	case PD_TYPE_TRACEPOINT:
		snprintf(buf, size, "tracepoint:%" PRIu64, a->config);
		return;
	case PD_TYPE_HW_CACHE:
		cache_name(cfg, buf, size);
		break;
	case PD_TYPE_RAW:
		snprintf(buf, size, "r%" PRIx64, a->config);
		break;
	case PD_TYPE_BREAKPOINT:
		snprintf(buf, size, "mem:0x%" PRIx64, a->config1);
		return;
	default:
		snprintf(buf, size, "pmu%" PRIu32 "/config=0x%" PRIx64 "/",
			 a->type, a->config);
		return;
	}
	add_modifiers(a, buf, size);
}

static const char *const sample_bits[] = {
	[0] = "IP", [1] = "TID", [2] = "TIME", [3] = "ADDR", [4] = "READ",
	[5] = "CALLCHAIN", [6] = "ID", [7] = "CPU", [8] = "PERIOD",
	[9] = "STREAM_ID", [10] = "RAW", [11] = "BRANCH_STACK",
	[12] = "REGS_USER", [13] = "STACK_USER", [16] = "IDENTIFIER",
	[18] = "REGS_INTR", [15] = "DATA_SRC", [14] = "WEIGHT",
	[19] = "PHYS_ADDR", [20] = "AUX", [21] = "CGROUP",
	[22] = "DATA_PAGE_SIZE", [23] = "CODE_PAGE_SIZE",
	[24] = "WEIGHT_STRUCT",
};

/* perf prints the bits in this order, not by bit number. */
static const unsigned char sample_order[] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 18, 15, 14, 19,
	20, 21, 22, 23, 24,
};

void pd_attr_sample_type_str(uint64_t sample_type, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = 0;
	for (size_t i = 0; i < sizeof(sample_order) && n < size; i++) {
		unsigned bit = sample_order[i];
		if (!(sample_type >> bit & 1))
			continue;
		int w = snprintf(buf + n, size - n, "%s%s", n ? "|" : "",
				 sample_bits[bit]);
		if (w < 0)
			break;
		n += (size_t)w;
	}
}

/* ---- perf's "# event :" attr listing ---- */

static const char *const flag_names[38] = {
	"disabled", "inherit", "pinned", "exclusive", "exclude_user",
	"exclude_kernel", "exclude_hv", "exclude_idle", "mmap", "comm", "freq",
	"inherit_stat", "enable_on_exec", "task", "watermark", "precise_ip",
	NULL, "mmap_data", "sample_id_all", "exclude_host", "exclude_guest",
	"exclude_callchain_kernel", "exclude_callchain_user", "mmap2",
	"comm_exec", "use_clockid", "context_switch", "write_backward",
	"namespaces", "ksymbol", "bpf_event", "aux_output", "cgroup",
	"text_poke", "build_id", "inherit_thread", "remove_on_exec", "sigtrap",
};

static const char *const branch_names[] = {
	"USER", "KERNEL", "HV", "ANY", "ANY_CALL", "ANY_RETURN", "IND_CALL",
	"ABORT_TX", "IN_TX", "NO_TX", "COND", "CALL_STACK", "IND_JUMP", "CALL",
	"NO_FLAGS", "NO_CYCLES", "TYPE_SAVE", "HW_INDEX",
};

static const char *const read_names[] = {
	"TOTAL_TIME_ENABLED", "TOTAL_TIME_RUNNING", "ID", "GROUP", "LOST",
};

static void add_bits(struct strbuf *out, const char *label, uint64_t v,
		     const char *const *names, size_t n)
{
	bool first = true;

	if (!v)
		return;
	sb_addf(out, ", %s = ", label);
	for (size_t i = 0; i < n; i++) {
		if (v >> i & 1) {
			sb_addf(out, "%s%s", first ? "" : "|", names[i]);
			first = false;
		}
	}
}

static void add_u(struct strbuf *out, const char *label, uint64_t v)
{
	if (v)
		sb_addf(out, ", %s = %" PRIu64, label, v);
}

static void add_x(struct strbuf *out, const char *label, uint64_t v)
{
	if (v)
		sb_addf(out, ", %s = %#" PRIx64, label, v);
}

void pd_attr_format(const struct pd_attr *a, struct strbuf *out)
{
	char st[256];

	add_u(out, "type", a->type);
	add_u(out, "size", a->size);
	add_x(out, "config", a->config);
	add_u(out, "{ sample_period, sample_freq }", a->sample_period);
	pd_attr_sample_type_str(a->sample_type, st, sizeof(st));
	if (a->sample_type)
		sb_addf(out, ", sample_type = %s", st);
	add_bits(out, "read_format", a->read_format, read_names, NELEM(read_names));
	for (unsigned i = 0; i < NELEM(flag_names); i++) {
		if (i == PD_ATTR_PRECISE_IP)
			add_u(out, "precise_ip", pd_attr_precise_ip(a));
		else if (flag_names[i])
			add_u(out, flag_names[i], pd_attr_flag(a, i));
	}
	add_u(out, "{ wakeup_events, wakeup_watermark }", a->wakeup_events);
	add_u(out, "bp_type", a->bp_type);
	add_x(out, "{ bp_addr, config1 }", a->config1);
	add_x(out, "{ bp_len, config2 }", a->config2);
	add_bits(out, "branch_sample_type", a->branch_sample_type, branch_names,
		 NELEM(branch_names));
	add_x(out, "sample_regs_user", a->sample_regs_user);
	add_u(out, "sample_stack_user", a->sample_stack_user);
	if (a->clockid)
		sb_addf(out, ", clockid = %" PRId32, a->clockid);
	add_x(out, "sample_regs_intr", a->sample_regs_intr);
	add_u(out, "aux_watermark", a->aux_watermark);
	add_u(out, "sample_max_stack", a->sample_max_stack);
	add_u(out, "aux_sample_size", a->aux_sample_size);
	add_u(out, "sig_data", a->sig_data);
}
