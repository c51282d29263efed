# bench/lib.sh: sourced by the benchmarks. A benchmark times scorch next
# to the tool it replaces and compares their outputs: `compare` prints
# "identical" or "DIFFERS" and makes the benchmark exit 1 (bench_exit).
#
# Reference tools: perf (installed), and the FlameGraph scripts
# (stackcollapse-perf.pl, flamegraph.pl, difffolded.pl; they run on perl)
# from a checkout named by FLAMEGRAPH_DIR, e.g.
#   git clone https://github.com/brendangregg/FlameGraph /tmp/FlameGraph
#   FLAMEGRAPH_DIR=/tmp/FlameGraph bash bench/fold-text.sh
# Without it, what needs them says so and compares with what is there.

bench_status=0

# compare WHAT REFERENCE_FILE SCORCH_FILE: byte-identical files
compare() {
	if cmp -s "$2" "$3"; then
		echo "$1: identical ($(wc -l < "$3") lines)"
	else
		echo "$1: DIFFERS"
		diff "$2" "$3" | head -6 | sed 's/^/  /'
		bench_status=1
	fi
}

# flamegraph_script NAME: prints the path of FlameGraph's NAME, or returns 1
# after saying what is missing
flamegraph_script() {
	if [ -z "${FLAMEGRAPH_DIR:-}" ]; then
		echo "# FLAMEGRAPH_DIR not set: the FlameGraph scripts ($1) are not installed here (perl is); set it to a FlameGraph checkout" >&2
		return 1
	fi
	if [ ! -f "$FLAMEGRAPH_DIR/$1" ]; then
		echo "# FLAMEGRAPH_DIR=$FLAMEGRAPH_DIR has no $1" >&2
		return 1
	fi
	command -v perl > /dev/null || { echo "# perl not installed: $1 cannot run" >&2; return 1; }
	echo "$FLAMEGRAPH_DIR/$1"
}

# svg_frames SVG: one "name<TAB>samples<TAB>x<TAB>y<TAB>width" line per
# frame of a flame graph (flamegraph.pl's or scorch's), sorted; x and
# width to 0.1 px as flamegraph.pl prints them
svg_frames() {
	awk '/<title>/ && /<rect / {
		t = $0; sub(/.*<title>/, "", t); sub(/<\/title>.*/, "", t)
		x = $0; sub(/.*<rect[^>]* x="/, "", x); sub(/".*/, "", x)
		y = $0; sub(/.*<rect[^>]* y="/, "", y); sub(/".*/, "", y)
		w = $0; sub(/.*<rect[^>]* width="/, "", w); sub(/".*/, "", w)
		printf "%s\t%.1f\t%d\t%.1f\n", t, x, y, w }' "$1" | LC_ALL=C sort
}

# compare_frames WHAT REFERENCE_SVG SCORCH_SVG: the same frames (name,
# samples, y) at the same x and width, to a rounding (0.1 px) of each other
compare_frames() {
	svg_frames "$2" > "$2.frames"
	svg_frames "$3" > "$3.frames"
	local bad
	bad=$(paste "$2.frames" "$3.frames" | awk -F'\t' '
		NF != 8 || $1 != $5 || $3 != $7 || ($2 - $6) ^ 2 > 0.0101 || ($4 - $8) ^ 2 > 0.0101 {
			n++; if (n <= 3) print "  ref: " $1 " x=" $2 " y=" $3 " w=" $4 " | scorch: " $5 " x=" $6 " y=" $7 " w=" $8 }
		END { if (n) print "  (" n " of " NR " frames)" }')
	if [ -z "$bad" ] && [ "$(wc -l < "$2.frames")" = "$(wc -l < "$3.frames")" ] && [ -s "$3.frames" ]; then
		echo "$1: identical frames ($(wc -l < "$3.frames"): name, samples, x, y, width)"
	else
		echo "$1: DIFFERS ($(wc -l < "$2.frames") frames in the reference, $(wc -l < "$3.frames") in scorch's)"
		[ -n "$bad" ] && printf '%s\n' "$bad"
		bench_status=1
	fi
}

bench_exit() {
	[ "$bench_status" -eq 0 ] || echo "# outputs differ: exit 1" >&2
	exit "$bench_status"
}
