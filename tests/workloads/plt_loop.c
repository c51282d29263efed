/*
 * plt_loop: calls eight tiny shared-library functions (plt_lib.c) through
 * the PLT in a hot loop for argv[1] tenths of a second (default 3), so
 * samples land in .plt, where perf names addresses "name@plt" or
 * "_init+off". Stage: tests. Link with -lplt_lib (lazy binding, no
 * -fno-plt). No other libc call than clock_gettime: with GNU ld the
 * first PLT slot is then a hot plt_f*, which perf 6.1 names _init+0x30.
 */
#include <time.h>

#include "plt_lib.h"

static double since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

int main(int argc, char **argv)
{
	double secs = 0.3;
	if (argc > 1 && argv[1][0] >= '0' && argv[1][0] <= '9')
		secs = 0.1 * (argv[1][0] - '0');
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	volatile int v = 0;
	do {
		for (int i = 0; i < 100000; i++)
			v = plt_f7(plt_f6(plt_f5(plt_f4(plt_f3(plt_f2(plt_f1(plt_f0(v))))))));
	} while (since(&t0) < secs);
	return v == 42;
}
