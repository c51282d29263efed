/*
 * fs: path helpers for symbol lookup: joining, existence, and links.
 * Stage: symbols. The build-id cache is made of symbolic links
 * (.build-id/xx/rest -> ../../<path>/<id>, <id>/debug -> a debug file).
 * Copies that lost their links (a tar extracted without them, a corpus
 * stored on a file system without symlinks) keep each link as a small
 * regular file whose content is the target path; sym_fs_resolve follows
 * both kinds, at any component of the path, with a bounded number of
 * hops. Returned strings are malloc'd; the caller frees.
 */
#ifndef SCORCH_SYMBOLS_FS_H
#define SCORCH_SYMBOLS_FS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* dir + "/" + rest (rest's leading '/' is not doubled). */
char *sym_fs_join(const char *dir, const char *rest);
/* The build-id cache to read: given (--buildid-dir) when not empty; when
 * none is given, $PERF_BUILDID_DIR when set and not empty; else
 * $HOME/.debug (made into *home, which the caller frees) when HOME is
 * set, else what was found (NULL, or an empty string). */
const char *sym_fs_buildid_dir(const char *given, char **home);
/* The existing file (or directory) path names, following real links
 * and link-as-text files; NULL when it does not exist. */
char *sym_fs_resolve(const char *path);
bool sym_fs_is_dir(const char *path);
bool sym_fs_is_file(const char *path);
/* A file read with seeks or read twice (an archive, whose magic the
 * unpacker reads before starting again; an ELF image) that is a pipe
 * (<(...), a FIFO) gets a copy in an unlinked temporary file, named by
 * its /proc path in name (size bytes; 64 are enough). Returns the open
 * copy (the caller closes it, which removes it), or NULL with errno set
 * when the copy fails. */
FILE *sym_fs_copy_pipe(const char *path, char *name, size_t size);

#endif
