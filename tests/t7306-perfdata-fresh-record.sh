# t7306: a fresh `perf record -g` of work_fp (tests/workloads/work.c, built
# as the fixtures are), folded by scorch fold perf.data with the build-id cache perf
# filled, gives the ground-truth shares of work.c within 3 points; the
# same recording with no cache at all still folds (the binary at its
# recorded path), and scorch script agrees with perf script on it.
. "$ROOT/tests/lib-record.sh"
if ! need perf gcc; then
	skip "fresh perf record" "perf or gcc missing"
	return 0 2>/dev/null || exit 0
fi
gcc -O2 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls \
	-o "$TMP/work_fp" "$ROOT/tests/workloads/work.c"
# work.c's shares are wall-clock shares: on a loaded machine one run can
# be skewed by CPU contention, so take the best of up to three recordings
# (a folding bug fails all three).
within() {
	shares "$1" | awk '{ split("36 12 32 20", t, " ")
		for (i = 1; i <= 4; i++) { d = $i - t[i]; if (d < -3 || d > 3) exit 1 } }'
}
for try in 1 2 3; do
	rm -rf "$TMP/cache"
	if ! hi perf --buildid-dir "$TMP/cache" record -q -F 997 -g -o fresh.data "$TMP/work_fp" 1.5 > /dev/null 2> record.err; then
		skip "fresh perf record" "perf record failed: $(head -1 record.err)"
		return 0 2>/dev/null || exit 0
	fi
	"$SCORCH" fold --buildid-dir "$TMP/cache" fresh.data > fresh.folded 2> fold.err
	within fresh.folded && break
done
check "fold of a fresh recording succeeds" test -s fresh.folded
check_shares "fresh work_fp recording: ground-truth shares (try $try)" fresh.folded
check_grep "frames resolved through the cache: main;top_one;mid_x;leaf_a;spin" '^work_fp;.*main;top_one;mid_x;leaf_a;spin ' fresh.folded

"$SCORCH" fold fresh.data > nocache.folded 2>/dev/null
# without the cache, [vdso] has no image (perf would copy its own)
grep -v vdso fresh.folded > a.folded; grep -v vdso nocache.folded > b.folded
check_same "no cache: the binary at its recorded path gives the same stacks" a.folded b.folded

perf --buildid-dir "$TMP/cache" script -i fresh.data > perf.txt 2>/dev/null
"$SCORCH" script --buildid-dir "$TMP/cache" fresh.data > scorch.txt 2>/dev/null
# The kernel symbols of a fresh recording come from /proc/kallsyms on both
# sides; compare user-space lines, which do not depend on kptr_restrict.
grep -v '\[kernel.kallsyms\]' perf.txt > perf.user
grep -v '\[kernel.kallsyms\]' scorch.txt > scorch.user
check_same "script == perf script on a fresh recording (user frames)" perf.user scorch.user
