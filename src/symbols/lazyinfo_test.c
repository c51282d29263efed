/* Unit tests for symbols/lazyinfo through symbols/inline: inline frames
 * read from a zlib-compressed .debug_info inflated on demand must equal
 * those libdw gives for the same file decompressed whole (objcopy
 * --decompress-debug-sections), at every address of the program: for
 * programs compiled here (many units, LTO with its cross-unit
 * references, units missing from .debug_aranges) and for libc's debug
 * file. */
#include "symbols/inline.h"
#include "unit.h"

#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define LIBC_DEBUG "/usr/lib/debug/.build-id/93/ac61ec5a8eb1396f9fbd350e3169a558528a40.debug"

enum { UNITS = 24 };

static bool write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f)
		return false;
	fputs(text, f);
	return fclose(f) == 0;
}

/* UNITS files u<k>.c, each with inline helpers, and main.c calling
 * them: debug info larger than the first chunk lazyinfo inflates. */
static bool write_sources(const char *dir)
{
	char name[32], text[1024], main_c[4096];
	int m = snprintf(main_c, sizeof(main_c), "unsigned v;\n");
	for (int k = 0; k < UNITS; k++) {
		snprintf(name, sizeof(name), "u%d.c", k);
		snprintf(text, sizeof(text),
			 "#include <stdio.h>\n"
			 "int show%d(FILE *f, unsigned x) { return fprintf(f, \"%%u\\n\", x); }\n"
			 "static inline unsigned mix%d(unsigned x) { return x * 2654435761u ^ (x >> %d); }\n"
			 "static inline unsigned twice%d(unsigned x) { return mix%d(mix%d(x)); }\n"
			 "struct pair%d { unsigned a, b; };\n"
			 "unsigned stage%d(unsigned x) { struct pair%d p = { twice%d(x), x };\n"
			 "  for (unsigned i = 0; i < (x & 7); i++) p.a += mix%d(i + p.b);\n"
			 "  return p.a; }\n", k, k, k % 13 + 1, k, k, k, k, k, k, k, k);
		if (!write_file(dir, name, text))
			return false;
		m += snprintf(main_c + m, sizeof(main_c) - (size_t)m,
			      "unsigned stage%d(unsigned x);\n", k);
	}
	m += snprintf(main_c + m, sizeof(main_c) - (size_t)m,
		      "int main(int argc, char **argv) { (void)argv;\n"
		      "  for (int i = 0; i < argc * 1000; i++) {\n");
	for (int k = 0; k < UNITS; k++)
		m += snprintf(main_c + m, sizeof(main_c) - (size_t)m,
			      "    v += stage%d((unsigned)i);\n", k);
	snprintf(main_c + m, sizeof(main_c) - (size_t)m, "  }\n  return (int)(v & 1); }\n");
	return write_file(dir, "main.c", main_c);
}

/* Build dir/prog (compressed DWARF) and dir/prog.plain with cc, or with
 * clang for the units listed in clang_units ("u3 u7": they get no
 * .debug_aranges, so lookups there need all of .debug_info). False when
 * a tool is missing (the test then fails: all are build/test deps). */
static bool build(const char *dir, const char *flags, const char *clang_units)
{
	char cmd[4096];
	if (!write_sources(dir))
		return false;
	int n = snprintf(cmd, sizeof(cmd), "cd %s && objs= && for f in main", dir);
	for (int k = 0; k < UNITS; k++)
		n += snprintf(cmd + n, sizeof(cmd) - (size_t)n, " u%d", k);
	snprintf(cmd + n, sizeof(cmd) - (size_t)n,
		 "; do c=cc; case \" %s \" in *\" $f \"*) c=clang;; esac; "
		 "$c %s -g -gz=zlib -c -o $f.o $f.c 2>/dev/null || exit 1; objs=\"$objs $f.o\"; done && "
		 "cc %s -g -gz=zlib -o prog $objs 2>/dev/null && "
		 "objcopy --decompress-debug-sections prog prog.plain",
		 clang_units, flags, flags);
	return system(cmd) == 0;
}

/* Compare the frames of the two files at addresses lo..hi (step). */
static size_t compare_range(struct sym_inline *lazy, const char *lazy_path,
			    struct sym_inline *whole, const char *whole_path,
			    uint64_t lo, uint64_t hi, uint64_t step, size_t *found)
{
	size_t bad = 0;
	for (uint64_t a = lo; a < hi; a += step) {
		const struct sym_inline_frame *fa, *fb;
		size_t na = sym_inline_frames(lazy, lazy_path, a, &fa);
		size_t nb = sym_inline_frames(whole, whole_path, a, &fb);
		*found += na;
		bool same = na == nb;
		for (size_t i = 0; same && i < na; i++)
			same = !strcmp(fa[i].name, fb[i].name) && fa[i].line == fb[i].line &&
			       (fa[i].file == NULL) == (fb[i].file == NULL) &&
			       (!fa[i].file || !strcmp(fa[i].file, fb[i].file));
		if (!same && bad++ < 3)
			printf("# differs at 0x%llx: %zu vs %zu frames%s%s\n",
			       (unsigned long long)a, na, nb, na ? ", first " : "",
			       na ? fa[0].name : "");
	}
	return bad;
}

/* Each FUNC symbol of path's .symtab, at most max_len bytes of it;
 * the one named first (or NULL) before all others. */
static size_t compare_functions(const char *lazy_path, const char *whole_path,
				uint64_t step, uint64_t max_len, const char *first,
				size_t *found, struct sym_inline_stats *st)
{
	struct sym_inline *lazy = sym_inline_new(), *whole = sym_inline_new();
	size_t bad = 0, funcs = 0;
	int fd = open(whole_path, O_RDONLY);
	elf_version(EV_CURRENT);
	Elf *e = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
	for (int pass = first ? 0 : 1; pass < 2; pass++) {
		for (Elf_Scn *scn = NULL; e && (scn = elf_nextscn(e, scn)) != NULL;) {
			GElf_Shdr sh;
			if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
				continue;
			Elf_Data *d = elf_getdata(scn, NULL);
			size_t n = d && sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
			for (size_t i = 0; i < n; i++) {
				GElf_Sym s;
				if (!gelf_getsym(d, (int)i, &s) ||
				    GELF_ST_TYPE(s.st_info) != STT_FUNC || !s.st_value ||
				    !s.st_size)
					continue;
				const char *name = elf_strptr(e, sh.sh_link, s.st_name);
				if (pass == 0 && (!name || strcmp(name, first)))
					continue;
				uint64_t len = s.st_size < max_len ? s.st_size : max_len;
				bad += compare_range(lazy, lazy_path, whole, whole_path,
						     s.st_value, s.st_value + len, step, found);
				funcs++;
			}
		}
	}
	if (e)
		elf_end(e);
	if (fd >= 0)
		close(fd);
	*st = *sym_inline_stats(lazy);
	sym_inline_free(lazy);
	sym_inline_free(whole);
	return funcs ? bad : (size_t)-1;
}

/* expect_whole: 0 the prefix must do, 1 one fallback to the whole,
 * -1 either (the compiler's layout decides). */
static void run_compiled(const char *flags, const char *clang_units,
			 const char *first, int expect_whole)
{
	char dir[] = "/tmp/scorch-lazyinfo-XXXXXX", prog[600], plain[600];
	if (!mkdtemp(dir)) {
		CHECK(!"mkdtemp");
		return;
	}
	snprintf(prog, sizeof(prog), "%s/prog", dir);
	snprintf(plain, sizeof(plain), "%s/prog.plain", dir);
	bool built = build(dir, flags, clang_units);
	CHECK(built);
	if (built) {
		size_t found = 0;
		struct sym_inline_stats st;
		size_t bad = compare_functions(prog, plain, 1, UINT64_MAX, first, &found, &st);
		printf("# %s: %zu frames, lazy files %llu, whole %llu\n", flags, found,
		       (unsigned long long)st.lazy_files, (unsigned long long)st.lazy_whole);
		CHECK(bad == 0);
		CHECK(found > 0);
		CHECK(st.lazy_files == 1);   /* the compressed file went lazy */
		if (expect_whole >= 0)
			CHECK(st.lazy_whole == (uint64_t)expect_whole);
	}
	char cmd[700];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
}

UNIT_TEST(lazyinfo_units)
{
	run_compiled("-O2", "", NULL, 0);
}

UNIT_TEST(lazyinfo_lto)
{
	/* LTO: inlined subroutines refer to abstract origins in other units,
	 * and the partition units may lack aranges */
	run_compiled("-O2 -flto", "", NULL, -1);
}

UNIT_TEST(lazyinfo_no_aranges)
{
	/* clang writes no .debug_aranges: its units' addresses send the
	 * lookup to the whole section, with the same answers (looked up
	 * first, before the prefix has grown to all of it) */
	run_compiled("-O2", "u5 u17", "stage17", 1);
}

UNIT_TEST(lazyinfo_libc)
{
	if (access(LIBC_DEBUG, R_OK) != 0) {
		printf("ok - unit lazyinfo_libc # SKIP libc6-dbg debug file absent\n");
		return;
	}
	char dir[] = "/tmp/scorch-lazyinfo-XXXXXX", plain[600], cmd[1400];
	if (!mkdtemp(dir)) {
		CHECK(!"mkdtemp");
		return;
	}
	snprintf(plain, sizeof(plain), "%s/libc.debug", dir);
	snprintf(cmd, sizeof(cmd), "objcopy --decompress-debug-sections %s %s",
		 LIBC_DEBUG, plain);
	CHECK(system(cmd) == 0);
	size_t found = 0;
	struct sym_inline_stats st;
	/* every function, a sample of addresses in each */
	size_t bad = compare_functions(LIBC_DEBUG, plain, 13, 160, NULL, &found, &st);
	printf("# libc: %zu frames, lazy files %llu, whole %llu\n", found,
	       (unsigned long long)st.lazy_files, (unsigned long long)st.lazy_whole);
	CHECK(bad == 0);
	CHECK(found > 10000);
	CHECK(st.lazy_files == 1);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
}
