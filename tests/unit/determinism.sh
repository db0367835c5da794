#!/bin/sh
# tests/unit/determinism.sh - the same seeded games built two ways (gcc -O0
# and clang -O2, in two build directories) must write byte-identical files:
# the soak driver's game logs always, and bin/selfplay's replay files when the
# tree has selfplay.
# usage: sh tests/unit/determinism.sh BUILD_A BUILD_B [selfplay]
set -u
a=$1 b=$2 sp=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
games=${DET_GAMES:-30}
seed=${DET_SEED:-4242}
pass=0 fail=0 skip=0

ok() { echo "ok   $1"; pass=$((pass + 1)); }
ko() { echo "FAIL $1"; fail=$((fail + 1)); }

for v in "$a" "$b"; do
  mkdir -p "$tmp/$(basename "$v")"
  "$v/tests/soak" --games "$games" --seed "$seed" --out "$tmp/$(basename "$v")/soak" --quiet >/dev/null 2>"$tmp/$(basename "$v").err"
done
na=$(ls "$tmp/$(basename "$a")/soak" 2>/dev/null | wc -l)
if [ "$na" -lt "$games" ]; then
  ko "soak logs: $a wrote $na of $games games ($(head -c 300 "$tmp/$(basename "$a").err"))"
elif diff -r "$tmp/$(basename "$a")/soak" "$tmp/$(basename "$b")/soak" >"$tmp/diff" 2>&1; then
  ok "soak logs of $games games identical under $(basename "$a") and $(basename "$b") ($(cat "$tmp/$(basename "$a")"/soak/* | wc -l) lines)"
else
  ko "soak logs differ between $(basename "$a") and $(basename "$b"):"
  head -n 20 "$tmp/diff"
fi

if [ -n "$sp" ]; then
  for v in "$a" "$b"; do
    "$v/bin/selfplay" --games 10 --seed "$seed" --out "$tmp/$(basename "$v")/selfplay" >/dev/null 2>&1
  done
  n=$(find "$tmp/$(basename "$a")/selfplay" -type f 2>/dev/null | wc -l)
  if [ "$n" = 0 ]; then
    ko "selfplay under $(basename "$a") wrote no replay files"
  elif diff -r "$tmp/$(basename "$a")/selfplay" "$tmp/$(basename "$b")/selfplay" >/dev/null 2>&1; then
    ok "selfplay replays ($n files) byte-identical under $(basename "$a") and $(basename "$b")"
  else
    ko "selfplay replays differ between $(basename "$a") and $(basename "$b")"
  fi
else
  echo "SKIP selfplay replays: no selfplay program in this tree yet"
  skip=$((skip + 1))
fi

if [ $skip -gt 0 ]; then echo "$pass passed, $fail failed, $skip skipped"; else echo "$pass passed, $fail failed"; fi
[ $fail = 0 ]
