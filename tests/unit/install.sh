#!/bin/sh
# tests/unit/install.sh - checks `make install` as someone outside the tree
# uses it. The Makefile's install-test builds with PREFIX set to a scratch
# directory and installs there (no DESTDIR), then runs this:
#   - every file is in place: arbiter-harness, arbiter-replay, arbiter-selfplay,
#     libmtg.a, libmtg.so (with its soname links), arbiter/mtg.h, arbiter.pc and
#     mtg.pc, the card pool and decks under share/arbiter, man pages, bash
#     completions;
#   - the public header shows no internal type and compiles on its own;
#   - a program built with `pkg-config --cflags --libs arbiter` (no --static)
#     links the shared library and runs, as does one built with --static;
#   - the installed programs answer --help and --version, and run from another
#     directory with the installed pool by default (ARBITER_CARDS and --cards
#     override it); self-play uses the installed decks and its replays check;
#   - the man pages render without warnings, the completions complete;
#   - a staged install (DESTDIR) of the same build is the same tree, and
#     `make uninstall` leaves nothing behind.
# usage: sh tests/unit/install.sh PREFIX "PROGRAM..." BUILD-VARIABLES...
#   (the variables are those the install was made with: B=... BIN=... PREFIX=...)
set -u
prefix=$1 progs=$2
shift 2
pass=0 fail=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
ko() { echo "FAIL $1"; fail=$((fail + 1)); }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=$(pwd)
version=$(sed -n 's/^#define MTG_VERSION "\(.*\)"/\1/p' engine/include/mtg.h)
major=${version%%.*}

files="lib/libmtg.a lib/libmtg.so.$version include/arbiter/mtg.h lib/pkgconfig/arbiter.pc lib/pkgconfig/mtg.pc"
for p in $progs; do files="$files bin/arbiter-$p share/man/man1/arbiter-$p.1 share/bash-completion/completions/arbiter-$p"; done
for f in $files; do
  [ -f "$prefix/$f" ] && ok "installed $f" || ko "missing $f"
done
for l in "libmtg.so.$major:libmtg.so.$version" "libmtg.so:libmtg.so.$major"; do
  [ "$(readlink "$prefix/lib/${l%%:*}")" = "${l#*:}" ] && ok "lib/${l%%:*} -> ${l#*:}" || ko "lib/${l%%:*} is not a link to ${l#*:}"
done
n_src=$(find engine/cards -name '*.yaml' -type f | wc -l)
n_dst=$(find "$prefix/share/arbiter/cards" -name '*.yaml' -type f 2>/dev/null | wc -l)
[ "$n_src" -gt 0 ] && [ "$n_src" = "$n_dst" ] && ok "the card pool: $n_dst files in share/arbiter/cards" ||
  ko "share/arbiter/cards has $n_dst card files, engine/cards $n_src"
[ -n "$(ls "$prefix"/share/arbiter/decks/*.yaml 2>/dev/null)" ] && ok "self-play's decks in share/arbiter/decks" ||
  ko "no decks in share/arbiter/decks"

h=$prefix/include/arbiter/mtg.h
if grep -q 'ydoc\|ynode\|mtg_error_set\|mtg_pool_load_node' "$h"; then
  ko "the public header names internal types or functions: $(grep -o 'ydoc\|ynode\|mtg_error_set\|mtg_pool_load_node' "$h" | sort -u | tr '\n' ' ')"
else
  ok "the public header shows no internal type (ydoc, ynode) or function (mtg_error_set)"
fi
printf '#include <mtg.h>\n' >"$tmp/h.c"
cc -std=c11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I"$prefix/include/arbiter" "$tmp/h.c" 2>"$tmp/h.err" &&
  ok "mtg.h compiles on its own (-std=c11 -Wall -Wextra -Wpedantic -Werror)" || { ko "mtg.h alone"; head -5 "$tmp/h.err"; }

cat >"$tmp/use.c" <<'EOF'
/* a program using the installed engine */
#include <mtg.h>
#include <stdio.h>
#include <string.h>
int main(void) {
  mtg_pool *p;
  mtg_error e;
  const char *y = "- name: Bear\n  type: Creature — Bear\n  pt: 2/2\n";
  if (strcmp(mtg_version(), MTG_VERSION)) return 3;
  if (mtg_pool_new(&p, NULL) || mtg_pool_load_buffer(p, "x.yaml", y, strlen(y), &e)) return 1;
  printf("%s %d\n", mtg_version(), mtg_pool_count(p));
  mtg_pool_free(p);
  return 0;
}
EOF
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
flags=$(pkg-config --cflags --libs arbiter 2>&1)
if cc -std=c11 -o "$tmp/use" "$tmp/use.c" $flags 2>"$tmp/cc.err" && (cd / && "$tmp/use") >"$tmp/out" 2>&1 &&
   [ "$(cat "$tmp/out")" = "$version 1" ]; then
  ok "a program built with \`pkg-config --cflags --libs arbiter\` ($flags) runs, mtg_version() $version"
else
  ko "building against the installed shared library with: $flags"
  cat "$tmp/cc.err" "$tmp/out" 2>/dev/null | head -n 10
fi
if command -v ldd >/dev/null 2>&1; then
  ldd "$tmp/use" 2>/dev/null | grep -q "libmtg.so.$major => $prefix/lib/libmtg.so.$major" &&
    ok "it links the shared library libmtg.so.$major from $prefix/lib" || ko "it does not use $prefix/lib/libmtg.so.$major: $(ldd "$tmp/use" | grep mtg)"
fi
sflags=$(pkg-config --cflags --libs --static arbiter 2>&1)
if cc -std=c11 -static-libgcc -o "$tmp/use-static" "$tmp/use.c" -I"$prefix/include/arbiter" "$prefix/lib/libmtg.a" \
     $(pkg-config --libs-only-l --static arbiter | sed 's/-lmtg//') 2>"$tmp/cc.err" && "$tmp/use-static" >/dev/null 2>&1; then
  ok "a program linked with libmtg.a (pkg-config --static: $sflags) runs"
else
  ko "linking libmtg.a"
  head -n 10 "$tmp/cc.err"
fi
exported=$(nm -D --defined-only "$prefix/lib/libmtg.so.$version" 2>/dev/null | awk '$2 == "T" {print $3}' | sort)
declared=$(sed -n 's/^[^#/ ].*[^a-z_0-9]\(mtg_[a-z0-9_]*\)(.*/\1/p' "$h" | sort)
[ -n "$exported" ] && [ "$exported" = "$declared" ] && ok "the shared library exports exactly the $(echo "$declared" | wc -l) functions of mtg.h" ||
  ko "the shared library's exports differ from mtg.h: $(echo "$exported" "$declared" | tr ' ' '\n' | sort | uniq -u | head -5 | tr '\n' ' ')"

case_file=$(find "$src/cases" -name '*.yaml' ! -name rules.yaml | sort | head -n 1)
for p in $progs; do
  exe=$prefix/bin/arbiter-$p
  [ -x "$exe" ] || continue
  if "$exe" --help >"$tmp/h" 2>&1 && [ -s "$tmp/h" ]; then ok "arbiter-$p --help"; else ko "arbiter-$p --help (exit $?)"; fi
  if "$exe" --version >"$tmp/v" 2>&1 && grep -q "$version" "$tmp/v"; then ok "arbiter-$p --version: $(head -n 1 "$tmp/v")"; else ko "arbiter-$p --version does not say $version: $(head -n 1 "$tmp/v")"; fi
done
H=$prefix/bin/arbiter-harness
if [ -x "$H" ]; then
  (cd "$tmp" && unset ARBITER_CARDS && "$H" "$case_file") >"$tmp/run" 2>&1; rc=$?
  [ $rc = 0 ] && tail -n 1 "$tmp/run" | grep -q '^[1-9][0-9]* passed, 0 failed' &&
    ok "arbiter-harness runs a case from another directory with the installed pool: $(tail -n 1 "$tmp/run")" ||
    { ko "arbiter-harness from another directory (exit $rc)"; tail -n 3 "$tmp/run"; }
  (cd "$tmp" && ARBITER_CARDS="$tmp/no-such-pool" "$H" "$case_file") >"$tmp/run" 2>&1; rc=$?
  [ $rc = 2 ] && grep -q "no-such-pool" "$tmp/run" && ok "ARBITER_CARDS overrides the installed pool" ||
    ko "ARBITER_CARDS=$tmp/no-such-pool: exit $rc"
  (cd "$tmp" && ARBITER_CARDS="$tmp/no-such-pool" "$H" --cards "$prefix/share/arbiter/cards" "$case_file") >"$tmp/run" 2>&1; rc=$?
  [ $rc = 0 ] && ok "--cards overrides ARBITER_CARDS" || ko "--cards over ARBITER_CARDS: exit $rc"
  "$H" --help >"$tmp/h" 2>&1
  grep -q 'ARBITER_CARDS' "$tmp/h" && grep -q "$prefix/share/arbiter/cards" "$tmp/h" &&
    ok "--help names ARBITER_CARDS and the installed pool" || ko "--help does not say where the pool comes from"
fi
S=$prefix/bin/arbiter-selfplay R=$prefix/bin/arbiter-replay
if [ -x "$S" ] && [ -x "$R" ]; then
  (cd "$tmp" && "$S" --games 2 --seed 7 --out "$tmp/sp") >"$tmp/sp.out" 2>&1; rc=$?
  (cd "$tmp" && "$R" check "$tmp/sp") >"$tmp/rc.out" 2>&1; rc2=$?
  [ $rc = 0 ] && [ $rc2 = 0 ] && ok "arbiter-selfplay plays with the installed decks and arbiter-replay checks the games" ||
    { ko "selfplay (exit $rc) and replay check (exit $rc2) outside the tree"; tail -n 3 "$tmp/sp.out" "$tmp/rc.out"; }
fi

if command -v man >/dev/null 2>&1; then
  for p in $progs; do
    MANWIDTH=80 man --warnings -l "$prefix/share/man/man1/arbiter-$p.1" >"$tmp/man" 2>"$tmp/man.err" &&
      [ ! -s "$tmp/man.err" ] && grep -q "arbiter-$p" "$tmp/man" && ok "man arbiter-$p renders without warnings" ||
      { ko "man arbiter-$p"; head -n 3 "$tmp/man.err"; }
  done
fi
if command -v bash >/dev/null 2>&1; then
  got=$(bash -c '. "$1"; COMP_WORDS=(arbiter-harness --form); COMP_CWORD=1; _arbiter_harness; echo "${COMPREPLY[*]}";
                 COMP_WORDS=(arbiter-harness --format junit-s); COMP_CWORD=2; _arbiter_harness; echo "${COMPREPLY[*]}";
                 COMP_WORDS=(arbiter-replay ch); COMP_CWORD=1; _arbiter_replay; echo "${COMPREPLY[*]}"' \
        sh "$prefix/share/bash-completion/completions/arbiter-harness" | tr '\n' '/')
  [ "$got" = "--format/junit-strict/check/" ] && ok "bash completion completes options, formats and commands" ||
    ko "bash completion: $got"
fi

# the same build staged under DESTDIR: the same files
make --no-print-directory install "$@" DESTDIR="$tmp/stage" >/dev/null 2>&1
if diff -r "$prefix" "$tmp/stage$prefix" >"$tmp/diff" 2>&1; then ok "a DESTDIR install stages the same tree"
else ko "DESTDIR install differs"; head -n 5 "$tmp/diff"; fi
make --no-print-directory uninstall "$@" DESTDIR="$tmp/stage" >/dev/null 2>&1
left=$(find "$tmp/stage" -type f -o -type l | wc -l)
[ "$left" = 0 ] && ok "make uninstall removes every file" || ko "make uninstall left $left files: $(find "$tmp/stage" -type f -o -type l | head -3)"

echo "$pass passed, $fail failed"
[ $fail = 0 ]
