/* test_yemit.c - unit tests of the canonical YAML writer (util/yemit.h) and
 * of mtg_pool_card_text, which replays use to carry card definitions: every
 * definition of the pool and of the real-card sample, and a document of
 * awkward scalars and layouts, written back and read again give the same
 * tree (kinds, values, plain or quoted style); writing is idempotent; the
 * same card written in flow or block style gives the same text, which loads
 * back as the same card. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>

#include "unit.h"
#include "ydoc.h"
#include "yemit.h"

/* the same tree: kinds, sizes, scalar values and (for values, not keys) style */
static int same_tree(const ynode *a, const ynode *b, int is_key, char *why, size_t size) {
  if (!a || !b) {
    if (a != b) snprintf(why, size, "one node is missing");
    return a == b;
  }
  if (a->kind != b->kind || a->n != b->n) {
    snprintf(why, size, "line %d: kind or size differs", a->line);
    return 0;
  }
  if (a->kind == YN_SCALAR) {
    if (a->len != b->len || memcmp(a->str, b->str, a->len) || (!is_key && a->quoted != b->quoted)) {
      snprintf(why, size, "line %d: scalar \"%s\"%s came back as \"%s\"%s", a->line, a->str, a->quoted ? " (quoted)" : "",
               b->str, b->quoted ? " (quoted)" : "");
      return 0;
    }
    return 1;
  }
  int k = a->kind == YN_MAP ? 2 * a->n : a->n;
  for (int i = 0; i < k; i++)
    if (!same_tree(a->items[i], b->items[i], a->kind == YN_MAP && i % 2 == 0, why, size)) return 0;
  return 1;
}

/* writes n, reads it back, compares, and checks that writing again gives the same text */
static int round_trip(unit_ctx *t_, const ynode *n, const char *where) {
  size_t len;
  char *text = yemit_item(n, &len);
  if (!text) return unit_fail(t_, __FILE__, __LINE__, "%s: out of memory", where), -1;
  ydoc *d;
  mtg_error e;
  int rc = -1;
  char why[512] = "";
  if (ydoc_parse_buffer("emitted", text, len, &d, &e)) {
    unit_fail(t_, __FILE__, __LINE__, "%s: the text written does not parse: %s\n%s", where, e.msg, text);
    free(text);
    return -1;
  }
  const ynode *root = ydoc_root(d, 0);
  if (ydoc_count(d) != 1 || !root || root->kind != YN_SEQ || root->n != 1)
    unit_fail(t_, __FILE__, __LINE__, "%s: not a one-item list:\n%s", where, text);
  else if (!same_tree(n, root->items[0], 0, why, sizeof why))
    unit_fail(t_, __FILE__, __LINE__, "%s: %s\n%s", where, why, text);
  else {
    size_t len2;
    char *again = yemit_item(root->items[0], &len2);
    if (!again || len2 != len || memcmp(again, text, len))
      unit_fail(t_, __FILE__, __LINE__, "%s: writing the text read back differs:\n%s\n---\n%s", where, text,
                again ? again : "(null)");
    else
      rc = 0;
    free(again);
  }
  ydoc_free(d);
  free(text);
  return rc;
}

/* every item of the top-level lists of a file (or the file's mappings) */
static int round_trip_file(unit_ctx *t_, const char *path, int *count) {
  ydoc *d;
  mtg_error e;
  if (ydoc_parse_file(path, &d, &e)) return unit_fail(t_, __FILE__, __LINE__, "%s: %s", path, e.msg), -1;
  int rc = 0;
  for (int i = 0; i < ydoc_count(d) && !rc; i++) {
    const ynode *r = ydoc_root(d, i);
    if (!r) continue;
    char where[600];
    if (r->kind != YN_SEQ) {
      snprintf(where, sizeof where, "%s document %d", path, i + 1);
      rc = round_trip(t_, r, where);
      ++*count;
      continue;
    }
    for (int k = 0; k < r->n && !rc; k++) {
      snprintf(where, sizeof where, "%s:%d", path, r->items[k]->line);
      rc = round_trip(t_, r->items[k], where);
      ++*count;
    }
  }
  ydoc_free(d);
  return rc;
}

/* every *.yaml of dir and of its subdirectories */
static int round_trip_dir(unit_ctx *t_, const char *dir, int depth, int *count) {
  DIR *d = opendir(dir);
  if (!d) return unit_fail(t_, __FILE__, __LINE__, "cannot open %s", dir), -1;
  struct dirent *e;
  int rc = 0;
  while (!rc && (e = readdir(d))) {
    char path[1024];
    size_t n = strlen(e->d_name);
    if (e->d_name[0] == '.') continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat st;
    if (stat(path, &st)) continue;
    if (S_ISDIR(st.st_mode) && depth < 4) rc = round_trip_dir(t_, path, depth + 1, count);
    else if (S_ISREG(st.st_mode) && n > 5 && !strcmp(e->d_name + n - 5, ".yaml")) rc = round_trip_file(t_, path, count);
  }
  closedir(d);
  return rc;
}

TEST(pool_cards_round_trip) {
  int n = 0;
  if (round_trip_dir(t_, "engine/cards", 0, &n) || round_trip_file(t_, "tests/real-cards/sample.yaml", &n)) return;
  CHECK(n > 300);
}

TEST(awkward_scalars_round_trip) {
  static const char doc[] =
      "- plain: just words, with commas [and] {braces} and 'quotes' inside\n"
      "  dash: -1\n"
      "  signs: +1/+1\n"
      "  lone_dash: \"-\"\n"
      "  dash_space: \"- x\"\n"
      "  hash: \"#c\"\n"
      "  space_hash: \"a #b\"\n"
      "  hash_inside: a#b\n"
      "  colon_end: \"x:\"\n"
      "  colon_inside: \"a: b\"\n"
      "  colon_tight: a:b\n"
      "  question: ?x\n"
      "  markers: \"---\"\n"
      "  dots: \"...\"\n"
      "  lead: \" lead\"\n"
      "  trail: \"trail \"\n"
      "  tab: \"tab\\there\"\n"
      "  newline: \"two\\nlines\"\n"
      "  nel: \"\\Nnel\"\n"
      "  separator: \"a\\Lb\\Pc\"\n"
      "  bell: \"\\a\\x7f\\x85\"\n"
      "  unicode: é ü 漢字 —\n"
      "  empty_plain:\n"
      "  empty_quoted: \"\"\n"
      "  single: 'it''s'\n"
      "  words: [yes, no, ~, null, true]\n"
      "  quoted_words: [\"yes\", 'no', \"3\"]\n"
      "  block: |\n    first\n      indented\n    last\n"
      "  folded: >\n    folded\n    text\n\n    para\n"
      "  nested: [[a, b], [], {}, [c, [d]], {k: v, m: [1, 2]}]\n"
      "  empty_map: {}\n"
      "  \"key: with colon\": 1\n"
      "  \"\": empty key\n"
      "  ? [complex, key]\n"
      "  : value\n"
      "  ? {map: key}\n"
      "  : [1, 2]\n"
      "  anchor: &a {x: 1, y: [2, 3]}\n"
      "  alias: *a\n"
      "  long: \"";
  size_t n = strlen(doc);
  char *text = malloc(n + 6000 + 16);
  CHECK(text != NULL);
  memcpy(text, doc, n);
  for (int i = 0; i < 6000; i++) text[n + i] = (char)('a' + i % 26);
  memcpy(text + n + 6000, "\"\n", 3);
  ydoc *d;
  mtg_error e;
  int rc = ydoc_parse_buffer("awkward", text, strlen(text), &d, &e);
  free(text);
  CHECK_OK(rc, &e);
  const ynode *r = ydoc_root(d, 0);
  rc = r && r->kind == YN_SEQ && r->n == 1 ? round_trip(t_, r->items[0], "awkward") : -2;
  ydoc_free(d);
  CHECK(rc != -2);
}

TEST(card_text_is_canonical) {
  mtg_pool *p, *child;
  CHECK_INT(mtg_pool_new(&p, NULL), 0);
  w->base = p;
  CHECK_INT(mtg_pool_new(&child, p), 0);
  w->pool = child;
  const char *block = "- name: Test Bolt\n  cost: \"{R}\"\n  type: Instant\n  # a comment\n"
                      "  spell:\n    targets: [any_target]\n    effect:\n      - damage: 3\n        to: target\n";
  const char *flow = "[{name: Test Bolt, cost: \"{R}\", type: Instant, spell: {targets: [any_target], "
                     "effect: [{damage: 3, to: target}]}}, {name: Test Bear, type: Creature — Bear, pt: 2/2}]";
  CHECK_OK(mtg_pool_load_buffer(p, "block.yaml", block, strlen(block), &w->err), &w->err);
  CHECK_OK(mtg_pool_load_buffer(child, "flow.yaml", flow, strlen(flow), &w->err), &w->err);
  const char *a = mtg_pool_card_text(p, "Test Bolt");
  CHECK(a != NULL);
  const char *b = mtg_pool_card_text(child, "Test Bolt");
  CHECK(b != NULL && b != a); /* the child's own definition */
  CHECK_STR(a, b);
  CHECK_STR(a, "- name: Test Bolt\n  cost: \"{R}\"\n  type: Instant\n  spell:\n    targets:\n      - any_target\n"
               "    effect:\n      - damage: 3\n        to: target\n");
  const char *bear = mtg_pool_card_text(child, "Test Bear");
  CHECK(bear != NULL);
  /* a parent's card, seen from the child: the parent's text */
  mtg_pool *grandchild;
  CHECK_INT(mtg_pool_new(&grandchild, child), 0);
  const char *seen = mtg_pool_card_text(grandchild, "Test Bear"), *none = mtg_pool_card_text(grandchild, "Test Wolf");
  mtg_pool_free(grandchild);
  CHECK(seen == bear);
  CHECK(none == NULL);
  /* the text loads back as the same card */
  mtg_pool *again;
  CHECK_INT(mtg_pool_new(&again, NULL), 0);
  int rc = mtg_pool_load_buffer(again, "again.yaml", a, strlen(a), &w->err);
  uint64_t h1 = mtg_pool_hash(again), h2 = 0;
  const char *a2 = mtg_pool_card_text(again, "Test Bolt");
  int same = a2 && !strcmp(a2, a);
  mtg_pool_free(again);
  CHECK_OK(rc, &w->err);
  CHECK(same);
  mtg_pool *orig;
  CHECK_INT(mtg_pool_new(&orig, NULL), 0);
  rc = mtg_pool_load_buffer(orig, "block.yaml", block, strlen(block), &w->err);
  h2 = mtg_pool_hash(orig);
  mtg_pool_free(orig);
  CHECK_OK(rc, &w->err);
  CHECK(h1 == h2);
}

const unit_test yemit_tests[] = {
    {"pool_cards_round_trip", pool_cards_round_trip},
    {"awkward_scalars_round_trip", awkward_scalars_round_trip},
    {"card_text_is_canonical", card_text_is_canonical},
    {NULL, NULL},
};
