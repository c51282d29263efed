# t7620: scorch export --format speedscope: every recording (fixtures,
# and the shared corpus when present) exports to a file the speedscope
# npm package's own JSON schema accepts (ajv), in every mode (per thread,
# process, none, --timeline); the weights of each thread's (process's)
# profile add up to what perf script shows for that thread (the periods
# of the event stackcollapse-perf.pl keeps: the first one printed), and
# to scorch fold --tid's; with --per none its stacks' names joined are
# scorch fold's lines (t7301 checks those against stackcollapse-perf.pl);
# perf script text exports a profile per thread with perf script's
# periods, and with --per none stackcollapse-perf.pl's stacks;
# a --timeline profile spans from its thread's
# first sample to its last plus that sample's period, by perf script's
# times. Hostile names (quotes, backslashes, control characters, bytes
# that are not UTF-8) come out as valid JSON and UTF-8; usage errors.
. "$ROOT/tests/lib-corpus.sh"
. "$ROOT/tests/lib-speedscope.sh"
speedscope_npm || return 0
chk() { node "$SSDIR/speedscope-check.js" "$@"; }

# by_profile FILE KEY: "pid/tid total" (KEY tid), "pid total" (KEY pid)
# or "tid total" (KEY tidonly) of the validator's profile lines (the
# profile names end "pid/tid")
by_profile() {
	awk -F'\t' -v k="$2" '$1 == "profile" { n = split($2, w, " "); id = w[n]
		if (k == "pid") sub(/\/.*/, "", id); if (k == "tidonly") sub(/.*\//, "", id)
		print id, $4 }' "$1" | LC_ALL=C sort
}

# perf_samples CASE: perf script's "pid/tid time period event" per sample
# of the first event printed (stackcollapse-perf.pl's), times in ns (a
# pipe-mode file prints its call chains anyway: only headers match). A
# sample perf prints with pid -1 (a task in do_exit) is left out, as
# stackcollapse-perf.pl leaves it (its header pattern wants digits) and
# scorch fold, whose stacks the export writes.
perf_samples() {
	perf script -i "$C/$1/perf.data" -F comm,pid,tid,time,period,event --ns 2>/dev/null |
	awk 'match($0, / [0-9-]+\/[0-9-]+ +[0-9]+\.[0-9]+: +[0-9]+ +[^ ]+: *$/) {
		split(substr($0, RSTART + 1), f, " "); ev = f[4]
		if (first == "") first = ev
		if (ev != first) next
		if (f[1] ~ /^-1\//) next   # an exiting task: folded and exported by no one (below)
		split(f[2], t, /[.:]/); printf "%s %s%s %s\n", f[1], t[1], t[2], f[3] }'
}

# perf_totals FILE KEY: summed periods per "pid/tid" (KEY tid), pid, or
# tid (KEY tidonly)
perf_totals() {
	awk -v k="$2" '{ id = $1; if (k == "pid") sub(/\/.*/, "", id)
		if (k == "tidonly") sub(/.*\//, "", id); s[id] += $3 }
		END { for (i in s) printf "%s %.0f\n", i, s[i] }' "$1" | LC_ALL=C sort
}

# perf_spans FILE NS: per thread "pid/tid span": last time - first time
# (+ the last period when NS is 1), nanoseconds
perf_spans() {
	awk -v ns="$2" '{ if (!($1 in a)) a[$1] = $2; z[$1] = $2; p[$1] = $3 }
		END { for (i in a) printf "%s %.0f\n", i, z[i] - a[i] + (ns ? p[i] : 0) }' "$1" |
	LC_ALL=C sort
}

spans_of() {
	awk '/^\{"name":.*"startValue"/ { n = split($0, w, "\""); split(w[4], nm, " "); id = nm[length(nm)]
		match($0, /"startValue":[0-9]+,"endValue":[0-9]+/)
		split(substr($0, RSTART, RLENGTH), v, /[:,]/); printf "%s %.0f\n", id, v[4] - v[2] }' "$1" |
	LC_ALL=C sort
}

cases() {
	local d c
	for d in "$C"/*/; do
		c=$(basename "$d")
		[ -f "$C/$c/perf.data" ] || continue
		case_speedscope "$c"
	done
}

case_speedscope() {
	local c=$1 per unit
	"$SCORCH" export --format speedscope $(srcs "$c") -o "$c.json" "$C/$c/perf.data" 2> "$c.err"
	check "$L $c: export exits 0" test $? = 0
	"$SCORCH" export --format speedscope --per process $(srcs "$c") -o "$c.p.json" \
		"$C/$c/perf.data" 2>/dev/null
	"$SCORCH" export --format speedscope --per none $(srcs "$c") -o "$c.n.json" \
		"$C/$c/perf.data" 2>/dev/null
	"$SCORCH" export --format speedscope --timeline $(srcs "$c") -o "$c.t.json" \
		"$C/$c/perf.data" 2>/dev/null
	chk validate "$SSSCHEMA" "$c.json" "$c.p.json" "$c.n.json" "$c.t.json"
	check "$L $c: valid under speedscope's schema" grep -qx ok "$c.val"
	[ -s "$c.val" ] || return 0
	perf_samples "$c" > "$c.ps"
	perf_totals "$c.ps" tid > "$c.perf"
	by_profile "$c.val" tid > "$c.got"
	check "$L $c: $(wc -l < "$c.got") thread profiles" test -s "$c.got"
	check_same "$L $c: per thread, weights == perf script's periods" "$c.perf" "$c.got"
	"$SCORCH" fold --tid $(srcs "$c") "$C/$c/perf.data" 2>/dev/null |
		awk '{ split($1, f, ";"); sub(/.*-/, "", f[1]); s[f[1]] += $NF }
		     END { for (i in s) printf "%s %.0f\n", i, s[i] }' | LC_ALL=C sort > "$c.fold"
	check_same "$L $c: per thread, weights == scorch fold --tid's" "$c.fold" "$c.got"

	check "$L $c --per process: valid" grep -qx ok "$c.p.val"
	perf_totals "$c.ps" pid > "$c.p.perf"
	by_profile "$c.p.val" pid > "$c.p.got"
	check_same "$L $c --per process: weights == perf script's per pid" "$c.p.perf" "$c.p.got"

	check "$L $c --per none: valid, one profile of the whole total" test \
		"$(grep -xc ok "$c.n.val") $(grep -c '^profile' "$c.n.val") $(awk -F'\t' '$1 == "profile" { print $4 }' "$c.n.val")" = \
		"1 1 $(awk '{ s += $2 } END { printf "%.0f\n", s }' "$c.perf")"
	"$SCORCH" fold $(srcs "$c") "$C/$c/perf.data" 2>/dev/null > "$c.folded"
	chk fold "$c.n.json" > "$c.n.folded"
	check_same "$L $c --per none: its stacks, names joined, are scorch fold's" "$c.folded" "$c.n.folded"

	check "$L $c --timeline: valid, events ordered and nested" grep -qx ok "$c.t.val"
	unit=$(grep -o '"unit":"[a-z]*"' "$c.json" | head -1)
	case $unit in *nanoseconds*) ns=1 ;; *) ns=0 ;; esac
	perf_spans "$c.ps" $ns > "$c.t.perf"
	spans_of "$c.t.json" > "$c.t.got"
	check_same "$L $c --timeline: each thread spans its first to last sample (+ period: $unit)" \
		"$c.t.perf" "$c.t.got"
	cat "$C/$c/perf.data" | "$SCORCH" export --format speedscope $(srcs "$c") 2>/dev/null |
		sed 's/^"exporter":"[^"]*","name":"<stdin>"/"exporter":"","name":""/' > "$c.pipe"
	sed 's/^"exporter":"[^"]*","name":"[^"]*"/"exporter":"","name":""/' "$c.json" > "$c.file"
	check_same "$L $c: through a pipe (standard output), the same bytes (but the name)" \
		"$c.file" "$c.pipe"
	# perf script text (default fields: the thread id only): a profile per
	# thread; --per none: stackcollapse-perf.pl's stacks
	[ -f "$C/$c/perf-script.txt" ] && [ -f "$C/$c/stackcollapse.folded" ] || return 0
	"$SCORCH" export --format speedscope -o "$c.s.json" "$C/$c/perf-script.txt" 2>/dev/null
	"$SCORCH" export --format speedscope --per none -o "$c.sn.json" \
		"$C/$c/perf-script.txt" 2>/dev/null
	chk validate "$SSSCHEMA" "$c.s.json" "$c.sn.json"
	check "$L $c perf script text: valid" grep -qx ok "$c.s.val"
	perf_totals "$c.ps" tidonly > "$c.s.perf"
	by_profile "$c.s.val" tidonly > "$c.s.got"
	check_same "$L $c perf script text: per thread, weights == perf script's periods" \
		"$c.s.perf" "$c.s.got"
	check "$L $c perf script text --per none: valid" grep -qx ok "$c.sn.val"
	chk fold "$c.sn.json" > "$c.sn.folded"
	check_same "$L $c perf script text --per none: its stacks are stackcollapse-perf.pl's" \
		"$C/$c/stackcollapse.folded" "$c.sn.folded"
}
each_root cases

# hostile names in folded text: one profile of text frames, unit none
printf 'ma"in;b\\ack;ctl\001\037x;bad\377\300\257;emoji\360\237\224\245 3\nma"in;tab\tx;\342\200\250 4\n' > hostile.folded
"$SCORCH" export --format speedscope -o hostile.json hostile.folded
check "hostile folded: exit 0" test $? = 0
chk validate "$SSSCHEMA" hostile.json
check "hostile folded: UTF-8, JSON, valid under the schema" grep -qx ok hostile.val
check "hostile folded: one profile named by the input, total 7" \
	grep -qx "$(printf 'profile\thostile.folded\tsampled\t7')" hostile.val
node -e 'const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf-8"));
	for (const f of d.shared.frames) console.log(JSON.stringify(f.name));
	console.log(d.profiles[0].unit)' hostile.json > names.txt
printf '%s\n' '"ma\"in"' '"b\\ack"' '"ctl\u0001\u001fx"' \
	"\"bad$(printf '\357\277\275\357\277\275\357\277\275')\"" \
	"\"emoji$(printf '\360\237\224\245')\"" '"tab\tx"' "\"$(printf '\342\200\250')\"" none > names.want
check_same "hostile folded: names read back (quotes, backslash, controls; bad bytes as U+FFFD)" names.want names.txt

# errors: no --timeline without times, bad --per, binary input: no file left
"$SCORCH" export --format speedscope --timeline -o t.json hostile.folded 2> t.err
check "--timeline of folded text: exit 1" test $? = 1
check_grep "... saying why" 'hostile.folded: no sample times' t.err
check "... and no output file" test ! -e t.json
"$SCORCH" export --format speedscope --per fiber hostile.folded > /dev/null 2> per.err
check "--per fiber: usage error (2)" test $? = 2
check_grep "... naming the choices" "thread, process or none" per.err
head -c 256 /dev/zero > bin.dat
"$SCORCH" export --format speedscope -o bin.json bin.dat 2> bin.err
check "binary input: exit 1, no output file" test $? = 1 -a ! -e bin.json
check_grep "... saying what it is" 'bin.dat: binary data \(byte 0x00 at offset 0\)' bin.err
