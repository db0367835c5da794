/* A scratch driver: plays a scripted scenario and prints the log. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mtg.h"

static mtg_game *g;
static void die(const char *m, mtg_error *e) { char b[2048]; mtg_error_format(e, b, sizeof b); fprintf(stderr, "%s: %s\n", m, b); exit(1); }
static int pick(const char *prefix) {
  const mtg_decision *d = mtg_game_decision(g);
  if (!d) { fprintf(stderr, "no decision pending\n"); exit(1); }
  for (int i = 0; i < d->n_options; i++)
    if (!strncmp(d->options[i].label, prefix, strlen(prefix))) {
      int v = i; mtg_answer a = {1, &v}; mtg_error e;
      int rc = mtg_game_decide(g, &a, &e);
      if (rc < 0) die("decide", &e);
      return rc;
    }
  fprintf(stderr, "no option '%s' in %s decision for %d (%s):\n", prefix, d->kind_name, d->player, d->prompt);
  for (int i = 0; i < d->n_options; i++) fprintf(stderr, "  %s\n", d->options[i].label);
  exit(1);
}
static void show(void) {
  for (int i = 0; i < mtg_log_count(g); i++) printf("%s\n", mtg_log_line(g, i));
  const mtg_decision *d = mtg_game_decision(g);
  if (d) { printf("-- pending %s for %d: %s\n", d->kind_name, d->player, d->prompt); for (int i = 0; i < d->n_options && i < 12; i++) printf("   [%d] %s\n", i, d->options[i].label); }
}
int main(int argc, char **argv) {
  mtg_pool *p; mtg_error e;
  mtg_pool_new(&p, NULL);
  if (mtg_pool_load_dir(p, "engine/cards", &e)) die("pool", &e);
  mtg_setup *s = mtg_setup_new(p);
  int a = mtg_setup_player(s, "alice", 20, 0), b = mtg_setup_player(s, "bob", 20, 0);
  mtg_setup_seed(s, 1);
  mtg_setup_start(s, a, 3, MTG_S_MAIN1);
  const char *scen = argc > 1 ? argv[1] : "bolt";
  if (!strcmp(scen, "bolt")) {
    mtg_setup_card(s, a, MTG_Z_BATTLEFIELD, "Mountain", &e);
    mtg_setup_card(s, a, MTG_Z_BATTLEFIELD, "Fire Servant", &e);
    mtg_setup_card(s, a, MTG_Z_BATTLEFIELD, "Fire Servant", &e);
    mtg_setup_card(s, a, MTG_Z_HAND, "Lightning Bolt", &e);
    mtg_setup_card(s, b, MTG_Z_BATTLEFIELD, "Grizzly Bears", &e);
    mtg_setup_card(s, a, MTG_Z_LIBRARY, "Forest", &e);
    mtg_setup_card(s, b, MTG_Z_LIBRARY, "Forest", &e);
    if (mtg_game_new(&g, s, &e) < 0) die("new", &e);
    pick("cast \"Lightning Bolt\"");
    pick("bob");
    pick("pass"); pick("pass");
    pick("\"Fire Servant\"#2");
    show();
  } else if (!strcmp(scen, "wrath")) {
    for (int i = 0; i < 4; i++) mtg_setup_card(s, a, MTG_Z_BATTLEFIELD, "Plains", &e);
    mtg_setup_card(s, a, MTG_Z_HAND, "Wrath of God", &e);
    mtg_setup_card(s, a, MTG_Z_BATTLEFIELD, "Fecundity", &e);
    mtg_setup_card(s, a, MTG_Z_BATTLEFIELD, "Grizzly Bears", &e);
    mtg_setup_card(s, b, MTG_Z_BATTLEFIELD, "Grizzly Bears", &e);
    mtg_setup_card(s, b, MTG_Z_BATTLEFIELD, "Darksteel Colossus", &e);
    mtg_setup_card(s, b, MTG_Z_BATTLEFIELD, "Young Wolf", &e);
    for (int i = 0; i < 3; i++) { mtg_setup_card(s, a, MTG_Z_LIBRARY, "Forest", &e); mtg_setup_card(s, b, MTG_Z_LIBRARY, "Forest", &e); }
    if (mtg_game_new(&g, s, &e) < 0) die("new", &e);
    pick("cast \"Wrath");
    pick("pass"); pick("pass");
    show();
  } else if (!strcmp(scen, "game")) {
    for (int i = 0; i < 10; i++) { mtg_setup_card(s, a, MTG_Z_LIBRARY, i%2?"Forest":"Grizzly Bears", &e); mtg_setup_card(s, b, MTG_Z_LIBRARY, i%2?"Mountain":"Lightning Bolt", &e); }
    mtg_setup_free(s); s = mtg_setup_new(p); mtg_setup_player(s, "alice", 20, 0); mtg_setup_player(s, "bob", 20, 0); mtg_setup_seed(s, 7);
    for (int i = 0; i < 20; i++) { mtg_setup_card(s, a, MTG_Z_LIBRARY, i%2?"Forest":"Grizzly Bears", &e); mtg_setup_card(s, b, MTG_Z_LIBRARY, i%2?"Mountain":"Lightning Bolt", &e); }
    if (mtg_game_new(&g, s, &e) < 0) die("new", &e);
    unsigned long long r = 12345;
    for (int step = 0; step < 3000 && mtg_game_status(g) == MTG_DECISION; step++) {
      const mtg_decision *d = mtg_game_decision(g);
      r = r * 6364136223846793005ULL + 1442695040888963407ULL;
      int vals[64]; int n = 0;
      if (d->kind == MTG_D_TRIGGER_ORDER || d->kind == MTG_D_ORDER) { for (int i = 0; i < d->n_options; i++) vals[n++] = i; }
      else if (d->kind == MTG_D_X || d->kind == MTG_D_NUMBER) { vals[n++] = d->lo; }
      else if (d->kind == MTG_D_DAMAGE) { for (int i = 0; i < d->n_options; i++) vals[n++] = 0; vals[0] = d->hi; }
      else if (d->kind == MTG_D_ATTACKERS || d->kind == MTG_D_BLOCKERS) { for (int i = 0; i < d->n_options && n < 1; i++) if ((r >> 33) % 2) vals[n++] = i; }
      else if (d->min == 0 && d->n_options == 0) n = 0;
      else { int k = d->min; for (int i = 0; i < k; i++) vals[n++] = i; if (!k) { vals[n++] = (int)((r >> 33) % (unsigned)d->n_options); } }
      mtg_answer an = {n, vals};
      int rc = mtg_game_decide(g, &an, &e);
      if (rc < 0) { char bb[1024]; mtg_error_format(&e, bb, sizeof bb); fprintf(stderr, "step %d: %s (%s)\n", step, bb, d->kind_name); }
    }
    show();
  }
  mtg_game_free(g); mtg_setup_free(s); mtg_pool_free(p);
  return 0;
}
