#!/usr/bin/env bash
# bench/report.sh [FILE]: `scorch report` against `perf report --stdio`,
# both in their default form (children view with call graphs), on a
# system-wide recording. Records FILE (default
# /tmp/scorch-bench-report.data) when missing:
#   perf record -F 999 -a -g -- <find /usr | xargs md5sum load, SECS s>
# Then RUNS times alternating (medians printed): CPU (user+sys) and peak
# RSS of each, their ratio (issue #16's goal: perf report >= 8x scorch's
# CPU) and whether the outputs are identical but for perf's random tip
# (the last three lines). Both resolve symbols from the live file system
# (perf record -N, an empty --buildid-dir).
# Environment: SCORCH (default ./build/scorch), SECS (default 30), RUNS
# (default 3), OPTS (extra options given to both, e.g. "--no-children").
# Measured: see docs/scorch-report.md (SPEED).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
. "$here/lib.sh"
SCORCH=${SCORCH:-$root/build/scorch}
file=${1:-/tmp/scorch-bench-report.data}
SECS=${SECS:-30}
RUNS=${RUNS:-3}
OPTS=${OPTS:-}
work=$(mktemp -d /tmp/scorch-bench-report.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/ids"   # an empty build-id cache: symbols from the files

if [ ! -s "$file" ]; then
	command -v perf > /dev/null || { echo "perf not installed" >&2; exit 1; }
	cat > "$work/load.sh" <<'LOAD'
end=$(( $(date +%s) + $1 ))
while [ "$(date +%s)" -lt "$end" ]; do
	find /usr -type f -size -256k 2>/dev/null | head -n 20000 |
		xargs -d '\n' -n 4 md5sum > /dev/null 2>&1
done
LOAD
	echo "recording $file: perf record -F 999 -a -g, $SECS s of find | xargs md5sum..." >&2
	perf record -q -N -F 999 -a -g -o "$file" -- bash "$work/load.sh" "$SECS" \
		> /dev/null 2> "$work/record.log" || { cat "$work/record.log" >&2; exit 1; }
fi
cat "$file" > /dev/null
samples=$(perf report -i "$file" --stats 2>/dev/null | awk '$1 == "SAMPLE" { print $3; exit }')
echo "file: $file ($(( $(stat -c %s "$file") / 1048576 )) MB, ${samples:-?} samples); options: ${OPTS:-(default)}"

# timed NAME OUT CMD...: one run; appends "cpu-seconds peak-KB" to $work/NAME
timed() {
	local name=$1 out=$2; shift 2
	/usr/bin/time -f '%U %S %M' -o "$work/t" "$@" > "$out" 2> "$work/err.$name" ||
		{ echo "$name failed:" >&2; tail -3 "$work/err.$name" >&2; exit 1; }
	tail -1 "$work/t" | awk '{ print $1 + $2, $3 }' >> "$work/$name"
}

for i in $(seq "$RUNS"); do
	# shellcheck disable=SC2086
	timed scorch "$work/scorch.out" "$SCORCH" report --buildid-dir "$work/ids" $OPTS "$file"
	# shellcheck disable=SC2086
	timed perf "$work/perf.out" perf --buildid-dir "$work/ids" report -i "$file" --stdio $OPTS
done
median() { sort -n -k"$2","$2" "$work/$1" | awk -v c="$2" '{ v[NR] = $c }
	END { print v[int((NR + 1) / 2)] }'; }
row() { printf '%-24s %8.2f s CPU %9d KB peak RSS\n' "$1" "$2" "$3"; }
s_cpu=$(median scorch 1)
p_cpu=$(median perf 1)
row "scorch report" "$s_cpu" "$(median scorch 2)"
row "perf report --stdio" "$p_cpu" "$(median perf 2)"
awk -v a="$s_cpu" -v b="$p_cpu" 'BEGIN { if (a <= 0) a = 0.01; printf "perf / scorch CPU: %.1fx (goal >= 8x)\n", b / a }'
head -n -3 "$work/perf.out" > "$work/perf.cut"
head -n -3 "$work/scorch.out" > "$work/scorch.cut"
compare "scorch report against perf report (but the tip)" "$work/perf.cut" "$work/scorch.cut"
bench_exit
