#!/usr/bin/env bash
# bench/run.sh: `make bench`: every benchmark in bench/, one after the
# other, with its default sizes (slow: minutes each, large files under
# /tmp). Each compares scorch's output with the reference tool's and
# exits 1 when they differ; this ends with the benchmarks that failed and
# exits 1 if any did. Set FLAMEGRAPH_DIR to a FlameGraph checkout to
# compare with the Perl scripts (see bench/lib.sh).
#   bench/run.sh [NAME...]      e.g. bench/run.sh fold-text flame
set -u
here=$(cd "$(dirname "$0")" && pwd)
names=${*:-fold-perfdata fold-text flame heatmap read record unwind kallsyms}
failed=
for n in $names; do
	echo "### bench/$n.sh"
	nice bash "$here/$n.sh" || failed="$failed $n"
done
if [ -n "$failed" ]; then
	echo "### failed:$failed"
	exit 1
fi
echo "### all benchmarks ran; outputs identical to the references"
