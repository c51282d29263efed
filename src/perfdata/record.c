/*
 * record: names of record types and small formatting helpers.
 * Stage: perfdata. Tables only; no state. Record names are perf's
 * (PERF_RECORD_<NAME> without the prefix), used in every message that
 * names a record.
 */
#include "perfdata/record.h"

#include <inttypes.h>
#include <stdio.h>

static const char *const kernel_names[] = {
	[1] = "MMAP", [2] = "LOST", [3] = "COMM", [4] = "EXIT",
	[5] = "THROTTLE", [6] = "UNTHROTTLE", [7] = "FORK", [8] = "READ",
	[9] = "SAMPLE", [10] = "MMAP2", [11] = "AUX", [12] = "ITRACE_START",
	[13] = "LOST_SAMPLES", [14] = "SWITCH", [15] = "SWITCH_CPU_WIDE",
	[16] = "NAMESPACES", [17] = "KSYMBOL", [18] = "BPF_EVENT",
	[19] = "CGROUP", [20] = "TEXT_POKE", [21] = "AUX_OUTPUT_HW_ID",
	[22] = "CALLCHAIN_DEFERRED",
};

static const char *const user_names[] = {
	"HEADER_ATTR", "HEADER_EVENT_TYPE", "HEADER_TRACING_DATA",
	"HEADER_BUILD_ID", "FINISHED_ROUND", "ID_INDEX", "AUXTRACE_INFO",
	"AUXTRACE", "AUXTRACE_ERROR", "THREAD_MAP", "CPU_MAP", "STAT_CONFIG",
	"STAT", "STAT_ROUND", "EVENT_UPDATE", "TIME_CONV", "HEADER_FEATURE",
	"COMPRESSED", "FINISHED_INIT", "COMPRESSED2", "BPF_METADATA",
	"SCHEDSTAT_CPU", "SCHEDSTAT_DOMAIN",
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

const char *pd_record_name(uint32_t type)
{
	if (type < NELEM(kernel_names))
		return kernel_names[type];
	if (type >= 64 && type - 64 < NELEM(user_names))
		return user_names[type - 64];
	return NULL;
}

char *pd_time_str(uint64_t ns, char *buf, size_t size)
{
	snprintf(buf, size, "%" PRIu64 ".%06" PRIu64, ns / 1000000000u,
		 ns % 1000000000u / 1000u);
	return buf;
}

char *pd_build_id_hex(const uint8_t *id, size_t size, char *buf)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	if (size > 20)
		size = 20;
	for (i = 0; i < size; i++) {
		buf[2 * i] = hex[id[i] >> 4];
		buf[2 * i + 1] = hex[id[i] & 15];
	}
	buf[2 * i] = 0;
	return buf;
}
