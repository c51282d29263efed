# t7001: scorch fold on empty, binary, unknown and damaged input: empty in,
# empty out and exit 0; binary or unknown text: one message naming the
# file and line, non-zero exit; weird lines: one warning with a count.
: > empty.txt
"$SCORCH" fold empty.txt > out 2> err; rc=$?
check "empty file: exit 0" test $rc -eq 0
check "empty file: no output" test ! -s out
"$SCORCH" fold < /dev/null > out 2> err; rc=$?
check "empty stdin: exit 0 and no output" test $rc -eq 0 -a ! -s out
printf '# only a comment\n\n' > comments.txt
"$SCORCH" fold comments.txt > out 2> err; rc=$?
check "comments only: exit 0, no output" test $rc -eq 0 -a ! -s out

printf 'hello\nworld\0\001\002binary\n' > bin.dat
"$SCORCH" fold bin.dat > out 2> err; rc=$?
check "binary: non-zero exit" test $rc -ne 0
check_grep "binary: message names file and line" '^scorch fold: bin\.dat: line 2: binary data' err
check "binary: one line of message" test "$(wc -l < err)" -eq 1
check "binary: no output" test ! -s out
head -c 4096 /dev/urandom > random.dat 2>/dev/null
check_fails "random bytes: non-zero exit" "$SCORCH" fold random.dat

printf 'Dear reader,\nthis is a letter, not a profile.\n' > letter.txt
"$SCORCH" fold letter.txt > out 2> err; rc=$?
check "unknown text: non-zero exit" test $rc -ne 0
check_grep "unknown text: message names file and line" '^scorch fold: letter\.txt: line 1: not a known stack format' err
check "unknown text: one line of message" test "$(wc -l < err)" -eq 1
check_fails "unknown text on stdin fails" sh -c "\"$SCORCH\" fold < letter.txt"
check_fails "missing file fails" "$SCORCH" fold no-such-file.txt
"$SCORCH" fold no-such-file.txt 2> err
check_grep "missing file: message names it" 'no-such-file\.txt: No such file' err

# weird lines inside perf script text: one warning with a count
{
	printf 'prog 12 [000] 1.000001: 1 cpu-clock:\n\tffff0001 leaf+0x1 (/bin/prog)\n'
	for i in 1 2 3 4 5; do printf '!!! weird line %d\n' $i; done
	printf '\tffff0002 main+0x2 (/bin/prog)\n\n'
} > weird.txt
"$SCORCH" fold weird.txt > out 2> err; rc=$?
check "weird lines: exit 0" test $rc -eq 0
check_grep "weird lines: one warning with the count and first line" 'ignored 5 unrecognized lines \(first at line 3' err
check "weird lines: exactly one warning" test "$(wc -l < err)" -eq 1
printf 'prog;main;leaf 1\n' > exp
check_same "weird lines: the stack is still folded" exp out

# a line longer than anything sane is still handled (no crash)
{ printf 'prog 12 [000] 1.000001: 1 cpu-clock:\n\tffff0001 '; head -c 3000000 /dev/zero | tr '\0' 'x'; printf ' (/bin/prog)\n\n'; } > long.txt
"$SCORCH" fold long.txt > out 2> err; rc=$?
check "3 MB frame name: exit 0" test $rc -eq 0
check "3 MB frame name: one stack" test "$(wc -l < out)" -eq 1

# perf.data given where text was forced is still read as perf.data: a
# damaged one gets the perf.data reader's message naming the file
printf 'PERFILE2\0\0\0\0\0\0\0\0' > fake.data
"$SCORCH" fold --format=perf-script fake.data > out 2> err; rc=$?
check "damaged perf.data forced as text: non-zero exit" test $rc -ne 0
check_grep "damaged perf.data forced as text: message names the file" '^scorch fold: fake\.data: ' err
check "damaged perf.data: one line of message" test "$(wc -l < err)" -eq 1
check_fails "bad --format value is a usage error" "$SCORCH" fold --format=xml empty.txt
"$SCORCH" fold --format=xml empty.txt 2>/dev/null; rc=$?
check "bad --format: exit 2" test $rc -eq 2
# -o writes a file; compressed input: a hint to decompress, not "binary
# data" (perf script text of the fixtures always, of the shared corpus
# and FlameGraph's test files when present)
. "$ROOT/tests/lib-corpus.sh"
outs() {
	"$SCORCH" fold -o o.folded "$C/fp/perf-script.txt"
	check_same "$L -o FILE" "$C/fp/stackcollapse.folded" o.folded
	check_fails "$L -o into a missing directory fails" "$SCORCH" fold -o no/such/dir/x "$C/fp/perf-script.txt"
	gzip -c "$C/fp/perf-script.txt" > f.txt.gz
	"$SCORCH" fold f.txt.gz > out 2> err; rc=$?
	check "$L gzip input: non-zero exit" test $rc -ne 0
	check_grep "$L gzip input: says so and how" 'f\.txt\.gz: line 1: gzip-compressed data; decompress it first \(zcat' err
	zcat f.txt.gz | "$SCORCH" fold > out
	check_same "$L decompressed through a pipe folds" "$C/fp/stackcollapse.folded" out
}
shared_corpus flamegraph-tests/test/perf-funcab-pid-01.txt
each_root outs
if shared_corpus; then
	gzip -c "$SHARED/flamegraph-tests/test/perf-funcab-pid-01.txt" > f.txt.gz
	"$SCORCH" fold f.txt.gz > out 2> err; rc=$?
	check "FlameGraph's gzip input: non-zero exit" test $rc -ne 0
	zcat f.txt.gz | "$SCORCH" fold > out
	check_same_sorted "FlameGraph's file decompressed through a pipe folds" "$SHARED/flamegraph-tests/test/results/perf-funcab-pid-01-collapsed-jit.txt" out
fi
# control bytes in a weird line are not echoed raw in the warning
printf 'ab 1 [0] 1.0: 5 cycles:\n\t1 f (x)\n' > ctl.txt
head -c 300000 /dev/zero | tr '\0' '\n' >> ctl.txt
printf '\033[31m red\n\n' >> ctl.txt
"$SCORCH" fold ctl.txt > out 2> err
check "escape sequence in a weird line is not printed raw" sh -c "! grep -q \"\$(printf '\\033')\" err"
check_grep "and the line is still reported" "first at line 300003: '\?\[31m red'" err
# a directory is perf record --threads output; one without DIR/data is
# an error naming it, not empty input
mkdir -p adir
"$SCORCH" fold adir > out 2> err; rc=$?
check "directory: non-zero exit" test $rc -ne 0
check_grep "directory: says so, naming DIR/data" 'adir: a directory, read as perf record --threads output, but adir/data cannot be opened: No such file' err

# a --format given (as the drop-in names do) still refuses binary input
# at once, naming the byte, instead of reading it as lines
for f in perf-script stap dtrace; do
	timeout 20 "$SCORCH" fold --format $f /dev/zero > out 2> err; rc=$?
	check "--format $f on endless zero bytes: exit 1, at once" test $rc -eq 1
	check_grep "--format $f on zero bytes: says binary" '/dev/zero: line 1: binary data \(byte 0x00 at offset 0\)' err
done
head -c 64 /dev/urandom > rnd.bin; printf '\037\213\010' > gz.bin
printf 'ELF\000' | cat - rnd.bin > elf.bin
"$SCORCH" fold --format perf-script elf.bin > out 2> err; rc=$?
check "--format perf-script on an ELF-like file: exit 1" test $rc -eq 1 -a ! -s out
check_grep "... names the binary byte" 'elf.bin: line 1: binary data \(byte 0x00 at offset 3\)' err
"$SCORCH" fold --format perf-script gz.bin > out 2> err; rc=$?
check_grep "--format perf-script on gzip data: says decompress" 'gz.bin: line 1: gzip-compressed data; decompress it first' err
