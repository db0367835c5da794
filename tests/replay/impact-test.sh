#!/bin/sh
# tests/replay/impact-test.sh - the impact-test part of `make test`: the
# engine-change report on a deliberate change. This tree's build records the
# cases and a few self-play games (the base); a scratch copy of the tree whose
# engine lets a player live with ten poison counters (704.5c) is built and
# checks them (mk/impact.sh, as `make impact` runs it). Its report must fail
# (exit 1), name rule 704.5c with cases that cite it and their first
# differing line, and leave out a case the change can't touch; the report of
# the unchanged build must exit 0.
# usage: sh tests/replay/impact-test.sh BINDIR BUILDDIR   (from the project root)
set -u
bin=${1:-bin} build=${2:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
ko() { echo "FAIL $1"; fail=$((fail + 1)); }

IMPACT_GAMES=10 sh mk/impact.sh . "$bin" "$bin" "$tmp/same" >"$tmp/same.out" 2>&1
rc=$?
if [ $rc = 0 ] && grep -q "^impact: 0 of [0-9]* replays changed$" "$tmp/same.out"; then ok "the same engine: nothing changed (exit 0)"
else ko "the same engine: exit $rc: $(tail -n 2 "$tmp/same.out")"; fi

# the scratch copy: the tree as it is, with the objects already built (times
# kept), so that only the changed file is compiled again
mkdir -p "$tmp/copy/build"
tar --exclude=./build --exclude=./bin --exclude=./.git -cf - . | tar -xf - -C "$tmp/copy"
for d in engine util tools; do [ -d "$build/$d" ] && cp -rp "$build/$d" "$tmp/copy/build/"; done
sleep 1 # the change is newer than every object
sed -i 's/>= 10) rule = rule ?/>= 11) rule = rule ?/' "$tmp/copy/engine/sba.c"
if ! grep -q '>= 11) rule = rule ?' "$tmp/copy/engine/sba.c"; then
  ko "the deliberate change (engine/sba.c, 704.5c at 10 poison counters) no longer applies: update this test"
  echo "$pass passed, $fail failed"
  exit 1
fi
if ! make -C "$tmp/copy" -j2 B=build BIN=bin CC="${CC:-cc}" bin/replay >"$tmp/build.log" 2>&1; then
  ko "the scratch copy does not build: $(tail -n 3 "$tmp/build.log")"
  echo "$pass passed, $fail failed"
  exit 1
fi
IMPACT_GAMES=10 sh mk/impact.sh . "$bin" "$tmp/copy/bin" "$tmp/changed" json >"$tmp/report.json" 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && ok "an engine change: something changed (exit 1)" || ko "an engine change: exit $rc: $(tail -n 2 "$tmp/err")"
# the rule's entry, up to the next rule
sed 's/{"rule":/\n&/g' "$tmp/report.json" | grep '^{"rule":"704.5c"' >"$tmp/rule"
if [ -s "$tmp/rule" ]; then ok "the report names rule 704.5c"; else ko "the report does not name rule 704.5c"; fi
if grep -q '"origin":"harness case [^"]*(cases/704/losing.yaml)","result":"divergence","kind":"[a-z]*","message":"[^"]*","event":[0-9]*,"decision":[0-9]*,"turn":[0-9]*,"step":"[a-z_0-9]*","expected":"[^"]*","actual":"[^"]*"' "$tmp/rule"
then ok "under it, a case of cases/704/losing.yaml with its first differing line, turn and step"
else ko "no case of cases/704/losing.yaml under 704.5c with its first difference"; fi
if ! grep -q '305-no-land-in-combat' "$tmp/report.json"; then ok "a case the change can't touch is not listed"
else ko "305-no-land-in-combat is listed"; fi
sh mk/impact.sh . "$bin" "$tmp/copy/bin" "$tmp/changed2" >"$tmp/report.txt" 2>&1
if grep -q "^rule 704.5c: [0-9]* replays\?$" "$tmp/report.txt" && grep -q "^    expected: " "$tmp/report.txt"
then ok "the text report groups by rule"; else ko "the text report: $(head -n 3 "$tmp/report.txt")"; fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
