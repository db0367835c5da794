/* yemit: a YAML tree written back in one canonical block layout (see yemit.h).
 *
 * Mappings and sequences are written in block style, two spaces deeper per
 * level, empty ones as {} and []. A scalar read as plain is written plain
 * when it would read back as the same plain scalar in block context; any
 * other scalar (read quoted, or plain text that block context would read
 * otherwise) is written double-quoted with escapes, so that no character the
 * YAML reader folds, strips or refuses is written raw. */
#include "yemit.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct out {
  char *s;
  size_t len, cap;
  int oom;
} out;

static void put(out *o, const char *s, size_t n) {
  if (o->oom) return;
  if (o->len + n + 1 > o->cap) {
    size_t cap = o->cap ? o->cap : 256;
    while (cap < o->len + n + 1) cap *= 2;
    char *t = realloc(o->s, cap);
    if (!t) {
      o->oom = 1;
      return;
    }
    o->s = t;
    o->cap = cap;
  }
  memcpy(o->s + o->len, s, n);
  o->len += n;
  o->s[o->len] = 0;
}

static void puts_(out *o, const char *s) { put(o, s, strlen(s)); }

static void spaces(out *o, int n) {
  static const char sp[] = "                                ";
  while (n > 0) {
    int k = n < (int)sizeof sp - 1 ? n : (int)sizeof sp - 1;
    put(o, sp, (size_t)k);
    n -= k;
  }
}

/* The code point at s (n bytes long); a byte that does not begin valid
 * UTF-8 is taken alone (the YAML reader never lets one through). */
static uint32_t decode(const unsigned char *s, size_t left, int *n) {
  int k = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] < 0xe0 ? 2 : s[0] >= 0xe0 && s[0] < 0xf0 ? 3
        : s[0] >= 0xf0 && s[0] < 0xf5 ? 4 : 0;
  if (k == 0 || (size_t)k > left) {
    *n = 1;
    return s[0];
  }
  uint32_t cp = k == 1 ? s[0] : k == 2 ? s[0] & 0x1fu : k == 3 ? s[0] & 0x0fu : s[0] & 0x07u;
  for (int i = 1; i < k; i++) {
    if ((s[i] & 0xc0) != 0x80) {
      *n = 1;
      return s[0];
    }
    cp = cp << 6 | (s[i] & 0x3fu);
  }
  *n = k;
  return cp;
}

/* Characters never written raw: controls (C0, DEL, C1), the line and
 * paragraph separators YAML treats as breaks, the byte order mark,
 * surrogates and non-characters. */
static int escaped_cp(uint32_t cp) {
  return cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029 || cp == 0xfeff ||
         (cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe || cp == 0xffff;
}

/* Whether s, read as a plain scalar, comes back as s in block context. */
static int plain_ok(const char *s, size_t len) {
  if (!len) return 0;
  if (strchr("[]{},#&*!|>'\"%@`", s[0])) return 0;
  if ((s[0] == '-' || s[0] == '?' || s[0] == ':') && (len == 1 || s[1] == ' ' || s[1] == '\t')) return 0;
  if (s[0] == ' ' || s[0] == '\t' || s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == ':') return 0;
  if (len >= 3 && (!strncmp(s, "---", 3) || !strncmp(s, "...", 3))) return 0;
  for (size_t i = 0; i < len;) {
    unsigned char c = (unsigned char)s[i];
    if (c < 0x80) {
      if (c < 0x20 || c == 0x7f) return 0;
      if (c == ':' && (s[i + 1] == ' ' || s[i + 1] == '\t')) return 0;
      if (c == '#' && (s[i - 1] == ' ' || s[i - 1] == '\t')) return 0; /* i > 0: s[0] != '#' */
      i++;
      continue;
    }
    int n;
    if (escaped_cp(decode((const unsigned char *)s + i, len - i, &n))) return 0;
    i += (size_t)n;
  }
  return 1;
}

static void quoted(out *o, const char *s, size_t len) {
  char buf[16];
  put(o, "\"", 1);
  for (size_t i = 0; i < len;) {
    size_t run = 0; /* characters written as they are */
    while (i + run < len && (unsigned char)s[i + run] >= 0x20 && (unsigned char)s[i + run] < 0x7f && s[i + run] != '"' &&
           s[i + run] != '\\')
      run++;
    if (run) {
      put(o, s + i, run);
      i += run;
      continue;
    }
    int n;
    uint32_t cp = decode((const unsigned char *)s + i, len - i, &n);
    if (cp == '"' || cp == '\\') snprintf(buf, sizeof buf, "\\%c", (char)cp);
    else if (cp == '\n') snprintf(buf, sizeof buf, "\\n");
    else if (cp == '\t') snprintf(buf, sizeof buf, "\\t");
    else if (cp == '\r') snprintf(buf, sizeof buf, "\\r");
    else if (escaped_cp(cp)) snprintf(buf, sizeof buf, cp < 0x100 ? "\\x%02X" : "\\u%04X", (unsigned)cp);
    else {
      put(o, s + i, (size_t)n);
      i += (size_t)n;
      continue;
    }
    puts_(o, buf);
    i += (size_t)n;
  }
  put(o, "\"", 1);
}

/* A scalar as written after "key:" or "-": with its leading space, or
 * nothing at all for an empty plain scalar (which reads back as one). */
static void scalar_after(out *o, const ynode *n) {
  if (!n->quoted && !n->len) return;
  put(o, " ", 1);
  if (!n->quoted && plain_ok(n->str, n->len)) put(o, n->str, n->len);
  else quoted(o, n->str, n->len);
}

static void items(out *o, const ynode *s, int col, int inline_first);
static void pairs(out *o, const ynode *m, int col, int inline_first);

/* A node after "-" or "?" at column col (the dash's), to the end of its lines. */
static void item(out *o, const ynode *n, int col) {
  if (n->kind == YN_SCALAR) scalar_after(o, n);
  else if (!n->n) puts_(o, n->kind == YN_MAP ? " {}" : " []");
  else {
    put(o, " ", 1);
    if (n->kind == YN_MAP) pairs(o, n, col + 2, 1);
    else items(o, n, col + 2, 1);
    return;
  }
  put(o, "\n", 1);
}

/* A node after "key:" whose key is at column col. */
static void value(out *o, const ynode *n, int col) {
  if (n->kind == YN_SCALAR || !n->n) {
    item(o, n, col);
    return;
  }
  put(o, "\n", 1);
  if (n->kind == YN_MAP) pairs(o, n, col + 2, 0);
  else items(o, n, col + 2, 0);
}

static void items(out *o, const ynode *s, int col, int inline_first) {
  for (int i = 0; i < s->n; i++) {
    if (i || !inline_first) spaces(o, col);
    put(o, "-", 1);
    item(o, s->items[i], col);
  }
}

static void pairs(out *o, const ynode *m, int col, int inline_first) {
  for (int i = 0; i < m->n; i++) {
    const ynode *k = ymap_key(m, i);
    if (i || !inline_first) spaces(o, col);
    if (k->kind == YN_SCALAR) {
      /* a key is written plain when it can be (its style means nothing to the loaders) */
      if (plain_ok(k->str, k->len)) put(o, k->str, k->len);
      else quoted(o, k->str, k->len);
    } else {
      /* a collection as a key: the explicit "? key" / ": value" form */
      put(o, "?", 1);
      item(o, k, col);
      spaces(o, col);
    }
    put(o, ":", 1);
    value(o, ymap_val(m, i), col);
  }
}

char *yemit_item(const ynode *n, size_t *len) {
  out o = {0};
  put(&o, "-", 1);
  if (n) item(&o, n, 0);
  else put(&o, "\n", 1);
  if (o.oom) {
    free(o.s);
    return NULL;
  }
  if (len) *len = o.len;
  return o.s;
}
