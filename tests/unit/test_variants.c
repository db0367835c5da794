/* test_variants.c - unit tests of the variant state-based actions (704.6a-f)
 * through the public API: Two-Headed Giant teams (810), Commander (903),
 * Archenemy (904), Planechase (901). Every expectation is derived by hand
 * from the rule it names, not taken from the engine's output. Each test
 * builds its own setups (2 to 4 players, variants); the checks below go on
 * after a failure so that the whole log can be shown (-v or
 * VARIANTS_VERBOSE=1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "play.h"
#include "unit.h"

typedef struct T {
  const char *name;
  int failed;
  unit_ctx *u;
} T;

#define NELEM_BAD(a) ((int)(sizeof(a) / sizeof((a)[0])))

#define VCHECK(t, cond)                                                         \
  do {                                                                          \
    if (!(cond)) {                                                              \
      unit_fail((t)->u, __FILE__, __LINE__, "%s: CHECK(%s) failed", (t)->name, #cond); \
      (t)->failed = 1;                                                          \
    }                                                                           \
  } while (0)

/* Test-only cards, in the card format (docs/cards.md). */
static const char test_cards[] =
    "- name: Test Poison Dart\n"
    "  cost: \"{0}\"\n"
    "  type: Instant\n"
    "  text: Target player gets a poison counter.\n"
    "  spell: {targets: [player], effect: [{put_counters: poison, n: 1, on: target}]}\n"
    "- name: Test Planar Portal\n"
    "  cost: \"{0}\"\n"
    "  type: Sorcery\n"
    "  text: Planeswalk.\n"
    "  spell: {effect: [{planeswalk: you}]}\n"
    "- name: Test Scheme Without Trigger\n"
    "  type: Scheme\n"
    "  text: (No abilities.)\n";

/* ---- driving a game ---- */

static int log_find(const mtg_game *g, const char *sub, int from) {
  for (int i = from < 0 ? 0 : from; i < mtg_log_count(g); i++)
    if (strstr(mtg_log_line(g, i), sub)) return i;
  return -1;
}

static int log_has(const mtg_game *g, const char *sub) { return log_find(g, sub, 0) >= 0; }

static void dump_log(const mtg_game *g) {
  for (int i = 0; i < mtg_log_count(g); i++) fprintf(stderr, "    | %s\n", mtg_log_line(g, i));
}

static int answer_v(mtg_game *g, int n, const int *v) {
  mtg_answer a = {n, v};
  mtg_error e;
  int rc = mtg_game_decide(g, &a, &e);
  if (rc < 0) fprintf(stderr, "    answer refused: %s\n", e.msg);
  return rc;
}

/* Picks the first option whose label starts with prefix; -1 if none. */
static int pick(mtg_game *g, const char *prefix) {
  const mtg_decision *d = mtg_game_decision(g);
  if (!d) return -1;
  for (int i = 0; i < d->n_options; i++)
    if (!strncmp(d->options[i].label, prefix, strlen(prefix))) return answer_v(g, 1, &i);
  fprintf(stderr, "    no option '%s' in %s decision (%s):", prefix, d->kind_name, d->prompt);
  for (int i = 0; i < d->n_options; i++) fprintf(stderr, " [%s]", d->options[i].label);
  fprintf(stderr, "\n");
  return -1;
}

/* The default answer: pass priority, attack and block with nothing, decline. */
static int pass(mtg_game *g) {
  const mtg_decision *d = mtg_game_decision(g);
  if (!d) return -1;
  int zero = 0, no = 1;
  switch (d->kind) {
  case MTG_D_ATTACKERS:
  case MTG_D_BLOCKERS: return answer_v(g, 0, NULL);
  case MTG_D_MAY: return answer_v(g, 1, &no);
  default: return answer_v(g, 1, &zero);
  }
}

/* Passes until a log line containing sub appears (or the game ends). */
static int pass_until(mtg_game *g, const char *sub, int limit) {
  for (int k = 0; k < limit; k++) {
    if (log_has(g, sub)) return 1;
    if (mtg_game_status(g) != MTG_DECISION) return log_has(g, sub);
    if (pass(g) < 0) return 0;
  }
  return log_has(g, sub);
}

static int player_life(const mtg_game *g, int p) {
  mtg_player pi;
  mtg_player_info(g, p, &pi);
  return pi.life;
}

static int player_poison(const mtg_game *g, int p) {
  mtg_player pi;
  mtg_player_info(g, p, &pi);
  return pi.poison;
}

static int player_lost(const mtg_game *g, int p) {
  mtg_player pi;
  mtg_player_info(g, p, &pi);
  return pi.lost;
}

/* The object of a zone with a given name (first match), or 0. */
static uint32_t find_obj(const mtg_game *g, int player, int zone, const char *name) {
  uint32_t ids[512];
  int n = mtg_zone_objects(g, player, zone, ids, 512);
  for (int i = 0; i < n && i < 512; i++) {
    mtg_object o;
    if (!mtg_object_info(g, ids[i], &o) && !strcmp(o.name, name)) return ids[i];
  }
  return 0;
}

/* Name of the i-th card of the command zone (after face-down ones: "face-down"). */
static const char *command_card(const mtg_game *g, int i, int *face_down) {
  uint32_t ids[64];
  int n = mtg_zone_objects(g, -1, MTG_Z_COMMAND, ids, 64);
  if (i >= n) return "";
  static mtg_object o; /* test helper: valid until the next call */
  mtg_object_info(g, ids[i], &o);
  if (face_down) *face_down = o.face_down;
  return o.name;
}

static mtg_game *start(T *t, mtg_setup *s) {
  mtg_game *g = NULL;
  mtg_error e;
  int rc = mtg_game_new(&g, s, &e);
  if (rc < 0) {
    fprintf(stderr, "  %s: setup refused: %s\n", t->name, e.msg);
    unit_fail(t->u, __FILE__, __LINE__, "%s: setup refused: %s", t->name, e.msg);
    t->failed = 1;
    return NULL;
  }
  return g;
}

static void finish(T *t, mtg_game *g, mtg_setup *s) {
  if (g) {
    char why[256];
    if (mtg_game_check(g, why, sizeof why)) {
      unit_fail(t->u, __FILE__, __LINE__, "%s: invariant: %s", t->name, why);
      t->failed = 1;
    }
    if ((t->failed && getenv("VARIANTS_VERBOSE")) || getenv("VARIANTS_LOG")) dump_log(g);
  }
  mtg_game_free(g);
  mtg_setup_free(s);
}

static int card(mtg_setup *s, int p, int zone, const char *name) {
  mtg_error e;
  int en = mtg_setup_card(s, p, zone, name, &e);
  if (en < 0) {
    fprintf(stderr, "setup card '%s': %s\n", name, e.msg);
    exit(2);
  }
  return en;
}

/* Four players in two teams of Two-Headed Giant (810.1): alice+carol (1), bob+dave (2),
 * at alice's precombat main phase. */
static mtg_setup *thg_setup(const mtg_pool *pool, int life_a, int life_b, int poison_b) {
  mtg_setup *s = mtg_setup_new(pool);
  mtg_setup_variant(s, "two_headed_giant");
  const char *names[4] = {"alice", "bob", "carol", "dave"};
  for (int p = 0; p < 4; p++) {
    mtg_setup_player(s, names[p], p % 2 ? life_b : life_a, p % 2 ? poison_b : 0);
    mtg_setup_team(s, p, p % 2 ? 2 : 1);
  }
  mtg_setup_start(s, 0, 3, MTG_S_MAIN1);
  for (int p = 0; p < 4; p++)
    for (int k = 0; k < 5; k++) card(s, p, MTG_Z_LIBRARY, "Plains");
  return s;
}

/* ---- Two-Headed Giant ---- */

/* 810.9: damage to a player is applied to the team's shared life total; both
 * players' life values show the team's total (810.9a). */
static void t_2hg_shared_life(unit_ctx *u, const mtg_pool *pool) {
  T t = {"704.6a 810.9 damage to one player lowers the team's life total", 0, u};
  mtg_setup *s = thg_setup(pool, 30, 30, 0);
  card(s, 0, MTG_Z_BATTLEFIELD, "Mountain");
  card(s, 0, MTG_Z_HAND, "Lightning Bolt");
  mtg_game *g = start(&t, s);
  if (g) {
    VCHECK(&t, pick(g, "cast \"Lightning Bolt\"") >= 0);
    VCHECK(&t, pick(g, "bob") >= 0);
    VCHECK(&t, pass_until(g, "damage src=\"Lightning Bolt\"", 50));
    /* 30 - 3 = 27 for the team of bob and dave; alice's team untouched */
    VCHECK(&t, player_life(g, 1) == 27);
    VCHECK(&t, player_life(g, 3) == 27);
    VCHECK(&t, player_life(g, 0) == 30 && player_life(g, 2) == 30);
    VCHECK(&t, !log_has(g, "rule=704.6a"));
  }
  finish(&t, g, s);
}

/* 704.6a: the team at 3 life is dealt 3 damage: 0 or less, the team (both players)
 * loses, and the other team wins (810.8a). 704.5a is not applied per player. */
static void t_2hg_team_loses(unit_ctx *u, const mtg_pool *pool) {
  T t = {"704.6a a team with 0 life loses, both its players", 0, u};
  mtg_setup *s = thg_setup(pool, 30, 3, 0);
  card(s, 0, MTG_Z_BATTLEFIELD, "Mountain");
  card(s, 0, MTG_Z_HAND, "Lightning Bolt");
  mtg_game *g = start(&t, s);
  if (g) {
    pick(g, "cast \"Lightning Bolt\"");
    pick(g, "dave");
    pass_until(g, "game_over", 50);
    VCHECK(&t, log_has(g, "sba rule=704.6a team=2 players=bob,dave life=0"));
    VCHECK(&t, log_has(g, "lose player=bob rule=704.6a"));
    VCHECK(&t, log_has(g, "lose player=dave rule=704.6a"));
    VCHECK(&t, !log_has(g, "rule=704.5a"));
    VCHECK(&t, player_lost(g, 1) && player_lost(g, 3));
    mtg_result r;
    mtg_game_result(g, &r);
    VCHECK(&t, r.over && r.winners == 0x5); /* alice and carol */
  }
  finish(&t, g, s);
}

/* Boundary: 4 life - 3 = 1 > 0, no loss. */
static void t_2hg_team_survives(unit_ctx *u, const mtg_pool *pool) {
  T t = {"704.6a a team at 1 life does not lose", 0, u};
  mtg_setup *s = thg_setup(pool, 30, 4, 0);
  card(s, 0, MTG_Z_BATTLEFIELD, "Mountain");
  card(s, 0, MTG_Z_HAND, "Lightning Bolt");
  mtg_game *g = start(&t, s);
  if (g) {
    pick(g, "cast \"Lightning Bolt\"");
    pick(g, "bob");
    pass_until(g, "damage src=", 50);
    pass(g); /* the next priority: state-based actions were checked */
    VCHECK(&t, player_life(g, 1) == 1 && player_life(g, 3) == 1);
    VCHECK(&t, !log_has(g, "704.6a") && !player_lost(g, 1) && !player_lost(g, 3));
  }
  finish(&t, g, s);
}

/* 704.6b, 704.5c: at 14 team poison (over the 10 of 704.5c, which is ignored in
 * Two-Headed Giant) nobody loses; one more counter to either player makes 15 for the
 * team (810.10), and the team loses. */
static void t_2hg_poison(unit_ctx *u, const mtg_pool *pool) {
  T t = {"704.6b 704.5c team poison: 14 no loss, 15 the team loses", 0, u};
  mtg_setup *s = thg_setup(pool, 30, 30, 14);
  card(s, 0, MTG_Z_HAND, "Test Poison Dart");
  mtg_game *g = start(&t, s);
  if (g) {
    /* 14 poison at a priority: 704.5c would apply in a normal game */
    VCHECK(&t, !player_lost(g, 1) && !player_lost(g, 3));
    VCHECK(&t, !log_has(g, "704.5c") && !log_has(g, "704.6b"));
    pick(g, "cast \"Test Poison Dart\"");
    pick(g, "dave");
    pass_until(g, "game_over", 50);
    VCHECK(&t, player_poison(g, 1) == 15 && player_poison(g, 3) == 15);
    VCHECK(&t, log_has(g, "sba rule=704.6b team=2 players=bob,dave"));
    VCHECK(&t, player_lost(g, 1) && player_lost(g, 3));
    VCHECK(&t, !player_lost(g, 0) && !player_lost(g, 2));
  }
  finish(&t, g, s);
}

/* 810.8a: a player who loses for another reason (here, 704.5b: drawing from an empty
 * library) makes the team lose: the teammate loses too. */
static void t_2hg_teammate_loses(unit_ctx *u, const mtg_pool *pool) {
  T t = {"704.6 810.8a one player's loss is the team's", 0, u};
  mtg_setup *s = mtg_setup_new(pool);
  mtg_setup_variant(s, "two_headed_giant");
  const char *names[4] = {"alice", "bob", "carol", "dave"};
  for (int p = 0; p < 4; p++) {
    mtg_setup_player(s, names[p], 30, 0);
    mtg_setup_team(s, p, p % 2 ? 2 : 1);
  }
  mtg_setup_start(s, 1, 3, MTG_S_UPKEEP); /* bob's upkeep; his library is empty */
  for (int p = 0; p < 4; p++)
    if (p != 1)
      for (int k = 0; k < 3; k++) card(s, p, MTG_Z_LIBRARY, "Plains");
  mtg_game *g = start(&t, s);
  if (g) {
    pass_until(g, "game_over", 50);
    VCHECK(&t, log_has(g, "sba rule=704.5b player=bob"));
    VCHECK(&t, log_has(g, "lose player=dave rule=810.8a"));
    mtg_result r;
    mtg_game_result(g, &r);
    VCHECK(&t, r.winners == 0x5 && (r.losers & 0xa) == 0xa);
  }
  finish(&t, g, s);
}

/* ---- Commander ---- */

/* Alice's commanders attack bob; bob has already been dealt `before` combat damage by
 * `prior` (a commander entry, or -1). Returns the game after combat damage. */
static mtg_game *commander_attack(T *t, const mtg_pool *pool, mtg_setup **out, int two, int before_same,
                                  int before_other) {
  mtg_setup *s = mtg_setup_new(pool);
  *out = s;
  mtg_setup_variant(s, "commander");
  mtg_setup_player(s, "alice", 40, 0);
  mtg_setup_player(s, "bob", 40, 0);
  mtg_setup_start(s, 0, 5, MTG_S_BEGIN_COMBAT);
  for (int p = 0; p < 2; p++)
    for (int k = 0; k < 3; k++) card(s, p, MTG_Z_LIBRARY, "Plains");
  int orca = card(s, 0, MTG_Z_BATTLEFIELD, "Lady Orca"); /* 7/4 */
  mtg_setup_commander(s, orca);
  if (before_same) mtg_setup_commander_damage(s, 1, orca, before_same);
  if (two) {
    /* a second commander of alice's (partners), not attacking */
    int isamaru = card(s, 0, MTG_Z_COMMAND, "Isamaru, Hound of Konda");
    mtg_setup_commander(s, isamaru);
    if (before_other) mtg_setup_commander_damage(s, 1, isamaru, before_other);
  }
  mtg_game *g = start(t, s);
  if (!g) return NULL;
  pass_until(g, "step name=declare_attackers", 10);
  pick(g, "\"Lady Orca\"");
  pass_until(g, "damage src=\"Lady Orca\"", 20);
  pass(g); /* state-based actions are checked before this priority */
  return g;
}

/* 704.6c: 14 earlier + 7 now = 21 combat damage from the same commander: bob loses,
 * though his life total is 40 - 7 = 33. */
static void t_cmd_21(unit_ctx *u, const mtg_pool *pool) {
  T t = {"704.6c 21 combat damage from one commander loses", 0, u};
  mtg_setup *s;
  mtg_game *g = commander_attack(&t, pool, &s, 0, 14, 0);
  if (g) {
    VCHECK(&t, log_has(g, "sba rule=704.6c player=bob commander=\"Lady Orca\" owner=alice damage=21"));
    VCHECK(&t, log_has(g, "lose player=bob rule=704.6c"));
    VCHECK(&t, player_life(g, 1) == 33);
    mtg_object o;
    mtg_object_info(g, find_obj(g, 0, MTG_Z_BATTLEFIELD, "Lady Orca"), &o);
    VCHECK(&t, o.commander && mtg_commander_damage(g, 1, o.card) == 21);
  }
  finish(&t, g, s);
}

/* 903.3: commanders exist only in a Commander game: a card designated as a
 * commander in a game without the variant is no commander, and no other
 * object is one in any game. */
static void t_cmd_only_in_commander_games(unit_ctx *u, const mtg_pool *pool) {
  T t = {"903.3 no commander outside a Commander game", 0, u};
  for (int variant = 0; variant < 2; variant++) {
    mtg_setup *s = mtg_setup_new(pool);
    if (variant) mtg_setup_variant(s, "commander");
    mtg_setup_player(s, "alice", variant ? 40 : 20, 0);
    mtg_setup_player(s, "bob", variant ? 40 : 20, 0);
    int orca = card(s, 0, MTG_Z_BATTLEFIELD, "Lady Orca");
    card(s, 0, MTG_Z_BATTLEFIELD, "Grizzly Bears");
    card(s, 1, MTG_Z_BATTLEFIELD, "Grizzly Bears");
    VCHECK(&t, mtg_setup_commander(s, orca) == 0);
    mtg_setup_start(s, 0, 2, MTG_S_MAIN1);
    mtg_game *g = start(&t, s);
    if (g) {
      mtg_object o;
      VCHECK(&t, !mtg_object_info(g, find_obj(g, 0, MTG_Z_BATTLEFIELD, "Lady Orca"), &o) && o.commander == variant);
      VCHECK(&t, !mtg_object_info(g, find_obj(g, 0, MTG_Z_BATTLEFIELD, "Grizzly Bears"), &o) && !o.commander);
      VCHECK(&t, !mtg_object_info(g, find_obj(g, 1, MTG_Z_BATTLEFIELD, "Grizzly Bears"), &o) && !o.commander);
    }
    finish(&t, g, s);
  }
}

/* Boundary: 13 + 7 = 20 < 21: no loss. */
static void t_cmd_20(unit_ctx *u, const mtg_pool *pool) {
  T t = {"704.6c 20 combat damage from one commander: no loss", 0, u};
  mtg_setup *s;
  mtg_game *g = commander_attack(&t, pool, &s, 0, 13, 0);
  if (g) {
    VCHECK(&t, !log_has(g, "704.6c") && !player_lost(g, 1));
    mtg_object o;
    mtg_object_info(g, find_obj(g, 0, MTG_Z_BATTLEFIELD, "Lady Orca"), &o);
    VCHECK(&t, mtg_commander_damage(g, 1, o.card) == 20);
    /* none dealt to its own player; a card that is no commander, a player
     * not in the game: -1 */
    VCHECK(&t, mtg_commander_damage(g, 0, o.card) == 0);
    VCHECK(&t, mtg_commander_damage(g, 1, o.card + 1000) == -1);
    VCHECK(&t, mtg_commander_damage(g, 2, o.card) == -1);
    /* every other physical card of the game, the first one (card 0) included,
     * is no commander: -1 for each player */
    uint32_t ids[64];
    int cards[64], n = mtg_game_objects(g, ids, cards, 64), others = 0;
    VCHECK(&t, n > 1 && n <= 64);
    for (int i = 0; i < n && i < 64; i++) {
      if (cards[i] < 0 || cards[i] == o.card) continue;
      others++;
      for (int p = 0; p < 2; p++) VCHECK(&t, mtg_commander_damage(g, p, cards[i]) == -1);
    }
    VCHECK(&t, others > 0);
  }
  finish(&t, g, s);
}

/* 704.6c counts per commander: 14 from Isamaru and 7 from Lady Orca is 21 in all but
 * at most 14 from the same commander: no loss. */
static void t_cmd_two(unit_ctx *u, const mtg_pool *pool) {
  T t = {"704.6c 21 combat damage from two different commanders: no loss", 0, u};
  mtg_setup *s;
  mtg_game *g = commander_attack(&t, pool, &s, 1, 0, 14);
  if (g) {
    VCHECK(&t, !log_has(g, "704.6c") && !player_lost(g, 1));
    VCHECK(&t, player_life(g, 1) == 33);
  }
  finish(&t, g, s);
}

/* Noncombat damage from a commander is not commander damage (903.10a says combat). */
static void t_cmd_noncombat(unit_ctx *u, const mtg_pool *pool) {
  T t = {"704.6c noncombat damage is not counted", 0, u};
  mtg_setup *s = mtg_setup_new(pool);
  mtg_setup_variant(s, "commander");
  mtg_setup_player(s, "alice", 40, 0);
  mtg_setup_player(s, "bob", 40, 0);
  mtg_setup_start(s, 0, 5, MTG_S_MAIN1);
  int orca = card(s, 0, MTG_Z_BATTLEFIELD, "Lady Orca");
  mtg_setup_commander(s, orca);
  mtg_setup_commander_damage(s, 1, orca, 20);
  card(s, 0, MTG_Z_BATTLEFIELD, "Mountain");
  card(s, 0, MTG_Z_HAND, "Lightning Bolt");
  mtg_game *g = start(&t, s);
  if (g) {
    pick(g, "cast \"Lightning Bolt\"");
    pick(g, "bob");
    pass_until(g, "damage src=\"Lightning Bolt\"", 20);
    pass(g);
    VCHECK(&t, !log_has(g, "704.6c") && !player_lost(g, 1) && player_life(g, 1) == 37);
  }
  finish(&t, g, s);
}

/* 704.6d: Alice's commander dies (Lightning Bolt on her own Isamaru); at the next
 * check she may put it into the command zone. yes: it moves; no: it stays, and is not
 * offered again (it was put there before the last check). */
static void t_cmd_return(unit_ctx *u, const mtg_pool *pool, int yes) {
  T t = {yes ? "704.6d a dead commander may go to the command zone: yes"
             : "704.6d declined: the commander stays in the graveyard",
         0, u};
  mtg_setup *s = mtg_setup_new(pool);
  mtg_setup_variant(s, "commander");
  mtg_setup_player(s, "alice", 40, 0);
  mtg_setup_player(s, "bob", 40, 0);
  mtg_setup_start(s, 0, 5, MTG_S_MAIN1);
  for (int p = 0; p < 2; p++)
    for (int k = 0; k < 3; k++) card(s, p, MTG_Z_LIBRARY, "Plains");
  int isa = card(s, 0, MTG_Z_BATTLEFIELD, "Isamaru, Hound of Konda");
  mtg_setup_commander(s, isa);
  card(s, 0, MTG_Z_BATTLEFIELD, "Mountain");
  card(s, 0, MTG_Z_HAND, "Lightning Bolt");
  mtg_game *g = start(&t, s);
  if (g) {
    pick(g, "cast \"Lightning Bolt\"");
    pick(g, "\"Isamaru");
    pass(g);
    pass(g); /* resolves: 3 damage; 704.5g destroys it; then 704.6d asks */
    const mtg_decision *d = mtg_game_decision(g);
    VCHECK(&t, d && d->kind == MTG_D_MAY && !strcmp(d->rule, "704.6d") && d->player == 0);
    if (d && d->kind == MTG_D_MAY) pick(g, yes ? "yes" : "no");
    uint32_t in_cz = find_obj(g, 0, MTG_Z_COMMAND, "Isamaru, Hound of Konda");
    uint32_t in_gy = find_obj(g, 0, MTG_Z_GRAVEYARD, "Isamaru, Hound of Konda");
    if (yes) {
      VCHECK(&t, in_cz && !in_gy);
      VCHECK(&t, log_has(g, "sba rule=704.6d obj=\"Isamaru, Hound of Konda\""));
      VCHECK(&t, log_has(g, "from=graveyard to=command cause=sba rule=704.6d"));
      mtg_object o;
      mtg_object_info(g, in_cz, &o);
      VCHECK(&t, o.commander);
    } else {
      VCHECK(&t, in_gy && !in_cz && !log_has(g, "sba rule=704.6d"));
      /* later checks don't ask again */
      for (int k = 0; k < 6 && mtg_game_status(g) == MTG_DECISION; k++) {
        d = mtg_game_decision(g);
        VCHECK(&t, d->kind != MTG_D_MAY);
        pass(g);
      }
    }
  }
  finish(&t, g, s);
}

/* 903.8: cast from the command zone, paying {2} more per previous cast from there. */
static void t_cmd_tax(unit_ctx *u, const mtg_pool *pool) {
  T t = {"704.6 903.8 a commander cast from the command zone pays the tax", 0, u};
  mtg_setup *s = mtg_setup_new(pool);
  mtg_setup_variant(s, "commander");
  mtg_setup_player(s, "alice", 40, 0);
  mtg_setup_player(s, "bob", 40, 0);
  mtg_setup_start(s, 0, 5, MTG_S_MAIN1);
  int isa = card(s, 0, MTG_Z_COMMAND, "Isamaru, Hound of Konda");
  mtg_setup_commander(s, isa);
  for (int k = 0; k < 3; k++) card(s, 0, MTG_Z_BATTLEFIELD, "Plains");
  card(s, 0, MTG_Z_HAND, "Lightning Bolt");
  card(s, 0, MTG_Z_BATTLEFIELD, "Mountain");
  mtg_game *g = start(&t, s);
  if (g) {
    VCHECK(&t, pick(g, "cast \"Isamaru, Hound of Konda\"") >= 0); /* {W}: first cast, no tax */
    pass_until(g, "resolve", 10);
    VCHECK(&t, find_obj(g, 0, MTG_Z_BATTLEFIELD, "Isamaru, Hound of Konda"));
    pick(g, "cast \"Lightning Bolt\"");
    pick(g, "\"Isamaru");
    pass(g);
    pass(g);
    pick(g, "yes"); /* 704.6d */
    /* two untapped Plains left: {W} + {2} tax = 3 mana: not castable */
    const mtg_decision *d = mtg_game_decision(g);
    int castable = 0;
    for (int i = 0; d && i < d->n_options; i++) castable |= strstr(d->options[i].label, "Isamaru") != NULL;
    VCHECK(&t, d && d->kind == MTG_D_PRIORITY && !castable);
  }
  finish(&t, g, s);
}

/* ---- Archenemy ---- */

static mtg_setup *arch_setup(const mtg_pool *pool, const char *const *schemes, int n) {
  mtg_setup *s = mtg_setup_new(pool);
  mtg_setup_variant(s, "archenemy");
  mtg_setup_player(s, "alice", 40, 0);
  mtg_setup_player(s, "bob", 20, 0);
  mtg_setup_start(s, 0, 3, MTG_S_UPKEEP);
  for (int p = 0; p < 2; p++)
    for (int k = 0; k < 3; k++) card(s, p, MTG_Z_LIBRARY, "Plains");
  for (int i = 0; i < n; i++) card(s, 0, MTG_Z_COMMAND, schemes[i]); /* the scheme deck, top first */
  return s;
}

/* 904.9, 704.6e: at alice's precombat main phase the top scheme is set in motion; its
 * trigger goes on the stack and the scheme stays face up while it is there; after it
 * resolves, the next check turns the scheme face down on the bottom of the deck. */
static void t_scheme(unit_ctx *u, const mtg_pool *pool) {
  T t = {"704.6e a non-ongoing scheme goes to the bottom once its trigger has left the stack", 0, u};
  static const char *const deck[] = {"Look Skyward and Despair", "Tooth, Claw, and Tail"};
  mtg_setup *s = arch_setup(pool, deck, 2);
  mtg_game *g = start(&t, s);
  if (g) {
    VCHECK(&t, pass_until(g, "set_in_motion player=alice obj=\"Look Skyward and Despair\"", 20));
    /* priority with the trigger on the stack: still face up (no 704.6e yet) */
    int fd = 1;
    VCHECK(&t, !strcmp(command_card(g, 0, &fd), "Look Skyward and Despair") && !fd);
    VCHECK(&t, log_has(g, "stack_push") && !log_has(g, "704.6e"));
    pass_until(g, "sba rule=704.6e", 10);
    VCHECK(&t, find_obj(g, 0, MTG_Z_BATTLEFIELD, "Dragon") != 0);
    VCHECK(&t, log_find(g, "create_token", 0) < log_find(g, "sba rule=704.6e obj=\"Look Skyward and Despair\"", 0));
    VCHECK(&t, log_has(g, "deck_bottom obj=\"Look Skyward and Despair\""));
    /* the deck is now Tooth, Claw, and Tail on top, Look Skyward at the bottom, both
     * face down */
    int fd0 = 0, fd1 = 0;
    command_card(g, 0, &fd0);
    command_card(g, 1, &fd1);
    VCHECK(&t, fd0 && fd1);
  }
  finish(&t, g, s);
}

/* 704.6e: a scheme without a triggered ability goes to the bottom at the first check. */
static void t_scheme_no_trigger(unit_ctx *u, const mtg_pool *pool) {
  T t = {"704.6e a scheme with no trigger goes to the bottom at the first check", 0, u};
  static const char *const deck[] = {"Test Scheme Without Trigger", "Look Skyward and Despair"};
  mtg_setup *s = arch_setup(pool, deck, 2);
  mtg_game *g = start(&t, s);
  if (g) {
    VCHECK(&t, pass_until(g, "set_in_motion player=alice obj=\"Test Scheme Without Trigger\"", 20));
    VCHECK(&t, log_has(g, "sba rule=704.6e obj=\"Test Scheme Without Trigger\""));
    VCHECK(&t, !log_has(g, "Look Skyward and Despair\"#"));
  }
  finish(&t, g, s);
}

/* 904.11: an ongoing scheme stays face up; its static ability applies (+2/+2). */
static void t_scheme_ongoing(unit_ctx *u, const mtg_pool *pool) {
  T t = {"704.6e an ongoing scheme stays face up", 0, u};
  static const char *const deck[] = {"The Very Soil Shall Shake", "Look Skyward and Despair"};
  mtg_setup *s = arch_setup(pool, deck, 2);
  card(s, 0, MTG_Z_BATTLEFIELD, "Grizzly Bears");
  mtg_game *g = start(&t, s);
  if (g) {
    VCHECK(&t, pass_until(g, "set_in_motion player=alice obj=\"The Very Soil Shall Shake\"", 20));
    pass(g);
    pass(g);
    VCHECK(&t, !log_has(g, "704.6e"));
    int fd = 1;
    VCHECK(&t, !strcmp(command_card(g, 0, &fd), "The Very Soil Shall Shake") && !fd);
    mtg_object o;
    mtg_object_info(g, find_obj(g, 0, MTG_Z_BATTLEFIELD, "Grizzly Bears"), &o);
    VCHECK(&t, o.power == 4 && o.toughness == 4);
  }
  finish(&t, g, s);
}

/* Bob is not an archenemy: nothing is set in motion in his main phase (904.9). */
static void t_scheme_not_archenemy(unit_ctx *u, const mtg_pool *pool) {
  T t = {"704.6 904.9 only the archenemy sets schemes in motion", 0, u};
  static const char *const deck[] = {"Look Skyward and Despair"};
  mtg_setup *s = arch_setup(pool, deck, 1);
  mtg_setup_start(s, 1, 3, MTG_S_UPKEEP);
  mtg_game *g = start(&t, s);
  if (g) {
    pass_until(g, "step name=beginning_of_combat", 20);
    VCHECK(&t, log_has(g, "step name=main1 player=bob") && !log_has(g, "set_in_motion"));
  }
  finish(&t, g, s);
}

/* Scheme cards in the command zone of a game that is not Archenemy: their owner
 * is no archenemy, so nothing is set in motion (904.9 is a rule of the variant). */
static void t_scheme_without_variant(unit_ctx *u, const mtg_pool *pool) {
  T t = {"904.9 no scheme is set in motion outside an Archenemy game", 0, u};
  mtg_setup *s = mtg_setup_new(pool);
  mtg_setup_player(s, "alice", 20, 0);
  mtg_setup_player(s, "bob", 20, 0);
  mtg_setup_start(s, 0, 3, MTG_S_UPKEEP);
  for (int p = 0; p < 2; p++)
    for (int k = 0; k < 3; k++) card(s, p, MTG_Z_LIBRARY, "Plains");
  card(s, 0, MTG_Z_COMMAND, "Look Skyward and Despair");
  mtg_game *g = start(&t, s);
  if (g) {
    pass_until(g, "step name=beginning_of_combat", 20);
    VCHECK(&t, log_has(g, "step name=main1 player=alice") && !log_has(g, "set_in_motion"));
  }
  finish(&t, g, s);
}

/* ---- Planechase ---- */

static mtg_setup *pc_setup(const mtg_pool *pool, const char *const *planar, int n) {
  mtg_setup *s = mtg_setup_new(pool);
  mtg_setup_variant(s, "planechase");
  mtg_setup_player(s, "alice", 20, 0);
  mtg_setup_player(s, "bob", 20, 0);
  mtg_setup_start(s, 0, 3, MTG_S_MAIN1);
  for (int p = 0; p < 2; p++)
    for (int k = 0; k < 8; k++) card(s, p, MTG_Z_LIBRARY, "Plains");
  for (int i = 0; i < n; i++) {
    int e = card(s, 0, MTG_Z_COMMAND, planar[i]);
    if (i == 0) mtg_setup_face_down(s, e, 0); /* the current plane */
  }
  return s;
}

/* 701.31b, 312.5, 704.6f: planeswalking from Krosa turns Mutual Epiphany face up; its
 * encounter trigger goes on the stack and the phenomenon stays while it is there; after
 * it resolves (each player draws four), the check makes the planar controller
 * planeswalk: the phenomenon goes to the bottom and Goldmeadow is turned face up. */
static void t_phenomenon(unit_ctx *u, const mtg_pool *pool) {
  T t = {"704.6f a phenomenon whose trigger has left the stack makes the planar controller planeswalk", 0, u};
  static const char *const deck[] = {"Krosa", "Mutual Epiphany", "Goldmeadow"};
  mtg_setup *s = pc_setup(pool, deck, 3);
  card(s, 0, MTG_Z_HAND, "Test Planar Portal");
  mtg_game *g = start(&t, s);
  if (g) {
    pick(g, "cast \"Test Planar Portal\"");
    pass(g);
    pass(g); /* resolves: planeswalk */
    VCHECK(&t, log_has(g, "deck_bottom obj=\"Krosa\""));
    VCHECK(&t, log_has(g, "planeswalk player=alice to=\"Mutual Epiphany\""));
    /* the encounter trigger is on the stack: no 704.6f */
    VCHECK(&t, !log_has(g, "704.6f"));
    pass_until(g, "sba rule=704.6f", 10);
    int drew = 0;
    for (int i = 0; i < mtg_log_count(g); i++) drew += strstr(mtg_log_line(g, i), "draw player=") != NULL;
    VCHECK(&t, drew == 8);
    VCHECK(&t, log_find(g, "draw player=", 0) < log_find(g, "sba rule=704.6f obj=\"Mutual Epiphany\"", 0));
    VCHECK(&t, log_has(g, "sba rule=704.6f obj=\"Mutual Epiphany\""));
    VCHECK(&t, log_has(g, "deck_bottom obj=\"Mutual Epiphany\""));
    VCHECK(&t, log_has(g, "planeswalk player=alice to=\"Goldmeadow\""));
    /* command zone now: Goldmeadow face up; Krosa, Mutual Epiphany face down */
    int fd = 0;
    const char *top = command_card(g, 0, &fd);
    VCHECK(&t, !strcmp(top, "Goldmeadow") && !fd);
  }
  finish(&t, g, s);
}

/* 603.10g, 901.11b: "When you planeswalk away from Mount Keralia" looks back: the plane
 * had 2 pressure counters before it turned face down (becoming a new object without
 * counters, 311.6); it deals 2 damage to each creature: Grizzly Bears die. */
static void t_planeswalk_away(unit_ctx *u, const mtg_pool *pool) {
  T t = {"704.6f 603.10g planeswalking away from Mount Keralia looks back", 0, u};
  mtg_setup *s = mtg_setup_new(pool);
  mtg_setup_variant(s, "planechase");
  mtg_setup_player(s, "alice", 20, 0);
  mtg_setup_player(s, "bob", 20, 0);
  mtg_setup_start(s, 0, 3, MTG_S_MAIN1);
  int mk = card(s, 0, MTG_Z_COMMAND, "Mount Keralia");
  mtg_setup_face_down(s, mk, 0);
  mtg_setup_counters(s, mk, "pressure", 2);
  card(s, 0, MTG_Z_COMMAND, "Goldmeadow");
  card(s, 1, MTG_Z_BATTLEFIELD, "Grizzly Bears");
  card(s, 0, MTG_Z_HAND, "Test Planar Portal");
  mtg_game *g = start(&t, s);
  if (g) {
    pick(g, "cast \"Test Planar Portal\"");
    pass_until(g, "sba rule=704.5g", 20);
    VCHECK(&t, log_has(g, "trigger src=\"Mount Keralia\""));
    VCHECK(&t, log_has(g, "damage src=\"Mount Keralia\"") && log_has(g, "amount=2"));
    VCHECK(&t, find_obj(g, 1, MTG_Z_GRAVEYARD, "Grizzly Bears") != 0);
  }
  finish(&t, g, s);
}

/* 901.5: a Planechase game started from the beginning turns the top card of the
 * starting player's planar deck face up; each phenomenon turned up goes to the
 * bottom, in the order they came, until a plane is face up; nothing turned face up
 * this way triggers (Mutual Epiphany would make each player draw four, Planewide
 * Disaster destroy Grizzly Bears); the other player's planar deck is untouched;
 * the planar controller (the starting player, 901.6) controls the plane. */
/* A two-player Planechase game played from its beginning (no start point
 * set, so the starting plane is turned up, 901.5), libraries of `plains`
 * Plains, unshuffled; `first` (or NULL) a card put in alice's command zone
 * before anything else, the game's first object. */
static mtg_setup *pc_from_the_start(const mtg_pool *pool, int plains, const char *first) {
  mtg_setup *s = mtg_setup_new(pool);
  mtg_setup_variant(s, "planechase");
  mtg_setup_player(s, "alice", 20, 0);
  mtg_setup_player(s, "bob", 20, 0);
  mtg_setup_shuffle(s, 0);
  if (first) card(s, 0, MTG_Z_COMMAND, first);
  for (int p = 0; p < 2; p++)
    for (int k = 0; k < plains; k++) card(s, p, MTG_Z_LIBRARY, "Plains");
  return s;
}

static void t_starting_plane(unit_ctx *u, const mtg_pool *pool) {
  T t = {"704.6 901.5 the starting plane skips phenomena", 0, u};
  mtg_setup *s = pc_from_the_start(pool, 10, NULL);
  card(s, 0, MTG_Z_BATTLEFIELD, "Grizzly Bears");
  card(s, 0, MTG_Z_COMMAND, "Mutual Epiphany");
  card(s, 0, MTG_Z_COMMAND, "Planewide Disaster");
  card(s, 0, MTG_Z_COMMAND, "Krosa");
  card(s, 0, MTG_Z_COMMAND, "Goldmeadow");
  card(s, 1, MTG_Z_COMMAND, "Fields of Summer");
  mtg_game *g = start(&t, s);
  if (g) {
    int e1 = log_find(g, "deck_bottom obj=\"Mutual Epiphany\"", 0), e2 = log_find(g, "deck_bottom obj=\"Planewide Disaster\"", 0);
    int sp = log_find(g, "starting_plane player=alice obj=\"Krosa\"", 0);
    VCHECK(&t, e1 >= 0 && e2 > e1 && sp > e2);
    VCHECK(&t, log_find(g, "deck_bottom", e2 + 1) < 0);
    VCHECK(&t, !log_has(g, "deck_bottom obj=\"Fields of Summer\"") && !log_has(g, "deck_bottom obj=\"Goldmeadow\""));
    VCHECK(&t, !log_has(g, "trigger src="));
    VCHECK(&t, !log_has(g, "destroy"));
    /* one card face up in the command zone: Krosa, controlled by alice */
    int up = 0;
    for (int i = 0; i < 5; i++) {
      int fd = 1;
      const char *nm = command_card(g, i, &fd);
      if (!fd) {
        up++;
        VCHECK(&t, !strcmp(nm, "Krosa"));
      }
    }
    VCHECK(&t, up == 1);
    mtg_object o;
    uint32_t krosa = find_obj(g, 0, MTG_Z_COMMAND, "Krosa"), bears = find_obj(g, 0, MTG_Z_BATTLEFIELD, "Grizzly Bears");
    VCHECK(&t, krosa && !mtg_object_info(g, krosa, &o) && o.controller == 0 && o.owner == 0);
    /* Krosa: "All creatures get +2/+2" */
    VCHECK(&t, bears && !mtg_object_info(g, bears, &o) && o.power == 4 && o.toughness == 4);
  }
  finish(&t, g, s);
}

/* 901.5 with the planar card the game's first object (slot 0): a setup that
 * lists alice's planar deck, one plane, before anything else still turns it
 * face up as the starting plane. */
static void t_starting_plane_first_object(unit_ctx *u, const mtg_pool *pool) {
  T t = {"901.5 the starting plane is the game's first object", 0, u};
  mtg_setup *s = pc_from_the_start(pool, 10, "Krosa");
  mtg_game *g = start(&t, s);
  if (g) {
    VCHECK(&t, log_has(g, "starting_plane player=alice obj=\"Krosa\""));
    int fd = 1;
    const char *nm = command_card(g, 0, &fd);
    VCHECK(&t, nm && !strcmp(nm, "Krosa") && !fd);
  }
  finish(&t, g, s);
}

/* mtg_game_renew gives exactly the game mtg_game_new would (mtg.h): a Planechase
 * game renewed in the handle of one whose setup placed Krosa face up after
 * Goldmeadow still turns its own starting plane face up (901.5), whatever the
 * earlier game left in the handle's memory. */
static void t_starting_plane_renewed(unit_ctx *u, const mtg_pool *pool) {
  T t = {"901.5 a renewed Planechase game turns its starting plane face up", 0, u};
  mtg_setup *s1 = pc_from_the_start(pool, 8, NULL), *s2 = pc_from_the_start(pool, 8, NULL);
  card(s1, 0, MTG_Z_COMMAND, "Goldmeadow");
  card(s2, 0, MTG_Z_COMMAND, "Goldmeadow");
  mtg_setup_face_down(s1, card(s1, 0, MTG_Z_COMMAND, "Krosa"), 0); /* placed: the current plane */
  mtg_game *g = start(&t, s1);
  if (g) {
    VCHECK(&t, !log_has(g, "starting_plane"));
    mtg_error e;
    int rc = mtg_game_renew(&g, s2, &e);
    VCHECK(&t, rc >= 0);
    if (rc >= 0) {
      VCHECK(&t, log_has(g, "starting_plane player=alice obj=\"Goldmeadow\""));
      int fd = 1;
      const char *nm = command_card(g, 0, &fd);
      VCHECK(&t, nm && !strcmp(nm, "Goldmeadow") && !fd);
    }
  }
  mtg_setup_free(s2);
  finish(&t, g, s1);
}

/* ---- setups in text form, card format errors ---- */

static void t_setup_text(unit_ctx *u, const mtg_pool *pool) {
  T t = {"704.6 variant setups survive mtg_setup_write/read", 0, u};
  mtg_setup *s = thg_setup(pool, 30, 30, 2);
  mtg_setup_variant(s, "commander");
  mtg_setup_variant(s, "planechase");
  int orca = card(s, 0, MTG_Z_BATTLEFIELD, "Lady Orca");
  mtg_setup_commander(s, orca);
  mtg_setup_commander_damage(s, 1, orca, 9);
  int k = card(s, 0, MTG_Z_COMMAND, "Krosa");
  mtg_setup_face_down(s, k, 0);
  card(s, 0, MTG_Z_COMMAND, "Goldmeadow");
  char a[8192], b[8192];
  int n = mtg_setup_write(s, a, sizeof a);
  VCHECK(&t, n > 0 && n < (int)sizeof a);
  VCHECK(&t, strstr(a, "variant two_headed_giant\n") && strstr(a, "variant commander\n") &&
                strstr(a, "team carol 1\n") && strstr(a, " commander") && strstr(a, " face_up") &&
                strstr(a, "commander_damage bob "));
  mtg_setup *r = NULL;
  mtg_error e;
  VCHECK(&t, mtg_setup_read(pool, "t", a, &r, &e) == 0);
  if (r) {
    mtg_setup_write(r, b, sizeof b);
    VCHECK(&t, !strcmp(a, b));
    mtg_game *g1 = NULL, *g2 = NULL;
    mtg_game_new(&g1, s, &e);
    mtg_game_new(&g2, r, &e);
    VCHECK(&t, g1 && g2 && mtg_game_hash(g1) == mtg_game_hash(g2));
    mtg_game_free(g1);
    mtg_game_free(g2);
  }
  mtg_setup_free(r);
  /* teammates must share life (810.4) */
  mtg_setup *bad = thg_setup(pool, 30, 30, 0);
  mtg_setup_player_counters(bad, 1, "poison", 1); /* bob 1 poison, dave 0 */
  mtg_game *g = NULL;
  VCHECK(&t, mtg_game_new(&g, bad, &e) == MTG_EDATA);
  VCHECK(&t, !strcmp(e.msg, "teammates bob and dave share a life total and poison counters (810.4, 810.10): life 30/30, poison 1/0"));
  mtg_game_free(g);
  mtg_setup_free(bad);
  /* the first player's team too: alice 30, carol 25 */
  bad = mtg_setup_new(pool);
  mtg_setup_variant(bad, "two_headed_giant");
  const char *names[4] = {"alice", "bob", "carol", "dave"};
  for (int p = 0; p < 4; p++) {
    mtg_setup_player(bad, names[p], p == 2 ? 25 : 30, 0);
    mtg_setup_team(bad, p, p % 2 ? 2 : 1);
  }
  g = NULL;
  VCHECK(&t, mtg_game_new(&g, bad, &e) == MTG_EDATA);
  VCHECK(&t, !strcmp(e.msg, "teammates alice and carol share a life total and poison counters (810.4, 810.10): life 30/25, poison 0/0"));
  mtg_game_free(g);
  mtg_setup_free(bad);
  /* 903.3: a commander is a legendary creature */
  mtg_setup *s2 = mtg_setup_new(pool);
  mtg_setup_player(s2, "alice", 40, 0);
  mtg_setup_player(s2, "bob", 40, 0);
  VCHECK(&t, mtg_setup_commander(s2, card(s2, 0, MTG_Z_BATTLEFIELD, "Grizzly Bears")) == MTG_EDATA);
  VCHECK(&t, mtg_setup_variant(s2, "two_headed_ogre") == MTG_EARG);
  mtg_setup_free(s2);
  /* 903.3: a commander is a card: a token Isamaru designated one is refused as the game begins */
  s2 = mtg_setup_new(pool);
  mtg_setup_variant(s2, "commander");
  mtg_setup_player(s2, "alice", 40, 0);
  mtg_setup_player(s2, "bob", 40, 0);
  int tok = card(s2, 0, MTG_Z_BATTLEFIELD, "Isamaru, Hound of Konda");
  VCHECK(&t, mtg_setup_token(s2, tok, 1) == 0 && mtg_setup_commander(s2, tok) == 0);
  g = NULL;
  VCHECK(&t, mtg_game_new(&g, s2, &e) == MTG_EDATA);
  VCHECK(&t, !strcmp(e.msg, "'Isamaru, Hound of Konda' can't be a commander: a token is not a card (903.3)"));
  mtg_game_free(g);
  mtg_setup_free(s2);
  finish(&t, NULL, s);
}

static void t_card_format(unit_ctx *u, const mtg_pool *pool) {
  T t = {"704.6 card format: new types and trigger events are checked", 0, u};
  static const char *const bad[][2] = {
      {"- name: X\n  type: Scheme\n  abilities:\n    - triggered: {when: {set_in_motoin: self}, effect: [{draw: 1}]}\n",
       "did you mean 'set_in_motion'"},
      {"- name: X\n  type: Plane Creature — Y\n  pt: 1/1\n", "no other card type"},
      {"- name: X\n  type: Ongoing Enchantment\n", "only schemes can be Ongoing"},
      {"- name: X\n  type: Schme\n", "did you mean 'scheme'"},
      {"- name: X\n  type: Phenomenon\n  abilities:\n    - triggered: {when: {planeswalk_awy: self}, effect: [{draw: 1}]}\n",
       "did you mean 'planeswalk_away'"},
  };
  for (int i = 0; i < NELEM_BAD(bad); i++) {
    mtg_pool *p = NULL;
    mtg_pool_new(&p, pool);
    mtg_error e;
    memset(&e, 0, sizeof e);
    int rc = mtg_pool_load_buffer(p, "bad.yaml", bad[i][0], strlen(bad[i][0]), &e);
    if (rc != MTG_EDATA || !strstr(e.msg, bad[i][1])) {
      unit_fail(t.u, __FILE__, __LINE__, "bad card %d: rc=%d msg=%s", i, rc, e.msg);
      t.failed = 1;
    }
    mtg_pool_free(p);
  }
  /* a plane's subtype is all the words after the dash (311.3) */
  mtg_pool *p = NULL;
  mtg_pool_new(&p, pool);
  mtg_error e;
  const char *ok = "- name: Test Realm\n  type: Plane — Serra's Realm\n";
  VCHECK(&t, mtg_pool_load_buffer(p, "ok.yaml", ok, strlen(ok), &e) == 0);
  mtg_setup *s = mtg_setup_new(p);
  mtg_setup_variant(s, "planechase");
  mtg_setup_player(s, "alice", 20, 0);
  mtg_setup_player(s, "bob", 20, 0);
  mtg_setup_start(s, 0, 1, MTG_S_MAIN1);
  mtg_setup_face_down(s, card(s, 0, MTG_Z_COMMAND, "Test Realm"), 0);
  mtg_game *g = start(&t, s);
  if (g) {
    mtg_object o;
    mtg_object_info(g, find_obj(g, 0, MTG_Z_COMMAND, "Test Realm"), &o);
    VCHECK(&t, !strcmp(o.types, "Plane - Serra's Realm"));
  }
  finish(&t, g, s);
  mtg_pool_free(p);
}

/* ---- random variant games under the invariant checker ---- */

static const char *const variant_cards[] = {
    "Isamaru, Hound of Konda", "Jasmine Boreal", "Lady Orca", "Tobias Andrion",
    "Look Skyward and Despair", "Tooth, Claw, and Tail", "Behold the Power of Destruction",
    "The Very Soil Shall Shake", "Krosa", "Goldmeadow", "Fields of Summer", "Mount Keralia",
    "Mutual Epiphany", "Planewide Disaster"};

static int deck_card_ok(const char *name) {
  static const char *const basics[] = {"Plains", "Island", "Swamp", "Mountain", "Forest"};
  for (int i = 0; i < NELEM_BAD(basics); i++)
    if (!strcmp(name, basics[i])) return 0;
  for (int i = 0; i < NELEM_BAD(variant_cards); i++)
    if (!strcmp(name, variant_cards[i])) return 0;
  return 1;
}

static uint32_t rnd(uint64_t *r, uint32_t n) { return play_rng_next(r) % n; }

/* A random game of one of the variants (or a plain one), 40-card decks: 17 basics of
 * two colours, 23 random cards of the pool. kind: 0 plain, 1 Two-Headed Giant (4
 * players, teams), 2 Commander, 3 Archenemy (one against a team), 4 Planechase, 5
 * Two-Headed Giant Planechase with commanders. */
static mtg_setup *random_variant_setup(const mtg_pool *deckpool, const mtg_pool *pool, uint64_t seed, int kind) {
  static const char *const names[] = {"alice", "bob", "carol", "dave"};
  static const char *const basics[] = {"Plains", "Island", "Swamp", "Mountain", "Forest"};
  static const char *const cmds[] = {"Isamaru, Hound of Konda", "Jasmine Boreal", "Lady Orca", "Tobias Andrion"};
  static const char *const schemes[] = {"Look Skyward and Despair", "Tooth, Claw, and Tail",
                                        "Behold the Power of Destruction", "The Very Soil Shall Shake",
                                        "Test Scheme Without Trigger"};
  static const char *const planar[] = {"Krosa", "Goldmeadow", "Fields of Summer", "Mount Keralia",
                                       "Mutual Epiphany", "Planewide Disaster"};
  uint64_t r = seed * 0x9E3779B97F4A7C15ULL + 7;
  mtg_setup *s = mtg_setup_new(pool);
  int np = kind == 1 || kind == 5 ? 4 : kind == 3 ? 3 : 2 + (int)rnd(&r, 3);
  int life = kind == 1 || kind == 5 ? 30 : kind == 2 ? 40 : 20;
  /* half the games start close to the end, so that the losing conditions come up */
  int late = rnd(&r, 2) == 0;
  if (late) life = 4 + (int)rnd(&r, 6);
  int poison = late && (kind == 1 || kind == 5) ? 10 + (int)rnd(&r, 5) : 0;
  if (kind == 1 || kind == 5) mtg_setup_variant(s, "two_headed_giant");
  if (kind == 2 || kind == 5) mtg_setup_variant(s, "commander");
  if (kind == 3) mtg_setup_variant(s, "archenemy");
  if (kind == 4 || kind == 5) mtg_setup_variant(s, "planechase");
  for (int p = 0; p < np; p++) {
    mtg_setup_player(s, names[p], kind == 3 && p == 0 ? 2 * life : life, poison);
    if (kind == 1 || kind == 5) mtg_setup_team(s, p, 1 + p % 2); /* 810.3: teams alternate here */
    if (kind == 3) mtg_setup_team(s, p, p == 0 ? 1 : 2);        /* 904.2: the archenemy alone */
  }
  mtg_setup_seed(s, seed);
  mtg_setup_max_turns(s, 16);
  int total = mtg_pool_count(deckpool);
  mtg_error e;
  for (int p = 0; p < np; p++) {
    int c1 = (int)rnd(&r, 5), c2 = (int)rnd(&r, 5);
    for (int i = 0; i < 40; i++) {
      const char *name = NULL;
      if (i < 17) name = basics[i % 2 ? c1 : c2];
      while (!name) {
        const char *c = mtg_pool_name(deckpool, (int)rnd(&r, (uint32_t)total));
        if (deck_card_ok(c)) name = c;
      }
      if (mtg_setup_card(s, p, MTG_Z_LIBRARY, name, &e) < 0) {
        if (i >= 17) { /* a card that can't start in a library (a dungeon, ...): draw another */
          i--;
          continue;
        }
        mtg_setup_free(s);
        return NULL;
      }
    }
    if (kind == 2 || kind == 5) {
      int en = mtg_setup_card(s, p, MTG_Z_COMMAND, cmds[(p + (int)rnd(&r, 4)) % 4], &e);
      mtg_setup_commander(s, en);
      if (late)
        for (int q = 0; q < np; q++)
          if (q != p) mtg_setup_commander_damage(s, q, en, 12 + (int)rnd(&r, 8));
    }
    if (kind == 4 || kind == 5) {
      int order[6] = {0, 1, 2, 3, 4, 5};
      for (int k = 5; k > 0; k--) {
        int j = (int)rnd(&r, (uint32_t)k + 1), t = order[k];
        order[k] = order[j];
        order[j] = t;
      }
      for (int k = 0; k < 6; k++) mtg_setup_card(s, p, MTG_Z_COMMAND, planar[order[k]], &e);
      for (int k = 0; k < 4; k++) mtg_setup_card(s, p, MTG_Z_LIBRARY, "Test Planar Portal", &e); /* planeswalks */
    }
  }
  if (kind == 3)
    for (int k = 0; k < 10; k++) mtg_setup_card(s, 0, MTG_Z_COMMAND, schemes[rnd(&r, 5)], &e);
  return s;
}

/* VARIANTS_GAMES (default 30) random games of each kind, every decision checked by
 * mtg_game_check (play.c). */
static void t_random_games(unit_ctx *u, const mtg_pool *base, const mtg_pool *pool) {
  T t = {"704.6 random variant games run clean", 0, u};
  int games = getenv("VARIANTS_GAMES") ? atoi(getenv("VARIANTS_GAMES")) : 30;
  long decisions = 0, over = 0, played = 0, known = 0;
  FILE *logf = getenv("VARIANTS_GAME_LOG") ? fopen(getenv("VARIANTS_GAME_LOG"), "w") : NULL;
  for (int kind = 0; kind < 6; kind++)
    for (int i = 0; i < games; i++) {
      uint64_t seed = (uint64_t)(1000 * kind + i + 1);
      mtg_setup *s = random_variant_setup(base, pool, seed, kind);
      VCHECK(&t, s != NULL);
      if (!s) return;
      play_opts o = {1, 3000, logf};
      play_stats st = {0};
      char why[2048] = "";
      uint64_t r = seed;
      int rc = play_game(s, play_rng_next, &r, &o, &st, why, sizeof why);
      if (rc && strstr(why, "changed the game")) {
        /* the known re-run divergence of tests/unit/soak-known.txt, not a variant rule */
        known++;
        if (getenv("VARIANTS_GAMES")) fprintf(stderr, "known issue: kind %d seed %llu: %s\n", kind, (unsigned long long)seed, why);
      } else if (rc) {
        unit_fail(u, __FILE__, __LINE__, "kind %d seed %llu: %s", kind, (unsigned long long)seed, why);
        t.failed = 1;
      }
      decisions += st.decisions;
      over += st.over;
      played++;
      mtg_setup_free(s);
      if (t.failed) break;
    }
  if (logf) fclose(logf);
  if (getenv("VARIANTS_GAMES"))
    fprintf(stderr, "variants: %ld games, %ld ended by the rules, %ld decisions, %ld known re-run issue\n", played, over,
            decisions, known);
}

TEST(variants_2hg_shared_life) {
  if (u_begin(t_, w, test_cards)) return;
  t_2hg_shared_life(t_, w->pool);
}

TEST(variants_2hg_team_loses) {
  if (u_begin(t_, w, test_cards)) return;
  t_2hg_team_loses(t_, w->pool);
}

TEST(variants_2hg_team_survives) {
  if (u_begin(t_, w, test_cards)) return;
  t_2hg_team_survives(t_, w->pool);
}

TEST(variants_2hg_poison) {
  if (u_begin(t_, w, test_cards)) return;
  t_2hg_poison(t_, w->pool);
}

TEST(variants_2hg_teammate_loses) {
  if (u_begin(t_, w, test_cards)) return;
  t_2hg_teammate_loses(t_, w->pool);
}

TEST(variants_cmd_21) {
  if (u_begin(t_, w, test_cards)) return;
  t_cmd_21(t_, w->pool);
}

TEST(variants_cmd_only_in_commander_games) {
  if (u_begin(t_, w, test_cards)) return;
  t_cmd_only_in_commander_games(t_, w->pool);
}

TEST(variants_cmd_20) {
  if (u_begin(t_, w, test_cards)) return;
  t_cmd_20(t_, w->pool);
}

TEST(variants_cmd_two) {
  if (u_begin(t_, w, test_cards)) return;
  t_cmd_two(t_, w->pool);
}

TEST(variants_cmd_noncombat) {
  if (u_begin(t_, w, test_cards)) return;
  t_cmd_noncombat(t_, w->pool);
}

TEST(variants_cmd_return_yes) {
  if (u_begin(t_, w, test_cards)) return;
  t_cmd_return(t_, w->pool, 1);
}

TEST(variants_cmd_return_no) {
  if (u_begin(t_, w, test_cards)) return;
  t_cmd_return(t_, w->pool, 0);
}

TEST(variants_cmd_tax) {
  if (u_begin(t_, w, test_cards)) return;
  t_cmd_tax(t_, w->pool);
}

TEST(variants_scheme) {
  if (u_begin(t_, w, test_cards)) return;
  t_scheme(t_, w->pool);
}

TEST(variants_scheme_no_trigger) {
  if (u_begin(t_, w, test_cards)) return;
  t_scheme_no_trigger(t_, w->pool);
}

TEST(variants_scheme_ongoing) {
  if (u_begin(t_, w, test_cards)) return;
  t_scheme_ongoing(t_, w->pool);
}

TEST(variants_scheme_not_archenemy) {
  if (u_begin(t_, w, test_cards)) return;
  t_scheme_not_archenemy(t_, w->pool);
}

TEST(variants_scheme_without_variant) {
  if (u_begin(t_, w, test_cards)) return;
  t_scheme_without_variant(t_, w->pool);
}

TEST(variants_phenomenon) {
  if (u_begin(t_, w, test_cards)) return;
  t_phenomenon(t_, w->pool);
}

TEST(variants_planeswalk_away) {
  if (u_begin(t_, w, test_cards)) return;
  t_planeswalk_away(t_, w->pool);
}

TEST(variants_starting_plane) {
  if (u_begin(t_, w, test_cards)) return;
  t_starting_plane(t_, w->pool);
}

TEST(variants_starting_plane_renewed) {
  if (u_begin(t_, w, test_cards)) return;
  t_starting_plane_renewed(t_, w->pool);
  t_starting_plane_first_object(t_, w->pool);
}

TEST(variants_setup_text) {
  if (u_begin(t_, w, test_cards)) return;
  t_setup_text(t_, w->pool);
}

TEST(variants_card_format) {
  if (u_begin(t_, w, test_cards)) return;
  t_card_format(t_, w->pool);
}

TEST(variants_random_games) {
  if (u_begin(t_, w, test_cards)) return;
  t_random_games(t_, w->base, w->pool);
}

const unit_test variants_tests[] = {
    {"variants_2hg_shared_life", variants_2hg_shared_life},
    {"variants_2hg_team_loses", variants_2hg_team_loses},
    {"variants_2hg_team_survives", variants_2hg_team_survives},
    {"variants_2hg_poison", variants_2hg_poison},
    {"variants_2hg_teammate_loses", variants_2hg_teammate_loses},
    {"variants_cmd_21", variants_cmd_21},
    {"variants_cmd_only_in_commander_games", variants_cmd_only_in_commander_games},
    {"variants_cmd_20", variants_cmd_20},
    {"variants_cmd_two", variants_cmd_two},
    {"variants_cmd_noncombat", variants_cmd_noncombat},
    {"variants_cmd_return_yes", variants_cmd_return_yes},
    {"variants_cmd_return_no", variants_cmd_return_no},
    {"variants_cmd_tax", variants_cmd_tax},
    {"variants_scheme", variants_scheme},
    {"variants_scheme_no_trigger", variants_scheme_no_trigger},
    {"variants_scheme_ongoing", variants_scheme_ongoing},
    {"variants_scheme_not_archenemy", variants_scheme_not_archenemy},
    {"variants_scheme_without_variant", variants_scheme_without_variant},
    {"variants_phenomenon", variants_phenomenon},
    {"variants_planeswalk_away", variants_planeswalk_away},
    {"variants_starting_plane", variants_starting_plane},
    {"variants_starting_plane_renewed", variants_starting_plane_renewed},
    {"variants_setup_text", variants_setup_text},
    {"variants_card_format", variants_card_format},
    {"variants_random_games", variants_random_games},
    {NULL, NULL},
};
