/* run: one case through the engine (see run.h and docs/cases.md, "Running"). */
#include "run.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mtg_private.h"
#include "record.h"
#include "rules.h"

#define TURN_SLACK 10        /* turns a script may wait for its next decision */
#define MAX_ANSWERS 20000    /* decisions per case, against runaway games */

typedef struct runner {
  hctx x;
  const hcase *hc;
  int check;                 /* mtg_game_check after every decision */
  mtg_game *g;
  hresult *r;
  hrecord *rec;
  int ai;                    /* next action */
  int target_for;            /* advance/stop: for which action */
  long long target;          /* the step ordinal to reach */
  long long target_from;     /* the ordinal when it began (phases added to a turn go back in steps, 500.8) */
  long answered;
  char asked[32][16];        /* the rules that asked the decisions of the game (616.1, 603.3b, ...) */
  int nasked;
} runner;

static const int act_decision[A_COUNT] = {
    [A_CAST] = MTG_D_PRIORITY,   [A_ACTIVATE] = MTG_D_PRIORITY, [A_PLAY] = MTG_D_PRIORITY,
    [A_PASS] = MTG_D_PRIORITY,   [A_TURN_FACE_UP] = MTG_D_PRIORITY, [A_FORETELL] = MTG_D_PRIORITY, [A_SUSPEND] = MTG_D_PRIORITY,
    [A_ATTACK] = MTG_D_ATTACKERS,  [A_BLOCK] = MTG_D_BLOCKERS,
    [A_ADVANCE] = -1,            [A_RESOLVE] = -1,              [A_CHECK] = -1,    [A_TARGET] = MTG_D_TARGET,     [A_MODE] = MTG_D_MODE,
    [A_X] = MTG_D_X,             [A_NUMBER] = MTG_D_NUMBER,     [A_MAY] = MTG_D_MAY,
    [A_REPLACEMENT] = MTG_D_REPLACEMENT, [A_TRIGGER_ORDER] = MTG_D_TRIGGER_ORDER,
    [A_ORDER] = MTG_D_ORDER,     [A_CHOOSE] = MTG_D_CHOOSE,     [A_PLAYER] = MTG_D_PLAYER,
    [A_COLOR] = MTG_D_COLOR,     [A_NAME] = MTG_D_NAME,         [A_WORD] = MTG_D_WORD,
    [A_DAMAGE] = MTG_D_DAMAGE,   [A_COST] = MTG_D_COST,         [A_DIVIDE] = MTG_D_DIVIDE};

static const char *pname(const runner *R, int p) {
  return p >= 0 && p < R->hc->nplayers ? R->hc->players[p] : "nobody";
}

/* turns run up to MTG_NUM_MAX: ordinals and slack are computed in 64 bits */
static long long ordinal(long long turn, int step) { return turn * 16 + step; }
static long long now_ordinal(const runner *R) { return ordinal(mtg_game_turn(R->g), mtg_game_step(R->g)); }

/* The next time the game is in `step` (this step counts), or in `step` of
 * `turn` when given. */
static long long step_target(const runner *R, int step, int turn) {
  if (turn) return ordinal(turn, step);
  long long t = mtg_game_turn(R->g);
  return step >= mtg_game_step(R->g) ? ordinal(t, step) : ordinal(t + 1, step);
}

/* Has the game reached the advance or stop point? Its ordinal, or, with no turn
 * given, the step itself once the game has moved on: a phase added to the turn
 * (500.8) comes back to an earlier step of the same turn. */
static int reached(const runner *R, int step, int turn) {
  if (now_ordinal(R) >= R->target) return 1;
  return !turn && now_ordinal(R) != R->target_from && mtg_game_step(R->g) == step;
}

static int stack_size(const runner *R) { return mtg_zone_objects(R->g, -1, MTG_Z_STACK, NULL, 0); }

/* ---- failures ---- */

static void describe(runner *R, buf *b) {
  const mtg_decision *d = mtg_game_decision(R->g);
  if (!d) {
    buf_puts(b, "  the game is over\n");
  } else {
    buf_printf(b, "  pending: %s's %s decision (%s%s%s) in turn %d, %s step\n", pname(R, d->player), d->kind_name,
               d->prompt, d->rule[0] ? ", rule " : "", d->rule, mtg_game_turn(R->g), mtg_step_name(mtg_game_step(R->g)));
    buf_puts(b, "  options:");
    for (int i = 0; i < d->n_options && i < 24; i++) buf_printf(b, "%s %s", i ? "," : "", d->options[i].label);
    if (d->n_options > 24) buf_printf(b, ", ... (%d in all)", d->n_options);
    if (d->kind == MTG_D_X || d->kind == MTG_D_NUMBER) buf_printf(b, " a number from %d to %d", d->lo, d->hi);
    buf_puts(b, "\n");
  }
  int n = mtg_log_count(R->g), lo = n > 10 ? n - 10 : 0;
  if (n) buf_printf(b, "  last events:\n");
  for (int i = lo; i < n; i++) buf_printf(b, "    %4d  %s\n", i + 1, mtg_log_line(R->g, i));
}

/* A script error: the case can't be played as written (an action the engine
 * refuses, a decision nobody answers). An expectation that does not hold is a
 * failure instead (expect_fail). */
static int fail(runner *R, const ynode *at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int expect_fail(runner *R, const ynode *at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int failv(runner *R, int kind, const ynode *at, const char *fmt, va_list ap) {
  hfail *f = &R->r->f;
  if (f->failed) return -1;
  char msg[1536];
  vsnprintf(msg, sizeof msg, fmt, ap);
  f->failed = 1;
  f->kind = kind;
  f->line = at ? at->line : R->hc->line;
  buf_puts(&f->summary, msg);
  buf_printf(&f->detail, "%s\n", msg);
  describe(R, &f->detail);
  return -1;
}

static int fail(runner *R, const ynode *at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  failv(R, HF_SCRIPT, at, fmt, ap);
  va_end(ap);
  return -1;
}

static int expect_fail(runner *R, const ynode *at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  failv(R, HF_EXPECT, at, fmt, ap);
  va_end(ap);
  return -1;
}

/* "action 'cast' at line 12", for messages; W(a) gives a fresh buffer per use */
typedef struct wbuf {
  char s[96];
} wbuf;
static wbuf where_(const hact *a) {
  wbuf w;
  snprintf(w.s, sizeof w.s, "action '%s' at line %d", a->key, a->at ? a->at->line : 0);
  return w;
}
#define where(a) (where_(a).s)

/* ---- matching options ---- */

/* The k-th quoted name of an option label, unescaped. */
static int label_name(const char *label, int k, char *out, size_t size) {
  const char *p = label;
  for (;;) {
    p = strchr(p, '"');
    if (!p) return 0;
    size_t u = 0;
    p++;
    while (*p && *p != '"') {
      if (*p == '\\' && p[1]) p++;
      if (u + 1 < size) out[u++] = *p;
      p++;
    }
    out[u] = 0;
    if (!*p) return 0;
    p++;
    if (k-- == 0) return 1;
  }
}

static int obj_named(runner *R, uint32_t id, const char *label, int k, const char *spec) {
  char nm[128];
  const char *name = id ? mtg_object_name(R->g, id) : NULL;
  if (!name && label_name(label, k, nm, sizeof nm)) name = nm;
  return ref_matches(&R->x, id, name, spec);
}

static int opt_matches(runner *R, const mtg_option *o, const char *spec) {
  if (!strcmp(o->label, spec)) return 1;
  switch (o->kind) {
  case MTG_O_PLAYER:
    return o->player >= 0 && !strcmp(pname(R, o->player), spec);
  case MTG_O_OBJECT:
  case MTG_O_EFFECT:
  case MTG_O_TRIGGER:
  case MTG_O_CAST:
  case MTG_O_PLAY:
  case MTG_O_ACTIVATE:
    return obj_named(R, o->obj, o->label, 0, spec) || value_matches(&R->x, spec, o->label, strlen(o->label));
  default:
    return 0;
  }
}

/* attack (attacker -> player or planeswalker) and block (blocker -> attacker) pairs */
static int pair_matches(runner *R, const mtg_option *o, const char *first, const char *second) {
  if (!second && !strcmp(o->label, first)) return 1;
  if (!obj_named(R, o->obj, o->label, 0, first)) return 0;
  if (!second) return 1;
  if (o->kind == MTG_O_ATTACK && o->player >= 0) return !strcmp(pname(R, o->player), second);
  return obj_named(R, o->obj2, o->label, 1, second);
}

static void options_text(const mtg_decision *d, buf *b) {
  for (int i = 0; i < d->n_options && i < 24; i++) buf_printf(b, "%s%s", i ? ", " : "", d->options[i].label);
  if (d->n_options > 24) buf_printf(b, ", ... (%d in all)", d->n_options);
  if (!d->n_options) buf_puts(b, "none");
}

static int not_among(runner *R, const mtg_decision *d, buf *why, const char *what, const char *spec) {
  buf_printf(why, "%s%s%s is not among %s's %s options: ", what, *what ? " " : "", spec, pname(R, d->player),
             d->kind_name);
  options_text(d, why);
  return -1;
}

static int find_opt(runner *R, const mtg_decision *d, const char *spec, const char *used, int kind) {
  for (int i = 0; i < d->n_options; i++)
    if ((kind < 0 || d->options[i].kind == kind) && !(used && used[i]) && opt_matches(R, &d->options[i], spec)) return i;
  return -1;
}

/* An option cast or played with a face (709.3, 712.11b) names it `face="NAME"`;
 * an action without `face` takes only an option without one. */
static int face_matches(const char *label, const char *face) {
  const char *f = strstr(label, " face=\"");
  if (!face) return f == NULL;
  if (!f) return 0;
  size_t n = strlen(face);
  return !strncmp(f + 7, face, n) && f[7 + n] == '"';
}

/* The answer an action gives to decision d; -1 with the reason in why. */
static int build_answer(runner *R, const hact *a, const mtg_decision *d, int *v, int *n, buf *why) {
  char used[1024] = {0};
  int k;
  *n = 0;
  if (d->n_options > (int)sizeof used) return buf_puts(why, "too many options"), -1;
  switch (a->kind) {
  case A_PASS:
    k = find_opt(R, d, "pass", NULL, MTG_O_PASS);
    if (k < 0) return not_among(R, d, why, "", "pass");
    v[(*n)++] = k;
    return 0;
  case A_PLAY:
  case A_CAST:
  case A_ACTIVATE:
  case A_TURN_FACE_UP:
  case A_FORETELL:
  case A_SUSPEND: {
    int kind = a->kind == A_PLAY ? MTG_O_PLAY : a->kind == A_CAST ? MTG_O_CAST : MTG_O_ACTIVATE;
    int found = -1, abilities = 0;
    for (int i = 0; i < d->n_options; i++) {
      const mtg_option *o = &d->options[i];
      if (o->kind != kind || !opt_matches(R, o, a->obj)) continue;
      /* turning a face-down permanent face up is a special action listed with the activations (116.2b) */
      if (kind == MTG_O_ACTIVATE && (strncmp(o->label, "turn_face_up ", 13) == 0) != (a->kind == A_TURN_FACE_UP)) continue;
      /* foretelling a card is a special action listed with the activations (116.2h) */
      if (kind == MTG_O_ACTIVATE && (strncmp(o->label, "foretell ", 9) == 0) != (a->kind == A_FORETELL)) continue;
      /* suspending a card is a special action listed with the activations (116.2f) */
      if (kind == MTG_O_ACTIVATE && (strncmp(o->label, "suspend ", 8) == 0) != (a->kind == A_SUSPEND)) continue;
      if ((kind == MTG_O_CAST || kind == MTG_O_PLAY) && !face_matches(o->label, a->face)) continue;
      if (kind == MTG_O_CAST && (strstr(o->label, " from=graveyard") != NULL) != (a->from == MTG_Z_GRAVEYARD)) continue;
      if (kind == MTG_O_CAST && (strstr(o->label, " face_down=1") != NULL) != (a->face_down != 0)) continue;
      if (kind == MTG_O_ACTIVATE && a->ability >= 0 && o->index != a->ability) continue;
      if (kind == MTG_O_ACTIVATE && found >= 0 && d->options[found].obj == o->obj && o->index != d->options[found].index)
        abilities++;
      if (found < 0) found = i;
    }
    if (abilities)
      return buf_printf(why, "%s has more than one ability that can be activated now; say which with 'ability: N'", a->obj), -1;
    if (found < 0) {
      char what[160];
      snprintf(what, sizeof what, "%s%s%s", a->kind == A_PLAY ? "play" : a->kind == A_CAST ? "cast" : a->kind == A_TURN_FACE_UP ? "turn_face_up" : a->kind == A_FORETELL ? "foretell" : a->kind == A_SUSPEND ? "suspend" : "activate",
               a->from == MTG_Z_GRAVEYARD ? " (from graveyard)" : "", a->face_down ? " (face down)" : "");
      return not_among(R, d, why, what, a->obj);
    }
    v[(*n)++] = found;
    return 0;
  }
  case A_ATTACK:
  case A_BLOCK:
    for (int p = 0; p + 1 < a->nitems; p += 2) {
      int got = -1;
      for (int i = 0; i < d->n_options && got < 0; i++)
        if (!used[i] && pair_matches(R, &d->options[i], a->items[p], a->items[p + 1])) got = i;
      if (got < 0) {
        char spec[256];
        snprintf(spec, sizeof spec, "%s%s%s", a->items[p], a->items[p + 1] ? " -> " : "", a->items[p + 1] ? a->items[p + 1] : "");
        return not_among(R, d, why, a->kind == A_ATTACK ? "attack" : "block", spec);
      }
      used[got] = 1;
      v[(*n)++] = got;
    }
    return 0;
  case A_MODE:
    for (int m = 0; m < a->nnums; m++) {
      int got = -1;
      for (int i = 0; i < d->n_options; i++)
        if (d->options[i].kind == MTG_O_MODE && d->options[i].index == a->nums[m] - 1) got = i;
      if (got < 0) {
        char spec[32];
        snprintf(spec, sizeof spec, "mode %d", a->nums[m]);
        return not_among(R, d, why, "", spec);
      }
      v[(*n)++] = got;
    }
    return 0;
  case A_X:
  case A_NUMBER:
    v[(*n)++] = a->nums[0];
    return 0;
  case A_MAY:
    k = find_opt(R, d, a->nums[0] ? "yes" : "no", NULL, -1);
    if (k < 0) return not_among(R, d, why, "", a->nums[0] ? "yes" : "no");
    v[(*n)++] = k;
    return 0;
  case A_DAMAGE:
  case A_DIVIDE:
    for (int i = 0; i < d->n_options; i++) v[i] = 0;
    *n = d->n_options;
    for (int j = 0; j < a->nitems; j++) {
      k = find_opt(R, d, a->items[j], used, -1);
      if (k < 0) return not_among(R, d, why, a->kind == A_DAMAGE ? "damage to" : "a share for", a->items[j]);
      used[k] = 1;
      v[k] = a->nums[j];
    }
    return 0;
  case A_TRIGGER_ORDER:
  case A_ORDER:
    for (int j = 0; j < a->nitems; j++) {
      k = find_opt(R, d, a->items[j], used, -1);
      if (k < 0) return not_among(R, d, why, "", a->items[j]);
      used[k] = 1;
      v[(*n)++] = k;
    }
    /* what the script leaves out follows in the engine's order */
    for (int i = 0; i < d->n_options; i++)
      if (!used[i]) v[(*n)++] = i;
    return 0;
  default: /* target, choose, cost, replacement, player, color, name, word: picks */
    for (int j = 0; j < a->nitems; j++) {
      k = find_opt(R, d, a->items[j], used, -1);
      if (k < 0) return not_among(R, d, why, "", a->items[j]);
      used[k] = 1;
      v[(*n)++] = k;
    }
    return 0;
  }
}

static int fits(const hact *a, const mtg_decision *d) {
  int kind = act_decision[a->kind];
  /* the engine asks X of a spell as a number decision "choose X for ..." */
  if (a->kind == A_X && d->kind == MTG_D_NUMBER && strstr(d->prompt, "X")) kind = MTG_D_NUMBER;
  return kind == d->kind && (a->player < 0 || a->player == d->player);
}

/* ---- answering ---- */

enum { APPLIED, REFUSED, REFUSED_STOP, BROKEN = -1 };

static int decide(runner *R, const int *v, int n, mtg_error *err) {
  mtg_answer ans = {n, v};
  /* what the engine offers must keep the option contract (mtg.h): part of
   * the invariant checker, so checked where it is asked for (--check, as
   * make harness-test runs the corpus); it was 1% of a plain run */
  char why[512];
  if (R->check && mtg_decision_check(R->g, why, sizeof why)) {
    mtg_error_set(err, MTG_EINTERNAL, "the engine offered a malformed decision: %s", why);
    return MTG_EINTERNAL;
  }
  const char *rule = mtg_game_decision(R->g)->rule;
  int seen = !rule[0] || strlen(rule) >= sizeof R->asked[0] || R->nasked == 32;
  for (int i = 0; i < R->nasked && !seen; i++) seen = !strcmp(R->asked[i], rule);
  if (!seen) strcpy(R->asked[R->nasked++], rule);
  record_see(R->rec, R->g);
  int rc = mtg_game_decide(R->g, &ans, err);
  R->answered++;
  if (rc >= 0 && R->check && mtg_game_check(R->g, why, sizeof why)) {
    mtg_error_set(err, MTG_EINTERNAL, "the engine broke an invariant: %s", why);
    return MTG_EINTERNAL;
  }
  if (rc >= 0 && R->hc->nlabels) ctx_note_ids(&R->x);
  return rc;
}

/* A refusal: expected (its text checked) or a failure. */
static int refusal(runner *R, const hact *a, const hact *top, const char *msg, int mid_action) {
  if (top->refused) {
    if (strstr(msg, top->refused)) return mid_action ? REFUSED_STOP : REFUSED;
    return expect_fail(R, top->at, "%s was refused, but not with '%s': %s", where(top), top->refused, msg);
  }
  if (a != top) return fail(R, a->at, "%s (answering for %s): %s", where(a), where(top), msg);
  return fail(R, a->at, "%s: %s", where(a), msg);
}

static int answer(runner *R, const hact *a, const hact *top, int mid_action) {
  const mtg_decision *d = mtg_game_decision(R->g);
  int v[1024], n;
  buf why = {0};
  if (build_answer(R, a, d, v, &n, &why)) {
    int rc = refusal(R, a, top, buf_str(&why), mid_action);
    buf_free(&why);
    return rc;
  }
  buf_free(&why);
  mtg_error err;
  int rc = decide(R, v, n, &err);
  /* an answer past an engine capacity is refused too, the game unchanged: a
   * case may expect that refusal by its text */
  if (rc == MTG_EILLEGAL || (rc == MTG_ELIMIT && top->refused)) return refusal(R, a, top, err.msg, mid_action);
  if (rc < 0) return fail(R, a->at, "%s: the engine failed: %s", where(a), err.msg);
  return APPLIED;
}

/* Targets the engine chose itself (a single legal choice is no choice, 115.1)
 * still have to be the ones the script names: check the cast line. */
static int chosen_anyway(runner *R, int mark, const char *spec) {
  int n = mtg_log_count(R->g);
  for (int i = mark; i < n; i++) {
    const char *line = mtg_log_line(R->g, i);
    if (strncmp(line, "cast ", 5) && strncmp(line, "activate ", 9)) continue;
    size_t len;
    const char *t = log_field(line, "targets", &len);
    if (!t) continue;
    const char *p = t, *e = t + len;
    while (p < e) {
      const char *q = p;
      while (q < e && *q != ',') q = *q == '"' ? quoted_end(q, e) : q + 1;
      if (value_matches(&R->x, spec, p, (size_t)(q - p))) return 1;
      p = q + 1;
    }
  }
  return 0;
}

/* A top-level action and the answers it carries for the decisions it brings. */
static int apply(runner *R, const hact *a) {
  int mark = mtg_log_count(R->g);
  int rc = answer(R, a, a, 0);
  if (rc != APPLIED) return rc;
  char used[64] = {0};
  while (mtg_game_status(R->g) == MTG_DECISION && a->nsub) {
    const mtg_decision *d = mtg_game_decision(R->g);
    if (d->kind == MTG_D_PRIORITY || d->kind == MTG_D_ATTACKERS || d->kind == MTG_D_BLOCKERS) break;
    int s = -1;
    for (int i = 0; i < a->nsub && i < 64 && s < 0; i++)
      if (!used[i] && fits(&a->sub[i], d)) s = i;
    if (s < 0) break;
    used[s] = 1;
    rc = answer(R, &a->sub[s], a, 1);
    if (rc != APPLIED) return rc;
  }
  for (int i = 0; i < a->nsub && i < 64; i++) {
    const hact *s = &a->sub[i];
    if (used[i]) continue;
    if (s->kind == A_TARGET && s->nitems == 1 && chosen_anyway(R, mark, s->items[0])) continue;
    char msg[512];
    if (s->kind == A_TARGET)
      snprintf(msg, sizeof msg, "the engine never asked for target %s (line %d), and did not choose it itself",
               s->nitems ? s->items[0] : "none", s->at->line);
    else
      snprintf(msg, sizeof msg, "the engine never asked the %s decision that '%s' (line %d) answers",
               act_name(s->kind), s->key, s->at->line);
    return refusal(R, s, a, msg, 1);
  }
  if (a->refused)
    return expect_fail(R, a->at, "%s should have been refused ('%s'), but the engine accepted it", where(a), a->refused);
  return APPLIED;
}

/* Priority: pass. Attackers and blockers: declare none. Else 0. */
static int auto_answer(runner *R, const mtg_decision *d) {
  int v[512], n = 0; /* the answer: v[0..n) */
  if (d->kind == MTG_D_ORDER && (!strcmp(d->rule, "404.3") || !strcmp(d->rule, "401.4"))) {
    /* cards put into a graveyard or library together: unless the script
     * orders them, they keep the order the engine lists them in */
    for (int i = 0; i < d->n_options && i < 512; i++) v[n++] = i;
  } else if (d->kind == MTG_D_PRIORITY) {
    int k = -1;
    for (int i = 0; i < d->n_options && k < 0; i++)
      if (d->options[i].kind == MTG_O_PASS) k = i;
    if (k < 0) return 0;
    v[n++] = k;
  } else if ((d->kind == MTG_D_ATTACKERS || d->kind == MTG_D_BLOCKERS) && d->min == 0) {
    n = 0;
  } else {
    return 0;
  }
  mtg_error err;
  if (decide(R, v, n, &err) < 0) return fail(R, NULL, "passing automatically failed: %s", err.msg), -1;
  return 1;
}

static void next_action_text(const runner *R, char *out, size_t size) {
  if (R->ai >= R->hc->nacts) {
    snprintf(out, size, "the script has no more actions");
    return;
  }
  const hact *a = &R->hc->acts[R->ai];
  snprintf(out, size, "the next action is %s%s%s '%s' (line %d)", a->player >= 0 ? pname(R, a->player) : "",
           a->player >= 0 ? "'s" : "", "", a->key, a->at->line);
}

/* The check actions next in the script: the state now against each one's
 * expectations (match_state with the check in place of the case's own). 0,
 * or -1 after a failure. */
static int run_checks(runner *R) {
  const hcase *hc = R->hc;
  while (R->ai < hc->nacts && hc->acts[R->ai].kind == A_CHECK) {
    const hact *a = &hc->acts[R->ai++];
    if (hc->nlabels) {
      ctx_note_ids(&R->x);
      ctx_note_log(&R->x);
    }
    buf d = {0};
    int first = 0;
    R->x.hc = a->check;
    int nd = match_state(&R->x, &d, &first);
    R->x.hc = hc;
    if (nd) {
      const char *s = buf_str(&d);
      int n = (int)strlen(s);
      while (n > 0 && s[n - 1] == '\n') n--;
      expect_fail(R, a->at, "check at line %d, at turn %d, step %s: %.*s", a->at->line, mtg_game_turn(R->g),
                  mtg_step_name(mtg_game_step(R->g)), n, s);
      buf_free(&d);
      return -1;
    }
    buf_free(&d);
  }
  return 0;
}

/* Plays the script, then settles. 0, or -1 after a failure. */
static int play(runner *R) {
  const hcase *hc = R->hc;
  int settling = 0;
  for (;;) {
    if (run_checks(R)) return -1;
    if (mtg_game_status(R->g) != MTG_DECISION) break;
    const mtg_decision *d = mtg_game_decision(R->g);
    char next[256];
    if (R->answered > MAX_ANSWERS) {
      next_action_text(R, next, sizeof next);
      return fail(R, NULL, "gave up after %d decisions; %s", MAX_ANSWERS, next);
    }
    if (R->ai < hc->nacts) {
      const hact *a = &hc->acts[R->ai];
      if (mtg_game_turn(R->g) > (long long)hc->start_turn + TURN_SLACK)
        return fail(R, a->at, "gave up at turn %d waiting for a decision that %s answers", mtg_game_turn(R->g), where(a));
      if (a->kind == A_ADVANCE || a->kind == A_RESOLVE) {
        /* advance: pass until the step comes; resolve ("then, after it
         * resolves"): until a player has priority with the stack empty */
        if (a->kind == A_ADVANCE && R->target_for != R->ai) {
          R->target_for = R->ai;
          R->target = step_target(R, a->step, a->turn);
          R->target_from = now_ordinal(R);
        }
        if (a->kind == A_ADVANCE ? reached(R, a->step, a->turn) : d->kind == MTG_D_PRIORITY && stack_size(R) == 0) {
          if (a->refused) return fail(R, a->at, "%s can't be refused", where(a));
          R->ai++;
          continue;
        }
        int rc = auto_answer(R, d);
        if (rc < 0) return -1;
        if (!rc)
          return fail(R, a->at, "while %s%s (%s), %s's %s decision needs an answer: script it before",
                      a->kind == A_ADVANCE ? "advancing to " : "waiting for the stack to be empty",
                      a->kind == A_ADVANCE ? mtg_step_name(a->step) : "", where(a), pname(R, d->player), d->kind_name);
        continue;
      }
      if (fits(a, d)) {
        int rc = apply(R, a);
        if (rc == BROKEN) return -1;
        R->ai++;
        if (rc == REFUSED_STOP) {
          if (R->ai < hc->nacts)
            return fail(R, hc->acts[R->ai].at,
                        "the refusal of %s leaves the game inside that action; it must be the last action", where(a));
          return 0;
        }
        continue;
      }
      if (hc->autopass) {
        int rc = auto_answer(R, d);
        if (rc < 0) return -1;
        if (rc) continue;
      }
      next_action_text(R, next, sizeof next);
      return fail(R, a->at, "the script does not answer %s's %s decision: %s", pname(R, d->player), d->kind_name, next);
    }
    /* settling after the last action */
    if (!settling) {
      settling = 1;
      if (hc->stop == STOP_STEP) {
        R->target = step_target(R, hc->stop_step, hc->stop_turn);
        R->target_from = now_ordinal(R);
      }
    }
    if (hc->stop == STOP_NOW) break;
    int waiting = (hc->stop == STOP_STEP && !reached(R, hc->stop_step, hc->stop_turn)) || hc->stop == STOP_GAME_OVER;
    if (waiting && mtg_game_turn(R->g) > (long long)hc->start_turn + (hc->stop == STOP_GAME_OVER ? 5 * TURN_SLACK : TURN_SLACK))
      return fail(R, NULL, "gave up at turn %d waiting for the stop point", mtg_game_turn(R->g));
    if (!waiting && d->kind == MTG_D_PRIORITY && stack_size(R) == 0) break;
    int rc = auto_answer(R, d);
    if (rc < 0) return -1;
    if (!rc)
      return fail(R, NULL, "after the last action, %s's %s decision needs an answer the script does not give",
                  pname(R, d->player), d->kind_name);
  }
  if (run_checks(R)) return -1;
  if (R->ai < hc->nacts) {
    const hact *a = &hc->acts[R->ai];
    if (a->kind == A_ADVANCE || a->kind == A_RESOLVE) return fail(R, a->at, "the game ended before %s", where(a));
    return fail(R, a->at, "the game ended before %s could be used", where(a));
  }
  return 0;
}

/* ---- what the case checks ---- */

/* Whether rule `num` (a value of a rule= field) is `listed` or a subrule of it. */
static int checks_rule(const char *num, size_t n, const char *listed) {
  char r[32];
  if (n >= sizeof r) return 0;
  memcpy(r, num, n);
  r[n] = 0;
  return rules_is_under(r, listed);
}

static int pattern_names_rule(const hpat *p, int k, const char *listed) {
  for (int i = 0; i < p[k].nf; i++) {
    if (strcmp(p[k].keys[i], "rule")) continue;
    const ynode *v = p[k].vals[i];
    if (v->kind == YN_SCALAR && checks_rule(v->str, strlen(v->str), listed)) return 1;
    for (int j = 0; v->kind == YN_SEQ && j < v->n; j++)
      if (checks_rule(v->items[j]->str, strlen(v->items[j]->str), listed)) return 1;
  }
  return 0;
}

/* The rules an event of each type performs, beyond the rule= it may carry:
 * a trigger line is 603 at work, a resolve line 608, a replace line 614 and
 * 616. A listed rule under one of these (603.10a under 603) is shown by a line
 * of that type. Section-level on purpose: what a case claims inside a section
 * is for its patterns to pin down; the warning catches a rule the game never
 * came near. */
static const struct {
  const char *type, *rules;
} event_rules[] = {
    {"activate", "602 605 606"}, {"add_mana", "106 605"}, {"additional_phases", "500.8"},
    {"attach", "701.3 301.5 303.4"}, {"attackers", "508"}, {"attacks", "506 508"}, {"becomes_target", "115 603"},
    {"blocked", "509"}, {"blockers", "509"}, {"blocks", "506 509"}, {"cast", "601"}, {"cease_to_exist", "111 704.5d"},
    {"change_target", "115"}, {"clash", "701.30"}, {"complete", "309"}, {"control", "613"}, {"copy", "707"},
    {"counter", "701.6"}, {"counter_failed", "101.2"}, {"counters_put", "122"}, {"counters_removed", "122"},
    {"create_token", "111 701.7"}, {"damage", "120"}, {"damage_removed", "514.2"}, {"destroy", "701.8"},
    {"discard", "701.9"}, {"draw", "121"}, {"dungeon", "309"}, {"enters_with", "614.1c 122"}, {"exert", "701.43"},
    {"exile", "406 701.13"}, {"extra_turn", "500.7"}, {"gain_life", "119"}, {"game_start", "103"},
    {"land_plays", "305"}, {"library_order", "401"}, {"look", "701.20"}, {"lose_life", "119"},
    {"mana_empty", "106 500"}, {"mill", "701.17"}, {"opening_hand", "103"}, {"paid", "118"}, {"pair", "702.95"},
    {"pay", "601 602 118 107"}, {"phase", "702.26"}, {"play_land", "305 116"}, {"prevent", "615"},
    {"protector", "310"}, {"put_on_top", "401"}, {"regenerate", "701.19"}, {"remove_from_combat", "506.4"},
    {"replace", "614 616"}, {"resolve", "405 608"}, {"reveal", "701.20"}, {"roll", "706"}, {"sacrifice", "701.21"},
    {"sba", "704"}, {"scry", "701.22"}, {"sector", "702.158"}, {"shuffle", "701.24"}, {"skip", "614"},
    {"stack_push", "405 601 602 603"}, {"stack_remove", "405"},
    {"step", "500 501 502 503 504 505 506 507 508 509 510 511 512 513 514"}, {"surveil", "701.25"},
    {"tap", "701.26"},
    {"transform", "701.27 712"}, {"trigger", "603"}, {"turn", "500 502"}, {"turn_face_up", "702.37 708 116"},
    {"unattach", "701.3"}, {"unblocked", "509"}, {"unpair", "702.95"}, {"untap", "701.26 502.3"},
    {"venture", "309 701.49"}, {"zone", "400"},
};

#define NTYPES ((int)(sizeof event_rules / sizeof event_rules[0]))

/* The length of the word s starts with (up to a space or the end): a few
 * characters, which a loop finds sooner than strcspn's setup. */
static size_t word_len(const char *s) {
  size_t n = 0;
  while (s[n] && s[n] != ' ') n++;
  return n;
}

/* Where each first letter's types begin in event_rules (by[c - 'a'] to
 * by[c - 'a' + 1]), found once per case whose log is read: most lines are
 * then told apart within a few entries. */
typedef struct type_index {
  unsigned char by[27];
} type_index;

static void type_index_fill(type_index *x) {
  int t = 0;
  for (int c = 0; c < 26; c++) {
    x->by[c] = (unsigned char)t;
    while (t < NTYPES && event_rules[t].type[0] == 'a' + c) t++;
  }
  x->by[26] = (unsigned char)t;
}

/* The event_rules entry of a log line's type (its first word), or -1: a
 * binary search among the types of its first letter, the table being sorted
 * by type. */
static int line_type(const type_index *x, const char *line) {
  if (line[0] < 'a' || line[0] > 'z') return -1;
  int lo = x->by[line[0] - 'a'], hi = x->by[line[0] - 'a' + 1] - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    const char *t = event_rules[mid].type;
    size_t i = 1;
    while (line[i] && line[i] != ' ' && line[i] == t[i]) i++; /* t ends (a NUL) where it differs */
    int end = !line[i] || line[i] == ' ';
    int c = end ? (t[i] ? -1 : 0) : (unsigned char)line[i] - (unsigned char)t[i];
    if (!c) return mid;
    if (c < 0) hi = mid - 1;
    else lo = mid + 1;
  }
  return -1;
}

/* rules_is_under(num, the first n characters of sel), sel not terminated there. */
static int under_n(const char *num, const char *sel, size_t n) {
  if (!n || num[0] != sel[0] || strncmp(num, sel, n)) return 0;
  char c = num[n];
  if (!c) return 1;
  int sel_has_dot = memchr(sel, '.', n) != NULL;
  if (c == '.') return !sel_has_dot;
  if (c >= 'a' && c <= 'z') return sel_has_dot && sel[n - 1] >= '0' && sel[n - 1] <= '9';
  return 0;
}

/* Whether a line of type t (line_type) performs rule `listed` (event_rules). */
static int type_performs(int t, const char *listed) {
  for (const char *r = event_rules[t].rules; *r;) {
    size_t k = word_len(r);
    if (under_n(listed, r, k)) return 1;
    r += k;
    while (*r == ' ') r++;
  }
  return 0;
}

#define RULES_AT_ONCE 64 /* listed rules looked for in one pass over the log (bits of a uint64_t) */

/* A rule the case lists is checked when an event of the log carries it (a
 * rule= field naming it or a subrule of it), a decision of the game was
 * asked by it, or a pattern of the case names it (an absent or count pattern
 * checks a rule the log must not carry). A listed rule that none of these
 * touch is a warning: the case claims to cover it, but nothing shows that it
 * does. The log is read once for the rules the rest leaves unchecked, each
 * line's type found once. Returns the line of the first warning, or 0. */
static int unchecked_rules(runner *R, buf *warn) {
  const hcase *hc = R->hc;
  int n = mtg_log_count(R->g), first = 0;
  for (int k0 = 0; k0 < hc->nrules; k0 += RULES_AT_ONCE) {
    int m = hc->nrules - k0 < RULES_AT_ONCE ? hc->nrules - k0 : RULES_AT_ONCE, left = 0;
    unsigned char ok[RULES_AT_ONCE];
    for (int k = 0; k < m; k++) {
      const char *listed = hc->rules[k0 + k];
      int yes = 0;
      for (int i = 0; i < R->nasked && !yes; i++) yes = rules_is_under(R->asked[i], listed);
      for (int i = 0; i < hc->nevents && !yes; i++)
        for (int j = 0; j < hc->events[i].np && !yes; j++) yes = pattern_names_rule(hc->events[i].p, j, listed);
      for (int i = 0; i < hc->ncounts && !yes; i++) yes = pattern_names_rule(hc->counts, i, listed);
      for (int i = 0; i < hc->nabsent && !yes; i++) yes = pattern_names_rule(hc->absent, i, listed);
      ok[k] = (unsigned char)yes;
      left += !yes;
    }
    /* per type of line, the listed rules a line of that type carries by its
     * type alone (bit k), found at the first line of the type */
    uint64_t performs[NTYPES];
    unsigned char known[NTYPES];
    memset(known, 0, sizeof known);
    type_index tx;
    if (left) type_index_fill(&tx);
    for (int i = 0; i < n && left; i++) {
      const char *line = mtg_log_line(R->g, i);
      int t = line_type(&tx, line);
      if (t >= 0) {
        if (!known[t]) {
          performs[t] = 0;
          for (int k = 0; k < m; k++)
            if (type_performs(t, hc->rules[k0 + k])) performs[t] |= (uint64_t)1 << k;
          known[t] = 1;
        }
        for (int k = 0; k < m && performs[t]; k++)
          if (!ok[k] && (performs[t] >> k & 1)) ok[k] = 1, left--;
      }
      /* the rule= fields the line carries, naming a listed rule or a subrule of it */
      for (const char *p = strstr(line, " rule="); p && left; p = strstr(p + 1, " rule=")) {
        p += 6;
        size_t len = word_len(p);
        for (int k = 0; k < m; k++)
          if (!ok[k] && checks_rule(p, len, hc->rules[k0 + k])) ok[k] = 1, left--;
      }
    }
    for (int k = 0; k < m; k++) {
      if (ok[k]) continue;
      const char *listed = hc->rules[k0 + k];
      const ynode *at = hc->rule_at[k0 + k];
      if (!first) first = at->line;
      buf_printf(warn, "%s:%d:%d: warning: rule %s is listed, but no event of the case's log carries it (rule=%s), no "
                       "decision of the game was asked by it and no pattern of the case names it\n",
                 hc->file->path, at->line, at->col, listed, listed);
    }
  }
  return first;
}

/* The log marks exactly its decide lines as decisions (mtg_log_is_decision),
 * which replays and readers of the log rely on. 0, or -1 after a failure. */
static int decisions_marked(runner *R) {
  for (int i = 0; i < mtg_log_count(R->g); i++) {
    const char *line = mtg_log_line(R->g, i);
    if (!mtg_log_is_decision(R->g, i) != !(line[0] == 'd' && !strncmp(line, "decide ", 7)))
      return fail(R, NULL, "the engine's log %s line %d as a decision: %s", mtg_log_is_decision(R->g, i) ? "marks" : "doesn't mark",
                  i + 1, line);
  }
  return 0;
}

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void run_case(const hcase *hc, const run_opts *o, hresult *r) {
  memset(r, 0, sizeof *r);
  if (hc->todo && !o->run_todo) {
    r->status = ST_TODO;
    return;
  }
  double t0 = now_seconds();
  runner R = {.hc = hc, .r = r, .target_for = -1};
  int warned = 0; /* the line of the first warning */
  R.x.hc = hc;
  mtg_error err;
  mtg_game **slot = o->game ? o->game : &R.g;
  int rc = mtg_game_renew(slot, hc->setup, &err);
  R.g = *slot;
  if (rc < 0) {
    r->f.failed = 1;
    r->f.kind = HF_SCRIPT;
    r->f.line = hc->line;
    buf_printf(&r->f.summary, "the engine refused the setup: %s", err.msg);
    buf_printf(&r->f.detail, "the engine refused the setup: %s\n", err.msg);
  } else {
    R.x.g = R.g;
    if (hc->nlabels) ctx_note_ids(&R.x);
    if (o->record_dir) r->unrecorded = !(R.rec = record_open(hc, o->pool, o->record_dir, &r->note));
    R.check = o->check;
    char why[512];
    int broken = R.check && mtg_game_check(R.g, why, sizeof why);
    if (broken) fail(&R, NULL, "the engine broke an invariant as the game began: %s", why);
    if (!broken && play(&R) == 0 && decisions_marked(&R) == 0) {
      if (hc->nlabels) ctx_note_log(&R.x);
      warned = unchecked_rules(&R, &r->warn);
      match_events(&R.x, &r->f);
      int first = 0;
      int nd = match_state(&R.x, &r->state, &first);
      if (nd && !r->f.failed) {
        r->f.failed = 1;
        r->f.line = first;
        const char *s = buf_str(&r->state);
        const char *nl = strchr(s, '\n');
        buf_printf(&r->f.summary, "state: %.*s%s", (int)(nl ? nl - s : (long)strlen(s)), s,
                   nd > 1 ? " (and more)" : "");
      }
    }
    if (o->verbose)
      for (int i = 0; i < mtg_log_count(R.g); i++) buf_printf(&r->log, "%s\n", mtg_log_line(R.g, i));
    /* last: the writer drops the log entries it writes */
    if (R.rec && record_close(R.rec, R.g, &r->note)) r->unrecorded = 1;
    if (!o->game) mtg_game_free(R.g);
  }
  ctx_free(&R.x);
  if (o->strict && warned && !r->f.failed) {
    /* --strict: the warnings are the case's error */
    const char *w = buf_str(&r->warn), *msg = strstr(w, ": warning: ") + 11;
    r->f.failed = 1;
    r->f.kind = HF_INPUT;
    r->f.line = warned;
    buf_put(&r->f.summary, msg, strcspn(msg, "\n"));
    buf_puts(&r->f.detail, w);
  }
  r->status = !r->f.failed ? ST_PASS : r->f.kind != HF_EXPECT ? ST_ERROR : ST_FAIL;
  r->seconds = now_seconds() - t0;
}

void hresult_free(hresult *r) {
  hfail_free(&r->f);
  buf_free(&r->state);
  buf_free(&r->log);
  buf_free(&r->note);
  buf_free(&r->warn);
}
