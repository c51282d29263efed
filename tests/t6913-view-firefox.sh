# t6913: `scorch view` pages open from disk in Firefox too (Debian's
# firefox-esr, driven over WebDriver BiDi by puppeteer-core from npm,
# installed here on first use into tests/firefox): each page gets ready
# with no page or console error; its total equals what awk sums over
# the input and its stacks read back equal the input's
# (hostile and invalid UTF-8 names included); the views, the sandwich,
# a search and a focus run; a --diff page's Swap shows before's total.
# Skips only when firefox-esr or node are missing
# (tools/install-deps.sh --test installs firefox-esr).
firefox=${FIREFOX:-/usr/bin/firefox-esr}
if [ ! -x "$firefox" ]; then skip "firefox checks" "no firefox at $firefox (apt-get install firefox-esr)"; return 0; fi
if ! need node npm; then skip "firefox checks" "node/npm not installed"; return 0; fi
dir=$ROOT/tests/firefox
if [ ! -d "$dir/node_modules/puppeteer-core" ]; then
	( cd "$dir" && timeout 300 npm install --no-save --no-audit --no-fund --loglevel=error ) > npm.log 2>&1
	if [ ! -d "$dir/node_modules/puppeteer-core" ]; then
		fail "npm install puppeteer-core" "$(tail -5 npm.log)"
		return 0
	fi
fi

printf '%s\n' 'main;a;b 30' 'main;a;c 10' 'main;d 40' 'main;a;b;a;b 7' \
	'main;<img src=x onerror="window.__pwned=1">;&lt&gt"q'"'"' 5' \
	'main;</script><script>window.__pwned=1</script> 3' 'other;b 11' > small.folded
printf 'main;bad\377\376name 1\n' >> small.folded
# big enough that the page carries its data gzip'd (DecompressionStream)
awk -v STACKS=3000 -v NAMES=300 -v MIN=3 -v MAX=12 -f "$ROOT/bench/view-gen.awk" > big.folded
printf '%s\n' 'm;old 4' 'm;same 5' > before.folded
printf '%s\n' 'm;same 6' 'm;new 9' > after.folded
check "view of a small profile" "$SCORCH" view small.folded -o small.html
check "view of a generated profile" "$SCORCH" view big.folded -o big.html
check "view --diff" "$SCORCH" view --diff before.folded after.folded -o diff.html
check "the generated profile's page is gzip'd" grep -q 'data-enc="gzip"' big.html
sum() { awk '{ n += $NF } END { print n + 0 }' "$1"; }
cat > expect.json <<JSON
[{"name": "small", "html": "small.html", "folded": "small.folded", "total": $(sum small.folded)},
 {"name": "generated", "html": "big.html", "folded": "big.folded", "total": $(sum big.folded)},
 {"name": "diff", "html": "diff.html", "folded": "after.folded", "total": $(sum after.folded),
  "diff": true, "before": $(sum before.folded)}]
JSON
HOME=$PWD timeout 180 node "$dir/view-firefox.js" "$firefox" expect.json > out.tap 2>&1
rc=$?
grep -E '^(ok|not ok|#)' out.tap
[ $rc -eq 0 ] || grep -q '^not ok' out.tap || fail "firefox run failed (status $rc)" "$(tail -5 out.tap)"
