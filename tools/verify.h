/* verify.h - checking replays: re-running a replay's setup and decisions
 * through the engine with the card definitions it carries and comparing
 * every regenerated line, the options of every decision, every checkpoint and
 * the trailer with the recording while both stream (check), and comparing two
 * recordings (diff). Both stop at the first difference and describe where
 * it is. */
#ifndef VERIFY_H
#define VERIFY_H

#include <stdatomic.h>

#include "mtg.h"
#include "poolset.h"

/* Outcomes, from best to worst. */
enum {
  VERIFY_OK = 0,       /* consistent, and the game is over */
  VERIFY_OPEN,         /* consistent, recorded up to a pending decision as its header says (a case) */
  VERIFY_INCOMPLETE,   /* consistent as far as it goes, but the game it records is unfinished */
  VERIFY_POOL_CHANGED, /* --cards: cards the game used are defined differently there */
  VERIFY_DIVERGED,     /* the engine and the recording part ways, or the header contradicts itself */
  VERIFY_UNREADABLE,   /* damaged, cut short, not a replay, unsupported, bad card definitions */
  VERIFY_OUTCOMES
};
/* "ok", "open", "incomplete", "pool-changed", "divergence", "unreadable" */
const char *verify_outcome_name(int outcome);
/* The exit status an outcome asks for: 0 (ok, open), 1, or 2 (unreadable). */
int verify_exit_status(int outcome);

#define VERIFY_CONTEXT 5  /* lines shown before a divergence */
#define VERIFY_TEXT 1024
#define VERIFY_NOTES 4
#define VERIFY_LIST 12    /* cards named in a report (the count is of all) */

/* Cards a report names, with hashes of their definitions (16 hex digits). */
typedef struct verify_cards {
  int n;                         /* how many in all */
  char name[VERIFY_LIST][128];
  char was[VERIFY_LIST][17];     /* the replay's definition */
  char now[VERIFY_LIST][17];     /* the pool's ("" when the pool lacks the card) */
} verify_cards;

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
  /* the decision that led there: the last one given to the engine */
  long last_decision;
  char last_decision_line[VERIFY_TEXT];
  /* the last lines both sides logged alike, then the recording's lines after
   * them that the engine had not logged (yet): an action in progress */
  int ncontext;
  char context[VERIFY_CONTEXT][VERIFY_TEXT];
  int npending;
  char pending[VERIFY_CONTEXT][VERIFY_TEXT];
  /* what the header says produced the game and the rules it exercises */
  char origin[256], cites[256];
  /* totals compared, and the recording's trailer status when reached */
  long events, decisions, checkpoints;
  char status[16];
  /* notes that do not change the outcome (another engine version, ...) */
  int nnotes;
  char notes[VERIFY_NOTES][VERIFY_TEXT];
  /* the cards the replay defines that the pool lacks, those it defines
   * differently from the pool, and (pool-changed) the cards it used that the
   * pool given with --cards defines differently or lacks */
  verify_cards defines, redefines, changed;
} verify_report;

typedef struct verify_opts {
  const mtg_pool *pool;    /* the card pool to compare with (--cards DIR, or engine/cards); may be NULL */
  const char *pool_dir;    /* where it was loaded from, for messages */
  int pool_given;          /* --cards: a used card defined differently there is the outcome pool-changed */
  poolset *frozen;         /* pools frozen beside version-1 replays (pool-HASH/); may be NULL */
  atomic_long *progress;   /* if set, lines compared are added to it as the check goes */
  /* a pool whose keyword abilities the pools made for each replay share
   * (mtg_pool_new_like) rather than compile again; may be NULL */
  const mtg_pool *keywords;
} verify_opts;

/* What one thread keeps from one replay to the next: the game's memory
 * (mtg_game_renew) and the card definitions compiled (defcache.h). A
 * workspace serves one replay at a time; NULL stands for none. */
typedef struct verify_ws verify_ws;
verify_ws *verify_ws_new(const verify_opts *o);
void verify_ws_free(verify_ws *w);

/* Checks one replay (with workspace w, or NULL); returns rep->outcome. */
int verify_file(const verify_opts *o, verify_ws *w, const char *path, verify_report *rep);
/* Plays a replay's setup and decisions again, with the card definitions it
 * carries (version 1: its pool), and writes the game as the engine now plays
 * it to out, which may be the replay itself: the same format version, card
 * definitions, origin and seed, the log, options, checkpoints and trailer of
 * now. For re-recording after an intended change of the engine's log.
 * Returns rep->outcome: VERIFY_OK, VERIFY_DIVERGED when a recorded decision
 * can't be given to the engine any more (nothing is written), or
 * VERIFY_UNREADABLE. */
int verify_rerecord(const verify_opts *o, verify_ws *ws, const char *in, const char *out, verify_report *rep);
/* Compares two replays of the same game; returns rep->outcome (expected is
 * a's line, actual b's). */
int verify_diff(const char *a, const char *b, verify_report *rep);

#endif
