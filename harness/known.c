/* known: reading, querying and rewriting the known-failures list. */
#include "known.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int add(hknown *k, const char *id, size_t len) {
  char **v = realloc(k->ids, (size_t)(k->n + 1) * sizeof *v);
  if (!v) return -1;
  k->ids = v;
  k->ids[k->n] = malloc(len + 1);
  if (!k->ids[k->n]) return -1;
  memcpy(k->ids[k->n], id, len);
  k->ids[k->n++][len] = 0;
  return 0;
}

int known_load(hknown *k, const char *path, char *why, size_t size) {
  memset(k, 0, sizeof *k);
  FILE *f = fopen(path, "r");
  if (!f) {
    if (errno == ENOENT) return 0;
    snprintf(why, size, "%s: %s", path, strerror(errno));
    return -1;
  }
  char line[512];
  while (fgets(line, sizeof line, f)) {
    char *p = line;
    while (*p == ' ' || *p == '\t') p++;
    char *h = strchr(p, '#');
    if (h) *h = 0;
    size_t n = strcspn(p, " \t\r\n");
    if (n && !known_has(k, p) && add(k, p, n)) {
      fclose(f);
      snprintf(why, size, "out of memory");
      return -1;
    }
  }
  fclose(f);
  return 0;
}

int known_has(const hknown *k, const char *id) {
  size_t n = strcspn(id, " \t\r\n");
  for (int i = 0; i < k->n; i++)
    if (strlen(k->ids[i]) == n && !strncmp(k->ids[i], id, n)) return 1;
  return 0;
}

void known_free(hknown *k) {
  for (int i = 0; i < k->n; i++) free(k->ids[i]);
  free(k->ids);
  memset(k, 0, sizeof *k);
}

static int cmp(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

int known_update(const hknown *k, const char *path, const hrun_item *it, int n, char *why, size_t size) {
  const char **out = malloc((size_t)(k->n + n + 1) * sizeof *out);
  if (!out) {
    snprintf(why, size, "out of memory");
    return -1;
  }
  int m = 0;
  /* a script error is a failure here: the list holds what does not pass */
  for (int i = 0; i < n; i++)
    if (it[i].r && (it[i].verdict == V_FAIL || it[i].verdict == V_XFAIL || it[i].verdict == V_ERROR))
      out[m++] = it[i].hc->id;
  for (int j = 0; j < k->n; j++) {
    int ran = 0;
    for (int i = 0; i < n && !ran; i++) ran = it[i].r && !strcmp(it[i].hc->id, k->ids[j]);
    if (!ran) out[m++] = k->ids[j];
  }
  qsort(out, (size_t)m, sizeof *out, cmp);
  FILE *f = fopen(path, "w");
  if (!f) {
    snprintf(why, size, "%s: %s", path, strerror(errno));
    free(out);
    return -1;
  }
  fprintf(f, "# Known failures: ids of cases expected to fail (bin/harness --known-failures).\n"
             "# Rewritten by --update-known-failures; a case fixed or newly failing fails the run.\n");
  for (int i = 0; i < m; i++)
    if (!i || strcmp(out[i], out[i - 1])) fprintf(f, "%s\n", out[i]);
  free(out);
  if (fclose(f)) {
    snprintf(why, size, "%s: write failed", path);
    return -1;
  }
  return 0;
}
