/* report: the output formats of a run: human text, TAP version 14 (a YAML
 * diagnostic block per failure), JUnit XML (a testsuite per rule section)
 * and JSON lines (one object per case). Output depends only on the cases and
 * their results, never on timing or thread count, except the durations that
 * JUnit and JSON carry. */
#ifndef HARNESS_REPORT_H
#define HARNESS_REPORT_H

#include "buf.h"
#include "caseload.h"
#include "run.h"

enum { FMT_TEXT, FMT_TAP, FMT_JUNIT, FMT_JSON };

/* What a case's result means for the run. */
enum {
  V_PASS,  /* passed */
  V_FAIL,  /* failed */
  V_SKIP,  /* a todo case: not run */
  V_XFAIL, /* failed, as the known-failures file expects */
  V_XPASS  /* passed, but listed as a known failure: the list is stale */
};

typedef struct hrun_item {
  const hcase *hc;
  hresult *r;
  int verdict;
} hrun_item;

typedef struct hsummary {
  int passed, failed, skipped; /* failed: V_FAIL and V_XPASS; skipped: V_SKIP and V_XFAIL */
  int xfail, xpass;
} hsummary;

hsummary report_summary(const hrun_item *it, int n);
/* Writes the whole report of a run in `format` into out. */
void report_write(buf *out, int format, const hrun_item *it, int n, int verbose);

#endif
