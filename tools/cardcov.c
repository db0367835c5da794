/* cardcov.c - bin/cardcov: the card coverage page (docs/card-coverage.md).
 *
 * It measures how much of a sample of real cards the card pool expresses:
 * for each card of the sample, whether the pool defines it, whether its
 * definition leaves something out (its `unsupported:` text, listed as the
 * missing feature), and whether a passing case names it. A case "names" a
 * card when the card's name appears, as a whole name, in the text of a case
 * that passed (from its first line to the next case's first line); the
 * results come from the harness's JSON report.
 *
 * With a list of mechanics (MECHANICS.yaml: groups of mechanics, each either
 * `docs:` a name docs/cards.md shows in code and `cases:` ids of cases that
 * exercise it, or `missing:` why it can't be expressed yet) the page also
 * says, mechanic by mechanic, what the format covers; a mechanic claimed
 * covered whose cases did not all pass, or whose name the reference does not
 * show, is an error (exit 1), so the page never claims what the tree does not
 * show.
 *
 * usage: cardcov SAMPLE.yaml POOL_DIR RESULTS.jsonl [MECHANICS.yaml CARDS.md]
 *        > docs/card-coverage.md
 * Exit 0, 1 (a claimed mechanic not shown), or 2 with a message on bad input. The page is a pure function of
 * its inputs (sorted as the sample is), so `make card-coverage` rewrites it
 * byte for byte the same until a card, a case or a result changes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "walk.h"
#include "ydoc.h"

typedef struct {
  char *name;
  char *unsupported; /* NULL: defined in full */
  char *file;
  int line;
} Def;

typedef struct {
  char *file;
  int line;
  int pass;
  char *id;
} Result;

typedef struct {
  Def *def;
  int ndef, cap;
  Result *res;
  int nres, rcap;
} Cov;

static void die(const char *fmt, const char *a, const char *b) {
  fprintf(stderr, "cardcov: ");
  fprintf(stderr, fmt, a, b);
  fputc('\n', stderr);
  exit(2);
}

static void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n);
  if (!q) die("out of memory%s%s", "", "");
  return q;
}

static char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = xrealloc(NULL, n);
  memcpy(d, s, n);
  return d;
}

static const char *scalar_of(const ynode *m, const char *key) {
  const ynode *v = m && m->kind == YN_MAP ? ymap_get(m, key) : NULL;
  return v && v->kind == YN_SCALAR ? v->str : NULL;
}

/* ---- the pool: every card mapping of every *.yaml under the directory ---- */

static void add_def(Cov *c, const ynode *m, const char *file) {
  const char *name = scalar_of(m, "name");
  if (!name) return;
  if (c->ndef == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 256;
    c->def = xrealloc(c->def, (size_t)c->cap * sizeof *c->def);
  }
  Def *d = &c->def[c->ndef++];
  const char *u = scalar_of(m, "unsupported");
  d->name = xstrdup(name);
  d->unsupported = u ? xstrdup(u) : NULL;
  d->file = xstrdup(file);
  d->line = m->line;
}

static int want_yaml(const char *name, void *ctx) {
  (void)ctx;
  return walk_has_suffix(name, ".yaml");
}

static void load_pool(Cov *c, const char *dir) {
  walk_list l = {0};
  walk_opts o = {.want = want_yaml};
  mtg_error err = {0};
  if (walk_dir(dir, &o, &l, &err)) die("%s: %s", dir, err.msg);
  for (int i = 0; i < l.n; i++) {
    ydoc *d;
    if (ydoc_parse_file(l.path[i], &d, &err)) die("%s: %s", l.path[i], err.msg);
    for (int k = 0; k < ydoc_count(d); k++) {
      const ynode *r = ydoc_root(d, k);
      if (r && r->kind == YN_SEQ)
        for (int j = 0; j < r->n; j++) add_def(c, r->items[j], l.path[i]);
      else if (r && r->kind == YN_MAP)
        add_def(c, r, l.path[i]);
    }
    ydoc_free(d);
  }
  walk_list_free(&l);
}

static const Def *find_def(const Cov *c, const char *name) {
  for (int i = 0; i < c->ndef; i++)
    if (!strcmp(c->def[i].name, name)) return &c->def[i];
  return NULL;
}

/* ---- the harness's JSON report: one object per line ---- */

/* The string value of "key" in a one-line JSON object, unescaped into out;
 * 0 if the key is missing or not a string. */
static int json_str(const char *line, const char *key, char *out, size_t size) {
  char pat[64];
  snprintf(pat, sizeof pat, "\"%s\":\"", key);
  const char *p = strstr(line, pat);
  if (!p) return 0;
  p += strlen(pat);
  size_t n = 0;
  for (; *p && *p != '"'; p++) {
    char ch = *p;
    if (ch == '\\' && p[1]) {
      p++;
      ch = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p;
      if (*p == 'u') ch = '?'; /* names are ASCII here; \u escapes don't matter for matching paths */
    }
    if (n + 1 < size) out[n++] = ch;
  }
  out[n] = 0;
  return *p == '"';
}

static int json_int(const char *line, const char *key, int *out) {
  char pat[64];
  snprintf(pat, sizeof pat, "\"%s\":", key);
  const char *p = strstr(line, pat);
  if (!p) return 0;
  char *end;
  long v = strtol(p + strlen(pat), &end, 10);
  if (end == p + strlen(pat) || v < 1 || v > 10000000) return 0;
  *out = (int)v;
  return 1;
}

static void load_results(Cov *c, const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) die("%s: %s", path, strerror(errno));
  char *line = NULL;
  size_t cap = 0;
  while (getline(&line, &cap, f) > 0) {
    if (line[0] != '{') continue;
    char file[4096], status[32], id[512];
    int ln;
    if (!json_str(line, "file", file, sizeof file) || !json_str(line, "status", status, sizeof status) ||
        !json_int(line, "line", &ln))
      continue; /* a summary or an error entry without a case */
    if (!json_str(line, "id", id, sizeof id)) id[0] = 0;
    if (c->nres == c->rcap) {
      c->rcap = c->rcap ? 2 * c->rcap : 1024;
      c->res = xrealloc(c->res, (size_t)c->rcap * sizeof *c->res);
    }
    Result *r = &c->res[c->nres++];
    r->file = xstrdup(file);
    r->line = ln;
    r->pass = !strcmp(status, "pass");
    r->id = xstrdup(id);
  }
  free(line);
  fclose(f);
}

/* ---- which passing cases name a card ---- */

typedef struct {
  char *text; /* the lines of one passing case */
  const char *id;
} Segment;

/* The whole file, NUL-terminated (util/input.h), or NULL. */
static char *read_all(const char *path) {
  char *text;
  size_t len;
  mtg_error err;
  return input_read(path, 0, &text, &len, &err) ? NULL : text;
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* The text from line `from` (1-based) up to the line before `to` (0: the end). */
static char *lines_between(const char *text, int from, int to) {
  const char *p = text;
  for (int l = 1; l < from && *p; l++) p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p);
  const char *e = p;
  for (int l = from; (to == 0 || l < to) && *e; l++) e = strchr(e, '\n') ? strchr(e, '\n') + 1 : e + strlen(e);
  size_t n = (size_t)(e - p);
  char *s = xrealloc(NULL, n + 1);
  memcpy(s, p, n);
  s[n] = 0;
  return s;
}

static Segment *segments(const Cov *c, int *nseg) {
  Segment *seg = xrealloc(NULL, (size_t)(c->nres ? c->nres : 1) * sizeof *seg);
  int ns = 0;
  for (int i = 0; i < c->nres; i++) {
    int first = 1;
    for (int j = 0; j < i; j++) first &= strcmp(c->res[j].file, c->res[i].file) != 0;
    if (!first) continue;
    /* every case of this file: the start lines, sorted */
    int *starts = xrealloc(NULL, (size_t)c->nres * sizeof *starts), nst = 0;
    for (int j = i; j < c->nres; j++)
      if (!strcmp(c->res[j].file, c->res[i].file)) starts[nst++] = c->res[j].line;
    qsort(starts, (size_t)nst, sizeof *starts, cmp_int);
    char *text = read_all(c->res[i].file);
    for (int j = i; text && j < c->nres; j++) {
      const Result *r = &c->res[j];
      if (strcmp(r->file, c->res[i].file) || !r->pass) continue;
      int next = 0;
      for (int k = 0; k < nst; k++)
        if (starts[k] > r->line) {
          next = starts[k];
          break;
        }
      seg[ns].text = lines_between(text, r->line, next);
      seg[ns].id = r->id;
      ns++;
    }
    free(text);
    free(starts);
  }
  *nseg = ns;
  return seg;
}

static int word_char(char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '\'';
}

/* The first passing case naming `name` as a whole name, or NULL. */
static const char *named_by(const Segment *seg, int ns, const char *name) {
  size_t n = strlen(name);
  for (int i = 0; i < ns; i++)
    for (const char *p = strstr(seg[i].text, name); p; p = strstr(p + 1, name)) {
      int before = p > seg[i].text && word_char(p[-1]);
      if (!before && !word_char(p[n])) return seg[i].id;
    }
  return NULL;
}

/* ---- the page ---- */

static void md_cell(const char *s) {
  for (; *s; s++) {
    if (*s == '|') fputs("\\|", stdout);
    else if (*s == '\n') fputc(' ', stdout);
    else fputc(*s, stdout);
  }
}

/* ---- the mechanics ---- */

static int result_passed(const Cov *c, const char *id) {
  for (int i = 0; i < c->nres; i++)
    if (!strcmp(c->res[i].id, id)) return c->res[i].pass ? 1 : -1;
  return 0;
}

/* `name` shown in code (between backticks, or in a yaml block) in the text, as a whole word */
static int documented(const char *doc, const char *name) {
  size_t n = strlen(name);
  int in_code = 0, in_block = 0;
  for (const char *p = doc; *p; p++) {
    if (!strncmp(p, "```", 3)) {
      in_block = !in_block;
      p += 2;
      continue;
    }
    if (*p == '`') {
      in_code = !in_code;
      continue;
    }
    if (*p == '\n' && p[1] == '\n' && !in_block) in_code = 0; /* code spans end with their paragraph */
    if ((in_code || in_block) && !strncmp(p, name, n) && (p == doc || !word_char(p[-1])) && !word_char(p[n])) return 1;
  }
  return 0;
}

static const ynode *list_of(const ynode *m, const char *key) {
  const ynode *v = m && m->kind == YN_MAP ? ymap_get(m, key) : NULL;
  return v && v->kind == YN_SEQ ? v : NULL;
}

/* Prints the mechanics table; returns the number of claims the tree doesn't show. */
static int mechanics(const Cov *c, const char *path, const char *docpath) {
  mtg_error err = {0};
  ydoc *d;
  if (ydoc_parse_file(path, &d, &err)) die("%s: %s", path, err.msg);
  char *doc = read_all(docpath);
  if (!doc) die("%s: %s", docpath, strerror(errno));
  const ynode *groups = ydoc_count(d) ? ydoc_root(d, 0) : NULL;
  if (!groups || groups->kind != YN_SEQ) die("%s: expected a list of groups%s", path, "");
  int bad = 0, covered = 0, missing = 0;
  for (int pass = 0; pass < 2; pass++) {
    if (pass) {
      printf("\n## Mechanics\n\n"
             "The mechanics the card format was asked to express (`%s`): %d covered, each named in\n"
             "docs/cards.md and exercised by passing cases; %d not expressible yet, with the reason.\n",
             path, covered, missing);
    }
    for (int g = 0; g < groups->n; g++) {
      const ynode *grp = groups->items[g];
      const char *gname = scalar_of(grp, "group");
      const ynode *ms = list_of(grp, "mechanics");
      if (!gname || !ms) die("%s: line %s: a group needs group: and mechanics: [...]", path, "?");
      if (pass) printf("\n### %s\n\n| mechanic | status | in docs/cards.md | cases |\n|---|---|---|---|\n", gname);
      for (int i = 0; i < ms->n; i++) {
        const ynode *m = ms->items[i];
        const char *name = scalar_of(m, "name"), *docs = scalar_of(m, "docs"), *why = scalar_of(m, "missing");
        const ynode *cases = list_of(m, "cases");
        if (!name || (!why && (!docs || !cases || !cases->n)) || (why && (docs || cases)))
          die("%s: each mechanic has a name and either docs: and cases: [...], or missing: the reason (%s)", path,
              name ? name : "a mechanic without a name");
        if (!pass) {
          if (why) {
            missing++;
            continue;
          }
          covered++;
          if (!documented(doc, docs)) {
            fprintf(stderr, "cardcov: %s: '%s' is claimed covered, but docs/cards.md shows no '%s'\n", path, name, docs);
            bad++;
          }
          for (int k = 0; k < cases->n; k++) {
            const char *id = cases->items[k]->kind == YN_SCALAR ? cases->items[k]->str : "";
            int r = result_passed(c, id);
            if (r <= 0) {
              fprintf(stderr, "cardcov: %s: '%s' is claimed covered by case %s, which %s\n", path, name, id,
                      r < 0 ? "did not pass" : "is not among the results");
              bad++;
            }
          }
          continue;
        }
        fputs("| ", stdout);
        md_cell(name);
        if (why) {
          fputs(" | not yet | | ", stdout);
          md_cell(why);
          fputs(" |\n", stdout);
          continue;
        }
        printf(" | covered | `%s` | ", docs);
        for (int k = 0; k < cases->n; k++) printf("%s%s", k ? ", " : "", cases->items[k]->str);
        fputs(" |\n", stdout);
      }
    }
  }
  free(doc);
  ydoc_free(d);
  return bad;
}

int main(int argc, char **argv) {
  if (argc != 4 && argc != 6) {
    fprintf(stderr, "usage: cardcov SAMPLE.yaml POOL_DIR RESULTS.jsonl [MECHANICS.yaml CARDS.md]\n");
    return 2;
  }
  Cov c = {0};
  mtg_error err = {0};
  ydoc *sd;
  if (ydoc_parse_file(argv[1], &sd, &err)) die("%s: %s", argv[1], err.msg);
  const ynode *sample = ydoc_count(sd) ? ydoc_root(sd, 0) : NULL;
  if (!sample || sample->kind != YN_SEQ) die("%s: expected a list of cards%s", argv[1], "");
  load_pool(&c, argv[2]);
  load_results(&c, argv[3]);
  int ns;
  Segment *seg = segments(&c, &ns);

  int total = sample->n, full = 0, partial = 0, missing = 0, unnamed = 0;
  const char **why = xrealloc(NULL, (size_t)(total ? total : 1) * sizeof *why);
  for (int i = 0; i < total; i++) {
    const char *name = scalar_of(sample->items[i], "name");
    const Def *d = name ? find_def(&c, name) : NULL;
    why[i] = !name ? "no name" : !d ? NULL : d->unsupported ? d->unsupported : named_by(seg, ns, name) ? "" : NULL;
    if (!d) missing++;
    else if (d->unsupported) partial++;
    else if (why[i]) full++;
    else unnamed++;
  }
  printf("# Card coverage\n\n"
         "Generated by `make card-coverage` from the card pool (`%s`), the sample of real cards (`%s`) and the\n"
         "cases' results: do not edit by hand. A card counts as defined faithfully when the pool defines it with\n"
         "no `unsupported:` note and a passing case names it; a card defined in part carries `unsupported:`\n"
         "saying what its definition leaves out (docs/cards.md).\n\n",
         argv[2], argv[1]);
  printf("| | cards | share |\n|---|---:|---:|\n");
  printf("| defined faithfully, named by a passing case | %d | %.1f%% |\n", full, total ? 100.0 * full / total : 0);
  printf("| defined in part (`unsupported`) | %d | %.1f%% |\n", partial, total ? 100.0 * partial / total : 0);
  printf("| defined in full, no passing case names it | %d | %.1f%% |\n", unnamed, total ? 100.0 * unnamed / total : 0);
  printf("| not defined | %d | %.1f%% |\n", missing, total ? 100.0 * missing / total : 0);
  printf("| **sample** | **%d** | |\n\n", total);

  printf("## Defined in part: what is missing\n\n| card | missing |\n|---|---|\n");
  for (int i = 0; i < total; i++) {
    const char *name = scalar_of(sample->items[i], "name");
    const Def *d = name ? find_def(&c, name) : NULL;
    if (!d || !d->unsupported) continue;
    fputs("| ", stdout);
    md_cell(name);
    fputs(" | ", stdout);
    md_cell(d->unsupported);
    fputs(" |\n", stdout);
  }
  if (unnamed || missing) {
    printf("\n## Not counted for another reason\n\n| card | reason |\n|---|---|\n");
    for (int i = 0; i < total; i++) {
      const char *name = scalar_of(sample->items[i], "name");
      const Def *d = name ? find_def(&c, name) : NULL;
      if (d && (d->unsupported || why[i])) continue;
      fputs("| ", stdout);
      md_cell(name ? name : "?");
      fputs(d ? " | defined in full, but no passing case names it |\n" : " | not defined in the pool |\n", stdout);
    }
  }
  printf("\n## Defined faithfully\n\n| card | a case naming it | definition |\n|---|---|---|\n");
  for (int i = 0; i < total; i++) {
    const char *name = scalar_of(sample->items[i], "name");
    const Def *d = name ? find_def(&c, name) : NULL;
    if (!d || d->unsupported || !why[i]) continue;
    fputs("| ", stdout);
    md_cell(name);
    fputs(" | ", stdout);
    md_cell(named_by(seg, ns, name));
    printf(" | %s:%d |\n", d->file, d->line);
  }

  int bad = argc == 6 ? mechanics(&c, argv[4], argv[5]) : 0;

  for (int i = 0; i < ns; i++) free(seg[i].text);
  free(seg);
  free(why);
  for (int i = 0; i < c.ndef; i++) {
    free(c.def[i].name);
    free(c.def[i].unsupported);
    free(c.def[i].file);
  }
  for (int i = 0; i < c.nres; i++) {
    free(c.res[i].file);
    free(c.res[i].id);
  }
  free(c.def);
  free(c.res);
  ydoc_free(sd);
  return bad ? 1 : 0;
}
