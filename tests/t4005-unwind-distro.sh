# t4005-unwind-distro: distro binaries built without frame pointers (sort,
# gzip), recorded afresh with --call-graph dwarf: scorch's stacks equal
# perf's own unwinding of the same file, frame for frame (including the
# inline rows perf adds from libc's debug file, and PLT entries).
if ! need perf sort gzip; then skip "distro binaries" "perf, sort or gzip missing"; return 0; fi
head -c 8000000 /dev/urandom > data.bin
mkdir -p home
for cmd in "sort -S 20M data.bin" "gzip -1 -c data.bin"; do
	name=${cmd%% *}
	HOME=$TMP/home perf --buildid-dir "$TMP/bid" record -q -F 499 --call-graph dwarf \
		-o "$name.data" -- $cmd > /dev/null 2> "$name.rec.err" ||
		{ fail "$name: perf record" "$(cat "$name.rec.err")"; continue; }
	HOME=$TMP/home perf --buildid-dir "$TMP/bid" script -i "$name.data" 2> /dev/null |
		"$SCORCH" fold --format=perf-script > "$name.perf.folded"
	HOME=$TMP/home "$SCORCH" fold --buildid-dir "$TMP/bid" "$name.data" > "$name.folded" 2> "$name.err"
	check_same "$name: stacks identical to perf script's" "$name.perf.folded" "$name.folded"
	if [ -s "$name.err" ]; then fail "$name: no warning" "$(cat "$name.err")"; else pass "$name: no warning"; fi
done

# a shell starting 1000 programs: dash's vfork keeps its return address in
# rdi around the syscall (DW_CFA_register, CFA = sp), samples there must
# unwind on through dash as perf's do. (Only those stacks are compared:
# in the new processes' first microseconds perf's own unwinding often
# stops early where scorch reaches _start.)
if need sh; then
	# a sample inside vfork is luck (a few per thousand starts): up to 3
	# recordings until perf's stacks have one
	for try in 1 2 3; do
		HOME=$TMP/home perf --buildid-dir "$TMP/bid" record -q -F 4999 --call-graph dwarf \
			-o sh.data -- sh -c 'i=0; while [ $i -lt 1000 ]; do /bin/true; i=$((i+1)); done' \
			> /dev/null 2>&1
		HOME=$TMP/home perf --buildid-dir "$TMP/bid" script -i sh.data 2> /dev/null |
			"$SCORCH" fold --format=perf-script | grep __libc_vfork > sh.perf.folded
		[ -s sh.perf.folded ] && break
	done
	HOME=$TMP/home "$SCORCH" fold --buildid-dir "$TMP/bid" sh.data 2> sh.err |
		grep __libc_vfork > sh.folded
	# 1000 process starts: stacks that end in ld.so's entry code (_start,
	# _dl_start_user: no CFI) end there, they are not cut short
	if [ -s sh.err ]; then fail "sh starting programs: no warning" "$(cat sh.err)"
	else pass "sh starting programs: no warning"; fi
	if [ ! -s sh.perf.folded ] && [ ! -s sh.folded ]; then
		skip "sh starting programs: vfork stacks identical to perf script's" "no sample fell in vfork in 3 recordings"
		skip "sh starting programs: vfork stacks reach __libc_start_call_main" "no sample fell in vfork in 3 recordings"
	else
		check_same "sh starting programs: vfork stacks identical to perf script's" sh.perf.folded sh.folded
		if [ -s sh.folded ] && ! grep -v __libc_start_call_main sh.folded > /dev/null; then
			pass "sh starting programs: vfork stacks reach __libc_start_call_main"
		else fail "sh starting programs: vfork stacks reach __libc_start_call_main" "$(head -3 sh.folded)"; fi
	fi
fi

# stacks deeper than the 8 KB stack copy: cut where the copy ends, with
# perf's "[unknown]" mark as the outermost frame
if need gcc; then
	cat > deep.c <<'SRC'
#include <stdio.h>
#include <string.h>
volatile unsigned long sink;
__attribute__((noinline)) void burn(void) { for (unsigned long i = 0; i < 2000; i++) sink += i * i; }
__attribute__((noinline)) void deep(int n) { volatile char pad[200]; memset((char *)pad, n, sizeof pad); if (n == 0) { burn(); return; } deep(n - 1); sink += pad[3]; }
int main(void) { for (int i = 0; i < 40000; i++) deep(60); printf("%lu\n", sink); return 0; }
SRC
	gcc -O2 -g -fomit-frame-pointer -fno-optimize-sibling-calls -o deep deep.c
	HOME=$TMP/home perf --buildid-dir "$TMP/bid" record -q -F 999 --call-graph dwarf \
		-o deep.data ./deep > /dev/null 2>&1
	HOME=$TMP/home perf --buildid-dir "$TMP/bid" script -i deep.data 2> /dev/null |
		"$SCORCH" fold --format=perf-script > deep.perf.folded
	HOME=$TMP/home "$SCORCH" fold --buildid-dir "$TMP/bid" deep.data > deep.folded 2> /dev/null
	check_same "deep stacks: cut like perf's, [unknown] outermost" deep.perf.folded deep.folded
	check_grep "deep stacks: the cut is marked" '^deep;\[unknown\];deep;' deep.folded
fi
