#!/bin/sh
# tests/replay/cases-test.sh - the cases-test part of `make test`: the golden
# recordings. replays/cases/ must hold the recording of every case that runs,
# exactly as the tree records it now, and nothing else (each also checks
# clean in replay-test's check of the corpus). A case added without its
# recording, a recording of a case that is gone, or a case or an engine log
# changed without recording again fails, naming them; what the engine now
# does differently is shown by rule (bin/replay impact). `make record-cases`
# writes them all again.
# usage: sh tests/replay/cases-test.sh BINDIR   (from the project root)
set -u
bin=${1:-bin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

mkdir "$tmp/now"
"$bin/harness" -j 2 --quiet --record "$tmp/now" cases >"$tmp/out" 2>&1
rc=$?
if [ $rc -gt 1 ]; then
  echo "FAIL recording the cases: harness exit $rc"
  tail -n 5 "$tmp/out" | sed 's/^/     | /'
  echo "0 passed, 1 failed"
  exit 1
fi
ls "$tmp/now" | grep '\.gz$' | sort >"$tmp/want"
ls replays/cases 2>/dev/null | grep '\.gz$' | sort >"$tmp/have"
comm -23 "$tmp/want" "$tmp/have" >"$tmp/missing"
comm -13 "$tmp/want" "$tmp/have" >"$tmp/extra"
comm -12 "$tmp/want" "$tmp/have" | while read -r f; do cmp -s "$tmp/now/$f" "replays/cases/$f" || echo "$f"; done >"$tmp/stale"

report() { # report NAME FILE WHAT
  if [ ! -s "$2" ]; then
    echo "ok   $1 ($(wc -l <"$tmp/want") recordings)"
    pass=$((pass + 1))
  else
    echo "FAIL $1: $(wc -l <"$2") $3; make record-cases writes them again:"
    head -n 20 "$2" | sed 's/^/     | replays\/cases\//'
    fail=$((fail + 1))
  fi
}
report "every case that runs has its recording in replays/cases" "$tmp/missing" "cases have no recording"
report "every recording in replays/cases is of a case" "$tmp/extra" "recordings are of no case"
report "every recording is what the case records now" "$tmp/stale" "recordings differ from what their case records now (the case or the engine's log changed)"
if [ -s "$tmp/stale" ]; then
  # what the engine does differently with the recorded decisions, by rule
  "$bin/replay" impact $(sed 's|^|replays/cases/|' "$tmp/stale" | head -n 200) 2>&1 | head -n 60 | sed 's/^/     | /'
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
