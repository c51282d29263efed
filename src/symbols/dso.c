/*
 * dso: symbol sources per shared object, loaded lazily (see dso.h).
 * Stage: symbols. Invariant: a dso's table is loaded at most once; every
 * file is checked (ELF validity, build id) before its symbols are used.
 */
#include "symbols/dso.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/xalloc.h"
#include "symbols/fs.h"
#include "symbols/kernel.h"
#include "symbols/kallsyms.h"
#include "symbols/perfmap.h"

void sym_dsos_init(struct sym_dsos *s, const struct sym_config *cfg)
{
	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	if (!s->cfg.jit_dir)
		s->cfg.jit_dir = "/tmp";
	if (!s->cfg.debug_dir)
		s->cfg.debug_dir = "/usr/lib/debug";
	hmap_init(&s->by_name);
	arena_init(&s->mem);
	sb_init(&s->warnings);
	sb_init(&s->module_index);
	s->cache = xcalloc(SYM_CACHE_SLOTS, sizeof(*s->cache));
}

void sym_dsos_release(struct sym_dsos *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct sym_dso *d = s->v[i];
		sym_table_release(&d->table);
		sym_table_release(&d->plt);
		sym_table_release(&d->objects);
		sym_rbt_spans_release(&d->plt_spans);
		free(d->segs);
		free(d->ksecs);
		free(d->elf_path);
		free(d->sym_path);
		free(d);
	}
	free(s->v);
	free(s->cache);
	hmap_release(&s->by_name);
	arena_release(&s->mem);
	sb_release(&s->warnings);
	sb_release(&s->module_index);
	memset(s, 0, sizeof(*s));
}

static bool parse_perf_map_pid(const char *base, int *pid)
{
	if (strncmp(base, "perf-", 5) != 0)
		return false;
	char *end;
	long v = strtol(base + 5, &end, 10);
	if (end == base + 5 || strcmp(end, ".map") != 0 || v < 0 || v > 0x7fffffff)
		return false;
	*pid = (int)v;
	return true;
}

static enum sym_dso_kind guess_kind(const char *name, const char *base, int *pid)
{
	if (strcmp(name, "[kernel.kallsyms]") == 0 ||
	    strncmp(name, "[kernel.kallsyms]_", 18) == 0 ||
	    strcmp(name, "[guest.kernel.kallsyms]") == 0)
		return SYM_DSO_KERNEL;
	if (strcmp(name, "[vdso]") == 0 || strcmp(name, "[vdso32]") == 0 ||
	    strcmp(name, "[vdsox32]") == 0)
		return SYM_DSO_VDSO;
	if (parse_perf_map_pid(base, pid))
		return SYM_DSO_JIT;
	size_t n = strlen(name);
	if (name[0] == '[' && name[n - 1] == ']' && strcmp(name, "[heap]") &&
	    strncmp(name, "[stack", 6) && strcmp(name, "[vsyscall]") &&
	    strncmp(name, "[anon", 5) && strcmp(name, "[unknown]"))
		return SYM_DSO_MODULE;
	if (n > 3 && (strcmp(name + n - 3, ".ko") == 0 ||
		      strstr(name, ".ko.") != NULL))
		return SYM_DSO_MODULE;
	if (name[0] != '/' || strncmp(name, "//", 2) == 0 ||
	    strncmp(name, "/dev/", 5) == 0 || strncmp(name, "/SYSV", 5) == 0 ||
	    strncmp(name, "/anon_hugepage", 14) == 0 ||
	    strncmp(name, "/memfd:", 7) == 0)
		return SYM_DSO_NONE;
	return SYM_DSO_USER;
}

struct sym_dso *sym_dsos_findnew(struct sym_dsos *s, const char *name)
{
	size_t len = strlen(name);
	bool added;
	size_t id = hmap_put(&s->by_name, name, len, &added);
	if (!added)
		return s->v[hmap_at(&s->by_name, id)->value];
	struct sym_dso *d = xcalloc(1, sizeof(*d));
	d->name = hmap_at(&s->by_name, id)->key;
	const char *slash = strrchr(d->name, '/');
	d->short_name = slash && slash[1] && d->name[0] != '[' ? slash + 1 : d->name;
	d->kind = guess_kind(d->name, d->short_name, &d->pid);
	if (d->kind == SYM_DSO_JIT) { /* perf's short name of a perf map */
		char jit[32];
		snprintf(jit, sizeof(jit), "[JIT] tid %d", d->pid);
		d->short_name = arena_strdup(&s->mem, jit);
	}
	sym_table_init(&d->table);
	sym_table_init(&d->plt);
	sym_table_init(&d->objects);
	XGROW(s->v, s->cap, s->n + 1);
	d->id = s->n;
	s->v[s->n++] = d;
	hmap_at(&s->by_name, id)->value = d->id;
	return d;
}

bool sym_module_path(const char *name)
{
	const char *base = strrchr(name, '/');
	base = base ? base + 1 : name;
	const char *ko = strstr(base, ".ko");
	if (!ko || ko == base)
		return false;
	const char *rest = ko + 3;
	return !*rest || !strcmp(rest, ".gz") || !strcmp(rest, ".xz") ||
	       !strcmp(rest, ".zst");
}

struct sym_dso *sym_dsos_findnew_module(struct sym_dsos *s, const char *name,
					bool named_by_path)
{
	if (name[0] != '/')
		return sym_dsos_findnew(s, name);
	char mod[256];
	sym_kernel_module_name(name, mod, sizeof(mod));
	struct sym_dso *d = sym_dsos_findnew(s, mod);
	d->kind = SYM_DSO_MODULE;
	if (!d->path)
		d->path = arena_strdup(&s->mem, name);
	if (named_by_path && d->name[0] == '[') {
		d->short_name = d->name; /* perf: short "[mod]", long the path */
		d->name = d->path;
	}
	return d;
}

void sym_dsos_set_release(struct sym_dsos *s, const char *release)
{
	s->release = release && *release ? arena_strdup(&s->mem, release) : NULL;
}

void sym_dso_set_buildid(struct sym_dso *d, const uint8_t *id, size_t size)
{
	if (size == 0)
		return;
	if (size > SYM_BUILDID_MAX)
		size = SYM_BUILDID_MAX;
	memset(d->buildid.id, 0, sizeof(d->buildid.id));
	memcpy(d->buildid.id, id, size);
	d->buildid.size = (uint8_t)size;
}

void sym_dsos_warn(struct sym_dsos *s, const char *path, const struct diag *d)
{
	struct strbuf line = SB_INIT;
	sb_addf(&line, "%s: %s, skipped\n", path, d->set ? d->msg : "unreadable");
	const char *w = s->warnings.buf;
	bool again = false; /* a file tried twice (two names lead to it) */
	for (const char *p = w; p && *p && !again; p = strchr(p, '\n') + 1)
		again = !strncmp(p, line.buf, line.len);
	if (!again) {
		sb_add(&s->warnings, line.buf, line.len);
		s->nr_warnings++;
	}
	sb_release(&line);
}

/* ---- candidate files ---- */

struct found {
	bool have_syms, have_segs;
	struct sym_buildid runtime_id; /* of the runtime file, when none was recorded */
};

/* Open one candidate; take its segments and/or symbols when still
 * missing. Returns true when the file was usable. */
static bool try_elf(struct sym_dsos *s, struct sym_dso *d, const char *path,
		    struct found *fd)
{
	char *real = sym_fs_resolve(path);
	if (!real)
		return false;
	struct sym_elf_file f;
	struct diag dg = DIAG_INIT;
	int rc = sym_elf_open(&f, real, &dg);
	if (rc == -EINVAL) {
		sym_dsos_warn(s, real, &dg);
		free(real);
		return false;
	}
	if (rc < 0) {
		free(real);
		return false;
	}
	if (d->buildid.size && !sym_buildid_eq(&d->buildid, &f.buildid)) {
		sym_elf_close(&f);
		free(real);
		return false;
	}
	if (!fd->runtime_id.size && f.buildid.size)
		fd->runtime_id = f.buildid;
	if (!fd->have_segs && f.nsegs && f.has_dynsym) {
		free(d->segs); /* a debug file's, taken before */
		d->segs = xmemdup(f.segs, f.nsegs * sizeof(*f.segs));
		d->nsegs = f.nsegs;
		d->elf_path = xstrdup(real);
		fd->have_segs = true;
		struct diag pd = DIAG_INIT;
		if (sym_elf_load_plt(&f, &d->plt, &pd) < 0)
			sym_dsos_warn(s, real, &pd);
		sym_table_finish(&d->plt, false);
	}
	if (!fd->have_syms && f.has_symtab) {
		struct diag ld = DIAG_INIT;
		if (sym_elf_load_objects(&f, &d->table, &d->objects, false, &ld) < 0) {
			sym_dsos_warn(s, real, &ld);
		} else {
			fd->have_syms = true;
			d->sym_path = xstrdup(real);
			if (!fd->have_segs && f.nsegs && !d->segs) {
				d->segs = xmemdup(f.segs, f.nsegs * sizeof(*f.segs));
				d->nsegs = f.nsegs;
			}
		}
	}
	sym_elf_close(&f);
	free(real);
	return true;
}

/* .dynsym of the runtime file when nothing had a .symtab. */
static void dynsym_fallback(struct sym_dsos *s, struct sym_dso *d)
{
	struct sym_elf_file f;
	struct diag dg = DIAG_INIT;
	if (!d->elf_path || sym_elf_open(&f, d->elf_path, &dg) != 0)
		return;
	if (sym_elf_load_objects(&f, &d->table, &d->objects, true, &dg) >= 0)
		d->sym_path = xstrdup(d->elf_path);
	sym_elf_close(&f);
}

static void try_cache_dirs(struct sym_dsos *s, struct sym_dso *d,
			   const struct sym_buildid *id, struct found *fd)
{
	if (!id->size)
		return;
	char hex[41];
	sym_buildid_hex(id, hex);
	for (size_t i = 0; i < s->cfg.nr_buildid_dirs && !(fd->have_syms && fd->have_segs); i++) {
		char rel[128];
		snprintf(rel, sizeof(rel), ".build-id/%.2s/%s", hex, hex + 2);
		char *link = sym_fs_join(s->cfg.buildid_dirs[i], rel);
		char *elf = sym_fs_join(link, "elf"), *dbg = sym_fs_join(link, "debug");
		try_elf(s, d, elf, fd);
		try_elf(s, d, dbg, fd);
		if (!sym_fs_is_dir(link) && !fd->have_syms)
			try_elf(s, d, link, fd); /* old layout: the file itself */
		free(link);
		free(elf);
		free(dbg);
	}
}

static void try_debug_buildid(struct sym_dsos *s, struct sym_dso *d,
			      const struct sym_buildid *id, struct found *fd)
{
	if (!id->size)
		return;
	char hex[41], rel[128];
	sym_buildid_hex(id, hex);
	snprintf(rel, sizeof(rel), ".build-id/%.2s/%s.debug", hex, hex + 2);
	char *p = sym_fs_join(s->cfg.debug_dir, rel);
	try_elf(s, d, p, fd);
	free(p);
}

static void try_debuglink(struct sym_dsos *s, struct sym_dso *d, struct found *fd)
{
	if (fd->have_syms || !d->elf_path)
		return;
	struct sym_elf_file f;
	struct diag dg = DIAG_INIT;
	if (sym_elf_open(&f, d->elf_path, &dg) != 0)
		return;
	char link[256];
	snprintf(link, sizeof(link), "%s", f.debuglink);
	sym_elf_close(&f);
	if (!link[0])
		return;
	char *dir = xstrdup(d->name);
	char *slash = strrchr(dir, '/');
	if (slash)
		slash[1] = '\0';
	const char *fmts[3] = { "%s%s", "%s.debug/%s", NULL };
	for (int i = 0; fmts[i] && !fd->have_syms; i++) {
		struct strbuf p = SB_INIT;
		sb_addf(&p, fmts[i], dir, link);
		try_elf(s, d, p.buf, fd);
		sb_release(&p);
	}
	if (!fd->have_syms) {
		struct strbuf p = SB_INIT;
		sb_addf(&p, "%s%s%s", s->cfg.debug_dir, dir, link);
		try_elf(s, d, p.buf, fd);
		sb_release(&p);
	}
	free(dir);
}

static void load_user(struct sym_dsos *s, struct sym_dso *d)
{
	struct found fd;
	memset(&fd, 0, sizeof(fd));
	if (s->cfg.symfs) {
		char *p = sym_fs_join(s->cfg.symfs, d->name);
		try_elf(s, d, p, &fd);
		free(p);
	}
	try_cache_dirs(s, d, &d->buildid, &fd);
	if (!(fd.have_syms && fd.have_segs))
		try_debug_buildid(s, d, &d->buildid, &fd);
	if (!(fd.have_syms && fd.have_segs) && !(s->cfg.symfs && fd.have_segs))
		try_elf(s, d, d->name, &fd);
	if (!fd.have_syms && !d->buildid.size && fd.runtime_id.size) {
		/* no id recorded: the runtime file's own id finds its debug file */
		struct sym_buildid id = fd.runtime_id;
		d->buildid = id;
		try_cache_dirs(s, d, &id, &fd);
		if (!fd.have_syms)
			try_debug_buildid(s, d, &id, &fd);
		d->buildid.size = 0;
	}
	try_debuglink(s, d, &fd);
	if (!fd.have_syms)
		dynsym_fallback(s, d);
	sym_table_finish(&d->table, false);
	if (!d->table.n && !d->objects.n) { /* perf makes PLT symbols only
					     * when it loaded some (functions
					     * or data): not for a stripped
					     * static-pie's .plt of IFUNCs */
		sym_table_release(&d->plt);
		sym_table_init(&d->plt);
	}
}

/* Shift kallsyms of another boot so that _text lands where the
 * recording saw it (perf's ref_reloc_sym). */
static void relocate_kernel(struct sym_dso *d, uint64_t text)
{
	if (!d->ref_text || !text || text == d->ref_text)
		return;
	uint64_t delta = d->ref_text - text;
	for (size_t i = 0; i < d->table.n; i++) {
		d->table.syms[i].start += delta;
		d->table.syms[i].end += delta;
	}
}

static bool load_kallsyms_file(struct sym_dsos *s, struct sym_dso *d, const char *path)
{
	char *real = sym_fs_resolve(path);
	if (!real)
		return false;
	uint64_t bad = 0, text = 0;
	struct diag dg = DIAG_INIT;
	int rc = sym_kallsyms_load(real, &d->table, &bad, &text, &dg);
	if (rc > 0) {
		d->sym_path = xstrdup(real);
		relocate_kernel(d, text);
	}
	else if (rc < 0)
		sym_dsos_warn(s, real, &dg);
	free(real);
	return rc > 0;
}

int sym_running_kernel_buildid(struct sym_buildid *out)
{
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	uint8_t buf[4096];
	ssize_t n = read(fd, buf, sizeof(buf));
	close(fd);
	struct diag d = DIAG_INIT;
	return n > 0 ? sym_buildid_from_notes(buf, (size_t)n, false, out, &d) : 0;
}

static void load_kernel(struct sym_dsos *s, struct sym_dso *d)
{
	size_t warned = s->nr_warnings;
	if (s->cfg.kallsyms && load_kallsyms_file(s, d, s->cfg.kallsyms))
		return;
	if (!s->cfg.kallsyms && sym_kernel_load_vmlinux(s, d))
		return;
	if (s->cfg.kallsyms && warned == s->nr_warnings && !s->kallsyms_warned) {
		/* named by the user but no symbol in it: say so once */
		struct diag dg = DIAG_INIT;
		diag_set(&dg, "no kernel symbols (\"ADDRESS TYPE NAME\" lines) in it");
		sym_dsos_warn(s, s->cfg.kallsyms, &dg);
		s->kallsyms_warned = true;
	}
	char hex[41];
	sym_buildid_hex(&d->buildid, hex);
	for (size_t i = 0; d->buildid.size && i < s->cfg.nr_buildid_dirs; i++) {
		struct strbuf p = SB_INIT;
		sb_addf(&p, "%s/[kernel.kallsyms]/%s/kallsyms", s->cfg.buildid_dirs[i], hex);
		bool ok = load_kallsyms_file(s, d, p.buf);
		sb_release(&p);
		if (ok)
			return;
	}
	/* The running kernel's table when the build ids agree; with no
	 * build id recorded (pipe mode, --no-buildid) perf 6.1 takes it as
	 * its last resort, and so does scorch. */
	struct sym_buildid run;
	if (!s->cfg.no_proc_kallsyms &&
	    (d->buildid.size == 0 ||
	     (sym_running_kernel_buildid(&run) == 1 && sym_buildid_eq(&run, &d->buildid))))
		load_kallsyms_file(s, d, "/proc/kallsyms");
}

static void load_vdso(struct sym_dsos *s, struct sym_dso *d)
{
	struct found fd;
	memset(&fd, 0, sizeof(fd));
	if (s->cfg.vdso)
		try_elf(s, d, s->cfg.vdso, &fd);
	char hex[41];
	sym_buildid_hex(&d->buildid, hex);
	for (size_t i = 0; !fd.have_syms && d->buildid.size && i < s->cfg.nr_buildid_dirs; i++) {
		struct strbuf p = SB_INIT;
		sb_addf(&p, "%s/[vdso]/%s/vdso", s->cfg.buildid_dirs[i], hex);
		try_elf(s, d, p.buf, &fd);
		sb_release(&p);
	}
	if (!fd.have_syms)
		dynsym_fallback(s, d);
	sym_table_finish(&d->table, false);
}

static void load_jit(struct sym_dsos *s, struct sym_dso *d)
{
	char name[64];
	snprintf(name, sizeof(name), "perf-%d.map", d->pid);
	char *p = sym_fs_join(s->cfg.jit_dir, name);
	uint64_t bad = 0, first = 0;
	struct diag dg = DIAG_INIT;
	int rc = sym_perfmap_load(p, &d->table, &bad, &first, &dg);
	if (rc >= 0 && bad) {
		diag_set(&dg, "%llu malformed lines (first: line %llu)",
			 (unsigned long long)bad, (unsigned long long)first);
		sb_addf(&s->warnings, "%s: %s\n", p, dg.msg);
		s->nr_warnings++;
	}
	if (rc > 0)
		d->sym_path = xstrdup(p);
	free(p);
}

void sym_dsos_load(struct sym_dsos *s, struct sym_dso *d)
{
	if (d->loaded)
		return;
	d->loaded = true;
	switch (d->kind) {
	case SYM_DSO_USER: load_user(s, d); break;
	case SYM_DSO_KERNEL: load_kernel(s, d); break;
	case SYM_DSO_VDSO: load_vdso(s, d); break;
	case SYM_DSO_JIT: load_jit(s, d); break;
	case SYM_DSO_MODULE: sym_kernel_load_module(s, d); break;
	case SYM_DSO_NONE: break;
	}
}

/* Build perf's tree, keep its answers where find_in_dso asks it (.plt,
 * [lo, hi), and the table's symbols overlapping it), and release the
 * tree and what only it needed (the data objects, the dropped aliases). */
static void build_plt_spans(struct sym_dso *d, uint64_t lo, uint64_t hi)
{
	uint64_t from = lo, to = hi;
	for (size_t i = 0; i < d->table.n; i++) {
		const struct sym_entry *e = &d->table.syms[i];
		if (e->start < hi && e->end > lo) {
			from = e->start < from ? e->start : from;
			to = e->end > to ? e->end : to;
		}
	}
	struct sym_rbt tree;
	sym_table_demangle_aliases(&d->table, &d->objects);
	sym_table_drop_map_pages(&d->table); /* read demangling, not kept */
	sym_rbt_build(&tree, &d->table, &d->objects, &d->plt);
	const struct sym_table *keep[2] = { &d->table, &d->plt };
	sym_rbt_spans_build(&d->plt_spans, &tree, from, to, keep, 2);
	sym_rbt_release(&tree);
	sym_table_release(&d->objects);
	sym_table_drop_map_pages(&d->table); /* the tree compared names */
	free(d->table.dropped);
	d->table.dropped = NULL;
	d->table.ndropped = d->table.capdropped = 0;
}

/* perf's tree decides inside .plt and wherever the table's answer is a
 * symbol overlapping .plt (a stretched _init: the tree is no interval
 * tree there, perf may find it or nothing; see rbt.h). Elsewhere the
 * table, then the PLT symbols. */
static const struct sym_entry *find_in_dso(struct sym_dso *d, uint64_t a)
{
	const struct sym_table *p = &d->plt;
	const struct sym_entry *e = sym_table_find(&d->table, a);
	if (!p->n)
		return e;
	uint64_t lo = p->syms[0].start, hi = p->syms[p->n - 1].end;
	bool in_plt = a >= lo && a < hi;
	if (!in_plt && !(e && e->start < hi && e->end > lo))
		return e ? e : sym_table_find(p, a);
	if (!d->plt_tree_built) {
		build_plt_spans(d, lo, hi);
		d->plt_tree_built = true;
	}
	return sym_rbt_spans_find(&d->plt_spans, a);
}

const struct sym_entry *sym_dsos_find(struct sym_dsos *s, struct sym_dso *d,
				      uint64_t map_addr)
{
	uint64_t h = (map_addr * 0x9E3779B97F4A7C15ull) ^ (d->id * 0xff51afd7ed558ccdull);
	struct sym_cache_slot *slot = &s->cache[(h >> 40) % SYM_CACHE_SLOTS];
	s->lookups++;
	if (slot->dso == d && slot->addr == map_addr) {
		s->cache_hits++;
		return slot->sym;
	}
	sym_dsos_load(s, d);
	uint64_t a = map_addr;
	if ((d->kind == SYM_DSO_USER || d->kind == SYM_DSO_VDSO) && d->nsegs)
		a = sym_segments_to_vaddr(d->segs, d->nsegs, map_addr);
	const struct sym_entry *e = find_in_dso(d, a);
	if (e) /* demangled, a name still in the file copied (table.h);
		* an entry of d's own tables, not const */
		sym_table_own_name(&d->table, (struct sym_entry *)e);
	slot->dso = d;
	slot->addr = map_addr;
	slot->sym = e;
	return e;
}

bool sym_dso_a2l_names(const struct sym_dso *d, uint64_t vaddr)
{
	const struct sym_entry *below = sym_table_floor(&d->table, vaddr);
	for (size_t i = 0; below && i < d->nsegs; i++) {
		const struct sym_segment *s = &d->segs[i];
		if (s->exec && vaddr >= s->vaddr && vaddr - s->vaddr < s->memsz)
			return below->start >= s->vaddr;
	}
	return false;
}

bool sym_dso_kernel_section(struct sym_dso *d, uint64_t addr,
			    struct sym_dso **shown)
{
	*shown = d;
	if (!d->nksecs)
		return true;
	for (size_t i = 0; i < d->nksecs; i++) {
		const struct sym_ksection *k = &d->ksecs[i];
		if (addr >= k->start && addr < k->end) {
			if (k->dso)
				*shown = k->dso;
			return true;
		}
	}
	return false;
}

size_t sym_dsos_missing(const struct sym_dsos *s, struct strbuf *names,
			const char **first_short)
{
	size_t n = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct sym_dso *d = s->v[i];
		if (!d->loaded || d->kind != SYM_DSO_USER || d->elf_path ||
		    d->sym_path || d->missing_named)
			continue;
		if (n++)
			sb_add(names, ", ", 2);
		else
			*first_short = d->short_name;
		sb_adds(names, d->name);
	}
	return n;
}

char *sym_dsos_cache_dir(struct sym_dsos *s, const struct sym_dso *d,
			 size_t *which)
{
	if (!d->buildid.size)
		return NULL;
	char hex[41];
	sym_buildid_hex(&d->buildid, hex);
	for (size_t i = 0; i < s->cfg.nr_buildid_dirs; i++) {
		struct strbuf p = SB_INIT;
		sb_addf(&p, "%s/%s/%s", s->cfg.buildid_dirs[i],
			d->name[0] == '/' ? d->name + 1 : d->name, hex);
		if (sym_fs_is_dir(p.buf)) {
			if (which)
				*which = i;
			return sb_detach(&p, NULL);
		}
		sb_release(&p);
	}
	return NULL;
}
