# t7103: docs/scorch-flame.md and docs/scorch-diff.md have exactly one
# "### --name" heading per option that --help lists, and the man pages build.
for c in flame diff; do
	md=$ROOT/docs/scorch-$c.md
	if [ ! -f "$md" ]; then fail "docs/scorch-$c.md exists"; continue; fi
	"$SCORCH" $c --help | grep -oE '^  (-., )?    --[a-z0-9-]+|^  -., --[a-z0-9-]+' |
		grep -oE -- '--[a-z0-9-]+' | grep -v -- '--help' | sort > help.txt
	grep -E '^### --' "$md" | sed 's/^### //' | sort > doc.txt
	check_same "scorch-$c: doc headings match --help options" help.txt doc.txt
	[ -z "$(uniq -d doc.txt)" ] && pass "scorch-$c: no duplicate headings" || fail "duplicate headings in $md"
	grep -q '^# scorch-'"$c"'(1)' "$md" && grep -q '^## DESCRIPTION' "$md" && grep -q '^## OPTIONS' "$md" &&
		grep -q '^## EXAMPLES' "$md" && pass "scorch-$c: page sections" || fail "scorch-$c: missing sections"
	if bash "$ROOT/tools/mkman.sh" "$SCORCH" "scorch-$c" > man.1 2>err.txt && grep -q '^\.SH OPTIONS' man.1; then
		pass "scorch-$c: man page builds"
	else
		fail "scorch-$c: man page builds" "$(cat err.txt)"
	fi
done
