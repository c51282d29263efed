/*
 * fuzz-elf-symbols: libFuzzer entry for the ELF symbol loader
 * (symbols/elf, symbols/table, symbols/buildid, symbols/demangle).
 * Stage: fuzz. Opens the bytes as an ELF image (section sizes checked),
 * loads .symtab and .dynsym, finishes the table with perf's rules and
 * looks up a spread of addresses; the bytes are also parsed as a note
 * section. The .plt symbols and the replay of perf's symbol tree
 * (symbols/rbt) that names .plt addresses are built and searched too,
 * and the kernel loaders (a vmlinux's symbols, a module's .text ones,
 * the reference symbol's value).
 * Invariant under test: a lying ELF is rejected or read within
 * its bounds, never a crash, leak or undefined behaviour.
 */
#include "symbols/buildid.h"
#include "symbols/elf.h"
#include "symbols/rbt.h"
#include "symbols/table.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void lookups(const struct sym_table *t, const struct sym_elf_file *f)
{
	uint64_t probes[] = { 0, 0x1000, 0x10aa, 0x127c, 0x27304, UINT64_MAX };
	for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		uint64_t a = sym_segments_to_vaddr(f->segs, f->nsegs, probes[i]);
		(void)sym_table_find(t, a);
	}
	for (size_t i = 0; i < t->n && i < 64; i++)
		(void)sym_table_find(t, t->syms[i].start);
}

/* .symtab with its objects, .plt, perf's tree over them, PLT lookups. */
static void plt_tree(struct sym_elf_file *f)
{
	struct sym_table t, objs, plt;
	struct diag d = DIAG_INIT;
	sym_table_init(&t);
	sym_table_init(&objs);
	sym_table_init(&plt);
	(void)sym_elf_load_objects(f, &t, &objs, false, &d);
	sym_table_finish(&t, false);
	diag_clear(&d);
	(void)sym_elf_load_plt(f, &plt, &d);
	sym_table_finish(&plt, false);
	struct sym_rbt r;
	sym_rbt_build(&r, &t, &objs, &plt);
	struct sym_rbt_spans sp;
	const struct sym_table *keep[2] = { &t, &plt };
	uint64_t lo = plt.n ? plt.syms[0].start : 0, hi = plt.n ? plt.syms[plt.n - 1].end : 0;
	sym_rbt_spans_build(&sp, &r, lo, hi, keep, 2);
	for (size_t i = 0; i < plt.n && i < 16; i++) {
		const struct sym_entry *e = sym_rbt_find(&r, plt.syms[i].start + 8);
		const struct sym_entry *g = sym_rbt_spans_find(&sp, plt.syms[i].start + 8);
		if (plt.syms[i].start + 8 >= lo && plt.syms[i].start + 8 < hi &&
		    (!e) != (!g))
			abort(); /* the spans answer as the tree */
	}
	sym_rbt_spans_release(&sp);
	sym_rbt_release(&r);
	sym_table_release(&t);
	sym_table_release(&objs);
	sym_table_release(&plt);
}

/* As a vmlinux (all sections) and as a module (.text only). */
static void kernel(struct sym_elf_file *f)
{
	const char *sections[2] = { NULL, ".text" };
	for (int i = 0; i < 2; i++) {
		struct sym_table t;
		struct diag d = DIAG_INIT;
		sym_table_init(&t);
		(void)sym_elf_load_kernel(f, &t, sections[i], &d);
		sym_table_finish(&t, false);
		lookups(&t, f);
		sym_table_release(&t);
	}
	uint64_t v;
	(void)sym_elf_symbol_value(f, "_text", &v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diag d = DIAG_INIT;
	struct sym_buildid b;
	(void)sym_buildid_from_notes(data, size, false, &b, &d);
	(void)sym_buildid_from_notes(data, size, true, &b, &d);
	/* libelf may keep pointers into the image: give it a private copy */
	void *copy = malloc(size ? size : 1);
	memcpy(copy, data, size);
	struct sym_elf_file f;
	diag_clear(&d);
	if (sym_elf_open_mem(&f, copy, size, &d) == 0) {
		for (int dyn = 0; dyn < 2; dyn++) {
			struct sym_table t = SYM_TABLE_INIT;
			sym_table_init(&t);
			diag_clear(&d);
			(void)sym_elf_load(&f, &t, dyn, &d);
			sym_table_finish(&t, false);
			lookups(&t, &f);
			sym_table_release(&t);
		}
		plt_tree(&f);
		kernel(&f);
		sym_elf_close(&f);
	}
	free(copy);
	return 0;
}
