#!/bin/sh
# Runs the harness on each malformed case file here: each must exit 2 and
# print a located error (file:line:col) containing the text given on the
# file's "# expect:" line. usage: tests/malformed/run.sh bin/harness
H=${1:-bin/harness}
dir=$(dirname "$0")
pass=0 failn=0
for f in "$dir"/*.yaml; do
  want=$(sed -n 's/^# expect: //p' "$f" | head -1)
  out=$("$H" "$f" 2>&1)
  rc=$?
  name=$(basename "$f")
  if [ "$rc" != 2 ]; then
    echo "FAIL $name: exit $rc (want 2)"; failn=$((failn + 1)); continue
  fi
  if ! printf '%s\n' "$out" | grep -q "$name:[0-9][0-9]*:[0-9][0-9]*: "; then
    echo "FAIL $name: no file:line:col in: $out"; failn=$((failn + 1)); continue
  fi
  if ! printf '%s\n' "$out" | grep -qF -- "$want"; then
    echo "FAIL $name: message lacks '$want': $out"; failn=$((failn + 1)); continue
  fi
  if ! printf '%s\n' "$out" | grep -q '\^'; then
    echo "FAIL $name: no caret under the offending line: $out"; failn=$((failn + 1)); continue
  fi
  pass=$((pass + 1))
done
echo "malformed cases: $pass passed, $failn failed"
[ "$failn" = 0 ]
