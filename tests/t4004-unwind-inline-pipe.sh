# t4004-unwind-inline-pipe: --inline expands frame-pointer chains too;
# a pipe-mode --call-graph dwarf recording (arch known only from a later
# HEADER_FEATURE record, no build ids) unwinds from standard input.
fp=$SHARED/corpus/fp
mkdir -p home
HOME=$TMP/home "$SCORCH" fold --buildid-dir "$fp/buildid" "$fp/perf.data" > plain.txt
HOME=$TMP/home "$SCORCH" fold --inline --buildid-dir "$fp/buildid" "$fp/perf.data" > inl.txt
if grep -q ';now' plain.txt; then fail "fp chains get no inline rows by default (as perf)" "$(grep -m1 ';now' plain.txt)"
else pass "fp chains get no inline rows by default (as perf)"; fi
check_grep "--inline adds now() inlined into spin() to fp chains" ';spin;now' inl.txt
a=$(awk '{ s += $NF } END { print s }' plain.txt)
b=$(awk '{ s += $NF } END { print s }' inl.txt)
if [ "$a" = "$b" ]; then pass "--inline keeps the total weight"; else fail "--inline keeps the total weight" "$a != $b"; fi
if ! need perf gcc; then skip "pipe-mode DWARF recording" "perf or gcc missing"; return 0; fi
gcc -O2 -g -fomit-frame-pointer -fno-optimize-sibling-calls -o work_nofp \
	"$SHARED/corpus/src/work.c" || { fail "build work_nofp"; return 0; }
perf record -q -F 299 --call-graph dwarf -o - ./work_nofp 1 2> record.err > pipe.data
check "pipe-mode recording made" test -s pipe.data
HOME=$TMP/home "$SCORCH" fold - < pipe.data > pipe.txt 2> pipe.err
check "fold - of a pipe-mode DWARF recording exits 0" test -s pipe.txt
main=$(awk '{ t += $NF; if ($0 ~ /;main;/) m += $NF } END { if (t) printf "%.0f", 100 * m / t; else print 0 }' pipe.txt)
# pipe mode records no build ids, so there is no [vdso] image to unwind
# out of clock_gettime (perf script uses its own process's vdso there)
if [ "$main" -gt 85 ]; then pass "pipe mode: more than 85% of samples unwind to main ($main%)"
else fail "pipe mode: more than 85% of samples unwind to main" "$main% $(head -3 pipe.txt) $(cat pipe.err)"; fi
