# t3304: addresses in .plt are named as perf 6.1 names them. A workload
# calls tiny shared-library functions through the PLT in a hot loop, so
# many samples land in PLT stubs, where both a synthesized "name@plt"
# symbol and the zero-size _init (stretched to the next symbol) cover the
# address; perf's symbol tree decides which one it prints, and scorch
# replays that tree (src/symbols/rbt.c). Built three times so the trees
# differ: PIE, non-PIE, and with IBT stubs in .plt.sec (perf 6.1 does not
# name those; past .plt its tree misses the stretched _init and says
# [unknown]). script and fold must equal perf's byte for byte.
if ! need perf gcc; then
	skip "PLT naming" "perf or gcc missing"
	return 0 2>/dev/null || exit 0
fi
export HOME=$TMP/home
mkdir -p "$HOME"
gcc -O2 -fPIC -shared -o libplt_lib.so "$ROOT/tests/workloads/plt_lib.c" ||
	{ fail "PLT naming: library build failed"; return 0 2>/dev/null || exit 0; }
for v in pie nopie ibt; do
	flags=
	[ $v = nopie ] && flags=-no-pie
	[ $v = ibt ] && flags="-fcf-protection=full -Wl,-z,ibtplt"
	gcc -O2 $flags -o plt_$v "$ROOT/tests/workloads/plt_loop.c" -L. -lplt_lib \
		-Wl,-rpath,'$ORIGIN' || { fail "$v: build failed"; continue; }
	if ! perf --buildid-dir cache record -q -F 4999 -g -o $v.data ./plt_$v 4 > /dev/null 2> rec.err; then
		skip "$v recording" "perf record failed: $(head -1 rec.err)"
		continue
	fi
	perf --buildid-dir cache script -i $v.data > perf.$v 2>/dev/null
	"$SCORCH" script --buildid-dir cache $v.data > scorch.$v 2>/dev/null
	if [ $v = ibt ]; then
		check_grep "ibt: .plt.sec samples are [unknown] for perf" ' \[unknown\] \(.*/plt_ibt\)' perf.$v
	else
		check_grep "$v: perf names PLT samples name@plt" '@plt\+0x' perf.$v
		check_grep "$v: ... and, in the first slot, _init+off" ' _init\+0x[0-9a-f]+ \(' perf.$v
	fi
	check_same "$v: script == perf script (PLT names)" perf.$v scorch.$v
	"$SCORCH" fold --buildid-dir cache $v.data > data.$v 2>/dev/null
	"$SCORCH" fold < perf.$v > text.$v 2>/dev/null
	check_same "$v: fold(perf.data) == fold(perf script)" text.$v data.$v
done
