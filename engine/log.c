/* log.c - the event log: one canonical text line per event or decision
 * (docs/events.md). Lines are built from the event's fields only, so they are
 * byte-identical across runs, compilers and optimisation levels. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

const char *const ev_names[EV_COUNT] = {
#define X(e, s) s,
    EVENTS(X)
#undef X
};

static const char *const cause_names[] = {"effect", "cast", "resolve", "destroy", "sacrifice", "discard", "mill",
                                          "draw", "counter", "sba", "play", "token", "cost", "return", "setup"};

const char *player_name(G *g, int p) {
  if (p < 0 || p >= g->s->c.np) return "-";
  return g->s->c.pl[p].name;
}

/* name in double quotes, '"' and '\\' escaped, cut to fit n bytes with
 * the NUL; returns its length. */
static size_t quote(const char *name, char *buf, size_t n) {
  size_t u = 0;
  if (n < 4) {
    if (n) buf[0] = 0;
    return 0;
  }
  buf[u++] = '"';
  /* most names have nothing to escape: copied in one run, as far as it fits */
  size_t run = strcspn(name, "\"\\");
  if (run > n - 4) run = n - 4;
  memcpy(buf + u, name, run);
  u += run;
  for (const char *p = name + run; *p && u + 3 < n; p++) {
    if (*p == '"' || *p == '\\') buf[u++] = '\\';
    buf[u++] = *p;
  }
  buf[u++] = '"';
  buf[u] = 0;
  return u;
}

/* An object's name for the log: the quoted name (at most 99 bytes) and
 * "#id", cut to fit n bytes with the NUL, as fmt_s(buf, n, "%s#%u") writes
 * it, without the formatter: every option label and most lines name one. */
static void fmt_named(const char *name, uint32_t id, char *buf, size_t n) {
  char q[100 + 12];
  size_t u = quote(name, q, 100);
  char num[12];
  size_t k = sizeof num;
  do num[--k] = (char)('0' + id % 10); while ((id /= 10) && k > 0);
  q[u++] = '#';
  memcpy(q + u, num + k, sizeof num - k);
  u += sizeof num - k;
  if (!n) return;
  if (u > n - 1) u = n - 1;
  memcpy(buf, q, u);
  buf[u] = 0;
}

void fmt_lki(const Lki *l, char *buf, size_t n) { fmt_named(l->name ? l->name : "?", l->id, buf, n); }

/* An object's name for the log. Only layer 1 (copy effects), faces and
 * face-down status change names, so no full characteristics are needed. */
static const char *log_name(const Obj *o) {
  if (o->face_down) return "face-down";
  return face_up_def(o)->name;
}

void fmt_slot(G *g, int slot, char *buf, size_t n) {
  if (slot < 0 || !g->s->obj[slot].id) {
    snprintf(buf, n, "-");
    return;
  }
  const Obj *o = &g->s->obj[slot];
  fmt_named(log_name(o), o->id, buf, n);
}

/* An object reference: the object if it still exists, else its id. */
void fmt_obj(G *g, ORef r, char *buf, size_t n) {
  if (oref_ok(g, r)) {
    fmt_slot(g, r.slot, buf, n);
    return;
  }
  if (r.slot >= 0 && r.slot < g->s->c.nslots && g->s->obj[r.slot].def) {
    fmt_named(g->s->obj[r.slot].def->name, r.id, buf, n);
    return;
  }
  fmt_s(buf, n, "#%u", (unsigned)r.id);
}

static void ensure(G *g, size_t more) {
  if (g->tlen + more + 1 > g->tcap) {
    size_t cap = g->tcap ? g->tcap * 2 : 65536;
    while (cap < g->tlen + more + 1) cap *= 2;
    char *t = realloc(g->text, cap);
    if (!t) game_throw(g, JMP_NOMEM);
    g->text = t;
    g->tcap = cap;
  }
  if (g->nent + 1 > g->entcap) {
    int cap = g->entcap ? g->entcap * 2 : 1024;
    LogEnt *e = realloc(g->ent, (size_t)cap * sizeof *e);
    if (!e) game_throw(g, JMP_NOMEM);
    g->ent = e;
    g->entcap = cap;
  }
}

/* vsnprintf for the formats the log and decision labels use (%s %d %u %llu
 * %c %%), which is most of what the engine writes; anything else goes to
 * vsnprintf. Same result and return value as vsnprintf. */
/* Appends s[0..k) at buf[u], as far as it fits with room for the NUL. */
static size_t put_run(char *buf, size_t n, size_t u, const char *s, size_t k) {
  if (u + 1 < n) memcpy(buf + u, s, u + k < n - 1 ? k : n - 1 - u);
  return u + k;
}

int fmt_v(char *buf, size_t n, const char *fmt, va_list ap) {
  va_list again;
  va_copy(again, ap);
  size_t u = 0;
  char num[24];
  for (const char *p = fmt; *p; p++) {
    if (*p != '%') {
      const char *e = strchr(p, '%');
      size_t k = e ? (size_t)(e - p) : strlen(p);
      u = put_run(buf, n, u, p, k);
      p += k - 1;
      continue;
    }
    p++;
    switch (*p) {
    case 's': {
      const char *s = va_arg(ap, const char *);
      if (!s) s = "(null)";
      u = put_run(buf, n, u, s, strlen(s));
      continue;
    }
    case 'd':
    case 'u': {
      unsigned long long v;
      int neg = 0;
      if (*p == 'd') {
        long long x = va_arg(ap, int);
        neg = x < 0;
        v = neg ? (unsigned long long)(-x) : (unsigned long long)x;
      } else {
        v = va_arg(ap, unsigned);
      }
      size_t k = sizeof num;
      do num[--k] = (char)('0' + v % 10); while ((v /= 10) && k > 1);
      if (neg) num[--k] = '-';
      u = put_run(buf, n, u, num + k, sizeof num - k);
      continue;
    }
    case 'c': {
      char ch = (char)va_arg(ap, int);
      u = put_run(buf, n, u, &ch, 1);
      continue;
    }
    case '%':
      u = put_run(buf, n, u, "%", 1);
      continue;
    default: {
      if (p[0] == 'l' && p[1] == 'l' && p[2] == 'u') { /* %llu: the seed of every game_start line */
        p += 2;
        unsigned long long v = va_arg(ap, unsigned long long);
        size_t k = sizeof num;
        do num[--k] = (char)('0' + v % 10); while ((v /= 10) && k > 1);
        u = put_run(buf, n, u, num + k, sizeof num - k);
        continue;
      }
      int w = vsnprintf(buf, n, fmt, again);
      va_end(again);
      return w;
    }
    }
  }
  if (n) buf[u < n ? u : n - 1] = 0;
  va_end(again);
  return (int)u;
}

int fmt_s(char *buf, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int w = fmt_v(buf, n, fmt, ap);
  va_end(ap);
  return w;
}

void log_line(G *g, int decision, const char *fmt, ...) {
  char buf[2048];
  va_list ap;
  va_start(ap, fmt);
  int w = fmt_v(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (w < 0) return;
  size_t len = (size_t)w < sizeof buf ? (size_t)w : sizeof buf - 1;
  /* the work budget counts lines, so it is the same on every run of the
   * same game: a re-run of a segment writes the same lines again */
  if (g->budget && g->dropped + g->nent >= g->budget) game_throw(g, JMP_BUDGET);
  ensure(g, len);
  g->ent[g->nent].off = (uint32_t)g->tlen;
  g->ent[g->nent].decision = (uint8_t)decision;
  g->nent++;
  memcpy(g->text + g->tlen, buf, len);
  g->tlen += len;
  g->text[g->tlen++] = 0;
}

/* A line of any length written in place (a decision's answer listing many
 * options: log_line's buffer would cut it, and a replay could not read the
 * answer back): room for len bytes, then log_commit. */
char *log_reserve(G *g, int decision, size_t len) {
  if (g->budget && g->dropped + g->nent >= g->budget) game_throw(g, JMP_BUDGET);
  ensure(g, len);
  g->ent[g->nent].off = (uint32_t)g->tlen;
  g->ent[g->nent].decision = (uint8_t)decision;
  g->nent++;
  return g->text + g->tlen;
}

void log_commit(G *g, size_t len) {
  g->tlen += len;
  g->text[g->tlen++] = 0;
}

void log_truncate(G *g, int n) {
  if (n >= g->nent) return;
  g->tlen = g->ent[n].off;
  g->nent = n;
  if (g->vocab_seen > n) g->vocab_seen = n;
}

static void target_text(G *g, const Event *e, char *buf, size_t n) {
  if (e->player >= 0 && !e->obj.id) snprintf(buf, n, "%s", player_name(g, e->player));
  else fmt_obj(g, e->obj, buf, n);
}

void log_event(G *g, const Event *e) {
  char a[128], b[128], c[128];
  const char *nm = ev_names[e->type];
  char rule[40] = "";
  if (e->rule) fmt_s(rule, sizeof rule, " rule=%s", e->rule);
  State *s = g->s;
  switch (e->type) {
  case EV_ZONE: {
    Lki l;
    memset(&l, 0, sizeof l);
    fmt_obj(g, e->obj, a, sizeof a);
    if (e->new_slot >= 0 && e->new_id) {
      /* the old object is gone: name it from the card */
      const Obj *o = &s->obj[e->new_slot];
      fmt_named(o->def ? log_name(o) : "?", e->obj.id, a, sizeof a);
    }
    char extra[260] = "";
    if (e->to == MTG_Z_BATTLEFIELD && e->new_slot >= 0) {
      const Obj *o = &s->obj[e->new_slot];
      char at[150] = "";
      /* 508.4: put onto the battlefield attacking: what it attacks */
      if (o->attacking && o->atk_player >= 0) snprintf(at, sizeof at, " attacking=%s", player_name(g, o->atk_player));
      else if (o->attacking) fmt_obj(g, o->atk_obj, c, sizeof c), snprintf(at, sizeof at, " attacking=%s", c);
      snprintf(extra, sizeof extra, " controller=%s%s%s", player_name(g, o->controller), o->tapped ? " tapped=1" : "", at);
    }
    log_line(g, 0, "zone obj=%s new=#%u from=%s to=%s cause=%s%s%s", a, (unsigned)e->new_id,
             e->from >= 0 ? mtg_zone_name(e->from) : "none", mtg_zone_name(e->to), cause_names[e->cause], extra, rule);
    if (e->to == MTG_Z_BATTLEFIELD && e->etb_attach && e->new_slot >= 0) {
      /* 303.4f: entered attached */
      fmt_obj(g, oref(g, e->new_slot), a, sizeof a);
      if (e->etb_attach == 2) snprintf(b, sizeof b, "%s", player_name(g, e->etb_attach_player));
      else fmt_obj(g, e->etb_attach_obj, b, sizeof b);
      log_line(g, 0, "attach obj=%s to=%s", a, b);
    }
    break;
  }
  case EV_DRAW:
    if (!e->new_id) log_line(g, 0, "draw player=%s empty=1", player_name(g, e->player));
    else {
      fmt_slot(g, e->new_slot, a, sizeof a);
      log_line(g, 0, "draw player=%s card=%s", player_name(g, e->player), a);
    }
    break;
  case EV_DESTROY:
  case EV_SACRIFICE:
  case EV_DISCARD:
  case EV_MILL:
  case EV_EXILE:
    fmt_obj(g, e->obj, a, sizeof a);
    log_line(g, 0, "%s obj=%s%s%s%s", nm, a, e->cause_ctl >= 0 ? " by=" : "", e->cause_ctl >= 0 ? player_name(g, e->cause_ctl) : "", rule);
    break;
  case EV_COUNTER_SPELL:
    fmt_obj(g, e->obj, a, sizeof a);
    log_line(g, 0, "counter obj=%s%s", a, rule);
    break;
  case EV_DAMAGE:
    fmt_obj(g, e->src, a, sizeof a);
    target_text(g, e, b, sizeof b);
    log_line(g, 0, "damage src=%s to=%s amount=%d%s%s%s%s%s", a, b, e->amount, (e->flags & EF_COMBAT) ? " combat=1" : "",
             (e->flags & EF_DEATHTOUCH) ? " deathtouch=1" : "", (e->flags & EF_INFECT) ? " infect=1" : "",
             (e->flags & EF_WITHER) ? " wither=1" : "", rule);
    break;
  case EV_GAIN_LIFE:
  case EV_LOSE_LIFE:
    log_line(g, 0, "%s player=%s amount=%d life=%d%s", nm, player_name(g, e->player), e->amount,
             s->c.pl[e->player].life, rule);
    break;
  case EV_COUNTERS:
  case EV_COUNTERS_OFF:
    target_text(g, e, a, sizeof a);
    log_line(g, 0, "%s %s=%s kind=%s n=%d%s", nm, e->obj.id ? "obj" : "player", a, ckind_name(g, e->ckind), e->amount, rule);
    break;
  case EV_TAP:
  case EV_UNTAP:
  case EV_UNATTACH:
  case EV_REGENERATE:
  case EV_CEASE:
  case EV_REMOVE_COMBAT:
    fmt_obj(g, e->obj, a, sizeof a);
    log_line(g, 0, "%s obj=%s%s", nm, a, rule);
    break;
  case EV_TOKEN: {
    char q[100];
    quote(e->token_def ? e->token_def->name : "?", q, sizeof q);
    log_line(g, 0, "create_token player=%s name=%s n=%d", player_name(g, e->player), q, e->amount);
    break;
  }
  case EV_ATTACH:
    fmt_obj(g, e->obj, a, sizeof a);
    if (e->player >= 0) snprintf(b, sizeof b, "%s", player_name(g, e->player));
    else fmt_obj(g, e->src, b, sizeof b);
    log_line(g, 0, "attach obj=%s to=%s%s", a, b, rule);
    break;
  case EV_LOSE:
  case EV_WIN:
    log_line(g, 0, "%s player=%s%s", nm, player_name(g, e->player), rule);
    break;
  case EV_SHUFFLE:
    if (e->to == MTG_Z_GRAVEYARD) log_line(g, 0, "shuffle player=%s zone=graveyard", player_name(g, e->player));
    else log_line(g, 0, "shuffle player=%s", player_name(g, e->player));
    break;
  case EV_MANA:
    fmt_obj(g, e->src, a, sizeof a);
    log_line(g, 0, "add_mana player=%s mana=%c n=%d src=%s", player_name(g, e->player), "WUBRGC"[e->ckind], e->amount, a);
    break;
  case EV_CONTROL:
    fmt_obj(g, e->obj, a, sizeof a);
    log_line(g, 0, "control obj=%s player=%s from=%s", a,
             player_name(g, oref_ok(g, e->obj) ? obj_controller(g, e->obj.slot) : e->player), player_name(g, e->player2));
    break;
  case EV_REVEAL:
    fmt_obj(g, e->obj, a, sizeof a);
    fmt_obj(g, e->src, b, sizeof b);
    log_line(g, 0, "reveal obj=%s player=%s by=%s", a, player_name(g, e->player), b);
    break;
  case EV_FACE_UP:
    fmt_obj(g, e->obj, a, sizeof a);
    log_line(g, 0, "turn_face_up obj=%s rule=702.37e", a);
    break;
  case EV_PHASE:
    fmt_obj(g, e->obj, a, sizeof a);
    log_line(g, 0, "phase obj=%s %s%s rule=702.26", a, e->amount ? "out=1" : "in=1", e->aux ? " indirectly=1" : "");
    break;
  case EV_STEP:
    log_line(g, 0, "step name=%s player=%s", mtg_step_name(e->amount), player_name(g, e->player));
    break;
  case EV_SET_IN_MOTION:
    fmt_obj(g, e->obj, a, sizeof a);
    log_line(g, 0, "set_in_motion player=%s obj=%s%s", player_name(g, e->player), a, rule);
    break;
  case EV_PLANESWALK:
    fmt_obj(g, e->obj, a, sizeof a);
    log_line(g, 0, "planeswalk player=%s to=%s%s", player_name(g, e->player), a, rule);
    break;
  case EV_DECK_BOTTOM: {
    /* named as it was, face up */
    const Obj *o = &s->obj[e->new_slot >= 0 ? e->new_slot : e->obj.slot];
    char q[100];
    quote(o->def ? o->def->name : "?", q, sizeof q);
    char nw[24] = "";
    if (e->new_id != e->obj.id) snprintf(nw, sizeof nw, " new=#%u", (unsigned)e->new_id); /* 311.6, 312.6 */
    log_line(g, 0, "deck_bottom obj=%s#%u%s deck=%s%s", q, (unsigned)e->obj.id, nw,
             o->def && (o->def->types & T_SCHEME) ? "scheme" : "planar", rule);
    break;
  }
  case EV_ATTACKS:
    /* the defending player, or the planeswalker or battle attacked (506.3) */
    fmt_obj(g, e->obj, a, sizeof a);
    if (e->src.id) {
      fmt_obj(g, e->src, c, sizeof c);
      log_line(g, 0, "attacks obj=%s player=%s defender=%s%s", a, player_name(g, e->player), c, rule);
    } else {
      log_line(g, 0, "attacks obj=%s player=%s%s", a, player_name(g, e->player), rule);
    }
    break;
  case EV_BLOCKS:
    fmt_obj(g, e->obj, a, sizeof a);
    fmt_obj(g, e->src, c, sizeof c);
    log_line(g, 0, "blocks obj=%s src=%s%s", a, c, rule);
    break;
  case EV_BLOCKED:
  case EV_UNBLOCKED:
    fmt_obj(g, e->obj, a, sizeof a);
    log_line(g, 0, "%s obj=%s%s", nm, a, rule);
    break;
  case EV_EXERT:
    fmt_obj(g, e->obj, a, sizeof a);
    log_line(g, 0, "exert obj=%s player=%s%s", a, player_name(g, e->player), rule);
    break;
  case EV_BECOMES:
    fmt_obj(g, e->obj, a, sizeof a);
    log_line(g, 0, "becomes obj=%s designation=%s n=%d%s", a, e->ckind == 1 ? "monstrous" : e->ckind == 3 ? "saddled" : e->ckind == 4 ? "crewed" : e->ckind == 5 ? "level" : "renowned", e->amount, rule);
    break;
  default:
    fmt_obj(g, e->obj, a, sizeof a);
    fmt_obj(g, e->src, c, sizeof c);
    log_line(g, 0, "%s obj=%s src=%s player=%s amount=%d%s", nm, a, c, player_name(g, e->player), e->amount, rule);
    break;
  }
}

/* ---- public ---- */

/* A NULL game is misuse: MTG_EARG, NULL or nothing done (mtg.h). */
int mtg_log_count(const mtg_game *g) { return g ? g->nent : MTG_EARG; }
int mtg_log_committed(const mtg_game *g) { return g ? g->committed : MTG_EARG; }
long mtg_log_total(const mtg_game *g) { return g ? g->dropped + g->nent : MTG_EARG; }
const char *mtg_log_line(const mtg_game *g, int i) { return g && i >= 0 && i < g->nent ? g->text + g->ent[i].off : NULL; }
int mtg_log_is_decision(const mtg_game *g, int i) { return g && i >= 0 && i < g->nent ? g->ent[i].decision : 0; }

void mtg_log_drop(mtg_game *g, int n) {
  if (!g) return;
  if (n > g->committed) n = g->committed;
  if (n <= 0) return;
  uint32_t off = n < g->nent ? g->ent[n].off : (uint32_t)g->tlen;
  memmove(g->text, g->text + off, g->tlen - off);
  g->tlen -= off;
  memmove(g->ent, g->ent + n, (size_t)(g->nent - n) * sizeof *g->ent);
  g->nent -= n;
  for (int i = 0; i < g->nent; i++) g->ent[i].off -= off;
  g->committed -= n;
  g->dropped += n;
  g->vocab_seen = g->vocab_seen > n ? g->vocab_seen - n : 0;
}
