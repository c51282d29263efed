/*
 * fdio: read(2), pread(2) and write(2) as the readers and writers want
 * them. Stage: base. A call interrupted by a signal (EINTR) is made
 * again; errors come back as -errno, never through errno alone.
 */
#ifndef SCORCH_BASE_FDIO_H
#define SCORCH_BASE_FDIO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* One read of up to n bytes: the count (0 at end of file) or -errno. */
ssize_t fd_read(int fd, void *buf, size_t n);
/* One pread of up to n bytes at off: the count (0 past the end) or -errno. */
ssize_t fd_pread(int fd, void *buf, size_t n, uint64_t off);
/* All n bytes written: 0, or -errno (-EIO when write makes no progress). */
int fd_write_all(int fd, const void *buf, size_t n);
/* n bytes as the whole of path: written to a temporary file beside it
 * (mode 0666 less the umask) and renamed over it, so that path holds its
 * old contents or all of the new ones, never a part. 0, or -errno (the
 * temporary file removed). */
int fd_write_file(const char *path, const void *buf, size_t n);

#endif
