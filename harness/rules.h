/* rules: the rules index (cases/rules.yaml, compiled in as rules_index.c):
 * looking up rule numbers, "subrule of" selection, nearest-number suggestions
 * and the older (seed) numbers that now mean a current rule. */
#ifndef HARNESS_RULES_H
#define HARNESS_RULES_H

#include <stddef.h>

#include "mtg.h"

typedef struct rule_entry {
  const char *num;     /* "603.4", "704.5g", or a section "603" */
  const char *title;   /* first sentence of the rule's text */
  const char *aliases; /* seed numbers now meaning this rule, ","-separated */
  unsigned char core;  /* in one of the six core sections */
} rule_entry;

typedef struct rule_removed {
  const char *alias, *note;
} rule_removed;

/* generated tables (rules_index.c); rules_table is in document order */
extern const char rules_effective[];
extern const rule_entry rules_table[];
extern const int rules_count;
extern const unsigned short rules_sorted[];
extern const rule_removed rules_removed[];
extern const int rules_removed_count;

/* Index of an exact rule number, or -1. */
int rules_find(const char *num);
/* 1 if rule `num` is `sel` or one of its subrules ("603" covers "603.4" and
 * "603.6a", not "6031"; "603.1" covers "603.1a", not "603.10"). */
int rules_is_under(const char *num, const char *sel);
/* Up to three nearest rule numbers, ", "-joined, for "did you mean". */
void rules_suggest(const char *num, char *out, size_t size);
/* The current rules a seed number stands for; returns how many (<= max). */
int rules_alias(const char *seed, int *idx, int max);
/* Why a seed number has no current rule, or NULL. */
const char *rules_removed_note(const char *seed);
/* Compares a rules.yaml file with the compiled-in index; 0 when they agree,
 * else -1 with err located at the first difference. */
int rules_check_file(const char *path, mtg_error *err);

#endif
