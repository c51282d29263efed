/* Unit tests for symbols/: table rules, demangling, kallsyms and JIT map
 * lines, link-as-text resolution. */
#include "symbols/demangle.h"
#include "symbols/fs.h"
#include "symbols/kallsyms.h"
#include "symbols/perfmap.h"
#include "symbols/table.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *name_at(const struct sym_table *t, uint64_t a)
{
	const struct sym_entry *e = sym_table_find(t, a);
	return e ? e->name : "-";
}

UNIT_TEST(symtable_perf_rules)
{
	struct sym_table t = SYM_TABLE_INIT;
	sym_table_init(&t);
	sym_table_add(&t, 0x1000, 0, SYM_BIND_GLOBAL, "_init", 5);
	sym_table_add(&t, 0x1070, 0x6e, SYM_BIND_GLOBAL, "main", 4);
	/* aliases at one address: sized beats zero, global beats weak and
	 * local, fewer leading underscores, then the longer name */
	sym_table_add(&t, 0x2000, 0x10, SYM_BIND_WEAK, "free", 4);
	sym_table_add(&t, 0x2000, 0x10, SYM_BIND_GLOBAL, "__libc_free", 11);
	sym_table_add(&t, 0x2000, 0x10, SYM_BIND_GLOBAL, "cfree@GLIBC_2.2.5", 17);
	sym_table_add(&t, 0x2000, 0, SYM_BIND_GLOBAL, "zero", 4);
	sym_table_add(&t, 0x3000, 0x100, SYM_BIND_LOCAL, "outer", 5);
	sym_table_add(&t, 0x3040, 0, SYM_BIND_LOCAL, "label", 5);
	sym_table_add(&t, 0x3200, 0, SYM_BIND_GLOBAL, "_fini", 5);
	sym_table_finish(&t, false);
	CHECK_EQ_STR(name_at(&t, 0x1040), "_init");      /* end = next start */
	CHECK_EQ_STR(name_at(&t, 0x10dd), "main");
	CHECK_EQ_STR(name_at(&t, 0x2004), "cfree@GLIBC_2.2.5");
	CHECK_EQ_STR(name_at(&t, 0x3080), "outer");      /* label inside */
	CHECK_EQ_STR(name_at(&t, 0x3f00), "_fini");      /* last: page + page */
	CHECK_EQ_STR(name_at(&t, 0x5000), "-");
	CHECK_EQ_STR(name_at(&t, 0x10), "-");
	sym_table_release(&t);
}

UNIT_TEST(symtable_kallsyms_lines)
{
	struct sym_table t = SYM_TABLE_INIT;
	sym_table_init(&t);
	CHECK(sym_kallsyms_line(&t, "ffffffff81000000 T _text", 24) == 1);
	CHECK(sym_kallsyms_line(&t, "ffffffff81000010 t helper", 25) == 1);
	CHECK(sym_kallsyms_line(&t, "ffffffff81000020 r rodata", 25) == 0);
	CHECK(sym_kallsyms_line(&t, "ffffffffc0000000 t mod_fn\t[mymod]", 33) == 1);
	CHECK(sym_kallsyms_line(&t, "zz T x", 6) < 0);
	sym_table_finish(&t, true);
	CHECK_EQ_STR(name_at(&t, 0xffffffff81000011), "helper");
	CHECK_EQ_STR(name_at(&t, 0xffffffffc0000004), "mod_fn");
	/* the last core symbol does not run into the module area */
	CHECK_EQ_STR(name_at(&t, 0xffffffffb0000000), "-");
	sym_table_release(&t);
}

UNIT_TEST(symtable_perfmap_lines)
{
	struct sym_table t = SYM_TABLE_INIT;
	sym_table_init(&t);
	const char *l1 = "7f00 10 JS:*fib /tmp/a.js:1:13";
	const char *l2 = "0x7f20 0x8 LazyCompile:~main";
	CHECK(sym_perfmap_line(&t, l1, strlen(l1)) == 1);
	CHECK(sym_perfmap_line(&t, l2, strlen(l2)) == 1);
	CHECK(sym_perfmap_line(&t, "7f00 zz x", 9) < 0);
	CHECK(sym_perfmap_line(&t, "7f00 10", 7) < 0);
	sym_table_finish(&t, false);
	CHECK_EQ_STR(name_at(&t, 0x7f0f), "JS:*fib /tmp/a.js:1:13");
	CHECK_EQ_STR(name_at(&t, 0x7f10), "-");
	CHECK_EQ_STR(name_at(&t, 0x7f27), "LazyCompile:~main");
	sym_table_release(&t);
}

static bool demangles_to(const char *mangled, const char *want)
{
	char *s = sym_demangle(mangled);
	bool ok = s && strcmp(s, want) == 0;
	if (!ok)
		fprintf(stderr, "# %s -> %s (want %s)\n", mangled, s ? s : "NULL", want);
	free(s);
	return ok;
}

UNIT_TEST(demangle_as_perf)
{
	CHECK(demangles_to("_ZN3geo6MatrixIdE3mulERKS1_", "geo::Matrix<double>::mul"));
	CHECK(demangles_to("_ZN6Widget4fillEi", "Widget::fill"));
	CHECK(demangles_to("_ZNK3geo6MatrixIdE3mulERKS1_", "geo::Matrix<double>::mul"));
	CHECK(demangles_to("_ZN2v88internal12DeserializerINS0_7IsolateEE22ReadSingleBytecodeDataINS0_25SlotAccessorForHeapObjectEEEihT_",
			   "v8::internal::Deserializer<v8::internal::Isolate>::ReadSingleBytecodeData<v8::internal::SlotAccessorForHeapObject>"));
	CHECK(demangles_to("_ZN12_GLOBAL__N_13fooEv", "(anonymous namespace)::foo"));
	CHECK(demangles_to("_ZN4core3fmt5write17h0123456789abcdefE", "core::fmt::write"));
	CHECK(demangles_to("_RNvCs1234_5crate4main", "crate::main"));
	CHECK(sym_demangle("main") == NULL);
	CHECK(sym_demangle("_Znotmangled") == NULL);
}

UNIT_TEST(fs_link_as_text)
{
	char dir[] = "/tmp/scorch-unit-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char p[512];
	snprintf(p, sizeof(p), "%s/store", dir);
	mkdir(p, 0700);
	snprintf(p, sizeof(p), "%s/store/real", dir);
	FILE *f = fopen(p, "w");
	fputs("\177ELF-ish", f);
	fclose(f);
	snprintf(p, sizeof(p), "%s/id", dir);
	f = fopen(p, "w");
	fputs("./store\n", f); /* a link to a directory, stored as text */
	fclose(f);
	snprintf(p, sizeof(p), "%s/id/real", dir);
	char *r = sym_fs_resolve(p);
	char want[512];
	snprintf(want, sizeof(want), "%s/./store/real", dir);
	CHECK(r && strcmp(r, want) == 0);
	free(r);
	snprintf(p, sizeof(p), "%s/id/missing", dir);
	CHECK(sym_fs_resolve(p) == NULL);
	char *j = sym_fs_join("/a/", "/b");
	CHECK_EQ_STR(j, "/a/b");
	free(j);
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	CHECK(system(p) == 0);
}
