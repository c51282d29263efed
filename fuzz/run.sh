#!/usr/bin/env bash
# fuzz/run.sh MODE [TARGET]: run the libFuzzer targets in build-fuzz/.
#   smoke:      each target for FUZZ_SECONDS (default 20) from its seeds, as CI does
#   long:       each target for FUZZ_SECONDS (default 600) from its seeds
#   empty:      each target for FUZZ_SECONDS (default 20) from an empty corpus
#   long-empty: each target for FUZZ_SECONDS (default 600) from an empty corpus
# Every target must survive a long run from an empty corpus, not only
# from its seeds.
# Seeds: fuzz/TARGET.seeds lists paths (globs allowed; $here is fuzz/,
# $SHARED the reference corpus ../shared). A path that names no file is
# said in one line; when ../shared is absent (a fresh clone) its seeds are
# said missing once per target and the target runs on the rest. A line
# starting with "-" is a libFuzzer option for that target, e.g.
# -max_len=65536 where big seeds would make every execution slow (the
# default is 1 MB; libFuzzer cuts longer seeds to it).
# Leaks are detected (LSan) with tests/lsan.supp: only the library's.
# A failing target's crash/leak/timeout input is kept in
# build-fuzz/crashes/ (the path the log prints) and its log in
# build-fuzz/logs/. Prints one ok/not ok line per target (with the
# executions done) and ends with "N passed, N failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
mode=${1:-smoke}
only=${2:-}
case $mode in
smoke|empty) secs=${FUZZ_SECONDS:-20} ;;
long|long-empty) secs=${FUZZ_SECONDS:-600} ;;
*) echo "usage: fuzz/run.sh smoke|long|empty|long-empty [TARGET]" >&2; exit 2 ;;
esac
export SHARED=${SHARED:-$(cd "$root/.." && pwd)/shared}
passed=0 failed=0
fb=${FUZZ_BUILD:-build-fuzz}
case $fb in /*) ;; *) fb=$root/$fb ;; esac
mkdir -p "$fb/crashes" "$fb/logs"

# copy_seeds NAME DIR: the files the seed list names, into DIR
copy_seeds() {
	local list=$here/$1.seeds shared_missing=0 pat f found
	if [ ! -f "$list" ]; then
		echo "# $1: no seed list $list"
		return
	fi
	while read -r pat; do
		case $pat in ''|'#'*|-*) continue ;; esac
		case $pat in
		'$SHARED'*) if [ ! -d "$SHARED" ]; then
				shared_missing=$((shared_missing + 1))
				continue
			fi ;;
		esac
		found=0
		for f in $(eval echo "$pat"); do
			[ -f "$f" ] || continue
			cp "$f" "$2/$(echo "$f" | md5sum | cut -c1-16)"
			found=1
		done
		[ $found = 1 ] || echo "# $1: seed not found: $pat"
	done < "$list"
	[ $shared_missing = 0 ] ||
		echo "# $1: $shared_missing seed paths skipped: reference corpus $SHARED not present"
}

for bin in "$fb"/fuzz-*; do
	[ -x "$bin" ] || continue
	name=$(basename "$bin")
	[ -n "$only" ] && [ "$name" != "$only" ] && continue
	work=$(mktemp -d)
	mkdir -p "$work/corpus"
	case $mode in smoke|long) copy_seeds "$name" "$work/corpus" ;; esac
	log=$fb/logs/$name.log
	opts=$(grep -s '^-' "$here/$name.seeds")
	# UBSan recovers by default in these builds: halt, so undefined
	# behaviour fails the run as it aborts the SAN=1 binary
	if ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$root/tests/lsan.supp:print_suppressions=0 \
		UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 "$bin" -max_total_time="$secs" -rss_limit_mb=2048 \
		-max_len=1048576 -timeout=10 $opts -artifact_prefix="$fb/crashes/$name-" "$work/corpus" > "$log" 2>&1; then
		runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -1)
		echo "ok - fuzz $name ($mode, $secs s, ${runs:-?} runs, $(ls "$work/corpus" | wc -l) corpus files)"
		passed=$((passed + 1))
	else
		echo "not ok - fuzz $name ($mode; log $log)"
		grep -E 'ERROR|SUMMARY|Test unit written|==[0-9]+==' "$log" | head -20 | sed 's/^/#   /'
		failed=$((failed + 1))
	fi
	rm -rf "$work"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
