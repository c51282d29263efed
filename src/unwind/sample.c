/*
 * sample: perf samples through the DWARF unwinder (see sample.h).
 * Stage: unwind. Finds code through the machine's maps (thread of the
 * sample -> map -> dso -> ELF path from the dso's symbol sources),
 * converts REGS_USER with the file's arch, and splices the unwound user
 * frames after the kernel part of the callchain. Invariant: output never
 * exceeds max, and every sample yields at least what its callchain had.
 */
#include "unwind/sample.h"

#include "base/xalloc.h"
#include "symbols/dso.h"

#include <stdlib.h>
#include <string.h>

void unw_perf_init(struct unw_perf *p, struct proc_machine *m,
		   const char *arch_name, bool big_endian)
{
	memset(p, 0, sizeof(*p));
	p->sess = unw_session_new();
	p->machine = m;
	p->arch = unw_arch_from_name(arch_name);
	p->arch_from_header = p->arch != UNW_ARCH_UNKNOWN;
	p->big_endian = big_endian;
	p->max_stack = UNW_PERF_MAX_STACK;
	hmap_init(&p->missing);
}

void unw_perf_release(struct unw_perf *p)
{
	unw_session_free(p->sess);
	hmap_release(&p->missing);
	p->sess = NULL;
}

bool unw_perf_has_stack(const struct pd_sample *s)
{
	return s->regs_user.abi != 0 && s->regs_user.nr > 0 && s->stack &&
	       s->stack_dyn_size > 0;
}

/* perf's masks: x86_64 never samples bits >= 24, aarch64 has 33. */
static enum unw_arch guess_arch(uint64_t mask)
{
	if (mask >> 32)
		return UNW_ARCH_AARCH64;
	if (mask & (1ULL << 8))
		return UNW_ARCH_X86_64;
	return UNW_ARCH_UNKNOWN;
}

struct find_ctx {
	struct unw_perf *p;
	struct proc_thread *t;
};

static void note_missing(struct unw_perf *p, struct sym_dso *d)
{
	d->missing_named = true; /* the summary names it */
	hmap_put(&p->missing, d->name, strlen(d->name), NULL);
}

/* The module of the previous lookup still holds addr: same thread, no
 * COMM, FORK or MMAP since (the machine's generation), inside its map. */
static bool last_module(const struct find_ctx *fc, uint64_t addr, struct unw_module *m)
{
	const struct unw_perf *p = fc->p;
	if (!p->last_ok || p->last_thread != fc->t ||
	    p->last_generation != p->machine->generation ||
	    addr < p->last.start || addr >= p->last.end)
		return false;
	*m = p->last;
	return true;
}

static int find_module(void *ctx, uint64_t addr, struct unw_module *m)
{
	struct find_ctx *fc = ctx;
	struct proc_machine *mach = fc->p->machine;
	if (last_module(fc, addr, m))
		return 0;
	const struct proc_map *map = proc_thread_find_map(mach, fc->t, false, addr);
	if (!map || !map->dso || map->identity)
		return -1;
	struct sym_dso *d = map->dso;
	sym_dsos_load(mach->dsos, d);
	m->path = d->elf_path ? d->elf_path : d->sym_path;
	m->debug_path = d->sym_path;
	if (!m->path) {
		note_missing(fc->p, d);
		return -1;
	}
	m->start = map->start;
	m->end = map->end;
	m->pgoff = map->pgoff;
	fc->p->last = *m;
	fc->p->last_thread = fc->t;
	fc->p->last_generation = mach->generation;
	fc->p->last_ok = true;
	return 0;
}

/* Copy the callchain up to its user part (or all of it when keep_user). */
static size_t kernel_part(const struct pd_sample *s, uint64_t *out, size_t max,
			  bool keep_user)
{
	size_t n = 0;
	if (!(s->sample_type & PD_SAMPLE_CALLCHAIN))
		return 0;
	for (uint64_t i = 0; i < s->nr_callchain && n < max; i++) {
		if (!keep_user && s->callchain[i] == PD_CONTEXT_USER)
			break;
		out[n++] = s->callchain[i];
	}
	return n;
}

/* unw_sample_from_perf with the sample's registers through map (of
 * the sample's arch and mask). */
static bool fill_sample(const struct pd_sample *s, const struct unw_regs_map *map,
			bool big_endian, struct unw_sample *us)
{
	memset(us, 0, sizeof(*us));
	us->arch = map->arch;
	if (!unw_perf_has_stack(s) ||
	    s->regs_user.abi != 2 ||   /* PERF_SAMPLE_REGS_ABI_64 only */
	    unw_regs_map_apply(map, s->regs_user.regs, s->regs_user.nr, &us->regs) != 0)
		return false;
	us->stack = s->stack;
	us->stack_size = s->stack_dyn_size <= s->stack_size ? s->stack_dyn_size
							    : s->stack_size;
	us->big_endian = big_endian;
	return true;
}

static enum unw_arch sample_arch(const struct pd_sample *s, enum unw_arch arch)
{
	return arch != UNW_ARCH_UNKNOWN ? arch : guess_arch(s->regs_user.mask);
}

bool unw_sample_from_perf(const struct pd_sample *s, enum unw_arch arch,
			  bool big_endian, struct unw_sample *us)
{
	struct unw_regs_map map;
	unw_regs_map_init(&map, sample_arch(s, arch), s->regs_user.mask);
	return fill_sample(s, &map, big_endian, us);
}

/* The sample's register map: the last one, while arch and mask repeat
 * (they come from the event's attr: one or a few per file). */
static const struct unw_regs_map *regs_map(struct unw_perf *p,
					   const struct pd_sample *s)
{
	enum unw_arch arch = sample_arch(s, p->arch);
	if (!p->regs_map_set || p->regs_map.arch != arch ||
	    p->regs_map.mask != s->regs_user.mask) {
		unw_regs_map_init(&p->regs_map, arch, s->regs_user.mask);
		p->regs_map_set = true;
	}
	return &p->regs_map;
}

/* Pipe files announce their arch in a HEADER_FEATURE record, after the
 * first samples maybe: look again until it is known. */
static void update_arch(struct unw_perf *p)
{
	if (p->arch_from_header || !p->reader)
		return;
	const struct pd_features *f = pd_reader_features(p->reader);
	p->arch = unw_arch_from_name(f ? f->arch : NULL);
	p->arch_from_header = p->arch != UNW_ARCH_UNKNOWN;
}

size_t unw_perf_callchain(struct unw_perf *p, const struct pd_sample *s,
			  uint64_t *out, size_t max)
{
	struct unw_sample us;
	update_arch(p);
	if (!fill_sample(s, regs_map(p, s), p->big_endian, &us))
		return kernel_part(s, out, max, true);
	size_t n = kernel_part(s, out, max, false);
	if (n + 2 > max)
		return n;
	out[n++] = PD_CONTEXT_USER;
	struct find_ctx fc = { p, proc_machine_findnew_thread(p->machine, s->pid, s->tid) };
	us.space = fc.t->maps_id + 1;   /* its maps, as of this generation */
	us.space_gen = p->machine->generation;
	struct unw_result res;
	size_t room = max - n < p->max_stack ? max - n : p->max_stack;
	n += unw_dwarf_unwind(p->sess, &us, find_module, &fc, out + n, room, &res);
	if (res.stop == UNW_STOP_MEMORY && n < max)
		out[n++] = UNW_PERF_END_MARK;
	p->dwarf_samples++;
	if (res.stop != UNW_STOP_END && res.stop != UNW_STOP_DEPTH)
		p->short_samples++;
	return n;
}

bool unw_perf_summary(const struct unw_perf *p, struct strbuf *sb)
{
	const struct unw_stats *st = unw_session_stats(p->sess);
	/* a few samples at exec or in code without CFI are normal (perf
	 * stops there too): warn for absent binaries or more than 1% */
	if (!p->short_samples ||
	    (!p->missing.count && p->short_samples * 100 <= p->dwarf_samples))
		return false;
	sb_addf(sb, "%llu of %llu DWARF samples stopped before the outermost frame (",
		(unsigned long long)p->short_samples,
		(unsigned long long)p->dwarf_samples);
	const char *sep = "";
	for (int i = UNW_STOP_END + 1; i < UNW_STOP_COUNT; i++) {
		if (!st->stops[i] || i == UNW_STOP_DEPTH)
			continue;
		sb_addf(sb, "%s%s: %llu", sep, unw_stop_name((enum unw_stop)i),
			(unsigned long long)st->stops[i]);
		sep = ", ";
	}
	sb_adds(sb, ")");
	for (size_t i = 0; i < p->missing.count && i < 5; i++)
		sb_addf(sb, "%s%s", i ? ", " : "; no binary for ",
			p->missing.entries[i].key);
	if (p->missing.count > 5)
		sb_addf(sb, " and %zu more", p->missing.count - 5);
	return true;
}

static size_t session_hook(void *ctx, const struct pd_sample *s, uint64_t *out,
			   size_t max)
{
	return unw_perf_callchain(ctx, s, out, max);
}

void unw_perf_attach(struct unw_perf *p, struct proc_session *ses,
		     enum unw_inline inl)
{
	unw_perf_init(p, &ses->machine, NULL, pd_reader_big_endian(ses->reader));
	p->reader = ses->reader;
	update_arch(p);
	p->chain = xmalloc(UNW_PERF_MAX_CHAIN * sizeof(*p->chain));
	struct proc_chain_source src = {
		.chain = session_hook, .ctx = p,
		.buf = p->chain, .max = UNW_PERF_MAX_CHAIN,
	};
	if (inl != UNW_INLINE_NONE) {
		p->inl = sym_inline_new();
		/* a proc_frame carries the inline name, no file or line */
		sym_inline_names_only(p->inl);
		src.inl = p->inl;
		src.inline_all = inl == UNW_INLINE_ALL;
	}
	proc_session_chain_source(ses, &src);
}

bool unw_perf_detach(struct unw_perf *p, struct proc_session *ses,
		     struct strbuf *sb)
{
	bool warn = unw_perf_summary(p, sb);
	proc_session_chain_source(ses, NULL);
	sym_inline_free(p->inl);
	free(p->chain);
	p->inl = NULL;
	p->chain = NULL;
	unw_perf_release(p);
	return warn;
}

int unw_perf_run(struct proc_session *ses, enum unw_inline inl,
		 proc_sample_fn fn, void *ctx, struct strbuf *summary)
{
	struct unw_perf up;
	unw_perf_attach(&up, ses, inl);
	int rc = proc_session_run(ses, fn, ctx);
	unw_perf_detach(&up, ses, summary);
	return rc;
}
