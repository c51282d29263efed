/*
 * recordout: what `scorch record --folded/--svg/--html` writes once the
 * recording is finished: the new file folded as `scorch fold` folds it
 * (fold_perfdata), then its folded stacks, its flame graph and its
 * explorer page (scorch view). Stage: command helpers (the folding and
 * its messages are cmd/fold_perfdata's; the drawing is render/'s).
 *
 * Usage:
 *   struct record_outputs out = { .input = "perf.data", .svg = "x.svg" };
 *   rc = record_outputs_write(&out);
 *
 * Ownership: every string is borrowed. Labels of the graph and the page:
 * as given, else by the event and the command (fold_perfdata_labels).
 * Failure: a message, and 1; the files before the failing one are
 * written (in the order folded, svg, html).
 */
#ifndef SCORCH_CMD_RECORDOUT_H
#define SCORCH_CMD_RECORDOUT_H

struct record_outputs {
	const char *input;            /* the perf.data just written */
	char **command;               /* the workload's argv, or NULL */
	const char *folded, *svg, *html; /* files to write, or NULL */
	const char *title, *countname;   /* labels given, or NULL */
};

/* Fold input and write each output asked for. 0, or 1 after a message. */
int record_outputs_write(const struct record_outputs *a);

#endif
