#!/bin/sh
# tests/harness/stream.sh - the text report on standard output alone is
# written file by file as the run goes (harness/main.c, stream): it must be
# the report written at the end, from every result at once, as it is when a
# JSON report goes to a file beside it, byte for byte, with passes, failures,
# script and input errors, todo cases, known failures, --quiet and --verbose,
# on one thread or several, with a case --record can't write; the exit
# status and standard error must be the same too.
# usage: sh tests/harness/stream.sh HARNESS
set -u
h=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() { # name, command args...
  name=$1
  shift
  "$h" "$@" >"$tmp/a.out" 2>"$tmp/a.err"
  a=$?
  "$h" --format json --output "$tmp/beside.json" --format text "$@" >"$tmp/b.out" 2>"$tmp/b.err"
  b=$?
  if [ $a = $b ] && cmp -s "$tmp/a.out" "$tmp/b.out" && cmp -s "$tmp/a.err" "$tmp/b.err"; then
    pass=$((pass + 1))
    echo "ok   $name (exit $a, $(wc -l <"$tmp/a.out") lines)"
  else
    fail=$((fail + 1))
    echo "FAIL $name: exit $a and $b"
    diff "$tmp/a.out" "$tmp/b.out" | head -5
    diff "$tmp/a.err" "$tmp/b.err" | head -5
  fi
}
# a known-failures list naming a passing case (XPASS) and a failing one (XFAIL)
printf 'real-plus2-mace-equip\nscript-expectation\n' >"$tmp/known"
mix="cases/real cases/603 tests/harness/errors.yaml tests/harness/script.yaml"
check "corpus" -j 1 cases
check "corpus, 3 threads" -j 3 cases
check "errors, failures and todo" -j 1 $mix
check "the same, 2 threads" -j 2 $mix
check "quiet" -j 1 --quiet $mix
check "verbose" -j 2 --verbose cases/603 tests/harness/script.yaml
check "known failures" -j 1 --known-failures "$tmp/known" $mix
check "nothing selected" -j 1 --id no-such-case cases/603
# --record with a case whose id can't be a file name: not recorded, exit 2
sh tests/replay/hostile-cases.sh "$tmp/hostile"
long=$(awk 'BEGIN { for (i = 0; i < 300; i++) printf "y" }')
sed "s/^id: hostile-long-id-x*/id: $long/" "$tmp/hostile/long-id.yaml" >"$tmp/toolong.yaml"
check "a case not recorded" -j 1 --record "$tmp/rec" cases/603 "$tmp/toolong.yaml"
# a report that can't be written to standard output (a full disk): exit 2 and
# a message, in every format, streamed or written at the end
if [ -w /dev/full ]; then
  for f in text tap junit json markdown; do
    for how in "" --list --coverage; do
      if [ "$how" = --coverage ] && [ $f != text ] && [ $f != json ]; then continue; fi # coverage is text or json
      "$h" -j 1 --format $f $how cases/603 >/dev/full 2>"$tmp/full.err"
      rc=$?
      if [ $rc = 2 ] && grep -q '^harness: writing the report to standard output: ' "$tmp/full.err"; then
        pass=$((pass + 1)); echo "ok   --format $f $how to a full disk (exit 2, said)"
      else
        fail=$((fail + 1)); echo "FAIL --format $f $how to a full disk: exit $rc"; head -3 "$tmp/full.err"
      fi
    done
  done
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
