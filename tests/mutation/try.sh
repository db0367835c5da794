#!/bin/sh
# tests/mutation/try.sh - builds one mutant of the engine into the test
# programs and runs the checks on it, stopping at the first that fails
# (tests/mutation/mutate.c runs it once per mutant, and once on the unmutated
# engine first).
#
# usage: sh tests/mutation/try.sh DIR SOURCE STEM
#   DIR     the job's scratch directory (everything is written there)
#   SOURCE  the C file compiled in place of STEM.c
#   STEM    the engine file it replaces, without .c: engine/turn
# Environment (tests/mutation/mutation.mk):
#   MUT_CC, MUT_CFLAGS      compile SOURCE for the quick checks: no -Werror, so
#                           that a mutant that only warns is still tried
#   MUT_B, MUT_ENGINE_OBJ   the build directory and the engine's objects in it
#   MUT_HARNESS_OBJ, MUT_REPLAY_OBJ, MUT_UNIT_OBJ, MUT_SOAK_OBJ, MUT_LDLIBS
#                           the programs' other objects, and the libraries
#   MUT_FAULT_OBJ, MUT_FAULT_LDFLAGS   the fault API test's other objects (the
#                           failing allocator of tests/fault/ among them) and
#                           the flags that wrap the allocations into it
#   MUT_ASAN_CC, MUT_ASAN_CFLAGS, MUT_ASAN_B, MUT_ASAN_ENGINE_OBJ,
#   MUT_ASAN_HARNESS_OBJ, MUT_ASAN_LDLIBS                     the same, sanitized
#   MUT_VALGRIND            0: no valgrind check (make test's sample)
#   MUT_CHECKS              the checks to run, by name ("cases replays"): a
#                           screening run that finds the mutants the cases let
#                           through in a fraction of the time; empty: all. The
#                           others print "stage NAME skipped"
#   MUT_TIMEOUTS            "stage=seconds ..." (default 600 s each, 3600 s for
#                           valgrind, which runs the cases some 50 times slower).
#                           The baseline runs with the defaults: they only stop a
#                           hang, and must not fail an unmutated engine on a
#                           loaded machine (the unit tests take 9 s of CPU and
#                           have taken 112 s of wall time beside other work)
#
# The checks, in order (the cheapest and most telling first):
#   cases    bin/harness --check over cases/ (as make harness-test runs it), stopping
#            at the first failing case
#   replays  bin/replay check over replays/: the recorded games, event by event
#   unit     the unit tests
#   fault    tests/fault/fault_api.c: every allocation of the public API's
#            tasks failed in turn (and failed reads). Each failure must be
#            reported with its status and a message naming it, leave the game
#            where it was, and leak nothing (the counting allocator sees every
#            block still allocated): the only check that goes down the failure
#            paths. About 2 s of CPU, most of it the card pool loaded ~600 times
#   soak     300 seeded random games under the invariant checker
#   asan     the cases again under the invariant checker, built with AddressSanitizer
#            and UBSan (a fault that only corrupts memory or leaks is still a fault,
#            the checker's own included)
#   valgrind the cases again under the invariant checker, the -O0 harness of the
#            cases stage run by valgrind's memcheck: it sees what the sanitizers
#            don't, a read of memory never written (a deleted initialization, a
#            loop bound one past the entries a list has filled). Only when
#            valgrind is installed: otherwise the stage line says it was skipped.
# Prints "compile ok|failed SECONDS", then for each check run "stage NAME
# passed|failed|timeout SECONDS [WHAT FAILED]" ("stage valgrind skipped 0 ..."
# when valgrind is not installed).
# Exit: 0 every check passed, 1 a check failed, 2 SOURCE did not compile,
# 3 a check ran out of time, 4 the build directories lack an object or don't
# link with SOURCE (a mutation changes no symbol, so that is a build that
# changed under the run, never a detected fault).
set -u
dir=$1 src=$2 stem=$3

t() { date +%s.%N; }
since() { echo "$1 $(t)" | awk '{printf "%.3f", $2 - $1}'; }
limit() { # the time limit of a stage
  for kv in ${MUT_TIMEOUTS:-}; do
    [ "${kv%%=*}" = "$1" ] && { echo "${kv#*=}"; return; }
  done
  if [ "$1" = valgrind ]; then echo 3600; else echo 600; fi
}
# the object list $1 with $2 replaced by $3
swap() {
  found=0 out=
  for o in $1; do
    [ "$o" = "$2" ] && { o=$3; found=1; }
    out="$out $o"
  done
  [ $found = 1 ] || { echo "stage build failed 0 no $2 among the engine's objects"; exit 4; }
  echo "$out"
}

t0=$(t)
if ! $MUT_CC $MUT_CFLAGS -c "$src" -o "$dir/m.o" 2>"$dir/compile.log"; then
  echo "compile failed $(since "$t0")"
  exit 2
fi
echo "compile ok $(since "$t0")"
engine=$(swap "$MUT_ENGINE_OBJ" "$MUT_B/$stem.o" "$dir/m.o") || { echo "$engine"; exit 4; }

# check NAME COMMAND...: runs it under the stage's limit
check() {
  name=$1
  shift
  t0=$(t)
  timeout -k 2 "$(limit "$name")" "$@" >"$dir/$name.log" 2>&1
  rc=$?
  secs=$(since "$t0")
  if [ $rc = 0 ]; then
    echo "stage $name passed $secs"
    return 0
  fi
  if [ $rc = 124 ] || [ $rc = 137 ]; then
    echo "stage $name timeout $secs"
    exit 3
  fi
  what=$(grep -m1 -E '^(FAIL|ERROR|not ok)' "$dir/$name.log" | cut -c1-200)
  # memcheck's own first report ("==PID== Invalid read of size 4")
  [ -n "$what" ] || what=$(grep -m1 -E '^==[0-9]+== [A-Z]' "$dir/$name.log" | cut -c1-200)
  # the replay check's verdict on a recording ("FILE: divergence ..."), before
  # the looser match below, which a file name with "fail" in it would meet
  [ -n "$what" ] || what=$(grep -m1 -E ': (divergence|incomplete|pool-changed|unreadable)' "$dir/$name.log" | cut -c1-200)
  [ -n "$what" ] || what=$(grep -m1 -iE 'error|fail|invariant|leak' "$dir/$name.log" | cut -c1-200)
  [ $rc -gt 128 ] && what="killed by signal $((rc - 128)); $what"
  echo "stage $name failed $secs exit $rc: $what"
  exit 1
}
link() { # OUT OBJECTS...
  out=$1
  shift
  $MUT_CC -o "$out" "$@" $MUT_LDLIBS 2>"$dir/link.log" || {
    echo "stage link failed 0 $(head -c 200 "$dir/link.log")"
    exit 4
  }
}

want() { # is check $1 among MUT_CHECKS (empty: every check)?
  [ -z "${MUT_CHECKS:-}" ] && return 0
  for c in $MUT_CHECKS; do [ "$c" = "$1" ] && return 0; done
  echo "stage $1 skipped 0 not in MUTATION_CHECKS"
  return 1
}
if want cases; then
  link "$dir/harness" $MUT_HARNESS_OBJ $engine
  check cases "$dir/harness" --check --fail-fast -j 1 cases
fi
if want replays; then
  link "$dir/replay" $MUT_REPLAY_OBJ $engine
  check replays "$dir/replay" check -j 1 replays
fi
if want unit; then
  link "$dir/unit-tests" $MUT_UNIT_OBJ $engine
  check unit "$dir/unit-tests"
fi
if want fault; then
  link "$dir/fault-api" $MUT_FAULT_OBJ $engine $MUT_FAULT_LDFLAGS
  check fault "$dir/fault-api"
fi
if want soak; then
  link "$dir/soak" $MUT_SOAK_OBJ $engine
  check soak "$dir/soak" --games 300 --seed 1 --check --known tests/unit/soak-known.txt
fi
if want asan; then
  t0=$(t)
  if ! $MUT_ASAN_CC $MUT_ASAN_CFLAGS -c "$src" -o "$dir/m-asan.o" 2>"$dir/compile-asan.log"; then
    echo "compile failed $(since "$t0") (the sanitizer build)"
    exit 2
  fi
  asan=$(swap "$MUT_ASAN_ENGINE_OBJ" "$MUT_ASAN_B/$stem.o" "$dir/m-asan.o") || { echo "$asan"; exit 4; }
  $MUT_ASAN_CC -o "$dir/harness-asan" $MUT_ASAN_HARNESS_OBJ $asan $MUT_ASAN_LDLIBS 2>"$dir/link.log" || {
    echo "stage link failed 0 (the sanitizer build) $(head -c 200 "$dir/link.log")"
    exit 4
  }
  check asan "$dir/harness-asan" --check --fail-fast -j 1 cases
fi
if ! want valgrind; then
  :
elif [ "${MUT_VALGRIND:-1}" = 0 ]; then
  echo "stage valgrind skipped 0 MUT_VALGRIND=0 (valgrind-test runs the cases under memcheck)"
elif command -v valgrind >/dev/null 2>&1; then
  # 99: valgrind found an error (the harness's own failures exit 1 or 2)
  want cases >/dev/null || link "$dir/harness" $MUT_HARNESS_OBJ $engine
  check valgrind valgrind -q --error-exitcode=99 "$dir/harness" --check --fail-fast -j 1 cases
else
  echo "stage valgrind skipped 0 valgrind is not installed"
fi
exit 0
