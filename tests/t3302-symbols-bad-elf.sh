# t3302: bad symbol sources. An ELF file whose section header lies about
# its size is rejected with a warning naming the file and the section,
# not a crash; its frames are [unknown] as perf shows them. A build-id
# mismatch is skipped silently. (Malformed JIT map lines: symbols_test.c
# and fuzz-perfmap.) On the fixtures always, the shared corpus when
# present; each with its build-id cache's links as real symlinks and as
# link-as-text files (how a checkout without symlinks stores them): the
# warning may name the file by its .build-id link or by the path the link
# leads to, the result is the same.
. "$ROOT/tests/lib-corpus.sh"
if ! need python3; then
	skip "lying ELF" "python3 missing"
	return 0 2>/dev/null || exit 0
fi

# cache_copy SRC DST STYLE: a writable copy of a build-id cache whose
# .build-id links are real symlinks (STYLE symlink) or text files holding
# the link target (STYLE text), whichever way SRC stores them
cache_copy() {
	local l t
	rm -rf "$2"; cp -r "$1" "$2"; chmod -R u+w "$2"
	find "$2/.build-id" -mindepth 2 -maxdepth 2 | while read -r l; do
		if [ -L "$l" ]; then t=$(readlink "$l")
		elif [ -f "$l" ] && [ "$(wc -c < "$l")" -lt 4096 ] && head -c 3 "$l" | grep -q '^\.\./'; then t=$(cat "$l")
		else continue; fi
		rm -f "$l"
		if [ "$3" = symlink ]; then ln -s "$t" "$l"; else printf '%s' "$t" > "$l"; fi
	done
}

# the binary's build id and recorded path, from perf buildid-list
id_of() { awk -v n="/$2" 'substr($2, length($2) - length(n) + 1) == n { print $1; exit }' "$1"; }

lying() {
	local style=$1 id path rel elf hexlink link
	id=$(id_of "$C/fp/buildid-list.txt" work_fp)
	path=$(awk -v i="$id" '$1 == i { print $2 }' "$C/fp/buildid-list.txt")
	rel=${path#/}/$id/elf
	hexlink=".build-id/${id:0:2}/${id:2}/elf"
	# a private copy of fp's build-id cache with the binary's .symtab lying
	cache_copy "$C/fp/buildid" cache $style
	elf=cache/$rel
	link=cache/${hexlink%/elf}
	if [ $style = symlink ]; then
		check "$L symlink: the cache's $hexlink is a symlink to the binary" test -L "$link" -a -f "$link/elf"
	else
		check "$L text: the cache's ${hexlink%/elf} is a text file naming the binary" \
			test ! -L "$link" -a -f "$link" -a -f "$(dirname "$link")/$(cat "$link")/elf"
	fi
	python3 - "$elf" <<'PY'
import struct, sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
shoff, = struct.unpack_from('<Q', b, 0x28)
shentsize, shnum = struct.unpack_from('<HH', b, 0x3a)
for i in range(shnum):
    off = shoff + i * shentsize
    if struct.unpack_from('<I', b, off + 4)[0] == 2:      # SHT_SYMTAB
        struct.pack_into('<Q', b, off + 0x20, 0x7fffffff0000)  # sh_size
open(p, 'wb').write(b)
PY
	"$SCORCH" fold --buildid-dir cache "$C/fp/perf.data" > lying.folded 2> lying.err
	check "$L $style: lying ELF: fold still succeeds" test $? -eq 0 -a -s lying.folded
	check_grep "$L $style: lying ELF: warning names the file (by link or by path) and the section" \
		"warning: [^ ]*(/${hexlink//./\\.}|/${rel//./\\.}): section [0-9]+: .*runs past the end of the file.*skipped" lying.err
	check_grep "$L $style: lying ELF: its frames are [unknown] like perf's" '^work_fp;__libc_start_call_main;\[work_fp\];' lying.folded
	check "$L $style: lying ELF: one warning, not one per sample" test "$(grep -c 'runs past' lying.err)" = 1
	"$SCORCH" script --buildid-dir cache "$C/fp/perf.data" > lying.txt 2>/dev/null
	check_grep "$L $style: lying ELF: script prints [unknown] (dso)" "^\\s+[0-9a-f]+ \\[unknown\\] \\(${path//./\\.}\\)\$" lying.txt

	# a truncated ELF (cut in the middle of its section headers)
	cache_copy "$C/fp/buildid" cache2 $style
	head -c 20000 "$C/fp/buildid/$rel" > "cache2/$rel"
	"$SCORCH" fold --buildid-dir cache2 "$C/fp/perf.data" > trunc.folded 2> trunc.err
	check "$L $style: truncated ELF: fold succeeds" test $? -eq 0 -a -s trunc.folded

	# wrong build id: the file is not used, no warning needed
	cache_copy "$C/fp/buildid" cache3 $style
	id=$(id_of "$C/cpp_fp/buildid-list.txt" tmpl)
	path=$(awk -v i="$id" '$1 == i { print $2 }' "$C/cpp_fp/buildid-list.txt")
	cp "$C/cpp_fp/buildid/${path#/}/$id/elf" "cache3/$rel"
	"$SCORCH" fold --buildid-dir cache3 "$C/fp/perf.data" > other.folded 2>/dev/null
	check_grep "$L $style: build-id mismatch: the other binary's symbols are not used" '^work_fp;__libc_start_call_main;\[work_fp\];' other.folded
}
styles() { lying symlink; lying text; }
shared_corpus
each_root styles
