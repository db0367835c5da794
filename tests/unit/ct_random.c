/* ct_random.c - random games that lean on the card types of cardtype.c
 * (Sagas, dungeons, space sculptor, battles): 40-card libraries of random
 * basic lands, cards of those types and random cards of the pool, random
 * legal answers to every decision (play.c), the invariant checker after each
 * one. Prints how often each of the state-based actions 704.5s-704.5x and
 * the related events happened, so a run shows they were exercised.
 *
 * usage: ct_random [--games N] [--seed S] [--known FILE] [--verbose]
 * Game i uses seed S+i. Exit 0 when every game ran clean (or failed only
 * with a known engine issue listed in FILE), 1 otherwise. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mtg.h"
#include "play.h"

static const char *const extra_cards =
    "- name: Test Sculptor\n"
    "  cost: \"{1}{U}\"\n"
    "  type: Creature — Human\n"
    "  pt: 1/1\n"
    "  keywords: [space_sculptor]\n"
    "  text: Space sculptor\n"
    "- name: Test Battle\n"
    "  cost: \"{1}{R}\"\n"
    "  type: Battle\n"
    "  defense: 2\n";

static const char *const focus[] = {"History of Benalia", "The Eldest Reborn", "Fates' Reversal", "Shortcut Seeker",
                                    "Invasion of Dominaria", "Test Sculptor", "Test Battle", "Grizzly Bears",
                                    "Lightning Bolt", "Shock"};
static const char *const basics[] = {"Plains", "Island", "Swamp", "Mountain", "Forest"};

static const char *const watch[] = {"sba rule=704.5s", "sba rule=704.5t", "sba rule=704.5u", "sba rule=704.5v",
                                    "sba rule=704.5w", "sba rule=704.5x", "venture player=", "dungeon player=",
                                    "complete player=", "protector obj=", "kind=lore n=1 rule=714.3b",
                                    "transformed=1", "sector=none", "scry player="};
#define NWATCH (int)(sizeof watch / sizeof *watch)

static int below(uint64_t *r, int n) { return (int)(play_rng_next(r) % (uint32_t)n); }

static mtg_setup *make_setup(const mtg_pool *pool, uint64_t seed, mtg_error *err) {
  static const char *const names[] = {"alice", "bob", "carol"};
  uint64_t r = seed * 0x9E3779B97F4A7C15ULL + 17;
  mtg_setup *s = mtg_setup_new(pool);
  if (!s) return NULL;
  int np = below(&r, 6) == 0 ? 3 : 2;
  for (int p = 0; p < np; p++) mtg_setup_player(s, names[p], 20, 0);
  mtg_setup_seed(s, seed);
  mtg_setup_max_turns(s, 25);
  int total = mtg_pool_count(pool);
  for (int p = 0; p < np; p++) {
    for (int i = 0; i < 40; i++) {
      const char *card;
      int rc = MTG_EDATA;
      for (int tries = 0; rc == MTG_EDATA && tries < 16; tries++) {
        int k = below(&r, 40);
        if (i < 17 || tries == 15) card = basics[below(&r, 5)];
        else if (k < 20) card = focus[below(&r, (int)(sizeof focus / sizeof *focus))];
        else card = mtg_pool_name(pool, below(&r, total)); /* a dungeon is refused: draw again */
        rc = mtg_setup_card(s, p, MTG_Z_LIBRARY, card, err);
      }
      if (rc < 0) {
        mtg_setup_free(s);
        return NULL;
      }
    }
  }
  return s;
}

int main(int argc, char **argv) {
  long games = 200, seed = 1;
  int verbose = 0;
  const char *known = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--games") && i + 1 < argc) games = atol(argv[++i]);
    else if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = atol(argv[++i]);
    else if (!strcmp(argv[i], "--known") && i + 1 < argc) known = argv[++i];
    else if (!strcmp(argv[i], "--verbose")) verbose = 1;
    else {
      fprintf(stderr, "usage: ct_random [--games N] [--seed S] [--known FILE] [--verbose]\n");
      return 2;
    }
  }
  char kpat[16][256];
  int nk = 0;
  FILE *kf = known ? fopen(known, "r") : NULL;
  if (known && !kf) {
    fprintf(stderr, "ct_random: cannot read %s\n", known);
    return 2;
  }
  char line[1024];
  while (kf && nk < 16 && fgets(line, sizeof line, kf)) {
    char *tab = strchr(line, '\t');
    if (line[0] == '#' || !tab) continue;
    size_t len = (size_t)(tab - line);
    if (len >= sizeof kpat[0]) len = sizeof kpat[0] - 1;
    memcpy(kpat[nk], line, len);
    kpat[nk++][len] = 0;
  }
  if (kf) fclose(kf);
  mtg_pool *base, *pool;
  mtg_error e;
  if (mtg_pool_new(&base, NULL) < 0 || mtg_pool_load_dir(base, "engine/cards", &e) < 0 || mtg_pool_new(&pool, base) < 0 ||
      mtg_pool_load_buffer(pool, "ct_random", extra_cards, strlen(extra_cards), &e) < 0) {
    char b[2048];
    mtg_error_format(&e, b, sizeof b);
    fprintf(stderr, "ct_random: %s\n", b);
    return 2;
  }
  long seen[NWATCH] = {0}, failed = 0, skipped = 0;
  play_stats st;
  memset(&st, 0, sizeof st);
  for (long gi = 0; gi < games; gi++) {
    uint64_t gs = (uint64_t)(seed + gi);
    mtg_setup *s = make_setup(pool, gs, &e);
    if (!s) {
      fprintf(stderr, "seed %llu: setup refused: %s\n", (unsigned long long)gs, e.msg);
      failed++;
      continue;
    }
    FILE *log = tmpfile();
    play_opts o = {1, 20000, log};
    uint64_t rs = gs ^ 0xA5A5A5A5ULL;
    char why[2048];
    int rc = play_game(s, play_rng_next, &rs, &o, &st, why, sizeof why);
    mtg_setup_free(s);
    if (log) {
      rewind(log);
      while (fgets(line, sizeof line, log))
        for (int k = 0; k < NWATCH; k++)
          if (strstr(line, watch[k])) seen[k]++;
      fclose(log);
    }
    if (rc) {
      int isknown = 0;
      for (int k = 0; k < nk; k++) isknown |= strstr(why, kpat[k]) != NULL;
      if (isknown) skipped++;
      else failed++;
      if (verbose || !isknown) printf("%s seed %llu: %s\n", isknown ? "SKIP known engine issue:" : "FAIL", (unsigned long long)gs, why);
    }
  }
  printf("ct_random: %ld games, %ld decisions, %ld events, %ld refused answers, %ld reversed actions, %ld ended, %ld stopped\n",
         games, st.decisions, st.events, st.refused, st.reversed, st.over, st.stopped);
  for (int k = 0; k < NWATCH; k++) printf("  %-28s %ld\n", watch[k], seen[k]);
  printf("%ld clean, %ld failed, %ld known engine issues\n", games - failed - skipped, failed, skipped);
  mtg_pool_free(pool);
  mtg_pool_free(base);
  return failed ? 1 : 0;
}
