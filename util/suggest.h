/* suggest: "did you mean ...?" by edit distance, for keys, card names, rule numbers. */
#ifndef SUGGEST_H
#define SUGGEST_H
#include <stddef.h>

/* Optimal string alignment distance, case-insensitive. */
int suggest_distance(const char *a, const char *b);
/* The closest of words[0..n) (n < 0: NULL-terminated) to s, or NULL if none is
 * close enough to be a plausible misspelling. */
const char *suggest_best(const char *s, const char *const *words, int n);
/* The up to k closest words (closest first) into out; returns how many. */
int suggest_nearest(const char *s, const char *const *words, int n, const char **out, int k);
/* Joins words with ", " into buf (truncating with "..."). */
void suggest_join(const char *const *words, int n, char *buf, size_t size);
#endif
