/* replaylog.c - the replay file (format in docs/replay-format.md): the writer
 * used by self-play and the harness, the reader used by bin/replay, and the
 * checkpoint and trailer records both sides build. */
#include "replaylog.h"

#include "mtg_private.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "zlines.h"

#define MAGIC "arbiter-replay"
#define BUF_SIZE 65536
#define MAX_HEADER_TEXT (8 << 20) /* setup and card text together */

/* ---- shared records ---- */

uint64_t rlog_chain(uint64_t h, const char *line, size_t len) {
  const unsigned char *b = (const unsigned char *)line;
  for (size_t i = 0; i < len; i++) h = (h ^ b[i]) * 0x100000001b3ULL;
  return (h ^ '\n') * 0x100000001b3ULL;
}

void rlog_checkpoint_line(char *buf, size_t size, const mtg_game *g, long events, long decisions) {
  snprintf(buf, size, "@checkpoint turn=%d step=%s event=%ld decision=%ld hash=%016" PRIx64, mtg_game_turn(g),
           mtg_step_name(mtg_game_step(g)), events, decisions, mtg_game_hash(g));
}

void rlog_trailer_line(char *buf, size_t size, long events, long decisions, long checkpoints, const char *status,
                       uint64_t chain) {
  snprintf(buf, size, "@end events=%ld decisions=%ld checkpoints=%ld status=%s chain=%016" PRIx64, events, decisions,
           checkpoints, status, chain);
}

static int starts(const char *s, const char *prefix) { return !strncmp(s, prefix, strlen(prefix)); }

/* ---- writer ---- */

struct rlog_writer {
  FILE *f;
  z_stream z;
  int zinit;
  mtg_error err;       /* the first failure; later calls repeat it */
  long events, decisions, checkpoints;
  uint64_t chain;
  int turn_unchecked;  /* a turn began since the last checkpoint */
  size_t inlen;
  char in[BUF_SIZE];   /* text waiting to be compressed */
  unsigned char out[BUF_SIZE];
};

static int wfail(rlog_writer *w, mtg_error *err, int status, const char *what) {
  if (!w->err.status) mtg_error_set(&w->err, status, "%s", what);
  if (err) *err = w->err;
  return w->err.status;
}

/* Compresses the pending text with `flush` and writes what deflate produces. */
static int deflate_pending(rlog_writer *w, int flush, mtg_error *err) {
  if (w->err.status) return wfail(w, err, w->err.status, "");
  w->z.next_in = (unsigned char *)w->in;
  w->z.avail_in = (uInt)w->inlen;
  int rc;
  do {
    w->z.next_out = w->out;
    w->z.avail_out = sizeof w->out;
    rc = deflate(&w->z, flush);
    if (rc == Z_STREAM_ERROR) return wfail(w, err, MTG_EINTERNAL, "zlib deflate failed");
    size_t n = sizeof w->out - w->z.avail_out;
    if (n && fwrite(w->out, 1, n, w->f) != n) return wfail(w, err, MTG_EIO, strerror(errno));
  } while (w->z.avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
  w->inlen = 0;
  return 0;
}

static int put(rlog_writer *w, const char *s, size_t len, mtg_error *err) {
  while (len) {
    if (w->inlen == sizeof w->in && deflate_pending(w, Z_NO_FLUSH, err)) return w->err.status;
    size_t k = sizeof w->in - w->inlen;
    if (k > len) k = len;
    memcpy(w->in + w->inlen, s, k);
    w->inlen += k;
    s += k;
    len -= k;
  }
  return 0;
}

static int put_line(rlog_writer *w, const char *s, mtg_error *err) {
  if (put(w, s, strlen(s), err)) return w->err.status;
  return put(w, "\n", 1, err);
}

/* A header line "key value", the value kept to one line. */
static int put_field(rlog_writer *w, const char *key, const char *value, mtg_error *err) {
  char buf[1024];
  int n = snprintf(buf, sizeof buf, "%s %s", key, value);
  for (int i = 0; i < n && i < (int)sizeof buf; i++)
    if (buf[i] == '\n' || buf[i] == '\r') buf[i] = ' ';
  return put_line(w, buf, err);
}

/* "key N" then the N lines of text (a missing final newline is supplied). */
static int put_block(rlog_writer *w, const char *key, const char *text, mtg_error *err) {
  size_t len = text ? strlen(text) : 0;
  long lines = 0;
  for (size_t i = 0; i < len; i++) lines += text[i] == '\n';
  if (len && text[len - 1] != '\n') lines++;
  char head[64];
  snprintf(head, sizeof head, "%s %ld", key, lines);
  if (put_line(w, head, err) || put(w, text ? text : "", len, err)) return w->err.status;
  return len && text[len - 1] != '\n' ? put(w, "\n", 1, err) : 0;
}

/* "players alice bob" from the setup's "player NAME LIFE" records. */
static void player_names(const char *setup, char *buf, size_t size) {
  size_t u = 0;
  buf[0] = 0;
  for (const char *p = setup; p && *p;) {
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p) : strlen(p);
    if (len > 7 && starts(p, "player ")) {
      const char *name = p + 7, *end = memchr(name, ' ', len - 7);
      size_t n = end ? (size_t)(end - name) : len - 7;
      if (u + n + 2 < size) {
        if (u) buf[u++] = ' ';
        memcpy(buf + u, name, n);
        u += n;
        buf[u] = 0;
      }
    }
    p = eol ? eol + 1 : p + len;
  }
}

int rlog_writer_open(rlog_writer **out, const char *path, const rlog_header *h, mtg_error *err) {
  *out = NULL;
  if (!h || !h->setup_text) {
    mtg_error_set(err, MTG_EARG, "a replay header needs the setup text");
    return MTG_EARG;
  }
  rlog_writer *w = calloc(1, sizeof *w);
  if (!w) {
    mtg_error_set(err, MTG_ENOMEM, "out of memory");
    return MTG_ENOMEM;
  }
  w->chain = RLOG_CHAIN_INIT;
  w->f = fopen(path, "wb");
  if (!w->f) {
    mtg_error_set(err, MTG_EIO, "%s: cannot create: %s", path, strerror(errno));
    free(w);
    return MTG_EIO;
  }
  /* 16 + MAX_WBITS: a gzip wrapper (mtime 0, so equal games give equal files) */
  if (deflateInit2(&w->z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    fclose(w->f);
    free(w);
    mtg_error_set(err, MTG_ENOMEM, "cannot initialise zlib");
    return MTG_ENOMEM;
  }
  w->zinit = 1;
  char num[64], players[256];
  player_names(h->setup_text, players, sizeof players);
  snprintf(num, sizeof num, "%s %d", MAGIC, RLOG_FORMAT_VERSION);
  put_line(w, num, err);
  put_field(w, "engine", MTG_VERSION, err);
  put_field(w, "rules", MTG_RULES_EFFECTIVE, err);
  snprintf(num, sizeof num, "%016" PRIx64, h->pool_hash);
  put_field(w, "pool", num, err);
  snprintf(num, sizeof num, "%" PRIu64, h->seed);
  put_field(w, "seed", num, err);
  put_field(w, "origin", h->origin ? h->origin : "", err);
  put_field(w, "players", players, err);
  put_block(w, "setup", h->setup_text, err);
  put_block(w, "cards", h->cards_yaml, err);
  put_line(w, "log", err);
  if (w->err.status) {
    int rc = w->err.status;
    rlog_writer_close(w, NULL, NULL);
    remove(path);
    return rc;
  }
  *out = w;
  return 0;
}

static int put_log_line(rlog_writer *w, const mtg_game *g, int i, mtg_error *err) {
  const char *line = mtg_log_line(g, i);
  if (starts(line, "turn ")) {
    /* a turn boundary: everything before it reaches the file now, so a crash
     * later still leaves every complete turn readable */
    if (w->events && (deflate_pending(w, Z_SYNC_FLUSH, err) || fflush(w->f)))
      return wfail(w, err, MTG_EIO, strerror(errno));
    w->turn_unchecked = 1;
  }
  size_t len = strlen(line);
  w->chain = rlog_chain(w->chain, line, len);
  w->events++;
  w->decisions += mtg_log_is_decision(g, i) != 0;
  if (put(w, line, len, err)) return w->err.status;
  return put(w, "\n", 1, err);
}

static int put_checkpoint(rlog_writer *w, const mtg_game *g, mtg_error *err) {
  char buf[256];
  rlog_checkpoint_line(buf, sizeof buf, g, w->events, w->decisions);
  w->checkpoints++;
  w->turn_unchecked = 0;
  return put_line(w, buf, err);
}

int rlog_writer_sync(rlog_writer *w, mtg_game *g, mtg_error *err) {
  if (w->err.status) return wfail(w, err, w->err.status, "");
  int n = mtg_log_committed(g);
  for (int i = 0; i < n; i++)
    if (put_log_line(w, g, i, err)) return w->err.status;
  mtg_log_drop(g, n);
  /* a checkpoint only where the log is complete (a top-level decision), so
   * the hash describes the state right after the lines written */
  if (w->turn_unchecked && mtg_log_count(g) == 0 && mtg_game_status(g) == MTG_DECISION)
    return put_checkpoint(w, g, err);
  return 0;
}

int rlog_writer_close(rlog_writer *w, mtg_game *g, mtg_error *err) {
  if (!w) return 0;
  const char *status = "abandoned";
  if (g && !w->err.status) {
    /* the game ends here: entries of an unfinished action are final too */
    int n = mtg_log_count(g);
    for (int i = 0; i < n && !w->err.status; i++) put_log_line(w, g, i, err);
    if (!w->err.status) mtg_log_drop(g, mtg_log_committed(g));
    put_checkpoint(w, g, err);
    status = mtg_game_status(g) == MTG_OVER ? "over" : "open";
  }
  char buf[256];
  rlog_trailer_line(buf, sizeof buf, w->events, w->decisions, w->checkpoints, status, w->chain);
  put_line(w, buf, err);
  deflate_pending(w, Z_FINISH, err);
  if (w->zinit) deflateEnd(&w->z);
  if (fclose(w->f) && !w->err.status) wfail(w, err, MTG_EIO, strerror(errno));
  int rc = w->err.status;
  if (rc && err) *err = w->err;
  free(w);
  return rc;
}

/* ---- reader ---- */

struct rlog_reader {
  zlines *z;
  rlog_info info;
  char *text;       /* origin, setup and cards, NUL-separated */
  size_t tlen, tcap;
  long events, decisions;
  int ended;        /* the trailer has been read */
};

const rlog_info *rlog_reader_info(const rlog_reader *r) { return &r->info; }

void rlog_reader_free(rlog_reader *r) {
  if (!r) return;
  zlines_close(r->z);
  free(r->text);
  free(r);
}

static int format_error(mtg_error *err, const char *fmt, const char *a, const char *b) {
  char shown[96];
  snprintf(shown, sizeof shown, "%s", b);
  mtg_error_set(err, RLOG_EFORMAT, fmt, a, shown);
  return RLOG_EFORMAT;
}

/* The next header line; the stream ending here is a truncation. */
static int header_line(rlog_reader *r, const char **line, size_t *len, mtg_error *err) {
  int rc = zlines_next(r->z, line, len, err);
  if (rc == 0) {
    mtg_error_set(err, RLOG_ETRUNC, "truncated: the file ends inside the header");
    return RLOG_ETRUNC;
  }
  return rc < 0 ? rc : 0;
}

/* Appends text plus a NUL to r->text; returns its offset or -1. */
static long keep(rlog_reader *r, const char *s, size_t len, mtg_error *err) {
  if (r->tlen + len + 2 > MAX_HEADER_TEXT) {
    mtg_error_set(err, RLOG_EFORMAT, "the header is larger than %d bytes: not a replay", MAX_HEADER_TEXT);
    return -1;
  }
  if (r->tlen + len + 2 > r->tcap) {
    size_t cap = r->tcap ? r->tcap : 4096;
    while (cap < r->tlen + len + 2) cap *= 2;
    char *t = realloc(r->text, cap);
    if (!t) {
      mtg_error_set(err, MTG_ENOMEM, "out of memory");
      return -1;
    }
    r->text = t;
    r->tcap = cap;
  }
  long at = (long)r->tlen;
  memcpy(r->text + r->tlen, s, len);
  r->tlen += len;
  r->text[r->tlen] = 0;
  return at;
}

/* Reads the N lines of a "setup N" / "cards N" block into r->text. */
static int read_block(rlog_reader *r, const char *key, const char *count, long *at, mtg_error *err) {
  char *end;
  long n = strtol(count, &end, 10);
  if (*end || n < 0) return format_error(err, "malformed header line \"%s %s\"", key, count);
  *at = keep(r, "", 0, err);
  if (*at < 0) return err->status;
  for (long i = 0; i < n; i++) {
    const char *line;
    size_t len;
    int rc = header_line(r, &line, &len, err);
    if (rc) return rc;
    if (keep(r, line, len, err) < 0 || keep(r, "\n", 1, err) < 0) return err->status;
  }
  r->tlen++; /* keep the block's NUL */
  return 0;
}

static int parse_header(rlog_reader *r, mtg_error *err) {
  const char *line;
  size_t len;
  int rc = header_line(r, &line, &len, err);
  if (rc) return rc;
  if (!starts(line, MAGIC " ")) return format_error(err, "not a replay%s: the first line is \"%s\"", "", line);
  char *end;
  long v = strtol(line + strlen(MAGIC) + 1, &end, 10);
  if (*end || v < 1) return format_error(err, "not a replay%s: malformed first line \"%s\"", "", line);
  r->info.version = (int)v;
  if (v > RLOG_FORMAT_VERSION) {
    mtg_error_set(err, RLOG_EVERSION,
                  "unsupported replay format version %ld: this build reads versions 1 to %d (engine %s)", v,
                  RLOG_FORMAT_VERSION, MTG_VERSION);
    return RLOG_EVERSION;
  }
  long origin = -1, setup = -1, cards = -1;
  int have_pool = 0;
  for (;;) {
    rc = header_line(r, &line, &len, err);
    if (rc) return rc;
    if (!strcmp(line, "log")) break;
    const char *sp = strchr(line, ' ');
    if (!sp) return format_error(err, "malformed header line%s \"%s\"", "", line);
    size_t klen = (size_t)(sp - line);
    const char *val = sp + 1;
    char key[16];
    snprintf(key, sizeof key, "%.*s", klen < sizeof key ? (int)klen : (int)sizeof key - 1, line);
    if (!strcmp(key, "engine")) snprintf(r->info.engine, sizeof r->info.engine, "%s", val);
    else if (!strcmp(key, "rules")) snprintf(r->info.rules, sizeof r->info.rules, "%s", val);
    else if (!strcmp(key, "pool") || !strcmp(key, "seed")) {
      errno = 0;
      uint64_t x = strtoull(val, &end, !strcmp(key, "pool") ? 16 : 10);
      if (*end || !*val || errno) return format_error(err, "malformed header line \"%s %s\"", key, val);
      if (key[0] == 'p') r->info.pool_hash = x, have_pool = 1;
      else r->info.seed = x;
    } else if (!strcmp(key, "origin")) {
      if ((origin = keep(r, val, strlen(val), err)) < 0) return err->status;
      r->tlen++;
    } else if (!strcmp(key, "players")) {
      r->info.nplayers = 0;
      for (const char *p = val; *p && r->info.nplayers < RLOG_MAX_PLAYERS;) {
        size_t n = strcspn(p, " ");
        snprintf(r->info.players[r->info.nplayers++], sizeof r->info.players[0], "%.*s", (int)(n < 31 ? n : 31), p);
        p += n;
        p += strspn(p, " ");
      }
    } else if (!strcmp(key, "setup") || !strcmp(key, "cards")) {
      char count[32];
      snprintf(count, sizeof count, "%s", val);
      rc = read_block(r, key, count, key[0] == 's' ? &setup : &cards, err);
      if (rc) return rc;
    }
    /* other keys: informational fields a later writer may add */
  }
  if (!r->info.engine[0] || !have_pool || setup < 0)
    return format_error(err, "incomplete header%s: %s", "",
                        !r->info.engine[0] ? "no engine version" : !have_pool ? "no pool hash" : "no setup");
  r->info.origin = origin >= 0 ? r->text + origin : "";
  r->info.setup_text = r->text + setup;
  r->info.cards_yaml = cards >= 0 ? r->text + cards : "";
  r->info.cards_len = strlen(r->info.cards_yaml);
  return 0;
}

int rlog_reader_open(rlog_reader **out, const char *path, mtg_error *err) {
  *out = NULL;
  rlog_reader *r = calloc(1, sizeof *r);
  if (!r) {
    mtg_error_set(err, MTG_ENOMEM, "out of memory");
    return MTG_ENOMEM;
  }
  int rc = zlines_open(&r->z, path, err);
  if (!rc) rc = parse_header(r, err);
  if (rc == RLOG_EFORMAT || rc == RLOG_EVERSION) {
    /* a header that makes no sense may be damaged data: then say that */
    mtg_error derr;
    int drc = zlines_drain(r->z, &derr);
    if (drc == RLOG_ECORRUPT || drc == RLOG_ETRUNC) {
      *err = derr;
      rc = drc;
    }
  }
  if (rc) {
    rlog_reader_free(r);
    return rc;
  }
  *out = r;
  return 0;
}

int rlog_reader_next(rlog_reader *r, rlog_record *rec, mtg_error *err) {
  const char *line;
  size_t len;
  int rc = zlines_next(r->z, &line, &len, err);
  if (rc < 0) return rc;
  if (r->ended) {
    if (rc == 0) return 0;
    return format_error(err, "data after the trailer%s: \"%s\"", "", line);
  }
  if (rc == 0) {
    mtg_error_set(err, RLOG_ETRUNC, "truncated: the log ends after event %ld without a trailer", r->events);
    return RLOG_ETRUNC;
  }
  rec->text = line;
  rec->len = len;
  if (line[0] == '@') {
    if (starts(line, "@checkpoint ")) rec->kind = RLOG_R_CHECKPOINT;
    else if (starts(line, "@end ")) {
      rec->kind = RLOG_R_END;
      r->ended = 1;
    } else {
      char after[32];
      snprintf(after, sizeof after, "%ld", r->events);
      return format_error(err, "unknown record after event %s: \"%s\"", after, line);
    }
  } else {
    rec->kind = starts(line, "decide ") ? RLOG_R_DECISION : RLOG_R_EVENT;
    r->events++;
    r->decisions += rec->kind == RLOG_R_DECISION;
  }
  rec->event = r->events;
  rec->decision = r->decisions;
  return 1;
}

int rlog_reader_drain(rlog_reader *r, mtg_error *err) { return zlines_drain(r->z, err); }
