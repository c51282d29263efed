/*
 * speedscope: the profile model as speedscope's JSON file format (see
 * speedscope.h). Stage: render. Key invariant: every string goes through
 * speedscope_json_string, so the output is valid JSON and valid UTF-8
 * whatever bytes the names hold.
 */
#include "render/speedscope.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/hmap.h"
#include "base/xalloc.h"

/* ---- JSON strings ---- */

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if none:
 * no overlong forms, no surrogates, nothing above U+10FFFF. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	size_t len;
	uint32_t min, cp;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2; min = 0x80; cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3; min = 0x800; cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4; min = 0x10000; cp = c & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

void speedscope_json_string(struct strbuf *out, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	sb_addc(out, '"');
	while (i < len) {
		unsigned char c = p[i];
		if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
			size_t j = i;
			while (j < len && p[j] >= 0x20 && p[j] < 0x80 && p[j] != '"' &&
			       p[j] != '\\')
				j++;
			sb_add(out, p + i, j - i);
			i = j;
			continue;
		}
		if (c == '"' || c == '\\') {
			sb_addc(out, '\\');
			sb_addc(out, (char)c);
		} else if (c < 0x20) {
			const char *esc = c == '\n' ? "\\n" : c == '\t' ? "\\t" :
					  c == '\r' ? "\\r" : c == '\b' ? "\\b" :
					  c == '\f' ? "\\f" : NULL;
			if (esc) {
				sb_adds(out, esc);
			} else {
				char u[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
				sb_add(out, u, sizeof(u));
			}
		} else {
			size_t k = utf8_len(p + i, len - i);
			if (k) {
				sb_add(out, p + i, k);
				i += k;
				continue;
			}
			sb_adds(out, "\xef\xbf\xbd"); /* U+FFFD for one bad byte */
		}
		i++;
	}
	sb_addc(out, '"');
}

static void json_cstr(struct strbuf *out, const char *s)
{
	speedscope_json_string(out, s ? s : "", s ? strlen(s) : 0);
}

/* ---- frames and stacks ---- */

struct ss_group {
	int32_t pid, tid;
	bool comm;                  /* its stacks start with a process frame */
	uint32_t comm_frame;        /* the process frame naming it */
	uint64_t weight;            /* summed weight of its stacks */
	uint32_t *stacks;           /* its sample ids, in first-seen order */
	size_t n, cap;
	uint32_t *rows;             /* evented: its rows */
	size_t nrows, rows_cap;
};

struct ss_state {
	const struct profile *p;
	struct prof_names *nm;
	const struct speedscope_opts *o;
	struct hmap frames;         /* (name id, object string id) -> frame index */
	struct hmap keys;           /* (comm?, pid, tid) -> group index */
	struct hmap samples;        /* (group, frame indexes) -> sample id */
	uint64_t *sw;               /* by sample id: its summed weight */
	size_t *sat;                /* by sample id: its list in v */
	size_t sw_cap, sat_cap;
	uint32_t *key;              /* scratch: a samples key */
	size_t key_cap;
	struct ss_group *g;
	size_t ng, g_cap;
	uint32_t *group_of;         /* by stack id (PROF_NONE: no samples) */
	size_t *at;                 /* by stack id: offset of its list in v */
	uint32_t *v;                /* per stack: count, then frame indexes */
	size_t nv, v_cap;
};

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

static uint32_t frame_index(struct ss_state *s, uint32_t name, uint32_t dso)
{
	uint32_t key[2] = { name, dso };
	bool added;
	return (uint32_t)hmap_put(&s->frames, key, sizeof(key), &added);
}

static bool is_comm(const struct profile *p, const uint32_t *f, size_t n)
{
	return n > 0 && prof_frames_get(&p->frames, f[0])->kind == PROF_FRAME_COMM;
}

/* The speedscope frames of stack id, root first, into s->v. */
static void stack_frames(struct ss_state *s, uint32_t id, bool skip_comm)
{
	size_t n;
	const uint32_t *f = profile_stack_frames(s->p, id, &n);
	bool comm = is_comm(s->p, f, n);
	bool java = comm && prof_names_java(s->nm, &s->p->frames, f[0]);
	size_t head = s->nv;
	XGROW(s->v, s->v_cap, head + 1);
	s->v[s->nv++] = 0;
	s->at[id] = head;
	for (size_t i = comm && skip_comm ? 1 : 0; i < n; i++) {
		const uint32_t *names;
		size_t k = prof_names_of(s->nm, &s->p->frames, f[i], java, &names);
		const struct prof_frame *pf = prof_frames_get(&s->p->frames, f[i]);
		uint32_t dso = pf->kind == PROF_FRAME_SYMBOL || pf->kind == PROF_FRAME_ADDRESS
			       ? pf->dso : PROF_NONE;
		XGROW(s->v, s->v_cap, s->nv + k);
		for (size_t j = 0; j < k; j++)
			s->v[s->nv++] = frame_index(s, names[j], dso);
		s->v[head] += (uint32_t)k;
	}
}

static struct ss_group *group_for(struct ss_state *s, const uint32_t *f, size_t n)
{
	int32_t key[3] = { 0, -1, -1 };
	const struct prof_frame *c = is_comm(s->p, f, n) ? prof_frames_get(&s->p->frames, f[0])
							  : NULL;
	if (c && s->o->per != SPEEDSCOPE_PER_NONE) {
		key[0] = 1;
		key[1] = c->pid;
		key[2] = s->o->per == SPEEDSCOPE_PER_THREAD ? c->tid : -1;
	}
	bool added;
	size_t gi = hmap_put(&s->keys, key, sizeof(key), &added);
	if (added) {
		XGROW(s->g, s->g_cap, gi + 1);
		s->g[gi] = (struct ss_group){ key[1], key[2], key[0] == 1, c ? f[0] : 0,
					      0, NULL, 0, 0, NULL, 0, 0 };
		s->ng = gi + 1;
	}
	struct ss_group *g = &s->g[gi];
	/* a process is named by its main thread, else by its lowest tid */
	if (c && key[0] && !added) {
		const struct prof_frame *old = prof_frames_get(&s->p->frames, g->comm_frame);
		if (old->tid != old->pid && (c->tid == c->pid || c->tid < old->tid))
			g->comm_frame = f[0];
	}
	return g;
}

/* Stack id as a sample of g: stacks whose frames name alike (an
 * unknown symbol at several addresses) are one sample. */
static void add_sample(struct ss_state *s, struct ss_group *g, uint32_t id)
{
	const uint32_t *l = s->v + s->at[id];
	XGROW(s->key, s->key_cap, (size_t)l[0] + 2);
	s->key[0] = (uint32_t)(g - s->g);
	memcpy(s->key + 1, l, ((size_t)l[0] + 1) * sizeof(*l));
	bool added;
	size_t sid = hmap_put(&s->samples, s->key, ((size_t)l[0] + 2) * sizeof(*l), &added);
	if (added) {
		XGROW(s->sw, s->sw_cap, sid + 1);
		XGROW(s->sat, s->sat_cap, sid + 1);
		s->sw[sid] = 0;
		s->sat[sid] = s->at[id];
		XGROW(g->stacks, g->cap, g->n + 1);
		g->stacks[g->n++] = (uint32_t)sid;
	}
	s->sw[sid] = sat_add(s->sw[sid], s->p->counts[id].weight);
}

static void collect(struct ss_state *s)
{
	size_t ns = profile_stacks(s->p);
	s->group_of = xreallocarray(NULL, ns ? ns : 1, sizeof(*s->group_of));
	s->at = xreallocarray(NULL, ns ? ns : 1, sizeof(*s->at));
	for (size_t id = 0; id < ns; id++) {
		s->group_of[id] = PROF_NONE;
		if (!s->p->counts[id].samples)
			continue;
		size_t n;
		const uint32_t *f = profile_stack_frames(s->p, (uint32_t)id, &n);
		struct ss_group *g = group_for(s, f, n);
		g->weight = sat_add(g->weight, s->p->counts[id].weight);
		s->group_of[id] = (uint32_t)(g - s->g);
		stack_frames(s, (uint32_t)id, g->comm);
		add_sample(s, g, (uint32_t)id);
	}
}

static int group_cmp(const void *a, const void *b)
{
	const struct ss_group *x = a, *y = b;
	if (x->comm != y->comm)
		return x->comm ? 1 : -1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* ---- writing ---- */

static void write_frames(struct ss_state *s, struct strbuf *out)
{
	sb_adds(out, "\"shared\":{\"frames\":[");
	for (size_t i = 0; i < s->frames.count; i++) {
		const uint32_t *key = (const uint32_t *)(const void *)s->frames.entries[i].key;
		size_t len;
		const char *name = prof_name_text(s->nm, key[0], &len);
		sb_adds(out, i ? ",\n{\"name\":" : "\n{\"name\":");
		speedscope_json_string(out, name, len);
		if (key[1] != PROF_NONE) {
			const char *file = prof_frames_str(&s->p->frames, key[1], &len);
			sb_adds(out, ",\"file\":");
			speedscope_json_string(out, file, len);
		}
		sb_addc(out, '}');
	}
	sb_adds(out, "]},\n");
}

static void write_name(struct ss_state *s, const struct ss_group *g, struct strbuf *out)
{
	if (!g->comm) {
		json_cstr(out, s->o->name);
		return;
	}
	const struct prof_frame *c = prof_frames_get(&s->p->frames, g->comm_frame);
	size_t len;
	const char *comm = prof_frames_str(&s->p->frames, c->name, &len);
	struct strbuf name = SB_INIT;
	sb_add(&name, comm ? comm : "", comm ? len : 0);
	sb_addf(&name, " %d", (int)g->pid);
	if (s->o->per == SPEEDSCOPE_PER_THREAD)
		sb_addf(&name, "/%d", (int)g->tid);
	speedscope_json_string(out, name.buf, name.len);
	sb_release(&name);
}

static void write_list(const uint32_t *v, size_t n, struct strbuf *out)
{
	sb_addc(out, '[');
	for (size_t i = 0; i < n; i++)
		sb_addf(out, i ? ",%u" : "%u", v[i]);
	sb_addc(out, ']');
}

static void write_sampled(struct ss_state *s, const struct ss_group *g, struct strbuf *out)
{
	sb_adds(out, "\"type\":\"sampled\",\"unit\":");
	json_cstr(out, s->o->unit);
	sb_addf(out, ",\"startValue\":0,\"endValue\":%llu,\"samples\":[",
		(unsigned long long)g->weight);
	for (size_t i = 0; i < g->n; i++) {
		const uint32_t *l = s->v + s->sat[g->stacks[i]];
		if (i)
			sb_addc(out, ',');
		write_list(l + 1, l[0], out);
	}
	sb_adds(out, "],\"weights\":[");
	for (size_t i = 0; i < g->n; i++)
		sb_addf(out, i ? ",%llu" : "%llu",
			(unsigned long long)s->sw[g->stacks[i]]);
	sb_addc(out, ']');
}

/* ---- evented ---- */

/* Rows by time, then by row order (qsort_r: ctx is the prof_rows). */
static int row_cmp(const void *a, const void *b, void *ctx)
{
	const struct prof_rows *r = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint64_t tx = r->time[x], ty = r->time[y];
	if (tx != ty)
		return tx < ty ? -1 : 1;
	return x < y ? -1 : x > y;
}

static void event(struct strbuf *out, bool *first, char type, uint64_t at, uint32_t frame)
{
	sb_addf(out, "%s{\"type\":\"%c\",\"frame\":%u,\"at\":%llu}", *first ? "" : ",\n",
		type, frame, (unsigned long long)at);
	*first = false;
}

/* Close open[k..*depth) innermost first at time at. */
static void close_to(struct strbuf *out, bool *first, const uint32_t *open, size_t *depth,
		     size_t k, uint64_t at)
{
	while (*depth > k) {
		(*depth)--;
		event(out, first, 'C', at, open[*depth]);
	}
}

static void write_evented(struct ss_state *s, const struct ss_group *g, uint64_t t0,
			  struct strbuf *out)
{
	const struct prof_rows *r = &s->p->rows;
	bool ns = s->o->unit && !strcmp(s->o->unit, "nanoseconds"), first = true;
	const uint32_t *open = NULL;
	size_t depth = 0;
	uint64_t start = g->nrows ? r->time[g->rows[0]] - t0 : 0, end = start;
	struct strbuf ev = SB_INIT;
	for (size_t i = 0; i < g->nrows; i++) {
		uint32_t row = g->rows[i];
		uint64_t t = r->time[row] - t0;
		const uint32_t *l = s->v + s->at[r->stack[row]];
		size_t k = 0;
		while (k < depth && k < l[0] && open[k] == l[1 + k])
			k++;
		close_to(&ev, &first, open, &depth, k, t);
		for (; depth < l[0]; depth++)
			event(&ev, &first, 'O', t, l[1 + depth]);
		open = l + 1;
		uint64_t w = r->weight[row];
		end = ns ? (t + w < t ? UINT64_MAX : t + w) : t;
		if (i + 1 < g->nrows) {
			uint64_t next = r->time[g->rows[i + 1]] - t0;
			if (!ns || end > next)
				end = next;
			else if (end < next)
				close_to(&ev, &first, open, &depth, 0, end);
		}
	}
	close_to(&ev, &first, open, &depth, 0, end);
	sb_adds(out, "\"type\":\"evented\",\"unit\":\"nanoseconds\"");
	sb_addf(out, ",\"startValue\":%llu,\"endValue\":%llu,\"events\":[\n",
		(unsigned long long)start, (unsigned long long)end);
	sb_add(out, ev.buf, ev.len);
	sb_addc(out, ']');
	sb_release(&ev);
}

/* Rows of each group; the earliest time in *t0. */
static void group_rows(struct ss_state *s, uint64_t *t0)
{
	const struct prof_rows *r = &s->p->rows;
	*t0 = UINT64_MAX;
	for (size_t i = 0; i < r->n; i++) {
		uint32_t gi = s->group_of[r->stack[i]];
		if (gi == PROF_NONE)
			continue;
		struct ss_group *g = &s->g[gi];
		XGROW(g->rows, g->rows_cap, g->nrows + 1);
		g->rows[g->nrows++] = (uint32_t)i;
		if (r->time[i] < *t0)
			*t0 = r->time[i];
	}
	for (size_t i = 0; i < s->ng; i++)
		if (s->g[i].nrows > 1)
			qsort_r(s->g[i].rows, s->g[i].nrows, sizeof(uint32_t), row_cmp,
				(void *)r);
}

/* ---- the file ---- */

static void state_release(struct ss_state *s)
{
	for (size_t i = 0; i < s->ng; i++) {
		free(s->g[i].stacks);
		free(s->g[i].rows);
	}
	free(s->g);
	free(s->group_of);
	free(s->at);
	free(s->v);
	hmap_release(&s->frames);
	hmap_release(&s->keys);
	hmap_release(&s->samples);
	free(s->sw);
	free(s->sat);
	free(s->key);
}

int speedscope_write(const struct profile *p, struct prof_names *nm,
		     const struct speedscope_opts *o, struct strbuf *out)
{
	bool timed = (p->rows.mask & PROF_COL_TIME) && (p->rows.time || !p->samples);
	if (o->evented && !timed)
		return -1;
	struct ss_state s;
	memset(&s, 0, sizeof(s));
	s.p = p;
	s.nm = nm;
	s.o = o;
	hmap_init(&s.frames);
	hmap_init(&s.keys);
	hmap_init(&s.samples);
	collect(&s);
	uint64_t t0 = 0;
	if (o->evented) /* group_of and the rows index s.g: sort a copy */
		group_rows(&s, &t0);
	struct ss_group *sorted = xreallocarray(NULL, s.ng ? s.ng : 1, sizeof(*sorted));
	if (s.ng)
		memcpy(sorted, s.g, s.ng * sizeof(*sorted));
	qsort(sorted, s.ng, sizeof(*sorted), group_cmp);
	size_t active = 0;
	for (size_t i = 1; i < s.ng; i++)
		if (sorted[i].weight > sorted[active].weight)
			active = i;
	sb_adds(out, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n");
	sb_adds(out, "\"exporter\":");
	json_cstr(out, o->exporter);
	sb_adds(out, ",\"name\":");
	json_cstr(out, o->name);
	sb_addf(out, ",\"activeProfileIndex\":%zu,\n", active);
	write_frames(&s, out);
	sb_adds(out, "\"profiles\":[");
	for (size_t i = 0; i < s.ng; i++) {
		sb_adds(out, i ? ",\n{\"name\":" : "\n{\"name\":");
		write_name(&s, &sorted[i], out);
		sb_addc(out, ',');
		if (o->evented)
			write_evented(&s, &sorted[i], t0, out);
		else
			write_sampled(&s, &sorted[i], out);
		sb_addc(out, '}');
	}
	sb_adds(out, "]}\n");
	free(sorted);
	state_release(&s);
	return 0;
}
