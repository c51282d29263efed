# t1004: damaged perf.data: truncated and corrupted copies of recorded
# files (the fixtures always, the shared corpus when present). The reader
# keeps what it could read, warns once naming the file, the offset and
# the record type, exits non-zero only when nothing usable remains, and
# never crashes. Sample counts before a damage come from perf script.
. "$ROOT/tests/lib-corpus.sh"

# offset of the Nth record of a type (decimal), from scorch dump
nth() { grep " PERF_RECORD_$1[ :]" records.txt | sed -n "$2p" | sed 's/^0x\([0-9a-f]*\) .*/\1/' | { read -r h; echo $((16#$h)); }; }
hex() { printf '0x%x' "$1"; }
# patch FILE OFFSET BYTES(printf escapes)
patch() { printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }
samples_of() { sed -n 's/^event .*: samples \([0-9]*\).*/\1/p' "$1" | head -1; }

damages() {
	local src=$C/fp/perf.data total ptotal k s n rc
	total=$(samples "$C/fp/perf-script.txt" | wc -l)
	ptotal=$(samples "$C/pipe_fp/perf-script.txt" | wc -l)
	"$SCORCH" dump "$src" > records.txt

	# 1. truncated inside a record
	k=$((total / 2))
	s=$(nth SAMPLE $k)
	head -c $((s + 20)) "$src" > cut.data
	"$SCORCH" dump --stats cut.data > out.txt 2> err.txt; rc=$?
	check_grep "$L truncated in a record: message names file, offset and type" \
		"cut.data: at offset $(hex "$s"): SAMPLE \(9\): size [0-9]+ but only 20 bytes left" err.txt
	n=$(samples_of out.txt)
	if [ $rc -eq 0 ] && [ "$n" = $((k - 1)) ]; then pass "$L truncated: the $((k - 1)) samples before the cut are kept, exit 0"
	else fail "$L truncated: samples before the cut kept" "rc=$rc samples=$n, want $((k - 1))"; fi

	# 2. truncated at a record boundary: the data section is short
	head -c "$s" "$src" > cut2.data
	"$SCORCH" dump --stats cut2.data > out.txt 2> err.txt
	check_grep "$L truncated at a record boundary: data section end named" \
		"cut2.data: at offset $(hex "$s"): data section ends at 0x[0-9a-f]+ but the file stops here" err.txt

	# 3. never finalized: data size 0 (perf record killed)
	cp "$src" unfinished.data; chmod u+w unfinished.data
	patch unfinished.data 48 '\0\0\0\0\0\0\0\0'
	head -c $(( $(grep -o 'data size *: [0-9]*' "$C/fp/header.txt" | grep -o '[0-9]*$') + 264 )) unfinished.data > unf.data
	"$SCORCH" dump --stats unf.data > out.txt 2> err.txt; rc=$?
	check_grep "$L data size 0: warned as not finalized" 'unf.data: data size is 0: the file was not finalized' err.txt
	n=$(samples_of out.txt)
	if [ $rc -eq 0 ] && [ "$n" = "$total" ]; then pass "$L data size 0: all $total samples read up to the end of the file"
	else fail "$L data size 0: all samples read" "rc=$rc samples=$n, want $total"; fi

	# 4. a record of size 0
	cp "$src" zero.data; chmod u+w zero.data
	k=$((total / 3))
	s=$(nth SAMPLE $k)
	patch zero.data $((s + 6)) '\0\0'
	"$SCORCH" dump --stats zero.data > out.txt 2> err.txt; rc=$?
	check_grep "$L record of size 0: message names file, offset and type" \
		"zero.data: at offset $(hex "$s"): SAMPLE \(9\): size 0 below minimum 8" err.txt
	n=$(samples_of out.txt)
	if [ $rc -eq 0 ] && [ "$n" = $((k - 1)) ]; then pass "$L size 0: the $((k - 1)) samples before it are counted, exit 0"
	else fail "$L size 0: samples before it counted" "rc=$rc samples=$n, want $((k - 1))"; fi

	# 5. a record larger than the rest of the file
	cp "$src" big.data; chmod u+w big.data
	s=$(nth SAMPLE "$total")
	patch big.data $((s + 6)) '\377\377'
	"$SCORCH" dump --stats big.data > out.txt 2> err.txt
	check_grep "$L record past the end: message names offset, type and size" \
		"big.data: at offset $(hex "$s"): SAMPLE \(9\): size 65535 but only [0-9]+ bytes left" err.txt

	# 6. garbage after the last record (pipe capture with perf's stderr)
	cp "$C/pipe_fp/perf.data" tail.data; chmod u+w tail.data
	printf '[ perf record: Woken up 1 times to write data ]\n' >> tail.data
	"$SCORCH" dump --stats tail.data > out.txt 2> err.txt; rc=$?
	check_grep "$L garbage tail: named as not a record" 'tail.data: at offset 0x[0-9a-f]+: .*not a record \(garbage after the last record\?\)' err.txt
	n=$(samples_of out.txt)
	if [ $rc -eq 0 ] && [ "$n" = "$ptotal" ]; then pass "$L garbage tail: all $ptotal samples kept, exit 0"
	else fail "$L garbage tail: samples kept" "rc=$rc samples=$n, want $ptotal"; fi

	# 7. one sample with a callchain longer than the record: skipped, rest kept
	cp "$src" chain.data; chmod u+w chain.data
	s=$(nth SAMPLE 10)
	patch chain.data $((s + 8 + 32)) '\377\377\0\0'
	"$SCORCH" dump --stats chain.data > out.txt 2> err.txt; rc=$?
	check_grep "$L bad callchain: one warning, counted, naming offset and size" "chain.data: 1 of $total samples dropped as malformed \(first at offset $(hex "$s"): callchain of 65535 entries past record end\)" err.txt
	n=$(samples_of out.txt)
	if [ $rc -eq 0 ] && [ "$n" = $((total - 1)) ]; then pass "$L bad callchain: only that sample is skipped"
	else fail "$L bad callchain: only that sample skipped" "rc=$rc samples=$n, want $((total - 1))"; fi

	# 8. corrupt zstd payload (the last COMPRESSED record of zstd_fp; the
	# corpus's zstd_fp has one only: other people's file below)
	[ "$L" = fixture ] && corrupt_zstd "$C/zstd_fp/perf.data" "$(samples "$C/zstd_fp/perf-script.txt" | wc -l)" '$'

	# 9. nothing usable: exit 1 with a message
	head -c 60 "$src" > short.data
	check_fails "$L header cut short: exit 1" "$SCORCH" dump short.data
	"$SCORCH" dump short.data 2> err.txt
	check_grep "$L header cut short: message names the file" 'short.data: .*file header truncated' err.txt
	head -c $((264 + 4)) "$src" > nodata.data
	check_fails "$L no complete record at all: exit 1" "$SCORCH" dump nodata.data
	"$SCORCH" dump nodata.data 2> err.txt
	check_grep "$L no complete record: offset named" 'nodata.data: at offset 0x108: truncated record header \(4 of 8 bytes\)' err.txt
	cp "$src" attrs.data; chmod u+w attrs.data
	patch attrs.data 16 '\0\0\0\0\0\0\0\0'
	check_fails "$L attr_size 0: exit 1" "$SCORCH" dump attrs.data
	"$SCORCH" dump attrs.data 2> err.txt
	check_grep "$L attr_size 0: perf's hint" 'attrs.data: at offset 0x10: attr_size is 0 \(was perf record properly terminated\?\)' err.txt

	# 11. stdin, pipe mode, and the same damage messages through a pipe
	"$SCORCH" dump --stats - < "$C/pipe_fp/perf.data" > out.txt
	check_grep "$L pipe mode from stdin" "^event cpu-clock[:a-zA-Z]*: samples $ptotal " out.txt
	head -c 5000 "$C/pipe_fp/perf.data" | "$SCORCH" dump --stats - > out.txt 2> err.txt
	check_grep "$L truncated stream on stdin: named" '^scorch dump: warning: -: at offset 0x[0-9a-f]+: [A-Z_0-9]+ \([0-9]+\): size [0-9]+ but only [0-9]+ bytes left' err.txt
	# file-mode data on a pipe is copied to a temporary file, then read as the file
	"$SCORCH" dump "$src" > file.txt
	cat "$src" | "$SCORCH" dump - > piped.txt
	check_same "$L file-mode data on a pipe: dumped as the file is" file.txt piped.txt
}

# corrupt_zstd FILE SAMPLES WHICH: the COMPRESSED record WHICH (a sed line
# address) of FILE gets a damaged payload; the samples before it are kept
corrupt_zstd() {
	local n s rc
	cp "$1" z.data; chmod u+w z.data
	"$SCORCH" dump z.data > zrec.txt
	s=$(grep -E ' PERF_RECORD_COMPRESSED( |$)' zrec.txt | sed -n "$3p" | sed 's/^0x\([0-9a-f]*\) .*/\1/')
	patch z.data $((16#$s + 8)) '\377\377\377\377\377\377\377\377'
	"$SCORCH" dump --stats z.data > out.txt 2> err.txt; rc=$?
	check_grep "$L ${1##*/}: corrupt zstd data: named with offset and type" "z.data: at offset 0x$s: COMPRESSED \(81\): zstd: " err.txt
	n=$(samples_of out.txt)
	# the samples before it: those of the undamaged file up to that record
	local want
	want=$("$SCORCH" dump "$1" | awk -v s="0x$s" '$1 == s { exit } / PERF_RECORD_SAMPLE/ { n++ } END { print n + 0 }')
	if [ $rc -eq 0 ] && [ "${n:-0}" = "$want" ] && [ "$n" -lt "$2" ]; then pass "$L ${1##*/}: corrupt zstd data: the $want samples before it are kept (of $2)"
	else fail "$L ${1##*/}: corrupt zstd data: samples before it kept" "rc=$rc samples=$n, want $want of $2"; fi
}

shared_corpus corpus/external/perfparser/tests/auto/perfdata/fork_static_gcc/perf.data.zstd \
	corpus/external/perf_data_converter/src/quipper/testdata/perf.data.piped.corrupted.zero_size_sample-3.2
each_root damages
shared_corpus || return 0
C=$SHARED/corpus

# 8. other people's zstd file
corrupt_zstd "$C/external/perfparser/tests/auto/perfdata/fork_static_gcc/perf.data.zstd" 106 4

# 10. the corpus file made to test this: a zero-size record in a pipe file
f=$C/external/perf_data_converter/src/quipper/testdata/perf.data.piped.corrupted.zero_size_sample-3.2
"$SCORCH" dump --stats "$f" > out.txt 2> err.txt; rc=$?
check_grep "zero_size_sample-3.2: offset and type named" 'at offset 0xbfd0: SAMPLE \(9\): size 0 below minimum 8' err.txt
n=$(sed -n 's/^records: //p' out.txt)
if [ $rc -eq 0 ] && [ "$n" = 570 ]; then pass "zero_size_sample-3.2: the 570 records before it are kept"
else fail "zero_size_sample-3.2: records before it kept" "rc=$rc records=$n"; fi
