/* report.c - check and diff results as text or JSON (see report.h). */
#include "report.h"

#include <string.h>

static const char *outcome_name(int outcome) {
  return outcome == VERIFY_OK ? "ok" : outcome == VERIFY_DIVERGED ? "divergence" : "unreadable";
}

/* The length of the valid UTF-8 sequence at s, or 0 if it is not one. */
static int utf8_len(const unsigned char *s) {
  int n = s[0] >= 0xc2 && s[0] < 0xe0 ? 2 : s[0] >= 0xe0 && s[0] < 0xf0 ? 3 : s[0] >= 0xf0 && s[0] < 0xf5 ? 4 : 0;
  for (int i = 1; i < n; i++)
    if ((s[i] & 0xc0) != 0x80) return 0;
  return n;
}

/* Text for a terminal: control bytes and bytes that are not UTF-8 (damaged
 * input can put anything in a line) are shown as '?'. */
static void text_out(FILE *f, const char *s) {
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    int n = *p < 0x80 ? 1 : utf8_len(p);
    if (n == 1 && (*p >= 0x20 && *p != 0x7f)) fputc(*p, f);
    else if (n > 1) {
      fwrite(p, 1, (size_t)n, f);
      p += n - 1;
    } else
      fputc(*p == '\n' ? '\n' : '?', f);
  }
}

void report_text(FILE *f, const char *path, const verify_report *r, const report_labels *l) {
  text_out(f, path);
  if (r->outcome == VERIFY_OK) {
    fprintf(f, ": ok (%ld events, %ld decisions, %ld checkpoints%s)\n", r->events, r->decisions, r->checkpoints,
            strcmp(r->status, "abandoned") ? "" : "; the recording was abandoned");
    return;
  }
  fprintf(f, ": %s (%s): ", r->outcome == VERIFY_UNREADABLE ? "UNREADABLE" : "DIVERGENCE", r->kind);
  text_out(f, r->message);
  fputc('\n', f);
  if (r->outcome == VERIFY_UNREADABLE) return;
  if (r->event || r->decision) {
    fprintf(f, "  at event %ld, decision %ld, turn %d, step ", r->event, r->decision, r->turn);
    text_out(f, r->step);
    fputc('\n', f);
  }
  int w = (int)(strlen(l->expected) > strlen(l->actual) ? strlen(l->expected) : strlen(l->actual)) + 1;
  if (r->expected[0] || r->actual[0]) {
    fprintf(f, "  %-*s ", w, l->expected);
    text_out(f, r->expected);
    fprintf(f, "\n  %-*s ", w, l->actual);
    text_out(f, r->actual);
    fputc('\n', f);
  }
  if (r->ncontext) {
    fprintf(f, "  before it:\n");
    for (int i = 0; i < r->ncontext; i++) {
      fputs("    ", f);
      text_out(f, r->context[i]);
      fputc('\n', f);
    }
  }
}

/* A JSON string: escapes, and U+FFFD for bytes that are not UTF-8 (damaged
 * input can put anything in a line). */
static void json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
    else if (*p == '\n') fputs("\\n", f);
    else if (*p == '\t') fputs("\\t", f);
    else if (*p < 0x20 || *p == 0x7f) fprintf(f, "\\u%04x", *p);
    else if (*p < 0x80) fputc(*p, f);
    else {
      int n = utf8_len(p);
      if (!n) fputs("\\ufffd", f);
      else {
        fwrite(p, 1, (size_t)n, f);
        p += n - 1;
      }
    }
  }
  fputc('"', f);
}

static void json_field(FILE *f, const char *key, const char *value) {
  fprintf(f, ",\"%s\":", key);
  json_string(f, value);
}

void report_json(FILE *f, const char *path, const verify_report *r, const report_labels *l) {
  fputs("{\"file\":", f);
  json_string(f, path);
  json_field(f, "result", outcome_name(r->outcome));
  if (r->outcome != VERIFY_OK) {
    json_field(f, "kind", r->kind);
    json_field(f, "message", r->message);
  }
  if (r->outcome == VERIFY_DIVERGED) {
    fprintf(f, ",\"event\":%ld,\"decision\":%ld,\"turn\":%d", r->event, r->decision, r->turn);
    json_field(f, "step", r->step);
    json_field(f, "expected", r->expected);
    json_field(f, "actual", r->actual);
    json_field(f, "expected_from", l->expected);
    json_field(f, "actual_from", l->actual);
    fputs(",\"context\":[", f);
    for (int i = 0; i < r->ncontext; i++) {
      if (i) fputc(',', f);
      json_string(f, r->context[i]);
    }
    fputc(']', f);
  }
  fprintf(f, ",\"events\":%ld,\"decisions\":%ld,\"checkpoints\":%ld", r->events, r->decisions, r->checkpoints);
  if (r->status[0]) json_field(f, "status", r->status);
  fputs("}\n", f);
}
