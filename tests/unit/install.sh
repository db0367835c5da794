#!/bin/sh
# tests/unit/install.sh - checks a `make install DESTDIR=... PREFIX=...`:
# the library, the header and the pkg-config files are in place, a program
# builds against them with pkg-config's flags and runs, and every installed
# program answers --help and --version.
# usage: sh tests/unit/install.sh DESTDIR PREFIX "PROGRAM..."
set -u
dest=$1 prefix=$2 progs=$3
root=$dest$prefix
pass=0 fail=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
ko() { echo "FAIL $1"; fail=$((fail + 1)); }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for f in lib/libmtg.a include/mtg.h lib/pkgconfig/arbiter.pc lib/pkgconfig/mtg.pc; do
  [ -f "$root/$f" ] && ok "installed $prefix/$f" || ko "missing $prefix/$f"
done

cat >"$tmp/use.c" <<'EOF'
/* a program using the installed engine */
#include <mtg.h>
#include <stdio.h>
#include <string.h>
int main(void) {
  mtg_pool *p;
  mtg_error e;
  const char *y = "- name: Bear\n  type: Creature — Bear\n  pt: 2/2\n";
  if (mtg_pool_new(&p, NULL) || mtg_pool_load_buffer(p, "x.yaml", y, strlen(y), &e)) return 1;
  printf("%s %d\n", MTG_VERSION, mtg_pool_count(p));
  mtg_pool_free(p);
  return 0;
}
EOF
# the .pc files name the final prefix; point pkg-config at the staged copy
sed "s|^prefix=.*|prefix=$root|" "$root/lib/pkgconfig/arbiter.pc" >"$tmp/arbiter.pc"
flags=$(PKG_CONFIG_PATH=$tmp pkg-config --cflags --libs --static arbiter 2>&1)
if cc -std=c11 -o "$tmp/use" "$tmp/use.c" $flags 2>"$tmp/cc.err" && "$tmp/use" >"$tmp/out" 2>&1 &&
   grep -q ' 1$' "$tmp/out"; then
  ok "a program builds with \`pkg-config --cflags --libs --static arbiter\` ($flags) and runs"
else
  ko "building against the installed library with: $flags"
  cat "$tmp/cc.err" "$tmp/out" 2>/dev/null | head -n 10
fi

for p in $progs; do
  exe=$root/bin/$p
  if [ ! -x "$exe" ]; then ko "$prefix/bin/$p not installed"; continue; fi
  if "$exe" --help >"$tmp/h" 2>&1 && [ -s "$tmp/h" ]; then ok "$p --help"; else ko "$p --help (exit $?)"; fi
  if "$exe" --version >"$tmp/v" 2>&1 && [ -s "$tmp/v" ]; then ok "$p --version: $(head -n 1 "$tmp/v")"; else ko "$p --version"; fi
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
