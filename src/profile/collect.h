/*
 * collect: the producer side of the profile model: what a resolved
 * sample gives the model. Stage: profile.
 * It maps a session's resolved frame (struct proc_frame) and thread to
 * frame descriptions, and holds the sample collector of `scorch fold`'s
 * perf.data input: the chain cache (profile/chain.h), the per-address
 * memo of frame ids, and the folded stack of each sample, named from
 * the frames' fields by prof_names (no "sym (dso)" text printed and
 * parsed back). The caller decides which samples count (filters, the
 * event) and their weight.
 *
 *   struct prof_frame_desc d;
 *   prof_desc_of_frame(&ps->frames[i], &d);
 *   uint32_t id = prof_frames_intern(&profile.frames, &d);
 *
 *   struct prof_collector c;
 *   prof_collector_init(&c, &collapse_options, &table);
 *   ... per sample, in proc_session_run's callback (the session opened
 *   with opts.lazy: frames are resolved here, on demand):
 *   prof_collector_add(&c, ses, ps, weight, event_name);
 *   prof_collector_release(&c);
 *
 * Ownership: the descriptions borrow the frame's and thread's strings
 * (symbol, inline and dso names, comm); prof_frames_intern copies them.
 * The collector adds to a stack_table it does not own. Cannot fail but
 * for allocation (fatal).
 */
#ifndef SCORCH_PROFILE_COLLECT_H
#define SCORCH_PROFILE_COLLECT_H

#include "base/u64map.h"
#include "process/session.h"
#include "profile/chain.h"
#include "profile/frame.h"
#include "profile/profile.h"
#include "stacks/table.h"

/* A resolved frame: a SYMBOL (an inline row is a SYMBOL named by its
 * function, flagged PROF_F_INLINE, in the object of the address), or an
 * ADDRESS when no symbol was found; PROF_F_KERNEL or PROF_F_USER by the
 * maps that resolved it, PROF_F_JIT for a perf-PID.map object. Folded,
 * it names as perf script's "sym (dso)" line does under
 * stackcollapse-perf.pl ("name (inlined)" for inline rows). */
void prof_desc_of_frame(const struct proc_frame *f, struct prof_frame_desc *d);
/* The process frame of a sample: comm, pid and tid. */
void prof_desc_of_comm(const char *comm, int32_t pid, int32_t tid,
		       struct prof_frame_desc *d);

/* The process name stackcollapse-perf.pl takes for a sample of tid -1
 * from the header perf script prints for it (ev: the event name ending
 * it, NULL for a tracepoint) into pname (o finished; scratch is
 * scratch); false when Perl drops the sample. */
bool prof_minus_one_pname(const struct collapse_opts *o, const struct proc_sample *ps,
			  const char *ev, struct strbuf *scratch, struct strbuf *pname);

struct prof_ip_variant;

struct prof_collector {
	struct stack_table *out;      /* where stacks go (not owned) */
	struct collapse_opts copts;   /* finished */
	struct prof_frames frames;    /* every frame met, by identity */
	struct prof_names names;      /* their folded names */
	struct hmap frame_ids;        /* session's frame pointers -> frame id */
	struct prof_chain_cache chains; /* chain -> stack id in out */
	struct u64map ip_memo;        /* map address -> index + 1 in ipv of its
				       * latest variant (see collect.c) */
	struct prof_ip_variant *ipv;
	size_t nipv, ipv_cap;
	uint32_t *ids;                /* per memo entry: count, frame ids */
	size_t nids, ids_cap;
	struct profile *model;        /* also fed when not NULL (not owned) */
	uint32_t *model_of;           /* frame id -> model's frame id + 1, 0: none yet */
	size_t model_of_cap;
	uint32_t *chain;              /* scratch: the frame ids of a new chain */
	size_t nchain, chain_cap;
	uint64_t untimed;             /* samples given to model without a time */
	struct stack_builder b;
	struct strbuf pname, scratch;
	size_t last;                  /* id in out of the last stack added */
	struct sym_inline *src_inl;   /* with prof_collector_sources: where
				       * frames' functions are defined */
	struct prof_src *src;         /* frame id -> its source */
	size_t nsrc, src_cap;         /* frames looked up, room */
	struct hmap src_files;        /* source file -> id */
};

/* o: the naming options (copied, then finished). */
void prof_collector_init(struct prof_collector *c, const struct collapse_opts *o,
			 struct stack_table *out);
void prof_collector_release(struct prof_collector *c);
/* Also add every sample to model: its stack of frame ids by identity
 * (the process frame first, then the frames root first) and a row with
 * the model's columns of time, pid, tid, cpu (a sample without a
 * recorded time gets 0 and counts in c->untimed). */
void prof_collector_model(struct prof_collector *c, struct profile *model);
/* Add ps's folded stack to out with weight: what stackcollapse-perf.pl
 * makes of perf script's lines for it. ev is the event name perf script
 * ends the header with (NULL: a tracepoint, whose fields follow), used
 * only to name a task of tid -1 as Perl does. Returns false when Perl
 * would drop the sample (nothing added); else c->last is the id in
 * out of the stack it was added to. */
bool prof_collector_add(struct prof_collector *c, struct proc_session *ses,
			const struct proc_sample *ps, uint64_t weight, const char *ev);

/* Also look up, for each new symbol frame of a user object, where its
 * function is defined (symbols/inline.h: sym_inline_decl, from the
 * address the frame was first met at), for prof_collector_each_name.
 * Costs a DWARF walk per frame: only the HTML explorer asks. */
void prof_collector_sources(struct prof_collector *c);

/* A frame's source: file id in src_files + 1 (0: unknown), line (0:
 * unknown). */
struct prof_src {
	uint32_t file, line;
};

/* What prof_collector_each_name tells of a folded name: the frame's
 * object (NULL when unknown), its enum prof_frame_flag bits and, with
 * prof_collector_sources, where its function is defined (file NULL
 * when unknown, line 0 when unknown). */
struct prof_name_info {
	const char *dso;
	size_t dso_len;
	unsigned flags;
	const char *file;
	size_t file_len;
	unsigned line;
};

/* Call fn once per name of every symbol or address frame met with what
 * is known of its frame: which module a folded name came from (a name
 * met in several objects is given once per frame). Names as a non-Java
 * process names them. */
typedef void (*prof_name_fn)(void *ctx, const char *name, size_t len,
			     const struct prof_name_info *in);
void prof_collector_each_name(struct prof_collector *c, prof_name_fn fn, void *ctx);

#endif
