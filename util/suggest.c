/* suggest: nearest-word search for error messages (see suggest.h). */
#include "suggest.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

int suggest_distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > 63) la = 63;
  if (lb > 63) lb = 63;
  int d[64][64];
  for (size_t i = 0; i <= la; i++) d[i][0] = (int)i;
  for (size_t j = 0; j <= lb; j++) d[0][j] = (int)j;
  for (size_t i = 1; i <= la; i++)
    for (size_t j = 1; j <= lb; j++) {
      int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
      int cost = ca != cb;
      int v = d[i - 1][j] + 1;
      if (d[i][j - 1] + 1 < v) v = d[i][j - 1] + 1;
      if (d[i - 1][j - 1] + cost < v) v = d[i - 1][j - 1] + cost;
      if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
          tolower((unsigned char)a[i - 2]) == cb && d[i - 2][j - 2] + 1 < v)
        v = d[i - 2][j - 2] + 1;
      d[i][j] = v;
    }
  return d[la][lb];
}

static int count(const char *const *w, int n) {
  if (n >= 0) return n;
  int k = 0;
  while (w[k]) k++;
  return k;
}

int suggest_nearest(const char *s, const char *const *words, int n, const char **out, int k) {
  n = count(words, n);
  int got = 0, dist[16];
  if (k > 16) k = 16;
  size_t ls = strlen(s);
  for (int i = 0; i < n; i++) {
    int dd = suggest_distance(s, words[i]);
    size_t lw = strlen(words[i]);
    /* a prefix or substring match counts as close */
    size_t lmin = ls < lw ? ls : lw;
    if (ls >= 3 && lmin >= 3 && (strstr(words[i], s) || strstr(s, words[i]))) dd = dd < 2 ? dd : 2;
    int limit = (int)(ls > lw ? ls : lw) / 3 + 1;
    if (dd > limit) continue;
    int pos = got < k ? got : k;
    while (pos > 0 && dist[pos - 1] > dd) pos--;
    if (pos >= k) continue;
    int last = got < k ? got : k - 1;
    for (int j = last; j > pos; j--) {
      out[j] = out[j - 1];
      dist[j] = dist[j - 1];
    }
    out[pos] = words[i];
    dist[pos] = dd;
    if (got < k) got++;
  }
  return got;
}

const char *suggest_best(const char *s, const char *const *words, int n) {
  const char *out[1];
  return suggest_nearest(s, words, n, out, 1) ? out[0] : NULL;
}

void suggest_join(const char *const *words, int n, char *buf, size_t size) {
  n = count(words, n);
  size_t used = 0;
  if (size) buf[0] = 0;
  for (int i = 0; i < n; i++) {
    int w = snprintf(buf + used, size - used, "%s%s", i ? ", " : "", words[i]);
    if (w < 0 || (size_t)w >= size - used) {
      if (size > 4) strcpy(buf + size - 4, "...");
      return;
    }
    used += (size_t)w;
  }
}
