/* record: --record DIR, one replay file per case written through the replay
 * tools' writer (tools/replaylog.h), so that a case can be replayed and
 * checked outside the harness. */
#ifndef HARNESS_RECORD_H
#define HARNESS_RECORD_H

#include "buf.h"
#include "caseload.h"

typedef struct hrecord hrecord;

/* Opens DIR/<case id>.replay.gz for the game just created; NULL (with a note)
 * when recording is not possible. */
hrecord *record_open(const hcase *hc, mtg_game *g, const char *dir, buf *note);
void record_sync(hrecord *r, mtg_game *g);
void record_close(hrecord *r, mtg_game *g, buf *note);

#endif
