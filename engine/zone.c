/* zone.c - objects and zones: slots, the ordered zone lists, moving an object
 * to another zone as a new object (400.7), last known information, and the
 * per-game table of counter kinds. */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "num.h"

int slot_alloc(G *g) {
  State *s = g->s;
  for (int i = 0; i < s->c.nslots; i++)
    if (!s->obj[i].id) return i;
  if (s->c.nslots >= MAX_SLOTS) game_limit(g, "objects in the game", MAX_SLOTS);
  return s->c.nslots++;
}

void slot_free(G *g, int slot) {
  State *s = g->s;
  memset(obj_w(g, slot), 0, sizeof s->obj[slot]); /* free: slot_alloc takes it again */
  chars_dirty(g);
}

uint32_t new_id(G *g) { return ++g->s->c.next_id; }
uint32_t new_ts(G *g) { return ++g->s->c.next_ts; }

int obj_by_id(G *g, uint32_t id) {
  if (!id) return -1;
  State *s = g->s;
  int16_t *hint = &g->w->id_hint[id & (ID_HINTS - 1)];
  if (*hint < s->c.nslots && s->obj[*hint].id == id) return *hint;
  for (int i = 0; i < s->c.nslots; i++)
    if (s->obj[i].id == id) {
      *hint = (int16_t)i;
      return i;
    }
  return -1;
}

int16_t *zl_list(G *g, int zone, int player) {
  int i = zl_index(zone, player);
  return i < 0 ? NULL : g->s->zl[i];
}

int zl_count(G *g, int zone, int player) {
  int i = zl_index(zone, player);
  return i < 0 ? 0 : g->s->c.zn[i];
}

static void list_insert(G *g, int i, int slot, int pos) {
  int16_t *l = g->s->zl[i];
  int n = g->s->c.zn[i];
  if (n >= MAX_SLOTS) game_limit(g, "objects in one zone", MAX_SLOTS);
  if (pos < 0 || pos > n) pos = n;
  memmove(l + pos + 1, l + pos, (size_t)(n - pos) * sizeof *l);
  l[pos] = (int16_t)slot;
  g->s->c.zn[i] = (int16_t)(n + 1);
}

static void list_remove(G *g, int i, int slot) {
  int16_t *l = g->s->zl[i];
  int n = g->s->c.zn[i];
  for (int k = 0; k < n; k++)
    if (l[k] == slot) {
      memmove(l + k, l + k + 1, (size_t)(n - k - 1) * sizeof *l);
      g->s->c.zn[i] = (int16_t)(n - 1);
      return;
    }
}

void zl_insert(G *g, int zone, int player, int slot, int pos) {
  int i = zl_index(zone, player);
  if (i >= 0) list_insert(g, i, slot, pos);
}

void zl_remove(G *g, int zone, int player, int slot) {
  int i = zl_index(zone, player);
  if (i >= 0) list_remove(g, i, slot);
}

int bf_count(G *g) { return g->s->c.zn[ZL_BATTLEFIELD]; }
int16_t *bf_list(G *g) { return g->s->zl[ZL_BATTLEFIELD]; }
int cmd_count(G *g) { return g->s->c.zn[ZL_COMMAND]; }
int16_t *cmd_list(G *g) { return g->s->zl[ZL_COMMAND]; }
void cmd_insert(G *g, int slot, int pos) { list_insert(g, ZL_COMMAND, slot, pos); }
void cmd_remove(G *g, int slot) { list_remove(g, ZL_COMMAND, slot); }

int zone_owner_list(int zone) {
  return zone == MTG_Z_LIBRARY || zone == MTG_Z_HAND || zone == MTG_Z_GRAVEYARD;
}

static int list_player(const Obj *o, int zone) { return zone_owner_list(zone) ? o->owner : 0; }

int zone_move(G *g, int slot, int zone, int lib_pos, int controller) {
  State *s = g->s;
  Obj *o = obj_w(g, slot);
  int from = o->zone;
  if (from != MTG_Z_STACK) zl_remove(g, from, list_player(o, from), slot);
  Obj old = *o;
  o->id = new_id(g);
  /* 607.2p: a choice made before the game stays with the card in every zone */
  for (int i = 0; i < s->c.nlink; i++)
    if (s->link[i].follows_card && s->link[i].oid == old.id) s->link[i].oid = o->id;
  o->ts = new_ts(g);
  /* 608.3f, 707.10f: a copy of a permanent spell becomes a token as it enters */
  if (o->kind == OK_SPELL_COPY && from == MTG_Z_STACK && zone == MTG_Z_BATTLEFIELD) o->kind = OK_TOKEN;
  o->zone = (uint8_t)zone;
  o->tapped = 0;
  o->damage = 0;
  o->dt_hit = 0;
  o->fs_dealt = 0;
  o->nc = 0; /* the counters past nc are never read */
  o->attached = oref_none();
  o->attached_player = -1;
  o->attacking = o->blocked = o->blocking = 0;
  o->atk_player = -1;
  o->atk_obj = oref_none();
  o->block_of = oref_none();
  o->band = 0;
  o->face_down = 0;
  o->manifested = 0;
  o->adventured = 0;
  o->flipped = 0; /* 710.4: no memory of its status */
  o->phased_out = 0;
  o->phased_indirectly = 0;
  o->copy_of = NULL;
  o->copy_sub = NULL;
  o->loyalty_turn = -1;
  o->entered_with = 0;
  o->abil_used[0] = o->abil_used[1] = 0;
  memset(o->resolved, 0, sizeof o->resolved);
  o->protector = o->sector = o->room = 0; /* designations don't follow it (400.7, 702.158b) */
  /* nor do monstrous, renowned, saddled, exerted and a level (400.7: a new
   * object; 701.37b, 702.112b, 702.171b, 701.43, 716.2b) */
  o->monstrous = o->renowned = o->saddled = o->exerted = o->class_level = 0;
  o->controller = (uint8_t)(zone == MTG_Z_BATTLEFIELD || zone == MTG_Z_STACK ? (controller >= 0 ? controller : o->owner) : o->owner);
  o->ctl_since = s->c.turn_seq;
  o->ctl_seen = 0;
  o->paired = oref_none(); /* 702.95e: a new object is unpaired */
  /* 400.7d: a permanent knows how the spell it was was cast */
  if (!(from == MTG_Z_STACK && zone == MTG_Z_BATTLEFIELD)) {
    o->x = 0;
    o->kicked = 0;
    o->cast_zone = 0;
    o->paid = 0;
    o->addl_paid = 0;
    o->alt = 0;
    o->kick_n = 0;
    o->suspend_haste = 0; /* 702.62a: the spell's haste follows it only to the permanent it becomes */
  }
  o->face = 0;     /* a split card or adventurer is whole again off the stack (709.4, 715.4) */
  o->foretold = 0; /* a new object is not foretold (702.143c) */
  o->transformed = 0; /* 712.8: a double-faced card enters a zone front face up */
  (void)old;
  if (zone != MTG_Z_STACK) {
    int pos = -1;
    if (zone == MTG_Z_LIBRARY) pos = lib_pos == 1 ? -1 : 0;
    zl_insert(g, zone, list_player(o, zone), slot, pos);
  }
  chars_dirty(g);
  /* a card moving between hidden zones (a draw) is in the trigger index
   * neither before nor after (603.2g) */
  int hidden = (from == MTG_Z_LIBRARY || from == MTG_Z_HAND) && (zone == MTG_Z_LIBRARY || zone == MTG_Z_HAND);
  if (!hidden) trig_index_dirty(g);
  return slot;
}

/* Every caller names an object in use (oref_ok or the object acting). */
void lki_of(G *g, int slot, Lki *l) {
  memset(l, 0, sizeof *l);
  const Obj *o = &g->s->obj[slot];
  const Chars *c = chars(g, slot);
  l->id = o->id;
  l->slot = (int16_t)slot;
  l->card = o->card;
  l->def = c->base;
  l->name = c->name;
  l->owner = o->owner;
  l->controller = c->controller;
  l->zone = o->zone;
  l->token = o->kind == OK_TOKEN;
  l->types = c->types;
  l->supers = c->supers;
  l->colors = c->colors;
  l->tapped = o->tapped;
  l->has_pt = c->has_pt;
  l->power = c->power;
  l->toughness = c->toughness;
  l->kw = c->kw;
  memcpy(l->c, o->c, sizeof l->c);
  l->nc = o->nc;
  l->damage = o->damage;
  l->class_level = o->class_level;
  l->attached = o->attached;
  l->attached_player = o->attached_player;
  l->mv = c->base ? mana_value(&c->base->cost) + (o->zone == MTG_Z_STACK ? o->x * c->base->cost.x : 0) : 0;
  l->spell = o->zone == MTG_Z_STACK;
  l->kicked = o->kicked;
  l->kick_n = o->kick_n;
  l->addl_paid = o->addl_paid;
  l->alt = o->alt;
  l->cast_zone = o->cast_zone;
  l->kind = o->kind;
  l->attacking = o->attacking;
  l->blocking = o->blocking;
  l->nsub = c->nsub;
  memcpy(l->sub, c->sub, (size_t)c->nsub * sizeof *c->sub);
  l->entered_with = o->entered_with;
}

void lki_keep(G *g, int slot) {
  State *s = g->s;
  uint32_t id = s->obj[slot].id;
  int at = s->c.lki_next;
  for (int i = 0; i < s->c.nlki; i++)
    if (s->lki[i].id == id) at = i; /* already kept in this batch: refresh it */
  lki_of(g, slot, &s->lki[at]);
  g->lki_dirty |= 1u << at; /* the snapshot copies only what changed (game.c) */
  if (at != s->c.lki_next) return;
  s->c.lki_next = (uint16_t)((s->c.lki_next + 1) % MAX_LKI);
  if (s->c.nlki < MAX_LKI) s->c.nlki++;
}

const Lki *lki_find(G *g, uint32_t id) {
  State *s = g->s;
  if (!id) return NULL;
  for (int k = 1; k <= s->c.nlki; k++) {
    const Lki *l = &s->lki[(s->c.lki_next + MAX_LKI - k) % MAX_LKI];
    if (l->id == id) return l;
  }
  return NULL;
}

int ckind_id(G *g, const char *name) {
  Core *c = &g->s->c;
  for (int i = 0; i < c->ncnames; i++)
    if (!strcmp(c->cnames[i], name)) return i;
  if (c->ncnames >= MAX_COUNTER_NAMES) game_limit(g, "kinds of counters in one game", MAX_COUNTER_NAMES);
  snprintf(c->cnames[c->ncnames], sizeof *c->cnames, "%s", name);
  return c->ncnames++;
}

const char *ckind_name(G *g, int k) { return k >= 0 && k < g->s->c.ncnames ? g->s->c.cnames[k] : "?"; }

/* counters of one kind, or with kind -1 of all kinds */
int counters_count(const Counter *c, int nc, int kind) {
  if (kind >= 0) return counters_get(c, nc, kind);
  int n = 0;
  for (int i = 0; i < nc; i++) n += c[i].n > 0 ? c[i].n : 0;
  return n;
}

int counters_get(const Counter *c, int nc, int kind) {
  for (int i = 0; i < nc; i++)
    if (c[i].kind == kind) return c[i].n;
  return 0;
}

void counters_add(Counter *c, uint8_t *nc, int kind, int n) {
  for (int i = 0; i < *nc; i++)
    if (c[i].kind == kind) {
      c[i].n = num_add(c[i].n, n);
      if (c[i].n <= 0) {
        memmove(c + i, c + i + 1, (size_t)(*nc - i - 1) * sizeof *c);
        (*nc)--;
      }
      return;
    }
  if (n <= 0 || *nc >= MAX_CKINDS) return;
  c[*nc].kind = (uint8_t)kind;
  c[*nc].n = n;
  (*nc)++;
}
