/* mutate.c - mutation testing of the engine: does the suite notice a broken
 * engine? (`make mutation`, README "Does the suite notice a broken engine?")
 *
 * usage: mutate [--mutants N | --all | --keys FILE] [--seed S] [-j N]
 *               [--equivalent FILE] [--goal PCT] [--work DIR] [--try CMD]
 *               [--list] FILE...
 *
 * Finds the mutation sites of the C files (below), picks N of them with a
 * seeded generator, and tries each mutant: a copy of its file with the one
 * change is written into a scratch directory of its own (DIR/jK, one per
 * job), and CMD (default `sh tests/mutation/try.sh`) builds it into the
 * programs and runs the checks, stopping at the first that fails (try.sh).
 * The tree is never written to, so an interrupted run leaves nothing behind
 * and jobs run side by side. First the unmutated engine goes through the same
 * checks: they must pass, and their times set each check's time limit.
 *
 * Each mutant is reported killed (a check failed), timeout (a check ran out
 * of time: also a detection), survived (every check passed), equivalent
 * (listed in FILE as unable to change behaviour) or not compiling, with
 * file:line:column, the original and the mutated text; as text on stdout and
 * as JSON lines in DIR/report.jsonl (DIR/report.txt holds the text). The score
 * is (killed + timeout) / (mutants that compile and are not equivalent);
 * exit 1 below the goal (default 90%), 2 on bad usage or a broken baseline.
 * --all tries every site; --keys FILE exactly the mutants whose keys (the
 * line under a survivor in the report, "FILE | SOURCE LINE | MUTATION") it
 * lists, to see whether new cases kill them. --list prints every site
 * instead and runs nothing.
 *
 * Mutation sites, found by a C tokenizer (comments, strings, character
 * constants and preprocessor lines are skipped, as are struct, union and
 * enum bodies and static assertions, which the compiler checks: a mutant of
 * one builds the same program or none):
 *   relational   < <= > >=  ->  <= < >= >   (the boundary moved)
 *   equality     == !=  ->  != ==
 *   logical      && ||  ->  || &&
 *   arithmetic   a + 1, a - 1  ->  a - 1, a + 1
 *   negation     !x  ->  x
 *   constant     0 1  ->  1 0   (integer constants, with any suffix)
 *   call         f(...);  ->  ;   (a statement that is only a call)
 * Sites are numbered in file order (files sorted by path), so a seed picks
 * the same mutants of the same code on every machine. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_JOBS 16
#define MAX_STAGES 8

/* ---- small helpers ---- */

static void die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "mutate: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
  exit(2);
}

static void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) die("out of memory");
  return q;
}

static char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = xrealloc(NULL, n);
  memcpy(d, s, n);
  return d;
}

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 65536, n = 0;
  char *b = xrealloc(NULL, cap);
  size_t k;
  while ((k = fread(b + n, 1, cap - n - 1, f)) > 0) {
    n += k;
    if (cap - n - 1 == 0) b = xrealloc(b, cap *= 2);
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    free(b);
    return NULL;
  }
  b[n] = 0;
  if (len) *len = n;
  return b;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* splitmix64: the sample must be the same on every machine and compiler */
static uint64_t rng_next(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* ---- the tokenizer ---- */

enum { T_IDENT, T_NUMBER, T_STRING, T_PUNCT };

typedef struct tok {
  int kind;
  size_t off, len;
  int line, col;
} tok;

typedef struct toks {
  tok *t;
  int n, cap;
} toks;

static void tok_push(toks *v, int kind, size_t off, size_t len, int line, int col) {
  if (v->n == v->cap) {
    v->cap = v->cap ? v->cap * 2 : 4096;
    v->t = xrealloc(v->t, (size_t)v->cap * sizeof *v->t);
  }
  v->t[v->n++] = (tok){kind, off, len, line, col};
}

static int is_ident_start(int c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int is_ident(int c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }

/* Splits C source into tokens; comments, preprocessor lines and whitespace go. */
static void tokenize(const char *s, size_t n, toks *out) {
  static const char *const puncts[] = {"...", "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=",
                                       "&&", "||", "*=", "/=", "%=", "+=", "-=", "&=", "^=", "|=", "##", NULL};
  size_t i = 0;
  int line = 1;
  size_t bol = 0;   /* offset of the current line's start */
  int at_bol = 1;   /* only whitespace since the line began */
  while (i < n) {
    char c = s[i];
    if (c == '\n') {
      line++;
      bol = ++i;
      at_bol = 1;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      i++;
      continue;
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      while (i < n && s[i] != '\n') i++;
      continue;
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      i += 2;
      while (i < n && !(s[i] == '*' && i + 1 < n && s[i + 1] == '/')) {
        if (s[i] == '\n') line++, bol = i + 1;
        i++;
      }
      i += 2;
      continue;
    }
    if (c == '#' && at_bol) { /* a preprocessor line, with its continuations */
      while (i < n && s[i] != '\n') {
        if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\n') line++, i++, bol = i + 1;
        else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
          i += 2;
          while (i < n && !(s[i] == '*' && i + 1 < n && s[i + 1] == '/')) {
            if (s[i] == '\n') line++, bol = i + 1;
            i++;
          }
          i++;
        }
        i++;
      }
      continue;
    }
    at_bol = 0;
    size_t start = i;
    int col = (int)(i - bol) + 1;
    if (c == '"' || c == '\'') {
      i++;
      while (i < n && s[i] != c && s[i] != '\n') i += s[i] == '\\' ? 2 : 1;
      i++;
      tok_push(out, T_STRING, start, i - start, line, col);
      continue;
    }
    if (is_ident_start((unsigned char)c)) {
      while (i < n && is_ident((unsigned char)s[i])) i++;
      /* a prefixed string or character constant: u8"..", L'x' */
      if (i < n && (s[i] == '"' || s[i] == '\'')) continue; /* the literal follows as its own token */
      tok_push(out, T_IDENT, start, i - start, line, col);
      continue;
    }
    if ((c >= '0' && c <= '9') || (c == '.' && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '9')) {
      i++;
      while (i < n && (is_ident((unsigned char)s[i]) || s[i] == '.' ||
                       ((s[i] == '+' || s[i] == '-') && strchr("eEpP", s[i - 1]))))
        i++;
      tok_push(out, T_NUMBER, start, i - start, line, col);
      continue;
    }
    size_t len = 1;
    for (int k = 0; puncts[k]; k++) {
      size_t l = strlen(puncts[k]);
      if (i + l <= n && !memcmp(s + i, puncts[k], l)) {
        len = l;
        break;
      }
    }
    i += len;
    tok_push(out, T_PUNCT, start, len, line, col);
  }
}

/* ---- mutation sites ---- */

enum { K_REL, K_EQ, K_LOGIC, K_ARITH, K_NOT, K_CONST, K_CALL, K_COUNT };
static const char *const kind_names[K_COUNT] = {"relational", "equality", "logical", "arithmetic",
                                                "negation", "constant", "call"};

typedef struct site {
  int file;           /* index into the file list */
  size_t off, len;    /* the original text replaced */
  const char *repl;   /* what replaces it */
  int kind;
  int line, col;
  size_t fn_off, fn_len; /* the name of the function it is in (length 0: file scope) */
  int occurrence;     /* 1-based among the sites of its function with the same line text and mutation */
} site;

typedef struct sites {
  site *s;
  int n, cap;
} sites;

typedef struct srcfile {
  const char *path;
  char *text;
  size_t len;
} srcfile;

static void site_push(sites *v, int file, const tok *t, size_t len, const char *repl, int kind, const tok *fn) {
  if (v->n == v->cap) {
    v->cap = v->cap ? v->cap * 2 : 4096;
    v->s = xrealloc(v->s, (size_t)v->cap * sizeof *v->s);
  }
  v->s[v->n++] = (site){file, t->off, len, repl, kind, t->line, t->col, fn ? fn->off : 0, fn ? fn->len : 0, 1};
}

static int tok_is(const srcfile *f, const tok *t, const char *text) {
  size_t l = strlen(text);
  return t->len == l && !memcmp(f->text + t->off, text, l);
}

static int is_keyword(const srcfile *f, const tok *t) {
  static const char *const kw[] = {"return", "case", "sizeof", "if", "while", "for", "switch", "do", "else",
                                   "goto", "break", "continue", "default", "typedef", "static", "const", NULL};
  if (t->kind != T_IDENT) return 0;
  for (int i = 0; kw[i]; i++)
    if (tok_is(f, t, kw[i])) return 1;
  return 0;
}

/* An integer constant 0 or 1 with any suffix (u, l, ul, ...). */
static int zero_or_one(const srcfile *f, const tok *t, char *digit) {
  if (t->kind != T_NUMBER) return 0;
  const char *p = f->text + t->off;
  if (p[0] != '0' && p[0] != '1') return 0;
  for (size_t i = 1; i < t->len; i++)
    if (!strchr("uUlL", p[i])) return 0;
  *digit = p[0];
  return 1;
}

/* The token ends an operand: what comes after it is a binary operator. */
static int ends_operand(const srcfile *f, const tok *t) {
  if (t->kind == T_NUMBER || t->kind == T_STRING) return 1;
  if (t->kind == T_IDENT) return !is_keyword(f, t);
  return tok_is(f, t, ")") || tok_is(f, t, "]") || tok_is(f, t, "++") || tok_is(f, t, "--");
}

/* The source line of a site, trimmed, into buf. */
static void site_line(const srcfile *f, const site *s, char *buf, size_t size) {
  size_t a = s->off, b = s->off;
  while (a > 0 && f->text[a - 1] != '\n') a--;
  while (b < f->len && f->text[b] != '\n') b++;
  while (a < b && (f->text[a] == ' ' || f->text[a] == '\t')) a++;
  while (b > a && (f->text[b - 1] == ' ' || f->text[b - 1] == '\t' || f->text[b - 1] == '\r')) b--;
  size_t l = b - a < size - 1 ? b - a : size - 1;
  memcpy(buf, f->text + a, l);
  buf[l] = 0;
}

/* The original text of a site on one line (a call statement may span lines). */
static void site_orig(const srcfile *f, const site *s, char *buf, size_t size) {
  size_t u = 0;
  int space = 0;
  for (size_t i = 0; i < s->len && u + 1 < size; i++) {
    char c = f->text[s->off + i];
    if (c == '\n' || c == '\t' || c == ' ' || c == '\r') {
      space = 1;
      continue;
    }
    if (space && u) buf[u++] = ' ';
    space = 0;
    if (u + 1 < size) buf[u++] = c;
  }
  buf[u] = 0;
}

/* brace kinds: what a { opens */
enum { B_FUNC, B_BLOCK, B_INIT, B_TYPE };

static void find_sites(const srcfile *f, int fi, sites *out) {
  toks tv = {0};
  tokenize(f->text, f->len, &tv);
  const tok *t = tv.t;
  int n = tv.n;
  int *braces = xrealloc(NULL, (size_t)(n + 1) * sizeof *braces);
  int nb = 0;
  int paren = 0;               /* paren depth inside the current function */
  int *pstack = xrealloc(NULL, (size_t)(n + 1) * sizeof *pstack); /* token before each open paren */
  int np = 0;
  int first = out->n;
  const tok *fn = NULL; /* the name of the function being read */
  for (int i = 0; i < n; i++) {
    const tok *k = &t[i];
    const tok *prev = i ? &t[i - 1] : NULL;
    int in_type = 0, in_code = 0;
    for (int b = 0; b < nb; b++) in_type |= braces[b] == B_TYPE;
    in_code = nb && braces[0] == B_FUNC;
    if (k->kind == T_IDENT && (tok_is(f, k, "_Static_assert") || tok_is(f, k, "static_assert")) && i + 1 < n &&
        tok_is(f, &t[i + 1], "(")) {
      int depth = 0, e = i + 1;
      for (; e < n; e++) {
        if (tok_is(f, &t[e], "(")) depth++;
        else if (tok_is(f, &t[e], ")") && --depth == 0) break;
      }
      i = e;
      continue;
    }
    if (k->kind == T_PUNCT && tok_is(f, k, "{")) {
      int kind;
      int tagged = 0; /* struct NAME { or struct { */
      for (int b = i - 1; b >= 0 && b >= i - 2; b--)
        if (tok_is(f, &t[b], "struct") || tok_is(f, &t[b], "union") || tok_is(f, &t[b], "enum")) tagged = 1;
      if (tagged) kind = B_TYPE;
      else if (!nb) kind = prev && tok_is(f, prev, ")") ? B_FUNC : B_INIT;
      else if (braces[nb - 1] == B_INIT || braces[nb - 1] == B_TYPE) kind = braces[nb - 1];
      else if (prev && (tok_is(f, prev, "=") || tok_is(f, prev, ")") || tok_is(f, prev, ",") || tok_is(f, prev, "(") ||
                        tok_is(f, prev, "return")) && paren > 0)
        kind = B_INIT; /* a compound literal inside an expression */
      else if (prev && (tok_is(f, prev, "=") || tok_is(f, prev, "return") || tok_is(f, prev, ",")))
        kind = B_INIT;
      else kind = B_BLOCK;
      if (kind == B_FUNC) { /* NAME ( ... ) { */
        fn = NULL;
        for (int b = i - 1, depth = 0; b > 0; b--) {
          if (tok_is(f, &t[b], ")")) depth++;
          else if (tok_is(f, &t[b], "(") && --depth == 0) {
            if (t[b - 1].kind == T_IDENT) fn = &t[b - 1];
            break;
          }
        }
      }
      braces[nb++] = kind;
      continue;
    }
    if (k->kind == T_PUNCT && tok_is(f, k, "}")) {
      if (nb) nb--;
      if (!nb) paren = np = 0, fn = NULL;
      continue;
    }
    if (k->kind == T_PUNCT && tok_is(f, k, "(")) {
      pstack[np++] = i - 1;
      paren++;
      continue;
    }
    if (k->kind == T_PUNCT && tok_is(f, k, ")")) {
      if (np) np--;
      if (paren) paren--;
      continue;
    }
    if (in_type) continue;
    /* operators */
    if (k->kind == T_PUNCT) {
      static const char *const ops[][2] = {{"<", "<="}, {"<=", "<"}, {">", ">="}, {">=", ">"}, {"==", "!="},
                                           {"!=", "=="}, {"&&", "||"}, {"||", "&&"}};
      static const int op_kind[] = {K_REL, K_REL, K_REL, K_REL, K_EQ, K_EQ, K_LOGIC, K_LOGIC};
      for (int o = 0; o < 8; o++)
        if (tok_is(f, k, ops[o][0])) site_push(out, fi, k, k->len, ops[o][1], op_kind[o], fn);
      if ((tok_is(f, k, "+") || tok_is(f, k, "-")) && prev && ends_operand(f, prev) && i + 1 < n) {
        char d;
        if (zero_or_one(f, &t[i + 1], &d) && d == '1') site_push(out, fi, k, 1, tok_is(f, k, "+") ? "-" : "+", K_ARITH, fn);
      }
      if (tok_is(f, k, "!")) site_push(out, fi, k, 1, "", K_NOT, fn);
      continue;
    }
    char d;
    if (zero_or_one(f, k, &d)) {
      site_push(out, fi, k, 1, d == '0' ? "1" : "0", K_CONST, fn);
      continue;
    }
    /* a statement that is only a call: [(void)] NAME ( ... ) ; inside a function */
    if (k->kind == T_IDENT && in_code && paren == 0 && !is_keyword(f, k) && i + 1 < n && tok_is(f, &t[i + 1], "(")) {
      int s = i;
      if (i >= 3 && tok_is(f, &t[i - 1], ")") && tok_is(f, &t[i - 2], "void") && tok_is(f, &t[i - 3], "(")) s = i - 3;
      const tok *before = s ? &t[s - 1] : NULL;
      int starts = 0;
      if (!before) starts = 0;
      else if (tok_is(f, before, ";") || tok_is(f, before, "{") || tok_is(f, before, "}") ||
               tok_is(f, before, "else") || tok_is(f, before, "do"))
        starts = 1;
      else if (tok_is(f, before, ":")) /* after case X: or default:, not a ?: */
        for (int b = s - 2; b >= 0 && b >= s - 6; b--) {
          if (tok_is(f, &t[b], ";") || tok_is(f, &t[b], "{") || tok_is(f, &t[b], "}") || tok_is(f, &t[b], "?")) break;
          if (tok_is(f, &t[b], "case") || tok_is(f, &t[b], "default")) {
            starts = 1;
            break;
          }
        }
      else if (tok_is(f, before, ")")) { /* the condition of if, while or for ends */
        int depth = 0, b = s - 1;
        for (; b >= 0; b--) {
          if (tok_is(f, &t[b], ")")) depth++;
          else if (tok_is(f, &t[b], "(") && --depth == 0) break;
        }
        starts = b > 0 && (tok_is(f, &t[b - 1], "if") || tok_is(f, &t[b - 1], "while") || tok_is(f, &t[b - 1], "for"));
      }
      if (s != i && starts && before && tok_is(f, before, ")")) starts = 0; /* (void) after if (...): rare, skip */
      if (starts) {
        int depth = 0, e = i + 1;
        for (; e < n; e++) {
          if (tok_is(f, &t[e], "(")) depth++;
          else if (tok_is(f, &t[e], ")") && --depth == 0) break;
        }
        if (e + 1 < n && tok_is(f, &t[e + 1], ";")) {
          const tok *st = &t[s];
          site_push(out, fi, st, t[e + 1].off + 1 - st->off, ";", K_CALL, fn);
        }
      }
    }
  }
  /* occurrence numbers: among the sites of a function with the same line
   * text, original text and replacement (the same operator twice on a line,
   * or identical lines) */
  int cnt = out->n - first;
  char **keys = xrealloc(NULL, (size_t)(cnt ? cnt : 1) * sizeof *keys);
  for (int a = 0; a < cnt; a++) {
    const site *x = &out->s[first + a];
    char line[512], orig[512], key[1200];
    site_line(f, x, line, sizeof line);
    site_orig(f, x, orig, sizeof orig);
    snprintf(key, sizeof key, "%.*s|%s|%s|%s", (int)x->fn_len, f->text + x->fn_off, line, orig, x->repl);
    keys[a] = xstrdup(key);
  }
  for (int a = 0; a < cnt; a++)
    for (int b = a - 1; b >= 0; b--)
      if (out->s[first + b].fn_off == out->s[first + a].fn_off && !strcmp(keys[a], keys[b])) {
        out->s[first + a].occurrence = out->s[first + b].occurrence + 1;
        break;
      }
  for (int a = 0; a < cnt; a++) free(keys[a]);
  free(keys);
  free(braces);
  free(pstack);
  free(tv.t);
}

/* "ORIG -> REPL" with #K after ORIG when it is the K-th such site of its
 * function (on its line or an identical one). */
static void site_mutation(const srcfile *f, const site *s, char *buf, size_t size) {
  char o[512], occ[16] = "";
  site_orig(f, s, o, sizeof o);
  if (s->occurrence > 1) snprintf(occ, sizeof occ, "#%d", s->occurrence);
  snprintf(buf, size, "%s%s -> %s", o, occ, s->kind == K_NOT || s->kind == K_CALL ? "(deleted)" : s->repl);
}

/* The function a site is in ("-" at file scope). */
static void site_func(const srcfile *f, const site *s, char *buf, size_t size) {
  if (!s->fn_len) snprintf(buf, size, "-");
  else snprintf(buf, size, "%.*s", (int)s->fn_len, f->text + s->fn_off);
}

/* The key of a mutant: "FILE | FUNCTION | SOURCE LINE | MUTATION", what the
 * report prints under a survivor and equivalent.txt and --keys list. */
static void site_key(const srcfile *f, const site *s, char *buf, size_t size) {
  char fn[128], line[512], mut[1100];
  site_func(f, s, fn, sizeof fn);
  site_line(f, s, line, sizeof line);
  site_mutation(f, s, mut, sizeof mut);
  snprintf(buf, size, "%s | %s | %s | %s", f->path, fn, line, mut);
}

/* ---- the list of equivalent mutants ---- */

typedef struct equiv {
  char *key, *reason;
  int used;
  int at; /* line number in the list */
} equiv;

typedef struct equivs {
  equiv *e;
  int n;
  const char *path;
} equivs;

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t') s++;
  size_t l = strlen(s);
  while (l && (s[l - 1] == ' ' || s[l - 1] == '\t' || s[l - 1] == '\n' || s[l - 1] == '\r')) s[--l] = 0;
  return s;
}

/* Lines "KEY | REASON" (with_reason: equivalent.txt) or keys alone (--keys),
 * KEY being "FILE | FUNCTION | SOURCE LINE | MUTATION" as site_key writes
 * it; # comments. The reason is after the last " | ", so it holds none. */
static void load_equivs(const char *path, equivs *q, int with_reason) {
  q->path = path;
  char *text = read_file(path, NULL);
  if (!text) die("%s: %s", path, strerror(errno));
  int ln = 0;
  for (char *p = text; *p;) {
    char *nl = strchr(p, '\n');
    char *next = nl ? nl + 1 : p + strlen(p);
    if (nl) *nl = 0;
    ln++;
    char *l = trim(p);
    p = next;
    if (!*l || *l == '#') continue;
    int nbar = 0;
    char *last = NULL;
    for (char *c = l; *c; c++)
      if (c[0] == ' ' && c[1] == '|' && c[2] == ' ') nbar++, last = c;
    if (nbar < 3 + with_reason)
      die("%s:%d: expected FILE | FUNCTION | SOURCE LINE | MUTATION%s", path, ln, with_reason ? " | REASON" : "");
    char *reason = "";
    if (with_reason) {
      *last = 0;
      reason = trim(last + 3);
      if (!*reason) die("%s:%d: an equivalent mutant needs the reason it can't change behaviour", path, ln);
    }
    equiv e = {xstrdup(trim(l)), xstrdup(reason), 0, ln};
    q->e = xrealloc(q->e, (size_t)(q->n + 1) * sizeof *q->e);
    q->e[q->n++] = e;
  }
  free(text);
}

static void free_equivs(equivs *q) {
  for (int i = 0; i < q->n; i++) free(q->e[i].key), free(q->e[i].reason);
  free(q->e);
}

static equiv *find_equiv(equivs *q, const char *key) {
  for (int i = 0; i < q->n; i++)
    if (!strcmp(q->e[i].key, key)) return &q->e[i];
  return NULL;
}

/* ---- trying mutants ---- */

enum { R_KILLED, R_TIMEOUT, R_SURVIVED, R_EQUIVALENT, R_NOCOMPILE, R_COUNT };
static const char *const result_names[R_COUNT] = {"killed", "timeout", "survived", "equivalent", "not compiling"};

typedef struct mutant {
  int site;
  int result;
  char by[32];        /* the check that killed it */
  char detail[256];   /* its first failure line */
  double seconds;
  const equiv *eq;
} mutant;

typedef struct stage {
  char name[32];
  double base;        /* seconds the unmutated engine took */
} stage;

typedef struct runner {
  const char *work;
  const char *try_cmd;
  srcfile *files;
  sites *ss;
  stage st[MAX_STAGES];
  int nst;
  char timeouts[512]; /* MUT_TIMEOUTS: "stage=seconds ..." */
  char skipped[256];  /* the checks the baseline skipped, and why */
} runner;

typedef struct job {
  pid_t pid;
  int mutant;         /* -1: free */
  double start, deadline;
  char dir[512];
} job;

static volatile sig_atomic_t interrupted;
static void on_signal(int sig) { interrupted = sig; }

static job jobs[MAX_JOBS];
static int njobs;

static void kill_jobs(void) {
  for (int j = 0; j < njobs; j++)
    if (jobs[j].pid > 0) {
      kill(-jobs[j].pid, SIGKILL); /* the job's own process group */
      waitpid(jobs[j].pid, NULL, 0);
      jobs[j].pid = 0;
    }
}

static void write_text(const char *path, const char *a, size_t alen, const char *b, size_t blen) {
  FILE *f = fopen(path, "wb");
  if (!f) die("%s: %s", path, strerror(errno));
  int bad = fwrite(a, 1, alen, f) != alen || fwrite(b, 1, blen, f) != blen;
  if (fclose(f) || bad) die("%s: write failed", path);
}

/* Writes the mutated copy of site si (or, si < 0, the unmutated file fi)
 * into dir/src.c, with a #line so that messages and __FILE__ name the
 * original, and starts the checks on it in a process group of their own. */
static pid_t start_try(runner *R, const char *dir, int fi, int si) {
  const srcfile *f = &R->files[fi];
  char path[1100], head[600];
  snprintf(path, sizeof path, "%s/src.c", dir);
  snprintf(head, sizeof head, "#line 1 \"%s\"\n", f->path);
  size_t hl = strlen(head);
  if (si < 0) {
    write_text(path, head, hl, f->text, f->len);
  } else {
    const site *s = &R->ss->s[si];
    size_t rl = strlen(s->repl), n = hl + f->len - s->len + rl;
    char *m = xrealloc(NULL, n);
    memcpy(m, head, hl);
    memcpy(m + hl, f->text, s->off);
    memcpy(m + hl + s->off, s->repl, rl);
    memcpy(m + hl + s->off + rl, f->text + s->off + s->len, f->len - s->off - s->len);
    write_text(path, m, n, "", 0);
    free(m);
  }
  char stem[512];
  snprintf(stem, sizeof stem, "%s", f->path);
  char *dot = strrchr(stem, '.');
  if (dot) *dot = 0;
  char out[1100];
  snprintf(out, sizeof out, "%s/out.txt", dir);
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) die("fork: %s", strerror(errno));
  if (pid == 0) {
    setpgid(0, 0);
    int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) _exit(127);
    dup2(fd, 1);
    dup2(fd, 2);
    close(fd);
    setenv("MUT_TIMEOUTS", R->timeouts, 1);
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s '%s' '%s' '%s'", R->try_cmd, dir, path, stem);
    execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
    _exit(127);
  }
  setpgid(pid, pid);
  return pid;
}

/* Reads a try's output: "compile ok|failed SECONDS" and "stage NAME
 * passed|failed|timeout|skipped SECONDS [DETAIL]" lines (a check skipped
 * for want of a tool neither passes nor fails). Fills m (result, by,
 * detail) and, for the baseline, the stage times. */
static void read_try(runner *R, const char *dir, int status, mutant *m, int baseline) {
  char path[1100];
  snprintf(path, sizeof path, "%s/out.txt", dir);
  char *text = read_file(path, NULL);
  int compiled = 0, failed = 0, timeout = 0;
  m->by[0] = m->detail[0] = 0;
  for (char *p = text; p && *p;) {
    char *nl = strchr(p, '\n');
    if (nl) *nl = 0;
    char name[32], word[16];
    double secs;
    int off = 0;
    if (sscanf(p, "compile %15s %lf", word, &secs) == 2) {
      compiled = !strcmp(word, "ok");
    } else if (sscanf(p, "stage %31s %15s %lf %n", name, word, &secs, &off) == 3) {
      if (baseline && !strcmp(word, "passed") && R->nst < MAX_STAGES) {
        snprintf(R->st[R->nst].name, sizeof R->st[0].name, "%s", name);
        R->st[R->nst++].base = secs;
      }
      if (baseline && !strcmp(word, "skipped")) {
        size_t u = strlen(R->skipped);
        snprintf(R->skipped + u, sizeof R->skipped - u, "; %s skipped: %s", name, off ? p + off : "");
      }
      if (strcmp(word, "passed") && strcmp(word, "skipped")) {
        failed = !strcmp(word, "failed");
        timeout = !strcmp(word, "timeout");
        snprintf(m->by, sizeof m->by, "%s", name);
        snprintf(m->detail, sizeof m->detail, "%s", off ? p + off : "");
      }
    }
    p = nl ? nl + 1 : NULL;
  }
  if (compiled && WIFEXITED(status) && WEXITSTATUS(status) == 4) {
    /* a mutant changes no symbol: objects that don't link with it (or are
     * missing) are a build that changed under the run, not a detected fault */
    fprintf(stderr, "mutate: the build does not link with %s (%s/out.txt): rebuild (make) and run again\n%s",
            baseline ? "the unmutated engine" : "a mutant", dir, text ? text : "");
    free(text);
    kill_jobs();
    exit(2);
  }
  if (!compiled) m->result = R_NOCOMPILE;
  else if (timeout || (WIFEXITED(status) && WEXITSTATUS(status) == 3)) m->result = R_TIMEOUT;
  else if (failed) m->result = R_KILLED;
  else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) m->result = R_SURVIVED;
  else {
    /* the checks script itself failed (killed by a signal, a missing program) */
    m->result = R_KILLED;
    if (!m->by[0]) snprintf(m->by, sizeof m->by, "try");
    if (!m->detail[0]) snprintf(m->detail, sizeof m->detail, "exit status %d", WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status));
  }
  if (baseline && (m->result != R_SURVIVED || !R->nst)) {
    fprintf(stderr, "mutate: the unmutated engine does not pass the checks (%s/out.txt):\n%s", dir, text ? text : "");
    free(text);
    kill_jobs();
    exit(2);
  }
  free(text);
}

/* ---- reports ---- */

static void json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
    else if (c < 0x20) fprintf(f, "\\u%04x", c);
    else fputc(c, f);
  }
  fputc('"', f);
}

static void report_mutant(FILE *out, FILE *json, const runner *R, const mutant *m, int idx) {
  const site *s = &R->ss->s[m->site];
  const srcfile *f = &R->files[s->file];
  char orig[512], line[512], mut[1100], key[2400], fn[128];
  site_orig(f, s, orig, sizeof orig);
  site_line(f, s, line, sizeof line);
  site_mutation(f, s, mut, sizeof mut);
  site_key(f, s, key, sizeof key);
  site_func(f, s, fn, sizeof fn);
  char where[600];
  snprintf(where, sizeof where, "%s:%d:%d", f->path, s->line, s->col);
  fprintf(out, "%4d %-13s %-24s %s", idx + 1, result_names[m->result], where, mut);
  if (m->result == R_KILLED || m->result == R_TIMEOUT) fprintf(out, "   [%s%s%s]", m->by, m->detail[0] ? ": " : "", m->detail);
  fprintf(out, "\n");
  if (m->result == R_SURVIVED) fprintf(out, "       %s\n", key);
  if (m->result == R_EQUIVALENT) fprintf(out, "       equivalent: %s\n", m->eq->reason);
  if (!json) return;
  fprintf(json, "{\"n\":%d,\"file\":", idx + 1);
  json_str(json, f->path);
  fprintf(json, ",\"line\":%d,\"col\":%d,\"function\":", s->line, s->col);
  json_str(json, fn);
  fprintf(json, ",\"kind\":\"%s\",\"original\":", kind_names[s->kind]);
  json_str(json, orig);
  fprintf(json, ",\"mutated\":");
  json_str(json, s->kind == K_NOT || s->kind == K_CALL ? "" : s->repl);
  fprintf(json, ",\"source\":");
  json_str(json, line);
  fprintf(json, ",\"key\":");
  json_str(json, key);
  fprintf(json, ",\"status\":\"%s\",\"by\":", m->result == R_NOCOMPILE ? "not_compiling" : result_names[m->result]);
  json_str(json, m->by);
  fprintf(json, ",\"detail\":");
  json_str(json, m->result == R_EQUIVALENT ? m->eq->reason : m->detail);
  fprintf(json, ",\"seconds\":%.3f}\n", m->seconds);
}

/* ---- main ---- */

static int usage(void) {
  fprintf(stderr,
          "usage: mutate [--mutants N | --all | --keys FILE] [--seed S] [-j N] [--equivalent FILE]\n"
          "              [--goal PCT] [--work DIR] [--try CMD] [--list] FILE...\n");
  return 2;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

int main(int argc, char **argv) {
  long nmut = 100, goal = 90;
  uint64_t seed = 1;
  int nj = 1, list = 0;
  const char *equiv_path = NULL, *keys_path = NULL;
  int *keys = NULL;
  const char *work = "build/mutation", *try_cmd = "sh tests/mutation/try.sh";
  const char **paths = xrealloc(NULL, (size_t)argc * sizeof *paths);
  int npaths = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--list") || !strcmp(a, "--all")) {
      if (a[2] == 'l') list = 1;
      else nmut = 1L << 30; /* every site, in a seeded order */
      continue;
    }
    if (a[0] != '-') {
      paths[npaths++] = a;
      continue;
    }
    const char *v = !strncmp(a, "-j", 2) && a[2] ? a + 2 : i + 1 < argc ? argv[++i] : NULL;
    if (!v) return usage();
    char *end;
    long x = strtol(v, &end, 10);
    int num = *v && !*end && x >= 0;
    if (!strncmp(a, "-j", 2) && num && x >= 1 && x <= MAX_JOBS) nj = (int)x;
    else if (!strcmp(a, "--mutants") && num && x >= 1) nmut = x;
    else if (!strcmp(a, "--seed") && num) seed = (uint64_t)x;
    else if (!strcmp(a, "--goal") && num && x <= 100) goal = x;
    else if (!strcmp(a, "--equivalent")) equiv_path = v;
    else if (!strcmp(a, "--work")) work = v;
    else if (!strcmp(a, "--try")) try_cmd = v;
    else if (!strcmp(a, "--keys")) keys_path = v;
    else return usage();
  }
  if (!npaths) return usage();
  qsort(paths, (size_t)npaths, sizeof *paths, cmp_str);
  srcfile *files = xrealloc(NULL, (size_t)npaths * sizeof *files);
  sites ss = {0};
  for (int i = 0; i < npaths; i++) {
    files[i].path = paths[i];
    files[i].text = read_file(paths[i], &files[i].len);
    if (!files[i].text) die("%s: %s", paths[i], strerror(errno));
    find_sites(&files[i], i, &ss);
  }
  if (list) {
    for (int i = 0; i < ss.n; i++) {
      char key[2400];
      site_key(&files[ss.s[i].file], &ss.s[i], key, sizeof key);
      printf("%s:%d:%d %s | %s\n", files[ss.s[i].file].path, ss.s[i].line, ss.s[i].col, kind_names[ss.s[i].kind], key);
    }
    return 0;
  }
  if (!ss.n) die("no mutation sites in the files given");
  equivs eq = {0};
  if (equiv_path) load_equivs(equiv_path, &eq, 1);
  equivs want = {0};
  if (keys_path) {
    /* exactly the listed mutants, in site order */
    load_equivs(keys_path, &want, 0);
    int *pick = xrealloc(NULL, (size_t)ss.n * sizeof *pick);
    int np = 0;
    for (int i = 0; i < ss.n; i++) {
      char key[2400];
      site_key(&files[ss.s[i].file], &ss.s[i], key, sizeof key);
      equiv *k = find_equiv(&want, key);
      if (k && !k->used) {
        k->used = 1;
        pick[np++] = i;
      }
    }
    for (int i = 0; i < want.n; i++)
      if (!want.e[i].used)
        fprintf(stderr, "mutate: %s:%d: no such mutation site now: %s\n", keys_path, want.e[i].at, want.e[i].key);
    if (!np) die("%s: none of the keys is a mutation site of these files", keys_path);
    free_equivs(&want);
    keys = pick;
    nmut = np;
  }

  /* the sample: a partial Fisher-Yates shuffle of the site numbers */
  if (nmut > ss.n) nmut = ss.n;
  int *order = xrealloc(NULL, (size_t)ss.n * sizeof *order);
  for (int i = 0; i < ss.n; i++) order[i] = i;
  uint64_t rs = seed;
  for (int i = 0; keys && i < nmut; i++) order[i] = keys[i];
  for (int i = 0; !keys && i < nmut; i++) {
    int k = i + (int)(rng_next(&rs) % (uint64_t)(ss.n - i));
    int t = order[i];
    order[i] = order[k];
    order[k] = t;
  }
  mutant *ms = xrealloc(NULL, (size_t)nmut * sizeof *ms);
  memset(ms, 0, (size_t)nmut * sizeof *ms);
  for (int i = 0; i < nmut; i++) {
    ms[i].site = order[i];
    ms[i].result = -1;
    const site *s = &ss.s[order[i]];
    char key[2400];
    site_key(&files[s->file], s, key, sizeof key);
    equiv *e = find_equiv(&eq, key);
    if (e) {
      ms[i].result = R_EQUIVALENT;
      ms[i].eq = e;
      e->used = 1;
    }
  }

  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);

  if (mkdir(work, 0777) && errno != EEXIST) die("%s: %s", work, strerror(errno));
  runner R = {.work = work, .try_cmd = try_cmd, .files = files, .ss = &ss};
  njobs = nj;
  for (int j = 0; j < nj; j++) {
    jobs[j].mutant = -1;
    snprintf(jobs[j].dir, sizeof jobs[j].dir, "%s/j%d", work, j + 1);
    if (mkdir(jobs[j].dir, 0777) && errno != EEXIST) die("%s: %s", jobs[j].dir, strerror(errno));
  }

  double t0 = now();
  printf("mutation: %d sites in %d files; %ld mutants, seed %llu, %d job%s\n", ss.n, npaths, nmut,
         (unsigned long long)seed, nj, nj == 1 ? "" : "s");
  fflush(stdout);
  /* the baseline: the unmutated engine must pass every check; their times
   * set the limits (ten times as long, and at least 10 s: the machine is shared) */
  {
    mutant base = {0};
    jobs[0].pid = start_try(&R, jobs[0].dir, ss.s[order[0]].file, -1);
    int st;
    while (waitpid(jobs[0].pid, &st, 0) < 0)
      if (errno != EINTR || interrupted) {
        kill_jobs();
        die("interrupted");
      }
    jobs[0].pid = 0;
    read_try(&R, jobs[0].dir, st, &base, 1);
    size_t u = 0;
    printf("baseline:");
    for (int k = 0; k < R.nst; k++) {
      double lim = R.st[k].base * 10 < 10 ? 10 : R.st[k].base * 10;
      u += (size_t)snprintf(R.timeouts + u, sizeof R.timeouts - u, "%s%s=%.1f", k ? " " : "", R.st[k].name, lim);
      if (u >= sizeof R.timeouts) die("too many stages");
      printf(" %s %.2f s%s", R.st[k].name, R.st[k].base, k + 1 < R.nst ? "," : "");
    }
    printf(" (each limited to ten times that, at least 10 s)%s\n", R.skipped);
    fflush(stdout);
  }

  char rpath[1100];
  snprintf(rpath, sizeof rpath, "%s/report.jsonl", work);
  FILE *json = fopen(rpath, "w");
  if (!json) die("%s: %s", rpath, strerror(errno));
  snprintf(rpath, sizeof rpath, "%s/report.txt", work);
  FILE *txt = fopen(rpath, "w");
  if (!txt) die("%s: %s", rpath, strerror(errno));

  int next = 0, reported = 0, running = 0;
  /* the whole try: compile, links and checks; a fallback behind the checks' own limits */
  double limit = 120;
  for (int k = 0; k < R.nst; k++) limit += R.st[k].base * 10 < 10 ? 10 : R.st[k].base * 10;
  while (reported < nmut) {
    if (interrupted) {
      kill_jobs();
      fprintf(stderr, "mutate: interrupted: %d of %ld mutants tried; the tree was not changed\n", reported, nmut);
      return 130;
    }
    /* start mutants on free jobs */
    for (int j = 0; j < nj && next < nmut; j++) {
      if (jobs[j].mutant >= 0) continue;
      while (next < nmut && ms[next].result == R_EQUIVALENT) next++;
      if (next >= nmut) break;
      jobs[j].mutant = next;
      jobs[j].start = now();
      jobs[j].deadline = jobs[j].start + limit;
      jobs[j].pid = start_try(&R, jobs[j].dir, ss.s[ms[next].site].file, ms[next].site);
      running++;
      next++;
    }
    /* collect finished ones */
    if (running) {
      int st;
      pid_t pid = waitpid(-1, &st, WNOHANG);
      if (pid == 0) {
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
        for (int j = 0; j < nj; j++)
          if (jobs[j].mutant >= 0 && jobs[j].pid > 0 && now() > jobs[j].deadline) {
            kill(-jobs[j].pid, SIGKILL);
          }
        continue;
      }
      if (pid < 0) {
        if (errno == EINTR) continue;
        die("waitpid: %s", strerror(errno));
      }
      for (int j = 0; j < nj; j++)
        if (jobs[j].pid == pid) {
          mutant *m = &ms[jobs[j].mutant];
          m->seconds = now() - jobs[j].start;
          jobs[j].pid = 0;
          read_try(&R, jobs[j].dir, st, m, 0);
          if (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL && now() > jobs[j].deadline) {
            m->result = R_TIMEOUT;
            snprintf(m->by, sizeof m->by, "try");
            snprintf(m->detail, sizeof m->detail, "stopped after %.0f s", limit);
          }
          jobs[j].mutant = -1;
          running--;
        }
    }
    /* report in sample order */
    while (reported < nmut && ms[reported].result >= 0) {
      report_mutant(stdout, json, &R, &ms[reported], reported);
      report_mutant(txt, NULL, &R, &ms[reported], reported);
      fflush(stdout);
      reported++;
    }
  }

  int count[R_COUNT] = {0};
  for (int i = 0; i < nmut; i++) count[ms[i].result]++;
  int detected = count[R_KILLED] + count[R_TIMEOUT];
  int scored = detected + count[R_SURVIVED];
  double score = scored ? 100.0 * detected / scored : 100.0;
  int ok = score >= (double)goal;
  char sum[512];
  snprintf(sum, sizeof sum,
           "mutation score: %d/%d = %.1f%% of the mutants that compile and are not equivalent were detected (goal %ld%%): "
           "%d killed, %d timeout, %d survived, %d equivalent, %d not compiling; %ld mutants, seed %llu, %.0f s",
           detected, scored, score, goal, count[R_KILLED], count[R_TIMEOUT], count[R_SURVIVED], count[R_EQUIVALENT],
           count[R_NOCOMPILE], nmut, (unsigned long long)seed, now() - t0);
  printf("%s\n", sum);
  fprintf(txt, "%s\n", sum);
  if (count[R_EQUIVALENT] * 10 >= nmut)
    printf("warning: %d of %ld mutants (10%% or more) are listed as equivalent in %s\n", count[R_EQUIVALENT], nmut, equiv_path);
  printf("%s\n", ok ? "mutation: goal met" : "mutation: BELOW THE GOAL: the survivors above are faults the suite does not notice");
  printf("reports: %s/report.txt, %s/report.jsonl\n", work, work);
  fprintf(json, "{\"summary\":true,\"mutants\":%ld,\"seed\":%llu,\"killed\":%d,\"timeout\":%d,\"survived\":%d,"
                "\"equivalent\":%d,\"not_compiling\":%d,\"score\":%.1f,\"goal\":%ld,\"met\":%s}\n",
          nmut, (unsigned long long)seed, count[R_KILLED], count[R_TIMEOUT], count[R_SURVIVED], count[R_EQUIVALENT],
          count[R_NOCOMPILE], score, goal, ok ? "true" : "false");
  fclose(json);
  fclose(txt);
  for (int i = 0; i < npaths; i++) free(files[i].text);
  free(files);
  free(ss.s);
  free(order);
  free(ms);
  free(paths);
  free_equivs(&eq);
  free(keys);
  return ok ? 0 : 1;
}
