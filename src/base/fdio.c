/* fdio: system calls retried on EINTR (see fdio.h). */
#include "base/fdio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

ssize_t fd_read(int fd, void *buf, size_t n)
{
	ssize_t got;
	do
		got = read(fd, buf, n);
	while (got < 0 && errno == EINTR);
	return got < 0 ? -errno : got;
}

ssize_t fd_pread(int fd, void *buf, size_t n, uint64_t off)
{
	ssize_t got;
	do
		got = pread(fd, buf, n, (off_t)off);
	while (got < 0 && errno == EINTR);
	return got < 0 ? -errno : got;
}

int fd_write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int fd_write_file(const char *path, const void *buf, size_t n)
{
	size_t len = strlen(path);
	char *tmp = malloc(len + 11);
	if (!tmp)
		return -ENOMEM;
	memcpy(tmp, path, len);
	memcpy(tmp + len, ".tmpXXXXXX", 11);
	mode_t mask = umask(0);
	umask(mask);
	int fd = mkstemp(tmp);
	int rc = fd < 0 ? -errno : fd_write_all(fd, buf, n);
	if (fd >= 0 && !rc && fchmod(fd, 0666 & ~mask) < 0)
		rc = -errno;
	if (fd >= 0 && close(fd) < 0 && !rc)
		rc = -errno;
	if (!rc && rename(tmp, path) < 0)
		rc = -errno;
	if (rc && fd >= 0)
		unlink(tmp);
	free(tmp);
	return rc;
}
