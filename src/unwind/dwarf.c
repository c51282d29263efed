/*
 * dwarf: the CFI unwinder over sample stack copies (see dwarf.h).
 * Stage: unwind. Per ELF path the session keeps one unw_dso: the opened
 * Elf, its .eh_frame CFI, the .debug_frame CFI (of the separate debug
 * file when one is named; loaded only when .eh_frame falls short), its
 * PT_LOAD headers (to turn a mapped address into a file address) and a
 * memo from file address to the compiled CFI row (rules.c). Invariant:
 * a path is opened at most once per session, failures included.
 */
#include "unwind/dwarf.h"

#include "base/hmap.h"
#include "base/u64map.h"
#include "base/xalloc.h"
#include "symbols/elf.h"
#include "unwind/frame.h"

#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MEMO_MAX 12288               /* rows per file; then the memo restarts */
#define MAX_LOADS 16
#define DSO_CACHE 8                  /* recent ELF paths, by pointer */
#define MAX_FLAT 4                   /* steps in a row that keep sp */
#define PCACHE 4096                  /* pc -> CFI row slots, a power of 2 */
#define ENTRY_SPAN 128               /* bytes of entry code without CFI (ld.so: _start, _dl_start_user) */

struct elf_file {
	int fd;
	Elf *elf;
};

struct unw_dso {
	const char *path;                /* key in the session's path map */
	bool ok;                         /* the ELF opened */
	struct elf_file main, debug;
	char *debug_path;                /* separate debug file, or NULL */
	bool dbg_tried;                  /* .debug_frame looked for */
	Dwarf *dw;                       /* of debug (for .debug_frame) */
	Dwarf_CFI *eh, *dbg;             /* either may be NULL */
	GElf_Phdr loads[MAX_LOADS];
	size_t nloads;
	uint64_t entry;                  /* e_entry (0: none) */
	struct u64map memo;              /* file address -> struct unw_rules *
					  * (0: no CFI covers the address) */
};

struct dso_cache_slot {
	const char *path;                /* the caller's pointer */
	struct unw_dso *dso;
};

/* A pc's CFI row in one address space generation (unw_sample.space). */
struct pc_slot {
	uint64_t pc, space, gen;
	const struct unw_rules *rs;      /* NULL: empty */
};

struct unw_session {
	struct hmap paths;               /* ELF path -> index into dsos */
	struct unw_dso **dsos;
	size_t ndsos, dsos_cap;
	struct dso_cache_slot recent[DSO_CACHE];
	struct pc_slot pcache[PCACHE];   /* skips module lookup and memo */
	struct unw_stats stats;
};

static void file_close(struct elf_file *f)
{
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
	f->elf = NULL;
	f->fd = -1;
}

/* Open path as an ELF file; false (f closed) when it is not one. */
static bool file_open(struct elf_file *f, const char *path)
{
	f->elf = NULL;
	f->fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	if (f->fd < 0)
		return false;
	f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	if (!f->elf || elf_kind(f->elf) != ELF_K_ELF) {
		file_close(f);
		return false;
	}
	return true;
}

static void load_phdrs(struct unw_dso *d)
{
	size_t n = 0;
	if (elf_getphdrnum(d->main.elf, &n) != 0)
		return;
	for (size_t i = 0; i < n && d->nloads < MAX_LOADS; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(d->main.elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			d->loads[d->nloads++] = ph;
	}
}

static struct unw_dso *dso_open(const char *path, const char *debug_path)
{
	struct unw_dso *d = xcalloc(1, sizeof(*d));
	d->main.fd = d->debug.fd = -1;
	d->ok = file_open(&d->main, path);
	if (!d->ok)
		return d;
	load_phdrs(d);
	GElf_Ehdr eh;
	if (gelf_getehdr(d->main.elf, &eh))
		d->entry = eh.e_entry;
	d->eh = dwarf_getcfi_elf(d->main.elf);
	d->debug_path = debug_path ? xstrdup(debug_path) : NULL;
	return d;
}

/* .debug_frame, looked for only when .eh_frame lacks an address: opening
 * a debug file decompresses all its DWARF sections. From the separate
 * debug file when there is one, else from the ELF itself. */
static void load_debug_frame(struct unw_dso *d)
{
	d->dbg_tried = true;
	Elf *e = d->debug_path && file_open(&d->debug, d->debug_path)
			 ? d->debug.elf : d->main.elf;
	if (!sym_elf_section(e, ".debug_frame"))   /* x86_64 debug files: only .eh_frame */
		return;
	d->dw = dwarf_begin_elf(e, DWARF_C_READ, NULL);
	d->dbg = d->dw ? dwarf_getcfi(d->dw) : NULL;
}

/* u64map_each callback: a memo value is a struct unw_rules *. */
static void free_rules(uint64_t val, void *ctx)
{
	(void)ctx;
	unw_rules_free((struct unw_rules *)(uintptr_t)val);
}

static void memo_clear(struct unw_dso *d)
{
	u64map_each(&d->memo, free_rules, NULL);
	u64map_clear(&d->memo);
}

static void dso_free(struct unw_dso *d)
{
	if (!d)
		return;
	memo_clear(d);
	u64map_release(&d->memo);
	if (d->eh)
		dwarf_cfi_end(d->eh);
	if (d->dw)
		dwarf_end(d->dw); /* also ends d->dbg */
	file_close(&d->debug);
	file_close(&d->main);
	free(d->debug_path);
	free(d);
}

struct unw_session *unw_session_new(void)
{
	struct unw_session *u = xcalloc(1, sizeof(*u));
	elf_version(EV_CURRENT);
	hmap_init(&u->paths);
	return u;
}

void unw_session_free(struct unw_session *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->ndsos; i++)
		dso_free(u->dsos[i]);
	free(u->dsos);
	hmap_release(&u->paths);
	free(u);
}

const struct unw_stats *unw_session_stats(const struct unw_session *u)
{
	return &u->stats;
}

static struct unw_dso *dso_by_name(struct unw_session *u,
				   const struct unw_module *m)
{
	bool added;
	size_t id = hmap_put(&u->paths, m->path, strlen(m->path), &added);
	if (!added)
		return u->dsos[id];
	XGROW(u->dsos, u->dsos_cap, u->ndsos + 1);
	u->dsos[u->ndsos++] = dso_open(m->path, m->debug_path);
	u->dsos[id]->path = hmap_at(&u->paths, id)->key;
	if (!u->dsos[id]->ok)
		u->stats.files_missing++;
	return u->dsos[id];
}

/* The dso for m->path: first among the recent ones (by the caller's
 * pointer, which unw_module says stays valid and unchanged), then
 * through the path map. */
static struct unw_dso *session_dso(struct unw_session *u,
				   const struct unw_module *m)
{
	size_t slot = ((uintptr_t)m->path >> 4) % DSO_CACHE;
	struct dso_cache_slot *c = &u->recent[slot];
	if (c->path != m->path || !c->dso) {
		c->path = m->path;
		c->dso = dso_by_name(u, m);
	}
	return c->dso;
}


/* File address of a mapped address, through the PT_LOAD that holds its
 * file offset; false when none does. */
static bool file_addr(const struct unw_dso *d, const struct unw_module *m,
		      uint64_t addr, uint64_t *out)
{
	uint64_t off = addr - m->start + m->pgoff;
	for (size_t i = 0; i < d->nloads; i++) {
		const GElf_Phdr *ph = &d->loads[i];
		if (off >= ph->p_offset && off - ph->p_offset < ph->p_memsz) {
			*out = off - ph->p_offset + ph->p_vaddr;
			return true;
		}
	}
	return false;
}

static Dwarf_Frame *cfi_lookup(struct unw_dso *d, uint64_t addr)
{
	Dwarf_Frame *fr = NULL;
	if (d->eh && dwarf_cfi_addrframe(d->eh, addr, &fr) == 0)
		return fr;
	if (!d->dbg_tried)
		load_debug_frame(d);
	if (d->dbg && dwarf_cfi_addrframe(d->dbg, addr, &fr) == 0)
		return fr;
	return NULL;
}

/* The compiled CFI row for a file address (NULL when no CFI covers it),
 * from the memo or compiled now. A memo past MEMO_MAX rows starts over:
 * a long run's hot addresses come back at once. */
static struct unw_rules *memo_find(struct unw_session *u, struct unw_dso *d,
				   uint64_t addr, const struct unw_arch_info *ai)
{
	uint64_t *v = u64map_find(&d->memo, addr);
	if (v) {
		u->stats.memo_hits++;
		return (struct unw_rules *)(uintptr_t)*v;
	}
	u->stats.memo_misses++;
	if (d->memo.used >= MEMO_MAX) {
		memset(u->pcache, 0, sizeof(u->pcache));   /* rows are freed */
		memo_clear(d);
	}
	Dwarf_Frame *fr = cfi_lookup(d, addr);
	struct unw_rules *rs = fr ? unw_rules_compile(fr, ai) : NULL;
	bool added;
	*u64map_put(&d->memo, addr, &added) = (uint64_t)(uintptr_t)rs;
	return rs;
}

struct walk {
	struct unw_session *u;
	unw_find_fn find;
	void *ctx;
	struct unw_frame *f;        /* the frame being stepped: one of fr */
	struct unw_frame fr[2];     /* a step writes the other one's regs */
	bool exact_pc;       /* pc is not a return address (frame 0, signal) */
	bool used_fp;
};

/* The process's first frame: a file's entry point code (ld.so's
 * _start and _dl_start_user have no CFI: they call _dl_start and
 * _dl_init, then jump to the program), where a stack ends. */
static bool at_entry(const struct unw_dso *d, uint64_t addr)
{
	return d->entry && addr >= d->entry && addr - d->entry < ENTRY_SPAN;
}

/* One CFI step with the row found for the frame's pc. */
static int apply_rules(struct walk *w, const struct unw_rules *rs,
		       struct unw_regs *next)
{
	w->used_fp = false;
	w->exact_pc = unw_rules_signal(rs);
	if (w->f->ai->ra_is_pc) {
		w->f->regs.r[w->f->ai->ra] = w->f->regs.pc;
		w->f->regs.valid |= 1ULL << w->f->ai->ra;
	}
	return unw_rules_step(w->f, rs, next);
}

/* The slot of pc when the sample names its address space, else NULL. */
static struct pc_slot *pc_slot(struct walk *w, uint64_t pc)
{
	const struct unw_sample *smp = w->f->smp;
	if (!smp->space)
		return NULL;
	return &w->u->pcache[(pc ^ pc >> 12) & (PCACHE - 1)];
}

/* Step w->f to its caller. Returns 0 or a unw_stop code. */
static int step(struct walk *w, struct unw_regs *next)
{
	struct unw_module m = { NULL, NULL, 0, 0, 0 };
	uint64_t pc = w->f->regs.pc - (w->exact_pc ? 0 : 1);
	uint64_t addr;
	const struct unw_sample *smp = w->f->smp;
	struct pc_slot *slot = pc_slot(w, pc);
	if (slot && slot->rs && slot->pc == pc && slot->space == smp->space &&
	    slot->gen == smp->space_gen)
		return apply_rules(w, slot->rs, next);

	if (w->find(w->ctx, pc, &m) != 0 || !m.path)
		return UNW_STOP_NO_MODULE;
	struct unw_dso *d = session_dso(w->u, &m);
	if (!d->ok)
		return UNW_STOP_NO_MODULE;
	struct unw_rules *rs = NULL;
	bool mapped = file_addr(d, &m, pc, &addr);
	if (mapped)
		rs = memo_find(w->u, d, addr, w->f->ai);
	if (!rs && mapped && at_entry(d, addr))
		return UNW_STOP_END;
	if (!rs) {
		w->used_fp = true;
		w->exact_pc = false;
		return unw_fp_step(w->f, next);
	}
	if (slot)
		*slot = (struct pc_slot){ pc, smp->space, smp->space_gen, rs };
	return apply_rules(w, rs, next);
}

static void walk_init(struct walk *w, struct unw_session *u,
		      const struct unw_sample *smp, unw_find_fn find, void *ctx)
{
	w->u = u;
	w->find = find;
	w->ctx = ctx;
	const struct unw_arch_info *ai = unw_arch_info(smp->arch);
	uint64_t base = ai ? smp->regs.r[ai->sp] : 0;
	for (int i = 0; i < 2; i++) {
		w->fr[i].ai = ai;
		w->fr[i].smp = smp;
		w->fr[i].stack_base = base;
	}
	w->f = &w->fr[0];
	w->f->regs = smp->regs;
	w->exact_pc = true;
	w->used_fp = false;
}

static size_t finish(struct unw_session *u, struct unw_result *res, size_t n,
		     int stop, size_t fp_from)
{
	res->n = n;
	res->stop = (enum unw_stop)stop;
	res->fp_from = fp_from < n ? fp_from : n;
	u->stats.samples++;
	u->stats.frames += n;
	u->stats.stops[stop]++;
	if (fp_from < n)
		u->stats.fp_frames += n - fp_from;
	return n;
}

/*
 * The loop guard. A caller's sp is above its callee's, or equal when
 * the callee keeps its return address in a register and has not touched
 * the stack: an aarch64 leaf (lr), __libc_vfork after popping it into
 * rdi. Equal sp is allowed while the pc moves, a few times in a row;
 * a lower sp, or the same pc at the same sp, is a loop.
 */
static bool no_progress(const struct walk *w, const struct unw_regs *next,
			unsigned *flat)
{
	uint64_t sp = w->f->regs.r[w->f->ai->sp], nsp = next->r[w->f->ai->sp];
	if (nsp > sp) {
		*flat = 0;
		return false;
	}
	return nsp < sp || next->pc == w->f->regs.pc || ++*flat > MAX_FLAT;
}

size_t unw_dwarf_unwind(struct unw_session *u, const struct unw_sample *smp,
			unw_find_fn find, void *ctx, uint64_t *ips, size_t max,
			struct unw_result *res)
{
	struct walk w;
	size_t n = 0, fp_from = SIZE_MAX;
	unsigned flat = 0;

	walk_init(&w, u, smp, find, ctx);
	if (max > UNW_MAX_DEPTH)
		max = UNW_MAX_DEPTH;
	if (!w.f->ai || !smp->regs.has_pc ||
	    !(smp->regs.valid & (1ULL << w.f->ai->sp)) || max == 0)
		return finish(u, res, 0, UNW_STOP_BAD_REGS, fp_from);
	ips[n++] = smp->regs.pc;
	for (;;) {
		/* the caller's registers go to the other frame, which then
		 * becomes the current one: no copy per step */
		struct unw_frame *caller = w.f == &w.fr[0] ? &w.fr[1] : &w.fr[0];
		struct unw_regs *next = &caller->regs;
		int stop = step(&w, next);
		if (stop)
			return finish(u, res, n, stop, fp_from);
		if (no_progress(&w, next, &flat))
			return finish(u, res, n, UNW_STOP_LOOP, fp_from);
		if (next->pc == 0)
			return finish(u, res, n, UNW_STOP_END, fp_from);
		if (n >= max)
			return finish(u, res, n, UNW_STOP_DEPTH, fp_from);
		if (w.used_fp && fp_from == SIZE_MAX)
			fp_from = n;
		ips[n++] = next->pc - (w.exact_pc ? 0 : 1);
		w.f = caller;
	}
}

const char *unw_stop_name(enum unw_stop s)
{
	static const char *const names[UNW_STOP_COUNT] = {
		"none", "end of stack", "no module", "no CFI", "stack copy exhausted",
		"loop", "depth limit", "bad registers",
	};
	return (unsigned)s < UNW_STOP_COUNT ? names[s] : "?";
}
