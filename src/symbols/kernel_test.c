/* Unit tests for symbols/kernel and the kernel ELF loaders of
 * symbols/elf: module names, module paths, .text-only loading, the
 * reference symbol's value, module dsos named by path. */
#include "symbols/dso.h"
#include "symbols/elf.h"
#include "symbols/kernel.h"
#include "unit.h"

#include <stdint.h>
#include <string.h>

UNIT_TEST(kernel_module_names)
{
	char n[32];
	sym_kernel_module_name("/lib/modules/6.1.0/kernel/fs/nfs-common.ko.xz", n, sizeof(n));
	CHECK_EQ_STR(n, "[nfs_common]");
	sym_kernel_module_name("kvm_intel.ko", n, sizeof(n));
	CHECK_EQ_STR(n, "[kvm_intel]");
	sym_kernel_module_name("/x/a-very-long-module-name-indeed.ko", n, 12);
	CHECK_EQ_STR(n, "[a_very_lo]"); /* cut to the buffer, still bracketed */
	CHECK(sym_module_path("/lib/modules/6.1.0/kernel/fs/ext4.ko"));
	CHECK(sym_module_path("/x/y.ko.zst") && sym_module_path("y.ko.gz") &&
	      sym_module_path("/x/y.ko.xz"));
	CHECK(!sym_module_path("/usr/lib/libkom.so") && !sym_module_path("/x/.ko") &&
	      !sym_module_path("/x/y.ko.bz2") && !sym_module_path("/x/y.kobj"));
}

UNIT_TEST(kernel_module_dsos)
{
	struct sym_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	struct sym_dsos s;
	sym_dsos_init(&s, &cfg);
	const char *ko = "/lib/modules/6.1.0/kernel/net/nf-tables.ko";
	struct sym_dso *a = sym_dsos_findnew_module(&s, ko, false);
	CHECK_EQ_STR(a->name, "[nf_tables]");
	CHECK(a->kind == SYM_DSO_MODULE && a->path && strcmp(a->path, ko) == 0);
	/* the BUILD_ID feature names it: the same dso, now named by its path */
	struct sym_dso *b = sym_dsos_findnew_module(&s, ko, true);
	CHECK(a == b);
	CHECK_EQ_STR(b->name, ko);
	CHECK_EQ_STR(b->short_name, "[nf_tables]");
	CHECK(sym_dsos_findnew_module(&s, "[nf_tables]", false) == a);
	CHECK(sym_dsos_findnew_module(&s, "[other]", false)->kind == SYM_DSO_MODULE);
	sym_dsos_set_release(&s, "6.1.0-test");
	CHECK(s.release && strcmp(s.release, "6.1.0-test") == 0);
	sym_dsos_set_release(&s, "");
	CHECK(s.release == NULL);
	sym_dsos_release(&s);
}

/* The test binary itself: kernel loading keeps .text symbols only, with
 * their values, names as they are. */
UNIT_TEST(kernel_elf_text_only)
{
	struct sym_elf_file f;
	struct diag d = DIAG_INIT;
	if (sym_elf_open(&f, "/proc/self/exe", &d) != 0 || !f.has_symtab) {
		CHECK(!"the unit-test binary opens with a .symtab");
		return;
	}
	struct sym_table all, text;
	sym_table_init(&all);
	sym_table_init(&text);
	CHECK(sym_elf_load_kernel(&f, &all, NULL, &d) > 0);
	CHECK(sym_elf_load_kernel(&f, &text, ".text", &d) > 0);
	CHECK(text.n > 0 && text.n <= all.n);
	uint64_t v = 0;
	CHECK(sym_elf_symbol_value(&f, "sym_elf_load_kernel", &v) == 1 && v != 0);
	CHECK(sym_elf_symbol_value(&f, "no such symbol here", &v) == 0);
	bool found = false, init = false, mangled = false;
	for (size_t i = 0; i < text.n; i++) {
		found |= !strcmp(text.syms[i].name, "sym_elf_load_kernel") && text.syms[i].start == v;
		init |= !strcmp(text.syms[i].name, "_init"); /* in .init */
		mangled |= text.syms[i].mangled;
	}
	bool init_all = false;
	for (size_t i = 0; i < all.n; i++)
		init_all |= !strcmp(all.syms[i].name, "_init");
	CHECK(found);
	CHECK(init_all); /* all sections: .init's _init is there */
	CHECK(!init);
	CHECK(!mangled);
	sym_table_release(&all);
	sym_table_release(&text);
	sym_elf_close(&f);
}
