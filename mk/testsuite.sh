#!/bin/sh
# mk/testsuite.sh - runs the parts of `make test` and adds up their results.
#
# usage: MAKE=make JOBS=2 sh mk/testsuite.sh LOGDIR PART...
# Each PART is a make target, run as `$MAKE PART` with its output in
# LOGDIR/PART.log; JOBS parts run at a time (default 2) and each is stopped
# after PART_TIMEOUT seconds (default 1500: the sanitizer and valgrind parts
# take ten times their usual minute on a loaded shared machine, and a part
# stopped for time is a failed run; a hang is still stopped well within CI's
# 90 minutes).
#
# Counting: a part whose output ends with a line "N passed, N failed[, N
# skipped]" contributes those counts (plus one failure if it exited non-zero
# while reporting none); any other part counts as one test: passed when it
# exits 0, skipped when it exits 0 after printing a line starting "SKIP",
# failed otherwise. The last line is the total, and the exit status is 1 when
# anything failed.
set -u

if [ "${1:-}" = --one ]; then
  # one part: run it, record its exit status, print one progress line
  logdir=$2 part=$3
  start=$(date +%s)
  timeout "${PART_TIMEOUT:-1500}" ${MAKE:-make} --no-print-directory "$part" >"$logdir/$part.log" 2>&1
  rc=$?
  echo "$rc $(( $(date +%s) - start ))" >"$logdir/$part.rc"
  word=PASS
  [ $rc = 0 ] || word=FAIL
  [ $rc = 124 ] && word="FAIL (timed out)"
  [ $rc = 0 ] && grep -q '^SKIP' "$logdir/$part.log" && word="PASS (with skips)"
  echo "  $word $part ($(( $(date +%s) - start )) s)"
  exit 0
fi

logdir=$1
shift
mkdir -p "$logdir"
rm -f "$logdir"/*.log "$logdir"/*.rc
echo "== make test: $# parts, ${JOBS:-2} at a time, logs in $logdir/"
t0=$(date +%s)
printf '%s\n' "$@" | xargs -P "${JOBS:-2}" -I{} sh "$0" --one "$logdir" {}

# EXTRA_SKIPPED: known issues the caller let through (counted as skipped)
P=0 F=0 S=${EXTRA_SKIPPED:-0}
echo "== results"
for part in "$@"; do
  log="$logdir/$part.log"
  set -- $(cat "$logdir/$part.rc" 2>/dev/null || echo "125 0")
  rc=$1 secs=$2
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$log" 2>/dev/null | tail -n 1)
  if [ -n "$line" ]; then
    p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')
    f=$(echo "$line" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')
    s=$(echo "$line" | sed -nE 's/.*, ([0-9]+) skipped$/\1/p')
    s=${s:-0}
    [ "$rc" != 0 ] && [ "$f" = 0 ] && f=1
  else
    p=0 f=0 s=0
    if [ "$rc" != 0 ]; then f=1
    elif grep -q '^SKIP' "$log" 2>/dev/null; then s=1
    else p=1
    fi
  fi
  P=$((P + p)) F=$((F + f)) S=$((S + s))
  status=ok
  [ "$f" != 0 ] && status=FAILED
  printf '%-22s %-7s %4s passed %3s failed %3s skipped %4s s\n' "$part" "$status" "$p" "$f" "$s" "$secs"
  # what was skipped, the first few lines of it
  grep '^SKIP' "$log" 2>/dev/null | sort -u >"$logdir/$part.skips"
  head -n 8 "$logdir/$part.skips" | cut -c1-240 | sed 's/^/    /'
  k=$(wc -l <"$logdir/$part.skips")
  [ "$k" -gt 8 ] && echo "    ... and $((k - 8)) more (grep ^SKIP $log)"
  rm -f "$logdir/$part.skips"
  if [ "$f" != 0 ]; then
    echo "    --- last lines of $log (exit $rc):"
    tail -n 25 "$log" | sed 's/^/    | /'
  fi
done
echo "== make test took $(( $(date +%s) - t0 )) s (plus the build)"
if [ "$S" != 0 ]; then
  echo "$P passed, $F failed, $S skipped"
else
  echo "$P passed, $F failed"
fi
[ "$F" = 0 ]
