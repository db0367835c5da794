/* report.h - printing check and diff results, as text for people or as one
 * JSON object per file for programs. */
#ifndef REPORT_H
#define REPORT_H

#include <stdio.h>

#include "verify.h"

typedef struct report_labels {
  const char *expected, *actual; /* "expected"/"actual" for check; the two paths for diff */
  const char *pool;              /* the pool cards are compared with (check), or NULL */
} report_labels;

void report_text(FILE *f, const char *path, const verify_report *r, const report_labels *l);
/* Text from input, for a terminal: control bytes and bytes that are not
 * UTF-8 shown as '?'. */
void report_text_out(FILE *f, const char *s);
/* A JSON string, quotes included: escapes, U+FFFD for bytes that are not UTF-8. */
void report_json_string(FILE *f, const char *s);
void report_json(FILE *f, const char *path, const verify_report *r, const report_labels *l);

#endif
