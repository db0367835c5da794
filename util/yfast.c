/* yfast: the fast scanner of the plain YAML layout (see yfast.h). It reads
 * block mappings and sequences (compact "- key: value" entries included),
 * flow collections over one or several lines, plain scalars on one line,
 * quoted scalars on one line, `|-` and `>-` block scalars, comments and `---`
 * between documents. Every function returns 0 to go on or GIVE_UP: the text
 * is then parsed by libyaml, so giving up is always safe, and it gives up
 * wherever libyaml could see the text differently. */
#include "yfast.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define GIVE_UP 1
#define TRY(x)              \
  do {                      \
    if (x) return GIVE_UP;  \
  } while (0)
/* deeper than the tree builder allows (YDOC_MAX_DEPTH): libyaml reports it */
#define YF_MAX_DEPTH 66
/* libyaml's limit on a simple key's length is 1024 characters */
#define YF_MAX_KEY 1000

typedef struct {
  const char *p, *end; /* position, end of the text */
  const char *ls;      /* start of the current line */
  const char *cls, *cpos; /* the column of cpos on line cls is ccol: columns are counted on from there */
  int line, depth, ccol;
  int ascii; /* the text is ASCII: a column is the offset in the line, plus one */
  yf_events *ev;
} Y;

static void newline(Y *y) { /* y->p at a '\n' */
  y->p++;
  y->line++;
  y->ls = y->p;
}

static int col_of(Y *y, const char *q) {
  if (y->ascii) return (int)(q - y->ls) + 1;
  if (y->cls != y->ls || y->cpos > q) {
    y->cls = y->cpos = y->ls;
    y->ccol = 1;
  }
  for (; y->cpos < q; y->cpos++) y->ccol += ((unsigned char)*y->cpos & 0xC0) != 0x80;
  return y->ccol;
}

static int emit(Y *y, int kind, const char *at, int quoted, const char *str, size_t len) {
  yf_events *e = y->ev;
  if (e->n == e->cap) {
    int cap = e->cap ? 2 * e->cap : 256;
    yf_event *v = realloc(e->ev, (size_t)cap * sizeof *v);
    if (!v) return GIVE_UP;
    e->ev = v;
    e->cap = cap;
  }
  e->ev[e->n++] = (yf_event){.kind = (unsigned char)kind, .quoted = (unsigned char)quoted, .line = y->line,
                             .col = col_of(y, at), .str = str, .len = len};
  return 0;
}

static int append(Y *y, const char *s, size_t n) {
  yf_events *e = y->ev;
  if (e->bcap - e->blen < n + 1) {
    size_t cap = e->bcap ? e->bcap : 4096;
    while (cap - e->blen < n + 1) cap *= 2;
    char *b = realloc(e->buf, cap);
    if (!b) return GIVE_UP;
    e->buf = b;
    e->bcap = cap;
  }
  memcpy(e->buf + e->blen, s, n);
  e->blen += n;
  return 0;
}

/* the last event's text is buf from `start` on */
static void decoded(Y *y, size_t start) {
  yf_event *v = &y->ev->ev[y->ev->n - 1];
  v->decoded = 1;
  v->off = start;
  v->len = y->ev->blen - start;
  v->str = NULL;
}

#define ONES 0x0101010101010101ull
#define HIGH 0x8080808080808080ull

/* Whether the 8 bytes of x are all printable ASCII or line feeds: each
 * byte's high bit set in a mask, exactly, for a byte 0x80 or above, one
 * below 0x20 other than '\n' (a line feed is made 0x2A first: z marks the
 * zero bytes of x ^ '\n' exactly) and 0x7F (a zero byte of x ^ 0x7F). */
static int plain_word(uint64_t x) {
  uint64_t nl = x ^ (ONES * '\n');
  uint64_t z = ~(((nl & ~HIGH) + ~HIGH) | nl | ~HIGH);
  uint64_t t = x | z >> 2;
  uint64_t d = x ^ (ONES * 0x7F);
  return !((x | ((t - ONES * 0x20) & ~t) | ((d - ONES) & ~d)) & HIGH);
}

/* Only what libyaml reads the same way: printable ASCII and line feeds, and
 * well-formed UTF-8 of printable characters other than the ones libyaml
 * takes for line breaks or a byte order mark. *ascii is set when every byte
 * is ASCII. Eight bytes are tested at once where they can be (plain_word):
 * a byte at a time, this was a tenth of the whole harness's parsing. */
static int plain_text(const unsigned char *s, size_t n, int *ascii) {
  *ascii = 1;
  for (size_t i = 0; i < n;) {
    if (n - i >= 8) {
      uint64_t x;
      memcpy(&x, s + i, 8);
      if (plain_word(x)) {
        i += 8;
        continue;
      }
    }
    unsigned c = s[i];
    if (c < 0x80) {
      if ((c < 0x20 && c != '\n') || c == 0x7F) return GIVE_UP;
      i++;
      continue;
    }
    uint32_t cp;
    size_t k;
    if (c >= 0xC2 && c <= 0xDF) {
      cp = c & 0x1F;
      k = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
      cp = c & 0x0F;
      k = 2;
    } else if (c >= 0xF0 && c <= 0xF4) {
      cp = c & 0x07;
      k = 3;
    } else {
      return GIVE_UP;
    }
    if (n - i <= k) return GIVE_UP;
    for (size_t j = 1; j <= k; j++) {
      if ((s[i + j] & 0xC0) != 0x80) return GIVE_UP;
      cp = cp << 6 | (s[i + j] & 0x3F);
    }
    if ((k == 2 && cp < 0x800) || (k == 3 && (cp < 0x10000 || cp > 0x10FFFF))) return GIVE_UP;
    if (cp < 0xA0 || (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0x2028 || cp == 0x2029 || cp == 0xFEFF || cp == 0xFFFE ||
        cp == 0xFFFF)
      return GIVE_UP;
    *ascii = 0;
    i += k + 1;
  }
  return 0;
}

/* 1: ends a plain scalar in a flow collection; 2: can't start a plain scalar */
static const unsigned char cls[256] = {
    [','] = 3, ['['] = 3, [']'] = 3, ['{'] = 3, ['}'] = 3, ['#'] = 2, ['&'] = 2, ['*'] = 2, ['!'] = 2,
    ['|'] = 2, ['>'] = 2, ['\''] = 2, ['"'] = 2, ['%'] = 2, ['@'] = 2, ['`'] = 2, ['?'] = 2, [':'] = 2,
    ['\n'] = 2, [' '] = 2, [0] = 2,
};

static int blank_at(const Y *y, const char *q) { return q >= y->end || *q == ' ' || *q == '\n'; }

/* "- " or "-" ending the line: a block sequence entry */
static int is_entry(const Y *y, const char *q) { return q < y->end && *q == '-' && blank_at(y, q + 1); }

/* At a line's first column: 1 "---", 2 "...", 0 neither. */
static int marker(const Y *y) {
  const char *q = y->p;
  if (q != y->ls || y->end - q < 3) return 0;
  if (!memcmp(q, "---", 3) && blank_at(y, q + 3)) return 1;
  if (!memcmp(q, "...", 3) && blank_at(y, q + 3)) return 2;
  return 0;
}

/* The indent of the next line with content (not only spaces or a comment),
 * with y->p at its first character; -1 at the end of the text. From the
 * start of a line, or already at a line's content. */
static int next_content(Y *y) {
  if (y->p < y->end && y->p != y->ls) return (int)(y->p - y->ls);
  for (;;) {
    const char *q = y->p;
    while (q < y->end && *q == ' ') q++;
    if (q < y->end && *q != '\n' && *q != '#') {
      y->p = q;
      return (int)(q - y->ls);
    }
    while (q < y->end && *q != '\n') q++;
    y->p = q;
    if (q >= y->end) return -1;
    newline(y);
  }
}

/* After a value: spaces, maybe a comment, then the line's end. */
static int end_of_line(Y *y) {
  const char *q = y->p;
  while (q < y->end && *q == ' ') q++;
  if (q < y->end && *q == '#') {
    if (q == y->p && q != y->ls) return GIVE_UP; /* "x#": not a comment */
    while (q < y->end && *q != '\n') q++;
  }
  if (q < y->end && *q != '\n') return GIVE_UP;
  y->p = q;
  if (q < y->end) newline(y);
  return 0;
}

/* The end of a plain key starting at q, on its line ("key: ..." or "key:"
 * ending the line), trailing spaces left out, with *colon at its ':'; NULL
 * when the line holds no such key. */
static const char *key_end(const Y *y, const char *q, const char **colon) {
  for (const char *r = q; r < y->end && *r != '\n'; r++) {
    if (r - q > YF_MAX_KEY) return NULL;
    if (*r == '#' && r > q && r[-1] == ' ') return NULL;
    if (*r == ':' && blank_at(y, r + 1)) {
      const char *e = r;
      while (e > q && e[-1] == ' ') e--;
      *colon = r;
      return e > q ? e : NULL;
    }
  }
  return NULL;
}

/* The closing quote of the quoted scalar at q if it closes on its line
 * within max bytes, else NULL; *esc set when it holds an escape ('' or \). */
static const char *quote_end(const Y *y, const char *q, size_t max, int *esc) {
  *esc = 0;
  for (const char *r = q + 1; r < y->end && *r != '\n' && (size_t)(r - q) <= max; r++) {
    if (*q == '\'' && *r == '\'') {
      if (r + 1 < y->end && r[1] == '\'') {
        *esc = 1;
        r++;
        continue;
      }
      return r;
    }
    if (*q == '"' && *r == '\\') {
      *esc = 1;
      if (++r >= y->end || *r == '\n') return NULL;
      continue;
    }
    if (*q == '"' && *r == '"') return r;
  }
  return NULL;
}

/* A quoted key at q ('x': or "x": then a space or the line's end): the
 * position of its ':', or NULL. */
static const char *quoted_key(const Y *y, const char *q) {
  int esc;
  const char *r = q < y->end && (*q == '"' || *q == '\'') ? quote_end(y, q, YF_MAX_KEY, &esc) : NULL;
  if (!r || r + 1 >= y->end || r[1] != ':' || !blank_at(y, r + 2)) return NULL;
  return r + 1;
}

/* Can a plain scalar (or key) start with q's character? */
static int plain_start(const Y *y, const char *q) {
  if (q >= y->end || cls[(unsigned char)*q] & 2) return 0;
  return !(*q == '-' && blank_at(y, q + 1));
}

/* Is there a key, plain or quoted, at q? */
static int key_at(const Y *y, const char *q) {
  const char *colon;
  return (plain_start(y, q) && key_end(y, q, &colon)) || quoted_key(y, q);
}

static int parse_quoted(Y *y) {
  const char *at = y->p, q = *at;
  int esc;
  const char *r = quote_end(y, at, (size_t)-1, &esc);
  if (!r) return GIVE_UP; /* more than one line */
  TRY(emit(y, YF_SCALAR, at, 1, at + 1, (size_t)(r - at - 1)));
  if (esc) {
    size_t start = y->ev->blen;
    for (const char *s = at + 1; s < r; s++) {
      if (q == '\'') {
        TRY(append(y, s, 1));
        if (*s == '\'') s++;
        continue;
      }
      if (*s != '\\') {
        TRY(append(y, s, 1));
        continue;
      }
      char c = *++s, out[4];
      switch (c) {
      case '\\': case '"': case '/': TRY(append(y, &c, 1)); break;
      case 'n': TRY(append(y, "\n", 1)); break;
      case 't': TRY(append(y, "\t", 1)); break;
      case 'u': {
        uint32_t cp = 0;
        for (int k = 1; k <= 4; k++) {
          char h = s + k < r ? s[k] : 0;
          int v = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
          if (v < 0) return GIVE_UP;
          cp = cp << 4 | (uint32_t)v;
        }
        s += 4;
        if (cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF)) return GIVE_UP;
        size_t n;
        if (cp < 0x80) {
          out[0] = (char)cp;
          n = 1;
        } else if (cp < 0x800) {
          out[0] = (char)(0xC0 | cp >> 6);
          out[1] = (char)(0x80 | (cp & 0x3F));
          n = 2;
        } else {
          out[0] = (char)(0xE0 | cp >> 12);
          out[1] = (char)(0x80 | (cp >> 6 & 0x3F));
          out[2] = (char)(0x80 | (cp & 0x3F));
          n = 3;
        }
        TRY(append(y, out, n));
        break;
      }
      default: return GIVE_UP;
      }
    }
    decoded(y, start);
  }
  y->p = r + 1;
  return 0;
}

/* `|-` or `>-` at y->p, in a block collection indented by `parent`: the
 * lines indented more than it, kept as lines or folded into one, the final
 * line breaks stripped. */
static int parse_block_scalar(Y *y, int parent) {
  const char *at = y->p;
  char style = *at;
  if (y->end - at < 2 || at[1] != '-' || !blank_at(y, at + 2)) return GIVE_UP;
  TRY(emit(y, YF_SCALAR, at, 1, NULL, 0));
  y->p = at + 2;
  TRY(end_of_line(y));
  const char *q = y->p;
  while (q < y->end && *q == ' ') q++;
  int n = (int)(q - y->p);
  if (q >= y->end || *q == '\n' || n <= parent) return GIVE_UP; /* a leading blank line, or no content */
  size_t start = y->ev->blen;
  int blanks = 0, first = 1;
  for (;;) {
    const char *r = y->p;
    int s = 0;
    while (r < y->end && *r == ' ' && s < n) {
      r++;
      s++;
    }
    if (r >= y->end) {
      y->p = r;
      break;
    }
    if (*r == '\n') {
      blanks++;
      y->p = r;
      newline(y);
      continue;
    }
    if (s < n) break; /* less indented: the scalar has ended */
    if (*r == ' ') {  /* more indented: kept as it is by `|`, which `>` doesn't fold */
      const char *u = r;
      while (u < y->end && *u == ' ') u++;
      if (u >= y->end || *u == '\n' || style == '>') return GIVE_UP;
    }
    const char *e = r;
    while (e < y->end && *e != '\n') e++;
    if (!first) {
      if (style == '|' || blanks)
        for (int k = 0; k < (style == '|' ? blanks + 1 : blanks); k++) TRY(append(y, "\n", 1));
      else
        TRY(append(y, " ", 1));
    }
    TRY(append(y, r, (size_t)(e - r)));
    first = 0;
    blanks = 0;
    y->p = e;
    if (e >= y->end) break;
    newline(y);
  }
  decoded(y, start);
  return 0;
}

/* Spaces, comments and line breaks inside a flow collection; a line going
 * on with it must be indented more than the block collection around. */
static int flow_space(Y *y, int bind) {
  for (;;) {
    while (y->p < y->end && *y->p == ' ') y->p++;
    if (y->p >= y->end) return GIVE_UP;
    if (*y->p == '#') {
      if (y->p != y->ls && y->p[-1] != ' ') return GIVE_UP;
      while (y->p < y->end && *y->p != '\n') y->p++;
      if (y->p >= y->end) return GIVE_UP;
    }
    if (*y->p != '\n') return 0;
    newline(y);
    const char *q = y->p;
    while (q < y->end && *q == ' ') q++;
    if (q < y->end && *q != '\n' && *q != '#' && (int)(q - y->ls) <= bind) return GIVE_UP;
  }
}

/* A plain scalar in a flow collection: a key ends at ": ", a value at ',',
 * a bracket or a comment; a ':' anywhere else gives up. */
static int flow_plain(Y *y, int is_key) {
  const char *s = y->p, *q = s;
  if (!plain_start(y, s)) return GIVE_UP;
  for (; q < y->end && *q != '\n'; q++) {
    if (q - s > YF_MAX_KEY) return GIVE_UP;
    if (cls[(unsigned char)*q] & 1) break;
    if (*q == '#' && q[-1] == ' ') break;
    if (*q == ':') {
      if (is_key && blank_at(y, q + 1)) break;
      return GIVE_UP;
    }
  }
  const char *e = q;
  while (e > s && e[-1] == ' ') e--;
  TRY(emit(y, YF_SCALAR, s, 0, s, (size_t)(e - s)));
  y->p = q;
  return 0;
}

static int parse_flow(Y *y, int bind);

static int flow_node(Y *y, int bind) {
  char c = *y->p;
  if (c == '[' || c == '{') return parse_flow(y, bind);
  if (c == '"' || c == '\'') {
    TRY(parse_quoted(y));
    return y->p < y->end && *y->p == ':'; /* a quoted key: not here */
  }
  return flow_plain(y, 0);
}

static int parse_flow(Y *y, int bind) {
  char open = *y->p, close = open == '[' ? ']' : '}';
  if (++y->depth > YF_MAX_DEPTH) return GIVE_UP;
  TRY(emit(y, open == '[' ? YF_SEQ : YF_MAP, y->p, 0, NULL, 0));
  y->p++;
  for (int first = 1;; first = 0) {
    TRY(flow_space(y, bind));
    if (*y->p == close) break;
    if (!first) {
      if (*y->p != ',') return GIVE_UP;
      y->p++;
      TRY(flow_space(y, bind));
      if (*y->p == close || *y->p == ',') return GIVE_UP; /* a trailing or doubled comma */
    }
    if (open == '{') {
      const char *colon = quoted_key(y, y->p);
      if (colon)
        TRY(parse_quoted(y));
      else
        TRY(flow_plain(y, 1));
      if (y->p >= y->end || *y->p != ':' || (colon && y->p != colon)) return GIVE_UP;
      y->p++;
      TRY(flow_space(y, bind));
      if (*y->p == ',' || *y->p == close) return GIVE_UP; /* no value */
    }
    TRY(flow_node(y, bind));
  }
  y->p++;
  y->depth--;
  return emit(y, YF_END, y->p - 1, 0, NULL, 0);
}

static int parse_map(Y *y, int ind);
static int parse_seq(Y *y, int ind, int indentless);

/* A block collection at y->p, the first content of a line indented by ind. */
static int parse_block_at(Y *y, int ind) {
  if (is_entry(y, y->p)) return parse_seq(y, ind, 0);
  if (key_at(y, y->p)) return parse_map(y, ind);
  return GIVE_UP;
}

/* A value on the line of its key or entry, in a block collection indented by bind. */
static int inline_value(Y *y, int bind) {
  char c = *y->p;
  if (c == '[' || c == '{') {
    TRY(parse_flow(y, bind));
    return end_of_line(y);
  }
  if (c == '"' || c == '\'') {
    TRY(parse_quoted(y));
    return end_of_line(y);
  }
  if (c == '|' || c == '>') return parse_block_scalar(y, bind);
  if (!plain_start(y, y->p)) return GIVE_UP;
  const char *s = y->p, *q = s;
  for (; q < y->end && *q != '\n'; q++) {
    if (*q == '#' && q[-1] == ' ') break;
    if (*q == ':' && blank_at(y, q + 1)) return GIVE_UP;
  }
  const char *e = q;
  while (e > s && e[-1] == ' ') e--;
  TRY(emit(y, YF_SCALAR, s, 0, s, (size_t)(e - s)));
  y->p = e;
  return end_of_line(y);
}

/* The value after a key's ':' in a block mapping indented by ind. */
static int map_value(Y *y, int ind) {
  const char *q = y->p;
  while (q < y->end && *q == ' ') q++;
  if (q < y->end && *q != '\n' && *q != '#') {
    y->p = q;
    return inline_value(y, ind);
  }
  TRY(end_of_line(y));
  int ni = next_content(y);
  if (ni > ind) return parse_block_at(y, ni);
  if (ni == ind && is_entry(y, y->p)) return parse_seq(y, ind, 1); /* "key:" then "- x" at its indent */
  return GIVE_UP;                                                 /* an empty value */
}

/* After an entry or a pair: is the next one at indent ind? 1 yes, 0 the
 * collection has ended, GIVE_UP otherwise (-1 stands for it). */
static int next_sibling(Y *y, int ind, int want_entry, int indentless) {
  int ni = next_content(y);
  if (ni < ind) return 0;
  if (ni > ind) return -1;
  int m = marker(y);
  if (m) return m == 1 ? 0 : -1;
  if (is_entry(y, y->p) != want_entry) return indentless ? 0 : -1;
  return 1;
}

static int parse_map(Y *y, int ind) {
  if (++y->depth > YF_MAX_DEPTH) return GIVE_UP;
  TRY(emit(y, YF_MAP, y->p, 0, NULL, 0));
  for (;;) {
    const char *k = y->p, *colon, *e;
    if ((colon = quoted_key(y, k))) {
      TRY(parse_quoted(y)); /* ends at the ':' */
    } else {
      if (!plain_start(y, k) || !(e = key_end(y, k, &colon))) return GIVE_UP;
      TRY(emit(y, YF_SCALAR, k, 0, k, (size_t)(e - k)));
    }
    y->p = colon + 1;
    TRY(map_value(y, ind));
    int more = next_sibling(y, ind, 0, 0);
    if (more < 0) return GIVE_UP;
    if (!more) break;
  }
  y->depth--;
  return emit(y, YF_END, y->p, 0, NULL, 0);
}

static int parse_seq(Y *y, int ind, int indentless) {
  if (++y->depth > YF_MAX_DEPTH) return GIVE_UP;
  TRY(emit(y, YF_SEQ, y->p, 0, NULL, 0));
  for (;;) {
    y->p++; /* the '-' */
    const char *q = y->p;
    while (q < y->end && *q == ' ') q++;
    if (q >= y->end || *q == '\n' || *q == '#') {
      TRY(end_of_line(y));
      int ni = next_content(y);
      if (ni <= ind) return GIVE_UP; /* an empty entry */
      TRY(parse_block_at(y, ni));
    } else {
      y->p = q;
      if (is_entry(y, q)) return GIVE_UP; /* "- - x" */
      if (key_at(y, q))
        TRY(parse_map(y, (int)(q - y->ls))); /* "- key: value", the mapping indented as far as its key */
      else
        TRY(inline_value(y, ind));
    }
    int more = next_sibling(y, ind, 1, indentless);
    if (more < 0) return GIVE_UP;
    if (!more) break;
  }
  y->depth--;
  return emit(y, YF_END, y->p, 0, NULL, 0);
}

int yf_scan(const char *text, size_t len, yf_events *ev) {
  ev->n = 0;
  ev->blen = 0;
  int ascii;
  if (plain_text((const unsigned char *)text, len, &ascii)) return GIVE_UP;
  /* about one event per ten bytes in the project's files: one allocation,
   * not a growing array copied at each doubling */
  size_t want = len / 8 + 64;
  if ((size_t)ev->cap < want && want < (size_t)1 << 30) {
    yf_event *v = malloc(want * sizeof *v);
    if (!v) return GIVE_UP;
    free(ev->ev);
    ev->ev = v;
    ev->cap = (int)want;
  }
  Y y = {.p = text, .end = text + len, .ls = text, .line = 1, .ascii = ascii, .ev = ev};
  int ni = next_content(&y);
  if (ni < 0) return GIVE_UP; /* no document */
  for (;;) {
    int m = ni == 0 ? marker(&y) : 0;
    if (m == 2) return GIVE_UP;
    TRY(emit(&y, YF_DOC_START, y.p, 0, NULL, 0));
    if (m == 1) {
      y.p += 3;
      TRY(end_of_line(&y));
    }
    if (next_content(&y) != 0 || marker(&y)) return GIVE_UP; /* empty, or indented */
    TRY(parse_block_at(&y, 0));
    ni = next_content(&y);
    TRY(emit(&y, YF_DOC_END, y.p < y.end ? y.p : y.ls, 0, NULL, 0));
    if (ni < 0) break;
    if (ni != 0 || marker(&y) != 1) return GIVE_UP;
  }
  return 0;
}

void yf_events_fini(yf_events *ev) {
  free(ev->ev);
  free(ev->buf);
  *ev = (yf_events){0};
}
