#!/usr/bin/env bash
# tests/fixtures.sh: record the small perf.data fixtures the tests read,
# with expected outputs computed by independent oracles.
#
#   tests/fixtures.sh [DIR]      DIR defaults to build/fixtures
#
# The workloads are the project's own (tests/workloads/work.c, tmpl.cpp),
# built in a temporary directory that is removed afterwards, so that, as
# in a profile from another machine, their symbols come only from the
# build-id cache perf filled or from a case's symfs/. Each case folder
# has the layout of ../shared/corpus (see its README):
#   perf.data                the recording (each well under a second)
#   buildid/                 the build-id cache `perf record` filled
#   symfs/ kallsyms vdso     for cases without build ids (pipe, -z, -a)
#   perf-script.txt          perf script (default fields)
#   report-comm-dso-sym.txt  perf report --stdio --no-children -n -g none
#                            --sort comm,dso,sym (and report-sym.txt,
#                            report-dso-comm.txt, report-pid-sym.txt)
#   buildid-list.txt         perf buildid-list --with-hits
#   buildid-table.txt        perf buildid-list (the file's BUILD_ID table)
#   header.txt               perf report --header-only
#   stackcollapse.folded     scorch's text collapser over perf-script.txt
#   stackcollapse-all.folded the same with --all (t8001 proves that
#                            collapser byte-identical to stackcollapse-perf.pl)
# Cases: fp, dwarf, cpp_fp, pipe_fp, zstd_fp, multi, offcpu (sched_switch, -a).
#
# Idempotent: DIR/stamp records the inputs it was made from; a run with
# the same inputs does nothing. Concurrent runs (the normal and the
# sanitizer suite) serialise on DIR.lock and build in a temporary
# directory renamed into place, so a reader never sees half a fixture.
# Exits 0 when DIR is ready; otherwise non-zero with one line on stderr
# saying why (no perf, perf cannot record here, ...).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=${1:-$root/build/fixtures}
scorch=${SCORCH:-$root/build/scorch}
export LC_ALL=C

die() { echo "fixtures: $*" >&2; exit 1; }

for c in perf gcc g++; do
	command -v $c > /dev/null 2>&1 || die "$c is not installed"
done
[ -x "$scorch" ] || die "no scorch binary at $scorch (run make first)"

# the inputs: this script, the workloads, perf, and the text collapser
# that makes the folded references
stamp=$(cat "$0" "$here/workloads/work.c" "$here/workloads/tmpl.cpp" \
	"$root"/src/stacks/collapse_perf.[ch] 2> /dev/null | cksum | cut -d' ' -f1)
stamp="$stamp $(perf --version)"
ready() { [ "$(cat "$out/stamp" 2>/dev/null)" = "$stamp" ]; }
ready && exit 0

mkdir -p "$(dirname "$out")" || die "cannot create $(dirname "$out")"
if command -v flock > /dev/null 2>&1; then
	exec 9> "$out.lock" || die "cannot write $out.lock"
	flock 9 || die "cannot lock $out.lock"
	ready && exit 0
fi

work=$(mktemp -d "$out.tmp.XXXXXX") || die "cannot create a directory beside $out"
bin=$(mktemp -d /tmp/scorch-fixture-bin.XXXXXX) || die "cannot create a temporary directory"
trap 'rm -rf "$work" "$bin"' EXIT
export HOME=$work/.home
mkdir -p "$HOME" "$work/.nocache"

gcc -O2 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls -o "$bin/work_fp" "$here/workloads/work.c" &&
gcc -O2 -g -fomit-frame-pointer -fno-optimize-sibling-calls -o "$bin/work_nofp" "$here/workloads/work.c" &&
g++ -O2 -g -fno-omit-frame-pointer -o "$bin/tmpl" "$here/workloads/tmpl.cpp" ||
	die "could not build the workloads"

# clean CMD...: CMD in a minimal environment, so that the stack copies of
# DWARF samples carry nothing of the caller's
clean() { env -i PATH="$(dirname "$(command -v perf)"):/usr/bin:/bin" HOME="$HOME" LC_ALL=C "$@"; }

# rec CASE PERF-RECORD-ARGS...: record CASE into its folder (file mode,
# perf filling the case's build-id cache).
rec() {
	local c=$1; shift
	mkdir -p "$work/$c"
	clean perf --buildid-dir "$work/$c/buildid" record -q -o "$work/$c/perf.data" "$@" \
		> /dev/null 2> "$work/$c/record.err" ||
		die "perf record failed for $c: $(grep -v '^ *$' "$work/$c/record.err" | head -1)"
	rm -f "$work/$c/record.err"
}

# no_buildids CASE: the symbol sources of a case perf records no build ids
# for: the binaries at their recorded paths under symfs/, the running
# kernel's symbols and the vdso image (taken from the fp case's cache).
no_buildids() {
	local d=$work/$1
	mkdir -p "$d/symfs$bin"
	cp "$bin/work_fp" "$d/symfs$bin/"
	cp /proc/kallsyms "$d/kallsyms"
	cp "$work"/fp/buildid/\[vdso\]/*/vdso "$d/vdso" 2> /dev/null
}

rec fp -F 997 -g "$bin/work_fp" 0.4
rec dwarf -F 199 --call-graph dwarf,8192 "$bin/work_nofp" 0.4
rec cpp_fp -F 999 -g "$bin/tmpl" 0.3
rec multi -e cpu-clock,task-clock -F 499 -g "$bin/work_fp" 0.3
mkdir -p "$work/pipe_fp"
clean perf record -q -F 997 -g -o - "$bin/work_fp" 0.3 > "$work/pipe_fp/perf.data" 2> /dev/null ||
	die "perf record -o - (pipe mode) failed"
no_buildids pipe_fp
rec zstd_fp -z -m 2 -F 997 -g "$bin/work_fp" 0.3
no_buildids zstd_fp
# off-CPU: every sched_switch system-wide, filtered to the workload's
# processes so the recording needs only their objects
# perf on this kind of VM records no sched_switch out of the idle task,
# so on a quiet machine a nap ending on an idle CPU is never seen
# switching back in: a spinner per CPU keeps the CPUs busy (as
# tests/lib.sh busy_cpus_*). It is a program of ours named spin, which
# the filter passes (the switch from it into the workload is the one
# needed), so its own samples are plain frames both tools resolve.
printf 'int main(void) { volatile unsigned long x = 0; for (;;) x++; }\n' > "$bin/spin.c"
gcc -O2 -g -fno-omit-frame-pointer -o "$bin/spin" "$bin/spin.c" || die "could not build the spinner"
spin=
for i in $(seq "$(nproc 2>/dev/null || echo 2)"); do
	nice -n 19 "$bin/spin" &
	spin="$spin $!"
done
trap 'kill $spin 2> /dev/null; rm -rf "$work" "$bin"' EXIT
rec offcpu -e sched:sched_switch -a -g \
	--filter 'prev_comm == "sh" || prev_comm == "sleep" || prev_comm == "work_fp" || prev_comm == "spin"' -- \
	sh -c "for i in 1 2 3; do sleep 0.02; $bin/work_fp 0.05 > /dev/null; done"
# shellcheck disable=SC2086
kill $spin 2> /dev/null; wait $spin 2> /dev/null
trap 'rm -rf "$work" "$bin"' EXIT
no_buildids offcpu
cp "$bin/spin" "$work/offcpu/symfs$bin/"

# The oracles, while the binaries are still at their recorded paths (as
# the corpus references were made on the recording machine).
for d in "$work"/*/; do
	d=${d%/}
	b=$d/buildid
	[ -d "$b" ] || b=$work/.nocache
	p() { perf --buildid-dir "$b" "$@" -i "$d/perf.data"; }
	p script > "$d/perf-script.txt" 2> /dev/null &&
	p report --stdio --no-children -n -g none --sort comm,dso,sym > "$d/report-comm-dso-sym.txt" 2> /dev/null &&
	p report --stdio --no-children -n -g none --sort sym > "$d/report-sym.txt" 2> /dev/null &&
	p report --stdio --no-children -n -g none --sort dso,comm > "$d/report-dso-comm.txt" 2> /dev/null &&
	p report --stdio --no-children -n -g none --sort pid,sym > "$d/report-pid-sym.txt" 2> /dev/null &&
	p buildid-list --with-hits > "$d/buildid-list.txt" 2> /dev/null &&
	p buildid-list > "$d/buildid-table.txt" 2> /dev/null &&
	p report --header-only > "$d/header.txt" 2> /dev/null ||
		die "perf could not read back ${d##*/}/perf.data"
	"$scorch" fold --format=perf-script "$d/perf-script.txt" > "$d/stackcollapse.folded" 2> /dev/null &&
	"$scorch" fold --format=perf-script --all "$d/perf-script.txt" > "$d/stackcollapse-all.folded" 2> /dev/null ||
		die "scorch fold could not collapse ${d##*/}/perf-script.txt"
	[ -s "$d/stackcollapse.folded" ] || die "${d##*/}: perf recorded no stacks"
done

# The same kernel symbols in every cache: one copy, hard-linked.
first=
for k in "$work"/*/buildid/\[kernel.kallsyms\]/*/kallsyms "$work"/*/kallsyms; do
	[ -f "$k" ] || continue
	if [ -z "$first" ]; then first=$k
	elif cmp -s "$first" "$k"; then ln -f "$first" "$k"
	fi
done

rm -rf "$HOME" "$work/.nocache"
echo "$stamp" > "$work/stamp"
chmod -R a+rX "$work"
# Into place: replace an outdated copy; if another run got there first
# (no flock), keep its copy.
ready && exit 0
if [ -e "$out" ]; then
	old=$(mktemp -d "$out.old.XXXXXX")
	mv -T "$out" "$old/f" 2> /dev/null
	rm -rf "$old"
fi
mv -T "$work" "$out" 2> /dev/null || ready || die "could not move the fixtures into $out"
trap 'rm -rf "$bin"' EXIT
exit 0
