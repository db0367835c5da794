/* agent.c - the random self-play player (see agent.h). */
#include "agent.h"

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t agent_mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

void agent_seed(agent *a, uint64_t seed) {
  for (int i = 0; i < 4; i++) {
    seed += 0x9e3779b97f4a7c15ULL;
    a->s[i] = agent_mix(seed);
  }
}

uint64_t agent_next(agent *a) {
  uint64_t *s = a->s;
  uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return r;
}

int agent_below(agent *a, int n) {
  if (n <= 1) return 0;
  uint64_t lim = UINT64_MAX - UINT64_MAX % (uint64_t)n, r;
  do r = agent_next(a);
  while (r >= lim);
  return (int)(r % (uint64_t)n);
}

/* vals[0..n) = a random permutation of 0..n-1 (identity when plain) */
static void permutation(agent *a, int n, int plain, int *vals) {
  for (int i = 0; i < n; i++) vals[i] = i;
  if (plain) return;
  for (int i = n - 1; i > 0; i--) {
    int j = agent_below(a, i + 1), t = vals[i];
    vals[i] = vals[j];
    vals[j] = t;
  }
}

/* Attack and block options pair a creature with what it attacks or blocks;
 * one creature appears in several. A declaration names each creature once,
 * so picks of these kinds skip options whose creature is already picked. */
static int one_per_object(const mtg_decision *d) { return d->kind == MTG_D_ATTACKERS || d->kind == MTG_D_BLOCKERS; }

/* A uniformly random k-subset of the allowed options (k itself uniform in
 * the allowed range), in increasing order. */
static int subset(agent *a, const mtg_decision *d, const unsigned char *banned, int plain, int *vals) {
  int n = 0, objects = 0;
  for (int i = 0; i < d->n_options; i++)
    if (!banned || !banned[i]) vals[n++] = i;
  int distinct = one_per_object(d);
  if (distinct) /* how many creatures there are to pick: the most picks possible */
    for (int i = 0; i < n; i++) {
      int seen = 0;
      for (int j = 0; j < i && !seen; j++) seen = d->options[vals[j]].obj == d->options[vals[i]].obj;
      objects += !seen;
    }
  int lo = d->min < 0 ? 0 : d->min, hi = d->max < n ? d->max : n;
  if (distinct && hi > objects) hi = objects < lo ? lo : objects;
  if (lo > hi) return -1;
  int k = plain ? lo : lo + agent_below(a, hi - lo + 1), got = 0;
  /* partial Fisher-Yates: the first k of a random arrangement */
  for (int i = 0; i < n && got < k; i++) {
    int j = plain ? i : i + agent_below(a, n - i), t = vals[i];
    vals[i] = vals[j];
    vals[j] = t;
    int dup = 0;
    for (int p = 0; distinct && p < got && !dup; p++) dup = d->options[vals[p]].obj == d->options[vals[i]].obj;
    if (!dup) vals[got++] = vals[i];
  }
  /* insertion sort: the picks in option order, so labels read naturally */
  for (int i = 1; i < got; i++)
    for (int j = i; j > 0 && vals[j - 1] > vals[j]; j--) {
      int t = vals[j];
      vals[j] = vals[j - 1];
      vals[j - 1] = t;
    }
  return got;
}

int agent_answer(agent *a, const mtg_decision *d, const unsigned char *banned, int plain, int *vals) {
  switch (d->kind) {
  case MTG_D_X:
  case MTG_D_NUMBER: {
    long span = (long)d->hi - d->lo + 1;
    vals[0] = plain || span <= 1 ? d->lo : d->lo + agent_below(a, span > INT32_MAX ? INT32_MAX : (int)span);
    return 1;
  }
  case MTG_D_TRIGGER_ORDER:
  case MTG_D_ORDER:
    permutation(a, d->n_options, plain, vals);
    return d->n_options;
  case MTG_D_DAMAGE:
  case MTG_D_DIVIDE: {
    int n = d->n_options;
    if (n <= 0) return 0;
    /* each option gets its least (lo: 0 in combat, 1 for a division among
     * targets, 601.2d), then each point left goes to a uniformly chosen one */
    int least = d->lo > 0 ? d->lo : 0, left = d->hi - n * least;
    for (int i = 0; i < n; i++) vals[i] = least;
    if (plain) {
      vals[0] += left;
      return n;
    }
    for (int k = 0; k < left; k++) vals[agent_below(a, n)]++;
    return n;
  }
  default:
    return subset(a, d, banned, plain, vals);
  }
}
