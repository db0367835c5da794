/* coverage: per-rule case counts over the rules index (see coverage.h). */
#include "coverage.h"

#include <stdlib.h>

#include "rules.h"

typedef struct counts {
  int passed, failed, todo;
} counts;

struct coverage {
  int n;      /* rules_count */
  counts c[]; /* per rule of the index */
};

coverage *coverage_new(void) {
  coverage *cov = calloc(1, sizeof(coverage) + (size_t)rules_count * sizeof(counts));
  if (cov) cov->n = rules_count;
  return cov;
}

void coverage_free(coverage *cov) { free(cov); }

void coverage_add(coverage *cov, const hrun_item *it, int n) {
  counts *c = cov->c;
  for (int i = 0; i < n; i++)
    for (int k = 0; it[i].r && k < it[i].hc->nrules; k++) {
      int r = rules_find(it[i].hc->rules[k]);
      if (r < 0) continue;
      switch (it[i].verdict) {
      case V_PASS: c[r].passed++; break;
      case V_SKIP: c[r].todo++; break;
      default: c[r].failed++; break; /* failing, known failing, or a stale known failure */
      }
    }
}

void coverage_end(buf *out, int json, const char *const *sel, int nsel, const coverage *cov) {
  const counts *c = cov->c;
  int listed = 0, covered = 0;
  if (json) buf_puts(out, "[\n");
  for (int r = 0; r < rules_count; r++) {
    int in = !nsel;
    for (int s = 0; s < nsel && !in; s++) in = rules_is_under(rules_table[r].num, sel[s]);
    if (!in) continue;
    covered += c[r].passed > 0;
    if (json) {
      buf_printf(out, "%s{\"rule\": \"%s\", \"passed\": %d, \"failed\": %d, \"todo\": %d}", listed ? ",\n" : "",
                 rules_table[r].num, c[r].passed, c[r].failed, c[r].todo);
    } else {
      buf_printf(out, "%-9s %3d passed %3d failed %3d todo  %s%s\n", rules_table[r].num, c[r].passed, c[r].failed,
                 c[r].todo, c[r].passed ? "" : "UNCOVERED ", rules_table[r].title);
    }
    listed++;
  }
  if (json) buf_puts(out, "\n]\n");
  else
    buf_printf(out, "rules with a passing case: %d of %d (%.1f%%)\n", covered, listed,
               listed ? 100.0 * covered / listed : 0.0);
}

void coverage_write(buf *out, int json, const char *const *sel, int nsel, const hrun_item *it, int n) {
  coverage *cov = coverage_new();
  if (!cov) return;
  coverage_add(cov, it, n);
  coverage_end(out, json, sel, nsel, cov);
  coverage_free(cov);
}
