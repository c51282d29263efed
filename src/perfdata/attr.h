/*
 * attr: decoded perf_event_attr entries (one per event in a perf.data file).
 * Stage: perfdata. Attrs come from the file's attrs section (file mode) or
 * from HEADER_ATTR records (pipe mode); fields are in host byte order, the
 * flags word is normalised to the little-endian bit numbering (bit 10 =
 * freq, 18 = sample_id_all, ...) whatever the writer's byte order, and
 * fields beyond the attr's own size read as zero.
 * Ownership: a struct pd_attr belongs to the reader that produced it and
 * lives until pd_reader_free; name and ids are owned by the reader too.
 */
#ifndef SCORCH_PERFDATA_ATTR_H
#define SCORCH_PERFDATA_ATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* perf_event_attr.type */
enum {
	PD_TYPE_HARDWARE = 0,
	PD_TYPE_SOFTWARE = 1,
	PD_TYPE_TRACEPOINT = 2,
	PD_TYPE_HW_CACHE = 3,
	PD_TYPE_RAW = 4,
	PD_TYPE_BREAKPOINT = 5,
};

/* sample_type bits (perf_event_sample_format) */
enum {
	PD_SAMPLE_IP = 1u << 0,
	PD_SAMPLE_TID = 1u << 1,
	PD_SAMPLE_TIME = 1u << 2,
	PD_SAMPLE_ADDR = 1u << 3,
	PD_SAMPLE_READ = 1u << 4,
	PD_SAMPLE_CALLCHAIN = 1u << 5,
	PD_SAMPLE_ID = 1u << 6,
	PD_SAMPLE_CPU = 1u << 7,
	PD_SAMPLE_PERIOD = 1u << 8,
	PD_SAMPLE_STREAM_ID = 1u << 9,
	PD_SAMPLE_RAW = 1u << 10,
	PD_SAMPLE_BRANCH_STACK = 1u << 11,
	PD_SAMPLE_REGS_USER = 1u << 12,
	PD_SAMPLE_STACK_USER = 1u << 13,
	PD_SAMPLE_WEIGHT = 1u << 14,
	PD_SAMPLE_DATA_SRC = 1u << 15,
	PD_SAMPLE_IDENTIFIER = 1u << 16,
	PD_SAMPLE_TRANSACTION = 1u << 17,
	PD_SAMPLE_REGS_INTR = 1u << 18,
	PD_SAMPLE_PHYS_ADDR = 1u << 19,
	PD_SAMPLE_AUX = 1u << 20,
	PD_SAMPLE_CGROUP = 1u << 21,
	PD_SAMPLE_DATA_PAGE_SIZE = 1u << 22,
	PD_SAMPLE_CODE_PAGE_SIZE = 1u << 23,
	PD_SAMPLE_WEIGHT_STRUCT = 1u << 24,
};

/* read_format bits */
enum {
	PD_FORMAT_TOTAL_TIME_ENABLED = 1u << 0,
	PD_FORMAT_TOTAL_TIME_RUNNING = 1u << 1,
	PD_FORMAT_ID = 1u << 2,
	PD_FORMAT_GROUP = 1u << 3,
	PD_FORMAT_LOST = 1u << 4,
};

/* Bit numbers in pd_attr.flags (little-endian numbering, see §3.2). */
enum {
	PD_ATTR_DISABLED = 0, PD_ATTR_INHERIT = 1, PD_ATTR_PINNED = 2,
	PD_ATTR_EXCLUSIVE = 3, PD_ATTR_EXCLUDE_USER = 4,
	PD_ATTR_EXCLUDE_KERNEL = 5, PD_ATTR_EXCLUDE_HV = 6,
	PD_ATTR_EXCLUDE_IDLE = 7, PD_ATTR_MMAP = 8, PD_ATTR_COMM = 9,
	PD_ATTR_FREQ = 10, PD_ATTR_INHERIT_STAT = 11,
	PD_ATTR_ENABLE_ON_EXEC = 12, PD_ATTR_TASK = 13,
	PD_ATTR_WATERMARK = 14, PD_ATTR_PRECISE_IP = 15, /* 2 bits: 15-16 */
	PD_ATTR_MMAP_DATA = 17, PD_ATTR_SAMPLE_ID_ALL = 18,
	PD_ATTR_EXCLUDE_HOST = 19, PD_ATTR_EXCLUDE_GUEST = 20,
	PD_ATTR_EXCLUDE_CALLCHAIN_KERNEL = 21,
	PD_ATTR_EXCLUDE_CALLCHAIN_USER = 22, PD_ATTR_MMAP2 = 23,
	PD_ATTR_COMM_EXEC = 24, PD_ATTR_USE_CLOCKID = 25,
	PD_ATTR_CONTEXT_SWITCH = 26, PD_ATTR_WRITE_BACKWARD = 27,
	PD_ATTR_NAMESPACES = 28, PD_ATTR_KSYMBOL = 29, PD_ATTR_BPF_EVENT = 30,
	PD_ATTR_AUX_OUTPUT = 31, PD_ATTR_CGROUP = 32, PD_ATTR_TEXT_POKE = 33,
	PD_ATTR_BUILD_ID = 34, PD_ATTR_INHERIT_THREAD = 35,
	PD_ATTR_REMOVE_ON_EXEC = 36, PD_ATTR_SIGTRAP = 37,
};

struct pd_attr {
	uint32_t type;
	uint32_t size;              /* as written; 0 means VER0 (64) */
	uint64_t config;
	uint64_t sample_period;     /* sample_freq when freq is set */
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t flags;             /* normalised bit field, PD_ATTR_* */
	uint32_t wakeup_events;
	uint32_t bp_type;
	uint64_t config1;           /* bp_addr, kprobe_func, ... */
	uint64_t config2;           /* bp_len, probe_offset, ... */
	uint64_t branch_sample_type;
	uint64_t sample_regs_user;
	uint32_t sample_stack_user;
	int32_t clockid;
	uint64_t sample_regs_intr;
	uint32_t aux_watermark;
	uint16_t sample_max_stack;
	uint32_t aux_sample_size;
	uint64_t sig_data;
	uint64_t config3;

	size_t index;               /* position among the reader's attrs */
	const char *name;           /* event name: EVENT_DESC, EVENT_UPDATE or a
				     * default such as "cpu-clock"; never NULL */
	const uint64_t *ids;        /* sample ids of this event (host order) */
	size_t nr_ids;
};

static inline bool pd_attr_flag(const struct pd_attr *a, unsigned bit)
{
	return (a->flags >> bit) & 1;
}

static inline unsigned pd_attr_precise_ip(const struct pd_attr *a)
{
	return (unsigned)(a->flags >> PD_ATTR_PRECISE_IP) & 3;
}

/* Decode one attr of len bytes (the attr only, not the trailing ids
 * section) in file byte order (swap set for a foreign-endian file).
 * Returns 0, or -EINVAL when len is below 64 bytes or attr.size is
 * larger than len; the rest of *a is left untouched (index/name/ids). */
int pd_attr_decode(struct pd_attr *a, const void *p, size_t len, bool swap);

/* perf's default name for an event without EVENT_DESC ("cpu-clock",
 * "cycles", "raw 0x1234", "tracepoint 312", ...) into buf. */
void pd_attr_default_name(const struct pd_attr *a, char *buf, size_t size);

/* "IP|TID|TIME|CALLCHAIN|PERIOD" as perf prints sample_type. */
void pd_attr_sample_type_str(uint64_t sample_type, char *buf, size_t size);

/* The attr fields perf report --header-only lists after an event's name
 * and ids, each as ", field = value" (only non-zero fields, perf's order
 * and number formats). */
struct strbuf;
void pd_attr_format(const struct pd_attr *a, struct strbuf *out);

#endif
