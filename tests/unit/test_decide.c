/* test_decide.c - unit tests of answering decisions (game.c): for each shape
 * of answer (picks, a number, an order, a damage division), the answers just
 * inside the allowed range are taken and those just outside are refused with
 * a reason saying why, leaving the same decision pending; the log records an
 * answer the way docs/events.md says. */
#include <stdlib.h>
#include <string.h>

#include "unit.h"

/* Answers with v[0..n); returns the status and leaves the reason in w->err. */
static int answer(u_world *w, int n, const int *v) {
  mtg_answer a = {n, v};
  return mtg_game_decide(w->game, &a, &w->err);
}

/* A refused answer: MTG_EILLEGAL, the reason contains `why`, and the same
 * decision (kind, player, options) is still pending. */
static int refused(unit_ctx *t_, u_world *w, int n, const int *v, const char *why, int line) {
  const mtg_decision *d = mtg_game_decision(w->game);
  int kind = d ? d->kind : -1, player = d ? d->player : -1, nopt = d ? d->n_options : -1;
  uint64_t h = mtg_game_hash(w->game);
  int rc = answer(w, n, v);
  d = mtg_game_decision(w->game);
  if (rc != MTG_EILLEGAL || !strstr(w->err.msg, why) || !d || d->kind != kind || d->player != player ||
      d->n_options != nopt || mtg_game_hash(w->game) != h) {
    unit_fail(t_, __FILE__, line, "answer refused? status %d '%s', expected MTG_EILLEGAL with '%s' and the decision unchanged",
              rc, w->err.msg, why);
    return -1;
  }
  return 0;
}
#define REFUSED(n, v, why) \
  do { \
    if (refused(t_, w, (n), (v), (why), __LINE__)) return; \
  } while (0)

TEST(decide_a_pick_takes_exactly_its_count_of_existing_options) {
  if (u_begin(t_, w, NULL)) return;
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Mountain");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Lightning Bolt");
  if (u_start(t_, w)) return;
  const mtg_decision *d = mtg_game_decision(w->game);
  CHECK(d && d->kind == MTG_D_PRIORITY && d->min == 1 && d->max == 1);
  int n = d->n_options;
  int none[1], two[2] = {0, 1}, past[1] = {n}, neg[1] = {-1};
  REFUSED(0, none, "choose exactly 1 option, got 0");
  REFUSED(2, two, "choose exactly 1 option, got 2");
  REFUSED(1, past, "does not exist");
  REFUSED(1, neg, "option -1 does not exist");
  int last[1] = {n - 1};
  CHECK(answer(w, 1, last) >= 0); /* the last option exists */
}

TEST(decide_a_multiple_pick_between_its_bounds) {
  /* attackers: any number of the two creatures, each at most once */
  if (u_begin(t_, w, NULL)) return;
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Grizzly Bears");
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Runeclaw Bear");
  mtg_setup_start(w->setup, w->alice, 3, MTG_S_DECLARE_ATTACKERS);
  if (u_start(t_, w)) return;
  const mtg_decision *d = mtg_game_decision(w->game);
  CHECK(d && d->kind == MTG_D_ATTACKERS);
  CHECK_INT(d->min, 0);
  CHECK_INT(d->max, 2);
  CHECK_INT(d->n_options, 2);
  int twice[2] = {1, 1}, three[3] = {0, 1, 0};
  REFUSED(2, twice, "option 1 chosen twice");
  REFUSED(3, three, "choose 0 to 2 options, got 3");
  int both[2] = {1, 0};
  CHECK(answer(w, 2, both) >= 0);
  CHECK(u_logged(w->game, "decide kind=attackers player=alice choice=\"Runeclaw Bear\""));
  CHECK(u_logged(w->game, " | \"Grizzly Bears\""));
}

TEST(decide_no_attackers_is_logged_as_none) {
  if (u_begin(t_, w, NULL)) return;
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Grizzly Bears");
  mtg_setup_start(w->setup, w->alice, 3, MTG_S_DECLARE_ATTACKERS);
  if (u_start(t_, w)) return;
  CHECK(answer(w, 0, NULL) >= 0);
  CHECK(u_logged(w->game, "decide kind=attackers player=alice choice=none"));
}

static const char x_cards[] =
    "- name: Test Blast\n"
    "  cost: \"{X}{R}\"\n"
    "  type: Sorcery\n"
    "  text: Test Blast deals X damage to any target.\n"
    "  spell:\n"
    "    targets: [any_target]\n"
    "    effect: [{damage: X, to: target}]\n";

TEST(decide_a_number_within_its_range) {
  /* X of a spell: from 0 to what the lands can pay beyond {R} */
  if (u_begin(t_, w, x_cards)) return;
  for (int i = 0; i < 3; i++) u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Mountain");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Test Blast");
  if (u_start(t_, w)) return;
  if (u_pick(t_, w, "cast \"Test Blast\"") < 0) return;
  const mtg_decision *d = mtg_game_decision(w->game);
  CHECK(d && (d->kind == MTG_D_X || d->kind == MTG_D_NUMBER));
  CHECK_INT(d->lo, 0);
  CHECK_INT(d->hi, 2);
  int big[1] = {3}, neg[1] = {-1}, two[2] = {1, 1};
  REFUSED(1, big, "3 is out of range 0..2");
  REFUSED(1, neg, "-1 is out of range 0..2");
  REFUSED(2, two, "takes one number");
  REFUSED(0, NULL, "takes one number");
  int top[1] = {2};
  CHECK(answer(w, 1, top) >= 0);
  CHECK(u_logged(w->game, "decide kind=x player=alice value=2") || u_logged(w->game, "decide kind=number player=alice value=2"));
}

/* Alice casts "Scry 3" with Forest, Island, Swamp on top of her library (and
 * Mountain under them when `under`): 0 once the scry asks which go to the
 * bottom, -1 if the game did not get there. */
static int scry_three(unit_ctx *t_, u_world *w, int under) {
  if (u_begin(t_, w, "- name: Test Augury\n  cost: \"{U}\"\n  type: Sorcery\n  text: Scry 3.\n  spell:\n    effect: [{scry: 3}]\n"))
    return -1;
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Island");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Test Augury");
  static const char *const lib[4] = {"Forest", "Island", "Swamp", "Mountain"};
  for (int i = 0; i < 3 + (under != 0); i++) u_card(t_, w, w->alice, MTG_Z_LIBRARY, lib[i]);
  if (u_start(t_, w)) return -1;
  if (u_pick(t_, w, "cast \"Test Augury\"") < 0) return -1;
  u_pass(t_, w, 2);
  return 0;
}

TEST(decide_an_order_is_a_permutation_of_all_options) {
  /* scry 3 keeping all three on top asks for their order */
  if (scry_three(t_, w, 0)) return;
  CHECK(answer(w, 0, NULL) >= 0); /* none to the bottom */
  const mtg_decision *d = mtg_game_decision(w->game);
  CHECK(d && d->kind == MTG_D_ORDER && d->n_options == 3);
  int short2[2] = {0, 1}, dup[3] = {0, 1, 1}, past[3] = {0, 1, 3}, neg[3] = {0, 1, -1}, four[4] = {0, 1, 2, 0};
  REFUSED(2, short2, "an order lists all 3 options, got 2");
  REFUSED(4, four, "an order lists all 3 options, got 4");
  REFUSED(3, dup, "an order is a permutation of options 0..2");
  REFUSED(3, past, "an order is a permutation of options 0..2");
  REFUSED(3, neg, "an order is a permutation of options 0..2");
  /* the first element is checked as the others are */
  int first_dup[3] = {1, 1, 2}, first_past[3] = {3, 0, 1}, first_neg[3] = {-1, 0, 1};
  REFUSED(3, first_dup, "an order is a permutation of options 0..2");
  REFUSED(3, first_past, "an order is a permutation of options 0..2");
  REFUSED(3, first_neg, "an order is a permutation of options 0..2");
  int rev[3] = {2, 1, 0};
  CHECK(answer(w, 3, rev) >= 0);
  uint32_t lib[3];
  CHECK_INT(mtg_zone_objects(w->game, w->alice, MTG_Z_LIBRARY, lib, 3), 3);
  mtg_object o;
  CHECK_INT(mtg_object_info(w->game, lib[0], &o), 0);
  CHECK_STR(o.name, "Swamp");
  CHECK_INT(mtg_object_info(w->game, lib[2], &o), 0);
  CHECK_STR(o.name, "Forest");
}

TEST(decide_scry_orders_the_bottom_cards_as_the_bottom) {
  /* scry 3 putting all three on the bottom (701.22a): the order asked is the
   * bottom's, first listed highest, and the card not looked at ends on top */
  if (scry_three(t_, w, 1)) return;
  int all[3] = {0, 1, 2};
  CHECK(answer(w, 3, all) >= 0); /* all three to the bottom */
  const mtg_decision *d = mtg_game_decision(w->game);
  CHECK(d && d->kind == MTG_D_ORDER && d->n_options == 3);
  CHECK(d && strstr(d->prompt, "bottom") != NULL);
  CHECK(d && strstr(d->prompt, "top") == NULL);
  int rev[3] = {2, 1, 0};
  CHECK(answer(w, 3, rev) >= 0);
  uint32_t lib[4];
  CHECK_INT(mtg_zone_objects(w->game, w->alice, MTG_Z_LIBRARY, lib, 4), 4);
  static const char *const want[4] = {"Mountain", "Swamp", "Island", "Forest"};
  for (int i = 0; i < 4; i++) {
    mtg_object o;
    CHECK_INT(mtg_object_info(w->game, lib[i], &o), 0);
    CHECK_STR(o.name, want[i]);
  }
}

static const char trample_cards[] =
    "- name: Test Brute\n"
    "  cost: \"{3}{G}\"\n"
    "  type: Creature — Beast\n"
    "  pt: 5/5\n"
    "  text: \"\"\n";

TEST(decide_a_damage_division_totals_the_damage) {
  /* a 5/5 blocked by two 2/2s: its controller divides 5 damage between them */
  if (u_begin(t_, w, trample_cards)) return;
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Test Brute");
  u_card(t_, w, w->bob, MTG_Z_BATTLEFIELD, "Grizzly Bears");
  u_card(t_, w, w->bob, MTG_Z_BATTLEFIELD, "Runeclaw Bear");
  mtg_setup_start(w->setup, w->alice, 3, MTG_S_DECLARE_ATTACKERS);
  if (u_start(t_, w)) return;
  int first = 0;
  CHECK(answer(w, 1, &first) >= 0); /* attack */
  u_pass(t_, w, 2);
  const mtg_decision *d = mtg_game_decision(w->game);
  CHECK(d && d->kind == MTG_D_BLOCKERS && d->n_options == 2);
  int both[2] = {0, 1};
  CHECK(answer(w, 2, both) >= 0);
  const mtg_decision *o = mtg_game_decision(w->game);
  for (int k = 0; k < 6 && o && o->kind != MTG_D_DAMAGE; k++) {
    if (o->kind == MTG_D_ORDER) { /* the blockers' damage assignment order (509.2) */
      int keep[2] = {0, 1};
      CHECK(answer(w, 2, keep) >= 0);
    } else if (u_pass(t_, w, 1) < 0)
      return;
    o = mtg_game_decision(w->game);
  }
  CHECK(o && o->kind == MTG_D_DAMAGE && o->n_options >= 2);
  CHECK_INT(o->hi, 5);
  int n = o->n_options;
  int amounts[8] = {0};
  amounts[0] = 2;
  amounts[1] = 2; /* total 4 */
  REFUSED(n, amounts, "damage assigned (4) must total 5");
  amounts[1] = 4; /* total 6 */
  REFUSED(n, amounts, "damage assigned (6) must total 5");
  amounts[0] = -1;
  amounts[1] = 6;
  REFUSED(n, amounts, "negative damage amount");
  amounts[0] = 2;
  amounts[1] = 3;
  REFUSED(n - 1, amounts, "lists an amount for each of");
  CHECK(answer(w, n, amounts) >= 0);
  CHECK(u_logged(w->game, "decide kind=damage player=alice"));
  CHECK(u_logged(w->game, "=2"));
  CHECK(u_logged(w->game, "=3"));
}

/* The prompt says what is being decided, with the numbers and costs of it. */
static int prompt_has(unit_ctx *t_, u_world *w, int kind, const char *text, int line) {
  const mtg_decision *d = mtg_game_decision(w->game);
  if (!d || d->kind != kind || !strstr(d->prompt, text)) {
    unit_fail(t_, __FILE__, line, "pending %s decision '%s', expected a %d decision saying '%s'", d ? d->kind_name : "no",
              d ? d->prompt : "", kind, text);
    return -1;
  }
  return 0;
}
#define PROMPT_HAS(kind, text) \
  do { \
    if (prompt_has(t_, w, (kind), (text), __LINE__)) return; \
  } while (0)

static const char prompt_cards[] =
    "- name: Test Mind Rot\n  cost: \"{B}\"\n  type: Sorcery\n  text: Target player discards two cards.\n"
    "  spell:\n    targets: [player]\n    effect: [{discard: 2, who: target}]\n"
    "- name: Test Mind Nip\n  cost: \"{B}\"\n  type: Sorcery\n  text: Target player discards a card.\n"
    "  spell:\n    targets: [player]\n    effect: [{discard: 1, who: target}]\n"
    "- name: Test Envoy\n  cost: \"{W}\"\n  type: Sorcery\n  text: Choose an opponent. They gain 1 life.\n"
    "  spell:\n    effect: [{choose: opponent, label: who}, {gain_life: 1, who: {chosen: who}}]\n"
    "- name: Test Census\n  cost: \"{W}\"\n  type: Sorcery\n  text: Choose a player. They gain 1 life.\n"
    "  spell:\n    effect: [{choose: player, label: who}, {gain_life: 1, who: {chosen: who}}]\n"
    "- name: Test Coercion\n  cost: \"{B}\"\n  type: Sorcery\n"
    "  text: Target player reveals their hand. You choose a card from it. That player discards that card.\n"
    "  spell:\n    targets: [player]\n    effect: [{discard: 1, who: target, by: you, reveal: true}]\n"
    "- name: Test Ransack\n  cost: \"{B}\"\n  type: Sorcery\n"
    "  text: Target player reveals their hand. You choose two cards from it. That player discards those cards.\n"
    "  spell:\n    targets: [player]\n    effect: [{discard: 2, who: target, by: you, reveal: true}]\n"
    "- name: Test Double Tutor\n  cost: \"{B}\"\n  type: Sorcery\n"
    "  text: Search your library for two cards, then shuffle and put those cards on top in any order.\n"
    "  spell:\n    effect: [{search_library: card, n: 2, to: library}]\n";

TEST(decide_prompts_say_what_is_asked) {
  if (u_begin(t_, w, prompt_cards)) return;
  for (int i = 0; i < 11; i++) u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, i < 9 ? "Swamp" : "Plains");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Test Mind Rot");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Test Mind Nip");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Test Envoy");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Test Census");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Test Coercion");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Test Ransack");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Test Double Tutor");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Gatekeeper of Malakir");
  u_card(t_, w, w->alice, MTG_Z_LIBRARY, "Island");
  u_card(t_, w, w->alice, MTG_Z_LIBRARY, "Mountain");
  u_card(t_, w, w->alice, MTG_Z_LIBRARY, "Forest");
  for (int i = 0; i < 7; i++) u_card(t_, w, w->bob, MTG_Z_HAND, "Forest");
  mtg_setup_player(w->setup, "carol", 20, 0);
  if (u_start(t_, w)) return;
  /* discarding two cards of four, then one of two */
  if (u_pick(t_, w, "cast \"Test Mind Rot\"") < 0) return;
  if (u_pick(t_, w, "bob") < 0) return;
  u_pass(t_, w, 3);
  PROMPT_HAS(MTG_D_CHOOSE, "discard 2 cards");
  int two[2] = {0, 1};
  CHECK(answer(w, 2, two) >= 0);
  if (mtg_game_decision(w->game)->kind == MTG_D_ORDER) CHECK(answer(w, 2, two) >= 0); /* into the graveyard (404.3) */
  if (u_pick(t_, w, "cast \"Test Mind Nip\"") < 0) return;
  if (u_pick(t_, w, "bob") < 0) return;
  u_pass(t_, w, 3);
  PROMPT_HAS(MTG_D_CHOOSE, "discard 1 card");
  CHECK(!strstr(mtg_game_decision(w->game)->prompt, "cards"));
  int one[1] = {0};
  CHECK(answer(w, 1, one) >= 0);
  /* 701.9: another player chooses what bob discards, one card, then two */
  if (u_pick(t_, w, "cast \"Test Coercion\"") < 0) return;
  if (u_pick(t_, w, "bob") < 0) return;
  u_pass(t_, w, 3);
  PROMPT_HAS(MTG_D_CHOOSE, "choose 1 card bob discards");
  CHECK_INT(mtg_game_decision(w->game)->player, w->alice);
  CHECK(answer(w, 1, one) >= 0);
  if (u_pick(t_, w, "cast \"Test Ransack\"") < 0) return;
  if (u_pick(t_, w, "bob") < 0) return;
  u_pass(t_, w, 3);
  PROMPT_HAS(MTG_D_CHOOSE, "choose 2 cards bob discards");
  CHECK(answer(w, 2, two) >= 0);
  if (mtg_game_decision(w->game)->kind == MTG_D_ORDER) CHECK(answer(w, 2, two) >= 0); /* into the graveyard (404.3) */
  /* 701.23: two cards found go back on top, in the order the searcher says */
  if (u_pick(t_, w, "cast \"Test Double Tutor\"") < 0) return;
  u_pass(t_, w, 3);
  PROMPT_HAS(MTG_D_CHOOSE, "search your library");
  CHECK(answer(w, 2, two) >= 0);
  PROMPT_HAS(MTG_D_ORDER, "order the cards for the top (first listed is on top)");
  CHECK(answer(w, 2, two) >= 0);
  /* an opponent (bob or carol), a player (anyone) */
  if (u_pick(t_, w, "cast \"Test Envoy\"") < 0) return;
  u_pass(t_, w, 3);
  PROMPT_HAS(MTG_D_PLAYER, "choose an opponent");
  CHECK_INT(mtg_game_decision(w->game)->n_options, 2);
  if (u_pick(t_, w, "carol") < 0) return;
  if (u_pick(t_, w, "cast \"Test Census\"") < 0) return;
  u_pass(t_, w, 3);
  PROMPT_HAS(MTG_D_PLAYER, "choose a player");
  CHECK_INT(mtg_game_decision(w->game)->n_options, 3);
  if (u_pick(t_, w, "alice") < 0) return;
  /* a kicker cost named in the question */
  if (u_pick(t_, w, "cast \"Gatekeeper of Malakir\"") < 0) return;
  PROMPT_HAS(MTG_D_MAY, "pay kicker {B} for");
}

static const char guard_cards[] =
    "- name: Test Palace Guard\n  cost: \"{2}{W}\"\n  type: Creature — Human Soldier\n  pt: 1/4\n"
    "  text: Test Palace Guard can block any number of creatures.\n"
    "  abilities: [{static: {rule: block_any_number}}]\n";

/* 510.1d: a creature blocking two attackers has its controller divide its
 * damage; the question names the blocker and the damage it divides. */
TEST(decide_a_blockers_damage_division_names_the_blocker) {
  if (u_begin(t_, w, guard_cards)) return;
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Grizzly Bears");
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Runeclaw Bear");
  u_card(t_, w, w->bob, MTG_Z_BATTLEFIELD, "Test Palace Guard");
  mtg_setup_start(w->setup, w->alice, 3, MTG_S_DECLARE_ATTACKERS);
  if (u_start(t_, w)) return;
  int both[2] = {0, 1};
  CHECK(answer(w, 2, both) >= 0); /* both attack bob */
  u_pass(t_, w, 2);
  const mtg_decision *d = mtg_game_decision(w->game);
  CHECK(d && d->kind == MTG_D_BLOCKERS && d->n_options == 2);
  CHECK(answer(w, 2, both) >= 0); /* the Guard blocks both */
  d = mtg_game_decision(w->game);
  for (int k = 0; k < 6 && d && d->kind != MTG_D_DAMAGE; k++) {
    if (d->kind == MTG_D_ORDER) CHECK(answer(w, 2, both) >= 0);
    else if (u_pass(t_, w, 1) < 0)
      return;
    d = mtg_game_decision(w->game);
  }
  PROMPT_HAS(MTG_D_DAMAGE, "assign 1 combat damage of \"Test Palace Guard\"#");
  CHECK_INT(mtg_game_decision(w->game)->player, w->bob);
}

static const char and_or_cards[] =
    "- name: Test Pond Search\n  cost: \"{U}\"\n  type: Sorcery\n"
    "  text: Search your library and/or graveyard for a Forest card, put it into your hand. If you search your library "
    "this way, shuffle.\n"
    "  spell:\n    effect: [{search_library: {name: Forest}, zones: [library, graveyard], and_or: true}]\n";

/* 701.23: "search your library and/or graveyard": searching the library (and
 * so shuffling it) is the searcher's choice, asked about their own library. */
TEST(decide_and_or_search_asks_about_your_library) {
  if (u_begin(t_, w, and_or_cards)) return;
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Island");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Test Pond Search");
  u_card(t_, w, w->alice, MTG_Z_GRAVEYARD, "Forest");
  u_card(t_, w, w->alice, MTG_Z_LIBRARY, "Forest");
  if (u_start(t_, w)) return;
  if (u_pick(t_, w, "cast \"Test Pond Search\"") < 0) return;
  u_pass(t_, w, 2);
  PROMPT_HAS(MTG_D_MAY, "search your library as well?");
  CHECK_INT(mtg_game_decision(w->game)->player, w->alice);
  /* both zones are searched: the choice is among cards of either, not of the library alone */
  if (u_pick(t_, w, "yes") < 0) return;
  PROMPT_HAS(MTG_D_CHOOSE, "search your cards");
  CHECK_INT(mtg_game_decision(w->game)->n_options, 2);
}

/* 603.5, 113.7a: an optional effect of a triggered ability whose source has
 * left the battlefield is asked about in the name its source last had. */
TEST(decide_may_prompt_names_a_source_that_is_gone) {
  if (u_begin(t_, w, NULL)) return;
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Mountain");
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Solemn Simulacrum");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Lightning Bolt");
  u_card(t_, w, w->alice, MTG_Z_LIBRARY, "Island");
  if (u_start(t_, w)) return;
  if (u_pick(t_, w, "cast \"Lightning Bolt\"") < 0) return;
  if (u_pick(t_, w, "\"Solemn Simulacrum\"") < 0) return;
  u_pass(t_, w, 4);
  PROMPT_HAS(MTG_D_MAY, "use the optional effect of \"Solemn Simulacrum\"#");
  CHECK_INT(mtg_game_decision(w->game)->player, w->alice);
}

static const char as_enters_cards[] =
    "- name: Test Census Idol\n  cost: \"{1}\"\n  type: Artifact\n  text: As this artifact enters, choose a player.\n"
    "  abilities:\n    - replacement: {event: enters, self: true, as_enters: {choose: player, label: who}}\n"
    "- name: Test Rival Idol\n  cost: \"{1}\"\n  type: Artifact\n  text: As this artifact enters, choose an opponent.\n"
    "  abilities:\n    - replacement: {event: enters, self: true, as_enters: {choose: opponent, label: who}}\n";

/* 614.12a: "As this enters, choose a player / an opponent" asks for a player, or
 * an opposing one, and says which; with three players, three or two options. */
TEST(decide_as_enters_player_prompts_say_which_players) {
  if (u_begin(t_, w, as_enters_cards)) return;
  for (int i = 0; i < 2; i++) u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Plains");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Test Census Idol");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Test Rival Idol");
  mtg_setup_player(w->setup, "carol", 20, 0);
  if (u_start(t_, w)) return;
  if (u_pick(t_, w, "cast \"Test Rival Idol\"") < 0) return;
  u_pass(t_, w, 3);
  PROMPT_HAS(MTG_D_PLAYER, "choose an opposing player for");
  CHECK_INT(mtg_game_decision(w->game)->n_options, 2);
  if (u_pick(t_, w, "carol") < 0) return;
  if (u_pick(t_, w, "cast \"Test Census Idol\"") < 0) return;
  u_pass(t_, w, 3);
  PROMPT_HAS(MTG_D_PLAYER, "choose a player for");
  CHECK_INT(mtg_game_decision(w->game)->n_options, 3);
}

/* 118.9: the question of an alternative cost names that cost */
TEST(decide_alternative_cost_prompt_names_the_cost) {
  static const char cards[] = "- name: Test Shortcut\n  cost: \"{4}{B}\"\n  type: Sorcery\n"
                              "  alt_cost: {cost: \"{1}{B}\"}\n"
                              "  text: You may pay {1}{B} rather than pay this spell's mana cost. You gain 1 life.\n"
                              "  spell:\n    effect: [{gain_life: 1}]\n";
  if (u_begin(t_, w, cards)) return;
  for (int i = 0; i < 2; i++) u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Swamp");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Test Shortcut");
  if (u_start(t_, w)) return;
  if (u_pick(t_, w, "cast \"Test Shortcut\"") < 0) return;
  PROMPT_HAS(MTG_D_MAY, "'s alternative cost {1}{B} rather than its mana cost?");
}

/* 702.27a: the question of a buyback cost names its mana, {0} included, and
 * says when the cost has other parts (a discard) besides. */
TEST(decide_buyback_prompt_names_the_cost) {
  static const char cards[] = "- name: Test Free Recall\n  cost: \"{B}\"\n  type: Sorcery\n"
                              "  text: \"Buyback {0}, Discard a card.\\nYou gain 1 life.\"\n"
                              "  buyback: {cost: \"{0}\", costs: [{discard: 1}]}\n"
                              "  spell:\n    effect: [{gain_life: 1}]\n"
                              "- name: Test Mana Recall\n  cost: \"{B}\"\n  type: Sorcery\n"
                              "  text: \"Buyback {2}\\nYou gain 1 life.\"\n  buyback: \"{2}\"\n"
                              "  spell:\n    effect: [{gain_life: 1}]\n";
  static const char *const asked[][2] = {
      {"cast \"Test Free Recall\"", "pay buyback {0} (and other costs) for \"Test Free Recall\""},
      {"cast \"Test Mana Recall\"", "pay buyback {2} for \"Test Mana Recall\""},
  };
  if (u_begin(t_, w, cards)) return;
  for (int i = 0; i < 4; i++) u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Swamp");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Test Free Recall");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Test Mana Recall");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Forest"); /* a card to discard: the {0} buyback can be paid */
  if (u_start(t_, w)) return;
  for (size_t i = 0; i < sizeof asked / sizeof asked[0]; i++) {
    if (u_pick(t_, w, asked[i][0]) < 0) return;
    PROMPT_HAS(MTG_D_MAY, asked[i][1]);
    if (u_pick(t_, w, "no") < 0) return;
    u_pass(t_, w, 2);
  }
}

/* Casting during a resolution asks whether to cast the card, naming the cost
 * and the rule: without paying its mana cost (608.2g, cascade), or for its
 * miracle cost (702.94a). */
TEST(decide_casting_during_a_resolution_names_the_cost) {
  if (u_begin(t_, w, NULL)) return;
  const char *lands[] = {"Forest", "Forest", "Plains", "Plains", "Island", "Island"};
  for (int i = 0; i < 6; i++) u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, lands[i]);
  u_card(t_, w, w->alice, MTG_Z_HAND, "Captured Sunlight");
  u_card(t_, w, w->alice, MTG_Z_LIBRARY, "Grizzly Bears");
  u_card(t_, w, w->alice, MTG_Z_LIBRARY, "Devastation Tide");
  u_card(t_, w, w->bob, MTG_Z_LIBRARY, "Island");
  if (u_start(t_, w)) return;
  if (u_pick(t_, w, "cast \"Captured Sunlight\"") < 0) return;
  u_pass(t_, w, 2);
  PROMPT_HAS(MTG_D_MAY, "cast \"Grizzly Bears\"");
  PROMPT_HAS(MTG_D_MAY, "without paying its mana cost?");
  CHECK_STR(mtg_game_decision(w->game)->rule, "608.2g");
  if (u_pick(t_, w, "no") < 0) return;
  /* alice's next turn: Devastation Tide, the first card she draws */
  u_pass(t_, w, 200);
  PROMPT_HAS(MTG_D_MAY, "(miracle)?");
  if (u_pick(t_, w, "yes") < 0) return;
  u_pass(t_, w, 2);
  PROMPT_HAS(MTG_D_MAY, "cast \"Devastation Tide\"");
  PROMPT_HAS(MTG_D_MAY, "for its miracle cost {1}{U}?");
  CHECK_STR(mtg_game_decision(w->game)->rule, "702.94a");
}

/* 700.2, 115.1: the questions of a spell's modes and targets name the spell
 * ("choose mode of", or "choose modes of" when more than one may be chosen),
 * those of a triggered ability its number on the stack */
TEST(decide_mode_and_target_prompts_name_the_spell) {
  static const char cards[] =
      "- name: Test Choice\n  cost: \"{R}\"\n  type: Instant\n"
      "  text: \"Choose one \u2014\\n\u2022 Test Choice deals 1 damage to any target.\\n\u2022 You gain 1 life.\"\n"
      "  spell:\n    modes:\n"
      "      - {text: Test Choice deals 1 damage to any target., targets: [any_target], effect: [{damage: 1, to: target}]}\n"
      "      - {text: You gain 1 life., effect: [{gain_life: 1}]}\n"
      "- name: Test Choices\n  cost: \"{R}\"\n  type: Instant\n"
      "  text: \"Choose one or both \u2014\\n\u2022 You gain 1 life.\\n\u2022 You gain 2 life.\"\n"
      "  spell:\n    choose: {min: 1, max: 2}\n    modes:\n"
      "      - {text: You gain 1 life., effect: [{gain_life: 1}]}\n"
      "      - {text: You gain 2 life., effect: [{gain_life: 2}]}\n"
      "- name: Test Sparker\n  cost: \"{R}\"\n  type: Creature \u2014 Elemental\n  pt: 1/1\n"
      "  text: When this creature enters, it deals 1 damage to any target.\n"
      "  abilities:\n    - triggered: {when: {enters: self}, targets: [any_target], effect: [{damage: 1, to: target}]}\n";
  if (u_begin(t_, w, cards)) return;
  for (int i = 0; i < 3; i++) u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Mountain");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Test Choice");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Test Choices");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Test Sparker");
  if (u_start(t_, w)) return;
  if (u_pick(t_, w, "cast \"Test Choice\"") < 0) return;
  PROMPT_HAS(MTG_D_MODE, "choose mode of \"Test Choice\"#");
  if (u_pick(t_, w, "mode 1") < 0) return;
  PROMPT_HAS(MTG_D_TARGET, "target 1 of \"Test Choice\"#");
  if (u_pick(t_, w, "bob") < 0) return;
  u_pass(t_, w, 2);
  if (u_pick(t_, w, "cast \"Test Choices\"") < 0) return;
  PROMPT_HAS(MTG_D_MODE, "choose modes of \"Test Choices\"#");
  int one[1] = {0};
  CHECK(answer(w, 1, one) >= 0);
  u_pass(t_, w, 2);
  if (u_pick(t_, w, "cast \"Test Sparker\"") < 0) return;
  u_pass(t_, w, 2);
  PROMPT_HAS(MTG_D_TARGET, "target 1 of #");
}

/* 514.1: the active player discards down to seven in the cleanup step; the
 * question says how many */
TEST(decide_cleanup_discard_says_how_many) {
  if (u_begin(t_, w, NULL)) return;
  for (int i = 0; i < 9; i++) u_card(t_, w, w->alice, MTG_Z_HAND, "Forest");
  for (int i = 0; i < 3; i++) {
    u_card(t_, w, w->alice, MTG_Z_LIBRARY, "Island");
    u_card(t_, w, w->bob, MTG_Z_LIBRARY, "Island");
  }
  mtg_setup_start(w->setup, w->alice, 3, MTG_S_END);
  if (u_start(t_, w)) return;
  u_pass(t_, w, 4);
  PROMPT_HAS(MTG_D_CHOOSE, "discard 2 cards to hand size");
  CHECK(mtg_game_decision(w->game)->min == 2 && mtg_game_decision(w->game)->max == 2);
  int two[2] = {0, 1};
  CHECK(answer(w, 2, two) >= 0);
  if (mtg_game_decision(w->game)->kind == MTG_D_ORDER) CHECK(answer(w, 2, two) >= 0); /* into the graveyard (404.3) */
  /* seven, and the card of turn 5's draw step: one to discard */
  u_pass(t_, w, 100);
  PROMPT_HAS(MTG_D_CHOOSE, "discard 1 card to hand size");
  CHECK_INT(mtg_game_turn(w->game), 5);
  CHECK(mtg_game_decision(w->game)->min == 1 && mtg_game_decision(w->game)->max == 1);
}

static const char cost_choice_cards[] =
    "- name: Test Altar One\n  type: Artifact\n  abilities:\n"
    "    - activated: {costs: [{tap: creature}], effect: [{gain_life: 1}]}\n"
    "- name: Test Altar Two\n  type: Artifact\n  abilities:\n"
    "    - activated: {costs: [{sacrifice: creature, n: 2}], effect: [{gain_life: 2}]}\n"
    "- name: Test Crypt One\n  type: Artifact\n  abilities:\n"
    "    - activated: {costs: [{exile_from_graveyard: card}], effect: [{gain_life: 1}]}\n"
    "- name: Test Crypt Two\n  type: Artifact\n  abilities:\n"
    "    - activated: {costs: [{exile_from_graveyard: card, n: 2}], effect: [{gain_life: 2}]}\n";

/* The prompt of a cost's choice says how many, in words that agree with the
 * number: "choose 1 permanent", "choose 2 permanents", "exile 1 card",
 * "exile 2 cards"; and the decision names the rule that asks it: sacrificing
 * (701.21a), tapping or returning as a cost (118.3), exiling cards from a
 * graveyard while paying (601.2h) */
static int cost_choice_prompt(unit_ctx *t_, u_world *w, const char *source, const char *want, const char *rule) {
  char act[64];
  snprintf(act, sizeof act, "activate \"%s\"", source);
  if (u_pick(t_, w, act) < 0) return -1;
  const mtg_decision *d = mtg_game_decision(w->game);
  if (!d || d->kind != MTG_D_CHOOSE) return unit_fail(t_, __FILE__, __LINE__, "%s: no choice asked", source), -1;
  if (strcmp(d->prompt, want)) return unit_fail(t_, __FILE__, __LINE__, "%s: prompt '%s', expected '%s'", source, d->prompt, want), -1;
  if (strcmp(d->rule, rule)) return unit_fail(t_, __FILE__, __LINE__, "%s: rule '%s', expected '%s'", source, d->rule, rule), -1;
  int v[2] = {0, 1};
  if (answer(w, d->min, v) < 0) return unit_fail(t_, __FILE__, __LINE__, "%s: %s", source, w->err.msg), -1;
  return 0;
}

TEST(decide_a_cost_choice_says_how_many) {
  if (u_begin(t_, w, cost_choice_cards)) return;
  const char *cards[] = {"Test Altar One", "Test Altar Two", "Test Crypt One", "Test Crypt Two"};
  for (int i = 0; i < 4; i++) u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, cards[i]);
  for (int i = 0; i < 4; i++) u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Grizzly Bears");
  for (int i = 0; i < 4; i++) u_card(t_, w, w->alice, MTG_Z_GRAVEYARD, "Forest");
  if (u_start(t_, w)) return;
  if (cost_choice_prompt(t_, w, "Test Altar Two", "choose 2 permanents to sacrifice", "701.21a")) return;
  if (cost_choice_prompt(t_, w, "Test Altar One", "choose 1 permanent to tap", "118.3")) return;
  if (cost_choice_prompt(t_, w, "Test Crypt Two", "exile 2 cards from your graveyard", "601.2h")) return;
  if (cost_choice_prompt(t_, w, "Test Crypt One", "exile 1 card from your graveyard", "601.2h")) return;
}

/* Card text shown in a decision (a mode's text, a "may" prompt) may hold any
 * bytes; a control character there is shown as a space, so that prompts and
 * labels stay readable text (mtg.h, mtg_decision_check). */
static const char tab_cards[] =
    "- name: Test Tab Modes\n  cost: \"{0}\"\n  type: Sorcery\n  spell:\n    modes:\n"
    "      - {text: \"gain\\t1 life\", effect: [{gain_life: 1}]}\n"
    "      - {text: \"lose\\x7f1 life\", effect: [{lose_life: 1}]}\n"
    "- name: Test Tab May\n  cost: \"{0}\"\n  type: Sorcery\n  spell:\n"
    "    effect: [{may: [{gain_life: 1}], prompt: \"gain\\t1\\x01life\"}]\n";

static int readable(const char *s) {
  for (; *s; s++)
    if ((unsigned char)*s < 0x20 || *s == 0x7f) return 0;
  return 1;
}

TEST(decide_card_text_in_a_decision_is_shown_readable) {
  if (u_begin(t_, w, tab_cards)) return;
  u_card(t_, w, w->alice, MTG_Z_HAND, "Test Tab Modes");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Test Tab May");
  if (u_start(t_, w)) return;
  if (u_pick(t_, w, "cast \"Test Tab Modes\"") < 0) return;
  const mtg_decision *d = mtg_game_decision(w->game);
  CHECK(d && d->kind == MTG_D_MODE && d->n_options == 2);
  CHECK(readable(d->prompt));
  CHECK(strstr(d->options[0].label, "gain 1 life") && readable(d->options[0].label));
  CHECK(strstr(d->options[1].label, "lose 1 life") && readable(d->options[1].label));
  char why[256];
  CHECK_INT(mtg_decision_check(w->game, why, sizeof why), 0);
  int zero[1] = {0};
  CHECK(answer(w, 1, zero) >= 0);
  u_pass(t_, w, 2);
  CHECK_INT(u_life(w->game, w->alice), 21);
  if (u_pick(t_, w, "cast \"Test Tab May\"") < 0) return;
  u_pass(t_, w, 2);
  d = mtg_game_decision(w->game);
  CHECK(d && d->kind == MTG_D_MAY);
  CHECK_STR(d->prompt, "gain 1 life");
  CHECK_INT(mtg_decision_check(w->game, why, sizeof why), 0);
}

static const char splice_cards[] =
    "- name: Test Arcane Gift\n  cost: \"{G}\"\n  type: Instant — Arcane\n  text: You gain 1 life.\n"
    "  spell:\n    effect: [{gain_life: 1}]\n"
    "- name: Test Spliced Gift\n  cost: \"{G}\"\n  type: Instant — Arcane\n  text: You gain 2 life. Splice onto Arcane {G}\n"
    "  splice: {onto: Arcane, cost: \"{G}\"}\n  spell:\n    effect: [{gain_life: 2}]\n";

/* 702.47a: the splice question names the spell the cards would be spliced onto */
TEST(decide_splice_prompt_names_the_spell) {
  if (u_begin(t_, w, splice_cards)) return;
  for (int i = 0; i < 2; i++) u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Forest");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Test Arcane Gift");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Test Spliced Gift");
  if (u_start(t_, w)) return;
  CHECK(u_pick(t_, w, "cast \"Test Arcane Gift\"") >= 0);
  PROMPT_HAS(MTG_D_CHOOSE, "reveal cards to splice onto \"Test Arcane Gift\"#");
  PROMPT_HAS(MTG_D_CHOOSE, " (in the order their effects happen)");
  CHECK(u_pick(t_, w, "\"Test Spliced Gift\"") >= 0);
  u_pass(t_, w, 4);
  CHECK_INT(u_life(w->game, w->alice), 23);
}

/* 702.33b-c: the kicker and multikicker questions name the cost asked for */
TEST(decide_kicker_prompts_name_the_cost) {
  if (u_begin(t_, w, NULL)) return;
  for (int i = 0; i < 5; i++) u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, i < 3 ? "Island" : "Forest");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Enclave Elite");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Kavu Titan");
  if (u_start(t_, w)) return;
  if (u_pick(t_, w, "cast \"Enclave Elite\"") < 0) return;
  PROMPT_HAS(MTG_D_NUMBER, "pay multikicker {1}{U} how many times for \"Enclave Elite\"");
  u_end(w);
  if (u_begin(t_, w, NULL)) return;
  for (int i = 0; i < 5; i++) u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Forest");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Kavu Titan");
  if (u_start(t_, w)) return;
  if (u_pick(t_, w, "cast \"Kavu Titan\"") < 0) return;
  PROMPT_HAS(MTG_D_MAY, "pay kicker {2}{G} for \"Kavu Titan\"");
}

/* 502.3: "you may choose not to untap" is asked about the permanent by name,
 * one question per permanent, in the active player's untap step */
TEST(decide_may_not_untap_prompt_names_the_permanent) {
  if (u_begin(t_, w, NULL)) return;
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Island");
  int singer = u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Seasinger");
  CHECK_INT(mtg_setup_tapped(w->setup, singer, 1), MTG_OK);
  CHECK_INT(mtg_setup_start(w->setup, w->alice, 3, MTG_S_UNTAP), MTG_OK);
  if (u_start(t_, w)) return;
  PROMPT_HAS(MTG_D_MAY, "untap \"Seasinger\"");
  CHECK_INT(mtg_game_decision(w->game)->player, w->alice);
}

const unit_test decide_tests[] = {
    {"decide_may_not_untap_prompt_names_the_permanent", decide_may_not_untap_prompt_names_the_permanent},
    {"decide_kicker_prompts_name_the_cost", decide_kicker_prompts_name_the_cost},
    {"decide_card_text_in_a_decision_is_shown_readable", decide_card_text_in_a_decision_is_shown_readable},
    {"decide_splice_prompt_names_the_spell", decide_splice_prompt_names_the_spell},
    {"decide_a_cost_choice_says_how_many", decide_a_cost_choice_says_how_many},
    {"decide_a_pick_takes_exactly_its_count_of_existing_options", decide_a_pick_takes_exactly_its_count_of_existing_options},
    {"decide_a_multiple_pick_between_its_bounds", decide_a_multiple_pick_between_its_bounds},
    {"decide_no_attackers_is_logged_as_none", decide_no_attackers_is_logged_as_none},
    {"decide_a_number_within_its_range", decide_a_number_within_its_range},
    {"decide_an_order_is_a_permutation_of_all_options", decide_an_order_is_a_permutation_of_all_options},
    {"decide_scry_orders_the_bottom_cards_as_the_bottom", decide_scry_orders_the_bottom_cards_as_the_bottom},
    {"decide_a_damage_division_totals_the_damage", decide_a_damage_division_totals_the_damage},
    {"decide_prompts_say_what_is_asked", decide_prompts_say_what_is_asked},
    {"decide_a_blockers_damage_division_names_the_blocker", decide_a_blockers_damage_division_names_the_blocker},
    {"decide_and_or_search_asks_about_your_library", decide_and_or_search_asks_about_your_library},
    {"decide_may_prompt_names_a_source_that_is_gone", decide_may_prompt_names_a_source_that_is_gone},
    {"decide_as_enters_player_prompts_say_which_players", decide_as_enters_player_prompts_say_which_players},
    {"decide_alternative_cost_prompt_names_the_cost", decide_alternative_cost_prompt_names_the_cost},
    {"decide_buyback_prompt_names_the_cost", decide_buyback_prompt_names_the_cost},
    {"decide_casting_during_a_resolution_names_the_cost", decide_casting_during_a_resolution_names_the_cost},
    {"decide_mode_and_target_prompts_name_the_spell", decide_mode_and_target_prompts_name_the_spell},
    {"decide_cleanup_discard_says_how_many", decide_cleanup_discard_says_how_many},
    {NULL, NULL},
};
