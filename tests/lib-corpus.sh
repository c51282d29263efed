# tests/lib-corpus.sh: helpers for the t73NN tests over the shared perf.data
# corpus (sourced after tests/lib.sh). C is the corpus; HOME is an empty
# directory under $TMP, so ~/.debug never leaks into a result and only the
# symbol sources the corpus README names are used.

C=$SHARED/corpus
mkdir -p "$TMP/home"
export HOME=$TMP/home

# srcs CASE: the symbol source options of a corpus case (--buildid-dir,
# --symfs, --kallsyms, --vdso for what the case directory holds).
srcs() {
	local c=$1 o=""
	[ -d "$C/$c/buildid" ] && o="$o --buildid-dir $C/$c/buildid"
	[ -d "$C/$c/symfs" ] && o="$o --symfs $C/$c/symfs"
	[ -f "$C/$c/kallsyms" ] && o="$o --kallsyms $C/$c/kallsyms"
	[ -f "$C/$c/vdso" ] && o="$o --vdso $C/$c/vdso"
	echo "$o"
}
