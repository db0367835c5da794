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

const unit_test links_tests[] = {
    {"a_full_link_table_drops_only_records_of_objects_gone", a_full_link_table_drops_only_records_of_objects_gone},
    {NULL, NULL},
};
