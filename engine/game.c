/* game.c - the game handle, decisions and the one unwinding boundary.
 *
 * The engine runs in segments. A segment starts at a top-level decision
 * (priority, attackers, blockers), where the state is snapshotted. Decisions
 * met inside an action (targets, modes, "may", replacement order, trigger
 * order, ...) stop the run with longjmp and hand the decision to the caller;
 * the state is left as it is at that point so the caller can inspect it. When
 * the answer comes, the segment is re-run from the snapshot with all answers
 * given so far; the run is deterministic, so it reaches the same point and
 * continues. An illegal answer or action restores the snapshot (rule 732).
 * The options of the top-level decision the snapshot was taken at are kept
 * with it (dtop, topt): a re-run that begins by asking that decision again
 * takes them as they are (dec_resume) instead of building them again. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "internal.h"

static const char *const dec_kind_names[MTG_D_COUNT] = {
    "priority", "mode", "x", "target", "cost", "attackers", "blockers", "damage", "trigger_order",
    "replacement", "may", "choose", "player", "color", "name", "number", "order", "word", "divide"};

/* The counters and scalars of s, and the entries of its ring of last known
 * information that `lki` says: all that can differ from d when the rest of the
 * state is known to be the same (dec_core_only). */
static void core_copy(State *d, const State *s, uint32_t lki) {
  d->c = s->c;
  for (int i = 0; i < s->c.nlki; i++)
    if (lki >> i & 1) d->lki[i] = s->lki[i];
}

/* Copies the objects of s onto d: the slots `dirty` marks (bit i: slot i),
 * moving the marks to `changed` (for the characteristics cache: layer.c), or
 * with dirty NULL every slot in use. A slot nothing wrote since d was last
 * made equal to s is the same in both (obj_w is the only writer); a slot
 * comes into use only by being written. */
static void objs_copy(State *d, const State *s, uint64_t *dirty, uint64_t *changed) {
  if (!dirty) {
    memcpy((void *)d->obj, s->obj, (size_t)s->c.nslots * sizeof(Obj));
    return;
  }
  for (int w = 0; w < (MAX_SLOTS + 63) / 64; w++) {
    for (uint64_t m = dirty[w]; m; m &= m - 1) {
      int i = w * 64 + low_bit(m);
      memcpy((void *)&d->obj[i], &s->obj[i], sizeof(Obj));
    }
    changed[w] |= dirty[w];
    dirty[w] = 0;
  }
}

/* Copies the state s onto d, the ring of last known information only in the
 * entries `lki` says (bit i: entry i, if in use): an entry nothing wrote
 * since d was last made equal to s is the same in both, and an entry comes
 * into use only by being written (lki_keep); the objects as objs_copy. */
static void state_copy(State *d, const State *s, uint32_t lki, uint64_t *odirty, uint64_t *changed) {
  core_copy(d, s, lki);
  objs_copy(d, s, odirty, changed);
  for (int i = 0; i < NZL; i++) memcpy(d->zl[i], s->zl[i], (size_t)s->c.zn[i] * sizeof(int16_t));
  memcpy(d->stack, s->stack, (size_t)s->c.nstack * sizeof(StackItem));
  memcpy(d->eff, s->eff, (size_t)s->c.neff * sizeof(Effect));
  memcpy(d->pend, s->pend, (size_t)s->c.npend * sizeof(Pending));
  memcpy(d->link, s->link, (size_t)s->c.nlink * sizeof(Link));
  memcpy(d->xblk, s->xblk, (size_t)s->c.nxblk * sizeof(BlockPair));
  memcpy(d->hist, s->hist, (size_t)s->c.nhist * sizeof(Hist));
}

_Noreturn void game_throw(G *g, int code) { longjmp(g->jb, code); }

_Noreturn void game_limit(G *g, const char *what, int cap) {
  g->limit_what = what;
  g->limit_cap = cap;
  game_throw(g, JMP_LIMIT);
}

/* "... an engine capacity: more than 160 objects on the stack" */
static void limit_message(const G *g, const char *lead, char *msg, size_t size) {
  if (g->limit_what) snprintf(msg, size, "%s: more than %d %s", lead, g->limit_cap, g->limit_what);
  else snprintf(msg, size, "%s", lead);
}

_Noreturn void game_illegal(G *g, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(g->illegal, sizeof g->illegal, fmt, ap);
  va_end(ap);
  g->illegal_status = 2; /* undo the whole action */
  game_throw(g, JMP_ILLEGAL);
}

void game_stop(G *g) {
  g->s->c.over = 1;
  g->s->c.stage = SG_OVER;
  game_throw(g, JMP_OVER);
}

/* ---- decisions ---- */

static int top_kind(int kind) {
  return kind == MTG_D_PRIORITY || kind == MTG_D_ATTACKERS || kind == MTG_D_BLOCKERS;
}

/* Prompts and labels are shown to players and quote card data (a mode's text, a
 * prompt), which a card file may give any bytes: a control character there (a
 * tab) is shown as a space, so every decision's text stays printable. */
static void shown_text(char *s, int len, size_t size) {
  size_t n = len < 0 ? 0 : (size_t)len < size ? (size_t)len : size - 1; /* fmt_v's length, untruncated */
  size_t i = 0;
  /* Eight bytes at a time, passed over whole while none is below 0x20 or is
   * 0x7f (the bit tests tell whether any byte is, not which): a listing
   * formats thousands of labels, nearly all printable. A word with one is
   * redone byte by byte. */
  const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
  for (; i + 8 <= n; i += 8) {
    uint64_t w, del;
    memcpy(&w, s + i, 8);
    del = w ^ 0x7f7f7f7f7f7f7f7fu;
    if (!(((w - 0x20 * ones) & ~w & highs) | ((del - ones) & ~del & highs))) continue;
    for (size_t j = i; j < i + 8; j++) {
      if (!s[j]) return; /* the text ends there, as before */
      if ((unsigned char)s[j] < 0x20 || s[j] == 0x7f) s[j] = ' ';
    }
  }
  for (; i < n && s[i]; i++)
    if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) s[i] = ' ';
}

void dec_begin(G *g, int kind, int player, const char *rule, const char *fmt, ...) {
  Decision *d = top_kind(kind) ? &g->w->dtop : &g->w->dsub;
  if (d == &g->w->dtop) g->top_ready = 0; /* no longer the snapshot's */
  g->dec = d;
  d->pub.kind = kind;
  d->pub.kind_name = dec_kind_names[kind];
  d->pub.player = player;
  d->pub.n_options = 0;
  d->pub.options = d->opt;
  d->pub.min = d->pub.max = 1;
  d->pub.lo = d->pub.hi = 0;
  d->pub.rule = rule ? rule : ""; /* a rule number literal: kept, not copied */
  va_list ap;
  va_start(ap, fmt);
  int len = fmt_v(d->prompt, sizeof d->prompt, fmt, ap);
  va_end(ap);
  shown_text(d->prompt, len, sizeof d->prompt);
  d->pub.prompt = d->prompt;
}

int dec_opt(G *g, int kind, uint32_t obj, uint32_t obj2, int player, int index, const char *fmt, ...) {
  Decision *d = g->dec;
  int i = d->pub.n_options;
  if (i >= MAX_OPTIONS) game_limit(g, "options in one decision", MAX_OPTIONS);
  mtg_option *o = &d->opt[i];
  o->kind = kind;
  o->obj = obj;
  o->obj2 = obj2;
  o->player = player;
  o->index = index;
  va_list ap;
  va_start(ap, fmt);
  int len = fmt_v(d->labels[i], sizeof d->labels[i], fmt, ap);
  va_end(ap);
  shown_text(d->labels[i], len, sizeof d->labels[i]);
  o->label = d->labels[i];
  d->pub.n_options = i + 1;
  return i;
}

void dec_range(G *g, int min, int max) {
  g->dec->pub.min = min;
  g->dec->pub.max = max;
}

static int answer_check(G *g, const int *v, int n) {
  const mtg_decision *d = &g->dec->pub;
  char *why = g->illegal;
  size_t wsz = sizeof g->illegal;
  switch (d->kind) {
  case MTG_D_X:
  case MTG_D_NUMBER:
    if (n != 1) return snprintf(why, wsz, "a %s decision takes one number", d->kind_name), -1;
    if (v[0] < d->lo || v[0] > d->hi)
      return snprintf(why, wsz, "%d is out of range %d..%d for %s", v[0], d->lo, d->hi, d->prompt), -1;
    return 0;
  case MTG_D_TRIGGER_ORDER:
  case MTG_D_ORDER: {
    if (n != d->n_options) return snprintf(why, wsz, "an order lists all %d options, got %d", d->n_options, n), -1;
    unsigned char seen[MAX_OPTIONS] = {0};
    for (int i = 0; i < n; i++) {
      if (v[i] < 0 || v[i] >= d->n_options || seen[v[i]])
        return snprintf(why, wsz, "an order is a permutation of options 0..%d", d->n_options - 1), -1;
      seen[v[i]] = 1;
    }
    return 0;
  }
  case MTG_D_DAMAGE:
  case MTG_D_DIVIDE: {
    const char *what = d->kind == MTG_D_DAMAGE ? "damage" : "divided";
    if (n != d->n_options) return snprintf(why, wsz, "%s lists an amount for each of %d options", d->kind == MTG_D_DAMAGE ? "damage assignment" : "a division", d->n_options), -1;
    long long sum = 0; /* answers come from the caller: any int */
    for (int i = 0; i < n; i++) {
      if (v[i] < 0) return snprintf(why, wsz, "negative %s amount", what), -1;
      /* a division among targets gives each at least 1 (601.2d) */
      if (v[i] < d->lo) return snprintf(why, wsz, "each of the %d options gets at least %d (601.2d)", d->n_options, d->lo), -1;
      sum += v[i];
    }
    if (sum != d->hi) return snprintf(why, wsz, "%s (%lld) must total %d", d->kind == MTG_D_DAMAGE ? "damage assigned" : "the amounts divided", sum, d->hi), -1;
    return 0;
  }
  default: {
    if (n < d->min || n > d->max) {
      if (d->min == d->max) return snprintf(why, wsz, "%s: choose exactly %d option%s, got %d", d->prompt, d->min, d->min == 1 ? "" : "s", n), -1;
      return snprintf(why, wsz, "%s: choose %d to %d options, got %d", d->prompt, d->min, d->max, n), -1;
    }
    unsigned char seen[MAX_OPTIONS];
    if (n > 1) memset(seen, 0, (size_t)d->n_options); /* a single pick (most answers) can't repeat */
    for (int i = 0; i < n; i++) {
      if (v[i] < 0 || v[i] >= d->n_options)
        return snprintf(why, wsz, "option %d does not exist (%d options)", v[i], d->n_options), -1;
      if (n == 1) break;
      if (seen[v[i]]) return snprintf(why, wsz, "option %d chosen twice", v[i]), -1;
      seen[v[i]] = 1;
    }
    return 0;
  }
  }
}

static void log_answer(G *g, const int *v, int n) {
  const mtg_decision *d = &g->dec->pub;
  char buf[2048];
  /* "decide kind=K player=P", put together without the formatter (every
   * answer writes it) when it fits, as it always does; the length written */
  static const char kind_is[] = "decide kind=", player_is[] = " player=";
  const char *pn = d->player >= 0 ? player_name(g, d->player) : "-";
  size_t kl = strlen(d->kind_name), pl = strlen(pn), u;
  if (sizeof kind_is + kl + sizeof player_is + pl <= sizeof buf) {
    memcpy(buf, kind_is, sizeof kind_is - 1);
    u = sizeof kind_is - 1;
    memcpy(buf + u, d->kind_name, kl);
    u += kl;
    memcpy(buf + u, player_is, sizeof player_is - 1);
    u += sizeof player_is - 1;
    memcpy(buf + u, pn, pl + 1);
    u += pl;
  } else {
    /* the length written: at least the format's own text, never negative */
    u = (size_t)fmt_s(buf, sizeof buf, "decide kind=%s player=%s", d->kind_name, pn);
  }
  if (d->kind == MTG_D_X || d->kind == MTG_D_NUMBER) {
    fmt_s(buf + u, sizeof buf - u, " value=%d", v[0]);
  } else if (d->kind == MTG_D_DAMAGE || d->kind == MTG_D_DIVIDE) {
    /* each recipient and its damage, however many: written in place as the
     * choices below are, so that a division among many blockers is not cut */
    char num[16];
    size_t len = u;
    for (int i = 0; i < n; i++) len += strlen(g->dec->opt[i].label) + 2 + (size_t)fmt_s(num, sizeof num, "%d", v[i]);
    char *out = log_reserve(g, 1, len);
    memcpy(out, buf, u);
    for (int i = 0; i < n; i++) u += (size_t)fmt_s(out + u, len + 1 - u, " %s=%d", g->dec->opt[i].label, v[i]);
    log_commit(g, u);
    return;
  } else if (n == 0) {
    fmt_s(buf + u, sizeof buf - u, " choice=none");
  } else {
    /* the options chosen, in order, however many: written in place, so that
     * a long ordering (a hundred triggers) is never cut */
    size_t len = u;
    for (int i = 0; i < n; i++) len += strlen(i ? " | " : " choice=") + strlen(g->dec->opt[v[i]].label);
    char *out = log_reserve(g, 1, len);
    memcpy(out, buf, u);
    for (int i = 0; i < n; i++) {
      const char *sep = i ? " | " : " choice=", *lb = g->dec->opt[v[i]].label;
      memcpy(out + u, sep, strlen(sep));
      u += strlen(sep);
      memcpy(out + u, lb, strlen(lb));
      u += strlen(lb);
    }
    log_commit(g, u);
    return;
  }
  log_line(g, 1, "%s", buf);
}

const int *dec_ask(G *g, int top, int *n) {
  g->dec->top = top;
  if (g->apos < g->an) {
    if (top) {
      /* what the answer does may change anything (dec_core_only says otherwise) */
      g->same_before = g->live_same;
      g->live_same = 0;
    }
    int a = g->apos++;
    const int *v = g->av + g->aoff[a];
    int cnt = g->aoff[a + 1] - g->aoff[a];
    if (answer_check(g, v, cnt)) {
      g->illegal_status = 1; /* refuse this answer only */
      game_throw(g, JMP_ILLEGAL);
    }
    log_answer(g, v, cnt);
    g->s->c.events_since_choice = 0;
    *n = cnt;
    return v;
  }
  if (top) {
    /* a new segment begins here */
    if (g->live_same) core_copy(g->snap, g->s, g->lki_dirty);
    else state_copy(g->snap, g->s, g->lki_dirty, g->odirty, g->ch_changed);
    g->lki_dirty = 0;
    g->snap_top = 1;
    g->live_same = 1;
    g->committed = g->nent;
    g->an = g->apos = 0;
    g->avn = 0;
    g->top_ready = g->dec == &g->w->dtop;
  }
  game_throw(g, JMP_DECISION);
}

void dec_core_only(G *g) { g->live_same = g->same_before; }

int dec_resume(G *g) {
  /* a re-run starts from the snapshot, taken at a top-level decision, so the
   * first decision it asks is that one, with the options kept; so it is with
   * answers queued or none (a refused answer runs the game back to it) */
  if (!g->top_ready || g->apos) return 0;
  g->dec = &g->w->dtop;
  return 1;
}

int ask_pick(G *g) {
  int n;
  const int *v = dec_ask(g, 0, &n);
  return n ? v[0] : -1;
}

int ask_yes_no(G *g, int player, const char *rule, const char *fmt, ...) {
  char prompt[160];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(prompt, sizeof prompt, fmt, ap);
  va_end(ap);
  dec_begin(g, MTG_D_MAY, player, rule, "%s", prompt);
  dec_opt(g, MTG_O_YES, 0, 0, -1, -1, "yes");
  dec_opt(g, MTG_O_NO, 0, 0, -1, -1, "no");
  return ask_pick(g) == 0;
}

int ask_number(G *g, int player, int lo, int hi, const char *fmt, ...) {
  char prompt[160];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(prompt, sizeof prompt, fmt, ap);
  va_end(ap);
  dec_begin(g, MTG_D_NUMBER, player, "", "%s", prompt);
  g->dec->pub.lo = lo;
  g->dec->pub.hi = hi;
  int n;
  const int *v = dec_ask(g, 0, &n);
  return v[0];
}

int mtg_decision_find(const mtg_decision *d, const char *label) {
  if (!d || !label) return -1;
  for (int i = 0; i < d->n_options; i++)
    if (!strcmp(d->options[i].label, label)) return i;
  return -1;
}

/* ---- running ---- */

static int run(G *g) {
  /* a run starts with no action in progress: scratch left by a run that stopped
   * part-way (a decision, an illegal action) must not leak into this one, or the
   * re-run diverges (replacement marks inherited by "instead" events, 614.5) */
  g->ninh = 0;
  g->nrider = 0;
  g->evtop = 0;
  g->in_sba = 0;
  g->defer_trig_log = 0;
  g->ndmg_seen = 0;
  g->ndcand = 0;
  g->nprev = 0;
  g->nentering = 0;
  g->nmtq = 0;
  g->in_mtq = 0;
  g->collecting = 0;
  g->batch_draw = 0;
  g->tok_out = NULL;
  g->act_lki = NULL;
  g->tgt_tc = NULL;
  g->tgt_x = 0;
  g->hyp_slot = -1;
  g->in_hyp = 0;
  g->ch_in = 0;
  g->listing = 0;
  g->jb_set = 1;
  int code = setjmp(g->jb);
  if (code == 0) {
    turn_run(g);
    code = JMP_OVER;
  }
  g->jb_set = 0;
  return code;
}

static void restore(G *g) {
  state_copy(g->s, g->snap, g->lki_dirty, g->odirty, g->ch_changed);
  g->lki_dirty = 0;
  g->live_same = g->snap_top;
  log_truncate(g, g->committed);
  chars_dirty(g);
  g->ch_full = 1; /* what the last recompute saw was the abandoned run's */
  trig_index_dirty(g); /* the trigger listener index is kept outside the State: it described the abandoned run */
}

static int push_answer(G *g, const int *v, int n) {
  if (g->an + 2 > g->acap) {
    int cap = g->acap ? g->acap * 2 : 16;
    int *o = realloc(g->aoff, (size_t)cap * sizeof *o);
    if (!o) return -1;
    g->aoff = o;
    g->acap = cap;
  }
  if (g->avn + n > g->avcap || !g->av) { /* allocated even for an empty first answer */
    int cap = g->avcap ? g->avcap * 2 : 64;
    while (cap < g->avn + n) cap *= 2;
    int *a = realloc(g->av, (size_t)cap * sizeof *a);
    if (!a) return -1;
    g->av = a;
    g->avcap = cap;
  }
  if (g->an == 0) g->aoff[0] = 0;
  if (n) memcpy(g->av + g->avn, v, (size_t)n * sizeof *v);
  g->avn += n;
  g->an++;
  g->aoff[g->an] = g->avn;
  return 0;
}

static void pop_answers(G *g, int keep) {
  if (keep < 0) keep = 0;
  if (keep < g->an) {
    g->an = keep;
    g->avn = g->an ? g->aoff[g->an] : 0;
  }
}

/* The status and message of a run stopped by an error. */
static int stop_status(const G *g, int code, char *msg, size_t size) {
  switch (code) {
  case JMP_ILLEGAL:
    snprintf(msg, size, "%s", g->illegal);
    return MTG_EILLEGAL;
  case JMP_NOMEM:
    snprintf(msg, size, "out of memory");
    return MTG_ENOMEM;
  case JMP_LIMIT:
    limit_message(g, "an engine capacity was exceeded", msg, size);
    return MTG_ELIMIT;
  case JMP_BUDGET:
    snprintf(msg, size, "work budget spent: the game would log more than %ld events and decisions "
             "(the budget set with mtg_setup_work_budget)", g->budget);
    return MTG_ELIMIT;
  default:
    snprintf(msg, size, "internal error");
    return MTG_EINTERNAL;
  }
}

/* Runs the segment from the snapshot with the queued answers; maps the outcome
 * to a status. On an illegal answer or action, or on running out of memory,
 * the game is put back at the same decision it was at. */
static int run_segment(G *g, mtg_error *err) {
  /* at a top-level decision the state is the snapshot: no copy needed */
  if (!(g->dec->top && g->an == 1)) restore(g);
  g->apos = 0;
  int code = run(g);
  if (code == JMP_DECISION) {
    g->status = MTG_DECISION;
    return MTG_DECISION;
  }
  if (code == JMP_OVER) {
    g->status = MTG_OVER;
    g->committed = g->nent;
    g->an = g->avn = g->apos = 0;
    return MTG_OVER;
  }
  char msg[sizeof g->illegal];
  int status = stop_status(g, code, msg, sizeof msg);
  /* back to the decision that was pending */
  if (code == JMP_ILLEGAL && g->illegal_status == 1) pop_answers(g, g->an - 1);
  else pop_answers(g, 0);
  restore(g);
  g->apos = 0;
  int again = run(g);
  if (again == JMP_DECISION) g->status = MTG_DECISION;
  else if (again == JMP_OVER) g->status = MTG_OVER;
  else {
    g->status = MTG_EINTERNAL;
    snprintf(msg + strlen(msg), sizeof msg - strlen(msg), " (and the game could not be restored)");
  }
  mtg_error_set(err, status, "%s", msg);
  return status;
}

int mtg_game_decide(mtg_game *g, const mtg_answer *a, mtg_error *err) {
  if (!g || !a || (a->n && !a->v) || a->n < 0)
    return diag_arg(err, "mtg_game_decide: %s", !g ? "the game is NULL" : !a ? "the answer is NULL" : a->n < 0 ? "the answer's count is negative" : "the answer has a count and no values");
  if (g->status != MTG_DECISION) {
    mtg_error_set(err, MTG_EARG, "the game is not waiting for a decision");
    return MTG_EARG;
  }
  /* cheap shape check first: nothing runs for a malformed answer */
  if (answer_check(g, a->v, a->n)) {
    mtg_error_set(err, MTG_EILLEGAL, "%s", g->illegal);
    return MTG_EILLEGAL;
  }
  if (push_answer(g, a->v, a->n)) {
    mtg_error_set(err, MTG_ENOMEM, "out of memory");
    return MTG_ENOMEM;
  }
  return run_segment(g, err);
}

int mtg_game_status(const mtg_game *g) { return g ? g->status : MTG_EARG; }

const mtg_decision *mtg_game_decision(const mtg_game *g) {
  return g && g->status == MTG_DECISION ? &g->dec->pub : NULL;
}

void mtg_game_free(mtg_game *g) {
  if (!g) return;
  free(g->w);
  free(g->s);
  free(g->snap);
  free(g->ch);
  free(g->chb);
  free(g->av);
  free(g->aoff);
  free(g->text);
  free(g->ent);
  free(g->li);
  free(g->act);
  free(g->evstack);
  free(g);
}

/* setup_build may unwind (a capacity, memory): it runs behind this boundary */
static int build(G *g, const mtg_setup *s, mtg_error *err) {
  /* a capacity met computing characteristics unwinds only where it can
   * (layer.c ab_add); the run that follows a build sets and clears it again,
   * and a failed build's handle is freed */
  g->jb_set = 1;
  int code = setjmp(g->jb);
  if (code == 0) return setup_build(g, s, err);
  char msg[sizeof g->illegal];
  int status = stop_status(g, code, msg, sizeof msg);
  if (code == JMP_LIMIT) limit_message(g, "the setup exceeds an engine capacity", msg, sizeof msg);
  mtg_error_set(err, status, "%s", msg);
  return status;
}

/* The handle as a new game finds it: every field zero but the storage it
 * points to, which is kept with its capacity (a log, answers and trigger
 * index that held nothing; cache slots marked as holding nothing). */
static void game_clear(G *g) {
  G k = *g;
  memset(g, 0, sizeof *g);
  g->w = k.w;
  g->s = k.s;
  g->snap = k.snap;
  g->ch = k.ch;
  g->chb = k.chb;
  g->evstack = k.evstack;
  g->av = k.av;
  g->avcap = k.avcap;
  g->aoff = k.aoff;
  g->acap = k.acap;
  g->text = k.text;
  g->tcap = k.tcap;
  g->ent = k.ent;
  g->entcap = k.entcap;
  g->li = k.li;
  g->li_cap = k.li_cap;
  g->act = k.act;
  g->act_cap = k.act_cap;
  memset(g->chb, 0, (size_t)k.chb_used * sizeof *g->chb);
  memset(&g->s->c, 0, sizeof g->s->c);
  g->epoch = 1;
  g->dec = &g->w->dsub;
}

/* Builds the setup's game in a cleared handle and runs it to the first
 * decision; on failure the caller frees the handle. */
static int game_start(G *g, const mtg_setup *s, mtg_error *err) {
  int rc = build(g, s, err);
  if (rc) return rc;
  state_copy(g->snap, g->s, ~0u, NULL, NULL);
  g->lki_dirty = 0;
  memset(g->odirty, 0, sizeof g->odirty);
  g->ch_full = 1; /* the setup's writes are no longer marked */
  g->committed = g->nent; /* the setup's lines are final: a re-run starts after them */
  int code = run(g);
  if (code == JMP_DECISION || code == JMP_OVER) {
    g->status = code == JMP_DECISION ? MTG_DECISION : MTG_OVER;
    if (code == JMP_OVER) g->committed = g->nent;
    return g->status;
  }
  char msg[sizeof g->illegal];
  int status = stop_status(g, code, msg, sizeof msg);
  if (code == JMP_ILLEGAL) status = MTG_EDATA;
  if (code == JMP_LIMIT) limit_message(g, "engine limit exceeded while starting the game", msg, sizeof msg);
  mtg_error_set(err, status, "%s", msg);
  return status;
}

int mtg_game_new(mtg_game **out, const mtg_setup *s, mtg_error *err) {
  if (!out || !s) return diag_arg(err, "mtg_game_new: the %s is NULL", !out ? "output pointer" : "setup");
  *out = NULL;
  G *g = calloc(1, sizeof *g);
  if (!g) {
    mtg_error_set(err, MTG_ENOMEM, "out of memory");
    return MTG_ENOMEM;
  }
  g->w = malloc(sizeof *g->w);
  g->s = malloc(sizeof *g->s);
  g->snap = malloc(sizeof *g->snap);
  g->ch = malloc(sizeof(Chars) * MAX_SLOTS);
  g->chb = calloc(MAX_SLOTS, sizeof *g->chb);
  g->evstack = malloc(sizeof(Event) * MAX_EVSTACK);
  if (!g->w || !g->s || !g->snap || !g->ch || !g->chb || !g->evstack) {
    mtg_game_free(g);
    mtg_error_set(err, MTG_ENOMEM, "out of memory");
    return MTG_ENOMEM;
  }
  memset(g->w->id_hint, 0, sizeof g->w->id_hint);
  game_clear(g);
  int rc = game_start(g, s, err);
  if (rc < 0) {
    mtg_game_free(g);
    return rc;
  }
  *out = g;
  return rc;
}

int mtg_game_renew(mtg_game **g, const mtg_setup *s, mtg_error *err) {
  if (!g || !s) return diag_arg(err, "mtg_game_renew: the %s is NULL", !g ? "handle pointer" : "setup");
  if (!*g) return mtg_game_new(g, s, err);
  game_clear(*g);
  int rc = game_start(*g, s, err);
  if (rc < 0) {
    mtg_game_free(*g);
    *g = NULL;
  }
  return rc;
}
