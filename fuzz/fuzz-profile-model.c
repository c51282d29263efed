/*
 * fuzz-profile-model: random frames and stacks through the profile model
 * (src/profile/), checked against naive references.
 * Input: byte 0 collapse options, byte 1 mode (bit 0: resolved frames
 * checked against the perf script text path, else text frames checked
 * against stacks/table; bit 1: per-sample rows), then 12 strings (a
 * length byte, then bytes), then samples: a depth byte, a weight byte,
 * and per frame a selector byte (low nibble symbol, high nibble object;
 * 12 and up: unknown) and an address byte.
 * Checks: the folded text equals the reference's byte for byte; lines
 * are strictly increasing bytewise; totals match the samples added;
 * a profile merged from two halves writes the same text; the reference
 * table's stacks read back with profile_add_folded write the same text;
 * rows exist exactly when asked.
 */
#include "profile/profile.h"

#include "profile_ref.h"
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NSTR = 12 };

struct input {
	const uint8_t *p, *end;
	const char *str[NSTR];
	size_t len[NSTR];
	char buf[NSTR][32];
};

static int next(struct input *in)
{
	return in->p < in->end ? *in->p++ : -1;
}

/* Strings without '\n' (perf script text is line based). */
static void read_strings(struct input *in)
{
	for (int i = 0; i < NSTR; i++) {
		int n = next(in);
		size_t len = n < 0 ? 0 : (size_t)n % 24;
		for (size_t k = 0; k < len; k++) {
			int c = next(in);
			in->buf[i][k] = c < 0 || c == '\n' ? 'n' : (char)c;
		}
		in->str[i] = in->buf[i];
		in->len[i] = len;
	}
}

static void fail(const char *what, const struct strbuf *want, const struct strbuf *got)
{
	fprintf(stderr, "fuzz-profile-model: %s\n--- want\n%s--- got\n%s", what,
		want ? want->buf : "", got ? got->buf : "");
	abort();
}

/* Lines strictly increasing by stack text (bytes before the last ' '). */
static void check_sorted(const struct strbuf *out)
{
	const char *prev = NULL;
	size_t prev_len = 0;
	for (const char *l = out->buf; l < out->buf + out->len;) {
		const char *nl = memchr(l, '\n', out->len - (size_t)(l - out->buf));
		const char *sp = memrchr(l, ' ', (size_t)(nl - l));
		size_t len = (size_t)(sp - l);
		if (prev) {
			size_t m = len < prev_len ? len : prev_len;
			int c = memcmp(prev, l, m);
			if (c > 0 || (c == 0 && prev_len >= len))
				fail("lines out of order", NULL, out);
		}
		prev = l, prev_len = len;
		l = nl + 1;
	}
}

struct refs {
	struct stack_table table;   /* text frames: the joined stacks */
	struct strbuf script;       /* resolved frames: perf script text */
	struct stack_builder b;
};

static uint32_t text_frame(struct profile *p, struct input *in, int sel,
			   struct refs *r)
{
	int i = (sel & 15) % NSTR;
	stack_builder_push(&r->b, in->str[i], in->len[i]);
	struct prof_frame_desc d = { .kind = PROF_FRAME_TEXT, .name = in->str[i],
				     .name_len = in->len[i] };
	return prof_frames_intern(&p->frames, &d);
}

static uint32_t code_frame(struct profile *p, struct input *in, int sel, int addr,
			   struct refs *r)
{
	int si = sel & 15, di = sel >> 4;
	const char *sym = si < NSTR ? in->str[si] : NULL;
	const char *dso = di < NSTR ? in->str[di] : NULL;
	size_t sl = sym ? in->len[si] : 0, dl = dso ? in->len[di] : 0;
	sb_addf(&r->script, "\t%16x ", addr);
	sb_add(&r->script, sym ? sym : "[unknown]", sym ? sl : 9);
	sb_add(&r->script, " (", 2);
	sb_add(&r->script, dso ? dso : "[unknown]", dso ? dl : 9);
	sb_add(&r->script, ")\n", 2);
	struct prof_frame_desc d = { .kind = sym ? PROF_FRAME_SYMBOL : PROF_FRAME_ADDRESS,
				     .addr = (uint64_t)addr, .name = sym, .name_len = sl,
				     .dso = dso, .dso_len = dl };
	return prof_frames_intern(&p->frames, &d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	struct input in = { data + 2, data + size, { 0 }, { 0 }, { { 0 } } };
	struct collapse_opts o = COLLAPSE_OPTS_INIT;
	o.pid = data[0] & 1, o.tid = data[0] & 2, o.kernel = data[0] & 4;
	o.jit = data[0] & 8, o.all = data[0] & 16, o.addrs = data[0] & 32;
	bool code = data[1] & 1;
	unsigned cols = data[1] & 2 ? PROF_COL_TIME | PROF_COL_TID : 0;
	read_strings(&in);
	struct profile p, half[2];
	profile_init(&p, cols);
	profile_init(&half[0], cols);
	profile_init(&half[1], cols);
	struct refs r = { STACK_TABLE_INIT, SB_INIT, STACK_BUILDER_INIT };
	uint64_t samples = 0;
	int depth;
	while ((depth = next(&in)) >= 0) {
		uint64_t w = (uint64_t)(next(&in) & 0xff);
		uint32_t ids[9], hids[9];
		size_t n = 0;
		stack_builder_reset(&r.b);
		if (code) {
			/* a tid of 0 reads as "one id" in perf script text */
			sb_addf(&r.script, "comm %d/%d 1.0: %llu cycles:\n", depth & 3,
				(depth & 7) + 1, (unsigned long long)(w + 1));
			struct prof_frame_desc d = { .kind = PROF_FRAME_COMM, .name = "comm",
						     .name_len = 4, .pid = depth & 3,
						     .tid = (depth & 7) + 1 };
			ids[n++] = prof_frames_intern(&p.frames, &d);
			w++; /* the text path reads period 0 as 1 */
		}
		size_t k = (size_t)depth % 8;
		uint32_t leaf_first[8];
		for (size_t i = 0; i < k; i++) {
			int sel = next(&in) & 0xff, addr = next(&in) & 0xff;
			leaf_first[i] = code ? code_frame(&p, &in, sel, addr, &r)
					     : text_frame(&p, &in, sel, &r);
		}
		for (size_t i = k; i-- > 0;) /* root first */
			ids[n++] = leaf_first[i];
		if (code)
			sb_addc(&r.script, '\n');
		else
			stack_table_add_built(&r.table, &r.b, STACK_LEAF_FIRST, w);
		struct prof_sample s = { samples, 0, depth, 0 };
		profile_sample(&p, profile_stack(&p, ids, n), w, &s);
		/* the same sample into one half, through its own frame ids */
		struct profile *h = &half[samples % 2];
		for (size_t i = 0; i < n; i++) {
			struct prof_frame_desc d;
			prof_frames_desc(&p.frames, ids[i], &d);
			hids[i] = prof_frames_intern(&h->frames, &d);
		}
		profile_sample(h, profile_stack(h, hids, n), w, &s);
		samples++;
	}
	struct strbuf want = SB_INIT, got = SB_INIT, merged = SB_INIT;
	if (code)
		profile_ref_fold_script(&o, &r.script, &want);
	else
		stack_table_write_sb(&r.table, &want);
	struct prof_names nm;
	prof_names_init(&nm, &o);
	profile_fold_write_sb(&p, &nm, &got);
	if (strcmp(want.buf, got.buf) != 0)
		fail("folded text differs from the reference", &want, &got);
	check_sorted(&got);
	if (p.samples != samples || (cols ? p.rows.n != samples : p.rows.n != 0))
		fail("sample totals or rows", NULL, NULL);
	if (!code && p.weight != r.table.total)
		fail("weight total", NULL, NULL);
	if (!code) { /* the table's stacks back in as folded text */
		struct profile t;
		profile_init(&t, 0);
		for (size_t id = 0; id < stack_table_count(&r.table); id++) {
			size_t len;
			const char *k = stack_table_key(&r.table, id, &len);
			profile_add_folded(&t, k, len, 1, stack_table_value(&r.table, id));
		}
		struct prof_names nt;
		prof_names_init(&nt, &o);
		sb_reset(&merged);
		profile_fold_write_sb(&t, &nt, &merged);
		if (strcmp(merged.buf, want.buf) != 0)
			fail("profile_add_folded of the table differs", &want, &merged);
		prof_names_release(&nt);
		profile_release(&t);
		sb_reset(&merged);
	}
	profile_merge(&half[0], &half[1], NULL);
	struct prof_names nm2;
	prof_names_init(&nm2, &o);
	profile_fold_write_sb(&half[0], &nm2, &merged);
	if (strcmp(merged.buf, got.buf) != 0 || half[0].samples != samples ||
	    half[0].rows.n != p.rows.n)
		fail("merged halves differ", &got, &merged);
	prof_names_release(&nm);
	prof_names_release(&nm2);
	sb_release(&want);
	sb_release(&got);
	sb_release(&merged);
	sb_release(&r.script);
	stack_table_release(&r.table);
	stack_builder_release(&r.b);
	profile_release(&p);
	profile_release(&half[0]);
	profile_release(&half[1]);
	return 0;
}
