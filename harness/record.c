/* record: replay files for --record (see record.h). Built with the replay
 * writer when harness.mk finds tools/replaylog.c (HARNESS_REPLAYLOG). */
#include "record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if !defined(HARNESS_REPLAYLOG)

struct hrecord {
  int unused;
};

int record_available(void) { return 0; }

hrecord *record_open(const hcase *hc, const mtg_pool *pool, const char *dir, buf *note) {
  (void)hc;
  (void)pool;
  buf_printf(note, "--record %s: this build has no replay writer (tools/replaylog.c)\n", dir);
  return NULL;
}

void record_close(hrecord *r, mtg_game *g, buf *note) {
  (void)r;
  (void)g;
  (void)note;
}

#else

#include "../tools/replaylog.h"

int record_available(void) { return 1; }

struct hrecord {
  rlog_writer *w;
  char path[4096];
};

/* The case's `cards:` text, cut from its file by lines: from the value's
 * line to the line before the case's next key (or, when cards is the last
 * key, to the last line that still belongs to it). The first line keeps its
 * column so that a flow list stays valid YAML on its own. */
static void cards_text(const hcase *hc, buf *out) {
  const ynode *root = hc->root, *cards = hc->cards;
  const ydoc *d = hc->file->doc;
  int end = 0, keycol = 1;
  for (int i = 0; i < root->n; i++)
    if (ymap_val(root, i) == cards) {
      keycol = ymap_key(root, i)->col;
      if (i + 1 < root->n) end = ymap_key(root, i + 1)->line - 1;
    }
  char line[4096];
  for (int l = cards->line; !end || l <= end; l++) {
    ydoc_source_line(d, l, line, sizeof line);
    if (!end && l > cards->line) {
      /* the last key: stop at a line back at the key's column that is not a list item */
      size_t ind = strspn(line, " ");
      if (!strncmp(line, "---", 3) || !strncmp(line, "...", 3)) break;
      if (line[ind] && line[ind] != '#' && (int)ind + 1 <= keycol && line[ind] != '-') break;
      if (l > cards->line + 100000) break;
      /* past the end of the file ydoc gives "": stop after a run of them */
      if (!line[0]) {
        char next[8];
        ydoc_source_line(d, l + 1, next, sizeof next);
        if (!next[0]) {
          ydoc_source_line(d, l + 2, next, sizeof next);
          if (!next[0]) break;
        }
      }
    }
    if (l == cards->line)
      for (int c = 0; c < cards->col - 1 && line[c]; c++) line[c] = ' ';
    buf_printf(out, "%s\n", line);
  }
}

hrecord *record_open(const hcase *hc, const mtg_pool *pool, const char *dir, buf *note) {
  hrecord *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  snprintf(r->path, sizeof r->path, "%s/%s.gz", dir, hc->id);
  int need = mtg_setup_write(hc->setup, NULL, 0);
  char *setup = malloc((size_t)need + 1);
  buf cards = {0}, origin = {0};
  if (hc->cards) cards_text(hc, &cards);
  buf_printf(&origin, "harness case %s (%s:%d)", hc->id, hc->file->path, hc->line);
  if (!setup) {
    free(r);
    return NULL;
  }
  mtg_setup_write(hc->setup, setup, (size_t)need + 1);
  uint64_t seed = 0;
  const char *sp = strstr(setup, "\nseed ");
  if (sp) seed = strtoull(sp + 6, NULL, 10);
  else if (!strncmp(setup, "seed ", 5)) seed = strtoull(setup + 5, NULL, 10);
  rlog_header h = {.setup_text = setup,
                   .cards_yaml = hc->cards ? buf_str(&cards) : NULL,
                   .origin = buf_str(&origin),
                   .seed = seed,
                   .pool_hash = mtg_pool_hash(hc->pool ? hc->pool : pool)};
  mtg_error err;
  if (rlog_writer_open(&r->w, r->path, &h, &err)) {
    buf_printf(note, "--record: %s: %s\n", r->path, err.msg);
    free(r);
    r = NULL;
  }
  free(setup);
  buf_free(&cards);
  buf_free(&origin);
  return r;
}

void record_close(hrecord *r, mtg_game *g, buf *note) {
  if (!r) return;
  mtg_error err;
  if (rlog_writer_sync(r->w, g, &err) | rlog_writer_close(r->w, g, &err))
    buf_printf(note, "--record: %s: %s\n", r->path, err.msg);
  free(r);
}

#endif
