#!/bin/sh
# tests/hostile/run.sh - the standing hostile-input suite (make hostile-test).
#
# Inputs made to crash, hang or exhaust the programs, generated here (none is
# committed as a large file), each run with the exit status it must have, a
# time limit (timeout) and, but for sanitizer builds, a memory limit (ulimit
# -v); plus the committed hostile cases of tests/hostile/cases and the fuzz
# regression inputs of fuzz/regress/cases and fuzz/regress/replay. Every
# finding of issue 12 (hostile input) that this part of the tree fixed has a
# check here that failed before the fix.
#
# usage: sh tests/hostile/run.sh BIN [sanitized]
#   BIN        the directory of harness, replay and selfplay
#   sanitized  the programs are sanitizer builds: no memory limit (their shadow
#              memory needs the address space), longer time limits, and any
#              sanitizer report fails the check
# The last line is "N passed, N failed".
set -u
BIN=${1:-bin}
SAN=${2:-}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
P=0 F=0
MEM_KB=1048576          # 1 GiB of address space per run
SLOW=1
[ -n "$SAN" ] && SLOW=4

ok() { echo "ok   $1"; P=$((P + 1)); }
ko() { echo "FAIL $1"; F=$((F + 1)); }

# run NAME WANT_RC SECONDS CMD...: runs CMD (output in $T/out) within the
# bounds; WANT_RC is the exit status it must have ("0-2": any of 0, 1, 2)
run() {
  name=$1 want=$2 secs=$(($3 * SLOW))
  shift 3
  if [ -n "$SAN" ]; then
    timeout "$secs" "$@" >"$T/out" 2>&1
  else
    (ulimit -v $MEM_KB 2>/dev/null; exec timeout "$secs" "$@") >"$T/out" 2>&1
  fi
  rc=$?
  if [ $rc = 124 ]; then ko "$name: did not finish within ${secs}s"; return 1; fi
  if grep -aq 'runtime error\|AddressSanitizer\|LeakSanitizer' "$T/out"; then
    ko "$name: $(grep -a -m1 'runtime error\|ERROR' "$T/out" | cut -c1-160)"
    return 1
  fi
  case $want in
  0-2) [ $rc -le 2 ] || { ko "$name: exit $rc, want 0 to 2 ($(tail -n 1 "$T/out" | cut -c1-120))"; return 1; } ;;
  *) [ $rc = "$want" ] || { ko "$name: exit $rc, want $want ($(grep -a -v '^ ' "$T/out" | tail -n 1 | cut -c1-160))"; return 1; } ;;
  esac
  return 0
}

# says NAME TEXT: the last run's output holds TEXT (fixed string)
says() {
  if grep -aqF -- "$2" "$T/out"; then return 0; fi
  ko "$1: the output lacks '$2' ($(grep -a -v '^ ' "$T/out" | tail -n 1 | cut -c1-160))"
  return 1
}

H="$BIN/harness"
R="$BIN/replay"
S="$BIN/selfplay"
CASE=$(find cases -name '*.yaml' ! -name rules.yaml ! -name schema.json | sort | head -n 1)
REPLAY=$(find replays/selfplay -name '*.gz' | sort | head -n 1)

# ---- directories: link loops, FIFOs, devices (one walk: util/walk.c) ----
mkdir -p "$T/loop/d"
cp "$CASE" "$T/loop/d/"
ln -s . "$T/loop/d/self"
ln -s .. "$T/loop/d/up"
ln -s ../d "$T/loop/d/again"
run "symlink loops in a case directory end (each directory read once)" 0 20 "$H" -j 1 "$T/loop" &&
  says "symlink loops" "a directory already read" && ok "symlink loops in a case directory end (each directory read once)"

mkdir -p "$T/rloop/sub"
cp "$REPLAY" "$T/rloop/"
ln -s . "$T/rloop/self"
ln -s .. "$T/rloop/sub/up"
ln -s ../sub "$T/rloop/sub/again"
run "symlink loops in a replay directory end" 0 20 "$R" check -j 1 "$T/rloop" &&
  says "replay symlink loops" "1 replays" && ok "symlink loops in a replay directory end"

mkdir -p "$T/special"
cp "$CASE" "$T/special/"
ln -s /dev/zero "$T/special/zero.yaml"
mkfifo "$T/special/fifo.yaml" 2>/dev/null
run "a case directory with a FIFO and a link to /dev/zero: both refused (exit 2), the rest run" 2 20 "$H" -j 1 "$T/special" &&
  says "FIFO skipped" "$T/special/fifo.yaml: skipped, not a regular file (a FIFO)" &&
  says "/dev/zero skipped" "zero.yaml: skipped, not a regular file (a link to a character device)" &&
  says "the rest run" "PASS  " &&
  ok "a case directory with a FIFO and a link to /dev/zero: both refused (exit 2), the rest run"
rm -f "$T/special/$(basename "$CASE")"
run "a case directory holding only a link to /dev/zero is bad input (exit 2), not 'no case selected'" 2 20 "$H" -j 1 "$T/special" &&
  ok "a case directory holding only a link to /dev/zero is bad input (exit 2), not 'no case selected'"
run "a missing path among case files is said, the others still run" 2 20 "$H" -j 1 "$T/no-such-dir" "$CASE" &&
  says "missing path said" "$T/no-such-dir: no such file or directory" && says "others run" "PASS  " &&
  ok "a missing path among case files is said, the others still run"
mkdir -p "$T/rspecial"
cp "$REPLAY" "$T/rspecial/"
ln -s /dev/zero "$T/rspecial/zero.gz"
mkfifo "$T/rspecial/fifo.gz" 2>/dev/null
run "a replay directory with a FIFO and a link to /dev/zero: both unreadable (exit 2), the rest checked" 2 20 "$R" check -j 1 "$T/rspecial" &&
  says "replay FIFO" "fifo.gz: UNREADABLE (io): not a regular file (a FIFO)" && says "replay rest" "1 consistent" &&
  ok "a replay directory with a FIFO and a link to /dev/zero: both unreadable (exit 2), the rest checked"
run "a FIFO named as a replay is refused at once, not waited on" 2 10 "$R" check -j 1 "$T/rspecial/fifo.gz" &&
  ok "a FIFO named as a replay is refused at once, not waited on"
run "a FIFO named as a case file is refused at once, not waited on" 2 10 "$H" -j 1 "$T/special/fifo.yaml" &&
  says "FIFO named" "not a regular file (a FIFO)" && ok "a FIFO named as a case file is refused at once, not waited on"
run "a case file linked to /dev/zero is refused, not read forever" 2 10 "$H" -j 1 "$T/special/zero.yaml" &&
  says "zero named" "not a regular file (a character device)" && ok "a case file linked to /dev/zero is refused, not read forever"
head -c 100000000 /dev/zero >"$T/zeros"
run "an endless case on standard input stops at the size limit" 2 20 sh -c "cat '$T/zeros' | '$H' -j 1 -" &&
  says "stdin limit" "larger than the input size limit of 16777216 bytes" && ok "an endless case on standard input stops at the size limit"

mkdir -p "$T/pool"
cp -r engine/cards/. "$T/pool/"
mkfifo "$T/pool/fifo.yaml" 2>/dev/null
ln -s /dev/zero "$T/pool/zero.yaml"
ln -s . "$T/pool/self"
run "a card pool directory with a FIFO, /dev/zero and a loop loads" 0 20 "$H" -j 1 --cards "$T/pool" "$CASE" &&
  ok "a card pool directory with a FIFO, /dev/zero and a loop loads"

# ---- size: the input size limit and the option that raises it ----
head -c 17000000 /dev/zero | tr '\0' '#' >"$T/big.yaml"
run "a 17 MB case file is over the 16 MiB limit" 2 20 "$H" -j 1 "$T/big.yaml" &&
  says "size limit" "larger than the input size limit" && ok "a 17 MB case file is over the 16 MiB limit"
run "--max-file-size 32M reads it (a comment: no case, exit 5)" 5 20 "$H" -j 1 --max-file-size 32M "$T/big.yaml" &&
  ok "--max-file-size 32M reads it (a comment: no case, exit 5)"
run "--max-file-size refuses what is not a size" 2 5 "$H" --max-file-size 12Q "$CASE" &&
  says "size option" "--max-file-size takes a size" && ok "--max-file-size refuses what is not a size"

# ---- documents and errors: bounded, and linear ----
yes -- --- | head -n 1000000 >"$T/many.yaml"
run "a million empty documents are refused quickly (10,000 at most)" 2 10 "$H" -j 1 "$T/many.yaml" &&
  says "document limit" "more than 10000 YAML documents in one file" && ok "a million empty documents are refused quickly (10,000 at most)"
yes -- '--- 7' | head -n 9999 >"$T/bad9999.yaml"
run "9,999 bad documents: errors kept up to a limit, each found in constant time" 2 10 "$H" -j 1 "$T/bad9999.yaml" &&
  says "error limit" "more errors in this file, not shown" && ok "9,999 bad documents: errors kept up to a limit, each found in constant time"
awk 'BEGIN { print "id: many-errors"; print "rules: [\"120.3\"]"; print "title: t"; print "source: s"; print "setup:";
  print "  players:"; print "    - name: alice"; print "      hand:"; for (i = 0; i < 100000; i++) print "        - {card: Forest, tapped: maybe}";
  print "    - name: bob"; print "expect: {state: {players: {alice: {life: 20}}}}" }' >"$T/errors.yaml"
run "100,000 errors in one case: each located without rescanning the file" 2 10 "$H" -j 1 "$T/errors.yaml" &&
  says "errors" "99900 more errors in this file, not shown" && ok "100,000 errors in one case: each located without rescanning the file"
awk 'BEGIN { print "id: k"; for (i = 0; i < 300000; i++) printf "k%d: %d\n", i, i; print "k17: again" }' >"$T/keys.yaml"
run "a mapping of 300,000 keys: its duplicate key found in linear time" 2 10 "$H" -j 1 "$T/keys.yaml" &&
  says "duplicate key" "duplicate key 'k17' (first given at line 19)" &&
  ok "a mapping of 300,000 keys: its duplicate key found in linear time"
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "case-%d   # a known failure\n", i }' >"$T/known.txt"
run "a known-failures list of 100,000 lines is read in linear time" 0 10 "$H" -j 1 --known-failures "$T/known.txt" "$CASE" &&
  ok "a known-failures list of 100,000 lines is read in linear time"

# ---- a pool of 60,000 cards loads in linear time and bounded memory ----
mkdir -p "$T/pool60k"
cp -r engine/cards/. "$T/pool60k/"
awk 'BEGIN { for (i = 0; i < 60000; i++) printf "- name: Test Bulk Card %d\n  type: Creature — Bear\n  pt: 2/2\n", i }' >"$T/pool60k/bulk.yaml"
run "a card pool of 60,000 more cards loads (linear time, bounded memory)" 0 30 "$H" -j 1 --cards "$T/pool60k" "$CASE" &&
  ok "a card pool of 60,000 more cards loads (linear time, bounded memory)"
awk 'BEGIN { print "- name: Test Dup"; print "  type: Creature — Bear"; print "  pt: 1/1"; for (i = 0; i < 60000; i++) printf "- name: Test Bulk Card %d\n  type: Creature — Bear\n  pt: 2/2\n", i; print "- name: Test Dup"; print "  type: Creature — Bear"; print "  pt: 1/1" }' >"$T/pool60k/bulk.yaml"
run "a duplicate card after 60,000 is found at once" 2 30 "$H" -j 1 --cards "$T/pool60k" "$CASE" &&
  says "duplicate card" "card 'Test Dup' is defined twice" && ok "a duplicate card after 60,000 is found at once"

# ---- numbers: the engine's range (engine/num.h), input out of range ----
run "hostile cases: numbers stay in range, a quote or a control character in input" 0-2 60 "$H" -j 1 \
  tests/hostile/cases/numbers.yaml tests/hostile/cases/control-characters.yaml
if [ $rc != 1 ]; then ko "hostile cases: exit $rc, want 1 (the one wrong expectation fails)"; else
  got=$(grep -c '^PASS' "$T/out"); failed=$(grep '^FAIL' "$T/out" | sed 's/ (.*//')
  if [ "$got" = 6 ] && [ "$failed" = "FAIL  hostile-control-characters-escaped" ]; then
    ok "numbers saturate at 2^31-1 (life, counters, power, damage, turns), no negative gain (107.1b)"
  else ko "hostile cases: $got passed, failed: $failed"; fi
  if grep -aq "$(printf '\033\|\007\|\302\233')" "$T/out"; then ko "a control character from input reached the terminal"
  elif grep -aqF 'evil \e]0;pwned\x07 title \u009b31m' "$T/out"; then ok "control characters from input are shown escaped"
  else ko "the escaped title is not in the report"; fi
fi
run "a card name holding a quote can't fool the event matcher" 1 30 "$H" -j 1 tests/hostile/cases/quote-in-name.yaml &&
  says "quote wrong" "FAIL  hostile-quote-in-name-wrong-expectation-fails" &&
  says "quote right" "PASS  hostile-quote-in-name-right-expectation-passes" &&
  ok "a card name holding a quote can't fool the event matcher"

# ---- the fuzz regression inputs (fuzz/regress): no crash, no sanitizer report ----
for f in fuzz/regress/cases/*; do
  [ -f "$f" ] || continue
  run "fuzz regression $f" 0-2 30 "$H" -j 1 "$f" && ok "fuzz regression $f"
done
for f in fuzz/regress/replay/*; do
  [ -f "$f" ] || continue
  # the first byte chose the fuzz target's mode; the rest is the replay's text
  tail -c +2 "$f" | gzip -n >"$T/regress.rpl.gz"
  run "fuzz regression $f" 0-2 30 "$R" check -j 1 "$T/regress.rpl.gz" && ok "fuzz regression $f"
done

# ---- self-play: an oversized deck is bad input ----
awk 'BEGIN { print "- {card: Forest, n: 200}"; print "- {card: Forest, n: 200}" }' >"$T/deck.yaml"
run "a deck of 400 cards is bad input (exit 2), said where" 2 20 "$S" --games 1 --seed 1 --out "$T/sp" --deck "$T/deck.yaml" \
  --deck "$T/deck.yaml" && says "deck" "deck.yaml:2:3: the deck has more than 250 cards" &&
  ok "a deck of 400 cards is bad input (exit 2), said where"

echo "$P passed, $F failed"
[ $F = 0 ]
