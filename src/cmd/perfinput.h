/*
 * perfinput: perf input for the commands that read folded stacks (flame,
 * diff); the labels of a graph of a recording are profile/fold.h's
 * (fold_perfdata_labels). Stage: command helpers (see perfinput.c).
 */
#ifndef SCORCH_CMD_PERFINPUT_H
#define SCORCH_CMD_PERFINPUT_H

#include "cmd/fold_perfdata.h"

/*
 * Inputs of the commands that read folded stacks (flame, diff): what
 * the first bytes are, and folding perf input there and then, as
 * `scorch fold` would, so `scorch flame perf.data` just works.
 */
enum fold_input_kind {
	FOLD_INPUT_FOLDED,       /* "a;b 5" lines (or anything else textual) */
	FOLD_INPUT_PERF_DATA,
	FOLD_INPUT_PERF_SCRIPT,  /* perf script text: a sample header first */
	FOLD_INPUT_PPROF,        /* a pprof profile, gzip'd or raw */
	FOLD_INPUT_BINARY,       /* other binary data: not for any of us */
};

struct lines;
enum fold_input_kind fold_input_kind(struct lines *lr);
/* The message for FOLD_INPUT_BINARY: "NAME: binary data (byte 0xNN at
 * offset N), not folded stacks (CMD reads ...)". */
void fold_input_binary_error(struct lines *lr, const char *name, const char *cmd);
/* Open path (NULL or "-": standard input) into lr and tell its kind;
 * name gets how messages name it ("<stdin>" for standard input).
 * Returns 0, or 1 after a message (cannot open; binary data that is
 * none of the kinds, "CMD reads ..."), lr then closed. */
int fold_input_open(struct lines *lr, const char *path, const char *cmd,
		    const char **name, enum fold_input_kind *kind);
/* Fold lr (kind PERF_DATA, PERF_SCRIPT or PPROF, as fold_input_kind
 * said; path as given to lines_open) into out with default options (a
 * pprof profile by sample_type, NULL: its default); info may be NULL.
 * Returns 0, or 1 after a message. */
int fold_perf_input(struct lines *lr, const char *path, enum fold_input_kind kind,
		    struct stack_table *out, struct fold_perfdata_info *info,
		    const char *sample_type);
/* The whole of lr (from its first byte) as a pprof profile into out, by
 * sample type (NULL: the profile's default). 0, or 1 after a message. */
int fold_pprof(struct lines *lr, const char *sample_type, struct stack_table *out);

/* perf script text in lr folded into out under the naming options o
 * (as fold_perf_input does with the defaults). 0, or 1 after a message. */
/* lr, sniffed as perf.data, folded with o into out: reopened by path
 * when it is a regular file, else read on from lr's buffered bytes (a
 * pipe). 0, or 1 after a message. */
int fold_perf_data(struct lines *lr, const char *path, const struct fold_perfdata_opts *o,
		   struct stack_table *out);
int fold_perf_script(struct lines *lr, const struct collapse_opts *o,
		     struct stack_table *out, struct fold_perfdata_info *info);

#endif
