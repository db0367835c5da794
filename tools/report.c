/* report.c - check and diff results as text or JSON (see report.h). */
#include "report.h"

#include <string.h>

#include "escape.h"

/* Text for a terminal: control characters and bytes that are not UTF-8
 * (damaged input can put anything in a line) are shown escaped (util/escape.h). */
void report_text_out(FILE *f, const char *s) { escape_fwrite(f, s, strlen(s), 1); }

static void cards_text(FILE *f, const char *title, const verify_cards *c, const char *now) {
  if (!c->n) return;
  fprintf(f, "  %s:", title);
  for (int i = 0; i < c->n && i < VERIFY_LIST; i++) {
    fputs(i ? ", " : " ", f);
    report_text_out(f, c->name[i]);
    if (c->was[i][0] && now) fprintf(f, " (recorded %s, %s %s)", c->was[i], now, c->now[i][0] ? c->now[i] : "none");
  }
  if (c->n > VERIFY_LIST) fprintf(f, " and %d more", c->n - VERIFY_LIST);
  fputc('\n', f);
}

static void lines_text(FILE *f, const char *title, int n, const char (*lines)[VERIFY_TEXT]) {
  if (!n) return;
  fprintf(f, "  %s\n", title);
  for (int i = 0; i < n; i++) {
    fputs("    ", f);
    report_text_out(f, lines[i]);
    fputc('\n', f);
  }
}

void report_text(FILE *f, const char *path, const verify_report *r, const report_labels *l) {
  const char *pool = l->pool ? l->pool : "the pool";
  char title[256];
  report_text_out(f, path);
  if (r->outcome == VERIFY_OK || r->outcome == VERIFY_OPEN) {
    fprintf(f, ": %s (%ld events, %ld decisions, %ld checkpoints%s)\n", verify_outcome_name(r->outcome), r->events,
            r->decisions, r->checkpoints, r->outcome == VERIFY_OPEN ? "; recorded up to a pending decision, no result" : "");
  } else {
    static const char *const shout[VERIFY_OUTCOMES] = {"", "", "INCOMPLETE", "POOL-CHANGED", "DIVERGENCE", "UNREADABLE"};
    fprintf(f, ": %s (%s): ", shout[r->outcome], r->kind);
    report_text_out(f, r->message);
    fputc('\n', f);
  }
  if (r->outcome == VERIFY_DIVERGED) {
    if (r->event || r->decision) {
      fprintf(f, "  at event %ld, decision %ld, turn %d, step ", r->event, r->decision, r->turn);
      report_text_out(f, r->step);
      fputc('\n', f);
    }
    if (r->last_decision) {
      fprintf(f, "  after decision %ld: ", r->last_decision);
      report_text_out(f, r->last_decision_line);
      fputc('\n', f);
    }
    int w = (int)(strlen(l->expected) > strlen(l->actual) ? strlen(l->expected) : strlen(l->actual)) + 1;
    if (r->expected[0] || r->actual[0]) {
      fprintf(f, "  %-*s ", w, l->expected);
      report_text_out(f, r->expected);
      fprintf(f, "\n  %-*s ", w, l->actual);
      report_text_out(f, r->actual);
      fputc('\n', f);
    }
    lines_text(f, "before it:", r->ncontext, r->context);
    lines_text(f, "then recorded, not yet compared (an action in progress):", r->npending, r->pending);
  }
  /* a title is written only for a list that has cards: most reports have none */
  if (r->changed.n) {
    snprintf(title, sizeof title, "changed in %s", pool);
    cards_text(f, title, &r->changed, "now");
  }
  if (r->defines.n) {
    snprintf(title, sizeof title, "defines (not in %s)", pool);
    cards_text(f, title, &r->defines, NULL);
  }
  if (r->redefines.n) {
    snprintf(title, sizeof title, "redefines (defined otherwise in %s)", pool);
    cards_text(f, title, &r->redefines, "pool");
  }
  for (int i = 0; i < r->nnotes; i++) {
    fputs("  note: ", f);
    report_text_out(f, r->notes[i]);
    fputc('\n', f);
  }
}

/* A JSON string: escapes, and U+FFFD for bytes that are not UTF-8 (damaged
 * input can put anything in a line). */
void report_json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
    else if (*p == '\n') fputs("\\n", f);
    else if (*p == '\t') fputs("\\t", f);
    else if (*p < 0x20 || *p == 0x7f) fprintf(f, "\\u%04x", *p);
    else if (*p < 0x80) fputc(*p, f);
    else {
      int n = (int)escape_utf8_len((const char *)p, strlen((const char *)p));
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
  report_json_string(f, value);
}

static void json_strings(FILE *f, const char *key, int n, const char (*lines)[VERIFY_TEXT]) {
  fprintf(f, ",\"%s\":[", key);
  for (int i = 0; i < n; i++) {
    if (i) fputc(',', f);
    report_json_string(f, lines[i]);
  }
  fputc(']', f);
}

static void json_cards(FILE *f, const char *key, const verify_cards *c, const char *now) {
  if (!c->n) return;
  fprintf(f, ",\"%s\":[", key);
  for (int i = 0; i < c->n && i < VERIFY_LIST; i++) {
    fputs(i ? ",{" : "{", f);
    fputs("\"card\":", f);
    report_json_string(f, c->name[i]);
    json_field(f, "recorded", c->was[i]);
    if (now) json_field(f, now, c->now[i]);
    fputc('}', f);
  }
  fputc(']', f);
  if (c->n > VERIFY_LIST) fprintf(f, ",\"%s_more\":%d", key, c->n - VERIFY_LIST);
}

void report_json(FILE *f, const char *path, const verify_report *r, const report_labels *l) {
  fputs("{\"file\":", f);
  report_json_string(f, path);
  json_field(f, "result", verify_outcome_name(r->outcome));
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
    json_strings(f, "context", r->ncontext, r->context);
    if (r->npending) json_strings(f, "pending", r->npending, r->pending);
    if (r->last_decision) {
      fprintf(f, ",\"last_decision\":%ld", r->last_decision);
      json_field(f, "last_decision_line", r->last_decision_line);
    }
  }
  fprintf(f, ",\"events\":%ld,\"decisions\":%ld,\"checkpoints\":%ld", r->events, r->decisions, r->checkpoints);
  if (r->status[0]) json_field(f, "status", r->status);
  json_cards(f, "changed", &r->changed, "now");
  json_cards(f, "defines", &r->defines, NULL);
  json_cards(f, "redefines", &r->redefines, "pool");
  if (r->nnotes) json_strings(f, "notes", r->nnotes, r->notes);
  fputs("}\n", f);
}
