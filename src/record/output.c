/*
 * output: the file a recording goes to, and the writer's setup before
 * the first record. Stage: record. A regular file that exists and is not
 * empty is kept as FILE.old first (as perf does; when it cannot be kept
 * it is not overwritten); "-", a FIFO or a device get pipe mode.
 */
#include "record/record.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int rec_output_open(const char *path, bool *pipe_mode, struct diag *d)
{
	*pipe_mode = !strcmp(path, "-");
	if (*pipe_mode)
		return STDOUT_FILENO;
	struct stat st;
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		char old[4096];
		if ((size_t)snprintf(old, sizeof(old), "%s.old", path) >= sizeof(old)) {
			diag_set(d, "%s: name too long to keep the old recording", path);
			return -1;
		}
		if (rename(path, old) < 0) {
			diag_set(d, "cannot move %s to %s: %s; %s is left as it was",
				 path, old, strerror(errno), path);
			return -1;
		}
	}
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		diag_set(d, "%s: %s", path, strerror(errno));
	/* a FIFO or device cannot take the header rewrite: stream instead */
	else if (lseek(fd, 0, SEEK_CUR) < 0)
		*pipe_mode = true;
	return fd;
}

int rec_output_setup(struct pd_writer *w, int fd, bool pipe_mode,
		     const struct rec_opts *o, int zlevel, int argc, char **argv,
		     struct diag *d)
{
	pd_writer_open(w, fd, pipe_mode);
	if (zlevel) {
		uint32_t mmap_len = (uint32_t)(o->mmap_pages * (size_t)sysconf(_SC_PAGESIZE));
		if (pd_writer_compress(w, zlevel, mmap_len) < 0) {
			diag_set(d, "zstd compression is not available");
			return -EINVAL;
		}
	}
	rec_sysinfo_features(w, argc, argv);
	bool tracepoints = false;
	for (size_t i = 0; i < o->nr_events; i++)
		tracepoints |= o->events[i].type == PERF_TYPE_TRACEPOINT;
	if (!tracepoints)
		return 0;
	struct strbuf sb = SB_INIT;
	int rc = rec_tracing_data(&sb, o->events, o->nr_events, d);
	if (rc >= 0)
		pd_writer_tracing_data(w, sb.buf, sb.len);
	sb_release(&sb);
	return rc < 0 ? rc : 0;
}
