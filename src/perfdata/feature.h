/*
 * feature: the perf.data header features (hostname, arch, cmdline, ...).
 * Stage: perfdata. File mode: read from the feature section table after
 * the data section; pipe mode: from HEADER_FEATURE records as they pass.
 * Each present feature keeps its raw payload (file byte order, reader
 * owned) and the common ones are decoded into struct pd_features. A
 * feature whose payload does not parse (truncated, or written in the
 * wrong byte order, as perf 6.1's cross-endian inject does) is marked
 * PD_FEAT_BAD and its decoded fields stay empty: never garbage.
 * Ownership: all strings and arrays belong to the reader; they live
 * until pd_reader_free.
 */
#ifndef SCORCH_PERFDATA_FEATURE_H
#define SCORCH_PERFDATA_FEATURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "perfdata/attr.h"

struct strbuf;

enum {
	PD_FEAT_RESERVED = 0, PD_FEAT_TRACING_DATA = 1, PD_FEAT_BUILD_ID = 2,
	PD_FEAT_HOSTNAME = 3, PD_FEAT_OSRELEASE = 4, PD_FEAT_VERSION = 5,
	PD_FEAT_ARCH = 6, PD_FEAT_NRCPUS = 7, PD_FEAT_CPUDESC = 8,
	PD_FEAT_CPUID = 9, PD_FEAT_TOTAL_MEM = 10, PD_FEAT_CMDLINE = 11,
	PD_FEAT_EVENT_DESC = 12, PD_FEAT_CPU_TOPOLOGY = 13,
	PD_FEAT_NUMA_TOPOLOGY = 14, PD_FEAT_BRANCH_STACK = 15,
	PD_FEAT_PMU_MAPPINGS = 16, PD_FEAT_GROUP_DESC = 17,
	PD_FEAT_AUXTRACE = 18, PD_FEAT_STAT = 19, PD_FEAT_CACHE = 20,
	PD_FEAT_SAMPLE_TIME = 21, PD_FEAT_MEM_TOPOLOGY = 22,
	PD_FEAT_CLOCKID = 23, PD_FEAT_DIR_FORMAT = 24,
	PD_FEAT_BPF_PROG_INFO = 25, PD_FEAT_BPF_BTF = 26,
	PD_FEAT_COMPRESSED = 27, PD_FEAT_CPU_PMU_CAPS = 28,
	PD_FEAT_CLOCK_DATA = 29, PD_FEAT_HYBRID_TOPOLOGY = 30,
	PD_FEAT_PMU_CAPS = 31, PD_FEAT_CPU_DOMAIN_INFO = 32,
	PD_FEAT_LAST_KNOWN = 33,
	PD_FEAT_MAX = 256,
};

/* State of one feature bit. */
enum { PD_FEAT_ABSENT = 0, PD_FEAT_OK = 1, PD_FEAT_BAD = 2 };

struct pd_feature_raw {
	const uint8_t *data;        /* payload, file byte order */
	size_t size;
	uint64_t offset;            /* file offset (0 in pipe mode) */
};

/* One EVENT_DESC entry: an attr copy with its name and ids. */
struct pd_event_desc {
	struct pd_attr attr;
	const char *name;
	const uint64_t *ids;
	size_t nr_ids;
};

struct pd_features {
	uint8_t state[PD_FEAT_MAX]; /* PD_FEAT_ABSENT / _OK / _BAD */
	struct pd_feature_raw raw[PD_FEAT_MAX];
	bool swap;                  /* payloads are in the other byte order */

	const char *hostname, *osrelease, *version, *arch;
	const char *cpudesc, *cpuid;
	uint32_t nrcpus_avail, nrcpus_online;
	uint64_t total_mem_kb;
	size_t cmdline_nr;
	const char **cmdline;       /* cmdline_nr strings */
	uint64_t first_sample_time, last_sample_time;  /* SAMPLE_TIME */
	uint64_t clockid_res_ns;                       /* CLOCKID */
	uint32_t clock_data_clockid;                   /* CLOCK_DATA */
	uint64_t clock_data_tod_ns, clock_data_clockid_ns;
	uint32_t compressed_type, compressed_level;    /* COMPRESSED */
	uint32_t compressed_ratio, compressed_mmap_len;
	size_t nr_event_desc;                          /* EVENT_DESC */
	struct pd_event_desc *event_desc;
	size_t nr_pmu;                                 /* PMU_MAPPINGS */
	uint32_t *pmu_type;
	const char **pmu_name;

	struct arena mem;           /* decoded strings and payload copies */
};

/* Feature name as perf spells it in "missing features:" ("HOSTNAME",
 * "TRACING_DATA", ...), or NULL for an unknown bit. */
const char *pd_feature_name(unsigned bit);

/* Append the lines perf report --header-only prints for feature bit
 * (each line starting "# "), or with details the -I form. Returns 0, or
 * -EINVAL when the payload does not parse (nothing is appended then).
 * event attrs are printed by the reader, not here. */
int pd_feature_format(const struct pd_features *f, unsigned bit,
		      bool details, struct strbuf *out);

/* Decode the payload of one feature into f (sets state[bit]). swap as
 * in f->swap. Used by the reader; exposed for the fuzz target. */
int pd_feature_parse(struct pd_features *f, unsigned bit,
		     const uint8_t *data, size_t size);
void pd_features_release(struct pd_features *f);

/* Walk the BUILD_ID feature entries: start with *pos = 0; returns 1 and
 * fills *b (rec NULL; filename borrowed from the feature payload, valid
 * as long as the features), 0 after the last entry, or -EINVAL at a
 * malformed entry (the walk stops there). A feature marked PD_FEAT_BAD
 * still yields the well-formed entries before its first bad one. */
struct pd_build_id;
int pd_feature_build_id_next(const struct pd_features *f, size_t *pos,
			     struct pd_build_id *b);

#endif
