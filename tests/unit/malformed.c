/* malformed.c - the malformed-input suite of the engine's parsers.
 *
 * 1. Each file of tests/unit/malformed/cards/ must be refused with
 *    MTG_EDATA, located in that file; a first line "# expect: LINE[:COL]
 *    [TEXT]" pins the line, column and a piece of the message. Files of
 *    cards-known/ are known engine issues: reported as skipped while the
 *    engine still gets them wrong, and as passing once it is fixed.
 * 2. Every file of engine/cards/, damaged in many reproducible ways
 *    (truncated, bytes replaced with YAML punctuation, lines dropped or
 *    doubled), must load or be refused with a located error - never crash,
 *    leak or report success with an error filled in.
 * 3. The text form of random setups (mtg_setup_write), damaged the same way,
 *    must read back or be refused; what reads back must start a game or be
 *    refused by mtg_game_new.
 * The sanitizer build turns any memory error or leak into a failure.
 * usage: malformed [ROUNDS]  (mutations per file, default 300) */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mtg.h"
#include "play.h"

static int passed, failed, skipped;

static void result(int ok, const char *fmt, const char *what) {
  if (ok) {
    passed++;
    printf("ok   ");
  } else {
    failed++;
    printf("FAIL ");
  }
  printf(fmt, what);
  printf("\n");
}

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0;
  char *b = malloc(cap);
  size_t k;
  while (b && (k = fread(b + n, 1, cap - n - 1, f)) > 0) {
    n += k;
    if (n + 1 >= cap) {
      char *nb = realloc(b, cap *= 2);
      if (!nb) free(b);
      b = nb;
    }
  }
  fclose(f);
  if (b) b[n] = 0;
  *len = n;
  return b;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* sorted *.yaml / *.txt names of a directory; returns the count */
static int list_dir(const char *dir, char ***out) {
  DIR *d = opendir(dir);
  *out = NULL;
  if (!d) return 0;
  int n = 0, cap = 0;
  char **v = NULL;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t l = strlen(e->d_name);
    if (l < 5 || (strcmp(e->d_name + l - 5, ".yaml") && strcmp(e->d_name + l - 4, ".txt"))) continue;
    if (n == cap) {
      char **nv = realloc(v, (size_t)(cap = cap ? cap * 2 : 16) * sizeof *v);
      if (!nv) break;
      v = nv;
    }
    size_t pl = strlen(dir) + l + 2;
    if (!(v[n] = malloc(pl))) break;
    snprintf(v[n++], pl, "%s/%s", dir, e->d_name);
  }
  closedir(d);
  qsort(v, (size_t)n, sizeof *v, cmp_str);
  *out = v;
  return n;
}

static void free_list(char **v, int n) {
  for (int i = 0; i < n; i++) free(v[i]);
  free(v);
}

/* ---- 1. known bad card files ---- */

/* known: the file is a known engine issue, reported as skipped until fixed */
static void bad_card_file(const char *path, int known) {
  size_t len;
  char *text = slurp(path, &len);
  if (!text) {
    result(0, "%s: cannot read", path);
    return;
  }
  int eline = 0, ecol = 0;
  char etext[256] = "";
  if (!strncmp(text, "# expect: ", 10)) {
    int used = 0;
    if (sscanf(text + 10, "%d%n", &eline, &used) == 1 && text[10 + used] == ':')
      sscanf(text + 10 + used + 1, "%d", &ecol);
    const char *sp = strchr(text + 10, ' ');
    const char *nl = strchr(text, '\n');
    if (sp && nl && sp < nl) snprintf(etext, sizeof etext, "%.*s", (int)(nl - sp - 1), sp + 1);
  }
  mtg_pool *p;
  mtg_error e;
  memset(&e, 0, sizeof e);
  int rc = mtg_pool_new(&p, NULL) < 0 ? MTG_ENOMEM : mtg_pool_load_buffer(p, path, text, len, &e);
  mtg_pool_free(p);
  free(text);
  char b[2048];
  mtg_error_format(&e, b, sizeof b);
  char *nl = strchr(b, '\n');
  if (nl) *nl = 0;
  int ok = rc == MTG_EDATA && e.status == MTG_EDATA && !strcmp(e.file, path) && e.line > 0 && e.msg[0] &&
           (!eline || e.line == eline) && (!ecol || e.col == ecol) && (!etext[0] || strstr(e.msg, etext));
  char what[4096];
  if (known && !ok) {
    skipped++;
    printf("SKIP known engine issue: %s: %s\n", path, rc >= 0 ? "loaded without an error" : b);
    return;
  }
  snprintf(what, sizeof what, "%s refused: %s%s%s", path, b, ok ? "" : " (expected another status or location)",
           known ? " (fixed: move it to tests/unit/malformed/cards/)" : "");
  result(ok, "%s", what);
}

/* ---- 2. damaged card files ---- */

static const char punct[] = ":-[]{}\"'\t\n #&*!|>%@,?\\0123456789";

/* makes a damaged copy of text (len) into out; returns its length */
static size_t damage(const char *text, size_t len, uint64_t *r, char *out) {
  uint32_t kind = play_rng_next(r) % 6;
  size_t at = len ? play_rng_next(r) % len : 0;
  switch (kind) {
  case 0: /* truncate */
    memcpy(out, text, at);
    return at;
  case 1: /* replace a few bytes */
  case 2: {
    memcpy(out, text, len);
    int k = 1 + (int)(play_rng_next(r) % 4);
    for (int i = 0; i < k && len; i++) out[play_rng_next(r) % len] = punct[play_rng_next(r) % (sizeof punct - 1)];
    return len;
  }
  case 3: { /* drop a line */
    size_t s = at, e = at;
    while (s > 0 && text[s - 1] != '\n') s--;
    while (e < len && text[e] != '\n') e++;
    if (e < len) e++;
    memcpy(out, text, s);
    memcpy(out + s, text + e, len - e);
    return len - (e - s);
  }
  case 4: { /* double a line */
    size_t s = at, e = at;
    while (s > 0 && text[s - 1] != '\n') s--;
    while (e < len && text[e] != '\n') e++;
    if (e < len) e++;
    memcpy(out, text, e);
    memcpy(out + e, text + s, e - s);
    memcpy(out + e + (e - s), text + e, len - e);
    return len + (e - s);
  }
  default: { /* insert a byte (a NUL among them) */
    memcpy(out, text, at);
    out[at] = (char)(play_rng_next(r) % 3 == 0 ? 0 : punct[play_rng_next(r) % (sizeof punct - 1)]);
    memcpy(out + at + 1, text + at, len - at);
    return len + 1;
  }
  }
}

/* a status and the error agree: success leaves the error alone, failure fills it */
static int consistent(int rc, const mtg_error *e) {
  if (rc >= 0) return 1;
  return e->status == rc && e->msg[0] != 0;
}

static void damaged_cards(const char *path, int rounds, uint64_t seed) {
  size_t len;
  char *text = slurp(path, &len);
  char *buf = text ? malloc(2 * len + 16) : NULL;
  if (!buf) {
    free(text);
    result(0, "%s: cannot read", path);
    return;
  }
  uint64_t r = seed;
  int refused = 0, bad = 0;
  char first[2048] = "";
  for (int i = 0; i < rounds; i++) {
    size_t n = damage(text, len, &r, buf);
    mtg_pool *p;
    mtg_error e;
    memset(&e, 0, sizeof e);
    if (mtg_pool_new(&p, NULL) < 0) break;
    int rc = mtg_pool_load_buffer(p, path, buf, n, &e);
    if (rc < 0) refused++;
    if (!consistent(rc, &e) || (rc < 0 && rc != MTG_EDATA && rc != MTG_ELIMIT)) {
      if (!bad++) snprintf(first, sizeof first, "round %d: status %d, error status %d '%s'", i, rc, e.status, e.msg);
    }
    mtg_pool_free(p);
  }
  free(buf);
  free(text);
  char what[4096];
  snprintf(what, sizeof what, "%s damaged %d ways: %d refused with located errors, %d loaded%s%s", path, rounds,
           refused, rounds - refused, bad ? "; " : "", first);
  result(!bad, "%s", what);
}

/* ---- 3. damaged setup text ---- */

static void damaged_setups(mtg_pool *pool, int rounds) {
  int bad = 0, refused = 0, started = 0;
  char first[2048] = "";
  for (int s = 0; s < 8; s++) {
    mtg_error e;
    mtg_setup *su = play_setup(pool, (uint64_t)s + 77, &e);
    if (!su) {
      result(0, "%s", "play_setup failed");
      return;
    }
    int need = mtg_setup_write(su, NULL, 0);
    char *text = malloc((size_t)need + 1), *buf = malloc(2 * (size_t)need + 16);
    if (!text || !buf) {
      free(text);
      free(buf);
      mtg_setup_free(su);
      return;
    }
    mtg_setup_write(su, text, (size_t)need + 1);
    mtg_setup_free(su);
    uint64_t r = (uint64_t)s * 7919 + 1;
    for (int i = 0; i < rounds / 8; i++) {
      size_t n = damage(text, (size_t)need, &r, buf);
      buf[n] = 0; /* the setup reader takes a C string */
      mtg_setup *back = NULL;
      memset(&e, 0, sizeof e);
      int rc = mtg_setup_read(pool, "setup.txt", buf, &back, &e);
      if (rc < 0) {
        refused++;
        if (back || !consistent(rc, &e) || e.line <= 0)
          if (!bad++) snprintf(first, sizeof first, "setup %d round %d: status %d, line %d, '%s'", s, i, rc, e.line, e.msg);
        continue;
      }
      mtg_game *g = NULL;
      rc = mtg_game_new(&g, back, &e);
      if (rc >= 0) {
        started++;
        char why[512];
        if (mtg_game_check(g, why, sizeof why))
          if (!bad++) snprintf(first, sizeof first, "setup %d round %d: invariant: %s", s, i, why);
      } else if (!consistent(rc, &e) || g) {
        if (!bad++) snprintf(first, sizeof first, "setup %d round %d: game_new status %d '%s'", s, i, rc, e.msg);
      }
      mtg_game_free(g);
      mtg_setup_free(back);
    }
    free(text);
    free(buf);
  }
  char what[4096];
  snprintf(what, sizeof what, "setup text damaged %d ways: %d refused with located errors, %d games started%s%s",
           rounds / 8 * 8, refused, started, bad ? "; " : "", first);
  result(!bad, "%s", what);
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 300;
  char **files;
  int n = list_dir("tests/unit/malformed/cards", &files);
  if (n == 0) result(0, "%s", "no files in tests/unit/malformed/cards");
  for (int i = 0; i < n; i++) bad_card_file(files[i], 0);
  free_list(files, n);
  n = list_dir("tests/unit/malformed/cards-known", &files);
  for (int i = 0; i < n; i++) bad_card_file(files[i], 1);
  free_list(files, n);
  n = list_dir("engine/cards", &files);
  for (int i = 0; i < n; i++) damaged_cards(files[i], rounds, (uint64_t)i + 1);
  free_list(files, n);
  mtg_pool *pool;
  mtg_error e;
  if (mtg_pool_new(&pool, NULL) == 0 && mtg_pool_load_dir(pool, "engine/cards", &e) == 0) damaged_setups(pool, rounds);
  else result(0, "%s", "engine/cards does not load");
  mtg_pool_free(pool);
  if (skipped) printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
  else printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
