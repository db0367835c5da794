# harness/harness.mk - bin/harness, the conformance harness (included by the top-level Makefile).
HARNESS_SRC = $(wildcard harness/*.c)
# --record writes replays with the replay tools' writer (tools/replaylog.h);
# without it the harness builds all the same and --record says it can't.
HARNESS_REPLAY = $(wildcard tools/replaylog.c tools/zlines.c)
ifeq ($(words $(HARNESS_REPLAY)),2)
HARNESS_SRC += $(HARNESS_REPLAY)
$(B)/harness/record.o: CFLAGS_ALL += -DHARNESS_REPLAYLOG
endif
HARNESS_OBJ = $(sort $(HARNESS_SRC:%.c=$(B)/%.o))

$(BIN)/harness: $(HARNESS_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(HARNESS_OBJ) $(LIB) $(LDLIBS_ALL) -o $@

PROGRAMS += $(BIN)/harness
TESTS += harness-test

# The corpus must pass; every malformed case must be refused (exit 2) with a
# located message containing its expected text; the compiled-in rules index
# must match cases/rules.yaml; the reports must survive bad input in every
# format (tests/harness/reports.py).
HARNESS_REPORTS = if command -v python3 >/dev/null 2>&1; then python3 tests/harness/reports.py $(BIN)/harness; \
  else echo "SKIP tests/harness/reports.py: no python3"; fi
harness-test: $(BIN)/harness
	@sh mk/sum.sh '$(BIN)/harness --check-rules-index cases/rules.yaml' 'sh tests/malformed/run.sh $(BIN)/harness' \
	  '$(HARNESS_REPORTS)' '$(BIN)/harness cases'

-include $(filter $(B)/harness/%,$(HARNESS_OBJ:.o=.d))

.PHONY: harness-test
