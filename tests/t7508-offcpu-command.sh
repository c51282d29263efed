# t7508: `scorch offcpu` on a recording of a command shows that command's
# process tree (the command and what it forked), as a CPU profile of a
# command would, not the kernel threads, the recorder and everything else
# that ran meanwhile; --all shows the system, --comm keeps some names.
case $(uname -m) in x86_64|aarch64) ;; *) skip "offcpu of a command" "workload needs x86_64 or aarch64"; return 0 ;; esac
wl=oct$$
if ! cc -O1 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls -o $wl \
	"$ROOT/tests/workloads/offcpu_sleep.c"; then
	fail "build the off-CPU workload"
	return 0
fi
names() { cut -d';' -f1 "$1" | sort -u | tr '\n' ' '; }

# beside spinners: a nap ending on an idle CPU is never seen switching
# back in on this kind of VM (see busy_cpus_start)
busy_cpus_start
"$SCORCH" record --offcpu -q -N -o rec.data -- sh -c "./$wl; ./$wl" > /dev/null 2> err.txt
rc=$?
busy_cpus_stop
check "record --offcpu of a shell running the workload twice: exit 0" test $rc -eq 0
"$SCORCH" offcpu rec.data > cmd.folded 2> err.txt
check "offcpu: exit 0" test $? -eq 0
check "offcpu: no warning" test ! -s err.txt
got=$(names cmd.folded)
check "offcpu: only the command's processes ($got)" \
	test -z "$(cut -d';' -f1 cmd.folded | grep -vx "sh\|$wl")"
check_grep "offcpu: the workload's naps are there" "^$wl;.*;nap_long;" cmd.folded
"$SCORCH" offcpu --all rec.data > all.folded 2> err.txt
check "--all: other tasks too ($(names all.folded | wc -w) names)" \
	test -n "$(cut -d';' -f1 all.folded | grep -vx "sh\|$wl")"
"$SCORCH" offcpu -a rec.data > all2.folded 2> /dev/null
check_same "-a is --all" all.folded all2.folded
# other shells may run meanwhile: tell tasks apart by comm-PID/TID
"$SCORCH" offcpu --tid rec.data | LC_ALL=C sort > cmd-tid.folded 2> /dev/null
"$SCORCH" offcpu --tid --all rec.data | LC_ALL=C sort > all-tid.folded 2> /dev/null
check "the command's stacks are the same with --all" \
	test -s cmd-tid.folded -a -z "$(LC_ALL=C comm -23 cmd-tid.folded all-tid.folded)"
"$SCORCH" offcpu --comm $wl rec.data > comm.folded 2> err.txt
check "--comm: only that name ($(names comm.folded))" test "$(names comm.folded)" = "$wl "
"$SCORCH" offcpu --comm nosuch rec.data > none.folded 2> err.txt
check_grep "--comm that matches nothing: says so" "no off-CPU time left by --comm" err.txt

# a perf recording of a command: the same rule
busy_cpus_start
perf record -q -e sched:sched_switch -a -g -o perf.data -- ./$wl > /dev/null 2>&1
rc=$?
busy_cpus_stop
if [ $rc -eq 0 ]; then
	"$SCORCH" offcpu perf.data > p.folded 2> err.txt
	check "perf recording: only the command ($(names p.folded))" test "$(names p.folded)" = "$wl "
else
	fail "perf record -e sched:sched_switch -a -g"
fi

# no command (recorded with -a alone, stopped by a signal): every task, said once
"$SCORCH" record --offcpu -q -N -o sys.data > /dev/null 2>&1 &
rec=$!
sleep 0.5
kill -INT $rec
wait $rec
"$SCORCH" offcpu sys.data > sys.folded 2> err.txt
check_grep "no command in the file: says every task is shown" "no recorded command found" err.txt
check "no command in the file: stacks" test -s sys.folded
