#!/bin/sh
# render/view2c.sh: turn src/render/view.js and view.css into the C
# strings in src/render/view_assets.c (checked in; the Makefile
# regenerates it when either changes, tests/t6910 checks they agree).
#   sh src/render/view2c.sh > src/render/view_assets.c
# Refuses a file holding "</" (it would end the <script> or <style>).
set -eu
dir=$(dirname "$0")
for f in view.js view.css; do
	if grep -q '</' "$dir/$f"; then
		echo "view2c.sh: $f holds \"</\"" >&2
		exit 1
	fi
done
emit() {
	printf '\nconst char %s[] =\n' "$1"
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/\t"/' -e 's/$/\\n"/' "$dir/$2"
	printf '%s\n' '	;'
}
printf '%s\n' '/*' \
' * view_assets: the explorer'"'"'s script and style, as C strings.' \
' * Stage: render. GENERATED from src/render/view.js and view.css by' \
' * src/render/view2c.sh; edit those files and regenerate.' \
' */' \
'#include "render/view_html.h"'
emit render_view_js view.js
emit render_view_css view.css
