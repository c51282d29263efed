# t7423: a user who may not read tracefs (mounted mode 700, the kernel's
# default) is told what perf tells them: no permission, and how to fix
# it; not that tracefs is not mounted.
. "$ROOT/tests/lib-record.sh"

tfs=/sys/kernel/tracing
if [ "$(id -u)" != 0 ] || ! need setpriv; then
	skip "tracefs permission message" "needs root and setpriv to run as nobody"
	return 0
fi
if ! grep -q " $tfs tracefs " /proc/mounts; then
	skip "tracefs permission message" "no tracefs mounted on $tfs"
	return 0
fi
as_nobody() { setpriv --reuid nobody --regid nogroup --clear-groups "$@"; }
if as_nobody test -r "$tfs/events"; then
	skip "tracefs permission message" "$tfs is readable by nobody (mode $(stat -c %a $tfs))"
	return 0
fi
chmod 777 "$TMP"
for ev in "-e sched:sched_switch" "--offcpu"; do
	as_nobody "$SCORCH" record $ev -o "$TMP/x.data" -- true > out.txt 2> err.txt
	check "as nobody, $ev: exit 1" test $? -eq 1
	check "as nobody, $ev: one line" test "$(wc -l < err.txt)" -eq 1
	check_grep "as nobody, $ev: says no permission, naming the file" \
		"no permission to read $tfs/events/sched/sched_switch" err.txt
	check_grep "as nobody, $ev: says how to fix it" \
		"sudo mount -o remount,mode=755 $tfs" err.txt
	check "as nobody, $ev: does not claim tracefs is unmounted" \
		test -z "$(grep 'not mounted' err.txt)"
	check "as nobody, $ev: no output file" test ! -e "$TMP/x.data"
done
