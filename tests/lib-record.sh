# tests/lib-record.sh: helpers for the t74NN `scorch record` tests (sourced
# after tests/lib.sh). Workloads are compiled fresh into $TMP; the build-id
# cache goes to $TMP/home/.debug so tests never touch the real ~/.debug.

export HOME=$TMP/home
mkdir -p "$HOME"

# hi: run a command at a high priority when we may (root), so other jobs
# on a loaded machine disturb the time-based shares of work.c less.
hi() {
	if [ "$(id -u)" = 0 ]; then nice -n -20 "$@"; else "$@"; fi
}

# build_corpus_workloads: $TMP/work_fp and $TMP/work_nofp from the
# project's ground-truth workload tests/workloads/work.c (the same
# functions, call paths and shares as the corpus's src/work.c), built with
# the corpus's flags: with and without frame pointers.
build_corpus_workloads() {
	gcc -O2 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls \
		-o "$TMP/work_fp" "$ROOT/tests/workloads/work.c" &&
	gcc -O2 -g -fomit-frame-pointer -fno-optimize-sibling-calls \
		-o "$TMP/work_nofp" "$ROOT/tests/workloads/work.c"
}

# build_workload NAME [FLAGS]: $TMP/NAME from tests/workloads/NAME.c.
build_workload() {
	local n=$1; shift
	gcc -O2 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls "$@" \
		-o "$TMP/$n" "$ROOT/tests/workloads/$n.c"
}

# check_perf_quiet DESC FILE: perf report --header-only and perf script
# read FILE and print nothing on standard error.
check_perf_quiet() {
	local desc=$1 f=$2
	perf report --header-only -i "$f" > /dev/null 2> perf-err.txt
	perf script -i "$f" > /dev/null 2>> perf-err.txt
	if [ -s perf-err.txt ]; then fail "$desc" "$(head -5 perf-err.txt)"
	else pass "$desc"; fi
}

# shares FOLDED: percentages of the four work.c paths, "A B C D" for
# mid_x;leaf_a, mid_x;leaf_b, mid_y;leaf_b, recurse (of all weight).
shares() {
	awk '{ w = $NF; total += w
	       if (index($0, "top_one;mid_x;leaf_a;")) a += w
	       else if (index($0, "top_one;mid_x;leaf_b;")) b += w
	       else if (index($0, "top_one;mid_y;leaf_b;")) c += w
	       else if (index($0, "main;recurse;")) d += w }
	     END { if (total == 0) total = 1
	           printf "%.1f %.1f %.1f %.1f\n", 100*a/total, 100*b/total, 100*c/total, 100*d/total }' "$1"
}

# check_shares DESC FOLDED: within 3 points of the ground truth 36 12 32 20.
check_shares() {
	local desc=$1 got
	got=$(shares "$2")
	if echo "$got" | awk '{ split("36 12 32 20", t, " ")
		for (i = 1; i <= 4; i++) { d = $i - t[i]; if (d < -3 || d > 3) exit 1 } }'
	then pass "$desc ($got)"
	else fail "$desc" "shares $got, expected 36 12 32 20 within 3 points"; fi
}

# shares_ok FOLDED: true when within 3 points of the ground truth.
shares_ok() {
	shares "$1" | awk '{ split("36 12 32 20", t, " ")
		for (i = 1; i <= 4; i++) { d = $i - t[i]; if (d < -3 || d > 3) exit 1 } }'
}

# record_shares OUT.folded TRIES CMD...: run CMD (a scorch record writing
# rec.data), fold perf script of rec.data into OUT; up to TRIES times while
# the shares miss (work.c spins on wall-clock time, so a loaded machine
# that deschedules it in one phase skews them). Prints the tries used.
record_shares() {
	local out=$1 tries=$2 i; shift 2
	for i in $(seq "$tries"); do
		hi "$@" > /dev/null 2>&1 || return 1
		perf script -i rec.data 2> /dev/null | "$SCORCH" fold > "$out"
		if shares_ok "$out"; then echo "$i"; return 0; fi
	done
	echo "$tries"
}

# check_shares_vs_perf DESC FOLDED PERF_ARGS...: FOLDED (scorch's) within 3
# points of the ground truth. When it is not, perf record is run the same
# way: if perf misses too, the machine is too loaded for wall-clock shares
# and the check is skipped with both results; otherwise it fails.
check_shares_vs_perf() {
	local desc=$1 folded=$2; shift 2
	if shares_ok "$folded"; then
		pass "$desc ($(shares "$folded"))"
		return
	fi
	hi perf record -q "$@" > /dev/null 2>&1
	perf script -i perf-ref.data 2> /dev/null | "$SCORCH" fold > perf-ref.folded
	if shares_ok perf-ref.folded; then
		fail "$desc" "scorch $(shares "$folded"), perf $(shares perf-ref.folded), expected 36 12 32 20 within 3 points"
	else
		skip "$desc" "machine too loaded: perf record misses too (scorch $(shares "$folded"), perf $(shares perf-ref.folded))"
	fi
}

# check_fold_same DESC FILE: `scorch fold FILE` exits 0 and equals
# `perf script -i FILE | scorch fold`, which is not empty.
check_fold_same() {
	local desc=$1 f=$2
	perf script -i "$f" 2> /dev/null | "$SCORCH" fold > via-script.folded
	if ! "$SCORCH" fold "$f" > direct.folded 2> fold-err.txt; then
		fail "$desc" "scorch fold exited non-zero: $(head -3 fold-err.txt)"
	elif ! [ -s via-script.folded ]; then
		fail "$desc" "perf script | scorch fold of $f is empty"
	else
		check_same "$desc" via-script.folded direct.folded
	fi
}

# tracing_data FILE: the TRACING_DATA feature of a file-mode perf.data
# (bit 1, so the first entry of the feature table) on standard output.
tracing_data() {
	local f=$1 doff dsize toff tsize bits
	bits=$(od -An -t u1 -j 72 -N 1 "$f" | tr -d ' ')
	[ $((bits & 2)) -ne 0 ] || return 1
	doff=$(od -An -t u8 -j 40 -N 8 "$f" | tr -d ' ')
	dsize=$(od -An -t u8 -j 48 -N 8 "$f" | tr -d ' ')
	toff=$(od -An -t u8 -j $((doff + dsize)) -N 8 "$f" | tr -d ' ')
	tsize=$(od -An -t u8 -j $((doff + dsize + 8)) -N 8 "$f" | tr -d ' ')
	tail -c +$((toff + 1)) "$f" | head -c "$tsize"
}
