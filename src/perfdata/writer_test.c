/*
 * writer_test: pd_writer output read back with pd_reader, in file mode,
 * pipe mode and with zstd compression; plus the file header layout.
 * Stage: perfdata (unit tests). Invariant checked: what the writer is
 * given (attrs, ids, names, features, records) is what a reader finds.
 */
#include "perfdata/writer.h"
#include "perfdata/reader.h"
#include "perfdata/record.h"
#include "unit.h"

#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct seen {
	int samples, comms;
	uint64_t ip, period;
	uint32_t pid;
	char comm[32];
};

static int on_sample(void *ctx, const struct pd_sample *s)
{
	struct seen *v = ctx;
	v->samples++;
	v->ip = s->ip;
	v->pid = s->pid;
	v->period = s->period;
	return 0;
}

static int on_comm(void *ctx, const struct pd_comm *c)
{
	struct seen *v = ctx;
	v->comms++;
	snprintf(v->comm, sizeof(v->comm), "%s", c->comm);
	return 0;
}

static void test_attr(struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = PD_WRITER_ATTR_SIZE;
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_CPU_CLOCK;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			 PERF_SAMPLE_PERIOD;
	a->sample_freq = 997;
	a->freq = 1;
	a->sample_id_all = 1;
}

/* COMM "unit" for pid 42 with a zeroed TID+TIME trailer: 48 bytes. */
static size_t comm_record(uint8_t *p)
{
	uint32_t type = PERF_RECORD_COMM, pid = 42;
	uint16_t misc = 0, size = 48;
	memset(p, 0, 48);
	memcpy(p, &type, 4);
	memcpy(p + 4, &misc, 2);
	memcpy(p + 6, &size, 2);
	memcpy(p + 8, &pid, 4);
	memcpy(p + 12, &pid, 4);
	memcpy(p + 16, "unit", 5);
	return 48;
}

/* SAMPLE: ip, pid/tid 42, time, period 1000: 40 bytes. */
static size_t sample_record(uint8_t *p, uint64_t ip)
{
	uint32_t type = PERF_RECORD_SAMPLE, pid = 42;
	uint16_t misc = PERF_RECORD_MISC_USER, size = 40;
	uint64_t time = 5, period = 1000;
	memcpy(p, &type, 4);
	memcpy(p + 4, &misc, 2);
	memcpy(p + 6, &size, 2);
	memcpy(p + 8, &ip, 8);
	memcpy(p + 16, &pid, 4);
	memcpy(p + 20, &pid, 4);
	memcpy(p + 24, &time, 8);
	memcpy(p + 32, &period, 8);
	return 40;
}

/* Write a small recording to a temporary file; returns its bytes. */
static uint8_t *write_one(bool pipe, int zlevel, size_t nsamples, size_t *len)
{
	FILE *f = tmpfile();
	struct pd_writer w;
	struct perf_event_attr a;
	uint64_t ids[2] = { 7, 8 };
	uint8_t rec[64];
	struct strbuf host = SB_INIT;
	if (!f)
		return NULL;
	pd_writer_open(&w, fileno(f), pipe);
	if (zlevel)
		pd_writer_compress(&w, zlevel, 1 << 20);
	test_attr(&a);
	pd_writer_add_attr(&w, &a, ids, 2, "cpu-clock");
	pd_feat_string(&host, "testhost");
	pd_writer_set_feature(&w, PD_FEAT_HOSTNAME, host.buf, host.len);
	sb_release(&host);
	pd_writer_begin(&w);
	pd_writer_record(&w, rec, comm_record(rec));
	/* as ring buffer reads: batches of whole records */
	uint8_t batch[100 * 40];
	size_t in_batch = 0;
	for (size_t i = 0; i < nsamples; i++) {
		sample_record(batch + in_batch * 40, 0x401000 + i);
		if (++in_batch == 100 || i + 1 == nsamples) {
			pd_writer_data(&w, batch, in_batch * 40);
			in_batch = 0;
		}
	}
	pd_writer_finish(&w);
	long n = ftell(f);
	uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
	rewind(f);
	*len = n > 0 ? fread(buf, 1, (size_t)n, f) : 0;
	fclose(f);
	return buf;
}

static void read_back(const uint8_t *buf, size_t len, struct seen *v,
		      const char **host, size_t *nattrs, const char **name,
		      size_t *nids)
{
	struct diag d = DIAG_INIT;
	struct pd_reader *r = pd_reader_open_mem(buf, len, "unit", &d);
	struct pd_handlers h;
	memset(&h, 0, sizeof(h));
	memset(v, 0, sizeof(*v));
	h.ctx = v;
	h.on_sample = on_sample;
	h.on_comm = on_comm;
	*host = NULL;
	*nattrs = 0;
	if (!r)
		return;
	pd_reader_run(r, &h);
	const struct pd_features *f = pd_reader_features(r);
	static char hostbuf[64], namebuf[64];
	snprintf(hostbuf, sizeof(hostbuf), "%s", f && f->hostname ? f->hostname : "");
	*host = hostbuf;
	*nattrs = pd_reader_nr_attrs(r);
	if (*nattrs) {
		snprintf(namebuf, sizeof(namebuf), "%s", pd_reader_attr(r, 0)->name);
		*name = namebuf;
		*nids = pd_reader_attr(r, 0)->nr_ids;
	}
	pd_reader_free(r);
}

UNIT_TEST(writer_file_header_layout)
{
	size_t len;
	uint8_t *b = write_one(false, 0, 1, &len);
	uint64_t h[13] = { 0 };
	if (b && len >= sizeof(h))
		memcpy(h, b, sizeof(h));
	CHECK(b && memcmp(b, "PERFILE2", 8) == 0);
	CHECK(h[1] == 104 && h[2] == PD_WRITER_ATTR_SIZE + 16);
	/* ids (16 bytes) right after the header, then the attr, then data */
	CHECK(h[3] == 104 + 16 && h[4] == PD_WRITER_ATTR_SIZE + 16);
	CHECK(h[5] == 104 + 16 + PD_WRITER_ATTR_SIZE + 16);
	/* COMM (48) + SAMPLE (40) */
	CHECK(h[6] == 88);
	/* HOSTNAME (3) and EVENT_DESC (12) */
	CHECK(h[9] == ((1ULL << 3) | (1ULL << 12)));
	free(b);
}

UNIT_TEST(writer_file_round_trip)
{
	size_t len, nattrs = 0, nids = 0;
	const char *host = NULL, *name = "";
	struct seen v;
	uint8_t *b = write_one(false, 0, 3, &len);
	read_back(b, len, &v, &host, &nattrs, &name, &nids);
	CHECK(host && strcmp(host, "testhost") == 0);
	CHECK(nattrs == 1 && strcmp(name, "cpu-clock") == 0 && nids == 2);
	CHECK(v.samples == 3 && v.ip == 0x401002 && v.pid == 42 && v.period == 1000);
	CHECK(v.comms == 1 && strcmp(v.comm, "unit") == 0);
	free(b);
}

UNIT_TEST(writer_pipe_round_trip)
{
	size_t len, nattrs = 0, nids = 0;
	const char *host = NULL, *name = "";
	struct seen v;
	uint8_t *b = write_one(true, 0, 2, &len);
	uint64_t h[2] = { 0 };
	if (b && len >= 16)
		memcpy(h, b, 16);
	CHECK(h[0] == PD_WRITER_MAGIC && h[1] == 16);
	read_back(b, len, &v, &host, &nattrs, &name, &nids);
	CHECK(host && strcmp(host, "testhost") == 0);
	CHECK(nattrs == 1 && strcmp(name, "cpu-clock") == 0 && nids == 2);
	CHECK(v.samples == 2 && v.ip == 0x401001 && v.comms == 1);
	free(b);
}

UNIT_TEST(writer_zstd_round_trip)
{
	size_t len, nattrs = 0, nids = 0;
	const char *host = NULL, *name = "";
	struct seen v;
	/* enough samples for several COMPRESSED records */
	uint8_t *b = write_one(false, 3, 5000, &len);
	read_back(b, len, &v, &host, &nattrs, &name, &nids);
	CHECK(v.samples == 5000 && v.ip == 0x401000 + 4999);
	CHECK(v.comms == 1 && nattrs == 1);
	CHECK(len < 5000 * 40 / 2);   /* it did compress */
	free(b);
}

UNIT_TEST(writer_feature_string_padding)
{
	struct strbuf sb = SB_INIT;
	uint32_t n = 0;
	pd_feat_string(&sb, "x86_64");
	memcpy(&n, sb.buf, 4);
	CHECK(n == 64 && sb.len == 68 && sb.buf[4 + 6] == 0);
	sb_release(&sb);
}
