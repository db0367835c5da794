/* cli.c - option values and input file sets for the programs (see cli.h). */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "escape.h"
#include "walk.h"

int cli_long(const char *s, long lo, long hi, long *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (!*s || *end || errno || v < lo || v > hi) return -1;
  *out = v;
  return 0;
}

int cli_u64(const char *s, uint64_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (!*s || *end || errno || *s == '-') return -1;
  *out = v;
  return 0;
}

static int push(char ***list, int *n, int *cap, const char *s) {
  if (*n == *cap) {
    int c = *cap ? *cap * 2 : 64;
    char **l = realloc(*list, (size_t)c * sizeof *l);
    if (!l) return -1;
    *list = l;
    *cap = c;
  }
  char *copy = malloc(strlen(s) + 1);
  if (!copy) return -1;
  strcpy(copy, s);
  (*list)[(*n)++] = copy;
  return 0;
}

typedef struct walk_ctx {
  const char *suffix, *prog;
  cli_files *f;
  int oom;
} walk_ctx;

static int want(const char *name, void *ctx) { return walk_has_suffix(name, ((walk_ctx *)ctx)->suffix); }

/* Whatever the walk passes over is said on stderr. A directory that can't be
 * read, and a file named like an input that isn't a regular one (a FIFO, a
 * link to /dev/zero, a dangling link), are kept as paths: opening them
 * reports the error (without blocking on a FIFO), so the run exits 2. */
static void skipped(void *ctx, const char *path, walk_skip kind, const char *why) {
  walk_ctx *w = ctx;
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  if (kind == WALK_UNREADABLE || kind == WALK_SPECIAL || (kind == WALK_DANGLING && want(base, w))) {
    if (push(&w->f->path, &w->f->n, &w->f->cap, path)) w->oom = 1;
    return;
  }
  char shown[1024];
  escape_text(path, shown, sizeof shown);
  fprintf(stderr, "%s: skipped %s: %s\n", w->prog, shown, why);
}

static int by_path(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int cli_files_collect(cli_files *f, char **args, int n, const char *suffix, const char *prog) {
  walk_ctx wc = {suffix, prog, f, 0};
  walk_opts o = {.want = want, .skipped = skipped, .ctx = &wc, .follow_links = 1};
  for (int i = 0; i < n; i++) {
    struct stat st;
    int rc = 0;
    if (stat(args[i], &st) == 0 && S_ISDIR(st.st_mode)) {
      walk_list l = {0};
      mtg_error err;
      rc = walk_dir(args[i], &o, &l, &err);
      if (rc == MTG_EIO) rc = push(&f->path, &f->n, &f->cap, args[i]); /* reported when opened */
      for (int k = 0; k < l.n && !rc; k++) rc = push(&f->path, &f->n, &f->cap, l.path[k]);
      walk_list_free(&l);
    } else {
      rc = push(&f->path, &f->n, &f->cap, args[i]); /* a missing file is reported when opened */
    }
    if (rc || wc.oom) return -1;
  }
  if (f->n) qsort(f->path, (size_t)f->n, sizeof *f->path, by_path);
  int k = 0;
  for (int i = 0; i < f->n; i++) {
    if (k && !strcmp(f->path[k - 1], f->path[i])) free(f->path[i]);
    else f->path[k++] = f->path[i];
  }
  f->n = k;
  return 0;
}

void cli_files_free(cli_files *f) {
  for (int i = 0; i < f->n; i++) free(f->path[i]);
  free(f->path);
  memset(f, 0, sizeof *f);
}
