/*
 * archive: tar files of build-id cache entries, as `perf archive` makes
 * them and `scorch archive` writes them, and their unpacking.
 * Stage: symbols. Reading streams the tar (plain, zstd, or gzip/bzip2/xz
 * through the system's decompressor) into a fresh private directory:
 * names are checked (no absolute paths, no ".." components), symbolic
 * links are stored as link-as-text files (see fs.h) so that nothing is
 * ever written through a link, and every size field is checked.
 * Writing produces a POSIX ustar stream (GNU long names when needed).
 * Ownership: returned paths are malloc'd; the caller frees.
 */
#ifndef SCORCH_SYMBOLS_ARCHIVE_H
#define SCORCH_SYMBOLS_ARCHIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/diag.h"

/* Unpack the tar at path into a new temporary directory (under $TMPDIR
 * or /tmp) and return its path, or NULL with d filled. */
char *sym_archive_unpack(const char *path, struct diag *d);
/* Remove a directory tree made by sym_archive_unpack. */
void sym_archive_remove_tree(const char *dir);

struct sym_tar_writer {
	FILE *f;
	int err;  /* first errno */
};

void sym_tar_begin(struct sym_tar_writer *w, FILE *f);
/* Add a regular file named name with the contents of the file at src
 * (links followed). Returns 0 or -errno. */
int sym_tar_add_file(struct sym_tar_writer *w, const char *name, const char *src);
/* Add a symbolic link name -> target. */
int sym_tar_add_link(struct sym_tar_writer *w, const char *name, const char *target);
/* Two zero blocks; returns 0 or -errno. */
int sym_tar_end(struct sym_tar_writer *w);

#endif
