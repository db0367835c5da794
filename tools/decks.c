/* decks.c - loading self-play decks (see decks.h). */
#include "decks.h"

#include "mtg_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ydoc.h"

#define MAX_COPIES 1000
/* a game holds the two decks of a self-play game: each may fill half the setup */
#define DECK_MAX_CARDS (MTG_MAX_SETUP_CARDS / 2)

static int add(deck *d, const char *card, int n, mtg_error *err) {
  deck_entry *e = realloc(d->entries, (size_t)(d->nentries + 1) * sizeof *e);
  char *copy = malloc(strlen(card) + 1);
  if (e) d->entries = e;
  if (!e || !copy) {
    free(copy);
    mtg_error_set(err, MTG_ENOMEM, "out of memory");
    return MTG_ENOMEM;
  }
  strcpy(copy, card);
  e[d->nentries].card = copy;
  e[d->nentries].n = n;
  d->nentries++;
  d->ncards += n;
  return 0;
}

static int entry(deck *d, const mtg_pool *pool, const ydoc *doc, const ynode *it, mtg_error *err) {
  static const char *const keys[] = {"card", "n", NULL};
  const ynode *name = it;
  long n = 1;
  if (it->kind == YN_MAP) {
    if (ymap_check_keys(doc, it, keys, "deck entry", err)) return err->status ? err->status : MTG_EDATA;
    name = ymap_get(it, "card");
    if (!name) return ydoc_error(doc, it, err, "a deck entry needs `card: NAME`"), MTG_EDATA;
    const ynode *count = ymap_get(it, "n");
    if (count && ynode_int(doc, count, &n, err)) return MTG_EDATA;
    if (n < 1 || n > MAX_COPIES) return ydoc_error(doc, count, err, "n must be 1 to %d", MAX_COPIES), MTG_EDATA;
  }
  if (d->ncards + n > DECK_MAX_CARDS)
    return ydoc_error(doc, it, err, "the deck has more than %d cards: a game holds two decks of at most %d cards each",
                      DECK_MAX_CARDS, DECK_MAX_CARDS),
           MTG_EDATA;
  const char *card;
  if (ynode_str(doc, name, &card, err)) return MTG_EDATA;
  if (!mtg_pool_has(pool, card)) {
    char near[256];
    mtg_pool_suggest(pool, card, near, sizeof near);
    ydoc_error(doc, name, err, "no card named \"%s\" in the pool%s%s%s", card, near[0] ? " (did you mean " : "",
               near, near[0] ? "?)" : "");
    return MTG_EDATA;
  }
  return add(d, card, (int)n, err);
}

int deck_load(deck *d, const mtg_pool *pool, const char *path, mtg_error *err) {
  memset(d, 0, sizeof *d);
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t len = strlen(base);
  if (len > 5 && !strcmp(base + len - 5, ".yaml")) len -= 5;
  snprintf(d->name, sizeof d->name, "%.*s", (int)(len < sizeof d->name ? len : sizeof d->name - 1), base);
  ydoc *doc;
  if (ydoc_parse_file(path, &doc, err)) return err->status ? err->status : MTG_EDATA;
  int rc = 0;
  const ynode *root = ydoc_count(doc) == 1 ? ydoc_root(doc, 0) : NULL;
  if (!root || root->kind != YN_SEQ || root->n == 0) {
    mtg_error_set(err, MTG_EDATA, "a deck is one YAML document: a non-empty list of card names");
    snprintf(err->file, sizeof err->file, "%s", path);
    rc = MTG_EDATA;
  }
  for (int i = 0; !rc && i < root->n; i++) rc = entry(d, pool, doc, root->items[i], err);
  ydoc_free(doc);
  if (rc) deck_free(d);
  return rc;
}

void deck_free(deck *d) {
  for (int i = 0; i < d->nentries; i++) free(d->entries[i].card);
  free(d->entries);
  d->entries = NULL;
  d->nentries = d->ncards = 0;
}

int deck_to_setup(const deck *d, mtg_setup *s, int player, mtg_error *err) {
  for (int i = 0; i < d->nentries; i++)
    for (int k = 0; k < d->entries[i].n; k++) {
      int rc = mtg_setup_card(s, player, MTG_Z_LIBRARY, d->entries[i].card, err);
      if (rc < 0) return rc;
    }
  return 0;
}
