/* play.c - the random reproducible player (see play.h): builds answers to
 * any decision from a number source, deals random libraries, and plays a
 * game while checking, at every step, that the engine keeps its promises:
 * invariants hold (mtg_game_check), a refused answer changes nothing (same
 * state hash, same pending decision), and some answer is always accepted. */
#include "play.h"

#include "mtg_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXV 256

uint32_t play_rng_next(void *state) {
  uint64_t *s = state;
  uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return (uint32_t)((z ^ (z >> 31)) >> 32);
}

static int below(play_next_fn next, void *ctx, int bound) {
  return bound > 0 ? (int)(next(ctx) % (uint32_t)bound) : 0;
}

static int find_pass(const mtg_decision *d) {
  for (int i = 0; i < d->n_options; i++)
    if (d->options[i].kind == MTG_O_PASS) return i;
  return -1;
}

int play_answer(const mtg_decision *d, play_next_fn next, void *ctx, int attempt, int *v, int cap) {
  int n = d->n_options;
  if (cap > MAXV) cap = MAXV;
  if (cap < 1) return 0;
  switch (d->kind) {
  case MTG_D_X:
  case MTG_D_NUMBER: {
    long span = (long)d->hi - d->lo + 1;
    if (attempt >= 4 || span <= 1) {
      v[0] = d->lo;
      return 1;
    }
    if (span > 8) span = 8; /* small numbers keep most answers payable */
    v[0] = d->lo + below(next, ctx, (int)span);
    return 1;
  }
  case MTG_D_TRIGGER_ORDER:
  case MTG_D_ORDER: {
    if (n > cap) n = cap;
    for (int i = 0; i < n; i++) v[i] = i;
    if (attempt < 4)
      for (int i = n - 1; i > 0; i--) {
        int j = below(next, ctx, i + 1), t = v[i];
        v[i] = v[j];
        v[j] = t;
      }
    return n;
  }
  case MTG_D_DAMAGE:
  case MTG_D_DIVIDE: {
    if (n > cap) n = cap;
    if (n <= 0) return 0;
    /* each option its least (a division among targets: 1, 601.2d), then the rest */
    int least = d->lo > 0 ? d->lo : 0;
    for (int i = 0; i < n; i++) v[i] = least;
    int left = d->hi - n * least;
    if (attempt < 2)
      for (int i = 0; i < n - 1 && left > 0; i++) {
        int x = below(next, ctx, left + 1);
        v[i] += x;
        left -= x;
      }
    /* the rest on the first option in damage assignment order */
    v[attempt < 2 ? n - 1 : 0] += left;
    return n;
  }
  default:
    break;
  }
  /* pick decisions: min..max distinct options */
  int min = d->min < 0 ? 0 : d->min, max = d->max;
  if (max > n) max = n;
  if (max > cap) max = cap;
  if (min > max) min = max;
  int pass = find_pass(d);
  if (d->kind == MTG_D_PRIORITY && pass >= 0 && min <= 1 && max >= 1) {
    /* pass often enough for turns to advance; always from attempt 4 on */
    if (attempt >= 4 || below(next, ctx, 8) < 2 + attempt) {
      v[0] = pass;
      return 1;
    }
    /* playing lands and casting spells makes games end; activating mana
     * abilities by hand mostly empties into nothing (casting pays itself) */
    int plays = 0;
    for (int i = 0; i < n; i++) plays += d->options[i].kind == MTG_O_PLAY || d->options[i].kind == MTG_O_CAST;
    if (plays && below(next, ctx, 4) != 0) {
      int k = below(next, ctx, plays);
      for (int i = 0; i < n; i++)
        if ((d->options[i].kind == MTG_O_PLAY || d->options[i].kind == MTG_O_CAST) && k-- == 0) {
          v[0] = i;
          return 1;
        }
    }
  }
  if (attempt == 5 && (d->kind == MTG_D_ATTACKERS || d->kind == MTG_D_BLOCKERS)) {
    /* each creature once, in its first listed way: what obeys "attacks (blocks)
     * each combat if able" when none of the random picks did (508.1d, 509.1c) */
    int k = 0;
    for (int i = 0; i < n && k < max; i++) {
      int dup = 0;
      for (int j = 0; j < k; j++) dup |= d->options[v[j]].obj == d->options[i].obj;
      if (!dup) v[k++] = i;
    }
    if (k >= min) return k;
  }
  if (attempt >= 4) {
    for (int i = 0; i < min; i++) v[i] = i;
    return min;
  }
  int k;
  if (d->kind == MTG_D_ATTACKERS || d->kind == MTG_D_BLOCKERS) {
    k = 0;
    for (int i = 0; i < max; i++) k += below(next, ctx, 2);
    if (attempt >= 2) k /= 2;
    if (k < min) k = min;
  } else {
    k = min + below(next, ctx, max - min + 1);
  }
  int idx[MAXV];
  int m = n < MAXV ? n : MAXV;
  for (int i = 0; i < m; i++) idx[i] = i;
  if (k > m) k = m;
  for (int i = 0; i < k; i++) {
    int j = i + below(next, ctx, m - i), t = idx[i];
    idx[i] = idx[j];
    idx[j] = t;
    v[i] = idx[i];
  }
  return k;
}

static int is_basic(const char *name) {
  static const char *const basics[] = {"Plains", "Island", "Swamp", "Mountain", "Forest"};
  for (size_t i = 0; i < sizeof basics / sizeof *basics; i++)
    if (!strcmp(name, basics[i])) return 1;
  return 0;
}

mtg_setup *play_setup(const mtg_pool *pool, uint64_t seed, mtg_error *err) {
  static const char *const names[] = {"alice", "bob", "carol", "dave"};
  static const char *const basics[] = {"Plains", "Island", "Swamp", "Mountain", "Forest"};
  uint64_t r = seed ^ 0x5EEDULL;
  int total = mtg_pool_count(pool), nonbasic = 0;
  for (int i = 0; i < total; i++) nonbasic += !is_basic(mtg_pool_name(pool, i));
  mtg_setup *s = mtg_setup_new(pool);
  if (!s) {
    mtg_error_set(err, MTG_ENOMEM, "out of memory");
    return NULL;
  }
  int np = 2;
  if (below(play_rng_next, &r, 10) == 0) np = 3 + below(play_rng_next, &r, 2);
  for (int p = 0; p < np; p++)
    if (mtg_setup_player(s, names[p], 20, 0) < 0) {
      mtg_error_set(err, MTG_EDATA, "cannot add player %s", names[p]);
      mtg_setup_free(s);
      return NULL;
    }
  mtg_setup_seed(s, seed);
  mtg_setup_max_turns(s, 25);
  for (int p = 0; p < np; p++) {
    /* two colours of basic lands, the rest random cards of the pool */
    int c1 = below(play_rng_next, &r, 5), c2 = below(play_rng_next, &r, 5);
    for (int i = 0; i < 30; i++) {
      /* a card that cannot start in a library (a dungeon, a plane, ...) is
       * drawn again; a basic land always can */
      int rc = -1;
      for (int tries = 0; rc < 0 && tries < 20; tries++) {
        const char *card = NULL;
        if (i < 13 || nonbasic == 0 || tries == 19) {
          card = basics[i % 2 ? c1 : c2];
        } else {
          int k = below(play_rng_next, &r, nonbasic);
          for (int j = 0; j < total && !card; j++)
            if (!is_basic(mtg_pool_name(pool, j)) && k-- == 0) card = mtg_pool_name(pool, j);
        }
        rc = mtg_setup_card(s, p, MTG_Z_LIBRARY, card, err);
      }
      if (rc < 0) {
        mtg_setup_free(s);
        return NULL;
      }
    }
  }
  return s;
}

static void flush_log(mtg_game *g, FILE *out, int all) {
  int n = all ? mtg_log_count(g) : mtg_log_committed(g);
  if (out)
    for (int i = 0; i < n; i++) {
      fputs(mtg_log_line(g, i), out);
      fputc('\n', out);
    }
  if (!all) mtg_log_drop(g, n); /* keeps memory bounded in long games */
}

static int failf(char *why, size_t n, mtg_game *g, const char *what, const mtg_error *e) {
  char buf[2048] = "";
  if (e) mtg_error_format(e, buf, sizeof buf);
  snprintf(why, n, "turn %d step %s: %s%s%s", g ? mtg_game_turn(g) : 0, g ? mtg_step_name(mtg_game_step(g)) : "-",
           what, e ? ": " : "", buf);
  return -1;
}

int play_game(const mtg_setup *s, play_next_fn next, void *ctx, const play_opts *o, play_stats *st, char *why,
              size_t n) {
  mtg_game *g = NULL;
  mtg_error e;
  int max_steps = o->max_steps > 0 ? o->max_steps : 20000;
  int rc = mtg_game_new(&g, s, &e);
  if (rc < 0 && (rc == MTG_EDATA || rc == MTG_ELIMIT || rc == MTG_ENOMEM) && !g) {
    failf(why, n, NULL, "the setup was refused", &e);
    return 1;
  }
  if (rc < 0) return failf(why, n, NULL, "mtg_game_new failed", &e);
  st->games++;
  int ret = 0;
  long steps = 0;
  char buf[1024];
  /* the last top-level decision (priority, attackers, blockers): an illegal
   * action is reversed back to it (rule 732), not only the last answer */
  uint64_t top_hash = 0;
  int top_kind = -1, top_player = -1, top_nopt = -1;
  while (rc == MTG_DECISION) {
    if (o->check && mtg_game_check(g, buf, sizeof buf)) {
      ret = failf(why, n, g, "invariant violated", NULL);
      snprintf(why + strlen(why), n - strlen(why), ": %s", buf);
      break;
    }
    const mtg_decision *d = mtg_game_decision(g);
    if (!d) {
      ret = failf(why, n, g, "status is MTG_DECISION but no decision is pending", NULL);
      break;
    }
    /* after the check, which looks at the lines logged since the last one */
    flush_log(g, o->log, 0);
    int kind = d->kind, player = d->player, nopt = d->n_options;
    char prompt[512];
    snprintf(prompt, sizeof prompt, "%s", d->prompt);
    uint64_t h0 = mtg_game_hash(g);
    if (kind == MTG_D_PRIORITY || kind == MTG_D_ATTACKERS || kind == MTG_D_BLOCKERS) {
      top_hash = h0;
      top_kind = kind;
      top_player = player;
      top_nopt = nopt;
    }
    int accepted = 0;
    for (int attempt = 0; attempt < 6 && !accepted; attempt++) {
      int v[MAXV];
      int k = play_answer(d, next, ctx, attempt, v, MAXV);
      mtg_answer a = {k, v};
      rc = mtg_game_decide(g, &a, &e);
      if (rc >= 0) {
        accepted = 1;
        break;
      }
      if (rc != MTG_EILLEGAL && rc != MTG_ELIMIT) {
        ret = failf(why, n, g, "mtg_game_decide failed", &e);
        goto done;
      }
      /* an illegal answer leaves the game exactly as it was */
      d = mtg_game_decision(g);
      uint64_t h1 = mtg_game_hash(g);
      int same = h1 == h0 && d && d->kind == kind && d->player == player && d->n_options == nopt &&
                 !strcmp(d->prompt, prompt);
      int reversed = !same && h1 == top_hash && d && d->kind == top_kind && d->player == top_player &&
                     d->n_options == top_nopt;
      if (reversed) {
        st->reversed++;
        accepted = 1; /* the action was taken back: carry on from there */
        rc = MTG_DECISION;
        break;
      }
      if (!same) {
        size_t u = (size_t)snprintf(buf, sizeof buf, "a refused answer to a %d-option decision '%s' changed the game "
                                    "(hash %s, now %s decision '%s' with %d options); answer:",
                                    nopt, prompt, mtg_game_hash(g) != h0 ? "differs" : "same",
                                    d ? d->kind_name : "no", d ? d->prompt : "", d ? d->n_options : 0);
        for (int i = 0; i < k && u < sizeof buf - 16; i++) u += (size_t)snprintf(buf + u, sizeof buf - u, " %d", v[i]);
        ret = failf(why, n, g, buf, &e);
        goto done;
      }
      st->refused++;
      if (rc == MTG_ELIMIT) break; /* unchanged, but the game cannot go on */
    }
    if (rc == MTG_ELIMIT) {
      st->stopped++;
      goto done;
    }
    if (!accepted) {
      snprintf(buf, sizeof buf, "no answer accepted for %s decision '%s' (%d options)", mtg_game_decision(g)->kind_name,
               prompt, nopt);
      ret = failf(why, n, g, buf, &e);
      goto done;
    }
    st->decisions++;
    if (++steps >= max_steps) break;
  }
  if (rc == MTG_OVER) {
    if (o->check && mtg_game_check(g, buf, sizeof buf)) {
      ret = failf(why, n, g, "invariant violated at game over", NULL);
      snprintf(why + strlen(why), n - strlen(why), ": %s", buf);
    }
    mtg_result r;
    mtg_game_result(g, &r);
    if (r.stopped) st->stopped++;
    else st->over++;
  } else {
    st->stopped++;
  }
done:
  flush_log(g, o->log, 1);
  st->events += mtg_log_total(g);
  mtg_game_free(g);
  return ret;
}
