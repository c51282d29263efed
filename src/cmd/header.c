/*
 * cmd/header: `scorch header [-I] perf.data`: the header information
 * `perf report --header-only` prints (with -I the details), in perf's
 * field order and wording.
 * Stage: command. File mode reads only the header, attrs and feature
 * sections; pipe mode reads records until the first sample (features
 * arrive as HEADER_FEATURE records). Features that cannot be read are
 * shown as unreadable, with the reason on standard error.
 */
#include "cmd/cmd.h"
SCORCH_COMMAND(header, "print the header of a perf.data file like perf report --header-only")

#include "base/diag.h"
#include "base/opt.h"
#include "base/strbuf.h"
#include "perfdata/reader.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

enum { O_INFO = 1 };

static const struct opt_spec opts[] = {
	{ "show-info", 'I', OPT_NONE, NULL, "also print the details (CPU and NUMA topology, caches, memory nodes)", O_INFO },
	OPT_END_SPEC
};

static const struct opt_cmd header_cmd = {
	.name = "header",
	.usage = "scorch header [-I] [FILE]",
	.summary = "Print the header of FILE (default perf.data; - reads stdin) as perf report --header-only does.",
	.opts = opts,
};

/* perf 6.1 knows features 1..31; it lists the absent ones. */
enum { PERF61_LAST_FEATURE = 32 };

static void print_captured(struct strbuf *out, const char *path)
{
	struct stat st;
	time_t t = time(NULL);
	char buf[64];

	if (strcmp(path, "-") != 0 && stat(path, &st) == 0)
		t = st.st_mtime;
	ctime_r(&t, buf);
	buf[strcspn(buf, "\n")] = 0;
	sb_addf(out, "# ========\n# captured on    : %s\n", buf);
}

static void print_file_header(struct strbuf *out, struct pd_reader *r)
{
	const struct pd_file_header *h = pd_reader_header(r);

	sb_addf(out, "# header version : 1\n# data offset    : %" PRIu64
		"\n# data size      : %" PRIu64 "\n# feat offset    : %" PRIu64
		"\n", h->data_offset, h->data_size,
		pd_reader_is_pipe(r) ? 0 : h->feat_offset);
}

static void print_events(struct strbuf *out, const struct pd_features *f)
{
	for (size_t i = 0; i < f->nr_event_desc; i++) {
		const struct pd_event_desc *e = &f->event_desc[i];
		sb_addf(out, "# event : name = %s, ", e->name);
		if (e->nr_ids) {
			sb_adds(out, ", id = {");
			for (size_t j = 0; j < e->nr_ids; j++)
				sb_addf(out, "%s %" PRIu64, j ? "," : "", e->ids[j]);
			sb_adds(out, " }");
		}
		pd_attr_format(&e->attr, out);
		sb_addc(out, '\n');
	}
}

static void print_features(struct strbuf *out, struct pd_reader *r, bool info)
{
	const struct pd_features *f = pd_reader_features(r);

	for (unsigned bit = 1; bit < PD_FEAT_MAX; bit++) {
		if (bit == PD_FEAT_EVENT_DESC && f->state[bit] == PD_FEAT_OK)
			print_events(out, f);
		else
			pd_feature_format(f, bit, info, out);
	}
	if (pd_reader_is_pipe(r))
		return;
	sb_adds(out, "# missing features: ");
	for (unsigned bit = 1; bit < PERF61_LAST_FEATURE; bit++)
		if (f->state[bit] == PD_FEAT_ABSENT)
			sb_addf(out, "%s ", pd_feature_name(bit));
	sb_addc(out, '\n');
}

/* Pipe mode: stop at the first sample; the features came before. */
static int stop_at_sample(void *ctx, const struct pd_record *rec)
{
	return rec->type == 9 ? 1 : 0;
}

/* Records the reader got through (pipe mode: before damage or a sample). */
static uint64_t records_read(const struct pd_reader *r)
{
	const struct pd_reader_stats *st = pd_reader_stats(r);
	uint64_t total = 0;
	for (int t = 0; t < 128; t++)
		total += st->nr_records[t];
	return total;
}

static int header_file(const char *path, bool info)
{
	struct diag d = DIAG_INIT;
	struct strbuf out = SB_INIT;
	struct pd_reader *r = pd_reader_open(path, &d);

	if (!r) {
		diag_print(&d, path);
		return 1;
	}
	if (pd_reader_is_pipe(r)) {
		struct pd_handlers h = { .on_record = stop_at_sample };
		pd_reader_run(r, &h);
		if (pd_reader_damaged(r) && !records_read(r)) {
			/* damage before the first record: no header to print */
			diag_print(pd_reader_diag(r), path);
			pd_reader_free(r);
			return 1;
		}
	}
	print_captured(&out, path);
	print_file_header(&out, r);
	if (pd_reader_is_pipe(r))
		sb_adds(&out, "# ========\n#\n");
	print_features(&out, r, info);
	if (!pd_reader_is_pipe(r))
		sb_adds(&out, "# ========\n#\n");
	int rc = sb_flush(&out, stdout) < 0;
	if (rc)
		diag_write_error(NULL, errno);
	sb_release(&out);
	for (size_t i = 0; i < pd_reader_nr_warnings(r); i++)
		diag_warn("%s: %s", path, pd_reader_warning(r, i));
	if (pd_reader_damaged(r))
		diag_print_kept(pd_reader_diag(r), path);
	pd_reader_free(r);
	return rc;
}

int cmd_header(int argc, char **argv)
{
	struct opt_state st = OPT_STATE_INIT;
	const char *arg;
	bool info = false;
	int id;

	while ((id = opt_next(&st, argc, argv, &header_cmd, &arg)) > 0)
		if (id == O_INFO)
			info = true;
	if (id == OPT_HELP)
		return 0;
	if (id < 0)
		return 2;
	if (argc - st.ind > 1)
		return opt_usage_error(&header_cmd, "one FILE at most");
	return header_file(st.ind < argc ? argv[st.ind] : "perf.data", info);
}
