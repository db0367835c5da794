# tools/tools.mk - the replay tools: bin/selfplay (records self-play games),
# bin/replay (checks, dumps and compares replays) and the replay-test target
# (the corpus under replays/ checks clean; tampered copies are caught).

TOOLS_SHARED = tools/replaylog.c tools/zlines.c tools/cli.c tools/parallel.c
SELFPLAY_SRC = tools/selfplay.c tools/match.c tools/agent.c tools/decks.c $(TOOLS_SHARED)
REPLAY_SRC = tools/replay.c tools/verify.c tools/answer.c tools/report.c tools/poolset.c $(TOOLS_SHARED)
TOOLS_OBJ = $(sort $(SELFPLAY_SRC:%.c=$(B)/%.o) $(REPLAY_SRC:%.c=$(B)/%.o))

PROGRAMS += $(BIN)/selfplay $(BIN)/replay
TESTS += replay-test

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

# The corpus must check clean, every kind of tampering must be caught, and
# self-play must be deterministic (tests/replay/replay-test.sh).
replay-test: $(BIN)/replay $(BIN)/selfplay
	sh tests/replay/replay-test.sh $(BIN)

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

.PHONY: replay-test replay-corpus

-include $(TOOLS_OBJ:.o=.d)
