/*
 * plt_lib: tiny shared-library functions for the PLT workload
 * (plt_loop.c). Stage: tests. Each is a few instructions, so a caller's
 * samples land often in its PLT stub.
 */
#include "plt_lib.h"

int plt_f0(int x) { return x + 1; }
int plt_f1(int x) { return x + 2; }
int plt_f2(int x) { return x + 3; }
int plt_f3(int x) { return x + 4; }
int plt_f4(int x) { return x + 5; }
int plt_f5(int x) { return x + 6; }
int plt_f6(int x) { return x + 7; }
int plt_f7(int x) { return x + 8; }
