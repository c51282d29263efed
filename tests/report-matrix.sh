# tests/report-matrix.sh: the combinations of perf report options that
# scorch report reproduces byte for byte (sourced by t7720-t7722).
# report_matrix LABEL FILE SYMOPTS...: for each combination, perf report
# --stdio and scorch report on FILE with the symbol options SYMOPTS
# (given to both), compared whole but for perf's random tip (the last
# three lines) and the rest line perf names at random (see t7720).
REPORT_MATRIX=(
	""
	"--no-children"
	"-g graph"
	"-g fractal"
	"-g flat"
	"-g folded"
	"-g none"
	"-g caller"
	"-g callee"
	"-G"
	"-n"
	"--percent-limit 2"
	"--max-stack 3"
	"-s comm"
	"-s pid"
	"-s dso"
	"-s sym"
	"-s cpu"
	"-s parent"
	"-s symbol_size"
	"-s dso,sym"
	"-s comm,pid"
	"-s sym,dso,comm"
	"-s symbol_size,dso"
	"-g graph,0.5,caller"
	"-g fractal,1,callee"
	"--no-children -g caller"
	"-F overhead,period,sample"
	"-F overhead,sym"
	"-F sym,overhead"
	"-F overhead_children,overhead,sym"
	"-F overhead,sym -s dso"
	"-F sym -s sym"
	"-F overhead,period -s comm,dso"
	"-g --stdio"
	"--no-children -g -n"
	"--no-call-graph"
	"-g period"
	"-g fractal,0.5,2"
	"-g graph,0.5,2,callee"
	"-s srcline"
	"--no-children -s srcline -g none"
)

# report_same LABEL FILE OPTS SYMOPTS...
report_same() {
	local label=$1 file=$2 o=$3
	shift 3
	local rc
	# shellcheck disable=SC2086
	perf "$@" report -i "$file" --stdio $o > perf.raw 2> perf.err
	rc=$?
	if [ "$rc" = 141 ] || { [ "$rc" != 0 ] && grep -q 'could not read first record' perf.err; }; then
		skip "$label: report $o == perf report" "perf exits $rc: its addr2line child for a binary that is gone exits, and perf dies writing to it (SIGPIPE) $(grep -m1 -o 'addr2line [^:]*' perf.err)"
		return
	fi
	head -n -3 perf.raw | sed 's/--\[\.\.\.\] (inlined)$/--[...]/' > perf.out
	# shellcheck disable=SC2086
	"$SCORCH" report "$@" $o "$file" 2> /dev/null | head -n -3 > scorch.out
	if [ ! -s perf.out ]; then
		fail "$label: report ${o:-(default)} == perf report" "perf printed nothing"
		return
	fi
	local dup
	if ! cmp -s perf.out scorch.out && dup=$(split_entry perf.out scorch.out) && [ -n "$dup" ]; then
		skip "$label: report ${o:-(default)} == perf report" "perf lists '$dup' as two entries and scorch as one: perf's symbol comparison is not transitive, its tree search missed the first, and with no comm key (or an inline row) no collapse merged them (docs/scorch-report.md)"
		return
	fi
	if ! cmp -s perf.out scorch.out && same_entries perf.out scorch.out; then
		skip "$label: report ${o:-(default)} == perf report" "the same entries and call graphs, but perf orders some of them otherwise (its entry comparison is not transitive, so its tree's order depends on the recording)"
		return
	fi
	check_same "$label: report ${o:-(default)} == perf report" perf.out scorch.out
}

# same_entries A B: A and B hold the same entries, each with the same
# call graph lines, in some order (an entry runs from its "N.NN%" line to
# the next one)
same_entries() {
	python3 - "$1" "$2" <<'PY'
import re, sys
def entries(path):
    out, cur = [], []
    for line in open(path, errors='replace'):
        if re.match(r'^ +[0-9.]+%', line) and cur:
            out.append(''.join(cur))
            cur = []
        cur.append(line)
    if cur:
        out.append(''.join(cur))
    return sorted(out)
sys.exit(0 if entries(sys.argv[1]) == entries(sys.argv[2]) else 1)
PY
}

# entry_keys FILE: the entry lines of a report but for their numbers
# (numbers first, or after the symbol with -F sym,...)
entry_keys() {
	grep -E '^ +[0-9.]+%|^ +\[[.kguH]\] ' "$1" |
		sed -E 's/^ +([0-9.]+% +)+([0-9]+ +)*//; s/( +[0-9.]+%)+$//; s/^ +//; s/ +$//' | sort
}

# split_entry PERF SCORCH: an entry PERF printed twice (entry lines alike
# but for their numbers) that SCORCH printed once, or nothing
split_entry() {
	comm -23 <(entry_keys "$1" | uniq -d) <(entry_keys "$2" | uniq -d) |
		while IFS= read -r k; do
			[ "$(grep -cxF -- "$k" <(entry_keys "$2"))" = 1 ] && { printf '%s\n' "$k"; break; }
		done | head -1 | sed -E 's/ +/ /g'
}

report_matrix() {
	local label=$1 file=$2 o
	shift 2
	for o in "${REPORT_MATRIX[@]}"; do
		report_same "$label" "$file" "$o" "$@"
	done
}

