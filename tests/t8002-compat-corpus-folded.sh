# t8002: folding the perf script text of the recorded cases: on the shared
# corpus byte-identical to stackcollapse-perf.pl's output (default and
# --all); on the fixtures (whose folded references that collapser made)
# the weights add up to perf script's periods, event by event. multi: the
# Perl script's event filter, and --event-filter picking the other event.
. "$ROOT/tests/lib-corpus.sh"

# first_event_total SCRIPT_TXT [EVENT]: summed periods of EVENT's samples
# (default: the first event type met, as stackcollapse-perf.pl keeps it)
first_event_total() {
	# less a sample printed with pid -1 (a task in do_exit), which
	# stackcollapse-perf.pl skips: its header pattern wants digits
	grep -Ev '^[^[:space:]].*[[:space:]]-1(/-1)?[[:space:]]+(\[[0-9]+\][[:space:]]+)?[0-9]+\.[0-9]+:' "$1" | samples - | awk -v ev="${2:-}" 'ev == "" { ev = $3 } { e = $3; sub(/:.*/, "", e); x = ev; sub(/:.*/, "", x) }
		e == x { s += $2 } END { printf "%d\n", s }'
}

compat() {
	local c d
	for c in fp dwarf cpp_fp pipe_fp zstd_fp multi offcpu; do
		d=$C/$c
		"$SCORCH" fold "$d/perf-script.txt" > $c.folded 2> $c.err
		"$SCORCH" fold --all "$d/perf-script.txt" > $c-all.folded 2> $c-all.err
		if [ "$L" = corpus ]; then
			check_same "$c: fold = stackcollapse.folded" "$d/stackcollapse.folded" $c.folded
			check_same "$c: fold --all = stackcollapse-all.folded" "$d/stackcollapse-all.folded" $c-all.folded
		else
			w=$(first_event_total "$d/perf-script.txt")
			check "$L $c: fold keeps every sample of the first event (weight $w)" test "$(total $c.folded)" = "$w" -a "$w" -gt 0
			check "$L $c: fold --all keeps the same weight" test "$(total $c-all.folded)" = "$w"
		fi
	done
	# multi: the event met second is left out with the Perl script's
	# message naming it
	local m=$C/multi/perf-script.txt first other
	first=$(first_event "$m")
	other=$(other_clock "$first")
	"$SCORCH" fold "$m" > multi.folded 2> multi.err
	check_grep "$L multi: names the filtered-out event ($other)" "^Filtering for events of type: $other\$" multi.err
	# --event-filter picks the other event instead: exactly its folded
	# samples (perf script's text cut to their paragraphs)
	"$SCORCH" fold --event-filter="$other" "$m" > tc.folded 2> tc.err
	awk -v RS= -v ORS='\n\n' -v ev="$other" '$0 ~ "^[^\n]* " ev "[:/]"' "$m" > tc-only.txt
	"$SCORCH" fold tc-only.txt > tc.exp 2>/dev/null
	w=$(first_event_total "$m" "$other")
	if [ "$w" -gt 0 ] && [ "$(total tc.exp)" = "$w" ] && cmp -s tc.exp tc.folded; then
		pass "$L multi: --event-filter=$other gives the $other stacks (weight $w)"
	else
		fail "$L multi: --event-filter=$other gives the $other stacks" "want weight $w; $(diff tc.exp tc.folded | head -5)"
	fi
	awk -v RS= -v ORS='\n\n' -v ev="$first" '$0 ~ "^[^\n]* " ev "[:/]"' "$m" > cc-only.txt
	"$SCORCH" fold cc-only.txt > cc.exp 2>/dev/null
	check_same "$L multi: the default keeps exactly the $first stacks" cc.exp multi.folded
	if [ "$L" = corpus ]; then
		if cmp -s tc.folded multi.folded; then fail "multi: $other differs from $first"; else pass "multi: $other differs from $first"; fi
	fi
	check "$L multi: no filter message with an explicit filter" test ! -s tc.err
}
shared_corpus
each_root compat
