# tests/lib.sh: helpers for the shell tests, sourced by tests/run.sh.
# Each assertion prints one TAP-style line: "ok - ...", "not ok - ..." or
# "ok - ... # SKIP reason"; run.sh counts them.
#
#   SCORCH      the scorch binary under test (normal or sanitizer build)
#   SHARED      ../shared (corpus, reference outputs)
#   TMP         a fresh scratch directory for this test file
#   T           the test file's name, prefixed to every assertion

pass() { printf 'ok - %s: %s\n' "$T" "$1"; }
fail() { printf 'not ok - %s: %s\n' "$T" "$1"; [ -n "${2:-}" ] && printf '%s\n' "$2" | head -20 | sed 's/^/#   /'; return 0; }
skip() { printf 'ok - %s: %s # SKIP %s\n' "$T" "$1" "$2"; }

# check DESC CMD...: passes when CMD exits 0.
check() {
	local desc=$1; shift
	local out
	if out=$("$@" 2>&1); then pass "$desc"; else fail "$desc" "$out"; fi
}

# check_fails DESC CMD...: passes when CMD exits non-zero.
check_fails() {
	local desc=$1; shift
	if "$@" >/dev/null 2>&1; then fail "$desc" "command succeeded: $*"; else pass "$desc"; fi
}

# check_same DESC EXPECTED_FILE ACTUAL_FILE: byte-identical files.
check_same() {
	local desc=$1 exp=$2 act=$3
	if cmp -s "$exp" "$act"; then pass "$desc"
	else fail "$desc" "$(diff "$exp" "$act" 2>&1 | head -20)"; fi
}

# check_same_sorted DESC EXPECTED_FILE ACTUAL_FILE: same lines in any order.
check_same_sorted() {
	local desc=$1 exp=$2 act=$3
	if cmp -s <(LC_ALL=C sort "$exp") <(LC_ALL=C sort "$act"); then pass "$desc"
	else fail "$desc" "$(diff <(LC_ALL=C sort "$exp") <(LC_ALL=C sort "$act") 2>&1 | head -20)"; fi
}

# check_grep DESC PATTERN FILE: FILE has a line matching PATTERN (grep -E).
check_grep() {
	if grep -Eq -- "$2" "$3"; then pass "$1"
	else fail "$1" "no line matches '$2' in $3: $(head -5 "$3")"; fi
}

# need CMD...: true when every command exists (for skips).
need() { local c; for c in "$@"; do command -v "$c" >/dev/null 2>&1 || return 1; done; }

# need_shared PATH...: true when every PATH (relative to $SHARED, the
# optional reference corpus ../shared) exists. Otherwise prints one line
# for the test file naming what is missing and returns 1, so a test file
# (or a part of it) that compares with third-party reference material
# reads:  need_shared corpus/fp/perf.data || return 0
# The line is a skip on a clone of the project alone; under CI (CI set),
# where ../shared is always present, it is a failure: no test may be
# skipped there for that reason.
need_shared() {
	local p missing=
	for p in "$@"; do
		[ -e "$SHARED/$p" ] || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	if [ -n "${CI:-}" ]; then
		fail "reference data present" "missing under $SHARED:$missing"
	else
		skip "reference data" "../shared (the optional reference corpus) lacks:$missing"
	fi
	return 1
}

# busy_cpus_start / busy_cpus_stop: a spinner per CPU at the lowest
# priority while an off-CPU recording is made. perf on this kind of VM
# records no sched_switch out of the idle task, so on a quiet machine a
# task that wakes onto an idle CPU is never seen switching back in and
# its off-CPU time cannot be measured; a woken task preempts a spinner,
# and that switch is recorded.
busy_cpus_start() {
	local i n
	n=$(nproc 2>/dev/null || echo 2)
	BUSY_PIDS=
	for i in $(seq "$n"); do
		nice -n 19 sh -c 'while :; do :; done' > /dev/null 2>&1 &
		BUSY_PIDS="$BUSY_PIDS $!"
	done
}
busy_cpus_stop() {
	# shellcheck disable=SC2086
	[ -n "${BUSY_PIDS:-}" ] && kill $BUSY_PIDS 2> /dev/null && wait $BUSY_PIDS 2> /dev/null
	BUSY_PIDS=
	return 0
}
