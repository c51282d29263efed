# t4005-unwind-distro: distro binaries built without frame pointers (sort,
# gzip), recorded afresh with --call-graph dwarf: scorch's stacks equal
# perf's own unwinding of the same file, frame for frame (including the
# inline rows perf adds from libc's debug file, and PLT entries).
if ! need perf sort gzip; then skip "distro binaries" "perf, sort or gzip missing"; return 0; fi
head -c 8000000 /dev/urandom > data.bin
mkdir -p home
for cmd in "sort -S 20M data.bin" "gzip -1 -c data.bin"; do
	name=${cmd%% *}
	HOME=$TMP/home perf --buildid-dir "$TMP/bid" record -q -F 499 --call-graph dwarf \
		-o "$name.data" -- $cmd > /dev/null 2> "$name.rec.err" ||
		{ fail "$name: perf record" "$(cat "$name.rec.err")"; continue; }
	HOME=$TMP/home perf --buildid-dir "$TMP/bid" script -i "$name.data" 2> /dev/null |
		"$SCORCH" fold --format=perf-script > "$name.perf.folded"
	HOME=$TMP/home "$SCORCH" fold --buildid-dir "$TMP/bid" "$name.data" > "$name.folded" 2> "$name.err"
	check_same "$name: stacks identical to perf script's" "$name.perf.folded" "$name.folded"
	if [ -s "$name.err" ]; then fail "$name: no warning" "$(cat "$name.err")"; else pass "$name: no warning"; fi
done
