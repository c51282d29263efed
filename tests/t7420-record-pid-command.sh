# t7420: `scorch record -p PID -- CMD` records PID for as long as CMD
# runs, as perf does (CMD itself is not profiled).
. "$ROOT/tests/lib-record.sh"

if ! build_workload work; then
	fail "build the test workload"
	return 0
fi

./work 6 > /dev/null &
pid=$!
sleep 0.3
start=$(date +%s%N)
"$SCORCH" record -q -e cpu-clock -F 499 -g -p $pid -o pc.data -- sleep 1 2> err.txt
rc=$?
took=$(( ($(date +%s%N) - start) / 1000000 ))
kill $pid 2> /dev/null
wait $pid 2> /dev/null
check "-p with a command: exit 0" test $rc -eq 0
check "-p with a command: no error" test ! -s err.txt
check "-p with a command: stops when the command ends, not the process ($took ms)" \
	test "$took" -lt 4000
perf script -i pc.data -F pid 2> /dev/null | awk '{print $1}' | sort -u > pids.txt
check "-p with a command: samples of PID only ($(tr '\n' ' ' < pids.txt))" \
	test "$(cat pids.txt)" = "$pid"
span=$(perf script -i pc.data -F time 2> /dev/null | tr -d ' :' |
	awk 'NR == 1 { a = $1 } { b = $1 } END { printf "%.2f", b - a }')
check "-p with a command: samples over the command's second (span $span s)" \
	awk -v s="$span" 'BEGIN { exit !(s > 0.5 && s < 2) }'

# the command's exit status is passed through, as for a plain command
"$SCORCH" record -q -e cpu-clock -p $$ -o pf.data -- sh -c 'exit 3' 2> err.txt
check "-p with a command: the command's exit status (3)" test $? -eq 3
