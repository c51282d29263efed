#!/usr/bin/env bash
# bench/fold-system.sh [FILE]: `scorch fold` on a system-wide recording,
# side by side with the pipeline it replaces and with perf report.
# Records FILE (default /tmp/scorch-bench-system.data) when missing with
# bench/mk-system.sh (perf record -F 999 -a -g of `find | xargs md5sum`,
# `gzip` and short processes for SECS seconds). At the full size
# (SECS=150 on a 2-core machine) that gives >= 200k samples and >= 10k
# processes, the recording issue #13 measures; it prints both counts so
# a small run says how far it is from that.
# Then, RUNS times alternating (medians printed), CPU (user+sys) and
# peak RSS of:
#   scorch fold FILE
#   perf script | stackcollapse-perf.pl   (two stages timed apart: CPU
#                                          summed, peak RSS summed, as
#                                          they run at once in a pipe)
#   perf report -g folded                 (perf's own form: timed only)
# and the ratios to scorch's (issue #13's goals: >= 50x the pipeline's
# CPU, >= 8x perf report's, scorch's peak RSS <= 64 MiB).
# Outputs: scorch fold against stackcollapse-perf.pl's (FLAMEGRAPH_DIR,
# see bench/lib.sh; without it, against scorch fold of perf script's
# text, and it says so); exit 1 when they differ.
# Both sides resolve symbols from the live file system (perf record -N,
# an empty --buildid-dir), so re-record after upgrading packages.
# Environment: SCORCH (default ./scorch), SECS (default 150), RUNS
# (default 3), FLAMEGRAPH_DIR.
# Measured (2 shared cores; see docs/profile-model.md): SECS=15 (17 MB,
# 46,766 samples, 12,731 FORK): scorch fold 0.29 s / 111 MiB; pipeline
# 1.94 s / 141 MiB; perf report 3.52 s / 2.9 GiB. Full size (123 MB,
# 285k samples, 125k FORK): scorch fold 0.95-1.1 s / 86 MiB (symbol
# tables of the programs met are most of it; 1.1-1.3 s / 148 MiB
# before the second pass in docs/profile-model.md), pipeline 9.7-10.4 s,
# perf report 10.9-11.1 s / 1.6 GiB.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
. "$here/lib.sh"
SCORCH=${SCORCH:-$root/scorch}
file=${1:-/tmp/scorch-bench-system.data}
SECS=${SECS:-150}
RUNS=${RUNS:-3}
work=$(mktemp -d /tmp/scorch-bench-system.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/ids"   # an empty build-id cache: symbols from the files

if [ ! -s "$file" ]; then
	bash "$here/mk-system.sh" "$file" "$SECS" >&2 || exit 1
fi
cat "$file" > /dev/null
samples=$(perf report -i "$file" --stats 2>/dev/null | awk '$1 == "SAMPLE" { print $3; exit }')
forks=$(perf report -i "$file" --stats 2>/dev/null | awk '$1 == "FORK" { print $3; exit }')
echo "file: $file ($(( $(stat -c %s "$file") / 1048576 )) MB, ${samples:-?} samples, ${forks:-?} FORK events)"
[ "${samples:-0}" -ge 200000 ] && [ "${forks:-0}" -ge 10000 ] ||
	echo "# below the full size (>= 200k samples, >= 10k FORK events): record anew with a larger SECS (150 on 2 cores)"

# timed NAME OUT CMD...: one run; appends "cpu-seconds peak-KB" to $work/NAME
timed() {
	local name=$1 out=$2; shift 2
	/usr/bin/time -f '%U %S %M' -o "$work/t" "$@" > "$out" 2> "$work/err.$name" ||
		{ echo "$name failed:" >&2; tail -3 "$work/err.$name" >&2; exit 1; }
	tail -1 "$work/t" | awk '{ print $1 + $2, $3 }' >> "$work/$name"
}

collapse=$(flamegraph_script stackcollapse-perf.pl) || collapse=
for i in $(seq "$RUNS"); do
	timed scorch "$work/fold.out" "$SCORCH" fold --buildid-dir "$work/ids" "$file"
	timed script "$work/script.out" perf --buildid-dir "$work/ids" script -i "$file"
	if [ -n "$collapse" ]; then
		timed collapse "$work/ref.folded" perl "$collapse" "$work/script.out"
	fi
	timed report /dev/null perf --buildid-dir "$work/ids" report -i "$file" --stdio -g folded
done

# median NAME COLUMN: the median of a column (1 CPU, 2 RSS) over the runs
median() { sort -n -k"$2","$2" "$work/$1" | awk -v c="$2" '{ v[NR] = $c }
	END { print v[int((NR + 1) / 2)] }'; }
row() { printf '%-40s %8.2f s CPU %9d KB peak RSS\n' "$1" "$2" "$3"; }
s_cpu=$(median scorch 1) s_rss=$(median scorch 2)
row "scorch fold" "$s_cpu" "$s_rss"
p_cpu=$(median script 1) p_rss=$(median script 2)
if [ -n "$collapse" ]; then
	p_cpu=$(awk -v a="$p_cpu" -v b="$(median collapse 1)" 'BEGIN { print a + b }')
	p_rss=$(( p_rss + $(median collapse 2) ))
	row "perf script | stackcollapse-perf.pl" "$p_cpu" "$p_rss"
else
	row "perf script (no stackcollapse-perf.pl)" "$p_cpu" "$p_rss"
fi
r_cpu=$(median report 1) r_rss=$(median report 2)
row "perf report -g folded" "$r_cpu" "$r_rss"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a <= 0) a = 0.01; printf "%.1fx", b / a }'; }
echo
if [ -n "$collapse" ]; then
	echo "pipeline / scorch fold CPU:     $(ratio "$s_cpu" "$p_cpu") (goal >= 50x)"
else
	echo "perf script / scorch fold CPU:  $(ratio "$s_cpu" "$p_cpu") (perf script alone)"
fi
echo "perf report / scorch fold CPU:  $(ratio "$s_cpu" "$r_cpu") (goal >= 8x)"
echo "scorch fold peak RSS:           $(( s_rss / 1024 )) MiB (goal <= 64 MiB)"
if [ -n "$collapse" ]; then
	compare "scorch fold against perf script | stackcollapse-perf.pl" "$work/ref.folded" "$work/fold.out"
else
	"$SCORCH" fold --format=perf-script "$work/script.out" > "$work/ref.folded" 2>/dev/null
	compare "scorch fold against perf script | scorch fold (no stackcollapse-perf.pl)" "$work/ref.folded" "$work/fold.out"
fi
bench_exit
