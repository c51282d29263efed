/*
 * tracepoint: decode tracepoint sample payloads (RAW) with the event
 * formats recorded in a perf.data's tracing data, through libtraceevent.
 * Stage: analysis (reads perfdata output, feeds heat maps and sched).
 * The tracing data blob (perf's TRACING_DATA feature or record) is walked
 * with a bounds-checked cursor; each event format text is handed to
 * libtraceevent. Key invariant: a field is read only when it lies wholly
 * inside the sample's RAW payload; otherwise the read fails.
 * Ownership: an an_tp owns its tep handle; struct an_tp_field pointers
 * borrow from it and live until an_tp_release.
 */
#ifndef SCORCH_ANALYSIS_TRACEPOINT_H
#define SCORCH_ANALYSIS_TRACEPOINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"

struct tep_handle;
struct tep_event;
struct tep_format_field;
struct trace_seq;

struct an_tp {
	struct tep_handle *tep;
	size_t nr_events;      /* formats parsed */
	size_t nr_bad_formats; /* formats libtraceevent refused */
	bool keep_print;       /* set before an_tp_load: keep print formats
				* that look sane (scorch script prints them) */
	uint8_t *scratch;      /* an_tp_print's copy of a record: zero past */
	size_t scratch_cap;    /* what it holds between calls */
};

struct an_tp_field {
	const struct tep_format_field *f;
	unsigned offset, size;
	bool is_signed, dynamic, string;
};

void an_tp_init(struct an_tp *tp);
void an_tp_release(struct an_tp *tp);
/* Parse the tracing data bytes. Returns 0, or -EINVAL with d filled (the
 * offset is relative to the start of the tracing data). */
int an_tp_load(struct an_tp *tp, const uint8_t *data, size_t size,
	       struct diag *d);
/* The event with this id (attr.config of a tracepoint attr), or NULL. */
struct tep_event *an_tp_event(const struct an_tp *tp, uint64_t id);
/* The event "system:name", or NULL. */
struct tep_event *an_tp_event_by_name(const struct an_tp *tp, const char *name);

/* Append ev's fields as its print format shows them (perf script's
 * trace text) for the record raw (raw_size bytes) to seq. libtraceevent
 * trusts a record: a field past its end, a __data_loc pointing out of
 * it or a string with no NUL would be read past it. So the record is
 * copied into a buffer that is zero past the copy far enough for any of
 * those (a loc's offset and length are 16 bits each): such reads stay
 * inside and stop at a NUL; a field beyond 1 MiB prints nothing. */
void an_tp_print(struct an_tp *tp, struct tep_event *ev, const void *raw,
		 size_t raw_size, uint64_t time, int cpu, struct trace_seq *seq);
/* Look up a field of an event; false when the event has no such field. */
bool an_tp_field(struct tep_event *ev, const char *name, struct an_tp_field *out);
/* Read a numeric field (sign-extended when signed) from a RAW payload.
 * Returns 0, or -ERANGE when the field is not inside the payload. */
int an_tp_read_u64(const struct an_tp_field *f, const uint8_t *raw,
		   size_t raw_size, bool swap, uint64_t *out);
/* Bytes of a string/array field (char[16], __data_loc char[]) without the
 * trailing NULs; -ERANGE when outside the payload. */
int an_tp_read_str(const struct an_tp_field *f, const uint8_t *raw,
		   size_t raw_size, bool swap, const char **s, size_t *len);

#endif
