/*
 * kernel: the kernel's and its modules' symbols from ELF files: a
 * vmlinux (--vmlinux, the build-id cache, perf's vmlinux paths) and the
 * modules' .ko files (the build-id cache, the recorded path,
 * /lib/modules/<release>), in the order dso.h lists.
 * Stage: symbols, a loader for dso.c. A file is used only when it is a
 * valid ELF whose build id equals the recorded one (when one was
 * recorded). Symbols are placed where the recording saw them: a
 * vmlinux's moved by the KASLR offset (the kernel map's reference
 * symbol, as perf's ref_reloc_sym), a module's .text symbols (relative
 * to .text in the relocatable .ko) at the module map's start.
 * Ownership: symbols go into the dso's table; paths tried are freed here.
 */
#ifndef SCORCH_SYMBOLS_KERNEL_H
#define SCORCH_SYMBOLS_KERNEL_H

#include <stdbool.h>
#include <stddef.h>

#include "symbols/dso.h"

/* Kernel symbols from --vmlinux (then the only source tried: returns
 * true either way), else the cache and perf's vmlinux paths. False when
 * kallsyms should be tried next. */
bool sym_kernel_load_vmlinux(struct sym_dsos *s, struct sym_dso *d);
/* A module's symbols from its .ko; d->from_elf tells whether one was
 * found (else its addresses are named through kallsyms). */
void sym_kernel_load_module(struct sym_dsos *s, struct sym_dso *d);
/* The module name "[mod]" of a .ko path (base name up to ".ko", '-' as
 * '_') into out (size bytes, cut when longer). */
void sym_kernel_module_name(const char *path, char *out, size_t size);

#endif
