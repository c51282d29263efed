# t7604: pprof profiles read back by fold, flame and diff (detected by
# content: gzip'd or raw protobuf, from a file or a pipe): `scorch export`
# then `scorch fold` of the pprof equals `scorch fold` of the original
# (fixtures, the reference corpus, a fresh recording, perf script text,
# a folded file);
# --sample-type picks a value (oracle: go tool pprof -sample_index); a Go
# program's own CPU profile and `go tool pprof -proto`'s rewrite of it
# fold as go tool pprof -traces shows them; flame and diff of a pprof
# equal those of its folded stacks; damaged profiles give one message
# naming the file and the offset, exit 1.
. "$ROOT/tests/lib-corpus.sh"
. "$ROOT/tests/lib-pprof.sh"

pprof_ready "pprof input" || exit 0

# round DESC OPTIONS... INPUT: fold(export(INPUT)) == fold(INPUT) (a
# folded INPUT: the file, sorted)
round() {
	local desc=$1; shift
	"$SCORCH" export --format pprof -o r.pb.gz "$@" 2> r.err
	case $desc in
	folded*) LC_ALL=C sort "${@: -1}" > want.txt ;;
	*) "$SCORCH" fold "$@" > want.txt 2> /dev/null ;;
	esac
	"$SCORCH" fold r.pb.gz > got.txt 2> got.err
	check "$desc: fold of the pprof exits 0" test $? -eq 0 -a -s want.txt
	check_same "$desc: fold(export) == fold" want.txt got.txt
}

if fixtures; then
	C=$FIX
	for c in fp cpp_fp multi offcpu; do
		round "$c" $(srcs $c) "$C/$c/perf.data"
	done
	round "perf script text" "$C/fp/perf-script.txt"
	round "folded file" "$C/fp/stackcollapse.folded"
	round "folded file, --cpu-label" --cpu-label "$C/fp/stackcollapse.folded"
	"$SCORCH" export --format pprof -o fp.pb.gz $(srcs fp) "$C/fp/perf.data" 2>/dev/null
	"$SCORCH" fold $(srcs fp) "$C/fp/perf.data" > fp.folded 2>/dev/null
	gzip -dc fp.pb.gz > fp.pb
	"$SCORCH" fold fp.pb > raw.txt 2>&1
	check_same "raw (not gzip'd) protobuf folds the same" fp.folded raw.txt
	cat fp.pb.gz | "$SCORCH" fold > pipe.txt 2>&1
	check_same "from a pipe: the same" fp.folded pipe.txt
	"$SCORCH" fold --sample-type samples fp.pb.gz | LC_ALL=C sort > s.txt
	traces fp.pb.gz samples > s.want
	check_same "--sample-type samples == go tool pprof -sample_index=samples" s.want s.txt
	"$SCORCH" fold --sample-type cpu/nanoseconds fp.pb.gz > ns.txt
	check_same "--sample-type TYPE/UNIT" fp.folded ns.txt
	"$SCORCH" fold --sample-type nosuch fp.pb.gz > /dev/null 2> st.err; rc=$?
	check "--sample-type of no such type: exit 1" test $rc -eq 1
	check_grep "... the message lists the types" "no sample type 'nosuch' .the profile has: samples, cpu." st.err
	"$SCORCH" flame fp.folded > a.svg 2>/dev/null
	"$SCORCH" flame fp.pb.gz > b.svg 2>/dev/null
	check_same "flame of the pprof == flame of its folded stacks" a.svg b.svg
	"$SCORCH" fold $(srcs cpp_fp) "$C/cpp_fp/perf.data" > cpp.folded 2>/dev/null
	"$SCORCH" export --format pprof -o cpp.pb.gz $(srcs cpp_fp) "$C/cpp_fp/perf.data" 2>/dev/null
	"$SCORCH" diff fp.folded cpp.folded > d1.txt 2>/dev/null
	"$SCORCH" diff fp.pb.gz cpp.pb.gz > d2.txt 2>/dev/null
	check_same "diff of two pprof files == diff of their folded stacks" d1.txt d2.txt

	# damage: one message naming the file and the offset, exit 1, no output
	head -c 8 fp.pb > cut.pb # inside the second sample_type
	"$SCORCH" fold cut.pb > cut.out 2> cut.err; rc=$?
	check "truncated protobuf: exit 1, nothing printed" test $rc -eq 1 -a ! -s cut.out
	check_grep "truncated protobuf: file and offset named" '^scorch fold: cut.pb: at offset 0x6: pprof: field 1 runs past the end' cut.err
	check "truncated protobuf: one line" test "$(wc -l < cut.err)" -eq 1
	head -c 300 fp.pb.gz > cut.pb.gz
	"$SCORCH" fold cut.pb.gz > /dev/null 2> cutgz.err; rc=$?
	check "truncated gzip: exit 1" test $rc -eq 1
	check_grep "truncated gzip: says so" 'cut.pb.gz: .*pprof: .*gzip' cutgz.err
	printf '\x0a\x04\x08\x01\x10\x02\x32\x00\x32\x01a' > badidx.pb
	"$SCORCH" fold badidx.pb > /dev/null 2> badidx.err; rc=$?
	check "string index beyond the table: exit 1" test $rc -eq 1
	check_grep "string index beyond the table: named" 'at offset 0x2: pprof: string index 2 beyond the string table .2 strings.' badidx.err
	printf '\x0a\x04\x08\x01\x10\x02\x12\x05\x0a\x01\x07\x10\x01\x32\x00\x32\x01a\x32\x01b' > noloc.pb
	"$SCORCH" fold noloc.pb > /dev/null 2> noloc.err; rc=$?
	check "a sample naming an undefined location: exit 1" test $rc -eq 1
	check_grep "... named with its offset" 'at offset 0x8: pprof: a sample names location 7' noloc.err
fi

# the reference corpus, when there
if shared_corpus; then
	C=$SHARED/corpus
	for c in fp dwarf cpp_fp multi offcpu pipe_fp zstd_fp; do
		[ -f "$C/$c/perf.data" ] || continue
		round "corpus $c" $(srcs $c) "$C/$c/perf.data"
	done
fi

# a fresh recording
if "$SCORCH" record -q -F 499 -g -o rec.data -- sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' > /dev/null 2> rec.err; then
	round "fresh recording" rec.data
else
	skip "fresh recording" "scorch record failed: $(tail -1 rec.err)"
fi

# a Go program's own CPU profile, and go tool pprof -proto's copy of it
if GOCACHE=$TMP/gocache go build -o gocpu "$ROOT/tests/workloads/gocpu.go" > gob.err 2>&1 &&
   ./gocpu go.pprof > /dev/null 2>&1 && [ -s go.pprof ]; then
	traces go.pprof > go.want
	"$SCORCH" fold --sample-type cpu go.pprof | LC_ALL=C sort > go.got
	check "Go CPU profile: go tool pprof shows stacks" test -s go.want
	check_same "Go CPU profile: fold == go tool pprof -traces" go.want go.got
	go tool pprof -proto go.pprof > go.pb.gz 2>/dev/null
	"$SCORCH" fold --sample-type cpu go.pb.gz | LC_ALL=C sort > go2.got
	check_same "go tool pprof -proto's copy: fold == -traces" go.want go2.got
	"$SCORCH" flame --sample-type cpu go.pb.gz > go.svg 2>/dev/null
	check_grep "Go CPU profile: flame draws main.burnA" 'main.burnA' go.svg
else
	skip "Go CPU profile" "could not build or run tests/workloads/gocpu.go: $(tail -1 gob.err)"
fi

# a small profile that names one long location many times: refused with
# a message, not expanded (one location of 200 lines of a 60 KB name, a
# sample naming it 2000 times: 24 GB of stack text)
if need python3; then
	python3 - <<'PY'
def varint(v):
    b = bytearray()
    while v >= 0x80:
        b.append((v & 0x7f) | 0x80); v >>= 7
    b.append(v); return bytes(b)
def fld(n, w, p):
    return varint(n << 3) + varint(p) if w == 0 else varint(n << 3 | 2) + varint(len(p)) + p
prof = fld(1, 2, fld(1, 0, 1) + fld(2, 0, 2))
prof += fld(5, 2, fld(1, 0, 1) + fld(2, 0, 3))
prof += fld(4, 2, fld(1, 0, 1) + fld(4, 2, fld(1, 0, 1)) * 200)
prof += fld(2, 2, fld(1, 2, varint(1) * 2000) + fld(2, 2, varint(1)))
for s in [b'', b'samples', b'count', b'x' * 60000]:
    prof += fld(6, 2, s)
open('bomb.pb', 'wb').write(prof)
PY
	"$SCORCH" fold bomb.pb > bomb.out 2> bomb.err; rc=$?
	check "a stack too long to build: exit 1, nothing printed" test $rc -eq 1 -a ! -s bomb.out
	check_grep "... says so with the offset" "bomb.pb: at offset 0x[0-9a-f]+: pprof: a sample's stack is over 16 MiB" bomb.err
fi

# a folded count past what pprof's int64 values hold saturates there
printf 'a;b 99999999999999999999999\nc 2\n' > huge.folded
"$SCORCH" export --format pprof -o huge.pb.gz huge.folded 2> huge.err
"$SCORCH" fold huge.pb.gz > huge.out 2>&1
printf 'a;b 9223372036854775807\nc 2\n' > huge.want
check_same "a count past int64 saturates at 2^63-1" huge.want huge.out
