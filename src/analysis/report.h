/*
 * report: the histogram `perf report` builds from samples: one entry
 * per distinct sort key (comm, pid, dso, sym, cpu, parent, trace,
 * symbol_size, srcline), its self
 * period and sample count, and, with call chains, the children period
 * (every function on a chain gets the sample's period once) and a call
 * tree per entry, merged as perf merges chains (by function, an
 * unresolved frame by address).
 * Stage: analysis (records -> numbers). A proc_session delivers samples
 * with their frames resolved; rep_add takes them one by one.
 * Perf's rules kept here: a self entry names an unresolved sample by
 * its map address, a chain entry by the recorded address; an entry is
 * added once per sample even when a function recurs; the chain of a
 * children-only entry is the part of the sample's chain from it on (in
 * display order); entries sort by children period, then callers above
 * callees of a thread, then self period, then keys ascending (or by the
 * -F fields), ties falling where perf's red-black trees put them; call
 * trees are built at rep_sort, only for the entries perf shows one for,
 * and only as deep as a graph can show.
 * Ownership: the rep owns its arrays and inline names; entries and
 * frames borrow symbol names and dsos from the session, which must
 * outlive the rep's use.
 */
#ifndef SCORCH_ANALYSIS_REPORT_H
#define SCORCH_ANALYSIS_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/tracepoint.h"
#include "base/hmap.h"
#include "base/strbuf.h"
#include "base/u64map.h"
#include "process/session.h"
#include "symbols/inline.h"

/* REP_IPC is no key of its own: perf 6.1 adds it after symbol_size, an
 * "IPC" column of dashes that separates entries by symbol */
enum rep_key { REP_COMM, REP_PID, REP_DSO, REP_SYM, REP_CPU, REP_PARENT, REP_TRACE,
	       REP_SYMSIZE, REP_IPC, REP_SRCLINE, REP_NKEY };
#define REP_MAX_KEYS 8
#define REP_NONE UINT32_MAX
/* -F fields besides the keys (a field is a key or one of these) */
enum { REP_F_CHILDREN = 64, REP_F_OVERHEAD, REP_F_PERIOD, REP_F_SAMPLE };
#define REP_MAX_FIELDS 16

enum rep_order { REP_CALLEE, REP_CALLER };

struct rep_opts {
	enum rep_key keys[REP_MAX_KEYS];
	size_t nkeys;
	bool children;          /* cumulate along call chains */
	bool chains;            /* keep a call tree per entry */
	enum rep_order order;   /* display order of chains */
	size_t max_stack;       /* addresses per chain, from the leaf when
				 * callee first, else from the root (perf) */
	int fields[REP_MAX_FIELDS]; /* -F: the columns and the sort order */
	size_t nfields;         /* 0: perf's default columns and order */
	int sort[REP_MAX_FIELDS]; /* -F with -s: the sort order (-s keys,
				 * then the other fields); 0: fields' */
	size_t nsort;
};

/* One place, as a hist entry or a callchain entry holds it. */
struct rep_frame {
	const struct sym_dso *dso;
	const struct sym_entry *sym;
	const char *inl;        /* inline row: the function's name, else NULL */
	uint64_t ip;            /* unresolved: the address perf shows */
	char level;             /* '.', 'k', ... */
};

/* A call tree node: one frame of merged chains. */
struct rep_node {
	uint32_t frame;         /* index in frames; REP_NONE for a root */
	uint32_t kid, next;     /* first child, next sibling (REP_NONE) */
	uint32_t nkids;
	uint32_t parent;        /* REP_NONE for a root */
	uint32_t rank;          /* its place + 1 among its siblings in
				 * perf's tree of them (which breaks ties
				 * of their periods) */
	uint64_t hit;           /* period of chains ending here */
	uint64_t cumul;         /* period of chains through here (rep_sort) */
};

struct rep_entry {
	/* what each frame of a sample touches first, together */
	uint64_t acc;           /* children period */
	uint64_t mark;          /* the last sample that added to it */
	uint32_t max_depth;     /* longest chain added to the tree */
	uint32_t root;          /* call tree, REP_NONE without chains */
	uint32_t risk;          /* its class at risk (index + 1), 0: none */
	uint64_t period, samples;
	struct rep_frame f;
	const char *comm;
	const struct proc_thread *thread; /* the first sample's */
	uint32_t thread_forks;  /* its nfork then: perf makes a new thread
				 * at each FORK of a tid (pids wrap) */
	const char *thread_comm; /* -s pid's name: that thread's last comm
				  * (rep_name_threads) */
	uint32_t tid;
	int32_t cpu;
	const char *parent;     /* parent symbol (-s parent), NULL: [other] */
	const char *trace;      /* the tracepoint's fields as perf prints them */
	const char *srcline;    /* -s srcline: file:line, sym+off, ... as perf */
	bool src_known;         /* perf had it before sizing the column */
	uint32_t seq;           /* creation order (last tie break) */
	uint32_t comm_rank;     /* rep_sort: the comm's and the dso short */
	uint32_t dso_rank;      /* name's place among the event's (by strcmp) */
	uint32_t name_rank;     /* rep_sort: the symbol name's (sym_name) */
};

/* The srclines of an address: perf's answer from addr2line, if any,
 * and its fallback. */
struct rep_prov {
	const char *good;       /* addr2line's answer, NULL: none */
	const char *fallback;   /* sym+off, dso[addr] or ??:0 */
	const struct sym_dso *dso;
};

/* A sample's chain: chains[off, off + len), its self entry, its period.
 * With children, owners[off + i] is the entry whose tree gets the chain
 * from i on (REP_NONE: none, the function recurs). */
struct rep_chain {
	uint32_t self, off, len;
	uint64_t period;
};

/* Entries that compare equal in the keys before the symbol's form a
 * class. perf's comparison within one is no order when (a) its
 * unresolved addresses, compared by a 64-bit difference, span 2^63 or
 * more (garbage frame-pointer chains), (b) they are of several objects
 * and no dso key comes first (two unresolved addresses are compared
 * alone, a symbol by its object first), or (c) it holds an inline row
 * (equal to any row of its name that overlaps it). Its first tree can
 * then miss an entry it holds and make a second one, merged into the
 * first in tree order at the collapse. From then on the class's
 * lookups (of its unresolved addresses for (a), of all its entries
 * else) are kept, to be replayed at rep_sort. */
struct rep_risk {
	uint64_t lo, hi;        /* its unresolved addresses' range */
	const struct sym_dso *dso; /* the first one's object */
	bool unresolved;        /* it has one */
	bool at;                /* (a): unresolved lookups kept */
	bool all;               /* (b), (c): every lookup kept */
};

/* A lookup of an entry of a class at risk (not the one that made it). */
struct rep_lookup {
	uint32_t entry;
	uint32_t made;          /* entries made before it */
	uint32_t depth;         /* its chain's length (max_depth) */
	uint32_t thread_forks;  /* the sample's thread (as rep_entry) */
	const struct proc_thread *thread;
	char level;
};

/* A chain frame's lookup as it came (add_children): the entries made
 * before it (UINT32_MAX: it made its entry) and the level it had. */
struct rep_look {
	uint32_t made;
	char level;
};

struct rep_event {
	const struct pd_attr *attr;
	struct hmap map;        /* entry key -> index in e */
	struct rep_entry *e;
	size_t n, cap;
	uint64_t total, samples;
	struct rep_node *nodes;
	size_t nnodes, nodes_cap;
	struct u64map fentry;   /* context << 32 | frame -> entry + 1 */
	uint64_t *last;         /* per frame: (its last context + 1) << 32 | entry */
	size_t last_cap;
	uint32_t *chains;       /* the samples' chains (frame ids), stored once */
	uint64_t *chain_ips;    /* beside chains: the frames' addresses */
	uint32_t *owners;       /* children: entry ids beside chains */
	size_t nchains, chains_cap, chain_ips_cap, owners_cap;
	struct rep_chain *sampled; /* per sample: what the trees get (rep_sort) */
	size_t nsampled, sampled_cap;
	struct u64map riskmap;  /* class hash -> index in risk */
	struct rep_risk *risk;
	size_t nrisk, risk_cap;
	struct rep_lookup *lookups; /* in the order they came */
	size_t nlookups, lookups_cap;
};

/* A frame table slot: a frame (no inline row) and its id + 1 (0: empty),
 * in 16 bytes (the big recording has 295k frames). */
struct rep_fslot {
	uint64_t what;          /* the symbol (its address), unresolved the ip */
	uint32_t dso;           /* its id, UINT32_MAX: none */
	uint32_t id;            /* top bit: what is a symbol */
};

struct rep {
	struct rep_opts o;
	struct rep_event *ev;   /* by attr index */
	size_t nev;
	struct rep_frame *frames; /* shared by all events */
	size_t nframes, frames_cap;
	char *flevel;           /* per frame: its level, 0 without dso and
				 * symbol (it keeps the level before it) */
	size_t flevel_cap;
	struct hmap fmap;       /* inline rows: frame key -> (value) index in frames */
	struct rep_fslot *ftab; /* other frames, open addressing */
	size_t ftab_cap, ftab_used;
	struct arena names;     /* inline names (the session's die with it) */
	struct strbuf key;
	uint32_t *chain;        /* current sample: frame ids, display order */
	uint64_t *chain_ip;     /* ... and each one's address (perf's
				 * chains compare a function with an
				 * unresolved frame by address) */
	size_t chain_cap, chain_ip_cap;
	struct rep_look *looks; /* current sample: its chain's lookups */
	size_t looks_cap;
	struct hmap ctx;        /* comm, tid, cpu, parent -> context id */
	uint64_t serial;        /* samples added */
	struct an_tp *tp;       /* tracepoint formats (-s trace), loaded once */
	bool tp_loaded;
	struct hmap traces;     /* trace and srcline texts (their keys are
				 * the copies) */
	bool srcline;           /* a srcline key: entries by address */
	bool replay;            /* perf's first tree replayed where a class
				 * is at risk (keys: comm and a symbol) */
	bool dso_first;         /* a dso key before the symbol's */
	struct rep_src { const char *s; bool known; } *chain_src; /* ... then
				 * the chain's srclines */
	size_t chain_src_cap;
	bool dwarf_part;        /* frames being added were DWARF-unwound */
	struct sym_inline *inl; /* line tables (-s srcline) */
	/* perf computes a srcline each time it compares a sample's entry,
	 * and stops asking addr2line about a file after 123 failures before
	 * a first answer: the answers and fallbacks by address, and the
	 * failures by dso */
	struct rep_prov *provs;
	size_t nprovs, provs_cap;
	struct hmap provmap;    /* kind, dso, address -> index in provs */
	struct u64map a2l;      /* dso id -> failures, 0: answered once,
				 * UINT64_MAX: no more asked */
	struct strbuf text;
};

void rep_init(struct rep *r, const struct rep_opts *o);
void rep_release(struct rep *r);
/* Parse a perf sort list ("comm,dso,sym"; "symbol" is "sym") into o.
 * Returns 0, or -1 with the bad key copied into bad (size n). */
int rep_parse_keys(struct rep_opts *o, const char *s, char *bad, size_t n);
/* Parse a perf -F list (overhead, overhead_children, period, sample and
 * the sort keys) into o->fields, its keys into o->keys. Same returns. */
int rep_parse_fields(struct rep_opts *o, const char *s, char *bad, size_t n);
/* -F and -s together, as perf: entries by the -s keys and then the
 * keys of -F, the columns -F's fields followed by the -s keys it lacks,
 * sorted by the -s keys and then -F's fields. Same returns. */
int rep_parse_sort_fields(struct rep_opts *o, const char *sort, const char *fields,
			  char *bad, size_t n);
/* perf's choices from the file, made at its first sample, into r->o:
 * children and call graphs when its samples carry call chains (children
 * 1 or 0 as asked, -1 as the file says; never for a pipe, whose attrs
 * arrive after perf settles it), no call graphs when graph_none; a file
 * of tracepoints alone sorts by trace unless sorted (-s or -F given). */
void rep_decide(struct rep *r, const struct pd_reader *rd, int children,
		bool graph_none, bool sorted);
/* Add one sample (frames resolved, leaf first). Cannot fail. */
void rep_add(struct rep *r, struct proc_session *ses, const struct proc_sample *ps);
/* Build the call trees of the entries whose period (children's in that
 * view) reaches min_percent of their event's total (a negative value:
 * every entry; perf prints no graph under its threshold), then sort
 * every event's entries in perf's output order. A tree node whose cumul
 * is under that share is a leaf (its hit 0, its own chains not
 * expanded): it only counts among its parent's kids. */
void rep_sort(struct rep *r, double min_percent);
/* Name each entry's thread as perf does for -s pid (the comm that
 * thread had last), from the machine the samples came from; after
 * rep_sort (which may change an entry's thread), before printing. */
void rep_name_threads(struct rep *r, const struct proc_machine *m);

/* The size of the entry's symbol (0 unresolved), as perf's symbol_size. */
uint64_t rep_sym_size(const struct rep_entry *e);
/* The name perf prints for a frame in a call graph. */
void rep_frame_name(const struct rep_frame *f, struct strbuf *sb);
/* Children of node with cumul >= min, in the order of perf's tree of
 * children (by function, largest first), or when cumul by cumul
 * descending first: written to *out (caller frees), count returned. */
size_t rep_node_kids(const struct rep *r, const struct rep_event *ev,
		     uint32_t node, uint64_t min, bool cumul, uint32_t **out);

#endif
