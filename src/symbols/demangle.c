/*
 * demangle: names as perf 6.1 prints them, through libiberty (see
 * demangle.h). Stage: symbols. Invariant: the input is never modified;
 * a name libiberty does not take is kept (NULL returned).
 */
#include "symbols/demangle.h"

#include <libiberty/demangle.h>

char *sym_demangle(const char *name)
{
	/* Only Itanium (_Z...) and Rust v0 (_R...) names are mangled the
	 * way libiberty reads them; anything else stays as it is. */
	if (name[0] != '_' || (name[1] != 'Z' && name[1] != 'R'))
		return NULL;
	/* DMGL_NO_OPTS is what perf 6.1 passes unless -v: no parameter
	 * lists, no return types, no clone suffixes, no Rust hashes. */
	return cplus_demangle(name, DMGL_NO_OPTS);
}
