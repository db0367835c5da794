/* unit.h - the unit-test framework and the helpers the tests share.
 *
 * A test is `TEST(name) { ... }` listed in its file's suite table. Each test
 * gets a fresh u_world (pool, setup, game) that the runner releases after
 * it, so CHECK and friends can end a test early without leaking: they record
 * the failure with file and line and return. The runner (unit.c) prints one
 * line per test and ends with "N passed, N failed". */
#ifndef UNIT_H
#define UNIT_H

#include <stdint.h>
#include <stdio.h>

#include "mtg.h"

typedef struct unit_ctx {
  const char *name;
  int failed;
  char msg[2048];
} unit_ctx;

struct u_world;
typedef struct unit_test {
  const char *name;
  void (*fn)(unit_ctx *t, struct u_world *w);
} unit_test;

/* A test that reproduces a known engine issue: while it fails it is
 * reported as skipped with this text; once it passes, as fixed. */
typedef struct unit_known {
  const char *test, *issue;
} unit_known;

void unit_fail(unit_ctx *t, const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#if defined(__GNUC__)
#define U_MAYBE_UNUSED __attribute__((unused))
#else
#define U_MAYBE_UNUSED
#endif
#define TEST(name) static void name(unit_ctx *t_, U_MAYBE_UNUSED u_world *w)
#define CHECK(e)                                                        \
  do {                                                                  \
    if (!(e)) {                                                         \
      unit_fail(t_, __FILE__, __LINE__, "CHECK(%s) failed", #e);        \
      return;                                                           \
    }                                                                   \
  } while (0)
#define CHECK_INT(a, b)                                                                 \
  do {                                                                                  \
    long long a_ = (long long)(a), b_ = (long long)(b);                                \
    if (a_ != b_) {                                                                     \
      unit_fail(t_, __FILE__, __LINE__, "%s == %lld, expected %s == %lld", #a, a_, #b, b_); \
      return;                                                                           \
    }                                                                                   \
  } while (0)
#define CHECK_STR(a, b)                                                                              \
  do {                                                                                               \
    const char *a_ = (a), *b_ = (b);                                                                 \
    if (!a_ || !b_ || strcmp(a_, b_)) {                                                              \
      unit_fail(t_, __FILE__, __LINE__, "%s is \"%s\", expected \"%s\"", #a, a_ ? a_ : "(null)", b_ ? b_ : "(null)"); \
      return;                                                                                        \
    }                                                                                                \
  } while (0)
/* a call that returns a status and fills an mtg_error */
#define CHECK_OK(call, err)                                                                     \
  do {                                                                                          \
    int rc_ = (call);                                                                           \
    if (rc_ < 0) {                                                                              \
      char b_[2048];                                                                            \
      mtg_error_format((err), b_, sizeof b_);                                                   \
      unit_fail(t_, __FILE__, __LINE__, "%s returned %d: %s", #call, rc_, b_);                 \
      return;                                                                                   \
    }                                                                                           \
  } while (0)

/* ---- helpers: one small world per test ---- */

typedef struct u_world {
  mtg_pool *base;  /* engine/cards */
  mtg_pool *pool;  /* base, or a child with the test's inline cards */
  mtg_setup *setup;
  mtg_game *game;
  mtg_error err;
  int alice, bob;
} u_world;

/* Loads engine/cards and, when yaml is not NULL, the inline cards in a child
 * pool; makes a setup with players alice and bob (20 life), seed 1, starting
 * at turn 3, alice's first main phase, no opening hands. 0 or -1. */
int u_begin(unit_ctx *t, u_world *w, const char *yaml);
/* Puts a card in a zone; returns the entry, or -1 after failing the test. */
int u_card(unit_ctx *t, u_world *w, int player, int zone, const char *name);
/* Starts the game; 0 or -1. */
int u_start(unit_ctx *t, u_world *w);
void u_end(u_world *w);

/* The index of the first option of the pending decision whose label starts
 * with prefix, or -1. */
int u_find(const mtg_game *g, const char *prefix);
/* Answers the pending decision with the option starting with prefix; returns
 * the engine's status, or MTG_EARG after failing the test (no such option). */
int u_pick(unit_ctx *t, u_world *w, const char *prefix);
/* Passes priority until a non-priority decision, the game's end, or n passes. */
int u_pass(unit_ctx *t, u_world *w, int n);
/* Whether some log line contains needle (lines still held by the game). */
int u_logged(const mtg_game *g, const char *needle);
/* Number of log lines containing needle. */
int u_count_logged(const mtg_game *g, const char *needle);
int u_life(const mtg_game *g, int player);
/* The zone of the first object named `name`, or -1. */
int u_zone_of(const mtg_game *g, const char *name);
/* Objects named `name` in a zone (any player). */
int u_count_in(const mtg_game *g, int zone, const char *name);
void u_dump(const mtg_game *g, FILE *f); /* the log and the pending decision, for failures */

/* the suites: each tests/unit/test_*.c defines `const unit_test NAME[]`,
 * ended by {NULL, NULL}; the build finds them (tests/tests.mk) */
extern const unit_test pipeline_tests[];
extern const unit_test api_tests[];
extern const unit_test loader_tests[];
extern const unit_test variants_tests[];
extern const unit_test vocab_tests[];
/* tests reproducing known engine issues, ended by {NULL, NULL} */
extern const unit_known known_issues[];

#endif
