/*
 * collapse_counted: DTrace and SystemTap stack aggregations (see
 * collapse_counted.h).
 * Stage: stacks. The Perl rules reproduced here, per line (chomped):
 *   DTrace only: the first 3 lines of the input are skipped;
 *   a line of optional spaces and digits only ends the stack: it is added
 *   with that count (even when empty) and a new stack starts;
 *   a line of spaces only is skipped;
 *   otherwise a frame: leading spaces removed, then everything from the
 *   last '+' removed;
 *   DTrace (stackcollapse.pl since 2015): a name with "::" loses its
 *   arguments, from the last '(' or '<' after the first "::"
 *   (s/(::.*)[(<].*\/$1/: "ns::f(int)" is "ns::f", "f(int)" stays); an
 *   empty result becomes "-"; then it is split at "->" (Java inlining;
 *   empty trailing parts dropped), and each part has ';' changed to ':'
 *   and a leading 'L' removed ("Lcom/foo/Bar;run" is "com/foo/Bar:run");
 *   the parts after the first are inlined frames, marked "_[i]";
 *   SystemTap: everything up to the last " : " removed; an empty result
 *   becomes "-".
 * Frames come leaf first; stacks are joined root first with ';'.
 * Known difference: stackcollapse-stap.pl prints each line with printf,
 * so a '%' in a frame is mangled there; we print it as is.
 */
#include "stacks/collapse_counted.h"

#include "base/strbuf.h"

#include <string.h>

static inline bool is_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static size_t skip_space(const char *s, size_t len)
{
	size_t i = 0;
	while (i < len && is_space((unsigned char)s[i]))
		i++;
	return i;
}

void collapse_counted_init(struct collapse_counted *c, enum counted_kind kind,
			   struct stack_table *out)
{
	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->out = out;
	stack_builder_init(&c->frames);
}

void collapse_counted_release(struct collapse_counted *c)
{
	stack_builder_release(&c->frames);
}

/* m/^\s*(\d+)+$/ */
bool collapse_counted_is_count(const char *s, size_t len)
{
	size_t i = skip_space(s, len);
	if (i == len)
		return false;
	for (; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

static uint64_t count_value(const char *s, size_t len)
{
	uint64_t v = 0;
	for (size_t i = skip_space(s, len); i < len; i++) {
		uint64_t d = (uint64_t)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return UINT64_MAX;
		v = v * 10 + d;
	}
	return v;
}

/* s/(::.*)[(<].*\/$1/: after the first "::", cut at the last '(' or '<'. */
static size_t dtrace_cut(const char *s, size_t len)
{
	const char *colons = memmem(s, len, "::", 2);
	if (!colons)
		return len;
	size_t from = (size_t)(colons - s) + 2;
	for (size_t i = len; i-- > from;)
		if (s[i] == '(' || s[i] == '<')
			return i;
	return len;
}

/* One part of a "->" chain as a frame: ';' as ':', no leading 'L', and
 * "_[i]" when inlined. */
static void push_part(struct collapse_counted *c, const char *s, size_t len, bool inlined)
{
	struct strbuf *sb = stack_builder_begin_frame(&c->frames);
	size_t i = len > 0 && s[0] == 'L' ? 1 : 0;
	for (; i < len; i++)
		sb_addc(sb, s[i] == ';' ? ':' : s[i]);
	if (inlined)
		sb_adds(sb, "_[i]");
	stack_builder_end_frame(&c->frames);
}

/* split /->/: the parts, leaf first (the last part is the innermost);
 * Perl drops empty trailing parts, so "->" alone adds no frame. */
static void push_dtrace(struct collapse_counted *c, const char *s, size_t len)
{
	while (len >= 2 && s[len - 2] == '-' && s[len - 1] == '>')
		len -= 2;
	if (len == 0)
		return;
	size_t end = len;
	for (size_t i = len - 1; i-- > 0;) {
		if (s[i] != '-' || s[i + 1] != '>')
			continue;
		push_part(c, s + i + 2, end - (i + 2), true);
		end = i;
	}
	push_part(c, s, end, false);
}

/* s/.* : //: drop through the last " : ". */
static size_t stap_skip(const char *s, size_t len)
{
	for (size_t i = len; i >= 3; i--)
		if (memcmp(s + i - 3, " : ", 3) == 0)
			return i;
	return 0;
}

static void add_frame(struct collapse_counted *c, const char *s, size_t len)
{
	size_t a = skip_space(s, len);
	s += a;
	len -= a;
	const char *plus = memrchr(s, '+', len);
	if (plus)
		len = (size_t)(plus - s);
	if (c->kind == COUNTED_DTRACE) {
		len = dtrace_cut(s, len);
		if (len == 0)
			push_dtrace(c, "-", 1);
		else
			push_dtrace(c, s, len);
		return;
	}
	size_t skip = stap_skip(s, len);
	s += skip;
	len -= skip;
	if (len == 0)
		stack_builder_push(&c->frames, "-", 1);
	else
		stack_builder_push(&c->frames, s, len);
}

void collapse_counted_line(struct collapse_counted *c, const char *s, size_t len)
{
	if (c->kind == COUNTED_DTRACE && c->lines++ < 3)
		return;
	if (collapse_counted_is_count(s, len)) {
		stack_table_add_built(c->out, &c->frames, STACK_LEAF_FIRST,
				      count_value(s, len));
		stack_builder_reset(&c->frames);
		c->stacks++;
		return;
	}
	if (skip_space(s, len) == len)
		return;
	add_frame(c, s, len);
}

/* " 0xffffffff810a5cd6 : native_safe_halt+0xb/0x10 [kernel]" */
bool collapse_counted_is_stap_frame(const char *s, size_t len)
{
	size_t i = skip_space(s, len);
	if (len - i < 3 || s[i] != '0' || s[i + 1] != 'x')
		return false;
	i += 2;
	size_t h = i;
	while (i < len && ((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') ||
			   (s[i] >= 'A' && s[i] <= 'F')))
		i++;
	return i > h && len - i >= 3 && memcmp(s + i, " : ", 3) == 0;
}

/* "              genunix`kmem_cpu_reload+0x20": indented module`symbol. */
bool collapse_counted_is_dtrace_frame(const char *s, size_t len)
{
	size_t i = skip_space(s, len);
	if (i == 0 || i == len)
		return false;
	const char *tick = memchr(s + i, '`', len - i);
	return tick && tick > s + i && !memchr(s + i, ' ', (size_t)(tick - s) - i);
}
