# t7002: invoked as stackcollapse-perf.pl (or stackcollapse-perf), scorch
# behaves as `scorch fold --format perf-script` and takes the Perl script's
# options, with one dash or two. Against FlameGraph's own test files and
# the shared corpus when present, and the fixtures always.
. "$ROOT/tests/lib-corpus.sh"
ln -s "$SCORCH" stackcollapse-perf.pl
ln -s "$SCORCH" stackcollapse-perf

dropin() {
	local m=$C/multi/perf-script.txt first other
	first=$(first_event "$m")
	other=$(other_clock "$first")
	./stackcollapse-perf.pl --event-filter="$first" "$m" > f.out 2> f.err
	check_same "$L --event-filter=$first (explicit first event)" "$C/multi/stackcollapse.folded" f.out
	# one dash, the event a separate argument: the other event's samples,
	# as folding perf script's text cut to them
	./stackcollapse-perf.pl -event-filter "$other" "$m" > g.out
	awk -v RS= -v ORS='\n\n' -v ev="$other" '$0 ~ "^[^\n]* " ev "[:/]"' "$m" > tc-only.txt
	"$SCORCH" fold tc-only.txt > g.exp 2>/dev/null
	if [ -s g.exp ] && cmp -s g.exp g.out; then pass "$L -event-filter EV (separate argument): that event's stacks"
	else fail "$L -event-filter EV (separate argument): that event's stacks" "$(diff g.exp g.out | head -5)"; fi
	./stackcollapse-perf.pl "$C/fp/perf-script.txt" "$C/fp/perf-script.txt" > twice.out
	awk '{ $NF = $NF * 2; print }' "$C/fp/stackcollapse.folded" > twice.exp
	check_same "$L two inputs merge (counts add up)" twice.exp twice.out
	# a perf.data operand is read as perf.data, also under the drop-in name
	./stackcollapse-perf.pl "$C/fp/perf.data" > pd1.out 2> pd1.err
	"$SCORCH" fold "$C/fp/perf.data" > pd2.out 2> /dev/null
	check "$L stackcollapse-perf.pl perf.data: stacks" test -s pd1.out
	check_same "$L stackcollapse-perf.pl perf.data = scorch fold perf.data" pd2.out pd1.out
}
check_fails "unknown option fails" ./stackcollapse-perf.pl --no-such-option /dev/null
./stackcollapse-perf.pl --inline --context --srcline < /dev/null > h.out 2>&1; rc=$?
check "--inline --context --srcline accepted" test $rc -eq 0
shared_corpus flamegraph-tests/test/results
each_root dropin
shared_corpus || return 0

t=$SHARED/flamegraph-tests/test
r=$t/results
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
