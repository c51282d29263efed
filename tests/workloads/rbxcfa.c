/*
 * rbxcfa: a frame whose CFA is rbx-based, as ld.so's _dl_runtime_resolve
 * (which realigns its stack for xsave): realign saves rbx, copies rsp to
 * it, aligns rsp and calls spin, a loop whose CFI never mentions rbx.
 * realign's CFA then needs rbx to keep its value through spin's frame,
 * as the x86_64 psABI says of a callee-saved register. Used by t4007.
 *   rbxcfa [LOOPS]   (default 400 million: a few tenths of a second)
 */
#include <stdlib.h>

void realign(unsigned long loops);

__asm__(".text\n"
	".globl realign\n"
	".type realign, @function\n"
	"realign:\n"
	".cfi_startproc\n"
	"	push %rbx\n"
	".cfi_adjust_cfa_offset 8\n"
	".cfi_offset %rbx, -16\n"
	"	mov %rsp, %rbx\n"
	".cfi_def_cfa_register %rbx\n"
	"	and $-64, %rsp\n"
	"	call spin\n"
	"	mov %rbx, %rsp\n"
	".cfi_def_cfa_register %rsp\n"
	"	pop %rbx\n"
	".cfi_adjust_cfa_offset -8\n"
	".cfi_restore %rbx\n"
	"	ret\n"
	".cfi_endproc\n"
	".size realign, .-realign\n"
	".globl spin\n"
	".type spin, @function\n"
	"spin:\n"
	".cfi_startproc\n"
	"1:	sub $1, %rdi\n"
	"	jnz 1b\n"
	"	ret\n"
	".cfi_endproc\n"
	".size spin, .-spin\n");

int main(int argc, char **argv)
{
	realign(argc > 1 ? strtoul(argv[1], NULL, 10) : 400000000ul);
	return 0;
}
