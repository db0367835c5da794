/* replace.c - replacement and prevention effects (rules 614, 615) applied to
 * one event in the order of rule 616: self-replacement effects first, then
 * effects that decide control, copy and face of an entering permanent, then
 * any; the affected player, or the controller of the affected object, chooses
 * among applicable effects; applicability is re-evaluated after each
 * application; each effect applies to an event at most once (614.5); an event
 * reduced to nothing does not happen (614.6, 614.7a, 615.6). */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "num.h"

typedef struct Repl {
  uint32_t key;
  const ReplSpec *rp;
  ORef src;
  const Lki *srcl;
  const CardDef *def;
  uint16_t grant;
  int abi;        /* ability index on the source, or ABI_PROTECTION; not read for an effect (eff >= 0) */
  int eff;        /* effect table index, or -1 */
  int controller; /* controller of the effect */
  int cat;        /* 616.1 category: 0 self, 1 control, 2 copy, 3 face, 4 other */
} Repl;

#define MAX_REPL 32
#define ABI_PROTECTION -2 /* the prevention protection gives (702.16e), not an ability of the card's */

/* 702.16e: damage a source with the stated quality would deal to a permanent
 * with protection is prevented: a prevention effect of that permanent. */
static const ReplSpec protection_spec = {.ev = RE_DAMAGE, .act = RA_PREVENT, .from = -1, .to = -1, .combat = -1};

static const char *repl_rule(const Repl *r, const Event *ev) {
  if (r->abi == ABI_PROTECTION) return "702.16e";
  if (r->rp->self_repl) return "614.15";
  switch (r->rp->act) {
  case RA_PREVENT: return "615.1a";
  case RA_REDIRECT: return "614.9";
  case RA_SKIP: return "614.1b";
  case RA_REGENERATE: return "614.8";
  case RA_ETB_CHOOSE:
    if (ev->type == EV_FACE_UP) return "614.1e";
    return "614.1c";
  case RA_ETB_TAPPED: return "614.1d"; /* "[This permanent] enters tapped" */
  case RA_ETB_TRANSFORMED: return "616.1d";
  case RA_ETB_COUNTERS: case RA_ETB_COPY: case RA_ETB_CONTROLLER: return "614.1c";
  default: return ev->type == EV_DRAW ? "614.11" : "614.1a";
  }
}

/* Affected player: who chooses the order (616.1). */
int affected_player(G *g, const Event *ev) {
  switch (ev->type) {
  case EV_ZONE:
    if (ev->to == MTG_Z_BATTLEFIELD && ev->etb_ctl >= 0) return ev->etb_ctl;
    /* fall through */
  case EV_DESTROY: case EV_SACRIFICE: case EV_DISCARD: case EV_MILL: case EV_EXILE:
  case EV_COUNTER_SPELL:
    if (oref_ok(g, ev->obj)) {
      const Obj *o = &g->s->obj[ev->obj.slot];
      return o->zone == MTG_Z_BATTLEFIELD || o->zone == MTG_Z_STACK ? obj_controller(g, ev->obj.slot) : o->owner;
    }
    return ev->player;
  case EV_DAMAGE: case EV_COUNTERS: /* to a permanent: its controller; to a player: that player */
    return oref_ok(g, ev->obj) ? obj_controller(g, ev->obj.slot) : ev->player;
  default:
    return ev->player >= 0 ? ev->player : g->s->c.active;
  }
}

static int src_filter(G *g, Ctx *c, const Filter *f, ORef src) {
  /* a source can be anywhere: a spell on the stack, a card in a graveyard */
  Filter any = *f;
  if (any.zone == -1) any.zone = -2;
  /* 113.7a: a source that has left its zone (a creature's "when this dies,
   * it deals damage") still deals the damage, as it last existed */
  if (!oref_ok(g, src)) return src.id && filter_match_lki(g, c, &any, lki_find(g, src.id));
  return filter_match(g, c, &any, src.slot);
}

static int obj_filter_anyzone(G *g, Ctx *c, const Filter *f, ORef o) {
  if (!oref_ok(g, o)) return 0;
  Filter any = *f;
  if (any.zone == -1 && g->s->obj[o.slot].zone != MTG_Z_BATTLEFIELD) any.zone = -2;
  return filter_match(g, c, &any, o.slot);
}

/* The context the effect's filters, conditions and amounts are read in: its
 * controller's, its source's (last known information if gone), the event. */
static void repl_ctx(G *g, const Repl *r, Event *ev, Ctx *c) {
  ctx_for(g, c, r->controller, r->src);
  c->srcl = r->srcl;
  c->def = r->def;
  c->grant = r->grant;
  c->ev = ev;
  if (r->eff >= 0) c->ch = &g->s->eff[r->eff].ch; /* "other than target creature": the effect's targets */
}

static int matches(G *g, const Repl *r, Event *ev) {
  const ReplSpec *rp = r->rp;
  const Effect *e = r->eff >= 0 ? &g->s->eff[r->eff] : NULL;
  Ctx c;
  repl_ctx(g, r, ev, &c);
  switch (rp->ev) {
  case RE_DRAW:
    if (ev->type != EV_DRAW) return 0;
    if (rp->player && !rel_match(g, &c, rp->player, ev->player)) return 0;
    break;
  case RE_DAMAGE:
    if (ev->type != EV_DAMAGE) return 0;
    if (rp->src_self && ev->src.id != r->src.id) return 0;
    if (rp->src && !src_filter(g, &c, rp->src, ev->src)) return 0;
    if (rp->to_kind == 1 && ev->player < 0) return 0;
    if (rp->to_kind == 2 && !ev->obj.id) return 0;
    if (rp->self && ev->obj.id != r->src.id) return 0;
    if (rp->player || rp->obj) {
      int ok = (ev->player >= 0 && rp->player && rel_match(g, &c, rp->player, ev->player)) ||
               (ev->obj.id && rp->obj && filter_match(g, &c, rp->obj, ev->obj.slot));
      if (!ok) return 0;
    }
    if (rp->combat >= 0 && ((ev->flags & EF_COMBAT) != 0) != rp->combat) return 0;
    if (rp->floor_one) {
      /* "damage that would reduce your life total to less than 1": only such
       * damage (infect damage changes no life total) */
      if (ev->player < 0 || (int64_t)g->s->c.pl[ev->player].life - ev->amount >= rp->floor_one) return 0;
      if ((ev->flags & EF_INFECT) || (oref_ok(g, ev->src) && has_kw(g, ev->src.slot, KW_INFECT) &&
                                      !rule_effect(g, SE_LOSE_INFECT, -1, ev->src.slot, NULL, NULL)))
        return 0;
    }
    if (e) {
      /* shields and one-shot effects name what they protect */
      if (e->obj.id && ev->obj.id != e->obj.id) return 0;
      if (e->player >= 0 && ev->player != e->player) return 0;
      if (e->chosen_src && ev->src.id != e->chosen_src) return 0;
      /* 615.9: a chosen source's properties are rechecked */
      if (e->chosen_src && e->chosen_colors && !(oref_ok(g, ev->src) && (obj_colors(g, ev->src.slot) & e->chosen_colors))) return 0;
      if (e->shield == 0 && rp->act == RA_PREVENT && rp->amount) return 0;
    }
    break;
  case RE_ZONE:
    if (ev->type != EV_ZONE) return 0;
    if (rp->self && ev->obj.id != r->src.id) return 0;
    if (rp->obj && !obj_filter_anyzone(g, &c, rp->obj, ev->obj)) return 0;
    if (rp->from >= 0 && ev->from != rp->from) return 0;
    if (rp->to >= 0 && ev->to != rp->to) return 0;
    if (rp->player && oref_ok(g, ev->obj) && !rel_match(g, &c, rp->player, g->s->obj[ev->obj.slot].owner)) return 0;
    if (e && e->obj.id && ev->obj.id != e->obj.id) return 0; /* an effect about one object (`on`) */
    /* "put it into [zone] instead of anywhere else": a move already going
     * there is not replaced (an unearthed creature being exiled is exiled) */
    if (rp->act == RA_TO_ZONE && rp->to < 0 && ev->to == rp->dest) return 0;
    break;
  case RE_DISCARD:
  case RE_SACRIFICE:
  case RE_DESTROY:
    if (rp->ev == RE_DISCARD && rp->act == RA_TO_ZONE) {
      /* "causes you to discard this card, put it onto the battlefield instead
       * of putting it into your graveyard": it replaces the discard's move,
       * offered with the other effects on that move (616.1) */
      int discard = ev->cause == CA_DISCARD || (ev->cause == CA_COST && ev->cost_cause == CA_DISCARD);
      if (ev->type != EV_ZONE || !discard || ev->to != MTG_Z_GRAVEYARD) return 0;
    } else if (ev->type != (rp->ev == RE_DISCARD ? EV_DISCARD : rp->ev == RE_SACRIFICE ? EV_SACRIFICE : EV_DESTROY)) {
      return 0;
    }
    if (rp->self && ev->obj.id != r->src.id) return 0;
    if (rp->obj && !obj_filter_anyzone(g, &c, rp->obj, ev->obj)) return 0;
    if (rp->cause_opp && !(ev->cause_ctl >= 0 && opponents(g, r->controller, ev->cause_ctl))) return 0;
    if (e && e->obj.id && ev->obj.id != e->obj.id) return 0;
    if (rp->act == RA_REGENERATE && (ev->flags & EF_NOREGEN)) return 0;
    if (rp->act == RA_REGENERATE && oref_ok(g, ev->obj) && rule_effect(g, SE_CANT_REGENERATE, -1, ev->obj.slot, NULL, NULL)) return 0;
    break;
  case RE_GAIN_LIFE:
  case RE_LOSE_LIFE:
  case RE_LOSE_GAME:
  case RE_WIN_GAME:
    if (ev->type != (rp->ev == RE_GAIN_LIFE ? EV_GAIN_LIFE : rp->ev == RE_LOSE_LIFE ? EV_LOSE_LIFE : rp->ev == RE_LOSE_GAME ? EV_LOSE : EV_WIN)) return 0;
    if (rp->player && !rel_match(g, &c, rp->player, ev->player)) return 0;
    break;
  case RE_COUNTERS:
  case RE_POISON:
    if (ev->type != EV_COUNTERS) return 0;
    if (rp->cause_effect && ev->cause == CA_COST) return 0; /* "if an effect would put": not a cost (606.4) */
    if (rp->ev == RE_POISON && ev->ckind != CN_POISON) return 0;
    if (rp->counter && ev->ckind != ckind_id(g, rp->counter)) return 0;
    if (rp->obj) {
      if (!ev->obj.id || !filter_match(g, &c, rp->obj, ev->obj.slot)) return 0;
    } else if (rp->self) {
      if (ev->obj.id != r->src.id) return 0;
    } else if (rp->player || rp->to_kind == 1) {
      if (ev->obj.id || !rel_match(g, &c, rp->player, ev->player)) return 0;
    }
    break;
  case RE_TOKEN:
    if (ev->type != EV_TOKEN) return 0;
    if (rp->player && !rel_match(g, &c, rp->player, ev->player)) return 0;
    break;
  case RE_ENTERS:
    if (ev->type != EV_ZONE || ev->to != MTG_Z_BATTLEFIELD) return 0;
    if (rp->self && ev->obj.id != r->src.id) return 0;
    if (rp->obj && !filter_match(g, &c, rp->obj, ev->obj.slot)) return 0;
    /* 614.12: "permanents enter tapped" doesn't see itself: collect takes only
     * the entering permanent's own "this enters" abilities */
    break;
  case RE_FACE_UP:
    if (ev->type != EV_FACE_UP) return 0;
    if (rp->self && ev->obj.id != r->src.id) return 0;
    break;
  case RE_SKIP_STEP:
    if (ev->type != EV_STEP || ev->amount != rp->step) return 0;
    if (rp->player && !rel_match(g, &c, rp->player, ev->player)) return 0;
    break;
  default:
    return 0;
  }
  if (rp->cond && !cond_eval(g, &c, rp->cond)) return 0;
  return 1;
}

_Static_assert(EV_COUNT <= 64, "repl_event_mask gives each event type a bit of a uint64_t");

/* The event type each pattern's matches() case lets it apply to. */
static const uint8_t repl_event_type[RE_COUNT] = {
    [RE_DRAW] = EV_DRAW,         [RE_DAMAGE] = EV_DAMAGE,       [RE_ZONE] = EV_ZONE,
    [RE_ENTERS] = EV_ZONE,       [RE_DISCARD] = EV_DISCARD,     [RE_SACRIFICE] = EV_SACRIFICE,
    [RE_DESTROY] = EV_DESTROY,   [RE_GAIN_LIFE] = EV_GAIN_LIFE, [RE_LOSE_LIFE] = EV_LOSE_LIFE,
    [RE_LOSE_GAME] = EV_LOSE,    [RE_WIN_GAME] = EV_WIN,        [RE_COUNTERS] = EV_COUNTERS,
    [RE_POISON] = EV_COUNTERS,   [RE_TOKEN] = EV_TOKEN,         [RE_FACE_UP] = EV_FACE_UP,
    [RE_SKIP_STEP] = EV_STEP,
};

uint64_t repl_event_mask(const ReplSpec *rp) {
  /* a discard replaced as its move to the graveyard (matches()) */
  if (rp->ev == RE_DISCARD && rp->act == RA_TO_ZONE) return 1ull << EV_ZONE;
  return 1ull << repl_event_type[rp->ev];
}

static int category(const ReplSpec *rp) {
  if (rp->self_repl) return 0;
  if (rp->act == RA_ETB_CONTROLLER) return 1;
  if (rp->act == RA_ETB_COPY) return 2;
  if (rp->act == RA_ETB_TRANSFORMED) return 3;
  return 4;
}

static void add_static(G *g, Repl *out, int *n, int slot, const Chars *c, Event *ev) {
  for (int a = 0; a < c->nab; a++) {
    const Ability *ab = c->ab[a].ab;
    if (ab->kind != AB_REPLACEMENT) continue;
    if (*n >= MAX_REPL) return;
    Repl *r = &out[*n];
    memset(r, 0, sizeof *r);
    r->rp = &ab->rp;
    r->src = oref(g, slot);
    r->def = c->ab[a].def;
    r->grant = c->ab[a].grant;
    r->abi = a;
    r->eff = -1;
    r->controller = c->controller;
    /* a copied or back-face ability is another ability than the printed one
     * with the same index (616.1f: applied after a copy effect) */
    r->key = (uint32_t)hash_mix(((uint64_t)g->s->obj[slot].id << 20) ^ ((uint64_t)ab->index << 4) ^ r->grant ^
                                (r->def ? r->def->hash : 0));
    r->cat = category(&ab->rp);
    for (int k = 0; k < *n; k++)
      if (out[k].key == r->key) return;
    if (ev_applied(ev, r->key)) continue;
    if (!matches(g, r, ev)) continue;
    (*n)++;
  }
}

/* 702.16e: the prevention of damage from a source the damaged permanent or
 * player has protection from, as one replacement in *r (src: what gives it,
 * controller: who orders it, 616.1; who: the damaged one, for its key).
 * 1 if it is new to this event, 0 if it has already applied. */
static int add_protection(Repl *r, Event *ev, ORef src, int controller, uint64_t who) {
  memset(r, 0, sizeof *r);
  r->rp = &protection_spec;
  r->src = src;
  r->abi = ABI_PROTECTION;
  r->eff = -1;
  r->controller = controller;
  r->key = (uint32_t)hash_mix(who ^ 0x70726f74u);
  r->cat = 4;
  return !ev_applied(ev, r->key);
}

static int collect(G *g, Event *ev, Repl *out) {
  State *s = g->s;
  int n = 0;
  int nb = bf_count(g);
  int16_t *bf = bf_list(g);
  int entering = ev->type == EV_ZONE && ev->to == MTG_Z_BATTLEFIELD && oref_ok(g, ev->obj);
  /* 614.12: an entering permanent is seen as it would exist on the battlefield,
   * with the copy or face it enters with already applied (616.1c-d) */
  const CardDef *save_copy = NULL;
  uint8_t save_tr = 0;
  /* with neither, the object is written back as it was: a current cache stays
   * (chars_current; recomputed, each of many tokens entering at once redid
   * every token made since the last snapshot) */
  int same = !ev->etb_copy && !ev->etb_transformed;
  if (entering) {
    int cur = same && chars_current(g);
    Obj *o = obj_w(g, ev->obj.slot);
    save_copy = o->copy_of;
    save_tr = o->transformed;
    if (ev->etb_copy) {
      o->copy_of = ev->etb_copy;
      o->copy_sub = ev->etb_copy_sub;
    }
    if (ev->etb_transformed) o->transformed = 1;
    if (cur) chars_kept(g);
    else chars_dirty(g);
    g->hyp_slot = ev->obj.slot;
    g->hyp_ctl = ev->etb_ctl >= 0 ? ev->etb_ctl : o->owner;
  }
  /* only permanents with a replacement ability that can apply to this type of event */
  int any = bf_sum(g)->repl_events >> ev->type & 1;
  for (int k = 0; k < nb && any; k++) {
    int i = bf[k];
    if (s->obj[i].phased_out || i == g->hyp_slot) continue;
    add_static(g, out, &n, i, chars(g, i), ev);
  }
  if (ev->type == EV_FACE_UP && oref_ok(g, ev->obj)) {
    /* its abilities as it will be face up (708.8) */
    int slot = ev->obj.slot;
    const CardDef *d = s->obj[slot].def;
    Chars only;
    memset(&only, 0, sizeof only);
    only.controller = (uint8_t)obj_controller(g, slot);
    for (int a = 0; a < d->nab && only.nab < MAX_ABS; a++)
      if (d->ab[a].kind == AB_REPLACEMENT && d->ab[a].rp.ev == RE_FACE_UP) {
        only.ab[only.nab].ab = &d->ab[a];
        only.ab[only.nab].def = d;
        only.nab++;
      }
    add_static(g, out, &n, slot, &only, ev);
  }
  /* an object's own replacement abilities about itself work wherever it is
   * ("if ~ would be put into a graveyard from anywhere"); an entering
   * permanent's are seen as it would exist on the battlefield, and only those
   * about itself: Orb of Dreams's "Permanents enter tapped" doesn't affect
   * Orb of Dreams (614.12) */
  if (oref_ok(g, ev->obj) && s->obj[ev->obj.slot].zone != MTG_Z_BATTLEFIELD) {
    int slot = ev->obj.slot;
    if (ev->type == EV_ZONE && ev->to == MTG_Z_BATTLEFIELD) {
      Chars hc = *chars_as_entering(g, slot, ev->etb_ctl >= 0 ? ev->etb_ctl : s->obj[slot].owner);
      Chars only;
      memset(&only, 0, sizeof only);
      only.controller = hc.controller;
      for (int a = 0; a < hc.nab; a++)
        if (hc.ab[a].ab->kind == AB_REPLACEMENT && hc.ab[a].ab->rp.self && hc.ab[a].ab->rp.ev == RE_ENTERS)
          only.ab[only.nab++] = hc.ab[a];
      g->hyp_ctl = hc.controller;
      add_static(g, out, &n, slot, &only, ev);
    } else {
      const Chars *c = chars(g, slot);
      Chars only;
      memset(&only, 0, sizeof only);
      only.controller = c->controller;
      for (int a = 0; a < c->nab; a++)
        if (c->ab[a].ab->kind == AB_REPLACEMENT && c->ab[a].ab->rp.self && c->ab[a].ab->rp.ev != RE_ENTERS)
          only.ab[only.nab++] = c->ab[a];
      add_static(g, out, &n, slot, &only, ev);
    }
  }
  if (ev->type == EV_DAMAGE && n < MAX_REPL && oref_ok(g, ev->obj) && oref_ok(g, ev->src) &&
      s->obj[ev->obj.slot].zone == MTG_Z_BATTLEFIELD &&
      protected_from(g, ev->obj.slot, ev->src.slot, obj_colors(g, ev->src.slot), s->obj[ev->src.slot].zone == MTG_Z_STACK))
    n += add_protection(out + n, ev, ev->obj, obj_controller(g, ev->obj.slot), (uint64_t)ev->obj.id << 20);
  ORef from;
  if (ev->type == EV_DAMAGE && n < MAX_REPL && !ev->obj.id && ev->player >= 0 && oref_ok(g, ev->src) &&
      player_protected_from(g, ev->player, ev->src.slot, &from))
    /* 702.16e: damage to a player with protection from its source; the
     * player is affected and orders it among other effects (616.1) */
    n += add_protection(out + n, ev, from, ev->player, (uint64_t)ev->player << 40);
  for (int i = 0; i < s->c.neff && n < MAX_REPL; i++) {
    Effect *e = &s->eff[i];
    if (e->kind != EK_REPL || e->used || !e->rp) continue;
    Repl *r = &out[n];
    memset(r, 0, sizeof *r);
    r->rp = e->rp;
    r->src = e->source;
    r->srcl = &e->srcl;
    r->def = e->def;
    r->grant = e->grant;
    r->eff = i;
    r->controller = e->controller;
    r->key = 0x80000000u | e->id;
    r->cat = category(e->rp);
    if (ev_applied(ev, r->key)) continue;
    if (!matches(g, r, ev)) continue;
    n++;
  }
  if (entering) {
    g->hyp_slot = -1;
    int cur = same && chars_current(g);
    Obj *o = obj_w(g, ev->obj.slot);
    o->copy_of = save_copy;
    o->transformed = save_tr;
    if (cur) chars_kept(g);
    else chars_dirty(g);
  }
  return n;
}

static void repl_label(G *g, const Repl *r, char *buf, size_t n) {
  char src[110];
  if (oref_ok(g, r->src)) fmt_slot(g, r->src.slot, src, sizeof src);
  else if (r->srcl && r->srcl->id) fmt_lki(r->srcl, src, sizeof src);
  else snprintf(src, sizeof src, "#%u", (unsigned)r->src.id);
  if (r->eff >= 0) snprintf(buf, n, "%s/e%u", src, (unsigned)g->s->eff[r->eff].id);
  else if (r->abi == ABI_PROTECTION) snprintf(buf, n, "%s/protection", src);
  else snprintf(buf, n, "%s/%d", src, r->abi);
}

static void mark(Event *ev, uint32_t key) {
  if (!ev_applied(ev, key) && ev->napplied < MAX_APPLIED) ev->applied[ev->napplied++] = key;
}

/* Adds key to the marks the events of a running "instead" inherit, once: an
 * event's marks already hold those inherited when it was made, so adding them
 * again would fill the list with copies, and a mark left out would let its
 * effect apply again to the events made for it (614.5). */
static void inherit(G *g, uint32_t key) {
  for (int k = 0; k < g->ninh; k++)
    if (g->inh[k] == key) return;
  if (g->ninh >= (int)NELEM(g->inh)) game_limit(g, "replacement effects applied to one event", (int)NELEM(g->inh));
  g->inh[g->ninh++] = key;
}

NOINLINE static void run_program(G *g, int controller, ORef src, const Lki *srcl, const CardDef *def, uint16_t grant, int eff,
                        uint32_t key, Event *ev, const Node *steps, int prevented) {
  Ctx c;
  ctx_for(g, &c, controller, src);
  c.srcl = srcl;
  c.def = def;
  c.grant = grant;
  c.ev = ev;
  c.prevented = prevented;
  if (eff >= 0) c.ch = &g->s->eff[eff].ch;
  /* events the program makes carry this effect's and the event's marks */
  int save = g->ninh;
  for (int i = 0; i < ev->napplied; i++) inherit(g, ev->applied[i]);
  inherit(g, key);
  eff_run(g, &c, steps);
  g->ninh = save;
}

static void run_instead(G *g, const Repl *r, Event *ev, const Node *steps, int prevented) {
  run_program(g, r->controller, r->src, r->srcl, r->def, r->grant, r->eff, r->key, ev, steps, prevented);
}

/* 615.5: the rest of a prevention effect waits until the prevented event is
 * done (with the rest of its batch). */
static void rider_add(G *g, const Repl *r, const Event *ev, int prevented) {
  if (g->nrider >= (int)NELEM(g->w->rider)) game_limit(g, "prevention effects waiting for their batch", (int)NELEM(g->w->rider));
  struct PrevRider *d = &g->w->rider[g->nrider++];
  d->rp = r->rp;
  d->def = r->def;
  d->src = r->src;
  d->has_srcl = r->srcl != NULL;
  if (r->srcl) d->srcl = *r->srcl;
  d->grant = r->grant;
  d->eff = r->eff;
  d->controller = r->controller;
  d->key = r->key;
  d->ev = *ev;
  d->prevented = prevented;
}

void prevention_riders(G *g, int from) {
  while (g->nrider > from) {
    struct PrevRider d = g->w->rider[from];
    g->nrider--;
    memmove(&g->w->rider[from], &g->w->rider[from + 1], (size_t)(g->nrider - from) * sizeof d);
    run_program(g, d.controller, d.src, d.has_srcl ? &d.srcl : NULL, d.def, d.grant, d.eff, d.key, &d.ev, d.rp->steps,
                d.prevented);
  }
}

/* "As this enters, you may reveal a [quality] card from your hand. If you
 * don't, it enters tapped" (614.1c, 614.12): the player it will enter under
 * may reveal one such card (not the entering card itself); returns whether
 * they did. */
NOINLINE static int etb_reveal(G *g, const Repl *r, const Event *ev) {
  State *s = g->s;
  int ctl = ev->etb_ctl >= 0 ? ev->etb_ctl : s->obj[ev->obj.slot].owner;
  Ctx cx;
  ctx_for(g, &cx, ctl, r->src);
  int n = zl_count(g, MTG_Z_HAND, ctl), cand[MAX_OPTIONS], nc = 0;
  int16_t *h = zl_list(g, MTG_Z_HAND, ctl);
  for (int i = 0; i < n && nc < MAX_OPTIONS; i++)
    if (h[i] != ev->obj.slot && filter_match(g, &cx, r->rp->unless_reveal, h[i])) cand[nc++] = h[i];
  char nm[110];
  fmt_obj(g, ev->obj, nm, sizeof nm);
  if (!nc || !ask_yes_no(g, ctl, "614.12", "reveal a card from your hand so that %s doesn't enter tapped?", nm)) return 0;
  int pick = pick_slot(g, ctl, cand, nc, "614.12", "choose the card to reveal");
  char cn[110];
  fmt_slot(g, cand[pick], cn, sizeof cn);
  log_line(g, 0, "reveal obj=%s player=%s by=%s", cn, player_name(g, ctl), nm);
  return 1;
}

static void log_repl(G *g, const Repl *r, const Event *ev, const char *what) {
  char lb[140];
  repl_label(g, r, lb, sizeof lb);
  log_line(g, 0, "%s rule=%s by=%s event=%s%s", r->rp->act == RA_PREVENT ? "prevent" : "replace", repl_rule(r, ev), lb,
           ev_names[ev->type], what);
}

/* "enters as a [subtype] in addition to its other types": kept on the event,
 * made a continuous effect as it enters (perform.c); `what` names them for the log */
static void etb_types(G *g, Event *ev, const ReplSpec *rp, char *what, size_t n) {
  const StaticSpec *st = rp->etb_types;
  if (!st) return;
  if (ev->netb_types >= NELEM(ev->etb_types)) game_limit(g, "type additions one permanent enters with", (int)NELEM(ev->etb_types));
  ev->etb_types[ev->netb_types++] = st;
  size_t u = (size_t)snprintf(what, n, " types=");
  for (int i = 0; i < st->nsub && u < n; i++) u += (size_t)snprintf(what + u, n - u, "%s%s", i ? "," : "", st->subtypes[i]);
  static const char *const tn[N_CARD_TYPES] = {"Artifact", "Battle", "Creature", "Enchantment", "Instant", "Kindred", "Land",
                                               "Planeswalker", "Sorcery", "Dungeon", "Plane", "Phenomenon", "Scheme"};
  for (int t = 0; t < N_CARD_TYPES && u < n; t++)
    if (st->types >> t & 1) u += (size_t)snprintf(what + u, n - u, "%s%s", u > 7 ? "," : "", tn[t]);
}

void etb_counters(G *g, Event *ev, int kind, int n, const char *rule) {
  if (n <= 0) return;
  for (int i = 0; i < ev->netb_c; i++)
    if (ev->etb_c[i].kind == kind) {
      ev->etb_c[i].n = num_add(ev->etb_c[i].n, n);
      if (!ev->etb_rule[i]) ev->etb_rule[i] = rule;
      return;
    }
  if (ev->netb_c >= NELEM(ev->etb_c)) game_limit(g, "kinds of counters one permanent enters with", (int)NELEM(ev->etb_c));
  ev->etb_c[ev->netb_c].kind = (uint8_t)kind;
  ev->etb_c[ev->netb_c].n = n;
  ev->etb_rule[ev->netb_c] = rule;
  ev->netb_c++;
}

void etb_counters_put(G *g, Event *ev) {
  if (!ev->netb_c || !oref_ok(g, ev->obj)) return;
  const Obj *o = &g->s->obj[ev->obj.slot];
  int ctl = ev->etb_ctl >= 0 ? ev->etb_ctl : o->zone == MTG_Z_STACK ? o->controller : o->owner;
  int k = 0;
  for (int i = 0; i < ev->netb_c; i++) {
    /* one event per kind of counter, seen on the permanent as it would exist (614.12) */
    Event ce;
    ev_init(&ce, EV_COUNTERS);
    ce.obj = ev->obj;
    ce.ckind = ev->etb_c[i].kind;
    ce.amount = ev->etb_c[i].n;
    g->hyp_slot = ev->obj.slot;
    g->hyp_ctl = ctl;
    int keep = ev_possible(g, &ce) && replace_event(g, &ce);
    g->hyp_slot = -1;
    if (!keep || ce.amount <= 0) continue;
    if (ev->etb_rule[i]) {
      char nm[110];
      fmt_obj(g, ev->obj, nm, sizeof nm);
      log_line(g, 0, "enters_with obj=%s kind=%s n=%d rule=%s", nm, ckind_name(g, ce.ckind), ce.amount, ev->etb_rule[i]);
    }
    ev->etb_c[k].kind = ce.ckind;
    ev->etb_c[k].n = ce.amount;
    ev->etb_rule[k] = ev->etb_rule[i];
    k++;
  }
  ev->netb_c = (uint8_t)k;
}

/* "As this enters, exile / sacrifice any number of [objects]" (614.13, 702.82
 * devour): the objects change zones as the effect is applied; none of the
 * objects entering at the same time can be chosen (614.13a), and an object
 * already moved by another such effect is gone (614.13b). Returns how many. */
NOINLINE static int etb_take(G *g, const Repl *r, Event *ev, int ctl, int sacrifice) {
  State *s = g->s;
  const ReplSpec *rp = r->rp;
  char nm[110];
  fmt_obj(g, ev->obj, nm, sizeof nm);
  Ctx c;
  ctx_for(g, &c, ctl, ev->obj);
  int cand[MAX_OPTIONS], cnt = 0;
  for (int i = 0; i < s->c.nslots; i++) {
    if (!s->obj[i].id || i == ev->obj.slot) continue;
    int entering = 0;
    for (int j = 0; j < g->nentering; j++) entering |= g->entering[j] == s->obj[i].id;
    if (entering || !filter_match(g, &c, rp->take, i)) continue;
    if (cnt == MAX_OPTIONS) game_limit(g, "options in one decision", MAX_OPTIONS);
    cand[cnt++] = i;
  }
  if (!cnt) return 0;
  dec_begin(g, MTG_D_CHOOSE, ctl, "614.13", "%s any number of objects as %s enters", sacrifice ? "sacrifice" : "exile", nm);
  for (int i = 0; i < cnt; i++) {
    char on[110];
    fmt_slot(g, cand[i], on, sizeof on);
    dec_opt(g, MTG_O_OBJECT, s->obj[cand[i]].id, 0, -1, i, "%s", on);
  }
  dec_range(g, 0, cnt);
  int nv;
  const int *v = dec_ask(g, 0, &nv);
  if (!nv) return 0;
  int top = g->evtop;
  Event *te = ev_alloc(g, nv); /* not in this frame: the events it runs may nest */
  for (int i = 0; i < nv; i++) {
    ev_init(&te[i], sacrifice ? EV_SACRIFICE : EV_EXILE);
    te[i].obj = oref(g, cand[v[i]]);
    te[i].to = (int8_t)(sacrifice ? MTG_Z_GRAVEYARD : MTG_Z_EXILE);
    te[i].cause_ctl = (int8_t)ctl;
    te[i].cause_id = ev->obj.id;
    if (!sacrifice && rp->label) {
      /* 607.2a: "the exiled cards" are linked to the permanent it becomes */
      te[i].link_src = ev->obj.id;
      te[i].link_label = rp->label;
    }
  }
  ev_run(g, te, nv);
  int moved = 0;
  for (int i = 0; i < nv; i++) moved += te[i].done;
  g->evtop = top;
  return moved;
}

/* Applies one effect; returns 1 if the (modified) event still happens. */
static int apply(G *g, const Repl *r, Event *ev) {
  State *s = g->s;
  const ReplSpec *rp = r->rp;
  Effect *e = r->eff >= 0 ? &s->eff[r->eff] : NULL;
  char what[200] = "";
  Ctx c; /* one for every branch, set by each that needs it: this frame is on the path of nested replacements */
  mark(ev, r->key);
  switch (rp->act) {
  case RA_MODIFY: {
    int before = ev->amount;
    if (rp->floor_one && ev->type == EV_DAMAGE && ev->player >= 0) {
      /* "damage that would reduce your life total to less than 1 reduces it
       * to 1 instead": the result changes, not the damage dealt (lifelink
       * and "deals damage" still see all of it) */
      ev->life_floor = rp->floor_one;
      snprintf(what, sizeof what, " life_floor=%d", rp->floor_one);
      log_repl(g, r, ev, what);
      if (e && e->once) e->used = 1;
      return 1;
    } else {
      ev->amount = num_add(num_mul(ev->amount, rp->mul), rp->add);
    }
    if (ev->amount < 0) ev->amount = 0;
    snprintf(what, sizeof what, " amount=%d->%d", before, ev->amount);
    log_repl(g, r, ev, what);
    if (e && e->once) e->used = 1;
    return ev->amount > 0;
  }
  case RA_PREVENT: {
    int want = ev->amount;
    if (rp->has_all_but) want = ev->amount > rp->all_but ? ev->amount - rp->all_but : 0; /* "all but N of that damage" */
    else if (rp->amount && e && e->shield >= 0) want = e->shield < ev->amount ? e->shield : ev->amount;
    else if (rp->amount && !e) {
      repl_ctx(g, r, ev, &c);
      want = expr_eval(g, &c, rp->amount);
      if (want > ev->amount) want = ev->amount;
      if (want < 0) want = 0; /* 107.1b: no negative amount is prevented */
    }
    int prevented = ev->unpreventable ? 0 : want; /* 615.12 */
    ev->amount -= prevented;
    if (e && e->shield > 0 && !ev->unpreventable) {
      e->shield -= prevented;
      if (e->shield <= 0) e->used = 1;
    }
    if (e && e->once && !ev->unpreventable) e->used = 1; /* 615.8 */
    snprintf(what, sizeof what, " amount=%d", prevented);
    log_repl(g, r, ev, what);
    if (prevented > 0) {
      /* 615.13: "whenever damage is prevented" triggers once for each time a
       * prevention effect is applied to simultaneous damage events: ev_run
       * checks these once its batch is built */
      int k;
      for (k = 0; k < g->nprev; k++)
        if (g->prev_key[k] == r->key && g->w->prev_ev[k].player == ev->player && g->w->prev_ev[k].obj.id == ev->obj.id) break;
      if (k < g->nprev) {
        g->w->prev_ev[k].amount = num_add(g->w->prev_ev[k].amount, prevented);
      } else if (g->nprev < (int)NELEM(g->w->prev_ev)) {
        Event *pe = &g->w->prev_ev[g->nprev];
        g->prev_key[g->nprev++] = r->key;
        *pe = *ev;
        pe->type = EV_PREVENT;
        pe->amount = prevented;
        pe->done = 1;
      }
    }
    if (rp->steps) rider_add(g, r, ev, prevented);
    return ev->amount > 0;
  }
  case RA_INSTEAD: {
    log_repl(g, r, ev, "");
    if (e) e->used = 1;
    run_instead(g, r, ev, rp->steps, 0);
    return 0;
  }
  case RA_REDIRECT: {
    ctx_for(g, &c, r->controller, r->src);
    c.def = r->def;
    if (e) c.ch = &e->ch; /* a one-shot redirection "to target creature" */
    Sel to;
    sel_eval(g, &c, rp->redirect, &to);
    /* 614.9: a permanent no longer there, or no longer a creature, planeswalker or battle: nothing happens */
    if (to.n && oref_ok(g, to.o[0]) && s->obj[to.o[0].slot].zone == MTG_Z_BATTLEFIELD &&
        is_type(g, to.o[0].slot, T_CREATURE | T_PLANESWALKER | T_BATTLE)) {
      char nm[110];
      fmt_obj(g, to.o[0], nm, sizeof nm);
      ev->player = -1;
      ev->obj = to.o[0];
      snprintf(what, sizeof what, " to=%s", nm);
    } else if (to.np && player_alive(g, to.p[0])) {
      ev->obj = oref_none();
      ev->player = to.p[0];
      snprintf(what, sizeof what, " to=%s", player_name(g, to.p[0]));
    } else {
      return 1;
    }
    /* 614.3: "the next time ... is dealt to [it] instead" is used up here */
    if (e && e->once) e->used = 1;
    log_repl(g, r, ev, what);
    return 1;
  }
  case RA_TO_ZONE:
    if (e && e->once) e->used = 1;
    /* a discard is replaced as its move to the graveyard, an EV_ZONE (matches()) */
    if (ev->type == EV_SACRIFICE || ev->type == EV_DESTROY || ev->type == EV_ZONE) {
      ev->to = rp->dest;
      ev->lib_pos = rp->dest_shuffle ? 2 : rp->dest_bottom ? 1 : 0;
      if (rp->dest == MTG_Z_BATTLEFIELD) ev->etb_ctl = (int8_t)(oref_ok(g, ev->obj) ? s->obj[ev->obj.slot].owner : -1);
      if (rp->dest_counter) ev->dest_counter_kind1 = (uint32_t)ckind_id(g, rp->dest_counter) + 1;
      if (rp->label) {
        /* 607.2b: exiled by a replacement linked to another ability */
        ev->link_src = r->src.id;
        ev->link_grant = r->grant;
        ev->link_label = rp->label;
      }
    }
    snprintf(what, sizeof what, " to=%s", mtg_zone_name(rp->dest));
    log_repl(g, r, ev, what);
    return 1;
  case RA_ETB_TAPPED:
    if (rp->unless_reveal && etb_reveal(g, r, ev)) {
      log_repl(g, r, ev, " tapped=0");
      return 1;
    }
    ev->etb_tapped = 1;
    {
      char types[80] = "";
      etb_types(g, ev, rp, types, sizeof types);
      snprintf(what, sizeof what, " tapped=1%s", types);
    }
    log_repl(g, r, ev, what);
    return 1;
  case RA_ETB_TYPES:
    etb_types(g, ev, rp, what, sizeof what);
    log_repl(g, r, ev, what);
    return 1;
  case RA_ETB_COUNTERS: {
    ctx_for(g, &c, r->controller, r->src);
    c.def = r->def;
    int n = expr_eval(g, &c, rp->steps);
    char types[80] = "";
    etb_types(g, ev, rp, types, sizeof types);
    snprintf(what, sizeof what, " counters=%s:%d%s", rp->counter, n, types);
    log_repl(g, r, ev, what);
    etb_counters(g, ev, ckind_id(g, rp->counter), n, NULL);
    return 1;
  }
  case RA_ETB_CHOOSE: {
    /* 614.12a: the choice is made before the permanent enters */
    int ctl = ev->etb_ctl >= 0 ? ev->etb_ctl : ev->type == EV_FACE_UP ? obj_controller(g, ev->obj.slot) : s->obj[ev->obj.slot].owner;
    char nm[110];
    fmt_obj(g, ev->obj, nm, sizeof nm);
    int k = rp->choose_kind;
    if (k == 0) {
      dec_begin(g, MTG_D_COLOR, ctl, "614.12a", "choose a color for %s", nm);
      for (int i = 0; i < 5; i++) dec_opt(g, MTG_O_COLOR, 0, 0, -1, i, "%s", color_names[i]);
      int v = ask_pick(g);
      ev->etb_choice = v;
      snprintf(what, sizeof what, " chosen=%s", color_names[v]);
    } else if (k == 1 || k == 2) {
      dec_begin(g, MTG_D_PLAYER, ctl, "614.12a", "choose a%s player for %s", k == 2 ? "n opposing" : "", nm);
      int map[MAX_PLAYERS], cnt = 0;
      for (int p = 0; p < s->c.np; p++)
        if (player_alive(g, p) && (k == 1 || opponents(g, ctl, p))) {
          map[cnt++] = p;
          dec_opt(g, MTG_O_PLAYER, 0, 0, p, -1, "%s", player_name(g, p));
        }
      if (!cnt) return 1;
      int v = map[ask_pick(g)];
      ev->etb_choice = v;
      snprintf(what, sizeof what, " chosen=%s", player_name(g, v));
    } else if (k == 3) {
      dec_begin(g, MTG_D_NAME, ctl, "614.12a", "choose a card name for %s", nm);
      const char *names[MAX_OPTIONS];
      name_options(g, NULL, names);
      int v = ask_pick(g);
      ev->etb_choice = 0; /* the name is the choice, not its place in the pool's list */
      ev->etb_choice_s = names[v];
      snprintf(what, sizeof what, " chosen=\"%s\"", names[v]);
    } else if (k == 4) {
      dec_begin(g, MTG_D_WORD, ctl, "614.12a", "choose for %s", nm);
      for (int i = 0; i < rp->nwords; i++) dec_opt(g, MTG_O_WORD, 0, 0, -1, i, "%s", rp->words[i]);
      int v = ask_pick(g);
      ev->etb_choice = v;
      ev->etb_choice_s = rp->words[v];
      snprintf(what, sizeof what, " chosen=%s", rp->words[v]);
    } else if (k == 7 || k == 8) {
      int moved = etb_take(g, r, ev, ctl, k == 8);
      ev->etb_choice = moved;
      snprintf(what, sizeof what, " %s=%d", k == 8 ? "sacrificed" : "exiled", moved);
      if (rp->counter) {
        log_repl(g, r, ev, what);
        etb_counters(g, ev, ckind_id(g, rp->counter), moved * rp->add, NULL); /* 702.82a */
        ev->etb_choice_kind = (int8_t)k;
        ev->etb_choice_label = rp->label;
        return 1;
      }
    } else if (k == 6) {
      /* 607.2g: a cost paid as it enters; the linked ability sees how much */
      int n = rp->add, paid = 0;
      Event le;
      ev_init(&le, EV_LOSE_LIFE);
      le.player = (int8_t)ctl;
      le.amount = n < 0 ? 1 : n;
      le.rule = "119.4";
      if (n < 0) {
        /* "pay any amount of life": up to the life total (119.4) */
        int life = s->c.pl[ctl].life, hi = life > 0 && ev_possible(g, &le) ? life : 0;
        int v = ask_number(g, ctl, 0, hi, "pay how much life as %s enters?", nm);
        if (v > 0) {
          le.amount = v;
          ev_one(g, &le);
          paid = v;
        }
      } else if (s->c.pl[ctl].life >= n && ev_possible(g, &le) &&
                 ask_yes_no(g, ctl, "607.2g", "pay %d life as %s enters?", n, nm)) {
        ev_one(g, &le);
        paid = n;
      }
      ev->etb_choice = paid;
      snprintf(what, sizeof what, " paid=%d", paid);
    } else {
      int v = ask_number(g, ctl, 0, 99, "choose a number for %s", nm);
      ev->etb_choice = v;
      snprintf(what, sizeof what, " chosen=%d", v);
    }
    ev->etb_choice_kind = (int8_t)k;
    ev->etb_choice_label = rp->label;
    log_repl(g, r, ev, what);
    return 1;
  }
  case RA_ETB_COPY: {
    int ctl = ev->etb_ctl >= 0 ? ev->etb_ctl : s->obj[ev->obj.slot].owner;
    char nm[110];
    fmt_obj(g, ev->obj, nm, sizeof nm);
    ctx_for(g, &c, ctl, ev->obj);
    if (rp->copy_self) {
      /* "enter as a copy of [this]": the source's copiable values (707.2) */
      const CardDef *d = oref_ok(g, r->src) ? chars(g, r->src.slot)->base : r->def;
      if (!d) return 1;
      ev->etb_copy = d;
      ev->etb_copy_sub = rp->copy_sub ? rp->copy_sub : oref_ok(g, r->src) ? s->obj[r->src.slot].copy_sub : NULL;
      if (oref_ok(g, r->src)) fmt_slot(g, r->src.slot, nm, sizeof nm);
      else snprintf(nm, sizeof nm, "\"%s\"", d->name);
      snprintf(what, sizeof what, " copy=%s", nm);
      log_repl(g, r, ev, what);
      return 1;
    }
    dec_begin(g, MTG_D_CHOOSE, ctl, "614.1c", rp->optional ? "%s may enter as a copy of" : "%s enters as a copy of", nm);
    int cand[MAX_OPTIONS], cnt = 0;
    int nb = bf_count(g);
    int16_t *bf = bf_list(g);
    for (int i = 0; i < nb; i++)
      if (filter_match(g, &c, rp->take, bf[i])) {
        char on[110];
        fmt_slot(g, bf[i], on, sizeof on);
        cand[cnt++] = bf[i];
        dec_opt(g, MTG_O_OBJECT, s->obj[bf[i]].id, 0, -1, -1, "%s", on);
      }
    if (!cnt) return 1;
    dec_range(g, rp->optional ? 0 : 1, 1);
    int n;
    const int *v = dec_ask(g, 0, &n);
    if (!n) return 1;
    const char *sub;
    ev->etb_copy = copiable_def(g, cand[v[0]], &sub);
    /* an exception of the copy effect, or one the copied object has (707.9b) */
    ev->etb_copy_sub = rp->copy_sub ? rp->copy_sub : sub;
    fmt_slot(g, cand[v[0]], nm, sizeof nm);
    snprintf(what, sizeof what, " copy=%s", nm);
    log_repl(g, r, ev, what);
    return 1;
  }
  case RA_SKIP:
    log_repl(g, r, ev, "");
    if (e) e->used = 1;
    if (rp->steps) { /* only a skipped step has them (cardload.c) */
      /* 614.10b: the action is the first thing in the next step that occurs */
      s->c.after_skip = rp->steps;
      s->c.after_skip_src = r->src;
      s->c.after_skip_ctl = (int8_t)r->controller;
    }
    return 0;
  case RA_REGENERATE: {
    /* 701.19a: remove all damage, tap it, remove it from combat */
    log_repl(g, r, ev, "");
    if (e) e->used = 1;
    if (oref_ok(g, ev->obj)) {
      Obj *o = obj_w(g, ev->obj.slot);
      o->damage = 0;
      o->dt_hit = 0;
      Event t;
      ev_init(&t, EV_REGENERATE);
      t.obj = ev->obj;
      log_event(g, &t);
      if (!o->tapped) do_tap(g, ev->obj.slot, 1);
      combat_remove(g, ev->obj.slot);
    }
    return 0;
  }
  case RA_ETB_CONTROLLER: {
    int ctl = r->controller;
    if (rp->mul == R_OWNER && oref_ok(g, ev->obj)) ctl = s->obj[ev->obj.slot].owner;
    ev->etb_ctl = (int8_t)ctl;
    snprintf(what, sizeof what, " controller=%s", player_name(g, ctl));
    log_repl(g, r, ev, what);
    return 1;
  }
  case RA_ETB_TRANSFORMED:
    /* 616.1d: enters with its back face up */
    if (oref_ok(g, ev->obj) && s->obj[ev->obj.slot].def->back) {
      ev->etb_transformed = 1;
      log_repl(g, r, ev, " face=back");
    }
    return 1;
  case RA_AS_INFECT:
    ev->flags |= EF_INFECT;
    log_repl(g, r, ev, " infect=1");
    return 1;
  default:
    return 1;
  }
}

/* 616.1: the affected player chooses the order only where it can matter. The
 * same modification (one ability of one definition: "that many plus one",
 * "twice that many") applied by several objects gives the same result in any
 * order, so the first is applied without asking. */
static int interchangeable(const Repl *cand, int n) {
  for (int i = 0; i < n; i++)
    if (cand[i].rp != cand[0].rp || cand[i].rp->act != RA_MODIFY || cand[i].rp->floor_one) return 0;
  return 1;
}

int replace_event(G *g, Event *ev) {
  Repl cand[MAX_REPL];
  /* each replacement applies once to an event (614.5), and the event keeps
   * MAX_APPLIED marks: past them the run stops naming the capacity, rather
   * than perform the event with some effects left out */
  for (int guard = 0; guard < MAX_APPLIED; guard++) {
    int n = collect(g, ev, cand);
    if (!n) return 1;
    /* 616.1a-e: the first non-empty category must be chosen from */
    int best = 4;
    for (int i = 0; i < n; i++)
      if (cand[i].cat < best) best = cand[i].cat;
    int k = 0;
    for (int i = 0; i < n; i++)
      if (cand[i].cat == best) cand[k++] = cand[i];
    n = k;
    int pick = 0;
    if (n > 1 && !interchangeable(cand, n)) {
      int who = affected_player(g, ev);
      char desc[64];
      snprintf(desc, sizeof desc, "%s", ev_names[ev->type]);
      dec_begin(g, MTG_D_REPLACEMENT, who, best == 0 ? "616.1a" : best < 4 ? "616.1b" : "616.1e",
                "choose the replacement or prevention effect to apply to %s", desc);
      for (int i = 0; i < n; i++) {
        char lb[140];
        repl_label(g, &cand[i], lb, sizeof lb);
        dec_opt(g, MTG_O_EFFECT, cand[i].src.id, 0, -1, i, "%s", lb);
      }
      pick = ask_pick(g);
    }
    Repl *r = &cand[pick];
    if (r->rp->optional && r->rp->act != RA_ETB_COPY) {
      char lb[140];
      repl_label(g, r, lb, sizeof lb);
      if (!ask_yes_no(g, r->controller, "614.1a", "apply %s to %s?", lb, ev_names[ev->type])) {
        mark(ev, r->key);
        continue;
      }
    }
    if (!apply(g, r, ev)) return 0;
  }
  if (collect(g, ev, cand)) game_limit(g, "replacement effects applied to one event", MAX_APPLIED);
  return 1;
}
