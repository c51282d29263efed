# t7003: the stackcollapse-perf.pl naming rules on hand-made perf script
# text: offsets, inline chains, [unknown], quotes, argument cuts, Go
# methods, anonymous namespaces, the Java 'L' rule, annotations, comm
# names with spaces, tracepoint payloads, event filtering, periods,
# srcline, invalid UTF-8 and the regex corner cases the Perl script has.
{
	printf '# a comment\n'
	printf 'java 100/101 [000] 1.000001: 250 cycles:\n'
	printf '\t7f01 Lcom/foo/Bar;.run(I)V+0x10 (/tmp/perf-100.map)\n'
	printf '\t7f02 "quoted'"'"'name (/tmp/perf-100.map)\n'
	printf '\t7f03 [unknown] (/usr/lib/libjvm.so)\n'
	printf '\t7f04 outer->mid->inner+0x4 (/usr/lib/libx.so)\n'
	printf '\tffff05 do_syscall_64+0x1 ([kernel.kallsyms])\n'
	printf '\t7f06 (anon) (/usr/lib/liby.so)\n'
	printf '\t7f07 net/http.(*Client).Do+0x2 (/go/bin/srv)\n'
	printf '\t7f08 foo::(anonymous namespace)::bar(int) (/bin/cpp)\n'
	printf '\t7f09 [unknown] ([unknown])\n'
	printf '\n'
	printf 'V8 WorkerThread 4242 [001] 2.000000: sched:sched_switch: prev_comm=x ==> next_comm=y\n'
	printf '\tffff01 __schedule+0x1 ([kernel.kallsyms])\n'
	printf '\tffff02 schedule+0x2 (/usr/lib/debug/vmlinux)\n'
	printf '\n'
	printf 'java 100/102 [000] 3.000000: 300 instructions:\n'
	printf '\t7f01 filtered (/bin/x)\n'
	printf '\n'
	printf 'perf 7 [000] 3.0: cycles:\n'
	printf '\t1 a\377\376b (b)\n'
	printf '\n'
	printf ':-1    -1 [000]   296.633073:     100010 cycles:\n'
	printf '\t7f12 (/bin/x)\n'
	printf '\n'
} > in.txt

"$SCORCH" fold in.txt > out 2> err
cat > exp <<'X'
:-1____-1_[000]___296.633073:;2 100010
V8_WorkerThread;schedule;__schedule 1
java;[unknown];foo::(anonymous namespace)::bar;net/http.(*Client).Do;do_syscall_64;outer;mid_[i];inner_[i];[libjvm.so];quotedname;com/foo/Bar:.run 250
X
printf 'perf;a\377\376b 1\n' >> exp
LC_ALL=C sort -o exp exp
check_same "default naming" exp out
check_grep "filter message names the rejected event" '^Filtering for events of type: instructions$' err

"$SCORCH" fold --all --pid in.txt > out 2> /dev/null
cat > exp <<'X'
:-1____-1_[000]___296.633073:-?;2 100010
V8_WorkerThread-?;schedule_[k];__schedule_[k] 1
java-100;[unknown];foo::(anonymous namespace)::bar;net/http.(*Client).Do;do_syscall_64_[k];outer;mid_[i];inner_[i];[libjvm.so];quotedname_[j];com/foo/Bar:.run_[j] 250
X
printf 'perf-?;a\377\376b 1\n' >> exp
LC_ALL=C sort -o exp exp
check_same "--all --pid" exp out

"$SCORCH" fold --tid --addrs in.txt > out 2> /dev/null
cat > exp <<'X'
:-1____-1_[000]___296.633073:-?/100010;2 100010
V8_WorkerThread-?/4242;schedule;__schedule 1
java-100/101;[unknown <7f09>];foo::(anonymous namespace)::bar;net/http.(*Client).Do;do_syscall_64;outer;mid_[i];inner_[i];[libjvm.so <7f03>];quotedname;com/foo/Bar:.run 250
X
printf 'perf-?/7;a\377\376b 1\n' >> exp
LC_ALL=C sort -o exp exp
check_same "--tid --addrs" exp out

# one-letter comm: the shortest comm is two bytes, so the Perl regex
# takes more of the line as the name
printf 'a 1 [0] 1.0: 5 cycles:\n\t1 f (x)\n\n' > short.txt
"$SCORCH" fold short.txt > out 2> err
printf 'a_1_[0]_1.0:;f 5\n' > exp
check_same "one-letter comm" exp out

# srcline: the line after each frame is its source; unknown frames have none
{
	printf 'a.out 35081 252436.005167:     667783 cycles:\n'
	printf '\t408ebb some_method_name+0x8b (/full/path/to/a.out)\n'
	printf '  uniform_int_dist.h:300\n'
	printf '\t4069f5 main+0x935 (/full/path/to/a.out)\n'
	printf '  file.cpp:137\n'
	printf '\t7f6d2148eb25 __libc_start_main+0xd5 (/lib64/libc-2.33.so)\n'
	printf '  libc-2.33.so[27b25]\n'
	printf '\t7ffc71ee9580 [unknown] ([unknown])\n'
	printf '\n'
} > src.txt
"$SCORCH" fold --srcline src.txt > out 2> err
printf 'a.out;[unknown];__libc_start_main:libc-2.33.so;main:file.cpp:137;some_method_name:uniform_int_dist.h:300 667783\n' > exp
check_same "--srcline" exp out
check "--srcline: no warnings" test ! -s err

# a missing final newline and blank line: the open sample is left out
# (as stackcollapse-perf.pl does) with a note; the others stay
printf 'ab 1 [0] 1.0: 5 cycles:\n\t1 f (x)\n\nab 1 [0] 1.1: 5 cycles:\n\t1 g (x)' > nofinal.txt
"$SCORCH" fold nofinal.txt > out 2> err; rc=$?
printf 'ab;f 5\n' > exp
check_same "no final newline: open sample left out" exp out
check_grep "no final newline: noted once" 'sample at line 4 is not ended by a blank line' err
check "no final newline: exit 0" test $rc -eq 0

# samples without call chains: a hint
printf 'prog 12 [000] 1.000001: 1 cpu-clock: ffff0001 leaf+0x1 (/bin/prog)\nprog 12 [000] 1.000002: 1 cpu-clock: ffff0001 leaf+0x1 (/bin/prog)\n' > nocg.txt
"$SCORCH" fold nocg.txt > out 2> err
check_grep "no call chains: hint about -g" 'perf record.* -g' err
