# t7005: scorch fold streams: 40x the FlameGraph example profile (~125 MB
# of perf script text, through a pipe and from a file) folds to the
# single copy's stacks with 40x the counts, and peak memory stays far
# below the input size (it follows distinct stacks, not input length).
ex=$SHARED/flamegraph-tests/example-perf-stacks.txt.gz
if [ ! -f "$ex" ] || ! need zcat /usr/bin/time; then
	skip "streaming" "no $ex or /usr/bin/time"
	return 0
fi
zcat "$ex" > one.txt
"$SCORCH" fold one.txt > one.folded
awk '{ $NF = $NF * 40; print }' one.folded > exp.folded
for i in $(seq 40); do cat one.txt; done > many.txt
/usr/bin/time -f '%M' -o rss.txt "$SCORCH" fold many.txt > many.folded
check_same "40 copies from a file: same stacks, 40x counts" exp.folded many.folded
rss=$(tail -1 rss.txt)
if [ "$rss" -lt 65536 ]; then pass "peak RSS ${rss} KB for $(( $(stat -c %s many.txt) / 1000000 )) MB of input"
else fail "peak RSS under 64 MB" "peak RSS ${rss} KB"; fi
cat many.txt | "$SCORCH" fold > pipe.folded
check_same "40 copies through a pipe" exp.folded pipe.folded
rm -f many.txt
