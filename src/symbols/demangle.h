/*
 * demangle: C++ (Itanium) and Rust symbol names as perf prints them.
 * Stage: symbols. C++ goes through libstdc++'s __cxa_demangle (the
 * maintained GNU demangler already on every Debian system with g++; no
 * extra package), then the parameter list is dropped as perf 6.1 does
 * ("Widget::fill", not "Widget::fill(int)"). Rust legacy names
 * (_ZN...17h<hash>E) lose the hash and get their $..$ escapes decoded;
 * Rust v0 (_R...) paths are decoded for the common cases.
 * Ownership: the result is malloc'd (caller frees), NULL when the name
 * is not mangled or does not demangle.
 */
#ifndef SCORCH_SYMBOLS_DEMANGLE_H
#define SCORCH_SYMBOLS_DEMANGLE_H

#include <stddef.h>

char *sym_demangle(const char *name);
/* Drop a trailing top-level "(...)" parameter list and what follows it
 * (cv/ref qualifiers) from a demangled C++ name, in place. */
void sym_demangle_strip_params(char *s);

#endif
