/*
 * pprof_read: pprof profiles back into folded stacks (see pprof_read.h).
 * Stage: stacks. Field numbers are profile.proto's
 * (github.com/google/pprof/proto/profile.proto). Key invariant: every
 * read is bounds-checked by a cursor over the message (offsets are the
 * profile's), every id and string index is looked up before use, and a
 * profile is added to the table only once all of it decoded.
 */
#include "stacks/pprof_read.h"

#include <errno.h>
#include <isa-l/igzip_lib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cursor.h"
#include "base/u64map.h"
#include "base/xalloc.h"

enum {
	P_SAMPLE_TYPE = 1, P_SAMPLE = 2, P_LOCATION = 4, P_FUNCTION = 5,
	P_STRING = 6, P_DEFAULT_SAMPLE_TYPE = 14,
	VT_TYPE = 1, VT_UNIT = 2,
	S_LOCATION = 1, S_VALUE = 2,
	LOC_ID = 1, LOC_ADDRESS = 3, LOC_LINE = 4, LINE_FUNCTION = 1,
	F_ID = 1, F_NAME = 2, F_SYSTEM_NAME = 3,
	W_VARINT = 0, W_I64 = 1, W_LEN = 2, W_I32 = 5,
};

/* ---- detection and gzip ---- */

static bool varint(struct cursor *c, uint64_t *v);

/* The wire type of each Profile field (1..14), -1: not a field. */
static int profile_wire(uint64_t num)
{
	static const signed char w[15] = { -1, W_LEN, W_LEN, W_LEN, W_LEN, W_LEN,
		W_LEN, W_VARINT, W_VARINT, W_VARINT, W_VARINT, W_LEN, W_VARINT,
		W_VARINT, W_VARINT };
	return num < 15 ? w[num] : -1;
}

/* A raw Profile message's start: its first fields (up to 4, as far as
 * the head holds them) are Profile fields of their wire types, and a
 * byte no text holds comes early. */
static bool raw_start(const uint8_t *p, size_t n)
{
	bool binary = false;
	for (size_t i = 0; i < n && i < 64; i++)
		binary |= p[i] < 0x09;
	struct cursor c;
	cur_init(&c, p, n < 256 ? n : 256, 0, false);
	size_t fields = 0;
	while (binary && fields < 4 && c.left) {
		uint64_t tag, v;
		if (!varint(&c, &tag) && !c.err)
			return false; /* over-long */
		if (c.err)
			break; /* cut by the end of the head */
		int wire = profile_wire(tag >> 3);
		if (wire < 0 || (unsigned)wire != (tag & 7))
			return false;
		if (!varint(&c, &v) && !c.err)
			return false;
		if (c.err)
			break;
		fields++;
		if (wire == W_LEN) {
			if (v > c.left)
				break; /* runs past the head */
			cur_advance(&c, (size_t)v);
		}
	}
	return fields > 0;
}

bool stack_pprof_detect(const void *head, size_t n)
{
	const uint8_t *p = head;
	if (!(n >= 3 && p[0] == 0x1f && p[1] == 0x8b && p[2] == 8))
		return raw_start(p, n);
	/* gzip: what its first bytes inflate to (gzip'd text is not ours) */
	uint8_t out[64];
	struct inflate_state st;
	isal_inflate_init(&st);
	st.crc_flag = ISAL_GZIP;
	st.next_in = (uint8_t *)p;
	st.avail_in = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
	st.next_out = out;
	st.avail_out = sizeof(out);
	isal_inflate(&st);
	return raw_start(out, sizeof(out) - st.avail_out);
}

int stack_pprof_inflate(const void *in, size_t n, struct strbuf *out, struct diag *d)
{
	const uint8_t *p = in;
	if (!(n >= 2 && p[0] == 0x1f && p[1] == 0x8b)) {
		sb_add(out, in, n);
		return 0;
	}
	struct inflate_state st;
	isal_inflate_init(&st);
	st.crc_flag = ISAL_GZIP;
	st.next_in = (uint8_t *)p;
	st.avail_in = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
	size_t fed = st.avail_in;
	for (;;) {
		sb_grow(out, 1 << 20);
		size_t room = out->cap - out->len - 1;
		if (room > UINT32_MAX)
			room = UINT32_MAX;
		st.next_out = (uint8_t *)out->buf + out->len;
		st.avail_out = (uint32_t)room;
		int rc = isal_inflate(&st);
		sb_setlen(out, out->len + (room - st.avail_out));
		if (rc != ISAL_DECOMP_OK) {
			diag_set_at(d, st.total_out, "pprof: bad gzip data (ISA-L error %d) "
				    "at this offset of the inflated profile", rc);
			return -EINVAL;
		}
		if (out->len > STACK_PPROF_MAX) {
			diag_set(d, "pprof: inflates to over %zu MiB", STACK_PPROF_MAX >> 20);
			return -EINVAL;
		}
		if (st.block_state == ISAL_BLOCK_FINISH)
			return 0; /* a second member, if any, is not read */
		if (st.avail_in == 0 && fed == n) {
			diag_set(d, "pprof: gzip data ends early (after %zu bytes)", n);
			return -EINVAL;
		}
		if (st.avail_in == 0) { /* over 4 GiB of input: feed on */
			size_t more = n - fed > UINT32_MAX ? UINT32_MAX : n - fed;
			st.next_in = (uint8_t *)p + fed;
			st.avail_in = (uint32_t)more;
			fed += more;
		}
	}
}

/* ---- protobuf ---- */

struct field {
	unsigned num, wire;
	uint64_t v;                 /* varint and fixed values */
	struct cursor sub;          /* W_LEN: its bytes */
};

static bool varint(struct cursor *c, uint64_t *v)
{
	uint64_t r = 0;
	for (unsigned shift = 0; shift < 64; shift += 7) {
		uint8_t b = cur_u8(c);
		if (c->err)
			return false;
		if (shift == 63 && b > 1)
			return false;
		r |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = r;
			return true;
		}
	}
	return false;
}

/* The next field of c: 1, 0 at the end, -EINVAL (d set) when bad. */
static int next_field(struct cursor *c, struct field *f, struct diag *d)
{
	if (c->left == 0)
		return 0;
	uint64_t at = c->off, tag, len;
	if (!varint(c, &tag) || (tag >> 3) == 0 || (tag >> 3) > 0x1fffffff) {
		diag_set_at(d, at, "pprof: bad field key");
		return -EINVAL;
	}
	f->num = (unsigned)(tag >> 3);
	f->wire = (unsigned)(tag & 7);
	f->v = 0;
	switch (f->wire) {
	case W_VARINT:
		if (!varint(c, &f->v))
			break;
		return 1;
	case W_I64:
	case W_I32: {
		size_t n = f->wire == W_I64 ? 8 : 4;
		if (!cur_need(c, n))
			break;
		memcpy(&f->v, c->p, n); /* little-endian hosts only read them as-is */
		cur_advance(c, n);
		return 1;
	}
	case W_LEN:
		if (!varint(c, &len) || len > c->left)
			break;
		cur_init(&f->sub, c->p, (size_t)len, c->off, false);
		cur_advance(c, (size_t)len);
		return 1;
	default:
		diag_set_at(d, at, "pprof: field %u has wire type %u (not in profile.proto)",
			    f->num, f->wire);
		return -EINVAL;
	}
	diag_set_at(d, at, "pprof: field %u runs past the end of its message", f->num);
	return -EINVAL;
}

/* A repeated integer field's values, packed (W_LEN) or one (W_VARINT),
 * appended to *v. */
static int ints(const struct field *f, uint64_t **v, size_t *n, size_t *cap,
		struct diag *d)
{
	if (f->wire == W_VARINT) {
		XGROW(*v, *cap, *n + 1);
		(*v)[(*n)++] = f->v;
		return 0;
	}
	if (f->wire != W_LEN) {
		diag_set_at(d, f->sub.off, "pprof: field %u is not a list of integers", f->num);
		return -EINVAL;
	}
	struct cursor c = f->sub;
	while (c.left) {
		uint64_t at = c.off, x;
		if (!varint(&c, &x)) {
			diag_set_at(d, at, "pprof: bad packed integer in field %u", f->num);
			return -EINVAL;
		}
		XGROW(*v, *cap, *n + 1);
		(*v)[(*n)++] = x;
	}
	return 0;
}

/* ---- the Profile message ---- */

struct span {
	const uint8_t *p;
	size_t n;
	uint64_t off;
};

struct reader {
	struct diag *d;
	struct span *strs, *samples, *locs;
	size_t nstrs, nsamples, nlocs, strs_cap, samples_cap, locs_cap;
	uint64_t *types;            /* per sample type: type and unit indexes,
				     * the ValueType's offset */
	size_t ntypes, types_cap;
	uint64_t default_type;
	uint64_t *func_name;        /* by function index: name string index */
	size_t nfuncs, funcs_cap;
	struct u64map func_ids, loc_ids; /* id -> index + 1 */
	/* per location: its names (string indexes, innermost first) */
	size_t *loc_first, *loc_count;
	uint64_t *loc_addr;
	uint64_t *names;
	size_t nnames, names_cap;
	struct strbuf stack;
	uint64_t stack_bytes;       /* all stacks built so far (capped) */
};

static struct span span_of(const struct field *f)
{
	return (struct span){ f->sub.p, f->sub.left, f->sub.off };
}

static void push_span(struct span **a, size_t *n, size_t *cap, const struct field *f)
{
	XGROW(*a, *cap, *n + 1);
	(*a)[(*n)++] = span_of(f);
}

static bool is_len(const struct field *f)
{
	return f->wire == W_LEN;
}

static int wrong_type(struct reader *r, const struct field *f, const char *what)
{
	diag_set_at(r->d, f->sub.off, "pprof: %s (field %u) has wire type %u",
		    what, f->num, f->wire);
	return -EINVAL;
}

static int value_type(struct reader *r, const struct field *pf)
{
	struct cursor c = pf->sub;
	struct field f;
	uint64_t t[2] = { 0, 0 };
	int rc;
	while ((rc = next_field(&c, &f, r->d)) > 0)
		if ((f.num == VT_TYPE || f.num == VT_UNIT) && f.wire == W_VARINT)
			t[f.num - 1] = f.v;
	if (rc < 0)
		return rc;
	XGROW(r->types, r->types_cap, 3 * r->ntypes + 3);
	r->types[3 * r->ntypes] = t[0];
	r->types[3 * r->ntypes + 1] = t[1];
	r->types[3 * r->ntypes + 2] = pf->sub.off;
	r->ntypes++;
	return 0;
}

static int id_of(struct reader *r, struct cursor c, unsigned field, uint64_t *id)
{
	struct field f;
	int rc;
	*id = 0;
	while ((rc = next_field(&c, &f, r->d)) > 0)
		if (f.num == field && f.wire == W_VARINT)
			*id = f.v;
	return rc;
}

static int add_id(struct reader *r, struct u64map *m, uint64_t id, size_t index,
		  uint64_t off, const char *what)
{
	bool added;
	if (id == 0) {
		diag_set_at(r->d, off, "pprof: a %s with id 0", what);
		return -EINVAL;
	}
	uint64_t *slot = u64map_put(m, id, &added);
	if (!added) {
		diag_set_at(r->d, off, "pprof: %s id %llu defined twice", what,
			    (unsigned long long)id);
		return -EINVAL;
	}
	*slot = index + 1;
	return 0;
}

static int function(struct reader *r, const struct field *pf)
{
	struct cursor c = pf->sub;
	struct field f;
	uint64_t id = 0, name = 0, sys = 0;
	int rc;
	while ((rc = next_field(&c, &f, r->d)) > 0) {
		if (f.wire != W_VARINT)
			continue;
		if (f.num == F_ID)
			id = f.v;
		else if (f.num == F_NAME)
			name = f.v;
		else if (f.num == F_SYSTEM_NAME)
			sys = f.v;
	}
	if (rc < 0)
		return rc;
	XGROW(r->func_name, r->funcs_cap, r->nfuncs + 1);
	r->func_name[r->nfuncs] = name ? name : sys;
	return add_id(r, &r->func_ids, id, r->nfuncs++, pf->sub.off, "function");
}

/* Pass 1: the top-level fields; nested ones are kept as spans. */
static int top_fields(struct reader *r, const uint8_t *pb, size_t n)
{
	struct cursor c;
	struct field f;
	int rc;
	cur_init(&c, pb, n, 0, false);
	while ((rc = next_field(&c, &f, r->d)) > 0) {
		switch (f.num) {
		case P_SAMPLE_TYPE:
			rc = is_len(&f) ? value_type(r, &f) : wrong_type(r, &f, "sample_type");
			break;
		case P_SAMPLE:
			if (!is_len(&f))
				return wrong_type(r, &f, "sample");
			push_span(&r->samples, &r->nsamples, &r->samples_cap, &f);
			break;
		case P_LOCATION:
			if (!is_len(&f))
				return wrong_type(r, &f, "location");
			push_span(&r->locs, &r->nlocs, &r->locs_cap, &f);
			break;
		case P_FUNCTION:
			rc = is_len(&f) ? function(r, &f) : wrong_type(r, &f, "function");
			break;
		case P_STRING:
			if (!is_len(&f))
				return wrong_type(r, &f, "string_table");
			push_span(&r->strs, &r->nstrs, &r->strs_cap, &f);
			break;
		case P_DEFAULT_SAMPLE_TYPE:
			r->default_type = f.v;
			break;
		}
		if (rc < 0)
			return rc;
	}
	return rc;
}

static int check_str(struct reader *r, uint64_t idx, uint64_t off)
{
	if (idx < r->nstrs)
		return 0;
	diag_set_at(r->d, off, "pprof: string index %llu beyond the string table "
		    "(%zu strings)", (unsigned long long)idx, r->nstrs);
	return -EINVAL;
}

/* A line's function name (string index): its function looked up. */
static int line_name(struct reader *r, struct cursor c, uint64_t *name)
{
	uint64_t fid = 0, at = c.off;
	int rc = id_of(r, c, LINE_FUNCTION, &fid);
	if (rc < 0)
		return rc;
	const uint64_t *i = u64map_find(&r->func_ids, fid);
	if (!i) {
		diag_set_at(r->d, at, "pprof: a line names function %llu, which is not defined",
			    (unsigned long long)fid);
		return -EINVAL;
	}
	*name = r->func_name[*i - 1];
	return check_str(r, *name, at);
}

/* Pass 2: each location's names, innermost first, and its address. */
static int location(struct reader *r, size_t k)
{
	struct cursor c;
	struct field f;
	uint64_t id = 0;
	int rc;
	cur_init(&c, r->locs[k].p, r->locs[k].n, r->locs[k].off, false);
	r->loc_first[k] = r->nnames;
	r->loc_count[k] = 0;
	r->loc_addr[k] = 0;
	while ((rc = next_field(&c, &f, r->d)) > 0) {
		if (f.num == LOC_ID && f.wire == W_VARINT)
			id = f.v;
		else if (f.num == LOC_ADDRESS && f.wire == W_VARINT)
			r->loc_addr[k] = f.v;
		else if (f.num == LOC_LINE && f.wire == W_LEN) {
			XGROW(r->names, r->names_cap, r->nnames + 1);
			if ((rc = line_name(r, f.sub, &r->names[r->nnames])) < 0)
				return rc;
			r->nnames++;
			r->loc_count[k]++;
		}
	}
	if (rc < 0)
		return rc;
	return add_id(r, &r->loc_ids, id, k, r->locs[k].off, "location");
}

static int locations(struct reader *r)
{
	r->loc_first = xreallocarray(NULL, r->nlocs + 1, sizeof(size_t));
	r->loc_count = xreallocarray(NULL, r->nlocs + 1, sizeof(size_t));
	r->loc_addr = xreallocarray(NULL, r->nlocs + 1, sizeof(uint64_t));
	for (size_t k = 0; k < r->nlocs; k++) {
		int rc = location(r, k);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static bool str_is(const struct reader *r, uint64_t idx, const char *s, size_t n)
{
	return idx < r->nstrs && r->strs[idx].n == n && !memcmp(r->strs[idx].p, s, n);
}

/* The index of the sample type named want ("type" or "type/unit"). */
static int pick_type(struct reader *r, const char *want, size_t *at)
{
	if (r->ntypes == 0) {
		diag_set(r->d, "pprof: the profile has no sample type");
		return -EINVAL;
	}
	*at = 0;
	for (size_t i = 0; i < r->ntypes; i++)
		for (int j = 0; j < 2; j++)
			if (check_str(r, r->types[3 * i + j], r->types[3 * i + 2]) < 0)
				return -EINVAL;
	for (size_t i = 0; i < r->ntypes; i++) {
		uint64_t t = r->types[3 * i], u = r->types[3 * i + 1];
		if (!want && r->default_type && t == r->default_type) {
			*at = i;
			return 0;
		}
		if (!want)
			continue;
		const char *slash = strchr(want, '/');
		size_t tl = slash ? (size_t)(slash - want) : strlen(want);
		if (str_is(r, t, want, tl) &&
		    (!slash || str_is(r, u, slash + 1, strlen(slash + 1)))) {
			*at = i;
			return 0;
		}
	}
	if (!want)
		return 0;
	struct strbuf known = SB_INIT;
	for (size_t i = 0; i < r->ntypes; i++) {
		uint64_t t = r->types[3 * i];
		if (t < r->nstrs)
			sb_addf(&known, "%s%.*s", i ? ", " : "", (int)r->strs[t].n,
				(const char *)r->strs[t].p);
	}
	diag_set(r->d, "pprof: no sample type '%s' (the profile has: %s)", want,
		 known.len ? known.buf : "none named");
	sb_release(&known);
	return -EINVAL;
}

/* Append a frame name to r->stack, after a ';' but for the first
 * (*first; names may be empty). */
static void push_name(struct reader *r, const void *p, size_t n, bool *first)
{
	if (!*first)
		sb_addc(&r->stack, ';');
	sb_add(&r->stack, p, n);
	*first = false;
}

/* The stack of a sample's locations (leaf first) into r->stack. */
static int sample_stack(struct reader *r, const uint64_t *ids, size_t n, uint64_t off)
{
	bool first = true;
	sb_reset(&r->stack);
	for (size_t i = n; i-- > 0;) {
		const uint64_t *k = u64map_find(&r->loc_ids, ids[i]);
		if (!k) {
			diag_set_at(r->d, off, "pprof: a sample names location %llu, "
				    "which is not defined", (unsigned long long)ids[i]);
			return -EINVAL;
		}
		size_t at = r->loc_first[*k - 1], cnt = r->loc_count[*k - 1];
		if (cnt == 0) {
			char a[24];
			int len = snprintf(a, sizeof(a), "0x%llx",
					   (unsigned long long)r->loc_addr[*k - 1]);
			push_name(r, a, (size_t)len, &first);
		}
		for (size_t j = cnt; j-- > 0;) {
			const struct span *sp = &r->strs[r->names[at + j]];
			push_name(r, sp->p, sp->n, &first);
		}
		if (r->stack.len > STACK_PPROF_MAX_STACK) {
			diag_set_at(r->d, off, "pprof: a sample's stack is over %u MiB",
				    STACK_PPROF_MAX_STACK >> 20);
			return -EINVAL;
		}
	}
	r->stack_bytes += r->stack.len;
	if (r->stack_bytes > STACK_PPROF_MAX) {
		diag_set_at(r->d, off, "pprof: the samples' stacks are over %zu MiB "
			    "in all", STACK_PPROF_MAX >> 20);
		return -EINVAL;
	}
	return 0;
}

static int sample(struct reader *r, size_t k, size_t type, struct stack_table *t)
{
	struct cursor c;
	struct field f;
	size_t nids = 0, vcap_ids = 0, nval = 0, vcap_val = 0;
	uint64_t *ids = NULL, *vals = NULL;
	int rc;
	cur_init(&c, r->samples[k].p, r->samples[k].n, r->samples[k].off, false);
	while ((rc = next_field(&c, &f, r->d)) > 0) {
		if (f.num == S_LOCATION)
			rc = ints(&f, &ids, &nids, &vcap_ids, r->d);
		else if (f.num == S_VALUE)
			rc = ints(&f, &vals, &nval, &vcap_val, r->d);
		if (rc < 0)
			break;
	}
	if (rc == 0 && nval != r->ntypes) {
		diag_set_at(r->d, r->samples[k].off, "pprof: a sample has %zu values for "
			    "%zu sample types", nval, r->ntypes);
		rc = -EINVAL;
	}
	if (rc == 0)
		rc = sample_stack(r, ids, nids, r->samples[k].off);
	if (rc == 0 && (int64_t)vals[type] > 0)
		stack_table_add(t, r->stack.buf, r->stack.len, vals[type]);
	free(ids);
	free(vals);
	return rc;
}

static void reader_release(struct reader *r)
{
	free(r->strs);
	free(r->samples);
	free(r->locs);
	free(r->types);
	free(r->func_name);
	u64map_release(&r->func_ids);
	u64map_release(&r->loc_ids);
	free(r->loc_first);
	free(r->loc_count);
	free(r->loc_addr);
	free(r->names);
	sb_release(&r->stack);
}

int stack_pprof_fold(const void *pb, size_t n, const char *type,
		     struct stack_table *t, struct diag *d)
{
	struct reader r;
	memset(&r, 0, sizeof(r));
	r.d = d;
	r.func_ids = (struct u64map)U64MAP_INIT;
	r.loc_ids = (struct u64map)U64MAP_INIT;
	sb_init(&r.stack);
	struct stack_table mine;
	stack_table_init(&mine);
	size_t at = 0;
	int rc = top_fields(&r, pb, n);
	if (rc == 0 && (r.nstrs == 0 || r.strs[0].n != 0)) {
		diag_set(d, "pprof: string_table[0] is not the empty string");
		rc = -EINVAL;
	}
	if (rc == 0)
		rc = locations(&r);
	if (rc == 0)
		rc = pick_type(&r, type, &at);
	for (size_t k = 0; rc == 0 && k < r.nsamples; k++)
		rc = sample(&r, k, at, &mine);
	if (rc == 0)
		stack_table_merge(t, &mine);
	stack_table_release(&mine);
	reader_release(&r);
	return rc < 0 ? -EINVAL : 0;
}
