/* report: text, TAP, JUnit XML and JSON-lines output (see report.h). */
#include "report.h"

#include <stdio.h>
#include <string.h>

#include "html.h"


static const char *const format_names[FMT_COUNT] = {"text", "tap", "tap14", "junit", "junit-strict", "json", "html", "markdown"};

const char *report_format_name(int format) { return format >= 0 && format < FMT_COUNT ? format_names[format] : "?"; }

int report_format_parse(const char *name) {
  for (int i = 0; i < FMT_COUNT; i++)
    if (!strcmp(format_names[i], name)) return i;
  return -1;
}

/* An input error: found loading the case, or by running it (--strict). */
static int is_input(const hrun_item *it) { return it->err || (it->r && it->r->f.failed && it->r->f.kind == HF_INPUT); }

hsummary report_summary(const hrun_item *it, int n) {
  hsummary s = {0};
  for (int i = 0; i < n; i++) switch (it[i].verdict) {
    case V_PASS: s.passed++; break;
    case V_FAIL: s.failed++; break;
    case V_SKIP: s.skipped++; break;
    case V_XFAIL: s.skipped++; s.xfail++; break;
    /* an unexpected pass fails the ratchet: counted once, as failed */
    case V_XPASS: s.failed++; s.xpass++; break;
    case V_ERROR: s.failed++; s.errors++; s.input_errors += is_input(&it[i]); break;
    }
  return s;
}

static const char *const stale = "passes, but is listed as a known failure";

void report_item_name(const hrun_item *it, char *out, size_t size) {
  if (it->hc && it->hc->id) snprintf(out, size, "%s", it->hc->id);
  else snprintf(out, size, "%s:%d", report_item_file(it), report_item_line(it));
}

const char *report_item_file(const hrun_item *it) { return it->hc ? it->hc->file->path : it->file; }

int report_item_line(const hrun_item *it) {
  if (it->err) return it->err->line;
  if (it->r && it->r->f.failed && it->r->f.line) return it->r->f.line;
  return it->hc->line;
}

static int item_column(const hrun_item *it) { return it->err && it->err->col > 0 ? it->err->col : 0; }

void report_item_message(const hrun_item *it, buf *out) {
  if (it->err) {
    const mtg_error *e = it->err;
    /* one line: file:line:col: message, without the source line and caret */
    if (e->file[0] && e->line > 0) buf_printf(out, "%s:%d:%d: ", e->file, e->line, e->col > 0 ? e->col : 1);
    else if (e->file[0]) buf_printf(out, "%s: ", e->file);
    buf_puts(out, e->msg);
  } else if (it->verdict == V_XPASS) {
    buf_puts(out, stale);
  } else if (it->r && it->r->f.failed) {
    buf_puts(out, buf_str(&it->r->f.summary));
  }
}

void report_item_detail(const hrun_item *it, buf *b) {
  if (it->err) {
    char msg[2048];
    error_format(it->err, msg, sizeof msg);
    buf_printf(b, "%s\n", msg);
    return;
  }
  const hcase *hc = it->hc;
  const hresult *r = it->r;
  if (!r || !r->f.failed) {
    if (it->verdict == V_XPASS) buf_printf(b, "%s\n", stale);
    return;
  }
  buf_printf(b, "%s:%d: %s\n", hc->file->path, r->f.line ? r->f.line : hc->line, buf_str(&r->f.summary));
  const char *detail = buf_str(&r->f.detail);
  /* the detail starts with the summary line again: skip it */
  const char *nl = strchr(detail, '\n');
  if (nl && !strncmp(detail, buf_str(&r->f.summary), (size_t)(nl - detail))) detail = nl + 1;
  buf_puts(b, detail);
  if (r->state.len) {
    buf_puts(b, "state differences:\n");
    buf_indent(b, buf_str(&r->state), "  ");
  }
  if (r->note.len) buf_puts(b, buf_str(&r->note));
}

static const char *verdict_word(int v) {
  static const char *const w[] = {"pass", "fail", "skip", "xfail", "xpass", "error"};
  return w[v];
}

static void rules_list(buf *b, const hcase *hc, const char *sep) {
  for (int i = 0; hc && i < hc->nrules; i++) buf_printf(b, "%s%s", i ? sep : "", hc->rules[i]);
}

/* ---- text ---- */

static void tag(buf *out, const report_opts *o, int v) {
  static const char *const word[] = {"PASS ", "FAIL ", "SKIP ", "XFAIL", "XPASS", "ERROR"};
  static const char *const colour[] = {"32", "31", "33", "33", "31", "31"};
  if (o->color) buf_printf(out, "\033[%sm%s\033[0m", colour[v], word[v]);
  else buf_puts(out, word[v]);
}

static int not_passed(int v) { return v == V_FAIL || v == V_XPASS || v == V_ERROR; }

void report_text_item(buf *out, const report_opts *o, const hrun_item *it) {
  const hcase *hc = it->hc;
  const hresult *r = it->r;
  int v = it->verdict;
  if (o->quiet && !not_passed(v)) return;
  char name[300];
  report_item_name(it, name, sizeof name);
  tag(out, o, v);
  buf_puts(out, " ");
  buf_esc(out, name);
  buf_puts(out, " (");
  buf_esc(out, report_item_file(it));
  buf_printf(out, ":%d)", it->err ? it->err->line : hc->line);
  if (v == V_SKIP) {
    buf_puts(out, " todo: ");
    buf_esc(out, hc->reason);
  }
  if (v == V_XFAIL) buf_puts(out, " known failure");
  if (v == V_XPASS) buf_printf(out, " %s", stale);
  if (v == V_ERROR) buf_puts(out, is_input(it) ? " input error" : " script error");
  buf_puts(out, "\n");
  if (v == V_FAIL || (v == V_ERROR && r)) {
    buf_puts(out, "      rules ");
    rules_list(out, hc, ", ");
    buf_puts(out, "; ");
    buf_esc(out, hc->title);
    buf_puts(out, "\n");
  }
  if (v == V_FAIL || v == V_ERROR) {
    buf d = {0};
    report_item_detail(it, &d);
    buf_indent(out, buf_str(&d), "      ");
    buf_free(&d);
  } else if (r && r->note.len) {
    buf_indent(out, buf_str(&r->note), "      ");
  }
  if (o->verbose && r && r->log.len) {
    buf_puts(out, "      event log:\n");
    buf_indent(out, buf_str(&r->log), "        ");
  }
}

void report_text_missed(buf *out, const report_opts *o, const hrun_item *it) {
  int v = it->verdict;
  if (!not_passed(v)) return;
  char name[300];
  report_item_name(it, name, sizeof name);
  buf m = {0};
  report_item_message(it, &m);
  buf_puts(out, "  ");
  tag(out, o, v);
  buf_puts(out, " ");
  buf_esc(out, name);
  buf_puts(out, "  ");
  if (!it->err) {
    buf_esc(out, report_item_file(it));
    buf_printf(out, ":%d: ", report_item_line(it));
  }
  buf_esc(out, buf_str(&m));
  buf_puts(out, "\n");
  buf_free(&m);
}

void report_text_end(buf *out, const hsummary *s, const char *missed) {
  /* what did not pass, one line each, so that it is the last thing read */
  if (s->failed) buf_printf(out, "did not pass:\n%s", missed);
  if (s->errors)
    buf_printf(out, "errors: %d input, %d script (counted as failed)\n", s->input_errors, s->errors - s->input_errors);
  if (s->xfail || s->xpass)
    buf_printf(out, "known failures: %d still failing (counted as skipped), %d now passing (counted as failed)\n", s->xfail,
               s->xpass);
  buf_printf(out, "%d passed, %d failed, %d skipped\n", s->passed, s->failed, s->skipped);
}

static void write_text(buf *out, const report_opts *o, const hrun_item *it, int n) {
  buf missed = {0};
  for (int i = 0; i < n; i++) {
    report_text_item(out, o, &it[i]);
    report_text_missed(&missed, o, &it[i]);
  }
  hsummary s = report_summary(it, n);
  report_text_end(out, &s, buf_str(&missed));
  out->oom |= missed.oom;
  buf_free(&missed);
}

/* ---- TAP ---- */

static void yaml_block(buf *out, const char *key, const char *text) {
  buf_printf(out, "  %s: |\n", key);
  buf_indent(out, text, "    ");
}

static void write_tap(buf *out, const report_opts *o, const hrun_item *it, int n) {
  buf_printf(out, "TAP version %d\n1..%d\n", o->format == FMT_TAP14 ? 14 : 13, n);
  for (int i = 0; i < n; i++) {
    const hcase *hc = it[i].hc;
    const hresult *r = it[i].r;
    int v = it[i].verdict;
    char name[300];
    report_item_name(&it[i], name, sizeof name);
    buf_printf(out, "%s %d - ", v == V_PASS || v == V_SKIP ? "ok" : "not ok", i + 1);
    buf_esc(out, name);
    if (v == V_SKIP) {
      buf_puts(out, " # SKIP todo: ");
      buf_esc(out, hc->reason);
    }
    if (v == V_XFAIL) buf_puts(out, " # TODO known failure");
    buf_puts(out, "\n");
    if (v == V_FAIL || v == V_XPASS || v == V_XFAIL || v == V_ERROR) {
      buf m = {0};
      report_item_message(&it[i], &m);
      buf_puts(out, "  ---\n  message: ");
      buf_yaml(out, buf_str(&m));
      buf_free(&m);
      buf_puts(out, "\n  severity: ");
      buf_puts(out, v == V_XFAIL ? "todo" : v == V_ERROR ? "error" : "fail");
      if (v == V_ERROR) buf_puts(out, is_input(&it[i]) ? "\n  error: input" : "\n  error: script");
      buf_puts(out, "\n  file: ");
      buf_yaml(out, report_item_file(&it[i]));
      buf_printf(out, "\n  line: %d\n", report_item_line(&it[i]));
      if (item_column(&it[i])) buf_printf(out, "  column: %d\n", item_column(&it[i]));
      if (hc) {
        buf_printf(out, "  case_line: %d\n  rules: [", hc->line);
        for (int k = 0; k < hc->nrules; k++) {
          buf_puts(out, k ? ", " : "");
          buf_yaml(out, hc->rules[k]);
        }
        buf_puts(out, "]\n");
      }
      if (r && r->f.expected.len) {
        buf_puts(out, "  expected: ");
        buf_yaml(out, buf_str(&r->f.expected));
        buf_puts(out, "\n  actual: ");
        buf_yaml(out, buf_str(&r->f.actual));
        buf_puts(out, "\n");
      }
      if (v != V_XPASS) {
        buf d = {0};
        report_item_detail(&it[i], &d);
        yaml_block(out, "detail", buf_str(&d));
        buf_free(&d);
      }
      buf_puts(out, "  ...\n");
    }
    if (o->verbose && r && r->log.len) buf_indent(out, buf_str(&r->log), "# ");
  }
}

/* ---- JUnit ---- */

/* The testsuite of an item: the section of its first rule, or "input" for
 * an input error whose rules could not be read. */
static void section_of(const hrun_item *it, char sec[8]) {
  if (it->hc && it->hc->nrules) snprintf(sec, 8, "%.3s", it->hc->rules[0]);
  else snprintf(sec, 8, "%s", it->err ? "input" : "none");
}

static void junit_case(buf *out, const report_opts *o, const hrun_item *it, const char *sec) {
  const hcase *hc = it->hc;
  const hresult *r = it->r;
  int strict = o->format == FMT_JUNIT_STRICT;
  char name[300];
  report_item_name(it, name, sizeof name);
  buf_puts(out, "    <testcase name=\"");
  buf_xml(out, name);
  buf_printf(out, "\" classname=\"rules.%s\"", sec);
  if (!strict) {
    /* file and line are extensions (GitLab and others read them); line: the
     * first failing expectation, where the reader has to look */
    buf_puts(out, " file=\"");
    buf_xml(out, report_item_file(it));
    buf_printf(out, "\" line=\"%d\"", report_item_line(it));
  }
  buf_printf(out, " time=\"%.6f\">\n", r ? r->seconds : 0.0);
  if (!strict && hc) {
    buf_puts(out, "      <properties><property name=\"rules\" value=\"");
    buf r2 = {0};
    rules_list(&r2, hc, " ");
    buf_xml(out, buf_str(&r2));
    buf_free(&r2);
    buf_puts(out, "\"/><property name=\"title\" value=\"");
    buf_xml(out, hc->title ? hc->title : "");
    buf_puts(out, "\"/></properties>\n");
  }
  int v = it->verdict;
  if (v == V_FAIL || v == V_XPASS || v == V_ERROR) {
    const char *el = v == V_ERROR ? "error" : "failure";
    buf m = {0}, d = {0};
    report_item_message(it, &m);
    report_item_detail(it, &d);
    buf_printf(out, "      <%s message=\"", el);
    buf_xml(out, buf_str(&m));
    buf_printf(out, "\" type=\"%s\">", v != V_ERROR ? "expectation" : is_input(it) ? "input" : "script");
    if (strict) {
      /* no file or line attributes in the schema: say where in the text */
      buf_printf(out, "%s:%d\n", report_item_file(it), report_item_line(it));
    }
    if (v != V_XPASS) buf_xml_text(out, buf_str(&d), 0);
    buf_printf(out, "</%s>\n", el);
    buf_free(&m);
    buf_free(&d);
  } else if (v == V_SKIP || v == V_XFAIL) {
    buf_puts(out, "      <skipped message=\"");
    buf_xml(out, v == V_SKIP ? hc->reason : "known failure");
    buf_puts(out, "\"/>\n");
  }
  if (o->verbose && r && r->log.len) {
    buf_puts(out, "      <system-out>");
    buf_xml_text(out, buf_str(&r->log), 0);
    buf_puts(out, "</system-out>\n");
  }
  buf_puts(out, "    </testcase>\n");
}

static void write_junit(buf *out, const report_opts *o, const hrun_item *it, int n) {
  hsummary s = report_summary(it, n);
  int strict = o->format == FMT_JUNIT_STRICT;
  double total = 0;
  for (int i = 0; i < n; i++) total += it[i].r ? it[i].r->seconds : 0;
  buf_printf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  buf_printf(out, "<testsuites name=\"arbiter conformance\" tests=\"%d\" failures=\"%d\" errors=\"%d\"", n,
             s.failed - s.errors, s.errors);
  if (!strict) buf_printf(out, " skipped=\"%d\"", s.skipped);
  buf_printf(out, " time=\"%.6f\">\n", total);
  /* one testsuite per rule section, in order of first appearance */
  char done[256][8];
  int ndone = 0;
  for (int i = 0; i < n; i++) {
    char sec[8];
    section_of(&it[i], sec);
    int seen = 0;
    for (int k = 0; k < ndone; k++) seen |= !strcmp(done[k], sec);
    if (seen) continue;
    if (ndone < 256) strcpy(done[ndone++], sec);
    int tests = 0, fails = 0, errors = 0, skips = 0;
    double t = 0;
    for (int j = i; j < n; j++) {
      char s2[8];
      section_of(&it[j], s2);
      if (strcmp(s2, sec)) continue;
      int v = it[j].verdict;
      tests++;
      t += it[j].r ? it[j].r->seconds : 0;
      fails += v == V_FAIL || v == V_XPASS;
      errors += v == V_ERROR;
      skips += v == V_SKIP || v == V_XFAIL;
    }
    buf_printf(out, "  <testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%.6f\">\n",
               sec, tests, fails, errors, skips, t);
    for (int j = i; j < n; j++) {
      char s2[8];
      section_of(&it[j], s2);
      if (!strcmp(s2, sec)) junit_case(out, o, &it[j], sec);
    }
    buf_puts(out, "  </testsuite>\n");
  }
  buf_puts(out, "</testsuites>\n");
}

/* ---- JSON lines ---- */

static void write_json(buf *out, const report_opts *o, const hrun_item *it, int n) {
  for (int i = 0; i < n; i++) {
    const hcase *hc = it[i].hc;
    const hresult *r = it[i].r;
    int v = it[i].verdict;
    char name[300];
    report_item_name(&it[i], name, sizeof name);
    buf_puts(out, "{\"id\":");
    buf_json(out, name);
    buf_puts(out, ",\"file\":");
    buf_json(out, report_item_file(&it[i]));
    buf_printf(out, ",\"line\":%d,\"rules\":[", it[i].err ? it[i].err->line : hc->line);
    for (int k = 0; hc && k < hc->nrules; k++) {
      buf_puts(out, k ? "," : "");
      buf_json(out, hc->rules[k]);
    }
    buf_printf(out, "],\"status\":\"%s\",", verdict_word(v));
    if (v == V_ERROR) buf_printf(out, "\"error\":\"%s\",", is_input(&it[i]) ? "input" : "script");
    buf_printf(out, "\"duration\":%.6f,\"title\":", r ? r->seconds : 0.0);
    buf_json(out, hc && hc->title ? hc->title : "");
    if (v == V_SKIP) {
      buf_puts(out, ",\"reason\":");
      buf_json(out, hc->reason);
    }
    buf_puts(out, ",\"failure\":");
    if (v == V_FAIL || v == V_XFAIL || v == V_XPASS || v == V_ERROR) {
      buf m = {0};
      report_item_message(&it[i], &m);
      buf_puts(out, "{\"message\":");
      buf_json(out, buf_str(&m));
      buf_free(&m);
      buf_printf(out, ",\"line\":%d", report_item_line(&it[i]));
      if (item_column(&it[i])) buf_printf(out, ",\"column\":%d", item_column(&it[i]));
      buf_puts(out, ",\"expected\":");
      buf_json(out, r ? buf_str(&r->f.expected) : "");
      buf_puts(out, ",\"actual\":");
      buf_json(out, r ? buf_str(&r->f.actual) : "");
      buf_puts(out, ",\"state\":[");
      const char *s = r ? buf_str(&r->state) : "";
      for (int k = 0; *s; k++) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        char line[1200];
        snprintf(line, sizeof line, "%.*s", (int)len, s);
        buf_puts(out, k ? "," : "");
        buf_json(out, line);
        s += len + (nl ? 1 : 0);
      }
      buf_puts(out, "],\"detail\":");
      buf d = {0};
      if (v != V_XPASS) report_item_detail(&it[i], &d);
      buf_json(out, buf_str(&d));
      buf_free(&d);
      buf_puts(out, "}");
    } else {
      buf_puts(out, "null");
    }
    if (o->verbose && r) {
      buf_puts(out, ",\"log\":");
      buf_json(out, buf_str(&r->log));
    }
    buf_puts(out, "}\n");
  }
}

void report_write(buf *out, const report_opts *o, const hrun_item *it, int n) {
  switch (o->format) {
  case FMT_TAP:
  case FMT_TAP14: write_tap(out, o, it, n); break;
  case FMT_JUNIT:
  case FMT_JUNIT_STRICT: write_junit(out, o, it, n); break;
  case FMT_JSON: write_json(out, o, it, n); break;
  case FMT_HTML: html_write(out, it, n); break;
  case FMT_MARKDOWN: markdown_write(out, it, n); break;
  default: write_text(out, o, it, n); break;
  }
}
