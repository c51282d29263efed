/*
 * syscalls: a test workload that spends its time half in the kernel.
 * Usage: syscalls SECONDS. Loops in do_syscalls, writing 4 KiB blocks to
 * /dev/null and calling getppid, so its samples carry both kernel frames
 * (the system calls) and user frames (do_syscalls, main).
 * Build: gcc -O2 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls
 */
#include <fcntl.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

__attribute__((noinline)) void do_syscalls(int fd, double secs)
{
	static char buf[4096];
	double end = now() + secs;
	while (now() < end)
		for (int i = 0; i < 100; i++)
			if (write(fd, buf, sizeof(buf)) < 0 || getppid() < 0)
				return;
}

int main(int argc, char **argv)
{
	int fd = open("/dev/null", O_WRONLY);
	if (fd < 0)
		return 1;
	do_syscalls(fd, argc > 1 ? atof(argv[1]) : 1.0);
	close(fd);
	return 0;
}
