# fuzz/fuzz.mk - the libFuzzer targets (clang -fsanitize=fuzzer,address,undefined):
#   fuzz_cards   the card loader (mtg_pool_load_buffer), then a short game with the cards
#   fuzz_game    random setups built from the input, every decision answered from it
#   fuzz_cases   the harness's case loader and runner (needs harness/)
#   fuzz_replay  the replay reader and checker (needs tools/replaylog.c, tools/verify.c)
#   fuzz_setup   the setup's text form (mtg_setup_read): refusals located, what reads
#                writes back the same, and plays a few decisions
# They build in build/fuzz (the whole tree instrumented for coverage).
#   make fuzz [FUZZ_SECONDS=60] [FUZZ_TARGETS="cards game"]   run each target
#   make fuzz-smoke [FUZZ_SMOKE_SECONDS=15]                     the part of make test
# Both replay fuzz/regress/<target>/ (must not crash) and fuzz/quarantine/<target>/
# (known engine crashes, reported as skipped); see fuzz/run.sh.

FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 15
FUZZ_SAN = -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all \
           $(if $(SAN_KNOWN),-fsanitize-recover=$(SAN_KNOWN))
FUZZ_VARS = B=build/fuzz BIN=build/fuzz/bin CC=clang OPT=-O1 SANFLAGS='$(FUZZ_SAN)'

# the harness and replay objects the loaders live in (all but the mains)
FUZZ_HARNESS_OBJ = $(filter-out %/main.o,$(HARNESS_OBJ))
FUZZ_REPLAY_OBJ = $(patsubst %.c,$(B)/%.o,$(filter-out tools/replay.c,$(REPLAY_SRC)))
FUZZ_ALL = cards game setup $(if $(FUZZ_HARNESS_OBJ),cases) $(if $(FUZZ_REPLAY_OBJ),replay)
FUZZ_TARGETS ?= $(FUZZ_ALL)
FUZZ_COMMON = $(B)/fuzz/fuzz.o $(PLAY_OBJ) $(LIB)
FUZZ_OBJ = $(patsubst %,$(B)/fuzz/fuzz_%.o,$(FUZZ_ALL)) $(B)/fuzz/fuzz.o

$(B)/fuzz/%.o: CFLAGS += -Itests/unit -Iharness -Itools

FUZZ_LINK = @mkdir -p $(dir $@); $(if $(Q),echo "  LD      $@";) \
  $(CC) $(CFLAGS_ALL) -fsanitize=fuzzer -o $@ $^ $(LDLIBS_ALL)

$(B)/fuzz/fuzz_cards: $(B)/fuzz/fuzz_cards.o $(FUZZ_COMMON)
	$(FUZZ_LINK)
$(B)/fuzz/fuzz_game: $(B)/fuzz/fuzz_game.o $(FUZZ_COMMON)
	$(FUZZ_LINK)
$(B)/fuzz/fuzz_setup: $(B)/fuzz/fuzz_setup.o $(FUZZ_COMMON)
	$(FUZZ_LINK)
$(B)/fuzz/fuzz_cases: $(B)/fuzz/fuzz_cases.o $(FUZZ_HARNESS_OBJ) $(FUZZ_COMMON)
	$(FUZZ_LINK)
$(B)/fuzz/fuzz_replay: $(B)/fuzz/fuzz_replay.o $(FUZZ_REPLAY_OBJ) $(FUZZ_COMMON)
	$(FUZZ_LINK)

fuzz-bins: $(patsubst %,$(B)/fuzz/fuzz_%,$(FUZZ_TARGETS))

# built from the top level into build/fuzz
test-build: fuzz-build
# -k: a target that does not build is reported by fuzz/run.sh; the others run
fuzz-build:
	+@$(MAKE) --no-print-directory -k $(FUZZ_VARS) fuzz-bins || echo "fuzz-build: some targets did not build"


fuzz-run: fuzz-build
	@sh fuzz/run.sh long $(FUZZ_SECONDS) build/fuzz $(FUZZ_TARGETS)

fuzz-smoke: fuzz-build
	@sh fuzz/run.sh smoke $(FUZZ_SMOKE_SECONDS) build/fuzz $(FUZZ_TARGETS)

TESTS += fuzz-smoke

-include $(FUZZ_OBJ:.o=.d)

.PHONY: fuzz-run fuzz-smoke fuzz-build fuzz-bins
