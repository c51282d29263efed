/*
 * exporttsv: `scorch export --format tsv` (see exporttsv.h). Stage:
 * command helpers. Key invariant: the output file appears whole (a
 * temporary file beside it, renamed) or not at all.
 */
#include "cmd/exporttsv.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/fdio.h"
#include "base/strbuf.h"
#include "cmd/input.h"
#include "cmd/sampleinput.h"
#include "render/fleettsv.h"

/* A positive number of seconds (at most a year), or 0. */
static uint64_t parse_secs(const char *s)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || v == 0 || v > 366ull * 86400)
		return 0;
	return v;
}

int export_tsv(const struct fold_perfdata_opts *fo, const struct export_tsv_opts *o,
	       char **inputs, int n, const char *output)
{
	uint64_t bucket = o->bucket ? parse_secs(o->bucket) : 10;
	if (!bucket) {
		diag_error("--bucket '%s': want whole seconds, 1 to 31622400", o->bucket);
		return 2;
	}
	struct sample_input in;
	sample_input_init(&in, "export");
	int rc = n ? 0 : sample_input_read(&in, fo, NULL);
	for (int i = 0; i < n && !rc; i++)
		rc = sample_input_read(&in, fo, inputs[i]);
	if (!rc) {
		struct strbuf host = SB_INIT, out = SB_INIT;
		struct prof_names nm;
		prof_names_init(&nm, &fo->collapse);
		if (o->host)
			sb_adds(&host, o->host);
		else
			sample_input_host(&in, &host);
		struct fleettsv_opts to = { host.buf ? host.buf : "", bucket, in.input_ns };
		fleettsv_write(&in.prof, &nm, &to, &out);
		rc = cmd_write_output(output, out.buf, out.len);
		prof_names_release(&nm);
		sb_release(&host);
		sb_release(&out);
	}
	sample_input_release(&in);
	return rc;
}
