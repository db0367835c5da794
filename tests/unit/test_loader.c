/* test_loader.c - unit tests of the card loader (mtg_pool_load_*): inline
 * definitions load and are found, every kind of bad definition is refused
 * with MTG_EDATA at the right line and column, missing files are MTG_EIO,
 * and the pool hash follows the definitions. */
#include <stdio.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mtg_private.h"
#include "unit.h"

static int load(mtg_pool *p, const char *yaml, mtg_error *e) {
  return mtg_pool_load_buffer(p, "t.yaml", yaml, strlen(yaml), e);
}

TEST(inline_card_loads) {
  mtg_pool *p;
  CHECK_INT(mtg_pool_new(&p, NULL), 0);
  w->base = w->pool = p;
  const char *y = "- name: Test Bear\n  cost: \"{1}{G}\"\n  type: Creature — Bear\n  pt: 2/2\n"
                  "- name: Test Bolt\n  cost: \"{R}\"\n  type: Instant\n"
                  "  spell:\n    targets: [any_target]\n    effect: [{damage: 3, to: target}]\n";
  CHECK_OK(load(p, y, &w->err), &w->err);
  CHECK_INT(mtg_pool_count(p), 2);
  CHECK(mtg_pool_has(p, "Test Bear"));
  CHECK(mtg_pool_has(p, "Test Bolt"));
  CHECK(!mtg_pool_has(p, "Test Wolf"));
  CHECK_STR(mtg_pool_name(p, 0), "Test Bear");
}

/* loads a bad definition and checks status, line, column and message */
static int refused(unit_ctx *t_, const char *yaml, int line, int col, const char *needle) {
  mtg_pool *p;
  mtg_error e;
  memset(&e, 0, sizeof e);
  if (mtg_pool_new(&p, NULL) < 0) return unit_fail(t_, __FILE__, __LINE__, "mtg_pool_new"), -1;
  int rc = load(p, yaml, &e);
  mtg_pool_free(p);
  char b[2048];
  mtg_error_format(&e, b, sizeof b);
  if (rc != MTG_EDATA || e.status != MTG_EDATA)
    return unit_fail(t_, __FILE__, __LINE__, "status %d (error %d), expected MTG_EDATA: %s", rc, e.status, b), -1;
  if (line && e.line != line) return unit_fail(t_, __FILE__, __LINE__, "line %d, expected %d: %s", e.line, line, b), -1;
  if (col && e.col != col) return unit_fail(t_, __FILE__, __LINE__, "column %d, expected %d: %s", e.col, col, b), -1;
  if (needle && !strstr(e.msg, needle))
    return unit_fail(t_, __FILE__, __LINE__, "message lacks '%s': %s", needle, b), -1;
  if (strcmp(e.file, "t.yaml")) return unit_fail(t_, __FILE__, __LINE__, "file is '%s': %s", e.file, b), -1;
  return 0;
}

TEST(unknown_key_is_located) {
  if (refused(t_, "- name: X\n  type: Instant\n  cots: \"{R}\"\n", 3, 3, "cost")) return;
}

TEST(unknown_keyword_is_refused) {
  if (refused(t_, "- name: X\n  type: Creature — Bear\n  pt: 1/1\n  keywords: [flyng]\n", 4, 0, "flying")) return;
}

/* the combat vocabulary: parameters only where they mean something */
TEST(combat_rule_parameters_are_checked) {
  if (refused(t_, "- name: X\n  type: Creature — Bear\n  pt: 1/1\n  abilities:\n    - static: {rule: cant_attack, by: creature}\n",
              5, 0, "only for rule cant_be_blocked"))
    return;
  if (refused(t_, "- name: X\n  type: Creature — Bear\n  pt: 1/1\n  abilities:\n    - static: {rule: min_blockers}\n", 5, 0,
              "needs n"))
    return;
  if (refused(t_, "- name: X\n  type: Creature — Bear\n  pt: 1/1\n  abilities:\n    - static: {pt: \"+1/+1\", attackers: creature}\n",
              5, 0, "a parameter of a combat rule"))
    return;
  if (refused(t_, "- name: X\n  type: Instant\n  spell: {targets: [creature], effect: [{grant: target, rule: cant_lose}]}\n", 3, 0,
              "not about a creature"))
    return;
  if (refused(t_, "- name: X\n  type: Instant\n  spell: {effect: [{additional_phases: [combat, upkeep]}]}\n", 3, 0,
              "combat and main"))
    return;
  if (refused(t_, "- name: X\n  type: Creature — Bear\n  pt: 1/1\n  abilities:\n    - triggered: {when: {attacks: self, attacker: self}, effect: [{draw: 1}]}\n",
              5, 0, "only for a 'blocks' trigger"))
    return;
}

TEST(keywords_with_a_parameter_are_checked) {
  if (refused(t_, "- name: X\n  type: Creature — Bear\n  pt: 1/1\n  keywords: [{bushido: 0}]\n", 4, 0, "1 to 99")) return;
  if (refused(t_, "- name: X\n  type: Creature — Bear\n  pt: 1/1\n  keywords: [{bushdo: 1}]\n", 4, 0, "bushido")) return;
  if (refused(t_, "- name: X\n  type: Instant\n  spell: {targets: [creature], effect: [{grant: target, keywords: [{ninjutsu: \"{U}\"}]}]}\n",
              3, 0, "can't be granted"))
    return;
  if (refused(t_, "- name: X\n  type: Creature — Bear\n  pt: 1/1\n  keywords: [{protection_from: {sutype: Human}}]\n", 4, 0,
              "subtype"))
    return;
}

/* an activated ability of a card in a library or of a spell is never offered:
 * the loader refuses to say it functions there, naming where it can */
TEST(activated_ability_zone_library_or_stack_is_refused) {
  static const char *const zones[] = {"library", "stack"};
  for (int i = 0; i < 2; i++) {
    char y[256];
    snprintf(y, sizeof y, "- name: X\n  type: Artifact\n  abilities:\n    - activated: {cost: \"{1}\", zone: %s, effect: [{draw: 1}]}\n",
             zones[i]);
    if (refused(t_, y, 4, 0, "an activated ability is activated from the battlefield, a hand, a graveyard, exile or the command zone"))
      return;
  }
}

/* 702.47a: spliced text is followed as one mode; a modal card with splice is
 * refused rather than spliced with its first mode whatever was chosen */
TEST(splice_on_a_modal_card_is_refused) {
  if (refused(t_,
              "- name: X\n  type: Instant — Arcane\n  splice: {onto: Arcane, cost: \"{1}\"}\n"
              "  spell:\n    choose: {min: 1, max: 1}\n    modes:\n      - effect: [{draw: 1}]\n      - effect: [{gain_life: 2}]\n",
              3, 0, "splice is supported on a card without modes"))
    return;
}

TEST(bad_power_toughness_is_refused) {
  if (refused(t_, "- name: X\n  type: Creature — Bear\n  pt: two/2\n", 3, 0, NULL)) return;
}

TEST(yaml_syntax_error_is_located) {
  if (refused(t_, "- name: X\n  type: [Instant\n  cost: \"{R}\"\n", 0, 0, NULL)) return;
}

TEST(card_without_name_is_refused) {
  if (refused(t_, "- type: Instant\n  cost: \"{R}\"\n", 1, 0, "name")) return;
}

TEST(unknown_effect_is_refused) {
  if (refused(t_, "- name: X\n  type: Instant\n  spell:\n    effect: [{damag: 3, to: you}]\n", 4, 0, "damage")) return;
}

TEST(wrong_type_is_refused) {
  if (refused(t_, "- name: X\n  type: Instant\n  spell:\n    effect: [{damage: [1, 2], to: you}]\n", 4, 0, NULL))
    return;
}

TEST(not_a_card_list_is_refused) {
  if (refused(t_, "just a string\n", 1, 1, NULL)) return;
}

TEST(missing_file_is_eio) {
  mtg_pool *p;
  CHECK_INT(mtg_pool_new(&p, NULL), 0);
  w->base = w->pool = p;
  CHECK_INT(mtg_pool_load_file(p, "tests/unit/no-such-file.yaml", &w->err), MTG_EIO);
  CHECK_INT(mtg_pool_load_dir(p, "tests/unit/no-such-dir", &w->err), MTG_EIO);
  CHECK_INT(mtg_pool_count(p), 0);
}

/* a pool directory is read with its subdirectories, in sorted path order; a
 * link to a directory (here a loop back to the top) is not followed */
TEST(pool_dir_reads_subdirectories) {
  char dir[] = "/tmp/arbiter-pool-XXXXXX", path[512];
  CHECK(mkdtemp(dir) != NULL);
  snprintf(path, sizeof path, "%s/sub", dir);
  int ok = mkdir(path, 0700) == 0;
  const char *files[][2] = {{"a.yaml", "- name: Top Card\n  type: Creature — Bear\n  pt: 1/1\n"},
                            {"sub/b.yaml", "- name: Nested Card\n  type: Creature — Bear\n  pt: 2/2\n"},
                            {"sub/notes.txt", "not a card file\n"}};
  for (size_t i = 0; ok && i < sizeof files / sizeof files[0]; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, files[i][0]);
    FILE *f = fopen(path, "w");
    ok = f && fputs(files[i][1], f) >= 0;
    if (f) fclose(f);
  }
  snprintf(path, sizeof path, "%s/sub/loop", dir);
  ok = ok && symlink(dir, path) == 0;
  mtg_pool *p;
  CHECK_INT(mtg_pool_new(&p, NULL), 0);
  w->base = w->pool = p;
  int rc = ok ? mtg_pool_load_dir(p, dir, &w->err) : -1;
  const char *rm[] = {"sub/loop", "sub/notes.txt", "sub/b.yaml", "a.yaml", "sub", ""};
  for (size_t i = 0; i < sizeof rm / sizeof rm[0]; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, rm[i]);
    remove(path);
  }
  CHECK(ok);
  CHECK_OK(rc, &w->err);
  CHECK_INT(mtg_pool_count(p), 2);
  CHECK_STR(mtg_pool_name(p, 0), "Top Card");
  CHECK_STR(mtg_pool_name(p, 1), "Nested Card");
}

TEST(pool_hash_follows_definitions) {
  mtg_pool *a, *b;
  CHECK_INT(mtg_pool_new(&a, NULL), 0);
  w->base = w->pool = a;
  CHECK_INT(mtg_pool_new(&b, NULL), 0);
  const char *y1 = "- name: H\n  type: Creature — Bear\n  pt: 2/2\n";
  const char *y2 = "- name: H\n  type: Creature — Bear\n  pt: 2/3\n";
  int ok = load(a, y1, &w->err) == 0 && load(b, y1, &w->err) == 0;
  uint64_t ha = mtg_pool_hash(a), hb = mtg_pool_hash(b);
  mtg_pool_free(b);
  CHECK(ok);
  CHECK(ha == hb);
  CHECK_INT(mtg_pool_new(&b, NULL), 0);
  ok = load(b, y2, &w->err) == 0;
  hb = mtg_pool_hash(b);
  mtg_pool_free(b);
  CHECK(ok);
  CHECK(ha != hb);
}

TEST(child_pool_sees_parent) {
  if (u_begin(t_, w, "- name: Child Card\n  type: Creature — Bear\n  pt: 1/1\n")) return;
  CHECK(mtg_pool_has(w->pool, "Child Card"));
  CHECK(mtg_pool_has(w->pool, "Grizzly Bears"));
  CHECK(!mtg_pool_has(w->base, "Child Card"));
  CHECK_INT(mtg_pool_count(w->pool), 1);
  CHECK(mtg_pool_hash(w->pool) != mtg_pool_hash(w->base));
  CHECK(u_card(t_, w, w->alice, MTG_Z_HAND, "Child Card") >= 0);
}

/* the token names a pool's cards create are known by name through the pool
 * and its children (mtg_pool_has_token), and only they: enough of them that
 * names share slots of the index */
TEST(token_names_are_known_through_the_pool) {
  enum { N = 40 };
  char y[N * 200], nm[40];
  size_t u = 0;
  for (int i = 0; i < N; i++)
    u += (size_t)snprintf(y + u, sizeof y - u,
                          "- name: Maker %d\n  type: Sorcery\n  spell:\n    effect: [{create_token: {name: Token %d, "
                          "type: Creature — Spirit, pt: 1/1}}]\n",
                          i, i);
  if (u_begin(t_, w, y)) return;
  for (int i = 0; i < N; i++) {
    snprintf(nm, sizeof nm, "Token %d", i);
    CHECK(mtg_pool_has_token(w->pool, nm));
    CHECK(!mtg_pool_has_token(w->base, nm));
    CHECK(!mtg_pool_has(w->pool, nm));
    snprintf(nm, sizeof nm, "Maker %d", i);
    CHECK(!mtg_pool_has_token(w->pool, nm));
  }
  CHECK(!mtg_pool_has_token(w->pool, "Token 40"));
  CHECK(!mtg_pool_has_token(w->pool, "Token"));
  CHECK(mtg_pool_has_token(w->pool, "Treasure")); /* a card of the parent pool creates it */
  CHECK(mtg_pool_has_token(w->base, "Treasure"));
}

TEST(unknown_card_in_setup_suggests) {
  if (u_begin(t_, w, NULL)) return;
  mtg_error e;
  memset(&e, 0, sizeof e);
  CHECK(mtg_setup_card(w->setup, w->alice, MTG_Z_HAND, "Grizly Bears", &e) < 0);
  CHECK(strstr(e.msg, "Grizzly Bears") != NULL);
  char buf[256];
  mtg_pool_suggest(w->pool, "Lightnig Bolt", buf, sizeof buf);
  CHECK(strstr(buf, "Lightning Bolt") != NULL);
}

/* Suggestions keep nothing allocated: the heap in use is the same after many
 * of them, from a full pool, an empty one and a pool on top of another (where
 * glibc reports the heap in use; elsewhere the sanitizer builds see leaks). */
TEST(suggestions_keep_no_memory) {
  if (u_begin(t_, w, NULL)) return;
  mtg_pool *empty, *child;
  CHECK_INT(mtg_pool_new(&empty, NULL), 0);
  if (mtg_pool_new(&child, w->base)) {
    mtg_pool_free(empty);
    CHECK(0);
  }
  char buf[256];
  /* the first calls may grow the allocator's own bookkeeping */
  mtg_pool_suggest(w->base, "Lightnig Bolt", buf, sizeof buf);
  mtg_pool_suggest(empty, "Lightnig Bolt", buf, sizeof buf);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
  size_t before = mallinfo2().uordblks;
#endif
  int found = 0;
  for (int i = 0; i < 50; i++) {
    mtg_pool_suggest(w->base, "Lightnig Bolt", buf, sizeof buf);
    found += strstr(buf, "Lightning Bolt") != NULL;
    mtg_pool_suggest(child, "Grizly Bears", buf, sizeof buf);
    found += strstr(buf, "Grizzly Bears") != NULL;
    mtg_pool_suggest(empty, "Lightnig Bolt", buf, sizeof buf);
    found += buf[0] != 0;
  }
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
  size_t after = mallinfo2().uordblks;
#endif
  mtg_pool_free(child);
  mtg_pool_free(empty);
  CHECK_INT(found, 100);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
  CHECK_INT(after, before);
#endif
}

TEST(engine_cards_all_load) {
  /* every file of engine/cards loads on its own, and the pool is not empty */
  if (u_begin(t_, w, NULL)) return;
  CHECK(mtg_pool_count(w->base) >= 20);
  for (int i = 0; i < mtg_pool_count(w->base); i++) CHECK(mtg_pool_has(w->base, mtg_pool_name(w->base, i)));
}

/* the history of the turn (docs/cards.md): misuse is located */
TEST(history_misuse_is_refused) {
  const char *head = "- name: X\n  type: Instant\n  spell:\n    effect: [{gain_life: ";
  char y[400];
  snprintf(y, sizeof y, "%s{history: casts}}]\n", head);
  if (refused(t_, y, 4, 0, "did you mean 'cast'")) return;
  snprintf(y, sizeof y, "%s{history: cast, to: exile}}]\n", head);
  if (refused(t_, y, 4, 0, "'to' is for history zone")) return;
  snprintf(y, sizeof y, "%s{history: died, to: exile}}]\n", head);
  if (refused(t_, y, 4, 0, "'to' is already graveyard")) return;
  snprintf(y, sizeof y, "%s{history: attacked, combat: true}}]\n", head);
  if (refused(t_, y, 4, 0, "this_combat for attacks")) return;
  snprintf(y, sizeof y, "%s{history: cast, turn: next}}]\n", head);
  if (refused(t_, y, 4, 0, "turn: 'this'")) return;
  snprintf(y, sizeof y, "%s{history: cast, bye: you}}]\n", head);
  if (refused(t_, y, 4, 0, "by")) return;
}

TEST(nth_trigger_misuse_is_refused) {
  const char *head = "- name: X\n  type: Enchantment\n  abilities:\n    - triggered: {when: ";
  char y[400];
  snprintf(y, sizeof y, "%s{dies: creature, nth: 2}, effect: [{draw: 1}]}\n", head);
  if (refused(t_, y, 4, 0, "nth is for cast triggers and draw triggers")) return;
  snprintf(y, sizeof y, "%s{draw: you, nth_in_turn: 2}, effect: [{draw: 1}]}\n", head);
  if (refused(t_, y, 4, 0, "nth_in_turn is for cast triggers")) return;
  snprintf(y, sizeof y, "%s{cast: spell, nth: 0}, effect: [{draw: 1}]}\n", head);
  if (refused(t_, y, 4, 0, "nth: 1 to 100")) return;
}

TEST(several_trigger_events_misuse_is_refused) {
  const char *head = "- name: X\n  type: Enchantment\n  abilities:\n    - triggered: {when: ";
  char y[400];
  snprintf(y, sizeof y, "%s[{dies: creature}], effect: [{draw: 1}]}\n", head);
  if (refused(t_, y, 4, 0, "a list of 2 to 8")) return;
  snprintf(y, sizeof y, "%s[{dies: creature}, {state: {life: you, at_most: 5}}], effect: [{draw: 1}]}\n", head);
  if (refused(t_, y, 4, 0, "a state trigger stands alone")) return;
  snprintf(y, sizeof y, "%s[{dies: creature}, {tapped: creature, tap_cost: false}], effect: [{draw: 1}]}\n", head);
  if (refused(t_, y, 4, 0, "tap_cost is for activate triggers")) return;
}

TEST(becomes_target_misuse_is_refused) {
  const char *head = "- name: X\n  type: Enchantment\n  abilities:\n    - triggered: {when: ";
  char y[400];
  snprintf(y, sizeof y, "%s{dies: creature, by: opponent}, effect: [{draw: 1}]}\n", head);
  if (refused(t_, y, 4, 0, "by is for becomes_target triggers")) return;
  snprintf(y, sizeof y, "%s{becomes_target: self, kind: aura}, effect: [{draw: 1}]}\n", head);
  if (refused(t_, y, 4, 0, "kind: spell, ability")) return;
  snprintf(y, sizeof y, "%s{counters_removed: {on: self, last: true}}, effect: [{draw: 1}]}\n", head);
  if (refused(t_, y, 4, 0, "give kind")) return;
  if (refused(t_, "- name: X\n  type: Creature — Cat\n  pt: 1/1\n  ward: two\n", 4, 9, "ward: expected a mana cost")) return;
}

TEST(mana_cost_errors_say_what_is_wrong) {
  /* each malformed mana cost refused at its key with what is wrong */
  if (refused(t_, "- name: X\n  type: Instant\n  cost: \"R\"\n", 3, 0, "expected a mana symbol like {2} or {R} at 'R'")) return;
  if (refused(t_, "- name: X\n  type: Instant\n  cost: \"{1}{R\"\n", 3, 0, "unterminated mana symbol at '{R'")) return;
  if (refused(t_, "- name: X\n  type: Instant\n  cost: \"{}{R}\"\n", 3, 0, "bad mana symbol at '{}{R}'")) return;
  if (refused(t_, "- name: X\n  type: Instant\n  cost: \"{100}\"\n", 3, 0, "generic mana {100} too large")) return;
  if (refused(t_, "- name: X\n  type: Instant\n  cost: \"{C/P}\"\n", 3, 0, "unknown mana symbol {C/P}")) return;
  if (refused(t_, "- name: X\n  type: Instant\n  cost: \"{T}\"\n", 3, 0, "unknown mana symbol {T}")) return;
  /* 614.10b: a skipped step's "then" action; no other skipped event has one */
  if (refused(t_, "- name: X\n  type: Enchantment\n  abilities:\n    - replacement: {event: draw, skip: true, then: [{gain_life: 1}]}\n", 4, 0,
              "then: with skip only for event: skip_step (614.10b)"))
    return;
  if (refused(t_, "- name: X\n  type: Instant\n  cost: \"{W/U}{W/U}{W/U}{W/U}{W/U}\"\n", 3, 0, "more than 4 hybrid mana symbols ({W/U} is one too many)"))
    return;
  if (refused(t_, "- name: X\n  type: Instant\n  cost: \"{B/P}{B/P}{B/P}{B/P}{B/P}{B/P}{B/P}{B/P}{B/P}\"\n", 3, 0, "more than 8 {B/P} symbols"))
    return;
  /* the largest generic amount, four hybrid symbols, eight Phyrexian symbols of a color, spaces and commas between symbols are fine */
  mtg_pool *p;
  CHECK_INT(mtg_pool_new(&p, NULL), 0);
  w->base = w->pool = p;
  CHECK_OK(load(p, "- name: Test Big\n  type: Artifact\n  cost: \"{99}\"\n"
                   "- name: Test Hybrid\n  type: Artifact\n  cost: \"{W/U}, {U/B} {B/R}{R/G}\"\n"
                   "- name: Test Phyrexian\n  type: Artifact\n  cost: \"{B/P}{B/P}{B/P}{B/P}{B/P}{B/P}{B/P}{B/P}\"\n", &w->err), &w->err);
  CHECK_INT(mtg_pool_count(p), 3);
  CHECK_STR(mtg_pool_name(p, 1), "Test Hybrid");
  CHECK(mtg_pool_name(p, 3) == NULL);
  CHECK(mtg_pool_name(p, -1) == NULL);
}

TEST(batch_zone_and_decay_misuse_is_refused) {
  const char *head = "- name: X\n  type: Enchantment\n  abilities:\n    - triggered: {when: ";
  char y[400];
  snprintf(y, sizeof y, "%s{step: upkeep, one_or_more: true}, effect: [{draw: 1}]}\n", head);
  if (refused(t_, y, 4, 0, "one_or_more is for events")) return;
  snprintf(y, sizeof y, "%s{zone: {from: [hand, libary], to: exile}}, effect: [{draw: 1}]}\n", head);
  if (refused(t_, y, 4, 0, "library")) return;
  if (refused(t_, "- name: X\n  type: Creature — Cat\n  pt: 1/1\n  vanishing: lots\n", 4, 0, "vanishing: the number")) return;
  if (refused(t_, "- name: X\n  type: Instant\n  fading: 2\n  spell: {effect: [{draw: 1}]}\n", 3, 0, "for permanents")) return;
  if (refused(t_, "- name: X\n  type: Creature — Cat\n  pt: 1/1\n  echo: {costs: [{discard: 1}]}\n", 4, 9, "echo: expected a mana cost")) return;
  if (refused(t_, "- name: X\n  type: Sorcery\n  echo: \"{R}\"\n  spell: {effect: [{draw: 1}]}\n", 3, 9, "echo is for permanents")) return;
  if (refused(t_, "- name: X\n  type: Enchantment\n  cumulative_upkeep: [\"{1}\", Pay 2 life]\n", 3, 30, "cumulative_upkeep: expected a mana cost")) return;
  if (refused(t_, "- name: X\n  type: Enchantment\n  cumulative_upkeep: \"{W/U}\"\n", 3, 22, "hybrid mana")) return;
  if (refused(t_, "- name: X\n  type: Instant\n  evoke: \"{U}\"\n  spell: {effect: [{draw: 1}]}\n", 3, 10, "evoke is for permanent cards")) return;
  if (refused(t_, "- name: X\n  type: Creature — Cat\n  pt: 1/1\n  evoke: \"{X}{U}\"\n", 4, 10, "evoke cost with {X}")) return;
  /* 702.62a: suspend's N and cost */
  if (refused(t_, "- name: X\n  type: Sorcery\n  suspend: {n: 1, cost: \"{R}\"}\n  spell: {effect: [{draw: 1}]}\n", 3, 0, "time")) return;
  if (refused(t_, "- name: X\n  type: Sorcery\n  suspend: {cost: \"{R}\"}\n  spell: {effect: [{draw: 1}]}\n", 3, 12, "suspend needs 'time'")) return;
  if (refused(t_, "- name: X\n  type: Sorcery\n  suspend: {time: 0, cost: \"{R}\"}\n  spell: {effect: [{draw: 1}]}\n", 3, 19, "1 to 100")) return;
  if (refused(t_, "- name: X\n  type: Sorcery\n  suspend: {time: X, cost: \"{X}{R}\"}\n  spell: {effect: [{draw: 1}]}\n", 3, 19, "Suspend X")) return;
  if (refused(t_, "- name: X\n  type: Sorcery\n  suspend: {time: 2, cost: \"{X}{R}\"}\n  spell: {effect: [{draw: 1}]}\n", 3, 28, "with {X} is not supported")) return;
  if (refused(t_, "- name: X\n  type: Sorcery\n  suspend: {time: 2, cost: red}\n  spell: {effect: [{draw: 1}]}\n", 3, 28, "expected a mana cost")) return;
  if (refused(t_, "- name: X\n  type: Land\n  suspend: {time: 2, cost: \"{R}\"}\n", 3, 12, "a land card")) return;
  /* a target chosen by the trigger event's player: only in a triggered ability */
  if (refused(t_, "- name: X\n  type: Sorcery\n  spell: {targets: [{filter: creature, chosen_by: triggering_player}], effect: [{destroy: target}]}\n",
              3, 0, "chosen_by is for the targets of a triggered ability")) return;
  if (refused(t_, "- name: X\n  type: Enchantment\n  abilities:\n    - triggered: {when: {step: upkeep, player: any}, "
                  "targets: [{filter: creature, chosen_by: opponent}], effect: [{destroy: target}]}\n", 4, 0, "chosen_by: triggering_player")) return;
  if (refused(t_, "- name: X\n  type: Creature — Cat\n  pt: 1/1\n  abilities:\n    - static: {add_subtypes: Angel}\n", 5, 0,
              "a list of 1 to 4 subtypes")) return;
  const char *gain = "- name: X\n  type: Instant\n  spell: {effect: [{gain_life: ";
  snprintf(y, sizeof y, "%s{greatest: colour, among: creature}}]}\n", gain);
  if (refused(t_, y, 3, 0, "greatest: expected power, toughness or mana_value")) return;
  snprintf(y, sizeof y, "%s{greatest: power}}]}\n", gain);
  if (refused(t_, y, 3, 0, "greatest: give 'among'")) return;
  snprintf(y, sizeof y, "%s{count: creature, among: creature}}]}\n", gain);
  if (refused(t_, y, 3, 0, "'among' goes with 'greatest'")) return;
  const char *wolf = "- name: Y\n  type: Creature — Wolf\n  pt: 2/2\n";
  snprintf(y, sizeof y, "%s  back: {name: Z, type: Creature — Cat, pt: 1/1}\n  front: {name: X, type: Creature — Cat, pt: 1/1}\n", wolf);
  if (refused(t_, y, 4, 0, "has no 'back'")) return;
  snprintf(y, sizeof y, "%s  front: {name: X, type: Creature — Cat, pt: 1/1, back: {name: Z, type: Creature — Cat, pt: 1/1}}\n", wolf);
  if (refused(t_, y, 4, 0, "no 'back' in 'front'")) return;
  snprintf(y, sizeof y, "- name: X\n  type: Instant\n  spell: {effect: [{create_token: {name: T, type: Creature — Cat, pt: 1/1, front: {name: F, type: Creature, pt: 1/1}}}]}\n");
  if (refused(t_, y, 3, 0, "'front' is for a card definition written from its back face")) return;
  if (refused(t_, "- name: X\n  type: Enchantment\n  abilities:\n    - static: {affects: {player: any}, pt: \"+1/+1\"}\n", 4, 0,
              "a filter on players is for rule effects")) return;
  if (refused(t_, "- name: X\n  type: Enchantment\n  abilities:\n    - static: {rule: cant_cast, spells: {name: Shock}}\n", 4, 0,
              "card types only")) return;
  if (refused(t_, "- name: X\n  type: Instant\n  spell: {effect: [{note: a, value: 1, player: you}]}\n", 3, 0,
              "a value or a player, not both")) return;
  if (refused(t_, "- name: X\n  type: Creature — Fox\n  pt: 1/1\n  flip: {name: Y, cost: \"{1}\", type: Enchantment}\n", 4, 0,
              "no 'cost'")) return;
  if (refused(t_, "- name: X\n  type: Instant\n  flip: {name: Y, type: Enchantment}\n  spell: {effect: [{draw: 1}]}\n", 3, 0,
              "for permanent cards")) return;
  if (refused(t_, "- name: X\n  type: Enchantment\n  abilities:\n    - static: {affects: creature, pt: {}}\n", 4, 0,
              "one or both")) return;
  if (refused(t_, "- name: X\n  type: Enchantment\n  abilities:\n    - static: {affects: creature, pt: {power: 1, tough: 1}}\n", 4, 0,
              "tough")) return;
  /* the card is its front face, with the entry as its back face */
  mtg_pool *p;
  CHECK_INT(mtg_pool_new(&p, NULL), 0);
  w->base = w->pool = p;
  snprintf(y, sizeof y, "%s  front: {name: X, cost: \"{G}\", type: Creature — Human Wolf, pt: 1/1}\n", wolf);
  CHECK_OK(load(p, y, &w->err), &w->err);
  CHECK_INT(mtg_pool_count(p), 1);
  CHECK_STR(mtg_pool_name(p, 0), "X");
}

/* add_mana names one or more mana symbols (106.1): none, or a choice of one, is refused */
TEST(add_mana_without_symbols_is_refused) {
  if (refused(t_, "- name: X\n  type: Artifact\n  abilities:\n    - activated: {cost: \"{T}\", effect: [{add_mana: \"\"}]}\n", 4, 0,
              "no mana symbol"))
    return;
  if (refused(t_, "- name: X\n  type: Artifact\n  abilities:\n    - activated: {cost: \"{T}\", effect: [{add_mana: \"or {G}\"}]}\n", 4, 0,
              "at least two symbols"))
    return;
  if (refused(t_, "- name: X\n  type: Artifact\n  abilities:\n    - activated: {cost: \"{T}\", effect: [{add_mana: \"{C} or {G}\"}]}\n", 4, 0,
              "lists colors only"))
    return;
  if (refused(t_, "- name: X\n  type: Artifact\n  abilities:\n    - activated: {cost: \"{T}\", effect: [{add_mana: \"{G} or {G}\"}]}\n", 4, 0,
              "{G} listed twice"))
    return;
}

/* mtg_pool_share: another pool's definitions and the token names they
 * create, the same definitions (text, hash), and a clash adds nothing */
TEST(shared_definitions_are_the_loaded_ones) {
  mtg_pool *a, *b;
  CHECK_INT(mtg_pool_new(&a, NULL), 0);
  w->base = w->pool = a;
  const char *y = "- name: Test Maker\n  type: Sorcery\n  cost: \"{1}{W}\"\n"
                  "  spell: {effect: [{create_token: {name: Test Soldier, type: Creature — Soldier, colors: [white], pt: 1/1}}]}\n"
                  "- name: Test Ghoul\n  type: Creature — Zombie\n  pt: 2/1\n  keywords: [undying]\n";
  CHECK_OK(load(a, y, &w->err), &w->err);
  CHECK_INT(mtg_pool_new_like(&b, a), 0);
  w->pool = b;
  CHECK_INT(mtg_pool_count(b), 0);
  CHECK(!mtg_pool_has_token(b, "Test Soldier"));
  CHECK_INT(mtg_pool_share(b, a), 0);
  CHECK_INT(mtg_pool_count(b), 2);
  CHECK(mtg_pool_has(b, "Test Maker"));
  CHECK(mtg_pool_has(b, "Test Ghoul"));
  CHECK(mtg_pool_has_token(b, "Test Soldier"));
  CHECK_STR(mtg_pool_card_text(b, "Test Ghoul"), mtg_pool_card_text(a, "Test Ghoul"));
  CHECK(mtg_pool_hash(b) == mtg_pool_hash(a));
  CHECK_INT(mtg_pool_share(b, a), MTG_EDATA);
  CHECK_INT(mtg_pool_count(b), 2);
  CHECK_INT(mtg_pool_share(b, b), MTG_EARG);
  /* no pool to add to, or none to take from: refused, nothing added */
  CHECK_INT(mtg_pool_share(NULL, a), MTG_EARG);
  CHECK_INT(mtg_pool_share(b, NULL), MTG_EARG);
  CHECK_INT(mtg_pool_count(b), 2);
}

/* mtg_pool_share_card: one definition of another pool, by its name, the same
 * definition (text, hash); an unknown name or a clash adds nothing */
TEST(one_shared_definition_is_the_loaded_one) {
  mtg_pool *a, *b;
  CHECK_INT(mtg_pool_new(&a, NULL), 0);
  w->base = w->pool = a;
  const char *y = "- name: Test Ghoul\n  type: Creature — Zombie\n  pt: 2/1\n  keywords: [undying]\n"
                  "- name: Test Bear\n  type: Creature — Bear\n  pt: 2/2\n";
  CHECK_OK(load(a, y, &w->err), &w->err);
  CHECK_INT(mtg_pool_new_like(&b, a), 0);
  w->pool = b;
  CHECK_INT(mtg_pool_share_card(b, a, "Test Bear"), 0);
  CHECK_INT(mtg_pool_count(b), 1);
  CHECK(mtg_pool_has(b, "Test Bear"));
  CHECK(!mtg_pool_has(b, "Test Ghoul"));
  CHECK_STR(mtg_pool_card_text(b, "Test Bear"), mtg_pool_card_text(a, "Test Bear"));
  CHECK_INT(mtg_pool_share_card(b, a, "Test Bear"), MTG_EDATA);
  CHECK_INT(mtg_pool_share_card(b, a, "Test Nobody"), MTG_EDATA);
  CHECK_INT(mtg_pool_count(b), 1);
  CHECK_INT(mtg_pool_share_card(b, a, "Test Ghoul"), 0);
  CHECK(mtg_pool_hash(b) == mtg_pool_hash(a)); /* the same definitions, in another order */
  CHECK_INT(mtg_pool_share_card(b, b, "Test Bear"), MTG_EARG);
  CHECK_INT(mtg_pool_share_card(NULL, a, "Test Bear"), MTG_EARG);
  CHECK_INT(mtg_pool_share_card(b, NULL, "Test Bear"), MTG_EARG);
  CHECK_INT(mtg_pool_share_card(b, a, NULL), MTG_EARG);
  CHECK_INT(mtg_pool_count(b), 2);
}

/* mtg_pool_skip_texts: the cards loaded after it, into the pool or one on
 * top of it, keep no text; those loaded before keep theirs */
TEST(skipped_texts_are_not_kept) {
  mtg_pool *a, *b;
  CHECK_INT(mtg_pool_new(&a, NULL), 0);
  w->base = w->pool = a;
  CHECK_OK(load(a, "- name: Test Bear\n  type: Creature — Bear\n  pt: 2/2\n", &w->err), &w->err);
  mtg_pool_skip_texts(a);
  CHECK_OK(load(a, "- name: Test Wolf\n  type: Creature — Wolf\n  pt: 2/2\n", &w->err), &w->err);
  CHECK(mtg_pool_card_text(a, "Test Bear") != NULL);
  CHECK(mtg_pool_has(a, "Test Wolf"));
  CHECK(mtg_pool_card_text(a, "Test Wolf") == NULL);
  CHECK_INT(mtg_pool_new(&b, a), 0);
  w->pool = b;
  CHECK_OK(load(b, "- name: Test Elk\n  type: Creature — Elk\n  pt: 2/2\n", &w->err), &w->err);
  CHECK(mtg_pool_has(b, "Test Elk"));
  CHECK(mtg_pool_card_text(b, "Test Elk") == NULL);
}

const unit_test loader_tests[] = {
    {"inline_card_loads", inline_card_loads},
    {"unknown_key_is_located", unknown_key_is_located},
    {"unknown_keyword_is_refused", unknown_keyword_is_refused},
    {"combat_rule_parameters_are_checked", combat_rule_parameters_are_checked},
    {"keywords_with_a_parameter_are_checked", keywords_with_a_parameter_are_checked},
    {"activated_ability_zone_library_or_stack_is_refused", activated_ability_zone_library_or_stack_is_refused},
    {"splice_on_a_modal_card_is_refused", splice_on_a_modal_card_is_refused},
    {"bad_power_toughness_is_refused", bad_power_toughness_is_refused},
    {"yaml_syntax_error_is_located", yaml_syntax_error_is_located},
    {"card_without_name_is_refused", card_without_name_is_refused},
    {"unknown_effect_is_refused", unknown_effect_is_refused},
    {"wrong_type_is_refused", wrong_type_is_refused},
    {"not_a_card_list_is_refused", not_a_card_list_is_refused},
    {"missing_file_is_eio", missing_file_is_eio},
    {"pool_dir_reads_subdirectories", pool_dir_reads_subdirectories},
    {"pool_hash_follows_definitions", pool_hash_follows_definitions},
    {"child_pool_sees_parent", child_pool_sees_parent},
    {"token_names_are_known_through_the_pool", token_names_are_known_through_the_pool},
    {"unknown_card_in_setup_suggests", unknown_card_in_setup_suggests},
    {"engine_cards_all_load", engine_cards_all_load},
    {"history_misuse_is_refused", history_misuse_is_refused},
    {"nth_trigger_misuse_is_refused", nth_trigger_misuse_is_refused},
    {"several_trigger_events_misuse_is_refused", several_trigger_events_misuse_is_refused},
    {"becomes_target_misuse_is_refused", becomes_target_misuse_is_refused},
    {"mana_cost_errors_say_what_is_wrong", mana_cost_errors_say_what_is_wrong},
    {"suggestions_keep_no_memory", suggestions_keep_no_memory},
    {"batch_zone_and_decay_misuse_is_refused", batch_zone_and_decay_misuse_is_refused},
    {"add_mana_without_symbols_is_refused", add_mana_without_symbols_is_refused},
    {"shared_definitions_are_the_loaded_ones", shared_definitions_are_the_loaded_ones},
    {"one_shared_definition_is_the_loaded_one", one_shared_definition_is_the_loaded_one},
    {"skipped_texts_are_not_kept", skipped_texts_are_not_kept},
    {NULL, NULL},
};
