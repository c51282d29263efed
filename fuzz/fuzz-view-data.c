/*
 * fuzz-view-data: folded-stack lines through the explorer's encoder
 * (render/view_data.c) as `scorch view` runs it: parsed into one or two
 * stack tables (the first byte's low bit: a diff), the preorder tree
 * built (with one column, a sample row and a thread per line; each
 * line's first frame given a source file and line), encoded
 * and base64'd, and the encoding walked back to check that every node's
 * depth is at most one below its predecessor's and every row names a
 * thread and a node that exist.
 */
#include "render/view_data.h"
#include "stacks/folded.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t get(const unsigned char **p, const unsigned char *end)
{
	uint64_t x = 0;
	for (int shift = 0; shift < 64 && *p < end; shift += 7) {
		unsigned char b = *(*p)++;
		x |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return x;
	}
	abort(); /* the encoder wrote a truncated varint */
}

/* Walk the encoding; abort on any inconsistency. */
static void check(const struct strbuf *bin, size_t nnodes)
{
	const unsigned char *p = (const unsigned char *)bin->buf + 4;
	const unsigned char *end = (const unsigned char *)bin->buf + bin->len;
	unsigned ncols = (unsigned)get(&p, end);
	uint64_t ns = get(&p, end);
	for (uint64_t i = 0; i < ns; i++) {
		uint64_t len = get(&p, end);
		if (len > (uint64_t)(end - p))
			abort();
		p += len;
	}
	uint64_t nf = get(&p, end);
	for (uint64_t i = 0; i < nf; i++) {
		if (get(&p, end) >= ns || get(&p, end) > ns || get(&p, end) > 7 ||
		    get(&p, end) > 0xffffff)
			abort();
		uint64_t file = get(&p, end); /* source file + 1, then a line */
		if (file > ns || (file && get(&p, end) > UINT32_MAX))
			abort();
	}
	if (get(&p, end) != nnodes)
		abort();
	int64_t depth = -1;
	for (uint64_t i = 0; i < nnodes; i++) {
		uint64_t up2 = get(&p, end), up = up2 >> 1;
		if ((int64_t)up > depth + 1 || get(&p, end) >= nf)
			abort();
		depth = depth + 1 - (int64_t)up;
		uint64_t any = 0;
		for (unsigned c = 0; c < ncols && (up2 & 1); c++)
			any |= get(&p, end);
		if ((up2 & 1) && !any)
			abort(); /* has_self with every column 0 */
	}
	uint64_t tag, nthreads = 0;
	while ((tag = get(&p, end)) != 0) {
		uint64_t len = get(&p, end);
		if (len > (uint64_t)(end - p))
			abort();
		const unsigned char *sec_end = p + len;
		uint64_t n = get(&p, end);
		for (uint64_t i = 0; i < n; i++) {
			uint64_t a = get(&p, end), b = get(&p, end), c = get(&p, end);
			if (tag == 1 && c >= ns)
				abort();
			if (tag == 2 && (b >= nthreads || c > nnodes || c == 0))
				abort();
			if (tag == 2)
				get(&p, end);
			(void)a;
		}
		if (tag == 1)
			nthreads = n;
		if (p != sec_end)
			abort();
	}
	if (p != end)
		abort();
}

/* A count as the view command takes it: whole samples, 0 for none. */
static uint64_t count_of(double x)
{
	if (!(x >= 1))
		return 0;
	return x >= 18446744073709549568.0 ? UINT64_MAX : (uint64_t)x;
}

static void add(struct stack_table *t, const struct stack_folded *f, double x)
{
	uint64_t n = count_of(x);
	if (n)
		stack_table_add(t, f->stack, f->stack_len, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	unsigned ncols = (data[0] & 1) + 1;
	struct stack_table t[2] = { STACK_TABLE_INIT, STACK_TABLE_INIT };
	struct view_data v;
	view_data_init(&v, ncols);
	const char *p = (const char *)data + 1, *end = (const char *)data + size;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct stack_folded f;
		if (stack_folded_parse(p, len, &f) == 0) {
			const char *semi = memchr(f.stack, ';', f.stack_len);
			view_data_name_source(&v, f.stack, semi ? (size_t)(semi - f.stack)
								: f.stack_len,
					      p, len % 7, (unsigned)len);
			add(&t[0], &f, ncols == 2 ? f.count1 : f.count);
			if (ncols == 1 && count_of(f.count)) {
				uint32_t th = view_data_thread(&v, (int32_t)(len % 3) - 1,
							       (int32_t)len, p, len % 5);
				size_t id = stack_table_add(&t[0], f.stack, f.stack_len, 0);
				view_data_add_row(&v, (uint64_t)(p - (const char *)data) * 977,
						  th, id, count_of(f.count));
			}
			if (ncols == 2)
				add(&t[1], &f, f.count);
		}
		p += len + 1;
	}
	const struct stack_table *cols[2] = { &t[0], &t[1] };
	view_data_add_tables(&v, cols);
	struct strbuf bin = SB_INIT, b64 = SB_INIT;
	view_data_encode(&v, &bin);
	check(&bin, v.nnodes);
	view_base64(bin.buf, bin.len, &b64);
	if (b64.len != (bin.len + 2) / 3 * 4)
		abort();
	sb_release(&bin);
	sb_release(&b64);
	view_data_release(&v);
	stack_table_release(&t[0]);
	stack_table_release(&t[1]);
	return 0;
}
