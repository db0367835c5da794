/* match: object references, log-line patterns, event and state expectations. */
#include "match.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mtg_private.h"
#include "suggest.h"

/* ---- object ids and cards ---- */

void ctx_free(hctx *x) {
  free(x->card_of);
  x->card_of = NULL;
  x->ncard_of = 0;
  free(x->live);
  x->live = NULL;
  x->nlive = 0;
}

static void note(hctx *x, uint32_t id, int card) {
  if (card < 0 || !id || id > 1000000) return;
  if (id >= x->ncard_of) {
    uint32_t n = x->ncard_of ? x->ncard_of : 256;
    while (n <= id) n *= 2;
    int *v = realloc(x->card_of, n * sizeof *v);
    if (!v) return;
    memset(v + x->ncard_of, 0, (n - x->ncard_of) * sizeof *v);
    x->card_of = v;
    x->ncard_of = n;
  }
  x->card_of[id] = card + 1;
}

/* Whether id's card was noted: then ctx_card finds one for it. */
static int noted(const hctx *x, uint32_t id) { return id < x->ncard_of && x->card_of[id]; }

#define MAXOBJ 2048

/* Calls f for every object in every zone. */
static void each_object(hctx *x, void (*f)(hctx *, uint32_t, void *), void *ctx) {
  uint32_t ids[MAXOBJ];
  int np = mtg_game_players(x->g);
  for (int z = 0; z < MTG_Z_COUNT; z++) {
    int shared = z == MTG_Z_BATTLEFIELD || z == MTG_Z_STACK;
    for (int p = shared ? -1 : 0; p < (shared ? 0 : np); p++) {
      int n = mtg_zone_objects(x->g, p, z, ids, MAXOBJ);
      if (n > MAXOBJ) n = MAXOBJ;
      for (int i = 0; i < n; i++) f(x, ids[i], ctx);
    }
  }
}

void ctx_note_ids(hctx *x) {
  uint32_t ids[MAXOBJ];
  int cards[MAXOBJ];
  int n = mtg_game_objects(x->g, ids, cards, MAXOBJ);
  for (int i = 0; i < n && i < MAXOBJ; i++) note(x, ids[i], cards[i]);
}

int ctx_card(hctx *x, uint32_t id) {
  int c = mtg_object_card(x->g, id);
  if (c >= 0) return c;
  return noted(x, id) ? x->card_of[id] - 1 : -1;
}

const char *quoted_end(const char *q, const char *e) {
  for (q++; (e ? q < e : *q != 0) && *q != '"'; q++)
    if (*q == '\\' && (e ? q + 1 < e : q[1] != 0)) q++;
  return (e ? q < e : *q != 0) ? q + 1 : q;
}

/* The id of an object reference "Name"#id at v[0..n), or 0. The name is
 * skipped as a quoted string, so that an escaped quote inside it is not taken
 * for its end. */
static uint32_t ref_id(const char *v, size_t n) {
  const char *e = v + n, *h = NULL;
  for (const char *p = v; p < e;) {
    if (*p != '"') {
      p++;
      continue;
    }
    p = quoted_end(p, e);
    if (p < e && *p == '#') h = p + 1;
  }
  uint32_t id = 0;
  for (; h && h < e && *h >= '0' && *h <= '9'; h++) id = id * 10 + (uint32_t)(*h - '0');
  return id;
}

/* The objects that exist now with a card, for the old ids a reading of the
 * log asks about: a log of many moves asks about as many ids, nearly all gone,
 * and each question to the engine about a gone id is a search of all its
 * objects. The set is made (one search) at the second question, the first
 * costing no more asked directly. */
typedef struct live_set {
  int asked, built; /* built: 1 in x->live, -1 not made (too many objects) */
  int n;
  uint32_t ids[MAXOBJ];
  int cards[MAXOBJ];
} live_set;

static int live_make(hctx *x, live_set *ls) {
  int n = mtg_game_objects(x->g, ls->ids, ls->cards, MAXOBJ);
  if (n < 0 || n > MAXOBJ) return -1;
  uint32_t top = 0;
  for (int i = 0; i < n; i++)
    if (ls->cards[i] >= 0 && ls->ids[i] > top) top = ls->ids[i];
  if (top > 1000000) return -1; /* as note: ids past a game's reach */
  uint32_t words = top / 64 + 1;
  if (words > x->nlive) {
    uint64_t *v = realloc(x->live, words * sizeof *v);
    if (!v) return -1;
    memset(v + x->nlive, 0, (words - x->nlive) * sizeof *v);
    x->live = v;
    x->nlive = words;
  }
  for (int i = 0; i < n; i++)
    if (ls->cards[i] >= 0) x->live[ls->ids[i] / 64] |= (uint64_t)1 << (ls->ids[i] % 64);
  ls->n = n;
  return 1;
}

/* mtg_object_card(x->g, id): asked of the engine only for an id in the set. */
static int live_card(hctx *x, live_set *ls, uint32_t id) {
  if (ls->asked++ && !ls->built) ls->built = live_make(x, ls);
  if (ls->built > 0 && (id / 64 >= x->nlive || !(x->live[id / 64] >> (id % 64) & 1))) return -1;
  return mtg_object_card(x->g, id);
}

void ctx_note_log(hctx *x) {
  live_set ls;
  ls.asked = ls.built = 0;
  /* latest first, so that a chain of new ids (A -> B -> C) resolves back to A */
  for (int i = mtg_log_count(x->g) - 1; i >= 0; i--) {
    const char *line = mtg_log_line(x->g, i);
    size_t n, nn;
    /* only zone and deck_bottom lines have a field new (docs/events.md): the
     * others are passed over by their first letter, most without a search */
    if ((line[0] != 'z' && line[0] != 'd') || !strstr(line, " new=#")) continue;
    const char *nw = log_field(line, "new", &nn);
    const char *obj = nw && nn > 1 && nw[0] == '#' ? log_field(line, "obj", &n) : NULL;
    if (!obj) continue;
    uint32_t from = ref_id(obj, n), to = (uint32_t)strtoul(nw + 1, NULL, 10);
    /* a noted id has a card whether or not it is still in the game: the
     * engine is asked only about the others (ctx_card, without the note) */
    if (from && !noted(x, from) && live_card(x, &ls, from) < 0) note(x, from, ctx_card(x, to));
  }
  if (ls.built > 0) /* leave the scratch all 0 */
    for (int i = 0; i < ls.n; i++)
      if (ls.cards[i] >= 0) x->live[ls.ids[i] / 64] = 0;
}

int ref_matches(hctx *x, uint32_t id, const char *name, const char *spec) {
  if (name && !strcmp(name, spec)) return 1;
  const hlabel *lb = case_label(x->hc, spec);
  return lb && id && ctx_card(x, id) == lb->entry;
}

/* ---- values ---- */

/* A reference "Name"#id with an optional ability or trigger suffix (/0, /e17,
 * @12) at v; returns 1 and the parts, or 0. */
typedef struct vref {
  const char *name; /* inside the quotes (escapes kept) */
  size_t nlen;
  uint32_t id;
  const char *id_end, *end;
} vref;

static int parse_ref(const char *v, const char *ve, vref *r) {
  if (v >= ve || *v != '"') return 0;
  const char *p = v + 1;
  while (p < ve && *p != '"') p += (*p == '\\' && p + 1 < ve) ? 2 : 1;
  if (p >= ve || p + 1 >= ve || p[1] != '#') return 0;
  r->name = v + 1;
  r->nlen = (size_t)(p - v - 1);
  const char *q = p + 2;
  uint32_t id = 0;
  if (q >= ve || *q < '0' || *q > '9') return 0;
  while (q < ve && *q >= '0' && *q <= '9') id = id * 10 + (uint32_t)(*q++ - '0');
  r->id = id;
  r->id_end = q;
  while (q < ve && (*q == '/' || *q == '@' || (*q >= '0' && *q <= '9') || (*q >= 'a' && *q <= 'z'))) q++;
  r->end = q;
  return 1;
}

/* The length of the start of pattern p that is the quoted name q[0..n) with
 * its escapes undone (a name written in a case as the card is named), or -1. */
static long name_prefix(const char *p, const char *q, size_t n) {
  long k = 0;
  for (size_t i = 0; i < n; i++, k++) {
    if (q[i] == '\\' && i + 1 < n) i++;
    if (p[k] != q[i]) return -1;
  }
  return k;
}

static int vm(hctx *x, const char *p, const char *v, const char *ve, int depth) {
  if (depth > 32) return 0;
  while (*p || v < ve) {
    vref r;
    if (v < ve && *v == '"' && parse_ref(v, ve, &r)) {
      size_t full = (size_t)(r.end - v), upto_id = (size_t)(r.id_end - v);
      if (!strncmp(p, v, full) && vm(x, p + full, r.end, ve, depth + 1)) return 1;
      if (upto_id < full && !strncmp(p, v, upto_id) && vm(x, p + upto_id, r.end, ve, depth + 1)) return 1;
      long nl = name_prefix(p, r.name, r.nlen);
      if (nl >= 0 && vm(x, p + nl, r.end, ve, depth + 1)) return 1;
      /* the name in place of "Name"#id, keeping the suffix: Fecundity/0@2 */
      if (r.id_end < r.end && nl >= 0 && vm(x, p + nl, r.id_end, ve, depth + 1)) return 1;
      /* or its ability without the trigger's sequence number: Fecundity/0,
       * fs1/0 (a label), for any trigger of that ability of that object */
      const char *seq = memchr(r.id_end, '@', (size_t)(r.end - r.id_end));
      size_t abl = seq ? (size_t)(seq - r.id_end) : 0;
      if (abl && nl >= 0 && !strncmp(p + nl, r.id_end, abl) && vm(x, p + nl + abl, r.end, ve, depth + 1)) return 1;
      if (*p == '"' && !strncmp(p + 1, r.name, r.nlen) && p[1 + r.nlen] == '"' &&
          vm(x, p + r.nlen + 2, r.end, ve, depth + 1))
        return 1;
      for (int i = 0; i < x->hc->nlabels; i++) {
        const hlabel *lb = &x->hc->labels[i];
        size_t ln = strlen(lb->name);
        if (strncmp(p, lb->name, ln) || ctx_card(x, r.id) != lb->entry) continue;
        if (vm(x, p + ln, r.end, ve, depth + 1)) return 1;
        if (vm(x, p + ln, r.id_end, ve, depth + 1)) return 1; /* fs1/0@2 */
        if (abl && !strncmp(p + ln, r.id_end, abl) && vm(x, p + ln + abl, r.end, ve, depth + 1)) return 1; /* fs1/0 */
      }
      return 0;
    }
    if (!*p || v >= ve || *p != *v) return 0;
    p++;
    v++;
  }
  return 1;
}

int value_matches(hctx *x, const char *pattern, const char *v, size_t n) { return vm(x, pattern, v, v + n, 0); }

/* Splits a value at top-level "," or " | "; returns the number of elements. */
static int split_list(const char *v, size_t n, const char **el, size_t *len, int max) {
  int k = 0;
  const char *start = v, *e = v + n;
  for (const char *p = v; p <= e; p++) {
    if (p < e && *p == '"') {
      p = quoted_end(p, e) - 1; /* a quoted name is never split */
      continue;
    }
    int sep = 0;
    if (p == e) sep = 1;
    else if (*p == ',') sep = 1;
    else if (e - p >= 3 && !strncmp(p, " | ", 3)) sep = 3;
    if (!sep) continue;
    if (k < max) {
      el[k] = start;
      len[k] = (size_t)(p - start);
    }
    k++;
    if (p == e) break;
    start = p + sep;
    p += sep - 1;
  }
  return k;
}

int list_matches(hctx *x, const char *const *pats, int npats, const char *v, size_t n) {
  const char *el[64];
  size_t len[64];
  int k = n ? split_list(v, n, el, len, 64) : 0;
  if (k != npats || k > 64) return 0;
  for (int i = 0; i < k; i++)
    if (!value_matches(x, pats[i], el[i], len[i])) return 0;
  return 1;
}

/* ---- log lines ---- */

/* Field `key` of a canonical line: "type k=v k=v"; a value runs to the next
 * " k=" outside quotes (so `choice=cast "Lightning Bolt"#4` keeps its words),
 * and a decision's choice runs to the end of the line. */
const char *log_field(const char *line, const char *key, size_t *len) {
  size_t kl = strlen(key);
  int decide = !strncmp(line, "decide ", 7);
  const char *p = strchr(line, ' ');
  while (p && *p) {
    p++;
    /* p starts a token: a key=value field if it has '=' before a space outside quotes */
    const char *q = p;
    while (*q && *q != ' ' && *q != '=') q = *q == '"' ? quoted_end(q, NULL) : q + 1;
    if (*q != '=') {
      p = strchr(q, ' ');
      continue;
    }
    const char *val = q + 1, *end = val;
    if (decide && (size_t)(q - p) == 6 && !strncmp(p, "choice", 6)) end = val + strlen(val);
    else {
      /* up to the next token that is itself a field */
      for (;;) {
        while (*end && *end != ' ') end = *end == '"' ? quoted_end(end, NULL) : end + 1;
        if (!*end) break;
        const char *t = end + 1;
        while (*t && *t != ' ' && *t != '=') t = *t == '"' ? quoted_end(t, NULL) : t + 1;
        if (*t == '=') break;
        end = t;
      }
    }
    if ((size_t)(q - p) == kl && !strncmp(p, key, kl)) {
      *len = (size_t)(end - val);
      return val;
    }
    p = *end ? end : NULL;
  }
  return NULL;
}

static int type_is(const char *line, const char *type) {
  if (line[0] != type[0]) return 0; /* most lines, told without a call: every line is tried against a pattern */
  size_t n = strlen(type);
  return !strncmp(line, type, n) && (line[n] == ' ' || !line[n]);
}

static int field_ok(hctx *x, const char *line, const char *key, const ynode *want) {
  size_t n;
  const char *v = log_field(line, key, &n);
  if (!v) return 0;
  if (want->kind == YN_SCALAR) return value_matches(x, want->str, v, n);
  const char *pats[64];
  int k = want->n < 64 ? want->n : 64;
  for (int i = 0; i < k; i++) pats[i] = want->items[i]->str;
  return list_matches(x, pats, k, v, n);
}

/* number of the pattern's parts (type, fields) the line satisfies */
static int score(hctx *x, const hpat *p, const char *line) {
  int s = 0;
  if (p->type && type_is(line, p->type)) s += 1;
  for (int i = 0; i < p->nf; i++) s += field_ok(x, line, p->keys[i], p->vals[i]);
  return s;
}

static int matches(hctx *x, const hpat *p, const char *line) {
  if (p->type && !type_is(line, p->type)) return 0;
  for (int i = 0; i < p->nf; i++)
    if (!field_ok(x, line, p->keys[i], p->vals[i])) return 0;
  return 1;
}

static void pattern_text(buf *b, const hpat *p) {
  buf_puts(b, "{");
  int first = 1;
  if (p->type) {
    buf_printf(b, "type: %s", p->type);
    first = 0;
  }
  for (int i = 0; i < p->nf; i++) {
    buf_printf(b, "%s%s: ", first ? "" : ", ", p->keys[i]);
    first = 0;
    const ynode *v = p->vals[i];
    if (v->kind == YN_SCALAR) buf_puts(b, v->str);
    else {
      buf_puts(b, "[");
      for (int k = 0; k < v->n; k++) buf_printf(b, "%s%s", k ? ", " : "", v->items[k]->str);
      buf_puts(b, "]");
    }
  }
  if (p->times != 1) buf_printf(b, "%stimes: %d", first ? "" : ", ", p->times);
  buf_puts(b, "}");
}

/* How the line differs from the pattern, field by field. */
static void explain(hctx *x, buf *b, const hpat *p, const char *line) {
  if (p->type && !type_is(line, p->type)) {
    const char *sp = strchr(line, ' ');
    buf_printf(b, "type: want %s, got %.*s; ", p->type, (int)(sp ? sp - line : (long)strlen(line)), line);
  }
  for (int i = 0; i < p->nf; i++) {
    size_t n;
    const char *v = log_field(line, p->keys[i], &n);
    if (!v) buf_printf(b, "%s: missing; ", p->keys[i]);
    else if (!field_ok(x, line, p->keys[i], p->vals[i])) {
      const ynode *w = p->vals[i];
      buf_printf(b, "%s: want %s, got %.*s; ", p->keys[i], w->kind == YN_SCALAR ? w->str : "[list]", (int)n, v);
    }
  }
  if (b->len >= 2 && !strcmp(b->s + b->len - 2, "; ")) {
    b->len -= 2;
    b->s[b->len] = 0;
  }
}

/* A key the pattern uses that no line of its type has: likely misspelt. */
static void key_hint(hctx *x, buf *b, const hpat *p) {
  int nlog = mtg_log_count(x->g);
  for (int i = 0; i < p->nf; i++) {
    int seen = 0, any = 0;
    char cand[16][32];
    const char *cv[16];
    int nc = 0;
    for (int l = 0; l < nlog && !seen; l++) {
      const char *line = mtg_log_line(x->g, l);
      if (p->type && !type_is(line, p->type)) continue;
      any = 1;
      size_t n;
      if (log_field(line, p->keys[i], &n)) seen = 1;
      /* this type's keys, for a suggestion */
      for (const char *q = strchr(line, ' '); q && nc < 16; q = strchr(q + 1, ' ')) {
        const char *k = q + 1, *eq = k;
        while (*eq && *eq != '=' && *eq != ' ' && *eq != '"') eq++;
        if (*eq != '=' || eq == k || (size_t)(eq - k) >= sizeof cand[0]) continue;
        int dup = 0;
        for (int c = 0; c < nc; c++)
          if (strlen(cand[c]) == (size_t)(eq - k) && !strncmp(cand[c], k, (size_t)(eq - k))) dup = 1;
        if (dup) continue;
        memcpy(cand[nc], k, (size_t)(eq - k));
        cand[nc][eq - k] = 0;
        cv[nc] = cand[nc];
        nc++;
      }
    }
    if (seen || !any) continue; /* no line of the type at all: nothing to hint */
    const char *best = suggest_best(p->keys[i], cv, nc);
    buf_printf(b, "  note: no %s line has a field '%s'%s%s%s\n", p->type ? p->type : "log", p->keys[i],
               best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
  }
}

static void context(hctx *x, buf *b, int at, int mark2) {
  int n = mtg_log_count(x->g);
  int lo = at - 4 < 0 ? 0 : at - 4, hi = at + 4 >= n ? n - 1 : at + 4;
  for (int i = lo; i <= hi; i++)
    buf_printf(b, "  %s %4d  %s\n", i == at ? ">" : i == mark2 ? "*" : " ", i + 1, mtg_log_line(x->g, i));
}

/* The line most like the pattern, preferring lines from `from` on. */
static int closest(hctx *x, const hpat *p, int from, int *best_score) {
  int n = mtg_log_count(x->g), best = -1, bs = 0;
  for (int pass = 0; pass < 2 && best < 0; pass++)
    for (int i = pass ? 0 : from; i < (pass ? from : n); i++) {
      const char *line = mtg_log_line(x->g, i);
      int s = score(x, p, line);
      /* a line of the right type beats any number of coincidental fields */
      if (p->type && type_is(line, p->type)) s += 1000;
      if (s > bs) {
        bs = s;
        best = i;
      }
    }
  *best_score = bs;
  return best;
}

static void fail_pattern(hctx *x, hfail *f, const hpat *p, int from, const char *what) {
  f->failed = 1;
  f->line = p->at->line;
  buf_printf(&f->summary, "%s", what);
  pattern_text(&f->expected, p);
  int bs, c = closest(x, p, from, &bs);
  buf_printf(&f->detail, "%s\n  expected: %s\n", what, buf_str(&f->expected));
  if (c >= 0 && bs > 0) {
    const char *line = mtg_log_line(x->g, c);
    buf_puts(&f->actual, line);
    buf b = {0};
    explain(x, &b, p, line);
    buf_printf(&f->detail, "  closest:  #%d %s\n            (%s)\n", c + 1, line, buf_str(&b));
    buf_free(&b);
  } else {
    buf_puts(&f->actual, "(no similar event)");
    buf_puts(&f->detail, "  closest:  no event of that type\n");
  }
  /* the same event earlier than allowed is an ordering problem */
  for (int i = 0; i < from; i++)
    if (matches(x, p, mtg_log_line(x->g, i))) {
      buf_printf(&f->detail, "  note: #%d matches, but it comes before the event matched by the previous expectation\n",
                 i + 1);
      break;
    }
  key_hint(x, &f->detail, p);
  int at = c >= 0 && bs > 0 ? c : from - 1;
  if (at < 0) at = 0;
  if (mtg_log_count(x->g)) {
    buf_printf(&f->detail, "  log around #%d (> closest, * where the search started):\n", at + 1);
    context(x, &f->detail, at, from < mtg_log_count(x->g) ? from : -1);
  }
}

/* next line index >= i that a sequence considers for pattern p */
static int seq_next(hctx *x, const hpat *p, int i) {
  int n = mtg_log_count(x->g);
  int want_decide = p->type && !strcmp(p->type, "decide");
  while (i < n && !want_decide && mtg_log_is_decision(x->g, i)) i++;
  return i;
}

/* Matches a sequence block starting exactly at line i; returns the index
 * after it, or -(1 + how many patterns matched) on failure with *fail_at. */
static int seq_at(hctx *x, const hevx *e, int i, int *fail_pat, int *fail_line) {
  int n = mtg_log_count(x->g), k = 0;
  for (int j = 0; j < e->np; j++)
    for (int t = 0; t < e->p[j].times; t++, k++) {
      i = seq_next(x, &e->p[j], i);
      if (i >= n || !matches(x, &e->p[j], mtg_log_line(x->g, i))) {
        *fail_pat = j;
        *fail_line = i;
        return -(1 + k);
      }
      i++;
    }
  return i;
}

int match_events(hctx *x, hfail *f) {
  const hcase *hc = x->hc;
  int n = mtg_log_count(x->g), pos = 0;
  char what[256];
  for (int k = 0; k < hc->nevents; k++) {
    const hevx *e = &hc->events[k];
    if (!e->seq) {
      const hpat *p = &e->p[0];
      for (int t = 0; t < p->times; t++) {
        int i = pos;
        while (i < n && !matches(x, p, mtg_log_line(x->g, i))) i++;
        if (i >= n) {
          if (p->times > 1)
            snprintf(what, sizeof what, "event %d of %d (occurrence %d of %d) not found in order", k + 1, hc->nevents,
                     t + 1, p->times);
          else snprintf(what, sizeof what, "event %d of %d not found in order", k + 1, hc->nevents);
          fail_pattern(x, f, p, pos, what);
          return -1;
        }
        pos = i + 1;
      }
      continue;
    }
    int best_len = -1, best_pat = 0, best_line = pos, start = -1;
    for (int i = pos; i < n; i++) {
      int fp = 0, fl = 0;
      int r = seq_at(x, e, i, &fp, &fl);
      if (r >= 0) {
        start = i;
        pos = r;
        break;
      }
      if (-r - 1 > best_len) {
        best_len = -r - 1;
        best_pat = fp;
        best_line = fl;
      }
    }
    if (start >= 0) continue;
    f->failed = 1;
    f->line = e->at->line;
    if (best_len <= 0) {
      snprintf(what, sizeof what, "sequence block %d of %d: its first event was not found", k + 1, hc->nevents);
      fail_pattern(x, f, &e->p[0], pos, what);
      return -1;
    }
    const hpat *p = &e->p[best_pat];
    f->line = p->at->line;
    snprintf(what, sizeof what, "sequence block %d of %d breaks at pattern %d: the next event differs", k + 1,
             hc->nevents, best_pat + 1);
    buf_puts(&f->summary, what);
    pattern_text(&f->expected, p);
    buf_printf(&f->detail, "%s\n  expected: %s\n", what, buf_str(&f->expected));
    if (best_line < n) {
      const char *line = mtg_log_line(x->g, best_line);
      buf_puts(&f->actual, line);
      buf b = {0};
      explain(x, &b, p, line);
      buf_printf(&f->detail, "  actual:   #%d %s\n            (%s)\n", best_line + 1, line, buf_str(&b));
      buf_free(&b);
    } else {
      buf_puts(&f->actual, "(end of log)");
      buf_puts(&f->detail, "  actual:   the log ends there\n");
    }
    key_hint(x, &f->detail, p);
    int at = best_line < n ? best_line : n - 1;
    if (at >= 0) {
      buf_printf(&f->detail, "  log around #%d:\n", at + 1);
      context(x, &f->detail, at, -1);
    }
    return -1;
  }
  for (int k = 0; k < hc->ncounts; k++) {
    const hpat *p = &hc->counts[k];
    int cnt = 0;
    for (int i = 0; i < n; i++) cnt += matches(x, p, mtg_log_line(x->g, i));
    if (cnt == p->times) continue;
    f->failed = 1;
    f->line = p->at->line;
    snprintf(what, sizeof what, "count %d of %d: %d matching events, expected %d", k + 1, hc->ncounts, cnt, p->times);
    buf_puts(&f->summary, what);
    pattern_text(&f->expected, p);
    buf_printf(&f->actual, "%d matching events", cnt);
    buf_printf(&f->detail, "%s\n  pattern: %s\n", what, buf_str(&f->expected));
    int shown = 0;
    for (int i = 0; i < n && shown < 12; i++)
      if (matches(x, p, mtg_log_line(x->g, i))) {
        buf_printf(&f->detail, "    #%d %s\n", i + 1, mtg_log_line(x->g, i));
        shown++;
      }
    if (!cnt) {
      int bs, c = closest(x, p, 0, &bs);
      if (c >= 0 && bs > 0) buf_printf(&f->detail, "  closest: #%d %s\n", c + 1, mtg_log_line(x->g, c));
      key_hint(x, &f->detail, p);
    }
    return -1;
  }
  for (int k = 0; k < hc->nabsent; k++) {
    const hpat *p = &hc->absent[k];
    for (int i = 0; i < n; i++) {
      if (!matches(x, p, mtg_log_line(x->g, i))) continue;
      f->failed = 1;
      f->line = p->at->line;
      snprintf(what, sizeof what, "absent %d of %d: a forbidden event occurred (#%d)", k + 1, hc->nabsent, i + 1);
      buf_puts(&f->summary, what);
      buf_puts(&f->expected, "no event matching ");
      pattern_text(&f->expected, p);
      buf_puts(&f->actual, mtg_log_line(x->g, i));
      buf_printf(&f->detail, "%s\n  forbidden: %s\n  found:     #%d %s\n  log around #%d:\n", what,
                 buf_str(&f->expected) + 18, i + 1, mtg_log_line(x->g, i), i + 1);
      context(x, &f->detail, i, -1);
      return -1;
    }
  }
  return 0;
}

/* ---- state ---- */

typedef struct objv {
  uint32_t id;
  mtg_object o;
} objv;

typedef struct objset {
  objv *v;
  int n;
} objset;

static void collect(hctx *x, uint32_t id, void *ctx) {
  objset *s = ctx;
  if (s->n >= MAXOBJ) return;
  if (mtg_object_info(x->g, id, &s->v[s->n].o) != MTG_OK) return;
  s->v[s->n++].id = id;
}

static int obj_is(hctx *x, const objv *o, const char *spec) { return ref_matches(x, o->id, o->o.name, spec); }

static void diff(buf *d, int *count, int *first_line, const ynode *at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
static void diff(buf *d, int *count, int *first_line, const ynode *at, const char *fmt, ...) {
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (!*count) *first_line = at ? at->line : 0;
  (*count)++;
  buf_printf(d, "%s (line %d)\n", line, at ? at->line : 0);
}

static void names_of(hctx *x, const uint32_t *ids, int n, buf *b) {
  buf_puts(b, "[");
  for (int i = 0; i < n; i++) {
    const char *name = mtg_object_name(x->g, ids[i]);
    if (name) buf_printf(b, "%s%s", i ? ", " : "", name);
    else buf_printf(b, "%s#%u", i ? ", " : "", (unsigned)ids[i]);
  }
  buf_puts(b, "]");
}

/* Finds an unused object among ids[] that `spec` names; labels first so that a
 * name does not take the card a label wants. */
static int take(hctx *x, const uint32_t *ids, int n, char *used, const char *spec) {
  for (int i = 0; i < n; i++) {
    if (used[i]) continue;
    const char *name = mtg_object_name(x->g, ids[i]);
    if (!name) continue;
    if (ref_matches(x, ids[i], name, spec)) {
      used[i] = 1;
      return i;
    }
  }
  return -1;
}

/* The names of a zone's objects for a difference's message, written into b the
 * first time one asks: most checks find none, and the names cost a search of
 * the game's objects each. */
static const char *zone_names(hctx *x, const uint32_t *ids, int n, buf *b) {
  if (!b->len) names_of(x, ids, n, b);
  return buf_str(b);
}

static void zone_check(hctx *x, const hzonex *z, buf *d, int *cnt, int *first) {
  uint32_t ids[MAXOBJ];
  int n = mtg_zone_objects(x->g, z->player, z->zone, ids, MAXOBJ);
  if (n > MAXOBJ) n = MAXOBJ;
  const char *pn = x->hc->players[z->player], *zn = mtg_zone_name(z->zone);
  buf actual = {0}; /* the zone's names, written for the first difference (zone_names) */
  if (z->count != UNSET && n != z->count)
    diff(d, cnt, first, z->at, "players.%s.%s: expected %d cards, actual %d %s", pn, zn, z->count, n, zone_names(x, ids, n, &actual));
  char used[MAXOBJ];
  if (z->has_exact) {
    int ok = n == z->nexact;
    /* a library, and the command zone (whose scheme and planar decks are in it, 901.4, 904.4), in order */
    int ordered = z->zone == MTG_Z_LIBRARY || z->zone == MTG_Z_COMMAND;
    if (ok && ordered) {
      for (int i = 0; i < n && ok; i++) {
        const char *name = mtg_object_name(x->g, ids[i]);
        ok = name && ref_matches(x, ids[i], name, z->exact[i]);
      }
    } else if (ok) {
      memset(used, 0, (size_t)n);
      /* labels before names */
      for (int pass = 0; pass < 2 && ok; pass++)
        for (int i = 0; i < z->nexact && ok; i++)
          if ((case_label(x->hc, z->exact[i]) != NULL) == (pass == 0)) ok = take(x, ids, n, used, z->exact[i]) >= 0;
    }
    if (!ok) {
      buf want = {0};
      buf_puts(&want, "[");
      for (int i = 0; i < z->nexact; i++) buf_printf(&want, "%s%s", i ? ", " : "", z->exact[i]);
      buf_puts(&want, "]");
      diff(d, cnt, first, z->at, "players.%s.%s: expected %s%s, actual %s", pn, zn, buf_str(&want),
           ordered ? " (top first)" : "", zone_names(x, ids, n, &actual));
      buf_free(&want);
    }
  }
  memset(used, 0, (size_t)n);
  for (int i = 0; i < z->nincl; i++)
    if (take(x, ids, n, used, z->incl[i]) < 0)
      diff(d, cnt, first, z->at, "players.%s.%s: expected to include %s, actual %s", pn, zn, z->incl[i], zone_names(x, ids, n, &actual));
  for (int i = 0; i < z->nexcl; i++) {
    memset(used, 0, (size_t)n);
    if (take(x, ids, n, used, z->excl[i]) >= 0)
      diff(d, cnt, first, z->at, "players.%s.%s: expected not to include %s, actual %s", pn, zn, z->excl[i],
           zone_names(x, ids, n, &actual));
  }
  buf_free(&actual);
}

static int counters_of(const mtg_object *o, const char *kind) {
  for (int i = 0; i < o->n_counters; i++)
    if (!strcmp(o->counter_kind[i], kind)) return o->counter_n[i];
  return 0;
}

/* Mismatches of one object against its expectation, as text; returns how many. */
static int obj_mismatch(hctx *x, const hobjx *e, const objv *v, buf *b) {
  const mtg_object *o = &v->o;
  int k = 0;
  const char *const *pl = x->hc->players;
#define MISS(...) (buf_printf(b, "%s", k++ ? ", " : ""), buf_printf(b, __VA_ARGS__))
  if (e->zone >= 0 && o->zone != e->zone) MISS("zone: expected %s, actual %s", mtg_zone_name(e->zone), mtg_zone_name(o->zone));
  if (e->owner >= 0 && o->owner != e->owner) MISS("owner: expected %s, actual %s", pl[e->owner], pl[o->owner]);
  if (e->controller >= 0 && o->controller != e->controller)
    MISS("controller: expected %s, actual %s", pl[e->controller], pl[o->controller]);
  if (e->power != UNSET && o->power != e->power) MISS("power: expected %d, actual %d", e->power, o->power);
  if (e->toughness != UNSET && o->toughness != e->toughness)
    MISS("toughness: expected %d, actual %d", e->toughness, o->toughness);
  if (e->damage != UNSET && o->damage != e->damage) MISS("damage: expected %d, actual %d", e->damage, o->damage);
  if (e->loyalty != UNSET && o->loyalty != e->loyalty) MISS("loyalty: expected %d, actual %d", e->loyalty, o->loyalty);
  if (e->tapped >= 0 && !!o->tapped != e->tapped) MISS("tapped: expected %s", e->tapped ? "true" : "false");
  if (e->sick >= 0 && !!o->sick != e->sick) MISS("sick: expected %s", e->sick ? "true" : "false");
  if (e->token >= 0 && !!o->is_token != e->token) MISS("token: expected %s", e->token ? "true" : "false");
  if (e->attacking >= 0 && !!o->attacking != e->attacking) MISS("attacking: expected %s", e->attacking ? "true" : "false");
  if (e->blocking >= 0 && !!o->blocking != e->blocking) MISS("blocking: expected %s", e->blocking ? "true" : "false");
  if (e->face_down >= 0 && !!o->face_down != e->face_down) MISS("face_down: expected %s", e->face_down ? "true" : "false");
  if (e->protector >= 0 && o->protector != e->protector)
    MISS("protector: expected %s, actual %s", pl[e->protector],
         o->protector >= 0 && o->protector < x->hc->nplayers ? pl[o->protector] : "none");
  if (e->sector && (!o->sector || strcmp(o->sector, e->sector)))
    MISS("sector: expected %s, actual %s", e->sector, o->sector ? o->sector : "none");
  if (e->types && strcmp(o->types, e->types)) MISS("types: expected %s, actual %s", e->types, o->types);
  if (e->room && (!o->room_name || strcmp(o->room_name, e->room)))
    MISS("room: expected %s, actual %s", e->room, o->room_name ? o->room_name : "none");
  if (e->attached_to) {
    int ok = 0;
    mtg_object t;
    if (o->attached_to && mtg_object_info(x->g, o->attached_to, &t) == MTG_OK)
      ok = ref_matches(x, o->attached_to, t.name, e->attached_to);
    else if (o->attached_player >= 0 && o->attached_player < x->hc->nplayers)
      ok = !strcmp(pl[o->attached_player], e->attached_to);
    if (!ok)
      MISS("attached_to: expected %s, actual %s", e->attached_to,
           o->attached_to ? "an object" : o->attached_player >= 0 ? pl[o->attached_player] : "nothing");
  }
  for (int i = 0; i < e->ncounters; i++) {
    int have = counters_of(o, e->counters[i].kind);
    if (have != e->counters[i].n)
      MISS("counters %s: expected %d, actual %d", e->counters[i].kind, e->counters[i].n, have);
  }
#undef MISS
  return k;
}

int match_state(hctx *x, buf *d, int *first) {
  const hcase *hc = x->hc;
  int cnt = 0;
  *first = 0;
  for (int i = 0; i < hc->npx; i++) {
    const hplayerx *e = &hc->px[i];
    mtg_player p;
    mtg_player_info(x->g, e->player, &p);
    const char *pn = hc->players[e->player];
    if (e->life != UNSET && p.life != e->life)
      diff(d, &cnt, first, e->at, "players.%s.life: expected %d, actual %d", pn, e->life, p.life);
    if (e->poison != UNSET && p.poison != e->poison)
      diff(d, &cnt, first, e->at, "players.%s.poison: expected %d, actual %d", pn, e->poison, p.poison);
    if (e->lost >= 0 && !!p.lost != e->lost)
      diff(d, &cnt, first, e->at, "players.%s.lost: expected %s", pn, e->lost ? "true" : "false");
    if (e->won >= 0 && !!p.won != e->won)
      diff(d, &cnt, first, e->at, "players.%s.won: expected %s", pn, e->won ? "true" : "false");
    if (e->hand_revealed >= 0 && !!p.hand_revealed != e->hand_revealed)
      diff(d, &cnt, first, e->at, "players.%s.hand_revealed: expected %s", pn, e->hand_revealed ? "true" : "false");
    if (e->team != UNSET && p.team != e->team)
      diff(d, &cnt, first, e->at, "players.%s.team: expected %d, actual %d", pn, e->team, p.team);
    if (e->dungeons != UNSET && p.dungeons_completed != e->dungeons)
      diff(d, &cnt, first, e->at, "players.%s.dungeons_completed: expected %d, actual %d", pn, e->dungeons,
           p.dungeons_completed);
    for (int k = 0; k < e->ncmd; k++) {
      const hcmdx *c = &e->cmd[k];
      int have = mtg_commander_damage(x->g, e->player, c->card);
      if (have < 0)
        diff(d, &cnt, first, c->at, "players.%s.commander_damage.%s: expected %d, actual none (not a commander)", pn,
             c->label, c->n);
      else if (have != c->n)
        diff(d, &cnt, first, c->at, "players.%s.commander_damage.%s: expected %d, actual %d", pn, c->label, c->n, have);
    }
    for (int k = 0; k < e->ncounters; k++) {
      int have = mtg_counters(x->g, 0, e->player, e->counters[k].kind);
      if (have != e->counters[k].n)
        diff(d, &cnt, first, e->counters[k].at, "players.%s.counters.%s: expected %d, actual %d", pn, e->counters[k].kind,
             e->counters[k].n, have);
    }
  }
  for (int i = 0; i < hc->nzx; i++) zone_check(x, &hc->zx[i], d, &cnt, first);
  if (hc->nox) {
    objset all = {malloc(MAXOBJ * sizeof(objv)), 0};
    if (all.v) each_object(x, collect, &all);
    for (int i = 0; i < hc->nox && all.v; i++) {
      const hobjx *e = &hc->ox[i];
      int best = -1, bestk = 1 << 30, cands = 0;
      buf why = {0}, tmp = {0};
      for (int k = 0; k < all.n; k++) {
        if (!obj_is(x, &all.v[k], e->ref)) continue;
        cands++;
        buf_reset(&tmp);
        int m = obj_mismatch(x, e, &all.v[k], &tmp);
        if (m < bestk) {
          bestk = m;
          best = k;
          buf_reset(&why);
          buf_puts(&why, buf_str(&tmp));
        }
      }
      if (!cands) {
        diff(d, &cnt, first, e->at, "objects.%s: no such object in any zone", e->ref);
      } else if (bestk) {
        diff(d, &cnt, first, e->at, "objects.%s: %s%s (#%u in %s; %d object%s of that name)", e->ref, buf_str(&why), "",
             (unsigned)all.v[best].id, mtg_zone_name(all.v[best].o.zone), cands, cands == 1 ? "" : "s");
      }
      buf_free(&why);
      buf_free(&tmp);
    }
    free(all.v);
  }
  const hresultx *r = &hc->result;
  if (r->given) {
    mtg_result res;
    mtg_game_result(x->g, &res);
    if (r->over >= 0 && !!res.over != r->over)
      diff(d, &cnt, first, r->at, "result.over: expected %s, actual %s", r->over ? "true" : "false",
           res.over ? "true" : "false");
    if (r->draw >= 0 && !!res.draw != r->draw)
      diff(d, &cnt, first, r->at, "result.draw: expected %s", r->draw ? "true" : "false");
    if (r->stopped >= 0 && !!res.stopped != r->stopped)
      diff(d, &cnt, first, r->at, "result.stopped: expected %s", r->stopped ? "true" : "false");
    if (r->has_winners && res.winners != r->winners) {
      buf w = {0};
      for (int p = 0; p < hc->nplayers; p++)
        if (res.winners >> p & 1) buf_printf(&w, "%s%s", w.len ? ", " : "", hc->players[p]);
      diff(d, &cnt, first, r->at, "result.winners: actual [%s]", buf_str(&w));
      buf_free(&w);
    }
    if (r->has_losers && res.losers != r->losers) {
      buf w = {0};
      for (int p = 0; p < hc->nplayers; p++)
        if (res.losers >> p & 1) buf_printf(&w, "%s%s", w.len ? ", " : "", hc->players[p]);
      diff(d, &cnt, first, r->at, "result.losers: actual [%s]", buf_str(&w));
      buf_free(&w);
    }
  }
  if (hc->turn_x != UNSET && mtg_game_turn(x->g) != hc->turn_x)
    diff(d, &cnt, first, hc->root, "turn: expected %d, actual %d", hc->turn_x, mtg_game_turn(x->g));
  if (hc->step_x >= 0 && mtg_game_step(x->g) != hc->step_x)
    diff(d, &cnt, first, hc->root, "step: expected %s, actual %s", mtg_step_name(hc->step_x),
         mtg_step_name(mtg_game_step(x->g)));
  if (hc->active_x >= 0 && mtg_game_active(x->g) != hc->active_x)
    diff(d, &cnt, first, hc->root, "active: expected %s, actual %s", hc->players[hc->active_x],
         hc->players[mtg_game_active(x->g)]);
  if (hc->stack_x != UNSET) {
    int n = mtg_zone_objects(x->g, -1, MTG_Z_STACK, NULL, 0);
    if (n != hc->stack_x) diff(d, &cnt, first, hc->root, "stack: expected %d objects, actual %d", hc->stack_x, n);
  }
  return cnt;
}

void hfail_free(hfail *f) {
  buf_free(&f->summary);
  buf_free(&f->expected);
  buf_free(&f->actual);
  buf_free(&f->detail);
}
