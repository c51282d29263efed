/*
 * kallsyms: kernel symbol text files (see kallsyms.h).
 * Stage: symbols. Streaming: one line at a time through base/lines.
 */
#include "symbols/kallsyms.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F') /* no tolower(): a libc call per digit */
		return c - 'A' + 10;
	return -1;
}

int sym_kallsyms_line(struct sym_table *t, const char *line, size_t len)
{
	size_t i = 0;
	uint64_t addr = 0;
	int digits = 0;
	for (; i < len && hexval(line[i]) >= 0; i++, digits++)
		addr = addr << 4 | (uint64_t)hexval(line[i]);
	if (digits == 0 || digits > 16 || i + 3 > len || line[i] != ' ' ||
	    line[i + 2] != ' ')
		return -1;
	char type = (char)toupper((unsigned char)line[i + 1]);
	const char *name = line + i + 3;
	size_t nlen = len - i - 3;
	if (type != 'T' && type != 'W' && type != 'D' && type != 'B')
		return 0;
	if (nlen == 0 || name[0] == '$')
		return nlen == 0 ? -1 : 0;
	const char *tab = memchr(name, '\t', nlen);
	size_t base = tab ? (size_t)(tab - name) : nlen;
	int bind = line[i + 1] == 'W' || line[i + 1] == 'w' ? SYM_BIND_WEAK
		   : isupper((unsigned char)line[i + 1]) ? SYM_BIND_GLOBAL
							: SYM_BIND_LOCAL;
	struct sym_entry *e = sym_table_add(t, addr, 0, bind, name, base);
	e->module = tab != NULL && memchr(tab, '[', nlen - base) != NULL;
	return 1;
}

int sym_kallsyms_load(const char *path, struct sym_table *t, uint64_t *bad,
		      uint64_t *text, struct diag *d)
{
	uint64_t first_bad;
	int added = sym_table_read_lines(path, t, sym_kallsyms_line, bad, &first_bad, d);
	if (added < 0)
		return added;
	*text = sym_kallsyms_addr_of(t, "_text");
	sym_table_finish(t, true);
	return added;
}

uint64_t sym_kallsyms_addr_of(const struct sym_table *t, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->syms[i].name, name) == 0)
			return t->syms[i].start;
	return 0;
}
