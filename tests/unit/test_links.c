/* test_links.c - the records of linked abilities (607.2: what an object's
 * ability exiled, chose or noted, for its linked abilities to read). The table
 * has room for MAX_LINKS records; when it is full, the records of objects that
 * no longer exist (and are not the source of anything on the stack or waiting
 * to go on it) are dropped to make room, and every other record is kept.
 * White-box: it fills the table through link_add (engine/select.c). */
#include "internal.h"
#include "unit.h"

TEST(a_full_link_table_drops_only_records_of_objects_gone) {
  if (u_begin(t_, w, NULL)) return;
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Grizzly Bears");
  if (u_start(t_, w)) return;
  G *g = w->game;
  int bears = -1;
  for (int i = 0; i < g->s->c.nslots; i++)
    if (g->s->obj[i].id && g->s->obj[i].zone == MTG_Z_BATTLEFIELD) bears = i;
  CHECK(bears >= 0);
  if (bears < 0) return;
  uint32_t live = g->s->obj[bears].id, gone = 0xfffff0u;
  CHECK_INT(obj_by_id(g, gone), -1);
  int first = g->s->c.nlink;
  link_add(g, live, 0, "kept", LK_VALUE, 7, NULL, oref_none());
  for (int i = g->s->c.nlink; i < MAX_LINKS - 1; i++) link_add(g, gone, 0, "gone", LK_VALUE, i, NULL, oref_none());
  link_add(g, live, 0, "last", LK_VALUE, 9, NULL, oref_none());
  CHECK_INT(g->s->c.nlink, MAX_LINKS);
  /* full: the next record makes room by dropping the gone object's */
  link_add(g, live, 0, "new", LK_VALUE, 8, NULL, oref_none());
  CHECK_INT(g->s->c.nlink, first + 3);
  int32_t v = 0;
  CHECK(link_find_value(g, live, 0, "kept", &v, NULL) && v == 7);
  CHECK(link_find_value(g, live, 0, "last", &v, NULL) && v == 9);
  CHECK(link_find_value(g, live, 0, "new", &v, NULL) && v == 8);
  CHECK(!link_find_value(g, gone, 0, "gone", &v, NULL));
}

/* An object that is gone but is the source of an ability on the stack, or of
 * one that has triggered and waits to be put there, keeps its records: that
 * ability may still read them (607.2). */
TEST(a_full_link_table_keeps_records_of_sources_on_the_stack_or_waiting) {
  if (u_begin(t_, w, NULL)) return;
  if (u_start(t_, w)) return;
  G *g = w->game;
  State *s = g->s;
  uint32_t stacked = 0xfffff1u, waiting = 0xfffff2u, gone = 0xfffff3u;
  CHECK_INT(obj_by_id(g, stacked), -1);
  CHECK_INT(obj_by_id(g, waiting), -1);
  CHECK(s->c.nstack < MAX_STACK && s->c.npend < MAX_PENDING);
  if (s->c.nstack >= MAX_STACK || s->c.npend >= MAX_PENDING) return;
  int nstack = s->c.nstack, npend = s->c.npend;
  memset(&s->stack[nstack], 0, sizeof s->stack[nstack]);
  s->stack[nstack].src.id = stacked;
  s->stack[nstack].src.slot = -1;
  memset(&s->pend[npend], 0, sizeof s->pend[npend]);
  s->pend[npend].src.id = waiting;
  s->pend[npend].src.slot = -1;
  s->c.nstack = (int16_t)(nstack + 1);
  s->c.npend = (int16_t)(npend + 1);
  int first = s->c.nlink;
  link_add(g, stacked, 0, "on the stack", LK_VALUE, 1, NULL, oref_none());
  link_add(g, waiting, 0, "waiting", LK_VALUE, 2, NULL, oref_none());
  for (int i = s->c.nlink; i < MAX_LINKS; i++) link_add(g, gone, 0, "gone", LK_VALUE, i, NULL, oref_none());
  CHECK_INT(s->c.nlink, MAX_LINKS);
  link_add(g, gone, 0, "new", LK_VALUE, 3, NULL, oref_none());
  CHECK_INT(s->c.nlink, first + 3);
  int32_t v = 0;
  CHECK(link_find_value(g, stacked, 0, "on the stack", &v, NULL) && v == 1);
  CHECK(link_find_value(g, waiting, 0, "waiting", &v, NULL) && v == 2);
  CHECK(link_find_value(g, gone, 0, "new", &v, NULL) && v == 3);
  CHECK(!link_find_value(g, gone, 0, "gone", &v, NULL));
  s->c.nstack = (int16_t)nstack;
  s->c.npend = (int16_t)npend;
}

/* A chosen color is read back as 0-4 (white to green, 105.1); a record that
 * is missing, of another grant or object, or whose value names no color
 * (below 0, 5 and up: a number noted under the label) is no color: -1. Every
 * "the chosen color" reader (mana, protection, becomes, filters) goes
 * through it. */
TEST(a_chosen_color_is_read_as_one_of_the_five_colors_or_none) {
  if (u_begin(t_, w, NULL)) return;
  if (u_start(t_, w)) return;
  G *g = w->game;
  uint32_t oid = 0xfffff1u;
  CHECK_INT(link_find_color(g, oid, 0, "color"), -1);
  for (int col = 0; col < 5; col++) {
    link_add(g, oid, 0, "color", LK_VALUE, col, NULL, oref_none());
    CHECK_INT(link_find_color(g, oid, 0, "color"), col);
  }
  CHECK_INT(link_find_color(g, oid, 1, "color"), -1);
  CHECK_INT(link_find_color(g, oid + 1, 0, "color"), -1);
  CHECK_INT(link_find_color(g, oid, 0, "hue"), -1);
  link_add(g, oid, 0, "color", LK_VALUE, 5, NULL, oref_none());
  CHECK_INT(link_find_color(g, oid, 0, "color"), -1);
  link_add(g, oid, 0, "color", LK_VALUE, -1, NULL, oref_none());
  CHECK_INT(link_find_color(g, oid, 0, "color"), -1);
  link_add(g, oid, 0, "color", LK_VALUE, 0, NULL, oref_none());
  CHECK_INT(link_find_color(g, oid, 0, "color"), 0);
}

const unit_test links_tests[] = {
    {"a_full_link_table_drops_only_records_of_objects_gone", a_full_link_table_drops_only_records_of_objects_gone},
    {"a_full_link_table_keeps_records_of_sources_on_the_stack_or_waiting",
     a_full_link_table_keeps_records_of_sources_on_the_stack_or_waiting},
    {"a_chosen_color_is_read_as_one_of_the_five_colors_or_none", a_chosen_color_is_read_as_one_of_the_five_colors_or_none},
    {NULL, NULL},
};
