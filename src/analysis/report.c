/*
 * report: perf report's histogram (see report.h for the rules kept).
 */
#include "analysis/report.h"

#include <stdlib.h>
#include <string.h>
#include <event-parse.h>

#include "base/xalloc.h"

/* ---- setup ---- */

void rep_init(struct rep *r, const struct rep_opts *o)
{
	memset(r, 0, sizeof(*r));
	r->o = *o;
	hmap_init(&r->fmap);
	arena_init(&r->names);
	hmap_init(&r->ctx);
	hmap_init(&r->traces);
	hmap_init(&r->provmap);
	sb_init(&r->key);
	sb_init(&r->text);
	bool comm = false, sym = false;
	for (size_t i = 0; i < o->nkeys; i++) {
		r->srcline |= o->keys[i] == REP_SRCLINE;
		comm |= o->keys[i] == REP_COMM;
		r->dso_first |= o->keys[i] == REP_DSO && !sym;
		sym |= o->keys[i] == REP_SYM || o->keys[i] == REP_IPC;
	}
	/* without a collapse (no comm key) perf would print the second
	 * entries apart: not replayed */
	r->replay = comm && sym && !r->srcline;
}

void rep_release(struct rep *r)
{
	for (size_t i = 0; i < r->nev; i++) {
		hmap_release(&r->ev[i].map);
		free(r->ev[i].e);
		free(r->ev[i].nodes);
		u64map_release(&r->ev[i].fentry);
		free(r->ev[i].last);
		free(r->ev[i].chains);
		free(r->ev[i].chain_ips);
		free(r->ev[i].owners);
		free(r->ev[i].sampled);
		u64map_release(&r->ev[i].riskmap);
		free(r->ev[i].risk);
		free(r->ev[i].lookups);
	}
	free(r->ev);
	free(r->frames);
	free(r->flevel);
	free(r->ftab);
	hmap_release(&r->fmap);
	arena_release(&r->names);
	hmap_release(&r->ctx);
	hmap_release(&r->traces);
	if (r->tp) {
		an_tp_release(r->tp);
		free(r->tp);
	}
	sb_release(&r->text);
	sb_release(&r->key);
	free(r->chain);
	free(r->chain_ip);
	free(r->looks);
	free(r->chain_src);
	sym_inline_free(r->inl);
	free(r->provs);
	hmap_release(&r->provmap);
	u64map_release(&r->a2l);
	memset(r, 0, sizeof(*r));
}

static const char *const key_names[REP_NKEY] = {
	"comm", "pid", "dso", "sym", "cpu", "parent", "trace", "symbol_size", "", "srcline",
};

static int key_of(const char *p, size_t n)
{
	if (n == 6 && !strncmp(p, "symbol", 6))
		return REP_SYM;
	for (int k = 0; k < REP_NKEY; k++)
		if (n && strlen(key_names[k]) == n && !strncmp(p, key_names[k], n))
			return k;
	return -1;
}

int rep_parse_keys(struct rep_opts *o, const char *s, char *bad, size_t nbad)
{
	o->nkeys = 0;
	for (const char *p = s; ; ) {
		const char *c = strchr(p, ',');
		size_t n = c ? (size_t)(c - p) : strlen(p);
		int k = key_of(p, n);
		bool dup = false;
		for (size_t i = 0; k >= 0 && i < o->nkeys; i++)
			dup |= o->keys[i] == (enum rep_key)k;
		if (k < 0 || dup || o->nkeys == REP_MAX_KEYS) {
			snprintf(bad, nbad, "%.*s", (int)n, p);
			return -1;
		}
		o->keys[o->nkeys++] = (enum rep_key)k;
		if (!c)
			break;
		p = c + 1;
	}
	for (size_t i = 0; i < o->nkeys; i++)
		if (o->keys[i] == REP_SYMSIZE && o->nkeys < REP_MAX_KEYS) {
			o->keys[o->nkeys++] = REP_IPC;
			break;
		}
	return 0;
}

static int field_of(const char *p, size_t n)
{
	static const struct { const char *name; int f; } f[] = {
		{ "overhead", REP_F_OVERHEAD }, { "overhead_children", REP_F_CHILDREN },
		{ "period", REP_F_PERIOD }, { "sample", REP_F_SAMPLE },
	};
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (strlen(f[i].name) == n && !strncmp(p, f[i].name, n))
			return f[i].f;
	return key_of(p, n);
}

int rep_parse_fields(struct rep_opts *o, const char *s, char *bad, size_t nbad)
{
	o->nfields = 0;
	o->nkeys = 0;
	for (const char *p = s; ; ) {
		const char *c = strchr(p, ',');
		size_t n = c ? (size_t)(c - p) : strlen(p);
		int f = field_of(p, n);
		bool dup = false;
		for (size_t i = 0; f >= 0 && i < o->nfields; i++)
			dup |= o->fields[i] == f;
		if (f < 0 || dup || o->nfields == REP_MAX_FIELDS) {
			snprintf(bad, nbad, "%.*s", (int)n, p);
			return -1;
		}
		o->fields[o->nfields++] = f;
		if (f < REP_NKEY)
			o->keys[o->nkeys++] = (enum rep_key)f;
		if (!c)
			break;
		p = c + 1;
	}
	return 0;
}

static bool has(const int *v, size_t n, int x)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

int rep_parse_sort_fields(struct rep_opts *o, const char *sort, const char *fields,
			  char *bad, size_t nbad)
{
	struct rep_opts s = *o;
	if (rep_parse_keys(&s, sort, bad, nbad) < 0 || rep_parse_fields(o, fields, bad, nbad) < 0)
		return -1;
	int keys[REP_MAX_FIELDS];
	size_t nkeys = 0;
	o->nsort = 0;
	for (size_t i = 0; i < s.nkeys; i++)
		o->sort[o->nsort++] = keys[nkeys++] = s.keys[i];
	for (size_t i = 0; i < o->nkeys; i++)
		if (!has(keys, nkeys, o->keys[i]))
			keys[nkeys++] = o->keys[i];
	for (size_t i = 0; i < o->nfields; i++)
		if (!has(o->sort, o->nsort, o->fields[i]))
			o->sort[o->nsort++] = o->fields[i];
	for (size_t i = 0; i < s.nkeys; i++)
		if (!has(o->fields, o->nfields, s.keys[i])) {
			if (o->nfields == REP_MAX_FIELDS) {
				snprintf(bad, nbad, "%s", sort);
				return -1;
			}
			o->fields[o->nfields++] = s.keys[i];
		}
	if (nkeys > REP_MAX_KEYS) {
		snprintf(bad, nbad, "%s", sort);
		return -1;
	}
	o->nkeys = nkeys;
	for (size_t i = 0; i < nkeys; i++)
		o->keys[i] = (enum rep_key)keys[i];
	return 0;
}

static struct rep_event *event_of(struct rep *r, const struct pd_attr *a)
{
	size_t i = a ? a->index : 0;
	if (i >= r->nev) {
		size_t old = r->nev;
		XGROW(r->ev, r->nev, i + 1);
		memset(r->ev + old, 0, (r->nev - old) * sizeof(*r->ev));
		for (size_t k = old; k < r->nev; k++) {
			hmap_init(&r->ev[k].map);
			r->ev[k].riskmap = (struct u64map)U64MAP_INIT;
		}
	}
	r->ev[i].attr = a;
	return &r->ev[i];
}

/* ---- frames ---- */

static char level_of(bool kernel, uint8_t cpumode)
{
	if (kernel)
		return cpumode == PD_MISC_GUEST_KERNEL ? 'g' : 'k';
	if (cpumode == PD_MISC_HYPERVISOR)
		return 'H';
	return cpumode == PD_MISC_GUEST_USER ? 'u' : '.';
}

static void key_ptr(struct strbuf *k, const void *p)
{
	sb_add(k, &p, sizeof(p));
}

static uint32_t frame_new(struct rep *r, const struct rep_frame *f)
{
	XGROW(r->frames, r->frames_cap, r->nframes + 1);
	XGROW(r->flevel, r->flevel_cap, r->nframes + 1);
	r->frames[r->nframes] = *f;
	r->flevel[r->nframes] = !f->dso && !f->sym ? 0 : f->level;
	if (f->inl)
		r->frames[r->nframes].inl = arena_strdup(&r->names, f->inl);
	return (uint32_t)r->nframes++;
}

static size_t fslot_hash(const struct rep_fslot *c)
{
	uint64_t h = (uint64_t)c->dso * 0x9E3779B97F4A7C15ull ^
		     c->what * 0xff51afd7ed558ccdull ^ (c->id >> 31) * 0xc4ceb9fe1a85ec53ull;
	return (size_t)(h >> 32);
}

static void ftab_grow(struct rep *r)
{
	size_t cap = r->ftab_cap ? 2 * r->ftab_cap : 4096;
	struct rep_fslot *t = xcalloc(cap, sizeof(*t));
	for (size_t i = 0; i < r->ftab_cap; i++) {
		if (!r->ftab[i].id)
			continue;
		size_t j = fslot_hash(&r->ftab[i]) & (cap - 1);
		while (t[j].id)
			j = (j + 1) & (cap - 1);
		t[j] = r->ftab[i];
	}
	free(r->ftab);
	r->ftab = t;
	r->ftab_cap = cap;
}

/* An inline row's frame: by dso, function and the inlined name. */
static uint32_t frame_id_inline(struct rep *r, const struct rep_frame *f)
{
	struct strbuf *k = &r->key;
	sb_reset(k);
	key_ptr(k, f->dso);
	key_ptr(k, f->sym);
	sb_adds(k, f->inl);
	bool added;
	size_t id = hmap_put(&r->fmap, k->buf, k->len, &added);
	if (added)
		hmap_at(&r->fmap, id)->value = frame_new(r, f);
	return (uint32_t)hmap_at(&r->fmap, id)->value;
}

/* Frames merge as perf's chains do: by function, an unresolved one by
 * its address; an inline row by its name. Frames without an inline row
 * (nearly all) are in a table of their own, found in a probe or two:
 * a chain's every frame is looked up. */
static uint32_t frame_id(struct rep *r, const struct rep_frame *f)
{
	if (f->inl)
		return frame_id_inline(r, f);
	if (4 * (r->ftab_used + 1) > 3 * r->ftab_cap)
		ftab_grow(r);
	const uint32_t symbit = 1u << 31;
	struct rep_fslot k = { f->sym ? (uint64_t)(uintptr_t)f->sym : f->ip,
			       f->dso ? (uint32_t)f->dso->id : UINT32_MAX, f->sym ? symbit : 0 };
	size_t mask = r->ftab_cap - 1;
	for (size_t i = fslot_hash(&k) & mask; ; i = (i + 1) & mask) {
		struct rep_fslot *c = &r->ftab[i];
		if (!c->id) {
			uint32_t id = frame_new(r, f);
			c->what = k.what;
			c->dso = k.dso;
			c->id = (k.id | id) + 1;
			r->ftab_used++;
			return id;
		}
		if (c->what == k.what && c->dso == k.dso && ((c->id - 1) & symbit) == k.id)
			return (c->id - 1) & ~symbit;
	}
}

uint64_t rep_sym_size(const struct rep_entry *e)
{
	return e->f.sym ? e->f.sym->end - e->f.sym->start : 0;
}

void rep_frame_name(const struct rep_frame *f, struct strbuf *sb)
{
	if (f->inl) {
		sb_adds(sb, f->inl);
		sb_adds(sb, " (inlined)");
	} else if (f->sym) {
		sb_adds(sb, f->sym->name);
	} else if (f->ip) { /* "%#llx" without printf */
		sb_adds(sb, "0x");
		sb_add_hex(sb, f->ip, 0);
	} else {
		sb_addc(sb, '0');
	}
}

/* ---- call trees ---- */

static uint32_t node_new(struct rep_event *ev, uint32_t frame)
{
	XGROW(ev->nodes, ev->nodes_cap, ev->nnodes + 1);
	struct rep_node *n = &ev->nodes[ev->nnodes];
	n->frame = frame;
	n->kid = n->next = REP_NONE;
	n->nkids = 0;
	n->parent = REP_NONE;
	n->rank = 0;
	n->hit = n->cumul = 0;
	return (uint32_t)ev->nnodes++;
}

static void depth_add(struct rep_entry *e, size_t len)
{
	if (len > e->max_depth)
		e->max_depth = (uint32_t)len;
}

/* perf's match_chain(a node's frame a, a chain's frame b): an inline
 * row is matched by its name alone, to a function's name too (a
 * function split in two, foo and foo.cold, has its cold part's samples
 * under an inline row named foo); other frames by object (its struct's
 * address in perf: here the order objects were met), then two
 * functions by their starts, else both by address (ipa, ipb: the
 * addresses the frames had in the chains that made the nodes). < 0: in
 * perf's tree of a node's kids, b goes left of a (which lists them
 * largest first) */
static int frame_match_cmp(const struct rep_frame *a, uint64_t ipa,
			   const struct rep_frame *b, uint64_t ipb)
{
	if (a->sym && b->sym && (a->inl || b->inl))
		return strcmp(a->inl ? a->inl : a->sym->name, b->inl ? b->inl : b->sym->name);
	size_t da = a->dso ? a->dso->id + 1 : 0, db = b->dso ? b->dso->id + 1 : 0;
	if (da != db)
		return da < db ? -1 : 1;
	bool syms = a->sym && b->sym;
	uint64_t xa = syms ? a->sym->start : ipa, xb = syms ? b->sym->start : ipb;
	return xa < xb ? -1 : xa > xb;
}

/* what by_cumul compares with (qsort_r's argument) */
struct kids_cmp {
	const struct rep *r;
	const struct rep_event *ev;
	bool cumul;
};

static int by_cumul(const void *pa, const void *pb, void *arg)
{
	const struct kids_cmp *k = arg;
	const struct rep_node *a = &k->ev->nodes[*(const uint32_t *)pa];
	const struct rep_node *b = &k->ev->nodes[*(const uint32_t *)pb];
	if (k->cumul && a->cumul != b->cumul)
		return a->cumul > b->cumul ? -1 : 1;
	/* equal ones in the order of perf's tree of the kids (tree_expand) */
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	return a < b ? -1 : a > b;
}

size_t rep_node_kids(const struct rep *r, const struct rep_event *ev,
		     uint32_t node, uint64_t min, bool cumul, uint32_t **out)
{
	size_t n = 0, cap = 0;
	uint32_t *k = NULL;
	for (uint32_t c = ev->nodes[node].kid; c != REP_NONE; c = ev->nodes[c].next) {
		if (ev->nodes[c].cumul < min)
			continue;
		XGROW(k, cap, n + 1);
		k[n++] = c;
	}
	struct kids_cmp arg = { r, ev, cumul };
	if (n > 1)
		qsort_r(k, n, sizeof(*k), by_cumul, &arg);
	*out = k;
	return n;
}

/* ---- entries ---- */

static void entry_key(struct rep *r, const struct rep_entry *e)
{
	struct strbuf *k = &r->key;
	sb_reset(k);
	for (size_t i = 0; i < r->o.nkeys; i++) {
		switch (r->o.keys[i]) {
		case REP_COMM: sb_adds(k, e->comm); sb_addc(k, 0); break;
		case REP_PID: sb_add(k, &e->tid, sizeof(e->tid)); break;
		case REP_DSO: /* perf compares dsos by name */
			sb_adds(k, e->f.dso ? e->f.dso->short_name : "");
			sb_addc(k, e->f.dso ? 1 : 0);
			break;
		case REP_SYM:
		case REP_IPC:
			/* perf: an unresolved address alone, else the dso's
			 * name and the symbol's range; no level */
			if (!e->f.sym) {
				sb_addc(k, 0);
				sb_add(k, &e->f.ip, sizeof(e->f.ip));
				break;
			}
			sb_adds(k, e->f.dso ? e->f.dso->short_name : "");
			sb_addc(k, e->f.dso ? 1 : 0);
			sb_add(k, &e->f.sym->start, sizeof(e->f.sym->start));
			sb_add(k, &e->f.sym->end, sizeof(e->f.sym->end));
			if (e->f.inl)
				sb_adds(k, e->f.inl);
			sb_addc(k, 0);
			break;
		case REP_CPU: sb_add(k, &e->cpu, sizeof(e->cpu)); break;
		case REP_PARENT: key_ptr(k, e->parent); break;
		case REP_TRACE: key_ptr(k, e->trace); break;
		case REP_SRCLINE: key_ptr(k, e->srcline); break;
		case REP_SYMSIZE: {
			uint64_t n = rep_sym_size(e);
			sb_add(k, &n, sizeof(n));
			break;
		}
		case REP_NKEY: break;
		}
	}
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	return (h ^ v) * 0x9E3779B97F4A7C15ull + (h >> 29);
}

/* A hash of what perf compares of e's keys before the symbol's (names
 * by their text): equal classes hash alike; two classes that share a
 * hash are one here, which only keeps more lookups. */
static uint64_t class_hash(const struct rep *r, const struct rep_entry *e)
{
	uint64_t h = 0;
	for (size_t i = 0; i < r->o.nkeys; i++) {
		switch (r->o.keys[i]) {
		case REP_SYM: case REP_IPC: return h;
		case REP_COMM: h = mix(h, hash_bytes(e->comm, strlen(e->comm))); break;
		case REP_PID: h = mix(h, e->tid); break;
		case REP_DSO:
			h = mix(h, e->f.dso ? hash_bytes(e->f.dso->short_name,
							  strlen(e->f.dso->short_name)) : 1);
			break;
		case REP_CPU: h = mix(h, (uint32_t)e->cpu); break;
		case REP_PARENT: h = mix(h, (uintptr_t)e->parent); break;
		case REP_TRACE: h = mix(h, (uintptr_t)e->trace); break;
		case REP_SRCLINE: h = mix(h, (uintptr_t)e->srcline); break;
		case REP_SYMSIZE: h = mix(h, rep_sym_size(e)); break;
		case REP_NKEY: break;
		}
	}
	return h;
}

/* Whether two objects differ as perf compares them (by short name). */
static bool dso_differs(const struct sym_dso *a, const struct sym_dso *b)
{
	if (a == b)
		return false;
	return !a || !b || strcmp(a->short_name, b->short_name) != 0;
}

/* The class (index + 1) of new entry e, e taken in (report.h). */
static uint32_t risk_class(const struct rep *r, struct rep_event *ev, const struct rep_entry *e)
{
	bool added;
	uint64_t *id = u64map_put(&ev->riskmap, class_hash(r, e), &added);
	if (added) {
		XGROW(ev->risk, ev->risk_cap, ev->nrisk + 1);
		memset(&ev->risk[ev->nrisk], 0, sizeof(*ev->risk));
		*id = ev->nrisk++;
	}
	struct rep_risk *k = &ev->risk[*id];
	k->all |= e->f.inl != NULL;
	if (!e->f.sym) {
		if (!k->unresolved) {
			k->lo = k->hi = e->f.ip;
			k->dso = e->f.dso;
		}
		k->unresolved = true;
		k->lo = e->f.ip < k->lo ? e->f.ip : k->lo;
		k->hi = e->f.ip > k->hi ? e->f.ip : k->hi;
		k->at = (k->hi - k->lo) >> 63;
		k->all |= !r->dso_first && dso_differs(k->dso, e->f.dso);
	}
	return (uint32_t)*id + 1;
}

/* Keep the lookup of entry id (made before; made_before entries
 * existed then) when its class is at risk: true when kept (its depth
 * goes with it, not into the entry). */
static bool risk_keep(struct rep_event *ev, uint32_t id, uint32_t made_before,
		      const struct rep_entry *t, char level, size_t depth)
{
	const struct rep_entry *e = &ev->e[id];
	const struct rep_risk *k = &ev->risk[e->risk - 1];
	if (!k->all && !(k->at && !e->f.sym))
		return false;
	XGROW(ev->lookups, ev->lookups_cap, ev->nlookups + 1);
	ev->lookups[ev->nlookups++] = (struct rep_lookup){
		id, made_before, (uint32_t)depth, t->thread_forks, t->thread, level };
	return true;
}

static uint32_t entry_get(struct rep *r, struct rep_event *ev, const struct rep_entry *tmpl)
{
	entry_key(r, tmpl);
	bool added;
	size_t id = hmap_put(&ev->map, r->key.buf, r->key.len, &added);
	if (added) {
		XGROW(ev->e, ev->cap, ev->n + 1);
		ev->e[ev->n] = *tmpl;
		ev->e[ev->n].seq = (uint32_t)ev->n;
		ev->e[ev->n].risk = r->replay ? risk_class(r, ev, tmpl) : 0;
		ev->n++;
	} else if (r->srcline) {
		/* perf compared it with its like: srcline computed */
		ev->e[id].src_known = true;
	}
	return (uint32_t)id;
}

/* What besides the frame makes a sample's entries: an id for the
 * (comm, tid, cpu, parent, trace) of t, so that a frame's entry is
 * looked up once per context. Only the parts the sort keys use count
 * (an entry's key holds no others): fewer contexts, fewer lookups. */
static uint64_t context_id(struct rep *r, const struct rep_entry *t)
{
	struct { const char *comm, *parent, *trace; uint32_t tid; int32_t cpu; } k;
	memset(&k, 0, sizeof(k));
	for (size_t i = 0; i < r->o.nkeys; i++) {
		switch (r->o.keys[i]) {
		case REP_COMM: k.comm = t->comm; break;
		case REP_PID: k.tid = t->tid; break;
		case REP_CPU: k.cpu = t->cpu; break;
		case REP_PARENT: k.parent = t->parent; break;
		case REP_TRACE: k.trace = t->trace; break;
		case REP_DSO: case REP_SYM: case REP_SYMSIZE: case REP_IPC:
			break; /* the frame's */
		default: /* a key not listed here: the whole context */
			k.comm = t->comm;
			k.parent = t->parent;
			k.trace = t->trace;
			k.tid = t->tid;
			k.cpu = t->cpu;
			break;
		}
	}
	return hmap_put(&r->ctx, &k, sizeof(k), NULL);
}


/* perf's default parent pattern: ^sys_|^do_page_fault */
static const char *parent_of(const struct proc_sample *ps) /* NULL: none */
{
	for (size_t i = 0; i < ps->nframes; i++) {
		const struct sym_entry *s = ps->frames[i].sym;
		if (s && !ps->frames[i].inline_name &&
		    (!strncmp(s->name, "sys_", 4) || !strncmp(s->name, "do_page_fault", 13)))
			return s->name;
	}
	return NULL;
}

/* Whether frame i (leaf first) starts an address: inline rows come
 * before their symbol's row, at the same ip. */
static bool starts_address(const struct proc_sample *ps, size_t i)
{
	return i == 0 || !ps->frames[i - 1].inline_name ||
	       ps->frames[i - 1].ip != ps->frames[i].ip;
}

/* ---- srcline ----
 * perf 6.1 asks addr2line for the entry's address (the map address of a
 * sampled one, the recorded address of a chain's, which in a PIE or a
 * library lies beyond its file); its answer printed as basename:line,
 * "??:0" when the file knows the function but no line; no answer, or no
 * file to ask (the kernel, [vdso]): the symbol and the offset of the
 * address in it, without a symbol dso[address], without a map "??:0".
 * A DWARF-unwound chain's rows carry addr2line -i's answers instead.
 */

static const char *intern_text(struct rep *r)
{
	size_t id = hmap_put(&r->traces, r->text.len ? r->text.buf : "", r->text.len, NULL);
	return hmap_at(&r->traces, id)->key;
}

/* A user dso's file address less its map address (perf's symbols and
 * map addresses are file offsets: in a non-PIE executable 0x400000). */
static uint64_t vaddr_delta(const struct proc_frame *pf)
{
	if (!pf->dso || pf->dso->kind != SYM_DSO_USER || !pf->dso->nsegs)
		return 0;
	return sym_segments_to_vaddr(pf->dso->segs, pf->dso->nsegs, pf->addr) - pf->addr;
}

/* Whether addr2line names sym's function without a line ("??:0"):
 * binutils finds an ELF symbol of its own size; perf's PLT symbols are
 * its own. */
static bool a2l_knows(const struct sym_entry *sym)
{
	return sym && sym->sized && !strstr(sym->name, "@plt");
}

/* The text perf falls back to: name+offset of ip (file addresses) in
 * sym, dso[addr] without one, ??:0 without a dso. */
static const char *srcline_fallback(struct rep *r, const struct sym_dso *dso,
				    const struct sym_entry *sym, const char *name,
				    uint64_t ip, uint64_t addr)
{
	sb_reset(&r->text);
	if (sym)
		sb_addf(&r->text, "%s+%llu", name, (unsigned long long)(ip - sym->start));
	else if (dso)
		sb_addf(&r->text, "%s[%llx]", dso->short_name, (unsigned long long)addr);
	else
		sb_adds(&r->text, "??:0");
	return intern_text(r);
}

/* addr2line's answer for row of file address vaddr: 1 with the text
 * in r->text, else rc of sym_inline_srcline */
static int srcline_ask(struct rep *r, const struct sym_dso *dso, uint64_t vaddr, size_t row)
{
	struct sym_inline_frame fr;
	if (!r->inl)
		r->inl = sym_inline_new();
	int rc = sym_inline_srcline(r->inl, dso, vaddr, row, &fr);
	sb_reset(&r->text);
	if (rc > 0) {
		const char *b = strrchr(fr.file, '/');
		sb_addf(&r->text, "%s:%u", b ? b + 1 : fr.file, fr.line);
	}
	return rc;
}

enum { A2L_FAIL_LIMIT = 123 }; /* perf's */

/* The srclines of (kind, dso, addr), looked up once: their index,
 * created with *added set (the caller fills good and fallback). */
static uint32_t prov_of(struct rep *r, char kind, const struct sym_dso *dso, uint64_t addr,
			bool *added)
{
	struct { const void *dso; uint64_t addr; char kind; } k;
	memset(&k, 0, sizeof(k));
	k.dso = dso;
	k.addr = addr;
	k.kind = kind;
	size_t id = hmap_put(&r->provmap, &k, sizeof(k), added);
	if (*added) {
		XGROW(r->provs, r->provs_cap, r->nprovs + 1);
		struct rep_prov *p = &r->provs[r->nprovs++];
		memset(p, 0, sizeof(*p));
		p->dso = dso;
	}
	return (uint32_t)id;
}

/* One addr2line question of perf's for p's dso. */
static void a2l_ask(struct rep *r, const struct rep_prov *p)
{
	if (!p->dso)
		return;
	bool added;
	uint64_t *fails = u64map_put(&r->a2l, p->dso->id, &added);
	if (added)
		*fails = 1;
	if (*fails == UINT64_MAX)
		return;
	if (p->good)
		*fails = 0;
	else if (*fails && ++*fails > A2L_FAIL_LIMIT)
		*fails = UINT64_MAX;
}

/* The srcline perf computes for p's address now: addr2line's answer
 * unless it gave up on the file; a question asked either way. */
static const char *prov_now(struct rep *r, uint32_t id)
{
	const struct rep_prov *p = &r->provs[id];
	uint64_t *fails = p->dso ? u64map_find(&r->a2l, p->dso->id) : NULL;
	const char *s = p->good && !(fails && *fails == UINT64_MAX) ? p->good : p->fallback;
	a2l_ask(r, p);
	return s;
}

static const char *self_srcline(struct rep *r, const struct proc_frame *pf)
{
	bool added;
	uint32_t id = prov_of(r, 's', pf->map ? pf->dso : NULL, pf->map ? pf->addr : 0, &added);
	if (!added)
		return prov_now(r, id);
	const char *good = NULL, *fallback;
	if (!pf->map) {
		fallback = srcline_fallback(r, NULL, NULL, NULL, 0, 0);
	} else {
		uint64_t vaddr = pf->addr + vaddr_delta(pf);
		int rc = pf->dso ? srcline_ask(r, pf->dso, vaddr, 0) : -1;
		if (rc == 0 && (a2l_knows(pf->sym) ||
				(!pf->sym && sym_dso_a2l_names(pf->dso, vaddr))))
			sb_adds(&r->text, "??:0");
		if (rc > 0 || (rc == 0 && r->text.len))
			good = intern_text(r);
		fallback = srcline_fallback(r, pf->dso, pf->sym, pf->sym ? pf->sym->name : NULL,
					    vaddr, vaddr);
	}
	r->provs[id].good = good;
	r->provs[id].fallback = fallback;
	return prov_now(r, id);
}

/* The srcline of frame i (leaf first) of a chain. perf 6.1 gives a
 * DWARF-unwound frame the line addr2line -i gave its row (the address's
 * for the innermost, a call site's for the others); without an answer,
 * and for other frames, it asks for the recorded address, which is
 * beyond the file (a PIE's or library's address, or a non-PIE's plus
 * its 0x400000 again), and falls back to name+offset of that address. */
static void chain_srcline(struct rep *r, const struct proc_sample *ps, size_t i,
			  struct rep_src *out)
{
	const struct proc_frame *pf = &ps->frames[i];
	out->known = false;
	uint64_t delta = vaddr_delta(pf);
	const char *name = pf->sym ? (pf->inline_name ? pf->inline_name : pf->sym->name) : NULL;
	if (r->dwarf_part && pf->dso && pf->sym) {
		size_t row = 0;
		while (row < i && ps->frames[i - row - 1].inline_name &&
		       ps->frames[i - row - 1].ip == pf->ip)
			row++;
		int rc = srcline_ask(r, pf->dso, pf->addr + delta, row);
		if (rc == 0 && (row > 0 || a2l_knows(pf->sym)))
			sb_adds(&r->text, "??:0");
		if (rc > 0 || r->text.len) {
			out->known = true;
			out->s = intern_text(r);
			return;
		}
	}
	bool none = !pf->map && !pf->dso && !pf->sym, added;
	uint32_t id = prov_of(r, pf->inline_name ? 'i' : 'c', none ? NULL : pf->dso,
			      none ? 0 : pf->ip, &added);
	if (added)
		r->provs[id].fallback = none ? srcline_fallback(r, NULL, NULL, NULL, 0, 0)
			: srcline_fallback(r, pf->dso, pf->sym, name, pf->ip + delta, pf->ip + delta);
	/* asked twice: perf's check for a repeat within the sample, then
	 * its entry lookup */
	out->s = prov_now(r, id);
	a2l_ask(r, &r->provs[id]);
}

/* Frame i of the sample (leaf first) as r->chain[at]. */
static void add_frame(struct rep *r, const struct proc_sample *ps, size_t i, size_t at)
{
	const struct proc_frame *pf = &ps->frames[i];
	/* a frame without a map keeps the sample's level, as perf */
	bool kernel = pf->map ? pf->kernel : pd_cpumode_is_kernel(ps->s->cpumode);
	struct rep_frame f = { pf->dso, pf->sym, pf->sym ? pf->inline_name : NULL,
			       pf->ip, level_of(kernel, ps->s->cpumode) };
	r->chain[at] = frame_id(r, &f);
	r->chain_ip[at] = pf->ip;
	if (r->srcline && r->o.children)
		chain_srcline(r, ps, i, &r->chain_src[at]);
}

/* Of frames [lo, hi) (leaf first), the max addresses perf keeps: from
 * the leaf when leaf, else from the root: [*a, *b). */
static void keep_part(const struct proc_sample *ps, size_t lo, size_t hi, size_t max,
		      bool leaf, size_t *a, size_t *b)
{
	size_t seen = 0;
	*a = lo;
	*b = hi;
	if (leaf) {
		for (size_t i = lo; i < hi; i++)
			if ((i == lo || starts_address(ps, i)) && seen++ == max) {
				*b = i;
				return;
			}
		return;
	}
	*a = hi;
	for (size_t i = hi; i-- > lo; ) {
		if (i != lo && !starts_address(ps, i))
			continue;
		if (seen++ == max)
			return;
		*a = i;
	}
}

/* The chain in display order, as frame ids, into r->chain: the frames
 * perf keeps, max_stack addresses from the leaf when callee first, from
 * the root when caller first; a DWARF-unwound user part always from the
 * leaf (perf's unwinder stops there), its kernel part apart. */
static size_t sample_chain(struct rep *r, struct proc_session *ses, const struct proc_sample *ps)
{
	size_t n = ps->nframes, k = 0;
	bool callee = r->o.order == REP_CALLEE;
	size_t part[4];
	if (proc_session_hooked(ses, ps->s)) {
		while (k < n && ps->frames[k].kernel)
			k++;
		keep_part(ps, 0, k, r->o.max_stack, callee, &part[0], &part[1]);
		keep_part(ps, k, n, r->o.max_stack, true, &part[2], &part[3]);
	} else {
		keep_part(ps, 0, n, r->o.max_stack, callee, &part[0], &part[1]);
		part[2] = part[3] = n;
	}
	n = (part[1] - part[0]) + (part[3] - part[2]);
	XGROW(r->chain, r->chain_cap, n + 1);
	XGROW(r->chain_ip, r->chain_ip_cap, n + 1);
	if (r->srcline)
		XGROW(r->chain_src, r->chain_src_cap, n + 1);
	size_t at = 0;
	for (int p = 0; p < 4; p += 2) {
		r->dwarf_part = p == 2;
		for (size_t i = part[p]; i < part[p + 1]; i++)
			add_frame(r, ps, i, callee ? at++ : n - 1 - at++);
	}
	return n;
}

/* The sample's tracepoint fields as perf prints them (perf script's
 * text), interned: "" when the sample has none. */
static const char *trace_of(struct rep *r, struct proc_session *ses, const struct pd_sample *s)
{
	if (!r->tp_loaded) {
		r->tp_loaded = true;
		size_t size;
		const uint8_t *data = pd_reader_tracing_data(ses->reader, &size);
		struct diag d = DIAG_INIT;
		r->tp = xmalloc(sizeof(*r->tp));
		an_tp_init(r->tp);
		r->tp->keep_print = true;
		if (data)
			an_tp_load(r->tp, data, size, &d);
	}
	sb_reset(&r->text);
	struct tep_event *ev = r->tp->tep && s->attr ? an_tp_event(r->tp, s->attr->config) : NULL;
	if (ev && s->raw) {
		struct tep_record rec;
		memset(&rec, 0, sizeof(rec));
		rec.ts = s->time;
		rec.cpu = (int)s->cpu;
		rec.size = (int)s->raw_size;
		rec.data = (void *)s->raw;
		struct trace_seq seq;
		trace_seq_init(&seq);
		tep_print_event(r->tp->tep, &seq, &rec, "%s", TEP_PRINT_INFO);
		sb_add(&r->text, seq.buffer, seq.len);
		trace_seq_destroy(&seq);
	}
	size_t id = hmap_put(&r->traces, r->text.len ? r->text.buf : "", r->text.len, NULL);
	return hmap_at(&r->traces, id)->key;
}

/* The entry template of a sample: its sampled address and context. */
static void sample_entry(struct rep *r, struct proc_session *ses,
			 const struct proc_sample *ps, struct rep_entry *t)
{
	const struct pd_sample *s = ps->s;
	bool kernel = pd_cpumode_is_kernel(s->cpumode);
	struct proc_frame pf;
	const struct proc_frame *leaf = ps->nframes ? &ps->frames[0] : NULL;
	if (leaf && leaf->ip == s->ip && leaf->kernel == kernel && leaf->map) {
		pf = *leaf; /* the chain's leaf is the sampled address, resolved */
		pf.inline_name = NULL;
	} else {
		proc_session_resolve(ses, ps->thread, kernel, s->ip, &pf);
	}
	memset(t, 0, sizeof(*t));
	t->f = (struct rep_frame){ pf.dso, pf.sym, NULL, pf.addr, level_of(pf.kernel, s->cpumode) };
	t->comm = ps->thread->comm;
	t->thread = ps->thread;
	t->thread_forks = ps->thread->nfork;
	t->tid = s->tid;
	t->cpu = (s->sample_type & PD_SAMPLE_CPU) ? (int32_t)s->cpu : -1;
	for (size_t i = 0; i < r->o.nkeys; i++) {
		if (r->o.keys[i] == REP_PARENT)
			t->parent = parent_of(ps);
		if (r->o.keys[i] == REP_TRACE)
			t->trace = trace_of(r, ses, s);
		if (r->o.keys[i] == REP_SRCLINE)
			t->srcline = self_srcline(r, &pf);
	}
	t->root = REP_NONE;
}

/* The children view: every function of the chain (r->chain[0, n),
 * stored at off) gets the period once; t is the sample's template. */
/* The entry of t, whose context is ctx and frame (id) frame, memoized
 * by both: the entry's key is theirs. */
static uint32_t entry_of(struct rep *r, struct rep_event *ev, uint64_t ctx, uint32_t frame,
			 struct rep_entry *t, char level)
{
	/* the frame's last context first: most frames are of one */
	if (frame < ev->last_cap && ev->last[frame] >> 32 == ctx + 1)
		return (uint32_t)ev->last[frame];
	bool added;
	uint64_t *memo = u64map_put(&ev->fentry, ctx << 32 | frame, &added);
	if (added) {
		if (level) { /* a chain's frame: t gets it */
			t->f = r->frames[frame];
			t->f.level = level;
		}
		*memo = entry_get(r, ev, t) + 1;
	}
	uint32_t id = (uint32_t)(*memo - 1);
	if (frame >= ev->last_cap) {
		size_t old = ev->last_cap;
		XGROW(ev->last, ev->last_cap, (size_t)frame + 1);
		memset(ev->last + old, 0, (ev->last_cap - old) * sizeof(*ev->last));
	}
	ev->last[frame] = (ctx + 1) << 32 | id;
	return id;
}

static void add_children(struct rep *r, struct rep_event *ev, struct rep_entry *t,
			 uint64_t ctx, uint32_t self, size_t n, size_t off, uint64_t p)
{
	/* an entry gets the sample once, however often its function recurs */
	uint64_t mark = ++r->serial;
	ev->e[self].mark = mark;
	char level = t->f.level;
	if (r->o.chains)
		XGROW(ev->owners, ev->owners_cap, off + n);
	/* the entries first, into r->chain (the chain is stored), each
	 * fetched: their misses overlap the next lookups; what a lookup
	 * of a class at risk keeps is noted as it comes (report.h) */
	XGROW(r->looks, r->looks_cap, n + 1);
	size_t before = ev->n;
	for (size_t i = 0; i < n; i++) {
		/* perf: a frame without a map keeps the level before it */
		if (r->flevel[r->chain[i]])
			level = r->flevel[r->chain[i]];
		uint32_t id;
		if (r->srcline) { /* the entry depends on the address */
			t->f = r->frames[r->chain[i]];
			t->f.level = level;
			t->srcline = r->chain_src[i].s;
			t->src_known = r->chain_src[i].known;
			id = entry_get(r, ev, t);
		} else {
			id = entry_of(r, ev, ctx, r->chain[i], t, level);
		}
		r->looks[i] = (struct rep_look){ ev->n != before ? UINT32_MAX : (uint32_t)ev->n,
						 level };
		before = ev->n;
		__builtin_prefetch(&ev->e[id]);
		r->chain[i] = id;
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t id = r->chain[i];
		struct rep_entry *e = &ev->e[id];
		if (r->o.chains)
			ev->owners[off + i] = e->mark == mark ? REP_NONE : id;
		if (e->mark == mark)
			continue;
		e->mark = mark;
		e->acc += p;
		if (e->risk && r->looks[i].made != UINT32_MAX &&
		    risk_keep(ev, id, r->looks[i].made, t, r->looks[i].level, n - i))
			continue;
		if (r->o.chains)
			depth_add(e, n - i);
	}
}

void rep_decide(struct rep *r, const struct pd_reader *rd, int children,
		bool graph_none, bool sorted)
{
	bool chains = false;
	for (size_t i = 0; i < pd_reader_nr_attrs(rd); i++)
		chains |= (pd_reader_attr(rd, i)->sample_type & PD_SAMPLE_CALLCHAIN) != 0;
	/* perf settles children before a pipe's attrs arrive: off there,
	 * even when asked (call graphs stay caller first) */
	bool can = chains && !pd_reader_is_pipe(rd);
	r->o.children = children < 0 ? can : children && can;
	r->o.chains = chains && !graph_none;
	/* perf's default for a file of tracepoints alone: -s trace */
	bool tracepoints = pd_reader_nr_attrs(rd) > 0;
	for (size_t i = 0; i < pd_reader_nr_attrs(rd); i++)
		tracepoints &= pd_reader_attr(rd, i)->type == PD_TYPE_TRACEPOINT;
	if (tracepoints && !sorted) {
		r->o.keys[0] = REP_TRACE;
		r->o.nkeys = 1;
	}
}

void rep_add(struct rep *r, struct proc_session *ses, const struct proc_sample *ps)
{
	struct rep_event *ev = event_of(r, ps->s->attr);
	struct rep_entry t;
	sample_entry(r, ses, ps, &t);
	uint64_t p = ps->s->period;
	ev->total += p;
	ev->samples++;
	uint64_t ctx = context_id(r, &t);
	/* with srcline the entry depends on the address (and perf marks a
	 * found one as compared): no memo */
	size_t before = ev->n;
	uint32_t self = r->srcline ? entry_get(r, ev, &t)
				   : entry_of(r, ev, ctx, frame_id(r, &t.f), &t, 0);
	bool made = ev->n != before;
	uint32_t made_before = (uint32_t)ev->n; /* none made since */
	__builtin_prefetch(&ev->e[self]); /* used after the chain's lookups */
	size_t n = (r->o.chains || r->o.children) ? sample_chain(r, ses, ps) : 0;
	struct rep_entry *e = &ev->e[self];
	e->period += p;
	e->samples++;
	if (r->o.children)
		e->acc += p;
	size_t off = ev->nchains;
	if (r->o.chains) {
		XGROW(ev->chains, ev->chains_cap, off + n);
		XGROW(ev->chain_ips, ev->chain_ips_cap, off + n);
		if (n) {
			memcpy(ev->chains + off, r->chain, n * sizeof(*r->chain));
			memcpy(ev->chain_ips + off, r->chain_ip, n * sizeof(*r->chain_ip));
		}
		ev->nchains += n;
		XGROW(ev->sampled, ev->sampled_cap, ev->nsampled + 1);
		ev->sampled[ev->nsampled++] = (struct rep_chain){ self, (uint32_t)off, (uint32_t)n, p };
		if (made || !e->risk || !risk_keep(ev, self, made_before, &t, t.f.level, n))
			depth_add(e, n);
	} else if (!made && e->risk) {
		risk_keep(ev, self, made_before, &t, t.f.level, 0);
	}
	if (r->o.children)
		add_children(r, ev, &t, ctx, self, n, off, p);
}

/* ---- output order ----
 * perf inserts the entries, in the order of its collapsed tree, into a
 * red-black tree by a comparison that is not transitive (callers above
 * callees only within a thread), so the order depends on the tree's
 * shape: it is rebuilt here the same way. Comparisons follow perf's
 * sign: for the collapsed tree negative goes first, for the output tree
 * positive goes first.
 */

static int64_t u64_cmp(uint64_t a, uint64_t b)
{
	return a > b ? 1 : a < b ? -1 : 0;
}

static int64_t cmp_null(const void *l, const void *r)
{
	if (!l && !r)
		return 0;
	return !l ? -1 : 1;
}

static int64_t sgn(int c)
{
	return c < 0 ? -1 : c > 0;
}

static const char *sym_name(const struct rep_entry *e)
{
	return e->f.inl ? e->f.inl : e->f.sym->name;
}

static int64_t dso_cmp(const struct rep_entry *l, const struct rep_entry *r)
{
	const struct sym_dso *dl = r->f.dso, *dr = l->f.dso; /* perf swaps */
	if (!dl || !dr)
		return cmp_null(dr, dl); /* ... and swaps back */
	/* by short name, as ranked at rep_sort */
	return (int64_t)r->dso_rank - (int64_t)l->dso_rank;
}

static int64_t sym_collapse(const struct rep_entry *l, const struct rep_entry *r)
{
	if (!l->f.sym && !r->f.sym)
		return (int64_t)(r->f.ip - l->f.ip);
	int64_t c = dso_cmp(l, r);
	if (c)
		return c;
	const struct sym_entry *sl = l->f.sym, *sr = r->f.sym;
	if (!sl || !sr)
		return cmp_null(sl, sr);
	if (sl == sr && l->f.inl == r->f.inl)
		return 0;
	if (l->f.inl || r->f.inl) {
		int n = strcmp(sym_name(l), sym_name(r));
		if (n)
			return sgn(n);
		if (sl->start <= sr->end && sl->end >= sr->start)
			return 0;
	}
	if (sl->start != sr->start)
		return (int64_t)(sr->start - sl->start);
	return (int64_t)(sr->end - sl->end);
}

static int64_t parent_cmp(const struct rep_entry *l, const struct rep_entry *r)
{
	if (!l->parent || !r->parent)
		return cmp_null(l->parent, r->parent);
	return sgn(strcmp(r->parent, l->parent));
}

static int64_t key_collapse(const struct rep_entry *l, const struct rep_entry *r, enum rep_key k)
{
	switch (k) {
	case REP_COMM: /* as ranked at rep_sort */
		return (int64_t)r->comm_rank - (int64_t)l->comm_rank;
	case REP_PID: return (int64_t)(int32_t)r->tid - (int64_t)(int32_t)l->tid; /* pid_t: -1 for an exiting task */
	case REP_DSO: return dso_cmp(l, r);
	case REP_SYM: return sym_collapse(l, r);
	case REP_IPC: return sym_collapse(l, r);
	case REP_CPU: return (int64_t)r->cpu - (int64_t)l->cpu;
	case REP_PARENT: return parent_cmp(l, r);
	case REP_TRACE: return sgn(strcmp(r->trace, l->trace));
	case REP_SRCLINE: return sgn(strcmp(r->srcline, l->srcline));
	case REP_SYMSIZE: return u64_cmp(rep_sym_size(r), rep_sym_size(l));
	case REP_NKEY: break;
	}
	return 0;
}

static int64_t key_sort(const struct rep_entry *l, const struct rep_entry *r, enum rep_key k)
{
	switch (k) {
	case REP_SYM:
		if (!l->f.sym || !r->f.sym)
			return cmp_null(l->f.sym, r->f.sym);
		return sgn(strcmp(sym_name(r), sym_name(l)));
	default:
		return key_collapse(l, r, k);
	}
}

/* perf's sort of the children column: callers above callees of the
 * same thread when the period is equal */
static int64_t children_cmp(const struct rep_opts *o, const struct rep_entry *a,
			    const struct rep_entry *b)
{
	if (a->acc != b->acc)
		return a->acc > b->acc ? 1 : -1;
	if (o->chains && a->thread == b->thread && a->thread_forks == b->thread_forks) {
		int64_t c = (int64_t)b->max_depth - (int64_t)a->max_depth;
		if (c)
			return o->order == REP_CALLER ? -c : c;
	}
	return 0;
}

/* perf's hist_entry__sort(a, b): positive puts a first; with -F the
 * fields in their order */
static int64_t out_cmp(const struct rep *r, const struct rep_entry *a, const struct rep_entry *b)
{
	const struct rep_opts *o = &r->o;
	int64_t c = 0;
	if (o->nfields) {
		const int *order = o->nsort ? o->sort : o->fields;
		size_t n = o->nsort ? o->nsort : o->nfields;
		for (size_t i = 0; i < n && !c; i++) {
			int f = order[i];
			if (f == REP_F_CHILDREN)
				c = o->children ? children_cmp(o, a, b) : 0;
			else if (f == REP_F_OVERHEAD || f == REP_F_PERIOD)
				c = u64_cmp(a->period, b->period);
			else if (f == REP_F_SAMPLE)
				c = u64_cmp(a->samples, b->samples);
			else
				c = key_sort(a, b, (enum rep_key)f);
		}
		return c;
	}
	if (o->children && (c = children_cmp(o, a, b)) != 0)
		return c;
	if (a->period != b->period)
		return a->period > b->period ? 1 : -1;
	for (size_t i = 0; i < o->nkeys; i++) {
		c = key_sort(a, b, o->keys[i]);
		if (c)
			return c;
	}
	return 0;
}

/* A red-black tree over entries (the classic insertion: the same shapes
 * as the kernel's rbtree that perf uses). A node holds its links, its
 * entry and a copy of what the comparisons read of the entry, in one
 * cache line: a tree of 325k entries (of 152 bytes) is walked 20 levels
 * deep at each insertion. */
struct rb_key {
	uint64_t a, b;          /* in: the symbol's start and end, or the
				 * unresolved address; out: acc, period */
	uint64_t pre, post;     /* in: the keys before the symbol's, those
				 * after, packed; out: pre, all keys packed */
	uint64_t thread;        /* out: thread_id */
	uint32_t depth;         /* out: max_depth */
	uint32_t dso : 29, has_dso : 1, has_sym : 1, has_inl : 1; /* dso's rank */
};

struct rb_node {
	uint32_t l, r, p;
	uint32_t e : 31, red : 1; /* the entry */
	struct rb_key k;
};

/* The keys but the symbol's as one number (the collapsed tree's: two,
 * the keys before the symbol's and those after): each key's rank among
 * the event's entries, in key_collapse's order (a NULL dso or symbol
 * after every other), in a field of its bits, the first key highest.
 * One comparison of numbers then does the work of a key by key one. */
struct packing {
	uint32_t *tid, *cpu;    /* per entry: its tid's, cpu's rank (NULL:
				 * not a key) */
	uint32_t max_comm, max_tid, max_cpu; /* the highest ranks */
	uint32_t null_dso, null_sym; /* the values of a NULL dso and symbol
				 * (above every rank) */
	size_t first;           /* the first symbol key (nkeys: none) */
	bool in, out;           /* whether the keys fit: the collapsed
				 * tree's, the output's */
	struct rb_key *keys;    /* per entry: its key in the trees being
				 * built (keys_fill), read in entry order
				 * once instead of in each tree's order */
};

struct rbt {
	struct rb_node *n;
	uint32_t root;
	const struct packing *pk;
};

static uint32_t *rb_link(struct rb_node *x, bool left)
{
	return left ? &x->l : &x->r;
}

static void rot(struct rbt *t, uint32_t x, bool left)
{
	struct rb_node *n = t->n;
	uint32_t y = *rb_link(&n[x], !left);
	uint32_t inner = *rb_link(&n[y], left);
	*rb_link(&n[x], !left) = inner;
	if (inner != REP_NONE)
		n[inner].p = x;
	uint32_t p = n[x].p;
	n[y].p = p;
	if (p == REP_NONE)
		t->root = y;
	else
		*rb_link(&n[p], x == n[p].l) = y;
	*rb_link(&n[y], left) = x;
	n[x].p = y;
}

static void fixup(struct rbt *t, uint32_t z)
{
	struct rb_node *n = t->n;
	while (n[z].p != REP_NONE && n[n[z].p].red) {
		uint32_t p = n[z].p, g = n[p].p;
		bool left = p == n[g].l;
		uint32_t u = *rb_link(&n[g], !left);
		if (u != REP_NONE && n[u].red) {
			n[p].red = n[u].red = 0;
			n[g].red = 1;
			z = g;
			continue;
		}
		if (z == *rb_link(&n[p], !left)) {
			z = p;
			rot(t, z, left);
			p = n[z].p;
			g = n[p].p;
		}
		n[p].red = 0;
		n[g].red = 1;
		rot(t, g, !left);
	}
	n[t->root].red = 0;
}

/* Ranks of strings (their distinct pointers: few) in strcmp's order,
 * equal strings equal. */
static const char **g_strs;

static int by_str(const void *pa, const void *pb)
{
	return strcmp(g_strs[*(const uint32_t *)pa], g_strs[*(const uint32_t *)pb]);
}

struct ranker {
	struct u64map ids;      /* pointer -> index in strs */
	const char **strs;
	size_t n, cap;
};

static uint32_t ranker_add(struct ranker *k, const char *s)
{
	bool added;
	uint64_t *v = u64map_put(&k->ids, (uint64_t)(uintptr_t)s, &added);
	if (added) {
		XGROW(k->strs, k->cap, k->n + 1);
		k->strs[k->n] = s;
		*v = k->n++;
	}
	return (uint32_t)*v;
}

/* Turn the indexes ranker_add gave into ranks: out[index] = rank. */
static uint32_t *ranker_finish(struct ranker *k)
{
	uint32_t *ord = xmalloc((k->n + 1) * sizeof(*ord));
	uint32_t *rank = xmalloc((k->n + 1) * sizeof(*rank));
	for (size_t i = 0; i < k->n; i++)
		ord[i] = (uint32_t)i;
	g_strs = k->strs;
	qsort(ord, k->n, sizeof(*ord), by_str);
	for (size_t i = 0, rk = 0; i < k->n; i++) {
		if (i && strcmp(k->strs[ord[i - 1]], k->strs[ord[i]]))
			rk++;
		rank[ord[i]] = (uint32_t)rk;
	}
	free(ord);
	u64map_release(&k->ids);
	free(k->strs);
	return rank;
}

/* The entries' comm_rank, dso_rank and name_rank: the sorts compare
 * those, not the strings (a strcmp per comparison, most of them equal). */
static void set_ranks(struct rep_event *ev)
{
	struct ranker c, d, s;
	memset(&c, 0, sizeof(c));
	memset(&d, 0, sizeof(d));
	memset(&s, 0, sizeof(s));
	for (size_t j = 0; j < ev->n; j++) {
		struct rep_entry *e = &ev->e[j];
		e->comm_rank = ranker_add(&c, e->comm);
		e->dso_rank = e->f.dso ? ranker_add(&d, e->f.dso->short_name) : 0;
		e->name_rank = e->f.sym ? ranker_add(&s, sym_name(e)) : 0;
	}
	uint32_t *cr = ranker_finish(&c), *dr = ranker_finish(&d), *sr = ranker_finish(&s);
	for (size_t j = 0; j < ev->n; j++) {
		struct rep_entry *e = &ev->e[j];
		e->comm_rank = cr[e->comm_rank];
		e->dso_rank = e->f.dso ? dr[e->dso_rank] : 0;
		e->name_rank = e->f.sym ? sr[e->name_rank] : 0;
	}
	free(cr);
	free(dr);
	free(sr);
}

/* perf's hist_entry__cmp / __collapse: negative puts r (the new entry)
 * left of l */
static int64_t in_cmp(const struct rep *rp, const struct rep_entry *l, const struct rep_entry *r)
{
	for (size_t i = 0; i < rp->o.nkeys; i++) {
		int64_t c = key_collapse(l, r, rp->o.keys[i]);
		if (c)
			return c;
	}
	return 0;
}

/* perf computes an entry's srcline when a comparison reaches that key
 * (and sizes the column only with the ones it has): mark a and b when
 * in_cmp (!out) or out_cmp would. */
static void note_srcline(const struct rep *r, struct rep_entry *a, struct rep_entry *b, bool out)
{
	const struct rep_opts *o = &r->o;
	if (out && !o->nfields) {
		if ((o->children && children_cmp(o, a, b)) || a->period != b->period)
			return;
	}
	const int *order = o->nsort ? o->sort : o->fields;
	size_t n = o->nsort ? o->nsort : o->nfields;
	if (!out || !o->nfields) {
		order = (const int *)o->keys; /* enum rep_key is an int */
		n = o->nkeys;
	}
	for (size_t i = 0; i < n; i++) {
		int f = order[i];
		if (f == REP_SRCLINE) {
			a->src_known = b->src_known = true;
			return;
		}
		int64_t c;
		if (f == REP_F_CHILDREN)
			c = o->children ? children_cmp(o, a, b) : 0;
		else if (f == REP_F_OVERHEAD || f == REP_F_PERIOD)
			c = u64_cmp(a->period, b->period);
		else if (f == REP_F_SAMPLE)
			c = u64_cmp(a->samples, b->samples);
		else
			c = out ? key_sort(a, b, (enum rep_key)f) : key_collapse(b, a, (enum rep_key)f);
		if (c)
			return;
	}
}

/* ---- the comparisons on node keys ----
 * The same results as key_collapse, in_cmp and out_cmp for the common
 * keys (comm, pid, dso, sym, cpu), read from the nodes; an inline row's
 * symbol is compared on its entry. */

static unsigned bits_of(uint32_t max)
{
	return max ? 32u - (unsigned)__builtin_clz(max) : 0;
}

/* Key k's bits (65: no key packed) */
static unsigned pack_bits(const struct packing *pk, enum rep_key k)
{
	switch (k) {
	case REP_COMM: return bits_of(pk->max_comm);
	case REP_PID: return bits_of(pk->max_tid);
	case REP_DSO: return bits_of(pk->null_dso);
	case REP_CPU: return bits_of(pk->max_cpu);
	case REP_SYM: case REP_IPC: return bits_of(pk->null_sym);
	default: return 65;
	}
}

/* Key k's value of entry j (e); the symbol's by its name */
static uint64_t pack_value(const struct packing *pk, const struct rep_entry *e, uint32_t j,
			   enum rep_key k)
{
	switch (k) {
	case REP_COMM: return e->comm_rank;
	case REP_PID: return pk->tid[j];
	case REP_DSO: return e->f.dso ? e->dso_rank : pk->null_dso;
	case REP_CPU: return pk->cpu[j];
	case REP_SYM: case REP_IPC: return e->f.sym ? e->name_rank : pk->null_sym;
	default: return 0;
	}
}

/* The width of keys [from, to) packed, the symbol's left out unless out
 * (above 64: they do not fit) */
static unsigned pack_width(const struct rep *r, const struct packing *pk, size_t from, size_t to,
			   bool out)
{
	unsigned bits = 0;
	for (size_t i = from; i < to; i++)
		if (out || (r->o.keys[i] != REP_SYM && r->o.keys[i] != REP_IPC))
			bits += pack_bits(pk, r->o.keys[i]);
	return bits;
}

/* Keys [from, to) of entry j (e) packed, the symbol's left out unless
 * out (they fit: pack_init said so) */
static uint64_t pack_keys(const struct rep *r, const struct packing *pk, const struct rep_entry *e,
			  uint32_t j, size_t from, size_t to, bool out)
{
	uint64_t v = 0;
	for (size_t i = from; i < to; i++) {
		enum rep_key k = r->o.keys[i];
		if (out || (k != REP_SYM && k != REP_IPC))
			v = v << pack_bits(pk, k) | pack_value(pk, e, j, k);
	}
	return v;
}

static void key_common(const struct rep_entry *e, struct rb_key *k)
{
	memset(k, 0, sizeof(*k));
	k->dso = e->dso_rank;
	k->has_dso = e->f.dso != NULL;
	k->has_sym = e->f.sym != NULL;
	k->has_inl = e->f.inl != NULL;
}

/* What in_cmp reads, of entry j */
static void key_in(const struct rep *r, const struct packing *pk, const struct rep_event *ev,
		   uint32_t j, struct rb_key *k)
{
	const struct rep_entry *e = &ev->e[j];
	key_common(e, k);
	k->a = e->f.sym ? e->f.sym->start : e->f.ip;
	k->b = e->f.sym ? e->f.sym->end : 0;
	if (!pk->in)
		return;
	k->pre = pack_keys(r, pk, e, j, 0, pk->first, false);
	k->post = pack_keys(r, pk, e, j, pk->first, r->o.nkeys, false);
}

/* perf's thread of an entry as one number for the key (user space
 * pointers are below 2^48; a tid forked 2^16 times would only blur a
 * tie order) */
static uint64_t thread_id(const struct rep_entry *e)
{
	return (uint64_t)(uintptr_t)e->thread ^ (uint64_t)e->thread_forks << 48;
}

/* What out_cmp reads, of entry j */
static void key_out(const struct rep *r, const struct packing *pk, const struct rep_event *ev,
		    uint32_t j, struct rb_key *k)
{
	const struct rep_entry *e = &ev->e[j];
	key_common(e, k);
	k->a = e->acc;
	k->b = e->period;
	k->thread = thread_id(e);
	k->depth = e->max_depth;
	if (pk->out)
		k->pre = pack_keys(r, pk, e, j, 0, r->o.nkeys, true);
}

/* Every entry's key for the collapsed trees (!out) or the output's. */
static void keys_fill(const struct rep *r, struct packing *pk, const struct rep_event *ev, bool out)
{
	if (!pk->keys)
		pk->keys = xmalloc((ev->n ? ev->n : 1) * sizeof(*pk->keys));
	for (uint32_t j = 0; j < ev->n; j++)
		(out ? key_out : key_in)(r, pk, ev, j, &pk->keys[j]);
}

/* cmp_null of two pointers (one at least NULL), by whether they are set */
static int64_t null_cmp(bool l, bool r)
{
	if (!l && !r)
		return 0;
	return !l ? -1 : 1;
}

static int64_t dso_fast(const struct rb_key *l, const struct rb_key *r)
{
	if (!l->has_dso || !r->has_dso)
		return null_cmp(l->has_dso, r->has_dso);
	return (int64_t)r->dso - (int64_t)l->dso;
}

/* sym_collapse of keys from key_in, neither an inline row */
static inline int64_t sym_fast(const struct rb_key *l, const struct rb_key *r)
{
	if (!l->has_sym && !r->has_sym)
		return (int64_t)(r->a - l->a);
	int64_t c = dso_fast(l, r);
	if (c)
		return c;
	if (!l->has_sym || !r->has_sym)
		return null_cmp(l->has_sym, r->has_sym);
	if (l->a != r->a)
		return (int64_t)(r->a - l->a);
	return (int64_t)(r->b - l->b);
}

/* in_cmp(l, r) on keys (le, re: their entries): the keys before the
 * symbol's, the symbol (an inline row's on the entries), the others */
static inline int64_t in_fast(const struct rep *rp, const struct packing *pk, const struct rep_event *ev,
		       const struct rb_key *l, uint32_t le, const struct rb_key *r, uint32_t re)
{
	if (l->pre != r->pre)
		return r->pre > l->pre ? 1 : -1;
	if (pk->first < rp->o.nkeys) {
		int64_t c = l->has_inl || r->has_inl
			? key_collapse(&ev->e[le], &ev->e[re], rp->o.keys[pk->first])
			: sym_fast(l, r);
		if (c)
			return c;
	}
	if (l->post != r->post)
		return r->post > l->post ? 1 : -1;
	return 0;
}

/* out_cmp(a, b) on keys past children_cmp: the self period, the keys */
static int64_t out_rest(const struct rb_key *a, const struct rb_key *b)
{
	if (a->b != b->b)
		return a->b > b->b ? 1 : -1;
	if (a->pre != b->pre)
		return b->pre > a->pre ? 1 : -1;
	return 0;
}

/* children_cmp's callers above callees of a thread, on keys */
static int64_t depth_cmp(const struct rep_opts *o, const struct rb_key *a, const struct rb_key *b)
{
	if (!o->chains || a->thread != b->thread || a->depth == b->depth)
		return 0;
	int64_t c = (int64_t)b->depth - (int64_t)a->depth;
	return o->order == REP_CALLER ? -c : c;
}

/* out_cmp(a, b) on keys (perf's default sort, keys without symbol_size) */
static inline int64_t out_fast(const struct rep *rp, const struct rb_key *a, const struct rb_key *b)
{
	const struct rep_opts *o = &rp->o;
	if (o->children) { /* children_cmp */
		if (a->a != b->a)
			return a->a > b->a ? 1 : -1;
		int64_t c = depth_cmp(o, a, b);
		if (c)
			return c;
	}
	return out_rest(a, b);
}

/* Whether the comparisons of a tree (out: the output's) can read the
 * node keys alone */
static bool keys_fast(const struct rep *r, const struct packing *pk, bool out)
{
	if (r->srcline || (out && r->o.nfields) || !(out ? pk->out : pk->in))
		return false;
	for (size_t i = 0; i < r->o.nkeys; i++) {
		enum rep_key k = r->o.keys[i];
		if (k != REP_COMM && k != REP_PID && k != REP_DSO && k != REP_SYM &&
		    k != REP_CPU && (out || k != REP_IPC))
			return false;
	}
	return true;
}

/* Whether node x, being inserted, goes left of node at. */
static bool goes_left(const struct rep *r, struct rep_event *ev, const struct packing *pk,
		      const struct rb_node *x, const struct rb_node *at, bool out, bool fast)
{
	if (fast)
		return out ? out_fast(r, &x->k, &at->k) > 0
			   : in_fast(r, pk, ev, &at->k, at->e, &x->k, x->e) < 0;
	struct rep_entry *ex = &ev->e[x->e], *ea = &ev->e[at->e];
	if (r->srcline)
		note_srcline(r, ex, ea, out);
	return out ? out_cmp(r, ex, ea) > 0 : in_cmp(r, ea, ex) < 0;
}

/* The entries of t's nodes in order (the nodes themselves when nodes),
 * into ord: down the left links with a stack, a node's right kid
 * fetched when the node is stacked (it is needed when its left subtree
 * is done). A red-black tree of 2^31 nodes is at most 62 deep. */
static void rb_walk(const struct rbt *t, uint32_t *ord, bool nodes)
{
	const struct rb_node *n = t->n;
	uint32_t stack[96];
	size_t sp = 0, k = 0;
	uint32_t x = t->root;
	for (;;) {
		for (; x != REP_NONE; x = n[x].l) {
			if (n[x].r != REP_NONE)
				__builtin_prefetch(&n[n[x].r]);
			stack[sp++] = x;
		}
		if (!sp)
			break;
		x = stack[--sp];
		ord[k++] = nodes ? x : n[x].e;
		x = n[x].r;
	}
}

/* A tree on nodes (room for ev's entries) for the entries of ord, in
 * its order (their keys when fast). */
static struct rbt rb_new(const struct rep *r, const struct packing *pk,
			 const struct rep_event *ev, const uint32_t *ord, bool out, bool fast,
			 struct rb_node *nodes)
{
	struct rbt t = { nodes, REP_NONE, pk };
	for (uint32_t i = 0; i < ev->n; i++) {
		struct rb_node *x = &t.n[i];
		x->l = x->r = x->p = REP_NONE;
		x->e = ord[i];
		x->red = 1;
		if (fast)
			x->k = pk->keys[ord[i]];
	}
	return t;
}

/* Insert node i (nodes are positions in ord) by a search from the
 * root; returns whether it went right all the way. */
static bool rb_insert(const struct rep *r, struct rep_event *ev, struct rbt *t, uint32_t i,
		      bool out, bool fast)
{
	uint32_t at = t->root, parent = REP_NONE;
	bool left = false, last = true;
	const struct rb_node *x = &t->n[i];
	/* one loop per comparison: the fast ones inline */
	if (fast && out) {
		for (; at != REP_NONE; at = left ? t->n[at].l : t->n[at].r) {
			parent = at;
			left = out_fast(r, &x->k, &t->n[at].k) > 0;
			last &= !left;
		}
	} else if (fast) {
		for (; at != REP_NONE; at = left ? t->n[at].l : t->n[at].r) {
			parent = at;
			left = in_fast(r, t->pk, ev, &t->n[at].k, t->n[at].e, &x->k, x->e) < 0;
			last &= !left;
		}
	} else {
		for (; at != REP_NONE; at = left ? t->n[at].l : t->n[at].r) {
			parent = at;
			left = goes_left(r, ev, t->pk, x, &t->n[at], out, false);
			last &= !left;
		}
	}
	t->n[i].p = parent;
	if (parent == REP_NONE)
		t->root = i;
	else
		*rb_link(&t->n[parent], left) = i;
	fixup(t, i);
	return last;
}

/* Reorder ord (entry indexes) as perf's tree lists the entries after
 * inserting them in ord's order: by hist_entry__cmp (entries_in,
 * collapsed) when !out, else by hist_entry__sort (the output). The
 * entries stay in place (rep_sort moves them once). */
static void rb_order(const struct rep *r, const struct packing *pk, struct rep_event *ev,
		     uint32_t *ord, bool out, struct rb_node *nodes)
{
	bool fast = keys_fast(r, pk, out);
	struct rbt t = rb_new(r, pk, ev, ord, out, fast, nodes);
	for (uint32_t i = 0; i < ev->n; i++)
		rb_insert(r, ev, &t, i, out, fast);
	rb_walk(&t, ord, false);
}

/* ---- perf's first tree, replayed with its lookups ----
 * Where a class is at risk (report.h) perf's lookup of an entry it
 * holds can take a wrong turn and make a second node for it. The tree
 * is rebuilt as perf built it: the entries inserted in the order they
 * were made, the kept lookups searched in between, a missed one making
 * a node. At the collapse the first node of an entry in tree order is
 * kept and the others merged into it (their periods summed; assumed
 * found, as a collapse of perf's does when the comparisons agree), so
 * the entry takes that node's level, thread and longest chain (perf
 * merges call chains without raising max_depth). */

struct replay_node {   /* a second node: what its first lookup gave */
	const struct proc_thread *thread;
	uint32_t forks, depth;
	char level;
};

struct replay {
	struct rbt t;
	size_t n, nnodes;             /* entries; nodes so far */
	uint32_t *hit_depth;          /* per entry's first node: the longest
				       * chain of the lookups it got */
	struct replay_node *more;     /* nodes from n on */
};

static void replay_lookup(const struct rep *r, struct rep_event *ev, struct replay *rp,
			  const struct rep_lookup *lk)
{
	struct rb_node *n = rp->t.n;
	const struct rb_key k = rp->t.pk->keys[lk->entry];
	uint32_t at = rp->t.root, parent = REP_NONE;
	bool left = false;
	while (at != REP_NONE) {
		int64_t c = in_fast(r, rp->t.pk, ev, &n[at].k, n[at].e, &k, lk->entry);
		if (c == 0) {
			uint32_t *d = at < rp->n ? &rp->hit_depth[at] : &rp->more[at - rp->n].depth;
			*d = lk->depth > *d ? lk->depth : *d;
			return;
		}
		parent = at;
		left = c < 0;
		at = left ? n[at].l : n[at].r;
	}
	uint32_t x = (uint32_t)rp->nnodes++;
	n[x] = (struct rb_node){ REP_NONE, REP_NONE, parent, lk->entry, 1, k };
	rp->more[x - rp->n] = (struct replay_node){ lk->thread, lk->thread_forks, lk->depth, lk->level };
	if (parent == REP_NONE)
		rp->t.root = x;
	else
		*rb_link(&n[parent], left) = x;
	fixup(&rp->t, x);
}

/* Entry e as its first node x left it. */
static void replay_take(struct replay *rp, struct rep_entry *e, uint32_t x)
{
	if (x < rp->n) {
		e->max_depth = rp->hit_depth[x] > e->max_depth ? rp->hit_depth[x] : e->max_depth;
		return;
	}
	const struct replay_node *m = &rp->more[x - rp->n];
	e->f.level = m->level;
	e->thread = m->thread;
	e->thread_forks = m->forks;
	e->max_depth = m->depth;
}

/* rb_order of the first tree (ord: the entries as made) with the kept
 * lookups: ord gets each entry at its first node's place. */
static void rb_order_replay(const struct rep *r, const struct packing *pk, struct rep_event *ev,
			    uint32_t *ord)
{
	struct replay rp;
	rp.n = rp.nnodes = ev->n;
	void *mem = xmalloc((ev->n + ev->nlookups + 1) * sizeof(struct rb_node));
	rp.t = rb_new(r, pk, ev, ord, false, true,
		      (struct rb_node *)(((uintptr_t)mem + 63) & ~(uintptr_t)63));
	rp.hit_depth = xcalloc(ev->n ? ev->n : 1, sizeof(*rp.hit_depth));
	rp.more = xmalloc((ev->nlookups ? ev->nlookups : 1) * sizeof(*rp.more));
	size_t li = 0;
	for (uint32_t i = 0; i <= ev->n; i++) {
		for (; li < ev->nlookups && ev->lookups[li].made <= i; li++)
			replay_lookup(r, ev, &rp, &ev->lookups[li]);
		if (i < ev->n)
			rb_insert(r, ev, &rp.t, i, false, true);
	}
	bool *seen = xcalloc(ev->n ? ev->n : 1, sizeof(*seen));
	uint32_t *in_order = xmalloc(rp.nnodes * sizeof(*in_order));
	rb_walk(&rp.t, in_order, true);
	size_t k = 0;
	for (size_t w = 0; w < rp.nnodes; w++) {
		uint32_t x = in_order[w], e = rp.t.n[x].e;
		if (seen[e])
			continue;
		seen[e] = true;
		ord[k++] = e;
		replay_take(&rp, &ev->e[e], x);
	}
	free(in_order);
	free(seen);
	free(rp.more);
	free(rp.hit_depth);
	free(mem);
}

/* ---- orders by sorting ----
 * A tree whose comparison is a strict weak order on the entries lists
 * them as a stable sort does (ties in insertion order). Perf's are not
 * one in general (an unresolved address is compared by its address
 * alone, as a difference of 64 bits; callers above callees of a thread
 * only); where they are one on the entries at hand, a merge sort gives
 * the tree's order without its walks of 20 levels of nodes. */

struct sort_item {
	struct rb_key k;
	uint32_t e, pos;        /* the entry; its place in the insertion order */
};

struct sort_ctx {
	const struct rep *r;
	const struct packing *pk;
	const struct rep_event *ev;
	bool out;
};

/* < 0: x comes before y in the tree's order */
static int64_t item_cmp(const struct sort_ctx *c, const struct sort_item *x,
			const struct sort_item *y)
{
	int64_t v = c->out ? -out_fast(c->r, &x->k, &y->k)
			   : in_fast(c->r, c->pk, c->ev, &y->k, y->e, &x->k, x->e);
	return v ? v : (int64_t)x->pos - (int64_t)y->pos;
}

/* A stable merge sort by item_cmp (used where it is an order; it stays
 * in bounds whatever it says). tmp holds n / 2 items. */
static void merge_sort(const struct sort_ctx *c, struct sort_item *a, struct sort_item *tmp,
		       size_t n)
{
	if (n <= 12) {
		for (size_t i = 1; i < n; i++) {
			struct sort_item x = a[i];
			size_t j = i;
			for (; j > 0 && item_cmp(c, &x, &a[j - 1]) < 0; j--)
				a[j] = a[j - 1];
			a[j] = x;
		}
		return;
	}
	size_t h = n / 2;
	merge_sort(c, a, tmp, h);
	merge_sort(c, a + h, tmp, n - h);
	if (item_cmp(c, &a[h - 1], &a[h]) <= 0)
		return;
	memcpy(tmp, a, h * sizeof(*a));
	size_t i = 0, j = h, k = 0;
	while (i < h && j < n)
		a[k++] = item_cmp(c, &a[j], &tmp[i]) < 0 ? a[j++] : tmp[i++];
	while (i < h)
		a[k++] = tmp[i++];
}

struct span {
	uint64_t lo, hi;
	bool set;
};

static void span_add(struct span *s, uint64_t v)
{
	if (!s->set || v < s->lo)
		s->lo = v;
	if (!s->set || v > s->hi)
		s->hi = v;
	s->set = true;
}

/* The keys before the first symbol key: *dso_first, whether dso is one
 * of them; their count returned. */
static size_t keys_before_sym(const struct rep *r, bool *dso_first)
{
	size_t k = 0;
	*dso_first = false;
	for (; k < r->o.nkeys && r->o.keys[k] != REP_SYM && r->o.keys[k] != REP_IPC; k++)
		*dso_first |= r->o.keys[k] == REP_DSO;
	return k;
}

/* Whether in_cmp (the keys fast) is a strict weak order on ev's entries:
 * no inline rows; per dso, addresses whose differences keep their sign
 * in 64 bits; unresolved addresses, compared alone, all of one dso
 * unless a dso key comes first. */
static bool in_sortable(const struct rep *r, const struct packing *pk, const struct rep_event *ev)
{
	bool dso_first;
	if (keys_before_sym(r, &dso_first) == r->o.nkeys)
		return true;
	size_t nd = 1;
	for (size_t i = 0; i < ev->n; i++)
		if (ev->e[i].f.dso && ev->e[i].dso_rank + 2u > nd)
			nd = ev->e[i].dso_rank + 2u;
	struct span *sp = xcalloc(3 * nd, sizeof(*sp)); /* per dso: ip, start, end */
	bool ok = true;
	uint32_t unres_dso = REP_NONE;
	for (size_t i = 0; i < ev->n && ok; i++) {
		const struct rb_key *x = &pk->keys[i];
		uint32_t d = x->has_dso ? x->dso : (uint32_t)nd - 1;
		ok = !x->has_inl;
		if (x->has_sym) {
			span_add(&sp[3 * d + 1], x->a);
			span_add(&sp[3 * d + 2], x->b);
			continue;
		}
		span_add(&sp[3 * d], x->a);
		if (!dso_first && unres_dso != REP_NONE && unres_dso != d)
			ok = false;
		unres_dso = d;
	}
	for (size_t i = 0; i < 3 * nd && ok; i++)
		ok = !sp[i].set || (sp[i].hi - sp[i].lo) >> 63 == 0;
	free(sp);
	return ok;
}

/* rb_order by a sort, when the entries allow it: false (ord as it
 * was) when not. */
static bool sort_order(const struct rep *r, const struct packing *pk, const struct rep_event *ev,
		       uint32_t *ord, bool out)
{
	/* out_cmp's callers-above-callees rule makes no order */
	if (out ? r->o.children && r->o.chains : !in_sortable(r, pk, ev))
		return false;
	size_t n = ev->n;
	struct sort_item *it = xmalloc((n ? n : 1) * sizeof(*it));
	for (uint32_t i = 0; i < n; i++) {
		it[i].e = ord[i];
		it[i].pos = i;
		it[i].k = pk->keys[ord[i]];
	}
	struct sort_item *tmp = xmalloc((n / 2 + 1) * sizeof(*tmp));
	struct sort_ctx c = { r, pk, ev, out };
	merge_sort(&c, it, tmp, n);
	free(tmp);
	for (size_t i = 0; i < n; i++)
		ord[i] = it[i].e;
	free(it);
	return true;
}

/* Whether in_cmp (the keys fast) is a strict weak order on the nodes
 * [s, t) of a class (equal keys before the symbol's), as in_sortable
 * says for all entries. */
static bool class_ordered(const struct rb_node *n, size_t s, size_t t, bool dso_first)
{
	struct span sp[3]; /* ip, start, end */
	memset(sp, 0, sizeof(sp));
	for (size_t i = s; i < t; i++) {
		const struct rb_key *x = &n[i].k;
		if (x->has_inl || (!dso_first && (x->has_dso != n[s].k.has_dso || x->dso != n[s].k.dso)))
			return false;
		if (x->has_sym) {
			span_add(&sp[1], x->a);
			span_add(&sp[2], x->b);
		} else {
			span_add(&sp[0], x->a);
		}
	}
	for (size_t i = 0; i < 3; i++)
		if (sp[i].set && (sp[i].hi - sp[i].lo) >> 63)
			return false;
	return true;
}

/* Whether node i goes last: it goes right at each node of the tree's
 * right edge (from its last node m up) of its class (nodes from s on). */
static bool goes_last(const struct rep *r, struct rep_event *ev, const struct rbt *t,
		      uint32_t m, uint32_t i, uint32_t s)
{
	for (; m != REP_NONE && m >= s; m = t->n[m].p)
		if (in_fast(r, t->pk, ev, &t->n[m].k, t->n[m].e, &t->n[i].k, t->n[i].e) < 0)
			return false;
	return true;
}

/* The collapsed tree again (the keys fast), ord the order the first gave:
 * that order has the classes (equal keys before the symbol's) in order,
 * the members of a class where in_cmp is an order sorted. Inserted in
 * it, such a member goes right at every node, last: no search. Another
 * is compared with the members of its class on the right edge (the
 * other nodes there are of classes before), and searched for when it
 * goes left of one. */
static void rb_order_again(const struct rep *r, const struct packing *pk, struct rep_event *ev,
			   uint32_t *ord, struct rb_node *nodes)
{
	size_t n = ev->n;
	bool dso_first;
	keys_before_sym(r, &dso_first);
	struct rbt t = rb_new(r, pk, ev, ord, false, true, nodes);
	uint32_t *start = xmalloc((n ? n : 1) * sizeof(*start)); /* of the class */
	bool *ordered = xmalloc((n ? n : 1) * sizeof(*ordered));
	for (size_t s = 0, e; s < n; s = e) {
		for (e = s + 1; e < n && t.n[e].k.pre == t.n[s].k.pre; e++)
			;
		bool o = class_ordered(t.n, s, e, dso_first);
		for (size_t i = s; i < e; i++) {
			start[i] = (uint32_t)s;
			ordered[i] = o;
		}
	}
	uint32_t last = REP_NONE;
	for (uint32_t i = 0; i < n; i++) {
		if (last != REP_NONE && !ordered[i] && !goes_last(r, ev, &t, last, i, start[i])) {
			rb_insert(r, ev, &t, i, false, true); /* not last */
			continue;
		}
		t.n[i].p = last;
		if (last == REP_NONE)
			t.root = i;
		else
			t.n[last].r = i;
		fixup(&t, i);
		last = i;
	}
	rb_walk(&t, ord, false);
	free(start);
	free(ordered);
}

static int by_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
	return a < b ? -1 : a > b;
}

/* The ranks of n int32 values (ascending, equal values alike) into
 * rank; the highest returned. */
static uint32_t rank_ints(const int32_t *v, size_t n, uint32_t *rank)
{
	uint64_t *k = xmalloc((n ? n : 1) * sizeof(*k));
	for (size_t i = 0; i < n; i++) /* by value (offset to unsigned), then place */
		k[i] = (uint64_t)((uint32_t)v[i] ^ 0x80000000u) << 32 | i;
	qsort(k, n, sizeof(*k), by_u64);
	uint32_t rk = 0;
	for (size_t i = 0; i < n; i++) {
		if (i && k[i] >> 32 != k[i - 1] >> 32)
			rk++;
		rank[(uint32_t)k[i]] = rk;
	}
	free(k);
	return rk;
}

/* The packing of ev's entries' keys (their ranks set). */
static void pack_init(const struct rep *r, const struct rep_event *ev, struct packing *pk)
{
	memset(pk, 0, sizeof(*pk));
	bool dso_first;
	pk->first = keys_before_sym(r, &dso_first);
	for (size_t j = 0; j < ev->n; j++) {
		const struct rep_entry *e = &ev->e[j];
		if (e->comm_rank > pk->max_comm)
			pk->max_comm = e->comm_rank;
		if (e->f.dso && e->dso_rank + 1 > pk->null_dso)
			pk->null_dso = e->dso_rank + 1;
		if (e->f.sym && e->name_rank + 1 > pk->null_sym)
			pk->null_sym = e->name_rank + 1;
	}
	int32_t *v = NULL;
	for (size_t i = 0; i < r->o.nkeys; i++) {
		enum rep_key k = r->o.keys[i];
		if (k != REP_PID && k != REP_CPU)
			continue;
		if (!v)
			v = xmalloc((ev->n ? ev->n : 1) * sizeof(*v));
		uint32_t *rank = xmalloc((ev->n ? ev->n : 1) * sizeof(*rank));
		for (size_t j = 0; j < ev->n; j++)
			v[j] = k == REP_PID ? (int32_t)ev->e[j].tid : ev->e[j].cpu;
		uint32_t max = rank_ints(v, ev->n, rank);
		if (k == REP_PID) {
			pk->tid = rank;
			pk->max_tid = max;
		} else {
			pk->cpu = rank;
			pk->max_cpu = max;
		}
	}
	free(v);
	pk->in = pack_width(r, pk, 0, pk->first, false) <= 64 &&
		 pack_width(r, pk, pk->first, r->o.nkeys, false) <= 64;
	pk->out = pack_width(r, pk, 0, r->o.nkeys, true) <= 64;
}

/* Put ev's entries in the order of ord (a permutation of indexes, used
 * up): in place, cycle by cycle (a copy of the entries was 12 MB of
 * fresh pages on the bench recording). */
static void entries_permute(struct rep_event *ev, uint32_t *ord)
{
	for (size_t k = 0; k < ev->n; k++) {
		if (ord[k] == REP_NONE || ord[k] == k)
			continue;
		/* position k gets entry ord[k], which gets entry ord[ord[k]], ... */
		struct rep_entry first = ev->e[k];
		size_t at = k;
		while (ord[at] != k) {
			size_t from = ord[at];
			ev->e[at] = ev->e[from];
			ord[at] = REP_NONE;
			at = from;
		}
		ev->e[at] = first;
		ord[at] = REP_NONE;
	}
}

/* A chain a tree gets: chains[pos, end of the sample's chain). */
struct tree_part {
	uint32_t pos, sample;
};

/* Call f(ev, part, entry, ctx) for each chain a shown tree gets, in
 * sample order (the self chain before the children's). */
static size_t parts_each(const struct rep *r, const struct rep_event *ev, const bool *shown,
			 void (*f)(struct tree_part p, uint32_t entry, void *ctx), void *ctx)
{
	size_t n = 0;
	for (uint32_t j = 0; j < ev->nsampled; j++) {
		const struct rep_chain *c = &ev->sampled[j];
		if (shown[c->self]) {
			f((struct tree_part){ c->off, j }, c->self, ctx);
			n++;
		}
		if (!r->o.children)
			continue;
		const uint32_t *owner = ev->owners + c->off;
		for (uint32_t i = 0; i < c->len; i++)
			if (owner[i] != REP_NONE && shown[owner[i]]) {
				f((struct tree_part){ c->off + i, j }, owner[i], ctx);
				n++;
			}
	}
	return n;
}

struct parts_sort {
	size_t *at;             /* per entry: its next slot */
	struct tree_part *out;
};

static void part_count(struct tree_part p, uint32_t entry, void *ctx)
{
	struct parts_sort *ps = ctx;
	ps->at[entry + 1]++;
}

static void part_put(struct tree_part p, uint32_t entry, void *ctx)
{
	struct parts_sort *ps = ctx;
	ps->out[ps->at[entry]++] = p;
}

/* A chain of a tree being built: chains[pos, end), its period. */
struct tpart {
	uint32_t pos, end;
	uint64_t period;
};

/* A node to expand: its chains are tree.p[lo, hi), depth frames in. */
struct tjob {
	uint32_t node, depth;
	size_t lo, hi;
};

struct tree {
	const struct rep_frame *frames; /* the report's, by frame id */
	const uint64_t *ips;    /* beside the event's chains: addresses */
	uint64_t *gip;          /* per group: its first chain's address */
	size_t gip_cap;
	struct tpart *p, *tmp;  /* the entry's chains, scratch */
	uint32_t *grp;          /* beside tmp: each chain's group */
	size_t cap;
	struct rb_node *kids;   /* perf_groups' tree of a node's kids */
	size_t kids_cap;
	uint32_t *grank;        /* per group: its rank (rep_node) */
	uint32_t *order;        /* scratch: groups in perf's tree order */
	size_t grank_cap;       /* of grank and order */
	uint32_t *gid, *stamp;  /* per frame: its group at the node stamped */
	uint32_t now;           /* the node's stamp */
	uint32_t *gfirst;       /* per group: its frame, count, start, sum */
	size_t *gcount, *gat;
	uint64_t *gsum;
	size_t gcap, gcap2;     /* of gfirst; of the others */
	struct tjob *jobs;
	size_t njobs, jobs_cap;
};

static void grank_room(struct tree *t, size_t ng)
{
	size_t cap = t->grank_cap;
	XGROW(t->grank, t->grank_cap, ng + 1);
	if (t->grank_cap != cap)
		t->order = xreallocarray(t->order, t->grank_cap, sizeof(*t->order));
}

/* The kids of a node some of whose kids are inline rows, as perf makes
 * them: perf looks a chain's next frame up among the node's kids in a
 * red-black tree by frame_match_cmp, which is no order once names and
 * addresses mix, so a lookup can miss a kid it holds and make a second
 * one. Each of the chains t->tmp[lo, hi) looked up in turn; sets
 * t->grp, t->gfirst and t->grank (the tree's order, which breaks ties
 * of the kids' periods), returns the number of kids. */
static size_t perf_groups(struct tree *t, const uint32_t *chains, uint32_t depth,
			  size_t lo, size_t hi)
{
	XGROW(t->kids, t->kids_cap, hi - lo + 1);
	XGROW(t->gfirst, t->gcap, hi - lo + 1);
	XGROW(t->gip, t->gip_cap, hi - lo + 1);
	struct rbt rt = { t->kids, REP_NONE, NULL };
	size_t ng = 0;
	for (size_t i = lo; i < hi; i++) {
		uint32_t f = chains[t->tmp[i].pos + depth];
		uint64_t ip = t->ips[t->tmp[i].pos + depth];
		uint32_t at = rt.root, parent = REP_NONE;
		bool left = false;
		while (at != REP_NONE) {
			int c = frame_match_cmp(&t->frames[t->gfirst[at]], t->gip[at],
						&t->frames[f], ip);
			if (!c)
				break;
			parent = at;
			left = c < 0;
			at = left ? rt.n[at].l : rt.n[at].r;
		}
		if (at == REP_NONE) {
			at = (uint32_t)ng++;
			t->gfirst[at] = f;
			t->gip[at] = ip;
			rt.n[at].l = rt.n[at].r = REP_NONE;
			rt.n[at].p = parent;
			rt.n[at].red = 1;
			if (parent == REP_NONE)
				rt.root = at;
			else
				*rb_link(&rt.n[parent], left) = at;
			fixup(&rt, at);
		}
		t->grp[i] = at;
	}
	grank_room(t, ng);
	rb_walk(&rt, t->order, true);
	for (size_t k = 0; k < ng; k++)
		t->grank[t->order[k]] = (uint32_t)k + 1;
	return ng;
}

/* perf's tree of kids lists them largest first by frame_match_cmp */
static int by_match(const void *pa, const void *pb, void *arg)
{
	const struct tree *t = arg;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	int c = frame_match_cmp(&t->frames[t->gfirst[a]], t->gip[a],
				&t->frames[t->gfirst[b]], t->gip[b]);
	return c ? -c : (a > b) - (a < b);
}

/* t->grank of groups [0, ng) whose frames frame_match_cmp orders (no
 * inline row among them): their place in perf's tree of the kids. */
static void rank_groups(struct tree *t, size_t ng)
{
	grank_room(t, ng);
	for (size_t g = 0; g < ng; g++)
		t->order[g] = (uint32_t)g;
	if (ng > 1)
		qsort_r(t->order, ng, sizeof(*t->order), by_match, t);
	for (size_t k = 0; k < ng; k++)
		t->grank[t->order[k]] = (uint32_t)k + 1;
}

/* Kids of job j's node: its chains grouped by their next frame, in the
 * order each first comes (perf's order of creation, which breaks ties
 * among siblings); a chain ending here adds to the node's hit. A kid
 * under min is made (a parent's count of kids matters) but not
 * expanded: no graph shows it or anything below it. */
static void tree_expand(struct rep_event *ev, struct tree *t, struct tjob j, uint64_t min)
{
	const uint32_t *chains = ev->chains;
	size_t ng = 0, kept = j.lo;
	bool inl = false;
	t->now++;
	for (size_t i = j.lo; i < j.hi; i++) {
		const struct tpart *p = &t->p[i];
		if (p->pos + j.depth >= p->end) {
			ev->nodes[j.node].hit += p->period;
			continue;
		}
		uint32_t f = chains[p->pos + j.depth];
		if (t->stamp[f] != t->now) {
			t->stamp[f] = t->now;
			XGROW(t->gfirst, t->gcap, ng + 1);
			XGROW(t->gip, t->gip_cap, ng + 1);
			t->gid[f] = (uint32_t)ng;
			t->gfirst[ng] = f;
			t->gip[ng] = t->ips[p->pos + j.depth];
			ng++;
			inl |= t->frames[f].inl != NULL;
		}
		t->grp[kept] = t->gid[f];
		t->tmp[kept++] = *p; /* the chains going on, in order */
	}
	if (inl && ng > 1)
		ng = perf_groups(t, chains, j.depth, j.lo, kept);
	else
		rank_groups(t, ng);
	if (t->gcap + 1 > t->gcap2) {
		t->gcap2 = t->gcap + 1;
		t->gcount = xreallocarray(t->gcount, t->gcap2, sizeof(*t->gcount));
		t->gat = xreallocarray(t->gat, t->gcap2, sizeof(*t->gat));
		t->gsum = xreallocarray(t->gsum, t->gcap2, sizeof(*t->gsum));
	}
	memset(t->gcount, 0, (ng + 1) * sizeof(*t->gcount));
	memset(t->gsum, 0, (ng + 1) * sizeof(*t->gsum));
	for (size_t i = j.lo; i < kept; i++) {
		uint32_t g = t->grp[i];
		t->gcount[g]++;
		t->gsum[g] += t->tmp[i].period;
	}
	for (size_t g = 0, at = j.lo; g < ng; g++) {
		t->gat[g] = at;
		at += t->gcount[g];
	}
	for (size_t i = j.lo; i < kept; i++)
		t->p[t->gat[t->grp[i]]++] = t->tmp[i];
	for (size_t g = 0, at = j.lo; g < ng; g++) {
		uint32_t k = node_new(ev, t->gfirst[g]);
		struct rep_node *n = &ev->nodes[j.node], *x = &ev->nodes[k];
		x->parent = j.node;
		x->rank = t->grank[g];
		x->cumul = t->gsum[g];
		x->next = n->kid;
		n->kid = k;
		n->nkids++;
		if (x->cumul >= min) {
			XGROW(t->jobs, t->jobs_cap, t->njobs + 1);
			t->jobs[t->njobs++] = (struct tjob){ k, j.depth + 1, at, at + t->gcount[g] };
		}
		at += t->gcount[g];
	}
}

/* Entry e's tree from its chains t->p[0, n): top down, as perf's
 * merged chains with their periods; only what can show is expanded. */
static void tree_build(struct rep_event *ev, struct rep_entry *e, struct tree *t, size_t n,
		       uint64_t min)
{
	e->root = node_new(ev, REP_NONE);
	uint64_t sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += t->p[i].period;
	ev->nodes[e->root].cumul = sum;
	t->njobs = 0;
	XGROW(t->jobs, t->jobs_cap, 1);
	t->jobs[t->njobs++] = (struct tjob){ e->root, 0, 0, n };
	while (t->njobs)
		tree_expand(ev, t, t->jobs[--t->njobs], min);
}

/* The trees perf would print: an entry under the threshold shows none.
 * Each tree gets its chains in sample order (a counting sort of the
 * parts by entry), one tree after the other. */
static void build_trees(const struct rep *r, struct rep_event *ev, double min_percent)
{
	uint64_t min = min_percent < 0 ? 0 :
		(uint64_t)((double)ev->total * (min_percent / 100.0));
	bool *shown = xmalloc((ev->n ? ev->n : 1) * sizeof(*shown));
	for (size_t k = 0; k < ev->n; k++)
		shown[k] = (r->o.children ? ev->e[k].acc : ev->e[k].period) >= min;
	struct parts_sort ps = { xcalloc(ev->n + 1, sizeof(size_t)), NULL };
	size_t n = parts_each(r, ev, shown, part_count, &ps);
	for (size_t k = 0; k < ev->n; k++)
		ps.at[k + 1] += ps.at[k];
	ps.out = xmalloc((n ? n : 1) * sizeof(*ps.out));
	parts_each(r, ev, shown, part_put, &ps);
	struct tree t;
	memset(&t, 0, sizeof(t));
	t.frames = r->frames;
	t.ips = ev->chain_ips;
	t.gid = xcalloc(r->nframes + 1, sizeof(*t.gid));
	t.stamp = xcalloc(r->nframes + 1, sizeof(*t.stamp));
	/* at[k] is now the end of entry k's parts */
	for (size_t k = 0, j = 0; k < ev->n; k++) {
		size_t m = ps.at[k] - j;
		if (!m)
			continue;
		if (m > t.cap) {
			t.cap = m;
			t.p = xreallocarray(t.p, m, sizeof(*t.p));
			t.tmp = xreallocarray(t.tmp, m, sizeof(*t.tmp));
			t.grp = xreallocarray(t.grp, m, sizeof(*t.grp));
		}
		for (size_t i = 0; i < m; i++, j++) {
			const struct rep_chain *c = &ev->sampled[ps.out[j].sample];
			t.p[i] = (struct tpart){ ps.out[j].pos, c->off + c->len, c->period };
		}
		tree_build(ev, &ev->e[k], &t, m, min);
	}
	free(t.p);
	free(t.tmp);
	free(t.grp);
	free(t.kids);
	free(t.grank);
	free(t.order);
	free(t.gip);
	free(t.gid);
	free(t.stamp);
	free(t.gfirst);
	free(t.gcount);
	free(t.gat);
	free(t.gsum);
	free(t.jobs);
	free(ps.at);
	free(ps.out);
	free(shown);
	free(ev->sampled);
	ev->sampled = NULL;
	ev->nsampled = ev->sampled_cap = 0;
	free(ev->owners);
	ev->owners = NULL;
	ev->owners_cap = 0;
}

void rep_name_threads(struct rep *r, const struct proc_machine *m)
{
	for (size_t i = 0; i < r->nev; i++)
		for (size_t k = 0; k < r->ev[i].n; k++) {
			struct rep_entry *e = &r->ev[i].e[k];
			e->thread_comm = proc_thread_comm_at(m, e->thread, e->thread_forks);
		}
}

void rep_sort(struct rep *r, double min_percent)
{
	for (size_t i = 0; i < r->nev; i++) {
		struct rep_event *ev = &r->ev[i];
		build_trees(r, ev, min_percent);
		/* the map's ids are entry indexes: no lookups after this */
		hmap_release(&ev->map);
		hmap_init(&ev->map);
		/* perf's three trees: entries as they came, collapsed (when a
		 * key collapses: comm), output */
		set_ranks(ev);
		struct packing pk;
		pack_init(r, ev, &pk);
		uint32_t *ord = xmalloc((ev->n ? ev->n : 1) * sizeof(*ord));
		for (size_t k = 0; k < ev->n; k++)
			ord[k] = (uint32_t)k;
		/* the trees' nodes, on cache lines */
		void *mem = xmalloc((ev->n + 1) * sizeof(struct rb_node));
		struct rb_node *nodes = (struct rb_node *)(((uintptr_t)mem + 63) & ~(uintptr_t)63);
		/* sorted, the collapsed tree keeps the order */
		if (keys_fast(r, &pk, false))
			keys_fill(r, &pk, ev, false);
		bool sorted = keys_fast(r, &pk, false) && sort_order(r, &pk, ev, ord, false);
		if (!sorted && ev->nlookups && keys_fast(r, &pk, false))
			rb_order_replay(r, &pk, ev, ord);
		else if (!sorted)
			rb_order(r, &pk, ev, ord, false, nodes);
		for (size_t k = 0; k < r->o.nkeys && !sorted; k++) {
			if (r->o.keys[k] != REP_COMM && r->o.keys[k] != REP_SRCLINE)
				continue;
			if (keys_fast(r, &pk, false))
				rb_order_again(r, &pk, ev, ord, nodes);
			else
				rb_order(r, &pk, ev, ord, false, nodes);
		}
		if (keys_fast(r, &pk, true))
			keys_fill(r, &pk, ev, true);
		if (!keys_fast(r, &pk, true) || !sort_order(r, &pk, ev, ord, true))
			rb_order(r, &pk, ev, ord, true, nodes);
		free(pk.keys);
		free(pk.tid);
		free(pk.cpu);
		free(mem);
		entries_permute(ev, ord);
		free(ord);
	}
}
