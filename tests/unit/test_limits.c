/* test_limits.c - the engine's capacities at their edges: a game holds
 * exactly its capacity, and the first thing past it is refused with
 * MTG_ELIMIT, a message naming the capacity and its size, and the game left
 * as it was at the decision (play.h: an answer refused with MTG_ELIMIT
 * changes nothing). */
#include <stdio.h>
#include <stdlib.h>
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
 * status, with the message in w->err. Unlike u_pick it does not fail the test
 * on a refusal: these tests expect MTG_ELIMIT. */
static int pick(u_world *w, const char *prefix) {
  int k = u_find(w->game, prefix);
  if (k < 0) return MTG_EARG;
  mtg_answer a = {1, &k};
  return mtg_game_decide(w->game, &a, &w->err);
}

/* The answer that starts with option is refused as past a capacity: the
 * status MTG_ELIMIT, a message containing msg, and the game as it was at the
 * decision (its hash unchanged, the same decision pending). */
static void refused_at_capacity(unit_ctx *t_, u_world *w, const char *option, const char *msg) {
  uint64_t before = mtg_game_hash(w->game);
  CHECK_INT(pick(w, option), MTG_ELIMIT);
  CHECK(strstr(w->err.msg, msg) != NULL);
  CHECK(mtg_game_hash(w->game) == before);
  CHECK_INT(mtg_game_status(w->game), MTG_DECISION);
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
  refused_at_capacity(t_, w, "activate \"Test Free Chime\"", "more than 160 objects on the stack");
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
    rc = pick(w, "pass"); /* alice passes; bob's pass resolves it */
    if (rc != MTG_DECISION) break;
    uint64_t before = mtg_game_hash(w->game);
    rc = pick(w, "pass");
    if (rc == MTG_ELIMIT) {
      CHECK(mtg_game_hash(w->game) == before);
      break;
    }
    resolved++;
  }
  CHECK_INT(rc, MTG_ELIMIT);
  CHECK(strstr(w->err.msg, "more than 300 continuous effects at once") != NULL);
  /* every resolution before the refused one made an effect: 300 in all */
  CHECK_INT(resolved, 300);
  CHECK_INT(u_count_logged(w->game, "resolve"), 300);
}

/* 107.3a, 601.2b: X is chosen as any number the player can pay; the engine
 * offers up to what one payment holds (64 mana), so 63 with {R} beside it,
 * however many more lands there are, and as many as the lands make below. */
static int blaze_x_range(unit_ctx *t_, u_world *w, int mountains, int *lo, int *hi) {
  static const char blaze[] =
      "- name: Test Blaze\n  cost: \"{X}{R}\"\n  type: Sorcery\n"
      "  text: Test Blaze deals X damage to any target.\n"
      "  spell:\n    targets: [any_target]\n    effect: [{damage: X, to: target}]\n";
  if (u_begin(t_, w, blaze)) return -1;
  for (int i = 0; i < mountains; i++)
    if (u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Mountain") < 0) return -1;
  if (u_card(t_, w, w->alice, MTG_Z_HAND, "Test Blaze") < 0 || u_start(t_, w)) return -1;
  int rc = pick(w, "cast \"Test Blaze\"");
  for (int k = 0; k < 4 && rc == MTG_DECISION && mtg_game_decision(w->game)->kind != MTG_D_NUMBER; k++)
    rc = pick(w, "bob");
  const mtg_decision *d = mtg_game_decision(w->game);
  if (rc != MTG_DECISION || d->kind != MTG_D_NUMBER) return -1;
  *lo = d->lo;
  *hi = d->hi;
  return 0;
}

TEST(limits_x_up_to_what_one_payment_holds) {
  int lo = -1, hi = -1;
  CHECK_INT(blaze_x_range(t_, w, 70, &lo, &hi), 0);
  CHECK_INT(lo, 0);
  CHECK_INT(hi, 63);
  /* and X = 63 is paid: 64 of the lands tapped, 63 damage dealt */
  int x = 63;
  mtg_answer a = {1, &x};
  int rc = mtg_game_decide(w->game, &a, &w->err);
  for (int k = 0; k < 4 && rc == MTG_DECISION && u_find(w->game, "bob") >= 0; k++) rc = pick(w, "bob");
  CHECK_INT(u_pass(t_, w, 2), MTG_OVER);
  CHECK(u_logged(w->game, "damage src=\"Test Blaze\"") && u_logged(w->game, "amount=63"));
  CHECK_INT(u_count_logged(w->game, "tap obj=\"Mountain\""), 64);
  u_end(w);
  CHECK_INT(blaze_x_range(t_, w, 64, &lo, &hi), 0);
  CHECK_INT(hi, 63);
  u_end(w);
  CHECK_INT(blaze_x_range(t_, w, 50, &lo, &hi), 0);
  CHECK_INT(hi, 49);
}

/* 702.33c: a multikicker cost of {0} may be paid any number of times; the
 * number asked is capped where a payment's mana is (64 units, as X is
 * above), no further: 64 times is offered and paid, 65 is not offered */
static const char free_multikicker[] =
    "- name: Test Free Surge\n  cost: \"{R}\"\n  type: Sorcery\n"
    "  text: \"Multikicker {0}\\nYou gain 1 life for each time this spell was kicked.\"\n"
    "  multikicker: \"{0}\"\n  spell:\n    effect: [{gain_life: times_kicked}]\n";

TEST(limits_a_free_multikicker_up_to_what_one_payment_holds) {
  if (u_begin(t_, w, free_multikicker)) return;
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Mountain");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Test Free Surge");
  if (u_start(t_, w)) return;
  CHECK_INT(pick(w, "cast \"Test Free Surge\""), MTG_DECISION);
  const mtg_decision *d = mtg_game_decision(w->game);
  CHECK(d && d->kind == MTG_D_NUMBER);
  if (!d || d->kind != MTG_D_NUMBER) return;
  CHECK_INT(d->lo, 0);
  CHECK_INT(d->hi, 64);
  int n = 65;
  mtg_answer a = {1, &n};
  CHECK(mtg_game_decide(w->game, &a, &w->err) < 0);
  n = 64;
  CHECK_INT(mtg_game_decide(w->game, &a, &w->err), MTG_DECISION);
  u_pass(t_, w, 2);
  CHECK_INT(u_life(w->game, w->alice), 84);
}

/* 111.7, 704.5d: a token that left the battlefield ceases to exist and its
 * place among the 1000 objects a game holds is free again, the first place
 * as well as any other: at the capacity, the token made after one ceased to
 * exist fits, and the next is refused, naming the capacity, the game as it
 * was at the decision. */
static const char token_abilities[] =
    "- name: Test Spark Imp\n  cost: \"{R}\"\n  type: Creature — Imp\n  pt: 1/1\n"
    "  text: \"Sacrifice Test Spark Imp: You gain 1 life.\"\n"
    "  abilities:\n    - activated:\n        costs: [sacrifice_self]\n        effect: [{gain_life: 1}]\n"
    "- name: Test Hoard Mint\n  cost: \"{1}\"\n  type: Artifact\n"
    "  text: \"{0}: Create five hundred 1/1 colorless Spark creature tokens.\"\n"
    "  abilities:\n    - activated:\n        cost: \"{0}\"\n"
    "        effect: [{create_token: {name: Spark, type: Creature — Spark, pt: 1/1}, n: 500}]\n"
    "- name: Test Free Mint\n  cost: \"{1}\"\n  type: Artifact\n"
    "  text: \"{0}: Create a 1/1 colorless Spark creature token.\"\n"
    "  abilities:\n    - activated:\n        cost: \"{0}\"\n"
    "        effect: [{create_token: {name: Spark, type: Creature — Spark, pt: 1/1}}]\n";

/* Activates the named card's ability and lets it resolve: the status. */
static int activate_resolve(u_world *w, const char *option) {
  int rc = pick(w, option);
  if (rc == MTG_DECISION) rc = pick(w, "pass");
  if (rc == MTG_DECISION) rc = pick(w, "pass");
  return rc;
}

TEST(limits_objects_a_ceased_token_frees_its_place_at_the_capacity) {
  if (u_begin(t_, w, token_abilities)) return;
  /* the token is the game's first object; with the two Mints and 497
   * Forests the setup makes 500 */
  int imp = u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Test Spark Imp");
  if (imp < 0) return;
  CHECK_INT(mtg_setup_token(w->setup, imp, 1), 0);
  if (u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Test Hoard Mint") < 0) return;
  if (u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Test Free Mint") < 0) return;
  for (int i = 3; i < 500; i++)
    if (u_card(t_, w, w->alice, MTG_Z_LIBRARY, "Forest") < 0) return;
  if (u_start(t_, w)) return;
  CHECK_INT(activate_resolve(w, "activate \"Test Spark Imp\""), MTG_DECISION);
  CHECK_INT(u_life(w->game, w->alice), 21);
  CHECK(u_logged(w->game, "cease_to_exist obj=\"Test Spark Imp\""));
  /* 499 objects and 500 tokens: 999 */
  CHECK_INT(activate_resolve(w, "activate \"Test Hoard Mint\""), MTG_DECISION);
  CHECK_INT(u_count_in(w->game, MTG_Z_BATTLEFIELD, "Spark"), 500);
  /* the 1000th */
  CHECK_INT(activate_resolve(w, "activate \"Test Free Mint\""), MTG_DECISION);
  CHECK_INT(u_count_in(w->game, MTG_Z_BATTLEFIELD, "Spark"), 501);
  /* one more is past the capacity */
  CHECK_INT(pick(w, "activate \"Test Free Mint\""), MTG_DECISION);
  CHECK_INT(pick(w, "pass"), MTG_DECISION);
  refused_at_capacity(t_, w, "pass", "more than 1000 objects in the game");
  CHECK_INT(u_count_in(w->game, MTG_Z_BATTLEFIELD, "Spark"), 501);
}

/* 601.2h: a cost that exiles a card from its controller's graveyard offers
 * every card that can pay it: with the 497 creature cards a setup's 500 cards
 * leave for the graveyard, Moorland Haunt's cost offers all 497, and the one
 * chosen is exiled and the ability resolves. */
TEST(limits_a_graveyard_cost_offers_every_card_of_a_full_graveyard) {
  if (u_begin(t_, w, NULL)) return;
  if (u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Moorland Haunt") < 0) return;
  if (u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Plains") < 0) return;
  if (u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Island") < 0) return;
  for (int i = 0; i < 497; i++)
    if (u_card(t_, w, w->alice, MTG_Z_GRAVEYARD, "Grizzly Bears") < 0) return;
  if (u_start(t_, w)) return;
  CHECK_INT(pick(w, "activate \"Moorland Haunt\"#1/1"), MTG_DECISION);
  const mtg_decision *d = mtg_game_decision(w->game);
  CHECK(d != NULL && d->kind == MTG_D_CHOOSE);
  CHECK_INT(d->n_options, 497);
  CHECK_INT(pick(w, "\"Grizzly Bears\""), MTG_DECISION);
  CHECK_INT(u_count_in(w->game, MTG_Z_EXILE, "Grizzly Bears"), 1);
  CHECK_INT(u_count_in(w->game, MTG_Z_GRAVEYARD, "Grizzly Bears"), 496);
  CHECK_INT(u_pass(t_, w, 2), MTG_DECISION);
  CHECK_INT(u_count_in(w->game, MTG_Z_BATTLEFIELD, "Spirit"), 1);
}

/* 614.5, 616.1f: one event keeps the marks of 64 replacement effects that
 * applied to it; with 64 Test Scales each adds its one counter (1 + 64), and
 * with a 65th the resolution is refused as past that capacity rather than
 * performed with an effect left out, the game as it was. */
static const char many_scales[] =
    "- name: Test Scales\n  cost: \"{G}\"\n  type: Enchantment\n"
    "  text: If one or more +1/+1 counters would be put on a creature you control, that many plus one +1/+1 "
    "counters are put on it instead.\n"
    "  abilities:\n    - replacement:\n        event: counters\n        counter: \"+1/+1\"\n"
    "        object: {type: creature, controller: you}\n        modify: {plus: 1}\n"
    "- name: Test Sprout\n  cost: \"{G}\"\n  type: Creature — Plant\n  pt: 0/1\n"
    "  text: \"{0}: Put a +1/+1 counter on Test Sprout.\"\n"
    "  abilities:\n    - activated:\n        cost: \"{0}\"\n"
    "        effect: [{put_counters: \"+1/+1\", n: 1, on: self}]\n";

/* A game with the inline cards `yaml` where alice controls `first` (unless
 * NULL), n copies of `many` and `source`, whose ability she has activated and
 * passed on: bob's pass resolves it. The status, or -1 after a setup failure
 * the test has reported. */
static int activated_among_many(unit_ctx *t_, u_world *w, const char *yaml, const char *first, const char *many, int n,
                                const char *source) {
  if (u_begin(t_, w, yaml)) return -1;
  if (first && u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, first) < 0) return -1;
  for (int i = 0; i < n; i++)
    if (u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, many) < 0) return -1;
  if (u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, source) < 0 || u_start(t_, w)) return -1;
  char option[80];
  snprintf(option, sizeof option, "activate \"%s\"", source);
  int rc = pick(w, option);
  return rc == MTG_DECISION ? pick(w, "pass") : rc;
}

/* `scales` Test Scales and the Test Sprout whose ability bob's pass resolves */
static int scales_before_resolving(unit_ctx *t_, u_world *w, int scales) {
  return activated_among_many(t_, w, many_scales, NULL, "Test Scales", scales, "Test Sprout");
}

TEST(limits_replacement_effects_applied_to_one_event_up_to_the_capacity) {
  CHECK_INT(scales_before_resolving(t_, w, 64), MTG_DECISION);
  CHECK_INT(pick(w, "pass"), MTG_DECISION);
  CHECK_INT(u_count_logged(w->game, "by=\"Test Scales\""), 64);
  CHECK(u_logged(w->game, "event=counters_put amount=64->65"));
}

TEST(limits_replacement_effects_one_past_the_capacity_refused) {
  CHECK_INT(scales_before_resolving(t_, w, 65), MTG_DECISION);
  refused_at_capacity(t_, w, "pass", "more than 64 replacement effects applied to one event");
}

/* 615.5: the rest of a prevention effect ("Put a +1/+1 counter on that
 * creature for each 1 damage prevented this way", Vigor) waits until the
 * prevented event is done, with the rest of its batch; 64 such riders may wait
 * at once. A tremor dealing 2 damage to each creature with Vigor and 64 other
 * creatures alice controls leaves each of those with two counters; with a 65th
 * creature the resolution is refused as past that capacity, the game as it was. */
static const char tremor[] =
    "- name: Test Free Tremor\n  cost: \"{1}\"\n  type: Artifact\n"
    "  text: \"{0}: Test Free Tremor deals 2 damage to each creature.\"\n"
    "  abilities:\n    - activated:\n        cost: \"{0}\"\n"
    "        effect: [{damage: 2, to: {each: creature}}]\n";

/* Vigor, `bears` Grizzly Bears and the Test Free Tremor whose ability bob's
 * pass resolves, all alice's */
static int tremor_before_resolving(unit_ctx *t_, u_world *w, int bears) {
  return activated_among_many(t_, w, tremor, "Vigor", "Grizzly Bears", bears, "Test Free Tremor");
}

TEST(limits_prevention_riders_of_one_batch_up_to_the_capacity) {
  CHECK_INT(tremor_before_resolving(t_, w, 64), MTG_DECISION);
  CHECK_INT(pick(w, "pass"), MTG_DECISION);
  CHECK_INT(u_count_logged(w->game, "prevent rule=615.1a by=\"Vigor\""), 64);
  CHECK_INT(u_count_in(w->game, MTG_Z_BATTLEFIELD, "Grizzly Bears"), 64);
  /* every one of them got its two counters: a 4/4 */
  uint32_t ids[128];
  int n = mtg_zone_objects(w->game, -1, MTG_Z_BATTLEFIELD, ids, 128), with_two = 0;
  CHECK_INT(n, 66);
  for (int i = 0; i < n && i < 128; i++) {
    mtg_object o;
    if (mtg_object_info(w->game, ids[i], &o) == 0 && o.name && !strcmp(o.name, "Grizzly Bears"))
      with_two += o.power == 4 && o.toughness == 4;
  }
  CHECK_INT(with_two, 64);
}

TEST(limits_prevention_riders_one_past_the_capacity_refused) {
  CHECK_INT(tremor_before_resolving(t_, w, 65), MTG_DECISION);
  refused_at_capacity(t_, w, "pass", "more than 64 prevention effects waiting for their batch");
}

/* 605.4a: a triggered mana ability resolves right after the mana ability that
 * triggered it, without the stack; the triggered mana abilities of one event
 * wait together, eight at most. Tapping a Forest with eight "whenever a land
 * is tapped for mana, add {G}" permanents makes nine green mana; with nine of
 * them the activation is refused, naming the capacity, the game unchanged. */
static const char flares[] =
    "- name: Test Verdant Flare\n  cost: \"{G}\"\n  type: Enchantment\n"
    "  text: \"Whenever a land is tapped for mana, its controller adds an additional {G}.\"\n"
    "  abilities:\n    - triggered:\n        when: {mana: {type: land}}\n        effect: [{add_mana: \"{G}\"}]\n";

static int tap_forest_with_flares(unit_ctx *t_, u_world *w, int n) {
  if (u_begin(t_, w, flares)) return -1;
  if (u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Forest") < 0) return -1;
  for (int i = 0; i < n; i++)
    if (u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Test Verdant Flare") < 0) return -1;
  if (u_start(t_, w)) return -1;
  return 0;
}

TEST(limits_triggered_mana_abilities_of_one_event_up_to_the_capacity) {
  if (tap_forest_with_flares(t_, w, 8)) return;
  CHECK_INT(pick(w, "activate \"Forest\""), MTG_DECISION);
  CHECK_INT(u_count_logged(w->game, "add_mana player=alice mana=G"), 9);
  CHECK_INT(mtg_game_status(w->game), MTG_DECISION);
}

TEST(limits_triggered_mana_abilities_one_past_the_capacity_refused) {
  if (tap_forest_with_flares(t_, w, 9)) return;
  refused_at_capacity(t_, w, "activate \"Forest\"", "more than 8 triggered mana abilities waiting at once");
}

/* 500.8: phases added after a phase come after it, ahead of the added phases
 * still to come; sixteen may wait at once. Alice adds eight main phases after
 * her first main phase, eight more after the first added one (fifteen waiting
 * as it ends), and two after the next (sixteen as it ends): the turn goes on
 * into them. In the phase after that two more would make seventeen: the pass
 * that ends it is refused, naming the capacity, the game unchanged. */
static const char phase_adders[] =
    "- name: Test Eight Dawns\n  cost: \"{1}\"\n  type: Artifact\n"
    "  text: \"{0}: After this main phase, there are eight additional main phases.\"\n"
    "  abilities:\n    - activated:\n        cost: \"{0}\"\n"
    "        effect: [{additional_phases: [main, main, main, main, main, main, main, main]}]\n"
    "- name: Test Two Dawns\n  cost: \"{1}\"\n  type: Artifact\n"
    "  text: \"{0}: After this main phase, there are two additional main phases.\"\n"
    "  abilities:\n    - activated:\n        cost: \"{0}\"\n"
    "        effect: [{additional_phases: [main, main]}]\n";

/* Passes priority with an empty stack: both players pass and the step ends. */
static int end_step(u_world *w) {
  int rc = pick(w, "pass");
  return rc == MTG_DECISION ? pick(w, "pass") : rc;
}

TEST(limits_extra_phases_waiting_up_to_the_capacity) {
  if (u_begin(t_, w, phase_adders)) return;
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Test Eight Dawns");
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Test Two Dawns");
  if (u_start(t_, w)) return;
  CHECK_INT(activate_resolve(w, "activate \"Test Eight Dawns\""), MTG_DECISION);
  CHECK_INT(end_step(w), MTG_DECISION); /* the first added main phase; 7 wait */
  CHECK_INT(mtg_game_step(w->game), MTG_S_MAIN2);
  CHECK_INT(activate_resolve(w, "activate \"Test Eight Dawns\""), MTG_DECISION);
  CHECK_INT(end_step(w), MTG_DECISION); /* 15 waited; one begins, 14 wait */
  CHECK_INT(activate_resolve(w, "activate \"Test Two Dawns\""), MTG_DECISION);
  CHECK_INT(end_step(w), MTG_DECISION); /* 16 waited; one begins, 15 wait */
  CHECK_INT(mtg_game_step(w->game), MTG_S_MAIN2);
  CHECK_INT(mtg_game_turn(w->game), 3);
  CHECK_INT(u_count_logged(w->game, "additional_phases"), 3);
  CHECK_INT(activate_resolve(w, "activate \"Test Two Dawns\""), MTG_DECISION);
  CHECK_INT(pick(w, "pass"), MTG_DECISION);
  refused_at_capacity(t_, w, "pass", "more than 16 extra phases waiting");
}

/* 500.7: extra turns wait to be taken, the last created first; 32 may wait
 * at once. Alice's Test Long Night creates 32, each resolved in its own
 * activation; the 33rd would be one more: the pass that resolves it is
 * refused, naming the capacity, the game unchanged. */
static const char turn_adders[] =
    "- name: Test Long Night\n  cost: \"{1}\"\n  type: Artifact\n"
    "  text: \"{0}: Take an extra turn after this one.\"\n"
    "  abilities:\n    - activated:\n        cost: \"{0}\"\n"
    "        effect: [{extra_turn: you}]\n";

TEST(limits_extra_turns_waiting_up_to_the_capacity) {
  if (u_begin(t_, w, turn_adders)) return;
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Test Long Night");
  if (u_start(t_, w)) return;
  for (int i = 0; i < 32; i++) CHECK_INT(activate_resolve(w, "activate \"Test Long Night\""), MTG_DECISION);
  CHECK_INT(u_count_logged(w->game, "extra_turn player=alice"), 32);
  CHECK_INT(pick(w, "activate \"Test Long Night\""), MTG_DECISION);
  CHECK_INT(pick(w, "pass"), MTG_DECISION);
  refused_at_capacity(t_, w, "pass", "more than 32 extra turns waiting");
  CHECK_INT(u_count_logged(w->game, "extra_turn player=alice"), 32);
}

/* 117.1: a priority decision lists what the player can do now; it holds
 * MAX_OPTIONS (512) options, and when there is more the first ones in its
 * order are listed (pass, casting from the hand, foretelling, casting face
 * down, activated abilities, turning face up) and the game goes on. A setup
 * holds 500 cards, so the cards here each allow more than one action. */
static const char many_options[] =
    "- name: Test Veiled Spark\n  cost: \"{0}\"\n  type: Creature — Elemental\n  pt: 1/1\n"
    "  text: \"Morph {0}\\nForetell {0}\"\n  morph: \"{0}\"\n  foretell: \"{0}\"\n"
    "- name: Test Twin Chime\n  cost: \"{1}\"\n  type: Artifact\n"
    "  text: \"{0}: You gain 1 life.\\n{0}: You gain 2 life.\"\n"
    "  abilities:\n    - activated:\n        cost: \"{0}\"\n        effect: [{gain_life: 1}]\n"
    "    - activated:\n        cost: \"{0}\"\n        effect: [{gain_life: 2}]\n"
    "- name: Test Dawn // Test Dusk\n  text: \"Test Dawn {0} Instant: You gain 1 life.\\n//\\nTest Dusk {0} Instant: You gain 2 life.\"\n"
    "  split:\n"
    "    - {name: Test Dawn, cost: \"{0}\", type: Instant, text: You gain 1 life., spell: {effect: [{gain_life: 1}]}}\n"
    "    - {name: Test Dusk, cost: \"{0}\", type: Instant, text: You gain 2 life., spell: {effect: [{gain_life: 2}]}}\n";

/* How many options of the pending decision contain needle. */
static int options_with(const mtg_game *g, const char *needle) {
  const mtg_decision *d = mtg_game_decision(g);
  int n = 0;
  for (int i = 0; d && i < d->n_options; i++) n += strstr(d->options[i].label, needle) != NULL;
  return n;
}

/* The pending decision is alice's priority with 512 options, pass first and
 * the last starting with `last`; then the last option is taken. */
static void check_full_priority(unit_ctx *t_, u_world *w, const char *last) {
  const mtg_decision *d = mtg_game_decision(w->game);
  CHECK(d != NULL && d->kind == MTG_D_PRIORITY);
  if (!d || d->kind != MTG_D_PRIORITY) return;
  CHECK_INT(d->n_options, 512);
  CHECK(!strcmp(d->options[0].label, "pass"));
  CHECK(!strncmp(d->options[d->n_options - 1].label, last, strlen(last)));
  int k = d->n_options - 1;
  mtg_answer a = {1, &k};
  CHECK_INT(mtg_game_decide(w->game, &a, &w->err), MTG_DECISION);
}

/* 300 cards in the hand, each castable, foretellable (702.143a: {2}) and
 * castable face down (702.37c: {3}): pass, 300 casts and 211 foretells fill
 * the decision; no face-down cast is listed. Foretelling the last is done. */
TEST(limits_priority_options_full_from_the_hand) {
  if (u_begin(t_, w, many_options)) return;
  for (int i = 0; i < 300; i++)
    if (u_card(t_, w, w->alice, MTG_Z_HAND, "Test Veiled Spark") < 0) return;
  for (int i = 0; i < 3; i++)
    if (u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Plains") < 0) return;
  if (u_start(t_, w)) return;
  CHECK_INT(options_with(w->game, "foretell"), 211);
  CHECK_INT(options_with(w->game, "face_down"), 0);
  check_full_priority(t_, w, "foretell \"Test Veiled Spark\"");
  CHECK_INT(u_count_logged(w->game, "foretell player=alice"), 1);
  CHECK_INT(u_count_in(w->game, MTG_Z_HAND, "Test Veiled Spark"), 299);
}

/* 260 split cards in the hand, each half castable (709.3): pass and 511 casts
 * fill the decision, the 256th card's first half the last. */
TEST(limits_priority_options_full_of_casts) {
  if (u_begin(t_, w, many_options)) return;
  for (int i = 0; i < 260; i++)
    if (u_card(t_, w, w->alice, MTG_Z_HAND, "Test Dawn // Test Dusk") < 0) return;
  if (u_start(t_, w)) return;
  CHECK_INT(options_with(w->game, "face=\"Test Dusk\""), 255);
  check_full_priority(t_, w, "cast \"Test Dawn // Test Dusk\"");
  CHECK_INT(u_count_logged(w->game, "cast player=alice"), 1);
}

/* 300 permanents with two abilities each: pass and 511 activations fill it
 * (the 256th permanent's first ability is the last); a face-down permanent
 * that could be turned face up (702.37e) is not listed. The last ability
 * taken resolves. */
TEST(limits_priority_options_full_from_the_battlefield) {
  if (u_begin(t_, w, many_options)) return;
  for (int i = 0; i < 300; i++)
    if (u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Test Twin Chime") < 0) return;
  int fd = u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Test Veiled Spark");
  if (fd < 0) return;
  CHECK_INT(mtg_setup_face_down(w->setup, fd, 1), 0);
  if (u_start(t_, w)) return;
  CHECK_INT(options_with(w->game, "turn_face_up"), 0);
  check_full_priority(t_, w, "activate \"Test Twin Chime\"");
  CHECK_INT(u_pass(t_, w, 2), MTG_DECISION);
  CHECK_INT(u_life(w->game, w->alice), 21);
}

/* 603.3: the abilities that trigger on one event wait together to be put on
 * the stack, 200 at most. A creature dying with 200 "whenever a creature
 * dies" permanents out makes 200 triggers, all waiting (their controller is
 * asked next, 603.3b); with 201 the 201st is refused, the activation that led
 * there with it, the game unchanged. */
static const char bells[] =
    "- name: Test Dirge Bell\n  cost: \"{1}\"\n  type: Artifact\n"
    "  text: \"Whenever a creature dies, you gain 1 life.\"\n"
    "  abilities:\n    - triggered:\n        when: {dies: creature}\n        effect: [{gain_life: 1}]\n"
    "- name: Test Envy Bell\n  cost: \"{1}\"\n  type: Artifact\n"
    "  text: \"Whenever a creature an opponent controls dies, you gain 1 life.\"\n"
    "  abilities:\n    - triggered:\n        when: {dies: {type: creature, controller: opponent}}\n        effect: [{gain_life: 1}]\n"
    "- name: Test Martyr Imp\n  cost: \"{B}\"\n  type: Creature — Imp\n  pt: 1/1\n"
    "  text: \"Sacrifice this creature: You gain 1 life.\"\n"
    "  abilities:\n    - activated:\n        costs: [sacrifice_self]\n        effect: [{gain_life: 1}]\n";

/* alice's Test Martyr Imp beside n copies of the bell named */
static int imp_dies_with_bells(unit_ctx *t_, u_world *w, const char *bell, int n) {
  if (u_begin(t_, w, bells)) return -1;
  for (int i = 0; i < n; i++)
    if (u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, bell) < 0) return -1;
  if (u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Test Martyr Imp") < 0 || u_start(t_, w)) return -1;
  return 0;
}

TEST(limits_pending_triggers_up_to_the_capacity) {
  if (imp_dies_with_bells(t_, w, "Test Dirge Bell", 200)) return;
  CHECK_INT(pick(w, "activate \"Test Martyr Imp\""), MTG_DECISION);
  CHECK_INT(u_count_logged(w->game, "trigger src=\"Test Dirge Bell\""), 200);
}

TEST(limits_pending_triggers_one_past_the_capacity_refused) {
  if (imp_dies_with_bells(t_, w, "Test Dirge Bell", 201)) return;
  refused_at_capacity(t_, w, "activate \"Test Martyr Imp\"", "more than 200 triggered abilities waiting to be put on the stack");
}

/* 603.2: every ability that could trigger on an event is looked at; the
 * engine looks at up to 256 watching for one kind of event ("whenever a
 * creature an opponent controls dies" on 256 permanents: none triggers on
 * alice's own Imp, each having been asked), and a 257th stops the game rather
 * than be passed over. */
TEST(limits_abilities_watching_one_kind_of_event_up_to_the_capacity) {
  if (imp_dies_with_bells(t_, w, "Test Envy Bell", 256)) return;
  CHECK_INT(pick(w, "activate \"Test Martyr Imp\""), MTG_DECISION);
  CHECK_INT(u_count_logged(w->game, "trigger src=\"Test Envy Bell\""), 0);
  CHECK_INT(u_count_logged(w->game, "sacrifice"), 1);
}

TEST(limits_abilities_watching_one_kind_of_event_one_past_the_capacity_refused) {
  if (imp_dies_with_bells(t_, w, "Test Envy Bell", 257)) return;
  refused_at_capacity(t_, w, "activate \"Test Martyr Imp\"", "more than 256 abilities watching for one kind of event");
}

/* 607.2a: a card exiled by a linked ability is remembered with the object that
 * exiled it; a game keeps 400 such records at once. A setup placing 400 cards
 * exiled with one permanent starts; 401 is refused as past the capacity. */
static int exiled_with_one(unit_ctx *t_, u_world *w, int n, mtg_error *err) {
  if (u_begin(t_, w, NULL)) return -1;
  int by = u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Grizzly Bears");
  if (by < 0) return -1;
  for (int i = 0; i < n; i++) {
    int e = u_card(t_, w, w->bob, MTG_Z_EXILE, "Forest");
    if (e < 0 || mtg_setup_exiled_with(w->setup, e, by, "exiled") != MTG_OK) return -1;
  }
  return mtg_game_new(&w->game, w->setup, err);
}

TEST(limits_linked_records_up_to_the_capacity) {
  mtg_error err = {0};
  CHECK_INT(exiled_with_one(t_, w, 400, &err), MTG_DECISION);
}

TEST(limits_linked_records_one_past_the_capacity_refused) {
  mtg_error err = {0};
  CHECK_INT(exiled_with_one(t_, w, 401, &err), MTG_ELIMIT);
  CHECK(strstr(err.msg, "more than 400 linked-ability records at once") != NULL);
}

/* 603.8: a state trigger doesn't trigger again while it is on the stack;
 * the engine keeps at most 8 of them waiting to leave it. Eight enchantments
 * whose "whenever you have no cards in hand" holds after alice casts her last
 * card trigger at once; with nine the cast is refused as past the capacity,
 * the game unchanged, rather than one of them lost. */
static const char hollow_shrines[] =
    "- name: Test Hollow Shrine\n  cost: \"{0}\"\n  type: Enchantment\n"
    "  text: Whenever you have no cards in hand, you gain 1 life.\n"
    "  abilities:\n    - triggered:\n        when: {state: {hand: you, equals: 0}}\n        effect: [{gain_life: 1}]\n";

static int shrines_and_bolt(unit_ctx *t_, u_world *w, int n) {
  if (u_begin(t_, w, hollow_shrines)) return -1;
  for (int i = 0; i < n; i++)
    if (u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Test Hollow Shrine") < 0) return -1;
  if (u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Mountain") < 0 || u_card(t_, w, w->alice, MTG_Z_HAND, "Lightning Bolt") < 0 ||
      u_start(t_, w))
    return -1;
  return 0;
}

TEST(limits_state_triggers_on_the_stack_up_to_the_capacity) {
  if (shrines_and_bolt(t_, w, 8)) return;
  CHECK_INT(pick(w, "cast \"Lightning Bolt\""), MTG_DECISION);
  CHECK_INT(pick(w, "bob"), MTG_DECISION);
  CHECK_INT(u_count_logged(w->game, "trigger src=\"Test Hollow Shrine\""), 8);
}

/* the cast is refused whole: the game is back at alice's priority before it */
TEST(limits_state_triggers_on_the_stack_one_past_the_capacity_refused) {
  if (shrines_and_bolt(t_, w, 9)) return;
  uint64_t before = mtg_game_hash(w->game);
  CHECK_INT(pick(w, "cast \"Lightning Bolt\""), MTG_DECISION);
  CHECK_INT(pick(w, "bob"), MTG_ELIMIT);
  CHECK(strstr(w->err.msg, "more than 8 state triggers on the stack at once") != NULL);
  CHECK(mtg_game_hash(w->game) == before);
  CHECK_INT(mtg_game_status(w->game), MTG_DECISION);
  CHECK_INT(u_count_logged(w->game, "trigger src=\"Test Hollow Shrine\""), 0);
}

/* A selection holds 256 objects: "destroy all creatures" with 256 creatures
 * out destroys every one; with 257 the spell is refused as past the capacity
 * (the game unchanged) rather than spare one of them. */
static const char purge[] =
    "- name: Test Purge\n  cost: \"{0}\"\n  type: Sorcery\n  text: Destroy all creatures.\n"
    "  spell:\n    effect: [{destroy: {each: creature}}]\n"
    "- name: Test Mote\n  cost: \"{0}\"\n  type: Creature — Elemental\n  pt: 0/1\n";

static int motes_and_purge(unit_ctx *t_, u_world *w, int n) {
  if (u_begin(t_, w, purge)) return -1;
  for (int i = 0; i < n; i++)
    if (u_card(t_, w, i % 2 ? w->bob : w->alice, MTG_Z_BATTLEFIELD, "Test Mote") < 0) return -1;
  if (u_card(t_, w, w->alice, MTG_Z_HAND, "Test Purge") < 0 || u_start(t_, w)) return -1;
  return pick(w, "cast \"Test Purge\"") == MTG_DECISION ? 0 : -1;
}

/* each owner orders the cards put into their graveyard at once (404.3): as listed */
static int keep_graveyard_order(u_world *w) {
  int rc = MTG_DECISION, v[256];
  const mtg_decision *d;
  while (rc == MTG_DECISION && (d = mtg_game_decision(w->game)) && d->kind == MTG_D_ORDER && d->n_options <= 256) {
    for (int i = 0; i < d->n_options; i++) v[i] = i;
    mtg_answer a = {d->n_options, v};
    rc = mtg_game_decide(w->game, &a, &w->err);
  }
  return rc;
}

TEST(limits_a_selection_up_to_the_capacity) {
  if (motes_and_purge(t_, w, 256)) return;
  CHECK_INT(u_pass(t_, w, 2), MTG_DECISION);
  CHECK_INT(keep_graveyard_order(w), MTG_DECISION);
  CHECK_INT(u_count_in(w->game, MTG_Z_GRAVEYARD, "Test Mote"), 256);
  CHECK_INT(u_count_in(w->game, MTG_Z_BATTLEFIELD, "Test Mote"), 0);
}

TEST(limits_a_selection_one_past_the_capacity_refused) {
  if (motes_and_purge(t_, w, 257)) return;
  CHECK_INT(u_pass(t_, w, 1), MTG_DECISION);
  refused_at_capacity(t_, w, "pass", "more than 256 objects in one selection");
  CHECK_INT(u_count_in(w->game, MTG_Z_BATTLEFIELD, "Test Mote"), 257);
}

/* 201.4, 712.19: "choose a card name" offers every name in the pool. A pool
 * of exactly 512 names (the sorcery's own among them) fills the decision; with
 * 513 the spell's resolution is refused as past the decision's capacity,
 * rather than a name left out unsaid. The pool here is the test's alone. */
static int names_world(unit_ctx *t_, u_world *w, int names) {
  char *yaml = malloc((size_t)names * 96 + 256);
  if (!yaml) return unit_fail(t_, __FILE__, __LINE__, "malloc"), -1;
  size_t n = (size_t)sprintf(yaml, "- name: Test Namer\n  cost: \"{0}\"\n  type: Sorcery\n"
                                   "  text: Choose a card name.\n  spell:\n    effect: [{choose: name}]\n");
  for (int i = 1; i < names; i++)
    n += (size_t)sprintf(yaml + n, "- name: Test Name %03d\n  cost: \"{1}\"\n  type: Artifact\n", i);
  int rc = mtg_pool_new(&w->base, NULL) < 0 ? -1 : mtg_pool_load_buffer(w->base, "names.yaml", yaml, n, &w->err);
  free(yaml);
  if (rc < 0) return unit_fail(t_, __FILE__, __LINE__, "%s", w->err.msg), -1;
  w->pool = w->base;
  if (!(w->setup = mtg_setup_new(w->pool))) return unit_fail(t_, __FILE__, __LINE__, "mtg_setup_new"), -1;
  w->alice = mtg_setup_player(w->setup, "alice", 20, 0);
  w->bob = mtg_setup_player(w->setup, "bob", 20, 0);
  mtg_setup_seed(w->setup, 1);
  mtg_setup_opening_hand(w->setup, 0);
  mtg_setup_start(w->setup, w->alice, 3, MTG_S_MAIN1);
  if (u_card(t_, w, w->alice, MTG_Z_HAND, "Test Namer") < 0 || u_start(t_, w)) return -1;
  return u_pick(t_, w, "cast \"Test Namer\"") == MTG_DECISION ? 0 : -1;
}

TEST(limits_card_names_up_to_the_capacity) {
  if (names_world(t_, w, 512)) return;
  CHECK_INT(u_pass(t_, w, 2), MTG_DECISION);
  const mtg_decision *d = mtg_game_decision(w->game);
  CHECK(d != NULL && d->kind == MTG_D_NAME);
  if (!d || d->kind != MTG_D_NAME) return;
  CHECK_INT(d->n_options, 512);
  CHECK_INT(options_with(w->game, "Test Name 511"), 1);
  CHECK_INT(u_pick(t_, w, "Test Name 511"), MTG_DECISION);
  CHECK(u_logged(w->game, "name=\"Test Name 511\""));
}

TEST(limits_card_names_one_past_the_capacity_refused) {
  if (names_world(t_, w, 513)) return;
  CHECK_INT(u_pass(t_, w, 1), MTG_DECISION);
  refused_at_capacity(t_, w, "pass", "more than 512 options in one decision");
}

/* 510.1c, 702.19b: a blocked creature divides its combat damage among every
 * creature blocking it, and with trample the rest goes to the player it
 * attacks; that division is one decision of at most 512 options (the
 * blockers and the player), so 511 blockers is the capacity. Bob's Mint
 * makes the blockers (a setup holds 500 cards). */
static int trampler_blocked_by(unit_ctx *t_, u_world *w, int n) {
  char cards[1024];
  snprintf(cards, sizeof cards,
           "- name: Test Trampling Colossus\n  cost: \"{7}{G}{G}\"\n  type: Creature — Giant\n  pt: 520/520\n"
           "  keywords: [trample]\n  text: Trample\n"
           "- name: Test Sentry Mint\n  cost: \"{1}\"\n  type: Artifact\n"
           "  text: \"{0}: Create %d 0/1 colorless Sentry creature tokens.\"\n"
           "  abilities:\n    - activated:\n        cost: \"{0}\"\n"
           "        effect: [{create_token: {name: Sentry, type: Creature — Sentry, pt: 0/1}, n: %d}]\n",
           n, n);
  if (u_begin(t_, w, cards)) return -1;
  if (u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Test Trampling Colossus") < 0) return -1;
  if (u_card(t_, w, w->bob, MTG_Z_BATTLEFIELD, "Test Sentry Mint") < 0) return -1;
  mtg_setup_start(w->setup, w->alice, 3, MTG_S_BEGIN_COMBAT);
  if (u_start(t_, w)) return -1;
  /* alice passes as combat begins; bob makes the Sentries; both pass: it resolves */
  if (pick(w, "pass") != MTG_DECISION || activate_resolve(w, "activate \"Test Sentry Mint\"") != MTG_DECISION) return -1;
  if (u_count_logged(w->game, "to=battlefield cause=token") != n) return -1;
  if (u_pass(t_, w, 20) != MTG_DECISION || pick(w, "\"Test Trampling Colossus\"") != MTG_DECISION) return -1;
  if (u_pass(t_, w, 20) != MTG_DECISION) return -1;
  const mtg_decision *d = mtg_game_decision(w->game);
  if (!d || d->kind != MTG_D_BLOCKERS || d->n_options != n) return -1;
  int every[512];
  for (int i = 0; i < n; i++) every[i] = i;
  mtg_answer a = {n, every};
  return mtg_game_decide(w->game, &a, &w->err) == MTG_DECISION ? 0 : -1;
}

TEST(limits_blockers_of_one_creature_up_to_the_capacity) {
  if (trampler_blocked_by(t_, w, 511)) {
    CHECK(!"511 Sentries could not block the Colossus");
    return;
  }
  CHECK_INT(u_pass(t_, w, 2), MTG_DECISION);
  const mtg_decision *d = mtg_game_decision(w->game);
  CHECK(d && d->kind == MTG_D_DAMAGE);
  CHECK_INT(d->n_options, 512);
  int v[512], to_bob = -1;
  for (int i = 0; i < d->n_options; i++) {
    v[i] = 1;
    if (!strcmp(d->options[i].label, "bob")) to_bob = i;
  }
  CHECK(to_bob >= 0);
  v[to_bob] = 520 - 511;
  mtg_answer a = {d->n_options, v};
  CHECK_INT(mtg_game_decide(w->game, &a, &w->err), MTG_DECISION);
  CHECK_INT(u_life(w->game, w->bob), 20 - 9);
  CHECK_INT(u_count_logged(w->game, "cease_to_exist obj=\"Sentry\""), 511);
  CHECK_INT(u_count_logged(w->game, "damage src=\"Test Trampling Colossus\""), 512);
}

TEST(limits_blockers_of_one_creature_one_past_the_capacity_refused) {
  if (trampler_blocked_by(t_, w, 512)) {
    CHECK(!"512 Sentries could not block the Colossus");
    return;
  }
  CHECK_INT(pick(w, "pass"), MTG_DECISION);
  refused_at_capacity(t_, w, "pass", "more than 511 creatures blocking one creature");
  CHECK_INT(u_life(w->game, w->bob), 20);
}

/* 508.1a-b: the attackers decision lists each creature with each player and
 * planeswalker it could attack, one option per pair, 512 at most. With bob's
 * planeswalker out each creature makes two: 256 creatures fill the decision,
 * 257 stop the game as the declaration begins rather than leave an attack out. */
static const char walker[] =
    "- name: Test Lone Walker\n  cost: \"{3}\"\n  type: Legendary Planeswalker — Test\n  loyalty: 3\n"
    "  text: \"+1: You gain 1 life.\"\n  abilities:\n    - activated:\n        loyalty: 1\n        effect: [{gain_life: 1}]\n";

static int attackers_world(unit_ctx *t_, u_world *w, int creatures) {
  if (u_begin(t_, w, walker)) return -1;
  for (int i = 0; i < creatures; i++)
    if (u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Grizzly Bears") < 0) return -1;
  if (u_card(t_, w, w->bob, MTG_Z_BATTLEFIELD, "Test Lone Walker") < 0) return -1;
  mtg_setup_start(w->setup, w->alice, 3, MTG_S_BEGIN_COMBAT);
  return u_start(t_, w) ? -1 : 0;
}

TEST(limits_attack_options_up_to_the_capacity) {
  if (attackers_world(t_, w, 256)) return;
  CHECK_INT(u_pass(t_, w, 2), MTG_DECISION);
  const mtg_decision *d = mtg_game_decision(w->game);
  CHECK(d != NULL && d->kind == MTG_D_ATTACKERS);
  if (!d || d->kind != MTG_D_ATTACKERS) return;
  CHECK_INT(d->n_options, 512);
  CHECK_INT(options_with(w->game, "-> bob"), 256);
  CHECK_INT(options_with(w->game, "-> \"Test Lone Walker\""), 256);
  int k = d->n_options - 1;
  mtg_answer a = {1, &k};
  CHECK_INT(mtg_game_decide(w->game, &a, &w->err), MTG_DECISION);
  CHECK_INT(u_count_logged(w->game, "attacks obj=\"Grizzly Bears\""), 1);
}

TEST(limits_attack_options_one_past_the_capacity_refused) {
  if (attackers_world(t_, w, 257)) return;
  CHECK_INT(pick(w, "pass"), MTG_DECISION);
  refused_at_capacity(t_, w, "pass", "more than 512 options in one decision");
}

/* 509.1a: the blockers decision lists each creature that could block with
 * each attacker it could block. Two attackers and 256 creatures of bob's fill
 * its 512 options; a 257th creature stops the game as it is listed. */
static int blockers_world(unit_ctx *t_, u_world *w, int creatures) {
  if (u_begin(t_, w, NULL)) return -1;
  for (int i = 0; i < 2; i++)
    if (u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Grizzly Bears") < 0) return -1;
  for (int i = 0; i < creatures; i++)
    if (u_card(t_, w, w->bob, MTG_Z_BATTLEFIELD, "Grizzly Bears") < 0) return -1;
  mtg_setup_start(w->setup, w->alice, 3, MTG_S_BEGIN_COMBAT);
  if (u_start(t_, w) || u_pass(t_, w, 2) != MTG_DECISION) return -1;
  const mtg_decision *d = mtg_game_decision(w->game);
  if (!d || d->kind != MTG_D_ATTACKERS || d->n_options != 2) return unit_fail(t_, __FILE__, __LINE__, "no attackers decision of 2 options"), -1;
  int both[2] = {0, 1};
  mtg_answer a = {2, both};
  return mtg_game_decide(w->game, &a, &w->err) == MTG_DECISION ? 0 : -1;
}

TEST(limits_block_options_up_to_the_capacity) {
  if (blockers_world(t_, w, 256)) return;
  CHECK_INT(u_pass(t_, w, 2), MTG_DECISION);
  const mtg_decision *d = mtg_game_decision(w->game);
  CHECK(d != NULL && d->kind == MTG_D_BLOCKERS);
  if (!d || d->kind != MTG_D_BLOCKERS) return;
  CHECK_INT(d->n_options, 512);
}

TEST(limits_block_options_one_past_the_capacity_refused) {
  if (blockers_world(t_, w, 257)) return;
  CHECK_INT(pick(w, "pass"), MTG_DECISION);
  refused_at_capacity(t_, w, "pass", "more than 512 options in one decision");
}

/* 502.3: the active player's permanents all untap, however many. Three Mints
 * each make 200 artifact tokens and tap them (a selection holds 256); at
 * alice's next untap step all 600 untap at once. */
static const char tapped_mints[] =
    "- name: Test Alpha Mint\n  cost: \"{1}\"\n  type: Artifact\n"
    "  text: \"{0}: Create 200 Alpha artifact tokens, then tap them.\"\n"
    "  abilities:\n    - activated:\n        cost: \"{0}\"\n"
    "        effect: [{create_token: {name: Alpha, type: Artifact}, n: 200}, {tap: {each: {name: Alpha}}}]\n"
    "- name: Test Beta Mint\n  cost: \"{1}\"\n  type: Artifact\n"
    "  text: \"{0}: Create 200 Beta artifact tokens, then tap them.\"\n"
    "  abilities:\n    - activated:\n        cost: \"{0}\"\n"
    "        effect: [{create_token: {name: Beta, type: Artifact}, n: 200}, {tap: {each: {name: Beta}}}]\n"
    "- name: Test Gamma Mint\n  cost: \"{1}\"\n  type: Artifact\n"
    "  text: \"{0}: Create 200 Gamma artifact tokens, then tap them.\"\n"
    "  abilities:\n    - activated:\n        cost: \"{0}\"\n"
    "        effect: [{create_token: {name: Gamma, type: Artifact}, n: 200}, {tap: {each: {name: Gamma}}}]\n";

TEST(limits_every_permanent_untaps_past_a_decision_s_capacity) {
  if (u_begin(t_, w, tapped_mints)) return;
  const char *mints[3] = {"Test Alpha Mint", "Test Beta Mint", "Test Gamma Mint"};
  for (int i = 0; i < 3; i++)
    if (u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, mints[i]) < 0) return;
  for (int i = 0; i < 3; i++)
    if (u_card(t_, w, w->alice, MTG_Z_LIBRARY, "Forest") < 0 || u_card(t_, w, w->bob, MTG_Z_LIBRARY, "Forest") < 0) return;
  if (u_start(t_, w)) return;
  for (int i = 0; i < 3; i++) {
    char opt[64];
    snprintf(opt, sizeof opt, "activate \"%s\"", mints[i]);
    CHECK_INT(activate_resolve(w, opt), MTG_DECISION);
  }
  CHECK_INT(u_count_logged(w->game, "tap obj="), 600);
  /* to alice's next turn: her untap step untaps all 600 */
  int rc = MTG_DECISION;
  for (int i = 0; i < 60 && rc == MTG_DECISION && !u_logged(w->game, "turn n=5"); i++) rc = pick(w, "pass");
  CHECK_INT(rc, MTG_DECISION);
  CHECK(u_logged(w->game, "turn n=5"));
  CHECK_INT(u_count_logged(w->game, "untap obj="), 600);
}

/* 113.2c, 613.1f, 707.9b: an object holds 20 abilities (MAX_ABS), keywords
 * with an ability among them. The loader refuses a card with more, naming
 * its file, line and column; a grant or a copy effect that would give an
 * object the 21st stops the game as past the capacity, the game as it was
 * at the decision, rather than leave an ability out unsaid. Test Golem has
 * n abilities: "{0}: Test Golem gains prowess until end of turn." (prowess
 * is a triggered ability, 702.108a) and n-1 of "{0}: You gain 1 life.";
 * Test Mimic becomes a copy of a creature, except it has that ability;
 * Test Drillmaster gives creatures prowess. */
enum { ABS_CAP = 20 };

static char *golem_yaml(int n) {
  char *y = malloc((size_t)n * 128 + 2048);
  if (!y) return NULL;
  size_t k = (size_t)sprintf(y, "- name: Test Golem\n  cost: \"{1}\"\n  type: Creature — Golem\n  pt: 1/1\n"
                                "  text: \"{0}: Test Golem gains prowess until end of turn.\"\n  abilities:\n"
                                "    - activated:\n        cost: \"{0}\"\n        effect: [{grant: self, keywords: [prowess]}]\n");
  for (int i = 1; i < n; i++)
    k += (size_t)sprintf(y + k, "    - activated:\n        cost: \"{0}\"\n        effect: [{gain_life: 1}]\n");
  sprintf(y + k, "- name: Test Mimic\n  cost: \"{1}\"\n  type: Creature — Shapeshifter\n  pt: 1/1\n"
                 "  text: \"{0}: Test Mimic becomes a copy of target creature, except it has this ability.\"\n"
                 "  abilities:\n    - activated:\n        cost: \"{0}\"\n        targets: [creature]\n"
                 "        effect: [{become_copy: self, of: target, keep_ability: true}]\n"
                 "- name: Test Trinket\n  cost: \"{0}\"\n  type: Sorcery\n  text: You gain 1 life.\n"
                 "  spell:\n    effect: [{gain_life: 1}]\n"
                 "- name: Test Drillmaster\n  cost: \"{2}\"\n  type: Artifact\n  text: Creatures you control have prowess.\n"
                 "  abilities:\n    - static: {affects: {type: creature, controller: you}, add_keywords: [prowess]}\n");
  return y;
}

/* The world of the tests below: Test Golem with n abilities and the
 * permanent other on alice's battlefield, Test Trinket in her hand; started
 * when start is set. */
static int golem_world(unit_ctx *t_, u_world *w, int n, const char *other, int start) {
  char *y = golem_yaml(n);
  if (!y) return unit_fail(t_, __FILE__, __LINE__, "malloc"), -1;
  int rc = u_begin(t_, w, y);
  free(y);
  if (rc || u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Test Golem") < 0 ||
      u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, other) < 0 || u_card(t_, w, w->alice, MTG_Z_HAND, "Test Trinket") < 0)
    return -1;
  return start ? u_start(t_, w) : 0;
}

/* Answers with the option whose label starts with prefix and ends with
 * suffix ("activate \"Test Golem\"#5/0": the id between them varies); the
 * status, or MTG_EARG when no option is so labelled. */
static int pick_ends(u_world *w, const char *prefix, const char *suffix) {
  const mtg_decision *d = mtg_game_decision(w->game);
  size_t np = strlen(prefix), ns = strlen(suffix);
  for (int k = 0; d && k < d->n_options; k++) {
    const char *l = d->options[k].label;
    size_t nl = strlen(l);
    if (!strncmp(l, prefix, np) && nl >= np + ns && !strcmp(l + nl - ns, suffix)) {
      mtg_answer a = {1, &k};
      return mtg_game_decide(w->game, &a, &w->err);
    }
  }
  return MTG_EARG;
}

/* The power of the permanent named name on the battlefield (the first), or -1. */
static int power_of(const mtg_game *g, const char *name) {
  uint32_t ids[16];
  int n = mtg_zone_objects(g, -1, MTG_Z_BATTLEFIELD, ids, 16);
  for (int i = 0; i < n && i < 16; i++) {
    mtg_object o;
    if (mtg_object_info(g, ids[i], &o) == 0 && !strcmp(o.name, name)) return o.power;
  }
  return -1;
}

/* The Golem's 20th ability, prowess, triggers on a noncreature spell
 * (702.108a): Test Trinket cast and resolved, the Golem is 2/2. */
static void prowess_triggers(unit_ctx *t_, u_world *w) {
  CHECK_INT(pick(w, "cast \"Test Trinket\""), MTG_DECISION);
  CHECK_INT(u_pass(t_, w, 4), MTG_DECISION);
  CHECK_INT(u_zone_of(w->game, "Test Trinket"), MTG_Z_GRAVEYARD);
  CHECK_INT(power_of(w->game, "Test Golem"), 2);
}

TEST(limits_a_card_with_more_abilities_than_an_object_holds_is_refused) {
  for (int n = ABS_CAP - 1; n <= ABS_CAP + 1; n++) {
    char *y = golem_yaml(n);
    mtg_pool *p;
    mtg_error e;
    memset(&e, 0, sizeof e);
    CHECK(y != NULL);
    CHECK_INT(mtg_pool_new(&p, NULL), 0);
    if (!y) return;
    int rc = mtg_pool_load_buffer(p, "golem.yaml", y, strlen(y), &e);
    mtg_pool_free(p);
    free(y);
    if (n <= ABS_CAP) {
      CHECK_OK(rc, &e);
      continue;
    }
    CHECK_INT(rc, MTG_EDATA);
    CHECK_STR(e.file, "golem.yaml");
    CHECK_INT(e.line, 1); /* the card's entry */
    CHECK_INT(e.col, 3);
    CHECK(strstr(e.msg, "'Test Golem' has 21 abilities") != NULL);
    CHECK(strstr(e.msg, "an object holds at most 20") != NULL);
  }
}

TEST(limits_a_grant_up_to_the_abilities_an_object_holds) {
  if (golem_world(t_, w, ABS_CAP - 1, "Test Mimic", 1)) return;
  CHECK_INT(pick_ends(w, "activate \"Test Golem\"", "/0"), MTG_DECISION);
  CHECK_INT(u_pass(t_, w, 2), MTG_DECISION);
  prowess_triggers(t_, w);
}

TEST(limits_a_grant_one_past_the_abilities_an_object_holds_refused) {
  if (golem_world(t_, w, ABS_CAP, "Test Mimic", 1)) return;
  CHECK_INT(pick_ends(w, "activate \"Test Golem\"", "/0"), MTG_DECISION);
  CHECK_INT(pick(w, "pass"), MTG_DECISION);
  refused_at_capacity(t_, w, "pass", "more than 20 abilities of one object");
}

TEST(limits_a_copy_keeping_an_ability_up_to_the_abilities_an_object_holds) {
  if (golem_world(t_, w, ABS_CAP - 1, "Test Mimic", 1)) return;
  CHECK_INT(pick(w, "activate \"Test Mimic\""), MTG_DECISION);
  CHECK_INT(pick(w, "\"Test Golem\""), MTG_DECISION);
  CHECK_INT(u_pass(t_, w, 2), MTG_DECISION);
  /* the copy has the Golem's 19 abilities and, 20th, the one it kept */
  CHECK_INT(pick_ends(w, "activate \"Test Mimic\"", "/19"), MTG_DECISION);
}

TEST(limits_a_copy_keeping_an_ability_one_past_the_abilities_an_object_holds_refused) {
  if (golem_world(t_, w, ABS_CAP, "Test Mimic", 1)) return;
  CHECK_INT(pick(w, "activate \"Test Mimic\""), MTG_DECISION);
  CHECK_INT(pick(w, "\"Test Golem\""), MTG_DECISION);
  CHECK_INT(pick(w, "pass"), MTG_DECISION);
  refused_at_capacity(t_, w, "pass", "more than 20 abilities of one object");
}

/* A static ability's grant (613.1f) applies as soon as the game has the
 * objects: with the Golem at 19 abilities the game starts and its 20th,
 * prowess, triggers; at 20 the setup is refused as past the capacity. */
TEST(limits_a_static_grant_up_to_the_abilities_an_object_holds) {
  if (golem_world(t_, w, ABS_CAP - 1, "Test Drillmaster", 1)) return;
  prowess_triggers(t_, w);
}

TEST(limits_a_static_grant_one_past_the_abilities_an_object_holds_refuses_the_setup) {
  if (golem_world(t_, w, ABS_CAP, "Test Drillmaster", 0)) return;
  CHECK_INT(mtg_game_new(&w->game, w->setup, &w->err), MTG_ELIMIT);
  CHECK(w->game == NULL);
  CHECK(strstr(w->err.msg, "the setup exceeds an engine capacity: more than 20 abilities of one object") != NULL);
}

const unit_test limits_tests[] = {
    {"limits_x_up_to_what_one_payment_holds", limits_x_up_to_what_one_payment_holds},
    {"limits_state_triggers_on_the_stack_up_to_the_capacity", limits_state_triggers_on_the_stack_up_to_the_capacity},
    {"limits_state_triggers_on_the_stack_one_past_the_capacity_refused", limits_state_triggers_on_the_stack_one_past_the_capacity_refused},
    {"limits_a_free_multikicker_up_to_what_one_payment_holds", limits_a_free_multikicker_up_to_what_one_payment_holds},
    {"limits_the_stack_holds_its_capacity_and_refuses_one_more", limits_the_stack_holds_its_capacity_and_refuses_one_more},
    {"limits_continuous_effects_up_to_the_capacity", limits_continuous_effects_up_to_the_capacity},
    {"limits_objects_a_ceased_token_frees_its_place_at_the_capacity", limits_objects_a_ceased_token_frees_its_place_at_the_capacity},
    {"limits_a_graveyard_cost_offers_every_card_of_a_full_graveyard", limits_a_graveyard_cost_offers_every_card_of_a_full_graveyard},
    {"limits_replacement_effects_applied_to_one_event_up_to_the_capacity", limits_replacement_effects_applied_to_one_event_up_to_the_capacity},
    {"limits_replacement_effects_one_past_the_capacity_refused", limits_replacement_effects_one_past_the_capacity_refused},
    {"limits_prevention_riders_of_one_batch_up_to_the_capacity", limits_prevention_riders_of_one_batch_up_to_the_capacity},
    {"limits_prevention_riders_one_past_the_capacity_refused", limits_prevention_riders_one_past_the_capacity_refused},
    {"limits_triggered_mana_abilities_of_one_event_up_to_the_capacity", limits_triggered_mana_abilities_of_one_event_up_to_the_capacity},
    {"limits_triggered_mana_abilities_one_past_the_capacity_refused", limits_triggered_mana_abilities_one_past_the_capacity_refused},
    {"limits_extra_phases_waiting_up_to_the_capacity", limits_extra_phases_waiting_up_to_the_capacity},
    {"limits_extra_turns_waiting_up_to_the_capacity", limits_extra_turns_waiting_up_to_the_capacity},
    {"limits_priority_options_full_from_the_hand", limits_priority_options_full_from_the_hand},
    {"limits_priority_options_full_of_casts", limits_priority_options_full_of_casts},
    {"limits_priority_options_full_from_the_battlefield", limits_priority_options_full_from_the_battlefield},
    {"limits_blockers_of_one_creature_up_to_the_capacity", limits_blockers_of_one_creature_up_to_the_capacity},
    {"limits_blockers_of_one_creature_one_past_the_capacity_refused", limits_blockers_of_one_creature_one_past_the_capacity_refused},
    {"limits_pending_triggers_up_to_the_capacity", limits_pending_triggers_up_to_the_capacity},
    {"limits_pending_triggers_one_past_the_capacity_refused", limits_pending_triggers_one_past_the_capacity_refused},
    {"limits_abilities_watching_one_kind_of_event_up_to_the_capacity", limits_abilities_watching_one_kind_of_event_up_to_the_capacity},
    {"limits_linked_records_up_to_the_capacity", limits_linked_records_up_to_the_capacity},
    {"limits_linked_records_one_past_the_capacity_refused", limits_linked_records_one_past_the_capacity_refused},
    {"limits_abilities_watching_one_kind_of_event_one_past_the_capacity_refused",
     limits_abilities_watching_one_kind_of_event_one_past_the_capacity_refused},
    {"limits_a_selection_up_to_the_capacity", limits_a_selection_up_to_the_capacity},
    {"limits_a_selection_one_past_the_capacity_refused", limits_a_selection_one_past_the_capacity_refused},
    {"limits_card_names_up_to_the_capacity", limits_card_names_up_to_the_capacity},
    {"limits_card_names_one_past_the_capacity_refused", limits_card_names_one_past_the_capacity_refused},
    {"limits_attack_options_up_to_the_capacity", limits_attack_options_up_to_the_capacity},
    {"limits_attack_options_one_past_the_capacity_refused", limits_attack_options_one_past_the_capacity_refused},
    {"limits_block_options_up_to_the_capacity", limits_block_options_up_to_the_capacity},
    {"limits_block_options_one_past_the_capacity_refused", limits_block_options_one_past_the_capacity_refused},
    {"limits_every_permanent_untaps_past_a_decision_s_capacity", limits_every_permanent_untaps_past_a_decision_s_capacity},
    {"limits_a_card_with_more_abilities_than_an_object_holds_is_refused", limits_a_card_with_more_abilities_than_an_object_holds_is_refused},
    {"limits_a_grant_up_to_the_abilities_an_object_holds", limits_a_grant_up_to_the_abilities_an_object_holds},
    {"limits_a_grant_one_past_the_abilities_an_object_holds_refused", limits_a_grant_one_past_the_abilities_an_object_holds_refused},
    {"limits_a_copy_keeping_an_ability_up_to_the_abilities_an_object_holds", limits_a_copy_keeping_an_ability_up_to_the_abilities_an_object_holds},
    {"limits_a_copy_keeping_an_ability_one_past_the_abilities_an_object_holds_refused", limits_a_copy_keeping_an_ability_one_past_the_abilities_an_object_holds_refused},
    {"limits_a_static_grant_up_to_the_abilities_an_object_holds", limits_a_static_grant_up_to_the_abilities_an_object_holds},
    {"limits_a_static_grant_one_past_the_abilities_an_object_holds_refuses_the_setup", limits_a_static_grant_one_past_the_abilities_an_object_holds_refuses_the_setup},
    {NULL, NULL},
};
