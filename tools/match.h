/* match.h - playing one self-play game: the random agent answers every
 * decision, refused answers are retried, the replay is synced after each
 * decision, and engine failures end the game with a report in words. */
#ifndef MATCH_H
#define MATCH_H

#include "agent.h"
#include "mtg.h"
#include "replaylog.h"

typedef struct match_opts {
  long max_decisions; /* a game that has not ended by then is an engine problem */
  long max_refusals;  /* so is one where this many answers were refused */
  int check;          /* run mtg_game_check after every decision */
} match_opts;

typedef struct match_result {
  int problem;        /* an engine problem ended the game */
  int io_error;       /* the replay could not be written */
  long decisions, refusals;
  char text[4096];    /* what went wrong, with the decision and answer involved */
} match_result;

/* Plays the game of setup s, syncing w after every decision, in the handle
 * g of an earlier game (mtg_game_renew: nothing is allocated again) or, if g
 * is NULL, in a new one. Returns the game (NULL if the engine could not
 * create it; g is then freed): the caller closes w with it, or with NULL when
 * r->problem or r->io_error is set, and frees it or plays the next game in it. */
mtg_game *match_play(mtg_game *g, const mtg_setup *s, agent *a, rlog_writer *w, const match_opts *o, match_result *r);

#endif
