# t8003: DTrace and SystemTap stack text fold as stackcollapse.pl (upstream,
# since 2015) and stackcollapse-stap.pl print them (detected, forced, and via
# drop-in names). First cases whose expected output is written here from the
# scripts' rules, then (with ../shared) the scripts' own output.

# stackcollapse.pl's rules: 3 header lines skipped, '+offset' cut, arguments
# cut only from names with "::" (at the last '(' or '<' after it), an empty
# frame is '-', "->" splits Java inlined frames (marked _[i]), ';' becomes ':'
# and a leading 'L' goes; counts of equal stacks summed.
cat > d.txt <<'EOF'
CPU     ID                    FUNCTION:NAME
  0  75195                        :tick-60s

              libc.so.1`f(int)+0x12
              a.out`main+0x20
                7

              libc.so.1`f<x>
              a.out`main
                1

              libstdc++.so.6`std::vector<int, std::allocator<int> >::push_back(int const&)+0x1c
              prog`ns::Widget::draw(ns::Canvas&) const+0x44
              prog`ns::tmpl<ns::a::b>::run<int>(int)+0x8
                5

              Lcom/foo/Bar;run->inner->leaf+0x10
              Ljava/lang/Thread;run+0x4
                4

              +0x1
              a.out`main+0x9
                3

              prog`operator()(a<b>)+0x2
              ->
              a.out`main+0x20
                6

              +0x14
                2
              +0x15
                1
EOF
cat > d.exp <<'EOF'
- 3
a.out`main;- 3
a.out`main;libc.so.1`f(int) 7
a.out`main;libc.so.1`f<x> 1
a.out`main;prog`operator()(a<b>) 6
java/lang/Thread:run;com/foo/Bar:run;inner_[i];leaf_[i] 4
prog`ns::tmpl<ns::a::b>::run<int>;prog`ns::Widget::draw;libstdc++.so.6`std::vector<int, std::allocator<int> >::push_back 5
EOF
"$SCORCH" fold --format=dtrace d.txt > d.out
check_same "dtrace rules (upstream stackcollapse.pl)" d.exp d.out
"$SCORCH" fold d.txt > d2.out
check_same "dtrace rules, format detected" d.exp d2.out
ln -s "$SCORCH" stackcollapse.pl
./stackcollapse.pl d.txt > d3.out
check_same "dtrace rules, drop-in stackcollapse.pl" d.exp d3.out
grep -F 'java/lang/Thread:run;com/foo/Bar:run;inner_[i];leaf_[i] 4' d.out > /dev/null \
	&& pass "Java frame: no raw ';', inlined parts _[i]" || fail "Java frame" "$(cat d.out)"

# stackcollapse-stap.pl's rules are not the DTrace ones: '+offset' cut,
# everything up to " : " removed, an empty frame is '-'; no argument, 'L',
# ';' or "->" handling.
printf ' 0x1 : a+0x1/0x2 [k]\n 0x2 : b+0x3/0x4 [k]\n\t5\n\n 0x3 : c [x+y]\n\t2\n' > s.txt
printf ' 0x1 : Lns::f(int)->g;h+0x1/0x2 [m]\n 0x2 : main+0x3/0x4 [m]\n\t4\n 0x4 : +0x1/0x2\n\t1\n' >> s.txt
"$SCORCH" fold s.txt > s.out
printf -- '- 1\nb;a 5\nc [x 2\nmain;Lns::f(int)->g;h 4\n' > s.exp
check_same "stap rules (unchanged by the DTrace ones)" s.exp s.out
ln -s "$SCORCH" stackcollapse-stap.pl
./stackcollapse-stap.pl < s.txt > s2.out
check_same "stap rules, drop-in stackcollapse-stap.pl" s.exp s2.out

# the scripts' own output
need_shared flamegraph-tests/dtrace-rules/cases.txt flamegraph-tests/example-dtrace-stacks.txt \
	flamegraph-tests/example-stap-stacks.txt || return 0
d=$SHARED/flamegraph-tests
"$SCORCH" fold --format=dtrace "$d/dtrace-rules/cases.txt" > cases.out
check_same "dtrace-rules/cases.txt = upstream stackcollapse.pl's cases.folded" \
	"$d/dtrace-rules/cases.folded" cases.out
"$SCORCH" fold "$d/example-dtrace-stacks.txt" > dtrace.out
check_same "dtrace detected" "$d/example-dtrace-stacks.folded" dtrace.out
"$SCORCH" fold --format=dtrace < "$d/example-dtrace-stacks.txt" > dtrace2.out
check_same "dtrace forced, stdin" "$d/example-dtrace-stacks.folded" dtrace2.out
./stackcollapse.pl "$d/example-dtrace-stacks.txt" > dtrace3.out
check_same "drop-in stackcollapse.pl" "$d/example-dtrace-stacks.folded" dtrace3.out
"$SCORCH" fold "$d/example-stap-stacks.txt" > stap.out
check_same "stap detected" "$d/example-stap-stacks.folded" stap.out
"$SCORCH" fold --format stap - < "$d/example-stap-stacks.txt" > stap2.out
check_same "stap forced, stdin as -" "$d/example-stap-stacks.folded" stap2.out
./stackcollapse-stap.pl < "$d/example-stap-stacks.txt" > stap3.out
check_same "drop-in stackcollapse-stap.pl" "$d/example-stap-stacks.folded" stap3.out
