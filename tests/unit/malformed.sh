#!/bin/sh
# tests/unit/malformed.sh - the malformed-input suites: the engine's parsers
# (the malformed program) and the programs on damaged cases and replays.
#
# The harness must refuse each file of tests/unit/malformed/cases/ with exit
# status 2 and an error naming file:line, and must never crash (exit >= 3 or
# a signal) on truncated copies of the real cases. The replay checker must
# answer 2 for an empty, truncated, corrupt or non-replay file and 1 for a
# replay whose log was altered or lost a line, and never crash.
# usage: sh tests/unit/malformed.sh MALFORMED_PROGRAM BINDIR
set -u
prog=$1 bin=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
P=0 F=0 S=0
ok() { echo "ok   $1"; P=$((P + 1)); }
ko() { echo "FAIL $1"; F=$((F + 1)); }
skip() { echo "SKIP $1"; S=$((S + 1)); }

# 1. the engine's parsers
"$prog" >"$tmp/prog.log" 2>&1
rc=$?
cat "$tmp/prog.log"
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$tmp/prog.log" | tail -n 1)
if [ -n "$line" ]; then
  P=$((P + $(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')))
  F=$((F + $(echo "$line" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')))
  S=$((S + $(echo "$line" | sed -nE 's/.*, ([0-9]+) skipped$/\1/p' | grep . || echo 0)))
  [ $rc != 0 ] && [ "$(echo "$line" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')" = 0 ] && ko "$prog exited $rc"
else
  ko "$prog exited $rc without a summary"
fi

# exit status of a program run: "crash" for signals and statuses above 2
run() {
  "$@" >"$tmp/out" 2>&1
  rc=$?
}
# an exit status past 2 is a crash, except the harness's 5: no case selected
# (a case file cut before its first case holds none)
crashed() { [ "$rc" -gt 2 ] && [ "$rc" != 5 ]; }

# 2. the harness on malformed cases
if [ -x "$bin/harness" ]; then
  for f in tests/unit/malformed/cases/*.yaml; do
    [ -f "$f" ] || continue
    run "$bin/harness" "$f"
    if [ $rc = 2 ] && grep -q "$(basename "$f"):[0-9]" "$tmp/out"; then
      ok "harness refuses $f: $(grep -m1 "$(basename "$f"):[0-9]" "$tmp/out" | cut -c1-160)"
    else
      ko "harness on $f: exit $rc (want 2 with file:line): $(head -c 300 "$tmp/out")"
    fi
  done
  # truncated copies of real cases: any verdict but a crash
  n=0 bad=0
  for f in $(find cases -name '*.yaml' | sort | head -n 40); do
    size=$(wc -c <"$f")
    for cut in 7 23 61 $((size / 3)) $((size / 2)) $((size * 4 / 5)); do
      [ "$cut" -lt "$size" ] || continue
      head -c "$cut" "$f" >"$tmp/cut.yaml"
      run "$bin/harness" "$tmp/cut.yaml"
      n=$((n + 1))
      if crashed; then
        bad=$((bad + 1))
        [ $bad = 1 ] && cp "$tmp/cut.yaml" "$tmp/first-crash.yaml" && echo "  crash (exit $rc) on $f cut at $cut bytes: $(tail -n 3 "$tmp/out")"
      fi
    done
  done
  if [ $n = 0 ]; then skip "harness on truncated cases: no cases under cases/"
  elif [ $bad = 0 ]; then ok "harness survives $n truncated copies of cases"
  else ko "harness crashed on $bad of $n truncated copies of cases"
  fi
else
  skip "harness malformed cases: no $bin/harness in this tree yet"
fi

# 3. the replay checker on damaged replays
if [ -x "$bin/replay" ]; then
  src=$(find replays/selfplay -name '*.gz' 2>/dev/null | sort | head -n 1)
  : >"$tmp/empty.gz"
  run "$bin/replay" check "$tmp/empty.gz"
  [ $rc = 2 ] && ok "replay check: empty file is exit 2" || ko "replay check: empty file: exit $rc (want 2)"
  printf 'this is not a replay\n' >"$tmp/plain.gz"
  run "$bin/replay" check "$tmp/plain.gz"
  [ $rc = 2 ] && ok "replay check: text that is not a replay is exit 2" || ko "replay check: not a replay: exit $rc (want 2)"
  printf 'not a replay\n' | gzip -c >"$tmp/notreplay.gz"
  run "$bin/replay" check "$tmp/notreplay.gz"
  [ $rc = 2 ] && ok "replay check: gzip of something else is exit 2" || ko "replay check: gzip of non-replay: exit $rc (want 2)"
  if [ -n "$src" ]; then
    size=$(wc -c <"$src")
    zcat "$src" >"$tmp/plain" 2>/dev/null
    lines=$(wc -l <"$tmp/plain")
    n=0 bad=0
    for cut in 1 10 18 $((size / 4)) $((size / 2)) $((size - 9)) $((size - 1)); do
      [ "$cut" -gt 0 ] && [ "$cut" -lt "$size" ] || continue
      head -c "$cut" "$src" >"$tmp/trunc.gz"
      run "$bin/replay" check "$tmp/trunc.gz"
      n=$((n + 1))
      [ $rc = 2 ] || { bad=$((bad + 1)); echo "  truncated at $cut of $size bytes: exit $rc"; }
    done
    [ $bad = 0 ] && ok "replay check: $n truncated copies of $src are exit 2" || ko "replay check: $bad of $n truncated copies not exit 2"
    # flipped bytes in the compressed data: damaged (2) or, rarely, a divergent game (1); never a crash
    n=0 bad=0
    for at in 20 40 100 $((size / 3)) $((size / 2)) $((size * 2 / 3)) $((size - 20)); do
      [ "$at" -gt 10 ] && [ "$at" -lt "$size" ] || continue
      { head -c "$at" "$src"; printf '\377'; tail -c +"$((at + 2))" "$src"; } >"$tmp/flip.gz"
      run "$bin/replay" check "$tmp/flip.gz"
      n=$((n + 1))
      case $rc in 1 | 2) ;; *) bad=$((bad + 1)); echo "  byte $at replaced: exit $rc" ;; esac
    done
    [ $bad = 0 ] && ok "replay check: $n copies with a damaged byte are exit 1 or 2" || ko "replay check: $bad of $n damaged copies crashed or passed"
    # altered and dropped log lines: a divergence, exit 1
    n=0 bad=0
    for k in $((lines / 2)) $((lines * 6 / 10)) $((lines * 9 / 10)); do
      [ "$k" -gt 2 ] || continue
      awk -v k="$k" 'NR==k { if (match($0,/[0-9]/)) { d=substr($0,RSTART,1); r=(d=="9")?"8":d+1; $0=substr($0,1,RSTART-1) r substr($0,RSTART+1) } else $0=$0 "x" } {print}' "$tmp/plain" | gzip -c >"$tmp/alt.gz"
      run "$bin/replay" check "$tmp/alt.gz"
      n=$((n + 1))
      [ $rc = 1 ] || { bad=$((bad + 1)); echo "  line $k altered: exit $rc (want 1)"; }
      sed "${k}d" "$tmp/plain" | gzip -c >"$tmp/drop.gz"
      run "$bin/replay" check "$tmp/drop.gz"
      n=$((n + 1))
      [ $rc = 1 ] || { bad=$((bad + 1)); echo "  line $k dropped: exit $rc (want 1)"; }
    done
    [ $bad = 0 ] && ok "replay check: $n altered or shortened logs are exit 1" || ko "replay check: $bad of $n altered logs not exit 1"
    # damaged header lines: the format line and the fields a reader needs
    # (engine, pool, setup) are refused; a reader skips other lines it does
    # not know (docs/replay-format.md), so damaging those may pass; none crash
    n=0 bad=0
    for k in 1 2 3 4 5 6 7 8; do
      [ "$k" -le "$lines" ] || continue
      key=$(sed -n "${k}s/ .*//p" "$tmp/plain")
      awk -v k="$k" 'NR==k { $0 = "@@" $0 "\001\377" } {print}' "$tmp/plain" | gzip -c >"$tmp/hdr.gz"
      run "$bin/replay" check "$tmp/hdr.gz"
      n=$((n + 1))
      case $key in
      arbiter-replay | engine | pool | setup) [ $rc = 2 ] || { bad=$((bad + 1)); echo "  header line $k ($key) damaged: exit $rc (want 2)"; } ;;
      *) crashed && { bad=$((bad + 1)); echo "  header line $k ($key) damaged: exit $rc"; } ;;
      esac
    done
    [ $bad = 0 ] && ok "replay check: $n damaged header lines: required fields refused, none crash" || ko "replay check: $bad of $n damaged header lines crashed or were accepted"
  else
    skip "replay check on damaged replays: no replays/*.gz yet"
  fi
else
  skip "replay malformed files: no $bin/replay in this tree yet"
fi

if [ $S -gt 0 ]; then echo "$P passed, $F failed, $S skipped"; else echo "$P passed, $F failed"; fi
[ $F = 0 ]
