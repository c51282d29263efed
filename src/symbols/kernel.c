/*
 * kernel: vmlinux and module .ko symbol sources (see kernel.h).
 * Stage: symbols. Invariant: a file's symbols are taken only after it
 * opened as a valid ELF and its build id matched the recorded one.
 */
#include "symbols/kernel.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "symbols/fs.h"

enum { MODULE_DIR_DEPTH = 8 }; /* /lib/modules/R/kernel/drivers/x/y/z.ko */

void sym_kernel_module_name(const char *path, char *out, size_t size)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t n = strlen(base);
	const char *ko = strstr(base, ".ko");
	if (ko)
		n = (size_t)(ko - base);
	if (n + 3 > size)
		n = size - 3;
	out[0] = '[';
	for (size_t i = 0; i < n; i++)
		out[i + 1] = base[i] == '-' ? '_' : base[i];
	out[n + 1] = ']';
	out[n + 2] = '\0';
}

/* Shift every symbol of t by delta (wrapping, as addresses do). */
static void shift(struct sym_table *t, uint64_t delta)
{
	for (size_t i = 0; delta && i < t->n; i++) {
		t->syms[i].start += delta;
		t->syms[i].end += delta;
	}
}

/* Open path as d's ELF file (compressed ones too when any): 0, or -1
 * (missing, invalid: warned, or another build id: warned when warn_id,
 * as for a file the user named). */
static int open_checked(struct sym_dsos *s, struct sym_dso *d, const char *path,
			bool warn_id, bool any, struct sym_elf_file *f, char **real)
{
	*real = sym_fs_resolve(path);
	if (!*real || !sym_fs_is_file(*real)) {
		free(*real);
		return -1;
	}
	struct diag dg = DIAG_INIT;
	int rc = any ? sym_elf_open_any(f, *real, &dg) : sym_elf_open(f, *real, &dg);
	if (rc == 0 && d->buildid.size && !sym_buildid_eq(&d->buildid, &f->buildid)) {
		char want[41], have[41];
		diag_set(&dg, "build id %s, not the recorded %s",
			 f->buildid.size ? sym_buildid_hex(&f->buildid, have) : "(none)",
			 sym_buildid_hex(&d->buildid, want));
		sym_elf_close(f);
		rc = warn_id ? -EINVAL : -ENOENT;
	}
	if (rc == -EINVAL || rc == -EFBIG)
		sym_dsos_warn(s, *real, &dg);
	if (rc < 0) {
		free(*real);
		*real = NULL;
		return -1;
	}
	return 0;
}

/* The table loaded from f: finished, kept, the source remembered. A
 * file without symbols is passed over (perf goes on to the next). */
static bool take(struct sym_dsos *s, struct sym_dso *d, struct sym_elf_file *f,
		 const char *only_section, uint64_t delta, char *real)
{
	struct diag dg = DIAG_INIT;
	int n = sym_elf_load_kernel(f, &d->table, only_section, &dg);
	if (n <= 0) {
		if (n < 0)
			sym_dsos_warn(s, real, &dg);
		sym_table_release(&d->table);
		sym_table_init(&d->table);
		free(real);
		return false;
	}
	sym_table_finish(&d->table, false);
	shift(&d->table, delta);
	d->sym_path = real;
	d->from_elf = true;
	return true;
}

/* ---- vmlinux ---- */

/* Whether some symbol of the (finished, sorted) table starts in [lo, hi). */
static bool has_symbol_in(const struct sym_table *t, uint64_t lo, uint64_t hi)
{
	size_t a = 0, b = t->n;
	while (a < b) { /* the first symbol starting at or above lo */
		size_t m = a + (b - a) / 2;
		if (t->syms[m].start < lo)
			a = m + 1;
		else
			b = m;
	}
	return a < t->n && t->syms[a].start < hi;
}

/* The SHF_ALLOC sections holding symbols, where the recording had them
 * (delta added), as the maps perf makes of a vmlinux: .text named by d,
 * the others by "[kernel.kallsyms]<section>" dsos. The table is shifted
 * already. */
static void kernel_sections(struct sym_dsos *s, struct sym_dso *d,
			    struct sym_elf_file *f, uint64_t delta)
{
	size_t shstrndx, cap = 0;
	if (elf_getshdrstrndx(f->elf, &shstrndx) != 0)
		return;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(f->elf, scn)) != NULL;) {
		GElf_Shdr sh;
		const char *name;
		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) || !sh.sh_size ||
		    !(name = elf_strptr(f->elf, shstrndx, sh.sh_name)))
			continue;
		uint64_t lo = sh.sh_addr + delta, hi = lo + sh.sh_size;
		if (hi < lo || !has_symbol_in(&d->table, lo, hi))
			continue;
		struct sym_dso *shown = NULL;
		if (strcmp(name, ".text") != 0) {
			struct strbuf n = SB_INIT;
			sb_addf(&n, "[kernel.kallsyms]%s", name);
			shown = sym_dsos_findnew(s, n.buf);
			shown->kind = SYM_DSO_NONE; /* named only: d has the symbols */
			shown->loaded = true;
			sb_release(&n);
		}
		XGROW(d->ksecs, cap, d->nksecs + 1);
		d->ksecs[d->nksecs++] = (struct sym_ksection){ lo, hi, shown };
	}
}

static bool try_vmlinux(struct sym_dsos *s, struct sym_dso *d, const char *path,
			bool named)
{
	struct sym_elf_file f;
	char *real;
	if (open_checked(s, d, path, named, false, &f, &real) < 0)
		return false;
	uint64_t ref = 0, delta = 0;
	if (d->ref_text && d->ref_name && sym_elf_symbol_value(&f, d->ref_name, &ref))
		delta = d->ref_text - ref; /* KASLR: where it was minus where it is */
	bool ok = take(s, d, &f, NULL, delta, real);
	if (ok)
		kernel_sections(s, d, &f, delta);
	sym_elf_close(&f);
	return ok;
}

static const char *release_of(struct sym_dsos *s, struct utsname *u)
{
	if (s->release && *s->release)
		return s->release;
	return uname(u) == 0 ? u->release : "";
}

/* <cache>/.build-id/xx/rest/elf: 1 found in some cache (and loaded). */
static bool try_cache_elf(struct sym_dsos *s, struct sym_dso *d,
			  bool (*try)(struct sym_dsos *, struct sym_dso *,
				      const char *, bool))
{
	if (!d->buildid.size)
		return false;
	char hex[41];
	sym_buildid_hex(&d->buildid, hex);
	for (size_t i = 0; i < s->cfg.nr_buildid_dirs; i++) {
		struct strbuf p = SB_INIT;
		sb_addf(&p, "%s/.build-id/%.2s/%s/elf", s->cfg.buildid_dirs[i], hex, hex + 2);
		bool ok = try(s, d, p.buf, false);
		sb_release(&p);
		if (ok)
			return true;
	}
	return false;
}

bool sym_kernel_load_vmlinux(struct sym_dsos *s, struct sym_dso *d)
{
	if (s->cfg.vmlinux) {
		size_t warned = s->nr_warnings;
		if (!try_vmlinux(s, d, s->cfg.vmlinux, true) && warned == s->nr_warnings) {
			struct diag dg = DIAG_INIT; /* named by the user: say why */
			diag_set(&dg, "no kernel symbols (functions in a .symtab) in it");
			sym_dsos_warn(s, s->cfg.vmlinux, &dg);
		}
		return true; /* perf tries nothing else */
	}
	if (try_cache_elf(s, d, try_vmlinux))
		return true;
	/* perf's vmlinux_path: "vmlinux" under --symfs, the absolute ones as
	 * they are, and those of the release only when no --symfs is given */
	static const char *const paths[] = {
		"vmlinux", "/boot/vmlinux", "/boot/vmlinux-%s",
		"/usr/lib/debug/boot/vmlinux-%s", "/lib/modules/%s/build/vmlinux",
		"/usr/lib/debug/lib/modules/%s/vmlinux",
		"/usr/lib/debug/boot/vmlinux-%s.debug",
	};
	struct utsname u;
	const char *rel = release_of(s, &u);
	size_t n = s->cfg.symfs ? 2 : sizeof(paths) / sizeof(paths[0]);
	for (size_t i = 0; i < n; i++) {
		struct strbuf p = SB_INIT;
		if (s->cfg.symfs && paths[i][0] != '/')
			sb_addf(&p, "%s/", s->cfg.symfs);
		sb_addf(&p, paths[i], rel);
		bool ok = try_vmlinux(s, d, p.buf, false);
		sb_release(&p);
		if (ok)
			return true;
	}
	return false;
}

/* ---- modules ---- */

static bool try_ko(struct sym_dsos *s, struct sym_dso *d, const char *path,
		   bool named)
{
	struct sym_elf_file f;
	char *real;
	if (open_checked(s, d, path, named, true, &f, &real) < 0)
		return false;
	bool ok = f.has_symtab && take(s, d, &f, ".text", d->module_base, real);
	if (!f.has_symtab)
		free(real);
	sym_elf_close(&f);
	return ok;
}

/* A real directory (not a link to one: /lib/modules/R/build and source
 * lead into the kernel's source tree). */
static bool is_real_dir(const char *path, const struct dirent *e)
{
	if (e->d_type != DT_UNKNOWN)
		return e->d_type == DT_DIR;
	struct stat st;
	return lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Add "[mod]\tPATH\n" for every .ko (.ko.gz, .ko.xz, .ko.zst) under dir to index,
 * depth first in sorted order (so the order does not depend on the file
 * system). */
static void index_dir(struct strbuf *index, const char *dir, int depth)
{
	struct dirent **ents;
	int n = depth > MODULE_DIR_DEPTH ? -1 : scandir(dir, &ents, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		const char *e = ents[i]->d_name;
		char *p = e[0] == '.' ? NULL : sym_fs_join(dir, e);
		if (p && sym_module_path(e) && !strchr(e, '\n')) {
			char mod[256];
			sym_kernel_module_name(e, mod, sizeof(mod));
			sb_addf(index, "%s\t%s\n", mod, p);
		} else if (p && is_real_dir(p, ents[i])) {
			index_dir(index, p, depth + 1);
		}
		free(p);
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
}

/* Try the indexed files of module mod in order; the index of
 * [symfs]/lib/modules/R is made on the first call. */
static bool try_indexed(struct sym_dsos *s, struct sym_dso *d, const char *mod)
{
	if (!s->module_index_built) {
		struct utsname u;
		struct strbuf dir = SB_INIT;
		if (s->cfg.symfs)
			sb_adds(&dir, s->cfg.symfs);
		sb_addf(&dir, "/lib/modules/%s", release_of(s, &u));
		index_dir(&s->module_index, dir.buf, 0);
		sb_release(&dir);
		s->module_index_built = true;
	}
	size_t mlen = strlen(mod);
	const char *p = s->module_index.buf;
	while (p && *p) {
		const char *nl = strchr(p, '\n');
		if (!strncmp(p, mod, mlen) && p[mlen] == '\t') {
			char *path = xstrndup(p + mlen + 1, (size_t)(nl - p) - mlen - 1);
			bool ok = try_ko(s, d, path, false);
			free(path);
			if (ok)
				return true;
		}
		p = nl + 1;
	}
	return false;
}

/* <cache>/<recorded path>/<id>/elf, for a cache whose .build-id link
 * is missing (scorch archive leaves out links too long for a tar). */
static bool try_cache_path(struct sym_dsos *s, struct sym_dso *d)
{
	if (!d->buildid.size || !d->path)
		return false;
	char hex[41];
	sym_buildid_hex(&d->buildid, hex);
	for (size_t i = 0; i < s->cfg.nr_buildid_dirs; i++) {
		struct strbuf p = SB_INIT;
		sb_addf(&p, "%s%s/%s/elf", s->cfg.buildid_dirs[i], d->path, hex);
		bool ok = try_ko(s, d, p.buf, false);
		sb_release(&p);
		if (ok)
			return true;
	}
	return false;
}

void sym_kernel_load_module(struct sym_dsos *s, struct sym_dso *d)
{
	if (try_cache_elf(s, d, try_ko) || try_cache_path(s, d))
		return;
	if (d->path) {
		char *p = s->cfg.symfs ? sym_fs_join(s->cfg.symfs, d->path) : xstrdup(d->path);
		bool ok = try_ko(s, d, p, false);
		free(p);
		if (ok)
			return;
	}
	char mod[256];
	if (d->name[0] == '[')
		snprintf(mod, sizeof(mod), "%s", d->name);
	else if (d->path)
		sym_kernel_module_name(d->path, mod, sizeof(mod));
	else
		return;
	try_indexed(s, d, mod);
}
