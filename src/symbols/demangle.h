/*
 * demangle: C++ (Itanium) and Rust (legacy and v0) symbol names as perf
 * 6.1 prints them. Stage: symbols. perf 6.1 links libiberty's demangler
 * and calls it without DMGL_PARAMS; so does scorch (libiberty-dev), so
 * the names agree byte for byte: "Widget::fill", not
 * "Widget::fill(int)"; "non-virtual thunk to X::f(long)" keeps what a
 * special name wraps; Rust legacy names lose their hash.
 * Ownership: the result is malloc'd (caller frees), NULL when the name
 * is not mangled or does not demangle.
 */
#ifndef SCORCH_SYMBOLS_DEMANGLE_H
#define SCORCH_SYMBOLS_DEMANGLE_H

char *sym_demangle(const char *name);

#endif
