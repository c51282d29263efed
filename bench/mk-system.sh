#!/usr/bin/env bash
# bench/mk-system.sh FILE [SECS]: record the full-size system-wide input
# of issue #13's benchmarks into FILE (never committed: it is large and
# holds this machine's processes):
#   perf record -F 999 -a -g -- <process-heavy workload for SECS seconds>
# The workload loops `find /usr -type f | xargs -n 4 md5sum`, `gzip` of
# files of /usr/share and bursts of short processes (`sh -c :`), so a
# recording of 150 s on 2 cores holds >= 200k samples and >= 10k
# processes (FORK events). It prints both counts and says when the file
# is below that size. SECS defaults to 150; SECS=15 makes the
# "10x shorter" recording of the same workload (memory must follow
# unique stacks, not the recording's length).
# Symbols resolve from the live file system (perf record -N: no build-id
# cache), so re-record after upgrading packages. Run it niced on a
# shared machine: `nice bash bench/mk-system.sh /tmp/system.data`.
set -u
[ $# -ge 1 ] || { echo "usage: bench/mk-system.sh FILE [SECS]" >&2; exit 2; }
file=$1
SECS=${2:-${SECS:-150}}
command -v perf > /dev/null || { echo "perf not installed" >&2; exit 1; }
work=$(mktemp -d /tmp/scorch-mk-system.XXXXXX)
trap 'rm -rf "$work"' EXIT

cat > "$work/load.sh" <<'LOAD'
end=$(( $(date +%s) + $1 ))
while [ "$(date +%s)" -lt "$end" ]; do
	find /usr -type f -size -256k 2>/dev/null | head -n 20000 |
		xargs -d '\n' -n 4 md5sum > /dev/null 2>&1
	find /usr/share -type f -size -64k 2>/dev/null | head -n 2000 |
		xargs -d '\n' -n 8 sh -c 'cat "$@" | gzip -1 > /dev/null' sh 2>/dev/null
	i=0
	while [ $i -lt 500 ] && [ "$(date +%s)" -lt "$end" ]; do
		sh -c : ; i=$((i + 1))
	done
done
LOAD

echo "recording $file: perf record -F 999 -a -g, $SECS s of find | xargs md5sum, gzip and short processes..." >&2
perf record -q -N -F 999 -a -g -o "$file.tmp" -- bash "$work/load.sh" "$SECS" \
	> /dev/null 2> "$work/record.log" || { cat "$work/record.log" >&2; rm -f "$file.tmp"; exit 1; }
mv "$file.tmp" "$file"
stats=$(perf report -i "$file" --stats 2>/dev/null)
samples=$(awk '$1 == "SAMPLE" { print $3; exit }' <<< "$stats")
forks=$(awk '$1 == "FORK" { print $3; exit }' <<< "$stats")
echo "$file: $(( $(stat -c %s "$file") / 1048576 )) MB, ${samples:-?} samples, ${forks:-?} FORK events"
if [ "${samples:-0}" -lt 200000 ] || [ "${forks:-0}" -lt 10000 ]; then
	echo "# below the full size (>= 200k samples, >= 10k FORK events): record longer (SECS)"
fi
