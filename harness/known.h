/* known: the known-failures ratchet. A file lists the ids of cases expected
 * to fail (one per line, '#' comments); a new failure or an unexpected pass
 * fails the run, and --update-known-failures rewrites the list sorted. */
#ifndef HARNESS_KNOWN_H
#define HARNESS_KNOWN_H

#include "report.h"

typedef struct hknown {
  char **ids;
  int n;
} hknown;

/* Reads the list; a missing file is an empty list. 0, or -1 with a message. */
int known_load(hknown *k, const char *path, char *why, size_t size);
int known_has(const hknown *k, const char *id);
void known_free(hknown *k);
/* Rewrites the file: the ids that failed in this run, plus listed ids of
 * cases this run did not select (they keep their entry). Sorted. */
int known_update(const hknown *k, const char *path, const hrun_item *it, int n, char *why, size_t size);

#endif
