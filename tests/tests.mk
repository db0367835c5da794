# tests/tests.mk - the test programs and the parts of `make test`.
#
# Every part is a make target listed in TESTS (harness/harness.mk and
# tools/tools.mk add harness-test and replay-test); `make test` runs them all
# through mk/testsuite.sh, two at a time, and adds up their results. Parts:
#   unit-test         tests/unit/test_*.c through the public API
#   malformed-test    damaged cards, setups, cases and replays: refused, never a crash
#   fault-test        failing allocations and reads (tests/fault/)
#   soak-test         SOAK_SAMPLE random games under the invariant checker
#   determinism-test  the same games under gcc -O0 and clang -O2: identical files
#   install-test      make install into a scratch DESTDIR, then build against it
#   fuzz-smoke        each fuzz target for FUZZ_SMOKE_SECONDS (fuzz/fuzz.mk)
#   asan-test         the unit, malformed, fault, harness and replay parts and a
#                     self-play sample again under ASan + UBSan
# Variant builds live in their own directories under build/ (B=...).

TB = $(B)/tests
PLAY_OBJ = $(B)/tests/unit/play.o
UNIT_SRC = $(sort $(wildcard tests/unit/test_*.c)) tests/unit/unit.c
UNIT_OBJ = $(UNIT_SRC:%.c=$(B)/%.o) $(PLAY_OBJ)
UNIT_BIN = $(TB)/unit-tests
SOAK_BIN = $(TB)/soak
MALFORMED_BIN = $(TB)/malformed
TEST_OBJ = $(UNIT_OBJ) $(B)/tests/unit/soak.o $(B)/tests/unit/malformed.o

SOAK_SAMPLE ?= 300
SOAK_GAMES ?= 10000
SOAK_SEED ?= 1

# the selfplay program, once tools/tools.mk provides it
SELFPLAY = $(filter %/selfplay,$(PROGRAMS))

# The sanitizer flags. Known engine undefined behaviour listed in
# tests/unit/ubsan-known.supp is let through (its checks are made recoverable
# and the locations suppressed); with that file empty the flags are exactly
# $(SAN).
SAN = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
UBSAN_KNOWN := $(CURDIR)/tests/unit/ubsan-known.supp
SAN_KNOWN := $(shell sed -n 's/^\([a-z-]*\):.*/\1/p' $(UBSAN_KNOWN) 2>/dev/null | sort -u | paste -sd, -)
SAN_ALL = $(SAN)$(if $(SAN_KNOWN), -fsanitize-recover=$(SAN_KNOWN))
ASAN_VARS = B=build/asan BIN=build/asan/bin CC=clang OPT=-O1 SANFLAGS='$(SAN_ALL)'
GCC_O0_VARS = B=build/gcc-O0 BIN=build/gcc-O0/bin CC=gcc OPT=-O0 SANFLAGS=
CLANG_O2_VARS = B=build/clang-O2 BIN=build/clang-O2/bin CC=clang OPT=-O2 SANFLAGS=
export ASAN_OPTIONS = detect_leaks=1:abort_on_error=0:allocator_may_return_null=1
export UBSAN_OPTIONS = print_stacktrace=1:halt_on_error=1:suppressions=$(UBSAN_KNOWN)

TESTS += unit-test malformed-test fault-test soak-test determinism-test install-test asan-test

# the longest parts first, so that two at a time finish together
TEST_PARTS = $(filter asan-test,$(TESTS)) $(filter fuzz-smoke,$(TESTS)) \
             $(filter-out asan-test fuzz-smoke,$(TESTS))

$(UNIT_BIN): $(UNIT_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS_ALL) -o $@ $(UNIT_OBJ) $(LIB) $(LDLIBS_ALL)

$(SOAK_BIN): $(B)/tests/unit/soak.o $(PLAY_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS_ALL) -o $@ $^ $(LDLIBS_ALL)

$(MALFORMED_BIN): $(B)/tests/unit/malformed.o $(PLAY_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS_ALL) -o $@ $^ $(LDLIBS_ALL)

# ---- fault injection (tests/fault/) ----
# The wrappers of tests/fault/fault.c replace these calls in the objects
# linked with FAULT_LDFLAGS; libyaml and zlib are linked statically into
# fault-api so that their allocations fail too.
FAULT_WRAP = malloc calloc realloc free strdup strndup fread fgets read
FAULT_LDFLAGS = $(foreach f,$(FAULT_WRAP),-Wl,--wrap=$(f))
FAULT_OBJ = $(B)/tests/fault/fault.o
FAULT_API = $(TB)/fault-api
FAULT_BINS = $(FAULT_API)
TEST_OBJ += $(FAULT_OBJ) $(B)/tests/fault/fault_api.o

$(FAULT_API): $(B)/tests/fault/fault_api.o $(FAULT_OBJ) $(PLAY_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS_ALL) -o $@ $^ $(FAULT_LDFLAGS) -Wl,-Bstatic -lyaml -lz -Wl,-Bdynamic -lpthread $(SANFLAGS) $(LDFLAGS)

$(B)/tests/fault/%.o: CFLAGS += -Itests/unit

fault-test: $(FAULT_API)
	$(FAULT_API)

test-programs: all $(UNIT_BIN) $(SOAK_BIN) $(MALFORMED_BIN) $(FAULT_BINS)

# Everything the parts need, built up front in parallel (`make test` runs this
# with -k; a part whose build failed then fails on its own).
test-build: test-programs variant-asan variant-gcc-O0 variant-clang-O2 $(FUZZ_BUILD)

variant-asan:
	+@$(MAKE) --no-print-directory $(ASAN_VARS) test-programs
variant-gcc-O0:
	+@$(MAKE) --no-print-directory $(GCC_O0_VARS) $(SOAK_BIN:$(B)/%=build/gcc-O0/%) $(SELFPLAY:$(BIN)/%=build/gcc-O0/bin/%)
variant-clang-O2:
	+@$(MAKE) --no-print-directory $(CLANG_O2_VARS) $(SOAK_BIN:$(B)/%=build/clang-O2/%) $(SELFPLAY:$(BIN)/%=build/clang-O2/bin/%)

# ---- the parts ----

unit-test: $(UNIT_BIN)
	$(UNIT_BIN)

SOAK_KNOWN = --known tests/unit/soak-known.txt
SELFPLAY_CHECK = $(if $(SELFPLAY),'sh tests/unit/selfplay-check.sh $(SELFPLAY) $(1)','echo "SKIP selfplay --check: no selfplay program in this tree yet"')

soak-test: $(SOAK_BIN) $(SELFPLAY)
	@sh mk/sum.sh '$(SOAK_BIN) --games $(SOAK_SAMPLE) --seed $(SOAK_SEED) --check $(SOAK_KNOWN)' \
	  $(call SELFPLAY_CHECK,50)

# self-play sample for the sanitizer pass
selfplay-sample: $(SOAK_BIN) $(SELFPLAY)
	@sh mk/sum.sh '$(SOAK_BIN) --games 40 --seed 1000 --check $(SOAK_KNOWN)' $(call SELFPLAY_CHECK,10)

determinism-test: variant-gcc-O0 variant-clang-O2
	sh tests/unit/determinism.sh build/gcc-O0 build/clang-O2 $(if $(SELFPLAY),selfplay)

malformed-test: $(MALFORMED_BIN) all
	sh tests/unit/malformed.sh $(MALFORMED_BIN) $(BIN)

install-test: all
	rm -rf $(B)/install-test
	$(MAKE) --no-print-directory install DESTDIR=$(CURDIR)/$(B)/install-test PREFIX=/opt/arbiter >/dev/null
	sh tests/unit/install.sh $(CURDIR)/$(B)/install-test /opt/arbiter "$(notdir $(PROGRAMS))"

# The sanitizer pass: the same parts, built and run under build/asan.
ASAN_PARTS = unit-test malformed-test $(filter fault-test,$(TESTS)) selfplay-sample \
             $(filter harness-test replay-test,$(TESTS))
asan-test:
	+@$(MAKE) --no-print-directory $(ASAN_VARS) asan-suite
asan-suite:
	@sed -n 's/^\([a-z-]*:.*\)/SKIP known engine issue, suppressed: \1 (tests\/unit\/ubsan-known.supp)/p' $(UBSAN_KNOWN)
	+@MAKE="$(MAKE)" JOBS=1 EXTRA_SKIPPED=$$(grep -c '^[a-z-]*:' $(UBSAN_KNOWN)) \
	  sh mk/testsuite.sh "$(B)/test-logs" $(ASAN_PARTS)

# ---- long runs ----

soak: $(SOAK_BIN) $(SELFPLAY)
	@sh mk/sum.sh '$(SOAK_BIN) --games $(SOAK_GAMES) --seed $(SOAK_SEED) --check $(SOAK_KNOWN)' \
	  $(call SELFPLAY_CHECK,$(SOAK_GAMES))

-include $(TEST_OBJ:.o=.d)

.PHONY: fault-test test-programs test-build variant-asan variant-gcc-O0 variant-clang-O2 unit-test soak-test \
        selfplay-sample determinism-test malformed-test install-test asan-test asan-suite soak
