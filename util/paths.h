/* paths: where the programs find their data. The card pool is, in order:
 * the --cards option; the ARBITER_CARDS environment variable; engine/cards
 * when the current directory is a source tree of arbiter; the data directory
 * compiled into the build (PREFIX/share/arbiter/cards, installed there by
 * `make install`). Self-play's default decks come from the tree or from the
 * data directory likewise. */
#ifndef PATHS_H
#define PATHS_H

/* The card pool directory to use, given the --cards option (NULL if none). */
const char *paths_cards(const char *option);
/* The directory of self-play's default decks: replays/decks in a source
 * tree, else the installed data directory's decks. */
const char *paths_decks(void);
/* Where a program's --help says the card pool comes from. */
const char *paths_cards_help(void);

#endif
