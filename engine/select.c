/* select.c - evaluating the card vocabulary's queries: object filters,
 * selectors of objects and players, conditions and values, plus linked-ability
 * records (607) and player-order helpers (APNAP, 101.4). */
#include <string.h>

#include "internal.h"
#include "num.h"

/* ---- players ---- */

int player_alive(G *g, int p) { return p >= 0 && p < g->s->c.np && !g->s->c.pl[p].lost && !g->s->c.pl[p].left; }

int opponents(G *g, int a, int b) {
  if (a < 0 || b < 0 || a == b) return 0;
  return g->s->c.pl[a].team != g->s->c.pl[b].team || g->s->c.pl[a].team == 0;
}

int next_player(G *g, int p) {
  int np = g->s->c.np;
  for (int i = 1; i <= np; i++) {
    int q = (p + i) % np;
    if (player_alive(g, q)) return q;
  }
  return p;
}

void apnap_order(G *g, int *order) {
  int np = g->s->c.np, k = 0;
  for (int i = 0; i < np; i++) {
    int q = (g->s->c.active + i) % np;
    if (player_alive(g, q)) order[k++] = q;
  }
  for (; k < MAX_PLAYERS; k++) order[k] = -1;
}

int rel_match(G *g, Ctx *c, int rel, int p) {
  switch (rel) {
  case R_ANY: return 1;
  case R_YOU: return p == c->controller;
  case R_OPP: return opponents(g, c->controller, p);
  case R_ACTIVE: return p == g->s->c.active;
  case R_NOT_YOU: return p != c->controller;
  case R_CHOSEN: return p == (c->each_player >= 0 ? c->each_player : c->controller);
  case R_TARGET:
    for (int i = 0; c->ch && i < CHOICE_SLOTS; i++)
      if (c->ch->t[i].kind == TK_PLAYER && c->ch->t[i].player == p) return 1;
    return 0;
  case R_OWNER: return oref_ok(g, c->src) && g->s->obj[c->src.slot].owner == p;
  case R_TRIGGERING: return c->tc && c->tc->player == p; /* "that player" of a triggered ability */
  case R_DEFENDING: return p >= 0 && p == ctx_defending(g, c);
  default: /* R_ITS_CONTROLLER: the loader gives no other */
    return oref_ok(g, c->each_obj) && obj_controller(g, c->each_obj.slot) == p;
  }
}

/* ---- links (607) ---- */

void link_add(G *g, uint32_t oid, uint16_t grant, const char *label, int kind, int32_t v, const char *sv, ORef o) {
  State *s = g->s;
  if (s->c.nlink >= MAX_LINKS) {
    /* drop links of objects that no longer exist and are not on the stack */
    int k = 0;
    for (int i = 0; i < s->c.nlink; i++) {
      int live = obj_by_id(g, s->link[i].oid) >= 0;
      for (int j = 0; !live && j < s->c.nstack; j++)
        if (s->stack[j].src.id == s->link[i].oid) live = 1;
      for (int j = 0; !live && j < s->c.npend; j++)
        if (s->pend[j].src.id == s->link[i].oid) live = 1;
      if (live) s->link[k++] = s->link[i];
    }
    s->c.nlink = (int16_t)k;
    if (k >= MAX_LINKS) game_limit(g, "linked-ability records at once", MAX_LINKS);
  }
  Link *l = &s->link[s->c.nlink++];
  memset(l, 0, sizeof *l);
  l->oid = oid;
  l->grant = grant;
  l->label = label;
  l->kind = (uint8_t)kind;
  l->value = v;
  l->sval = sv;
  l->obj = o;
}

int link_find_value(G *g, uint32_t oid, uint16_t grant, const char *label, int32_t *v, const char **sv) {
  State *s = g->s;
  for (int i = s->c.nlink - 1; i >= 0; i--) {
    Link *l = &s->link[i];
    if (l->oid == oid && l->grant == grant && l->kind != LK_OBJ && !strcmp(l->label, label)) {
      if (v) *v = l->value;
      if (sv) *sv = l->sval;
      return 1;
    }
  }
  return 0;
}

/* The color a choice labelled `label` recorded (607.2d): 0-4 (white, blue,
 * black, red, green), or -1 when none was chosen or the value names no color. */
int link_find_color(G *g, uint32_t oid, uint16_t grant, const char *label) {
  int32_t col;
  return link_find_value(g, oid, grant, label, &col, NULL) && col >= 0 && col < 5 ? (int)col : -1;
}

static uint32_t src_id(G *g, Ctx *c) {
  if (c->src.id) return c->src.id;
  (void)g;
  return c->srcl ? c->srcl->id : 0;
}

/* An object an effect refers to, for reading its information: the object
 * itself while it is still where the effect expects it (slot), else the
 * object as it last existed there (lk). */
typedef struct Ref {
  int16_t slot;
  const Lki *lk;
} Ref;
static int refs_of(G *g, Ctx *c, const Node *n, Ref *out, int max);

/* a face-down object has no name (708.2): layer.c calls it "face-down" for the log */
static int named(const char *nm) { return nm && *nm && strcmp(nm, "face-down") != 0; }
static int ref_controller(G *g, const Ref *r);
static int ref_owner(G *g, const Ref *r);
static const Node it_node = {.op = SL_IT};

/* "another": the source itself, or once the source has left its zone, the card
 * it became there (400.7; a 'leaves the battlefield' ability's "another
 * target creature card" can't be its own card) */
static int is_source(G *g, Ctx *c, const Obj *o) {
  uint32_t sid = src_id(g, c);
  if (o->id == sid) return 1;
  if (oref_ok(g, c->src) || o->kind != OK_CARD || o->card < 0) return 0;
  const Lki *l = c->srcl && c->srcl->id == sid ? c->srcl : lki_find(g, sid);
  return l && l->kind == OK_CARD && l->card == o->card;
}

/* 607.1d: a token's abilities can be linked to those of the object that made it */
static uint32_t creator_id(G *g, Ctx *c) {
  return oref_ok(g, c->src) ? g->s->obj[c->src.slot].entered_with : 0;
}

/* ---- filters ---- */

static int cmp_ok(int cmp, int a, int b) {
  switch (cmp) {
  case CMP_EQ: return a == b;
  case CMP_NE: return a != b;
  case CMP_LT: return a < b;
  case CMP_LE: return a <= b;
  case CMP_GT: return a > b;
  default: return a >= b; /* CMP_GE: the loader gives no other */
  }
}

/* What a filter looks at: an object (slot) with its characteristics, or an
 * object as it last existed (slot -1, o and ch made from its last known
 * information, 608.2h); zone is the zone it is seen in. */
typedef struct Seen {
  int slot;
  const Obj *o;
  const Chars *ch;
  int zone;
  const Lki *lk;
} Seen;

/* colored, colorless, multicolored (105.2) */
static int colors_match(const Filter *f, uint8_t colors) {
  if (f->colored >= 0 && (colors != 0) != f->colored) return 0;
  if (f->multicolored >= 0) {
    int cnt = 0;
    for (int i = 0; i < 5; i++) cnt += colors >> i & 1;
    if ((cnt > 1) != f->multicolored) return 0;
  }
  return 1;
}

/* "[a] or [b] in a graveyard": an 'or' branch that names no zone of its own
 * looks where its filter looks (a zone given, or the one a search or a cost
 * looks in), unless that filter is about spells (a "spell or creature"'s
 * creature is on the battlefield). */
static const Filter *or_branch(const Filter *f, Filter *buf) {
  const Filter *b = f->or_f;
  if (!b || b->zone != -1 || b->spell == 1 || b->stack_ability || f->zone == -1 || f->spell == 1 || f->stack_ability ||
      f->zone == MTG_Z_STACK)
    return b;
  *buf = *b;
  buf->zone = f->zone;
  return buf;
}

static int seen_match(G *g, Ctx *c, const Filter *f, const Seen *v) {
  State *s = g->s;
  int slot = v->slot;
  const Obj *o = v->o;
  Filter ob;
  if (f->or_f && seen_match(g, c, or_branch(f, &ob), v)) return 1;
  if (f->entered_with_self && (!o->entered_with || o->entered_with != src_id(g, c))) return 0;
  if (f->stack_ability == 1) return 0;
  int zone = v->zone; /* -1: not known (an object the turn's history recorded): zones aren't asked */
  if (zone >= 0) {
    if (f->zone == -1) {
      if (f->spell == 1 || f->stack_ability) {
        if (zone != MTG_Z_STACK) return 0;
      } else if (zone != MTG_Z_BATTLEFIELD || o->phased_out) return 0;
    } else if (f->zone >= 0 && zone != f->zone) return 0;
    if (f->spell == 1 && o->zone != MTG_Z_STACK) return 0;
    if (f->spell == 0 && o->zone == MTG_Z_STACK) return 0;
  }
  /* a filter allowing players that names no object type (opponent, {player: any, if: ...}) is
   * about players only: no object matches it (115.1) */
  if (f->player_target && !f->types_any) return 0;
  const Chars *ch = v->ch;
  if (f->any_target) {
    if ((zone >= 0 && o->zone != MTG_Z_BATTLEFIELD) || !(ch->types & (T_CREATURE | T_PLANESWALKER | T_BATTLE))) return 0;
  }
  /* 110.1: whatever is on the battlefield is a permanent, even with no card type left */
  int any_permanent = f->types_any == T_PERMANENT && (zone == MTG_Z_BATTLEFIELD || zone < 0);
  if (f->types_any && f->types_any != 0xffffffffu && !any_permanent && !(ch->types & f->types_any)) return 0;
  if (f->types_any == 0xffffffffu && f->types_none == 0xffffffffu) return 0;
  if ((ch->types & f->types_all) != f->types_all) return 0;
  if (f->types_none != 0xffffffffu && (ch->types & f->types_none)) return 0;
  if (f->super_any && !(ch->supers & f->super_any)) return 0;
  if (ch->supers & f->super_none) return 0;
  if (f->nsub) {
    int ok = 0;
    for (int i = 0; i < f->nsub; i++)
      if (has_subtype(ch, f->subtypes[i])) ok = 1;
    if (!ok) return 0;
  }
  if (f->not_subtype && has_subtype(ch, f->not_subtype)) return 0;
  if (f->colors_any && !(ch->colors & f->colors_any)) return 0;
  if (ch->colors & f->colors_none) return 0;
  if (!colors_match(f, ch->colors)) return 0;
  if (f->controller && !rel_match(g, c, f->controller, ch->controller)) return 0;
  if (f->attached_player && !(o->attached_player >= 0 && rel_match(g, c, f->attached_player - 1, o->attached_player))) return 0;
  if (f->owner && !rel_match(g, c, f->owner, o->owner)) return 0;
  if (f->other && is_source(g, c, o)) return 0;
  if (f->tapped >= 0) {
    g->ch_read_tapped |= g->ch_in != 0; /* perform: taps change what is being computed */
    if (o->tapped != f->tapped) return 0;
  }
  if (f->token >= 0 && (o->kind == OK_TOKEN) != f->token) return 0;
  if (f->card && o->kind != OK_CARD) return 0;
  if (f->attacking >= 0 && o->attacking != f->attacking) return 0;
  if (f->blocking >= 0 && o->blocking != f->blocking) return 0;
  /* 509.1h: attackers are blocked or unblocked once blockers are declared */
  if (f->unblocked >= 0 && (o->attacking && !o->blocked && s->c.blockers_declared) != f->unblocked) return 0;
  if (f->renowned >= 0 && (zone == MTG_Z_BATTLEFIELD && o->renowned) != f->renowned) return 0;
  if (f->paired >= 0 && (zone == MTG_Z_BATTLEFIELD && o->paired.id != 0) != f->paired) return 0;
  if (f->paired_with_self && !(zone == MTG_Z_BATTLEFIELD && o->paired.id && o->paired.id == src_id(g, c))) return 0;
  if (f->monstrous >= 0 && (zone == MTG_Z_BATTLEFIELD && o->monstrous) != f->monstrous) return 0;
  if (f->saddled >= 0 && (zone == MTG_Z_BATTLEFIELD && o->saddled) != f->saddled) return 0;
  if (f->self_only && o->id != src_id(g, c)) return 0;
  if (f->mana_spent_color && !(ch->colors & c->mana_spent & COLORS_ALL)) return 0;
  if (f->name && strcmp(ch->name, f->name)) return 0;
  if (f->chosen_color) {
    int col = link_find_color(g, src_id(g, c), c->grant, f->chosen_label ? f->chosen_label : "color");
    if (col < 0 || !(ch->colors >> col & 1)) return 0; /* 607.5a: none chosen */
  }
  if (f->chosen_name) {
    const char *nm;
    if (!link_find_value(g, src_id(g, c), c->grant, f->chosen_label ? f->chosen_label : "name", NULL, &nm) || !nm ||
        strcmp(nm, ch->name))
      return 0;
  }
  if (f->pow_cmp && !cmp_ok(f->pow_cmp - 1, ch->power, f->pow_val)) return 0;
  if (f->tough_cmp && !cmp_ok(f->tough_cmp - 1, ch->toughness, f->tough_val)) return 0;
  if (f->mv_cmp && !cmp_ok(f->mv_cmp - 1, slot >= 0 ? obj_mv(g, slot) : v->lk->mv, f->mv_val)) return 0;
  if ((ch->kw & f->kw_has) != f->kw_has) return 0;
  if (ch->kw & f->kw_not) return 0;
  if (f->counter && counters_get(o->c, o->nc, ckind_id(g, f->counter)) <= 0) return 0;
  if (f->no_counter && counters_get(o->c, o->nc, ckind_id(g, f->no_counter)) > 0) return 0;
  if (f->share_color || f->same_name || f->other_than || f->one_of) {
    /* "each other creature that shares a color with it" (105.4) */
    Sel rel;
    if (f->other_than) {
      sel_eval(g, c, f->other_than, &rel);
      for (int i = 0; i < rel.n; i++)
        if (rel.o[i].id == o->id) return 0;
    }
    if (f->one_of) {
      sel_eval(g, c, f->one_of, &rel);
      int in = 0;
      for (int i = 0; i < rel.n && !in; i++) in = rel.o[i].id == o->id;
      if (!in) return 0;
    }
    if (f->share_color) {
      /* with the object as it last existed if it is gone (608.2h) */
      Ref r[MAX_SEL];
      int k = refs_of(g, c, f->share_color, r, NELEM(r)), ok = 0;
      for (int i = 0; i < k && !ok; i++)
        if ((r[i].slot >= 0 ? chars(g, r[i].slot)->colors : r[i].lk->colors) & ch->colors) ok = 1;
      if (!ok) return 0;
    }
    if (f->same_name) {
      /* 201.2a: an object with no name (face down, 708.2) has the same name as none */
      Ref r[MAX_SEL];
      int k = refs_of(g, c, f->same_name, r, NELEM(r)), ok = 0;
      if (!named(ch->name)) return 0;
      for (int i = 0; i < k && !ok; i++) {
        const char *nm = r[i].slot >= 0 ? chars(g, r[i].slot)->name : r[i].lk->name;
        ok = named(nm) && !strcmp(nm, ch->name);
      }
      if (!ok) return 0;
    }
  }
  if (f->blocking_or_blocked_by_self) {
    int src = oref_ok(g, c->src) ? c->src.slot : -1;
    if (src < 0) return 0;
    /* an object gone (its last known information, slot -1) blocks nothing, but
     * the source may still be blocking it: the object it blocks is by id */
    int ok = slot >= 0 ? combat_blocks(g, slot, src) || combat_blocks(g, src, slot) : combat_blocks_id(g, src, o->id);
    if (!ok) return 0;
  }
  if (f->single_target) {
    int si = -1;
    if (slot < 0) return 0;
    for (int i = 0; i < s->c.nstack; i++)
      if (s->stack[i].slot == slot) si = i;
    if (si < 0) return 0;
    int cnt = 0;
    for (int i = 0; i < CHOICE_SLOTS; i++) cnt += s->stack[si].ch.t[i].kind != TK_NONE;
    if (cnt != 1) return 0;
  }
  if (f->targets_f) {
    /* "spell that targets a permanent you control": one of its targets, as
     * they are now, matches (a target gone matches nothing) */
    int si = -1;
    if (slot < 0) return 0;
    for (int i = 0; i < s->c.nstack; i++)
      if (s->stack[i].kind == SI_SPELL && s->stack[i].slot == slot) si = i;
    if (si < 0) return 0;
    int ok = 0;
    for (int i = 0; i < CHOICE_SLOTS && !ok; i++) {
      const Target *tg = &s->stack[si].ch.t[i];
      if (tg->kind == TK_OBJ && oref_ok(g, tg->obj)) {
        /* a target described by a card type alone is a permanent (109.2): a
         * creature card in a graveyard is not "a creature" */
        ok = filter_match(g, c, f->targets_f, tg->obj.slot);
      } else if (tg->kind == TK_PLAYER && (f->targets_f->player_target || f->targets_f->any_target)) {
        ok = filter_match_player(g, c, f->targets_f, tg->player);
      }
    }
    if (!ok) return 0;
  }
  if (f->not_f) {
    /* "not [quality]" asks about the object wherever it is being looked for */
    Filter nf = *f->not_f;
    if (nf.zone == -1 && nf.spell != 1 && !nf.stack_ability) nf.zone = -2;
    if (seen_match(g, c, &nf, v)) return 0;
  }
  if (f->cond) {
    ORef save = c->each_obj;
    c->each_obj = slot >= 0 ? oref(g, slot) : (ORef){v->lk->slot, v->lk->id};
    int ok = cond_eval(g, c, f->cond);
    c->each_obj = save;
    if (!ok) return 0;
  }
  return 1;
}

int filter_match(G *g, Ctx *c, const Filter *f, int slot) {
  if (slot < 0 || !g->s->obj[slot].id) return 0;
  Seen v = {slot, &g->s->obj[slot], chars(g, slot), slot == g->hyp_slot ? MTG_Z_BATTLEFIELD : g->s->obj[slot].zone, NULL};
  return seen_match(g, c, f, &v);
}

/* The same filter asked of an object as it last existed: of what it was where
 * it was (its zone then), with the status it had. */
int filter_match_lki(G *g, Ctx *c, const Filter *f, const Lki *l) {
  if (!l || !l->id) return 0;
  Obj o;
  memset(&o, 0, sizeof o);
  o.id = l->id;
  o.card = l->card;
  o.def = l->def;
  o.owner = l->owner;
  o.controller = l->controller;
  o.zone = l->zone;
  o.kind = l->token ? OK_TOKEN : l->kind;
  o.tapped = l->tapped;
  o.attacking = l->attacking;
  o.blocking = l->blocking;
  o.damage = l->damage;
  memcpy(o.c, l->c, sizeof o.c);
  o.nc = l->nc;
  o.attached = l->attached;
  o.attached_player = l->attached_player;
  o.entered_with = l->entered_with;
  o.kicked = l->kicked;
  o.cast_zone = l->cast_zone;
  o.block_of = oref_none();
  /* the fields not named (abilities, lost_all) are zero and never read by filters */
  Chars ch = {.base = l->def,
              .all_creature_types = (uint8_t)(l->def && (l->def->keywords >> KW_CHANGELING & 1)),
              .name = l->name ? l->name : "",
              .types = l->types,
              .supers = l->supers,
              .colors = l->colors,
              .has_pt = l->has_pt,
              .power = l->power,
              .toughness = l->toughness,
              .kw = l->kw,
              .controller = l->controller,
              .nsub = l->nsub};
  memcpy(ch.sub, l->sub, (size_t)l->nsub * sizeof *l->sub);
  Seen v = {-1, &o, &ch, l->zone < MTG_Z_COUNT ? l->zone : -1, l};
  return seen_match(g, c, f, &v);
}

int filter_match_player(G *g, Ctx *c, const Filter *f, int p) {
  if (!player_alive(g, p)) return 0;
  if (f->any_target) return 1;
  if (!f->player_target) return 0;
  if (!rel_match(g, c, f->player_rel, p)) return 0;
  if (f->cond) {
    /* a condition on the player ("each player who has cast ..."): `it` is the player */
    int8_t save = c->it_player;
    c->it_player = (int8_t)p;
    int ok = cond_eval(g, c, f->cond);
    c->it_player = save;
    if (!ok) return 0;
  }
  return 1;
}

/* 508.5, 508.5a: for an ability of an attacking creature, or one about an
 * attacking creature, the defending player is the one that creature attacks
 * (the controller or protector of what it attacks); a combat rule checked for
 * an attack names it (508.1c) */
static ORef trig_obj(G *g, Ctx *c);

int ctx_defending(G *g, Ctx *c) {
  State *s = g->s;
  if (c->defending >= 0) return c->defending;
  ORef a = oref_none();
  if (oref_ok(g, c->src) && s->obj[c->src.slot].attacking) a = c->src;
  else {
    ORef t = trig_obj(g, c);
    if (t.id && s->obj[t.slot].attacking) a = t;
  }
  return a.id ? combat_defending_player(g, a.slot) : -1;
}

/* ---- selectors ---- */

/* A selection past its capacity stops the game (MTG_ELIMIT) rather than
 * leave objects out: "destroy all creatures" must not spare the 257th. */
void sel_put(G *g, Sel *s, ORef o) {
  if (s->n >= MAX_SEL) game_limit(g, "objects in one selection", MAX_SEL);
  s->o[s->n++] = o;
}

static void sel_add(G *g, Sel *s, ORef o) {
  for (int i = 0; i < s->n; i++)
    if (s->o[i].id == o.id) return;
  sel_put(g, s, o);
}

static void sel_addp(Sel *s, int p) {
  for (int i = 0; i < s->np; i++)
    if (s->p[i] == p) return;
  if (p >= 0 && s->np < MAX_PLAYERS) s->p[s->np++] = (int8_t)p;
}

/* the triggering event's object: the new object in a public zone it moved to
 * (400.7e, 603.6), else the object itself if it still exists */
static ORef trig_obj(G *g, Ctx *c) {
  if (!c->tc) return oref_none();
  const TrigCtx *t = c->tc;
  if (t->new_id && t->new_slot >= 0 && g->s->obj[t->new_slot].id == t->new_id) {
    ORef r = {t->new_slot, t->new_id};
    int z = g->s->obj[t->new_slot].zone;
    if (z != MTG_Z_LIBRARY && z != MTG_Z_HAND) return r;
    return oref_none();
  }
  if (oref_ok(g, t->obj)) return t->obj;
  return oref_none();
}

unsigned filter_zones(const Filter *f) {
  unsigned m = 0;
  Filter buf[2];
  for (int k = 0; f; f = or_branch(f, &buf[k ^= 1])) {
    if (f->spell == 1 || f->stack_ability || f->zone == MTG_Z_STACK) m |= 1u << MTG_Z_STACK;
    else if (f->zone == -1) m |= 1u << MTG_Z_BATTLEFIELD;
    else if (f->zone == -2) m |= ((1u << MTG_Z_COUNT) - 1) & ~(1u << MTG_Z_STACK);
    else m |= 1u << f->zone;
  }
  return m;
}

static void each_zone_objects(G *g, Ctx *c, const Filter *f, Sel *out) {
  State *s = g->s;
  unsigned zm = filter_zones(f);
  if (zm == 1u << MTG_Z_BATTLEFIELD) {
    int n = bf_count(g);
    int16_t *l = bf_list(g);
    for (int i = 0; i < n; i++)
      if (filter_match(g, c, f, l[i])) sel_add(g, out, oref(g, l[i]));
    return;
  }
  if (zm >> MTG_Z_STACK & 1)
    for (int i = s->c.nstack - 1; i >= 0; i--)
      if (s->stack[i].kind == SI_SPELL && filter_match(g, c, f, s->stack[i].slot)) sel_add(g, out, oref(g, s->stack[i].slot));
  /* the other zones it names (an 'or' of several, or any): zone lists in
   * player order (the stack has no zone list: zl_count gives 0) */
  for (int z = 0; z < MTG_Z_COUNT; z++) {
    if (!(zm >> z & 1)) continue;
    int per = zone_owner_list(z);
    for (int p = 0; p < (per ? s->c.np : 1); p++) {
      int n = zl_count(g, z, p);
      int16_t *l = zl_list(g, z, p);
      for (int i = 0; i < n; i++)
        if (filter_match(g, c, f, l[i])) sel_add(g, out, oref(g, l[i]));
    }
  }
}


/* The controllers (owners) of the objects n refers to, each as it is or as it
 * last existed (608.2h), and the players n names. */
static void sel_players_of(G *g, Ctx *c, const Node *n, Sel *out, int owner);

static void sel_choose(G *g, Ctx *c, const Node *n, Sel *out) {
  Sel choosers;
  choosers.n = choosers.np = 0;
  if (n->k[0]) sel_eval(g, c, n->k[0], &choosers);
  else sel_addp(&choosers, c->controller);
  for (int i = 0; i < choosers.n; i++) sel_addp(&choosers, obj_controller(g, choosers.o[i].slot));
  int want = n->k[1] ? expr_eval(g, c, n->k[1]) : 1;
  int order[MAX_PLAYERS];
  apnap_order(g, order);
  for (int oi = 0; oi < MAX_PLAYERS && order[oi] >= 0; oi++) {
    int p = order[oi], is = 0;
    for (int i = 0; i < choosers.np; i++) is |= choosers.p[i] == p;
    if (!is) continue;
    int8_t save = c->each_player;
    c->each_player = (int8_t)p;
    Sel cand;
    cand.n = cand.np = 0;
    if (n->k[2]) {
      /* choose among the objects another selector gives ("a card exiled with ...") */
      sel_eval(g, c, n->k[2], &cand);
    } else {
      each_zone_objects(g, c, n->f, &cand);
      if (n->f->player_target || n->f->any_target)
        for (int q = 0; q < g->s->c.np; q++)
          if (filter_match_player(g, c, n->f, q)) sel_addp(&cand, q);
    }
    /* a targeted choice (115.1) passes over what the source couldn't target:
     * shroud, hexproof, protection, a player's hexproof */
    if (n->j == 1 && oref_ok(g, c->src)) {
      const Chars *sc = chars(g, c->src.slot);
      int w = 0;
      for (int i = 0; i < cand.n; i++) {
        Target t = {.kind = TK_OBJ, .player = -1, .obj = cand.o[i]};
        if (target_ok(g, &t, c->controller, c->src, sc)) cand.o[w++] = cand.o[i];
      }
      cand.n = w;
      w = 0;
      for (int i = 0; i < cand.np; i++) {
        Target t = {.kind = TK_PLAYER, .player = cand.p[i], .obj = oref_none()};
        if (target_ok(g, &t, c->controller, c->src, sc)) cand.p[w++] = cand.p[i];
      }
      cand.np = w;
    }
    c->each_player = save;
    if (c->choose_for) {
      /* a player can't choose to do what can't be done (Sigarda's
       * "can't cause you to sacrifice") */
      int w = 0;
      for (int i = 0; i < cand.n; i++) {
        Event e;
        ev_init(&e, c->choose_for);
        e.obj = cand.o[i];
        e.cause_ctl = (int8_t)c->controller;
        e.cause_id = c->cause_id;
        if (ev_possible(g, &e)) cand.o[w++] = cand.o[i];
      }
      cand.n = w;
    }
    int total = cand.n + cand.np;
    if (!total) continue;
    int k = num_min(want, total);
    if (n->j == 2) {
      /* "a card at random": no one chooses */
      for (int i = 0; i < k && i < cand.n; i++) {
        int r = i + rng_below(g->s->c.rng, cand.n - i);
        ORef t = cand.o[i];
        cand.o[i] = cand.o[r];
        cand.o[r] = t;
        sel_add(g, out, cand.o[i]);
      }
      continue;
    }
    if (!n->i && k == total) {
      for (int i = 0; i < cand.n; i++) sel_add(g, out, cand.o[i]);
      for (int i = 0; i < cand.np; i++) sel_addp(out, cand.p[i]);
      continue;
    }
    dec_begin(g, cand.n ? MTG_D_CHOOSE : MTG_D_PLAYER, p, n->j ? "115.1" : "", "%s", n->s ? n->s : "choose");
    for (int i = 0; i < cand.np; i++) dec_opt(g, MTG_O_PLAYER, 0, 0, cand.p[i], -1, "%s", player_name(g, cand.p[i]));
    for (int i = 0; i < cand.n; i++) {
      char nm[110];
      fmt_obj(g, cand.o[i], nm, sizeof nm);
      dec_opt(g, MTG_O_OBJECT, cand.o[i].id, 0, -1, -1, "%s", nm);
    }
    dec_range(g, n->i ? 0 : k, k);
    int cnt;
    const int *v = dec_ask(g, 0, &cnt);
    for (int i = 0; i < cnt; i++) {
      if (v[i] < cand.np) sel_addp(out, cand.p[v[i]]);
      else sel_add(g, out, cand.o[v[i] - cand.np]);
    }
  }
}

void sel_eval(G *g, Ctx *c, const Node *n, Sel *out) {
  State *s = g->s;
  out->n = out->np = 0;
  if (!n) return;
  switch (n->op) {
  case SL_SELF:
    if (oref_ok(g, c->src)) sel_add(g, out, c->src);
    break;
  case SL_YOU:
    sel_addp(out, c->controller);
    break;
  case SL_TARGET:
  case SL_TARGETS:
    if (!c->ch) break;
    for (int i = 0; i < choice_nslots(c->ch, c->mode); i++) {
      if (n->op == SL_TARGET && i != n->i) continue;
      Target *t = &c->ch->t[mode_slot(c->mode, i)];
      if (t->kind == TK_OBJ && oref_ok(g, t->obj)) sel_add(g, out, t->obj);
      else if (t->kind == TK_PLAYER && player_alive(g, t->player)) sel_addp(out, t->player);
      else if (t->kind == TK_STACK) {
        int si = stack_find(g, t->stack_id);
        if (si >= 0 && s->stack[si].kind == SI_SPELL) sel_add(g, out, oref(g, s->stack[si].slot));
      }
    }
    break;
  case SL_EACH:
    each_zone_objects(g, c, n->f, out);
    break;
  case SL_EACH_PLAYER:
  case SL_EACH_OPPONENT: {
    int order[MAX_PLAYERS];
    apnap_order(g, order);
    for (int i = 0; i < MAX_PLAYERS && order[i] >= 0; i++)
      if (n->op == SL_EACH_PLAYER || opponents(g, c->controller, order[i])) sel_addp(out, order[i]);
    break;
  }
  case SL_IT: {
    if (c->it_player >= 0) {
      sel_addp(out, c->it_player);
      break;
    }
    if (c->each_obj.id) {
      if (oref_ok(g, c->each_obj)) sel_add(g, out, c->each_obj);
      break;
    }
    if (c->each_player >= 0 && !c->tc) {
      sel_addp(out, c->each_player);
      break;
    }
    if (!c->tc && c->ev) {
      /* in a replacement's program: the affected object or player */
      if (c->ev->obj.id && oref_ok(g, c->ev->obj)) sel_add(g, out, c->ev->obj);
      else if (c->ev->player >= 0) sel_addp(out, c->ev->player);
      break;
    }
    ORef r = trig_obj(g, c);
    if (r.id) sel_add(g, out, r);
    /* an event about a player: that player; of a becomes-the-target event, the
     * player targeted, not the targeting spell's controller (603.2) */
    else if (c->tc && !c->tc->obj.id) sel_addp(out, c->tc->ev == EV_TARGETED ? c->tc->player2 : c->tc->player);
    break;
  }
  case SL_TRIG_PLAYER:
    if (c->tc && c->tc->player >= 0) sel_addp(out, c->tc->player);
    else if (c->ev && c->ev->player >= 0) sel_addp(out, c->ev->player);
    break;
  case SL_TRIG_SOURCE:
    if (c->tc && oref_ok(g, c->tc->src)) sel_add(g, out, c->tc->src);
    else if (c->ev && oref_ok(g, c->ev->src)) sel_add(g, out, c->ev->src);
    break;
  case SL_ENCHANTED:
  case SL_EQUIPPED: {
    ORef a = oref_none();
    int ap = -1;
    if (oref_ok(g, c->src)) {
      a = s->obj[c->src.slot].attached;
      ap = s->obj[c->src.slot].attached_player;
    } else if (c->srcl) {
      a = c->srcl->attached;
      ap = c->srcl->attached_player;
    }
    if (oref_ok(g, a)) sel_add(g, out, a);
    sel_addp(out, ap); /* none: -1, which sel_addp leaves out */
    break;
  }
  case SL_CONTROLLER_OF:
  case SL_OWNER_OF:
    if (n->i == 2) sel_players_of(g, c, n->k[0], out, n->op == SL_OWNER_OF);
    else if (n->op == SL_CONTROLLER_OF) sel_addp(out, c->controller);
    else if (n->i == 1) sel_players_of(g, c, &it_node, out, 1);
    else if (oref_ok(g, c->src)) sel_addp(out, s->obj[c->src.slot].owner);
    else if (c->srcl) sel_addp(out, c->srcl->owner);
    break;
  case SL_ITS_CONTROLLER:
    /* the controller of `it`, or as it last existed if it is gone (608.2h) */
    sel_players_of(g, c, &it_node, out, 0);
    break;
  case SL_LINKED:
  case SL_LINKED_ANY: {
    uint32_t id = n->i == 1 ? creator_id(g, c) : src_id(g, c);
    const char *myname = n->i == 2 && oref_ok(g, c->src) ? s->obj[c->src.slot].def->name : NULL;
    for (int i = 0; i < s->c.nlink; i++) {
      Link *l = &s->link[i];
      if (l->kind != LK_OBJ || strcmp(l->label, n->s)) continue;
      if (n->i == 2) {
        /* 607.2n: cards exiled before the game by cards with this name */
        if (!myname || !l->sval || strcmp(l->sval, myname)) continue;
      } else if (l->oid != id) continue;
      if (n->op == SL_LINKED && n->i != 1 && l->grant != c->grant) continue;
      if (oref_ok(g, l->obj)) sel_add(g, out, l->obj);
    }
    break;
  }
  case SL_CHOSEN: {
    int32_t v;
    if (link_find_value(g, src_id(g, c), c->grant, n->s, &v, NULL) && v >= 0 && v < s->c.np) sel_addp(out, v);
    break;
  }
  case SL_ACTIVE:
    sel_addp(out, s->c.active);
    break;
  case SL_DEFENDING: {
    int who = ctx_defending(g, c);
    if (who >= 0) {
      sel_addp(out, who);
      break;
    }
    for (int p = 0; p < s->c.np; p++)
      if (s->c.defending[p]) sel_addp(out, p);
    break;
  }
  case SL_RESULT:
  case SL_REMEMBERED:
    for (int i = 0, nres = res_count(g, c); i < nres; i++)
      if (oref_ok(g, c->res[i])) sel_add(g, out, c->res[i]);
    if (c->res_player >= 0) sel_addp(out, c->res_player);
    break;
  case SL_TOP: {
    int cnt = expr_eval(g, c, n->k[0]);
    Sel who;
    who.n = who.np = 0;
    if (n->k[1]) sel_eval(g, c, n->k[1], &who);
    else sel_addp(&who, c->controller);
    for (int i = 0; i < who.np; i++) {
      int p = who.p[i];
      int ln = zl_count(g, MTG_Z_LIBRARY, p);
      int16_t *l = zl_list(g, MTG_Z_LIBRARY, p);
      for (int k = 0; k < cnt && k < ln; k++) sel_add(g, out, oref(g, l[k]));
    }
    break;
  }
  case SL_UNION:
    for (int i = 0; i < n->n; i++) {
      Sel part;
      sel_eval(g, c, n->k[i], &part);
      for (int k = 0; k < part.n; k++) sel_add(g, out, part.o[k]);
      for (int k = 0; k < part.np; k++) sel_addp(out, part.p[k]);
    }
    break;
  case SL_CHOOSE:
    sel_choose(g, c, n, out);
    break;
  case SL_THIS_CARD: {
    /* the object this source's card became in its owner's graveyard (400.7f, 603.6e) */
    int slot = c->src.slot >= 0 ? c->src.slot : (c->srcl ? c->srcl->slot : -1);
    if (slot < 0 || slot >= s->c.nslots) break;
    const Obj *o = &s->obj[slot];
    if (!o->id || o->kind != OK_CARD || o->zone != MTG_Z_GRAVEYARD) break;
    sel_add(g, out, oref(g, slot));
    break;
  }
  case SL_TRIG_STACK: {
    /* the spell or ability of the event ("that spell or ability" of a
     * becomes-the-target trigger): a spell is an object; an ability is counted
     * by the steps that look at the stack (counter) */
    if (!c->tc) break;
    int si = stack_find(g, c->tc->cause_id); /* no stack item has id 0 (new_id) */
    if (si >= 0 && s->stack[si].kind == SI_SPELL) sel_add(g, out, oref(g, s->stack[si].slot));
    break;
  }
  case SL_NONE:
  case SL_TRIG_TARGET:
  case SL_ATTACHED_TO_IT:
  default:
    break;
  }
}

/* ---- information about the objects an effect refers to (608.2h) ---- */


static int ref_add(Ref *out, int n, int max, int slot, const Lki *lk) {
  if (n >= max || (slot < 0 && !lk)) return n;
  for (int i = 0; i < n; i++) /* the same object twice counts once */
    if (slot >= 0 ? out[i].slot == slot : (out[i].lk && out[i].lk->id == lk->id)) return n;
  out[n].slot = (int16_t)slot;
  out[n].lk = slot >= 0 ? NULL : lk;
  return n + 1;
}

/* The object with this id if it still exists, else its last known
 * information: the newest kept (lki_find), else the copy the caller holds. */
static int ref_id(G *g, Ref *out, int n, int max, ORef r, const Lki *held) {
  if (oref_ok(g, r)) return ref_add(out, n, max, r.slot, NULL);
  const Lki *l = lki_find(g, r.id);
  if (!l && held && held->id && held->id == r.id) l = held;
  return ref_add(out, n, max, -1, l);
}

static int refs_of(G *g, Ctx *c, const Node *n, Ref *out, int max) {
  State *s = g->s;
  int k = 0;
  if (!n) return 0;
  switch (n->op) {
  case SL_SELF: {
    ORef r = c->src;
    if (!r.id && c->srcl) r = (ORef){c->srcl->slot, c->srcl->id};
    return ref_id(g, out, k, max, r, c->srcl);
  }
  case SL_TARGET:
  case SL_TARGETS:
    /* a target that changed zones is read as it last existed (608.2h) */
    for (int i = 0; c->ch && i < choice_nslots(c->ch, c->mode); i++) {
      if (n->op == SL_TARGET && i != n->i) continue;
      const Target *t = &c->ch->t[mode_slot(c->mode, i)];
      if (t->kind == TK_OBJ) k = ref_id(g, out, k, max, t->obj, NULL);
      else if (t->kind == TK_STACK) {
        int si = stack_find(g, t->stack_id);
        if (si >= 0 && s->stack[si].kind == SI_SPELL) k = ref_add(out, k, max, s->stack[si].slot, NULL);
      }
    }
    return k;
  case SL_IT:
    if (c->it_player >= 0) return 0; /* a player (a player filter's 'if') */
    if (c->each_obj.id) return ref_id(g, out, k, max, c->each_obj, NULL);
    if (!c->tc && c->ev) return c->ev->obj.id ? ref_id(g, out, k, max, c->ev->obj, NULL) : 0;
    if (c->tc && c->tc->objl.id) {
      /* the object the trigger saw: itself while it is still there, else as
       * it last existed (a creature that died, one that entered and left) */
      ORef r = {c->tc->objl.slot, c->tc->objl.id};
      return ref_id(g, out, k, max, r, &c->tc->objl);
    }
    break;
  case SL_RESULT:
  case SL_REMEMBERED:
    /* what the previous step moved is read as it was before the move, unless
     * it was put onto the battlefield: then the permanent it became */
    for (int i = 0, nres = res_count(g, c); i < nres; i++) {
      const Lki *pre = i < c->nresl && c->resl[i].id ? &c->resl[i] : i < c->nresold && c->resold[i] ? lki_find(g, c->resold[i]) : NULL;
      k = pre ? ref_add(out, k, max, -1, pre) : ref_id(g, out, k, max, c->res[i], NULL);
    }
    return k;
  case SL_TRIG_SOURCE:
    if (c->tc && c->tc->src.id) return ref_id(g, out, k, max, c->tc->src, &c->tc->srcl);
    if (c->ev && c->ev->src.id) return ref_id(g, out, k, max, c->ev->src, NULL);
    return 0;
  case SL_ENCHANTED:
  case SL_EQUIPPED: {
    ORef a = oref_ok(g, c->src) ? s->obj[c->src.slot].attached : c->srcl ? c->srcl->attached : oref_none();
    return a.id ? ref_id(g, out, k, max, a, NULL) : 0;
  }
  case SL_UNION:
    for (int i = 0; i < n->n; i++) {
      Ref part[MAX_SEL];
      int np = refs_of(g, c, n->k[i], part, NELEM(part));
      for (int j = 0; j < np; j++) k = ref_add(out, k, max, part[j].slot, part[j].lk);
    }
    return k;
  default:
    break;
  }
  Sel r;
  sel_eval(g, c, n, &r);
  for (int i = 0; i < r.n; i++) k = ref_add(out, k, max, r.o[i].slot, NULL);
  return k;
}

int sel_object_ref(G *g, Ctx *c, const Node *n, ORef *o, const Lki **lk) {
  Ref r[1];
  *lk = NULL;
  if (!refs_of(g, c, n, r, 1)) return 0;
  if (r[0].slot >= 0) *o = oref(g, r[0].slot);
  else {
    *lk = r[0].lk;
    o->slot = r[0].lk->slot;
    o->id = r[0].lk->id;
  }
  return 1;
}

static int ref_controller(G *g, const Ref *r) { return r->slot >= 0 ? obj_controller(g, r->slot) : r->lk->controller; }
static int ref_owner(G *g, const Ref *r) { return r->slot >= 0 ? g->s->obj[r->slot].owner : r->lk->owner; }

static void sel_players_of(G *g, Ctx *c, const Node *n, Sel *out, int owner) {
  Ref r[MAX_SEL];
  int k = refs_of(g, c, n, r, NELEM(r));
  for (int i = 0; i < k; i++) sel_addp(out, owner ? ref_owner(g, &r[i]) : ref_controller(g, &r[i]));
  Sel in;
  sel_eval(g, c, n, &in);
  for (int i = 0; i < in.np; i++) sel_addp(out, in.p[i]);
}

/* ---- values ---- */

static int ref_value(G *g, int op, const Ref *r) {
  if (r->slot >= 0) {
    const Obj *o = &g->s->obj[r->slot];
    switch (op) {
    case E_POWER: return obj_power(g, r->slot);
    case E_TOUGHNESS: return obj_toughness(g, r->slot);
    case E_MANA_VALUE: return obj_mv(g, r->slot);
    case E_DAMAGE_ON: return o->damage;
    case E_CLASS_LEVEL: return o->class_level ? o->class_level : 1; /* 716.2d */
    default: return counters_get(o->c, o->nc, CN_LOYALTY);
    }
  }
  const Lki *l = r->lk;
  switch (op) {
  case E_POWER: return l->power;
  case E_TOUGHNESS: return l->toughness;
  case E_MANA_VALUE: return l->mv;
  case E_DAMAGE_ON: return l->damage;
  case E_CLASS_LEVEL: return l->class_level ? l->class_level : 1;
  default: return counters_get(l->c, l->nc, CN_LOYALTY);
  }
}

static int first_player(G *g, Ctx *c, const Node *n) {
  Sel s;
  sel_eval(g, c, n, &s);
  if (s.np) return s.p[0];
  if (s.n) return obj_controller(g, s.o[0].slot);
  return -1;
}

/* Which kicker costs were paid (a bit for each, 702.33f), and the times a
 * multikicker cost was (*times, 702.33c): the spell's choices while it
 * resolves; the permanent's afterwards (400.7d, 607.2i); or as it last existed
 * (608.2h). */
static int kicked_of(G *g, const Ctx *c, int *times) {
  const Obj *o = oref_ok(g, c->src) ? &g->s->obj[c->src.slot] : NULL;
  if (c->ch && c->spell_ch) {
    *times = c->ch->kick_n;
    return c->ch->kicked;
  }
  if (o) {
    *times = o->kick_n;
    return o->kicked;
  }
  *times = c->srcl ? c->srcl->kick_n : 0;
  return c->srcl ? c->srcl->kicked : 0;
}

int expr_eval(G *g, Ctx *c, const Node *n) {
  State *s = g->s;
  if (!n) return 0;
  int p, v;
  switch (n->op) {
  case E_INT: return n->i;
  case E_X:
    /* a triggered ability has no X of its own: one carried from the spell
     * that made it (a delayed trigger), else the X its source was cast with
     * (107.3m, enters-the-battlefield abilities) */
    if (c->tgt_x) return c->tgt_x; /* choosing or checking targets */
    if (c->ch && (c->ch->x || !c->ab || c->ab->kind != AB_TRIGGERED)) return c->ch->x;
    if (oref_ok(g, c->src)) return s->obj[c->src.slot].x;
    return 0;
  case E_AMOUNT:
    if (c->ev) return c->ev->amount;
    if (c->tc) return c->tc->amount;
    return c->amount;
  case E_PREVENTED: return c->prevented;
  case E_LIFE_LOST: return c->life_lost;
  case E_COUNT: {
    Sel r;
    r.n = r.np = 0;
    if (n->f->player_target && !n->f->types_any) {
      int cnt = 0;
      for (int q = 0; q < s->c.np; q++) cnt += filter_match_player(g, c, n->f, q);
      return cnt;
    }
    each_zone_objects(g, c, n->f, &r);
    return r.n;
  }
  case E_POWER:
  case E_TOUGHNESS:
  case E_MANA_VALUE:
  case E_DAMAGE_ON:
  case E_CLASS_LEVEL:
  case E_LOYALTY: {
    /* 608.2h: an object that changed zones is read as it last existed; a value
     * asked of several objects (cards exiled with ...) is their sum (607.3) */
    Ref r[MAX_SEL];
    int k = refs_of(g, c, n->k[0], r, NELEM(r)), sum = 0;
    for (int i = 0; i < k; i++) sum = num_add(sum, ref_value(g, n->op, &r[i]));
    return sum;
  }
  case E_GREATEST: {
    /* "the greatest power among creatures you control": 0 with none of them */
    Sel r;
    r.n = r.np = 0;
    each_zone_objects(g, c, n->f, &r);
    int best = 0;
    for (int i = 0; i < r.n; i++) {
      Ref ref = {r.o[i].slot, NULL};
      int v = ref_value(g, n->j, &ref);
      if (!i || v > best) best = v;
    }
    return best;
  }
  case E_STARTING_LIFE:
    p = first_player(g, c, n->k[0]);
    return p < 0 ? 0 : var_starting_life(g, p);
  case E_LIFE:
  case E_HAND:
  case E_LIBRARY:
    p = first_player(g, c, n->k[0]);
    if (p < 0) return 0;
    if (n->op == E_LIFE) return s->c.pl[p].life;
    return zl_count(g, n->op == E_HAND ? MTG_Z_HAND : MTG_Z_LIBRARY, p);
  case E_COUNTERS: {
    /* on an object, as it last existed if it changed zones (608.2h), or on a player */
    static const Node self_node = {.op = SL_SELF};
    int k = n->i ? -1 : ckind_id(g, n->s); /* -1: counters of all kinds ("the number of counters on it") */
    Ref r[1];
    if (refs_of(g, c, n->k[0] ? n->k[0] : &self_node, r, 1)) {
      if (r[0].slot >= 0) return counters_count(s->obj[r[0].slot].c, s->obj[r[0].slot].nc, k);
      return counters_count(r[0].lk->c, r[0].lk->nc, k);
    }
    Sel pl;
    sel_eval(g, c, n->k[0], &pl);
    return pl.np ? counters_count(s->c.pl[pl.p[0]].c, s->c.pl[pl.p[0]].nc, k) : 0;
  }
  /* values stay in the engine's range, saturating (num.h) */
  case E_SUM:
    v = 0;
    for (int i = 0; i < n->n; i++) v = num_add(v, expr_eval(g, c, n->k[i]));
    return v;
  case E_DIFF:
    v = expr_eval(g, c, n->k[0]);
    for (int i = 1; i < n->n; i++) v = num_sub(v, expr_eval(g, c, n->k[i]));
    return v;
  case E_MUL:
    v = 1;
    for (int i = 0; i < n->n; i++) v = num_mul(v, expr_eval(g, c, n->k[i]));
    return v;
  case E_MIN:
  case E_MAX:
    v = expr_eval(g, c, n->k[0]);
    for (int i = 1; i < n->n; i++) {
      int w = expr_eval(g, c, n->k[i]);
      if (n->op == E_MIN ? w < v : w > v) v = w;
    }
    return v;
  case E_HALF:
    v = expr_eval(g, c, n->k[0]);
    return (int)(n->i ? ((int64_t)v + 1) / 2 : v / 2);
  case E_NEG: return num_neg(expr_eval(g, c, n->k[0]));
  case E_DEVOTION: {
    /* 700.5: mana symbols of that color in the mana costs of permanents you control */
    int cnt = 0, nb = bf_count(g);
    int16_t *bf = bf_list(g);
    for (int i = 0; i < nb; i++) {
      if (obj_controller(g, bf[i]) != c->controller) continue;
      const CardDef *d = chars(g, bf[i])->base;
      if (!d) continue;
      cnt += d->cost.colored[n->i];
      for (int h = 0; h < d->cost.nhybrid; h++) cnt += d->cost.hybrid[h][0] == n->i || d->cost.hybrid[h][1] == n->i;
      cnt += d->cost.phyrexian[n->i]; /* 700.5 */
    }
    return cnt;
  }
  case E_CHOSEN:
  case E_NOTED: {
    int32_t val;
    if (n->i == 1) return link_find_value(g, creator_id(g, c), 0, n->s, &val, NULL) ? val : 0;
    return link_find_value(g, src_id(g, c), c->grant, n->s, &val, NULL) ? val : 0;
  }
  case E_RESOLUTIONS:
    /* times this ability of its source has resolved this turn, this one included (603.7h) */
    return c->ab && oref_ok(g, c->src) ? s->obj[c->src.slot].resolved[c->ab->index & 15] : 0;
  case E_STORM: {
    /* 702.40a: the spells cast before it this turn, counted as it was cast */
    if (c->tc && c->tc->ev == EV_CAST) return c->tc->amount;
    /* else "each other spell cast this turn": all of them but the one this
     * source is, when it is a spell that was cast (a spell on the stack was
     * cast this turn, a copy never was: 707.10; a permanent entering from
     * the stack is still there as it enters, 614.1c) */
    int cnt = 0;
    for (int q = 0; q < s->c.np; q++) cnt = num_add(cnt, s->c.pl[q].spells_cast_turn);
    const Obj *so = oref_ok(g, c->src) ? &s->obj[c->src.slot] : NULL;
    return so && so->zone == MTG_Z_STACK && so->cast_zone ? cnt - 1 : cnt;
  }
  case E_KICKED: {
    int t;
    return kicked_of(g, c, &t) != 0;
  }
  case E_KICK_N: {
    /* 702.33d: the times it was kicked: its multikicker cost's payments, or its kicker costs paid */
    int t, k = kicked_of(g, c, &t);
    return t ? t : (k & 1) + (k >> 1 & 1) + (k >> 2 & 1);
  }
  case E_PAID:
    if (c->ch && c->ch->paid) return c->ch->paid;
    return oref_ok(g, c->src) ? s->obj[c->src.slot].paid : 0;
  case E_RESULT: return res_count(g, c);
  case E_HISTORY: return hist_value(g, c, n);
  }
  return 0;
}

/* ---- conditions ---- */

int cond_eval(G *g, Ctx *c, const Node *n) {
  State *s = g->s;
  if (!n) return 1;
  switch (n->op) {
  case C_TRUE: return 1;
  case C_NOT: return !cond_eval(g, c, n->k[0]);
  case C_ALL:
    for (int i = 0; i < n->n; i++)
      if (!cond_eval(g, c, n->k[i])) return 0;
    return 1;
  case C_ANY:
    for (int i = 0; i < n->n; i++)
      if (cond_eval(g, c, n->k[i])) return 1;
    return 0;
  case C_CMP: return cmp_ok(n->i, expr_eval(g, c, n->k[0]), expr_eval(g, c, n->k[1]));
  case C_EXISTS: {
    if (n->f->player_target && (!n->f->types_any || n->f->types_any == 0xffffffffu)) {
      /* "if a player ...": some player matches */
      for (int q = 0; q < s->c.np; q++)
        if (filter_match_player(g, c, n->f, q)) return 1;
      return 0;
    }
    Sel r;
    r.n = r.np = 0;
    each_zone_objects(g, c, n->f, &r);
    return r.n > 0;
  }
  case C_YOUR_TURN: return s->c.active == c->controller;
  case C_NEW_SINCE_UPKEEP:
    /* 702.30a: this permanent came under your control since the beginning of your
     * last upkeep (ctl_since and upkeep_prev are turn sequence numbers; before a
     * player's first upkeep, since the game began) */
    return oref_ok(g, c->src) && s->obj[c->src.slot].zone == MTG_Z_BATTLEFIELD && obj_controller(g, c->src.slot) == c->controller &&
           s->obj[c->src.slot].ctl_since >= s->c.pl[c->controller].upkeep_prev;
  case C_KICKED: {
    int t, k = kicked_of(g, c, &t);
    return n->i ? (k >> (n->i - 1) & 1) != 0 : k != 0;
  }
  case C_ADDL_PAID: {
    /* as for kicked: the spell's, the permanent's, or as it last existed (608.2h) */
    int k = c->ch && c->spell_ch ? c->ch->addl_paid : oref_ok(g, c->src) ? s->obj[c->src.slot].addl_paid : c->srcl ? c->srcl->addl_paid : 0;
    return k != 0;
  }
  case C_IS: {
    /* each object, as it is or as it last existed (608.2h) */
    Ref r[MAX_SEL];
    int k = refs_of(g, c, n->k[0], r, NELEM(r));
    for (int i = 0; i < k; i++)
      if (r[i].slot >= 0 ? !filter_match(g, c, n->f, r[i].slot) : !filter_match_lki(g, c, n->f, r[i].lk)) return 0;
    return k > 0;
  }
  case C_DID: return c->did;
  case C_HAD_COUNTERS: {
    const Lki *l = c->tc ? &c->tc->objl : c->srcl;
    int have = l ? counters_get(l->c, l->nc, ckind_id(g, n->s)) : 0;
    return cmp_ok(n->i, have, expr_eval(g, c, n->k[0]));
  }
  case C_IN_ZONE: {
    Sel r;
    if (n->k[0]) sel_eval(g, c, n->k[0], &r);
    else {
      r.n = r.np = 0;
      if (oref_ok(g, c->src)) r.o[r.n++] = c->src;
    }
    if (!r.n) return 0;
    for (int i = 0; i < r.n; i++)
      if (s->obj[r.o[i].slot].zone != n->i) return 0;
    return 1;
  }
  case C_CHOSEN_IS: {
    const char *sv;
    return link_find_value(g, src_id(g, c), c->grant, n->s, NULL, &sv) && sv && !strcmp(sv, n->k[0]->s);
  }
  case C_CAST_FROM: {
    /* the spell's own while it resolves; for a permanent's ability, the spell
     * that became it (400.7d), as it last existed if it has left */
    int z = c->ch && c->spell_ch ? c->ch->cast_zone : oref_ok(g, c->src) ? s->obj[c->src.slot].cast_zone
                                                    : c->srcl ? c->srcl->cast_zone : 0;
    return z == n->i + 1;
  }
  case C_CAST_WITH: {
    /* read as cast_from is */
    int a = c->ch && c->spell_ch ? c->ch->alt : oref_ok(g, c->src) ? s->obj[c->src.slot].alt : c->srcl ? c->srcl->alt : 0;
    return a == n->i;
  }
  }
  return 0;
}
