/* opt: option tables over getopt_long (see opt.h). */
#include "base/opt.h"
#include "base/diag.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { ID_HELP = 0x7fff0000 };

bool opt_perl_compat;

struct opt_tables {
	struct option *longs;
	char *shorts;
};

/* Tables of parses still running. A command that stops at a bad option
 * value returns without a last opt_next call; keeping its tables reachable
 * from here means that early return is not a leak (LeakSanitizer). */
static struct opt_tables *live[8];

static void track(struct opt_tables *t, struct opt_tables *old)
{
	for (size_t i = 0; i < sizeof(live) / sizeof(live[0]); i++)
		if (live[i] == old) {
			live[i] = t;
			return;
		}
}

static struct opt_tables *build(const struct opt_cmd *cmd)
{
	size_t n = 0;
	while (cmd->opts && cmd->opts[n].name)
		n++;
	struct opt_tables *t = xcalloc(1, sizeof(*t));
	t->longs = xcalloc(n + 2, sizeof(struct option));
	struct strbuf sb = SB_INIT;
	sb_adds(&sb, cmd->permute ? ":h" : "+:h");
	for (size_t i = 0; i < n; i++) {
		const struct opt_spec *o = &cmd->opts[i];
		t->longs[i].name = o->name;
		t->longs[i].has_arg = o->has_arg;
		t->longs[i].val = o->id;
		if (o->short_name) {
			sb_addc(&sb, (char)o->short_name);
			if (o->has_arg == OPT_REQ)
				sb_addc(&sb, ':');
			else if (o->has_arg == OPT_OPTIONAL)
				sb_adds(&sb, "::");
		}
	}
	t->longs[n].name = "help";
	t->longs[n].val = ID_HELP;
	t->shorts = sb_detach(&sb, NULL);
	track(t, NULL);
	return t;
}

static void free_tables(struct opt_state *st)
{
	struct opt_tables *t = st->priv;
	if (t) {
		track(NULL, t);
		free(t->longs);
		free(t->shorts);
		free(t);
	}
	st->priv = NULL;
}

static int id_of_short(const struct opt_cmd *cmd, int c)
{
	for (const struct opt_spec *o = cmd->opts; o && o->name; o++)
		if (o->short_name == c)
			return o->id;
	return 0;
}

int opt_next(struct opt_state *st, int argc, char **argv,
	     const struct opt_cmd *cmd, const char **arg)
{
	if (!st->priv) {
		st->priv = build(cmd);
		optind = cmd->permute ? 0 : 1; /* 0: glibc re-reads the ordering */
		opterr = 0;
	}
	struct opt_tables *t = st->priv;
	int c = opt_perl_compat
		? getopt_long_only(argc, argv, t->shorts, t->longs, NULL)
		: getopt_long(argc, argv, t->shorts, t->longs, NULL);
	*arg = optarg;
	st->ind = optind;
	if (c == -1) {
		free_tables(st);
		return OPT_DONE;
	}
	if (c == ID_HELP || c == 'h') {
		opt_usage(stdout, cmd);
		free_tables(st);
		return OPT_HELP;
	}
	if (c == '?' || c == ':') {
		const char *bad = argv[optind - 1];
		if (c == ':')
			opt_usage_error(cmd, "option '%s' needs an argument", bad);
		else if (optopt && !(bad[0] == '-' && bad[1] == '-'))
			opt_usage_error(cmd, "unknown option '-%c'", optopt);
		else
			opt_usage_error(cmd, "unknown option '%s'", bad);
		free_tables(st);
		return OPT_ERROR;
	}
	if (c > 0 && c < 256) {
		int id = id_of_short(cmd, c);
		if (id)
			return id;
	}
	return c;
}

void opt_usage(FILE *f, const struct opt_cmd *cmd)
{
	fprintf(f, "usage: %s\n\n%s\n", cmd->usage, cmd->summary);
	if (!cmd->opts || !cmd->opts[0].name)
		return;
	fprintf(f, "\noptions:\n");
	for (const struct opt_spec *o = cmd->opts; o->name; o++) {
		if (!o->help)
			continue;
		struct strbuf sb = SB_INIT;
		if (o->short_name)
			sb_addf(&sb, "-%c, ", o->short_name);
		else
			sb_adds(&sb, "    ");
		sb_addf(&sb, "--%s", o->name);
		if (o->has_arg == OPT_REQ)
			sb_addf(&sb, " %s", o->arg ? o->arg : "ARG");
		else if (o->has_arg == OPT_OPTIONAL)
			sb_addf(&sb, "[=%s]", o->arg ? o->arg : "ARG");
		if (sb.len < 28)
			fprintf(f, "  %-28s %s\n", sb.buf, o->help);
		else
			fprintf(f, "  %s\n  %-28s %s\n", sb.buf, "", o->help);
		sb_release(&sb);
	}
	fprintf(f, "  -h, --help                   show this help\n");
}

int opt_usage_error(const struct opt_cmd *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: ", diag_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'scorch %s --help' for more information.\n",
		cmd->name);
	return 2;
}

int opt_value_number(const char *v, double min, double *out)
{
	char *end;
	errno = 0;
	double d = strtod(v, &end);
	if (end == v || *end || errno || !isfinite(d) || d < min)
		return -1;
	*out = d;
	return 0;
}

int opt_value_integer(const char *v, long min, long max, long *out)
{
	double d;
	if (opt_value_number(v, (double)min, &d))
		return -1;
	if (d != trunc(d) || d > (double)max)
		return -1;
	*out = (long)d;
	return 0;
}

void *opt_field(const struct opt_field *rows, size_t n, void *base, const char *name,
		bool *value)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(name, rows[i].name)) {
			if (value)
				*value = rows[i].value;
			return (char *)base + rows[i].off;
		}
	return NULL;
}

bool opt_list_has(const char *list, const char *item)
{
	size_t n = strlen(item);
	for (const char *p = list; *p;) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);
		if (len == n && memcmp(p, item, n) == 0)
			return true;
		if (!c)
			break;
		p = c + 1;
	}
	return false;
}
