#!/usr/bin/env bash
# bench/kallsyms.sh: CPU time of loading a kernel symbol file
# (sym_kallsyms_load: read, parse, sort, end rules), the current code side
# by side with the code of an earlier commit, the only reference there is:
# exit 1 when the two give different tables.
#   1. builds bench/kallsyms-load.c against $BUILD's library objects
#      (make BUILD=... first), and again with src/symbols/kallsyms.[ch]
#      and table.[ch] taken from git revision $BASE (when set);
#   2. loads FILE (default: the build-id cache copy that bench/unwind.sh
#      made, else a copy of /proc/kallsyms under /tmp) N times with each
#      and prints the median CPU ms per load, MB/s and the ratio;
#   3. checks that both print the same table (every symbol's start, end,
#      insertion number, binding, module flag and name).
# There is no reference tool to run: perf loads kallsyms inside perf
# report/script and cannot be timed alone.
#   BUILD=build BASE=HEAD~1 N=50 [FILE=...] bash bench/kallsyms.sh
#
# "median" is a load into memory freed by the load before (as the loop
# repeats); "first" is the first load of the process, into fresh pages,
# which is what `scorch fold` pays once.
#
# Measured 2026-11-22 (2 shared cores, load average ~2.5), the 5.4 MB,
# 122k-line build-id cache copy, BASE=a8eb807 (line by line through
# base/lines, arena_strndup per name, sorted check, _text by strcmp):
#   current  median 4.6-5.2 ms/load (1000-1130 MB/s), first 6.9-8.0 ms
#   base     median 12.2-12.9 ms/load (~410 MB/s),    first 12.6-17 ms
#   2.5-2.7x less CPU per load, 1.8-2.1x for the first; identical tables.
# A whole process loading it once (perf stat, 30 runs, median task-clock,
# ~0.5 ms of it process start): 12.55 -> 7.64 ms. What is left of a first
# load: parsing ~40%, fresh pages for the table (3.9 MB) and the names
# (3.1 MB) ~35% (prefaulted, one madvise per 64 KB: 2657 -> 1000 page
# faults in scorch fold of the fp corpus), read(2) copying ~8%.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
BUILD=${BUILD:-build}
BASE=${BASE:-}
N=${N:-50}
CC=${CC:-cc}
cd "$root"

pick_file() {
	local f
	for f in /tmp/scorch-bench-unwind/buildid/'[kernel.kallsyms]'/*/kallsyms; do
		[ -f "$f" ] && { echo "$f"; return; }
	done
	f=/tmp/scorch-bench-kallsyms.txt
	[ -s "$f" ] || cat /proc/kallsyms > "$f"
	echo "$f"
}
FILE=${FILE:-$(pick_file)}

work=$(mktemp -d /tmp/scorch-bench-kallsyms.XXXXXX)
trap 'rm -rf "$work"' EXIT
flags="-std=c17 -D_GNU_SOURCE -O2 -g -Isrc"
objs=$(find "$BUILD/obj/src" -name '*.o' ! -name main.o ! -name '*_test.o' \
	! -path '*/symbols/kallsyms.o' ! -path '*/symbols/table.o')
[ -n "$objs" ] || { echo "no objects in $BUILD: make BUILD=$BUILD first" >&2; exit 1; }
ar rcs "$work/rest.a" $objs
libs="$(pkg-config --libs libelf libdw libzstd libtraceevent libisal) -liberty -lm -lpthread"

# build NAME SRCDIR: the harness with kallsyms.c/table.c from SRCDIR
build() {
	$CC $flags -I"$2" -o "$work/$1" bench/kallsyms-load.c \
		"$2/symbols/kallsyms.c" "$2/symbols/table.c" "$work/rest.a" $libs
}

build new src
if [ -n "$BASE" ]; then
	mkdir -p "$work/basesrc/symbols"
	for f in kallsyms.c kallsyms.h table.c table.h; do
		git show "$BASE:src/symbols/$f" > "$work/basesrc/symbols/$f"
	done
	build base "$work/basesrc"
fi

mb=$(awk -v b="$(stat -c %s "$FILE")" 'BEGIN { printf "%.2f", b / 1048576 }')
echo "file: $FILE ($mb MB, $(wc -l < "$FILE") lines), $N loads each"
# time NAME LABEL: one line, sets $median and $first (ms)
time_it() {
	local out
	out=$("$work/$1" "$FILE" "$N")
	median=$(echo "$out" | sed 's/.*median \([0-9.]*\) ms.*/\1/')
	first=$(echo "$out" | sed 's/.*first \([0-9.]*\) ms.*/\1/')
	printf '%-14s median %6.2f ms/load (%4.0f MB/s), first load %6.2f ms\n' "$2" \
		"$median" "$(awk -v m="$mb" -v t="$median" 'BEGIN { print m / t * 1000 }')" "$first"
}
time_it new current; new=$median new_first=$first
[ -n "$BASE" ] || { echo "no BASE: no earlier code to time and compare tables with (BASE=REV)"; exit 0; }
time_it base "base $BASE"; base=$median
echo "ratio: $(awk -v a="$base" -v b="$new" 'BEGIN { printf "%.2f", a / b }')x less CPU (median)," \
	"$(awk -v a="$first" -v b="$new_first" 'BEGIN { printf "%.2f", a / b }')x (first load)"
"$work/new" "$FILE" dump > "$work/new.txt"
"$work/base" "$FILE" dump > "$work/base.txt"
if cmp -s "$work/new.txt" "$work/base.txt"; then
	echo "tables: identical ($(head -1 "$work/new.txt"))"
else
	echo "tables: DIFFER" >&2
	diff "$work/base.txt" "$work/new.txt" | head -20 >&2
	exit 1
fi
