# tests/lib-corpus.sh: helpers for the tests over recorded perf.data cases
# (sourced after tests/lib.sh). A case is a folder laid out as in
# ../shared/corpus (see its README): perf.data, buildid/, the oracles'
# outputs (perf-script.txt, stackcollapse.folded, ...). Two sets of cases:
#   $FIX             the fixtures tests/fixtures.sh records from the
#                    project's workloads (build/fixtures): always
#   $SHARED/corpus   the optional reference corpus: when present
# each_root FN runs FN once per set with C set to its folder and L to a
# label ("fixture" or "corpus"). HOME is an empty directory under $TMP, so
# ~/.debug never leaks into a result and only a case's own symbol sources
# are used.

FIX=${FIXTURES:-$ROOT/build/fixtures}
C=$SHARED/corpus
L=corpus
mkdir -p "$TMP/home"
export HOME=$TMP/home

# srcs CASE: the symbol source options of a case of $C (--buildid-dir,
# --symfs, --kallsyms, --vdso for what the case directory holds).
srcs() {
	local c=$1 o=""
	[ -d "$C/$c/buildid" ] && o="$o --buildid-dir $C/$c/buildid"
	[ -d "$C/$c/symfs" ] && o="$o --symfs $C/$c/symfs"
	[ -f "$C/$c/kallsyms" ] && o="$o --kallsyms $C/$c/kallsyms"
	[ -f "$C/$c/vdso" ] && o="$o --vdso $C/$c/vdso"
	echo "$o"
}

# fixtures: make the fixtures (tests/fixtures.sh: quick when they are
# already made). True when they are there; otherwise one skip line with
# the script's reason (e.g. perf cannot record on this machine).
fixtures() {
	local why
	[ -n "${FIX_STATE:-}" ] && return "$FIX_STATE"
	if bash "$ROOT/tests/fixtures.sh" "$FIX" > /dev/null 2> "$TMP/fixtures.err"; then
		FIX_STATE=0
	else
		FIX_STATE=1
		why=$(grep '^fixtures: ' "$TMP/fixtures.err" | tail -1)
		skip "fixture recordings" "${why:-tests/fixtures.sh failed: $(tail -1 "$TMP/fixtures.err")}"
	fi
	return "$FIX_STATE"
}

# shared_corpus [PATH...]: need_shared for the corpus and the PATHs (under
# ../shared), asked once per test file (later calls answer silently with the
# first answer).
shared_corpus() {
	[ -n "${SHARED_STATE:-}" ] && return "$SHARED_STATE"
	if need_shared corpus/README.md "$@"; then SHARED_STATE=0; else SHARED_STATE=1; fi
	return "$SHARED_STATE"
}

# each_root FN [ARGS...]: FN on the fixtures, then on the shared corpus.
each_root() {
	if fixtures; then C=$FIX L=fixture "$@"; fi
	if shared_corpus; then C=$SHARED/corpus L=corpus "$@"; fi
}

# total FOLDED: the summed weight of a folded file (0 when empty).
total() { awk '{ s += $NF } END { printf "%d\n", s }' "$1"; }

# samples SCRIPT_TXT: one line "TIME PERIOD EVENT" per sample of a perf
# script text (default fields; period 1 where perf script prints none).
samples() {
	awk '/^[^ \t]/ {
		for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) break
		if (i > NF) next
		t = substr($i, 1, length($i) - 1); p = 1; e = $(i + 1)
		if (e ~ /^[0-9]+$/) { p = e; e = $(i + 2) }
		sub(/:$/, "", e); print t, p, e
	}' "$1"
}

# first_event SCRIPT_TXT: the event of the first sample (which event a
# two-event recording prints first changes from one recording to the
# next; stackcollapse-perf.pl keeps that one)
first_event() { samples "$1" | awk '{ sub(/:.*/, "", $3); print $3; exit }'; }

# other_clock EVENT: of cpu-clock and task-clock (the multi fixture's
# events), the one that is not EVENT
other_clock() { if [ "$1" = cpu-clock ]; then echo task-clock; else echo cpu-clock; fi; }
