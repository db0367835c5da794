/* layer.c - characteristics after continuous effects (rule 613: layers,
 * timestamps, dependency 613.8, one effect in several layers 613.6), the table of
 * continuous effects created by resolving spells and abilities (611), and
 * queries of rule-modifying effects (613.11: "can't lose", "can't draw more
 * than one card", ...). Characteristics are recomputed for all objects when
 * anything changed (the epoch moved) and cached per slot. A recomputation
 * starts each object from its copiable values (base_chars), which are kept
 * per slot with the object fields they come from: an object no effect and no
 * counter modified keeps them without being rebuilt. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "num.h"

void chars_dirty(G *g) { g->epoch++; }

/* Whether the cache holds every object as it is now, on a plain board: valid
 * (epoch), computed when no continuous effect applied (ch_plain), and no
 * object written since (owrites: an object can be written without epoch
 * moving, as a token is made before it enters). Such values depend on each
 * object alone, never on an object looked at as it would enter (hyp_slot),
 * which a recomputation on a plain board does not ask about. */
int chars_current(G *g) { return g->ch_epoch == g->epoch && g->ch_plain && g->ch_owrites == g->owrites; }

/* After writes to objects that changed nothing the cache reads (chars_current
 * held before them): the cache stays current, and what an object looked at as
 * it would enter is computed again (another object may be looked at next). */
void chars_kept(G *g) {
  g->ch_owrites = g->owrites;
  g->hyp_epoch = 0;
}

void chars_reset(G *g) {
  g->epoch++;
  g->ch_full = 1;
  memset(g->chb, 0, sizeof *g->chb * (size_t)g->chb_used); /* the slots past it were never filled */
}

/* An effect candidate: a static ability of an object, or a table effect. */
typedef struct Cand {
  uint32_t ts;
  int16_t slot;   /* static: source slot; table effect: -1 */
  const StaticSpec *st;
  const StaticSpec *head; /* the ability's first part (613.6); st itself for it */
  int eff;        /* table effect index or -1 */
  uint8_t order;  /* tie-break: slot order */
} Cand;

static int cand_cmp(const void *a, const void *b) {
  const Cand *x = a, *y = b;
  if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
  if (x->slot != y->slot) return x->slot < y->slot ? -1 : 1;
  return x->eff < y->eff ? -1 : x->eff > y->eff;
}

static void chars_from_def(G *g, Chars *c, const CardDef *d);

/* What base_chars reads of an object. */
static ChBase base_key(const Obj *o) {
  ChBase k;
  memset(&k, 0, sizeof k);
  k.def = o->def;
  k.copy_of = o->copy_of;
  k.copy_sub = o->copy_sub;
  k.controller = o->controller;
  k.face_down = o->face_down;
  k.transformed = o->transformed;
  k.flipped = o->flipped;
  k.zone = o->zone;
  k.suspend_haste = o->suspend_haste;
  k.valid = 1;
  return k;
}

/* Whether the key b was made from o's fields as they are (base_key): read
 * from the object directly, since most objects are asked every time. */
static inline int base_holds(const ChBase *b, const Obj *o) {
  return b->valid && b->def == o->def && b->copy_of == o->copy_of && b->copy_sub == o->copy_sub &&
         b->controller == o->controller && b->face_down == o->face_down && b->transformed == o->transformed &&
         b->flipped == o->flipped && b->zone == o->zone && b->suspend_haste == o->suspend_haste;
}

/* An object's copiable values (707.2). Every field of the object read here
 * is part of its ChBase key (base_key), so that the values cached for a slot
 * are rebuilt when one changes. */
static void base_chars(G *g, const Obj *o, Chars *c) {
  const CardDef *d = face_up_def(o); /* 712.8d, 709.3b */
  memset(c, 0, sizeof *c);
  c->controller = o->controller;
  if (o->face_down && (o->zone == MTG_Z_COMMAND || o->zone == MTG_Z_EXILE)) {
    /* 406.3a: a card exiled face down has no characteristics */
    /* schemes, planes and phenomena in their decks: abilities function only face up
     * (311.4, 314.4); like face-down conspiracies (315.5b), no characteristics */
    c->base = d;
    c->name = "face-down";
    return;
  }
  if (o->face_down) {
    /* 708.2: a face-down permanent is a 2/2 creature with no name, text or cost */
    c->base = d;
    c->name = "face-down";
    c->types = T_CREATURE;
    c->has_pt = 1;
    c->power = c->toughness = 2;
    return;
  }
  c->base = d;
  c->colors = d->colors;
  /* 710.2: flipped on the battlefield, a flip card's alternative name, text box, type
   * line, power and toughness apply; its color and mana cost don't change (710.1c) */
  if (o->flipped && d->flip && o->zone == MTG_Z_BATTLEFIELD) d = d->flip;
  chars_from_def(g, c, d);
  /* 702.109a: "As long as this permanent's dash cost was paid, it has haste" */
  if (o->alt == ALT_DASH && o->zone == MTG_Z_BATTLEFIELD) c->kw |= 1ULL << KW_HASTE;
  /* 702.62a: a creature spell cast by its suspend ability "gains haste until you lose control of the
   * spell or the permanent it becomes" (the flag is cleared as control is lost: control_watch) */
  if (o->suspend_haste && (o->zone == MTG_Z_BATTLEFIELD || o->zone == MTG_Z_STACK)) c->kw |= 1ULL << KW_HASTE;
  /* 707.9b: an exception of the copy effect ("except it's a Ninja in addition
   * to its other types") is part of the copiable values */
  if (o->copy_of && o->copy_sub && !has_subtype(c, o->copy_sub) && c->nsub < MAX_SUBTYPES + 4)
    c->sub[c->nsub++] = o->copy_sub;
}

/* The copiable values a copy of the object in slot takes (707.2): the
 * definition it has after copy effects, and the subtype a copy effect added
 * as an exception (707.9b) into *sub. A face-down permanent's copiable values
 * are a nameless, colorless 2/2 creature with no abilities and no mana cost
 * (708.2), with no exception. */
const CardDef *copiable_def(G *g, int slot, const char **sub) {
  static const CardDef face_down_values = {.name = "face-down", .types = T_CREATURE, .has_pt = 1, .power = 2, .toughness = 2};
  const Obj *o = &g->s->obj[slot];
  *sub = o->face_down ? NULL : o->copy_sub;
  return o->face_down ? &face_down_values : chars(g, slot)->base;
}

/* One more ability of an object. An object holds MAX_ABS; a copy or a grant
 * that would give it more stops the game past the capacity (MTG_ELIMIT)
 * rather than leave an ability out unsaid (the loader refuses a card with
 * more). Only a run or a setup build can unwind: asked between decisions
 * (a query, the checker), characteristics a run has not computed are kept
 * to the capacity. */
static void ab_add(G *g, Chars *c, const Ability *ab, const CardDef *d, uint16_t grant) {
  if (c->nab >= MAX_ABS) {
    if (g->jb_set) game_limit(g, "abilities of one object", MAX_ABS);
    return;
  }
  c->ab[c->nab++] = (AbRef){ab, d, grant};
}

/* Layer 1 (613.2a): "[this] becomes a copy of [object], except ...", an
 * effect of a resolved ability: the copied object's copiable values (707.2),
 * then the exceptions, which are part of the copy effect (707.9b): another
 * name, added supertypes, "and it has this ability". */
static void copy_onto(G *g, int slot, const Effect *e) {
  Chars *c = &g->ch[slot];
  g->chb[slot].modified = 1; /* no longer its own copiable values */
  const CardDef *d = e->grant_def;
  uint8_t ctl = c->controller;
  memset(c, 0, sizeof *c);
  c->controller = ctl;
  c->base = d;
  c->colors = d->colors;
  chars_from_def(g, c, d);
  if (e->st->label) c->name = e->st->label;
  c->supers |= (uint8_t)e->st->supers;
  if (e->st->a && e->ab) ab_add(g, c, e->ab, e->def, 0);
}

/* The characteristics a definition gives, but its colors (710.1c) */
static void chars_from_def(G *g, Chars *c, const CardDef *d) {
  c->name = d->name;
  c->types = d->types;
  c->supers = d->supers;
  for (int i = 0; i < d->nsub; i++) c->sub[c->nsub++] = d->subtypes[i];
  c->has_pt = d->has_pt;
  c->power = d->power;
  c->toughness = d->toughness;
  c->kw = d->keywords;
  /* 702.73a, 604.3, 613.3: changeling defines the creature types before any
   * other effect applies, in every zone, and losing the ability later (layer 6)
   * doesn't undo it */
  c->all_creature_types = (uint8_t)(d->keywords >> KW_CHANGELING & 1);
  for (int i = 0; i < d->nab; i++) ab_add(g, c, &d->ab[i], d, 0);
}

/* g->ch[slot] set to the object's copiable values, rebuilt only if the
 * object fields they come from changed or an effect or counter modified
 * them since. */
static void base_rebuild(G *g, int slot) {
  ChBase k = base_key(&g->s->obj[slot]);
  base_chars(g, &g->s->obj[slot], &g->ch[slot]);
  if (slot >= g->chb_used) g->chb_used = slot + 1;
  g->chb[slot] = k;
}

/* Inline: most objects asked are kept (a call per object of every
 * recomputation otherwise). */
static inline void base_ensure(G *g, int slot) {
  const ChBase *b = &g->chb[slot];
  if (b->modified || !base_holds(b, &g->s->obj[slot])) base_rebuild(g, slot);
}

static int static_functions(G *g, int slot, const Ability *ab) {
  const Obj *o = &g->s->obj[slot];
  if (ab->st.kind == SE_PT_CDA) return 1; /* 604.3: characteristic-defining abilities work everywhere */
  int z = ab->zone < 0 ? MTG_Z_BATTLEFIELD : ab->zone;
  return o->zone == z && !o->phased_out;
}

static int affects(G *g, Ctx *cx, const StaticSpec *st, int src, int slot) {
  if (st->self) return slot == src;
  if (st->attached) {
    const Obj *s = &g->s->obj[src];
    return s->attached.slot == slot && oref_ok(g, s->attached);
  }
  return filter_match(g, cx, st->affected, slot); /* cand_targets asks only an effect with one of the three */
}

static int spec_layer(const StaticSpec *st) {
  switch (st->kind) {
  case SE_CONTROL: return 2;
  case SE_ADD_TYPES: case SE_REMOVE_TYPES: return 4;
  case SE_ADD_COLORS: case SE_SET_COLORS: return 5;
  case SE_ADD_KEYWORDS: case SE_REMOVE_KEYWORDS: case SE_LOSE_ALL_ABILITIES: case SE_GAIN_ABILITIES: return 6;
  case SE_PT_CDA: return 7;
  case SE_PT_SET: return 8;
  case SE_PT_MOD: return 9;
  default: return 0;
  }
}

/* Layer 6 gives or takes a keyword with the ability it stands for (613.1f):
 * each grant adds an instance (113.2c), and a removal takes every instance,
 * printed or granted. */
static void kw_grant(G *g, Chars *c, uint64_t kw) {
  c->kw |= kw;
  for (int k = 0; k < KW_COUNT; k++) {
    if (!(kw >> k & 1)) continue;
    const CardDef *d;
    const Ability *ab = pool_kw_ability(g->pool, k, &d);
    if (ab) ab_add(g, c, ab, d, 0);
  }
}

static void kw_remove(Chars *c, uint64_t kw) {
  c->kw &= ~kw;
  int w = 0;
  for (int a = 0; a < c->nab; a++) {
    int k = c->ab[a].ab->kw_of;
    if (!k || !(kw >> (k - 1) & 1)) c->ab[w++] = c->ab[a];
  }
  c->nab = (uint8_t)w;
}

static void apply(G *g, const StaticSpec *st, const Effect *e, int slot, Ctx *cx, int src) {
  Chars *c = &g->ch[slot];
  g->chb[slot].modified = 1; /* no longer its copiable values */
  switch (st->kind) {
  case SE_CONTROL:
    if (e && e->player >= 0) c->controller = (uint8_t)e->player;
    else if (!e && src >= 0) c->controller = (uint8_t)cx->controller; /* "you control enchanted permanent" */
    break;
  case SE_ADD_TYPES:
    c->types |= e ? e->types : st->types;
    for (int i = 0; i < st->nsub && c->nsub < MAX_SUBTYPES + 4; i++)
      if (!has_subtype(c, st->subtypes[i])) c->sub[c->nsub++] = st->subtypes[i];
    if ((c->types & T_CREATURE) && !c->has_pt) {
      c->has_pt = 1; /* a noncreature made a creature without P/T is 0/0 unless set */
      c->power = c->toughness = 0;
    }
    break;
  case SE_REMOVE_TYPES:
    c->types &= ~(e ? e->types : st->types);
    break;
  case SE_ADD_COLORS:
    c->colors |= e ? e->chosen_colors : st->colors;
    break;
  case SE_SET_COLORS:
    c->colors = e ? e->chosen_colors : st->colors;
    break;
  case SE_ADD_KEYWORDS:
    kw_grant(g, c, e ? e->kw : st->keywords);
    if (!e && st->kw_abs) {
      /* keyword abilities with a parameter (protection from a quality, landwalk, ...) */
      const CardDef *d = st->kw_abs;
      for (int i = 0; i < d->nab; i++)
        ab_add(g, c, &d->ab[i], d, (uint16_t)(0x8000u | (src >= 0 ? g->s->obj[src].id & 0x7fffu : 0)));
    }
    if (!e && st->prot_chosen && src >= 0) {
      /* "protection from the chosen color": the color chosen for this ability's source (607.2d) */
      int col = link_find_color(g, g->s->obj[src].id, 0, st->prot_chosen);
      if (col >= 0) c->kw |= 1ULL << (KW_PROT_W + col);
    }
    break;
  case SE_REMOVE_KEYWORDS:
    kw_remove(c, e ? e->kw : st->keywords);
    break;
  case SE_LOSE_ALL_ABILITIES:
    c->kw = 0;
    c->nab = 0;
    c->lost_all = 1;
    break;
  case SE_GAIN_ABILITIES:
    if (!e && st->grant_from) {
      /* granted by a static ability: linked among themselves; granted by the
       * object's own printed ability to itself, they count as printed on it
       * and link with its printed abilities (607.1a) */
      const CardDef *d = st->grant_from;
      const CardDef *own = g->s->obj[src].def;
      int printed = 0;
      for (int i = 0; slot == src && own && i < own->nab; i++)
        if (&own->ab[i].st == st) printed = 1;
      uint16_t gid = printed ? 0 : (uint16_t)(0x8000u | (g->s->obj[src].id & 0x7fffu));
      for (int i = 0; i < d->nab; i++) ab_add(g, c, &d->ab[i], d, gid);
    }
    if (e && e->grant_def) {
      const CardDef *d = e->grant_def;
      /* keywords are abilities too; their abilities are among d's (printed) */
      if (e->a != 1) c->kw |= d->keywords;
      for (int i = 0; i < d->nab; i++) {
        if (e->a == 1 && d->ab[i].kind != AB_ACTIVATED) continue; /* activated abilities only */
        ab_add(g, c, &d->ab[i], d, (uint16_t)(e->id & 0xffff));
      }
    }
    break;
  case SE_PT_CDA:
    cx->src = oref(g, src);
    if (st->ea) c->power = expr_eval(g, cx, st->ea);
    if (st->eb) c->toughness = expr_eval(g, cx, st->eb);
    break;
  case SE_PT_SET:
    c->power = e ? e->a : st->a;
    c->toughness = e ? e->b : st->b;
    break;
  case SE_PT_MOD:
    if (!e && (st->ea || st->eb)) {
      /* a bonus that varies with a count, computed as layer 7c applies (613.4c) */
      cx->src = oref(g, src);
      if (st->ea) c->power = num_add(c->power, expr_eval(g, cx, st->ea));
      if (st->eb) c->toughness = num_add(c->toughness, expr_eval(g, cx, st->eb));
      break;
    }
    c->power = num_add(c->power, e ? e->a : st->a);
    c->toughness = num_add(c->toughness, e ? e->b : st->b);
    break;
  default:
    break;
  }
}

/* A card in a hand or library has no continuous effect on it unless one
 * names that zone; only its own characteristic-defining abilities apply
 * (604.3). Such cards are computed when asked for (most never are). */
static int lazy_zone(int z) { return z == MTG_Z_HAND || z == MTG_Z_LIBRARY; }

static void materialize(G *g, int slot) {
  Chars *c = &g->ch[slot];
  g->ch_lazy[slot] = 0; /* its own abilities see the partial values, as in recompute */
  base_ensure(g, slot);
  /* with no ability of its own that could apply, the values last as long as
   * the object: kept for the next recomputation */
  int own = 0;
  for (int a = 0; a < c->nab; a++)
    if (c->ab[a].ab->kind == AB_STATIC && spec_layer(&c->ab[a].ab->st)) own = 1;
  g->ch_kept[slot] = own ? 0 : g->s->obj[slot].id;
  if (own) g->ch_plain = 0;
  Ctx cx;
  ctx_init(g, &cx);
  /* of its static abilities only the characteristic-defining ones function
   * here (static_functions), and those have no part in another layer
   * (cardload.c p_static refuses cda with other effects; 613.6) */
  for (int layer = 2; layer <= 9 && own; layer++)
    for (int a = 0; a < c->nab; a++) {
      const Ability *ab = c->ab[a].ab;
      if (ab->kind != AB_STATIC || !ab->st.self || spec_layer(&ab->st) != layer || !static_functions(g, slot, ab)) continue;
      cx.src = oref(g, slot);
      cx.controller = c->controller;
      cx.def = c->base;
      if (ab->st.cond && !cond_eval(g, &cx, ab->st.cond)) continue;
      apply(g, &ab->st, NULL, slot, &cx, slot);
    }
}

/* Does the effect give or take abilities (so the trigger index must follow
 * every change of characteristics)? Keywords without an ability of their own
 * are only bits. */
static int changes_abilities(G *g, const StaticSpec *st, const Effect *e) {
  if (st->kind == SE_GAIN_ABILITIES || st->kind == SE_LOSE_ALL_ABILITIES || (e && e->grant_def)) return 1;
  if (st->kind != SE_ADD_KEYWORDS && st->kind != SE_REMOVE_KEYWORDS) return 0;
  uint64_t kw = e ? e->kw : st->keywords;
  return (kw & pool_kw_mask(g->pool)) != 0;
}

/* 613.6: the objects the first part of a static ability with parts in
 * several layers applied to; its later parts apply to the same ones, even if
 * the ability has been removed meanwhile. */
typedef struct Recs {
  struct { int16_t src; const StaticSpec *head; int off, n; } rec[64];
  int nrec, nrs;
  int16_t rs[2048];
} Recs;

/* Whether a static candidate applies now, and to which objects: -1 if it
 * doesn't (its source lost it, or its condition fails). */
static int cand_targets(G *g, const Cand *cd, Ctx *cx, int16_t *out, int max) {
  State *s = g->s;
  int src = cd->slot;
  const Chars *sc = &g->ch[src];
  int has = 0;
  for (int a = 0; a < sc->nab; a++)
    if (&sc->ab[a].ab->st == cd->st) has = 1;
  if (!has) return -1;
  const Ability *ab = (const Ability *)((const char *)cd->st - offsetof(Ability, st));
  if (!static_functions(g, src, ab)) return -1;
  cx->src = oref(g, src);
  cx->controller = g->ch[src].controller;
  cx->def = g->ch[src].base;
  if (cd->st->cond && !cond_eval(g, cx, cd->st->cond)) return -1;
  if (cd->st->kind == SE_PT_CDA) {
    out[0] = (int16_t)src;
    return 1;
  }
  int k = 0;
  for (int i = 0; i < s->c.nslots && k < max; i++) {
    if (!s->obj[i].id || g->ch_lazy[i]) continue;
    if (!cd->st->self && !cd->st->attached && !cd->st->affected) continue;
    /* effects on permanents only reach the battlefield unless the filter says a zone */
    if (cd->st->affected && cd->st->affected->zone == -1 && s->obj[i].zone != MTG_Z_BATTLEFIELD) continue;
    if (affects(g, cx, cd->st, src, i)) out[k++] = (int16_t)i;
  }
  return k;
}

/* Applies one candidate; `record`: keeps what a first part applied to (613.6). */
static void apply_cand(G *g, const Cand *cd, Ctx *cx, Recs *R, int record) {
  State *s = g->s;
  if (cd->eff >= 0) {
    Effect *e = &s->eff[cd->eff];
    if (oref_ok(g, e->obj)) apply(g, cd->st, e, e->obj.slot, cx, -1);
    return;
  }
  int src = cd->slot;
  if (cd->head != cd->st) {
    for (int r = 0; r < R->nrec; r++)
      if (R->rec[r].src == src && R->rec[r].head == cd->head) {
        cx->src = oref(g, src);
        cx->controller = g->ch[src].controller;
        cx->def = g->ch[src].base;
        for (int j = 0; j < R->rec[r].n; j++) apply(g, cd->st, NULL, R->rs[R->rec[r].off + j], cx, src);
      }
    return;
  }
  int16_t to[512];
  int nt = cand_targets(g, cd, cx, to, NELEM(to));
  if (nt < 0) return;
  record = record && cd->st->part && R->nrec < NELEM(R->rec);
  if (record) {
    R->rec[R->nrec].src = (int16_t)src;
    R->rec[R->nrec].head = cd->st;
    R->rec[R->nrec].off = R->nrs;
    R->rec[R->nrec].n = 0;
    R->nrec++;
  }
  for (int j = 0; j < nt; j++) {
    apply(g, cd->st, NULL, to[j], cx, src);
    if (record && R->nrs < NELEM(R->rs)) {
      R->rs[R->nrs++] = to[j];
      R->rec[R->nrec - 1].n++;
    }
  }
}

/* 613.8a: does static candidate e depend on f (same layer)? It does if
 * applying f would change whether e applies or what it applies to: whether
 * its source still has the ability too, so an ability about its source or
 * what that is attached to ("enchanted creature has flying") depends on an
 * effect removing it. Tried on the characteristics as they are, then put
 * back. Effects of resolved spells and abilities have fixed sets of objects
 * (611.2c) and depend on nothing, nor do the later parts of an ability, which
 * apply once its first part has (613.6).
 * Asked in every layer (613.8: within a layer or sublayer): the only
 * characteristic-defining abilities here set P/T, and every effect of 7a is
 * one while no effect of another layer is, so 613.8a(c) holds of every pair. */
static int depends_on(G *g, const Cand *e, const Cand *f, Ctx *cx, Recs *R) {
  if (e->eff >= 0 || e->head != e->st) return 0;
  int16_t before[512], after[512], fs[512];
  int nb = cand_targets(g, e, cx, before, NELEM(before));
  int nf;
  if (f->eff >= 0) {
    const Effect *fe = &g->s->eff[f->eff];
    nf = oref_ok(g, fe->obj) ? 1 : 0;
    fs[0] = fe->obj.slot;
  } else if (f->head != f->st) {
    nf = 0;
    for (int r = 0; r < R->nrec; r++)
      if (R->rec[r].src == f->slot && R->rec[r].head == f->head)
        for (int j = 0; j < R->rec[r].n && nf < NELEM(fs); j++) fs[nf++] = R->rs[R->rec[r].off + j];
  } else {
    nf = cand_targets(g, f, cx, fs, NELEM(fs));
  }
  if (nf <= 0) return 0;
  Chars *save = malloc((size_t)nf * sizeof *save);
  if (!save) return 0;
  for (int j = 0; j < nf; j++) save[j] = g->ch[fs[j]];
  apply_cand(g, f, cx, R, 0);
  int na = cand_targets(g, e, cx, after, NELEM(after));
  for (int j = 0; j < nf; j++) g->ch[fs[j]] = save[j];
  free(save);
  return na != nb || (na > 0 && memcmp(before, after, (size_t)na * sizeof *after));
}

/* The counters of an object on its characteristics: +1/+1 and -1/-1
 * counters modify power and toughness in layer 7c (613.4c). */
static inline void chars_counters(G *g, int i) {
  const Obj *o = &g->s->obj[i];
  int p = o->nc && !g->ch_lazy[i] ? counters_get(o->c, o->nc, CN_PLUS1) : 0;
  int m = o->nc && !g->ch_lazy[i] ? counters_get(o->c, o->nc, CN_MINUS1) : 0;
  if (p != m) {
    g->chb[i].modified = 1;
    g->ch[i].power = num_add(g->ch[i].power, num_sub(p, m));
    g->ch[i].toughness = num_add(g->ch[i].toughness, num_sub(p, m));
  }
}

_Static_assert(SE_COUNT <= 128, "BfSum.statics holds a bit for each kind of static ability");

/* Adds what the battlefield's permanent in slot i has to the summary. */
static inline void bf_sum_add(G *g, BfSum *sum, int i) {
  const Chars *c = &g->ch[i];
  g->ch_bf[i >> 6] |= (uint64_t)1 << (i & 63);
  sum->types |= c->types;
  sum->supers |= c->supers;
  sum->kw |= c->kw;
  for (int a = 0; a < c->nab; a++) {
    const Ability *ab = c->ab[a].ab;
    if (ab->kind == AB_REPLACEMENT) sum->repl_events |= repl_event_mask(&ab->rp);
    if (ab->kind == AB_STATIC) sum->statics[ab->st.kind >> 6] |= 1ull << (ab->st.kind & 63);
  }
}

/* Whether hand and library cards are computed only when asked for: unless a
 * continuous effect of the table applies to one there. */
static int lazy_cards(G *g) {
  const State *s = g->s;
  for (int i = 0; i < s->c.neff; i++) {
    const Effect *e = &s->eff[i];
    if (e->kind == EK_CONT && !e->used && oref_ok(g, e->obj) && lazy_zone(s->obj[e->obj.slot].zone)) return 0;
  }
  return 1;
}

/* Whether an object with characteristics c leaves a board plain: none of its
 * static abilities applies in a layer, grants abilities or lets spells be cast
 * as though they had flash (recompute_plain). */
static inline int stays_plain(G *g, const Chars *c) {
  for (int a = 0; a < c->nab; a++) {
    const Ability *ab = c->ab[a].ab;
    if (ab->kind == AB_STATIC && (ab->st.kind == SE_CAST_AS_FLASH || spec_layer(&ab->st) || ab->st.kw_abs ||
                                  changes_abilities(g, &ab->st, NULL)))
      return 0;
  }
  return 1;
}

/* A recomputation after one that met no continuous effect (ch_plain): as
 * long as none has appeared since, every object's characteristics are its
 * copiable values and counters alone, which depend on that object only, so
 * only the objects written since (odirty, ch_changed: obj_w marks every
 * write) are computed again, and the battlefield's summary only if one of
 * them entered or left it or changed its copiable values there. Returns 0
 * when an effect may apply now (a table effect, or a written object's static
 * ability that applies in a layer, grants abilities or lets spells be cast as
 * though they had flash): the caller then recomputes everything, which
 * redoes all this has done. */
static int recompute_plain(G *g) {
  State *s = g->s;
  if (g->ch_full || !g->ch_plain || g->flash_perms || g->grants) return 0;
  for (int i = 0; i < s->c.neff; i++) {
    const Effect *e = &s->eff[i];
    if (e->kind == EK_CONT && !e->used && e->st && (spec_layer(e->st) || e->st->kind == SE_COPY)) return 0;
  }
  int lazy = lazy_cards(g);
  if (lazy != g->ch_lazy_on) return 0;
  int n = s->c.nslots;
  uint32_t epoch = g->epoch;
  g->ch_epoch = epoch;
  int bf_changed = 0;
  for (int w = 0; w * 64 < n; w++) {
    for (uint64_t m = g->odirty[w] | g->ch_changed[w]; m; m &= m - 1) {
      int i = w * 64 + low_bit(m);
      if (i >= n) break;
      const Obj *o = &s->obj[i];
      /* as recompute does for every object */
      int in_lazy = lazy && o->id && lazy_zone(o->zone);
      g->ch_lazy[i] = (uint8_t)(!in_lazy ? 0 : g->ch_kept[i] == o->id ? 2 : 1);
      if (!in_lazy) g->ch_kept[i] = 0;
      /* in the summary, or out, or there with other copiable values (its key
       * is the one the last recomputation made, as it was on the battlefield) */
      int was_bf = (int)(g->ch_bf[w] >> (i & 63) & 1);
      int is_bf = o->id && o->zone == MTG_Z_BATTLEFIELD;
      int holds = base_holds(&g->chb[i], o); /* the key before base_ensure remakes it */
      bf_changed |= was_bf != is_bf || (is_bf && !holds);
      if (!o->id || in_lazy) continue;
      if (!holds || g->chb[i].modified) base_rebuild(g, i); /* base_ensure, its key compared once */
      if (!stays_plain(g, &g->ch[i])) return 0;
      if (o->nc) chars_counters(g, i);
    }
  }
  if (bf_changed) {
    BfSum *sum = &g->bfsum;
    memset(sum, 0, sizeof *sum);
    memset(g->ch_bf, 0, sizeof g->ch_bf);
    for (int i = 0; i < n; i++)
      if (s->obj[i].id && s->obj[i].zone == MTG_Z_BATTLEFIELD) bf_sum_add(g, sum, i);
  }
  memset(g->ch_changed, 0, sizeof g->ch_changed);
  g->sum_epoch = epoch;
  return 1;
}

static void recompute_full(G *g) {
  State *s = g->s;
  int n = s->c.nslots;
  uint32_t epoch = g->epoch;
  g->ch_epoch = epoch; /* filters evaluated below see the partial values */
  g->ch_full = 0;
  memset(g->ch_changed, 0, sizeof g->ch_changed);
  int lazy = lazy_cards(g);
again:
  for (int i = 0; i < n; i++) {
    int in_lazy = lazy && s->obj[i].id && lazy_zone(s->obj[i].zone);
    /* 1: computed when asked for; 2: its kept values are still its own */
    g->ch_lazy[i] = (uint8_t)(!in_lazy ? 0 : g->ch_kept[i] == s->obj[i].id ? 2 : 1);
    if (in_lazy) continue;
    g->ch_kept[i] = 0;
    if (s->obj[i].id) base_ensure(g, i);
  }
  /* layer 1: copy effects of resolved abilities, in timestamp order (613.7) */
  int copies = 0;
  for (uint32_t last = 0;; copies++) {
    int best = -1;
    for (int i = 0; i < s->c.neff; i++) {
      const Effect *e = &s->eff[i];
      if (e->kind != EK_CONT || e->used || !e->st || e->st->kind != SE_COPY || !oref_ok(g, e->obj) || g->ch_lazy[e->obj.slot])
        continue;
      if (e->ts > last && (best < 0 || e->ts < s->eff[best].ts)) best = i;
    }
    if (best < 0) break;
    copy_onto(g, s->eff[best].obj.slot, &s->eff[best]);
    last = s->eff[best].ts;
  }
  /* candidates */
  Cand cand[512];
  int nc = 0;
  g->flash_perms = 0;
  g->grants = 0;
  for (int i = 0; i < n; i++) {
    const Obj *o = &s->obj[i];
    if (!o->id || g->ch_lazy[i]) continue;
    const Chars *c = &g->ch[i];
    for (int a = 0; a < c->nab && nc < NELEM(cand); a++) {
      const Ability *ab = c->ab[a].ab;
      if (ab->kind == AB_STATIC && ab->st.kind == SE_CAST_AS_FLASH) g->flash_perms++;
      if (ab->kind == AB_STATIC && (changes_abilities(g, &ab->st, NULL) || ab->st.kw_abs)) g->grants++;
      if (ab->kind != AB_STATIC || !spec_layer(&ab->st)) continue;
      for (const StaticSpec *p = &ab->st; p && nc < NELEM(cand); p = p->part) {
        if (p != &ab->st && changes_abilities(g, p, NULL)) g->grants++;
        cand[nc].ts = o->ts;
        cand[nc].slot = (int16_t)i;
        cand[nc].st = p;
        cand[nc].head = &ab->st;
        cand[nc].eff = -1;
        nc++;
      }
      /* an effect reaching hands or libraries (by its filter, or an Aura still
       * attached to a card that went there): compute every card there too */
      const Filter *af = ab->st.affected;
      const Obj *att = ab->st.attached && oref_ok(g, o->attached) ? &s->obj[o->attached.slot] : NULL;
      if (lazy && ((af && (af->zone == -2 || lazy_zone(af->zone))) || (att && lazy_zone(att->zone)))) {
        lazy = 0;
        goto again;
      }
    }
  }
  for (int i = 0; i < s->c.neff && nc < NELEM(cand); i++) {
    Effect *e = &s->eff[i];
    if (e->kind != EK_CONT || e->used || !e->st || !spec_layer(e->st)) continue;
    if (changes_abilities(g, e->st, e)) g->grants++;
    cand[nc].ts = e->ts;
    cand[nc].slot = -1;
    cand[nc].st = e->st;
    cand[nc].head = e->st;
    cand[nc].eff = i;
    nc++;
  }
  g->ch_plain = (uint8_t)(!nc && !copies && !g->grants);
  g->ch_lazy_on = (uint8_t)lazy;
  qsort(cand, (size_t)nc, sizeof *cand, cand_cmp);
  Ctx cx;
  ctx_init(g, &cx);
  Recs R;
  R.nrec = R.nrs = 0;
  for (int layer = 2; layer <= 9; layer++) {
    int16_t rem[512];
    int nrem = 0, statics = 0;
    for (int k = 0; k < nc; k++)
      if (spec_layer(cand[k].st) == layer) {
        rem[nrem++] = (int16_t)k;
        statics += cand[k].eff < 0 && cand[k].head == cand[k].st;
      }
    /* 613.8: in every layer and sublayer, an effect that depends on another
     * waits until just after it ("creatures with power 4 or greater get
     * +2/+2" on an anthem, in 7c); otherwise timestamp order (613.7). Only a
     * static ability's first part can depend on anything (depends_on). */
    int dep = statics > 0 && nrem > 1;
    while (nrem > 0) {
      int pick = 0;
      for (int i = 0; dep && i < nrem; i++) {
        int waits = 0;
        for (int j = 0; j < nrem && !waits; j++)
          if (j != i && depends_on(g, &cand[rem[i]], &cand[rem[j]], &cx, &R)) waits = 1;
        if (!waits) {
          pick = i;
          break;
        }
      }
      apply_cand(g, &cand[rem[pick]], &cx, &R, 1);
      memmove(&rem[pick], &rem[pick + 1], (size_t)(nrem - pick - 1) * sizeof *rem);
      nrem--;
    }
  }
  /* after the effects of the last layer: counters, then what the
   * battlefield holds (one pass over the objects for both) */
  BfSum *sum = &g->bfsum;
  memset(sum, 0, sizeof *sum);
  memset(g->ch_bf, 0, sizeof g->ch_bf);
  for (int i = 0; i < n; i++) {
    if (!s->obj[i].id) continue;
    if (s->obj[i].nc) chars_counters(g, i);
    if (s->obj[i].zone == MTG_Z_BATTLEFIELD) bf_sum_add(g, sum, i);
  }
  g->sum_epoch = epoch;
}

/* What the computations read is noted while ch_in (ch_read_tapped): from the
 * outermost whole recomputation on, for as long as its values are kept. */
static void recompute(G *g) {
  g->ch_in++;
  if (!recompute_plain(g)) {
    if (g->ch_in == 1) g->ch_read_tapped = 0; /* everything is computed again */
    recompute_full(g);
  }
  g->ch_in--;
  g->ch_owrites = g->owrites;
}


/* compute_entering on a plain board (the cache valid and ch_plain, no
 * continuous effect in the table at all): a recomputation with the object on
 * the battlefield would be recompute_plain's, which gives each object its own
 * copiable values and counters (an entering object has none yet: 122.2, they
 * stay in the zone it leaves), so the entering object's are computed alone,
 * from the object as it would be, with no epoch moved and the cache kept
 * (twice the whole recomputation otherwise: each of many tokens entering at
 * once redid every object written since the snapshot twice). 0, and out
 * untouched, when that recomputation would not be plain (the object as it
 * would enter has a static ability recompute_plain gives up for) or the
 * cache is not valid (recomputed here, it would be without the object looked
 * at as it would enter, which a recomputation outside sees: chars_get). */
static int entering_plain(G *g, int slot, int ctl, Chars *out) {
  const State *s = g->s;
  if (g->ch_epoch != g->epoch || g->ch_full || !g->ch_plain || !g->ch_lazy_on || g->flash_perms || g->grants) return 0;
  for (int i = 0; i < s->c.neff; i++)
    if (s->eff[i].kind == EK_CONT && !s->eff[i].used) return 0; /* lazy_cards and recompute_plain read these */
  Obj o = s->obj[slot]; /* the object as it would enter, a copy: the state is not written */
  o.zone = MTG_Z_BATTLEFIELD;
  o.controller = (uint8_t)ctl;
  o.attached = oref_none();
  o.nc = 0; /* 122.2: the counters of its zone stay behind, so chars_counters has none to add */
  Chars c;
  base_chars(g, &o, &c);
  if (!stays_plain(g, &c)) return 0;
  *out = c;
  return 1;
}

static void compute_entering(G *g, int slot, int ctl, Chars *out) {
  int hs = g->hyp_slot;
  g->hyp_slot = -1;
  g->in_hyp = 1;
  if (entering_plain(g, slot, ctl, out)) {
    g->in_hyp = 0;
    g->hyp_slot = hs;
    return;
  }
  Obj *o = obj_w(g, slot);
  Obj save = *o;
  o->zone = MTG_Z_BATTLEFIELD;
  o->controller = (uint8_t)ctl;
  o->attached = oref_none();
  o->nc = 0; /* 122.2: it enters without the counters of its zone */
  chars_dirty(g);
  recompute(g);
  *out = g->ch[slot];
  *o = save;
  chars_dirty(g);
  g->in_hyp = 0;
  g->hyp_slot = hs;
}

const Chars *chars_get(G *g, int slot) {
  if (slot == g->hyp_slot && !g->in_hyp) {
    /* 614.12: looked at as it would exist on the battlefield */
    if (g->hyp_epoch != g->epoch) {
      compute_entering(g, slot, g->hyp_ctl, &g->w->hyp);
      g->hyp_epoch = g->epoch;
    }
    return &g->w->hyp;
  }
  if (g->ch_epoch != g->epoch) recompute(g);
  if (g->ch_lazy[slot] == 1) {
    g->ch_in++;
    materialize(g, slot);
    g->ch_in--;
  }
  return &g->ch[slot];
}

const BfSum *bf_sum_get(G *g) {
  /* asked while characteristics are being computed: anything may be there */
  static const BfSum unknown = {~0u, 0xff, ~0ull, {~0ull, ~0ull}, ~0ull};
  if (g->ch_epoch != g->epoch) recompute(g);
  return g->sum_epoch == g->epoch ? &g->bfsum : &unknown;
}

const Chars *chars_as_entering(G *g, int slot, int ctl) {
  compute_entering(g, slot, ctl, &g->w->hyp);
  g->hyp_epoch = 0;
  return &g->w->hyp;
}

/* Everything the characteristics cache keeps and everything that says what
 * in it is still valid, as the invariant checker saves it around a
 * recomputation of its own (check.c): put back, the game goes on exactly as
 * without the check. A field added to the cache belongs here too. */
struct ChSave {
  int n, nchb, chb_used, flash_perms, grants; /* per-slot fields: only the n slots in use and chb's nchb */
  BfSum bfsum;
  uint32_t sum_epoch, ch_epoch, ch_owrites, epoch, hyp_epoch;
  uint8_t ch_full, ch_lazy_on, ch_plain, ch_read_tapped;
  uint8_t ch_lazy[MAX_SLOTS];
  uint32_t ch_kept[MAX_SLOTS];
  uint64_t ch_changed[(MAX_SLOTS + 63) / 64], ch_bf[(MAX_SLOTS + 63) / 64], odirty[(MAX_SLOTS + 63) / 64];
  Chars hyp;
  ChBase chb[MAX_SLOTS];
  Chars ch[]; /* n */
};

/* Copies the handle's cache fields into v (save) or back (!save). */
static void chars_copy(G *g, ChSave *v, int save) {
#define CH_COPY(f) (save ? memcpy(&v->f, &g->f, sizeof v->f) : memcpy(&g->f, &v->f, sizeof v->f))
  CH_COPY(chb_used);
  CH_COPY(flash_perms);
  CH_COPY(grants);
  CH_COPY(bfsum);
  CH_COPY(sum_epoch);
  CH_COPY(ch_epoch);
  CH_COPY(ch_owrites);
  CH_COPY(epoch);
  CH_COPY(hyp_epoch);
  CH_COPY(ch_full);
  CH_COPY(ch_lazy_on);
  CH_COPY(ch_plain);
  CH_COPY(ch_read_tapped);
#undef CH_COPY
  size_t n = (size_t)v->n, words = (n + 63) / 64;
#define CH_COPY_N(f, k) (save ? memcpy(v->f, g->f, (k) * sizeof v->f[0]) : memcpy(g->f, v->f, (k) * sizeof v->f[0]))
  CH_COPY_N(ch_lazy, n);
  CH_COPY_N(ch_kept, n);
  CH_COPY_N(ch_changed, words);
  CH_COPY_N(ch_bf, words);
  /* a recomputation that looks at an entering object writes it and puts it
   * back as it was (compute_entering): its mark is the check's, not the game's */
  CH_COPY_N(odirty, words);
  CH_COPY_N(chb, (size_t)v->nchb);
  CH_COPY_N(ch, n);
#undef CH_COPY_N
  if (save) v->hyp = g->w->hyp;
  else g->w->hyp = v->hyp;
}

ChSave *chars_save(G *g) {
  int n = g->s->c.nslots;
  ChSave *v = malloc(sizeof *v + (size_t)n * sizeof *v->ch);
  if (!v) return NULL;
  v->n = n;
  v->nchb = g->chb_used > n ? g->chb_used : n; /* a recomputation fills chb below n */
  chars_copy(g, v, 1);
  return v;
}

void chars_restore(G *g, ChSave *v) {
  chars_copy(g, v, 0);
  free(v);
}

void chars_forget(G *g) {
  size_t n = (size_t)g->s->c.nslots;
  chars_reset(g);
  memset(g->ch_kept, 0, n * sizeof *g->ch_kept);
  memset(g->ch_changed, 0, (n + 63) / 64 * sizeof *g->ch_changed);
  memset(g->ch, 0, n * sizeof *g->ch);
}


int protected_from(G *g, int slot, int src, uint8_t src_colors, int src_is_spell) {
  const Chars *c = chars(g, slot);
  if (c->kw >> KW_PROTECTION_ALL & 1) return 1;
  static const int kws[5] = {KW_PROT_W, KW_PROT_U, KW_PROT_B, KW_PROT_R, KW_PROT_G};
  for (int i = 0; i < 5; i++)
    if ((c->kw >> kws[i] & 1) && (src_colors >> i & 1)) return 1;
  if ((c->kw >> KW_PROT_MULTICOLOR_SPELLS & 1) && src_is_spell && src_colors) return 1;
  if (src < 0) return 0;
  /* protection from a quality other than a color: a filter on the source (702.16a) */
  for (int a = 0; a < c->nab; a++) {
    const Ability *ab = c->ab[a].ab;
    if (ab->kind != AB_KEYWORD || ab->kw != PK_PROTECTION) continue;
    Ctx cx;
    ctx_ability(g, &cx, slot, c, &c->ab[a]);
    if (filter_match(g, &cx, ab->kwf, src)) return 1;
  }
  return 0;
}

int obj_mv(G *g, int slot) {
  const Chars *c = chars(g, slot);
  const Obj *o = &g->s->obj[slot];
  if (!c->base || o->face_down) return 0;
  /* 712.8e: a transformed permanent's mana value is its front face's */
  const CardDef *costed = o->transformed && o->def && o->def->back == c->base && !o->def->modal ? o->def : c->base;
  int v = mana_value(&costed->cost);
  if (o->zone == MTG_Z_STACK) v = num_add(v, num_mul(o->x, c->base->cost.x)); /* 202.3e */
  return v;
}

int has_subtype(const Chars *c, const char *sub) {
  if (c->all_creature_types && is_creature_type(sub)) return 1;
  for (int i = 0; i < c->nsub; i++)
    if (!strcmp(c->sub[i], sub)) return 1;
  return 0;
}

/* ---- rule-modifying effects (613.11) ---- */

static int rule_applies(G *g, const StaticSpec *st, int src_slot, int src_ctl, int player, int slot) {
  Ctx cx;
  ctx_for(g, &cx, src_ctl, src_slot >= 0 ? oref(g, src_slot) : oref_none());
  if (st->cond && !cond_eval(g, &cx, st->cond)) return 0;
  if (slot >= 0) {
    if (st->self) return slot == src_slot;
    if (st->attached) return src_slot >= 0 && g->s->obj[src_slot].attached.slot == slot;
    if (st->affected) return filter_match(g, &cx, st->affected, slot);
    return 1;
  }
  if (player >= 0) {
    if (st->affected && st->affected->player_target) return filter_match_player(g, &cx, st->affected, player);
    return rel_match(g, &cx, st->player, player);
  }
  return 1;
}

/* Whether ab, an ability of the permanent in slot i (characteristics c), is
 * a static rule effect of this kind that applies to the player or object and,
 * with `also`, that `also` accepts (asked with the permanent as source). */
static int static_rule_holds(G *g, int i, const Chars *c, const Ability *ab, int kind, int player, int slot, rule_also also,
                             int arg) {
  if (ab->kind != AB_STATIC || ab->st.kind != kind || !rule_applies(g, &ab->st, i, c->controller, player, slot)) return 0;
  if (!also) return 1;
  Ctx cx;
  ctx_for(g, &cx, c->controller, oref(g, i));
  return also(g, &cx, &ab->st, arg);
}

/* The first rule effect of this kind that applies to the player or object
 * and, with `also`, that `also` accepts (asked with the effect's source). */
static int rule_effect_where(G *g, int kind, int player, int slot, rule_also also, int arg, const StaticSpec **out, ORef *src) {
  State *s = g->s;
  Ctx cx;
  int nb = bf_has_static(g, kind) ? bf_count(g) : 0;
  int16_t *bf = bf_list(g);
  for (int k = 0; k < nb; k++) {
    int i = bf[k];
    if (s->obj[i].phased_out) continue;
    const Chars *c = chars(g, i);
    for (int a = 0; a < c->nab; a++) {
      const Ability *ab = c->ab[a].ab;
      if (!static_rule_holds(g, i, c, ab, kind, player, slot, also, arg)) continue;
      if (out) *out = &ab->st;
      if (src) *src = oref(g, i);
      return 1;
    }
  }
  for (int i = 0; i < s->c.neff; i++) {
    Effect *e = &s->eff[i];
    if (e->kind != EK_RULE || e->used || !e->st || e->st->kind != kind) continue;
    if (slot >= 0 && e->obj.id && !(oref_ok(g, e->obj) && e->obj.slot == slot)) continue;
    ctx_for(g, &cx, e->controller, e->source);
    cx.ch = &e->ch;
    /* a rule effect about whatever matches while it lasts (611.2c) */
    if (slot >= 0 && !e->obj.id && !(e->st->affected && filter_match(g, &cx, e->st->affected, slot))) continue;
    if (player >= 0 && e->player >= 0 && e->player != player) continue;
    if (also && !also(g, &cx, e->st, arg)) continue;
    if (out) *out = e->st;
    if (src) *src = e->source;
    return 1;
  }
  return 0;
}

int rule_effect(G *g, int kind, int player, int slot, const StaticSpec **out, ORef *src) {
  return rule_effect_where(g, kind, player, slot, NULL, 0, out, src);
}

int rule_effect_if(G *g, int kind, int player, int slot, rule_also also, int arg) {
  return rule_effect_where(g, kind, player, slot, also, arg, NULL, NULL);
}

static int counter_kind_matches(G *g, Ctx *cx, const StaticSpec *st, int kind) {
  (void)cx;
  return !st->counter || !strcmp(ckind_name(g, kind), st->counter);
}

/* "[This] can't have counters put on it" ("-1/-1 counters can't be put on it"
 * with `counter`): the counters are not put (614.17) */
int cant_have_counters(G *g, int slot, int kind) {
  return rule_effect_where(g, SE_CANT_HAVE_COUNTERS, -1, slot, counter_kind_matches, kind, NULL, NULL);
}

static int targeting_source_matches(G *g, Ctx *cx, const StaticSpec *st, int src) { return filter_match(g, cx, st->other, src); }

/* "[This] can't be the target of [quality] spells [or abilities from [quality]
 * sources]" (115.1): an effect on the object whose `by` filter the spell, or
 * the source of the ability, matches. */
int cant_be_targeted_by(G *g, int slot, int src) {
  return rule_effect_where(g, SE_CANT_BE_TARGET, -1, slot, targeting_source_matches, src, NULL, NULL);
}

static int protection_source_matches(G *g, Ctx *cx, const StaticSpec *st, int src) {
  return !st->other || (src >= 0 && filter_match(g, cx, st->other, src));
}

/* Whether player p has protection from the object in slot src (702.16b, c, e,
 * j): a "you have protection from [quality]" rule effect whose sources (none:
 * everything) src matches; *from gets the effect's source. */
int player_protected_from(G *g, int p, int src, ORef *from) {
  return rule_effect_where(g, SE_PLAYER_PROTECTION, p, -1, protection_source_matches, src, NULL, from);
}

static int cant_cast_matches(G *g, Ctx *cx, const StaticSpec *st, int types) {
  (void)g, (void)cx;
  return (!st->spell_types || (types & st->spell_types)) && !(types & st->spell_types_none);
}

/* "[players] can't cast [noncreature] spells" (101.2: a "can't" wins over permissions) */
int cant_cast_types(G *g, int player, uint32_t types) {
  return rule_effect_where(g, SE_CANT_CAST, player, -1, cant_cast_matches, (int)types, NULL, NULL);
}

/* The sum of the `n` of the static rule effects of this kind that apply to
 * player ("costs {1} less" for each); *any gets whether one has its flag set. */
int rule_effect_sum(G *g, int kind, int player, int *any) {
  int sum = 0;
  *any = 0;
  int nb = bf_count(g);
  int16_t *bf = bf_list(g);
  for (int k = 0; k < nb; k++) {
    if (g->s->obj[bf[k]].phased_out) continue;
    const Chars *c = chars(g, bf[k]);
    for (int a = 0; a < c->nab; a++) {
      const Ability *ab = c->ab[a].ab;
      if (!static_rule_holds(g, bf[k], c, ab, kind, player, -1, NULL, 0)) continue;
      sum += ab->st.a;
      *any |= ab->st.b != 0;
    }
  }
  return sum;
}

/* How many static rule effects of this kind apply (and `also` accepts): each
 * counts ("triggers an additional time" twice with two Panharmonicons). A
 * phased-out permanent's abilities do not exist (702.26b). */
int rule_effect_count(G *g, int kind, int player, int slot, rule_also also, int arg) {
  int cnt = 0;
  int nb = bf_has_static(g, kind) ? bf_count(g) : 0;
  int16_t *bf = bf_list(g);
  for (int k = 0; k < nb; k++) {
    int i = bf[k];
    if (g->s->obj[i].phased_out) continue;
    const Chars *c = chars(g, i);
    for (int a = 0; a < c->nab; a++) cnt += static_rule_holds(g, i, c, c->ab[a].ab, kind, player, slot, also, arg) != 0;
  }
  return cnt;
}

/* The duration "for as long as [you control this and] it remains tapped"
 * still holds: the source is that permanent, tapped (and controlled by the
 * effect's controller). */
int source_tapped_holds(G *g, ORef src, int dur, int controller) {
  if (!oref_ok(g, src)) return 0;
  const Obj *o = &g->s->obj[src.slot];
  if (o->zone != MTG_Z_BATTLEFIELD || o->phased_out || !o->tapped) return 0;
  return dur != DUR_SOURCE_CTL_TAPPED || obj_controller(g, src.slot) == controller;
}

static void effect_end(G *g, int i);

/* A permanent that changed controllers because a static control-changing
 * effect began or ended (layer 2, 613.1b) has not been under its new
 * controller's control continuously since their most recent turn began
 * (302.6) and is removed from combat (506.4); control events do the same for
 * effects of resolved spells and abilities. Called after each batch of events
 * and as effects end. */
void control_watch(G *g) {
  State *s = g->s;
  /* "for as long as [you control this and] it remains tapped" */
  for (int i = 0; i < s->c.neff; i++) {
    Effect *e = &s->eff[i];
    if ((e->used != 0 && e->used != 1) || (e->dur != DUR_SOURCE_TAPPED && e->dur != DUR_SOURCE_CTL_TAPPED)) continue;
    if (!source_tapped_holds(g, e->source, e->dur, e->controller)) effect_end(g, i);
  }
  /* 702.95e: a pair breaks when either leaves the battlefield, stops being a
   * creature, or another player gains control of either. The same look finds
   * whether control is to be watched (below): it runs after every batch of
   * events, and a second look at every permanent cost as much as the first.
   * Breaking a pair changes nothing that look reads. */
  int nbp = bf_count(g);
  int16_t *bfp = bf_list(g);
  /* only while a static control-changing ability is on the battlefield, or a
   * permanent is still under one: the controllers are computed only then */
  int watch = 0;
  for (int k = 0; k < nbp; k++) {
    const Obj *o = &s->obj[bfp[k]];
    const CardDef *d = o->copy_of ? o->copy_of : o->def;
    watch |= (o->ctl_seen && o->ctl_seen != o->controller + 1) || (d && d->ctl_static);
    if (!o->paired.id) continue;
    ORef p = o->paired;
    int ok = oref_ok(g, p) && s->obj[p.slot].zone == MTG_Z_BATTLEFIELD && s->obj[p.slot].paired.id == o->id &&
             is_type(g, bfp[k], T_CREATURE) && is_type(g, p.slot, T_CREATURE) && obj_controller(g, bfp[k]) == o->paired_by &&
             obj_controller(g, p.slot) == o->paired_by;
    if (ok) continue;
    char x[110];
    fmt_slot(g, bfp[k], x, sizeof x);
    obj_w(g, bfp[k])->paired = oref_none();
    /* pairs are made (step_pair, of two unpaired creatures) and broken both
     * ways at once, so a partner that is still the same object is paired with o */
    if (oref_ok(g, p)) obj_w(g, p.slot)->paired = oref_none();
    chars_dirty(g);
    log_line(g, 0, "unpair obj=%s rule=702.95e", x);
  }
  int nb = bf_count(g);
  int16_t *bf = bf_list(g);
  for (int k = 0; k < nb && watch; k++) {
    const Obj *o = &s->obj[bf[k]];
    uint8_t now = (uint8_t)(obj_controller(g, bf[k]) + 1);
    uint8_t was = o->ctl_seen;
    if (!was && now != o->controller + 1) {
      /* not seen since it came or changed hands by a control event: it was
       * its own controller's unless an effect of a resolved spell or ability
       * gives it to the one it has now */
      was = (uint8_t)(o->controller + 1);
      for (int i = 0; i < s->c.neff; i++) {
        const Effect *e = &s->eff[i];
        if (e->kind == EK_CONT && !e->used && e->st && e->st->kind == SE_CONTROL && e->obj.id == o->id && e->player + 1 == now) was = now;
      }
    }
    if (was && was != now) {
      obj_w(g, bf[k])->ctl_since = s->c.turn_seq;
      if (o->suspend_haste) { /* 702.62a: "until you lose control of ... the permanent it becomes" */
        obj_w(g, bf[k])->suspend_haste = 0;
        chars_dirty(g);
      }
      combat_remove(g, bf[k]);
    }
    if (o->ctl_seen != now) obj_w(g, bf[k])->ctl_seen = now; /* written only when it changes: see obj_w */
  }
}

/* ---- the effect table ---- */

int effect_add(G *g, const Effect *e) {
  State *s = g->s;
  /* reuse a finished slot */
  int i;
  for (i = 0; i < s->c.neff; i++)
    if (s->eff[i].used == 2) break;
  if (i == s->c.neff) {
    if (s->c.neff >= MAX_EFFECTS) game_limit(g, "continuous effects at once", MAX_EFFECTS);
    s->c.neff++;
  }
  s->eff[i] = *e;
  s->eff[i].id = ++s->c.next_eff;
  if (!s->eff[i].ts) s->eff[i].ts = new_ts(g);
  s->eff[i].turn_seq = s->c.turn_seq;
  chars_dirty(g);
  return i;
}

/* A delayed triggered ability that has triggered reads the choices and the
 * object of the effect that made it as it is put on the stack and as it
 * resolves (603.7c); ending that effect (its "this turn" ending in the cleanup
 * step after it triggered on the discard, 514.2) only stops it from
 * triggering again. */
static int delayed_in_use(G *g, const Effect *e) {
  State *s = g->s;
  if (e->kind != EK_DELAYED) return 0;
  for (int i = 0; i < s->c.npend; i++)
    if (s->pend[i].eff_id == e->id) return 1;
  for (int i = 0; i < s->c.nstack; i++)
    if (s->stack[i].eff_id == e->id) return 1;
  return 0;
}

static void effect_end(G *g, int i) {
  Effect *e = &g->s->eff[i];
  if (delayed_in_use(g, e)) {
    e->used = 1; /* spent: kept until it ends again with nothing waiting on it */
    return;
  }
  if (e->kind == EK_CONT && e->st && e->st->kind == SE_CONTROL && oref_ok(g, e->obj) && !e->used) {
    /* control returns: a control event, so "when you lose control" triggers (603.10d) */
    Event ce;
    ev_init(&ce, EV_CONTROL);
    ce.obj = e->obj;
    ce.player2 = (int8_t)obj_controller(g, e->obj.slot);
    ce.aux = -(i + 1);
    ev_one(g, &ce);
    e->used = 2; /* as performing the event does (perform.c), and if it couldn't be performed */
    return;
  }
  e->used = 2; /* free */
  chars_dirty(g);
}

int play_effect_for(const Effect *e, int player) { return e->kind == EK_PLAY && e->used != 2 && e->player == player; }

void effects_expire(G *g, int dur) {
  State *s = g->s;
  for (int i = 0; i < s->c.neff; i++) {
    Effect *e = &s->eff[i];
    if (e->used == 2) continue;
    if (e->dur == dur || (dur == DUR_EOT && e->used == 1)) effect_end(g, i);
  }
  while (s->c.neff > 0 && s->eff[s->c.neff - 1].used == 2) s->c.neff--;
  control_watch(g);
}

/* "Until your next turn": such effects end as their controller's next turn
 * begins (611.2a), before anything of that turn happens. */
void effects_turn_begin(G *g, int player) {
  State *s = g->s;
  for (int i = 0; i < s->c.neff; i++) {
    Effect *e = &s->eff[i];
    if (e->used != 2 && e->dur == DUR_NEXT_TURN && e->controller == player) effect_end(g, i);
  }
  while (s->c.neff > 0 && s->eff[s->c.neff - 1].used == 2) s->c.neff--;
}

void effects_player_left(G *g, int p) {
  State *s = g->s;
  for (int i = 0; i < s->c.neff; i++) {
    Effect *e = &s->eff[i];
    if (e->used != 2 && e->kind == EK_CONT && e->st && e->st->kind == SE_CONTROL && e->player == p) effect_end(g, i);
  }
}

void effects_source_left(G *g, uint32_t src_id) {
  State *s = g->s;
  for (int i = 0; i < s->c.neff; i++) {
    Effect *e = &s->eff[i];
    if (e->used == 2 || e->dur != DUR_SOURCE_LEAVES || e->source.id != src_id) continue;
    effect_end(g, i);
  }
}
