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
TESTS += harness-test report-test

# The corpus must pass, with the engine's invariant checker after every
# decision (--check); every malformed case must be refused (exit 2) with a
# located message containing its expected text; the compiled-in rules index
# must match cases/rules.yaml; the text report written as the run goes is the
# one written at the end (tests/harness/stream.sh).
harness-test: $(BIN)/harness
	@sh mk/sum.sh '$(BIN)/harness --check-rules-index cases/rules.yaml' 'sh tests/malformed/run.sh $(BIN)/harness' \
	  '$(BIN)/harness --check cases' 'sh tests/harness/stream.sh $(BIN)/harness'

# The reports in CI (report-test, not run again under the sanitizers): they
# survive bad input in every format, TAP parses with prove, strict JUnit is
# valid against tests/schema/junit.xsd, the CLI conventions
# (tests/harness/reports.py); the report page renders in headless Chromium
# and its counts per section equal --coverage's (tests/harness/page.py);
# docs/ci.md's commands and workflows work, one version (tests/harness/ci_doc.py).
PY_TEST = if command -v python3 >/dev/null 2>&1; then python3 $(1) $(BIN)/harness $(2); \
  else echo "SKIP $(1): no python3"; fi
report-test: $(BIN)/harness
	@sh mk/sum.sh '$(call PY_TEST,tests/harness/reports.py)' '$(call PY_TEST,tests/harness/page.py)' \
	  '$(call PY_TEST,tests/harness/ci_doc.py)'

# The README's picture of the report page, made by the same check.
report-screenshot: $(BIN)/harness
	python3 tests/harness/page.py $(BIN)/harness --screenshot docs/report.png

-include $(filter $(B)/harness/%,$(HARNESS_OBJ:.o=.d))

.PHONY: harness-test report-test report-screenshot
