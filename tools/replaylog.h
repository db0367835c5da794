/* replaylog.h - the replay file: writing a game's log as a replay and reading
 * one back (the format is described in docs/replay-format.md).
 *
 * A replay is a gzip stream of text lines: a header (format version, engine
 * and rules versions, seed, players, the setup in mtg_setup_write form and
 * the definition of every card the game used, each with its hash), then
 * every event and decision line of the game's log in order, with the options
 * offered at each decision and state-hash checkpoints, and a trailer with
 * counts and a hash chain over all lines.
 *
 * Errors are values: every function returns 0 or a negative status and fills
 * the caller's mtg_error. Besides the engine's statuses, readers use the
 * RLOG_E* codes below to tell damaged input apart from a divergent game. */
#ifndef REPLAYLOG_H
#define REPLAYLOG_H

#include <stddef.h>
#include <stdint.h>

#include "mtg.h"

#define RLOG_FORMAT_VERSION 2 /* written by default */
#define RLOG_FORMAT_OLDEST 1  /* the oldest version read */

/* Bounds on what a header holds; a file over them is refused, not loaded. */
#define RLOG_MAX_FIELDS 64          /* header lines besides the blocks */
#define RLOG_MAX_FIELD_LINE 4096    /* bytes in a header line */
#define RLOG_MAX_SETUP (1 << 20)    /* bytes of setup text */
#define RLOG_MAX_CARDS 4096         /* card definitions */
#define RLOG_MAX_CARD_TEXT (1 << 20) /* bytes of card definitions */
#define RLOG_MAX_CARD_BYTES (64 << 10) /* bytes of one card definition */
#define RLOG_MAX_CARDS_V1 (256 << 10) /* bytes of a version-1 cards block */
/* The deflate level of self-play's recordings (fast, a third larger than the
 * default 6 of the others); bin/replay rerecord writes a recording whose origin
 * is self-play at this level too, so that the same engine gives the same bytes. */
#define RLOG_SELFPLAY_LEVEL 3
/* The compressor's memory level (zlib's memLevel: a hash table of 2^(N+7)
 * entries) at RLOG_SELFPLAY_LEVEL: 6 takes 6% fewer instructions than zlib's
 * default 8 on self-play's game logs, and its output is no larger (a smaller
 * table stays in the cache and is cleared faster for each game); the other
 * levels keep 8, so that recordings written at them keep their bytes. */
#define RLOG_SELFPLAY_MEMLEVEL 6

enum {
  RLOG_ETRUNC = -100,   /* the compressed stream or the log ends early */
  RLOG_ECORRUPT = -101, /* damaged compressed data (zlib data or CRC error) */
  RLOG_EFORMAT = -102,  /* not a replay, or a malformed record */
  RLOG_EVERSION = -103, /* newer format version, or a different card pool */
  RLOG_ETAMPER = -104,  /* well formed, but a card definition or the setup does not match its recorded hash */
};

/* Memory a writer may use and leave for the next recording: its buffers and
 * its compressor, so that a thread recording game after game does not
 * allocate and free them (about 400 KiB) for each, which the C library gives
 * back to the system and the next game faults in again. One per thread: a
 * scratch serves one writer at a time. */
typedef struct rlog_scratch rlog_scratch;
rlog_scratch *rlog_scratch_new(void); /* NULL: out of memory */
void rlog_scratch_free(rlog_scratch *sc);

/* What a writer records in the header. Strings are copied; NULL means absent. */
typedef struct rlog_header {
  const char *setup_text; /* the game's setup as written by mtg_setup_write */
  const mtg_pool *pool;   /* the pool the game's setup was made with */
  const mtg_pool *base;   /* the card pool under it (pool, or a parent of pool); cards
                           * pool defines on top of base are recorded as "extra" */
  const char *origin;     /* one line saying what produced the game, e.g. "selfplay seed=7 game=3" */
  const char *cites;      /* the rules the game exercises, space-separated ("603.2 704.5a"), or NULL */
  uint64_t seed;          /* the setup's seed */
  int partial;            /* the recording may stop at a pending decision (a conformance case) */
  int version;            /* the format version to write: 0 (the current one), or 1, which
                           * records the pool's hash and extra cards as YAML text: */
  const char *cards_yaml; /*   version 1: extra card definitions loaded on top of the pool */
  int level;              /* deflate level 1-9; 0: 6. Self-play writes at 3: as fast as 1 on game
                           * logs, a third larger than 6, which takes twice as long */
  rlog_scratch *scratch;  /* memory to use (not owned), or NULL: the writer allocates its own */
} rlog_header;

typedef struct rlog_writer rlog_writer;

/* Starts a replay to be written at path. Nothing appears at path before
 * rlog_writer_close: the log goes to a temporary file beside it (created
 * new, never through a link), and the whole file replaces path at close. */
int rlog_writer_open(rlog_writer **w, const char *path, const rlog_header *h, mtg_error *err);

/* Notes the decision the game now waits for: the options it offers, the
 * state-hash checkpoint due there, the cards its options name. A writer
 * that keeps the game's log until the end (the harness) calls it before
 * answering each decision; rlog_writer_sync calls it too. */
int rlog_writer_see(rlog_writer *w, const mtg_game *g, mtg_error *err);

/* rlog_writer_see, then appends the game's committed log entries not yet
 * written, writing the temporary file out (as text) at turn boundaries; the
 * log is compressed once, at close, in one pass. Written entries are
 * dropped from the game's log (mtg_log_drop), so memory stays bounded
 * however long the game runs; the caller must not need them afterwards. */
int rlog_writer_sync(rlog_writer *w, mtg_game *g, mtg_error *err);

/* Writes the final entries, a final checkpoint and the trailer, puts the
 * header with the card definitions in front and moves the file to its path;
 * frees w (always, even on error). g may be NULL when the game could not be
 * continued (an engine error): the file then ends with what was synced and
 * the trailer says the game was abandoned. */
int rlog_writer_close(rlog_writer *w, mtg_game *g, mtg_error *err);

/* Stops writing: removes the temporary file and frees w; path is left as
 * it was. */
void rlog_writer_discard(rlog_writer *w);

/* ---- reading ---- */

#define RLOG_MAX_PLAYERS 4

/* A card definition a replay carries (version 2). */
typedef struct rlog_card {
  const char *name;   /* as the card line names it */
  int extra;          /* defined on top of the card pool (a case's own card), not from it */
  uint64_t hash;      /* FNV-1a 64 of text, as recorded (and verified when read) */
  const char *text;   /* the definition: YAML, a one-item list */
  size_t len;
  long line;          /* line of the file where text begins */
} rlog_card;

/* The header of a replay, as read. Strings belong to the reader. */
typedef struct rlog_info {
  int version;            /* format version */
  char engine[32];        /* MTG_VERSION of the recording engine */
  char rules[32];         /* MTG_RULES_EFFECTIVE of the recording engine */
  uint64_t seed;
  uint64_t pool_hash;     /* version 1: mtg_pool_hash of the pool the game used */
  const char *origin;     /* "" when absent */
  const char *cites;      /* the rules the game exercises, "" when absent */
  int nplayers;
  char players[RLOG_MAX_PLAYERS][32];
  int partial;            /* "until decision": may stop at a pending decision; version 1: -1 (unknown) */
  const char *setup_text; /* mtg_setup_write text */
  long setup_line;        /* line of the file where it begins */
  const char *cards_yaml; /* version 1: extra card definitions, "" when none */
  size_t cards_len;
  long cards_line;
  const rlog_card *cards; /* version 2: the definitions of the cards the game used */
  int ncards;
} rlog_info;

/* Kinds of record after the header. */
enum { RLOG_R_EVENT = 1, RLOG_R_DECISION, RLOG_R_CHECKPOINT, RLOG_R_OPTIONS, RLOG_R_END };

typedef struct rlog_record {
  int kind;
  const char *text; /* the whole line, NUL-terminated, valid until the next read */
  size_t len;
  long event;       /* log lines (events and decisions) up to and including this one */
  long decision;    /* decisions up to and including this one */
  long line;        /* line of the file */
} rlog_record;

typedef struct rlog_reader rlog_reader;

/* Card definitions whose text a reader has found to match their recorded
 * hash, kept from one replay to the next (one set per thread): most replays
 * of a corpus carry the same definitions, and a text equal byte for byte to
 * one whose hash was verified has that hash, so it is compared, not hashed
 * again. Its size is bounded (RLOG_KNOWN_TEXT bytes of text); when full, it
 * keeps what it holds. It also keeps the decompressor its readers take
 * files whole with (zlines_open_with), one reader at a time. */
#define RLOG_KNOWN_TEXT (1 << 20)
typedef struct rlog_known rlog_known;
rlog_known *rlog_known_new(void); /* NULL: out of memory */
void rlog_known_free(rlog_known *k);

/* Opens a replay and reads its header. A file that is not a replay, damaged
 * or cut short fails with RLOG_EFORMAT / RLOG_ECORRUPT / RLOG_ETRUNC; a newer
 * format version with RLOG_EVERSION, naming both versions. Card definitions
 * and the setup are checked against their hashes here (RLOG_EFORMAT, with the
 * line and the card's name). */
int rlog_reader_open(rlog_reader **r, const char *path, mtg_error *err);
/* The same, verifying card definitions with the help of known (may be NULL),
 * which the reader adds to; the result is the same as without it. */
int rlog_reader_open_known(rlog_reader **r, const char *path, rlog_known *known, mtg_error *err);
const rlog_info *rlog_reader_info(const rlog_reader *r);
/* The next record: returns 1, or 0 once the trailer has been read and the
 * stream has ended cleanly after it, or a negative status (a stream that ends
 * without a trailer is RLOG_ETRUNC). */
int rlog_reader_next(rlog_reader *r, rlog_record *rec, mtg_error *err);
/* Decompresses up to `limit` more bytes of text (0: no limit) to learn
 * whether the data is intact: 0 if the stream ends cleanly or the limit is
 * reached first, or the RLOG_ECORRUPT / RLOG_ETRUNC the stream holds. */
int rlog_reader_drain(rlog_reader *r, mtg_error *err);
int rlog_reader_drain_some(rlog_reader *r, uint64_t limit, mtg_error *err);
void rlog_reader_free(rlog_reader *r);

/* ---- records both sides build, so that they compare as text ---- */

#define RLOG_CHAIN_INIT 0xcbf29ce484222325ULL
/* The hash chain over log lines: FNV-1a continued over each line and its newline. */
uint64_t rlog_chain(uint64_t h, const char *line, size_t len);
/* FNV-1a 64 of a text (the hash of a card definition or of the setup). */
uint64_t rlog_text_hash(const char *text, size_t len);
/* "@checkpoint turn=.. step=.. event=.. decision=.. hash=.." for g as it stands
 * after `events` log lines of which `decisions` were decisions. */
void rlog_checkpoint_line(char *buf, size_t size, const mtg_game *g, long events, long decisions);
/* "@options n=.. hash=..": the options decision d offers (their number and a
 * hash of their labels that does not depend on their order, with the bounds of
 * the answer); buf[0] is 0 for decisions whose options are not recorded
 * (names: the pool's card names, which a replay does not carry). */
void rlog_options_line(char *buf, size_t size, const mtg_decision *d);
/* "@end events=.. decisions=.. checkpoints=.. status=.. chain=.."; status is
 * "over", "open" (closed while a decision was pending) or "abandoned". */
void rlog_trailer_line(char *buf, size_t size, long events, long decisions, long checkpoints,
                       const char *status, uint64_t chain);
/* Calls fn for each card name a log or setup line names: every quoted
 * string ("..." with \" and \\ escapes), and the choices of a name decision. */
void rlog_line_names(const char *line, void (*fn)(void *ctx, const char *name, size_t len), void *ctx);

#endif
