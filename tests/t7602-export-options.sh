# t7602: scorch export takes scorch fold's naming options and the
# perf.data commands' symbol options and filters (--comm, --cpu, --time,
# --event): go tool pprof -traces of each export equals scorch fold
# with the same options; bad filter values are usage errors; -o writes
# through a temporary file (no file on failure, none left behind).
. "$ROOT/tests/lib-corpus.sh"
. "$ROOT/tests/lib-pprof.sh"

pprof_ready "export options" || exit 0
fixtures || exit 0
D=$FIX/fp/perf.data
S=$(srcs fp)

# same DESC OPTIONS...: export == fold with the same options on D
same() {
	local desc=$1; shift
	"$SCORCH" export --format pprof -o o.pb.gz $S "$@" "$D" 2> e.err
	check "$desc: export exits 0" test $? -eq 0
	"$SCORCH" fold $S "$@" "$D" 2>/dev/null | LC_ALL=C sort > f.txt
	traces o.pb.gz > t.txt
	check "$desc: fold has stacks" test -s f.txt
	check_same "$desc: pprof -traces == scorch fold $*" f.txt t.txt
}

comm=$("$SCORCH" fold $S "$D" 2>/dev/null | sed -n '1s/;.*//p')
cpu=$("$SCORCH" script $S -F cpu "$D" 2>/dev/null | sed -n '1s/[^0-9]//gp')
same "--pid" --pid
same "--tid --all" --tid --all
same "--addrs --no-inline" --addrs --no-inline
same "--comm" --comm "$comm"
same "--cpu" --cpu "$((10#$cpu))"
same "--time" --time +0,+0.05
same "--event" --event cpu-clock

# the filter left out everything of another comm
"$SCORCH" export --format pprof -o none.pb.gz $S --comm no-such-comm "$D" 2> none.err
traces none.pb.gz > none.txt
check "--comm of no process: exit 0, no stack" test $? -eq 0 -a ! -s none.txt
check_grep "--comm of no process: a warning says so" 'no sample matches --comm' none.err

# perf script text takes the naming options too
perf script -i "$D" $(echo $S | sed 's/--buildid-dir/--symfs=/; s/= /=/') > script.txt 2>/dev/null ||
	"$SCORCH" script $S "$D" > script.txt 2>/dev/null
"$SCORCH" export --format pprof --pid -o s.pb.gz script.txt 2>/dev/null
"$SCORCH" fold --pid script.txt 2>/dev/null | LC_ALL=C sort > sf.txt
traces s.pb.gz > st.txt
check_same "perf script text, --pid: -traces == scorch fold --pid" sf.txt st.txt

"$SCORCH" export --format pprof -o bad.pb.gz --time x,y "$D" 2> bad.err; rc=$?
check "--time x,y: usage error (exit 2)" test $rc -eq 2
check "--time x,y: no output file" test ! -e bad.pb.gz
check_grep "--time x,y: the message names the option" 'time' bad.err
printf 'x\0binary\n' > bin.dat
echo old > keep.pb.gz
"$SCORCH" export --format pprof -o keep.pb.gz bin.dat 2> /dev/null
check "failed export leaves an existing -o file alone" test "$(cat keep.pb.gz)" = old
check "no temporary file left" test -z "$(ls | grep 'tmp')"

# perf.data on a pipe, with the symbol options: the same bytes as the file
"$SCORCH" export --format pprof -o file.pb.gz $S --pid "$D" 2> /dev/null
cat "$D" | "$SCORCH" export --format pprof $S --pid > pipe.pb.gz 2> /dev/null
check_same "perf.data on a pipe: the same profile as the file" file.pb.gz pipe.pb.gz
