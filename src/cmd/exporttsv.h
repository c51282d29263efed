/*
 * exporttsv: `scorch export --format tsv`: the fleet TSV rows
 * (render/fleettsv.h) of the inputs, for ClickHouse (docs/clickhouse.md).
 * Stage: command helpers (export.c parses the options and calls this).
 */
#ifndef SCORCH_CMD_EXPORTTSV_H
#define SCORCH_CMD_EXPORTTSV_H

#include "cmd/fold_perfdata.h"

struct export_tsv_opts {
	const char *host;        /* --host, or NULL: the recording's */
	const char *bucket;      /* --bucket SECONDS as given, or NULL: 10 */
};

/* Read inputs[0..n) (none: standard input) and write output (NULL or
 * "-": standard output; a file is written whole or not at all).
 * Returns 0, 1 after a message, or 2 for a bad option value. */
int export_tsv(const struct fold_perfdata_opts *fo, const struct export_tsv_opts *o,
	       char **inputs, int n, const char *output);

#endif
