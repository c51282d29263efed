# t3321: kernel symbols from a vmlinux (--vmlinux/-k, perf's search
# paths), moved by the recording's KASLR offset. An ELF built here stands
# in for vmlinux: linked at 0xffffffff81000000 with _text/_stext and
# static functions; a perf.data written by tests/kernel-perfdata.py says
# _text was at 0xffffffff8a200000 when recording (the kernel map
# "[kernel.kallsyms]_text", pgoff _text) and samples three functions
# there, one in .init.text (perf maps each section of a vmlinux apart:
# "[kernel.kallsyms].init.text") and one past every section (no map:
# "[unknown]"). Oracles: nm's names and offsets (shifted by the same offset) and
# perf script --vmlinux on the same files, byte for byte.
if ! need gcc ld nm readelf strip python3; then
	skip "vmlinux symbols" "gcc, ld, nm, readelf, strip or python3 missing"
	return 0 2>/dev/null || exit 0
fi
export HOME=$TMP/home
mkdir -p "$HOME"
GEN=$ROOT/tests/kernel-perfdata.py
LINK=0xffffffff81000000 TEXT=0xffffffff8a200000

cat > vm.c <<'C'
__asm__(".text\n.globl _text\n_text:\n.globl _stext\n_stext:\nnop\n");
static int vm_static_one(int x) { int s = 0; for (int i = 0; i < x; i++) s ^= i * 5; return s; }
static int vm_static_two(int x) { return vm_static_one(x) + 11; }
__attribute__((section(".init.text"))) int vm_init(int x) { return vm_static_two(x) + 2; }
int vm_entry(int x) { return vm_init(x) - 1; }
C
# $1: output; $2: extra flags (another build id)
build_vm() {
	gcc -O0 -fno-pic -mcmodel=kernel -ffreestanding -c vm.c -o vm.o $2 &&
		ld -static -nostdlib -Ttext=$LINK -e vm_entry --build-id -o "$1" vm.o
}
build_id() { readelf -n "$1" | sed -n 's/.*Build ID: *//p'; }
if ! build_vm vmlinux.elf "" || ! build_vm other.elf "-g -DOTHER"; then
	fail "vmlinux-like ELF build failed"
	return 0 2>/dev/null || exit 0
fi
BID=$(build_id vmlinux.elf)
check "the stand-in vmlinux has a build id" test -n "$BID"

# nm: where the functions are in the file; the samples hit them 1, 3 and
# 2 bytes in, at the KASLR-moved addresses
nm vmlinux.elf > nm.txt
check_grep "nm: vm_static_one is static" '^[0-9a-f]+ t vm_static_one$' nm.txt
IPS= : > expect.txt
for f in vm_static_one:1 vm_static_two:3 vm_entry:2 vm_init:4; do
	name=${f%:*} off=${f#*:} dso='[kernel.kallsyms]'
	[ $name = vm_init ] && dso='[kernel.kallsyms].init.text'
	v=$(awk -v n=$name '$3 == n { print $1 }' nm.txt)
	ip=$((0x$v - LINK + TEXT + off))
	IPS="$IPS $(printf '0x%x' $ip)"
	printf '\t%016x %s+0x%x (%s)\n' $ip $name $off "$dso" >> expect.txt
done
IN_IPS=$IPS
# past the last section (the ELF's end, shifted): no map, as in perf
end=$(awk '$3 == "_end" { print $1 }' nm.txt)
ip=$((0x$end - LINK + TEXT + 0x100))
IPS="$IPS $(printf '0x%x' $ip)"
printf '\t%016x [unknown] ([unknown])\n' $ip >> expect.txt
check_grep "readelf: vm_init's section is .init.text" ' \.init\.text +PROGBITS' <(readelf -SW vmlinux.elf)
python3 "$GEN" vmlinux id.data $TEXT $BID -- $IPS
python3 "$GEN" vmlinux noid.data $TEXT -- $IPS
python3 "$GEN" vmlinux badid.data $TEXT $(build_id other.elf) -- $IPS
frames() { grep -P '^\t' "$1"; }

for c in id noid; do
	"$SCORCH" script --vmlinux vmlinux.elf $c.data > $c.out 2>/dev/null
	frames $c.out > $c.frames
	check_same "$c: --vmlinux frames == nm's names, KASLR-shifted" expect.txt $c.frames
done
"$SCORCH" script -k vmlinux.elf id.data > k.out 2>/dev/null
check_same "-k is --vmlinux" id.out k.out
"$SCORCH" script --vmlinux vmlinux.elf badid.data > badid.out 2> badid.err
check "another build id: no vmlinux symbols" bash -c '! grep -E "vm_(static|entry)" badid.out'
check_grep "another build id: a warning says why" "vmlinux.elf: build id $(build_id vmlinux.elf), not the recorded" badid.err
check_fails "a missing --vmlinux file is an error" "$SCORCH" script --vmlinux no-such-vmlinux id.data
strip -o stripped.elf vmlinux.elf
"$SCORCH" script --vmlinux stripped.elf id.data > stripped.out 2> stripped.err
check "a stripped --vmlinux: no names" bash -c '! grep -E "vm_(static|entry|init)" stripped.out'
check_grep "a stripped --vmlinux: a warning says so" 'stripped\.elf: no kernel symbols' stripped.err

# --kallsyms wins (perf's order): a kallsyms of another boot, shifted too
# (samples in the sections only: past its last symbol perf's kallsyms
# kernel map ends, scorch's reaches on)
printf 'ffffffff81000000 T _text\nffffffff81000100 T other_fn\n' > kallsyms
python3 "$GEN" vmlinux in.data $TEXT $BID -- $IN_IPS
"$SCORCH" script --kallsyms kallsyms --vmlinux vmlinux.elf in.data > both.out 2>/dev/null
check_grep "--kallsyms before --vmlinux: kallsyms names" '_text\+0x' both.out

# perf's search path "vmlinux" (the current directory), build id checked
mkdir -p search && cp vmlinux.elf search/vmlinux
(cd search && "$SCORCH" script ../id.data > ../search.out 2>/dev/null)
frames search.out > search.frames
check_same "./vmlinux found as perf finds it" expect.txt search.frames
mkdir -p symfs && cp vmlinux.elf symfs/vmlinux
"$SCORCH" script --symfs symfs id.data > symfs.out 2>/dev/null
frames symfs.out > symfs.frames
check_same "SYMFS/vmlinux found as perf finds it" expect.txt symfs.frames

# scorch archive -k packs it as the kernel's cache "elf", found again there
"$SCORCH" archive -k vmlinux.elf id.data > /dev/null 2>&1
check_grep "archive -k: the vmlinux packed as [kernel.kallsyms]/ID/elf" "^\[kernel\.kallsyms\]/$BID/elf\$" <(tar tf id.data.tar 2>&1)
mkdir -p empty unpacked && tar xf id.data.tar -C unpacked
(cd empty && "$SCORCH" script --buildid-dir ../id.data.tar ../id.data > ../tar.out 2>/dev/null)
frames tar.out > tar.frames
check_same "the archive as --buildid-dir: frames == nm's" expect.txt tar.frames

# fold and report
"$SCORCH" fold -k vmlinux.elf id.data > id.folded 2>/dev/null
check_grep "fold -k: vm_static_two" '^kworker;vm_static_two 1$' id.folded
check_grep "fold -k: vm_init" '^kworker;vm_init 1$' id.folded
"$SCORCH" report -k vmlinux.elf id.data > id.report 2>/dev/null
check_grep "report -k: vm_static_one" '\[kernel\.kallsyms\] +\[k\] vm_static_one' id.report
check_grep "report -k: vm_init in [kernel.kallsyms].init.text" '\[kernel\.kallsyms\]\.init\.text +\[k\] vm_init$' id.report
check_grep "report -k: the unmapped kernel address stays [k]" '\[unknown\] +\[k\] 0xffffffff8a2' id.report
# a report row's last four columns: comm, dso, level, symbol
rows() { awk '/^ +[0-9.]+%/ { print $(NF-3), $(NF-2), $(NF-1), $NF }' "$1" | LC_ALL=C sort; }

if ! need perf; then
	skip "perf script --vmlinux on the same files" "perf missing"
	return 0 2>/dev/null || exit 0
fi
for c in id noid badid; do
	perf script -i $c.data --vmlinux vmlinux.elf > perf.$c 2>/dev/null
	check_same "$c: script == perf script --vmlinux" perf.$c $c.out
done
perf script -i id.data --vmlinux stripped.elf > perf.stripped 2>/dev/null
check_same "stripped: script == perf script --vmlinux" perf.stripped stripped.out
perf script -i in.data --kallsyms kallsyms --vmlinux vmlinux.elf > perf.both 2>/dev/null
check_same "--kallsyms and --vmlinux: script == perf script" perf.both both.out
(cd search && perf script -i ../id.data > ../perf.search 2>/dev/null)
check_same "./vmlinux: script == perf script" perf.search search.out
perf script -i id.data --symfs symfs > perf.symfs 2>/dev/null
check_same "SYMFS/vmlinux: script == perf script --symfs" perf.symfs symfs.out
perf report -i id.data -k vmlinux.elf --stdio --no-children -g none > perf.report 2>/dev/null
check_same "report -k rows (comm, dso, level, symbol) == perf report's" <(rows perf.report) <(rows id.report)
(cd empty && perf --buildid-dir ../unpacked script -i ../id.data > ../perf.tar 2>/dev/null)
check_same "the archive unpacked: perf --buildid-dir script == script --buildid-dir TAR" perf.tar tar.out
