# t8003: DTrace and SystemTap stack text fold as stackcollapse.pl and
# stackcollapse-stap.pl print them (detected, forced, and via drop-in names).
d=$SHARED/flamegraph-tests
"$SCORCH" fold "$d/example-dtrace-stacks.txt" > dtrace.out
check_same "dtrace detected" "$d/example-dtrace-stacks.folded" dtrace.out
"$SCORCH" fold --format=dtrace < "$d/example-dtrace-stacks.txt" > dtrace2.out
check_same "dtrace forced, stdin" "$d/example-dtrace-stacks.folded" dtrace2.out
"$SCORCH" fold "$d/example-stap-stacks.txt" > stap.out
check_same "stap detected" "$d/example-stap-stacks.folded" stap.out
"$SCORCH" fold --format stap - < "$d/example-stap-stacks.txt" > stap2.out
check_same "stap forced, stdin as -" "$d/example-stap-stacks.folded" stap2.out
ln -s "$SCORCH" stackcollapse.pl
ln -s "$SCORCH" stackcollapse-stap.pl
./stackcollapse.pl "$d/example-dtrace-stacks.txt" > dtrace3.out
check_same "drop-in stackcollapse.pl" "$d/example-dtrace-stacks.folded" dtrace3.out
./stackcollapse-stap.pl < "$d/example-stap-stacks.txt" > stap3.out
check_same "drop-in stackcollapse-stap.pl" "$d/example-stap-stacks.folded" stap3.out
# the Perl rules on small cases: header lines skipped (DTrace), '+' cut,
# C++ arguments cut after two bytes, empty frames become '-', counts summed
printf 'CPU ID FUNCTION:NAME\n  0 1 :tick\n\n  libc.so`f(int)+0x1\n  a.out`main+0x2\n  7\n\n  +0x1\n  a.out`main+0x9\n  3\n  libc.so`f<x>\n  a.out`main\n  1\n' > d.txt
"$SCORCH" fold --format=dtrace d.txt > d.out
printf 'a.out`main;- 3\na.out`main;libc.so`f 8\n' > d.exp
check_same "dtrace rules" d.exp d.out
printf ' 0x1 : a+0x1/0x2 [k]\n 0x2 : b+0x3/0x4 [k]\n\t5\n\n 0x3 : c [x+y]\n\t2\n' > s.txt
"$SCORCH" fold s.txt > s.out
printf 'b;a 5\nc [x 2\n' > s.exp
check_same "stap rules" s.exp s.out
