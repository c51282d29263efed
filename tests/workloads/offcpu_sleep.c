/*
 * offcpu_sleep: a workload with a known off-CPU profile, for the off-CPU
 * tests (tests/t7505). Stage: test workload. Ten rounds of: burn 5 ms of
 * CPU, sleep 30 ms in nap_long(), burn 5 ms, sleep 10 ms in nap_short().
 * Key invariant: the sleeping system call is made from inside nap_long
 * and nap_short themselves (inline syscall, no libc frame without a frame
 * pointer in between), so a frame-pointer call chain names them: 75% of
 * the process's off-CPU time is in nap_long, 25% in nap_short.
 * Build: cc -O1 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls
 */
#include <stdint.h>
#include <time.h>

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

__attribute__((noinline)) static void burn(uint64_t ms)
{
	uint64_t end = now_ns() + ms * 1000000u;
	while (now_ns() < end)
		;
}

/* nanosleep as a raw system call made right here */
static inline __attribute__((always_inline)) void sleep_here(long ms)
{
	struct timespec ts = { 0, ms * 1000000L };
#if defined(__x86_64__)
	long ret;
	__asm__ volatile("syscall" : "=a"(ret) : "a"(35L), "D"(&ts), "S"(0L)
			 : "rcx", "r11", "memory");
	(void)ret;
#elif defined(__aarch64__)
	register long x8 __asm__("x8") = 101;
	register long x0 __asm__("x0") = (long)&ts;
	register long x1 __asm__("x1") = 0;
	__asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1) : "memory");
#else
	nanosleep(&ts, 0);
#endif
}

__attribute__((noinline)) static void nap_long(void)
{
	sleep_here(30);
}

__attribute__((noinline)) static void nap_short(void)
{
	sleep_here(10);
}

int main(void)
{
	for (int i = 0; i < 10; i++) {
		burn(5);
		nap_long();
		burn(5);
		nap_short();
	}
	return 0;
}
