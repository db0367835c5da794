#!/bin/sh
# mk/deps.sh - finds missing build or test dependencies and, when running as
# root on Debian, installs them with apt-get; otherwise says what to install.
#
# usage: CC=cc sh mk/deps.sh build|test|soak
#   build: a C compiler, libyaml, libdeflate and zlib headers (what `make` and `make run` need)
#   test:  build + gcc and clang with the sanitizer and libFuzzer runtimes,
#          gzip, pkg-config, python3, xmllint (libxml2-utils), prove (perl)
#          chromium and valgrind (what `make test` needs)
#
# The probes are cheap (command -v, one preprocessor run per header, a file
# lookup), so an up-to-date machine pays a few milliseconds.
set -u
mode=${1:-build}
cc=${CC:-cc}
missing=""
need() { case " $missing " in *" $1 "*) ;; *) missing="$missing $1" ;; esac; }

has_header() { printf '#include <%s>\n' "$1" | "$cc" -E -x c - >/dev/null 2>&1; }

probe() {
  missing=""
  if command -v "${cc%% *}" >/dev/null 2>&1; then
    has_header yaml.h || need libyaml-dev
    has_header zlib.h || need zlib1g-dev
    has_header libdeflate.h || need libdeflate-dev
  else
    need gcc
    need libc6-dev
    # without a compiler the headers cannot be probed: ask for them too
    [ -e /usr/include/yaml.h ] || need libyaml-dev
    [ -e /usr/include/zlib.h ] || need zlib1g-dev
    [ -e /usr/include/libdeflate.h ] || need libdeflate-dev
  fi
  # make soak checks its corpus in slices under GNU parallel
  if [ "$mode" = soak ]; then
    command -v parallel >/dev/null 2>&1 || need parallel
    return 0
  fi
  [ "$mode" = test ] || return 0
  command -v gcc >/dev/null 2>&1 || need gcc
  if command -v clang >/dev/null 2>&1; then
    # libFuzzer and the sanitizer runtimes ship apart from clang on Debian
    f=$(clang -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null)
    a=$(clang -print-file-name=libclang_rt.asan-x86_64.a 2>/dev/null)
    { [ -f "$f" ] && [ -f "$a" ]; } || need libclang-rt-dev
  else
    need clang
    need libclang-rt-dev
  fi
  command -v gzip >/dev/null 2>&1 || need gzip
  command -v pkg-config >/dev/null 2>&1 || need pkg-config
  # the report tests: python3 drives them, xmllint checks strict JUnit
  # against its schema, prove parses TAP, headless Chromium renders the page
  command -v python3 >/dev/null 2>&1 || need python3
  command -v xmllint >/dev/null 2>&1 || need libxml2-utils
  command -v prove >/dev/null 2>&1 || need perl
  # the cases under memcheck (valgrind-test, the mutation runs' last check)
  command -v valgrind >/dev/null 2>&1 || need valgrind
  command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || need chromium
}

probe
[ -z "$missing" ] && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "deps: installing$missing"
  export DEBIAN_FRONTEND=noninteractive
  # shellcheck disable=SC2086
  if ! apt-get install -y -q --no-install-recommends $missing >/dev/null 2>&1; then
    apt-get update -q >/dev/null 2>&1
    apt-get install -y -q --no-install-recommends $missing || {
      echo "deps: apt-get could not install:$missing" >&2
      exit 1
    }
  fi
  probe
  [ -z "$missing" ] && exit 0
  echo "deps: still missing after installing:$missing" >&2
  exit 1
fi

echo "deps: missing$missing" >&2
echo "deps: install them with: sudo apt-get install -y$missing" >&2
exit 1
