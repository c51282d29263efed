# t7401: scorch record -g (frame pointers) on work_fp: perf reads the file
# without a warning, its header describes the host and the event, build ids
# and the ~/.debug cache are right, the work.c ground truth comes out, and
# `scorch fold` of the file equals perf script of it folded by scorch.
. "$ROOT/tests/lib-record.sh"

if ! build_corpus_workloads; then
	fail "build work_fp and work_nofp"
	return 0
fi

tries=$(record_shares fp.folded 3 "$SCORCH" record -F 997 -g -o rec.data -- ./work_fp 2)
check_shares_vs_perf "fp: ground truth shares (try ${tries:-?} of 3)" fp.folded \
	-F 997 -g -o perf-ref.data -- ./work_fp 2
"$SCORCH" record -F 997 -g -o fp.data -- ./work_fp 0.5 > out.txt 2> err.txt
check "scorch record -g exits with the workload's status 0" test $? -eq 0
check_grep "summary names the file and the samples" 'wrote .* fp\.data \([0-9]+ samples\)' err.txt
check_grep "the workload's output is untouched" '^done ' out.txt
check_perf_quiet "perf report --header-only and perf script read it without warnings" fp.data

perf report --header-only -i fp.data > header.txt 2>&1
check_grep "header: hostname" "^# hostname : $(uname -n)\$" header.txt
check_grep "header: os release" "^# os release : $(uname -r)\$" header.txt
check_grep "header: arch" "^# arch : $(uname -m)\$" header.txt
check_grep "header: nrcpus" '^# nrcpus online : [0-9]+$' header.txt
check_grep "header: cpuid" '^# cpuid : .+' header.txt
check_grep "header: total memory" '^# total memory : [1-9][0-9]* kB$' header.txt
check_grep "header: cmdline" '^# cmdline : .*scorch record -F 997 -g -o fp.data -- ./work_fp 0.5' header.txt
check_grep "header: event desc with name and sample type" \
	'^# event : name = cpu-clock, .*sample_type = IP\|TID\|TIME\|CALLCHAIN\|PERIOD' header.txt
check_grep "header: sample times" '^# time of first sample : [0-9]' header.txt
perf report --header-only -I -i fp.data > header-I.txt 2>&1
check_grep "header -I: cpu topology" '^# CPU 0: Core ID [0-9]+, Die ID [0-9]+, Socket ID [0-9]+$' header-I.txt
check_grep "header -I: pmu mappings" '^# pmu mappings: .*software = 1' header-I.txt

want=$(readelf -n work_fp | awk '/Build ID/ {print $3}')
perf buildid-list -i fp.data > ids.txt 2>&1
check_grep "BUILD_ID feature has work_fp's build id" "^$want .*/work_fp\$" ids.txt
perf buildid-list -i rec.data > ids-long.txt 2>&1
if perf script -i rec.data 2> /dev/null | grep -q '(\[kernel\.kallsyms\])$'; then
	check_grep "BUILD_ID feature has the kernel (it has samples)" \
		'^[0-9a-f]{40} \[kernel\.kallsyms\]$' ids-long.txt
else
	check_fails "BUILD_ID feature has no kernel (no kernel samples)" \
		grep -q 'kernel.kallsyms' ids-long.txt
fi
check "build-id cache holds work_fp" test -f "$HOME/.debug/.build-id/${want:0:2}/${want:2}/elf"
check "build-id cache copy is the binary" cmp "$HOME/.debug/.build-id/${want:0:2}/${want:2}/elf" work_fp

check_fold_same "fp: scorch fold of the file equals perf script | scorch fold" fp.data

# the same workload under perf record, for comparison of the file layout
if perf record -q -F 997 -g -o perf.data -- ./work_fp 0.5 > /dev/null 2>&1; then
	perf report --header-only -i perf.data | sed -n 's/^# event : name = [^,]*, //p' |
		sed 's/, id = {[^}]*}//; s/read_format = [^,]*, //; s/precise_ip = [0-9], //' |
		grep -oE 'sample_type = [A-Z|_]+' > perf-st.txt
	sed -n 's/^# event : name = [^,]*, //p' header.txt | grep -oE 'sample_type = [A-Z|_]+' > our-st.txt
	check_same "same sample_type as perf record -g" perf-st.txt our-st.txt
fi

"$SCORCH" record -q -F 997 -g --no-buildid-cache -o nocache.data -- ./work_fp 0.2 > /dev/null 2>&1
perf buildid-list -i nocache.data > ids2.txt 2>&1
check_grep "--no-buildid-cache still writes build ids" "^$want " ids2.txt
"$SCORCH" record -q -F 997 -g -B -o noid.data -- ./work_fp 0.2 > /dev/null 2>&1
perf report --header-only -i noid.data > h3.txt 2>&1
check_grep "--no-buildid writes none" 'missing features:.*BUILD_ID' h3.txt
