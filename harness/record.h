/* record: --record DIR, one replay file per case (DIR/<case id>.gz) written
 * with the replay tools' writer (tools/replaylog.h), so that a case's game
 * can be checked, dumped and compared with bin/replay. */
#ifndef HARNESS_RECORD_H
#define HARNESS_RECORD_H

#include "buf.h"
#include "caseload.h"

typedef struct hrecord hrecord;

/* 1 when this build has the replay writer. */
int record_available(void);

/* Opens the replay of the game just created from the case's setup; `pool` is
 * the pool the game uses. NULL (with a note) when the file can't be made. */
hrecord *record_open(const hcase *hc, const mtg_pool *pool, const char *dir, buf *note);
/* Notes the decision the game waits for (its options, the checkpoint due
 * there): call it before answering each decision. */
void record_see(hrecord *r, const mtg_game *g);
/* Writes the whole log and the trailer and closes the file: 0, or -1 with a
 * note. The writer drops what it writes from the game's log: call this after
 * the log was matched. */
int record_close(hrecord *r, mtg_game *g, buf *note);

#endif
