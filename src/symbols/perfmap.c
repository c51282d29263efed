/*
 * perfmap: /tmp/perf-PID.map JIT maps (see perfmap.h).
 * Stage: symbols. Invariant: a line is used only when both numbers parse
 * completely and a name follows that holds no control byte (a NUL or
 * other binary garbage makes the line bad: counted, warned, not used).
 */
#include "symbols/perfmap.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

static bool hex_field(const char **p, const char *end, uint64_t *out)
{
	const char *s = *p;
	if (end - s >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	uint64_t v = 0;
	int digits = 0;
	for (; s < end && isxdigit((unsigned char)*s); s++, digits++) {
		int d = isdigit((unsigned char)*s) ? *s - '0'
						    : tolower((unsigned char)*s) - 'a' + 10;
		v = v << 4 | (uint64_t)d;
	}
	if (digits == 0 || digits > 16 || s == end || *s != ' ')
		return false;
	*out = v;
	*p = s + 1;
	return true;
}

int sym_perfmap_line(struct sym_table *t, const char *line, size_t len)
{
	const char *p = line, *end = line + len;
	uint64_t start, size;
	if (len && end[-1] == '\r')
		end--;
	if (!hex_field(&p, end, &start) || !hex_field(&p, end, &size) || p >= end)
		return -1;
	for (const char *c = p; c < end; c++)
		if ((unsigned char)*c < 0x20 && *c != '\t')
			return -1;
	sym_table_add(t, start, size, SYM_BIND_GLOBAL, p, (size_t)(end - p));
	return 1;
}

int sym_perfmap_load(const char *path, struct sym_table *t, uint64_t *bad,
		     uint64_t *first_bad, struct diag *d)
{
	int added = sym_table_read_lines(path, t, sym_perfmap_line, bad, first_bad, d);
	if (added >= 0)
		sym_table_finish(t, false);
	return added;
}
