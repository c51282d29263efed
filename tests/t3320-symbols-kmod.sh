# t3320: kernel module frames named from the module's .ko, as perf does.
# A module-like ELF is built here (gcc -c of static functions, relinked
# as a relocatable .ko with a build id, as kernel modules are) and a
# perf.data written by tests/kernel-perfdata.py holds a kernel map, a
# module map of it and samples in its static functions. A kallsyms file
# that lacks them names nothing there; the .ko does, wherever perf finds
# it (the recorded path under --symfs, the build-id cache), with the
# recorded build id checked. Oracles: perf script on the same files
# (byte for byte), and the names and offsets nm gives for the .ko.
if ! need gcc ld nm readelf python3; then
	skip "module symbols" "gcc, ld, nm, readelf or python3 missing"
	return 0 2>/dev/null || exit 0
fi
export HOME=$TMP/home
mkdir -p "$HOME"
GEN=$ROOT/tests/kernel-perfdata.py
REL=6.1.0-scorch-test
KO=/lib/modules/$REL/kernel/drivers/kmod_test.ko
BASE=0xffffffffc0400000

cat > kmod.c <<'C'
static int helper_a(int x) { int s = 0; for (int i = 0; i < x; i++) s += i * 3; return s; }
static int helper_b(int x) { return helper_a(x) + 7; }
int kmod_entry(int x) { return helper_b(x) * 2; }
C
# $1: output .ko; the extra flags change the code, so the build id
build_ko() {
	gcc -O0 -fno-pic -c kmod.c -o kmod.o $2 && ld -r --build-id kmod.o -o "$1"
}
build_id() { readelf -n "$1" | sed -n 's/.*Build ID: *//p'; }
if ! build_ko kmod_test.ko "" || ! build_ko other.ko "-DUNUSED -fno-inline -g"; then
	fail "module ELF build failed"
	return 0 2>/dev/null || exit 0
fi
BID=$(build_id kmod_test.ko)
check "the .ko has a build id" test -n "$BID"
check "the rebuilt .ko has another" test -n "$(build_id other.ko)" -a "$(build_id other.ko)" != "$BID"

# nm: the static functions at offsets into .text (a relocatable .ko:
# values are .text-relative); samples 1, 3 and 2 bytes into them.
nm kmod_test.ko > nm.txt
IPS= : > expect.txt
for f in helper_a:1 helper_b:3 kmod_entry:2; do
	name=${f%:*} off=${f#*:}
	v=$(awk -v n=$name '$3 == n { print $1 }' nm.txt)
	ip=$(printf '%x' $((BASE + 0x$v + off)))
	IPS="$IPS 0x$ip"
	printf '\t%016x %s+0x%x (%%DSO%%)\n' $((0x$ip)) $name $off >> expect.txt
done
check_grep "nm: helper_a is a static (local) function" '^[0-9a-f]+ t helper_a$' nm.txt

printf 'ffffffff81000000 T _text\nffffffff81000100 T kernel_fn\nffffffffc0400000 t kmod_entry\t[kmod_test]\n' > kallsyms
mkdir -p symfs/lib/modules/$REL/kernel/drivers
cp kmod_test.ko symfs$KO
python3 "$GEN" module path.data $KO $BID $BASE $IPS
python3 "$GEN" module noid.data $KO - $BASE $IPS
python3 "$GEN" module badid.data $KO $(build_id other.ko) $BASE $IPS

# frames: the call chain lines of a script output
frames() { grep -P '^\t' "$1"; }

# 1. the recorded path under --symfs, build id in the BUILD_ID feature:
# perf names the module by its path then
"$SCORCH" script --symfs symfs --kallsyms kallsyms path.data > path.out 2> path.err
sed "s|%DSO%|$KO|" expect.txt > expect.path
frames path.out > path.frames
check_same "symfs path: frames == nm's names and offsets" expect.path path.frames
"$SCORCH" script --kallsyms kallsyms path.data > nosym.out 2>/dev/null
check "without the .ko: kallsyms (which lacks them) names no static function" \
	bash -c '! grep -E "helper_[ab]" nosym.out'
check_grep "without the .ko: kallsyms names the module's addresses" 'kmod_entry\+0x' nosym.out

# 2. no build id recorded: the file at the path is taken, the module is "[kmod_test]"
"$SCORCH" script --symfs symfs --kallsyms kallsyms noid.data > noid.out 2>/dev/null
sed "s|%DSO%|[kmod_test]|" expect.txt > expect.noid
frames noid.out > noid.frames
check_same "no build id: frames == nm's, dso [kmod_test]" expect.noid noid.frames

# 3. another build id recorded: the .ko is not this module's
"$SCORCH" script --symfs symfs --kallsyms kallsyms badid.data > badid.out 2>/dev/null
check "build id mismatch: the .ko is not used" bash -c '! grep -E "helper_[ab]" badid.out'

# 4. the build-id cache (a .build-id link to <path>/<id>/elf, as perf's)
mkdir -p cache/.build-id/${BID:0:2} "cache$KO/$BID"
cp kmod_test.ko "cache$KO/$BID/elf"
ln -s "../..$KO/$BID" "cache/.build-id/${BID:0:2}/${BID:2}"
"$SCORCH" script --buildid-dir cache --kallsyms kallsyms path.data > cache.out 2>/dev/null
frames cache.out > cache.frames
check_same "build-id cache: frames == nm's" expect.path cache.frames
# ... packed by scorch archive and read back from the tar (its .build-id
# link, over the 99 bytes a tar link holds, is left out: the .ko is found
# at <cache>/<path>/<id>/elf)
"$SCORCH" archive --buildid-dir cache path.data > /dev/null 2>&1
check_grep "archive packs the module's cache entry" "^lib/modules/$REL/kernel/drivers/kmod_test.ko/$BID/elf\$" <(tar tf path.data.tar 2>&1)
"$SCORCH" script --buildid-dir path.data.tar --kallsyms kallsyms path.data 2>/dev/null | frames /dev/stdin > tar.frames
check_same "archive tar as --buildid-dir: frames == nm's" expect.path tar.frames

# 5. recorded as "[kmod_test]" (no path): a file kmod-test.ko ('-' as
# '_') under [symfs]/lib/modules/<the header's OSRELEASE>. perf 6.1 looks
# only at the running kernel's modules there, so nm is the oracle.
mkdir -p tree/lib/modules/$REL/kernel/a tree/lib/modules/$REL/kernel/b
cp other.ko tree/lib/modules/$REL/kernel/a/kmod-test.ko
cp kmod_test.ko tree/lib/modules/$REL/kernel/b/kmod-test.ko
python3 "$GEN" module name.data '[kmod_test]' $BID $BASE $IPS
"$SCORCH" script --symfs tree --kallsyms kallsyms name.data > name.out 2>/dev/null
frames name.out > name.frames
check_same "[kmod_test] under lib/modules: frames == nm's (the copy whose build id matches)" expect.noid name.frames
python3 "$GEN" module name-bad.data '[kmod_test]' 0123456789abcdef0123456789abcdef01234567 $BASE $IPS
"$SCORCH" script --symfs tree --kallsyms kallsyms name-bad.data > name-bad.out 2>/dev/null
check "[kmod_test] with a build id no file has: no .ko used" bash -c '! grep -E "helper_[ab]" name-bad.out'
# links to directories are not followed (lib/modules/R/build leads into
# the kernel's source tree)
mkdir -p linked/src linked/lib/modules/$REL
cp kmod_test.ko linked/src/kmod_test.ko
ln -s ../../../src linked/lib/modules/$REL/build
"$SCORCH" script --symfs linked --kallsyms kallsyms name.data > linked.out 2>/dev/null
check "a .ko only behind a directory link is not used" bash -c '! grep -E "helper_[ab]" linked.out'

# 6. compressed modules (.ko.xz, .ko.gz as perf 6.1 reads them; .ko.zst
# when libdw unpacks zstd), at the recorded path
for c in xz gz zst; do
	case $c in
	xz) need xz && xz -c kmod_test.ko > c.ko ;;
	gz) need gzip && gzip -c kmod_test.ko > c.ko ;;
	zst) need zstd && zstd -q -c kmod_test.ko > c.ko ;;
	esac || { skip "$c module" "$c tool missing"; continue; }
	mkdir -p comp-$c/lib/modules/$REL/kernel/drivers
	mv c.ko comp-$c$KO.$c
	python3 "$GEN" module $c.data $KO.$c $BID $BASE $IPS
	"$SCORCH" script --symfs comp-$c --kallsyms kallsyms $c.data > $c.out 2> $c.err
	frames $c.out > $c.frames
	if [ $c = zst ] && grep -q 'does not unpack' $c.err; then
		skip ".ko.zst" "this libdw does not unpack zstd: $(head -1 $c.err)"
		continue
	fi
	sed "s|%DSO%|$KO.$c|" expect.txt > expect.$c
	check_same ".ko.$c: frames == nm's" expect.$c $c.frames
done

# fold and report name them too
"$SCORCH" fold --symfs symfs --kallsyms kallsyms path.data > path.folded 2>/dev/null
check_grep "fold: helper_a from the .ko" '^kworker;helper_a 1$' path.folded
"$SCORCH" report --symfs symfs --kallsyms kallsyms path.data > path.report 2>/dev/null
check_grep "report: helper_b in [kmod_test]" '\[kmod_test\] +\[k\] helper_b' path.report

if ! need perf; then
	skip "perf script on the same files" "perf missing"
	return 0 2>/dev/null || exit 0
fi
for c in path noid; do
	perf script -i $c.data --symfs symfs --kallsyms kallsyms > perf.$c 2>/dev/null
	check_same "$c: script == perf script --symfs" perf.$c $c.out
done
for c in xz gz; do
	[ -f $c.out ] || continue
	perf script -i $c.data --symfs comp-$c --kallsyms kallsyms > perf.$c 2>/dev/null
	check_same ".ko.$c: script == perf script" perf.$c $c.out
done
perf script -i badid.data --symfs symfs --kallsyms kallsyms > perf.badid 2>/dev/null
check "build id mismatch: perf does not use the .ko either" bash -c '! grep -E "helper_[ab]" perf.badid'
perf report -i path.data --symfs symfs --kallsyms kallsyms --stdio --no-children -g none > perf.report 2>/dev/null
rows() { awk '/^ +[0-9.]+%/ { print $(NF-3), $(NF-2), $(NF-1), $NF }' "$1" | LC_ALL=C sort; }
check_same "report rows (comm, dso, level, symbol) == perf report's" <(rows perf.report) <(rows path.report)
perf --buildid-dir cache script -i path.data --kallsyms kallsyms > perf.cache 2>/dev/null
check_same "build-id cache: script == perf --buildid-dir script" perf.cache cache.out
