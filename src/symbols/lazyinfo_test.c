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
#include <zstd.h>

#ifndef ELFCOMPRESS_ZSTD
#define ELFCOMPRESS_ZSTD 2
#endif

#define LIBC_DEBUG "/usr/lib/debug/.build-id/93/ac61ec5a8eb1396f9fbd350e3169a558528a40.debug"

enum { UNITS = 24 };

static void remove_dir(const char *dir)
{
	char cmd[700];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
}

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

/* ---- zstd sections, written as binutils 2.41+ (objcopy
 * --compress-debug-sections=zstd) writes them ---- */

/* Frames per section: binutils writes one; a linker compressing in
 * parallel shards may write several, one after the other. */
static int zstd_frames = 1;

/* One section's new contents: Elf64_Chdr { ELFCOMPRESS_ZSTD, 0, plain
 * size, plain alignment } and zstd_frames frames at the default level.
 * NULL when compressing would not make it smaller (binutils then leaves
 * the section as it is). */
static uint8_t *zstd_section(const Elf_Data *d, uint64_t align, size_t *len)
{
	size_t bound = ZSTD_compressBound(d->d_size) * (size_t)zstd_frames;
	size_t pos = sizeof(Elf64_Chdr), from = 0;
	uint8_t *buf = malloc(pos + bound);
	Elf64_Chdr ch = { .ch_type = ELFCOMPRESS_ZSTD, .ch_size = d->d_size,
			  .ch_addralign = align };
	memcpy(buf, &ch, sizeof(ch));
	for (int k = 1; k <= zstd_frames; k++) {
		size_t to = d->d_size * (size_t)k / (size_t)zstd_frames;
		size_t n = ZSTD_compress(buf + pos, sizeof(ch) + bound - pos,
					 (const uint8_t *)d->d_buf + from, to - from,
					 ZSTD_CLEVEL_DEFAULT);
		if (ZSTD_isError(n))
			pos = SIZE_MAX;
		if (ZSTD_isError(n))
			break;
		pos += n;
		from = to;
	}
	if (pos >= d->d_size) {
		free(buf);
		return NULL;
	}
	*len = pos;
	return buf;
}

/* Compress one .debug_* section of e in memory; the new buffer is kept
 * in bufs (libelf writes from it at elf_update). */
static bool zstd_scn(Elf_Scn *scn, uint8_t **bufs, size_t *nbufs)
{
	GElf_Shdr sh;
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t len;
	if (!gelf_getshdr(scn, &sh) || !d || !d->d_buf || d->d_size == 0)
		return true;
	uint8_t *buf = zstd_section(d, sh.sh_addralign, &len);
	if (!buf)
		return true;
	bufs[(*nbufs)++] = buf;
	d->d_buf = buf;
	d->d_size = len;
	d->d_type = ELF_T_BYTE;
	d->d_align = 8;
	sh.sh_flags |= SHF_COMPRESSED;
	sh.sh_size = len;
	sh.sh_addralign = 8;
	elf_flagdata(d, ELF_C_SET, ELF_F_DIRTY);
	return gelf_update_shdr(scn, &sh) != 0;
}

/* With ELF_F_LAYOUT libelf keeps every offset we give it (its own
 * layout would move the loadable sections): the sections outside the
 * segments are laid out again after the last loadable one, in section
 * order at their alignment, and the section headers after them, as
 * objcopy does. Each moved section is read and marked dirty first, so
 * libelf writes it at its new place. */
static bool relayout(Elf *e, uint64_t *end)
{
	GElf_Ehdr eh;
	uint64_t pos = 0;
	if (!gelf_getehdr(e, &eh))
		return false;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn)) != NULL;) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_ALLOC) &&
		    sh.sh_type != SHT_NOBITS && sh.sh_offset + sh.sh_size > pos)
			pos = sh.sh_offset + sh.sh_size;
	}
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn)) != NULL;) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || (sh.sh_flags & SHF_ALLOC))
			continue;
		uint64_t a = sh.sh_addralign > 1 ? sh.sh_addralign : 1;
		Elf_Data *d = elf_getdata(scn, NULL);   /* read before moving */
		if (d)
			elf_flagdata(d, ELF_C_SET, ELF_F_DIRTY);
		sh.sh_offset = (pos + a - 1) / a * a;
		if (sh.sh_type != SHT_NOBITS)
			pos = sh.sh_offset + sh.sh_size;
		if (!gelf_update_shdr(scn, &sh))
			return false;
	}
	eh.e_shoff = (pos + 7) / 8 * 8;
	*end = pos;
	return gelf_update_ehdr(e, &eh) != 0;
}

/* Rewrite the 64-bit ELF file at path in place with its .debug_*
 * sections zstd-compressed (libelf 0.188's elf_compress knows zlib
 * only). */
static bool zstd_debug_sections(const char *path)
{
	uint8_t *bufs[64];
	size_t nbufs = 0, shstrndx;
	uint64_t end = 0;
	GElf_Ehdr eh;
	bool ok = false;
	elf_version(EV_CURRENT);
	int fd = open(path, O_RDWR);
	Elf *e = fd >= 0 ? elf_begin(fd, ELF_C_RDWR, NULL) : NULL;
	if (!e || gelf_getclass(e) != ELFCLASS64 || elf_getshdrstrndx(e, &shstrndx))
		goto out;
	elf_flagelf(e, ELF_C_SET, ELF_F_LAYOUT);
	ok = true;
	for (Elf_Scn *scn = NULL; ok && (scn = elf_nextscn(e, scn)) != NULL;) {
		GElf_Shdr sh;
		const char *n = gelf_getshdr(scn, &sh)
					? elf_strptr(e, shstrndx, sh.sh_name) : NULL;
		if (n && !strncmp(n, ".debug_", 7) && sh.sh_type != SHT_NOBITS &&
		    !(sh.sh_flags & SHF_COMPRESSED) && nbufs < 64)
			ok = zstd_scn(scn, bufs, &nbufs);
	}
	ok = ok && relayout(e, &end) && elf_update(e, ELF_C_WRITE) >= 0 &&
	     gelf_getehdr(e, &eh);
	/* libelf leaves the old bytes in the padding before the headers:
	 * zero them, as objcopy writes them */
	static const uint8_t zero[8];
	if (ok && eh.e_shoff > end)
		ok = pwrite(fd, zero, eh.e_shoff - end, (off_t)end) ==
		     (ssize_t)(eh.e_shoff - end);
out:
	if (e)
		elf_end(e);
	if (fd >= 0)
		close(fd);
	for (size_t i = 0; i < nbufs; i++)
		free(bufs[i]);
	return ok && nbufs > 0;
}

/* Damage tests: the lazy side may answer 0 frames where the other has
 * some (what libdw gives when it can't read a section); counted here. */
static bool zero_ok;
static size_t zero_answers;

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
		zero_answers += na == 0 && nb > 0;
		bool same = na == nb || (zero_ok && na == 0);
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
	remove_dir(dir);
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

/* Every function of libc's debug file (a sample of addresses in each)
 * through path against the plain copy: equal frames, one lazy file. */
static void compare_libc(const char *path, const char *plain, const char *label)
{
	size_t found = 0;
	struct sym_inline_stats st;
	size_t bad = compare_functions(path, plain, 13, 160, NULL, &found, &st);
	printf("# %s: %zu frames, lazy files %llu, whole %llu\n", label, found,
	       (unsigned long long)st.lazy_files, (unsigned long long)st.lazy_whole);
	CHECK(bad == 0);
	CHECK(found > 10000);
	CHECK(st.lazy_files == 1);
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
	compare_libc(LIBC_DEBUG, plain, "libc");
	remove_dir(dir);
}

/* ---- zstd, and damaged files ---- */

/* One build shared by the tests below: dir/prog (gcc -gz=zlib, u5
 * compiled by clang, so without aranges), dir/prog.plain, and
 * dir/prog.zst (prog.plain with zstd sections). Removed at exit. */
static char fixture_dir[] = "/tmp/scorch-lazyinfo-XXXXXX";

static void fixture_remove(void)
{
	remove_dir(fixture_dir);
}

static void fixture_path(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", fixture_dir, name);
}

static bool copy_file(const char *from, const char *to)
{
	char cmd[2000];
	snprintf(cmd, sizeof(cmd), "cp %s %s && chmod u+w %s", from, to, to);
	return system(cmd) == 0;
}

static bool fixture(void)
{
	static int state;   /* 0 not built yet, 1 built, -1 failed */
	char plain[600], zst[600];
	if (state)
		return state > 0;
	state = -1;
	if (!mkdtemp(fixture_dir))
		return false;
	atexit(fixture_remove);
	fixture_path(plain, sizeof(plain), "prog.plain");
	fixture_path(zst, sizeof(zst), "prog.zst");
	if (build(fixture_dir, "-O2", "u5") && copy_file(plain, zst) &&
	    zstd_debug_sections(zst))
		state = 1;
	return state > 0;
}

/* Where a section of path is: file offset and size of its bytes, where
 * its header is, and its Chdr type and size when compressed. */
struct sect {
	uint64_t off, size, shdr_off;
	uint32_t ch_type;
	uint64_t ch_size;
};

static bool find_sect(const char *path, const char *name, struct sect *s)
{
	bool found = false;
	size_t shstrndx;
	GElf_Ehdr eh;
	int fd = open(path, O_RDONLY);
	elf_version(EV_CURRENT);
	Elf *e = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
	memset(s, 0, sizeof(*s));
	if (!e || !gelf_getehdr(e, &eh) || elf_getshdrstrndx(e, &shstrndx))
		goto out;
	for (Elf_Scn *scn = NULL; !found && (scn = elf_nextscn(e, scn)) != NULL;) {
		GElf_Shdr sh;
		const char *n = gelf_getshdr(scn, &sh)
					? elf_strptr(e, shstrndx, sh.sh_name) : NULL;
		if (!n || strcmp(n, name))
			continue;
		found = true;
		s->off = sh.sh_offset;
		s->size = sh.sh_size;
		s->shdr_off = eh.e_shoff + elf_ndxscn(scn) * (uint64_t)eh.e_shentsize;
		GElf_Chdr ch;
		if ((sh.sh_flags & SHF_COMPRESSED) && gelf_getchdr(scn, &ch)) {
			s->ch_type = ch.ch_type;
			s->ch_size = ch.ch_size;
		}
	}
out:
	if (e)
		elf_end(e);
	if (fd >= 0)
		close(fd);
	return found;
}

static bool put(const char *path, uint64_t off, const void *p, size_t n)
{
	int fd = open(path, O_WRONLY);
	bool ok = fd >= 0 && pwrite(fd, p, n, (off_t)off) == (ssize_t)n;
	if (fd >= 0)
		close(fd);
	return ok;
}

static bool get(const char *path, uint64_t off, void *p, size_t n)
{
	int fd = open(path, O_RDONLY);
	bool ok = fd >= 0 && pread(fd, p, n, (off_t)off) == (ssize_t)n;
	if (fd >= 0)
		close(fd);
	return ok;
}

/* The program compiled by gcc -gz=zlib, its functions looked up through
 * a file compressed as binutils 2.41+ does with zstd: the same frames
 * as libdw gives over the plain file, at every address, whether the
 * lookups start in a unit found through aranges or in u5, which has
 * none (so all of .debug_info is inflated at once). */
UNIT_TEST(lazyinfo_zstd)
{
	char plain[600], zst[600], ref[600], cmd[2000];
	bool built = fixture();
	CHECK(built);
	if (!built)
		return;
	fixture_path(plain, sizeof(plain), "prog.plain");
	fixture_path(zst, sizeof(zst), "prog.zst");
	fixture_path(ref, sizeof(ref), "prog.objcopy");
	struct sect info;
	CHECK(find_sect(zst, ".debug_info", &info) && info.ch_type == ELFCOMPRESS_ZSTD);
	/* objcopy 2.40 writes zstd sections too (gcc's -gz can't): where it
	 * does, the two files are the same bytes */
	snprintf(cmd, sizeof(cmd), "objcopy --compress-debug-sections=zstd %s %s 2>/dev/null",
		 plain, ref);
	if (system(cmd) == 0) {
		snprintf(cmd, sizeof(cmd), "cmp -s %s %s", ref, zst);
		CHECK(system(cmd) == 0);
	} else {
		printf("ok - unit lazyinfo_zstd # SKIP objcopy writes no zstd\n");
	}
	/* stage3 first: its unit and the 64 KB after it inflated, all of
	 * .debug_info here, so no fallback; stage5 first: the whole */
	const char *first[2] = { "stage3", "stage5" };
	for (int i = 0; i < 2; i++) {
		size_t found = 0;
		struct sym_inline_stats st;
		size_t bad = compare_functions(zst, plain, 1, UINT64_MAX, first[i],
					       &found, &st);
		printf("# zstd, %s first: %zu frames, lazy files %llu, whole %llu\n",
		       first[i], found, (unsigned long long)st.lazy_files,
		       (unsigned long long)st.lazy_whole);
		CHECK(bad == 0);
		CHECK(found > 1000);
		CHECK(st.lazy_files == 1);
		CHECK(st.lazy_whole == (uint64_t)i);
	}
	/* three frames per section */
	char zst3[600];
	fixture_path(zst3, sizeof(zst3), "prog.zst3");
	zstd_frames = 3;
	bool made = copy_file(plain, zst3) && zstd_debug_sections(zst3);
	zstd_frames = 1;
	CHECK(made);
	size_t found = 0;
	struct sym_inline_stats st;
	CHECK(compare_functions(zst3, plain, 1, UINT64_MAX, "stage3", &found, &st) == 0);
	printf("# zstd, 3 frames: %zu frames\n", found);
	CHECK(found > 1000);
}

/* ---- damage: lying headers, cut and garbled streams, bad offsets ---- */

/* A damaged copy of the fixture's file from (prog or prog.zst) made by
 * patch, looked up at every address of every function: returns the
 * addresses where the answer is neither plain's nor 0 frames (0 when
 * exact is false: then no crash or leak is all there is to check). */
typedef bool (*patch_fn)(const char *path, const struct sect *s, uint64_t arg);

static size_t damaged(const char *what, const char *from, const char *sect,
		      patch_fn patch, uint64_t arg, bool exact, size_t *found)
{
	char src[600], dst[600], plain[600];
	struct sect s;
	fixture_path(src, sizeof(src), from);
	fixture_path(dst, sizeof(dst), "damaged");
	fixture_path(plain, sizeof(plain), "prog.plain");
	*found = 0;
	if (!copy_file(src, dst) || !find_sect(dst, sect, &s) || !patch(dst, &s, arg)) {
		printf("# %s: could not make the file\n", what);
		return (size_t)-1;
	}
	struct sym_inline_stats st;
	zero_ok = true;
	zero_answers = 0;
	size_t bad = compare_functions(dst, plain, 1, UINT64_MAX, NULL, found, &st);
	zero_ok = false;
	printf("# %s: %zu frames, %zu answers of 0 frames, %zu others differ\n",
	       what, *found, zero_answers, bad);
	return exact ? bad : 0;
}

/* Chdr ch_size (Elf64_Chdr: type, reserved, size at 8) set to arg, or
 * scaled when arg is 0 or 1: 0 halves it, 1 adds 4 KB. */
static bool set_ch_size(const char *path, const struct sect *s, uint64_t arg)
{
	uint64_t v = arg == 0 ? s->ch_size / 2 : arg == 1 ? s->ch_size + 4096 : arg;
	return s->ch_type && put(path, s->off + 8, &v, 8);
}

/* The section's size in its header cut to arg percent. */
static bool cut_section(const char *path, const struct sect *s, uint64_t arg)
{
	uint64_t v = s->size * arg / 100;
	return put(path, s->shdr_off + 32, &v, 8);   /* Elf64_Shdr.sh_size */
}

/* 64 bytes of the compressed stream, from arg percent into it, made
 * 0xff (at 0: the first block is invalid). */
static bool garble(const char *path, const struct sect *s, uint64_t arg)
{
	uint8_t junk[64];
	uint64_t len = s->size - sizeof(Elf64_Chdr);
	uint64_t at = s->off + sizeof(Elf64_Chdr) + (arg ? len * arg / 100 : 2);
	memset(junk, 0xff, sizeof(junk));
	return len > 200 && put(path, at, junk, sizeof(junk));
}

UNIT_TEST(lazyinfo_damaged_streams)
{
	size_t found;
	if (!fixture()) {
		CHECK(!"fixture built");
		return;
	}
	/* a lying Chdr, a cut stream: each lookup answers as the whole
	 * plain file does or finds nothing */
	CHECK(damaged("zlib ch_size +4K", "prog", ".debug_info", set_ch_size, 1, true, &found) == 0);
	CHECK(found > 1000);   /* the stream ends early: what it holds serves */
	CHECK(damaged("zlib ch_size / 2", "prog", ".debug_info", set_ch_size, 0, true, &found) == 0);
	CHECK(damaged("zlib ch_size 2^62", "prog", ".debug_info", set_ch_size, 1ull << 62, true, &found) == 0);
	CHECK(damaged("zlib abbrev ch_size 2^40", "prog", ".debug_abbrev", set_ch_size, 1ull << 40, true, &found) == 0);
	CHECK(damaged("zlib stream cut", "prog", ".debug_info", cut_section, 50, true, &found) == 0);
	CHECK(damaged("zlib stream garbled at 0", "prog", ".debug_info", garble, 0, true, &found) == 0);
	CHECK(found == 0);
	CHECK(damaged("zlib abbrev garbled at 0", "prog", ".debug_abbrev", garble, 0, true, &found) == 0);
	CHECK(found == 0);
	/* aranges unreadable: libdw walks the units, so does the lookup */
	CHECK(damaged("zlib aranges garbled", "prog", ".debug_aranges", garble, 0, true, &found) == 0);
	CHECK(zero_answers == 0);
	/* garbage inflating to other DWARF: only no crash, no leak */
	damaged("zlib stream garbled at 50%", "prog", ".debug_info", garble, 50, false, &found);
	CHECK(damaged("zstd ch_size +4K", "prog.zst", ".debug_info", set_ch_size, 1, true, &found) == 0);
	CHECK(damaged("zstd ch_size / 2", "prog.zst", ".debug_info", set_ch_size, 0, true, &found) == 0);
	CHECK(damaged("zstd ch_size 2^62", "prog.zst", ".debug_info", set_ch_size, 1ull << 62, true, &found) == 0);
	CHECK(damaged("zstd stream cut", "prog.zst", ".debug_info", cut_section, 50, true, &found) == 0);
	CHECK(damaged("zstd stream garbled at 0", "prog.zst", ".debug_info", garble, 0, true, &found) == 0);
	damaged("zstd stream garbled at 50%", "prog.zst", ".debug_info", garble, 50, false, &found);
}

/* The offset, in the section s of path, of the k-th of a chain of
 * 32-bit DWARF length-prefixed entries (units, aranges sets), or of the
 * last one when there are fewer. */
static bool nth_entry(const char *path, const struct sect *s, int k, uint64_t *at)
{
	uint64_t pos = 0;
	uint32_t len;
	bool have = false;
	for (int i = 0; i <= k && pos + 4 <= s->size; i++) {
		if (!get(path, s->off + pos, &len, 4) || len >= 0xfffffff0u)
			return false;
		*at = pos;
		have = true;
		pos += 4 + (uint64_t)len;
	}
	return have;
}

enum { PAST_END, HUGE_OFF, INSIDE_UNIT, ESCAPE64, ONE_MORE };

/* The debug_info_offset of the fourth aranges set (after length and
 * version): past .debug_info, near 4 GB, or one byte into its unit. */
static bool set_aranges_unit(const char *path, const struct sect *s, uint64_t how)
{
	struct sect info;
	uint64_t at;
	uint32_t v;
	if (!find_sect(path, ".debug_info", &info) || !nth_entry(path, s, 3, &at) ||
	    !get(path, s->off + at + 6, &v, 4))
		return false;
	v = how == PAST_END ? (uint32_t)info.size + 0x100
	    : how == HUGE_OFF ? 0xfffffff0u : v + 1;
	return put(path, s->off + at + 6, &v, 4);
}

/* The unit_length of the sixth unit (or of the last with ONE_MORE):
 * past the end, 0xffffffff (a 64-bit length made of the header bytes
 * that follow) or one byte longer than the unit. */
static bool set_unit_length(const char *path, const struct sect *s, uint64_t how)
{
	uint64_t at;
	uint32_t v;
	if (!nth_entry(path, s, how == ONE_MORE ? 1 << 20 : 5, &at) ||
	    !get(path, s->off + at, &v, 4))
		return false;
	v = how == PAST_END ? 0x7ffffff0u : how == ESCAPE64 ? 0xffffffffu : v + 1;
	return put(path, s->off + at, &v, 4);
}

/* DWARF damaged in the plain file, then compressed with zstd: the lazy
 * lookups must answer exactly as libdw does over the damaged plain
 * file. Returns the addresses where they differ. */
static size_t damaged_dwarf(const char *what, const char *sect, patch_fn patch,
			    uint64_t how, size_t *found)
{
	char plain[600], dplain[600], dzst[600];
	struct sect s;
	fixture_path(plain, sizeof(plain), "prog.plain");
	fixture_path(dplain, sizeof(dplain), "damaged.plain");
	fixture_path(dzst, sizeof(dzst), "damaged.zst");
	*found = 0;
	if (!copy_file(plain, dplain) || !find_sect(dplain, sect, &s) ||
	    !patch(dplain, &s, how) || !copy_file(dplain, dzst) ||
	    !zstd_debug_sections(dzst)) {
		printf("# %s: could not make the file\n", what);
		return (size_t)-1;
	}
	struct sym_inline_stats st;
	size_t bad = compare_functions(dzst, dplain, 1, UINT64_MAX, NULL, found, &st);
	printf("# %s: %zu frames, whole %llu, %zu differ\n", what, *found,
	       (unsigned long long)st.lazy_whole, bad);
	return bad;
}

UNIT_TEST(lazyinfo_damaged_dwarf)
{
	size_t found;
	if (!fixture()) {
		CHECK(!"fixture built");
		return;
	}
	CHECK(damaged_dwarf("aranges unit past .debug_info", ".debug_aranges",
			    set_aranges_unit, PAST_END, &found) == 0);
	CHECK(found > 1000);
	CHECK(damaged_dwarf("aranges unit at 4 GB", ".debug_aranges",
			    set_aranges_unit, HUGE_OFF, &found) == 0);
	CHECK(damaged_dwarf("aranges unit inside a unit", ".debug_aranges",
			    set_aranges_unit, INSIDE_UNIT, &found) == 0);
	CHECK(damaged_dwarf("unit_length past the end", ".debug_info",
			    set_unit_length, PAST_END, &found) == 0);
	CHECK(damaged_dwarf("unit_length 64-bit escape", ".debug_info",
			    set_unit_length, ESCAPE64, &found) == 0);
	CHECK(damaged_dwarf("last unit one byte long", ".debug_info",
			    set_unit_length, ONE_MORE, &found) == 0);
}

UNIT_TEST(lazyinfo_dwarf64)
{
	/* real 64-bit DWARF units (unit_length 0xffffffff + 8 bytes) and
	 * 64-bit aranges sets */
	run_compiled("-O2 -gdwarf64", "", NULL, 0);
}

UNIT_TEST(lazyinfo_libc_zstd)
{
	/* libc's debug file with zstd sections: .debug_info (5.8 MB) grows
	 * unit by unit through the zstd stream, as through zlib above */
	if (access(LIBC_DEBUG, R_OK) != 0) {
		printf("ok - unit lazyinfo_libc_zstd # SKIP libc6-dbg debug file absent\n");
		return;
	}
	char dir[] = "/tmp/scorch-lazyinfo-XXXXXX", plain[600], zst[600], cmd[1400];
	if (!mkdtemp(dir)) {
		CHECK(!"mkdtemp");
		return;
	}
	snprintf(plain, sizeof(plain), "%s/libc.debug", dir);
	snprintf(zst, sizeof(zst), "%s/libc.zst", dir);
	snprintf(cmd, sizeof(cmd), "objcopy --decompress-debug-sections %s %s",
		 LIBC_DEBUG, plain);
	CHECK(system(cmd) == 0 && copy_file(plain, zst) && zstd_debug_sections(zst));
	compare_libc(zst, plain, "libc zstd");
	remove_dir(dir);
}

/* A 32-bit program (Elf32_Chdr: type, size, alignment in 12 bytes),
 * with zlib sections from gcc and zstd ones from objcopy where it
 * writes them. No libc: gcc -m32 needs no 32-bit libraries for it. */
UNIT_TEST(lazyinfo_elf32)
{
	char dir[] = "/tmp/scorch-lazyinfo-XXXXXX", path[600], plain[600], cmd[2000];
	if (!mkdtemp(dir)) {
		CHECK(!"mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/s32.c", dir);
	FILE *f = fopen(path, "w");
	if (f) {
		fputs("static inline unsigned mix(unsigned x) { return x * 2654435761u ^ (x >> 13); }\n"
		      "static inline unsigned twice(unsigned x) { return mix(mix(x)); }\n"
		      "unsigned stage(unsigned x) { unsigned a = twice(x);\n"
		      "  for (unsigned i = 0; i < (x & 7); i++) a += mix(i + x);\n"
		      "  return a; }\n"
		      "volatile unsigned sink;\n"
		      "void _start(void) { for (unsigned i = 0;; i++) sink += stage(i) + twice(sink); }\n", f);
		fclose(f);
	}
	snprintf(cmd, sizeof(cmd),
		 "cd %s && gcc -m32 -O2 -g -gz=zlib -nostdlib -static -o s32 s32.c 2>/dev/null && "
		 "objcopy --decompress-debug-sections s32 s32.plain", dir);
	if (!f || system(cmd) != 0) {
		printf("ok - unit lazyinfo_elf32 # SKIP gcc -m32 can't build here\n");
	} else {
		snprintf(cmd, sizeof(cmd), "cd %s && objcopy --compress-debug-sections=zstd "
			 "s32.plain s32.zst 2>/dev/null", dir);
		bool zstd = system(cmd) == 0;
		snprintf(plain, sizeof(plain), "%s/s32.plain", dir);
		for (int i = 0; i < 1 + zstd; i++) {
			size_t found = 0;
			struct sym_inline_stats st;
			snprintf(path, sizeof(path), "%s/%s", dir, i ? "s32.zst" : "s32");
			CHECK(compare_functions(path, plain, 1, UINT64_MAX, NULL, &found, &st) == 0);
			printf("# elf32 %s: %zu frames\n", i ? "zstd" : "zlib", found);
			CHECK(found > 10);
			CHECK(st.lazy_files == 1);
		}
	}
	remove_dir(dir);
}
