/* report: text, TAP 14, JUnit XML and JSON-lines output (see report.h). */
#include "report.h"

#include <stdio.h>
#include <string.h>

hsummary report_summary(const hrun_item *it, int n) {
  hsummary s = {0};
  for (int i = 0; i < n; i++) switch (it[i].verdict) {
    case V_PASS: s.passed++; break;
    case V_FAIL: s.failed++; break;
    case V_SKIP: s.skipped++; break;
    case V_XFAIL: s.skipped++; s.xfail++; break;
    /* an unexpected pass fails the ratchet: counted once, as failed */
    case V_XPASS: s.failed++; s.xpass++; break;
    }
  return s;
}

static const char *verdict_word(int v) {
  static const char *const w[] = {"pass", "fail", "skip", "xfail", "xpass"};
  return w[v];
}

static void rules_list(buf *b, const hcase *hc, const char *sep) {
  for (int i = 0; i < hc->nrules; i++) buf_printf(b, "%s%s", i ? sep : "", hc->rules[i]);
}

/* The full failure explanation: where, what, why, and the state diff. */
static void failure_text(buf *b, const hrun_item *it, const char *indent) {
  const hcase *hc = it->hc;
  const hresult *r = it->r;
  buf t = {0};
  buf_printf(&t, "%s:%d: %s\n", hc->file->path, r->f.line ? r->f.line : hc->line, buf_str(&r->f.summary));
  const char *detail = buf_str(&r->f.detail);
  /* the detail starts with the summary line again: skip it */
  const char *nl = strchr(detail, '\n');
  if (nl && !strncmp(detail, buf_str(&r->f.summary), (size_t)(nl - detail))) detail = nl + 1;
  buf_puts(&t, detail);
  if (r->state.len) {
    buf_puts(&t, "state differences:\n");
    buf_indent(&t, buf_str(&r->state), "  ");
  }
  if (r->note.len) buf_puts(&t, buf_str(&r->note));
  buf_indent(b, buf_str(&t), indent);
  buf_free(&t);
}

static void write_text(buf *out, const hrun_item *it, int n, int verbose) {
  for (int i = 0; i < n; i++) {
    const hcase *hc = it[i].hc;
    const hresult *r = it[i].r;
    static const char *const tag[] = {"PASS ", "FAIL ", "SKIP ", "XFAIL", "XPASS"};
    buf_printf(out, "%s %s (%s:%d)", tag[it[i].verdict], hc->id, hc->file->path, hc->line);
    if (it[i].verdict == V_SKIP) buf_printf(out, " todo: %s", hc->reason);
    if (it[i].verdict == V_XFAIL) buf_puts(out, " known failure");
    if (it[i].verdict == V_XPASS) buf_puts(out, " passes, but is listed as a known failure");
    buf_puts(out, "\n");
    if (it[i].verdict == V_FAIL) {
      buf_puts(out, "      rules ");
      rules_list(out, hc, ", ");
      buf_printf(out, "; %s\n", hc->title);
      failure_text(out, &it[i], "      ");
    } else if (r->note.len) {
      buf_indent(out, buf_str(&r->note), "      ");
    }
    if (verbose && r->log.len) {
      buf_puts(out, "      event log:\n");
      buf_indent(out, buf_str(&r->log), "        ");
    }
  }
  hsummary s = report_summary(it, n);
  if (s.xfail || s.xpass)
    buf_printf(out, "known failures: %d still failing (counted as skipped), %d now passing (counted as failed)\n", s.xfail,
               s.xpass);
  buf_printf(out, "%d passed, %d failed, %d skipped\n", s.passed, s.failed, s.skipped);
}

static void yaml_block(buf *out, const char *key, const char *text) {
  buf_printf(out, "  %s: |\n", key);
  buf_indent(out, text, "    ");
}

static void write_tap(buf *out, const hrun_item *it, int n, int verbose) {
  buf_printf(out, "TAP version 14\n1..%d\n", n);
  for (int i = 0; i < n; i++) {
    const hcase *hc = it[i].hc;
    const hresult *r = it[i].r;
    int v = it[i].verdict;
    buf_printf(out, "%s %d - %s", v == V_PASS || v == V_SKIP ? "ok" : "not ok", i + 1, hc->id);
    if (v == V_SKIP) buf_printf(out, " # SKIP todo: %s", hc->reason);
    if (v == V_XFAIL) buf_puts(out, " # TODO known failure");
    buf_puts(out, "\n");
    if (v == V_FAIL || v == V_XPASS || v == V_XFAIL) {
      buf_puts(out, "  ---\n  message: ");
      buf_yaml(out, v == V_XPASS ? "passes, but is listed as a known failure" : buf_str(&r->f.summary));
      buf_puts(out, "\n  severity: ");
      buf_puts(out, v == V_XFAIL ? "todo" : "fail");
      buf_puts(out, "\n  file: ");
      buf_yaml(out, hc->file->path);
      buf_printf(out, "\n  line: %d\n  case_line: %d\n  rules: [", r->f.line ? r->f.line : hc->line, hc->line);
      for (int k = 0; k < hc->nrules; k++) {
        buf_puts(out, k ? ", " : "");
        buf_yaml(out, hc->rules[k]);
      }
      buf_puts(out, "]\n");
      if (r->f.expected.len) {
        buf_puts(out, "  expected: ");
        buf_yaml(out, buf_str(&r->f.expected));
        buf_puts(out, "\n  actual: ");
        buf_yaml(out, buf_str(&r->f.actual));
        buf_puts(out, "\n");
      }
      if (v != V_XPASS) {
        buf d = {0};
        failure_text(&d, &it[i], "");
        yaml_block(out, "detail", buf_str(&d));
        buf_free(&d);
      }
      buf_puts(out, "  ...\n");
    }
    if (verbose && r->log.len) buf_indent(out, buf_str(&r->log), "# ");
  }
}

static void section_of(const hcase *hc, char sec[8]) {
  snprintf(sec, 8, "%.3s", hc->nrules ? hc->rules[0] : "none");
}

static void write_junit(buf *out, const hrun_item *it, int n, int verbose) {
  hsummary s = report_summary(it, n);
  double total = 0;
  for (int i = 0; i < n; i++) total += it[i].r->seconds;
  buf_printf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  buf_printf(out, "<testsuites name=\"arbiter conformance\" tests=\"%d\" failures=\"%d\" skipped=\"%d\" time=\"%.6f\">\n", n,
             s.failed, s.skipped, total);
  /* one testsuite per rule section, in order of first appearance */
  char done[256][8];
  int ndone = 0;
  for (int i = 0; i < n; i++) {
    char sec[8];
    section_of(it[i].hc, sec);
    int seen = 0;
    for (int k = 0; k < ndone; k++) seen |= !strcmp(done[k], sec);
    if (seen) continue;
    if (ndone < 256) strcpy(done[ndone++], sec);
    int tests = 0, fails = 0, skips = 0;
    double t = 0;
    for (int j = i; j < n; j++) {
      char s2[8];
      section_of(it[j].hc, s2);
      if (strcmp(s2, sec)) continue;
      tests++;
      t += it[j].r->seconds;
      fails += it[j].verdict == V_FAIL || it[j].verdict == V_XPASS;
      skips += it[j].verdict == V_SKIP || it[j].verdict == V_XFAIL;
    }
    buf_printf(out, "  <testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\" time=\"%.6f\">\n", sec,
               tests, fails, skips, t);
    for (int j = i; j < n; j++) {
      char s2[8];
      section_of(it[j].hc, s2);
      if (strcmp(s2, sec)) continue;
      const hcase *hc = it[j].hc;
      const hresult *r = it[j].r;
      buf_puts(out, "    <testcase name=\"");
      buf_xml(out, hc->id);
      buf_printf(out, "\" classname=\"rules.%s\" file=\"", sec);
      buf_xml(out, hc->file->path);
      buf_printf(out, "\" line=\"%d\" time=\"%.6f\">\n", hc->line, r->seconds);
      buf_puts(out, "      <properties><property name=\"rules\" value=\"");
      buf r2 = {0};
      rules_list(&r2, hc, " ");
      buf_xml(out, buf_str(&r2));
      buf_free(&r2);
      buf_puts(out, "\"/><property name=\"title\" value=\"");
      buf_xml(out, hc->title);
      buf_puts(out, "\"/></properties>\n");
      int v = it[j].verdict;
      if (v == V_FAIL || v == V_XPASS) {
        buf_puts(out, "      <failure message=\"");
        buf_xml(out, v == V_XPASS ? "passes, but is listed as a known failure" : buf_str(&r->f.summary));
        buf_puts(out, "\" type=\"expectation\">");
        buf d = {0};
        if (v == V_FAIL) failure_text(&d, &it[j], "");
        buf_xml_text(out, buf_str(&d), 0);
        buf_free(&d);
        buf_puts(out, "</failure>\n");
      } else if (v == V_SKIP || v == V_XFAIL) {
        buf_puts(out, "      <skipped message=\"");
        buf_xml(out, v == V_SKIP ? hc->reason : "known failure");
        buf_puts(out, "\"/>\n");
      }
      if (verbose && r->log.len) {
        buf_puts(out, "      <system-out>");
        buf_xml_text(out, buf_str(&r->log), 0);
        buf_puts(out, "</system-out>\n");
      }
      buf_puts(out, "    </testcase>\n");
    }
    buf_puts(out, "  </testsuite>\n");
  }
  buf_puts(out, "</testsuites>\n");
}

static void write_json(buf *out, const hrun_item *it, int n, int verbose) {
  for (int i = 0; i < n; i++) {
    const hcase *hc = it[i].hc;
    const hresult *r = it[i].r;
    int v = it[i].verdict;
    buf_puts(out, "{\"id\":");
    buf_json(out, hc->id);
    buf_puts(out, ",\"file\":");
    buf_json(out, hc->file->path);
    buf_printf(out, ",\"line\":%d,\"rules\":[", hc->line);
    for (int k = 0; k < hc->nrules; k++) {
      buf_puts(out, k ? "," : "");
      buf_json(out, hc->rules[k]);
    }
    buf_printf(out, "],\"status\":\"%s\",\"duration\":%.6f,\"title\":", verdict_word(v), r->seconds);
    buf_json(out, hc->title);
    if (v == V_SKIP) {
      buf_puts(out, ",\"reason\":");
      buf_json(out, hc->reason);
    }
    buf_puts(out, ",\"failure\":");
    if (v == V_FAIL || v == V_XFAIL || v == V_XPASS) {
      buf_puts(out, "{\"message\":");
      buf_json(out, v == V_XPASS ? "passes, but is listed as a known failure" : buf_str(&r->f.summary));
      buf_printf(out, ",\"line\":%d,\"expected\":", r->f.line ? r->f.line : hc->line);
      buf_json(out, buf_str(&r->f.expected));
      buf_puts(out, ",\"actual\":");
      buf_json(out, buf_str(&r->f.actual));
      buf_puts(out, ",\"state\":[");
      const char *s = buf_str(&r->state);
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
      if (v != V_XPASS) failure_text(&d, &it[i], "");
      buf_json(out, buf_str(&d));
      buf_free(&d);
      buf_puts(out, "}");
    } else {
      buf_puts(out, "null");
    }
    if (verbose) {
      buf_puts(out, ",\"log\":");
      buf_json(out, buf_str(&r->log));
    }
    buf_puts(out, "}\n");
  }
}

void report_write(buf *out, int format, const hrun_item *it, int n, int verbose) {
  switch (format) {
  case FMT_TAP: write_tap(out, it, n, verbose); break;
  case FMT_JUNIT: write_junit(out, it, n, verbose); break;
  case FMT_JSON: write_json(out, it, n, verbose); break;
  default: write_text(out, it, n, verbose); break;
  }
}
