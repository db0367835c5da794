/* run: plays one case through the engine. Builds the game from the case's
 * setup, answers decisions from the script (auto-passing priority and
 * declaring no attackers or blockers where the script has nothing to say),
 * settles the game, then checks the expectations. Runs touch nothing shared
 * but the read-only card pool, so cases run in parallel threads. */
#ifndef HARNESS_RUN_H
#define HARNESS_RUN_H

#include "buf.h"
#include "caseload.h"
#include "match.h"

/* ST_ERROR: a script error (the case could not be played as written), or an input error found by running */
enum { ST_PASS, ST_FAIL, ST_TODO, ST_ERROR };

typedef struct hresult {
  int status;        /* ST_* */
  double seconds;    /* wall time of the run */
  hfail f;           /* the first failure: a script error or an expectation */
  buf state;         /* state mismatches, one per line */
  buf log;           /* the whole event log (--verbose) */
  buf note;          /* --record problems and the like */
  int unrecorded;    /* --record: the case's game could not be written */
  buf warn;          /* warnings, located, one per line: listed rules nothing in the case checks */
  int known;         /* listed in the known-failures file */
} hresult;

typedef struct run_opts {
  int verbose;            /* keep the event log */
  const char *record_dir; /* write a replay per case here */
  const mtg_pool *pool;   /* the engine's card pool (for replay headers) */
  int run_todo;           /* play todo cases too, to see which an engine change fixed */
  int check;              /* the engine's invariant checker after every decision (--check) */
  int strict;             /* a warning is an error */
  mtg_game **game;        /* a game handle the run may reuse and leave for the next, or NULL */
} run_opts;

void run_case(const hcase *hc, const run_opts *o, hresult *r);
void hresult_free(hresult *r);

#endif
