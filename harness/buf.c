/* buf: growable text buffers and the escaping rules of the output formats. */
#include "buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"

void buf_free(buf *b) {
  free(b->s);
  memset(b, 0, sizeof *b);
}

void buf_reset(buf *b) {
  b->len = 0;
  if (b->s) b->s[0] = 0;
}

static int grow(buf *b, size_t more) {
  if (b->oom) return -1;
  if (b->len + more + 1 <= b->cap) return 0;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->len + more + 1) cap *= 2;
  char *s = realloc(b->s, cap);
  if (!s) {
    b->oom = 1;
    return -1;
  }
  b->s = s;
  b->cap = cap;
  return 0;
}

void buf_put(buf *b, const char *s, size_t n) {
  if (grow(b, n)) return;
  memcpy(b->s + b->len, s, n);
  b->len += n;
  b->s[b->len] = 0;
}

void buf_puts(buf *b, const char *s) { buf_put(b, s, strlen(s)); }

void buf_printf(buf *b, const char *fmt, ...) {
  char small[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n < sizeof small) {
    buf_put(b, small, (size_t)n);
    return;
  }
  if (grow(b, (size_t)n)) return;
  va_start(ap, fmt);
  vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

const char *buf_str(const buf *b) { return b->s ? b->s : ""; }

void buf_json(buf *b, const char *s) {
  buf_put(b, "\"", 1);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') {
      char e[2] = {'\\', (char)c};
      buf_put(b, e, 2);
    } else if (c == '\n') buf_puts(b, "\\n");
    else if (c == '\t') buf_puts(b, "\\t");
    else if (c < 0x20) buf_printf(b, "\\u%04x", c);
    else buf_put(b, s, 1);
  }
  buf_put(b, "\"", 1);
}

void buf_xml(buf *b, const char *s) { buf_xml_text(b, s, 1); }

void buf_xml_text(buf *b, const char *s, int attr) {
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    switch (c) {
    case '<': buf_puts(b, "&lt;"); break;
    case '>': buf_puts(b, "&gt;"); break;
    case '&': buf_puts(b, "&amp;"); break;
    case '"': buf_puts(b, "&quot;"); break;
    /* attribute values would turn raw newlines and tabs into spaces */
    case '\n': buf_puts(b, attr ? "&#10;" : "\n"); break;
    case '\t': buf_puts(b, attr ? "&#9;" : "\t"); break;
    default:
      /* XML 1.0 forbids other control characters outright */
      if (c >= 0x20) buf_put(b, s, 1);
    }
  }
}

void buf_yaml(buf *b, const char *s) {
  buf_put(b, "\"", 1);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') {
      char e[2] = {'\\', (char)c};
      buf_put(b, e, 2);
    } else if (c == '\n') buf_puts(b, "\\n");
    else if (c == '\t') buf_puts(b, "\\t");
    else if (c < 0x20) buf_printf(b, "\\x%02x", c);
    else buf_put(b, s, 1);
  }
  buf_put(b, "\"", 1);
}

void buf_esc_mem(buf *b, const char *s, size_t n) {
  char small[256];
  size_t need = escape_mem(s, n, small, sizeof small);
  if (need < sizeof small) {
    buf_put(b, small, need);
    return;
  }
  char *big = malloc(need + 1);
  if (!big) {
    b->oom = 1;
    return;
  }
  escape_mem(s, n, big, need + 1);
  buf_put(b, big, need);
  free(big);
}

void buf_esc(buf *b, const char *s) { buf_esc_mem(b, s, strlen(s)); }

void buf_indent(buf *b, const char *s, const char *indent) {
  while (*s) {
    const char *nl = strchr(s, '\n');
    size_t n = nl ? (size_t)(nl - s) : strlen(s);
    buf_puts(b, indent);
    buf_esc_mem(b, s, n);
    buf_put(b, "\n", 1);
    s += n + (nl ? 1 : 0);
  }
}
