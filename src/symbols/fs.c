/*
 * fs: path joining and link following for the build-id cache (see
 * fs.h). Stage: symbols. Invariant: at most 16 link hops per lookup; a
 * link-as-text file is at most 4 KiB of one line without NUL or newline
 * inside, and is only followed when its target exists.
 */
#include "symbols/fs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

char *sym_fs_join(const char *dir, const char *rest)
{
	struct strbuf sb = SB_INIT;
	sb_adds(&sb, dir);
	if (sb.len && sb.buf[sb.len - 1] == '/' && rest[0] == '/')
		rest++;
	else if (sb.len && sb.buf[sb.len - 1] != '/' && rest[0] != '/')
		sb_addc(&sb, '/');
	sb_adds(&sb, rest);
	return sb_detach(&sb, NULL);
}

bool sym_fs_is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool sym_fs_is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Target text of a link-as-text file, or NULL. */
static char *text_link(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0 ||
	    st.st_size > 4096)
		return NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	char buf[4097];
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return NULL;
	if (buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
	if (n == 0 || memchr(buf, '\n', (size_t)n) || strlen(buf) != (size_t)n ||
	    memcmp(buf, "\177ELF", n < 4 ? (size_t)n : 4) == 0 || !strchr(buf, '/'))
		return NULL;
	return xstrdup(buf);
}

/* Replace the component ending at path[end] (a link-as-text file) with
 * its target, keeping the tail. Returns the new path or NULL. */
static char *substitute(const char *path, size_t end)
{
	char *head = xstrndup(path, end);
	char *target = text_link(head);
	if (!target) {
		free(head);
		return NULL;
	}
	struct strbuf sb = SB_INIT;
	if (target[0] == '/') {
		sb_adds(&sb, target);
	} else {
		char *slash = strrchr(head, '/');
		if (slash)
			sb_add(&sb, head, (size_t)(slash - head + 1));
		sb_adds(&sb, target);
	}
	sb_adds(&sb, path + end);
	free(head);
	free(target);
	return sb_detach(&sb, NULL);
}

/* The first component boundary at which path stops being a directory
 * while more components follow; 0 when none. */
static size_t file_in_middle(const char *path)
{
	for (size_t i = 1; path[i]; i++) {
		if (path[i] != '/')
			continue;
		char *head = xstrndup(path, i);
		struct stat st;
		int rc = stat(head, &st);
		free(head);
		if (rc != 0)
			return 0;
		if (S_ISREG(st.st_mode))
			return i;
	}
	return 0;
}

const char *sym_fs_buildid_dir(const char *given, char **home)
{
	const char *dir = given ? given : getenv("PERF_BUILDID_DIR");
	if (dir && *dir)
		return dir;
	const char *h = getenv("HOME");
	if (!h || !*h)
		return dir;
	*home = sym_fs_join(h, ".debug");
	return *home;
}

char *sym_fs_resolve(const char *path)
{
	char *cur = xstrdup(path);
	for (int hop = 0; hop < 16; hop++) {
		struct stat st;
		if (stat(cur, &st) == 0) {
			char *next = S_ISREG(st.st_mode) ? substitute(cur, strlen(cur)) : NULL;
			if (!next || !(stat(next, &st) == 0 || file_in_middle(next)))
				{ free(next); return cur; }
			free(cur);
			cur = next;
			continue;
		}
		size_t mid = file_in_middle(cur);
		char *next = mid ? substitute(cur, mid) : NULL;
		free(cur);
		if (!next)
			return NULL;
		cur = next;
	}
	free(cur);
	return NULL;
}

FILE *sym_fs_copy_pipe(const char *path, char *name, size_t size)
{
	FILE *in = fopen(path, "rb"), *out = in ? tmpfile() : NULL;
	char buf[65536];
	size_t n;
	bool ok = out != NULL;
	while (ok && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		ok = fwrite(buf, 1, n, out) == n;
	int err = errno;
	ok = ok && !ferror(in) && fflush(out) == 0;
	if (in)
		fclose(in);
	if (!ok) {
		if (out)
			fclose(out);
		errno = err ? err : EIO;
		return NULL;
	}
	snprintf(name, size, "/proc/%d/fd/%d", (int)getpid(), fileno(out));
	return out;
}
