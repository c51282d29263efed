# t6901: the flame graph viewer in a real browser (Debian's chromium,
# headless, driven by playwright-core from npm, installed here on first
# use): click zoom, hover, reset, regex search and match %, Ctrl-F, Ctrl-I,
# Esc, and the URL state. Skips only when chromium or node are missing.
chromium=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then skip "browser checks" "no chromium at $chromium"; return 0; fi
if ! need node npm; then skip "browser checks" "node/npm not installed"; return 0; fi
dir=$ROOT/tests/browser
if [ ! -d "$dir/node_modules/playwright-core" ]; then
	( cd "$dir" && timeout 300 npm install --no-save --no-audit --no-fund --loglevel=error playwright-core ) > npm.log 2>&1
	if [ ! -d "$dir/node_modules/playwright-core" ]; then
		fail "npm install playwright-core" "$(tail -5 npm.log)"
		return 0
	fi
fi
printf 'main;a;b 30\nmain;a;c 10\nmain;d 40\nmain;A;x 20\n' > small.folded
"$SCORCH" flame small.folded > small.svg 2>/dev/null
printf 'a;grow 1 10\na;shrink 10 1\na;same 5 5\n' > diff.folded
"$SCORCH" flame diff.folded > diff.svg 2>/dev/null
timeout 120 node "$dir/flame-browser.js" test "$PWD/small.svg" "$PWD/diff.svg" > out.tap 2>&1
rc=$?
sed "s/^\(not \)\{0,1\}ok - /&browser: /" out.tap | grep -E '^(ok|not ok|#)'
[ $rc -eq 0 ] || grep -q '^not ok' out.tap || fail "browser run failed (status $rc)" "$(tail -5 out.tap)"
