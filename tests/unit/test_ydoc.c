/* test_ydoc.c - the fast scanner of the plain YAML layout (util/yfast.c) and
 * libyaml give the same trees and the same errors: for every YAML file of the
 * project (cases, cards, malformed inputs), for awkward snippets, and for
 * thousands of copies of the project's files damaged at random (bytes
 * deleted, YAML punctuation put in, lines doubled or re-indented). Where the
 * fast scanner gives up, libyaml parses, so only the texts it accepts can
 * differ; the damaged copies are where such a difference would show. It also
 * checks that the project's own files do take the fast path. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "unit.h"
#include "ydoc.h"
#include "yfast.h"

static int same_node(const ynode *a, const ynode *b, char *why, size_t size) {
  if (!a || !b) {
    if (a != b) snprintf(why, size, "a node is missing on one side");
    return a == b;
  }
  if (a->kind != b->kind || a->n != b->n || a->line != b->line || a->col != b->col || a->quoted != b->quoted ||
      a->keymask != b->keymask || a->len != b->len || memcmp(a->str, b->str, a->len)) {
    snprintf(why, size, "node at %d:%d (%s \"%.40s\", %d items, quoted %d) differs from %d:%d (%s \"%.40s\", %d items, quoted %d)",
             a->line, a->col, ynode_kind_name(a), a->str, a->n, a->quoted, b->line, b->col, ynode_kind_name(b), b->str, b->n,
             b->quoted);
    return 0;
  }
  int k = a->kind == YN_MAP ? 2 * a->n : a->kind == YN_SEQ ? a->n : 0;
  for (int i = 0; i < k; i++)
    if (!same_node(a->items[i], b->items[i], why, size)) return 0;
  return 1;
}

/* 1 when both parsers agree on text; *fast says whether the scanner took it */
static int agree(const char *name, const char *text, size_t len, int *fast, char *why, size_t size) {
  ydoc *a = NULL, *b = NULL;
  mtg_error ea, eb;
  memset(&ea, 0, sizeof ea);
  memset(&eb, 0, sizeof eb);
  int ra = ydoc_parse_buffer_with(name, text, len, 0, &a, &ea);
  int rb = ydoc_parse_buffer_with(name, text, len, 1, &b, &eb);
  yf_events ev = {0};
  *fast = !yf_scan(text, len, &ev);
  yf_events_fini(&ev);
  int ok = 1;
  if (ra != rb) {
    snprintf(why, size, "libyaml: %.200s; with the fast scanner: %.200s", ra ? ea.msg : "parses", rb ? eb.msg : "parses");
    ok = 0;
  } else if (ra) {
    if (ea.line != eb.line || ea.col != eb.col || strcmp(ea.msg, eb.msg) || ea.status != eb.status) {
      snprintf(why, size, "errors differ: %d:%d %.200s / %d:%d %.200s", ea.line, ea.col, ea.msg, eb.line, eb.col, eb.msg);
      ok = 0;
    }
  } else if (ydoc_count(a) != ydoc_count(b)) {
    snprintf(why, size, "%d documents / %d", ydoc_count(a), ydoc_count(b));
    ok = 0;
  } else {
    for (int i = 0; i < ydoc_count(a) && ok; i++) ok = same_node(ydoc_root(a, i), ydoc_root(b, i), why, size);
  }
  ydoc_free(a);
  ydoc_free(b);
  return ok;
}

typedef struct {
  char **text;
  size_t *len;
  char **path;
  int n, cap;
} corpus;

static void corpus_add(corpus *c, const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return;
  char *buf = NULL;
  size_t len = 0, cap = 0, got;
  char chunk[65536];
  while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
    if (len + got > cap) {
      cap = (len + got) * 2;
      char *nb = realloc(buf, cap);
      if (!nb) break;
      buf = nb;
    }
    memcpy(buf + len, chunk, got);
    len += got;
  }
  fclose(f);
  if (c->n == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 256;
    c->text = realloc(c->text, (size_t)c->cap * sizeof *c->text);
    c->len = realloc(c->len, (size_t)c->cap * sizeof *c->len);
    c->path = realloc(c->path, (size_t)c->cap * sizeof *c->path);
  }
  c->text[c->n] = buf ? buf : calloc(1, 1);
  c->len[c->n] = len;
  c->path[c->n] = strdup(path);
  c->n++;
}

static void corpus_walk(corpus *c, const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  char **names = NULL;
  int n = 0, cap = 0;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    if (n == cap) {
      cap = cap ? 2 * cap : 64;
      names = realloc(names, (size_t)cap * sizeof *names);
    }
    names[n++] = strdup(e->d_name);
  }
  closedir(d);
  for (int i = 0; i < n; i++) { /* sorted, so that the damage below is the same on every machine */
    for (int j = i + 1; j < n; j++)
      if (strcmp(names[j], names[i]) < 0) {
        char *t = names[i];
        names[i] = names[j];
        names[j] = t;
      }
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    struct stat st;
    if (!stat(path, &st) && S_ISDIR(st.st_mode))
      corpus_walk(c, path);
    else if (strlen(names[i]) > 5 && !strcmp(names[i] + strlen(names[i]) - 5, ".yaml"))
      corpus_add(c, path);
    free(names[i]);
  }
  free(names);
}

static void corpus_free(corpus *c) {
  for (int i = 0; i < c->n; i++) {
    free(c->text[i]);
    free(c->path[i]);
  }
  free(c->text);
  free(c->len);
  free(c->path);
}

TEST(fast_scanner_agrees_on_project_files) {
  corpus c = {0};
  corpus_walk(&c, "cases");
  corpus_walk(&c, "engine/cards");
  corpus_walk(&c, "tests/malformed");
  CHECK(c.n > 500);
  int cases_fast = 0, cases = 0;
  for (int i = 0; i < c.n; i++) {
    char why[600];
    int f;
    if (!agree(c.path[i], c.text[i], c.len[i], &f, why, sizeof why)) {
      unit_fail(t_, __FILE__, __LINE__, "%s: %s", c.path[i], why);
      corpus_free(&c);
      return;
    }
    if (!strncmp(c.path[i], "cases/", 6)) {
      cases++;
      cases_fast += f;
    }
  }
  /* the layout the project writes is the fast one: nearly every case file takes it */
  if (cases_fast * 100 < cases * 95)
    unit_fail(t_, __FILE__, __LINE__, "only %d of %d case files take the fast path", cases_fast, cases);
  corpus_free(&c);
}

TEST(fast_scanner_agrees_on_awkward_snippets) {
  static const char *const snippets[] = {
      "a: b\n", "a: b", "- a\n- b\n", "a:\n- x\n- y\nb: c\n", "a:\n  - x\n  - y\n", "- a: 1\n  b: 2\n- c: 3\n",
      "a: {b: c, d: [e, f]}\n", "a: [b,\n  c]\n", "a: [b,\nc]\n", "a: 'it''s'\n", "a: \"x\\ty\\u00e9\\\"\"\n",
      "a: >-\n  one\n  two\n\n  three\nb: c\n", "a: |-\n  one\n    two\n\n  three\n", "a: >-\n  one\n    two\n",
      "a: b # c\n", "a: b#c\n", "a: b: c\n", "a:\n  b\n", "a: b\n  c\n", "a: b\n   # c\nd: e\n", "a:\n", "a: ~\n",
      "---\na: 1\n---\nb: 2\n", "---\n", "--- # x\na: 1\n", "--- a\n", "a: 1\n...\n", "a: &x 1\nb: *x\n",
      "a: !t 1\n", "? a\n: b\n", "a: 1\na: 2\n", "a:\tb\n", "a: b\r\n", ("\xef\xbb\xbf" "a: b\n"), "a: \xc3\xa9\n",
      "a: \xe2\x80\x94 b\n", "a: \xc2\x85\n", "a: [a: b]\n", "a: {b}\n", "a: {b: }\n", "a: [b,]\n", "a: {b:c}\n",
      "a: [\"x\": 1]\n", "- - a\n", "-\n  a: 1\n", "- \n", "a: -1\n", "a: - 1\n", "a: x:y\n", "a: 'x' y\n",
      "a: \"x\n y\"\n", "  a: 1\n", "a: 1\n b: 2\n", "a:\n  b: 1\n c: 2\n", "a: [\n]\n", "a: {}\n", "a: []\n",
      "a: >\n  x\n", "a: |\n  x\n", "a: >-\n\n  x\n", "a: >-\nb: c\n", "a: \"\\0\"\n", "a: \"\\x41\"\n", "[a, b]\n",
      "a", "# only a comment\n", "", "a: [b, c] # x\n", "a: [b, c]#x\n", "a: 'x'#y\n", "k: {a: \xc3\xa9, b: [x]}\n",
  };
  for (size_t i = 0; i < sizeof snippets / sizeof *snippets; i++) {
    char why[600];
    int f;
    if (!agree("snippet", snippets[i], strlen(snippets[i]), &f, why, sizeof why)) {
      unit_fail(t_, __FILE__, __LINE__, "snippet %zu \"%s\": %s", i, snippets[i], why);
      return;
    }
  }
}

/* The scanner tests eight bytes at once for printable ASCII and line feeds
 * (plain_word): every byte value at every place in a word, in a line with
 * ASCII only and in one with UTF-8 before it (columns are counted two ways),
 * and a two- and a three-byte character across every word boundary. */
TEST(fast_scanner_agrees_on_every_byte_in_a_word) {
  static const char *const base[] = {"k: abcdefghijklmnopqrstuvwx\nj: [y, z]\n",
                                     "k: \xc3\xa9" "bcdefghijklmnopqrstuvwx\nj: [y, z]\n"};
  char text[64], why[600];
  int f;
  for (int b = 0; b < 2; b++)
    for (size_t at = 5; at < 21; at++)
      for (int v = 0; v < 256; v++) {
        size_t len = strlen(base[b]);
        memcpy(text, base[b], len);
        text[at] = (char)v;
        if (!agree("byte", text, len, &f, why, sizeof why)) {
          unit_fail(t_, __FILE__, __LINE__, "byte 0x%02x at %zu of \"%s\": %s", v, at, base[b], why);
          return;
        }
      }
  static const char *const wide[] = {"\xc3\xa9", "\xe2\x80\x94", "\xc2\x85", "\xef\xbb\xbf"};
  for (size_t w = 0; w < sizeof wide / sizeof *wide; w++)
    for (int pad = 0; pad < 17; pad++) {
      int len = snprintf(text, sizeof text, "k: %.*s%sz\nj: [y, z]\n", pad, "xxxxxxxxxxxxxxxxx", wide[w]);
      if (!agree("wide", text, (size_t)len, &f, why, sizeof why)) {
        unit_fail(t_, __FILE__, __LINE__, "\"%s\": %s", text, why);
        return;
      }
    }
}

static uint64_t next_rand(uint64_t *s) { /* splitmix64 */
  uint64_t z = (*s += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

/* one random change of text (len bytes, room for 64 more) */
static size_t damage(char *text, size_t len, uint64_t *s) {
  static const char punct[] = " -:#'\"[]{},\n|>&*!?%@`\t\\~\xc3\xa9";
  size_t at = len ? (size_t)(next_rand(s) % len) : 0;
  switch (next_rand(s) % 6) {
  case 0: /* delete a byte */
    if (len) memmove(text + at, text + at + 1, len - at - 1), len--;
    break;
  case 1: /* put in a punctuation byte */
  case 2:
    memmove(text + at + 1, text + at, len - at);
    text[at] = punct[next_rand(s) % (sizeof punct - 1)];
    len++;
    break;
  case 3: { /* indent a line more or less */
    while (at > 0 && text[at - 1] != '\n') at--;
    if (next_rand(s) % 2 && len > at && text[at] == ' ') {
      memmove(text + at, text + at + 1, len - at - 1);
      len--;
    } else {
      memmove(text + at + 1, text + at, len - at);
      text[at] = ' ';
      len++;
    }
    break;
  }
  case 4: { /* double a short line */
    size_t b = at;
    while (b > 0 && text[b - 1] != '\n') b--;
    size_t e = at;
    while (e < len && text[e] != '\n') e++;
    if (e < len && e - b + 1 <= 48) {
      memmove(text + e + 1 + (e - b + 1), text + e + 1, len - e - 1);
      memcpy(text + e + 1, text + b, e - b + 1);
      len += e - b + 1;
    }
    break;
  }
  default: /* a line break */
    memmove(text + at + 1, text + at, len - at);
    text[at] = '\n';
    len++;
    break;
  }
  return len;
}

TEST(fast_scanner_agrees_on_damaged_files) {
  corpus c = {0};
  corpus_walk(&c, "cases");
  corpus_walk(&c, "engine/cards");
  CHECK(c.n > 500);
  uint64_t s = 20261128;
  int tried = 0, fast = 0;
  for (int k = 0; k < 10000; k++) {
    int i = (int)(next_rand(&s) % (uint64_t)c.n);
    /* a window of at most 1500 bytes from a document's start, to its last
     * whole line, so that damage lands near the scanner's every path */
    const char *t = c.text[i];
    size_t from = c.len[i] > 1500 ? (size_t)(next_rand(&s) % (c.len[i] - 1500)) : 0;
    while (from > 0 && !(t[from - 1] == '\n' && !strncmp(t + from, "---\n", 4))) from--;
    size_t len = c.len[i] - from < 1500 ? c.len[i] - from : 1500;
    while (len > 0 && from + len < c.len[i] && t[from + len - 1] != '\n') len--;
    char *text = malloc(len + 64 * 4);
    if (!text) break;
    memcpy(text, c.text[i] + from, len);
    int edits = 1 + (int)(next_rand(&s) % 3);
    for (int j = 0; j < edits; j++) len = damage(text, len, &s);
    char why[600];
    int f;
    if (!agree(c.path[i], text, len, &f, why, sizeof why)) {
      FILE *out = fopen("build/ydoc-disagreement.yaml", "wb");
      if (out) fwrite(text, 1, len, out), fclose(out);
      unit_fail(t_, __FILE__, __LINE__, "%s damaged (saved to build/ydoc-disagreement.yaml): %s", c.path[i], why);
      free(text);
      corpus_free(&c);
      return;
    }
    tried++;
    fast += f;
    free(text);
  }
  /* most damaged copies still take the fast path: the comparison is not vacuous */
  if (fast * 10 < tried)
    unit_fail(t_, __FILE__, __LINE__, "only %d of %d damaged copies took the fast path", fast, tried);
  corpus_free(&c);
}

const unit_test ydoc_tests[] = {
    {"fast_scanner_agrees_on_project_files", fast_scanner_agrees_on_project_files},
    {"fast_scanner_agrees_on_awkward_snippets", fast_scanner_agrees_on_awkward_snippets},
    {"fast_scanner_agrees_on_every_byte_in_a_word", fast_scanner_agrees_on_every_byte_in_a_word},
    {"fast_scanner_agrees_on_damaged_files", fast_scanner_agrees_on_damaged_files},
    {NULL, NULL},
};
