/*
 * input: one input file of a command that reads text or perf.data (fold,
 * heatmap). Stage: command helpers. The path is opened once; its first
 * bytes tell the format, and the same open file is then read as what it
 * is, those bytes included, so a pipe (a FIFO, <(...), /dev/stdin,
 * standard input) reads exactly as the same bytes in a file do, and a
 * FIFO whose writer has gone is never opened a second time. A directory
 * is perf record --threads output (DIR/data, DIR/data.N), read by path.
 * Ownership: the path is borrowed (argv); a reader from
 * cmd_input_reader is the caller's, and must be freed before
 * cmd_input_close closes the file it reads.
 */
#ifndef SCORCH_CMD_INPUT_H
#define SCORCH_CMD_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/lines.h"
#include "base/strbuf.h"
#include "perfdata/reader.h"
#include "stacks/detect.h"

struct cmd_input {
	struct lines lr;      /* the open file (not for a directory) */
	const char *path;     /* as given; "-" is standard input */
	const char *name;     /* for messages: the path, or "<stdin>" */
	bool dir;             /* a directory: perf record --threads output */
	bool regular;         /* a regular file (may be read again by path) */
};

/* Open path (NULL or "-": standard input). Returns 0, or 1 after
 * printing "PATH: reason". */
int cmd_input_open(struct cmd_input *in, const char *path);
/* Up to n of the first bytes, read ahead without consuming them (fewer
 * only at the end of the input); none for a directory. */
size_t cmd_input_peek(struct cmd_input *in, size_t n, const char **data);
/* A directory, or bytes that start with the perf.data magic (either
 * byte order). Reads ahead 8 bytes. */
bool cmd_input_is_perfdata(struct cmd_input *in);
/* Bytes that start as a pprof profile does (gzip, or a raw Profile
 * message: stacks/pprof_read.h); never a directory. */
bool cmd_input_is_pprof(struct cmd_input *in);
/* The format of the input: FMT_PERF_DATA for perf.data (a directory
 * too: never text, also under a drop-in name), else forced when given
 * (not FMT_UNKNOWN), else what its first 256 KiB say
 * (stacks/detect.h's stack_format_choose); FMT_UNKNOWN with d filled
 * when neither tells. */
enum stack_format cmd_input_format(struct cmd_input *in, enum stack_format forced,
				   struct diag *d);
/* A perf.data reader over the input from its first byte (see
 * pd_reader_open_fd), or NULL with d filled. Only before any line was
 * read from in->lr. */
struct pd_reader *cmd_input_reader(struct cmd_input *in, struct diag *d);
void cmd_input_close(struct cmd_input *in);

/* data to path whole (base/fdio.h fd_write_file), or to standard output
 * for NULL or "-". 0, or 1 after a message naming the file. */
int cmd_write_output(const char *path, const void *data, size_t n);
/* sb to standard output (sb_flush): 0, or 1 after a write error's
 * message. */
int cmd_flush_stdout(struct strbuf *sb);

/* Each "stack count" line of lr, as flame reads folded text (blank
 * lines, '#' comments and lines without a count skipped, a count below 1
 * too, one past 2^64 saturated), given to add. Returns 0, or 1 after a
 * message naming name and the line that could not be read. */
typedef void cmd_folded_fn(void *ctx, const char *stack, size_t len, uint64_t count);
int cmd_read_folded(struct lines *lr, const char *name, cmd_folded_fn *add, void *ctx);

#endif
