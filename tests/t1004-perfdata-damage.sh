# t1004: damaged perf.data: truncated and corrupted copies of corpus files.
# The reader keeps what it could read, warns once naming the file, the
# offset and the record type, exits non-zero only when nothing usable
# remains, and never crashes.

C=$SHARED/corpus
src=$C/fp/perf.data
total=$("$SCORCH" dump --stats "$src" | sed -n 's/^event .*: samples \([0-9]*\).*/\1/p')
"$SCORCH" dump "$src" > records.txt

# offset of the Nth record of a type (decimal), from scorch dump
nth() { grep " PERF_RECORD_$1[ :]" records.txt | sed -n "$2p" | sed 's/^0x\([0-9a-f]*\) .*/\1/' | { read -r h; echo $((16#$h)); }; }
hex() { printf '0x%x' "$1"; }
# patch FILE OFFSET BYTES(printf escapes)
patch() { printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }
samples() { sed -n 's/^event .*: samples \([0-9]*\).*/\1/p' "$1" | head -1; }

# 1. truncated inside a record
s=$(nth SAMPLE 1000)
head -c $((s + 20)) "$src" > cut.data
"$SCORCH" dump --stats cut.data > out.txt 2> err.txt; rc=$?
check_grep "truncated in a record: message names file, offset and type" \
	"cut.data: at offset $(hex "$s"): SAMPLE \(9\): size [0-9]+ but only 20 bytes left" err.txt
n=$(samples out.txt)
if [ $rc -eq 0 ] && [ "$n" = 999 ]; then pass "truncated: the 999 samples before the cut are kept, exit 0"
else fail "truncated: samples before the cut kept" "rc=$rc samples=$n"; fi

# 2. truncated at a record boundary: the data section is short
head -c "$s" "$src" > cut2.data
"$SCORCH" dump --stats cut2.data > out.txt 2> err.txt
check_grep "truncated at a record boundary: data section end named" \
	"cut2.data: at offset $(hex "$s"): data section ends at 0x[0-9a-f]+ but the file stops here" err.txt

# 3. never finalized: data size 0 (perf record killed)
cp "$src" unfinished.data; chmod u+w unfinished.data
patch unfinished.data 48 '\0\0\0\0\0\0\0\0'
head -c $(( $(grep -o 'data size *: [0-9]*' "$C/fp/header.txt" | grep -o '[0-9]*$') + 264 )) unfinished.data > unf.data
"$SCORCH" dump --stats unf.data > out.txt 2> err.txt; rc=$?
check_grep "data size 0: warned as not finalized" 'unf.data: data size is 0: the file was not finalized' err.txt
n=$(samples out.txt)
if [ $rc -eq 0 ] && [ "$n" = "$total" ]; then pass "data size 0: all $total samples read up to the end of the file"
else fail "data size 0: all samples read" "rc=$rc samples=$n"; fi

# 4. a record of size 0
cp "$src" zero.data; chmod u+w zero.data
s=$(nth SAMPLE 500)
patch zero.data $((s + 6)) '\0\0'
"$SCORCH" dump --stats zero.data > out.txt 2> err.txt; rc=$?
check_grep "record of size 0: message names file, offset and type" \
	"zero.data: at offset $(hex "$s"): SAMPLE \(9\): size 0 below minimum 8" err.txt
n=$(samples out.txt)
if [ $rc -eq 0 ] && [ "$n" = 499 ]; then pass "size 0: the 499 samples before it are counted, exit 0"
else fail "size 0: samples before it counted" "rc=$rc samples=$n"; fi

# 5. a record larger than the rest of the file
cp "$src" big.data; chmod u+w big.data
s=$(nth SAMPLE "$total")
patch big.data $((s + 6)) '\377\377'
"$SCORCH" dump --stats big.data > out.txt 2> err.txt
check_grep "record past the end: message names offset, type and size" \
	"big.data: at offset $(hex "$s"): SAMPLE \(9\): size 65535 but only [0-9]+ bytes left" err.txt

# 6. garbage after the last record (pipe capture with perf's stderr)
cp "$C/pipe_fp/perf.data" tail.data; chmod u+w tail.data
printf '[ perf record: Woken up 1 times to write data ]\n' >> tail.data
"$SCORCH" dump --stats tail.data > out.txt 2> err.txt; rc=$?
check_grep "garbage tail: named as not a record" 'tail.data: at offset 0x[0-9a-f]+: .*not a record \(garbage after the last record\?\)' err.txt
n=$(samples out.txt)
if [ $rc -eq 0 ] && [ "$n" = 997 ]; then pass "garbage tail: all 997 samples kept, exit 0"
else fail "garbage tail: samples kept" "rc=$rc samples=$n"; fi

# 7. one sample with a callchain longer than the record: skipped, rest kept
cp "$src" chain.data; chmod u+w chain.data
s=$(nth SAMPLE 10)
patch chain.data $((s + 8 + 32)) '\377\377\0\0'
"$SCORCH" dump --stats chain.data > out.txt 2> err.txt; rc=$?
check_grep "bad callchain: one warning, counted, naming offset and size" "chain.data: 1 of $total samples dropped as malformed \(first at offset $(hex "$s"): callchain of 65535 entries past record end\)" err.txt
n=$(samples out.txt)
if [ $rc -eq 0 ] && [ "$n" = $((total - 1)) ]; then pass "bad callchain: only that sample is skipped"
else fail "bad callchain: only that sample skipped" "rc=$rc samples=$n"; fi

# 8. corrupt zstd payload
zsrc=$C/external/perfparser/tests/auto/perfdata/fork_static_gcc/perf.data.zstd
cp "$zsrc" z.data; chmod u+w z.data
"$SCORCH" dump z.data > zrec.txt
s=$(grep -E ' PERF_RECORD_COMPRESSED( |$)' zrec.txt | sed -n 4p | sed 's/^0x\([0-9a-f]*\) .*/\1/')
patch z.data $((16#$s + 8)) '\377\377\377\377\377\377\377\377'
"$SCORCH" dump --stats z.data > out.txt 2> err.txt; rc=$?
check_grep "corrupt zstd data: named with offset and type" "z.data: at offset 0x$s: COMPRESSED \(81\): zstd: " err.txt
n=$(samples out.txt)
if [ $rc -eq 0 ] && [ "$n" -gt 0 ] && [ "$n" -lt 106 ]; then pass "corrupt zstd data: the samples before it are kept ($n)"
else fail "corrupt zstd data: samples before it kept" "rc=$rc samples=$n"; fi

# 9. nothing usable: exit 1 with a message
head -c 60 "$src" > short.data
check_fails "header cut short: exit 1" "$SCORCH" dump short.data
"$SCORCH" dump short.data 2> err.txt
check_grep "header cut short: message names the file" 'short.data: .*file header truncated' err.txt
head -c $((264 + 4)) "$src" > nodata.data
check_fails "no complete record at all: exit 1" "$SCORCH" dump nodata.data
"$SCORCH" dump nodata.data 2> err.txt
check_grep "no complete record: offset named" 'nodata.data: at offset 0x108: truncated record header \(4 of 8 bytes\)' err.txt
cp "$src" attrs.data; chmod u+w attrs.data
patch attrs.data 16 '\0\0\0\0\0\0\0\0'
check_fails "attr_size 0: exit 1" "$SCORCH" dump attrs.data
"$SCORCH" dump attrs.data 2> err.txt
check_grep "attr_size 0: perf's hint" 'attrs.data: at offset 0x10: attr_size is 0 \(was perf record properly terminated\?\)' err.txt

# 10. the corpus file made to test this: a zero-size record in a pipe file
f=$C/external/perf_data_converter/src/quipper/testdata/perf.data.piped.corrupted.zero_size_sample-3.2
"$SCORCH" dump --stats "$f" > out.txt 2> err.txt; rc=$?
check_grep "zero_size_sample-3.2: offset and type named" 'at offset 0xbfd0: SAMPLE \(9\): size 0 below minimum 8' err.txt
n=$(sed -n 's/^records: //p' out.txt)
if [ $rc -eq 0 ] && [ "$n" = 570 ]; then pass "zero_size_sample-3.2: the 570 records before it are kept"
else fail "zero_size_sample-3.2: records before it kept" "rc=$rc records=$n"; fi

# 11. stdin, pipe mode, and the same damage messages through a pipe
"$SCORCH" dump --stats - < "$C/pipe_fp/perf.data" > out.txt
check_grep "pipe mode from stdin" '^event cpu-clock:ppp: samples 997 ' out.txt
head -c 5000 "$C/pipe_fp/perf.data" | "$SCORCH" dump --stats - > out.txt 2> err.txt
check_grep "truncated stream on stdin: named" '^scorch dump: warning: -: at offset 0x[0-9a-f]+: [A-Z_0-9]+ \([0-9]+\): size [0-9]+ but only [0-9]+ bytes left' err.txt
# file-mode data on a pipe is copied to a temporary file, then read as the file
"$SCORCH" dump "$src" > file.txt
cat "$src" | "$SCORCH" dump - > piped.txt
check_same "file-mode data on a pipe: dumped as the file is" file.txt piped.txt
