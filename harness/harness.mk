# harness/harness.mk - bin/harness, the conformance harness (included by the top-level Makefile).
HARNESS_SRC = $(wildcard harness/*.c)
HARNESS_OBJ = $(HARNESS_SRC:%.c=$(B)/%.o)

$(BIN)/harness: $(HARNESS_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(HARNESS_OBJ) $(LIB) $(LDLIBS_ALL) -o $@

PROGRAMS += $(BIN)/harness
TESTS += harness-test

# The corpus must pass; every malformed case must be refused (exit 2) with a
# located message containing its expected text; the compiled-in rules index
# must match cases/rules.yaml.
harness-test: $(BIN)/harness
	@$(BIN)/harness --check-rules-index cases/rules.yaml
	@sh tests/malformed/run.sh $(BIN)/harness
	@$(BIN)/harness cases

-include $(HARNESS_OBJ:.o=.d)

.PHONY: harness-test
