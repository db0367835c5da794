/* fuzz.c - the shared part of the fuzz targets (fuzz.h): the card pool and
 * the known-issue filter. State here is the fuzz binary's own. */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static mtg_pool *pool;
static int loaded;
static char known[32][256];
static int nknown = -1;

const mtg_pool *fuzz_pool(void) {
  if (!loaded) {
    loaded = 1;
    mtg_error e;
    if (mtg_pool_new(&pool, NULL) == 0 && mtg_pool_load_dir(pool, "engine/cards", &e) < 0) {
      char b[2048];
      mtg_error_format(&e, b, sizeof b);
      fprintf(stderr, "fuzz: engine/cards: %s\n", b);
      mtg_pool_free(pool);
      pool = NULL;
    }
  }
  return pool;
}

static void load_known(void) {
  nknown = 0;
  FILE *f = fopen("tests/unit/soak-known.txt", "r");
  if (!f) return;
  char line[1024];
  while (nknown < 32 && fgets(line, sizeof line, f)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    line[strcspn(line, "\t\n")] = 0;
    size_t l = strlen(line);
    if (l >= sizeof known[0]) l = sizeof known[0] - 1;
    memcpy(known[nknown], line, l);
    known[nknown++][l] = 0;
  }
  fclose(f);
}

void fuzz_finding(const char *target, const char *why) {
  if (nknown < 0) load_known();
  for (int i = 0; i < nknown; i++)
    if (strstr(why, known[i])) return;
  fprintf(stderr, "%s: %s\n", target, why);
  abort();
}
