/*
 * fuzz-tracing-data: libFuzzer entry for the tracing data walk and the
 * tracepoint field reads (analysis/tracepoint) used by heatmap, sched and
 * offcpu. Stage: fuzz. The input is searched for the tracing data magic
 * (seeds are whole perf.data files), the formats from there are parsed,
 * and every sched/block field the commands use is read from the input's
 * last 64 bytes as a RAW payload. Invariant under test: no crash, leak or
 * undefined behaviour on any bytes.
 */
#include "analysis/tracepoint.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static const char *const events[][2] = {
	{ "block:block_rq_issue", "dev" }, { "block:block_rq_issue", "sector" },
	{ "block:block_rq_issue", "comm" }, { "block:block_rq_issue", "cmd" },
	{ "block:block_rq_complete", "sector" }, { "sched:sched_switch", "prev_pid" },
	{ "sched:sched_switch", "prev_state" }, { "sched:sched_switch", "next_comm" },
	{ "sched:sched_waking", "pid" }, { "sched:sched_stat_runtime", "runtime" },
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t magic[3] = { 23, 8, 68 };
	const uint8_t *p = data;
	for (size_t i = 0; i + 10 <= size; i++)
		if (memcmp(data + i, magic, 3) == 0 && memcmp(data + i + 3, "tracing", 7) == 0) {
			p = data + i;
			break;
		}
	struct an_tp tp;
	struct diag d = DIAG_INIT;
	an_tp_init(&tp);
	an_tp_load(&tp, p, size - (size_t)(p - data), &d);
	const uint8_t *raw = size > 64 ? data + size - 64 : data;
	size_t raw_size = size > 64 ? 64 : size;
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		struct an_tp_field f;
		if (!an_tp_field(an_tp_event_by_name(&tp, events[i][0]), events[i][1], &f))
			continue;
		uint64_t v;
		const char *s;
		size_t len;
		an_tp_read_u64(&f, raw, raw_size, false, &v);
		an_tp_read_u64(&f, raw, raw_size, true, &v);
		an_tp_read_str(&f, raw, raw_size, false, &s, &len);
	}
	for (uint64_t id = 0; id < 4096; id += 97)
		(void)an_tp_event(&tp, id);
	an_tp_release(&tp);
	return 0;
}
