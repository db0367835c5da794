/* fuzz_setup.c - libFuzzer target: the setup's text form (mtg_setup_read),
 * the text a replay carries. The input is read as setup text against
 * engine/cards. A refusal must come with its status and a located message; a
 * setup that reads must write back (mtg_setup_write) to text that reads to
 * the same text again, and start a game that plays a few decisions under the
 * invariant checker (tests/unit/play.c), its work bounded. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "play.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *written(const mtg_setup *s) {
  int n = mtg_setup_write(s, NULL, 0);
  char *t = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (t) mtg_setup_write(s, t, (size_t)n + 1);
  return t;
}

/* answers: pass whenever possible, else the first option */
static uint32_t first(void *ctx) {
  (void)ctx;
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const mtg_pool *pool = fuzz_pool();
  if (!pool) return 0;
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = 0;
  mtg_setup *s = NULL;
  mtg_error e;
  memset(&e, 0, sizeof e);
  int rc = mtg_setup_read(pool, "fuzz.txt", text, &s, &e);
  free(text);
  char why[4200];
  if (rc < 0) {
    if (s || e.status != rc || !e.msg[0] || (rc == MTG_EDATA && e.line < 1)) {
      snprintf(why, sizeof why, "refused with status %d but the error says %d at line %d: '%s'", rc, e.status, e.line, e.msg);
      fuzz_finding("fuzz_setup", why);
    }
    return 0;
  }
  /* the text form round-trips */
  char *t1 = written(s);
  mtg_setup *back = NULL;
  int rc2 = t1 ? mtg_setup_read(pool, "written.txt", t1, &back, &e) : MTG_ENOMEM;
  char *t2 = rc2 == 0 ? written(back) : NULL;
  if (t1 && rc2 == 0 && t2 && strcmp(t1, t2)) fuzz_finding("fuzz_setup", "a written setup reads back to other text");
  if (t1 && rc2 < 0 && rc2 != MTG_ENOMEM) {
    snprintf(why, sizeof why, "a written setup does not read back: %s", e.msg);
    fuzz_finding("fuzz_setup", why);
  }
  free(t1);
  free(t2);
  mtg_setup_free(back);
  /* and plays, a little */
  mtg_setup_work_budget(s, 20000);
  play_opts o = {1, 40, NULL};
  play_stats st = {0};
  if (play_game(s, first, NULL, &o, &st, why, sizeof why) < 0) fuzz_finding("fuzz_setup", why);
  mtg_setup_free(s);
  return 0;
}
