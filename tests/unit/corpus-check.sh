#!/bin/sh
# tests/unit/corpus-check.sh - the self-play corpus at scale (make soak): plays
# GAMES seeded self-play games, then checks their replays in SHARDS disjoint
# slices (bin/replay check --shard I/SHARDS) run JOBS at a time under GNU
# parallel, as a batch system would run them on several machines, and prints
# the throughput of the check: games and events per second of wall time, and
# per CPU-second of the checking processes.
# usage: sh tests/unit/corpus-check.sh BINDIR GAMES [SEED] [JOBS] [SHARDS]
set -u
bin=$1 games=$2 seed=${3:-1} jobs=${4:-2} shards=${5:-16}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! command -v parallel >/dev/null 2>&1; then
  echo "corpus check: GNU parallel is missing (Debian: apt-get install -y parallel); run by make soak"
  exit 1
fi
if ! "$bin/selfplay" --games "$games" --seed "$seed" -j "$jobs" --out "$tmp/corpus" >"$tmp/play" 2>&1; then
  tail -n 20 "$tmp/play"
  echo "corpus check: self-play FAILED ($games games from seed $seed)"
  exit 1
fi
tail -n 1 "$tmp/play"
# the slices' CPU time: the shell's children's user+system seconds, before and after
# (times in this shell, not in a subshell, which has no children of its own)
cpu() { awk 'END { split($1, u, /[ms]/); split($2, s, /[ms]/); print u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$1"; }
times >"$tmp/times0"
c0=$(cpu "$tmp/times0")
t0=$(date +%s.%N)
seq 1 "$shards" | parallel -j "$jobs" "$bin/replay" check --format json --shard {}/"$shards" "$tmp/corpus" >"$tmp/report.jsonl"
rc=$?
t1=$(date +%s.%N)
times >"$tmp/times1"
c1=$(cpu "$tmp/times1")
awk -v t0="$t0" -v t1="$t1" -v c0="$c0" -v c1="$c1" -v rc="$rc" -v shards="$shards" -v jobs="$jobs" '
  /"result":/ { n++; if ($0 !~ /"result":"ok"/ && $0 !~ /"result":"open"/) bad++; if (match($0, /"events":[0-9]+/)) ev += substr($0, RSTART + 9, RLENGTH - 9) }
  END {
    wall = t1 - t0; cpu = c1 - c0
    gps = wall > 0 ? n / wall : 0; eps = wall > 0 ? ev / wall / 1000 : 0; epc = cpu > 0 ? ev / cpu / 1000 : 0
    printf "corpus check: %d replays in %d slices (%d at a time): %d not ok; %.1f s wall, %.1f CPU-s: %.0f games/s and %.0f k events/s of wall time, %.0f k events per CPU-second\n",
      n, shards, jobs, bad, wall, cpu, gps, eps, epc
    exit (rc != 0 || bad > 0 || n == 0)
  }' "$tmp/report.jsonl"
