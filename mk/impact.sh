#!/bin/sh
# mk/impact.sh - what an engine change does, by rule: the cases and a fixed
# set of self-play games are recorded with a base build, then checked with
# the current one (bin/replay impact), which lists the replays whose games
# changed under the rules they exercise, with the first differing line.
#
# usage: sh mk/impact.sh BASE_TREE BASE_BIN CURRENT_BIN OUT [FORMAT]
#   BASE_TREE    the base's source tree (its cases/, engine/cards, replays/decks)
#   BASE_BIN     the base's programs (harness, selfplay)
#   CURRENT_BIN  the current programs (replay)
#   OUT          a directory for the recordings (emptied first)
#   FORMAT       text (default) or json
# IMPACT_GAMES (100) and IMPACT_SEED (20251119) choose the self-play games.
# Exit status: 0 nothing changed, 1 something did, 2 trouble.
set -u
base=$1 bbin=$2 cbin=$3 out=$4 format=${5:-text}
games=${IMPACT_GAMES:-100} seed=${IMPACT_SEED:-20251119}
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
case $bbin in /*) ;; *) bbin=$(pwd)/$bbin ;; esac
rm -rf "$out" && mkdir -p "$out/cases" "$out/selfplay" || exit 2
# every case, recorded as the base plays it (exit 1, a failing case, is a result too)
(cd "$base" && "$bbin/harness" -j "${JOBS:-2}" --record "$out/cases" cases) >"$out/harness.log" 2>&1
rc=$?
if [ $rc -gt 1 ]; then
  echo "impact: the base's harness could not record its cases (exit $rc):" >&2
  tail -n 5 "$out/harness.log" >&2
  exit 2
fi
(cd "$base" && "$bbin/selfplay" --games "$games" --seed "$seed" --out "$out/selfplay") >"$out/selfplay.log" 2>&1
rc=$?
if [ $rc -gt 1 ]; then
  echo "impact: the base's selfplay could not record its games (exit $rc):" >&2
  tail -n 5 "$out/selfplay.log" >&2
  exit 2
fi
# checked with the current engine and the base's card definitions (a
# version-1 base records its pool's hash); a case recorded without the rules
# it cites takes them from the current tree's recording of it
"$cbin/replay" impact --format "$format" --cards "$base/engine/cards" --rules-from replays/cases "$out/cases" "$out/selfplay"
