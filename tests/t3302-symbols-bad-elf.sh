# t3302: bad symbol sources. An ELF file whose section header lies about
# its size is rejected with a warning naming the file and the section,
# not a crash; its frames are [unknown] as perf shows them. A build-id
# mismatch is skipped silently. (Malformed JIT map lines: symbols_test.c
# and fuzz-perfmap.)
C=$SHARED/corpus
export HOME=$TMP/home
mkdir -p "$HOME"
if ! need python3; then
	skip "lying ELF" "python3 missing"
	return 0 2>/dev/null || exit 0
fi
# a private copy of fp's build-id cache with the binary's .symtab lying
cp -r "$C/fp/buildid" cache
chmod -R u+w cache
elf=cache/tmp/mkcorpus.TLgv/work_fp/e38e638e4417ab7ed175cf880b6cd0b9794a216a/elf
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
check "lying ELF: fold still succeeds" test $? -eq 0 -a -s lying.folded
check_grep "lying ELF: warning names the file and the section" 'warning: .*work_fp/e38e638e4417ab7ed175cf880b6cd0b9794a216a/elf: section [0-9]+: .*runs past the end of the file.*skipped' lying.err
check_grep "lying ELF: its frames are [unknown] like perf's" '^work_fp;__libc_start_call_main;\[work_fp\];' lying.folded
check "lying ELF: one warning, not one per sample" test "$(grep -c 'runs past' lying.err)" = 1
"$SCORCH" script --buildid-dir cache "$C/fp/perf.data" > lying.txt 2>/dev/null
check_grep "lying ELF: script prints [unknown] (dso)" '^\s+127c \[unknown\] \(/tmp/mkcorpus.TLgv/work_fp\)$' lying.txt

# a truncated ELF (cut in the middle of its section headers)
cp -r "$C/fp/buildid" cache2
chmod -R u+w cache2
elf2=cache2/tmp/mkcorpus.TLgv/work_fp/e38e638e4417ab7ed175cf880b6cd0b9794a216a/elf
head -c 20000 "$C/fp/buildid/tmp/mkcorpus.TLgv/work_fp/e38e638e4417ab7ed175cf880b6cd0b9794a216a/elf" > "$elf2"
"$SCORCH" fold --buildid-dir cache2 "$C/fp/perf.data" > trunc.folded 2> trunc.err
check "truncated ELF: fold succeeds" test $? -eq 0 -a -s trunc.folded

# wrong build id: the file is not used, no warning needed
cp -r "$C/fp/buildid" cache3
chmod -R u+w cache3
cp "$C/cpp_fp/buildid/tmp/mkcorpus.TLgv/tmpl/"*/elf cache3/tmp/mkcorpus.TLgv/work_fp/e38e638e4417ab7ed175cf880b6cd0b9794a216a/elf 2>/dev/null
"$SCORCH" fold --buildid-dir cache3 "$C/fp/perf.data" > other.folded 2>/dev/null
check_grep "build-id mismatch: the other binary's symbols are not used" '^work_fp;__libc_start_call_main;\[work_fp\];' other.folded

