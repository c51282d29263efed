#!/usr/bin/env bash
# tools/mkman.sh SCORCH PAGE: print the roff man page PAGE (scorch or
# scorch-CMD, CMD as `scorch --help` lists it) built from scorch's help
# and docs/PAGE.md:
#   NAME      the command's one-line summary from `scorch --help` (the
#             command table), whole: never a wrapped line of a paragraph;
#   SYNOPSIS  the usage line of `scorch help CMD`;
#   the rest  docs/PAGE.md (required), with each "### --name" heading
#             replaced by the option's column in --help ("-o, --output
#             FILE"), and -h, --help added at the end of OPTIONS.
#
# docs/PAGE.md layout:  "## DESCRIPTION", "## OPTIONS" with one "### --name"
# heading per option, then any other "## SECTION" (EXAMPLES, SEE ALSO, ...).
# Fails (no output) when PAGE names no command or its docs are missing.
set -eu
scorch=$1 page=$2
root=$(cd "$(dirname "$0")/.." && pwd)
md=$root/docs/$page.md
cmd=${page#scorch}; cmd=${cmd#-}
die() { echo "mkman.sh: $page: $*" >&2; exit 1; }

[ -f "$md" ] || die "docs/$page.md: no such file"
top=$("$scorch" --help)
if [ -n "$cmd" ]; then
	help=$("$scorch" help "$cmd") || die "'scorch help $cmd' failed"
	summary=$(printf '%s\n' "$top" | sed -n '/^commands:/,/^$/p' |
		awk -v c="$cmd" '$1 == c { sub(/^ *[^ ]+ +/, ""); print; exit }')
else
	help=$top
	summary=$(printf '%s\n' "$help" | sed -n '3p')
fi
[ -n "$summary" ] || die "no summary line for '$cmd' in 'scorch --help'"
version=$("$scorch" --version | awk '{print $2}')
usage=$(printf '%s\n' "$help" | sed -n 's/^usage: //p' | head -1)
upper=$(printf '%s' "$page" | tr a-z A-Z)

# option column of --help, one "--long<TAB>column" line per option: the
# text before the first run of two spaces ("-o, --output FILE")
columns=$(printf '%s\n' "$help" | sed -n '/^options:/,$p' | tail -n +2 |
	awk '{ sub(/^ +/, ""); if ($0 !~ /^-/) next; sub(/  .*/, "")
		n = $0; sub(/^-[^-], /, "", n); sub(/[ [=].*/, "", n); print n "\t" $0 }')

esc() { sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/" -e 's/-/\\-/g'; }

printf '.TH %s 1 "" "scorch %s" "scorch manual"\n' "$upper" "$version"
printf '.SH NAME\n%s \\- %s\n' "$page" "$(printf '%s' "$summary" | esc)"
printf '.SH SYNOPSIS\n.nf\n%s\n.fi\n' "$(printf '%s' "$usage" | esc)"

# Markdown subset to roff: headings, paragraphs, code blocks, bullets
# (continuation lines indented), option headings from the columns above.
md2roff() {
	awk -v columns="$columns" '
	function esc(s) { gsub(/\\/, "\\e", s); gsub(/-/, "\\-", s); sub(/^[.'"'"']/, "\\\\\\&&", s); return s }
	# `code` in bold, also when it spans lines (bq: a ` is open)
	function inline(s,   n, part, i) {
		n = split(esc(s), part, "`"); s = part[1]
		for (i = 2; i <= n; i++) { bq = !bq; s = s (bq ? "\\fB" : "\\fR") part[i] }
		while (match(s, /\*\*[^*]+\*\*/)) s = substr(s, 1, RSTART-1) "\\fB" substr(s, RSTART+2, RLENGTH-4) "\\fR" substr(s, RSTART+RLENGTH)
		return s
	}
	# "-o, --output FILE" -> bold option names, italic argument
	function tag(c,   names, arg) {
		names = c; arg = ""
		if (match(c, /[ [=]/)) { names = substr(c, 1, RSTART-1); arg = substr(c, RSTART) }
		gsub(/, /, "\\fR, \\fB", names)
		names = "\\fB" names "\\fR"
		if (arg ~ /^ /) arg = " \\fI" substr(arg, 2) "\\fR"
		else if (arg != "") arg = "\\fI" arg "\\fR"
		gsub(/-/, "\\-", names); gsub(/-/, "\\-", arg)
		return names arg
	}
	function option(name) {
		print ".TP"
		if (name in col) print tag(col[name]); else print ".B " esc(name)
	}
	function end_options() {
		if (!opts) return
		opts = 0
		if ("--help" in col) { option("--help"); print "Print the usage line and the options, then exit." }
	}
	BEGIN {
		n = split(columns, lines, "\n")
		for (i = 1; i <= n; i++) { split(lines[i], f, "\t"); if (f[1] != "") col[f[1]] = f[2] }
	}
	# a break inside an option description keeps its indent (.IP)
	function brk() { print (tagged ? ".IP" : ".PP"); blank = 0 }
	/^```/ { if (code) { print ".fi"; code = 0 } else { brk(); print ".nf"; code = 1 }; next }
	code { print esc($0); next }
	/^# / { next }
	/^## / { end_options(); print ".SH " toupper(substr($0, 4)); opts = $0 == "## OPTIONS"; tagged = blank = 0; next }
	/^### / { option(substr($0, 5)); tagged = 1; blank = 0; first = 1; next }
	/^- / { print ".IP \\(bu 2\n" inline(substr($0, 3)); blank = 0; next }
	/^$/ { blank = 1; next }
	# a block indented by four spaces, after a blank line: code
	/^    / && (blank || icode) { if (!icode) { brk(); print ".nf"; icode = 1 } else if (blank) print ""; blank = 0; print esc(substr($0, 5)); next }
	icode { print ".fi"; icode = 0 }
	{ if (blank && !first) brk(); blank = first = 0; sub(/^[ \t]+/, ""); print inline($0) }
	END { if (icode) print ".fi"; end_options() }
	'
}

md2roff < "$md"
if ! grep -q '^## SEE ALSO' "$md"; then
	printf '.SH SEE ALSO\n'
	if [ -n "$cmd" ]; then printf '.BR scorch (1)\n'; else printf 'scorch\\-COMMAND(1) for each command listed above.\n'; fi
fi
