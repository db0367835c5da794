# arbiter - Makefile. `make` builds the engine library and the programs.
# Components add their own rules in fragments: harness/harness.mk,
# tools/tools.mk, tests/tests.mk (each appends to PROGRAMS / TESTS).
CC ?= cc
OPT ?= -O2
B ?= build
BIN ?= bin
CSTD = -std=c11 -D_POSIX_C_SOURCE=200809L
WARN = -Wall -Wextra -Wpedantic -Werror
CFLAGS_ALL = $(CSTD) $(WARN) $(OPT) -g -MMD -MP -Iengine/include -Iengine -Iutil $(SANFLAGS) $(CFLAGS)
LDLIBS_ALL = -lyaml -lz -lpthread $(SANFLAGS) $(LDFLAGS)

ENGINE_SRC = $(wildcard engine/*.c) $(wildcard util/*.c)
ENGINE_OBJ = $(ENGINE_SRC:%.c=$(B)/%.o)
LIB = $(B)/libmtg.a

PROGRAMS :=
TESTS :=

all: $(LIB) programs

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -c $< -o $@

$(LIB): $(ENGINE_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

-include harness/harness.mk
-include tools/tools.mk
-include tests/tests.mk

programs: $(PROGRAMS)

-include $(ENGINE_OBJ:.o=.d)

clean:
	rm -rf build bin

.PHONY: all programs clean
