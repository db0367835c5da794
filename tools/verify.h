/* verify.h - checking replays: re-running a replay's setup and decisions
 * through the engine and comparing every regenerated line, checkpoint and the
 * trailer with the recording while both stream (check), and comparing two
 * recordings of the same game (diff). Both stop at the first difference and
 * describe where it is. */
#ifndef VERIFY_H
#define VERIFY_H

#include <stdatomic.h>

#include "mtg.h"

enum { VERIFY_OK = 0, VERIFY_DIVERGED = 1, VERIFY_UNREADABLE = 2 };

#define VERIFY_CONTEXT 5  /* lines shown before a divergence */
#define VERIFY_TEXT 1024

typedef struct verify_report {
  int outcome;             /* VERIFY_* */
  const char *kind;        /* what went wrong, a fixed word: see docs/replay-format.md */
  char message[VERIFY_TEXT];
  /* where (divergences): the log line (1-based) and the decisions up to it,
   * the turn and step the game was in, what the recording says (expected)
   * and what the engine did (actual) */
  long event, decision;
  int turn;
  char step[32];
  char expected[VERIFY_TEXT], actual[VERIFY_TEXT];
  int ncontext;
  char context[VERIFY_CONTEXT][VERIFY_TEXT];
  /* totals compared, and the recording's trailer status when reached */
  long events, decisions, checkpoints;
  char status[16];
} verify_report;

typedef struct verify_opts {
  const mtg_pool *pool;    /* the pool replays are checked against (extra cards go on top) */
  atomic_long *progress;   /* if set, lines compared are added to it as the check goes */
} verify_opts;

/* Checks one replay; returns rep->outcome. */
int verify_file(const verify_opts *o, const char *path, verify_report *rep);
/* Compares two replays of the same game; returns rep->outcome (expected is
 * a's line, actual b's). */
int verify_diff(const char *a, const char *b, verify_report *rep);

#endif
