/*
 * view_data: the explorer's encoding of a profile (see view_data.h).
 * Stage: render. Stacks are taken in bytewise order of their text with
 * a ';' after the last frame, so every stack that shares a frame prefix
 * is adjacent: the tree comes out in preorder from one pass, comparing
 * each stack with the path of the one before (no per-node map).
 */
#include "render/view_data.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

void view_data_init(struct view_data *v, unsigned ncols)
{
	memset(v, 0, sizeof(*v));
	v->ncols = ncols < 1 ? 1 : ncols > VIEW_MAX_COLS ? VIEW_MAX_COLS : ncols;
	hmap_init(&v->strs);
	hmap_init(&v->frames);
	hmap_init(&v->name_info);
	hmap_init(&v->name_src);
	hmap_init(&v->thread_ids);
}

void view_data_release(struct view_data *v)
{
	unsigned ncols = v->ncols;
	enum render_palette pal = v->palette;
	hmap_release(&v->strs);
	hmap_release(&v->frames);
	free(v->nodes);
	free(v->path);
	free(v->scratch);
	free(v->leaf);
	free(v->rows);
	hmap_release(&v->name_info);
	hmap_release(&v->name_src);
	free(v->frame_src);
	hmap_release(&v->thread_ids);
	free(v->threads);
	view_data_init(v, ncols);
	v->palette = pal;
}

uint32_t view_data_string(struct view_data *v, const char *s, size_t len)
{
	return (uint32_t)hmap_put(&v->strs, s, len, NULL);
}

/* ---- frames ---- */

static unsigned flags_of(const char *s, size_t len)
{
	if (len < 4 || s[len - 4] != '_' || s[len - 3] != '[' || s[len - 1] != ']')
		return 0;
	switch (s[len - 2]) {
	case 'k': return VIEW_F_KERNEL;
	case 'i': return VIEW_F_INLINE;
	case 'j': return VIEW_F_JIT;
	}
	return 0;
}

void view_data_name_info(struct view_data *v, const char *name, size_t len,
			 const char *module, size_t module_len, unsigned flags)
{
	bool added;
	size_t id = hmap_put(&v->name_info, name, len, &added);
	if (!added)
		return;
	uint64_t mod = module ? (uint64_t)view_data_string(v, module, module_len) + 1 : 0;
	hmap_at(&v->name_info, id)->value = mod << 8 | (flags & 0xff);
}

void view_data_name_source(struct view_data *v, const char *name, size_t len,
			   const char *file, size_t file_len, unsigned line)
{
	bool added;
	size_t id = hmap_put(&v->name_src, name, len, &added);
	if (added)
		hmap_at(&v->name_src, id)->value =
			((uint64_t)view_data_string(v, file, file_len) + 1) << 32 | line;
}

/* A new frame id of name s: its source, when known. */
static void note_source(struct view_data *v, size_t id, const char *s, size_t len)
{
	size_t at = v->name_src.count ? hmap_find(&v->name_src, s, len) : (size_t)-1;
	if (at == (size_t)-1 && !v->frame_src)
		return;
	if (id >= v->frame_src_cap) {
		size_t old = v->frame_src_cap;
		XGROW(v->frame_src, v->frame_src_cap, id + 1);
		memset(v->frame_src + old, 0, (v->frame_src_cap - old) * sizeof(*v->frame_src));
	}
	v->frame_src[id] = at == (size_t)-1 ? 0 : v->name_src.entries[at].value;
}

/* The frame id of a folded frame name. */
static uint32_t frame_of(struct view_data *v, const char *s, size_t len)
{
	uint32_t key[3] = { view_data_string(v, s, len), 0, flags_of(s, len) };
	size_t info = v->name_info.count ? hmap_find(&v->name_info, s, len) : (size_t)-1;
	if (info != (size_t)-1) {
		uint64_t x = v->name_info.entries[info].value;
		key[1] = (uint32_t)(x >> 8);
		key[2] |= (uint32_t)(x & 0xff);
	}
	bool added;
	size_t id = hmap_put(&v->frames, key, sizeof(key), &added);
	if (added)
		note_source(v, id, s, len);
	return (uint32_t)id;
}

/* Split a folded stack at ';' into frame ids in v->scratch. */
static size_t split(struct view_data *v, const char *s, size_t len)
{
	size_t n = 0, start = 0;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && s[i] != ';')
			continue;
		if (n == v->scratch_cap) {
			v->scratch_cap = v->scratch_cap ? 2 * v->scratch_cap : 64;
			v->scratch = xreallocarray(v->scratch, v->scratch_cap,
						   sizeof(*v->scratch));
		}
		v->scratch[n++] = frame_of(v, s + start, i - start);
		start = i + 1;
	}
	return n;
}

/* ---- the tree ---- */

static uint32_t new_node(struct view_data *v, uint32_t frame, size_t depth)
{
	if (v->nnodes == v->nodes_cap) {
		v->nodes_cap = v->nodes_cap ? 2 * v->nodes_cap : 1024;
		v->nodes = xreallocarray(v->nodes, v->nodes_cap, sizeof(*v->nodes));
	}
	if (v->nnodes >= UINT32_MAX - 1)
		xmalloc((size_t)-1); /* more nodes than ids: as out of memory */
	struct view_node *nd = &v->nodes[v->nnodes];
	memset(nd, 0, sizeof(*nd));
	nd->frame = frame;
	nd->depth = (uint32_t)depth;
	return (uint32_t)v->nnodes++;
}

static void add_stack(struct view_data *v, const char *s, size_t len,
		      const uint64_t *counts)
{
	size_t n = split(v, s, len), d = 0;
	while (d < n && d < v->npath && v->nodes[v->path[d]].frame == v->scratch[d])
		d++;
	if (n > v->path_cap) {
		v->path_cap = n;
		v->path = xreallocarray(v->path, n, sizeof(*v->path));
	}
	for (size_t i = d; i < n; i++)
		v->path[i] = new_node(v, v->scratch[i], i);
	v->npath = n;
	struct view_node *leaf = &v->nodes[v->path[n - 1]];
	for (unsigned c = 0; c < v->ncols; c++)
		leaf->self[c] = leaf->self[c] + counts[c] < leaf->self[c]
			? UINT64_MAX : leaf->self[c] + counts[c];
}

/* Bytewise order of "key;" (every frame ends with ';'). */
static int cmp_keys(const void *pa, const void *pb, void *ctx)
{
	const struct hmap *h = ctx;
	const struct hmap_entry *a = &h->entries[*(const size_t *)pa];
	const struct hmap_entry *b = &h->entries[*(const size_t *)pb];
	size_t n = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->key, b->key, n);
	if (c || a->len == b->len)
		return c;
	unsigned char na = a->len == n ? ';' : (unsigned char)a->key[n];
	unsigned char nb = b->len == n ? ';' : (unsigned char)b->key[n];
	if (na != nb)
		return na < nb ? -1 : 1;
	return a->len < b->len ? -1 : 1;
}

static uint64_t count_in(const struct stack_table *t, const char *k, size_t len)
{
	size_t id = hmap_find(&t->map, k, len);
	return id == (size_t)-1 ? 0 : stack_table_value(t, id);
}

void view_data_add_tables(struct view_data *v, const struct stack_table *const *cols)
{
	struct hmap keys = HMAP_INIT;
	hmap_init(&keys);
	for (unsigned c = 0; c < v->ncols; c++)
		for (size_t i = 0; i < stack_table_count(cols[c]); i++) {
			size_t len;
			const char *k = stack_table_key(cols[c], i, &len);
			hmap_put(&keys, k, len, NULL);
		}
	size_t n = keys.count;
	size_t *ids = xreallocarray(NULL, n ? n : 1, sizeof(*ids));
	for (size_t i = 0; i < n; i++)
		ids[i] = i;
	qsort_r(ids, n, sizeof(*ids), cmp_keys, &keys);
	/* keys were put column 0 first: its stack ids are key ids */
	v->nleaf = stack_table_count(cols[0]);
	v->leaf = xreallocarray(v->leaf, v->nleaf ? v->nleaf : 1, sizeof(*v->leaf));
	for (size_t i = 0; i < n; i++) {
		const struct hmap_entry *e = &keys.entries[ids[i]];
		uint64_t counts[VIEW_MAX_COLS] = { 0, 0 };
		for (unsigned c = 0; c < v->ncols; c++)
			counts[c] = count_in(cols[c], e->key, e->len);
		add_stack(v, e->key, e->len, counts);
		if (ids[i] < v->nleaf)
			v->leaf[ids[i]] = v->path[v->npath - 1];
	}
	free(ids);
	hmap_release(&keys);
}

/* ---- sample rows ---- */

uint32_t view_data_thread(struct view_data *v, int32_t pid, int32_t tid,
			  const char *comm, size_t len)
{
	int32_t key[2] = { pid, tid };
	bool added;
	size_t id = hmap_put(&v->thread_ids, key, sizeof(key), &added);
	if (added) {
		if (id >= v->threads_cap) {
			v->threads_cap = v->threads_cap ? 2 * v->threads_cap : 64;
			v->threads = xreallocarray(v->threads, v->threads_cap,
						   sizeof(*v->threads));
		}
		v->threads[id] = (struct view_thread){ pid, tid,
						       view_data_string(v, comm, len) };
	}
	return (uint32_t)id;
}

void view_data_add_row(struct view_data *v, uint64_t time, uint32_t thread,
		       size_t stack, uint64_t weight)
{
	if (stack > UINT32_MAX || thread >= v->thread_ids.count)
		return;
	if (v->nrows == v->rows_cap) {
		v->rows_cap = v->rows_cap ? 2 * v->rows_cap : 1024;
		v->rows = xreallocarray(v->rows, v->rows_cap, sizeof(*v->rows));
	}
	v->rows[v->nrows++] = (struct view_row){ time, weight, thread, (uint32_t)stack };
}

/* ---- encoding ---- */

static void put_varint(struct strbuf *out, uint64_t x)
{
	char b[10];
	size_t n = 0;
	do {
		b[n] = (char)(x & 0x7f);
		x >>= 7;
		if (x)
			b[n] |= (char)0x80;
		n++;
	} while (x);
	sb_add(out, b, n);
}

static uint64_t zigzag(int64_t x)
{
	return (uint64_t)x << 1 ^ (uint64_t)(x >> 63);
}

static void put_section(struct strbuf *out, unsigned tag, const struct strbuf *payload)
{
	put_varint(out, tag);
	put_varint(out, payload->len);
	sb_add(out, payload->buf, payload->len);
}

/* Sections 1 (threads) and 2 (samples). */
static void put_rows(const struct view_data *v, struct strbuf *out)
{
	struct strbuf p = SB_INIT;
	put_varint(&p, v->thread_ids.count);
	for (size_t i = 0; i < v->thread_ids.count; i++) {
		put_varint(&p, zigzag(v->threads[i].pid));
		put_varint(&p, zigzag(v->threads[i].tid));
		put_varint(&p, v->threads[i].comm);
	}
	put_section(out, 1, &p);
	sb_reset(&p);
	size_t n = 0;
	for (size_t i = 0; i < v->nrows; i++)
		n += v->rows[i].stack < v->nleaf;
	put_varint(&p, n);
	uint64_t prev = 0;
	for (size_t i = 0; i < v->nrows; i++) {
		const struct view_row *r = &v->rows[i];
		if (r->stack >= v->nleaf)
			continue;
		put_varint(&p, zigzag((int64_t)(r->time - prev)));
		put_varint(&p, r->thread);
		put_varint(&p, (uint64_t)v->leaf[r->stack] + 1);
		put_varint(&p, r->weight);
		prev = r->time;
	}
	put_section(out, 2, &p);
	sb_release(&p);
}

void view_data_encode(const struct view_data *v, struct strbuf *out)
{
	sb_add(out, "SCV1", 4);
	put_varint(out, v->ncols);
	put_varint(out, v->strs.count);
	for (size_t i = 0; i < v->strs.count; i++) {
		put_varint(out, v->strs.entries[i].len);
		sb_add(out, v->strs.entries[i].key, v->strs.entries[i].len);
	}
	put_varint(out, v->frames.count);
	for (size_t i = 0; i < v->frames.count; i++) {
		uint32_t key[3];
		memcpy(key, v->frames.entries[i].key, sizeof(key));
		put_varint(out, key[0]);
		put_varint(out, key[1]);
		put_varint(out, key[2]);
		const struct hmap_entry *name = &v->strs.entries[key[0]];
		struct render_rgb c = render_palette_color(v->palette, COLOR_NAME,
							   name->key, name->len);
		put_varint(out, (uint64_t)c.r << 16 | (uint64_t)c.g << 8 | c.b);
		uint64_t src = i < v->frame_src_cap ? v->frame_src[i] : 0;
		put_varint(out, src >> 32);
		if (src >> 32)
			put_varint(out, src & 0xffffffff);
	}
	put_varint(out, v->nnodes);
	int64_t prev = -1;
	for (size_t i = 0; i < v->nnodes; i++) {
		const struct view_node *nd = &v->nodes[i];
		bool self = false;
		for (unsigned c = 0; c < v->ncols; c++)
			self |= nd->self[c] != 0;
		put_varint(out, (uint64_t)(prev + 1 - (int64_t)nd->depth) << 1 | self);
		put_varint(out, nd->frame);
		for (unsigned c = 0; c < v->ncols && self; c++)
			put_varint(out, nd->self[c]);
		prev = nd->depth;
	}
	if (v->nrows && v->ncols == 1)
		put_rows(v, out);
	put_varint(out, 0); /* the end */
}

void view_base64(const void *data, size_t len, struct strbuf *out)
{
	static const char tab[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *p = data;
	sb_grow(out, (len + 2) / 3 * 4);
	char *o = out->buf + out->len;
	size_t i = 0;
	for (; i + 3 <= len; i += 3) {
		uint32_t x = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
		*o++ = tab[x >> 18];
		*o++ = tab[(x >> 12) & 63];
		*o++ = tab[(x >> 6) & 63];
		*o++ = tab[x & 63];
	}
	if (i < len) {
		uint32_t x = (uint32_t)p[i] << 16 | (i + 1 < len ? (uint32_t)p[i + 1] << 8 : 0);
		*o++ = tab[x >> 18];
		*o++ = tab[(x >> 12) & 63];
		*o++ = i + 1 < len ? tab[(x >> 6) & 63] : '=';
		*o++ = '=';
	}
	sb_setlen(out, (size_t)(o - out->buf));
}
