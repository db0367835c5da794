/* test_query.c - unit tests of the public read-only view (query.c): names and
 * their aliases, the result, players by name and index, zone contents by
 * owner or controller with a short output array, objects on the stack and
 * elsewhere with every field (and the setup entry alone, mtg_object_card), type
 * lines, and counters of objects and players. */
#include <stdlib.h>
#include <string.h>

#include "mtg_private.h"
#include "unit.h"

TEST(query_names_refuse_out_of_range_and_accept_aliases) {
  CHECK_STR(mtg_zone_name(-1), "none");
  CHECK_STR(mtg_zone_name(MTG_Z_COUNT), "none");
  CHECK_STR(mtg_zone_name(0), "library");
  CHECK_STR(mtg_zone_name(MTG_Z_COUNT - 1), "ante");
  CHECK_STR(mtg_step_name(-1), "none");
  CHECK_STR(mtg_step_name(MTG_S_COUNT), "none");
  CHECK_STR(mtg_step_name(0), "untap");
  CHECK_STR(mtg_step_name(MTG_S_COUNT - 1), "cleanup");
  CHECK_INT(mtg_zone_parse("library"), 0);
  CHECK_INT(mtg_zone_parse("ante"), MTG_Z_ANTE);
  CHECK_INT(mtg_step_parse("untap"), 0);
  CHECK_INT(mtg_step_parse("cleanup"), MTG_S_CLEANUP);
  CHECK_INT(mtg_step_parse("end_step"), MTG_S_END);
  CHECK_INT(mtg_step_parse("precombat_main"), MTG_S_MAIN1);
  CHECK_INT(mtg_step_parse("postcombat_main"), MTG_S_MAIN2);
  CHECK_INT(mtg_step_parse("postcombat"), -1);
}

TEST(query_players_by_name_and_index) {
  if (u_begin(t_, w, NULL)) return;
  CHECK_INT(mtg_setup_player(w->setup, "carol", 13, 0), 2);
  CHECK_INT(mtg_setup_team(w->setup, 2, 3), 0);
  mtg_setup_start(w->setup, 2, 3, MTG_S_MAIN1);
  CHECK_INT(mtg_setup_mana(w->setup, 2, "{W}{W}{U}{B}{R}{R}{R}{G}{C}"), 0); /* every color's count and colorless */
  if (u_start(t_, w)) return;
  CHECK_INT(mtg_game_players(w->game), 3);
  CHECK_INT(mtg_game_active(w->game), 2);
  CHECK_INT(mtg_player_find(w->game, "alice"), 0);
  CHECK_INT(mtg_player_find(w->game, "bob"), 1);
  CHECK_INT(mtg_player_find(w->game, "carol"), 2);
  CHECK_INT(mtg_player_find(w->game, "dave"), -1);
  mtg_player p;
  CHECK_INT(mtg_player_info(w->game, 3, &p), MTG_EARG);
  CHECK_INT(mtg_player_info(w->game, -1, &p), MTG_EARG);
  CHECK_INT(mtg_player_info(w->game, 0, &p), 0);
  CHECK_STR(p.name, "alice");
  CHECK_INT(mtg_player_info(w->game, 2, &p), 0);
  CHECK_STR(p.name, "carol");
  CHECK_INT(p.life, 13);
  CHECK_INT(p.team, 3);
  CHECK_INT(p.lost + p.won + p.left + p.speed + p.dungeons_completed + p.drew_from_empty, 0);
  static const int pool[6] = {2, 1, 1, 3, 1, 1}; /* W U B R G C */
  for (int i = 0; i < 6; i++) CHECK_INT(p.mana[i], pool[i]);
  CHECK_STR(mtg_player_name(w->game, 2), "carol"); /* the name alone */
  CHECK_STR(mtg_player_name(w->game, 0), "alice");
  CHECK(mtg_player_name(w->game, 3) == NULL);
  CHECK(mtg_player_name(w->game, -1) == NULL);
  CHECK(mtg_player_name(NULL, 0) == NULL);
  mtg_result r;
  mtg_game_result(w->game, &r);
  CHECK_INT(r.over + r.stopped + r.draw, 0);
  CHECK_INT(r.winners | r.losers, 0);
}

TEST(query_result_names_each_winner_and_loser) {
  /* bob at 1 life takes a Lightning Bolt: he loses (704.5a) and alice, the
   * one player left, wins (104.2a) */
  if (u_begin(t_, w, NULL)) return;
  mtg_setup_free(w->setup);
  w->setup = mtg_setup_new(w->pool);
  CHECK(w->setup != NULL);
  CHECK_INT(mtg_setup_player(w->setup, "alice", 20, 0), 0);
  CHECK_INT(mtg_setup_player(w->setup, "bob", 1, 0), 1);
  mtg_setup_start(w->setup, 0, 3, MTG_S_MAIN1);
  u_card(t_, w, 0, MTG_Z_BATTLEFIELD, "Mountain");
  u_card(t_, w, 0, MTG_Z_HAND, "Lightning Bolt");
  if (u_start(t_, w)) return;
  if (u_pick(t_, w, "cast \"Lightning Bolt\"") < 0) return;
  if (u_pick(t_, w, "bob") < 0) return;
  u_pass(t_, w, 2);
  CHECK_INT(mtg_game_status(w->game), MTG_OVER);
  mtg_result r;
  mtg_game_result(w->game, &r);
  CHECK_INT(r.over, 1);
  CHECK_INT(r.draw, 0);
  CHECK_INT(r.stopped, 0);
  CHECK_INT(r.winners, 1);
  CHECK_INT(r.losers, 2);
  mtg_player p;
  CHECK_INT(mtg_player_info(w->game, 1, &p), 0);
  CHECK_INT(p.lost, 1);
  CHECK_INT(mtg_player_info(w->game, 0, &p), 0);
  CHECK_INT(p.won, 1);
}

TEST(query_zone_objects_by_owner_and_controller) {
  if (u_begin(t_, w, NULL)) return;
  int bears = u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Grizzly Bears");
  u_card(t_, w, w->bob, MTG_Z_BATTLEFIELD, "Runeclaw Bear");
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Forest");
  u_card(t_, w, w->bob, MTG_Z_EXILE, "Shock");
  u_card(t_, w, w->alice, MTG_Z_EXILE, "Lightning Bolt");
  u_card(t_, w, w->bob, MTG_Z_GRAVEYARD, "Shock");
  u_card(t_, w, w->bob, MTG_Z_GRAVEYARD, "Forest");
  CHECK_INT(mtg_setup_controller(w->setup, bears, w->bob), 0); /* alice's Bears, bob's to control */
  if (u_start(t_, w)) return;
  mtg_game *g = w->game;
  uint32_t ids[8] = {0};
  /* the battlefield by controller, -1 for all */
  CHECK_INT(mtg_zone_objects(g, -1, MTG_Z_BATTLEFIELD, ids, 8), 3);
  CHECK_INT(mtg_zone_objects(g, w->bob, MTG_Z_BATTLEFIELD, ids, 8), 2);
  mtg_object o;
  CHECK_INT(mtg_object_info(g, ids[0], &o), 0);
  CHECK_STR(o.name, "Grizzly Bears");
  CHECK_INT(o.owner, w->alice);
  CHECK_INT(o.controller, w->bob);
  CHECK_INT(mtg_zone_objects(g, w->alice, MTG_Z_BATTLEFIELD, ids, 8), 1);
  CHECK_INT(mtg_object_info(g, ids[0], &o), 0);
  CHECK_STR(o.name, "Forest");
  /* exile by owner */
  CHECK_INT(mtg_zone_objects(g, w->alice, MTG_Z_EXILE, ids, 8), 1);
  CHECK_INT(mtg_object_info(g, ids[0], &o), 0);
  CHECK_STR(o.name, "Lightning Bolt");
  CHECK_INT(mtg_zone_objects(g, -1, MTG_Z_EXILE, ids, 8), 2);
  /* a player's own zones: only theirs, none for -1 or a player who isn't */
  CHECK_INT(mtg_zone_objects(g, w->bob, MTG_Z_GRAVEYARD, ids, 8), 2);
  CHECK_INT(mtg_zone_objects(g, w->alice, MTG_Z_GRAVEYARD, ids, 8), 0);
  CHECK_INT(mtg_zone_objects(g, -1, MTG_Z_GRAVEYARD, ids, 8), 0);
  CHECK_INT(mtg_zone_objects(g, 2, MTG_Z_GRAVEYARD, ids, 8), 0);
  CHECK_INT(mtg_zone_objects(g, 0, -1, ids, 8), 0);
  CHECK_INT(mtg_zone_objects(g, 0, MTG_Z_COUNT, ids, 8), 0);
  /* a short array: the count of all, only max written */
  uint32_t few[3] = {0, 0, 0};
  CHECK_INT(mtg_zone_objects(g, w->bob, MTG_Z_GRAVEYARD, few, 1), 2);
  CHECK(few[0] != 0 && few[1] == 0);
  CHECK_INT(mtg_zone_objects(g, -1, MTG_Z_BATTLEFIELD, few, 2), 3);
  CHECK(few[1] != 0 && few[2] == 0);
  few[0] = few[1] = 0;
  CHECK_INT(mtg_zone_objects(g, -1, MTG_Z_EXILE, few, 1), 2);
  CHECK(few[0] != 0 && few[1] == 0);
  CHECK_INT(mtg_zone_objects(g, -1, MTG_Z_BATTLEFIELD, NULL, 0), 3);
}

TEST(query_stack_objects_and_abilities) {
  /* Soul Warden's trigger on the stack above nothing; then a spell above it */
  if (u_begin(t_, w, NULL)) return;
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Soul Warden");
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Forest");
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Forest");
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Mountain");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Grizzly Bears");
  u_card(t_, w, w->bob, MTG_Z_BATTLEFIELD, "Mountain");
  u_card(t_, w, w->bob, MTG_Z_HAND, "Shock");
  if (u_start(t_, w)) return;
  if (u_pick(t_, w, "cast \"Grizzly Bears\"") < 0) return;
  u_pass(t_, w, 2); /* the Bears resolve; Soul Warden triggers */
  mtg_game *g = w->game;
  uint32_t st[4];
  CHECK_INT(mtg_zone_objects(g, -1, MTG_Z_STACK, st, 4), 1);
  CHECK_INT(mtg_zone_objects(g, w->bob, MTG_Z_STACK, st, 4), 0);
  CHECK_INT(mtg_zone_objects(g, w->alice, MTG_Z_STACK, st, 4), 1);
  mtg_object o;
  CHECK_INT(mtg_object_info(g, st[0], &o), 0);
  CHECK_STR(o.name, "Soul Warden");
  CHECK_INT(o.zone, MTG_Z_STACK);
  CHECK_INT(o.card, -1);
  CHECK_INT(o.owner, w->alice);
  CHECK_INT(o.controller, w->alice);
  CHECK_INT(o.attached_player, -1);
  CHECK_INT(o.protector, -1);
  CHECK_INT(o.room, -1);
  CHECK_STR(o.types, "Triggered ability");
  CHECK_INT(mtg_object_card(g, st[0]), -1); /* an ability comes from no setup entry */
  if (u_pick(t_, w, "pass") < 0) return; /* alice passes; bob shocks her in response */
  if (u_pick(t_, w, "cast \"Shock\"") < 0) return;
  if (u_pick(t_, w, "alice") < 0) return;
  CHECK_INT(mtg_zone_objects(g, -1, MTG_Z_STACK, st, 4), 2);
  CHECK_INT(mtg_zone_objects(g, w->alice, MTG_Z_STACK, st, 4), 1); /* the trigger, not bob's Shock */
  CHECK_INT(mtg_zone_objects(g, w->bob, MTG_Z_STACK, st, 4), 1);
  CHECK_INT(mtg_object_info(g, st[0], &o), 0);
  CHECK_STR(o.name, "Shock");
  CHECK_INT(o.zone, MTG_Z_STACK);
  CHECK(o.card >= 0);
  CHECK_INT(mtg_object_card(g, st[0]), o.card);
  CHECK_STR(o.types, "Instant");
  CHECK_INT(mtg_zone_objects(g, -1, MTG_Z_STACK, st, 4), 2);
  CHECK_INT(mtg_object_info(g, st[0], &o), 0);
  CHECK_STR(o.types, "Triggered ability"); /* bottom first: the trigger, then Shock */
  CHECK_INT(mtg_object_info(g, 999999, &o), MTG_EARG);
  CHECK_INT(mtg_object_card(g, 999999), -1);
}

TEST(query_type_lines_and_counters) {
  if (u_begin(t_, w, NULL)) return;
  int isamaru = u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Isamaru, Hound of Konda");
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Forest");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Lightning Bolt");
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Glorious Anthem");
  CHECK_INT(mtg_setup_counters(w->setup, isamaru, "+1/+1", 2), 0);
  CHECK_INT(mtg_setup_counters(w->setup, isamaru, "stun", 1), 0);
  CHECK_INT(mtg_setup_player_counters(w->setup, w->bob, "energy", 4), 0);
  if (u_start(t_, w)) return;
  mtg_game *g = w->game;
  uint32_t bf[4], hand[1];
  CHECK_INT(mtg_zone_objects(g, w->alice, MTG_Z_BATTLEFIELD, bf, 4), 3);
  CHECK_INT(mtg_zone_objects(g, w->alice, MTG_Z_HAND, hand, 1), 1);
  mtg_object o;
  CHECK_INT(mtg_object_info(g, bf[0], &o), 0);
  CHECK_STR(o.types, "Legendary Creature - Dog");
  /* the setup's first card is the game's first object: its entry is 0, not "none" */
  CHECK_INT(isamaru, 0);
  CHECK_INT(mtg_object_card(g, bf[0]), isamaru);
  CHECK_INT(o.card, isamaru);
  CHECK_INT(o.power, 5); /* 2/2, two +1/+1 counters, Glorious Anthem */
  CHECK_INT(o.toughness, 5);
  CHECK_INT(o.n_counters, 2);
  CHECK_STR(o.counter_kind[0], "+1/+1");
  CHECK_INT(o.counter_n[0], 2);
  CHECK_STR(o.counter_kind[1], "stun");
  CHECK_INT(o.counter_n[1], 1);
  CHECK_INT(o.loyalty, 0);
  CHECK(o.sector == NULL && o.room_name == NULL);
  CHECK_INT(mtg_counters(g, bf[0], -1, "+1/+1"), 2);
  CHECK_INT(mtg_counters(g, bf[0], -1, "stun"), 1);
  CHECK_INT(mtg_counters(g, bf[0], -1, "-1/-1"), 0);
  CHECK_INT(mtg_counters(g, bf[0], -1, "no such kind"), 0);
  CHECK_INT(mtg_counters(g, 999999, -1, "+1/+1"), 0);
  CHECK_INT(mtg_counters(g, 0, w->bob, "energy"), 4);
  CHECK_INT(mtg_counters(g, 0, w->alice, "energy"), 0);
  CHECK_INT(mtg_counters(g, 0, 2, "energy"), 0);
  CHECK_INT(mtg_counters(g, 0, -1, "energy"), 0);
  CHECK_INT(mtg_object_info(g, bf[1], &o), 0);
  CHECK_STR(o.types, "Basic Land - Forest");
  CHECK_INT(o.n_counters, 0);
  CHECK_INT(mtg_object_info(g, bf[2], &o), 0);
  CHECK_STR(o.types, "Enchantment");
  CHECK_INT(mtg_object_info(g, hand[0], &o), 0);
  CHECK_STR(o.types, "Instant");
  CHECK_INT(o.zone, MTG_Z_HAND);
  CHECK_INT(o.sick, 0);
}

TEST(query_designations_of_battles_dungeons_and_sectors) {
  if (u_begin(t_, w, NULL)) return;
  int inv = u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Invasion of Dominaria");
  int mine = u_card(t_, w, w->bob, MTG_Z_COMMAND, "Lost Mine of Phandelver");
  int bears = u_card(t_, w, w->bob, MTG_Z_BATTLEFIELD, "Grizzly Bears");
  CHECK_INT(mtg_setup_protector(w->setup, inv, w->bob), 0);
  CHECK_INT(mtg_setup_room(w->setup, mine, "Goblin Lair"), 0);
  CHECK_INT(mtg_setup_sector(w->setup, bears, "gamma"), 0);
  if (u_start(t_, w)) return;
  mtg_game *g = w->game;
  uint32_t ids[4];
  CHECK_INT(mtg_zone_objects(g, w->alice, MTG_Z_BATTLEFIELD, ids, 4), 1);
  mtg_object o;
  CHECK_INT(mtg_object_info(g, ids[0], &o), 0);
  CHECK_INT(o.protector, w->bob);
  CHECK_INT(mtg_counters(g, ids[0], -1, "defense"), 5); /* its printed defense (310.4b) */
  CHECK_INT(o.room, -1);
  CHECK_INT(mtg_zone_objects(g, w->bob, MTG_Z_COMMAND, ids, 4), 1);
  CHECK_INT(mtg_object_info(g, ids[0], &o), 0);
  CHECK_INT(o.room, 1);
  CHECK_STR(o.room_name, "Goblin Lair");
  CHECK_INT(o.protector, -1);
  CHECK_INT(mtg_zone_objects(g, w->bob, MTG_Z_BATTLEFIELD, ids, 4), 1);
  CHECK_INT(mtg_object_info(g, ids[0], &o), 0);
  CHECK(o.sector == NULL); /* lapsed: no permanent with space sculptor (702.158b) */
}

TEST(query_tells_a_copy_of_a_spell_from_the_spell) {
  /* 707.10: a copy of a spell is not a card; the API says which is the copy */
  if (u_begin(t_, w,
              "- name: Test Twincast\n  cost: \"{U}\"\n  type: Instant\n"
              "  text: Copy target instant or sorcery spell.\n"
              "  spell:\n    targets: [{filter: {spell: true, type: [instant, sorcery]}}]\n"
              "    effect: [{copy_spell: target}]\n"))
    return;
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Mountain");
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Island");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Lightning Bolt");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Test Twincast");
  if (u_start(t_, w)) return;
  if (u_pick(t_, w, "cast \"Lightning Bolt\"") < 0) return;
  if (u_pick(t_, w, "bob") < 0) return;
  if (u_pick(t_, w, "cast \"Test Twincast\"") < 0) return;
  u_pass(t_, w, 2); /* Test Twincast resolves: the copy is on top of the Bolt */
  mtg_game *g = w->game;
  uint32_t st[4];
  CHECK_INT(mtg_zone_objects(g, -1, MTG_Z_STACK, st, 4), 2);
  mtg_object o;
  CHECK_INT(mtg_object_info(g, st[0], &o), 0); /* bottom first: the cast Bolt */
  CHECK_STR(o.name, "Lightning Bolt");
  CHECK_INT(o.is_copy, 0);
  CHECK_INT(o.is_token, 0);
  CHECK(o.card >= 0);
  CHECK_INT(mtg_object_info(g, st[1], &o), 0);
  CHECK_STR(o.name, "Lightning Bolt");
  CHECK_INT(o.is_copy, 1);
  CHECK_INT(o.is_token, 0);
  CHECK_INT(o.zone, MTG_Z_STACK);
  /* a new object (707.10): from no setup entry, controlled by the player who
   * copied it, attached to nothing */
  CHECK_INT(o.card, -1);
  CHECK_INT(o.owner, w->alice);
  CHECK_INT(o.controller, w->alice);
  CHECK_INT(o.attached_player, -1);
}

const unit_test query_tests[] = {
    {"query_names_refuse_out_of_range_and_accept_aliases", query_names_refuse_out_of_range_and_accept_aliases},
    {"query_players_by_name_and_index", query_players_by_name_and_index},
    {"query_result_names_each_winner_and_loser", query_result_names_each_winner_and_loser},
    {"query_zone_objects_by_owner_and_controller", query_zone_objects_by_owner_and_controller},
    {"query_stack_objects_and_abilities", query_stack_objects_and_abilities},
    {"query_type_lines_and_counters", query_type_lines_and_counters},
    {"query_designations_of_battles_dungeons_and_sectors", query_designations_of_battles_dungeons_and_sectors},
    {"query_tells_a_copy_of_a_spell_from_the_spell", query_tells_a_copy_of_a_spell_from_the_spell},
    {NULL, NULL},
};
