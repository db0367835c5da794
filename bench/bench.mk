# bench/bench.mk - `make bench`: the benchmarks of bench/bench.sh, every
# figure a ratio against a baseline measured in the same run, written to
# docs/benchmarks.md. BENCH_RUNS (5) runs per timing, best kept.

BENCH_RUNS ?= 5
BENCH_BINS = $(B)/bench/yamlparse $(B)/bench/runstat $(B)/bench/longgame
TEST_OBJ += $(B)/bench/yamlparse.o $(B)/bench/runstat.o $(B)/bench/longgame.o

$(B)/bench/yamlparse: $(B)/bench/yamlparse.o
	$(Q)$(CC) $(CFLAGS_ALL) -o $@ $^ $(LDLIBS_ALL)
$(B)/bench/runstat: $(B)/bench/runstat.o
	$(Q)$(CC) $(CFLAGS_ALL) -o $@ $^ $(LDLIBS_ALL)
$(B)/bench/longgame: $(B)/bench/longgame.o $(B)/tools/replaylog.o $(B)/tools/zlines.o $(LIB)
	$(Q)$(CC) $(CFLAGS_ALL) -o $@ $^ $(LDLIBS_ALL)

$(B)/bench/%.o: CFLAGS += -Itools

bench-run: all $(BENCH_BINS) $(SOAK_BIN)
	@BENCH_RUNS=$(BENCH_RUNS) sh bench/bench.sh $(B) $(BIN) docs/benchmarks.md

-include $(B)/bench/yamlparse.d $(B)/bench/runstat.d $(B)/bench/longgame.d

.PHONY: bench-run
