/* test_docs.c - the card format's documentation says what the loader does:
 * every card of the worked idioms of docs/cards.md loads as written. (The
 * keys the loader accepts against the keys documented: tests/docs/keys.py.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "unit.h"


TEST(cards_doc_idioms_load) {
  char *doc = NULL;
  size_t len;
  mtg_error err;
  CHECK_INT(input_read("docs/cards.md", 0, &doc, &len, &err), 0);
  CHECK(doc != NULL);
  if (!doc) return;
  const char *sec = strstr(doc, "\n## Worked idioms\n");
  if (!sec) {
    free(doc);
    CHECK(!"docs/cards.md has a section '## Worked idioms'");
    return;
  }
  const char *end = strstr(sec + 1, "\n## ");
  int blocks = 0;
  for (const char *p = strstr(sec, "```yaml\n"); p && (!end || p < end); p = strstr(p, "```yaml\n")) {
    p += 8;
    const char *q = strstr(p, "```");
    if (!q) break;
    /* the line of the block in docs/cards.md, for the message */
    int line = 1;
    for (const char *c = doc; c < p; c++) line += *c == '\n';
    mtg_pool *pool;
    mtg_error e;
    memset(&e, 0, sizeof e);
    if (mtg_pool_new(&pool, NULL)) break;
    int rc = mtg_pool_load_buffer(pool, "docs/cards.md", p, (size_t)(q - p), &e);
    int n = mtg_pool_count(pool);
    mtg_pool_free(pool);
    if (rc) {
      char b[2048];
      mtg_error_format(&e, b, sizeof b);
      unit_fail(t_, __FILE__, __LINE__, "the idiom at docs/cards.md:%d does not load: %s", line, b);
      free(doc);
      return;
    }
    if (n != 1) {
      unit_fail(t_, __FILE__, __LINE__, "the idiom at docs/cards.md:%d defines %d cards, not one", line, n);
      free(doc);
      return;
    }
    blocks++;
    p = q + 3;
  }
  free(doc);
  /* an Aura, an Equipment, a modal spell, a dies trigger, a replacement, a
   * delayed trigger, a lord, a planeswalker */
  CHECK(blocks >= 8);
}

const unit_test docs_tests[] = {
    {"cards_doc_idioms_load", cards_doc_idioms_load},
    {NULL, NULL},
};
