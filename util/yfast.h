/* yfast: a fast scanner for the plain layout of YAML that case and card files
 * use, giving the same events as libyaml's parser for it (util/ydoc.c feeds
 * either into the same tree builder). It takes no chances: anything outside
 * that layout (anchors, tags, multi-line plain or quoted scalars, block
 * scalars other than `|-` and `>-`, empty values, tabs, CR, odd characters,
 * any error at all) makes it give up, and the document is parsed by libyaml,
 * which also reports every error. tests/unit/test_ydoc.c checks that both
 * parsers give the same tree for every YAML file of the project and for
 * thousands of damaged copies of them. */
#ifndef YFAST_H
#define YFAST_H

#include <stddef.h>

typedef enum { YF_DOC_START, YF_DOC_END, YF_MAP, YF_SEQ, YF_END, YF_SCALAR } yf_kind;

typedef struct {
  unsigned char kind, quoted, decoded; /* decoded: the text is at buf + off, else at str */
  int line, col;                       /* 1-based; the column counts characters, as libyaml's marks do */
  const char *str;                     /* a scalar's text in the source (not NUL-terminated) */
  size_t off, len;
} yf_event;

typedef struct {
  yf_event *ev;
  int n, cap;
  char *buf; /* decoded scalars (escapes, block scalars) */
  size_t blen, bcap;
} yf_events;

/* Scans text (len bytes) into ev. Returns 0 when every event is in ev, 1 when
 * the text is outside the layout (or memory ran out): then parse it with
 * libyaml. ev is emptied first; free it with yf_events_fini. */
int yf_scan(const char *text, size_t len, yf_events *ev);
void yf_events_fini(yf_events *ev);
/* the text of scalar event e */
static inline const char *yf_str(const yf_events *ev, const yf_event *e) {
  return e->decoded ? ev->buf + e->off : e->str;
}

#endif
