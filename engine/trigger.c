/* trigger.c - triggered abilities (rule 603): detecting them against each
 * performed event (looking back in time for the 603.10 cases), "at the
 * beginning of" steps (603.2b), state triggers (603.8), delayed (603.7) and
 * reflexive (603.12) triggers, and putting waiting triggers on the stack in
 * APNAP order with each player ordering their own (603.3b). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "num.h"

void trig_index_dirty(G *g) { g->abil_epoch++; }

/* An ability's trigger patterns: its trigger event and, for an ability with
 * several ("attacks or blocks"), the others. */
static int npats(const Ability *ab) { return 1 + ab->nalt; }
static const TrigPat *pat_at(const Ability *ab, int i) { return i ? &ab->alt[i - 1] : &ab->trig; }

/* The pattern of ab for trigger event te (and step, for TE_STEP), or NULL. */
static const TrigPat *pat_for(const Ability *ab, int te, int step) {
  for (int i = 0; i < npats(ab); i++) {
    const TrigPat *t = pat_at(ab, i);
    if (t->ev == te && (te != TE_STEP || t->step == step)) return t;
  }
  return NULL;
}

/* The listener index: for each trigger event, the (slot, ability) pairs of
 * triggered abilities that currently function. */
/* Objects whose triggered abilities can trigger: none in hidden zones (603.2g). */
static int indexable(const Obj *o) {
  return o->id && !o->phased_out && o->zone != MTG_Z_HAND && o->zone != MTG_Z_LIBRARY &&
         !(o->zone == MTG_Z_EXILE && o->face_down);
}

/* How many (slot, ability) pairs the index may need for one event. */
static int index_need(G *g) {
  State *s = g->s;
  int need = 0;
  for (int i = 0; i < s->c.nslots; i++)
    if (indexable(&s->obj[i]))
      for (int a = 0; a < chars(g, i)->nab; a++) need += npats(chars(g, i)->ab[a].ab);
  return need;
}

/* The index into li (cap entries, two per pair, for each event) and li_n:
 * 0, or -1 when an event's pairs do not fit (never with room for
 * index_need's pairs). */
static int index_fill(G *g, int16_t *li, int cap, int *li_n) {
  State *s = g->s;
  memset(li_n, 0, TE_COUNT * sizeof *li_n);
  for (int i = 0; i < s->c.nslots; i++) {
    const Obj *o = &s->obj[i];
    if (!indexable(o)) continue;
    const Chars *c = chars(g, i);
    for (int a = 0; a < c->nab; a++) {
      const Ability *ab = c->ab[a].ab;
      if (ab->kind != AB_TRIGGERED) continue;
      int z = ab->zone < 0 ? MTG_Z_BATTLEFIELD : ab->zone;
      if (o->zone != z && ab->zone != AB_ZONE_ANY) continue;
      for (int p = 0; p < npats(ab); p++) {
        int te = pat_at(ab, p)->ev, seen = 0;
        for (int q = 0; q < p; q++) seen |= pat_at(ab, q)->ev == te; /* listed once per event */
        if (seen) continue;
        if (li_n[te] * 2 + 2 > cap) return -1;
        int16_t *l = li + (size_t)te * (size_t)cap;
        l[li_n[te] * 2] = (int16_t)i;
        l[li_n[te] * 2 + 1] = (int16_t)a;
        li_n[te]++;
      }
    }
  }
  return 0;
}

/* One pass over the objects when the room of the last rebuild is enough (it
 * nearly always is); else the room index_need asks for, and a second. */
static void index_rebuild(G *g) {
  if (!g->li || index_fill(g, g->li, g->li_cap, g->li_n)) {
    int need = index_need(g);
    if (need * 2 > g->li_cap) {
      int cap = need * 2 + 64;
      int16_t *l = realloc(g->li, (size_t)cap * TE_COUNT * sizeof *l);
      if (!l) game_throw(g, JMP_NOMEM);
      g->li = l;
      g->li_cap = cap;
    }
    index_fill(g, g->li, g->li_cap, g->li_n);
  }
  g->li_abil = g->abil_epoch;
  g->li_epoch = g->epoch;
}

/* Rebuilt when abilities may have come or gone: on zone changes and the
 * like (trig_index_dirty), and, while effects grant abilities (whose
 * conditions or affected sets may change with anything), whenever
 * characteristics changed. */
int trig_index_valid(G *g) {
  return g->li_abil == g->abil_epoch && g->li && g->li_epoch != 0 && !(g->grants && g->li_epoch != g->epoch);
}

static void index_ensure(G *g) {
  if (!trig_index_valid(g)) index_rebuild(g);
}

int trig_index_check(G *g, char *why, size_t n) {
  int cap = index_need(g) * 2 + 2;
  int16_t *li = malloc((size_t)cap * TE_COUNT * sizeof *li);
  int li_n[TE_COUNT];
  if (!li) {
    snprintf(why, n, "out of memory in the checker");
    return -1;
  }
  index_fill(g, li, cap, li_n);
  int rc = 0;
  for (int te = 0; te < TE_COUNT && !rc; te++) {
    const int16_t *a = g->li + (size_t)te * (size_t)g->li_cap, *b = li + (size_t)te * (size_t)cap;
    if (g->li_n[te] != li_n[te]) {
      snprintf(why, n, "the trigger index is stale: %d abilities listen for trigger event %d, a rebuild finds %d", g->li_n[te], te,
               li_n[te]);
      rc = -1;
    }
    for (int k = 0; k < li_n[te] * 2 && !rc; k += 2)
      if (a[k] != b[k] || a[k + 1] != b[k + 1]) {
        snprintf(why, n, "the trigger index is stale: for trigger event %d it lists ability %d of #%u, a rebuild ability %d of #%u", te,
                 a[k + 1], (unsigned)g->s->obj[a[k]].id, b[k + 1], (unsigned)g->s->obj[b[k]].id);
        rc = -1;
      }
  }
  free(li);
  return rc;
}

static void tc_from_event(G *g, const Event *e, TrigCtx *tc) {
  memset(tc, 0, sizeof *tc);
  tc->ev = e->type;
  tc->player = e->player;
  tc->player2 = e->player2;
  tc->obj = e->obj;
  tc->src = e->src;
  tc->amount = e->amount;
  tc->from = e->from;
  tc->to = e->to;
  tc->new_id = e->new_id;
  tc->new_slot = e->new_slot;
  tc->cause_id = e->cause_id;
  tc->ckind = e->ckind;
  if (e->type == EV_MANA && !e->obj.id) tc->obj = e->src; /* "it": the permanent tapped for mana */
  /* the object as the trigger sees it: before the event when it looks back,
   * else as it is after it (an entering permanent, 603.6a) */
  if (oref_ok(g, tc->obj)) lki_of(g, tc->obj.slot, &tc->objl);
  else if (oref_ok(g, ev_new_obj(e))) lki_of(g, e->new_slot, &tc->objl);
  if (oref_ok(g, e->src)) lki_of(g, e->src.slot, &tc->srcl);
  else if (e->type == EV_DISCARD && !e->src.id && e->cause_id) {
    /* "the spell or ability that caused you to discard it" (608.2h): the
     * triggering source of a discard is what caused it, still on the stack as
     * the discard happens, read as it last existed there once it is gone; an
     * ability is its source object with the ability's controller. A discard
     * no spell or ability caused (514.1) has none. */
    int k = stack_find(g, e->cause_id);
    if (k >= 0) {
      const StackItem *si = &g->s->stack[k];
      tc->src = si->kind == SI_SPELL ? oref(g, si->slot) : si->src;
      if (si->kind == SI_SPELL && oref_ok(g, tc->src)) lki_of(g, si->slot, &tc->srcl);
      else tc->srcl = si->srcl;
      tc->srcl.controller = si->controller;
    }
  }
}

static void scan(G *g, const Event *e, int lookback);

/* src may name an object gone from its zone: a delayed ability's source is
 * the one of the ability that created it, even a spell now in a graveyard
 * (603.7d); it then acts as that object last existed (srcl). delayed: the
 * delayed trigger's effect, whose choices and objects the ability carries, or
 * NULL. */
static void add_pending(G *g, const Ability *ab, const CardDef *def, uint16_t grant, ORef src, const Lki *srcl,
                        int controller, const TrigCtx *tc, const Effect *delayed) {
  State *s = g->s;
  if (ab->kind == AB_TRIGGERED && ab->mana) {
    /* 605.4a: a triggered mana ability doesn't wait for the stack: it
     * resolves right after the mana ability that triggered it */
    if (g->nmtq >= NELEM(g->w->mtq)) game_limit(g, "triggered mana abilities waiting at once", (int)NELEM(g->w->mtq));
    Pending *q = &g->w->mtq[g->nmtq++];
    memset(q, 0, sizeof *q);
    q->ab = ab;
    q->def = def;
    q->grant = grant;
    q->src = src;
    if (srcl) q->srcl = *srcl;
    else if (oref_ok(g, src)) lki_of(g, src.slot, &q->srcl);
    q->controller = (uint8_t)controller;
    if (tc) q->tc = *tc;
    return;
  }
  if (s->c.npend >= MAX_PENDING) game_limit(g, "triggered abilities waiting to be put on the stack", MAX_PENDING);
  Pending *p = &s->pend[s->c.npend++];
  memset(p, 0, sizeof *p);
  p->ab = ab;
  p->def = def;
  p->grant = grant;
  p->src = src;
  if (srcl) p->srcl = *srcl;
  else if (oref_ok(g, src)) lki_of(g, src.slot, &p->srcl);
  p->controller = (uint8_t)controller;
  if (tc) p->tc = *tc;
  if (delayed) p->eff_id = delayed->id; /* a delayed trigger: the effect that made it (603.7) */
  p->seq = ++s->c.next_seq;
  p->state_trig = ab->trig.ev == TE_STATE; /* 603.8: a state trigger (trig_state adds them) */
  if (!g->defer_trig_log) trig_log(g, s->c.npend - 1, s->c.npend);
  if (ab->trig.ev != TE_TRIGGERED) {
    /* abilities that trigger on this ability triggering (603.3b's second part) */
    Event te;
    ev_init(&te, EV_TRIGGER);
    te.obj = src;
    te.player = (int8_t)controller;
    te.done = 1;
    scan(g, &te, 0);
  }
}

/* Logs triggers pend[from..to): look-back triggers are found before the
 * events that cause them are performed, and logged after them (to is within
 * the list: it only grows until the triggers are put on the stack). */
void trig_log(G *g, int from, int to) {
  State *s = g->s;
  for (int i = from; i < to; i++) {
    Pending *p = &s->pend[i];
    char nm[110];
    fmt_lki(&p->srcl, nm, sizeof nm);
    log_line(g, 0, "trigger src=%s ability=%d controller=%s%s%s", nm, p->ab->index, player_name(g, p->controller),
             p->tc.ev ? " event=" : "", p->tc.ev ? ev_names[p->tc.ev] : "");
  }
}

static int pat_obj(G *g, Ctx *c, const TrigPat *t, ORef o, const Lki *l, uint32_t src_id, int lookback) {
  if (t->self) return o.id == src_id || (l && l->id == src_id);
  if (t->attached) {
    /* the object this source is attached to */
    if (oref_ok(g, c->src)) return g->s->obj[c->src.slot].attached.id == o.id;
    return c->srcl && c->srcl->attached.id == o.id;
  }
  if (t->self_or_other && o.id == src_id) return 1; /* l comes only with activate triggers, which have no self_or_other */
  if (!t->obj) return 1;
  if (!lookback && oref_ok(g, o)) {
    Filter f = *t->obj;
    if (f.zone == -1 && g->s->obj[o.slot].zone != MTG_Z_BATTLEFIELD) f.zone = -2;
    return filter_match(g, c, &f, o.slot);
  }
  if (oref_ok(g, o)) return filter_match(g, c, t->obj, o.slot);
  return l ? filter_match_lki(g, c, t->obj, l) : 0;
}

/* Does event e (already performed, or about to be when lookback) match t?
 * Its callers pass only the trigger events scan derives from e's type, so a
 * case checks the type only where several types lead to its trigger event. */
static int pat_match(G *g, Ctx *c, const TrigPat *t, const Event *e, uint32_t src_id, int lookback) {
  State *s = g->s;
  ORef obj = e->obj;
  if (!lookback && e->type == EV_ZONE && oref_ok(g, ev_new_obj(e))) obj = ev_new_obj(e);
  switch (t->ev) {
  case TE_ENTERS:
    if (e->to != MTG_Z_BATTLEFIELD) return 0;
    return pat_obj(g, c, t, obj, NULL, src_id, 0);
  case TE_DIES:
    /* 700.4: any permanent put into a graveyard from the battlefield; the
     * pattern's filter says which ("a creature") */
    if (e->from != MTG_Z_BATTLEFIELD || e->to != MTG_Z_GRAVEYARD) return 0;
    if (!oref_ok(g, e->obj)) return 0;
    return pat_obj(g, c, t, e->obj, NULL, src_id, 1);
  case TE_LEAVES:
    if (e->from != MTG_Z_BATTLEFIELD) return 0;
    return pat_obj(g, c, t, e->obj, NULL, src_id, 1);
  case TE_ZONE:
    if ((t->to >= 0 && e->to != t->to) || e->from == e->to) return 0;
    if (t->from >= 0 && e->from != t->from) return 0;
    if (t->from_mask && (e->from < 0 || !(t->from_mask >> e->from & 1))) return 0;
    if (t->by && !rel_match(g, c, t->by, hist_mover(g, e))) return 0; /* "whenever you exile ..." */
    if (t->self && t->from_anywhere) return obj.id == src_id;
    return pat_obj(g, c, t, lookback ? e->obj : obj, NULL, src_id, lookback);
  case TE_CAST:
    if (t->player && !rel_match(g, c, t->player, e->player)) return 0;
    if (t->self) return e->obj.id == src_id;
    if (t->obj && !filter_match(g, c, t->obj, e->obj.slot)) return 0;
    /* "your Nth [quality] spell each turn": this one is the Nth such spell cast this turn */
    return !t->nth || hist_count(g, c, HK_CAST, t->nth_in_turn ? -1 : e->player, t->obj) == t->nth;
  case TE_ACTIVATE:
    if (t->player && !rel_match(g, c, t->player, e->player)) return 0;
    if (t->tap_cost >= 0 && (e->aux != 0) != t->tap_cost) return 0; /* "with / without {T} in its activation cost" */
    /* "an ability of this" or of a filtered object: the ability's source ("ability" alone: any),
     * as it was when activated if paying the cost took it away */
    if (t->self || (t->obj && !t->obj->stack_ability)) return pat_obj(g, c, t, e->obj, g->act_lki, src_id, 1);
    return 1;
  case TE_DRAW:
    if (!e->new_id) return 0;
    if (!rel_match(g, c, t->player, e->player)) return 0;
    return !t->nth || hist_count(g, c, HK_DRAW, e->player, NULL) == t->nth; /* "your second card each turn" */
  case TE_GAIN_LIFE:
    return rel_match(g, c, t->player, e->player);
  case TE_LOSE_LIFE:
    return rel_match(g, c, t->player, e->player);
  case TE_LOSES:
    return rel_match(g, c, t->player, e->player);
  case TE_DAMAGE:
  case TE_PREVENTED:
    if (t->combat >= 0 && ((e->flags & EF_COMBAT) != 0) != t->combat) return 0;
    if (t->src_self && e->src.id != src_id) return 0;
    if (t->attached) {
      ORef att = oref_ok(g, c->src) ? s->obj[c->src.slot].attached : (c->srcl ? c->srcl->attached : oref_none());
      if (!att.id || e->src.id != att.id) return 0;
    }
    if (t->src) {
      if (!oref_ok(g, e->src)) return 0;
      Filter f = *t->src;
      if (f.zone == -1) f.zone = -2;
      if (!filter_match(g, c, &f, e->src.slot)) return 0;
    }
    if (t->to_self && e->obj.id != src_id) return 0;
    if (t->to_player && (e->player < 0 || !rel_match(g, c, t->player, e->player))) return 0;
    if (t->obj && !(e->obj.id && oref_ok(g, e->obj) && filter_match(g, c, t->obj, e->obj.slot))) return 0;
    return 1;
  case TE_ATTACKS:
    /* 506.5: it attacks alone if it is the only creature declared as an attacker */
    if (t->alone && s->c.nattackers != 1) return 0;
    return pat_obj(g, c, t, e->obj, NULL, src_id, 0);
  case TE_BLOCKS:
    /* "blocks [this creature]" / "becomes blocked by [a creature]": the creature blocked (509.3b, 509.3d) */
    if (t->atk_self && e->src.id != src_id) return 0;
    if (t->atk && !(oref_ok(g, e->src) && filter_match(g, c, t->atk, e->src.slot))) return 0;
    /* 509.3a: "whenever [it] blocks", about no creature blocked, once for a creature blocking several */
    if (!t->atk_self && !t->atk && e->amount) return 0;
    return pat_obj(g, c, t, e->obj, NULL, src_id, 0);
  case TE_EXERTED: /* 701.43 */
    if (t->player && !rel_match(g, c, t->player, e->player)) return 0;
    return pat_obj(g, c, t, e->obj, NULL, src_id, 0);
  case TE_BECOMES: /* 701.37b, 702.112b, 702.122d, 716.2a */
    if (e->ckind != t->designation || (t->level && e->amount != t->level)) return 0;
    return pat_obj(g, c, t, e->obj, NULL, src_id, 0);
  case TE_UNBLOCKED: /* 509.3g */
  case TE_BLOCKED:
  case TE_TAPPED: /* 603.2f: only a permanent already on the battlefield "becomes" tapped */
  case TE_UNTAPPED:
  case TE_FACE_UP:
    return pat_obj(g, c, t, e->obj, NULL, src_id, 0);
  case TE_COUNTERS:
    if (!e->obj.id) return 0;
    if (t->counter && e->ckind != ckind_id(g, t->counter)) return 0;
    return pat_obj(g, c, t, e->obj, NULL, src_id, 0);
  case TE_COUNTERED:
    return pat_obj(g, c, t, e->obj, NULL, src_id, 1);
  case TE_DISCARD:
    /* the card as it is in the hand, before it is discarded (603.10a): its
     * characteristics there, wherever the filter would look by default */
    if (t->player && oref_ok(g, e->obj) && !rel_match(g, c, t->player, s->obj[e->obj.slot].owner)) return 0;
    return pat_obj(g, c, t, e->obj, NULL, src_id, 0);
  case TE_SACRIFICE:
    return pat_obj(g, c, t, e->obj, NULL, src_id, 1);
  case TE_UNATTACHED:
    if (e->type == EV_UNATTACH) return pat_obj(g, c, t, e->obj, NULL, src_id, 1);
    /* 701.3d: an attached object leaving the battlefield, or the object it
     * is attached to leaving, counts as becoming unattached (looks back: scan
     * derives this trigger event from no other event than a zone change from
     * the battlefield, seen here before it is performed) */
    if (!oref_ok(g, e->obj)) return 0;
    if (oref_ok(g, s->obj[e->obj.slot].attached) || s->obj[e->obj.slot].attached_player >= 0)
      if (pat_obj(g, c, t, e->obj, NULL, src_id, 1)) return 1;
    for (int i = 0; i < s->c.nslots; i++)
      if (s->obj[i].id && s->obj[i].zone == MTG_Z_BATTLEFIELD && s->obj[i].attached.id == e->obj.id &&
          pat_obj(g, c, t, oref(g, i), NULL, src_id, 1))
        return 1;
    return 0;
  case TE_CONTROL_LOST:
    /* 603.10d: looks back; the player losing control is player2 */
    if (t->player && !rel_match(g, c, t->player, e->player2)) return 0;
    return pat_obj(g, c, t, e->obj, NULL, src_id, 1);
  case TE_REVEAL:
    if (t->this_way && (e->cause_id != src_id || e->aux != 1)) return 0;
    if (t->obj && oref_ok(g, e->obj)) {
      Filter f = *t->obj;
      if (f.zone == -1) f.zone = -2;
      return filter_match(g, c, &f, e->obj.slot);
    }
    return !t->obj;
  case TE_TRIGGERED:
    /* "whenever a triggered ability of [subject] triggers": the subject is its source */
    if (t->player && !rel_match(g, c, t->player, e->player)) return 0;
    return pat_obj(g, c, t, e->obj, NULL, src_id, 0);
  case TE_PHASED_OUT:
    if (!e->amount) return 0;
    return pat_obj(g, c, t, e->obj, NULL, src_id, 1);
  case TE_TARGETED:
    /* "becomes the target of a spell or ability [an opponent controls]": one
     * event for each object or player a spell or ability targets */
    if (t->by && !rel_match(g, c, t->by, e->player)) return 0;
    if (t->by_kind && (t->by_kind == 1) != (e->aux == 1)) return 0;
    if (t->src) {
      /* the spell, or the ability's source where it is; a source gone (sacrificed to
       * pay the cost) as it last existed (113.7a), as its stack item keeps it */
      Filter f = *t->src;
      if (f.zone == -1) f.zone = -2;
      if (oref_ok(g, e->src)) {
        if (!filter_match(g, c, &f, e->src.slot)) return 0;
      } else {
        int k = stack_find(g, e->cause_id);
        if (k < 0 || !filter_match_lki(g, c, &f, &s->stack[k].srcl)) return 0;
      }
    }
    if (e->player2 >= 0) return t->obj && t->obj->player_target && filter_match_player(g, c, t->obj, e->player2);
    return pat_obj(g, c, t, e->obj, NULL, src_id, 0);
  case TE_COUNTERS_REMOVED:
    if (!e->obj.id) return 0;
    if (t->counter && e->ckind != ckind_id(g, t->counter)) return 0;
    if (t->last && !e->emptied) return 0; /* "when the last [kind] counter is removed" */
    return pat_obj(g, c, t, e->obj, NULL, src_id, 0);
  case TE_MANA:
    return pat_obj(g, c, t, e->src, NULL, src_id, 0);
  case TE_CYCLE: {
    /* 702.29c: the card discarded to pay a cost of its own cycling ability,
     * seen where it wound up (never a look-back pattern: cardload.c);
     * 702.29d: "cycles or discards" is a discard trigger */
    int i = stack_find(g, e->cause_id);
    if (i < 0 || s->stack[i].kind != SI_ACTIVATED || !s->stack[i].ab->cycling || s->stack[i].src.id != e->obj.id) return 0;
    if (t->player && !rel_match(g, c, t->player, s->stack[i].controller)) return 0;
    if (t->self) return obj.id == src_id;
    if (!t->obj) return 1;
    if (!oref_ok(g, obj)) return 0;
    Filter f = *t->obj;
    if (f.zone == -1) f.zone = -2;
    return filter_match(g, c, &f, obj.slot);
  }
  case TE_CHAPTER:
    return ct_chapter_match(g, t, e, src_id); /* 714.2b */
  case TE_DEFEATED:
    return ct_defeated(g, e) && pat_obj(g, c, t, e->obj, NULL, src_id, 0); /* 310.11b */
  case TE_SET_IN_MOTION: /* 904.9 */
    return pat_obj(g, c, t, e->obj, NULL, src_id, 0);
  case TE_PLANESWALK_TO: /* 901.11, 312.5: "when you encounter" is planeswalking to a phenomenon */
    return pat_obj(g, c, t, e->obj, NULL, src_id, 0);
  case TE_PLANESWALK_AWAY: /* 901.11b; looks back in time (603.10g) */
    if (e->amount != 1) return 0;
    return pat_obj(g, c, t, e->obj, NULL, src_id, 1);
  default:
    return 0;
  }
}

enum { TRIG_DYING = 1 << 30 };

/* Whether a trigger rule effect is about this permanent (arg: its card types)
 * entering or, with TRIG_DYING, dying: "creatures", "artifacts or creatures",
 * "permanents" (Torpor Orb, Panharmonicon, Elesh Norn, Teysa Karlov). */
static int trig_rule_matches(G *g, Ctx *cx, const StaticSpec *st, int arg) {
  (void)g, (void)cx;
  if (st->kind == SE_EXTRA_TRIGGER && !st->trig_dies != !(arg & TRIG_DYING)) return 0;
  uint32_t types = (uint32_t)arg & T_PERMANENT;
  switch (st->trig_kind) {
  case TK_CREATURE: return (types & T_CREATURE) != 0;
  case TK_ARTIFACT_OR_CREATURE: return (types & (T_CREATURE | T_ARTIFACT)) != 0;
  default: return 1;
  }
}

/* 603.2d, Torpor Orb, Hushbringer, Panharmonicon: how many times it triggers.
 * controller: the triggered ability's; each rule effect's `affects` says whose
 * abilities it stops or doubles ("abilities of permanents your opponents
 * control", each player's for Torpor Orb). */
static int times(G *g, const TrigPat *t, const Event *e, int src_slot, int controller) {
  if (e->type != EV_ZONE) return 1;
  int entering = e->to == MTG_Z_BATTLEFIELD && (t->ev == TE_ENTERS || t->ev == TE_ZONE);
  /* "put into a graveyard from anywhere" is not a dying trigger (Hushbringer's ruling) */
  int dying = e->from == MTG_Z_BATTLEFIELD && e->to == MTG_Z_GRAVEYARD &&
              (t->ev == TE_DIES || (t->ev == TE_ZONE && !t->from_anywhere) || t->ev == TE_LEAVES);
  if (!entering && !dying) return 1;
  int slot = entering ? e->new_slot : e->obj.slot;
  if (slot < 0 || !g->s->obj[slot].id) return 1;
  int arg = (int)(chars(g, slot)->types & T_PERMANENT) | (dying ? TRIG_DYING : 0);
  if (rule_effect_if(g, entering ? SE_NO_ETB_TRIGGERS : SE_NO_DIES_TRIGGERS, controller, -1, trig_rule_matches, arg)) return 0;
  /* "a triggered ability of a permanent you control": a dying creature's own
   * ability looks back to it on the battlefield (603.10a) */
  if (src_slot >= 0 && g->s->obj[src_slot].zone == MTG_Z_BATTLEFIELD)
    return 1 + rule_effect_count(g, SE_EXTRA_TRIGGER, controller, -1, trig_rule_matches, arg);
  return 1;
}

/* The pattern of ab with event te that e matches; an ability with several
 * trigger events triggers once for an event any of them matches. */
static const TrigPat *pat_matching(G *g, Ctx *cx, const Ability *ab, int te, const Event *e, uint32_t src_id, int lookback) {
  for (int i = 0; i < npats(ab); i++) {
    const TrigPat *t = pat_at(ab, i);
    if (t->ev == te && t->lookback == lookback && pat_match(g, cx, t, e, src_id, lookback)) return t;
  }
  return NULL;
}

static void check_listener(G *g, int slot, int a, int te, const Event *e, int lookback) {
  const Chars *c = chars(g, slot);
  const AbRef *r = &c->ab[a];
  const Ability *ab = r->ab;
  const Obj *o = &g->s->obj[slot];
  Ctx cx;
  ctx_for(g, &cx, c->controller, oref(g, slot));
  cx.def = r->def;
  cx.grant = r->grant;
  const TrigPat *t = pat_matching(g, &cx, ab, te, e, o->id, lookback);
  if (!t) return;
  if (ab->trig.once_per_turn && (o->abil_used[0] >> (ab->index & 31) & 1)) return; /* 603.2i: action taken this turn */
  /* 603.2c, 510.2: simultaneous damage is one occurrence per source for
   * "whenever X deals damage", one per recipient for "whenever X is dealt
   * damage" (several sources at once: once); "that much" is the total */
  int merge = t->batch || (t->ev == TE_DAMAGE && (t->to_self || (!t->to_player && !t->obj)));
  uint32_t key = 0;
  if (merge) {
    /* "whenever one or more ...": one trigger for the batch, its amount how many events (or damage);
     * "one or more creatures deal combat damage to a player": once for each player dealt
     * damage, "that player" being that one */
    uint64_t who = t->batch ? ((uint64_t)0xba7c << 44) ^ (t->ev == TE_DAMAGE && t->to_player ? (uint64_t)(e->player + 1) << 8 : 0)
                 : t->to_self ? ((uint64_t)1 << 40) ^ e->obj.id : e->src.id;
    key = (uint32_t)hash_mix(((uint64_t)o->id << 32) ^ ((uint64_t)ab->index << 24) ^ who);
    int add = t->batch && t->ev != TE_DAMAGE ? 1 : e->amount;
    for (int i = 0; i < g->ndmg_seen; i++)
      if (g->dmg_seen[i] == key) {
        for (int q = g->dmg_pend[i][0]; q < g->dmg_pend[i][1]; q++) g->s->pend[q].tc.amount = num_add(g->s->pend[q].tc.amount, add);
        return;
      }
  }
  TrigCtx tc;
  tc_from_event(g, e, &tc);
  if (t->batch && t->ev != TE_DAMAGE) tc.amount = 1; /* one so far */
  cx.tc = &tc;
  if (ab->cond && !cond_eval(g, &cx, ab->cond)) return; /* 603.4 */
  int k = times(g, t, e, slot, c->controller), first = g->s->c.npend;
  for (int i = 0; i < k; i++) add_pending(g, ab, r->def, r->grant, oref(g, slot), NULL, c->controller, &tc, NULL);
  if (merge && g->ndmg_seen < (int)NELEM(g->dmg_seen)) {
    g->dmg_seen[g->ndmg_seen] = key;
    g->dmg_pend[g->ndmg_seen][0] = (int16_t)first;
    g->dmg_pend[g->ndmg_seen][1] = (int16_t)g->s->c.npend;
    g->ndmg_seen++;
  }
}

/* A delayed trigger's intervening "if" may ask about the object it refers
 * to ("if you haven't cast it": it is still exiled), as its effect does (603.7c). */
static void remember(G *g, Ctx *cx, const Effect *ef) {
  if (ef->obj.id && oref_ok(g, ef->obj)) {
    cx->res[0] = ef->obj;
    cx->nres = 1;
  }
}

static void check_delayed(G *g, const Event *e, int lookback, const uint8_t *tes, int nt) {
  State *s = g->s;
  for (int i = 0; i < s->c.neff; i++) {
    Effect *ef = &s->eff[i];
    if (ef->kind != EK_DELAYED || ef->used || !ef->ab) continue;
    const Ability *ab = ef->ab;
    Ctx cx;
    ctx_for(g, &cx, ef->controller, ef->source);
    cx.srcl = &ef->srcl;
    cx.def = ef->def;
    cx.grant = ef->grant;
    /* "self" in a delayed trigger is the object it refers to (603.7c) */
    const TrigPat *t = NULL;
    for (int k = 0; k < nt && !t; k++)
      if (tes[k] != TE_STEP) t = pat_matching(g, &cx, ab, tes[k], e, ef->obj.id ? ef->obj.id : ef->source.id, lookback);
    if (!t) continue;
    TrigCtx tc;
    tc_from_event(g, e, &tc);
    cx.tc = &tc;
    remember(g, &cx, ef);
    if (ab->cond && !cond_eval(g, &cx, ab->cond)) continue;
    if (ab->delayed_once && g->collecting) {
      /* 603.7b: once; which of simultaneous events is chosen after the batch */
      if (g->ndcand < NELEM(g->w->dcand)) {
        g->w->dcand[g->ndcand].eff = i;
        g->w->dcand[g->ndcand].tc = tc;
        g->w->dcand[g->ndcand].obj = e->obj.id;
        fmt_obj(g, e->obj, g->w->dcand[g->ndcand].label, sizeof g->w->dcand->label);
        g->ndcand++;
      }
      continue;
    }
    if (ab->delayed_once) ef->used = 1; /* 603.7b */
    add_pending(g, ab, ef->def, ef->grant, ef->source, &ef->srcl, ef->controller, &tc, ef);
  }
}

static int lookback_event(const Event *e) {
  /* any zone change: a pattern that looks back because it includes leaving the
   * battlefield sees its other zones' events at the same time ("from your hand
   * and/or the battlefield") */
  return e->type == EV_ZONE ||
         e->type == EV_LOSE || e->type == EV_COUNTER_SPELL || e->type == EV_SACRIFICE || e->type == EV_UNATTACH ||
         e->type == EV_DISCARD || e->type == EV_CONTROL || (e->type == EV_PHASE && e->amount) ||
         (e->type == EV_DECK_BOTTOM && e->amount == 1) /* 603.10g */;
}

static void scan(G *g, const Event *e, int lookback) {
  index_ensure(g);
  static const uint8_t zone_tes[] = {TE_ENTERS, TE_DIES, TE_LEAVES, TE_ZONE, TE_UNATTACHED};
  uint8_t tes[6];
  int nt = 0;
  switch (e->type) {
  case EV_ZONE:
    memcpy(tes, zone_tes, 5);
    nt = e->from == MTG_Z_BATTLEFIELD ? 5 : 4;
    /* the card discarded from a hand for its cycling cost: pat_match finds the
     * cycling ability of that very card, which only that cost moves */
    if (e->from == MTG_Z_HAND) tes[nt++] = TE_CYCLE;
    break;
  case EV_DRAW: tes[nt++] = TE_DRAW; break;
  case EV_DAMAGE: tes[nt++] = TE_DAMAGE; tes[nt++] = TE_DEFEATED; break;
  case EV_COUNTERS_OFF: tes[nt++] = TE_DEFEATED; tes[nt++] = TE_COUNTERS_REMOVED; break;
  case EV_TARGETED: tes[nt++] = TE_TARGETED; break;
  case EV_GAIN_LIFE: tes[nt++] = TE_GAIN_LIFE; break;
  case EV_LOSE_LIFE: tes[nt++] = TE_LOSE_LIFE; break;
  case EV_ATTACKS: tes[nt++] = TE_ATTACKS; break;
  case EV_BLOCKS: tes[nt++] = TE_BLOCKS; break;
  case EV_BLOCKED: tes[nt++] = TE_BLOCKED; break;
  case EV_UNBLOCKED: tes[nt++] = TE_UNBLOCKED; break;
  case EV_EXERT: tes[nt++] = TE_EXERTED; break;
  case EV_BECOMES: tes[nt++] = TE_BECOMES; break;
  case EV_TAP: tes[nt++] = TE_TAPPED; break;
  case EV_UNTAP: tes[nt++] = TE_UNTAPPED; break;
  case EV_COUNTERS: tes[nt++] = TE_COUNTERS; tes[nt++] = TE_CHAPTER; break;
  case EV_LOSE:
    /* 603.9: not when the player leaves the game as the result of a draw */
    if (!g->batch_draw) tes[nt++] = TE_LOSES;
    break;
  case EV_COUNTER_SPELL: tes[nt++] = TE_COUNTERED; break;
  case EV_DISCARD: tes[nt++] = TE_DISCARD; break;
  case EV_SACRIFICE: tes[nt++] = TE_SACRIFICE; break;
  case EV_UNATTACH: tes[nt++] = TE_UNATTACHED; break;
  case EV_CAST: tes[nt++] = TE_CAST; break;
  case EV_ACTIVATE: tes[nt++] = TE_ACTIVATE; break;
  case EV_MANA: tes[nt++] = TE_MANA; break;
  case EV_PREVENT: tes[nt++] = TE_PREVENTED; break;
  case EV_CONTROL: tes[nt++] = TE_CONTROL_LOST; break;
  case EV_PHASE: tes[nt++] = TE_PHASED_OUT; break;
  case EV_REVEAL: tes[nt++] = TE_REVEAL; break;
  case EV_FACE_UP: tes[nt++] = TE_FACE_UP; break;
  case EV_TRIGGER: tes[nt++] = TE_TRIGGERED; break;
  case EV_SET_IN_MOTION: tes[nt++] = TE_SET_IN_MOTION; break;
  case EV_PLANESWALK: tes[nt++] = TE_PLANESWALK_TO; break;
  case EV_DECK_BOTTOM: tes[nt++] = TE_PLANESWALK_AWAY; break;
  default: return;
  }
  for (int k = 0; k < nt; k++) {
    int te = tes[k];
    /* copy: detection may rebuild the index */
    int n = g->li_n[te];
    int16_t pairs[2 * 256];
    if (n > 256) game_limit(g, "abilities watching for one kind of event", 256); /* none is passed over */
    if (n) memcpy(pairs, g->li + (size_t)te * (size_t)g->li_cap, (size_t)n * 2 * sizeof *pairs);
    for (int i = 0; i < n; i++) {
      int slot = pairs[2 * i], a = pairs[2 * i + 1];
      if (!g->s->obj[slot].id || a >= chars(g, slot)->nab) continue;
      if (!pat_for(chars(g, slot)->ab[a].ab, te, -1)) continue;
      check_listener(g, slot, a, te, e, lookback);
    }
  }
  check_delayed(g, e, lookback, tes, nt);
}

/* 104.4a: the batch makes every player still in the game lose at once (read
 * only for a batch with a loss: scan's EV_LOSE) */
static int batch_is_draw(G *g, const Event *ev, int n) {
  unsigned losing = 0;
  for (int i = 0; i < n; i++)
    if (ev[i].type == EV_LOSE) losing |= 1u << ev[i].player; /* a loss always names its player */
  for (int p = 0; p < g->s->c.np; p++)
    if (player_alive(g, p) && !(losing >> p & 1)) return 0;
  return 1;
}

/* 603.7b: a once-only delayed ability triggers once for a batch; with
 * several of its events at once its controller chooses the one */
static void delayed_chosen(G *g) {
  State *s = g->s;
  int n = g->ndcand; /* left as it is: each collection starts it at 0 */
  g->collecting = 0;
  for (int i = 0; i < n; i++) {
    int ei = g->w->dcand[i].eff;
    Effect *ef = &s->eff[ei];
    if (ef->used) continue;
    int m = 0, first = i;
    for (int j = i; j < n; j++) m += g->w->dcand[j].eff == ei;
    int pick = first;
    if (m > 1) {
      dec_begin(g, MTG_D_CHOOSE, ef->controller, "603.7b", "choose the event that triggers the delayed ability");
      int idx[NELEM(g->w->dcand)], k = 0;
      for (int j = i; j < n; j++)
        if (g->w->dcand[j].eff == ei) {
          idx[k++] = j;
          dec_opt(g, MTG_O_OBJECT, g->w->dcand[j].obj, 0, -1, -1, "%s", g->w->dcand[j].label);
        }
      dec_range(g, 1, 1);
      int nv;
      const int *v = dec_ask(g, 0, &nv);
      pick = nv ? idx[v[0]] : first;
    }
    ef = &s->eff[ei];
    ef->used = 1;
    add_pending(g, ef->ab, ef->def, ef->grant, ef->source, &ef->srcl, ef->controller, &g->w->dcand[pick].tc, ef);
  }
}

void trig_lookback(G *g, const Event *ev, int n) {
  g->ndmg_seen = 0; /* "one or more" triggers gather the batch's events afresh */
  g->batch_draw = (uint8_t)batch_is_draw(g, ev, n);
  g->collecting = 1;
  g->ndcand = 0;
  for (int i = 0; i < n; i++)
    if (lookback_event(&ev[i])) scan(g, &ev[i], 1);
  /* batch_draw stays as it is: only these look-back scans read it (every
   * "loses the game" pattern looks back), and each batch sets it afresh */
  delayed_chosen(g);
}

/* 605.4a: each resolves at once, in the order they triggered. The mana one
 * adds is an event whose own triggered mana abilities join the queue: the
 * loop resolves them too, so the C stack does not grow with the queue. */
static void resolve_mana_triggers(G *g) {
  if (g->in_mtq) return;
  g->in_mtq = 1;
  while (g->nmtq) {
    Pending q = g->w->mtq[0];
    memmove(&g->w->mtq[0], &g->w->mtq[1], (size_t)(g->nmtq - 1) * sizeof q);
    g->nmtq--;
    char nm[110];
    fmt_lki(&q.srcl, nm, sizeof nm);
    log_line(g, 0, "trigger src=%s ability=%d controller=%s event=mana rule=605.4a", nm, q.ab->index,
             player_name(g, q.controller));
    Ctx cx;
    ctx_for(g, &cx, q.controller, q.src);
    cx.srcl = &q.srcl;
    cx.def = q.def;
    cx.grant = q.grant;
    cx.ab = q.ab;
    cx.tc = &q.tc;
    eff_run(g, &cx, q.ab->modes[0].effect);
  }
  g->in_mtq = 0;
}

void trig_detect(G *g, const Event *ev, int n) {
  g->ndmg_seen = 0;
  g->collecting = 1;
  g->ndcand = 0;
  for (int i = 0; i < n; i++)
    if (ev[i].done) scan(g, &ev[i], 0);
  delayed_chosen(g);
  trig_state(g);
  resolve_mana_triggers(g);
}

/* The extra mana triggered mana abilities would add if slot were tapped for
 * mana by player (605.1b): color masks in out, their count returned. Lets the
 * payment solver count on it. */
int trig_mana_bonus(G *g, int slot, int player, uint8_t *out, int max) {
  index_ensure(g);
  int n = 0, cnt = g->li_n[TE_MANA];
  if (!cnt) return 0; /* most boards: no triggered mana ability, and no event to build */
  const int16_t *l = g->li + (size_t)TE_MANA * (size_t)g->li_cap;
  Event e;
  ev_init(&e, EV_MANA);
  e.player = (int8_t)player;
  e.src = oref(g, slot);
  e.amount = 1;
  for (int i = 0; i < cnt && n < max; i++) {
    int ts = l[2 * i], a = l[2 * i + 1];
    const Chars *c = chars(g, ts);
    if (a >= c->nab) continue;
    const AbRef *r = &c->ab[a];
    if (r->ab->trig.ev != TE_MANA || !r->ab->mana) continue;
    Ctx cx;
    ctx_for(g, &cx, c->controller, oref(g, ts));
    cx.def = r->def;
    cx.grant = r->grant;
    if (!pat_match(g, &cx, &r->ab->trig, &e, g->s->obj[ts].id, 0)) continue;
    uint8_t m = mana_mask(g, ts, r);
    if (m) out[n++] = m;
  }
  return n;
}

void trig_step(G *g, int step) {
  State *s = g->s;
  index_ensure(g);
  int n = g->li_n[TE_STEP];
  int16_t pairs[2 * 256];
  if (n > 256) n = 256;
  if (n) memcpy(pairs, g->li + (size_t)TE_STEP * (size_t)g->li_cap, (size_t)n * 2 * sizeof *pairs);
  TrigCtx tc = {.ev = EV_STEP, .player = (int8_t)s->c.active, .obj = oref_none(), .src = oref_none()};
  for (int i = 0; i < n; i++) {
    int slot = pairs[2 * i], a = pairs[2 * i + 1];
    const Chars *c = chars(g, slot);
    if (a >= c->nab) continue;
    const Ability *ab = c->ab[a].ab;
    const TrigPat *t = pat_for(ab, TE_STEP, step);
    if (!t) continue;
    Ctx cx;
    ctx_ability(g, &cx, slot, c, &c->ab[a]);
    cx.tc = &tc;
    if (t->player && !rel_match(g, &cx, t->player, s->c.active)) continue;
    if (ab->cond && !cond_eval(g, &cx, ab->cond)) continue; /* 603.4 */
    add_pending(g, ab, c->ab[a].def, c->ab[a].grant, oref(g, slot), NULL, c->controller, &tc, NULL);
  }
  for (int i = 0; i < s->c.neff; i++) {
    Effect *ef = &s->eff[i];
    const TrigPat *t = ef->kind == EK_DELAYED && !ef->used && ef->ab ? pat_for(ef->ab, TE_STEP, step) : NULL;
    if (!t) continue;
    Ctx cx;
    ctx_for(g, &cx, ef->controller, ef->source);
    cx.tc = &tc;
    if (t->player && !rel_match(g, &cx, t->player, s->c.active)) continue;
    remember(g, &cx, ef);
    if (ef->ab->cond && !cond_eval(g, &cx, ef->ab->cond)) continue;
    if (ef->ab->delayed_once) ef->used = 1;
    add_pending(g, ef->ab, ef->def, ef->grant, ef->source, &ef->srcl, ef->controller, &tc, ef);
  }
}

static int state_trig_waiting(G *g, uint32_t key) {
  for (int i = 0; i < g->s->c.nstate_trig; i++)
    if (g->s->c.state_trig_on_stack[i] == key) return 1;
  return 0;
}

void trig_state(G *g) {
  State *s = g->s;
  index_ensure(g);
  int n = g->li_n[TE_STATE];
  for (int i = 0; i < n; i++) {
    int16_t *l = g->li + (size_t)TE_STATE * (size_t)g->li_cap;
    int slot = l[2 * i], a = l[2 * i + 1];
    const Chars *c = chars(g, slot);
    if (a >= c->nab) continue;
    const Ability *ab = c->ab[a].ab;
    if (ab->trig.ev != TE_STATE) continue;
    uint32_t key = (uint32_t)hash_mix(((uint64_t)s->obj[slot].id << 8) | ab->index) | 1u;
    if (state_trig_waiting(g, key)) continue; /* 603.8: not again until it has left the stack */
    Ctx cx;
    ctx_for(g, &cx, c->controller, oref(g, slot));
    cx.def = c->ab[a].def;
    cx.grant = c->ab[a].grant;
    if (!cond_eval(g, &cx, ab->trig.state)) continue;
    if (s->c.nstate_trig >= NELEM(s->c.state_trig_on_stack)) game_limit(g, "state triggers on the stack at once", (int)NELEM(s->c.state_trig_on_stack));
    s->c.state_trig_on_stack[s->c.nstate_trig++] = key;
    add_pending(g, ab, c->ab[a].def, c->ab[a].grant, oref(g, slot), NULL, c->controller, NULL, NULL);
    s->pend[s->c.npend - 1].tc.cause_id = key;
  }
}

void trig_add(G *g, const Ability *ab, const CardDef *def, uint16_t grant, int src_slot, int controller, const TrigCtx *tc) {
  add_pending(g, ab, def, grant, src_slot >= 0 ? oref(g, src_slot) : oref_none(), NULL, controller, tc, NULL);
}

void trig_reflexive(G *g, const Ability *ab, const CardDef *def, uint16_t grant, ORef src, const Lki *srcl,
                    int controller, const TrigCtx *tc) {
  /* the source as it is now if it still exists, else as it last existed */
  add_pending(g, ab, def, grant, src, oref_ok(g, src) ? NULL : srcl, controller, tc, NULL);
}

/* ---- putting triggered abilities on the stack (603.3) ---- */

static void push_one(G *g, const Pending *p) {
  State *s = g->s;
  StackItem si;
  memset(&si, 0, sizeof si);
  si.id = new_id(g);
  si.kind = SI_TRIGGERED;
  si.slot = -1;
  si.controller = p->controller;
  si.ab = p->ab;
  si.def = p->def;
  si.grant = p->grant;
  si.src = p->src;
  si.srcl = p->srcl;
  si.tc = p->tc;
  si.eff_id = p->eff_id;
  si.state_trig = p->state_trig;
  if (p->eff_id) {
    /* a delayed trigger carries the choices and objects of the effect that made it */
    for (int i = 0; i < s->c.neff; i++)
      if (s->eff[i].id == p->eff_id) {
        si.ch = s->eff[i].ch;
        break;
      }
  }
  int idx = stack_push(g, &si);
  StackItem *it = &s->stack[idx];
  char nm[110];
  fmt_lki(&p->srcl, nm, sizeof nm);
  log_line(g, 0, "stack_push id=#%u kind=trigger src=%s ability=%d controller=%s", (unsigned)it->id, nm, p->ab->index,
           player_name(g, p->controller));
  /* 603.3c, 603.3d: modes and targets now; with no legal choice it is removed */
  g->push_failed = 0;
  uint32_t id = it->id;
  choose_modes_targets(g, it, p->controller);
  if (g->push_failed) {
    idx = stack_find(g, id);
    log_line(g, 0, "stack_remove id=#%u rule=%s", (unsigned)id, g->push_failed == 2 ? "603.3c" : "603.3d");
    if (idx >= 0) stack_remove(g, idx);
  } else {
    stack_targeted(g, id, -1); /* what it targets becomes its target as it is put on the stack */
  }
}

int trig_put_on_stack(G *g) {
  State *s = g->s;
  if (!s->c.npend) return 0;
  int order[MAX_PLAYERS];
  apnap_order(g, order);
  int total = 0;
  /* take the pending list: triggers during this process wait for the next round */
  Pending pend[MAX_PENDING];
  int np = s->c.npend;
  memcpy(pend, s->pend, (size_t)np * sizeof *pend);
  s->c.npend = 0;
  /* 603.3b: first abilities whose trigger condition isn't another ability triggering,
   * then the rest, each part in APNAP order */
  for (int part = 0; part < 2; part++)
  for (int oi = 0; oi < MAX_PLAYERS; oi++) {
    int p = order[oi];
    /* players who lost still have their triggers removed (800.4a) */
    if (p < 0) continue;
    int mine[MAX_PENDING], n = 0;
    for (int i = 0; i < np; i++)
      if (pend[i].controller == p && (pend[i].ab->trig.ev == TE_TRIGGERED) == part) mine[n++] = i;
    if (!n) continue;
    /* 603.3b: the player orders them; only wholly identical triggers (same ability,
     * source and triggering event) make the order meaningless */
    int same = 1;
    for (int i = 1; i < n; i++) {
      const Pending *a = &pend[mine[i]], *b = &pend[mine[0]];
      if (a->ab != b->ab || a->src.id != b->src.id || a->ab->modes[0].nt || a->tc.obj.id != b->tc.obj.id ||
          a->tc.player != b->tc.player || a->tc.amount != b->tc.amount || a->tc.src.id != b->tc.src.id || a->eff_id != b->eff_id)
        same = 0;
    }
    if (n > 1 && !same) {
      dec_begin(g, MTG_D_TRIGGER_ORDER, p, "603.3b", "order %d triggered abilities (first listed goes on the stack first)", n);
      for (int i = 0; i < n; i++) {
        char nm[110];
        fmt_lki(&pend[mine[i]].srcl, nm, sizeof nm);
        dec_opt(g, MTG_O_TRIGGER, pend[mine[i]].srcl.id, 0, -1, i, "%s/%d@%u", nm, pend[mine[i]].ab->index,
                (unsigned)pend[mine[i]].seq);
      }
      int cnt;
      const int *v = dec_ask(g, 0, &cnt);
      int tmp[MAX_PENDING];
      for (int i = 0; i < n; i++) tmp[i] = mine[v[i]];
      memcpy(mine, tmp, (size_t)n * sizeof *mine);
    }
    for (int i = 0; i < n; i++) {
      push_one(g, &pend[mine[i]]);
      total++;
    }
  }
  return total;
}
