# t1006: MMAP2 records in their build-id form (perf record --buildid-mmap,
# misc bit 14: a build id instead of device and inode) decode to the same
# address ranges and build ids as perf script --show-mmap-events prints,
# and the build id of the traced binary equals the one in its ELF notes.
# Recorded fresh here; skipped when perf cannot record on this machine.

bin=$(type -P true)
if ! need perf || ! perf record -q --buildid-mmap -o bid.data -- "$bin" > /dev/null 2>&1; then
	skip "MMAP2 with build ids" "perf record --buildid-mmap does not work here"
	return 0 2>/dev/null || exit 0
fi
perf script -i bid.data --show-mmap-events 2> /dev/null |
	sed -n 's/.*PERF_RECORD_MMAP2 \([-0-9]*\/[0-9]*\): \[\(0x[0-9a-f]*\)(\(0x[0-9a-f]*\)) @ \(0x[0-9a-f]*\) <\([0-9a-f]*\)>\]: [-rwxp]* \(.*\)$/\1 \2 \3 \4 \5 \6/p' > exp.txt
"$SCORCH" dump bid.data |
	sed -n 's/.*PERF_RECORD_MMAP2 \([-0-9]*\/[0-9]*\): \[\(0x[0-9a-f]*\)(\(0x[0-9a-f]*\)) @ \(0x[0-9a-f]*\)\] build-id \([0-9a-f]*\) [a-z]*[ a-z]*: \(.*\) time .*/\1 \2 \3 \4 \5 \6/p' > act.txt
if [ -s exp.txt ]; then
	check_same "MMAP2 build-id form: ranges and build ids as perf script" exp.txt act.txt
else
	skip "MMAP2 build-id form vs perf script" "perf script printed no MMAP2 with a build id"
fi
if need readelf; then
	want=$(readelf -n "$(readlink -f "$bin")" 2> /dev/null | sed -n 's/.*Build ID: //p')
	check_grep "the traced binary's build id is its ELF note ($want)" " $want .*$(basename "$bin")\$" act.txt
fi
