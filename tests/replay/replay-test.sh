#!/bin/sh
# tests/replay/replay-test.sh - the replay-test part of `make test`: the
# corpus under replays/ checks clean, every kind of tampering with a replay
# is caught with the right exit status and a message naming the place, and
# self-play is deterministic. Tampered files are made here, from the first
# corpus replay, never committed.
# usage: sh tests/replay/replay-test.sh BINDIR   (from the project root)
set -u
bin=${1:-bin}
R=$bin/replay S=$bin/selfplay
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

ok() { echo "ok   $1"; pass=$((pass + 1)); }
ko() { echo "FAIL $1"; [ -f "$tmp/out" ] && sed 's/^/     | /' "$tmp/out" | head -n 12; fail=$((fail + 1)); }

# expect NAME STATUS FILE PATTERN...: `replay check FILE` exits with STATUS
# and its output has a line matching each extended regular expression
expect() {
  name=$1 want=$2 file=$3
  shift 3
  "$R" check -j 1 "$file" >"$tmp/out" 2>&1
  rc=$?
  if [ "$rc" != "$want" ]; then ko "$name: exit $rc, want $want"; return; fi
  for pat in "$@"; do
    if ! grep -Eq -- "$pat" "$tmp/out"; then ko "$name: no line matches /$pat/"; return; fi
  done
  ok "$name (exit $rc)"
}

# ---- the corpus ----
n=$(find replays -name '*.gz' | wc -l)
if [ "$n" -lt 50 ]; then ko "corpus: $n replays under replays/ (want at least 50)"
elif "$R" check replays >"$tmp/out" 2>&1; then ok "corpus: $(tail -n 1 "$tmp/out")"
else ko "corpus: replay check replays exits $? (re-record with make replay-corpus after a card pool change)"
fi

# the first corpus replay (in path order) that checks clean and where a
# player attacks, so that every kind of record is there to tamper with; if
# the corpus is stale (its failure is reported above), a fresh game instead
attacks() { zcat "$1" 2>/dev/null | grep -q '^decide kind=attackers .*choice=[^n]'; }
base=
for f in $(find replays -name '*.gz' | sort); do
  if attacks "$f" && "$R" check "$f" >/dev/null 2>&1; then base=$f; break; fi
done
if [ -z "$base" ]; then
  "$S" --games 8 --seed 5 --out "$tmp/fresh" >/dev/null 2>&1
  for f in "$tmp"/fresh/*.gz; do
    if attacks "$f"; then base=$f; break; fi
  done
  echo "note: tampering with $base (no corpus replay checks clean)"
fi
[ -n "$base" ] && zcat "$base" >"$tmp/plain" || { ko "no replay with an attack to tamper with"; echo "$pass passed, $fail failed"; exit 1; }
# the log begins after the "log" line; pick lines well inside it
first=$(grep -n '^log$' "$tmp/plain" | cut -d: -f1)
lines=$(wc -l <"$tmp/plain")
mid=$(( first + (lines - first) * 6 / 10 ))
# line numbers (in the file) of kinds of records at or after mid
after() { awk -v m="$mid" -v re="$1" 'NR >= m && $0 ~ re { print NR; exit }' "$tmp/plain"; }
ev=$(after '^(zone|damage|tap|draw|play_land|activate|add_mana) ')
dec=$(after '^decide kind=priority ')
att=$(awk -v m="$first" 'NR > m && /^decide kind=attackers .*choice=[^n]/ { print NR; exit }' "$tmp/plain")
cp=$(after '^@checkpoint ')
# the event number check reports for file line L: log lines before it, plus one
evno() { awk -v f="$first" -v l="$1" 'NR > f && NR < l && !/^@/ { n++ } END { print n + 1 }' "$tmp/plain"; }
mk() { gzip -c >"$tmp/$1.rpl.gz"; }

# ---- tampering: each must be caught ----
awk -v k="$ev" 'NR == k { sub(/[0-9]/, "&0") } { print }' "$tmp/plain" | mk altered
expect "altered event" 1 "$tmp/altered.rpl.gz" "DIVERGENCE .*event $(evno "$ev") differs"

sed "${ev}d" "$tmp/plain" | mk dropped
expect "dropped event" 1 "$tmp/dropped.rpl.gz" "DIVERGENCE \(event\): event $(evno "$ev") differs" "^  at event $(evno "$ev"), decision [0-9]+, turn [0-9]+, step [a-z_0-9]+$" "^  expected: +[a-z]" "^  actual: +[a-z]" "^  before it:$"

awk -v k="$ev" 'NR == k { print "tap obj=\"Forest\"#1" } { print }' "$tmp/plain" | mk inserted
expect "inserted event" 1 "$tmp/inserted.rpl.gz" "DIVERGENCE \(event\): event $(evno "$ev") differs" "^  expected: +tap obj=\"Forest\"#1$"

if [ -n "$att" ]; then
  # an attack declared becomes no attack: a legal choice, other events follow
  awk -v k="$att" 'NR == k { sub(/choice=.*/, "choice=none") } { print }' "$tmp/plain" | mk decision
  expect "altered decision" 1 "$tmp/decision.rpl.gz" "DIVERGENCE \(event\): event $(( $(evno "$att") + 1 )) differs" "^    decide kind=attackers .*choice=none$"
else
  ko "altered decision: no attack declared in $base"
fi

awk -v k="$dec" 'NR == k { sub(/choice=.*/, "choice=cast \"Lightning Bolt\"#999") } { print }' "$tmp/plain" | mk illegal
expect "illegal decision" 1 "$tmp/illegal.rpl.gz" "DIVERGENCE \(illegal\): decision [0-9]+ is no longer legal: \"cast \"Lightning Bolt\"#999\" is not among" "^  at event $(evno "$dec"), decision"

awk -v k="$cp" 'NR == k { sub(/hash=./, "hash=x") } { print }' "$tmp/plain" | mk checkpoint
expect "wrong checkpoint hash" 1 "$tmp/checkpoint.rpl.gz" "DIVERGENCE \(checkpoint\): the checkpoint after event $(( $(evno "$cp") - 1 )) differs"

sed 's/^\(@end .*chain=\)./\1z/' "$tmp/plain" | mk chain
expect "wrong hash chain in the trailer" 1 "$tmp/chain.rpl.gz" "DIVERGENCE \(trailer\)"

size=$(wc -c <"$base")
head -c $((size / 2)) "$base" >"$tmp/truncated.rpl.gz"
expect "truncated file" 2 "$tmp/truncated.rpl.gz" "UNREADABLE \(truncated\): truncated: the compressed stream ends unexpectedly at byte [0-9]+ \(after event [0-9]+, turn [0-9]+\)"

# one byte of the compressed data (not the header) inverted
cp "$base" "$tmp/flipped.rpl.gz"
at=$((size / 2))
b=$(od -An -tu1 -j "$at" -N 1 "$base" | tr -d ' ')
printf "$(printf '\\%03o' $((255 - b)))" | dd of="$tmp/flipped.rpl.gz" bs=1 seek="$at" conv=notrunc 2>/dev/null
expect "flipped byte in the compressed data" 2 "$tmp/flipped.rpl.gz" "UNREADABLE \(corrupt\): damaged compressed data at byte [0-9]+"

sed '1s/.*/arbiter-replay 99/' "$tmp/plain" | mk version
expect "newer format version" 2 "$tmp/version.rpl.gz" "UNREADABLE \(version\): unsupported replay format version 99: this build reads versions 1 to 1"

sed 's/^pool .*/pool 0123456789abcdef/' "$tmp/plain" | mk pool
expect "other card pool" 2 "$tmp/pool.rpl.gz" "UNREADABLE \(pool\): refused: the card pool differs: recorded with pool 0123456789abcdef \(engine [^)]*\), this pool is"

: >"$tmp/empty.rpl.gz"
expect "empty file" 2 "$tmp/empty.rpl.gz" "UNREADABLE \(format\): empty file"

printf 'hello\n' | mk text
expect "not a replay" 2 "$tmp/text.rpl.gz" "UNREADABLE \(format\): not a replay"

sed '$d' "$tmp/plain" | mk notrailer
expect "no trailer" 2 "$tmp/notrailer.rpl.gz" "UNREADABLE \(truncated\): truncated: the log ends after event [0-9]+ without a trailer"

"$R" check -j 1 "$base" "$tmp/altered.rpl.gz" "$tmp/empty.rpl.gz" >"$tmp/out" 2>&1
rc=$?
if [ $rc = 2 ] && grep -q "^3 replays: 1 consistent, 1 diverged, 1 unreadable" "$tmp/out"; then ok "mixed input: the worst outcome decides (exit 2)"
else ko "mixed input: exit $rc"; fi

"$R" check --format json -j 1 "$tmp/altered.rpl.gz" >"$tmp/out" 2>&1
if grep -Eq '^\{"file":".*","result":"divergence","kind":"event",.*"event":[0-9]+,"decision":[0-9]+,"turn":[0-9]+,"step":"[a-z_0-9]+","expected":".*","actual":".*","context":\[' "$tmp/out"
then ok "json report of a divergence"; else ko "json report of a divergence"; fi

# ---- dump and diff ----
if "$R" dump "$base" >"$tmp/out" 2>&1 && grep -q "^ *1 game_start" "$tmp/out"; then ok "dump numbers the events"
else ko "dump"; fi
"$R" diff "$base" "$tmp/altered.rpl.gz" >"$tmp/out" 2>&1
rc=$?
if [ $rc = 1 ] && grep -Eq "event $(evno "$ev") differs" "$tmp/out"; then ok "diff finds the first difference"
else ko "diff: exit $rc"; fi
if "$R" diff "$base" "$base" >"$tmp/out" 2>&1; then ok "diff of a file with itself"; else ko "diff of a file with itself"; fi

# ---- shards: a partition of the input set ----
all=$("$R" check --format json replays | sed 's/","result.*//' | sort)
sh=$(for i in 1 2 3; do "$R" check --format json --shard $i/3 replays; done | sed 's/","result.*//' | sort)
if [ -n "$all" ] && [ "$all" = "$sh" ]; then ok "--shard I/3 for I=1..3 checks each file once"
else ko "--shard does not partition the files"; fi

# ---- self-play ----
if "$S" --games 4 --seed 77 --out "$tmp/a" -j 1 >/dev/null 2>&1 &&
   "$S" --games 4 --seed 77 --out "$tmp/b" -j 2 >/dev/null 2>&1 &&
   diff -r "$tmp/a" "$tmp/b" >/dev/null; then ok "selfplay: the same seed gives the same files with -j 1 and -j 2"
else ko "selfplay determinism"; fi
if "$R" check "$tmp/a" >"$tmp/out" 2>&1; then ok "selfplay replays check clean"; else ko "selfplay replays do not check clean"; fi
if "$R" check "$tmp/a" 2>"$tmp/err" >/dev/null && [ ! -s "$tmp/err" ]; then ok "no progress output when stderr is not a terminal"
else ko "stderr output when not a terminal"; fi

echo "$pass passed, $fail failed"
[ $fail = 0 ]
