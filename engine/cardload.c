/* cardload.c - compiles YAML card definitions (docs/cards.md) into CardDef.
 *
 * Every key is checked: an unknown key, a wrong type or an unknown name is an
 * error at file:line:column with a "did you mean". The effect vocabulary is
 * table-driven (step_defs below): a step is a mapping whose one step key names
 * the operation and carries its main parameter, other keys carry the rest. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diag.h"
#include "escape.h"
#include "internal.h"
#include "suggest.h"
#include "walk.h"
#include "ydoc.h"
#include "yemit.h"

typedef struct L {
  mtg_pool *p;
  const ydoc *d;
  mtg_error *err;
  const char *card; /* name of the card being compiled, for messages */
  int *oom;         /* set when an allocation failed: the definition is refused as out of memory */
  int nested;       /* compiling a delayed or reflexive trigger inside an effect */
  int trig_targets; /* compiling a triggered ability's targets: `chosen_by: triggering_player` is allowed */
} L;

#define BAD(l, n, ...) (ydoc_error((l)->d, (n), (l)->err, __VA_ARGS__), (void *)0)
#define BADI(l, n, ...) ydoc_error((l)->d, (n), (l)->err, __VA_ARGS__)

static void *al(L *l, size_t n) {
  void *r = pool_alloc(l->p, n);
  if (!r) *l->oom = 1;
  return r;
}
static const char *dup(L *l, const char *s) {
  const char *r = pool_strdup(l->p, s);
  if (!r) *l->oom = 1;
  return r;
}

static Node *mk(L *l, int op, const ynode *at) {
  Node *n = al(l, sizeof *n);
  if (!n) return NULL;
  n->op = (uint16_t)op;
  if (at) {
    n->line = at->line;
    n->col = at->col;
  }
  return n;
}

static int kids(L *l, Node *n, int k) {
  n->k = al(l, (size_t)(k ? k : 1) * sizeof *n->k);
  n->n = (uint16_t)k;
  return n->k ? 0 : -1;
}

static const char *scalar(const ynode *n) { return n && n->kind == YN_SCALAR ? n->str : NULL; }

static int is_int(const char *s) {
  if (!s || !*s) return 0;
  if (*s == '-' || *s == '+') s++;
  if (!*s) return 0;
  for (; *s; s++)
    if (!isdigit((unsigned char)*s)) return 0;
  return 1;
}

static int name_index(const char *s, const char *const *names, int n) {
  for (int i = 0; i < n; i++)
    if (names[i] && !strcmp(names[i], s)) return i;
  return -1;
}

static int bad_name(L *l, const ynode *n, const char *what, const char *const *names, int cnt) {
  const char *s = scalar(n);
  if (!s) return BADI(l, n, "expected %s name, found %s", what, ynode_kind_name(n));
  const char *best = suggest_best(s, names, cnt);
  if (best) return BADI(l, n, "unknown %s '%s'; did you mean '%s'?", what, s, best);
  char list[600];
  suggest_join(names, cnt, list, sizeof list);
  return BADI(l, n, "unknown %s '%s'; expected one of: %s", what, s, list);
}

static int want_map(L *l, const ynode *n, const char *what) {
  if (!n || n->kind != YN_MAP) return BADI(l, n, "%s must be a mapping, found %s", what, ynode_kind_name(n));
  return 0;
}

/* ---- names ---- */

static const char *const zone_names[] = {"library", "hand", "battlefield", "graveyard", "stack", "exile", "command", "ante"};
static const char *const rel_names[] = {"any", "you", "opponent", "active", "not_you", "chosen", "target", "owner",
                                        "triggering_player", "defending", "its_controller"};
static const char *const dur_names[] = {"forever", "end_of_turn", "next_turn", "source_leaves", "used", "end_of_combat",
                                        "source_tapped", "source_controlled_and_tapped"};
static const char *const type_names[N_CARD_TYPES] = {"artifact", "battle", "creature", "enchantment", "instant", "kindred", "land",
                                                     "planeswalker", "sorcery", "dungeon", "plane", "phenomenon", "scheme"};
static const char *const super_names[] = {"basic", "legendary", "snow", "world", "ongoing"};
#define NTYPES N_CARD_TYPES
#define NSUPERS NELEM(super_names)

static int p_zone(L *l, const ynode *n, int allow_any) {
  const char *s = scalar(n);
  if (s && allow_any && !strcmp(s, "any")) return -1;
  int z = s ? name_index(s, zone_names, 8) : -1;
  if (z < 0) return bad_name(l, n, "zone", zone_names, 8) - 100;
  return z;
}

/* Where an effect puts an object: any zone but the stack, where only casting
 * puts a card (601.2a) and where an object needs an entry of the stack. */
static int p_dest_zone(L *l, const ynode *n) {
  int z = p_zone(l, n, 0);
  if (z == MTG_Z_STACK) return BADI(l, n, "an effect can't put an object onto the stack: only casting a spell puts a card there (601.2a)") - 100;
  return z;
}

static int p_rel(L *l, const ynode *n) {
  const char *s = scalar(n);
  if (s && !strcmp(s, "opponents")) return R_OPP;
  if (s && !strcmp(s, "each")) return R_ANY;
  int r = s ? name_index(s, rel_names, NELEM(rel_names)) : -1;
  if (r < 0) return bad_name(l, n, "player relation", rel_names, NELEM(rel_names));
  return r;
}

static int type_bit(const char *s) {
  char low[32];
  size_t n = strlen(s);
  if (n >= sizeof low) return 0;
  for (size_t i = 0; i <= n; i++) low[i] = (char)tolower((unsigned char)s[i]);
  if (!strcmp(low, "tribal")) return T_KINDRED;
  int i = name_index(low, type_names, NTYPES);
  return i < 0 ? 0 : 1 << i;
}

static int super_bit(const char *s) {
  char low[32];
  size_t n = strlen(s);
  if (n >= sizeof low) return 0;
  for (size_t i = 0; i <= n; i++) low[i] = (char)tolower((unsigned char)s[i]);
  int i = name_index(low, super_names, NSUPERS);
  return i < 0 ? 0 : 1 << i;
}

/* A list or a single scalar: calls f for each scalar. */
typedef int (*each_fn)(L *l, const ynode *item, void *ctx);
static int each_scalar(L *l, const ynode *n, each_fn f, void *ctx) {
  if (n && n->kind == YN_SEQ) {
    for (int i = 0; i < n->n; i++)
      if (f(l, n->items[i], ctx)) return -1;
    return 0;
  }
  return f(l, n, ctx);
}

static int add_type(L *l, const ynode *n, void *ctx) {
  const char *s = scalar(n);
  int b = s ? type_bit(s) : 0;
  if (s && !strcmp(s, "permanent")) b = T_PERMANENT; /* 110.1: any permanent type */
  if (!b) return bad_name(l, n, "card type", type_names, NTYPES);
  *(uint32_t *)ctx |= (uint32_t)b;
  return 0;
}

static int add_super(L *l, const ynode *n, void *ctx) {
  const char *s = scalar(n);
  int b = s ? super_bit(s) : 0;
  if (!b) return bad_name(l, n, "supertype", super_names, NSUPERS);
  *(uint8_t *)ctx |= (uint8_t)b;
  return 0;
}

static int add_color(L *l, const ynode *n, void *ctx) {
  const char *s = scalar(n);
  int c = s ? color_parse(s) : -1;
  if (c < 0) return bad_name(l, n, "color", color_names, 5);
  *(uint8_t *)ctx |= (uint8_t)(1u << c);
  return 0;
}

static int add_kw(L *l, const ynode *n, void *ctx) {
  const char *s = scalar(n);
  int k = s ? name_index(s, kw_names, KW_COUNT) : -1;
  if (k < 0) return bad_name(l, n, "keyword", kw_names, KW_COUNT);
  *(uint64_t *)ctx |= 1ULL << k;
  return 0;
}

/* ---- values, selectors, conditions, filters ---- */

static Node *p_expr(L *l, const ynode *n);
static Node *p_sel(L *l, const ynode *n);
static Node *p_cond(L *l, const ynode *n);
static const Filter *p_filter(L *l, const ynode *n);
static int pt_pair(const char *s, int need_sign, int *x, int *y);
static Node *p_steps(L *l, const ynode *n);

static const char *const cmp_keys[] = {"equals", "not_equals", "less_than", "at_most", "more_than", "at_least", NULL};

static const struct {
  const char *name;
  int op;
} expr_words[] = {{"X", E_X},           {"x", E_X},         {"amount", E_AMOUNT}, {"that_much", E_AMOUNT},
                  {"prevented", E_PREVENTED}, {"storm", E_STORM}, {"resolutions", E_RESOLUTIONS}, {"kicked", E_KICKED}, {"times_kicked", E_KICK_N}, {"paid", E_PAID},
                  {"result", E_RESULT}, {"life_lost", E_LIFE_LOST}};

/* {history: KIND, by, filter, object, to, source, from, turn, this_combat, combat, events}:
 * a count (or for damage and life, an amount) over the history of the turn */
static const struct {
  const char *name;
  uint8_t kind;
  int8_t cause, from, to;
} hist_kinds[] = {
    {"cast", HK_CAST, -1, -1, -1},        {"drawn", HK_DRAW, -1, -1, -1},
    {"attacked", HK_ATTACK, -1, -1, -1},  {"zone", HK_ZONE, -1, -1, -1},
    {"died", HK_ZONE, -1, MTG_Z_BATTLEFIELD, MTG_Z_GRAVEYARD},
    {"left_battlefield", HK_ZONE, -1, MTG_Z_BATTLEFIELD, -1},
    {"entered", HK_ZONE, -1, -1, MTG_Z_BATTLEFIELD}, {"exiled", HK_ZONE, -1, -1, MTG_Z_EXILE},
    {"discarded", HK_ZONE, CA_DISCARD, -1, -1}, {"sacrificed", HK_ZONE, CA_SACRIFICE, -1, -1},
    {"destroyed", HK_ZONE, CA_DESTROY, -1, -1}, {"milled", HK_ZONE, CA_MILL, -1, -1},
    {"damage", HK_DAMAGE, -1, -1, -1},    {"gained_life", HK_GAIN_LIFE, -1, -1, -1},
    {"lost_life", HK_LOSE_LIFE, -1, -1, -1}, {"ventured", HK_VENTURE, -1, -1, -1},
};

static Node *p_history(L *l, const ynode *n, const char *const *skip) {
  static const char *const own[] = {"history", "by", "filter", "object", "to", "source", "from", "turn",
                                    "this_combat", "combat", "events"};
  const char *keys[NELEM(own) + 8];
  int nk = 0;
  for (int i = 0; i < NELEM(own); i++) keys[nk++] = own[i];
  for (int i = 0; skip && skip[i] && nk < NELEM(keys) - 1; i++) keys[nk++] = skip[i];
  keys[nk] = NULL;
  if (ymap_check_keys(l->d, n, keys, "history value", l->err)) return NULL;
  const ynode *v = ymap_get(n, "history");
  const char *names[NELEM(hist_kinds)];
  for (int i = 0; i < NELEM(hist_kinds); i++) names[i] = hist_kinds[i].name;
  int k = scalar(v) ? name_index(scalar(v), names, NELEM(names)) : -1;
  if (k < 0) return (void *)(intptr_t)(bad_name(l, v, "history kind", names, NELEM(names)) * 0);
  Node *e = mk(l, E_HISTORY, n);
  if (!e || kids(l, e, 4)) return NULL;
  int kind = hist_kinds[k].kind, cause = hist_kinds[k].cause, from = hist_kinds[k].from, to = hist_kinds[k].to;
  const ynode *w;
  if ((w = ymap_get(n, "by")) && !(e->k[0] = p_sel(l, w))) return NULL;
  if ((w = ymap_get(n, "filter")) && !(e->f = p_filter(l, w))) return NULL;
  if ((w = ymap_get(n, "object")) && !(e->k[1] = p_sel(l, w))) return NULL;
  if ((w = ymap_get(n, "to"))) {
    if (kind == HK_ZONE) {
      if (to >= 0) return BAD(l, w, "'to' is already %s for history %s", zone_names[to], scalar(v));
      if ((to = p_zone(l, w, 0)) < 0) return NULL;
    } else if (kind == HK_DAMAGE) {
      if (!(e->k[2] = p_sel(l, w))) return NULL;
    } else {
      return BAD(l, w, "'to' is for history zone (a zone) and damage (who was dealt it)");
    }
  }
  if ((w = ymap_get(n, "from"))) {
    if (kind != HK_ZONE) return BAD(l, w, "'from' is for the history of zone changes");
    if (from >= 0) return BAD(l, w, "'from' is already %s for history %s", zone_names[from], scalar(v));
    if ((from = p_zone(l, w, 0)) < 0) return NULL;
  }
  if ((w = ymap_get(n, "source"))) {
    if (kind != HK_DAMAGE) return BAD(l, w, "'source' is for the history of damage");
    if (!(e->k[3] = p_sel(l, w))) return NULL;
  }
  if ((w = ymap_get(n, "turn"))) {
    const char *t = scalar(w);
    if (!t || (strcmp(t, "this") && strcmp(t, "last"))) return BAD(l, w, "turn: 'this' (the default) or 'last'");
    if (!strcmp(t, "last")) e->j |= HQ_LAST_TURN;
  }
  int b;
  if ((w = ymap_get(n, "this_combat"))) {
    if (kind != HK_ATTACK) return BAD(l, w, "'this_combat' is for the history of attacks");
    if (ynode_bool(l->d, w, &b, l->err)) return NULL;
    if (b) e->j |= HQ_THIS_COMBAT;
  }
  if ((w = ymap_get(n, "combat"))) {
    if (kind != HK_DAMAGE) return BAD(l, w, "'combat' is for the history of damage (this_combat for attacks)");
    if (ynode_bool(l->d, w, &b, l->err)) return NULL;
    e->j |= b ? HQ_COMBAT : HQ_NONCOMBAT;
  }
  if ((w = ymap_get(n, "events"))) {
    if (ynode_bool(l->d, w, &b, l->err)) return NULL;
    if (b) e->j |= HQ_EVENTS;
  }
  e->i = kind | (cause + 1) << 8 | (from + 1) << 16 | (to + 1) << 24;
  return e;
}

static Node *p_expr_map(L *l, const ynode *n, const char *const *skip) {
  if (ymap_get(n, "history")) return p_history(l, n, skip);
  static const char *const keys[] = {"count", "life", "hand", "library", "power", "toughness", "counters",
                                     "sum", "minus", "times", "min", "max", "half", "devotion", "chosen",
                                     "mana_value", "damage_on", "loyalty", "neg", "noted", "on", "round",
                                     "chosen_by_creator", "history", "greatest", "starting_life", "class_level", NULL};
  const ynode *main = NULL, *mainkey = NULL;
  for (int i = 0; i < n->n; i++) {
    const ynode *k = ymap_key(n, i);
    const char *ks = scalar(k);
    if (!ks) return BAD(l, k, "keys must be strings");
    int skipped = 0;
    for (int j = 0; skip && skip[j]; j++)
      if (!strcmp(skip[j], ks)) skipped = 1;
    if (skipped || !strcmp(ks, "on") || !strcmp(ks, "round") || !strcmp(ks, "among")) continue;
    if (name_index(ks, keys, NELEM(keys) - 1) < 0) {
      const char *best = suggest_best(ks, keys, -1);
      return BAD(l, k, "unknown value '%s'%s%s%s", ks, best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
    }
    if (main) return BAD(l, k, "a value has one of count, life, power, ...; found both '%s' and '%s'", mainkey->str, ks);
    main = ymap_val(n, i);
    mainkey = k;
  }
  if (!main) return BAD(l, n, "empty value");
  const char *m = mainkey->str;
  /* 'on' goes with counters, 'round' with half, 'among' with greatest */
  if (ymap_get(n, "on") && strcmp(m, "counters")) return BAD(l, ymap_get(n, "on"), "'on' goes with 'counters' ({counters: kind, on: ...}), not with '%s'", m);
  if (ymap_get(n, "round") && strcmp(m, "half")) return BAD(l, ymap_get(n, "round"), "'round' goes with 'half' ({half: value, round: up}), not with '%s'", m);
  if (ymap_get(n, "among") && strcmp(m, "greatest")) return BAD(l, ymap_get(n, "among"), "'among' goes with 'greatest' ({greatest: power, among: filter}), not with '%s'", m);
  Node *e;
  if (!strcmp(m, "count")) {
    e = mk(l, E_COUNT, n);
    if (!e || !(e->f = p_filter(l, main))) return NULL;
  } else if (!strcmp(m, "class_level")) {
    /* 716.2b: a permanent's level (as it last existed, 608.2h) */
    e = mk(l, E_CLASS_LEVEL, n);
    if (!e || kids(l, e, 1) || !(e->k[0] = p_sel(l, main))) return NULL;
  } else if (!strcmp(m, "starting_life")) {
    e = mk(l, E_STARTING_LIFE, n);
    if (!e || kids(l, e, 1) || !(e->k[0] = p_sel(l, main))) return NULL;
  } else if (!strcmp(m, "life") || !strcmp(m, "hand") || !strcmp(m, "library") || !strcmp(m, "power") ||
             !strcmp(m, "toughness") || !strcmp(m, "mana_value") || !strcmp(m, "damage_on") || !strcmp(m, "loyalty")) {
    int op = !strcmp(m, "life") ? E_LIFE : !strcmp(m, "hand") ? E_HAND : !strcmp(m, "library") ? E_LIBRARY
           : !strcmp(m, "power") ? E_POWER : !strcmp(m, "toughness") ? E_TOUGHNESS : !strcmp(m, "mana_value") ? E_MANA_VALUE
           : !strcmp(m, "loyalty") ? E_LOYALTY : E_DAMAGE_ON;
    e = mk(l, op, n);
    if (!e || kids(l, e, 1) || !(e->k[0] = p_sel(l, main))) return NULL;
  } else if (!strcmp(m, "counters")) {
    e = mk(l, E_COUNTERS, n);
    if (!e || !(e->s = scalar(main))) return BAD(l, main, "counters: expected a counter kind such as '+1/+1', or all");
    e->i = !strcmp(e->s, "all"); /* "the number of counters on it": every kind */
    e->s = dup(l, e->s);
    const ynode *on = ymap_get(n, "on");
    if (kids(l, e, 1)) return NULL;
    if (on && !(e->k[0] = p_sel(l, on))) return NULL;
  } else if (!strcmp(m, "sum") || !strcmp(m, "minus") || !strcmp(m, "times") || !strcmp(m, "min") || !strcmp(m, "max")) {
    if (main->kind != YN_SEQ || main->n < 1) return BAD(l, main, "%s: expected a list of values", m);
    e = mk(l, !strcmp(m, "sum") ? E_SUM : !strcmp(m, "minus") ? E_DIFF : !strcmp(m, "times") ? E_MUL : !strcmp(m, "min") ? E_MIN : E_MAX, n);
    if (!e || kids(l, e, main->n)) return NULL;
    for (int i = 0; i < main->n; i++)
      if (!(e->k[i] = p_expr(l, main->items[i]))) return NULL;
  } else if (!strcmp(m, "half") || !strcmp(m, "neg")) {
    e = mk(l, !strcmp(m, "half") ? E_HALF : E_NEG, n);
    if (!e || kids(l, e, 1) || !(e->k[0] = p_expr(l, main))) return NULL;
    const ynode *r = ymap_get(n, "round");
    if (r && (!scalar(r) || (strcmp(scalar(r), "up") && strcmp(scalar(r), "down")))) return BAD(l, r, "round: up or down (default down)");
    e->i = r && !strcmp(scalar(r), "up");
  } else if (!strcmp(m, "greatest")) {
    /* {greatest: power, among: filter}: the greatest value among those objects */
    static const char *const of[] = {"power", "toughness", "mana_value", NULL};
    static const int ops[] = {E_POWER, E_TOUGHNESS, E_MANA_VALUE};
    int w = scalar(main) ? name_index(scalar(main), of, NELEM(of) - 1) : -1;
    if (w < 0) return BAD(l, main, "greatest: expected power, toughness or mana_value");
    const ynode *among = ymap_get(n, "among");
    if (!among) return BAD(l, n, "greatest: give 'among', a filter (among: {type: creature, controller: you})");
    e = mk(l, E_GREATEST, n);
    if (!e || !(e->f = p_filter(l, among))) return NULL;
    e->j = ops[w];
  } else if (!strcmp(m, "devotion")) {
    e = mk(l, E_DEVOTION, n);
    int c = scalar(main) ? color_parse(scalar(main)) : -1;
    if (c < 0) return (void *)(intptr_t)(bad_name(l, main, "color", color_names, 5) * 0);
    e->i = c;
  } else if (!strcmp(m, "chosen") || !strcmp(m, "noted") || !strcmp(m, "chosen_by_creator")) {
    e = mk(l, !strcmp(m, "noted") ? E_NOTED : E_CHOSEN, n);
    if (!scalar(main)) return BAD(l, main, "%s: expected a label", m);
    e->s = dup(l, scalar(main));
    e->i = !strcmp(m, "chosen_by_creator");
  } else {
    return BAD(l, mainkey, "unsupported value '%s'", m);
  }
  return e;
}

static Node *p_expr(L *l, const ynode *n) {
  if (!n) return BAD(l, n, "missing value");
  if (n->kind == YN_SCALAR) {
    Node *e;
    if (is_int(n->str)) {
      /* a literal is in the engine's range (|n| <= MTG_NUM_MAX, num.h) */
      long v;
      if (ynode_int(l->d, n, &v, l->err)) return NULL;
      e = mk(l, E_INT, n);
      if (e) e->i = (int32_t)v;
      return e;
    }
    if (!strcmp(n->str, "all")) {
      e = mk(l, E_INT, n);
      if (e) { e->i = 1 << 30; e->j = 1; }
      return e;
    }
    for (int i = 0; i < NELEM(expr_words); i++)
      if (!strcmp(n->str, expr_words[i].name)) return mk(l, expr_words[i].op, n);
    const char *w[NELEM(expr_words)];
    for (int i = 0; i < NELEM(expr_words); i++) w[i] = expr_words[i].name;
    const char *best = suggest_best(n->str, w, NELEM(w));
    return BAD(l, n, "expected a number or a value (X, amount, {count: ...}, ...), found '%s'%s%s%s", n->str,
               best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
  }
  if (n->kind == YN_MAP) return p_expr_map(l, n, NULL);
  return BAD(l, n, "expected a value, found a list");
}

static const struct {
  const char *name;
  int op;
  int i;
} sel_words[] = {
    {"self", SL_SELF, 0},          {"you", SL_YOU, 0},
    {"target", SL_TARGET, 0},      {"target1", SL_TARGET, 0},
    {"target2", SL_TARGET, 1},     {"target3", SL_TARGET, 2},
    {"targets", SL_TARGETS, 0},    {"each_player", SL_EACH_PLAYER, 0},
    {"each_opponent", SL_EACH_OPPONENT, 0}, {"it", SL_IT, 0},
    {"triggering_player", SL_TRIG_PLAYER, 0}, {"triggering_source", SL_TRIG_SOURCE, 0},
    {"enchanted", SL_ENCHANTED, 0}, {"equipped", SL_EQUIPPED, 0},
    {"attached", SL_ENCHANTED, 0}, {"controller", SL_CONTROLLER_OF, 0},
    {"owner", SL_OWNER_OF, 0},     {"active_player", SL_ACTIVE, 0},
    {"defending_player", SL_DEFENDING, 0}, {"result", SL_RESULT, 0},
    {"none", SL_NONE, 0},          {"its_controller", SL_ITS_CONTROLLER, 0},
    {"triggering_target", SL_TRIG_TARGET, 0}, {"remembered", SL_REMEMBERED, 0},
    {"its_owner", SL_OWNER_OF, 1},
    {"this_card", SL_THIS_CARD, 0},        {"triggering_spell_or_ability", SL_TRIG_STACK, 0},
};

static Node *p_sel(L *l, const ynode *n) {
  if (!n) return BAD(l, n, "missing object or player");
  if (n->kind == YN_SCALAR) {
    for (int i = 0; i < NELEM(sel_words); i++)
      if (!strcmp(n->str, sel_words[i].name)) {
        Node *s = mk(l, sel_words[i].op, n);
        if (s) s->i = sel_words[i].i;
        return s;
      }
    const char *w[NELEM(sel_words)];
    for (int i = 0; i < NELEM(sel_words); i++) w[i] = sel_words[i].name;
    const char *best = suggest_best(n->str, w, NELEM(w));
    if (best) return BAD(l, n, "unknown object or player '%s'; did you mean '%s'?", n->str, best);
    return BAD(l, n, "unknown object or player '%s' (self, you, target, it, each_player, {each: filter}, ...)", n->str);
  }
  if (n->kind == YN_SEQ) {
    Node *s = mk(l, SL_UNION, n);
    if (!s || kids(l, s, n->n)) return NULL;
    for (int i = 0; i < n->n; i++)
      if (!(s->k[i] = p_sel(l, n->items[i]))) return NULL;
    return s;
  }
  static const char *const keys[] = {"each", "target", "controller_of", "owner_of", "linked", "chosen", "top",
                                     "choose", "by", "n", "optional", "targeted", "linked_any", "of",
                                     "prompt", "choose_from", "linked_creator", "linked_by_name", "random", NULL};
  if (ymap_check_keys(l->d, n, keys, "object/player selector", l->err)) return NULL;
  /* one main key; the others only with the one that reads them */
  static const char *const mains[] = {"each", "target", "controller_of", "owner_of", "linked", "chosen", "top", "choose",
                                      "linked_any", "choose_from", "linked_creator", "linked_by_name", NULL};
  static const struct { const char *key, *with; } extras[] = {
      {"of", "top"}, {"by", "choose"}, {"n", "choose"}, {"optional", "choose"}, {"targeted", "choose"}, {"prompt", "choose"},
      {"random", "choose"}};
  const ynode *mainkey = NULL;
  for (int i = 0; i < n->n; i++) {
    const ynode *k = ymap_key(n, i);
    if (name_index(k->str, mains, NELEM(mains) - 1) < 0) continue;
    if (mainkey) return BAD(l, k, "a selector has one of each, target, choose, ...; found both '%s' and '%s'", mainkey->str, k->str);
    mainkey = k;
  }
  if (!mainkey) return BAD(l, n, "selector needs one of: each, target, choose, choose_from, linked, chosen, controller_of, owner_of, top");
  for (int i = 0; i < NELEM(extras); i++) {
    const ynode *k = ymap_get(n, extras[i].key);
    const char *m = mainkey->str;
    int ok = !strcmp(m, extras[i].with) || (!strcmp(extras[i].with, "choose") && !strcmp(m, "choose_from"));
    if (k && !ok) return BAD(l, k, "'%s' goes with '%s' in a selector, not with '%s'", extras[i].key, extras[i].with, m);
  }
  const ynode *v;
  Node *s;
  if ((v = ymap_get(n, "each"))) {
    s = mk(l, SL_EACH, n);
    if (!s || !(s->f = p_filter(l, v))) return NULL;
    return s;
  }
  if ((v = ymap_get(n, "target"))) {
    s = mk(l, SL_TARGET, n);
    long t;
    if (!s || ynode_int(l->d, v, &t, l->err)) return NULL;
    if (t < 1 || t > MAX_TARGETS) return BAD(l, v, "target number must be 1 to %d", MAX_TARGETS);
    s->i = (int)t - 1;
    return s;
  }
  if ((v = ymap_get(n, "controller_of")) || (v = ymap_get(n, "owner_of"))) {
    s = mk(l, ymap_get(n, "controller_of") ? SL_CONTROLLER_OF : SL_OWNER_OF, n);
    if (!s || kids(l, s, 1) || !(s->k[0] = p_sel(l, v))) return NULL;
    s->i = 2;
    return s;
  }
  if ((v = ymap_get(n, "linked")) || (v = ymap_get(n, "linked_any")) || (v = ymap_get(n, "chosen")) ||
      (v = ymap_get(n, "linked_creator")) || (v = ymap_get(n, "linked_by_name"))) {
    int lk = ymap_get(n, "linked") || ymap_get(n, "linked_creator") || ymap_get(n, "linked_by_name");
    s = mk(l, lk ? SL_LINKED : ymap_get(n, "linked_any") ? SL_LINKED_ANY : SL_CHOSEN, n);
    if (!s || !scalar(v)) return BAD(l, v, "expected a link label");
    s->s = dup(l, scalar(v));
    s->i = ymap_get(n, "linked_creator") ? 1 : ymap_get(n, "linked_by_name") ? 2 : 0;
    return s;
  }
  if ((v = ymap_get(n, "top"))) {
    s = mk(l, SL_TOP, n);
    if (!s || kids(l, s, 2) || !(s->k[0] = p_expr(l, v))) return NULL;
    const ynode *of = ymap_get(n, "of");
    if (of && !(s->k[1] = p_sel(l, of))) return NULL;
    return s;
  }
  if ((v = ymap_get(n, "choose")) || (v = ymap_get(n, "choose_from"))) {
    /* a player chooses objects (or players) at resolution; not targeted unless targeted: true */
    s = mk(l, SL_CHOOSE, n);
    if (!s || kids(l, s, 3)) return NULL;
    if (ymap_get(n, "choose_from")) {
      if (!(s->k[2] = p_sel(l, v))) return NULL;
    } else if (!(s->f = p_filter(l, v))) return NULL;
    const ynode *by = ymap_get(n, "by"), *cnt = ymap_get(n, "n"), *opt = ymap_get(n, "optional"), *tg = ymap_get(n, "targeted");
    if (by && !(s->k[0] = p_sel(l, by))) return NULL;
    if (cnt && !(s->k[1] = p_expr(l, cnt))) return NULL;
    int b = 0;
    if (opt && ynode_bool(l->d, opt, &b, l->err)) return NULL;
    s->i = b;
    b = 0;
    if (tg && ynode_bool(l->d, tg, &b, l->err)) return NULL;
    s->j = b;
    const ynode *rnd = ymap_get(n, "random");
    b = 0;
    if (rnd && ynode_bool(l->d, rnd, &b, l->err)) return NULL;
    if (b && (tg || by || opt)) return BAD(l, rnd, "random: a card chosen at random is chosen by no one (no by, optional or targeted)");
    if (b) s->j = 2; /* chosen at random */
    const ynode *pr = ymap_get(n, "prompt");
    if (pr && scalar(pr)) s->s = dup(l, scalar(pr));
    return s;
  }
  return BAD(l, n, "selector needs one of: each, target, choose, linked, chosen, controller_of, owner_of, top");
}

static int p_cmp(L *l, const ynode *m, Node **rhs, int *cmp, const ynode **where) {
  const ynode *found = NULL;
  for (int i = 0; cmp_keys[i]; i++) {
    const ynode *v = ymap_get(m, cmp_keys[i]);
    if (!v) continue;
    if (found) return BADI(l, v, "one comparison per condition (for a range, {all: [{...: at_least}, {...: at_most}]})");
    found = v;
    *cmp = i;
  }
  if (!found) return 0;
  *where = found;
  return (*rhs = p_expr(l, found)) ? 1 : -1;
}

/* A condition of the form {KEY: ..., [with: ...]}: no other key. */
static int cond_keys(L *l, const ynode *n, const char *key, const char *with) {
  const char *keys[3] = {key, with, NULL};
  char what[64];
  snprintf(what, sizeof what, "'%s' condition", key);
  return ymap_check_keys(l->d, n, keys, what, l->err);
}

static Node *p_cond(L *l, const ynode *n) {
  if (!n) return BAD(l, n, "missing condition");
  if (n->kind == YN_SCALAR) {
    static const struct { const char *w; int op; } words[] = {
        {"your_turn", C_YOUR_TURN}, {"kicked", C_KICKED}, {"did", C_DID}, {"true", C_TRUE},
        {"additional_cost_paid", C_ADDL_PAID}, {"new_since_last_upkeep", C_NEW_SINCE_UPKEEP}};
    for (int i = 0; i < NELEM(words); i++)
      if (!strcmp(n->str, words[i].w)) return mk(l, words[i].op, n);
    if (!strcmp(n->str, "not_your_turn")) {
      Node *c = mk(l, C_NOT, n);
      if (!c || kids(l, c, 1) || !(c->k[0] = mk(l, C_YOUR_TURN, n))) return NULL;
      return c;
    }
    return BAD(l, n, "unknown condition '%s' (your_turn, not_your_turn, kicked, additional_cost_paid, new_since_last_upkeep, did, or a mapping such as {life: you, at_least: 40})", n->str);
  }
  if (n->kind == YN_SEQ) {
    Node *c = mk(l, C_ALL, n);
    if (!c || kids(l, c, n->n)) return NULL;
    for (int i = 0; i < n->n; i++)
      if (!(c->k[i] = p_cond(l, n->items[i]))) return NULL;
    return c;
  }
  const ynode *v;
  Node *c;
  if ((v = ymap_get(n, "not"))) {
    if (n->n != 1) return BAD(l, n, "'not' stands alone in its mapping");
    c = mk(l, C_NOT, n);
    if (!c || kids(l, c, 1) || !(c->k[0] = p_cond(l, v))) return NULL;
    return c;
  }
  if ((v = ymap_get(n, "all")) || (v = ymap_get(n, "any"))) {
    if (cond_keys(l, n, ymap_get(n, "all") ? "all" : "any", NULL)) return NULL;
    if (v->kind != YN_SEQ) return BAD(l, v, "expected a list of conditions");
    c = mk(l, ymap_get(n, "all") ? C_ALL : C_ANY, n);
    if (!c || kids(l, c, v->n)) return NULL;
    for (int i = 0; i < v->n; i++)
      if (!(c->k[i] = p_cond(l, v->items[i]))) return NULL;
    return c;
  }
  if ((v = ymap_get(n, "exists")) || (v = ymap_get(n, "none"))) {
    int none = ymap_get(n, "none") != NULL;
    if (cond_keys(l, n, none ? "none" : "exists", NULL)) return NULL;
    c = mk(l, C_EXISTS, n);
    if (!c || !(c->f = p_filter(l, v))) return NULL;
    if (!none) return c;
    Node *no = mk(l, C_NOT, n);
    if (!no || kids(l, no, 1)) return NULL;
    no->k[0] = c;
    return no;
  }
  if ((v = ymap_get(n, "is"))) {
    static const char *const keys[] = {"is", "filter", NULL};
    if (ymap_check_keys(l->d, n, keys, "'is' condition", l->err)) return NULL;
    c = mk(l, C_IS, n);
    const ynode *f = ymap_get(n, "filter");
    if (!f) return BAD(l, n, "'is' needs a 'filter'");
    if (!c || kids(l, c, 1) || !(c->k[0] = p_sel(l, v)) || !(c->f = p_filter(l, f))) return NULL;
    return c;
  }
  if ((v = ymap_get(n, "in_zone"))) {
    if (cond_keys(l, n, "in_zone", "object")) return NULL;
    c = mk(l, C_IN_ZONE, n);
    int z = p_zone(l, v, 0);
    if (!c || z < 0) return NULL;
    c->i = z;
    const ynode *w = ymap_get(n, "object");
    if (kids(l, c, 1)) return NULL;
    if (w && !(c->k[0] = p_sel(l, w))) return NULL;
    return c;
  }
  if ((v = ymap_get(n, "chosen_is"))) {
    if (cond_keys(l, n, "chosen_is", "value")) return NULL;
    c = mk(l, C_CHOSEN_IS, n);
    const ynode *val = ymap_get(n, "value");
    if (!c || !scalar(v) || !val || !scalar(val)) return BAD(l, n, "chosen_is: {chosen_is: label, value: word}");
    c->s = dup(l, scalar(v));
    Node *w = mk(l, E_INT, val);
    if (!w || kids(l, c, 1)) return NULL;
    w->s = dup(l, scalar(val));
    c->k[0] = w;
    return c;
  }
  if ((v = ymap_get(n, "kicked"))) {
    /* {kicked: N}: the Nth kicker cost was paid (702.33f) */
    long k;
    if (cond_keys(l, n, "kicked", NULL)) return NULL;
    c = mk(l, C_KICKED, n);
    if (!c || ynode_int(l->d, v, &k, l->err)) return NULL;
    if (k < 1 || k > 3) return BAD(l, v, "kicked: the kicker's number, 1 to 3");
    c->i = (int32_t)k;
    return c;
  }
  if ((v = ymap_get(n, "cast_with"))) {
    /* the alternative cost the spell was cast for, or the permanent's spell:
     * "if it escaped" (702.138b), "if it was foretold" (702.143c), "if its dash cost was paid" */
    c = mk(l, C_CAST_WITH, n);
    int a = scalar(v) ? name_index(scalar(v), alt_names, ALT_COUNT) : -1;
    if (a <= ALT_NONE) return (void *)(intptr_t)(bad_name(l, v, "cast_with", alt_names + 1, ALT_COUNT - 1) * 0);
    if (c) c->i = a;
    return c;
  }
  if ((v = ymap_get(n, "cast_from"))) {
    if (cond_keys(l, n, "cast_from", NULL)) return NULL;
    c = mk(l, C_CAST_FROM, n);
    int z = p_zone(l, v, 0);
    if (!c || z < 0) return NULL;
    c->i = z;
    return c;
  }
  if ((v = ymap_get(n, "had_counters"))) {
    /* on the triggering object's last known information (undying, persist) */
    static const char *const hk[] = {"had_counters", "equals", "not_equals", "less_than", "at_most", "more_than", "at_least", NULL};
    if (ymap_check_keys(l->d, n, hk, "'had_counters' condition", l->err)) return NULL;
    c = mk(l, C_HAD_COUNTERS, n);
    if (!c || !scalar(v)) return BAD(l, v, "had_counters: expected a counter kind");
    c->s = dup(l, scalar(v));
    Node *rhs = NULL;
    int cmp = CMP_GE;
    const ynode *w;
    int r = p_cmp(l, n, &rhs, &cmp, &w);
    if (r < 0) return NULL;
    if (!r) {
      rhs = mk(l, E_INT, n);
      if (!rhs) return NULL;
      rhs->i = 1;
    }
    if (kids(l, c, 1)) return NULL;
    c->k[0] = rhs;
    c->i = cmp;
    return c;
  }
  /* comparison: {<value>: ..., at_least: N} */
  Node *rhs = NULL;
  int cmp = 0;
  const ynode *w = NULL;
  int r = p_cmp(l, n, &rhs, &cmp, &w);
  if (r < 0) return NULL;
  if (r == 0) {
    static const char *const known[] = {"not", "all", "any", "exists", "none", "is", "in_zone", "had_counters",
                                        "chosen_is", "cast_from", "at_least", "at_most", "equals", NULL};
    const char *k0 = n->n ? scalar(ymap_key(n, 0)) : "";
    const char *best = k0 ? suggest_best(k0, known, -1) : NULL;
    return BAD(l, n, "a condition needs a comparison (at_least, at_most, equals, more_than, less_than) or one of not, all, any, exists, none, is%s%s%s",
               best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
  }
  c = mk(l, C_CMP, n);
  Node *lhs = p_expr_map(l, n, cmp_keys);
  if (!c || !lhs || kids(l, c, 2)) return NULL;
  c->k[0] = lhs;
  c->k[1] = rhs;
  c->i = cmp;
  return c;
}

static const char *const filter_words[] = {
    "creature", "land", "artifact", "enchantment", "planeswalker", "battle", "instant", "sorcery",
    "permanent", "nonland_permanent", "spell", "card", "player", "opponent", "any_target",
    "creature_or_player", "creature_or_planeswalker", "instant_or_sorcery", "ability", "spell_or_ability",
    "basic_land", "creature_card", "enchantment_card", "land_card", "artifact_or_creature", "nontoken_creature",
    "creature_spell", "noncreature_spell", "artifact_spell", "any", "self", NULL};

static int filter_word(L *l, const ynode *n, Filter *f) {
  const char *s = n->str;
  int b = type_bit(s);
  if (b && strcmp(s, "instant") && strcmp(s, "sorcery")) { f->types_any = (uint32_t)b; return 0; }
  if (!strcmp(s, "instant") || !strcmp(s, "sorcery")) { f->types_any = (uint32_t)b; f->zone = -2; return 0; }
  if (!strcmp(s, "permanent")) { f->types_any = T_PERMANENT; return 0; }
  if (!strcmp(s, "nonland_permanent")) { f->types_any = T_PERMANENT; f->types_none = T_LAND; return 0; }
  if (!strcmp(s, "spell")) { f->spell = 1; f->zone = MTG_Z_STACK; return 0; }
  if (!strcmp(s, "creature_spell")) { f->spell = 1; f->zone = MTG_Z_STACK; f->types_any = T_CREATURE; return 0; }
  if (!strcmp(s, "noncreature_spell")) { f->spell = 1; f->zone = MTG_Z_STACK; f->types_none = T_CREATURE; return 0; }
  if (!strcmp(s, "artifact_spell")) { f->spell = 1; f->zone = MTG_Z_STACK; f->types_any = T_ARTIFACT; return 0; }
  if (!strcmp(s, "card")) { f->card = 1; f->zone = -2; return 0; }
  if (!strcmp(s, "player")) { f->player_target = 1; f->player_rel = R_ANY; f->types_any = 0xffffffffu; f->types_none = 0xffffffffu; return 0; }
  if (!strcmp(s, "opponent")) { f->player_target = 1; f->player_rel = R_OPP; f->types_none = 0xffffffffu; return 0; }
  if (!strcmp(s, "any_target")) { f->any_target = 1; return 0; }
  if (!strcmp(s, "creature_or_player")) { f->player_target = 1; f->player_rel = R_ANY; f->types_any = T_CREATURE; return 0; }
  if (!strcmp(s, "creature_or_planeswalker")) { f->types_any = T_CREATURE | T_PLANESWALKER; return 0; }
  if (!strcmp(s, "artifact_or_creature")) { f->types_any = T_CREATURE | T_ARTIFACT; return 0; }
  if (!strcmp(s, "nontoken_creature")) { f->types_any = T_CREATURE; f->token = 0; return 0; }
  if (!strcmp(s, "instant_or_sorcery")) { f->types_any = T_INSTANT | T_SORCERY; f->zone = -2; return 0; }
  if (!strcmp(s, "ability")) { f->stack_ability = 1; f->zone = MTG_Z_STACK; return 0; }
  if (!strcmp(s, "spell_or_ability")) { f->stack_ability = 2; f->zone = MTG_Z_STACK; return 0; }
  if (!strcmp(s, "basic_land")) { f->types_any = T_LAND; f->super_any = ST_BASIC; return 0; }
  if (!strcmp(s, "creature_card")) { f->types_any = T_CREATURE; f->card = 1; f->zone = -2; return 0; }
  if (!strcmp(s, "enchantment_card")) { f->types_any = T_ENCHANTMENT; f->card = 1; f->zone = -2; return 0; }
  if (!strcmp(s, "land_card")) { f->types_any = T_LAND; f->card = 1; f->zone = -2; return 0; }
  if (!strcmp(s, "any")) { f->zone = -2; return 0; }
  if (!strcmp(s, "self")) { f->self_only = 1; f->zone = -2; return 0; }
  return bad_name(l, n, "filter", filter_words, NELEM(filter_words) - 1);
}

static void filter_defaults(Filter *f) {
  f->colored = f->multicolored = f->tapped = f->token = f->attacking = f->blocking = f->spell = -1;
  f->unblocked = f->renowned = f->monstrous = f->saddled = -1;
  f->paired = -1;
  f->zone = -1;
}

static int p_num_cmp(L *l, const ynode *v, int8_t *cmp, int16_t *val) {
  if (v->kind == YN_SCALAR) {
    long x;
    if (ynode_int_range(l->d, v, -INT16_MAX, INT16_MAX, &x, l->err)) return -1;
    *cmp = CMP_EQ;
    *val = (int16_t)x;
    return 0;
  }
  if (v->kind != YN_MAP || v->n != 1) return BADI(l, v, "expected a number or {at_least: N} (at_most, equals, ...)");
  int c = name_index(scalar(ymap_key(v, 0)) ? scalar(ymap_key(v, 0)) : "", cmp_keys, 6);
  if (c < 0) return bad_name(l, ymap_key(v, 0), "comparison", cmp_keys, 6);
  long x;
  if (ynode_int_range(l->d, ymap_val(v, 0), -INT16_MAX, INT16_MAX, &x, l->err)) return -1;
  *cmp = (int8_t)c;
  *val = (int16_t)x;
  return 0;
}

static int bool_field(L *l, const ynode *v, int8_t *out) {
  int b;
  if (ynode_bool(l->d, v, &b, l->err)) return -1;
  *out = (int8_t)b;
  return 0;
}

static const Filter *p_filter(L *l, const ynode *n) {
  Filter *f = al(l, sizeof *f);
  if (!f) return NULL;
  filter_defaults(f);
  if (!n) return BAD(l, n, "missing filter");
  if (n->kind == YN_SCALAR) return filter_word(l, n, f) ? NULL : f;
  if (n->kind == YN_SEQ) return BAD(l, n, "a filter is a word or a mapping, not a list (use type: [a, b] for 'a or b')");
  static const char *const keys[] = {
      "is", "type", "types", "not_type", "supertype", "not_supertype", "subtype", "not_subtype", "color",
      "not_color", "colorless", "colored", "multicolored", "controller", "owner", "other", "tapped", "token",
      "card", "attacking", "blocking", "spell", "zone", "name", "chosen_color", "chosen_name", "power",
      "toughness", "mana_value", "keyword", "not_keyword", "counter", "no_counter", "not", "if",
      "blocking_or_blocked_by_self", "ability", "single_target", "player", "legendary", "or",
      "entered_with_self", "shares_color_with", "same_name_as", "other_than", "one_of", "unblocked", "renowned", "paired", "paired_with_self",
      "monstrous", "shares_color_with_mana_spent", "attached_to_player", "targets", "saddled", NULL};
  if (ymap_check_keys(l->d, n, keys, "filter", l->err)) return NULL;
  const ynode *isv = ymap_get(n, "is"), *typev = ymap_get(n, "type");
  if (isv && scalar(isv) && typev) {
    /* a word that names card types would be replaced or widened by 'type' */
    Filter w;
    filter_defaults(&w);
    if (filter_word(l, isv, &w)) return NULL;
    if (w.types_any)
      return BAD(l, typev, "'is: %s' already gives the card types: write one 'type' (any of) or 'types' (all of)", scalar(isv));
  }
  for (int i = 0; i < n->n; i++) {
    const char *k = ymap_key(n, i)->str;
    const ynode *v = ymap_val(n, i);
    if (!strcmp(k, "is")) {
      if (!scalar(v) || filter_word(l, v, f)) return scalar(v) ? NULL : BAD(l, v, "is: expected a filter word");
    } else if (!strcmp(k, "type")) {
      if (each_scalar(l, v, add_type, &f->types_any)) return NULL;
    } else if (!strcmp(k, "types")) {
      if (each_scalar(l, v, add_type, &f->types_all)) return NULL;
    } else if (!strcmp(k, "not_type")) {
      if (each_scalar(l, v, add_type, &f->types_none)) return NULL;
    } else if (!strcmp(k, "supertype")) {
      if (each_scalar(l, v, add_super, &f->super_any)) return NULL;
    } else if (!strcmp(k, "legendary")) {
      int8_t b;
      if (bool_field(l, v, &b)) return NULL;
      if (b) f->super_any |= ST_LEGENDARY; else f->super_none |= ST_LEGENDARY;
    } else if (!strcmp(k, "not_supertype")) {
      if (each_scalar(l, v, add_super, &f->super_none)) return NULL;
    } else if (!strcmp(k, "subtype")) {
      const ynode *items[4];
      int cnt = 0;
      if (v->kind == YN_SEQ) {
        if (v->n > 4) return BAD(l, v->items[4], "subtype: at most 4 subtypes (any of them)");
        for (int j = 0; j < v->n; j++) items[cnt++] = v->items[j];
      } else items[cnt++] = v;
      for (int j = 0; j < cnt; j++) {
        if (!scalar(items[j])) return BAD(l, items[j], "subtype: expected a name");
        f->subtypes[f->nsub++] = dup(l, scalar(items[j]));
      }
    } else if (!strcmp(k, "not_subtype")) {
      if (!scalar(v)) return BAD(l, v, "not_subtype: expected a name");
      f->not_subtype = dup(l, scalar(v));
    } else if (!strcmp(k, "color")) {
      if (each_scalar(l, v, add_color, &f->colors_any)) return NULL;
    } else if (!strcmp(k, "not_color")) {
      if (each_scalar(l, v, add_color, &f->colors_none)) return NULL;
    } else if (!strcmp(k, "colorless")) {
      int8_t b;
      if (bool_field(l, v, &b)) return NULL;
      f->colored = (int8_t)!b;
    } else if (!strcmp(k, "colored")) {
      if (bool_field(l, v, &f->colored)) return NULL;
    } else if (!strcmp(k, "multicolored")) {
      if (bool_field(l, v, &f->multicolored)) return NULL;
    } else if (!strcmp(k, "controller") || !strcmp(k, "owner")) {
      int r;
      if (scalar(v) && !strcmp(scalar(v), "chooser")) r = R_CHOSEN;
      else if ((r = p_rel(l, v)) < 0) return NULL;
      if (!strcmp(k, "controller")) f->controller = (uint8_t)r; else f->owner = (uint8_t)r;
    } else if (!strcmp(k, "other")) {
      int8_t b;
      if (bool_field(l, v, &b)) return NULL;
      f->other = (uint8_t)b;
    } else if (!strcmp(k, "tapped")) {
      if (bool_field(l, v, &f->tapped)) return NULL;
    } else if (!strcmp(k, "token")) {
      if (bool_field(l, v, &f->token)) return NULL;
    } else if (!strcmp(k, "card")) {
      int8_t b;
      if (bool_field(l, v, &b)) return NULL;
      f->card = (uint8_t)b;
      if (b && f->zone == -1) f->zone = -2;
    } else if (!strcmp(k, "attacking")) {
      if (bool_field(l, v, &f->attacking)) return NULL;
    } else if (!strcmp(k, "blocking")) {
      if (bool_field(l, v, &f->blocking)) return NULL;
    } else if (!strcmp(k, "spell")) {
      if (bool_field(l, v, &f->spell)) return NULL;
      if (f->spell == 1) f->zone = MTG_Z_STACK;
    } else if (!strcmp(k, "zone")) {
      int z = p_zone(l, v, 1);
      if (z < -1) return NULL;
      f->zone = (int8_t)(z == -1 ? -2 : z);
    } else if (!strcmp(k, "name")) {
      if (!scalar(v)) return BAD(l, v, "name: expected a card name");
      f->name = dup(l, scalar(v));
    } else if (!strcmp(k, "chosen_color") || !strcmp(k, "chosen_name")) {
      /* true (the choice labelled color / name) or the label of the choice */
      int8_t *flag = !strcmp(k, "chosen_color") ? &f->chosen_color : &f->chosen_name;
      int b;
      const char *sv = scalar(v);
      if (sv && !v->quoted && (!strcmp(sv, "true") || !strcmp(sv, "false") || !strcmp(sv, "yes") || !strcmp(sv, "no"))) {
        b = !strcmp(sv, "true") || !strcmp(sv, "yes");
        *flag = (int8_t)b;
      } else if (sv) {
        *flag = 1;
        f->chosen_label = dup(l, scalar(v));
      } else {
        return BAD(l, v, "%s: true, or the label of the choice", k);
      }
    } else if (!strcmp(k, "power")) {
      if (p_num_cmp(l, v, &f->pow_cmp, &f->pow_val)) return NULL;
      f->pow_cmp = (int8_t)(f->pow_cmp + 1);
    } else if (!strcmp(k, "toughness")) {
      if (p_num_cmp(l, v, &f->tough_cmp, &f->tough_val)) return NULL;
      f->tough_cmp = (int8_t)(f->tough_cmp + 1);
    } else if (!strcmp(k, "mana_value")) {
      if (p_num_cmp(l, v, &f->mv_cmp, &f->mv_val)) return NULL;
      f->mv_cmp = (int8_t)(f->mv_cmp + 1);
    } else if (!strcmp(k, "keyword")) {
      if (each_scalar(l, v, add_kw, &f->kw_has)) return NULL;
    } else if (!strcmp(k, "not_keyword")) {
      if (each_scalar(l, v, add_kw, &f->kw_not)) return NULL;
    } else if (!strcmp(k, "counter") || !strcmp(k, "no_counter")) {
      if (!scalar(v)) return BAD(l, v, "%s: expected a counter kind", k);
      if (!strcmp(k, "counter")) f->counter = dup(l, scalar(v)); else f->no_counter = dup(l, scalar(v));
    } else if (!strcmp(k, "not")) {
      if (!(f->not_f = p_filter(l, v))) return NULL;
    } else if (!strcmp(k, "if")) {
      if (!(f->cond = p_cond(l, v))) return NULL;
    } else if (!strcmp(k, "blocking_or_blocked_by_self")) {
      int8_t b;
      if (bool_field(l, v, &b)) return NULL;
      f->blocking_or_blocked_by_self = (uint8_t)b;
    } else if (!strcmp(k, "ability")) {
      int8_t b;
      if (bool_field(l, v, &b)) return NULL;
      if (!b) return BAD(l, v, "ability: false means nothing here; leave it out (ability: true is an ability on the stack)");
      f->stack_ability = (uint8_t)b;
      f->zone = MTG_Z_STACK;
    } else if (!strcmp(k, "single_target")) {
      int8_t b;
      if (bool_field(l, v, &b)) return NULL;
      f->single_target = (uint8_t)b;
    } else if (!strcmp(k, "or")) {
      if (!(f->or_f = p_filter(l, v))) return NULL;
    } else if (!strcmp(k, "shares_color_with")) {
      if (!(f->share_color = p_sel(l, v))) return NULL;
    } else if (!strcmp(k, "targets")) {
      if (!(f->targets_f = p_filter(l, v))) return NULL;
    } else if (!strcmp(k, "same_name_as")) {
      if (!(f->same_name = p_sel(l, v))) return NULL;
    } else if (!strcmp(k, "other_than")) {
      if (!(f->other_than = p_sel(l, v))) return NULL;
    } else if (!strcmp(k, "one_of")) {
      if (!(f->one_of = p_sel(l, v))) return NULL;
    } else if (!strcmp(k, "unblocked")) {
      if (bool_field(l, v, &f->unblocked)) return NULL;
    } else if (!strcmp(k, "renowned")) {
      if (bool_field(l, v, &f->renowned)) return NULL;
    } else if (!strcmp(k, "paired")) {
      if (bool_field(l, v, &f->paired)) return NULL;
    } else if (!strcmp(k, "paired_with_self")) {
      int8_t b;
      if (bool_field(l, v, &b)) return NULL;
      if (!b) return BAD(l, v, "paired_with_self: false does nothing; leave the key out");
      f->paired_with_self = 1;
    } else if (!strcmp(k, "attached_to_player")) {
      int r = p_rel(l, v);
      if (r < 0) return NULL;
      f->attached_player = (uint8_t)(r + 1);
    } else if (!strcmp(k, "monstrous")) {
      if (bool_field(l, v, &f->monstrous)) return NULL;
    } else if (!strcmp(k, "saddled")) {
      if (bool_field(l, v, &f->saddled)) return NULL;
    } else if (!strcmp(k, "shares_color_with_mana_spent")) {
      int8_t b;
      if (bool_field(l, v, &b)) return NULL;
      f->mana_spent_color = (uint8_t)b;
    } else if (!strcmp(k, "entered_with_self")) {
      int8_t b;
      if (bool_field(l, v, &b)) return NULL;
      f->entered_with_self = (uint8_t)b;
    } else if (!strcmp(k, "player")) {
      int r = p_rel(l, v);
      if (r < 0) return NULL;
      f->player_target = 1;
      f->player_rel = (uint8_t)r;
    }
  }
  /* qualities that can't hold together: refused rather than a filter that matches nothing */
  if (f->single_target && f->spell != 1)
    return BAD(l, n, "single_target asks how many targets a spell has: it needs 'spell: true' beside it");
  if (f->stack_ability && f->zone != MTG_Z_STACK)
    return BAD(l, n, "an ability (ability: true) is on the stack: 'zone' can't name another zone beside it");
  return f;
}

/* ---- keywords ---- */

/* A keyword list (a card's `keywords`, a static's `add_keywords`, a `grant`
 * step's `keywords`): the keywords the rules implement, as bits, and keyword
 * abilities with a parameter, as abilities: "protection from [quality]"
 * (702.16a), "[quality] landwalk" (702.14a), "bands with other [quality]"
 * (702.22b) as AB_KEYWORD abilities; bushido, rampage, renown (and on a card,
 * ninjutsu) as the triggered or activated abilities they stand for, written
 * out here in the card format (702.45a, 702.23a, 702.112a, 702.49a). */
typedef struct KwList {
  uint64_t bits;
  Ability *ab;             /* room for max abilities */
  int n, max, base;        /* base: the index of the first on its card */
  const char *prot_chosen; /* protection from the color chosen for the source: the choice's label */
} KwList;

static int p_ability(L *l, const ynode *n, Ability *a, int index);
static const CardDef *p_ability_list(L *l, const ynode *v, const char *what);

static int kw_room(L *l, const ynode *at, KwList *k, int need) {
  if (k->n + need > k->max) return BADI(l, at, "too many keyword abilities with a parameter");
  return 0;
}

/* Compiles one ability written in the card format by the loader itself. */
static int kw_compile(L *l, const ynode *at, const char *y, KwList *k) {
  if (kw_room(l, at, k, 1)) return -1;
  ydoc *d;
  if (ydoc_parse_buffer("<keyword>", y, strlen(y), &d, l->err)) return -1;
  L sub = *l;
  sub.d = d;
  Ability *a = &k->ab[k->n];
  memset(a, 0, sizeof *a);
  int rc = p_ability(&sub, ydoc_root(d, 0), a, k->base + k->n);
  ydoc_free(d);
  if (rc) return -1;
  k->n++;
  return 0;
}

static int kw_param(L *l, const ynode *at, KwList *k, int pk, const Filter *f) {
  if (kw_room(l, at, k, 1)) return -1;
  Ability *a = &k->ab[k->n];
  memset(a, 0, sizeof *a);
  a->kind = AB_KEYWORD;
  a->index = (uint8_t)(k->base + k->n);
  a->zone = -1;
  a->kw = (uint8_t)pk;
  a->kwf = f;
  k->n++;
  return 0;
}

static const char *const basic_types[5] = {"Plains", "Island", "Swamp", "Mountain", "Forest"};
static const char *const param_kws[] = {"protection_from", "landwalk", "bands_with_other", "bushido", "rampage",
                                        "renown", "ninjutsu", "crew", "toxic", "poisonous", "saddle", NULL};

/* "protection from X": a color (a keyword the rules implement), everything,
 * the chosen color, or a quality (a filter on the source, 702.16a) */
static int kw_protection(L *l, const ynode *v, KwList *k, int on_card) {
  const char *sv = scalar(v);
  if (sv) {
    int col = color_parse(sv);
    if (col >= 0 && col < 5) {
      k->bits |= 1ULL << (KW_PROT_W + col);
      return 0;
    }
    if (!strcmp(sv, "everything")) {
      k->bits |= 1ULL << KW_PROTECTION_ALL;
      return 0;
    }
    if (!strcmp(sv, "multicolored_spells")) {
      k->bits |= 1ULL << KW_PROT_MULTICOLOR_SPELLS;
      return 0;
    }
  }
  const ynode *ch = v->kind == YN_MAP && v->n == 1 ? ymap_get(v, "chosen_color") : NULL;
  if ((sv && !strcmp(sv, "chosen_color")) || ch) {
    const char *lb = ch && scalar(ch) && strcmp(scalar(ch), "true") ? scalar(ch) : "color";
    if (!on_card) {
      /* granted by another object: the color chosen for that object */
      k->prot_chosen = dup(l, lb);
      return 0;
    }
    Filter *f = al(l, sizeof *f);
    if (!f) return -1;
    filter_defaults(f);
    f->chosen_color = 1;
    f->chosen_label = dup(l, lb);
    f->zone = -2;
    return kw_param(l, v, k, PK_PROTECTION, f);
  }
  const Filter *pf = p_filter(l, v);
  if (!pf) return -1;
  Filter *f = al(l, sizeof *f);
  if (!f) return -1;
  *f = *pf;
  /* 702.16a: a source anywhere, on the battlefield or not */
  if (f->zone == -1 && f->spell != 1 && !f->stack_ability) f->zone = -2;
  return kw_param(l, v, k, PK_PROTECTION, f);
}

static int kw_item(L *l, const ynode *it, KwList *k, int on_card) {
  if (scalar(it)) {
    const char *s = scalar(it);
    int b = name_index(s, kw_names, KW_COUNT);
    if (b >= 0) {
      k->bits |= 1ULL << b;
      return 0;
    }
    const char *best = suggest_best(s, kw_names, KW_COUNT);
    if (!best) best = suggest_best(s, param_kws, -1);
    char list[1200];
    suggest_join(kw_names, KW_COUNT, list, sizeof list);
    if (best) return BADI(l, it, "unknown keyword '%s'; did you mean '%s'?", s, best);
    return BADI(l, it, "unknown keyword '%s'; expected one of: %s, or one with a parameter: {protection_from: ...}, "
                "{landwalk: ...}, {bands_with_other: ...}, {bushido: N}, {rampage: N}, {renown: N}, {ninjutsu: cost}, "
                "{crew: N}, {saddle: N}, {toxic: N}, {poisonous: N}", s, list);
  }
  if (it->kind != YN_MAP || it->n != 1 || !scalar(ymap_key(it, 0)))
    return BADI(l, it, "a keyword is a word (flying) or a mapping with one key ({protection_from: red}, {bushido: 1})");
  const char *key = scalar(ymap_key(it, 0));
  const ynode *v = ymap_val(it, 0);
  int pk = name_index(key, param_kws, NELEM(param_kws) - 1);
  if (pk < 0) return bad_name(l, ymap_key(it, 0), "keyword with a parameter", param_kws, NELEM(param_kws) - 1);
  char y[640];
  switch (pk) {
  case 0:
    return kw_protection(l, v, k, on_card);
  case 1: {
    /* 702.14a: a land type (a basic one is a keyword the rules implement) or a quality of lands */
    const char *sv = scalar(v);
    for (int i = 0; sv && i < 5; i++)
      if (!strcmp(sv, basic_types[i])) {
        k->bits |= 1ULL << (KW_PLAINSWALK + i);
        return 0;
      }
    Filter *f = al(l, sizeof *f);
    if (!f) return -1;
    if (sv) {
      filter_defaults(f);
      f->subtypes[f->nsub++] = dup(l, sv);
    } else {
      const Filter *lf = p_filter(l, v);
      if (!lf) return -1;
      *f = *lf;
    }
    f->types_any |= T_LAND;
    return kw_param(l, v, k, PK_LANDWALK, f);
  }
  case 2:
    /* banding is implemented (combat.c); its special form is not: a creature
     * with it would band as with banding, which it doesn't */
    return BADI(l, ymap_key(it, 0), "bands_with_other is not in the card format yet (702.22c: bands of [quality] creatures, "
                "702.22j-k: the damage division they bring); leave it out and say so in 'unsupported'");
  case 3: case 4: case 5: {
    long n;
    if (ynode_int(l->d, v, &n, l->err)) return -1;
    if (n < 1 || n > 99) return BADI(l, v, "%s: a number from 1 to 99", key);
    if (pk == 3) {
      /* 702.45a: "Whenever this creature blocks or becomes blocked, it gets +N/+N until end of turn" */
      static const char *const evs[2] = {"blocks", "becomes_blocked"};
      for (int i = 0; i < 2; i++) {
        snprintf(y, sizeof y, "triggered: {when: {%s: self}, effect: [{pump: self, power: %ld, toughness: %ld}]}\n"
                              "text: Bushido %ld (702.45)", evs[i], n, n, n);
        if (kw_compile(l, v, y, k)) return -1;
      }
      return 0;
    }
    if (pk == 4)
      /* 702.23a: +N/+N for each creature blocking it beyond the first, counted on resolution (702.23b) */
      snprintf(y, sizeof y, "triggered: {when: {becomes_blocked: self}, effect: [{pump: self, "
                            "power: {times: [%ld, {max: [0, {minus: [{count: {type: creature, blocking: true, blocking_or_blocked_by_self: true}}, 1]}]}]}, "
                            "toughness: {times: [%ld, {max: [0, {minus: [{count: {type: creature, blocking: true, blocking_or_blocked_by_self: true}}, 1]}]}]}}]}\n"
                            "text: Rampage %ld (702.23)", n, n, n);
    else
      /* 702.112a */
      snprintf(y, sizeof y, "triggered: {when: {damage: {by: self, to: player, combat: true}}, "
                            "if: {is: self, filter: {renowned: false}}, effect: [{renown: %ld}]}\n"
                            "text: Renown %ld (702.112)", n, n);
    return kw_compile(l, v, y, k);
  }
  case 6: {
    if (!on_card) return BADI(l, it, "ninjutsu is a card's own ability (702.49a); it can't be granted this way");
    ManaCost mc;
    char why[120];
    if (!scalar(v) || mana_parse(scalar(v), &mc, NULL, NULL, why, sizeof why))
      return BADI(l, v, "ninjutsu: expected a mana cost like \"{1}{U}\"");
    /* 702.49a: [Cost], Reveal this card from your hand, Return an unblocked attacking
     * creature you control to its owner's hand: Put this card onto the battlefield from
     * your hand tapped and attacking */
    snprintf(y, sizeof y, "activated: {cost: \"%s\", costs: [return_unblocked_attacker], zone: hand, "
                          "effect: [{put_onto_battlefield: self, tapped: true, attacking: returned}]}\n"
                          "text: Ninjutsu (702.49)", scalar(v));
    return kw_compile(l, v, y, k);
  }
  case 7: case 8: case 9: case 10: {
    long n;
    if (ynode_int(l->d, v, &n, l->err)) return -1;
    if (n < 1 || n > 99) return BADI(l, v, "%s: a number from 1 to 99", key);
    if (pk == 8) {
      /* 702.164a-c: a static ability; the player dealt combat damage gets the
       * creature's total toxic value in poison counters (perform.c) */
      if (kw_param(l, v, k, PK_TOXIC, NULL)) return -1;
      k->ab[k->n - 1].kwn = (int16_t)n;
      return 0;
    }
    if (pk == 9) {
      /* 702.70a: "Whenever this creature deals combat damage to a player, that player gets N poison counters" */
      snprintf(y, sizeof y, "triggered: {when: {damage: {by: self, to: player, combat: true}}, "
                            "effect: [{put_counters: poison, n: %ld, on: triggering_player}]}\n"
                            "text: Poisonous %ld (702.70)", n, n);
      return kw_compile(l, v, y, k);
    }
    if (pk == 7)
      /* 702.122a: "Tap any number of other untapped creatures you control with
       * total power N or greater: This permanent becomes an artifact creature
       * until end of turn"; it then has its printed power and toughness (301.7b).
       * Its resolving is what "becomes crewed" triggers on (702.122d). */
      snprintf(y, sizeof y, "activated: {effect: [{becomes: self, types: [artifact, creature], in_addition: true}, "
                            "{become_crewed: self}]}\n"
                            "text: Crew %ld (702.122)", n);
    else
      /* 702.171a: the same cost: "This permanent becomes saddled until end of
       * turn. Activate only as a sorcery." */
      snprintf(y, sizeof y, "activated: {sorcery: true, effect: [{become_saddled: self}]}\n"
                            "text: Saddle %ld (702.171)", n);
    if (kw_compile(l, v, y, k)) return -1;
    Filter *f = al(l, sizeof *f);
    if (!f) return -1;
    filter_defaults(f);
    f->types_any = T_CREATURE;
    f->other = 1;
    Cost *c = &k->ab[k->n - 1].cost;
    c->part[0].kind = CK_TAP_POWER;
    c->part[0].n = (int16_t)n;
    c->part[0].f = f;
    c->nparts = 1;
    return 0;
  }
  }
  return BADI(l, it, "internal: keyword");
}

/* The abilities a keyword list can add: two for each keyword with a parameter. */
static int kw_count_params(const ynode *v) {
  int n = 0;
  for (int i = 0; v && v->kind == YN_SEQ && i < v->n; i++) n += v->items[i]->kind == YN_MAP ? 2 : 0;
  if (v && v->kind == YN_MAP) n += 2;
  return n;
}

static int p_keywords(L *l, const ynode *v, KwList *k, int on_card) {
  if (v->kind != YN_SEQ) {
    if (on_card) return BADI(l, v, "keywords: expected a list like [flying, {protection_from: red}]");
    return kw_item(l, v, k, on_card);
  }
  for (int i = 0; i < v->n; i++)
    if (kw_item(l, v->items[i], k, on_card)) return -1;
  return 0;
}

/* A definition's abilities, and what is asked of them often enough to be
 * found once here: every definition gets its abilities through this. */
static void def_abilities(CardDef *d, Ability *ab, int n) {
  d->ab = ab;
  d->nab = (uint8_t)n;
  d->ctl_static = 0;
  for (int i = 0; i < n; i++)
    if (ab[i].kind == AB_STATIC && ab[i].st.kind == SE_CONTROL) d->ctl_static = 1;
}

/* A keyword list granted by a static ability or an effect: its abilities with
 * a parameter become those of a definition of their own (607.5). */
static int p_granted_keywords(L *l, const ynode *v, uint64_t *bits, const CardDef **abs, const char **chosen) {
  KwList k;
  memset(&k, 0, sizeof k);
  k.max = kw_count_params(v);
  if (k.max && !(k.ab = al(l, (size_t)k.max * sizeof *k.ab))) return -1;
  if (p_keywords(l, v, &k, 0)) return -1;
  *bits = k.bits;
  *chosen = k.prot_chosen;
  *abs = NULL;
  if (k.n) {
    CardDef *d = al(l, sizeof *d);
    if (!d) return -1;
    d->name = l->card;
    def_abilities(d, k.ab, k.n);
    *abs = d;
  }
  return 0;
}

/* ---- steps ---- */

enum ptype { P_EXPR, P_SEL, P_FILTER, P_COND, P_STEPS, P_STR, P_BOOL, P_ZONE, P_DUR, P_TRIG, P_REPL, P_TOKEN, P_KWS, P_WORDS, P_COUNTERS, P_INT,
             P_WORDS1, /* one word or a list of them */
             P_RAW     /* read by step_finish */ };

/* A parameter: its key, its type, and for a selector the one it stands for
 * when it is not given (the step's default object or player, filled in by
 * p_step, so the interpreter always has a selector) */
typedef struct { const char *key; uint8_t t; uint16_t dflt; } Param;
#define MAX_STEP_PARAMS 12
typedef struct { const char *name; uint16_t op; Param p[MAX_STEP_PARAMS]; } StepDef;

/* Each step's parameters by position: k[i] holds parameter i. The first is the
 * value of the step's own key. */
static const StepDef step_defs[] = {
    {"damage", S_DAMAGE, {{"damage", P_EXPR, 0}, {"to", P_SEL, SL_TARGET}, {"source", P_SEL, 0}, {"unpreventable", P_BOOL, 0}, {"divided", P_BOOL, 0}}},
    {"draw", S_DRAW, {{"draw", P_EXPR, 0}, {"who", P_SEL, SL_YOU}}},
    {"gain_life", S_GAIN_LIFE, {{"gain_life", P_EXPR, 0}, {"who", P_SEL, SL_YOU}}},
    {"lose_life", S_LOSE_LIFE, {{"lose_life", P_EXPR, 0}, {"who", P_SEL, SL_YOU}}},
    {"set_life", S_SET_LIFE, {{"set_life", P_EXPR, 0}, {"who", P_SEL, SL_YOU}}},
    {"destroy", S_DESTROY, {{"destroy", P_SEL, SL_TARGET}, {"no_regenerate", P_BOOL, 0}}},
    {"exile", S_EXILE, {{"exile", P_SEL, SL_TARGET}, {"link", P_STR, 0}, {"until_source_leaves", P_BOOL, 0}, {"counter", P_STR, 0}, {"face_down", P_BOOL, 0}}},
    {"sacrifice", S_SACRIFICE, {{"sacrifice", P_SEL, SL_SELF}}},
    {"bounce", S_BOUNCE, {{"bounce", P_SEL, SL_TARGET}}},
    {"put_onto_battlefield", S_PUT_BATTLEFIELD, {{"put_onto_battlefield", P_SEL, 0}, {"under", P_SEL, 0}, {"tapped", P_BOOL, 0}, {"link", P_STR, 0}, {"counters", P_COUNTERS, 0},
                                                 {"attacking", P_STR, 0}}},
    {"counter", S_COUNTER, {{"counter", P_SEL, SL_TARGETS}, {"to", P_ZONE, 0}}},
    {"mill", S_MILL, {{"mill", P_EXPR, 0}, {"who", P_SEL, SL_YOU}}},
    {"discard", S_DISCARD, {{"discard", P_EXPR, 0}, {"who", P_SEL, SL_YOU}, {"random", P_BOOL, 0}, {"filter", P_FILTER, 0}, {"by", P_SEL, 0},
                            {"reveal", P_BOOL, 0}}},
    {"shuffle_into_library", S_SHUFFLE_INTO, {{"shuffle_into_library", P_SEL, SL_SELF}}},
    {"put_on_library", S_PUT_LIBRARY, {{"put_on_library", P_SEL, SL_TARGET}, {"bottom", P_BOOL, 0}}},
    {"shuffle", S_SHUFFLE, {{"shuffle", P_SEL, SL_YOU}}},
    {"search_library", S_SEARCH, {{"search_library", P_FILTER, 0}, {"who", P_SEL, SL_YOU}, {"to", P_ZONE, 0}, {"tapped", P_BOOL, 0}, {"n", P_EXPR, 0}, {"optional", P_BOOL, 0}, {"reveal", P_BOOL, 0},
                                {"of", P_SEL, 0}, {"zones", P_WORDS1, 0}, {"and_or", P_BOOL, 0}, {"attach_to", P_SEL, 0},
                                {"face_down", P_BOOL, 0}}},
    {"create_token", S_TOKEN, {{"create_token", P_TOKEN, 0}, {"n", P_EXPR, 0}, {"under", P_SEL, SL_YOU}}},
    {"create_token_copy", S_TOKEN_COPY, {{"create_token_copy", P_SEL, 0}, {"n", P_EXPR, 0}, {"under", P_SEL, SL_YOU}}},
    {"put_counters", S_PUT_COUNTERS, {{"put_counters", P_STR, 0}, {"n", P_EXPR, 0}, {"on", P_SEL, SL_SELF}, {"divided", P_BOOL, 0}}},
    {"remove_counters", S_REMOVE_COUNTERS, {{"remove_counters", P_STR, 0}, {"n", P_EXPR, 0}, {"from", P_SEL, SL_SELF}}},
    {"double_counters", S_DOUBLE_COUNTERS, {{"double_counters", P_STR, 0}, {"on", P_SEL, SL_SELF}}},
    {"clear_counters", S_CLEAR_COUNTERS, {{"clear_counters", P_STR, 0}, {"from", P_SEL, SL_SELF}}},
    {"tap", S_TAP, {{"tap", P_SEL, SL_TARGET}}},
    {"untap", S_UNTAP, {{"untap", P_SEL, SL_TARGET}}},
    {"pump", S_PUMP, {{"pump", P_SEL, SL_TARGET}, {"power", P_EXPR, 0}, {"toughness", P_EXPR, 0}, {"duration", P_DUR, 0}}},
    {"grant", S_GRANT, {{"grant", P_SEL, SL_TARGET}, {"keywords", P_KWS, 0}, {"duration", P_DUR, 0}, {"lose_all_abilities", P_BOOL, 0},
                        {"rule", P_STR, 0}, {"n", P_INT, 0}, {"by", P_FILTER, 0}, {"except_by", P_FILTER, 0}, {"attackers", P_FILTER, 0},
                        {"unless", P_COND, 0}, {"remove_keywords", P_KWS, 0}}},
    {"gain_abilities_of", S_GRANT_ABILITY, {{"gain_abilities_of", P_SEL, SL_TARGET}, {"to", P_SEL, SL_SELF}, {"duration", P_DUR, 0}, {"activated_only", P_BOOL, 0}}},
    {"gain_control", S_GAIN_CONTROL, {{"gain_control", P_SEL, SL_TARGET}, {"who", P_SEL, SL_YOU}, {"duration", P_DUR, 0}}},
    {"add_mana", S_ADD_MANA, {{"add_mana", P_STR, 0}, {"who", P_SEL, SL_YOU}, {"n", P_EXPR, 0}, {"label", P_STR, 0}, {"one_color", P_BOOL, 0}}},
    {"win_game", S_WIN, {{"win_game", P_SEL, SL_YOU}}},
    {"lose_game", S_LOSE, {{"lose_game", P_SEL, SL_YOU}}},
    {"may", S_MAY, {{"may", P_STEPS, 0}, {"who", P_SEL, SL_YOU}, {"prompt", P_STR, 0}}},
    {"if", S_IF, {{"if", P_COND, 0}, {"then", P_STEPS, 0}, {"else", P_STEPS, 0}}},
    {"for_each", S_FOR_EACH, {{"for_each", P_SEL, 0}, {"do", P_STEPS, 0}}},
    {"choose", S_CHOOSE, {{"choose", P_STR, 0}, {"label", P_STR, 0}, {"who", P_SEL, SL_YOU}, {"words", P_WORDS, 0}, {"from", P_FILTER, 0}}},
    {"delayed_trigger", S_DELAYED, {{"delayed_trigger", P_TRIG, 0}, {"duration", P_DUR, 0}, {"remember", P_SEL, 0}}},
    {"when_you_do", S_REFLEXIVE, {{"when_you_do", P_TRIG, 0}}},
    {"replace_next", S_REPLACE_NEXT, {{"replace_next", P_REPL, 0}, {"duration", P_DUR, 0}}},
    {"prevent", S_PREVENT, {{"prevent", P_EXPR, 0}, {"to", P_SEL, SL_TARGET}, {"source", P_FILTER, 0}, {"duration", P_DUR, 0}, {"next_time", P_BOOL, 0},
                            {"source_is", P_SEL, 0}, {"combat", P_BOOL, 0}, {"sources", P_FILTER, 0}}},
    {"regenerate", S_REGENERATE, {{"regenerate", P_SEL, SL_SELF}}},
    {"attach", S_ATTACH, {{"attach", P_SEL, SL_SELF}, {"to", P_SEL, SL_TARGET}}},
    {"fight", S_FIGHT, {{"fight", P_SEL, SL_SELF}, {"with", P_SEL, SL_TARGET}}},
    {"copy_spell", S_COPY_SPELL, {{"copy_spell", P_SEL, SL_SELF}, {"n", P_EXPR, 0}, {"new_targets", P_BOOL, 0}, {"by", P_SEL, 0}}},
    {"change_target", S_CHANGE_TARGET, {{"change_target", P_SEL, SL_TARGET}}},
    {"reveal", S_REVEAL, {{"reveal", P_SEL, SL_SELF}}},
    {"explore", S_EXPLORE, {{"explore", P_SEL, SL_SELF}}},
    {"look_at_hand", S_LOOK_HAND, {{"look_at_hand", P_SEL, SL_TARGET}, {"who", P_SEL, SL_YOU}}},
    {"unless", S_UNLESS, {{"unless", P_STR, 0}, {"payer", P_SEL, SL_TARGET}, {"do", P_STEPS, 0}, {"x", P_EXPR, 0}, {"times", P_EXPR, 0}}},
    {"pay", S_PAY, {{"pay", P_STR, 0}, {"who", P_SEL, SL_YOU}, {"x", P_EXPR, 0}, {"prompt", P_STR, 0}}},
    {"extra_turn", S_EXTRA_TURN, {{"extra_turn", P_SEL, SL_YOU}}},
    {"return", S_RETURN, {{"return", P_SEL, SL_TARGET}, {"to", P_ZONE, 0}, {"under", P_SEL, 0}, {"tapped", P_BOOL, 0}, {"counters", P_COUNTERS, 0}}},
    {"any_player_may", S_ANY_PLAYER_MAY, {{"any_player_may", P_STEPS, 0}, {"otherwise", P_STEPS, 0}, {"prompt", P_STR, 0}}},
    {"skip", S_SKIP, {{"skip", P_STR, 0}, {"who", P_SEL, SL_YOU}}},
    {"note", S_NOTE, {{"note", P_STR, 0}, {"value", P_EXPR, 0}, {"player", P_SEL, 0}}},
    {"exile_top", S_EXILE_TOP, {{"exile_top", P_EXPR, 0}, {"who", P_SEL, SL_YOU}, {"link", P_STR, 0}}},
    {"must_block", S_MUST_BLOCK, {{"must_block", P_SEL, SL_TARGET}, {"duration", P_DUR, 0}}},
    {"phase_out", S_PHASE_OUT, {{"phase_out", P_SEL, SL_TARGET}}},
    {"play_free", S_PLAY_FREE, {{"play_free", P_SEL, SL_TARGET}}},
    {"pay_any_number", S_PAY_ANY_NUMBER, {{"pay_any_number", P_STR, 0}}},
    {"transform", S_TRANSFORM, {{"transform", P_SEL, SL_SELF}}},
    {"flip", S_FLIP, {{"flip", P_SEL, SL_SELF}}},
    {"roll_dice", S_ROLL_DICE, {{"roll_dice", P_EXPR, 0}, {"n", P_EXPR, 0}, {"label", P_STR, 0}}},
    {"abandon", S_ABANDON, {{"abandon", P_SEL, SL_SELF}}},
    {"planeswalk", S_PLANESWALK, {{"planeswalk", P_SEL, SL_YOU}}},
    {"exile_graveyard", S_EXILE_GRAVEYARD, {{"exile_graveyard", P_SEL, SL_EACH_PLAYER}}},
    {"shuffle_graveyard", S_SHUFFLE_GRAVEYARD, {{"shuffle_graveyard", P_SEL, SL_EACH_PLAYER}}},
    {"venture", S_VENTURE, {{"venture", P_SEL, SL_YOU}}},
    {"cast_transformed", S_CAST_TRANSFORMED, {{"cast_transformed", P_SEL, SL_RESULT}}},
    {"cast", S_CAST, {{"cast", P_SEL, SL_SELF}, {"for", P_STR, 0}}},
    {"cascade", S_CASCADE, {{"cascade", P_SEL, SL_SELF}}},
    {"manifest", S_MANIFEST, {{"manifest", P_EXPR, 0}, {"who", P_SEL, SL_YOU}}},
    {"scry", S_SCRY, {{"scry", P_EXPR, 0}, {"who", P_SEL, SL_YOU}}},
    {"surveil", S_SURVEIL, {{"surveil", P_EXPR, 0}, {"who", P_SEL, SL_YOU}}},
    {"monstrosity", S_MONSTROSITY, {{"monstrosity", P_EXPR, 0}}},
    {"renown", S_RENOWN, {{"renown", P_EXPR, 0}}},
    {"become_saddled", S_SADDLE, {{"become_saddled", P_SEL, SL_SELF}}},
    {"become_crewed", S_CREWED, {{"become_crewed", P_SEL, SL_SELF}}},
    {"class_level", S_CLASS_LEVEL, {{"class_level", P_EXPR, 0}}},
    {"additional_phases", S_ADD_PHASES, {{"additional_phases", P_WORDS1, 0}, {"after", P_STR, 0}}},
    {"proliferate", S_PROLIFERATE, {{"proliferate", P_SEL, SL_YOU}}},
    {"look_at_top", S_LOOK_TOP, {{"look_at_top", P_EXPR, 0}, {"of", P_SEL, SL_YOU}, {"reveal", P_BOOL, 0}, {"take", P_FILTER, 0}, {"n", P_EXPR, 0},
                                 {"optional", P_BOOL, 0}, {"to", P_ZONE, 0}, {"tapped", P_BOOL, 0}, {"rest", P_STR, 0}, {"reveal_taken", P_BOOL, 0},
                                 {"who", P_SEL, 0}}},
    {"clash", S_CLASH, {{"clash", P_STR, 0}}},
    {"reorder_graveyard", S_REORDER_GRAVEYARD, {{"reorder_graveyard", P_SEL, SL_YOU}}},
    {"play_exiled", S_PLAY_EXILED, {{"play_exiled", P_SEL, SL_TARGET}, {"who", P_SEL, SL_YOU}, {"duration", P_DUR, 0}, {"free", P_BOOL, 0},
                                   {"any_mana", P_BOOL, 0}, {"cast_only", P_BOOL, 0}}},
    {"additional_land_plays", S_LAND_PLAYS, {{"additional_land_plays", P_EXPR, 0}, {"who", P_SEL, SL_YOU}}},
    {"replacement", S_REPLACEMENT, {{"replacement", P_REPL, 0}, {"duration", P_DUR, 0}, {"on", P_SEL, 0}}},
    {"exile_until", S_EXILE_UNTIL, {{"exile_until", P_FILTER, 0}, {"who", P_SEL, SL_YOU}, {"link", P_STR, 0}}},
    {"pair", S_PAIR, {{"pair", P_SEL, SL_SELF}, {"with", P_SEL, 0}}},
    {"become_copy", S_BECOME_COPY, {{"become_copy", P_SEL, SL_SELF}, {"of", P_SEL, 0}, {"name", P_STR, 0}, {"add_supertypes", P_RAW, 0},
                                    {"keep_ability", P_BOOL, 0}, {"duration", P_DUR, 0}}},
    {"becomes", S_BECOMES, {{"becomes", P_SEL, SL_TARGET}, {"duration", P_DUR, 0}, {"pt", P_RAW, 0}, {"types", P_RAW, 0}, {"subtypes", P_RAW, 0},
                            {"colors", P_RAW, 0}, {"keywords", P_RAW, 0}, {"abilities", P_RAW, 0}, {"in_addition", P_BOOL, 0}, {"label", P_STR, 0}}},
};

static const Ability *p_trigger_ability(L *l, const ynode *n, int delayed);
static const ReplSpec *p_repl(L *l, const ynode *n, int in_effect);
static const CardDef *p_card(L *l, const ynode *n, int token);

/* 111.10: the predefined tokens, each written out once in the card format, so
 * that `create_token: Clue` creates exactly the token its full definition
 * creates. The name is the subtype plus "Token" (111.4). */
static const struct { const char *name, *yaml; } predefined_tokens[] = {
    {"Treasure", "name: Treasure Token\ntype: Artifact \xe2\x80\x94 Treasure\ntext: \"{T}, Sacrifice this token: Add one mana of any color.\"\n"
                 "abilities: [{activated: {cost: \"{T}\", costs: [sacrifice_self], effect: [{add_mana: any}]}}]"},
    {"Food", "name: Food Token\ntype: Artifact \xe2\x80\x94 Food\ntext: \"{2}, {T}, Sacrifice this token: You gain 3 life.\"\n"
             "abilities: [{activated: {cost: \"{2}, {T}\", costs: [sacrifice_self], effect: [{gain_life: 3}]}}]"},
    {"Gold", "name: Gold Token\ntype: Artifact \xe2\x80\x94 Gold\ntext: \"Sacrifice this token: Add one mana of any color.\"\n"
             "abilities: [{activated: {costs: [sacrifice_self], effect: [{add_mana: any}]}}]"},
    {"Walker", "name: Walker\ntype: Creature \xe2\x80\x94 Zombie\ncolors: [black]\npt: 2/2"},
    {"Shard", "name: Shard Token\ntype: Enchantment \xe2\x80\x94 Shard\ntext: \"{2}, Sacrifice this token: Scry 1, then draw a card.\"\n"
              "abilities: [{activated: {cost: \"{2}\", costs: [sacrifice_self], effect: [{scry: 1}, {draw: 1}]}}]"},
    {"Clue", "name: Clue Token\ntype: Artifact \xe2\x80\x94 Clue\ntext: \"{2}, Sacrifice this token: Draw a card.\"\n"
             "abilities: [{activated: {cost: \"{2}\", costs: [sacrifice_self], effect: [{draw: 1}]}}]"},
    {"Blood", "name: Blood Token\ntype: Artifact \xe2\x80\x94 Blood\ntext: \"{1}, {T}, Discard a card, Sacrifice this token: Draw a card.\"\n"
              "abilities: [{activated: {cost: \"{1}, {T}\", costs: [{discard: 1}, sacrifice_self], effect: [{draw: 1}]}}]"},
    {"Map", "name: Map Token\ntype: Artifact \xe2\x80\x94 Map\n"
            "text: \"{1}, {T}, Sacrifice this token: Target creature you control explores. Activate only as a sorcery.\"\n"
            "abilities: [{activated: {cost: \"{1}, {T}\", costs: [sacrifice_self], sorcery: true, targets: [{type: creature, controller: you}], "
            "effect: [{explore: target}]}}]"},
    {"Junk", "name: Junk Token\ntype: Artifact \xe2\x80\x94 Junk\n"
             "text: \"{T}, Sacrifice this token: Exile the top card of your library. You may play that card this turn. Activate only as a sorcery.\"\n"
             "abilities: [{activated: {cost: \"{T}\", costs: [sacrifice_self], sorcery: true, effect: [{exile_top: 1}, {play_exiled: result}]}}]"},
    {"Lander", "name: Lander Token\ntype: Artifact \xe2\x80\x94 Lander\n"
               "text: \"{2}, {T}, Sacrifice this token: Search your library for a basic land card, put it onto the battlefield tapped, then shuffle.\"\n"
               "abilities: [{activated: {cost: \"{2}, {T}\", costs: [sacrifice_self], "
               "effect: [{search_library: {type: land, supertype: basic}, to: battlefield, tapped: true}]}}]"},
};

/* Predefined tokens whose rules-defined parts the engine does not have yet:
 * refused with the reason rather than created without them */
static const struct { const char *name, *why; } unsupported_tokens[] = {
    {"Powerstone", "its mana's spending restriction (\"can't be spent to cast a nonartifact spell\", 106.6) is not supported"},
    {"Incubator", "double-faced tokens (111.10i, 712) are not supported"},
    {"Cursed", "Role tokens (303.7) are not supported"},
    {"Monster", "Role tokens (303.7) are not supported"},
    {"Royal", "Role tokens (303.7) are not supported"},
    {"Sorcerer", "Role tokens (303.7) are not supported"},
    {"Virtuous", "Role tokens (303.7) are not supported"},
    {"Wicked", "Role tokens (303.7) are not supported"},
    {"Young Hero", "Role tokens (303.7) are not supported"},
};

/* `create_token: Treasure`: the predefined token of that name (111.10) */
static const CardDef *predefined_token(L *l, const ynode *v) {
  const char *w = scalar(v);
  const char *names[NELEM(predefined_tokens)];
  for (int i = 0; i < NELEM(predefined_tokens); i++) {
    names[i] = predefined_tokens[i].name;
    if (strcmp(w, names[i])) continue;
    ydoc *d;
    if (ydoc_parse_buffer("<predefined token>", predefined_tokens[i].yaml, strlen(predefined_tokens[i].yaml), &d, l->err)) return NULL;
    L sub = *l;
    sub.d = d;
    CardDef *c = (CardDef *)p_card(&sub, ydoc_root(d, 0), 1);
    ydoc_free(d);
    if (!c) return NULL;
    /* where the card asked for it, for messages about it */
    c->file = dup(l, ydoc_name(l->d));
    c->line = v->line;
    l->card = c->name;
    return c;
  }
  for (int i = 0; i < NELEM(unsupported_tokens); i++)
    if (!strcmp(w, unsupported_tokens[i].name)) return BAD(l, v, "create_token: the predefined %s token is not supported: %s", w, unsupported_tokens[i].why);
  const char *best = suggest_best(w, names, NELEM(names));
  if (best) return BAD(l, v, "create_token: unknown predefined token '%s'; did you mean '%s'?", w, best);
  char list[400];
  suggest_join(names, NELEM(names), list, sizeof list);
  return BAD(l, v, "create_token: unknown predefined token '%s'; expected a token definition (a mapping) or one of: %s", w, list);
}

static Node *lit_str(L *l, const ynode *v) {
  const char *s = scalar(v);
  if (!s) return BAD(l, v, "expected a string, found %s", ynode_kind_name(v));
  Node *x = mk(l, E_INT, v);
  if (x) x->s = dup(l, s);
  return x;
}

static Node *p_param(L *l, int t, const ynode *v) {
  Node *x;
  switch (t) {
  case P_EXPR: return p_expr(l, v);
  case P_SEL: return p_sel(l, v);
  case P_COND: return p_cond(l, v);
  case P_STEPS: return p_steps(l, v);
  case P_FILTER:
    x = mk(l, E_INT, v);
    if (!x || !(x->f = p_filter(l, v))) return NULL;
    return x;
  case P_STR: return lit_str(l, v);
  case P_INT: {
    long i;
    if (ynode_int(l->d, v, &i, l->err)) return NULL;
    x = mk(l, E_INT, v);
    if (x) x->i = (int32_t)i;
    return x;
  }
  case P_BOOL: {
    int b;
    if (ynode_bool(l->d, v, &b, l->err)) return NULL;
    x = mk(l, E_INT, v);
    if (x) x->i = b;
    return x;
  }
  case P_ZONE: {
    int z = p_dest_zone(l, v);
    if (z < 0) return NULL;
    x = mk(l, E_INT, v);
    if (x) x->i = z;
    return x;
  }
  case P_DUR: {
    const char *s = scalar(v);
    int d = s ? name_index(s, dur_names, NELEM(dur_names)) : -1;
    if (s && !strcmp(s, "turn")) d = DUR_EOT;
    if (d < 0) return (void *)(intptr_t)(bad_name(l, v, "duration", dur_names, NELEM(dur_names)) * 0);
    x = mk(l, E_INT, v);
    if (x) x->i = d;
    return x;
  }
  case P_RAW: return mk(l, E_INT, v);
  case P_TRIG:
    x = mk(l, E_INT, v);
    if (!x) return NULL;
    l->nested++;
    x->ab = p_trigger_ability(l, v, 1);
    l->nested--;
    return x->ab ? x : NULL;
  case P_REPL: {
    x = mk(l, E_INT, v);
    const ReplSpec *r;
    if (!x || !(r = p_repl(l, v, 1))) return NULL;
    Ability *a = al(l, sizeof *a);
    if (!a) return NULL;
    a->kind = AB_REPLACEMENT;
    a->rp = *r;
    a->zone = -1;
    x->ab = a;
    return x;
  }
  case P_TOKEN:
    x = mk(l, E_INT, v);
    if (!x || !(x->def = scalar(v) ? predefined_token(l, v) : p_card(l, v, 1))) return NULL;
    if (x->def->name && pool_add_token(l->p, x->def->name)) {
      *l->oom = 1;
      return NULL;
    }
    return x;
  case P_KWS: {
    x = mk(l, E_INT, v);
    uint64_t kw = 0;
    if (!x || p_granted_keywords(l, v, &kw, &x->def, &x->s)) return NULL;
    x->j = (int32_t)(kw & 0x7fffffff);
    x->i = (int32_t)(kw >> 31);
    return x;
  }
  case P_WORDS1:
    if (scalar(v)) {
      x = mk(l, E_INT, v);
      if (!x || kids(l, x, 1) || !(x->k[0] = lit_str(l, v))) return NULL;
      return x;
    }
    if (v->kind != YN_SEQ || v->n < 1) return BAD(l, v, "expected a word or a list of words");
    /* fall through */
  case P_WORDS: {
    if (v->kind != YN_SEQ || v->n < (t == P_WORDS ? 2 : 1)) return BAD(l, v, "words: expected a list of at least two words");
    x = mk(l, E_INT, v);
    if (!x || kids(l, x, v->n)) return NULL;
    for (int i = 0; i < v->n; i++)
      if (!(x->k[i] = lit_str(l, v->items[i]))) return NULL;
    return x;
  }
  case P_COUNTERS: {
    /* {kind: n} e.g. {"+1/+1": 1} */
    if (v->kind != YN_MAP || v->n != 1 || !scalar(ymap_key(v, 0))) return BAD(l, v, "expected {counter kind: number}, e.g. {\"+1/+1\": 1}");
    x = mk(l, E_INT, v);
    if (!x || kids(l, x, 1)) return NULL;
    x->s = dup(l, scalar(ymap_key(v, 0)));
    if (!(x->k[0] = p_expr(l, ymap_val(v, 0)))) return NULL;
    return x;
  }
  }
  return BAD(l, v, "internal: bad parameter type");
}

static const char *const rule_names[] = {
    "cant_lose", "cant_win", "life_cant_change", "draw_limit", "no_legend_rule", "cant_attack", "cant_block",
    "cant_attack_or_block", "cant_cast_named", "cost_more", "no_etb_triggers", "no_dies_triggers",
    "extra_trigger", "no_life_loss_game", "cant_get_poison", "no_minus_counters", "max_counters", "cast_free",
    "cant_sacrifice_by_opponents", "lose_infect", "must_block", "damage_as_infect", "any_mana_for_abilities",
    "hand_size", "cant_regenerate", "cant_be_destroyed", "cant_draw", "cant_gain_life", "reveal_first_draw",
    "cast_as_flash", "cycling_free", "cant_be_blocked", "can_block_only", "min_blockers", "max_blockers", "can_block_shadow",
    "attacks_if_able", "blocks_if_able", "must_be_blocked", "must_be_blocked_by_all",
    "attacks_as_though_no_defender", "no_combat_damage", "combat_damage_as_unblocked", "cant_attack_alone",
    "cant_block_alone", "block_additional", "block_any_number", "hand_revealed", "hexproof", "shroud", "cant_be_target_of", "cast_only_from_hand", "cant_cast",
    "venture_limit", "doesnt_untap", "may_choose_not_to_untap", "dice_advantage",
    "cant_have_counters", "foretell_cost", "protection", "no_max_hand_size", NULL};

/* Rule effects about one creature (combat restrictions and requirements): a
 * static ability with no `affects` is about its own object (the others, about
 * its controller). */
static int rule_on_object(int kind) {
  switch (kind) {
  case SE_CANT_ATTACK: case SE_CANT_BLOCK: case SE_CANT_ATTACK_OR_BLOCK: case SE_MAX_COUNTERS: case SE_MUST_BLOCK:
  case SE_CANT_REGENERATE: case SE_CANT_BE_DESTROYED: case SE_CANT_BE_TARGET: case SE_DOESNT_UNTAP: case SE_MAY_NOT_UNTAP:
  case SE_CANT_HAVE_COUNTERS:
    return 1;
  default:
    return kind >= SE_CANT_BE_BLOCKED && kind <= SE_BLOCK_ANY_NUMBER;
  }
}

/* The parameters of a combat rule, in a static ability or a `grant` step:
 * `by`/`except_by` (cant_be_blocked), `attackers` (cant_block, can_block_only),
 * `n` (min_blockers, max_blockers), `unless` (cant_attack, cant_block). */
static int p_rule_params(L *l, const ynode *n, StaticSpec *s) {
  const ynode *w;
  const char *what = rule_names[s->kind - SE_CANT_LOSE];
  int by = ymap_get(n, "by") || ymap_get(n, "except_by"), atk = ymap_get(n, "attackers") != NULL;
  if (by && s->kind != SE_CANT_BE_BLOCKED && s->kind != SE_CANT_BE_TARGET && s->kind != SE_PLAYER_PROTECTION)
    return BADI(l, ymap_get(n, "by") ? ymap_get(n, "by") : ymap_get(n, "except_by"), "by/except_by: only for rule cant_be_blocked (or cant_be_target_of, protection), not %s", what);
  if (s->kind == SE_PLAYER_PROTECTION && ymap_get(n, "except_by"))
    return BADI(l, ymap_get(n, "except_by"), "except_by: not for rule protection (by: the sources it is from; without by, everything)");
  if (s->kind == SE_CANT_BE_TARGET && !by) return BADI(l, n, "cant_be_target_of needs by: the spells or the sources of abilities (a filter)");
  if (atk && s->kind != SE_CANT_BLOCK && s->kind != SE_CAN_BLOCK_ONLY && s->kind != SE_MUST_BLOCK)
    return BADI(l, ymap_get(n, "attackers"), "attackers: only for rules cant_block, can_block_only and must_block, not %s", what);
  if (ymap_get(n, "by") && ymap_get(n, "except_by")) return BADI(l, ymap_get(n, "by"), "by or except_by, not both");
  if ((w = ymap_get(n, "by")) || (w = ymap_get(n, "except_by")) || (w = ymap_get(n, "attackers"))) {
    if (!(s->other = p_filter(l, w))) return -1;
    if (ymap_get(n, "except_by")) {
      /* "can't be blocked except by [quality]": by what is not that */
      Filter *f = al(l, sizeof *f);
      if (!f) return -1;
      filter_defaults(f);
      f->not_f = s->other;
      s->other = f;
    } else if (s->kind == SE_PLAYER_PROTECTION && s->other->zone == -1 && s->other->spell != 1 && !s->other->stack_ability) {
      /* 702.16a: a source anywhere, on the battlefield or not */
      Filter *f = al(l, sizeof *f);
      if (!f) return -1;
      *f = *s->other;
      f->zone = -2;
      s->other = f;
    }
  }
  if (s->kind == SE_CAN_BLOCK_ONLY && !s->other) return BADI(l, n, "can_block_only needs attackers: the creatures it can block");
  if ((s->kind == SE_MIN_BLOCKERS || s->kind == SE_MAX_BLOCKERS || s->kind == SE_VENTURE_LIMIT) && !ymap_get(n, "n"))
    return BADI(l, n, "%s needs n: the number of creatures", what);
  /* "an additional creature" is one; "an additional two creatures", n: 2 */
  if (s->kind == SE_BLOCK_ADDITIONAL && (w = ymap_get(n, "n")) && s->a < 1)
    return BADI(l, w, "block_additional: n is the number of additional creatures it can block, 1 or more");
  if ((w = ymap_get(n, "unless"))) {
    if (s->kind != SE_CANT_ATTACK && s->kind != SE_CANT_BLOCK && s->kind != SE_CANT_ATTACK_OR_BLOCK)
      return BADI(l, w, "unless: only for rules cant_attack, cant_block and cant_attack_or_block, not %s", what);
    if (!(s->unless = p_cond(l, w))) return -1;
  }
  return 0;
}

/* "[It] becomes a 4/4 black Elemental creature with haste [and "..."] until end
 * of turn. It's still a land.": one continuous effect with parts in layers 4,
 * 5, 6 and 7b (613.1, 613.6), compiled into one continuous effect spec per part
 * (s->ab, s->i of them); the step gives them all one timestamp. */
static int step_becomes(L *l, const ynode *n, Node *s) {
  Ability *a = al(l, 6 * sizeof *a);
  if (!a) return -1;
  int k = 0;
  const ynode *v;
  int parts = 0;
  if ((v = ymap_get(n, "types"))) {
    StaticSpec *st = &a[k++].st;
    st->kind = SE_ADD_TYPES;
    if (each_scalar(l, v, add_type, &st->types)) return -1;
    if (st->types & (T_INSTANT | T_SORCERY)) return BADI(l, v, "becomes: types of a permanent (artifact, creature, enchantment, land, ...)");
    if (!ymap_get(n, "in_addition") || !s->k[8]->i)
      return BADI(l, v, "becomes: types needs in_addition: true (\"it's still a land\", \"in addition to its other types\", 205.1b); "
                        "types that replace the old ones are not supported yet");
    parts++;
  }
  if ((v = ymap_get(n, "subtypes"))) {
    if (!k) return BADI(l, v, "becomes: subtypes go with types (\"an Elemental creature\")");
    StaticSpec *st = &a[k - 1].st;
    int cnt = v->kind == YN_SEQ ? v->n : 1;
    if (cnt > 4) return BADI(l, v, "becomes: at most 4 subtypes");
    for (int i = 0; i < cnt; i++) {
      const char *w = scalar(v->kind == YN_SEQ ? v->items[i] : v);
      if (!w) return BADI(l, v->kind == YN_SEQ ? v->items[i] : v, "becomes: a subtype is a word like Elemental");
      st->subtypes[st->nsub++] = dup(l, w);
    }
  }
  if ((v = ymap_get(n, "colors"))) {
    /* 105.3: the new colors replace the old ones */
    StaticSpec *st = &a[k++].st;
    st->kind = SE_SET_COLORS;
    const char *w = scalar(v);
    if (w && !strcmp(w, "chosen")) {
      const ynode *lb = ymap_get(n, "label");
      st->label = lb ? dup(l, scalar(lb)) : "color"; /* the color chosen earlier (607.2d) */
    } else if (w && !strcmp(w, "colorless")) {
      st->colors = 0;
    } else if (each_scalar(l, v, add_color, &st->colors)) {
      return -1;
    }
    parts++;
  } else if ((v = ymap_get(n, "label"))) {
    return BADI(l, v, "becomes: label names the chosen color of colors: chosen");
  }
  if ((v = ymap_get(n, "keywords"))) {
    StaticSpec *st = &a[k++].st;
    st->kind = SE_ADD_KEYWORDS;
    const char *chosen = NULL;
    const CardDef *kwd = NULL;
    if (p_granted_keywords(l, v, &st->keywords, &kwd, &chosen)) return -1;
    if (chosen) return BADI(l, v, "becomes: protection from the chosen color is not supported here");
    if (kwd) {
      StaticSpec *g = &a[k++].st;
      g->kind = SE_GAIN_ABILITIES;
      g->grant_from = kwd;
    }
    parts++;
  }
  if ((v = ymap_get(n, "abilities"))) {
    StaticSpec *st = &a[k++].st;
    st->kind = SE_GAIN_ABILITIES;
    if (!(st->grant_from = p_ability_list(l, v, "abilities"))) return -1;
    parts++;
  }
  if ((v = ymap_get(n, "pt"))) {
    StaticSpec *st = &a[k++].st;
    st->kind = SE_PT_SET;
    int x, y;
    if (!pt_pair(scalar(v), 0, &x, &y)) return BADI(l, v, "becomes: pt: expected \"4/4\" (numbers from -1000 to 1000)");
    st->a = (int16_t)x;
    st->b = (int16_t)y;
    parts++;
  }
  if ((v = ymap_get(n, "in_addition")) && !ymap_get(n, "types")) return BADI(l, v, "becomes: in_addition goes with types");
  if (!parts) return BADI(l, n, "becomes: needs at least one of types, colors, keywords, abilities, pt");
  for (int i = 0; i < k; i++) {
    a[i].kind = AB_STATIC;
    a[i].zone = -1;
  }
  s->ab = a;
  s->i = k;
  return 0;
}

/* What a step's parameters say together, checked and compiled once they are all read. */
static int step_finish(L *l, const ynode *n, Node *s) {
  const ynode *v;
  if (s->op == S_GRANT && (v = ymap_get(n, "rule"))) {
    /* a rule effect with a duration (a combat restriction or requirement, 611.2) */
    int r = name_index(scalar(v), rule_names, NELEM(rule_names) - 1);
    if (r < 0) return bad_name(l, v, "rule effect", rule_names, NELEM(rule_names) - 1);
    if (!rule_on_object(SE_CANT_LOSE + r) && SE_CANT_LOSE + r != SE_HAND_REVEALED && SE_CANT_LOSE + r != SE_PLAYER_HEXPROOF &&
        SE_CANT_LOSE + r != SE_PLAYER_SHROUD && SE_CANT_LOSE + r != SE_PLAYER_PROTECTION)
      return BADI(l, v, "grant: rule %s is not about a creature or a player's hand (grant it with a static ability)", scalar(v));
    if (ymap_get(n, "keywords") || ymap_get(n, "lose_all_abilities") || ymap_get(n, "remove_keywords"))
      return BADI(l, v, "grant: a rule effect is granted on its own, without keywords, remove_keywords or lose_all_abilities");
    Ability *a = al(l, sizeof *a);
    if (!a) return -1;
    a->kind = AB_STATIC;
    a->zone = -1;
    StaticSpec *st = &a->st;
    st->kind = (uint8_t)(SE_CANT_LOSE + r);
    if (s->k[5]) st->a = (int16_t)s->k[5]->i;
    if (p_rule_params(l, n, st)) return -1;
    /* 611.2c: a rule effect about "[quality] creatures" applies to those that
     * are so at any time it lasts, not only to those that were as it began */
    if (s->k[0] && s->k[0]->op == SL_EACH) st->affected = s->k[0]->f;
    s->ab = a;
  } else if (s->op == S_GRANT) {
    static const char *const rk[] = {"n", "by", "except_by", "attackers", "unless", NULL};
    for (int i = 0; rk[i]; i++)
      if ((v = ymap_get(n, rk[i]))) return BADI(l, v, "%s: a parameter of a rule granted by 'rule:'", rk[i]);
    if (s->k[10] && (s->k[10]->def || s->k[10]->s))
      return BADI(l, ymap_get(n, "remove_keywords"), "remove_keywords: keywords without a parameter (flying, shadow, ...)");
  }
  if (s->op == S_PREVENT && (s->k[6] || s->k[7] || (s->k[0] && s->k[0]->j == 2))) {
    /* a prevention scope: combat damage, damage from sources of a quality (615) */
    if (s->k[2] || s->k[5]) return BADI(l, n, "prevent: sources or combat don't go with source or source_is (a chosen source)");
    ReplSpec *r = al(l, sizeof *r);
    Ability *a = al(l, sizeof *a);
    if (!r || !a) return -1;
    r->ev = RE_DAMAGE;
    r->act = RA_PREVENT;
    r->from = r->to = -1;
    r->combat = (int8_t)(s->k[6] ? s->k[6]->i : -1);
    if (r->combat == 0) r->combat = -1;
    r->step = -1;
    r->mul = 1;
    if (s->k[7]) {
      Filter *f = al(l, sizeof *f);
      if (!f) return -1;
      *f = *s->k[7]->f;
      if (f->zone == -1 && f->spell != 1) f->zone = -2; /* a source can be anywhere */
      r->src = f;
    }
    if (s->k[0] && !s->k[0]->j) r->amount = s->k[0];
    if (s->k[0] && s->k[0]->j == 2) {
      r->all_but = (int16_t)s->k[0]->i;
      r->has_all_but = 1;
    }
    a->kind = AB_REPLACEMENT;
    a->zone = -1;
    a->rp = *r;
    s->ab = a;
  }
  if (s->op == S_ADD_MANA && s->k[0] && s->k[0]->s && strcmp(s->k[0]->s, "any") && strcmp(s->k[0]->s, "chosen")) {
    char why[200];
    uint8_t mask;
    int one_of;
    if (mana_add_parse(s->k[0]->s, &mask, &one_of, why, sizeof why)) return BADI(l, ymap_get(n, "add_mana"), "add_mana: %s", why);
  }
  if (s->op == S_ADD_MANA && s->k[4] && (!s->k[0] || strcmp(s->k[0]->s, "any")))
    return BADI(l, ymap_get(n, "one_color"), "one_color goes with add_mana: any (\"two mana of any one color\": {add_mana: any, n: 2, one_color: true})");
  if (s->op == S_BECOMES && step_becomes(l, n, s)) return -1;
  if (s->op == S_PAIR && !ymap_get(n, "with")) return BADI(l, n, "pair: needs with: the creature to pair it with");
  if (s->op == S_REPLACEMENT && s->k[2]) {
    /* "if it would ...": the effect is about those objects only, so its event
     * must be one that happens to an object */
    int ev = s->k[0]->ab->rp.ev;
    if (ev != RE_ZONE && ev != RE_DAMAGE && ev != RE_DESTROY && ev != RE_SACRIFICE && ev != RE_DISCARD)
      return BADI(l, ymap_get(n, "on"), "replacement: 'on' goes with the events zone, damage, destroy, sacrifice and discard");
  }
  if (s->op == S_BECOME_COPY) {
    /* "becomes a copy of [object], except its name is ..., it's legendary in
     * addition to its other types, and it has this ability" (707.9) */
    if (!ymap_get(n, "of")) return BADI(l, n, "become_copy: needs of: the object it becomes a copy of");
    Ability *a = al(l, sizeof *a);
    if (!a) return -1;
    a->kind = AB_STATIC;
    a->zone = -1;
    a->st.kind = SE_COPY;
    if (s->k[2]) a->st.label = s->k[2]->s;
    if ((v = ymap_get(n, "add_supertypes")) && each_scalar(l, v, add_super, &a->st.supers)) return -1;
    a->st.a = (int16_t)(s->k[4] && s->k[4]->i);
    s->ab = a;
  }
  if (s->op == S_NOTE && s->k[1] && s->k[2]) return BADI(l, ymap_get(n, "player"), "note: a value or a player, not both");
  if (s->op == S_UNLESS || s->op == S_PAY) {
    /* a mana payment: a mana cost, with {X} given by x */
    char why[200];
    ManaCost mc;
    const ynode *mv = ymap_get(n, s->op == S_PAY ? "pay" : "unless");
    char rest[256];
    int syms[N_COUNTER_SYMBOLS];
    if (!strcmp(s->k[0]->s, "mana_cost")) mc.x = 0; /* "pay its mana cost" */
    else if (cost_counter_symbols(s->k[0]->s, rest, sizeof rest, syms))
      return BADI(l, mv, "%s: too long", s->op == S_PAY ? "pay" : "unless");
    else if (mana_parse(rest, &mc, NULL, NULL, why, sizeof why))
      return BADI(l, mv, "%s: %s (or mana_cost: this object's mana cost)", s->op == S_PAY ? "pay" : "unless", why);
    const ynode *xv = ymap_get(n, "x");
    if (mc.x && !xv) return BADI(l, mv, "{X} in a payment needs x: the value of X");
    if (!mc.x && xv) return BADI(l, xv, "x: the payment has no {X}");
  }
  if (s->op == S_ADD_PHASES) {
    for (int i = 0; i < s->k[0]->n; i++) {
      const char *w = s->k[0]->k[i]->s;
      if (strcmp(w, "combat") && strcmp(w, "main"))
        return BADI(l, ymap_get(n, "additional_phases"), "additional_phases: a list of combat and main, found '%s'", w);
    }
    if (s->k[1] && strcmp(s->k[1]->s, "this_main_phase") && strcmp(s->k[1]->s, "this_phase"))
      return BADI(l, ymap_get(n, "after"), "after: this_main_phase (the default) or this_phase");
  }
  if (s->op == S_LOOK_TOP) {
    static const char *const rest[] = {"stay", "top", "bottom", "bottom_random", "graveyard", "hand", "exile"};
    if (s->k[8] && name_index(s->k[8]->s, rest, NELEM(rest)) < 0) return bad_name(l, ymap_get(n, "rest"), "rest", rest, NELEM(rest));
    if (!s->k[3] && (s->k[4] || s->k[5] || s->k[6] || s->k[7] || s->k[9]))
      return BADI(l, n, "look_at_top: n, optional, to, tapped and reveal_taken say what is done with the cards taken: give 'take' (a filter, card for any)");
    if (s->k[3] && !s->k[6]) return BADI(l, n, "look_at_top: 'take' needs 'to' (the zone the cards taken go to)");
    if (s->k[6] && (s->k[6]->i == MTG_Z_STACK || s->k[6]->i == MTG_Z_LIBRARY))
      return BADI(l, ymap_get(n, "to"), "look_at_top: to: hand, battlefield, graveyard or exile");
  }
  if (s->op == S_EXPLORE) {
    /* 701.44d (several permanents exploring at once, in APNAP order) is not
     * supported: one permanent explores */
    int op = s->k[0] ? s->k[0]->op : SL_SELF;
    if (op != SL_SELF && op != SL_TARGET && op != SL_IT)
      return BADI(l, ymap_get(n, "explore"), "explore: the permanent that explores is self, target or it (several exploring at once, 701.44d, is not supported)");
    /* 701.44a, c: its controller explores, as it last existed if it has left */
    Node *who = mk(l, SL_CONTROLLER_OF, n);
    if (!who || kids(l, who, 1)) return -1;
    if (!(who->k[0] = s->k[0] ? s->k[0] : mk(l, SL_SELF, n))) return -1;
    who->i = 2;
    s->k[1] = who;
  }
  if (s->op == S_CLASH && strcmp(s->k[0]->s, "opponent"))
    return BADI(l, ymap_get(n, "clash"), "clash: opponent (\"clash with an opponent\", 701.30b)");
  if (s->op == S_SEARCH && s->k[8]) {
    for (int i = 0; i < s->k[8]->n; i++) {
      const char *w = s->k[8]->k[i]->s;
      if (strcmp(w, "library") && strcmp(w, "graveyard") && strcmp(w, "hand"))
        return BADI(l, ymap_get(n, "zones"), "search_library: zones: a list of library, graveyard and hand, found '%s'", w);
    }
  }
  if (s->op == S_SEARCH && s->k[10] && (!s->k[2] || s->k[2]->i != MTG_Z_BATTLEFIELD))
    return BADI(l, ymap_get(n, "attach_to"), "search_library: attach_to goes with to: battlefield");
  if (s->op == S_SEARCH && s->k[11] && s->k[11]->i && (!s->k[2] || s->k[2]->i != MTG_Z_EXILE))
    return BADI(l, ymap_get(n, "face_down"), "search_library: face_down goes with to: exile");
  if (s->op == S_SEARCH && scalar(ymap_get(n, "search_library")) && !strcmp(scalar(ymap_get(n, "search_library")), "card") &&
      !(s->k[5] && s->k[5]->i))
    s->j = 1; /* 701.23d: "a card", "three cards": as many as the zone holds must be found */
  if (s->op == S_SEARCH && s->k[9] && !s->k[8]) return BADI(l, ymap_get(n, "and_or"), "search_library: and_or goes with zones");
  if (s->op == S_SEARCH && s->k[2] && s->k[2]->i == MTG_Z_LIBRARY && s->k[3])
    return BADI(l, ymap_get(n, "tapped"), "search_library: tapped goes with to: battlefield");
  if (s->op == S_DISCARD && s->k[2] && s->k[2]->i && (s->k[3] || s->k[4]))
    return BADI(l, n, "discard: a random discard has no filter or chooser");
  if (s->op == S_CAST) {
    /* what the effect lets the card be cast for (608.2g): without paying its mana cost, its miracle or madness
     * cost, or without paying its mana cost by its suspend ability (702.62a: a creature spell gains haste) */
    static const char *const fors[] = {"free", "miracle", "madness", "suspend"};
    static const uint8_t alts[] = {ALT_FREE, ALT_MIRACLE, ALT_MADNESS, ALT_SUSPEND};
    s->i = ALT_FREE;
    if ((v = ymap_get(n, "for"))) {
      int w = name_index(scalar(v), fors, (int)NELEM(fors));
      if (w < 0) return bad_name(l, v, "cast for", fors, (int)NELEM(fors));
      s->i = alts[w];
    }
  }
  if (s->op == S_PUT_BATTLEFIELD && s->k[5] && strcmp(s->k[5]->s, "true") && strcmp(s->k[5]->s, "returned"))
    return BADI(l, ymap_get(n, "attacking"), "attacking: true (its controller chooses what it attacks, 508.4) or returned "
                "(what the attacker returned to pay the cost was attacking, 702.49c)");
  return 0;
}

/* The selectors a step stands for when they are not given (step_defs). */
static int step_defaults(L *l, const StepDef *sd, Node *s, const ynode *at) {
  for (int i = 0; i < MAX_STEP_PARAMS && sd->p[i].key; i++) {
    /* a prevention scope with no recipient named protects every player and
     * object (615): it has no default */
    if (s->op == S_PREVENT && s->ab && i == 1) continue;
    if (!s->k[i] && sd->p[i].t == P_SEL && sd->p[i].dflt && !(s->k[i] = mk(l, sd->p[i].dflt, at))) return -1;
  }
  return 0;
}

/* ---- keyword actions (701) written out in the card format ---- */

/* Gives a compiled template and everything in it the place of the step that
 * asked for it, so that messages about it point at the card. */
static void node_at(Node *n, const ynode *at) {
  if (!n) return;
  n->line = at->line;
  n->col = at->col;
  for (int i = 0; i < n->n; i++) node_at(n->k[i], at);
}

/* Compiles the steps of a keyword action from a fixed template in the card
 * format (its meaning, as synth_ability does for keyword abilities); the
 * card's own values are checked where they are written and put in the text. */
static Node *synth_steps(L *l, const ynode *at, const char *yaml) {
  ydoc *d;
  if (ydoc_parse_buffer("<keyword action>", yaml, strlen(yaml), &d, l->err)) return NULL;
  L sub = *l;
  sub.d = d;
  Node *s = p_steps(&sub, ydoc_root(d, 0));
  ydoc_free(d);
  if (!s) return NULL;
  node_at(s, at);
  return s->n == 1 ? s->k[0] : s;
}

/* A keyword action's N: a number from 1 to 100, into buf */
static int action_n(L *l, const ynode *v, const char *what, char *buf, size_t size) {
  long x;
  if (ynode_int(l->d, v, &x, l->err)) return -1;
  if (x < 1 || x > 100) return BADI(l, v, "%s: N is a number from 1 to 100", what);
  snprintf(buf, size, "%ld", x);
  return 0;
}

static const char *const keyword_actions[] = {"investigate", "adapt", "amass", "connive", "populate", NULL};

/* "Investigate" (701.16a), "Adapt N" (701.46a), "Amass [subtype] N" (701.47a),
 * "[this] connives" (701.50a): each is its definition in existing steps.
 * `which` indexes keyword_actions; v is the step's value (NULL for a bare word). */
static Node *p_keyword_action(L *l, const ynode *n, int which, const ynode *v) {
  char num[24] = "1", y[1024];
  const char *what = keyword_actions[which];
  if (n->kind == YN_MAP && n->n != 1)
    return BAD(l, n, "'%s' takes no other key: write it as {%s: ...} alone", what, what);
  switch (which) {
  case 0: /* 701.16a: "Investigate" means "Create a Clue token"; "investigate N times" */
    if (v && action_n(l, v, what, num, sizeof num)) return NULL;
    snprintf(y, sizeof y, "[{create_token: Clue, n: %s}]", num);
    break;
  case 1: /* 701.46a: "if this permanent has no +1/+1 counters on it, put N +1/+1 counters on it" */
    if (!v) return BAD(l, n, "adapt needs N: {adapt: 2}");
    if (action_n(l, v, what, num, sizeof num)) return NULL;
    snprintf(y, sizeof y, "[{if: {counters: \"+1/+1\", on: self, equals: 0}, then: [{put_counters: \"+1/+1\", n: %s, on: self}]}]", num);
    break;
  case 2: { /* 701.47a */
    static const char *const keys[] = {"subtype", "n", NULL};
    if (!v || v->kind != YN_MAP) return BAD(l, v ? v : n, "amass: expected {subtype: Orc, n: 2} (\"Amass Orcs 2\")");
    if (ymap_check_keys(l->d, v, keys, "amass", l->err)) return NULL;
    const ynode *st = ymap_get(v, "subtype"), *nn = ymap_get(v, "n");
    /* 701.47d: amass N without a subtype is amass Zombies N on older cards' Oracle text */
    if (!st) return BAD(l, v, "amass needs 'subtype' (the Oracle text names one: \"Amass Zombies 2\" is subtype: Zombie, 701.47d)");
    if (!nn) return BAD(l, v, "amass needs 'n'");
    const char *w = scalar(st);
    int ok = w && *w && isupper((unsigned char)w[0]);
    for (const char *q = w; ok && *q; q++) ok = isalpha((unsigned char)*q) || *q == '-' || *q == '\'';
    if (!ok || strlen(w) > 40) return BAD(l, st, "amass: subtype is one creature type, a capitalized word like Orc");
    if (!strcmp(w, "Army")) return BAD(l, st, "amass: the subtype is the creature type beside Army (\"Amass Orcs\": Orc)");
    if (action_n(l, nn, what, num, sizeof num)) return NULL;
    /* "If you don't control an Army creature, create a 0/0 black [subtype] Army
     * creature token. Choose an Army creature you control. Put N +1/+1 counters on
     * that creature. If it isn't a [subtype], it becomes a [subtype] in addition to
     * its other types." The token's name is its subtypes and "Token" (111.4). */
    snprintf(y, sizeof y,
             "- if: {none: {type: creature, subtype: Army, controller: you}}\n"
             "  then: [{create_token: {name: %s Army Token, type: \"Creature \xe2\x80\x94 %s Army\", colors: [black], pt: 0/0}}]\n"
             "- for_each: {choose: {type: creature, subtype: Army, controller: you}}\n"
             "  do:\n"
             "    - {put_counters: \"+1/+1\", n: %s, on: it}\n"
             "    - if: {not: {is: it, filter: {subtype: %s}}}\n"
             "      then: [{becomes: it, types: [creature], in_addition: true, subtypes: [%s], duration: forever}]\n",
             w, w, num, w, w);
    break;
  }
  case 3: { /* 701.50a */
    const char *who = v ? scalar(v) : "self";
    if (!who || (strcmp(who, "self") && strcmp(who, "target") && strcmp(who, "it")))
      return BAD(l, v, "connive: the permanent that connives is self, target or it");
    /* "that permanent's controller draws a card, then discards a card. If a
     * nonland card is discarded this way, that player puts a +1/+1 counter on
     * the conniving permanent"; its controller as it last existed if it left
     * (701.50c), and it connives even if nothing could be done (701.50b) */
    snprintf(y, sizeof y,
             "[{draw: 1, who: {controller_of: %s}}, {discard: 1, who: {controller_of: %s}},\n"
             " {if: {is: result, filter: {not_type: land, zone: any}}, then: [{put_counters: \"+1/+1\", n: 1, on: %s}]}]",
             who, who, who);
    break;
  }
  default: /* 701.36a-b: "choose a creature token you control and create a token that's a copy of
            * that creature token"; controlling none, no token is created */
    if (v) return BAD(l, ymap_key(n, 0), "populate takes no value: write it as the bare word populate (701.36a)");
    snprintf(y, sizeof y, "[{for_each: {choose: {type: creature, token: true, controller: you}}, do: [{create_token_copy: it}]}]");
    break;
  }
  return synth_steps(l, v ? v : n, y);
}

static Node *p_step(L *l, const ynode *n) {
  for (int i = 0; keyword_actions[i]; i++) {
    if (n->kind == YN_SCALAR && !strcmp(n->str, keyword_actions[i])) return p_keyword_action(l, n, i, NULL);
    if (n->kind == YN_MAP && ymap_get(n, keyword_actions[i]))
      return p_keyword_action(l, n, i, ymap_get(n, keyword_actions[i]));
  }
  if (n->kind == YN_SCALAR) {
    /* bare step words with no parameter */
    for (int i = 0; i < NELEM(step_defs); i++)
      if (step_defs[i].name[0] == n->str[0] && !strcmp(step_defs[i].name, n->str) && step_defs[i].p[0].t == P_SEL) {
        Node *s = mk(l, step_defs[i].op, n);
        if (!s || kids(l, s, MAX_STEP_PARAMS) || step_defaults(l, &step_defs[i], s, n)) return NULL;
        if (s->op == S_EXPLORE && step_finish(l, n, s)) return NULL; /* who explores */
        return s;
      }
  }
  if (n->kind != YN_MAP) return BAD(l, n, "an effect step is a mapping like {damage: 3, to: target}, found %s", ynode_kind_name(n));
  const StepDef *sd = NULL;
  const ynode *key = NULL;
  for (int i = 0; i < n->n && !sd; i++) {
    const char *k = scalar(ymap_key(n, i));
    for (int j = 0; k && j < NELEM(step_defs); j++)
      if (step_defs[j].name[0] == k[0] && !strcmp(step_defs[j].name, k)) {
        sd = &step_defs[j];
        key = ymap_key(n, i);
      }
  }
  if (!sd) {
    const char *names[NELEM(step_defs) + NELEM(keyword_actions) - 1];
    for (int j = 0; j < NELEM(step_defs); j++) names[j] = step_defs[j].name;
    for (int j = 0; keyword_actions[j]; j++) names[NELEM(step_defs) + j] = keyword_actions[j];
    const char *k = n->n ? scalar(ymap_key(n, 0)) : NULL;
    const char *best = k ? suggest_best(k, names, NELEM(names)) : NULL;
    if (best) return BAD(l, n->n ? ymap_key(n, 0) : n, "unknown effect '%s'; did you mean '%s'?", k, best);
    char list[1200];
    suggest_join(names, NELEM(names), list, sizeof list);
    return BAD(l, n, "unknown effect%s%s; expected one of: %s", k ? " " : "", k ? k : "", list);
  }
  Node *s = mk(l, sd->op, key);
  if (!s || kids(l, s, MAX_STEP_PARAMS)) return NULL;
  const char *allowed[MAX_STEP_PARAMS + 1];
  int na = 0;
  for (int i = 0; i < MAX_STEP_PARAMS && sd->p[i].key; i++) allowed[na++] = sd->p[i].key;
  allowed[na] = NULL;
  char what[64];
  snprintf(what, sizeof what, "'%s' effect", sd->name);
  if (ymap_check_keys(l->d, n, allowed, what, l->err)) return NULL;
  for (int i = 0; i < MAX_STEP_PARAMS && sd->p[i].key; i++) {
    const ynode *v = ymap_get(n, sd->p[i].key);
    if (!v) continue;
    if (sd->op == S_PREVENT && i == 0 && v->kind == YN_MAP) {
      /* "prevent all but N of that damage" */
      const ynode *ab = ymap_get(v, "all_but");
      long x;
      if (!ab || v->n != 1) return BAD(l, v, "prevent: a number, all, or {all_but: N}");
      if (ynode_int(l->d, ab, &x, l->err)) return NULL;
      if (x < 0 || x > 10000) return BAD(l, ab, "all_but: a number from 0 to 10000");
      if (!(s->k[0] = mk(l, E_INT, v))) return NULL;
      s->k[0]->i = (int32_t)x;
      s->k[0]->j = 2;
      continue;
    }
    if (!(s->k[i] = p_param(l, sd->p[i].t, v))) return NULL;
  }
  if (sd->op == S_DELAYED || sd->op == S_REFLEXIVE) {
    /* a delayed trigger's duration may be given in it or on the step: it
     * lasts that long and triggers each time until then (603.7b) */
    const ynode *in = ymap_get(n, sd->name), *d = in && in->kind == YN_MAP ? ymap_get(in, "duration") : NULL;
    if (d && sd->op == S_REFLEXIVE) return BAD(l, d, "a reflexive trigger (when_you_do) has no duration: it triggers once, now (603.12)");
    if (d) {
      Node *dn = p_param(l, P_DUR, d);
      if (!dn) return NULL;
      if (s->k[1] && s->k[1]->i != dn->i) return BAD(l, d, "two different durations for this delayed trigger");
      s->k[1] = dn;
    }
    /* with a duration it triggers each time until then, unless once: true
     * ("the next time ... this turn") */
    const ynode *once = in && in->kind == YN_MAP ? ymap_get(in, "once") : NULL;
    int b = 0;
    if (once && sd->op == S_REFLEXIVE) return BAD(l, once, "a reflexive trigger (when_you_do) triggers once, now (603.12)");
    if (once && ynode_bool(l->d, once, &b, l->err)) return NULL;
    if (once && !s->k[1]) return BAD(l, once, "once: a delayed trigger without a duration triggers once already (603.7b)");
    if (s->k[1] && !b) ((Ability *)s->k[0]->ab)->delayed_once = 0;
  }
  if (step_finish(l, n, s)) return NULL;
  return step_defaults(l, sd, s, key) ? NULL : s;
}

static Node *p_steps(L *l, const ynode *n) {
  if (!n) return BAD(l, n, "missing effect");
  Node *seq = mk(l, S_SEQ, n);
  if (!seq) return NULL;
  if (n->kind != YN_SEQ) {
    if (kids(l, seq, 1) || !(seq->k[0] = p_step(l, n))) return NULL;
    return seq;
  }
  if (kids(l, seq, n->n)) return NULL;
  for (int i = 0; i < n->n; i++)
    if (!(seq->k[i] = p_step(l, n->items[i]))) return NULL;
  return seq;
}

/* ---- targets and modes ---- */

static int p_targets(L *l, const ynode *n, Mode *m) {
  if (!n) return 0;
  const ynode *one[1];
  const ynode *const *items;
  int cnt;
  if (n->kind == YN_SEQ) {
    items = (const ynode *const *)n->items;
    cnt = n->n;
  } else {
    one[0] = n;
    items = one;
    cnt = 1;
  }
  if (cnt > MAX_TARGETS) return BADI(l, n, "at most %d targets", MAX_TARGETS);
  for (int i = 0; i < cnt; i++) {
    const ynode *t = items[i];
    TargetSpec *ts = &m->t[m->nt++];
    if (t->kind == YN_MAP && ymap_get(t, "filter")) {
      static const char *const keys[] = {"filter", "optional", "prompt", "different", "number", "chosen_by", NULL};
      if (ymap_check_keys(l->d, t, keys, "target", l->err)) return -1;
      if (!(ts->f = p_filter(l, ymap_get(t, "filter")))) return -1;
      const ynode *num = ymap_get(t, "number");
      if (num) {
        /* "any number of target creatures", "X target creatures" (601.2c) */
        const char *nv = scalar(num);
        if (!nv || (strcmp(nv, "any") && strcmp(nv, "X") && strcmp(nv, "paid")))
          return BADI(l, num, "target number: 'any' (\"any number of target ...\"), 'X' (\"X target ...\", the X of the mana cost) "
                              "or 'paid' (X chosen for a variable additional cost), found %s", nv ? nv : ynode_kind_name(num));
        if (i != cnt - 1) return BADI(l, num, "a target with a 'number' is the last of its ability's targets");
        if (ymap_get(t, "optional")) return BADI(l, num, "a target with a 'number' takes no 'optional' ('any' may be none)");
        ts->number = !strcmp(nv, "any") ? TN_ANY : !strcmp(nv, "X") ? TN_X : TN_PAID;
        m->var = 1;
      }
      const ynode *o = ymap_get(t, "optional");
      int b = 0;
      if (o && ynode_bool(l->d, o, &b, l->err)) return -1;
      ts->optional = (uint8_t)b;
      b = 0;
      if ((o = ymap_get(t, "different")) && ynode_bool(l->d, o, &b, l->err)) return -1;
      ts->distinct_from_prev = (uint8_t)b;
      if ((o = ymap_get(t, "prompt")) && scalar(o)) ts->prompt = dup(l, scalar(o));
      if ((o = ymap_get(t, "chosen_by"))) {
        /* "target ... that player controls of their choice": the player of the
         * trigger event chooses it as the ability is put on the stack (603.3d, 601.2c) */
        if (!scalar(o) || strcmp(scalar(o), "triggering_player"))
          return BADI(l, o, "chosen_by: triggering_player (the player of the trigger event chooses the target) is the one supported");
        if (!l->trig_targets || l->nested) return BADI(l, o, "chosen_by is for the targets of a triggered ability (its trigger event's player)");
        ts->by_trig_player = 1;
      }
    } else if (!(ts->f = p_filter(l, t))) {
      return -1;
    }
  }
  return 0;
}

/* Whether n is a damage or put_counters step with `divided: true`. */
static int is_divided(const Node *n) {
  int key = n->op == S_DAMAGE ? 4 : n->op == S_PUT_COUNTERS ? 3 : -1;
  return key >= 0 && n->k[key] && n->k[key]->i;
}

static int divided_steps(const Node *n) {
  if (!n) return 0;
  int k = is_divided(n);
  for (int i = 0; i < n->n; i++) k += divided_steps(n->k[i]);
  return k;
}

/* `divided: true` on a damage or put_counters step: "N damage divided as
 * you choose among [its targets]", "distribute N +1/+1 counters among
 * [its targets]". The division is announced as the spell is cast or the
 * ability put on the stack (601.2d), so the step is one of the mode's own
 * (not inside a condition, a choice or another ability), there is one, and
 * it acts on the mode's `targets`. */
static int p_divided(L *l, Mode *m) {
  const Node *seq = m->effect;
  int all = divided_steps(seq);
  if (!all) return 0;
  for (int i = 0; i < seq->n; i++) {
    const Node *st = seq->k[i];
    if (!is_divided(st)) continue;
    ynode at = {.kind = YN_SCALAR, .line = st->line, .col = st->col, .str = ""};
    if (m->divide) return BADI(l, &at, "one step of an ability can be 'divided' (601.2d)");
    const Node *to = st->k[st->op == S_DAMAGE ? 1 : 2];
    if (!to || to->op != SL_TARGETS || !m->nt)
      return BADI(l, &at, "'divided' is divided among the ability's targets: give the step '%s: targets' and 'targets' "
                          "on the ability (601.2d)", st->op == S_DAMAGE ? "to" : "on");
    m->divide = st;
  }
  if (!m->divide || all > 1) {
    ynode at = {.kind = YN_SCALAR, .line = seq->line, .col = seq->col, .str = ""};
    return BADI(l, &at, "a 'divided' step is a step of the ability's effect itself, not inside another step: the "
                        "division is announced as it is cast or put on the stack (601.2d)");
  }
  return 0;
}

static int p_mode(L *l, const ynode *n, Mode *m, const char *what) {
  static const char *const keys[] = {"targets", "effect", "text", NULL};
  if (ymap_check_keys(l->d, n, keys, what, l->err)) return -1;
  if (p_targets(l, ymap_get(n, "targets"), m)) return -1;
  const ynode *e = ymap_get(n, "effect");
  if (!e) return BADI(l, n, "%s needs an 'effect'", what);
  if (!(m->effect = p_steps(l, e)) || p_divided(l, m)) return -1;
  const ynode *t = ymap_get(n, "text");
  if (t && scalar(t)) m->text = dup(l, scalar(t));
  return 0;
}

/* `target` where the ability has no such target names nothing: refused. The
 * selectors of a delayed trigger without targets of its own name the targets
 * of the ability that created it (its choices go with it); a reflexive
 * trigger has only its own. */
static int check_targets(L *l, const Node *n, int nt);

static int check_filter_targets(L *l, const Filter *f, int nt) {
  for (; f; f = f->or_f)
    if (check_targets(l, f->cond, nt) || check_targets(l, f->share_color, nt) || check_targets(l, f->other_than, nt) ||
        (f->not_f && check_filter_targets(l, f->not_f, nt)))
      return -1;
  return 0;
}

static int check_targets(L *l, const Node *n, int nt) {
  if (!n) return 0;
  if ((n->op == SL_TARGET && n->i >= nt) || (n->op == SL_TARGETS && !nt)) {
    ynode at = {.kind = YN_SCALAR, .line = n->line, .col = n->col, .str = ""};
    if (!nt)
      return BADI(l, &at, "this names a target, but the ability has none (a step acting on 'target' by default "
                          "needs its object: self, it, {each: ...}, ... or 'targets' on the ability)");
    return BADI(l, &at, "this names target %d, but the ability has %d", n->i + 1, nt);
  }
  if ((n->op == S_DELAYED || n->op == S_REFLEXIVE) && n->k[0] && n->k[0]->ab) {
    const Ability *a = n->k[0]->ab;
    for (int m = 0; m < a->nmodes; m++) {
      int own = a->modes[m].nt;
      if (check_targets(l, a->modes[m].effect, own || n->op == S_REFLEXIVE ? own : nt)) return -1;
    }
    return 0;
  }
  if (n->op == S_REPLACE_NEXT) return 0; /* a replacement's program: the event it replaces */
  for (int i = 0; i < n->n; i++)
    if (check_targets(l, n->k[i], nt)) return -1;
  return n->f ? check_filter_targets(l, n->f, nt) : 0;
}

/* Fills modes from either `modes:` or top-level targets/effect keys of n. */
static int p_modes(L *l, const ynode *n, Ability *a) {
  const ynode *modes = ymap_get(n, "modes");
  if (!modes && ymap_get(n, "choose")) return BADI(l, ymap_get(n, "choose"), "'choose' is how many 'modes' are chosen; there are no modes");
  if (modes && ymap_get(n, "targets"))
    return BADI(l, ymap_get(n, "targets"), "with 'modes', each mode has its own 'targets'");
  if (modes) {
    if (modes->kind != YN_SEQ || modes->n < 2 || modes->n > MAX_MODES)
      return BADI(l, modes, "modes: expected a list of 2 to %d modes", MAX_MODES);
    if (ymap_get(n, "effect")) return BADI(l, ymap_get(n, "effect"), "give either 'modes' or 'effect', not both");
    int var = 0;
    for (int i = 0; i < modes->n; i++) {
      if (p_mode(l, modes->items[i], &a->modes[i], "mode") ||
          (!l->nested && check_targets(l, a->modes[i].effect, a->modes[i].nt)))
        return -1;
      if (a->modes[i].var && var++)
        return BADI(l, modes->items[i], "one mode of an ability can have a target with a 'number'");
    }
    a->nmodes = (uint8_t)modes->n;
    a->mode_min = a->mode_max = 1;
    const ynode *ch = ymap_get(n, "choose");
    if (ch) {
      long v;
      if (ch->kind == YN_MAP) {
        static const char *const ck[] = {"min", "max", "kicked", NULL};
        if (ymap_check_keys(l->d, ch, ck, "choose", l->err)) return -1;
        const ynode *mn = ymap_get(ch, "min"), *mx = ymap_get(ch, "max"), *kk = ymap_get(ch, "kicked");
        if (!mn || !mx) return BADI(l, ch, "choose: {min: N, max: M}");
        if (ynode_int_range(l->d, mn, 0, MAX_MODES, &v, l->err)) return -1;
        a->mode_min = (uint8_t)v;
        if (ynode_int_range(l->d, mx, 0, MAX_MODES, &v, l->err)) return -1;
        a->mode_max = (uint8_t)v;
        if (kk) {
          /* "Choose one. If this spell was kicked, choose any number instead." */
          const ynode *kn = kk->kind == YN_MAP ? ymap_get(kk, "min") : NULL, *kx = kk->kind == YN_MAP ? ymap_get(kk, "max") : NULL;
          if (!kn || !kx) return BADI(l, kk, "choose: kicked: {min: N, max: M} (the numbers of modes when kicked)");
          if (ynode_int_range(l->d, kn, 0, MAX_MODES, &v, l->err)) return -1;
          a->kmode_min = (uint8_t)v;
          if (ynode_int_range(l->d, kx, 1, MAX_MODES, &v, l->err)) return -1;
          a->kmode_max = (uint8_t)v;
          if (a->kmode_min > a->kmode_max || a->kmode_max > modes->n) return BADI(l, kk, "choose: bad number of modes when kicked");
        }
      } else {
        if (ynode_int_range(l->d, ch, 0, MAX_MODES, &v, l->err)) return -1;
        a->mode_min = a->mode_max = (uint8_t)v;
      }
      if (a->mode_min > a->mode_max || a->mode_max > a->nmodes) return BADI(l, ch, "choose: bad number of modes");
    }
    return 0;
  }
  a->nmodes = 1;
  a->mode_min = a->mode_max = 1;
  if (p_targets(l, ymap_get(n, "targets"), &a->modes[0])) return -1;
  const ynode *e = ymap_get(n, "effect");
  if (!e) return BADI(l, n, "ability needs an 'effect' (or 'modes')");
  a->modes[0].effect = p_steps(l, e);
  if (!a->modes[0].effect || p_divided(l, &a->modes[0])) return -1;
  return l->nested ? 0 : check_targets(l, a->modes[0].effect, a->modes[0].nt);
}

/* ---- costs ---- */

static int p_cost(L *l, const ynode *mana, const ynode *parts, Cost *c) {
  char why[200];
  int tap = 0, untap = 0;
  memset(c, 0, sizeof *c);
  if (mana) {
    const char *s = scalar(mana);
    char rest[256];
    int syms[N_COUNTER_SYMBOLS];
    if (!s) return BADI(l, mana, "cost: expected a string like \"{2}{R}, {T}\"");
    if (cost_counter_symbols(s, rest, sizeof rest, syms)) return BADI(l, mana, "cost: too long");
    if (mana_parse(rest, &c->mana, &tap, &untap, why, sizeof why)) return BADI(l, mana, "cost: %s", why);
    if (tap) c->part[c->nparts++].kind = CK_TAP;
    if (untap) c->part[c->nparts++].kind = CK_UNTAP;
    /* "{T}, Pay {E}{E}" is cost: "{T}, {E}{E}" (107.14, 107.17a) */
    for (int k = 0; k < N_COUNTER_SYMBOLS; k++) {
      if (!syms[k]) continue;
      if (syms[k] > INT16_MAX) return BADI(l, mana, "cost: too many counter symbols");
      CostPart *cp = &c->part[c->nparts++];
      cp->kind = CK_PAY_COUNTERS;
      cp->counter = counter_symbols[k].kind;
      cp->n = (int16_t)syms[k];
    }
  }
  if (!parts) return 0;
  if (parts->kind != YN_SEQ) return BADI(l, parts, "costs: expected a list");
  for (int i = 0; i < parts->n; i++) {
    const ynode *p = parts->items[i];
    if (c->nparts >= MAX_COST_PARTS) return BADI(l, p, "too many costs");
    CostPart *cp = &c->part[c->nparts++];
    const char *s = scalar(p);
    if (s) {
      if (!strcmp(s, "tap")) cp->kind = CK_TAP;
      else if (!strcmp(s, "untap")) cp->kind = CK_UNTAP;
      else if (!strcmp(s, "sacrifice_self")) cp->kind = CK_SAC_SELF;
      else if (!strcmp(s, "exile_self")) cp->kind = CK_EXILE_SELF;
      else if (!strcmp(s, "return_unblocked_attacker")) cp->kind = CK_RETURN_UNBLOCKED;
      else if (!strcmp(s, "discard_self")) cp->kind = CK_DISCARD_SELF;
      else {
        static const char *const w[] = {"tap", "untap", "sacrifice_self", "exile_self", "return_unblocked_attacker", "discard_self",
                                        "{sacrifice: filter, n: N}", "{tap: filter, n: N}", "{return: filter, n: N}", "{pay_life: N}", "{discard: N}", "{exile_top: N}",
                                        "{remove_counters: kind, n: N}", "{exile_from_hand: filter}", NULL};
        return bad_name(l, p, "cost", w, -1);
      }
      continue;
    }
    if (p->kind != YN_MAP) return BADI(l, p, "cost: expected a word or a mapping");
    {
      /* one cost per mapping; n only where it counts */
      static const char *const ck[] = {"sacrifice", "tap", "return", "pay_life", "exile_from_graveyard", "discard", "exile_top",
                                       "exile_from_hand", "remove_counters", "add_counters", "n", "x", "filter", "from", NULL};
      if (ymap_check_keys(l->d, p, ck, "cost", l->err)) return -1;
      int mains = p->n - (ymap_get(p, "n") ? 1 : 0) - (ymap_get(p, "x") ? 1 : 0) - (ymap_get(p, "filter") ? 1 : 0) -
                  (ymap_get(p, "from") ? 1 : 0);
      if (ymap_get(p, "x") && (!ymap_get(p, "exile_from_hand") || !scalar(ymap_get(p, "x")) || strcmp(scalar(ymap_get(p, "x")), "mana_value")))
        return BADI(l, ymap_get(p, "x"), "x: mana_value goes with exile_from_hand (\"exile a card with mana value X from your hand\")");
      if (ymap_get(p, "from") && !ymap_get(p, "remove_counters"))
        return BADI(l, ymap_get(p, "from"), "'from' goes with remove_counters (\"remove N [kind] counters from you\")");
      if (ymap_get(p, "filter") && !ymap_get(p, "discard"))
        return BADI(l, ymap_get(p, "filter"), "'filter' goes with discard (\"Discard a [quality] card\")");
      if (mains != 1) return BADI(l, p, "a cost mapping has one cost (sacrifice, pay_life, discard, ...); found %d", mains);
      if (ymap_get(p, "n") && !ymap_get(p, "exile_from_graveyard") && !ymap_get(p, "remove_counters") && !ymap_get(p, "add_counters") &&
          !ymap_get(p, "sacrifice") && !ymap_get(p, "tap") && !ymap_get(p, "return"))
        return BADI(l, ymap_get(p, "n"), "'n' goes with sacrifice, tap, return, exile_from_graveyard, remove_counters and add_counters");
    }
    const ynode *v;
    long x;
    if ((v = ymap_get(p, "sacrifice")) || (v = ymap_get(p, "tap")) || (v = ymap_get(p, "return"))) {
      /* "Sacrifice N [quality]", "Tap N untapped [quality] you control",
       * "return N [quality] you control to its owner's hand": n a number or X
       * (chosen as the cost is announced, 601.2b, 107.3a) */
      cp->kind = ymap_get(p, "sacrifice") ? CK_SAC : ymap_get(p, "tap") ? CK_TAP_OTHERS : CK_RETURN_OWN;
      cp->n = 1;
      if (!(cp->f = p_filter(l, v))) return -1;
      const ynode *nn = ymap_get(p, "n");
      if (nn && scalar(nn) && !strcmp(scalar(nn), "X")) cp->n = -1;
      else if (nn) {
        if (ynode_int(l->d, nn, &x, l->err)) return -1;
        if (x < 1 || x > 20) return BADI(l, nn, "n: a number from 1 to 20, or X");
        cp->n = (int16_t)x;
      }
    } else if ((v = ymap_get(p, "pay_life"))) {
      cp->kind = CK_PAY_LIFE;
      if (scalar(v) && !strcmp(scalar(v), "X")) x = -1; /* a variable cost (607.2j) */
      else if (ynode_int_range(l->d, v, 0, INT16_MAX, &x, l->err)) return -1;
      cp->n = (int16_t)x;
    } else if ((v = ymap_get(p, "exile_from_graveyard"))) {
      cp->kind = CK_EXILE_GRAVEYARD_N;
      if (!(cp->f = p_filter(l, v))) return -1;
      const ynode *nn = ymap_get(p, "n");
      cp->n = 1;
      if (nn) {
        if (scalar(nn) && !strcmp(scalar(nn), "X")) cp->n = -1;
        else {
          if (ynode_int_range(l->d, nn, 0, INT16_MAX, &x, l->err)) return -1;
          cp->n = (int16_t)x;
        }
      }
    } else if ((v = ymap_get(p, "discard"))) {
      cp->kind = CK_DISCARD;
      if (scalar(v) && !strcmp(scalar(v), "X")) x = -1; /* "discard X cards", chosen as it is announced (601.2b) */
      else if (ynode_int_range(l->d, v, 0, INT16_MAX, &x, l->err)) return -1;
      cp->n = (int16_t)x;
      const ynode *fl = ymap_get(p, "filter"); /* "Discard a Zombie card" */
      if (fl && !(cp->f = p_filter(l, fl))) return -1;
    } else if ((v = ymap_get(p, "exile_top"))) {
      cp->kind = CK_EXILE_TOP;
      if (ynode_int_range(l->d, v, 0, INT16_MAX, &x, l->err)) return -1;
      cp->n = (int16_t)x;
    } else if ((v = ymap_get(p, "exile_from_hand"))) {
      cp->kind = CK_EXILE_HAND;
      cp->n = 1;
      cp->sets_x = ymap_get(p, "x") != NULL;
      if (!(cp->f = p_filter(l, v))) return -1;
    } else if ((v = ymap_get(p, "remove_counters")) || (v = ymap_get(p, "add_counters"))) {
      cp->kind = ymap_get(p, "remove_counters") ? CK_REMOVE_COUNTERS : CK_ADD_COUNTERS;
      if (!scalar(v)) return BADI(l, v, "expected a counter kind");
      const ynode *fr = ymap_get(p, "from");
      if (fr) {
        /* 122.1: "remove N [kind] counters from you", a player's counters as a cost */
        if (!scalar(fr) || strcmp(scalar(fr), "you"))
          return BADI(l, fr, "from: you (counters on the player paying; without 'from', counters on this object)");
        cp->kind = CK_PAY_COUNTERS;
      }
      cp->counter = dup(l, scalar(v));
      const ynode *nn = ymap_get(p, "n");
      cp->n = 1;
      if (nn) {
        if (ynode_int_range(l->d, nn, 0, INT16_MAX, &x, l->err)) return -1;
        cp->n = (int16_t)x;
      }
    } else {
      return BADI(l, p, "unknown cost (sacrifice, tap, return, pay_life, discard, exile_top, exile_from_hand, exile_from_graveyard, remove_counters)");
    }
  }
  return 0;
}

/* ---- trigger patterns ---- */

static const char *const trig_events[] = {
    "enters", "dies", "leaves", "zone", "cast", "draw", "damage", "gain_life", "lose_life", "step",
    "attacks", "blocks", "becomes_blocked", "tapped", "untapped", "counters", "loses", "countered",
    "discard", "sacrifice", "unattached", "control_lost", "mana", "state", "reveal", "activate", "prevented",
    "phases_out", "turned_face_up", "defeated", "set_in_motion", "planeswalk_to", "planeswalk_away",
    "ability_triggers", "cycle", "becomes_target", "counters_removed", "unblocked", "exerted", "becomes_monstrous",
    "becomes_renowned", "becomes_crewed", "becomes_class_level", NULL};

static const char *const step_keys[] = {"untap", "upkeep", "draw", "main1", "beginning_of_combat",
                                        "declare_attackers", "declare_blockers", "combat_damage",
                                        "end_of_combat", "main2", "end", "cleanup"};

/* subject: "self", a filter, or {self_or_other: filter} */
static int p_subject(L *l, const ynode *v, TrigPat *t) {
  if (scalar(v) && !strcmp(scalar(v), "self")) {
    t->self = 1;
    return 0;
  }
  if (scalar(v) && !strcmp(scalar(v), "attached")) {
    t->attached = 1;
    return 0;
  }
  if (v->kind == YN_MAP && ymap_get(v, "self_or_other")) {
    t->self_or_other = 1;
    return (t->obj = p_filter(l, ymap_get(v, "self_or_other"))) ? 0 : -1;
  }
  return (t->obj = p_filter(l, v)) ? 0 : -1;
}

static int p_trigpat(L *l, const ynode *n, TrigPat *t) {
  t->from = t->to = -1;
  t->combat = -1;
  t->step = -1;
  if (want_map(l, n, "when")) return -1;
  static const char *const extra[] = {"player", "combat", "this_way", "alone", "nth", "nth_in_turn", "tap_cost", "by",
                                      "kind", "source", "attacker", "one_or_more", "level", NULL};
  static const char *const inner[] = {"from", "to", "on", "object", NULL};
  const ynode *evk = NULL, *ev = NULL;
  for (int i = 0; i < n->n; i++) {
    const char *k = scalar(ymap_key(n, i));
    if (k && name_index(k, trig_events, NELEM(trig_events) - 1) >= 0) {
      if (evk) return BADI(l, ymap_key(n, i), "a trigger has one event; found '%s' and '%s'", evk->str, k);
      evk = ymap_key(n, i);
      ev = ymap_val(n, i);
    } else if (k && name_index(k, inner, NELEM(inner) - 1) >= 0) {
      return BADI(l, ymap_key(n, i), "'%s' goes in the event's own mapping (zone: {object, from, to}, damage: {by, to}, counters: {on, kind})", k);
    } else if (!k || name_index(k, extra, NELEM(extra) - 1) < 0) {
      const char *best = k ? suggest_best(k, trig_events, -1) : NULL;
      if (!best && k) best = suggest_best(k, extra, -1);
      return BADI(l, ymap_key(n, i), "unknown trigger key '%s'%s%s%s", k ? k : "?", best ? "; did you mean '" : "",
                  best ? best : "", best ? "'?" : "");
    }
  }
  if (!evk) {
    char list[400];
    suggest_join(trig_events, -1, list, sizeof list);
    return BADI(l, n, "trigger needs an event: %s", list);
  }
  const char *e = evk->str;
  const ynode *v;
  t->ev = (uint8_t)name_index(e, trig_events, NELEM(trig_events) - 1);
  static const uint8_t map_ev[] = {TE_ENTERS, TE_DIES, TE_LEAVES, TE_ZONE, TE_CAST, TE_DRAW, TE_DAMAGE,
                                   TE_GAIN_LIFE, TE_LOSE_LIFE, TE_STEP, TE_ATTACKS, TE_BLOCKS, TE_BLOCKED,
                                   TE_TAPPED, TE_UNTAPPED, TE_COUNTERS, TE_LOSES, TE_COUNTERED, TE_DISCARD,
                                   TE_SACRIFICE, TE_UNATTACHED, TE_CONTROL_LOST, TE_MANA, TE_STATE, TE_REVEAL,
                                   TE_ACTIVATE, TE_PREVENTED, TE_PHASED_OUT, TE_FACE_UP, TE_DEFEATED, TE_SET_IN_MOTION,
                                   TE_PLANESWALK_TO, TE_PLANESWALK_AWAY, TE_TRIGGERED, TE_CYCLE, TE_TARGETED,
                                   TE_COUNTERS_REMOVED, TE_UNBLOCKED, TE_EXERTED, TE_BECOMES, TE_BECOMES, TE_BECOMES,
                                   TE_BECOMES};
  t->designation = (uint8_t)(!strcmp(e, "becomes_monstrous") ? 1 : !strcmp(e, "becomes_renowned") ? 2
                             : !strcmp(e, "becomes_crewed") ? 4 : !strcmp(e, "becomes_class_level") ? 5 : 0);
  t->ev = map_ev[t->ev];
  /* the keys beside the event, each for the events that read it */
  if ((v = ymap_get(n, "level")) || t->designation == 5) {
    /* "When this Class becomes level N" (716.2a) */
    long x;
    if (t->designation != 5) return BADI(l, v, "level: for a becomes_class_level trigger");
    if (!v) return BADI(l, n, "becomes_class_level needs 'level': the level N of \"when this Class becomes level N\"");
    if (ynode_int_range(l->d, v, 2, 255, &x, l->err)) return -1;
    t->level = (uint8_t)x;
  }
  if ((v = ymap_get(n, "player"))) {
    if (t->ev != TE_CAST && t->ev != TE_ACTIVATE && t->ev != TE_STEP && t->ev != TE_DISCARD && t->ev != TE_CONTROL_LOST &&
        t->ev != TE_TRIGGERED && t->ev != TE_CYCLE && t->ev != TE_EXERTED)
      return BADI(l, v, "player: for cast, activate, step, discard, cycle, exerted, control_lost and ability_triggers triggers (the "
                        "player of draw, gain_life, lose_life and loses is the event's value; of damage, its 'to')");
    int r = p_rel(l, v);
    if (r < 0) return -1;
    t->player = (uint8_t)r;
  }
  if ((v = ymap_get(n, "combat"))) {
    if (t->ev != TE_DAMAGE && t->ev != TE_PREVENTED) return BADI(l, v, "combat: for damage and prevented triggers");
    int8_t b;
    if (bool_field(l, v, &b)) return -1;
    t->combat = b;
  }
  if ((v = ymap_get(n, "this_way"))) {
    if (t->ev != TE_REVEAL) return BADI(l, v, "this_way: for reveal triggers");
    int8_t b;
    if (bool_field(l, v, &b)) return -1;
    t->this_way = (uint8_t)b;
  }
  if ((v = ymap_get(n, "alone"))) {
    int8_t b;
    if (bool_field(l, v, &b)) return -1;
    if (t->ev != TE_ATTACKS) return BADI(l, v, "alone: only for an 'attacks' trigger (\"attacks alone\", 506.5)");
    t->alone = (uint8_t)b;
  }
  if ((v = ymap_get(n, "by")) && t->ev == TE_ZONE) {
    /* "whenever you exile ...": the player who moved it (a discarding player, a sacrificing controller,
     * else the controller of the spell or ability that did it, or the player paying a cost) */
    int r = p_rel(l, v);
    if (r < 0) return -1;
    t->by = (uint8_t)r;
  } else if ((v = ymap_get(n, "by")) || (v = ymap_get(n, "kind"))) {
    /* "becomes the target of a spell or ability an opponent controls" */
    if (t->ev != TE_TARGETED) return BADI(l, v, "%s is for becomes_target triggers%s", ymap_get(n, "by") ? "by" : "kind", ymap_get(n, "by") ? " and zone triggers" : "");
    if ((v = ymap_get(n, "by"))) {
      int r = p_rel(l, v);
      if (r < 0) return -1;
      t->by = (uint8_t)r;
    }
    if ((v = ymap_get(n, "kind"))) {
      const char *k = scalar(v);
      if (!k || (strcmp(k, "spell") && strcmp(k, "ability") && strcmp(k, "spell_or_ability")))
        return BADI(l, v, "kind: spell, ability or spell_or_ability (the default)");
      t->by_kind = !strcmp(k, "spell") ? 1 : !strcmp(k, "ability") ? 2 : 0;
    }
  }
  if ((v = ymap_get(n, "source"))) {
    if (t->ev != TE_TARGETED) return BADI(l, v, "source is for becomes_target triggers (a damage trigger's source is its 'by')");
    if (!(t->src = p_filter(l, v))) return -1;
  }
  if ((v = ymap_get(n, "one_or_more"))) {
    /* "whenever one or more ...": once for the events of one batch, `amount` how many (603.2c) */
    int8_t b;
    if (bool_field(l, v, &b)) return -1;
    if (t->ev == TE_STEP || t->ev == TE_STATE || t->ev == TE_CAST || t->ev == TE_ACTIVATE)
      return BADI(l, v, "one_or_more is for events that can happen to several objects at once (zone changes, damage, counters, ...)");
    t->batch = (uint8_t)b;
  }
  t->tap_cost = -1;
  if ((v = ymap_get(n, "tap_cost"))) {
    /* "activates an ability with / without {T} in its activation cost" */
    if (t->ev != TE_ACTIVATE) return BADI(l, v, "tap_cost is for activate triggers");
    if (bool_field(l, v, &t->tap_cost)) return -1;
  }
  if ((v = ymap_get(n, "nth")) || (v = ymap_get(n, "nth_in_turn"))) {
    /* "your Nth spell each turn", "your Nth card each turn"; nth_in_turn: "the Nth spell of a turn" */
    long x;
    if (ymap_get(n, "nth") && ymap_get(n, "nth_in_turn")) return BADI(l, v, "give nth (the player's) or nth_in_turn (every player's), not both");
    if (t->ev != TE_CAST && !(t->ev == TE_DRAW && ymap_get(n, "nth")))
      return BADI(l, v, "%s is for cast triggers%s", ymap_get(n, "nth") ? "nth" : "nth_in_turn", ymap_get(n, "nth") ? " and draw triggers" : "");
    if (ynode_int(l->d, v, &x, l->err)) return -1;
    if (x < 1 || x > 100) return BADI(l, v, "nth: 1 to 100");
    t->nth = (uint8_t)x;
    t->nth_in_turn = ymap_get(n, "nth_in_turn") != NULL;
  }
  if ((v = ymap_get(n, "attacker"))) {
    /* "whenever [a creature] blocks [this creature]", "whenever this creature becomes
     * blocked by [a creature]": once for each blocker (509.3b, 509.3d) */
    if (t->ev != TE_BLOCKS) return BADI(l, v, "attacker: only for a 'blocks' trigger (the creature blocked)");
    if (scalar(v) && !strcmp(scalar(v), "self")) t->atk_self = 1;
    else if (!(t->atk = p_filter(l, v))) return -1;
  }
  switch (t->ev) {
  case TE_ENTERS: case TE_DIES: case TE_LEAVES: case TE_ATTACKS: case TE_BLOCKS: case TE_BLOCKED:
  case TE_TAPPED: case TE_UNTAPPED: case TE_SACRIFICE: case TE_UNATTACHED: case TE_CONTROL_LOST:
  case TE_DISCARD: case TE_COUNTERED: case TE_REVEAL: case TE_PHASED_OUT: case TE_FACE_UP: case TE_DEFEATED:
  case TE_SET_IN_MOTION: case TE_PLANESWALK_TO: case TE_PLANESWALK_AWAY: case TE_TRIGGERED: case TE_CYCLE:
  case TE_TARGETED:
  case TE_UNBLOCKED: case TE_EXERTED: case TE_BECOMES:
    if (p_subject(l, ev, t)) return -1;
    break;
  case TE_ZONE:
    if (ev->kind != YN_MAP) return BADI(l, ev, "zone: expected {object: ..., from: zone|any, to: zone}");
    {
      static const char *const keys[] = {"object", "from", "to", NULL};
      if (ymap_check_keys(l->d, ev, keys, "zone trigger", l->err)) return -1;
      const ynode *o = ymap_get(ev, "object"), *f = ymap_get(ev, "from"), *to = ymap_get(ev, "to");
      if (o && p_subject(l, o, t)) return -1;
      if (f && f->kind == YN_SEQ) {
        /* "from your hand and/or the battlefield": any of these zones */
        if (f->n < 1 || f->n > 8) return BADI(l, f, "from: a zone, any, or a list of zones");
        for (int i = 0; i < f->n; i++) {
          int z = p_zone(l, f->items[i], 0);
          if (z < 0) return -1;
          t->from_mask = (uint16_t)(t->from_mask | 1u << z);
        }
      } else if (f) {
        int z = p_zone(l, f, 1);
        if (z < -1) return -1;
        t->from = (int8_t)z;
        t->from_anywhere = z == -1;
      } else t->from_anywhere = 1;
      if (!to) return BADI(l, ev, "zone trigger needs 'to' (a zone, or any: \"leaves [zone]\")");
      int z = p_zone(l, to, 1);
      if (z < -1) return -1;
      if (z == -1 && t->from_anywhere)
        return BADI(l, to, "a zone trigger needs 'from' or 'to' to be a zone (to: any is \"leaves [from]\")");
      t->to = (int8_t)z;
    }
    break;
  case TE_CAST: case TE_ACTIVATE:
    if (scalar(ev) && !strcmp(scalar(ev), "self")) t->self = 1;
    else if (!(t->obj = p_filter(l, ev))) return -1;
    if (t->ev == TE_CAST && t->obj && t->obj->spell == -1 && t->obj->zone == -1) {
      /* what is cast is a spell on the stack: {type: creature} means a creature spell */
      Filter *f = al(l, sizeof *f);
      if (!f) return -1;
      *f = *t->obj;
      f->spell = 1;
      t->obj = f;
    }
    break;
  case TE_DRAW: case TE_GAIN_LIFE: case TE_LOSE_LIFE: case TE_LOSES: {
    int r = p_rel(l, ev);
    if (r < 0) return -1;
    t->player = (uint8_t)r;
    break;
  }
  case TE_STEP: {
    const char *s = scalar(ev);
    int st = s ? name_index(s, step_keys, NELEM(step_keys)) : -1;
    if (st < 0) return bad_name(l, ev, "step", step_keys, NELEM(step_keys));
    t->step = (int8_t)st;
    break;
  }
  case TE_DAMAGE:
  case TE_PREVENTED: {
    if (ev->kind != YN_MAP) return BADI(l, ev, "%s: expected {by: ..., to: ...}", e);
    static const char *const keys[] = {"by", "to", "combat", NULL};
    if (ymap_check_keys(l->d, ev, keys, "damage trigger", l->err)) return -1;
    const ynode *by = ymap_get(ev, "by"), *to = ymap_get(ev, "to"), *cb = ymap_get(ev, "combat");
    if (by) {
      if (scalar(by) && !strcmp(scalar(by), "self")) t->src_self = 1;
      else if (scalar(by) && !strcmp(scalar(by), "attached")) t->attached = 1;
      else if (!(t->src = p_filter(l, by))) return -1;
    }
    if (to) {
      if (scalar(to) && !strcmp(scalar(to), "self")) t->to_self = 1;
      else if (scalar(to) && (!strcmp(scalar(to), "player") || !strcmp(scalar(to), "opponent") || !strcmp(scalar(to), "you"))) {
        t->to_player = 1;
        t->player = !strcmp(scalar(to), "opponent") ? R_OPP : !strcmp(scalar(to), "you") ? R_YOU : R_ANY;
      } else if (!(t->obj = p_filter(l, to))) return -1;
    }
    if (cb) {
      int8_t b;
      if (bool_field(l, cb, &b)) return -1;
      t->combat = b;
    }
    break;
  }
  case TE_COUNTERS: {
    if (ev->kind != YN_MAP) return BADI(l, ev, "counters: expected {on: ..., kind: ...}");
    static const char *const keys[] = {"on", "kind", NULL};
    if (ymap_check_keys(l->d, ev, keys, "counters trigger", l->err)) return -1;
    const ynode *on = ymap_get(ev, "on"), *k = ymap_get(ev, "kind");
    if (on && p_subject(l, on, t)) return -1;
    if (k && scalar(k)) t->counter = dup(l, scalar(k));
    break;
  }
  case TE_COUNTERS_REMOVED: {
    /* "whenever a counter is removed from", "when the last time counter is removed from" */
    if (ev->kind != YN_MAP) return BADI(l, ev, "counters_removed: expected {on: ..., kind: ..., last: true}");
    static const char *const keys[] = {"on", "kind", "last", NULL};
    if (ymap_check_keys(l->d, ev, keys, "counters_removed trigger", l->err)) return -1;
    const ynode *on = ymap_get(ev, "on"), *k = ymap_get(ev, "kind"), *ls = ymap_get(ev, "last");
    if (on && p_subject(l, on, t)) return -1;
    if (k && scalar(k)) t->counter = dup(l, scalar(k));
    if (ls) {
      int8_t b;
      if (bool_field(l, ls, &b)) return -1;
      if (b && !t->counter) return BADI(l, ls, "last: the last counter of a kind: give kind");
      t->last = (uint8_t)b;
    }
    break;
  }
  case TE_MANA:
    /* "whenever a player taps a land for mana": a triggered mana ability (605.1b) */
    if (p_subject(l, ev, t)) return -1;
    t->mana_ability = 1;
    break;
  case TE_STATE:
    if (!(t->state = p_cond(l, ev))) return -1;
    break;
  }
  /* 603.10: these look back in time */
  t->lookback = t->ev == TE_DIES || t->ev == TE_LEAVES || t->ev == TE_UNATTACHED || t->ev == TE_CONTROL_LOST ||
                t->ev == TE_PHASED_OUT || t->ev == TE_PLANESWALK_AWAY /* 603.10g */ ||
                t->ev == TE_LOSES || t->ev == TE_COUNTERED || t->ev == TE_SACRIFICE || t->ev == TE_DISCARD ||
                (t->ev == TE_ZONE && t->from == MTG_Z_BATTLEFIELD && !t->from_anywhere) ||
                (t->ev == TE_ZONE && (t->from_mask >> MTG_Z_BATTLEFIELD & 1)) || /* leaves the battlefield (603.6c) */
                /* leaving a graveyard looks back, but entering the battlefield from one is
                 * an enters-the-battlefield trigger: newcomers see themselves (603.6a) */
                (t->ev == TE_ZONE && t->from == MTG_Z_GRAVEYARD && !t->from_anywhere && t->to != MTG_Z_BATTLEFIELD) ||
                (t->ev == TE_ZONE && (t->to == MTG_Z_HAND || t->to == MTG_Z_LIBRARY) && !t->from_anywhere);
  return 0;
}

static const Ability *p_trigger_ability(L *l, const ynode *n, int delayed) {
  static const char *const keys[] = {"when", "if", "targets", "modes", "choose", "effect", "once_per_turn",
                                     "zone", "label", "text", "duration", "once", "cant_be_countered", NULL};
  if (ymap_check_keys(l->d, n, keys, delayed ? "delayed trigger" : "triggered ability", l->err)) return NULL;
  const ynode *dn = ymap_get(n, "duration") ? ymap_get(n, "duration") : ymap_get(n, "once");
  if (!delayed && dn)
    return BAD(l, dn, "'%s' is for a delayed trigger (delayed_trigger: {...}); a triggered ability lasts as long as its object has it", dn == ymap_get(n, "once") ? "once" : "duration");
  Ability *a = al(l, sizeof *a);
  if (!a) return NULL;
  a->kind = AB_TRIGGERED;
  a->zone = -1;
  const ynode *w = ymap_get(n, "when");
  if (!w) return BAD(l, n, "triggered ability needs 'when'");
  if (w->kind == YN_SEQ) {
    /* one ability with several trigger events ("attacks or blocks"): a list of them */
    if (w->n < 2 || w->n > 8) return BAD(l, w, "when: one trigger event, or a list of 2 to 8 ('attacks or blocks')");
    TrigPat *alt = al(l, (size_t)(w->n - 1) * sizeof *alt);
    if (!alt) return NULL;
    for (int i = 0; i < w->n; i++) {
      TrigPat *t = i ? &alt[i - 1] : &a->trig;
      if (p_trigpat(l, w->items[i], t)) return NULL;
      if (t->mana_ability || t->ev == TE_STATE)
        return BAD(l, w->items[i], "a %s trigger stands alone, not in a list of trigger events", t->mana_ability ? "mana" : "state");
    }
    a->alt = alt;
    a->nalt = (uint8_t)(w->n - 1);
  } else if (p_trigpat(l, w, &a->trig)) {
    return NULL;
  }
  const ynode *v;
  if ((v = ymap_get(n, "if")) && !(a->cond = p_cond(l, v))) return NULL;
  int was = l->trig_targets;
  l->trig_targets = 1;
  int bad = p_modes(l, n, a);
  l->trig_targets = was;
  if (bad) return NULL;
  if ((v = ymap_get(n, "once_per_turn"))) {
    int b;
    if (ynode_bool(l->d, v, &b, l->err)) return NULL;
    a->trig.once_per_turn = (uint8_t)b;
  }
  if ((v = ymap_get(n, "zone"))) {
    int z = p_zone(l, v, 0);
    if (z < 0) return NULL;
    a->zone = (int8_t)z;
  } else if (a->trig.ev == TE_ZONE && a->trig.self && a->trig.from_anywhere && a->trig.to >= 0) {
    a->zone = a->trig.to; /* "when this is put into a graveyard from anywhere" functions there */
  } else if (a->trig.ev == TE_CAST && a->trig.self) {
    a->zone = MTG_Z_STACK;
  } else if (a->trig.ev == TE_CYCLE && a->trig.self) {
    a->zone = AB_ZONE_ANY; /* 702.29c: from whatever zone the card winds up in after it's cycled */
  }
  if ((v = ymap_get(n, "label")) && scalar(v)) a->label = dup(l, scalar(v));
  if ((v = ymap_get(n, "text")) && scalar(v)) a->text = dup(l, scalar(v));
  if ((v = ymap_get(n, "cant_be_countered"))) {
    int b;
    if (ynode_bool(l->d, v, &b, l->err)) return NULL;
    a->uncounterable = (uint8_t)b;
  }
  a->delayed_once = (uint8_t)delayed; /* a duration (p_step) makes it trigger each time until then */
  if (a->trig.mana_ability && a->modes[0].nt == 0) a->mana = 1;
  return a;
}

/* ---- replacement specs ---- */

static const char *const repl_events[] = {"draw", "damage", "zone", "discard", "destroy", "gain_life",
                                          "lose_life", "lose_game", "win_game", "counters", "token",
                                          "enters", "skip_step", "sacrifice", "poison", "turned_face_up", NULL};

static const ReplSpec *p_repl(L *l, const ynode *n, int in_effect) {
  static const char *const keys[] = {
      "event", "self", "object", "player", "source", "to", "from", "cause", "counter", "combat", "if",
      "optional", "self_replacement", "modify", "instead", "prevent", "then", "redirect", "to_zone",
      "shuffle", "bottom", "with_counter", "enters_tapped", "enters_with", "as_enters", "enters_as_copy",
      "skip", "link", "label", "text", "as_infect", "enters_under", "enters_transformed", "copy_adds_subtype",
      "enters_as_type", NULL};
  if (ymap_check_keys(l->d, n, keys, in_effect ? "replacement effect" : "replacement ability", l->err)) return NULL;
  /* the keys each event's matching reads (replace.c); the rest would be ignored */
  static const char *const match_keys[] = {"self", "object", "player", "source", "to", "from", "cause", "counter", "combat", NULL};
  static const struct { int ev; const char *keys; } match_by_ev[] = {
      {RE_DRAW, " player "}, {RE_DAMAGE, " source to self player object combat "},
      {RE_ZONE, " self object from to player "}, {RE_DISCARD, " self object cause "}, {RE_SACRIFICE, " self object cause "},
      {RE_DESTROY, " self object cause "}, {RE_GAIN_LIFE, " player "}, {RE_LOSE_LIFE, " player "},
      {RE_LOSE_GAME, " player "}, {RE_WIN_GAME, " player "}, {RE_COUNTERS, " cause counter object self player "},
      {RE_POISON, " cause player "}, {RE_TOKEN, " cause player "}, {RE_ENTERS, " self object "}, {RE_FACE_UP, " self "},
      {RE_SKIP_STEP, " player "}};
  const ynode *evn = ymap_get(n, "event");
  int evi = evn && scalar(evn) ? name_index(scalar(evn), repl_events, NELEM(repl_events) - 1) : -1;
  for (int i = 0; evi >= 0 && match_keys[i]; i++) {
    const ynode *k = ymap_get(n, match_keys[i]);
    if (!k) continue;
    const char *allowed = "";
    for (int j = 0; j < NELEM(match_by_ev); j++)
      if (match_by_ev[j].ev == evi) allowed = match_by_ev[j].keys;
    char w[24];
    snprintf(w, sizeof w, " %s ", match_keys[i]);
    if (!strstr(allowed, w))
      return BAD(l, k, "a %s replacement is not matched on '%s' (it reads:%s)", repl_events[evi], match_keys[i], allowed);
  }
  /* options of one action */
  static const struct { const char *key, *with, *with2; } opts[] = {
      {"shuffle", "to_zone", NULL}, {"bottom", "to_zone", NULL}, {"with_counter", "to_zone", NULL},
      {"then", "prevent", "skip"}, {"copy_adds_subtype", "enters_as_copy", NULL}};
  for (int i = 0; i < NELEM(opts); i++) {
    const ynode *k = ymap_get(n, opts[i].key);
    if (k && !ymap_get(n, opts[i].with) && !(opts[i].with2 && ymap_get(n, opts[i].with2)))
      return BAD(l, k, "'%s' goes with '%s'%s%s", opts[i].key, opts[i].with, opts[i].with2 ? " or " : "", opts[i].with2 ? opts[i].with2 : "");
  }
  static const char *const flags[] = {"enters_tapped", "enters_transformed", "as_infect", NULL};
  for (int i = 0; flags[i]; i++) {
    const ynode *k = ymap_get(n, flags[i]);
    int b;
    if (k && i == 0 && k->kind == YN_MAP) continue; /* enters_tapped: {unless_reveal: filter} */
    if (k && ynode_bool(l->d, k, &b, l->err)) return NULL;
    if (k && !b) return BAD(l, k, "%s: false does nothing; leave the key out", flags[i]);
  }
  ReplSpec *r = al(l, sizeof *r);
  if (!r) return NULL;
  r->from = r->to = -1;
  r->combat = -1;
  r->step = -1;
  r->mul = 1;
  const ynode *v = ymap_get(n, "event");
  if (!v) return BAD(l, n, "replacement needs 'event' (%s)", "draw, damage, zone, enters, ...");
  int e = scalar(v) ? name_index(scalar(v), repl_events, NELEM(repl_events) - 1) : -1;
  if (e < 0) return (void *)(intptr_t)(bad_name(l, v, "replaceable event", repl_events, NELEM(repl_events) - 1) * 0);
  r->ev = (uint8_t)e;
  int b;
  if ((v = ymap_get(n, "self"))) {
    if (ynode_bool(l->d, v, &b, l->err)) return NULL;
    r->self = (uint8_t)b;
  }
  if ((v = ymap_get(n, "object")) && !(r->obj = p_filter(l, v))) return NULL;
  if ((v = ymap_get(n, "player"))) {
    int rel = p_rel(l, v);
    if (rel < 0) return NULL;
    r->player = (uint8_t)rel;
    /* "if a player would get counters / be dealt damage": `player: any` is
     * still about players, not about permanents (R_ANY tests nothing) */
    if (rel == R_ANY && !r->obj && !r->self && (r->ev == RE_COUNTERS || r->ev == RE_DAMAGE)) r->to_kind = 1;
  }
  if ((v = ymap_get(n, "source"))) {
    if (scalar(v) && !strcmp(scalar(v), "self")) r->src_self = 1;
    else if (!(r->src = p_filter(l, v))) return NULL;
  }
  if ((v = ymap_get(n, "to"))) {
    if (r->ev == RE_DAMAGE) {
      const char *s = scalar(v);
      if (s && !strcmp(s, "player")) r->to_kind = 1;
      else if (s && !strcmp(s, "permanent")) r->to_kind = 2;
      else if (s && !strcmp(s, "any")) r->to_kind = 0;
      else return BAD(l, v, "damage replacement 'to': player, permanent or any (use player:/object: to narrow)");
    } else {
      int z = p_zone(l, v, 0);
      if (z < 0) return NULL;
      r->to = (int8_t)z;
    }
  }
  if ((v = ymap_get(n, "from"))) {
    int z = p_zone(l, v, 1);
    if (z < -1) return NULL;
    r->from = (int8_t)z;
  }
  if ((v = ymap_get(n, "cause"))) {
    const char *cv = scalar(v);
    /* tokens are always made by effects: cause: effect says so, and checks nothing */
    int counters = r->ev == RE_COUNTERS || r->ev == RE_POISON, token = r->ev == RE_TOKEN;
    if (cv && !strcmp(cv, "opponent") && !counters && !token) r->cause_opp = 1;
    else if (cv && !strcmp(cv, "effect") && (counters || token)) r->cause_effect = (uint8_t)counters;
    else return BAD(l, v, "cause: 'opponent' (a spell or ability an opponent controls: discard, sacrifice, destroy) or 'effect' "
                          "(an effect, not a cost: counters, tokens)");
  }
  if ((v = ymap_get(n, "counter")) && scalar(v)) r->counter = dup(l, scalar(v));
  if ((v = ymap_get(n, "combat"))) {
    if (ynode_bool(l->d, v, &b, l->err)) return NULL;
    r->combat = (int8_t)b;
  }
  if ((v = ymap_get(n, "if")) && !(r->cond = p_cond(l, v))) return NULL;
  if ((v = ymap_get(n, "optional"))) {
    if (ynode_bool(l->d, v, &b, l->err)) return NULL;
    r->optional = (uint8_t)b;
  }
  if ((v = ymap_get(n, "self_replacement"))) {
    if (ynode_bool(l->d, v, &b, l->err)) return NULL;
    r->self_repl = (uint8_t)b;
  }
  if ((v = ymap_get(n, "link")) || (v = ymap_get(n, "label"))) {
    if (!scalar(v)) return BAD(l, v, "expected a label");
    r->label = dup(l, scalar(v));
  }
  int acts = 0;
  if ((v = ymap_get(n, "modify"))) {
    acts++;
    r->act = RA_MODIFY;
    static const char *const mk_[] = {"times", "plus", "minus", "floor", NULL};
    if (ymap_check_keys(l->d, v, mk_, "modify", l->err)) return NULL;
    if (v->kind != YN_MAP || !v->n) return BAD(l, v, "modify: give times, plus, minus or floor");
    long x;
    const ynode *w;
    if ((w = ymap_get(v, "times"))) {
      if (ynode_int(l->d, w, &x, l->err)) return NULL;
      if (x < 0 || x > 100) return BAD(l, w, "times: a multiplier from 0 to 100");
      r->mul = (int8_t)x;
    }
    if ((w = ymap_get(v, "plus"))) {
      if (ynode_int(l->d, w, &x, l->err)) return NULL;
      if (x < 0 || x > 10000) return BAD(l, w, "plus: a number from 0 to 10000");
      r->add = (int16_t)x;
    }
    if ((w = ymap_get(v, "minus"))) {
      if (ynode_int(l->d, w, &x, l->err)) return NULL;
      if (x < 0 || x > 10000) return BAD(l, w, "minus: a number from 0 to 10000");
      r->add = (int16_t)-x;
    }
    if ((w = ymap_get(v, "floor"))) {
      if (ynode_int(l->d, w, &x, l->err)) return NULL;
      if (x < 0 || x > 100) return BAD(l, w, "floor: a life total from 0 to 100");
      r->floor_one = (int8_t)x;
    }
  }
  if ((v = ymap_get(n, "instead"))) {
    acts++;
    r->act = RA_INSTEAD;
    if (!(r->steps = p_steps(l, v))) return NULL;
  }
  if ((v = ymap_get(n, "prevent"))) {
    acts++;
    r->act = RA_PREVENT;
    const ynode *ab = v->kind == YN_MAP && v->n == 1 ? ymap_get(v, "all_but") : NULL;
    long x;
    if (ab) {
      /* "prevent all but N of that damage" */
      if (ynode_int(l->d, ab, &x, l->err)) return NULL;
      if (x < 0 || x > 10000) return BAD(l, ab, "all_but: a number from 0 to 10000");
      r->all_but = (int16_t)x;
      r->has_all_but = 1;
    } else if (!(scalar(v) && !strcmp(scalar(v), "all")) && !(r->amount = p_expr(l, v))) {
      return NULL;
    }
    const ynode *t = ymap_get(n, "then");
    if (t && !(r->steps = p_steps(l, t))) return NULL;
  }
  if ((v = ymap_get(n, "redirect"))) {
    acts++;
    r->act = RA_REDIRECT;
    if (!(r->redirect = p_sel(l, v))) return NULL;
  }
  if ((v = ymap_get(n, "to_zone"))) {
    acts++;
    r->act = RA_TO_ZONE;
    int z = p_dest_zone(l, v);
    if (z < 0) return NULL;
    r->dest = (int8_t)z;
    const ynode *w;
    if ((w = ymap_get(n, "shuffle"))) {
      if (ynode_bool(l->d, w, &b, l->err)) return NULL;
      r->dest_shuffle = (int8_t)b;
    }
    if ((w = ymap_get(n, "bottom"))) {
      if (ynode_bool(l->d, w, &b, l->err)) return NULL;
      r->dest_bottom = (int8_t)b;
    }
    if ((w = ymap_get(n, "with_counter")) && scalar(w)) r->dest_counter = dup(l, scalar(w));
  }
  if ((v = ymap_get(n, "enters_tapped"))) {
    acts++;
    r->act = RA_ETB_TAPPED;
    if (v->kind == YN_MAP) {
      /* "As this enters, you may reveal a [quality] card from your hand. If you don't, it enters tapped" */
      static const char *const tk[] = {"unless_reveal", NULL};
      if (ymap_check_keys(l->d, v, tk, "enters_tapped", l->err)) return NULL;
      const ynode *rv = ymap_get(v, "unless_reveal");
      if (!rv) return BAD(l, v, "enters_tapped: true, or {unless_reveal: filter}");
      Filter *f = al(l, sizeof *f);
      const Filter *pf = p_filter(l, rv);
      if (!f || !pf) return NULL;
      *f = *pf;
      f->zone = MTG_Z_HAND;
      r->unless_reveal = f;
    }
  }
  if ((v = ymap_get(n, "enters_with"))) {
    acts++;
    r->act = RA_ETB_COUNTERS;
    if (v->kind != YN_MAP || !ymap_get(v, "counters")) return BAD(l, v, "enters_with: {counters: kind, n: N}");
    const ynode *k = ymap_get(v, "counters"), *nn = ymap_get(v, "n");
    if (!scalar(k)) return BAD(l, k, "expected a counter kind");
    r->counter = dup(l, scalar(k));
    if (!nn) return BAD(l, v, "enters_with needs n");
    if (!(r->steps = p_expr(l, nn))) return NULL;
  }
  if ((v = ymap_get(n, "as_enters"))) {
    acts++;
    r->act = RA_ETB_CHOOSE;
    static const char *const kinds[] = {"color", "player", "opponent", "name", "word", "number", "pay_life",
                                        "exile", "sacrifice", NULL};
    static const char *const ak[] = {"choose", "label", "words", "n", "objects", "counters", NULL};
    if (ymap_check_keys(l->d, v, ak, "as_enters", l->err)) return NULL;
    const ynode *c = ymap_get(v, "choose");
    int k = c && scalar(c) ? name_index(scalar(c), kinds, 9) : -1;
    /* words: a word choice's; n: pay_life's, or exile/sacrifice's counters per object; objects, counters: exile/sacrifice's */
    if (ymap_get(v, "words") && k != 4) return BAD(l, ymap_get(v, "words"), "'words' goes with choose: word");
    if (ymap_get(v, "objects") && k != 7 && k != 8) return BAD(l, ymap_get(v, "objects"), "'objects' goes with choose: exile or sacrifice");
    if (ymap_get(v, "counters") && k != 7 && k != 8) return BAD(l, ymap_get(v, "counters"), "'counters' goes with choose: exile or sacrifice");
    if (ymap_get(v, "n") && k != 6 && !((k == 7 || k == 8) && ymap_get(v, "counters")))
      return BAD(l, ymap_get(v, "n"), "'n' goes with choose: pay_life, or with counters (exile, sacrifice)");
    if (k == 7 || k == 8) {
      /* "exile / sacrifice any number of [objects]" (614.13); devour N is
       * {choose: sacrifice, objects: creatures you control, counters: "+1/+1", n: N} */
      const ynode *o = ymap_get(v, "objects");
      if (!o) return BAD(l, v, "as_enters %s needs objects: a filter", scalar(c));
      if (!(r->take = p_filter(l, o))) return NULL;
      const ynode *ck = ymap_get(v, "counters"), *nn = ymap_get(v, "n");
      if (ck) {
        long x = 1;
        if (!scalar(ck)) return BAD(l, ck, "counters: expected a counter kind like \"+1/+1\"");
        r->counter = dup(l, scalar(ck));
        if (nn && ynode_int(l->d, nn, &x, l->err)) return NULL;
        if (x < 1 || x > 100) return BAD(l, nn, "n: counters for each object, 1 to 100");
        r->add = (int16_t)x;
      }
    }
    if (k == 6) {
      /* 607.2g: "As this enters, you may pay N life", or "pay any amount of life" (n: any) */
      const ynode *nn = ymap_get(v, "n");
      long x = 0;
      if (nn && scalar(nn) && !strcmp(scalar(nn), "any")) x = -1;
      else if (!nn) return BAD(l, v, "as_enters pay_life needs n: a number, or any");
      /* paying 0 life is no choice at all (119.4b): a number is at least 1, so
       * that a negative add means "any amount" and a positive one that number */
      else if (ynode_int_range(l->d, nn, 1, INT16_MAX, &x, l->err)) return NULL;
      r->add = (int16_t)x;
    }
    if (k < 0) return (void *)(intptr_t)(bad_name(l, c ? c : v, "choice", kinds, 9) * 0);
    r->choose_kind = (int8_t)k;
    const ynode *lb = ymap_get(v, "label");
    r->label = dup(l, lb && scalar(lb) ? scalar(lb) : scalar(c));
    const ynode *ws = ymap_get(v, "words");
    if (k == 4) {
      if (!ws || ws->kind != YN_SEQ || ws->n < 2) return BAD(l, v, "as_enters word choice needs words: [a, b]");
      const char **w = al(l, (size_t)ws->n * sizeof *w);
      if (!w) return NULL;
      for (int i = 0; i < ws->n; i++) {
        if (!scalar(ws->items[i])) return BAD(l, ws->items[i], "expected a word");
        w[i] = dup(l, scalar(ws->items[i]));
      }
      r->words = w;
      r->nwords = (uint8_t)ws->n;
    }
  }
  if ((v = ymap_get(n, "enters_as_copy"))) {
    /* "you may have this enter as a copy of [filter]" (optional unless
     * optional: false), or "enter as a copy of [this]" with `self` */
    acts++;
    r->act = RA_ETB_COPY;
    if (scalar(v) && !strcmp(scalar(v), "self")) r->copy_self = 1;
    else if (!(r->take = p_filter(l, v))) return NULL;
    if (!ymap_get(n, "optional")) r->optional = !r->copy_self;
    const ynode *cs = ymap_get(n, "copy_adds_subtype");
    if (cs) {
      if (!scalar(cs)) return BAD(l, cs, "copy_adds_subtype: a subtype, such as Ninja");
      r->copy_sub = dup(l, scalar(cs));
    }
  }
  if ((v = ymap_get(n, "skip"))) {
    acts++;
    r->act = RA_SKIP;
    const ynode *t = ymap_get(n, "then");
    /* 614.10b: the action comes first in the next step that occurs; a skipped
     * event of another kind has no such moment */
    if (t && r->ev != RE_SKIP_STEP) return BAD(l, t, "then: with skip only for event: skip_step (614.10b)");
    if (t && !(r->steps = p_steps(l, t))) return NULL;
    if (r->ev == RE_SKIP_STEP) {
      const char *s = scalar(v);
      int st = s ? name_index(s, step_keys, NELEM(step_keys)) : -1;
      if (st < 0) return (void *)(intptr_t)(bad_name(l, v, "step", step_keys, NELEM(step_keys)) * 0);
      r->step = (int8_t)st;
    }
  }
  if ((v = ymap_get(n, "enters_under"))) {
    acts++;
    r->act = RA_ETB_CONTROLLER;
    int rel = p_rel(l, v);
    if (rel < 0) return NULL;
    r->mul = (int8_t)rel; /* the new controller, relative to the effect's controller */
  }
  if ((v = ymap_get(n, "enters_transformed"))) {
    acts++;
    r->act = RA_ETB_TRANSFORMED;
  }
  if ((v = ymap_get(n, "as_infect"))) {
    acts++;
    r->act = RA_AS_INFECT;
  }
  if ((v = ymap_get(n, "enters_as_type"))) {
    /* "enters ... as a Mutant in addition to its other types" (614.1c, 205.1b): a
     * type-changing effect on the permanent from the moment it enters */
    if (r->ev != RE_ENTERS) return BAD(l, v, "enters_as_type: for event: enters");
    if (acts && r->act != RA_ETB_COUNTERS && r->act != RA_ETB_TAPPED)
      return BAD(l, v, "enters_as_type goes alone or with enters_with or enters_tapped");
    static const char *const tk[] = {"add_types", "add_subtypes", NULL};
    if (v->kind != YN_MAP || !v->n) return BAD(l, v, "enters_as_type: {add_subtypes: [Mutant]} (and/or add_types)");
    if (ymap_check_keys(l->d, v, tk, "enters_as_type", l->err)) return NULL;
    StaticSpec *st = al(l, sizeof *st);
    if (!st) return NULL;
    st->kind = SE_ADD_TYPES;
    const ynode *w;
    if ((w = ymap_get(v, "add_types")) && each_scalar(l, w, add_type, &st->types)) return NULL;
    if ((w = ymap_get(v, "add_subtypes"))) {
      int cnt = w->kind == YN_SEQ ? w->n : 1;
      if (cnt > 4) return BAD(l, w, "add_subtypes: at most 4");
      for (int i = 0; i < cnt; i++) {
        const char *sw = scalar(w->kind == YN_SEQ ? w->items[i] : w);
        if (!sw) return BAD(l, w, "add_subtypes: a list of subtypes like [Mutant]");
        st->subtypes[st->nsub++] = dup(l, sw);
      }
    }
    r->etb_types = st;
    if (!acts) {
      acts++;
      r->act = RA_ETB_TYPES;
    }
  }
  if (acts != 1)
    return BAD(l, n, "a replacement needs exactly one action (modify, instead, prevent, redirect, to_zone, enters_tapped, enters_with, as_enters, enters_as_copy, skip); found %d", acts);
  return r;
}

/* ---- static abilities ---- */

/* A list of abilities an effect gives (a static `grant`, a `becomes` step's
 * `abilities`): a definition of their own, so they are linked only among
 * themselves (607.5). */
static const CardDef *p_ability_list(L *l, const ynode *v, const char *what) {
  if (v->kind != YN_SEQ) return BAD(l, v, "%s: expected a list of abilities", what);
  if (v->n > MAX_ABS) return BAD(l, v, "%s: %d abilities; an object holds at most %d", what, v->n, MAX_ABS);
  CardDef *d = al(l, sizeof *d);
  Ability *ab = al(l, (size_t)(v->n ? v->n : 1) * sizeof *ab);
  if (!d || !ab) return NULL;
  for (int i = 0; i < v->n; i++)
    if (p_ability(l, v->items[i], &ab[i], i)) return NULL;
  d->name = l->card;
  def_abilities(d, ab, v->n);
  return d;
}


static int p_static(L *l, const ynode *n, StaticSpec *s) {
  static const char *const keys[] = {"affects", "pt", "set_pt", "cda", "add_types", "remove_types",
                                     "add_subtypes", "add_keywords", "remove_keywords", "lose_all_abilities",
                                     "add_colors", "set_colors", "rule", "n", "counter", "spells", "if",
                                     "label", "text", "trigger", "grant", "when_used", "by", "except_by",
                                     "attackers", "unless", "control", "any_turn", "event", NULL};
  if (ymap_check_keys(l->d, n, keys, "static ability", l->err)) return -1;
  const ynode *v;
  int kinds = 0;
  /* the keys of some rule effects: refused elsewhere, where nothing reads them */
  static const struct { const char *key; int rules[9]; } rule_keys[] = {
      {"n", {SE_DRAW_LIMIT, SE_HAND_SIZE, SE_COST_MORE, SE_MAX_COUNTERS, SE_MIN_BLOCKERS, SE_MAX_BLOCKERS, SE_VENTURE_LIMIT,
             SE_FORETELL_COST, SE_BLOCK_ADDITIONAL}},
      {"counter", {SE_MAX_COUNTERS, SE_CANT_HAVE_COUNTERS, -1, -1, -1, -1, -1, -1, -1}},
      {"spells", {SE_COST_MORE, SE_CAST_AS_FLASH, SE_CANT_CAST, -1, -1, -1, -1, -1, -1}},
      {"trigger", {SE_NO_ETB_TRIGGERS, SE_NO_DIES_TRIGGERS, SE_EXTRA_TRIGGER, -1, -1, -1, -1, -1, -1}},
      {"event", {SE_EXTRA_TRIGGER, -1, -1, -1, -1, -1, -1, -1, -1}},
      {"when_used", {SE_CAST_AS_FLASH, -1, -1, -1, -1, -1, -1, -1, -1}},
      {"any_turn", {SE_FORETELL_COST, -1, -1, -1, -1, -1, -1, -1, -1}}};
  const ynode *rv = ymap_get(n, "rule");
  int rule = rv && scalar(rv) ? name_index(scalar(rv), rule_names, NELEM(rule_names) - 1) : -1;
  for (int i = 0; i < NELEM(rule_keys); i++) {
    const ynode *k = ymap_get(n, rule_keys[i].key);
    if (!k || rule < 0) {
      if (k && !rv) return BADI(l, k, "'%s' is for rule effects (rule: ...), not for this static ability", rule_keys[i].key);
      continue;
    }
    int ok = 0;
    for (int j = 0; j < NELEM(rule_keys[i].rules); j++) ok |= rule_keys[i].rules[j] == SE_CANT_LOSE + rule;
    if (!ok) return BADI(l, k, "'%s' does nothing for rule %s", rule_keys[i].key, rule_names[rule]);
  }
  s->player = R_YOU;
  if ((v = ymap_get(n, "affects"))) {
    const char *a = scalar(v);
    if (a && !strcmp(a, "self")) s->self = 1;
    else if (a && (!strcmp(a, "enchanted") || !strcmp(a, "equipped") || !strcmp(a, "attached"))) s->attached = 1;
    else if (a && (!strcmp(a, "you") || !strcmp(a, "opponents") || !strcmp(a, "each_player"))) {
      s->player = !strcmp(a, "you") ? R_YOU : !strcmp(a, "opponents") ? R_OPP : R_ANY;
    } else if (!(s->affected = p_filter(l, v))) {
      return -1;
    } else if (s->affected->player_target) {
      /* players chosen by a filter ("each player who has cast a nonartifact spell this
       * turn": {player: any, if: ...}, `it` the player): only for rule effects about players */
      if (!ymap_get(n, "rule")) return BADI(l, v, "affects: a filter on players is for rule effects (rule: ...)");
      s->player = R_ANY;
    }
  } else {
    s->self = 1;
  }
  char why[120];
  if ((v = ymap_get(n, "pt")) || (v = ymap_get(n, "set_pt"))) {
    kinds++;
    s->kind = ymap_get(n, "pt") ? SE_PT_MOD : SE_PT_SET;
    int a = 0, b = 0;
    if (s->kind == SE_PT_MOD && v->kind == YN_MAP) {
      /* "gets +1/+0 for each other Illusion you control": values, computed as layer 7c applies */
      static const char *const pk[] = {"power", "toughness", NULL};
      if (ymap_check_keys(l->d, v, pk, "pt", l->err)) return -1;
      const ynode *pw = ymap_get(v, "power"), *tg = ymap_get(v, "toughness");
      if (!pw && !tg) return BADI(l, v, "pt: {power: value, toughness: value} (one or both)");
      if ((pw && !(s->ea = p_expr(l, pw))) || (tg && !(s->eb = p_expr(l, tg)))) return -1;
    } else if (!pt_pair(scalar(v), s->kind == SE_PT_MOD, &a, &b))
      return BADI(l, v, "%s: expected %s (numbers from -1000 to 1000)", s->kind == SE_PT_MOD ? "pt" : "set_pt",
                  s->kind == SE_PT_MOD ? "\"+1/+1\" or \"-1/-0\"" : "\"0/1\"");
    s->a = (int16_t)a;
    s->b = (int16_t)b;
  }
  if ((v = ymap_get(n, "cda"))) {
    kinds++;
    s->kind = SE_PT_CDA;
    if (v->kind != YN_MAP) return BADI(l, v, "cda: {power: value, toughness: value}");
    /* 604.3a(e): an ability that sets power and toughness only under a condition is
     * not characteristic-defining, and works only on the battlefield */
    if (ymap_get(n, "if"))
      return BADI(l, ymap_get(n, "if"), "cda with if: a characteristic-defining ability sets its values unconditionally "
                  "(604.3a); a conditional one is set_pt with if (layer 7b)");
    const ynode *pw = ymap_get(v, "power"), *tg = ymap_get(v, "toughness");
    if ((pw && !(s->ea = p_expr(l, pw))) || (tg && !(s->eb = p_expr(l, tg)))) return -1;
  }
  if ((v = ymap_get(n, "add_types")) || (v = ymap_get(n, "remove_types")) || (v = ymap_get(n, "add_subtypes"))) {
    /* "is an Angel in addition to its other types": subtypes alone, or with card types (layer 4) */
    kinds++;
    s->kind = ymap_get(n, "remove_types") ? SE_REMOVE_TYPES : SE_ADD_TYPES;
    if (v != ymap_get(n, "add_subtypes") && each_scalar(l, v, add_type, &s->types)) return -1;
    const ynode *st = ymap_get(n, "add_subtypes");
    if (st) {
      if (ymap_get(n, "remove_types")) return BADI(l, st, "add_subtypes goes with add_types or alone, not with remove_types");
      if (st->kind != YN_SEQ || st->n < 1 || st->n > 4) return BADI(l, st, "add_subtypes: a list of 1 to 4 subtypes");
      for (int i = 0; i < st->n; i++) {
        if (!scalar(st->items[i])) return BADI(l, st->items[i], "add_subtypes: expected a subtype");
        s->subtypes[s->nsub++] = dup(l, scalar(st->items[i]));
      }
    }
  }
  if ((v = ymap_get(n, "add_keywords")) || (v = ymap_get(n, "remove_keywords"))) {
    kinds++;
    s->kind = ymap_get(n, "add_keywords") ? SE_ADD_KEYWORDS : SE_REMOVE_KEYWORDS;
    if (s->kind == SE_REMOVE_KEYWORDS) {
      if (each_scalar(l, v, add_kw, &s->keywords)) return -1;
    } else if (p_granted_keywords(l, v, &s->keywords, &s->kw_abs, &s->prot_chosen)) {
      return -1;
    }
  }
  if ((v = ymap_get(n, "lose_all_abilities"))) {
    kinds++;
    s->kind = SE_LOSE_ALL_ABILITIES;
  }
  if ((v = ymap_get(n, "control"))) {
    /* "You control enchanted permanent": layer 2 (613.1b), for as long as the ability applies */
    kinds++;
    s->kind = SE_CONTROL;
    if (!scalar(v) || strcmp(scalar(v), "you")) return BADI(l, v, "control: you (the controller of this ability's source)");
    if (s->self) return BADI(l, n, "control: needs affects (enchanted, or a filter); a permanent's control of itself is no effect");
  }
  if ((v = ymap_get(n, "add_colors")) || (v = ymap_get(n, "set_colors"))) {
    kinds++;
    s->kind = ymap_get(n, "add_colors") ? SE_ADD_COLORS : SE_SET_COLORS;
    if (each_scalar(l, v, add_color, &s->colors)) return -1;
  }
  if ((v = ymap_get(n, "grant"))) {
    /* 607.1a: abilities granted by this ability count as printed on the object */
    kinds++;
    s->kind = SE_GAIN_ABILITIES;
    if (!(s->grant_from = p_ability_list(l, v, "grant"))) return -1;
  }
  if ((v = ymap_get(n, "rule"))) {
    kinds++;
    int r = scalar(v) ? name_index(scalar(v), rule_names, NELEM(rule_names) - 1) : -1;
    if (r < 0) return bad_name(l, v, "rule effect", rule_names, NELEM(rule_names) - 1);
    s->kind = (uint8_t)(SE_CANT_LOSE + r);
    long x;
    const ynode *w;
    if ((w = ymap_get(n, "n"))) {
      if (ynode_int_range(l->d, w, -INT16_MAX, INT16_MAX, &x, l->err)) return -1;
      s->a = (int16_t)x;
    } else if (s->kind == SE_COST_MORE) {
      s->a = 1; /* "cost {1} more" */
    }
    if ((w = ymap_get(n, "counter")) && scalar(w)) s->counter = dup(l, scalar(w));
    if ((w = ymap_get(n, "spells"))) {
      /* only card types are read: "noncreature spells", "creature spells" */
      static const char *const sk[] = {"type", "not_type", "is", NULL};
      if (w->kind == YN_MAP && ymap_check_keys(l->d, w, sk, "spells (card types only)", l->err)) return -1;
      const Filter *f = p_filter(l, w);
      if (!f) return -1;
      s->spell_types = f->types_any;
      s->spell_types_none = f->types_none;
    }
    if ((w = ymap_get(n, "trigger"))) {
      const char *t = scalar(w);
      static const char *const tk[] = {"creature", "artifact_or_creature", "permanent", NULL};
      int k = t ? name_index(t, tk, NELEM(tk) - 1) : -1;
      if (k < 0) return BADI(l, w, "trigger: creature, artifact_or_creature or permanent");
      s->trig_kind = (uint8_t)(TK_CREATURE + k);
    } else if (s->kind == SE_NO_ETB_TRIGGERS || s->kind == SE_NO_DIES_TRIGGERS || s->kind == SE_EXTRA_TRIGGER) {
      s->trig_kind = s->kind == SE_EXTRA_TRIGGER && !ymap_get(n, "event") ? TK_ARTIFACT_OR_CREATURE : TK_CREATURE;
    }
    if ((w = ymap_get(n, "event"))) {
      const char *t = scalar(w);
      if (!t || (strcmp(t, "enters") && strcmp(t, "dies"))) return BADI(l, w, "event: enters or dies");
      s->trig_dies = !strcmp(t, "dies");
    }
    if ((w = ymap_get(n, "label")) && scalar(w)) s->label = dup(l, scalar(w));
    if ((w = ymap_get(n, "any_turn"))) {
      int b;
      if (s->kind != SE_FORETELL_COST) return BADI(l, w, "any_turn: only for rule foretell_cost");
      if (ynode_bool(l->d, w, &b, l->err)) return -1;
      s->b = (int16_t)b;
    }
    if ((w = ymap_get(n, "when_used"))) {
      if (s->kind != SE_CAST_AS_FLASH) return BADI(l, w, "when_used: only for rule cast_as_flash");
      if (!(s->when_used = p_steps(l, w))) return -1;
    }
    if (p_rule_params(l, n, s)) return -1;
    if (!ymap_get(n, "affects") && !rule_on_object(s->kind)) s->self = 0; /* rule effects default to "you" */
  } else {
    static const char *const rk[] = {"by", "except_by", "attackers", "unless", NULL};
    for (int i = 0; rk[i]; i++)
      if ((v = ymap_get(n, rk[i]))) return BADI(l, v, "%s: a parameter of a combat rule (rule: ...)", rk[i]);
  }
  (void)why;
  if ((v = ymap_get(n, "if")) && !(s->cond = p_cond(l, v))) return -1;
  if (kinds == 1 && s->kind < SE_CANT_LOSE && !s->self && !s->attached && !s->affected)
    return BADI(l, ymap_get(n, "affects"), "this effect changes objects: 'affects' is self, enchanted, equipped or a filter (you, opponents and each_player are for rule effects)");
  if (kinds > 1) {
    /* one effect with parts in several layers (613.6): "all noncreature
     * artifacts are 2/2 artifact creatures", "lose all abilities and have base
     * power and toughness 1/1" */
    static const struct { const char *key; uint8_t kind; } pk[] = {
        {"add_types", SE_ADD_TYPES}, {"add_subtypes", SE_ADD_TYPES}, {"remove_types", SE_REMOVE_TYPES},
        {"add_colors", SE_ADD_COLORS}, {"set_colors", SE_SET_COLORS},
        {"add_keywords", SE_ADD_KEYWORDS}, {"remove_keywords", SE_REMOVE_KEYWORDS}, {"lose_all_abilities", SE_LOSE_ALL_ABILITIES},
        {"set_pt", SE_PT_SET}, {"pt", SE_PT_MOD}};
    static const uint8_t layer_of[] = {[SE_ADD_TYPES] = 4, [SE_REMOVE_TYPES] = 4, [SE_ADD_COLORS] = 5, [SE_SET_COLORS] = 5,
                                       [SE_ADD_KEYWORDS] = 6, [SE_REMOVE_KEYWORDS] = 6, [SE_LOSE_ALL_ABILITIES] = 6,
                                       [SE_PT_SET] = 8, [SE_PT_MOD] = 9};
    uint8_t by_layer[10] = {0};
    int nparts = 0;
    for (int i = 0; i < NELEM(pk); i++) {
      const ynode *k = ymap_get(n, pk[i].key);
      if (!k || (!strcmp(pk[i].key, "add_subtypes") && ymap_get(n, "add_types"))) continue;
      int ly = layer_of[pk[i].kind];
      if (by_layer[ly]) return BADI(l, k, "%s: one part per layer in a static ability with parts in several layers (613.6)", pk[i].key);
      by_layer[ly] = pk[i].kind;
      nparts++;
    }
    if (ymap_get(n, "pt") && ymap_get(n, "set_pt")) return BADI(l, ymap_get(n, "pt"), "pt and set_pt: write them as two static abilities");
    if (nparts != kinds || s->ea || s->eb)
      return BADI(l, n, "a static ability has one effect, or parts in several layers of types, colors, keywords and P/T "
                        "(add_types, add_colors/set_colors, add_keywords/remove_keywords/lose_all_abilities, set_pt/pt; 613.6); found %d effects", kinds);
    StaticSpec whole = *s;
    StaticSpec *prev = NULL;
    for (int ly = 0; ly < 10; ly++) {
      if (!by_layer[ly]) continue;
      StaticSpec *p = prev ? al(l, sizeof *p) : s;
      if (!p) return -1;
      *p = whole;
      p->kind = by_layer[ly];
      p->part = NULL;
      if (prev) prev->part = p;
      prev = p;
    }
    kinds = 1;
  }
  if (kinds != 1) return BADI(l, n, "a static ability needs exactly one effect (pt, set_pt, cda, add_types, remove_types, add_keywords, remove_keywords, lose_all_abilities, add_colors, set_colors, control, grant, rule); found %d", kinds);
  return 0;
}

/* ---- abilities ---- */

/* Does the effect add mana as it resolves (not later, in a delayed or
 * reflexive trigger or a replacement it creates)? */
static int adds_mana(const Node *n) {
  if (!n || n->op == S_DELAYED || n->op == S_REFLEXIVE || n->op == S_REPLACE_NEXT) return 0;
  if (n->op == S_ADD_MANA) return 1;
  for (int i = 0; i < n->n; i++)
    if (adds_mana(n->k[i])) return 1;
  return 0;
}

static int p_ability(L *l, const ynode *n, Ability *a, int index) {
  a->index = (uint8_t)index;
  a->zone = -1;
  if (scalar(n)) return BADI(l, n, "an ability is a mapping (triggered:, activated:, static:, replacement:); keywords go in 'keywords:'");
  if (want_map(l, n, "ability")) return -1;
  static const char *const kinds[] = {"triggered", "activated", "static", "replacement", "prevention", NULL};
  static const char *const keys[] = {"triggered", "activated", "static", "replacement", "prevention", "label", "text", NULL};
  if (ymap_check_keys(l->d, n, keys, "ability", l->err)) return -1;
  const ynode *body = NULL;
  int kind = -1;
  for (int i = 0; kinds[i]; i++) {
    const ynode *v = ymap_get(n, kinds[i]);
    if (v) {
      if (body) return BADI(l, v, "one kind per ability (found more than one of triggered, activated, static, replacement)");
      body = v;
      kind = i;
    }
  }
  if (!body) return BADI(l, n, "ability needs one of: triggered, activated, static, replacement, prevention");
  const ynode *lb = ymap_get(n, "label"), *tx = ymap_get(n, "text");
  if (kind == 0) {
    const Ability *t = p_trigger_ability(l, body, 0);
    if (!t) return -1;
    *a = *t;
    a->index = (uint8_t)index;
  } else if (kind == 1) {
    static const char *const ak[] = {"cost", "costs", "loyalty", "sorcery", "once_per_turn", "zone", "targets",
                                     "modes", "choose", "effect", "label", "text", "if", "any_player", NULL};
    if (ymap_check_keys(l->d, body, ak, "activated ability", l->err)) return -1;
    a->kind = AB_ACTIVATED;
    if (p_cost(l, ymap_get(body, "cost"), ymap_get(body, "costs"), &a->cost)) return -1;
    const ynode *v;
    if ((v = ymap_get(body, "loyalty"))) {
      long x;
      if (ynode_int_range(l->d, v, -INT16_MAX, INT16_MAX, &x, l->err)) return -1;
      a->loyalty = 1;
      if (a->cost.nparts >= MAX_COST_PARTS) return BADI(l, v, "too many costs");
      CostPart *cp = &a->cost.part[a->cost.nparts++];
      cp->kind = CK_LOYALTY;
      cp->n = (int16_t)x;
    }
    int b;
    if ((v = ymap_get(body, "sorcery"))) {
      if (ynode_bool(l->d, v, &b, l->err)) return -1;
      a->sorcery = (uint8_t)b;
    }
    if ((v = ymap_get(body, "once_per_turn"))) {
      if (ynode_bool(l->d, v, &b, l->err)) return -1;
      a->once_per_turn = (uint8_t)b;
    }
    if ((v = ymap_get(body, "if")) && !(a->cond = p_cond(l, v))) return -1; /* "activate only if" (602.5b) */
    if ((v = ymap_get(body, "any_player"))) {
      /* "Any player may activate this ability" (602.2: the activating player controls it) */
      if (ynode_bool(l->d, v, &b, l->err)) return -1;
      a->any_player = (uint8_t)b;
    }
    if ((v = ymap_get(body, "zone"))) {
      int z = p_zone(l, v, 0);
      if (z < 0) return -1;
      /* no player is offered an ability of a card in a library or of a spell */
      if (z == MTG_Z_LIBRARY || z == MTG_Z_STACK)
        return BADI(l, v, "an activated ability is activated from the battlefield, a hand, a graveyard, exile or the command zone");
      a->zone = (int8_t)z;
    }
    for (int i = 0; i < a->cost.nparts; i++)
      if (a->cost.part[i].kind == CK_DISCARD_SELF) {
        /* "Discard this card" is a cost only a card in a hand can pay (channel, 702.29a) */
        if (v && a->zone != MTG_Z_HAND) return BADI(l, v, "an ability whose cost discards this card functions in a hand: zone: hand");
        a->zone = MTG_Z_HAND;
      }
    if (p_modes(l, body, a)) return -1;
    /* 605.1a: no target, could add mana as it resolves (wherever the step
     * is: "if ..., add {G}" too), not a loyalty ability */
    int adds = 0;
    for (int m = 0; m < a->nmodes; m++) {
      adds |= adds_mana(a->modes[m].effect);
      if (a->modes[m].nt) adds = -100;
    }
    a->mana = adds > 0 && !a->loyalty;
    if ((v = ymap_get(body, "label")) && scalar(v)) a->label = dup(l, scalar(v));
  } else if (kind == 2) {
    a->kind = AB_STATIC;
    if (p_static(l, body, &a->st)) return -1;
    const ynode *v;
    if ((v = ymap_get(body, "label")) && scalar(v)) a->label = dup(l, scalar(v));
  } else {
    a->kind = AB_REPLACEMENT;
    if (kind == 4 && body->kind == YN_MAP && !ymap_get(body, "prevent"))
      return BADI(l, body, "a prevention ability needs 'prevent'");
    const ReplSpec *r = p_repl(l, body, 0);
    if (!r) return -1;
    a->rp = *r;
    a->label = r->label;
  }
  if (lb && scalar(lb)) a->label = dup(l, scalar(lb));
  if (tx && scalar(tx)) a->text = dup(l, scalar(tx));
  return 0;
}

/* Keywords that stand for a triggered ability are written out here in the
 * card format itself (their rule's meaning) and compiled once per pool by
 * pool_kw_init; a card printed with one gets a copy of that ability, and an
 * effect granting one adds the same ability in layer 6 (613.1f). Each
 * instance triggers separately (113.2c, 702.40b, 702.83a, 702.108b). */
static const struct {
  int kw;
  const char *yaml;
} kw_abilities[] = {
    {KW_UNDYING, "triggered: {when: {dies: self}, if: {had_counters: '+1/+1', at_most: 0}, "
                 "effect: [{return: it, to: battlefield, under: its_owner, counters: {'+1/+1': 1}}]}\n"
                 "text: Undying (702.93)"},
    {KW_PERSIST, "triggered: {when: {dies: self}, if: {had_counters: '-1/-1', at_most: 0}, "
                 "effect: [{return: it, to: battlefield, under: its_owner, counters: {'-1/-1': 1}}]}\n"
                 "text: Persist (702.79)"},
    {KW_STORM, "triggered: {when: {cast: self}, zone: stack, effect: [{copy_spell: self, n: storm, new_targets: true}]}\n"
               "text: Storm (702.40)"},
    {KW_EXALTED, "triggered: {when: {attacks: {type: creature, controller: you}, alone: true}, "
                 "effect: [{pump: it, power: 1, toughness: 1}]}\n"
                 "text: Exalted (702.83)"},
    {KW_PROWESS, "triggered: {when: {cast: noncreature_spell, player: you}, "
                 "effect: [{pump: self, power: 1, toughness: 1}]}\n"
                 "text: Prowess (702.108)"},
    {KW_EXTORT, "triggered: {when: {cast: spell, player: you}, effect: [{pay: '{W/B}'}, "
                "{if: did, then: [{lose_life: 1, who: each_opponent}, {gain_life: life_lost}]}]}\n"
                "text: Extort (702.101)"},
    /* 702.95a's two triggered abilities, written as one with both events: when this
     * enters, it may pair with another unpaired creature its controller controls;
     * when another creature they control enters, that one may pair with it */
    {KW_SOULBOND, "triggered: {when: [{enters: self}, {enters: {type: creature, controller: you, other: true}}], "
                  "if: {all: [{is: self, filter: {type: creature, controller: you, paired: false}}, "
                  "{any: [{all: [{is: it, filter: self}, {exists: {type: creature, controller: you, other: true, paired: false}}]}, "
                  "{is: it, filter: {type: creature, controller: you, other: true, paired: false}}]}]}, "
                  "effect: [{if: {is: it, filter: self}, "
                  "then: [{may: [{pair: self, with: {choose: {type: creature, controller: you, other: true, paired: false}}}], "
                  "prompt: pair this creature with another unpaired creature you control}], "
                  "else: [{may: [{pair: self, with: it}], prompt: pair the creature that entered with this creature}]}]}\n"
                  "text: Soulbond (702.95)"},
    {KW_FLANKING, "triggered: {when: {blocks: {type: creature, not_keyword: flanking}, attacker: self}, "
                  "effect: [{pump: it, power: -1, toughness: -1}]}\n"
                  "text: Flanking (702.25)"},
    {KW_CASCADE, "triggered: {when: {cast: self}, zone: stack, effect: [{cascade: self}]}\n"
                 "text: Cascade (702.85)"},
};

int pool_kw_init(mtg_pool *p) {
  for (int i = 0; i < NELEM(kw_abilities); i++) {
    const char *y = kw_abilities[i].yaml;
    int kw = kw_abilities[i].kw;
    CardDef *d = pool_alloc(p, sizeof *d);
    Ability *a = pool_alloc(p, sizeof *a);
    if (!d || !a) return MTG_ENOMEM;
    mtg_error err;
    memset(&err, 0, sizeof err);
    ydoc *doc;
    if (ydoc_parse_buffer("<keyword>", y, strlen(y), &doc, &err)) return err.status ? err.status : MTG_ENOMEM;
    int oom = 0;
    L l = {p, doc, &err, kw_names[kw], &oom, 0, 0};
    int rc = p_ability(&l, ydoc_root(doc, 0), a, 0);
    ydoc_free(doc);
    if (oom) return MTG_ENOMEM;
    if (rc) return err.status == MTG_ENOMEM ? MTG_ENOMEM : MTG_EDATA;
    a->kw_of = (uint8_t)(kw + 1);
    d->name = kw_names[kw];
    d->file = "<keyword>";
    def_abilities(d, a, 1);
    d->hash = hash_str(0x6b77, y);
    p->kwdef[kw] = d;
    p->kwmask |= 1ULL << kw;
  }
  return MTG_OK;
}

/* A printed keyword's ability, as ability `index` of its card: 0 if added, 1
 * for a keyword the rules implement directly (nothing to add). */
static int expand_keyword(L *l, int kw, Ability *a, int index) {
  const Ability *k = pool_kw_ability(l->p, kw, NULL);
  if (!k) return 1;
  *a = *k;
  a->index = (uint8_t)index;
  return 0;
}

/* A card's ability table, sized from a count of what its keys add. Every
 * ability is written into ab_slot's slot and kept with ab_keep, so that a key
 * the count misses is a located error, never a write past the table. */
typedef struct AbTable {
  Ability *ab;
  int n, cap;
} AbTable;

/* The next free slot (zeroed), or NULL with an error located at `at`. */
static Ability *ab_slot(L *l, AbTable *t, const ynode *at) {
  if (t->n >= t->cap) {
    BADI(l, at, "card '%s': more abilities than the %d its keys were counted to add (a loader defect: the count misses this key)",
         l->card ? l->card : "?", t->cap);
    return NULL;
  }
  Ability *a = &t->ab[t->n];
  memset(a, 0, sizeof *a);
  return a;
}

/* Keeps the ability written into the last slot; its index is its position. */
static void ab_keep(AbTable *t) {
  t->ab[t->n].index = (uint8_t)t->n;
  t->n++;
}

/* ---- Sagas (714) and dungeons (309) ---- */

/* The chapter numbers of a `chapters:` entry: `chapter: 2` or `chapter: [2, 3]` (714.2c). */
static int chapter_numbers(L *l, const ynode *e, int *out, int max) {
  const ynode *v = ymap_get(e, "chapter");
  if (!v) return BADI(l, e, "a chapter ability needs 'chapter' (its number, or a list like [1, 2])");
  const ynode *one[1] = {v};
  const ynode *const *items = v->kind == YN_SEQ ? (const ynode *const *)v->items : one;
  int cnt = v->kind == YN_SEQ ? v->n : 1;
  if (cnt < 1 || cnt > max) return BADI(l, v, "chapter: 1 to %d numbers", max);
  for (int i = 0; i < cnt; i++) {
    long x;
    if (ynode_int(l->d, items[i], &x, l->err)) return -1;
    if (x < 1 || x > 20) return BADI(l, items[i], "a chapter number is 1 to 20 (714.2a), found %ld", x);
    out[i] = (int)x;
  }
  return cnt;
}

static int count_chapters(const ynode *ch) {
  int n = 0;
  for (int i = 0; ch && ch->kind == YN_SEQ && i < ch->n; i++) {
    const ynode *v = ch->items[i]->kind == YN_MAP ? ymap_get(ch->items[i], "chapter") : NULL;
    n += v && v->kind == YN_SEQ ? v->n : 1;
  }
  return n;
}

/* 714.2b, 714.2c: each chapter number is its own triggered ability. */
static int p_chapters(L *l, const ynode *ch, AbTable *tab) {
  static const char *const keys[] = {"chapter", "targets", "modes", "choose", "effect", "text", NULL};
  if (ch->kind != YN_SEQ || !ch->n) return BADI(l, ch, "chapters: expected a list like [{chapter: 1, effect: [...]}]");
  for (int i = 0; i < ch->n; i++) {
    const ynode *e = ch->items[i];
    if (want_map(l, e, "a chapter ability")) return -1;
    if (ymap_check_keys(l->d, e, keys, "chapter ability", l->err)) return -1;
    int nums[20];
    int cnt = chapter_numbers(l, e, nums, 20);
    if (cnt < 0) return -1;
    Ability a;
    memset(&a, 0, sizeof a);
    a.kind = AB_TRIGGERED;
    a.zone = -1;
    a.trig.ev = TE_CHAPTER;
    a.trig.from = a.trig.to = -1;
    a.trig.combat = -1;
    a.trig.step = -1;
    if (p_modes(l, e, &a)) return -1;
    const ynode *t = ymap_get(e, "text");
    if (t && scalar(t)) a.text = dup(l, scalar(t));
    for (int j = 0; j < cnt; j++) {
      Ability *s = ab_slot(l, tab, e);
      if (!s) return -1;
      *s = a;
      s->trig.chapter = (uint8_t)nums[j];
      ab_keep(tab);
    }
  }
  return 0;
}

static int room_index(L *l, const ynode *names, int n, const ynode *v) {
  const char *s = scalar(v);
  if (!s) return BADI(l, v, "next: expected a room name");
  const char *w[64];
  for (int i = 0; i < n; i++) {
    w[i] = scalar(ymap_get(names->items[i], "name"));
    if (w[i] && !strcmp(w[i], s)) return i;
  }
  const char *best = suggest_best(s, w, n);
  if (best) return BADI(l, v, "no room named '%s'; did you mean '%s'?", s, best);
  return BADI(l, v, "no room named '%s' in this dungeon", s);
}

/* 309.4: rooms listed top to bottom; each `next` names lower rooms (the arrows);
 * the last room, and only it, has no exits: the bottommost room. */
static int p_rooms(L *l, const ynode *rs, CardDef *c, AbTable *tab) {
  static const char *const keys[] = {"name", "targets", "modes", "choose", "effect", "next", "text", NULL};
  if (rs->kind != YN_SEQ || rs->n < 2 || rs->n > 64) return BADI(l, rs, "rooms: expected a list of 2 to 64 rooms, top first");
  Room *room = al(l, (size_t)rs->n * sizeof *room);
  if (!room) return -1;
  for (int i = 0; i < rs->n; i++) {
    const ynode *e = rs->items[i];
    if (want_map(l, e, "a room")) return -1;
    if (ymap_check_keys(l->d, e, keys, "room", l->err)) return -1;
    const ynode *nm = ymap_get(e, "name");
    if (!nm || !scalar(nm) || !*scalar(nm)) return BADI(l, nm ? nm : e, "a room needs a 'name'");
    for (int j = 0; j < i; j++)
      if (!strcmp(room[j].name, scalar(nm))) return BADI(l, nm, "two rooms are named '%s'", scalar(nm));
    room[i].name = dup(l, scalar(nm));
  }
  for (int i = 0; i < rs->n; i++) {
    const ynode *e = rs->items[i], *nx = ymap_get(e, "next");
    Ability *a = ab_slot(l, tab, e);
    if (!a) return -1;
    a->kind = AB_TRIGGERED;
    a->zone = MTG_Z_COMMAND; /* 309.4c: it triggers while the dungeon is in the command zone */
    a->trig.ev = TE_ROOM;
    a->trig.from = a->trig.to = -1;
    a->trig.combat = -1;
    a->trig.step = -1;
    if (p_modes(l, e, a)) return -1;
    const ynode *t = ymap_get(e, "text");
    a->text = t && scalar(t) ? dup(l, scalar(t)) : room[i].name;
    room[i].ab = (uint8_t)tab->n;
    ab_keep(tab);
    if (nx) {
      const ynode *one[1] = {nx};
      const ynode *const *items = nx->kind == YN_SEQ ? (const ynode *const *)nx->items : one;
      int cnt = nx->kind == YN_SEQ ? nx->n : 1;
      if (cnt < 1 || cnt > MAX_ROOM_EXITS) return BADI(l, nx, "next: 1 to %d rooms", MAX_ROOM_EXITS);
      for (int j = 0; j < cnt; j++) {
        int r = room_index(l, rs, rs->n, items[j]);
        if (r < 0) return -1;
        if (r <= i) return BADI(l, items[j], "room '%s' leads up to '%s': arrows point down, to rooms listed later", room[i].name, room[r].name);
        room[i].next[room[i].nnext++] = (uint8_t)r;
      }
    }
    if (!room[i].nnext && i != rs->n - 1) return BADI(l, e, "room '%s' has no 'next': only the bottommost room, listed last, has none", room[i].name);
    if (room[i].nnext && i == rs->n - 1) return BADI(l, nx, "the last room is the bottommost: it has no 'next'");
  }
  c->rooms = room;
  c->nrooms = (uint8_t)rs->n;
  return 0;
}

static int synth_ability(L *l, const char *yaml, Ability *a, int index);

/* Adds to the table the ability compiled from `yaml` (see synth_ability),
 * errors located at `at`. */
static int ab_synth(L *l, AbTable *t, const ynode *at, const char *yaml) {
  Ability *a = ab_slot(l, t, at);
  if (!a || synth_ability(l, yaml, a, t->n)) return -1;
  ab_keep(t);
  return 0;
}

/* 310.11b: Sieges have "When the last defense counter is removed from this
 * permanent, exile it, then you may cast it transformed without paying its mana cost." */
static int siege_ability(L *l, Ability *a, int index) {
  static const char y[] = "triggered: {when: {defeated: self}, effect: [{exile: self}, {cast_transformed: result}]}\n"
                          "text: When the last defense counter is removed from this permanent, exile it, then you may cast it "
                          "transformed without paying its mana cost. (310.11b)";
  return synth_ability(l, y, a, index);
}

/* ---- cards ---- */

static int p_typeline(L *l, const ynode *n, CardDef *c) {
  const char *s = scalar(n);
  if (!s) return BADI(l, n, "type: expected a type line like \"Legendary Creature — Angel\"");
  char buf[256];
  snprintf(buf, sizeof buf, "%s", s);
  char *dash = strstr(buf, "\xe2\x80\x94"); /* em dash */
  char *subs = NULL;
  if (dash) {
    *dash = 0;
    subs = dash + 3;
  } else if ((dash = strstr(buf, " - "))) {
    *dash = 0;
    subs = dash + 3;
  }
  char *save = NULL;
  for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
    int t = type_bit(w), st = super_bit(w);
    if (t) c->types |= (uint32_t)t;
    else if (st) c->supers |= (uint8_t)st;
    else {
      const char *all[NTYPES + NSUPERS];
      int k = 0;
      for (int i = 0; i < NTYPES; i++) all[k++] = type_names[i];
      for (int i = 0; i < NSUPERS; i++) all[k++] = super_names[i];
      const char *best = suggest_best(w, all, k);
      return BADI(l, n, "unknown card type '%s'%s%s%s", w, best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
    }
  }
  if (!c->types) return BADI(l, n, "type line has no card type");
  if (subs && (c->types & T_PLANE)) {
    /* 311.3: all words after the dash are, collectively, a single planar type */
    while (*subs == ' ') subs++;
    if (*subs) c->subtypes[c->nsub++] = dup(l, subs);
  } else if (subs) {
    for (char *w = strtok_r(subs, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
      if (c->nsub >= MAX_SUBTYPES) return BADI(l, n, "at most %d subtypes", MAX_SUBTYPES);
      c->subtypes[c->nsub++] = dup(l, w);
    }
  }
  return 0;
}

/* A signed number of at most 6 digits from *p (optionally requiring a sign),
 * advancing *p; 0 if there is none or it is out of -1000..1000. */
static int small_num(const char **p, int need_sign, int *out) {
  const char *s = *p;
  int neg = 0, digits = 0;
  long v = 0;
  if (*s == '+' || *s == '-') neg = *s++ == '-';
  else if (need_sign) return 0;
  while (*s >= '0' && *s <= '9' && digits < 7) {
    v = v * 10 + (*s++ - '0');
    digits++;
  }
  if (!digits || (*s >= '0' && *s <= '9') || v > 1000) return 0;
  *out = (int)(neg ? -v : v);
  *p = s;
  return 1;
}

/* "2/2", or with signs "+1/-1" (need_sign): power and toughness from -1000 to 1000 */
static int pt_pair(const char *s, int need_sign, int *x, int *y) {
  return s && small_num(&s, need_sign, x) && *s++ == '/' && small_num(&s, need_sign, y) && !*s;
}

static int p_pt(L *l, const ynode *n, int16_t *a, int16_t *b) {
  int x, y;
  if (!pt_pair(scalar(n), 0, &x, &y))
    return BADI(l, n, "pt: expected \"power/toughness\" like \"2/2\" (numbers from -1000 to 1000)");
  *a = (int16_t)x;
  *b = (int16_t)y;
  return 0;
}

static uint64_t node_hash(uint64_t h, const ynode *n) {
  if (!n) return hash_mix(h ^ 0x55);
  h = hash_mix(h ^ (uint64_t)(n->kind + 1));
  if (n->kind == YN_SCALAR) return hash_str(h, n->str);
  int k = n->kind == YN_MAP ? 2 * n->n : n->n;
  for (int i = 0; i < k; i++) h = node_hash(h, n->items[i]);
  return h;
}

/* ---- keyword abilities written out by the compiler (702) ---- */

/* Compiles ability `index` from a fixed template in the card format (a
 * keyword's meaning); the card's own pieces (costs, filters) are parsed where
 * they are written and patched in by the caller, so errors point at them. */
static int synth_ability(L *l, const char *yaml, Ability *a, int index) {
  ydoc *d;
  if (ydoc_parse_buffer("<keyword>", yaml, strlen(yaml), &d, l->err)) return -1;
  L sub = *l;
  sub.d = d;
  int rc = p_ability(&sub, ydoc_root(d, 0), a, index);
  ydoc_free(d);
  return rc;
}

/* A keyword's cost: "{2}{U}", or {cost: "{2}", costs: [...]} (mana and other
 * costs); `extra` lists the other keys the mapping may have. */
static int p_keyword_cost(L *l, const ynode *v, const char *what, const char *const *keys, Cost *c) {
  if (scalar(v)) return p_cost(l, v, NULL, c);
  if (v->kind != YN_MAP) return BADI(l, v, "%s: expected a cost like \"{2}\" or {cost: \"{2}\", costs: [...]}", what);
  if (ymap_check_keys(l->d, v, keys, what, l->err)) return -1;
  if (!ymap_get(v, "cost") && !ymap_get(v, "costs")) return BADI(l, v, "%s needs 'cost' or 'costs'", what);
  return p_cost(l, ymap_get(v, "cost"), ymap_get(v, "costs"), c);
}

static int add_cost_part(L *l, const ynode *at, Cost *c, int kind) {
  if (c->nparts >= MAX_COST_PARTS) return BADI(l, at, "too many costs");
  c->part[c->nparts++].kind = (uint8_t)kind;
  return 0;
}

/* 702.29a, 702.29e: "Cycling [cost]" is "[Cost], Discard this card: Draw a
 * card"; "[Type]cycling [cost]" (`for: filter`) searches for a card of that
 * type instead. A list gives several cycling abilities. */
static int p_cycling(L *l, const ynode *v, AbTable *t) {
  const ynode *one[1] = {v};
  const ynode *const *items = v->kind == YN_SEQ ? (const ynode *const *)v->items : one;
  int cnt = v->kind == YN_SEQ ? v->n : 1;
  static const char *const keys[] = {"cost", "costs", "for", NULL};
  for (int i = 0; i < cnt; i++) {
    const ynode *it = items[i], *f = it->kind == YN_MAP ? ymap_get(it, "for") : NULL;
    Ability *a = ab_slot(l, t, it);
    if (!a || synth_ability(l, f ? "activated: {zone: hand, effect: [{search_library: card, reveal: true}]}\ntext: Typecycling (702.29e)"
                                 : "activated: {zone: hand, effect: [{draw: 1}]}\ntext: Cycling (702.29a)", a, t->n))
      return -1;
    if (p_keyword_cost(l, it, "cycling", keys, &a->cost) || add_cost_part(l, it, &a->cost, CK_DISCARD_SELF)) return -1;
    if (f && !(a->modes[0].effect->k[0]->k[0]->f = p_filter(l, f))) return -1;
    if (f) a->modes[0].effect->k[0]->j = 0; /* a card with a quality: it may not be found (701.23b) */
    a->cycling = 1;
    ab_keep(t);
  }
  return 0;
}

/* 702.77a: "Reinforce N—[cost]" is "[Cost], Discard this card: Put N +1/+1
 * counters on target creature"; N may be X, the X of the cost (107.3). */
static int p_reinforce(L *l, const ynode *v, AbTable *t) {
  static const char *const keys[] = {"n", "cost", "costs", NULL};
  if (want_map(l, v, "reinforce")) return -1;
  const ynode *nn = ymap_get(v, "n");
  if (!nn) return BADI(l, v, "reinforce needs 'n' (a number or X)");
  long x = 0;
  int is_x = scalar(nn) && !strcmp(scalar(nn), "X");
  if (!is_x && ynode_int(l->d, nn, &x, l->err)) return -1;
  if (!is_x && (x < 1 || x > 100)) return BADI(l, nn, "reinforce: n is 1 to 100 or X");
  char num[24], y[200];
  snprintf(num, sizeof num, "%ld", x);
  snprintf(y, sizeof y, "activated: {zone: hand, targets: [creature], effect: [{put_counters: \"+1/+1\", n: %s, on: target}]}\n"
           "text: Reinforce (702.77a)", is_x ? "X" : num);
  Ability *a = ab_slot(l, t, v);
  if (!a || synth_ability(l, y, a, t->n)) return -1;
  if (p_keyword_cost(l, v, "reinforce", keys, &a->cost) || add_cost_part(l, v, &a->cost, CK_DISCARD_SELF)) return -1;
  if (is_x && !a->cost.mana.x) return BADI(l, nn, "reinforce X needs {X} in its cost");
  ab_keep(t);
  return 0;
}

static int card_has_subtype(const CardDef *c, const char *sub);

/* 702.97a: "Scavenge [cost]" is "[Cost], Exile this card from your graveyard:
 * Put a number of +1/+1 counters equal to the power of the card you exiled on
 * target creature. Activate only as a sorcery." The power is the card's as it
 * last existed in the graveyard (608.2h). */
static int p_scavenge(L *l, const ynode *v, AbTable *t) {
  static const char *const keys[] = {"cost", "costs", NULL};
  Ability *a = ab_slot(l, t, v);
  if (!a || synth_ability(l, "activated: {zone: graveyard, sorcery: true, targets: [creature], "
                             "effect: [{put_counters: \"+1/+1\", n: {power: self}, on: target}]}\ntext: Scavenge (702.97a)", a, t->n))
    return -1;
  if (p_keyword_cost(l, v, "scavenge", keys, &a->cost) || add_cost_part(l, v, &a->cost, CK_EXILE_SELF)) return -1;
  ab_keep(t);
  return 0;
}

/* 702.128a, 702.129a: "Embalm [cost]" / "Eternalize [cost]" is "[Cost], Exile
 * this card from your graveyard: Create a token that's a copy of this card,
 * except ... Activate only as a sorcery." The token's definition is the card's
 * copiable values with the exceptions (707.2, 707.9b); it is filled in by
 * token_copies once the card is complete, so it has the card's abilities. */
static int p_token_copy_key(L *l, const ynode *v, AbTable *t, const char *what, const char *text, CardDef **tok) {
  static const char *const keys[] = {"cost", "costs", NULL};
  char y[300];
  snprintf(y, sizeof y, "activated: {zone: graveyard, sorcery: true, effect: [{create_token: {name: copy, type: Creature, pt: 0/0}}]}\n"
           "text: %s", text);
  Ability *a = ab_slot(l, t, v);
  if (!a || synth_ability(l, y, a, t->n)) return -1;
  if (p_keyword_cost(l, v, what, keys, &a->cost) || add_cost_part(l, v, &a->cost, CK_EXILE_SELF)) return -1;
  if (!(*tok = al(l, sizeof **tok))) return -1;
  a->modes[0].effect->k[0]->k[0]->def = *tok;
  ab_keep(t);
  return 0;
}

/* 702.84a: "Unearth [cost]" is "[Cost]: Return this card from your graveyard
 * to the battlefield. It gains haste. Exile it at the beginning of the next end
 * step. If it would leave the battlefield, exile it instead of putting it
 * anywhere else. Activate only as a sorcery." "It" is the permanent returned
 * (`result`): the replacement and the delayed trigger are about it only. */
static int p_unearth(L *l, const ynode *v, AbTable *t) {
  static const char *const keys[] = {"cost", "costs", NULL};
  Ability *a = ab_slot(l, t, v);
  if (!a || synth_ability(l, "activated: {zone: graveyard, sorcery: true, effect: [{return: self, to: battlefield}, "
                             "{grant: result, keywords: [haste], duration: forever}, "
                             "{delayed_trigger: {when: {step: end}, effect: [{exile: remembered}]}}, "
                             "{replacement: {event: zone, from: battlefield, to_zone: exile}, on: result, duration: forever}]}\n"
                             "text: Unearth (702.84a)", a, t->n))
    return -1;
  if (p_keyword_cost(l, v, "unearth", keys, &a->cost)) return -1;
  ab_keep(t);
  return 0;
}

/* The abilities of keywords that function while the card is in a graveyard
 * (113.6), added after the casting keywords' abilities. */
static int p_graveyard_keys(L *l, const ynode *n, CardDef *c, AbTable *t, CardDef *copies[2]) {
  const ynode *v;
  if ((v = ymap_get(n, "scavenge")) && p_scavenge(l, v, t)) return -1;
  if ((v = ymap_get(n, "unearth")) && p_unearth(l, v, t)) return -1;
  const char *const key[2] = {"embalm", "eternalize"};
  const char *const text[2] = {"Embalm (702.128a)", "Eternalize (702.129a)"};
  for (int i = 0; i < 2; i++) {
    if (!(v = ymap_get(n, key[i]))) continue;
    int zombie = card_has_subtype(c, "Zombie");
    if (!zombie && c->nsub >= MAX_SUBTYPES)
      return BADI(l, v, "%s: the token is a Zombie in addition to its %d subtypes, more than the %d a card may have", key[i], c->nsub, MAX_SUBTYPES);
    if (p_token_copy_key(l, v, t, key[i], text[i], &copies[i])) return -1;
  }
  return 0;
}

/* The token definitions of embalm and eternalize: the card, except it is white
 * (embalm) or a black 4/4 (eternalize), with no mana cost, and a Zombie in
 * addition to its other types (702.128a, 702.129a). */
static void token_copies(const CardDef *c, CardDef *copies[2]) {
  for (int i = 0; i < 2; i++) {
    CardDef *tk = copies[i];
    if (!tk) continue;
    *tk = *c;
    tk->token = 1;
    tk->yaml = NULL;
    tk->hash = hash_mix(c->hash ^ (uint64_t)(0x7e0 + i));
    memset(&tk->cost, 0, sizeof tk->cost);
    tk->colors = (uint8_t)(1u << (i ? COL_B : COL_W));
    if (!card_has_subtype(c, "Zombie")) tk->subtypes[tk->nsub++] = "Zombie";
    if (i) {
      tk->has_pt = 1;
      tk->power = tk->toughness = 4;
    }
  }
}

static const Ability *synth_delayed(L *l, const char *yaml) {
  ydoc *d;
  if (ydoc_parse_buffer("<keyword>", yaml, strlen(yaml), &d, l->err)) return NULL;
  L sub = *l;
  sub.d = d;
  const Ability *a = p_trigger_ability(&sub, ydoc_root(d, 0), 1);
  ydoc_free(d);
  return a;
}

static CastKw *castkw(L *l, CardDef *c) {
  if (!c->cast) c->cast = al(l, sizeof(CastKw));
  return (CastKw *)c->cast;
}

static int p_mana_key(L *l, const ynode *v, const char *what, ManaCost *m) {
  char why[200];
  if (!scalar(v) || mana_parse(scalar(v), m, NULL, NULL, why, sizeof why)) return BADI(l, v, "%s: expected a mana cost like \"{1}{R}\"", what);
  return 0;
}

static int p_flag_key(L *l, const ynode *v, uint8_t *out) {
  int b;
  if (ynode_bool(l->d, v, &b, l->err)) return -1;
  *out = (uint8_t)b;
  return 0;
}

/* 702.62a: "Suspend N--[cost]", `suspend: {time: N, cost: "[cost]"}`: the
 * special action (116.2f) is the card's (cast.c cast_suspend); the two
 * triggered abilities that function in exile are added here. "If this card is
 * suspended" (702.62b) is read as the card in exile with a time counter: the
 * ability exists only on a card with suspend, and its trigger only in exile. */
static int p_suspend(L *l, const ynode *v, CardDef *c, AbTable *t) {
  static const char *const sk[] = {"time", "cost", NULL};
  if (c->types & T_LAND) return BADI(l, v, "suspend: a land card can't be suspended here: playing it as the last time counter is removed is not supported");
  if (want_map(l, v, "suspend") || ymap_check_keys(l->d, v, sk, "suspend", l->err)) return -1;
  const ynode *tn = ymap_get(v, "time"), *cn = ymap_get(v, "cost");
  if (!tn) return BADI(l, v, "suspend needs 'time' (its N: the number of time counters, 1 to 100)");
  if (!cn) return BADI(l, v, "suspend needs 'cost' (the mana paid to exile it, e.g. \"{R}\")");
  long x;
  if (scalar(tn) && !strcmp(scalar(tn), "X")) return BADI(l, tn, "suspend: 'Suspend X' (X time counters chosen as it is paid) is not supported");
  if (ynode_int(l->d, tn, &x, l->err) || x < 1 || x > 100) return BADI(l, tn, "suspend: time: the number of time counters (1 to 100)");
  CastKw *kw = castkw(l, c);
  if (!kw) return -1; /* out of memory: the loader reports it */
  if (p_mana_key(l, cn, "suspend: cost", &kw->suspend)) return -1;
  if (kw->suspend.x) return BADI(l, cn, "suspend: a suspend cost with {X} is not supported");
  kw->suspend_time = (uint8_t)x;
  if (ab_synth(l, t, v, "triggered: {when: {step: upkeep, player: you}, zone: exile, if: {all: [{in_zone: exile, object: self}, "
                        "{counters: time, on: self, at_least: 1}]}, effect: [{remove_counters: time, n: 1, from: self}]}\n"
                        "text: Suspend (702.62a)")) return -1;
  /* "you may play it without paying its mana cost if able. If you don't, it remains exiled" */
  return ab_synth(l, t, v, "triggered: {when: {counters_removed: {on: self, kind: time, last: true}}, zone: exile, "
                           "if: {in_zone: exile, object: self}, effect: [{cast: self, for: suspend}]}\ntext: Suspend (702.62a)");
}

/* Abilities and costs of the casting keywords of the card mapping n, added
 * after its other abilities. */
static int p_casting_keys(L *l, const ynode *n, CardDef *c, AbTable *t) {
  const ynode *v;
  static const char *const ck[] = {"cost", "costs", NULL};
  int spell = (c->types & (T_INSTANT | T_SORCERY)) != 0;
  if ((v = ymap_get(n, "cycling")) && p_cycling(l, v, t)) return -1;
  if ((v = ymap_get(n, "reinforce")) && p_reinforce(l, v, t)) return -1;
  if ((v = ymap_get(n, "buyback"))) {
    /* 702.27a: buyback appears on instants and sorceries */
    if (!spell) return BADI(l, v, "buyback is for instants and sorceries (702.27a)");
    if (!castkw(l, c) || p_keyword_cost(l, v, "buyback", ck, &castkw(l, c)->buyback)) return -1;
    castkw(l, c)->has_buyback = 1;
  }
  if ((v = ymap_get(n, "dash"))) {
    /* 702.109a: returned to its owner's hand at the beginning of the next end step */
    if (spell) return BADI(l, v, "dash is for permanent cards (702.109a)");
    CastKw *kw = castkw(l, c);
    if (!kw) return -1; /* out of memory: the loader reports it */
    if (p_mana_key(l, v, "dash", &kw->dash)) return -1;
    kw->has_dash = 1;
    if (!(kw->dash_return = synth_delayed(l, "when: {step: end}\neffect: [{bounce: remembered}]\ntext: Dash (702.109a)"))) return -1;
  }
  if ((v = ymap_get(n, "evoke"))) {
    /* 702.74a: "You may cast this card by paying [cost] rather than paying its mana cost" and
     * "When this permanent enters, if its evoke cost was paid, its controller sacrifices it" */
    CastKw *kw = castkw(l, c);
    if (!kw) return -1; /* out of memory: the loader reports it */
    if (spell || (c->types & T_LAND)) return BADI(l, v, "evoke is for permanent cards that are cast (702.74a)");
    if (p_keyword_cost(l, v, "evoke", ck, &kw->evoke)) return -1;
    for (int i = 0; i < kw->evoke.nparts; i++)
      if (kw->evoke.part[i].kind == CK_TAP || kw->evoke.part[i].kind == CK_UNTAP || kw->evoke.part[i].n < 0)
        return BADI(l, v, "evoke: a spell's cost has no {T}, {Q} or X part");
    if (kw->evoke.mana.x) return BADI(l, v, "evoke: an evoke cost with {X} is not supported");
    kw->has_evoke = 1;
    if (ab_synth(l, t, v, "triggered: {when: {enters: self}, if: {cast_with: evoke}, effect: [{sacrifice: self}]}\n"
                          "text: Evoke (702.74a)")) return -1;
  }
  if ((v = ymap_get(n, "madness"))) {
    /* 702.35a: "If a player would discard this card, that player discards it,
     * but exiles it instead of putting it into their graveyard" (a replacement
     * of the card itself, wherever it is discarded from: a hand) and "When this
     * card is exiled this way, its owner may cast it by paying [cost] rather
     * than paying its mana cost. If that player doesn't, they put this card
     * into their graveyard": the trigger, linked to the replacement by its
     * label (607.2b), is added by cast_madness when the replacement exiled it */
    CastKw *kw = castkw(l, c);
    if (!kw) return -1; /* out of memory: the loader reports it */
    if (c->types & T_LAND) return BADI(l, v, "madness is for cards that are cast: a land can't be (702.35a, 305.9)");
    if (p_mana_key(l, v, "madness", &kw->madness)) return -1;
    if (kw->madness.x) return BADI(l, v, "madness: a madness cost with {X} is not supported");
    kw->has_madness = 1;
    if (ab_synth(l, t, v, "replacement: {event: discard, self: true, to_zone: exile, link: " MADNESS_LINK "}\n"
                          "text: Madness (702.35a)")) return -1;
    Ability *a = al(l, sizeof *a);
    if (!a || synth_ability(l, "triggered: {when: {discard: self}, zone: exile, effect: [{cast: self, for: madness}, "
                               "{if: {in_zone: exile, object: self}, then: [{return: self, to: graveyard}]}]}\n"
                               "text: Madness (702.35a)", a, 0)) return -1;
    kw->madness_trig = a;
  }
  if ((v = ymap_get(n, "retrace")) && (!castkw(l, c) || p_flag_key(l, v, &castkw(l, c)->retrace))) return -1;
  if ((v = ymap_get(n, "jump_start"))) {
    if (!spell) return BADI(l, v, "jump-start is for instants and sorceries (702.133a)");
    if (!castkw(l, c) || p_flag_key(l, v, &castkw(l, c)->jump_start)) return -1;
  }
  if ((v = ymap_get(n, "escape"))) {
    /* 702.138a: "Escape—[mana], Exile N other cards from your graveyard" */
    static const char *const ek[] = {"cost", "exile", NULL};
    if (want_map(l, v, "escape") || ymap_check_keys(l->d, v, ek, "escape", l->err)) return -1;
    CastKw *kw = castkw(l, c);
    if (!kw) return -1; /* out of memory: the loader reports it */
    const ynode *m = ymap_get(v, "cost"), *x = ymap_get(v, "exile");
    if (!m) return BADI(l, v, "escape needs 'cost' (its mana)");
    if (p_mana_key(l, m, "escape", &kw->escape.mana)) return -1;
    if (x) {
      long cnt;
      if (ynode_int(l->d, x, &cnt, l->err)) return -1;
      if (cnt < 1 || cnt > 40) return BADI(l, x, "escape: exile 1 to 40 other cards");
      static const Filter other = {.other = 1, .colored = -1, .multicolored = -1, .tapped = -1, .token = -1,
                                   .attacking = -1, .blocking = -1, .spell = -1, .zone = MTG_Z_GRAVEYARD};
      kw->escape.part[0].kind = CK_EXILE_GRAVEYARD_N;
      kw->escape.part[0].n = (int16_t)cnt;
      kw->escape.part[0].f = &other;
      kw->escape.nparts = 1;
    }
    kw->has_escape = 1;
  }
  if ((v = ymap_get(n, "suspend")) && p_suspend(l, v, c, t)) return -1;
  if ((v = ymap_get(n, "foretell"))) {
    if (!castkw(l, c) || p_mana_key(l, v, "foretell", &castkw(l, c)->foretell)) return -1;
    castkw(l, c)->has_foretell = 1;
  }
  if ((v = ymap_get(n, "miracle"))) {
    /* 702.94a: the reveal as it is drawn, and the triggered ability linked to it */
    CastKw *kw = castkw(l, c);
    if (!kw) return -1; /* out of memory: the loader reports it */
    if (p_mana_key(l, v, "miracle", &kw->miracle)) return -1;
    kw->has_miracle = 1;
    Ability *a = al(l, sizeof *a);
    if (!a || synth_ability(l, "triggered: {when: {reveal: self}, zone: hand, effect: [{cast: self, for: miracle}]}\ntext: Miracle (702.94a)", a, 0)) return -1;
    kw->miracle_trig = a;
  }
  if ((v = ymap_get(n, "multikicker"))) {
    /* 702.33c: a kicker cost that may be paid any number of times */
    if (ymap_get(n, "kicker")) return BADI(l, v, "a card has kicker or multikicker here, not both");
    if (p_mana_key(l, v, "multikicker", &c->kick[0])) return -1;
    c->nkick = 1;
    if (!castkw(l, c)) return -1;
    castkw(l, c)->multikicker = 1;
  }
  if ((v = ymap_get(n, "splice"))) {
    /* 702.47a: "Splice onto [subtype] [cost]" */
    static const char *const sk[] = {"onto", "cost", "costs", NULL};
    if (!spell) return BADI(l, v, "splice is for instants and sorceries (702.47a)");
    if (want_map(l, v, "splice") || ymap_check_keys(l->d, v, sk, "splice", l->err)) return -1;
    /* the spliced text is followed as one mode (cast.c cast_resolve_added) */
    for (int i = 0; i < t->n; i++)
      if (t->ab[i].kind == AB_SPELL && t->ab[i].nmodes != 1) return BADI(l, v, "splice is supported on a card without modes");
    const ynode *o = ymap_get(v, "onto");
    if (!o || !scalar(o)) return BADI(l, v, "splice needs 'onto' (a subtype, e.g. Arcane)");
    CastKw *kw = castkw(l, c);
    if (!kw) return -1; /* out of memory: the loader reports it */
    kw->splice_onto = dup(l, scalar(o));
    if (p_cost(l, ymap_get(v, "cost"), ymap_get(v, "costs"), &kw->splice)) return -1;
    kw->has_splice = 1;
  }
  return 0;
}

/* How many instances a keyword written as one value or a list of them has. */
static int kw_list_len(const ynode *v) { return v ? (v->kind == YN_SEQ ? v->n : 1) : 0; }

/* 702.24a: "Cumulative upkeep [cost]" is "At the beginning of your upkeep, if this permanent is on
 * the battlefield, put an age counter on this permanent. Then you may pay [cost] for each age
 * counter on it. If you don't, sacrifice it." A list gives several instances, each triggering on
 * its own and counting all the age counters as it resolves (702.24b). */
static int p_cumulative_upkeep(L *l, const ynode *v, const CardDef *c, AbTable *t) {
  const ynode *one[1] = {v};
  const ynode *const *items = v->kind == YN_SEQ ? (const ynode *const *)v->items : one;
  if (!(c->types & T_PERMANENT)) return BADI(l, v, "cumulative_upkeep is for permanents (702.24a)");
  for (int i = 0; i < kw_list_len(v); i++) {
    ManaCost m;
    char why[200], y[400];
    const char *s = scalar(items[i]);
    if (!s || mana_parse(s, &m, NULL, NULL, why, sizeof why) || m.x || m.nhybrid)
      return BADI(l, items[i], "cumulative_upkeep: expected a mana cost like \"{1}{U}\" (a cost with {X}, hybrid mana, a "
                  "choice or parts that are not mana is not supported)");
    snprintf(y, sizeof y, "triggered: {when: {step: upkeep, player: you}, if: {in_zone: battlefield, object: self}, effect: "
             "[{put_counters: age, n: 1, on: self}, {unless: \"%s\", payer: you, times: {counters: age, on: self}, "
             "do: [{sacrifice: self}]}]}\ntext: Cumulative upkeep (702.24a)", s);
    if (ab_synth(l, t, items[i], y)) return -1;
  }
  return 0;
}

/* How many abilities p_casting_keys adds, at most. */
static int count_casting_keys(const ynode *n) {
  int cnt = kw_list_len(ymap_get(n, "cycling"));
  static const char *const one[] = {"reinforce", "evoke", "scavenge", "embalm", "eternalize", "unearth", "madness"};
  for (size_t i = 0; i < NELEM(one); i++) cnt += ymap_get(n, one[i]) != NULL;
  return cnt + (ymap_get(n, "suspend") ? 2 : 0);
}

static int card_has_subtype(const CardDef *c, const char *sub) {
  for (int i = 0; i < c->nsub; i++)
    if (!strcmp(c->subtypes[i], sub)) return 1;
  return 0;
}

/* 709: a split card, `split: [half, half]`: two card faces on one card, each
 * cast on its own (709.3); the card has their combined characteristics in
 * every zone but the stack (709.4). */
static const CardDef *p_split(L *l, const ynode *n) {
  static const char *const keys[] = {"name", "split", "fuse", "text", "unsupported", NULL};
  if (ymap_check_keys(l->d, n, keys, "split card", l->err)) return NULL;
  const ynode *v = ymap_get(n, "name"), *h = ymap_get(n, "split");
  if (!v || !scalar(v) || !*scalar(v)) return BAD(l, v ? v : n, "card needs a 'name'");
  if (h->kind != YN_SEQ || h->n != 2) return BAD(l, h, "split: expected the card's two halves, each a card definition");
  CardDef *c = al(l, sizeof *c);
  if (!c) return NULL;
  c->name = dup(l, scalar(v));
  c->file = dup(l, ydoc_name(l->d));
  c->line = n->line;
  c->hash = node_hash(0x1234, n);
  int nab = 0;
  for (int i = 0; i < 2; i++) {
    const CardDef *half = p_card(l, h->items[i], 4);
    if (!half) return NULL;
    l->card = c->name;
    if (half->types & T_PERMANENT) return BAD(l, h->items[i], "split: halves that are permanents (Rooms, 709.5) are not supported");
    c->half[i] = half;
    c->split = 1;
    mana_add(&c->cost, &half->cost, 1);
    c->types |= half->types; /* 709.4c */
    c->supers |= half->supers;
    c->colors |= half->colors; /* 709.4b */
    c->keywords |= half->keywords;
    for (int k = 0; k < half->nsub; k++) {
      int dup_sub = 0;
      for (int j = 0; j < c->nsub; j++) dup_sub |= !strcmp(c->subtypes[j], half->subtypes[k]);
      if (!dup_sub && c->nsub < MAX_SUBTYPES) c->subtypes[c->nsub++] = half->subtypes[k];
    }
    nab += half->nab;
  }
  /* 709.4c: the card has each half's abilities, and holds MAX_ABS as any object does */
  if (nab > MAX_ABS) return BAD(l, n, "card '%s' has %d abilities in its two halves; an object holds at most %d", c->name, nab, MAX_ABS);
  /* 709.4c: each ability in the text box of each half */
  AbTable t = {al(l, (size_t)(nab ? nab : 1) * sizeof *t.ab), 0, nab};
  if (!t.ab) return NULL;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < c->half[i]->nab; j++) {
      Ability *a = ab_slot(l, &t, h->items[i]);
      if (!a) return NULL;
      *a = c->half[i]->ab[j];
      ab_keep(&t);
    }
  def_abilities(c, t.ab, t.n);
  if ((v = ymap_get(n, "text")) && scalar(v)) c->text = dup(l, scalar(v));
  if ((v = ymap_get(n, "unsupported")) && (!scalar(v) || !*scalar(v)))
    return BAD(l, v, "unsupported: expected a short text saying what the definition leaves out");
  if ((v = ymap_get(n, "fuse")) && p_flag_key(l, v, &c->fuse)) return NULL;
  if (c->half[0]->aftermath) return BAD(l, h->items[0], "aftermath is the second half's (702.127a)");
  if (c->fuse && c->half[1]->aftermath) return BAD(l, v, "a split card has fuse or aftermath, not both");
  return c;
}

/* token: 0 a card, 1 a token, 2 a back face, 3 the back face a card is written
 * from (with `front`), 4 a split card's half (709) */
static const CardDef *p_card(L *l, const ynode *n, int token) {
  static const char *const keys[] = {"name", "cost", "type", "pt", "loyalty", "defense", "colors",
                                     "keywords", "abilities", "spell", "text", "kicker",
                                     "flashback", "enchant", "equip", "leyline", "alt_cost",
                                     "additional_cost", "costs_less", "back", "morph", "chapters", "rooms", "unsupported",
                                     "cycling", "reinforce", "ward", "vanishing", "fading", "echo",
                                     "cumulative_upkeep", "front", "flip", "megamorph", "buyback", "dash",
                                     "evoke", "suspend", "retrace", "jump_start", "escape", "foretell",
                                     "miracle", "multikicker", "splice", "modal", "aftermath", "adventure",
                                     "strive", "scavenge", "embalm", "eternalize", "unearth", "madness",
                                     "disturb", "affinity", NULL};
  if (!token && n->kind == YN_MAP && ymap_get(n, "split")) return p_split(l, n);
  if (want_map(l, n, token ? "token definition" : "card definition")) return NULL;
  if (ymap_check_keys(l->d, n, keys, token ? "token definition" : "card definition", l->err)) return NULL;
  /* 702.62a: suspend is a card's, exiled from its owner's hand */
  if (token && ymap_get(n, "suspend")) return BAD(l, ymap_get(n, "suspend"), "suspend is for a card, not for a token or a face");
  /* token 3: the back face of a card written from it, read below as a back face (2) */
  const ynode *fv = token == 3 ? NULL : ymap_get(n, "front");
  int from_back = token == 3;
  if (token == 3) token = 2;
  if (fv && token) return BAD(l, fv, "'front' is for a card definition written from its back face, not for a %s", token == 1 ? "token" : token == 4 ? "split card's half" : "back face");
  if (fv) {
    /* 712: a transforming double-faced card written from its back face (the name a card
     * list may give it): the card is its front face, with this definition as its back */
    if (ymap_get(n, "back")) return BAD(l, ymap_get(n, "back"), "a card written from its back face (with 'front') has no 'back'");
    if (fv->kind == YN_MAP && ymap_get(fv, "back")) return BAD(l, ymap_get(fv, "back"), "the front face's back is this definition: no 'back' in 'front'");
    if (fv->kind == YN_MAP && ymap_get(fv, "front")) return BAD(l, ymap_get(fv, "front"), "'front' in 'front'");
    const CardDef *fr = p_card(l, fv, 0);
    if (!fr) return NULL;
    const CardDef *bk = p_card(l, n, 3);
    if (!bk) return NULL;
    ((CardDef *)fr)->back = bk;
    ((CardDef *)fr)->hash = node_hash(0x1234, n); /* both faces */
    /* 712.3: a modal double-faced card (`modal: true` beside `front`) */
    const ynode *mv = ymap_get(n, "modal");
    if (mv && p_flag_key(l, mv, &((CardDef *)fr)->modal)) return NULL;
    l->card = fr->name;
    return fr;
  }
  CardDef *c = al(l, sizeof *c);
  if (!c) return NULL;
  const ynode *v = ymap_get(n, "name");
  if (!v || !scalar(v) || !*scalar(v)) return BAD(l, v ? v : n, "card needs a 'name'");
  /* a name is shown in every log line and decision: printable text only */
  if (escape_needed(v->str, v->len)) return BAD(l, v, "a card's name can't hold control characters");
  size_t quoted = v->len;
  for (size_t i = 0; i < v->len; i++) quoted += v->str[i] == '"' || v->str[i] == '\\';
  if (quoted > MTG_MAX_NAME)
    return BAD(l, v, "a card's name is at most %d bytes (MTG_MAX_NAME), so that log lines and decisions show it whole; this one is %zu",
               MTG_MAX_NAME, quoted);
  c->name = dup(l, scalar(v));
  l->card = c->name;
  c->file = dup(l, ydoc_name(l->d));
  c->line = n->line;
  c->hash = node_hash(0x1234, n);
  c->token = (uint8_t)token;
  char why[200];
  if ((v = ymap_get(n, "cost"))) {
    if (!scalar(v)) return BAD(l, v, "cost: expected a mana cost like \"{2}{W}\"");
    if (mana_parse(scalar(v), &c->cost, NULL, NULL, why, sizeof why)) return BAD(l, v, "cost: %s", why);
  }
  c->colors = mana_colors(&c->cost);
  if (!(v = ymap_get(n, "type"))) return BAD(l, n, "card '%s' needs a 'type' line", c->name);
  if (p_typeline(l, v, c)) return NULL;
  if ((v = ymap_get(n, "pt"))) {
    if (p_pt(l, v, &c->power, &c->toughness)) return NULL;
    c->has_pt = 1;
  } else if (c->types & T_CREATURE) {
    return BAD(l, n, "creature '%s' needs 'pt'", c->name);
  }
  long x;
  if ((v = ymap_get(n, "loyalty"))) {
    if (!(c->types & T_PLANESWALKER)) return BAD(l, v, "'loyalty' is for planeswalkers (306.5b)");
    if (ynode_int(l->d, v, &x, l->err)) return NULL;
    if (x < 0 || x > 1000) return BAD(l, v, "loyalty: 0 to 1000");
    c->loyalty = (int16_t)x;
    c->has_loyalty = 1;
  }
  if ((v = ymap_get(n, "defense"))) {
    if (!(c->types & T_BATTLE)) return BAD(l, v, "'defense' is for battles (310.4)");
    if (ynode_int(l->d, v, &x, l->err)) return NULL;
    if (x < 0 || x > 1000) return BAD(l, v, "defense: 0 to 1000");
    c->defense = (int16_t)x;
  } else if (c->types & T_BATTLE) {
    return BAD(l, n, "battle '%s' needs 'defense' (310.4)", c->name);
  }
  int saga = 0;
  for (int i = 0; i < c->nsub; i++) saga |= !strcmp(c->subtypes[i], "Saga");
  const ynode *chs = ymap_get(n, "chapters"), *rms = ymap_get(n, "rooms");
  if (chs && !saga) return BAD(l, chs, "'chapters' are for Sagas (714): the type line needs the subtype Saga");
  if (rms && !(c->types & T_DUNGEON)) return BAD(l, rms, "'rooms' are for dungeons (309): the type line needs the card type Dungeon");
  if ((c->types & T_DUNGEON) && !rms) return BAD(l, n, "dungeon '%s' needs 'rooms' (309.4)", c->name);
  if ((c->types & T_DUNGEON) && (c->types & ~(uint32_t)T_DUNGEON)) return BAD(l, ymap_get(n, "type"), "a dungeon has no other card type (309.1)");
  if ((v = ymap_get(n, "colors"))) {
    c->colors = 0;
    if (each_scalar(l, v, add_color, &c->colors)) return NULL;
  }
  const ynode *kws = ymap_get(n, "keywords");
  KwList kwl;
  memset(&kwl, 0, sizeof kwl);
  Ability kwab[16];
  kwl.ab = kwab;
  kwl.max = NELEM(kwab);
  if (kws) {
    if (kws->kind != YN_SEQ) return BAD(l, kws, "keywords: expected a list like [flying, lifelink]");
    /* parsed once the other abilities are known: their abilities come after them */
    for (int i = 0; i < kws->n; i++)
      if (scalar(kws->items[i]) && add_kw(l, kws->items[i], &c->keywords)) return NULL;
  }
  if ((v = ymap_get(n, "text")) && scalar(v)) c->text = dup(l, scalar(v));
  /* what the definition leaves out of the card's Oracle text: the card loads and
   * plays with the rest, and the card coverage page lists it as partial */
  if ((v = ymap_get(n, "unsupported")) && (!scalar(v) || !*scalar(v)))
    return BAD(l, v, "unsupported: expected a short text saying what the definition leaves out");
  if ((v = ymap_get(n, "leyline"))) {
    int b;
    if (ynode_bool(l->d, v, &b, l->err)) return NULL;
    c->leyline = (uint8_t)b;
  }
  if ((v = ymap_get(n, "enchant"))) {
    if (!(c->types & T_ENCHANTMENT) || !card_has_subtype(c, "Aura")) return BAD(l, v, "only Auras have 'enchant' (the type line needs Enchantment — Aura, 303.4)");
    if (!(c->enchant = p_filter(l, v))) return NULL;
  } else if ((c->types & T_ENCHANTMENT) && card_has_subtype(c, "Aura")) {
    return BAD(l, n, "Aura '%s' needs 'enchant' (what it can enchant: every Aura has one, 303.4a, 702.5a)", c->name);
  }
  /* abilities: spell ability, listed abilities, keyword expansions, equip */
  const ynode *abs = ymap_get(n, "abilities"), *sp = ymap_get(n, "spell"), *eq = ymap_get(n, "equip");
  if (abs && abs->kind != YN_SEQ) return BAD(l, abs, "abilities: expected a list");
  /* keywords expand into one ability at most each; one more for an Aura's
   * spell ability, a Siege's, and a flashback pseudo-ability: exactly what
   * the card can use (an Ability is 1.3 KB; a pool may have many cards) */
  int nkw = 0;
  for (int kw = 0; kw < KW_COUNT; kw++) nkw += (int)(c->keywords >> kw & 1);
  int nab = (abs ? abs->n : 0) + (sp ? 1 : 0) + (eq ? 1 : 0) + nkw + kw_count_params(kws) + (c->enchant ? 1 : 0) +
            (c->types & T_BATTLE ? 1 : 0) + (ymap_get(n, "flashback") ? 1 : 0) + (ymap_get(n, "ward") ? 1 : 0) +
            count_chapters(chs) + (rms && rms->kind == YN_SEQ ? rms->n : 0) + (ymap_get(n, "vanishing") ? 3 : 0) +
            (ymap_get(n, "fading") ? 2 : 0) + (ymap_get(n, "echo") ? 1 : 0) +
            kw_list_len(ymap_get(n, "cumulative_upkeep")) + count_casting_keys(n);
  if (nab > 255) return BAD(l, n, "card '%s' has too many abilities", c->name);
  /* built on the stack and kept at the size used: the room for the abilities
   * a card may have is most of the pool's memory otherwise */
  Ability room[12];
  AbTable t = {nab <= NELEM(room) ? room : al(l, (size_t)nab * sizeof *t.ab), 0, nab};
  if (!t.ab) return NULL;
  Ability *a;
  if (chs && p_chapters(l, chs, &t)) return NULL;
  if (rms && p_rooms(l, rms, c, &t)) return NULL;
  if (sp) {
    if (!(c->types & (T_INSTANT | T_SORCERY))) return BAD(l, sp, "'spell' is for instants and sorceries; permanents use 'abilities'");
    static const char *const sk[] = {"targets", "modes", "choose", "effect", "text", NULL};
    if (ymap_check_keys(l->d, sp, sk, "spell ability", l->err)) return NULL;
    if (!(a = ab_slot(l, &t, sp))) return NULL;
    a->kind = AB_SPELL;
    a->zone = MTG_Z_STACK;
    if (p_modes(l, sp, a)) return NULL;
    ab_keep(&t);
  } else if (c->types & (T_INSTANT | T_SORCERY)) {
    return BAD(l, n, "instant or sorcery '%s' needs a 'spell' (its effect)", c->name);
  }
  if (c->enchant && !sp) {
    /* 303.4a: an Aura spell targets what it can enchant */
    if (!(a = ab_slot(l, &t, ymap_get(n, "enchant")))) return NULL;
    a->kind = AB_SPELL;
    a->zone = MTG_Z_STACK;
    a->nmodes = 1;
    a->mode_min = a->mode_max = 1;
    a->modes[0].nt = 1;
    a->modes[0].t[0].f = c->enchant;
    Node *seq = mk(l, S_SEQ, n);
    if (!seq || kids(l, seq, 0)) return NULL;
    a->modes[0].effect = seq;
    a->text = "Enchant";
    ab_keep(&t);
  }
  for (int i = 0; abs && i < abs->n; i++) {
    if (!(a = ab_slot(l, &t, abs->items[i])) || p_ability(l, abs->items[i], a, t.n)) return NULL;
    ab_keep(&t);
  }
  for (int kw = 0; kw < KW_COUNT; kw++) {
    if (!(c->keywords >> kw & 1)) continue;
    if (!(a = ab_slot(l, &t, kws ? kws : n))) return NULL;
    int rc = expand_keyword(l, kw, a, t.n);
    if (rc < 0) return NULL;
    if (rc == 0) ab_keep(&t);
  }
  if (kws) {
    /* keywords with a parameter, in the order listed */
    kwl.base = t.n;
    for (int i = 0; i < kws->n; i++)
      if (!scalar(kws->items[i]) && kw_item(l, kws->items[i], &kwl, 1)) return NULL;
    c->keywords |= kwl.bits;
    for (int i = 0; i < kwl.n; i++) {
      if (!(a = ab_slot(l, &t, kws))) return NULL;
      *a = kwab[i];
      ab_keep(&t);
    }
  }
  if ((c->types & T_BATTLE) && c->nsub) {
    int siege = 0;
    for (int i = 0; i < c->nsub; i++) siege |= !strcmp(c->subtypes[i], "Siege");
    if (siege) {
      if (!(a = ab_slot(l, &t, n)) || siege_ability(l, a, t.n)) return NULL;
      ab_keep(&t);
    }
  }
  if (eq) {
    /* 702.6: Equip [cost]: attach to target creature you control; sorcery timing */
    if (!card_has_subtype(c, "Equipment")) return BAD(l, eq, "'equip' is for Equipment (the type line needs Artifact — Equipment, 301.5)");
    if (!scalar(eq)) return BAD(l, eq, "equip: expected a cost like \"{1}\"");
    char y[256];
    snprintf(y, sizeof y, "activated: {cost: \"%s\", sorcery: true, targets: [{type: creature, controller: you}], effect: [{attach: self, to: target}]}\ntext: Equip", scalar(eq));
    if (!(a = ab_slot(l, &t, eq)) || synth_ability(l, y, a, t.n)) return NULL;
    a->equip = 1;
    ab_keep(&t);
    Filter *ef = al(l, sizeof *ef);
    if (!ef) return NULL;
    filter_defaults(ef);
    ef->types_any = T_CREATURE;
    c->equip_f = ef;
  }
  if (p_casting_keys(l, n, c, &t)) return NULL;
  CardDef *copies[2] = {NULL, NULL};
  if (p_graveyard_keys(l, n, c, &t, copies)) return NULL;
  if ((v = ymap_get(n, "kicker"))) {
    const ynode *one[1] = {v};
    const ynode *const *items = v->kind == YN_SEQ ? (const ynode *const *)v->items : one;
    int cnt = v->kind == YN_SEQ ? v->n : 1;
    if (cnt < 1 || cnt > 3) return BAD(l, v, "kicker: one mana cost, or a list of up to 3");
    for (int i = 0; i < cnt; i++)
      if (!scalar(items[i]) || mana_parse(scalar(items[i]), &c->kick[i], NULL, NULL, why, sizeof why))
        return BAD(l, items[i], "kicker: expected a mana cost like \"{2}{B}\"");
    c->nkick = (uint8_t)cnt;
  }
  if ((v = ymap_get(n, "flashback"))) {
    int fb = 1;
    if (!t.n || t.ab[0].kind != AB_SPELL) {
      /* permanents with kicker keep it on a keyword pseudo-ability */
      if (!(a = ab_slot(l, &t, v))) return NULL;
      a->kind = AB_KEYWORD;
      a->zone = MTG_Z_STACK;
      ab_keep(&t);
    }
    Ability *host = t.ab[0].kind == AB_SPELL ? &t.ab[0] : &t.ab[t.n - 1];
    if (!scalar(v) || mana_parse(scalar(v), &host->kicker.mana, NULL, NULL, why, sizeof why))
      return BAD(l, v, "%s: expected a mana cost", fb ? "flashback" : "kicker");
    host->has_kicker = (uint8_t)!fb;
    host->flashback = (uint8_t)fb;
  }
  if ((v = ymap_get(n, "costs_less"))) {
    /* "This spell costs {N} less to cast [for each ...]" (601.2f): generic mana */
    if (!(c->costs_less = p_expr(l, v))) return NULL;
  }
  if ((v = ymap_get(n, "affinity"))) {
    /* 702.41a: "Affinity for [quality]" is "this spell costs {1} less to cast
     * for each [quality] you control": costs_less with that count */
    if (c->costs_less) return BAD(l, v, "affinity and costs_less both reduce the cost: write their sum in costs_less");
    const Filter *pf = p_filter(l, v);
    if (!pf) return NULL;
    if (pf->controller != R_ANY) return BAD(l, v, "affinity: expected a filter on permanents ('artifact', {subtype: Equipment}); it counts those you control, without 'controller'");
    Filter *f = al(l, sizeof *f);
    Node *e = mk(l, E_COUNT, v);
    if (!f || !e) return NULL;
    *f = *pf;
    f->controller = R_YOU;
    e->f = f;
    c->costs_less = e;
  }
  if ((v = ymap_get(n, "strive"))) {
    /* "Strive — This spell costs {1}{G} more to cast for each target beyond the first." */
    if (!scalar(v) || mana_parse(scalar(v), &c->strive, NULL, NULL, why, sizeof why))
      return BAD(l, v, "strive: expected a mana cost like \"{1}{G}\"");
    c->has_strive = 1;
  }
  if ((v = ymap_get(n, "additional_cost"))) {
    /* {costs: [...], optional: bool, link: label} or just the list of costs */
    const ynode *costs = v, *opt = NULL, *lk = NULL;
    if (v->kind == YN_MAP) {
      static const char *const ak[] = {"costs", "optional", "link", NULL};
      if (ymap_check_keys(l->d, v, ak, "additional_cost", l->err)) return NULL;
      costs = ymap_get(v, "costs");
      opt = ymap_get(v, "optional");
      lk = ymap_get(v, "link");
      if (!costs) return BAD(l, v, "additional_cost needs costs");
    }
    if (p_cost(l, NULL, costs, &c->addl)) return NULL;
    c->has_addl = 1;
    int b = 0;
    if (opt && ynode_bool(l->d, opt, &b, l->err)) return NULL;
    c->addl_optional = (uint8_t)b;
    if (lk && scalar(lk)) c->addl_label = dup(l, scalar(lk));
  }
  if ((v = ymap_get(n, "back"))) {
    /* 712: the back face of a double-faced card */
    const char *front = c->name;
    const CardDef *bk = p_card(l, v, 2);
    if (!bk) return NULL;
    c->back = bk;
    l->card = front;
  }
  if ((v = ymap_get(n, "flip"))) {
    /* 710: a flip card's alternative name, text box, type line, power and toughness;
     * its color and mana cost stay the card's (710.1c) */
    if (token) return BAD(l, v, "'flip' is for a card, not for a token or a face");
    if (!(c->types & T_PERMANENT)) return BAD(l, v, "'flip' is for permanent cards (flip cards, 710)");
    if (ymap_get(n, "back") || ymap_get(n, "front")) return BAD(l, v, "a flip card is not double-faced: no 'back' or 'front' with 'flip'");
    if (v->kind == YN_MAP && ymap_get(v, "cost")) return BAD(l, ymap_get(v, "cost"), "the flipped half has the card's mana cost (710.1c): no 'cost'");
    if (v->kind == YN_MAP && ymap_get(v, "colors")) return BAD(l, ymap_get(v, "colors"), "the flipped half has the card's color (710.1c): no 'colors'");
    const char *top = c->name;
    const CardDef *fl = p_card(l, v, 2);
    if (!fl) return NULL;
    c->flip = fl;
    l->card = top;
  }
  if ((v = ymap_get(n, "vanishing")) || (v = ymap_get(n, "fading"))) {
    if (!(c->types & T_PERMANENT)) return BAD(l, v, "vanishing and fading are for permanents");
    if (ymap_get(n, "vanishing") && ymap_get(n, "fading")) return BAD(l, v, "one of vanishing and fading per card");
  }
  if ((v = ymap_get(n, "vanishing"))) {
    /* 702.63a: "This permanent enters with N time counters on it", "At the beginning of your upkeep, if
     * this permanent has a time counter on it, remove a time counter from it" and "When the last time
     * counter is removed from this permanent, sacrifice it"; 702.63b: without N, the last two */
    long x = 0;
    int plain = scalar(v) && !strcmp(scalar(v), "true");
    if (!plain && (ynode_int(l->d, v, &x, l->err) || x < 1 || x > 100))
      return BAD(l, v, "vanishing: the number of time counters (1 to 100), or true for vanishing without a number");
    char y[300];
    if (!plain) {
      snprintf(y, sizeof y, "replacement: {event: enters, self: true, enters_with: {counters: time, n: %ld}}\ntext: Vanishing %ld (702.63a)", x, x);
      if (ab_synth(l, &t, v, y)) return NULL;
    }
    if (ab_synth(l, &t, v, "triggered: {when: {step: upkeep, player: you}, if: {counters: time, on: self, at_least: 1}, "
                          "effect: [{remove_counters: time, n: 1, from: self}]}\ntext: Vanishing (702.63a)")) return NULL;
    if (ab_synth(l, &t, v, "triggered: {when: {counters_removed: {on: self, kind: time, last: true}}, effect: [{sacrifice: self}]}\n"
                          "text: Vanishing (702.63a)")) return NULL;
  }
  if ((v = ymap_get(n, "fading"))) {
    /* 702.32a: "This permanent enters with N fade counters on it" and "At the beginning of your upkeep,
     * remove a fade counter from this permanent. If you can't, sacrifice the permanent." */
    long x;
    if (ynode_int(l->d, v, &x, l->err) || x < 0 || x > 100) return BAD(l, v, "fading: the number of fade counters (0 to 100)");
    char y[300];
    snprintf(y, sizeof y, "replacement: {event: enters, self: true, enters_with: {counters: fade, n: %ld}}\ntext: Fading %ld (702.32a)", x, x);
    if (ab_synth(l, &t, v, y)) return NULL;
    if (ab_synth(l, &t, v, "triggered: {when: {step: upkeep, player: you}, effect: [{if: {counters: fade, on: self, at_least: 1}, "
                          "then: [{remove_counters: fade, n: 1, from: self}], else: [{sacrifice: self}]}]}\ntext: Fading (702.32a)"))
      return NULL;
  }
  if ((v = ymap_get(n, "echo"))) {
    /* 702.30a: "At the beginning of your upkeep, if this permanent came under your control since
     * the beginning of your last upkeep, sacrifice it unless you pay [cost]." */
    ManaCost ec;
    if (!(c->types & T_PERMANENT)) return BAD(l, v, "echo is for permanents (702.30a)");
    if (!scalar(v) || mana_parse(scalar(v), &ec, NULL, NULL, why, sizeof why) || ec.x)
      return BAD(l, v, "echo: expected a mana cost like \"{2}{G}\" (an echo cost that is not mana, or has {X}, is not supported)");
    char y[400];
    snprintf(y, sizeof y, "triggered: {when: {step: upkeep, player: you}, if: new_since_last_upkeep, effect: [{unless: \"%s\", payer: you, "
             "do: [{sacrifice: self}]}]}\ntext: Echo (702.30a)", scalar(v));
    if (ab_synth(l, &t, v, y)) return NULL;
  }
  if ((v = ymap_get(n, "cumulative_upkeep")) && p_cumulative_upkeep(l, v, c, &t)) return NULL;
  if ((v = ymap_get(n, "ward"))) {
    /* 702.21a: "Whenever this permanent becomes the target of a spell or ability an
     * opponent controls, counter that spell or ability unless that player pays [cost]." */
    ManaCost wc;
    if (!scalar(v) || mana_parse(scalar(v), &wc, NULL, NULL, why, sizeof why)) return BAD(l, v, "ward: expected a mana cost like \"{2}\"");
    char y[400];
    snprintf(y, sizeof y, "triggered: {when: {becomes_target: self, by: opponent}, effect: [{unless: \"%s\", payer: triggering_player, "
             "do: [{counter: triggering_spell_or_ability}]}]}\ntext: Ward (702.21a)", scalar(v));
    if (ab_synth(l, &t, v, y)) return NULL;
  }
  if ((v = ymap_get(n, "modal")) && !from_back) {
    /* 712.3: a modal double-faced card: either face may be cast or played */
    if (!c->back) return BAD(l, v, "modal: a modal double-faced card needs its 'back' face");
    if (p_flag_key(l, v, &c->modal)) return NULL;
  }
  if ((v = ymap_get(n, "disturb"))) {
    /* 702.146a: "You may cast this card transformed from your graveyard by
     * paying [cost] rather than its mana cost": the front face of a
     * transforming double-faced card (712.2); its back face says what the
     * permanent does when it would go to a graveyard */
    if (!c->back || c->modal || from_back) return BAD(l, v, "disturb is on the front face of a transforming double-faced card: the card needs its 'back' face, and isn't modal (702.146a, 712.2)");
    if (c->back->types & T_LAND) return BAD(l, v, "disturb: a back face that is a land can't be cast (305.9)");
    CastKw *kw = castkw(l, c);
    if (!kw) return NULL; /* out of memory: the loader reports it */
    if (p_mana_key(l, v, "disturb", &kw->disturb)) return NULL;
    if (kw->disturb.x) return BAD(l, v, "disturb: a disturb cost with {X} is not supported");
    kw->has_disturb = 1;
  }
  if ((v = ymap_get(n, "adventure"))) {
    /* 715.2: an adventurer card: a permanent card with an Adventure, an instant or sorcery with that subtype */
    if (token) return BAD(l, v, "adventure: only a card's definition has an Adventure");
    if (!(c->types & T_PERMANENT)) return BAD(l, v, "adventure: the card with an Adventure is a permanent card (715.2)");
    const CardDef *ad = p_card(l, v, 4);
    if (!ad) return NULL;
    l->card = c->name;
    int sub = 0;
    for (int i = 0; i < ad->nsub; i++) sub |= !strcmp(ad->subtypes[i], "Adventure");
    if (!(ad->types & (T_INSTANT | T_SORCERY)) || !sub)
      return BAD(l, v, "adventure: an instant or sorcery with the subtype Adventure (715.2b: 'Instant — Adventure')");
    c->adventure = ad;
  }
  if ((v = ymap_get(n, "aftermath"))) {
    if (token != 4) return BAD(l, v, "aftermath is a split card's half's (702.127a)");
    if (!(c->types & (T_INSTANT | T_SORCERY))) return BAD(l, v, "aftermath: the half is an instant or sorcery");
    if (p_flag_key(l, v, &c->aftermath)) return NULL;
  }
  if ((v = ymap_get(n, "morph")) || (v = ymap_get(n, "megamorph"))) {
    /* 702.37a-b: a mana cost, or {cost, costs} for one with other parts ("Morph—Discard a Zombie card") */
    static const char *const mk[] = {"cost", "costs", NULL};
    if (ymap_get(n, "morph") && ymap_get(n, "megamorph")) return BAD(l, v, "a card has morph or megamorph, not both");
    if (p_keyword_cost(l, v, ymap_get(n, "morph") ? "morph" : "megamorph", mk, &c->morph)) return NULL;
    c->has_morph = 1;
    c->megamorph = ymap_get(n, "megamorph") != NULL;
  }
  if ((v = ymap_get(n, "alt_cost")) && v->kind == YN_MAP) {
    /* 118.9: "You may pay [cost] rather than pay this spell's mana cost" */
    static const char *const ak[] = {"cost", "costs", "if", NULL};
    if (ymap_check_keys(l->d, v, ak, "alt_cost", l->err)) return NULL;
    if (ymap_get(v, "if") && !(c->alt_if = p_cond(l, ymap_get(v, "if")))) return NULL;
    if (!ymap_get(v, "cost") && !ymap_get(v, "costs")) return BAD(l, v, "alt_cost needs cost (mana) and/or costs (others)");
    if (p_cost(l, ymap_get(v, "cost"), ymap_get(v, "costs"), &c->alt)) return NULL;
    for (int i = 0; i < c->alt.nparts; i++)
      if (c->alt.part[i].kind == CK_TAP || c->alt.part[i].kind == CK_UNTAP || c->alt.part[i].n < 0)
        return BAD(l, v, "alt_cost: a spell's cost has no {T}, {Q} or X part");
    if (c->types & T_LAND) return BAD(l, v, "alt_cost: a land isn't cast");
    c->has_alt = 1;
  } else if (v) {
    if (!scalar(v) || strcmp(scalar(v), "exile_blue_card"))
      return BAD(l, v, "alt_cost: exile_blue_card, or {cost: \"{mana}\", costs: [...]}");
    if (!t.n || t.ab[0].kind != AB_SPELL) return BAD(l, v, "alt_cost: for instants and sorceries (their 'spell')");
    t.ab[0].alt_cost_exile_blue = 1;
  }
  if (c->types & T_VARIANT_CARD) {
    /* 311.4, 314.4, 901.7, 904.8: abilities of planes, phenomena and schemes function
     * from the command zone (while face up) */
    if (c->types & ~T_VARIANT_CARD) return BAD(l, n, "a plane, phenomenon or scheme has no other card type");
    for (int i = 0; i < t.n; i++)
      if (t.ab[i].zone < 0) t.ab[i].zone = MTG_Z_COMMAND;
  }
  if ((c->supers & ST_ONGOING) && !(c->types & T_SCHEME)) return BAD(l, n, "only schemes can be Ongoing (314)");
  /* an object holds MAX_ABS abilities (layer.c ab_add): a card with more is
   * refused here, where its file names it, not cut short in play */
  if (t.n > MAX_ABS) return BAD(l, n, "card '%s' has %d abilities, keywords included; an object holds at most %d", c->name, t.n, MAX_ABS);
  if (t.ab == room) {
    if (!(t.ab = al(l, (size_t)(t.n ? t.n : 1) * sizeof *t.ab))) return NULL;
    memcpy(t.ab, room, (size_t)t.n * sizeof *t.ab);
  }
  def_abilities(c, t.ab, t.n);
  token_copies(c, copies);
  return c;
}

static int load_node(mtg_pool *p, const ydoc *d, const ynode *n, mtg_error *err) {
  int oom = 0;
  L l = {p, d, err, NULL, &oom, 0, 0};
  if (!n) return MTG_OK;
  if (n->kind == YN_SEQ) {
    for (int i = 0; i < n->n; i++) {
      int rc = load_node(p, d, n->items[i], err);
      if (rc) return rc;
    }
    return MTG_OK;
  }
  const CardDef *c = p_card(&l, n, 0);
  if (oom) { /* whatever was found wrong after it, the definition is incomplete */
    ydoc_error(d, n, err, "out of memory");
    if (err) err->status = MTG_ENOMEM;
    return MTG_ENOMEM;
  }
  if (!c) {
    if (err && !err->status) err->status = MTG_EDATA;
    if (err) err->status = err->status == MTG_ENOMEM ? MTG_ENOMEM : MTG_EDATA;
    return err ? err->status : MTG_EDATA;
  }
  /* a modal double-faced card is found by either face's name (712.3) */
  const char *names[2] = {c->name, c->modal && c->back ? c->back->name : NULL};
  for (int j = 0; j < 2; j++) {
    const CardDef *o = names[j] ? pool_find_own(p, names[j]) : NULL;
    if (!o) continue;
    char first[300];
    snprintf(first, sizeof first, "%s:%d", o->file, o->line);
    ydoc_error(d, ymap_get(n, "name"), err, "card '%s' is defined twice (first at %s)", names[j], first);
    return MTG_EDATA;
  }
  /* the text a replay carries for this card (docs/replay-format.md) */
  if (!p->no_texts) {
    char *yaml = yemit_item(n, NULL);
    ((CardDef *)c)->yaml = yaml ? pool_strdup(p, yaml) : NULL;
    free(yaml);
  }
  if ((!p->no_texts && !c->yaml) || pool_add(p, (CardDef *)c)) {
    mtg_error_set(err, MTG_ENOMEM, "out of memory");
    return MTG_ENOMEM;
  }
  return MTG_OK;
}

int mtg_pool_load_node(mtg_pool *p, const struct ydoc *d, const struct ynode *n, mtg_error *err) {
  return load_node(p, d, n, err);
}

static int load_doc(mtg_pool *p, ydoc *d, mtg_error *err) {
  for (int i = 0; i < ydoc_count(d); i++) {
    int rc = load_node(p, d, ydoc_root(d, i), err);
    if (rc) return rc;
  }
  return MTG_OK;
}

int mtg_pool_load_buffer(mtg_pool *p, const char *name, const char *text, size_t len, mtg_error *err) {
  if (!p || !name || (!text && len)) return diag_arg(err, "mtg_pool_load_buffer: the %s is NULL", !p ? "pool" : !name ? "name" : "text");
  if (!text) text = "";
  ydoc *d;
  if (ydoc_parse_buffer(name, text, len, &d, err)) return err ? err->status : MTG_EDATA;
  int rc = load_doc(p, d, err);
  ydoc_free(d);
  return rc;
}

int mtg_pool_max_file_size(mtg_pool *p, size_t bytes, mtg_error *err) {
  if (!p) return diag_arg(err, "mtg_pool_max_file_size: the pool is NULL");
  if (!bytes) return diag_arg(err, "mtg_pool_max_file_size: a size of 0 bytes");
  p->max_file = bytes;
  return MTG_OK;
}

int mtg_pool_load_file(mtg_pool *p, const char *path, mtg_error *err) {
  if (!p || !path) return diag_arg(err, "mtg_pool_load_file: the %s is NULL", !p ? "pool" : "path");
  ydoc *d;
  if (ydoc_parse_file_max(path, p->max_file, &d, err)) return err ? err->status : MTG_EDATA;
  int rc = load_doc(p, d, err);
  ydoc_free(d);
  return rc;
}

/* The pool's files: every *.yaml under dir, subdirectories included, in sorted
 * path order so that loading (and the pool's hash) never depends on the order a
 * file system lists entries (util/walk.h). A symbolic link to a directory is
 * not followed; only regular files are read, anything else is passed over. */
#define POOL_DIR_DEPTH 8

static int want_yaml(const char *name, void *ctx) {
  (void)ctx;
  return walk_has_suffix(name, ".yaml") && strlen(name) > 5;
}

/* A subdirectory that can't be read would leave cards out silently: an error. */
static void pool_dir_skipped(void *ctx, const char *path, walk_skip kind, const char *why) {
  mtg_error *err = ctx;
  if (kind != WALK_UNREADABLE || !err || err->status) return;
  mtg_error_set(err, MTG_EIO, "cannot open card directory: %s", why);
  snprintf(err->file, sizeof err->file, "%s", path);
}

int mtg_pool_load_dir(mtg_pool *p, const char *dir, mtg_error *err) {
  mtg_error local;
  if (!err) err = &local;
  if (!p || !dir) return diag_arg(err, "mtg_pool_load_dir: %s is NULL", !p ? "the pool" : "the directory");
  memset(err, 0, sizeof *err);
  walk_list l = {0};
  walk_opts o = {.want = want_yaml, .skipped = pool_dir_skipped, .ctx = err, .max_depth = POOL_DIR_DEPTH};
  int rc = walk_dir(dir, &o, &l, err);
  if (rc == MTG_EIO) snprintf(err->msg, sizeof err->msg, "cannot open card directory");
  if (!rc && err->status) rc = err->status;
  for (int i = 0; i < l.n && !rc; i++) rc = mtg_pool_load_file(p, l.path[i], err);
  walk_list_free(&l);
  return rc;
}
