/*
 * reader_test: unit tests of the perf.data reader on synthetic streams.
 * Stage: perfdata (tests). Builds small pipe-mode files in memory, in
 * both byte orders and at odd alignments, and checks what the handlers
 * receive: attr flags, sample fields, callchains with context markers,
 * the sample_id_all trailer of a COMM, damage messages.
 */
#include "unit.h"

#include "perfdata/reader.h"
#include "perfdata/reader_impl.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct buf {
	uint8_t b[4096];
	size_t n;
	bool be;
};

static void put(struct buf *w, uint64_t v, int width)
{
	for (int i = 0; i < width; i++) {
		int shift = w->be ? 8 * (width - 1 - i) : 8 * i;
		w->b[w->n++] = (uint8_t)(v >> shift);
	}
}

/* Record header at the current position; returns its start. */
static size_t rec_start(struct buf *w, uint32_t type, uint16_t misc)
{
	size_t at = w->n;
	put(w, type, 4);
	put(w, misc, 2);
	put(w, 0, 2);
	return at;
}

static void rec_end(struct buf *w, size_t at)
{
	size_t size = w->n - at, save = w->n;
	w->n = at + 6;
	put(w, size, 2);
	w->n = save;
}

/* Pipe header + one HEADER_ATTR: sample_type IP|TID|TIME|CALLCHAIN,
 * flags freq | sample_id_all | comm_exec, one id (7). */
static void stream_head(struct buf *w)
{
	memcpy(w->b, w->be ? "2ELIFREP" : "PERFILE2", 8);
	w->n = 8;
	put(w, 16, 8);
	size_t at = rec_start(w, 64, 0);
	put(w, 1, 4);                     /* type: software */
	put(w, 112, 4);                   /* size */
	put(w, 0, 8);                     /* config: cpu-clock */
	put(w, 99, 8);                    /* freq */
	put(w, 0x27, 8);                  /* IP|TID|TIME|CALLCHAIN */
	put(w, 0, 8);
	/* flags: bit 10 freq, 18 sample_id_all, 24 comm_exec, as C bit fields
	 * lay them out on an LE or a BE writer */
	uint8_t f[8] = { 0, 1 << 2, 1 << 2, 1 << 0, 0, 0, 0, 0 };
	for (int i = 0; i < 8; i++) {
		uint8_t b = f[i], r = 0;
		for (int k = 0; k < 8; k++)
			r |= (uint8_t)(((b >> k) & 1) << (7 - k));
		w->b[w->n++] = w->be ? r : b;
	}
	while (w->n < at + 8 + 112)
		w->b[w->n++] = 0;
	put(w, 7, 8);                     /* id */
	rec_end(w, at);
}

static void add_sample(struct buf *w, uint64_t ip, uint64_t time)
{
	size_t at = rec_start(w, 9, 2);
	put(w, ip, 8);
	put(w, 42, 4);
	put(w, 43, 4);
	put(w, time, 8);
	put(w, 3, 8);
	put(w, (uint64_t)-512, 8);        /* PERF_CONTEXT_USER */
	put(w, ip, 8);
	put(w, 0x1234, 8);
	rec_end(w, at);
}

static void add_comm(struct buf *w)
{
	size_t at = rec_start(w, 3, 1 << 13);
	put(w, 42, 4);
	put(w, 43, 4);
	memcpy(w->b + w->n, "work\0\0\0\0", 8);
	w->n += 8;
	put(w, 42, 4);                    /* trailer: TID */
	put(w, 43, 4);
	put(w, 5000000000ull, 8);         /* TIME */
	rec_end(w, at);
}

struct seen {
	int samples, comms;
	uint64_t ip, time, chain_nr, chain0, chain2, period;
	uint32_t pid, tid;
	bool comm_ok, attr_ok;
};

static int on_sample(void *ctx, const struct pd_sample *s)
{
	struct seen *v = ctx;
	v->samples++;
	v->ip = s->ip;
	v->time = s->time;
	v->pid = s->pid;
	v->tid = s->tid;
	v->period = s->period;
	v->chain_nr = s->nr_callchain;
	v->chain0 = s->callchain[0];
	v->chain2 = s->callchain[2];
	v->attr_ok = pd_attr_flag(s->attr, PD_ATTR_FREQ) &&
		     pd_attr_flag(s->attr, PD_ATTR_SAMPLE_ID_ALL) &&
		     pd_attr_flag(s->attr, PD_ATTR_COMM_EXEC) &&
		     !pd_attr_flag(s->attr, PD_ATTR_MMAP) &&
		     strcmp(s->attr->name, "cpu-clock:HG") == 0;
	return 0;
}

static int on_comm(void *ctx, const struct pd_comm *c)
{
	struct seen *v = ctx;
	v->comms++;
	v->comm_ok = c->exec && strcmp(c->comm, "work") == 0 && c->pid == 42 &&
		     c->tid == 43 && (c->sid.present & PD_SAMPLE_TIME) &&
		     c->sid.time == 5000000000ull && c->sid.tid == 43;
	return 0;
}

static void read_stream(struct buf *w, struct seen *v, struct diag *dout)
{
	struct diag d = DIAG_INIT;
	struct pd_reader *r = pd_reader_open_mem(w->b, w->n, "mem", &d);
	struct pd_handlers h = { .ctx = v, .on_sample = on_sample, .on_comm = on_comm };

	memset(v, 0, sizeof(*v));
	if (!r)
		return;
	pd_reader_run(r, &h);
	*dout = *pd_reader_diag(r);
	pd_reader_free(r);
}

static bool stream_reads(bool be)
{
	struct buf w = { .be = be };
	struct seen v;
	struct diag d = DIAG_INIT;

	stream_head(&w);
	add_comm(&w);
	add_sample(&w, 0x401000, 1000000000ull);
	add_sample(&w, 0x401008, 2000000000ull);
	read_stream(&w, &v, &d);
	return v.samples == 2 && v.comms == 1 && v.comm_ok && v.attr_ok &&
	       v.ip == 0x401008 && v.time == 2000000000ull && v.pid == 42 &&
	       v.tid == 43 && v.chain_nr == 3 && v.chain0 == PD_CONTEXT_USER &&
	       v.chain2 == 0x1234 && v.period == 99 && !d.set;
}

UNIT_TEST(perfdata_pipe_stream_little_endian)
{
	CHECK(stream_reads(false));
}

UNIT_TEST(perfdata_pipe_stream_big_endian)
{
	CHECK(stream_reads(true));
}

UNIT_TEST(perfdata_truncated_sample_is_damage)
{
	struct buf w = { .be = false };
	struct seen v;
	struct diag d = DIAG_INIT;

	stream_head(&w);
	add_sample(&w, 0x401000, 1);
	size_t second = w.n;
	add_sample(&w, 0x401008, 2);
	w.n -= 5;
	read_stream(&w, &v, &d);
	CHECK(v.samples == 1);
	CHECK(d.set && d.has_offset && d.offset == second);
	CHECK(strstr(d.msg, "SAMPLE (9): size 64 but only 59 bytes left") != NULL);
}

UNIT_TEST(perfdata_short_callchain_skips_one_sample)
{
	struct buf w = { .be = false };
	struct seen v;
	struct diag d = DIAG_INIT;

	stream_head(&w);
	size_t bad = w.n;
	add_sample(&w, 0x401000, 1);
	w.b[bad + 8 + 24] = 0xff;         /* callchain nr = 255 */
	add_sample(&w, 0x401008, 2);
	read_stream(&w, &v, &d);
	CHECK(v.samples == 1 && v.ip == 0x401008 && !d.set);
}

UNIT_TEST(perfdata_helpers)
{
	char buf[32], hex[41];
	const uint8_t id[3] = { 0xde, 0xad, 0x01 };

	CHECK_EQ_STR(pd_time_str(2390371200999ull, buf, sizeof(buf)), "2390.371200");
	CHECK_EQ_STR(pd_record_name(10), "MMAP2");
	CHECK_EQ_STR(pd_record_name(81), "COMPRESSED");
	CHECK(pd_record_name(63) == NULL);
	CHECK_EQ_STR(pd_build_id_hex(id, 3, hex), "dead01");
	CHECK_EQ_STR(pd_feature_name(PD_FEAT_CPUID), "CPUID");
	char st[64];
	pd_attr_sample_type_str(0x10027, st, sizeof(st));
	CHECK_EQ_STR(st, "IP|TID|TIME|CALLCHAIN|IDENTIFIER");
}

/* Tracepoint names come from the TRACING_DATA formats when EVENT_DESC
 * is not there: the offcpu case's sched_switch id resolves to it. */
UNIT_TEST(perfdata_tracepoint_names_from_tracing_data)
{
	char path[4096];
	struct diag d = DIAG_INIT;
	struct pd_reader *r;
	size_t size = 0;

	if (!unit_need_shared(path, sizeof(path), "corpus/offcpu/perf.data"))
		return;
	r = pd_reader_open(path, &d);
	CHECK(r != NULL);
	if (!r)
		return;
	const struct pd_attr *a = pd_reader_attr(r, 0);
	CHECK(pd_reader_tracing_data(r, &size) != NULL && size > 1000);
	CHECK(a && a->type == PD_TYPE_TRACEPOINT);
	const char *name = a ? pd_reader_tracepoint_name(r, a->config) : NULL;
	CHECK(name && strcmp(name, "sched:sched_switch") == 0);
	pd_reader_free(r);
}

/* BUILD_ID feature entries of the fp case: the four DSOs perf lists. */
UNIT_TEST(perfdata_build_id_feature_walk)
{
	char path[4096], hex[41];
	struct diag d = DIAG_INIT;
	struct pd_build_id b;
	size_t pos = 0;
	int n = 0, rc;
	bool found = false;

	if (!unit_need_shared(path, sizeof(path), "corpus/fp/perf.data"))
		return;
	struct pd_reader *r = pd_reader_open(path, &d);
	CHECK(r != NULL);
	if (!r)
		return;
	while ((rc = pd_feature_build_id_next(pd_reader_features(r), &pos, &b)) > 0) {
		n++;
		if (strcmp(b.filename, "/tmp/mkcorpus.TLgv/work_fp") == 0)
			found = strcmp(pd_build_id_hex(b.build_id, b.size, hex),
				       "e38e638e4417ab7ed175cf880b6cd0b9794a216a") == 0;
	}
	CHECK(rc == 0 && n == 4 && found);
	pd_reader_free(r);
}
