/*
 * record: names of record types and small formatting helpers.
 * Stage: perfdata. Tables only; no state. Record names are perf's
 * (PERF_RECORD_<NAME> without the prefix), used in every message that
 * names a record; pd_record_describe reads the key fields of the record
 * types that have no decoded struct, through a bounds-checked cursor.
 */
#include "perfdata/record.h"

#include "base/cursor.h"
#include "base/strbuf.h"
#include "perfdata/feature.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

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

/* ---- key fields of the records without a decoded struct ---- */

static void add_str(struct strbuf *out, const char *label, struct cursor *c)
{
	size_t n = strnlen((const char *)c->p, c->left);
	sb_addf(out, " %s %.*s", label, (int)n, (const char *)c->p);
	cur_skip(c, n < c->left ? n + 1 : n);
}

static void describe_kernel(const struct pd_record *rec, struct cursor *c,
			    struct strbuf *out)
{
	switch (rec->type) {
	case PD_RECORD_THROTTLE: case PD_RECORD_UNTHROTTLE:
		sb_addf(out, " time %" PRIu64, cur_u64(c));
		sb_addf(out, " id %" PRIu64, cur_u64(c));
		sb_addf(out, " stream_id %" PRIu64, cur_u64(c));
		break;
	case PD_RECORD_AUX:
		sb_addf(out, " offset 0x%" PRIx64, cur_u64(c));
		sb_addf(out, " size 0x%" PRIx64, cur_u64(c));
		sb_addf(out, " flags 0x%" PRIx64, cur_u64(c));
		break;
	case PD_RECORD_ITRACE_START:
		sb_addf(out, " pid %" PRIu32, cur_u32(c));
		sb_addf(out, " tid %" PRIu32, cur_u32(c));
		break;
	case PD_RECORD_NAMESPACES:
		sb_addf(out, " pid %" PRIu32, cur_u32(c));
		sb_addf(out, " tid %" PRIu32, cur_u32(c));
		sb_addf(out, " nr %" PRIu64, cur_u64(c));
		break;
	case PD_RECORD_BPF_EVENT:
		sb_addf(out, " type %" PRIu16, cur_u16(c));
		sb_addf(out, " flags 0x%" PRIx16, cur_u16(c));
		sb_addf(out, " id %" PRIu32, cur_u32(c));
		break;
	case PD_RECORD_CGROUP:
		sb_addf(out, " id %" PRIu64, cur_u64(c));
		add_str(out, "path", c);
		break;
	case PD_RECORD_TEXT_POKE:
		sb_addf(out, " addr 0x%" PRIx64, cur_u64(c));
		sb_addf(out, " old_len %" PRIu16, cur_u16(c));
		sb_addf(out, " new_len %" PRIu16, cur_u16(c));
		break;
	case PD_RECORD_READ:
		sb_addf(out, " pid %" PRIu32, cur_u32(c));
		sb_addf(out, " tid %" PRIu32, cur_u32(c));
		break;
	case PD_RECORD_AUX_OUTPUT_HW_ID:
		sb_addf(out, " hw_id %" PRIu64, cur_u64(c));
		break;
	default:
		break;
	}
}

static void describe_user(const struct pd_record *rec, struct cursor *c,
			  struct strbuf *out)
{
	switch (rec->type) {
	case PD_RECORD_HEADER_ATTR:
		cur_skip(c, 4);
		sb_addf(out, " attr.size %" PRIu32, cur_u32(c));
		break;
	case PD_RECORD_HEADER_TRACING_DATA:
		sb_addf(out, " size %" PRIu32 " (follows the record)", cur_u32(c));
		break;
	case PD_RECORD_ID_INDEX: case PD_RECORD_THREAD_MAP:
	case PD_RECORD_STAT_CONFIG:
		sb_addf(out, " nr %" PRIu64, cur_u64(c));
		break;
	case PD_RECORD_AUXTRACE_INFO:
		sb_addf(out, " type %" PRIu32, cur_u32(c));
		break;
	case PD_RECORD_AUXTRACE:
		sb_addf(out, " size 0x%" PRIx64 " (follows the record)", cur_u64(c));
		sb_addf(out, " offset 0x%" PRIx64, cur_u64(c));
		sb_addf(out, " ref 0x%" PRIx64, cur_u64(c));
		sb_addf(out, " idx %" PRIu32, cur_u32(c));
		sb_addf(out, " tid %" PRIu32, cur_u32(c));
		sb_addf(out, " cpu %" PRIu32, cur_u32(c));
		break;
	case PD_RECORD_EVENT_UPDATE:
		sb_addf(out, " type %" PRIu64, cur_u64(c));
		sb_addf(out, " id %" PRIu64, cur_u64(c));
		break;
	case PD_RECORD_TIME_CONV:
		sb_addf(out, " time_shift %" PRIu64, cur_u64(c));
		sb_addf(out, " time_mult %" PRIu64, cur_u64(c));
		sb_addf(out, " time_zero %" PRIu64, cur_u64(c));
		break;
	case PD_RECORD_HEADER_FEATURE: {
		uint64_t bit = cur_u64(c);
		const char *n = bit < PD_FEAT_LAST_KNOWN ? pd_feature_name((unsigned)bit) : NULL;
		sb_addf(out, " feature %" PRIu64 " %s", bit, n ? n : "unknown");
		break;
	}
	case PD_RECORD_COMPRESSED:
		sb_addf(out, " zstd %" PRIu32 " bytes", rec->size - 8);
		break;
	case PD_RECORD_COMPRESSED2:
		sb_addf(out, " zstd %" PRIu64 " bytes", cur_u64(c));
		break;
	default:
		break;
	}
}

void pd_record_describe(const struct pd_record *rec, struct strbuf *out)
{
	struct cursor c;
	size_t before = out->len;

	cur_init(&c, rec->data + 8, rec->size - 8, rec->offset + 8, rec->swap);
	if (rec->type < 64)
		describe_kernel(rec, &c, out);
	else
		describe_user(rec, &c, out);
	if (c.err) {
		sb_setlen(out, before);
		sb_adds(out, " (too short)");
	}
}
