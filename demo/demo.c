/*
 * demo: the bundled demo workload that `tools/demo.sh` profiles.
 * It spends its CPU time in three phases with a known split, so the
 * flame graph it produces can be checked by eye:
 *   main;run;parse_records;scan_bytes       about 50%
 *   main;run;compress_block;match_window    about 30%
 *   main;run;checksum;mix_word              about 20%
 * Usage: demo [SECONDS]   (default 2)
 * Build with frame pointers: cc -O2 -g -fno-omit-frame-pointer
 *   -fno-optimize-sibling-calls -o demo demo.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile uint64_t sink;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Burn CPU for `seconds` in this frame; each caller passes its own seed,
 * so the compiler cannot fold the phase functions into one. */
__attribute__((noinline)) static void burn(double seconds, uint64_t seed)
{
	double end = now() + seconds;
	uint64_t x = sink + seed;
	while (now() < end)
		for (int i = 0; i < 10000; i++)
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	sink = x;
}

__attribute__((noinline)) static void scan_bytes(double s) { burn(s, 1); }
__attribute__((noinline)) static void parse_records(double s) { scan_bytes(s); }
__attribute__((noinline)) static void match_window(double s) { burn(s, 2); }
__attribute__((noinline)) static void compress_block(double s) { match_window(s); }
__attribute__((noinline)) static void mix_word(double s) { burn(s, 3); }
__attribute__((noinline)) static void checksum(double s) { mix_word(s); }

__attribute__((noinline)) static void run(double total)
{
	/* interleave the phases in 100 slices so any time window shows all */
	for (int i = 0; i < 100; i++) {
		parse_records(total * 0.50 / 100);
		compress_block(total * 0.30 / 100);
		checksum(total * 0.20 / 100);
	}
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 2.0;
	if (seconds <= 0 || seconds > 3600) {
		fprintf(stderr, "usage: demo [SECONDS]  (0 < SECONDS <= 3600)\n");
		return 2;
	}
	run(seconds);
	printf("demo: done (%llu)\n", (unsigned long long)(sink & 0xff));
	return 0;
}
