#!/usr/bin/env bash
# fuzz/run.sh smoke|long [TARGET]: run the libFuzzer targets in build-fuzz/.
#   smoke: each target for FUZZ_SECONDS (default 20) from its seeds, as CI does
#   long:  each target for FUZZ_SECONDS (default 600)
# Seeds: fuzz/seeds.sh TARGET prints the seed files for a target (corpus
# inputs from ../shared). Prints one ok/not ok line per target and ends
# with "N passed, N failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
mode=${1:-smoke}
only=${2:-}
case $mode in
smoke) secs=${FUZZ_SECONDS:-20} ;;
long) secs=${FUZZ_SECONDS:-600} ;;
*) echo "usage: fuzz/run.sh smoke|long [TARGET]" >&2; exit 2 ;;
esac
export SHARED=${SHARED:-$(cd "$root/.." && pwd)/shared}
passed=0 failed=0
fb=${FUZZ_BUILD:-build-fuzz}
case $fb in /*) ;; *) fb=$root/$fb ;; esac
for bin in "$fb"/fuzz-*; do
	[ -x "$bin" ] || continue
	name=$(basename "$bin")
	[ -n "$only" ] && [ "$name" != "$only" ] && continue
	work=$(mktemp -d)
	mkdir -p "$work/corpus"
	# seeds: the list file beside the target source names paths (globs allowed)
	if [ -f "$here/$name.seeds" ]; then
		while read -r pat; do
			case $pat in ''|'#'*) continue ;; esac
			for f in $(eval echo "$pat"); do
				[ -f "$f" ] && cp "$f" "$work/corpus/$(echo "$f" | md5sum | cut -c1-16)"
			done
		done < "$here/$name.seeds"
	fi
	# UBSan recovers by default in these builds: halt, so undefined
	# behaviour fails the run as it aborts the SAN=1 binary
	if ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 "$bin" -max_total_time="$secs" -rss_limit_mb=2048 \
		-max_len=1048576 -timeout=10 -artifact_prefix="$work/" "$work/corpus" > "$work/log" 2>&1; then
		echo "ok - fuzz $name ($secs s, $(ls "$work/corpus" | wc -l) corpus files)"
		passed=$((passed + 1))
	else
		echo "not ok - fuzz $name"
		grep -E 'ERROR|SUMMARY|Test unit written|==[0-9]+==' "$work/log" | head -20 | sed 's/^/#   /'
		mkdir -p "$fb/crashes"
		cp "$work"/crash-* "$work"/timeout-* "$work"/oom-* "$fb/crashes/" 2>/dev/null
		failed=$((failed + 1))
	fi
	rm -rf "$work"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
