/*
 * collapse_parallel: perf script text folded by several threads (see
 * collapse_parallel.h).
 * Stage: stacks. Each piece starts right after a blank line and ends right
 * after one (or at the end of the file); after a blank line the Perl
 * script's state is its initial one (a stored sample clears name and
 * stack; with no name, no frame is ever kept), so pieces fold alone. Each
 * thread reads its piece through its own descriptor, streaming; the main
 * thread merges tables and counters in file order, shifting line numbers.
 */
#include "stacks/collapse_parallel.h"
#include "base/fdio.h"
#include "base/lines.h"
#include "base/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { MIN_PIECE = 1 << 20, MAX_JOBS = 64, SCAN_BLOCK = 1 << 16 };

struct piece {
	const char *path;
	uint64_t start, end;        /* bytes [start, end) of the file */
	struct collapse_opts opts;
	bool joinable;              /* folded by its own thread */
	struct stack_table table;
	struct collapse_perf p;
	uint64_t lines;             /* lines in the piece */
	int err;                    /* -errno */
	pthread_t thread;
};

/* Offset just after the first "\n\n" at or after from, or size. */
static int64_t next_cut(int fd, uint64_t from, uint64_t size)
{
	char buf[SCAN_BLOCK];
	char prev = 0;
	for (uint64_t off = from; off < size;) {
		ssize_t n = fd_pread(fd, buf, sizeof(buf), off);
		if (n < 0)
			return n;
		if (n == 0)
			break;
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] == '\n' && prev == '\n')
				return (int64_t)(off + (uint64_t)i + 1);
			prev = buf[i];
		}
		off += (uint64_t)n;
	}
	return (int64_t)size;
}

static void *fold_piece(void *arg)
{
	struct piece *pc = arg;
	int fd = open(pc->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || lseek(fd, (off_t)pc->start, SEEK_SET) < 0) {
		pc->err = -errno;
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	struct lines lr;
	lines_init_fd(&lr, fd, pc->path);
	uint64_t want = pc->end - pc->start;
	const char *s;
	size_t len;
	int rc = 0;
	while (lr.bytes < want && (rc = lines_next(&lr, &s, &len)) == 1)
		collapse_perf_line(&pc->p, s, len, lr.lineno);
	if (rc < 0)
		pc->err = rc;
	collapse_perf_flush(&pc->p);
	pc->lines = lr.lineno;
	lines_close(&lr);
	close(fd);
	return NULL;
}

/* The event filter the whole file gets: given, or the first event of the
 * first piece. False when the first piece has none (then one thread). */
static bool first_event(const char *path, const struct collapse_opts *o,
			uint64_t piece_end, struct strbuf *ev, bool *defaulted)
{
	if (o->event_filter && o->event_filter[0]) {
		sb_adds(ev, o->event_filter);
		*defaulted = false;
		return true;
	}
	struct stack_table t = STACK_TABLE_INIT;
	struct collapse_perf p;
	struct lines lr;
	if (lines_open(&lr, path) < 0)
		return false;
	collapse_perf_init(&p, o, &t);
	const char *s;
	size_t len;
	while (!p.filter_set && lr.bytes < piece_end && lines_next(&lr, &s, &len) == 1)
		collapse_perf_line(&p, s, len, lr.lineno);
	bool found = p.filter_set;
	if (found)
		sb_add(ev, p.filter.buf, p.filter.len);
	*defaulted = true;
	lines_close(&lr);
	collapse_perf_release(&p);
	stack_table_release(&t);
	return found;
}

/* Counters of piece pc (first line number off + 1) into p. */
static void merge_piece(struct collapse_perf *p, const struct piece *pc,
			uint64_t off, bool last)
{
	const struct collapse_perf *q = &pc->p;
	stack_table_merge(p->out, &pc->table);
	if (q->bad_lines && !p->bad_lines) {
		p->first_bad_line = off + q->first_bad_line;
		sb_add(&p->first_bad, q->first_bad.buf, q->first_bad.len);
	}
	p->bad_lines += q->bad_lines;
	if (q->filtered_warned && !p->filtered_warned) {
		p->filtered_warned = true;
		sb_add(&p->filtered_event, q->filtered_event.buf, q->filtered_event.len);
	}
	p->samples += q->samples;
	p->headers += q->headers;
	if (q->truncated_line && !p->truncated_line)
		p->truncated_line = off + q->truncated_line;
	if (last) {
		p->have_pname = q->have_pname;
		p->unterminated_line = q->unterminated_line ? off + q->unterminated_line : 0;
	}
}

static int cut_pieces(const char *path, uint64_t size, int jobs,
		      struct piece *pcs, int *npieces, struct diag *d)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		diag_set(d, "%s", strerror(errno));
		return -errno;
	}
	uint64_t start = 0;
	int n = 0;
	for (int k = 1; k <= jobs && start < size; k++) {
		int64_t end = k == jobs ? (int64_t)size : next_cut(fd, size / (uint64_t)jobs * (uint64_t)k, size);
		if (end < 0) {
			close(fd);
			diag_set(d, "read error: %s", strerror((int)-end));
			return (int)end;
		}
		if ((uint64_t)end <= start)
			continue;
		pcs[n].path = path;
		pcs[n].start = start;
		pcs[n].end = (uint64_t)end;
		n++;
		start = (uint64_t)end;
	}
	close(fd);
	*npieces = n;
	return 0;
}

int collapse_parallel_file(struct collapse_perf *p, const char *path, int jobs,
			   struct diag *d)
{
	struct stat st;
	if (stat(path, &st) < 0) {
		diag_set(d, "%s", strerror(errno));
		return -errno;
	}
	uint64_t size = (uint64_t)st.st_size;
	if (jobs > MAX_JOBS)
		jobs = MAX_JOBS;
	if (size / MIN_PIECE < (uint64_t)jobs)
		jobs = (int)(size / MIN_PIECE);
	if (jobs < 2 || p->opts.srcline)
		return -EAGAIN;
	struct piece *pcs = xcalloc((size_t)jobs, sizeof(*pcs));
	int n = 0, rc = cut_pieces(path, size, jobs, pcs, &n, d);
	struct strbuf ev = SB_INIT;
	bool defaulted = false;
	if (rc == 0 && (n < 2 || !first_event(path, &p->opts, pcs[0].end, &ev, &defaulted)))
		rc = -EAGAIN;
	for (int k = 0; rc == 0 && k < n; k++) {
		pcs[k].opts = p->opts;
		pcs[k].opts.event_filter = ev.buf;
		stack_table_init(&pcs[k].table);
		collapse_perf_init(&pcs[k].p, &pcs[k].opts, &pcs[k].table);
		pcs[k].p.filter_defaulted = defaulted;
		pcs[k].joinable = pthread_create(&pcs[k].thread, NULL, fold_piece,
						 &pcs[k]) == 0;
		if (!pcs[k].joinable)
			fold_piece(&pcs[k]); /* no thread: fold it here */
	}
	uint64_t off = 0;
	for (int k = 0; k < n; k++)
		if (pcs[k].joinable)
			pthread_join(pcs[k].thread, NULL);
	for (int k = 0; rc == 0 && k < n; k++) {
		if (pcs[k].err && rc == 0) {
			rc = pcs[k].err;
			diag_set(d, "read error: %s", strerror(-rc));
		}
		merge_piece(p, &pcs[k], off, k == n - 1);
		off += pcs[k].lines;
	}
	for (int k = 0; k < n; k++) {
		if (pcs[k].p.out) {
			collapse_perf_release(&pcs[k].p);
			stack_table_release(&pcs[k].table);
		}
	}
	sb_release(&ev);
	free(pcs);
	return rc;
}
