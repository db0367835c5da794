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

void record_see(hrecord *r, const mtg_game *g) {
  (void)r;
  (void)g;
}

int record_close(hrecord *r, mtg_game *g, buf *note) {
  (void)r;
  (void)g;
  (void)note;
  return 0;
}

#else

#include "../tools/replaylog.h"

int record_available(void) { return 1; }

struct hrecord {
  rlog_writer *w;
  char path[4096];
};

/* DIR/<id>.gz; an id beginning with '.' has it written %2E, so that the file
 * is not hidden (directory walks skip dot files) and no two ids share a name
 * (ids use letters, digits, '-', '_' and '.' only). */
static int record_path(char *buf, size_t size, const char *dir, const char *id) {
  int n = snprintf(buf, size, "%s/%s%s.gz", dir, id[0] == '.' ? "%2E" : "", id + (id[0] == '.'));
  return n < 0 || (size_t)n >= size ? -1 : 0;
}

hrecord *record_open(const hcase *hc, const mtg_pool *pool, const char *dir, buf *note) {
  hrecord *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  if (record_path(r->path, sizeof r->path, dir, hc->id)) {
    buf_printf(note, "--record: %s/%s: the file name is too long\n", dir, hc->id);
    free(r);
    return NULL;
  }
  int need = mtg_setup_write(hc->setup, NULL, 0);
  char *setup = malloc((size_t)need + 1);
  buf origin = {0}, cites = {0};
  for (int i = 0; i < hc->nrules; i++) buf_printf(&cites, "%s%s", i ? " " : "", hc->rules[i]);
  /* no line number: adding a case to a file changes no other case's recording */
  buf_printf(&origin, "harness case %s (%s)", hc->id, hc->file->path);
  if (!setup) {
    buf_free(&origin);
    buf_free(&cites);
    free(r);
    return NULL;
  }
  mtg_setup_write(hc->setup, setup, (size_t)need + 1);
  uint64_t seed = 0;
  const char *sp = strstr(setup, "\nseed ");
  if (sp) seed = strtoull(sp + 6, NULL, 10);
  else if (!strncmp(setup, "seed ", 5)) seed = strtoull(setup + 5, NULL, 10);
  rlog_header h = {.setup_text = setup,
                   .pool = hc->pool ? hc->pool : pool,
                   .base = pool,
                   .origin = buf_str(&origin),
                   .cites = buf_str(&cites),
                   .seed = seed,
                   .partial = 1};
  mtg_error err;
  if (rlog_writer_open(&r->w, r->path, &h, &err)) {
    buf_printf(note, "--record: %s: %s\n", r->path, err.msg);
    free(r);
    r = NULL;
  }
  free(setup);
  buf_free(&origin);
  buf_free(&cites);
  return r;
}

void record_see(hrecord *r, const mtg_game *g) {
  mtg_error err;
  if (r && r->w) rlog_writer_see(r->w, g, &err);
}

int record_close(hrecord *r, mtg_game *g, buf *note) {
  if (!r) return 0;
  mtg_error err;
  int rc = 0;
  if (rlog_writer_sync(r->w, g, &err) | rlog_writer_close(r->w, g, &err)) {
    buf_printf(note, "--record: %s: %s\n", r->path, err.msg);
    rc = -1;
  }
  free(r);
  return rc;
}

#endif
