/* test_cardtypes.c - unit tests of the card types behind state-based actions
 * 704.5s-704.5x through the public API: Sagas and chapter abilities (714),
 * dungeons and venturing (309, 701.49), sector designations (702.158) and
 * battles with their protectors (310). The harness's case format can't yet
 * give a battle's protector, a creature's sector or a dungeon's room, so the
 * cases needing them live here. Each expectation is derived from the rule
 * quoted in its comment. */
#include <stdlib.h>
#include <string.h>

#include "unit.h"

static const char *const test_cards =
    "- name: Test Sculptor\n"
    "  cost: \"{1}{U}\"\n"
    "  type: Creature — Human\n"
    "  pt: 1/1\n"
    "  keywords: [space_sculptor]\n"
    "- name: Test Battle\n"
    "  cost: \"{1}\"\n"
    "  type: Battle\n"
    "  defense: 3\n"
    "- name: Test Saga\n"
    "  cost: \"{1}\"\n"
    "  type: Enchantment — Saga\n"
    "  chapters:\n"
    "    - {chapter: 1, effect: [{gain_life: 1}]}\n"
    "    - {chapter: [2, 3], effect: [{gain_life: 2}]}\n";

/* the id of the first object named `name` in a zone (any player), or 0 */
static uint32_t find(const mtg_game *g, int zone, const char *name) {
  uint32_t ids[256];
  int n = 0;
  if (zone == MTG_Z_BATTLEFIELD || zone == MTG_Z_STACK || zone == MTG_Z_EXILE || zone == MTG_Z_COMMAND) {
    n = mtg_zone_objects(g, -1, zone, ids, 256);
  } else {
    for (int p = 0; p < mtg_game_players(g); p++) n += mtg_zone_objects(g, p, zone, ids + n, 256 - n);
  }
  for (int i = 0; i < n && i < 256; i++) {
    mtg_object o;
    if (mtg_object_info(g, ids[i], &o) == 0 && o.name && !strcmp(o.name, name)) return ids[i];
  }
  return 0;
}

static int stack_size(const mtg_game *g) { return mtg_zone_objects(g, -1, MTG_Z_STACK, NULL, 0); }

static int checked(unit_ctx *t_, u_world *w) {
  char why[512];
  if (mtg_game_check(w->game, why, sizeof why)) {
    unit_fail(t_, __FILE__, __LINE__, "invariant: %s", why);
    return -1;
  }
  return 0;
}

static int decision_kind(const mtg_game *g) {
  const mtg_decision *d = mtg_game_decision(g);
  return d ? d->kind : -1;
}

/* ---- Sagas (714) ---- */

TEST(saga_chapter_one_as_it_enters) {
  /* 714.3a: as a Saga enters, its controller puts a lore counter on it;
   * 122.6: that is putting a counter on it, so chapter I triggers (714.2b) */
  if (u_begin(t_, w, NULL)) return;
  for (int i = 0; i < 3; i++) u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Plains");
  u_card(t_, w, w->alice, MTG_Z_HAND, "History of Benalia");
  if (u_start(t_, w)) return;
  if (u_pick(t_, w, "cast \"History of Benalia\"") < 0) return;
  u_pass(t_, w, 2); /* the Saga resolves; chapter I goes on the stack */
  CHECK(u_logged(w->game, "enters_with obj=\"History of Benalia\""));
  CHECK(u_logged(w->game, "kind=lore n=1 rule=714.3a"));
  uint32_t saga = find(w->game, MTG_Z_BATTLEFIELD, "History of Benalia");
  CHECK(saga != 0);
  CHECK_INT(mtg_counters(w->game, saga, -1, "lore"), 1);
  CHECK_INT(stack_size(w->game), 1);
  u_pass(t_, w, 2);
  CHECK_INT(u_count_in(w->game, MTG_Z_BATTLEFIELD, "Knight"), 1);
  /* lore 1 < final chapter 3: not sacrificed (704.5s) */
  CHECK(!u_logged(w->game, "rule=704.5s"));
  CHECK_INT(u_zone_of(w->game, "History of Benalia"), MTG_Z_BATTLEFIELD);
  checked(t_, w);
}

TEST(saga_final_chapter_on_the_stack_keeps_it) {
  /* 714.3b: a lore counter as the precombat main phase begins; chapter III
   * triggers (714.2b). 704.5s: lore >= final chapter, but it is the source of a
   * chapter ability that has not left the stack: it stays. Once that ability
   * has resolved, it is sacrificed. */
  if (u_begin(t_, w, NULL)) return;
  int saga = u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "History of Benalia");
  mtg_setup_counters(w->setup, saga, "lore", 2);
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Grizzly Bears");
  u_card(t_, w, w->alice, MTG_Z_LIBRARY, "Plains");
  mtg_setup_start(w->setup, w->alice, 3, MTG_S_UPKEEP);
  if (u_start(t_, w)) return;
  u_pass(t_, w, 4); /* upkeep, draw: into the main phase */
  CHECK_INT(mtg_game_step(w->game), MTG_S_MAIN1);
  CHECK(u_logged(w->game, "kind=lore n=1 rule=714.3b"));
  uint32_t id = find(w->game, MTG_Z_BATTLEFIELD, "History of Benalia");
  CHECK(id != 0);
  CHECK_INT(mtg_counters(w->game, id, -1, "lore"), 3);
  CHECK_INT(stack_size(w->game), 1);
  CHECK(!u_logged(w->game, "rule=704.5s"));
  if (checked(t_, w)) return;
  u_pass(t_, w, 2); /* chapter III resolves */
  CHECK(u_logged(w->game, "sba rule=704.5s obj=\"History of Benalia\""));
  CHECK(u_logged(w->game, "sacrifice obj=\"History of Benalia\""));
  CHECK_INT(u_zone_of(w->game, "History of Benalia"), MTG_Z_GRAVEYARD);
  checked(t_, w);
}

TEST(saga_chapter_range) {
  /* 714.2c: "II, III" means a chapter II and a chapter III ability; 714.3b
   * takes the lore count from 1 to 2: only the chapter II ability triggers */
  if (u_begin(t_, w, test_cards)) return;
  int s = u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Test Saga");
  mtg_setup_counters(w->setup, s, "lore", 1);
  if (u_start(t_, w)) return;
  /* main1 began: 1 -> 2 lore: chapter 2 only */
  CHECK_INT(stack_size(w->game), 1);
  u_pass(t_, w, 2);
  CHECK_INT(u_life(w->game, w->alice), 22);
  CHECK_INT(u_zone_of(w->game, "Test Saga"), MTG_Z_BATTLEFIELD);
  checked(t_, w);
}

TEST(saga_without_chapters_is_not_sacrificed) {
  /* 704.5s applies to a Saga "with one or more chapter abilities"; a setup
   * Saga without lore counters given starts with one (714.3a) */
  if (u_begin(t_, w, test_cards)) return;
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Test Saga");
  mtg_setup_start(w->setup, w->alice, 3, MTG_S_MAIN2);
  if (u_start(t_, w)) return;
  uint32_t id = find(w->game, MTG_Z_BATTLEFIELD, "Test Saga");
  CHECK_INT(mtg_counters(w->game, id, -1, "lore"), 1);
  CHECK(!u_logged(w->game, "704.5s"));
  checked(t_, w);
}

/* ---- dungeons (309, 701.49) ---- */

TEST(venture_brings_a_dungeon_and_moves_down) {
  /* 701.49a: no dungeon: choose one from outside the game, marker on the
   * topmost room, whose room ability triggers (309.4c). 701.49b: then the
   * marker follows an arrow; with two the player chooses. */
  if (u_begin(t_, w, NULL)) return;
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Swamp");
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Swamp");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Fates' Reversal");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Fates' Reversal");
  u_card(t_, w, w->alice, MTG_Z_LIBRARY, "Plains");
  u_card(t_, w, w->alice, MTG_Z_LIBRARY, "Island");
  if (u_start(t_, w)) return;
  if (u_pick(t_, w, "cast \"Fates' Reversal\"") < 0) return;
  u_pass(t_, w, 2);
  CHECK_INT(decision_kind(w->game), MTG_D_NAME);
  if (u_pick(t_, w, "Lost Mine of Phandelver") < 0) return;
  CHECK(u_logged(w->game, "dungeon player=alice obj=\"Lost Mine of Phandelver\""));
  CHECK(u_logged(w->game, "room=1 name=\"Cave Entrance\" rule=309.4a"));
  uint32_t d = find(w->game, MTG_Z_COMMAND, "Lost Mine of Phandelver");
  CHECK(d != 0);
  mtg_object o;
  mtg_object_info(w->game, d, &o);
  CHECK_INT(o.room, 0);
  CHECK_INT(o.owner, w->alice);
  CHECK_INT(stack_size(w->game), 1); /* Cave Entrance: scry 1 */
  u_pass(t_, w, 2);
  CHECK_INT(decision_kind(w->game), MTG_D_CHOOSE); /* scry: Plains to the bottom? */
  if (u_pick(t_, w, "\"Plains\"") < 0) return;
  CHECK(u_logged(w->game, "scry player=alice n=1 top=0 bottom=1"));
  if (u_pick(t_, w, "cast \"Fates' Reversal\"") < 0) return;
  u_pass(t_, w, 2);
  CHECK_INT(decision_kind(w->game), MTG_D_WORD); /* Goblin Lair or Mine Tunnels */
  if (u_pick(t_, w, "Goblin Lair") < 0) return;
  CHECK(u_logged(w->game, "room=2 name=\"Goblin Lair\" rule=701.49b"));
  u_pass(t_, w, 2);
  CHECK_INT(u_count_in(w->game, MTG_Z_BATTLEFIELD, "Goblin"), 1);
  checked(t_, w);
}

TEST(dungeon_completed_after_its_last_room_ability) {
  /* 704.5t: marker on the bottommost room, but the room ability has not left
   * the stack: the dungeon stays. Afterwards it is removed: completed (309.7). */
  if (u_begin(t_, w, NULL)) return;
  int d = u_card(t_, w, w->alice, MTG_Z_COMMAND, "Lost Mine of Phandelver");
  CHECK_INT(mtg_setup_room(w->setup, d, "Dark Pool"), MTG_OK);
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Swamp");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Fates' Reversal");
  u_card(t_, w, w->alice, MTG_Z_LIBRARY, "Plains");
  if (u_start(t_, w)) return;
  if (u_pick(t_, w, "cast \"Fates' Reversal\"") < 0) return;
  u_pass(t_, w, 2);
  CHECK(u_logged(w->game, "name=\"Temple of Dumathoin\""));
  CHECK_INT(stack_size(w->game), 1);
  CHECK(find(w->game, MTG_Z_COMMAND, "Lost Mine of Phandelver") != 0);
  CHECK(!u_logged(w->game, "704.5t"));
  if (checked(t_, w)) return;
  u_pass(t_, w, 2); /* draw a card; then 704.5t */
  CHECK(u_logged(w->game, "sba rule=704.5t obj=\"Lost Mine of Phandelver\""));
  CHECK(u_logged(w->game, "complete player=alice"));
  CHECK(find(w->game, MTG_Z_COMMAND, "Lost Mine of Phandelver") == 0);
  mtg_player p;
  mtg_player_info(w->game, w->alice, &p);
  CHECK_INT(p.dungeons_completed, 1);
  CHECK_INT(p.hand, 1);
  checked(t_, w);
}

TEST(dungeon_outside_list_and_completion) {
  /* 704.5t at the first check: the marker starts on the bottommost room and
   * nothing waits; then venturing brings the only listed dungeon (309.2a):
   * no choice, and Trapped Entry makes each player lose 1 life */
  if (u_begin(t_, w, NULL)) return;
  int d = u_card(t_, w, w->alice, MTG_Z_COMMAND, "Lost Mine of Phandelver");
  CHECK_INT(mtg_setup_room(w->setup, d, "Temple of Dumathoin"), MTG_OK);
  CHECK_INT(mtg_setup_outside(w->setup, w->alice, "Tomb of Annihilation", &w->err), MTG_OK);
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Swamp");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Fates' Reversal");
  if (u_start(t_, w)) return;
  CHECK(u_logged(w->game, "sba rule=704.5t"));
  if (u_pick(t_, w, "cast \"Fates' Reversal\"") < 0) return;
  u_pass(t_, w, 2);
  CHECK(find(w->game, MTG_Z_COMMAND, "Tomb of Annihilation") != 0);
  u_pass(t_, w, 2);
  CHECK_INT(u_life(w->game, w->alice), 19);
  CHECK_INT(u_life(w->game, w->bob), 19);
  checked(t_, w);
}

TEST(dungeon_setup_rules) {
  /* 309.2c: dungeon cards are only in the command zone; 309.3: one per owner */
  if (u_begin(t_, w, NULL)) return;
  mtg_error e;
  CHECK(mtg_setup_card(w->setup, w->alice, MTG_Z_LIBRARY, "Lost Mine of Phandelver", &e) < 0);
  CHECK(strstr(e.msg, "309.2c") != NULL);
  int d = mtg_setup_card(w->setup, w->alice, MTG_Z_COMMAND, "Lost Mine of Phandelver", &e);
  CHECK(d >= 0);
  CHECK(mtg_setup_card(w->setup, w->alice, MTG_Z_COMMAND, "Tomb of Annihilation", &e) < 0);
  CHECK(mtg_setup_card(w->setup, w->bob, MTG_Z_COMMAND, "Tomb of Annihilation", &e) >= 0);
  CHECK(mtg_setup_room(w->setup, d, "Goblin Liar") < 0);
  CHECK_INT(mtg_setup_room(w->setup, d, "Goblin Lair"), MTG_OK);
}

/* ---- space sculptor (702.158) ---- */

TEST(sectors_chosen_without_sculptor_first) {
  /* 704.5u: players who control such creatures but no permanent with space
   * sculptor choose first (bob), then the others (alice, for both of hers) */
  if (u_begin(t_, w, test_cards)) return;
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Test Sculptor");
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Grizzly Bears");
  u_card(t_, w, w->bob, MTG_Z_BATTLEFIELD, "Grizzly Bears");
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Mountain");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Lightning Bolt");
  if (u_start(t_, w)) return;
  const mtg_decision *dd = mtg_game_decision(w->game);
  CHECK(dd && dd->kind == MTG_D_WORD);
  CHECK_INT(dd->player, w->bob);
  if (u_pick(t_, w, "gamma") < 0) return;
  dd = mtg_game_decision(w->game);
  CHECK(dd && dd->kind == MTG_D_WORD);
  CHECK_INT(dd->player, w->alice);
  if (u_pick(t_, w, "alpha") < 0) return;
  if (u_pick(t_, w, "beta") < 0) return;
  CHECK_INT(u_count_logged(w->game, "sba rule=704.5u"), 3);
  uint32_t ids[8];
  int n = mtg_zone_objects(w->game, w->bob, MTG_Z_BATTLEFIELD, ids, 8);
  CHECK_INT(n, 1);
  mtg_object o;
  mtg_object_info(w->game, ids[0], &o);
  CHECK_STR(o.sector, "gamma");
  if (checked(t_, w)) return;
  /* 702.158b: with no permanent with space sculptor left, designations lapse */
  if (u_pick(t_, w, "cast \"Lightning Bolt\"") < 0) return;
  if (u_pick(t_, w, "\"Test Sculptor\"") < 0) return;
  u_pass(t_, w, 2);
  CHECK_INT(u_zone_of(w->game, "Test Sculptor"), MTG_Z_GRAVEYARD);
  CHECK_INT(u_count_logged(w->game, "sector=none rule=702.158b"), 2);
  mtg_object_info(w->game, ids[0], &o);
  CHECK(o.sector == NULL);
  checked(t_, w);
}

TEST(sectors_only_with_a_sculptor) {
  /* 704.5u needs a permanent with space sculptor on the battlefield */
  if (u_begin(t_, w, NULL)) return;
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Grizzly Bears");
  if (u_start(t_, w)) return;
  CHECK_INT(decision_kind(w->game), MTG_D_PRIORITY);
  CHECK(!u_logged(w->game, "704.5u"));
}

/* ---- battles (310) ---- */

TEST(siege_enters_with_defense_and_protector) {
  /* 310.4b: enters with its printed defense in defense counters; 310.11a:
   * its controller chooses an opponent as its protector as it enters */
  if (u_begin(t_, w, NULL)) return;
  int carol = mtg_setup_player(w->setup, "carol", 20, 0);
  for (int i = 0; i < 3; i++) u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Plains");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Invasion of Dominaria");
  u_card(t_, w, w->alice, MTG_Z_LIBRARY, "Plains");
  if (u_start(t_, w)) return;
  if (u_pick(t_, w, "cast \"Invasion of Dominaria\"") < 0) return;
  u_pass(t_, w, 3);
  const mtg_decision *d = mtg_game_decision(w->game);
  CHECK(d && d->kind == MTG_D_PLAYER);
  CHECK_INT(d->n_options, 2); /* bob and carol, never alice */
  if (u_pick(t_, w, "carol") < 0) return;
  CHECK(u_logged(w->game, "kind=defense n=5 rule=310.4b"));
  CHECK(u_logged(w->game, "player=carol rule=310.11a"));
  uint32_t id = find(w->game, MTG_Z_BATTLEFIELD, "Invasion of Dominaria");
  CHECK(id != 0);
  mtg_object o;
  mtg_object_info(w->game, id, &o);
  CHECK_INT(o.protector, carol);
  CHECK_INT(mtg_counters(w->game, id, -1, "defense"), 5);
  u_pass(t_, w, 3); /* its enters trigger: gain 4, draw */
  CHECK_INT(u_life(w->game, w->alice), 24);
  checked(t_, w);
}

TEST(battle_attacked_defeated_cast_transformed) {
  /* 508.1b: a creature may attack a battle an opponent protects; 120.3h: its
   * combat damage removes defense counters; 310.11b: the last one removed
   * triggers; 704.5v: at defense 0 it stays while that ability has not left
   * the stack; it resolves: exiled, then cast transformed (712.11a), and the
   * spell resolves into the back face (712.13) */
  if (u_begin(t_, w, NULL)) return;
  int b = u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Invasion of Dominaria");
  CHECK_INT(mtg_setup_protector(w->setup, b, w->bob), MTG_OK);
  mtg_setup_counters(w->setup, b, "defense", 2);
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Grizzly Bears");
  mtg_setup_start(w->setup, w->alice, 3, MTG_S_BEGIN_COMBAT);
  if (u_start(t_, w)) return;
  u_pass(t_, w, 2);
  CHECK_INT(decision_kind(w->game), MTG_D_ATTACKERS);
  int opt = -1;
  const mtg_decision *d = mtg_game_decision(w->game);
  for (int i = 0; i < d->n_options; i++)
    if (strstr(d->options[i].label, "-> \"Invasion of Dominaria\"")) opt = i;
  CHECK(opt >= 0);
  mtg_answer a = {1, &opt};
  CHECK(mtg_game_decide(w->game, &a, &w->err) >= 0);
  CHECK(u_logged(w->game, "attacks obj=\"Grizzly Bears\""));
  u_pass(t_, w, 4); /* declare attackers step, blockers (bob has none), damage */
  CHECK(u_logged(w->game, "damage src=\"Grizzly Bears\""));
  uint32_t id = find(w->game, MTG_Z_BATTLEFIELD, "Invasion of Dominaria");
  CHECK(id != 0);
  CHECK_INT(mtg_counters(w->game, id, -1, "defense"), 0);
  CHECK_INT(stack_size(w->game), 1);
  CHECK(!u_logged(w->game, "704.5v"));
  if (checked(t_, w)) return;
  u_pass(t_, w, 2);
  CHECK_INT(decision_kind(w->game), MTG_D_MAY);
  if (u_pick(t_, w, "yes") < 0) return;
  CHECK(u_logged(w->game, "from=exile transformed=1 rule=712.11a"));
  u_pass(t_, w, 2);
  uint32_t sf = find(w->game, MTG_Z_BATTLEFIELD, "Serra Faithkeeper");
  CHECK(sf != 0);
  mtg_object o;
  mtg_object_info(w->game, sf, &o);
  CHECK_INT(o.power, 4);
  CHECK_INT(o.controller, w->alice);
  CHECK(!u_logged(w->game, "704.5v"));
  checked(t_, w);
}

TEST(battle_with_defense_left_stays) {
  /* 704.5v needs defense 0: 2 damage to a battle with 3 defense leaves 1 */
  if (u_begin(t_, w, NULL)) return;
  int b = u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Invasion of Dominaria");
  mtg_setup_protector(w->setup, b, w->bob);
  mtg_setup_counters(w->setup, b, "defense", 3);
  u_card(t_, w, w->bob, MTG_Z_BATTLEFIELD, "Mountain");
  u_card(t_, w, w->bob, MTG_Z_HAND, "Shock");
  if (u_start(t_, w)) return;
  u_pass(t_, w, 1); /* alice passes; bob shocks the battle */
  if (u_pick(t_, w, "cast \"Shock\"") < 0) return;
  if (u_pick(t_, w, "\"Invasion of Dominaria\"") < 0) return;
  u_pass(t_, w, 2);
  uint32_t id = find(w->game, MTG_Z_BATTLEFIELD, "Invasion of Dominaria");
  CHECK(id != 0);
  CHECK_INT(mtg_counters(w->game, id, -1, "defense"), 1);
  CHECK(!u_logged(w->game, "704.5v"));
  CHECK_INT(stack_size(w->game), 0);
  checked(t_, w);
}

TEST(battle_at_zero_defense_goes_to_graveyard) {
  /* 704.5v: defense 0, no waiting triggered ability: owner's graveyard */
  if (u_begin(t_, w, NULL)) return;
  int b = u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Invasion of Dominaria");
  mtg_setup_protector(w->setup, b, w->bob);
  mtg_setup_counters(w->setup, b, "defense", 0);
  if (u_start(t_, w)) return;
  CHECK(u_logged(w->game, "sba rule=704.5v obj=\"Invasion of Dominaria\""));
  CHECK_INT(u_zone_of(w->game, "Invasion of Dominaria"), MTG_Z_GRAVEYARD);
  checked(t_, w);
}

TEST(battle_without_protector_gets_one) {
  /* 704.5w: no protector and not attacked: its controller chooses an
   * appropriate player, for a Siege an opponent (310.11a) */
  if (u_begin(t_, w, NULL)) return;
  mtg_setup_player(w->setup, "carol", 20, 0);
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Invasion of Dominaria");
  if (u_start(t_, w)) return;
  const mtg_decision *d = mtg_game_decision(w->game);
  CHECK(d && d->kind == MTG_D_PLAYER && d->player == w->alice);
  CHECK(u_logged(w->game, "sba rule=704.5w obj=\"Invasion of Dominaria\""));
  if (u_pick(t_, w, "bob") < 0) return;
  CHECK(u_logged(w->game, "protector obj=\"Invasion of Dominaria\""));
  uint32_t id = find(w->game, MTG_Z_BATTLEFIELD, "Invasion of Dominaria");
  mtg_object o;
  mtg_object_info(w->game, id, &o);
  CHECK_INT(o.protector, w->bob);
  CHECK_INT(mtg_counters(w->game, id, -1, "defense"), 5); /* 310.4b by default */
  checked(t_, w);
}

TEST(typeless_battle_protected_by_its_controller) {
  /* 310.8a: a battle with no battle type is protected by its controller */
  if (u_begin(t_, w, test_cards)) return;
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Test Battle");
  if (u_start(t_, w)) return;
  CHECK(u_logged(w->game, "sba rule=704.5w"));
  uint32_t id = find(w->game, MTG_Z_BATTLEFIELD, "Test Battle");
  mtg_object o;
  mtg_object_info(w->game, id, &o);
  CHECK_INT(o.protector, w->alice);
  CHECK_INT(mtg_counters(w->game, id, -1, "defense"), 3);
  checked(t_, w);
}

TEST(siege_protected_by_its_controller) {
  /* 704.5x: a Siege's controller is its protector: choose an opponent */
  if (u_begin(t_, w, NULL)) return;
  int b = u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Invasion of Dominaria");
  mtg_setup_protector(w->setup, b, w->alice);
  if (u_start(t_, w)) return;
  CHECK(u_logged(w->game, "sba rule=704.5x obj=\"Invasion of Dominaria\""));
  uint32_t id = find(w->game, MTG_Z_BATTLEFIELD, "Invasion of Dominaria");
  mtg_object o;
  mtg_object_info(w->game, id, &o);
  CHECK_INT(o.protector, w->bob);
  checked(t_, w);
}

TEST(battle_attack_and_block_rules) {
  /* 310.8b: a battle's protector can never attack it; 509.1a: the protector
   * blocks creatures attacking a battle they protect */
  if (u_begin(t_, w, NULL)) return;
  int mine = u_card(t_, w, w->bob, MTG_Z_BATTLEFIELD, "Invasion of Dominaria");
  mtg_setup_protector(w->setup, mine, w->alice);   /* bob's Siege, alice protects */
  int theirs = u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Invasion of Dominaria");
  mtg_setup_protector(w->setup, theirs, w->bob);  /* alice's Siege, bob protects */
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Grizzly Bears");
  u_card(t_, w, w->bob, MTG_Z_BATTLEFIELD, "Llanowar Elves");
  mtg_setup_start(w->setup, w->alice, 3, MTG_S_BEGIN_COMBAT);
  if (u_start(t_, w)) return;
  u_pass(t_, w, 2);
  const mtg_decision *d = mtg_game_decision(w->game);
  CHECK(d && d->kind == MTG_D_ATTACKERS);
  CHECK_INT(d->n_options, 2); /* -> bob, -> the battle bob protects */
  int opt = -1;
  mtg_object o;
  for (int i = 0; i < d->n_options; i++)
    if (d->options[i].obj2 && mtg_object_info(w->game, d->options[i].obj2, &o) == 0) {
      CHECK_INT(o.controller, w->alice);
      opt = i;
    }
  CHECK(opt >= 0);
  mtg_answer a = {1, &opt};
  CHECK(mtg_game_decide(w->game, &a, &w->err) >= 0);
  u_pass(t_, w, 2);
  d = mtg_game_decision(w->game);
  CHECK(d && d->kind == MTG_D_BLOCKERS);
  CHECK_INT(d->player, w->bob);
  CHECK(u_find(w->game, "\"Llanowar Elves\"") >= 0);
  checked(t_, w);
}

TEST(battle_protector_leaves_while_attacked) {
  /* 704.5w: "no player in the game designated as its protector and no attacking
   * creatures are currently attacking that battle": carol, its protector, loses
   * (704.5a) and leaves the game (800.4a) while alice's Bears attack the battle,
   * so nothing happens until combat is over (511.3); then alice chooses bob,
   * her only opponent left */
  if (u_begin(t_, w, NULL)) return;
  int carol = mtg_setup_player(w->setup, "carol", 3, 0);
  int b = u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Invasion of Dominaria");
  CHECK_INT(mtg_setup_protector(w->setup, b, carol), MTG_OK);
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Grizzly Bears");
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Mountain");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Lightning Bolt");
  mtg_setup_start(w->setup, w->alice, 3, MTG_S_BEGIN_COMBAT);
  if (u_start(t_, w)) return;
  u_pass(t_, w, 3);
  const mtg_decision *d = mtg_game_decision(w->game);
  CHECK(d && d->kind == MTG_D_ATTACKERS);
  int opt = -1;
  for (int i = 0; i < d->n_options; i++)
    if (strstr(d->options[i].label, "-> \"Invasion of Dominaria\"")) opt = i;
  CHECK(opt >= 0);
  mtg_answer a = {1, &opt};
  CHECK(mtg_game_decide(w->game, &a, &w->err) >= 0);
  if (u_pick(t_, w, "cast \"Lightning Bolt\"") < 0) return;
  if (u_pick(t_, w, "carol") < 0) return;
  u_pass(t_, w, 3);
  CHECK(u_logged(w->game, "lose player=carol"));
  CHECK_INT(mtg_game_step(w->game), MTG_S_DECLARE_ATTACKERS);
  CHECK(!u_logged(w->game, "704.5w"));
  if (checked(t_, w)) return;
  u_pass(t_, w, 6); /* declare blockers, combat damage: into the end of combat step */
  CHECK(u_logged(w->game, "damage src=\"Grizzly Bears\""));
  CHECK_INT(mtg_game_step(w->game), MTG_S_END_COMBAT);
  CHECK(!u_logged(w->game, "704.5w")); /* 511.3: still attacking until that step ends */
  u_pass(t_, w, 2);
  CHECK_INT(mtg_game_step(w->game), MTG_S_MAIN2);
  CHECK(u_logged(w->game, "sba rule=704.5w obj=\"Invasion of Dominaria\""));
  uint32_t id = find(w->game, MTG_Z_BATTLEFIELD, "Invasion of Dominaria");
  mtg_object o;
  mtg_object_info(w->game, id, &o);
  CHECK_INT(o.protector, w->bob);
  CHECK_INT(mtg_counters(w->game, id, -1, "defense"), 3);
  checked(t_, w);
}

/* ---- the setup's text form and loader checks ---- */

TEST(setup_text_keeps_designations) {
  if (u_begin(t_, w, test_cards)) return;
  int b = u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Invasion of Dominaria");
  CHECK_INT(mtg_setup_protector(w->setup, b, w->bob), MTG_OK);
  int c = u_card(t_, w, w->bob, MTG_Z_BATTLEFIELD, "Grizzly Bears");
  CHECK_INT(mtg_setup_sector(w->setup, c, "beta"), MTG_OK);
  CHECK(mtg_setup_sector(w->setup, c, "delta") < 0);
  int d = u_card(t_, w, w->bob, MTG_Z_COMMAND, "Lost Mine of Phandelver");
  CHECK_INT(mtg_setup_room(w->setup, d, "Mine Tunnels"), MTG_OK);
  CHECK_INT(mtg_setup_outside(w->setup, w->alice, "Tomb of Annihilation", &w->err), MTG_OK);
  char t1[4096], t2[4096];
  int n = mtg_setup_write(w->setup, t1, sizeof t1);
  CHECK(n > 0 && n < (int)sizeof t1);
  CHECK(strstr(t1, "protector=bob") != NULL);
  CHECK(strstr(t1, "sector=beta") != NULL);
  CHECK(strstr(t1, "room=\"Mine Tunnels\"") != NULL);
  CHECK(strstr(t1, "outside alice \"Tomb of Annihilation\"") != NULL);
  mtg_setup *s2;
  CHECK_OK(mtg_setup_read(w->pool, "t", t1, &s2, &w->err), &w->err);
  mtg_setup_write(s2, t2, sizeof t2);
  mtg_setup_free(s2);
  CHECK_STR(t2, t1);
  if (u_start(t_, w)) return;
  uint32_t id = find(w->game, MTG_Z_COMMAND, "Lost Mine of Phandelver");
  mtg_object o;
  mtg_object_info(w->game, id, &o);
  CHECK_STR(o.room_name, "Mine Tunnels");
  checked(t_, w);
}

static int load_err(const char *yaml, char *msg, size_t n) {
  mtg_pool *p;
  mtg_error e;
  memset(&e, 0, sizeof e);
  if (mtg_pool_new(&p, NULL) < 0) return -1;
  int rc = mtg_pool_load_buffer(p, "bad.yaml", yaml, strlen(yaml), &e);
  mtg_pool_free(p);
  snprintf(msg, n, "%s", e.msg);
  return rc;
}

TEST(loader_checks_card_types) {
  char m[1024];
  CHECK(load_err("- {name: A, type: Enchantment, chapters: [{chapter: 1, effect: [{draw: 1}]}]}\n", m, sizeof m) < 0);
  CHECK(strstr(m, "Saga") != NULL);
  CHECK(load_err("- {name: A, type: Battle — Siege}\n", m, sizeof m) < 0);
  CHECK(strstr(m, "defense") != NULL);
  CHECK(load_err("- {name: A, type: Creature, pt: 1/1, defense: 2}\n", m, sizeof m) < 0);
  CHECK(load_err("- {name: D, type: Dungeon, rooms: [{name: Top, effect: [{draw: 1}], next: Botom}, "
                 "{name: Bottom, effect: [{draw: 1}]}]}\n",
                 m, sizeof m) < 0);
  CHECK(strstr(m, "did you mean 'Bottom'") != NULL);
  CHECK(load_err("- {name: D, type: Dungeon, rooms: [{name: Top, effect: [{draw: 1}]}, "
                 "{name: Bottom, effect: [{draw: 1}], next: Top}]}\n",
                 m, sizeof m) < 0);
  CHECK(load_err("- {name: A, type: Creature, pt: 1/1, keywords: [space_sculpter]}\n", m, sizeof m) < 0);
  CHECK(strstr(m, "space_sculptor") != NULL);
  CHECK(load_err("- {name: A, type: Sorcery, spell: {effect: [{venturre: you}]}}\n", m, sizeof m) < 0);
  CHECK(strstr(m, "venture") != NULL);
}

const unit_test cardtype_tests[] = {
    {"saga_chapter_one_as_it_enters", saga_chapter_one_as_it_enters},
    {"saga_final_chapter_on_the_stack_keeps_it", saga_final_chapter_on_the_stack_keeps_it},
    {"saga_chapter_range", saga_chapter_range},
    {"saga_without_chapters_is_not_sacrificed", saga_without_chapters_is_not_sacrificed},
    {"venture_brings_a_dungeon_and_moves_down", venture_brings_a_dungeon_and_moves_down},
    {"dungeon_completed_after_its_last_room_ability", dungeon_completed_after_its_last_room_ability},
    {"dungeon_outside_list_and_completion", dungeon_outside_list_and_completion},
    {"dungeon_setup_rules", dungeon_setup_rules},
    {"sectors_chosen_without_sculptor_first", sectors_chosen_without_sculptor_first},
    {"sectors_only_with_a_sculptor", sectors_only_with_a_sculptor},
    {"siege_enters_with_defense_and_protector", siege_enters_with_defense_and_protector},
    {"battle_attacked_defeated_cast_transformed", battle_attacked_defeated_cast_transformed},
    {"battle_with_defense_left_stays", battle_with_defense_left_stays},
    {"battle_at_zero_defense_goes_to_graveyard", battle_at_zero_defense_goes_to_graveyard},
    {"battle_without_protector_gets_one", battle_without_protector_gets_one},
    {"typeless_battle_protected_by_its_controller", typeless_battle_protected_by_its_controller},
    {"siege_protected_by_its_controller", siege_protected_by_its_controller},
    {"battle_attack_and_block_rules", battle_attack_and_block_rules},
    {"battle_protector_leaves_while_attacked", battle_protector_leaves_while_attacked},
    {"setup_text_keeps_designations", setup_text_keeps_designations},
    {"loader_checks_card_types", loader_checks_card_types},
    {NULL, NULL},
};
