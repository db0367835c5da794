#!/bin/sh
# fuzz/run.sh - runs the fuzz targets for a bounded time each.
#
# usage: sh fuzz/run.sh smoke|long SECONDS BUILDDIR TARGET...
# For each target (BUILDDIR/fuzz/fuzz_TARGET):
#  1. fuzz/regress/TARGET/*: inputs that once crashed; each must now run clean.
#  2. fuzz/quarantine/TARGET/*: crashes found in the engine and not fixed
#     yet: each still crashing is reported as skipped ("SKIP known engine
#     issue", with its sanitizer summary), one that runs clean is reported
#     as fixed (move it to regress/).
#  3. fuzzing for SECONDS from a corpus in BUILDDIR/fuzz/corpus/TARGET,
#     seeded from the tree (engine/cards, cases, replays) and the regressions.
#     A crash, leak or timeout whose signature (the sanitizer summary or the
#     target's own message) matches a quarantined crash is set aside and the
#     run goes on; any other fails the target. In long mode the new crasher is
#     also copied to fuzz/quarantine/TARGET/ so that it is kept.
# The last line is "N passed, N failed[, N skipped]": each regression input,
# each target's fuzzing run and each quarantined input is one test.
set -u
mode=$1 secs=$2 bdir=$3
shift 3
P=0 F=0 S=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

max_len() {
  case $1 in cards) echo 8192 ;; game) echo 2048 ;; setup) echo 8192 ;; cases) echo 16384 ;; replay) echo 262144 ;; *) echo 4096 ;; esac
}

# the signature of a crash from its output: the target's own finding line or
# the sanitizer's SUMMARY line, digits after ':' (columns, lines) kept but
# addresses, ids and counts removed
signature() {
  s=$(grep -m1 -E '^fuzz_[a-z]+: ' "$1" | sed -E 's/turn [0-9]+ step [a-z_]+: //; s/[0-9]+/N/g')
  [ -n "$s" ] || s=$(grep -m1 '^SUMMARY: ' "$1" | sed -E 's/0x[0-9a-f]+//g; s/\(BuildId: [0-9a-f]+\)//g')
  [ -n "$s" ] || s=$(grep -m1 -E 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)' "$1" | sed -E 's/==[0-9]+==//; s/0x[0-9a-f]+//g')
  echo "${s:-unknown crash}"
}

seed_corpus() {
  t=$1 dir=$2
  mkdir -p "$dir"
  case $t in
  cards)
    for f in engine/cards/*.yaml tests/unit/malformed/cards*/*.yaml; do [ -f "$f" ] && cp "$f" "$dir/$(echo "$f" | tr / _)"; done ;;
  cases)
    find cases -name '*.yaml' 2>/dev/null | while read -r f; do cp "$f" "$dir/$(echo "$f" | tr / _)"; done ;;
  replay)
    find replays -name '*.gz' 2>/dev/null | sort | head -n 20 | while read -r f; do
      b=$(echo "$f" | tr / _)
      { printf '\000'; cat "$f"; } >"$dir/raw_$b"
      { printf '\001'; zcat "$f" 2>/dev/null; } >"$dir/text_$b"
      { printf '\002'; zcat "$f" 2>/dev/null; } >"$dir/verify_$b"
    done ;;
  setup)
    # the setups of the recorded games: the block after "setup N [HASH]"
    find replays -name '*.gz' 2>/dev/null | sort | head -n 40 | while read -r f; do
      zcat "$f" 2>/dev/null | awk 'n > 0 { print; n--; next } /^setup [0-9]+/ { n = $2 } /^log$/ { exit }' \
        >"$dir/setup_$(echo "$f" | tr / _).txt"
    done ;;
  game)
    # a few setups: two to four players, some cards, a seed, then answers
    i=0
    for b in 0 1 2 3 4 5 6 7; do
      i=$((i + 1))
      awk -v s="$b" 'BEGIN { srand(s + 1); for (i = 0; i < 400; i++) printf "%c", int(rand() * 256) }' >"$dir/seed$i" 2>/dev/null
    done ;;
  esac
  for f in fuzz/regress/"$t"/*; do [ -f "$f" ] && cp "$f" "$dir/regress_$(basename "$f")"; done
  return 0
}

for t in "$@"; do
  bin=$bdir/fuzz/fuzz_$t
  if [ ! -x "$bin" ]; then
    echo "FAIL fuzz_$t: $bin was not built"
    F=$((F + 1))
    continue
  fi
  # 1. regressions
  for f in fuzz/regress/"$t"/*; do
    [ -f "$f" ] || continue
    if "$bin" "$f" >"$tmp/out" 2>&1; then
      echo "ok   fuzz_$t regression $f"
      P=$((P + 1))
    else
      echo "FAIL fuzz_$t regression $f crashes again: $(signature "$tmp/out")"
      tail -n 30 "$tmp/out"
      F=$((F + 1))
    fi
  done
  # 2. quarantine: known crashes and their signatures
  : >"$tmp/known"
  for f in fuzz/quarantine/"$t"/*; do
    [ -f "$f" ] || continue
    case $f in *.txt) continue ;; esac
    if "$bin" "$f" >"$tmp/out" 2>&1; then
      echo "ok   fuzz_$t quarantined $f runs clean now: move it to fuzz/regress/$t/"
      P=$((P + 1))
    else
      sig=$(signature "$tmp/out")
      echo "$sig" >>"$tmp/known"
      echo "SKIP known engine issue: fuzz_$t $f: $sig"
      S=$((S + 1))
    fi
  done
  # 3. fuzzing
  corpus=$bdir/fuzz/corpus/$t
  art=$bdir/fuzz/artifacts/$t/
  seed_corpus "$t" "$corpus"
  mkdir -p "$art"
  rm -f "$art"*
  start=$(date +%s)
  left=$secs
  status=ok
  set_aside=0
  runs=0
  while [ "$left" -gt 0 ]; do
    "$bin" -max_total_time="$left" -timeout=20 -rss_limit_mb=2048 -max_len="$(max_len "$t")" \
      -artifact_prefix="$art" -print_final_stats=1 -close_fd_mask=1 "$corpus" >"$tmp/fuzz.log" 2>&1
    rc=$?
    runs=$((runs + $(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/fuzz.log" | tail -n 1 | grep . || echo 0)))
    [ $rc = 0 ] && break
    crash=$(ls -t "$art" 2>/dev/null | head -n 1)
    sig=$(signature "$tmp/fuzz.log")
    if [ -n "$crash" ] && grep -qxF "$sig" "$tmp/known"; then
      set_aside=$((set_aside + 1))
      rm -f "$art$crash"
    else
      status=crash
      break
    fi
    left=$((secs - ($(date +%s) - start)))
  done
  if [ $status = ok ]; then
    echo "ok   fuzz_$t: ${secs}s, $runs inputs, corpus $(ls "$corpus" | wc -l) files$([ $set_aside -gt 0 ] && echo ", $set_aside known crashes set aside")"
    P=$((P + 1))
  else
    crash=$(ls -t "$art" 2>/dev/null | head -n 1)
    echo "FAIL fuzz_$t: ${crash:-no artifact} after $(( $(date +%s) - start ))s: $sig"
    grep -v '^#\|^INFO\|^MS:\|^stat::\|^Done\|^\s*$' "$tmp/fuzz.log" | tail -n 40
    if [ -n "$crash" ]; then
      echo "  reproduce: $bin $art$crash"
      if [ "$mode" = long ]; then
        mkdir -p fuzz/quarantine/"$t"
        cp "$art$crash" fuzz/quarantine/"$t"/
        echo "  kept as fuzz/quarantine/$t/$crash (commit it; once fixed, move it to fuzz/regress/$t/)"
      else
        echo "  if the engine is at fault: copy it to fuzz/quarantine/$t/ and report it; once fixed, to fuzz/regress/$t/"
      fi
    fi
    F=$((F + 1))
  fi
done
if [ $S -gt 0 ]; then echo "$P passed, $F failed, $S skipped"; else echo "$P passed, $F failed"; fi
[ $F = 0 ]
