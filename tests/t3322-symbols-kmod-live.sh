# t3322: a module loaded on this machine, named as perf names it. A
# system-wide call-graph recording is made while the disk and network
# stack work (module code on many machines); the module frames of scorch
# script must equal perf script's on the same file wherever perf names
# them. Whether a sample lands in a module depends on the machine and
# the moment, so the check is skipped, with the reason, when none did,
# and when the kernel has no loadable modules at all.
if ! need perf; then
	skip "loaded module frames" "perf missing"
	return 0 2>/dev/null || exit 0
fi
if [ ! -s /proc/modules ]; then
	skip "loaded module frames" "this kernel has no loaded modules (/proc/modules absent or empty)"
	return 0 2>/dev/null || exit 0
fi
export HOME=$TMP/home
mkdir -p "$HOME"
work() {
	dd if=/dev/zero of=big bs=1M count=32 conv=fsync 2>/dev/null
	cat /proc/modules /proc/net/* > /dev/null 2>&1
	ping -c 3 -i 0.2 127.0.0.1 > /dev/null 2>&1
	rm -f big
}
if ! perf record -q -a -g -o live.data -- sh -c "$(declare -f work); work" > /dev/null 2> rec.err; then
	skip "loaded module frames" "perf record -a failed: $(head -1 rec.err)"
	return 0 2>/dev/null || exit 0
fi
perf script -i live.data > perf.txt 2>/dev/null
"$SCORCH" script live.data > scorch.txt 2>/dev/null
# frame lines in a module: "(/path/x.ko...)" or "([x])", not the kernel's
modframes() { grep -P '^\t\s*[0-9a-f]+ .* \((/\S+\.ko(\.\w+)?|\[(?!kernel\.kallsyms|vdso|vsyscall|unknown|heap|stack|anon)[\w-]+\])\)$' "$1"; }
modframes perf.txt > perf.mod
modframes scorch.txt > scorch.mod
if [ ! -s perf.mod ]; then
	skip "loaded module frames" "no sample of this recording landed in a module"
	return 0 2>/dev/null || exit 0
fi
check "as many module frames as perf" test "$(wc -l < perf.mod)" = "$(wc -l < scorch.mod)"
# where perf names a frame, scorch names it the same (where perf prints
# [unknown], scorch may have named it from kallsyms)
paste -d '\n' perf.mod scorch.mod | awk 'NR % 2 { p = $0; next }
	p !~ / \[unknown\] / && p != $0 { print "perf:   " p; print "scorch: " $0; bad++ }
	END { exit bad > 0 }' > diff.txt
check "module frames perf names: scorch's are the same" test ! -s diff.txt
