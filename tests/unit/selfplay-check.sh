#!/bin/sh
# tests/unit/selfplay-check.sh - plays GAMES seeded self-play games with the
# selfplay program under its invariant checker (--check), then checks the
# replays it wrote with the replay program beside it.
# usage: sh tests/unit/selfplay-check.sh SELFPLAY GAMES [SEED]
set -u
sp=$1 games=$2 seed=${3:-1}
bindir=$(dirname "$sp")
if ! "$sp" --help 2>&1 | grep -q -- '--check'; then
  echo "SKIP selfplay --check: $sp has no --check option yet"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! "$sp" --games "$games" --seed "$seed" --check --out "$tmp/out" >"$tmp/log" 2>&1; then
  tail -n 20 "$tmp/log"
  echo "selfplay --check: FAILED ($games games from seed $seed)"
  exit 1
fi
tail -n 2 "$tmp/log"
if [ -x "$bindir/replay" ]; then
  if ! "$bindir/replay" check "$tmp/out" >"$tmp/check" 2>&1; then
    tail -n 20 "$tmp/check"
    echo "replay check of fresh self-play games: FAILED"
    exit 1
  fi
  tail -n 1 "$tmp/check"
fi
echo "selfplay --check: $games games from seed $seed ok"
