/* cost.c - costs (118, 601.2f-h) and mana (106, 605): the total cost of a
 * spell with cost increases, a payment solver over the mana pool and untapped
 * mana sources, activating mana abilities (which resolve at once, 605.3b),
 * paying non-mana costs, and emptying mana pools (500.4). */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "num.h"

typedef ManaUnit Unit;

/* What a mana ability can add, as a color mask (0 if it is not a simple one). */
uint8_t mana_mask(G *g, int slot, const AbRef *r) {
  const Ability *ab = r->ab;
  const Node *e = ab->modes[0].effect;
  uint8_t mask = 0;
  for (int i = 0; e && i < e->n; i++) {
    const Node *st = e->k[i];
    if (st->op != S_ADD_MANA) continue;
    const char *m = st->k[0]->s; /* the loader always gives add_mana its mana */
    if (!strcmp(m, "any")) mask |= 0x1f;
    else if (!strcmp(m, "chosen")) {
      const char *lb = st->k[3] && st->k[3]->s ? st->k[3]->s : "color"; /* a step has all its parameters' slots */
      int col = link_find_color(g, g->s->obj[slot].id, r->grant, lb);
      if (col >= 0) mask |= (uint8_t)(1u << col);
    } else {
      /* "{R}{G}", "{G} or {W}": the loader has parsed the same text (it refuses anything else) */
      uint8_t add;
      int one_of;
      char why[8];
      if (!mana_add_parse(m, &add, &one_of, why, sizeof why)) mask |= add;
    }
  }
  return mask;
}

static int simple_mana_source(G *g, int player, int slot, int abi) {
  const Chars *c = chars(g, slot);
  const Ability *ab = c->ab[abi].ab;
  if (ab->kind != AB_ACTIVATED || !ab->mana) return 0;
  /* only "{T}: Add ..." sources are used by automatic payment */
  if (mana_value(&ab->cost.mana) || ab->cost.nparts != 1 || ab->cost.part[0].kind != CK_TAP) return 0;
  if (ab->zone >= 0 && ab->zone != MTG_Z_BATTLEFIELD) return 0; /* the callers look only at player's permanents */
  return cost_can_pay_parts(g, player, slot, &ab->cost);
}

static int gather_now(G *g, int player, Unit *u, int exclude) {
  State *s = g->s;
  int n = 0;
  for (int col = 0; col < COL_COUNT; col++)
    for (int k = 0; k < s->c.pl[player].mana[col] && n < MAX_UNITS; k++) {
      u[n].pool = 1;
      u[n].mask = (uint8_t)(1u << col);
      u[n].slot = -1;
      u[n].abi = -1;
      u[n].used = 0;
      u[n].alt = u[n].how = 0;
      n++;
    }
  int nb = bf_count(g);
  int16_t *bf = bf_list(g);
  for (int i = 0; i < nb && n < MAX_UNITS; i++) {
    int slot = bf[i];
    if (slot == exclude || s->obj[slot].tapped) continue;
    const Chars *c = chars(g, slot);
    if (c->controller != player) continue;
    /* one tap, one mana: a source with several "{T}: Add" abilities is one
     * unit that can be any color one of them adds */
    uint8_t m = 0;
    int first = -1;
    for (int a = 0; a < c->nab; a++) {
      if (!simple_mana_source(g, player, slot, a)) continue;
      uint8_t am = mana_mask(g, slot, &c->ab[a]);
      if (!am) continue;
      m |= am;
      if (first < 0) first = a;
    }
    if (first >= 0) {
      u[n].pool = 0;
      u[n].mask = m;
      u[n].slot = (int16_t)slot;
      u[n].abi = (int8_t)first;
      u[n].used = 0;
      u[n].alt = u[n].how = 0;
      n++;
      /* what tapping it makes triggered mana abilities add (605.1b, 605.4a) */
      uint8_t bonus[4];
      int nbonus = trig_mana_bonus(g, slot, player, bonus, 4);
      for (int k = 0; k < nbonus && n < MAX_UNITS; k++) {
        u[n] = u[n - 1 - k];
        u[n].mask = bonus[k];
        u[n].abi = -2;
        n++;
      }
    }
  }
  return n;
}

/* The mana player's payment could use (exclude: a permanent whose own tap
 * pays part of the cost, -1 none); while priority options are listed, found
 * once for all the payments the listing asks about. */
static int gather(G *g, int player, Unit *u, int exclude) {
  if (exclude >= 0 && g->s->obj[exclude].zone != MTG_Z_BATTLEFIELD) exclude = -1; /* the same units */
  ManaSeen *m = &g->mana_seen;
  if (g->listing && m->listing == g->listing && m->epoch == g->epoch && m->player == player && m->exclude == exclude) {
    memcpy(u, m->u, (size_t)m->n * sizeof *u);
    return m->n;
  }
  int n = gather_now(g, player, u, exclude);
  if (g->listing) {
    m->listing = g->listing;
    m->epoch = g->epoch;
    m->player = player;
    m->exclude = exclude;
    m->n = n;
    memcpy(m->u, u, (size_t)n * sizeof *u);
  }
  return n;
}

/* requirements: masks each one unit must satisfy */
static int requirements(const ManaCost *c, int x, uint8_t *req) {
  int64_t total = (int64_t)c->generic + (int64_t)x * c->x + c->nhybrid;
  for (int col = 0; col < COL_COUNT; col++) total += c->colored[col];
  /* more mana than one payment can hold (MAX_UNITS sources): unpayable, never
   * paid in part (a cost of {65} is not paid with 64 lands) */
  if (total > MAX_UNITS) return MAX_UNITS + 1;
  /* the loops below fill exactly total entries, so at most MAX_UNITS */
  int n = 0;
  for (int col = 0; col < COL_COUNT; col++)
    for (int k = 0; k < c->colored[col]; k++) req[n++] = (uint8_t)(1u << col);
  for (int h = 0; h < c->nhybrid; h++) req[n++] = (uint8_t)((1u << c->hybrid[h][0]) | (1u << c->hybrid[h][1]));
  int generic = c->generic + x * c->x;
  for (int k = 0; k < generic; k++) req[n++] = 0x3f;
  return n;
}

/* any: the mana types that may be spent as though they were mana of any
 * color ("spend blue mana as though it were ...": 1 << COL_U; "spend mana as
 * though it were mana of any color": all); a {C} cost still needs colorless */
static int fits(const Unit *u, uint8_t req, int any) {
  if (u->mask & req) return 1;
  return (u->mask & any) && req != (1u << COL_C);
}

static int solve(Unit *u, int nu, const uint8_t *req, int nr, int i, int *assign, int any_blue) {
  if (i == nr) return 1;
  for (int k = 0; k < nu; k++) {
    if (u[k].used || !fits(&u[k], req[i], any_blue)) continue;
    u[k].used = 1;
    assign[i] = k;
    if (solve(u, nu, req, nr, i + 1, assign, any_blue)) return 1;
    u[k].used = 0;
  }
  return 0;
}

/* ---- convoke (702.51), improvise (702.126), delve (702.66): creatures or
 * artifacts tapped, graveyard cards exiled, rather than mana paid. Each
 * applies to the total cost once it is determined (702.51b, 702.126b,
 * 702.66b), so the payment is the same matching of units to the cost's
 * symbols as for mana, with these units added. ---- */

enum { AK_CONVOKE = 1, AK_IMPROVISE = 2, AK_DELVE = 4 };

/* Which of them the spell (or card being cast) in for_slot has: they
 * function while it is on the stack (702.51a), never for a permanent's
 * abilities. */
static int alt_kinds(G *g, int for_slot) {
  if (for_slot < 0) return 0;
  const Obj *o = &g->s->obj[for_slot];
  if (!o->id || o->zone == MTG_Z_BATTLEFIELD) return 0;
  uint64_t kw = chars(g, for_slot)->kw;
  return (int)(kw >> KW_CONVOKE & 1) * AK_CONVOKE | (int)(kw >> KW_IMPROVISE & 1) * AK_IMPROVISE |
         (int)(kw >> KW_DELVE & 1) * AK_DELVE;
}

/* Adds to the n mana units what may pay rather than mana: untapped creatures
 * (convoke: their colors or generic; summoning sickness doesn't matter, it
 * is no {T} cost, 302.6) and artifacts (improvise: generic) player controls,
 * cards in their graveyard but the spell (delve: generic). A permanent that
 * is also a mana source stays one unit, as it can be tapped once; the mana
 * its tapping would trigger (abi -2) is not counted then, since a creature
 * tapped for convoke is not tapped for mana. */
static int gather_alt(G *g, int player, int for_slot, int kinds, Unit *u, int n) {
  if (kinds & (AK_CONVOKE | AK_IMPROVISE)) {
    int nb = bf_count(g);
    int16_t *bf = bf_list(g);
    for (int i = 0; i < nb; i++) {
      int slot = bf[i];
      const Chars *c = chars(g, slot);
      if (g->s->obj[slot].tapped || c->controller != player) continue;
      uint8_t alt = 0;
      if ((kinds & AK_CONVOKE) && (c->types & T_CREATURE)) alt |= (uint8_t)((c->colors & 0x1f) | UNIT_GENERIC);
      if ((kinds & AK_IMPROVISE) && (c->types & T_ARTIFACT)) alt |= UNIT_GENERIC;
      if (!alt) continue;
      int at = -1;
      for (int k = 0; k < n; k++) {
        if (u[k].pool || u[k].slot != slot) continue;
        if (u[k].abi >= 0) at = k;
        else u[k].mask = 0;
      }
      if (at < 0) {
        if (n >= MAX_UNITS) continue;
        at = n++;
        u[at] = (Unit){.pool = 0, .mask = 0, .slot = (int16_t)slot, .abi = -1, .used = 0};
      }
      u[at].alt = alt;
      u[at].how = UNIT_TAP;
    }
  }
  if (kinds & AK_DELVE) {
    int cnt = zl_count(g, MTG_Z_GRAVEYARD, player);
    int16_t *gy = zl_list(g, MTG_Z_GRAVEYARD, player);
    for (int i = 0; i < cnt && n < MAX_UNITS; i++) {
      if (gy[i] == for_slot) continue;
      u[n++] = (Unit){.pool = 0, .mask = 0, .slot = gy[i], .abi = -1, .used = 0, .alt = UNIT_GENERIC, .how = UNIT_EXILE};
    }
  }
  return n;
}

/* How a unit may be used in a matching: not at all, as mana only, as mana or
 * rather than mana, or (chosen by the player) only rather than mana. */
enum { RO_NONE, RO_MANA, RO_ANY, RO_ALT };

/* 702.51a: a creature pays a colored symbol of one of its colors (a hybrid
 * one of either half) or a generic one; an artifact or a card only a
 * generic one; none pays {C}. */
static int alt_fits(const Unit *u, uint8_t req) {
  if (req == 0x3f) return (u->alt & UNIT_GENERIC) != 0;
  return (u->alt & req & 0x1f) != 0;
}

typedef struct Match {
  const Unit *u;
  const uint8_t *req;
  const int8_t *role;
  int nu, nr, any;
  int mu[MAX_UNITS], mr[MAX_UNITS]; /* the requirement each unit pays, the unit paying each requirement */
  uint8_t seen[MAX_UNITS];
} Match;

static int role_fits(const Match *m, int k, int r) {
  const Unit *u = &m->u[k];
  switch (m->role[k]) {
  case RO_MANA: return fits(u, m->req[r], m->any);
  case RO_ANY: return fits(u, m->req[r], m->any) || alt_fits(u, m->req[r]);
  case RO_ALT: return alt_fits(u, m->req[r]);
  default: return 0;
  }
}

/* An augmenting path (a bipartite matching) from unit i (from_unit) or from
 * requirement i: whatever is matched already stays matched. */
static int augment(Match *m, int from_unit, int i) {
  int n = from_unit ? m->nr : m->nu;
  int *mine = from_unit ? m->mu : m->mr, *theirs = from_unit ? m->mr : m->mu;
  for (int j = 0; j < n; j++) {
    if (m->seen[j] || !(from_unit ? role_fits(m, i, j) : role_fits(m, j, i))) continue;
    m->seen[j] = 1;
    if (theirs[j] < 0 || augment(m, from_unit, theirs[j])) {
      theirs[j] = i;
      mine[i] = j;
      return 1;
    }
  }
  return 0;
}

/* Whether the units pay every requirement, each RO_ALT unit paying one
 * (601.2h: partial payments are not allowed); by_req, if not NULL, gets the
 * unit paying each requirement. The RO_ALT units are matched first; matching
 * the requirements then keeps them matched. */
static int alt_match(const Unit *u, int nu, const uint8_t *req, int nr, int any, const int8_t *role, int *by_req) {
  if (nr > nu) return 0;
  Match m = {.u = u, .req = req, .role = role, .nu = nu, .nr = nr, .any = any};
  for (int k = 0; k < nu; k++) m.mu[k] = -1;
  for (int r = 0; r < nr; r++) m.mr[r] = -1;
  for (int k = 0; k < nu; k++) {
    if (role[k] != RO_ALT) continue;
    memset(m.seen, 0, sizeof m.seen);
    if (!augment(&m, 1, k)) return 0;
  }
  for (int r = 0; r < nr; r++) {
    if (m.mr[r] >= 0) continue;
    memset(m.seen, 0, sizeof m.seen);
    if (!augment(&m, 0, r)) return 0;
  }
  if (by_req) memcpy(by_req, m.mr, (size_t)nr * sizeof *by_req);
  return 1;
}

static int can_pay_plain(G *g, int player, const ManaCost *c, int x, int for_slot, int any_blue) {
  Unit u[MAX_UNITS];
  uint8_t req[MAX_UNITS];
  int assign[MAX_UNITS];
  int nu = gather(g, player, u, for_slot);
  int nr = requirements(c, x, req);
  int kinds = alt_kinds(g, for_slot);
  if (kinds) {
    int8_t role[MAX_UNITS];
    nu = gather_alt(g, player, for_slot, kinds, u, nu);
    for (int k = 0; k < nu; k++) role[k] = RO_ANY;
    return alt_match(u, nu, req, nr, any_blue, role, NULL);
  }
  if (nr > nu) return 0;
  return solve(u, nu, req, nr, 0, assign, any_blue);
}

/* ---- Phyrexian mana (107.4f): each symbol is paid with one mana of its
 * color or with 2 life, as the player chooses while paying (601.2h) ---- */

#define MAX_PHYREXIAN 8

/* All of them: a cost with more than MAX_PHYREXIAN is unpayable (the choices
 * are searched bit by bit), never paid without some of its symbols */
static int phy_count(const ManaCost *c) {
  int n = 0;
  for (int col = 0; col < 5; col++) n += c->phyrexian[col];
  return n;
}

/* The cost with the Phyrexian symbols whose bit is set in `life` (symbols
 * numbered in W U B R G order) left out, the others as colored mana; the life
 * they cost goes to *life_total. */
static ManaCost phy_split(const ManaCost *c, unsigned life, int *life_total) {
  ManaCost m = *c;
  int i = 0;
  *life_total = 0;
  memset(m.phyrexian, 0, sizeof m.phyrexian);
  for (int col = 0; col < 5; col++)
    for (int k = 0; k < c->phyrexian[col] && i < MAX_PHYREXIAN; k++, i++) {
      if (life >> i & 1) *life_total += 2;
      else m.colored[col]++;
    }
  return m;
}

/* 119.4, 119.8: life can be paid only up to the life total, and not at all
 * (but 0) while the player's life total can't change */
static int can_pay_life(G *g, int player, int amount) {
  if (amount <= 0) return 1;
  return g->s->c.pl[player].life >= amount && !rule_effect(g, SE_LIFE_CANT_CHANGE, player, -1, NULL, NULL);
}

/* Whether some way of paying the symbols not yet decided (bits from `from`
 * on), with those before decided as in `life`, pays the whole cost. */
static int phy_feasible(G *g, int player, const ManaCost *c, int x, int for_slot, int any_blue, unsigned life, int from) {
  int n = phy_count(c);
  if (n > MAX_PHYREXIAN) return 0;
  for (unsigned rest = 0; rest < (1u << (n - from)); rest++) {
    unsigned l = (life & ((1u << from) - 1)) | rest << from;
    int lt;
    ManaCost m = phy_split(c, l, &lt);
    if (can_pay_life(g, player, lt) && can_pay_plain(g, player, &m, x, for_slot, any_blue)) return 1;
  }
  return 0;
}

int cost_can_pay_mana(G *g, int player, const ManaCost *c, int x, int for_slot, int any_blue) {
  if (phy_count(c)) return phy_feasible(g, player, c, x, for_slot, any_blue, 0, 0);
  return can_pay_plain(g, player, c, x, for_slot, any_blue);
}

int cost_mana_short(G *g, int player, const ManaCost *c, int for_slot) {
  if (!g->listing || alt_kinds(g, for_slot)) return 0;
  /* the symbols only mana pays, as requirements counts them (Phyrexian ones
   * left out: life may pay those) */
  int need = c->generic + c->nhybrid;
  for (int col = 0; col < COL_COUNT; col++) need += c->colored[col];
  if (!need) return 0;
  if (for_slot >= 0 && g->s->obj[for_slot].zone != MTG_Z_BATTLEFIELD) for_slot = -1; /* as gather */
  const ManaSeen *m = &g->mana_seen;
  if (m->listing == g->listing && m->epoch == g->epoch && m->player == player && m->exclude == for_slot)
    return need > m->n;
  Unit u[MAX_UNITS];
  return need > gather(g, player, u, for_slot);
}

int cost_increase(G *g, uint32_t types) {
  int nb = bf_count(g), more = 0;
  int16_t *bf = bf_list(g);
  for (int k = 0; k < nb && bf_has_static(g, SE_COST_MORE); k++) {
    const Chars *c = chars(g, bf[k]);
    for (int a = 0; a < c->nab; a++) {
      const Ability *sa = c->ab[a].ab;
      if (sa->kind != AB_STATIC || sa->st.kind != SE_COST_MORE) continue;
      if (sa->st.spell_types && !(types & sa->st.spell_types)) continue;
      if (types & sa->st.spell_types_none) continue;
      Ctx cx;
      ctx_for(g, &cx, c->controller, oref(g, bf[k]));
      if (sa->st.cond && !cond_eval(g, &cx, sa->st.cond)) continue;
      more += sa->st.a;
    }
  }
  return more;
}

void mana_total_cost(G *g, int player, int slot, const Choice *ch, ManaCost *out) {
  /* 601.2f: cost increases (Thalia) */
  State *s = g->s;
  const Chars *sc = chars(g, slot);
  out->generic = (uint8_t)(out->generic + cost_increase(g, sc->types));
  /* 601.2f: the spell's own reduction of generic mana ("costs {2} less for
   * each permanent sacrificed this way": paid is the additional cost's count) */
  const CardDef *sd = sc->base;
  if (sd->costs_less) {
    Ctx cx;
    ctx_for(g, &cx, player, oref(g, slot));
    Choice chc;
    if (ch) {
      chc = *ch;
      cx.ch = &chc;
    }
    int less = expr_eval(g, &cx, sd->costs_less);
    if (less > 0) out->generic = (uint8_t)(out->generic > less ? out->generic - less : 0);
  }
  /* strive: more for each target beyond the first, chosen by now (601.2c) */
  if (sd->has_strive && ch) {
    int nt = 0;
    for (int i = 0; i < CHOICE_SLOTS; i++) nt += ch->t[i].kind != TK_NONE;
    if (nt > 1) mana_add(out, &sd->strive, nt - 1);
  }
  /* 903.8: the commander tax */
  out->generic = (uint8_t)(out->generic + var_commander_tax(g, slot));
  (void)s;
  (void)player;
}

void mana_ability_activate(G *g, int player, int slot, int abi) {
  const Chars *c = chars(g, slot);
  AbRef r = c->ab[abi];
  char nm[110];
  fmt_slot(g, slot, nm, sizeof nm);
  log_line(g, 0, "activate player=%s src=%s ability=%d mana=1", player_name(g, player), nm, abi);
  Lki before;
  lki_of(g, slot, &before);
  if (r.ab->once_per_turn) obj_w(g, slot)->abil_used[1] |= 1u << (r.ab->index & 31); /* 602.5b, as stack_activate */
  ManaCost mc = r.ab->cost.mana;
  cost_pay_mana(g, player, &mc, 0, slot, 0, NULL);
  cost_pay_parts(g, player, slot, &r.ab->cost, NULL);
  stack_action_taken(g, EV_ACTIVATE, player, slot, &before, cost_has_tap(&r.ab->cost), 0); /* 605.3a, 602.2b (601.2i): the ability became activated */
  Ctx cx;
  ctx_for(g, &cx, player, oref(g, slot));
  cx.def = r.def;
  cx.grant = r.grant;
  cx.ab = r.ab;
  eff_run(g, &cx, r.ab->modes[0].effect);
}

static void activate_for(G *g, int player, int slot, int abi, int color) {
  const Chars *c = chars(g, slot);
  AbRef r = c->ab[abi];
  char nm[110];
  fmt_slot(g, slot, nm, sizeof nm);
  log_line(g, 0, "activate player=%s src=%s ability=%d mana=1", player_name(g, player), nm, abi);
  Lki before;
  lki_of(g, slot, &before);
  cost_pay_parts(g, player, slot, &r.ab->cost, NULL);
  stack_action_taken(g, EV_ACTIVATE, player, slot, &before, cost_has_tap(&r.ab->cost), 0);
  Ctx cx;
  ctx_for(g, &cx, player, oref(g, slot));
  cx.def = r.def;
  cx.grant = r.grant;
  cx.ab = r.ab;
  cx.forced_color = (int8_t)color;
  eff_run(g, &cx, r.ab->modes[0].effect);
}

/* The cost c with the requirements (numbered as requirements() lists them)
 * whose paid[] is set taken off, {X} counted as generic. */
static ManaCost cost_without(const ManaCost *c, int x, const uint8_t *paid) {
  ManaCost m = *c;
  int64_t gen = (int64_t)c->generic + (int64_t)c->x * x;
  m.x = 0;
  m.nhybrid = 0;
  int r = 0;
  for (int col = 0; col < COL_COUNT; col++)
    for (int k = 0; k < c->colored[col]; k++)
      if (paid[r++]) m.colored[col]--;
  for (int h = 0; h < c->nhybrid; h++)
    if (!paid[r++]) {
      m.hybrid[m.nhybrid][0] = c->hybrid[h][0];
      m.hybrid[m.nhybrid++][1] = c->hybrid[h][1];
    }
  int64_t left = gen;
  for (int64_t k = 0; k < gen; k++)
    if (paid[r++]) left--;
  m.generic = (uint8_t)left;
  return m;
}

/* 601.2h with convoke, improvise or delve: as the cost is paid the player
 * chooses, one at a time, the creatures and artifacts to tap and the cards
 * to exile rather than pay mana; only those that still leave a way to pay
 * the whole cost are offered, and stopping is offered when the rest can be
 * paid with mana. They are tapped or exiled, then the rest is paid with mana. */
static void pay_alt(G *g, int player, const ManaCost *c, int x, int any_blue, int kinds, int for_slot, uint8_t *spent) {
  Unit u[MAX_UNITS];
  uint8_t req[MAX_UNITS], chosen[MAX_UNITS] = {0}, paid[MAX_UNITS] = {0};
  int8_t role[MAX_UNITS];
  int by_req[MAX_UNITS];
  int nr = requirements(c, x, req);
  int nu = gather_alt(g, player, for_slot, kinds, u, gather(g, player, u, for_slot));
  if (nr > MAX_UNITS) nr = MAX_UNITS + 1; /* unpayable: the matching below refuses it */
  const char *rule = kinds & AK_CONVOKE ? "702.51a" : kinds & AK_IMPROVISE ? "702.126a" : "702.66a";
  char nm[110];
  fmt_slot(g, for_slot, nm, sizeof nm);
  for (int step = 0; step < nr && nr <= MAX_UNITS; step++) {
    for (int k = 0; k < nu; k++) role[k] = chosen[k] ? RO_ALT : RO_MANA;
    int stop_ok = alt_match(u, nu, req, nr, any_blue, role, NULL);
    int cand[MAX_UNITS], nc = 0;
    for (int k = 0; k < nu; k++) {
      if (!u[k].how || chosen[k]) continue;
      for (int j = 0; j < nu; j++) role[j] = chosen[j] || j == k ? RO_ALT : RO_ANY;
      if (alt_match(u, nu, req, nr, any_blue, role, NULL)) cand[nc++] = k;
    }
    if (!nc) break;
    int pick = 0;
    if (stop_ok || nc > 1) {
      dec_begin(g, MTG_D_CHOOSE, player, rule, "%s for %s%s", kinds == AK_DELVE ? "exile a card from your graveyard" : kinds & AK_DELVE ? "tap a permanent or exile a card" : "tap a permanent", nm,
                stop_ok ? " (none: pay the rest with mana)" : "");
      for (int i = 0; i < nc; i++) {
        char on[110];
        fmt_slot(g, u[cand[i]].slot, on, sizeof on);
        dec_opt(g, MTG_O_OBJECT, g->s->obj[u[cand[i]].slot].id, 0, -1, -1, "%s", on);
      }
      dec_range(g, stop_ok ? 0 : 1, 1);
      pick = ask_pick(g);
    }
    if (pick < 0) break;
    chosen[cand[pick]] = 1;
  }
  for (int k = 0; k < nu; k++) role[k] = chosen[k] ? RO_ALT : RO_MANA;
  if (!alt_match(u, nu, req, nr, any_blue, role, by_req)) {
    char mc[64];
    mana_format(c, mc, sizeof mc);
    game_illegal(g, "%s can't pay %s", player_name(g, player), mc);
  }
  for (int r = 0; r < nr; r++) paid[r] = chosen[by_req[r]];
  ManaCost rest = cost_without(c, x, paid);
  /* the permanents tapped and cards exiled are chosen before any is (601.2h) */
  ORef refs[MAX_UNITS];
  int nref = 0;
  for (int k = 0; k < nu; k++)
    if (chosen[k]) refs[nref++] = oref(g, u[k].slot);
  uint32_t spell = g->s->obj[for_slot].id;
  for (int i = 0; i < nref; i++) {
    if (!oref_ok(g, refs[i])) continue;
    if (g->s->obj[refs[i].slot].zone == MTG_Z_BATTLEFIELD) {
      do_tap(g, refs[i].slot, 1);
      continue;
    }
    do_move(g, refs[i].slot, EV_EXILE, MTG_Z_EXILE, CA_COST, player, spell); /* from the graveyard */
  }
  cost_pay_mana(g, player, &rest, 0, -1, any_blue, spent);
}

/* a part that taps untapped permanents other than by {T}: "tap N untapped
 * [quality] you control", "tap creatures with total power N" */
static int taps_others(const CostPart *p) { return p->kind == CK_TAP_OTHERS || p->kind == CK_TAP_POWER; }

/* 601.2g-h: the player chooses which mana abilities to activate, then pays
 * the costs in any order; tapping for mana a permanent that the same cost's
 * "tap N untapped [quality]" part needs could make a payable cost unpayable.
 * Such permanents are put last among the units (in their order), so the
 * solver, trying units in order, takes them only where nothing else pays. */
static void spare_tappers(G *g, int player, const CostSpare *sp, Unit *u, int nu) {
  int taps = 0;
  for (int i = 0; i < sp->parts->nparts; i++) taps |= taps_others(&sp->parts->part[i]);
  if (!taps) return;
  Ctx cx;
  ctx_for(g, &cx, player, oref(g, sp->slot));
  Unit later[MAX_UNITS];
  int k = 0, nl = 0;
  for (int j = 0; j < nu; j++) {
    int needed = 0;
    for (int i = 0; u[j].slot >= 0 && i < sp->parts->nparts && !needed; i++) {
      const CostPart *p = &sp->parts->part[i];
      needed = taps_others(p) && filter_match(g, &cx, p->f, u[j].slot);
    }
    if (needed) later[nl++] = u[j];
    else u[k++] = u[j];
  }
  memcpy(u + k, later, (size_t)nl * sizeof *later);
}

void cost_pay_mana(G *g, int player, const ManaCost *c, int x, int for_slot, int any_blue, uint8_t *spent) {
  cost_pay_mana_sparing(g, player, c, x, for_slot, any_blue, spent, NULL);
}

void cost_pay_mana_sparing(G *g, int player, const ManaCost *c, int x, int for_slot, int any_blue, uint8_t *spent,
                           const CostSpare *sp) {
  int nphy = phy_count(c);
  if (nphy > MAX_PHYREXIAN) game_limit(g, "Phyrexian mana symbols in one cost", MAX_PHYREXIAN);
  if (nphy) {
    /* 107.4f, 601.2h: for each Phyrexian symbol, the mana or 2 life, asked
     * only when both can lead to a full payment */
    unsigned life = 0;
    int i = 0;
    for (int col = 0; col < 5; col++)
      for (int k = 0; k < c->phyrexian[col] && i < nphy; k++, i++) {
        int by_mana = phy_feasible(g, player, c, x, for_slot, any_blue, life, i + 1);
        int by_life = phy_feasible(g, player, c, x, for_slot, any_blue, life | 1u << i, i + 1);
        if (by_life && (!by_mana || ask_yes_no(g, player, "107.4f", "pay 2 life rather than {%c} for {%c/P}?", "WUBRG"[col], "WUBRG"[col])))
          life |= 1u << i;
      }
    int lt;
    ManaCost m = phy_split(c, life, &lt);
    cost_pay_mana_sparing(g, player, &m, x, for_slot, any_blue, spent, sp);
    if (lt) {
      Event e;
      ev_init(&e, EV_LOSE_LIFE);
      e.player = (int8_t)player;
      e.amount = lt;
      e.rule = "107.4f";
      ev_one(g, &e);
    }
    return;
  }
  int kinds = alt_kinds(g, for_slot);
  if (kinds) {
    pay_alt(g, player, c, x, any_blue, kinds, for_slot, spent);
    return;
  }
  State *s = g->s;
  Unit u[MAX_UNITS];
  uint8_t req[MAX_UNITS];
  int assign[MAX_UNITS];
  int nr = requirements(c, x, req);
  if (!nr) return;
  int nu = gather(g, player, u, for_slot);
  if (sp) spare_tappers(g, player, sp, u, nu);
  if (nr > nu || !solve(u, nu, req, nr, 0, assign, any_blue)) {
    char mc[64];
    mana_format(c, mc, sizeof mc);
    game_illegal(g, "%s can't pay %s", player_name(g, player), mc);
  }
  /* activate the sources the solver chose, asking each for the color it is
   * needed as; a source whose triggered mana was chosen is tapped once, for
   * the color of its own mana if that is used too */
  for (int i = 0; i < nr; i++) {
    Unit *un = &u[assign[i]];
    if (un->pool || un->abi == -2) continue;
    /* a color its first mana ability adds if that fits, else one of the
     * others'; generic mana is taken as colorless when the source can add it */
    int color = -1;
    uint8_t first = mana_mask(g, un->slot, &chars(g, un->slot)->ab[un->abi]);
    if (req[i] == 0x3f && (un->mask >> COL_C & 1)) color = COL_C;
    for (int col = 0; col < COL_COUNT && color < 0; col++)
      if ((first >> col & 1) && (req[i] >> col & 1)) color = col;
    for (int col = 0; col < COL_COUNT && color < 0; col++)
      if ((un->mask >> col & 1) && (req[i] >> col & 1)) color = col;
    /* else the solver chose it for mana spent as though it were any color
     * (609.4b, fits): the color that may be spent so, not merely its first */
    for (int col = 0; col < COL_COUNT && color < 0; col++)
      if ((un->mask >> col & 1) && (any_blue >> col & 1)) color = col;
    /* the first of its mana abilities that adds that color */
    int abi = un->abi;
    const Chars *sc = chars(g, un->slot);
    for (int a = 0; a < sc->nab; a++)
      if (simple_mana_source(g, player, un->slot, a) && (mana_mask(g, un->slot, &sc->ab[a]) >> color & 1)) {
        abi = a;
        break;
      }
    activate_for(g, player, un->slot, abi, color);
  }
  for (int i = 0; i < nr; i++) {
    Unit *un = &u[assign[i]];
    if (un->abi != -2 || s->obj[un->slot].tapped) continue;
    for (int k = 0; k < nu; k++)
      if (u[k].slot == un->slot && u[k].abi >= 0) {
        activate_for(g, player, un->slot, u[k].abi, -1);
        break;
      }
  }
  /* pay from the pool: specific requirements first */
  int32_t *pool = s->c.pl[player].mana;
  for (int i = 0; i < nr; i++) {
    int best = -1;
    for (int col = 0; col < COL_COUNT; col++)
      if ((req[i] >> col & 1) && pool[col] > 0) {
        if (req[i] == 0x3f) {
          /* generic: spend what is least useful first (colorless, then the most plentiful) */
          if (best < 0 || col == COL_C || (best != COL_C && pool[col] > pool[best])) best = col;
        } else {
          best = col;
          break;
        }
      }
    for (int col = 0; col < COL_COUNT && best < 0 && req[i] != (1u << COL_C); col++)
      if ((any_blue >> col & 1) && pool[col] > 0) best = col;
    if (best < 0) game_illegal(g, "mana payment failed");
    pool[best]--;
    if (spent) *spent |= (uint8_t)(1u << best);
  }
  /* the total cost as paid: each {X} is its chosen value (601.2f) */
  ManaCost paid = *c;
  int64_t gen = (int64_t)paid.generic + (int64_t)paid.x * x;
  paid.generic = (uint8_t)(gen > 255 ? 255 : gen);
  paid.x = 0;
  char mc[64];
  mana_format(&paid, mc, sizeof mc);
  log_line(g, 0, "pay player=%s mana=%s", player_name(g, player), mc);
}

void mana_empty(G *g) {
  State *s = g->s;
  for (int p = 0; p < s->c.np; p++) {
    int any = 0;
    for (int col = 0; col < COL_COUNT; col++) any |= s->c.pl[p].mana[col];
    if (!any) continue;
    memset(s->c.pl[p].mana, 0, sizeof s->c.pl[p].mana);
    log_line(g, 0, "mana_empty player=%s", player_name(g, p));
  }
}

/* ---- other costs ---- */

static int sick(G *g, int slot) {
  const Obj *o = &g->s->obj[slot];
  const Chars *c = chars(g, slot);
  if (!(c->types & T_CREATURE) || (c->kw >> KW_HASTE & 1)) return 0;
  /* 302.6: controlled continuously since the start of its controller's most recent turn */
  return o->ctl_since >= g->s->c.pl[c->controller].turn_started;
}

int obj_sick(G *g, int slot) { return sick(g, slot); }

/* The player picks one of n objects (no question when there is one): its index. */
int pick_slot(G *g, int player, const int *cand, int n, const char *rule, const char *prompt) {
  if (n <= 1) return 0;
  dec_begin(g, MTG_D_CHOOSE, player, rule, "%s", prompt);
  for (int k = 0; k < n; k++) {
    char nm[110];
    fmt_slot(g, cand[k], nm, sizeof nm);
    dec_opt(g, MTG_O_OBJECT, g->s->obj[cand[k]].id, 0, -1, -1, "%s", nm);
  }
  return ask_pick(g);
}

/* The unblocked attacking creatures `player` controls (509.1h: an attacker is
 * unblocked once blockers are declared and none blocks it), which ninjutsu
 * returns (702.49a); fills cand (room for every slot), returns how many. The
 * decision offering them holds MAX_OPTIONS (dec_opt names that capacity). */
static int unblocked_attackers(G *g, int player, int *cand) {
  const State *s = g->s;
  int nb = bf_count(g), nc = 0;
  int16_t *bf = bf_list(g);
  if (!s->c.blockers_declared) return 0;
  for (int k = 0; k < nb; k++)
    if (s->obj[bf[k]].attacking && !s->obj[bf[k]].blocked && obj_controller(g, bf[k]) == player) cand[nc++] = bf[k];
  return nc;
}

/* The permanents `player` controls that a "sacrifice / tap N [quality]" part
 * can take: for tapping, untapped ones, and not the source when the same
 * cost taps it with {T}. Tapping creatures this way is not a {T} cost, so
 * summoning sickness doesn't matter (302.6). */
static int own_candidates(G *g, int player, int slot, const Cost *c, const CostPart *p, int *cand) {
  Ctx cx;
  ctx_for(g, &cx, player, oref(g, slot));
  int nb = bf_count(g), n = 0;
  int16_t *bf = bf_list(g);
  int self_tap = cost_has_tap(c); /* the source is among the candidates only on the battlefield */
  for (int k = 0; k < nb && n < MAX_OPTIONS; k++) {
    if (obj_controller(g, bf[k]) != player || !filter_match(g, &cx, p->f, bf[k])) continue;
    if (taps_others(p) && (g->s->obj[bf[k]].tapped || (self_tap && bf[k] == slot))) continue;
    cand[n++] = bf[k];
  }
  return n;
}

/* The total power of the creatures in cand; with positive_only, only those
 * whose power adds to it (the most a choice of them can reach). */
static long power_total(G *g, const int *cand, int n, int positive_only) {
  long sum = 0;
  for (int k = 0; k < n; k++) {
    const Chars *ch = chars(g, cand[k]);
    int pw = (ch->types & T_CREATURE) ? ch->power : 0;
    if (!positive_only || pw > 0) sum += pw;
  }
  return sum;
}

/* "Tap any number of other untapped creatures you control with total power N
 * or greater" (702.122a, 702.171a): the player chooses the creatures, then
 * they are tapped; a choice short of N is refused. Tapping them is not a {T}
 * cost, so summoning-sick creatures may be chosen (302.6); each tapped one
 * crews or saddles the permanent (702.122b, 702.171c). */
static void pay_tap_power(G *g, int player, int slot, const Cost *c, const CostPart *p) {
  int cand[MAX_OPTIONS], picked[MAX_OPTIONS], np = 0;
  int nc = own_candidates(g, player, slot, c, p, cand);
  if (power_total(g, cand, nc, 1) < p->n) game_illegal(g, "untapped creatures with total power %d or greater to tap", p->n);
  dec_begin(g, MTG_D_CHOOSE, player, "702.122a,702.171a", "choose untapped creatures with total power %d or greater to tap", p->n);
  for (int i = 0; i < nc; i++) {
    char nm[110];
    fmt_slot(g, cand[i], nm, sizeof nm);
    dec_opt(g, MTG_O_OBJECT, g->s->obj[cand[i]].id, 0, -1, -1, "%s", nm);
  }
  dec_range(g, 1, nc);
  int cnt;
  const int *v = dec_ask(g, 0, &cnt);
  for (int i = 0; i < cnt; i++) picked[np++] = cand[v[i]];
  long total = power_total(g, picked, np, 0);
  if (total < p->n) game_illegal(g, "the creatures chosen have total power %ld; %d or greater is needed", total, p->n);
  ORef refs[MAX_OPTIONS];
  for (int k = 0; k < np; k++) refs[k] = oref(g, picked[k]);
  for (int k = 0; k < np; k++)
    if (oref_ok(g, refs[k])) do_tap(g, refs[k].slot, 1);
}

/* The player picks `want` of the candidates (all of them when there are only
 * that many); fills out with their slots. */
static void pick_own(G *g, int player, const int *cand, int nc, int want, const char *rule, const char *what, int *out) {
  if (want > nc) game_illegal(g, "not enough permanents to %s", what);
  if (want <= 0) return;
  if (want == nc) {
    for (int i = 0; i < nc; i++) out[i] = cand[i];
    return;
  }
  dec_begin(g, MTG_D_CHOOSE, player, rule, "choose %d permanent%s to %s", want, want == 1 ? "" : "s", what);
  for (int i = 0; i < nc; i++) {
    char nm[110];
    fmt_slot(g, cand[i], nm, sizeof nm);
    dec_opt(g, MTG_O_OBJECT, g->s->obj[cand[i]].id, 0, -1, -1, "%s", nm);
  }
  dec_range(g, want, want);
  int cnt;
  const int *v = dec_ask(g, 0, &cnt);
  for (int i = 0; i < cnt && i < want; i++) out[i] = cand[v[i]];
}

/* The largest N a "sacrifice / tap N" part with N = X could be paid with. */
int cost_x_max(G *g, int player, int slot, const Cost *c) {
  int hi = 99;
  for (int i = 0; i < c->nparts; i++) {
    const CostPart *p = &c->part[i];
    if (p->n >= 0) continue;
    int cand[MAX_OPTIONS], m = 0;
    if (p->kind == CK_SAC || p->kind == CK_TAP_OTHERS || p->kind == CK_RETURN_OWN) m = own_candidates(g, player, slot, c, p, cand);
    else if (p->kind == CK_PAY_LIFE) m = g->s->c.pl[player].life;
    else m = zl_count(g, MTG_Z_GRAVEYARD, player); /* exile X from the graveyard: the loader allows X in no other part */
    if (m < hi) hi = m;
  }
  return hi;
}

/* How many cards in player's hand match f (NULL: any), other than except. */
static int count_in_hand(G *g, int player, const Filter *f, int src, int except) {
  Ctx cx;
  ctx_for(g, &cx, player, oref(g, src));
  int cnt = zl_count(g, MTG_Z_HAND, player), found = 0;
  int16_t *l = zl_list(g, MTG_Z_HAND, player);
  for (int k = 0; k < cnt; k++) {
    if (l[k] == except) continue;
    if (f) {
      Filter ff = *f;
      ff.zone = MTG_Z_HAND;
      if (!filter_match(g, &cx, &ff, l[k])) continue;
    }
    found++;
  }
  return found;
}

int cost_can_pay_parts(G *g, int player, int slot, const Cost *c) {
  State *s = g->s;
  const Obj *o = &s->obj[slot];
  for (int i = 0; i < c->nparts; i++) {
    const CostPart *p = &c->part[i];
    switch (p->kind) {
    case CK_TAP:
      if (o->tapped || o->zone != MTG_Z_BATTLEFIELD || sick(g, slot)) return 0;
      break;
    case CK_UNTAP:
      if (!o->tapped || sick(g, slot)) return 0;
      break;
    case CK_PAY_LIFE:
      /* 119.4, 119.8 */
      if (s->c.pl[player].life < p->n) return 0;
      if (p->n > 0 && rule_effect(g, SE_LIFE_CANT_CHANGE, player, -1, NULL, NULL)) return 0;
      break;
    case CK_REMOVE_COUNTERS:
      if (counters_get(o->c, o->nc, ckind_id(g, p->counter)) < p->n) return 0;
      break;
    case CK_PAY_COUNTERS:
      if (counters_get(s->c.pl[player].c, s->c.pl[player].nc, ckind_id(g, p->counter)) < p->n) return 0; /* 107.14 */
      break;
    case CK_LOYALTY:
      if (p->n < 0 && counters_get(o->c, o->nc, CN_LOYALTY) < -p->n) return 0; /* 606.6 */
      break;
    case CK_EXILE_TOP:
      if (zl_count(g, MTG_Z_LIBRARY, player) < p->n) return 0;
      break;
    case CK_ADD_COUNTERS: {
      Event e;
      ev_init(&e, EV_COUNTERS);
      e.obj = oref(g, slot);
      e.ckind = (uint8_t)ckind_id(g, p->counter);
      e.amount = p->n;
      if (!ev_possible(g, &e)) return 0; /* 614.17b */
      break;
    }
    case CK_EXILE_GRAVEYARD_N: {
      Ctx cx;
      ctx_for(g, &cx, player, oref(g, slot));
      Filter f = *p->f;
      f.zone = MTG_Z_GRAVEYARD;
      int n = zl_count(g, MTG_Z_GRAVEYARD, player), found = 0;
      int16_t *gy = zl_list(g, MTG_Z_GRAVEYARD, player);
      for (int k = 0; k < n; k++) found += filter_match(g, &cx, &f, gy[k]);
      if (found < (p->n > 0 ? p->n : 0)) return 0;
      break;
    }
    case CK_DISCARD:
      if (count_in_hand(g, player, p->f, slot, slot) < p->n) return 0;
      break;
    case CK_DISCARD_SELF:
      if (o->zone != MTG_Z_HAND || o->owner != player) return 0;
      break;
    case CK_SAC:
    case CK_TAP_OTHERS:
    case CK_RETURN_OWN: {
      int cand[MAX_OPTIONS];
      if (own_candidates(g, player, slot, c, p, cand) < (p->n < 0 ? 0 : p->n)) return 0;
      break;
    }
    case CK_TAP_POWER: {
      /* payable when all the creatures that add power together reach N */
      int cand[MAX_OPTIONS], nc = own_candidates(g, player, slot, c, p, cand);
      if (power_total(g, cand, nc, 1) < p->n) return 0;
      break;
    }
    case CK_EXILE_HAND:
      if (!count_in_hand(g, player, p->f, slot, slot)) return 0;
      break;
    case CK_RETURN_UNBLOCKED: {
      int cand[MAX_SLOTS];
      if (!unblocked_attackers(g, player, cand)) return 0; /* 702.49c: while a creature is unblocked (509.1h) */
      break;
    }
    default:
      break;
    }
  }
  return 1;
}

static int choose_own(G *g, int player, int zone, const Filter *f, int src, const char *why, int except) {
  State *s = g->s;
  Ctx cx;
  ctx_for(g, &cx, player, oref(g, src));
  int cand[MAX_OPTIONS], n = 0;
  int cnt = zone == MTG_Z_BATTLEFIELD ? zl_count(g, zone, 0) : zl_count(g, zone, player);
  int16_t *l = zone == MTG_Z_BATTLEFIELD ? zl_list(g, zone, 0) : zl_list(g, zone, player);
  for (int k = 0; k < cnt; k++) {
    if (l[k] == except) continue;
    if (zone == MTG_Z_BATTLEFIELD && obj_controller(g, l[k]) != player) continue;
    if (f) {
      Filter ff = *f;
      ff.zone = (int8_t)zone;
      if (!filter_match(g, &cx, &ff, l[k])) continue;
    }
    cand[n++] = l[k];
  }
  if (!n) game_illegal(g, "nothing to %s", why);
  if (n == 1) return cand[0];
  dec_begin(g, MTG_D_CHOOSE, player, "118.3", "choose a card to %s", why);
  for (int i = 0; i < n; i++) {
    char nm[110];
    fmt_slot(g, cand[i], nm, sizeof nm);
    dec_opt(g, MTG_O_OBJECT, s->obj[cand[i]].id, 0, -1, -1, "%s", nm);
  }
  return cand[ask_pick(g)];
}

void cost_pay_parts(G *g, int player, int slot, const Cost *c, StackItem *si) {
  State *s = g->s;
  uint32_t cause = si ? si->id : 0;
  uint16_t grant = si ? si->grant : 0;
  const char *label = si && si->ab ? si->ab->label : NULL;
  for (int i = 0; i < c->nparts; i++) {
    const CostPart *p = &c->part[i];
    const Obj *o = &s->obj[slot];
    switch (p->kind) {
    case CK_TAP:
      do_tap(g, slot, 1);
      break;
    case CK_UNTAP:
      do_tap(g, slot, 0);
      break;
    case CK_SAC_SELF:
      do_move(g, slot, EV_SACRIFICE, MTG_Z_GRAVEYARD, CA_COST, player, cause);
      break;
    case CK_EXILE_SELF:
      do_move(g, slot, EV_EXILE, MTG_Z_EXILE, CA_COST, player, cause);
      break;
    case CK_SAC:
    case CK_TAP_OTHERS:
    case CK_RETURN_OWN: {
      /* 601.2h, 602.2b: the permanents are chosen, then sacrificed / tapped / returned */
      int want = p->n >= 0 ? p->n : si ? si->ch.x : 0;
      int cand[MAX_OPTIONS], picked[MAX_OPTIONS];
      int nc = own_candidates(g, player, slot, c, p, cand);
      if (p->kind == CK_SAC && want == 1 && nc > 0) picked[0] = choose_own(g, player, MTG_Z_BATTLEFIELD, p->f, slot, "sacrifice", -1);
      else
        pick_own(g, player, cand, nc, want, p->kind == CK_SAC ? "701.21a" : "118.3",
                 p->kind == CK_SAC ? "sacrifice" : p->kind == CK_TAP_OTHERS ? "tap" : "return to its owner's hand", picked);
      ORef refs[MAX_OPTIONS];
      for (int k = 0; k < want; k++) refs[k] = oref(g, picked[k]);
      for (int k = 0; k < want; k++) {
        if (!oref_ok(g, refs[k])) continue;
        if (p->kind == CK_SAC) do_move(g, refs[k].slot, EV_SACRIFICE, MTG_Z_GRAVEYARD, CA_COST, player, cause);
        else if (p->kind == CK_RETURN_OWN) do_move(g, refs[k].slot, EV_ZONE, MTG_Z_HAND, CA_COST, player, cause);
        else do_tap(g, refs[k].slot, 1);
      }
      break;
    }
    case CK_TAP_POWER:
      pay_tap_power(g, player, slot, c, p);
      break;
    case CK_PAY_LIFE: {
      Event e;
      ev_init(&e, EV_LOSE_LIFE);
      e.player = (int8_t)player;
      e.amount = p->n;
      e.rule = "119.4";
      ev_one(g, &e);
      break;
    }
    case CK_REMOVE_COUNTERS:
      do_remove_counters(g, slot, -1, ckind_id(g, p->counter), p->n);
      break;
    case CK_PAY_COUNTERS:
      do_pay_counters(g, player, ckind_id(g, p->counter), p->n);
      break;
    case CK_ADD_COUNTERS:
      do_counters(g, slot, -1, ckind_id(g, p->counter), p->n, player, cause);
      break;
    case CK_LOYALTY:
      /* 606.4: a cost; the sign of n says which (each does nothing for an amount of 0 or less, so "0:" neither) */
      do_counters_as(g, slot, -1, CN_LOYALTY, p->n, player, cause, CA_COST);
      do_remove_counters(g, slot, -1, CN_LOYALTY, -p->n);
      break;
    case CK_DISCARD:
      for (int k = 0; k < p->n; k++) {
        int t = choose_own(g, player, MTG_Z_HAND, p->f, slot, "discard", slot);
        do_move(g, t, EV_DISCARD, MTG_Z_GRAVEYARD, CA_COST, player, cause);
      }
      break;
    case CK_DISCARD_SELF:
      if (o->zone != MTG_Z_HAND) game_illegal(g, "the card to discard is no longer in the hand");
      do_move(g, slot, EV_DISCARD, MTG_Z_GRAVEYARD, CA_COST, player, cause);
      break;
    case CK_EXILE_HAND: {
      int t = choose_own(g, player, MTG_Z_HAND, p->f, slot, "exile", slot);
      if (p->sets_x) {
        /* "exile a [quality] card with mana value X from your hand": X is its mana value */
        int mv = mana_value(&chars(g, t)->base->cost);
        if (si) si->ch.x = mv;
        obj_w(g, slot)->x = mv;
        char nm[110];
        fmt_slot(g, slot, nm, sizeof nm);
        log_line(g, 0, "choose obj=%s x=%d", nm, mv);
      }
      do_move(g, t, EV_EXILE, MTG_Z_EXILE, CA_COST, player, cause);
      break;
    }
    case CK_EXILE_TOP: {
      /* 607.2a: cards exiled by a cost of a linked ability are "exiled with" it */
      int n = zl_count(g, MTG_Z_LIBRARY, player) < p->n ? zl_count(g, MTG_Z_LIBRARY, player) : p->n;
      int16_t slots[MAX_SLOTS];
      memcpy(slots, zl_list(g, MTG_Z_LIBRARY, player), (size_t)n * sizeof *slots);
      for (int k = 0; k < n; k++) {
        Event e;
        ev_init(&e, EV_EXILE);
        e.obj = oref(g, slots[k]);
        e.from = MTG_Z_LIBRARY;
        e.to = MTG_Z_EXILE;
        e.cause = CA_COST;
        e.cause_ctl = (int8_t)player;
        e.cause_id = cause;
        if (label) {
          e.link_src = o->id;
          e.link_grant = grant;
          e.link_label = label;
        }
        ev_one(g, &e);
      }
      break;
    }
    case CK_EXILE_GRAVEYARD_N: {
      /* choose the cards, exile them; linked to the spell when labelled (607.2q) */
      Ctx cx;
      ctx_for(g, &cx, player, oref(g, slot));
      Filter f = *p->f;
      f.zone = MTG_Z_GRAVEYARD;
      int n = zl_count(g, MTG_Z_GRAVEYARD, player), k = 0;
      int16_t gy[MAX_SLOTS];
      memcpy(gy, zl_list(g, MTG_Z_GRAVEYARD, player), (size_t)n * sizeof *gy);
      /* every card of the graveyard may be a candidate: past the options
       * one decision holds, dec_opt stops the game naming that capacity */
      ORef cand[MAX_SLOTS];
      for (int i = 0; i < n; i++)
        if (filter_match(g, &cx, &f, gy[i])) cand[k++] = oref(g, gy[i]);
      int want = p->n;
      if (want > k) game_illegal(g, "not enough cards in the graveyard to exile");
      int picks[MAX_SLOTS], np = 0;
      if (want == k) {
        for (int i = 0; i < k; i++) picks[np++] = i;
      } else {
        dec_begin(g, MTG_D_CHOOSE, player, "601.2h", "exile %d card%s from your graveyard", want, want == 1 ? "" : "s");
        for (int i = 0; i < k; i++) {
          char nm[110];
          fmt_obj(g, cand[i], nm, sizeof nm);
          dec_opt(g, MTG_O_OBJECT, cand[i].id, 0, -1, -1, "%s", nm);
        }
        dec_range(g, want, want);
        int cnt;
        const int *v = dec_ask(g, 0, &cnt);
        for (int i = 0; i < cnt; i++) picks[np++] = v[i];
      }
      for (int i = 0; i < np; i++) {
        Event e;
        ev_init(&e, EV_EXILE);
        e.obj = cand[picks[i]];
        e.from = MTG_Z_GRAVEYARD;
        e.to = MTG_Z_EXILE;
        e.cause = CA_COST;
        e.cause_ctl = (int8_t)player;
        e.cause_id = cause;
        if (c->label_for_exile) {
          e.link_src = o->id;
          e.link_label = c->label_for_exile;
        }
        ev_one(g, &e);
      }
      break;
    }
    case CK_RETURN_UNBLOCKED: {
      /* 702.49a: return an unblocked attacking creature you control to its owner's hand */
      int cand[MAX_SLOTS], nc = unblocked_attackers(g, player, cand);
      if (!nc) break;
      int pick = pick_slot(g, player, cand, nc, "702.49a", "return an unblocked attacking creature you control to its owner's hand");
      const Obj *a = &s->obj[cand[pick]];
      if (si) {
        /* 702.49c: what it was attacking, for the creature put onto the battlefield attacking */
        si->ch.ret_atk_player = (uint8_t)(a->atk_player >= 0 ? a->atk_player + 1 : 0);
        si->ch.ret_atk_obj = a->atk_player >= 0 ? oref_none() : a->atk_obj;
      }
      do_move(g, cand[pick], EV_ZONE, MTG_Z_HAND, CA_COST, player, cause);
      break;
    }
    default:
      break;
    }
  }
}
