/*
 * forks: a forking test workload for `scorch record`.
 * Usage: forks N SECONDS. The parent forks N children; each child spins
 * in child_work for SECONDS, and the last one also forks a grandchild
 * (grandchild_work) and execs nothing. Every process prints "pid P", so a
 * test can check each of them shows up in the recording. Exits with
 * status 0 when all children exited 0.
 * Build: gcc -O2 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "burn.h"

__attribute__((noinline)) void child_work(double s) { burn(s); }
__attribute__((noinline)) void grandchild_work(double s) { burn(s); }

static void say(void)
{
	printf("pid %ld\n", (long)getpid());
	fflush(stdout);
}

static int wait_all(void)
{
	int status, bad = 0;
	while (wait(&status) > 0)
		bad |= !WIFEXITED(status) || WEXITSTATUS(status);
	return bad;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3;
	double secs = argc > 2 ? atof(argv[2]) : 0.5;
	say();
	for (int i = 0; i < n; i++) {
		pid_t p = fork();
		if (p < 0)
			return 1;
		if (p > 0)
			continue;
		say();
		if (i == n - 1 && fork() == 0) {
			say();
			grandchild_work(secs);
			return 0;
		}
		child_work(secs);
		return wait_all();
	}
	return wait_all();
}
