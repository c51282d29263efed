# t7632: scorch push against a stand-in for Pyroscope's ingest API
# (tests/pyroscope_stub.py on loopback, which records each request): the
# request line, the query parameters Pyroscope documents (name with
# labels, percent-encoded; from/until from perf's own wall-clock times of
# a -k CLOCK_MONOTONIC recording; format, sampleRate, spyName, units,
# aggregationType), the headers, and the body: `scorch fold`'s lines, or
# pprof that `go tool pprof` turns back into them. Errors (refused, a
# timeout, 400/500 with the server's first line, https://, bad labels)
# give one line naming the URL and a non-zero exit; --dry-run sends
# nothing.
. "$ROOT/tests/lib-corpus.sh"

if ! need python3; then
	skip "scorch push" "python3 not installed (the stub server)"
	return 0
fi
mkdir stub
python3 "$ROOT/tests/pyroscope_stub.py" "$TMP/stub" 2> stub.err &
stub_pid=$!
stop_stub() { touch "$TMP/stub/stop"; kill "$stub_pid" 2> /dev/null; wait "$stub_pid" 2> /dev/null; return 0; }
trap stop_stub EXIT
for _ in $(seq 100); do [ -s stub/port ] && break; sleep 0.1; done
if [ ! -s stub/port ]; then
	fail "the stub server starts" "$(cat stub.err)"
	return 0
fi
port=$(cat stub/port)
base=http://127.0.0.1:$port
nreq() { ls stub/ | grep -c '\.json$'; }

# req N FIELD: a recorded request's field (query parameters decoded;
# each must appear once)
req() {
	python3 - "$TMP/stub/$1.json" "$2" <<'EOF'
import json, sys, urllib.parse
r = json.load(open(sys.argv[1]))
f = sys.argv[2]
if f.startswith('q:'):
    q = urllib.parse.parse_qs(r['query'], keep_blank_values=True, strict_parsing=True)
    v = q.get(f[2:], [])
    print(v[0] if len(v) == 1 else 'COUNT=%d' % len(v))
elif f.startswith('h:'):
    v = [b for a, b in r['headers'] if a.lower() == f[2:].lower()]
    print(v[0] if len(v) == 1 else 'COUNT=%d' % len(v))
elif f == 'params':
    print(','.join(sorted(urllib.parse.parse_qs(r['query']).keys())))
else:
    print(r[f])
EOF
}
is() { # is DESC WANT GOT
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "want '$2', got '$3'"; fi
}

if fixtures; then
	C=$FIX
	"$SCORCH" fold $(srcs fp) "$C/fp/perf.data" > fp.folded 2> /dev/null
	"$SCORCH" push --app myapp.cpu --label env=prod --label 'region=eu 1/x' \
		"$base/ok" $(srcs fp) "$C/fp/perf.data" > push.out 2> push.err
	check "folded: push exits 0" test $? -eq 0
	n=$(nreq)
	is "folded: one request" 1 "$n"
	is "folded: method POST" POST "$(req $n method)"
	is "folded: path URL/ingest" /ok/ingest "$(req $n path)"
	is "folded: HTTP/1.1" HTTP/1.1 "$(req $n version)"
	is "folded: the documented parameters, nothing else" \
		aggregationType,format,from,name,sampleRate,spyName,units,until "$(req $n params)"
	is "folded: name=APP{labels}" 'myapp.cpu{env=prod,region=eu 1/x}' "$(req $n q:name)"
	check_grep "folded: the name is percent-encoded (%7B, %3D, %20, %2F)" \
		'name=myapp\.cpu%7Benv%3Dprod%2Cregion%3Deu%201%2Fx%7D&' "stub/$n.json"
	is "folded: format=folded" folded "$(req $n q:format)"
	is "folded: spyName=scorch" scorch "$(req $n q:spyName)"
	is "folded: units=samples" samples "$(req $n q:units)"
	is "folded: aggregationType=sum" sum "$(req $n q:aggregationType)"
	ev=$(perf evlist -i "$C/fp/perf.data" 2> /dev/null | head -1 | cut -d: -f1)
	is "fp: perf says the event is cpu-clock" cpu-clock "$ev"
	is "folded: sampleRate=1000000000 (cpu-clock weights are nanoseconds)" 1000000000 \
		"$(req $n q:sampleRate)"
	is "folded: Host header" "127.0.0.1:$port" "$(req $n h:Host)"
	is "folded: Content-Type text/plain" text/plain "$(req $n h:Content-Type)"
	is "folded: Content-Length is the body's size" "$(wc -c < stub/$n.body)" \
		"$(req $n h:Content-Length)"
	check_same "folded: body == scorch fold" fp.folded "stub/$n.body"
	check "folded: nothing printed on success" test ! -s push.out -a ! -s push.err

	if need go && go tool pprof -h > /dev/null 2>&1; then
		export GOCACHE=$TMP/gocache GOFLAGS=
		"$SCORCH" push --format pprof "$base/ok" $(srcs fp) "$C/fp/perf.data" 2> push.err
		check "pprof: push exits 0" test $? -eq 0
		n=$(nreq)
		is "pprof: format=pprof" pprof "$(req $n q:format)"
		is "pprof: Content-Type application/octet-stream" application/octet-stream \
			"$(req $n h:Content-Type)"
		cp "stub/$n.body" body.pb.gz
		go tool pprof -raw body.pb.gz > raw.txt 2> raw.err
		check "pprof: go tool pprof -raw reads the body" test $? -eq 0 -a -s raw.txt
		go tool pprof -symbolize=none -unit=ns -traces body.pb.gz 2> /dev/null | awk '
			function flush() { if (st != "") sum[st] += v; st = ""; seen = 0 }
			/^-----------\+/ { flush(); inblk = 1; next }
			!inblk { next }
			!seen && /^ *[0-9.]+[a-z]*   / {
				match($0, /^ *[0-9.]+[a-z]*   /)
				v = substr($0, 1, RLENGTH); gsub(/[^0-9.]/, "", v)
				st = substr($0, RLENGTH + 1); seen = 1; next
			}
			seen { st = substr($0, 14) ";" st }
			END { flush(); for (s in sum) printf "%s %d\n", s, sum[s] }' |
			LC_ALL=C sort > traces.txt
		LC_ALL=C sort fp.folded > fp.sorted
		check_same "pprof: -traces of the body == scorch fold" fp.sorted traces.txt
	else
		skip "pprof body read by go tool pprof" "go tool pprof not installed (Debian golang-go)"
	fi

	# errors
	closed=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	"$SCORCH" push "http://127.0.0.1:$closed" fp.folded 2> err; rc=$?
	is "refused: exit 1" 1 "$rc"
	check_grep "refused: one line naming the URL" "^scorch push: http://127\.0\.0\.1:$closed: connection refused" err
	is "refused: one line" 1 "$(wc -l < err)"
	"$SCORCH" push --timeout 1 "$base/slow" fp.folded 2> err; rc=$?
	is "timeout: exit 1" 1 "$rc"
	check_grep "timeout: names the URL and the limit" "^scorch push: $base/slow: no answer within 1 s" err
	"$SCORCH" push "$base/fail" fp.folded 2> err; rc=$?
	is "500: exit 1" 1 "$rc"
	check_grep "500: status and the server's first line" \
		"^scorch push: $base/fail: HTTP 500 Internal Server Error: ingest failed: disk full\$" err
	"$SCORCH" push "$base/bad" fp.folded 2> err; rc=$?
	is "400: exit 1" 1 "$rc"
	check_grep "400: status and the server's first line" \
		"^scorch push: $base/bad: HTTP 400 Bad Request: invalid name: unexpected character\$" err

	before=$(nreq)
	"$SCORCH" push --dry-run --label env=prod "$base/ok" fp.folded > dry.out 2> err; rc=$?
	is "--dry-run: exit 0" 0 "$rc"
	is "--dry-run: nothing sent" "$before" "$(nreq)"
	check_grep "--dry-run: the request line" \
		'^POST /ok/ingest\?name=scorch\.cpu%7Benv%3Dprod%7D&from=[0-9]+&until=[0-9]+&format=folded&sampleRate=100&spyName=scorch&units=samples&aggregationType=sum HTTP/1\.1$' dry.out
	check_grep "--dry-run: the headers" "^Content-Length: $(wc -c < fp.folded)\$" dry.out
	check_grep "--dry-run: the body's size and first lines" \
		"^body: $(wc -c < fp.folded) bytes, $(wc -l < fp.folded) folded lines" dry.out
	check_grep "--dry-run: the first folded line" "^$(head -1 fp.folded | sed 's/[][\.*^$]/\\&/g')\$" dry.out
	"$SCORCH" push --dry-run "http://127.0.0.1:$closed" fp.folded > /dev/null 2>&1
	is "--dry-run: no connection needed" 0 "$?"

	# folded input: one instant at the file's time
	touch -d @1700000005 fp.folded
	"$SCORCH" push "$base/ok" fp.folded 2> /dev/null
	n=$(nreq)
	is "folded file: from = the file's time" 1700000005 "$(req $n q:from)"
	is "folded file: until = from + 1" 1700000006 "$(req $n q:until)"
	is "folded file: sampleRate 100 (counts)" 100 "$(req $n q:sampleRate)"
	check_same "folded file: body == the file" fp.folded "stub/$n.body"
fi

# from/until: perf's own wall-clock times of a -k recording
if perf record -q -k CLOCK_MONOTONIC -F 499 -g -o tod.data -- \
	sh -c 'i=0; while [ $i -lt 150000 ]; do i=$((i+1)); done' > /dev/null 2> rec.err; then
	"$SCORCH" push "$base/ok" tod.data 2> push.err
	check "-k recording: push exits 0" test $? -eq 0
	n=$(nreq)
	TZ=UTC perf script -i tod.data -F tod 2> /dev/null | python3 -c '
import sys, datetime, math
t = [datetime.datetime.strptime(l.strip(), "%Y-%m-%d %H:%M:%S.%f").replace(
     tzinfo=datetime.timezone.utc).timestamp() for l in sys.stdin if l.strip()]
print(int(math.floor(min(t))), int(math.ceil(max(t))))' > span.perf
	is "-k recording: from/until = perf's first and last sample (whole seconds)" \
		"$(cat span.perf)" "$(req $n q:from) $(req $n q:until)"
else
	skip "from/until of a -k recording" "perf record failed: $(tail -1 rec.err)"
fi

echo 'a;b 1' > one.folded
before=$(nreq)
"$SCORCH" push https://example.com one.folded 2> err; rc=$?
is "https://: usage error (exit 2)" 2 "$rc"
check_grep "https://: says what to do" 'https:// is not supported.*http://.*proxy' err
for bad in 'novalue' 'a=b,c' 'a=x}' '1x=y' '=v'; do
	"$SCORCH" push --label "$bad" "$base/ok" one.folded 2> err; rc=$?
	is "--label '$bad': exit 2" 2 "$rc"
done
check_grep "a bad label is named" "label '=v'" err
"$SCORCH" push --app 'a{b' "$base/ok" one.folded 2> /dev/null
is "--app with '{': exit 2" 2 "$?"
for url in 'ftp://x' 'http://' 'http://h:0' 'http://h:99999' 'http://u@h' 'http://h/p?q=1' 'http://h/a b'; do
	"$SCORCH" push "$url" one.folded 2> err; rc=$?
	is "URL '$url': usage error" 2 "$rc"
done
is "bad arguments sent nothing" "$before" "$(nreq)"
stop_stub
