# tests/lib-pprof.sh: reading scorch's pprof exports back with the real
# `go tool pprof` (sourced after tests/lib.sh). pprof_ready says whether
# go tool pprof is there (one skip line when not); traces FILE prints
# its -traces view as folded lines.

# pprof_ready DESC: go tool pprof can run (GOCACHE under $TMP), else a
# skip line for DESC and false.
pprof_ready() {
	if ! need go || ! go tool pprof -h > /dev/null 2>&1; then
		skip "$1" "go tool pprof not installed (Debian golang-go)"
		return 1
	fi
	export GOCACHE=$TMP/gocache GOFLAGS=
}

# traces FILE [SAMPLE_INDEX]: go tool pprof -traces as folded lines
# "root;...;leaf N", summed by stack, sorted (-symbolize=none: names as
# written, C++ templates not shortened); values of the sample type
# SAMPLE_INDEX (default: pprof's default, the last one).
traces() {
	go tool pprof -symbolize=none ${2:+-sample_index=$2} -unit=ns -traces "$1" 2>/dev/null | awk '
		function inl(s) { sub(/ \(inline\)$/, "", s); return s }
		function flush() { if (st != "") sum[st] += v; st = ""; seen = 0 }
		/^-----------\+/ { flush(); inblk = 1; next }
		!inblk { next }
		!seen && /^ *[0-9.]+[a-z]*   / {
			match($0, /^ *[0-9.]+[a-z]*   /)
			v = substr($0, 1, RLENGTH); gsub(/[^0-9.]/, "", v)
			st = inl(substr($0, RLENGTH + 1)); seen = 1; next
		}
		seen { st = inl(substr($0, 14)) ";" st }
		END { flush(); for (s in sum) printf "%s %.0f\n", s, sum[s] }' | LC_ALL=C sort
}
