#!/usr/bin/env bash
# tools/mkman.sh SCORCH PAGE: print the roff man page PAGE (scorch or
# scorch-CMD) built from the command's --help (synopsis, option list) and
# docs/PAGE.md (description, a paragraph per option, examples).
#
# docs/PAGE.md layout:  "## DESCRIPTION", "## OPTIONS" with one "### --name"
# heading per option, then any other "## SECTION" (EXAMPLES, SEE ALSO, ...).
set -eu
scorch=$1 page=$2
root=$(cd "$(dirname "$0")/.." && pwd)
md=$root/docs/$page.md
cmd=${page#scorch}; cmd=${cmd#-}
if [ -n "$cmd" ]; then help=$("$scorch" help "$cmd"); else help=$("$scorch" --help); fi
version=$("$scorch" --version | awk '{print $2}')
usage=$(printf '%s\n' "$help" | sed -n 's/^usage: //p' | head -1)
summary=$(printf '%s\n' "$help" | sed -n '3p')
upper=$(printf '%s' "$page" | tr a-z A-Z)

esc() { sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/" -e 's/-/\\-/g'; }

printf '.TH %s 1 "" "scorch %s" "scorch manual"\n' "$upper" "$version"
printf '.SH NAME\n%s \\- %s\n' "$page" "$(printf '%s' "$summary" | esc)"
printf '.SH SYNOPSIS\n.nf\n%s\n.fi\n' "$(printf '%s' "$usage" | esc)"

# Markdown subset to roff: headings, paragraphs, code blocks, bullets.
md2roff() {
	awk '
	function esc(s) { gsub(/\\/, "\\e", s); gsub(/-/, "\\-", s); sub(/^[.'"'"']/, "\\\\\\&&", s); return s }
	function inline(s) {
		s = esc(s)
		while (match(s, /`[^`]+`/)) s = substr(s, 1, RSTART-1) "\\fB" substr(s, RSTART+1, RLENGTH-2) "\\fR" substr(s, RSTART+RLENGTH)
		while (match(s, /\*\*[^*]+\*\*/)) s = substr(s, 1, RSTART-1) "\\fB" substr(s, RSTART+2, RLENGTH-4) "\\fR" substr(s, RSTART+RLENGTH)
		return s
	}
	/^```/ { if (code) { print ".fi"; code = 0 } else { print ".PP\n.nf"; code = 1 }; next }
	code { print esc($0); next }
	/^# / { next }
	/^## / { print ".SH " toupper(substr($0, 4)); para = 0; next }
	/^### / { print ".TP\n.B " esc(substr($0, 5)); para = 1; next }
	/^- / { print ".IP \\(bu 2\n" inline(substr($0, 3)); next }
	/^$/ { if (!para) blank = 1; next }
	{ if (blank) { print ".PP"; blank = 0 }; print inline($0); para = 0 }
	'
}

if [ -f "$md" ]; then
	md2roff < "$md"
else
	printf '.SH OPTIONS\n.nf\n%s\n.fi\n' "$(printf '%s\n' "$help" | sed -n '/^options:/,$p' | tail -n +2 | esc)"
fi
printf '.SH SEE ALSO\n'
if [ -n "$cmd" ]; then printf '.BR scorch (1)\n'; else printf 'scorch\\-COMMAND(1) for each command listed above.\n'; fi
