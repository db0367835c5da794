#!/bin/sh
# mk/run.sh - what `make run` does after building: the conformance suite over
# cases/ and the check of every replay under replays/, then a summary.
# A program that is not part of the tree yet is reported as skipped, not as
# a failure. usage: sh mk/run.sh BINDIR
set -u
bin=${1:-bin}
status=0
conf="skipped (no $bin/harness in this tree)"
reps="skipped (no $bin/replay in this tree)"

if [ -x "$bin/harness" ]; then
  echo "== conformance suite: $bin/harness cases"
  out=$("$bin/harness" cases 2>&1); rc=$?
  # every case that did not pass, by name, then the counts; or the counts
  if printf '%s\n' "$out" | grep -q '^did not pass:$'; then
    printf '%s\n' "$out" | sed -n '/^did not pass:$/,$p'
  else
    printf '%s\n' "$out" | tail -n 1
  fi
  conf="$(printf '%s\n' "$out" | tail -n 1) (exit $rc)"
  [ $rc = 0 ] || status=1
fi

if [ -x "$bin/replay" ]; then
  echo "== replay corpus: $bin/replay check replays"
  out=$("$bin/replay" check replays 2>&1); rc=$?
  printf '%s\n' "$out" | tail -n 20
  reps="$(printf '%s\n' "$out" | tail -n 1) (exit $rc)"
  [ $rc = 0 ] || status=1
fi

echo "== summary"
echo "conformance (cases/): $conf"
echo "replays (replays/):   $reps"
[ $status = 0 ] && echo "run: ok" || echo "run: FAILED"
exit $status
