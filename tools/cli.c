/* cli.c - option values and input file sets for the programs (see cli.h). */
#include "cli.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

static int ends_with(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && !strcmp(s + a - b, suffix);
}

static int walk(cli_files *f, const char *dir, const char *suffix) {
  DIR *d = opendir(dir);
  if (!d) return push(&f->path, &f->n, &f->cap, dir); /* reported when opened */
  int rc = 0;
  struct dirent *e;
  while (!rc && (e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    size_t len = strlen(dir) + strlen(e->d_name) + 2;
    char *p = malloc(len);
    if (!p) {
      rc = -1;
      break;
    }
    snprintf(p, len, "%s%s%s", dir, ends_with(dir, "/") ? "" : "/", e->d_name);
    struct stat st;
    if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) rc = walk(f, p, suffix);
    else if (ends_with(e->d_name, suffix)) rc = push(&f->path, &f->n, &f->cap, p);
    free(p);
  }
  closedir(d);
  return rc;
}

static int by_path(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int cli_files_collect(cli_files *f, char **args, int n, const char *suffix) {
  for (int i = 0; i < n; i++) {
    struct stat st;
    int rc;
    if (stat(args[i], &st) == 0 && S_ISDIR(st.st_mode)) rc = walk(f, args[i], suffix);
    else rc = push(&f->path, &f->n, &f->cap, args[i]); /* a missing file is reported when opened */
    if (rc) return -1;
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
