# tools/tools.mk - the replay tools: bin/selfplay (records self-play games),
# bin/replay (checks, re-records, dumps and compares replays), the corpus's
# make targets (replay-corpus, record-cases), the engine-change report (make
# impact) and their test parts (replay-test, cases-test, impact-test).

TOOLS_SHARED = tools/replaylog.c tools/zlines.c tools/cli.c tools/parallel.c
SELFPLAY_SRC = tools/selfplay.c tools/match.c tools/agent.c tools/decks.c $(TOOLS_SHARED)
REPLAY_SRC = tools/replay.c tools/verify.c tools/answer.c tools/report.c tools/poolset.c tools/impact.c tools/defcache.c $(TOOLS_SHARED)
CARDCOV_SRC = tools/cardcov.c
TOOLS_OBJ = $(sort $(SELFPLAY_SRC:%.c=$(B)/%.o) $(REPLAY_SRC:%.c=$(B)/%.o) $(CARDCOV_SRC:%.c=$(B)/%.o))

# bin/cardcov writes a page of this tree (make card-coverage): built when that
# needs it, not installed
PROGRAMS += $(BIN)/selfplay $(BIN)/replay
TESTS += replay-test cases-test impact-test card-coverage-test

# replaylog.c needs only zlines.c: harness/harness.mk links that pair into
# bin/harness for --record.
$(BIN)/selfplay: $(SELFPLAY_SRC:%.c=$(B)/%.o) $(LIB)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS_ALL) $^ -o $@ $(LDLIBS_ALL)

$(BIN)/replay: $(REPLAY_SRC:%.c=$(B)/%.o) $(LIB)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS_ALL) $^ -o $@ $(LDLIBS_ALL)

$(BIN)/cardcov: $(CARDCOV_SRC:%.c=$(B)/%.o) $(LIB)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS_ALL) $^ -o $@ $(LDLIBS_ALL)

# The card coverage page (issue 11's yardstick): the sample of real cards
# against the pool and the cases' results, written by make card-coverage;
# card-coverage-test fails when the page is not what the tree gives today.
CARD_SAMPLE = tests/real-cards/sample.yaml
CARD_MECHANICS = tests/real-cards/mechanics.yaml docs/cards.md
card-coverage: $(BIN)/harness $(BIN)/cardcov
	@mkdir -p $(B)
	$(BIN)/harness -j$(JOBS) --format json cases >$(B)/card-cases.jsonl 2>/dev/null || [ $$? = 1 ]
	$(BIN)/cardcov $(CARD_SAMPLE) engine/cards $(B)/card-cases.jsonl $(CARD_MECHANICS) >$(B)/card-coverage.md
	mv $(B)/card-coverage.md docs/card-coverage.md

card-coverage-test: $(BIN)/harness $(BIN)/cardcov
	@mkdir -p $(B)
	$(BIN)/harness -j$(JOBS) --format json cases >$(B)/card-cases-test.jsonl 2>/dev/null || [ $$? = 1 ]
	$(BIN)/cardcov $(CARD_SAMPLE) engine/cards $(B)/card-cases-test.jsonl $(CARD_MECHANICS) >$(B)/card-coverage.md
	@if cmp -s $(B)/card-coverage.md docs/card-coverage.md; then echo "card coverage page up to date: $$(sed -n 's/^| defined faithfully, named by a passing case | \([0-9]*\).*/\1/p' docs/card-coverage.md) cards counted"; \
	else diff -u docs/card-coverage.md $(B)/card-coverage.md | head -40; echo "docs/card-coverage.md is stale: run make card-coverage"; exit 1; fi

# The corpus must check clean, every kind of tampering must be caught, and
# self-play must be deterministic (tests/replay/replay-test.sh).
replay-test: $(BIN)/replay $(BIN)/selfplay
	sh tests/replay/replay-test.sh $(BIN) $(if $(SANFLAGS),sample)

# Re-records the corpus after an intended change of the engine's log, which
# makes the recorded games differ: the self-play games with the same seed and
# decks, the frozen version-1 sample (replays/compat/) with its own
# decisions, in its own format and with its frozen pool.
REPLAY_CORPUS_SEED = 20251119
REPLAY_CORPUS_GAMES = 60
replay-corpus: $(BIN)/selfplay $(BIN)/replay
	rm -f replays/selfplay/game-*.rpl.gz
	$(BIN)/selfplay --games $(REPLAY_CORPUS_GAMES) --seed $(REPLAY_CORPUS_SEED) --out replays/selfplay --check
	$(BIN)/replay rerecord replays/compat

# The recording of every case, one file per case (replays/cases/<id>.gz):
# written again from scratch, so that a case removed loses its recording.
# A failing case (exit 1) is recorded as it plays.
record-cases: $(BIN)/harness
	rm -f replays/cases/*.gz
	$(BIN)/harness -j$(JOBS) --quiet --record replays/cases cases >/dev/null || [ $$? = 1 ]

# replays/cases/ holds exactly the recording of every case as the tree
# records it now (tests/replay/cases-test.sh).
cases-test: $(BIN)/harness $(BIN)/replay
	sh tests/replay/cases-test.sh $(BIN)

# make impact BASE=<git revision> [IMPACT_FORMAT=json]: the base revision
# built in a scratch copy of its tree ($(B)/impact/base-<hash>, kept for the
# next run), its cases and IMPACT_GAMES self-play games recorded with it and
# checked with the current build; prints what changed grouped by rule
# (mk/impact.sh). Fails when something changed.
IMPACT_DIR = $(B)/impact
IMPACT_FORMAT = text
impact: $(BIN)/replay
	@test -n "$(BASE)" || { echo "make impact BASE=<git revision>: the revision to compare with" >&2; exit 2; }
	@rev=$$(git rev-parse --verify -q "$(BASE)^{commit}") || { echo "impact: $(BASE) is not a revision" >&2; exit 2; }; \
	dir=$(CURDIR)/$(IMPACT_DIR)/base-$$rev; \
	if [ ! -x "$$dir/bin/harness" ] || [ ! -x "$$dir/bin/selfplay" ]; then \
	  echo "impact: building $(BASE) ($$rev) in $$dir" >&2; \
	  rm -rf "$$dir" && mkdir -p "$$dir" && git archive "$$rev" | tar -x -C "$$dir" && \
	  $(MAKE) --no-print-directory -C "$$dir" -j$(JOBS) B=build BIN=bin CC="$(CC)" OPT="$(OPT)" all >"$$dir.log" 2>&1 || \
	  { echo "impact: $(BASE) does not build (see $$dir.log):" >&2; tail -n 5 "$$dir.log" >&2; exit 2; }; \
	fi; \
	JOBS=$(JOBS) sh mk/impact.sh "$$dir" "$$dir/bin" "$(BIN)" "$(IMPACT_DIR)/recorded" $(IMPACT_FORMAT)

# A deliberate engine change in a scratch copy of the tree: the report names
# the rules and cases it affects (tests/replay/impact-test.sh).
impact-test: $(BIN)/harness $(BIN)/selfplay $(BIN)/replay
	sh tests/replay/impact-test.sh $(BIN) $(B)

.PHONY: replay-test replay-corpus record-cases cases-test impact impact-test card-coverage card-coverage-test

-include $(TOOLS_OBJ:.o=.d)
