# t1007: hostile inputs that cost a careless reader gigabytes or minutes.
# tests/hostile_perfdata.py builds each crafted perf.data (a few KB to MB
# on disk) and runs scorch under a 4 GiB address-space limit and a time
# limit, reporting its peak RSS. Each must end in a clear error or the
# right result within 10 s (they take well under 1 s; the old code took
# 8-50 s or ran out of memory) and 256 MiB peak RSS. Pipe streams stay
# bounded however long they run; text readers reject binary at once.
if ! need python3; then
	skip "hostile perf.data files" "python3 missing"
	return 0 2>/dev/null || exit 0
fi
GEN=$ROOT/tests/hostile_perfdata.py
LIMIT_S=10
LIMIT_KB=$((256 * 1024))
# A sanitizer build reserves terabytes of address space and keeps freed
# memory in quarantine: no address-space limit, and no RSS bounds. It
# also runs 15-20x slower (report-pipe-slow: 0.42 s plain, 7.5 s, and
# once 10.02 s on a fresh clone's run, with its generator on the other
# core): 30 s there, still far from a hang.
SAN=
if grep -q __asan_init "$SCORCH" 2>/dev/null; then
	SAN=1
	LIMIT_S=30
	export HOSTILE_NO_AS_LIMIT=1
fi

# run NAME CMD...: CMD measured; output in NAME.out, errors in NAME.err,
# "rc secs maxrss_kb" in NAME.m.
run() {
	local name=$1; shift
	python3 "$GEN" measure $LIMIT_S "$@" > "$name.out" 2> "$name.err"
	sed -n 's/^measure: rc=\([0-9]*\) secs=\([0-9.]*\) maxrss_kb=\([0-9]*\)$/\1 \2 \3/p' \
		"$name.err" > "$name.m"
}

# bounded NAME WANT_RC: the run ended with WANT_RC, in time, within memory.
bounded() {
	local name=$1 want=$2 rc secs kb
	read -r rc secs kb < "$name.m" || { fail "$name: measured" "$(tail -3 "$name.err")"; return; }
	if [ "$rc" = "$want" ]; then pass "$name: exit $want"
	else fail "$name: exit $want" "exit $rc after ${secs}s; $(grep -v '^measure:' "$name.err" | tail -3)"; fi
	if [ "$rc" != 124 ] && [ "${secs%.*}" -lt $LIMIT_S ]; then pass "$name: under ${LIMIT_S}s (${secs}s)"
	else fail "$name: under ${LIMIT_S}s" "took ${secs}s (rc $rc)"; fi
	if [ -n "$SAN" ]; then skip "$name: peak RSS under 256 MiB" "sanitizer build"
	elif [ "$kb" -lt $LIMIT_KB ]; then pass "$name: peak RSS under 256 MiB (${kb} KB)"
	else fail "$name: peak RSS under 256 MiB" "peak RSS ${kb} KB"; fi
}

# 256 overlapping feature sections of 64 or 256 MB each (a sparse file):
# one is read, the others are ignored with one warning.
python3 "$GEN" features features.data
run fold-features "$SCORCH" fold features.data
bounded fold-features 0
check_grep "fold-features: the sample folds" '^hostile;\[a\.out\] 1$' fold-features.out
run header-features "$SCORCH" header -I features.data
bounded header-features 0
check_grep "header-features: one warning says what was ignored" \
	'255 feature section\(s\) ignored; the first: feature RESERVED: .*larger than 64 MiB' header-features.err
check_grep "header-features: overlapping sections are unreadable" '^# hostname : \(unreadable\)' header-features.out

# 8192 attrs whose ids sections are all the same 8 MB (1M ids each)
python3 "$GEN" ids ids.data
run header-ids "$SCORCH" header ids.data
bounded header-ids 0
check_grep "header-ids: one warning says what was ignored" \
	'ids sections of 8191 attr\(s\) ignored, the first at offset 0xe8' header-ids.err
run fold-ids "$SCORCH" fold ids.data
bounded fold-ids 0
check_grep "fold-ids: the sample folds" '^hostile;\[a\.out\] 1$' fold-ids.out

# 65536 attrs and an EVENT_DESC of 65536 events, none matching by id
python3 "$GEN" names names.data
run header-names "$SCORCH" header names.data
bounded header-names 0
check_grep "header-names: events are named by index" '^# event : name = ev, ' header-names.out
run fold-names "$SCORCH" fold names.data
bounded fold-names 0

# GROUP_DESC: 40000 groups of 65536 members each
python3 "$GEN" groups groups.data
run header-groups "$SCORCH" header -I groups.data
bounded header-groups 0
check_grep "header-groups: GROUP_DESC is rejected" 'feature GROUP_DESC unreadable' header-groups.err
run fold-groups "$SCORCH" fold groups.data
bounded fold-groups 0
check_grep "fold-groups: the sample folds" '^hostile;\[a\.out\] 1$' fold-groups.out

# 50000 MMAPs shared through 2000 FORKs; the last child's sample resolves
python3 "$GEN" forks forks.data
run fold-forks "$SCORCH" fold forks.data
bounded fold-forks 0
check_grep "fold-forks: the child's sample resolves in the inherited maps" '^hostile;\[lib\.so\] 1$' fold-forks.out

# 120000 MMAPs in descending address order
python3 "$GEN" descending descending.data
run fold-descending "$SCORCH" fold descending.data
bounded fold-descending 0
check_grep "fold-descending: the sample resolves" '^hostile;\[lib\.so\] 1$' fold-descending.out

# pipe mode without FINISHED_ROUND: 1M samples (568 MB) through report
python3 "$GEN" pipe - 1000000 2>/dev/null | run report-pipe "$SCORCH" report -n --no-children -g none -i -
bounded report-pipe 0
check_grep "report-pipe: every sample is counted" '^ +100\.00% +1000000 +hostile' report-pipe.out
# ... and one sample per ms: what lies 10 s behind the newest goes out
# (the queue holds ~6 MB instead of growing to the 64 MiB bound)
python3 "$GEN" pipe-slow - 300000 2>/dev/null | run report-pipe-slow "$SCORCH" report -n --no-children -g none -i -
bounded report-pipe-slow 0
read -r _ _ kb < report-pipe-slow.m
if [ -n "$SAN" ]; then skip "report-pipe-slow: flushed by time" "sanitizer build"
elif [ "${kb:-999999}" -lt $((40 * 1024)) ]; then pass "report-pipe-slow: flushed by time (peak RSS ${kb} KB < 40 MiB)"
else fail "report-pipe-slow: flushed by time (peak RSS < 40 MiB)" "peak RSS ${kb:-?} KB"; fi
check_grep "report-pipe-slow: every sample is counted" '^ +100\.00% +300000 +hostile' report-pipe-slow.out

# pipe metadata that piles up: 4000 HEADER_ATTRs of 8000 new ids each and
# 4000 repeats of a 64 KB HEADER_FEATURE (516 MB)
python3 "$GEN" pipe-meta - 2>/dev/null | run report-pipe-meta "$SCORCH" report -n --no-children -g none -i -
bounded report-pipe-meta 0
check_grep "report-pipe-meta: the sample is counted" '^ +100\.00% +1 +hostile' report-pipe-meta.out

# endless zero bytes: text readers reject binary at once
for m in subsecond latency; do
	cat /dev/zero 2>/dev/null | run heatmap-$m-stdin "$SCORCH" heatmap $m
	bounded heatmap-$m-stdin 1
	check_grep "heatmap-$m-stdin: says binary" '<stdin>: binary data \(byte 0x00 at offset 0\)' heatmap-$m-stdin.err
	run heatmap-$m-file "$SCORCH" heatmap $m /dev/zero
	bounded heatmap-$m-file 1
	check_grep "heatmap-$m-file: says binary" '/dev/zero: binary data \(byte 0x00 at offset 0\)' heatmap-$m-file.err
done
for c in flame diff; do
	if [ $c = diff ]; then set -- /dev/zero /dev/zero; else set -- /dev/zero; fi
	run $c-zero "$SCORCH" $c "$@"
	bounded $c-zero 1
	check_grep "$c-zero: says binary" '/dev/zero: binary data \(byte 0x00 at offset 0\)' $c-zero.err
done
