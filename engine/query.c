/* query.c - the public read-only view of a game: the library version, names of zones and steps,
 * players, objects, zone contents, the result, and the state hash. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

static const char *const zone_names[MTG_Z_COUNT] = {"library", "hand", "battlefield", "graveyard",
                                                    "stack", "exile", "command", "ante"};
static const char *const step_names[MTG_S_COUNT] = {"untap", "upkeep", "draw", "main1", "beginning_of_combat",
                                                    "declare_attackers", "declare_blockers", "combat_damage",
                                                    "end_of_combat", "main2", "end", "cleanup"};

const char *mtg_version(void) { return MTG_VERSION; }

const char *mtg_zone_name(int z) { return z >= 0 && z < MTG_Z_COUNT ? zone_names[z] : "none"; }
const char *mtg_step_name(int s) { return s >= 0 && s < MTG_S_COUNT ? step_names[s] : "none"; }

int mtg_zone_parse(const char *n) {
  if (!n) return -1;
  for (int i = 0; i < MTG_Z_COUNT; i++)
    if (!strcmp(zone_names[i], n)) return i;
  return -1;
}

int mtg_step_parse(const char *n) {
  if (!n) return -1;
  for (int i = 0; i < MTG_S_COUNT; i++)
    if (!strcmp(step_names[i], n)) return i;
  if (!strcmp(n, "end_step")) return MTG_S_END;
  if (!strcmp(n, "precombat_main")) return MTG_S_MAIN1;
  if (!strcmp(n, "postcombat_main")) return MTG_S_MAIN2;
  return -1;
}

/* A NULL game is misuse: queries answer MTG_EARG (mtg.h), never crash. */
int mtg_game_players(const mtg_game *g) { return g ? g->s->c.np : MTG_EARG; }
int mtg_game_turn(const mtg_game *g) { return g ? g->s->c.turn : MTG_EARG; }
int mtg_game_step(const mtg_game *g) { return g ? g->s->c.step : MTG_EARG; }
int mtg_game_active(const mtg_game *g) { return g ? g->s->c.active : MTG_EARG; }

void mtg_game_result(const mtg_game *g, mtg_result *r) {
  if (!r) return;
  if (!g) {
    memset(r, 0, sizeof *r);
    return;
  }
  const Core *c = &g->s->c;
  memset(r, 0, sizeof *r);
  r->over = c->over;
  r->stopped = c->stopped;
  r->draw = c->draw_game;
  for (int p = 0; p < c->np; p++) {
    if (c->pl[p].won) r->winners |= 1u << p;
    if (c->pl[p].lost) r->losers |= 1u << p;
  }
}

int mtg_player_find(const mtg_game *g, const char *name) {
  if (!g || !name) return -1;
  for (int p = 0; p < g->s->c.np; p++)
    if (!strcmp(g->s->c.pl[p].name, name)) return p;
  return -1;
}

const char *mtg_player_name(const mtg_game *gc, int p) {
  const G *g = (const G *)gc;
  return g && p >= 0 && p < g->s->c.np ? g->s->c.pl[p].name : NULL;
}

int mtg_player_info(const mtg_game *gc, int p, mtg_player *out) {
  G *g = (G *)gc;
  if (!g || !out || p < 0 || p >= g->s->c.np) return MTG_EARG;
  const Player *pl = &g->s->c.pl[p];
  memset(out, 0, sizeof *out);
  out->name = pl->name;
  out->life = pl->life;
  out->poison = counters_get(pl->c, pl->nc, CN_POISON);
  out->lost = pl->lost;
  out->won = pl->won;
  out->left = pl->left;
  out->hand = zl_count(g, MTG_Z_HAND, p);
  out->library = zl_count(g, MTG_Z_LIBRARY, p);
  out->graveyard = zl_count(g, MTG_Z_GRAVEYARD, p);
  out->drew_from_empty = pl->drew_empty;
  out->lands_played = pl->lands_played;
  out->speed = pl->speed;
  out->dungeons_completed = pl->dungeons_done;
  out->team = pl->team;
  for (int i = 0; i < COL_COUNT; i++) out->mana[i] = pl->mana[i];
  out->hand_revealed = rule_effect(g, SE_HAND_REVEALED, p, -1, NULL, NULL);
  return MTG_OK;
}

int mtg_zone_objects(const mtg_game *gc, int player, int zone, uint32_t *ids, int max) {
  G *g = (G *)gc;
  if (!g || (!ids && max > 0)) return MTG_EARG;
  State *s = g->s;
  int n = 0;
  if (zone == MTG_Z_STACK) {
    for (int i = 0; i < s->c.nstack; i++) {
      if (player >= 0 && s->stack[i].controller != player) continue;
      if (n < max) ids[n] = s->stack[i].id;
      n++;
    }
    return n;
  }
  if (zone < 0 || zone >= MTG_Z_COUNT) return 0;
  if (zone_owner_list(zone)) {
    if (player < 0 || player >= s->c.np) return 0;
    int cnt = zl_count(g, zone, player);
    int16_t *l = zl_list(g, zone, player);
    for (int i = 0; i < cnt; i++) {
      if (n < max) ids[n] = s->obj[l[i]].id;
      n++;
    }
    return n;
  }
  int cnt = zl_count(g, zone, 0);
  int16_t *l = zl_list(g, zone, 0);
  for (int i = 0; i < cnt; i++) {
    const Obj *o = &s->obj[l[i]];
    int who = zone == MTG_Z_BATTLEFIELD ? obj_controller(g, l[i]) : o->owner;
    if (player >= 0 && who != player) continue;
    if (n < max) ids[n] = o->id;
    n++;
  }
  return n;
}

static void type_line(G *g, const Chars *c, char *buf, size_t n) {
  static const char *const sup[] = {"Basic", "Legendary", "Snow", "World", "Ongoing"};
  static const char *const typ[N_CARD_TYPES] = {"Artifact", "Battle", "Creature", "Enchantment", "Instant", "Kindred", "Land", "Planeswalker", "Sorcery",
                                                "Dungeon", "Plane", "Phenomenon", "Scheme"};
  size_t u = 0;
  buf[0] = 0;
#define APPEND(sep, word)                                                       \
  do {                                                                          \
    for (const char *q_ = (sep); *q_ && u + 1 < n; q_++) buf[u++] = *q_;        \
    for (const char *q_ = (word); *q_ && u + 1 < n; q_++) buf[u++] = *q_;       \
    buf[u] = 0;                                                                 \
  } while (0)
  for (int i = 0; i < NELEM(sup); i++)
    if (c->supers >> i & 1) APPEND(u ? " " : "", sup[i]);
  for (int i = 0; i < NELEM(typ); i++)
    if (c->types >> i & 1) APPEND(u ? " " : "", typ[i]);
  for (int i = 0; i < c->nsub; i++) APPEND(i ? " " : " - ", c->sub[i]);
#undef APPEND
  (void)g;
}

int mtg_game_objects(const mtg_game *gc, uint32_t *ids, int *cards, int max) {
  if (!gc || ((!ids || !cards) && max > 0)) return MTG_EARG;
  const State *s = ((const G *)gc)->s;
  int n = 0;
  for (int i = 0; i < s->c.nslots; i++) {
    const Obj *o = &s->obj[i];
    if (!o->id) continue;
    if (n < max) {
      ids[n] = o->id;
      cards[n] = o->kind == OK_CARD || o->kind == OK_TOKEN ? o->card : -1;
    }
    n++;
  }
  return n;
}

/* The stack index of the ability (not a spell) with this id, or -1. */
static int ability_on_stack(const State *s, uint32_t id) {
  int si = -1;
  for (int i = 0; i < s->c.nstack; i++)
    if (s->stack[i].id == id && s->stack[i].kind != SI_SPELL) si = i;
  return si;
}

/* Its setup entry: a card's or a token's, -1 for anything else. */
static int obj_card(const Obj *o) { return o->kind == OK_CARD || o->kind == OK_TOKEN ? o->card : -1; }

int mtg_object_card(const mtg_game *gc, uint32_t id) {
  G *g = (G *)gc;
  if (!g || ability_on_stack(g->s, id) >= 0) return -1;
  int slot = obj_by_id(g, id);
  return slot < 0 ? -1 : obj_card(&g->s->obj[slot]);
}

/* an ability on the stack is named by its source, as it last existed */
static const char *stack_ability_name(const StackItem *it) { return it->srcl.name ? it->srcl.name : "ability"; }

const char *mtg_object_name(const mtg_game *gc, uint32_t id) {
  G *g = (G *)gc;
  if (!g) return NULL;
  int si = ability_on_stack(g->s, id);
  if (si >= 0) return stack_ability_name(&g->s->stack[si]);
  int slot = obj_by_id(g, id);
  return slot < 0 ? NULL : chars(g, slot)->name;
}

int mtg_object_info(const mtg_game *gc, uint32_t id, mtg_object *out) {
  G *g = (G *)gc;
  if (!g || !out) return MTG_EARG;
  State *s = g->s;
  memset(out, 0, sizeof *out);
  int si = ability_on_stack(s, id);
  if (si >= 0) {
    StackItem *it = &s->stack[si];
    out->id = id;
    out->card = -1;
    out->name = stack_ability_name(it);
    out->zone = MTG_Z_STACK;
    out->owner = out->controller = it->controller;
    out->attached_player = -1;
    out->protector = out->room = -1;
    snprintf(out->types, sizeof out->types, "%s ability", it->kind == SI_TRIGGERED ? "Triggered" : "Activated");
    return MTG_OK;
  }
  int slot = obj_by_id(g, id);
  if (slot < 0) return MTG_EARG;
  const Obj *o = &s->obj[slot];
  const Chars *c = chars(g, slot);
  out->id = o->id;
  out->card = obj_card(o);
  out->name = c->name;
  out->zone = o->zone;
  out->owner = o->owner;
  out->controller = c->controller;
  out->is_token = o->kind == OK_TOKEN;
  out->is_copy = o->kind == OK_SPELL_COPY || o->kind == OK_CARD_COPY;
  out->face_down = o->face_down;
  out->commander = var_commander(g, slot) >= 0;
  out->power = c->power;
  out->toughness = c->toughness;
  out->loyalty = counters_get(o->c, o->nc, CN_LOYALTY);
  out->tapped = o->tapped;
  out->damage = o->damage;
  out->sick = o->zone == MTG_Z_BATTLEFIELD && obj_sick(g, slot);
  out->attacking = o->attacking;
  out->blocking = o->blocking;
  out->blocked = o->blocked;
  out->attached_to = oref_ok(g, o->attached) ? o->attached.id : 0;
  out->attached_player = o->attached_player;
  for (int i = 0; i < o->nc; i++) { /* o->c holds MAX_CKINDS, MTG_MAX_COUNTER_KINDS, kinds */
    out->counter_kind[i] = ckind_name(g, o->c[i].kind);
    out->counter_n[i] = o->c[i].n;
    out->n_counters++;
  }
  type_line(g, c, out->types, sizeof out->types);
  out->protector = o->protector ? o->protector - 1 : -1;
  out->sector = o->sector ? ct_sector_name(o->sector) : NULL;
  out->room = o->room ? o->room - 1 : -1;
  out->room_name = o->room && o->def->nrooms >= o->room ? o->def->rooms[o->room - 1].name : NULL;
  return MTG_OK;
}

int mtg_counters(const mtg_game *gc, uint32_t id, int player, const char *kind) {
  G *g = (G *)gc;
  if (!g || !kind) return MTG_EARG;
  State *s = g->s;
  int k = -1;
  for (int i = 0; i < s->c.ncnames; i++)
    if (!strcmp(s->c.cnames[i], kind)) k = i;
  if (k < 0) return 0;
  if (!id) {
    if (player < 0 || player >= s->c.np) return 0;
    return counters_get(s->c.pl[player].c, s->c.pl[player].nc, k);
  }
  int slot = obj_by_id(g, id);
  return slot < 0 ? 0 : counters_get(s->obj[slot].c, s->obj[slot].nc, k);
}

uint64_t mtg_game_hash(const mtg_game *g) { return g ? state_hash((G *)g) : 0; }
