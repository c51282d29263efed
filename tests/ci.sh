#!/usr/bin/env bash
# tests/ci.sh: the whole test suite, as `make check` and .ci/run run it.
#  1. install missing Debian packages (when root or sudo works)
#  2. build, run the suite
#  3. build with ASan+UBSan, run the suite again
#  4. build the libFuzzer targets, fuzz each briefly from its seeds
# Ends with the summed line "N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
total_p=0 total_f=0 total_s=0

tally() { # LOGFILE PHASE
	local line
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -1)
	if [ -z "$line" ]; then
		echo "# $2: no result line (build or runner failed)"
		total_f=$((total_f + 1))
		return
	fi
	echo "# $2: $line"
	set -- $line
	total_p=$((total_p + $1)); total_f=$((total_f + $3)); total_s=$((total_s + ${5:-0}))
}

phase() { # NAME CMD...
	local name=$1; shift
	local log
	log=$(mktemp)
	echo "## $name"
	"$@" > "$log" 2>&1
	grep -E '^(not ok|#   )|error|Error' "$log" | grep -v '^ok' | head -60
	grep -E '^ok .*# SKIP' "$log" | head -40 # every skip, with its reason
	tally "$log" "$name"
	rm -f "$log"
}

# CI always has the reference corpus beside the checkout: its absence there
# is a failure, not a reason to skip (tests/lib.sh need_shared)
shared=${SHARED:-$(cd .. && pwd)/shared}
if [ -n "${CI:-}" ] && [ ! -d "$shared" ]; then
	echo "not ok - ci: the reference corpus ../shared is missing ($shared)"
	total_f=$((total_f + 1))
fi

bash tools/install-deps.sh --test || echo "# warning: some dependencies could not be installed"

phase "build+test" bash -c "make -j$jobs all unit >/dev/null && make test"
phase "asan+ubsan" bash -c "make SAN=1 -j$jobs all unit >/dev/null && ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp make SAN=1 test"
if command -v clang >/dev/null; then
	phase "fuzz" bash -c "make -j$jobs fuzz >/dev/null && bash fuzz/run.sh smoke"
else
	echo "# fuzz: clang missing, skipped"
	total_s=$((total_s + 1))
fi

echo "$total_p passed, $total_f failed, $total_s skipped"
[ "$total_f" -eq 0 ]
