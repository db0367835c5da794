/* stack.c - the stack (405): casting spells (601), activating abilities (602),
 * choosing modes and targets, target legality (115, hexproof, shroud,
 * protection), resolving (608, with 608.2b target rechecks and 603.4
 * intervening-if rechecks) and countering. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* " targets=A,B" of a stack item's chosen targets, or "" (cast and activate lines) */
static void targets_text(G *g, const StackItem *si, char *tg, size_t size) {
  size_t u = 0;
  tg[0] = 0;
  for (int i = 0; si && i < CHOICE_SLOTS + MAX_ADDED * MAX_TARGETS; i++) {
    /* its own targets, then those of text spliced onto it (702.47d) */
    const Target *t = i < CHOICE_SLOTS ? &si->ch.t[i] : &si->ch.at[(i - CHOICE_SLOTS) / MAX_TARGETS][(i - CHOICE_SLOTS) % MAX_TARGETS];
    if (t->kind == TK_NONE) continue;
    char tn[110];
    fmt_target(g, t, tn, sizeof tn);
    int w = snprintf(tg + u, size - u, "%s%s", u ? "," : " targets=", tn);
    if (w > 0 && (size_t)w < size - u) u += (size_t)w;
  }
}
#include "num.h"

int stack_find(G *g, uint32_t id) {
  for (int i = g->s->c.nstack - 1; i >= 0; i--)
    if (g->s->stack[i].id == id) return i;
  return -1;
}

int stack_push(G *g, const StackItem *si) {
  State *s = g->s;
  if (s->c.nstack >= MAX_STACK) game_limit(g, "objects on the stack", MAX_STACK);
  s->stack[s->c.nstack] = *si;
  s->stack[s->c.nstack].pushed_ts = s->c.next_ts;
  chars_dirty(g);
  return s->c.nstack++;
}

static void state_trig_left(G *g, const StackItem *si) {
  if (!si->state_trig) return;
  Core *c = &g->s->c;
  for (int i = 0; i < c->nstate_trig; i++)
    if (c->state_trig_on_stack[i] == si->tc.cause_id) {
      c->state_trig_on_stack[i] = c->state_trig_on_stack[--c->nstate_trig];
      return;
    }
}

void stack_remove(G *g, int idx) {
  State *s = g->s;
  state_trig_left(g, &s->stack[idx]);
  memmove(&s->stack[idx], &s->stack[idx + 1], (size_t)(s->c.nstack - idx - 1) * sizeof *s->stack);
  s->c.nstack--;
  chars_dirty(g);
}

void fmt_target(G *g, const Target *t, char *buf, size_t n) {
  switch (t->kind) {
  case TK_PLAYER: snprintf(buf, n, "%s", player_name(g, t->player)); break;
  case TK_OBJ: fmt_obj(g, t->obj, buf, n); break;
  case TK_STACK: {
    int i = stack_find(g, t->stack_id);
    if (i >= 0 && g->s->stack[i].kind == SI_SPELL) fmt_slot(g, g->s->stack[i].slot, buf, n);
    else snprintf(buf, n, "#%u", (unsigned)t->stack_id);
    break;
  }
  default: snprintf(buf, n, "-");
  }
}

/* ---- targets ---- */

int target_ok(G *g, const Target *t, int controller, ORef src, const Chars *srcc) {
  if (t->kind == TK_PLAYER) {
    /* a player with shroud, or with hexproof against an opponent (702.18b, 702.11c) */
    if (rule_effect(g, SE_PLAYER_SHROUD, t->player, -1, NULL, NULL)) return 0;
    if (oref_ok(g, src) && player_protected_from(g, t->player, src.slot, NULL)) return 0; /* 702.16b */
    return !(opponents(g, controller, t->player) && rule_effect(g, SE_PLAYER_HEXPROOF, t->player, -1, NULL, NULL));
  }
  /* an object: only a permanent's abilities (shroud, hexproof, protection) work
   * (113.6); an object gone meanwhile is not judged here */
  if (!oref_ok(g, t->obj) || g->s->obj[t->obj.slot].zone != MTG_Z_BATTLEFIELD) return 1;
  int slot = t->obj.slot;
  const Chars *oc = chars(g, slot);
  if (oc->kw >> KW_SHROUD & 1) return 0;
  if ((oc->kw >> KW_HEXPROOF & 1) && opponents(g, controller, oc->controller)) return 0;
  int is_spell = oref_ok(g, src) && g->s->obj[src.slot].zone == MTG_Z_STACK;
  if (protected_from(g, slot, oref_ok(g, src) ? src.slot : -1, srcc ? srcc->colors : 0, is_spell)) return 0;
  return !(oref_ok(g, src) && cant_be_targeted_by(g, slot, src.slot));
}

int target_legal(G *g, const TargetSpec *ts, const Target *t, int controller, ORef src, const Chars *srcc) {
  Ctx c;
  ctx_for(g, &c, controller, src);
  c.tc = g->tgt_tc; /* a triggered ability's targets may depend on its event ("that player controls") */
  c.tgt_x = g->tgt_x; /* "with mana value X": the X announced before targets (601.2b) */
  const Filter *f = ts->f;
  switch (t->kind) {
  case TK_PLAYER:
    return filter_match_player(g, &c, f, t->player) && target_ok(g, t, controller, src, srcc);
  case TK_OBJ: {
    if (!oref_ok(g, t->obj)) return 0;
    int slot = t->obj.slot;
    if (g->s->obj[slot].zone == MTG_Z_STACK) return 0;
    return filter_match(g, &c, f, slot) && target_ok(g, t, controller, src, srcc);
  }
  case TK_STACK: {
    int i = stack_find(g, t->stack_id);
    if (i < 0) return 0;
    StackItem *si = &g->s->stack[i];
    if (si->kind == SI_SPELL) {
      if (oref_ok(g, src) && si->slot == src.slot) return 0; /* 115.5: a spell can't target itself */
      if (f->stack_ability == 1) return 0;
      if (f->stack_ability == 2) return 1;
      return filter_match(g, &c, f, si->slot);
    }
    return f->stack_ability != 0;
  }
  }
  return 0;
}

static int candidates(G *g, const TargetSpec *ts, int controller, ORef src, const Chars *srcc, Target *out, int max) {
  State *s = g->s;
  int n = 0;
  const Filter *f = ts->f;
  Target t;
  memset(&t, 0, sizeof t);
  if (f->player_target || f->any_target) {
    for (int p = 0; p < s->c.np && n < max; p++) {
      t.kind = TK_PLAYER;
      t.player = (int8_t)p;
      if (target_legal(g, ts, &t, controller, src, srcc)) out[n++] = t;
    }
  }
  t.player = -1;
  /* where the filter (with its 'or' branches) can find objects: "target spell or creature" */
  unsigned zm = filter_zones(f);
  if (zm >> MTG_Z_STACK & 1)
    for (int i = s->c.nstack - 1; i >= 0 && n < max; i--) {
      t.kind = TK_STACK;
      t.stack_id = s->stack[i].id;
      if (target_legal(g, ts, &t, controller, src, srcc)) out[n++] = t;
    }
  t.kind = TK_OBJ;
  if (zm >> MTG_Z_BATTLEFIELD & 1) {
    int nb = bf_count(g);
    int16_t *bf = bf_list(g);
    for (int i = 0; i < nb && n < max; i++) {
      t.obj = oref(g, bf[i]);
      if (target_legal(g, ts, &t, controller, src, srcc)) out[n++] = t;
    }
  }
  /* the other public zones: a library or hand is never searched for targets */
  static const int8_t public_zones[] = {MTG_Z_GRAVEYARD, MTG_Z_EXILE, MTG_Z_COMMAND, MTG_Z_ANTE};
  for (int k = 0; k < NELEM(public_zones); k++) {
    int z = public_zones[k];
    if (!(zm >> z & 1)) continue;
    int per = zone_owner_list(z);
    for (int p = 0; p < (per ? s->c.np : 1); p++) {
      int cnt = zl_count(g, z, p);
      int16_t *l = zl_list(g, z, p);
      for (int i = 0; i < cnt && n < max; i++) {
        t.obj = oref(g, l[i]);
        if (target_legal(g, ts, &t, controller, src, srcc)) out[n++] = t;
      }
    }
  }
  return n;
}

static const Chars *src_chars(G *g, StackItem *si) {
  if (si->kind == SI_SPELL) return chars(g, si->slot);
  if (oref_ok(g, si->src)) return chars(g, si->src.slot);
  return NULL;
}

static ORef src_ref(G *g, StackItem *si) { return si->kind == SI_SPELL ? oref(g, si->slot) : si->src; }

/* The legal targets for ts of the spell or ability si (its source's characteristics). */
int target_candidates(G *g, StackItem *si, const TargetSpec *ts, int controller, Target *out, int max) {
  const Chars *srcc = src_chars(g, si);
  Chars sc;
  if (srcc) {
    sc = *srcc;
    srcc = &sc;
  }
  return candidates(g, ts, controller, src_ref(g, si), srcc, out, max);
}

int target_legal_for(G *g, StackItem *si, const TargetSpec *ts, const Target *t) {
  const Chars *srcc = src_chars(g, si);
  Chars sc;
  if (srcc) {
    sc = *srcc;
    srcc = &sc;
  }
  return target_legal(g, ts, t, si->controller, src_ref(g, si), srcc);
}

static int mode_feasible(G *g, const Mode *m, int controller, ORef src, const Chars *srcc) {
  Target tmp[MAX_MODE_SLOTS];
  for (int i = 0; i < m->nt; i++) {
    const TargetSpec *ts = &m->t[i];
    /* "X target creatures": X of them (X as announced, 601.2b) */
    int need = ts->number == TN_X ? g->tgt_x : ts->optional || ts->number != TN_ONE ? 0 : 1;
    if (need > MAX_MODE_SLOTS) need = MAX_MODE_SLOTS;
    if (need > 0 && candidates(g, ts, controller, src, srcc, tmp, need) < need) return 0;
  }
  return 1;
}

static int ability_feasible_x(G *g, const Ability *ab, int controller, ORef src, const Chars *srcc) {
  int ok = 0;
  for (int m = 0; m < ab->nmodes; m++) ok += mode_feasible(g, &ab->modes[m], controller, src, srcc);
  return ok >= (ab->mode_min ? ab->mode_min : 1);
}

static int ability_feasible(G *g, const Ability *ab, int controller, ORef src, const Chars *srcc) {
  if (!ab) return 1;
  if (!ab->cost.mana.x || ab->kind != AB_ACTIVATED) return ability_feasible_x(g, ab, controller, src, srcc);
  /* X is announced before targets (601.2b, 601.2c): targets "with mana value X"
   * exist for some X */
  int32_t save = g->tgt_x, ok = 0;
  for (int x = 0; x <= 20 && !ok; x++) {
    g->tgt_x = x;
    ok = ability_feasible_x(g, ab, controller, src, srcc);
  }
  g->tgt_x = save;
  return ok;
}

static void choose_modes_targets_of(G *g, StackItem *si, int player);

/* 601.2d: the player announces how the mode's divided damage or counters
 * are divided among its targets, each getting at least 1 (one target: all of
 * it). The amount is known by now (X is announced first, 601.2b); fewer than
 * one each makes the choice of targets illegal. */
static void announce_division(G *g, StackItem *si, int m, int player, const char *who) {
  const Mode *md = &si->ab->modes[m];
  Target *t = si->ch.t;
  int idx[MAX_MODE_SLOTS], n = 0;
  for (int k = 0; k < mode_nslots(md); k++)
    if (t[mode_slot(m, k)].kind != TK_NONE) idx[n++] = mode_slot(m, k);
  if (!n) return;
  Ctx c;
  ctx_from_stack(g, &c, si);
  c.mode = m;
  const Node *st = md->divide;
  int damage = st->op == S_DAMAGE;
  const Node *an = damage ? st->k[0] : st->k[1];
  int amount = an ? expr_eval(g, &c, an) : 1;
  char what[48];
  snprintf(what, sizeof what, "%s%s", damage ? "damage" : st->k[0]->s, damage ? "" : " counters");
  if (amount < n) {
    /* a triggered ability with nothing to divide can't be put on the stack
     * with targets (603.3d); with fewer targets it could */
    if (si->kind == SI_TRIGGERED && amount < 1) { g->push_failed = 1; return; }
    game_illegal(g, "%s divides %d %s among %d targets: each target gets at least 1 (601.2d)", who, amount < 0 ? 0 : amount, what, n);
  }
  if (n == 1 || amount == n) {
    for (int i = 0; i < n; i++) t[idx[i]].div = (int16_t)(n == 1 ? amount : 1);
    return;
  }
  dec_begin(g, MTG_D_DIVIDE, player, "601.2d", "divide %d %s of %s among its targets (at least 1 each)", amount, what, who);
  for (int i = 0; i < n; i++) {
    char nm[110];
    const Target *ti = &t[idx[i]];
    fmt_target(g, ti, nm, sizeof nm);
    dec_opt(g, ti->kind == TK_PLAYER ? MTG_O_PLAYER : MTG_O_OBJECT, ti->kind == TK_OBJ ? ti->obj.id : ti->stack_id, 0,
            ti->player, -1, "%s", nm);
  }
  g->dec->pub.lo = 1;
  g->dec->pub.hi = amount;
  int cnt;
  const int *v = dec_ask(g, 0, &cnt);
  for (int i = 0; i < n; i++) t[idx[i]].div = (int16_t)v[i];
}

/* The n candidates as the options of the target decision begun. */
static void target_options(G *g, const Target *cand, int n) {
  for (int i = 0; i < n; i++) {
    char nm[110];
    fmt_target(g, &cand[i], nm, sizeof nm);
    dec_opt(g, cand[i].kind == TK_PLAYER ? MTG_O_PLAYER : MTG_O_OBJECT,
            cand[i].kind == TK_OBJ ? cand[i].obj.id : cand[i].stack_id, 0, cand[i].player, -1, "%s", nm);
  }
}

const TargetSpec *choice_slot_spec(const Ability *ab, int i) {
  if (!ab) return NULL;
  /* a slot holding a target is one of a chosen mode's */
  if (i < MAX_CHOICE_T) return mode_slot_spec(&ab->modes[i / MAX_TARGETS], i % MAX_TARGETS);
  for (int m = 0; m < ab->nmodes; m++)
    if (ab->modes[m].var) return &ab->modes[m].t[ab->modes[m].nt - 1];
  return NULL;
}

/* 601.2c: the targets of "any number of target ..." (none up to the
 * candidates, at most the slots left, MAX_MODE_SLOTS - k) or "X target ..."
 * (exactly X), spec k of mode m, the last, chosen at once among the n
 * candidates; each can be chosen once for the one word "target". The size
 * of the answer is the number of targets announced; once determined it
 * doesn't change, so new targets for a copy are as many as it has (601.2c,
 * 707.10). They are kept in the candidates' order, a set whatever order the
 * answer names them. */
static void choose_many(G *g, StackItem *si, int m, int k, const Target *cand, int n, int player, const char *who) {
  const TargetSpec *ts = &si->ab->modes[m].t[k];
  int cap = MAX_MODE_SLOTS - k, lo = 0, hi = n < cap ? n : cap, had = 0;
  for (int j = k; si->copy && j < MAX_MODE_SLOTS; j++) had += si->ch.t[mode_slot(m, j)].kind != TK_NONE;
  si->ch.more_mode = (uint8_t)(m + 1);
  for (int j = k; j < MAX_MODE_SLOTS; j++) {
    Target *t = &si->ch.t[mode_slot(m, j)];
    memset(t, 0, sizeof *t);
    t->player = -1;
  }
  if (ts->number != TN_ANY || si->copy) {
    int32_t x = si->copy ? had : ts->number == TN_X ? g->tgt_x : si->ch.paid;
    lo = hi = x < 0 ? 0 : x;
    if (lo > cap) game_limit(g, "targets chosen for one \"X target\" word", cap);
    if (n < lo) {
      if (si->kind == SI_TRIGGERED) { g->push_failed = 1; return; }
      if (si->copy) game_illegal(g, "%s can't have new targets: it has %d, and %d are legal (601.2c, 707.10c)", who, lo, n);
      game_illegal(g, "%s can't have X = %d targets: %d legal (601.2c)", who, lo, n);
    }
  }
  if (!hi) return;
  int pick[MAX_MODE_SLOTS], cnt = 0;
  if (lo == n) {
    for (int i = 0; i < n; i++) pick[cnt++] = i; /* all of them: no choice */
  } else {
    dec_begin(g, MTG_D_TARGET, player, "601.2c", "targets %d.. of %s (%s)", k + 1, who, ts->number == TN_ANY ? "any number" : "X of them");
    target_options(g, cand, n);
    dec_range(g, lo, hi);
    const int *v = dec_ask(g, 0, &cnt);
    unsigned char chosen[MAX_OPTIONS] = {0};
    for (int i = 0; i < cnt; i++) chosen[v[i]] = 1;
    cnt = 0;
    for (int i = 0; i < n; i++)
      if (chosen[i]) pick[cnt++] = i;
  }
  for (int i = 0; i < cnt; i++) si->ch.t[mode_slot(m, k + i)] = cand[pick[i]];
}

/* Targets of a triggered ability are chosen knowing its trigger event ("that
 * player"); a copy of the context, as the stack may move. */
void choose_modes_targets(G *g, StackItem *si, int player) {
  const TrigCtx *save = g->tgt_tc;
  int32_t savex = g->tgt_x;
  TrigCtx tc = si->tc;
  g->tgt_tc = si->kind == SI_TRIGGERED ? &tc : NULL;
  g->tgt_x = si->ch.x;
  choose_modes_targets_of(g, si, player);
  g->tgt_tc = save;
  g->tgt_x = savex;
}

static void choose_modes_targets_of(G *g, StackItem *si, int player) {
  const Ability *ab = si->ab;
  if (!ab || !ab->nmodes) return;
  char who[110];
  if (si->kind == SI_SPELL) fmt_slot(g, si->slot, who, sizeof who);
  else snprintf(who, sizeof who, "#%u", (unsigned)si->id);
  ORef src = src_ref(g, si);
  const Chars *srcc = src_chars(g, si);
  Chars sc;
  if (srcc) {
    sc = *srcc;
    srcc = &sc;
  }
  /* 707.10: a copy keeps the modes chosen for its original; only its
   * targets may be chosen again (707.10c) */
  int keep_modes = si->copy && si->ch.nmode;
  if (!keep_modes && ab->nmodes > 1) {
    si->ch.nmode = 0;
    /* 700.2, 603.3c: a mode without legal targets can't be chosen */
    int feas[MAX_MODES], nf = 0;
    for (int m = 0; m < ab->nmodes; m++)
      if (mode_feasible(g, &ab->modes[m], player, src, srcc)) feas[nf++] = m;
    /* a kicked spell whose number of modes depends on it (announced first, 601.2b) */
    int kicked = si->kind == SI_SPELL && si->ch.kicked && ab->kmode_max;
    int mode_min = kicked ? ab->kmode_min : ab->mode_min, mode_max = kicked ? ab->kmode_max : ab->mode_max;
    if (nf < mode_min) {
      if (si->kind == SI_TRIGGERED) { g->push_failed = 2; return; }
      game_illegal(g, "no mode of %s can be chosen", who);
    }
    dec_begin(g, MTG_D_MODE, player, "700.2", "choose mode%s of %s", mode_max > 1 ? "s" : "", who);
    for (int i = 0; i < nf; i++) {
      const Mode *m = &ab->modes[feas[i]];
      dec_opt(g, MTG_O_MODE, 0, 0, -1, feas[i], "mode %d%s%s", feas[i] + 1, m->text ? ": " : "", m->text ? m->text : "");
    }
    int max = mode_max < nf ? mode_max : nf;
    dec_range(g, mode_min, max);
    int n;
    const int *v = dec_ask(g, 0, &n);
    /* modes are performed in printed order */
    int chosen[MAX_MODES] = {0};
    for (int i = 0; i < n; i++) chosen[feas[v[i]]] = 1;
    for (int m = 0; m < ab->nmodes; m++)
      if (chosen[m]) si->ch.mode[si->ch.nmode++] = (uint8_t)m;
  } else if (!keep_modes) {
    si->ch.nmode = 1;
    si->ch.mode[0] = 0;
  }
  /* 115.7f: new targets for a copy keep the original division */
  int16_t olddiv[CHOICE_SLOTS];
  if (si->copy)
    for (int i = 0; i < CHOICE_SLOTS; i++) olddiv[i] = si->ch.t[i].div;
  for (int mi = 0; mi < si->ch.nmode; mi++) {
    int m = si->ch.mode[mi];
    const Mode *md = &ab->modes[m];
    for (int k = 0; k < md->nt; k++) {
      Target cand[MAX_OPTIONS];
      int n = candidates(g, &md->t[k], player, src, srcc, cand, MAX_OPTIONS);
      /* "another target": not one already chosen for this spell */
      if (md->t[k].distinct_from_prev) {
        int w = 0;
        for (int i = 0; i < n; i++) {
          int dupl = 0;
          for (int j = 0; j < k; j++) {
            Target *p = &si->ch.t[mode_slot(m, j)];
            if (p->kind == cand[i].kind && p->player == cand[i].player && p->obj.id == cand[i].obj.id && p->stack_id == cand[i].stack_id) dupl = 1;
          }
          if (!dupl) cand[w++] = cand[i];
        }
        n = w;
      }
      /* "of their choice": the player of the trigger event chooses (a rule's own, 603.3d) */
      int chooser = md->t[k].by_trig_player && si->kind == SI_TRIGGERED && si->tc.player >= 0 && player_alive(g, si->tc.player)
                        ? si->tc.player : player;
      if (md->t[k].number != TN_ONE) {
        choose_many(g, si, m, k, cand, n, chooser, who);
        if (g->push_failed) return;
        continue;
      }
      Target *dst = &si->ch.t[mode_slot(m, k)];
      /* "up to one target": the number is determined once (601.2c) and a copy
       * copies it (707.10): new targets for a copy are as many as it has */
      int optional = md->t[k].optional;
      if (si->copy && optional) {
        if (dst->kind == TK_NONE) continue;
        optional = 0;
      }
      memset(dst, 0, sizeof *dst);
      dst->player = -1;
      if (!n) {
        if (optional) continue;
        if (si->kind == SI_TRIGGERED) { g->push_failed = 1; return; }
        if (si->copy) game_illegal(g, "%s can't have new targets: it has 1 for target %d, and none is legal (601.2c, 707.10c)", who, k + 1);
        game_illegal(g, "%s has no legal target for target %d", who, k + 1);
      }
      if (n == 1 && !optional) {
        *dst = cand[0]; /* a single legal choice is no choice */
        continue;
      }
      dec_begin(g, MTG_D_TARGET, chooser, "115.1", "target %d of %s", k + 1, who);
      target_options(g, cand, n);
      if (optional) dec_range(g, 0, 1);
      int cnt;
      const int *v = dec_ask(g, 0, &cnt);
      if (cnt) *dst = cand[v[0]];
    }
    if (!md->divide) continue;
    if (si->copy) {
      for (int k = 0; k < mode_nslots(md); k++)
        if (si->ch.t[mode_slot(m, k)].kind != TK_NONE) si->ch.t[mode_slot(m, k)].div = olddiv[mode_slot(m, k)];
      continue;
    }
    announce_division(g, si, m, player, who);
    if (g->push_failed) return;
  }
}

/* 608.2b: illegal targets are not affected; all illegal: it doesn't resolve */
static int targets_still_legal_of(G *g, StackItem *si, int *any_legal);

int targets_still_legal(G *g, StackItem *si, int *any_legal) {
  const TrigCtx *save = g->tgt_tc;
  int32_t savex = g->tgt_x;
  TrigCtx tc = si->tc;
  g->tgt_tc = si->kind == SI_TRIGGERED ? &tc : NULL;
  g->tgt_x = si->ch.x;
  int n = targets_still_legal_of(g, si, any_legal);
  g->tgt_tc = save;
  g->tgt_x = savex;
  return n;
}

static int targets_still_legal_of(G *g, StackItem *si, int *any_legal) {
  const Ability *ab = si->ab;
  int total = 0, legal = 0;
  if (!ab) {
    *any_legal = 1;
    return 1;
  }
  ORef src = src_ref(g, si);
  const Chars *srcc = src_chars(g, si);
  Chars sc;
  if (srcc) {
    sc = *srcc;
    srcc = &sc;
  }
  for (int mi = 0; mi < si->ch.nmode; mi++) {
    int m = si->ch.mode[mi];
    const Mode *md = &ab->modes[m];
    for (int k = 0; k < mode_nslots(md); k++) {
      Target *t = &si->ch.t[mode_slot(m, k)];
      if (t->kind == TK_NONE) continue;
      total++;
      if (target_legal(g, mode_slot_spec(md, k), t, si->controller, src, srcc)) legal++;
      else t->kind = TK_NONE;
    }
  }
  cast_added_targets_legal(g, si, &total, &legal); /* 702.47d */
  *any_legal = legal > 0;
  return total;
}

/* ---- casting ---- */

const Ability *spell_ability(const CardDef *d) {
  for (int i = 0; i < d->nab; i++)
    if (d->ab[i].kind == AB_SPELL) return &d->ab[i];
  return NULL;
}

const Ability *flashback_ability(const CardDef *d) {
  for (int i = 0; i < d->nab; i++)
    if (d->ab[i].has_kicker || d->ab[i].flashback) return &d->ab[i];
  return NULL;
}

static int sorcery_timing(G *g, int player) {
  State *s = g->s;
  return s->c.active == player && (s->c.step == MTG_S_MAIN1 || s->c.step == MTG_S_MAIN2) && s->c.nstack == 0;
}

static int cast_forbidden_as(G *g, int player, int slot, uint32_t types, const char *name);
static int flash_permission(G *g, int player, int slot, const StaticSpec **st, ORef *src);

/* 116.2f, 702.62a, 702.62c: whether player could begin to cast the card in
 * slot, in their hand, by putting it onto the stack (601.2a): a rule lets them
 * now (its timing, 307.1, 117.1a) and no effect prohibits it (601.3),
 * whatever its costs and targets. */
int could_begin_to_cast(G *g, int player, int slot) {
  const Obj *o = &g->s->obj[slot];
  if (!o->id || o->owner != player || o->zone != MTG_Z_HAND) return 0;
  const Chars *c = chars(g, slot);
  uint32_t types = c->types;
  if (types & (T_LAND | T_VARIANT_CARD)) return 0;
  if (!((types & T_INSTANT) || (c->kw >> KW_FLASH & 1)) && !sorcery_timing(g, player) &&
      !flash_permission(g, player, slot, NULL, NULL))
    return 0;
  return !cast_forbidden_as(g, player, slot, types, obj_name(g, slot));
}

/* Whether a prohibition stops player casting the card in slot as a spell of
 * these types, with this name or (NULL) none: a face-down spell is a
 * nameless creature spell (702.37c); a face or half cast has its own name
 * (709.3, 712.11b, 715.3) */
static int cast_forbidden_as(G *g, int player, int slot, uint32_t types, const char *name) {
  State *s = g->s;
  /* "your opponents can't cast spells from anywhere other than their hands" */
  if (s->obj[slot].zone != MTG_Z_HAND && rule_effect(g, SE_CAST_ONLY_FROM_HAND, player, -1, NULL, NULL)) return 1;
  if (cant_cast_types(g, player, types)) return 1;
  /* "your opponents can't cast spells with the chosen name" */
  if (!name || !bf_has_static(g, SE_CANT_CAST_NAMED)) return 0;
  int nb = bf_count(g);
  int16_t *bf = bf_list(g);
  for (int k = 0; k < nb; k++) {
    const Chars *c = chars(g, bf[k]);
    for (int a = 0; a < c->nab; a++) {
      const Ability *ab = c->ab[a].ab;
      if (ab->kind != AB_STATIC || ab->st.kind != SE_CANT_CAST_NAMED) continue;
      if (!opponents(g, c->controller, player)) continue;
      const char *nm;
      if (link_find_value(g, s->obj[bf[k]].id, c->ab[a].grant, ab->st.label ? ab->st.label : "name", NULL, &nm) && nm &&
          !strcmp(nm, name))
        return 1;
    }
  }
  return 0;
}

/* free: "cast without paying its mana cost" is available (Omniscience) */
static int cast_free_available(G *g, int player, int slot) {
  const StaticSpec *st;
  if (!rule_effect(g, SE_CAST_FREE, player, -1, &st, NULL)) return 0;
  return g->s->obj[slot].zone == MTG_Z_HAND;
}

static int blue_card_in_hand(G *g, int player, int except) {
  int n = zl_count(g, MTG_Z_HAND, player);
  int16_t *l = zl_list(g, MTG_Z_HAND, player);
  for (int i = 0; i < n; i++)
    if (l[i] != except && (obj_colors(g, l[i]) >> COL_U & 1)) return l[i];
  return -1;
}

/* "You may cast [spells] as though they had flash": the permission that
 * applies to this spell, with its source; 0 if none. */
static int flash_permission(G *g, int player, int slot, const StaticSpec **st, ORef *src) {
  State *s = g->s;
  uint32_t types = chars(g, slot)->types;
  if (!g->flash_perms) return 0; /* counted as characteristics are computed */
  int nb = bf_count(g);
  int16_t *bf = bf_list(g);
  for (int k = 0; k < nb; k++) {
    int i = bf[k];
    if (s->obj[i].phased_out) continue;
    const Chars *c = chars(g, i);
    for (int a = 0; a < c->nab; a++) {
      const Ability *ab = c->ab[a].ab;
      if (ab->kind != AB_STATIC || ab->st.kind != SE_CAST_AS_FLASH || c->controller != player) continue;
      if (ab->st.spell_types && !(types & ab->st.spell_types)) continue;
      if (ab->st.cond) {
        Ctx cx;
        ctx_for(g, &cx, c->controller, oref(g, i));
        if (!cond_eval(g, &cx, ab->st.cond)) continue;
      }
      if (st) *st = &ab->st;
      if (src) *src = oref(g, i);
      return 1;
    }
  }
  return 0;
}

/* Whether an effect lets player play this exiled card: 0 if none, else
 * PP_OK, with PP_PAY when no such effect lets it be cast without paying its
 * mana cost, PP_ANY_MANA when one lets mana be spent as though it were mana
 * of any color to cast it, PP_NO_LAND when each only lets it be cast ("you may
 * cast that card"), not played as a land. */
int play_permission(G *g, int player, int slot) {
  const State *s = g->s;
  uint32_t id = s->obj[slot].id;
  int found = 0, free = 0, any = 0, land = 0;
  for (int i = 0; i < s->c.neff; i++) {
    const Effect *e = &s->eff[i];
    if (!play_effect_for(e, player) || e->obj.id != id) continue;
    found = 1;
    free |= !(e->a & PP_PAY);
    any |= (e->a & PP_ANY_MANA) != 0;
    land |= !(e->a & PP_NO_LAND);
  }
  return found ? PP_OK | (free ? 0 : PP_PAY) | (any ? PP_ANY_MANA : 0) | (land ? 0 : PP_NO_LAND) : 0;
}

/* 118.9: the card's alternative cost ("you may pay [cost] rather than pay
 * this spell's mana cost") can be paid; not with another alternative cost
 * such as flashback (118.9a) */
static int alt_cost_payable(G *g, int player, int slot, int zone_from, int any_mana) {
  const CardDef *d = chars(g, slot)->base;
  if (!d->has_alt || zone_from == MTG_Z_GRAVEYARD) return 0;
  if (d->alt_if) {
    Ctx cx;
    ctx_for(g, &cx, player, oref(g, slot));
    if (!cond_eval(g, &cx, d->alt_if)) return 0;
  }
  ManaCost m = d->alt.mana;
  mana_total_cost(g, player, slot, NULL, &m); /* 601.2f: increases apply to it too */
  return cost_can_pay_parts(g, player, slot, &d->alt) && cost_can_pay_mana(g, player, &m, 0, slot, any_mana);
}

/* 601.2b, 601.2f: the mana cost and other costs of casting face fd of the
 * card the way alt says, before additional costs and cost changes. */
static void way_cost(const CardDef *card, const CardDef *fd, int alt, ManaCost *mana, Cost *parts) {
  static const Filter land = {.types_any = T_LAND, .colored = -1, .multicolored = -1, .tapped = -1, .token = -1,
                              .attacking = -1, .blocking = -1, .spell = -1, .zone = -1};
  const CastKw *k = fd->cast ? fd->cast : card->cast;
  memset(parts, 0, sizeof *parts);
  *mana = fd->cost;
  switch (alt) {
  case ALT_FLASHBACK: *mana = flashback_ability(fd)->kicker.mana; break;
  case ALT_DASH: *mana = k->dash; break;
  case ALT_FORETELL: *mana = k->foretell; break;
  case ALT_MIRACLE: *mana = k->miracle; break;
  case ALT_MADNESS: *mana = k->madness; break;
  case ALT_DISTURB: *mana = k->disturb; break;
  case ALT_ESCAPE: *parts = k->escape; *mana = k->escape.mana; parts->mana = (ManaCost){0}; break;
  case ALT_EVOKE: *parts = k->evoke; *mana = k->evoke.mana; parts->mana = (ManaCost){0}; break;
  case ALT_FREE:
  case ALT_SUSPEND: memset(mana, 0, sizeof *mana); break;
  case ALT_ALTERNATIVE: *parts = fd->alt; *mana = fd->alt.mana; parts->mana = (ManaCost){0}; break;
  case ALT_JUMP_START: /* 702.133a: discard a card as an additional cost */
    parts->part[parts->nparts].kind = CK_DISCARD;
    parts->part[parts->nparts++].n = 1;
    break;
  case ALT_RETRACE: /* 702.81a: discard a land card as an additional cost */
    parts->part[parts->nparts].kind = CK_DISCARD;
    parts->part[parts->nparts].f = &land;
    parts->part[parts->nparts++].n = 1;
    break;
  default: break;
  }
}

/* Can face fd be cast the way alt says, costs paid? */
static int way_payable(G *g, int player, int slot, const CardDef *card, const CardDef *fd, int alt,
                       int any_mana) {
  ManaCost cost;
  Cost parts;
  if (alt == ALT_NONE && !fd->cost.present) return 0; /* 118.6: no mana cost is an unpayable cost */
  way_cost(card, fd, alt, &cost, &parts);
  /* most cards a listing asks about cost more mana than their player has:
   * found by a count before the total cost and the payment search, when the
   * total is this cost (no increase, reduction or commander tax; strive adds
   * only for targets, none chosen here) */
  if (g->listing && !card->costs_less && !bf_has_static(g, SE_COST_MORE) && !var_commander_tax(g, slot) &&
      cost_mana_short(g, player, &cost, slot))
    return 0;
  Choice most;
  memset(&most, 0, sizeof most);
  if (card->costs_less && card->has_addl)
    most.paid = cost_x_max(g, player, slot, &card->addl); /* "{2} less for each permanent sacrificed this way": at best */
  mana_total_cost(g, player, slot, &most, &cost);
  if (card->has_addl && !card->addl_optional && !cost_can_pay_parts(g, player, slot, &card->addl)) return 0;
  if (parts.nparts && !cost_can_pay_parts(g, player, slot, &parts)) return 0;
  return cost_can_pay_mana(g, player, &cost, 0, slot, any_mana);
}

/* 406.3a: a card exiled face down that a player may play (by an effect, or
 * their own foretold card, 702.143a) is turned face up just before it is
 * played: whether it can be is asked of its face. */
int face_up_to_play(G *g, int player, int slot) {
  const Obj *o = &g->s->obj[slot];
  if (!o->face_down || o->zone != MTG_Z_EXILE) return 0;
  if (!(o->foretold && o->owner == player) && !play_permission(g, player, slot)) return 0;
  obj_w(g, slot)->face_down = 0;
  chars_dirty(g);
  return 1;
}

void face_down_again(G *g, int slot) {
  obj_w(g, slot)->face_down = 1;
  chars_dirty(g);
}

/* Whether player can pay for the card in slot (card: its copiable values)
 * cast the way w says, with face fd and spell ability ab (601.2f-h):
 * without paying its mana cost, by exiling a blue card, by its alternative
 * cost, or one of the nalt ways alts. */
static int cast_payable(G *g, int player, int slot, const CastWay *w, const Ability *ab, const CardDef *card,
                        const CardDef *fd, const uint8_t *alts, int nalt, int permitted) {
  int zone_from = w->zone, any_mana = permitted & PP_ANY_MANA ? 0x3f : 0;
  if (!w->during && zone_from == MTG_Z_HAND && cast_free_available(g, player, slot)) return 1;
  if (!w->during && zone_from == MTG_Z_HAND && ab && ab->alt_cost_exile_blue && blue_card_in_hand(g, player, slot) >= 0) return 1;
  if (!w->during && alt_cost_payable(g, player, slot, zone_from, any_mana)) return 1;
  for (int i = 0; i < nalt; i++)
    if (way_payable(g, player, slot, card, fd, alts[i], any_mana)) return 1;
  return 0;
}

/* 601.3: can `player` begin to cast the card in slot the way w says? */
/* The ways the card in slot offers to be cast from w->zone, paying a cost
 * (601.2b): its own (cast_alts), a commander's from the command zone
 * (903.8), and an exiled card's that an effect lets its player cast paying
 * its mana cost (permitted: play_permission's), each with the alternative
 * costs offered wherever it may be cast so. */
static int cast_ways(G *g, int player, int slot, const CardDef *card, const CastWay *w, int permitted, uint8_t *alts) {
  int nalt = cast_alts(g, player, slot, w->zone, w->face, alts);
  if ((permitted & PP_PAY) || (w->zone == MTG_Z_COMMAND && var_commander(g, slot) >= 0)) {
    alts[nalt++] = ALT_NONE;
    nalt = cast_anywhere_alts(card, w->face, alts, nalt);
  }
  return nalt;
}

static int can_cast_way_as_is(G *g, int player, int slot, const CastWay *w) {
  State *s = g->s;
  const Obj *o = &s->obj[slot];
  int zone_from = w->zone;
  /* an exiled card a player may play, even one another player owns: by an
   * effect, or as the card their Adventure exiled (715.3d, cast_alts) */
  int permitted = zone_from == MTG_Z_EXILE && o->zone == MTG_Z_EXILE ? play_permission(g, player, slot) : 0;
  int adventurer = o->adventured == player + 1;
  if (!o->id || (o->owner != player && !permitted && !adventurer && !w->during) || o->zone != zone_from) return 0;
  const Chars *c = chars(g, slot);
  const CardDef *card = c->base, *fd = cast_face(card, w->face);
  if (!fd) return 0;
  /* 709.3a, 712.11c, 715.3a: only the face cast is evaluated; a face-down
   * card in exile (foretold) as the card it is (601.3f) */
  int own = w->face || o->face_down;
  uint32_t types = own ? fd->types : c->types;
  uint64_t kw = own ? fd->keywords : c->kw;
  if (types & T_LAND) return 0;
  if (types & T_VARIANT_CARD) return 0; /* 311.2, 312.2, 314.2: they can't be cast */
  uint8_t alts[ALT_COUNT];
  int nalt = 0;
  if (w->during) alts[nalt++] = (uint8_t)w->alt; /* 608.2g: what the effect allows */
  else {
    /* timing first (307.1, 117.1a): most cards asked about can't be cast now */
    if (!((types & T_INSTANT) || (kw >> KW_FLASH & 1)) && !sorcery_timing(g, player) &&
        !flash_permission(g, player, slot, NULL, NULL))
      return 0;
    nalt = cast_ways(g, player, slot, card, w, permitted, alts);
    /* an exiled card an effect lets its player cast without paying its mana cost */
    if (permitted && !(permitted & PP_PAY)) alts[nalt++] = ALT_FREE;
    if (!nalt) return 0;
  }
  if (cast_forbidden_as(g, player, slot, types, own ? fd->name : obj_name(g, slot))) return 0;
  const Ability *ab = spell_ability(fd);
  /* whether its costs can be paid first: most cards whose timing allows them
   * can't be paid for now (four in five in self-play), which is found sooner
   * than whether their targets exist (both only ask) */
  if (!cast_payable(g, player, slot, w, ab, card, fd, alts, nalt, permitted)) return 0;
  return ability_feasible(g, ab, player, oref(g, slot), c);
}

/* 406.3a: a card exiled face down that the player may play is turned face up
 * as it is cast (stack_cast_way), so whether it can be is asked of the card it
 * is: its types decide which cost increases apply to it (601.2f). */
int can_cast_way(G *g, int player, int slot, const CastWay *w) {
  int up = face_up_to_play(g, player, slot);
  int r = can_cast_way_as_is(g, player, slot, w);
  if (up) face_down_again(g, slot);
  return r;
}

int can_cast(G *g, int player, int slot, int zone_from) {
  CastWay w = {.zone = (int8_t)zone_from};
  return can_cast_way(g, player, slot, &w);
}

/* 601.2a: the card moves to the stack and becomes a spell with the spell
 * ability `ab` of `def`; returns its stack index. */
int spell_to_stack(G *g, int player, int slot, int zone_from, const Ability *ab, const CardDef *def) {
  zone_move(g, slot, MTG_Z_STACK, 0, player);
  Obj *o = obj_w(g, slot);
  o->cast_zone = (uint8_t)(zone_from + 1);
  StackItem si;
  memset(&si, 0, sizeof si);
  si.id = o->id;
  si.kind = SI_SPELL;
  si.slot = (int16_t)slot;
  si.controller = (uint8_t)player;
  si.ab = ab;
  si.def = def;
  si.src = oref(g, slot);
  si.ch.cast_zone = (uint8_t)(zone_from + 1);
  for (int i = 0; i < CHOICE_SLOTS; i++) si.ch.t[i].player = -1;
  return stack_push(g, &si);
}

/* The objects and players the stack item stack_id targets become its targets
 * (115.1, 601.2c, 602.2b, 603.3d): one event for each distinct one (only the
 * target at index `only`, if not -1), logged, added to ev (at most one for
 * each of the CHOICE_SLOTS targets); returns how many. */
static int targeted_events(G *g, uint32_t stack_id, int only, Event *ev) {
  State *s = g->s;
  int idx = stack_id ? stack_find(g, stack_id) : -1;
  if (idx < 0) return 0;
  const StackItem *si = &s->stack[idx];
  char by[140];
  if (si->kind == SI_SPELL) fmt_slot(g, si->slot, by, sizeof by);
  else {
    char nm[110];
    fmt_lki(&si->srcl, nm, sizeof nm);
    snprintf(by, sizeof by, "%s ability=%d", nm, si->ab ? si->ab->index : 0);
  }
  int n = 0;
  for (int i = 0; i < CHOICE_SLOTS; i++) {
    const Target *t = &si->ch.t[i];
    if (t->kind == TK_NONE || (only >= 0 && i != only)) continue;
    ORef o = t->kind == TK_OBJ ? t->obj : oref_none();
    if (t->kind == TK_STACK) {
      int k = stack_find(g, t->stack_id);
      if (k < 0 || s->stack[k].kind != SI_SPELL) continue; /* an ability on the stack is no object */
      o = oref(g, s->stack[k].slot);
    }
    int dup = 0;
    for (int j = 0; j < n; j++) dup |= o.id ? ev[j].obj.id == o.id : ev[j].player2 == t->player;
    if (dup || (!o.id && t->kind != TK_PLAYER)) continue;
    Event *e = &ev[n++];
    ev_init(e, EV_TARGETED);
    e->obj = o;
    if (t->kind == TK_PLAYER) e->player2 = t->player;
    e->player = (int8_t)si->controller;
    e->src = si->kind == SI_SPELL ? oref(g, si->slot) : si->src;
    e->cause_id = si->id;
    e->aux = si->kind == SI_SPELL ? 1 : si->kind == SI_ACTIVATED ? 2 : 3;
    e->done = 1;
    char tn[110];
    fmt_target(g, t, tn, sizeof tn);
    log_line(g, 0, "becomes_target %s=%s by=#%u src=%s controller=%s", t->kind == TK_PLAYER ? "player" : "obj", tn,
             (unsigned)si->id, by, player_name(g, si->controller));
  }
  return n;
}

void stack_targeted(G *g, uint32_t stack_id, int only) {
  Event ev[CHOICE_SLOTS];
  int n = targeted_events(g, stack_id, only, ev);
  if (n) trig_detect(g, ev, n);
}

/* A spell cast or an ability activated (EV_CAST, EV_ACTIVATE): nothing is
 * performed, the abilities that trigger on it, and on what it targets
 * becoming its targets, are found. An activated ability's source is as it was
 * before the costs were paid (src), and the event says whether {T} was in the
 * activation cost (aux). */
void stack_action_taken(G *g, int type, int player, int slot, const Lki *src, int tap_cost, uint32_t stack_id) {
  Event ev[1 + CHOICE_SLOTS];
  Event *e = &ev[0];
  ev_init(e, type);
  e->obj = oref(g, slot);
  if (src && src->id && e->obj.id != src->id) e->obj.id = src->id; /* gone (sacrificed as a cost): the LKI stands for it */
  e->player = (int8_t)player;
  e->aux = tap_cost;
  e->done = 1;
  if (type == EV_CAST) {
    /* the spells cast before it this turn, storm's count (702.40a) */
    for (int q = 0; q < g->s->c.np; q++) e->amount = num_add(e->amount, g->s->c.pl[q].spells_cast_turn);
    e->amount--;
  }
  int n = 1 + targeted_events(g, stack_id, -1, ev + 1);
  const Lki *save = g->act_lki;
  g->act_lki = src;
  trig_detect(g, ev, n);
  g->act_lki = save;
}

int cost_has_tap(const Cost *c) {
  for (int i = 0; i < c->nparts; i++)
    if (c->part[i].kind == CK_TAP) return 1;
  return 0;
}

/* 601.2i: the spell became cast: it counts for storm and "whenever a player
 * casts" abilities see it. */
void spell_cast_done(G *g, int player, int slot) {
  NUM_INC(g->s->c.pl[player].spells_cast_turn, INT16_MAX);
  hist_cast(g, player, slot);
  stack_action_taken(g, EV_CAST, player, slot, NULL, 0, g->s->obj[slot].id);
}

/* 601.2: casts the card in slot the way w says: 601.2a moves it to the stack
 * with the face chosen (709.3, 712.11b); 601.2b announces the alternative or
 * additional costs and X; 601.2c modes and targets; 601.2f-h the total cost
 * is paid; 601.2i it becomes cast. An effect casting it during a resolution
 * (608.2g) gives w->during and the cost it allows (w->alt). */
void stack_cast_way(G *g, int player, int slot, const CastWay *w) {
  State *s = g->s;
  int zone_from = w->zone;
  if (zone_from == MTG_Z_EXILE) face_up_to_play(g, player, slot); /* 406.3a */
  const CardDef *card = chars(g, slot)->base;
  const CardDef *fd = cast_face(card, w->face);
  char nm[110];
  fmt_slot(g, slot, nm, sizeof nm);
  if (!can_cast_way(g, player, slot, w)) game_illegal(g, "%s can't be cast now", nm);
  const Ability *ab = spell_ability(fd);
  int free = !w->during && zone_from == MTG_Z_HAND && cast_free_available(g, player, slot);
  /* can_cast_way found the permission: without paying its mana cost, or
   * paying it, perhaps with mana of any type */
  int permitted = !w->during && zone_from == MTG_Z_EXILE ? play_permission(g, player, slot) : 0;
  int any_mana = permitted & PP_ANY_MANA ? 0x3f : 0;
  /* cast only thanks to "as though it had flash": what that ability does then (603.7g) */
  const StaticSpec *flash_st = NULL;
  ORef flash_src = oref_none();
  {
    int own = w->face || g->s->obj[slot].face_down;
    uint32_t types = own ? fd->types : chars(g, slot)->types;
    uint64_t kw = own ? fd->keywords : chars(g, slot)->kw;
    if (!w->during && !((types & T_INSTANT) || (kw >> KW_FLASH & 1)) && !sorcery_timing(g, player))
      flash_permission(g, player, slot, &flash_st, &flash_src);
  }
  /* the ways this card offers from its zone, before it moves (601.2b) */
  uint8_t alts[ALT_COUNT];
  int nalt = w->during ? 0 : cast_ways(g, player, slot, card, w, permitted, alts), np = 0;
  for (int i = 0; i < nalt; i++)
    if (way_payable(g, player, slot, card, fd, alts[i], any_mana)) alts[np++] = alts[i];
  nalt = np;
  int idx = spell_to_stack(g, player, slot, zone_from, ab, fd);
  Obj *o = obj_w(g, slot);
  const uint32_t spell_id = o->id;
  cast_set_face(g, slot, card, w->face);
  fmt_slot(g, slot, nm, sizeof nm);
  /* 601.2b: alternative costs */
  Choice *ch = &s->stack[idx].ch;
  ch->face = (uint8_t)w->face;
  if (w->face == 3) { /* 702.102d: a fused split spell follows its right half's instructions after its left half's */
    ch->add[0] = card->half[1];
    ch->nadd = 1;
  }
  if (w->during) ch->alt = (uint8_t)w->alt;
  else if (permitted && !(permitted & PP_PAY)) ch->alt = ALT_FREE;
  else if (free && ask_yes_no(g, player, "601.2b", "cast %s without paying its mana cost?", nm)) ch->alt = ALT_FREE;
  else if (zone_from == MTG_Z_HAND && ab && ab->alt_cost_exile_blue && blue_card_in_hand(g, player, slot) >= 0 &&
           ask_yes_no(g, player, "601.2b", "exile a blue card from your hand rather than pay %s's mana cost?", nm)) {
    ch->alt = ALT_FREE;
    ch->free = 2;
  } else if (!w->during && alt_cost_payable(g, player, slot, zone_from, any_mana)) {
    /* 118.9: "You may pay [cost] rather than pay this spell's mana cost" */
    char ac[64];
    mana_format(&fd->alt.mana, ac, sizeof ac);
    if (zone_from != MTG_Z_GRAVEYARD && !fd->cost.present) ch->alt = ALT_ALTERNATIVE; /* 118.6: the only cost it can be cast for */
    else if (ask_yes_no(g, player, "118.9", "pay %s's alternative cost%s%s rather than its mana cost?", nm, fd->alt.mana.present ? " " : "",
                   fd->alt.mana.present ? ac : ""))
      ch->alt = ALT_ALTERNATIVE;
    else
      ch->alt = (uint8_t)cast_choose_alt(g, player, nm, alts, nalt);
  } else
    ch->alt = (uint8_t)cast_choose_alt(g, player, nm, alts, nalt);
  if ((ch->alt == ALT_FREE || ch->alt == ALT_SUSPEND) && !ch->free) ch->free = 1;
  ManaCost base;
  Cost alt_parts;
  way_cost(card, fd, ch->alt, &base, &alt_parts);
  /* 601.2b: additional costs: kicker (702.33), buyback (702.27), splice (702.47) */
  cast_announce_additional(g, player, slot, fd, &s->stack[idx], &base, any_mana);
  idx = stack_find(g, spell_id);
  ch = &s->stack[idx].ch;
  if (base.x && !ch->free) {
    int hi = 0;
    ManaCost t = base;
    mana_total_cost(g, player, slot, ch, &t);
    while (hi < MAX_UNITS && cost_can_pay_mana(g, player, &t, hi + 1, slot, any_mana)) hi++;
    ch->x = ask_number(g, player, 0, hi, "choose X for %s", nm);
  }
  /* 601.2b: additional costs, optional ones announced, variable ones chosen */
  int pay_addl = card->has_addl;
  if (pay_addl && card->addl_optional)
    pay_addl = cost_can_pay_parts(g, player, slot, &card->addl) &&
               ask_yes_no(g, player, "601.2b", "pay the additional cost of %s?", nm);
  Cost addl = card->addl;
  addl.label_for_exile = card->addl_label;
  if (pay_addl) {
    for (int i = 0; i < addl.nparts; i++) {
      CostPart *cp = &addl.part[i];
      if (cp->n >= 0) continue;
      /* the loader allows X only in these parts and in exiling from the graveyard */
      int hi = cp->kind == CK_PAY_LIFE ? s->c.pl[player].life
             : cp->kind == CK_SAC || cp->kind == CK_TAP_OTHERS || cp->kind == CK_RETURN_OWN
                 ? cost_x_max(g, player, slot, &addl)
             : cp->kind == CK_DISCARD ? zl_count(g, MTG_Z_HAND, player) /* the spell has left the hand */
                                      : zl_count(g, MTG_Z_GRAVEYARD, player);
      if (hi > INT16_MAX) hi = INT16_MAX; /* the amount is kept in 16 bits */
      cp->n = (int16_t)ask_number(g, player, 0, hi, "choose the amount of %s's additional cost", nm);
      ch->paid = cp->n;
    }
  }
  ch->addl_paid = (uint8_t)pay_addl;
  o->x = ch->x;
  o->kicked = ch->kicked;
  o->kick_n = ch->kick_n;
  o->paid = ch->paid;
  o->addl_paid = (uint8_t)pay_addl;
  o->alt = ch->alt;
  /* 702.62a: "If you cast a creature spell this way, it gains haste until you lose control of the spell or
   * the permanent it becomes" */
  if (ch->alt == ALT_SUSPEND && (chars(g, slot)->types & T_CREATURE)) {
    obj_w(g, slot)->suspend_haste = 1;
    chars_dirty(g);
  }
  /* 601.2c: modes and targets, those of spliced cards too (702.47d) */
  choose_modes_targets(g, &s->stack[idx], player);
  idx = stack_find(g, spell_id);
  cast_added_targets(g, &s->stack[idx], player);
  /* 601.2f-h: total cost, mana abilities, payment */
  idx = stack_find(g, spell_id);
  StackItem *it = &s->stack[idx];
  ManaCost total = base;
  mana_total_cost(g, player, slot, &it->ch, &total);
  if (it->ch.free == 2) {
    int blue = blue_card_in_hand(g, player, slot);
    if (blue < 0) game_illegal(g, "no blue card to exile for %s", nm);
    do_move(g, blue, EV_EXILE, MTG_Z_EXILE, CA_COST, player, it->id);
  }
  uint8_t spent = 0;
  cost_pay_mana(g, player, &total, it->ch.x, slot, any_mana, &spent);
  idx = stack_find(g, spell_id);
  if (alt_parts.nparts) cost_pay_parts(g, player, slot, &alt_parts, idx >= 0 ? &s->stack[idx] : NULL);
  idx = stack_find(g, spell_id);
  if (pay_addl) cost_pay_parts(g, player, slot, &addl, idx >= 0 ? &s->stack[idx] : NULL);
  idx = stack_find(g, spell_id);
  if (idx >= 0) cast_pay_additional(g, player, slot, fd, &s->stack[idx]);
  idx = stack_find(g, spell_id);
  if (idx >= 0) s->stack[idx].mana_spent = spent;
  /* 601.2i: the spell becomes cast */
  char tg[400];
  targets_text(g, idx >= 0 ? &s->stack[idx] : NULL, tg, sizeof tg);
  /* kicked=1 when any kicker was paid (the times, with multikicker); with several kicker costs, which (702.33f) */
  char kk[32] = "";
  if (idx >= 0 && s->stack[idx].ch.kicked) {
    size_t u2 = (size_t)snprintf(kk, sizeof kk, " kicked=%d", s->stack[idx].ch.kick_n ? s->stack[idx].ch.kick_n : 1);
    for (int k = 0; fd->nkick > 1 && k < fd->nkick; k++)
      if (s->stack[idx].ch.kicked >> k & 1) {
        int wr = snprintf(kk + u2, sizeof kk - u2, "%s%d", strstr(kk, "kickers=") ? "," : " kickers=", k + 1);
        if ((size_t)wr < sizeof kk - u2) u2 += (size_t)wr; /* an error (wr < 0) is a huge size_t */
      }
  }
  char how[200] = "";
  if (idx >= 0) cast_log_fields(g, &s->stack[idx], how, sizeof how);
  log_line(g, 0, "cast player=%s obj=%s from=%s%s%s%s", player_name(g, player), nm, mtg_zone_name(zone_from), kk, how, tg);
  if (base.x && idx >= 0) log_line(g, 0, "choose obj=%s x=%d", nm, s->stack[idx].ch.x);
  if (zone_from == MTG_Z_COMMAND) var_commander_cast(g, slot); /* 903.8: counts for the next tax */
  spell_cast_done(g, player, slot);
  if (flash_st && flash_st->when_used && oref_ok(g, flash_src)) {
    /* 603.7g: a delayed ability it creates has the static ability's object as
     * its source and that object's controller now as its controller; "it"
     * is the spell, and then the permanent it becomes */
    Ctx cx;
    ctx_for(g, &cx, obj_controller(g, flash_src.slot), flash_src);
    cx.res[0] = oref(g, slot);
    cx.nres = 1;
    eff_run(g, &cx, flash_st->when_used);
  }
}

/* 702.37c: a card with morph cast face down from its owner's hand, as a 2/2
 * creature spell with no name, text or mana cost, for {3}. The effects that
 * apply are those to casting such a card: increases for creature spells, not
 * the face-up card's own reduction nor increases for its types. */
static ManaCost face_down_cost(G *g) {
  ManaCost m = {0};
  int total = 3 + cost_increase(g, T_CREATURE);
  m.generic = (uint8_t)(total < UINT8_MAX ? total : UINT8_MAX);
  return m;
}

int can_cast_face_down(G *g, int player, int slot) {
  const Obj *o = &g->s->obj[slot];
  if (!o->id || o->owner != player || o->zone != MTG_Z_HAND || !o->def->has_morph) return 0;
  /* a face-down spell is a creature spell: sorcery timing unless something lets it be cast as though it had flash */
  if (!sorcery_timing(g, player)) {
    const StaticSpec *st = NULL;
    ORef src;
    if (!flash_permission(g, player, slot, &st, &src) || (st->spell_types && !(st->spell_types & T_CREATURE))) return 0;
  }
  if (cast_forbidden_as(g, player, slot, T_CREATURE, NULL)) return 0;
  ManaCost m = face_down_cost(g);
  return cost_can_pay_mana(g, player, &m, 0, slot, 0);
}

void stack_cast_face_down(G *g, int player, int slot) {
  char nm[110];
  fmt_slot(g, slot, nm, sizeof nm);
  if (!can_cast_face_down(g, player, slot)) game_illegal(g, "%s can't be cast face down now", nm);
  /* 708.4: turned face down as it is put on the stack; no spell ability */
  spell_to_stack(g, player, slot, MTG_Z_HAND, NULL, g->s->obj[slot].def);
  obj_w(g, slot)->face_down = 1;
  chars_dirty(g);
  ManaCost m = face_down_cost(g);
  cost_pay_mana(g, player, &m, 0, slot, 0, NULL);
  fmt_slot(g, slot, nm, sizeof nm);
  log_line(g, 0, "cast player=%s obj=%s from=hand face_down=1 rule=702.37c", player_name(g, player), nm);
  spell_cast_done(g, player, slot);
}

/* ---- activating ---- */

/* "You may pay {0} rather than pay cycling costs" (702.29a, 702.29f): what
 * remains of the cost is the card's discard. */
static int cycling_free(G *g, int player, const Ability *ab) {
  return ab->cycling && rule_effect(g, SE_CYCLING_FREE, player, -1, NULL, NULL);
}

static Cost discard_only(const Cost *c) {
  Cost d;
  memset(&d, 0, sizeof d);
  for (int i = 0; i < c->nparts; i++)
    if (c->part[i].kind == CK_DISCARD_SELF) d.part[d.nparts++] = c->part[i];
  return d;
}

/* Whether player can pay the costs of ability ab of the object in slot
 * (602.2b, 601.2f-h), a cycling cost made free by an effect included. */
static int activation_payable(G *g, int player, int slot, const Ability *ab) {
  if (cycling_free(g, player, ab)) {
    Cost d = discard_only(&ab->cost);
    if (cost_can_pay_parts(g, player, slot, &d)) return 1;
  }
  if (!cost_can_pay_parts(g, player, slot, &ab->cost)) return 0;
  ManaCost mc = ab->cost.mana;
  if (!mana_value(&mc) && !mc.x) return 1;
  int any_blue = rule_effect(g, SE_ANY_MANA_FOR_ABILITIES, -1, slot, NULL, NULL) ? 1 << COL_U : 0;
  int self_tap = cost_has_tap(&ab->cost);
  return cost_can_pay_mana(g, player, &mc, 0, self_tap ? slot : -1, any_blue);
}

/* slot and abi name an activated ability of an object of the game that
 * player may activate from where it is (activation_reaches): the priority
 * listing (turn.c activate_option) asks only about those, and stack_activate
 * is answered with one of its options, in the state it was listed in. */
int can_activate(G *g, int player, int slot, int abi) {
  State *s = g->s;
  const Obj *o = &s->obj[slot];
  const Chars *c = chars(g, slot);
  const Ability *ab = c->ab[abi].ab;
  if (ab->cond) {
    /* 602.5b: "activate only if" */
    Ctx cx;
    ctx_for(g, &cx, player, oref(g, slot));
    if (!cond_eval(g, &cx, ab->cond)) return 0;
  }
  if (ab->sorcery && !sorcery_timing(g, player)) return 0;
  if (ab->loyalty) {
    /* 606.3 */
    if (!sorcery_timing(g, player) || o->loyalty_turn == s->c.turn_seq) return 0;
  }
  if (ab->once_per_turn && (o->abil_used[1] >> (ab->index & 31) & 1)) return 0;
  /* whether its costs can be paid first (both only ask): found sooner */
  if (!activation_payable(g, player, slot, ab)) return 0;
  return ab->mana || ability_feasible(g, ab, player, oref(g, slot), c);
}

void stack_activate(G *g, int player, int slot, int abi) {
  State *s = g->s;
  char nm[110];
  fmt_slot(g, slot, nm, sizeof nm);
  if (!can_activate(g, player, slot, abi)) game_illegal(g, "ability %d of %s can't be activated now", abi, nm);
  const Chars *c = chars(g, slot);
  AbRef r = c->ab[abi];
  const Ability *ab = r.ab;
  if (ab->mana) {
    mana_ability_activate(g, player, slot, abi);
    return;
  }
  StackItem si;
  memset(&si, 0, sizeof si);
  si.id = new_id(g);
  si.kind = SI_ACTIVATED;
  si.slot = -1;
  si.controller = (uint8_t)player;
  si.ab = ab;
  si.def = r.def;
  si.grant = r.grant;
  si.src = oref(g, slot);
  lki_of(g, slot, &si.srcl);
  for (int i = 0; i < CHOICE_SLOTS; i++) si.ch.t[i].player = -1;
  int idx = stack_push(g, &si);
  int any_blue = rule_effect(g, SE_ANY_MANA_FOR_ABILITIES, -1, slot, NULL, NULL) ? 1 << COL_U : 0;
  int self_tap = cost_has_tap(&ab->cost);
  /* 602.2b, 601.2b: an alternative cost for cycling, then the value of X */
  Cost cost = ab->cost;
  if (cycling_free(g, player, ab) &&
      (mana_value(&ab->cost.mana) || ab->cost.mana.x || ab->cost.nparts > discard_only(&ab->cost).nparts)) {
    Cost d = discard_only(&ab->cost);
    int can_full = cost_can_pay_parts(g, player, slot, &ab->cost) &&
                   cost_can_pay_mana(g, player, &ab->cost.mana, 0, self_tap ? slot : -1, any_blue);
    if (!can_full || ask_yes_no(g, player, "702.29a", "pay {0} rather than the cycling cost of %s?", nm)) cost = d;
  }
  int var_part = 0;
  for (int i = 0; i < cost.nparts; i++) var_part |= cost.part[i].n < 0 && cost.part[i].kind != CK_LOYALTY;
  if (cost.mana.x || var_part) {
    /* 107.3a, 601.2b: X in the mana cost or in another part ("Sacrifice X lands") */
    int hi = var_part ? cost_x_max(g, player, slot, &cost) : MAX_UNITS;
    if (cost.mana.x) {
      int m = 0;
      while (m < hi && cost_can_pay_mana(g, player, &cost.mana, m + 1, self_tap ? slot : -1, any_blue)) m++;
      hi = m;
    }
    idx = stack_find(g, si.id);
    s->stack[idx].ch.x = ask_number(g, player, 0, hi, "choose X for %s", nm);
    log_line(g, 0, "choose player=%s x=%d", player_name(g, player), s->stack[idx].ch.x);
  }
  idx = stack_find(g, si.id);
  choose_modes_targets(g, &s->stack[idx], player);
  idx = stack_find(g, si.id);
  int x = s->stack[idx].ch.x;
  for (int i = 0; i < cost.nparts; i++)
    if (cost.part[i].n < 0 && cost.part[i].kind != CK_LOYALTY) cost.part[i].n = (int16_t)x;
  Obj *o = obj_w(g, slot);
  if (ab->loyalty) o->loyalty_turn = s->c.turn_seq;
  if (ab->once_per_turn) o->abil_used[1] |= 1u << (ab->index & 31);
  ManaCost mc = cost.mana;
  uint8_t spent = 0;
  CostSpare spare = {&cost, slot};
  cost_pay_mana_sparing(g, player, &mc, x, self_tap ? slot : -1, any_blue, &spent, &spare);
  idx = stack_find(g, si.id);
  if (idx >= 0) s->stack[idx].mana_spent = spent;
  cost_pay_parts(g, player, slot, &cost, idx >= 0 ? &s->stack[idx] : NULL);
  /* 602.2b, 601.2i: the ability becomes activated, its targets chosen (as the cast line) */
  char tg[400];
  idx = stack_find(g, si.id);
  targets_text(g, idx >= 0 ? &s->stack[idx] : NULL, tg, sizeof tg);
  log_line(g, 0, "activate player=%s src=%s ability=%d id=#%u%s", player_name(g, player), nm, abi, (unsigned)si.id, tg);
  stack_action_taken(g, EV_ACTIVATE, player, slot, &si.srcl, self_tap, si.id); /* 602.2b (601.2i): the ability became activated */
}

/* ---- resolving ---- */

int stack_counter(G *g, int idx, int to_zone, int cause_ctl, uint32_t cause_id, ORef *countered) {
  State *s = g->s;
  StackItem *si = &s->stack[idx];
  *countered = oref_none();
  if (si->kind == SI_SPELL) {
    if (has_kw(g, si->slot, KW_CANT_BE_COUNTERED)) {
      char nm[110];
      fmt_slot(g, si->slot, nm, sizeof nm);
      log_line(g, 0, "counter_failed obj=%s rule=101.2", nm);
      return 0;
    }
    Event e;
    ev_init(&e, EV_COUNTER_SPELL);
    e.obj = oref(g, si->slot);
    e.from = MTG_Z_STACK;
    e.to = (int8_t)(to_zone >= 0 ? to_zone : MTG_Z_GRAVEYARD);
    e.cause_ctl = (int8_t)cause_ctl;
    e.cause_id = cause_id;
    e.rule = to_zone == MTG_Z_EXILE ? "614.15" : NULL;
    ev_one(g, &e);
    if (e.done && e.new_slot >= 0) *countered = (ORef){e.new_slot, e.new_id};
    return e.done;
  }
  if (si->ab && si->ab->uncounterable) {
    log_line(g, 0, "counter_failed id=#%u rule=603.1a", (unsigned)si->id);
    return 0;
  }
  log_line(g, 0, "counter id=#%u", (unsigned)si->id);
  stack_remove(g, idx);
  return 1;
}

static void resolve_spell_end(G *g, StackItem *sip) {
  State *s = g->s;
  StackItem copy = *sip; /* the stack moves under us when the spell leaves it */
  StackItem *si = &copy;
  int slot = si->slot;
  /* a spell that left the stack as it resolved took its stack entry with it
   * (perform.c's move off the stack, a player leaving the game: 800.4a) */
  if (!oref_ok(g, oref(g, slot)) || s->obj[slot].zone != MTG_Z_STACK) return;
  const Chars *c = chars(g, slot);
  Event e;
  ev_init(&e, EV_ZONE);
  e.obj = oref(g, slot);
  e.from = MTG_Z_STACK;
  e.cause = CA_RESOLVE;
  if (c->types & T_PERMANENT) {
    /* 608.3: a permanent spell becomes a permanent under its controller's control */
    e.to = MTG_Z_BATTLEFIELD;
    e.etb_ctl = (int8_t)si->controller;
    e.etb_transformed = s->obj[slot].transformed; /* 712.13: the face that was up on the stack */
    e.face_down = s->obj[slot].face_down;         /* 708.4: a face-down spell enters face down */
    Target aura = si->ch.t[0];
    if ((c->types & T_ENCHANTMENT) && c->base->enchant) {
      /* 303.4f: an Aura spell enters attached to its target */
      if (aura.kind == TK_OBJ && oref_ok(g, aura.obj)) {
        e.etb_attach = 1;
        e.etb_attach_obj = aura.obj;
      } else if (aura.kind == TK_PLAYER) {
        e.etb_attach = 2;
        e.etb_attach_player = aura.player;
      }
    }
    ev_one(g, &e);
    if (e.done && e.new_slot >= 0) cast_resolved(g, si, e.new_slot);
  } else {
    /* 608.2n; 702.27a: a spell whose buyback cost was paid goes to its owner's hand */
    e.to = si->ch.bought ? MTG_Z_HAND : MTG_Z_GRAVEYARD;
    if (si->ch.bought) e.rule = "702.27a";
    /* 715.3d: an Adventure resolving is exiled instead; its controller may cast the card later from exile */
    int adventure = !si->ch.bought && si->ch.face == 1 && s->obj[slot].def->adventure;
    if (adventure) e.to = MTG_Z_EXILE, e.rule = "715.3d";
    ev_one(g, &e);
    if (adventure && e.done && e.new_slot >= 0 && s->obj[e.new_slot].zone == MTG_Z_EXILE) obj_w(g, e.new_slot)->adventured = (uint8_t)(si->controller + 1);
  }
  int i = stack_find(g, si->id);
  if (i >= 0) stack_remove(g, i);
}

void stack_resolve_top(G *g) {
  State *s = g->s;
  int idx = s->c.nstack - 1;
  StackItem si = s->stack[idx];
  char nm[110];
  if (si.kind == SI_SPELL) fmt_slot(g, si.slot, nm, sizeof nm);
  else fmt_lki(&si.srcl, nm, sizeof nm);
  log_line(g, 0, "resolve id=#%u obj=%s", (unsigned)si.id, nm);
  Ctx c;
  ctx_from_stack(g, &c, &s->stack[idx]);
  /* 603.4: the intervening "if" is checked again */
  if (si.kind == SI_TRIGGERED && si.ab->cond && !cond_eval(g, &c, si.ab->cond)) {
    log_line(g, 0, "stack_remove id=#%u rule=603.4", (unsigned)si.id);
    stack_remove(g, idx);
    return;
  }
  int any;
  int total = targets_still_legal(g, &s->stack[idx], &any);
  if (total > 0 && !any) {
    log_line(g, 0, "stack_remove id=#%u rule=608.2b", (unsigned)si.id);
    if (si.kind == SI_SPELL) {
      Event e;
      ev_init(&e, EV_ZONE);
      e.obj = oref(g, si.slot);
      e.from = MTG_Z_STACK;
      e.to = MTG_Z_GRAVEYARD;
      e.cause = CA_RESOLVE;
      e.rule = "608.2b";
      ev_one(g, &e);
    }
    idx = stack_find(g, si.id);
    if (idx >= 0) stack_remove(g, idx);
    return;
  }
  if (si.ab) {
    /* 603.7h: counted as it resolves, so its effect sees this resolution */
    if (si.kind != SI_SPELL && oref_ok(g, si.src) && s->obj[si.src.slot].resolved[si.ab->index & 15] < 255)
      obj_w(g, si.src.slot)->resolved[si.ab->index & 15]++;
    for (int mi = 0; mi < si.ch.nmode; mi++) {
      idx = stack_find(g, si.id);
      StackItem *live = idx >= 0 ? &s->stack[idx] : &si;
      ctx_from_stack(g, &c, live);
      c.mode = si.ch.mode[mi];
      eff_run(g, &c, si.ab->modes[c.mode].effect);
    }
    if (si.kind == SI_SPELL) cast_resolve_added(g, &si); /* 702.47b, 702.102d */
    if (si.kind == SI_TRIGGERED && si.ab->trig.once_per_turn && oref_ok(g, si.src)) {
      /* 603.2i: the indicated action was taken (a declined "may" is not taking it) */
      const Node *e = si.ab->modes[0].effect;
      int declined = e && e->n == 1 && e->k[0]->op == S_MAY && !c.did;
      if (!declined) obj_w(g, si.src.slot)->abil_used[0] |= 1u << (si.ab->index & 31);
    }
  }
  if (si.kind == SI_SPELL) {
    idx = stack_find(g, si.id);
    resolve_spell_end(g, idx >= 0 ? &s->stack[idx] : &si);
  } else {
    idx = stack_find(g, si.id);
    if (idx >= 0) stack_remove(g, idx);
  }
}
