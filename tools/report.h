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
void report_json(FILE *f, const char *path, const verify_report *r, const report_labels *l);

#endif
