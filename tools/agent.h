/* agent.h - the seeded random player of self-play: answers any decision with
 * an answer of a legal shape drawn uniformly, using only its own RNG, so a
 * game is a pure function of the game seed. */
#ifndef AGENT_H
#define AGENT_H

#include <stdint.h>

#include "mtg.h"

typedef struct agent {
  uint64_t s[4]; /* xoshiro256** state */
} agent;

void agent_seed(agent *a, uint64_t seed);
uint64_t agent_next(agent *a);
int agent_below(agent *a, int n); /* uniform in [0, n) */

/* A 64-bit mix of x (splitmix64's finaliser): derives per-game seeds. */
uint64_t agent_mix(uint64_t x);

/* Writes a random answer to d into vals (room for MTG's option count) and
 * returns its length. For single picks, options whose `banned` flag is set
 * (refused earlier) are avoided; returns -1 when no option is left. `plain`
 * asks for the simplest answer of the kind instead (the lowest number, the
 * options in order, all damage to the first option, the fewest picks), a
 * fallback when random answers keep being refused. */
int agent_answer(agent *a, const mtg_decision *d, const unsigned char *banned, int plain, int *vals);

#endif
