/*
 * opt: option tables for commands, over getopt_long.
 * Stage: base. A command's option table is the one source of its flags
 * and one-line help: opt_parse parses with it, opt_usage prints it for
 * --help, and the man page is generated from that output (tools/mkman.sh).
 *
 *   static const struct opt_spec opts[] = {
 *       { "pid", 0, OPT_NONE, NULL, "include the PID in the process name", O_PID },
 *       { "title", 't', OPT_REQ, "TEXT", "change the title", O_TITLE },
 *       OPT_END_SPEC
 *   };
 *   struct opt_state st = OPT_STATE_INIT;
 *   int id; const char *arg;
 *   while ((id = opt_next(&st, argc, argv, &cmd, &arg)) > 0) switch (id) ...
 *   if (id < 0) return 2;      // bad option, message already printed
 *   // operands: argv[st.ind .. argc-1]
 *
 * --help / -h are handled inside: usage goes to stdout and opt_next
 * returns OPT_HELP (the command returns 0).
 */
#ifndef SCORCH_BASE_OPT_H
#define SCORCH_BASE_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum { OPT_NONE = 0, OPT_REQ = 1, OPT_OPTIONAL = 2 };
enum { OPT_DONE = 0, OPT_ERROR = -1, OPT_HELP = -2 };

struct opt_spec {
	const char *name;  /* long name without dashes */
	int short_name;    /* 0 for none */
	int has_arg;       /* OPT_NONE, OPT_REQ, OPT_OPTIONAL */
	const char *arg;   /* argument placeholder for help, e.g. "FILE" */
	const char *help;  /* one line; NULL hides the option from help */
	int id;            /* > 0, returned by opt_next */
};
#define OPT_END_SPEC { NULL, 0, 0, NULL, NULL, 0 }

struct opt_cmd {
	const char *name;     /* "fold" */
	const char *usage;    /* "scorch fold [options] [FILE...]" */
	const char *summary;  /* one line */
	const struct opt_spec *opts;
	bool permute;          /* options may also follow operands (GNU order);
				  false: the first operand ends the options */
};

struct opt_state {
	int ind;       /* first operand after parsing */
	void *priv;    /* built getopt tables */
};
#define OPT_STATE_INIT { 0, NULL }

/* Set by main when scorch runs under a drop-in name (flamegraph.pl, ...):
 * long options may then be written with one dash, as Getopt::Long allows. */
extern bool opt_perl_compat;

int opt_next(struct opt_state *st, int argc, char **argv,
	     const struct opt_cmd *cmd, const char **arg);
void opt_usage(FILE *f, const struct opt_cmd *cmd);
/* Print "try --help" hint for a usage error; returns 2. */
int opt_usage_error(const struct opt_cmd *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Option values: text v as a finite number >= min (opt_value_number),
 * or a whole one in [min, max] (opt_value_integer), into *out. Returns
 * 0, or -1 (*out unchanged); the command says "--name: bad value 'v'". */
int opt_value_number(const char *v, double min, double *out);
int opt_value_integer(const char *v, long min, long max, long *out);
/* A field of an options struct named by its long option, for setting
 * options by name: opt_field gives the address of name's field in base
 * (base + off of the row named name), or NULL when no row is. value is
 * what a flag row stores in its bool field. */
struct opt_field {
	const char *name;
	size_t off;        /* offsetof the field */
	bool value;
};
void *opt_field(const struct opt_field *rows, size_t n, void *base, const char *name,
		bool *value);
/* The same over a whole array of rows. */
#define OPT_FIELD(rows, base, name, value) \
	opt_field(rows, sizeof(rows) / sizeof((rows)[0]), base, name, value)

/* Whether item is one of the comma-separated names of list (an option
 * value such as --comm a,b,c), compared whole. */
bool opt_list_has(const char *list, const char *item);

#endif
