/* impact.h - what an engine change does to recorded games, grouped by rule:
 * the replays checked (verify.h) that no longer check, each under every rule
 * its recording cites (a case's rules), or under the rule its first
 * differing line carries (rule=...), with the first difference (expected
 * and actual line, turn and step). Text for people, JSON for programs. */
#ifndef IMPACT_H
#define IMPACT_H

#include <stdio.h>

#include "verify.h"

typedef struct impact impact;

impact *impact_new(void);
void impact_free(impact *m);
/* Adds one replay's check; returns 0, or -1 when out of memory. */
int impact_add(impact *m, const char *path, const verify_report *r);
/* Writes the report: the number of replays checked and changed, then each
 * rule with its changed replays (rules in their number's order). */
void impact_text(FILE *f, const impact *m);
void impact_json(FILE *f, const impact *m);
/* How many of the replays added changed (did not check ok or open). */
int impact_changed(const impact *m);

#endif
