/*
 * pprof: the protobuf encoder and the Profile message of folded stacks
 * (see pprof.h). Stage: render. Field numbers are profile.proto's
 * (github.com/google/pprof/proto/profile.proto).
 * Key invariant: string_table[0] is "", ids start at 1, and every id a
 * sample names has its location, function and string.
 */
#include "render/pprof.h"

#include <isa-l/igzip_lib.h>
#include <stdlib.h>
#include <string.h>

#include "base/hmap.h"
#include "base/xalloc.h"

/* profile.proto field numbers */
enum {
	P_SAMPLE_TYPE = 1, P_SAMPLE = 2, P_LOCATION = 4, P_FUNCTION = 5,
	P_STRING = 6, P_PERIOD_TYPE = 11, P_PERIOD = 12,
	VT_TYPE = 1, VT_UNIT = 2,
	S_LOCATION = 1, S_VALUE = 2, S_LABEL = 3,
	L_KEY = 1, L_STR = 2,
	LOC_ID = 1, LOC_LINE = 4, LINE_FUNCTION = 1,
	F_ID = 1, F_NAME = 2, F_SYSTEM_NAME = 3,
};

void pb_varint(struct strbuf *o, uint64_t v)
{
	char b[10];
	size_t n = 0;
	while (v >= 0x80) {
		b[n++] = (char)(v | 0x80);
		v >>= 7;
	}
	b[n++] = (char)v;
	sb_add(o, b, n);
}

void pb_tag(struct strbuf *o, unsigned field, unsigned wire)
{
	pb_varint(o, (uint64_t)field << 3 | wire);
}

void pb_uint(struct strbuf *o, unsigned field, uint64_t v)
{
	pb_tag(o, field, PB_VARINT);
	pb_varint(o, v);
}

void pb_bytes(struct strbuf *o, unsigned field, const void *p, size_t n)
{
	pb_tag(o, field, PB_LEN);
	pb_varint(o, n);
	sb_add(o, p, n);
}

void pb_packed(struct strbuf *o, unsigned field, const uint64_t *v, size_t n)
{
	if (!n)
		return;
	struct strbuf t = SB_INIT;
	for (size_t i = 0; i < n; i++)
		pb_varint(&t, v[i]);
	pb_bytes(o, field, t.buf, t.len);
	sb_release(&t);
}

struct writer {
	struct hmap strs;   /* string -> index in string_table */
	struct hmap names;  /* frame name -> function and location id */
	struct strbuf *out, msg, sub;
	uint64_t *locs;
	size_t locs_cap;
};

static uint64_t str_id(struct writer *w, const char *s, size_t n)
{
	bool added;
	size_t at = hmap_put(&w->strs, s, n, &added);
	return at; /* dense ids in first-seen order: "" was put first */
}

static void value_type(struct writer *w, unsigned field, const char *type,
		       const char *unit)
{
	sb_reset(&w->msg);
	pb_uint(&w->msg, VT_TYPE, str_id(w, type, strlen(type)));
	pb_uint(&w->msg, VT_UNIT, str_id(w, unit, strlen(unit)));
	pb_bytes(w->out, field, w->msg.buf, w->msg.len);
}

/* The location (= function) id of a frame name, written when new. */
static uint64_t frame_loc(struct writer *w, const char *s, size_t n)
{
	bool added;
	size_t at = hmap_put(&w->names, s, n, &added);
	uint64_t id = at + 1;
	if (!added)
		return id;
	uint64_t name = str_id(w, s, n);
	sb_reset(&w->msg);
	pb_uint(&w->msg, F_ID, id);
	pb_uint(&w->msg, F_NAME, name);
	pb_uint(&w->msg, F_SYSTEM_NAME, name);
	pb_bytes(w->out, P_FUNCTION, w->msg.buf, w->msg.len);
	sb_reset(&w->sub);
	pb_uint(&w->sub, LINE_FUNCTION, id);
	sb_reset(&w->msg);
	pb_uint(&w->msg, LOC_ID, id);
	pb_bytes(&w->msg, LOC_LINE, w->sub.buf, w->sub.len);
	pb_bytes(w->out, P_LOCATION, w->msg.buf, w->msg.len);
	return id;
}

static void add_sample(struct writer *w, const char *k, size_t len, uint64_t value,
		       bool comm_label)
{
	size_t n = 0, first_len = len;
	for (size_t i = 0, start = 0; i <= len; i++) {
		if (i < len && k[i] != ';')
			continue;
		if (n == 0)
			first_len = i;
		XGROW(w->locs, w->locs_cap, n + 1);
		w->locs[n++] = frame_loc(w, k + start, i - start);
		start = i + 1;
	}
	for (size_t i = 0; i < n / 2; i++) { /* leaf first */
		uint64_t t = w->locs[i];
		w->locs[i] = w->locs[n - 1 - i];
		w->locs[n - 1 - i] = t;
	}
	struct strbuf s = SB_INIT;
	pb_packed(&s, S_LOCATION, w->locs, n);
	pb_packed(&s, S_VALUE, &value, 1);
	if (comm_label) {
		sb_reset(&w->sub);
		pb_uint(&w->sub, L_KEY, str_id(w, "comm", 4));
		pb_uint(&w->sub, L_STR, str_id(w, k, first_len));
		pb_bytes(&s, S_LABEL, w->sub.buf, w->sub.len);
	}
	pb_bytes(w->out, P_SAMPLE, s.buf, s.len);
	sb_release(&s);
}

void pprof_from_table(const struct stack_table *t, const struct pprof_meta *m,
		      struct strbuf *out)
{
	struct writer w = { HMAP_INIT, HMAP_INIT, out, SB_INIT, SB_INIT, NULL, 0 };
	str_id(&w, "", 0);
	value_type(&w, P_SAMPLE_TYPE, m->type, m->unit);
	size_t *ids = stack_table_sorted(t);
	for (size_t i = 0; i < stack_table_count(t); i++) {
		size_t len;
		const char *k = stack_table_key(t, ids[i], &len);
		add_sample(&w, k, len, stack_table_value(t, ids[i]), m->comm_label);
	}
	free(ids);
	if (m->period) {
		value_type(&w, P_PERIOD_TYPE, m->period_type, m->period_unit);
		pb_uint(out, P_PERIOD, m->period);
	}
	for (size_t i = 0; i < w.strs.count; i++)
		pb_bytes(out, P_STRING, hmap_at(&w.strs, i)->key, hmap_at(&w.strs, i)->len);
	hmap_release(&w.strs);
	hmap_release(&w.names);
	sb_release(&w.msg);
	sb_release(&w.sub);
	free(w.locs);
}

int pprof_gzip(const void *in, size_t n, struct strbuf *out)
{
	struct isal_zstream z;
	isal_deflate_init(&z);
	z.gzip_flag = IGZIP_GZIP;
	z.end_of_stream = 1;
	z.flush = NO_FLUSH;
	z.next_in = (uint8_t *)in;
	z.avail_in = (uint32_t)n;
	if (n > UINT32_MAX)
		return -1;
	do {
		sb_grow(out, n / 2 + 4096);
		size_t room = out->cap - out->len - 1;
		if (room > UINT32_MAX)
			room = UINT32_MAX;
		z.next_out = (uint8_t *)out->buf + out->len;
		z.avail_out = (uint32_t)room;
		if (isal_deflate(&z) != COMP_OK)
			return -1;
		sb_setlen(out, out->len + (room - z.avail_out));
	} while (z.internal_state.state != ZSTATE_END);
	return 0;
}
