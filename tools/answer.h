/* answer.h - a recorded decision line read back as an answer to the decision
 * the engine waits for: the labels of its choices mapped to the options the
 * engine offers, numbers and divisions of damage parsed (docs/events.md,
 * "decide"). Used by the check and by re-recording. */
#ifndef ANSWER_H
#define ANSWER_H

#include "mtg.h"

/* What is wrong with a decision line as an answer. */
enum {
  ANSWER_OK = 0,
  ANSWER_NO_NUMBER,    /* a number decision without " value=N" */
  ANSWER_DIVISION,     /* a division of damage among other options */
  ANSWER_AMOUNT,       /* a malformed amount in a division */
  ANSWER_MORE,         /* a division among more options */
  ANSWER_NO_CHOICE,    /* a pick without " choice=" */
  ANSWER_NOT_AMONG,    /* a label that is not among the options */
  ANSWER_TWICE,        /* an option picked twice */
};

/* The line's text after "decide kind=K player=P" against decision d: fills
 * vals (room for d->n_options values, at least 1) and *n. On ANSWER_NOT_AMONG
 * *bad points at the label not found (up to " | " or the end). */
int answer_parse(const mtg_decision *d, const char *text, int *vals, int *n, const char **bad);

/* "options: A | B | ..." (or " none"), cut to size. */
void answer_options(const mtg_decision *d, char *buf, size_t size);

#endif
