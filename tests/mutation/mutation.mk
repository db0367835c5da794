# tests/mutation/mutation.mk - `make mutation`: does the suite notice a broken
# engine? Injects one small fault at a time into engine/*.c and runs the
# checks of `make test` that see the engine (the cases, the unit tests, the
# failing allocations of the fault API test, the invariant checker over seeded
# games, the sanitizer build, valgrind) on each; see
# tests/mutation/mutate.c and try.sh, and README.md.
#
#   make mutation [MUTANTS=100] [SEED=1] [MUTATION_FILES=engine/turn.c ...] [-jN]
#   make mutation KEYS=FILE      exactly the mutants FILE lists by key (a run's
#                                survivors, to see whether new cases kill them)
#   make mutation MUTATION_CHECKS=cases
#                                a screening run: only the named checks (cases
#                                replays unit fault soak asan valgrind). Its
#                                survivors are candidates, its score is not
#                                the suite's: the other checks kill some of them
#
# Mutants are built in build/mutation/jK/, never in the tree: the engine's
# objects of the ordinary build are linked with the one mutated file, compiled
# at -O0 without -Werror (a logic mutant that only warns must still be tried).
# Exit 1 when fewer than MUTATION_GOAL percent (90) of the mutants that compile
# and are not listed in tests/mutation/equivalent.txt are detected.

MUTANTS ?= 100
SEED ?= 1
MUTATION_GOAL ?= 90
# all of the engine but the card loader and the log formatter
MUTATION_FILES ?= $(filter-out engine/cardload.c engine/log.c,$(sort $(wildcard engine/*.c)))
# -jN given to make, else the processors
MUTATION_JOBS ?= $(or $(patsubst -j%,%,$(filter -j%,$(MAKEFLAGS))),$(JOBS))
# the small fixed sample `make test` runs, so that a change weakening the suite
# shows: its goal is a floor under the figure the suite reaches today (see
# docs/mutation.md), not the 90% a full run is measured against
MUTATION_TEST_MUTANTS ?= 20
MUTATION_TEST_SEED ?= 16
MUTATION_TEST_GOAL ?= 50
# the valgrind check (1: where valgrind is installed). The sample of `make test`
# goes without: memcheck costs each survivor of it tens of seconds, and
# valgrind-test runs the cases under memcheck in the same `make test`
MUTATION_VALGRIND ?= 1
# every check (empty), or a screening run's names
MUTATION_CHECKS ?=

MUTATE_BIN = $(TB)/mutate
TEST_OBJ += $(B)/tests/mutation/mutate.o

TESTS += mutation-test
test-programs: $(MUTATE_BIN)

$(MUTATE_BIN): $(B)/tests/mutation/mutate.o
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS_ALL) -o $@ $^ $(LDLIBS_ALL)

# the fault API test but the engine (tests/tests.mk)
MUT_FAULT_OBJ = $(B)/tests/fault/fault_api.o $(FAULT_OBJ) $(PLAY_OBJ) $(FAULT_RLOG_OBJ)

# the sanitizer build's objects (build/asan, as `make test` builds them)
MUT_ASAN_B = build/asan
MUT_ASAN_HARNESS = $(MUT_ASAN_B)/bin/harness
mutation-asan:
	+@$(MAKE) --no-print-directory $(ASAN_VARS) $(MUT_ASAN_HARNESS)

MUT_ENV = MUT_VALGRIND='$(MUTATION_VALGRIND)' MUT_CHECKS='$(MUTATION_CHECKS)' MUT_CC='$(CC)' MUT_CFLAGS='$(CSTD) -O0 -w -Iengine/include -Iengine -Iutil' \
  MUT_B='$(B)' MUT_ENGINE_OBJ='$(ENGINE_OBJ)' MUT_LDLIBS='$(LDLIBS_ALL)' \
  MUT_HARNESS_OBJ='$(HARNESS_OBJ)' MUT_REPLAY_OBJ='$(REPLAY_SRC:%.c=$(B)/%.o)' MUT_UNIT_OBJ='$(UNIT_OBJ)' MUT_SOAK_OBJ='$(B)/tests/unit/soak.o $(PLAY_OBJ)' \
  MUT_FAULT_OBJ='$(MUT_FAULT_OBJ)' MUT_FAULT_LDFLAGS='$(FAULT_LDFLAGS) -Wl,-Bstatic -lyaml -lz -Wl,-Bdynamic -ldeflate' \
  MUT_ASAN_CC=clang MUT_ASAN_CFLAGS='$(CSTD) -O1 -w -Iengine/include -Iengine -Iutil $(SAN_ALL)' \
  MUT_ASAN_B='$(MUT_ASAN_B)' MUT_ASAN_ENGINE_OBJ='$(ENGINE_SRC:%.c=$(MUT_ASAN_B)/%.o)' \
  MUT_ASAN_HARNESS_OBJ='$(HARNESS_OBJ:$(B)/%=$(MUT_ASAN_B)/%)' MUT_ASAN_LDLIBS='-lyaml -ldeflate -lz -lpthread $(SAN_ALL)'

mutation: $(MUTATE_BIN) $(ENGINE_OBJ) $(HARNESS_OBJ) $(REPLAY_SRC:%.c=$(B)/%.o) $(UNIT_OBJ) $(B)/tests/unit/soak.o $(MUT_FAULT_OBJ) mutation-asan
	@$(MUT_ENV) $(MUTATE_BIN) $(if $(KEYS),--keys $(KEYS),--mutants $(MUTANTS)) --seed $(SEED) -j $(MUTATION_JOBS) --goal $(MUTATION_GOAL) \
	  --equivalent tests/mutation/equivalent.txt --work $(B)/mutation $(MUTATION_FILES)

# the part of `make test`: one job, as another part runs beside it
mutation-test:
	+@$(MAKE) --no-print-directory mutation MUTANTS=$(MUTATION_TEST_MUTANTS) SEED=$(MUTATION_TEST_SEED) MUTATION_JOBS=1 \
	  MUTATION_GOAL=$(MUTATION_TEST_GOAL) MUTATION_VALGRIND=0

.PHONY: mutation mutation-test mutation-asan
