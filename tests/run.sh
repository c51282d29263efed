#!/usr/bin/env bash
# tests/run.sh: run the unit tests and every tests/tNNNN-*.sh, count the
# TAP-style lines they print, and end with "N passed, N failed, N skipped".
#   tests/run.sh [PATTERN]   only test files whose name contains PATTERN
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
export SCORCH=${SCORCH:-$root/build/scorch}
export UNIT_TESTS=${UNIT_TESTS:-$root/build/unit-tests}
export SHARED=${SHARED:-$(cd "$root/.." && pwd)/shared}
export ROOT=$root
# sanitizer builds: leaks are detected; only the libraries' are suppressed
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/tests/lsan.supp}
export LC_ALL=C
pattern=${1:-}
log=$(mktemp)
trap 'rm -f "$log"' EXIT

if [ -z "$pattern" ] || [ "$pattern" = unit ]; then
	if [ -x "$UNIT_TESTS" ]; then
		"$UNIT_TESTS" > "$log.unit" 2>&1; rc=$?
		cat "$log.unit" >> "$log"
		grep -E '^not ok|^ok .*# SKIP' "$log.unit"
		if [ $rc -ne 0 ] && ! grep -q '^not ok' "$log.unit"; then
			echo "not ok - unit-tests exited with status $rc" | tee -a "$log"
			tail -5 "$log.unit"
		fi
		rm -f "$log.unit"
	else
		echo "not ok - unit-tests binary missing: $UNIT_TESTS" | tee -a "$log"
	fi
fi

for t in "$here"/t[0-9][0-9][0-9][0-9]-*.sh; do
	[ -e "$t" ] || continue
	name=$(basename "$t" .sh)
	case "$name" in *"$pattern"*) ;; *) continue ;; esac
	tmp=$(mktemp -d)
	start=$(date +%s)
	( cd "$tmp" && T=$name TMP=$tmp bash -c '. "$ROOT/tests/lib.sh"; . "$1"' _ "$t" ) > "$tmp.out" 2>&1
	rc=$?
	cat "$tmp.out" >> "$log"
	grep -E '^not ok' -A20 "$tmp.out" | grep -E '^(not ok|#)' || true
	grep -E '^ok .*# SKIP' "$tmp.out" || true # every skip, with its reason
	if [ $rc -ne 0 ]; then
		echo "not ok - $name: test script exited with status $rc" | tee -a "$log"
		tail -5 "$tmp.out"
	fi
	n=$(grep -c '^ok' "$tmp.out"); f=$(grep -c '^not ok' "$tmp.out")
	printf '# %-40s %3d ok %3d failed %4ss\n' "$name" "$n" "$f" $(( $(date +%s) - start )) >&2
	rm -rf "$tmp" "$tmp.out"
done

skipped=$(grep -c '^ok .*# SKIP' "$log")
passed=$(( $(grep -c '^ok' "$log") - skipped ))
failed=$(grep -c '^not ok' "$log")
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
