/* test_history.c - the history of the turn (engine/history.c) is bounded:
 * State.hist holds MAX_HIST records; when it is full, the records of earlier
 * turns go first, and a turn that alone fills it (a loop of mandatory
 * actions on its way to 104.4b) forgets its own oldest half. White-box: it
 * adds records through hist_venture and reads them with hist_count. */
#include "internal.h"
#include "unit.h"

static G *started(unit_ctx *t_, u_world *w) {
  if (u_begin(t_, w, NULL)) return NULL;
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Forest");
  if (u_start(t_, w)) return NULL;
  return w->game;
}

TEST(a_full_history_drops_earlier_turns_first) {
  G *g = started(t_, w);
  if (!g) return;
  State *s = g->s;
  int base = s->c.nhist, old = MAX_HIST - 300 - base;
  for (int i = 0; i < old; i++) hist_venture(g, w->alice);
  for (int i = base; i < base + old; i++) s->hist[i].turn = s->c.turn_seq - 1; /* last turn's */
  for (int i = 0; i < 300; i++) hist_venture(g, w->bob);
  CHECK_INT(s->c.nhist, MAX_HIST);
  hist_venture(g, w->bob); /* full: last turn's records make room */
  CHECK_INT(hist_count(g, NULL, HK_VENTURE, w->bob, NULL), 301);
  CHECK_INT(hist_count(g, NULL, HK_VENTURE, w->alice, NULL), 0);
  CHECK(s->c.nhist <= MAX_HIST);
}

TEST(a_turn_that_fills_the_history_forgets_its_oldest_half) {
  G *g = started(t_, w);
  if (!g) return;
  State *s = g->s;
  for (int i = s->c.nhist; i < MAX_HIST; i++) hist_venture(g, i < MAX_HIST / 2 ? w->alice : w->bob);
  CHECK_INT(s->c.nhist, MAX_HIST);
  hist_venture(g, w->bob);
  CHECK_INT(s->c.nhist, MAX_HIST / 2 + 1);
  /* the oldest half (alice's, and any record the game made before) is gone */
  CHECK_INT(hist_count(g, NULL, HK_VENTURE, w->alice, NULL), 0);
  CHECK_INT(hist_count(g, NULL, HK_VENTURE, w->bob, NULL), MAX_HIST / 2 + 1);
}

const unit_test history_tests[] = {
    {"a_full_history_drops_earlier_turns_first", a_full_history_drops_earlier_turns_first},
    {"a_turn_that_fills_the_history_forgets_its_oldest_half", a_turn_that_fills_the_history_forgets_its_oldest_half},
    {NULL, NULL},
};
