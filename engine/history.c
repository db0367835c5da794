/* history.c - the history of the turn: what happened this turn and last turn
 * that the rules and cards ask about afterwards ("if a player cast two or more
 * spells last turn", "if you attacked this turn", "the damage already dealt to
 * it this turn", "if a creature died this turn", "your second card each
 * turn"). Records are made from performed events (the event pipeline calls
 * hist_before/hist_after around performing a batch) and from spells becoming
 * cast (601.2i); they live in State.hist, so snapshots, hashes and replays see
 * them. Queries count records (or add up amounts) matching a kind, a player, a
 * filter on the object as it was, and the objects involved. */
#include <string.h>

#include "internal.h"
#include "num.h"

/* A free record. When the records are full, older turns' go first; a turn
 * longer than that (a loop of mandatory actions on its way to 104.4b) forgets
 * its own oldest half. */
static Hist *hist_new(G *g) {
  State *s = g->s;
  if (s->c.nhist >= MAX_HIST) {
    int k = 0;
    for (int i = 0; i < s->c.nhist; i++)
      if (s->hist[i].turn == s->c.turn_seq) s->hist[k++] = s->hist[i];
    if (k >= MAX_HIST / 2) {
      int drop = k - MAX_HIST / 2;
      memmove(s->hist, s->hist + drop, (size_t)(k - drop) * sizeof *s->hist);
      k -= drop;
    }
    s->c.nhist = (int16_t)k;
  }
  Hist *h = &s->hist[s->c.nhist++];
  memset(h, 0, sizeof *h);
  h->turn = s->c.turn_seq;
  h->combat_n = s->c.combat_seq;
  h->player = h->to_player = -1;
  h->from = h->to = -1;
  h->times = 1;
  return h;
}

/* Sets every field of o, a record hist_new has just zeroed. */
static void hobj_of(G *g, int slot, HObj *o) {
  Lki l;
  lki_of(g, slot, &l);
  o->id = l.id;
  o->def = l.def;
  o->name = l.name;
  o->kw = l.kw;
  o->types = l.types;
  o->power = l.power;
  o->toughness = l.toughness;
  o->mv = (int16_t)l.mv;
  o->supers = l.supers;
  o->colors = l.colors;
  o->controller = l.controller;
  o->owner = l.owner;
  o->token = l.token;
  o->tapped = l.tapped;
}

static void lki_from_hobj(const HObj *o, Lki *l) {
  memset(l, 0, sizeof *l);
  l->id = o->id;
  l->slot = -1;
  l->def = o->def;
  l->name = o->name ? o->name : "";
  l->kw = o->kw;
  l->types = o->types;
  l->power = o->power;
  l->toughness = o->toughness;
  l->mv = o->mv;
  l->supers = o->supers;
  l->colors = o->colors;
  l->controller = o->controller;
  l->owner = o->owner;
  l->token = o->token;
  l->tapped = o->tapped;
  l->zone = MTG_Z_COUNT; /* where it was is not asked of a record (filter_match_lki) */
  for (int i = 0; o->def && i < o->def->nsub; i++) l->sub[l->nsub++] = o->def->subtypes[i];
}

/* The record just made repeats the one before it exactly (the same damage
 * from the same source to the same recipient, the same life gain): the two
 * are one record counting both. */
static void hist_merge_last(G *g) {
  State *s = g->s;
  int n = s->c.nhist;
  if (n < 2) return;
  Hist *a = &s->hist[n - 2], *b = &s->hist[n - 1];
  if (a->kind != b->kind || a->pending || b->pending || a->turn != b->turn || a->combat_n != b->combat_n ||
      a->combat != b->combat || a->player != b->player || a->to_player != b->to_player || a->src != b->src ||
      a->o.id != b->o.id || (b->kind != HK_DAMAGE && b->kind != HK_GAIN_LIFE && b->kind != HK_LOSE_LIFE))
    return;
  a->amount = num_add(a->amount, b->amount);
  a->times = num_add(a->times, b->times);
  s->c.nhist--;
}

void hist_turn_begin(G *g) {
  State *s = g->s;
  int k = 0;
  for (int i = 0; i < s->c.nhist; i++)
    if (s->hist[i].turn >= s->c.turn_seq - 1) s->hist[k++] = s->hist[i];
  s->c.nhist = (int16_t)k;
}

/* 701.49: a player ventured into the dungeon */
void hist_venture(G *g, int player) {
  Hist *h = hist_new(g);
  h->kind = HK_VENTURE;
  h->player = (int8_t)player;
}

void hist_cast(G *g, int player, int slot) {
  Hist *h = hist_new(g);
  h->kind = HK_CAST;
  h->player = (int8_t)player;
  hobj_of(g, slot, &h->o);
}

/* What a zone change was: a sacrifice or discard paying a cost is still a
 * sacrifice or discard (701.21a, 701.9a: "sacrificed this turn") */
static int hist_cause(const Event *e) { return e->cause == CA_COST && e->cost_cause ? e->cost_cause : e->cause; }

/* The player who moved an object: a discarding player is the card's owner
 * (701.9a), a sacrificing one the permanent's controller (701.21a); otherwise
 * the controller of the spell or ability that did it, or the player paying a
 * cost (-1: a rule). */
static int mover(const Event *e, const HObj *l) {
  int cause = hist_cause(e);
  if (cause == CA_DISCARD) return l->owner;
  if (cause == CA_SACRIFICE) return l->controller;
  return e->cause_ctl;
}

/* The same for an event about to be performed or just performed: the
 * object's owner and controller are still those it had. */
int hist_mover(G *g, const Event *e) {
  int cause = hist_cause(e);
  if (e->type != EV_ZONE || (cause != CA_DISCARD && cause != CA_SACRIFICE)) return e->cause_ctl;
  int slot = e->obj.slot;
  if (slot < 0 || slot >= g->s->c.nslots) return e->cause_ctl;
  const Obj *o = &g->s->obj[slot];
  return cause == CA_DISCARD ? o->owner : o->id == e->obj.id ? obj_controller(g, slot) : e->cause_ctl;
}

/* Objects leaving the battlefield are recorded as they last existed there,
 * before the batch is performed (the same look as 603.10's). */
int hist_before(G *g, const Event *b, int m) {
  State *s = g->s;
  int from = s->c.nhist;
  for (int i = 0; i < m; i++) {
    const Event *e = &b[i];
    if (e->type != EV_ZONE || e->done || !oref_ok(g, e->obj) || s->obj[e->obj.slot].zone != MTG_Z_BATTLEFIELD) continue;
    Hist *h = hist_new(g);
    h->kind = HK_ZONE;
    h->pending = 1;
    s->c.nhist_pend++;
    hobj_of(g, e->obj.slot, &h->o);
    h->from = MTG_Z_BATTLEFIELD;
    h->to = e->to;
    h->cause = (uint8_t)hist_cause(e);
    h->player = (int8_t)mover(e, &h->o);
  }
  return from;
}

static Hist *pending_for(G *g, uint32_t id) {
  State *s = g->s;
  if (!s->c.nhist_pend) return NULL;
  for (int i = s->c.nhist - 1; i >= 0; i--)
    if (s->hist[i].pending == 1 && s->hist[i].o.id == id) return &s->hist[i];
  return NULL;
}

void hist_after(G *g, const Event *b, int m, int from) {
  State *s = g->s;
  for (int i = 0; i < m; i++) {
    const Event *e = &b[i];
    if (!e->done) continue;
    Hist *h;
    switch (e->type) {
    case EV_ZONE:
      if ((h = pending_for(g, e->obj.id))) {
        h->pending = 2; /* performed */
        h->new_id = e->new_id;
        h->to = e->to;
        break;
      }
      if (e->new_slot < 0 || s->obj[e->new_slot].id != e->new_id) break;
      h = hist_new(g);
      h->kind = HK_ZONE;
      /* what is not leaving the battlefield is recorded as it now is: a
       * permanent as it entered (603.6b), a card in its new zone */
      hobj_of(g, e->new_slot, &h->o);
      h->o.id = e->obj.id;
      h->new_id = e->new_id;
      h->from = e->from;
      h->to = e->to;
      h->cause = (uint8_t)hist_cause(e);
      h->player = (int8_t)mover(e, &h->o);
      break;
    case EV_DRAW:
      if (!e->new_id) break;
      h = hist_new(g);
      h->kind = HK_DRAW;
      h->player = e->player;
      h->o.id = e->new_id;
      break;
    case EV_ATTACKS:
      if (!oref_ok(g, e->obj)) break;
      h = hist_new(g);
      h->kind = HK_ATTACK;
      hobj_of(g, e->obj.slot, &h->o);
      h->player = (int8_t)h->o.controller;
      h->to_player = e->player;
      break;
    case EV_DAMAGE:
      h = hist_new(g);
      h->kind = HK_DAMAGE;
      h->combat = (e->flags & EF_COMBAT) != 0;
      h->amount = e->amount;
      h->src = e->src.id;
      h->player = (int8_t)(oref_ok(g, e->src) ? obj_controller(g, e->src.slot) : e->cause_ctl);
      if (e->player >= 0) h->to_player = e->player;
      else if (oref_ok(g, e->obj)) hobj_of(g, e->obj.slot, &h->o);
      hist_merge_last(g);
      if (e->player >= 0 && e->aux > 0) {
        /* 120.3a: damage to a player is life lost, as much as the total went
         * down; not merged: the record before it is the damage's own */
        Hist *l = hist_new(g);
        l->kind = HK_LOSE_LIFE;
        l->player = e->player;
        l->amount = e->aux;
      }
      break;
    case EV_GAIN_LIFE:
    case EV_LOSE_LIFE:
      h = hist_new(g);
      h->kind = e->type == EV_GAIN_LIFE ? HK_GAIN_LIFE : HK_LOSE_LIFE;
      h->player = e->player;
      h->amount = e->amount;
      hist_merge_last(g);
      break;
    default:
      break;
    }
  }
  /* records of events that weren't performed never happened (a turn too
   * long for the records may have moved them before `from`, the count
   * hist_before returned) */
  if (from > s->c.nhist) from = 0;
  int tail = 0;
  for (int i = from; i < s->c.nhist; i++) tail += s->hist[i].pending != 0;
  if (tail != s->c.nhist_pend) /* some may lie before the batch's */
    for (int i = 0; i < from; i++)
      if (s->hist[i].pending) from = i;
  int k = from;
  for (int i = from; i < s->c.nhist; i++) {
    if (s->hist[i].pending == 1) continue;
    s->hist[i].pending = 0;
    s->hist[k++] = s->hist[i];
  }
  s->c.nhist = (int16_t)k;
  s->c.nhist_pend = 0; /* none is left before from, nor from it on */
}

/* ---- queries ---- */

/* The object ids a selector names, with the last known object where it is
 * gone (the source of a dies trigger, the triggering object). */
static int sel_ids(G *g, Ctx *c, const Node *n, uint32_t ids[MAX_SEL], int8_t *players, int *np) {
  Sel s;
  sel_eval(g, c, n, &s);
  int k = 0;
  for (int i = 0; i < s.n; i++) ids[k++] = s.o[i].id;
  if (np) {
    *np = 0;
    for (int i = 0; i < s.np; i++) players[(*np)++] = s.p[i];
  }
  if (!s.n && !s.np) {
    /* nothing is there any more: at most two ids of what was */
    if (n->op == SL_SELF && c->srcl && c->srcl->id) ids[k++] = c->srcl->id;
    if (n->op == SL_IT && c->tc) {
      if (c->tc->objl.id) ids[k++] = c->tc->objl.id;
      if (c->tc->obj.id) ids[k++] = c->tc->obj.id;
    }
  }
  return k;
}

static int id_in(uint32_t id, const uint32_t *ids, int n) {
  for (int i = 0; id && i < n; i++)
    if (ids[i] == id) return 1;
  return 0;
}

static int player_in(int p, const int8_t *ps, int n) {
  for (int i = 0; p >= 0 && i < n; i++)
    if (ps[i] == p) return 1;
  return 0;
}

static int hobj_match(G *g, Ctx *c, const Filter *f, const HObj *o) {
  Lki l;
  lki_from_hobj(o, &l);
  return filter_match_lki(g, c, f, &l);
}

int hist_count(G *g, Ctx *c, int kind, int player, const Filter *f) {
  State *s = g->s;
  int n = 0;
  for (int i = 0; i < s->c.nhist; i++) {
    const Hist *h = &s->hist[i];
    if (h->kind != kind || h->pending == 1 || h->turn != s->c.turn_seq) continue;
    if (player >= 0 && h->player != player) continue;
    if (f && !hobj_match(g, c, f, &h->o)) continue;
    n = num_add(n, h->times);
  }
  return n;
}

int hist_value(G *g, Ctx *c, const Node *n) {
  State *s = g->s;
  int kind = n->i & 0xff, cause = (n->i >> 8 & 0xff) - 1, from = (n->i >> 16 & 0xff) - 1, to = (n->i >> 24 & 0xff) - 1;
  int turn = s->c.turn_seq - ((n->j & HQ_LAST_TURN) != 0);
  uint32_t obj[MAX_SEL], dst[MAX_SEL], src[MAX_SEL];
  int8_t byp[MAX_PLAYERS], dstp[MAX_PLAYERS];
  int nobj = 0, ndst = 0, nsrc = 0, nbyp = 0, ndstp = 0;
  /* k[0] names players only: obj is scratch until k[1] fills it */
  if (n->k[0]) sel_ids(g, c, n->k[0], obj, byp, &nbyp);
  if (n->k[1]) nobj = sel_ids(g, c, n->k[1], obj, NULL, NULL);
  if (n->k[2]) ndst = sel_ids(g, c, n->k[2], dst, dstp, &ndstp);
  if (n->k[3]) nsrc = sel_ids(g, c, n->k[3], src, NULL, NULL);
  int total = 0;
  for (int i = 0; i < s->c.nhist; i++) {
    const Hist *h = &s->hist[i];
    if (h->kind != kind || h->pending == 1 || h->turn != turn) continue;
    if ((n->j & HQ_THIS_COMBAT) && h->combat_n != s->c.combat_seq) continue;
    if ((n->j & HQ_COMBAT) && !h->combat) continue;
    if ((n->j & HQ_NONCOMBAT) && h->combat) continue;
    if (cause >= 0 && h->cause != cause) continue;
    if (from >= 0 && h->from != from) continue;
    if (to >= 0 && h->to != to) continue;
    if (n->k[0] && !player_in(h->player, byp, nbyp)) continue;
    if (n->k[1] && !id_in(h->o.id, obj, nobj) && !id_in(h->new_id, obj, nobj)) continue;
    if (n->k[2] && !(h->to_player >= 0 ? player_in(h->to_player, dstp, ndstp) : id_in(h->o.id, dst, ndst))) continue;
    if (n->k[3] && !id_in(h->src, src, nsrc)) continue;
    if (n->f && !hobj_match(g, c, n->f, &h->o)) continue;
    total = num_add(total, (kind == HK_DAMAGE || kind == HK_GAIN_LIFE || kind == HK_LOSE_LIFE) && !(n->j & HQ_EVENTS) ? h->amount : h->times);
  }
  return total;
}

uint64_t hist_hash(G *g, uint64_t h) {
  State *s = g->s;
  for (int i = 0; i < s->c.nhist; i++) {
    const Hist *r = &s->hist[i];
    h = hash_mix(h ^ ((uint64_t)r->kind << 56 | (uint64_t)r->cause << 48 | (uint64_t)(uint8_t)r->player << 40 |
                      (uint64_t)(uint8_t)r->to_player << 32 | (uint64_t)(uint8_t)r->from << 24 |
                      (uint64_t)(uint8_t)r->to << 16 | (uint64_t)r->combat << 8));
    h = hash_mix(h ^ ((uint64_t)(uint32_t)r->turn << 32 | (uint32_t)r->combat_n));
    h = hash_mix(h ^ ((uint64_t)r->src << 32 | r->new_id));
    h = hash_mix(h ^ ((uint64_t)r->o.id << 32 | (uint32_t)r->amount));
    h = hash_mix(h ^ (uint32_t)r->times);
    h = hash_mix(h ^ (r->o.def ? r->o.def->hash : 0));
    h = hash_mix(h ^ ((uint64_t)r->o.types << 32 | (uint64_t)r->o.controller << 8 | r->o.colors));
  }
  return hash_mix(h ^ (uint64_t)s->c.nhist);
}
