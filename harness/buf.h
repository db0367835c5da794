/* buf: a growable text buffer. Each case writes its report into its own buffer
 * so that parallel runs print in case order, byte for byte as a serial run. */
#ifndef HARNESS_BUF_H
#define HARNESS_BUF_H

#include <stddef.h>

typedef struct buf {
  char *s;      /* NUL-terminated text (NULL while empty) */
  size_t len, cap;
  int oom;      /* an allocation failed: the text is truncated */
} buf;

void buf_free(buf *b);
void buf_reset(buf *b);
void buf_put(buf *b, const char *s, size_t n);
void buf_puts(buf *b, const char *s);
void buf_printf(buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Text of the buffer ("" while empty). */
const char *buf_str(const buf *b);
/* Writers for the machine formats: a JSON string literal, XML text or
 * attribute content, a YAML double-quoted scalar. */
void buf_json(buf *b, const char *s);
void buf_xml(buf *b, const char *s); /* attribute content */
void buf_xml_text(buf *b, const char *s, int attr);
void buf_yaml(buf *b, const char *s);
/* Every line of s, prefixed with `indent` (a trailing newline is added). */
/* Text that came from input (a title, a card name, a path), appended with its
 * control characters escaped (util/escape.h), for the text formats. */
void buf_esc(buf *b, const char *s);
void buf_esc_mem(buf *b, const char *s, size_t n);
/* Each line of s after indent, escaped as buf_esc does. */
void buf_indent(buf *b, const char *s, const char *indent);

#endif
