/*
 * sampleinput: the inputs of `scorch export --format tsv` and `scorch
 * push` read into a profile with one row per sample (wall-clock time,
 * pid, tid), from anything `scorch fold` reads. Stage: command helpers.
 *
 * A perf.data input's samples keep their time, converted to wall-clock
 * ns: exactly with the CLOCK_DATA feature (perf record -k CLOCKID);
 * otherwise the last sample is taken to be at the file's modification
 * time (perf writes the file as the recording ends; a pipe: now). Folded
 * files and perf script text have no rows: their stacks count in the
 * profile only, at the input's time (file mtime, or now for a pipe).
 * Frames are the folded names as TEXT frames (profile_add_folded), so
 * the folded view of the profile is `scorch fold`'s output.
 *
 * Ownership: everything belongs to the sample_input until _release.
 * Failure: sample_input_read prints its message (cmd/) and returns 1.
 */
#ifndef SCORCH_CMD_SAMPLEINPUT_H
#define SCORCH_CMD_SAMPLEINPUT_H

#include <stddef.h>
#include <stdint.h>

#include "cmd/fold_perfdata.h"
#include "profile/profile.h"

struct sample_input {
	struct profile prof;         /* rows: TIME (wall ns) | PID | TID */
	struct fold_perfdata_info info; /* of the first perf input */
	uint64_t input_ns;           /* wall time of the first input */
	uint64_t first_ns, last_ns;  /* range of the rows' times (none: 0, 0) */
	size_t perf_inputs, folded_inputs;
	const char *cmd;             /* for messages: "export" */
};

void sample_input_init(struct sample_input *in, const char *cmd);
void sample_input_release(struct sample_input *in);
/* Add the samples of path (NULL or "-": standard input), folded with
 * fo's options (its info and sink are the reader's own). */
int sample_input_read(struct sample_input *in, const struct fold_perfdata_opts *fo,
		      const char *path);
/* The recording's host name (HOSTNAME feature of the first perf input),
 * else this machine's: into out. */
void sample_input_host(const struct sample_input *in, struct strbuf *out);

#endif
