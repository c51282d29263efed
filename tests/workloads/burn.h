/*
 * burn.h: the CPU-spinning loop the forks and threads test workloads
 * share, included by each (static: every workload has its own copy, so
 * the frame reads "burn" in each binary).
 * Stage: test workload. Key invariant: burn stays a real call frame
 * (noinline) for SECONDS of wall-clock time, whatever the machine load.
 */
#ifndef SCORCH_WORKLOADS_BURN_H
#define SCORCH_WORKLOADS_BURN_H

#include <time.h>

volatile unsigned long sink;

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

__attribute__((noinline)) static void burn(double s)
{
	double end = now() + s;
	unsigned long x = 1;
	while (now() < end)
		for (int i = 0; i < 1000; i++)
			x = x * 6364136223846793005UL + 1;
	sink = x;
}

#endif
