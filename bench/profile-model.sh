#!/usr/bin/env bash
# bench/profile-model.sh: the samples -> stacks stage through the profile
# model (src/profile/) against today's text table path (frame names
# joined and interned as strings in stacks/table), on one synthetic
# profile (bench/profile-model.c says what it holds), side by side:
#   - CPU (user+sys) and peak RSS of SAMPLES samples through each path,
#     then its folded output written;
#   - instructions of each under callgrind, on SMALL samples (valgrind
#     runs ~50x slower; skipped when valgrind is missing);
#   - the two folded outputs compared (exit 1 when they differ).
# Environment: BUILD (default build; `make` it first), SAMPLES (default
# 2000000), UNIQUE distinct stacks (default 100000), DEPTH max frames
# (default 40), SMALL (default 200000).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
. "$here/lib.sh"
cd "$root"
BUILD=${BUILD:-build}
SAMPLES=${SAMPLES:-2000000}
UNIQUE=${UNIQUE:-100000}
DEPTH=${DEPTH:-40}
SMALL=${SMALL:-200000}
CC=${CC:-cc}

work=$(mktemp -d /tmp/scorch-bench-profile.XXXXXX)
trap 'rm -rf "$work"' EXIT
objs=$(find "$BUILD/obj/src" -name '*.o' ! -name main.o ! -name '*_test.o')
[ -n "$objs" ] || { echo "no objects in $BUILD: make BUILD=$BUILD first" >&2; exit 1; }
ar rcs "$work/lib.a" $objs
libs="$(pkg-config --libs libelf libdw libzstd libtraceevent libisal) -liberty -lm -lpthread"
$CC -std=c17 -D_GNU_SOURCE -O2 -g -Isrc -o "$work/pm" bench/profile-model.c \
	"$work/lib.a" $libs || exit 1

echo "synthetic profile: $SAMPLES samples of $UNIQUE distinct stacks (3..$DEPTH frames), 300 processes"
# run MODE N: prints "MODE cpu-seconds peak-KB"
run() {
	/usr/bin/time -f '%U %S %M' -o "$work/t.$1" nice "$work/pm" "$1" "$2" "$UNIQUE" \
		"$DEPTH" "$work/$1.folded" 2> "$work/log.$1" || { cat "$work/log.$1"; exit 1; }
	awk -v n="$1" '{ printf "%-6s %8.2f s CPU %9d KB peak RSS\n", n, $1 + $2, $3 }' "$work/t.$1"
}
run text "$SAMPLES"
run model "$SAMPLES"
cat "$work/log.text" "$work/log.model" | sed 's/^/# /'
awk '{ print $1 + $2, $3 }' "$work/t.text" > "$work/a"
awk '{ print $1 + $2, $3 }' "$work/t.model" > "$work/b"
paste "$work/a" "$work/b" | awk '{ c = $3 > 0 ? $3 : 0.01;
	printf "text / model: CPU %.1fx, peak RSS %.1fx\n", $1 / c, $2 / $4 }'
compare "model's folded output against the text table's" "$work/text.folded" "$work/model.folded"

if command -v valgrind > /dev/null; then
	for m in text model; do
		nice valgrind --tool=callgrind --callgrind-out-file="$work/cg.$m" \
			"$work/pm" "$m" "$SMALL" "$UNIQUE" "$DEPTH" "$work/cg.$m.folded" \
			> /dev/null 2> "$work/cg.$m.log"
		ir=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$work/cg.$m.log")
		echo "$m: $ir instructions for $SMALL samples (callgrind)"
		echo "$ir" > "$work/ir.$m"
	done
	awk -v a="$(cat "$work/ir.text")" -v b="$(cat "$work/ir.model")" \
		'BEGIN { printf "text / model instructions: %.1fx\n", a / b }'
else
	echo "# valgrind not installed: no instruction counts"
fi
bench_exit
