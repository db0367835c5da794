/* test_limits.c - the engine's capacities at their edges: a game holds
 * exactly its capacity, and the first thing past it is refused with
 * MTG_ELIMIT, a message naming the capacity and its size, and the game left
 * as it was at the decision (play.h: an answer refused with MTG_ELIMIT
 * changes nothing). */
#include <stdio.h>
#include <string.h>

#include "unit.h"

/* an ability that costs nothing and uses the stack, and one whose every
 * resolution adds a continuous effect until end of turn */
static const char free_abilities[] =
    "- name: Test Free Chime\n  cost: \"{1}\"\n  type: Artifact\n"
    "  text: \"{0}: You gain 1 life.\"\n"
    "  abilities:\n    - activated:\n        cost: \"{0}\"\n        effect: [{gain_life: 1}]\n"
    "- name: Test Free Swell\n  cost: \"{1}\"\n  type: Creature — Ooze\n  pt: 1/1\n"
    "  text: \"{0}: Test Free Swell gets +1/+0 until end of turn.\"\n"
    "  abilities:\n    - activated:\n        cost: \"{0}\"\n"
    "        effect: [{pump: self, power: 1, toughness: 0}]\n";

/* Answers the pending decision with the option starting with prefix; the
 * status, with the message in w->err. */
static int pick(u_world *w, const char *prefix) {
  int k = u_find(w->game, prefix);
  if (k < 0) return MTG_EARG;
  mtg_answer a = {1, &k};
  return mtg_game_decide(w->game, &a, &w->err);
}

/* 405.1, 602.2a: each activation puts an object on the stack; the stack
 * holds 160 of them, and the 161st activation is refused as past the
 * engine's capacity, the game unchanged. */
TEST(limits_the_stack_holds_its_capacity_and_refuses_one_more) {
  if (u_begin(t_, w, free_abilities)) return;
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Test Free Chime");
  if (u_start(t_, w)) return;
  int rc = MTG_DECISION;
  for (int i = 0; i < 160 && rc == MTG_DECISION; i++) rc = pick(w, "activate \"Test Free Chime\"");
  CHECK_INT(rc, MTG_DECISION);
  CHECK_INT(u_count_logged(w->game, "activate player=alice src=\"Test Free Chime\""), 160);
  uint64_t before = mtg_game_hash(w->game);
  CHECK_INT(pick(w, "activate \"Test Free Chime\""), MTG_ELIMIT);
  CHECK(strstr(w->err.msg, "more than 160 objects on the stack") != NULL);
  CHECK(mtg_game_hash(w->game) == before);
  CHECK_INT(mtg_game_status(w->game), MTG_DECISION);
  /* the stack can still resolve: every one of the 160 abilities does */
  CHECK_INT(u_pass(t_, w, 2 * 160), MTG_DECISION);
  CHECK_INT(u_life(w->game, w->alice), 20 + 160);
}

/* 611.2a: every resolution of the pump ability creates a continuous effect
 * that lasts until end of turn; a game holds 300 at once (the engine's own
 * effects and these), so abilities resolve until the table is full, and the
 * resolution that would make one more is refused, naming the capacity. */
TEST(limits_continuous_effects_up_to_the_capacity) {
  if (u_begin(t_, w, free_abilities)) return;
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Test Free Swell");
  if (u_start(t_, w)) return;
  int rc = MTG_DECISION, resolved = 0;
  for (int i = 0; i < 400 && rc == MTG_DECISION; i++) {
    rc = pick(w, "activate \"Test Free Swell\"");
    if (rc != MTG_DECISION) break;
    uint64_t before = mtg_game_hash(w->game);
    rc = pick(w, "pass"); /* alice passes; bob's pass resolves it */
    if (rc != MTG_DECISION) break;
    before = mtg_game_hash(w->game);
    rc = pick(w, "pass");
    if (rc == MTG_ELIMIT) {
      CHECK(mtg_game_hash(w->game) == before);
      break;
    }
    resolved++;
  }
  CHECK_INT(rc, MTG_ELIMIT);
  CHECK(strstr(w->err.msg, "more than 300 continuous effects at once") != NULL);
  /* the ones that resolved are all there: the table held 300 effects, some
   * of them the game's own (none here but these) */
  CHECK_INT(resolved, 300);
  CHECK_INT(u_count_logged(w->game, "resolve"), 300);
}

const unit_test limits_tests[] = {
    {"limits_the_stack_holds_its_capacity_and_refuses_one_more", limits_the_stack_holds_its_capacity_and_refuses_one_more},
    {"limits_continuous_effects_up_to_the_capacity", limits_continuous_effects_up_to_the_capacity},
    {NULL, NULL},
};
