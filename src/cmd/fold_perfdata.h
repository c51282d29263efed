/*
 * fold_perfdata: the perf.data input of `scorch fold`.
 * Stage: command. fold.c detects perf.data by its magic and hands its
 * reader to fold_perfdata_reader (record.c calls fold_perfdata with the
 * file it wrote), which opens the session with the symbol options, runs
 * the samples through the samples -> stacks stage (profile/fold.h: its
 * options and info structs are declared there) into out, and prints
 * the messages.
 * Key invariant: out only grows; on error what was added stays and the
 * function prints its own message (it lives in cmd/) and returns 1.
 */
#ifndef SCORCH_CMD_FOLD_PERFDATA_H
#define SCORCH_CMD_FOLD_PERFDATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfdata/reader.h"
#include "profile/fold.h"
#include "stacks/table.h"

/* Fold the samples of one perf.data file (or "-") into out.
 * Returns 0, or 1 after printing a message. */
int fold_perfdata(const char *path, const struct fold_perfdata_opts *o,
		  struct stack_table *out);
/* Same over an open reader (fold.c opens its inputs once, see
 * cmd/input.h), which this takes and frees; name is for messages. */
int fold_perfdata_reader(struct pd_reader *r, const char *name,
			 const struct fold_perfdata_opts *o,
			 struct stack_table *out);
/* Same over an input sniffed as perf.data (cmd/input.h), read from its
 * first byte; in->name names it. */
struct cmd_input;
int fold_perfdata_input(struct cmd_input *in, const struct fold_perfdata_opts *o,
			struct stack_table *out);

#endif
