/*
 * work.c: the ground-truth workload of the fixture recordings and the
 * record tests. main(T) spins for T seconds (default 2) split by
 * construction over four call paths:
 *   top_one;mid_x;leaf_a;spin  36% of T
 *   top_one;mid_x;leaf_b;spin  12%
 *   top_one;mid_y;leaf_b;spin  32%
 *   recurse (21 frames);spin   20%
 * A correct unwinder and folder reproduces these shares within a few
 * points on any machine. Build it with -fno-optimize-sibling-calls, or
 * gcc turns the leaf calls into jumps and their frames vanish.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

volatile unsigned long sink;

static double seconds_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* spin: burn the CPU for `secs` of wall-clock time. */
__attribute__((noinline)) void spin(double secs)
{
	double deadline = seconds_now() + secs;
	unsigned long state = 7;
	while (seconds_now() < deadline)
		for (int round = 0; round < 1000; round++)
			state = state * 2862933555777941757UL + 3037000493UL;
	sink = state;
}

__attribute__((noinline)) void leaf_a(double secs) { spin(secs); }
__attribute__((noinline)) void leaf_b(double secs) { spin(secs); }

__attribute__((noinline)) void mid_x(double secs)
{
	leaf_a(secs * 0.75);
	leaf_b(secs * 0.25);
}

__attribute__((noinline)) void mid_y(double secs) { leaf_b(secs); }

__attribute__((noinline)) void top_one(double secs)
{
	mid_x(secs * 0.6);
	mid_y(secs * 0.4);
}

/* recurse: depth + 1 frames of itself above spin. */
__attribute__((noinline)) void recurse(int depth, double secs)
{
	if (depth == 0) {
		spin(secs);
		return;
	}
	recurse(depth - 1, secs);
}

int main(int argc, char **argv)
{
	double total = argc > 1 ? atof(argv[1]) : 2.0;
	top_one(total * 0.8);
	recurse(20, total * 0.2);
	printf("done %lu\n", sink);
	return 0;
}
