/*
 * inline: inlined-call frames from DWARF scopes (see inline.h).
 * Stage: symbols. dwarf_addrdie finds the compile unit (falling back to
 * a walk over all units when .debug_aranges lacks the address); a walk
 * down the DIE tree through the scopes whose ranges hold the address
 * collects the subprogram and inlined_subroutine DIEs, which become
 * frames (dwarf_getscopes would follow abstract origins instead).
 * Invariant: each file is opened once (failures remembered) and each
 * (file, address) looked up once; results are ranges of one array.
 */
#include "symbols/inline.h"

#include "base/arena.h"
#include "base/hmap.h"
#include "base/u64map.h"
#include "base/xalloc.h"
#include "symbols/demangle.h"
#include "symbols/dso.h"
#include "symbols/elf.h"
#include "symbols/lazyinfo.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct inl_file {
	const char *path;        /* key in the path map */
	int fd;
	Elf *elf;                /* what dw reads, NULL when not an ELF file */
	Dwarf *dw;               /* NULL: no DWARF (or not an ELF file) */
	struct lazy_info *lazy;  /* .debug_info inflated on demand, or NULL */
	struct u64map tops;      /* unit DIE offset -> struct cu_top * */
	struct u64map memo;      /* address -> first frame << 8 | count */
};

struct sym_inline {
	struct hmap paths;       /* path -> index into files */
	struct inl_file *last;   /* the file of the previous lookup */
	struct inl_file **files;
	size_t nfiles, files_cap;
	struct sym_inline_frame *frames;   /* all results, back to back */
	size_t nframes, frames_cap;
	struct arena names;
	struct sym_inline_stats stats;
	bool names_only;         /* no file/line: line tables stay unread */
};

/*
 * The top level of a unit, indexed: its code-holding DIEs (through
 * namespaces and classes, as descend walks them) with their PC ranges,
 * in DIE order. Without it every lookup walked all of a unit's top-level
 * DIEs, types and variables included (850k instructions a lookup in
 * libc's units); with it a lookup reads a few items, then descends into
 * one function's subtree only.
 */
enum { TOP_FUNC, TOP_BLOCK, TOP_GROUP };

struct top_item {
	Dwarf_Off off;           /* the DIE */
	uint8_t kind;
	uint32_t first, nranges; /* its ranges in cu_top.ranges */
	uint32_t end;            /* TOP_GROUP: one past its last item */
};

struct cu_top {
	struct top_item *items;
	size_t n, cap;
	struct { uint64_t lo, hi; } *ranges;
	size_t nr, rcap;
};

static void cu_top_free(struct cu_top *t)
{
	if (!t)
		return;
	free(t->items);
	free(t->ranges);
	free(t);
}

/* u64map_each callback: a tops value is a struct cu_top *. */
static void free_top(uint64_t val, void *ctx)
{
	(void)ctx;
	cu_top_free((struct cu_top *)(uintptr_t)val);
}

struct sym_inline *sym_inline_new(void)
{
	struct sym_inline *c = xcalloc(1, sizeof(*c));
	hmap_init(&c->paths);
	arena_init(&c->names);
	return c;
}

static void file_free(struct inl_file *f)
{
	if (f->dw)
		dwarf_end(f->dw);
	lazy_info_free(f->lazy);
	u64map_each(&f->tops, free_top, NULL);
	u64map_release(&f->tops);
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
	u64map_release(&f->memo);
	free(f);
}

void sym_inline_free(struct sym_inline *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nfiles; i++)
		file_free(c->files[i]);
	free(c->files);
	free(c->frames);
	hmap_release(&c->paths);
	arena_release(&c->names);
	free(c);
}

const struct sym_inline_stats *sym_inline_stats(const struct sym_inline *c)
{
	return &c->stats;
}

bool sym_inline_is_symbol(const struct sym_inline_frame *f,
			  const char *sym_name)
{
	return sym_name && strcmp(f->name, sym_name) == 0;
}

/*
 * libdw decompresses every compressed DWARF section of a file when it
 * opens it (libc's debug file: ~40 ms). .debug_info, the bulk, is
 * inflated on demand instead (lazyinfo.h). Location lists are never read
 * here (scopes, ranges, names, lines only): they are hidden from libdw
 * as SHT_NOBITS in our private copy of the section headers; in
 * names-only mode the line tables too.
 */
static bool hidden(const char *name, bool names_only)
{
	if (!strcmp(name, ".debug_loclists") || !strcmp(name, ".debug_loc") ||
	    !strcmp(name, ".zdebug_loc"))
		return true;
	return names_only && (!strcmp(name, ".debug_line") ||
			      !strcmp(name, ".debug_line_str") ||
			      !strcmp(name, ".zdebug_line"));
}

static void hide_unused_sections(Elf *e, bool names_only)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(e, &shstrndx) != 0)
		return;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn)) != NULL;) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		const char *name = elf_strptr(e, shstrndx, sh.sh_name);
		if (!name || sh.sh_type == SHT_NOBITS)
			continue;
		if (hidden(name, names_only)) {
			sh.sh_type = SHT_NOBITS;
			gelf_update_shdr(scn, &sh);
		}
	}
}

static Dwarf *open_dwarf(struct inl_file *f, bool names_only)
{
	elf_version(EV_CURRENT);
	f->elf = elf_begin(f->fd, ELF_C_READ_MMAP_PRIVATE, NULL);
	if (!f->elf)
		return NULL;
	if (elf_kind(f->elf) == ELF_K_ELF) {
		hide_unused_sections(f->elf, names_only);
		f->lazy = lazy_info_new(f->elf);
	}
	return dwarf_begin_elf(f->elf, DWARF_C_READ, NULL);
}

/* A new handle over a longer prefix of .debug_info (libdw keeps the
 * section's size from when it opened). */
static bool reopen(struct inl_file *f)
{
	dwarf_end(f->dw);
	f->dw = dwarf_begin_elf(f->elf, DWARF_C_READ, NULL);
	return f->dw != NULL;
}

/* The unit holding addr while .debug_info is a prefix, through its
 * aranges; false: only the whole section can tell. */
static bool lazy_cu(struct inl_file *f, uint64_t addr, Dwarf_Die *cu)
{
	uint64_t off;
	Dwarf_Off next;
	size_t hsize;
	if (!lazy_info_unit_of(f->lazy, addr, &off))
		return false;
	int grew = lazy_info_need(f->lazy, off);
	if (grew < 0 || (grew > 0 && !reopen(f)))
		return false;
	return dwarf_nextcu(f->dw, off, &next, &hsize, NULL, NULL, NULL) == 0 &&
	       dwarf_offdie(f->dw, off + hsize, cu) && dwarf_haspc(cu, addr) > 0;
}

/* Inflate the rest of .debug_info: libdw as usual from now on. */
static bool go_whole(struct sym_inline *c, struct inl_file *f)
{
	c->stats.lazy_whole++;
	return lazy_info_all(f->lazy) <= 0 || reopen(f);
}

static struct inl_file *file_get(struct sym_inline *c, const char *path)
{
	if (c->last && (c->last->path == path || !strcmp(c->last->path, path)))
		return c->last;
	bool added;
	size_t id = hmap_put(&c->paths, path, strlen(path), &added);
	if (!added)
		return c->last = c->files[id];
	struct inl_file *f = xcalloc(1, sizeof(*f));
	f->path = hmap_at(&c->paths, id)->key;
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd >= 0)
		f->dw = open_dwarf(f, c->names_only);
	c->stats.files++;
	c->stats.lazy_files += f->lazy != NULL;
	if (!f->dw)
		c->stats.files_without_dwarf++;
	XGROW(c->files, c->files_cap, c->nfiles + 1);
	c->files[c->nfiles++] = f;
	return c->last = f;
}

/* The compile unit whose ranges hold addr. */
static bool find_cu(Dwarf *dw, uint64_t addr, Dwarf_Die *cu)
{
	if (dwarf_addrdie(dw, addr, cu))
		return true;
	Dwarf_Off off = 0, next;
	size_t hsize;
	while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		if (dwarf_offdie(dw, off + hsize, cu) && dwarf_haspc(cu, addr) > 0)
			return true;
		off = next;
	}
	return false;
}

/* Linkage name (demangled) when present, else DW_AT_name, via the
 * abstract origin / specification for inlined and out-of-line copies. */
static const char *frame_name(struct sym_inline *c, Dwarf_Die *die)
{
	Dwarf_Attribute at;
	const char *name = dwarf_formstring(
		dwarf_attr_integrate(die, DW_AT_linkage_name, &at));
	if (!name)
		name = dwarf_formstring(
			dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &at));
	if (name) {
		char *d = sym_demangle(name);
		if (d) {
			const char *s = arena_strdup(&c->names, d);
			free(d);
			return s;
		}
		return arena_strdup(&c->names, name);
	}
	name = dwarf_diename(die);
	return arena_strdup(&c->names, name ? name : "??");
}

static void add_frame(struct sym_inline *c, const char *name,
		      const char *file, unsigned line)
{
	XGROW(c->frames, c->frames_cap, c->nframes + 1);
	c->frames[c->nframes].name = name;
	c->frames[c->nframes].file = file ? arena_strdup(&c->names, file) : NULL;
	c->frames[c->nframes].line = line;
	c->nframes++;
}

/* Whether row l of a DWARF 5 line table still has its sequence's first
 * file: no row before it in the sequence names another file (compilers
 * set the file only when it changes). */
static bool in_first_file_run(Dwarf_Die *cu, Dwarf_Line *l, const char *file)
{
	Dwarf_Half version = 0;
	Dwarf_Lines *lines;
	size_t n, i = 0;
	if (dwarf_cu_info(cu->cu, &version, NULL, NULL, NULL, NULL, NULL, NULL) != 0 ||
	    version < 5 || dwarf_getsrclines(cu, &lines, &n) != 0)
		return false;
	while (i < n && dwarf_onesrcline(lines, i) != l)
		i++;
	if (i == n)
		return false;
	while (i > 0) {
		Dwarf_Line *prev = dwarf_onesrcline(lines, i - 1);
		bool end = false;
		if (dwarf_lineendsequence(prev, &end) != 0 || end)
			break;
		const char *pf = dwarf_linesrc(prev, NULL, NULL);
		if (!pf || strcmp(pf, file))
			return false;
		i--;
	}
	return true;
}

/* Source line of addr itself (for the innermost frame), file and line as
 * binutils' addr2line (perf's) gives them:
 * the line table's, except that binutils 2.40 reads a DWARF 5 sequence's
 * initial file register (1) as the unit's own file (entry 0), so rows
 * before the sequence's first file change are named after the unit. */
static const char *addr_line(Dwarf_Die *cu, uint64_t addr, unsigned *line)
{
	int ln = 0;
	Dwarf_Line *l = dwarf_getsrc_die(cu, addr);
	const char *file = l ? dwarf_linesrc(l, NULL, NULL) : NULL;
	if (l && dwarf_lineno(l, &ln) == 0 && ln > 0)
		*line = (unsigned)ln;
	if (file && in_first_file_run(cu, l, file)) {
		Dwarf_Files *files;
		size_t nfiles;
		const char *first = dwarf_getsrcfiles(cu, &files, &nfiles) == 0 && nfiles > 1
					    ? dwarf_filesrc(files, 1, NULL, NULL) : NULL;
		const char *unit = dwarf_diename(cu);
		if (first && unit && !strcmp(first, file))
			file = unit;
	}
	return file;
}

/* Call site of an inlined subroutine: where its caller is executing. */
static const char *call_site(Dwarf_Die *cu, Dwarf_Die *inl, unsigned *line)
{
	Dwarf_Attribute at;
	Dwarf_Word fileno = 0, ln = 0;
	Dwarf_Files *files;
	size_t nfiles;
	if (dwarf_formudata(dwarf_attr(inl, DW_AT_call_line, &at), &ln) == 0)
		*line = (unsigned)ln;
	if (dwarf_formudata(dwarf_attr(inl, DW_AT_call_file, &at), &fileno) != 0 ||
	    dwarf_getsrcfiles(cu, &files, &nfiles) != 0 || fileno >= nfiles)
		return NULL;
	return dwarf_filesrc(files, fileno, NULL, NULL);
}

/* Containers whose children may hold code without ranges of their own. */
static bool is_container(int tag)
{
	return tag == DW_TAG_namespace || tag == DW_TAG_class_type ||
	       tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	       tag == DW_TAG_module;
}

/* Length of the range of die that holds addr (the largest value when
 * none is found). */
static Dwarf_Word range_len(Dwarf_Die *die, uint64_t addr)
{
	Dwarf_Addr base, start, end;
	ptrdiff_t off = 0;
	while ((off = dwarf_ranges(die, off, &base, &start, &end)) > 0)
		if (addr >= start && addr < end)
			return end - start;
	return (Dwarf_Word)-1;
}

/* Where several functions at one level hold addr (the assembler writes
 * one DIE per alias of a function), the one with the smallest range
 * wins, the last of equals: addr2line's choice. True when a candidate
 * of range len beats the best so far (none yet: have false). Both
 * walkers, descend and descend_top, choose by this. */
static bool better_fit(bool have, Dwarf_Word len, Dwarf_Word best_len)
{
	return !have || len <= best_len;
}

/* Walk down from parent through the scopes holding addr, appending the
 * function-like ones outermost first into dies[*n], choosing among
 * functions by better_fit. Depth is bounded by SYM_INLINE_MAX frames
 * and a cap on nesting, so bad DWARF can't loop. */
static void descend(Dwarf_Die *parent, uint64_t addr, Dwarf_Die *dies,
		    size_t *n, int depth)
{
	Dwarf_Die child, best;
	Dwarf_Word best_len = 0;
	bool have = false;
	if (depth > 64 || *n >= SYM_INLINE_MAX || dwarf_child(parent, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);
		if (is_container(tag)) {
			size_t before = *n;
			descend(&child, addr, dies, n, depth + 1);
			if (*n > before)
				return;
			continue;
		}
		if (dwarf_haspc(&child, addr) <= 0)
			continue;
		if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine) {
			descend(&child, addr, dies, n, depth + 1);   /* a block */
			return;
		}
		Dwarf_Word len = range_len(&child, addr);
		if (better_fit(have, len, best_len)) {
			best = child;
			best_len = len;
			have = true;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	if (!have)
		return;
	dies[(*n)++] = best;
	descend(&best, addr, dies, n, depth + 1);
}

static size_t top_add(struct cu_top *t, Dwarf_Off off, uint8_t kind)
{
	XGROW(t->items, t->cap, t->n + 1);
	t->items[t->n] = (struct top_item){ off, kind, (uint32_t)t->nr, 0, 0 };
	return t->n++;
}

/* The items of one level, as descend's loop sees them. */
static void top_level(struct cu_top *t, Dwarf_Die *parent, int depth)
{
	Dwarf_Die child;
	if (depth > 64 || t->n >= UINT32_MAX / 2 || dwarf_child(parent, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);
		if (is_container(tag)) {
			size_t at = top_add(t, dwarf_dieoffset(&child), TOP_GROUP);
			top_level(t, &child, depth + 1);
			t->items[at].end = (uint32_t)t->n;
			continue;
		}
		Dwarf_Addr base, lo, hi;
		ptrdiff_t off = 0;
		size_t at = SIZE_MAX;
		while ((off = dwarf_ranges(&child, off, &base, &lo, &hi)) > 0) {
			if (at == SIZE_MAX)
				at = top_add(t, dwarf_dieoffset(&child),
					     tag == DW_TAG_subprogram ||
					     tag == DW_TAG_inlined_subroutine
						     ? TOP_FUNC : TOP_BLOCK);
			XGROW(t->ranges, t->rcap, t->nr + 1);
			t->ranges[t->nr].lo = lo;
			t->ranges[t->nr].hi = hi;
			t->nr++;
			t->items[at].nranges++;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
}

/* The index of cu's top level, built on first use. */
static struct cu_top *cu_top_get(struct inl_file *f, Dwarf_Die *cu)
{
	bool added;
	uint64_t *v = u64map_put(&f->tops, dwarf_dieoffset(cu), &added);
	if (added) {
		struct cu_top *t = xcalloc(1, sizeof(*t));
		top_level(t, cu, 0);
		*v = (uint64_t)(uintptr_t)t;
	}
	return (struct cu_top *)(uintptr_t)*v;
}

/* Does the item hold addr? *len: the length of its range that does. */
static bool top_holds(const struct cu_top *t, const struct top_item *it,
		      uint64_t addr, Dwarf_Word *len)
{
	for (uint32_t k = it->first; k < it->first + it->nranges; k++) {
		if (addr >= t->ranges[k].lo && addr < t->ranges[k].hi) {
			*len = t->ranges[k].hi - t->ranges[k].lo;
			return true;
		}
	}
	return false;
}

/* descend() over items [lo, hi) of the index instead of the DIEs. */
static void descend_top(const struct cu_top *t, Dwarf *dw, size_t lo,
			size_t hi, uint64_t addr, Dwarf_Die *dies, size_t *n,
			int depth)
{
	size_t best = SIZE_MAX;
	Dwarf_Word best_len = 0, len;
	Dwarf_Die die;
	if (depth > 64 || *n >= SYM_INLINE_MAX)
		return;
	for (size_t i = lo; i < hi && i < t->n; i++) {
		const struct top_item *it = &t->items[i];
		if (it->kind == TOP_GROUP) {
			size_t before = *n;
			descend_top(t, dw, i + 1, it->end, addr, dies, n, depth + 1);
			if (*n > before)
				return;
			i = it->end > i ? it->end - 1 : i;
			continue;
		}
		if (!top_holds(t, it, addr, &len))
			continue;
		if (it->kind == TOP_BLOCK) {
			if (dwarf_offdie(dw, it->off, &die))
				descend(&die, addr, dies, n, depth + 1);
			return;
		}
		if (better_fit(best != SIZE_MAX, len, best_len)) {
			best = i;
			best_len = len;
		}
	}
	if (best == SIZE_MAX || !dwarf_offdie(dw, t->items[best].off, &die))
		return;
	dies[(*n)++] = die;
	descend(&die, addr, dies, n, depth + 1);
}

/* Append the frames at addr, innermost first; returns how many, or
 * SIZE_MAX when a prefix of .debug_info (lazy) can't tell. */
static size_t scan_cu(struct sym_inline *c, struct inl_file *f,
		      uint64_t addr, bool lazy)
{
	Dwarf_Die cu, dies[SYM_INLINE_MAX];
	size_t n = 0;
	if (lazy && !lazy_cu(f, addr, &cu))
		return lazy_info_in_plt(f->lazy, addr) ? 0 : SIZE_MAX;
	if (!f->dw || (!lazy && !find_cu(f->dw, addr, &cu)))
		return 0;
	const struct cu_top *t = cu_top_get(f, &cu);
	descend_top(t, f->dw, 0, t->n, addr, dies, &n, 0);
	/* dies[] is outermost first: frame k executes at the call site of
	 * dies[k + 1], the innermost one at addr itself */
	for (size_t i = n; i > 0; i--) {
		unsigned line = 0;
		const char *file = c->names_only ? NULL
				   : i == n ? addr_line(&cu, addr, &line)
					    : call_site(&cu, &dies[i], &line);
		add_frame(c, frame_name(c, &dies[i - 1]), file, line);
	}
	return n;
}

static bool has_unnamed(const struct sym_inline *c, size_t first)
{
	for (size_t i = first; i < c->nframes; i++)
		if (!strcmp(c->frames[i].name, "??"))
			return true;
	return false;
}

/* scan_cu over what is inflated; where that can't answer, or leaves a
 * name unresolved (a reference into a later unit), over everything. */
static size_t scan(struct sym_inline *c, struct inl_file *f, uint64_t addr)
{
	size_t first = c->nframes;
	bool lazy = f->lazy && !lazy_info_complete(f->lazy);
	size_t n = scan_cu(c, f, addr, lazy);
	if (lazy && (n == SIZE_MAX || has_unnamed(c, first))) {
		c->nframes = first;
		n = go_whole(c, f) ? scan_cu(c, f, addr, false) : 0;
	}
	return n;
}

void sym_inline_names_only(struct sym_inline *c)
{
	if (!c->nfiles)
		c->names_only = true;
}

size_t sym_inline_frames(struct sym_inline *c, const char *path,
			 uint64_t addr, const struct sym_inline_frame **out)
{
	struct inl_file *f = file_get(c, path);
	c->stats.lookups++;
	*out = NULL;
	if (!f->dw)
		return 0;
	uint64_t *v = u64map_find(&f->memo, addr);
	if (!v) {
		size_t first = c->nframes;
		size_t n = scan(c, f, addr);
		bool added;
		v = u64map_put(&f->memo, addr, &added);
		*v = (uint64_t)first << 8 | n;
	} else {
		c->stats.memo_hits++;
	}
	size_t n = *v & 0xff;
	*out = n ? &c->frames[*v >> 8] : NULL;
	return n;
}

size_t sym_inline_dso_frames(struct sym_inline *c, const struct sym_dso *d,
			     uint64_t map_addr,
			     const struct sym_inline_frame **out)
{
	*out = NULL;
	if (d->kind != SYM_DSO_USER || !d->sym_path || d->name[0] == '[')
		return 0;
	uint64_t addr = sym_segments_to_vaddr(d->segs, d->nsegs, map_addr);
	return sym_inline_frames(c, d->sym_path, addr, out);
}

/* The unit holding addr, over what is inflated first. */
static bool unit_of(struct sym_inline *c, struct inl_file *f, uint64_t addr, Dwarf_Die *cu)
{
	if (f->lazy && !lazy_info_complete(f->lazy)) {
		if (lazy_cu(f, addr, cu))
			return true;
		if (!go_whole(c, f))
			return false;
	}
	return f->dw && find_cu(f->dw, addr, cu);
}

int sym_inline_srcline(struct sym_inline *c, const struct sym_dso *d, uint64_t vaddr,
		       size_t row, struct sym_inline_frame *out)
{
	memset(out, 0, sizeof(*out));
	if (d->kind != SYM_DSO_USER || !d->sym_path || d->name[0] == '[')
		return -1;
	const struct sym_inline_frame *fr;
	size_t n = sym_inline_frames(c, d->sym_path, vaddr, &fr);
	struct inl_file *f = file_get(c, d->sym_path);
	if (!f->dw)
		return f->fd >= 0 ? 0 : -1;
	if (row > 0 || n >= 2) {
		if (row >= n)
			return 0;
		*out = fr[row];
		return out->file ? 1 : 0;
	}
	Dwarf_Die cu;
	if (!unit_of(c, f, vaddr, &cu))
		return 0;
	unsigned line = 0;
	const char *file = addr_line(&cu, vaddr, &line);
	if (!file)
		return 0;
	out->name = n ? fr[0].name : "??";
	out->file = arena_strdup(&c->names, file);
	out->line = line;
	return 1;
}

/* The decl of dies[k], the function that row (innermost first) names
 * among n (past the last: the outermost, dies[0]). */
static const char *decl_of(Dwarf_Die *dies, size_t n, size_t row, unsigned *line)
{
	if (!n)
		return NULL;
	Dwarf_Die *die = &dies[row < n ? n - 1 - row : 0];
	int ln = 0;
	const char *file = dwarf_decl_file(die);
	if (file && dwarf_decl_line(die, &ln) == 0 && ln > 0)
		*line = (unsigned)ln;
	return file;
}

/* The decl of row at vaddr in f, else the address's own line; NULL when
 * neither is known, or when a prefix of .debug_info can't tell (the
 * decl may be in a unit not inflated yet: the caller then inflates all
 * of it, so that the answer never depends on how much was inflated). */
static const char *decl_or_line(struct sym_inline *c, struct inl_file *f,
				uint64_t vaddr, size_t row, unsigned *line)
{
	Dwarf_Die cu, dies[SYM_INLINE_MAX];
	size_t n = 0;
	if (!unit_of(c, f, vaddr, &cu))
		return NULL;
	const struct cu_top *t = cu_top_get(f, &cu);
	descend_top(t, f->dw, 0, t->n, vaddr, dies, &n, 0);
	const char *file = decl_of(dies, n, row, line);
	if (!file && n && f->lazy && !lazy_info_complete(f->lazy))
		return NULL; /* the origin may be in a unit not inflated yet */
	return file ? file : addr_line(&cu, vaddr, line);
}

int sym_inline_decl(struct sym_inline *c, const struct sym_dso *d, uint64_t map_addr,
		    size_t row, struct sym_inline_frame *out)
{
	memset(out, 0, sizeof(*out));
	out->name = "??";
	if (d->kind != SYM_DSO_USER || !d->sym_path || d->name[0] == '[')
		return -1;
	struct inl_file *f = file_get(c, d->sym_path);
	if (!f->dw)
		return f->fd >= 0 ? 0 : -1;
	uint64_t vaddr = sym_segments_to_vaddr(d->segs, d->nsegs, map_addr);
	unsigned line = 0;
	const char *file = decl_or_line(c, f, vaddr, row, &line);
	if (!file && f->lazy && !lazy_info_complete(f->lazy) && go_whole(c, f))
		file = decl_or_line(c, f, vaddr, row, &line);
	if (!file)
		return 0;
	out->file = arena_strdup(&c->names, file);
	out->line = line;
	return 1;
}
