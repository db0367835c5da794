/* replaylog.h - the replay file: writing a game's log as a replay and reading
 * one back (the format is described in docs/replay-format.md).
 *
 * A replay is a gzip stream of text lines: a header (format version, engine
 * and rules versions, card-pool hash, seed, the setup in mtg_setup_write form,
 * extra card definitions), then every event and decision line of the game's
 * log in order, with state-hash checkpoints, and a trailer with counts and a
 * hash chain over all lines. Writers sync-flush the stream at every turn
 * boundary, so a file cut short by a crash still holds every complete turn.
 *
 * Errors are values: every function returns 0 or a negative status and fills
 * the caller's mtg_error. Besides the engine's statuses, readers use the
 * RLOG_E* codes below to tell damaged input apart from a divergent game. */
#ifndef REPLAYLOG_H
#define REPLAYLOG_H

#include <stdint.h>

#include "mtg.h"

#define RLOG_FORMAT_VERSION 1

enum {
  RLOG_ETRUNC = -100,   /* the compressed stream or the log ends early */
  RLOG_ECORRUPT = -101, /* damaged compressed data (zlib data or CRC error) */
  RLOG_EFORMAT = -102,  /* not a replay, or a malformed record */
  RLOG_EVERSION = -103, /* newer format version, or a different card pool */
};

/* What a writer records in the header. Strings are copied; NULL means absent. */
typedef struct rlog_header {
  const char *setup_text; /* the game's setup as written by mtg_setup_write */
  const char *cards_yaml; /* extra card definitions (YAML) loaded on top of the pool */
  const char *origin;     /* one line saying what produced the game, e.g. "selfplay seed=7 game=3" */
  uint64_t seed, pool_hash; /* the setup's seed; mtg_pool_hash of the pool the game used */
} rlog_header;

typedef struct rlog_writer rlog_writer;

/* Creates (or replaces) the file at path and writes the header. */
int rlog_writer_open(rlog_writer **w, const char *path, const rlog_header *h, mtg_error *err);

/* Appends the game's committed log entries not yet written, with a state-hash
 * checkpoint once per turn (call it after every decision for that), flushing
 * the stream at turn boundaries. Written entries are dropped from the game's
 * log (mtg_log_drop), so memory stays bounded however long the game runs; the
 * caller must not need them afterwards. */
int rlog_writer_sync(rlog_writer *w, mtg_game *g, mtg_error *err);

/* Writes the final entries, a final checkpoint and the trailer, closes the
 * file and frees w (always, even on error). g may be NULL when the game could
 * not be continued (an engine error): the file then ends with what was synced
 * and the trailer says the game was abandoned. */
int rlog_writer_close(rlog_writer *w, mtg_game *g, mtg_error *err);

#endif
