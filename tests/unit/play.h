/* play.h - a random but reproducible player over the public API, shared by
 * the soak driver, the determinism check, the fuzz game driver and the
 * benchmarks. Answers come from a caller-supplied source of numbers (a seeded
 * generator, or fuzz input bytes), so the same source plays the same game. */
#ifndef PLAY_H
#define PLAY_H

#include <stdint.h>
#include <stdio.h>

#include "mtg.h"

/* Returns the next number of the answer source; `ctx` is the caller's. */
typedef uint32_t (*play_next_fn)(void *ctx);

/* splitmix64: small, fast and good enough to shuffle decisions */
uint32_t play_rng_next(void *state /* uint64_t * */);

/* Builds a legal-looking answer to d into v (at most cap values); returns the
 * count. `attempt` > 0 asks for a progressively more conservative answer
 * (after the engine refused the previous one): attempt >= 4 gives the
 * minimal answer (pass, the fewest options, the lowest number). */
int play_answer(const mtg_decision *d, play_next_fn next, void *ctx, int attempt, int *v, int cap);

typedef struct play_opts {
  int check;          /* run mtg_game_check after every step */
  int max_steps;      /* give up on a game after this many decisions (0: 20000) */
  FILE *log;          /* write the game's log lines here, if not NULL */
} play_opts;

typedef struct play_stats {
  long games, decisions, events;
  long refused;       /* answers refused with the same decision still pending */
  long reversed;      /* illegal actions taken back to their top-level decision */
  long over, stopped; /* ended by the rules / by the turn or step limit */
} play_stats;

/* A random game setup for `seed`: 2 to 4 players, libraries of basic lands
 * and random cards of the pool, a 25-turn limit. Returns NULL and fills err
 * on failure. */
mtg_setup *play_setup(const mtg_pool *pool, uint64_t seed, mtg_error *err);

/* Plays one game from setup s, answering with next/ctx. Returns 0, or -1
 * with a description in why: an invariant violation, an illegal answer that
 * changed the game, an engine error, a decision nothing could answer; or 1
 * when mtg_game_new refused the setup cleanly (MTG_EDATA, MTG_ELIMIT,
 * MTG_ENOMEM, no game made), which callers with arbitrary setups accept. An
 * answer refused with MTG_ELIMIT (an engine capacity) must leave the game
 * unchanged too; the game then stops there. */
int play_game(const mtg_setup *s, play_next_fn next, void *ctx, const play_opts *o, play_stats *st,
              char *why, size_t n);

#endif
