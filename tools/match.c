/* match.c - one self-play game (see match.h). */
#include "match.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REFUSALS_BEFORE_PLAIN 32 /* random answers refused before the simplest is tried */
/* a random division of combat damage is rarely legal past a big blocker
 * (lethal damage to each blocker first, 510.1c, 702.19b), and all of it to the
 * first blocker always is: tried sooner, so that refusals don't pile up over a
 * long game */
#define DAMAGE_REFUSALS_BEFORE_PLAIN 4
#define REFUSALS_PER_DECISION 64

#define MATCH_STACK_OPTIONS 512

typedef struct M {
  agent *a;
  rlog_writer *w;
  const match_opts *o;
  match_result *r;
  mtg_game *g;
} M;

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void append(char *buf, size_t size, const char *fmt, ...) {
  size_t u = strlen(buf);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + u, size - u, fmt, ap);
  va_end(ap);
}

#define SAY(m, ...) append((m)->r->text, sizeof (m)->r->text, __VA_ARGS__)

/* append(buf, size, "%s%s", a, b) without formatting: answer_text runs for every decision */
static void append2(char *buf, size_t size, const char *a, const char *b) {
  size_t u = strlen(buf);
  for (const char *p = a; *p && u + 1 < size; p++) buf[u++] = *p;
  for (const char *p = b; *p && u + 1 < size; p++) buf[u++] = *p;
  buf[u] = 0;
}

static int problem(M *m) {
  m->r->problem = 1;
  return -1;
}

static const char *player_name(const mtg_game *g, int p) {
  mtg_player pl;
  return p >= 0 && mtg_player_info(g, p, &pl) == 0 ? pl.name : "-";
}

/* The pending decision in words, with its options. */
static void describe(const mtg_game *g, char *buf, size_t size) {
  const mtg_decision *d = mtg_game_decision(g);
  buf[0] = 0;
  if (!d) {
    append(buf, size, "no decision pending (status %d)", mtg_game_status(g));
    return;
  }
  append(buf, size, "turn %d, step %s: a %s decision by %s: %s (", mtg_game_turn(g), mtg_step_name(mtg_game_step(g)),
         d->kind_name, player_name(g, d->player), d->prompt);
  if (d->kind == MTG_D_X || d->kind == MTG_D_NUMBER || d->kind == MTG_D_DAMAGE || d->kind == MTG_D_DIVIDE)
    append(buf, size, "range %d..%d", d->lo, d->hi);
  else
    append(buf, size, "pick %d..%d", d->min, d->max);
  append(buf, size, ") among:");
  for (int i = 0; i < d->n_options; i++) append(buf, size, "%s%s", i ? " | " : " ", d->options[i].label);
}

/* The answer as the engine logs it. */
static void answer_text(const mtg_decision *d, const int *v, int n, char *buf, size_t size) {
  buf[0] = 0;
  if (d->kind == MTG_D_X || d->kind == MTG_D_NUMBER || d->kind == MTG_D_DAMAGE || d->kind == MTG_D_DIVIDE) {
    for (int i = 0; i < n; i++)
      if (d->kind == MTG_D_DAMAGE || d->kind == MTG_D_DIVIDE) append(buf, size, " %s=%d", d->options[i].label, v[i]);
      else append(buf, size, " value=%d", v[i]);
  } else if (!n)
    append2(buf, size, " choice=none", "");
  else
    for (int i = 0; i < n; i++) append2(buf, size, i ? " | " : " choice=", d->options[v[i]].label);
}

/* Mixes n bytes into h eight at a time (one multiplication per word, not
 * per byte: this is done at every decision). */
static uint64_t fp_bytes(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  uint64_t w;
  for (; n >= sizeof w; b += sizeof w, n -= sizeof w) {
    memcpy(&w, b, sizeof w);
    h = (h ^ w) * 0x100000001b3ULL;
  }
  w = 0;
  memcpy(&w, b, n);
  return (h ^ w) * 0x100000001b3ULL;
}

/* A fingerprint of the pending decision: refusing an answer must leave it
 * as it was. Compared only within one run, so it needs no fixed byte order. */
static uint64_t fingerprint(const mtg_game *g) {
  const mtg_decision *d = mtg_game_decision(g);
  if (!d) return 0;
  int head[] = {d->kind, d->player, d->n_options, d->min, d->max, d->lo, d->hi};
  uint64_t h = fp_bytes(0xcbf29ce484222325ULL, head, sizeof head);
  /* each text with its terminator, so that "ab" "c" and "a" "bc" differ */
  for (int i = -1; i < d->n_options; i++) {
    const char *t = i < 0 ? d->prompt : d->options[i].label;
    h = fp_bytes(h, t, strlen(t) + 1);
  }
  return h;
}

/* A refused option can be left out of later draws only when it was the whole
 * answer to a decision that takes exactly one: where several may be picked, an
 * option refused alone may be legal with others (blockers a requirement makes
 * block together, 509.1c). */
static int single_pick(const mtg_decision *d, int n) {
  return d->kind != MTG_D_X && d->kind != MTG_D_NUMBER && d->kind != MTG_D_DAMAGE && d->kind != MTG_D_DIVIDE && d->kind != MTG_D_ORDER &&
         d->kind != MTG_D_TRIGGER_ORDER && n == 1 && d->max <= 1;
}

/* Answers the pending decision: 0 when an answer is accepted or the action
 * in progress was undone (the game then waits at the decision that began
 * it), -1 with a problem reported. A refused single pick is not drawn again;
 * after many refusals the simplest answer of the kind is tried. */
static int answer(M *m, long decision) {
  const mtg_decision *d = mtg_game_decision(m->g);
  int n_opt = d->n_options > 0 ? d->n_options : 1, rc = -1;
  /* an action is in progress when the log holds lines not yet final */
  int nested = mtg_log_count(m->g) > mtg_log_committed(m->g);
  uint64_t print = fingerprint(m->g);
  /* a decision has at most MATCH_STACK_OPTIONS options (the engine's
   * capacity): its buffers are then on the stack, not allocated and freed at
   * every decision of every game */
  unsigned char banned_here[MATCH_STACK_OPTIONS];
  int vals_here[MATCH_STACK_OPTIONS];
  int here = n_opt <= MATCH_STACK_OPTIONS;
  unsigned char *banned = here ? memset(banned_here, 0, (size_t)n_opt) : calloc((size_t)n_opt, 1);
  int *vals = here ? vals_here : malloc((size_t)n_opt * sizeof *vals);
  char now[2048], ans[1024], msg[2048];
  if (!banned || !vals) {
    SAY(m, "out of memory\n");
    goto done;
  }
  for (int attempt = 0; attempt < REFUSALS_PER_DECISION; attempt++) {
    int n = agent_answer(m->a, d, banned,
                         attempt >= (d->kind == MTG_D_DAMAGE || d->kind == MTG_D_DIVIDE ? DAMAGE_REFUSALS_BEFORE_PLAIN : REFUSALS_BEFORE_PLAIN), vals);
    if (n < 0) {
      describe(m->g, now, sizeof now);
      SAY(m, "every option of decision %ld was refused as illegal\n  at %s\n", decision, now);
      rc = problem(m);
      goto done;
    }
    answer_text(d, vals, n, ans, sizeof ans);
    mtg_error err;
    int st = mtg_game_decide(m->g, &(mtg_answer){n, vals}, &err);
    if (st >= 0) {
      rc = 0;
      goto done;
    }
    mtg_error_format(&err, msg, sizeof msg);
    describe(m->g, now, sizeof now);
    if (st != MTG_EILLEGAL) {
      SAY(m, "the engine fails on decision %ld (status %d): %s\n  answer:%s\n  now %s\n", decision, st, msg, ans, now);
      rc = problem(m);
      goto done;
    }
    if (++m->r->refusals > m->o->max_refusals) {
      SAY(m, "the game does not progress: %ld answers refused; the last at decision %ld (%s)\n  answer:%s\n  at %s\n",
          m->r->refusals, decision, msg, ans, now);
      rc = problem(m);
      goto done;
    }
    /* a refusal inside an action may undo the whole action (rule 732) */
    if (nested && mtg_log_count(m->g) == mtg_log_committed(m->g)) {
      rc = 0;
      goto done;
    }
    /* otherwise the game is exactly as before: the same decision */
    if (fingerprint(m->g) != print) {
      SAY(m, "after a refused answer, decision %ld is not the same\n  answer:%s\n  refused: %s\n  now %s\n", decision,
          ans, msg, now);
      rc = problem(m);
      goto done;
    }
    if (single_pick(d, n)) banned[vals[0]] = 1;
  }
  SAY(m, "decision %ld: %d answers in a row were refused as illegal\n  last answer:%s\n  refused: %s\n  at %s\n",
      decision, REFUSALS_PER_DECISION, ans, msg, now);
  rc = problem(m);
done:
  if (!here) {
    free(banned);
    free(vals);
  }
  return rc;
}

mtg_game *match_play(mtg_game *g, const mtg_setup *s, agent *a, rlog_writer *w, const match_opts *o, match_result *r) {
  M m = {.g = g, .a = a, .w = w, .o = o, .r = r};
  mtg_error err;
  char msg[2048];
  if (mtg_game_renew(&m.g, s, &err) < 0) {
    mtg_error_format(&err, msg, sizeof msg);
    SAY(&m, "the engine cannot start the game: %s\n", msg);
    problem(&m);
    return NULL;
  }
  for (;;) {
    if (rlog_writer_sync(w, m.g, &err)) {
      mtg_error_format(&err, msg, sizeof msg);
      SAY(&m, "cannot write the replay: %s\n", msg);
      r->io_error = 1;
      break;
    }
    if (mtg_game_status(m.g) != MTG_DECISION) break;
    if (r->decisions >= o->max_decisions) {
      SAY(&m, "the game does not end: %ld decisions by turn %d\n", r->decisions, mtg_game_turn(m.g));
      problem(&m);
      break;
    }
    long total = mtg_log_total(m.g);
    if (answer(&m, r->decisions + 1)) break;
    if (mtg_log_total(m.g) < total) continue; /* the action was undone */
    r->decisions++;
    char why[1024];
    if (o->check && mtg_game_check(m.g, why, sizeof why)) {
      rlog_writer_sync(w, m.g, &err);
      SAY(&m, "invariant violated after decision %ld (turn %d, step %s): %s\n", r->decisions, mtg_game_turn(m.g),
          mtg_step_name(mtg_game_step(m.g)), why);
      problem(&m);
      break;
    }
  }
  return m.g;
}
