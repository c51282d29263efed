# t0905: fuzz/run.sh, driven with stand-in targets (shell scripts that
# answer as libFuzzer does): a crash input stays where the log names it,
# a seed path that names nothing is said, a missing reference corpus is
# said once and does not fail the run, a seed list's "-option" lines
# reach the target, the empty modes start from an
# empty corpus, and leak detection is on.

mkdir -p fb
# A stand-in for fuzz-kallsyms (so its real seed list is read): records
# its corpus size and environment, "crashes" when CRASH is set.
cat > fb/fuzz-kallsyms <<'EOS'
#!/bin/bash
for a; do case $a in -artifact_prefix=*) pre=${a#*=} ;; -*) ;; *) dir=$a ;; esac; done
ls "$dir" | wc -l > "$FAKE_OUT.corpus"
echo "$ASAN_OPTIONS|$LSAN_OPTIONS" > "$FAKE_OUT.env"
echo "$*" > "$FAKE_OUT.args"
if [ -n "${CRASH:-}" ]; then
	echo "==1==ERROR: AddressSanitizer: heap-buffer-overflow"
	echo x > "${pre}crash-abc"
	echo "artifact_prefix='$pre'; Test unit written to ${pre}crash-abc"
	exit 1
fi
echo "Done 1234 runs in 1 second(s)"
EOS
chmod +x fb/fuzz-kallsyms
export FAKE_OUT=$TMP/out FUZZ_BUILD=$TMP/fb FUZZ_SECONDS=1

CRASH=1 bash "$ROOT/fuzz/run.sh" empty fuzz-kallsyms > crash.log 2>&1
kept=$(sed -n 's/.*Test unit written to \([^ ]*\).*/\1/p' crash.log)
if [ -n "$kept" ] && [ -f "$kept" ] && grep -q '^not ok - fuzz fuzz-kallsyms' crash.log
then pass "a crash input stays at the path the log names"
else fail "a crash input stays at the path the log names" "$(cat crash.log)"; fi

SHARED=$TMP/no-shared bash "$ROOT/fuzz/run.sh" smoke fuzz-kallsyms > noshared.log 2>&1
rc=$?
if [ $rc -eq 0 ] && [ "$(grep -c 'reference corpus .* not present' noshared.log)" = 1 ] &&
   [ "$(cat out.corpus)" -gt 0 ]
then pass "no ../shared: said once, the run passes on the project's own seeds"
else fail "no ../shared: said once, the run passes on the project's own seeds" "rc=$rc $(cat noshared.log)"; fi
check_grep "the ok line gives the executions" '^ok - fuzz fuzz-kallsyms .*1234 runs' noshared.log
check_grep "leak detection is on, with the suppressions file" \
	"detect_leaks=1\|.*suppressions=$ROOT/tests/lsan.supp" out.env

bash "$ROOT/fuzz/run.sh" empty fuzz-kallsyms > empty.log 2>&1
if [ "$(cat out.corpus)" = 0 ] && grep -q '^ok - fuzz fuzz-kallsyms (empty' empty.log
then pass "empty mode starts from an empty corpus"
else fail "empty mode starts from an empty corpus" "$(cat out.corpus) $(cat empty.log)"; fi

# a seed list naming a file that does not exist: one line naming it
mkdir -p fz
cp "$ROOT/fuzz/run.sh" fz/
printf '%s\n' '$here/seeds/no-such-seed.bin' -max_len=4242 > fz/fuzz-kallsyms.seeds
bash fz/run.sh smoke fuzz-kallsyms > missing.log 2>&1
check_grep "a seed path that names no file is said" \
	'^# fuzz-kallsyms: seed not found: \$here/seeds/no-such-seed.bin$' missing.log
check_grep "a seed list's option line reaches the target, after the default" \
	'max_len=1048576 .*-max_len=4242 ' out.args
