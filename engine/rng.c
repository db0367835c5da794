/* rng.c - the game's only source of randomness: xoshiro256** seeded with
 * splitmix64 from the setup's seed. Its state is part of the game state, is
 * copied with it and hashed with it, so shuffles replay exactly. */
#include "internal.h"

static uint64_t splitmix(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

void rng_seed(uint64_t s[4], uint64_t seed) {
  for (int i = 0; i < 4; i++) s[i] = splitmix(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t rng_next(uint64_t s[4]) {
  uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return r;
}

/* uniform in [0, n), without modulo bias */
int rng_below(uint64_t s[4], int n) {
  if (n <= 1) return 0;
  uint64_t lim = UINT64_MAX - UINT64_MAX % (uint64_t)n;
  uint64_t r;
  do r = rng_next(s);
  while (r >= lim);
  return (int)(r % (uint64_t)n);
}
