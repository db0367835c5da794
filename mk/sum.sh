#!/bin/sh
# mk/sum.sh - runs a few commands of one test part and adds up their results,
# counted as in mk/testsuite.sh: a command's last "N passed, N failed[, N
# skipped]" line, else one test passed or failed by its exit status (skipped
# if it exits 0 after printing a line starting "SKIP").
# usage: sh mk/sum.sh 'COMMAND' ['COMMAND'...]   (each run with sh -c)
set -u
P=0 F=0 S=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for cmd in "$@"; do
  echo "+ $cmd"
  sh -c "$cmd" >"$out" 2>&1
  rc=$?
  cat "$out"
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$out" | tail -n 1)
  if [ -n "$line" ]; then
    p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')
    f=$(echo "$line" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')
    s=$(echo "$line" | sed -nE 's/.*, ([0-9]+) skipped$/\1/p')
    s=${s:-0}
    [ $rc != 0 ] && [ "$f" = 0 ] && f=1
  elif [ $rc != 0 ]; then p=0 f=1 s=0
  elif grep -q '^SKIP' "$out"; then p=0 f=0 s=1
  else p=1 f=0 s=0
  fi
  [ $rc != 0 ] && echo "  (exit $rc)"
  P=$((P + p)) F=$((F + f)) S=$((S + s))
done
if [ $S -gt 0 ]; then echo "$P passed, $F failed, $S skipped"; else echo "$P passed, $F failed"; fi
[ $F = 0 ]
