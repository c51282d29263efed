# t0100: documentation does not drift from --help: every command has
# docs/scorch-CMD.md with one "### --option" heading per option that
# --help lists (and none it does not), and its man page renders cleanly.

cmds=$("$SCORCH" --help | sed -n '/^commands:/,/^$/p' | awk 'NF>1 {print $1}')
for c in $cmds; do
	md=$ROOT/docs/scorch-$c.md
	if [ ! -f "$md" ]; then
		fail "docs/scorch-$c.md exists"
		continue
	fi
	"$SCORCH" help "$c" | sed -n '/^options:/,$p' | grep -oE -- '--[a-zA-Z0-9][-a-zA-Z0-9]*' |
		grep -v -- '^--help$' | sort -u > help-opts.txt
	grep -E '^### ' "$md" | grep -oE -- '--[a-zA-Z0-9][-a-zA-Z0-9]*' | sort -u > doc-opts.txt
	if cmp -s help-opts.txt doc-opts.txt; then
		pass "docs/scorch-$c.md documents exactly the options of --help"
	else
		fail "docs/scorch-$c.md documents exactly the options of --help" \
			"$(diff help-opts.txt doc-opts.txt | grep '^[<>]' | sed 's/^</only in --help:/; s/^>/only in docs:/')"
	fi
	if bash "$ROOT/tools/mkman.sh" "$SCORCH" "scorch-$c" > "scorch-$c.1" 2> err.txt; then
		if need groff; then
			groff -man -Tutf8 -ww -z "scorch-$c.1" > warn.txt 2>&1
			if [ ! -s warn.txt ] && grep -q '^\.SH OPTIONS' "scorch-$c.1"; then
				pass "man page scorch-$c.1 renders without warnings"
			else
				fail "man page scorch-$c.1 renders without warnings" "$(cat warn.txt)"
			fi
		else
			skip "man page scorch-$c.1 renders" "groff not installed"
		fi
	else
		fail "tools/mkman.sh builds scorch-$c.1" "$(cat err.txt)"
	fi
done
check "top-level man page builds" bash "$ROOT/tools/mkman.sh" "$SCORCH" scorch
