/* card.c - the card pool: owns compiled card definitions (an arena per pool),
 * looks cards up by name, hashes the pool for replays, and the name tables of
 * the card vocabulary (keywords, operations). Loading lives in cardload.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "suggest.h"

const char *const kw_names[KW_COUNT] = {
    "flying", "reach", "haste", "vigilance", "defender", "first_strike", "double_strike",
    "trample", "deathtouch", "lifelink", "indestructible", "hexproof", "shroud", "infect",
    "shadow", "protection_from_everything", "protection_from_white", "protection_from_blue",
    "protection_from_black", "protection_from_red", "protection_from_green",
    "protection_from_multicolored_spells", "cant_be_countered", "flash", "menace", "undying",
    "persist", "storm", "start_your_engines", "space_sculptor", "phasing", "exalted", "prowess", "fear", "intimidate",
    "skulk", "horsemanship", "flanking", "wither", "banding", "plainswalk", "islandwalk", "swampwalk", "mountainwalk",
    "forestwalk", "exert", "changeling", "soulbond", "extort", "cascade", "partner", "convoke", "improvise", "delve"};

const char *const op_names[OP_COUNT] = {
#define X(n) #n,
    OPS(X)
#undef X
};

void *pool_alloc(mtg_pool *p, size_t n) {
  n = (n + 15) & ~(size_t)15;
  pblock *b = p->arena;
  if (!b || b->size - b->used < n) {
    /* blocks grow from 4 KB: a case's few inline cards need little */
    size_t sz = b ? (b->size < 65536 ? 2 * b->size : 65536) : 4096;
    if (sz < n) sz = n;
    b = malloc(sizeof *b + sz);
    if (!b) return NULL;
    b->next = p->arena;
    b->used = 0;
    b->size = sz;
    p->arena = b;
  }
  void *r = (char *)b->mem + b->used;
  b->used += n;
  memset(r, 0, n);
  return r;
}

const char *pool_strdup(mtg_pool *p, const char *s) {
  size_t n = strlen(s);
  char *r = pool_alloc(p, n + 1);
  if (r) memcpy(r, s, n + 1);
  return r;
}

int mtg_pool_new(mtg_pool **out, const mtg_pool *parent) {
  if (!out) return MTG_EARG;
  mtg_pool *p = calloc(1, sizeof *p);
  *out = p;
  if (!p) return MTG_ENOMEM;
  p->no_texts = parent && parent->no_texts;
  p->parent = parent;
  if (!parent && pool_kw_init(p)) {
    mtg_pool_free(p);
    *out = NULL;
    return MTG_ENOMEM;
  }
  return MTG_OK;
}

int mtg_pool_new_like(mtg_pool **out, const mtg_pool *like) {
  if (!out || !like) return MTG_EARG;
  while (like->parent) like = like->parent;
  mtg_pool *p = calloc(1, sizeof *p);
  *out = p;
  if (!p) return MTG_ENOMEM;
  memcpy(p->kwdef, like->kwdef, sizeof p->kwdef);
  p->kwmask = like->kwmask;
  return MTG_OK;
}

/* The names a definition is found by in its pool: its own, and a modal
 * double-faced card's back face's (712.3). */
static int def_names(const CardDef *d, const char *names[2]) {
  names[0] = d->name;
  names[1] = d->modal && d->back ? d->back->name : NULL;
  return names[1] ? 2 : 1;
}

void mtg_pool_skip_texts(mtg_pool *p) {
  if (p) p->no_texts = 1;
}

int mtg_pool_share(mtg_pool *p, const mtg_pool *from) {
  if (!p || !from || p == from) return MTG_EARG;
  /* every name first, so that a clash adds nothing (load_node's test) */
  for (int i = 0; i < from->n; i++) {
    const char *names[2];
    for (int j = def_names(from->cards[i], names) - 1; j >= 0; j--)
      if (pool_find_own(p, names[j])) return MTG_EDATA;
  }
  for (int i = 0; i < from->n; i++)
    if (pool_add(p, from->cards[i])) return MTG_ENOMEM;
  for (int i = 0; i < from->ntok; i++)
    if (pool_add_token(p, from->tokens[i])) return MTG_ENOMEM;
  return MTG_OK;
}

int mtg_pool_share_card(mtg_pool *p, const mtg_pool *from, const char *name) {
  if (!p || !from || !name || p == from) return MTG_EARG;
  const CardDef *d = pool_find_own(from, name);
  if (!d || strcmp(d->name, name)) return MTG_EDATA;
  const char *names[2];
  for (int j = def_names(d, names) - 1; j >= 0; j--)
    if (pool_find_own(p, names[j])) return MTG_EDATA;
  return pool_add(p, (CardDef *)d);
}

uint64_t pool_kw_mask(const mtg_pool *p) {
  while (p && p->parent) p = p->parent;
  return p ? p->kwmask : 0;
}

const Ability *pool_kw_ability(const mtg_pool *p, int kw, const CardDef **def) {
  while (p && p->parent) p = p->parent;
  const CardDef *d = p && kw >= 0 && kw < KW_COUNT ? p->kwdef[kw] : NULL;
  if (def) *def = d;
  return d ? &d->ab[0] : NULL;
}

void mtg_pool_free(mtg_pool *p) {
  if (!p) return;
  pblock *b = p->arena;
  while (b) {
    pblock *n = b->next;
    free(b);
    b = n;
  }
  free(p->cards);
  free(p->tokens);
  free(p->index);
  free(p->tindex);
  free(p->faces);
  free(p);
}

int mtg_pool_count(const mtg_pool *p) { return p ? p->n : MTG_EARG; }
const char *mtg_pool_name(const mtg_pool *p, int i) { return p && i >= 0 && i < p->n ? p->cards[i]->name : NULL; }

static unsigned name_hash(const char *s) {
  unsigned h = 2166136261u;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

/* Inserts entry i (name `name`) into an open-addressing index of cap slots. */
static void slot_put(int *ix, int cap, const char *name, int i) {
  unsigned h = name_hash(name) & (unsigned)(cap - 1);
  while (ix[h]) h = (h + 1) & (unsigned)(cap - 1);
  ix[h] = i + 1;
}

/* The entry named `name` in an index of cap slots (0 when empty) whose
 * entry i is named name_of(p, i), or -1. */
static int slot_find(const int *ix, int cap, const char *name, const char *(*name_of)(const mtg_pool *, int),
                     const mtg_pool *p) {
  if (!cap) return -1;
  for (unsigned h = name_hash(name) & (unsigned)(cap - 1); ix[h]; h = (h + 1) & (unsigned)(cap - 1))
    if (!strcmp(name_of(p, ix[h] - 1), name)) return ix[h] - 1;
  return -1;
}

/* Makes room in an index for n entries (at most half full), rehashing the
 * names[0..n-1) already in it; 0 or MTG_ENOMEM. Entries are added one at a
 * time (the index held n - 1), so doubling always makes room. */
static int index_grow(int **ix, int *cap, int n, const char *(*name_of)(const mtg_pool *, int), const mtg_pool *p) {
  if (2 * n <= *cap) return MTG_OK;
  int c = *cap ? 2 * *cap : 64;
  int *v = calloc((size_t)c, sizeof *v);
  if (!v) return MTG_ENOMEM;
  for (int k = 0; k < n - 1; k++) slot_put(v, c, name_of(p, k), k);
  free(*ix);
  *ix = v;
  *cap = c;
  return MTG_OK;
}

static const char *card_name_at(const mtg_pool *p, int i) { return p->cards[i]->name; }
static const char *token_name_at(const mtg_pool *p, int i) { return p->tokens[i]; }

/* Adds card i (the last) to the name index, growing it (loading is
 * single-threaded; lookups from many games at once only read it). */
static int index_add(mtg_pool *p, int i) {
  if (index_grow(&p->index, &p->icap, i + 1, card_name_at, p)) return MTG_ENOMEM;
  slot_put(p->index, p->icap, p->cards[i]->name, i);
  return MTG_OK;
}

const CardDef *pool_find_own(const mtg_pool *p, const char *name) {
  int i = slot_find(p->index, p->icap, name, card_name_at, p);
  if (i >= 0) return p->cards[i];
  /* a modal double-faced card by its back face's name (712.3); few cards */
  for (int i = 0; i < p->nfaces; i++)
    if (!strcmp(p->cards[p->faces[i]]->back->name, name)) return p->cards[p->faces[i]];
  return NULL;
}

const CardDef *pool_find(const mtg_pool *p, const char *name) {
  for (; p; p = p->parent) {
    const CardDef *d = pool_find_own(p, name);
    if (d) return d;
  }
  return NULL;
}

int mtg_pool_has(const mtg_pool *p, const char *name) { return p && name && pool_find(p, name) != NULL; }

const char *mtg_pool_card_text(const mtg_pool *p, const char *name) {
  const CardDef *d = p && name ? pool_find(p, name) : NULL;
  return d ? d->yaml : NULL;
}

const char *mtg_pool_card_name(const mtg_pool *p, const char *name) {
  const CardDef *d = p && name ? pool_find(p, name) : NULL;
  return d ? d->name : NULL;
}

int mtg_pool_has_token(const mtg_pool *p, const char *name) {
  if (!name) return 0;
  for (; p; p = p->parent)
    if (slot_find(p->tindex, p->tcap, name, token_name_at, p) >= 0) return 1;
  return 0;
}

int pool_add_token(mtg_pool *p, const char *name) {
  if (mtg_pool_has_token(p, name)) return MTG_OK;
  if (p->ntok == p->captok) {
    int cap = p->captok ? p->captok * 2 : 16;
    const char **t = realloc(p->tokens, (size_t)cap * sizeof *t);
    if (!t) return MTG_ENOMEM;
    p->tokens = t;
    p->captok = cap;
  }
  p->tokens[p->ntok] = name;
  if (index_grow(&p->tindex, &p->tcap, p->ntok + 1, token_name_at, p)) return MTG_ENOMEM;
  slot_put(p->tindex, p->tcap, name, p->ntok);
  p->ntok++;
  return MTG_OK;
}

int pool_add(mtg_pool *p, CardDef *d) {
  if (p->n == p->cap) {
    int cap = p->cap ? p->cap * 2 : 64;
    CardDef **c = realloc(p->cards, (size_t)cap * sizeof *c);
    if (!c) return MTG_ENOMEM;
    p->cards = c;
    p->cap = cap;
  }
  int face = d->modal && d->back;
  if (face) {
    if (p->nfaces == p->capfaces) {
      int cap = p->capfaces ? p->capfaces * 2 : 8;
      int *f = realloc(p->faces, (size_t)cap * sizeof *f);
      if (!f) return MTG_ENOMEM;
      p->faces = f;
      p->capfaces = cap;
    }
    p->faces[p->nfaces++] = p->n;
  }
  p->cards[p->n++] = d;
  if (index_add(p, p->n - 1)) {
    p->n--;
    p->nfaces -= face;
    return MTG_ENOMEM;
  }
  return MTG_OK;
}

/* All names visible from p (own first, then parents'), for suggestions. */
static int all_names(const mtg_pool *p, const char ***out) {
  int n = 0;
  for (const mtg_pool *q = p; q; q = q->parent) n += q->n;
  const char **v = malloc((size_t)(n ? n : 1) * sizeof *v);
  if (!v) return -1;
  int k = 0;
  for (const mtg_pool *q = p; q; q = q->parent)
    for (int i = 0; i < q->n; i++) v[k++] = q->cards[i]->name;
  *out = v;
  return n;
}

void mtg_pool_suggest(const mtg_pool *p, const char *name, char *buf, size_t size) {
  if (!buf || !size) return;
  buf[0] = 0;
  if (!p || !name) return;
  const char **names;
  int n = all_names(p, &names);
  if (n < 0) return;
  const char *best[3];
  int k = suggest_nearest(name, names, n, best, 3);
  suggest_join(best, k, buf, size);
  free(names);
}

uint64_t mtg_pool_hash(const mtg_pool *p) {
  /* Order-independent within a pool: definitions may be loaded in any order. */
  uint64_t h = 0x9e3779b97f4a7c15ULL;
  for (; p; p = p->parent) {
    uint64_t x = 0;
    for (int i = 0; i < p->n; i++) x += hash_mix(p->cards[i]->hash);
    h = hash_mix(h ^ x);
  }
  return h;
}

/* ---- mana costs ---- */

int mana_value(const ManaCost *c) {
  int v = c->generic + c->nhybrid;
  for (int i = 0; i < COL_COUNT; i++) v += c->colored[i];
  for (int i = 0; i < 5; i++) v += c->phyrexian[i]; /* 202.3g: one each */
  return v;
}

/* a += b times n: costs paid together (kicker, buyback, 601.2f), or the
 * combined mana cost of a split card's halves (709.4b) */
void mana_add(ManaCost *a, const ManaCost *b, int n) {
  for (int k = 0; k < n; k++) {
    a->generic = (uint8_t)(a->generic + b->generic);
    for (int i = 0; i < COL_COUNT; i++) a->colored[i] = (uint8_t)(a->colored[i] + b->colored[i]);
    for (int h = 0; h < b->nhybrid && a->nhybrid < 4; h++) {
      a->hybrid[a->nhybrid][0] = b->hybrid[h][0];
      a->hybrid[a->nhybrid++][1] = b->hybrid[h][1];
    }
    for (int i = 0; i < 5; i++) a->phyrexian[i] = (uint8_t)(a->phyrexian[i] + b->phyrexian[i]);
    a->x = (uint8_t)(a->x + b->x);
    a->present |= b->present;
  }
}

uint8_t mana_colors(const ManaCost *c) {
  uint8_t m = 0;
  for (int i = 0; i < 5; i++) /* the five colors; {C} is no color */
    if (c->colored[i] || c->phyrexian[i]) m |= (uint8_t)(1u << i);
  for (int i = 0; i < c->nhybrid; i++) {
    if (c->hybrid[i][0] < 5) m |= (uint8_t)(1u << c->hybrid[i][0]);
    if (c->hybrid[i][1] < 5) m |= (uint8_t)(1u << c->hybrid[i][1]);
  }
  return m;
}

int color_from_char(int ch) {
  switch (ch) {
  case 'W': return COL_W;
  case 'U': return COL_U;
  case 'B': return COL_B;
  case 'R': return COL_R;
  case 'G': return COL_G;
  case 'C': return COL_C;
  }
  return -1;
}

const char *const color_names[COL_COUNT] = {"white", "blue", "black", "red", "green", "colorless"};

int color_parse(const char *s) {
  for (int i = 0; i < 5; i++)
    if (!strcmp(color_names[i], s)) return i;
  return -1;
}

/* Parses "{3}{R}{R}", "{X}{X}", "{G/W}", "{C}" into c. Symbols {T} and {Q} are
 * returned through *tap / *untap when those are non-NULL. Returns 0 or -1 with
 * a description in why. */
int mana_parse(const char *s, ManaCost *c, int *tap, int *untap, char *why, size_t wsz) {
  memset(c, 0, sizeof *c);
  c->present = 1;
  const char *p = s;
  while (*p) {
    if (*p == ' ' || *p == ',') { p++; continue; }
    if (*p != '{') {
      snprintf(why, wsz, "expected a mana symbol like {2} or {R} at '%s'", p);
      return -1;
    }
    const char *e = strchr(p, '}');
    if (!e) {
      snprintf(why, wsz, "unterminated mana symbol at '%s'", p);
      return -1;
    }
    char sym[16];
    size_t n = (size_t)(e - p - 1);
    if (n == 0 || n >= sizeof sym) {
      snprintf(why, wsz, "bad mana symbol at '%s'", p);
      return -1;
    }
    memcpy(sym, p + 1, n);
    sym[n] = 0;
    /* every count is bounded where it is read: the cost's fields are bytes */
    if (sym[0] >= '0' && sym[0] <= '9') {
      char *end;
      long v = strtol(sym, &end, 10);
      if (*end) { snprintf(why, wsz, "unknown mana symbol {%s}", sym); return -1; }
      if (v > 99 || c->generic + v > 99) { snprintf(why, wsz, "generic mana {%s} too large (at most 99 in all)", sym); return -1; }
      c->generic = (uint8_t)(c->generic + v);
    } else if (!strcmp(sym, "X")) {
      if (c->x >= 3) { snprintf(why, wsz, "more than three {X} symbols"); return -1; }
      c->x++;
    } else if (!strcmp(sym, "T") && tap) {
      *tap = 1;
    } else if (!strcmp(sym, "Q") && untap) {
      *untap = 1;
    } else if (n == 1 && color_from_char(sym[0]) >= 0) {
      if (c->colored[color_from_char(sym[0])] >= 99) { snprintf(why, wsz, "more than 99 {%s} symbols", sym); return -1; }
      c->colored[color_from_char(sym[0])]++;
    } else if (n == 3 && sym[1] == '/' && sym[2] == 'P' && color_from_char(sym[0]) >= 0 && sym[0] != 'C') {
      if (c->phyrexian[color_from_char(sym[0])] >= 8) { snprintf(why, wsz, "more than 8 {%s} symbols", sym); return -1; }
      c->phyrexian[color_from_char(sym[0])]++; /* 107.4f */
    } else if (n == 3 && sym[1] == '/' && color_from_char(sym[0]) >= 0 && color_from_char(sym[2]) >= 0) {
      if (c->nhybrid >= NELEM(c->hybrid)) {
        snprintf(why, wsz, "more than %d hybrid mana symbols ({%s} is one too many)", (int)NELEM(c->hybrid), sym);
        return -1;
      }
      c->hybrid[c->nhybrid][0] = (uint8_t)color_from_char(sym[0]);
      c->hybrid[c->nhybrid][1] = (uint8_t)color_from_char(sym[2]);
      c->nhybrid++;
    } else {
      snprintf(why, wsz, "unknown mana symbol {%s}", sym);
      return -1;
    }
    p = e + 1;
  }
  return 0;
}

/* The symbols of a player's counters in costs, each paid by removing one
 * such counter from the paying player: {E} energy (107.14), {TK} a ticket
 * (107.17a). */
const CounterSymbol counter_symbols[N_COUNTER_SYMBOLS] = {{"{E}", "energy", "107.14"}, {"{TK}", "ticket", "107.17a"}};

/* A cost's counter symbols taken out of it: the rest of s, for mana_parse,
 * goes into rest (of size rsz), and n[i] counts counter_symbols[i]. Returns
 * -1 when rest would not hold the rest. */
int cost_counter_symbols(const char *s, char *rest, size_t rsz, int n[N_COUNTER_SYMBOLS]) {
  size_t u = 0;
  for (int i = 0; i < N_COUNTER_SYMBOLS; i++) n[i] = 0;
  while (*s) {
    int i = 0;
    while (i < N_COUNTER_SYMBOLS && strncmp(s, counter_symbols[i].sym, strlen(counter_symbols[i].sym))) i++;
    if (i < N_COUNTER_SYMBOLS) {
      n[i]++;
      s += strlen(counter_symbols[i].sym);
      continue;
    }
    if (u + 1 >= rsz) return -1;
    rest[u++] = *s++;
  }
  rest[u] = 0;
  return 0;
}

/* The mana an add_mana step names: mana symbols added together ("{R}{G}",
 * "{C}{C}"), or one of several listed with "or" ("{G} or {W}", "{W}, {U}, or
 * {B}": one mana of a color its controller chooses among them, 106.1). Fills
 * the colors as a mask (bits W U B R G C) and whether it is such a choice;
 * returns 0 or -1 with a description in why. */
int mana_add_parse(const char *s, uint8_t *mask, int *one_of, char *why, size_t wsz) {
  int n = 0, ors = 0;
  *mask = 0;
  *one_of = 0;
  for (const char *p = s; *p;) {
    if (*p == ' ' || *p == ',') { p++; continue; }
    if (!strncmp(p, "or", 2) && (p[2] == ' ' || p[2] == '{')) { ors++; p += 2; continue; }
    int col = p[0] == '{' ? color_from_char(p[1]) : -1;
    if (col < 0 || p[2] != '}') {
      snprintf(why, wsz, "expected mana symbols like \"{G}\", \"{G} or {W}\", any or chosen, found '%s'", p);
      return -1;
    }
    if (ors && (*mask >> col & 1)) {
      snprintf(why, wsz, "{%c} listed twice in a choice", p[1]);
      return -1;
    }
    *mask |= (uint8_t)(1u << col);
    n++;
    p += 3;
  }
  if (!n) {
    snprintf(why, wsz, "no mana symbol");
    return -1;
  }
  if (ors && (*mask >> COL_C & 1)) {
    snprintf(why, wsz, "a choice of mana lists colors only ({W} {U} {B} {R} {G})");
    return -1;
  }
  if (ors && n < 2) {
    snprintf(why, wsz, "a choice of mana lists at least two symbols: \"{G} or {W}\"");
    return -1;
  }
  *one_of = ors > 0;
  return 0;
}

int mana_format(const ManaCost *c, char *buf, size_t size) {
  size_t u = 0;
  buf[0] = 0;
#define PUT(...) do { int w_ = snprintf(buf + u, size - u, __VA_ARGS__); if (w_ < 0 || (size_t)w_ >= size - u) return -1; u += (size_t)w_; } while (0)
  for (int i = 0; i < c->x; i++) PUT("{X}");
  if (c->generic || (!c->x && mana_value(c) == 0 && c->present)) PUT("{%d}", c->generic); /* "{0}": a cost of nothing */
  for (int i = 0; i < c->nhybrid; i++) PUT("{%c/%c}", "WUBRGC"[c->hybrid[i][0]], "WUBRGC"[c->hybrid[i][1]]);
  for (int col = 0; col < 5; col++)
    for (int k = 0; k < c->phyrexian[col]; k++) PUT("{%c/P}", "WUBRG"[col]);
  for (int col = 0; col < COL_COUNT; col++)
    for (int k = 0; k < c->colored[col]; k++) PUT("{%c}", "WUBRGC"[col]);
#undef PUT
  return 0;
}
