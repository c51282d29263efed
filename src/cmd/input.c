/* input: open an input once, tell its format, read it (see input.h). */
#include "cmd/input.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "base/fdio.h"
#include "stacks/folded.h"
#include "stacks/pprof_read.h"

int cmd_input_open(struct cmd_input *in, const char *path)
{
	memset(in, 0, sizeof(*in));
	in->path = path ? path : "-";
	int rc = lines_open(&in->lr, in->path);
	if (rc < 0) {
		diag_error("%s: %s", in->path, strerror(-rc));
		return 1;
	}
	in->name = in->lr.name;
	struct stat st;
	if (fstat(in->lr.fd, &st) == 0) {
		in->dir = S_ISDIR(st.st_mode);
		in->regular = S_ISREG(st.st_mode);
	}
	return 0;
}

size_t cmd_input_peek(struct cmd_input *in, size_t n, const char **data)
{
	if (in->dir) {
		*data = "";
		return 0;
	}
	return lines_peek(&in->lr, data, n);
}

bool cmd_input_is_perfdata(struct cmd_input *in)
{
	const char *p;
	if (in->dir)
		return true;
	return cmd_input_peek(in, 8, &p) == 8 &&
	       (memcmp(p, "PERFILE2", 8) == 0 || memcmp(p, "2ELIFREP", 8) == 0);
}

bool cmd_input_is_pprof(struct cmd_input *in)
{
	const char *p;
	if (in->dir)
		return false;
	size_t n = cmd_input_peek(in, 4096, &p);
	return stack_pprof_detect(p, n);
}

enum stack_format cmd_input_format(struct cmd_input *in, enum stack_format forced,
				   struct diag *d)
{
	enum { PEEK_BYTES = 256 * 1024 };
	if (cmd_input_is_perfdata(in))
		return FMT_PERF_DATA;
	const char *head = NULL;
	size_t n = cmd_input_peek(in, PEEK_BYTES, &head);
	return stack_format_choose(head, n, n < PEEK_BYTES, forced, d);
}

struct pd_reader *cmd_input_reader(struct cmd_input *in, struct diag *d)
{
	if (in->dir)
		return pd_reader_open(in->path, d);
	const char *head;
	size_t n = lines_buffered(&in->lr, &head);
	return pd_reader_open_fd(in->lr.fd, head, n, in->name, d);
}

void cmd_input_close(struct cmd_input *in)
{
	if (in->lr.buf)
		lines_close(&in->lr);
}

int cmd_read_folded(struct lines *lr, const char *name, cmd_folded_fn *add, void *ctx)
{
	const char *line;
	size_t len;
	int rc;
	while ((rc = lines_next(lr, &line, &len)) > 0) {
		struct stack_folded f;
		if (len == 0 || line[0] == '#' || stack_folded_parse(line, len, &f) < 0)
			continue; /* as flame: blank, comment, no count */
		if (f.count >= 0x1p64)
			add(ctx, f.stack, f.stack_len, UINT64_MAX);
		else if (f.count >= 1)
			add(ctx, f.stack, f.stack_len, (uint64_t)f.count);
	}
	if (rc < 0)
		diag_error("%s: line %llu: %s", name, (unsigned long long)lr->lineno + 1,
			   rc == -E2BIG ? "line too long" : strerror(-rc));
	return rc < 0 ? 1 : 0;
}

int cmd_flush_stdout(struct strbuf *sb)
{
	int rc = sb_flush(sb, stdout);
	if (rc < 0) {
		diag_write_error(NULL, -rc);
		return 1;
	}
	return 0;
}

int cmd_write_output(const char *path, const void *data, size_t n)
{
	bool out = !path || !strcmp(path, "-");
	int rc = out ? fd_write_all(1, data, n) : fd_write_file(path, data, n);
	if (rc < 0)
		diag_error("%s: %s", out ? "<stdout>" : path, strerror(-rc));
	return rc < 0 ? 1 : 0;
}
