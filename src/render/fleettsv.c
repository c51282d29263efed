/*
 * fleettsv: profile rows for a fleet store in ClickHouse's TSV format
 * (see fleettsv.h). Stage: render. Key invariant: every byte of a name
 * reaches the output, escaped so that TAB and LF only end fields and
 * rows.
 */
#include "render/fleettsv.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/hmap.h"
#include "base/xalloc.h"

uint64_t fleettsv_hash_add(uint64_t h, const char *name, size_t len)
{
	const uint64_t prime = 0x100000001b3ull;
	uint32_t n = (uint32_t)len;
	for (int i = 0; i < 4; i++) {
		h ^= (n >> (8 * i)) & 0xff;
		h *= prime;
	}
	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)name[i];
		h *= prime;
	}
	return h;
}

/* The escape letter of a byte ClickHouse escapes, or 0. */
static char escape_of(char c, char quote)
{
	switch (c) {
	case '\\': return '\\';
	case '\t': return 't';
	case '\n': return 'n';
	case '\r': return 'r';
	case '\0': return '0';
	case '\b': return 'b';
	case '\f': return 'f';
	default: return quote && c == quote ? quote : 0;
	}
}

static void escape_as(struct strbuf *out, const char *s, size_t len, char quote)
{
	size_t run = 0;
	sb_grow(out, len + 2);
	for (size_t i = 0; i < len; i++) {
		char e = escape_of(s[i], quote);
		if (!e)
			continue;
		sb_add(out, s + run, i - run);
		sb_addc(out, '\\');
		sb_addc(out, e);
		run = i + 1;
	}
	sb_add(out, s + run, len - run);
}

void fleettsv_escape(struct strbuf *out, const char *s, size_t len)
{
	escape_as(out, s, len, 0);
}

void fleettsv_quote(struct strbuf *out, const char *s, size_t len)
{
	sb_addc(out, '\'');
	escape_as(out, s, len, '\'');
	sb_addc(out, '\'');
}

void fleettsv_time(struct strbuf *out, uint64_t secs)
{
	time_t t = secs > (uint64_t)253402300799ull ? 253402300799 : (time_t)secs;
	struct tm tm;
	gmtime_r(&t, &tm);
	sb_addf(out, "%04d-%02d-%02d %02d:%02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1,
		tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

/* ---- rows: (bucket, pid, stack) -> counts ---- */

struct cell_key {
	uint64_t bucket;          /* seconds since the epoch, bucket start */
	uint32_t stack;
	int32_t pid;
};

struct cell {
	struct cell_key k;
	uint64_t hash, samples, weight;
};

struct cells {
	struct hmap keys;         /* struct cell_key -> index in v */
	struct cell *v;
	size_t cap;
};

static void cells_add(struct cells *cs, uint64_t bucket, uint32_t stack, int32_t pid,
		      uint64_t samples, uint64_t weight)
{
	struct cell_key k;
	memset(&k, 0, sizeof(k));
	k.bucket = bucket;
	k.stack = stack;
	k.pid = pid;
	bool added;
	size_t i = hmap_put(&cs->keys, &k, sizeof(k), &added);
	if (added) {
		XGROW(cs->v, cs->cap, i + 1);
		cs->v[i] = (struct cell){ k, 0, 0, 0 };
	}
	struct cell *c = &cs->v[i];
	c->samples = c->samples > UINT64_MAX - samples ? UINT64_MAX : c->samples + samples;
	c->weight = c->weight > UINT64_MAX - weight ? UINT64_MAX : c->weight + weight;
}

static uint64_t bucket_of(uint64_t ns, uint64_t width)
{
	uint64_t s = ns / 1000000000u;
	return s - s % width;
}

/* Fill cs from p's rows, and the remainder of each stack's counts. */
static void cells_fill(struct cells *cs, const struct profile *p,
		       const struct fleettsv_opts *o, uint64_t width)
{
	size_t n = profile_stacks(p);
	struct prof_counts *rest = xreallocarray(NULL, n ? n : 1, sizeof(*rest));
	if (n)
		memcpy(rest, p->counts, n * sizeof(*rest));
	const struct prof_rows *r = &p->rows;
	for (size_t i = 0; r->mask && i < r->n; i++) {
		uint32_t st = r->stack[i];
		uint64_t t = r->time ? r->time[i] : o->default_ns;
		cells_add(cs, bucket_of(t, width), st, r->pid ? r->pid[i] : 0, 1, r->weight[i]);
		rest[st].samples -= rest[st].samples ? 1 : 0;
		rest[st].weight -= rest[st].weight < r->weight[i] ? rest[st].weight : r->weight[i];
	}
	uint64_t b = bucket_of(o->default_ns, width);
	for (size_t s = 0; s < n; s++)
		if (rest[s].samples || rest[s].weight)
			cells_add(cs, b, (uint32_t)s, 0, rest[s].samples, rest[s].weight);
	free(rest);
}

static int cell_cmp(const void *pa, const void *pb)
{
	const struct cell *a = pa, *b = pb;
	if (a->k.bucket != b->k.bucket)
		return a->k.bucket < b->k.bucket ? -1 : 1;
	if (a->hash != b->hash)
		return a->hash < b->hash ? -1 : 1;
	if (a->k.pid != b->k.pid)
		return a->k.pid < b->k.pid ? -1 : 1;
	return a->k.stack < b->k.stack ? -1 : a->k.stack > b->k.stack;
}

/* ---- per stack: its names, hash and comm ---- */

struct stack_text {
	uint64_t hash;
	struct strbuf comm;       /* escaped comm field */
	struct strbuf frames;     /* the array field */
};

static void name_stack(const struct profile *p, struct prof_names *nm, uint32_t st,
		       struct stack_text *out)
{
	size_t n;
	const uint32_t *f = profile_stack_frames(p, st, &n);
	const struct prof_frame *first = n ? prof_frames_get(&p->frames, f[0]) : NULL;
	bool comm_frame = first && first->kind == PROF_FRAME_COMM;
	bool java = comm_frame && prof_names_java(nm, &p->frames, f[0]);
	bool have_comm = false;
	uint64_t h = FLEETTSV_HASH_INIT;
	sb_reset(&out->comm);
	sb_reset(&out->frames);
	sb_addc(&out->frames, '[');
	if (comm_frame) {
		size_t len;
		const char *c = prof_frames_str(&p->frames, first->name, &len);
		fleettsv_escape(&out->comm, c ? c : "", c ? len : 0);
		have_comm = true;
	}
	size_t names = 0;
	for (size_t i = 0; i < n; i++) {
		const uint32_t *ids;
		size_t k = prof_names_of(nm, &p->frames, f[i], java, &ids);
		for (size_t j = 0; j < k; j++) {
			size_t len;
			const char *s = prof_name_text(nm, ids[j], &len);
			if (!have_comm) {
				fleettsv_escape(&out->comm, s, len);
				have_comm = true;
			}
			if (names++)
				sb_addc(&out->frames, ',');
			fleettsv_quote(&out->frames, s, len);
			h = fleettsv_hash_add(h, s, len);
		}
	}
	sb_addc(&out->frames, ']');
	out->hash = h;
}

static void write_cell(struct strbuf *out, const char *host, const struct cell *c,
		       const struct stack_text *t)
{
	fleettsv_escape(out, host, strlen(host));
	sb_addc(out, '\t');
	fleettsv_time(out, c->k.bucket);
	sb_addc(out, '\t');
	sb_add(out, t->comm.buf, t->comm.len);
	sb_addf(out, "\t%d\t%llu\t", (int)c->k.pid, (unsigned long long)t->hash);
	sb_add(out, t->frames.buf, t->frames.len);
	sb_addf(out, "\t%llu\t%llu\n", (unsigned long long)c->samples,
		(unsigned long long)c->weight);
}

void fleettsv_write(const struct profile *p, struct prof_names *nm,
		    const struct fleettsv_opts *o, struct strbuf *out)
{
	struct cells cs = { HMAP_INIT, NULL, 0 };
	uint64_t width = o->bucket_secs ? o->bucket_secs : 1;
	cells_fill(&cs, p, o, width);
	size_t n = profile_stacks(p);
	/* names once per stack: hash first (the order needs it) */
	struct stack_text t = { 0, SB_INIT, SB_INIT };
	uint64_t *hash = xreallocarray(NULL, n ? n : 1, sizeof(*hash));
	for (size_t s = 0; s < n; s++) {
		name_stack(p, nm, (uint32_t)s, &t);
		hash[s] = t.hash;
	}
	size_t nc = cs.keys.count;
	for (size_t i = 0; i < nc; i++)
		cs.v[i].hash = hash[cs.v[i].k.stack];
	if (nc)
		qsort(cs.v, nc, sizeof(*cs.v), cell_cmp);
	uint32_t named = PROF_NONE;
	for (size_t i = 0; i < nc; i++) {
		if (cs.v[i].k.stack != named) {
			named = cs.v[i].k.stack;
			name_stack(p, nm, named, &t);
		}
		write_cell(out, o->host ? o->host : "", &cs.v[i], &t);
	}
	free(hash);
	sb_release(&t.comm);
	sb_release(&t.frames);
	hmap_release(&cs.keys);
	free(cs.v);
}
