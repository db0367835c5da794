/* match: what a case says against what the engine did. Object references
 * (card names, setup labels, exact labels "Name"#id), field patterns against
 * canonical log lines, the event-log expectations (ordered subsequence,
 * exact-sequence blocks, counts, absent events) and the final-state
 * expectations. Every failure is described so that a reader sees why without
 * rerunning the case. */
#ifndef HARNESS_MATCH_H
#define HARNESS_MATCH_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "caseload.h"

/* What a case run knows while matching: the game, and which physical card
 * each object id was (ids change with zones, 400.7; labels name cards). */
typedef struct hctx {
  const hcase *hc;
  mtg_game *g;
  int *card_of;      /* card_of[id] = card + 1, 0 if unknown */
  uint32_t ncard_of;
  uint64_t *live;    /* ctx_note_log's scratch: bit id set while object id exists with a card */
  uint32_t nlive;    /* words of live, all 0 between calls */
} hctx;

void ctx_free(hctx *x);
/* Records the card of every object that exists now (stack included). */
void ctx_note_ids(hctx *x);
/* Learns the card of ids that existed only between two decisions (an object
 * that changed zones again before ctx_note_ids saw it) from the log lines
 * naming an object and its new id (obj=O new=#N). */
void ctx_note_log(hctx *x);
/* The stable card id of object `id` (live or seen before), or -1. */
int ctx_card(hctx *x, uint32_t id);
/* Does `spec` (a card name, a label or an exact "Name"#id text) name object
 * `id`, whose name is `name`? */
int ref_matches(hctx *x, uint32_t id, const char *name, const char *spec);
/* Does the pattern text match the field value v[0..n)? Object references
 * inside the value match their exact text, their name or their card's label. */
int value_matches(hctx *x, const char *pattern, const char *v, size_t n);
/* The elements of a list value ("a,b" or "a | b"), matched one by one. */
int list_matches(hctx *x, const char *const *pats, int npats, const char *v, size_t n);

/* A failure: a one-line summary, where in the case file it comes from, the
 * expected and closest actual text, and a detailed explanation. */
/* What a failure is: an expectation that does not hold; a script error (the
 * case can't be played as written); an input error found by running (with
 * --strict, a listed rule nothing in the case checks). */
enum { HF_EXPECT, HF_SCRIPT, HF_INPUT };

typedef struct hfail {
  int failed;
  int kind;          /* HF_EXPECT, HF_SCRIPT or HF_INPUT */
  int line;          /* case-file line of the failing expectation or action */
  buf summary, expected, actual, detail;
} hfail;

void hfail_free(hfail *f);

/* Checks the events, count and absent expectations against the log; on the
 * first failure fills f and returns -1. */
int match_events(hctx *x, hfail *f);
/* Checks every state expectation; mismatches are appended to diff (one line
 * each) and the count is returned. The first one's line goes to *first_line. */
int match_state(hctx *x, buf *diff, int *first_line);

/* The end of the quoted string starting at q (which is '"'), up to e (NULL:
 * the end of the string): just past its closing quote, a backslash escaping
 * the character after it (names in log lines are written so, engine/log.c);
 * the end if it is not closed. */
const char *quoted_end(const char *q, const char *e);

/* A field of a log line ("targets" of a cast line, ...); returns its value
 * and length, or NULL. Quoted names are skipped whole, escapes included, so
 * that no text inside a name is taken for a field. */
const char *log_field(const char *line, const char *key, size_t *len);

#endif
