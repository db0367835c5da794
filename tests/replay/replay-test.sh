#!/bin/sh
# tests/replay/replay-test.sh - the replay-test part of `make test`: the
# corpus under replays/ checks clean, every kind of tampering with a replay
# is caught with the right exit status and a message naming the place, and
# self-play is deterministic. Tampered files are made here, from the first
# corpus replay, never committed.
# usage: sh tests/replay/replay-test.sh BINDIR [sample]   (from the project root)
# With "sample" (the sanitizer build, which is slow), the corpus check and
# the recording of the cases take every tenth file and one directory.
set -u
bin=${1:-bin} sample=${2:-}
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
elif [ -n "$sample" ]; then
  if "$R" check $(find replays -name '*.gz' | sort | awk 'NR % 10 == 1') replays/compat >"$tmp/out" 2>&1
  then ok "corpus, every tenth replay: $(tail -n 1 "$tmp/out")"; else ko "corpus sample: replay check exits $?"; fi
elif "$R" check replays >"$tmp/out" 2>&1; then ok "corpus: $(tail -n 1 "$tmp/out")"
else ko "corpus: replay check replays exits $? (after an intended change of the engine's log: make replay-corpus)"
fi

# the first self-play replay (in path order) that checks clean and where a
# player attacks, so that every kind of record is there to tamper with; if
# the corpus is stale (its failure is reported above), a fresh game instead
attacks() { zcat "$1" 2>/dev/null | grep -q '^decide kind=attackers .*choice=[^n]'; }
base=
for f in $(find replays/selfplay -name '*.gz' | sort); do
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

# a target chosen inside an action: the report keeps the action's recorded
# lines apart from the lines both sides logged, and names the decision before
tg=$(awk -v m="$first" 'NR > m && /^decide kind=target / { print NR; exit }' "$tmp/plain")
if [ -n "$tg" ]; then
  awk -v k="$tg" 'NR == k { sub(/choice=.*/, "choice=nobody") } { print }' "$tmp/plain" | mk target
  expect "an illegal target inside an action" 1 "$tmp/target.rpl.gz" "DIVERGENCE \(illegal\): decision [0-9]+ is no longer legal: \"nobody\"" \
    "^  after decision [0-9]+: decide kind=priority " "^  then recorded, not yet compared \(an action in progress\):$"
  # the line that began the action (before its options record)
  act=$(awk -v k="$tg" 'NR < k && !/^@/ { l = $0 } NR == k { print l; exit }' "$tmp/plain")
  if sed -n '/^  then recorded/,$p' "$tmp/out" | grep -qxF "    $act"; then
    ok "the action's recorded lines are shown apart, not as the engine's"
  else ko "the action's line '$act' is not among the recorded lines not yet compared"; fi
else
  ko "no target decision in $base"
fi

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
expect "newer format version" 2 "$tmp/version.rpl.gz" "UNREADABLE \(version\): unsupported replay format version 99: this build reads versions 1 to [0-9]+"

# ---- tampering with what a forger would keep consistent (tests/replay/tamper.py) ----
T="python3 tests/replay/tamper.py"
tamper() { $T "$1" "$base" "$tmp/$1.rpl.gz" ${2:+"$2"}; }
tamper cut-open
expect "cut short, trailer rewritten as open" 1 "$tmp/cut-open.rpl.gz" "INCOMPLETE \(cut-short\): the game is not over"
tamper cut-abandoned
expect "cut short, trailer rewritten as abandoned" 1 "$tmp/cut-abandoned.rpl.gz" "INCOMPLETE \(abandoned\): the recording was abandoned"
tamper drop-checkpoint
expect "a checkpoint removed" 1 "$tmp/drop-checkpoint.rpl.gz" "DIVERGENCE \(checkpoint\): the recording lacks the checkpoint due after event [0-9]+"
tamper drop-options
expect "an options record removed" 1 "$tmp/drop-options.rpl.gz" "DIVERGENCE \(options\): decision [0-9]+ lacks the record of its options"
tamper alter-options
expect "an options record altered" 1 "$tmp/alter-options.rpl.gz" "DIVERGENCE \(options\): decision [0-9]+: the engine offers other options than the recording" "^  actual: +options: "
tamper seed
expect "the header's seed edited" 1 "$tmp/seed.rpl.gz" "DIVERGENCE \(header\): the header's seed is not the setup's"
tamper players
expect "the header's players edited" 1 "$tmp/players.rpl.gz" "DIVERGENCE \(header\): the header's players is not the setup's"
tamper engine
expect "another engine version is reported" 0 "$tmp/engine.rpl.gz" ": ok \(" "note: recorded with engine 0.0.1-old"
tamper setup-nohash
expect "the setup edited, its hash not" 1 "$tmp/setup-nohash.rpl.gz" "DIVERGENCE \(tampered\): line [0-9]+: the setup does not match its hash"
tamper card-nohash
expect "a card definition edited, its hash not" 1 "$tmp/card-nohash.rpl.gz" "DIVERGENCE \(tampered\): line [0-9]+: card \"[^\"]+\": the definition does not match its hash"
card=$(zcat "$base" | sed -n 's/^card pool [0-9]* [0-9a-f]* "\(.*\)"$/\1/p' | while read -r c; do
  zcat "$base" | sed -n "/^card pool [0-9]* [0-9a-f]* \"$c\"$/,/^card /p" | grep -q '^  text: [A-Z]' && { echo "$c"; break; }; done)
tamper card-text "$card"
# the state hashes of the checkpoints cover the definitions of the cards in the game
expect "a card redefined in the replay (hash recomputed): reported, and the checkpoints differ" 1 "$tmp/card-text.rpl.gz" "DIVERGENCE \(checkpoint\): the checkpoint after event [0-9]+ differs" "^  redefines \(defined otherwise in engine/cards\): $card \(recorded [0-9a-f]{16}, pool [0-9a-f]{16}\)"
"$R" check -j 1 --cards engine/cards "$tmp/card-text.rpl.gz" >"$tmp/out" 2>&1; rc=$?
if [ $rc = 1 ] && grep -Eq "POOL-CHANGED \(pool-changed\): 1 card the game used is defined differently in engine/cards" "$tmp/out" &&
   grep -Eq "^  changed in engine/cards: $card \(recorded [0-9a-f]{16}, now [0-9a-f]{16}\)" "$tmp/out"
then ok "a card redefined in the replay, checked against the pool: pool-changed (exit 1)"; else ko "pool-changed: exit $rc"; fi
tamper card-bad "$card"
expect "a malformed card definition (hash recomputed)" 2 "$tmp/card-bad.rpl.gz" "UNREADABLE \(cards\): line [0-9]+: card \"$card\": unknown key 'colour'"

# ---- recorded definitions against an edited pool ----
corpus=replays
[ -n "$sample" ] && corpus="$base $(find replays -name '*.gz' | sort | awk 'NR % 10 == 1')"
cp -r engine/cards "$tmp/pool-new"
printf -- '- name: Replay Test Newcard\n  cost: "{1}"\n  type: Artifact\n  text: ""\n' >"$tmp/pool-new/zz_new.yaml"
if "$R" check --cards "$tmp/pool-new" $corpus >"$tmp/out" 2>&1; then ok "a card added to the pool changes no result: $(tail -n 1 "$tmp/out")"
else ko "a card added to the pool: exit $?"; fi
cp -r engine/cards "$tmp/pool-edit"
f=$(grep -rl "^- name: $card\$" "$tmp/pool-edit" | head -n 1)
sed -i "/^- name: $card\$/,/^- name:/ s/^\(  text: \).*/\1\"edited in the pool\"/" "$f"
"$R" check --cards "$tmp/pool-edit" $corpus >"$tmp/out" 2>&1; rc=$?
if [ $rc = 1 ] && grep -q "POOL-CHANGED" "$tmp/out" && ! grep -q "DIVERGENCE" "$tmp/out" && grep -q "changed in .*: $card (recorded" "$tmp/out"
then ok "a used card edited in the pool: pool-changed, never a divergence (exit 1)"; else ko "a used card edited in the pool: exit $rc"; fi
if "$R" check $corpus >"$tmp/out" 2>&1; then ok "the default check plays with the recorded definitions"; else ko "the default check: exit $?"; fi

# ---- version 1: a frozen sample, checked with the pool frozen beside it ----
v1=$(find replays/compat -name '*.gz' | sort | head -n 1)
if [ -z "$v1" ]; then ko "no version-1 replay in replays/compat"
else
  zcat "$v1" >"$tmp/v1plain"
  if head -n 1 "$tmp/v1plain" | grep -q '^arbiter-replay 1$'; then ok "replays/compat holds version-1 files"; else ko "$v1 is not version 1"; fi
  if "$R" check --cards "$tmp/pool-new" replays/compat >"$tmp/out" 2>&1; then ok "version-1 replays check with the pool frozen beside them"
  else ko "version-1 replays with another pool given: exit $?"; fi
  sed 's/^pool .*/pool 0123456789abcdef/' "$tmp/v1plain" | mk pool
  expect "version 1: another card pool" 2 "$tmp/pool.rpl.gz" "UNREADABLE \(pool\): refused: the card pool differs: recorded with pool 0123456789abcdef \(engine [^)]*\), this pool is"
fi

: >"$tmp/empty.rpl.gz"
expect "empty file" 2 "$tmp/empty.rpl.gz" "UNREADABLE \(format\): empty file"

printf 'hello\n' | mk text
expect "not a replay" 2 "$tmp/text.rpl.gz" "UNREADABLE \(format\): line 1: not a replay"

sed '$d' "$tmp/plain" | mk notrailer
expect "no trailer" 2 "$tmp/notrailer.rpl.gz" "UNREADABLE \(truncated\): truncated: the log ends after event [0-9]+ without a trailer"

"$R" check -j 1 "$base" "$tmp/altered.rpl.gz" "$tmp/empty.rpl.gz" >"$tmp/out" 2>&1
rc=$?
if [ $rc = 2 ] && grep -q "^3 replays: 1 consistent, 1 diverged, 1 unreadable" "$tmp/out"; then ok "mixed input: the worst outcome decides (exit 2)"
else ko "mixed input: exit $rc"; fi

"$R" check --format json -j 1 "$tmp/altered.rpl.gz" >"$tmp/out" 2>&1
if grep -Eq '^\{"file":".*","result":"divergence","kind":"event",.*"event":[0-9]+,"decision":[0-9]+,"turn":[0-9]+,"step":"[a-z_0-9]+","expected":".*","actual":".*","context":\[' "$tmp/out"
then ok "json report of a divergence"; else ko "json report of a divergence"; fi

# ---- re-recording ----
cp "$base" "$tmp/again.rpl.gz"
if "$R" rerecord "$tmp/again.rpl.gz" >"$tmp/out" 2>&1 && cmp -s "$base" "$tmp/again.rpl.gz"
then ok "rerecord with the same engine writes the same bytes"; else ko "rerecord: exit $?, or other bytes"; fi
cp "$tmp/illegal.rpl.gz" "$tmp/illegal-again.rpl.gz"
"$R" rerecord "$tmp/illegal-again.rpl.gz" >"$tmp/out" 2>&1; rc=$?
if [ $rc = 1 ] && grep -q "DIVERGENCE (decision): decision [0-9]* can't be given to the engine" "$tmp/out" &&
   cmp -s "$tmp/illegal.rpl.gz" "$tmp/illegal-again.rpl.gz"
then ok "rerecord of a decision the engine refuses: exit 1, the file left as it was"; else ko "rerecord of an illegal decision: exit $rc"; fi
if [ -n "$v1" ]; then
  mkdir -p "$tmp/v1dir" && cp -r "$v1" replays/compat/pool-* "$tmp/v1dir/"
  f=$tmp/v1dir/$(basename "$v1")
  if "$R" rerecord "$f" >/dev/null 2>&1 && [ "$(zcat "$f" | head -n 1)" = "arbiter-replay 1" ] && cmp -s "$v1" "$f" &&
     "$R" check "$f" >/dev/null 2>&1
  then ok "rerecord keeps a version-1 replay in version 1"; else ko "rerecord of a version-1 replay"; fi
fi

# ---- dump and diff ----
if "$R" dump "$base" >"$tmp/out" 2>&1 && grep -q "^ *1 game_start" "$tmp/out"; then ok "dump numbers the events"
else ko "dump"; fi
"$R" diff "$base" "$tmp/altered.rpl.gz" >"$tmp/out" 2>&1
rc=$?
if [ $rc = 1 ] && grep -Eq "event $(evno "$ev") differs" "$tmp/out"; then ok "diff finds the first difference"
else ko "diff: exit $rc"; fi
if "$R" diff "$base" "$base" >"$tmp/out" 2>&1; then ok "diff of a file with itself"; else ko "diff of a file with itself"; fi

# ---- writing: never through a link; what the harness records checks clean ----
H=$bin/harness
if [ -x "$H" ]; then
  sh tests/replay/hostile-cases.sh "$tmp/hostile"
  mkdir "$tmp/rec"
  cases=cases
  [ -n "$sample" ] && cases=cases/603
  # stderr apart: its lines (the warnings count) may land inside a line of the report
  "$H" -j 2 --record "$tmp/rec" $cases "$tmp/hostile" >"$tmp/out" 2>"$tmp/err"; rc=$?
  ncase=$(grep -c '^\(PASS\|FAIL\|XFAIL\|XPASS\) ' "$tmp/out")
  nrec=$(find "$tmp/rec" -name '*.gz' | wc -l)
  if [ $rc -le 1 ] && [ "$nrec" -gt 0 ] && [ "$nrec" = "$ncase" ] && "$R" check "$tmp/rec" >"$tmp/out" 2>&1
  then ok "every case recorded ($nrec, with hostile but valid ones: long lines, flow style, ids beginning with '.') checks clean"
  else ko "recording the cases: harness exit $rc, $ncase cases run, $nrec recorded, check: $(tail -n 1 "$tmp/out")"; fi
  for name in hostile-flow-style hostile-long-card-line %2E %2E. %2Ehidden hostile-quoted-name; do
    [ -f "$tmp/rec/$name.gz" ] || ko "no recording $name.gz"
  done
  # an id too long to be a file name: the other cases are recorded, exit 2
  long=$(awk 'BEGIN { for (i = 0; i < 300; i++) printf "y" }')
  sed "s/^id: hostile-long-id-x*/id: $long/" "$tmp/hostile/long-id.yaml" >"$tmp/toolong.yaml"
  mkdir "$tmp/rec2"
  "$H" -j 1 --record "$tmp/rec2" "$tmp/toolong.yaml" "$tmp/hostile/flow.yaml" >"$tmp/out" 2>&1; rc=$?
  if [ $rc = 2 ] && grep -q "1 case not recorded" "$tmp/out" && [ -f "$tmp/rec2/hostile-flow-style.gz" ]
  then ok "an id that can't be a file name: exit 2, the others recorded"; else ko "an over-long id: exit $rc"; fi
  "$H" -j 1 --record "$tmp/missing/dir" "$tmp/hostile/flow.yaml" >"$tmp/out" 2>&1; rc=$?
  [ $rc = 2 ] && ok "--record into a directory that can't be made: exit 2" || ko "--record into a missing directory: exit $rc"
  # a link planted at the output name: replaced, its target untouched
  mkdir "$tmp/rec3"; echo precious >"$tmp/victim"
  ln -s "$tmp/victim" "$tmp/rec3/hostile-flow-style.gz"
  "$H" -j 1 --record "$tmp/rec3" "$tmp/hostile/flow.yaml" >/dev/null 2>&1
  if [ "$(cat "$tmp/victim")" = precious ] && [ ! -L "$tmp/rec3/hostile-flow-style.gz" ] && "$R" check "$tmp/rec3" >/dev/null 2>&1
  then ok "--record never writes through a link at an output name"; else ko "--record followed a planted link"; fi
else
  ko "no $H to record cases with"
fi
mkdir "$tmp/sp3"; ln -s "$tmp/victim" "$tmp/sp3/game-0001.rpl.gz"
"$S" --games 1 --seed 3 --out "$tmp/sp3" >/dev/null 2>&1
if [ "$(cat "$tmp/victim")" = precious ] && [ ! -L "$tmp/sp3/game-0001.rpl.gz" ]
then ok "selfplay --out never writes through a link at an output name"; else ko "selfplay followed a planted link"; fi
: >"$tmp/afile"
"$S" --games 1 --seed 3 --out "$tmp/afile/sub" >/dev/null 2>&1; rc=$?
[ $rc = 2 ] && ok "selfplay --out where no directory can be made: exit 2" || ko "selfplay --out under a file: exit $rc"

# ---- bounds: inputs past every bound are refused, none takes over 64 MiB ----
# (tests/replay/bounds.py writes them; a time limit only catches a hang)
peak() { # peak COMMAND...: runs it, prints its exit status and peak memory in KiB
  python3 -c 'import resource, subprocess, sys
rc = subprocess.run(sys.argv[2:], stdout=open(sys.argv[1], "w"), stderr=subprocess.STDOUT).returncode
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$tmp/out" timeout 120 "$@"
}
if command -v python3 >/dev/null 2>&1 && python3 tests/replay/bounds.py "$base" "$tmp/bounds"; then
  for f in "$tmp"/bounds/*.gz; do
    name=$(basename "$f" .gz)
    set -- $(peak "$R" check -j 1 "$f")
    rc=$1 kb=$2
    if [ "$rc" -gt 2 ]; then ko "bounds: $name: exit $rc"
    elif [ "${name%%-*}" = over ] && [ "$rc" != 2 ]; then ko "bounds: $name: exit $rc, want 2"
    elif [ "${name%%-*}" = within ] && [ "$rc" -gt 1 ]; then ko "bounds: $name: exit $rc, want 0 or 1"
    elif [ -z "$sample" ] && [ "$kb" -gt 65536 ]; then ko "bounds: $name: $kb KiB at the peak, over 64 MiB"
    else ok "bounds: $name: exit $rc, $kb KiB at the peak"; fi
  done
else
  ko "bounds: tests/replay/bounds.py could not write the inputs (python3?)"
fi

# ---- gzip members: a replay is one compressed stream however many members ----
# Recordings written before the writer compressed header and log as one member
# are two or more concatenated members (as zcat reads them): they still check,
# and a member boundary inside a line changes nothing.
{ sed -n "1,${first}p" "$tmp/plain" | gzip -c; sed -n "$((first + 1)),${mid}p" "$tmp/plain" | gzip -c
  sed -n "$((mid + 1)),\$p" "$tmp/plain" | head -c 7 | gzip -c; sed -n "$((mid + 1)),\$p" "$tmp/plain" | tail -c +8 | gzip -c; } >"$tmp/members.rpl.gz"
zcat "$tmp/members.rpl.gz" >"$tmp/members.txt"
if cmp -s "$tmp/plain" "$tmp/members.txt" && "$R" check -j 1 "$tmp/members.rpl.gz" >"$tmp/out" 2>&1; then ok "a replay written as four gzip members checks clean"
else ko "a replay of four gzip members: not read as one stream"; fi

# ---- shards: a partition of the input set ----
all=$("$R" check --format json replays/selfplay replays/compat | sed 's/","result.*//' | sort)
sh=$(for i in 1 2 3; do "$R" check --format json --shard $i/3 replays/selfplay replays/compat; done | sed 's/","result.*//' | sort)
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
