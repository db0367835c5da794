/* setup.c - describing a game before it starts (players, seed, where the
 * game starts, the contents of every zone with per-object state) and
 * building the initial State from that description. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define SETUP_MAX_CHOICES 4

/* The setup's cards leave half the object slots for what the game makes; its
 * text form (mtg_setup_write: per player a line, its counters, lands played
 * and cards outside; variants, teams, seed, start, opening, shuffle,
 * max_turns; a line per card; commander damage) fits MTG_SETUP_MAX_RECORDS. */
_Static_assert(2 * MTG_MAX_SETUP_CARDS <= MAX_SLOTS, "setup cards exceed half the object slots");
_Static_assert(MAX_PLAYERS * (3 + MAX_CKINDS + MAX_OUTSIDE) + 4 + 7 + MTG_MAX_SETUP_CARDS + MAX_PLAYERS * MAX_COMMANDERS <=
                   MTG_SETUP_MAX_RECORDS,
               "the text form of a setup can exceed MTG_SETUP_MAX_RECORDS");

typedef struct SEntry {
  int player, zone;
  const CardDef *def;
  int tapped, sick, damage, controller, attach, attach_player, face_down, transformed, exiled_by;
  int protector, sector, room; /* battle's protector, sector designation, dungeon room: -1 / 0 / -1 for none */
  int commander; /* designated as its owner's commander (903.3) */
  char exiled_label[24];
  struct { char kind[24]; int n; } c[MAX_CKINDS];
  int nc;
  struct { char key[24]; char val[64]; } ch[SETUP_MAX_CHOICES];
  int nch;
} SEntry;

struct mtg_setup {
  const mtg_pool *pool;
  int np;
  struct {
    char name[32];
    int life;
    struct { char kind[24]; int n; } c[MAX_CKINDS];
    int nc;
    int lands;
    const CardDef *outside[MAX_OUTSIDE]; /* cards owned outside the game (309.2a) */
    int noutside;
    int team;
  } pl[MAX_PLAYERS];
  int variants;                       /* VAR_* bits */
  struct { int player, entry, n; } cdmg[MAX_PLAYERS * MAX_COMMANDERS]; /* commander damage so far */
  int ncdmg;
  uint64_t seed;
  int start_set, active, turn, step;
  int opening, shuffle, max_turns;
  long budget;                        /* log lines the game may write, 0: no limit */
  SEntry *e;
  int ne, cap;
};

mtg_setup *mtg_setup_new(const mtg_pool *pool) {
  mtg_setup *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->pool = pool;
  s->opening = 7;
  s->shuffle = 1;
  return s;
}

void mtg_setup_free(mtg_setup *s) {
  if (!s) return;
  free(s->e);
  free(s);
}

int mtg_setup_player(mtg_setup *s, const char *name, int life, int poison) {
  if (s->np >= MAX_PLAYERS) return MTG_ELIMIT;
  size_t n = strlen(name);
  if (!n || n >= sizeof s->pl->name) return MTG_EARG;
  for (size_t i = 0; i < n; i++)
    if (!isalnum((unsigned char)name[i]) && name[i] != '_' && name[i] != '-') return MTG_EARG;
  for (int p = 0; p < s->np; p++)
    if (!strcmp(s->pl[p].name, name)) return MTG_EARG;
  int p = s->np++;
  memset(&s->pl[p], 0, sizeof s->pl[p]);
  snprintf(s->pl[p].name, sizeof s->pl[p].name, "%s", name);
  s->pl[p].life = life;
  if (poison > 0) {
    snprintf(s->pl[p].c[0].kind, sizeof s->pl[p].c[0].kind, "poison");
    s->pl[p].c[0].n = poison;
    s->pl[p].nc = 1;
  }
  return p;
}

void mtg_setup_seed(mtg_setup *s, uint64_t seed) { s->seed = seed; }

void mtg_setup_start(mtg_setup *s, int active, int turn, int step) {
  s->start_set = 1;
  s->active = active;
  s->turn = turn;
  s->step = step;
  s->opening = 0;
  s->shuffle = 0;
}

void mtg_setup_opening_hand(mtg_setup *s, int cards) { s->opening = cards; }
void mtg_setup_shuffle(mtg_setup *s, int yes) { s->shuffle = yes; }
void mtg_setup_max_turns(mtg_setup *s, int turns) { s->max_turns = turns; }
void mtg_setup_work_budget(mtg_setup *s, long lines) { s->budget = lines > 0 ? lines : 0; }

int mtg_setup_card(mtg_setup *s, int player, int zone, const char *card, mtg_error *err) {
  if (player < 0 || player >= s->np) {
    mtg_error_set(err, MTG_EARG, "no player %d", player);
    return MTG_EARG;
  }
  if (zone < 0 || zone >= MTG_Z_COUNT || zone == MTG_Z_STACK) {
    mtg_error_set(err, MTG_EARG, "cards can't start in zone %d", zone);
    return MTG_EARG;
  }
  const CardDef *d = pool_find(s->pool, card);
  if (!d) {
    char sug[200];
    mtg_pool_suggest(s->pool, card, sug, sizeof sug);
    if (sug[0]) mtg_error_set(err, MTG_EDATA, "unknown card '%s'; did you mean %s?", card, sug);
    else mtg_error_set(err, MTG_EDATA, "unknown card '%s' (not in the card pool)", card);
    return MTG_EDATA;
  }
  if (d->types & T_DUNGEON) {
    /* 309.2c: a dungeon card in the game is in the command zone; 309.3: one per owner */
    if (zone != MTG_Z_COMMAND) {
      mtg_error_set(err, MTG_EDATA, "dungeon card '%s' can only be in the command zone (309.2c)", card);
      return MTG_EDATA;
    }
    for (int i = 0; i < s->ne; i++)
      if (s->e[i].player == player && (s->e[i].def->types & T_DUNGEON)) {
        mtg_error_set(err, MTG_EDATA, "player %s already has dungeon '%s' in the command zone (309.3)", s->pl[player].name,
                      s->e[i].def->name);
        return MTG_EDATA;
      }
  }
  if (s->ne >= MTG_MAX_SETUP_CARDS) {
    mtg_error_set(err, MTG_ELIMIT, "too many cards in the setup (at most %d)", MTG_MAX_SETUP_CARDS);
    return MTG_ELIMIT;
  }
  if (s->ne == s->cap) {
    int cap = s->cap ? s->cap * 2 : 8; /* an entry is about 700 bytes; most setups are small */
    SEntry *e = realloc(s->e, (size_t)cap * sizeof *e);
    if (!e) {
      mtg_error_set(err, MTG_ENOMEM, "out of memory");
      return MTG_ENOMEM;
    }
    s->e = e;
    s->cap = cap;
  }
  SEntry *e = &s->e[s->ne];
  memset(e, 0, sizeof *e);
  e->player = player;
  e->zone = zone;
  e->def = d;
  e->controller = -1;
  e->attach = -1;
  e->attach_player = -1;
  e->exiled_by = -1;
  e->protector = -1;
  e->room = -1;
  e->face_down = -1; /* default: face up, except cards in a scheme or planar deck */
  return s->ne++;
}

static SEntry *entry(mtg_setup *s, int i) { return i >= 0 && i < s->ne ? &s->e[i] : NULL; }
#define ENTRY(s, i) entry((s), (i))

int mtg_setup_tapped(mtg_setup *s, int i, int t) {
  SEntry *e = ENTRY(s, i);
  if (!e) return MTG_EARG;
  e->tapped = t;
  return MTG_OK;
}
int mtg_setup_sick(mtg_setup *s, int i, int v) {
  SEntry *e = ENTRY(s, i);
  if (!e) return MTG_EARG;
  e->sick = v;
  return MTG_OK;
}
int mtg_setup_damage(mtg_setup *s, int i, int d) {
  SEntry *e = ENTRY(s, i);
  if (!e || d < 0) return MTG_EARG;
  e->damage = d;
  return MTG_OK;
}
int mtg_setup_counters(mtg_setup *s, int i, const char *kind, int n) {
  SEntry *e = ENTRY(s, i);
  if (!e || n < 0 || strlen(kind) >= sizeof e->c->kind || e->nc >= MAX_CKINDS) return MTG_EARG;
  snprintf(e->c[e->nc].kind, sizeof e->c->kind, "%s", kind);
  e->c[e->nc].n = n;
  e->nc++;
  return MTG_OK;
}
int mtg_setup_controller(mtg_setup *s, int i, int p) {
  SEntry *e = ENTRY(s, i);
  if (!e || p < 0 || p >= s->np) return MTG_EARG;
  e->controller = p;
  return MTG_OK;
}
int mtg_setup_attach(mtg_setup *s, int i, int t) {
  SEntry *e = ENTRY(s, i);
  if (!e || !ENTRY(s, t) || t == i) return MTG_EARG;
  e->attach = t;
  return MTG_OK;
}
int mtg_setup_attach_player(mtg_setup *s, int i, int p) {
  SEntry *e = ENTRY(s, i);
  if (!e || p < 0 || p >= s->np) return MTG_EARG;
  e->attach_player = p;
  return MTG_OK;
}
int mtg_setup_choice(mtg_setup *s, int i, const char *key, const char *value) {
  SEntry *e = ENTRY(s, i);
  if (!e || e->nch >= SETUP_MAX_CHOICES || strlen(key) >= sizeof e->ch->key || strlen(value) >= sizeof e->ch->val)
    return MTG_EARG;
  snprintf(e->ch[e->nch].key, sizeof e->ch->key, "%s", key);
  snprintf(e->ch[e->nch].val, sizeof e->ch->val, "%s", value);
  e->nch++;
  return MTG_OK;
}
int mtg_setup_face_down(mtg_setup *s, int i, int v) {
  SEntry *e = ENTRY(s, i);
  if (!e) return MTG_EARG;
  e->face_down = v != 0;
  return MTG_OK;
}

/* ---- variants (variant.c, 704.6) ---- */

static const char *const variant_names[] = {"two_headed_giant", "commander", "archenemy", "planechase"};

int mtg_setup_variant(mtg_setup *s, const char *name) {
  for (int i = 0; i < NELEM(variant_names); i++)
    if (name && !strcmp(name, variant_names[i])) {
      s->variants |= 1 << i;
      return MTG_OK;
    }
  return MTG_EARG;
}

int mtg_setup_team(mtg_setup *s, int p, int team) {
  if (p < 0 || p >= s->np || team < 0 || team > MAX_PLAYERS) return MTG_EARG;
  s->pl[p].team = team;
  return MTG_OK;
}

int mtg_setup_commander(mtg_setup *s, int i) {
  SEntry *e = ENTRY(s, i);
  if (!e) return MTG_EARG;
  /* 903.3: a legendary creature card (or a Vehicle or Spacecraft) */
  int vehicle = 0;
  for (int k = 0; k < e->def->nsub; k++)
    vehicle |= !strcmp(e->def->subtypes[k], "Vehicle") || !strcmp(e->def->subtypes[k], "Spacecraft");
  if (!(e->def->supers & ST_LEGENDARY) || !((e->def->types & T_CREATURE) || vehicle)) return MTG_EDATA;
  int n = 0;
  for (int k = 0; k < s->ne; k++) n += s->e[k].commander;
  if (!e->commander && n >= MAX_COMMANDERS) return MTG_ELIMIT;
  e->commander = 1;
  return MTG_OK;
}

int mtg_setup_commander_damage(mtg_setup *s, int p, int i, int n) {
  SEntry *e = ENTRY(s, i);
  if (!e || !e->commander || p < 0 || p >= s->np || n < 0) return MTG_EARG;
  for (int k = 0; k < s->ncdmg; k++)
    if (s->cdmg[k].player == p && s->cdmg[k].entry == i) {
      s->cdmg[k].n = n;
      return MTG_OK;
    }
  if (s->ncdmg >= NELEM(s->cdmg)) return MTG_ELIMIT;
  s->cdmg[s->ncdmg].player = p;
  s->cdmg[s->ncdmg].entry = i;
  s->cdmg[s->ncdmg].n = n;
  s->ncdmg++;
  return MTG_OK;
}
int mtg_setup_transformed(mtg_setup *s, int i, int v) {
  SEntry *e = ENTRY(s, i);
  if (!e || (v && !e->def->back)) return MTG_EARG;
  e->transformed = v;
  return MTG_OK;
}
int mtg_setup_exiled_with(mtg_setup *s, int i, int by, const char *label) {
  SEntry *e = ENTRY(s, i);
  if (!e || !ENTRY(s, by) || by == i || strlen(label) >= sizeof e->exiled_label) return MTG_EARG;
  e->exiled_by = by;
  snprintf(e->exiled_label, sizeof e->exiled_label, "%s", label);
  return MTG_OK;
}
int mtg_setup_protector(mtg_setup *s, int i, int p) {
  SEntry *e = ENTRY(s, i);
  if (!e || e->zone != MTG_Z_BATTLEFIELD || !(e->def->types & T_BATTLE) || p < 0 || p >= s->np) return MTG_EARG;
  e->protector = p;
  return MTG_OK;
}
int mtg_setup_sector(mtg_setup *s, int i, const char *sector) {
  SEntry *e = ENTRY(s, i);
  int v = sector ? ct_sector_parse(sector) : -1;
  if (!e || e->zone != MTG_Z_BATTLEFIELD || v < 0) return MTG_EARG; /* 702.158b: only permanents */
  e->sector = v;
  return MTG_OK;
}
int mtg_setup_room(mtg_setup *s, int i, const char *room) {
  SEntry *e = ENTRY(s, i);
  if (!e || !room || !(e->def->types & T_DUNGEON)) return MTG_EARG;
  for (int r = 0; r < e->def->nrooms; r++)
    if (!strcmp(e->def->rooms[r].name, room)) {
      e->room = r;
      return MTG_OK;
    }
  return MTG_EARG;
}
int mtg_setup_outside(mtg_setup *s, int p, const char *card, mtg_error *err) {
  if (p < 0 || p >= s->np) {
    mtg_error_set(err, MTG_EARG, "no player %d", p);
    return MTG_EARG;
  }
  const CardDef *d = pool_find(s->pool, card);
  if (!d) {
    char sug[200];
    mtg_pool_suggest(s->pool, card, sug, sizeof sug);
    mtg_error_set(err, MTG_EDATA, "unknown card '%s'%s%s%s", card, sug[0] ? "; did you mean " : "", sug, sug[0] ? "?" : "");
    return MTG_EDATA;
  }
  if (s->pl[p].noutside >= MAX_OUTSIDE) {
    mtg_error_set(err, MTG_ELIMIT, "at most %d cards outside the game per player", MAX_OUTSIDE);
    return MTG_ELIMIT;
  }
  s->pl[p].outside[s->pl[p].noutside++] = d;
  return MTG_OK;
}
int mtg_setup_player_counters(mtg_setup *s, int p, const char *kind, int n) {
  if (p < 0 || p >= s->np || n < 0 || s->pl[p].nc >= MAX_CKINDS || strlen(kind) >= sizeof s->pl[p].c[0].kind) return MTG_EARG;
  snprintf(s->pl[p].c[s->pl[p].nc].kind, sizeof s->pl[p].c[0].kind, "%s", kind);
  s->pl[p].c[s->pl[p].nc].n = n;
  s->pl[p].nc++;
  return MTG_OK;
}
int mtg_setup_lands_played(mtg_setup *s, int p, int n) {
  if (p < 0 || p >= s->np || n < 0) return MTG_EARG;
  s->pl[p].lands = n;
  return MTG_OK;
}

static const char *intern(G *g, const char *v) {
  for (int i = 0; i < g->nstrs; i++)
    if (!strcmp(g->strs[i], v)) return g->strs[i];
  if (g->nstrs >= NELEM(g->strs)) return NULL;
  snprintf(g->strs[g->nstrs], sizeof *g->strs, "%s", v);
  return g->strs[g->nstrs++];
}

int setup_build(G *g, const mtg_setup *su, mtg_error *err) {
  State *s = g->s;
  Core *c = &s->c;
  g->pool = su->pool;
  g->hyp_slot = -1;
  if (su->np < 2) {
    mtg_error_set(err, MTG_EDATA, "a game needs 2 to 4 players, the setup has %d", su->np);
    return MTG_EDATA;
  }
  c->np = (uint8_t)su->np;
  rng_seed(c->rng, su->seed);
  static const char *const base_counters[] = {"+1/+1", "-1/-1", "loyalty", "poison"};
  for (int i = 0; i < 4; i++) snprintf(c->cnames[i], sizeof c->cnames[i], "%s", base_counters[i]);
  c->ncnames = 4;
  c->max_turns = su->max_turns;
  g->budget = su->budget;
  for (int p = 0; p < su->np; p++) {
    Player *pl = &c->pl[p];
    snprintf(pl->name, sizeof pl->name, "%s", su->pl[p].name);
    pl->life = su->pl[p].life;
    pl->lands_played = (int16_t)su->pl[p].lands;
    for (int k = 0; k < su->pl[p].noutside; k++) c->outside[p][k] = su->pl[p].outside[k];
    c->noutside[p] = (uint8_t)su->pl[p].noutside;
    pl->team = (uint8_t)su->pl[p].team;
    for (int k = 0; k < su->pl[p].nc; k++) counters_add(pl->c, &pl->nc, ckind_id(g, su->pl[p].c[k].kind), su->pl[p].c[k].n);
  }
  if (su->start_set) {
    if (su->active < 0 || su->active >= su->np) {
      mtg_error_set(err, MTG_EDATA, "active player %d does not exist", su->active);
      return MTG_EDATA;
    }
    c->turn = su->turn > 0 ? su->turn : 1;
    c->turn_seq = 1;
    c->active = c->in_order = (uint8_t)su->active;
    c->step = (uint8_t)su->step;
    c->stage = SG_STEP_BEGIN;
    c->begun = 1;
    c->pl[su->active].turn_started = 1;
  } else {
    c->turn = 0;
    c->turn_seq = 0;
    c->active = 0;
    c->stage = SG_TURN_BEGIN;
    c->skip_first_draw = 1;
  }
  int slots[MAX_SLOTS];
  for (int i = 0; i < su->ne; i++) {
    const SEntry *e = &su->e[i];
    int slot = slot_alloc(g);
    Obj *o = &s->obj[slot];
    memset(o, 0, sizeof *o);
    o->id = new_id(g);
    o->ts = new_ts(g);
    o->card = slot;
    o->def = e->def;
    o->owner = (uint8_t)e->player;
    o->controller = (uint8_t)(e->zone == MTG_Z_BATTLEFIELD && e->controller >= 0 ? e->controller : e->player);
    o->zone = (uint8_t)e->zone;
    o->kind = OK_CARD;
    o->attached = oref_none();
    o->attached_player = -1;
    o->atk_player = -1;
    o->atk_obj = o->block_of = oref_none();
    o->loyalty_turn = -1;
    o->ctl_since = e->sick ? c->turn_seq : -1;
    /* a scheme, plane or phenomenon in the command zone starts in its owner's deck,
     * face down (901.4, 904.4), unless the setup turns it face up */
    int deck_card = e->zone == MTG_Z_COMMAND && (e->def->types & T_VARIANT_CARD);
    int fd = e->face_down >= 0 ? e->face_down : deck_card;
    o->face_down = (uint8_t)(fd && (e->zone == MTG_Z_BATTLEFIELD || deck_card));
    o->transformed = (uint8_t)e->transformed;
    if (e->zone == MTG_Z_BATTLEFIELD) {
      o->tapped = (uint8_t)e->tapped;
      o->damage = e->damage;
      int has_loyalty = 0, has_defense = 0, has_lore = 0;
      for (int k = 0; k < e->nc; k++) {
        counters_add(o->c, &o->nc, ckind_id(g, e->c[k].kind), e->c[k].n);
        has_loyalty |= !strcmp(e->c[k].kind, "loyalty");
        has_defense |= !strcmp(e->c[k].kind, "defense");
        has_lore |= !strcmp(e->c[k].kind, "lore");
      }
      /* 306.5b: a planeswalker starts with its printed loyalty */
      if (e->def->has_loyalty && !has_loyalty) counters_add(o->c, &o->nc, CN_LOYALTY, e->def->loyalty);
      /* 310.4b, 714.3a: a battle with its printed defense, a Saga with its first lore counter */
      if ((e->def->types & T_BATTLE) && !has_defense) counters_add(o->c, &o->nc, ckind_id(g, "defense"), e->def->defense);
      int saga = 0;
      for (int k = 0; k < e->def->nsub; k++) saga |= !strcmp(e->def->subtypes[k], "Saga");
      if (saga && (e->def->types & T_ENCHANTMENT) && !has_lore) counters_add(o->c, &o->nc, ckind_id(g, "lore"), 1);
      o->protector = (uint8_t)(e->protector + 1);
      o->sector = (uint8_t)e->sector;
    } else {
      for (int k = 0; k < e->nc; k++) counters_add(o->c, &o->nc, ckind_id(g, e->c[k].kind), e->c[k].n);
    }
    if (e->def->types & T_DUNGEON) o->room = (uint8_t)(e->room >= 0 ? e->room + 1 : 1); /* 309.4a: topmost by default */
    zl_insert(g, e->zone, zone_owner_list(e->zone) ? e->player : 0, slot, -1);
    slots[i] = slot;
  }
  c->v.kind = (uint8_t)su->variants;
  for (int i = 0; i < su->ne; i++) {
    if (!su->e[i].commander) continue;
    /* 903.3: the designation belongs to the physical card */
    Variant *v = &c->v;
    v->cmd_card[v->ncmd] = (int16_t)s->obj[slots[i]].card;
    v->cmd_owner[v->ncmd] = (uint8_t)su->e[i].player;
    for (int k = 0; k < su->ncdmg; k++)
      if (su->cdmg[k].entry == i) v->cmd_dmg[su->cdmg[k].player][v->ncmd] = su->cdmg[k].n;
    v->ncmd++;
  }
  {
    int rc = var_init(g, err);
    if (rc) return rc;
  }
  for (int i = 0; i < su->ne; i++) {
    const SEntry *e = &su->e[i];
    Obj *o = &s->obj[slots[i]];
    if (e->attach >= 0) o->attached = oref(g, slots[e->attach]);
    if (e->attach_player >= 0) o->attached_player = (int8_t)e->attach_player;
    if (e->exiled_by >= 0) {
      /* the exiler's name is kept: 607.2n links by name to cards exiled before the game */
      const char *label = intern(g, e->exiled_label);
      Obj *by = &s->obj[slots[e->exiled_by]];
      if (label) link_add(g, by->id, 0, label, LK_OBJ, 0, by->def->name, oref(g, slots[i]));
    }
    /* a choice no "as this enters" ability of the card makes can only have
     * been made before the game (607.2p): it follows the card across zones */
    for (int k = 0; k < e->nch; k++) {
      const char *key = intern(g, e->ch[k].key), *val = e->ch[k].val;
      if (!key) continue;
      int from_entering = 0;
      for (int a = 0; a < o->def->nab; a++) {
        const Ability *ab = &o->def->ab[a];
        if (ab->kind == AB_REPLACEMENT && ab->rp.act == RA_ETB_CHOOSE && ab->rp.label && !strcmp(ab->rp.label, key))
          from_entering = 1;
      }
      int before = s->c.nlink;
      int col = color_parse(val), pl = -1;
      for (int p = 0; p < su->np; p++)
        if (!strcmp(su->pl[p].name, val)) pl = p;
      if (col >= 0) link_add(g, o->id, 0, key, LK_VALUE, col, NULL, oref_none());
      else if (pl >= 0) link_add(g, o->id, 0, key, LK_VALUE, pl, NULL, oref_none());
      else {
        char *end;
        long v = strtol(val, &end, 10);
        if (*val && !*end) link_add(g, o->id, 0, key, LK_VALUE, (int32_t)v, NULL, oref_none());
        else link_add(g, o->id, 0, key, LK_NAME, 0, intern(g, val), oref_none());
      }
      if (!from_entering && s->c.nlink > before) s->link[s->c.nlink - 1].follows_card = 1;
    }
  }
  char names[160] = "";
  for (int p = 0; p < su->np; p++) {
    size_t u = strlen(names);
    snprintf(names + u, sizeof names - u, "%s%s", p ? "," : "", su->pl[p].name);
  }
  log_line(g, 0, "game_start players=%s seed=%llu rules=%s", names, (unsigned long long)su->seed, MTG_RULES_EFFECTIVE);
  if (su->shuffle)
    for (int p = 0; p < su->np; p++) {
      Event e;
      ev_init(&e, EV_SHUFFLE);
      e.player = (int8_t)p;
      perform(g, &e, 1);
      log_event(g, &e);
    }
  if (su->opening > 0)
    for (int p = 0; p < su->np; p++) {
      int n = 0;
      for (int k = 0; k < su->opening && zl_count(g, MTG_Z_LIBRARY, p); k++, n++)
        zone_move(g, zl_list(g, MTG_Z_LIBRARY, p)[0], MTG_Z_HAND, 0, -1);
      log_line(g, 0, "opening_hand player=%s n=%d rule=103.5", su->pl[p].name, n);
    }
  chars_dirty(g);
  trig_index_dirty(g);
  return MTG_OK;
}

/* ---- canonical text form ---- */

static size_t put(char *buf, size_t size, size_t u, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static size_t put(char *buf, size_t size, size_t u, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int w = vsnprintf(u < size ? buf + u : NULL, u < size ? size - u : 0, fmt, ap);
  va_end(ap);
  return w > 0 ? u + (size_t)w : u;
}

static size_t put_quoted(char *buf, size_t size, size_t u, const char *s) {
  u = put(buf, size, u, "\"");
  for (; *s; s++) u = put(buf, size, u, "%s%c", *s == '"' || *s == '\\' ? "\\" : "", *s);
  return put(buf, size, u, "\"");
}

int mtg_setup_write(const mtg_setup *s, char *buf, size_t size) {
  size_t u = 0;
  if (size) buf[0] = 0;
  for (int p = 0; p < s->np; p++) {
    u = put(buf, size, u, "player %s %d\n", s->pl[p].name, s->pl[p].life);
    for (int k = 0; k < s->pl[p].nc; k++) u = put(buf, size, u, "player_counter %s %s %d\n", s->pl[p].name, s->pl[p].c[k].kind, s->pl[p].c[k].n);
    if (s->pl[p].lands) u = put(buf, size, u, "lands_played %s %d\n", s->pl[p].name, s->pl[p].lands);
    for (int k = 0; k < s->pl[p].noutside; k++) {
      u = put(buf, size, u, "outside %s ", s->pl[p].name);
      u = put_quoted(buf, size, u, s->pl[p].outside[k]->name);
      u = put(buf, size, u, "\n");
    }
  }
  for (int i = 0; i < NELEM(variant_names); i++)
    if (s->variants >> i & 1) u = put(buf, size, u, "variant %s\n", variant_names[i]);
  for (int p = 0; p < s->np; p++)
    if (s->pl[p].team) u = put(buf, size, u, "team %s %d\n", s->pl[p].name, s->pl[p].team);
  u = put(buf, size, u, "seed %llu\n", (unsigned long long)s->seed);
  if (s->start_set) u = put(buf, size, u, "start %s %d %s\n", s->pl[s->active].name, s->turn, mtg_step_name(s->step));
  u = put(buf, size, u, "opening %d\nshuffle %d\nmax_turns %d\n", s->opening, s->shuffle, s->max_turns);
  for (int i = 0; i < s->ne; i++) {
    const SEntry *e = &s->e[i];
    u = put(buf, size, u, "card %s %s ", s->pl[e->player].name, mtg_zone_name(e->zone));
    u = put_quoted(buf, size, u, e->def->name);
    if (e->tapped) u = put(buf, size, u, " tapped");
    if (e->face_down == 1) u = put(buf, size, u, " face_down");
    if (e->face_down == 0) u = put(buf, size, u, " face_up");
    if (e->commander) u = put(buf, size, u, " commander");
    if (e->transformed) u = put(buf, size, u, " transformed");
    if (e->exiled_by >= 0) u = put(buf, size, u, " exiled_with=%d:%s", e->exiled_by, e->exiled_label);
    if (e->sick) u = put(buf, size, u, " sick");
    if (e->damage) u = put(buf, size, u, " damage=%d", e->damage);
    if (e->controller >= 0) u = put(buf, size, u, " controller=%s", s->pl[e->controller].name);
    if (e->attach >= 0) u = put(buf, size, u, " attach=%d", e->attach);
    if (e->attach_player >= 0) u = put(buf, size, u, " attach_player=%s", s->pl[e->attach_player].name);
    if (e->protector >= 0) u = put(buf, size, u, " protector=%s", s->pl[e->protector].name);
    if (e->sector) u = put(buf, size, u, " sector=%s", ct_sector_name(e->sector));
    if (e->room >= 0) {
      u = put(buf, size, u, " room=");
      u = put_quoted(buf, size, u, e->def->rooms[e->room].name);
    }
    for (int k = 0; k < e->nc; k++) u = put(buf, size, u, " counter=%s:%d", e->c[k].kind, e->c[k].n);
    for (int k = 0; k < e->nch; k++) {
      u = put(buf, size, u, " choice=%s:", e->ch[k].key);
      u = put_quoted(buf, size, u, e->ch[k].val);
    }
    u = put(buf, size, u, "\n");
  }
  for (int k = 0; k < s->ncdmg; k++)
    u = put(buf, size, u, "commander_damage %s %d %d\n", s->pl[s->cdmg[k].player].name, s->cdmg[k].entry, s->cdmg[k].n);
  return (int)u;
}

/* a token: up to the next space outside quotes; quotes are removed and \"
 * and \\ inside them escape */
static const char *token(const char *p, char *out, size_t n, int *ok) {
  size_t k = 0;
  int inq = 0;
  while (*p == ' ') p++;
  while (*p && *p != '\n' && (inq || *p != ' ')) {
    if (*p == '"') {
      inq = !inq;
      p++;
      continue;
    }
    if (inq && *p == '\\' && p[1]) p++;
    if (k + 1 < n) out[k++] = *p;
    p++;
  }
  if (inq) *ok = 0;
  out[k] = 0;
  return p;
}

static int player_by_name(const mtg_setup *s, const char *n) {
  for (int p = 0; p < s->np; p++)
    if (!strcmp(s->pl[p].name, n)) return p;
  return -1;
}

int mtg_setup_read(const mtg_pool *pool, const char *name, const char *text, mtg_setup **out, mtg_error *err) {
  *out = NULL;
  mtg_setup *s = mtg_setup_new(pool);
  if (!s) {
    mtg_error_set(err, MTG_ENOMEM, "out of memory");
    return MTG_ENOMEM;
  }
  s->opening = 0;
  s->shuffle = 0;
  int line = 0;
  const char *p = text;
  char w[5][128];
  /* attachments and "exiled with" may name a card listed later: kept until
   * every card is read */
  struct fwd { int entry, target, line; char link[64]; } *fw = NULL;
  int nfw = 0, capfw = 0;
  while (*p) {
    line++;
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p) : strlen(p);
    char rec[1024];
    if (len >= sizeof rec) goto bad;
    memcpy(rec, p, len);
    rec[len] = 0;
    p = eol ? eol + 1 : p + len;
    if (!rec[0]) continue;
    int ok = 1;
    const char *q = token(rec, w[0], sizeof *w, &ok);
    if (!strcmp(w[0], "player")) {
      q = token(q, w[1], sizeof *w, &ok);
      q = token(q, w[2], sizeof *w, &ok);
      if (mtg_setup_player(s, w[1], atoi(w[2]), 0) < 0) goto bad;
    } else if (!strcmp(w[0], "player_counter") || !strcmp(w[0], "lands_played")) {
      q = token(q, w[1], sizeof *w, &ok);
      int pl = player_by_name(s, w[1]);
      q = token(q, w[2], sizeof *w, &ok);
      if (!strcmp(w[0], "lands_played")) {
        if (mtg_setup_lands_played(s, pl, atoi(w[2]))) goto bad;
      } else {
        q = token(q, w[3], sizeof *w, &ok);
        if (mtg_setup_player_counters(s, pl, w[2], atoi(w[3]))) goto bad;
      }
    } else if (!strcmp(w[0], "outside")) {
      q = token(q, w[1], sizeof *w, &ok);
      q = token(q, w[2], sizeof *w, &ok);
      if (!ok || mtg_setup_outside(s, player_by_name(s, w[1]), w[2], NULL)) goto bad;
    } else if (!strcmp(w[0], "variant")) {
      q = token(q, w[1], sizeof *w, &ok);
      if (mtg_setup_variant(s, w[1])) goto bad;
    } else if (!strcmp(w[0], "team") || !strcmp(w[0], "commander_damage")) {
      q = token(q, w[1], sizeof *w, &ok);
      q = token(q, w[2], sizeof *w, &ok);
      int pl = player_by_name(s, w[1]);
      if (w[0][0] == 't') {
        if (mtg_setup_team(s, pl, atoi(w[2]))) goto bad;
      } else {
        q = token(q, w[3], sizeof *w, &ok);
        if (mtg_setup_commander_damage(s, pl, atoi(w[2]), atoi(w[3]))) goto bad;
      }
    } else if (!strcmp(w[0], "seed")) {
      q = token(q, w[1], sizeof *w, &ok);
      s->seed = strtoull(w[1], NULL, 10);
    } else if (!strcmp(w[0], "start")) {
      q = token(q, w[1], sizeof *w, &ok);
      q = token(q, w[2], sizeof *w, &ok);
      q = token(q, w[3], sizeof *w, &ok);
      int pl = player_by_name(s, w[1]), st = mtg_step_parse(w[3]);
      if (pl < 0 || st < 0) goto bad;
      int o = s->opening, sh = s->shuffle;
      mtg_setup_start(s, pl, atoi(w[2]), st);
      s->opening = o;
      s->shuffle = sh;
    } else if (!strcmp(w[0], "opening") || !strcmp(w[0], "shuffle") || !strcmp(w[0], "max_turns")) {
      q = token(q, w[1], sizeof *w, &ok);
      int v = atoi(w[1]);
      if (w[0][0] == 'o') s->opening = v;
      else if (w[0][0] == 's') s->shuffle = v;
      else s->max_turns = v;
    } else if (!strcmp(w[0], "card")) {
      q = token(q, w[1], sizeof *w, &ok);
      q = token(q, w[2], sizeof *w, &ok);
      q = token(q, w[3], sizeof *w, &ok);
      int pl = player_by_name(s, w[1]), z = mtg_zone_parse(w[2]);
      if (!ok || pl < 0 || z < 0) goto bad;
      int e = mtg_setup_card(s, pl, z, w[3], err);
      if (e < 0) {
        if (err) {
          snprintf(err->file, sizeof err->file, "%s", name);
          err->line = line;
        }
        mtg_setup_free(s);
        return e;
      }
      for (;;) {
        q = token(q, w[4], sizeof *w, &ok);
        if (!w[4][0]) break;
        char *eq = strchr(w[4], '=');
        const char *v = eq ? eq + 1 : "";
        if (eq) *eq = 0;
        int rc = 0;
        if (!strcmp(w[4], "tapped")) rc = mtg_setup_tapped(s, e, 1);
        else if (!strcmp(w[4], "sick")) rc = mtg_setup_sick(s, e, 1);
        else if (!strcmp(w[4], "face_down")) rc = mtg_setup_face_down(s, e, 1);
        else if (!strcmp(w[4], "face_up")) rc = mtg_setup_face_down(s, e, 0);
        else if (!strcmp(w[4], "commander")) rc = mtg_setup_commander(s, e);
        else if (!strcmp(w[4], "transformed")) rc = mtg_setup_transformed(s, e, 1);
        else if (!strcmp(w[4], "exiled_with") || !strcmp(w[4], "attach")) {
          const char *colon = strchr(v, ':');
          int ex = w[4][0] == 'e';
          if (ex && (!colon || strlen(colon + 1) >= sizeof fw->link)) goto bad;
          if (nfw == capfw) {
            int cap = capfw ? 2 * capfw : 8;
            struct fwd *nf = realloc(fw, (size_t)cap * sizeof *nf);
            if (!nf) goto bad;
            fw = nf;
            capfw = cap;
          }
          fw[nfw].entry = e;
          fw[nfw].target = ex ? atoi(v) : -1 - atoi(v); /* an attachment's target is stored negative */
          fw[nfw].line = line;
          snprintf(fw[nfw].link, sizeof fw[nfw].link, "%s", ex ? colon + 1 : "");
          nfw++;
        }
        else if (!strcmp(w[4], "damage")) rc = mtg_setup_damage(s, e, atoi(v));
        else if (!strcmp(w[4], "controller")) rc = mtg_setup_controller(s, e, player_by_name(s, v));
        else if (!strcmp(w[4], "attach_player")) rc = mtg_setup_attach_player(s, e, player_by_name(s, v));
        else if (!strcmp(w[4], "protector")) rc = mtg_setup_protector(s, e, player_by_name(s, v));
        else if (!strcmp(w[4], "sector")) rc = mtg_setup_sector(s, e, v);
        else if (!strcmp(w[4], "room")) rc = mtg_setup_room(s, e, v);
        else if (!strcmp(w[4], "counter") || !strcmp(w[4], "choice")) {
          const char *colon = strchr(v, ':');
          if (!colon) goto bad;
          char key[64];
          size_t kl = (size_t)(colon - v);
          if (kl >= sizeof key) goto bad;
          memcpy(key, v, kl);
          key[kl] = 0;
          if (w[4][1] == 'o') rc = mtg_setup_counters(s, e, key, atoi(colon + 1));
          else rc = mtg_setup_choice(s, e, key, colon + 1);
        } else goto bad;
        if (rc) goto bad;
        if (!*q) break;
      }
    } else {
      goto bad;
    }
    if (!ok) goto bad;
  }
  for (int i = 0; i < nfw; i++) {
    int rc = fw[i].target < 0 ? mtg_setup_attach(s, fw[i].entry, -1 - fw[i].target)
                              : mtg_setup_exiled_with(s, fw[i].entry, fw[i].target, fw[i].link);
    if (rc) {
      line = fw[i].line;
      goto bad;
    }
  }
  free(fw);
  *out = s;
  return MTG_OK;
bad:
  free(fw);
  mtg_error_set(err, MTG_EDATA, "malformed setup record");
  if (err) {
    snprintf(err->file, sizeof err->file, "%s", name);
    err->line = line;
  }
  mtg_setup_free(s);
  return MTG_EDATA;
}
