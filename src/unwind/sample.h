/*
 * sample: DWARF unwinding of perf.data samples, wired to the process maps.
 * Stage: unwind. The hook fold/script/report call for every sample:
 * when the sample carries REGS_USER and STACK_USER (--call-graph dwarf),
 * unw_perf_callchain returns the call chain perf builds for it: the
 * kernel part of the sample's callchain, then PD_CONTEXT_USER and the
 * frames unwound from the user registers over the stack copy (ips[0]
 * the sampled user pc, the others return addresses minus one, as perf
 * script prints them), ended by UNW_PERF_END_MARK when the stack copy
 * ran out before the outermost frame, as perf does. Any other sample gets
 * its callchain unchanged, so callers can route every sample through here.
 *
 * Commands over a proc_session need only (see unw_perf_run):
 *   rc = unw_perf_run(&ses, no_inline ? UNW_INLINE_NONE : UNW_INLINE_DWARF,
 *                     on_sample, ctx, &sb);
 *   if (sb.len && rc >= 0) warn with sb.buf;
 * which is unw_perf_attach, proc_session_run, unw_perf_detach.
 *
 * Direct use (once per run, then per sample):
 *   struct unw_perf up;
 *   unw_perf_init(&up, &machine, features->arch, pd_reader_big_endian(r));
 *   uint64_t chain[UNW_PERF_MAX_CHAIN];
 *   size_t n = unw_perf_callchain(&up, sample, chain, UNW_PERF_MAX_CHAIN);
 *   ... walk chain[0..n) exactly like sample->callchain ...
 *   if (unw_perf_summary(&up, &sb)) warn once with sb.buf;
 *   unw_perf_release(&up);
 *
 * Ownership: the unw_perf borrows the machine (and its dsos) for its
 * lifetime and owns the unwinder session (ELF handles, CFI memo).
 */
#ifndef SCORCH_UNWIND_SAMPLE_H
#define SCORCH_UNWIND_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "perfdata/record.h"
#include "process/machine.h"
#include "process/session.h"
#include "symbols/inline.h"
#include "unwind/dwarf.h"

#define UNW_PERF_MAX_CHAIN 1024
/* Last entry of a chain whose unwinding ran out of stack copy: perf
 * shows it as "ffffffffffffffff [unknown]", the mark of a cut stack.
 * It follows PD_CONTEXT_USER, where it is an address, not a marker. */
#define UNW_PERF_END_MARK ((uint64_t)-1)
#define UNW_PERF_MAX_STACK 127  /* user frames, perf's default max-stack */

struct unw_perf {
	struct unw_session *sess;
	struct proc_machine *machine;
	enum unw_arch arch;          /* from the header's arch, else guessed */
	bool arch_from_header;
	bool big_endian;
	size_t max_stack;            /* user frames per sample */
	uint64_t dwarf_samples;      /* samples that went through the unwinder */
	uint64_t short_samples;      /* ... that stopped before the outermost frame */
	struct hmap missing;         /* dso names with no ELF file to unwind */
	const struct pd_reader *reader; /* for the arch of pipe files, or NULL */
	struct sym_inline *inl;      /* inline rows, when attached with them */
	uint64_t *chain;             /* session hook buffer */
	/* the last module found, reused while its thread, the machine's
	 * generation and the map's range hold */
	struct unw_module last;
	const struct proc_thread *last_thread;
	uint64_t last_generation;
	bool last_ok;
	struct unw_regs_map regs_map; /* the last samples' arch and mask */
	bool regs_map_set;
};

/* Which frames get inline rows (perf: DWARF chains by default). */
enum unw_inline { UNW_INLINE_NONE, UNW_INLINE_DWARF, UNW_INLINE_ALL };

/* The one call a perf.data command makes after proc_session_open: hands
 * the session a chain source (proc_session_chain_source) of DWARF
 * unwinding and inline rows as asked (--no-inline: NONE, default: DWARF, --inline: ALL). */
void unw_perf_attach(struct unw_perf *p, struct proc_session *ses,
		     enum unw_inline inl);
/* After proc_session_run, before proc_session_close: appends the
 * summary line (see unw_perf_summary) to sb and returns true when there
 * is one to warn about; takes the chain source back and frees everything. */
bool unw_perf_detach(struct unw_perf *p, struct proc_session *ses,
		     struct strbuf *sb);
/* The run of a perf.data command: attach, proc_session_run(ses, fn,
 * ctx), detach. Appends the summary line to summary when there is one
 * to warn about (nothing otherwise). Returns what proc_session_run
 * returned. */
int unw_perf_run(struct proc_session *ses, enum unw_inline inl,
		 proc_sample_fn fn, void *ctx, struct strbuf *summary);

/* arch_name: the perf header's arch ("x86_64", "aarch64"); NULL or
 * unknown leaves the arch to be guessed from the register mask. */
void unw_perf_init(struct unw_perf *p, struct proc_machine *m,
		   const char *arch_name, bool big_endian);
void unw_perf_release(struct unw_perf *p);

/* True when s has user registers and a non-empty stack copy. */
bool unw_perf_has_stack(const struct pd_sample *s);

/* The unwinder's view of s: registers mapped for arch (guessed from the
 * register mask when UNW_ARCH_UNKNOWN), the valid part of the stack copy
 * (borrowed from s). False when s has no usable 64-bit user registers
 * or stack copy. */
bool unw_sample_from_perf(const struct pd_sample *s, enum unw_arch arch,
			  bool big_endian, struct unw_sample *us);

/* The call chain of s into out[0..max) (see above); returns its length.
 * Never fails: a sample that can't be unwound keeps what its callchain
 * and sampled pc give. */
size_t unw_perf_callchain(struct unw_perf *p, const struct pd_sample *s,
			  uint64_t *out, size_t max);

/* One line for a single end-of-run warning ("N of M DWARF samples
 * stopped early: ...; no binary for: a, b"), appended to sb. Returns
 * false (sb untouched) when no binary was missing and at most 1% of the
 * DWARF samples stopped before their outermost frame. */
bool unw_perf_summary(const struct unw_perf *p, struct strbuf *sb);

#endif
