/*
 * collapse_perf: the naming rules of stackcollapse-perf.pl, and a
 * streaming parser of `perf script` text built on them.
 * Stage: stacks. Key invariant: for the same strings perf script would
 * print (process name, ids, symbol with offset, dso, pc) these functions
 * produce byte-identical frames to stackcollapse-perf.pl, so the text path
 * and the perf.data path (which calls the same functions) agree.
 *
 * Frame rules (collapse_perf_frame), in the Perl script's order:
 *   trailing "+0x<hex>" removed; a symbol starting with '(' is skipped;
 *   the symbol is split on "->" (inline chains), each part then:
 *   "[unknown]" -> "[basename(dso)]" ("[unknown]" when the dso is unknown
 *   too), or "[dso <pc>]" with addrs; ';' -> ':'; unless it looks like a Go
 *   method (".(...)."), cut at the first '(' that does not open
 *   "(anonymous namespace)"; '"' and '\'' deleted; for java processes a
 *   leading 'L' dropped when the name has a '/'; annotations: parts after
 *   the first get "_[i]", else "_[k]" (kernel: dso starts with '[' or ends
 *   in "vmlinux", and is not unknown), else "_[j]" (dso has
 *   /tmp/perf-N.map); with srcline, ":source" from the following line.
 * Process rules (collapse_perf_comm): "comm", "comm-PID" (pid) or
 * "comm-PID/TID" (tid), PID "?" when perf printed one id; spaces -> '_'.
 */
#ifndef SCORCH_STACKS_COLLAPSE_PERF_H
#define SCORCH_STACKS_COLLAPSE_PERF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/strbuf.h"
#include "stacks/table.h"

struct collapse_opts {
	bool pid;      /* process name "comm-PID" */
	bool tid;      /* process name "comm-PID/TID" */
	bool kernel;   /* "_[k]" on kernel frames */
	bool jit;      /* "_[j]" on /tmp/perf-N.map frames */
	bool all;      /* kernel + jit (collapse_opts_finish sets both) */
	bool addrs;    /* unknown symbols as "[dso <pc>]" */
	bool context;  /* with inline: ":file:line" (accepted; see fold docs) */
	bool inline_;  /* expand inlined frames with addr2line (accepted) */
	bool srcline;  /* input has a source line after each frame */
	const char *event_filter; /* keep only this event; NULL: first seen */
};

#define COLLAPSE_OPTS_INIT { false, false, false, false, false, false, \
			     false, false, false, NULL }

/* Apply implications (all -> kernel, jit). */
void collapse_opts_finish(struct collapse_opts *o);

/* Append the process name for a sample to out: the strings as perf
 * script printed them. pid is NULL when perf printed only one id (then
 * that id is the tid and PID shows as "?"). */
void collapse_perf_comm(const struct collapse_opts *o, const char *comm,
			size_t comm_len, const char *pid, size_t pid_len,
			const char *tid, size_t tid_len, struct strbuf *out);
/* True when the Java tidy rule applies to this process name (^java). */
bool collapse_perf_is_java(const char *pname, size_t len);

/* Source text for the next frame part (the srcline option): the caller
 * returns the raw line perf printed after the frame, or NULL at the end. */
typedef const char *(*collapse_srcline_fn)(void *ctx, size_t *len);

struct collapse_frame {
	const char *pc;  size_t pc_len;   /* hex text as printed */
	const char *sym; size_t sym_len;  /* symbol, maybe "+0x..", "->" */
	const char *dso; size_t dso_len;  /* text inside the parentheses */
	collapse_srcline_fn srcline;      /* used with o->srcline; may be NULL */
	void *srcline_ctx;
};

/* Push the frames of one perf script frame line onto b, leaf first
 * (inline parts are pushed so that joining root-first keeps perf's
 * outer-to-inner order). Returns the number of frames pushed (0 when the
 * symbol is skipped). Cannot fail. */
size_t collapse_perf_frame(const struct collapse_opts *o, bool java,
			   const struct collapse_frame *f,
			   struct stack_builder *b);

/* Frame lines seen before and the frames they gave, per java flag: real
 * profiles repeat the same few thousand lines millions of times. Bounded
 * (entries and bytes); past the bound lines are simply parsed again. */
struct collapse_frame_cache {
	struct cache_slot {
		const struct cache_rec *rec; /* NULL: empty slot */
		uint32_t tag;                /* high half of the line's hash */
		uint32_t id;                 /* dense, in first-seen order */
	} *slots;
	size_t nslots, count;   /* nslots a power of two, at most half full */
	struct arena mem;       /* the records (collapse_perf.c) */
};

/*
 * Streaming parser of perf script text. Feed lines (without '\n') in
 * order; state carries across inputs like Perl's <> over several files.
 * Samples go into the table given at init, which must not be reset or
 * released while the parser lives (its caches keep stack ids into it).
 * Weird lines are counted, not reported one by one.
 */
/* Bounds on one sample (perf itself stops at a few hundred frames); past
 * them frame lines are left out and truncated_line says where. They only
 * matter for input that never ends its samples. */
enum { COLLAPSE_MAX_FRAMES = 1 << 20, COLLAPSE_MAX_SAMPLE_BYTES = 256 << 20 };

struct collapse_perf {
	struct collapse_opts opts;
	struct stack_table *out;
	struct stack_builder frames;   /* frames of the current sample */
	struct strbuf pname;           /* current process name */
	bool have_pname;               /* Perl's "$pname is true" */
	uint64_t period;
	struct strbuf filter;          /* event filter (given or first seen) */
	bool filter_set, filter_defaulted;
	bool filtered_warned;          /* "Filtering for events" printed */
	struct strbuf filtered_event;  /* first rejected event name */
	uint64_t bad_lines;            /* unrecognized lines */
	uint64_t first_bad_line;       /* line number of the first one */
	struct strbuf first_bad;       /* its text (truncated) */
	uint64_t samples, headers;     /* samples stored, header lines seen */
	size_t last_id;                /* out's id of the sample stored last */
	uint64_t unterminated_line;    /* open sample at end of input */
	uint64_t truncated_line;       /* first frame left out by the caps */
	struct collapse_frame_cache cache;
	/* Stacks as sequences of cached frame-line ids: a sample whose lines
	 * were all cached is looked up by its ids (4 bytes a frame) instead
	 * of its text; seq_ok says whether the current sample qualifies. */
	uint32_t *seq;
	size_t nseq, seq_cap;
	bool seq_ok;
	uint32_t pname_id;             /* id of pname in pnames */
	struct hmap pnames;            /* process names seen */
	struct hmap seqs;              /* key: pname id + line ids; value: stack id */
	/* Whole samples seen before: the lines of the open sample are held
	 * back until its blank line; a sample whose process name and lines
	 * (byte for byte) were seen before adds its period to the stack they
	 * gave without a line being parsed. */
	struct strbuf raw;             /* pname '\n', then each line '\n' */
	bool raw_on;                   /* lines of the open sample held back */
	size_t raw_lines;              /* how many */
	uint64_t raw_first;            /* line number of the first */
	struct hmap raws;              /* key: raw; value: stack id in out */
	collapse_srcline_fn next_line; /* source of lines for srcline */
	void *next_line_ctx;
};

void collapse_perf_init(struct collapse_perf *p, const struct collapse_opts *o,
			struct stack_table *out);
void collapse_perf_release(struct collapse_perf *p);
/* One input line, lineno for messages. */
void collapse_perf_line(struct collapse_perf *p, const char *line, size_t len,
			uint64_t lineno);
/* End of one input: lines held back are parsed now (so warnings count
 * them); state still carries over to the next input. */
void collapse_perf_flush(struct collapse_perf *p);
/* After the last input: the line number of the header of a sample that
 * no blank line ended (stackcollapse-perf.pl drops it, and so do we), or
 * 0 when there is none. Multiple inputs continue one stream, as Perl's <>. */
uint64_t collapse_perf_open_sample(const struct collapse_perf *p);

/* Line classifiers, exposed for format detection and tests. */
bool collapse_perf_is_header(const char *line, size_t len);
/* The process name stackcollapse-perf.pl takes from a whole sample
 * header line (the header regex, then the process rules), into pname.
 * False when the Perl script would not see a header there (or the name
 * is false to Perl): it then drops the sample. */
bool collapse_perf_header_pname(const struct collapse_opts *o, const char *line,
				size_t len, struct strbuf *pname);
bool collapse_perf_is_frame(const char *line, size_t len);

#endif
