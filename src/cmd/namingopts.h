/*
 * namingopts: the options that decide how frames and processes are named
 * (stackcollapse-perf.pl's --pid --tid --kernel --jit --all --addrs, and
 * --inline, --no-inline, --event-filter), shared by the commands that
 * fold stacks: fold and export. One table of rows (NAMING_SPECS), one
 * parser (namingopts_option) into fold_perfdata_opts.
 * Stage: command helpers. Ownership: strings stored are borrowed (argv).
 *
 *   static const struct opt_spec opts[] = { NAMING_SPECS, ..., OPT_END_SPEC };
 *   while ((id = opt_next(...)) > 0)
 *           if (!namingopts_option(&fold_opts, id, arg)) own option
 *   collapse_opts_finish(&fold_opts.collapse);
 */
#ifndef SCORCH_CMD_NAMINGOPTS_H
#define SCORCH_CMD_NAMINGOPTS_H

#include <stdbool.h>

#include "base/opt.h"

/* Option ids; a command's own ids stay below NAMINGOPT_FIRST (and apart
 * from SYMOPT_*, cmd/symopts.h). */
enum {
	NAMINGOPT_FIRST = 0x1100,
	NAMINGOPT_PID = NAMINGOPT_FIRST, NAMINGOPT_TID, NAMINGOPT_KERNEL,
	NAMINGOPT_JIT, NAMINGOPT_ALL, NAMINGOPT_ADDRS, NAMINGOPT_INLINE,
	NAMINGOPT_NO_INLINE, NAMINGOPT_EVENT_FILTER,
};

#define NAMING_SPECS \
	{ "pid", 0, OPT_NONE, NULL, "process names as comm-PID", NAMINGOPT_PID }, \
	{ "tid", 0, OPT_NONE, NULL, "process names as comm-PID/TID", NAMINGOPT_TID }, \
	{ "kernel", 0, OPT_NONE, NULL, "annotate kernel frames with _[k]", NAMINGOPT_KERNEL }, \
	{ "jit", 0, OPT_NONE, NULL, "annotate JIT frames (/tmp/perf-N.map) with _[j]", NAMINGOPT_JIT }, \
	{ "all", 0, OPT_NONE, NULL, "all annotations (--kernel --jit)", NAMINGOPT_ALL }, \
	{ "addrs", 0, OPT_NONE, NULL, "unknown symbols as [dso <addr>] instead of [dso]", NAMINGOPT_ADDRS }, \
	{ "inline", 0, OPT_NONE, NULL, "perf.data: inlined functions of every frame, not only DWARF ones (accepted for text)", NAMINGOPT_INLINE }, \
	{ "no-inline", 0, OPT_NONE, NULL, "perf.data: no inlined functions", NAMINGOPT_NO_INLINE }, \
	{ "event-filter", 0, OPT_REQ, "EVENT", "keep samples of EVENT only (default: the first event seen)", NAMINGOPT_EVENT_FILTER }

struct fold_perfdata_opts;

/* Store the value of a naming option id in f; false for other ids. */
bool namingopts_option(struct fold_perfdata_opts *f, int id, const char *arg);

#endif
