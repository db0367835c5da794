/* test_api.c - unit tests of the API around the rules: names, error
 * formatting, the setup's text form, misuse refused with MTG_EARG, the event
 * log (committed part, dropping, totals), state hashes and queries. */
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "mtg_private.h"

TEST(zone_and_step_names_round_trip) {
  for (int z = 0; z < MTG_Z_COUNT; z++) CHECK_INT(mtg_zone_parse(mtg_zone_name(z)), z);
  for (int s = 0; s < MTG_S_COUNT; s++) CHECK_INT(mtg_step_parse(mtg_step_name(s)), s);
  CHECK_STR(mtg_zone_name(MTG_Z_BATTLEFIELD), "battlefield");
  CHECK_STR(mtg_step_name(MTG_S_DECLARE_ATTACKERS), "declare_attackers");
  CHECK_INT(mtg_zone_parse("nowhere"), -1);
  CHECK_INT(mtg_step_parse("teatime"), -1);
}

TEST(error_format_shows_location_and_caret) {
  mtg_error e;
  memset(&e, 0, sizeof e);
  mtg_error_set(&e, MTG_EDATA, "unknown key '%s'", "cots");
  CHECK_INT(e.status, MTG_EDATA);
  snprintf(e.file, sizeof e.file, "cards.yaml");
  e.line = 3;
  e.col = 5;
  snprintf(e.source, sizeof e.source, "    cots: 1");
  char b[2048];
  mtg_error_format(&e, b, sizeof b);
  CHECK(strstr(b, "cards.yaml:3:5: unknown key 'cots'") == b);
  CHECK(strstr(b, "    cots: 1") != NULL);
  /* the caret sits under column 5 of the quoted line */
  const char *src = strstr(b, "    cots: 1\n");
  CHECK(src != NULL);
  const char *caret = strchr(src, '\n') + 1;
  CHECK(strchr(caret, '^') != NULL);
  const char *line = src;
  while (line > b && line[-1] != '\n') line--;
  CHECK_INT(strchr(caret, '^') - caret, (src - line) + 4);
  char small[8];
  mtg_error_format(&e, small, sizeof small); /* truncates, terminated */
  CHECK(strlen(small) < sizeof small);
  mtg_error_set(NULL, MTG_EDATA, "no error struct: %d", 1); /* allowed */
}

TEST(setup_text_round_trips) {
  if (u_begin(t_, w, NULL)) return;
  int e1 = u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Grizzly Bears");
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Forest");
  u_card(t_, w, w->bob, MTG_Z_HAND, "Lightning Bolt");
  u_card(t_, w, w->bob, MTG_Z_LIBRARY, "Mountain");
  CHECK_INT(mtg_setup_tapped(w->setup, e1, 1), 0);
  CHECK_INT(mtg_setup_damage(w->setup, e1, 1), 0);
  CHECK_INT(mtg_setup_counters(w->setup, e1, "+1/+1", 2), 0);
  mtg_setup_seed(w->setup, 12345);
  int need = mtg_setup_write(w->setup, NULL, 0);
  CHECK(need > 0);
  char *a = malloc((size_t)need + 1), *b = NULL;
  CHECK(a != NULL);
  CHECK_INT(mtg_setup_write(w->setup, a, (size_t)need + 1), need);
  mtg_setup *back = NULL;
  mtg_error e;
  int rc = mtg_setup_read(w->pool, "setup.txt", a, &back, &e);
  int need2 = rc < 0 ? -1 : mtg_setup_write(back, NULL, 0);
  if (need2 > 0 && (b = malloc((size_t)need2 + 1))) mtg_setup_write(back, b, (size_t)need2 + 1);
  uint64_t h1 = 0, h2 = 1;
  mtg_game *g1 = NULL, *g2 = NULL;
  if (rc >= 0 && mtg_game_new(&g1, w->setup, &e) >= 0 && mtg_game_new(&g2, back, &e) >= 0) {
    h1 = mtg_game_hash(g1);
    h2 = mtg_game_hash(g2);
  }
  int same = b && !strcmp(a, b);
  mtg_game_free(g1);
  mtg_game_free(g2);
  mtg_setup_free(back);
  free(a);
  free(b);
  CHECK_OK(rc, &e);
  CHECK(same);
  CHECK(h1 == h2);
}

TEST(setup_text_errors_are_located) {
  if (u_begin(t_, w, NULL)) return;
  int need = mtg_setup_write(w->setup, NULL, 0);
  CHECK(need > 0);
  char *a = malloc((size_t)need + 64);
  CHECK(a != NULL);
  mtg_setup_write(w->setup, a, (size_t)need + 1);
  strcat(a, "bogus record here\n");
  mtg_setup *back = NULL;
  mtg_error e;
  memset(&e, 0, sizeof e);
  int rc = mtg_setup_read(w->pool, "s.txt", a, &back, &e);
  free(a);
  mtg_setup_free(back);
  CHECK(rc < 0);
  CHECK(back == NULL);
  CHECK_STR(e.file, "s.txt");
  CHECK(e.line > 1);
}

TEST(misuse_is_earg) {
  if (u_begin(t_, w, NULL)) return;
  u_card(t_, w, w->alice, MTG_Z_LIBRARY, "Forest");
  if (u_start(t_, w)) return;
  mtg_error e;
  /* a misused call says what is wrong, in the error as well as the status */
  CHECK_INT(mtg_game_decide(w->game, NULL, &e), MTG_EARG);
  CHECK_INT(e.status, MTG_EARG);
  CHECK(strstr(e.msg, "mtg_game_decide: the answer is NULL") != NULL);
  mtg_answer bad = {1, NULL};
  CHECK_INT(mtg_game_decide(w->game, &bad, &e), MTG_EARG);
  CHECK(strstr(e.msg, "mtg_game_decide: the answer has a count and no values") != NULL);
  mtg_answer negative = {-1, NULL};
  CHECK_INT(mtg_game_decide(w->game, &negative, &e), MTG_EARG);
  CHECK(strstr(e.msg, "mtg_game_decide: the answer's count is negative") != NULL);
  int one = 0;
  mtg_answer negative_with_values = {-1, &one};
  CHECK_INT(mtg_game_decide(w->game, &negative_with_values, &e), MTG_EARG);
  CHECK(strstr(e.msg, "the answer's count is negative") != NULL);
  CHECK(mtg_player_info(w->game, 7, &(mtg_player){0}) < 0);
  CHECK(mtg_object_info(w->game, 999999, &(mtg_object){0}) < 0);
  CHECK_INT(mtg_player_find(w->game, "bob"), w->bob);
  CHECK_INT(mtg_player_find(w->game, "mallory"), -1);
  CHECK(mtg_setup_card(w->setup, 9, MTG_Z_HAND, "Forest", &e) < 0);
  CHECK(mtg_setup_card(w->setup, 0, 42, "Forest", &e) < 0);
}

TEST(one_player_is_not_a_game) {
  mtg_pool *p;
  CHECK_INT(mtg_pool_new(&p, NULL), 0);
  w->base = w->pool = p;
  mtg_setup *s = mtg_setup_new(p);
  CHECK(s != NULL);
  w->setup = s;
  mtg_setup_player(s, "solo", 20, 0);
  mtg_game *g = NULL;
  int rc = mtg_game_new(&g, s, &w->err);
  mtg_game_free(g);
  CHECK(rc < 0);
  CHECK(g == NULL);
  CHECK(mtg_setup_player(s, "b", 20, 0) >= 0);
  CHECK(mtg_setup_player(s, "c", 20, 0) >= 0);
  CHECK(mtg_setup_player(s, "d", 20, 0) >= 0);
  CHECK(mtg_setup_player(s, "e", 20, 0) < 0); /* 4 players at most */
}

TEST(decide_after_game_over_is_earg) {
  if (u_begin(t_, w, NULL)) return;
  /* bob must draw from an empty library on his turn: alice wins */
  mtg_setup_start(w->setup, w->bob, 1, MTG_S_UPKEEP);
  u_card(t_, w, w->alice, MTG_Z_LIBRARY, "Forest");
  if (u_start(t_, w)) return;
  u_pass(t_, w, 10);
  CHECK_INT(mtg_game_status(w->game), MTG_OVER);
  CHECK(mtg_game_decision(w->game) == NULL);
  /* nothing pending: nothing wrong with it (mtg.h) */
  char why[64] = "";
  CHECK_INT(mtg_decision_check(w->game, why, sizeof why), 0);
  CHECK_STR(why, "");
  int z = 0;
  mtg_answer a = {1, &z};
  CHECK_INT(mtg_game_decide(w->game, &a, &w->err), MTG_EARG);
  CHECK_INT(w->err.status, MTG_EARG);
  CHECK_STR(w->err.msg, "the game is not waiting for a decision");
  mtg_result r;
  mtg_game_result(w->game, &r);
  CHECK(r.over && !r.stopped && !r.draw);
  CHECK_INT(r.winners, 1u << w->alice);
  CHECK(u_logged(w->game, "704.5b"));
}

/* Plays a game whose libraries hold `forests` cards each by passing until it
 * ends, and checks that it stopped (not over by the rules: no winner, no draw)
 * with the log line `game_over`. A helper of the tests below: on a failure it
 * records it and the test's next CHECK sees t_->failed. */
static void stopped_with(unit_ctx *t_, u_world *w, int forests, const char *game_over) {
  for (int i = 0; i < forests; i++) {
    u_card(t_, w, w->alice, MTG_Z_LIBRARY, "Forest");
    u_card(t_, w, w->bob, MTG_Z_LIBRARY, "Forest");
  }
  if (u_start(t_, w)) return;
  u_pass(t_, w, 200);
  CHECK_INT(mtg_game_status(w->game), MTG_OVER);
  mtg_result r;
  mtg_game_result(w->game, &r);
  CHECK(r.stopped);
  CHECK(!r.draw);
  CHECK_INT(r.winners, 0);
  CHECK(u_logged(w->game, game_over));
  CHECK_INT(u_count_logged(w->game, "game_over"), 1);
}

/* mtg_setup_max_turns: the game stops when the turn after the limit would
 * begin, as stopped, and the log says which turn was the last */
TEST(turn_limit_stops_the_game) {
  if (u_begin(t_, w, NULL)) return;
  CHECK_INT(mtg_setup_max_turns(w->setup, 4), 0);
  stopped_with(t_, w, 4, "game_over result=stopped reason=turn_limit turn=4");
  if (t_->failed) return;
  CHECK(u_logged(w->game, "turn n=4 player=bob"));
  CHECK(!u_logged(w->game, "turn n=5"));
}

/* The turn number stays in the engine's range (num.h): a game whose turn is
 * MTG_NUM_MAX stops when the next turn would begin, as at a turn limit, with
 * a log line the invariant checker accepts (not a decision) and no turn
 * numbered past it */
TEST(turn_number_at_its_maximum_stops_the_game) {
  if (u_begin(t_, w, NULL)) return;
  CHECK_INT(mtg_setup_start(w->setup, w->alice, MTG_NUM_MAX, MTG_S_MAIN1), 0);
  stopped_with(t_, w, 2, "game_over result=stopped reason=turn_limit turn=2147483647");
  if (t_->failed) return;
  CHECK(!u_logged(w->game, "turn n=-"));
  CHECK(!u_logged(w->game, "step name=untap player=bob"));
  char why[256] = "";
  CHECK_INT(mtg_game_check(w->game, why, sizeof why), 0);
  CHECK_STR(why, "");
}

TEST(log_is_committed_and_droppable) {
  if (u_begin(t_, w, NULL)) return;
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Mountain");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Lightning Bolt");
  for (int i = 0; i < 3; i++) {
    u_card(t_, w, w->alice, MTG_Z_LIBRARY, "Forest");
    u_card(t_, w, w->bob, MTG_Z_LIBRARY, "Forest");
  }
  if (u_start(t_, w)) return;
  CHECK(mtg_log_count(w->game) > 0);
  CHECK(!strncmp(mtg_log_line(w->game, 0), "game_start ", 11));
  u_pass(t_, w, 6);
  int n = mtg_log_count(w->game), c = mtg_log_committed(w->game);
  long total = mtg_log_total(w->game);
  CHECK(c <= n);
  CHECK(total == n);
  int decisions = 0;
  for (int i = 0; i < n; i++) decisions += mtg_log_is_decision(w->game, i) != 0;
  CHECK(decisions >= 6);
  CHECK(mtg_log_line(w->game, n) == NULL);
  CHECK(mtg_log_line(w->game, -1) == NULL);
  char last[512];
  snprintf(last, sizeof last, "%s", mtg_log_line(w->game, n - 1));
  mtg_log_drop(w->game, c);
  CHECK_INT(mtg_log_count(w->game), n - c);
  CHECK_INT(mtg_log_total(w->game), total);
  if (n > c) CHECK_STR(mtg_log_line(w->game, n - c - 1), last);
  u_pass(t_, w, 2); /* the game goes on after dropping */
  CHECK(mtg_log_total(w->game) > total);
}

TEST(hash_tracks_state) {
  if (u_begin(t_, w, NULL)) return;
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Mountain");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Lightning Bolt");
  if (u_start(t_, w)) return;
  uint64_t h0 = mtg_game_hash(w->game);
  CHECK(h0 == mtg_game_hash(w->game));
  if (u_pick(t_, w, "cast \"Lightning Bolt\"") < 0) return;
  if (u_pick(t_, w, "bob") < 0) return;
  uint64_t h1 = mtg_game_hash(w->game);
  CHECK(h1 != h0);
  u_pass(t_, w, 2);
  CHECK(mtg_game_hash(w->game) != h1);
}

TEST(decision_find_matches_whole_labels) {
  if (u_begin(t_, w, NULL)) return;
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Mountain");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Lightning Bolt");
  if (u_start(t_, w)) return;
  const mtg_decision *d = mtg_game_decision(w->game);
  CHECK(d != NULL);
  CHECK_INT(d->kind, MTG_D_PRIORITY);
  CHECK_STR(d->kind_name, "priority");
  CHECK_INT(d->player, w->alice);
  int p = mtg_decision_find(d, "pass");
  CHECK(p >= 0);
  CHECK_INT(d->options[p].kind, MTG_O_PASS);
  CHECK_INT(mtg_decision_find(d, "pas"), -1);
  int c = u_find(w->game, "cast \"Lightning Bolt\"");
  CHECK(c >= 0);
  CHECK_INT(d->options[c].kind, MTG_O_CAST);
  CHECK_INT(mtg_decision_find(d, d->options[c].label), c);
}

TEST(queries_describe_objects) {
  if (u_begin(t_, w, NULL)) return;
  int e = u_card(t_, w, w->bob, MTG_Z_BATTLEFIELD, "Grizzly Bears");
  mtg_setup_tapped(w->setup, e, 1);
  mtg_setup_counters(w->setup, e, "+1/+1", 1);
  u_card(t_, w, w->alice, MTG_Z_HAND, "Lightning Bolt");
  if (u_start(t_, w)) return;
  uint32_t ids[4];
  CHECK_INT(mtg_zone_objects(w->game, w->bob, MTG_Z_BATTLEFIELD, ids, 4), 1);
  mtg_object o;
  CHECK_INT(mtg_object_info(w->game, ids[0], &o), 0);
  CHECK_STR(o.name, "Grizzly Bears");
  CHECK_INT(o.zone, MTG_Z_BATTLEFIELD);
  CHECK_INT(o.owner, w->bob);
  CHECK_INT(o.controller, w->bob);
  CHECK_INT(o.power, 3);
  CHECK_INT(o.toughness, 3);
  CHECK(o.tapped);
  CHECK_INT(mtg_counters(w->game, ids[0], -1, "+1/+1"), 1);
  CHECK(strstr(o.types, "Creature") != NULL);
  CHECK_INT(mtg_zone_objects(w->game, w->alice, MTG_Z_HAND, ids, 4), 1);
  mtg_player pl;
  CHECK_INT(mtg_player_info(w->game, w->alice, &pl), 0);
  CHECK_STR(pl.name, "alice");
  CHECK_INT(pl.hand, 1);
  CHECK_INT(pl.life, 20);
  CHECK_INT(mtg_game_players(w->game), 2);
  CHECK_INT(mtg_game_turn(w->game), 3);
  CHECK_INT(mtg_game_step(w->game), MTG_S_MAIN1);
  CHECK_INT(mtg_game_active(w->game), w->alice);
}

TEST(game_objects_list_every_object_and_its_card) {
  /* mtg_game_objects: every object in every zone with its physical card id,
   * the same as mtg_object_info's */
  if (u_begin(t_, w, NULL)) return;
  u_card(t_, w, w->bob, MTG_Z_BATTLEFIELD, "Grizzly Bears");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Lightning Bolt");
  u_card(t_, w, w->alice, MTG_Z_LIBRARY, "Forest");
  u_card(t_, w, w->bob, MTG_Z_GRAVEYARD, "Shock");
  if (u_start(t_, w)) return;
  uint32_t ids[8];
  int cards[8];
  int n = mtg_game_objects(w->game, ids, cards, 8);
  CHECK_INT(n, 4);
  int seen = 0;
  for (int i = 0; i < n && i < 8; i++) {
    mtg_object o;
    CHECK_INT(mtg_object_info(w->game, ids[i], &o), 0);
    CHECK_INT(cards[i], o.card);
    CHECK(cards[i] >= 0 && cards[i] < 4);
    seen |= 1 << cards[i];
  }
  CHECK_INT(seen, 15); /* setup entries 0-3 are the physical cards */
  CHECK_INT(mtg_game_objects(w->game, ids, cards, 2), 4); /* the count even when more than max */
}

/* Plays Lightning Bolt at bob under a work budget; returns the status of the
 * last decision (bob's pass that lets it resolve), fills *lines with the
 * log's total and *same with whether a refused pass left the game as it was. */
static int bolt_under_budget(u_world *w, long budget, long *lines, int *same) {
  mtg_setup_work_budget(w->setup, budget);
  mtg_game *g = NULL;
  mtg_error e;
  int rc = mtg_game_new(&g, w->setup, &e);
  int pick[3] = {-1, -1, -1};
  const char *want[3] = {"cast \"Lightning Bolt\"", "bob", "pass"};
  for (int k = 0; k < 3 && rc == MTG_DECISION; k++) {
    pick[k] = u_find(g, want[k]);
    mtg_answer a = {1, &pick[k]};
    rc = pick[k] < 0 ? MTG_EARG : mtg_game_decide(g, &a, &e);
  }
  uint64_t before = rc == MTG_DECISION ? mtg_game_hash(g) : 0;
  int who = rc == MTG_DECISION ? mtg_game_decision(g)->player : -1;
  if (rc == MTG_DECISION) {
    int k = u_find(g, "pass");
    mtg_answer a = {1, &k};
    rc = mtg_game_decide(g, &a, &e); /* bob passes: the bolt resolves */
  }
  *lines = g ? mtg_log_total(g) : 0;
  *same = g && mtg_game_status(g) == MTG_DECISION && mtg_game_hash(g) == before &&
          mtg_game_decision(g)->player == who && mtg_game_decision(g)->kind == MTG_D_PRIORITY;
  if (rc == MTG_ELIMIT && !strstr(e.msg, "work budget")) rc = MTG_EINTERNAL;
  mtg_game_free(g);
  return rc;
}

TEST(work_budget_stops_a_game_at_its_limit) {
  /* the budget counts every line of the log, events and decisions: a game
   * that logs exactly the budget runs, one line more stops with MTG_ELIMIT
   * naming the budget, back at the decision it was waiting for */
  if (u_begin(t_, w, NULL)) return;
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Mountain");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Lightning Bolt");
  long free_lines, lines;
  int same;
  CHECK_INT(bolt_under_budget(w, 0, &free_lines, &same), MTG_DECISION);
  CHECK(free_lines > 10);
  CHECK_INT(bolt_under_budget(w, free_lines, &lines, &same), MTG_DECISION);
  CHECK_INT(lines, free_lines);
  CHECK_INT(bolt_under_budget(w, free_lines - 1, &lines, &same), MTG_ELIMIT);
  CHECK(same);
  CHECK(lines < free_lines);
  /* a game that can't reach its first decision within the budget is not made */
  mtg_setup_work_budget(w->setup, 1);
  mtg_game *g = (mtg_game *)1;
  CHECK_INT(mtg_game_new(&g, w->setup, &w->err), MTG_ELIMIT);
  CHECK(g == NULL);
  CHECK(strstr(w->err.msg, "work budget") != NULL);
}

/* Every function of mtg.h given NULL where it needs an object, or an index
 * out of range: MTG_EARG (with a message where it has an error struct), NULL,
 * -1 or nothing done, as mtg.h says; never a crash (this runs under ASan). */
TEST(every_function_refuses_null_and_out_of_range) {
  if (u_begin(t_, w, NULL)) return;
  u_card(t_, w, w->alice, MTG_Z_LIBRARY, "Forest");
  if (u_start(t_, w)) return;
  mtg_error e;
  char b[64] = "x";
  uint32_t ids[4];
  int cards[4];
  mtg_player pl;
  mtg_object ob;
  mtg_result res;
  mtg_setup *s = w->setup, *so = (mtg_setup *)1;
  mtg_game *g = (mtg_game *)1;
  mtg_error_format(NULL, b, sizeof b);
  CHECK(strcmp(b, "no error") == 0);
  mtg_error_format(&e, NULL, 10);
  CHECK_INT(mtg_zone_parse(NULL), -1);
  CHECK_INT(mtg_step_parse(NULL), -1);
  CHECK(strcmp(mtg_zone_name(-1), "none") == 0 && strcmp(mtg_zone_name(MTG_Z_COUNT), "none") == 0);
  CHECK(strcmp(mtg_step_name(-1), "none") == 0 && strcmp(mtg_step_name(MTG_S_COUNT), "none") == 0);
  /* pool */
  CHECK_INT(mtg_pool_new(NULL, NULL), MTG_EARG);
  mtg_pool_free(NULL);
  CHECK_INT(mtg_pool_load_file(NULL, "x", &e), MTG_EARG);
  CHECK(strstr(e.msg, "pool is NULL") != NULL);
  CHECK_INT(mtg_pool_load_file(w->pool, NULL, &e), MTG_EARG);
  CHECK_INT(mtg_pool_load_dir(NULL, "x", &e), MTG_EARG);
  CHECK_INT(mtg_pool_load_dir(w->pool, NULL, &e), MTG_EARG);
  CHECK_INT(mtg_pool_max_file_size(NULL, 1, &e), MTG_EARG);
  CHECK_INT(mtg_pool_load_buffer(NULL, "n", "x", 1, &e), MTG_EARG);
  CHECK_INT(mtg_pool_load_buffer(w->pool, NULL, "x", 1, &e), MTG_EARG);
  CHECK_INT(mtg_pool_load_buffer(w->pool, "n", NULL, 1, &e), MTG_EARG);
  CHECK(strstr(e.msg, "text is NULL") != NULL);
  CHECK_INT(mtg_pool_count(NULL), MTG_EARG);
  CHECK(mtg_pool_name(NULL, 0) == NULL);
  CHECK(mtg_pool_name(w->pool, -1) == NULL);
  CHECK(mtg_pool_name(w->pool, mtg_pool_count(w->pool)) == NULL);
  CHECK_INT(mtg_pool_has(NULL, "Forest"), 0);
  CHECK_INT(mtg_pool_has(w->pool, NULL), 0);
  CHECK_INT(mtg_pool_has_token(NULL, "x"), 0);
  CHECK_INT(mtg_pool_has_token(w->pool, NULL), 0);
  strcpy(b, "x");
  mtg_pool_suggest(NULL, "Forst", b, sizeof b);
  CHECK_INT(b[0], 0);
  mtg_pool_suggest(w->pool, NULL, b, sizeof b);
  mtg_pool_suggest(w->pool, "Forst", NULL, 10);
  (void)mtg_pool_hash(NULL);
  CHECK(mtg_pool_card_text(NULL, "Forest") == NULL);
  CHECK(mtg_pool_card_text(w->pool, NULL) == NULL);
  CHECK(mtg_pool_card_name(NULL, "Forest") == NULL);
  CHECK(mtg_pool_card_name(w->pool, NULL) == NULL);
  /* setup */
  mtg_setup_free(NULL);
  CHECK(mtg_setup_error(NULL) != NULL);
  CHECK_INT(mtg_setup_player(NULL, "a", 20, 0), MTG_EARG);
  CHECK_INT(mtg_setup_player(s, NULL, 20, 0), MTG_EARG);
  CHECK_INT(mtg_setup_seed(NULL, 1), MTG_EARG);
  CHECK_INT(mtg_setup_start(NULL, 0, 1, 0), MTG_EARG);
  CHECK_INT(mtg_setup_start(s, 0, 1, 99), MTG_EARG);
  CHECK_INT(mtg_setup_start(s, 0, 1, -1), MTG_EARG);
  CHECK_INT(mtg_setup_start(s, 9, 1, 0), MTG_EARG);
  CHECK_INT(mtg_setup_opening_hand(NULL, 7), MTG_EARG);
  CHECK_INT(mtg_setup_opening_hand(s, -1), MTG_EARG);
  CHECK_INT(mtg_setup_shuffle(NULL, 1), MTG_EARG);
  CHECK_INT(mtg_setup_max_turns(NULL, 1), MTG_EARG);
  CHECK_INT(mtg_setup_max_turns(s, -1), MTG_EARG);
  CHECK_INT(mtg_setup_work_budget(NULL, 1), MTG_EARG);
  CHECK_INT(mtg_setup_search_budget(NULL, 1), MTG_EARG);
  CHECK_INT(mtg_setup_search_budget(s, -1), MTG_EARG);
  CHECK_INT(mtg_setup_search_budget(s, 2000000001), MTG_EARG);
  CHECK_INT(mtg_setup_search_budget(s, 2000000000), MTG_OK);
  CHECK_INT(mtg_setup_search_budget(s, 0), MTG_OK);
  CHECK_INT(mtg_setup_card(NULL, 0, 0, "Forest", &e), MTG_EARG);
  CHECK_INT(mtg_setup_card(s, 0, 0, NULL, &e), MTG_EARG);
  CHECK_INT(mtg_setup_tapped(NULL, 0, 1), MTG_EARG);
  CHECK_INT(mtg_setup_sick(NULL, 0, 1), MTG_EARG);
  CHECK_INT(mtg_setup_damage(NULL, 0, 1), MTG_EARG);
  CHECK_INT(mtg_setup_counters(NULL, 0, "x", 1), MTG_EARG);
  CHECK_INT(mtg_setup_counters(s, 0, NULL, 1), MTG_EARG);
  CHECK_INT(mtg_setup_controller(NULL, 0, 1), MTG_EARG);
  CHECK_INT(mtg_setup_attach(NULL, 0, 1), MTG_EARG);
  CHECK_INT(mtg_setup_attach_player(NULL, 0, 1), MTG_EARG);
  CHECK_INT(mtg_setup_choice(NULL, 0, "a", "b"), MTG_EARG);
  CHECK_INT(mtg_setup_choice(s, 0, NULL, NULL), MTG_EARG);
  CHECK_INT(mtg_setup_face_down(NULL, 0, 1), MTG_EARG);
  CHECK_INT(mtg_setup_transformed(NULL, 0, 1), MTG_EARG);
  CHECK_INT(mtg_setup_exiled_with(NULL, 0, 1, "x"), MTG_EARG);
  CHECK_INT(mtg_setup_player_counters(NULL, 0, "x", 1), MTG_EARG);
  CHECK_INT(mtg_setup_player_counters(s, 0, NULL, 1), MTG_EARG);
  CHECK_INT(mtg_setup_lands_played(NULL, 0, 1), MTG_EARG);
  CHECK_INT(mtg_setup_mana(NULL, 0, "{R}"), MTG_EARG);
  CHECK_INT(mtg_setup_token(NULL, 0, 1), MTG_EARG);
  CHECK_INT(mtg_setup_protector(NULL, 0, 1), MTG_EARG);
  CHECK_INT(mtg_setup_sector(NULL, 0, "x"), MTG_EARG);
  CHECK_INT(mtg_setup_sector(s, 0, NULL), MTG_EARG);
  CHECK_INT(mtg_setup_room(NULL, 0, "x"), MTG_EARG);
  CHECK_INT(mtg_setup_room(s, 0, NULL), MTG_EARG);
  CHECK_INT(mtg_setup_outside(NULL, 0, "x", &e), MTG_EARG);
  CHECK_INT(mtg_setup_outside(s, 0, NULL, &e), MTG_EARG);
  CHECK_INT(mtg_setup_variant(NULL, "x"), MTG_EARG);
  CHECK_INT(mtg_setup_team(NULL, 0, 1), MTG_EARG);
  CHECK_INT(mtg_setup_commander(NULL, 0), MTG_EARG);
  CHECK_INT(mtg_setup_commander_damage(NULL, 0, 0, 1), MTG_EARG);
  CHECK_INT(mtg_setup_write(NULL, b, sizeof b), MTG_EARG);
  CHECK_INT(mtg_setup_write(s, NULL, 10), MTG_EARG);
  CHECK_INT(mtg_setup_read(NULL, "n", "x", &so, &e), MTG_EARG);
  CHECK_INT(mtg_setup_read(w->pool, "n", NULL, &so, &e), MTG_EARG);
  CHECK_INT(mtg_setup_read(w->pool, "n", "x", NULL, &e), MTG_EARG);
  /* game */
  CHECK_INT(mtg_game_new(NULL, s, &e), MTG_EARG);
  CHECK(strstr(e.msg, "mtg_game_new") != NULL);
  CHECK_INT(mtg_game_new(&g, NULL, &e), MTG_EARG);
  CHECK_STR(e.msg, "mtg_game_new: the setup is NULL");
  /* renewing names which argument is missing, as creating does */
  CHECK_INT(mtg_game_renew(NULL, s, &e), MTG_EARG);
  CHECK_STR(e.msg, "mtg_game_renew: the handle pointer is NULL");
  CHECK_INT(mtg_game_renew(&g, NULL, &e), MTG_EARG);
  CHECK_STR(e.msg, "mtg_game_renew: the setup is NULL");
  mtg_game_free(NULL);
  CHECK_INT(mtg_game_status(NULL), MTG_EARG);
  CHECK(mtg_game_decision(NULL) == NULL);
  CHECK_INT(mtg_game_decide(NULL, NULL, &e), MTG_EARG);
  CHECK(strstr(e.msg, "mtg_game_decide: the game is NULL") != NULL);
  CHECK_INT(mtg_decision_find(NULL, "pass"), -1);
  CHECK_INT(mtg_decision_find(mtg_game_decision(w->game), NULL), -1);
  CHECK_INT(mtg_game_players(NULL), MTG_EARG);
  CHECK_INT(mtg_game_turn(NULL), MTG_EARG);
  CHECK_INT(mtg_game_step(NULL), MTG_EARG);
  CHECK_INT(mtg_game_active(NULL), MTG_EARG);
  res.over = 7;
  mtg_game_result(NULL, &res);
  CHECK_INT(res.over, 0);
  mtg_game_result(w->game, NULL);
  CHECK_INT(mtg_player_info(NULL, 0, &pl), MTG_EARG);
  CHECK_INT(mtg_player_info(w->game, 0, NULL), MTG_EARG);
  CHECK_INT(mtg_player_info(w->game, -1, &pl), MTG_EARG);
  CHECK_INT(mtg_player_find(NULL, "alice"), -1);
  CHECK_INT(mtg_player_find(w->game, NULL), -1);
  CHECK_INT(mtg_zone_objects(NULL, 0, MTG_Z_HAND, ids, 4), MTG_EARG);
  CHECK_INT(mtg_zone_objects(w->game, 0, MTG_Z_LIBRARY, NULL, 4), MTG_EARG);
  CHECK_INT(mtg_zone_objects(w->game, 0, MTG_Z_LIBRARY, NULL, 0), 1);
  CHECK_INT(mtg_zone_objects(w->game, 0, MTG_Z_LIBRARY, NULL, 1), MTG_EARG); /* room for one, nowhere to put it */
  CHECK_INT(mtg_zone_objects(w->game, 0, 99, ids, 4), 0);
  CHECK_INT(mtg_zone_objects(w->game, 9, MTG_Z_LIBRARY, ids, 4), 0);
  CHECK_INT(mtg_object_info(NULL, 1, &ob), MTG_EARG);
  CHECK_INT(mtg_object_info(w->game, ids[0], NULL), MTG_EARG);
  CHECK_INT(mtg_game_objects(NULL, ids, cards, 4), MTG_EARG);
  CHECK_INT(mtg_game_objects(w->game, NULL, cards, 4), MTG_EARG);
  CHECK_INT(mtg_game_objects(w->game, ids, NULL, 4), MTG_EARG);
  CHECK_INT(mtg_game_objects(w->game, NULL, cards, 1), MTG_EARG); /* room for one, nowhere to put it */
  CHECK_INT(mtg_game_objects(w->game, ids, NULL, 1), MTG_EARG);
  CHECK_INT(mtg_game_objects(w->game, NULL, NULL, 0), mtg_game_objects(w->game, ids, cards, 4)); /* max 0: only the count */
  CHECK_INT(mtg_commander_damage(NULL, 0, 0), MTG_EARG);
  CHECK_INT(mtg_commander_damage(w->game, -1, 0), -1);
  CHECK_INT(mtg_counters(NULL, 1, 0, "x"), MTG_EARG);
  CHECK_INT(mtg_counters(w->game, 0, 0, NULL), MTG_EARG);
  CHECK_INT(mtg_counters(w->game, 0, 9, "poison"), 0);
  CHECK_INT((long long)mtg_game_hash(NULL), 0);
  CHECK_INT(mtg_game_check(NULL, b, sizeof b), -1);
  CHECK(strstr(b, "NULL") != NULL);
  CHECK_INT(mtg_game_check(NULL, NULL, 10), -1);
  CHECK_INT(mtg_decision_check(NULL, b, sizeof b), -1);
  CHECK_INT(mtg_decision_check(NULL, NULL, 10), -1);
  /* log */
  CHECK_INT(mtg_log_count(NULL), MTG_EARG);
  CHECK_INT(mtg_log_committed(NULL), MTG_EARG);
  CHECK_INT(mtg_log_total(NULL), MTG_EARG);
  CHECK(mtg_log_line(NULL, 0) == NULL);
  CHECK(mtg_log_line(w->game, -1) == NULL);
  CHECK_INT(mtg_log_is_decision(NULL, 0), 0);
  CHECK_INT(mtg_log_is_decision(w->game, -1), 0);
  mtg_log_drop(NULL, 1);
  mtg_log_drop(w->game, -5);
  CHECK(mtg_log_count(w->game) > 0);
  CHECK(mtg_event_types(NULL) > 0);
  CHECK(mtg_event_type_find(NULL, 3) == NULL);
  CHECK_INT(mtg_event_has_field(NULL, "x", 1), 0);
  CHECK_INT(mtg_event_has_field(mtg_event_type_find("zone", 4), NULL, 1), 0);
}

const unit_test api_tests[] = {
    {"zone_and_step_names_round_trip", zone_and_step_names_round_trip},
    {"game_objects_list_every_object_and_its_card", game_objects_list_every_object_and_its_card},
    {"error_format_shows_location_and_caret", error_format_shows_location_and_caret},
    {"setup_text_round_trips", setup_text_round_trips},
    {"setup_text_errors_are_located", setup_text_errors_are_located},
    {"misuse_is_earg", misuse_is_earg},
    {"every_function_refuses_null_and_out_of_range", every_function_refuses_null_and_out_of_range},
    {"one_player_is_not_a_game", one_player_is_not_a_game},
    {"decide_after_game_over_is_earg", decide_after_game_over_is_earg},
    {"turn_limit_stops_the_game", turn_limit_stops_the_game},
    {"turn_number_at_its_maximum_stops_the_game", turn_number_at_its_maximum_stops_the_game},
    {"log_is_committed_and_droppable", log_is_committed_and_droppable},
    {"hash_tracks_state", hash_tracks_state},
    {"decision_find_matches_whole_labels", decision_find_matches_whole_labels},
    {"queries_describe_objects", queries_describe_objects},
    {"work_budget_stops_a_game_at_its_limit", work_budget_stops_a_game_at_its_limit},
    {NULL, NULL},
};
