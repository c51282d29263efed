# t4006: where scorch script differs from perf script on purpose: DWARF
# chains that scorch unwinds further (see docs/scorch-script.md). On a
# shell starting many programs, every sample's chain holds all of perf's
# frames in perf's order (perf's stray outermost "[unknown]" frame aside,
# an address it could not place, where scorch goes on; and perf's
# outermost frame where the two unwinders read the end of the copied
# stack differently: counted and shown, not failed; and a sample taken at
# a ret instruction or right after an epilogue's pop, where perf 6.1
# unwinds with the CFI row of ip - 1, reads the return address one slot
# too far and skips the caller, as seen in ld.so's __rtld_mutex_init and
# _dl_lookup_symbol_x: counted, not failed),
# every header is perf's, and some chains (in ld.so at process start)
# have frames perf skipped or stopped before.
if ! need perf python3 objdump; then skip "unwinding further than perf" "perf, python3 or objdump missing"; return 0; fi
export HOME=$TMP/home
mkdir -p "$HOME"
"$SCORCH" record -q -e cpu-clock -F 4999 --call-graph dwarf -o sh.data -- \
	sh -c 'for i in $(seq 300); do /bin/true; done' > /dev/null 2> err.txt
check "record a shell starting 300 programs: exit 0" test $? -eq 0
perf script -i sh.data 2> /dev/null > perf.txt
"$SCORCH" script -i sh.data > scorch.txt 2> /dev/null
python3 "$ROOT/tests/unwind_further.py" perf.txt scorch.txt > cmp.txt 2> bad.txt
read -r _ np ns < <(grep '^samples' cmp.txt)
check "as many samples as perf script ($np)" test "$np" = "$ns"
check "every header line is perf's" grep -qx 'headers_differ 0' cmp.txt
if grep -qx 'not_a_prefix 0' cmp.txt; then
	pass "every chain holds all of perf's frames, in order (outermost aside: $(sed -n 's/^last_differs //p' cmp.txt); perf's misread ret leaves: $(sed -n 's/^ret_leaf //p' cmp.txt))"
else
	fail "every chain holds all of perf's frames, in order" "$(grep not_a_prefix cmp.txt); $(head -40 bad.txt)"
fi
n=$(sed -n 's/^further //p' cmp.txt)
check "some chains have more frames than perf's ($n)" test "${n:-0}" -gt 0
