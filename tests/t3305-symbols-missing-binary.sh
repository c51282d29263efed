# t3305: frames of a binary that is gone since the recording show as
# "[name]"; every perf.data command then warns once, naming the binary,
# for frame-pointer recordings as the DWARF unwinder's summary does.
. "$ROOT/tests/lib-record.sh"

if ! build_workload work; then
	fail "build the test workload"
	return 0
fi
mv work gone_fp
# -N: no build-id cache, so nothing but the path could find the binary
"$SCORCH" record -q -N -e cpu-clock -F 499 -g -o fp.data -- ./gone_fp 0.3 > /dev/null 2> err.txt
check "record: exit 0" test $? -eq 0
rm gone_fp

"$SCORCH" fold fp.data > fp.folded 2> err.txt
check "fold: exit 0" test $? -eq 0
check_grep "fold: frames of the gone binary show as [gone_fp]" '\[gone_fp\]' fp.folded
check_grep "fold: warns, naming the binary" \
	"fp.data: no binary for $TMP/gone_fp .*its frames show as \[gone_fp\]" err.txt
check "fold: one warning for all its samples" test "$(grep -c 'no binary' err.txt)" -eq 1
for cmd in script report; do
	"$SCORCH" $cmd -i fp.data > out.txt 2> err.txt
	check_grep "$cmd: warns, naming the binary" "no binary for $TMP/gone_fp" err.txt
	check "$cmd: once" test "$(grep -c 'no binary' err.txt)" -eq 1
done

# DWARF: the unwinder's summary names it; not a second time
gcc -O2 -g -fomit-frame-pointer -fno-optimize-sibling-calls -o gone_dw "$ROOT/tests/workloads/work.c"
"$SCORCH" record -q -N -e cpu-clock -F 499 --call-graph dwarf -o dw.data -- ./gone_dw 0.3 > /dev/null 2> err.txt
check "dwarf record: exit 0" test $? -eq 0
rm gone_dw
"$SCORCH" fold dw.data > dw.folded 2> err.txt
check "dwarf fold: the binary is named once" test "$(grep -o "gone_dw" err.txt | wc -l)" -eq 1

# a binary still there: no such warning
build_workload work
"$SCORCH" record -q -N -e cpu-clock -F 499 -g -o ok.data -- ./work 0.2 > /dev/null 2> err.txt
"$SCORCH" fold ok.data > ok.folded 2> err.txt
check "binary present: no warning" test -z "$(grep 'no binary' err.txt)"
