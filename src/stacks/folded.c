/*
 * folded: one folded-stack line into stack text and counts (folded.h).
 * Stage: stacks. Scans from the end of the line backwards, so the cost is
 * the length of the count, not of the stack. No allocation, no copy.
 */
#include "stacks/folded.h"

#include "base/strbuf.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	       c == '\f' || c == '\v';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

int stack_folded_count(const char *s, size_t len, double *out)
{
	size_t i = 0;
	uint64_t whole = 0;
	while (i < len && is_digit(s[i])) {
		if (whole < 100000000000000ull)
			whole = whole * 10 + (uint64_t)(s[i] - '0');
		i++;
	}
	if (i == 0)
		return -EINVAL;
	if (i == len && i <= 15) {
		*out = (double)whole;
		return 0;
	}
	if (i < len && s[i] != '.')
		return -EINVAL;
	for (size_t j = i + 1; j < len; j++)
		if (!is_digit(s[j]))
			return -EINVAL;
	char buf[400];
	if (len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	*out = strtod(buf, NULL);
	return isfinite(*out) ? 0 : -EINVAL;
}

/* Find the count at the end of [s, s+len): returns its start, or len when
 * there is none. A count is digits, optionally '.', optionally digits. */
static size_t count_start(const char *s, size_t len)
{
	size_t i = len;
	while (i > 0 && is_digit(s[i - 1]))
		i--;
	if (i > 0 && s[i - 1] == '.') {
		i--;
		size_t k = i;
		while (k > 0 && is_digit(s[k - 1]))
			k--;
		if (k == i)
			return len;
		return k;
	}
	return i == len ? len : i;
}

/* Split "stack<ws>count" at the end of [s, s+len). Returns 0 and sets
 * *stack_len (before the one separating whitespace) and *count. */
static int split_last(const char *s, size_t len, size_t *stack_len, double *count)
{
	size_t c = count_start(s, len);
	if (c == len || c == 0 || !is_space(s[c - 1]))
		return -EINVAL;
	if (stack_folded_count(s + c, len - c, count) < 0)
		return -EINVAL;
	*stack_len = c - 1;
	return 0;
}

int stack_folded_parse(const char *line, size_t len, struct stack_folded *out)
{
	if (len > 0 && line[len - 1] == '\r')
		len--;
	size_t slen;
	double count;
	if (split_last(line, len, &slen, &count) < 0)
		return -EINVAL;
	out->stack = line;
	out->count = count;
	out->count1 = 0;
	out->two = false;
	size_t slen2;
	double count1;
	if (split_last(line, slen, &slen2, &count1) == 0) {
		out->two = true;
		out->count1 = count1;
		slen = slen2;
	}
	out->stack_len = slen;
	return 0;
}

void stack_folded_format_count(double v, char *buf)
{
	if (v == floor(v) && fabs(v) < 9007199254740992.0)
		snprintf(buf, 40, "%.0f", v);
	else
		snprintf(buf, 40, "%.15g", v);
}

int stack_folded_read(struct lines *lr, const char *name, bool comments,
		      stack_folded_fn fn, void *ctx, struct stack_folded_bad *bad,
		      struct stack_folded_file *ff)
{
	const char *line;
	size_t len;
	int rc;
	struct stack_folded f;
	while ((rc = lines_next(lr, &line, &len)) > 0) {
		if (len == 0 || (comments && ((len == 1 && line[0] == '\r') ||
					      line[0] == '#')))
			continue;
		if (stack_folded_parse(line, len, &f) < 0) {
			if (!ff->first_bad)
				ff->first_bad = lr->lineno;
			if (bad->n++ == 0)
				snprintf(bad->first, sizeof(bad->first), "%s:%llu", name,
					 (unsigned long long)lr->lineno);
			continue;
		}
		ff->good++;
		fn(ctx, &f);
	}
	return rc;
}

bool stack_folded_bad_note(const struct stack_folded_bad *bad, struct strbuf *sb)
{
	if (bad->n)
		sb_addf(sb, "ignored %zu line%s with invalid format (first at %s)", bad->n,
			bad->n == 1 ? "" : "s", bad->first);
	return bad->n != 0;
}
