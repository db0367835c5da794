/* decks.h - self-play decks: YAML lists of pool card names, each item a name
 * or {card: NAME, n: COUNT} (replays/decks/ holds the default set). */
#ifndef DECKS_H
#define DECKS_H

#include "mtg.h"

typedef struct deck_entry {
  char *card;
  int n;
} deck_entry;

typedef struct deck {
  char name[64];      /* the file's base name without .yaml */
  int nentries, ncards;
  deck_entry *entries;
} deck;

/* Loads and checks a deck against the pool: every name must be a pool card
 * (errors are located at file:line:column, with a suggestion), and the deck
 * at most MTG_MAX_SETUP_CARDS / 2 cards, so that any two fit in a game. */
int deck_load(deck *d, const mtg_pool *pool, const char *path, mtg_error *err);
void deck_free(deck *d);

/* Puts the deck into player's library, in listed order (self-play shuffles). */
int deck_to_setup(const deck *d, mtg_setup *s, int player, mtg_error *err);

#endif
