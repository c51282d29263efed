# t7631: the fleet TSV in a real ClickHouse (Debian's clickhouse-server,
# started here on loopback as the current user, its data in $TMP): the
# schema, the load command and the queries are taken from
# docs/clickhouse.md, so the page is what is tested. Two recordings are
# loaded as two hosts; the top-stacks query of a host prints `scorch
# fold`'s lines; without its WHERE, `scorch flame` of it is `scorch
# flame` of both folded files merged locally; the host-vs-host query
# prints `scorch diff`'s lines and draws a valid differential SVG; the
# time-range query of a -k CLOCK_MONOTONIC recording sums as perf script
# -F tod,period in that range; names needing escapes come back intact.
. "$ROOT/tests/lib-corpus.sh"

if ! need clickhouse-server clickhouse-client python3; then
	skip "ClickHouse load and queries" \
		"clickhouse-server/clickhouse-client not installed (Debian clickhouse-server, clickhouse-client)"
	return 0
fi
doc=$ROOT/docs/clickhouse.md

# sql NAME: the SQL block of the doc that starts "-- scorch: NAME"
sql() {
	awk -v n="-- scorch: $1" '$0 == n { on = 1; next } on && /^```/ { exit } on' "$doc"
}
for q in schema top-stacks host-vs-host time-range; do
	sql $q > $q.sql
	check "docs/clickhouse.md has the $q SQL" test -s $q.sql
done
insert=$(sed -n 's/.*clickhouse-client --query "\(INSERT [^"]*\)".*/\1/p' "$doc" | head -1)
check "docs/clickhouse.md has the load command" test -n "$insert"

# ---- the server: free loopback ports, config and data under $TMP ----
ports=$(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))')
set -- $ports
tcp=$1 http=$2
mkdir -p ch/data ch/tmp ch/user_files ch/format_schemas
cat > ch/config.xml <<EOF
<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>$TMP/ch/server.log</log><errorlog>$TMP/ch/server.err</errorlog><console>0</console></logger>
  <listen_host>127.0.0.1</listen_host>
  <tcp_port>$tcp</tcp_port>
  <http_port>$http</http_port>
  <path>$TMP/ch/data/</path>
  <tmp_path>$TMP/ch/tmp/</tmp_path>
  <user_files_path>$TMP/ch/user_files/</user_files_path>
  <format_schema_path>$TMP/ch/format_schemas/</format_schema_path>
  <users_config>$TMP/ch/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>67108864</mark_cache_size>
  <uncompressed_cache_size>67108864</uncompressed_cache_size>
  <timezone>UTC</timezone>
</yandex>
EOF
cat > ch/users.xml <<EOF
<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>1000000000</max_memory_usage></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip></networks>
    <profile>default</profile><quota>default</quota></default></users>
  <quotas><default></default></quotas>
</yandex>
EOF
clickhouse-server --config-file="$TMP/ch/config.xml" > ch/out.log 2>&1 &
ch_pid=$!
stop_server() { kill "$ch_pid" 2> /dev/null && wait "$ch_pid" 2> /dev/null; return 0; }
trap stop_server EXIT
chq() { clickhouse-client --host 127.0.0.1 --port "$tcp" "$@"; }
up=0
for _ in $(seq 100); do
	chq --query 'SELECT 1' > /dev/null 2>&1 && { up=1; break; }
	kill -0 "$ch_pid" 2> /dev/null || break
	sleep 0.2
done
if [ $up = 0 ]; then
	skip "ClickHouse load and queries" \
		"clickhouse-server did not start: $(tail -2 ch/server.err ch/out.log 2>/dev/null | tr '\n' ' ')"
	return 0
fi
pass "clickhouse-server answers on 127.0.0.1:$tcp"

chq --multiquery < schema.sql > schema.out 2>&1
check "the doc's CREATE TABLE runs" test $? -eq 0 -a ! -s schema.out
# run NAME [SED...]: the doc's query NAME (edited by sed scripts)
run() {
	local n=$1; shift
	local q
	q=$(sed "$@" < "$n.sql")
	chq --query "$q"
}
load() { # load HOST EXPORT-ARGS...
	local h=$1; shift
	"$SCORCH" export --format tsv --host "$h" "$@" 2> load.err | chq --query "$insert" 2>> load.err
}

if fixtures; then
	C=$FIX
	"$SCORCH" fold $(srcs fp) "$C/fp/perf.data" > a.folded 2>/dev/null
	"$SCORCH" fold $(srcs dwarf) "$C/dwarf/perf.data" > b.folded 2>/dev/null
	load web-1 $(srcs fp) "$C/fp/perf.data"
	check "load web-1 (fp) with the doc's INSERT" test $? -eq 0
	load web-2 $(srcs dwarf) "$C/dwarf/perf.data"
	check "load web-2 (dwarf) with the doc's INSERT" test $? -eq 0

	run top-stacks -e '' | LC_ALL=C sort > top1.txt
	LC_ALL=C sort a.folded > a.sorted
	check "top-stacks: fewer stacks than its LIMIT" test "$(wc -l < a.sorted)" -lt 100000
	check_same "top-stacks of web-1 == scorch fold of its recording" a.sorted top1.txt
	run top-stacks -e "s/'web-1'/'web-2'/" | LC_ALL=C sort > top2.txt
	LC_ALL=C sort b.folded > b.sorted
	check_same "top-stacks of web-2 == scorch fold of its recording" b.sorted top2.txt
	run top-stacks -e '/^WHERE host = /d' > fleet.txt
	"$SCORCH" flame fleet.txt > fleet.svg 2> /dev/null
	"$SCORCH" flame a.folded b.folded > merged.svg 2> /dev/null
	check "fleet top-stacks: an SVG" test -s fleet.svg
	check_same "fleet top-stacks: scorch flame == scorch flame of both folded files" merged.svg fleet.svg

	run host-vs-host -e '' > diff.txt
	"$SCORCH" diff a.folded b.folded > diff.local
	check_same_sorted "host-vs-host == scorch diff of the two folded files" diff.local diff.txt
	"$SCORCH" flame diff.txt > diff.svg 2> diff.err
	check "host-vs-host: scorch flame draws it" test -s diff.svg
	if need xmllint; then
		check "host-vs-host: the SVG is well-formed XML" xmllint --noout diff.svg
	fi
	"$SCORCH" flame diff.local > diff-local.svg 2> /dev/null
	check_same "host-vs-host: the same graph as from scorch diff's lines" diff-local.svg diff.svg
fi

# a time range: a recording with perf's clock reference, as host "tod"
if perf record -q -k CLOCK_MONOTONIC -F 499 -g -o tod.data -- \
	sh -c 'i=0; while [ $i -lt 150000 ]; do i=$((i+1)); done' > /dev/null 2> rec.err; then
	load tod --bucket 1 tod.data
	check "load the -k recording as host tod" test $? -eq 0
	TZ=UTC perf script -i tod.data -F tod,period 2> /dev/null |
		awk '{ print $1 " " substr($2, 1, 8), $3 }' > tod.perf
	first=$(head -1 tod.perf | cut -d' ' -f1-2)
	next=$(TZ=UTC date -d "$first UTC 1 second" '+%F %T')
	want=$(awk -v f="$first" '$1 " " $2 == f { s += $3 } END { print s + 0 }' tod.perf)
	range() { run time-range -e "s/'web-1'/'tod'/" -e "s/2026-01-01 10:00:00/$1/" \
		-e "s/2026-01-01 10:05:00/$2/"; }
	got=$(range "$first" "$next" | awk '{ s += $NF } END { print s + 0 }')
	check "time-range: perf has samples in [$first, $next)" test "$want" -gt 0
	check "time-range [$first, $next) sums as perf's periods there ($want, got $got)" \
		test "$want" = "$got"
	all=$(awk '{ s += $3 } END { print s + 0 }' tod.perf)
	got=$(range "2000-01-01 00:00:00" "2100-01-01 00:00:00" | awk '{ s += $NF } END { print s + 0 }')
	check "time-range over all time sums as all of perf's periods ($all, got $got)" test "$all" = "$got"
	got=$(range "2000-01-01 00:00:00" "$first" | wc -l)
	check "time-range before the first sample: no lines" test "$got" -eq 0
else
	skip "time range of a -k recording" "perf record failed: $(tail -1 rec.err)"
fi

# names that need escaping come back as they went in
python3 - > odd.folded <<'EOF'
import sys
sys.stdout.buffer.write(b"proc;a\tb;it's;back\\slash;\"q\";[x,y] 3\nproc;\\t;' 2\n")
EOF
load odd odd.folded
check "load names that need escaping" test $? -eq 0
chq --query "SELECT frames FROM stacks WHERE host = 'odd' FORMAT JSONEachRow" |
	python3 -c '
import json, sys
rows = sorted(json.loads(l)["frames"] for l in sys.stdin)
want = sorted([["proc", "a\tb", "it'"'"'s", "back\\slash", "\"q\"", "[x,y]"], ["proc", "\\t", "'"'"'"]])
print(rows == want)' > odd.ok
check_grep "ClickHouse reads every name back byte for byte" '^True$' odd.ok
run top-stacks -e "s/'web-1'/'odd'/" | LC_ALL=C sort > odd.top
LC_ALL=C sort odd.folded > odd.sorted
check_same "top-stacks of those names == the folded file" odd.sorted odd.top

# the same rows loaded twice: SummingMergeTree keeps one row per key, summed
if [ -s a.folded ]; then
	sed 's/\bstacks\b/stacks_twice/' schema.sql | chq --multiquery
	"$SCORCH" export --format tsv --host web-1 a.folded > twice.tsv 2> /dev/null
	q2=$(echo "$insert" | sed 's/\bstacks\b/stacks_twice/')
	chq --query "$q2" < twice.tsv && chq --query "$q2" < twice.tsv
	chq --query "OPTIMIZE TABLE stacks_twice FINAL"
	got=$(chq --query "SELECT count(), sum(weight) FROM stacks_twice" | tr '\t' ' ')
	want="$(wc -l < twice.tsv) $(awk '{ s += 2 * $NF } END { print s }' a.folded)"
	is_same() { if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "want '$2', got '$3'"; fi; }
	is_same "loaded twice: one row per key after a merge, weights summed" "$want" "$got"
fi

stop_server
check "the server stopped" sh -c "! kill -0 $ch_pid 2> /dev/null"
