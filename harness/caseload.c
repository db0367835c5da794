/* caseload: finding, parsing and checking case files (docs/cases.md). */
#include "caseload.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buf.h"
#include "escape.h"
#include "input.h"
#include "mtg_private.h"
#include "rules.h"
#include "suggest.h"
#include "walk.h"

/* ---- an arena for everything a loaded case points to ---- */

typedef struct arena {
  struct arena *next;
  size_t used, size;
  max_align_t data[];
} arena;


static void *amalloc_in(arena **head, size_t n, size_t chunk) {
  n = (n + 15) & ~(size_t)15;
  arena *a = *head;
  if (!a || a->size - a->used < n) {
    size_t size = n > chunk ? n : chunk;
    a = malloc(sizeof *a + size);
    if (!a) return NULL;
    a->next = *head;
    a->used = 0;
    a->size = size;
    *head = a;
  }
  void *p = (char *)a->data + a->used;
  a->used += n;
  memset(p, 0, n);
  return p;
}

static void *amalloc(arena **head, size_t n) { return amalloc_in(head, n, 65536); }

/* What is kept of a released file's cases stays for the whole run, spread
 * through the heap between later files' short-lived memory: small chunks, so
 * that the heap isn't held apart by mostly empty ones (with 64 KiB chunks the
 * harness's peak memory over cases/ was twice what it is with 4 KiB). */
static void *akeep(arena **head, size_t n) { return amalloc_in(head, n, 4096); }

static void arena_free(arena *a) {
  while (a) {
    arena *n = a->next;
    free(a);
    a = n;
  }
}

/* ---- loader state ---- */

/* Loading records every error it finds and goes on where what follows does
 * not depend on what failed: each header field, each setup entry, each
 * action and each expectation is checked on its own, so that a case
 * document's errors are all reported at once. A function returning -1 has
 * recorded its error (see pushed). */
typedef struct L {
  arena **ar;           /* where what the case points to is allocated */
  const ydoc *d;
  const mtg_pool *base; /* the engine's card pool */
  hcase *hc;
  hfile *f;             /* where errors are recorded */
  /* what failed to load earlier in the case: an unknown name it might have
   * defined is then not reported, since it may be no mistake of its own */
  int partial_cards;    /* the inline cards, or the setup's entries (and so their labels) */
  int partial_players;  /* the setup's players */
  mtg_error err;
} L;

/* A name not found is an error unless what could have defined it failed:
 * -1 then (the name goes unreported), else 0. */
static int unknown(int partial) { return partial ? -1 : 0; }

/* Records l->err as an error of the case being loaded; returns -1. */
static int pushed(L *l) {
  hfile *f = l->f;
  l->hc->nerr++;
  if (f->nerrs >= CASE_MAX_FILE_ERRORS) {
    f->nmore++;
    return -1;
  }
  if (f->nerrs == f->caperrs) {
    int cap = f->caperrs ? 2 * f->caperrs : 4;
    if (cap > CASE_MAX_FILE_ERRORS) cap = CASE_MAX_FILE_ERRORS;
    mtg_error *e = realloc(f->errs, (size_t)cap * sizeof *e);
    if (!e) {
      f->nmore++;
      return -1;
    }
    f->errs = e;
    f->caperrs = cap;
  }
  f->errs[f->nerrs++] = l->err;
  return -1;
}

#define FAIL(l, n, ...) (ydoc_error((l)->d, (n), &(l)->err, __VA_ARGS__), pushed(l))
#define NEW(l, T, k) ((T *)amalloc((l)->ar, sizeof(T) * (size_t)((k) > 0 ? (k) : 1)))

static const mtg_pool *pool_of(const L *l) { return l->hc->pool ? l->hc->pool : l->base; }

static int oom(L *l, const ynode *n) { return FAIL(l, n, "out of memory"); }

/* Every key of mapping m must be one of `allowed`: each unknown key is an
 * error of its own (with "did you mean"), and the known ones are still read.
 * -1 only when m is not a mapping. */
static int keys(L *l, const ynode *m, const char *const *allowed, const char *what) {
  if (!m || m->kind != YN_MAP) return ymap_check_keys(l->d, m, allowed, what, &l->err) ? pushed(l) : 0;
  for (int i = 0; i < m->n; i++) {
    ynode one = *m;
    one.n = 1;
    one.items = m->items + 2 * i;
    if (ymap_check_keys(l->d, &one, allowed, what, &l->err)) pushed(l);
  }
  return 0;
}

static int get_str(L *l, const ynode *n, const char **out) { return ynode_str(l->d, n, out, &l->err) ? pushed(l) : 0; }

static int get_int(L *l, const ynode *n, int lo, int hi, int *out) {
  long v;
  if (ynode_int(l->d, n, &v, &l->err)) return pushed(l);
  if (v < lo || v > hi) return FAIL(l, n, "%ld is out of range (%d to %d)", v, lo, hi);
  *out = (int)v;
  return 0;
}

static int get_bool(L *l, const ynode *n, int *out) { return ynode_bool(l->d, n, out, &l->err) ? pushed(l) : 0; }

static int want_seq(L *l, const ynode *n, const char *what) {
  if (!n || n->kind != YN_SEQ) return FAIL(l, n, "%s must be a list, found %s", what, ynode_kind_name(n));
  return 0;
}

static int want_map(L *l, const ynode *n, const char *what) {
  if (!n || n->kind != YN_MAP) return FAIL(l, n, "%s must be a mapping, found %s", what, ynode_kind_name(n));
  return 0;
}

/* A scalar or a list of scalars, as an array of strings. */
static int str_list(L *l, const ynode *n, const char ***out, int *cnt, const char *what) {
  if (n->kind == YN_SCALAR) {
    *out = NEW(l, const char *, 1);
    if (!*out) return oom(l, n);
    (*out)[0] = n->str;
    *cnt = 1;
    return 0;
  }
  if (want_seq(l, n, what)) return -1;
  *out = NEW(l, const char *, n->n);
  if (!*out) return oom(l, n);
  for (int i = 0; i < n->n; i++)
    if (get_str(l, n->items[i], &(*out)[i])) return -1;
  *cnt = n->n;
  return 0;
}

static const char *const zone_keys[] = {"library", "hand", "battlefield", "graveyard", "exile", "command", NULL};

static int zone_of(const char *k) {
  for (int i = 0; zone_keys[i]; i++)
    if (ystr_is(k, zone_keys[i])) return mtg_zone_parse(k);
  return -1;
}

static int player_index(L *l, const ynode *n, int *out) {
  const char *s;
  if (get_str(l, n, &s)) return -1;
  for (int p = 0; p < l->hc->nplayers; p++)
    if (!strcmp(l->hc->players[p], s)) {
      *out = p;
      return 0;
    }
  if (unknown(l->partial_players)) return -1;
  const char *best = suggest_best(s, l->hc->players, l->hc->nplayers);
  if (best) return FAIL(l, n, "unknown player '%s'; did you mean '%s'?", s, best);
  char list[200];
  suggest_join(l->hc->players, l->hc->nplayers, list, sizeof list);
  return FAIL(l, n, "unknown player '%s'; the players are %s", s, list);
}

static int step_index(L *l, const ynode *n, int *out) {
  const char *s;
  if (get_str(l, n, &s)) return -1;
  int st = mtg_step_parse(s);
  if (st >= 0) {
    *out = st;
    return 0;
  }
  const char *names[MTG_S_COUNT];
  for (int i = 0; i < MTG_S_COUNT; i++) names[i] = mtg_step_name(i);
  const char *best = suggest_best(s, names, MTG_S_COUNT);
  if (best) return FAIL(l, n, "unknown step '%s'; did you mean '%s'?", s, best);
  char list[300];
  suggest_join(names, MTG_S_COUNT, list, sizeof list);
  return FAIL(l, n, "unknown step '%s'; the steps are %s", s, list);
}

const hlabel *case_label(const hcase *hc, const char *name) {
  for (int i = 0; i < hc->nlabels; i++)
    if (!strcmp(hc->labels[i].name, name)) return &hc->labels[i];
  return NULL;
}

/* A card the script names: a card of the case's pool or a setup label. */
static int check_card_ref(L *l, const ynode *n, const char *s) {
  if (case_label(l->hc, s) || mtg_pool_has(pool_of(l), s) || mtg_pool_has_token(pool_of(l), s) || strchr(s, '#')) return 0;
  if (unknown(l->partial_cards)) return -1;
  char sug[300];
  mtg_pool_suggest(pool_of(l), s, sug, sizeof sug);
  for (int i = 0; i < l->hc->nlabels && !sug[0]; i++)
    if (suggest_distance(s, l->hc->labels[i].name) <= 2) snprintf(sug, sizeof sug, "%s", l->hc->labels[i].name);
  if (sug[0]) return FAIL(l, n, "unknown card '%s'; did you mean %s?", s, sug);
  return FAIL(l, n, "unknown card '%s' (not in the card pool, not a label)", s);
}

/* ---- header ---- */

static int is_id_char(char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' ||
         ch == '.';
}

/* One rule number of `rules:`, checked against the index. */
static int rule_number(L *l, const ynode *r, const char **out) {
  const char *s;
  if (get_str(l, r, &s)) return -1;
  if (!r->quoted)
    return FAIL(l, r, "rule numbers are quoted strings (\"%s\"): YAML reads 603.10 as the number 603.1", s);
  if (rules_find(s) < 0) {
    int idx[4];
    int k = rules_alias(s, idx, 4);
    const char *removed = rules_removed_note(s);
    if (k) {
      char cur[64] = "";
      for (int j = 0; j < k; j++) {
        size_t u = strlen(cur);
        snprintf(cur + u, sizeof cur - u, "%s%s", j ? ", " : "", rules_table[idx[j]].num);
      }
      return FAIL(l, r, "'%s' is an older (seed) rule number; the current rule is %s", s, cur);
    }
    if (removed) return FAIL(l, r, "rule %s is no longer in the rules (%s)", s, removed);
    char sug[64];
    rules_suggest(s, sug, sizeof sug);
    if (sug[0]) return FAIL(l, r, "unknown rule number '%s'; nearest rules: %s", s, sug);
    return FAIL(l, r, "unknown rule number '%s' (not in the rules index, cases/rules.yaml)", s);
  }
  *out = s;
  return 0;
}

static int load_rules(L *l, const ynode *n) {
  hcase *hc = l->hc;
  if (want_seq(l, n, "rules")) return -1;
  if (!n->n) return FAIL(l, n, "rules must list at least one rule number");
  hc->rules = NEW(l, const char *, n->n);
  hc->rule_at = NEW(l, const ynode *, n->n);
  if (!hc->rules || !hc->rule_at) return oom(l, n);
  for (int i = 0; i < n->n; i++) {
    const ynode *r = n->items[i];
    const char *s = NULL;
    if (rule_number(l, r, &s)) continue;
    int twice = 0;
    for (int j = 0; j < hc->nrules && !twice; j++) twice = !strcmp(hc->rules[j], s);
    if (twice) {
      FAIL(l, r, "rule %s is listed twice", s);
      continue;
    }
    hc->rule_at[hc->nrules] = r;
    hc->rules[hc->nrules++] = s;
  }
  return 0;
}

/* ---- setup ---- */

/* A reference to a label, resolved once every entry is read (a label may name
 * an entry listed later): attached_to, or exiled_with and its link. */
typedef struct pending_ref {
  int entry;
  const ynode *to;
  const char *link; /* exiled_with: the label of the exiler's linked ability; NULL for attached_to */
} pending_ref;

static int add_label(L *l, const ynode *n, const char *card, int entry) {
  hcase *hc = l->hc;
  const char *s;
  if (get_str(l, n, &s)) return -1;
  if (!*s) return FAIL(l, n, "a label can't be empty");
  for (int p = 0; p < hc->nplayers; p++)
    if (!strcmp(hc->players[p], s)) return FAIL(l, n, "label '%s' is also a player's name", s);
  const hlabel *old = case_label(hc, s);
  if (old) return FAIL(l, n, "label '%s' is already used (line %d)", s, old->at->line);
  hlabel *lb = &hc->labels[hc->nlabels++];
  lb->name = s;
  lb->card = card;
  lb->entry = entry;
  lb->at = n;
  return 0;
}

/* The label named by n, or a located error ("KEY: no WHAT is labelled ...")
 * suggesting the nearest label. */
static int find_label(L *l, const ynode *n, const char *key, const char *what, const hlabel **out) {
  hcase *hc = l->hc;
  const char *s;
  if (n->kind != YN_SCALAR) return FAIL(l, n, "%s names a label, found %s", key, ynode_kind_name(n));
  if (get_str(l, n, &s)) return -1;
  if ((*out = case_label(hc, s))) return 0;
  if (unknown(l->partial_cards)) return -1;
  if (!hc->nlabels) return FAIL(l, n, "%s: no %s is labelled '%s' (the setup has no labels)", key, what, s);
  const char **names = NEW(l, const char *, hc->nlabels);
  if (!names) return oom(l, n);
  for (int i = 0; i < hc->nlabels; i++) names[i] = hc->labels[i].name;
  const char *best = suggest_best(s, names, hc->nlabels);
  if (best) return FAIL(l, n, "%s: no %s is labelled '%s'; did you mean '%s'?", key, what, s, best);
  char list[300];
  suggest_join(names, hc->nlabels, list, sizeof list);
  return FAIL(l, n, "%s: no %s is labelled '%s'; the labels are %s", key, what, s, list);
}

static int counters_map(L *l, const ynode *n, hcountx **out, int *cnt, const char *what) {
  if (want_map(l, n, what)) return -1;
  *out = NEW(l, hcountx, n->n);
  if (!*out) return oom(l, n);
  for (int i = 0; i < n->n; i++) {
    hcountx *c = &(*out)[i];
    c->at = ymap_key(n, i);
    if (get_str(l, ymap_key(n, i), &c->kind)) return -1;
    if (get_int(l, ymap_val(n, i), 0, 2147483647, &c->n)) return -1;
  }
  *cnt = n->n;
  return 0;
}

/* A name from a fixed list (NULL-terminated), with "did you mean" or the list. */
static int get_name(L *l, const ynode *n, const char *const *names, const char *what, const char *rule, const char **out) {
  if (get_str(l, n, out)) return -1;
  for (int i = 0; names[i]; i++)
    if (!strcmp(names[i], *out)) return 0;
  const char *best = suggest_best(*out, names, -1);
  if (best) return FAIL(l, n, "unknown %s '%s'; did you mean '%s'?", what, *out, best);
  char list[200];
  suggest_join(names, -1, list, sizeof list);
  return FAIL(l, n, "unknown %s '%s'; the %ss are %s (%s)", what, *out, what, list, rule);
}

static const char *const sector_names[] = {"alpha", "beta", "gamma", NULL};
static const char *const variant_names[] = {"two_headed_giant", "commander", "archenemy", "planechase", NULL};

/* The keys of a zone entry and the zones each is for (bit 1 << zone). */
#define ZBIT(z) (1u << (z))
#define ZANY 0xffu
#define ZBF ZBIT(MTG_Z_BATTLEFIELD)
static const struct entry_key {
  const char *key;
  unsigned zones;
  const char *where; /* for messages: the zones it is for */
} entry_keys[] = {
    {"card", ZANY, NULL},
    {"label", ZANY, NULL},
    {"counters", ZANY, NULL},
    {"choices", ZANY, NULL},
    {"copies", ZANY, NULL},
    {"commander", ZANY, NULL},
    {"tapped", ZBF, "battlefield"},
    {"sick", ZBF, "battlefield"},
    {"damage", ZBF, "battlefield"},
    {"controller", ZBF, "battlefield"},
    {"attached_to", ZBF, "battlefield"},
    {"attached_to_player", ZBF, "battlefield"},
    {"face_down", ZBF | ZBIT(MTG_Z_COMMAND), "battlefield and command"},
    {"transformed", ZBF, "battlefield"},
    {"token", ZBF, "battlefield"},
    {"protector", ZBF, "battlefield"},
    {"sector", ZBF, "battlefield"},
    {"room", ZBIT(MTG_Z_COMMAND), "command"},
    {"exiled_with", ZBIT(MTG_Z_EXILE), "exile"},
    {"link", ZBIT(MTG_Z_EXILE), "exile"},
};
#define NENTRY_KEYS ((int)(sizeof entry_keys / sizeof entry_keys[0]))

/* The keys of an entry of `zone`: a key of another zone's entries says where
 * it belongs. -1 (every error recorded) when any key is wrong. */
static int entry_keys_check(L *l, int zone, const ynode *n) {
  const char *allowed[NENTRY_KEYS + 1];
  int na = 0, before = l->hc->nerr;
  for (int i = 0; i < NENTRY_KEYS; i++) allowed[na++] = entry_keys[i].key;
  allowed[na] = NULL;
  for (int k = 0; k < n->n; k++) {
    const ynode *key = ymap_key(n, k);
    if (key->kind != YN_SCALAR) continue;
    for (int i = 0; i < NENTRY_KEYS; i++)
      if (ystr_is(key->str, entry_keys[i].key) && !(entry_keys[i].zones >> zone & 1))
        FAIL(l, key, "'%s' is for %s entries only, not %s", key->str, entry_keys[i].where, mtg_zone_name(zone));
  }
  /* with every entry key allowed, so that a key of another zone is not reported twice */
  keys(l, n, allowed, zone == MTG_Z_BATTLEFIELD ? "a battlefield entry" : "a card entry");
  return l->hc->nerr > before ? -1 : 0;
}

static int setup_entry(L *l, int player, int zone, const ynode *n, pending_ref *pend, int *npend) {
  hcase *hc = l->hc;
  const ynode *cardn = n, *exw = NULL, *lk = NULL;
  const char *link = NULL;
  if (n->kind == YN_MAP) {
    if (entry_keys_check(l, zone, n)) return -1;
    cardn = ymap_get(n, "card");
    if (!cardn) return FAIL(l, n, "a card entry needs 'card' (the card's name)");
    exw = ymap_get(n, "exiled_with");
    lk = ymap_get(n, "link");
    if (exw && !lk)
      return FAIL(l, exw, "exiled_with needs 'link': the label of the exiling card's linked ability (607.2a)");
    if (lk && !exw) return FAIL(l, lk, "'link' goes with 'exiled_with' (the entry that exiled this card)");
    if (exw && exw->kind != YN_SCALAR) return FAIL(l, exw, "exiled_with names a label, found %s", ynode_kind_name(exw));
    if (lk && get_str(l, lk, &link)) return -1;
    if (link && (!*link || strlen(link) >= 24))
      return FAIL(l, lk, "a link is the label of an ability of the exiling card, 1 to 23 characters");
  }
  const char *name;
  if (get_str(l, cardn, &name)) return -1;
  int copies = 1;
  const ynode *cp = n->kind == YN_MAP ? ymap_get(n, "copies") : NULL;
  if (cp && get_int(l, cp, 1, 200, &copies)) return -1;
  if (cp && ymap_get(n, "label")) return FAIL(l, cp, "'copies' and 'label' don't go together: a label names one card");
  for (int k = 0; k < copies; k++) {
    mtg_error e;
    int entry = mtg_setup_card(hc->setup, player, zone, name, &e);
    if (entry < 0 && !mtg_pool_has(pool_of(l), name) && unknown(l->partial_cards)) return -1;
    if (entry < 0) return FAIL(l, cardn, "%s", e.msg);
    if (n->kind != YN_MAP) continue;
    int is_commander = 0;
    for (int i = 0; i < n->n; i++) {
      const char *key = ymap_key(n, i)->str;
      const ynode *v = ymap_val(n, i);
      int rc = 0, iv;
      if (ystr_is(key, "label")) {
        if (add_label(l, v, name, entry)) return -1;
      } else if (ystr_is(key, "tapped")) {
        if (get_bool(l, v, &iv)) return -1;
        rc = mtg_setup_tapped(hc->setup, entry, iv);
      } else if (ystr_is(key, "sick")) {
        if (get_bool(l, v, &iv)) return -1;
        rc = mtg_setup_sick(hc->setup, entry, iv);
      } else if (ystr_is(key, "damage")) {
        if (get_int(l, v, 0, 2147483647, &iv)) return -1;
        rc = mtg_setup_damage(hc->setup, entry, iv);
      } else if (ystr_is(key, "controller")) {
        if (player_index(l, v, &iv)) return -1;
        rc = mtg_setup_controller(hc->setup, entry, iv);
      } else if (ystr_is(key, "attached_to_player")) {
        if (player_index(l, v, &iv)) return -1;
        rc = mtg_setup_attach_player(hc->setup, entry, iv);
      } else if (ystr_is(key, "attached_to")) {
        if (v->kind != YN_SCALAR) return FAIL(l, v, "attached_to names a label, found %s", ynode_kind_name(v));
        pend[*npend].entry = entry;
        pend[*npend].link = NULL;
        pend[(*npend)++].to = v;
      } else if (ystr_is(key, "exiled_with")) {
        pend[*npend].entry = entry;
        pend[*npend].link = link;
        pend[(*npend)++].to = v;
      } else if (ystr_is(key, "counters")) {
        hcountx *c;
        int nc;
        if (counters_map(l, v, &c, &nc, "counters")) return -1;
        for (int j = 0; j < nc && !rc; j++) {
          rc = mtg_setup_counters(hc->setup, entry, c[j].kind, c[j].n);
          if (rc) return FAIL(l, c[j].at, "can't put counters '%s' here: %s", c[j].kind, mtg_setup_error(hc->setup));
        }
      } else if (ystr_is(key, "choices")) {
        if (want_map(l, v, "choices")) return -1;
        for (int j = 0; j < v->n; j++) {
          const char *ck, *cv;
          if (get_str(l, ymap_key(v, j), &ck) || get_str(l, ymap_val(v, j), &cv)) return -1;
          if (mtg_setup_choice(hc->setup, entry, ck, cv))
            return FAIL(l, ymap_key(v, j), "can't record choice '%s': %s", ck, mtg_setup_error(hc->setup));
        }
      } else if (ystr_is(key, "face_down")) {
        if (get_bool(l, v, &iv)) return -1;
        rc = mtg_setup_face_down(hc->setup, entry, iv);
      } else if (ystr_is(key, "transformed")) {
        if (get_bool(l, v, &iv)) return -1;
        if (mtg_setup_transformed(hc->setup, entry, iv))
          return FAIL(l, v, "'%s' has no back face: only a double-faced card can be transformed (701.27a)", name);
      } else if (ystr_is(key, "token")) {
        if (get_bool(l, v, &iv)) return -1;
        if (mtg_setup_token(hc->setup, entry, iv)) return FAIL(l, v, "%s", mtg_setup_error(hc->setup));
      } else if (ystr_is(key, "protector")) {
        if (player_index(l, v, &iv)) return -1;
        if (mtg_setup_protector(hc->setup, entry, iv))
          return FAIL(l, v, "'%s' is not a battle: only a battle has a protector (310.8)", name);
      } else if (ystr_is(key, "sector")) {
        const char *sec;
        if (get_name(l, v, sector_names, "sector", "702.158b", &sec)) return -1;
        rc = mtg_setup_sector(hc->setup, entry, sec);
      } else if (ystr_is(key, "room")) {
        const char *room;
        if (get_str(l, v, &room)) return -1;
        if (mtg_setup_room(hc->setup, entry, room))
          return FAIL(l, v, "room '%s': '%s' is not a dungeon card with a room of that name (309.4)", room, name);
      } else if (ystr_is(key, "commander")) {
        if (get_bool(l, v, &is_commander)) return -1;
        rc = is_commander ? mtg_setup_commander(hc->setup, entry) : 0;
        if (rc == MTG_EDATA) return FAIL(l, v, "%s", mtg_setup_error(hc->setup));
        if (rc == MTG_ELIMIT) return FAIL(l, v, "too many commanders in the setup");
      }
      if (rc) return FAIL(l, v, "the engine refused '%s' for this card: %s", key, mtg_setup_error(hc->setup));
    }
    for (int j = 0; is_commander && j < hc->nlabels; j++)
      if (hc->labels[j].entry == entry) hc->labels[j].commander = 1;
  }
  return 0;
}

/* Zone entries of the players, copies counted: the most labels and pending
 * references the setup can make. */
static int count_entries(const ynode *players) {
  int n = 0;
  for (int i = 0; i < players->n; i++) {
    const ynode *p = players->items[i];
    if (p->kind != YN_MAP) continue;
    for (int k = 0; k < p->n; k++) {
      const ynode *v = ymap_val(p, k);
      if (v->kind != YN_SEQ) continue;
      for (int j = 0; j < v->n; j++) {
        const ynode *cp = v->items[j]->kind == YN_MAP ? ymap_get(v->items[j], "copies") : NULL;
        long c = 1;
        if (cp && cp->kind == YN_SCALAR) {
          char *end;
          c = strtol(cp->str, &end, 10);
          if (*end || c < 1 || c > 200) c = 1; /* refused when the entry is read */
        }
        n += (int)c;
      }
    }
  }
  return n;
}

/* The setup's variants; *thg is set when Two-Headed Giant is one of them. */
static int load_variants(L *l, const ynode *n, int *thg) {
  if (want_seq(l, n, "variants")) return -1;
  for (int i = 0; i < n->n; i++) {
    const char *s;
    if (get_name(l, n->items[i], variant_names, "variant", "704.6", &s)) return -1;
    for (int j = 0; j < i; j++)
      if (!strcmp(n->items[j]->str, s)) return FAIL(l, n->items[i], "variant '%s' is listed twice", s);
    if (mtg_setup_variant(l->hc->setup, s)) return FAIL(l, n->items[i], "the engine refused variant '%s'", s);
    *thg |= ystr_is(s, "two_headed_giant");
  }
  return 0;
}

static int load_setup(L *l, const ynode *n) {
  static const char *const setup_keys[] = {"players", "active", "turn", "step", "seed", "max_turns", "variants",
                                           "budget", "search_budget", NULL};
  static const char *const player_keys[] = {"name", "life", "poison", "counters", "lands_played", "mana", "team", "outside",
                                            "commander_damage", "library", "hand", "battlefield", "graveyard", "exile",
                                            "command", NULL};
  hcase *hc = l->hc;
  if (keys(l, n, setup_keys, "setup")) return -1;
  const ynode *players = ymap_get(n, "players");
  if (!players) return FAIL(l, n, "setup needs 'players' (2 to 4)");
  if (want_seq(l, players, "players")) return -1;
  if (players->n < 2 || players->n > 4) return FAIL(l, players, "a game has 2 to 4 players, found %d", players->n);
  hc->setup = mtg_setup_new(pool_of(l));
  if (!hc->setup) return oom(l, n);
  int life[4], poison[4];
  /* players first: cards refer to them (controller, attached_to_player) */
  for (int i = 0; i < players->n; i++) {
    const ynode *p = players->items[i];
    if (keys(l, p, player_keys, "a player")) return -1;
    const ynode *nm = ymap_get(p, "name");
    if (!nm) return FAIL(l, p, "a player needs a 'name'");
    const char *name;
    life[i] = 20;
    poison[i] = 0;
    if (get_str(l, nm, &name)) return -1;
    if (ymap_get(p, "life") && get_int(l, ymap_get(p, "life"), -2147483647, 2147483647, &life[i])) return -1;
    if (ymap_get(p, "poison") && get_int(l, ymap_get(p, "poison"), 0, 2147483647, &poison[i])) return -1;
    for (int q = 0; q < i; q++)
      if (!strcmp(hc->players[q], name)) return FAIL(l, nm, "two players are named '%s'", name);
    if (mtg_setup_player(hc->setup, name, life[i], poison[i]) < 0)
      return FAIL(l, nm, "bad player name '%s' (letters, digits, '_' and '-', under 32 characters)", name);
    hc->players[hc->nplayers++] = name;
  }
  int nent = count_entries(players);
  hc->labels = NEW(l, hlabel, nent);
  pending_ref *pend = NEW(l, pending_ref, nent);
  if (!hc->labels || !pend) return oom(l, n);
  int npend = 0, team[4] = {0}, bad = 0;
  const ynode *team_at[4] = {NULL}, *cdmg[4] = {NULL};
  /* each entry and player field on its own: all their errors are reported */
  for (int i = 0; i < players->n; i++) {
    const ynode *p = players->items[i];
    for (int k = 0; k < p->n; k++) {
      const char *key = ymap_key(p, k)->str;
      const ynode *v = ymap_val(p, k);
      int zone = zone_of(key), iv;
      if (zone >= 0) {
        if (want_seq(l, v, key)) {
          bad++;
          continue;
        }
        for (int j = 0; j < v->n; j++) bad += setup_entry(l, i, zone, v->items[j], pend, &npend) != 0;
      } else if (ystr_is(key, "counters")) {
        hcountx *c;
        int nc;
        if (counters_map(l, v, &c, &nc, "counters")) {
          bad++;
          continue;
        }
        for (int j = 0; j < nc; j++)
          if (mtg_setup_player_counters(hc->setup, i, c[j].kind, c[j].n))
            bad += FAIL(l, c[j].at, "can't give the player counters '%s': %s", c[j].kind, mtg_setup_error(hc->setup)) != 0;
      } else if (ystr_is(key, "lands_played")) {
        if (get_int(l, v, 0, 100, &iv)) bad++;
        else mtg_setup_lands_played(hc->setup, i, iv);
      } else if (ystr_is(key, "mana")) {
        /* mana already in the pool (106.4): "{R}{R}{G}" */
        const char *m;
        if (get_str(l, v, &m)) bad++;
        else if (mtg_setup_mana(hc->setup, i, m)) bad += FAIL(l, v, "%s", mtg_setup_error(hc->setup)) != 0;
      } else if (ystr_is(key, "team")) {
        if (get_int(l, v, 0, 4, &team[i])) {
          bad++;
          continue;
        }
        team_at[i] = v;
        mtg_setup_team(hc->setup, i, team[i]);
      } else if (ystr_is(key, "outside")) {
        if (want_seq(l, v, "outside (card names)")) {
          bad++;
          continue;
        }
        for (int j = 0; j < v->n; j++) {
          const char *card;
          mtg_error e;
          if (get_str(l, v->items[j], &card)) bad++;
          else if (mtg_setup_outside(hc->setup, i, card, &e)) bad += FAIL(l, v->items[j], "%s", e.msg) != 0;
        }
      } else if (ystr_is(key, "commander_damage")) {
        if (want_map(l, v, "commander_damage (commander label: damage)")) bad++;
        else cdmg[i] = v; /* after every entry: the label may come later */
      }
    }
  }
  /* the references to labels need every labelled entry */
  if (bad) return -1;
  for (int i = 0; i < npend; i++) {
    const hlabel *lb;
    if (!pend[i].link) {
      if (find_label(l, pend[i].to, "attached_to", "battlefield entry", &lb)) return -1;
      if (mtg_setup_attach(hc->setup, pend[i].entry, lb->entry))
        return FAIL(l, pend[i].to, "a card can't be attached to itself");
    } else {
      if (find_label(l, pend[i].to, "exiled_with", "entry", &lb)) return -1;
      if (lb->entry == pend[i].entry) return FAIL(l, pend[i].to, "a card can't be exiled with itself");
      if (mtg_setup_exiled_with(hc->setup, pend[i].entry, lb->entry, pend[i].link))
        return FAIL(l, pend[i].to, "the engine refused 'exiled_with' for this card");
    }
  }
  for (int i = 0; i < players->n; i++) {
    for (int k = 0; cdmg[i] && k < cdmg[i]->n; k++) {
      const ynode *key = ymap_key(cdmg[i], k);
      const hlabel *lb;
      int dmg;
      if (find_label(l, key, "commander_damage", "entry", &lb)) return -1;
      if (!lb->commander)
        return FAIL(l, key, "commander_damage: '%s' is not a commander (give its entry 'commander: true', 903.3)", lb->name);
      if (get_int(l, ymap_val(cdmg[i], k), 0, 2147483647, &dmg)) return -1;
      if (mtg_setup_commander_damage(hc->setup, i, lb->entry, dmg))
        return FAIL(l, key, "the engine refused commander damage from '%s'", lb->name);
    }
  }
  const ynode *v;
  int thg = 0;
  if ((v = ymap_get(n, "variants")) && load_variants(l, v, &thg)) return -1;
  /* 810.4, 810.10: in Two-Headed Giant teammates share one life total and their poison counters */
  for (int i = 0; thg && i < players->n; i++)
    for (int j = 0; j < i; j++)
      if (team[i] && team[i] == team[j] && (life[i] != life[j] || poison[i] != poison[j])) {
        const ynode *at = ymap_get(players->items[i], life[i] != life[j] ? "life" : "poison");
        return FAIL(l, at ? at : team_at[i],
                    "teammates %s and %s share a life total and poison counters in Two-Headed Giant (810.4, 810.10): "
                    "give them the same life and poison",
                    hc->players[j], hc->players[i]);
      }
  int active = 0, turn = 1, step = MTG_S_MAIN1, seed = 1, max_turns = 0;
  if ((v = ymap_get(n, "active")) && player_index(l, v, &active)) return -1;
  if ((v = ymap_get(n, "turn")) && get_int(l, v, 1, 2147483647, &turn)) return -1;
  if ((v = ymap_get(n, "step")) && step_index(l, v, &step)) return -1;
  if ((v = ymap_get(n, "seed")) && get_int(l, v, 0, 2000000000, &seed)) return -1;
  if ((v = ymap_get(n, "max_turns")) && get_int(l, v, 1, 2147483647, &max_turns)) return -1;
  int budget = CASE_WORK_BUDGET;
  if ((v = ymap_get(n, "budget")) && get_int(l, v, 1, 100000000, &budget)) return -1;
  mtg_setup_work_budget(hc->setup, budget);
  int search = 0;
  if ((v = ymap_get(n, "search_budget")) && get_int(l, v, 1, 2000000000, &search)) return -1;
  mtg_setup_search_budget(hc->setup, search);
  mtg_setup_seed(hc->setup, (uint64_t)seed);
  mtg_setup_start(hc->setup, active, turn, step);
  if (max_turns) mtg_setup_max_turns(hc->setup, max_turns);
  hc->start_turn = turn;
  return 0;
}

/* ---- actions ---- */

static const char *const act_keys[A_COUNT] = {
    "cast",   "activate", "play",        "pass",          "turn_face_up", "foretell", "suspend", "attack", "block",   "advance", "resolve",
    "check",  "target",
    "mode",   "x",        "number",      "may",           "replacement", "trigger_order", "order", "choose",
    "choose_player", "color", "name", "word", "damage", "cost", "divide"};

const char *act_name(int kind) { return kind >= 0 && kind < A_COUNT ? act_keys[kind] : "?"; }

static int load_action(L *l, const ynode *n, hact *a, int nested);

/* "A", "A -> B" or {A: B}: a pair for attack and block lists */
static int pair_item(L *l, const ynode *n, const char **first, const char **second) {
  if (n->kind == YN_MAP) {
    if (n->n != 1) return FAIL(l, n, "write one pair per item: {attacker: defender} or \"attacker -> defender\"");
    if (get_str(l, ymap_key(n, 0), first) || get_str(l, ymap_val(n, 0), second)) return -1;
    return 0;
  }
  const char *s;
  if (get_str(l, n, &s)) return -1;
  const char *arrow = strstr(s, " -> ");
  if (!arrow) {
    *first = s;
    *second = NULL;
    return 0;
  }
  size_t k = (size_t)(arrow - s);
  char *a = amalloc(l->ar, k + 1);
  if (!a) return oom(l, n);
  memcpy(a, s, k);
  *first = a;
  *second = arrow + 4;
  return 0;
}

static int int_list(L *l, const ynode *n, int lo, int hi, int **out, int *cnt) {
  int k = n->kind == YN_SEQ ? n->n : 1;
  *out = NEW(l, int, k);
  if (!*out) return oom(l, n);
  for (int i = 0; i < k; i++)
    if (get_int(l, n->kind == YN_SEQ ? n->items[i] : n, lo, hi, &(*out)[i])) return -1;
  *cnt = k;
  return 0;
}

static int load_check(L *l, hact *a, const ynode *v);
static int case_checks(const hcase *hc);

static int action_value(L *l, hact *a, const ynode *v) {
  switch (a->kind) {
  case A_CHECK:
    return load_check(l, a, v);
  case A_CAST:
  case A_ACTIVATE:
  case A_PLAY:
  case A_TURN_FACE_UP:
  case A_FORETELL:
  case A_SUSPEND:
    if (get_str(l, v, &a->obj)) return -1;
    return check_card_ref(l, v, a->obj);
  case A_PASS: {
    int yes;
    if (get_bool(l, v, &yes)) return -1;
    if (!yes) return FAIL(l, v, "'pass: false' means nothing; leave the action out");
    return 0;
  }
  case A_ADVANCE:
    return step_index(l, v, &a->step);
  case A_RESOLVE: {
    int yes;
    if (get_bool(l, v, &yes)) return -1;
    if (!yes) return FAIL(l, v, "'resolve: false' means nothing; leave the action out");
    return 0;
  }
  case A_ATTACK:
  case A_BLOCK:
    if (want_seq(l, v, a->kind == A_ATTACK ? "attack" : "block")) return -1;
    a->items = NEW(l, const char *, 2 * v->n);
    if (!a->items) return oom(l, v);
    for (int i = 0; i < v->n; i++)
      if (pair_item(l, v->items[i], &a->items[2 * i], &a->items[2 * i + 1])) return -1;
    a->nitems = 2 * v->n;
    return 0;
  case A_MODE:
    return int_list(l, v, 1, 32, &a->nums, &a->nnums);
  case A_X:
  case A_NUMBER:
    return int_list(l, v, -1000, 100000, &a->nums, &a->nnums) || (a->nnums != 1 ? FAIL(l, v, "one number") : 0);
  case A_MAY:
    a->nums = NEW(l, int, 1);
    if (!a->nums) return oom(l, v);
    a->nnums = 1;
    return get_bool(l, v, &a->nums[0]);
  case A_DAMAGE:
  case A_DIVIDE:
    if (want_map(l, v, a->kind == A_DAMAGE ? "damage (recipient: amount)" : "divide (target: amount)")) return -1;
    a->items = NEW(l, const char *, v->n);
    a->nums = NEW(l, int, v->n);
    if (!a->items || !a->nums) return oom(l, v);
    for (int i = 0; i < v->n; i++)
      if (get_str(l, ymap_key(v, i), &a->items[i]) || get_int(l, ymap_val(v, i), 0, 100000, &a->nums[i])) return -1;
    a->nitems = a->nnums = v->n;
    return 0;
  case A_TARGET:
  case A_CHOOSE:
  case A_COST:
  case A_TRIGGER_ORDER:
  case A_ORDER:
    if (v->kind == YN_SEQ && !v->n) return 0; /* no pick */
    return str_list(l, v, &a->items, &a->nitems, act_keys[a->kind]);
  default: /* one name: replacement, choose_player, color, name, word */
    a->items = NEW(l, const char *, 1);
    if (!a->items) return oom(l, v);
    a->nitems = 1;
    return get_str(l, v, &a->items[0]);
  }
}

/* keys allowed beside the action key */
static const char *const *extra_keys(int kind, int nested) {
  static const char *const spell[] = {"player", "refused", "targets", "mode", "modes", "x", "then", "from", "face_down", "face", NULL};
  static const char *const land[] = {"player", "refused", "face", NULL};
  static const char *const ability[] = {"player", "refused", "targets", "mode", "modes", "x", "then", "ability", NULL};
  static const char *const adv[] = {"player", "refused", "turn", NULL};
  static const char *const plain[] = {"player", "refused", NULL};
  static const char *const none[] = {NULL};
  if (kind == A_CHECK) return none;
  static const char *const sub[] = {"player", NULL};
  if (nested) return sub;
  if (kind == A_CAST) return spell;
  if (kind == A_ACTIVATE) return ability;
  if (kind == A_PLAY) return land;
  if (kind == A_ADVANCE) return adv;
  return plain;
}

static int add_subs(L *l, hact *a, const ynode *m) {
  const ynode *t = ymap_get(m, "targets"), *md = ymap_get(m, "mode"), *mds = ymap_get(m, "modes");
  const ynode *x = ymap_get(m, "x"), *then = ymap_get(m, "then");
  if (md && mds) return FAIL(l, mds, "give 'mode' or 'modes', not both");
  if (md == NULL) md = mds;
  int nt = 0;
  if (t) {
    if (t->kind == YN_SEQ) nt = t->n;
    else if (t->kind == YN_SCALAR) nt = 1;
    else return FAIL(l, t, "targets is a list of players and objects, found %s", ynode_kind_name(t));
  }
  if (then && want_seq(l, then, "then")) return -1;
  int total = nt + (md != NULL) + (x != NULL) + (then ? then->n : 0);
  a->sub = NEW(l, hact, total);
  if (!a->sub) return oom(l, m);
  int k = 0;
  for (int i = 0; i < nt; i++) {
    const ynode *tv = t->kind == YN_SEQ ? t->items[i] : t;
    hact *s = &a->sub[k++];
    s->kind = A_TARGET;
    s->key = "targets";
    s->at = tv;
    s->player = a->player;
    s->ability = -1;
    s->items = NEW(l, const char *, 1);
    if (!s->items) return oom(l, tv);
    s->nitems = 1;
    if (get_str(l, tv, &s->items[0])) return -1;
  }
  if (md) {
    hact *s = &a->sub[k++];
    s->kind = A_MODE;
    s->key = "mode";
    s->at = md;
    s->player = a->player;
    if (int_list(l, md, 1, 32, &s->nums, &s->nnums)) return -1;
  }
  if (x) {
    hact *s = &a->sub[k++];
    s->kind = A_X;
    s->key = "x";
    s->at = x;
    s->player = a->player;
    if (int_list(l, x, 0, 100000, &s->nums, &s->nnums)) return -1;
  }
  for (int i = 0; then && i < then->n; i++) {
    hact *s = &a->sub[k++];
    if (load_action(l, then->items[i], s, 1)) return -1;
    if (s->player < 0) s->player = a->player;
  }
  a->nsub = k;
  return 0;
}

static int load_action(L *l, const ynode *n, hact *a, int nested) {
  if (want_map(l, n, "an action")) return -1;
  a->at = n;
  a->player = -1;
  a->ability = -1;
  a->from = MTG_Z_HAND;
  a->kind = -1;
  const ynode *val = NULL;
  /* the action is named by its one action key; cast and activate carry
   * their targets, mode and x beside it */
  int has_spell = ymap_get(n, "cast") || ymap_get(n, "activate");
  for (int i = 0; i < n->n; i++) {
    const ynode *k = ymap_key(n, i);
    if (k->kind != YN_SCALAR) return FAIL(l, k, "keys must be plain strings");
    for (int j = 0; j < A_COUNT; j++) {
      if (!ystr_is(k->str, act_keys[j])) continue;
      if (has_spell && (j == A_MODE || j == A_X)) break;
      if (nested && j <= A_CHECK)
        return FAIL(l, k, "'then' answers the decisions of the action itself; '%s' is an action of its own", k->str);
      if (a->kind >= 0) return FAIL(l, k, "one action per list item: '%s' and '%s' are two", act_keys[a->kind], k->str);
      a->kind = j;
      a->key = act_keys[j];
      val = ymap_val(n, i);
    }
  }
  if (a->kind < 0) {
    for (int i = 0; i < n->n; i++) {
      const char *ks = ymap_key(n, i)->str;
      if (ystr_is(ks, "player") || ystr_is(ks, "refused")) continue;
      const char *best = suggest_best(ks, act_keys, A_COUNT);
      if (ystr_is(ks, "targets")) best = "target";
      if (best) return FAIL(l, ymap_key(n, i), "unknown action '%s'; did you mean '%s'?", ks, best);
    }
    char list[400];
    suggest_join(act_keys, A_COUNT, list, sizeof list);
    return FAIL(l, n, "an action needs one of: %s", list);
  }
  const char *const *extra = extra_keys(a->kind, nested);
  const char *allowed[16];
  int na = 0;
  allowed[na++] = act_keys[a->kind];
  for (int i = 0; extra[i]; i++) allowed[na++] = extra[i];
  allowed[na] = NULL;
  if (keys(l, n, allowed, a->kind == A_CAST ? "a cast action" : "an action")) return -1;
  const ynode *v;
  if ((v = ymap_get(n, "player")) && player_index(l, v, &a->player)) return -1;
  if ((v = ymap_get(n, "refused")) && get_str(l, v, &a->refused)) return -1;
  if ((v = ymap_get(n, "ability")) && get_int(l, v, 0, 63, &a->ability)) return -1;
  if ((v = ymap_get(n, "turn")) && get_int(l, v, 1, 2147483647, &a->turn)) return -1;
  if ((v = ymap_get(n, "face_down")) && get_bool(l, v, &a->face_down)) return -1;
  if ((v = ymap_get(n, "face")) && get_str(l, v, &a->face)) return -1;
  if ((v = ymap_get(n, "from"))) {
    const char *z;
    if (get_str(l, v, &z)) return -1;
    a->from = mtg_zone_parse(z);
    if (a->from != MTG_Z_HAND && a->from != MTG_Z_GRAVEYARD)
      return FAIL(l, v, "spells are cast from 'hand' or 'graveyard', not '%s'", z);
  }
  if (a->kind <= A_SUSPEND && a->player < 0 && !nested)
    return FAIL(l, n, "'%s' needs 'player': who holds priority", act_keys[a->kind]);
  if (action_value(l, a, val)) return -1;
  if (a->kind == A_CAST || a->kind == A_ACTIVATE) return add_subs(l, a, n);
  return 0;
}

static int load_actions(L *l, const ynode *n) {
  hcase *hc = l->hc;
  if (want_seq(l, n, "actions")) return -1;
  hc->acts = NEW(l, hact, n->n);
  if (!hc->acts) return oom(l, n);
  int bad = 0;
  for (int i = 0; i < n->n; i++) bad += load_action(l, n->items[i], &hc->acts[i], 0) != 0;
  hc->nacts = n->n;
  return bad ? -1 : 0;
}

/* ---- expectations ---- */

/* ---- the log's vocabulary (docs/events.md) ---- */

/* The space-separated words of s, into words[] (pointing into buf). */
static int split_words(const char *s, char *buf, size_t size, const char **words, int max) {
  snprintf(buf, size, "%s", s);
  int n = 0;
  for (char *p = strtok(buf, " "); p && n < max; p = strtok(NULL, " ")) words[n++] = p;
  return n;
}

/* A pattern's type must be a type of line the engine writes. */
static int check_type(L *l, const ynode *v, const char *type, const mtg_event_type **out) {
  *out = mtg_event_type_find(type, strlen(type));
  if (*out) return 0;
  const mtg_event_type *types;
  const char *names[128];
  int n = mtg_event_types(&types);
  for (int i = 0; i < n && i < 128; i++) names[i] = types[i].name;
  const char *best = suggest_best(type, names, n < 128 ? n : 128);
  if (best) return FAIL(l, v, "unknown event type '%s'; did you mean '%s'?", type, best);
  return FAIL(l, v, "unknown event type '%s' (the types are listed in docs/events.md)", type);
}

/* A pattern's field must be one of its type's, or with no type given, one of
 * some type's. A type whose lines carry fields the game names (a linked
 * choice's label) takes any field. */
static int check_field(L *l, const ynode *k, const mtg_event_type *t) {
  const char *key = k->str;
  char buf[512];
  const char *words[64];
  if (t) {
    if (t->open || mtg_event_has_field(t, key, strlen(key))) return 0;
    int n = split_words(t->fields, buf, sizeof buf, words, 64);
    const char *best = suggest_best(key, words, n);
    if (best) return FAIL(l, k, "a %s event has no field '%s'; did you mean '%s'?", t->name, key, best);
    char list[400];
    suggest_join(words, n, list, sizeof list);
    return FAIL(l, k, "a %s event has no field '%s'; its fields are %s", t->name, key, list);
  }
  const mtg_event_type *types;
  int nt = mtg_event_types(&types);
  char all[2048];
  size_t u = 0;
  for (int i = 0; i < nt; i++) {
    if (mtg_event_has_field(&types[i], key, strlen(key))) return 0;
    int w = snprintf(all + u, sizeof all - u, "%s ", types[i].fields);
    if (w > 0 && (size_t)w < sizeof all - u) u += (size_t)w;
  }
  char split[2048];
  const char *cand[400];
  const char *best = suggest_best(key, cand, split_words(all, split, sizeof split, cand, 400));
  if (best) return FAIL(l, k, "no event type has a field '%s'; did you mean '%s'?", key, best);
  return FAIL(l, k, "no event type has a field '%s' (the fields of each type are listed in docs/events.md)", key);
}

static int load_pattern(L *l, const ynode *n, hpat *p, int need_times) {
  if (want_map(l, n, "an event pattern")) return -1;
  p->at = n;
  p->times = 1;
  p->keys = NEW(l, const char *, n->n);
  p->vals = NEW(l, const ynode *, n->n);
  if (!p->keys || !p->vals) return oom(l, n);
  int has_times = 0;
  for (int i = 0; i < n->n; i++) {
    const ynode *k = ymap_key(n, i), *v = ymap_val(n, i);
    if (k->kind != YN_SCALAR) return FAIL(l, k, "keys must be plain strings");
    if (ystr_is(k->str, "sequence")) return FAIL(l, k, "a sequence block stands alone: {sequence: [patterns]}");
    if (ystr_is(k->str, "type")) {
      if (get_str(l, v, &p->type)) return -1;
    } else if (ystr_is(k->str, "times")) {
      if (get_int(l, v, need_times ? 0 : 1, 10000, &p->times)) return -1;
      has_times = 1;
    } else {
      if (v->kind == YN_MAP) return FAIL(l, v, "a field pattern is a value or a list of values, found a mapping");
      for (int j = 0; v->kind == YN_SEQ && j < v->n; j++)
        if (v->items[j]->kind != YN_SCALAR) return FAIL(l, v->items[j], "list items of a field pattern are values");
      p->keys[p->nf] = k->str;
      p->vals[p->nf++] = v;
    }
  }
  if (need_times && !has_times) return FAIL(l, n, "a count pattern needs 'times' (the exact number of matching events)");
  if (!p->type && !p->nf) return FAIL(l, n, "an event pattern needs 'type' or at least one field");
  /* the vocabulary: a misspelt type or field would match nothing, and an
   * absent pattern that matches nothing passes */
  const mtg_event_type *t = NULL;
  int bad = p->type && check_type(l, ymap_get(n, "type"), p->type, &t);
  if (!bad)
    for (int i = 0; i < n->n; i++) {
      const ynode *k = ymap_key(n, i);
      if (strcmp(k->str, "type") && strcmp(k->str, "times")) bad += check_field(l, k, t) != 0;
    }
  return bad ? -1 : 0;
}

static int load_patterns(L *l, const ynode *n, hpat **out, int *cnt, const char *what, int need_times) {
  if (want_seq(l, n, what)) return -1;
  *out = NEW(l, hpat, n->n);
  if (!*out) return oom(l, n);
  int bad = 0;
  for (int i = 0; i < n->n; i++) bad += load_pattern(l, n->items[i], &(*out)[i], need_times) != 0;
  *cnt = n->n;
  return bad ? -1 : 0;
}

static int load_event_item(L *l, const ynode *it, hevx *e) {
  e->at = it;
  const ynode *seq = ymap_get(it, "sequence");
  if (seq) {
    if (it->n != 1) return FAIL(l, it, "a sequence block has only the key 'sequence'");
    e->seq = 1;
    if (load_patterns(l, seq, &e->p, &e->np, "sequence", 0)) return -1;
    if (!e->np) return FAIL(l, seq, "an empty sequence block");
    return 0;
  }
  e->p = NEW(l, hpat, 1);
  if (!e->p) return oom(l, it);
  e->np = 1;
  return load_pattern(l, it, e->p, 0);
}

static int load_events(L *l, const ynode *n) {
  hcase *hc = l->hc;
  if (want_seq(l, n, "events")) return -1;
  hc->events = NEW(l, hevx, n->n);
  if (!hc->events) return oom(l, n);
  int bad = 0;
  for (int i = 0; i < n->n; i++) bad += load_event_item(l, n->items[i], &hc->events[i]) != 0;
  hc->nevents = n->n;
  return bad ? -1 : 0;
}

static int zone_expect(L *l, const ynode *v, int player, int zone, hzonex *z) {
  static const char *const zkeys[] = {"count", "exactly", "includes", "excludes", NULL};
  z->at = v;
  z->player = player;
  z->zone = zone;
  z->count = UNSET;
  if (v->kind == YN_SCALAR) return get_int(l, v, 0, 10000, &z->count);
  if (v->kind == YN_SEQ) {
    z->has_exact = 1;
    if (!v->n) return 0;
    return str_list(l, v, &z->exact, &z->nexact, "zone contents");
  }
  if (keys(l, v, zkeys, "zone contents")) return -1;
  const ynode *w;
  if ((w = ymap_get(v, "count")) && get_int(l, w, 0, 10000, &z->count)) return -1;
  if ((w = ymap_get(v, "exactly"))) {
    z->has_exact = 1;
    if (w->kind == YN_SEQ && !w->n) {
      /* empty */
    } else if (str_list(l, w, &z->exact, &z->nexact, "exactly")) return -1;
  }
  if ((w = ymap_get(v, "includes")) && str_list(l, w, &z->incl, &z->nincl, "includes")) return -1;
  if ((w = ymap_get(v, "excludes")) && str_list(l, w, &z->excl, &z->nexcl, "excludes")) return -1;
  return 0;
}

/* players.P.commander_damage: {commander label: damage} */
static int commander_damage_x(L *l, const ynode *n, hplayerx *p) {
  if (want_map(l, n, "commander_damage (commander label: damage)")) return -1;
  p->cmd = NEW(l, hcmdx, n->n);
  if (!p->cmd) return oom(l, n);
  for (int i = 0; i < n->n; i++) {
    hcmdx *c = &p->cmd[i];
    const hlabel *lb;
    c->at = ymap_key(n, i);
    if (find_label(l, c->at, "commander_damage", "entry", &lb)) return -1;
    if (!lb->commander)
      return FAIL(l, c->at, "commander_damage: '%s' is not a commander (its setup entry has no 'commander: true')", lb->name);
    c->label = lb->name;
    c->card = lb->entry;
    if (get_int(l, ymap_val(n, i), 0, 2147483647, &c->n)) return -1;
  }
  p->ncmd = n->n;
  return 0;
}

static int load_players_x(L *l, const ynode *n) {
  static const char *const pkeys[] = {"life",    "poison", "lost",      "won",         "counters", "team",
                                      "dungeons_completed", "commander_damage", "library", "hand",
                                      "battlefield", "graveyard", "exile", "command", "hand_revealed", NULL};
  hcase *hc = l->hc;
  if (want_map(l, n, "players (name: expectations)")) return -1;
  int nz = 0;
  for (int i = 0; i < n->n; i++)
    if (ymap_val(n, i)->kind == YN_MAP) nz += ymap_val(n, i)->n;
  hc->px = NEW(l, hplayerx, n->n);
  hc->zx = NEW(l, hzonex, nz);
  if (!hc->px || !hc->zx) return oom(l, n);
  int bad = 0;
  for (int i = 0; i < n->n; i++) {
    hplayerx *p = &hc->px[hc->npx++];
    const ynode *m = ymap_val(n, i);
    p->at = ymap_key(n, i);
    p->life = p->poison = p->team = p->dungeons = UNSET;
    p->lost = p->won = p->hand_revealed = -1;
    if (player_index(l, ymap_key(n, i), &p->player) || keys(l, m, pkeys, "a player's expectations")) {
      bad++;
      continue;
    }
    for (int k = 0; k < m->n; k++) {
      const char *key = ymap_key(m, k)->str;
      const ynode *v = ymap_val(m, k);
      int zone = zone_of(key), rc = 0;
      if (zone >= 0) rc = zone_expect(l, v, p->player, zone, &hc->zx[hc->nzx++]);
      else if (ystr_is(key, "life")) rc = get_int(l, v, -2147483647, 2147483647, &p->life);
      else if (ystr_is(key, "poison")) rc = get_int(l, v, 0, 2147483647, &p->poison);
      else if (ystr_is(key, "lost")) rc = get_bool(l, v, &p->lost);
      else if (ystr_is(key, "won")) rc = get_bool(l, v, &p->won);
      else if (ystr_is(key, "hand_revealed")) rc = get_bool(l, v, &p->hand_revealed);
      else if (ystr_is(key, "counters")) rc = counters_map(l, v, &p->counters, &p->ncounters, "counters");
      else if (ystr_is(key, "team")) rc = get_int(l, v, 0, 4, &p->team);
      else if (ystr_is(key, "dungeons_completed")) rc = get_int(l, v, 0, 100000, &p->dungeons);
      else if (ystr_is(key, "commander_damage")) rc = commander_damage_x(l, v, p);
      bad += rc != 0;
    }
  }
  return bad ? -1 : 0;
}

static int load_objects_x(L *l, const ynode *n) {
  static const char *const okeys[] = {"zone",     "owner",  "controller", "power",   "toughness", "damage",
                                      "loyalty",  "tapped", "sick",       "token",   "attacking", "blocking",
                                      "attached_to", "counters", "face_down", "protector", "sector", "room", "types", NULL};
  hcase *hc = l->hc;
  if (want_map(l, n, "objects (card name or label: expectations)")) return -1;
  hc->ox = NEW(l, hobjx, n->n);
  if (!hc->ox) return oom(l, n);
  int bad = 0;
  for (int i = 0; i < n->n; i++) {
    hobjx *o = &hc->ox[hc->nox++];
    const ynode *m = ymap_val(n, i);
    o->at = ymap_key(n, i);
    if (get_str(l, ymap_key(n, i), &o->ref)) {
      bad++;
      continue;
    }
    o->zone = o->owner = o->controller = -1;
    o->power = o->toughness = o->damage = o->loyalty = UNSET;
    o->tapped = o->sick = o->token = o->attacking = o->blocking = o->face_down = o->protector = -1;
    if (keys(l, m, okeys, "an object's expectations")) {
      bad++;
      continue;
    }
    for (int k = 0; k < m->n; k++) {
      const char *key = ymap_key(m, k)->str;
      const ynode *v = ymap_val(m, k);
      int rc = 0;
      if (ystr_is(key, "zone")) {
        const char *z;
        if (get_str(l, v, &z)) rc = -1;
        else if ((o->zone = mtg_zone_parse(z)) < 0) {
          const char *best = suggest_best(z, zone_keys, -1);
          rc = FAIL(l, v, "unknown zone '%s'%s%s%s", z, best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
        }
      } else if (ystr_is(key, "owner")) rc = player_index(l, v, &o->owner);
      else if (ystr_is(key, "controller")) rc = player_index(l, v, &o->controller);
      else if (ystr_is(key, "power")) rc = get_int(l, v, -2147483647, 2147483647, &o->power);
      else if (ystr_is(key, "toughness")) rc = get_int(l, v, -2147483647, 2147483647, &o->toughness);
      else if (ystr_is(key, "damage")) rc = get_int(l, v, 0, 2147483647, &o->damage);
      else if (ystr_is(key, "loyalty")) rc = get_int(l, v, -2147483647, 2147483647, &o->loyalty);
      else if (ystr_is(key, "tapped")) rc = get_bool(l, v, &o->tapped);
      else if (ystr_is(key, "sick")) rc = get_bool(l, v, &o->sick);
      else if (ystr_is(key, "token")) rc = get_bool(l, v, &o->token);
      else if (ystr_is(key, "attacking")) rc = get_bool(l, v, &o->attacking);
      else if (ystr_is(key, "blocking")) rc = get_bool(l, v, &o->blocking);
      else if (ystr_is(key, "attached_to")) rc = get_str(l, v, &o->attached_to);
      else if (ystr_is(key, "counters")) rc = counters_map(l, v, &o->counters, &o->ncounters, "counters");
      else if (ystr_is(key, "face_down")) rc = get_bool(l, v, &o->face_down);
      else if (ystr_is(key, "protector")) rc = player_index(l, v, &o->protector);
      else if (ystr_is(key, "sector")) rc = get_name(l, v, sector_names, "sector", "702.158b", &o->sector);
      else if (ystr_is(key, "room")) rc = get_str(l, v, &o->room);
      else if (ystr_is(key, "types")) rc = get_str(l, v, &o->types);
      bad += rc != 0;
    }
  }
  return bad ? -1 : 0;
}

static int player_mask(L *l, const ynode *v, unsigned *mask) {
  const ynode *one[1] = {v};
  const ynode *const *items = v->kind == YN_SEQ ? (const ynode *const *)v->items : one;
  int n = v->kind == YN_SEQ ? v->n : 1;
  for (int i = 0; i < n; i++) {
    int p;
    if (player_index(l, items[i], &p)) return -1;
    *mask |= 1u << p;
  }
  return 0;
}

static int load_result(L *l, const ynode *n) {
  static const char *const rkeys[] = {"over", "winner", "winners", "losers", "draw", "stopped", NULL};
  hresultx *r = &l->hc->result;
  r->at = n;
  r->given = 1;
  r->over = r->draw = r->stopped = -1;
  if (n->kind == YN_SCALAR) {
    if (ystr_is(n->str, "ongoing")) r->over = 0;
    else if (ystr_is(n->str, "draw")) r->over = r->draw = 1;
    else return FAIL(l, n, "result is 'ongoing', 'draw' or a mapping {winner: NAME, losers: [...]}, found '%s'", n->str);
    return 0;
  }
  if (keys(l, n, rkeys, "result")) return -1;
  const ynode *v;
  if ((v = ymap_get(n, "over")) && get_bool(l, v, &r->over)) return -1;
  if ((v = ymap_get(n, "draw")) && get_bool(l, v, &r->draw)) return -1;
  if ((v = ymap_get(n, "stopped")) && get_bool(l, v, &r->stopped)) return -1;
  if ((v = ymap_get(n, "winner")) || (v = ymap_get(n, "winners"))) {
    if (ymap_get(n, "winner") && ymap_get(n, "winners")) return FAIL(l, v, "give 'winner' or 'winners', not both");
    if (player_mask(l, v, &r->winners)) return -1;
    r->has_winners = 1;
  }
  if ((v = ymap_get(n, "losers"))) {
    if (player_mask(l, v, &r->losers)) return -1;
    r->has_losers = 1;
  }
  return 0;
}

static int load_state(L *l, const ynode *n) {
  static const char *const skeys[] = {"players", "objects", "result", "turn", "step", "active", "stack", NULL};
  hcase *hc = l->hc;
  if (keys(l, n, skeys, "state")) return -1;
  const ynode *v;
  int bad = 0;
  if ((v = ymap_get(n, "players"))) bad += load_players_x(l, v) != 0;
  if ((v = ymap_get(n, "objects"))) bad += load_objects_x(l, v) != 0;
  if ((v = ymap_get(n, "result"))) bad += load_result(l, v) != 0;
  if ((v = ymap_get(n, "turn"))) bad += get_int(l, v, 1, 2147483647, &hc->turn_x) != 0;
  if ((v = ymap_get(n, "step"))) bad += step_index(l, v, &hc->step_x) != 0;
  if ((v = ymap_get(n, "active"))) bad += player_index(l, v, &hc->active_x) != 0;
  if ((v = ymap_get(n, "stack"))) bad += get_int(l, v, 0, 10000, &hc->stack_x) != 0;
  return bad ? -1 : 0;
}

/* check: state expectations at a point of the script. They are loaded into a
 * copy of the case (its players, labels and setup as they are when actions
 * load) whose own expectations are these, so that one matcher serves both; the
 * errors found count as the case's. */
static int load_check(L *l, hact *a, const ynode *v) {
  hcase *hc = l->hc;
  hcase *sub = NEW(l, hcase, 1);
  if (!sub) return oom(l, v);
  *sub = *hc;
  sub->px = NULL;
  sub->zx = NULL;
  sub->ox = NULL;
  sub->npx = sub->nzx = sub->nox = sub->nacts = 0;
  memset(&sub->result, 0, sizeof sub->result);
  sub->turn_x = sub->stack_x = UNSET;
  sub->step_x = sub->active_x = -1;
  sub->root = v;
  l->hc = sub;
  int rc = want_map(l, v, "check (state expectations: players, objects, turn, step, active, stack)") ? -1 : load_state(l, v);
  l->hc = hc;
  hc->nerr += sub->nerr - hc->nerr;
  if (!rc && !case_checks(sub)) rc = FAIL(l, v, "this check checks nothing");
  a->check = sub;
  return rc;
}

static int load_expect(L *l, const ynode *n) {
  static const char *const ekeys[] = {"events", "count", "absent", "state", NULL};
  hcase *hc = l->hc;
  if (keys(l, n, ekeys, "expect")) return -1;
  const ynode *v;
  int bad = 0;
  if ((v = ymap_get(n, "events"))) bad += load_events(l, v) != 0;
  if ((v = ymap_get(n, "count"))) bad += load_patterns(l, v, &hc->counts, &hc->ncounts, "count", 1) != 0;
  if ((v = ymap_get(n, "absent"))) bad += load_patterns(l, v, &hc->absent, &hc->nabsent, "absent", 0) != 0;
  if ((v = ymap_get(n, "state"))) bad += load_state(l, v) != 0;
  return bad ? -1 : 0;
}

static int load_stop(L *l, const ynode *n) {
  static const char *const stkeys[] = {"step", "turn", NULL};
  hcase *hc = l->hc;
  if (n->kind == YN_SCALAR) {
    if (ystr_is(n->str, "now")) hc->stop = STOP_NOW;
    else if (ystr_is(n->str, "game_over")) hc->stop = STOP_GAME_OVER;
    else if (ystr_is(n->str, "settle")) hc->stop = STOP_SETTLE;
    else {
      hc->stop = STOP_STEP;
      if (mtg_step_parse(n->str) < 0)
        return FAIL(l, n, "stop is 'now', 'settle', 'game_over', a step name or {step: S, turn: N}; '%s' is none of these",
                    n->str);
      hc->stop_step = mtg_step_parse(n->str);
    }
    return 0;
  }
  if (keys(l, n, stkeys, "stop")) return -1;
  const ynode *s = ymap_get(n, "step"), *t = ymap_get(n, "turn");
  if (!s) return FAIL(l, n, "stop needs 'step'");
  hc->stop = STOP_STEP;
  if (step_index(l, s, &hc->stop_step)) return -1;
  if (t && get_int(l, t, 1, 2147483647, &hc->stop_turn)) return -1;
  return 0;
}

/* Whether a case expects anything: an event, state or result expectation,
 * or an action that must be refused. */
static int case_checks(const hcase *hc) {
  int n = hc->nevents + hc->ncounts + hc->nabsent + hc->nzx + hc->nox + hc->result.given;
  n += hc->turn_x != UNSET || hc->step_x >= 0 || hc->active_x >= 0 || hc->stack_x != UNSET;
  for (int i = 0; i < hc->npx; i++) {
    const hplayerx *p = &hc->px[i];
    n += p->life != UNSET || p->poison != UNSET || p->team != UNSET || p->dungeons != UNSET || p->lost >= 0 ||
         p->won >= 0 || p->hand_revealed >= 0 || p->ncounters || p->ncmd;
  }
  for (int i = 0; i < hc->nacts; i++) n += hc->acts[i].refused != NULL || hc->acts[i].check != NULL;
  return n > 0;
}

/* The number of players the setup lists (0 if it lists none). */
static int setup_players(const ynode *setup) {
  const ynode *p = setup && setup->kind == YN_MAP ? ymap_get(setup, "players") : NULL;
  return p && p->kind == YN_SEQ ? p->n : 0;
}

static int check_id(L *l, const ynode *v) {
  hcase *hc = l->hc;
  if (get_str(l, v, &hc->id)) return -1;
  hc->line = v->line;
  if (!*hc->id) return FAIL(l, v, "the id can't be empty");
  for (const char *p = hc->id; *p; p++)
    if (!is_id_char(*p)) return FAIL(l, v, "an id uses letters, digits, '-', '_' and '.' only");
  return 0;
}

static void load_status(L *l, const ynode *root) {
  hcase *hc = l->hc;
  const ynode *v = ymap_get(root, "status");
  const char *s;
  if (v && !get_str(l, v, &s)) {
    if (strcmp(s, "todo")) FAIL(l, v, "status is 'todo' (with a reason) or absent, found '%s'", s);
    else hc->todo = 1;
    if (hc->todo && !ymap_get(root, "reason")) FAIL(l, v, "a todo case needs a 'reason'");
  }
  if ((v = ymap_get(root, "reason"))) {
    if (!hc->todo && !(ymap_get(root, "status"))) FAIL(l, v, "'reason' goes with 'status: todo'");
    else get_str(l, v, &hc->reason);
  }
}

/* Loads a case, recording every error found. The header fields are checked
 * one by one; the setup needs the inline cards, and the script and the
 * expectations need the setup's players and labels, so each of these is
 * checked only when what it needs loaded. */
/* Inline cards repeat from case to case of a file (a third of the corpus's
 * definitions): a case whose `cards:` are written as an earlier case's of the
 * same file, and loaded without error there, uses that case's pool instead of
 * compiling them again. Only within a file: its cases are loaded and run on
 * one thread, and its pools freed together. The cards compile the same
 * whatever line they are written at; what an error would say is not shared,
 * since a pool with an error is not. */
/* A cheap sketch of a node (its shape, and each scalar's length and end
 * bytes): equal nodes have equal sketches, and node_same tells the rest. */
static uint64_t node_hash(const ynode *n, uint64_t h) {
  h = (h ^ (uint64_t)(n->kind * 4 + (n->quoted != 0) + 1)) * 1099511628211u;
  if (n->kind == YN_SCALAR)
    return (h ^ (n->len << 16 ^ (n->len ? (unsigned char)n->str[0] << 8 | (unsigned char)n->str[n->len - 1] : 0))) *
           1099511628211u;
  int m = n->kind == YN_MAP ? 2 * n->n : n->n;
  h = (h ^ (uint64_t)(unsigned)m) * 1099511628211u;
  for (int i = 0; i < m; i++) h = node_hash(n->items[i], h);
  return h;
}

static int node_same(const ynode *a, const ynode *b) {
  if (a == b) return 1;
  if (a->kind != b->kind || !a->quoted != !b->quoted || a->n != b->n) return 0;
  if (a->kind == YN_SCALAR) return a->len == b->len && memcmp(a->str, b->str, a->len) == 0;
  int m = a->kind == YN_MAP ? 2 * a->n : a->n;
  for (int i = 0; i < m; i++)
    if (!node_same(a->items[i], b->items[i])) return 0;
  return 1;
}

/* Whether the case can use an earlier case's pool; *h: the sketch of v. */
static int borrow_pool(L *l, const ynode *v, uint64_t *hp) {
  uint64_t h = *hp = node_hash(v, 1469598103934665603u) | 1;
  for (int k = 0; k < l->f->ncases; k++) {
    const hcase *o = l->f->cases[k];
    if (o != l->hc && o->cards_hash == h && node_same(o->cards, v)) {
      l->hc->pool = o->pool;
      l->hc->pool_borrowed = 1;
      return 1;
    }
  }
  return 0;
}

static void load_case(L *l, const ynode *root) {
  static const char *const case_keys[] = {"id",    "rules",   "title", "source", "status",   "reason", "setup",
                                          "cards", "actions", "expect", "stop",  "autopass", "notes",  NULL};
  hcase *hc = l->hc;
  hc->root = root;
  hc->line = root->line;
  hc->autopass = 1;
  hc->turn_x = hc->stack_x = UNSET;
  hc->step_x = hc->active_x = -1;
  if (want_map(l, root, "a case") || keys(l, root, case_keys, "a case")) return;
  static const char *const required[] = {"id", "rules", "title", "source", "setup"};
  for (int i = 0; i < 5; i++)
    if (!ymap_get(root, required[i])) FAIL(l, root, "a case needs '%s'", required[i]);
  const ynode *v;
  if ((v = ymap_get(root, "id"))) check_id(l, v);
  if ((v = ymap_get(root, "rules"))) load_rules(l, v);
  if ((v = ymap_get(root, "title"))) get_str(l, v, &hc->title);
  if ((v = ymap_get(root, "source"))) get_str(l, v, &hc->source);
  load_status(l, root);
  if ((v = ymap_get(root, "notes")) && v->kind != YN_SCALAR) FAIL(l, v, "notes are text");
  if ((v = ymap_get(root, "autopass"))) get_bool(l, v, &hc->autopass);
  if ((v = ymap_get(root, "stop"))) load_stop(l, v);
  if ((v = ymap_get(root, "cards"))) {
    hc->cards = v;
    uint64_t h;
    if (!borrow_pool(l, v, &h)) {
      if (mtg_pool_new(&hc->pool, l->base)) {
        oom(l, v);
        return;
      }
      if (mtg_pool_load_node(hc->pool, l->d, v, &l->err)) {
        pushed(l);
        l->partial_cards = 1;
      } else {
        hc->cards_hash = h;
      }
    }
  }
  v = ymap_get(root, "setup");
  if (!v || want_map(l, v, "setup") || load_setup(l, v)) {
    l->partial_cards = 1;
    l->partial_players |= !hc->setup || hc->nplayers < setup_players(v);
  }
  if ((v = ymap_get(root, "actions"))) load_actions(l, v);
  if ((v = ymap_get(root, "expect"))) load_expect(l, v);
  if (!hc->nerr && !case_checks(hc))
    FAIL(l, v ? v : root,
         "the case checks nothing: give it an expectation (expect: events, count, absent or state) or an action "
         "that must be refused (refused:)");
}

/* ---- files ---- */

void error_format(const mtg_error *e, char *buf, size_t size) {
  /* mtg_error_format reads source[col - 1] for the caret; the stored source
   * line is cut at 255 characters, so a column beyond it would read past it */
  mtg_error c = *e;
  size_t n = strnlen(c.source, sizeof c.source - 1);
  c.source[n] = 0;
  if (c.col > (int)n + 1) c.col = (int)n + 1;
  mtg_error_format(&c, buf, size);
}

static void report(buf *errs, const mtg_error *e) {
  char msg[2048];
  error_format(e, msg, sizeof msg);
  buf_printf(errs, "%s\n", msg);
}

/* Case files under a directory: *.yaml and *.yml but the rules index. */
static int want_case(const char *name, void *ctx) {
  (void)ctx;
  return (walk_has_suffix(name, ".yaml") || walk_has_suffix(name, ".yml")) && strcmp(name, "rules.yaml");
}

typedef struct walk_ctx {
  buf *errs;
  int bad;
} walk_ctx;

/* A directory that can't be read is an error; a FIFO, device or socket named
 * like a case file, or a link back to a directory already read, is skipped
 * with a note on stderr. */
/* A directory that can't be read, or a file named like a case that can't be
 * (a FIFO, a device such as a link to /dev/zero, a dangling link), is an input
 * error: passed over without blocking on it, the other cases still run. The
 * rest (link loops, links to nothing else) is only said. */
static void walk_skipped(void *ctx, const char *path, walk_skip kind, const char *why) {
  walk_ctx *w = ctx;
  char shown[1024];
  escape_text(path, shown, sizeof shown);
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  if (kind == WALK_UNREADABLE) {
    buf_printf(w->errs, "%s: cannot read: %s\n", shown, why);
    w->bad++;
  } else if (kind == WALK_SPECIAL || (kind == WALK_DANGLING && want_case(base, NULL))) {
    buf_printf(w->errs, "%s: skipped, %s: not read\n", shown, why);
    w->bad++;
  } else {
    fprintf(stderr, "harness: skipped %s: %s\n", shown, why);
  }
}

int corpus_find(hcorpus *c, const char *const *paths, int npaths, buf *errs) {
  memset(c, 0, sizeof *c);
  walk_list files = {0};
  walk_ctx wc = {errs, 0};
  walk_opts wo = {.want = want_case, .skipped = walk_skipped, .ctx = &wc, .follow_links = 1};
  int stdin_seen = 0;
  for (int i = 0; i < npaths; i++) {
    struct stat st;
    if (!strcmp(paths[i], "-")) {
      /* a case file on standard input, read once */
      if (!stdin_seen++ && walk_list_add(&files, CASE_STDIN)) wc.bad++;
    } else if (stat(paths[i], &st)) {
      buf_printf(errs, "%s: no such file or directory\n", paths[i]);
      wc.bad++;
    } else if (S_ISDIR(st.st_mode)) {
      mtg_error err;
      if (walk_dir(paths[i], &wo, &files, &err)) {
        report(errs, &err);
        wc.bad++;
      }
    } else if (walk_list_add(&files, paths[i])) {
      wc.bad++; /* a file named on the command line is read as given: input_read refuses what is not a regular file */
    }
  }
  /* the paths, kept for the whole run, side by side in one block */
  size_t total = 0;
  for (int i = 0; i < files.n; i++) total += strlen(files.path[i]) + 1;
  c->files = calloc((size_t)(files.n ? files.n : 1), sizeof *c->files);
  char *at = c->files && total ? amalloc_in(&c->arena, total, 0) : NULL;
  if (!c->files || (total && !at)) {
    wc.bad++;
    free(c->files);
    c->files = NULL;
  }
  for (int i = 0; c->files && i < files.n; i++) {
    size_t n = strlen(files.path[i]) + 1;
    c->files[c->nfiles++].path = memcpy(at, files.path[i], n);
    at += n;
  }
  walk_list_free(&files);
  return wc.bad;
}

/* The file failed with error e (kept in its own allocation: a file that
 * doesn't fail keeps none). */
static const mtg_error no_memory = {.status = MTG_ENOMEM, .msg = "out of memory"};

static void file_failed(hfile *f, const mtg_error *e) {
  mtg_error *k = malloc(sizeof *k);
  if (k) *k = *e;
  f->failed = 1;
  f->err = k ? k : &no_memory;
}

void corpus_parse_file(hfile *f) {
  mtg_error err;
  int failed;
  if (strcmp(f->path, CASE_STDIN)) {
    failed = ydoc_parse_file_max(f->path, f->max_size, &f->doc, &err) != 0;
  } else {
    size_t n;
    char *text = NULL;
    failed = input_read_fd(0, CASE_STDIN, f->max_size, &text, &n, &err) ||
             ydoc_parse_buffer(CASE_STDIN, text, n, &f->doc, &err) != 0;
    free(text);
  }
  if (failed) file_failed(f, &err);
}

static int file_out_of_memory(hfile *f) {
  mtg_error e;
  mtg_error_set(&e, MTG_ENOMEM, "out of memory");
  snprintf(e.file, sizeof e.file, "%s", f->path);
  file_failed(f, &e);
  return 1;
}

/* Case ids met so far, in file order: an open-addressing set of their
 * first uses, each an 8-byte slot whatever the id's length (about 11 bytes
 * a case), so that memory stays nearly flat however many cases run. A slot
 * packs, from the top, a hash of the id, the index of its file in the
 * corpus and the case's index in that file. Equal hashes are told apart
 * exactly: the first use's file is parsed again and that case's id compared
 * (which also gives the line a duplicate's message names). The cases of a
 * file that can't be read again (standard input) keep their ids in full; a
 * file that can no longer be read takes an equal hash for an equal id. */
#define ID_CASE_BITS 14 /* a case's index in its file: under YDOC_MAX_DOCS */
_Static_assert(YDOC_MAX_DOCS <= 1 << ID_CASE_BITS, "a case's index fits its bits");

typedef struct kept_id { /* an id of a file that can't be read again */
  struct kept_id *next;
  uint64_t at; /* file and case, as in a slot */
  int line;
  char id[];
} kept_id;

struct hids {
  uint64_t *slot; /* 0: empty */
  size_t cap, n;
  int shift;      /* the hash's lowest bit in a slot */
  kept_id *kept;
  const hcorpus *c;
};

static uint64_t id_hash(const char *s) {
  uint64_t h = 14695981039346656037u;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211u;
  h ^= h >> 33; /* FNV-1a's high bits, mixed (the slot keeps those) */
  h *= 0xff51afd7ed558ccdu;
  h ^= h >> 33;
  return h;
}

/* The line of the first use's id if the case at `at` (file and case) has id
 * `id`, else 0. */
static int id_line_at(const hids *set, uint64_t at, const char *id) {
  for (const kept_id *k = set->kept; k; k = k->next)
    if (k->at == at) return strcmp(k->id, id) ? 0 : k->line;
  const hfile *f = &set->c->files[at >> ID_CASE_BITS];
  int want = (int)(at & ((1u << ID_CASE_BITS) - 1)), line = 0;
  ydoc *d;
  mtg_error err;
  if (ydoc_parse_file_max(f->path, f->max_size, &d, &err)) return -1;
  for (int k = 0, n = ydoc_count(d), i = 0; k < n; k++) {
    const ynode *root = ydoc_root(d, k);
    if (!root || i++ < want) continue; /* cases are the documents that aren't empty */
    const ynode *v = root->kind == YN_MAP ? ymap_get(root, "id") : NULL;
    if (v && v->kind == YN_SCALAR && !strcmp(v->str, id)) line = v->line;
    break;
  }
  ydoc_free(d);
  return line;
}

/* The slot of id (with hash h) if the set has it, else the empty slot where
 * it goes; *line: the line of its first use. id NULL: the empty slot. */
static uint64_t *hids_find(const hids *set, uint64_t *slot, size_t cap, uint64_t h, const char *id, int *line) {
  uint64_t top = h >> set->shift ? h >> set->shift : 1;
  size_t i = (size_t)top & (cap - 1);
  for (; slot[i]; i = (i + 1) & (cap - 1)) {
    if (!id || slot[i] >> set->shift != top) continue;
    uint64_t at = slot[i] & (((uint64_t)1 << set->shift) - 1);
    if ((*line = id_line_at(set, at, id))) return &slot[i];
  }
  return &slot[i];
}

/* The line of the first use of hc's id (case k of file fi) if there was one
 * (the case is then a duplicate), and *first its file; else 0 after
 * recording hc's. *oom on running out of memory. */
static int hids_add(hids *set, uint32_t fi, int k, const hcase *hc, const char **first, int *oom) {
  uint64_t h = id_hash(hc->id), top = h >> set->shift ? h >> set->shift : 1;
  int line = 0;
  uint64_t *s = hids_find(set, set->slot, set->cap, h, hc->id, &line);
  if (*s) {
    *first = set->c->files[*s >> ID_CASE_BITS & (((uint64_t)1 << (set->shift - ID_CASE_BITS)) - 1)].path;
    return line > 0 ? line : 0;
  }
  if (4 * (set->n + 1) > 3 * set->cap) { /* at most three quarters full */
    uint64_t *bigger = calloc(2 * set->cap, sizeof *bigger);
    if (!bigger) return *oom = 1, 0;
    for (size_t i = 0; i < set->cap; i++)
      if (set->slot[i]) *hids_find(set, bigger, 2 * set->cap, set->slot[i], NULL, NULL) = set->slot[i];
    free(set->slot);
    set->slot = bigger;
    set->cap *= 2;
    s = hids_find(set, set->slot, set->cap, h, NULL, NULL);
  }
  uint64_t at = (uint64_t)fi << ID_CASE_BITS | (uint64_t)k;
  if (!strcmp(hc->file->path, CASE_STDIN)) {
    size_t len = strlen(hc->id) + 1;
    kept_id *kid = malloc(sizeof *kid + len);
    if (!kid) return *oom = 1, 0;
    kid->at = at;
    kid->line = hc->line;
    memcpy(kid->id, hc->id, len);
    kid->next = set->kept;
    set->kept = kid;
  }
  *s = top << set->shift | at;
  set->n++;
  return 0;
}

void hids_free(hids *set) {
  if (!set) return;
  for (kept_id *k = set->kept, *next; k; k = next) {
    next = k->next;
    free(k);
  }
  free(set->slot);
  free(set);
}

static int cmp_error(const void *a, const void *b) {
  const mtg_error *x = a, *y = b;
  if (x->line != y->line) return x->line < y->line ? -1 : 1;
  return (x->col > y->col) - (x->col < y->col);
}

int corpus_check_file(hfile *f, const mtg_pool *pool) {
  int n = f->failed ? 0 : ydoc_count(f->doc);
  if (!n) return f->failed;
  f->cases = calloc((size_t)n, sizeof *f->cases);
  if (!f->cases) return file_out_of_memory(f);
  int bad = 0;
  for (int k = 0; k < n; k++) {
    const ynode *root = ydoc_root(f->doc, k);
    if (!root) continue;
    L l = {.ar = &f->arena, .d = f->doc, .base = pool, .f = f};
    l.hc = amalloc(&f->arena, sizeof *l.hc);
    if (!l.hc) return bad + file_out_of_memory(f);
    l.hc->file = f;
    l.hc->err0 = f->nerrs;
    f->cases[f->ncases++] = l.hc;
    load_case(&l, root);
    /* in file order, whatever order they were found in */
    int kept = f->nerrs - l.hc->err0;
    if (kept > 1) qsort(f->errs + l.hc->err0, (size_t)kept, sizeof *f->errs, cmp_error);
    bad += l.hc->nerr;
    const ynode *id = ymap_get(root, "id");
    if (id) {
      l.hc->id_line = id->line;
      l.hc->id_col = id->col;
    }
  }
  return bad;
}

static const char *keep_str(arena **ar, const char *s) {
  if (!s) return NULL;
  size_t n = strlen(s) + 1;
  char *c = akeep(ar, n);
  return c ? memcpy(c, s, n) : "";
}

/* Frees what a file's loaded cases own besides its arena. */
static void free_loaded(hfile *f) {
  if (!f->released)
    for (int k = 0; k < f->ncases; k++) {
      mtg_setup_free(f->cases[k]->setup);
      if (!f->cases[k]->pool_borrowed) mtg_pool_free(f->cases[k]->pool);
    }
  ydoc_free(f->doc);
  f->doc = NULL;
  arena_free(f->arena);
  f->arena = NULL;
}

void corpus_release_file(hfile *f) {
  if (f->released) return;
  for (int k = 0; k < f->ncases; k++) {
    const hcase *hc = f->cases[k];
    hcase *h = akeep(&f->keep, sizeof *h);
    const char **rules = akeep(&f->keep, sizeof *rules * (size_t)(hc->nrules ? hc->nrules : 1));
    if (!h || !rules) return; /* out of memory: the rest stay loaded, freed by corpus_free */
    h->file = f;
    h->line = hc->line;
    h->id_line = hc->id_line;
    h->id_col = hc->id_col;
    h->id = keep_str(&f->keep, hc->id);
    h->title = keep_str(&f->keep, hc->title);
    h->source = keep_str(&f->keep, hc->source);
    h->reason = keep_str(&f->keep, hc->reason);
    for (int i = 0; i < hc->nrules; i++) rules[i] = keep_str(&f->keep, hc->rules[i]);
    h->rules = rules;
    h->nrules = hc->nrules;
    h->todo = hc->todo;
    h->err0 = hc->err0;
    h->nerr = hc->nerr;
    mtg_setup_free(hc->setup);
    if (!hc->pool_borrowed) mtg_pool_free(hc->pool);
    f->cases[k] = h;
  }
  f->released = 1;
  free_loaded(f);
}

/* Line `line` of the file at `path`, for an error found after its parse tree
 * is gone; empty if it can't be read. */
static void file_line(const char *path, int line, char *out, size_t size) {
  out[0] = 0;
  FILE *fp = fopen(path, "rb");
  if (!fp) return;
  int at = 1, c;
  size_t n = 0;
  while (at < line && (c = getc(fp)) != EOF)
    if (c == '\n') at++;
  while (at == line && (c = getc(fp)) != EOF && c != '\n' && c != '\r')
    if (n + 1 < size) out[n++] = (char)c;
  out[n] = 0;
  fclose(fp);
}

void case_dup_error(const hcase *hc, mtg_error *e) {
  memset(e, 0, sizeof *e);
  e->status = MTG_EDATA;
  snprintf(e->file, sizeof e->file, "%s", hc->file->path);
  e->line = hc->id_line;
  e->col = hc->id_col;
  snprintf(e->msg, sizeof e->msg, "duplicate case id '%s' (first used in %s:%d)", hc->id, hc->dup_file, hc->dup_line);
  file_line(hc->file->path, hc->id_line, e->source, sizeof e->source);
}

int corpus_file_errors(hcorpus *c, int i, hids **ids, buf *errs) {
  hfile *f = &c->files[i];
  if (!*ids && (!(*ids = calloc(1, sizeof **ids)) || !((*ids)->slot = calloc((*ids)->cap = 256, sizeof *(*ids)->slot)))) {
    buf_printf(errs, "harness: out of memory\n");
    return 1;
  }
  if (!(*ids)->c) { /* the bits of a file's index: enough for the corpus's */
    int fbits = 0;
    while (fbits < 32 && (uint64_t)c->nfiles > (uint64_t)1 << fbits) fbits++;
    (*ids)->shift = ID_CASE_BITS + fbits;
    (*ids)->c = c;
  }
  /* parse errors, then each case's errors and duplicate id */
  int bad = 0;
  if (f->failed) {
    report(errs, f->err);
    bad++;
  }
  for (int k = 0; k < f->ncases; k++) {
    hcase *hc = f->cases[k];
    for (int e = hc->err0; e < hc->err0 + hc->nerr && e < f->nerrs; e++) report(errs, &f->errs[e]);
    bad += hc->nerr;
    int oom = 0;
    const char *first = NULL;
    int line = hc->id ? hids_add(*ids, (uint32_t)i, k, hc, &first, &oom) : 0;
    if (oom) {
      buf_printf(errs, "harness: out of memory\n");
      bad++;
    }
    if (first) {
      mtg_error e;
      hc->dup_file = first;
      hc->dup_line = line;
      case_dup_error(hc, &e);
      report(errs, &e);
      bad++;
    }
  }
  if (f->nmore) buf_printf(errs, "%s: %d more error%s not shown\n", f->path, f->nmore, f->nmore == 1 ? "" : "s");
  return bad;
}

int corpus_errors(hcorpus *c, buf *errs) {
  hids *ids = NULL;
  int bad = 0;
  for (int i = 0; i < c->nfiles; i++) bad += corpus_file_errors(c, i, &ids, errs);
  hids_free(ids);
  return bad;
}

void corpus_drop_file(hfile *f) {
  if (!f->released) return;
  free(f->cases);
  f->cases = NULL;
  f->ncases = 0;
  free(f->errs);
  f->errs = NULL;
  f->nerrs = f->caperrs = 0;
  arena_free(f->keep);
  f->keep = NULL;
}

void corpus_free(hcorpus *c) {
  for (int i = 0; i < c->nfiles; i++) {
    free_loaded(&c->files[i]);
    if (c->files[i].err != &no_memory) free((void *)c->files[i].err);
    free(c->files[i].cases);
    free(c->files[i].errs);
    arena_free(c->files[i].keep);
  }
  free(c->files);
  arena_free(c->arena);
  memset(c, 0, sizeof *c);
}
