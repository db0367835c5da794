/* test_vocab.c - the log's vocabulary (mtg_event_types) against its
 * documentation: docs/events.md lists every type of line the engine writes,
 * in the engine table's order, with the same fields and the same open flag;
 * and the lookups the harness uses find types and fields. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "unit.h"

/* The fields cell of a row, without brackets, and whether it ends with "...". */
static void doc_fields(const char *cell, size_t n, char *out, size_t size, int *open) {
  size_t u = 0;
  *open = 0;
  for (size_t i = 0; i < n && u + 1 < size; i++) {
    if (cell[i] == '[' || cell[i] == ']') continue;
    if (!strncmp(cell + i, "...", 3)) {
      *open = 1;
      i += 2;
      continue;
    }
    out[u++] = cell[i];
  }
  out[u] = 0;
  /* single spaces, none at the ends */
  char *w = out;
  for (char *r = out; *r; r++)
    if (*r != ' ' || (w > out && w[-1] != ' ')) *w++ = *r;
  while (w > out && w[-1] == ' ') w--;
  *w = 0;
}

TEST(docs_list_the_engine_vocabulary) {
  const mtg_event_type *types;
  int n = mtg_event_types(&types);
  CHECK(n > 50);
  FILE *f = fopen("docs/events.md", "r");
  CHECK(f != NULL);
  char line[4096];
  int row = 0, bad = 0;
  while (fgets(line, sizeof line, f) && !bad) {
    /* | `type` | `fields` | meaning | */
    if (strncmp(line, "| `", 3)) continue;
    char *name = line + 3, *e = strchr(name, '`');
    if (!e || strncmp(e, "` | `", 5)) continue;
    *e = 0;
    char *cell = e + 5, *ce = strchr(cell, '`');
    if (!ce) continue;
    char fields[512];
    int open;
    doc_fields(cell, (size_t)(ce - cell), fields, sizeof fields, &open);
    if (row >= n) {
      unit_fail(t_, __FILE__, __LINE__, "docs/events.md lists %s, which the engine's table (%d types) does not", name, n);
      bad = 1;
    } else if (strcmp(types[row].name, name)) {
      unit_fail(t_, __FILE__, __LINE__, "type %d: docs/events.md says %s, the engine's table %s", row + 1, name,
                types[row].name);
      bad = 1;
    } else if (strcmp(types[row].fields, fields) || types[row].open != open) {
      unit_fail(t_, __FILE__, __LINE__, "%s: docs/events.md gives fields '%s'%s, the engine's table '%s'%s", name, fields,
                open ? " ..." : "", types[row].fields, types[row].open ? " ..." : "");
      bad = 1;
    }
    row++;
  }
  fclose(f);
  if (bad) return;
  if (row != n)
    unit_fail(t_, __FILE__, __LINE__, "docs/events.md lists %d types, the engine's table %d (the first missing: %s)", row, n,
              types[row < n ? row : 0].name);
}

TEST(vocabulary_lookups) {
  const mtg_event_type *t = mtg_event_type_find("damage", 6);
  CHECK(t != NULL);
  CHECK_STR(t->name, "damage");
  CHECK(mtg_event_has_field(t, "amount", 6));
  CHECK(mtg_event_has_field(t, "src", 3));
  CHECK(!mtg_event_has_field(t, "amoun", 5));
  CHECK(!mtg_event_has_field(t, "amounts", 7));
  CHECK(mtg_event_type_find("damge", 5) == NULL);
  CHECK(mtg_event_type_find("damage_removed", 6) != NULL); /* a prefix is its own name */
  CHECK(mtg_event_type_find("damage_removed", 14) != NULL);
  const mtg_event_type *types;
  int n = mtg_event_types(&types);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++) CHECK(strcmp(types[i].name, types[j].name));
}

/* The lines of a game (a Bolt, combat, state-based actions) are of the
 * table's types with its fields: the invariant checker says so. */
TEST(a_game_writes_only_the_vocabulary) {
  if (u_begin(t_, w, NULL)) return;
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Mountain");
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Grizzly Bears");
  u_card(t_, w, w->alice, MTG_Z_HAND, "Lightning Bolt");
  u_card(t_, w, w->bob, MTG_Z_BATTLEFIELD, "Grizzly Bears");
  if (u_start(t_, w)) return;
  char why[1024];
  if (u_pick(t_, w, "cast \"Lightning Bolt\"") < 0 || u_pick(t_, w, "\"Grizzly Bears\"") < 0) return;
  CHECK(mtg_game_check(w->game, why, sizeof why) == 0);
  u_pass(t_, w, 2);
  CHECK(u_logged(w->game, "damage src=\"Lightning Bolt\""));
  CHECK(u_logged(w->game, "sba rule=704.5g"));
  if (mtg_game_check(w->game, why, sizeof why)) unit_fail(t_, __FILE__, __LINE__, "%s", why);
}

/* The checker's reading of one line (vocab_check_line): words split at spaces
 * outside quotes, a field is the text before a word's first '=' outside
 * quotes, a word without one continues the value before it, and a field the
 * type doesn't carry is named in the message with the whole line. */
TEST(a_line_is_checked_field_by_field) {
  char why[256] = "";
  CHECK_INT(vocab_check_line("damage src=\"Lightning Bolt\"#7 to=bob amount=3", why, sizeof why), 0);
  CHECK_INT(vocab_check_line("damage src=\"A=B amont=1\"#7 to=bob", why, sizeof why), 0); /* '=' in quotes */
  CHECK_INT(vocab_check_line("damage src=x y \"amont=2\" to=bob", why, sizeof why), 0);  /* words without a field */
  CHECK_INT(vocab_check_line("damage =3 amount=1", why, sizeof why), 0);                     /* no field before '=' */
  CHECK_INT(vocab_check_line("note anything=1 else=2", why, sizeof why), 0);                 /* an open type */
  CHECK_INT(vocab_check_line("damage", why, sizeof why), 0);
  CHECK_INT(vocab_check_line("damage src=x amont=3", why, sizeof why), -1);
  CHECK_STR(why, "a damage line with field 'amont', which the vocabulary does not give it: damage src=x amont=3");
  CHECK_INT(vocab_check_line("damage amont=3=4 to=bob", why, sizeof why), -1); /* the field ends at the first '=' */
  CHECK_STR(why, "a damage line with field 'amont', which the vocabulary does not give it: damage amont=3=4 to=bob");
  CHECK_INT(vocab_check_line("damage src=\"a b\" x=1", why, sizeof why), -1); /* the quotes closed: x is a field */
  CHECK_STR(why, "a damage line with field 'x', which the vocabulary does not give it: damage src=\"a b\" x=1");
  CHECK_INT(vocab_check_line("damge src=x", why, sizeof why), -1);
  CHECK_STR(why, "a line of unknown type 'damge': damge src=x");
}

const unit_test vocab_tests[] = {
    {"docs_list_the_engine_vocabulary", docs_list_the_engine_vocabulary},
    {"vocabulary_lookups", vocabulary_lookups},
    {"a_line_is_checked_field_by_field", a_line_is_checked_field_by_field},
    {"a_game_writes_only_the_vocabulary", a_game_writes_only_the_vocabulary},
    {NULL, NULL},
};
