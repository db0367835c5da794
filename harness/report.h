/* report: the output formats of a run: human text, TAP (version 13, or 14
 * on request; a YAML diagnostic block per failure), JUnit XML (a testsuite
 * per rule section; a strict variant that keeps to the JUnit schema Jenkins'
 * xunit plugin reads), JSON lines (one object per case), and the report page
 * and its Markdown summary (html.c). A run's items
 * are its cases' results and its input errors, in file order: a case file
 * with errors becomes one error item per error, and the other cases still
 * report. Output depends only on the cases and their results, never on
 * timing or thread count, except the durations that JUnit and JSON carry. */
#ifndef HARNESS_REPORT_H
#define HARNESS_REPORT_H

#include <stdio.h>

#include "buf.h"
#include "caseload.h"
#include "run.h"

enum { FMT_TEXT, FMT_TAP, FMT_TAP14, FMT_JUNIT, FMT_JUNIT_STRICT, FMT_JSON, FMT_HTML, FMT_MARKDOWN, FMT_COUNT };

/* The name of a format (--format NAME), and back (-1 if unknown). */
const char *report_format_name(int format);
int report_format_parse(const char *name);

/* What a case's result means for the run. */
enum {
  V_PASS,  /* passed */
  V_FAIL,  /* an expectation failed */
  V_SKIP,  /* a todo case: not run */
  V_XFAIL, /* failed, as the known-failures file expects */
  V_XPASS, /* passed, but listed as a known failure: the list is stale */
  V_ERROR  /* an input error, or a script error (the case can't be played as written) */
};

typedef struct hrun_item {
  const hcase *hc;      /* the case; NULL for an input error outside any case (a file that does not parse) */
  hresult *r;           /* the case's run; NULL for an input error (the case did not run) */
  const mtg_error *err; /* an input error, located; NULL for a run */
  const char *file;     /* the file of an input error outside any case */
  int verdict;
} hrun_item;

typedef struct hsummary {
  int passed, failed, skipped; /* failed: V_FAIL, V_XPASS and V_ERROR; skipped: V_SKIP and V_XFAIL */
  int xfail, xpass;
  int errors;                  /* V_ERROR: input and script errors */
  int input_errors;            /* the input errors among them */
} hsummary;

/* An --output: a file (or "-", standard output) and its format. */
typedef struct report_out {
  int format;
  const char *path;
} report_out;

typedef struct report_opts {
  int format;  /* FMT_* */
  int verbose; /* each case's event log too */
  int quiet;   /* text: only what did not pass, and the counts */
  int color;   /* text: ANSI colours (a terminal without NO_COLOR) */
} report_opts;

hsummary report_summary(const hrun_item *it, int n);
/* The item's name: the case id, or FILE:LINE for an input error outside a
 * case or in a case whose id could not be read. */
void report_item_name(const hrun_item *it, char *out, size_t size);
const char *report_item_file(const hrun_item *it);
/* The line an item points at: the input error's, the first failing
 * expectation's or action's, else the case's. */
int report_item_line(const hrun_item *it);
/* The one-line message of an item that did not pass ("" otherwise). */
void report_item_message(const hrun_item *it, buf *out);
/* The full explanation of an item that did not pass: where, what, why, and
 * for a failure the state differences; for an input error the located
 * message with its source line and a caret. */
void report_item_detail(const hrun_item *it, buf *out);
/* Writes the whole report of a run into out. */
void report_write(buf *out, const report_opts *o, const hrun_item *it, int n);
/* The text report a part at a time, for a run that writes it as it goes
 * (the same text as report_write): an item's entry; its line of the
 * did-not-pass summary (nothing if it passed); and the end, with those
 * lines (`missed`) and the counts. */
void report_text_item(buf *out, const report_opts *o, const hrun_item *it);
void report_text_missed(buf *out, const report_opts *o, const hrun_item *it);
void report_text_end(buf *out, const hsummary *s, const char *missed);


#endif
