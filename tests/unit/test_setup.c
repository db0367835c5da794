/* test_setup.c - unit tests of the setup: each setter's accepted range (the
 * first value out of range refused, the last one in accepted), the canonical
 * text form written record by record as the replay format defines it, read
 * back to the same text and to the same game, and every malformed record
 * refused at its line. */
#include <stdlib.h>
#include <string.h>

#include "unit.h"

/* ---- setters: the edges of what each accepts ---- */

TEST(setup_setters_accept_their_range_and_refuse_past_it) {
  if (u_begin(t_, w, NULL)) return;
  mtg_setup *s = w->setup;
  int bears = u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Grizzly Bears"); /* entry 0 */
  int bolt = u_card(t_, w, w->bob, MTG_Z_HAND, "Lightning Bolt");          /* entry 1 */
  CHECK_INT(bears, 0);
  CHECK_INT(bolt, 1);
  /* entries: 0 and the last exist; -1 and the count don't */
  int (*const flag[])(mtg_setup *, int, int) = {mtg_setup_tapped, mtg_setup_sick, mtg_setup_face_down};
  for (int k = 0; k < 3; k++) {
    CHECK_INT(flag[k](s, 0, 1), MTG_OK);
    CHECK_INT(flag[k](s, 1, 0), MTG_OK);
    CHECK_INT(flag[k](s, 2, 1), MTG_EARG);
    CHECK_INT(flag[k](s, -1, 1), MTG_EARG);
  }
  /* a work budget: 0 (none) or more lines */
  CHECK_INT(mtg_setup_work_budget(s, 0), MTG_OK);
  CHECK_INT(mtg_setup_work_budget(s, 1), MTG_OK);
  CHECK_INT(mtg_setup_work_budget(s, -1), MTG_EARG);
  CHECK_INT(mtg_setup_damage(s, 0, 0), MTG_OK);
  CHECK_INT(mtg_setup_damage(s, 0, -1), MTG_EARG);
  CHECK_INT(mtg_setup_damage(s, 2, 1), MTG_EARG);
  CHECK(strstr(mtg_setup_error(s), "no entry 2 (the setup has 2 cards)") != NULL);
  /* players: 0 and the last exist; the count doesn't */
  CHECK_INT(mtg_setup_controller(s, 0, 0), MTG_OK);
  CHECK_INT(mtg_setup_controller(s, 0, 1), MTG_OK);
  CHECK_INT(mtg_setup_controller(s, 0, 2), MTG_EARG);
  CHECK_INT(mtg_setup_controller(s, 0, -1), MTG_EARG);
  CHECK_INT(mtg_setup_controller(s, 2, 0), MTG_EARG);
  CHECK_INT(mtg_setup_attach_player(s, 1, 0), MTG_OK);
  CHECK_INT(mtg_setup_attach_player(s, 1, 2), MTG_EARG);
  CHECK_INT(mtg_setup_attach_player(s, 1, -1), MTG_EARG);
  CHECK_INT(mtg_setup_attach_player(s, 2, 0), MTG_EARG);
  CHECK_INT(mtg_setup_lands_played(s, 0, 0), MTG_OK);
  CHECK_INT(mtg_setup_lands_played(s, 1, 1), MTG_OK);
  CHECK_INT(mtg_setup_lands_played(s, 1, -1), MTG_EARG);
  CHECK_INT(mtg_setup_lands_played(s, 2, 1), MTG_EARG);
  CHECK_INT(mtg_setup_lands_played(s, -1, 1), MTG_EARG);
  /* floating mana: one symbol per mana, of a color or colorless (106.4) */
  CHECK_INT(mtg_setup_mana(s, 0, "{R}{R}{G}"), MTG_OK);
  CHECK_INT(mtg_setup_mana(s, 1, "{C}"), MTG_OK);
  CHECK_INT(mtg_setup_mana(s, 1, ""), MTG_OK);
  CHECK_INT(mtg_setup_mana(s, 0, "{2}"), MTG_EARG);
  CHECK(strstr(mtg_setup_error(s), "{W}, {U}, {B}, {R}, {G} or {C}") != NULL);
  CHECK_INT(mtg_setup_mana(s, 0, "{G/W}"), MTG_EARG);
  CHECK_INT(mtg_setup_mana(s, 0, "{X}"), MTG_EARG);
  CHECK_INT(mtg_setup_mana(s, 0, "R"), MTG_EARG);
  CHECK_INT(mtg_setup_mana(s, 2, "{R}"), MTG_EARG);
  CHECK_INT(mtg_setup_mana(s, 0, NULL), MTG_EARG);
  {
    /* "" empties bob's pool ({C} before); refused calls left alice's as set */
    char text[4096];
    CHECK(mtg_setup_write(s, text, sizeof text) < (int)sizeof text);
    CHECK(strstr(text, "mana alice {R}{R}{G}\n") != NULL);
    CHECK(strstr(text, "mana bob") == NULL);
  }
  {
    /* the first kind of mana alone, and the last alone, are written too */
    char text[4096];
    CHECK_INT(mtg_setup_mana(s, 0, "{W}"), MTG_OK);
    CHECK_INT(mtg_setup_mana(s, 1, "{C}"), MTG_OK);
    CHECK(mtg_setup_write(s, text, sizeof text) < (int)sizeof text);
    CHECK(strstr(text, "mana alice {W}\n") != NULL);
    CHECK(strstr(text, "mana bob {C}\n") != NULL);
    CHECK_INT(mtg_setup_mana(s, 0, "{R}{R}{G}"), MTG_OK);
    CHECK_INT(mtg_setup_mana(s, 1, ""), MTG_OK);
  }
  CHECK_INT(mtg_setup_team(s, 0, 0), MTG_OK);
  CHECK_INT(mtg_setup_team(s, 1, 4), MTG_OK);
  CHECK_INT(mtg_setup_team(s, 1, 5), MTG_EARG);
  CHECK_INT(mtg_setup_team(s, 1, -1), MTG_EARG);
  CHECK_INT(mtg_setup_team(s, 2, 1), MTG_EARG);
  CHECK_INT(mtg_setup_team(s, -1, 1), MTG_EARG);
  /* an attachment or exiling card is another existing entry */
  CHECK_INT(mtg_setup_attach(s, 1, 0), MTG_OK);
  CHECK_INT(mtg_setup_attach(s, 0, 1), MTG_OK);
  CHECK_INT(mtg_setup_attach(s, 0, 0), MTG_EARG);
  CHECK_INT(mtg_setup_attach(s, 0, 2), MTG_EARG);
  CHECK_INT(mtg_setup_attach(s, 0, -1), MTG_EARG);
  CHECK_INT(mtg_setup_attach(s, 2, 0), MTG_EARG);
  CHECK_INT(mtg_setup_exiled_with(s, 1, 0, "exiled"), MTG_OK);
  CHECK_INT(mtg_setup_exiled_with(s, 0, 1, "exiled"), MTG_OK);
  CHECK_INT(mtg_setup_exiled_with(s, 0, 0, "exiled"), MTG_EARG);
  CHECK_INT(mtg_setup_exiled_with(s, 0, 2, "exiled"), MTG_EARG);
  CHECK_INT(mtg_setup_exiled_with(s, 0, -1, "exiled"), MTG_EARG);
  CHECK_INT(mtg_setup_exiled_with(s, 2, 0, "exiled"), MTG_EARG);
  CHECK_INT(mtg_setup_exiled_with(s, 1, 0, "a label of 23 letters.."), MTG_OK);
  CHECK_INT(mtg_setup_exiled_with(s, 1, 0, "a label of 24 letters..."), MTG_EARG);
  /* counter kinds: names up to 23 characters, at most six kinds, any count from 0 */
  CHECK_INT(mtg_setup_counters(s, 0, "a kind of 23 letters...", 0), MTG_OK);
  CHECK_INT(mtg_setup_counters(s, 0, "a kind of 24 letters....", 1), MTG_EARG);
  CHECK_INT(mtg_setup_counters(s, 0, "+1/+1", -1), MTG_EARG);
  CHECK_INT(mtg_setup_counters(s, 2, "+1/+1", 1), MTG_EARG);
  for (int k = 1; k < 6; k++) CHECK_INT(mtg_setup_counters(s, 0, "+1/+1", k), MTG_OK);
  CHECK_INT(mtg_setup_counters(s, 0, "+1/+1", 1), MTG_EARG);
  CHECK_INT(mtg_setup_player_counters(s, 1, "a kind of 23 letters...", 0), MTG_OK);
  CHECK_INT(mtg_setup_player_counters(s, 1, "a kind of 24 letters....", 0), MTG_EARG);
  CHECK_INT(mtg_setup_player_counters(s, 1, "energy", -1), MTG_EARG);
  CHECK_INT(mtg_setup_player_counters(s, 2, "energy", 1), MTG_EARG);
  CHECK_INT(mtg_setup_player_counters(s, -1, "energy", 1), MTG_EARG);
  for (int k = 1; k < 6; k++) CHECK_INT(mtg_setup_player_counters(s, 1, "energy", k), MTG_OK);
  CHECK_INT(mtg_setup_player_counters(s, 1, "energy", 1), MTG_EARG);
  /* choices: keys up to 23 characters, values up to 63, at most four */
  CHECK_INT(mtg_setup_choice(s, 0, "a_key_of_23_letters____", "v"), MTG_OK);
  CHECK_INT(mtg_setup_choice(s, 0, "a_key_of_24_letters_____", "v"), MTG_EARG);
  /* a key is a word: the text form couldn't read it back otherwise */
  CHECK_INT(mtg_setup_choice(s, 0, "pml\" choice=pmar", "v"), MTG_EARG);
  CHECK(strstr(mtg_setup_error(s), "letters, digits, '_' and '-' only") != NULL);
  char v63[64], v64[65];
  memset(v63, 'v', 63);
  v63[63] = 0;
  memset(v64, 'v', 64);
  v64[64] = 0;
  CHECK_INT(mtg_setup_choice(s, 0, "k", v63), MTG_OK);
  CHECK_INT(mtg_setup_choice(s, 0, "k", v64), MTG_EARG);
  CHECK_INT(mtg_setup_choice(s, 2, "k", "v"), MTG_EARG);
  CHECK_INT(mtg_setup_choice(s, 0, "k", "v"), MTG_OK);
  CHECK_INT(mtg_setup_choice(s, 0, "k", "v"), MTG_OK);
  CHECK_INT(mtg_setup_choice(s, 0, "k", "v"), MTG_EARG);
  /* a number is kept within the engine's range, |n| <= MTG_NUM_MAX (mtg.h) */
  CHECK_INT(mtg_setup_choice(s, 1, "n", "2147483647"), MTG_OK);
  CHECK_INT(mtg_setup_choice(s, 1, "n", "-2147483647"), MTG_OK);
  CHECK_INT(mtg_setup_choice(s, 1, "n", "2147483648"), MTG_EARG);
  CHECK_STR(mtg_setup_error(s), "a choice's number 2147483648 is out of range");
  CHECK_INT(mtg_setup_choice(s, 1, "n", "-2147483648"), MTG_EARG);
  CHECK_STR(mtg_setup_error(s), "a choice's number -2147483648 is out of range");
  /* a value that is not a number (digits then a letter) is a name: no range applies */
  CHECK_INT(mtg_setup_choice(s, 1, "n", "2147483648x"), MTG_OK);
  /* variants by name only */
  CHECK_INT(mtg_setup_variant(s, "two_headed_giant"), MTG_OK);
  CHECK_INT(mtg_setup_variant(s, "planechase"), MTG_OK);
  CHECK_INT(mtg_setup_variant(s, "planechas"), MTG_EARG);
  CHECK_INT(mtg_setup_variant(s, NULL), MTG_EARG);
}

TEST(setup_card_and_player_errors_say_what_is_wrong) {
  if (u_begin(t_, w, NULL)) return;
  mtg_setup *s = w->setup;
  mtg_error e;
  CHECK_INT(mtg_setup_card(s, 2, MTG_Z_HAND, "Forest", &e), MTG_EARG);
  CHECK(strstr(e.msg, "no player 2") != NULL);
  CHECK_INT(mtg_setup_card(s, -1, MTG_Z_HAND, "Forest", &e), MTG_EARG);
  CHECK_INT(mtg_setup_card(s, 1, MTG_Z_STACK, "Forest", &e), MTG_EARG);
  CHECK(strstr(e.msg, "can't start in zone") != NULL);
  CHECK_INT(mtg_setup_card(s, 1, MTG_Z_COUNT, "Forest", &e), MTG_EARG);
  CHECK_INT(mtg_setup_card(s, 1, -1, "Forest", &e), MTG_EARG);
  CHECK_INT(mtg_setup_card(s, 0, MTG_Z_ANTE, "Forest", &e), 0);
  CHECK_INT(mtg_setup_card(s, 1, MTG_Z_LIBRARY, "Forest", &e), 1);
  CHECK_INT(mtg_setup_card(s, 1, MTG_Z_HAND, "Grizly Bears", &e), MTG_EDATA);
  CHECK(strstr(e.msg, "unknown card 'Grizly Bears'; did you mean Grizzly Bears") != NULL);
  CHECK_INT(mtg_setup_card(s, 1, MTG_Z_HAND, "Qqqqqqqqqqqqqqqqqqqqq", &e), MTG_EDATA);
  CHECK(strstr(e.msg, "unknown card 'Qqqqqqqqqqqqqqqqqqqqq' (not in the card pool)") != NULL);
  /* 309.2c, 309.3: a dungeon card only in the command zone, one per owner */
  CHECK_INT(mtg_setup_card(s, 0, MTG_Z_HAND, "Tomb of Annihilation", &e), MTG_EDATA);
  CHECK(strstr(e.msg, "309.2c") != NULL);
  CHECK_INT(mtg_setup_card(s, 0, MTG_Z_COMMAND, "Tomb of Annihilation", &e), 2);
  CHECK_INT(mtg_setup_card(s, 1, MTG_Z_COMMAND, "Lost Mine of Phandelver", &e), 3);
  CHECK_INT(mtg_setup_card(s, 0, MTG_Z_COMMAND, "Lost Mine of Phandelver", &e), MTG_EDATA);
  CHECK(strstr(e.msg, "309.3") != NULL && strstr(e.msg, "alice") != NULL && strstr(e.msg, "Tomb of Annihilation") != NULL);
  /* rooms: only a dungeon's, by their exact name */
  CHECK_INT(mtg_setup_room(s, 3, "Goblin Lair"), MTG_OK);
  CHECK_INT(mtg_setup_room(s, 3, "Goblin Lai"), MTG_EARG);
  CHECK_INT(mtg_setup_room(s, 3, NULL), MTG_EARG);
  CHECK_INT(mtg_setup_room(s, 1, "Goblin Lair"), MTG_EARG);
  CHECK_INT(mtg_setup_room(s, 4, "Goblin Lair"), MTG_EARG);
  /* outside the game: known cards, at most eight per player */
  CHECK_INT(mtg_setup_outside(s, 2, "Tomb of Annihilation", &e), MTG_EARG);
  CHECK(strstr(e.msg, "no player 2") != NULL);
  CHECK_INT(mtg_setup_outside(s, -1, "Tomb of Annihilation", &e), MTG_EARG);
  CHECK_INT(mtg_setup_outside(s, 1, "Tomb of Anihilation", &e), MTG_EDATA);
  CHECK(strstr(e.msg, "unknown card 'Tomb of Anihilation'; did you mean Tomb of Annihilation?") != NULL);
  CHECK_INT(mtg_setup_outside(s, 1, "Qqqqqqqqqqqqqqqqqqqqq", &e), MTG_EDATA);
  CHECK(strstr(e.msg, "unknown card 'Qqqqqqqqqqqqqqqqqqqqq' (not in the card pool)") != NULL);
  for (int k = 0; k < 8; k++) CHECK_INT(mtg_setup_outside(s, 1, "Tomb of Annihilation", &e), MTG_OK);
  CHECK_INT(mtg_setup_outside(s, 1, "Tomb of Annihilation", &e), MTG_ELIMIT);
  CHECK(strstr(e.msg, "at most 8") != NULL);
  CHECK_INT(mtg_setup_outside(s, 0, "Tomb of Annihilation", &e), MTG_OK);
  /* players: 2 to 4, named with letters, digits, _ and -, each name once */
  CHECK_INT(mtg_setup_player(s, "carol_3-x", 20, 0), 2);
  CHECK_INT(mtg_setup_player(s, "alice", 20, 0), MTG_EARG);
  CHECK_INT(mtg_setup_player(s, "", 20, 0), MTG_EARG);
  CHECK_INT(mtg_setup_player(s, "da ve", 20, 0), MTG_EARG);
  CHECK_INT(mtg_setup_player(s, " dave", 20, 0), MTG_EARG); /* the first character is checked too */
  CHECK_INT(mtg_setup_player(s, "a name of 32 characters.........", 20, 0), MTG_EARG);
  CHECK_INT(mtg_setup_player(s, "a_name_of_31_characters________", 20, 0), 3);
  CHECK_INT(mtg_setup_player(s, "erin", 20, 0), MTG_ELIMIT);
}

/* mtg_setup_start takes any player index the engine has room for, given before
 * or after the players; the game checks that it names one of this setup's. */
TEST(setup_active_player_is_a_player_of_the_game) {
  if (u_begin(t_, w, NULL)) return;
  CHECK_INT(mtg_setup_start(w->setup, 2, 1, MTG_S_MAIN1), MTG_OK);
  CHECK_INT(mtg_game_new(&w->game, w->setup, &w->err), MTG_EDATA);
  CHECK(strstr(w->err.msg, "active player 2 does not exist") != NULL);
  mtg_game_free(w->game);
  w->game = NULL;
  /* the step is one of the MTG_S_COUNT steps, the first and the last included */
  CHECK_INT(mtg_setup_start(w->setup, 1, 1, MTG_S_COUNT), MTG_EARG);
  char want[96];
  snprintf(want, sizeof want, "the step %d is out of range (0 to %d)", MTG_S_COUNT, MTG_S_COUNT - 1);
  CHECK_STR(mtg_setup_error(w->setup), want);
  CHECK_INT(mtg_setup_start(w->setup, 1, 1, MTG_S_COUNT - 1), MTG_OK);
  CHECK_INT(mtg_setup_start(w->setup, 1, 1, 0), MTG_OK);
  CHECK_INT(mtg_setup_start(w->setup, 1, 1, MTG_S_MAIN1), MTG_OK);
  if (u_start(t_, w)) return;
  CHECK_INT(mtg_game_active(w->game), w->bob);
}

/* A game names at most 32 kinds of counters, four of them its own (+1/+1,
 * -1/-1, loyalty, poison): 28 more from the setup fit, a 29th is past the
 * engine's capacity and refused as such. */
TEST(setup_counter_kinds_up_to_the_games_capacity) {
  if (u_begin(t_, w, NULL)) return;
  int entry[5];
  for (int i = 0; i < 5; i++) entry[i] = u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Grizzly Bears");
  char kind[16];
  for (int k = 0; k < 28; k++) {
    snprintf(kind, sizeof kind, "kind%02d", k);
    CHECK_INT(mtg_setup_counters(w->setup, entry[k / 6], kind, 1), MTG_OK);
  }
  if (u_start(t_, w)) return;
  mtg_game_free(w->game);
  w->game = NULL;
  CHECK_INT(mtg_setup_counters(w->setup, entry[4], "kind28", 1), MTG_OK);
  CHECK_INT(mtg_game_new(&w->game, w->setup, &w->err), MTG_ELIMIT);
  CHECK(strstr(w->err.msg, "the setup exceeds an engine capacity: more than 32 kinds of counters in one game") != NULL);
}

/* 103.6a: a game set up from its start (no mtg_setup_start) offers each
 * player, in turn order from the starting player, to begin it with a card
 * that allows it on the battlefield */
TEST(setup_a_game_from_its_start_offers_leylines_in_turn_order) {
  static const char cards[] =
      "- name: Test Leyline of Hush\n  cost: \"{2}{W}{W}\"\n  type: Enchantment\n  leyline: true\n"
      "  text: If this card is in your opening hand, you may begin the game with it on the battlefield.\n";
  if (u_begin(t_, w, cards)) return;
  mtg_setup_free(w->setup);
  CHECK((w->setup = mtg_setup_new(w->pool)) != NULL);
  CHECK_INT(mtg_setup_player(w->setup, "alice", 20, 0), 0);
  CHECK_INT(mtg_setup_player(w->setup, "bob", 20, 0), 1);
  mtg_setup_opening_hand(w->setup, 0);
  mtg_setup_shuffle(w->setup, 0);
  u_card(t_, w, 0, MTG_Z_HAND, "Leyline of the Void");
  u_card(t_, w, 1, MTG_Z_HAND, "Test Leyline of Hush");
  for (int i = 0; i < 3; i++) {
    u_card(t_, w, 0, MTG_Z_LIBRARY, "Swamp");
    u_card(t_, w, 1, MTG_Z_LIBRARY, "Plains");
  }
  if (u_start(t_, w)) return;
  const mtg_decision *d = mtg_game_decision(w->game);
  CHECK(d && d->kind == MTG_D_MAY && d->player == 0 && strstr(d->prompt, "Leyline of the Void"));
  if (u_pick(t_, w, "yes") < 0) return;
  d = mtg_game_decision(w->game);
  CHECK(d && d->kind == MTG_D_MAY && d->player == 1 && strstr(d->prompt, "Test Leyline of Hush"));
  if (u_pick(t_, w, "no") < 0) return;
  CHECK_INT(u_zone_of(w->game, "Leyline of the Void"), MTG_Z_BATTLEFIELD);
  CHECK_INT(u_zone_of(w->game, "Test Leyline of Hush"), MTG_Z_HAND);
  CHECK_INT(mtg_game_turn(w->game), 1);
  /* 103.6: the offer is made once, before the first turn; a card still in
   * hand when a later turn begins is not in an opening hand any more, so
   * turns 2 and 3 ask nothing but priority */
  for (int k = 0; k < 200 && mtg_game_turn(w->game) < 3; k++) {
    d = mtg_game_decision(w->game);
    if (!d || d->kind != MTG_D_PRIORITY) break;
    if (u_pick(t_, w, "pass") < 0) return;
  }
  CHECK_INT(mtg_game_turn(w->game), 3);
  d = mtg_game_decision(w->game);
  CHECK(d && d->kind == MTG_D_PRIORITY);
  CHECK_INT(u_zone_of(w->game, "Test Leyline of Hush"), MTG_Z_HAND);
  CHECK_INT(u_count_logged(w->game, "decide kind=may"), 2);
}

TEST(setup_commanders_and_battle_designations) {
  if (u_begin(t_, w, NULL)) return;
  mtg_setup *s = w->setup;
  int isamaru = u_card(t_, w, w->alice, MTG_Z_COMMAND, "Isamaru, Hound of Konda");
  int bears = u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Grizzly Bears");
  int invasion = u_card(t_, w, w->bob, MTG_Z_BATTLEFIELD, "Invasion of Dominaria");
  int hand_invasion = u_card(t_, w, w->bob, MTG_Z_HAND, "Invasion of Dominaria");
  /* 903.3: a commander is a legendary creature card */
  CHECK_INT(mtg_setup_commander(s, bears), MTG_EDATA);
  CHECK(strstr(mtg_setup_error(s), "'Grizzly Bears' can't be a commander: a commander is a legendary creature or Vehicle card (903.3)") != NULL);
  int saga = u_card(t_, w, w->alice, MTG_Z_COMMAND, "History of Benalia"); /* legendary, neither a creature nor a Vehicle */
  CHECK_INT(mtg_setup_commander(s, saga), MTG_EDATA);
  CHECK(strstr(mtg_setup_error(s), "'History of Benalia' can't be a commander") != NULL);
  CHECK_INT(mtg_setup_commander(s, isamaru), MTG_OK);
  CHECK_INT(mtg_setup_commander(s, isamaru), MTG_OK); /* again: still one */
  CHECK_INT(mtg_setup_commander(s, 9), MTG_EARG);
  CHECK_INT(mtg_setup_commander_damage(s, w->bob, isamaru, 0), MTG_OK);
  CHECK_INT(mtg_setup_commander_damage(s, w->bob, isamaru, 20), MTG_OK);
  CHECK_INT(mtg_setup_commander_damage(s, w->bob, isamaru, -1), MTG_EARG);
  CHECK_INT(mtg_setup_commander_damage(s, w->bob, bears, 1), MTG_EARG);
  CHECK_INT(mtg_setup_commander_damage(s, 2, isamaru, 1), MTG_EARG);
  CHECK_INT(mtg_setup_commander_damage(s, -1, isamaru, 1), MTG_EARG);
  CHECK_INT(mtg_setup_commander_damage(s, w->alice, isamaru, 3), MTG_OK);
  /* a battle's protector: a battle on the battlefield, a player */
  CHECK_INT(mtg_setup_protector(s, invasion, w->alice), MTG_OK);
  CHECK_INT(mtg_setup_protector(s, invasion, 2), MTG_EARG);
  CHECK_INT(mtg_setup_protector(s, invasion, -1), MTG_EARG);
  CHECK_INT(mtg_setup_protector(s, hand_invasion, w->alice), MTG_EARG);
  CHECK_INT(mtg_setup_protector(s, bears, w->alice), MTG_EARG);
  /* a sector: a permanent, a known designation */
  CHECK_INT(mtg_setup_sector(s, bears, "alpha"), MTG_OK);
  CHECK_INT(mtg_setup_sector(s, bears, "gamma"), MTG_OK);
  CHECK_INT(mtg_setup_sector(s, bears, "delta"), MTG_EARG);
  CHECK_INT(mtg_setup_sector(s, bears, NULL), MTG_EARG);
  CHECK_INT(mtg_setup_sector(s, hand_invasion, "beta"), MTG_EARG);
  /* transformed: only a double-faced card */
  CHECK_INT(mtg_setup_transformed(s, invasion, 1), MTG_OK);
  CHECK_INT(mtg_setup_transformed(s, bears, 1), MTG_EARG);
  CHECK_INT(mtg_setup_transformed(s, bears, 0), MTG_OK);
  /* a token: on the battlefield only (704.5d) */
  CHECK_INT(mtg_setup_token(s, bears, 1), MTG_OK);
  CHECK_INT(mtg_setup_token(s, bears, 0), MTG_OK);
  CHECK_INT(mtg_setup_token(s, hand_invasion, 1), MTG_EARG);
  CHECK(strstr(mtg_setup_error(s), "a token exists only on the battlefield") != NULL);
  CHECK_INT(mtg_setup_token(s, hand_invasion, 0), MTG_OK);
  int need = mtg_setup_write(s, NULL, 0);
  char *text = malloc((size_t)need + 1);
  CHECK(text != NULL);
  mtg_setup_write(s, text, (size_t)need + 1);
  /* commander damage set twice for one player and commander is one record, the last value */
  int bob_dmg = strstr(text, "commander_damage bob 0 20\n") != NULL, alice_dmg = strstr(text, "commander_damage alice 0 3\n") != NULL;
  int once = strstr(text, "commander_damage bob 0 0") == NULL;
  int transformed = strstr(text, "card bob battlefield \"Invasion of Dominaria\" transformed protector=alice\n") != NULL;
  int sector = strstr(text, "card alice battlefield \"Grizzly Bears\" sector=gamma\n") != NULL;
  free(text);
  CHECK(bob_dmg);
  CHECK(alice_dmg);
  CHECK(once);
  CHECK(transformed);
  CHECK(sector);
}

/* 702.124a: partner lets a player have two commanders rather than one, both
 * with partner, never three; another player's commanders don't count. The
 * first entries of the setup are the commanders, so the first counts too. */
TEST(setup_two_commanders_with_partner_never_a_third) {
  if (u_begin(t_, w, NULL)) return;
  mtg_setup *s = w->setup;
  int d1 = u_card(t_, w, w->alice, MTG_Z_COMMAND, "Dargo, the Shipwrecker");
  int d2 = u_card(t_, w, w->alice, MTG_Z_COMMAND, "Dargo, the Shipwrecker");
  int d3 = u_card(t_, w, w->alice, MTG_Z_COMMAND, "Dargo, the Shipwrecker");
  int isamaru = u_card(t_, w, w->alice, MTG_Z_COMMAND, "Isamaru, Hound of Konda");
  int bob_dargo = u_card(t_, w, w->bob, MTG_Z_COMMAND, "Dargo, the Shipwrecker");
  int bob_isamaru = u_card(t_, w, w->bob, MTG_Z_COMMAND, "Isamaru, Hound of Konda");
  CHECK_INT(d1, 0);
  CHECK_INT(mtg_setup_commander(s, d1), MTG_OK);
  CHECK_INT(mtg_setup_commander(s, d2), MTG_OK);
  CHECK_INT(mtg_setup_commander(s, d1), MTG_OK); /* again: still two */
  CHECK_INT(mtg_setup_commander(s, d3), MTG_EDATA);
  CHECK(strstr(mtg_setup_error(s), "'Dargo, the Shipwrecker' can't be a third commander of its owner: a player has at most two (702.124a)") != NULL);
  CHECK_INT(mtg_setup_commander(s, isamaru), MTG_EDATA);
  CHECK(strstr(mtg_setup_error(s), "'Isamaru, Hound of Konda' can't be a third commander of its owner") != NULL);
  /* bob's first commander is his first, whatever alice has */
  CHECK_INT(mtg_setup_commander(s, bob_dargo), MTG_OK);
  CHECK_INT(mtg_setup_commander(s, bob_isamaru), MTG_EDATA);
  CHECK(strstr(mtg_setup_error(s), "'Isamaru, Hound of Konda' can't be a second commander of its owner: two commanders need partner, both (702.124a)") != NULL);
  int need = mtg_setup_write(s, NULL, 0);
  char *text = malloc((size_t)need + 1);
  CHECK(text != NULL);
  mtg_setup_write(s, text, (size_t)need + 1);
  int n = 0;
  for (const char *p = text; (p = strstr(p, " commander")) != NULL; p++) n++;
  free(text);
  CHECK_INT(n, 3);
}

/* ---- the text form ---- */

/* The setup of the round-trip test: every record and every card option. */
static void full_setup(unit_ctx *t_, u_world *w, int *carol) {
  mtg_setup *s = w->setup;
  *carol = mtg_setup_player(s, "carol", 17, 2);
  CHECK_INT(*carol, 2);
  mtg_error e;
  CHECK_INT(mtg_setup_player_counters(s, w->alice, "energy", 3), MTG_OK);
  CHECK_INT(mtg_setup_lands_played(s, w->bob, 1), MTG_OK);
  CHECK_INT(mtg_setup_mana(s, w->bob, "{G}{R}{R}{C}"), MTG_OK);
  CHECK_INT(mtg_setup_outside(s, *carol, "Tomb of Annihilation", &e), MTG_OK);
  CHECK_INT(mtg_setup_variant(s, "planechase"), MTG_OK);
  CHECK_INT(mtg_setup_variant(s, "commander"), MTG_OK);
  CHECK_INT(mtg_setup_team(s, w->bob, 2), MTG_OK);
  CHECK_INT(mtg_setup_team(s, *carol, 2), MTG_OK);
  mtg_setup_seed(s, 4242);
  mtg_setup_start(s, w->bob, 5, MTG_S_DECLARE_ATTACKERS);
  mtg_setup_max_turns(s, 9);
  mtg_setup_opening_hand(s, 7); /* after mtg_setup_start, which sets none */
  mtg_setup_shuffle(s, 1);
  int bears = u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Grizzly Bears");       /* 0 */
  int pacifism = u_card(t_, w, w->bob, MTG_Z_BATTLEFIELD, "Pacifism");           /* 1 */
  int isamaru = u_card(t_, w, *carol, MTG_Z_COMMAND, "Isamaru, Hound of Konda"); /* 2 */
  int bolt = u_card(t_, w, w->alice, MTG_Z_EXILE, "Lightning Bolt");             /* 3 */
  int krosa = u_card(t_, w, w->bob, MTG_Z_COMMAND, "Krosa");                     /* 4 */
  int mine = u_card(t_, w, w->alice, MTG_Z_COMMAND, "Lost Mine of Phandelver");  /* 5 */
  int invasion = u_card(t_, w, w->bob, MTG_Z_BATTLEFIELD, "Invasion of Dominaria"); /* 6 */
  int voice = u_card(t_, w, *carol, MTG_Z_BATTLEFIELD, "Voice of All");           /* 7 */
  int forest = u_card(t_, w, w->alice, MTG_Z_LIBRARY, "Forest");                  /* 8 */
  CHECK_INT(forest, 8);
  int token = u_card(t_, w, w->bob, MTG_Z_BATTLEFIELD, "Grizzly Bears");          /* 9 */
  CHECK_INT(mtg_setup_token(s, token, 1), 0);
  CHECK_INT(mtg_setup_tapped(s, bears, 1), 0);
  CHECK_INT(mtg_setup_face_down(s, bears, 1), 0);
  CHECK_INT(mtg_setup_sick(s, bears, 1), 0);
  CHECK_INT(mtg_setup_damage(s, bears, 1), 0);
  CHECK_INT(mtg_setup_controller(s, bears, w->bob), 0);
  CHECK_INT(mtg_setup_sector(s, bears, "beta"), 0);
  CHECK_INT(mtg_setup_counters(s, bears, "+1/+1", 2), 0);
  CHECK_INT(mtg_setup_counters(s, bears, "stun", 1), 0);
  CHECK_INT(mtg_setup_attach(s, pacifism, bears), 0);
  CHECK_INT(mtg_setup_commander(s, isamaru), 0);
  CHECK_INT(mtg_setup_exiled_with(s, bolt, bears, "exiled"), 0);
  CHECK_INT(mtg_setup_controller(s, pacifism, w->alice), 0);
  CHECK_INT(mtg_setup_face_down(s, krosa, 0), 0);
  CHECK_INT(mtg_setup_room(s, mine, "Goblin Lair"), 0);
  CHECK_INT(mtg_setup_transformed(s, invasion, 1), 0);
  CHECK_INT(mtg_setup_protector(s, invasion, w->alice), 0);
  CHECK_INT(mtg_setup_attach_player(s, invasion, w->alice), 0);
  CHECK_INT(mtg_setup_choice(s, voice, "color", "red"), 0);
  CHECK_INT(mtg_setup_choice(s, voice, "note", "a \"quoted\" \\ value"), 0);
  CHECK_INT(mtg_setup_commander_damage(s, w->alice, isamaru, 7), 0);
}

/* The text it must give, record by record, as docs/replay-format.md and
 * mtg.h define the canonical form. */
static const char full_text[] =
    "player alice 20\n"
    "player_counter alice energy 3\n"
    "player bob 20\n"
    "lands_played bob 1\n"
    "mana bob {R}{R}{G}{C}\n"
    "player carol 17\n"
    "player_counter carol poison 2\n"
    "outside carol \"Tomb of Annihilation\"\n"
    "variant commander\n"
    "variant planechase\n"
    "team bob 2\n"
    "team carol 2\n"
    "seed 4242\n"
    "start bob 5 declare_attackers\n"
    "opening 7\n"
    "shuffle 1\n"
    "max_turns 9\n"
    "card alice battlefield \"Grizzly Bears\" tapped face_down sick damage=1 controller=bob sector=beta "
    "counter=+1/+1:2 counter=stun:1\n"
    "card bob battlefield \"Pacifism\" controller=alice attach=0\n"
    "card carol command \"Isamaru, Hound of Konda\" commander\n"
    "card alice exile \"Lightning Bolt\" exiled_with=0:exiled\n"
    "card bob command \"Krosa\" face_up\n"
    "card alice command \"Lost Mine of Phandelver\" room=\"Goblin Lair\"\n"
    "card bob battlefield \"Invasion of Dominaria\" transformed attach_player=alice protector=alice\n"
    "card carol battlefield \"Voice of All\" choice=color:\"red\" choice=note:\"a \\\"quoted\\\" \\\\ value\"\n"
    "card alice library \"Forest\"\n"
    "card bob battlefield \"Grizzly Bears\" token\n"
    "commander_damage alice 2 7\n";

static char *write_setup(const mtg_setup *s) {
  int need = mtg_setup_write(s, NULL, 0);
  char *t = need >= 0 ? malloc((size_t)need + 1) : NULL;
  if (t && mtg_setup_write(s, t, (size_t)need + 1) != need) {
    free(t);
    t = NULL;
  }
  return t;
}

TEST(setup_text_writes_every_record_and_option) {
  if (u_begin(t_, w, NULL)) return;
  int carol;
  full_setup(t_, w, &carol);
  if (t_->failed) return;
  char *t = write_setup(w->setup);
  CHECK(t != NULL);
  int same = !strcmp(t, full_text);
  if (!same) unit_fail(t_, __FILE__, __LINE__, "mtg_setup_write gave:\n%s\nexpected:\n%s", t, full_text);
  /* a short buffer: truncated and terminated, the length needed still returned */
  char small[40];
  int need = mtg_setup_write(w->setup, small, sizeof small);
  free(t);
  if (!same) return;
  CHECK_INT(need, (int)strlen(full_text));
  CHECK_INT((int)strlen(small), (int)sizeof small - 1);
  CHECK(!strncmp(small, full_text, sizeof small - 1));
}

/* Like snprintf, at every buffer size: the text's first size-1 characters,
 * terminated, nothing written past size, the length needed returned; the
 * cut falls inside a record, a number and a quoted name or value alike. */
TEST(setup_text_cut_at_every_size_is_a_terminated_prefix) {
  if (u_begin(t_, w, NULL)) return;
  int carol;
  full_setup(t_, w, &carol);
  if (t_->failed) return;
  size_t n = strlen(full_text);
  char *b = malloc(n + 2);
  CHECK(b != NULL);
  if (!b) return;
  int bad = 0;
  for (size_t size = 1; size <= n + 1 && !bad; size++) {
    memset(b, '#', n + 2);
    int need = mtg_setup_write(w->setup, b, size);
    if (need != (int)n || b[size - 1] || b[size] != '#' || strncmp(b, full_text, size - 1)) {
      unit_fail(t_, __FILE__, __LINE__, "size %zu: returned %d, wrote \"%.*s\" then byte %d", size, need, (int)(size - 1), b,
                (int)(unsigned char)b[size]);
      bad = 1;
    }
  }
  free(b);
}

TEST(setup_text_reads_back_to_the_same_text) {
  if (u_begin(t_, w, NULL)) return;
  mtg_setup *s = NULL;
  mtg_error e;
  int rc = mtg_setup_read(w->pool, "full.txt", full_text, &s, &e);
  CHECK_OK(rc, &e);
  char *t = write_setup(s);
  mtg_setup_free(s);
  CHECK(t != NULL);
  int same = !strcmp(t, full_text);
  if (!same) unit_fail(t_, __FILE__, __LINE__, "read then written:\n%s\nexpected:\n%s", t, full_text);
  free(t);
}

/* Records left out take their defaults: no opening hand, no shuffle, no turn
 * limit, the game from its first turn's untap step. */
TEST(setup_text_defaults_for_records_left_out) {
  if (u_begin(t_, w, NULL)) return;
  static const char text[] = "player alice 20\nplayer bob 20\nseed 3\ncard alice library \"Forest\"\n"
                             "card alice library \"Island\"\ncard alice library \"Swamp\"\n";
  mtg_setup *s = NULL;
  mtg_error e;
  CHECK_OK(mtg_setup_read(w->pool, "min.txt", text, &s, &e), &e);
  char *t = write_setup(s);
  mtg_setup_free(w->setup);
  w->setup = s;
  CHECK(t != NULL);
  int defaults = strstr(t, "opening 0\nshuffle 0\nmax_turns 0\n") != NULL && !strstr(t, "start ");
  free(t);
  CHECK(defaults);
  if (u_start(t_, w)) return;
  /* no opening hand and no shuffle: turn 1 begins, alice skips her first draw (103.8a) */
  CHECK_INT(mtg_game_turn(w->game), 1);
  mtg_player pa;
  CHECK_INT(mtg_player_info(w->game, w->alice, &pa), 0);
  CHECK_INT(pa.hand, 0);
  CHECK_INT(pa.library, 3);
  uint32_t lib[3];
  CHECK_INT(mtg_zone_objects(w->game, w->alice, MTG_Z_LIBRARY, lib, 3), 3);
  mtg_object o;
  CHECK_INT(mtg_object_info(w->game, lib[0], &o), 0);
  CHECK_STR(o.name, "Forest");
  CHECK_INT(mtg_object_info(w->game, lib[2], &o), 0);
  CHECK_STR(o.name, "Swamp");
}

/* A playable setup through the text form: the game it starts is the one the
 * text describes, object by object. */
TEST(setup_text_read_builds_the_game_it_describes) {
  if (u_begin(t_, w, NULL)) return;
  static const char text[] =
      "player alice 18\n"
      "player_counter alice energy 2\n"
      "player bob 15\n"
      "player_counter bob poison 3\n"
      "lands_played bob 1\n"
      "seed 7\n"
      "start bob 4 main2\n"
      "opening 0\n"
      "shuffle 0\n"
      "max_turns 0\n"
      "card alice library \"Forest\"\n"
      "card alice library \"Island\"\n"
      "card alice battlefield \"Grizzly Bears\" tapped damage=1 counter=+1/+1:2\n"
      "card bob battlefield \"Pacifism\" controller=alice attach=2\n"
      "card bob battlefield \"Runeclaw Bear\" sick\n"
      "card bob battlefield \"Grizzly Bears\" face_down\n"
      "card bob hand \"Lightning Bolt\"\n"
      "card bob graveyard \"Shock\"\n";
  mtg_setup *s = NULL;
  mtg_error e;
  CHECK_OK(mtg_setup_read(w->pool, "game.txt", text, &s, &e), &e);
  mtg_setup_free(w->setup);
  w->setup = s;
  if (u_start(t_, w)) return;
  mtg_game *g = w->game;
  CHECK_INT(mtg_game_turn(g), 4);
  CHECK_INT(mtg_game_step(g), MTG_S_MAIN2);
  CHECK_INT(mtg_game_active(g), w->bob);
  mtg_player pa, pb;
  CHECK_INT(mtg_player_info(g, w->alice, &pa), 0);
  CHECK_INT(mtg_player_info(g, w->bob, &pb), 0);
  CHECK_INT(pa.life, 18);
  CHECK_INT(pb.life, 15);
  CHECK_INT(pb.poison, 3);
  CHECK_INT(mtg_counters(g, 0, w->alice, "energy"), 2);
  CHECK_INT(pb.lands_played, 1);
  CHECK_INT(pa.library, 2);
  CHECK_INT(pb.hand, 1);
  CHECK_INT(pb.graveyard, 1);
  uint32_t lib[2];
  CHECK_INT(mtg_zone_objects(g, w->alice, MTG_Z_LIBRARY, lib, 2), 2);
  mtg_object o;
  CHECK_INT(mtg_object_info(g, lib[0], &o), 0);
  CHECK_STR(o.name, "Forest"); /* libraries are listed top first */
  uint32_t bf[8];
  CHECK_INT(mtg_zone_objects(g, -1, MTG_Z_BATTLEFIELD, bf, 8), 4);
  CHECK_INT(mtg_object_info(g, bf[0], &o), 0);
  CHECK_STR(o.name, "Grizzly Bears");
  CHECK(o.tapped);
  CHECK_INT(o.damage, 1);
  CHECK_INT(mtg_counters(g, bf[0], -1, "+1/+1"), 2);
  CHECK_INT(o.power, 4); /* a 2/2 with two +1/+1 counters */
  uint32_t bears = bf[0];
  CHECK_INT(mtg_object_info(g, bf[1], &o), 0);
  CHECK_STR(o.name, "Pacifism");
  CHECK_INT(o.owner, w->bob);
  CHECK_INT(o.controller, w->alice);
  CHECK(o.attached_to == bears);
  CHECK_INT(mtg_object_info(g, bf[2], &o), 0);
  CHECK_STR(o.name, "Runeclaw Bear");
  CHECK(o.sick);
  CHECK(!o.tapped);
  CHECK_INT(mtg_object_info(g, bf[3], &o), 0);
  CHECK(o.face_down);
  CHECK_INT(o.power, 2);
}

/* Each malformed record is refused with MTG_EDATA (or the card error) at its line. */
TEST(setup_text_refuses_each_malformed_record_at_its_line) {
  if (u_begin(t_, w, NULL)) return;
  static const char head[] = "player alice 20\nplayer bob 20\ncard alice battlefield \"Grizzly Bears\"\n";
  static const struct {
    const char *rec;
    int status;
    const char *msg; /* what the error says */
  } bad[] = {
      {"bogus 1\n", MTG_EDATA, "unknown record 'bogus'"},
      {"player alice 20\n", MTG_EDATA, "already a player named alice"},                      /* a player twice */
      {"player_counter carol energy 1\n", MTG_EDATA, "unknown player 'carol'"},        /* unknown player */
      {"lands_played carol 1\n", MTG_EDATA, "unknown player 'carol'"},
      {"lands_played bob -1\n", MTG_EDATA, "lands played -1 is out of range"},
      {"outside bob \"Tomb of Anihilation\"\n", MTG_EDATA, "did you mean Tomb of Annihilation"},  /* unknown card */
      {"outside bob \"Tomb of Annihilation\n", MTG_EDATA, "quote that is not closed"},   /* unterminated quote */
      {"variant poker\n", MTG_EDATA, "unknown variant 'poker'"},
      {"team carol 1\n", MTG_EDATA, "unknown player 'carol'"},
      {"team bob 5\n", MTG_EDATA, "team 5 is out of range (0 to 4)"},
      {"commander_damage bob 0 1\n", MTG_EDATA, "is not a commander"},             /* entry 0 is no commander */
      {"start carol 1 main1\n", MTG_EDATA, "unknown player 'carol'"},
      {"start bob 1 elevenses\n", MTG_EDATA, "unknown step 'elevenses'"},
      {"card carol hand \"Forest\"\n", MTG_EDATA, "unknown player 'carol'"},
      {"card bob nowhere \"Forest\"\n", MTG_EDATA, "unknown zone 'nowhere'"},
      {"card bob hand \"Forest\n", MTG_EDATA, "quote that is not closed"},
      {"card bob hand \"Forest\" shiny\n", MTG_EDATA, "unknown card option 'shiny'"},
      {"card bob hand \"Forest\" exiled_with=0\n", MTG_EDATA, "expected ENTRY:LABEL"}, /* no label */
      {"card bob hand \"Forest\" exiled_with=0:" "a-label-of-64-characters-is-too-long-for-a-link-label-xxxxxxxxxxx\n", MTG_EDATA,
       "the link label has 1 to 63 characters"},
      {"card bob hand \"Forest\" attach=9\n", MTG_EDATA, "no entry 9 (the setup has 2 cards)"}, /* no such entry */
      {"card bob hand \"Forest\" counter=stun\n", MTG_EDATA, "expected KIND:N"},
      {"card bob hand \"Forest\" counter=a-kind-of-64-characters-is-too-long-for-a-kind-xxxxxxxxxxxxxxxx:1\n",
       MTG_EDATA, "longer than 23 characters"},
      /* numbers out of range are said to be out of range, with the range */
      {"player carol 99999999999\n", MTG_EDATA, "life 99999999999 is out of range (-2147483647 to 2147483647)"},
      {"start bob 2147483648 main1\n", MTG_EDATA, "the turn 2147483648 is out of range (1 to 2147483647)"},
      {"start bob 0 main1\n", MTG_EDATA, "the turn 0 is out of range"},
      {"opening 501\n", MTG_EDATA, "opening 501 is out of range (0 to 500)"},
      {"shuffle 2\n", MTG_EDATA, "shuffle 2 is out of range (0 to 1)"},
      {"commander_damage bob 500 1\n", MTG_EDATA, "the commander's entry 500 is out of range (0 to 499)"},
      {"commander_damage bob 499 1\n", MTG_EDATA, "no entry 499 (the setup has 1 card)"},
      {"commander_damage bob 0 -1\n", MTG_EDATA, "commander damage -1 is out of range (0 to 2147483647)"},
      {"card bob hand \"Forest\" attach=500\n", MTG_EDATA, "attach's entry 500 is out of range (0 to 499)"},
      {"card bob hand \"Forest\" exiled_with=500:x\n", MTG_EDATA, "exiled_with's entry 500 is out of range (0 to 499)"},
      {"card bob hand \"Forest\" counter=+1/+1:-1\n", MTG_EDATA, "a number of counters -1 is out of range"},
      {"player_counter bob energy -1\n", MTG_EDATA, "a number of counters -1 is out of range"},
      {"lands_played bob 32768\n", MTG_EDATA, "lands played 32768 is out of range (0 to 32767)"},
      {"player carol -2147483648\n", MTG_EDATA, "life -2147483648 is out of range (-2147483647 to 2147483647)"},
      {"max_turns -1\n", MTG_EDATA, "max_turns -1 is out of range"},
      {"card bob hand \"Forest\" counter=+1/+1:2147483648\n", MTG_EDATA, "2147483648 is out of range (0 to 2147483647)"},
      {"card bob hand \"Forest\" damage=12x\n", MTG_EDATA, "damage: expected a number, found '12x'"},
      {"card bob hand \"Forest\" choice=x:99999999999\n", MTG_EDATA, "99999999999 is out of range"},
      {"seed 18446744073709551616\n", MTG_EDATA, "seed: expected a number"},
      /* what is left over, misspelt or missing is named */
      {"seed 5 extra\n", MTG_EDATA, "unexpected 'extra' after the seed record"},
      {"card bob hand \"Forest\" tappd\n", MTG_EDATA, "did you mean 'tapped'"},
      {"plyer dave 20\n", MTG_EDATA, "did you mean 'player'"},
      {"player dave\n", MTG_EDATA, "missing the life total"},
      {"card bob hand \"Forest\" damage\n", MTG_EDATA, "the option 'damage' needs a value"},
      {"card bob hand \"Forest\" tapped=1\n", MTG_EDATA, "the option 'tapped' takes no value"},
      {"card bob hand \"Forest\" choice=color\n", MTG_EDATA, "expected KEY:VALUE"},
      {"card bob hand \"Forest\" damage=-1\n", MTG_EDATA, "damage -1 is out of range"},
      {"card bob hand \"Forest\" controller=carol\n", MTG_EDATA, "unknown player 'carol'"},
      {"card bob hand \"Forest\" attach_player=carol\n", MTG_EDATA, "unknown player 'carol'"},
      {"card bob hand \"Forest\" protector=alice\n", MTG_EDATA, "has a protector (310.8)"},
      {"card bob battlefield \"Forest\" sector=delta\n", MTG_EDATA, "unknown sector 'delta'"},
      {"card bob battlefield \"Forest\" room=\"Goblin Lair\"\n", MTG_EDATA, "is not a dungeon"},
      {"card bob battlefield \"Forest\" transformed\n", MTG_EDATA, "no back face"},
      {"card bob battlefield \"Forest\" commander\n", MTG_EDATA, "can't be a commander"},
      {"card bob hand \"Forrest\"\n", MTG_EDATA, "did you mean Forest"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char text[1024];
    snprintf(text, sizeof text, "%s%s", head, bad[i].rec);
    mtg_setup *s = (mtg_setup *)1;
    mtg_error e;
    memset(&e, 0, sizeof e);
    int rc = mtg_setup_read(w->pool, "bad.txt", text, &s, &e);
    /* the message says what is wrong, and the record is shown */
    size_t rl = strcspn(bad[i].rec, "\n");
    int said = strstr(e.msg, bad[i].msg) && strlen(e.source) == rl && !strncmp(e.source, bad[i].rec, rl);
    if (rc != bad[i].status || s != NULL || e.line != 4 || strcmp(e.file, "bad.txt") || e.status != rc || !said) {
      unit_fail(t_, __FILE__, __LINE__, "record %zu '%.*s': status %d line %d file '%s' '%s', expected %d at line 4 saying '%s'", i,
                (int)strcspn(bad[i].rec, "\n"), bad[i].rec, rc, e.line, e.file, e.msg, bad[i].status, bad[i].msg);
      mtg_setup_free(s == (mtg_setup *)1 ? NULL : s);
      return;
    }
  }
  /* a record longer than 1023 characters */
  char *big = malloc(2048);
  CHECK(big != NULL);
  snprintf(big, 2048, "%scard bob hand \"Forest\" choice=k:\"", head);
  size_t n = strlen(big);
  memset(big + n, 'x', 1100);
  strcpy(big + n + 1100, "\"\n");
  mtg_setup *s = NULL;
  mtg_error e;
  int rc = mtg_setup_read(w->pool, "big.txt", big, &s, &e);
  free(big);
  CHECK_INT(rc, MTG_EDATA);
  CHECK_INT(e.line, 4);
  CHECK(strstr(e.msg, "a record longer than 1023 characters") != NULL);
  CHECK_INT(e.col, 0); /* the whole record: no column */
  /* the column is that of the field at fault (1-based) */
  static const struct {
    const char *rec;
    int col;
  } at[] = {
      {"bogus 1\n", 1},
      {"lands_played bob -1\n", 18},
      {"card bob nowhere \"Forest\"\n", 10},
      {"card bob hand \"Forest\" shiny\n", 24},
      {"seed 5 extra\n", 8},
      /* an option's value: its number after the kind, or the whole value */
      {"card bob hand \"Forest\" counter=stun:x\n", 37},
      {"card bob hand \"Forest\" counter=+1/+1:-1\n", 38},
      {"card bob hand \"Forest\" counter=stun\n", 32},
  };
  for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
    char text[1024];
    snprintf(text, sizeof text, "%s%s", head, at[i].rec);
    s = NULL;
    memset(&e, 0, sizeof e);
    CHECK_INT(mtg_setup_read(w->pool, "bad.txt", text, &s, &e), MTG_EDATA);
    if (e.col != at[i].col) {
      unit_fail(t_, __FILE__, __LINE__, "record '%.*s': column %d, expected %d", (int)strcspn(at[i].rec, "\n"), at[i].rec, e.col,
                at[i].col);
      return;
    }
  }
  /* the same records well formed are read, blank lines and a last line without a newline included */
  static const char good[] = "player alice 20\n\nplayer bob 20\ncard alice battlefield \"Grizzly Bears\"\n"
                             "card bob hand \"Forest\" exiled_with=0:exiled attach=0 counter=stun:1 choice=color:\"red\"";
  CHECK_OK(mtg_setup_read(w->pool, "good.txt", good, &s, &e), &e);
  char *t = write_setup(s);
  mtg_setup_free(s);
  CHECK(t != NULL);
  int ok = strstr(t, "card bob hand \"Forest\" exiled_with=0:exiled attach=0 counter=stun:1 choice=color:\"red\"\n") != NULL;
  free(t);
  CHECK(ok);
}

/* ---- capacities: each refused past its edge with the status and message
 * it documents, the setup left usable (the edge itself accepted) ---- */

/* each fills w->setup up to one capacity and returns the status of the
 * first call past it */
static int past_setup_cards(unit_ctx *t_, u_world *w) {
  mtg_error e;
  for (int k = 0; k < MTG_MAX_SETUP_CARDS; k++)
    if (mtg_setup_card(w->setup, w->bob, MTG_Z_LIBRARY, "Forest", &e) != k) {
      unit_fail(t_, __FILE__, __LINE__, "card %d of %d refused: %s", k + 1, MTG_MAX_SETUP_CARDS, e.msg);
      return MTG_OK;
    }
  return mtg_setup_card(w->setup, w->bob, MTG_Z_LIBRARY, "Forest", &e);
}

static int past_commanders(unit_ctx *t_, u_world *w) {
  /* 903.3c: two commanders each with partner; four players hold eight */
  for (int p = 2; p < 4; p++) {
    char name[8];
    snprintf(name, sizeof name, "p%d", p);
    if (mtg_setup_player(w->setup, name, 40, 0) != p) {
      unit_fail(t_, __FILE__, __LINE__, "player %s refused: %s", name, mtg_setup_error(w->setup));
      return MTG_OK;
    }
  }
  for (int k = 0; k < 8; k++) {
    int i = u_card(t_, w, k / 2, MTG_Z_COMMAND, "Dargo, the Shipwrecker");
    if (i < 0 || mtg_setup_commander(w->setup, i) != MTG_OK) {
      unit_fail(t_, __FILE__, __LINE__, "commander %d of 8 refused: %s", k + 1, mtg_setup_error(w->setup));
      return MTG_OK;
    }
  }
  int i = u_card(t_, w, 0, MTG_Z_COMMAND, "Dargo, the Shipwrecker");
  return i < 0 ? MTG_OK : mtg_setup_commander(w->setup, i);
}

static int past_outside(unit_ctx *t_, u_world *w) {
  mtg_error e;
  for (int k = 0; k < 8; k++) /* eight a player (mtg.h) */
    if (mtg_setup_outside(w->setup, w->alice, "Forest", &e) != MTG_OK) {
      unit_fail(t_, __FILE__, __LINE__, "card %d outside refused: %s", k + 1, e.msg);
      return MTG_OK;
    }
  return mtg_setup_outside(w->setup, w->alice, "Forest", &e);
}

static int past_players(unit_ctx *t_, u_world *w) {
  (void)t_;
  int rc = MTG_OK;
  for (int p = 2; p <= 4 && rc >= 0; p++) { /* the fifth is refused */
    char name[8];
    snprintf(name, sizeof name, "p%d", p);
    rc = mtg_setup_player(w->setup, name, 20, 0);
  }
  return rc;
}

/* 103.5: each player draws the opening hand from the top of their library,
 * as many cards as the setup says, fewer only when the library runs out; a
 * hand of one card is dealt like any other */
TEST(setup_opening_hand_deals_each_player_that_many) {
  if (u_begin(t_, w, NULL)) return;
  mtg_setup_opening_hand(w->setup, 1); /* after mtg_setup_start (u_begin), which sets none */
  for (int i = 0; i < 3; i++) u_card(t_, w, w->alice, MTG_Z_LIBRARY, "Swamp");
  u_card(t_, w, w->bob, MTG_Z_LIBRARY, "Plains");
  u_card(t_, w, w->bob, MTG_Z_LIBRARY, "Island");
  if (u_start(t_, w)) return;
  CHECK_INT(u_count_in(w->game, MTG_Z_HAND, "Swamp"), 1);
  CHECK_INT(u_count_in(w->game, MTG_Z_LIBRARY, "Swamp"), 2);
  CHECK_INT(u_count_in(w->game, MTG_Z_HAND, "Plains"), 1); /* the top card */
  CHECK_INT(u_count_in(w->game, MTG_Z_LIBRARY, "Island"), 1);
  CHECK(u_logged(w->game, "opening_hand player=alice n=1 rule=103.5"));
  CHECK(u_logged(w->game, "opening_hand player=bob n=1 rule=103.5"));
  /* three asked of bob's two cards: he gets both */
  mtg_setup_opening_hand(w->setup, 3);
  mtg_error e;
  CHECK(mtg_game_renew(&w->game, w->setup, &e) >= 0);
  CHECK_INT(u_count_in(w->game, MTG_Z_HAND, "Swamp"), 3);
  CHECK_INT(u_count_in(w->game, MTG_Z_HAND, "Plains") + u_count_in(w->game, MTG_Z_HAND, "Island"), 2);
  CHECK(u_logged(w->game, "opening_hand player=bob n=2 rule=103.5"));
  /* none: no hand is dealt, and none is logged */
  mtg_setup_opening_hand(w->setup, 0);
  CHECK(mtg_game_renew(&w->game, w->setup, &e) >= 0);
  CHECK_INT(u_count_in(w->game, MTG_Z_LIBRARY, "Swamp"), 3);
  CHECK(!u_logged(w->game, "opening_hand"));
}

TEST(setup_capacities_are_refused_past_their_edge) {
  static const struct {
    const char *what;
    int (*fill)(unit_ctx *, u_world *);
    int status;
    const char *msg;
  } caps[] = {
      {"cards in a setup", past_setup_cards, MTG_ELIMIT, "too many cards in the setup (at most 500)"},
      {"commanders", past_commanders, MTG_ELIMIT, "at most 8 commanders"},
      {"cards outside the game", past_outside, MTG_ELIMIT, "at most 8 cards outside the game per player"},
      {"players", past_players, MTG_ELIMIT, "at most 4 players"},
  };
  for (size_t k = 0; k < sizeof caps / sizeof caps[0]; k++) {
    if (u_begin(t_, w, NULL)) return;
    int rc = caps[k].fill(t_, w);
    const char *why = mtg_setup_error(w->setup);
    if (rc != caps[k].status || !strstr(why, caps[k].msg)) {
      unit_fail(t_, __FILE__, __LINE__, "%s: status %d '%s', expected %d saying '%s'", caps[k].what, rc, why, caps[k].status,
                caps[k].msg);
      return;
    }
    /* the setup holds what it accepted: a game starts from it */
    mtg_game *g = NULL;
    mtg_error e;
    CHECK_OK(mtg_game_new(&g, w->setup, &e), &e);
    mtg_game_free(g);
    u_end(w);
  }
}

/* ---- every refusal of the setters says exactly what is wrong ---- */

/* The call is refused with `status` and mtg_setup_error says `msg`, whole. */
static int refused(unit_ctx *t_, u_world *w, int rc, int status, const char *msg, int line) {
  const char *why = mtg_setup_error(w->setup);
  if (rc == status && !strcmp(why, msg)) return 0;
  unit_fail(t_, __FILE__, line, "status %d '%s', expected %d saying '%s'", rc, why, status, msg);
  return -1;
}
#define REFUSED(call, status, msg) \
  do { \
    if (refused(t_, w, (call), (status), (msg), __LINE__)) return; \
  } while (0)

TEST(setup_each_refusal_says_what_is_wrong) {
  if (u_begin(t_, w, NULL)) return;
  mtg_setup *s = w->setup;
  int bears = u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Grizzly Bears"); /* entry 0 */
  CHECK_INT(bears, 0);
  /* one entry: "card" in the singular */
  REFUSED(mtg_setup_tapped(s, 1, 1), MTG_EARG, "no entry 1 (the setup has 1 card)");
  REFUSED(mtg_setup_tapped(s, -1, 1), MTG_EARG, "no entry -1 (the setup has 1 card)");
  int bolt = u_card(t_, w, w->bob, MTG_Z_HAND, "Lightning Bolt"); /* entry 1 */
  CHECK_INT(bolt, 1);
  /* players */
  REFUSED(mtg_setup_player(s, NULL, 20, 0), MTG_EARG, "mtg_setup_player: the name is NULL");
  REFUSED(mtg_setup_player(s, "", 20, 0), MTG_EARG, "a player's name has 1 to 31 characters");
  REFUSED(mtg_setup_player(s, "a name of 32 characters.........", 20, 0), MTG_EARG, "a player's name has 1 to 31 characters");
  REFUSED(mtg_setup_player(s, "da ve", 20, 0), MTG_EARG, "a player's name uses letters, digits, '_' and '-' only");
  REFUSED(mtg_setup_player(s, "dave!", 20, 0), MTG_EARG, "a player's name uses letters, digits, '_' and '-' only");
  REFUSED(mtg_setup_player(s, "bob", 20, 0), MTG_EARG, "there is already a player named bob");
  REFUSED(mtg_setup_player(s, "alice", 20, 0), MTG_EARG, "there is already a player named alice");
  REFUSED(mtg_setup_player(s, "dave", -2147483647 - 1, 0), MTG_EARG, "life -2147483648 is out of range (-2147483647 to 2147483647)");
  REFUSED(mtg_setup_player(s, "dave", 20, -1), MTG_EARG, "poison -1 is out of range (0 to 2147483647)");
  /* where and how the game starts */
  REFUSED(mtg_setup_start(s, -1, 1, MTG_S_MAIN1), MTG_EARG, "the active player -1 is out of range (0 to 3)");
  REFUSED(mtg_setup_start(s, 4, 1, MTG_S_MAIN1), MTG_EARG, "the active player 4 is out of range (0 to 3)");
  REFUSED(mtg_setup_start(s, 0, 0, MTG_S_MAIN1), MTG_EARG, "the turn 0 is out of range (1 to 2147483647)");
  char steps[64];
  snprintf(steps, sizeof steps, "the step -1 is out of range (0 to %d)", MTG_S_COUNT - 1);
  REFUSED(mtg_setup_start(s, 0, 1, -1), MTG_EARG, steps);
  REFUSED(mtg_setup_opening_hand(s, -1), MTG_EARG, "an opening hand of -1 is out of range (0 to 500)");
  REFUSED(mtg_setup_opening_hand(s, 501), MTG_EARG, "an opening hand of 501 is out of range (0 to 500)");
  REFUSED(mtg_setup_max_turns(s, -1), MTG_EARG, "max_turns -1 is out of range (0 to 2147483647)");
  REFUSED(mtg_setup_work_budget(s, -1), MTG_EARG, "a work budget of -1 lines: 0 (none) or more");
  /* cards */
  mtg_error e;
  memset(&e, 0, sizeof e);
  REFUSED(mtg_setup_card(s, 0, MTG_Z_HAND, NULL, &e), MTG_EARG, "mtg_setup_card: the card name is NULL");
  CHECK_STR(e.msg, "mtg_setup_card: the card name is NULL");
  REFUSED(mtg_setup_card(s, 2, MTG_Z_HAND, "Forest", &e), MTG_EARG, "no player 2");
  REFUSED(mtg_setup_card(s, 0, MTG_Z_STACK, "Forest", &e), MTG_EARG, "cards can't start in zone 4");
  CHECK_STR(e.msg, "cards can't start in zone 4");
  REFUSED(mtg_setup_card(s, 0, MTG_Z_LIBRARY, "Tomb of Annihilation", &e), MTG_EDATA,
          "dungeon card 'Tomb of Annihilation' can only be in the command zone (309.2c)");
  CHECK_INT(mtg_setup_card(s, 1, MTG_Z_COMMAND, "Tomb of Annihilation", &e), 2);
  REFUSED(mtg_setup_card(s, 1, MTG_Z_COMMAND, "Lost Mine of Phandelver", &e), MTG_EDATA,
          "player bob already has dungeon 'Tomb of Annihilation' in the command zone (309.3)");
  CHECK_STR(e.msg, "player bob already has dungeon 'Tomb of Annihilation' in the command zone (309.3)");
  /* 901.4, 904.4: planes, phenomena and schemes are in the command zone only */
  REFUSED(mtg_setup_card(s, 0, MTG_Z_HAND, "Krosa", &e), MTG_EDATA, "plane card 'Krosa' can only be in the command zone (901.4)");
  CHECK_STR(e.msg, "plane card 'Krosa' can only be in the command zone (901.4)");
  REFUSED(mtg_setup_card(s, 1, MTG_Z_LIBRARY, "Mutual Epiphany", &e), MTG_EDATA,
          "phenomenon card 'Mutual Epiphany' can only be in the command zone (901.4)");
  REFUSED(mtg_setup_card(s, 0, MTG_Z_BATTLEFIELD, "Look Skyward and Despair", &e), MTG_EDATA,
          "scheme card 'Look Skyward and Despair' can only be in the command zone (904.4)");
  static const int elsewhere[] = {MTG_Z_LIBRARY, MTG_Z_HAND, MTG_Z_BATTLEFIELD, MTG_Z_GRAVEYARD, MTG_Z_EXILE, MTG_Z_ANTE};
  for (int k = 0; k < 6; k++) CHECK_INT(mtg_setup_card(s, 0, elsewhere[k], "Krosa", &e), MTG_EDATA);
  int ne = mtg_setup_card(s, 0, MTG_Z_COMMAND, "Krosa", &e);
  CHECK_INT(ne, 3);
  CHECK_INT(mtg_setup_card(s, 1, MTG_Z_COMMAND, "Mutual Epiphany", &e), 4);
  CHECK_INT(mtg_setup_card(s, 0, MTG_Z_COMMAND, "Look Skyward and Despair", &e), 5);
  REFUSED(mtg_setup_outside(s, 0, NULL, &e), MTG_EARG, "mtg_setup_outside: the card name is NULL");
  CHECK_STR(e.msg, "mtg_setup_outside: the card name is NULL");
  REFUSED(mtg_setup_outside(s, 2, "Forest", &e), MTG_EARG, "no player 2");
  /* an entry's state */
  REFUSED(mtg_setup_damage(s, bears, -1), MTG_EARG, "damage -1 is out of range (0 to 2147483647)");
  REFUSED(mtg_setup_counters(s, bears, NULL, 1), MTG_EARG, "a counter kind is NULL");
  REFUSED(mtg_setup_counters(s, bears, "", 1), MTG_EARG, "a counter kind is empty");
  /* the name shown cut to 40 characters, and "..." */
  REFUSED(mtg_setup_counters(s, bears, "a_kind_of_24_letters____", 1), MTG_EARG,
          "a counter kind 'a_kind_of_24_letters____...' is longer than 23 characters");
  REFUSED(mtg_setup_counters(s, bears, "a_kind_of_44_letters________________________", 1), MTG_EARG,
          "a counter kind 'a_kind_of_44_letters____________________...' is longer than 23 characters");
  REFUSED(mtg_setup_counters(s, bears, "+1/+1", -1), MTG_EARG, "a number of counters -1 is out of range (0 to 2147483647)");
  for (int k = 0; k < 6; k++) CHECK_INT(mtg_setup_counters(s, bears, "+1/+1", k), MTG_OK);
  REFUSED(mtg_setup_counters(s, bears, "+1/+1", 1), MTG_EARG, "at most 6 kinds of counters on a card (MTG_MAX_COUNTER_KINDS)");
  REFUSED(mtg_setup_controller(s, bears, 2), MTG_EARG, "no player 2 (the setup has 2)");
  REFUSED(mtg_setup_controller(s, bears, -1), MTG_EARG, "no player -1 (the setup has 2)");
  REFUSED(mtg_setup_attach_player(s, bolt, 2), MTG_EARG, "no player 2 (the setup has 2)");
  REFUSED(mtg_setup_attach(s, bolt, bolt), MTG_EARG, "entry 1 can't be attached to itself");
  REFUSED(mtg_setup_attach(s, bolt, 6), MTG_EARG, "no entry 6 (the setup has 6 cards)");
  REFUSED(mtg_setup_choice(s, bears, NULL, "v"), MTG_EARG, "a choice's key is NULL");
  REFUSED(mtg_setup_choice(s, bears, "", "v"), MTG_EARG, "a choice's key is empty");
  REFUSED(mtg_setup_choice(s, bears, "a_key_of_24_letters_____", "v"), MTG_EARG,
          "a choice's key 'a_key_of_24_letters_____...' is longer than 23 characters");
  REFUSED(mtg_setup_choice(s, bears, "a:b", "v"), MTG_EARG, "a choice's key uses letters, digits, '_' and '-' only");
  REFUSED(mtg_setup_choice(s, bears, "k", NULL), MTG_EARG, "a choice's value is NULL");
  char v64[65];
  memset(v64, 'v', 64);
  v64[64] = 0;
  REFUSED(mtg_setup_choice(s, bears, "k", v64), MTG_EARG, "a choice's value is longer than 63 characters");
  for (int k = 0; k < 4; k++) CHECK_INT(mtg_setup_choice(s, bears, "k", ""), MTG_OK); /* an empty value is a value */
  REFUSED(mtg_setup_choice(s, bears, "k", "v"), MTG_EARG, "at most 4 choices on a card");
  REFUSED(mtg_setup_transformed(s, bears, 1), MTG_EARG, "'Grizzly Bears' has no back face to be transformed to (712)");
  REFUSED(mtg_setup_token(s, bolt, 1), MTG_EARG, "'Lightning Bolt': a token exists only on the battlefield (704.5d); put it there");
  REFUSED(mtg_setup_exiled_with(s, bolt, bolt, "x"), MTG_EARG, "entry 1 can't be exiled with itself");
  REFUSED(mtg_setup_exiled_with(s, bolt, bears, NULL), MTG_EARG, "a link label is NULL");
  REFUSED(mtg_setup_exiled_with(s, bolt, bears, ""), MTG_EARG, "a link label is empty");
  REFUSED(mtg_setup_protector(s, bears, 0), MTG_EARG, "only a battle on the battlefield has a protector (310.8)");
  REFUSED(mtg_setup_protector(s, bears, 2), MTG_EARG, "no player 2 (the setup has 2)");
  REFUSED(mtg_setup_sector(s, bears, "delta"), MTG_EARG, "unknown sector 'delta' (alpha, beta or gamma)");
  REFUSED(mtg_setup_sector(s, bears, NULL), MTG_EARG, "unknown sector '(null)' (alpha, beta or gamma)");
  REFUSED(mtg_setup_sector(s, bolt, "alpha"), MTG_EARG, "only a permanent has a sector (702.158b)");
  REFUSED(mtg_setup_room(s, 2, NULL), MTG_EARG, "mtg_setup_room: the room is NULL");
  REFUSED(mtg_setup_room(s, bears, "Goblin Lair"), MTG_EARG, "'Grizzly Bears' is not a dungeon: it has no rooms (309.4)");
  REFUSED(mtg_setup_room(s, 2, "Goblin Lair"), MTG_EARG, "'Tomb of Annihilation' has no room named 'Goblin Lair'");
  /* players' state */
  REFUSED(mtg_setup_player_counters(s, 2, "energy", 1), MTG_EARG, "no player 2 (the setup has 2)");
  REFUSED(mtg_setup_player_counters(s, 0, "", 1), MTG_EARG, "a counter kind is empty");
  REFUSED(mtg_setup_player_counters(s, 0, "energy", -1), MTG_EARG, "a number of counters -1 is out of range (0 to 2147483647)");
  for (int k = 0; k < 6; k++) CHECK_INT(mtg_setup_player_counters(s, 0, "energy", k), MTG_OK);
  REFUSED(mtg_setup_player_counters(s, 0, "energy", 1), MTG_EARG, "at most 6 kinds of counters on a player (MTG_MAX_COUNTER_KINDS)");
  REFUSED(mtg_setup_lands_played(s, 0, -1), MTG_EARG, "lands played -1 is out of range (0 to 32767)");
  REFUSED(mtg_setup_lands_played(s, 0, 32768), MTG_EARG, "lands played 32768 is out of range (0 to 32767)");
  CHECK_INT(mtg_setup_lands_played(s, 0, 32767), MTG_OK);
  REFUSED(mtg_setup_mana(s, 2, "{R}"), MTG_EARG, "no player 2 (the setup has 2)");
  REFUSED(mtg_setup_mana(s, 0, NULL), MTG_EARG, "mtg_setup_mana: the mana is NULL");
  REFUSED(mtg_setup_mana(s, 0, "{2}"), MTG_EARG, "mana \"{2}\": write each mana as {W}, {U}, {B}, {R}, {G} or {C}");
  REFUSED(mtg_setup_mana(s, 0, "{X}"), MTG_EARG, "mana \"{X}\": write each mana as {W}, {U}, {B}, {R}, {G} or {C}");
  REFUSED(mtg_setup_mana(s, 0, "{R/G}"), MTG_EARG, "mana \"{R/G}\": write each mana as {W}, {U}, {B}, {R}, {G} or {C}");
  /* Phyrexian mana of each color is a cost, not mana a pool holds */
  static const char *const phyrexian[] = {"{W/P}", "{U/P}", "{B/P}", "{R/P}", "{G/P}"};
  for (int k = 0; k < 5; k++) {
    char want[96];
    snprintf(want, sizeof want, "mana \"%s\": write each mana as {W}, {U}, {B}, {R}, {G} or {C}", phyrexian[k]);
    REFUSED(mtg_setup_mana(s, 0, phyrexian[k]), MTG_EARG, want);
  }
  CHECK_INT(mtg_setup_mana(s, 0, "R"), MTG_EARG);
  CHECK(!strncmp(mtg_setup_error(s), "mana \"R\": ", 10) && strlen(mtg_setup_error(s)) > 10);
  CHECK_INT(mtg_setup_mana(s, 0, "{W}{U}{B}{R}{G}{C}"), MTG_OK);
  /* variants and teams */
  REFUSED(mtg_setup_variant(s, NULL), MTG_EARG, "mtg_setup_variant: the name is NULL");
  REFUSED(mtg_setup_variant(s, "poker"), MTG_EARG, "unknown variant 'poker' (two_headed_giant, commander, archenemy, planechase)");
  REFUSED(mtg_setup_team(s, 0, 5), MTG_EARG, "team 5 is out of range (0 to 4)");
  REFUSED(mtg_setup_team(s, 0, -1), MTG_EARG, "team -1 is out of range (0 to 4)");
  REFUSED(mtg_setup_team(s, 2, 1), MTG_EARG, "no player 2 (the setup has 2)");
  /* commanders (903.3, 702.124a) and their damage */
  REFUSED(mtg_setup_commander(s, bears), MTG_EDATA,
          "'Grizzly Bears' can't be a commander: a commander is a legendary creature or Vehicle card (903.3)");
  REFUSED(mtg_setup_commander_damage(s, 1, bears, 1), MTG_EARG, "entry 0 ('Grizzly Bears') is not a commander");
  REFUSED(mtg_setup_commander_damage(s, 1, bears, -1), MTG_EARG, "commander damage -1 is out of range (0 to 2147483647)");
  int isamaru = u_card(t_, w, w->alice, MTG_Z_COMMAND, "Isamaru, Hound of Konda");
  int dargo = u_card(t_, w, w->alice, MTG_Z_COMMAND, "Dargo, the Shipwrecker");
  CHECK_INT(mtg_setup_commander(s, isamaru), MTG_OK);
  REFUSED(mtg_setup_commander(s, dargo), MTG_EDATA,
          "'Dargo, the Shipwrecker' can't be a second commander of its owner: two commanders need partner, both (702.124a)");
  /* bob's first commander needs no partner */
  int bob_dargo = u_card(t_, w, w->bob, MTG_Z_COMMAND, "Dargo, the Shipwrecker");
  CHECK_INT(mtg_setup_commander(s, bob_dargo), MTG_OK);
  /* a commander damage record per player and commander: two players, two commanders */
  CHECK_INT(mtg_setup_commander_damage(s, 0, isamaru, 1), MTG_OK);
  CHECK_INT(mtg_setup_commander_damage(s, 1, isamaru, 2), MTG_OK);
  CHECK_INT(mtg_setup_commander_damage(s, 0, bob_dargo, 3), MTG_OK);
  CHECK_INT(mtg_setup_commander_damage(s, 1, bob_dargo, 4), MTG_OK);
  CHECK_INT(mtg_setup_commander_damage(s, 1, isamaru, 5), MTG_OK); /* replaces its record */
  char text[4096];
  CHECK(mtg_setup_write(s, text, sizeof text) < (int)sizeof text);
  char want[128];
  snprintf(want, sizeof want, "commander_damage alice %d 1\ncommander_damage bob %d 5\ncommander_damage alice %d 3\ncommander_damage bob %d 4\n",
           isamaru, isamaru, bob_dargo, bob_dargo);
  CHECK(strstr(text, want) != NULL);
}

/* A call on no setup is refused, never a crash; the calls that take an error
 * say so in it. */
TEST(setup_calls_on_no_setup_are_refused) {
  if (u_begin(t_, w, NULL)) return;
  mtg_error e;
  memset(&e, 0, sizeof e);
  CHECK_STR(mtg_setup_error(NULL), "the setup is NULL");
  CHECK_INT(mtg_setup_player(NULL, "alice", 20, 0), MTG_EARG);
  CHECK_INT(mtg_setup_seed(NULL, 1), MTG_EARG);
  CHECK_INT(mtg_setup_start(NULL, 0, 1, MTG_S_MAIN1), MTG_EARG);
  CHECK_INT(mtg_setup_opening_hand(NULL, 7), MTG_EARG);
  CHECK_INT(mtg_setup_shuffle(NULL, 1), MTG_EARG);
  CHECK_INT(mtg_setup_max_turns(NULL, 1), MTG_EARG);
  CHECK_INT(mtg_setup_work_budget(NULL, 1), MTG_EARG);
  CHECK_INT(mtg_setup_card(NULL, 0, MTG_Z_HAND, "Forest", &e), MTG_EARG);
  CHECK_STR(e.msg, "mtg_setup_card: the setup is NULL");
  CHECK_INT(mtg_setup_outside(NULL, 0, "Forest", &e), MTG_EARG);
  CHECK_STR(e.msg, "mtg_setup_outside: the setup is NULL");
  CHECK_INT(mtg_setup_tapped(NULL, 0, 1), MTG_EARG);
  CHECK_INT(mtg_setup_counters(NULL, 0, "+1/+1", 1), MTG_EARG);
  CHECK_INT(mtg_setup_choice(NULL, 0, "k", "v"), MTG_EARG);
  CHECK_INT(mtg_setup_variant(NULL, "commander"), MTG_EARG);
  CHECK_INT(mtg_setup_team(NULL, 0, 1), MTG_EARG);
  CHECK_INT(mtg_setup_commander(NULL, 0), MTG_EARG);
  CHECK_INT(mtg_setup_player_counters(NULL, 0, "energy", 1), MTG_EARG);
  CHECK_INT(mtg_setup_lands_played(NULL, 0, 1), MTG_EARG);
  CHECK_INT(mtg_setup_mana(NULL, 0, "{R}"), MTG_EARG);
  CHECK_INT(mtg_setup_room(NULL, 0, "Goblin Lair"), MTG_EARG);
  mtg_setup *out = (mtg_setup *)1;
  CHECK_INT(mtg_setup_read(w->pool, "x", NULL, &out, &e), MTG_EARG);
  CHECK(out == NULL);
  CHECK_STR(e.msg, "mtg_setup_read: the text is NULL");
  CHECK_INT(mtg_setup_read(NULL, "x", "", &out, &e), MTG_EARG);
  CHECK_STR(e.msg, "mtg_setup_read: the pool is NULL");
  CHECK_INT(mtg_setup_read(w->pool, "x", "", NULL, &e), MTG_EARG);
  CHECK_STR(e.msg, "mtg_setup_read: out is NULL");
}

/* A game needs two players at least (103.1, mtg.h: 2 to 4). */
TEST(setup_a_game_of_one_player_is_refused) {
  if (u_begin(t_, w, NULL)) return;
  mtg_setup_free(w->setup);
  CHECK((w->setup = mtg_setup_new(w->pool)) != NULL);
  CHECK_INT(mtg_setup_player(w->setup, "alice", 20, 0), 0);
  CHECK_INT(mtg_game_new(&w->game, w->setup, &w->err), MTG_EDATA);
  CHECK_STR(w->err.msg, "a game needs 2 to 4 players, the setup has 1");
  mtg_game_free(w->game);
  w->game = NULL;
  CHECK_INT(mtg_setup_player(w->setup, "bob", 20, 0), 1);
  CHECK_OK(mtg_game_new(&w->game, w->setup, &w->err), &w->err);
}

/* The reader's own refusals, each at its line, with its whole message. */
TEST(setup_text_refusals_say_exactly_what_is_wrong) {
  if (u_begin(t_, w, NULL)) return;
  char longfield[400];
  snprintf(longfield, sizeof longfield, "player alice 20\nplayer bob 20\ncard bob hand \"%0300d\"\n", 0);
  char field256[400]; /* one character past the longest field */
  snprintf(field256, sizeof field256, "player alice 20\nplayer bob 20\ncard bob hand \"%0256d\"\n", 0);
  char longkey[200];
  snprintf(longkey, sizeof longkey, "player alice 20\nplayer bob 20\ncard bob hand \"Forest\" counter=%064d:1\n", 0);
  static const char *const two = "player alice 20\nplayer bob 20\n";
  const struct {
    const char *pre, *rec;
    int line;
    const char *msg;
  } bad[] = {
      {"", "card carol hand \"Forest\"\n", 1, "unknown player 'carol' (no player record before it)"},
      {"player alice 20\n", "card carol hand \"Forest\"\n", 2, "unknown player 'carol'; the players are alice"},
      {NULL, "card carol hand \"Forest\"\n", 3, "unknown player 'carol'; the players are alice, bob"},
      {NULL, "zzzzzzzzzz 1\n", 3, "unknown record 'zzzzzzzzzz' (player, card, start, seed, ...: docs/replay-format.md)"},
      {NULL, "player_counter bob\n", 3, "missing the counter kind at the end of the record"},
      {NULL, "mana bob\n", 3, "missing the mana, such as {R}{G} at the end of the record"},
      {NULL, "card bob hand\n", 3, "missing the card's name at the end of the record"},
      {NULL, "mana bob {2}\n", 3, "mana \"{2}\": write each mana as {W}, {U}, {B}, {R}, {G} or {C}"},
      {NULL, "card bob hand \"Forest\" counter=stun\n", 3, "counter: expected KIND:N, found 'stun'"},
      {NULL, "card bob hand \"Forest\" choice=color\n", 3, "choice: expected KEY:VALUE, found 'color'"},
      /* each record's fields in turn missing, and nothing after its last */
      {NULL, "player\n", 3, "missing the player's name at the end of the record"},
      {NULL, "player dave 20 x\n", 3, "unexpected 'x' after the player record"},
      {NULL, "player_counter\n", 3, "missing the player at the end of the record"},
      {NULL, "player_counter bob energy\n", 3, "missing the number of counters at the end of the record"},
      {NULL, "player_counter bob energy 1 x\n", 3, "unexpected 'x' after the player_counter record"},
      {NULL, "lands_played bob\n", 3, "missing the number of lands at the end of the record"},
      {NULL, "lands_played bob 1 x\n", 3, "unexpected 'x' after the lands_played record"},
      {NULL, "team bob\n", 3, "missing the team at the end of the record"},
      {NULL, "team bob 1 x\n", 3, "unexpected 'x' after the team record"},
      {NULL, "mana\n", 3, "missing the player at the end of the record"},
      {NULL, "mana bob {R} x\n", 3, "unexpected 'x' after the mana record"},
      {NULL, "outside\n", 3, "missing the player at the end of the record"},
      {NULL, "outside bob\n", 3, "missing the card's name at the end of the record"},
      {NULL, "outside bob Forest x\n", 3, "unexpected 'x' after the outside record"},
      {NULL, "outside carol Forest\n", 3, "unknown player 'carol'; the players are alice, bob"},
      {NULL, "variant\n", 3, "missing the variant at the end of the record"},
      {NULL, "variant commander x\n", 3, "unexpected 'x' after the variant record"},
      {NULL, "commander_damage bob\n", 3, "missing the commander's entry at the end of the record"},
      {NULL, "commander_damage bob 0\n", 3, "missing the damage at the end of the record"},
      {NULL, "commander_damage bob 0 1 x\n", 3, "unexpected 'x' after the commander_damage record"},
      {NULL, "seed\n", 3, "missing the seed at the end of the record"},
      {NULL, "seed 12x\n", 3, "seed: expected a number from 0 to 18446744073709551615, found '12x'"},
      {NULL, "start\n", 3, "missing the active player at the end of the record"},
      {NULL, "start bob\n", 3, "missing the turn at the end of the record"},
      {NULL, "start bob 1\n", 3, "missing the step at the end of the record"},
      {NULL, "start bob 1 main1 x\n", 3, "unexpected 'x' after the start record"},
      {NULL, "opening\n", 3, "missing the number at the end of the record"},
      {NULL, "shuffle 1 x\n", 3, "unexpected 'x' after the shuffle record"},
      {NULL, "max_turns 1 x\n", 3, "unexpected 'x' after the max_turns record"},
      {NULL, "card\n", 3, "missing the owner at the end of the record"},
      {NULL, "card bob\n", 3, "missing the zone at the end of the record"},
      {"", longfield, 3, "a field longer than 255 characters"},
      {"", field256, 3, "a field longer than 255 characters"},
      {"", longkey, 3, "counter: a kind longer than 63 characters"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char text[1024];
    snprintf(text, sizeof text, "%s%s", bad[i].pre ? bad[i].pre : two, bad[i].rec);
    mtg_setup *s = NULL;
    mtg_error e;
    memset(&e, 0, sizeof e);
    int rc = mtg_setup_read(w->pool, "bad.txt", text, &s, &e);
    if (rc != MTG_EDATA || s || e.line != bad[i].line || strcmp(e.msg, bad[i].msg)) {
      unit_fail(t_, __FILE__, __LINE__, "record %zu: status %d line %d '%s', expected %d at line %d saying '%s'", i, rc, e.line, e.msg,
                MTG_EDATA, bad[i].line, bad[i].msg);
      mtg_setup_free(s);
      return;
    }
  }
  /* a record of 1023 characters is read, one of 1024 refused */
  char rec[1100];
  for (int len = 1023; len <= 1024; len++) {
    int head = snprintf(rec, sizeof rec, "player alice 20\nplayer bob 20\nseed 1");
    memset(rec + head, ' ', (size_t)(len - 6)); /* "seed 1" and blanks after it */
    rec[head + len - 6] = 0;
    mtg_setup *s = NULL;
    mtg_error e;
    memset(&e, 0, sizeof e);
    int rc = mtg_setup_read(w->pool, "long.txt", rec, &s, &e);
    mtg_setup_free(s);
    if (len == 1023) CHECK_INT(rc, MTG_OK);
    else {
      CHECK_INT(rc, MTG_EDATA);
      CHECK_STR(e.msg, "a record longer than 1023 characters");
      CHECK_INT(e.line, 3);
    }
  }
  /* at most MTG_SETUP_MAX_RECORDS records, blank lines not counted */
  size_t cap = (MTG_SETUP_MAX_RECORDS + 2) * 16;
  char *text = malloc(cap);
  CHECK(text != NULL);
  size_t u = (size_t)snprintf(text, cap, "\n%s", two);
  for (int k = 2; k < MTG_SETUP_MAX_RECORDS; k++) u += (size_t)snprintf(text + u, cap - u, "seed %d\n\n", k);
  mtg_setup *s = NULL;
  mtg_error e;
  int rc = mtg_setup_read(w->pool, "many.txt", text, &s, &e);
  mtg_setup_free(s);
  s = NULL;
  if (rc) {
    free(text);
    unit_fail(t_, __FILE__, __LINE__, "%d records refused: %s", MTG_SETUP_MAX_RECORDS, e.msg);
    return;
  }
  snprintf(text + u, cap - u, "seed 1\n");
  rc = mtg_setup_read(w->pool, "many.txt", text, &s, &e);
  free(text);
  CHECK_INT(rc, MTG_EDATA);
  CHECK(s == NULL);
  char want[64];
  snprintf(want, sizeof want, "more than %d records: a setup has no more", MTG_SETUP_MAX_RECORDS);
  CHECK_STR(e.msg, want);
  CHECK_INT(e.line, 1 + 2 + 2 * (MTG_SETUP_MAX_RECORDS - 2) + 1);
}

const unit_test setup_tests[] = {
    {"setup_setters_accept_their_range_and_refuse_past_it", setup_setters_accept_their_range_and_refuse_past_it},
    {"setup_card_and_player_errors_say_what_is_wrong", setup_card_and_player_errors_say_what_is_wrong},
    {"setup_active_player_is_a_player_of_the_game", setup_active_player_is_a_player_of_the_game},
    {"setup_counter_kinds_up_to_the_games_capacity", setup_counter_kinds_up_to_the_games_capacity},
    {"setup_a_game_from_its_start_offers_leylines_in_turn_order", setup_a_game_from_its_start_offers_leylines_in_turn_order},
    {"setup_commanders_and_battle_designations", setup_commanders_and_battle_designations},
    {"setup_two_commanders_with_partner_never_a_third", setup_two_commanders_with_partner_never_a_third},
    {"setup_text_writes_every_record_and_option", setup_text_writes_every_record_and_option},
    {"setup_text_cut_at_every_size_is_a_terminated_prefix", setup_text_cut_at_every_size_is_a_terminated_prefix},
    {"setup_text_reads_back_to_the_same_text", setup_text_reads_back_to_the_same_text},
    {"setup_text_defaults_for_records_left_out", setup_text_defaults_for_records_left_out},
    {"setup_text_read_builds_the_game_it_describes", setup_text_read_builds_the_game_it_describes},
    {"setup_text_refuses_each_malformed_record_at_its_line", setup_text_refuses_each_malformed_record_at_its_line},
    {"setup_opening_hand_deals_each_player_that_many", setup_opening_hand_deals_each_player_that_many},
    {"setup_capacities_are_refused_past_their_edge", setup_capacities_are_refused_past_their_edge},
    {"setup_each_refusal_says_what_is_wrong", setup_each_refusal_says_what_is_wrong},
    {"setup_calls_on_no_setup_are_refused", setup_calls_on_no_setup_are_refused},
    {"setup_a_game_of_one_player_is_refused", setup_a_game_of_one_player_is_refused},
    {"setup_text_refusals_say_exactly_what_is_wrong", setup_text_refusals_say_exactly_what_is_wrong},
    {NULL, NULL},
};
