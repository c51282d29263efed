/*
 * fuzz-pprof-encode: random profiles of exact frames (PROF_F_LOC, with
 * inline rows sharing an address, mappings, kernel and JIT flags),
 * process frames and text frames through the pprof encoder
 * (render/pprof.c), read back by the pprof reader (stacks/pprof_read.c).
 * Input: byte 0 collapse options, byte 1 flags (bit 0: two sample
 * types, bit 1: rows with cpus and the cpu label), then 8 names (a
 * length byte, then bytes), then samples: a depth byte, a weight byte, a
 * cpu byte, per frame a kind byte (low 2 bits: symbol at an address,
 * inline row at the previous address, text, address without symbol;
 * the rest picks names, objects, mappings and addresses).
 * Checks: the profile is detected and decodes (gzip'd too), and folds
 * back, by its default sample type, to each stack's frame names (as
 * prof_names gives them) joined root first, weights summed, byte for
 * byte.
 */
#include "profile/profile.h"
#include "render/pprof.h"
#include "stacks/pprof_read.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NSTR = 8 };

struct input {
	const uint8_t *p, *end;
	char buf[NSTR][24];
	size_t len[NSTR];
};

static int next(struct input *in)
{
	return in->p < in->end ? *in->p++ : -1;
}

static const struct strbuf *shown; /* the profile, dumped on failure */

static void fail(const char *what, const struct strbuf *want, const struct strbuf *got)
{
	for (size_t i = 0; shown && i < shown->len && i < 64; i++)
		fprintf(stderr, "%02x%s", (uint8_t)shown->buf[i], i % 16 == 15 ? "\n" : " ");
	fprintf(stderr, "\n");
	fprintf(stderr, "fuzz-pprof-encode: %s\n--- want\n%s--- got\n%s", what,
		want ? want->buf : "", got ? got->buf : "");
	abort();
}

static void frame(struct input *in, struct profile *p, int k, uint64_t *ip,
		  uint32_t *out)
{
	static const char *dsos[4] = { "/bin/x", "[kernel.kallsyms]", "/tmp/perf-9.map",
				       "/lib/y.so" };
	struct prof_map_desc m = { 0x1000 * (uint64_t)(k >> 6), 0x1000 * (uint64_t)(k >> 6) + 0x1000,
				   0, dsos[(k >> 4) & 3], strlen(dsos[(k >> 4) & 3]),
				   (k & 32) ? "0123abcd" : NULL, 8 };
	int s = (k >> 2) % NSTR;
	struct prof_frame_desc d = { .kind = PROF_FRAME_SYMBOL, .flags = PROF_F_LOC,
				     .name = in->buf[s], .name_len = in->len[s],
				     .dso = m.file, .dso_len = m.file_len, .map = &m };
	if ((k & 3) != 1)
		*ip = m.start + (uint64_t)(next(in) & 0xff);
	d.ip = d.addr = *ip;
	d.flags |= ((k >> 4) & 3) == 1 ? PROF_F_KERNEL : ((k >> 4) & 3) == 2 ? PROF_F_JIT : PROF_F_USER;
	if ((k & 3) == 1)
		d.flags |= PROF_F_INLINE;
	else if ((k & 3) == 2)
		d = (struct prof_frame_desc){ .kind = PROF_FRAME_TEXT, .name = in->buf[s],
					      .name_len = in->len[s] };
	else if ((k & 3) == 3)
		d.kind = PROF_FRAME_ADDRESS;
	*out = prof_frames_intern(&p->frames, &d);
}

static void build(struct input *in, struct profile *p)
{
	uint32_t f[40];
	for (int depth; (depth = next(in)) >= 0;) {
		int w = next(in), cpu = next(in), pid = next(in);
		size_t n = 1 + (size_t)depth % 39;
		struct prof_frame_desc c;
		memset(&c, 0, sizeof(c));
		c.kind = PROF_FRAME_COMM;
		c.name = in->buf[0];
		c.name_len = in->len[0];
		c.pid = pid & 7;
		c.tid = pid & 15;
		f[0] = prof_frames_intern(&p->frames, &c);
		uint64_t ip = 0;
		for (size_t i = 1; i < n; i++)
			frame(in, p, next(in) & 0xff, &ip, &f[i]);
		struct prof_sample s = { 0, c.pid, c.tid, (uint32_t)(cpu & 3) };
		profile_sample(p, profile_stack(p, f, n), 1 + (uint64_t)(w & 0xff), &s);
	}
}

/* The reference: each stack's names joined root first, in a table. */
static void reference(const struct profile *p, struct prof_names *nm, struct strbuf *out)
{
	struct stack_table t;
	struct strbuf k = SB_INIT;
	stack_table_init(&t);
	for (uint32_t s = 0; s < profile_stacks(p); s++) {
		size_t n;
		const uint32_t *f = profile_stack_frames(p, s, &n);
		bool java = n && prof_frames_get(&p->frames, f[0])->kind == PROF_FRAME_COMM &&
			    prof_names_java(nm, &p->frames, f[0]);
		sb_reset(&k);
		bool first = true;
		for (size_t i = 0; i < n; i++) {
			const uint32_t *ids;
			size_t c = prof_names_of(nm, &p->frames, f[i], java, &ids);
			for (size_t j = 0; j < c; j++) {
				size_t len;
				const char *name = prof_name_text(nm, ids[j], &len);
				if (!first)
					sb_addc(&k, ';');
				sb_add(&k, name, len);
				first = false;
			}
		}
		if (p->counts[s].weight)
			stack_table_add(&t, k.buf ? k.buf : "", k.len, p->counts[s].weight);
	}
	stack_table_write_sb(&t, out);
	stack_table_release(&t);
	sb_release(&k);
}

static void read_back(const struct strbuf *pb, const char *type, struct strbuf *out)
{
	struct stack_table t;
	struct diag d = DIAG_INIT;
	stack_table_init(&t);
	if (stack_pprof_fold(pb->buf, pb->len, type, &t, &d) < 0) {
		fprintf(stderr, "fuzz-pprof-encode: our own profile does not read: %s\n", d.msg);
		abort();
	}
	stack_table_write_sb(&t, out);
	stack_table_release(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, data + size, { { 0 } }, { 0 } };
	int o = next(&in), flags = next(&in);
	struct collapse_opts co = COLLAPSE_OPTS_INIT;
	co.pid = o & 1, co.tid = o & 2, co.kernel = o & 4, co.jit = o & 8, co.addrs = o & 16;
	for (int i = 0; i < NSTR; i++) {
		int n = next(&in);
		in.len[i] = n < 0 ? 0 : (size_t)n % 20;
		for (size_t k = 0; k < in.len[i]; k++) {
			int c = next(&in);
			in.buf[i][k] = c <= 0 ? 'x' : (char)c;
		}
	}
	struct profile p;
	profile_init(&p, (flags & 2) ? PROF_COL_CPU : 0);
	build(&in, &p);
	struct prof_names nm;
	prof_names_init(&nm, &co);
	struct pprof_meta m = { .type = { "samples", "cpu" },
				.unit = { "count", "nanoseconds" },
				.ntypes = (flags & 1) ? 2 : 1, .period_type = "cpu",
				.period_unit = "nanoseconds", .period = 1000,
				.cpu_label = flags & 2 };
	if (!(flags & 1))
		m.type[0] = "cpu";
	struct strbuf pb = SB_INIT, gz = SB_INIT, want = SB_INIT, got = SB_INIT;
	pprof_from_profile(&p, &nm, &m, &pb);
	shown = &pb;
	reference(&p, &nm, &want);
	read_back(&pb, NULL, &got);
	if (strcmp(want.buf ? want.buf : "", got.buf ? got.buf : ""))
		fail("pprof read back != folded view", &want, &got);
	if (!stack_pprof_detect(pb.buf, pb.len))
		fail("profile not detected", NULL, NULL);
	if (pprof_gzip(pb.buf, pb.len, &gz) < 0 || !stack_pprof_detect(gz.buf, gz.len))
		fail("gzip'd profile not detected", NULL, NULL);
	sb_reset(&pb);
	if (stack_pprof_inflate(gz.buf, gz.len, &pb, &(struct diag)DIAG_INIT) < 0)
		fail("gzip'd profile does not inflate", NULL, NULL);
	sb_reset(&got);
	read_back(&pb, NULL, &got);
	if (strcmp(want.buf ? want.buf : "", got.buf ? got.buf : ""))
		fail("gzip'd read back != folded view", &want, &got);
	sb_release(&pb);
	sb_release(&gz);
	sb_release(&want);
	sb_release(&got);
	prof_names_release(&nm);
	profile_release(&p);
	return 0;
}
