/* rules: lookups in the compiled-in rules index (see rules.h). */
#include "rules.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suggest.h"
#include "ydoc.h"

int rules_find(const char *num) {
  int lo = 0, hi = rules_count - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    int i = rules_sorted[mid];
    int c = strcmp(num, rules_table[i].num);
    if (!c) return i;
    if (c < 0) hi = mid - 1;
    else lo = mid + 1;
  }
  return -1;
}

int rules_is_under(const char *num, const char *sel) {
  size_t n = strlen(sel);
  if (!n || strncmp(num, sel, n)) return 0;
  char c = num[n];
  if (!c) return 1;
  int sel_has_dot = strchr(sel, '.') != NULL;
  if (c == '.') return !sel_has_dot;
  if (c >= 'a' && c <= 'z') return sel_has_dot && isdigit((unsigned char)sel[n - 1]);
  return 0;
}

void rules_suggest(const char *num, char *out, size_t size) {
  if (size) out[0] = 0;
  const char **words = malloc((size_t)rules_count * sizeof *words);
  if (!words) return;
  /* same section first: "603.55" should suggest 603.x, not 503.5 */
  int n = 0;
  for (int pass = 0; pass < 2 && n == 0; pass++)
    for (int i = 0; i < rules_count; i++)
      if (pass || !strncmp(rules_table[i].num, num, 3)) words[n++] = rules_table[i].num;
  const char *best[3];
  int k = suggest_nearest(num, words, n, best, 3);
  suggest_join(best, k, out, size);
  free(words);
}

static int in_list(const char *list, const char *item) {
  size_t n = strlen(item);
  for (const char *p = list; *p;) {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len == n && !strncmp(p, item, n)) return 1;
    p += len + (e ? 1 : 0);
  }
  return 0;
}

int rules_alias(const char *seed, int *idx, int max) {
  int k = 0;
  for (int i = 0; i < rules_count && k < max; i++)
    if (rules_table[i].aliases[0] && in_list(rules_table[i].aliases, seed)) idx[k++] = i;
  return k;
}

const char *rules_removed_note(const char *seed) {
  for (int i = 0; i < rules_removed_count; i++)
    if (!strcmp(rules_removed[i].alias, seed)) return rules_removed[i].note;
  return NULL;
}

/* ---- consistency of cases/rules.yaml with the compiled-in table ---- */

static int str_field(const ydoc *d, const ynode *m, const char *key, const char **out, mtg_error *err) {
  const ynode *v = ymap_get(m, key);
  if (!v) return ydoc_error(d, m, err, "missing '%s'", key);
  return ynode_str(d, v, out, err);
}

int rules_check_file(const char *path, mtg_error *err) {
  ydoc *d;
  if (ydoc_parse_file(path, &d, err)) return -1;
  int rc = -1;
  const ynode *root = ydoc_count(d) ? ydoc_root(d, 0) : NULL;
  const ynode *eff = ymap_get(root, "effective"), *list = ymap_get(root, "rules");
  const char *s;
  if (!root || root->kind != YN_MAP || !eff || !list || list->kind != YN_SEQ) {
    ydoc_error(d, root, err, "not a rules index (needs 'effective' and a 'rules' list)");
    goto out;
  }
  if (ynode_str(d, eff, &s, err)) goto out;
  if (strcmp(s, rules_effective)) {
    ydoc_error(d, eff, err, "effective date %s differs from the compiled-in index (%s): regenerate harness/rules_index.c", s,
               rules_effective);
    goto out;
  }
  if (list->n != rules_count) {
    ydoc_error(d, list, err, "%d rules, the compiled-in index has %d: regenerate harness/rules_index.c", list->n, rules_count);
    goto out;
  }
  for (int i = 0; i < list->n; i++) {
    const ynode *m = list->items[i];
    const rule_entry *r = &rules_table[i];
    const char *num, *title;
    if (m->kind != YN_MAP) {
      ydoc_error(d, m, err, "a rule entry must be a mapping");
      goto out;
    }
    if (str_field(d, m, "rule", &num, err) || str_field(d, m, "title", &title, err)) goto out;
    const ynode *core = ymap_get(m, "core"), *al = ymap_get(m, "aliases");
    int is_core = 0;
    if (core && ynode_bool(d, core, &is_core, err)) goto out;
    char aliases[256] = "";
    for (int k = 0; al && al->kind == YN_SEQ && k < al->n; k++) {
      size_t u = strlen(aliases);
      snprintf(aliases + u, sizeof aliases - u, "%s%s", k ? "," : "", al->items[k]->str);
    }
    if (strcmp(num, r->num) || strcmp(title, r->title) || is_core != r->core || strcmp(aliases, r->aliases)) {
      ydoc_error(d, m, err, "rule %s differs from the compiled-in index (entry %d is %s): regenerate harness/rules_index.c",
                 num, i + 1, r->num);
      goto out;
    }
  }
  rc = 0;
out:
  ydoc_free(d);
  return rc;
}
