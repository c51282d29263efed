# t3301: JIT frames from /tmp/perf-PID.map: record node --perf-basic-prof
# on tests/workloads/jit.js, then scorch resolves the JS frames from the map
# file (fold --all marks them _[j]), scorch script prints what perf script
# prints (also the C++ names of node itself), and --jit-dir finds a map
# file that was moved.
if ! need node perf; then
	skip "node JIT map" "node or perf missing"
	return 0 2>/dev/null || exit 0
fi
export HOME=$TMP/home
mkdir -p "$HOME"
cp "$ROOT/tests/workloads/jit.js" jit.js
fib_line=$(grep -n '^function fib' jit.js | cut -d: -f1)
if ! perf record -q -F 499 -g -o jit.data node --perf-basic-prof jit.js 0.8 > /dev/null 2> rec.err; then
	skip "node JIT map" "perf record failed: $(head -1 rec.err)"
	return 0 2>/dev/null || exit 0
fi
pid=$(perf script -i jit.data -F pid 2>/dev/null | head -1 | tr -d ' ')
map=/tmp/perf-$pid.map
check "node wrote its perf map" test -s "$map"
"$SCORCH" fold --all jit.data > all.folded 2> fold.err
check_grep "JS frames resolved from the map, marked _[j]" "JS:[*^~]?fib [^;]*jit\\.js:$fib_line:[0-9]+_\\[j\\]" all.folded
# .plt addresses are named as perf names them (its symbol tree decides
# between name@plt and a stretched _init; see src/symbols/rbt.h), so the
# outputs are compared as they are.
perf script -i jit.data > perf.txt 2>/dev/null
"$SCORCH" script jit.data > scorch.txt 2>/dev/null
check_same "script == perf script (JIT and C++ frames)" perf.txt scorch.txt
"$SCORCH" fold --all < perf.txt > text.folded 2>/dev/null
LC_ALL=C sort text.folded > text.n; LC_ALL=C sort all.folded > all.n
check_same "fold(perf.data) == fold(perf script text)" text.n all.n
mkdir -p maps && mv "$map" maps/
"$SCORCH" fold --all --jit-dir maps jit.data > moved.folded 2>/dev/null
check_same "--jit-dir: the moved map gives the same stacks" all.folded moved.folded
"$SCORCH" fold --all --jit-dir nowhere jit.data > nomap.folded 2>/dev/null
check_grep "no map: JIT frames are [perf-PID.map] as perf shows them" "\\[perf-$pid\\.map\\]_\\[j\\]" nomap.folded
rm -f maps/perf-$pid.map
