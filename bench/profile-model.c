/*
 * profile-model: interning samples through the profile model against
 * today's text table path, one of them per run (bench/profile-model.sh
 * times both and compares their output).
 *
 *   profile-model text|model SAMPLES UNIQUE DEPTH OUT
 *
 * A synthetic system-wide profile: 20,000 symbols in 400 objects (some
 * kernel, some unknown), UNIQUE distinct stacks of 3..DEPTH frames under
 * 300 processes, SAMPLES samples drawn from them (a skewed choice, as
 * real profiles repeat a few stacks). Every sample goes through the
 * whole samples -> stacks stage (no chain cache in front: the worst
 * case, a DWARF recording's):
 *   text:  each frame's name parts from a frame memo (as fold_perfdata's
 *          push_frame_memo), pushed into a stack_builder, joined and
 *          interned in a stack_table; written sorted.
 *   model: each frame's id from the same kind of memo, the stack
 *          interned as an array of frame ids, profile_add; the folded
 *          view written.
 */
#include "base/hmap.h"
#include "profile/profile.h"
#include "stacks/collapse_perf.h"
#include "stacks/table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NSYM = 20000, NDSO = 400, NCOMM = 300 };

static uint64_t seed = 88172645463325252ULL;

static uint64_t rnd(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return seed;
}

struct frame { const char *sym, *dso; uint64_t addr; };

static struct frame *frames;   /* frame pool; index NSYM + i: comm i */
static char (*names)[48];
static char (*objs)[48];
static char (*comms)[24];

static void make_pool(void)
{
	frames = calloc(NSYM + NCOMM, sizeof(*frames));
	names = calloc(NSYM, sizeof(*names));
	objs = calloc(NDSO, sizeof(*objs));
	comms = calloc(NCOMM, sizeof(*comms));
	for (int d = 0; d < NDSO; d++)
		snprintf(objs[d], sizeof(objs[d]), d < 8 ? "[kernel.kallsyms]" :
			 "/usr/lib/x86_64-linux-gnu/lib%04d.so.1", d);
	for (int s = 0; s < NSYM; s++) {
		snprintf(names[s], sizeof(names[s]), "ns::Class%d::method_%d(int)", s / 7, s);
		frames[s].sym = s % 50 == 0 ? NULL : names[s];
		frames[s].dso = s % 97 == 0 ? NULL : objs[s % NDSO];
		frames[s].addr = 0x400000 + (uint64_t)s * 64;
	}
	for (int c = 0; c < NCOMM; c++)
		snprintf(comms[c], sizeof(comms[c]), "proc%d", c);
}

/* Stack u: its frames leaf first in stacks[off[u] .. off[u + 1]), and
 * its process. */
static uint32_t *stacks, *off, *comm_of;

static void make_stacks(size_t unique, size_t depth)
{
	off = calloc(unique + 1, sizeof(*off));
	comm_of = calloc(unique, sizeof(*comm_of));
	stacks = calloc(unique * depth, sizeof(*stacks));
	size_t n = 0;
	for (size_t u = 0; u < unique; u++) {
		off[u] = (uint32_t)n;
		comm_of[u] = (uint32_t)(rnd() % NCOMM);
		size_t d = 3 + rnd() % (depth - 2);
		uint32_t base = (uint32_t)(rnd() % (NSYM - 64));
		for (size_t i = 0; i < d; i++) /* leaf random, callers shared */
			stacks[n++] = i == 0 ? (uint32_t)(rnd() % NSYM)
					     : base + (uint32_t)(i * 13 % 64);
	}
	off[unique] = (uint32_t)n;
}

static size_t pick(size_t unique)
{
	uint64_t r = rnd();
	return (size_t)((r % unique) * (r >> 40 & 0xff) / 255); /* skewed low */
}

/* ---- today's text path ---- */

struct text_path {
	struct collapse_opts o;
	struct stack_table t;
	struct stack_builder b;
	struct hmap memo;             /* frame index -> offset + 1 in parts */
	struct strbuf parts;          /* u32 count, then u32 len + bytes each */
	struct strbuf pname, scratch;
};

static void text_frame(struct text_path *tp, uint32_t fi)
{
	bool added;
	size_t id = hmap_put(&tp->memo, &fi, sizeof(fi), &added);
	struct strbuf *m = &tp->parts;
	if (!added) {
		size_t at = hmap_at(&tp->memo, id)->value;
		uint32_t n, len;
		memcpy(&n, m->buf + at, 4);
		at += 4;
		for (uint32_t i = 0; i < n; i++, at += 4 + len) {
			memcpy(&len, m->buf + at, 4);
			stack_builder_push(&tp->b, m->buf + at + 4, len);
		}
		return;
	}
	const struct frame *f = &frames[fi];
	size_t first = tp->b.nframes;
	sb_reset(&tp->scratch);
	sb_add_hex(&tp->scratch, f->addr, 0);
	const char *sym = f->sym ? f->sym : "[unknown]", *dso = f->dso ? f->dso : "[unknown]";
	struct collapse_frame cf = { tp->scratch.buf, tp->scratch.len, sym, strlen(sym),
				     dso, strlen(dso), NULL, NULL };
	collapse_perf_frame(&tp->o, false, &cf, &tp->b);
	size_t at = m->len;
	uint32_t n = (uint32_t)(tp->b.nframes - first);
	sb_add(m, &n, 4);
	for (size_t i = first; i < tp->b.nframes; i++) {
		size_t len;
		const char *s = stack_builder_frame(&tp->b, i, &len);
		uint32_t l = (uint32_t)len;
		sb_add(m, &l, 4);
		sb_add(m, s, len);
	}
	hmap_at(&tp->memo, id)->value = at;
}

static void run_text(size_t samples, size_t unique, FILE *out)
{
	struct text_path tp = { .t = STACK_TABLE_INIT, .b = STACK_BUILDER_INIT,
				.parts = SB_INIT, .pname = SB_INIT, .scratch = SB_INIT };
	tp.o = (struct collapse_opts)COLLAPSE_OPTS_INIT;
	tp.o.pid = true;
	hmap_init(&tp.memo);
	for (size_t s = 0; s < samples; s++) {
		size_t u = pick(unique);
		stack_builder_reset(&tp.b);
		for (uint32_t i = off[u]; i < off[u + 1]; i++)
			text_frame(&tp, stacks[i]);
		sb_reset(&tp.pname);
		const char *c = comms[comm_of[u]];
		char pid[16];
		int pl = snprintf(pid, sizeof(pid), "%u", comm_of[u] + 100);
		collapse_perf_comm(&tp.o, c, strlen(c), pid, (size_t)pl, pid, (size_t)pl,
				   &tp.pname);
		stack_builder_push(&tp.b, tp.pname.buf, tp.pname.len);
		stack_table_add_built(&tp.t, &tp.b, STACK_LEAF_FIRST, 1);
	}
	stack_table_write(&tp.t, out);
	fprintf(stderr, "text: %zu stacks\n", stack_table_count(&tp.t));
}

/* ---- the model ---- */

static void run_model(size_t samples, size_t unique, FILE *out)
{
	struct profile p;
	profile_init(&p, 0);
	uint32_t *fid = malloc((NSYM + NCOMM) * sizeof(*fid)); /* producer's memo */
	memset(fid, 0xff, (NSYM + NCOMM) * sizeof(*fid));
	uint32_t ids[256];
	for (size_t s = 0; s < samples; s++) {
		size_t u = pick(unique);
		uint32_t ci = NSYM + comm_of[u];
		if (fid[ci] == PROF_NONE) {
			const char *c = comms[comm_of[u]];
			struct prof_frame_desc d = { .kind = PROF_FRAME_COMM, .name = c,
						     .name_len = strlen(c),
						     .pid = (int32_t)comm_of[u] + 100,
						     .tid = (int32_t)comm_of[u] + 100 };
			fid[ci] = prof_frames_intern(&p.frames, &d);
		}
		size_t n = 0;
		ids[n++] = fid[ci];
		for (uint32_t i = off[u + 1]; i-- > off[u];) { /* root first */
			uint32_t fi = stacks[i];
			if (fid[fi] == PROF_NONE) {
				const struct frame *f = &frames[fi];
				struct prof_frame_desc d = {
					.kind = f->sym ? PROF_FRAME_SYMBOL : PROF_FRAME_ADDRESS,
					.addr = f->addr, .name = f->sym,
					.name_len = f->sym ? strlen(f->sym) : 0, .dso = f->dso,
					.dso_len = f->dso ? strlen(f->dso) : 0 };
				fid[fi] = prof_frames_intern(&p.frames, &d);
			}
			ids[n++] = fid[fi];
		}
		profile_add(&p, profile_stack(&p, ids, n), 1);
	}
	struct prof_names nm;
	struct collapse_opts o = COLLAPSE_OPTS_INIT;
	o.pid = true;
	prof_names_init(&nm, &o);
	profile_fold_write(&p, &nm, out);
	fprintf(stderr, "model: %zu stacks, %zu frames\n", profile_stacks(&p),
		prof_frames_count(&p.frames));
}

int main(int argc, char **argv)
{
	if (argc != 6) {
		fprintf(stderr, "usage: profile-model text|model SAMPLES UNIQUE DEPTH OUT\n");
		return 2;
	}
	size_t samples = strtoull(argv[2], NULL, 10), unique = strtoull(argv[3], NULL, 10);
	size_t depth = strtoull(argv[4], NULL, 10);
	if (!unique || depth < 3 || depth > 200) {
		fprintf(stderr, "profile-model: UNIQUE > 0, DEPTH in 3..200\n");
		return 2;
	}
	FILE *out = fopen(argv[5], "w");
	if (!out) {
		perror(argv[5]);
		return 1;
	}
	make_pool();
	make_stacks(unique, depth);
	if (strcmp(argv[1], "text") == 0)
		run_text(samples, unique, out);
	else
		run_model(samples, unique, out);
	return fclose(out) == 0 ? 0 : 1;
}
