# t0200: make install puts the binary, the drop-in names and the man pages
# under PREFIX, and the drop-in names dispatch to their commands.

if [ -n "${BUILD_DIR:-}" ] && [ -x "$BUILD_DIR/scorch" ]; then
	build=$BUILD_DIR
else
	build=$(dirname "$SCORCH")
fi
if make -s -C "$ROOT" BUILD="$build" SAN="${BUILD_SAN:-}" install PREFIX="$TMP/prefix" > install.log 2>&1; then
	pass "make install PREFIX=..."
else
	fail "make install PREFIX=..." "$(tail -5 install.log)"
fi
check "scorch installed" test -x "$TMP/prefix/bin/scorch"
check "scorch(1) installed" test -f "$TMP/prefix/share/man/man1/scorch.1"
for n in stackcollapse-perf.pl flamegraph.pl difffolded.pl; do
	check "drop-in $n installed" test -L "$TMP/prefix/bin/$n"
done
check "installed scorch runs" "$TMP/prefix/bin/scorch" --version
if "$TMP/prefix/bin/scorch" help fold >/dev/null 2>&1; then
	printf 'perl 100 [000] 1.0: 1 cpu-clock:\n\t1 main (/bin/perl)\n\n' > in.txt
	"$TMP/prefix/bin/stackcollapse-perf.pl" in.txt > out.txt 2>&1
	check_grep "stackcollapse-perf.pl drop-in folds" '^perl;main 1$' out.txt
fi
