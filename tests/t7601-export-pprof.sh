# t7601: scorch export --format pprof: what `go tool pprof` reads back
# (-traces turned into folded lines) equals `scorch fold` of the same
# input, on the fixtures, the reference corpus (when there), a fresh
# recording and a folded file; -top of a
# perf.data export prints nothing on stderr (its mappings name the main
# binary), of a folded file only pprof's note that no mapping names one;
# the same input gives the same bytes.
. "$ROOT/tests/lib-corpus.sh"
. "$ROOT/tests/lib-pprof.sh"
pprof_ready "pprof export read by go tool pprof" || exit 0

# same_as_fold DESC OPTIONS... INPUT: export == scorch fold (for a
# folded INPUT: == the file)
same_as_fold() {
	local desc=$1; shift
	"$SCORCH" export --format pprof -o out.pb.gz "$@" 2> export.err
	check "$desc: export exits 0" test $? -eq 0
	case $desc in
	folded*) LC_ALL=C sort "${@: -1}" > fold.txt ;;
	*) "$SCORCH" fold "$@" 2>/dev/null | LC_ALL=C sort > fold.txt ;;
	esac
	traces out.pb.gz > traces.txt
	check "$desc: fold has stacks" test -s fold.txt
	check_same "$desc: pprof -traces == scorch fold" fold.txt traces.txt
}

if fixtures; then
	C=$FIX
	for c in fp dwarf cpp_fp multi offcpu; do
		same_as_fold "$c" $(srcs $c) "$C/$c/perf.data"
	done
	"$SCORCH" export --format pprof -o a.pb.gz $(srcs fp) "$C/fp/perf.data" 2>/dev/null
	"$SCORCH" export --format pprof $(srcs fp) "$C/fp/perf.data" > b.pb.gz 2>/dev/null
	check_same "fp: same bytes twice (-o FILE and stdout)" a.pb.gz b.pb.gz
	go tool pprof -top a.pb.gz > top.txt 2> top.err
	check "fp: -top exits 0" test $? -eq 0
	check "fp: -top warns of nothing" test ! -s top.err
	check_grep "fp: -top's type is cpu (cpu-clock counts nanoseconds)" '^Type: cpu$' top.txt
	go tool pprof -raw a.pb.gz > raw.txt 2>/dev/null
	check_grep "fp: a comm label on the samples" 'comm:\[work_fp\]' raw.txt
	"$SCORCH" fold $(srcs fp) "$C/fp/perf.data" > fp.folded 2>/dev/null
	same_as_fold "folded file" fp.folded
	go tool pprof -raw out.pb.gz > raw.txt 2>/dev/null
	check_grep "folded file: sample type samples/count" '^samples/count$' raw.txt
	go tool pprof -top out.pb.gz > top.txt 2> top.err
	grep -v '^Main binary filename not available\.$' top.err > top.other
	check "folded file: -top warns of nothing but the main binary" test ! -s top.other
fi

# the reference corpus: every case, and the big-endian files
if shared_corpus; then
	C=$SHARED/corpus
	for c in fp dwarf cpp_fp multi offcpu pipe_fp zstd_fp; do
		[ -f "$C/$c/perf.data" ] || continue
		same_as_fold "corpus $c" $(srcs $c) "$C/$c/perf.data"
	done
	for f in "$C"/big-endian/*/perf.data.be; do
		[ -f "$f" ] || continue
		same_as_fold "corpus big-endian ${f#"$C"/big-endian/}" "$f"
	done
fi

# a fresh recording
if "$SCORCH" record -q -F 499 -g -o rec.data -- sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' > /dev/null 2> rec.err; then
	same_as_fold "fresh recording" rec.data
else
	skip "fresh recording" "scorch record failed: $(tail -1 rec.err)"
fi
if "$SCORCH" record -q -a -F 999 -g -o sys.data -- sleep 0.5 > /dev/null 2> rec.err; then
	same_as_fold "fresh -a -g recording" sys.data
else
	skip "fresh -a -g recording" "scorch record -a failed: $(tail -1 rec.err)"
fi

check_fails "no --format: usage error" "$SCORCH" export rec.data
"$SCORCH" export --format svg rec.data > /dev/null 2> err; rc=$?
check "unknown format: exit 2" test $rc -eq 2
printf 'x\0binary\n' > bin.dat
"$SCORCH" export --format pprof -o never.pb.gz bin.dat 2> err; rc=$?
check "binary input: exit 1, no output file" test $rc -eq 1 -a ! -e never.pb.gz
