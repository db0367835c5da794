/* answer.c - recorded decision lines as answers (see answer.h). */
#include "answer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int starts(const char *s, const char *prefix) { return !strncmp(s, prefix, strlen(prefix)); }

static int parse_int(const char **p, int *out) {
  char *end;
  long x = strtol(*p, &end, 10);
  if (end == *p || x < -1000000000L || x > 1000000000L) return -1;
  *out = (int)x;
  *p = end;
  return 0;
}

/* the option whose label starts text and is followed by the end or " | "
 * (the longest such, should one label begin another) */
static int match_label(const mtg_decision *d, const char *text, size_t *len) {
  int best = -1;
  size_t bl = 0;
  for (int i = 0; i < d->n_options; i++) {
    const char *l = d->options[i].label;
    size_t n = strlen(l);
    if (n >= bl && !strncmp(text, l, n) && (text[n] == 0 || starts(text + n, " | "))) best = i, bl = n;
  }
  *len = bl;
  return best;
}

int answer_parse(const mtg_decision *d, const char *p, int *vals, int *n, const char **bad) {
  *n = 0;
  if (d->kind == MTG_D_X || d->kind == MTG_D_NUMBER) {
    if (!starts(p, " value=") || (p += 7, parse_int(&p, &vals[0])) || *p) return ANSWER_NO_NUMBER;
    *n = 1;
    return ANSWER_OK;
  }
  if (d->kind == MTG_D_DAMAGE || d->kind == MTG_D_DIVIDE) {
    for (int i = 0; i < d->n_options; i++) {
      const char *l = d->options[i].label;
      size_t len = strlen(l);
      if (*p != ' ' || strncmp(p + 1, l, len) || p[1 + len] != '=') return ANSWER_DIVISION;
      p += len + 2;
      if (parse_int(&p, &vals[(*n)++])) return ANSWER_AMOUNT;
    }
    return *p ? ANSWER_MORE : ANSWER_OK;
  }
  if (!strcmp(p, " choice=none")) return ANSWER_OK;
  if (!starts(p, " choice=")) return ANSWER_NO_CHOICE;
  p += 8;
  for (;;) {
    size_t len;
    int i = match_label(d, p, &len);
    if (i < 0) {
      *bad = p;
      return ANSWER_NOT_AMONG;
    }
    if (*n >= d->n_options) return ANSWER_TWICE; /* more picks than options: a repeat */
    vals[(*n)++] = i;
    p += len;
    if (!*p) return ANSWER_OK;
    p += 3;
  }
}

void answer_options(const mtg_decision *d, char *buf, size_t size) {
  size_t u = (size_t)snprintf(buf, size, "options:");
  for (int i = 0; i < d->n_options && u < size; i++)
    u += (size_t)snprintf(buf + u, size - u, "%s%s", i ? " | " : " ", d->options[i].label);
  if (d->n_options == 0 && u < size) snprintf(buf + u, size - u, " none");
}
