/*
 * session: read a perf.data file, replay its records in time order on a
 * machine, and hand each sample over with its call chain resolved to
 * maps, dsos and symbols.
 * Stage: process. Records are queued between FINISHED_ROUND markers and
 * delivered as perf's ordered-events queue delivers them: at each round,
 * everything up to the highest timestamp seen by the previous round,
 * sorted by time (stable); the rest at the end. Records without a
 * timestamp go through at once. Memory is bounded by one round, and
 * by 64 MiB and 10 s of recording time when rounds are missing (a
 * stream that never says FINISHED_ROUND): then the oldest events are
 * delivered early, as perf's ordered-events queue does.
 * Frame-pointer call chains are resolved as perf does: context markers
 * switch between kernel and user maps, at most max_stack real frames.
 * Ownership: a proc_sample and everything it points to is valid only
 * during the on_sample call; the machine, dsos and reader outlive it.
 */
#ifndef SCORCH_PROCESS_SESSION_H
#define SCORCH_PROCESS_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "perfdata/reader.h"
#include "process/machine.h"
#include "symbols/dso.h"

struct proc_frame {
	uint64_t ip;                 /* as recorded */
	uint64_t addr;               /* map address (what perf prints); ip without a map */
	const struct proc_map *map;  /* NULL: unknown */
	struct sym_dso *dso;         /* NULL: unknown */
	const struct sym_entry *sym; /* NULL: unknown */
	bool kernel;                 /* resolved in kernel maps */
	const char *inline_name;     /* an inlined-function row (perf prints
				      * "name+off (inlined)"), else NULL */
};

struct proc_sample {
	const struct pd_sample *s;   /* decoded fields (pointers stay valid) */
	struct proc_thread *thread;
	struct proc_frame *frames;   /* leaf first */
	size_t nframes;
};

struct proc_session;

typedef int (*proc_sample_fn)(void *ctx, struct proc_session *ses,
			      const struct proc_sample *ps);

/* What a session is asked for, given at open (NULL: the defaults). */
struct proc_session_opts {
	size_t max_stack;            /* frames per chain (perf script: 127);
				      * 0: only the sampled address */
	bool lazy;                   /* samples arrive without frames: the
				      * consumer resolves them on demand
				      * (proc_session_frames, the walk) */
	bool no_mmap2;               /* MMAP2 records map nothing: perf
				      * sched timehist handles only MMAP */
	bool forget_exited;          /* the machine forgets exited processes'
				      * threads (machine.h: a consumer that
				      * keeps no thread past a sample) */
};
#define PROC_SESSION_MAX_STACK 127
#define PROC_SESSION_OPTS_INIT { .max_stack = PROC_SESSION_MAX_STACK, .lazy = false, .no_mmap2 = false }

/*
 * Where chains come from besides the recorded ones: an unwinder
 * (unwind/sample.h, unw_perf_attach) hands this over once with
 * proc_session_chain_source and owns everything it points to. For
 * samples with user regs and a stack copy, chain writes the chain to
 * resolve instead of the sample's (kernel part, PD_CONTEXT_USER,
 * DWARF-unwound user frames) into buf (max entries) and returns its
 * length. Inline rows (symbols/inline.h), NULL for none: added to the
 * user frames of hooked chains, and of every chain when inline_all
 * (--inline). Frames without a symbol get none, as perf.
 */
struct proc_chain_source {
	size_t (*chain)(void *ctx, const struct pd_sample *s,
			uint64_t *out, size_t max);
	void *ctx;
	uint64_t *buf;
	size_t max;
	struct sym_inline *inl;
	bool inline_all;
};

enum { PROC_QEV_CLASSES = 64 };

/* The session's fields are its own: only src/process/ writes them. */
struct proc_session {
	struct pd_reader *reader;
	struct sym_dsos dsos;
	struct proc_machine machine;
	proc_sample_fn on_sample;
	int (*on_lost)(void *ctx, const struct pd_lost *l); /* see proc_session_on_lost */
	int (*on_task)(void *ctx, const struct pd_task *t);  /* see proc_session_on_task */
	void *ctx;
	struct proc_session_opts opts;
	struct proc_chain_source src; /* chain == NULL: recorded chains only */
	size_t chain_len;            /* src.buf holds the hook's output */
	const struct pd_sample *chain_of; /* ... for this sample */
	bool chain_valid;            /* ... since it was delivered */
	/* queue */
	struct proc_qev **q;
	size_t nq, qcap;
	size_t nsorted;              /* q[0, nsorted) is in delivery order */
	struct proc_qev **merge;     /* scratch for merging the sorted runs */
	size_t merge_cap;
	size_t *runs;                /* scratch: where ascending runs start */
	size_t runs_cap;
	uint64_t seq;
	uint64_t max_time, next_flush;
	uint64_t oldest;             /* no queued time is below it */
	size_t qbytes;               /* bytes the queue holds */
	bool rounds;                 /* a FINISHED_ROUND was seen */
	struct proc_qev *pool[PROC_QEV_CLASSES]; /* delivered events kept for
				      * reuse, by size class (session.c) */
	/* scratch */
	struct proc_frame *frames;
	size_t frames_cap;
	/* statistics */
	uint64_t nr_samples, nr_lost;
	struct diag diag;
};

/* Open path and read its header; cfg gives the symbol sources, opts
 * what is asked (NULL: the defaults). Returns 0 or negative with
 * ses->diag filled. */
int proc_session_open(struct proc_session *ses, const char *path,
		      const struct sym_config *cfg,
		      const struct proc_session_opts *opts);
/* Same over a reader the caller opened (pd_reader_open_fd): the session
 * takes it and frees it at proc_session_close. r NULL (the open failed)
 * gives -EINVAL, with ses->diag empty, and a session safe to close. */
int proc_session_attach(struct proc_session *ses, struct pd_reader *r,
			const struct sym_config *cfg,
			const struct proc_session_opts *opts);
/* Hand the session a chain source (see struct proc_chain_source), once,
 * before proc_session_run; NULL takes it back (recorded chains only).
 * The session copies the struct; what it points to stays the caller's. */
void proc_session_chain_source(struct proc_session *ses,
			       const struct proc_chain_source *src);
/* Replay all records; returns 0, the callback's non-zero value, or
 * negative (diag). Damage is not an error: see proc_session_damage. */
int proc_session_run(struct proc_session *ses, proc_sample_fn fn, void *ctx);
/* Before the run: LOST records (not LOST_SAMPLES) also go to fn, with the
 * run's ctx, in time order among the samples (perf's tool->lost). */
void proc_session_on_lost(struct proc_session *ses,
			  int (*fn)(void *ctx, const struct pd_lost *l));
/* Before the run: FORK and EXIT records also go to fn, with the run's
 * ctx, in time order, before the machine applies them (its threads as
 * they were). */
void proc_session_on_task(struct proc_session *ses,
			  int (*fn)(void *ctx, const struct pd_task *t));
/* The reader's damage message, or NULL when the file was clean. */
const struct diag *proc_session_damage(const struct proc_session *ses);
void proc_session_close(struct proc_session *ses);

/* With opts.lazy, samples arrive without frames: resolve them
 * on demand (frames borrowed until the next call). Returns the count. */
size_t proc_session_frames(struct proc_session *ses, const struct proc_sample *ps,
			   struct proc_frame **frames);
/* The raw chain the sample's frames come from (the hook's output when
 * hooked, else the recorded callchain; an empty one may still give the
 * sampled ip as frame): borrowed until the next sample. The hook runs
 * once per delivered sample, whichever of this and proc_session_frames
 * asks first. Returns its length. */
size_t proc_session_chain(struct proc_session *ses, const struct pd_sample *s,
			  const uint64_t **chain);
/* True when the sample's chain comes from the unwinder hook (its frames
 * depend on the stack copy, not only on the recorded ips). */
bool proc_session_hooked(const struct proc_session *ses, const struct pd_sample *s);

/*
 * A sample's chain address by address, as proc_session_frames resolves
 * it: context markers skipped and switching between kernel and user
 * maps, and whether an address expands into inline rows. A sample
 * without a chain walks its sampled ip alone. Addresses are added while
 * fewer than max_frames frames are there (opts.max_stack; 1 for the sampled
 * ip alone). Borrows the chain (see proc_session_chain).
 */
struct proc_chain_walk {
	const uint64_t *chain;
	uint64_t nr, i;
	uint64_t single;             /* the sampled ip, when it is the chain */
	size_t max_frames;
	bool hooked, markers, unwound, kernel, inl;
};
void proc_chain_walk_init(struct proc_session *ses, const struct pd_sample *s,
			  struct proc_chain_walk *w);
/* The next address: false at the end. */
bool proc_chain_walk_next(struct proc_chain_walk *w, uint64_t *ip, bool *kernel,
			  bool *inl);
/* The frames of one address of a walk: the frame, or its inline rows
 * (innermost first) when inl. Borrowed until the next call. Returns the
 * count (at least 1). */
size_t proc_session_ip_frames(struct proc_session *ses, struct proc_thread *t,
			      bool kernel, bool inl, uint64_t ip,
			      struct proc_frame **frames);

/* Resolve one address as perf does for a sample or chain entry. */
void proc_session_resolve(struct proc_session *ses, struct proc_thread *t,
			  bool kernel, uint64_t ip, struct proc_frame *out);

#endif
