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

/* ---- reading ---- */

#define RLOG_MAX_PLAYERS 4

/* The header of a replay, as read. Strings belong to the reader. */
typedef struct rlog_info {
  int version;            /* format version */
  char engine[32];        /* MTG_VERSION of the recording engine */
  char rules[32];         /* MTG_RULES_EFFECTIVE of the recording engine */
  uint64_t pool_hash, seed;
  const char *origin;     /* "" when absent */
  int nplayers;
  char players[RLOG_MAX_PLAYERS][32];
  const char *setup_text; /* mtg_setup_write text */
  const char *cards_yaml; /* "" when the replay defines no extra cards */
  size_t cards_len;
} rlog_info;

/* Kinds of record after the header. */
enum { RLOG_R_EVENT = 1, RLOG_R_DECISION, RLOG_R_CHECKPOINT, RLOG_R_END };

typedef struct rlog_record {
  int kind;
  const char *text; /* the whole line, NUL-terminated, valid until the next read */
  size_t len;
  long event;       /* log lines (events and decisions) up to and including this one */
  long decision;    /* decisions up to and including this one */
} rlog_record;

typedef struct rlog_reader rlog_reader;

/* Opens a replay and reads its header. A file that is not a replay, damaged
 * or cut short fails with RLOG_EFORMAT / RLOG_ECORRUPT / RLOG_ETRUNC; a newer
 * format version with RLOG_EVERSION, naming both versions. */
int rlog_reader_open(rlog_reader **r, const char *path, mtg_error *err);
const rlog_info *rlog_reader_info(const rlog_reader *r);
/* The next record: returns 1, or 0 once the trailer has been read and the
 * stream has ended cleanly after it, or a negative status (a stream that ends
 * without a trailer is RLOG_ETRUNC). */
int rlog_reader_next(rlog_reader *r, rlog_record *rec, mtg_error *err);
/* Decompresses the rest of the file to learn whether its data is intact: 0,
 * or the RLOG_ECORRUPT / RLOG_ETRUNC the rest of the stream holds. */
int rlog_reader_drain(rlog_reader *r, mtg_error *err);
void rlog_reader_free(rlog_reader *r);

/* ---- records both sides build, so that they compare as text ---- */

#define RLOG_CHAIN_INIT 0xcbf29ce484222325ULL
/* The hash chain over log lines: FNV-1a continued over each line and its newline. */
uint64_t rlog_chain(uint64_t h, const char *line, size_t len);
/* "@checkpoint turn=.. step=.. event=.. decision=.. hash=.." for g as it stands
 * after `events` log lines of which `decisions` were decisions. */
void rlog_checkpoint_line(char *buf, size_t size, const mtg_game *g, long events, long decisions);
/* "@end events=.. decisions=.. checkpoints=.. status=.. chain=.."; status is
 * "over", "open" (closed while a decision was pending) or "abandoned". */
void rlog_trailer_line(char *buf, size_t size, long events, long decisions, long checkpoints,
                       const char *status, uint64_t chain);

#endif
