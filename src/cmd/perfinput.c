/*
 * perfinput: perf input for the commands that read folded stacks (flame,
 * diff). Stage: command helpers. fold_input_kind sniffs an input's first bytes
 * without consuming them; fold_perf_input folds perf.data (through
 * fold_perfdata) or perf script text (through collapse_perf) into a stack
 * table, so `scorch flame perf.data` draws what `scorch fold perf.data |
 * scorch flame` draws. Key invariant: folded text is never touched (its
 * labels stay flamegraph.pl's); only perf input gets event labels
 * (fold_perfdata_labels, profile/fold.h).
 */
#include "cmd/perfinput.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/lines.h"
#include "base/strbuf.h"
#include "stacks/collapse_perf.h"
#include "stacks/collapse_text.h"
#include "stacks/detect.h"
#include "stacks/folded.h"
#include "stacks/pprof_read.h"

/* ---- inputs of flame and diff ---- */

static bool is_perf_magic(const char *h, size_t n)
{
	return n >= 8 && (!memcmp(h, "PERFILE2", 8) || !memcmp(h, "2ELIFREP", 8));
}

enum fold_input_kind fold_input_kind(struct lines *lr)
{
	const char *h;
	size_t n = lines_peek(lr, &h, 4096);
	if (is_perf_magic(h, n))
		return FOLD_INPUT_PERF_DATA;
	if (stack_pprof_detect(h, n))
		return FOLD_INPUT_PPROF;
	/* compressed bytes can pass for a folded line ("... 7\n") */
	const char *kind, *tool;
	if (stack_compressed_kind(h, n, &kind, &tool))
		return FOLD_INPUT_BINARY;
	/* the first line that is not blank or a comment decides; a folded
	 * line may hold any byte, as flamegraph.pl takes it */
	bool binary = memchr(h, '\0', n) != NULL;
	size_t i = 0;
	while (i < n) {
		const char *nl = memchr(h + i, '\n', n - i);
		size_t len = nl ? (size_t)(nl - h) - i : n - i;
		const char *line = h + i;
		i += len + 1;
		if (len == 0 || line[0] == '#' || (len == 1 && line[0] == '\r'))
			continue;
		struct stack_folded f;
		if (stack_folded_parse(line, len, &f) == 0)
			return FOLD_INPUT_FOLDED;
		/* perf script prints no NUL: a binary's first bytes can pass
		 * the header's shape (they did for scorch's own binary) */
		if (!memchr(line, '\0', len) && collapse_perf_is_header(line, len))
			return FOLD_INPUT_PERF_SCRIPT;
		break;
	}
	return binary ? FOLD_INPUT_BINARY : FOLD_INPUT_FOLDED;
}

void fold_input_binary_error(struct lines *lr, const char *name, const char *cmd)
{
	const char *h, *kind, *tool;
	size_t n = lines_peek(lr, &h, 4096);
	if (stack_compressed_kind(h, n, &kind, &tool)) {
		diag_error("%s: %s-compressed data; decompress it first (%s FILE | scorch %s)",
			   name, kind, tool, cmd);
		return;
	}
	unsigned char byte = 0;
	long at = lines_sniff_binary(lr, false, &byte);
	diag_error("%s: binary data (byte 0x%02x at offset %ld), not folded stacks "
		   "(%s reads \"a;b;c 42\" lines, perf script text or perf.data)",
		   name, byte, at < 0 ? 0 : at, cmd);
}

int fold_input_open(struct lines *lr, const char *path, const char *cmd,
		    const char **name, enum fold_input_kind *kind)
{
	int rc = lines_open(lr, path);
	*name = path && strcmp(path, "-") ? path : "<stdin>";
	if (rc < 0) {
		diag_error("%s: %s", *name, strerror(-rc));
		return 1;
	}
	*kind = fold_input_kind(lr);
	if (*kind == FOLD_INPUT_BINARY) {
		fold_input_binary_error(lr, *name, cmd);
		lines_close(lr);
		return 1;
	}
	return 0;
}

int fold_perf_script(struct lines *lr, const struct collapse_opts *o,
		     struct stack_table *out, struct fold_perfdata_info *info)
{
	struct collapse_text ct;
	collapse_text_init(&ct, o, out);
	int rc = collapse_text_read(&ct, lr, FMT_PERF_SCRIPT);
	const struct collapse_perf *p = &ct.perf;
	if (rc < 0)
		diag_error("%s: read error after line %llu: %s", lr->name,
			   (unsigned long long)lr->lineno,
			   rc == -E2BIG ? "line too long" : strerror(-rc));
	else if (p->bad_lines)
		diag_warn("%s: ignored %llu unrecognized line%s (first at line %llu)",
			  lr->name, (unsigned long long)p->bad_lines,
			  p->bad_lines == 1 ? "" : "s",
			  (unsigned long long)p->first_bad_line);
	if (info && p->filter_set) {
		sb_reset(&info->event);
		sb_add(&info->event, p->filter.buf, p->filter.len);
		info->weighted = true;
	}
	collapse_text_release(&ct);
	return rc < 0 ? 1 : 0;
}

/* Read what is left of lr's file after its buffered bytes into out. */
static int read_rest(struct lines *lr, struct strbuf *out)
{
	const char *head;
	size_t n = lines_buffered(lr, &head);
	sb_add(out, head, n);
	for (;;) {
		sb_grow(out, 1 << 16);
		ssize_t got = read(lr->fd, out->buf + out->len, out->cap - out->len - 1);
		if (got == 0)
			return 0;
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -errno;
		sb_setlen(out, out->len + (size_t)got);
		if (out->len > STACK_PPROF_MAX)
			return -EFBIG;
	}
}

int fold_pprof(struct lines *lr, const char *sample_type, struct stack_table *out)
{
	struct strbuf raw = SB_INIT, pb = SB_INIT;
	struct diag d = DIAG_INIT;
	int rc = read_rest(lr, &raw);
	if (rc < 0)
		diag_error("%s: %s", lr->name, rc == -EFBIG ? "pprof profile over 1 GiB"
			   : strerror(-rc));
	else if (stack_pprof_inflate(raw.buf, raw.len, &pb, &d) < 0 ||
		 stack_pprof_fold(pb.buf, pb.len, sample_type, out, &d) < 0)
		rc = -1;
	if (d.set)
		diag_print(&d, lr->name);
	sb_release(&raw);
	sb_release(&pb);
	return rc < 0 ? 1 : 0;
}

int fold_perf_input(struct lines *lr, const char *path, enum fold_input_kind kind,
		    struct stack_table *out, struct fold_perfdata_info *info,
		    const char *sample_type)
{
	if (kind == FOLD_INPUT_PPROF)
		return fold_pprof(lr, sample_type, out);
	static const struct collapse_opts defaults = COLLAPSE_OPTS_INIT;
	if (kind == FOLD_INPUT_PERF_SCRIPT)
		return fold_perf_script(lr, &defaults, out, info);
	struct fold_perfdata_opts o = FOLD_PERFDATA_OPTS_INIT;
	o.info = info;
	return fold_perf_data(lr, path, &o, out);
}

int fold_perf_data(struct lines *lr, const char *path, const struct fold_perfdata_opts *o,
		   struct stack_table *out)
{
	if (path && strcmp(path, "-") != 0) {
		struct stat st;
		if (fstat(lr->fd, &st) == 0 && S_ISREG(st.st_mode))
			return fold_perfdata(path, o, out);
	}
	/* a pipe: read on from the bytes the format sniffing took */
	const char *head;
	size_t n = lines_buffered(lr, &head);
	struct diag d = DIAG_INIT;
	struct pd_reader *r = pd_reader_open_fd(lr->fd, head, n, lr->name, &d);
	if (!r) {
		diag_print(&d, lr->name);
		return 1;
	}
	return fold_perfdata_reader(r, lr->name, o, out);
}
