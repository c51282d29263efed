# t7002: invoked as stackcollapse-perf.pl (or stackcollapse-perf), scorch
# behaves as `scorch fold --format perf-script` and takes the Perl script's
# options, with one dash or two.
t=$SHARED/flamegraph-tests/test
r=$t/results
ln -s "$SCORCH" stackcollapse-perf.pl
ln -s "$SCORCH" stackcollapse-perf
./stackcollapse-perf.pl -pid "$t/perf-funcab-pid-01.txt" > a.out
check_same_sorted "-pid" "$r/perf-funcab-pid-01-collapsed-pid.txt" a.out
./stackcollapse-perf.pl --tid "$t/perf-iperf-stacks-pidtid-01.txt" > b.out 2>/dev/null
check_same_sorted "--tid" "$r/perf-iperf-stacks-pidtid-01-collapsed-tid.txt" b.out
./stackcollapse-perf -all < "$t/perf-java-stacks-01.txt" > c.out 2>/dev/null
check_same_sorted "-all from stdin" "$r/perf-java-stacks-01-collapsed-all.txt" c.out
./stackcollapse-perf.pl --kernel --jit "$t/perf-vertx-stacks-01.txt" > d.out 2>/dev/null
check_same_sorted "--kernel --jit = --all" "$r/perf-vertx-stacks-01-collapsed-all.txt" d.out
./stackcollapse-perf.pl -addrs "$t/perf-numa-stacks-01.txt" > e.out 2>/dev/null
check_same_sorted "-addrs" "$r/perf-numa-stacks-01-collapsed-addrs.txt" e.out
./stackcollapse-perf.pl --event-filter=cpu-clock "$SHARED/corpus/multi/perf-script.txt" > f.out 2> f.err
check_same "--event-filter=cpu-clock (explicit first event)" "$SHARED/corpus/multi/stackcollapse.folded" f.out
./stackcollapse-perf.pl -event-filter task-clock "$SHARED/corpus/multi/perf-script.txt" > g.out
check "-event-filter EV (separate argument)" test -s g.out
check_fails "unknown option fails" ./stackcollapse-perf.pl --no-such-option "$t/perf-funcab-pid-01.txt"
./stackcollapse-perf.pl --inline --context --srcline < /dev/null > h.out 2>&1; rc=$?
check "--inline --context --srcline accepted" test $rc -eq 0
./stackcollapse-perf.pl "$SHARED/corpus/fp/perf-script.txt" "$SHARED/corpus/fp/perf-script.txt" > twice.out
awk '{ $NF = $NF * 2; print }' "$SHARED/corpus/fp/stackcollapse.folded" > twice.exp
check_same "two inputs merge (counts add up)" twice.exp twice.out
# a perf.data operand is read as perf.data, also under the drop-in name
./stackcollapse-perf.pl "$SHARED/corpus/fp/perf.data" > pd1.out 2> pd1.err
"$SCORCH" fold "$SHARED/corpus/fp/perf.data" > pd2.out 2> /dev/null
check_same "stackcollapse-perf.pl perf.data = scorch fold perf.data" pd2.out pd1.out
