# t7507: scorch record --offcpu records what scorch offcpu needs: the
# off-CPU workload (tests/workloads/offcpu_sleep.c) shows nap_long's
# designed 75% share of its sleep time within 5 points.
case $(uname -m) in x86_64|aarch64) ;; *) skip "record --offcpu" "workload needs x86_64 or aarch64"; return 0 2>/dev/null || exit 0 ;; esac
wl=ocr$$
if need cc && cc -O1 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls -o $wl "$ROOT/tests/workloads/offcpu_sleep.c" &&
	"$SCORCH" record --offcpu -q -N -o rec.data -- ./$wl > /dev/null 2> rec.err && [ -s rec.data ]; then
	pass "scorch record --offcpu records the workload"
	"$SCORCH" offcpu --until-wakeup --no-preempt rec.data > off.folded 2> off.err
	p=$(awk -v wl="$wl" 'index($0, wl ";") == 1 { if (/;nap_long;/) l += $NF; else if (/;nap_short;/) s += $NF }
		END { if (l + s) printf "%.1f", 100 * l / (l + s); else print 0 }' off.folded)
	if awk -v p="$p" 'BEGIN { exit !(p >= 70 && p <= 80) }'; then
		pass "record --offcpu: nap_long holds $p% of the sleep time (designed 75%)"
	else
		fail "record --offcpu: nap_long holds $p% of the sleep time (designed 75%)" "$(grep "^$wl" off.folded | cut -c1-200)"
	fi
	check_grep "record --offcpu: kernel and user frames in one stack" "^$wl;.*;main;nap_long;.*;schedule;__schedule [0-9]+$" off.folded
else
	skip "scorch record --offcpu" "recording failed here: $(head -c 200 rec.err 2>/dev/null)"
fi
