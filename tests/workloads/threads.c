/*
 * threads: a multi-threaded test workload for `scorch record`.
 * Usage: threads N SECONDS. Starts N threads (named wk-0, wk-1, ...), each
 * spinning in its own call path (thread_body -> burn_even or burn_odd)
 * for SECONDS, and prints "tid T" for each thread and the main thread,
 * so a test can check that every thread shows up in the recording.
 * Build: gcc -O2 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls -pthread
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "burn.h"

static double secs = 1.0;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

__attribute__((noinline)) void burn_even(double s) { burn(s); }
__attribute__((noinline)) void burn_odd(double s) { burn(s); }

static void *thread_body(void *arg)
{
	long i = (long)arg;
	char name[16];
	snprintf(name, sizeof(name), "wk-%ld", i);
	pthread_setname_np(pthread_self(), name);
	pthread_mutex_lock(&out_lock);
	printf("tid %ld\n", (long)syscall(SYS_gettid));
	fflush(stdout);
	pthread_mutex_unlock(&out_lock);
	if (i % 2)
		burn_odd(secs);
	else
		burn_even(secs);
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4;
	secs = argc > 2 ? atof(argv[2]) : 1.0;
	pthread_t t[64];
	if (n < 1 || n > 64)
		return 2;
	printf("tid %ld\n", (long)getpid());
	fflush(stdout);
	for (long i = 0; i < n; i++)
		pthread_create(&t[i], NULL, thread_body, (void *)i);
	burn_even(secs / 2);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
