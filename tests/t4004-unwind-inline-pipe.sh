# t4004-unwind-inline-pipe: --inline expands frame-pointer chains too;
# a pipe-mode --call-graph dwarf recording (arch known only from a later
# HEADER_FEATURE record, no build ids) unwinds from standard input. Both
# recordings are made here from tests/workloads/work.c.
if ! need perf gcc; then skip "fresh fp and pipe-mode recordings" "perf or gcc missing"; return 0; fi
mkdir -p home
src=$ROOT/tests/workloads/work.c
gcc -O2 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls -o work_fp "$src" &&
gcc -O2 -g -fomit-frame-pointer -fno-optimize-sibling-calls -o work_nofp "$src" ||
	{ fail "build work_fp and work_nofp"; return 0; }

# the inlined helper: spin() calls seconds_now(), which gcc inlines
perf --buildid-dir "$TMP/bid" record -q -F 997 -g -o fp.data ./work_fp 1 > /dev/null 2> record.err ||
	{ fail "perf record -g" "$(cat record.err)"; return 0; }
HOME=$TMP/home "$SCORCH" fold --buildid-dir "$TMP/bid" fp.data > plain.txt
HOME=$TMP/home "$SCORCH" fold --inline --buildid-dir "$TMP/bid" fp.data > inl.txt
if ! grep -q ';spin ' plain.txt; then fail "fp chains get no inline rows by default (as perf)" "no spin frame: $(head -3 plain.txt)"
elif grep -q ';spin;seconds_now' plain.txt; then fail "fp chains get no inline rows by default (as perf)" "$(grep -m1 ';seconds_now' plain.txt)"
else pass "fp chains get no inline rows by default (as perf)"; fi
check_grep "--inline adds seconds_now() inlined into spin() to fp chains" ';spin;seconds_now' inl.txt
a=$(awk '{ s += $NF } END { print s + 0 }' plain.txt)
b=$(awk '{ s += $NF } END { print s + 0 }' inl.txt)
if [ "$a" -gt 0 ] && [ "$a" = "$b" ]; then pass "--inline keeps the total weight ($a)"; else fail "--inline keeps the total weight" "$a != $b"; fi

perf record -q -F 299 --call-graph dwarf -o - ./work_nofp 1 2> record.err > pipe.data
check "pipe-mode recording made" test -s pipe.data
HOME=$TMP/home "$SCORCH" fold - < pipe.data > pipe.txt 2> pipe.err
rc=$?
if [ $rc -eq 0 ] && [ -s pipe.txt ]; then pass "fold - of a pipe-mode DWARF recording exits 0"
else fail "fold - of a pipe-mode DWARF recording exits 0" "exit $rc, $(wc -l < pipe.txt) lines: $(head -3 pipe.err)"; fi
main=$(awk '{ t += $NF; if ($0 ~ /;main;/) m += $NF } END { if (t) printf "%.0f", 100 * m / t; else print 0 }' pipe.txt)
# pipe mode records no build ids, so there is no [vdso] image to unwind
# out of clock_gettime (perf script uses its own process's vdso there)
if [ "$main" -gt 85 ]; then pass "pipe mode: more than 85% of samples unwind to main ($main%)"
else fail "pipe mode: more than 85% of samples unwind to main" "$main% $(head -3 pipe.txt) $(cat pipe.err)"; fi
