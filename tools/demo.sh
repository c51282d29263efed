#!/usr/bin/env bash
# tools/demo.sh [SECONDS]: the main job on a fresh Debian machine.
# Installs missing Debian packages (as root or with sudo), builds scorch,
# builds the bundled demo workload (demo/demo.c), profiles it and writes
# the flame graph demo/out/demo.svg (and demo/out/demo.folded).
set -eu
cd "$(dirname "$0")/.."
seconds=${1:-2}
out=demo/out
bash tools/install-deps.sh || { echo "demo: install the packages above, then rerun" >&2; exit 1; }
make -s -j"$(nproc 2>/dev/null || echo 2)" scorch
mkdir -p "$out"
cc -O2 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls -o "$out/demo" demo/demo.c
if ./scorch help record >/dev/null 2>&1; then
	./scorch record -F 997 -g -o "$out/perf.data" --folded "$out/demo.folded" \
		--svg "$out/demo.svg" -- "$out/demo" "$seconds"
else
	perf record -q -F 997 -g -o "$out/perf.data" -- "$out/demo" "$seconds"
	perf script -i "$out/perf.data" 2>/dev/null | ./scorch fold > "$out/demo.folded"
	./scorch flame --title "scorch demo" "$out/demo.folded" > "$out/demo.svg"
fi
echo "demo: wrote $out/demo.svg ($(wc -l < "$out/demo.folded") unique stacks); open it in a browser"
