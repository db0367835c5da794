/* soak.c - plays many seeded random games through the public API under the
 * invariant checker (tests/unit/play.c does the checking). Used by
 * `make soak` (10,000 games), by `make test` (a sample), by the determinism
 * check (--out writes one log per game, byte-identical across builds) and by
 * the benchmarks (--quiet, games and events per second).
 *
 * usage: soak [--games N] [--seed S] [--check] [--out DIR] [--cards DIR]
 *             [--known FILE] [--quiet]
 * Game i uses seed S+i, so a failing game is replayed alone with
 * --games 1 --seed S+i. --known names a file of known engine issues: lines
 * "SUBSTRING<TAB>description"; a game whose failure message contains one is
 * reported as skipped. The last line is "1 passed, 0 failed, K skipped" (the
 * soak is one test; games with known issues are skipped) unless --quiet.
 * Exit 0 when every game ran clean or hit a known issue, 1 otherwise, 2 on
 * bad usage or an unreadable card pool. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "mtg.h"
#include "play.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int usage(void) {
  fprintf(stderr, "usage: soak [--games N] [--seed S] [--check] [--out DIR] [--cards DIR] [--known FILE] [--quiet]\n");
  return 2;
}

#define MAX_KNOWN 32
typedef struct known {
  char pat[MAX_KNOWN][256];
  long hits[MAX_KNOWN];
  int n;
} known;

static int load_known(const char *path, known *k) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  char line[1024];
  while (k->n < MAX_KNOWN && fgets(line, sizeof line, f)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    line[strcspn(line, "\t\n")] = 0;
    size_t l = strlen(line);
    if (l >= sizeof k->pat[0]) l = sizeof k->pat[0] - 1;
    memcpy(k->pat[k->n], line, l);
    k->pat[k->n++][l] = 0;
  }
  fclose(f);
  return 0;
}

static int match_known(known *k, const char *why) {
  for (int i = 0; i < k->n; i++)
    if (strstr(why, k->pat[i])) return k->hits[i]++, 1;
  return 0;
}

int main(int argc, char **argv) {
  long games = 100;
  unsigned long long seed = 1;
  const char *out = NULL, *cards = "engine/cards";
  int check = 0, quiet = 0;
  known kn = {0};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--games") && i + 1 < argc) games = strtol(argv[++i], NULL, 10);
    else if (!strcmp(a, "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(a, "--out") && i + 1 < argc) out = argv[++i];
    else if (!strcmp(a, "--cards") && i + 1 < argc) cards = argv[++i];
    else if (!strcmp(a, "--known") && i + 1 < argc) {
      if (load_known(argv[++i], &kn)) return fprintf(stderr, "soak: cannot read %s\n", argv[i]), 2;
    } else if (!strcmp(a, "--check")) check = 1;
    else if (!strcmp(a, "--quiet")) quiet = 1;
    else return usage();
  }
  if (games < 0) return usage();
  mtg_pool *pool;
  mtg_error e;
  if (mtg_pool_new(&pool, NULL) < 0) return 2;
  if (mtg_pool_load_dir(pool, cards, &e) < 0) {
    char b[2048];
    mtg_error_format(&e, b, sizeof b);
    fprintf(stderr, "soak: %s\n", b);
    mtg_pool_free(pool);
    return 2;
  }
  if (out && mkdir(out, 0777) && errno != EEXIST) {
    fprintf(stderr, "soak: cannot create %s: %s\n", out, strerror(errno));
    mtg_pool_free(pool);
    return 2;
  }
  play_stats st = {0};
  long failed = 0, skipped = 0;
  double t0 = now();
  for (long i = 0; i < games; i++) {
    unsigned long long gs = seed + (unsigned long long)i;
    mtg_setup *s = play_setup(pool, gs, &e);
    if (!s) {
      char b[2048];
      mtg_error_format(&e, b, sizeof b);
      fprintf(stderr, "soak: seed %llu: setup: %s\n", gs, b);
      failed++;
      continue;
    }
    FILE *f = NULL;
    if (out) {
      char path[4096];
      snprintf(path, sizeof path, "%s/game-%llu.log", out, gs);
      if (!(f = fopen(path, "w"))) {
        fprintf(stderr, "soak: cannot write %s: %s\n", path, strerror(errno));
        mtg_setup_free(s);
        mtg_pool_free(pool);
        return 2;
      }
    }
    uint64_t rng = gs * 0x2545F4914F6CDD1DULL + 1;
    play_opts o = {check, 0, f};
    char why[4096];
    if (play_game(s, play_rng_next, &rng, &o, &st, why, sizeof why)) {
      if (match_known(&kn, why)) {
        if (!quiet) printf("SKIP known engine issue: seed %llu: %s\n", gs, why);
        skipped++;
      } else {
        fprintf(stderr, "soak: seed %llu: %s\n", gs, why);
        failed++;
      }
    }
    if (f) fclose(f);
    mtg_setup_free(s);
  }
  double dt = now() - t0;
  mtg_pool_free(pool);
  if (quiet) {
    printf("%ld %ld %ld %.6f\n", st.games, st.decisions, st.events, dt);
    return failed ? 1 : 0;
  }
  printf("soak: %ld games (%ld ended, %ld hit the turn limit), %ld decisions (%ld answers refused, %ld actions "
         "reversed), %ld events, %.2f s, %.0f games/s, %.0f events/s%s: %ld failed, %ld known issues\n",
         st.games, st.over, st.stopped, st.decisions, st.refused, st.reversed, st.events, dt,
         dt > 0 ? (double)games / dt : 0.0, dt > 0 ? (double)st.events / dt : 0.0,
         check ? ", invariants checked" : "", failed, skipped);
  for (int i = 0; i < kn.n; i++)
    if (kn.hits[i]) printf("  known issue '%s': %ld games\n", kn.pat[i], kn.hits[i]);
  if (skipped) printf("%d passed, %d failed, %ld skipped\n", !failed, !!failed, skipped);
  else printf("%d passed, %d failed\n", !failed, !!failed);
  return failed ? 1 : 0;
}
