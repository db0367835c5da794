/* known: reading, querying and rewriting the known-failures list. */
#include "known.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input.h"

static int cmp(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

static int add(hknown *k, int *cap, const char *id, size_t len) {
  if (k->n == *cap) {
    int c = *cap ? 2 * *cap : 64;
    char **v = realloc(k->ids, (size_t)c * sizeof *v);
    if (!v) return -1;
    k->ids = v;
    *cap = c;
  }
  char *s = malloc(len + 1);
  if (!s) return -1;
  memcpy(s, id, len);
  s[len] = 0;
  k->ids[k->n++] = s;
  return 0;
}

/* The list is read whole (a regular file, within the input size limit), its
 * ids sorted and deduplicated once: loading and every lookup stay fast
 * whatever its length. */
int known_load(hknown *k, const char *path, char *why, size_t size) {
  memset(k, 0, sizeof *k);
  char *text;
  size_t len;
  mtg_error err;
  int rc = input_read(path, 0, &text, &len, &err);
  if (rc) {
    if (access(path, F_OK) && errno == ENOENT) return 0;
    char msg[1400];
    mtg_error_format(&err, msg, sizeof msg);
    snprintf(why, size, "%s", msg);
    return -1;
  }
  int cap = 0;
  for (char *p = text, *end = text + len; p < end;) {
    char *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol) eol = end;
    char *q = p;
    while (q < eol && (*q == ' ' || *q == '\t')) q++;
    size_t n = 0;
    while (q + n < eol && q[n] != '#' && q[n] != ' ' && q[n] != '\t' && q[n] != '\r') n++;
    if (n && add(k, &cap, q, n)) {
      free(text);
      snprintf(why, size, "out of memory");
      return -1;
    }
    p = eol + 1;
  }
  free(text);
  if (k->n) qsort(k->ids, (size_t)k->n, sizeof *k->ids, cmp);
  int m = 0;
  for (int i = 0; i < k->n; i++) {
    if (m && !strcmp(k->ids[m - 1], k->ids[i])) free(k->ids[i]);
    else k->ids[m++] = k->ids[i];
  }
  k->n = m;
  return 0;
}

/* Binary search in a sorted list for the id (up to its first blank). */
static int sorted_has(char *const *ids, int n, const char *id) {
  size_t len = strcspn(id, " \t\r\n");
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    int c = strncmp(ids[mid], id, len);
    if (!c) c = ids[mid][len] ? 1 : 0;
    if (!c) return 1;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return 0;
}

int known_has(const hknown *k, const char *id) { return sorted_has(k->ids, k->n, id); }

void known_free(hknown *k) {
  for (int i = 0; i < k->n; i++) free(k->ids[i]);
  free(k->ids);
  memset(k, 0, sizeof *k);
}

int known_update(const hknown *k, const char *path, const hrun_item *it, int n, char *why, size_t size) {
  const char **out = malloc((size_t)(k->n + n + 1) * sizeof *out);
  if (!out) {
    snprintf(why, size, "out of memory");
    return -1;
  }
  /* the ids this run selected, sorted, to tell which listed ids it did not run */
  char **ran = malloc((size_t)(n ? n : 1) * sizeof *ran);
  if (!ran) {
    free(out);
    snprintf(why, size, "out of memory");
    return -1;
  }
  int nran = 0;
  for (int i = 0; i < n; i++)
    if (it[i].r) ran[nran++] = (char *)it[i].hc->id;
  qsort(ran, (size_t)nran, sizeof *ran, cmp);
  int m = 0;
  /* a script error is a failure here: the list holds what does not pass */
  for (int i = 0; i < n; i++)
    if (it[i].r && (it[i].verdict == V_FAIL || it[i].verdict == V_XFAIL || it[i].verdict == V_ERROR))
      out[m++] = it[i].hc->id;
  for (int j = 0; j < k->n; j++)
    if (!sorted_has(ran, nran, k->ids[j])) out[m++] = k->ids[j];
  free(ran);
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
