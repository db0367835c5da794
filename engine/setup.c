/* setup.c - describing a game before it starts (players, seed, where the
 * game starts, the contents of every zone with per-object state) and
 * building the initial State from that description. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "internal.h"
#include "suggest.h"

#define SETUP_MAX_CHOICES 4

/* The setup's cards leave half the object slots for what the game makes; its
 * text form (mtg_setup_write: per player a line, its counters, lands played
 * and cards outside; variants, teams, seed, start, opening, shuffle,
 * max_turns; a line per card; commander damage) fits MTG_SETUP_MAX_RECORDS. */
_Static_assert(2 * MTG_MAX_SETUP_CARDS <= MAX_SLOTS, "setup cards exceed half the object slots");
_Static_assert(MAX_PLAYERS * (4 + MAX_CKINDS + MAX_OUTSIDE) + 4 + 7 + MTG_MAX_SETUP_CARDS + MAX_PLAYERS * MAX_COMMANDERS <=
                   MTG_SETUP_MAX_RECORDS,
               "the text form of a setup can exceed MTG_SETUP_MAX_RECORDS");

typedef struct SEntry {
  int player, zone;
  const CardDef *def;
  int tapped, sick, damage, controller, attach, attach_player, face_down, transformed, exiled_by;
  int protector, sector, room; /* battle's protector, sector designation, dungeon room: -1 / 0 / -1 for none */
  int commander; /* designated as its owner's commander (903.3) */
  int token;     /* a token with this card's characteristics (111.1), on the battlefield */
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
    int mana[COL_COUNT];                 /* mana in the pool as the game starts: W U B R G C */
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
  long search_budget;                 /* steps of a search for a legal choice, 0: the default */
  SEntry *e;
  int ne, cap;
  char why[256];                      /* why the last refused call was refused (mtg_setup_error) */
};

mtg_setup *mtg_setup_new(const mtg_pool *pool) {
  if (!pool) return NULL;
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

const char *mtg_setup_error(const mtg_setup *s) { return s ? s->why : "the setup is NULL"; }

/* A call refused: the setup keeps why (mtg_setup_error), err too if given. */
static int refuse(mtg_setup *s, mtg_error *err, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static int refuse(mtg_setup *s, mtg_error *err, int status, const char *fmt, ...) {
  char why[sizeof s->why];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  if (s) str_copy(s->why, sizeof s->why, why);
  mtg_error_set(err, status, "%s", why);
  return status;
}

#define NEED(cond, ...)                                \
  do {                                                 \
    if (!(cond)) return refuse(s, NULL, MTG_EARG, __VA_ARGS__); \
  } while (0)

/* Each value the setup stores, checked where it enters (mtg.h: MTG_NUM_MAX). */
static int in_range(mtg_setup *s, mtg_error *err, const char *what, long v, long lo, long hi) {
  if (v >= lo && v <= hi) return MTG_OK;
  return refuse(s, err, MTG_EARG, "%s %ld is out of range (%ld to %ld)", what, v, lo, hi);
}

static int player_ok(mtg_setup *s, mtg_error *err, int p) {
  if (p >= 0 && p < s->np) return MTG_OK;
  return refuse(s, err, MTG_EARG, "no player %d (the setup has %d)", p, s->np);
}

/* A name the setup keeps (counter kind, choice, label): present and short enough. */
static int name_ok(mtg_setup *s, const char *what, const char *v, size_t size) {
  if (!v) return refuse(s, NULL, MTG_EARG, "%s is NULL", what);
  if (!*v) return refuse(s, NULL, MTG_EARG, "%s is empty", what);
  if (strlen(v) >= size) return refuse(s, NULL, MTG_EARG, "%s '%.40s...' is longer than %zu characters", what, v, size - 1);
  return MTG_OK;
}

int mtg_setup_player(mtg_setup *s, const char *name, int life, int poison) {
  NEED(s && name, "mtg_setup_player: %s is NULL", s ? "the name" : "the setup");
  if (s->np >= MAX_PLAYERS) return refuse(s, NULL, MTG_ELIMIT, "at most %d players", MAX_PLAYERS);
  size_t n = strlen(name);
  NEED(n && n < sizeof s->pl->name, "a player's name has 1 to %zu characters", sizeof s->pl->name - 1);
  for (size_t i = 0; i < n; i++)
    NEED(isalnum((unsigned char)name[i]) || name[i] == '_' || name[i] == '-',
         "a player's name uses letters, digits, '_' and '-' only");
  for (int p = 0; p < s->np; p++) NEED(strcmp(s->pl[p].name, name), "there is already a player named %s", name);
  if (in_range(s, NULL, "life", life, -MTG_NUM_MAX, MTG_NUM_MAX) || in_range(s, NULL, "poison", poison, 0, MTG_NUM_MAX))
    return MTG_EARG;
  int p = s->np++;
  memset(&s->pl[p], 0, sizeof s->pl[p]);
  str_copy(s->pl[p].name, sizeof s->pl[p].name, name);
  s->pl[p].life = life;
  if (poison > 0) {
    str_copy(s->pl[p].c[0].kind, sizeof s->pl[p].c[0].kind, "poison");
    s->pl[p].c[0].n = poison;
    s->pl[p].nc = 1;
  }
  return p;
}

int mtg_setup_seed(mtg_setup *s, uint64_t seed) {
  NEED(s, "mtg_setup_seed: the setup is NULL");
  s->seed = seed;
  return MTG_OK;
}

int mtg_setup_start(mtg_setup *s, int active, int turn, int step) {
  NEED(s, "mtg_setup_start: the setup is NULL");
  if (in_range(s, NULL, "the active player", active, 0, MAX_PLAYERS - 1) ||
      in_range(s, NULL, "the turn", turn, 1, MTG_NUM_MAX) || in_range(s, NULL, "the step", step, 0, MTG_S_COUNT - 1))
    return MTG_EARG;
  s->start_set = 1;
  s->active = active;
  s->turn = turn;
  s->step = step;
  s->opening = 0;
  s->shuffle = 0;
  return MTG_OK;
}

/* A setting of the whole setup, checked against its range. */
static int set_num(mtg_setup *s, const char *fn, const char *what, int *field, int v, long lo, long hi) {
  NEED(s, "%s: the setup is NULL", fn);
  if (in_range(s, NULL, what, v, lo, hi)) return MTG_EARG;
  *field = v;
  return MTG_OK;
}

int mtg_setup_opening_hand(mtg_setup *s, int cards) {
  return set_num(s, "mtg_setup_opening_hand", "an opening hand of", s ? &s->opening : NULL, cards, 0, MTG_MAX_SETUP_CARDS);
}

int mtg_setup_shuffle(mtg_setup *s, int yes) {
  NEED(s, "mtg_setup_shuffle: the setup is NULL");
  s->shuffle = yes != 0;
  return MTG_OK;
}

int mtg_setup_max_turns(mtg_setup *s, int turns) {
  return set_num(s, "mtg_setup_max_turns", "max_turns", s ? &s->max_turns : NULL, turns, 0, MTG_NUM_MAX);
}

int mtg_setup_work_budget(mtg_setup *s, long lines) {
  NEED(s, "mtg_setup_work_budget: the setup is NULL");
  NEED(lines >= 0, "a work budget of %ld lines: 0 (none) or more", lines);
  s->budget = lines;
  return MTG_OK;
}

int mtg_setup_search_budget(mtg_setup *s, long steps) {
  NEED(s, "mtg_setup_search_budget: the setup is NULL");
  NEED(steps >= 0 && steps <= 2000000000, "a search budget of %ld steps: 0 (the default) to 2000000000", steps);
  s->search_budget = steps;
  return MTG_OK;
}

/* A card name the pool does not have: the nearest name, if one is near. */
static int unknown_card(mtg_setup *s, mtg_error *err, const char *card) {
  char sug[200];
  mtg_pool_suggest(s->pool, card, sug, sizeof sug);
  if (sug[0]) return refuse(s, err, MTG_EDATA, "unknown card '%s'; did you mean %s?", card, sug);
  return refuse(s, err, MTG_EDATA, "unknown card '%s' (not in the card pool)", card);
}

int mtg_setup_card(mtg_setup *s, int player, int zone, const char *card, mtg_error *err) {
  if (!s || !card) return refuse(s, err, MTG_EARG, "mtg_setup_card: %s is NULL", s ? "the card name" : "the setup");
  if (player < 0 || player >= s->np) return refuse(s, err, MTG_EARG, "no player %d", player);
  if (zone < 0 || zone >= MTG_Z_COUNT || zone == MTG_Z_STACK)
    return refuse(s, err, MTG_EARG, "cards can't start in zone %d", zone);
  const CardDef *d = pool_find(s->pool, card);
  if (!d) return unknown_card(s, err, card);
  if (d->types & T_DUNGEON) {
    /* 309.2c: a dungeon card in the game is in the command zone; 309.3: one per owner */
    if (zone != MTG_Z_COMMAND)
      return refuse(s, err, MTG_EDATA, "dungeon card '%s' can only be in the command zone (309.2c)", card);
    for (int i = 0; i < s->ne; i++)
      if (s->e[i].player == player && (s->e[i].def->types & T_DUNGEON))
        return refuse(s, err, MTG_EDATA, "player %s already has dungeon '%s' in the command zone (309.3)",
                      s->pl[player].name, s->e[i].def->name);
  }
  /* 901.4, 904.4: plane, phenomenon and scheme cards stay in the command zone
   * the whole game, in their deck or face up */
  if ((d->types & T_VARIANT_CARD) && zone != MTG_Z_COMMAND)
    return refuse(s, err, MTG_EDATA, "%s card '%s' can only be in the command zone (%s)",
                  d->types & T_SCHEME ? "scheme" : d->types & T_PLANE ? "plane" : "phenomenon", card,
                  d->types & T_SCHEME ? "904.4" : "901.4");
  if (s->ne >= MTG_MAX_SETUP_CARDS)
    return refuse(s, err, MTG_ELIMIT, "too many cards in the setup (at most %d)", MTG_MAX_SETUP_CARDS);
  if (s->ne == s->cap) {
    int cap = s->cap ? s->cap * 2 : 8; /* an entry is about 700 bytes; most setups are small */
    SEntry *e = realloc(s->e, (size_t)cap * sizeof *e);
    if (!e) return refuse(s, err, MTG_ENOMEM, "out of memory");
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

/* Entry i of the setup, or NULL after refusing the call. */
static SEntry *entry(mtg_setup *s, int i) {
  if (!s) return NULL;
  if (i >= 0 && i < s->ne) return &s->e[i];
  refuse(s, NULL, MTG_EARG, "no entry %d (the setup has %d card%s)", i, s->ne, s->ne == 1 ? "" : "s");
  return NULL;
}

int mtg_setup_tapped(mtg_setup *s, int i, int t) {
  SEntry *e = entry(s, i);
  if (!e) return MTG_EARG;
  e->tapped = t != 0;
  return MTG_OK;
}
int mtg_setup_sick(mtg_setup *s, int i, int v) {
  SEntry *e = entry(s, i);
  if (!e) return MTG_EARG;
  e->sick = v != 0;
  return MTG_OK;
}
int mtg_setup_damage(mtg_setup *s, int i, int d) {
  SEntry *e = entry(s, i);
  if (!e || in_range(s, NULL, "damage", d, 0, MTG_NUM_MAX)) return MTG_EARG;
  e->damage = d;
  return MTG_OK;
}
int mtg_setup_counters(mtg_setup *s, int i, const char *kind, int n) {
  SEntry *e = entry(s, i);
  if (!e || name_ok(s, "a counter kind", kind, sizeof e->c->kind) || in_range(s, NULL, "a number of counters", n, 0, MTG_NUM_MAX))
    return MTG_EARG;
  NEED(e->nc < MAX_CKINDS, "at most %d kinds of counters on a card (MTG_MAX_COUNTER_KINDS)", MAX_CKINDS);
  str_copy(e->c[e->nc].kind, sizeof e->c->kind, kind);
  e->c[e->nc].n = n;
  e->nc++;
  return MTG_OK;
}
int mtg_setup_controller(mtg_setup *s, int i, int p) {
  SEntry *e = entry(s, i);
  if (!e || player_ok(s, NULL, p)) return MTG_EARG;
  e->controller = p;
  return MTG_OK;
}
int mtg_setup_attach(mtg_setup *s, int i, int t) {
  SEntry *e = entry(s, i);
  if (!e || !entry(s, t)) return MTG_EARG;
  NEED(t != i, "entry %d can't be attached to itself", i);
  e->attach = t;
  return MTG_OK;
}
int mtg_setup_attach_player(mtg_setup *s, int i, int p) {
  SEntry *e = entry(s, i);
  if (!e || player_ok(s, NULL, p)) return MTG_EARG;
  e->attach_player = p;
  return MTG_OK;
}
int mtg_setup_choice(mtg_setup *s, int i, const char *key, const char *value) {
  SEntry *e = entry(s, i);
  if (!e || name_ok(s, "a choice's key", key, sizeof e->ch->key)) return MTG_EARG;
  /* the text form writes KEY:"VALUE" among space-separated options: a key is a word */
  for (const char *k = key; *k; k++)
    NEED(isalnum((unsigned char)*k) || *k == '_' || *k == '-', "a choice's key uses letters, digits, '_' and '-' only");
  NEED(value, "a choice's value is NULL");
  NEED(strlen(value) < sizeof e->ch->val, "a choice's value is longer than %zu characters", sizeof e->ch->val - 1);
  NEED(e->nch < SETUP_MAX_CHOICES, "at most %d choices on a card", SETUP_MAX_CHOICES);
  /* a number is kept as a value of the engine's range (setup_build) */
  char *end;
  errno = 0;
  long v = strtol(value, &end, 10);
  if (*value && !*end) NEED(!errno && v >= -MTG_NUM_MAX && v <= MTG_NUM_MAX, "a choice's number %s is out of range", value);
  str_copy(e->ch[e->nch].key, sizeof e->ch->key, key);
  str_copy(e->ch[e->nch].val, sizeof e->ch->val, value);
  e->nch++;
  return MTG_OK;
}
int mtg_setup_face_down(mtg_setup *s, int i, int v) {
  SEntry *e = entry(s, i);
  if (!e) return MTG_EARG;
  e->face_down = v != 0;
  return MTG_OK;
}

/* ---- variants (variant.c, 704.6) ---- */

static const char *const variant_names[] = {"two_headed_giant", "commander", "archenemy", "planechase"};

int mtg_setup_variant(mtg_setup *s, const char *name) {
  NEED(s && name, "mtg_setup_variant: %s is NULL", s ? "the name" : "the setup");
  for (int i = 0; i < NELEM(variant_names); i++)
    if (!strcmp(name, variant_names[i])) {
      s->variants |= 1 << i;
      return MTG_OK;
    }
  return refuse(s, NULL, MTG_EARG, "unknown variant '%s' (two_headed_giant, commander, archenemy, planechase)", name);
}

int mtg_setup_team(mtg_setup *s, int p, int team) {
  NEED(s, "mtg_setup_team: the setup is NULL");
  if (player_ok(s, NULL, p) || in_range(s, NULL, "team", team, 0, MAX_PLAYERS)) return MTG_EARG;
  s->pl[p].team = team;
  return MTG_OK;
}

int mtg_setup_commander(mtg_setup *s, int i) {
  SEntry *e = entry(s, i);
  if (!e) return MTG_EARG;
  /* 903.3: a legendary creature card (or a Vehicle or Spacecraft) */
  int vehicle = 0;
  for (int k = 0; k < e->def->nsub; k++)
    vehicle |= !strcmp(e->def->subtypes[k], "Vehicle") || !strcmp(e->def->subtypes[k], "Spacecraft");
  if (!(e->def->supers & ST_LEGENDARY) || !((e->def->types & T_CREATURE) || vehicle))
    return refuse(s, NULL, MTG_EDATA, "'%s' can't be a commander: a commander is a legendary creature or Vehicle card (903.3)", e->def->name);
  int n = 0;
  for (int k = 0; k < s->ne; k++) n += s->e[k].commander;
  if (!e->commander && n >= MAX_COMMANDERS) return refuse(s, NULL, MTG_ELIMIT, "at most %d commanders", MAX_COMMANDERS);
  /* 702.124a: partner lets a player have two commanders rather than one, if
   * both have it; never a third */
  if (!e->commander) {
    int mine = 0, partners = (int)(e->def->keywords >> KW_PARTNER & 1);
    for (int k = 0; k < s->ne; k++)
      if (s->e[k].commander && s->e[k].player == e->player) {
        mine++;
        partners &= (int)(s->e[k].def->keywords >> KW_PARTNER & 1);
      }
    if (mine >= 2)
      return refuse(s, NULL, MTG_EDATA, "'%s' can't be a third commander of its owner: a player has at most two (702.124a)", e->def->name);
    if (mine && !partners)
      return refuse(s, NULL, MTG_EDATA, "'%s' can't be a second commander of its owner: two commanders need partner, both (702.124a)", e->def->name);
  }
  e->commander = 1;
  return MTG_OK;
}

int mtg_setup_commander_damage(mtg_setup *s, int p, int i, int n) {
  SEntry *e = entry(s, i);
  if (!e || player_ok(s, NULL, p) || in_range(s, NULL, "commander damage", n, 0, MTG_NUM_MAX)) return MTG_EARG;
  NEED(e->commander, "entry %d ('%s') is not a commander", i, e->def->name);
  for (int k = 0; k < s->ncdmg; k++)
    if (s->cdmg[k].player == p && s->cdmg[k].entry == i) {
      s->cdmg[k].n = n;
      return MTG_OK;
    }
  if (s->ncdmg >= NELEM(s->cdmg)) return refuse(s, NULL, MTG_ELIMIT, "too many commander damage records");
  s->cdmg[s->ncdmg].player = p;
  s->cdmg[s->ncdmg].entry = i;
  s->cdmg[s->ncdmg].n = n;
  s->ncdmg++;
  return MTG_OK;
}
int mtg_setup_transformed(mtg_setup *s, int i, int v) {
  SEntry *e = entry(s, i);
  if (!e) return MTG_EARG;
  NEED(!v || e->def->back, "'%s' has no back face to be transformed to (712)", e->def->name);
  e->transformed = v != 0;
  return MTG_OK;
}
int mtg_setup_token(mtg_setup *s, int i, int v) {
  SEntry *e = entry(s, i);
  if (!e) return MTG_EARG;
  NEED(!v || e->zone == MTG_Z_BATTLEFIELD, "'%s': a token exists only on the battlefield (704.5d); put it there", e->def->name);
  e->token = v != 0;
  return MTG_OK;
}
int mtg_setup_exiled_with(mtg_setup *s, int i, int by, const char *label) {
  SEntry *e = entry(s, i);
  if (!e || !entry(s, by) || name_ok(s, "a link label", label, sizeof e->exiled_label)) return MTG_EARG;
  NEED(by != i, "entry %d can't be exiled with itself", i);
  e->exiled_by = by;
  str_copy(e->exiled_label, sizeof e->exiled_label, label);
  return MTG_OK;
}
int mtg_setup_protector(mtg_setup *s, int i, int p) {
  SEntry *e = entry(s, i);
  if (!e || player_ok(s, NULL, p)) return MTG_EARG;
  NEED(e->zone == MTG_Z_BATTLEFIELD && (e->def->types & T_BATTLE), "only a battle on the battlefield has a protector (310.8)");
  e->protector = p;
  return MTG_OK;
}
int mtg_setup_sector(mtg_setup *s, int i, const char *sector) {
  SEntry *e = entry(s, i);
  if (!e) return MTG_EARG;
  int v = sector ? ct_sector_parse(sector) : -1;
  NEED(v != -1, "unknown sector '%s' (alpha, beta or gamma)", sector ? sector : "(null)"); /* 1 to 3, or -1 */
  NEED(e->zone == MTG_Z_BATTLEFIELD, "only a permanent has a sector (702.158b)");
  e->sector = v;
  return MTG_OK;
}
int mtg_setup_room(mtg_setup *s, int i, const char *room) {
  SEntry *e = entry(s, i);
  if (!e) return MTG_EARG;
  NEED(room, "mtg_setup_room: the room is NULL");
  NEED(e->def->types & T_DUNGEON, "'%s' is not a dungeon: it has no rooms (309.4)", e->def->name);
  for (int r = 0; r < e->def->nrooms; r++)
    if (!strcmp(e->def->rooms[r].name, room)) {
      e->room = r;
      return MTG_OK;
    }
  return refuse(s, NULL, MTG_EARG, "'%s' has no room named '%s'", e->def->name, room);
}
int mtg_setup_outside(mtg_setup *s, int p, const char *card, mtg_error *err) {
  if (!s || !card) return refuse(s, err, MTG_EARG, "mtg_setup_outside: %s is NULL", s ? "the card name" : "the setup");
  if (p < 0 || p >= s->np) return refuse(s, err, MTG_EARG, "no player %d", p);
  const CardDef *d = pool_find(s->pool, card);
  if (!d) return unknown_card(s, err, card);
  if (s->pl[p].noutside >= MAX_OUTSIDE)
    return refuse(s, err, MTG_ELIMIT, "at most %d cards outside the game per player", MAX_OUTSIDE);
  s->pl[p].outside[s->pl[p].noutside++] = d;
  return MTG_OK;
}
int mtg_setup_player_counters(mtg_setup *s, int p, const char *kind, int n) {
  NEED(s, "mtg_setup_player_counters: the setup is NULL");
  if (player_ok(s, NULL, p) || name_ok(s, "a counter kind", kind, sizeof s->pl->c->kind) ||
      in_range(s, NULL, "a number of counters", n, 0, MTG_NUM_MAX))
    return MTG_EARG;
  NEED(s->pl[p].nc < MAX_CKINDS, "at most %d kinds of counters on a player (MTG_MAX_COUNTER_KINDS)", MAX_CKINDS);
  str_copy(s->pl[p].c[s->pl[p].nc].kind, sizeof s->pl->c->kind, kind);
  s->pl[p].c[s->pl[p].nc].n = n;
  s->pl[p].nc++;
  return MTG_OK;
}
int mtg_setup_lands_played(mtg_setup *s, int p, int n) {
  NEED(s, "mtg_setup_lands_played: the setup is NULL");
  if (player_ok(s, NULL, p) || in_range(s, NULL, "lands played", n, 0, INT16_MAX)) return MTG_EARG;
  s->pl[p].lands = n;
  return MTG_OK;
}

int mtg_setup_mana(mtg_setup *s, int p, const char *mana) {
  NEED(s, "mtg_setup_mana: the setup is NULL");
  if (player_ok(s, NULL, p)) return MTG_EARG;
  NEED(mana, "mtg_setup_mana: the mana is NULL");
  ManaCost mc;
  memset(&mc, 0, sizeof mc);
  char why[100] = "";
  NEED(!*mana || !mana_parse(mana, &mc, NULL, NULL, why, sizeof why), "mana \"%.40s\": %s", mana, why);
  /* mana in a pool has a color or is colorless; it can't be generic, hybrid or X (106.1) */
  NEED(!mc.generic && !mc.nhybrid && !mc.x, "mana \"%.40s\": write each mana as {W}, {U}, {B}, {R}, {G} or {C}", mana);
  for (int k = 0; k < 5; k++) NEED(!mc.phyrexian[k], "mana \"%.40s\": write each mana as {W}, {U}, {B}, {R}, {G} or {C}", mana);
  for (int k = 0; k < COL_COUNT; k++) s->pl[p].mana[k] = mc.colored[k];
  return MTG_OK;
}

static const char *intern(G *g, const char *v) {
  for (int i = 0; i < g->nstrs; i++)
    if (!strcmp(g->w->strs[i], v)) return g->w->strs[i];
  if (g->nstrs >= NELEM(g->w->strs)) return NULL;
  str_copy(g->w->strs[g->nstrs], sizeof *g->w->strs, v);
  return g->w->strs[g->nstrs++];
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
  for (int i = 0; i < 4; i++) str_copy(c->cnames[i], sizeof c->cnames[i], base_counters[i]);
  c->ncnames = 4;
  c->max_turns = su->max_turns;
  g->budget = su->budget;
  g->search_budget = su->search_budget;
  for (int p = 0; p < su->np; p++) {
    Player *pl = &c->pl[p];
    str_copy(pl->name, sizeof pl->name, su->pl[p].name);
    pl->life = su->pl[p].life;
    pl->lands_played = (int16_t)su->pl[p].lands;
    for (int k = 0; k < COL_COUNT; k++) pl->mana[k] = su->pl[p].mana[k];
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
    c->turn = su->turn; /* 1 or more: mtg_setup_start takes no other */
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
    Obj *o = obj_w(g, slot);
    memset(o, 0, sizeof *o);
    o->id = new_id(g);
    o->ts = new_ts(g);
    o->card = slot;
    o->def = e->def;
    o->owner = (uint8_t)e->player;
    o->controller = (uint8_t)(e->zone == MTG_Z_BATTLEFIELD && e->controller >= 0 ? e->controller : e->player);
    o->zone = (uint8_t)e->zone;
    /* a token keeps the entry's id as its card id, so that labels name it */
    o->kind = e->token ? OK_TOKEN : OK_CARD;
    if (e->token) c->made_noncards = 1;
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
    Obj *o = obj_w(g, slots[i]);
    if (e->attach >= 0) o->attached = oref(g, slots[e->attach]);
    if (e->attach_player >= 0) o->attached_player = (int8_t)e->attach_player;
    if (e->exiled_by >= 0) {
      /* the exiler's name is kept: 607.2n links by name to cards exiled before the game */
      const char *label = intern(g, e->exiled_label);
      const Obj *by = &s->obj[slots[e->exiled_by]];
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
  /* every name (under sizeof su->pl->name) with a comma after it fits */
  char names[MAX_PLAYERS * sizeof su->pl->name] = "";
  for (int p = 0; p < su->np; p++) {
    size_t u = strlen(names);
    if (p) names[u++] = ',';
    str_copy(names + u, sizeof names - u, su->pl[p].name);
  }
  log_line(g, 0, "game_start players=%s seed=%llu rules=%s", names, (unsigned long long)su->seed, MTG_RULES_EFFECTIVE);
  /* control_watch: what the setup gives each player is theirs as the game begins */
  chars_dirty(g);
  for (int i = 0; i < s->c.nslots; i++)
    if (s->obj[i].id && s->obj[i].zone == MTG_Z_BATTLEFIELD) obj_w(g, i)->ctl_seen = (uint8_t)(obj_controller(g, i) + 1);
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
  int w = fmt_v(u < size ? buf + u : NULL, u < size ? size - u : 0, fmt, ap);
  va_end(ap);
  return w > 0 ? u + (size_t)w : u;
}

/* put(buf, size, u, "%c", c) without the formatter: cut to fit as put is */
static size_t put_char(char *buf, size_t size, size_t u, char c) {
  if (u + 1 < size) {
    buf[u] = c;
    buf[u + 1] = 0;
  } else if (u < size) {
    buf[u] = 0;
  }
  return u + 1;
}

static size_t put_quoted(char *buf, size_t size, size_t u, const char *s) {
  u = put_char(buf, size, u, '"');
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') u = put_char(buf, size, u, '\\');
    u = put_char(buf, size, u, *s);
  }
  return put_char(buf, size, u, '"');
}

int mtg_setup_write(const mtg_setup *s, char *buf, size_t size) {
  if (!s || (!buf && size)) return MTG_EARG;
  size_t u = 0; /* every setup writes its seed record, which terminates a buffer of any size */
  for (int p = 0; p < s->np; p++) {
    u = put(buf, size, u, "player %s %d\n", s->pl[p].name, s->pl[p].life);
    for (int k = 0; k < s->pl[p].nc; k++) u = put(buf, size, u, "player_counter %s %s %d\n", s->pl[p].name, s->pl[p].c[k].kind, s->pl[p].c[k].n);
    if (s->pl[p].lands) u = put(buf, size, u, "lands_played %s %d\n", s->pl[p].name, s->pl[p].lands);
    int any = 0;
    for (int k = 0; k < COL_COUNT; k++) any |= s->pl[p].mana[k];
    if (any) {
      u = put(buf, size, u, "mana %s ", s->pl[p].name);
      for (int k = 0; k < COL_COUNT; k++)
        for (int j = 0; j < s->pl[p].mana[k]; j++) u = put(buf, size, u, "{%c}", "WUBRGC"[k]);
      u = put(buf, size, u, "\n");
    }
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
    if (e->token) u = put(buf, size, u, " token");
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

/* ---- reading the canonical text form ----
 * Every record is checked whole: its name, each field's form and range (the
 * setters' ranges, mtg.h), unknown options and anything left over. An error
 * names the record's line and the column of the field, with the line shown. */

#define SETUP_TOKEN 256 /* longest field, quotes removed (a card name, a choice) */
#define SETUP_LINE 1024 /* longest record */

typedef struct rtok {
  const char *at; /* where the field starts in the record */
  char s[SETUP_TOKEN];
} rtok;

typedef struct reader {
  mtg_setup *s;
  const char *name;
  int line;
  char rec[SETUP_LINE];
  const char *p; /* read position in rec */
  mtg_error *err;
} reader;

static int rd_fail(reader *r, const char *at, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static int rd_fail(reader *r, const char *at, int status, const char *fmt, ...) {
  if (!r->err) return status;
  char msg[sizeof r->err->msg];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  mtg_error_set(r->err, status, "%s", msg);
  str_copy(r->err->file, sizeof r->err->file, r->name);
  r->err->line = r->line;
  r->err->col = at ? (int)(at - r->rec) + 1 : 0;
  str_copy(r->err->source, sizeof r->err->source, r->rec);
  return status;
}

/* The next field: up to a space outside quotes; quotes are removed, and \" and
 * \\ inside them escape. An empty field at the end of the record. */
static int rd_tok(reader *r, rtok *t) {
  const char *p = r->p;
  while (*p == ' ') p++;
  t->at = p;
  /* a field without quotes, nearly every one: copied whole */
  const char *q = p;
  while (*q && *q != ' ' && *q != '"') q++;
  if (*q != '"' && (size_t)(q - p) < sizeof t->s) {
    memcpy(t->s, p, (size_t)(q - p));
    t->s[q - p] = 0;
    r->p = q;
    return MTG_OK;
  }
  size_t k = 0;
  int inq = 0;
  while (*p && (inq || *p != ' ')) {
    if (*p == '"') {
      inq = !inq;
      p++;
      continue;
    }
    if (inq && *p == '\\' && p[1]) p++;
    if (k + 1 >= sizeof t->s) return rd_fail(r, t->at, MTG_EDATA, "a field longer than %d characters", SETUP_TOKEN - 1);
    t->s[k++] = *p++;
  }
  t->s[k] = 0;
  if (inq) return rd_fail(r, t->at, MTG_EDATA, "a quote that is not closed");
  r->p = p;
  return MTG_OK;
}

/* A field that must be there: `what` names it in the message. */
static int rd_need(reader *r, rtok *t, const char *what) {
  int rc = rd_tok(r, t);
  if (rc) return rc;
  if (!t->s[0]) return rd_fail(r, t->at, MTG_EDATA, "missing %s at the end of the record", what);
  return MTG_OK;
}

/* Nothing may follow the record's last field. */
static int rd_end(reader *r, const char *record) {
  rtok t;
  int rc = rd_tok(r, &t);
  if (rc) return rc;
  if (t.s[0]) return rd_fail(r, t.at, MTG_EDATA, "unexpected '%s' after the %s record", t.s, record);
  return MTG_OK;
}

/* A decimal number in [lo, hi] in text s (written at `at`): an error says
 * whether it is not a number or out of range. */
static int rd_num(reader *r, const char *at, const char *s, long lo, long hi, const char *what, long *out) {
  const char *d = s + (*s == '-' || *s == '+');
  int form = *d != 0;
  for (const char *q = d; *q; q++) form &= *q >= '0' && *q <= '9';
  if (!form) return rd_fail(r, at, MTG_EDATA, "%s: expected a number, found '%s'", what, s);
  errno = 0;
  long v = strtol(s, NULL, 10);
  if (errno || v < lo || v > hi) return rd_fail(r, at, MTG_EDATA, "%s %s is out of range (%ld to %ld)", what, s, lo, hi);
  *out = v;
  return MTG_OK;
}

static int rd_player(reader *r, const rtok *t, int *out) {
  for (int p = 0; p < r->s->np; p++)
    if (!strcmp(r->s->pl[p].name, t->s)) {
      *out = p;
      return MTG_OK;
    }
  char list[160] = "";
  for (int p = 0; p < r->s->np; p++) {
    size_t u = strlen(list);
    snprintf(list + u, sizeof list - u, "%s%s", p ? ", " : "", r->s->pl[p].name);
  }
  if (!r->s->np) return rd_fail(r, t->at, MTG_EDATA, "unknown player '%s' (no player record before it)", t->s);
  return rd_fail(r, t->at, MTG_EDATA, "unknown player '%s'; the players are %s", t->s, list);
}

/* A setter's refusal, located at the field it came from: bad data. */
static int rd_set(reader *r, const char *at, int rc) {
  if (rc >= 0) return MTG_OK;
  return rd_fail(r, at, rc == MTG_EARG ? MTG_EDATA : rc, "%s", mtg_setup_error(r->s));
}

static const char *const record_names[] = {"player", "player_counter", "lands_played", "mana", "outside", "variant",
                                           "team", "seed", "start", "opening", "shuffle", "max_turns", "card",
                                           "commander_damage", NULL};
static const char *const option_names[] = {"tapped", "sick", "face_down", "face_up", "commander", "transformed", "token",
                                           "exiled_with", "attach", "damage", "controller", "attach_player",
                                           "protector", "sector", "room", "counter", "choice", NULL};

/* attachments and "exiled with" may name a card listed later: kept until
 * every card is read */
typedef struct fwd {
  int entry, target, line, col, exiled;
  char link[64], rec[SETUP_LINE];
} fwd;

/* "card PLAYER ZONE NAME [OPTION...]" */
static int rd_card(reader *r, fwd **fw, int *nfw, int *capfw) {
  rtok who, zone, name;
  int rc, pl, e;
  if ((rc = rd_need(r, &who, "the owner")) || (rc = rd_player(r, &who, &pl))) return rc;
  if ((rc = rd_need(r, &zone, "the zone"))) return rc;
  int z = mtg_zone_parse(zone.s);
  if (z < 0) return rd_fail(r, zone.at, MTG_EDATA, "unknown zone '%s'", zone.s);
  if ((rc = rd_need(r, &name, "the card's name"))) return rc;
  e = mtg_setup_card(r->s, pl, z, name.s, NULL);
  if (e < 0) return rd_fail(r, name.at, e == MTG_EARG ? MTG_EDATA : e, "%s", mtg_setup_error(r->s));
  for (;;) {
    rtok o;
    if ((rc = rd_tok(r, &o))) return rc;
    if (!o.s[0]) return MTG_OK;
    char *eq = strchr(o.s, '=');
    const char *v = eq ? eq + 1 : NULL;
    if (eq) *eq = 0;
    const char *vat = eq ? o.at + (eq - o.s) + 1 : o.at; /* where the value starts (quotes aside) */
    int known = 0;
    for (int i = 0; option_names[i]; i++) known |= !strcmp(o.s, option_names[i]);
    if (!known) {
      const char *best = suggest_best(o.s, option_names, -1);
      return rd_fail(r, o.at, MTG_EDATA, "unknown card option '%s'%s%s%s", o.s, best ? "; did you mean '" : "", best ? best : "",
                     best ? "'?" : "");
    }
    int flag = !strcmp(o.s, "tapped") || !strcmp(o.s, "sick") || !strcmp(o.s, "face_down") || !strcmp(o.s, "face_up") ||
               !strcmp(o.s, "commander") || !strcmp(o.s, "transformed") || !strcmp(o.s, "token");
    if (flag && v) return rd_fail(r, o.at, MTG_EDATA, "the option '%s' takes no value", o.s);
    if (!flag && (!v || !*v)) return rd_fail(r, o.at, MTG_EDATA, "the option '%s' needs a value (%s=...)", o.s, o.s);
    long n;
    int p;
    rtok pt;
    if (!strcmp(o.s, "tapped")) rc = rd_set(r, o.at, mtg_setup_tapped(r->s, e, 1));
    else if (!strcmp(o.s, "sick")) rc = rd_set(r, o.at, mtg_setup_sick(r->s, e, 1));
    else if (!strcmp(o.s, "face_down")) rc = rd_set(r, o.at, mtg_setup_face_down(r->s, e, 1));
    else if (!strcmp(o.s, "face_up")) rc = rd_set(r, o.at, mtg_setup_face_down(r->s, e, 0));
    else if (!strcmp(o.s, "commander")) rc = rd_set(r, o.at, mtg_setup_commander(r->s, e));
    else if (!strcmp(o.s, "transformed")) rc = rd_set(r, o.at, mtg_setup_transformed(r->s, e, 1));
    else if (!strcmp(o.s, "token")) rc = rd_set(r, o.at, mtg_setup_token(r->s, e, 1));
    else if (!strcmp(o.s, "damage")) {
      if (!(rc = rd_num(r, vat, v, 0, MTG_NUM_MAX, "damage", &n))) rc = rd_set(r, o.at, mtg_setup_damage(r->s, e, (int)n));
    }
    else if (!strcmp(o.s, "controller") || !strcmp(o.s, "attach_player") || !strcmp(o.s, "protector")) {
      pt.at = vat;
      str_copy(pt.s, sizeof pt.s, v);
      rc = rd_player(r, &pt, &p);
      if (!rc)
        rc = rd_set(r, o.at,
                    o.s[0] == 'c' ? mtg_setup_controller(r->s, e, p)
                    : o.s[0] == 'a' ? mtg_setup_attach_player(r->s, e, p)
                                    : mtg_setup_protector(r->s, e, p));
    } else if (!strcmp(o.s, "sector")) rc = rd_set(r, vat, mtg_setup_sector(r->s, e, v));
    else if (!strcmp(o.s, "room")) rc = rd_set(r, vat, mtg_setup_room(r->s, e, v));
    else if (!strcmp(o.s, "exiled_with") || !strcmp(o.s, "attach")) {
      int ex = o.s[0] == 'e';
      char num[32];
      const char *colon = strchr(v, ':');
      if (ex && !colon) return rd_fail(r, vat, MTG_EDATA, "exiled_with: expected ENTRY:LABEL, found '%s'", v);
      size_t nl = ex ? (size_t)(colon - v) : strlen(v);
      snprintf(num, sizeof num, "%.*s", (int)(nl < sizeof num ? nl : sizeof num - 1), v);
      if ((rc = rd_num(r, vat, num, 0, MTG_MAX_SETUP_CARDS - 1, ex ? "exiled_with's entry" : "attach's entry", &n))) return rc;
      if (ex && (!colon[1] || strlen(colon + 1) >= sizeof (*fw)->link))
        return rd_fail(r, vat, MTG_EDATA, "exiled_with: the link label has 1 to %zu characters", sizeof (*fw)->link - 1);
      if (*nfw == *capfw) {
        int cap = *capfw ? 2 * *capfw : 8;
        fwd *nf = realloc(*fw, (size_t)cap * sizeof *nf);
        if (!nf) return rd_fail(r, NULL, MTG_ENOMEM, "out of memory");
        *fw = nf;
        *capfw = cap;
      }
      fwd *f = &(*fw)[(*nfw)++];
      f->entry = e;
      f->target = (int)n;
      f->exiled = ex;
      f->line = r->line;
      f->col = (int)(o.at - r->rec) + 1;
      str_copy(f->link, sizeof f->link, ex ? colon + 1 : "");
      str_copy(f->rec, sizeof f->rec, r->rec);
    } else { /* counter=KIND:N, choice=KEY:VALUE */
      const char *colon = strchr(v, ':');
      int counter = o.s[1] == 'o';
      if (!colon) return rd_fail(r, vat, MTG_EDATA, "%s: expected %s, found '%s'", o.s, counter ? "KIND:N" : "KEY:VALUE", v);
      char key[64];
      size_t kl = (size_t)(colon - v);
      if (kl >= sizeof key) return rd_fail(r, vat, MTG_EDATA, "%s: a %s longer than %zu characters", o.s, counter ? "kind" : "key", sizeof key - 1);
      memcpy(key, v, kl);
      key[kl] = 0;
      if (counter) {
        if ((rc = rd_num(r, vat + kl + 1, colon + 1, 0, MTG_NUM_MAX, "a number of counters", &n))) return rc;
        rc = rd_set(r, vat, mtg_setup_counters(r->s, e, key, (int)n));
      } else {
        rc = rd_set(r, vat, mtg_setup_choice(r->s, e, key, colon + 1));
      }
    }
    if (rc) return rc;
  }
}

/* One record of the text form. */
static int rd_record(reader *r, fwd **fw, int *nfw, int *capfw) {
  rtok k, a, b, c;
  int rc, pl;
  long n, m;
  if ((rc = rd_tok(r, &k))) return rc;
  const char *w = k.s;
  if (!strcmp(w, "player")) {
    if ((rc = rd_need(r, &a, "the player's name")) || (rc = rd_need(r, &b, "the life total")) ||
        (rc = rd_num(r, b.at, b.s, -MTG_NUM_MAX, MTG_NUM_MAX, "life", &n)) || (rc = rd_end(r, w)))
      return rc;
    return rd_set(r, a.at, mtg_setup_player(r->s, a.s, (int)n, 0));
  }
  if (!strcmp(w, "player_counter")) {
    if ((rc = rd_need(r, &a, "the player")) || (rc = rd_player(r, &a, &pl)) || (rc = rd_need(r, &b, "the counter kind")) ||
        (rc = rd_need(r, &c, "the number of counters")) || (rc = rd_num(r, c.at, c.s, 0, MTG_NUM_MAX, "a number of counters", &n)) ||
        (rc = rd_end(r, w)))
      return rc;
    return rd_set(r, b.at, mtg_setup_player_counters(r->s, pl, b.s, (int)n));
  }
  if (!strcmp(w, "lands_played") || !strcmp(w, "team")) {
    int lands = w[0] == 'l';
    if ((rc = rd_need(r, &a, "the player")) || (rc = rd_player(r, &a, &pl)) || (rc = rd_need(r, &b, lands ? "the number of lands" : "the team")) ||
        (rc = rd_num(r, b.at, b.s, 0, lands ? INT16_MAX : MAX_PLAYERS, lands ? "lands played" : "team", &n)) || (rc = rd_end(r, w)))
      return rc;
    return rd_set(r, b.at, lands ? mtg_setup_lands_played(r->s, pl, (int)n) : mtg_setup_team(r->s, pl, (int)n));
  }
  if (!strcmp(w, "mana")) {
    if ((rc = rd_need(r, &a, "the player")) || (rc = rd_player(r, &a, &pl)) || (rc = rd_need(r, &b, "the mana, such as {R}{G}")) ||
        (rc = rd_end(r, w)))
      return rc;
    return rd_set(r, b.at, mtg_setup_mana(r->s, pl, b.s));
  }
  if (!strcmp(w, "outside")) {
    if ((rc = rd_need(r, &a, "the player")) || (rc = rd_player(r, &a, &pl)) || (rc = rd_need(r, &b, "the card's name")) ||
        (rc = rd_end(r, w)))
      return rc;
    return rd_set(r, b.at, mtg_setup_outside(r->s, pl, b.s, NULL));
  }
  if (!strcmp(w, "variant")) {
    if ((rc = rd_need(r, &a, "the variant")) || (rc = rd_end(r, w))) return rc;
    return rd_set(r, a.at, mtg_setup_variant(r->s, a.s));
  }
  if (!strcmp(w, "commander_damage")) {
    if ((rc = rd_need(r, &a, "the player")) || (rc = rd_player(r, &a, &pl)) || (rc = rd_need(r, &b, "the commander's entry")) ||
        (rc = rd_num(r, b.at, b.s, 0, MTG_MAX_SETUP_CARDS - 1, "the commander's entry", &n)) ||
        (rc = rd_need(r, &c, "the damage")) || (rc = rd_num(r, c.at, c.s, 0, MTG_NUM_MAX, "commander damage", &m)) ||
        (rc = rd_end(r, w)))
      return rc;
    return rd_set(r, b.at, mtg_setup_commander_damage(r->s, pl, (int)n, (int)m));
  }
  if (!strcmp(w, "seed")) {
    if ((rc = rd_need(r, &a, "the seed")) || (rc = rd_end(r, w))) return rc;
    int form = 1;
    for (const char *q = a.s; *q; q++) form &= *q >= '0' && *q <= '9';
    errno = 0;
    unsigned long long v = form ? strtoull(a.s, NULL, 10) : 0;
    if (!form || errno) return rd_fail(r, a.at, MTG_EDATA, "seed: expected a number from 0 to 18446744073709551615, found '%s'", a.s);
    return rd_set(r, a.at, mtg_setup_seed(r->s, (uint64_t)v));
  }
  if (!strcmp(w, "start")) {
    if ((rc = rd_need(r, &a, "the active player")) || (rc = rd_player(r, &a, &pl)) || (rc = rd_need(r, &b, "the turn")) ||
        (rc = rd_num(r, b.at, b.s, 1, MTG_NUM_MAX, "the turn", &n)) || (rc = rd_need(r, &c, "the step")) || (rc = rd_end(r, w)))
      return rc;
    int st = mtg_step_parse(c.s);
    if (st < 0) return rd_fail(r, c.at, MTG_EDATA, "unknown step '%s'", c.s);
    int o = r->s->opening, sh = r->s->shuffle;
    rc = rd_set(r, a.at, mtg_setup_start(r->s, pl, (int)n, st));
    r->s->opening = o; /* the text says them apart */
    r->s->shuffle = sh;
    return rc;
  }
  if (!strcmp(w, "opening") || !strcmp(w, "shuffle") || !strcmp(w, "max_turns")) {
    long hi = w[0] == 'o' ? MTG_MAX_SETUP_CARDS : w[0] == 's' ? 1 : MTG_NUM_MAX;
    if ((rc = rd_need(r, &a, "the number")) || (rc = rd_num(r, a.at, a.s, 0, hi, w, &n)) || (rc = rd_end(r, w))) return rc;
    return rd_set(r, a.at, w[0] == 'o' ? mtg_setup_opening_hand(r->s, (int)n)
                           : w[0] == 's' ? mtg_setup_shuffle(r->s, (int)n)
                                         : mtg_setup_max_turns(r->s, (int)n));
  }
  if (!strcmp(w, "card")) return rd_card(r, fw, nfw, capfw);
  const char *best = suggest_best(w, record_names, -1);
  if (best) return rd_fail(r, k.at, MTG_EDATA, "unknown record '%s'; did you mean '%s'?", w, best);
  return rd_fail(r, k.at, MTG_EDATA, "unknown record '%s' (player, card, start, seed, ...: docs/replay-format.md)", w);
}

int mtg_setup_read(const mtg_pool *pool, const char *name, const char *text, mtg_setup **out, mtg_error *err) {
  if (!out || !text || !pool) {
    if (out) *out = NULL;
    return diag_arg(err, "mtg_setup_read: %s is NULL", !out ? "out" : !text ? "the text" : "the pool");
  }
  *out = NULL;
  if (!name) name = "";
  reader r = {.name = name, .err = err};
  r.s = mtg_setup_new(pool);
  if (!r.s) return rd_fail(&r, NULL, MTG_ENOMEM, "out of memory");
  r.s->opening = 0;
  r.s->shuffle = 0;
  fwd *fw = NULL;
  int nfw = 0, capfw = 0, rc = MTG_OK, records = 0;
  /* the card records counted first, so that the entries are allocated once,
   * not copied at each doubling (a self-play setup has 120 cards) */
  int ncards = 0;
  for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) ncards += p[0] == 'c' && !strncmp(p, "card ", 5);
  if (ncards > 8 && ncards <= MTG_MAX_SETUP_CARDS) {
    SEntry *e = malloc((size_t)ncards * sizeof *e);
    if (e) r.s->e = e, r.s->cap = ncards;
  }
  for (const char *p = text; *p && !rc;) {
    r.line++;
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p) : strlen(p);
    size_t k = len < sizeof r.rec ? len : sizeof r.rec - 1; /* no NUL before eol */
    memcpy(r.rec, p, k);
    r.rec[k] = 0;
    p = eol ? eol + 1 : p + len;
    r.p = r.rec;
    if (len >= sizeof r.rec) rc = rd_fail(&r, NULL, MTG_EDATA, "a record longer than %d characters", SETUP_LINE - 1);
    else if (!r.rec[0]) continue;
    else if (++records > MTG_SETUP_MAX_RECORDS)
      rc = rd_fail(&r, NULL, MTG_EDATA, "more than %d records: a setup has no more", MTG_SETUP_MAX_RECORDS);
    else rc = rd_record(&r, &fw, &nfw, &capfw);
  }
  for (int i = 0; i < nfw && !rc; i++) {
    int set = fw[i].exiled ? mtg_setup_exiled_with(r.s, fw[i].entry, fw[i].target, fw[i].link)
                           : mtg_setup_attach(r.s, fw[i].entry, fw[i].target);
    if (set < 0) {
      r.line = fw[i].line;
      str_copy(r.rec, sizeof r.rec, fw[i].rec);
      rc = rd_fail(&r, r.rec + fw[i].col - 1, set == MTG_EARG ? MTG_EDATA : set, "%s", mtg_setup_error(r.s));
    }
  }
  free(fw);
  if (rc) {
    mtg_setup_free(r.s);
    return rc;
  }
  *out = r.s;
  return MTG_OK;
}
