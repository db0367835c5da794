/* test_checker.c - unit tests of the invariant checker (mtg_game_check):
 * a game the engine plays passes it, and each kind of corruption it exists to
 * find, made by hand in an otherwise valid game, is reported with its
 * message. White-box: it reaches into the State (engine/state.h) to break
 * exactly one invariant at a time. */
#include <string.h>

#include "internal.h"
#include "unit.h"

/* A valid game at alice's priority: Grizzly Bears and Mountain on alice's
 * battlefield, Lightning Bolt in her hand, Shock in bob's graveyard, Island
 * in bob's library. */
static int start(unit_ctx *t_, u_world *w) {
  if (u_begin(t_, w, NULL)) return -1;
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Grizzly Bears"); /* slot 0 */
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Mountain");      /* slot 1 */
  u_card(t_, w, w->alice, MTG_Z_HAND, "Lightning Bolt");       /* slot 2 */
  u_card(t_, w, w->bob, MTG_Z_GRAVEYARD, "Shock");             /* slot 3 */
  u_card(t_, w, w->bob, MTG_Z_LIBRARY, "Island");              /* slot 4 */
  if (u_start(t_, w)) return -1;
  char why[256];
  if (mtg_game_check(w->game, why, sizeof why)) {
    unit_fail(t_, __FILE__, __LINE__, "a fresh game fails the checker: %s", why);
    return -1;
  }
  return 0;
}

/* The checker's verdict, which must be a failure saying `expect`. */
static int reports(unit_ctx *t_, u_world *w, const char *expect, int line) {
  char why[256] = "";
  int rc = mtg_game_check(w->game, why, sizeof why);
  if (rc != -1 || !strstr(why, expect)) {
    unit_fail(t_, __FILE__, line, "checker returned %d '%s', expected a report containing '%s'", rc, why, expect);
    return -1;
  }
  return 0;
}
#define REPORTS(text) \
  do { \
    if (reports(t_, w, (text), __LINE__)) return; \
  } while (0)

TEST(checker_passes_a_played_game) {
  if (start(t_, w)) return;
  if (u_pick(t_, w, "cast \"Lightning Bolt\"") < 0) return;
  if (u_pick(t_, w, "bob") < 0) return;
  char why[256];
  CHECK_INT(mtg_game_check(w->game, why, sizeof why), 0);
  u_pass(t_, w, 2);
  CHECK_INT(mtg_game_check(w->game, why, sizeof why), 0);
}

TEST(checker_finds_zone_list_corruption) {
  if (start(t_, w)) return;
  State *s = w->game->s;
  int bf = zl_index(MTG_Z_BATTLEFIELD, 0);
  s->zl[bf][0] = s->c.nslots; /* past the last slot */
  REPORTS("out of range");
  s->zl[bf][0] = -1;
  REPORTS("out of range");
  s->zl[bf][0] = 0;
  s->obj[0].id = 0; /* a freed slot still listed */
  REPORTS("holds a free slot 0");
}

TEST(checker_finds_an_object_in_two_lists) {
  if (start(t_, w)) return;
  State *s = w->game->s;
  int ex = zl_index(MTG_Z_EXILE, 0);
  s->zl[ex][s->c.zn[ex]++] = 0; /* the Bears also in exile */
  REPORTS("is in two zone lists");
}

TEST(checker_finds_a_zone_field_that_disagrees) {
  if (start(t_, w)) return;
  w->game->s->obj[0].zone = MTG_Z_EXILE; /* listed on the battlefield */
  REPORTS("is listed in battlefield but says exile");
}

TEST(checker_finds_a_card_in_another_players_zone) {
  if (start(t_, w)) return;
  w->game->s->obj[2].owner = 1; /* alice's hand holds a card bob owns */
  REPORTS("is in another player's hand");
  w->game->s->obj[2].owner = 0;
  w->game->s->obj[3].owner = 0; /* bob's graveyard holds alice's card */
  REPORTS("is in another player's graveyard");
}

TEST(checker_finds_objects_in_no_zone) {
  if (start(t_, w)) return;
  State *s = w->game->s;
  int hand = zl_index(MTG_Z_HAND, 0);
  s->c.zn[hand] = 0; /* the Bolt drops out of alice's hand list */
  REPORTS("is in no zone list");
  s->c.zn[hand] = 1;
  int lib = zl_index(MTG_Z_LIBRARY, 1);
  s->c.zn[lib] = 0;
  s->obj[4].zone = MTG_Z_COUNT;
  REPORTS("is in no zone");
}

TEST(checker_finds_negative_damage_and_empty_counters) {
  if (start(t_, w)) return;
  State *s = w->game->s;
  s->obj[0].damage = -1;
  REPORTS("has negative damage");
  s->obj[0].damage = 0;
  s->obj[1].nc = 1;
  s->obj[1].c[0].kind = 0;
  s->obj[1].c[0].n = 0; /* a kind with no counter is not kept */
  REPORTS("has 0 +1/+1 counters");
  s->obj[1].nc = 0;
  s->c.pl[1].nc = 1;
  s->c.pl[1].c[0].kind = 3;
  s->c.pl[1].c[0].n = -2;
  REPORTS("player bob has -2 poison counters");
  s->c.pl[1].c[0].n = 0;
  REPORTS("player bob has 0 poison counters");
}

/* The snapshot and its restore copy only the objects obj_w marked written:
 * an object changed any other way differs from the snapshot unmarked. */
TEST(checker_finds_an_object_written_without_obj_w) {
  if (start(t_, w)) return;
  State *s = w->game->s;
  s->obj[1].tapped = 1; /* the Mountain, behind the snapshot's back */
  REPORTS("written without obj_w");
  s->obj[1].tapped = 0;
  char why[256];
  CHECK_INT(mtg_game_check(w->game, why, sizeof why), 0);
  obj_w(w->game, 1)->tapped = 1; /* marked: the next snapshot copies it */
  CHECK_INT(mtg_game_check(w->game, why, sizeof why), 0);
  /* the first slot and the last are compared as every other is */
  int last = s->c.nslots - 1;
  s->obj[0].damage = 1; /* the Grizzly Bears */
  REPORTS("(slot 0) was written without obj_w");
  s->obj[0].damage = 0;
  s->obj[last].tapped = (uint8_t)!s->obj[last].tapped;
  REPORTS("was written without obj_w");
  s->obj[last].tapped = (uint8_t)!s->obj[last].tapped;
  CHECK_INT(mtg_game_check(w->game, why, sizeof why), 0);
}

TEST(checker_finds_a_broken_stack) {
  if (start(t_, w)) return;
  if (u_pick(t_, w, "cast \"Lightning Bolt\"") < 0) return;
  if (u_pick(t_, w, "bob") < 0) return;
  State *s = w->game->s;
  CHECK_INT(s->c.nstack, 1);
  s->stack[1] = s->stack[0];
  s->stack[1].kind = SI_ACTIVATED;
  s->c.nstack = 2; /* the same id twice */
  REPORTS("stack id #");
  s->c.nstack = 1;
  uint32_t id = s->stack[0].id;
  s->stack[0].id = id + 100; /* no longer its object's id */
  REPORTS("does not match its object");
  s->stack[0].id = id;
  int ex = zl_index(MTG_Z_EXILE, 0);
  s->zl[ex][s->c.zn[ex]++] = s->stack[0].slot;
  s->obj[s->stack[0].slot].zone = MTG_Z_STACK;
  REPORTS("listed in exile but says stack");
}

TEST(checker_finds_what_priority_must_not_see) {
  if (start(t_, w)) return;
  State *s = w->game->s;
  s->obj[1].attached = oref(w->game, 4); /* the Mountain "attached" to a card... */
  s->obj[4].id += 1000;                  /* ...that has since become another object */
  REPORTS("is attached to an object that no longer exists");
  s->obj[4].id -= 1000;
  s->obj[1].attached = oref_none();
  Obj *bears = obj_w(w->game, 0); /* written as the engine writes: the cache redoes it */
  bears->c[0].kind = 1;
  bears->c[0].n = 2; /* two -1/-1 counters on the 2/2 Bears */
  bears->nc = 1;
  chars_dirty(w->game);
  REPORTS("creature #");
  obj_w(w->game, 0)->nc = 0;
  chars_dirty(w->game);
  s->c.npend = 1;
  REPORTS("1 triggered abilities wait at priority");
}

TEST(checker_finds_a_stale_characteristics_cache) {
  if (start(t_, w)) return;
  const Chars *c = chars(w->game, 0);
  ((Chars *)c)->power = 7; /* the cache says 7, a recomputation says 2 */
  REPORTS("cached characteristics of #");
}

/* the counts a plain recomputation relies on: none of either in this game */
TEST(checker_finds_stale_cached_counts) {
  if (start(t_, w)) return;
  G *g = w->game;
  CHECK_INT(g->flash_perms, 0);
  CHECK_INT(g->grants, 0);
  g->flash_perms = 1;
  REPORTS("the cached count of \"as though it had flash\" abilities is stale: 1, a recomputation finds 0");
  g->flash_perms = 0;
  g->grants = 2;
  REPORTS("the cached count of ability-granting effects is stale: 2, a recomputation finds 0");
  g->grants = 0;
  char why[256];
  CHECK_INT(mtg_game_check(g, why, sizeof why), 0);
}

/* each characteristic the checker compares, stale alone, named in the report */
TEST(checker_finds_each_stale_characteristic) {
  if (start(t_, w)) return;
  static const char *const field[] = {"power", "toughness", "types", "keywords", "controller", "number of abilities",
                                      "colors", "name", "supertypes", "has_pt", "lost_all", "all_creature_types",
                                      "number of subtypes", "subtypes", "copiable values", "abilities", "abilities",
                                      "abilities"};
  for (int k = 0; k < (int)NELEM(field); k++) {
    int sl = k >= 15; /* the Mountain's mana ability; the Bears have none */
    Chars *c = (Chars *)chars(w->game, sl), keep = *c;
    switch (k) {
    case 0: c->power++; break;
    case 1: c->toughness++; break;
    case 2: c->types ^= T_ARTIFACT; break;
    case 3: c->kw ^= 1; break;
    case 4: c->controller ^= 1; break;
    case 5: c->nab++; break;
    case 6: c->colors ^= 1; break;
    case 7: c->name = "Grizzly Bear"; break;
    case 8: c->supers ^= 1; break;
    case 9: c->has_pt ^= 1; break;
    case 10: c->lost_all ^= 1; break;
    case 11: c->all_creature_types ^= 1; break;
    case 12: c->sub[c->nsub++] = "Elf"; break;
    case 13: c->sub[0] = "Elf"; break; /* Grizzly Bears is a Bear */
    case 14: c->base = chars(w->game, 1)->base; break;
    case 15: c->ab[0].grant ^= 1; break; /* each of an ability's three fields alone */
    case 16: c->ab[0].ab++; break;         /* one past the Mountain's one ability: compared, never read */
    default: c->ab[0].def = chars(w->game, 0)->base; break;
    }
    char want[96];
    snprintf(want, sizeof want, "cached characteristics of #%u (slot %d) are stale: %s", (unsigned)w->game->s->obj[sl].id, sl, field[k]);
    REPORTS(want);
    *(Chars *)chars(w->game, sl) = keep;
    char why[256];
    CHECK_INT(mtg_game_check(w->game, why, sizeof why), 0);
  }
}

/* The check puts the cache back as it found it: a stale entry stays stale
 * (a check that rebuilt the cache would hide it from every later look), and
 * a good cache is left bit for bit, its validity marks included. */
TEST(checker_leaves_the_cache_as_it_was) {
  if (start(t_, w)) return;
  G *g = w->game;
  int n = g->s->c.nslots;
  ((Chars *)chars(g, 0))->power = 7;
  REPORTS("stale: power");
  CHECK_INT(chars(g, 0)->power, 7);
  REPORTS("stale: power");
  ((Chars *)chars(g, 0))->power = 2;
  Chars before[8];
  CHECK(n <= (int)NELEM(before));
  memcpy(before, g->ch, (size_t)n * sizeof *before);
  uint32_t epoch = g->epoch, ch_epoch = g->ch_epoch, sum_epoch = g->sum_epoch;
  uint8_t lazy[8];
  memcpy(lazy, g->ch_lazy, sizeof lazy);
  char why[256];
  CHECK_INT(mtg_game_check(g, why, sizeof why), 0);
  CHECK(!memcmp(before, g->ch, (size_t)n * sizeof *before));
  CHECK_INT(g->epoch, epoch);
  CHECK_INT(g->ch_epoch, ch_epoch);
  CHECK_INT(g->sum_epoch, sum_epoch);
  CHECK(!memcmp(lazy, g->ch_lazy, sizeof lazy)); /* the Island in bob's library is still to be computed */
}

TEST(checker_finds_a_stale_battlefield_summary) {
  if (start(t_, w)) return;
  G *g = w->game;
  const BfSum *sum = bf_sum(g);
  BfSum keep = *sum;
  ((BfSum *)sum)->types ^= T_ARTIFACT;
  REPORTS("the cached summary of the battlefield is stale: types");
  *(BfSum *)sum = keep;
  ((BfSum *)sum)->statics[0] ^= 1;
  REPORTS("the cached summary of the battlefield is stale: static ability kinds");
  *(BfSum *)sum = keep;
  ((BfSum *)sum)->statics[1] ^= 1; /* kind 64 on */
  REPORTS("the cached summary of the battlefield is stale: static ability kinds");
  *(BfSum *)sum = keep;
  g->ch_bf[0] &= ~(uint64_t)1; /* made without the Bears */
  REPORTS("the cached summary of the battlefield misses #");
  g->ch_bf[0] |= 1;
  g->ch_bf[0] |= 1 << 2; /* made with the Lightning Bolt in alice's hand */
  REPORTS("the cached summary of the battlefield counts #");
  g->ch_bf[0] &= ~(uint64_t)(1 << 2);
  char why[256];
  CHECK_INT(mtg_game_check(g, why, sizeof why), 0);
}

/* the trigger listener index, where the engine takes it as valid */
TEST(checker_finds_a_stale_trigger_index) {
  if (start(t_, w)) return;
  G *g = w->game;
  if (u_pick(t_, w, "cast \"Lightning Bolt\"") < 0) return;
  if (u_pick(t_, w, "bob") < 0) return;
  u_pass(t_, w, 2); /* resolved: the events after its move looked for triggers */
  CHECK(trig_index_valid(g));
  char why[256];
  CHECK_INT(mtg_game_check(g, why, sizeof why), 0);
  int listen = g->li_n[0];
  char want[200];
  snprintf(want, sizeof want, "the trigger index is stale: %d abilities listen for trigger event 0, a rebuild finds %d",
           listen + 1, listen);
  g->li_n[0]++;
  REPORTS(want);
  g->li_n[0]--;
  CHECK_INT(mtg_game_check(g, why, sizeof why), 0);
}

/* an entry of the index that names another ability than a rebuild, with the
 * same number of entries */
TEST(checker_finds_a_trigger_index_entry_that_differs) {
  if (u_begin(t_, w, NULL)) return;
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Soul Warden");
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Mountain");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Lightning Bolt");
  if (u_start(t_, w)) return;
  G *g = w->game;
  if (u_pick(t_, w, "cast \"Lightning Bolt\"") < 0) return;
  if (u_pick(t_, w, "bob") < 0) return;
  u_pass(t_, w, 2);
  CHECK(trig_index_valid(g));
  CHECK_INT(g->li_n[TE_ENTERS], 1); /* Soul Warden's ability */
  char why[256];
  CHECK_INT(mtg_game_check(g, why, sizeof why), 0);
  int16_t *entry = &g->li[(size_t)TE_ENTERS * (size_t)g->li_cap]; /* slot, ability */
  unsigned id = g->s->obj[entry[0]].id;
  int ability = entry[1];
  char want[200];
  snprintf(want, sizeof want, "the trigger index is stale: for trigger event %d it lists ability %d of #%u, a rebuild ability %d of #%u",
           TE_ENTERS, ability + 1, id, ability, id);
  entry[1]++;
  REPORTS(want);
  entry[1]--;
  CHECK_INT(mtg_game_check(g, why, sizeof why), 0);
}

/* the activated-ability index of the priority listing, where the engine takes
 * it as valid: an entry that names other players than a fresh look, with the
 * same number of entries, one entry too many and one too few */
TEST(checker_finds_a_stale_activated_ability_index) {
  if (start(t_, w)) return;
  G *g = w->game;
  CHECK(act_index_valid(g)); /* alice's priority was just listed */
  CHECK(g->act_n >= 1);      /* the Mountain's mana ability at least */
  char why[256];
  CHECK_INT(mtg_game_check(g, why, sizeof why), 0);
  ActRef *r = &g->act[0];
  char want[200];
  snprintf(want, sizeof want, "the activated-ability index is stale: its entry 0 is not ability %d of #%u (slot %d) for players %#x",
           r->ab, (unsigned)g->s->obj[r->slot].id, r->slot, r->reach);
  r->reach ^= 2; /* bob's bit */
  REPORTS(want);
  r->reach ^= 2;
  CHECK_INT(mtg_game_check(g, why, sizeof why), 0);
  if (g->act_n == g->act_cap) return; /* no room for the extra entry (the index starts with 128) */
  int n = g->act_n;
  g->act[n] = g->act[n - 1];
  g->act_n++;
  snprintf(want, sizeof want, "the activated-ability index is stale: it lists %d abilities, a look finds %d", n + 1, n);
  REPORTS(want);
  g->act_n--;
  CHECK_INT(mtg_game_check(g, why, sizeof why), 0);
  /* one entry too few: the look finds an ability past the index's end */
  const ActRef *last = &g->act[n - 1];
  snprintf(want, sizeof want, "the activated-ability index is stale: its entry %d is not ability %d of #%u (slot %d) for players %#x",
           n - 1, last->ab, (unsigned)g->s->obj[last->slot].id, last->slot, last->reach);
  g->act_n--;
  REPORTS(want);
  g->act_n++;
  CHECK_INT(mtg_game_check(g, why, sizeof why), 0);
}

TEST(checker_finds_an_over_status_without_a_game_over) {
  if (start(t_, w)) return;
  w->game->status = MTG_OVER;
  REPORTS("status is over but the game is not");
  w->game->s->c.over = 1;
  char why[256];
  CHECK_INT(mtg_game_check(w->game, why, sizeof why), 0);
}

TEST(checker_finds_a_decision_without_options) {
  if (start(t_, w)) return;
  w->game->dec->pub.n_options = 0;
  REPORTS("decision priority has no options");
  /* one that may be answered with no option at all needs none ("any number") */
  w->game->dec->pub.min = 0;
  char why[256];
  CHECK_INT(mtg_game_check(w->game, why, sizeof why), 0);
}

TEST(checker_finds_bad_designations) {
  if (start(t_, w)) return;
  State *s = w->game->s;
  s->obj[0].sector = 4;
  REPORTS("has a bad protector or sector");
  s->obj[0].sector = 3;
  s->obj[0].protector = 3; /* a third player in a two-player game */
  REPORTS("has a bad protector or sector");
  s->obj[0].protector = 0;
  s->obj[2].sector = 1; /* in alice's hand */
  REPORTS("keeps a designation off the battlefield");
  s->obj[2].sector = 0;
  s->obj[2].protector = 1;
  REPORTS("keeps a designation off the battlefield");
}

/* The log's vocabulary (vocab.c, docs/events.md): a line of an unknown type,
 * or with a field its type does not carry, is reported; the key ends at the
 * first '=' outside quotes (a later one, or one inside quotes, is part of the
 * value), a word without '=' continues the value before it, and
 * a decision's choice is the rest of its line, whatever it holds. */
TEST(checker_finds_lines_outside_the_vocabulary) {
  if (start(t_, w)) return;
  G *g = w->game;
  char why[256] = "";
  log_line(g, 0, "tap obj=\"A=B amont=1\"#9 rule=701.26a");
  log_line(g, 0, "untap obj=amont=1 rule=701.26b");
  log_line(g, 0, "create_token player=alice name=Soldier Token n=1");
  log_line(g, 1, "decide kind=priority player=alice choice=cast amont=2");
  if (mtg_game_check(g, why, sizeof why)) unit_fail(t_, __FILE__, __LINE__, "%s", why);
  log_line(g, 0, "damage src=\"Grizzly Bears\"#1 to=bob amont=3");
  REPORTS("a damage line with field 'amont'");
}

TEST(checker_finds_a_line_of_unknown_type) {
  if (start(t_, w)) return;
  log_line(w->game, 0, "damge src=\"Grizzly Bears\"#1 to=bob amount=3");
  REPORTS("a line of unknown type 'damge'");
}

/* The log marks exactly its decide lines as decisions (replays count them):
 * a decide line unmarked, or another line marked, is reported by number. */
TEST(checker_finds_a_decide_line_not_marked_a_decision) {
  if (start(t_, w)) return;
  char want[64];
  snprintf(want, sizeof want, "log line %d is not marked a decision", w->game->nent + 1);
  log_line(w->game, 0, "decide kind=priority player=alice choice=pass");
  REPORTS(want);
}

TEST(checker_finds_another_line_marked_a_decision) {
  if (start(t_, w)) return;
  char want[64];
  snprintf(want, sizeof want, "log line %d is marked a decision", w->game->nent + 1);
  log_line(w->game, 1, "tap obj=\"Grizzly Bears\"#1 rule=701.26a");
  REPORTS(want);
}

/* 309.3: a player has at most one dungeon in the command zone, its venture
 * marker on one of its rooms; 309.2c: a dungeon is never outside it. */
TEST(checker_finds_bad_dungeons) {
  if (u_begin(t_, w, NULL)) return;
  u_card(t_, w, w->alice, MTG_Z_COMMAND, "Lost Mine of Phandelver");
  u_card(t_, w, w->bob, MTG_Z_COMMAND, "Tomb of Annihilation");
  if (u_start(t_, w)) return;
  G *g = w->game;
  State *s = g->s;
  int mine = -1, tomb = -1;
  for (int i = 0; i < s->c.nslots; i++)
    if (s->obj[i].id && s->obj[i].zone == MTG_Z_COMMAND) {
      if (s->obj[i].owner == w->alice) mine = i;
      else tomb = i;
    }
  CHECK(mine >= 0 && tomb >= 0);
  if (mine < 0 || tomb < 0) return;
  char why[256];
  CHECK_INT(mtg_game_check(g, why, sizeof why), 0);
  uint8_t room = s->obj[mine].room;
  s->obj[mine].room = 0;
  REPORTS("has its venture marker on no room");
  s->obj[mine].room = (uint8_t)(s->obj[mine].def->nrooms + 1);
  REPORTS("has its venture marker on no room");
  s->obj[mine].room = room;
  s->obj[tomb].owner = (uint8_t)w->alice;
  REPORTS("owns two dungeons in the command zone");
  s->obj[tomb].owner = (uint8_t)w->bob;
  CHECK_INT(mtg_game_check(g, why, sizeof why), 0);
  zone_move(g, tomb, MTG_Z_EXILE, 0, -1);
  REPORTS("is outside the command zone");
}

TEST(checker_finds_variant_inconsistencies) {
  if (start(t_, w)) return;
  State *s = w->game->s;
  s->c.v.kind |= VAR_2HG; /* a Two-Headed Giant game, alice and bob one team */
  s->c.pl[0].team = s->c.pl[1].team = 1;
  s->c.pl[1].life = 19;
  REPORTS("teammates alice and bob differ in life or poison");
  s->c.pl[1].life = 20;
  char why[256];
  CHECK_INT(mtg_game_check(w->game, why, sizeof why), 0);
  s->c.pl[1].c[0].kind = 3;
  s->c.pl[1].c[0].n = 1;
  s->c.pl[1].nc = 1; /* one poison counter, on bob only */
  REPORTS("teammates alice and bob differ in life or poison");
  s->c.pl[1].nc = 0;
  s->c.pl[0].team = s->c.pl[1].team = 0;
  CHECK_INT(mtg_game_check(w->game, why, sizeof why), 0);
  /* alice's Grizzly Bears (card 0, slot 0) her commander, then a token in its slot */
  s->c.v.kind |= VAR_COMMANDER;
  s->c.v.ncmd = 1;
  s->c.v.cmd_card[0] = 0;
  s->c.v.cmd_owner[0] = 0;
  CHECK_INT(mtg_game_check(w->game, why, sizeof why), 0);
  s->obj[0].kind = OK_TOKEN;
  REPORTS("commander 0 lost its card");
  s->obj[0].kind = OK_CARD;
  s->c.v.ncmd = 0;
  int cmd = zl_index(MTG_Z_COMMAND, 0), bf = zl_index(MTG_Z_BATTLEFIELD, 0);
  /* move the Mountain from the battlefield to the command zone, face down */
  s->c.zn[bf]--;
  s->zl[cmd][s->c.zn[cmd]++] = 1;
  s->obj[1].zone = MTG_Z_COMMAND;
  s->obj[1].face_down = 1;
  REPORTS("is face down in the command zone but no scheme, plane or phenomenon");
}

/* each player's library, hand and graveyard hold only that player's cards */
TEST(checker_finds_a_card_in_another_players_library) {
  if (start(t_, w)) return;
  w->game->s->obj[4].owner = 0; /* bob's library holds alice's Island */
  REPORTS("is in another player's library");
}

/* a spell on the stack is its object: in range, on the stack, the same id */
TEST(checker_finds_each_way_a_spell_misses_its_object) {
  if (start(t_, w)) return;
  if (u_pick(t_, w, "cast \"Lightning Bolt\"") < 0) return;
  if (u_pick(t_, w, "bob") < 0) return;
  State *s = w->game->s;
  CHECK_INT(s->c.nstack, 1);
  int slot = s->stack[0].slot;
  char why[256];
  CHECK_INT(mtg_game_check(w->game, why, sizeof why), 0);
  s->stack[0].slot = -1;
  REPORTS("does not match its object");
  s->stack[0].slot = s->c.nslots;
  REPORTS("does not match its object");
  s->stack[0].slot = 0; /* the Bears, on the battlefield */
  REPORTS("does not match its object");
  s->stack[0].slot = slot;
  CHECK_INT(mtg_game_check(w->game, why, sizeof why), 0);
}

/* an object in no zone is allowed for a card whose owner left the game only */
TEST(checker_allows_no_zone_only_after_its_owner_left) {
  if (start(t_, w)) return;
  State *s = w->game->s;
  int lib = zl_index(MTG_Z_LIBRARY, 1);
  s->c.zn[lib] = 0;
  obj_w(w->game, 4)->zone = MTG_Z_COUNT; /* bob's Island, written as the engine writes */
  REPORTS("is in no zone");
  s->c.pl[1].left = 1;
  char why[256];
  CHECK_INT(mtg_game_check(w->game, why, sizeof why), 0);
  obj_w(w->game, 4)->kind = OK_TOKEN; /* a token does not stay behind its owner */
  REPORTS("is in no zone");
  obj_w(w->game, 4)->kind = OK_CARD;
  s->c.pl[1].left = 0;
  s->c.pl[0].left = 1; /* the other player left */
  REPORTS("is in no zone");
}

/* at priority: a creature with toughness 1 lives; a phased-out permanent
 * is not looked at (702.26b) */
TEST(checker_at_priority_sees_only_what_state_based_actions_would) {
  if (start(t_, w)) return;
  char why[256];
  Obj *bears = obj_w(w->game, 0);
  bears->c[0].kind = 1;
  bears->c[0].n = 1; /* one -1/-1 counter on the 2/2 Bears */
  bears->nc = 1;
  chars_dirty(w->game);
  CHECK_INT(mtg_game_check(w->game, why, sizeof why), 0);
  obj_w(w->game, 0)->c[0].n = 3; /* toughness -1 */
  chars_dirty(w->game);
  REPORTS("has toughness -1 at priority");
  obj_w(w->game, 0)->phased_out = 1;
  chars_dirty(w->game);
  CHECK_INT(mtg_game_check(w->game, why, sizeof why), 0);
}

/* The option contract (mtg_decision_check): each field used only where the
 * option kind gives it a meaning, and labels that agree with the fields. */
static int option_reports(unit_ctx *t_, u_world *w, int i, mtg_option o, const char *expect, int line) {
  mtg_option *opt = &w->game->dec->opt[i];
  mtg_option keep = *opt;
  char label[96];
  snprintf(label, sizeof label, "%s", keep.label);
  *opt = o;
  if (o.label != keep.label) snprintf(w->game->dec->labels[i], sizeof w->game->dec->labels[i], "%s", o.label);
  opt->label = w->game->dec->labels[i];
  char why[512] = "";
  int rc = mtg_decision_check(w->game, why, sizeof why);
  *opt = keep;
  snprintf(w->game->dec->labels[i], sizeof w->game->dec->labels[i], "%s", label);
  if (rc != -1 || !strstr(why, expect)) {
    unit_fail(t_, __FILE__, line, "option %d: mtg_decision_check returned %d '%s', expected '%s'", i, rc, why, expect);
    return -1;
  }
  return 0;
}
#define OPTION_REPORTS(i, o, text) \
  do { \
    if (option_reports(t_, w, (i), (o), (text), __LINE__)) return; \
  } while (0)

TEST(decision_check_keeps_the_option_contract_at_priority) {
  if (start(t_, w)) return;
  char why[512];
  CHECK_INT(mtg_decision_check(w->game, why, sizeof why), 0);
  int pass = u_find(w->game, "pass"), cast = u_find(w->game, "cast \"Lightning Bolt\""), act = u_find(w->game, "activate");
  CHECK(pass >= 0 && cast >= 0 && act >= 0);
  const mtg_option *o = w->game->dec->opt;
  mtg_option x = o[pass];
  x.obj2 = o[cast].obj;
  OPTION_REPORTS(pass, x, "a second object on an option that has none");
  x = o[pass];
  x.player = 0;
  OPTION_REPORTS(pass, x, "a player on an option that has none");
  x = o[pass];
  x.obj = o[cast].obj;
  OPTION_REPORTS(pass, x, "an object on an option that has none");
  x = o[pass];
  x.index = 0;
  OPTION_REPORTS(pass, x, "an index on an option that has none");
  x = o[cast];
  x.obj = 0;
  OPTION_REPORTS(cast, x, "no object");
  x = o[cast];
  x.index = 1;
  OPTION_REPORTS(cast, x, "face down or not");
  x = o[cast];
  x.index = 0;
  OPTION_REPORTS(cast, x, "a cast option's index is -1 or 1");
  x = o[cast];
  x.label = "cast \"Lightning Bolt\"#3 face_down=1";
  OPTION_REPORTS(cast, x, "face down or not");
  x = o[act];
  x.index = o[act].index + 1;
  OPTION_REPORTS(act, x, "the ability index and the label disagree");
  x = o[act];
  x.index = -1;
  OPTION_REPORTS(act, x, "the ability index and the label disagree");
  x = o[act];
  x.label = "turn_face_up \"Mountain\"#2";
  OPTION_REPORTS(act, x, "the ability index and the label disagree");
  x = o[act];
  x.label = "";
  OPTION_REPORTS(act, x, "has no readable label");
  x = o[act];
  x.label = "activate \"Mountain\"#2/0\n";
  OPTION_REPORTS(act, x, "has no readable label");
  CHECK_INT(mtg_decision_check(w->game, why, sizeof why), 0);
  /* the prompt and the deciding player */
  w->game->dec->prompt[0] = 0;
  CHECK_INT(mtg_decision_check(w->game, why, sizeof why), -1);
  CHECK(strstr(why, "decision priority has no readable prompt") != NULL);
  snprintf(w->game->dec->prompt, sizeof w->game->dec->prompt, "priority\t");
  CHECK_INT(mtg_decision_check(w->game, why, sizeof why), -1);
  snprintf(w->game->dec->prompt, sizeof w->game->dec->prompt, "priority");
  w->game->dec->pub.player = 2;
  CHECK_INT(mtg_decision_check(w->game, why, sizeof why), -1);
  CHECK(strstr(why, "for no player (2)") != NULL);
  w->game->dec->pub.player = -1;
  CHECK_INT(mtg_decision_check(w->game, why, sizeof why), -1);
  w->game->dec->pub.player = 1;
  CHECK_INT(mtg_decision_check(w->game, why, sizeof why), 0);
}

TEST(decision_check_keeps_the_option_contract_for_targets) {
  if (start(t_, w)) return;
  if (u_pick(t_, w, "cast \"Lightning Bolt\"") < 0) return;
  char why[512];
  CHECK_INT(mtg_decision_check(w->game, why, sizeof why), 0);
  int bob = u_find(w->game, "bob"), alice = u_find(w->game, "alice"), bears = u_find(w->game, "\"Grizzly Bears\"");
  CHECK(bob >= 0 && alice >= 0 && bears >= 0);
  const mtg_option *o = w->game->dec->opt;
  mtg_option x = o[bob];
  x.player = 2;
  OPTION_REPORTS(bob, x, "no such player");
  x = o[bob];
  x.player = -1;
  OPTION_REPORTS(bob, x, "no such player");
  x = o[bob];
  x.player = o[alice].player;
  OPTION_REPORTS(bob, x, "not the player's name");
  /* an object option's index, when it has one, is its place among the options */
  x = o[bears];
  x.index = bears + 1;
  OPTION_REPORTS(bears, x, "an object option's index is -1 or its place among the options");
  mtg_option *ob = &w->game->dec->opt[bears];
  ob->index = bears;
  CHECK_INT(mtg_decision_check(w->game, why, sizeof why), 0);
  ob->index = -1;
  x = o[bears];
  x.index = -2;
  OPTION_REPORTS(bears, x, "a bad index");
  x = o[bears];
  x.player = 1;
  OPTION_REPORTS(bears, x, "a player on an option that has none");
  x = o[bears];
  x.obj = 0;
  OPTION_REPORTS(bears, x, "no object");
}

TEST(decision_check_keeps_the_option_contract_for_attacks) {
  if (u_begin(t_, w, NULL)) return;
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Grizzly Bears");
  u_card(t_, w, w->bob, MTG_Z_BATTLEFIELD, "Grizzly Bears");
  mtg_setup_start(w->setup, w->alice, 3, MTG_S_DECLARE_ATTACKERS);
  if (u_start(t_, w)) return;
  const mtg_decision *d = mtg_game_decision(w->game);
  CHECK(d != NULL && d->kind == MTG_D_ATTACKERS && d->n_options == 1);
  char why[512];
  CHECK_INT(mtg_decision_check(w->game, why, sizeof why), 0);
  const mtg_option *o = w->game->dec->opt;
  mtg_option x = o[0];
  x.obj2 = o[0].obj;
  OPTION_REPORTS(0, x, "an attack on no defender or on two");
  x = o[0];
  x.player = -1;
  OPTION_REPORTS(0, x, "an attack on no defender or on two");
  x = o[0];
  x.player = 2;
  OPTION_REPORTS(0, x, "no such player");
  x = o[0];
  x.index = 0;
  OPTION_REPORTS(0, x, "an index on an option that has none");
  x = o[0];
  x.kind = MTG_O_BLOCK;
  OPTION_REPORTS(0, x, "a block without the attacker it blocks");
  /* an attack or a block is about a creature: one without it is malformed */
  x = o[0];
  x.obj = 0;
  OPTION_REPORTS(0, x, "no object");
  x = o[0];
  x.kind = MTG_O_BLOCK;
  x.player = -1;
  x.obj2 = o[0].obj;
  x.obj = 0;
  OPTION_REPORTS(0, x, "no object");
}

/* The option put at place i passes the contract. */
static int option_passes(unit_ctx *t_, u_world *w, int i, mtg_option o, int line) {
  mtg_option *opt = &w->game->dec->opt[i];
  mtg_option keep = *opt;
  char label[96];
  snprintf(label, sizeof label, "%s", keep.label);
  *opt = o;
  snprintf(w->game->dec->labels[i], sizeof w->game->dec->labels[i], "%s", o.label);
  opt->label = w->game->dec->labels[i];
  char why[512] = "";
  int rc = mtg_decision_check(w->game, why, sizeof why);
  *opt = keep;
  snprintf(w->game->dec->labels[i], sizeof w->game->dec->labels[i], "%s", label);
  if (rc != 0) {
    unit_fail(t_, __FILE__, line, "option %d (kind %d '%s'): mtg_decision_check returned %d '%s', expected it to pass", i, o.kind, o.label, rc,
              why);
    return -1;
  }
  return 0;
}
#define OPTION_PASSES(i, o) \
  do { \
    if (option_passes(t_, w, (i), (o), __LINE__)) return; \
  } while (0)

/* Every option kind, valid and then with each field it must not have or
 * must have wrong: which kinds carry an object, a player, an index, and
 * what the index of each means (mtg.h). */
TEST(decision_check_keeps_the_option_contract_of_every_kind) {
  if (start(t_, w)) return;
  int cast = u_find(w->game, "cast \"Lightning Bolt\"");
  CHECK(cast >= 0);
  uint32_t obj = w->game->dec->opt[cast].obj;
  int at = cast; /* every kind tried in the cast option's place */
  static const struct {
    int kind;
    const char *label;
    int index, player, object; /* object: 1 it has one, 0 none, -1 either */
  } valid[] = {
      {MTG_O_PASS, "pass", -1, -1, 0},
      {MTG_O_YES, "yes", -1, -1, 0},
      {MTG_O_NO, "no", -1, -1, 0},
      {MTG_O_PLAYER, "bob", -1, 1, 0},
      {MTG_O_MODE, "mode 1: deal 2 damage", 0, -1, 0},
      {MTG_O_MODE, "mode 10", 9, -1, 0},
      {MTG_O_COLOR, "white", 0, -1, 0},
      {MTG_O_COLOR, "green", 4, -1, 0},
      {MTG_O_NAME, "Grizzly Bears", 0, -1, 0},
      {MTG_O_WORD, "odd", 0, -1, -1},
      {MTG_O_TRIGGER, "\"Grizzly Bears\"#1 trigger", 0, -1, 1},
      {MTG_O_EFFECT, "\"Grizzly Bears\"#1 effect", 3, -1, 1},
      {MTG_O_OBJECT, "\"Grizzly Bears\"#1", -1, -1, 1},
      {MTG_O_PLAY, "play \"Mountain\"#2", -1, -1, 1},
      {MTG_O_CAST, "cast \"Lightning Bolt\"#3", -1, -1, 1},
      {MTG_O_CAST, "cast \"Lightning Bolt\"#3 face_down=1", 1, -1, 1},
      {MTG_O_ACTIVATE, "activate \"Mountain\"#2/0", 0, -1, 1},
      {MTG_O_ACTIVATE, "activate \"Mountain\"#2/12", 12, -1, 1},
      {MTG_O_ACTIVATE, "activate \"Mountain\"#2/305", 305, -1, 1},
      {MTG_O_ACTIVATE, "turn_face_up \"Mountain\"#2", -1, -1, 1},
      {MTG_O_ACTIVATE, "foretell \"Mountain\"#2", -1, -1, 1},
  };
  for (size_t v = 0; v < NELEM(valid); v++) {
    int k = valid[v].kind;
    mtg_option o;
    memset(&o, 0, sizeof o);
    o.kind = k;
    o.label = valid[v].label;
    o.index = valid[v].index;
    o.player = valid[v].player;
    o.obj = valid[v].object > 0 ? obj : 0;
    OPTION_PASSES(at, o);
    if (valid[v].object < 0) { /* a word may name an object or not */
      o.obj = obj;
      OPTION_PASSES(at, o);
      o.obj = 0;
    }
    mtg_option x = o;
    x.obj2 = obj;
    OPTION_REPORTS(at, x, "a second object on an option that has none");
    if (valid[v].object > 0) {
      x = o;
      x.obj = 0;
      OPTION_REPORTS(at, x, "no object");
    } else if (valid[v].object == 0) {
      x = o;
      x.obj = obj;
      OPTION_REPORTS(at, x, "an object on an option that has none");
    }
    if (k != MTG_O_PLAYER) {
      x = o;
      x.player = 0;
      OPTION_REPORTS(at, x, "a player on an option that has none");
    }
    x = o;
    x.index = -2;
    OPTION_REPORTS(at, x, k == MTG_O_MODE || k == MTG_O_ACTIVATE ? "disagree" : k == MTG_O_COLOR ? "colors by name" : k == MTG_O_CAST ? "-1 or 1"
                          : k == MTG_O_PASS || k == MTG_O_YES || k == MTG_O_NO || k == MTG_O_PLAYER || k == MTG_O_PLAY
                              ? "an index on an option that has none"
                              : "a bad index");
  }
  mtg_option o;
  memset(&o, 0, sizeof o);
  o.player = -1;
  /* no index where the kind has none */
  static const int none[] = {MTG_O_PASS, MTG_O_YES, MTG_O_NO, MTG_O_PLAY};
  for (size_t v = 0; v < NELEM(none); v++) {
    o.kind = none[v];
    o.label = "x";
    o.obj = none[v] == MTG_O_PLAY ? obj : 0;
    o.index = 0;
    OPTION_REPORTS(at, o, "an index on an option that has none");
  }
  o.obj = 0;
  o.kind = MTG_O_PLAYER;
  o.player = 1;
  o.label = "bob";
  o.index = 0;
  OPTION_REPORTS(at, o, "an index on an option that has none");
  o.index = -1;
  o.label = "alice";
  OPTION_REPORTS(at, o, "not the player's name");
  o.player = -1;
  /* an index is a choice's number where the kind has one: never missing */
  static const int numbered[] = {MTG_O_NAME, MTG_O_WORD, MTG_O_TRIGGER, MTG_O_EFFECT};
  for (size_t v = 0; v < NELEM(numbered); v++) {
    o.kind = numbered[v];
    o.label = "x";
    o.obj = numbered[v] == MTG_O_TRIGGER || numbered[v] == MTG_O_EFFECT ? obj : 0;
    o.index = -1;
    OPTION_REPORTS(at, o, "a bad index");
    o.index = 7; /* any number: the place of the option does not matter */
    OPTION_PASSES(at, o);
  }
  /* an object among ordered candidates: its place, or -1 */
  o.kind = MTG_O_OBJECT;
  o.label = "\"Grizzly Bears\"#1";
  o.obj = obj;
  o.index = at;
  OPTION_PASSES(at, o);
  o.index = at + 1;
  OPTION_REPORTS(at, o, "an object option's index is -1 or its place among the options");
  o.index = at - 1;
  OPTION_REPORTS(at, o, "an object option's index is -1 or its place among the options");
  /* a mode: "mode N", N its index + 1 */
  o.obj = 0;
  o.kind = MTG_O_MODE;
  o.label = "mode 2";
  o.index = 0;
  OPTION_REPORTS(at, o, "the mode and the label disagree");
  o.index = 1;
  OPTION_PASSES(at, o);
  o.index = 2;
  OPTION_REPORTS(at, o, "the mode and the label disagree");
  o.index = -1;
  OPTION_REPORTS(at, o, "the mode and the label disagree");
  o.label = "2";
  o.index = 1;
  OPTION_REPORTS(at, o, "the mode and the label disagree");
  /* a color: one of the five, by name; colorless is no color (105.1) */
  o.kind = MTG_O_COLOR;
  for (int c = 0; c < 5; c++) {
    o.label = color_names[c];
    o.index = c;
    OPTION_PASSES(at, o);
    o.index = (c + 1) % 5;
    OPTION_REPORTS(at, o, "not one of the five colors by name");
  }
  o.label = "colorless";
  o.index = 5;
  OPTION_REPORTS(at, o, "not one of the five colors by name");
  o.label = "white";
  o.index = -1;
  OPTION_REPORTS(at, o, "not one of the five colors by name");
  /* an ability: the label names its number */
  o.kind = MTG_O_ACTIVATE;
  o.obj = obj;
  o.label = "activate \"Mountain\"#2/12";
  o.index = 2;
  OPTION_REPORTS(at, o, "the ability index and the label disagree");
  o.index = 21;
  OPTION_REPORTS(at, o, "the ability index and the label disagree");
  o.label = "turn_face_up \"Mountain\"#2/0";
  o.index = 0;
  OPTION_REPORTS(at, o, "the ability index and the label disagree");
  o.label = "foretell \"Mountain\"#2/0";
  OPTION_REPORTS(at, o, "the ability index and the label disagree");
  o.label = "foretel \"Mountain\"#2";
  o.index = -1;
  OPTION_REPORTS(at, o, "the ability index and the label disagree");
}

/* A decision answered by a number needs no options (an X, "choose a
 * number"); any other does, unless it may be answered with none. */
TEST(checker_knows_which_decisions_need_options) {
  if (start(t_, w)) return;
  mtg_decision *d = &w->game->dec->pub;
  int n = d->n_options, kind = d->kind;
  char why[256];
  d->n_options = 0;
  d->min = 1;
  d->kind = MTG_D_X;
  CHECK_INT(mtg_game_check(w->game, why, sizeof why), 0);
  d->kind = MTG_D_NUMBER;
  CHECK_INT(mtg_game_check(w->game, why, sizeof why), 0);
  d->kind = MTG_D_TARGET;
  REPORTS("has no options");
  d->min = 0;
  CHECK_INT(mtg_game_check(w->game, why, sizeof why), 0);
  d->kind = kind;
  d->n_options = n;
}

const unit_test checker_tests[] = {
    {"checker_passes_a_played_game", checker_passes_a_played_game},
    {"checker_finds_zone_list_corruption", checker_finds_zone_list_corruption},
    {"checker_finds_an_object_in_two_lists", checker_finds_an_object_in_two_lists},
    {"checker_finds_a_zone_field_that_disagrees", checker_finds_a_zone_field_that_disagrees},
    {"checker_finds_a_card_in_another_players_zone", checker_finds_a_card_in_another_players_zone},
    {"checker_finds_objects_in_no_zone", checker_finds_objects_in_no_zone},
    {"checker_finds_negative_damage_and_empty_counters", checker_finds_negative_damage_and_empty_counters},
    {"checker_finds_an_object_written_without_obj_w", checker_finds_an_object_written_without_obj_w},
    {"checker_finds_a_broken_stack", checker_finds_a_broken_stack},
    {"checker_finds_what_priority_must_not_see", checker_finds_what_priority_must_not_see},
    {"checker_finds_a_stale_characteristics_cache", checker_finds_a_stale_characteristics_cache},
    {"checker_finds_stale_cached_counts", checker_finds_stale_cached_counts},
    {"checker_finds_each_stale_characteristic", checker_finds_each_stale_characteristic},
    {"checker_leaves_the_cache_as_it_was", checker_leaves_the_cache_as_it_was},
    {"checker_finds_a_stale_battlefield_summary", checker_finds_a_stale_battlefield_summary},
    {"checker_finds_a_stale_trigger_index", checker_finds_a_stale_trigger_index},
    {"checker_finds_a_trigger_index_entry_that_differs", checker_finds_a_trigger_index_entry_that_differs},
    {"checker_finds_a_stale_activated_ability_index", checker_finds_a_stale_activated_ability_index},
    {"checker_finds_an_over_status_without_a_game_over", checker_finds_an_over_status_without_a_game_over},
    {"checker_finds_a_decision_without_options", checker_finds_a_decision_without_options},
    {"checker_finds_bad_designations", checker_finds_bad_designations},
    {"checker_finds_lines_outside_the_vocabulary", checker_finds_lines_outside_the_vocabulary},
    {"checker_finds_a_line_of_unknown_type", checker_finds_a_line_of_unknown_type},
    {"checker_finds_a_decide_line_not_marked_a_decision", checker_finds_a_decide_line_not_marked_a_decision},
    {"checker_finds_another_line_marked_a_decision", checker_finds_another_line_marked_a_decision},
    {"checker_finds_bad_dungeons", checker_finds_bad_dungeons},
    {"checker_finds_variant_inconsistencies", checker_finds_variant_inconsistencies},
    {"decision_check_keeps_the_option_contract_at_priority", decision_check_keeps_the_option_contract_at_priority},
    {"decision_check_keeps_the_option_contract_for_targets", decision_check_keeps_the_option_contract_for_targets},
    {"decision_check_keeps_the_option_contract_for_attacks", decision_check_keeps_the_option_contract_for_attacks},
    {"checker_finds_a_card_in_another_players_library", checker_finds_a_card_in_another_players_library},
    {"checker_finds_each_way_a_spell_misses_its_object", checker_finds_each_way_a_spell_misses_its_object},
    {"checker_allows_no_zone_only_after_its_owner_left", checker_allows_no_zone_only_after_its_owner_left},
    {"checker_at_priority_sees_only_what_state_based_actions_would", checker_at_priority_sees_only_what_state_based_actions_would},
    {"decision_check_keeps_the_option_contract_of_every_kind", decision_check_keeps_the_option_contract_of_every_kind},
    {"checker_knows_which_decisions_need_options", checker_knows_which_decisions_need_options},
    {NULL, NULL},
};
