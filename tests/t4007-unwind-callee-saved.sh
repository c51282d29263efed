# t4007: a callee-saved register keeps its value through a frame whose
# CFI does not mention it (the x86_64 psABI; libunwind, perf's unwinder,
# takes it so). libdw 0.188's x86_64 defaults leave rbx undefined, and a
# caller whose CFA is rbx-based then ended the chain: ld.so's
# _dl_runtime_resolve_xsavec, which realigns its stack, seen in lazy
# binding at _dl_fixup+0. tests/workloads/rbxcfa.c has such a frame
# (realign) calling a loop whose CFI never names rbx (spin).
if ! need perf gcc python3; then skip "callee-saved registers in DWARF unwinding" "perf, gcc or python3 missing"; return 0; fi
if [ "$(uname -m)" != x86_64 ]; then skip "callee-saved registers in DWARF unwinding" "the workload is x86_64 assembly"; return 0; fi
export HOME=$TMP/home
mkdir -p "$HOME"
gcc -O2 -g -fomit-frame-pointer -o rbxcfa "$ROOT/tests/workloads/rbxcfa.c" ||
	{ fail "build rbxcfa"; return 0; }
perf record -q -F 999 --call-graph dwarf -o r.data ./rbxcfa > /dev/null 2> rec.err ||
	{ fail "perf record --call-graph dwarf" "$(head -3 rec.err)"; return 0; }
"$SCORCH" script -i r.data > scorch.txt 2> err.txt
check "script: exit 0" test $? -eq 0
# samples in spin, and those whose chain goes on through realign to main
read -r n_spin n_main < <(awk '
	/^[^ \t]/ { if (inspin) { s++; if (m) t++ } inspin = r = m = 0; next }
	/ spin\+/ { inspin = 1 }
	/ realign\+/ { if (inspin) r = 1 }
	/ main\+/ { if (r) m = 1 }
	END { if (inspin) { s++; if (m) t++ } print s + 0, t + 0 }' scorch.txt)
check "samples in spin ($n_spin)" test "$n_spin" -gt 20
check "each of them unwinds through realign (rbx-based CFA) to main ($n_main of $n_spin)" \
	test "$n_main" = "$n_spin"
"$SCORCH" fold r.data > fold.txt 2> err.txt
check "fold: every spin stack is main;realign;spin" \
	sh -c "! grep ';spin ' fold.txt | grep -qv ';main;realign;spin '"
perf script -i r.data 2> /dev/null > perf.txt
python3 "$ROOT/tests/unwind_further.py" perf.txt scorch.txt > cmp.txt 2> bad.txt
check "as perf script: every chain holds all of perf's frames, in order" \
	grep -qx 'not_a_prefix 0' cmp.txt
check "as perf script: the same headers" grep -qx 'headers_differ 0' cmp.txt
