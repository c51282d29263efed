# t0102: the session keeps its own fields (issue #13's layering): outside
# src/process/, no file assigns a field of a struct proc_session variable
# (commands give options at open, the unwinder hands over a chain
# source), and the sample filter and unwound run loop are out of cmd/.
src=$ROOT/src

# the fields of struct proc_session, from its definition
fields=$(awk '/^struct proc_session \{/ {on = 1; next} on && /^\};/ {exit}
	on && match($0, /\(\*[a-z_][a-z0-9_]*\)/) { print substr($0, RSTART + 2, RLENGTH - 3); next }
	on { gsub(/\/\*.*\*\//, ""); gsub(/\[[^]]*\]/, "");
	     n = split($0, w, /[ \t,;*()]+/);
	     if ($0 ~ /;/) for (i = 2; i <= n; i++) if (w[i] ~ /^[a-z_][a-z0-9_]*$/ && w[i+1] == "") print w[i] }' \
	"$src/process/session.h" | sort -u | tr '\n' '|' | sed 's/|$//')
case "|$fields|" in
*"|reader|"*) case "|$fields|" in
	*"|machine|"*) pass "session fields read from session.h" ;;
	*) fail "session fields read from session.h" "got: $fields" ;;
	esac ;;
*) fail "session fields read from session.h" "got: $fields" ;;
esac

# every assignment to VAR.FIELD or VAR->FIELD, VAR declared as a session
writers=
for f in $(grep -rl 'struct proc_session' "$src" --include='*.c' --include='*.h' | grep -v "^$src/process/"); do
	vars=$(grep -oE 'struct proc_session([ \t]+\*?|[ \t]*\*)[ \t]*[a-z_][a-z0-9_]*' "$f" |
	       sed -E 's/struct proc_session([ \t]+\*?|[ \t]*\*)[ \t]*//' | sort -u | tr '\n' '|' | sed 's/|$//')
	[ -n "$vars" ] || continue
	hits=$(grep -nE "(^|[^a-z0-9_.>])($vars)(\.|->)($fields)(\.[a-z_][a-z0-9_]*)*[ \t]*(=[^=]|[-+*/|&]=|\+\+|--)|(\+\+|--)($vars)(\.|->)($fields)\b" "$f" |
	       sed "s|^|${f#$ROOT/}:|")
	[ -n "$hits" ] && writers="$writers$hits
"
done
check "no layer outside src/process/ writes session fields" test -z "$writers"
[ -n "$writers" ] && printf '%s' "$writers" | sed 's/^/#   /'

if grep -qE '^(bool|int|void) (sample_filter_|prof_filter_)' "$src"/cmd/*.c; then
	fail "the sample filter is out of src/cmd/" "$(grep -nE '^(bool|int|void) (sample_filter_|prof_filter_)' "$src"/cmd/*.c)"
else
	pass "the sample filter is out of src/cmd/"
fi
if grep -qE 'unw_perf_(attach|detach)\(' "$src"/cmd/*.c; then
	fail "the unwound run loop is out of src/cmd/" "$(grep -nE 'unw_perf_(attach|detach)\(' "$src"/cmd/*.c)"
else
	pass "the unwound run loop is out of src/cmd/"
fi
