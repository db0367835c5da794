/* paths: the card pool's directory (see paths.h). The installed data
 * directory comes from the build's PREFIX (datadir.h, made by the Makefile). */
#include "paths.h"

#include <stdlib.h>
#include <sys/stat.h>

#include "datadir.h"

static int is_dir(const char *p) {
  struct stat st;
  return !stat(p, &st) && S_ISDIR(st.st_mode);
}

static int is_file(const char *p) {
  struct stat st;
  return !stat(p, &st) && S_ISREG(st.st_mode);
}

const char *paths_cards(const char *option) {
  if (option) return option;
  const char *env = getenv("ARBITER_CARDS");
  if (env && *env) return env;
  /* a source tree: its own pool, which may differ from the installed one */
  if (is_dir("engine/cards") && is_file("engine/include/mtg.h")) return "engine/cards";
  return ARBITER_DATADIR "/cards";
}

const char *paths_decks(void) {
  if (is_dir("replays/decks") && is_file("engine/include/mtg.h")) return "replays/decks";
  return ARBITER_DATADIR "/decks";
}

const char *paths_cards_help(void) {
  return "the card pool: --cards DIR, else $ARBITER_CARDS, else engine/cards in a source\n"
         "tree, else " ARBITER_DATADIR "/cards (the installed pool)";
}
