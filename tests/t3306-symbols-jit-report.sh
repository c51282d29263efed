# t3306: JIT code named through /tmp/perf-PID.map shows in `scorch report`
# as perf report shows it: the dso column is "[JIT] tid PID" (perf's short
# name of a perf map), not "perf-PID.map"; the whole report is perf's.
if ! need node perf; then
	skip "report of JIT frames" "node or perf missing"
	return 0
fi
export HOME=$TMP/home
mkdir -p "$HOME"
cat > fib.js <<'JS'
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
let s = 0;
/* a fixed amount of work, not a time: on a loaded machine a timed loop
 * may end before V8 compiles fib, and the recording holds no JIT code */
for (let i = 0; i < 300; i++) s += fib(25);
console.log(s > 0 ? "ok" : "no");
JS
if ! perf record -q -F 499 -g -o jit.data node --perf-basic-prof fib.js > /dev/null 2> rec.err; then
	fail "perf record node" "$(head -3 rec.err)"
	return 0
fi
pid=$(perf script -i jit.data -F pid 2> /dev/null | head -1 | tr -d ' ')
"$SCORCH" report --no-children -n -g none --sort dso -i jit.data > dso.txt 2> err.txt
check_grep "report --sort dso: [JIT] tid $pid" "^ +[0-9.]+% +[0-9]+  \[JIT\] tid $pid +$" dso.txt
check "report --sort dso: no perf-PID.map" test -z "$(grep "perf-$pid.map" dso.txt)"
perf report -i jit.data --stdio --no-children -n -g none --sort comm,dso,sym 2> /dev/null |
	grep -v '^#' | grep . > want.txt
"$SCORCH" report --no-children -n -g none --sort comm,dso,sym -i jit.data 2> /dev/null | grep -v '^#' | grep . > got.txt
check_same "report == perf report (JIT rows included)" want.txt got.txt
rm -f /tmp/perf-$pid.map
