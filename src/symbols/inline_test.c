/* Unit tests for symbols/inline: inlined frames of the corpus work_nofp
 * binary and of libc's detached debug file, as perf 6.1 prints them. */
#include "symbols/inline.h"
#include "symbols/dso.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define WORK_NOFP "corpus/dwarf/buildid/tmp/mkcorpus.TLgv/work_nofp/" \
	"989fb780e649c895b78740862027683e16b1442e/elf"
#define LIBC_DEBUG "/usr/lib/debug/.build-id/93/ac61ec5a8eb1396f9fbd350e3169a558528a40.debug"

/* The corpus work_nofp binary's path; false (skipped, see unit.h) when the
 * corpus is not there. */
static bool work_nofp(char *path, size_t len)
{
	return unit_need_shared(path, len, WORK_NOFP) != NULL;
}

UNIT_TEST(inline_work_nofp)
{
	char path[512];
	const struct sym_inline_frame *fr;
	struct sym_inline *c = sym_inline_new();
	if (!work_nofp(path, sizeof(path))) {
		sym_inline_free(c);
		return;
	}
	/* spin+0x74: now() inlined into spin() */
	size_t n = sym_inline_frames(c, path, 0x1244, &fr);
	CHECK(n == 2);
	CHECK(n == 2 && !strcmp(fr[0].name, "now") && !strcmp(fr[1].name, "spin"));
	CHECK(n == 2 && !sym_inline_is_symbol(&fr[0], "spin") &&
	      sym_inline_is_symbol(&fr[1], "spin"));
	/* file:line as addr2line -i prints them: work.c:5 in now, :7 in spin */
	CHECK(n == 2 && fr[0].file && strstr(fr[0].file, "work.c") && fr[0].line == 5);
	CHECK(n == 2 && fr[1].file && strstr(fr[1].file, "work.c") && fr[1].line == 7);
	/* leaf_a+0x8: no inlining */
	n = sym_inline_frames(c, path, 0x12b8, &fr);
	CHECK(n == 1 && !strcmp(fr[0].name, "leaf_a"));
	/* memo */
	n = sym_inline_frames(c, path, 0x1244, &fr);
	CHECK(n == 2 && sym_inline_stats(c)->memo_hits == 1);
	/* outside any function, and a file without DWARF */
	CHECK(sym_inline_frames(c, path, 0x10, &fr) == 0);
	CHECK(sym_inline_frames(c, "/nonexistent/file", 0x1244, &fr) == 0);
	CHECK(sym_inline_stats(c)->files_without_dwarf == 1);
	sym_inline_free(c);
}

UNIT_TEST(inline_libc_names)
{
	const struct sym_inline_frame *fr;
	struct sym_inline *c = sym_inline_new();
	if (access(LIBC_DEBUG, R_OK) != 0) {
		printf("ok - unit inline_libc_names # SKIP libc6-dbg debug file absent\n");
		sym_inline_free(c);
		return;
	}
	/* the linkage name wins over DW_AT_name (perf prints it "(inlined)"
	 * since the ELF symbol perf picks is clock_gettime) */
	size_t n = sym_inline_frames(c, LIBC_DEBUG, 0xcf438, &fr);
	CHECK(n == 1 && !strcmp(fr[0].name, "__GI___clock_gettime"));
	n = sym_inline_frames(c, LIBC_DEBUG, 0x27304, &fr);
	CHECK(n == 1 && !strcmp(fr[0].name, "__libc_start_main_impl"));
	n = sym_inline_frames(c, LIBC_DEBUG, 0x27249, &fr);
	CHECK(n == 1 && !strcmp(fr[0].name, "__libc_start_call_main"));
	sym_inline_free(c);
}

UNIT_TEST(inline_names_only)
{
	char path[512];
	const struct sym_inline_frame *fr;
	struct sym_inline *c = sym_inline_new();
	sym_inline_names_only(c);
	if (!work_nofp(path, sizeof(path))) {
		sym_inline_free(c);
		return;
	}
	/* the same frames as with lines, without file or line */
	size_t n = sym_inline_frames(c, path, 0x1244, &fr);
	CHECK(n == 2 && !strcmp(fr[0].name, "now") && !strcmp(fr[1].name, "spin"));
	CHECK(n == 2 && !fr[0].file && !fr[0].line && !fr[1].file && !fr[1].line);
	sym_inline_free(c);
}

UNIT_TEST(inline_decl)
{
	char path[512];
	struct sym_inline_frame fr;
	struct sym_inline *c = sym_inline_new();
	if (!work_nofp(path, sizeof(path))) {
		sym_inline_free(c);
		return;
	}
	/* no segments: map addresses are file addresses */
	struct sym_dso d = { .name = "/tmp/work_nofp", .kind = SYM_DSO_USER,
			     .sym_path = path };
	/* spin+0x74, in now() inlined: row 0 is now (work.c:5), row 1 and
	 * the concrete function spin, whose definition is on line 7 (the
	 * address's own line is 5: the decl wins) */
	CHECK(sym_inline_decl(c, &d, 0x1244, 0, &fr) == 1);
	CHECK(fr.file && strstr(fr.file, "work.c") && fr.line == 5);
	CHECK(sym_inline_decl(c, &d, 0x1244, 1, &fr) == 1 && fr.line == 7);
	CHECK(sym_inline_decl(c, &d, 0x1244, SYM_INLINE_CONCRETE, &fr) == 1 &&
	      fr.line == 7 && strstr(fr.file, "work.c"));
	/* leaf_a+0x8: line 8 */
	CHECK(sym_inline_decl(c, &d, 0x12b8, SYM_INLINE_CONCRETE, &fr) == 1 && fr.line == 8);
	/* outside any unit; a kernel object; no such file */
	CHECK(sym_inline_decl(c, &d, 0x10, SYM_INLINE_CONCRETE, &fr) == 0 && !fr.file);
	struct sym_dso k = { .name = "[kernel.kallsyms]", .kind = SYM_DSO_KERNEL,
			     .sym_path = path };
	CHECK(sym_inline_decl(c, &k, 0x1244, 0, &fr) == -1);
	struct sym_dso gone = { .name = "/gone", .kind = SYM_DSO_USER,
				.sym_path = "/nonexistent/file" };
	CHECK(sym_inline_decl(c, &gone, 0x1244, 0, &fr) == -1);
	sym_inline_free(c);
}
