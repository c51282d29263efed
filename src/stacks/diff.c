/*
 * diff: two folded profiles side by side (see diff.h). Stage: stacks.
 */
#include "stacks/diff.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "stacks/folded.h"

/* Copy of s with every 0x[0-9a-fA-F]+ replaced by "0x...". */
static void strip_hex(struct strbuf *out, const char *s, size_t len)
{
	sb_reset(out);
	for (size_t i = 0; i < len;) {
		if (i + 2 < len && s[i] == '0' && s[i + 1] == 'x' &&
		    strchr("0123456789abcdefABCDEF", s[i + 2]) && s[i + 2]) {
			size_t j = i + 2;
			while (j < len && s[j] && strchr("0123456789abcdefABCDEF", s[j]))
				j++;
			sb_adds(out, "0x...");
			i = j;
		} else {
			sb_addc(out, s[i++]);
		}
	}
}

void stack_diff_add(struct stack_diff *r, int side, const char *stack,
		    size_t len, double v)
{
	if (r->strip_hex) {
		strip_hex(&r->tmp, stack, len);
		stack = r->tmp.buf;
		len = r->tmp.len;
	}
	bool added;
	size_t id = hmap_put(&r->stacks, stack, len, &added);
	if (2 * id + 2 > r->cap) {
		size_t old = r->cap;
		XGROW(r->counts, r->cap, 2 * id + 2);
		memset(r->counts + old, 0, (r->cap - old) * sizeof(*r->counts));
	}
	r->counts[2 * id + side] += v;
	r->total[side] += v;
}

void stack_diff_init(struct stack_diff *df, bool strip_hex)
{
	memset(df, 0, sizeof(*df));
	hmap_init(&df->stacks);
	sb_init(&df->tmp);
	df->strip_hex = strip_hex;
}

void stack_diff_release(struct stack_diff *df)
{
	hmap_release(&df->stacks);
	free(df->counts);
	sb_release(&df->tmp);
	df->counts = NULL;
	df->cap = 0;
}

void stack_diff_normalize(struct stack_diff *r)
{
	if (r->total[0] == r->total[1] || r->total[0] == 0)
		return;
	for (size_t id = 0; id < r->stacks.count; id++)
		r->counts[2 * id] = trunc(r->counts[2 * id] * r->total[1] / r->total[0]);
}

size_t *stack_diff_sorted(const struct stack_diff *df)
{
	return hmap_sorted(&df->stacks);
}

const char *stack_diff_key(struct stack_diff *df, size_t id, size_t *len)
{
	const struct hmap_entry *e = hmap_at(&df->stacks, id);
	*len = e->len;
	return e->key;
}

int stack_diff_write(struct stack_diff *r, const size_t *order, FILE *f)
{
	struct strbuf sb = SB_INIT;
	char a[40], b[40];
	int rc = 0;
	for (size_t i = 0; i < r->stacks.count && !rc; i++) {
		const struct hmap_entry *e = hmap_at(&r->stacks, order[i]);
		stack_folded_format_count(r->counts[2 * order[i]], a);
		stack_folded_format_count(r->counts[2 * order[i] + 1], b);
		sb_add(&sb, e->key, e->len);
		sb_addf(&sb, " %s %s\n", a, b);
		if (sb.len > (1 << 20))
			rc = sb_flush(&sb, f);
	}
	if (rc == 0)
		rc = sb_flush(&sb, f);
	sb_release(&sb);
	return rc;
}
