/* record: replay files for --record (see record.h). The replay writer
 * belongs to the replay tools; until tools/replaylog.h exists, recording
 * reports that it is unavailable. */
#include "record.h"

#include <stdlib.h>

struct hrecord {
  int unused;
};

hrecord *record_open(const hcase *hc, mtg_game *g, const char *dir, buf *note) {
  (void)hc;
  (void)g;
  buf_printf(note, "--record %s: the replay writer (tools/replaylog.h) is not available in this build\n", dir);
  return NULL;
}

void record_sync(hrecord *r, mtg_game *g) {
  (void)r;
  (void)g;
}

void record_close(hrecord *r, mtg_game *g, buf *note) {
  (void)g;
  (void)note;
  free(r);
}
