# tests/lib-speedscope.sh: the npm packages of the speedscope tests
# (sourced after tests/lib.sh): speedscope (its JSON schema and offline
# app), ajv (a JSON schema validator) and playwright-core, installed on
# first use into tests/speedscope/node_modules (gitignored).
# speedscope_npm: true when they are there; otherwise one skip line
# (node/npm missing) or fail line (npm install failed).
SSDIR=$ROOT/tests/speedscope
SSSCHEMA=$SSDIR/node_modules/speedscope/dist/release/file-format-schema.json
speedscope_npm() {
	if ! need node npm; then skip "speedscope checks" "node/npm not installed"; return 1; fi
	local m
	for m in speedscope ajv playwright-core; do
		[ -d "$SSDIR/node_modules/$m" ] && continue
		( cd "$SSDIR" && timeout 300 npm install --no-save --no-audit --no-fund \
			--loglevel=error speedscope ajv playwright-core ) > "$TMP/npm.log" 2>&1
		break
	done
	for m in speedscope ajv playwright-core; do
		if [ ! -d "$SSDIR/node_modules/$m" ]; then
			fail "npm install $m" "$(tail -5 "$TMP/npm.log")"
			return 1
		fi
	done
	[ -f "$SSSCHEMA" ] || { fail "speedscope package ships file-format-schema.json" "$SSSCHEMA"; return 1; }
}
