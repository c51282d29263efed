#!/bin/sh
# render/js2c.sh: turn src/render/flame.js into the C string in
# src/render/flame_js.c (checked in; tests/t6001 checks they agree).
#   sh src/render/js2c.sh > src/render/flame_js.c
set -eu
dir=$(dirname "$0")
printf '%s\n' '/*' \
' * flame_js: the flame graph viewer script, as a C string.' \
' * Stage: render. GENERATED from src/render/flame.js by' \
' * src/render/js2c.sh; edit the .js file and regenerate. The script' \
' * contains no "]]>" so it can sit in a CDATA section.' \
' */' \
'#include "render/flame.h"' '' \
'const char render_flame_js[] ='
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/\t"/' -e 's/$/\\n"/' "$dir/flame.js"
printf '%s\n' '	;'
