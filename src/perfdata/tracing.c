/*
 * tracing: tracepoint and PMU event names for attrs.
 * Stage: perfdata. Scans the TRACING_DATA blob (ftrace's "tracing data"
 * format: magic, version, its own endianness byte, header_page,
 * header_event, ftrace formats, then per system the event format texts)
 * for "name:" and "ID:" lines, so a tracepoint attr (type 2, config = ID)
 * can be named "system:event" as perf does. Every length is checked;
 * a malformed blob just leaves the names unknown.
 */
#include "perfdata/reader_impl.h"

#include "base/cursor.h"
#include "base/xalloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pd_reader_add_tp_name(struct pd_reader *r, uint64_t id, const char *name)
{
	XGROW(r->tp_names, r->tp_cap, r->nr_tp_names + 1);
	r->tp_names[r->nr_tp_names].id = id;
	r->tp_names[r->nr_tp_names].name = arena_strdup(&r->mem, name);
	r->nr_tp_names++;
}

static const char *skip_cstr(struct cursor *c)
{
	const char *s = (const char *)c->p;
	size_t n = strnlen(s, c->left);

	if (n == c->left) {
		cur_need(c, c->left + 1);
		return NULL;
	}
	cur_skip(c, n + 1);
	return s;
}

/* Value of "key: value" line in a format text, copied into buf. */
static bool field(const char *text, size_t len, const char *key, char *buf,
		  size_t size)
{
	size_t klen = strlen(key);

	for (size_t i = 0; i + klen < len; i++) {
		if ((i == 0 || text[i - 1] == '\n') &&
		    memcmp(text + i, key, klen) == 0) {
			size_t j = i + klen, n = 0;
			while (j < len && text[j] == ' ')
				j++;
			while (j < len && text[j] != '\n' && n + 1 < size)
				buf[n++] = text[j++];
			buf[n] = 0;
			return n > 0;
		}
	}
	return false;
}

static void add_format(struct pd_reader *r, const char *sys,
		       const uint8_t *text, size_t len)
{
	char name[128], id[32], full[300];

	if (!field((const char *)text, len, "name:", name, sizeof(name)) ||
	    !field((const char *)text, len, "ID:", id, sizeof(id)))
		return;
	snprintf(full, sizeof(full), "%s:%s", sys, name);
	pd_reader_add_tp_name(r, strtoull(id, NULL, 10), full);
}

/* u64 size + bytes, count times; formats handed to add_format. */
static bool read_files(struct pd_reader *r, struct cursor *c, const char *sys)
{
	uint32_t count = cur_u32(c);

	for (uint32_t i = 0; i < count && !c->err; i++) {
		uint64_t size = cur_u64(c);
		if (size > c->left)
			return false;
		const uint8_t *p = cur_bytes(c, (size_t)size);
		if (sys && p)
			add_format(r, sys, p, (size_t)size);
	}
	return !c->err;
}

static void parse_tracing(struct pd_reader *r, const uint8_t *p, size_t n)
{
	struct cursor c;

	cur_init(&c, p, n, 0, false);
	const uint8_t *magic = cur_bytes(&c, 10);
	if (!magic || memcmp(magic, "\x17\x08\x44tracing", 10) != 0)
		return;
	if (!skip_cstr(&c))
		return;
	uint8_t be = cur_u8(&c);
	cur_u8(&c);
	c.swap = (be != 0) != (r->writer_be != r->swap);
	cur_u32(&c);
	for (int i = 0; i < 2; i++) {          /* header_page, header_event */
		if (!skip_cstr(&c))
			return;
		uint64_t size = cur_u64(&c);
		if (size > c.left || !cur_skip(&c, (size_t)size))
			return;
	}
	if (!read_files(r, &c, NULL))          /* ftrace formats */
		return;
	uint32_t systems = cur_u32(&c);
	for (uint32_t i = 0; i < systems && !c.err; i++) {
		const char *sys = skip_cstr(&c);
		if (!sys || !read_files(r, &c, sys))
			return;
	}
}

const char *pd_reader_tracepoint_name(struct pd_reader *r, uint64_t id)
{
	if (!r->tp_parsed) {
		size_t n;
		const uint8_t *p = pd_reader_tracing_data(r, &n);
		r->tp_parsed = true;
		if (p)
			parse_tracing(r, p, n);
	}
	for (size_t i = 0; i < r->nr_tp_names; i++)
		if (r->tp_names[i].id == id)
			return r->tp_names[i].name;
	return NULL;
}

const char *pd_reader_pmu_name(struct pd_reader *r, const struct pd_attr *a)
{
	const struct pd_features *f = &r->feat;
	char buf[256];

	for (size_t i = 0; i < f->nr_pmu; i++) {
		if (f->pmu_type[i] != a->type)
			continue;
		snprintf(buf, sizeof(buf), "%s/config=0x%" PRIx64 "/",
			 f->pmu_name[i], a->config);
		return arena_strdup(&r->mem, buf);
	}
	return NULL;
}
