/* effect.c - the effect interpreter: runs the steps of a resolving spell or
 * ability, a replacement's "instead" program, or a triggered ability's effect.
 * Steps turn into events (event.c) and continuous effects (layer.c); choices
 * met on the way are decisions (game.c). Simultaneous results ("destroy all
 * creatures") are one batch of events. */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "num.h"

static const StaticSpec spec_pt = {.kind = SE_PT_MOD};
static const StaticSpec spec_kw = {.kind = SE_ADD_KEYWORDS};
static const StaticSpec spec_rmkw = {.kind = SE_REMOVE_KEYWORDS};
static const StaticSpec spec_lose = {.kind = SE_LOSE_ALL_ABILITIES};
static const StaticSpec spec_ctl = {.kind = SE_CONTROL};
static const StaticSpec spec_gain = {.kind = SE_GAIN_ABILITIES};
static const StaticSpec spec_mustblock = {.kind = SE_MUST_BLOCK};
static const Node one = {.op = E_INT, .i = 1};
/* the shields a resolving effect makes; of the match fields a damage
 * replacement reads only combat (-1: combat or not), a destroy one none */
static const ReplSpec spec_prevent_n = {.ev = RE_DAMAGE, .act = RA_PREVENT, .amount = &one, .combat = -1};
static const ReplSpec spec_prevent_all = {.ev = RE_DAMAGE, .act = RA_PREVENT, .combat = -1};
static const ReplSpec spec_regen = {.ev = RE_DESTROY, .act = RA_REGENERATE};

void ctx_init(G *g, Ctx *c) {
  memset(c, 0, offsetof(Ctx, res)); /* the buffers after it are used only once set */
  c->controller = g->s->c.active;
  c->src = oref_none();
  c->each_player = -1;
  c->it_player = -1;
  c->res_player = -1;
  c->forced_color = -1;
  c->each_obj = oref_none();
  c->defending = -1;
}

void res_clear(Ctx *c) {
  c->nres = c->nresl = c->nresold = 0;
  c->res_over = 0;
}

void res_add(Ctx *c, ORef r) {
  if (c->nres < NELEM(c->res)) c->res[c->nres++] = r;
  else c->res_over = 1;
}

int res_count(G *g, const Ctx *c) {
  if (c->res_over) game_limit(g, "objects in one step's result", MAX_SEL);
  return c->nres;
}

void ctx_for(G *g, Ctx *c, int controller, ORef src) {
  ctx_init(g, c);
  c->controller = controller;
  c->src = src;
}

void ctx_ability(G *g, Ctx *c, int slot, const Chars *ch, const AbRef *r) {
  ctx_for(g, c, ch->controller, oref(g, slot));
  c->def = r->def;
  c->grant = r->grant;
}

void ctx_from_stack(G *g, Ctx *c, StackItem *si) {
  ctx_init(g, c);
  c->controller = si->controller;
  c->src = si->kind == SI_SPELL ? oref(g, si->slot) : si->src;
  c->srclbuf = si->srcl;
  if (si->kind == SI_SPELL && oref_ok(g, c->src)) lki_of(g, si->slot, &c->srclbuf);
  else if (!oref_ok(g, c->src)) {
    /* a source that is gone acts as it last existed (113.7a, 608.2h) */
    const Lki *l = lki_find(g, si->srcl.id);
    if (l) c->srclbuf = *l;
  }
  c->srcl = &c->srclbuf;
  c->def = si->def;
  c->grant = si->grant;
  c->ab = si->ab;
  c->chbuf = si->ch;
  c->ch = &c->chbuf;
  c->spell_ch = si->kind == SI_SPELL;
  if (si->kind == SI_TRIGGERED) {
    c->tcbuf = si->tc;
    /* a reflexive ability's context has no event, only what was done (603.12);
     * a step trigger's has its event EV_STEP */
    c->tc = si->tc.ev || si->tc.obj.id || si->tc.amount ? &c->tcbuf : NULL;
  }
  c->cause_id = si->id;
  c->pushed_ts = si->pushed_ts;
  c->mana_spent = si->mana_spent;
  if (si->eff_id) {
    /* a delayed trigger remembers the objects of the effect that made it */
    for (int i = 0; i < g->s->c.neff; i++)
      if (g->s->eff[i].id == si->eff_id && g->s->eff[i].obj.id) {
        c->res[0] = g->s->eff[i].obj;
        c->nres = 1;
      }
  }
}

static void effect_base(G *g, Ctx *c, Effect *e, int kind, int dur) {
  memset(e, 0, sizeof *e);
  e->kind = (uint8_t)kind;
  e->dur = (uint8_t)dur;
  e->controller = (uint8_t)c->controller;
  e->source = c->src;
  if (c->srcl) e->srcl = *c->srcl;
  else if (oref_ok(g, c->src)) lki_of(g, c->src.slot, &e->srcl);
  e->def = c->def;
  e->grant = c->grant;
  e->obj = oref_none();
  e->player = -1;
  if (c->ch) e->ch = *c->ch;
}

static int dur_of(const Node *n, int dflt) { return n ? n->i : dflt; }

/* 603.7: a delayed triggered ability, created now, about obj. */
void eff_delayed(G *g, Ctx *c, const Ability *ab, int dur, ORef obj) {
  Effect e;
  effect_base(g, c, &e, EK_DELAYED, dur);
  e.ab = ab;
  e.obj = obj;
  /* "the next end step": the next time its step begins (603.7a), created
   * during the step itself or after it: next turn, or this turn when the
   * step comes again (a second combat damage step after a first-strike one,
   * 510.4; another cleanup step, 514.3a; a step of a phase added after this
   * one, 500.8), its abilities having been checked as it began */
  effect_add(g, &e);
}

static void result_set(G *g, Ctx *c, const Sel *s) {
  res_clear(c);
  for (int i = 0; i < s->n; i++) res_add(c, s->o[i]);
  c->res_player = s->np ? s->p[0] : -1;
  (void)g;
}


/* Damage from a source that is gone has the abilities it had as it last
 * existed (702.2e, 702.15c); a source still there is read when it deals it. */
static int lki_damage_flags(const Lki *l) {
  int f = 0;
  if (l && (l->kw >> KW_DEATHTOUCH & 1)) f |= EF_DEATHTOUCH;
  if (l && (l->kw >> KW_LIFELINK & 1)) f |= EF_LIFELINK;
  if (l && (l->kw >> KW_INFECT & 1)) f |= EF_INFECT;
  if (l && (l->kw >> KW_WITHER & 1)) f |= EF_WITHER; /* 702.80b */
  return f;
}

static int src_damage_flags(G *g, Ctx *c) {
  if (oref_ok(g, c->src)) return 0;
  const Lki *l = c->src.id ? lki_find(g, c->src.id) : NULL;
  return lki_damage_flags(l ? l : c->srcl);
}

/* Runs events of one type on every selected object at once. */
/* Moves (or taps) the objects of s in one batch of events; with `moved`,
 * the objects that arrived are the step's result. `attach_after`: the step
 * attaches what it puts onto the battlefield itself ("attached to [it]"), so
 * no Aura among them is attached as it enters (303.4f). */
static void batch_objects(G *g, Ctx *c, const Sel *s, int type, int to, int lib_pos, int flags, int etb_ctl, int tapped,
                          int attach_after, const char *link, Sel *moved) {
  int base = g->evtop;
  Event *e = ev_alloc(g, s->n);
  int n = 0;
  for (int i = 0; i < s->n; i++) {
    if (!oref_ok(g, s->o[i])) continue;
    /* 701.8a, 701.21a: only a permanent can be destroyed or sacrificed */
    if ((type == EV_DESTROY || type == EV_SACRIFICE) && g->s->obj[s->o[i].slot].zone != MTG_Z_BATTLEFIELD) continue;
    ev_init(&e[n], type);
    e[n].obj = s->o[i];
    e[n].from = (int8_t)g->s->obj[s->o[i].slot].zone;
    e[n].to = (int8_t)to;
    e[n].lib_pos = (int8_t)lib_pos;
    e[n].flags = (uint8_t)flags;
    e[n].cause_ctl = (int8_t)c->controller;
    e[n].cause_id = c->cause_id;
    e[n].cause = CA_EFFECT;
    e[n].etb_ctl = (int8_t)etb_ctl;
    e[n].etb_tapped = (uint8_t)tapped;
    if (attach_after) e[n].etb_attach = ETB_ATTACH_AFTER;
    e[n].face_down = (uint8_t)((flags & EF_FACE_DOWN) != 0);
    if (link) {
      e[n].link_src = c->src.id ? c->src.id : (c->srcl ? c->srcl->id : 0);
      e[n].link_grant = c->grant;
      e[n].link_label = link;
    }
    if (to == MTG_Z_BATTLEFIELD && c->src.id) e[n].cause_id = c->src.id;
    n++;
  }
  /* what moved from a public zone, as it last was there: "that creature" of
   * a value or a reflexive ability that follows (608.2h); what is put onto
   * the battlefield is the permanent it becomes, and a card from a hidden
   * zone is the card it became (the one that was milled, discarded) */
  Lki left[NELEM(c->resl)];
  uint32_t old[NELEM(c->resold)];
  for (int i = 0; moved && i < n; i++) {
    int kept = e[i].to != MTG_Z_BATTLEFIELD && e[i].from != e[i].to && e[i].from != MTG_Z_LIBRARY && e[i].from != MTG_Z_HAND;
    if (i < (int)NELEM(old)) old[i] = kept ? e[i].obj.id : 0;
    if (i >= (int)NELEM(left)) continue;
    left[i].id = 0;
    if (kept) lki_of(g, e[i].obj.slot, &left[i]);
  }
  if (n) ev_run(g, e, n);
  if (moved) {
    moved->n = moved->np = 0;
    Lki kept[NELEM(c->resl)];
    int nkept = 0;
    uint32_t olds[NELEM(c->resold)];
    for (int i = 0; i < n; i++) {
      /* a zone change makes a new object (400.7); tapping and untapping change it in place */
      int in_place = e[i].type == EV_TAP || e[i].type == EV_UNTAP;
      ORef r = in_place ? e[i].obj : (ORef){e[i].new_slot, e[i].new_id};
      if (e[i].done && oref_ok(g, r)) { /* moved->n <= i < n <= MAX_SEL: room is left */
        if (moved->n < (int)NELEM(kept)) {
          kept[moved->n] = i < (int)NELEM(left) ? left[i] : (Lki){0};
          nkept = moved->n + 1;
        }
        if (moved->n < (int)NELEM(olds)) olds[moved->n] = i < (int)NELEM(old) ? old[i] : 0;
        moved->o[moved->n++] = r;
      }
    }
    result_set(g, c, moved);
    memcpy(c->resl, kept, (size_t)nkept * sizeof *kept);
    c->nresl = (uint8_t)nkept;
    for (int i = 0; i < moved->n && i < (int)NELEM(olds); i++) c->resold[i] = olds[i];
    c->nresold = (uint16_t)(moved->n < (int)NELEM(olds) ? moved->n : (int)NELEM(olds));
  }
  g->evtop = base;
}

/* The same, for moves to a zone where no place, controller or tapped status
 * is chosen (a graveyard, exile, a hand) and for tapping and untapping. */
static void batch_move(G *g, Ctx *c, const Sel *s, int type, int to, int flags, const char *link, Sel *moved) {
  batch_objects(g, c, s, type, to, 0, flags, -1, 0, 0, link, moved);
}

/* Cards put into their owners' libraries: lib_pos 0 on top, 1 at the bottom, 2 shuffled in. */
static void batch_to_library(G *g, Ctx *c, const Sel *s, int lib_pos) {
  batch_objects(g, c, s, EV_ZONE, MTG_Z_LIBRARY, lib_pos, 0, -1, 0, 0, NULL, NULL);
}

/* The top cnt cards of player's library, added to out; a card entering the
 * battlefield from it while that is being modified is not among them (614.13c). */
static void library_top(G *g, int player, int cnt, Sel *out) {
  int ln = zl_count(g, MTG_Z_LIBRARY, player);
  int16_t *l = zl_list(g, MTG_Z_LIBRARY, player);
  for (int k = 0; k < ln && cnt > 0; k++) {
    int skip = 0;
    for (int j = 0; j < g->nentering; j++) skip |= g->entering[j] == g->s->obj[l[k]].id;
    if (skip) continue;
    sel_put(g, out, oref(g, l[k]));
    cnt--;
  }
}

static int choose_color(G *g, int player, const char *why) {
  dec_begin(g, MTG_D_COLOR, player, "", "choose a color %s", why);
  for (int i = 0; i < 5; i++) dec_opt(g, MTG_O_COLOR, 0, 0, -1, i, "%s", color_names[i]);
  return ask_pick(g);
}

/* Player p is offered to pay a mana cost (its {X} the value of x), with
 * energy {E} and ticket {TK} symbols paid by removing those counters from p
 * (107.14, 107.17a): returns whether they paid. Nothing is asked when it
 * can't be paid (a cost of {0} is asked: it is paid by acknowledging it, 118.5). */
static int offer_payment(G *g, Ctx *c, int p, const char *cost, const Node *x, const Node *times, const char *prompt) {
  ManaCost mc;
  char why[100], rest[256];
  int pc[N_COUNTER_SYMBOLS] = {0}; /* counter_symbols' counts */
  if (p < 0) return 0;
  if (!strcmp(cost, "mana_cost")) {
    /* "pay its mana cost": this object's, X being 0 (107.3f); none is an
     * unpayable cost (118.6) */
    const CardDef *d = oref_ok(g, c->src) ? chars(g, c->src.slot)->base : c->srcl ? c->srcl->def : NULL;
    if (!d || !d->cost.present) return 0;
    mc = d->cost;
    mc.x = 0;
  } else if (cost_counter_symbols(cost, rest, sizeof rest, pc) || mana_parse(rest, &mc, NULL, NULL, why, sizeof why)) {
    return 0;
  }
  if (times) {
    /* "pay [cost] for each ...": the whole set at once, or none of it (702.24a) */
    int t = expr_eval(g, c, times);
    if (t < 0) t = 0;
    ManaCost one = mc;
    memset(&mc, 0, sizeof mc);
    mc.present = 1;
    int most = one.generic;
    for (int i = 0; i < COL_COUNT; i++) most = one.colored[i] > most ? one.colored[i] : most;
    for (int i = 0; i < 5; i++) most = one.phyrexian[i] > most ? one.phyrexian[i] : most;
    if (most && t > 255 / most) game_limit(g, "mana symbols of one kind in a payment", 255);
    mana_add(&mc, &one, t);
    for (int k = 0; k < N_COUNTER_SYMBOLS; k++) pc[k] = num_mul(pc[k], t);
  }
  int xv = x ? expr_eval(g, c, x) : 0;
  if (xv < 0) xv = 0;
  ManaCost shown = mc;
  int gen = shown.generic + shown.x * xv;
  shown.generic = (uint8_t)(gen > 255 ? 255 : gen);
  shown.x = 0;
  char txt[96];
  int any_pc = 0, short_of = 0;
  for (int k = 0; k < N_COUNTER_SYMBOLS; k++) any_pc |= pc[k];
  if (mana_format(&shown, txt, sizeof txt) || (any_pc && !mana_value(&shown))) txt[0] = 0; /* no "{0}" before {E} */
  size_t len = strlen(txt);
  for (int k = 0; k < N_COUNTER_SYMBOLS; k++) {
    if (!pc[k]) continue;
    const char *sym = counter_symbols[k].sym;
    short_of |= counters_get(g->s->c.pl[p].c, g->s->c.pl[p].nc, ckind_id(g, counter_symbols[k].kind)) < pc[k];
    for (int i = 0; i < pc[k] && i < 8 && len + 5 < sizeof txt; i++) len += (size_t)snprintf(txt + len, sizeof txt - len, "%s", sym);
    if (pc[k] > 8 && len + 24 < sizeof txt) len += (size_t)snprintf(txt + len, sizeof txt - len, "... (%d)", pc[k]);
  }
  if (short_of || !cost_can_pay_mana(g, p, &mc, xv, -1, 0) ||
      !ask_yes_no(g, p, "603.5", "%s%s?", prompt ? prompt : "pay ", prompt ? "" : txt))
    return 0;
  cost_pay_mana(g, p, &mc, xv, -1, 0, NULL);
  for (int k = 0; k < N_COUNTER_SYMBOLS; k++)
    if (pc[k]) do_pay_counters(g, p, ckind_id(g, counter_symbols[k].kind), pc[k]);
  return 1;
}

/* One of the colors of mask (bits W U B R G C), the forced one if it is among them. */
static int pick_listed_color(G *g, int player, uint8_t mask, int forced) {
  if (forced >= 0 && (mask >> forced & 1)) return forced;
  int cols[COL_COUNT], n = 0;
  for (int col = 0; col < COL_COUNT; col++)
    if (mask >> col & 1) cols[n++] = col;
  if (n == 1) return cols[0];
  dec_begin(g, MTG_D_COLOR, player, "106.1", "choose the color of mana to add");
  for (int i = 0; i < n; i++) dec_opt(g, MTG_O_COLOR, 0, 0, -1, cols[i], "%s", color_names[cols[i]]);
  return cols[ask_pick(g)];
}

static void step_add_mana(G *g, Ctx *c, const Node *n) {
  const char *m = n->k[0]->s; /* the step's own key: always given (cardload.c) */
  Sel who;
  sel_eval(g, c, n->k[1], &who);
  int times = n->k[2] ? expr_eval(g, c, n->k[2]) : 1;
  int one_color = n->k[4] && n->k[4]->i; /* "N mana of any one color": one choice (106.1a) */
  for (int w = 0; w < who.np; w++) {
    int p = who.p[w];
    int col = -1;
    for (int t = 0; t < times; t++) {
      if (!strcmp(m, "any")) {
        if (col < 0 || !one_color) col = c->forced_color >= 0 ? c->forced_color : choose_color(g, p, "of mana to add");
        do_mana(g, p, col, 1, c->src);
      } else if (!strcmp(m, "chosen")) {
        /* 607.2d; 607.5a: with no choice made, nothing is added */
        const char *lb = n->k[3] && n->k[3]->s ? n->k[3]->s : "color";
        int col = link_find_color(g, c->src.id, c->grant, lb);
        if (col >= 0) do_mana(g, p, col, 1, c->src);
      } else {
        uint8_t mask;
        int one_of;
        char why[160];
        if (!mana_add_parse(m, &mask, &one_of, why, sizeof why) && one_of) {
          /* "Add {G} or {W}": one mana of a color chosen among them (106.1); a
           * payment that activated it for one of them gets that one */
          do_mana(g, p, pick_listed_color(g, p, mask, c->forced_color), 1, c->src);
          continue;
        }
        for (const char *q = m; *q; q++)
          if (*q == '{' && color_from_char(q[1]) >= 0 && q[2] == '}') do_mana(g, p, color_from_char(q[1]), 1, c->src);
      }
    }
  }
}

/* Whether "choose a card name" offers face d's name: a card's, not a token's
 * (a back face is read with token 2, a face of a card), of the card types the
 * filter asks for (none: any), by that face's own characteristics (201.4d). */
static int name_offered(const CardDef *d, const Filter *nf) {
  return d->token != 1 && !(nf && ((nf->types_any && !(d->types & nf->types_any)) || (d->types & nf->types_none)));
}

/* Each name once: a pool nearer the game may define a card of a name its parent
 * has too, and a face's name may be another card's (a pool's own names are
 * distinct). The names listed so far are found through a small hash table of
 * their indices: a search of the whole list for each of a pool's cards was a
 * strcmp per listed name, most of the cost of a "choose a card name" decision.
 * It has twice MAX_OPTIONS slots, so it is never full: dec_opt stops the game
 * before a decision lists more than MAX_OPTIONS names. */
#define NAME_SLOTS (2 * MAX_OPTIONS)
_Static_assert((NAME_SLOTS & (NAME_SLOTS - 1)) == 0, "name_slot masks by NAME_SLOTS - 1");

static unsigned name_slot(const char *name) {
  uint32_t h = 2166136261u;
  for (const unsigned char *c = (const unsigned char *)name; *c; c++) h = (h ^ *c) * 16777619u;
  return h & (NAME_SLOTS - 1);
}

/* Whether name is listed; if not, the slot where it goes in *at. slot holds
 * 1 + an index into names, 0 for a free slot. */
static int name_listed(const char *const *names, const int16_t *slot, const char *name, unsigned *at) {
  unsigned i = name_slot(name);
  for (; slot[i]; i = (i + 1) & (NAME_SLOTS - 1))
    if (!strcmp(names[slot[i] - 1], name)) return 1;
  *at = i;
  return 0;
}

/* Every name is offered: a pool with more names than a decision holds stops
 * the game (dec_opt's capacity) rather than leave a name out unsaid, since
 * the player may mean the one that would be missing. */
int name_options(G *g, const Filter *nf, const char **names) {
  int cnt = 0;
  int16_t slot[NAME_SLOTS] = {0};
  for (const mtg_pool *q = g->pool; q; q = q->parent)
    for (int i = 0; i < q->n; i++) {
      /* either face of a double-faced card (712.19, 201.4d) */
      const CardDef *faces[2] = {q->cards[i], q->cards[i]->back};
      for (int f = 0; f < 2 && faces[f]; f++) {
        unsigned at;
        if (!name_offered(faces[f], nf) || name_listed(names, slot, faces[f]->name, &at)) continue;
        dec_opt(g, MTG_O_NAME, 0, 0, -1, cnt, "%s", faces[f]->name);
        slot[at] = (int16_t)(cnt + 1);
        names[cnt++] = faces[f]->name;
      }
    }
  return cnt;
}

static void step_choose(G *g, Ctx *c, const Node *n) {
  const char *kind = n->k[0]->s;
  const char *label = n->k[1] ? n->k[1]->s : kind;
  Sel who;
  sel_eval(g, c, n->k[2], &who);
  int p = who.np ? who.p[0] : c->controller;
  uint32_t oid = c->src.id ? c->src.id : (c->srcl ? c->srcl->id : 0);
  State *s = g->s;
  if (!strcmp(kind, "color")) {
    int v = choose_color(g, p, "");
    link_add(g, oid, c->grant, label, LK_VALUE, v, NULL, oref_none());
    log_line(g, 0, "choose player=%s %s=%s", player_name(g, p), label, color_names[v]);
  } else if (!strcmp(kind, "player") || !strcmp(kind, "opponent")) {
    dec_begin(g, MTG_D_PLAYER, p, "", "choose a%s player", kind[0] == 'o' ? "n opponent" : "");
    int map[MAX_PLAYERS], k = 0;
    for (int q = 0; q < s->c.np; q++)
      if (player_alive(g, q) && (kind[0] == 'p' || opponents(g, p, q))) {
        map[k++] = q;
        dec_opt(g, MTG_O_PLAYER, 0, 0, q, -1, "%s", player_name(g, q));
      }
    if (!k) return;
    int v = map[ask_pick(g)];
    link_add(g, oid, c->grant, label, LK_VALUE, v, NULL, oref_none());
    log_line(g, 0, "choose player=%s %s=%s", player_name(g, p), label, player_name(g, v));
  } else if (!strcmp(kind, "word")) {
    const Node *w = n->k[3];
    if (!w) return;
    dec_begin(g, MTG_D_WORD, p, "607.2f", "choose");
    for (int i = 0; i < w->n; i++) dec_opt(g, MTG_O_WORD, 0, 0, -1, i, "%s", w->k[i]->s);
    int v = ask_pick(g);
    link_add(g, oid, c->grant, label, LK_NAME, v, w->k[v]->s, oref_none());
    log_line(g, 0, "choose player=%s %s=%s", player_name(g, p), label, w->k[v]->s);
  } else if (!strcmp(kind, "number")) {
    int v = ask_number(g, p, 0, 99, "choose a number");
    link_add(g, oid, c->grant, label, LK_VALUE, v, NULL, oref_none());
    log_line(g, 0, "choose player=%s %s=%d", player_name(g, p), label, v);
  } else if (!strcmp(kind, "name")) {
    dec_begin(g, MTG_D_NAME, p, "", "choose a card name");
    const char *names[MAX_OPTIONS];
    /* "choose a nonland card name": `from` says which cards' names by their card types */
    name_options(g, n->k[4] ? n->k[4]->f : NULL, names);
    int v = ask_pick(g);
    /* the name is the choice: its place in the pool's list means nothing (a
     * setup's chosen name is recorded the same way, and a game does not
     * depend on the pool's unused cards) */
    link_add(g, oid, c->grant, label, LK_NAME, 0, names[v], oref_none());
    log_line(g, 0, "choose player=%s %s=\"%s\"", player_name(g, p), label, names[v]);
  }
}

static void step_prevent(G *g, Ctx *c, const Node *n) {
  int all = !n->k[0] || (n->k[0]->op == E_INT && n->k[0]->j);
  int amount = all ? -1 : expr_eval(g, c, n->k[0]);
  /* a prevention scope (combat damage, damage from sources of a quality) with
   * no recipient named protects every player and object (615) */
  const ReplSpec *scope = n->ab ? &n->ab->rp : NULL;
  Sel to;
  if (scope && !n->k[1]) {
    to.n = 0;
    to.np = 1;
    to.p[0] = -1;
  } else {
    sel_eval(g, c, n->k[1], &to);
  }
  int dur = dur_of(n->k[3], DUR_EOT);
  int next = n->k[4] && n->k[4]->i;
  uint32_t chosen = 0;
  uint8_t colors = 0;
  if (n->k[2]) {
    /* 615.9: "a [quality] source of your choice" */
    const Filter *f = n->k[2]->f;
    Filter any = *f;
    if (any.zone == -1) any.zone = -2;
    dec_begin(g, MTG_D_CHOOSE, c->controller, "615.9", "choose a source");
    ORef cand[MAX_OPTIONS];
    int cnt = 0;
    for (int i = 0; i < g->s->c.nslots && cnt < MAX_OPTIONS; i++) {
      const Obj *o = &g->s->obj[i];
      if (!o->id || o->zone == MTG_Z_LIBRARY || o->zone == MTG_Z_HAND) continue;
      if (!filter_match(g, c, &any, i)) continue;
      char nm[110];
      fmt_slot(g, i, nm, sizeof nm);
      cand[cnt++] = oref(g, i);
      dec_opt(g, MTG_O_OBJECT, o->id, 0, -1, -1, "%s", nm);
    }
    if (!cnt) return;
    chosen = cand[ask_pick(g)].id;
    /* 615.9, 609.7b: the properties rechecked when it would deal damage */
    colors = f->mana_spent_color ? (uint8_t)(c->mana_spent & COLORS_ALL) : f->colors_any;
  }
  if (n->k[5]) {
    Sel srcs;
    sel_eval(g, c, n->k[5], &srcs);
    if (!srcs.n) return;
    chosen = srcs.o[0].id;
  }
  for (int i = 0; i < to.n + to.np; i++) {
    Effect e;
    effect_base(g, c, &e, EK_REPL, dur);
    e.rp = scope ? scope : all ? &spec_prevent_all : &spec_prevent_n;
    e.shield = amount;
    e.chosen_src = chosen;
    e.chosen_colors = colors;
    e.once = (uint8_t)next; /* "the next time" (615.7); "this turn" lasts */
    if (i < to.n) e.obj = to.o[i];
    else e.player = to.p[i - to.n];
    effect_add(g, &e);
  }
}

static void step_copy_spell(G *g, Ctx *c, const Node *n) {
  State *s = g->s;
  Sel what;
  sel_eval(g, c, n->k[0], &what);
  int times = n->k[1] ? expr_eval(g, c, n->k[1]) : 1;
  /* 707.10: the player who copies it controls the copy and chooses its new
   * targets ("that player may copy this spell"): `by`, else the effect's controller */
  int ctl = c->controller;
  if (n->k[3]) {
    Sel by;
    sel_eval(g, c, n->k[3], &by);
    if (!by.np) return;
    ctl = by.p[0];
  }
  for (int w = 0; w < what.n; w++) {
    int orig = what.o[w].slot;
    int si = -1;
    for (int i = 0; i < s->c.nstack; i++)
      if (s->stack[i].kind == SI_SPELL && s->stack[i].slot == orig) si = i;
    if (si < 0) continue;
    for (int t = 0; t < times; t++) {
      int slot = slot_alloc(g);
      Obj *o = obj_w(g, slot);
      StackItem base = s->stack[si];
      memset(o, 0, sizeof *o);
      o->id = new_id(g);
      o->card = -1;
      o->def = s->obj[orig].def;
      o->owner = o->controller = (uint8_t)ctl;
      o->kind = OK_SPELL_COPY;
      s->c.made_noncards = 1;
      o->zone = MTG_Z_STACK;
      o->ts = new_ts(g);
      o->attached = oref_none();
      o->attached_player = -1;
      /* a new object on the stack: its abilities that function there listen from
       * now on (stack_push marks the characteristics stale) */
      trig_index_dirty(g);
      StackItem cp = base;
      cp.id = o->id;
      cp.slot = (int16_t)slot;
      cp.controller = (uint8_t)ctl;
      cp.src = oref(g, slot);
      cp.copy = 1;
      int idx = stack_push(g, &cp);
      char nm[110];
      fmt_slot(g, slot, nm, sizeof nm);
      log_line(g, 0, "copy obj=%s of=#%u controller=%s rule=707.10", nm, (unsigned)s->obj[orig].id, player_name(g, ctl));
      if (n->k[2] && n->k[2]->i && ask_yes_no(g, ctl, "707.10c", "choose new targets for %s?", nm)) {
        uint32_t cid = s->stack[idx].id;
        choose_modes_targets(g, &s->stack[idx], ctl);
        stack_targeted(g, cid, -1);
      }
    }
  }
}

/* A divided step (601.2d): a gets the resolving mode's legal targets that
 * were given a share, with the shares of its objects and of its players; an
 * illegal target's share is not dealt or put (608.2b). 0: no choices to
 * read (the step then acts as written). */
static int divided_shares(G *g, const Ctx *c, Sel *a, int *oshare, int *pshare) {
  if (!c->ch) return 0;
  a->n = a->np = 0;
  for (int k = 0; k < choice_nslots(c->ch, c->mode); k++) {
    const Target *t = &c->ch->t[mode_slot(c->mode, k)];
    if (t->div <= 0) continue;
    if (t->kind == TK_OBJ && oref_ok(g, t->obj)) oshare[a->n] = t->div, a->o[a->n++] = t->obj;
    else if (t->kind == TK_PLAYER && player_alive(g, t->player)) pshare[a->np] = t->div, a->p[a->np++] = t->player;
  }
  return 1;
}

static void step_change_target(G *g, Ctx *c, const Node *n) {
  State *s = g->s;
  Sel what;
  sel_eval(g, c, n->k[0], &what);
  for (int w = 0; w < what.n; w++) {
    int si = -1;
    for (int i = 0; i < s->c.nstack; i++)
      if (s->stack[i].kind == SI_SPELL && s->stack[i].slot == what.o[w].slot) si = i;
    if (si < 0 || !s->stack[si].ab) continue;
    StackItem *it = &s->stack[si];
    int ti = -1;
    for (int i = 0; i < CHOICE_SLOTS; i++)
      if (it->ch.t[i].kind != TK_NONE) ti = i;
    const TargetSpec *ts = ti < 0 ? NULL : choice_slot_spec(it->ab, ti);
    if (!ts) continue;
    Target cur = it->ch.t[ti];
    /* 115.7d: the new target must be legal for that spell */
    Target cand[MAX_OPTIONS];
    int cnt = 0;
    for (int p = 0; p < s->c.np; p++) {
      Target t = {.kind = TK_PLAYER, .player = (int8_t)p, .obj = oref_none()};
      if (!(cur.kind == TK_PLAYER && cur.player == p) && target_legal(g, ts, &t, it->controller, oref(g, it->slot), chars(g, it->slot)))
        cand[cnt++] = t;
    }
    int nb = bf_count(g);
    int16_t *bf = bf_list(g);
    for (int i = 0; i < nb && cnt < MAX_OPTIONS; i++) {
      Target t = {.kind = TK_OBJ, .player = -1, .obj = oref(g, bf[i])};
      if (!(cur.kind == TK_OBJ && cur.obj.id == t.obj.id) && target_legal(g, ts, &t, it->controller, oref(g, it->slot), chars(g, it->slot)))
        cand[cnt++] = t;
    }
    if (!cnt) continue;
    char nm[110];
    fmt_slot(g, it->slot, nm, sizeof nm);
    dec_begin(g, MTG_D_TARGET, c->controller, "115.7d", "new target for %s", nm);
    for (int i = 0; i < cnt; i++) {
      char tn[110];
      fmt_target(g, &cand[i], tn, sizeof tn);
      dec_opt(g, cand[i].kind == TK_PLAYER ? MTG_O_PLAYER : MTG_O_OBJECT, cand[i].obj.id, 0, cand[i].player, -1, "%s", tn);
    }
    int v = ask_pick(g);
    si = -1;
    for (int i = 0; i < s->c.nstack; i++)
      if (s->stack[i].kind == SI_SPELL && s->stack[i].slot == what.o[w].slot) si = i;
    if (si < 0) continue;
    s->stack[si].ch.t[ti] = cand[v];
    s->stack[si].ch.t[ti].div = cur.div; /* 115.7f: the division can't be changed */
    char tn[110];
    fmt_target(g, &cand[v], tn, sizeof tn);
    log_line(g, 0, "change_target obj=%s to=%s", nm, tn);
    stack_targeted(g, s->stack[si].id, ti); /* 115.7: the new target becomes its target */
  }
}

static void reveal(G *g, Ctx *c, ORef o, int player) {
  Event r;
  ev_init(&r, EV_REVEAL);
  r.obj = o;
  r.player = (int8_t)player;
  r.cause_id = c->src.id;
  r.src = c->src;
  ev_one(g, &r);
}

/* The player orders m library cards they are putting on the top (bottom = 0)
 * or the bottom (bottom = 1) of a library: first listed is on top / highest. */
static void order_cards(G *g, int p, int16_t *l, int m, const char *rule, int bottom) {
  if (m < 2) return;
  dec_begin(g, MTG_D_ORDER, p, rule, bottom ? "order the cards for the bottom (first listed is highest)" : "order the cards for the top (first listed is on top)");
  for (int i = 0; i < m; i++) {
    char nm[110];
    fmt_slot(g, l[i], nm, sizeof nm);
    dec_opt(g, MTG_O_OBJECT, g->s->obj[l[i]].id, 0, -1, -1, "%s", nm);
  }
  int nv;
  const int *ord = dec_ask(g, 0, &nv);
  int16_t tmp[MAX_OPTIONS];
  for (int i = 0; i < m; i++) tmp[i] = l[ord[i]];
  memcpy(l, tmp, (size_t)m * sizeof *l);
}

/* Puts cards that left their place in player's library back on its top or
 * bottom, the first of l highest; no card changes zones. */
static void library_put(G *g, int p, const int16_t *l, int m, int bottom) {
  if (bottom)
    for (int i = 0; i < m; i++) zl_insert(g, MTG_Z_LIBRARY, p, l[i], -1);
  else
    for (int i = m - 1; i >= 0; i--) zl_insert(g, MTG_Z_LIBRARY, p, l[i], 0);
}

/* 701.23: the searcher looks at the library and finds cards matching the
 * filter (701.23b: may fail to find); `of` names whose library, else their
 * own. The cards found go to `to`; to a library: the library is shuffled,
 * then they are put on top ("then shuffle and put that card on top"). */
static void step_search(G *g, Ctx *c, const Node *n) {
  State *s = g->s;
  const Filter *f = n->k[0]->f;
  Sel who;
  sel_eval(g, c, n->k[1], &who);
  int to = n->k[2] ? n->k[2]->i : MTG_Z_HAND;
  int tapped = n->k[3] && n->k[3]->i;
  int want = n->k[4] ? expr_eval(g, c, n->k[4]) : 1;
  c->did = 0;
  for (int w = 0; w < who.np; w++) {
    int p = who.p[w];
    Sel libs;
    if (n->k[7]) sel_eval(g, c, n->k[7], &libs);
    else libs.np = 1, libs.p[0] = p;
    for (int li = 0; li < libs.np; li++) {
      int q = libs.p[li];
      /* the zones searched: the library, or those listed ("your graveyard,
       * hand, and/or library"); with and/or, searching the library (and so
       * shuffling it) is the searcher's choice */
      int zmask = 1 << MTG_Z_LIBRARY;
      if (n->k[8]) {
        zmask = 0;
        for (int i = 0; i < n->k[8]->n; i++) {
          const char *zn = n->k[8]->k[i]->s;
          zmask |= 1 << (!strcmp(zn, "graveyard") ? MTG_Z_GRAVEYARD : !strcmp(zn, "hand") ? MTG_Z_HAND : MTG_Z_LIBRARY);
        }
      }
      int lib = zmask >> MTG_Z_LIBRARY & 1;
      if (lib && n->k[9] && n->k[9]->i && (zmask & ~(1 << MTG_Z_LIBRARY)))
        lib = ask_yes_no(g, p, "701.23", "search %s library as well?", q == p ? "your" : player_name(g, q));
      static const int zorder[] = {MTG_Z_GRAVEYARD, MTG_Z_HAND, MTG_Z_LIBRARY};
      ORef cand[MAX_OPTIONS];
      int k = 0, pub = 0;
      for (int zi = 0; zi < 3; zi++) {
        int z = zorder[zi];
        if (!(zmask >> z & 1) || (z == MTG_Z_LIBRARY && !lib)) continue;
        Filter lf = *f;
        lf.zone = (int8_t)z;
        int cnt = zl_count(g, z, q);
        int16_t *l = zl_list(g, z, q);
        for (int i = 0; i < cnt && k < MAX_OPTIONS; i++)
          if (filter_match(g, c, &lf, l[i])) {
            cand[k++] = oref(g, l[i]);
            pub += z == MTG_Z_GRAVEYARD;
          }
      }
      Sel chosen;
      chosen.n = chosen.np = 0;
      if (k) {
        /* 701.23b: a search of a hidden zone for cards with a stated quality
         * may fail to find; what matches in a graveyard (public) is found */
        const char *what = zmask == 1 << MTG_Z_LIBRARY ? "library" : "cards";
        if (q == p) dec_begin(g, MTG_D_CHOOSE, p, "701.23", "search your %s", what);
        else dec_begin(g, MTG_D_CHOOSE, p, "701.23", "search %s's %s", player_name(g, q), what);
        for (int i = 0; i < k; i++) {
          char nm[110];
          fmt_obj(g, cand[i], nm, sizeof nm);
          dec_opt(g, MTG_O_OBJECT, cand[i].id, 0, -1, -1, "%s", nm);
        }
        int most = num_min(want, k);
        dec_range(g, n->j || pub > most ? most : pub, most);
        int nv;
        const int *v = dec_ask(g, 0, &nv);
        for (int i = 0; i < nv; i++) chosen.o[chosen.n++] = cand[v[i]];
      }
      /* "search ... for a card, reveal it, put it into your hand" */
      for (int i = 0; n->k[6] && n->k[6]->i && i < chosen.n; i++) reveal(g, c, chosen.o[i], p);
      c->did |= chosen.n > 0;
      if (to == MTG_Z_LIBRARY) {
        if (lib) do_shuffle(g, q);
        /* "then shuffle and put that card on top": it stays in the library */
        int16_t top[MAX_OPTIONS];
        int m = 0;
        for (int i = 0; i < chosen.n; i++)
          if (oref_ok(g, chosen.o[i]) && s->obj[chosen.o[i].slot].zone == MTG_Z_LIBRARY) top[m++] = chosen.o[i].slot;
        order_cards(g, p, top, m, "701.23", 0);
        for (int i = 0; i < m; i++) zl_remove(g, MTG_Z_LIBRARY, q, top[i]);
        library_put(g, q, top, m, 0);
        for (int i = 0; i < m; i++) {
          char nm[110];
          fmt_slot(g, top[i], nm, sizeof nm);
          log_line(g, 0, "put_on_top obj=%s player=%s rule=701.23", nm, player_name(g, q));
        }
        result_set(g, c, &chosen);
        continue;
      }
      Sel moved, onto;
      onto.n = onto.np = 0;
      if (n->k[10] && to == MTG_Z_BATTLEFIELD) {
        /* "put it onto the battlefield attached to [it]": an Aura that can't
         * legally enchant that object stays where it is (303.4i) */
        sel_eval(g, c, n->k[10], &onto);
        Sel keep;
        keep.n = keep.np = 0;
        for (int i = 0; i < chosen.n; i++) {
          const Chars *ch = chars(g, chosen.o[i].slot);
          int aura = is_aura(ch);
          if (aura && !(onto.n && oref_ok(g, onto.o[0]) && s->obj[onto.o[0].slot].zone == MTG_Z_BATTLEFIELD &&
                        aura_can_enchant(g, chosen.o[i].slot, onto.o[0].slot, p)))
            continue;
          keep.o[keep.n++] = chosen.o[i];
        }
        chosen = keep;
      }
      /* "exile it face down" (406.3) */
      int fd = to == MTG_Z_EXILE && n->k[11] && n->k[11]->i ? EF_FACE_DOWN : 0;
      batch_objects(g, c, &chosen, to == MTG_Z_EXILE ? EV_EXILE : EV_ZONE, to, 0, fd, to == MTG_Z_BATTLEFIELD ? p : -1, tapped,
                    onto.n != 0, NULL, &moved);
      /* 303.4h: an Aura, Equipment or Fortification enters attached (one
       * that can't stay so is unattached by 704.5n); anything else unattached */
      for (int i = 0; onto.n && i < moved.n; i++) {
        const Chars *ch = chars(g, moved.o[i].slot);
        int attaches = is_aura(ch) ||
                       ((ch->types & T_ARTIFACT) && (has_subtype(ch, "Equipment") || has_subtype(ch, "Fortification")));
        if (attaches && oref_ok(g, onto.o[0])) do_attach(g, moved.o[i].slot, onto.o[0], -1);
      }
      if (lib) do_shuffle(g, q);
    }
  }
}

/* 701.9: discard. With `filter`, only cards with that quality ("discard a
 * nonland card"): the discarding player chooses among them; with `by`, that
 * player chooses instead ("you choose a card from it. That player discards
 * that card"); with `reveal`, the hand is revealed first. */
static void step_discard(G *g, Ctx *c, const Node *n) {
  State *s = g->s;
  Sel who;
  sel_eval(g, c, n->k[1], &who);
  /* the step's own key (always given, cardload.c): a number, or all */
  int all = n->k[0]->op == E_INT && n->k[0]->j;
  int want = all ? 1 << 20 : expr_eval(g, c, n->k[0]);
  int random = n->k[2] && n->k[2]->i;
  const Filter *f = n->k[3] ? n->k[3]->f : NULL;
  Sel pick;
  pick.n = pick.np = 0;
  for (int w = 0; w < who.np; w++) {
    int p = who.p[w];
    int chooser = p;
    if (n->k[4]) {
      Sel by;
      sel_eval(g, c, n->k[4], &by);
      if (by.np) chooser = by.p[0];
    }
    int hn = zl_count(g, MTG_Z_HAND, p);
    int16_t *hl = zl_list(g, MTG_Z_HAND, p);
    if (n->k[5] && n->k[5]->i)
      for (int i = 0; i < hn; i++) reveal(g, c, oref(g, hl[i]), p);
    int16_t hbuf[MAX_OPTIONS], *h = hl;
    int cnt = hn;
    if (f) {
      Filter hf = *f;
      hf.zone = MTG_Z_HAND;
      h = hbuf;
      cnt = 0;
      for (int i = 0; i < hn && cnt < MAX_OPTIONS; i++)
        if (filter_match(g, c, &hf, hl[i])) h[cnt++] = hl[i];
    }
    int k = num_min(want, cnt);
    if (k == cnt && chooser == p) {
      for (int i = 0; i < cnt; i++) pick.o[pick.n++] = oref(g, h[i]);
      continue;
    }
    if (random) {
      int idx[MAX_OPTIONS];
      for (int i = 0; i < cnt; i++) idx[i] = i;
      for (int i = 0; i < k; i++) {
        int j = i + rng_below(s->c.rng, cnt - i);
        int t = idx[i];
        idx[i] = idx[j];
        idx[j] = t;
        pick.o[pick.n++] = oref(g, h[idx[i]]);
      }
      continue;
    }
    if (!k) continue;
    if (chooser == p) dec_begin(g, MTG_D_CHOOSE, p, "701.9", "discard %d card%s", k, k == 1 ? "" : "s");
    else dec_begin(g, MTG_D_CHOOSE, chooser, "701.9", "choose %d card%s %s discards", k, k == 1 ? "" : "s", player_name(g, p));
    for (int i = 0; i < cnt; i++) {
      char nm[110];
      fmt_slot(g, h[i], nm, sizeof nm);
      dec_opt(g, MTG_O_OBJECT, s->obj[h[i]].id, 0, -1, -1, "%s", nm);
    }
    dec_range(g, k, k);
    int nv;
    const int *v = dec_ask(g, 0, &nv);
    for (int i = 0; i < nv; i++) pick.o[pick.n++] = oref(g, h[v[i]]);
  }
  Sel discarded;
  batch_move(g, c, &pick, EV_DISCARD, MTG_Z_GRAVEYARD, 0, NULL, &discarded); /* the result: the cards discarded */
  c->did = discarded.n > 0;
}

/* The player looks at the top k cards of their library (k > 0, at most
 * MAX_OPTIONS) and chooses any number of them to set apart (`prompt`): top
 * gets the k cards, apart and keep (each in library order) the split. */
static void library_look_split(G *g, int p, int k, const char *rule, const char *prompt, int16_t *top, int16_t *apart,
                               int *napart, int16_t *keep, int *nkeep) {
  State *s = g->s;
  memcpy(top, zl_list(g, MTG_Z_LIBRARY, p), (size_t)k * sizeof *top);
  dec_begin(g, MTG_D_CHOOSE, p, rule, "%s", prompt);
  for (int i = 0; i < k; i++) {
    char nm[110];
    fmt_slot(g, top[i], nm, sizeof nm);
    dec_opt(g, MTG_O_OBJECT, s->obj[top[i]].id, 0, -1, -1, "%s", nm);
  }
  dec_range(g, 0, k);
  int nv;
  const int *v = dec_ask(g, 0, &nv);
  unsigned char set[MAX_OPTIONS] = {0};
  for (int i = 0; i < nv; i++) set[v[i]] = 1;
  *napart = *nkeep = 0;
  for (int i = 0; i < k; i++) {
    if (set[i]) apart[(*napart)++] = top[i];
    else keep[(*nkeep)++] = top[i];
  }
}

/* How many cards a scry or surveil of `want` looks at in p's library: 0 when
 * there is no such event (701.22b, 701.25c: N of 0, or an empty library). */
static int library_look_count(G *g, int p, int want) {
  int k = num_min(want, zl_count(g, MTG_Z_LIBRARY, p));
  return k <= 0 ? 0 : k > MAX_OPTIONS ? MAX_OPTIONS : k;
}

/* Scry (701.22a: look at the top N cards, put any number on the bottom in
 * any order and the rest on top in any order) and surveil (701.25a: any
 * number into the graveyard, the rest on top in any order). N of 0 is no
 * scry or surveil (701.22b, 701.25c). The surveiled cards go to the
 * graveyard as one zone change (not a mill: 701.17 is its own action),
 * which replacement effects may change (614.1); the scried ones never
 * leave the library. */
static void step_scry_surveil(G *g, Ctx *c, const Node *n, int surveil) {
  int want = expr_eval(g, c, n->k[0]); /* the step's own key: always given (cardload.c) */
  const char *rule = surveil ? "701.25a" : "701.22a";
  Sel who;
  sel_eval(g, c, n->k[1], &who);
  for (int w = 0; w < who.np; w++) {
    int p = who.p[w], k = library_look_count(g, p, want);
    if (!k) continue;
    int16_t top[MAX_OPTIONS], keep[MAX_OPTIONS], apart[MAX_OPTIONS];
    int nk, nap;
    char prompt[72];
    snprintf(prompt, sizeof prompt, surveil ? "surveil %d: choose the cards to put into your graveyard"
                                            : "scry %d: choose the cards to put on the bottom", k);
    library_look_split(g, p, k, rule, prompt, top, apart, &nap, keep, &nk);
    order_cards(g, p, keep, nk, rule, 0);
    if (surveil) {
      Sel to_gy, moved;
      to_gy.n = to_gy.np = 0;
      for (int i = 0; i < nap; i++) to_gy.o[to_gy.n++] = oref(g, apart[i]);
      for (int i = 0; i < nk; i++) zl_remove(g, MTG_Z_LIBRARY, p, keep[i]);
      library_put(g, p, keep, nk, 0);
      batch_move(g, c, &to_gy, EV_ZONE, MTG_Z_GRAVEYARD, 0, NULL, &moved);
      log_line(g, 0, "surveil player=%s n=%d top=%d graveyard=%d rule=701.25a", player_name(g, p), k, nk, nap);
      continue;
    }
    order_cards(g, p, apart, nap, rule, 1);
    /* the library keeps its other cards; no card changes zones */
    for (int i = 0; i < k; i++) zl_remove(g, MTG_Z_LIBRARY, p, top[i]);
    library_put(g, p, keep, nk, 0);
    library_put(g, p, apart, nap, 1);
    log_line(g, 0, "scry player=%s n=%d top=%d bottom=%d rule=701.22a", player_name(g, p), k, nk, nap);
  }
}

static int has_counters(const Counter *c, int nc) {
  for (int i = 0; i < nc; i++)
    if (c[i].n > 0) return 1;
  return 0;
}

/* 701.34a: the player chooses any number of permanents and/or players that
 * have a counter, then gives each one additional counter of each kind it
 * already has, all at once. */
static void step_proliferate(G *g, Ctx *c, const Node *n) {
  State *s = g->s;
  Sel who;
  sel_eval(g, c, n->k[0], &who);
  for (int w = 0; w < who.np; w++) {
    int p = who.p[w];
    int16_t objs[MAX_OPTIONS];
    int no = 0, npl = 0, pls[MAX_PLAYERS];
    int nb = bf_count(g);
    const int16_t *bf = bf_list(g);
    for (int i = 0; i < nb && no < MAX_OPTIONS; i++)
      if (has_counters(s->obj[bf[i]].c, s->obj[bf[i]].nc)) objs[no++] = bf[i];
    for (int q = 0; q < s->c.np; q++)
      if (player_alive(g, q) && has_counters(s->c.pl[q].c, s->c.pl[q].nc)) pls[npl++] = q;
    if (!no && !npl) continue;
    dec_begin(g, MTG_D_CHOOSE, p, "701.34a", "proliferate: choose any number of permanents and/or players with counters");
    for (int i = 0; i < no; i++) {
      char nm[110];
      fmt_slot(g, objs[i], nm, sizeof nm);
      dec_opt(g, MTG_O_OBJECT, s->obj[objs[i]].id, 0, -1, -1, "%s", nm);
    }
    for (int i = 0; i < npl; i++) dec_opt(g, MTG_O_PLAYER, 0, 0, pls[i], -1, "%s", player_name(g, pls[i]));
    dec_range(g, 0, no + npl);
    int nv;
    const int *v = dec_ask(g, 0, &nv);
    int base = g->evtop, k = 0;
    Event *ev = ev_alloc(g, nv * MAX_CKINDS);
    for (int i = 0; i < nv; i++) {
      const Counter *cs = v[i] < no ? s->obj[objs[v[i]]].c : s->c.pl[pls[v[i] - no]].c;
      int ncs = v[i] < no ? s->obj[objs[v[i]]].nc : s->c.pl[pls[v[i] - no]].nc;
      for (int j = 0; j < ncs; j++) {
        if (cs[j].n <= 0) continue;
        ev_init(&ev[k], EV_COUNTERS);
        if (v[i] < no) ev[k].obj = oref(g, objs[v[i]]);
        else ev[k].player = (int8_t)pls[v[i] - no];
        ev[k].ckind = cs[j].kind;
        ev[k].amount = 1;
        ev[k].cause_ctl = (int8_t)c->controller;
        ev[k].cause_id = c->cause_id;
        k++;
      }
    }
    if (k) ev_run(g, ev, k);
    g->evtop = base;
  }
}

/* "Look at (reveal) the top N cards of [a] library": the player (`who`,
 * default the controller) looks at them (701.20e; reveals them, 701.20a),
 * may take up to `n` cards matching `take` among them (exactly n, as many as
 * there are, unless `optional`) to `to`, and puts the rest as `rest` says:
 * stay (where they are), top or bottom (in any order), bottom_random (in a
 * random order), or into a graveyard, a hand, exile. The result is what was
 * taken. */
static void step_look_top(G *g, Ctx *c, const Node *n) {
  State *s = g->s;
  static const char *const rest_names[] = {"stay", "top", "bottom", "bottom_random", "graveyard", "hand", "exile"};
  int want = expr_eval(g, c, n->k[0]); /* the step's own key: always given */
  Sel libs;
  sel_eval(g, c, n->k[1], &libs);
  int revealed = n->k[2] && n->k[2]->i;
  int take = n->k[4] ? expr_eval(g, c, n->k[4]) : 1;
  int optional = n->k[5] && n->k[5]->i;
  int to = n->k[6] ? n->k[6]->i : MTG_Z_HAND;
  int tapped = n->k[7] && n->k[7]->i;
  int rest = 0;
  for (int i = 0; n->k[8] && i < (int)NELEM(rest_names); i++)
    if (!strcmp(n->k[8]->s, rest_names[i])) rest = i;
  int p = c->controller;
  if (n->k[10]) {
    Sel who;
    sel_eval(g, c, n->k[10], &who);
    if (who.np) p = who.p[0];
  }
  Sel taken;
  taken.n = taken.np = 0;
  c->did = 0;
  for (int li = 0; li < libs.np; li++) {
    int q = libs.p[li];
    Sel top;
    top.n = top.np = 0;
    library_top(g, q, want < MAX_OPTIONS ? want : MAX_OPTIONS, &top);
    if (!top.n) continue;
    if (revealed)
      for (int i = 0; i < top.n; i++) reveal(g, c, top.o[i], q);
    else
      log_line(g, 0, "look player=%s of=%s n=%d rule=701.20e", player_name(g, p), player_name(g, q), top.n);
    unsigned char took[MAX_OPTIONS] = {0};
    Sel chosen;
    chosen.n = chosen.np = 0;
    if (n->k[3]) {
      Filter tf = *n->k[3]->f;
      tf.zone = MTG_Z_LIBRARY;
      int cand[MAX_OPTIONS], k = 0;
      for (int i = 0; i < top.n; i++)
        if (filter_match(g, c, &tf, top.o[i].slot)) cand[k++] = i;
      int most = num_min(take, k);
      if (most > 0) {
        dec_begin(g, MTG_D_CHOOSE, p, revealed ? "701.20a" : "701.20e", "choose up to %d of the cards", most);
        for (int i = 0; i < k; i++) {
          char nm[110];
          fmt_obj(g, top.o[cand[i]], nm, sizeof nm);
          dec_opt(g, MTG_O_OBJECT, top.o[cand[i]].id, 0, -1, -1, "%s", nm);
        }
        dec_range(g, optional ? 0 : most, most);
        int nv;
        const int *v = dec_ask(g, 0, &nv);
        for (int i = 0; i < nv; i++) {
          took[cand[v[i]]] = 1;
          chosen.o[chosen.n++] = top.o[cand[v[i]]];
        }
      }
    }
    /* "you may reveal a creature card from among them and put it into your hand" */
    for (int i = 0; n->k[9] && n->k[9]->i && i < chosen.n; i++) reveal(g, c, chosen.o[i], q);
    Sel moved;
    batch_objects(g, c, &chosen, EV_ZONE, to, 0, 0, to == MTG_Z_BATTLEFIELD ? p : -1, tapped, 0, NULL, &moved);
    for (int i = 0; i < moved.n && taken.n < MAX_SEL; i++) taken.o[taken.n++] = moved.o[i];
    c->did |= moved.n > 0;
    /* the rest: those still in the library (a replacement may have kept one there) */
    int16_t l[MAX_OPTIONS];
    Sel others;
    int m = 0;
    others.n = others.np = 0;
    for (int i = 0; i < top.n; i++)
      if (!took[i] && oref_ok(g, top.o[i]) && s->obj[top.o[i].slot].zone == MTG_Z_LIBRARY) {
        l[m++] = top.o[i].slot;
        others.o[others.n++] = top.o[i];
      }
    if (!m || rest == 0) continue;
    if (rest >= 4) {
      static const int zones[] = {MTG_Z_GRAVEYARD, MTG_Z_HAND, MTG_Z_EXILE};
      batch_move(g, c, &others, rest == 6 ? EV_EXILE : EV_ZONE, zones[rest - 4], 0, NULL, NULL);
      continue;
    }
    if (rest == 3) {
      /* a random order (the library's own order is not information to keep) */
      for (int i = m - 1; i > 0; i--) {
        int j = rng_below(s->c.rng, i + 1);
        int16_t x = l[i];
        l[i] = l[j];
        l[j] = x;
      }
    } else {
      order_cards(g, p, l, m, revealed ? "701.20a" : "701.20e", rest == 2);
    }
    for (int i = 0; i < m; i++) zl_remove(g, MTG_Z_LIBRARY, q, l[i]);
    library_put(g, q, l, m, rest != 1);
    log_line(g, 0, "library_order player=%s n=%d to=%s rule=%s", player_name(g, q), m, rest == 1 ? "top" : "bottom",
             revealed ? "701.20a" : "701.20e");
  }
  result_set(g, c, &taken);
}

/* 701.44a: a permanent explores: its controller (k[1]: as it last existed if
 * it has left, 701.44c) reveals the top card of their library. A land card
 * goes to their hand; otherwise a +1/+1 counter on the permanent, and the
 * player may put the card into their graveyard. It has explored even if some
 * of that was impossible (701.44b): an empty library, a permanent gone. */
static void step_explore(G *g, Ctx *c, const Node *n) {
  State *s = g->s;
  Sel who, top, perm;
  sel_eval(g, c, n->k[1], &who);
  if (!who.np) return;
  int p = who.p[0];
  top.n = top.np = 0;
  library_top(g, p, 1, &top);
  if (top.n) reveal(g, c, top.o[0], p);
  if (top.n && (chars(g, top.o[0].slot)->types & T_LAND)) {
    batch_move(g, c, &top, EV_ZONE, MTG_Z_HAND, 0, NULL, NULL);
    return;
  }
  sel_eval(g, c, n->k[0], &perm);
  for (int i = 0; i < perm.n; i++)
    if (oref_ok(g, perm.o[i]) && s->obj[perm.o[i].slot].zone == MTG_Z_BATTLEFIELD)
      do_counters(g, perm.o[i].slot, -1, CN_PLUS1, 1, c->controller, c->cause_id);
  /* the revealed card, if it is still on top (a replacement may have moved it) */
  if (!top.n || !oref_ok(g, top.o[0]) || s->obj[top.o[0].slot].zone != MTG_Z_LIBRARY) return;
  char nm[110];
  fmt_obj(g, top.o[0], nm, sizeof nm);
  if (ask_yes_no(g, p, "701.44a", "put %s into your graveyard", nm)) batch_move(g, c, &top, EV_ZONE, MTG_Z_GRAVEYARD, 0, NULL, NULL);
}

/* 701.30: "clash with an opponent": the controller chooses an opponent
 * (701.30b); both reveal their top cards at the same time, then in APNAP
 * order decide whether to put them on the bottom, and the cards move at the
 * same time (701.30c). `did` is whether the controller won: they revealed a
 * card with a higher mana value than all other cards revealed (701.30d). */
static void step_clash(G *g, Ctx *c, const Node *n) {
  State *s = g->s;
  int p = c->controller, opps[MAX_PLAYERS], no = 0;
  for (int q = 0; q < s->c.np; q++)
    if (player_alive(g, q) && opponents(g, p, q)) opps[no++] = q;
  c->did = 0;
  if (!no) return;
  int opp = opps[0];
  if (no > 1) {
    dec_begin(g, MTG_D_PLAYER, p, "701.30b", "choose an opponent to clash with");
    for (int i = 0; i < no; i++) dec_opt(g, MTG_O_PLAYER, 0, 0, opps[i], -1, "%s", player_name(g, opps[i]));
    opp = opps[ask_pick(g)];
  }
  int order[MAX_PLAYERS], who[2] = {p, opp}, card[2] = {-1, -1};
  for (int i = 0; i < 2; i++) {
    if (!zl_count(g, MTG_Z_LIBRARY, who[i])) continue;
    card[i] = zl_list(g, MTG_Z_LIBRARY, who[i])[0];
    reveal(g, c, oref(g, card[i]), who[i]);
  }
  unsigned char bottom[2] = {0, 0};
  apnap_order(g, order);
  for (int k = 0; k < MAX_PLAYERS && order[k] >= 0; k++)
    for (int i = 0; i < 2; i++) {
      if (who[i] != order[k] || card[i] < 0) continue;
      char nm[110];
      fmt_slot(g, card[i], nm, sizeof nm);
      bottom[i] = (unsigned char)ask_yes_no(g, who[i], "701.30a", "put %s on the bottom of your library?", nm);
    }
  for (int i = 0; i < 2; i++)
    if (card[i] >= 0 && bottom[i]) {
      int16_t one = (int16_t)card[i];
      zl_remove(g, MTG_Z_LIBRARY, who[i], one);
      library_put(g, who[i], &one, 1, 1);
    }
  int mv[2] = {card[0] >= 0 ? obj_mv(g, card[0]) : -1, card[1] >= 0 ? obj_mv(g, card[1]) : -1};
  /* 701.30d: a higher mana value than every other card revealed (no card: -1) */
  int winner = mv[0] > mv[1] ? 0 : mv[1] > mv[0] ? 1 : -1;
  log_line(g, 0, "clash player=%s opponent=%s winner=%s bottom=%s%s%s rule=701.30", player_name(g, p), player_name(g, opp),
           winner < 0 ? "-" : player_name(g, who[winner]), bottom[0] ? player_name(g, p) : "", bottom[0] && bottom[1] ? "," : "",
           bottom[1] ? player_name(g, opp) : (bottom[0] ? "" : "-"));
  c->did = winner == 0;
  (void)n;
}

/* "Exile cards from the top of [their] library until [they] exile a [quality]
 * card": one at a time, stopping after the first that matches or when the
 * library is empty; the result is that card (none if there was none). */
static void step_exile_until(G *g, Ctx *c, const Node *n) {
  State *s = g->s;
  Sel who;
  sel_eval(g, c, n->k[1], &who);
  Sel found;
  found.n = found.np = 0;
  for (int w = 0; w < who.np; w++) {
    int q = who.p[w];
    while (zl_count(g, MTG_Z_LIBRARY, q) > 0) {
      Sel one, moved; /* batch_move reads only the objects of one */
      one.n = 1;
      one.o[0] = oref(g, zl_list(g, MTG_Z_LIBRARY, q)[0]);
      Filter f = *n->k[0]->f;
      f.zone = MTG_Z_LIBRARY;
      int match = filter_match(g, c, &f, one.o[0].slot);
      batch_move(g, c, &one, EV_EXILE, MTG_Z_EXILE, 0, n->k[2] ? n->k[2]->s : NULL, &moved);
      if (!moved.n) break; /* replaced: it didn't leave the library, or went elsewhere */
      if (match) {
        /* at most one card per player: found.n < MAX_PLAYERS < MAX_SEL */
        if (s->obj[moved.o[0].slot].zone == MTG_Z_EXILE) found.o[found.n++] = moved.o[0];
        break;
      }
    }
  }
  result_set(g, c, &found);
  c->did = found.n > 0;
}

/* 701.37a monstrosity N, 702.112a renown N: if this permanent isn't monstrous
 * (renowned), put N +1/+1 counters on it and it becomes so. */
/* The event of obj becoming what ckind says (perform.c EV_BECOMES: 1
 * monstrous, 2 renowned, 3 saddled, 4 crewed); amount is the N of
 * monstrosity or renown. */
static void becomes_event(G *g, Ctx *c, ORef obj, int ckind, int amount, const char *rule) {
  Event e;
  ev_init(&e, EV_BECOMES);
  e.obj = obj;
  e.ckind = (uint8_t)ckind;
  e.amount = amount;
  e.cause_ctl = (int8_t)c->controller;
  e.cause_id = c->cause_id;
  e.rule = rule;
  ev_one(g, &e);
}

static void step_designation(G *g, Ctx *c, const Node *n) {
  State *s = g->s;
  int monster = n->op == S_MONSTROSITY;
  int k = expr_eval(g, c, n->k[0]); /* the step's own key: always given (cardload.c) */
  if (!oref_ok(g, c->src) || s->obj[c->src.slot].zone != MTG_Z_BATTLEFIELD) return;
  const Obj *o = &s->obj[c->src.slot];
  if (monster ? o->monstrous : o->renowned) return;
  do_counters(g, c->src.slot, -1, CN_PLUS1, k, c->controller, c->cause_id); /* none for N <= 0 */
  if (!oref_ok(g, c->src)) return;
  becomes_event(g, c, c->src, monster ? 1 : 2, k, monster ? "701.37a" : "702.112a");
}

/* 702.171a: "This permanent becomes saddled until end of turn" (cleared in
 * the cleanup step, turn.c; a new object isn't saddled, 400.7). With
 * S_CREWED, the end of a crew ability's resolution: the event "becomes
 * crewed" triggers on (702.122d); it changes nothing. */
static void step_saddle(G *g, Ctx *c, const Node *n) {
  int crewed = n->op == S_CREWED;
  Sel a;
  sel_eval(g, c, n->k[0], &a);
  for (int i = 0; i < a.n; i++) {
    if (oref_ok(g, a.o[i]) && g->s->obj[a.o[i].slot].zone == MTG_Z_BATTLEFIELD)
      becomes_event(g, c, a.o[i], crewed ? 4 : 3, 0, crewed ? "702.122d" : "702.171a");
  }
}

/* 500.8: phases added after this main phase (or after the current phase),
 * the most recently added first; 505.1a: an added main phase is a
 * postcombat main phase. */
/* "[It] becomes a 2/2 black and red Elemental creature with ... until end of
 * turn": one effect with parts in several layers (613.6), each part an entry
 * of the effect table with the effect's one timestamp, affecting the objects
 * chosen now (611.2c). */
static void step_becomes(G *g, Ctx *c, const Node *n) {
  Sel a;
  Effect e;
  sel_eval(g, c, n->k[0], &a);
  if (!a.n) return;
  uint32_t ts = new_ts(g);
  int abilities = 0;
  for (int i = 0; i < a.n; i++)
    for (int p = 0; p < n->i; p++) {
      const StaticSpec *st = &n->ab[p].st;
      effect_base(g, c, &e, EK_CONT, dur_of(n->k[1], DUR_EOT));
      e.st = st;
      e.ts = ts;
      e.obj = a.o[i];
      e.types = st->types;
      e.kw = st->keywords;
      e.grant_def = st->grant_from;
      if (st->kind == SE_PT_SET) {
        e.a = st->a;
        e.b = st->b;
      }
      e.chosen_colors = st->colors;
      if (st->kind == SE_SET_COLORS && st->label) {
        /* "the color of your choice": the color chosen as it resolved (607.2d) */
        uint32_t oid = c->src.id ? c->src.id : (c->srcl ? c->srcl->id : 0);
        int col = link_find_color(g, oid, c->grant, st->label);
        if (col < 0) continue;
        e.chosen_colors = (uint8_t)(1u << col);
      }
      abilities |= st->kind == SE_GAIN_ABILITIES || (st->kind == SE_ADD_KEYWORDS && (st->keywords & pool_kw_mask(g->pool)));
      effect_add(g, &e);
    }
  if (abilities) trig_index_dirty(g);
}

/* Soulbond's pairing (702.95a-d): both must still be creatures on the
 * battlefield under the ability's controller, both unpaired, or neither
 * becomes paired. */
static void step_pair(G *g, Ctx *c, const Node *n) {
  State *s = g->s;
  Sel a, b;
  /* "if you do" after it: only a pairing that happened (a yes to the "may"
   * pairs nothing when 702.95c stops it, 603.12) */
  c->did = 0;
  sel_eval(g, c, n->k[0], &a);
  sel_eval(g, c, n->k[1], &b);
  if (a.n != 1 || b.n != 1 || a.o[0].id == b.o[0].id) return;
  ORef two[2] = {a.o[0], b.o[0]};
  for (int i = 0; i < 2; i++) {
    if (!oref_ok(g, two[i])) return;
    int sl = two[i].slot;
    if (s->obj[sl].zone != MTG_Z_BATTLEFIELD || !is_type(g, sl, T_CREATURE) || obj_controller(g, sl) != c->controller ||
        s->obj[sl].paired.id)
      return;
  }
  for (int i = 0; i < 2; i++) {
    obj_w(g, two[i].slot)->paired = two[1 - i];
    obj_w(g, two[i].slot)->paired_by = (int8_t)c->controller;
  }
  chars_dirty(g);
  char x[110], y[110];
  fmt_obj(g, two[0], x, sizeof x);
  fmt_obj(g, two[1], y, sizeof y);
  log_line(g, 0, "pair obj=%s with=%s rule=702.95b", x, y);
  c->did = 1;
}

static void step_add_phases(G *g, Ctx *c, const Node *n) {
  Core *k = &g->s->c;
  int st = k->step;
  int main = st == MTG_S_MAIN1 || st == MTG_S_MAIN2;
  int this_phase = n->k[1] && !strcmp(n->k[1]->s, "this_phase");
  int combat = st >= MTG_S_BEGIN_COMBAT && st <= MTG_S_END_COMBAT;
  if (!main && !(this_phase && combat)) return; /* there is no such phase to add them after */
  int m = n->k[0]->n;
  if (k->nxafter + m > (int)sizeof k->xafter) game_limit(g, "extra phases added after one phase", (int)sizeof k->xafter);
  memmove(k->xafter + m, k->xafter, k->nxafter);
  for (int i = 0; i < m; i++) k->xafter[i] = (uint8_t)(!strcmp(n->k[0]->k[i]->s, "combat") ? PH_COMBAT : PH_MAIN);
  k->nxafter = (uint8_t)(k->nxafter + m);
  char list[64] = "";
  for (int i = 0; i < m; i++) snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? "," : "", n->k[0]->k[i]->s);
  log_line(g, 0, "additional_phases phases=%s after=%s rule=500.8", list, main ? "main" : "combat");
  (void)c;
}

/* 508.4: what a creature put onto the battlefield attacking attacks: what the
 * effect says (ninjutsu: what the returned attacker attacked, 702.49c), or
 * what its controller chooses among the defending players, the planeswalkers
 * they control and the battles they protect. */
static void attacking_as_enters(G *g, Ctx *c, const char *how, int ctl, Event *ev) {
  State *s = g->s;
  ev->etb_atk_player = -1;
  ev->etb_atk_obj = oref_none();
  if (!strcmp(how, "returned")) {
    if (!c->ch || (!c->ch->ret_atk_player && !c->ch->ret_atk_obj.id)) return;
    ev->etb_attacking = 1;
    ev->etb_atk_player = (int8_t)(c->ch->ret_atk_player - 1);
    ev->etb_atk_obj = c->ch->ret_atk_obj;
    return;
  }
  if (s->c.step < MTG_S_BEGIN_COMBAT || s->c.step > MTG_S_END_COMBAT || ctl != s->c.active) return; /* 506.3b */
  int pl[MAX_PLAYERS], np = 0, ob[MAX_OPTIONS], no = 0;
  for (int p = 0; p < s->c.np; p++)
    if (player_alive(g, p) && opponents(g, ctl, p)) pl[np++] = p;
  int nb = bf_count(g);
  const int16_t *bf = bf_list(g);
  for (int k = 0; k < nb && no < MAX_OPTIONS; k++)
    if (ct_attackable(g, ctl, bf[k])) ob[no++] = bf[k];
  if (!np && !no) return;
  int pick = 0;
  if (np + no > 1) {
    dec_begin(g, MTG_D_CHOOSE, ctl, "508.4", "choose what it attacks");
    for (int i = 0; i < np; i++) dec_opt(g, MTG_O_PLAYER, 0, 0, pl[i], -1, "%s", player_name(g, pl[i]));
    for (int i = 0; i < no; i++) {
      char nm[110];
      fmt_slot(g, ob[i], nm, sizeof nm);
      dec_opt(g, MTG_O_OBJECT, s->obj[ob[i]].id, 0, -1, -1, "%s", nm);
    }
    pick = ask_pick(g);
  }
  ev->etb_attacking = 1;
  if (pick < np) ev->etb_atk_player = (int8_t)pl[pick];
  else ev->etb_atk_obj = oref(g, ob[pick - np]);
}

static void step(G *g, Ctx *c, const Node *n) {
  State *s = g->s;
  Sel a, b;
  Effect e;
  switch (n->op) {
  case S_SEQ:
    for (int i = 0; i < n->n; i++) step(g, c, n->k[i]);
    return;
  case S_DAMAGE: {
    int amount = expr_eval(g, c, n->k[0]);
    /* divided (601.2d): each legal target gets its announced share */
    int oshare[MAX_MODE_SLOTS], pshare[MAX_MODE_SLOTS];
    int divided = n->k[4] && n->k[4]->i && divided_shares(g, c, &a, oshare, pshare);
    if (!divided) sel_eval(g, c, n->k[1], &a);
    /* "[that creature] deals damage": the object as it is, or as it last
     * existed, deals it (608.2h) */
    ORef src = c->src;
    const Lki *srcl = NULL;
    int flags = n->k[2] && sel_object_ref(g, c, n->k[2], &src, &srcl) ? lki_damage_flags(srcl) : src_damage_flags(g, c);
    if (n->k[2] && !src.id) src = c->src;
    int cnt = a.n + a.np, base = g->evtop;
    if (!cnt || (!divided && amount <= 0)) return;
    Event *ev = ev_alloc(g, cnt);
    for (int i = 0; i < cnt; i++) {
      ev_init(&ev[i], EV_DAMAGE);
      ev[i].src = src;
      ev[i].amount = !divided ? amount : i < a.n ? oshare[i] : pshare[i - a.n];
      ev[i].flags = (uint8_t)flags;
      ev[i].cause_ctl = (int8_t)c->controller;
      ev[i].cause_id = c->cause_id;
      ev[i].unpreventable = (uint8_t)(n->k[3] && n->k[3]->i); /* 615.12 */
      if (i < a.n) ev[i].obj = a.o[i];
      else ev[i].player = a.p[i - a.n];
    }
    ev_run(g, ev, cnt);
    g->evtop = base;
    return;
  }
  case S_DRAW: {
    int cnt = expr_eval(g, c, n->k[0]); /* the step's own key: always given (cardload.c) */
    sel_eval(g, c, n->k[1], &a);
    res_clear(c);
    for (int i = 0; i < a.np; i++)
      for (int k = 0; k < cnt; k++) {
        Event e;
        ev_init(&e, EV_DRAW);
        e.player = a.p[i];
        e.cause_ctl = (int8_t)c->controller;
        e.cause_id = c->cause_id;
        ev_one(g, &e);
        /* a replaced draw is not this draw (614.11b): only cards it drew are the result */
        if (e.done && e.new_id && e.new_slot >= 0) res_add(c, (ORef){e.new_slot, e.new_id});
      }
    return;
  }
  case S_GAIN_LIFE:
  case S_LOSE_LIFE:
  case S_SET_LIFE: {
    int amount = expr_eval(g, c, n->k[0]);
    /* 107.1b: no negative amount of life is gained or lost (a life total may be set below 0) */
    if (n->op != S_SET_LIFE && amount < 0) amount = 0;
    sel_eval(g, c, n->k[1], &a);
    int lost = 0;
    for (int i = 0; i < a.np; i++) {
      int before = s->c.pl[a.p[i]].life;
      if (n->op == S_SET_LIFE) do_set_life(g, a.p[i], amount, c->controller, c->cause_id);
      else do_life(g, a.p[i], n->op == S_GAIN_LIFE ? amount : -amount, c->controller, c->cause_id);
      if (before > s->c.pl[a.p[i]].life) lost += before - s->c.pl[a.p[i]].life;
    }
    /* "each opponent loses 1 life and you gain that much life": what was lost */
    if (n->op == S_LOSE_LIFE) c->life_lost = lost;
    return;
  }
  case S_DESTROY:
    sel_eval(g, c, n->k[0], &a);
    batch_move(g, c, &a, EV_DESTROY, MTG_Z_GRAVEYARD, n->k[1] && n->k[1]->i ? EF_NOREGEN : 0, NULL, &b);
    c->did = b.n > 0; /* "when you do" (603.12): not when regenerated or indestructible */
    return;
  case S_EXILE: {
    sel_eval(g, c, n->k[0], &a);
    int until = n->k[2] && n->k[2]->i;
    if (until && !(oref_ok(g, c->src) && s->obj[c->src.slot].zone == MTG_Z_BATTLEFIELD)) {
      /* 610.3a, 610.3b: the source already left: the object isn't exiled */
      return;
    }
    /* exiled face down (406.3): hidden from all players */
    batch_move(g, c, &a, EV_EXILE, MTG_Z_EXILE, n->k[4] && n->k[4]->i ? EF_FACE_DOWN : 0,
                  n->k[1] ? n->k[1]->s : NULL, &b);
    if (n->k[3])
      for (int i = 0; i < b.n; i++) do_counters(g, b.o[i].slot, -1, ckind_id(g, n->k[3]->s), 1, c->controller, c->cause_id);
    if (until)
      for (int i = 0; i < b.n; i++) {
        effect_base(g, c, &e, EK_UNTIL, DUR_FOREVER);
        e.obj = b.o[i];
        effect_add(g, &e);
      }
    c->did = b.n > 0;
    return;
  }
  case S_SACRIFICE:
    c->choose_for = EV_SACRIFICE;
    sel_eval(g, c, n->k[0], &a);
    c->choose_for = 0;
    batch_move(g, c, &a, EV_SACRIFICE, MTG_Z_GRAVEYARD, 0, NULL, &b);
    c->did = b.n > 0;
    return;
  case S_BOUNCE:
    sel_eval(g, c, n->k[0], &a);
    batch_move(g, c, &a, EV_ZONE, MTG_Z_HAND, 0, NULL, &b);
    c->did = b.n > 0;
    return;
  case S_PUT_BATTLEFIELD:
  case S_RETURN: {
    int to = n->op == S_RETURN ? (n->k[1] ? n->k[1]->i : MTG_Z_BATTLEFIELD) : MTG_Z_BATTLEFIELD;
    sel_eval(g, c, n->k[0], &a);
    const Node *under = n->op == S_RETURN ? n->k[2] : n->k[1];
    int tapped = n->op == S_RETURN ? (n->k[3] && n->k[3]->i) : (n->k[2] && n->k[2]->i);
    const Node *cn = n->op == S_RETURN ? n->k[4] : n->k[4];
    const char *link = n->op == S_PUT_BATTLEFIELD && n->k[3] ? n->k[3]->s : NULL;
    int base = g->evtop;
    Event *ev = ev_alloc(g, a.n);
    int cnt = 0;
    for (int i = 0; i < a.n; i++) {
      if (!oref_ok(g, a.o[i])) continue;
      const Obj *o = &s->obj[a.o[i].slot];
      int ctl = o->owner;
      if (under) {
        sel_eval(g, c, under, &b);
        if (b.np) ctl = b.p[0];
      }
      ev_init(&ev[cnt], EV_ZONE);
      ev[cnt].obj = a.o[i];
      ev[cnt].from = (int8_t)o->zone;
      ev[cnt].to = (int8_t)to;
      if (to == MTG_Z_BATTLEFIELD) ev[cnt].etb_ctl = (int8_t)ctl; /* else none (ev_init) */
      ev[cnt].etb_tapped = (uint8_t)tapped;
      ev[cnt].cause = n->op == S_RETURN ? CA_RETURN : CA_EFFECT;
      ev[cnt].cause_ctl = (int8_t)c->controller;
      ev[cnt].cause_id = c->src.id ? c->src.id : c->cause_id;
      if (cn && to == MTG_Z_BATTLEFIELD) {
        /* "with a counter on it": given as it enters (122.6), through counter replacements then */
        ev[cnt].given_ckind = (uint8_t)ckind_id(g, cn->s);
        ev[cnt].given_n = (int16_t)num_clamp16(expr_eval(g, c, cn->k[0]));
      }
      if (link) {
        ev[cnt].link_src = c->src.id;
        ev[cnt].link_grant = c->grant;
        ev[cnt].link_label = link;
      }
      if (n->op == S_PUT_BATTLEFIELD && n->k[5]) attacking_as_enters(g, c, n->k[5]->s, ctl, &ev[cnt]);
      cnt++;
    }
    if (cnt) ev_run(g, ev, cnt);
    b.n = b.np = 0;
    for (int i = 0; i < cnt; i++)
      if (ev[i].done && ev[i].new_slot >= 0 && b.n < MAX_SEL) {
        ORef r = {ev[i].new_slot, ev[i].new_id};
        b.o[b.n++] = r;
      }
    g->evtop = base;
    result_set(g, c, &b);
    return;
  }
  case S_COUNTER: {
    int to = n->k[1] ? n->k[1]->i : MTG_Z_GRAVEYARD;
    b.n = b.np = 0; /* what was countered, for "when you do" (603.12) */
    const Node *w = n->k[0];
    if (w && (w->op == SL_TARGET || w->op == SL_TARGETS)) {
      /* the target spells or abilities on the stack it names */
      for (int i = 0; c->ch && i < choice_nslots(c->ch, c->mode); i++) {
        Target *t = &c->ch->t[mode_slot(c->mode, i)];
        if (t->kind != TK_STACK || (w->op == SL_TARGET && i != w->i)) continue;
        int idx = stack_find(g, t->stack_id);
        if (idx >= 0 && stack_counter(g, idx, to, c->controller, c->cause_id, &b.o[b.n])) b.n++;
      }
    } else if (w && w->op == SL_TRIG_STACK) {
      /* "counter that spell or ability" */
      int idx = c->tc ? stack_find(g, c->tc->cause_id) : -1; /* no stack item has id 0 (new_id) */
      if (idx >= 0 && stack_counter(g, idx, to, c->controller, c->cause_id, &b.o[b.n])) b.n++;
    } else if (w) {
      sel_eval(g, c, n->k[0], &a);
      for (int i = 0; i < a.n; i++)
        for (int k = 0; k < s->c.nstack; k++)
          if (s->stack[k].kind == SI_SPELL && s->stack[k].slot == a.o[i].slot) {
            if (b.n < MAX_SEL && stack_counter(g, k, to, c->controller, c->cause_id, &b.o[b.n])) b.n++;
            break;
          }
    }
    result_set(g, c, &b);
    c->did = b.n > 0;
    return;
  }
  case S_MILL: {
    int cnt = expr_eval(g, c, n->k[0]); /* the step's own key: always given (cardload.c) */
    sel_eval(g, c, n->k[1], &a);
    b.n = b.np = 0;
    for (int i = 0; i < a.np; i++) library_top(g, a.p[i], cnt, &b);
    Sel moved;
    batch_move(g, c, &b, EV_MILL, MTG_Z_GRAVEYARD, 0, NULL, &moved);
    return;
  }
  case S_DISCARD:
    step_discard(g, c, n);
    return;
  case S_SHUFFLE_INTO:
    sel_eval(g, c, n->k[0], &a);
    batch_to_library(g, c, &a, 2);
    return;
  case S_PUT_LIBRARY:
    /* "on top of" / "on the bottom of its owner's library"; two or more at
     * once are ordered by their owner (401.4) */
    sel_eval(g, c, n->k[0], &a);
    batch_to_library(g, c, &a, n->k[1] && n->k[1]->i ? 1 : 0);
    return;
  case S_SHUFFLE:
    sel_eval(g, c, n->k[0], &a);
    for (int i = 0; i < a.np; i++) do_shuffle(g, a.p[i]);
    return;
  case S_SEARCH:
    step_search(g, c, n);
    return;
  case S_TOKEN:
  case S_TOKEN_COPY: {
    const CardDef *def = n->k[0]->def;
    const char *sub = NULL;
    if (n->op == S_TOKEN_COPY) {
      /* "create a token that's a copy of [object]": its copiable values as the
       * token is created (707.2); of no object, no token (111.12); of an
       * instant or sorcery, none either (111.5) */
      sel_eval(g, c, n->k[0], &b);
      def = b.n && oref_ok(g, b.o[0]) ? copiable_def(g, b.o[0].slot, &sub) : NULL;
      if (!def || (def->types & (T_INSTANT | T_SORCERY))) {
        res_clear(c);
        return;
      }
    }
    int cnt = n->k[1] ? expr_eval(g, c, n->k[1]) : 1;
    sel_eval(g, c, n->k[2], &a);
    int slots[MAX_SEL];
    res_clear(c);
    for (int i = 0; i < a.np; i++) {
      uint32_t cause = c->src.id ? c->src.id : c->cause_id;
      int made = n->op == S_TOKEN ? do_token(g, def, a.p[i], cnt, c->controller, cause, slots, MAX_SEL)
                                  : do_token_copy(g, def, sub, a.p[i], cnt, c->controller, cause, slots, MAX_SEL);
      /* past MAX_SEL tokens, the slots of the rest are not kept: the result is over */
      for (int k = 0; k < made; k++) res_add(c, k < MAX_SEL ? oref(g, slots[k]) : oref_none());
    }
    return;
  }
  case S_PUT_COUNTERS: {
    int kind = ckind_id(g, n->k[0]->s);
    int cnt = n->k[1] ? expr_eval(g, c, n->k[1]) : 1;
    int oshare[MAX_MODE_SLOTS], pshare[MAX_MODE_SLOTS];
    int divided = n->k[3] && n->k[3]->i && divided_shares(g, c, &a, oshare, pshare);
    if (!divided) sel_eval(g, c, n->k[2], &a);
    int total = a.n + a.np, base = g->evtop;
    if (!total || (!divided && cnt <= 0)) return;
    Event *ev = ev_alloc(g, total);
    for (int i = 0; i < total; i++) {
      ev_init(&ev[i], EV_COUNTERS);
      if (i < a.n) ev[i].obj = a.o[i];
      else ev[i].player = a.p[i - a.n];
      ev[i].ckind = (uint8_t)kind;
      ev[i].amount = !divided ? cnt : i < a.n ? oshare[i] : pshare[i - a.n];
      ev[i].cause_ctl = (int8_t)c->controller;
      ev[i].cause_id = c->cause_id;
    }
    ev_run(g, ev, total);
    g->evtop = base;
    return;
  }
  case S_REMOVE_COUNTERS:
  case S_CLEAR_COUNTERS: {
    int kind = ckind_id(g, n->k[0]->s);
    const Node *from = n->op == S_REMOVE_COUNTERS ? n->k[2] : n->k[1];
    sel_eval(g, c, from, &a);
    for (int i = 0; i < a.n; i++) {
      const Obj *o = &s->obj[a.o[i].slot];
      int have = counters_get(o->c, o->nc, kind);
      int cnt = n->op == S_CLEAR_COUNTERS ? have : (n->k[1] ? expr_eval(g, c, n->k[1]) : 1);
      if (n->op == S_REMOVE_COUNTERS && n->k[1] && n->k[1]->op == E_INT && n->k[1]->j) cnt = have;
      do_remove_counters(g, a.o[i].slot, -1, kind, cnt);
    }
    for (int i = 0; i < a.np; i++) {
      Player *p = &s->c.pl[a.p[i]];
      int have = counters_get(p->c, p->nc, kind);
      do_remove_counters(g, -1, a.p[i], kind, n->op == S_CLEAR_COUNTERS ? have : (n->k[1] ? expr_eval(g, c, n->k[1]) : 1));
    }
    return;
  }
  case S_DOUBLE_COUNTERS: {
    int kind = ckind_id(g, n->k[0]->s);
    sel_eval(g, c, n->k[1], &a);
    int base = g->evtop, k = 0;
    Event *ev = ev_alloc(g, a.n);
    for (int i = 0; i < a.n; i++) {
      const Obj *o = &s->obj[a.o[i].slot];
      int have = counters_get(o->c, o->nc, kind);
      if (have <= 0) continue;
      ev_init(&ev[k], EV_COUNTERS);
      ev[k].obj = a.o[i];
      ev[k].ckind = (uint8_t)kind;
      ev[k].amount = have; /* 701.10e: doubling puts that many more */
      ev[k].cause_ctl = (int8_t)c->controller;
      ev[k].cause_id = c->cause_id;
      k++;
    }
    if (k) ev_run(g, ev, k);
    g->evtop = base;
    return;
  }
  case S_TAP:
  case S_UNTAP:
    sel_eval(g, c, n->k[0], &a);
    batch_move(g, c, &a, n->op == S_TAP ? EV_TAP : EV_UNTAP, -1, 0, NULL, &b);
    c->did = b.n > 0; /* "when you do": not for a permanent that already was (701.26a) */
    return;
  case S_PUMP: {
    sel_eval(g, c, n->k[0], &a);
    int pw = expr_eval(g, c, n->k[1]), tg = expr_eval(g, c, n->k[2]); /* a part not given: 0 */
    for (int i = 0; i < a.n; i++) {
      /* 611.2c: the set of affected objects is fixed now */
      effect_base(g, c, &e, EK_CONT, dur_of(n->k[3], DUR_EOT));
      e.st = &spec_pt;
      e.a = num_clamp(pw);
      e.b = num_clamp(tg);
      e.obj = a.o[i];
      effect_add(g, &e);
    }
    return;
  }
  case S_GRANT: {
    sel_eval(g, c, n->k[0], &a);
    if (n->ab) {
      /* a rule effect with a duration: "can't be blocked this turn", "play with
       * your hand revealed for as long as ..." */
      int dur = dur_of(n->k[2], DUR_EOT);
      /* 611.2b: "for as long as [this] remains on the battlefield" never begins once it has left */
      if (dur == DUR_SOURCE_LEAVES && !(oref_ok(g, c->src) && s->obj[c->src.slot].zone == MTG_Z_BATTLEFIELD)) return;
      if (n->ab->st.affected) {
        /* 611.2c: it modifies the rules: whatever matches while it lasts */
        effect_base(g, c, &e, EK_RULE, dur);
        e.st = &n->ab->st;
        effect_add(g, &e);
        return;
      }
      for (int i = 0; i < a.n + a.np; i++) {
        effect_base(g, c, &e, EK_RULE, dur);
        e.st = &n->ab->st;
        if (i < a.n) e.obj = a.o[i];
        else e.player = a.p[i - a.n];
        effect_add(g, &e);
      }
      return;
    }
    uint64_t kw = n->k[1] ? ((uint64_t)(uint32_t)n->k[1]->i << 31) | (uint64_t)(uint32_t)n->k[1]->j : 0;
    if (n->k[1] && n->k[1]->s) {
      /* "protection from the color of your choice": the color chosen now (607.2d) */
      uint32_t oid = c->src.id ? c->src.id : (c->srcl ? c->srcl->id : 0);
      int col = link_find_color(g, oid, c->grant, n->k[1]->s);
      if (col >= 0) kw |= 1ULL << (KW_PROT_W + col);
    }
    for (int i = 0; n->k[1] && n->k[1]->def && i < a.n; i++) {
      /* keyword abilities with a parameter (protection from a quality, landwalk, bushido, ...) */
      effect_base(g, c, &e, EK_CONT, dur_of(n->k[2], DUR_EOT));
      e.st = &spec_gain;
      e.grant_def = n->k[1]->def;
      e.obj = a.o[i];
      effect_add(g, &e);
      trig_index_dirty(g);
    }
    for (int i = 0; i < a.n; i++) {
      if (n->k[3] && n->k[3]->i) {
        effect_base(g, c, &e, EK_CONT, dur_of(n->k[2], DUR_EOT));
        e.st = &spec_lose;
        e.obj = a.o[i];
        effect_add(g, &e);
      }
      if (kw) {
        effect_base(g, c, &e, EK_CONT, dur_of(n->k[2], DUR_EOT));
        e.st = &spec_kw;
        e.kw = kw;
        e.obj = a.o[i];
        effect_add(g, &e);
      }
      if (n->k[10]) {
        /* "loses [keyword]": every instance, printed or granted, with the ability it stands for (613.1f) */
        effect_base(g, c, &e, EK_CONT, dur_of(n->k[2], DUR_EOT));
        e.st = &spec_rmkw;
        e.kw = ((uint64_t)(uint32_t)n->k[10]->i << 31) | (uint64_t)(uint32_t)n->k[10]->j;
        e.obj = a.o[i];
        effect_add(g, &e);
        trig_index_dirty(g);
      }
    }
    return;
  }
  case S_GRANT_ABILITY: {
    sel_eval(g, c, n->k[0], &a);
    sel_eval(g, c, n->k[1], &b);
    if (!a.n) return;
    const CardDef *from = chars(g, a.o[0].slot)->base;
    for (int i = 0; i < b.n; i++) {
      /* 607.5: abilities gained together are linked to each other only */
      effect_base(g, c, &e, EK_CONT, dur_of(n->k[2], DUR_EOT));
      e.st = &spec_gain;
      e.grant_def = from;
      e.a = (int16_t)(n->k[3] && n->k[3]->i);
      e.obj = b.o[i];
      effect_add(g, &e);
    }
    trig_index_dirty(g);
    return;
  }
  case S_GAIN_CONTROL: {
    sel_eval(g, c, n->k[0], &a);
    sel_eval(g, c, n->k[1], &b);
    if (!b.np) return;
    /* 611.2b: "for as long as ... it remains tapped" never begins once it has ended */
    int gdur = dur_of(n->k[2], DUR_FOREVER);
    if ((gdur == DUR_SOURCE_TAPPED || gdur == DUR_SOURCE_CTL_TAPPED) && !source_tapped_holds(g, c->src, gdur, c->controller)) return;
    int base = g->evtop, k = 0;
    Event *ev = ev_alloc(g, a.n);
    for (int i = 0; i < a.n; i++) {
      /* the effect waits (used 3) until the control event is performed */
      effect_base(g, c, &e, EK_CONT, dur_of(n->k[2], DUR_FOREVER));
      e.st = &spec_ctl;
      e.player = b.p[0];
      e.obj = a.o[i];
      int idx = effect_add(g, &e);
      s->eff[idx].used = 3;
      ev_init(&ev[k], EV_CONTROL);
      ev[k].obj = a.o[i];
      ev[k].player = b.p[0];
      ev[k].player2 = (int8_t)obj_controller(g, a.o[i].slot);
      ev[k].aux = idx + 1;
      ev[k].cause_ctl = (int8_t)c->controller;
      k++;
    }
    if (k) ev_run(g, ev, k);
    for (int i = 0; i < k; i++)
      if (s->eff[ev[i].aux - 1].used == 3) s->eff[ev[i].aux - 1].used = 2;
    g->evtop = base;
    return;
  }
  case S_ADD_MANA:
    step_add_mana(g, c, n);
    return;
  case S_WIN:
    sel_eval(g, c, n->k[0], &a);
    for (int i = 0; i < a.np; i++) do_win(g, a.p[i], NULL);
    return;
  case S_LOSE: {
    sel_eval(g, c, n->k[0], &a);
    unsigned m = 0;
    for (int i = 0; i < a.np; i++) m |= 1u << a.p[i];
    do_lose(g, m, NULL);
    return;
  }
  case S_MAY: {
    sel_eval(g, c, n->k[1], &a);
    int p = a.np ? a.p[0] : c->controller;
    char nm[110] = "";
    if (oref_ok(g, c->src)) fmt_slot(g, c->src.slot, nm, sizeof nm);
    else if (c->srcl) fmt_lki(c->srcl, nm, sizeof nm);
    /* 614.17b: a player can't choose to do what can't be done (a draw Spirit of the Labyrinth forbids) */
    const Node *first = n->k[0]->k[0]; /* the loader gives every may its steps, NULL for none (p_steps) */
    if (first && first->op == S_DRAW) {
      Sel who;
      sel_eval(g, c, first->k[1], &who);
      if (who.np && !can_draw(g, who.p[0])) {
        c->did = 0;
        return;
      }
    }
    if (first && first->op == S_DISCARD) {
      /* nor discard from an empty hand ("you may discard a card. If you do, ...") */
      Sel who;
      sel_eval(g, c, first->k[1], &who);
      if (who.np && !zl_count(g, MTG_Z_HAND, who.p[0])) {
        c->did = 0;
        return;
      }
    }
    int yes = ask_yes_no(g, p, "603.5", "%s%s%s", n->k[2] ? n->k[2]->s : "use the optional effect of ", n->k[2] ? "" : nm, "");
    /* "if you do" / "when you do": the optional action was taken and did
     * something (603.12: choosing yes and sacrificing nothing is not doing it) */
    c->did = yes;
    if (yes) step(g, c, n->k[0]);
    return;
  }
  case S_IF:
    if (cond_eval(g, c, n->k[0])) step(g, c, n->k[1]);
    else if (n->k[2]) step(g, c, n->k[2]);
    return;
  case S_FOR_EACH: {
    sel_eval(g, c, n->k[0], &a);
    ORef so = c->each_obj;
    int8_t sp = c->each_player;
    for (int i = 0; i < a.n; i++) {
      if (!oref_ok(g, a.o[i])) continue;
      c->each_obj = a.o[i];
      step(g, c, n->k[1]);
    }
    c->each_obj = so;
    for (int i = 0; i < a.np; i++) {
      c->each_player = a.p[i];
      step(g, c, n->k[1]);
    }
    c->each_player = sp;
    return;
  }
  case S_CHOOSE:
    step_choose(g, c, n);
    return;
  case S_DELAYED: {
    ORef obj = oref_none();
    if (n->k[2]) {
      /* `remember`: the object it refers to named (603.7c), "destroy that Wall" */
      sel_eval(g, c, n->k[2], &a);
      if (a.n && oref_ok(g, a.o[0])) obj = a.o[0];
    } else if (c->nres && oref_ok(g, c->res[0])) obj = c->res[0];
    else if (c->ch && c->ch->t[mode_slot(c->mode, 0)].kind == TK_OBJ) obj = c->ch->t[mode_slot(c->mode, 0)].obj;
    eff_delayed(g, c, n->k[0]->ab, n->k[1] ? n->k[1]->i : DUR_FOREVER, obj);
    return;
  }
  case S_CAST: /* 608.2g (cast.c) */
    sel_eval(g, c, n->k[0], &a);
    for (int i = 0; i < a.n; i++)
      if (oref_ok(g, a.o[i])) cast_during(g, c->controller, a.o[i].slot, n->i, -1);
    return;
  case S_MANIFEST: {
    /* 701.40a: the top card of the player's library is put onto the
     * battlefield face down, a 2/2 creature (708.2); manifested, it may be
     * turned face up for its mana cost if it's a creature card (701.40b) */
    int cnt = expr_eval(g, c, n->k[0]);
    sel_eval(g, c, n->k[1], &a);
    for (int i = 0; i < a.np; i++)
      for (int k = 0; k < cnt; k++) {
        b.n = b.np = 0;
        library_top(g, a.p[i], 1, &b); /* one at a time (701.40e) */
        if (!b.n) break;
        Sel moved;
        batch_objects(g, c, &b, EV_ZONE, MTG_Z_BATTLEFIELD, 0, EF_FACE_DOWN, a.p[i], 0, 0, NULL, &moved);
        for (int m = 0; m < moved.n; m++)
          if (oref_ok(g, moved.o[m]) && g->s->obj[moved.o[m].slot].face_down) obj_w(g, moved.o[m].slot)->manifested = 1;
      }
    return;
  }
  case S_CASCADE: /* 702.85a (cast.c) */
    cast_cascade(g, c);
    return;
  case S_REFLEXIVE:
    /* 603.12: triggers if the action was taken earlier in this resolution */
    if (c->did) {
      /* 603.12a: once for each object the action was done to, except after
       * paying a cost "any number of times": once, for all the payments */
      const Ability *rab = n->k[0]->ab;
      int te = rab->trig.ev;
      int per_obj = te == TE_SACRIFICE || te == TE_DIES || te == TE_LEAVES || te == TE_ZONE || te == TE_ENTERS ||
                    te == TE_DISCARD || te == TE_TAPPED || te == TE_UNTAPPED || te == TE_COUNTERED;
      int nres = res_count(g, c);
      int times = !c->paid_any && per_obj && nres ? nres : 1;
      for (int i = 0; i < times; i++) {
        TrigCtx tc;
        memset(&tc, 0, sizeof tc);
        tc.obj = c->nres ? c->res[i] : oref_none();
        tc.amount = c->amount;
        tc.from = tc.to = -1;
        /* beyond the few kept in resl, the others moved are found by their
         * old id, as SL_RESULT finds them (608.2h for every one of them) */
        const Lki *pre = i < c->nresl && c->resl[i].id ? &c->resl[i]
                         : i < c->nresold && c->resold[i] ? lki_find(g, c->resold[i])
                                                          : NULL;
        if (pre) {
          /* it moved: "that creature" is as it last was where it was */
          tc.objl = *pre;
          tc.from = (int8_t)pre->zone;
          tc.to = oref_ok(g, tc.obj) ? (int8_t)s->obj[tc.obj.slot].zone : -1;
        } else if (oref_ok(g, tc.obj)) {
          lki_of(g, tc.obj.slot, &tc.objl);
        }
        trig_reflexive(g, rab, c->def, c->grant, c->src, c->srcl, c->controller, &tc);
      }
    }
    c->paid_any = 0;
    return;
  case S_REPLACE_NEXT:
  case S_REPLACEMENT:
    /* a replacement effect of a resolving spell or ability, for a duration:
     * used up by its first application ("the next time"), or lasting */
    effect_base(g, c, &e, EK_REPL, dur_of(n->k[1], DUR_EOT));
    e.rp = &n->k[0]->ab->rp;
    e.once = n->op == S_REPLACE_NEXT;
    if (n->op == S_REPLACEMENT && n->k[2]) {
      /* `on`: "if it would ...", one effect for each object, about it only
       * (a new object is not it, 400.7) */
      sel_eval(g, c, n->k[2], &a);
      for (int i = 0; i < a.n; i++) {
        e.obj = a.o[i];
        if (oref_ok(g, e.obj)) effect_add(g, &e);
      }
      return;
    }
    effect_add(g, &e);
    return;
  case S_LAND_PLAYS: {
    /* 305.2: "you may play N additional lands this turn" */
    int k = expr_eval(g, c, n->k[0]);
    sel_eval(g, c, n->k[1], &a);
    for (int i = 0; i < a.np && k > 0; i++) {
      Player *pl = &s->c.pl[a.p[i]];
      pl->extra_lands = (int16_t)(pl->extra_lands + k > 1000 ? 1000 : pl->extra_lands + k);
      log_line(g, 0, "land_plays player=%s n=%d rule=305.2", player_name(g, a.p[i]), k);
    }
    return;
  }
  case S_PREVENT:
    step_prevent(g, c, n);
    return;
  case S_REGENERATE:
    sel_eval(g, c, n->k[0], &a);
    for (int i = 0; i < a.n; i++) {
      effect_base(g, c, &e, EK_REPL, DUR_EOT);
      e.rp = &spec_regen;
      e.obj = a.o[i];
      e.once = 1;
      effect_add(g, &e);
    }
    return;
  case S_ATTACH:
    sel_eval(g, c, n->k[0], &a);
    sel_eval(g, c, n->k[1], &b);
    if (!a.n || (!b.n && !b.np)) return;
    for (int i = 0; i < a.n; i++) {
      const CardDef *d = chars(g, a.o[i].slot)->base;
      if (b.n) {
        /* 701.3b: can't attach to an object it can't legally be attached to */
        if (d->equip_f && !is_type(g, b.o[0].slot, T_CREATURE)) continue;
        if (b.o[0].slot == a.o[i].slot) continue;
        if (s->obj[a.o[i].slot].attached.id == b.o[0].id) continue;
        do_attach(g, a.o[i].slot, b.o[0], -1);
      } else {
        do_attach(g, a.o[i].slot, oref_none(), b.p[0]);
      }
    }
    return;
  case S_FIGHT: {
    sel_eval(g, c, n->k[0], &a);
    sel_eval(g, c, n->k[1], &b);
    if (!a.n || !b.n) return;
    /* 701.14: each deals damage equal to its power to the other */
    Event ev[2];
    int k = 0;
    int pa = obj_power(g, a.o[0].slot), pb = obj_power(g, b.o[0].slot);
    if (pa > 0) {
      ev_init(&ev[k], EV_DAMAGE);
      ev[k].src = a.o[0];
      ev[k].obj = b.o[0];
      ev[k].amount = pa;
      ev[k].cause_ctl = (int8_t)c->controller;
      k++;
    }
    if (pb > 0 && b.o[0].id != a.o[0].id) {
      ev_init(&ev[k], EV_DAMAGE);
      ev[k].src = b.o[0];
      ev[k].obj = a.o[0];
      ev[k].amount = pb;
      ev[k].cause_ctl = (int8_t)c->controller;
      k++;
    }
    if (k) ev_run(g, ev, k);
    return;
  }
  case S_COPY_SPELL:
    step_copy_spell(g, c, n);
    return;
  case S_CHANGE_TARGET:
    step_change_target(g, c, n);
    return;
  case S_REVEAL:
    /* a card in a hand or library is revealed by the player whose zone it is
     * in ("target opponent reveals a card at random from their hand"); the
     * result is what was revealed */
    sel_eval(g, c, n->k[0], &a);
    for (int i = 0; i < a.n; i++) {
      int z = oref_ok(g, a.o[i]) ? s->obj[a.o[i].slot].zone : -1;
      reveal(g, c, a.o[i], z == MTG_Z_HAND || z == MTG_Z_LIBRARY ? s->obj[a.o[i].slot].owner : c->controller);
    }
    result_set(g, c, &a);
    return;
  case S_LOOK_HAND: {
    /* 701.20e: "look at target player's hand": the cards are shown to the
     * player looking only, and nothing else happens to them */
    Sel who;
    sel_eval(g, c, n->k[1], &who);
    int p = who.np ? who.p[0] : c->controller;
    sel_eval(g, c, n->k[0], &a);
    for (int i = 0; i < a.np; i++)
      log_line(g, 0, "look player=%s of=%s zone=hand n=%d rule=701.20e", player_name(g, p), player_name(g, a.p[i]),
               zl_count(g, MTG_Z_HAND, a.p[i]));
    return;
  }
  case S_UNLESS: {
    sel_eval(g, c, n->k[1], &a);
    int p = a.np ? a.p[0] : (a.n ? obj_controller(g, a.o[0].slot) : c->controller);
    if (!offer_payment(g, c, p, n->k[0]->s, n->k[3], n->k[4], NULL)) step(g, c, n->k[2]);
    return;
  }
  case S_PAY: {
    /* "you may pay {N}. If you do, ...": did is whether it was paid */
    sel_eval(g, c, n->k[1], &a);
    int p = a.np ? a.p[0] : c->controller;
    c->did = offer_payment(g, c, p, n->k[0]->s, n->k[2], NULL, n->k[3] ? n->k[3]->s : NULL);
    return;
  }
  case S_EXTRA_TURN:
    sel_eval(g, c, n->k[0], &a);
    for (int i = 0; i < a.np; i++) {
      if (s->c.nextra >= NELEM(s->c.extra_turns)) game_limit(g, "extra turns waiting", (int)NELEM(s->c.extra_turns));
      s->c.extra_turns[s->c.nextra++] = (uint8_t)a.p[i];
      log_line(g, 0, "extra_turn player=%s", player_name(g, a.p[i]));
    }
    return;
  case S_ANY_PLAYER_MAY: {
    int order[MAX_PLAYERS];
    apnap_order(g, order);
    for (int i = 0; i < MAX_PLAYERS && order[i] >= 0; i++) {
      if (ask_yes_no(g, order[i], "101.4", "%s", n->k[2] ? n->k[2]->s : "accept?")) {
        int8_t sp = c->each_player;
        c->each_player = (int8_t)order[i];
        c->did = 1;
        step(g, c, n->k[0]);
        c->each_player = sp;
        return;
      }
    }
    c->did = 0;
    if (n->k[1]) step(g, c, n->k[1]);
    return;
  }
  case S_SKIP: {
    int st = mtg_step_parse(n->k[0]->s);
    sel_eval(g, c, n->k[1], &a);
    for (int i = 0; i < a.np && st >= 0; i++) s->c.skip[a.p[i]][st]++;
    return;
  }
  case S_NOTE: {
    if (n->k[2]) {
      /* a player the source's linked abilities refer to ("that player", 607.2), kept
       * with the object even once it has left the battlefield; {chosen: label} reads it */
      uint32_t oid = c->src.id ? c->src.id : (c->srcl ? c->srcl->id : 0);
      sel_eval(g, c, n->k[2], &a);
      if (!a.np || !oid) return;
      link_add(g, oid, c->grant, n->k[0]->s, LK_VALUE, a.p[0], NULL, oref_none());
      log_line(g, 0, "note %s=%s", n->k[0]->s, player_name(g, a.p[0]));
      return;
    }
    int v = expr_eval(g, c, n->k[1]);
    link_add(g, c->src.id, c->grant, n->k[0]->s, LK_VALUE, v, NULL, oref_none());
    log_line(g, 0, "note %s=%d", n->k[0]->s, v);
    return;
  }
  case S_EXILE_TOP: {
    int cnt = expr_eval(g, c, n->k[0]);
    sel_eval(g, c, n->k[1], &a);
    b.n = b.np = 0;
    for (int i = 0; i < a.np; i++) library_top(g, a.p[i], cnt, &b);
    Sel moved;
    batch_move(g, c, &b, EV_EXILE, MTG_Z_EXILE, 0, n->k[2] ? n->k[2]->s : NULL, &moved);
    return;
  }
  case S_PAY_ANY_NUMBER: {
    /* "pay {1} any number of times": the times paid are the result (603.12a) */
    ManaCost mc;
    char why[100];
    if (mana_parse(n->k[0]->s, &mc, NULL, NULL, why, sizeof why)) return;
    int hi = 0;
    ManaCost tot = mc;
    while (hi < 20) {
      tot = mc;
      tot.generic = (uint8_t)(mc.generic * (hi + 1));
      for (int k = 0; k < COL_COUNT; k++) tot.colored[k] = (uint8_t)(mc.colored[k] * (hi + 1));
      if (!cost_can_pay_mana(g, c->controller, &tot, 0, -1, 0)) break;
      hi++;
    }
    int times = ask_number(g, c->controller, 0, hi, "pay %s how many times?", n->k[0]->s);
    for (int t = 0; t < times; t++) cost_pay_mana(g, c->controller, &mc, 0, -1, 0, NULL);
    c->amount = times;
    c->did = times > 0;
    c->paid_any = 1;
    log_line(g, 0, "paid player=%s cost=%s times=%d", player_name(g, c->controller), n->k[0]->s, times);
    return;
  }
  case S_TRANSFORM:
    /* 701.27: a double-faced permanent turns over */
    sel_eval(g, c, n->k[0], &a);
    for (int i = 0; i < a.n; i++) {
      Obj *o = obj_w(g, a.o[i].slot);
      if (o->zone != MTG_Z_BATTLEFIELD || !o->def->back) continue;
      if (o->face_down) continue; /* 712.15a */
      /* 701.27f: transformed since this ability was put on the stack: ignored */
      if (c->pushed_ts && o->transformed_ts > c->pushed_ts) continue;
      o->transformed = (uint8_t)!o->transformed;
      o->ts = new_ts(g); /* 613.7g */
      o->transformed_ts = o->ts;
      chars_dirty(g);
      trig_index_dirty(g);
      char nm[110];
      fmt_slot(g, a.o[i].slot, nm, sizeof nm);
      log_line(g, 0, "transform obj=%s face=%s rule=701.27", nm, o->transformed ? "back" : "front");
    }
    return;
  case S_ROLL_DICE: {
    /* 706: roll N dice with `sides` sides; each "roll that many dice plus one and
     * ignore the lowest roll" replacement (Pixie Guide) adds a die and ignores the
     * lowest one (706.6: an ignored roll never happened). The sum of the kept
     * results is noted under the label ({noted: roll}). */
    int sides = expr_eval(g, c, n->k[0]);
    int cnt = n->k[1] ? expr_eval(g, c, n->k[1]) : 1;
    int p = c->controller;
    /* no die rolled (X = 0): no roll to replace, and the total is 0, not an
     * earlier resolution's noted result */
    int rolls = sides >= 1 && cnt >= 1;
    int extra = rolls ? rule_effect_count(g, SE_DICE_ADVANTAGE, p, -1, NULL, 0) : 0;
    int total = rolls ? cnt + extra : 0;
    if (total > 64) total = 64;
    int r[64], ign[64] = {0};
    for (int i = 0; i < total; i++) r[i] = 1 + rng_below(s->c.rng, sides);
    for (int k = 0; k < extra && k < total - 1; k++) {
      /* the lowest roll not yet ignored (ties: the first one, 706.6 leaves the choice
       * between equal results, which changes nothing) */
      int lo = -1;
      for (int i = 0; i < total; i++)
        if (!ign[i] && (lo < 0 || r[i] < r[lo])) lo = i;
      ign[lo] = 1;
    }
    int sum = 0;
    for (int i = 0; i < total; i++) {
      if (!ign[i]) sum += r[i];
      log_line(g, 0, "roll player=%s sides=%d result=%d%s", player_name(g, p), sides, r[i], ign[i] ? " ignored=1 rule=706.6" : "");
    }
    link_add(g, c->src.id ? c->src.id : (c->srcl ? c->srcl->id : 0), c->grant, n->k[2] && n->k[2]->s ? n->k[2]->s : "roll",
             LK_VALUE, sum, NULL, oref_none());
    return;
  }
  case S_FLIP:
    /* 710.2, 710.4: a permanent flips once and for good (a status, 110.5) */
    sel_eval(g, c, n->k[0], &a);
    for (int i = 0; i < a.n; i++) {
      Obj *o = obj_w(g, a.o[i].slot);
      if (o->zone != MTG_Z_BATTLEFIELD || o->flipped) continue;
      o->flipped = 1;
      chars_dirty(g);
      trig_index_dirty(g);
      char nm[110];
      fmt_slot(g, a.o[i].slot, nm, sizeof nm);
      log_line(g, 0, "flip obj=%s rule=710.2", nm);
    }
    return;
  case S_REORDER_GRAVEYARD:
    /* "reorder your graveyard at random" */
    sel_eval(g, c, n->k[0], &a);
    for (int i = 0; i < a.np; i++) {
      Event r;
      ev_init(&r, EV_SHUFFLE);
      r.player = (int8_t)a.p[i];
      r.to = MTG_Z_GRAVEYARD;
      ev_one(g, &r);
    }
    return;
  case S_PLAY_EXILED: {
    /* "you may play (cast) that card this turn / for as long as it remains
     * exiled [without paying its mana cost] [, and you may spend mana as
     * though it were mana of any color to cast it]": a zone change ends it,
     * the card becoming a new object (400.7) */
    sel_eval(g, c, n->k[0], &a);
    sel_eval(g, c, n->k[1], &b);
    for (int i = 0; i < a.n; i++) {
      if (!oref_ok(g, a.o[i]) || s->obj[a.o[i].slot].zone != MTG_Z_EXILE) continue;
      for (int w = 0; w < b.np; w++) {
        effect_base(g, c, &e, EK_PLAY, dur_of(n->k[2], DUR_EOT));
        e.obj = a.o[i];
        e.player = (int8_t)b.p[w];
        e.a = (int16_t)((n->k[3] && n->k[3]->i ? 0 : PP_PAY) | (n->k[4] && n->k[4]->i ? PP_ANY_MANA : 0) |
                        (n->k[5] && n->k[5]->i ? PP_NO_LAND : 0)); /* "you may cast it": no land play (305.9) */
        effect_add(g, &e);
      }
    }
    return;
  }
  case S_PLAY_FREE:
    /* "you may play it this turn without paying its mana cost" (an exiled card) */
    sel_eval(g, c, n->k[0], &a);
    for (int i = 0; i < a.n; i++) {
      if (!oref_ok(g, a.o[i]) || s->obj[a.o[i].slot].zone != MTG_Z_EXILE) continue;
      effect_base(g, c, &e, EK_PLAY, DUR_EOT);
      e.obj = a.o[i];
      e.player = (int8_t)c->controller;
      effect_add(g, &e);
    }
    return;
  case S_ABANDON: /* 701.33 */
    sel_eval(g, c, n->k[0], &a);
    for (int i = 0; i < a.n; i++)
      if (oref_ok(g, a.o[i])) var_abandon(g, a.o[i].slot);
    return;
  case S_PLANESWALK: /* 701.31 */
    sel_eval(g, c, n->k[0], &a);
    for (int i = 0; i < a.np; i++) var_planeswalk(g, a.p[i], "701.31");
    return;
  case S_PHASE_OUT: /* 702.26 */
    sel_eval(g, c, n->k[0], &a);
    {
      /* one event per permanent at most, however many: on the event stack */
      int base = g->evtop, nb = bf_count(g), np = 0;
      Event *pe = ev_alloc(g, nb);
      for (int i = 0; i < a.n; i++) {
        if (s->obj[a.o[i].slot].phased_out || s->obj[a.o[i].slot].zone != MTG_Z_BATTLEFIELD) continue;
        np = phase_events(g, pe, np, a.o[i].slot, 1, 0);
      }
      if (np) ev_run(g, pe, np);
      g->evtop = base;
    }
    return;
  case S_MUST_BLOCK:
    sel_eval(g, c, n->k[0], &a);
    for (int i = 0; i < a.n; i++) {
      effect_base(g, c, &e, EK_RULE, dur_of(n->k[1], DUR_EOT));
      e.st = &spec_mustblock;
      e.obj = a.o[i];
      effect_add(g, &e);
    }
    return;
  case S_EXILE_GRAVEYARD:
  case S_SHUFFLE_GRAVEYARD: {
    sel_eval(g, c, n->k[0], &a);
    b.n = b.np = 0;
    for (int i = 0; i < a.np; i++) {
      int ln = zl_count(g, MTG_Z_GRAVEYARD, a.p[i]);
      int16_t *l = zl_list(g, MTG_Z_GRAVEYARD, a.p[i]);
      for (int k = 0; k < ln; k++) sel_put(g, &b, oref(g, l[k]));
    }
    if (n->op == S_EXILE_GRAVEYARD) batch_move(g, c, &b, EV_EXILE, MTG_Z_EXILE, 0, NULL, NULL);
    else {
      batch_to_library(g, c, &b, 0);
      for (int i = 0; i < a.np; i++) do_shuffle(g, a.p[i]);
    }
    return;
  }
  case S_VENTURE: /* 701.49 (cardtype.c) */
    sel_eval(g, c, n->k[0], &a);
    for (int i = 0; i < a.np; i++) ct_venture(g, a.p[i]);
    return;
  case S_CAST_TRANSFORMED: /* 712.11a (cardtype.c) */
    sel_eval(g, c, n->k[0], &a);
    for (int i = 0; i < a.n; i++)
      if (oref_ok(g, a.o[i])) ct_cast_transformed(g, c->controller, a.o[i].slot);
    return;
  case S_SCRY:
  case S_SURVEIL:
    step_scry_surveil(g, c, n, n->op == S_SURVEIL);
    return;
  case S_MONSTROSITY:
  case S_RENOWN:
    step_designation(g, c, n);
    return;
  case S_SADDLE:
  case S_CREWED:
    step_saddle(g, c, n);
    return;
  case S_CLASS_LEVEL: {
    /* 716.2a: "this Class's level becomes N" */
    int k = expr_eval(g, c, n->k[0]);
    if (k < 1 || k > 255) return;
    if (oref_ok(g, c->src) && g->s->obj[c->src.slot].zone == MTG_Z_BATTLEFIELD) becomes_event(g, c, c->src, 5, k, "716.2a");
    return;
  }
  case S_ADD_PHASES:
    step_add_phases(g, c, n);
    return;
  case S_BECOMES:
    step_becomes(g, c, n);
    return;
  case S_PAIR:
    step_pair(g, c, n);
    return;
  case S_BECOME_COPY: {
    /* 707.2, 613.2a: a copy effect of a resolved ability (layer 1) */
    sel_eval(g, c, n->k[0], &a);
    sel_eval(g, c, n->k[1], &b);
    if (!b.n || !oref_ok(g, b.o[0])) return;
    const CardDef *from = chars(g, b.o[0].slot)->base;
    if (!from) return;
    for (int i = 0; i < a.n; i++) {
      if (!oref_ok(g, a.o[i]) || s->obj[a.o[i].slot].zone != MTG_Z_BATTLEFIELD) continue;
      effect_base(g, c, &e, EK_CONT, dur_of(n->k[5], DUR_FOREVER));
      e.st = &n->ab->st;
      e.grant_def = from;
      e.ab = c->ab;
      e.obj = a.o[i];
      effect_add(g, &e);
    }
    trig_index_dirty(g);
    return;
  }
  case S_PROLIFERATE:
    step_proliferate(g, c, n);
    return;
  case S_LOOK_TOP:
    step_look_top(g, c, n);
    return;
  case S_EXPLORE:
    step_explore(g, c, n);
    return;
  case S_CLASH:
    step_clash(g, c, n);
    return;
  case S_EXILE_UNTIL:
    step_exile_until(g, c, n);
    return;
  default:
    log_line(g, 0, "effect unsupported=%s", op_names[n->op]);
    return;
  }
}

void eff_run(G *g, Ctx *c, const Node *steps) {
  if (steps) step(g, c, steps);
}
