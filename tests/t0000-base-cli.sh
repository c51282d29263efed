# t0000: the scorch front end: help, version, unknown commands, drop-in names.

"$SCORCH" --help > help.txt 2>&1
check "scorch --help exits 0" test $? -eq 0
check_grep "--help lists commands" '^commands:' help.txt
check_grep "--version prints the version" '^scorch [0-9]+\.[0-9]+' <("$SCORCH" --version)
check_fails "no command is a usage error" "$SCORCH"
"$SCORCH" no-such-command > out.txt 2> err.txt
rc=$?
check "unknown command exits 2" test $rc -eq 2
check_grep "unknown command is named" "'no-such-command' is not a scorch command" err.txt

# every listed command answers --help and 'scorch help CMD' the same way
cmds=$(sed -n '/^commands:/,/^$/p' help.txt | awk 'NF>1 {print $1}')
for c in $cmds; do
	if "$SCORCH" "$c" --help > a.txt 2>&1 && "$SCORCH" help "$c" > b.txt 2>&1 && cmp -s a.txt b.txt &&
		grep -q "^usage: scorch $c" a.txt; then
		pass "scorch $c --help == scorch help $c"
	else
		fail "scorch $c --help == scorch help $c" "$(head -3 a.txt b.txt)"
	fi
	"$SCORCH" "$c" --no-such-option-xyz > /dev/null 2> err.txt
	rc=$?
	# commands with subcommands (heatmap latency|subsecond) may answer
	# with the subcommands they expect instead
	if [ $rc -eq 2 ] && grep -Eq "no-such-option-xyz|expected" err.txt; then
		pass "scorch $c rejects an unknown option with status 2"
	else
		fail "scorch $c rejects an unknown option with status 2" "rc=$rc $(head -2 err.txt)"
	fi
done
