/* longgame.c - writes one very long replay for the memory benchmark of
 * `bin/replay check`: a game in which alice activates a free ability of a
 * card defined in the replay itself ("{0}: You gain 1 life"), both players
 * pass, it resolves, again and again, until the log holds at least EVENTS
 * lines; then the game is left open. The replay goes through the replay
 * tools' writer (tools/replaylog.h), which drops written lines from the
 * game, so writing it takes little memory too.
 * usage: longgame EVENTS OUT.gz   (run from the top of the tree) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mtg.h"
#include "replaylog.h"

static const char totem[] =
    "- name: Bench Totem\n"
    "  cost: \"{1}\"\n"
    "  type: Artifact\n"
    "  text: \"{0}: You gain 1 life.\"\n"
    "  abilities:\n"
    "    - activated: {cost: \"{0}\", effect: [{gain_life: 1}]}\n";

static int die(const char *what, const mtg_error *e) {
  char b[2048];
  mtg_error_format(e, b, sizeof b);
  fprintf(stderr, "longgame: %s: %s\n", what, b);
  return 1;
}

static int pick(rlog_writer *w, mtg_game *g, const char *prefix, mtg_error *e) {
  const mtg_decision *d = mtg_game_decision(g);
  if (!d || rlog_writer_see(w, g, e)) return -1; /* the options offered are recorded before each answer */
  for (int i = 0; i < d->n_options; i++)
    if (!strncmp(d->options[i].label, prefix, strlen(prefix))) {
      mtg_answer a = {1, &i};
      return mtg_game_decide(g, &a, e);
    }
  fprintf(stderr, "longgame: no option '%s' in %s decision '%s'\n", prefix, d->kind_name, d->prompt);
  return -1;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: longgame EVENTS OUT.gz\n");
    return 2;
  }
  long want = atol(argv[1]);
  mtg_pool *base, *pool;
  mtg_error e;
  if (mtg_pool_new(&base, NULL) || mtg_pool_load_dir(base, "engine/cards", &e)) return die("engine/cards", &e);
  if (mtg_pool_new(&pool, base) || mtg_pool_load_buffer(pool, "bench", totem, sizeof totem - 1, &e))
    return die("inline card", &e);
  mtg_setup *s = mtg_setup_new(pool);
  mtg_setup_player(s, "alice", 20, 0);
  mtg_setup_player(s, "bob", 20, 0);
  mtg_setup_seed(s, 1);
  mtg_setup_opening_hand(s, 0);
  mtg_setup_start(s, 0, 1, MTG_S_MAIN1);
  mtg_setup_card(s, 0, MTG_Z_BATTLEFIELD, "Bench Totem", &e);
  for (int i = 0; i < 5; i++) {
    mtg_setup_card(s, 0, MTG_Z_LIBRARY, "Forest", &e);
    mtg_setup_card(s, 1, MTG_Z_LIBRARY, "Forest", &e);
  }
  int need = mtg_setup_write(s, NULL, 0);
  char *text = malloc((size_t)need + 1);
  if (!text) return 1;
  mtg_setup_write(s, text, (size_t)need + 1);
  mtg_game *g;
  if (mtg_game_new(&g, s, &e) < 0) return die("mtg_game_new", &e);
  rlog_header h = {.setup_text = text, .pool = pool, .base = base, .origin = "bench/longgame", .seed = 1, .partial = 1};
  rlog_writer *w;
  if (rlog_writer_open(&w, argv[2], &h, &e)) return die(argv[2], &e);
  while (mtg_log_total(g) < want) {
    if (pick(w, g, "activate \"Bench Totem\"", &e) < 0 || pick(w, g, "pass", &e) < 0 || pick(w, g, "pass", &e) < 0)
      return die("playing", &e);
    if (rlog_writer_sync(w, g, &e)) return die("writing", &e);
  }
  long total = mtg_log_total(g);
  if (rlog_writer_close(w, g, &e)) return die("closing", &e);
  mtg_game_free(g);
  mtg_setup_free(s);
  free(text);
  mtg_pool_free(pool);
  mtg_pool_free(base);
  printf("%ld events\n", total);
  return 0;
}
