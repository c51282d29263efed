# t4001-unwind-corpus: DWARF unwinding of the corpus `dwarf` case (and its
# big-endian copy) gives perf's stacks, inline frames included, with HOME
# empty and only the case's build-id cache as symbol source.
case_dir=$SHARED/corpus/dwarf
mkdir -p "$TMP/home"
run() { HOME=$TMP/home "$SCORCH" "$@"; }

run fold --buildid-dir "$case_dir/buildid" "$case_dir/perf.data" > fold.txt 2> fold.err
check_same "fold == stackcollapse.folded (perf's inline rows included)" \
	"$case_dir/stackcollapse.folded" fold.txt
if [ -s fold.err ]; then fail "fold prints no warning" "$(cat fold.err)"; else pass "fold prints no warning"; fi

run fold --buildid-dir "$case_dir/buildid" "$SHARED/corpus/big-endian/dwarf/perf.data.be" > be.txt 2>&1
check_same "big-endian copy folds like the original" "$case_dir/stackcollapse.folded" be.txt

# --no-inline: no inline rows; the frames below stay unwound to _start
run fold --no-inline --buildid-dir "$case_dir/buildid" "$case_dir/perf.data" > noinl.txt
if grep -q ';now;' noinl.txt; then fail "--no-inline drops the inlined now()" "$(head -3 noinl.txt)"
else pass "--no-inline drops the inlined now()"; fi
check "--no-inline keeps every stack rooted at _start" \
	awk '$0 !~ /^work_nofp;_start;/ { exit 1 }' noinl.txt
a=$(awk '{ s += $NF } END { print s }' fold.txt)
b=$(awk '{ s += $NF } END { print s }' noinl.txt)
if [ "$a" = "$b" ]; then pass "--no-inline keeps the total weight"; else fail "--no-inline keeps the total weight" "$a != $b"; fi

# the text path agrees: folding perf's own perf script text gives the same
"$SCORCH" fold --format=perf-script "$case_dir/perf-script.txt" > text.txt
check_same "fold of perf.data == fold of perf's script text" text.txt fold.txt

if "$SCORCH" script --help > /dev/null 2>&1; then
	run script --buildid-dir "$case_dir/buildid" "$case_dir/perf.data" > script.txt 2> script.err
	check_same "script == perf-script.txt (unwound frames, (inlined) rows)" \
		"$case_dir/perf-script.txt" script.txt
else
	skip "script == perf-script.txt" "no scorch script command"
fi

# without the build-id cache nothing can be unwound: the sampled pc only,
# and one summary warning naming the missing binaries
run fold --buildid-dir "$TMP/nothing" "$case_dir/perf.data" > bare.txt 2> bare.err
check "no binaries: still exits 0" test -s bare.txt
check_grep "no binaries: one summary warning" 'DWARF samples stopped.*no binary for' bare.err
n=$(grep -c 'DWARF samples' bare.err)
if [ "$n" = 1 ]; then pass "no binaries: the warning is printed once"; else fail "no binaries: the warning is printed once" "$n times"; fi
