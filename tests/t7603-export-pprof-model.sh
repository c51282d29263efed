# t7603: the pprof export of perf.data, read by the real `go tool pprof`
# and by the npm pprof-format package (installed into tests/pprof-npm on
# first use), each against perf itself on the same recording: a fresh
# DWARF recording of tests/workloads/work.c (built here, -O2 -g: inlined
# functions) and a frame-pointer one of several processes.
#  - totals of both sample types == perf report's sample count and event
#    count, and the cpu nanoseconds == the sum of perf script's periods;
#  - mappings carry the build ids perf buildid-list reads from the file,
#    every mapped location's address lies in its mapping;
#  - inline rows: the locations with several lines are the groups of
#    perf script rows at one address ("(inlined)" rows, then the symbol);
#  - labels comm, pid, tid == perf script's threads (also from perf
#    script -F +pid text exported with --tid); --cpu-label: cpus;
#  - duration == last - first sample time (perf script --ns); with
#    CLOCK_DATA (perf record -k), time_nanos == perf script's tod of the
#    first sample (to the microsecond perf prints);
#  - the decoded stacks (both readers) == scorch fold; string_table[0]
#    is "", ids unique and resolved (checked by tests/pprof-npm/check.js).
. "$ROOT/tests/lib-corpus.sh"
. "$ROOT/tests/lib-record.sh"
. "$ROOT/tests/lib-pprof.sh"

pprof_ready "pprof export against perf" || exit 0
need perf || { skip "pprof export against perf" "perf not installed"; exit 0; }
npm_ok=
dir=$ROOT/tests/pprof-npm
if need node npm; then
	if [ ! -d "$dir/node_modules/pprof-format" ]; then
		( cd "$dir" && timeout 300 npm install --no-save --no-audit --no-fund --loglevel=error pprof-format ) > npm.log 2>&1
	fi
	if [ -d "$dir/node_modules/pprof-format" ]; then npm_ok=1
	else fail "npm install pprof-format" "$(tail -5 npm.log)"; fi
else
	skip "pprof-format checks" "node/npm not installed"
fi
build_corpus_workloads || { fail "build the workloads"; exit 0; }

# perf_totals FILE: "SAMPLES EVENTCOUNT" as perf report counts them
perf_totals() {
	perf report -i "$1" --stdio 2>/dev/null | awk '
		/^# Samples: / { s += $3 }
		/^# Event count \(approx\.\): / { e += $5 }
		END { printf "%.0f %.0f\n", s, e }'
}

# raw_totals FILE: the sums of the two value columns of go tool pprof -raw
raw_totals() {
	go tool pprof -raw "$1" 2>/dev/null | awk '
		/^Samples:/ { on = 1; getline; next }
		/^Locations/ { on = 0 }
		on && /^ +[0-9]+ +[0-9]+: / { s += $1; v += $2 + 0 }
		END { printf "%.0f %.0f\n", s, v }'
}

# addresses_in_mappings FILE: every "N: 0xADDR M=K" location lies in
# mapping K's [start, limit) (go tool pprof -raw); prints the bad ones
addresses_in_mappings() {
	go tool pprof -raw "$1" 2>/dev/null | awk '
		function hex(s,   i, n, c) { n = 0; s = tolower(s); sub(/^0x/, "", s)
			for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)) - 1; n = n * 16 + c }
			return n }
		/^Locations/ { sec = "l"; next }
		/^Mappings/ { sec = "m"; next }
		sec == "l" && /^ +[0-9]+: 0x[0-9a-f]+ M=[0-9]+ / { a[++n] = $2; m[n] = substr($3, 3) }
		sec == "m" && /^[0-9]+: 0x/ { split($2, r, "/"); st[$1 + 0] = r[1]; lim[$1 + 0] = r[2] }
		END { for (i = 1; i <= n; i++) { k = m[i] + 0
			if (!(k in st) || hex(a[i]) < hex(st[k]) || hex(a[i]) >= hex(lim[k])) print a[i], "M=" k
			}
			print "locations", n }'
}

# raw_inline FILE: each location of several lines, as "name|name|..." (innermost first)
raw_inline() {
	go tool pprof -raw "$1" 2>/dev/null | awk '
		function flush() { if (k > 1) print g; g = ""; k = 0 }
		/^Locations/ { on = 1; next }
		/^Mappings/ { flush(); on = 0 }
		!on { next }
		/^ +[0-9]+: 0x/ { flush(); g = $4; k = 1; next }
		/^ +[^ ]/ { g = g "|" $1; k++ }' | LC_ALL=C sort -u
}

# perf_inline FILE: perf script rows at one address grouped as the inline
# rows and the row they are inlined into ("(inlined)" rows, then one more)
perf_inline() {
	perf script -i "$1" -F ip,sym 2>/dev/null | awk '
		function name(s) { sub(/\+0x[0-9a-f]+$/, "", s); return s }
		function flush() { if (k > 1) print g; g = ""; k = 0; open = 0 }
		NF < 2 { flush(); next }
		{ inl = $NF == "(inlined)"; nm = name($2)
		  if (open && $1 == ip) { g = g "|" nm; k++ } else { flush(); g = nm; k = 1; ip = $1 }
		  open = inl; if (!inl) flush() }
		END { flush() }' | LC_ALL=C sort -u
}

# model_checks DESC FILE [EXPORT-OPTIONS...]
model_checks() {
	local desc=$1 f=$2; shift 2
	"$SCORCH" export --format pprof -o m.pb.gz "$@" "$f" 2> m.err
	check "$desc: export exits 0" test $? -eq 0
	perf_totals "$f" > tot.perf
	raw_totals m.pb.gz > tot.raw
	check_same "$desc: -raw totals (samples, cpu ns) == perf report's" tot.perf tot.raw
	perf script -i "$f" -F period 2>/dev/null | awk '{ s += $1 } END { printf "%.0f\n", s }' > periods.perf
	cut -d' ' -f2 tot.raw > periods.raw
	check_same "$desc: cpu nanoseconds == sum of perf script's periods" periods.perf periods.raw
	addresses_in_mappings m.pb.gz > addr.txt
	check "$desc: every mapped location's address is in its mapping" \
		test "$(wc -l < addr.txt)" -eq 1
	check "$desc: there are mapped locations" test "$(awk '{ print $2 }' addr.txt)" -gt 0
	perf buildid-list -i "$f" 2>/dev/null | awk '{ print $2, $1 }' | LC_ALL=C sort > bid.perf
	go tool pprof -raw m.pb.gz 2>/dev/null | sed -n '/^Mappings/,$p' |
		awk 'NF >= 4 && $4 != "[FN]" && $4 !~ /^\[/ { print $3, $4 }' | LC_ALL=C sort -u > bid.pprof
	check "$desc: mappings with build ids" test -s bid.pprof
	join bid.pprof bid.perf | awk '{ print $1, $2 }' > bid.joined
	LC_ALL=C sort -u bid.pprof > bid.want
	check_same "$desc: mapping build ids == perf buildid-list's" bid.want bid.joined
	check_grep "$desc: the workload's mapping has its build id" \
		"$(perf buildid-list -i "$f" 2>/dev/null | awk -v b="$TMP/" 'index($2, b) == 1 { print $1; exit }')" bid.pprof
	perf script -i "$f" -F comm,pid,tid 2>/dev/null |
		awk '{ split($2, a, "/"); printf "comm=%s,pid=%s,tid=%s\n", $1, a[1], a[2] }' |
		LC_ALL=C sort -u > labels.perf
	if [ -n "$npm_ok" ]; then
		node "$dir/check.js" m.pb.gz npm.folded > npm.out 2>&1
		check "$desc: pprof-format decodes it, structure sound" test $? -eq 0
		sed -n 's/^labels //p' npm.out | LC_ALL=C sort -u > labels.pprof
		check_same "$desc: labels comm, pid, tid == perf script's threads" labels.perf labels.pprof
		awk '/^total / { printf "%s%s", sep, $3; sep = " " } END { print "" }' npm.out > tot.npm
		check_same "$desc: pprof-format totals == perf report's" tot.perf tot.npm
		"$SCORCH" fold "$f" 2>/dev/null | LC_ALL=C sort > fold.txt
		LC_ALL=C sort npm.folded > npm.sorted
		check_same "$desc: pprof-format's stacks == scorch fold" fold.txt npm.sorted
	fi
	"$SCORCH" fold "$f" 2>/dev/null | LC_ALL=C sort > fold.txt
	traces m.pb.gz > traces.txt
	check_same "$desc: go tool pprof -traces == scorch fold" fold.txt traces.txt
	perf script -i "$f" --ns -F time 2>/dev/null | tr -d ' :.' | LC_ALL=C sort -n |
		sed -n '1p;$p' | awk 'NR == 1 { a = $1 } NR == 2 { print $1 - a }' > dur.perf
	if [ -n "$npm_ok" ]; then
		sed -n 's/^duration //p' npm.out > dur.npm
		check_same "$desc: duration_nanos == last - first sample time" dur.perf dur.npm
	fi
}

# a DWARF recording: inline rows
if perf record -q -F 499 --call-graph dwarf,8192 -o dwarf.data -- "$TMP/work_nofp" 0.3 > /dev/null 2> rec.err; then
	model_checks "dwarf" dwarf.data
	perf_inline dwarf.data > inl.perf
	go tool pprof -raw m.pb.gz > raw.txt 2>/dev/null
	if [ -s inl.perf ]; then
		raw_inline m.pb.gz > inl.pprof
		check_same "dwarf: multi-line locations == perf's inline row groups" inl.perf inl.pprof
		check_grep "dwarf: mapping says it has inline frames" '\[IN\]' raw.txt
	else
		skip "dwarf: inline locations" "no sample of this recording is in inlined code (perf shows no inline rows)"
	fi
else
	skip "dwarf recording" "perf record failed: $(tail -1 rec.err)"
fi

# frame pointers, several processes and threads, with the cpu label
if perf record -q -F 997 -g -o fp.data -- sh -c "$TMP/work_fp 0.1 & $TMP/work_fp 0.1; wait" > /dev/null 2> rec.err; then
	model_checks "fp, two processes" fp.data --cpu-label
	perf script -i fp.data -F cpu 2>/dev/null | tr -d '[] ' | awk '{ print $1 + 0 }' | LC_ALL=C sort -u > cpus.perf
	go tool pprof -raw m.pb.gz 2>/dev/null | grep -o 'cpu:\[[0-9]*\]' | tr -dc '0-9\n' | LC_ALL=C sort -u > cpus.pprof
	check_same "--cpu-label: cpu labels == perf script's cpus" cpus.perf cpus.pprof
	perf_totals fp.data > tot.perf
	raw_totals m.pb.gz > tot.raw
	check_same "--cpu-label: totals unchanged" tot.perf tot.raw
	# perf script text: the labels its process names carry (--tid)
	if [ -n "$npm_ok" ]; then
		perf script -F +pid -i fp.data > fp.txt 2>/dev/null
		"$SCORCH" export --format pprof --tid -o t.pb.gz fp.txt 2>/dev/null
		node "$dir/check.js" t.pb.gz t.folded > t.out 2>&1
		sed -n 's/^labels //p' t.out | LC_ALL=C sort -u > labels.text
		check_same "perf script text, --tid: labels comm, pid, tid == perf's" labels.perf labels.text
	fi
else
	skip "fp recording" "perf record failed: $(tail -1 rec.err)"
fi

# wall-clock time from CLOCK_DATA (perf record -k CLOCK_MONOTONIC)
if [ -n "$npm_ok" ] && perf record -q -k CLOCK_MONOTONIC -F 499 -g -o k.data -- "$TMP/work_fp" 0.1 > /dev/null 2> rec.err &&
   tod=$(perf script -i k.data -F tod 2>/dev/null | sed -n '1s/ *$//p') && [ -n "$tod" ]; then
	"$SCORCH" export --format pprof -o k.pb.gz k.data 2>/dev/null
	node "$dir/check.js" k.pb.gz k.folded > k.out 2>&1
	date -d "$tod" +%s%6N > tod.perf
	sed -n 's/^time //p' k.out | sed 's/...$//' > tod.pprof
	check_same "CLOCK_DATA: time_nanos == perf script's tod of the first sample" tod.perf tod.pprof
else
	skip "CLOCK_DATA time" "perf record -k or perf script -F tod did not work here (or no node)"
fi

# JIT code: a crafted recording (t7009's way: an anonymous mapping, its
# perf-PID.map in /tmp, a pid above any pid_max): the JIT locations'
# mapping is the map file, as perf script names their object
if need python3; then
	pid=4194997
	map=/tmp/perf-$pid.map
	cat > gen.py <<'PY'
import os, struct, sys
sys.path.insert(0, os.path.dirname(sys.argv[1]))
import hostile_perfdata as h
pid, base, USER = int(sys.argv[3]), 0x7f0000000000, 0xfffffffffffffe00
def smp(t, ips):
    return h.rec(h.SAMPLE, struct.pack('<QIIQQQ', ips[1], pid, pid, t, 1, len(ips)) +
                 struct.pack('<%dQ' % len(ips), *ips), misc=2)
data = h.comm(pid, 'jit', 1)
data += h.rec(h.MMAP, struct.pack('<IIQQQ', pid, pid, base, 0x10000, 0) +
              h.cstr('//anon') + h.sample_id(pid, pid, 2), misc=2)
data += smp(3, [USER, base + 0x210, base + 0x310])
data += smp(4, [USER, base + 0x110, base + 0x210, base + 0x310])
h.file_mode(sys.argv[2], data)
PY
	python3 gen.py "$ROOT/tests/hostile_perfdata.py" jit.data $pid
	printf '7f0000000100 100 leaf\n7f0000000200 100 mid\n7f0000000300 100 root\n' > "$map"
	perf script -i jit.data -F ip,dso 2>/dev/null | awk 'NF == 2 { print $1, $2 }' |
		tr -d '()' | LC_ALL=C sort -u > jit.perf
	"$SCORCH" export --format pprof -o jit.pb.gz jit.data 2> /dev/null
	"$SCORCH" fold jit.data > jit.folded 2> /dev/null
	rm -f "$map"
	go tool pprof -raw jit.pb.gz 2>/dev/null | awk '
		/^Locations/ { on = 1; next } /^Mappings/ { on = 2; next }
		on == 1 && / M=/ { a[substr($3, 3)] = a[substr($3, 3)] " " $2 }
		on == 2 && /^[0-9]+: / { f[$1 + 0] = $3 }
		END { for (m in a) { n = split(a[m], x, " "); for (i = 1; i <= n; i++) print x[i], f[m] } }' |
		sed 's/^0x//' | LC_ALL=C sort -u > jit.pprof
	check "JIT: perf script shows the map file as the object" test -s jit.perf
	check_same "JIT: each location's mapping is the object perf names" jit.perf jit.pprof
	traces jit.pb.gz > jit.traces
	check_same "JIT: -traces == scorch fold" jit.folded jit.traces
fi
