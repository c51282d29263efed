/*
 * plt_lib: the tiny shared-library functions plt_loop calls through the
 * PLT (defined in plt_lib.c). Stage: tests.
 */
#ifndef SCORCH_TESTS_PLT_LIB_H
#define SCORCH_TESTS_PLT_LIB_H

int plt_f0(int x);
int plt_f1(int x);
int plt_f2(int x);
int plt_f3(int x);
int plt_f4(int x);
int plt_f5(int x);
int plt_f6(int x);
int plt_f7(int x);

#endif
