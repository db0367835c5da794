/* impact.c - the changed replays grouped by rule (see impact.h). */
#include "impact.h"

#include <stdlib.h>
#include <string.h>

#include "report.h"

/* A replay that changed: what its report says, kept in short. */
typedef struct change {
  char *file;
  int outcome;
  char kind[32], step[32];
  long event, decision;
  int turn;
  char *origin, *message, *expected, *actual;
} change;

/* One (rule, change) pair: a change is listed under each rule it has. */
typedef struct entry {
  char rule[32];
  int change;
} entry;

struct impact {
  change *c;
  int n, cap;
  entry *e;
  int ne, ecap;
  int checked;
};

impact *impact_new(void) { return calloc(1, sizeof(impact)); }

void impact_free(impact *m) {
  if (!m) return;
  for (int i = 0; i < m->n; i++) {
    change *c = &m->c[i];
    free(c->file);
    free(c->origin);
    free(c->message);
    free(c->expected);
    free(c->actual);
  }
  free(m->c);
  free(m->e);
  free(m);
}

int impact_changed(const impact *m) { return m->n; }

static char *dup_str(const char *s) {
  char *d = malloc(strlen(s) + 1);
  if (d) strcpy(d, s);
  return d;
}

static int add_entry(impact *m, const char *rule, size_t len, int change) {
  if (m->ne == m->ecap) {
    int cap = m->ecap ? 2 * m->ecap : 64;
    entry *e = realloc(m->e, (size_t)cap * sizeof *e);
    if (!e) return -1;
    m->e = e;
    m->ecap = cap;
  }
  entry *e = &m->e[m->ne++];
  snprintf(e->rule, sizeof e->rule, "%.*s", (int)(len < sizeof e->rule ? len : sizeof e->rule - 1), rule);
  e->change = change;
  return 0;
}

/* the rule a log line carries: "rule=704.5a" */
static const char *line_rule(const char *line, size_t *len) {
  const char *r = strstr(line, " rule=");
  if (!r) return NULL;
  r += 6;
  *len = strcspn(r, " ");
  return *len ? r : NULL;
}

int impact_add(impact *m, const char *path, const verify_report *r) {
  m->checked++;
  if (r->outcome == VERIFY_OK || r->outcome == VERIFY_OPEN) return 0;
  if (m->n == m->cap) {
    int cap = m->cap ? 2 * m->cap : 32;
    change *c = realloc(m->c, (size_t)cap * sizeof *c);
    if (!c) return -1;
    m->c = c;
    m->cap = cap;
  }
  change *c = &m->c[m->n];
  memset(c, 0, sizeof *c);
  c->file = dup_str(path);
  c->origin = dup_str(r->origin);
  c->message = dup_str(r->message);
  c->expected = dup_str(r->expected);
  c->actual = dup_str(r->actual);
  if (!c->file || !c->origin || !c->message || !c->expected || !c->actual) {
    free(c->file), free(c->origin), free(c->message), free(c->expected), free(c->actual);
    return -1;
  }
  c->outcome = r->outcome;
  snprintf(c->kind, sizeof c->kind, "%s", r->kind);
  snprintf(c->step, sizeof c->step, "%s", r->step);
  c->event = r->event;
  c->decision = r->decision;
  c->turn = r->turn;
  int k = m->n++, listed = 0;
  /* under each rule the recording cites, else the rule of the line that differs */
  for (const char *p = r->cites; *p;) {
    size_t len = strcspn(p, " ");
    if (len && add_entry(m, p, len, k)) return -1;
    listed += len > 0;
    p += len;
    p += strspn(p, " ");
  }
  if (!listed) {
    size_t len = 0;
    const char *rule = line_rule(r->expected, &len);
    if (!rule) rule = line_rule(r->actual, &len);
    if (!rule) rule = "(no rule)", len = strlen(rule);
    if (add_entry(m, rule, len, k)) return -1;
  }
  return 0;
}

/* Rules in their number's order: 104.2a < 603.2 < 603.10; "(no rule)" last. */
static int rule_cmp(const char *a, const char *b) {
  if ((a[0] == '(') != (b[0] == '(')) return a[0] == '(' ? 1 : -1;
  while (*a && *b) {
    if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
      char *ea, *eb;
      long x = strtol(a, &ea, 10), y = strtol(b, &eb, 10);
      if (x != y) return x < y ? -1 : 1;
      a = ea, b = eb;
    } else {
      if (*a != *b) return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
      a++, b++;
    }
  }
  return *a ? 1 : *b ? -1 : 0;
}

static int by_rule(const void *pa, const void *pb) {
  const entry *a = pa, *b = pb;
  int c = rule_cmp(a->rule, b->rule);
  return c ? c : a->change - b->change;
}

static void sort(const impact *m) { qsort(m->e, (size_t)m->ne, sizeof *m->e, by_rule); }

static int rules(const impact *m) {
  int n = 0;
  for (int i = 0; i < m->ne; i++) n += !i || strcmp(m->e[i].rule, m->e[i - 1].rule);
  return n;
}

void impact_text(FILE *f, const impact *m) {
  sort(m);
  fprintf(f, "impact: %d of %d replays changed", m->n, m->checked);
  if (m->n) fprintf(f, ", under %d rule%s", rules(m), rules(m) == 1 ? "" : "s");
  fputc('\n', f);
  for (int i = 0; i < m->ne; i++) {
    const entry *e = &m->e[i];
    if (!i || strcmp(e->rule, m->e[i - 1].rule)) {
      int k = 0;
      for (int j = i; j < m->ne && !strcmp(m->e[j].rule, e->rule); j++) k++;
      fprintf(f, "rule ");
      report_text_out(f, e->rule);
      fprintf(f, ": %d replay%s\n", k, k == 1 ? "" : "s");
    }
    const change *c = &m->c[e->change];
    fputs("  ", f);
    report_text_out(f, c->file);
    if (c->origin[0]) {
      fputs(" (", f);
      report_text_out(f, c->origin);
      fputc(')', f);
    }
    fprintf(f, ": %s (%s): ", verify_outcome_name(c->outcome), c->kind);
    report_text_out(f, c->message);
    fputc('\n', f);
    if (c->outcome != VERIFY_DIVERGED) continue;
    fprintf(f, "    at event %ld, decision %ld, turn %d, step ", c->event, c->decision, c->turn);
    report_text_out(f, c->step);
    fputs("\n    expected: ", f);
    report_text_out(f, c->expected);
    fputs("\n    actual:   ", f);
    report_text_out(f, c->actual);
    fputc('\n', f);
  }
}

static void field(FILE *f, const char *key, const char *value) {
  fprintf(f, ",\"%s\":", key);
  report_json_string(f, value);
}

void impact_json(FILE *f, const impact *m) {
  sort(m);
  fprintf(f, "{\"checked\":%d,\"changed\":%d,\"rules\":[", m->checked, m->n);
  for (int i = 0; i < m->ne; i++) {
    const entry *e = &m->e[i];
    int first = !i || strcmp(e->rule, m->e[i - 1].rule);
    if (first) {
      fputs(i ? "]},{\"rule\":" : "{\"rule\":", f);
      report_json_string(f, e->rule);
      fputs(",\"replays\":[", f);
    } else
      fputc(',', f);
    const change *c = &m->c[e->change];
    fputs("{\"file\":", f);
    report_json_string(f, c->file);
    field(f, "origin", c->origin);
    field(f, "result", verify_outcome_name(c->outcome));
    field(f, "kind", c->kind);
    field(f, "message", c->message);
    if (c->outcome == VERIFY_DIVERGED) {
      fprintf(f, ",\"event\":%ld,\"decision\":%ld,\"turn\":%d", c->event, c->decision, c->turn);
      field(f, "step", c->step);
      field(f, "expected", c->expected);
      field(f, "actual", c->actual);
    }
    fputc('}', f);
  }
  fputs(m->ne ? "]}]}\n" : "]}\n", f);
}
