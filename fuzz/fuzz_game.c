/* fuzz_game.c - libFuzzer target: a game driver. The input builds a setup
 * (players, life, the step the game starts in, cards of engine/cards put in
 * any zone, tapped, damaged, with counters, attached to each other, under
 * another controller, the seed) and then answers every decision, one input
 * byte per choice, with the invariant checker run after every step and a
 * refused answer required to change nothing (tests/unit/play.c). */
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "play.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct in {
  const uint8_t *d;
  size_t n, at;
} in;

static unsigned byte(in *b) { return b->at < b->n ? b->d[b->at++] : 0; }

/* answers: one byte each; once the input is used up the game stops */
static uint32_t next(void *ctx) { return byte(ctx); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const mtg_pool *pool = fuzz_pool();
  if (!pool || size < 4) return 0;
  in b = {data, size, 0};
  int total = mtg_pool_count(pool);
  mtg_setup *s = mtg_setup_new(pool);
  if (!s) return 0;
  mtg_error e;
  static const char *const names[] = {"alice", "bob", "carol", "dave"};
  int np = 2 + (int)(byte(&b) % 3);
  for (int p = 0; p < np; p++) mtg_setup_player(s, names[p], 1 + (int)(byte(&b) % 30), (int)(byte(&b) % 12 == 0));
  unsigned x = byte(&b);
  mtg_setup_start(s, (int)(x % (unsigned)np), 1 + (int)(byte(&b) % 4), (int)((x >> 2) % MTG_S_COUNT));
  mtg_setup_opening_hand(s, (int)(byte(&b) % 8));
  mtg_setup_shuffle(s, (int)(x >> 7));
  mtg_setup_max_turns(s, 4);
  /* a loop of mandatory actions ends in a draw (104.4b) only after 200,000
   * events; at a few hundred decisions a game logs far less than this budget,
   * which stops such a loop long before the fuzzer's time limit */
  mtg_setup_work_budget(s, 20000);
  uint64_t seed = 0;
  for (int i = 0; i < 4; i++) seed = seed << 8 | byte(&b);
  mtg_setup_seed(s, seed);
  int ncards = (int)(byte(&b) % 40), entries = 0;
  for (int i = 0; i < ncards && b.at < b.n; i++) {
    unsigned c = byte(&b) | byte(&b) << 8, z = byte(&b), opt = byte(&b);
    int owner = (int)(z % (unsigned)np);
    static const int zones[] = {MTG_Z_BATTLEFIELD, MTG_Z_HAND, MTG_Z_LIBRARY, MTG_Z_GRAVEYARD, MTG_Z_EXILE,
                                MTG_Z_BATTLEFIELD, MTG_Z_LIBRARY, MTG_Z_BATTLEFIELD};
    int zone = zones[(z >> 2) % 8];
    int en = mtg_setup_card(s, owner, zone, mtg_pool_name(pool, (int)(c % (unsigned)total)), &e);
    if (en < 0) continue;
    entries++;
    if (zone != MTG_Z_BATTLEFIELD) continue;
    if (opt & 1) mtg_setup_tapped(s, en, 1);
    if (opt & 2) mtg_setup_sick(s, en, 1);
    if (opt & 4) mtg_setup_damage(s, en, (int)(opt >> 5));
    if (opt & 8) mtg_setup_counters(s, en, (opt & 16) ? "+1/+1" : "-1/-1", 1 + (int)(opt >> 6));
    if ((opt & 0x30) == 0x30 && en > 0) mtg_setup_attach(s, en, (int)(byte(&b) % (unsigned)en));
    if ((opt & 0xC0) == 0xC0) mtg_setup_controller(s, en, (owner + 1) % np);
  }
  (void)entries;
  /* about one decision per input byte left: the game stops when the input
   * is used up rather than passing on to the turn limit */
  int left = (int)(b.n - b.at);
  play_opts o = {1, left < 150 ? left + 1 : 150, NULL};
  play_stats st = {0};
  char why[4096];
  if (play_game(s, next, &b, &o, &st, why, sizeof why) < 0) fuzz_finding("fuzz_game", why);
  mtg_setup_free(s);
  return 0;
}
