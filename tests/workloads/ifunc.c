/* ifunc.c: copies and measures strings for SECS seconds (argv[1],
 * default 0.3). Built static-pie and stripped (t7726), its memcpy and
 * strlen are IFUNCs called through a .plt that no symbol names. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

static char a[4096], b[4096];

static double since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 0.3;
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	size_t n = 0;
	memset(a, 'x', sizeof(a) - 1);
	do {
		for (int i = 0; i < 1000; i++) {
			memcpy(b, a, 64 + (size_t)(i & 63));
			n += strlen(b + (i & 7));
		}
	} while (since(&t0) < secs);
	return n == 0;
}
