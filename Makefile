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
CFLAGS_ALL = $(CSTD) $(WARN) $(OPT) -g -MMD -MP -Iengine/include -Iengine -Iutil $(SANFLAGS) $(CFLAGS)
LDLIBS_ALL = -lyaml -lz -lpthread $(SANFLAGS) $(LDFLAGS)

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

PROGRAMS :=
TESTS :=

all: $(LIB) programs

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(CFLAGS_ALL) -c $< -o $@

$(LIB): $(ENGINE_OBJ)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

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
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig

# the pkg-config file names the final PREFIX; libdir and includedir stay
# relative to it when they are under it
PC_SED = -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' \
  -e 's|@LIBDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(LIBDIR))|g' \
  -e 's|@INCLUDEDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(INCLUDEDIR))|g'

install: all
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(LIBDIR)" "$(DESTDIR)$(INCLUDEDIR)" "$(DESTDIR)$(PKGCONFIGDIR)"
	$(if $(strip $(PROGRAMS)),install -m 755 $(PROGRAMS) "$(DESTDIR)$(BINDIR)/")
	install -m 644 $(LIB) "$(DESTDIR)$(LIBDIR)/libmtg.a"
	install -m 644 engine/include/mtg.h "$(DESTDIR)$(INCLUDEDIR)/mtg.h"
	sed $(PC_SED) mk/arbiter.pc.in >"$(DESTDIR)$(PKGCONFIGDIR)/arbiter.pc"
	sed $(PC_SED) -e 's|^Name: arbiter|Name: mtg|' mk/arbiter.pc.in >"$(DESTDIR)$(PKGCONFIGDIR)/mtg.pc"

uninstall:
	rm -f $(foreach p,$(notdir $(PROGRAMS)),"$(DESTDIR)$(BINDIR)/$(p)")
	rm -f "$(DESTDIR)$(LIBDIR)/libmtg.a" "$(DESTDIR)$(INCLUDEDIR)/mtg.h"
	rm -f "$(DESTDIR)$(PKGCONFIGDIR)/arbiter.pc" "$(DESTDIR)$(PKGCONFIGDIR)/mtg.pc"

# Everything built lives under build/ and bin/; nothing else is written.
clean:
	rm -rf build bin

help:
	@echo "make run        install missing dependencies, build, run cases/ and check replays/"
	@echo "make test       build and run every test (last line: N passed, N failed)"
	@echo "make            build the engine library ($(LIB)) and the programs ($(BIN)/)"
	@echo "make install    PREFIX=/usr/local DESTDIR= : programs, libmtg.a, mtg.h, arbiter.pc"
	@echo "make fuzz       run each fuzz target FUZZ_SECONDS (default 60) seconds"
	@echo "make soak       play SOAK_GAMES (default 10000) self-play games under the invariant checker"
	@echo "make bench      measure and write docs/benchmarks.md"
	@echo "make clean      remove build/ and bin/"
	@echo "V=1 shows the commands; B= and BIN= choose the build and program directories."

.PHONY: all programs deps run test test-deps fuzz soak bench install uninstall clean help
