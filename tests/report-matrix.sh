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
	srcline_known_difference "$label: report $o == perf report" && return
	if ! cmp -s perf.out scorch.out && dup=$(split_inline perf.out) && [ -n "$dup" ]; then
		skip "$label: report ${o:-(default)} == perf report" "perf lists the inlined function '$dup' as two entries (its symbol comparison is not transitive and its tree search missed the first); scorch keeps one"
		return
	fi
	if ! cmp -s perf.out scorch.out && same_entries perf.out scorch.out; then
		skip "$label: report ${o:-(default)} == perf report" "the same entries and call graphs, but perf orders some of them otherwise (its entry comparison is not transitive, so its tree's order depends on the recording)"
		return
	fi
	check_same "$label: report ${o:-(default)} == perf report" perf.out scorch.out
}

# srcline_known_difference WHAT: perf.out and scorch.out differ only as
# binutils addr2line (perf's) and the DWARF line table (scorch's) answer
# otherwise: WHAT is skipped with the texts named (status 0), else 1
srcline_known_difference() {
	cmp -s perf.out scorch.out && return 1
	if file_names_only perf.out scorch.out; then
		skip "$1" "the same but for file names binutils addr2line gives otherwise than the DWARF line table (perf's, scorch's): $(srclines perf.out scorch.out) $(srclines scorch.out perf.out)"
		return 0
	fi
	header_lines_differ perf.out scorch.out || return 1
	skip "$1" "binutils addr2line (perf's) and the DWARF line table (scorch's) answer otherwise for code inlined from C++ headers, so entries split or merge otherwise: perf only: $(srclines perf.out scorch.out) scorch only: $(srclines scorch.out perf.out)"
	return 0
}

# file_names_only A B: A and B alike but for the file part of their
# file:line texts (-s srcline: binutils' addr2line names the compile
# unit's file for some addresses whose line table row names a header)
file_names_only() {
	local f
	grep -q 'Source:Line' "$1" || return 1
	for f in "$1" "$2"; do
		sed -E 's/[A-Za-z0-9_+.-]+\.[A-Za-z]+:([0-9]+)/F:\1/g; s/  +/ /g' "$f" > "$f.norm"
	done
	same_entries "$1.norm" "$2.norm"
}

# header_lines_differ A B: -s srcline output where each file:line text
# one side lacks has, at the same line number, a C++ header's (.h) text
# on one side or the other: addr2line's and libdw's answers for header code
header_lines_differ() {
	grep -q 'Source:Line' "$1" || return 1
	[ -n "$(srclines "$1" "$2")$(srclines "$2" "$1")" ] || return 1
	python3 - "$1" "$2" <<'PY'
import re, sys
pat = re.compile(r'[A-Za-z0-9_+.-]+\.[A-Za-z]+:[0-9]+')
a, b = (set(pat.findall(open(f, errors='replace').read())) for f in sys.argv[1:3])
for t in a ^ b:
    line = t.rsplit(':', 1)[1]
    if not any(x.endswith('.h:' + line) for x in a | b):
        sys.exit(1)
PY
}

# srclines A B: the file:line texts of A that B lacks
srclines() {
	comm -23 <(grep -oE '[A-Za-z0-9_+.-]+\.[A-Za-z]+:[0-9]+' "$1" | LC_ALL=C sort -u) \
		<(grep -oE '[A-Za-z0-9_+.-]+\.[A-Za-z]+:[0-9]+' "$2" | LC_ALL=C sort -u) | tr '\n' ' '
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

# split_inline FILE: an "(inlined)" entry perf printed twice (entry lines
# alike but for their numbers), or nothing
split_inline() {
	grep -E '^ +[0-9.]+%' "$1" | sed -E 's/^ +([0-9.]+% +)+([0-9]+ +)*//' |
		grep -F '(inlined)' | sort | uniq -d | head -1 | sed -E 's/ +/ /g'
}

report_matrix() {
	local label=$1 file=$2 o
	shift 2
	for o in "${REPORT_MATRIX[@]}"; do
		report_same "$label" "$file" "$o" "$@"
	done
}

