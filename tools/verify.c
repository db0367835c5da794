/* verify.c - checking a replay against the engine, and comparing two
 * replays (see verify.h).
 *
 * Before the game: the card definitions a replay carries (version 2) are
 * loaded into a pool of their own, which the game is played with, and
 * compared with the card pool given (--cards) or found (engine/cards); a
 * version-1 replay needs the very pool it was recorded with (its hash), found
 * as given or frozen beside it in pool-HASH/. The header's seed and players
 * must be the setup's.
 *
 * The check streams both sides. Records are read from the recording into a
 * small queue; the engine's final log lines (those before
 * mtg_log_committed) are compared with the front of the queue and then
 * dropped from the game's log (all but the last few, shown before a
 * divergence). When the engine has no final line left, the game waits for a
 * decision: the next decision line not yet given in the queue (read ahead
 * as far as needed: the lines of the action in progress come before it) is
 * mapped back to option indices and answered, after its options record is
 * compared with the options the engine offers. Lines of an unfinished action
 * are only compared once final, since the engine may rewrite them when the
 * action goes on; the exception is a recording closed in the middle of an
 * action, whose last lines are compared as they stand. A version-2 replay
 * has a checkpoint exactly where its writer puts one (the first point of each
 * turn where the game waits with its log complete, and after the last line):
 * one missing or one elsewhere is a divergence. */
#include "verify.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "answer.h"
#include "defcache.h"
#include "mtg_private.h"
#include "replaylog.h"
#include "zlines.h"

#define DROP_AT 4096 /* compared lines kept before dropping them from the game's log */
#define PROGRESS_EVERY 1024
#define LOOKAHEAD_BYTES (4 << 20) /* the longest action the check reads ahead over, records included */

const char *verify_outcome_name(int outcome) {
  static const char *const names[VERIFY_OUTCOMES] = {"ok",           "open",       "incomplete",
                                                     "pool-changed", "divergence", "unreadable"};
  return outcome >= 0 && outcome < VERIFY_OUTCOMES ? names[outcome] : "unreadable";
}

int verify_exit_status(int outcome) { return outcome <= VERIFY_OPEN ? 0 : outcome == VERIFY_UNREADABLE ? 2 : 1; }

/* A record read from the recording and not yet compared. */
typedef struct qrec {
  rlog_record r; /* kind, length and numbers (the text is at off) */
  size_t off;
  int checked;   /* an options record compared with its decision's options */
} qrec;

/* Records read ahead, oldest first; addressed by their sequence number. */
typedef struct queue {
  qrec *e;
  long head, n, cap;   /* entries e[head .. head + n) */
  long first;          /* sequence number of e[head] */
  char *text;
  size_t thead, tlen, tcap;
} queue;

struct verify_ws {
  mtg_game *g;     /* the last replay's game, renewed for the next */
  defcache *defs;
  rlog_known *known; /* card definitions whose hash was verified */
};

verify_ws *verify_ws_new(const verify_opts *o) {
  verify_ws *w = calloc(1, sizeof *w);
  if (w && ((o->keywords && !(w->defs = defcache_new(o->keywords))) || !(w->known = rlog_known_new()))) {
    defcache_free(w->defs);
    free(w);
    return NULL;
  }
  return w;
}

void verify_ws_free(verify_ws *w) {
  if (!w) return;
  mtg_game_free(w->g);
  defcache_free(w->defs);
  rlog_known_free(w->known);
  free(w);
}

typedef struct V {
  const verify_opts *o;
  verify_ws *ws;         /* may be NULL */
  verify_report *rep;
  rlog_reader *r;
  const rlog_info *info;
  mtg_game *g;
  queue q;
  long next_decide;      /* sequence number from which to look for a decision to give */
  int final;             /* no decision is left before the next checkpoint or the trailer */
  int cmp;               /* next line of the game's log to compare */
  long events, decisions, checkpoints, unreported;
  long last_checkpoint;  /* events when the last checkpoint was read; -1 before */
  int turn_seen;         /* a turn began since the last checkpoint: one is due (version 2) */
  int outcome;           /* from the trailer */
  uint64_t chain;
  int turn;
  char step[32];
  int *vals;             /* answer being rebuilt */
  int nvals, capvals;
} V;

static int starts(const char *s, const char *prefix) { return !strncmp(s, prefix, strlen(prefix)); }

/* snprintf(dst, size, "%s", src) without printf, for what every replay copies */
static void copy_n(char *dst, size_t size, const char *src) {
  size_t n = strnlen(src, size - 1);
  memcpy(dst, src, n);
  dst[n] = 0;
}

static void copy(char *dst, const char *src) { copy_n(dst, VERIFY_TEXT, src); }

/* The digits at s, a decimal number of 1 to 18 digits (no sign, no
 * overflow): how many, with *out set; 0 for any other form, which is left
 * to sscanf. */
static size_t plain_number(const char *s, unsigned long long *out) {
  unsigned long long v = 0;
  size_t n = 0;
  for (; s[n] >= '0' && s[n] <= '9'; n++)
    if (n < 18) v = v * 10 + (unsigned)(s[n] - '0');
  if (n < 1 || n > 18) return 0;
  *out = v;
  return n;
}

/* snprintf for messages, where cutting a long message short is fine */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void textf(char *buf, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, size, fmt, ap);
  va_end(ap);
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void note(verify_report *rep, const char *fmt, ...) {
  if (rep->nnotes == VERIFY_NOTES) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(rep->notes[rep->nnotes++], VERIFY_TEXT, fmt, ap);
  va_end(ap);
}

/* follows "turn n=.." and "step name=.." lines, to say where a difference is */
static void track(int *turn, char *step, size_t size, const char *line) {
  if (line[0] == 't' && starts(line, "turn n=")) *turn = atoi(line + 7);
  else if (line[0] == 's' && starts(line, "step name=")) {
    size_t n = strcspn(line + 10, " ");
    if (n >= size) n = size - 1;
    memcpy(step, line + 10, n); /* at every step: no printf */
    step[n] = 0;
  }
}

/* Bytes of a field at s: up to a space, a control character or the end. */
static size_t field(const char *s) {
  size_t n = 0;
  while ((unsigned char)s[n] > ' ') n++;
  return n;
}

/* "start PLAYER TURN STEP" read as sscanf(p, "start %63s %d %31s") would,
 * for the form the writer puts (one space between fields, a turn of at
 * most 9 digits, names within their bounds): 1 with *turn and step set, 0
 * for any other form (left to sscanf, which says what it makes of it). */
static int plain_start(const char *p, int *turn, char *step, size_t size) {
  p += 6;
  size_t who = field(p);
  if (who < 1 || who > 63 || p[who] != ' ') return 0;
  p += who + 1;
  unsigned long long t;
  size_t digits = plain_number(p, &t);
  if (!digits || digits > 9 || p[digits] != ' ') return 0;
  p += digits + 1;
  size_t name = field(p);
  if (name < 1 || name > 31 || name >= size || (p[name] && !isspace((unsigned char)p[name]))) return 0;
  *turn = (int)t;
  memcpy(step, p, name);
  step[name] = 0;
  return 1;
}

/* the setup's "start PLAYER TURN STEP" record, for games that begin mid-game */
static void track_start(int *turn, char *step, size_t size, const char *setup) {
  for (const char *p = setup; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
    if (p[0] == 's' && starts(p, "start ")) { /* the first byte first: a call a line costs */
      char who[64], name[32];
      int t;
      if (plain_start(p, turn, step, size)) continue; /* once per replay: no scanf */
      if (sscanf(p, "start %63s %d %31s", who, &t, name) == 3) {
        *turn = t;
        snprintf(step, size, "%s", name);
      }
    }
}

static const char *kind_of_status(int status) {
  switch (status) {
  case RLOG_ETRUNC: return "truncated";
  case RLOG_ECORRUPT: return "corrupt";
  case RLOG_EFORMAT: return "format";
  case RLOG_EVERSION: return "version";
  case MTG_EIO: return "io";
  case MTG_ENOMEM: return "memory";
  default: return "error";
  }
}

static int unreadable(verify_report *rep, const mtg_error *err, long events, int turn) {
  if (err->status == RLOG_ETAMPER) {
    /* readable, but changed after it was recorded: the check fails (exit 1),
     * as it does for a line of the log that differs */
    rep->outcome = VERIFY_DIVERGED;
    rep->kind = "tampered";
    mtg_error_format(err, rep->message, sizeof rep->message);
    return VERIFY_DIVERGED;
  }
  rep->outcome = VERIFY_UNREADABLE;
  rep->kind = kind_of_status(err->status);
  char msg[VERIFY_TEXT];
  mtg_error_format(err, msg, sizeof msg);
  if (events > 0)
    textf(rep->message, sizeof rep->message, "%s (after event %ld, turn %d)", msg, events, turn);
  else
    copy(rep->message, msg);
  return VERIFY_UNREADABLE;
}

/* A fresh report, as if zeroed, with kind "ok": only the numbers and the
 * first byte of each text are cleared, since the texts (some 25 KB in all)
 * are written whole before they are read and zeroing them cost as much as
 * starting the game of a short replay. */
static void report_start(verify_report *rep) {
  rep->outcome = VERIFY_OK;
  rep->kind = "ok";
  rep->event = rep->decision = rep->last_decision = 0;
  rep->turn = rep->ncontext = rep->npending = rep->nnotes = 0;
  rep->events = rep->decisions = rep->checkpoints = 0;
  rep->message[0] = rep->step[0] = rep->expected[0] = rep->actual[0] = rep->last_decision_line[0] = 0;
  rep->origin[0] = rep->cites[0] = rep->status[0] = 0;
  rep->defines.n = rep->redefines.n = rep->changed.n = 0;
}

/* ---- the queue of records read ahead ---- */

static qrec *q_at(queue *q, long seq) { return &q->e[q->head + (seq - q->first)]; }
static long q_end(const queue *q) { return q->first + q->n; }

/* Appends a copy of rec; 0, or -1 when the lookahead limit is reached. */
static int q_push(queue *q, const rlog_record *rec, mtg_error *err) {
  if ((size_t)(q->n + 1) * sizeof *q->e + q->tlen - q->thead + rec->len + 1 > LOOKAHEAD_BYTES) {
    mtg_error_set(err, RLOG_EFORMAT, "line %ld: an action longer than the check reads ahead over (%d bytes)",
                  rec->line, LOOKAHEAD_BYTES);
    return -1;
  }
  if (q->head + q->n == q->cap) {
    if (q->head > 0) {
      memmove(q->e, q->e + q->head, (size_t)q->n * sizeof *q->e);
      q->head = 0;
    } else {
      long cap = q->cap ? q->cap * 2 : 256;
      qrec *e = realloc(q->e, (size_t)cap * sizeof *e);
      if (!e) return mtg_error_set(err, MTG_ENOMEM, "out of memory"), -1;
      q->e = e;
      q->cap = cap;
    }
  }
  if (q->tlen + rec->len + 1 > q->tcap) {
    if (q->thead > 0) {
      memmove(q->text, q->text + q->thead, q->tlen - q->thead);
      for (long i = 0; i < q->n; i++) q->e[q->head + i].off -= q->thead;
      q->tlen -= q->thead;
      q->thead = 0;
    }
    if (q->tlen + rec->len + 1 > q->tcap) {
      size_t cap = q->tcap ? q->tcap : 16384;
      while (cap < q->tlen + rec->len + 1) cap *= 2;
      char *t = realloc(q->text, cap);
      if (!t) return mtg_error_set(err, MTG_ENOMEM, "out of memory"), -1;
      q->text = t;
      q->tcap = cap;
    }
  }
  qrec *e = &q->e[q->head + q->n++];
  e->r = *rec;
  e->r.text = NULL; /* the reader's buffer: the copy is at off */
  e->off = q->tlen;
  e->checked = 0;
  memcpy(q->text + q->tlen, rec->text, rec->len + 1);
  q->tlen += rec->len + 1;
  return 0;
}

/* The text of an entry: only valid until the next push. */
static const char *q_text(queue *q, long seq) { return q->text + q_at(q, seq)->off; }

static void q_pop(queue *q) {
  q->thead = q_at(q, q->first)->off + q_at(q, q->first)->r.len + 1;
  q->head++;
  q->n--;
  q->first++;
  if (!q->n) q->head = 0, q->thead = q->tlen = 0;
}

static void q_free(queue *q) {
  free(q->e);
  free(q->text);
}

/* ---- check ---- */

static int is_line(int kind) { return kind == RLOG_R_EVENT || kind == RLOG_R_DECISION; }

/* Reads one more record into the queue; 1, 0 at the end, or -1 (unreadable). */
static int read_more(V *v) {
  rlog_record rec;
  mtg_error err;
  int rc = rlog_reader_next(v->r, &rec, &err);
  if (rc > 0 && q_push(&v->q, &rec, &err)) rc = err.status;
  if (rc < 0) return unreadable(v->rep, &err, v->events, v->turn), -1;
  return rc;
}

/* Makes record seq readable if the file has it: 1, 0 (the file ends
 * before), -1 (unreadable). */
static int have(V *v, long seq) {
  while (q_end(&v->q) <= seq) {
    int rc = read_more(v);
    if (rc <= 0) return rc;
  }
  return 1;
}

/* The last lines both sides logged alike (the game's, already compared),
 * then the recording's lines queued before record seq, which the engine
 * has not logged. */
static void context(V *v, long seq) {
  int ng = VERIFY_CONTEXT, k = 0;
  if (ng > v->cmp) ng = v->cmp;
  for (int i = v->cmp - ng; i < v->cmp; i++) {
    const char *line = mtg_log_line(v->g, i);
    if (line) copy(v->rep->context[k++], line);
  }
  v->rep->ncontext = k;
  const char *from_q[VERIFY_CONTEXT];
  int nq = 0;
  for (long s = seq - 1; s >= v->q.first && nq < VERIFY_CONTEXT; s--)
    if (is_line(q_at(&v->q, s)->r.kind)) from_q[nq++] = q_text(&v->q, s);
  for (k = 0; nq;) copy(v->rep->pending[k++], from_q[--nq]);
  v->rep->npending = k;
}

#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static int diverge(V *v, long seq, const char *actual, const char *kind, const char *fmt, ...) {
  verify_report *rep = v->rep;
  const rlog_record *rec = &q_at(&v->q, seq)->r;
  rep->outcome = VERIFY_DIVERGED;
  rep->kind = kind;
  rep->event = rec->event;
  rep->decision = rec->decision;
  /* where both sides agree the game is: the recording's lines read ahead
   * (context's pending lines) are not the engine's */
  rep->turn = v->turn;
  snprintf(rep->step, sizeof rep->step, "%s", v->step);
  copy(rep->expected, q_text(&v->q, seq));
  copy(rep->actual, actual);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(rep->message, sizeof rep->message, fmt, ap);
  va_end(ap);
  context(v, seq);
  return VERIFY_DIVERGED;
}

static const char *player_name(const mtg_game *g, int p) {
  const char *name = mtg_player_name(g, p);
  return name ? name : "-";
}

/* "(the engine waits for ...)": what stands in for a line the engine lacks */
/* The length of the head "decide kind=K player=P" that text starts with, or
 * -1: compared in place, as building the head first cost more than the
 * comparison at every decision. */
static int decide_match(const char *text, const char *kind, const char *player) {
  const char *const part[] = {"decide kind=", kind, " player=", player};
  const char *t = text;
  for (int i = 0; i < 4; i++)
    for (const char *p = part[i]; *p; p++, t++)
      if (*t != *p) return -1;
  return (int)(t - text);
}

static void waiting(const mtg_game *g, char *buf, size_t size) {
  const mtg_decision *d = mtg_game_decision(g);
  if (!d) snprintf(buf, size, "(the game is over)");
  else
    snprintf(buf, size, "(the engine waits for a %s decision by %s: %s)", d->kind_name, player_name(g, d->player),
             d->prompt);
}

/* Rebuilds the recorded answer from decision line seq (text p after its
 * "decide kind=.. player=.." head); 0, or a divergence reported. */
static int rebuild_answer(V *v, long seq, const mtg_decision *d, const char *p) {
  char buf[VERIFY_TEXT];
  long n = q_at(&v->q, seq)->r.decision;
  const char *bad = NULL;
  switch (answer_parse(d, p, v->vals, &v->nvals, &bad)) {
  case ANSWER_OK: return 0;
  case ANSWER_NO_NUMBER: return diverge(v, seq, "(a number)", "decision", "decision %ld does not give a number", n);
  case ANSWER_DIVISION:
    answer_options(d, buf, sizeof buf);
    return diverge(v, seq, buf, "decision", "decision %ld divides damage among other options", n);
  case ANSWER_AMOUNT: return diverge(v, seq, "(an amount)", "decision", "decision %ld has a malformed amount", n);
  case ANSWER_MORE:
    return diverge(v, seq, "(no more options)", "decision", "decision %ld divides damage among more options", n);
  case ANSWER_NO_CHOICE: return diverge(v, seq, "(a choice)", "decision", "decision %ld does not name a choice", n);
  case ANSWER_TWICE: return diverge(v, seq, "(each option once)", "illegal", "decision %ld picks an option twice", n);
  default: {
    answer_options(d, buf, sizeof buf);
    const char *bar = strstr(bad, " | ");
    size_t k = bar ? (size_t)(bar - bad) : strlen(bad);
    return diverge(v, seq, buf, "illegal", "decision %ld is no longer legal: \"%.*s\" is not among the %d options", n,
                   (int)(k < 300 ? k : 300), bad, d->n_options);
  }
  }
}

/* The options record that follows decision line seq against the options the
 * engine offers (version 2); 0, 1 (a divergence) or -1 (unreadable). */
/* Room in v->vals for an answer to a decision of n options (at least 1),
 * grown only when a decision has more than any before: 0, or -1 out of memory. */
static int vals_room(V *v, int n) {
  if (n < 1) n = 1;
  if (n <= v->capvals) return 0;
  int *vals = realloc(v->vals, (size_t)n * sizeof *vals);
  if (!vals) return -1;
  v->vals = vals;
  v->capvals = n;
  return 0;
}

static int check_options(V *v, long seq, const mtg_decision *d) {
  char want[128], buf[VERIFY_TEXT];
  rlog_options_line(want, sizeof want, d);
  int rc = have(v, seq + 1);
  if (rc < 0) return -1;
  int has = rc && q_at(&v->q, seq + 1)->r.kind == RLOG_R_OPTIONS;
  long n = q_at(&v->q, seq)->r.decision;
  if (!want[0] && !has) return 0;
  if (!want[0])
    return diverge(v, seq + 1, "(no options record: a name decision's are not recorded)", "options",
                   "decision %ld has an options record where none belongs", n);
  if (!has) return diverge(v, seq, want, "options", "decision %ld lacks the record of its options", n);
  q_at(&v->q, seq + 1)->checked = 1;
  const char *rec = q_text(&v->q, seq + 1);
  if (!strcmp(rec, want)) return 0;
  /* which options: the engine's (the recording has only their number and hash) */
  int recorded = -1;
  sscanf(rec, "@options n=%d", &recorded);
  answer_options(d, buf, sizeof buf);
  return diverge(v, seq + 1, buf, "options",
                 "decision %ld: the engine offers other options than the recording (%d options; the recording had %d%s)",
                 n, d->n_options, recorded, recorded == d->n_options ? ", not the same ones" : "");
}

/* Gives the pending decision the recorded decision line seq; 0, or 1 with
 * a divergence reported, or -1 when the check cannot go on (unreadable). */
static int apply(V *v, long seq) {
  const mtg_decision *d = mtg_game_decision(v->g);
  long n = q_at(&v->q, seq)->r.decision;
  char buf[VERIFY_TEXT];
  const char *text = q_text(&v->q, seq);
  int hl = decide_match(text, d->kind_name, player_name(v->g, d->player));
  if (hl < 0 || (text[hl] != ' ' && text[hl] != 0)) {
    waiting(v->g, buf, sizeof buf);
    return diverge(v, seq, buf, "decision", "decision %ld: the engine asks for a different decision", n);
  }
  if (v->info->version >= 2) {
    int rc = check_options(v, seq, d);
    if (rc) return rc;
  }
  mtg_error err;
  if (vals_room(v, d->n_options)) {
    mtg_error_set(&err, MTG_ENOMEM, "out of memory");
    return unreadable(v->rep, &err, v->events, v->turn), -1;
  }
  text = q_text(&v->q, seq); /* check_options may have read more into the queue */
  if (rebuild_answer(v, seq, d, text + hl)) return VERIFY_DIVERGED;
  v->rep->last_decision = n;
  copy(v->rep->last_decision_line, text);
  int rc = mtg_game_decide(v->g, &(mtg_answer){v->nvals, v->vals}, &err);
  if (rc >= 0) return 0;
  /* running out of memory says nothing about the recording */
  if (rc == MTG_ENOMEM) return unreadable(v->rep, &err, v->events, v->turn), -1;
  char msg[VERIFY_TEXT];
  mtg_error_format(&err, msg, sizeof msg);
  textf(buf, sizeof buf, "(refused: %s)", msg);
  if (rc == MTG_EILLEGAL)
    return diverge(v, seq, buf, "illegal", "decision %ld is refused by the engine as illegal", n);
  return diverge(v, seq, buf, "engine", "the engine fails on decision %ld", n);
}

static void matched(V *v, const char *line, size_t len) {
  v->chain = rlog_chain(v->chain, line, len);
  v->events++;
  v->decisions += mtg_log_is_decision(v->g, v->cmp) != 0;
  if (line[0] == 't' && starts(line, "turn ")) v->turn_seen = 1;
  track(&v->turn, v->step, sizeof v->step, line);
  v->cmp++;
  if (v->cmp >= DROP_AT) {
    int n = v->cmp - VERIFY_CONTEXT, c = mtg_log_committed(v->g);
    if (n > c) n = c;
    if (n > 0) {
      mtg_log_drop(v->g, n);
      v->cmp -= n;
    }
  }
  if (v->o->progress && ++v->unreported == PROGRESS_EVERY) {
    atomic_fetch_add(v->o->progress, v->unreported);
    v->unreported = 0;
  }
}

/* Lines of the game's log that may be compared now: the final ones, or all
 * once the game is over or the recording has no decision left to give. */
static int comparable(V *v) {
  return v->final || mtg_game_status(v->g) != MTG_DECISION ? mtg_log_count(v->g) : mtg_log_committed(v->g);
}

/* Whether the writer puts a checkpoint where the game now stands: it waits
 * for a decision, its log complete and compared, and a turn began since the
 * last checkpoint (version 2). */
static int checkpoint_due(V *v) {
  return v->info->version >= 2 && v->turn_seen && mtg_game_status(v->g) == MTG_DECISION &&
         mtg_log_count(v->g) == mtg_log_committed(v->g) && v->cmp == mtg_log_count(v->g);
}

/* The engine has no final line left and waits for a decision: gives it the
 * next recorded decision, reading ahead over the lines of the action in
 * progress. 0, or 1/-1 when reported. */
static int give_decision(V *v) {
  for (long s = v->next_decide > v->q.first ? v->next_decide : v->q.first;; s++) {
    if (s == q_end(&v->q)) {
      int rc = read_more(v);
      if (rc < 0) return -1;
      if (rc == 0) break;
    }
    int kind = q_at(&v->q, s)->r.kind;
    if (kind == RLOG_R_CHECKPOINT || kind == RLOG_R_END) break;
    if (kind == RLOG_R_DECISION) {
      if (s == v->q.first && checkpoint_due(v)) {
        char buf[256];
        rlog_checkpoint_line(buf, sizeof buf, v->g, v->events, v->decisions);
        return diverge(v, s, buf, "checkpoint",
                       "the recording lacks the checkpoint due after event %ld (turn %d, before decision %ld)",
                       v->events, v->turn, q_at(&v->q, s)->r.decision);
      }
      v->next_decide = s + 1;
      return apply(v, s);
    }
  }
  /* no decision before the next checkpoint or the trailer: the recording
   * stops in the middle of this action, whose lines stand as they are */
  v->final = 1;
  return 0;
}

/* A recorded line against the engine's next line. */
static int check_line(V *v) {
  const qrec *e = q_at(&v->q, v->q.first);
  char buf[VERIFY_TEXT];
  if (v->cmp < comparable(v)) {
    const char *act = mtg_log_line(v->g, v->cmp);
    size_t len = strlen(act);
    if (len != e->r.len || memcmp(act, q_text(&v->q, v->q.first), len))
      return diverge(v, v->q.first, act, "event", "event %ld differs", e->r.event);
    matched(v, act, len);
    q_pop(&v->q);
    return 0;
  }
  if (mtg_game_status(v->g) == MTG_DECISION && !v->final) return give_decision(v);
  waiting(v->g, buf, sizeof buf); /* only for the report: built where it is needed */
  if (mtg_game_status(v->g) != MTG_DECISION)
    return diverge(v, v->q.first, buf, "event", "the recording goes on after the game is over (event %ld)", e->r.event);
  return diverge(v, v->q.first, buf, "event", "event %ld is missing: the engine waits for a decision", e->r.event);
}

static int check_checkpoint(V *v) {
  char buf[256];
  if (v->cmp < mtg_log_count(v->g))
    return diverge(v, v->q.first, mtg_log_line(v->g, v->cmp), "event",
                   "the recording lacks event %ld, which the engine logs before the checkpoint", v->events + 1);
  if (v->info->version >= 2 && !checkpoint_due(v)) {
    /* only the last checkpoint, just before the trailer, may be elsewhere */
    int rc = have(v, v->q.first + 1);
    if (rc < 0) return -1;
    if (rc && q_at(&v->q, v->q.first + 1)->r.kind != RLOG_R_END)
      return diverge(v, v->q.first, "(no checkpoint is due here)", "checkpoint",
                     "a checkpoint after event %ld, where the writer puts none", v->events);
  }
  rlog_checkpoint_line(buf, sizeof buf, v->g, v->events, v->decisions);
  if (strcmp(buf, q_text(&v->q, v->q.first)))
    return diverge(v, v->q.first, buf, "checkpoint", "the checkpoint after event %ld differs", v->events);
  v->checkpoints++;
  v->last_checkpoint = v->events;
  v->turn_seen = 0;
  v->final = 0;
  q_pop(&v->q);
  return 0;
}

static int check_trailer(V *v) {
  char buf[256];
  const char *text = q_text(&v->q, v->q.first);
  const char *st = strstr(text, " status=");
  /* an abandoned recording holds what was final when it was last synced */
  int abandoned = st && starts(st, " status=abandoned ");
  if (!abandoned && v->cmp < mtg_log_count(v->g))
    return diverge(v, v->q.first, mtg_log_line(v->g, v->cmp), "event", "the recording ends, the engine logs event %ld",
                   v->events + 1);
  const char *status = abandoned ? "abandoned" : mtg_game_status(v->g) == MTG_OVER ? "over" : "open";
  /* the writer closes an abandoned recording without the checkpoint of a
   * game it no longer has (rlog_writer_close); it checks as incomplete anyway */
  if (v->info->version >= 2 && !abandoned && v->last_checkpoint != v->events) {
    rlog_checkpoint_line(buf, sizeof buf, v->g, v->events, v->decisions);
    return diverge(v, v->q.first, buf, "checkpoint", "the recording lacks its last checkpoint (after event %ld)",
                   v->events);
  }
  rlog_trailer_line(buf, sizeof buf, v->events, v->decisions, v->checkpoints, status, v->chain);
  if (strcmp(buf, text)) return diverge(v, v->q.first, buf, "trailer", "the trailer after event %ld differs", v->events);
  snprintf(v->rep->status, sizeof v->rep->status, "%s", status);
  /* a consistent recording of an unfinished game is not a game that checks ok */
  if (abandoned) {
    v->outcome = VERIFY_INCOMPLETE;
    v->rep->kind = "abandoned";
    textf(v->rep->message, sizeof v->rep->message,
          "the recording was abandoned at turn %d (the recorder stopped on an engine failure): the game has no result",
          v->turn);
  } else if (!strcmp(status, "open") && v->info->partial == 0) {
    v->outcome = VERIFY_INCOMPLETE;
    v->rep->kind = "cut-short";
    textf(v->rep->message, sizeof v->rep->message,
          "the game is not over: the recording stops at turn %d, step %s, with a decision pending, but its header "
          "says it records the whole game (until over)",
          v->turn, v->step);
  } else if (!strcmp(status, "open")) {
    v->outcome = VERIFY_OPEN;
    v->rep->kind = "open";
  }
  q_pop(&v->q);
  return 0;
}

static int run_check(V *v) {
  for (;;) {
    if (!v->q.n) {
      int rc = read_more(v);
      if (rc < 0) return VERIFY_UNREADABLE;
      if (rc == 0) return v->outcome;
    }
    int rc;
    switch (q_at(&v->q, v->q.first)->r.kind) {
    case RLOG_R_CHECKPOINT: rc = check_checkpoint(v); break;
    case RLOG_R_END: rc = check_trailer(v); break;
    case RLOG_R_OPTIONS:
      if (!q_at(&v->q, v->q.first)->checked)
        rc = diverge(v, v->q.first, "(no decision was given before it)", "options",
                     "an options record after event %ld, not right after a decision", v->events);
      else {
        q_pop(&v->q);
        rc = 0;
      }
      break;
    default: rc = check_line(v); break;
    }
    /* reported: a divergence (> 0) or unreadable input (< 0) */
    if (rc) return rc < 0 ? VERIFY_UNREADABLE : v->rep->outcome;
  }
}

/* After a problem found in the text, learns whether the rest of the
 * compressed stream is damaged or cut short: then the text cannot be trusted
 * (damaged data can inflate to anything before zlib notices) and the file
 * is unreadable. Looks at most ZLINES_DRAIN_LIMIT bytes further. */
static void blame_data(rlog_reader *r, const char *name, verify_report *rep) {
  mtg_error err;
  int rc = rlog_reader_drain_some(r, ZLINES_DRAIN_LIMIT, &err);
  if (rc != RLOG_ECORRUPT && rc != RLOG_ETRUNC) return;
  if (name) {
    char msg[sizeof err.msg];
    snprintf(msg, sizeof msg, "%s", err.msg);
    textf(err.msg, sizeof err.msg, "%s: %s", name, msg);
  }
  long at = rep->event;
  int diverged = rep->outcome == VERIFY_DIVERGED;
  unreadable(rep, &err, 0, 0);
  size_t u = strlen(rep->message);
  if (diverged) textf(rep->message + u, sizeof rep->message - u, " (the text read before it already differs at event %ld)", at);
}

/* ---- the cards a replay plays with ---- */

/* "%016" PRIx64 without printf: a replay lists a card for each it defines */
static void hex16(char *buf, uint64_t h) {
  static const char digit[] = "0123456789abcdef";
  for (int i = 15; i >= 0; i--, h >>= 4) buf[i] = digit[h & 15];
  buf[16] = 0;
}

static void list_card(verify_cards *c, const char *name, uint64_t was, const char *now_text) {
  if (c->n < VERIFY_LIST) {
    copy_n(c->name[c->n], sizeof c->name[0], name);
    hex16(c->was[c->n], was);
    if (now_text) hex16(c->now[c->n], rlog_text_hash(now_text, strlen(now_text)));
    else c->now[c->n][0] = 0;
  }
  c->n++;
}

/* Whether recorded card c's text is that of the card of the same name in the
 * pool the replays are checked with: its definition there is the one the text
 * compiles to (a card's text is its definition written back, docs/replay-format.md),
 * and the keyword abilities are that pool's too (verify_opts.keywords), so it
 * is shared, not compiled again. */
static int same_as_pool(const verify_opts *o, const rlog_card *c) {
  if (!o->pool || o->keywords != o->pool) return 0;
  const char *t = mtg_pool_card_text(o->pool, c->name);
  return t && strlen(t) == c->len && !memcmp(t, c->text, c->len);
}

/* A version-2 replay's card definitions, loaded into pools of their own:
 * *base those of the card pool, *top (on top of it) those defined on top of
 * the pool (extra). 0, or an unreadable report (kind "cards") naming the line
 * and the card. */
#define LOAD_AGAIN (-1) /* load_cards: load again without sharing the pool's definitions */

static int load_cards(V *v, mtg_pool **base, mtg_pool **top, int from_pool) {
  const rlog_info *info = v->info;
  int took = 0; /* definitions shared from the pool */
  defcache *defs = v->ws ? v->ws->defs : NULL;
  mtg_error err;
  if ((v->o->keywords ? mtg_pool_new_like(base, v->o->keywords) : mtg_pool_new(base, NULL)) || mtg_pool_new(top, *base)) {
    mtg_error_set(&err, MTG_ENOMEM, "out of memory");
    return unreadable(v->rep, &err, 0, 0);
  }
  defcache_trim(defs);
  for (int i = 0; i < info->ncards; i++) {
    const rlog_card *c = &info->cards[i];
    mtg_pool *p = c->extra ? *top : *base;
    char problem[VERIFY_TEXT] = "";
    long line = c->line;
    int before = mtg_pool_count(p);
    /* a text compiled before, for another replay; one that does not compile
     * to the one card it names is loaded here, which says why */
    int shared = MTG_EDATA;
    if (from_pool && !c->extra && same_as_pool(v->o, c) && !mtg_pool_has(*top, c->name)) {
      shared = mtg_pool_share_card(p, v->o->pool, c->name);
      took += shared == MTG_OK;
    }
    const mtg_pool *known = shared != MTG_OK && defs && !mtg_pool_has(*top, c->name) ? defcache_get(defs, c->name, c->text, c->len) : NULL;
    if (known) shared = mtg_pool_share(p, known);
    if (shared == MTG_ENOMEM) {
      mtg_error_set(&err, MTG_ENOMEM, "out of memory");
      return unreadable(v->rep, &err, 0, 0);
    }
    if (shared == MTG_OK) continue;
    if (mtg_pool_has(*top, c->name)) snprintf(problem, sizeof problem, "defined twice");
    else if (mtg_pool_load_buffer(p, c->name, c->text, c->len, &err)) {
      if (err.status == MTG_ENOMEM) return unreadable(v->rep, &err, 0, 0);
      /* a name clash is told with where the first definition came from: the
       * replay's text, as when every definition is compiled from it */
      if (took) return LOAD_AGAIN;
      if (err.line > 0) line += err.line - 1;
      textf(problem, sizeof problem, "%s%s%s", err.msg, err.source[0] ? ": " : "", err.source);
    } else if (mtg_pool_count(p) != before + 1)
      textf(problem, sizeof problem, "the text holds %d definitions, not one", mtg_pool_count(p) - before);
    else if (strcmp(mtg_pool_name(p, before), c->name))
      textf(problem, sizeof problem, "the text defines \"%s\"", mtg_pool_name(p, before));
    if (problem[0]) {
      mtg_error_set(&err, RLOG_EFORMAT, "line %ld: card \"%s\": %s", line, c->name, problem);
      unreadable(v->rep, &err, 0, 0);
      v->rep->kind = "cards";
      return VERIFY_UNREADABLE;
    }
  }
  return 0;
}

static int load_recorded(V *v, mtg_pool **base, mtg_pool **top) {
  int rc = load_cards(v, base, top, 1);
  if (rc != LOAD_AGAIN) return rc;
  mtg_pool_free(*top);
  mtg_pool_free(*base);
  *top = *base = NULL;
  return load_cards(v, base, top, 0);
}

/* Which recorded cards the pool to compare with lacks or defines otherwise;
 * with --cards, those the game took from the pool are the outcome. */
static int compare_cards(V *v, const mtg_pool *recorded) {
  const rlog_info *info = v->info;
  const verify_opts *o = v->o;
  if (!o->pool) return 0;
  for (int i = 0; i < info->ncards; i++) {
    const rlog_card *c = &info->cards[i];
    const char *mine = mtg_pool_card_text(recorded, c->name), *theirs = mtg_pool_card_text(o->pool, c->name);
    if (theirs && !strcmp(mine, theirs)) continue;
    /* the recorded text, whose hash the reader verified, or a text of its own */
    size_t len = strlen(mine);
    uint64_t h = len == c->len && !memcmp(mine, c->text, len) ? c->hash : rlog_text_hash(mine, len);
    if (!c->extra && o->pool_given) list_card(&v->rep->changed, c->name, h, theirs);
    else list_card(theirs ? &v->rep->redefines : &v->rep->defines, c->name, h, theirs);
  }
  if (!v->rep->changed.n) return 0;
  v->rep->outcome = VERIFY_POOL_CHANGED;
  v->rep->kind = "pool-changed";
  int k = v->rep->changed.n;
  textf(v->rep->message, sizeof v->rep->message,
        "%d card%s the game used %s defined differently in %s; checked with it, the game would not be the one recorded",
        k, k == 1 ? "" : "s", k == 1 ? "is" : "are", o->pool_dir ? o->pool_dir : "the pool");
  return VERIFY_POOL_CHANGED;
}

/* Version 1: the extra definitions (the cards block) on top of base, into
 * *child; 0, or an unreadable report (kind "cards"). */
static int load_extra_v1(V *v, const mtg_pool *base, mtg_pool **child) {
  const rlog_info *info = v->info;
  mtg_error err;
  if (mtg_pool_new(child, base) || mtg_pool_load_buffer(*child, "extra cards", info->cards_yaml, info->cards_len, &err)) {
    if (!*child) mtg_error_set(&err, MTG_ENOMEM, "out of memory");
    if (err.status != MTG_ENOMEM && err.status != MTG_EIO) {
      char msg[VERIFY_TEXT];
      snprintf(msg, sizeof msg, "%s", err.msg);
      mtg_error_set(&err, RLOG_EFORMAT, "line %ld: the cards block: %s",
                    info->cards_line + (err.line > 0 ? err.line - 1 : 0), msg);
    }
    unreadable(v->rep, &err, 0, 0);
    if (err.status == RLOG_EFORMAT) v->rep->kind = "cards";
    return VERIFY_UNREADABLE;
  }
  return 0;
}

/* The pool a version-1 replay was recorded with, which it names by its hash
 * only (of the pool with its extra cards on top): the pool given, or one
 * frozen beside the replay (pool-HASH/). Sets *base and *pool (the base, or
 * *child with the extra cards); 0 or an unreadable report. */
static int version1_pool(V *v, const char *path, const mtg_pool **base, const mtg_pool **pool, mtg_pool **child) {
  const rlog_info *info = v->info;
  const mtg_pool *const *frozen = NULL;
  int nfrozen = 0;
  mtg_error err;
  if (v->o->frozen) {
    const char *slash = strrchr(path, '/');
    char dir[4096];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    if ((nfrozen = poolset_frozen(v->o->frozen, dir, &frozen, &err)) < 0) {
      unreadable(v->rep, &err, 0, 0);
      v->rep->kind = "pool";
      return VERIFY_UNREADABLE;
    }
  }
  for (int i = -1; i < nfrozen; i++) {
    const mtg_pool *b = i < 0 ? v->o->pool : frozen[i];
    if (!b) continue;
    if (info->cards_len) {
      if (load_extra_v1(v, b, child)) return VERIFY_UNREADABLE;
      if (mtg_pool_hash(*child) == info->pool_hash) {
        *base = b;
        *pool = *child;
        return 0;
      }
      mtg_pool_free(*child);
      *child = NULL;
    } else if (mtg_pool_hash(b) == info->pool_hash) {
      *base = *pool = b;
      return 0;
    }
  }
  char mine[32] = "none";
  if (v->o->pool) snprintf(mine, sizeof mine, "%016" PRIx64, mtg_pool_hash(v->o->pool));
  mtg_error_set(&err, RLOG_EVERSION,
                "refused: the card pool differs: recorded with pool %016" PRIx64
                " (engine %s, rules %s), this pool is %s (engine %s, rules %s)%s; a version-1 replay checks only with "
                "the pool it was recorded with (--cards DIR, or a copy in a directory pool-HASH beside it)",
                info->pool_hash, info->engine, info->rules, mine, MTG_VERSION, MTG_RULES_EFFECTIVE,
                info->cards_len ? " with the replay's extra cards" : "");
  unreadable(v->rep, &err, 0, 0);
  v->rep->kind = "pool";
  return VERIFY_UNREADABLE;
}

/* Version 1: the extra definitions against the pool under them. */
static void compare_extra_v1(V *v, const mtg_pool *child, const mtg_pool *base) {
  for (int i = 0; i < mtg_pool_count(child); i++) {
    const char *name = mtg_pool_name(child, i);
    const char *mine = mtg_pool_card_text(child, name), *theirs = mtg_pool_card_text(base, name);
    if (!theirs) list_card(&v->rep->defines, name, rlog_text_hash(mine, strlen(mine)), NULL);
    else if (strcmp(mine, theirs)) list_card(&v->rep->redefines, name, rlog_text_hash(mine, strlen(mine)), theirs);
  }
}

/* The header's claims that the setup decides: its seed and its players. */
static int check_header(V *v) {
  const rlog_info *info = v->info;
  char names[RLOG_MAX_PLAYERS + 1][32];
  int np = 0, have_seed = 0;
  unsigned long long seed = 0;
  for (const char *p = info->setup_text; *p;) {
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p) : strlen(p);
    if (p[0] == 'p' && starts(p, "player ") && np <= RLOG_MAX_PLAYERS) {
      size_t n = strcspn(p + 7, " \n");
      if (n > 31) n = 31;
      memcpy(names[np], p + 7, n); /* per player of every replay: no printf */
      names[np++][n] = 0;
    } else if (p[0] == 's' && starts(p, "seed ") &&
               (plain_number(p + 5, &seed) || sscanf(p + 5, "%llu", &seed) == 1))
      have_seed = 1;
    p += len + (eol != NULL);
  }
  const char *what = NULL;
  char claim[VERIFY_TEXT] = "", truth[VERIFY_TEXT] = "";
  if (have_seed && seed != info->seed) {
    what = "seed";
    textf(claim, sizeof claim, "seed %" PRIu64, info->seed);
    textf(truth, sizeof truth, "seed %llu", seed);
  } else {
    int same = np == info->nplayers;
    for (int i = 0; i < np && same; i++) same = !strcmp(names[i], info->players[i]);
    if (!same) {
      what = "players";
      size_t u = (size_t)snprintf(claim, sizeof claim, "players");
      for (int i = 0; i < info->nplayers; i++) u += (size_t)snprintf(claim + u, sizeof claim - u, " %s", info->players[i]);
      u = (size_t)snprintf(truth, sizeof truth, "players");
      for (int i = 0; i < np; i++) u += (size_t)snprintf(truth + u, sizeof truth - u, " %s", names[i]);
    }
  }
  if (!what) return 0;
  verify_report *rep = v->rep;
  rep->outcome = VERIFY_DIVERGED;
  rep->kind = "header";
  copy(rep->expected, claim);
  copy(rep->actual, truth);
  textf(rep->message, sizeof rep->message, "the header's %s is not the setup's", what);
  return VERIFY_DIVERGED;
}

/* The pools a replay plays with, the setup rebuilt with them and the game
 * started: 0, or a report. For a check (compare), the cards are compared
 * with the pool given and the header with the setup. */
typedef struct played {
  const mtg_pool *pool, *base; /* the game's pool, and the card pool under it */
  mtg_pool *own[2];            /* pools made here */
  mtg_setup *setup;
} played;

static int start(V *v, const char *path, played *pl, int compare) {
  const rlog_info *info = v->info;
  verify_report *rep = v->rep;
  mtg_error err;
  int rc;
  if (info->version >= 2) {
    if ((rc = load_recorded(v, &pl->own[0], &pl->own[1]))) return rc;
    if (compare && (rc = compare_cards(v, pl->own[1]))) return rc;
    pl->pool = pl->own[1];
    pl->base = pl->own[0];
  } else {
    if ((rc = version1_pool(v, path, &pl->base, &pl->pool, &pl->own[0]))) return rc;
    if (compare && pl->own[0]) compare_extra_v1(v, pl->own[0], v->o->pool ? v->o->pool : pl->base);
  }
  if (compare && (rc = check_header(v))) return rc;
  if (mtg_setup_read(pl->pool, "setup", info->setup_text, &pl->setup, &err)) {
    char msg[sizeof err.msg];
    int status = err.status == MTG_ENOMEM ? MTG_ENOMEM : RLOG_EFORMAT;
    mtg_error_format(&err, msg, sizeof msg);
    mtg_error_set(&err, status, "cannot rebuild the setup: %s", msg);
    return unreadable(rep, &err, 0, 0);
  }
  track_start(&v->turn, v->step, sizeof v->step, info->setup_text);
  if (v->ws) {
    rc = mtg_game_renew(&v->ws->g, pl->setup, &err);
    v->g = v->ws->g;
  } else
    rc = mtg_game_new(&v->g, pl->setup, &err);
  if (rc == MTG_ENOMEM) return unreadable(rep, &err, 0, 0);
  if (rc < 0) {
    char msg[VERIFY_TEXT];
    mtg_error_format(&err, msg, sizeof msg);
    rep->outcome = VERIFY_DIVERGED;
    rep->kind = "engine";
    textf(rep->message, sizeof rep->message, "the engine cannot start the game: %s", msg);
    return VERIFY_DIVERGED;
  }
  return 0;
}

/* What start and the check leave to free; the report's totals. */
static int finish(V *v, played *pl) {
  verify_report *rep = v->rep;
  rep->events = v->events;
  rep->decisions = v->decisions;
  rep->checkpoints = v->checkpoints;
  if (v->o->progress && v->unreported) atomic_fetch_add(v->o->progress, v->unreported);
  if (!v->ws) mtg_game_free(v->g); /* else kept for the next replay */
  mtg_setup_free(pl->setup);
  mtg_pool_free(pl->own[1]);
  mtg_pool_free(pl->own[0]);
  rlog_reader_free(v->r);
  q_free(&v->q);
  free(v->vals);
  return rep->outcome;
}

int verify_file(const verify_opts *o, verify_ws *w, const char *path, verify_report *rep) {
  report_start(rep);
  V v = {.o = o, .ws = w, .rep = rep, .chain = RLOG_CHAIN_INIT, .step = "-", .last_checkpoint = -1};
  played pl = {0};
  mtg_error err;
  if (rlog_reader_open_known(&v.r, path, w ? w->known : NULL, &err)) return unreadable(rep, &err, 0, 0);
  v.info = rlog_reader_info(v.r);
  const rlog_info *info = v.info;
  copy_n(rep->origin, sizeof rep->origin, info->origin);
  copy_n(rep->cites, sizeof rep->cites, info->cites);
  if (strcmp(info->engine, MTG_VERSION) || strcmp(info->rules, MTG_RULES_EFFECTIVE))
    note(rep, "recorded with engine %s (rules %s), checked with engine %s (rules %s)", info->engine, info->rules,
         MTG_VERSION, MTG_RULES_EFFECTIVE);
  if (!start(&v, path, &pl, 1)) {
    int rc = run_check(&v);
    if (rc != VERIFY_DIVERGED && rc != VERIFY_UNREADABLE) rep->outcome = rc;
  }
  /* a problem found in the text may come from damaged data */
  if (rep->outcome == VERIFY_DIVERGED || !strcmp(rep->kind, "format") || !strcmp(rep->kind, "pool") ||
      !strcmp(rep->kind, "cards"))
    blame_data(v.r, NULL, rep);
  return finish(&v, &pl);
}

/* ---- re-recording ---- */

/* A failure to write, as an unreadable report naming the file. */
static int write_failed(verify_report *rep, const char *out, const mtg_error *err) {
  mtg_error e = *err;
  snprintf(e.msg, sizeof e.msg, "%s: %.900s", out, err->msg);
  return unreadable(rep, &e, 0, 0);
}

int verify_rerecord(const verify_opts *o, verify_ws *ws, const char *in, const char *out, verify_report *rep) {
  report_start(rep);
  V v = {.o = o, .ws = ws, .rep = rep, .chain = RLOG_CHAIN_INIT, .step = "-", .last_checkpoint = -1};
  played pl = {0};
  mtg_error err;
  rlog_writer *w = NULL;
  if (rlog_reader_open_known(&v.r, in, ws ? ws->known : NULL, &err)) return unreadable(rep, &err, 0, 0);
  v.info = rlog_reader_info(v.r);
  const rlog_info *info = v.info;
  if (start(&v, in, &pl, 0)) return finish(&v, &pl);
  int selfplay = info->origin && !strncmp(info->origin, "selfplay ", 9);
  rlog_header h = {.setup_text = info->setup_text,
                   .pool = pl.pool,
                   .base = pl.base,
                   .origin = info->origin,
                   .cites = info->cites,
                   .seed = info->seed,
                   .partial = info->partial > 0,
                   .version = info->version,
                   .level = selfplay ? RLOG_SELFPLAY_LEVEL : 0,
                   .cards_yaml = info->version == 1 && info->cards_len ? info->cards_yaml : NULL};
  if (rlog_writer_open(&w, out, &h, &err)) {
    write_failed(rep, out, &err);
    return finish(&v, &pl);
  }
  /* every recorded decision in turn, to the engine as it now is */
  int rc = 0, abandoned = 0;
  while (!rc) {
    if (rlog_writer_sync(w, v.g, &err)) {
      rc = write_failed(rep, out, &err);
      break;
    }
    if (mtg_game_status(v.g) != MTG_DECISION) break;
    rlog_record rec;
    int got;
    while ((got = rlog_reader_next(v.r, &rec, &err)) > 0 && rec.kind != RLOG_R_DECISION && rec.kind != RLOG_R_END) {
    }
    if (got < 0) {
      rc = unreadable(rep, &err, v.decisions, v.turn);
      break;
    }
    if (!got || rec.kind == RLOG_R_END) {
      abandoned = got && strstr(rec.text, " status=abandoned ");
      break; /* the recording stops here */
    }
    const mtg_decision *d = mtg_game_decision(v.g);
    int hl = decide_match(rec.text, d->kind_name, player_name(v.g, d->player));
    const char *bad = NULL;
    if (vals_room(&v, d->n_options)) {
      mtg_error_set(&err, MTG_ENOMEM, "out of memory");
      rc = unreadable(rep, &err, v.decisions, v.turn);
      break;
    }
    v.decisions++;
    if (hl < 0 || answer_parse(d, rec.text + hl, v.vals, &v.nvals, &bad) ||
        mtg_game_decide(v.g, &(mtg_answer){v.nvals, v.vals}, &err) < 0) {
      char now[VERIFY_TEXT];
      answer_options(d, now, sizeof now);
      rep->outcome = rc = VERIFY_DIVERGED;
      rep->kind = "decision";
      rep->decision = v.decisions;
      rep->event = mtg_log_total(v.g);
      rep->turn = mtg_game_turn(v.g);
      snprintf(rep->step, sizeof rep->step, "%s", mtg_step_name(mtg_game_step(v.g)));
      copy(rep->expected, rec.text);
      textf(rep->actual, sizeof rep->actual, "%s decision by %s: %s", d->kind_name, player_name(v.g, d->player), now);
      textf(rep->message, sizeof rep->message,
            "decision %ld can't be given to the engine as it now is: nothing was written", v.decisions);
    }
  }
  if (rc) {
    rlog_writer_discard(w); /* out stays as it was */
    w = NULL;
  }
  /* a recording the writer abandoned ends so again */
  if (w && rlog_writer_close(w, abandoned ? NULL : v.g, &err)) write_failed(rep, out, &err);
  return finish(&v, &pl);
}

/* ---- diff ---- */

typedef struct D {
  verify_report *rep;
  long events, decisions;
  int turn;
  char step[32];
  int nring;           /* lines seen, the last VERIFY_CONTEXT kept */
  char ring[VERIFY_CONTEXT][VERIFY_TEXT];
} D;

static int differ(D *d, const char *kind, const char *a, const char *b, int is_line, int is_decision, const char *msg) {
  verify_report *rep = d->rep;
  rep->outcome = VERIFY_DIVERGED;
  rep->kind = kind;
  rep->event = d->events + is_line;
  rep->decision = d->decisions + is_decision;
  rep->turn = d->turn;
  snprintf(rep->step, sizeof rep->step, "%s", d->step);
  copy(rep->expected, a);
  copy(rep->actual, b);
  copy(rep->message, msg);
  int k = d->nring < VERIFY_CONTEXT ? d->nring : VERIFY_CONTEXT;
  for (int i = 0; i < k; i++) copy(rep->context[i], d->ring[(d->nring - k + i) % VERIFY_CONTEXT]);
  rep->ncontext = k;
  return VERIFY_DIVERGED;
}

/* the first differing line of two texts, numbered from 1; 0 if equal */
static int text_diff(const char *a, const char *b, char *la, char *lb) {
  for (int line = 1;; line++) {
    size_t na = strcspn(a, "\n"), nb = strcspn(b, "\n");
    if (na != nb || memcmp(a, b, na)) {
      snprintf(la, VERIFY_TEXT, "%.*s", (int)(na < VERIFY_TEXT ? na : VERIFY_TEXT - 1), a);
      snprintf(lb, VERIFY_TEXT, "%.*s", (int)(nb < VERIFY_TEXT ? nb : VERIFY_TEXT - 1), b);
      return line;
    }
    if (!a[na] && !b[nb]) return 0;
    a += na + (a[na] != 0);
    b += nb + (b[nb] != 0);
  }
}

static int diff_headers(D *d, const rlog_info *a, const rlog_info *b) {
  char la[VERIFY_TEXT], lb[VERIFY_TEXT], msg[256];
  int line;
  if (a->version == 1 && b->version == 1 && a->pool_hash != b->pool_hash) {
    snprintf(la, sizeof la, "pool %016llx", (unsigned long long)a->pool_hash);
    snprintf(lb, sizeof lb, "pool %016llx", (unsigned long long)b->pool_hash);
    return differ(d, "header", la, lb, 0, 0, "the card pools differ");
  }
  if ((line = text_diff(a->setup_text, b->setup_text, la, lb))) {
    snprintf(msg, sizeof msg, "the setups differ at line %d", line);
    return differ(d, "header", la, lb, 0, 0, msg);
  }
  if ((line = text_diff(a->cards_yaml, b->cards_yaml, la, lb))) {
    snprintf(msg, sizeof msg, "the extra card definitions differ at line %d", line);
    return differ(d, "header", la, lb, 0, 0, msg);
  }
  /* version 2: the definitions, by name (a card one has and the other not, or defined otherwise) */
  for (int i = 0, j = 0; i < a->ncards || j < b->ncards;) {
    int c = i == a->ncards ? 1 : j == b->ncards ? -1 : strcmp(a->cards[i].name, b->cards[j].name);
    if (c == 0 && a->cards[i].hash == b->cards[j].hash && a->cards[i].extra == b->cards[j].extra) {
      i++, j++;
      continue;
    }
    if (c == 0 && (line = text_diff(a->cards[i].text, b->cards[j].text, la, lb))) {
      snprintf(msg, sizeof msg, "the definitions of \"%.100s\" differ at their line %d", a->cards[i].name, line);
      return differ(d, "header", la, lb, 0, 0, msg);
    }
    snprintf(la, sizeof la, "%s", c <= 0 ? a->cards[i].name : "(no such card)");
    snprintf(lb, sizeof lb, "%s", c >= 0 ? b->cards[j].name : "(no such card)");
    snprintf(msg, sizeof msg, "the card definitions differ: \"%.100s\" is in one only, or from elsewhere",
             c <= 0 ? a->cards[i].name : b->cards[j].name);
    return differ(d, "header", la, lb, 0, 0, msg);
  }
  return 0;
}

/* an unreadable file of the two: the message names it */
static int diff_unreadable(D *d, const char *path, mtg_error *err) {
  char msg[sizeof err->msg];
  snprintf(msg, sizeof msg, "%s", err->msg);
  textf(err->msg, sizeof err->msg, "%s: %s", path, msg);
  return unreadable(d->rep, err, d->events, d->turn);
}

static int diff_records(D *d, const char *pa, rlog_reader *ra, const char *pb, rlog_reader *rb) {
  mtg_error err;
  for (;;) {
    rlog_record a, b;
    int ca = rlog_reader_next(ra, &a, &err);
    if (ca < 0) return diff_unreadable(d, pa, &err);
    int cb = rlog_reader_next(rb, &b, &err);
    if (cb < 0) return diff_unreadable(d, pb, &err);
    if (!ca && !cb) return VERIFY_OK;
    int line = ca && is_line(a.kind);
    if (!ca || !cb || a.len != b.len || memcmp(a.text, b.text, a.len)) {
      char msg[128];
      snprintf(msg, sizeof msg, line ? "event %ld differs" : "the record after event %ld differs", d->events + line);
      return differ(d, line ? "event" : "record", ca ? a.text : "(end of file)", cb ? b.text : "(end of file)", line,
                    line && a.kind == RLOG_R_DECISION, msg);
    }
    if (!line) continue;
    d->events++;
    d->decisions += a.kind == RLOG_R_DECISION;
    track(&d->turn, d->step, sizeof d->step, a.text);
    copy(d->ring[d->nring++ % VERIFY_CONTEXT], a.text);
  }
}

int verify_diff(const char *pa, const char *pb, verify_report *rep) {
  memset(rep, 0, sizeof *rep);
  rep->kind = "ok";
  D *d = calloc(1, sizeof *d);
  rlog_reader *ra = NULL, *rb = NULL;
  mtg_error err;
  int rc;
  if (!d) {
    mtg_error_set(&err, MTG_ENOMEM, "out of memory");
    return unreadable(rep, &err, 0, 0);
  }
  d->rep = rep;
  snprintf(d->step, sizeof d->step, "-");
  if (rlog_reader_open(&ra, pa, &err) || rlog_reader_open(&rb, pb, &err)) {
    rc = diff_unreadable(d, ra ? pb : pa, &err);
  } else {
    track_start(&d->turn, d->step, sizeof d->step, rlog_reader_info(ra)->setup_text);
    rc = diff_headers(d, rlog_reader_info(ra), rlog_reader_info(rb));
    if (!rc) rc = diff_records(d, pa, ra, pb, rb);
    if (rc == VERIFY_DIVERGED) {
      blame_data(ra, pa, rep);
      if (rep->outcome == VERIFY_DIVERGED) blame_data(rb, pb, rep);
    }
  }
  rep->events = d->events;
  rep->decisions = d->decisions;
  rlog_reader_free(ra);
  rlog_reader_free(rb);
  free(d);
  return rep->outcome;
}
