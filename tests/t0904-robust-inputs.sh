# t0904: inputs that lost data or failed without saying why, and output
# that could not be written.
#  1. stdout on /dev/full: every command exits 1 with one message that
#     gives the reason (script said "error writing output" twice; report,
#     header, dump, fold gave no reason).
#  2. a FIFO, <(...) and /dev/stdin read as the same file does, for every
#     command that reads files (fold and heatmap read the first bytes, then
#     opened the path again: "bad magic", other cells, or a hang); file-mode
#     perf.data on a pipe is copied to a temporary file and read as well.
#  3. a perf record --threads directory in fold and heatmap as in script;
#     a directory without DIR/data is named so.
#  4. samples that do not decode (callchain nr 2^31, stack size 2^63, raw
#     or branch sizes past the record) are counted in one warning by every
#     command, an error when none is left (was: silently dropped, exit 0).
#  5. scorch record -o X when X cannot become X.old: error, X untouched.
# Inputs are recorded here (scorch record, tests/workloads) or generated
# (gen.py, corrupt.py below): no reference data needed.
. "$ROOT/tests/lib-record.sh"

# ---- inputs ----

# gen.py KIND OUT NGOOD NBAD: a file-mode perf.data of NGOOD+NBAD cpu-clock
# samples of one task ("gen", pid 7): after the first 5 good ones (none
# when NGOOD < 5), NBAD samples whose KIND field claims more than the
# record holds: chain (callchain nr 2^31), stack (user stack size 2^63),
# raw (raw size 0xfffffff0), branch (branch nr 2^40). Layout as
# perf.data's: 104-byte header, one 128-byte attr and its ids section,
# the data section (COMM, then the samples).
cat > gen.py <<'PY'
import struct, sys
kind, out, ngood, nbad = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
IP, TID, TIME, CALLCHAIN, PERIOD, RAW, BRANCH, STACK = 1, 2, 4, 0x20, 0x100, 0x400, 0x800, 0x2000
st = IP | TID | TIME | PERIOD | CALLCHAIN
st |= {'chain': 0, 'stack': STACK, 'raw': RAW, 'branch': BRANCH}[kind]
attr = struct.pack('<IIQQQQQIIQQQQIiQIHHIIQ', 1, 128, 0, 1000, st, 0,
                   0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
assert len(attr) == 128
def sample(i, bad):
    b = struct.pack('<QIIQQ', 0x401000 + 16 * (i % 3), 7, 7, 1000000 * (i + 1), 1000)
    if kind == 'chain' and bad:
        b += struct.pack('<QQ', 1 << 31, 0x401000)
    else:
        b += struct.pack('<QQQ', 2, 0x401000 + 16 * (i % 3), 0x402000)
    if kind == 'raw':
        b += struct.pack('<I4s', 0xfffffff0 if bad else 4, b'rawd')
    if kind == 'branch':
        b += struct.pack('<Q', (1 << 40) if bad else 0)
    if kind == 'stack':
        b += struct.pack('<Q', (1 << 63) if bad else 0)
    return struct.pack('<IHH', 9, 2, 8 + len(b)) + b
comm = struct.pack('<II8s', 7, 7, b'gen')
recs = [struct.pack('<IHH', 3, 0, 8 + len(comm)) + comm]
n = ngood + nbad
first = 5 if ngood >= 5 else 0
for i in range(n):
    recs.append(sample(i, first <= i < first + nbad))
data = b''.join(recs)
hdr = struct.pack('<8sQQQQQQQQ', b'PERFILE2', 104, 144, 104, 144,
                  104 + 144, len(data), 0, 0) + bytes(32)
open(out, 'wb').write(hdr + attr + struct.pack('<QQ', 0, 0) + data)
PY

# corrupt.py IN OUT EVERY: a copy of the uncompressed file-mode perf.data
# IN in which every EVERY-th SAMPLE record (the 1st, the EVERY+1-th, ...)
# claims a callchain of 2^31 entries; prints "BAD TOTAL".
cat > corrupt.py <<'PY'
import struct, sys
src, out, every = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = bytearray(open(src, 'rb').read())
attr_size, ao, asz, do, dsz = struct.unpack_from('<QQQQQ', d, 16)
types = {struct.unpack_from('<Q', d, ao + i * attr_size + 24)[0] for i in range(asz // attr_size)}
assert len(types) == 1, 'one sample_type expected'
st = types.pop()
assert st & 0x20 and not st & 0x10, 'callchain, no read values'
head = 8 * bin(st & 0x103cf).count('1')  # IDENTIFIER IP TID TIME ADDR ID STREAM_ID CPU PERIOD
off, n, bad = do, 0, 0
while off + 8 <= do + dsz:
    typ, misc, size = struct.unpack_from('<IHH', d, off)
    assert size >= 8, 'record at %#x' % off
    if typ == 9:
        if n % every == 0:
            struct.pack_into('<Q', d, off + 8 + head, 1 << 31)
            bad += 1
        n += 1
    off += size
open(out, 'wb').write(d)
print(bad, n)
PY

have_python=false
need python3 && have_python=true
have_cpu=false
if build_workload work && build_workload offcpu_sleep &&
   "$SCORCH" record -q -F 499 -g -o fp.data -- ./work 0.3 > /dev/null 2> rec.err &&
   "$SCORCH" record -q -F 499 -g -o - -- ./work 0.3 2> rec.err > pipe.data; then
	have_cpu=true
	"$SCORCH" script fp.data > fp.txt 2> /dev/null
	"$SCORCH" fold fp.data > fp.folded 2> /dev/null
	check "inputs: fold of the recording has the workload's stacks" \
		grep -q '^work;.*main;top_one;mid_x;leaf_a;spin [0-9]*$' fp.folded
else
	skip "CPU recordings" "scorch record failed here: $(head -1 rec.err)"
fi
have_off=false
busy_cpus_start
if [ -x offcpu_sleep ] && "$SCORCH" record -q --offcpu -o off.data -- ./offcpu_sleep > /dev/null 2> rec.err &&
   "$SCORCH" record -q --offcpu -o - -- ./offcpu_sleep 2> rec.err > offpipe.data; then
	busy_cpus_stop
	have_off=true
else
	busy_cpus_stop
	skip "off-CPU recordings" "scorch record --offcpu failed here: $(head -1 rec.err)"
fi
awk 'BEGIN { for (i = 1; i <= 300; i++) print i / 10, (i * 37) % 500 }' > lat.txt
# two latency rows: the recording's latency range (a few us on a quiet
# machine) must not decide whether the map can be drawn
PAIR="--start sched:sched_wakeup --end sched:sched_switch --key pid=next_pid --rows 2"

# ---- 1. standard output on /dev/full ----

# full DESC ARGS...: exit 1 and one line on stderr (besides warnings
# about the input) ending in the reason
full() {
	local desc=$1; shift
	"$SCORCH" "$@" > /dev/full 2> full.all; local rc=$?
	grep -v '^scorch [a-z-]*: warning: ' full.all > full.err
	if [ $rc -eq 1 ] && [ "$(wc -l < full.err)" -eq 1 ] &&
	   grep -Eq '^scorch( [a-z-]+)?: .*: No space left on device$' full.err; then
		pass "/dev/full, $desc: exit 1, one message with the reason"
	else
		fail "/dev/full, $desc: exit 1, one message with the reason" "rc=$rc $(cat full.all)"
	fi
}
full "scorch --help" --help
full "scorch --version" --version
full "help fold" help fold
full "fold --help" fold --help
full "heatmap latency text" heatmap latency lat.txt
full "heatmap latency --cells text" heatmap latency --cells lat.txt
if $have_cpu; then
	full "fold perf.data" fold fp.data
	full "fold text" fold fp.txt
	full "fold -o /dev/full" fold -o /dev/full fp.data
	full "flame" flame fp.folded
	full "diff" diff fp.folded fp.folded
	full "diff --svg" diff --svg fp.folded fp.folded
	full "script" script fp.data
	full "report" report fp.data
	full "dump" dump fp.data
	full "dump --stats" dump --stats fp.data
	full "header" header fp.data
	full "header -I" header -I fp.data
	full "buildid-list --with-hits" buildid-list --with-hits fp.data
	full "heatmap subsecond" heatmap subsecond fp.data
	full "heatmap subsecond --cells" heatmap subsecond --cells fp.data
	full "archive -o /dev/full" archive -o /dev/full fp.data
	full "record -o -" record -q -o - -- true
fi
if $have_off; then
	full "offcpu" offcpu off.data
	full "offcpu --svg" offcpu --svg off.data
	full "offcpu -o /dev/full" offcpu -o /dev/full off.data
	full "sched latency" sched latency off.data
	full "sched timehist" sched timehist off.data
	full "heatmap latency perf.data" heatmap latency $PAIR off.data
	full "heatmap latency --pairs perf.data" heatmap latency --pairs $PAIR off.data
fi

# found on the way (fuzz-commands, seeded with these recordings): sched
# timehist -w used a task entry after a later one had moved the array
# (heap-use-after-free under the sanitizer build)
if $have_off; then
	"$SCORCH" sched timehist -w off.data > /dev/null 2> w.err
	check "sched timehist -w of an off-CPU recording: exit 0" test $? -eq 0
fi

# ---- 2. FIFO, <(...) and /dev/stdin read as the file ----

# same_as_file "CMD ARGS" FILE: stdout and exit status of CMD with FILE
# equal those with <(cat FILE), a named FIFO whose writer has finished,
# and FILE on standard input named /dev/stdin. header's "captured on" is
# the input's time stamp: left out.
same_as_file() {
	local cmd=$1 f=$2 how rc0 rc
	# shellcheck disable=SC2086
	timeout 60 "$SCORCH" $cmd "$f" 2> /dev/null | grep -v '^# captured on' > exp.out
	rc0=${PIPESTATUS[0]}
	for how in procsub fifo stdin; do
		rm -f fifo
		case $how in
		procsub) timeout 60 "$SCORCH" $cmd <(cat "$f") 2> got.err > got.raw; rc=$? ;;
		fifo) mkfifo fifo; cat "$f" > fifo & local wp=$!
		      sleep 0.2
		      timeout 60 "$SCORCH" $cmd fifo 2> got.err > got.raw; rc=$?
		      # a writer still waiting for a reader (the command never
		      # opened the FIFO) must not hang the test
		      kill $wp 2> /dev/null; wait $wp 2> /dev/null ;;
		stdin) cat "$f" | timeout 60 "$SCORCH" $cmd /dev/stdin 2> got.err > got.raw; rc=${PIPESTATUS[1]} ;;
		esac
		grep -v '^# captured on' got.raw > got.out
		if [ "$rc" = "$rc0" ] && [ -s exp.out ] && cmp -s exp.out got.out; then
			pass "$cmd, $f through $how: same output and exit status as the file"
		else
			fail "$cmd, $f through $how: same output and exit status as the file" \
				"rc=$rc (file: $rc0) $(head -3 got.err) $(diff exp.out got.out | head -5)"
		fi
	done
}
same_as_file "heatmap latency --cells" lat.txt
if $have_cpu; then
	for f in fp.data pipe.data; do
		for c in fold script report dump "dump --stats" header "buildid-list --with-hits" \
			 "heatmap subsecond --cells"; do
			same_as_file "$c" $f
		done
	done
	same_as_file fold fp.txt
	same_as_file "heatmap subsecond --cells" fp.txt
	same_as_file flame fp.folded
	"$SCORCH" diff fp.folded fp.folded > exp.out
	"$SCORCH" diff <(cat fp.folded) <(cat fp.folded) > got.out
	check_same "diff of two <(...)" exp.out got.out
	"$SCORCH" archive -o file.tar fp.data 2> /dev/null
	"$SCORCH" archive -o fifo.tar <(cat fp.data) 2> /dev/null
	if [ -s file.tar ] && [ "$(tar tf file.tar)" = "$(tar tf fifo.tar)" ]; then
		pass "archive of <(...) packs what archive of the file packs"
	else
		fail "archive of <(...) packs what archive of the file packs" "$(tar tf fifo.tar 2>&1 | head -3)"
	fi
	# an archive given to --buildid-dir through <(...): unpacked as the file
	HOME=/nonexistent "$SCORCH" fold --buildid-dir file.tar fp.data > exp.folded 2> /dev/null
	HOME=/nonexistent "$SCORCH" fold --buildid-dir <(cat file.tar) fp.data > got.folded 2> got.err
	if [ -s exp.folded ] && cmp -s exp.folded got.folded; then
		pass "--buildid-dir <(cat TAR) folds as --buildid-dir TAR"
	else
		fail "--buildid-dir <(cat TAR) folds as --buildid-dir TAR" "$(head -3 got.err) $(diff exp.folded got.folded | head -5)"
	fi
	# an ELF image given to --vdso through <(...): read as the file
	vdso=$(ls "$HOME"/.debug/\[vdso\]/*/vdso 2> /dev/null | head -1)
	if [ -n "$vdso" ]; then
		HOME=/nonexistent "$SCORCH" fold --vdso "$vdso" fp.data > exp.folded 2> /dev/null
		HOME=/nonexistent "$SCORCH" fold --vdso <(cat "$vdso") fp.data > got.folded 2> got.err
		if ! grep -q '__vdso_' exp.folded; then
			skip "--vdso through <(...)" "no sample of this recording is in the vdso"
		elif cmp -s exp.folded got.folded; then
			pass "--vdso <(cat FILE) folds as --vdso FILE"
		else
			fail "--vdso <(cat FILE) folds as --vdso FILE" "$(head -3 got.err) $(diff exp.folded got.folded | head -5)"
		fi
	else
		skip "--vdso through <(...)" "scorch record kept no vdso image in ~/.debug"
	fi
	# a file-mode copy that cannot be made says why
	cat fp.data | TMPDIR=/nonexistent "$SCORCH" script - > /dev/null 2> tmp.err
	check_grep "file-mode perf.data on a pipe, no temporary file: the reason" \
		'^scorch script: -: file-mode perf.data on a pipe: cannot copy it to a temporary file to read it: No such file or directory$' tmp.err
fi
if $have_off; then
	for f in off.data offpipe.data; do
		for c in offcpu "sched latency" "sched timehist" "heatmap latency --cells $PAIR"; do
			same_as_file "$c" $f
		done
	done
fi

# ---- 3. perf record --threads directories ----

if $have_cpu; then
	if perf record -q --threads -F 499 -g -o thr.dir -- ./work 0.3 > /dev/null 2>&1 &&
	   [ -s thr.dir/data ]; then
		how="perf record --threads"
	else
		rm -rf thr.dir; mkdir thr.dir; cp fp.data thr.dir/data
		how="a copy as DIR/data: perf record --threads failed here"
	fi
	"$SCORCH" script thr.dir > thr.txt 2> /dev/null
	"$SCORCH" fold thr.txt > exp.folded 2> /dev/null
	"$SCORCH" fold thr.dir > got.folded 2> got.err; rc=$?
	if [ $rc -eq 0 ] && [ -s got.folded ] && cmp -s exp.folded got.folded; then
		pass "fold DIR ($how) = fold of script DIR's text"
	else
		fail "fold DIR ($how) = fold of script DIR's text" "rc=$rc $(head -3 got.err)"
	fi
	"$SCORCH" heatmap subsecond --cells - < thr.txt > exp.tsv 2> /dev/null
	"$SCORCH" heatmap subsecond --cells thr.dir > got.tsv 2> got.err; rc=$?
	if [ $rc -eq 0 ] && [ -s got.tsv ] && cmp -s exp.tsv got.tsv; then
		pass "heatmap subsecond DIR = heatmap subsecond of script DIR's text"
	else
		fail "heatmap subsecond DIR = heatmap subsecond of script DIR's text" "rc=$rc $(head -3 got.err)"
	fi
	mkdir empty.dir
	for c in fold script "heatmap subsecond" "heatmap latency" dump; do
		# shellcheck disable=SC2086
		"$SCORCH" $c empty.dir > /dev/null 2> e.err; rc=$?
		if [ $rc -eq 1 ] && grep -q 'empty\.dir: .*empty\.dir/data cannot be opened: No such file or directory$' e.err; then
			pass "$c of a directory without DIR/data: exit 1, names DIR/data"
		else
			fail "$c of a directory without DIR/data: exit 1, names DIR/data" "rc=$rc $(cat e.err)"
		fi
	done
fi
if $have_off; then
	mkdir off.dir; cp off.data off.dir/data
	"$SCORCH" heatmap latency --pairs $PAIR off.data > exp.pairs 2> /dev/null
	"$SCORCH" heatmap latency --pairs $PAIR off.dir > got.pairs 2> got.err; rc=$?
	if [ $rc -eq 0 ] && [ -s got.pairs ] && cmp -s exp.pairs got.pairs; then
		pass "heatmap latency DIR: the pairs of DIR/data"
	else
		fail "heatmap latency DIR: the pairs of DIR/data" "rc=$rc $(head -3 got.err)"
	fi
fi

# ---- 4. samples that do not decode ----

# dropped DESC FILE N M REASON ARGS...: exit 0, one warning on stderr
# "FILE: N of M samples dropped as malformed (first at offset 0x..:
# REASON)"; with N = M, an error line instead and exit 1.
dropped() {
	local desc=$1 f=$2 n=$3 m=$4 why=$5; shift 5
	"$SCORCH" "$@" "$f" > d.out 2> d.err; local rc=$?
	local lines; lines=$(grep -c 'samples dropped' d.err)
	local re="^scorch [a-z-]+: warning: $f: $n of $m samples dropped as malformed \(first at offset 0x[0-9a-f]+: $why\)$"
	local want=0
	if [ "$n" = "$m" ]; then
		re="^scorch [a-z-]+: $f: $n of $m samples dropped as malformed \(first at offset 0x[0-9a-f]+: $why\)$"
		want=1
	fi
	if [ $rc -eq $want ] && [ "$lines" = 1 ] && grep -Eq "$re" d.err; then
		pass "$desc: exit $want, one line counting the dropped samples"
	else
		fail "$desc: exit $want, one line counting the dropped samples" "rc=$rc $(head -3 d.err)"
	fi
}
if $have_python; then
	for k in chain:"callchain of 2147483648 entries" stack:"user stack of 9223372036854775808 bytes" \
		 raw:"raw data of 4294967280 bytes" branch:"branch stack of 1099511627776 entries"; do
		kind=${k%%:*} why="${k#*:} past record end"
		python3 gen.py "$kind" "$kind.data" 28 12
		python3 gen.py "$kind" "all-$kind.data" 0 12
		for c in fold script report dump "dump --stats" "buildid-list --with-hits" \
			 "archive -o $kind.tar" "heatmap subsecond --cells"; do
			# shellcheck disable=SC2086
			dropped "$c, $kind" "$kind.data" 12 40 "$why" $c
			# shellcheck disable=SC2086
			dropped "$c, only bad ${kind}s" "all-$kind.data" 12 12 "$why" $c
		done
	done
	"$SCORCH" fold chain.data > chain.folded 2> /dev/null
	check_grep "fold keeps the 28 good samples" '^gen;\[unknown\];\[unknown\] 28000$' chain.folded
	if $have_off; then
		set -- $(python3 corrupt.py off.data off3.data 3)
		bad=$1 total=$2
		python3 corrupt.py off.data offall.data 1 > /dev/null
		why="callchain of 2147483648 entries past record end"
		for c in offcpu "sched latency" "sched timehist" "heatmap latency --cells $PAIR" fold; do
			# shellcheck disable=SC2086
			dropped "$c, every third sample bad" off3.data "$bad" "$total" "$why" $c
			# shellcheck disable=SC2086
			dropped "$c, every sample bad" offall.data "$total" "$total" "$why" $c
		done
	fi
else
	skip "malformed samples" "python3 missing (it writes the files)"
fi

# ---- 5. scorch record -o X when X cannot be moved to X.old ----

if $have_cpu; then
	cp fp.data X; mkdir X.old
	"$SCORCH" record -q -o X -- touch ran > /dev/null 2> old.err; rc=$?
	check "X.old is a directory: non-zero exit" test $rc -ne 0
	check_grep "X.old is a directory: says why" '^scorch record: cannot move X to X\.old: Is a directory; X is left as it was$' old.err
	check_same "X.old is a directory: X is untouched" fp.data X
	check "X.old is a directory: the workload did not run" test ! -e ran
	rmdir X.old
	"$SCORCH" record -q -o X -- true > /dev/null 2>&1
	check_same "X.old free: the previous recording becomes X.old" fp.data X.old
fi
