/*
 * main: the scorch command table, drop-in names and exit status.
 * Commands live in src/cmd/, one per file; each file declares itself with
 * SCORCH_COMMAND(name, "summary"), and the Makefile collects those lines
 * into build/gen/commands.h, so adding a command touches only its file.
 */
#include "base/diag.h"
#include "base/opt.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef SCORCH_VERSION
#define SCORCH_VERSION "0.0-dev"
#endif

#define SCORCH_COMMAND(n, s) int cmd_##n(int argc, char **argv);
#include "commands.h"
#undef SCORCH_COMMAND

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
#define SCORCH_COMMAND(n, s) { #n, cmd_##n, s },
#include "commands.h"
#undef SCORCH_COMMAND
	{ NULL, NULL, NULL },
};

/* Names scorch answers to when installed as a symlink, and the command
 * line they stand for. Long options then also take one dash (-title). */
struct dropin {
	const char *name;
	const char *command;
	const char *extra; /* inserted before the user's arguments, or NULL */
};

static const struct dropin dropins[] = {
	{ "stackcollapse-perf", "fold", "--format=perf-script" },
	{ "stackcollapse-perf.pl", "fold", "--format=perf-script" },
	{ "stackcollapse-stap", "fold", "--format=stap" },
	{ "stackcollapse-stap.pl", "fold", "--format=stap" },
	{ "stackcollapse", "fold", "--format=dtrace" },
	{ "stackcollapse.pl", "fold", "--format=dtrace" },
	{ "flamegraph", "flame", NULL },
	{ "flamegraph.pl", "flame", NULL },
	{ "difffolded", "diff", NULL },
	{ "difffolded.pl", "diff", NULL },
	{ "trace2heatmap", "heatmap", "latency" },
	{ "trace2heatmap.pl", "heatmap", "latency" },
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Command names are C identifiers in the table; users write '-' where
 * the identifier has '_' (buildid_list is "buildid-list"). */
static bool same_name(const char *ident, const char *user)
{
	for (; *ident && *user; ident++, user++)
		if (*ident != *user && !(*ident == '_' && *user == '-'))
			return false;
	return *ident == *user;
}

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; commands[i].name; i++)
		if (same_name(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static const char *display_name(const char *ident)
{
	static char buf[64];
	snprintf(buf, sizeof(buf), "%s", ident);
	for (char *p = buf; *p; p++)
		if (*p == '_')
			*p = '-';
	return buf;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: scorch [--version] [--help] COMMAND [ARGS]\n\n"
		   "scorch turns Linux perf profiles into flame graphs.\n\n"
		   "commands:\n");
	for (size_t i = 0; commands[i].name; i++)
		fprintf(f, "  %-14s %s\n", display_name(commands[i].name),
			commands[i].summary);
	fprintf(f, "\n'scorch help COMMAND' or 'scorch COMMAND --help' shows a "
		   "command's options.\n");
}

/* The last check of standard output: what is still buffered is written
 * now, and a failure (now or earlier) is reported, with its reason, unless
 * the command already said so (diag_write_error prints once). */
static int finish_output(int rc)
{
	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		diag_write_error(NULL, errno);
		return rc ? rc : 1;
	}
	return rc;
}

static int run(const struct command *c, int argc, char **argv)
{
	static struct strbuf prog = SB_INIT;
	sb_reset(&prog);
	sb_addf(&prog, "scorch %s", display_name(c->name));
	diag_prog = prog.buf;
	argv[0] = (char *)display_name(c->name);
	return finish_output(c->fn(argc, argv));
}

static int run_dropin(const struct dropin *d, int argc, char **argv)
{
	const struct command *c = find_command(d->command);
	if (!c) {
		fprintf(stderr, "%s: this build of scorch has no '%s' command\n",
			d->name, d->command);
		return 1;
	}
	char **args = xcalloc((size_t)argc + 2, sizeof(*args));
	int n = 0;
	args[n++] = (char *)d->command;
	if (d->extra)
		args[n++] = (char *)d->extra;
	for (int i = 1; i < argc; i++)
		args[n++] = argv[i];
	opt_perl_compat = true;
	int rc = run(c, n, args);
	free(args);
	return rc;
}

int main(int argc, char **argv)
{
	const char *base = strrchr(argv[0], '/');
	base = base ? base + 1 : argv[0];
	for (size_t i = 0; i < ARRAY_SIZE(dropins); i++)
		if (strcmp(base, dropins[i].name) == 0)
			return run_dropin(&dropins[i], argc, argv);

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	const char *name = argv[1];
	if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 ||
	    (strcmp(name, "help") == 0 && argc < 3)) {
		usage(stdout);
		return finish_output(0);
	}
	if (strcmp(name, "--version") == 0 || strcmp(name, "version") == 0) {
		printf("scorch %s\n", SCORCH_VERSION);
		return finish_output(0);
	}
	if (strcmp(name, "help") == 0) {
		const struct command *c = find_command(argv[2]);
		if (!c) {
			fprintf(stderr, "scorch: '%s' is not a scorch command\n", argv[2]);
			return 2;
		}
		char *args[] = { (char *)c->name, (char *)"--help", NULL };
		return run(c, 2, args);
	}
	const struct command *c = find_command(name);
	if (!c) {
		fprintf(stderr, "scorch: '%s' is not a scorch command; see 'scorch --help'\n",
			name);
		return 2;
	}
	return run(c, argc - 1, argv + 1);
}
