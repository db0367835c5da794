/* fuzz_cards.c - libFuzzer target: the card loader (mtg_pool_load_buffer).
 * The input is a card file. A refusal must come with a consistent error; a
 * card that loads is then played: put on the battlefield and in hand next
 * to lands, in a short game answered from the input's hash, under the
 * invariant checker. */
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "play.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const mtg_pool *base = fuzz_pool();
  mtg_pool *p;
  mtg_error e;
  memset(&e, 0, sizeof e);
  if (mtg_pool_new(&p, base) < 0) return 0;
  int rc = mtg_pool_load_buffer(p, "fuzz.yaml", (const char *)data, size, &e);
  char buf[4096];
  mtg_error_format(&e, buf, sizeof buf);
  if (rc < 0 && (e.status != rc || !e.msg[0])) {
    snprintf(buf, sizeof buf, "load returned %d but the error says %d '%s'", rc, e.status, e.msg);
    fuzz_finding("fuzz_cards", buf);
  }
  int n = rc == 0 ? mtg_pool_count(p) : 0;
  if (n > 0 && base) {
    mtg_setup *s = mtg_setup_new(p);
    if (s) {
      mtg_setup_player(s, "alice", 20, 0);
      mtg_setup_player(s, "bob", 20, 0);
      mtg_setup_opening_hand(s, 0);
      mtg_setup_start(s, 0, 3, MTG_S_MAIN1);
      mtg_setup_max_turns(s, 5);
      static const char *const lands[] = {"Plains", "Island", "Swamp", "Mountain", "Forest"};
      for (int pl = 0; pl < 2; pl++)
        for (int i = 0; i < 5; i++) {
          mtg_setup_card(s, pl, MTG_Z_BATTLEFIELD, lands[i], &e);
          mtg_setup_card(s, pl, MTG_Z_LIBRARY, lands[i], &e);
        }
      for (int i = 0; i < n && i < 6; i++) {
        mtg_setup_card(s, 0, MTG_Z_BATTLEFIELD, mtg_pool_name(p, i), &e);
        mtg_setup_card(s, 1, MTG_Z_HAND, mtg_pool_name(p, i), &e);
        mtg_setup_card(s, 0, MTG_Z_LIBRARY, mtg_pool_name(p, i), &e);
      }
      uint64_t r = 1469598103934665603ULL;
      for (size_t i = 0; i < size; i++) r = (r ^ data[i]) * 1099511628211ULL;
      play_opts o = {1, 60, NULL};
      play_stats st = {0};
      char why[4096];
      if (play_game(s, play_rng_next, &r, &o, &st, why, sizeof why) < 0) fuzz_finding("fuzz_cards", why);
      mtg_setup_free(s);
    }
  }
  mtg_pool_free(p);
  return 0;
}
