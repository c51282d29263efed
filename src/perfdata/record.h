/*
 * record: decoded perf.data records (samples, mmaps, comms, ...).
 * Stage: perfdata. The reader turns each raw record into one of these
 * structs before calling a handler (reader.h). All integers are in host
 * byte order. Byte blobs (raw tracepoint data, user stack copies, AUX
 * samples) are NOT swapped: they stay in the recorder's byte order.
 * Lifetime: every pointer inside a decoded record (strings, callchain,
 * regs, raw bytes, the pd_record itself) borrows reader memory and is
 * valid only until the handler returns. Copy what you keep.
 */
#ifndef SCORCH_PERFDATA_RECORD_H
#define SCORCH_PERFDATA_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfdata/attr.h"

/* perf_event_type (kernel) and perf's own user record types. */
enum {
	PD_RECORD_MMAP = 1, PD_RECORD_LOST = 2, PD_RECORD_COMM = 3,
	PD_RECORD_EXIT = 4, PD_RECORD_THROTTLE = 5, PD_RECORD_UNTHROTTLE = 6,
	PD_RECORD_FORK = 7, PD_RECORD_READ = 8, PD_RECORD_SAMPLE = 9,
	PD_RECORD_MMAP2 = 10, PD_RECORD_AUX = 11, PD_RECORD_ITRACE_START = 12,
	PD_RECORD_LOST_SAMPLES = 13, PD_RECORD_SWITCH = 14,
	PD_RECORD_SWITCH_CPU_WIDE = 15, PD_RECORD_NAMESPACES = 16,
	PD_RECORD_KSYMBOL = 17, PD_RECORD_BPF_EVENT = 18, PD_RECORD_CGROUP = 19,
	PD_RECORD_TEXT_POKE = 20, PD_RECORD_AUX_OUTPUT_HW_ID = 21,
	PD_RECORD_CALLCHAIN_DEFERRED = 22,

	PD_RECORD_HEADER_ATTR = 64, PD_RECORD_HEADER_EVENT_TYPE = 65,
	PD_RECORD_HEADER_TRACING_DATA = 66, PD_RECORD_HEADER_BUILD_ID = 67,
	PD_RECORD_FINISHED_ROUND = 68, PD_RECORD_ID_INDEX = 69,
	PD_RECORD_AUXTRACE_INFO = 70, PD_RECORD_AUXTRACE = 71,
	PD_RECORD_AUXTRACE_ERROR = 72, PD_RECORD_THREAD_MAP = 73,
	PD_RECORD_CPU_MAP = 74, PD_RECORD_STAT_CONFIG = 75, PD_RECORD_STAT = 76,
	PD_RECORD_STAT_ROUND = 77, PD_RECORD_EVENT_UPDATE = 78,
	PD_RECORD_TIME_CONV = 79, PD_RECORD_HEADER_FEATURE = 80,
	PD_RECORD_COMPRESSED = 81, PD_RECORD_FINISHED_INIT = 82,
	PD_RECORD_COMPRESSED2 = 83,
};

/* header.misc */
enum {
	PD_MISC_CPUMODE_MASK = 7,
	PD_MISC_CPUMODE_UNKNOWN = 0, PD_MISC_KERNEL = 1, PD_MISC_USER = 2,
	PD_MISC_HYPERVISOR = 3, PD_MISC_GUEST_KERNEL = 4, PD_MISC_GUEST_USER = 5,
	PD_MISC_MMAP_DATA = 1 << 13,   /* also COMM_EXEC, FORK_EXEC, SWITCH_OUT */
	PD_MISC_COMM_EXEC = 1 << 13,
	PD_MISC_SWITCH_OUT = 1 << 13,
	PD_MISC_EXACT_IP = 1 << 14,    /* also SWITCH_OUT_PREEMPT, MMAP_BUILD_ID */
	PD_MISC_SWITCH_OUT_PREEMPT = 1 << 14,
	PD_MISC_MMAP_BUILD_ID = 1 << 14,
	PD_MISC_BUILD_ID_SIZE = 1 << 15,
};

/* A kernel cpumode (host or guest): its addresses are kernel ones. */
static inline bool pd_cpumode_is_kernel(unsigned cpumode)
{
	return cpumode == PD_MISC_KERNEL || cpumode == PD_MISC_GUEST_KERNEL;
}

/* Callchain context markers: ips[] values >= PD_CONTEXT_MAX. */
#define PD_CONTEXT_HV            ((uint64_t)-32)
#define PD_CONTEXT_KERNEL        ((uint64_t)-128)
#define PD_CONTEXT_USER          ((uint64_t)-512)
#define PD_CONTEXT_USER_DEFERRED ((uint64_t)-640)
#define PD_CONTEXT_GUEST         ((uint64_t)-2048)
#define PD_CONTEXT_GUEST_KERNEL  ((uint64_t)-2176)
#define PD_CONTEXT_GUEST_USER    ((uint64_t)-2560)
#define PD_CONTEXT_MAX           ((uint64_t)-4095)

/* The raw record as found in the stream. */
struct pd_record {
	uint32_t type;
	uint16_t misc;
	uint32_t size;          /* header.size (plus nothing out of band) */
	uint64_t offset;        /* file offset of the record; for records
				 * inside a COMPRESSED payload, the offset of
				 * that COMPRESSED record */
	bool decompressed;      /* came out of a COMPRESSED(2) payload */
	bool stable;            /* data stays valid until the reader is
				 * freed (a mapped file), not only during
				 * the handler call */
	const uint8_t *data;    /* the whole record, header included, in
				 * file byte order; size bytes */
	bool swap;              /* file is of the other byte order */
};

/* The sample_id_all trailer of non-sample records (and the same fields
 * of a sample). present has a PD_SAMPLE_* bit for each field read. */
struct pd_sample_id {
	uint64_t present;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu;
};

struct pd_branch_entry {
	uint64_t from, to;
	uint64_t flags;         /* normalised to the little-endian bit layout:
				 * mispred bit 0, predicted 1, in_tx 2, abort 3,
				 * cycles 4-19, type 20-23, spec 24-25, ... */
};

struct pd_regs {
	uint64_t abi;           /* 0 none, 1 32-bit, 2 64-bit */
	uint64_t mask;          /* attr.sample_regs_user / _intr */
	const uint64_t *regs;   /* popcount(mask) values, ascending bit order */
	size_t nr;              /* 0 when abi is 0 */
};

struct pd_sample {
	const struct pd_record *rec;
	const struct pd_attr *attr;  /* NULL when the id is unknown */
	uint8_t cpumode;             /* misc & 7 */
	uint64_t sample_type;        /* of attr; which fields below are valid */
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu;
	uint64_t period;             /* attr.sample_period when not sampled */
	const uint8_t *read;         /* READ values, file byte order */
	size_t read_size;
	uint64_t nr_callchain;
	const uint64_t *callchain;   /* leaf first, PD_CONTEXT_* markers kept */
	const uint8_t *raw;          /* RAW payload, recorder byte order */
	uint32_t raw_size;
	uint64_t nr_branches;
	uint64_t branch_hw_idx;
	bool has_hw_idx;
	const struct pd_branch_entry *branches;
	struct pd_regs regs_user;
	const uint8_t *stack;        /* STACK_USER copy from the sampled SP,
				      * recorder byte order */
	uint64_t stack_size;         /* bytes copied */
	uint64_t stack_dyn_size;     /* bytes valid (<= stack_size) */
	uint64_t weight;             /* WEIGHT, or WEIGHT_STRUCT as a u64 */
	uint64_t data_src;
	uint64_t transaction;
	struct pd_regs regs_intr;
	uint64_t phys_addr;
	uint64_t cgroup;
	uint64_t data_page_size;
	uint64_t code_page_size;
	const uint8_t *aux;          /* AUX sample, recorder byte order */
	uint64_t aux_size;
};

/* MMAP and MMAP2. */
struct pd_mmap {
	const struct pd_record *rec;
	bool mmap2;
	uint8_t cpumode;
	bool data;                   /* PD_MISC_MMAP_DATA: not executable */
	uint32_t pid, tid;           /* pid (uint32_t)-1 = kernel */
	uint64_t start, len, pgoff;
	uint32_t maj, min;           /* MMAP2 without build id */
	uint64_t ino, ino_generation;
	bool has_build_id;           /* MMAP2 with PD_MISC_MMAP_BUILD_ID */
	uint8_t build_id_size;
	uint8_t build_id[20];
	uint32_t prot, flags;        /* MMAP2 */
	const char *filename;        /* NUL-terminated, borrowed */
	struct pd_sample_id sid;
};

struct pd_comm {
	const struct pd_record *rec;
	uint32_t pid, tid;
	bool exec;                   /* PD_MISC_COMM_EXEC */
	const char *comm;            /* NUL-terminated, borrowed */
	struct pd_sample_id sid;
};

/* FORK and EXIT. */
struct pd_task {
	const struct pd_record *rec;
	bool exit;
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
	struct pd_sample_id sid;
};

/* LOST (id, lost) and LOST_SAMPLES (lost only; id 0). */
struct pd_lost {
	const struct pd_record *rec;
	bool lost_samples;
	uint64_t id, lost;
	struct pd_sample_id sid;
};

struct pd_ksymbol {
	const struct pd_record *rec;
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type;          /* 1 BPF, 2 out-of-line */
	uint16_t flags;              /* 1 = unregister */
	const char *name;
	struct pd_sample_id sid;
};

/* SWITCH and SWITCH_CPU_WIDE. */
struct pd_switch {
	const struct pd_record *rec;
	bool out, preempt, cpu_wide;
	uint32_t next_prev_pid, next_prev_tid; /* cpu_wide only */
	struct pd_sample_id sid;
};

/* BUILD_ID records (pipe mode, perf inject -b) and BUILD_ID feature
 * entries. */
struct pd_build_id {
	const struct pd_record *rec; /* NULL for BUILD_ID feature entries */
	uint8_t cpumode;
	int32_t pid;                 /* -1 host */
	uint8_t size;                /* bytes of build_id that count */
	uint8_t build_id[20];
	const char *filename;
};

/* Name of a record type as perf prints it ("MMAP2", "SAMPLE", ...), or
 * NULL when unknown. */
const char *pd_record_name(uint32_t type);

/* Sample time as perf script prints it: "SECONDS.MICROSECONDS"
 * (e.g. 2390.371200); buf needs 32 bytes. Returns buf. */
char *pd_time_str(uint64_t ns, char *buf, size_t size);

/* Append " field value" pairs of the key fields of a record that has no
 * decoded struct (THROTTLE, AUX, CGROUP, AUXTRACE, TIME_CONV, ...), as
 * scorch dump shows them; nothing for other types, " (too short)" when
 * the record is shorter than its fields. */
struct strbuf;
void pd_record_describe(const struct pd_record *rec, struct strbuf *out);

/* Hex string of a build id (2*size chars) into buf (41 bytes). */
char *pd_build_id_hex(const uint8_t *id, size_t size, char *buf);

#endif
