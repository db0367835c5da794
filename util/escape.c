/* escape: control characters and invalid UTF-8 made visible (see escape.h). */
#include "escape.h"

#include <stdio.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if it is not one.
 * Overlong forms, surrogates and code points past U+10FFFF are not valid. */
static size_t utf8_len(const unsigned char *s, size_t left) {
  if (!left) return 0;
  unsigned c = s[0];
  size_t n;
  unsigned min;
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) n = 2, min = 0x80;
  else if (c >= 0xe0 && c <= 0xef) n = 3, min = 0x800;
  else if (c >= 0xf0 && c <= 0xf4) n = 4, min = 0x10000;
  else return 0;
  if (n > left) return 0;
  unsigned cp = c & (0x7f >> n);
  for (size_t i = 1; i < n; i++) {
    if ((s[i] & 0xc0) != 0x80) return 0;
    cp = cp << 6 | (s[i] & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  return n;
}

/* The escape of the character at s (n bytes if valid UTF-8, 0 if not), or
 * NULL if it prints as itself. */
static const char *escape_of(const unsigned char *s, size_t n, int keep_nl, char tmp[8]) {
  static const char hex[] = "0123456789abcdef";
  if (keep_nl && n == 1 && s[0] == '\n') return NULL;
  if (n == 0) {
    tmp[0] = '\\', tmp[1] = 'x', tmp[2] = hex[s[0] >> 4], tmp[3] = hex[s[0] & 15], tmp[4] = 0;
    return tmp;
  }
  if (n == 1) {
    switch (s[0]) {
    case '\n': return "\\n";
    case '\t': return "\\t";
    case '\r': return "\\r";
    case 0x1b: return "\\e";
    default: break;
    }
    if (s[0] < 0x20 || s[0] == 0x7f) {
      tmp[0] = '\\', tmp[1] = 'x', tmp[2] = hex[s[0] >> 4], tmp[3] = hex[s[0] & 15], tmp[4] = 0;
      return tmp;
    }
    return NULL;
  }
  if (n == 2 && s[0] == 0xc2 && s[1] < 0xa0) { /* C1 controls U+0080..U+009F */
    memcpy(tmp, "\\u00", 4);
    tmp[4] = hex[s[1] >> 4], tmp[5] = hex[s[1] & 15], tmp[6] = 0;
    return tmp;
  }
  return NULL;
}

static size_t escape_into(const char *str, size_t len, int keep_nl, char *out, size_t size) {
  const unsigned char *s = (const unsigned char *)str;
  size_t w = 0, fill = 0;
  int full = size == 0;
  for (size_t i = 0; i < len;) {
    if (s[i] >= 0x20 && s[i] < 0x7f) { /* printable ASCII, nearly all text: itself */
      if (!full && fill + 1 < size) out[fill++] = (char)s[i];
      else full = 1;
      w++, i++;
      continue;
    }
    size_t n = utf8_len(s + i, len - i);
    char tmp[8];
    const char *e = escape_of(s + i, n, keep_nl, tmp);
    const char *src = e ? e : (const char *)s + i;
    size_t k = e ? strlen(e) : n;
    /* whole characters only: a cut never splits one */
    if (!full && fill + k < size) {
      memcpy(out + fill, src, k);
      fill += k;
    } else {
      full = 1;
    }
    w += k;
    i += n ? n : 1;
  }
  if (size) out[fill] = 0;
  return w;
}

size_t escape_utf8_len(const char *s, size_t left) { return utf8_len((const unsigned char *)s, left); }

size_t escape_mem(const char *s, size_t len, char *out, size_t size) { return escape_into(s, len, 0, out, size); }

size_t escape_text(const char *s, char *out, size_t size) { return escape_into(s, strlen(s), 0, out, size); }

void escape_fwrite(FILE *f, const char *s, size_t len, int keep_newlines) {
  const unsigned char *u = (const unsigned char *)s;
  size_t run = 0; /* bytes printed as they are, written in one go */
  for (size_t i = 0; i < len;) {
    if (u[i] >= 0x20 && u[i] < 0x7f) { /* printable ASCII, nearly all text: itself */
      run++, i++;
      continue;
    }
    size_t n = utf8_len(u + i, len - i);
    char tmp[8];
    const char *e = escape_of(u + i, n, keep_newlines, tmp);
    if (!e) {
      run += n;
      i += n;
      continue;
    }
    if (run) fwrite(s + i - run, 1, run, f);
    run = 0;
    fputs(e, f);
    i += n ? n : 1;
  }
  if (run) fwrite(s + len - run, 1, run, f);
}

int escape_needed(const char *str, size_t len) {
  const unsigned char *s = (const unsigned char *)str;
  for (size_t i = 0; i < len;) {
    size_t n = utf8_len(s + i, len - i);
    char tmp[8];
    if (escape_of(s + i, n, 0, tmp)) return 1;
    i += n ? n : 1;
  }
  return 0;
}
