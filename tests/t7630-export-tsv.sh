# t7630: scorch export --format tsv (the fleet rows of docs/clickhouse.md),
# read back by tests/fleettsv.py (written from ClickHouse's TSV rules):
# the rows' frames and weights fold to what `scorch fold` prints; each
# stack_hash is the documented FNV-1a of its frames; comm and pid sum as
# perf script's comm, pid and period do; the host is perf's HOSTNAME;
# bucket times follow perf's own wall-clock times (perf script -F tod of
# a -k CLOCK_MONOTONIC recording) or, without perf's clock data, the
# file's time; names with tabs, quotes and backslashes survive; the same
# input gives the same bytes; bad values and unwritable outputs fail
# without leaving a file.
. "$ROOT/tests/lib-corpus.sh"

if ! need python3; then
	skip "fleet TSV" "python3 not installed (the rows' reader)"
	return 0
fi
py() { python3 "$ROOT/tests/fleettsv.py" "$@"; }

# same_as_fold CASE OPTIONS... INPUT: the rows fold back to scorch fold
same_as_fold() {
	local c=$1; shift
	"$SCORCH" export --format tsv -o "$c.tsv" "$@" 2> "$c.err"
	check "$c: export exits 0" test $? -eq 0
	"$SCORCH" fold "$@" 2> /dev/null | LC_ALL=C sort > "$c.fold"
	py fold "$c.tsv" | LC_ALL=C sort > "$c.back"
	check "$c: fold has stacks" test -s "$c.fold"
	check_same "$c: rows fold back to scorch fold" "$c.fold" "$c.back"
	py hashes "$c.tsv" > "$c.hash" 2>&1
	check_grep "$c: stack_hash is FNV-1a of the frames" '^ok$' "$c.hash"
}

if fixtures; then
	C=$FIX
	for c in fp dwarf cpp_fp multi offcpu pipe_fp zstd_fp; do
		same_as_fold "$c" $(srcs $c) "$C/$c/perf.data"
	done
	for c in fp dwarf cpp_fp; do
		py procs "$c.tsv" | LC_ALL=C sort > "$c.procs"
		perf script -i "$C/$c/perf.data" -F comm,pid,period 2> /dev/null |
			awk '{ s[$1 " " $2] += $3 } END { for (k in s) print k, s[k] }' |
			LC_ALL=C sort > "$c.perf"
		check "$c: perf script has samples" test -s "$c.perf"
		check_same "$c: comm, pid and weight sum as perf script's comm, pid, period" \
			"$c.perf" "$c.procs"
	done
	perf report -i "$C/fp/perf.data" --header-only 2> /dev/null |
		sed -n 's/^# hostname : //p' > host.perf
	cut -f1 fp.tsv | sort -u > host.rows
	check "fp: perf names a host" test -s host.perf
	check_same "fp: host is the recording's (perf's hostname)" host.perf host.rows

	"$SCORCH" export --format tsv --host $'web\t1\\x' $(srcs fp) "$C/fp/perf.data" > h.tsv 2>/dev/null
	py json h.tsv | python3 -c 'import json,sys; print(set(json.loads(l)[0] for l in sys.stdin) == {"web\t1\\x"})' > h.ok
	check_grep "--host NAME: the host column, escaped" '^True$' h.ok

	# without clock data: the last sample at the file's time
	cp "$C/fp/perf.data" old.data
	touch -d @1700000007 old.data
	"$SCORCH" export --format tsv --bucket 5 $(srcs fp) old.data > old.tsv 2>/dev/null
	py buckets old.tsv | LC_ALL=C sort > old.buckets
	perf script -i old.data -F time,period 2> /dev/null | tr -d ':' | awk '
		{ t = $1 * 1e9; if (t > last) last = t; tt[NR] = t; p[NR] = $2 }
		END { for (i = 1; i <= NR; i++) {
			w = 1700000007 - (last - tt[i]) / 1e9; b = int(w / 5) * 5
			s[b] += p[i] }
		      for (b in s) print b, s[b] }' |
		while read -r b v; do printf '%s %s\n' "$(TZ=UTC date -d "@$b" '+%F %T')" "$v"; done |
		LC_ALL=C sort > old.perf
	check "mtime: perf has times" test -s old.perf
	check_same "no clock data: buckets from the file's time (perf's sample times, last at mtime)" \
		old.perf old.buckets
	check_grep "mtime: the last bucket holds the file's time" '^2023-11-14 22:13:25 ' old.buckets

	"$SCORCH" export --format tsv -o a.tsv $(srcs fp) "$C/fp/perf.data" 2>/dev/null
	"$SCORCH" export --format tsv $(srcs fp) "$C/fp/perf.data" > b.tsv 2>/dev/null
	check_same "fp: same bytes twice (-o FILE and stdout)" a.tsv b.tsv
	"$SCORCH" export --format tsv < "$C/fp/perf.data" > pipe.tsv 2>/dev/null
	check "perf.data on standard input: rows" test -s pipe.tsv
	same_as_fold script "$C/fp/perf-script.txt"
fi

# a fresh recording with perf's clock reference: buckets as perf's tod
if perf record -q -k CLOCK_MONOTONIC -F 499 -g -o tod.data -- \
	sh -c 'i=0; while [ $i -lt 150000 ]; do i=$((i+1)); done' > /dev/null 2> rec.err; then
	"$SCORCH" export --format tsv --bucket 1 tod.data > tod.tsv 2>/dev/null
	py buckets tod.tsv | LC_ALL=C sort > tod.buckets
	TZ=UTC perf script -i tod.data -F tod,period 2> /dev/null |
		awk '{ s[$1 " " substr($2, 1, 8)] += $3 } END { for (k in s) print k, s[k] }' |
		LC_ALL=C sort > tod.perf
	check "clock data: perf prints wall-clock times" test -s tod.perf
	check_same "clock data: per-second buckets sum as perf script -F tod,period" tod.perf tod.buckets
else
	skip "recording with -k CLOCK_MONOTONIC" "perf record failed: $(tail -1 rec.err)"
fi

# folded input: names with every character that needs escaping
python3 - > odd.folded <<'EOF'
import sys
sys.stdout.buffer.write(b"proc;a\tb;it's;back\\slash;\"q\";[x,y] 3\nproc;\\t;' 2\nsolo 1\n")
EOF
touch -d @1700000005 odd.folded
"$SCORCH" export --format tsv --host h odd.folded > odd.tsv 2> odd.err
check "folded input: exit 0" test $? -eq 0
check "folded input: no raw tab or newline inside a field (8 fields a row)" \
	awk -F'\t' 'NF != 8 { exit 1 }' odd.tsv
py json odd.tsv | python3 -c '
import json, sys
rows = sorted(json.loads(l)[5] for l in sys.stdin)
want = sorted([["proc", "a\tb", "it'"'"'s", "back\\slash", "\"q\"", "[x,y]"], ["proc", "\\t", "'"'"'"], ["solo"]])
print(rows == want)' > odd.ok
check_grep "folded input: frames read back name for name" '^True$' odd.ok
py fold odd.tsv | LC_ALL=C sort > odd.back
LC_ALL=C sort odd.folded > odd.sorted
check_same "folded input: rows fold back to the file" odd.sorted odd.back
python3 -c 'import socket; print(socket.gethostname())' > host.here
"$SCORCH" export --format tsv odd.folded 2> /dev/null | cut -f1 | sort -u > host.odd
check_same "folded input: the host is this machine's name" host.here host.odd
check "folded input: bucket at the file's time, pid 0, comm the first name" \
	awk -F'\t' '$2 != "2023-11-14 22:13:20" || $4 != 0 || ($3 != "proc" && $3 != "solo") { exit 1 }' odd.tsv

check_fails "--bucket 0: rejected" "$SCORCH" export --format tsv --bucket 0 odd.folded
"$SCORCH" export --format tsv --bucket x odd.folded > /dev/null 2> err; rc=$?
check "--bucket x: exit 2" test $rc -eq 2
check_grep "--bucket x: says what it wants" 'bucket.*seconds' err
"$SCORCH" export --format tsv -o out.tsv missing.data 2> err; rc=$?
check "a missing input: exit 1" test $rc -eq 1
check "a missing input: no output file" test ! -e out.tsv
"$SCORCH" export --format tsv -o nodir/out.tsv odd.folded 2> err; rc=$?
check "an unwritable output: exit 1" test $rc -eq 1
check_grep "an unwritable output: named" 'nodir/out.tsv' err
check "an unwritable output: no temporary file left" test ! -e nodir
