/* diag: formatting of located errors (mtg_error) with the source line and a caret. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "mtg_private.h"

static void vset(mtg_error *e, int status, const char *fmt, va_list ap) {
  memset(e, 0, sizeof *e);
  e->status = status;
  vsnprintf(e->msg, sizeof e->msg, fmt, ap);
}

void mtg_error_set(mtg_error *e, int status, const char *fmt, ...) {
  if (!e) return;
  va_list ap;
  va_start(ap, fmt);
  vset(e, status, fmt, ap);
  va_end(ap);
}

int diag_arg(mtg_error *e, const char *fmt, ...) {
  if (!e) return MTG_EARG;
  va_list ap;
  va_start(ap, fmt);
  vset(e, MTG_EARG, fmt, ap);
  va_end(ap);
  return MTG_EARG;
}

void mtg_error_format(const mtg_error *e, char *buf, size_t size) {
  if (!buf || !size) return;
  if (!e) {
    snprintf(buf, size, "no error");
    return;
  }
  size_t used = 0;
  int w;
  if (e->file[0] && e->line > 0)
    w = snprintf(buf, size, "%s:%d:%d: %s", e->file, e->line, e->col > 0 ? e->col : 1, e->msg);
  else if (e->file[0])
    w = snprintf(buf, size, "%s: %s", e->file, e->msg);
  else
    w = snprintf(buf, size, "%s", e->msg);
  if (w < 0 || (size_t)w >= size) return;
  used = (size_t)w;
  if (e->source[0] && e->line > 0) {
    w = snprintf(buf + used, size - used, "\n  %s\n  ", e->source);
    if (w < 0 || (size_t)w >= size - used) return;
    used += (size_t)w;
    int col = e->col > 0 ? e->col : 1;
    int srclen = (int)strlen(e->source);
    if (col > srclen + 1) col = srclen + 1; /* the source copy may be shorter than the line */
    for (int i = 1; i < col && used + 2 < size; i++)
      buf[used++] = e->source[i - 1] == '\t' ? '\t' : ' ';
    if (used + 1 < size) buf[used++] = '^';
    buf[used] = 0;
  }
}
