# Makefile - top-level build of arbiter: the engine library, the programs and
# the quality gates. `make help` lists the targets.
#
# Components add their own rules in fragments included below
# (harness/harness.mk, tools/tools.mk, tests/tests.mk, fuzz/fuzz.mk,
# bench/bench.mk). A fragment appends its programs to PROGRAMS and its test
# targets to TESTS, links with $(CC) $(CFLAGS_ALL) ... $(LIB) $(LDLIBS_ALL)
# and builds objects with the pattern rule $(B)/%.o: %.c, so that every
# variant build (B=build/asan SANFLAGS=..., CC=clang OPT=-O0, ...) rebuilds
# everything into its own directory.
CC ?= cc
OPT ?= -O2
B ?= build
BIN ?= bin
PREFIX ?= /usr/local
DESTDIR ?=
CSTD = -std=c11 -D_POSIX_C_SOURCE=200809L
WARN = -Wall -Wextra -Wpedantic -Werror
CFLAGS_ALL = $(CSTD) $(WARN) $(OPT) -g -MMD -MP -Iengine/include -Iengine -Iutil -I$(B)/gen $(SANFLAGS) $(CFLAGS)
LDLIBS_ALL = -lyaml -ldeflate -lz -lpthread $(SANFLAGS) $(LDFLAGS)

# quiet unless V=1
ifeq ($(V),1)
Q :=
else
Q := @
endif

VERSION := $(shell sed -n 's/^\#define MTG_VERSION "\(.*\)"/\1/p' engine/include/mtg.h)
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

ENGINE_SRC = $(wildcard engine/*.c) $(wildcard util/*.c)
ENGINE_OBJ = $(ENGINE_SRC:%.c=$(B)/%.o)
LIB = $(B)/libmtg.a
# the shared library (not in the sanitizer builds): libmtg.so.VERSION, soname
# libmtg.so.MAJOR, exporting exactly the functions of mtg.h
MAJOR := $(firstword $(subst ., ,$(VERSION)))
SHLIB = $(B)/libmtg.so.$(VERSION)

PROGRAMS :=
TESTS :=

all: $(LIB) $(if $(SANFLAGS),,$(SHLIB)) programs

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(CFLAGS_ALL) -c $< -o $@

$(LIB): $(ENGINE_OBJ)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

$(ENGINE_OBJ): CFLAGS_ALL += -fPIC
$(B)/libmtg.map: engine/include/mtg.h
	@mkdir -p $(dir $@)
	$(Q){ echo '{ global:'; sed -n 's/^[^#/ ].*[^a-z_0-9]\(mtg_[a-z0-9_]*\)(.*/  \1;/p' $<; echo '  local: *; };'; } >$@
$(SHLIB): $(ENGINE_OBJ) $(B)/libmtg.map
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -shared -Wl,-soname,libmtg.so.$(MAJOR) -Wl,--version-script=$(B)/libmtg.map -o $@ $(ENGINE_OBJ) \
	  -lyaml -lz -lpthread $(LDFLAGS)

# The data directory compiled into the programs (util/paths.c): rewritten
# only when PREFIX or DATADIR changes, so that a change rebuilds what uses it.
$(B)/gen/datadir.h: FORCE
	@mkdir -p $(dir $@)
	@echo '#define ARBITER_DATADIR "$(PKGDATADIR)"' >$@.tmp; cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp
$(B)/util/paths.o: $(B)/gen/datadir.h
FORCE:

-include harness/harness.mk
-include tools/tools.mk
-include tests/tests.mk
-include fuzz/fuzz.mk
-include bench/bench.mk

programs: $(PROGRAMS)

-include $(ENGINE_OBJ:.o=.d)

# ---- the two commands of the README ----

# Dependencies are probed cheaply (a preprocessor run per header, `command -v`)
# and installed with apt-get only when something is missing and we are root.
deps:
	@CC="$(CC)" sh mk/deps.sh build

# Builds, runs the conformance suite over cases/ and checks every replay.
run: deps
	@$(MAKE) --no-print-directory -j$(JOBS) all
	@sh mk/run.sh "$(BIN)"

# Builds and runs every test; see tests/tests.mk for the parts and README.md
# for how the last line ("N passed, N failed") is counted.
test: test-deps
	@$(MAKE) --no-print-directory -k -j$(JOBS) test-build || true
	+@MAKE="$(MAKE)" JOBS=$(JOBS) sh mk/testsuite.sh "$(B)/test-logs" $(TEST_PARTS)

test-deps:
	@CC="$(CC)" sh mk/deps.sh test

# ---- long runs: the rules are in fuzz/fuzz.mk, tests/tests.mk, bench/bench.mk ----

# each fuzz target for FUZZ_SECONDS (60); crashers are kept in fuzz/quarantine/
fuzz: fuzz-run
# SOAK_GAMES (10000) seeded games under the invariant checker
soak: soak-run
# the benchmarks, written to docs/benchmarks.md
bench: bench-run

# ---- install ----

LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
PKGDATADIR = $(DATADIR)/arbiter
MANDIR ?= $(DATADIR)/man
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
# the programs as installed: arbiter-harness, arbiter-replay, arbiter-selfplay
INSTALLED = $(addprefix arbiter-,$(notdir $(PROGRAMS)))

# the pkg-config file names the final PREFIX; libdir and includedir stay
# relative to it when they are under it
PC_SED = -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' \
  -e 's|@LIBDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(LIBDIR))|g' \
  -e 's|@INCLUDEDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(INCLUDEDIR))|g'

# Programs, the static and shared libraries, the header (arbiter/mtg.h), the
# pkg-config files, the card pool (PKGDATADIR/cards, the programs' default
# outside a source tree) and self-play's decks (PKGDATADIR/decks), the man
# pages and the bash completions.
install: all
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(LIBDIR)" "$(DESTDIR)$(INCLUDEDIR)/arbiter" "$(DESTDIR)$(PKGCONFIGDIR)" \
	  "$(DESTDIR)$(PKGDATADIR)/cards" "$(DESTDIR)$(MANDIR)/man1" "$(DESTDIR)$(BASHCOMPDIR)"
	$(foreach p,$(PROGRAMS),install -m 755 $(p) "$(DESTDIR)$(BINDIR)/arbiter-$(notdir $(p))" &&) true
	install -m 644 $(LIB) "$(DESTDIR)$(LIBDIR)/libmtg.a"
	install -m 755 $(SHLIB) "$(DESTDIR)$(LIBDIR)/libmtg.so.$(VERSION)"
	ln -sf libmtg.so.$(VERSION) "$(DESTDIR)$(LIBDIR)/libmtg.so.$(MAJOR)"
	ln -sf libmtg.so.$(MAJOR) "$(DESTDIR)$(LIBDIR)/libmtg.so"
	install -m 644 engine/include/mtg.h "$(DESTDIR)$(INCLUDEDIR)/arbiter/mtg.h"
	sed $(PC_SED) mk/arbiter.pc.in >"$(DESTDIR)$(PKGCONFIGDIR)/arbiter.pc"
	sed $(PC_SED) -e 's|^Name: arbiter|Name: mtg|' mk/arbiter.pc.in >"$(DESTDIR)$(PKGCONFIGDIR)/mtg.pc"
	install -d "$(DESTDIR)$(PKGDATADIR)/decks"
	install -m 644 replays/decks/*.yaml "$(DESTDIR)$(PKGDATADIR)/decks/"
	cd engine/cards && find . -name '*.yaml' -type f | sort | while read -r f; do \
	  install -D -m 644 "$$f" "$(DESTDIR)$(PKGDATADIR)/cards/$$f" || exit 1; done
	$(foreach p,$(INSTALLED),install -m 644 man/$(p).1 "$(DESTDIR)$(MANDIR)/man1/$(p).1" &&) true
	$(foreach p,$(INSTALLED),install -m 644 completions/arbiter.bash "$(DESTDIR)$(BASHCOMPDIR)/$(p)" &&) true

uninstall:
	rm -f $(foreach p,$(INSTALLED),"$(DESTDIR)$(BINDIR)/$(p)" "$(DESTDIR)$(MANDIR)/man1/$(p).1" "$(DESTDIR)$(BASHCOMPDIR)/$(p)")
	rm -f "$(DESTDIR)$(LIBDIR)/libmtg.a" "$(DESTDIR)$(LIBDIR)/libmtg.so.$(VERSION)" "$(DESTDIR)$(LIBDIR)/libmtg.so.$(MAJOR)" \
	  "$(DESTDIR)$(LIBDIR)/libmtg.so" "$(DESTDIR)$(INCLUDEDIR)/arbiter/mtg.h"
	rm -f "$(DESTDIR)$(PKGCONFIGDIR)/arbiter.pc" "$(DESTDIR)$(PKGCONFIGDIR)/mtg.pc"
	rm -rf "$(DESTDIR)$(PKGDATADIR)"
	-rmdir "$(DESTDIR)$(INCLUDEDIR)/arbiter" 2>/dev/null

# Everything built lives under build/ and bin/; nothing else is written.
clean:
	rm -rf build bin

help:
	@echo "make run        install missing dependencies, build, run cases/ and check replays/"
	@echo "make test       build and run every test (last line: N passed, N failed)"
	@echo "make            build the engine library ($(LIB)) and the programs ($(BIN)/)"
	@echo "make install    PREFIX=/usr/local DESTDIR= : arbiter-* programs, libmtg.a and .so, arbiter/mtg.h,"
	@echo "                arbiter.pc, the card pool (PREFIX/share/arbiter/cards), man pages, bash completion"
	@echo "make fuzz       run each fuzz target FUZZ_SECONDS (default 60) seconds"
	@echo "make soak       play SOAK_GAMES (default 10000) self-play games under the invariant checker"
	@echo "make bench      measure and write docs/benchmarks.md"
	@echo "make clean      remove build/ and bin/"
	@echo "V=1 shows the commands; B= and BIN= choose the build and program directories."

.PHONY: FORCE all programs deps run test test-deps fuzz soak bench install uninstall clean help
