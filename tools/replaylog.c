/* replaylog.c - the replay file (format in docs/replay-format.md): the writer
 * used by self-play and the harness, the reader used by bin/replay, and the
 * checkpoint, options and trailer records both sides build. */
#include "replaylog.h"

#include "mtg_private.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libdeflate.h>
#include <zlib.h>

#include "zlines.h"

#define MAGIC "arbiter-replay"
#define BUF_SIZE 65536

/* ---- shared records ---- */

/* FNV-1a 64 over len bytes, continuing from h. Each byte waits on the
 * multiplication before it, so nothing runs in parallel; eight bytes to a
 * turn of the loop halve the instructions the loop itself costs a byte (the
 * chain covers every line of every replay checked). */
static uint64_t fnv1a(uint64_t h, const unsigned char *b, size_t len) {
  const uint64_t prime = 0x100000001b3ULL;
  size_t i = 0;
  for (; i + 8 <= len; i += 8) {
    h = (h ^ b[i]) * prime;
    h = (h ^ b[i + 1]) * prime;
    h = (h ^ b[i + 2]) * prime;
    h = (h ^ b[i + 3]) * prime;
    h = (h ^ b[i + 4]) * prime;
    h = (h ^ b[i + 5]) * prime;
    h = (h ^ b[i + 6]) * prime;
    h = (h ^ b[i + 7]) * prime;
  }
  for (; i < len; i++) h = (h ^ b[i]) * prime;
  return h;
}

uint64_t rlog_chain(uint64_t h, const char *line, size_t len) {
  return (fnv1a(h, (const unsigned char *)line, len) ^ '\n') * 0x100000001b3ULL;
}

uint64_t rlog_text_hash(const char *text, size_t len) {
  return fnv1a(RLOG_CHAIN_INIT, (const unsigned char *)text, len);
}

/* The records written and checked at every decision, turn and file are put
 * together without printf, which costs more than the rest of their work:
 * these append to t at k and return the new length. */
static size_t put_dec(char *t, size_t k, long v) {
  unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
  char digits[24];
  size_t nd = 0;
  do digits[nd++] = (char)('0' + u % 10); while (u /= 10);
  if (v < 0) t[k++] = '-';
  while (nd) t[k++] = digits[--nd];
  return k;
}

static size_t put_hex(char *t, size_t k, uint64_t v, int ndigits) {
  for (int i = ndigits - 1; i >= 0; i--) t[k++] = "0123456789abcdef"[v >> (4 * i) & 15];
  return k;
}

static size_t put_lit(char *t, size_t k, const char *s, size_t max) {
  size_t n = strnlen(s, max);
  memcpy(t + k, s, n);
  return k + n;
}

/* buf gets text[0..k), cut to size as snprintf would */
static void put_out(char *buf, size_t size, const char *text, size_t k) {
  if (!size) return;
  size_t n = k < size ? k : size - 1;
  memcpy(buf, text, n);
  buf[n] = 0;
}

void rlog_checkpoint_line(char *buf, size_t size, const mtg_game *g, long events, long decisions) {
  /* "@checkpoint turn=%d step=%s event=%ld decision=%ld hash=%016" PRIx64 */
  char text[256];
  size_t k = put_lit(text, 0, "@checkpoint turn=", 32);
  k = put_dec(text, k, mtg_game_turn(g));
  k = put_lit(text, k, " step=", 8);
  k = put_lit(text, k, mtg_step_name(mtg_game_step(g)), 64);
  k = put_lit(text, k, " event=", 8);
  k = put_dec(text, k, events);
  k = put_lit(text, k, " decision=", 16);
  k = put_dec(text, k, decisions);
  k = put_lit(text, k, " hash=", 8);
  k = put_hex(text, k, mtg_game_hash(g), 16);
  put_out(buf, size, text, k);
}

static uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  return x ^ (x >> 33);
}

void rlog_options_line(char *buf, size_t size, const mtg_decision *d) {
  if (!d || d->kind == MTG_D_NAME) {
    if (size) buf[0] = 0;
    return;
  }
  /* a sum of the labels' hashes: the same options in another order are the same */
  uint64_t h = mix((uint64_t)d->kind << 48 ^ (uint64_t)(uint16_t)d->min << 32 ^ (uint64_t)(uint16_t)d->max << 16 ^
                   (uint64_t)(uint16_t)d->lo) ^
               mix((uint64_t)(uint32_t)d->hi + 0x9e3779b97f4a7c15ULL);
  for (int i = 0; i < d->n_options; i++) h += mix(rlog_text_hash(d->options[i].label, strlen(d->options[i].label)));
  /* "@options n=%d hash=%08x" */
  char text[48];
  size_t k = put_lit(text, 0, "@options n=", 16);
  k = put_dec(text, k, d->n_options);
  k = put_lit(text, k, " hash=", 8);
  k = put_hex(text, k, (uint32_t)mix(h), 8);
  put_out(buf, size, text, k);
}

void rlog_trailer_line(char *buf, size_t size, long events, long decisions, long checkpoints, const char *status,
                       uint64_t chain) {
  /* "@end events=%ld decisions=%ld checkpoints=%ld status=%s chain=%016" PRIx64 */
  char text[256];
  size_t k = put_lit(text, 0, "@end events=", 16);
  k = put_dec(text, k, events);
  k = put_lit(text, k, " decisions=", 16);
  k = put_dec(text, k, decisions);
  k = put_lit(text, k, " checkpoints=", 16);
  k = put_dec(text, k, checkpoints);
  k = put_lit(text, k, " status=", 16);
  k = put_lit(text, k, status, 64);
  k = put_lit(text, k, " chain=", 8);
  k = put_hex(text, k, chain, 16);
  put_out(buf, size, text, k);
}

static int starts(const char *s, const char *prefix) { return !strncmp(s, prefix, strlen(prefix)); }

void rlog_line_names(const char *line, void (*fn)(void *ctx, const char *name, size_t len), void *ctx) {
  char name[1024];
  for (const char *p = strchr(line, '"'); p; p = strchr(p, '"')) {
    size_t n = 0;
    for (p++; *p && *p != '"'; p++) {
      if (*p == '\\' && (p[1] == '"' || p[1] == '\\')) p++;
      if (n + 1 < sizeof name) name[n++] = *p;
    }
    if (!*p) break; /* no closing quote */
    p++;
    name[n] = 0;
    if (n && n + 1 < sizeof name) fn(ctx, name, n);
  }
  /* a name decision's choices are bare names, " | " between them */
  if (starts(line, "decide kind=name ")) {
    const char *c = strstr(line, " choice=");
    for (c = c ? c + 8 : NULL; c && *c;) {
      const char *bar = strstr(c, " | ");
      size_t n = bar ? (size_t)(bar - c) : strlen(c);
      if (n && n < sizeof name) fn(ctx, c, n);
      c = bar ? bar + 3 : NULL;
    }
  }
}

/* ---- a set of names ---- */

typedef struct nameset {
  char **slot; /* open addressing; NULL is empty */
  size_t cap, n;
} nameset;

static size_t name_hash(const char *s, size_t len) { return (size_t)rlog_text_hash(s, len); }

static int nameset_add(nameset *s, const char *name, size_t len) {
  if (2 * (s->n + 1) > s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 64;
    char **slot = calloc(cap, sizeof *slot);
    if (!slot) return -1;
    for (size_t i = 0; i < s->cap; i++)
      if (s->slot[i]) {
        size_t h = name_hash(s->slot[i], strlen(s->slot[i])) & (cap - 1);
        while (slot[h]) h = (h + 1) & (cap - 1);
        slot[h] = s->slot[i];
      }
    free(s->slot);
    s->slot = slot;
    s->cap = cap;
  }
  size_t h = name_hash(name, len) & (s->cap - 1);
  for (; s->slot[h]; h = (h + 1) & (s->cap - 1))
    if (strlen(s->slot[h]) == len && !memcmp(s->slot[h], name, len)) return 0;
  char *copy = malloc(len + 1);
  if (!copy) return -1;
  memcpy(copy, name, len);
  copy[len] = 0;
  s->slot[h] = copy;
  s->n++;
  return 0;
}

static void nameset_free(nameset *s) {
  for (size_t i = 0; i < s->cap; i++) free(s->slot[i]);
  free(s->slot);
  memset(s, 0, sizeof *s);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* ---- a gzip member written to a file ---- */

/* What a writer lends its zouts when given one: two buffers (the log's and
 * the assembly's) and a compressor, kept between recordings. */
struct rlog_scratch {
  char *buf[2];   /* 2 * BUF_SIZE bytes each, or NULL until first lent */
  int lent[2];
  z_stream z;
  int zlevel;     /* the level z was initialised for; 0: not initialised */
  int zlent;
};

rlog_scratch *rlog_scratch_new(void) { return calloc(1, sizeof(rlog_scratch)); }

void rlog_scratch_free(rlog_scratch *sc) {
  if (!sc) return;
  if (sc->zlevel) deflateEnd(&sc->z);
  free(sc->buf[0]);
  free(sc->buf[1]);
  free(sc);
}

typedef struct zout {
  FILE *f;
  z_stream *z;        /* own, or the scratch's */
  z_stream own;
  rlog_scratch *sc;   /* what z and in were lent from, or NULL */
  int zinit, zlent, buf; /* buf: the scratch buffer in is (-1: allocated) */
  int text;           /* no compression: the text itself goes to f */
  size_t inlen;
  char *in;           /* BUF_SIZE bytes of text waiting to be compressed (not zeroed) */
  unsigned char *out; /* BUF_SIZE bytes, after in */
} zout;

/* zlib's memLevel for a level: the bytes written depend on it too */
static int mem_level(int level) { return level == RLOG_SELFPLAY_LEVEL ? RLOG_SELFPLAY_MEMLEVEL : 8; }

/* 16 + MAX_WBITS: a gzip wrapper with mtime 0, so that equal games give equal
 * files (at the same level: rlog_header.level). Level 0: text, uncompressed.
 * Buffers and compressor come from sc when it has them free (a compressor
 * reset is the same as a new one: deflateReset), else are allocated. A zout
 * stays where it was initialised (z may point into it). */
static int zout_init(zout *o, FILE *f, int level, rlog_scratch *sc) {
  o->inlen = 0;
  o->text = !level;
  o->sc = sc;
  o->zinit = o->zlent = 0;
  o->buf = -1;
  for (int i = 0; sc && i < 2 && o->buf < 0; i++)
    if (!sc->lent[i] && (sc->buf[i] || (sc->buf[i] = malloc(2 * BUF_SIZE)))) {
      sc->lent[i] = 1;
      o->buf = i;
    }
  o->in = o->buf >= 0 ? sc->buf[o->buf] : malloc(2 * BUF_SIZE);
  if (!o->in) return MTG_ENOMEM;
  o->out = (unsigned char *)o->in + BUF_SIZE;
  o->f = f; /* the caller's to close until zout_init succeeds */
  if (o->text) return 0;
  if (sc && !sc->zlent && sc->zlevel == level && deflateReset(&sc->z) == Z_OK) {
    o->zlent = sc->zlent = 1;
  } else if (sc && !sc->zlent) {
    if (sc->zlevel) deflateEnd(&sc->z);
    memset(&sc->z, 0, sizeof sc->z);
    sc->zlevel = deflateInit2(&sc->z, level, Z_DEFLATED, 16 + MAX_WBITS, mem_level(level), Z_DEFAULT_STRATEGY) == Z_OK ? level : 0;
    o->zlent = sc->zlent = sc->zlevel != 0;
  }
  o->z = o->zlent ? &sc->z : &o->own;
  if (!o->zlent) {
    memset(&o->own, 0, sizeof o->own);
    if (deflateInit2(&o->own, level, Z_DEFLATED, 16 + MAX_WBITS, mem_level(level), Z_DEFAULT_STRATEGY) != Z_OK) {
      if (o->buf >= 0) sc->lent[o->buf] = 0;
      else free(o->in);
      o->in = NULL;
      return MTG_ENOMEM;
    }
  }
  o->zinit = 1;
  return 0;
}

static void zout_fini(zout *o) {
  if (o->zlent) o->sc->zlent = 0; /* kept, reset when next lent */
  else if (o->zinit) deflateEnd(o->z);
  o->zinit = o->zlent = 0;
  if (o->sc && o->buf >= 0) o->sc->lent[o->buf] = 0;
  else free(o->in);
  o->in = NULL;
  o->buf = -1;
}

/* Compresses the pending text with `flush` and writes what deflate produces
 * (a text zout writes the text): 0, MTG_EIO (errno set) or MTG_EINTERNAL. */
static int zout_deflate(zout *o, int flush) {
  if (o->text) {
    if (o->inlen && fwrite(o->in, 1, o->inlen, o->f) != o->inlen) return MTG_EIO;
    o->inlen = 0;
    return 0;
  }
  o->z->next_in = (unsigned char *)o->in;
  o->z->avail_in = (uInt)o->inlen;
  int rc;
  do {
    o->z->next_out = o->out;
    o->z->avail_out = BUF_SIZE;
    rc = deflate(o->z, flush);
    if (rc == Z_STREAM_ERROR) return MTG_EINTERNAL;
    size_t n = BUF_SIZE - o->z->avail_out;
    if (n && fwrite(o->out, 1, n, o->f) != n) return MTG_EIO;
  } while (o->z->avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
  o->inlen = 0;
  return 0;
}

static int zout_put(zout *o, const char *s, size_t len) {
  while (len) {
    if (o->inlen == BUF_SIZE) {
      int rc = zout_deflate(o, Z_NO_FLUSH);
      if (rc) return rc;
    }
    size_t k = BUF_SIZE - o->inlen;
    if (k > len) k = len;
    memcpy(o->in + o->inlen, s, k);
    o->inlen += k;
    s += k;
    len -= k;
  }
  return 0;
}

/* s[0..len) and a newline: at every line of a game's log, so the two are put
 * together in the buffer when both fit, without a call for each */
static int zout_put_line(zout *o, const char *s, size_t len) {
  if (len < BUF_SIZE - o->inlen) {
    memcpy(o->in + o->inlen, s, len);
    o->in[o->inlen + len] = '\n';
    o->inlen += len + 1;
    return 0;
  }
  int rc = zout_put(o, s, len);
  return rc ? rc : zout_put(o, "\n", 1);
}

/* ---- writer ---- */

typedef struct pending {
  long at;        /* checkpoints: after this many log lines; options: the decision's number */
  char line[128];
} pending;

typedef struct pqueue {
  pending *e;
  long head, n, cap;
} pqueue;

static int pq_push(pqueue *q, long at, const char *line) {
  if (q->head + q->n == q->cap) {
    if (q->head) {
      memmove(q->e, q->e + q->head, (size_t)q->n * sizeof *q->e);
      q->head = 0;
    } else {
      long cap = q->cap ? 2 * q->cap : 16;
      pending *e = realloc(q->e, (size_t)cap * sizeof *e);
      if (!e) return -1;
      q->e = e;
      q->cap = cap;
    }
  }
  pending *p = &q->e[q->head + q->n++];
  p->at = at;
  size_t n = strnlen(line, sizeof p->line - 1); /* one a decision: no printf */
  memcpy(p->line, line, n);
  p->line[n] = 0;
  return 0;
}

static pending *pq_front(pqueue *q) { return q->n ? &q->e[q->head] : NULL; }
static pending *pq_back(pqueue *q) { return q->n ? &q->e[q->head + q->n - 1] : NULL; }
static void pq_pop(pqueue *q) {
  q->head++;
  if (!--q->n) q->head = 0;
}

struct rlog_writer {
  char *path, *log_path; /* the replay; the temporary file holding the log */
  int version;
  int level;             /* deflate level */
  rlog_scratch *scratch; /* rlog_header.scratch */
  zout log;              /* the log's text, compressed at close as a gzip member of its own */
  mtg_error err;         /* the first failure; later calls repeat it */
  long events, decisions, checkpoints;
  long last_checkpoint;  /* events when the last checkpoint was written (-1: none) */
  uint64_t chain;
  /* the header, written at close */
  char *setup, *origin, *cites, *cards_yaml, *players;
  uint64_t seed, pool_hash;
  const mtg_pool *pool, *base;
  int partial;
  nameset used;          /* names of the cards the game used (and other quoted words) */
  /* the game as presented at decisions (rlog_writer_see) */
  long scanned;          /* log lines looked at (all committed), from the first */
  long scanned_decisions;
  int turn_seen;         /* a turn began since the last checkpoint */
  pqueue checkpoints_due, options_due;
};

static int wfail(rlog_writer *w, mtg_error *err, int status, const char *fmt, const char *arg) {
  if (!w->err.status) mtg_error_set(&w->err, status, fmt, arg);
  if (err) *err = w->err;
  return w->err.status;
}

static int wcheck(rlog_writer *w, mtg_error *err, int rc) {
  if (!rc) return 0;
  if (rc == MTG_EIO) return wfail(w, err, MTG_EIO, "cannot write: %s", strerror(errno));
  if (rc == MTG_ENOMEM) return wfail(w, err, MTG_ENOMEM, "%s", "out of memory");
  return wfail(w, err, rc, "%s", "zlib deflate failed");
}

static int put_text_line(rlog_writer *w, const char *s, size_t len, mtg_error *err) {
  if (w->err.status) return wfail(w, err, w->err.status, "%s", "");
  return wcheck(w, err, zout_put_line(&w->log, s, len));
}

static int put_line(rlog_writer *w, const char *s, mtg_error *err) { return put_text_line(w, s, strlen(s), err); }

static char *dup_str(const char *s) {
  if (!s) return NULL;
  char *d = malloc(strlen(s) + 1);
  if (d) strcpy(d, s);
  return d;
}

/* "players alice bob" from the setup's "player NAME LIFE" records. */
static char *player_names(const char *setup) {
  size_t cap = strlen(setup) + 1, u = 0;
  char *buf = malloc(cap);
  if (!buf) return NULL;
  buf[0] = 0;
  for (const char *p = setup; *p;) {
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p) : strlen(p);
    if (len > 7 && starts(p, "player ")) {
      const char *name = p + 7, *end = memchr(name, ' ', len - 7);
      size_t n = end ? (size_t)(end - name) : len - 7;
      if (u) buf[u++] = ' ';
      memcpy(buf + u, name, n);
      u += n;
      buf[u] = 0;
    }
    p = eol ? eol + 1 : p + len;
  }
  return buf;
}

/* A file made new beside `path`, opened for reading and writing; never an
 * existing file or a link. Its name, ".NAME.H.PID.K.SUFFIX" (NAME cut to 100
 * bytes, H a hash of path), stays a valid file name whenever path's is. */
static FILE *create_beside(const char *path, const char *suffix, char **made, mtg_error *err) {
  const char *slash = strrchr(path, '/');
  size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
  const char *base = path + dirlen;
  size_t size = strlen(path) + strlen(suffix) + 48;
  char *tmp = malloc(size);
  if (!tmp) {
    mtg_error_set(err, MTG_ENOMEM, "out of memory");
    return NULL;
  }
  for (int k = 0; k < 100; k++) {
    snprintf(tmp, size, "%.*s.%.100s.%08" PRIx32 ".%ld.%d.%s", (int)dirlen, path, base,
             (uint32_t)rlog_text_hash(path, strlen(path)), (long)getpid(), k, suffix);
    int fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0 && errno == EEXIST) continue;
    if (fd < 0) break;
    FILE *f = fdopen(fd, "w+b");
    if (!f) {
      close(fd);
      unlink(tmp);
      break;
    }
    *made = tmp;
    return f;
  }
  mtg_error_set(err, MTG_EIO, "%s: cannot create: %s", path, strerror(errno));
  free(tmp);
  return NULL;
}

static void writer_free(rlog_writer *w) {
  zout_fini(&w->log);
  if (w->log.f) fclose(w->log.f);
  if (w->log_path) unlink(w->log_path);
  free(w->log_path);
  free(w->path);
  free(w->setup);
  free(w->origin);
  free(w->cites);
  free(w->cards_yaml);
  free(w->players);
  free(w->checkpoints_due.e);
  free(w->options_due.e);
  nameset_free(&w->used);
  free(w);
}

static void note_name(void *ctx, const char *name, size_t len) {
  rlog_writer *w = ctx;
  if (nameset_add(&w->used, name, len)) wfail(w, NULL, MTG_ENOMEM, "%s", "out of memory");
}

int rlog_writer_open(rlog_writer **out, const char *path, const rlog_header *h, mtg_error *err) {
  *out = NULL;
  if (!h || !h->setup_text || (h->version != 1 && !h->pool) || h->version < 0 || h->version > RLOG_FORMAT_VERSION) {
    mtg_error_set(err, MTG_EARG, "a replay header needs the setup text and the pool (or version 1)");
    return MTG_EARG;
  }
  rlog_writer *w = calloc(1, sizeof *w);
  if (!w) {
    mtg_error_set(err, MTG_ENOMEM, "out of memory");
    return MTG_ENOMEM;
  }
  w->version = h->version ? h->version : RLOG_FORMAT_VERSION;
  w->chain = RLOG_CHAIN_INIT;
  w->last_checkpoint = -1;
  w->seed = h->seed;
  w->pool = h->pool;
  w->base = h->base ? h->base : h->pool;
  w->pool_hash = h->pool ? mtg_pool_hash(h->pool) : 0;
  w->partial = h->partial;
  w->level = h->level >= 1 && h->level <= 9 ? h->level : 6;
  w->scratch = h->scratch;
  w->path = dup_str(path);
  w->setup = dup_str(h->setup_text);
  w->origin = dup_str(h->origin ? h->origin : "");
  w->cites = dup_str(h->cites ? h->cites : "");
  w->cards_yaml = h->cards_yaml ? dup_str(h->cards_yaml) : NULL;
  w->players = player_names(h->setup_text);
  if (!w->path || !w->setup || !w->origin || !w->cites || (h->cards_yaml && !w->cards_yaml) || !w->players) {
    writer_free(w);
    mtg_error_set(err, MTG_ENOMEM, "out of memory");
    return MTG_ENOMEM;
  }
  /* the cards the setup names */
  for (const char *p = w->setup; *p;) {
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p) : strlen(p);
    char line[4096];
    snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1), p);
    rlog_line_names(line, note_name, w);
    p += len + (eol != NULL);
  }
  FILE *f = create_beside(path, "log", &w->log_path, err);
  if (!f) {
    writer_free(w);
    return err ? err->status : MTG_EIO;
  }
  if (zout_init(&w->log, f, 0, w->scratch)) {
    fclose(f);
    writer_free(w);
    mtg_error_set(err, MTG_ENOMEM, "cannot initialise zlib: out of memory");
    return MTG_ENOMEM;
  }
  if (w->err.status) {
    if (err) *err = w->err;
    int rc = w->err.status;
    writer_free(w);
    return rc;
  }
  *out = w;
  return 0;
}

/* Whether a log line begins a turn: asked of every line twice (scan,
 * put_log_line), so compared byte by byte in place (stopping at the first
 * that differs, the terminator included) rather than by strlen and strncmp. */
static int turn_line(const char *line) {
  return line[0] == 't' && line[1] == 'u' && line[2] == 'r' && line[3] == 'n' && line[4] == ' ';
}

/* Looks at the committed log lines not yet looked at (all of them once the
 * game is closed: `upto` lines of the game's log). */
static void scan(rlog_writer *w, const mtg_game *g, int upto) {
  long dropped = mtg_log_total(g) - mtg_log_count(g);
  for (; w->scanned < dropped + upto; w->scanned++) {
    int i = (int)(w->scanned - dropped);
    if (i < 0) continue; /* dropped without the writer: not expected */
    const char *line = mtg_log_line(g, i);
    if (turn_line(line)) w->turn_seen = 1;
    w->scanned_decisions += mtg_log_is_decision(g, i) != 0;
    rlog_line_names(line, note_name, w);
  }
}

int rlog_writer_see(rlog_writer *w, const mtg_game *g, mtg_error *err) {
  if (w->err.status) return wfail(w, err, w->err.status, "%s", "");
  const mtg_decision *d = mtg_game_decision(g);
  int count = mtg_log_count(g), committed = mtg_log_committed(g);
  scan(w, g, committed);
  if (!d) return 0;
  /* the number the decision's line will have: decisions before it, final or not */
  long k = w->scanned_decisions + 1;
  for (int i = committed; i < count; i++) k += mtg_log_is_decision(g, i) != 0;
  char line[128];
  rlog_options_line(line, sizeof line, d);
  /* a decision seen again (an answer refused) or after its action was taken back */
  while (pq_back(&w->options_due) && pq_back(&w->options_due)->at >= k) w->options_due.n--;
  if (line[0] && pq_push(&w->options_due, k, line)) return wfail(w, err, MTG_ENOMEM, "%s", "out of memory");
  /* venturing into the dungeon (309.2a) offers the pool's dungeons: the game uses them all */
  if (d->kind == MTG_D_NAME && d->rule && !strcmp(d->rule, "701.49a"))
    for (int i = 0; i < d->n_options; i++) note_name(w, d->options[i].label, strlen(d->options[i].label));
  /* a checkpoint at the first point of each turn where the log is complete */
  if (w->turn_seen && count == committed) {
    rlog_checkpoint_line(line, sizeof line, g, w->scanned, w->scanned_decisions);
    if (pq_push(&w->checkpoints_due, w->scanned, line)) return wfail(w, err, MTG_ENOMEM, "%s", "out of memory");
    w->turn_seen = 0;
  }
  if (w->err.status && err) *err = w->err;
  return w->err.status;
}

static int put_checkpoint_text(rlog_writer *w, const char *line, mtg_error *err) {
  w->checkpoints++;
  w->last_checkpoint = w->events;
  return put_line(w, line, err);
}

static int put_log_line(rlog_writer *w, const mtg_game *g, int i, mtg_error *err) {
  const char *line = mtg_log_line(g, i);
  if (turn_line(line) && w->events) {
    /* a turn boundary: everything before it reaches the file now, so a crash
     * later still leaves every complete turn in the temporary file */
    int rc = zout_deflate(&w->log, Z_NO_FLUSH);
    if (!rc && fflush(w->log.f)) rc = MTG_EIO;
    if (wcheck(w, err, rc)) return w->err.status;
  }
  size_t len = strlen(line);
  int decision = mtg_log_is_decision(g, i) != 0;
  w->chain = rlog_chain(w->chain, line, len);
  w->events++;
  w->decisions += decision;
  if (put_text_line(w, line, len, err)) return w->err.status;
  if (decision) {
    pending *p;
    while ((p = pq_front(&w->options_due)) && p->at < w->decisions) pq_pop(&w->options_due);
    if (p && p->at == w->decisions) {
      if (w->version >= 2 && put_line(w, p->line, err)) return w->err.status;
      pq_pop(&w->options_due);
    }
  }
  pending *c = pq_front(&w->checkpoints_due);
  if (c && c->at == w->events) {
    int rc = put_checkpoint_text(w, c->line, err);
    pq_pop(&w->checkpoints_due);
    return rc;
  }
  return 0;
}

int rlog_writer_sync(rlog_writer *w, mtg_game *g, mtg_error *err) {
  if (rlog_writer_see(w, g, err)) return w->err.status;
  /* a checkpoint due before any line (a game whose first lines were dropped) */
  pending *c = pq_front(&w->checkpoints_due);
  if (c && c->at == w->events && w->last_checkpoint != w->events) {
    if (put_checkpoint_text(w, c->line, err)) return w->err.status;
    pq_pop(&w->checkpoints_due);
  }
  int n = mtg_log_committed(g);
  for (int i = 0; i < n; i++)
    if (put_log_line(w, g, i, err)) return w->err.status;
  mtg_log_drop(g, n);
  return 0;
}

/* "key value" (the value kept to one line) */
static int put_field(zout *o, const char *key, const char *value) {
  char buf[RLOG_MAX_FIELD_LINE];
  int n = snprintf(buf, sizeof buf, "%s %s", key, value);
  if (n < 0) return MTG_EINTERNAL;
  if ((size_t)n >= sizeof buf) n = sizeof buf - 1;
  for (int i = 0; i < n; i++)
    if (buf[i] == '\n' || buf[i] == '\r') buf[i] = ' ';
  buf[n] = '\n';
  return zout_put(o, buf, (size_t)n + 1);
}

static size_t count_lines(const char *text, size_t len) {
  size_t lines = 0;
  for (size_t i = 0; i < len; i++) lines += text[i] == '\n';
  return lines + (len && text[len - 1] != '\n');
}

/* the text, with a final newline supplied */
static int put_text(zout *o, const char *text, size_t len) {
  int rc = zout_put(o, text, len);
  return !rc && len && text[len - 1] != '\n' ? zout_put(o, "\n", 1) : rc;
}

/* "card pool|extra LINES HASH "NAME"" then the definition's lines */
static int put_card(zout *o, const char *name, int extra, const char *text) {
  size_t len = strlen(text);
  char head[RLOG_MAX_FIELD_LINE];
  size_t u = (size_t)snprintf(head, sizeof head, "card %s %zu %016" PRIx64 " \"", extra ? "extra" : "pool",
                              count_lines(text, len), rlog_text_hash(text, len));
  for (const char *p = name; *p && u + 4 < sizeof head; p++) {
    if (*p == '"' || *p == '\\') head[u++] = '\\';
    head[u++] = *p;
  }
  head[u++] = '"';
  head[u++] = '\n';
  int rc = zout_put(o, head, u);
  return rc ? rc : put_text(o, text, len);
}

/* The definitions of the cards the game used, sorted by name. */
static int put_cards(rlog_writer *w, zout *o, mtg_error *err) {
  const char **names = malloc((w->used.n ? w->used.n : 1) * sizeof *names);
  if (!names) return wfail(w, err, MTG_ENOMEM, "%s", "out of memory");
  size_t n = 0, bytes = 0;
  /* each definition once, under the name it defines (a card found by its back face's name too) */
  for (size_t i = 0; i < w->used.cap; i++) {
    const char *def = w->used.slot[i] ? mtg_pool_card_name(w->pool, w->used.slot[i]) : NULL;
    if (def) names[n++] = def;
  }
  qsort(names, n, sizeof *names, by_name);
  size_t u = 0;
  for (size_t i = 0; i < n; i++)
    if (!u || strcmp(names[u - 1], names[i])) names[u++] = names[i];
  n = u;
  for (size_t i = 0; i < n; i++) bytes += strlen(mtg_pool_card_text(w->pool, names[i]));
  int rc = 0;
  if (n > RLOG_MAX_CARDS || bytes > RLOG_MAX_CARD_TEXT) {
    free(names);
    char what[96];
    snprintf(what, sizeof what, "%zu card definitions, %zu bytes", n, bytes);
    mtg_error_set(&w->err, MTG_ELIMIT,
                  "the game uses more card definitions than a replay holds (%s; at most %d, %d bytes)", what,
                  RLOG_MAX_CARDS, RLOG_MAX_CARD_TEXT);
    if (err) *err = w->err;
    return MTG_ELIMIT;
  }
  char head[64];
  snprintf(head, sizeof head, "cards %zu\n", n);
  rc = zout_put(o, head, strlen(head));
  for (size_t i = 0; i < n && !rc; i++) {
    const char *text = mtg_pool_card_text(w->pool, names[i]);
    const char *in_base = mtg_pool_card_text(w->base, names[i]);
    rc = put_card(o, names[i], in_base != text, text);
  }
  free(names);
  return wcheck(w, err, rc);
}

static int put_header(rlog_writer *w, zout *o, mtg_error *err) {
  char num[64];
  size_t slen = strlen(w->setup);
  if (slen > RLOG_MAX_SETUP) {
    mtg_error_set(&w->err, MTG_ELIMIT, "the setup is larger than a replay holds (%zu bytes, at most %d)", slen,
                  RLOG_MAX_SETUP);
    if (err) *err = w->err;
    return MTG_ELIMIT;
  }
  snprintf(num, sizeof num, "%s %d\n", MAGIC, w->version);
  int rc = zout_put(o, num, strlen(num));
  if (!rc) rc = put_field(o, "engine", MTG_VERSION);
  if (!rc) rc = put_field(o, "rules", MTG_RULES_EFFECTIVE);
  if (!rc && w->version == 1) {
    snprintf(num, sizeof num, "%016" PRIx64, w->pool_hash);
    rc = put_field(o, "pool", num);
  }
  snprintf(num, sizeof num, "%" PRIu64, w->seed);
  if (!rc) rc = put_field(o, "seed", num);
  if (!rc) rc = put_field(o, "origin", w->origin);
  if (!rc && w->version >= 2 && w->cites[0]) rc = put_field(o, "cites", w->cites);
  if (!rc) rc = put_field(o, "players", w->players);
  if (!rc && w->version >= 2) rc = put_field(o, "until", w->partial ? "decision" : "over");
  if (w->version >= 2)
    snprintf(num, sizeof num, "setup %zu %016" PRIx64 "\n", count_lines(w->setup, slen), rlog_text_hash(w->setup, slen));
  else
    snprintf(num, sizeof num, "setup %zu\n", count_lines(w->setup, slen));
  if (!rc) rc = zout_put(o, num, strlen(num));
  if (!rc) rc = put_text(o, w->setup, slen);
  if (rc) return wcheck(w, err, rc);
  if (w->version >= 2) {
    if (put_cards(w, o, err)) return w->err.status;
  } else {
    size_t clen = w->cards_yaml ? strlen(w->cards_yaml) : 0;
    snprintf(num, sizeof num, "cards %zu\n", count_lines(w->cards_yaml ? w->cards_yaml : "", clen));
    rc = zout_put(o, num, strlen(num));
    if (!rc && clen) rc = put_text(o, w->cards_yaml, clen);
  }
  if (!rc) rc = zout_put(o, "log\n", 4);
  return wcheck(w, err, rc);
}

/* The replay: one gzip member, the header then the log's text from its
 * temporary file, written to a new file that then replaces path (rename
 * replaces a link at path; it never follows it). One member, not one for
 * each part: a reader builds each member's code tables, which for a short
 * game costs as much as inflating its text. */
static int assemble(rlog_writer *w, mtg_error *err) {
  char *tmp = NULL;
  mtg_error e;
  FILE *f = create_beside(w->path, "tmp", &tmp, &e);
  if (!f) {
    if (!w->err.status) w->err = e;
    if (err) *err = w->err;
    return w->err.status;
  }
  zout *o = calloc(1, sizeof *o);
  int rc = o ? zout_init(o, f, w->level, w->scratch) : MTG_ENOMEM;
  if (!rc && put_header(w, o, err)) rc = w->err.status;
  /* the log's text after it, in the same member */
  if (!rc && (fflush(w->log.f) || fseek(w->log.f, 0, SEEK_SET))) rc = wcheck(w, err, MTG_EIO);
  char buf[BUF_SIZE];
  size_t n;
  while (!rc && (n = fread(buf, 1, sizeof buf, w->log.f)) > 0) rc = wcheck(w, err, zout_put(o, buf, n));
  if (!rc && ferror(w->log.f)) rc = wcheck(w, err, MTG_EIO);
  if (!rc) rc = wcheck(w, err, zout_deflate(o, Z_FINISH));
  if (o) zout_fini(o);
  free(o);
  if (fclose(f) && !rc) rc = wcheck(w, err, MTG_EIO);
  if (!rc && rename(tmp, w->path)) rc = wfail(w, err, MTG_EIO, "cannot put the replay in place: %s", strerror(errno));
  if (rc) {
    if (!w->err.status) wcheck(w, err, rc);
    unlink(tmp);
  }
  free(tmp);
  return w->err.status;
}

int rlog_writer_close(rlog_writer *w, mtg_game *g, mtg_error *err) {
  if (!w) return 0;
  const char *status = "abandoned";
  if (g && !w->err.status) {
    /* the game ends here: entries of an unfinished action are final too */
    int n = mtg_log_count(g);
    scan(w, g, n);
    for (int i = 0; i < n && !w->err.status; i++) put_log_line(w, g, i, err);
    if (!w->err.status) mtg_log_drop(g, mtg_log_committed(g));
    if (w->last_checkpoint != w->events) {
      char buf[256];
      rlog_checkpoint_line(buf, sizeof buf, g, w->events, w->decisions);
      put_checkpoint_text(w, buf, err);
    }
    status = mtg_game_status(g) == MTG_OVER ? "over" : "open";
  }
  char buf[256];
  rlog_trailer_line(buf, sizeof buf, w->events, w->decisions, w->checkpoints, status, w->chain);
  if (!w->err.status) {
    put_line(w, buf, err);
    if (!w->err.status) wcheck(w, err, zout_deflate(&w->log, Z_FINISH));
  }
  if (!w->err.status) assemble(w, err);
  int rc = w->err.status;
  if (rc && err) *err = w->err;
  writer_free(w);
  return rc;
}

void rlog_writer_discard(rlog_writer *w) {
  if (w) writer_free(w);
}

/* ---- reader ---- */

/* Verified definitions: open addressing by recorded hash, at most half full. */
#define KNOWN_SLOTS 8192

typedef struct known_def {
  uint64_t hash;
  size_t len;
  char *text; /* NULL: a free slot */
} known_def;

struct rlog_known {
  known_def slot[KNOWN_SLOTS];
  size_t n, bytes;
  struct libdeflate_decompressor *dec; /* NULL: each reader allocates its own */
};

rlog_known *rlog_known_new(void) {
  rlog_known *k = calloc(1, sizeof(rlog_known));
  if (k) k->dec = libdeflate_alloc_decompressor();
  return k;
}

void rlog_known_free(rlog_known *k) {
  if (!k) return;
  for (size_t i = 0; i < KNOWN_SLOTS; i++) free(k->slot[i].text);
  libdeflate_free_decompressor(k->dec);
  free(k);
}

/* Whether text is one already found to have hash h; otherwise the free slot
 * where it would go (NULL if none may be used). */
static int known_has(rlog_known *k, uint64_t h, const char *text, size_t len, known_def **free_slot) {
  size_t i = (size_t)(h ^ h >> 32) & (KNOWN_SLOTS - 1);
  for (; k->slot[i].text; i = (i + 1) & (KNOWN_SLOTS - 1)) {
    const known_def *d = &k->slot[i];
    if (d->hash == h && d->len == len && !memcmp(d->text, text, len)) return 1;
  }
  *free_slot = k->n < KNOWN_SLOTS / 2 && k->bytes + len <= RLOG_KNOWN_TEXT ? &k->slot[i] : NULL;
  return 0;
}

struct rlog_reader {
  zlines *z;
  rlog_known *known; /* may be NULL */
  rlog_info info;
  char *text;       /* origin, setup and card texts, NUL-separated */
  size_t tlen, tcap;
  rlog_card *cards;
  long *card_at;    /* offsets in text of each card's name and definition */
  long line;        /* lines read */
  long events, decisions;
  int ended;        /* the trailer has been read */
};

const rlog_info *rlog_reader_info(const rlog_reader *r) { return &r->info; }

void rlog_reader_free(rlog_reader *r) {
  if (!r) return;
  zlines_close(r->z);
  free(r->text);
  free(r->cards);
  free(r->card_at);
  free(r);
}

static int format_error(rlog_reader *r, mtg_error *err, const char *fmt, const char *a, const char *b) {
  char shown[96], msg[sizeof err->msg];
  snprintf(shown, sizeof shown, "%s", b);
  snprintf(msg, sizeof msg, fmt, a, shown);
  mtg_error_set(err, RLOG_EFORMAT, "line %ld: %s", r->line, msg);
  return RLOG_EFORMAT;
}

static int next_line(rlog_reader *r, const char **line, size_t *len, mtg_error *err) {
  int rc = zlines_next(r->z, line, len, err);
  r->line += rc > 0;
  return rc;
}

/* The next header line; the stream ending here is a truncation. */
/* The first n bytes of s as a string in dst (size bytes), cut short to fit:
 * what snprintf("%.*s") does, at a header line's rate. */
static void field_copy(char *dst, size_t size, const char *s, size_t n) {
  if (n >= size) n = size - 1;
  memcpy(dst, s, n);
  dst[n] = 0;
}

static int header_line(rlog_reader *r, const char **line, size_t *len, mtg_error *err) {
  int rc = next_line(r, line, len, err);
  if (rc == 0) {
    mtg_error_set(err, RLOG_ETRUNC, "truncated: the file ends inside the header (line %ld)", r->line);
    return RLOG_ETRUNC;
  }
  return rc < 0 ? rc : 0;
}

/* Appends text to r->text (which holds at most `budget` bytes more); returns
 * its offset or -1. */
static long keep(rlog_reader *r, const char *s, size_t len, size_t *budget, const char *what, mtg_error *err) {
  if (len > *budget) {
    char lim[300];
    snprintf(lim, sizeof lim, "%s", what);
    mtg_error_set(err, RLOG_EFORMAT, "line %ld: %s: more than a replay holds", r->line, lim);
    return -1;
  }
  *budget -= len;
  if (r->tlen + len + 1 > r->tcap) {
    size_t cap = r->tcap ? r->tcap : 4096;
    while (cap < r->tlen + len + 1) cap *= 2;
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

/* Reads the N lines of a block into r->text, then a NUL; *at is where it begins. */
static int read_block(rlog_reader *r, long n, size_t budget, const char *what, long *at, mtg_error *err) {
  if ((*at = keep(r, "", 0, &budget, what, err)) < 0) return err->status;
  for (long i = 0; i < n; i++) {
    const char *line;
    size_t len;
    int rc = header_line(r, &line, &len, err);
    if (rc) return rc;
    /* the line and its newline in one (the line's NUL, copied with it, is
     * the byte the newline takes): the budget refuses the pair exactly when
     * it would have refused the line or the newline after it */
    long at_line = keep(r, line, len + 1, &budget, what, err);
    if (at_line < 0) return err->status;
    r->text[at_line + (long)len] = '\n';
  }
  r->tlen++; /* keep the block's NUL */
  return 0;
}

static int parse_count(const char *s, long max, long *out, char **rest) {
  char *end;
  errno = 0;
  long n = strtol(s, &end, 10);
  if (end == s || *s == '-' || *s == '+' || errno || n < 0 || n > max) return -1;
  *out = n;
  if (rest) *rest = end;
  else if (*end) return -1;
  return 0;
}

static int parse_hash(const char *s, uint64_t *out, char **rest) {
  char *end;
  errno = 0;
  if (strspn(s, "0123456789abcdef") != 16) return -1;
  *out = strtoull(s, &end, 16);
  if (errno || end != s + 16) return -1;
  *rest = end;
  return 0;
}

/* "card pool|extra LINES HASH "NAME"" and the definition's lines */
static int read_card(rlog_reader *r, const char *line, size_t *budget, rlog_card *c, long *name_at, long *text_at,
                     mtg_error *err) {
  char *p;
  long lines;
  if (starts(line, "card pool ")) c->extra = 0;
  else if (starts(line, "card extra ")) c->extra = 1;
  else return format_error(r, err, "expected a card line (card pool|extra LINES HASH \"NAME\")%s, found \"%s\"", "", line);
  p = (char *)line + (c->extra ? 11 : 10);
  if (parse_count(p, RLOG_MAX_CARD_TEXT, &lines, &p) || *p != ' ' || parse_hash(p + 1, &c->hash, &p) || *p != ' ' ||
      p[1] != '"')
    return format_error(r, err, "malformed card line%s \"%s\"", "", line);
  /* the name, unescaped */
  char name[1024];
  size_t n = 0;
  for (p += 2; *p && *p != '"'; p++) {
    if (*p == '\\' && (p[1] == '"' || p[1] == '\\')) p++;
    if (n + 1 >= sizeof name) return format_error(r, err, "a card name too long%s in \"%s\"", "", line);
    name[n++] = *p;
  }
  if (*p != '"' || p[1] || !n) return format_error(r, err, "malformed card line%s \"%s\"", "", line);
  name[n] = 0;
  size_t nb = RLOG_MAX_FIELD_LINE;
  if ((*name_at = keep(r, name, n, &nb, "a card name", err)) < 0) return err->status;
  r->tlen++;
  c->line = r->line + 1;
  /* what read_block says when the text is too long: card "NAME" (one definition
   * holds at most N bytes), the name cut to 200 bytes; put together without
   * snprintf, as every card of every replay pays for it */
  char what[1200], num[16];
  size_t u = 0, k = n < 200 ? n : 200, d = sizeof num;
  unsigned v = RLOG_MAX_CARD_BYTES;
  do num[--d] = (char)('0' + v % 10);
  while (v /= 10);
  static const char head[] = "card \"", mid[] = "\" (one definition holds at most ", tail[] = " bytes)";
  memcpy(what, head, sizeof head - 1), u += sizeof head - 1;
  memcpy(what + u, name, k), u += k;
  memcpy(what + u, mid, sizeof mid - 1), u += sizeof mid - 1;
  memcpy(what + u, num + d, sizeof num - d), u += sizeof num - d;
  memcpy(what + u, tail, sizeof tail);
  int rc = read_block(r, lines, *budget < RLOG_MAX_CARD_BYTES ? *budget : RLOG_MAX_CARD_BYTES,
                      *budget < RLOG_MAX_CARD_BYTES ? "card definitions" : what, text_at, err);
  if (rc) return rc;
  size_t len = strlen(r->text + *text_at);
  *budget -= len;
  c->len = len;
  known_def *slot = NULL;
  if (r->known && known_has(r->known, c->hash, r->text + *text_at, len, &slot)) return 0;
  uint64_t h = rlog_text_hash(r->text + *text_at, len);
  if (h == c->hash && slot && (slot->text = malloc(len + 1))) {
    memcpy(slot->text, r->text + *text_at, len + 1);
    slot->hash = h;
    slot->len = len;
    r->known->n++;
    r->known->bytes += len;
  }
  if (h != c->hash) {
    mtg_error_set(err, RLOG_ETAMPER,
                  "line %ld: card \"%.200s\": the definition does not match its hash (recorded %016" PRIx64
                  ", the text's is %016" PRIx64 ")",
                  c->line - 1, name, c->hash, h);
    return RLOG_ETAMPER;
  }
  return 0;
}

static int read_cards(rlog_reader *r, const char *count, mtg_error *err) {
  long n;
  if (parse_count(count, RLOG_MAX_CARDS, &n, NULL)) {
    char lim[32];
    snprintf(lim, sizeof lim, "%d", RLOG_MAX_CARDS);
    return format_error(r, err, "\"cards %s\": expected a number of card definitions from 0 to %s", count, lim);
  }
  r->cards = calloc((size_t)(n ? n : 1), sizeof *r->cards);
  r->card_at = calloc((size_t)(n ? n : 1) * 2, sizeof *r->card_at);
  if (!r->cards || !r->card_at) {
    mtg_error_set(err, MTG_ENOMEM, "out of memory");
    return MTG_ENOMEM;
  }
  size_t budget = RLOG_MAX_CARD_TEXT;
  int rc = 0;
  for (long i = 0; i < n && !rc; i++) {
    const char *line;
    size_t len;
    rc = header_line(r, &line, &len, err);
    if (!rc) rc = read_card(r, line, &budget, &r->cards[i], &r->card_at[2 * i], &r->card_at[2 * i + 1], err);
  }
  if (rc) return rc;
  r->info.ncards = (int)n;
  return 0;
}

static int parse_header(rlog_reader *r, mtg_error *err) {
  const char *line;
  size_t len;
  int rc = header_line(r, &line, &len, err);
  if (rc) return rc;
  if (!starts(line, MAGIC " ")) return format_error(r, err, "not a replay%s: the first line is \"%s\"", "", line);
  long v;
  if (parse_count(line + strlen(MAGIC) + 1, 1000000, &v, NULL) || v < 1)
    return format_error(r, err, "not a replay%s: malformed first line \"%s\"", "", line);
  r->info.version = (int)v;
  if (v > RLOG_FORMAT_VERSION) {
    mtg_error_set(err, RLOG_EVERSION,
                  "unsupported replay format version %ld: this build reads versions %d to %d (engine %s)", v,
                  RLOG_FORMAT_OLDEST, RLOG_FORMAT_VERSION, MTG_VERSION);
    return RLOG_EVERSION;
  }
  r->info.partial = v >= 2 ? 0 : -1;
  long origin = -1, cites = -1, setup = -1, cards = -1;
  int have_pool = 0, have_until = 0, fields = 0;
  uint64_t setup_hash = 0;
  for (;;) {
    rc = header_line(r, &line, &len, err);
    if (rc) return rc;
    if (!strcmp(line, "log")) break;
    if (++fields > RLOG_MAX_FIELDS) {
      char lim[32];
      snprintf(lim, sizeof lim, "%d", RLOG_MAX_FIELDS);
      return format_error(r, err, "more than %s header lines%s: not a replay", lim, "");
    }
    if (len >= RLOG_MAX_FIELD_LINE) {
      char lim[32];
      snprintf(lim, sizeof lim, "%d", RLOG_MAX_FIELD_LINE);
      return format_error(r, err, "a header line longer than %s bytes%s: not a replay", lim, "");
    }
    const char *sp = strchr(line, ' ');
    if (!sp) return format_error(r, err, "malformed header line%s \"%s\"", "", line);
    size_t klen = (size_t)(sp - line);
    const char *val = sp + 1;
    char key[16], *end;
    field_copy(key, sizeof key, line, klen < sizeof key ? klen : 0); /* no known key is that long */
    if (!strcmp(key, "engine")) field_copy(r->info.engine, sizeof r->info.engine, val, strlen(val));
    else if (!strcmp(key, "rules")) field_copy(r->info.rules, sizeof r->info.rules, val, strlen(val));
    else if (!strcmp(key, "pool") && v == 1) {
      errno = 0;
      r->info.pool_hash = strtoull(val, &end, 16);
      if (*end || !*val || errno) return format_error(r, err, "malformed header line \"%s %s\"", key, val);
      have_pool = 1;
    } else if (!strcmp(key, "seed")) {
      errno = 0;
      r->info.seed = strtoull(val, &end, 10);
      if (*end || !*val || errno || *val == '-') return format_error(r, err, "malformed header line \"%s %s\"", key, val);
    } else if (!strcmp(key, "origin")) {
      size_t budget = RLOG_MAX_FIELD_LINE;
      if ((origin = keep(r, val, strlen(val), &budget, "origin", err)) < 0) return err->status;
      r->tlen++;
    } else if (!strcmp(key, "cites") && cites < 0) {
      size_t budget = RLOG_MAX_FIELD_LINE;
      if ((cites = keep(r, val, strlen(val), &budget, "cites", err)) < 0) return err->status;
      r->tlen++;
    } else if (!strcmp(key, "players")) {
      r->info.nplayers = 0;
      for (const char *p = val; *p;) {
        size_t n = strcspn(p, " ");
        if (r->info.nplayers == RLOG_MAX_PLAYERS || n >= sizeof r->info.players[0])
          return format_error(r, err, "malformed header line \"%s %s\"", key, val);
        field_copy(r->info.players[r->info.nplayers++], sizeof r->info.players[0], p, n);
        p += n;
        p += strspn(p, " ");
      }
    } else if (!strcmp(key, "until") && v >= 2) {
      if (strcmp(val, "over") && strcmp(val, "decision"))
        return format_error(r, err, "\"until %s\"%s: expected over or decision", val, "");
      r->info.partial = !strcmp(val, "decision");
      have_until = 1;
    } else if (!strcmp(key, "setup") && setup < 0) {
      long n;
      if (parse_count(val, RLOG_MAX_SETUP, &n, &end) ||
          (v >= 2 ? *end != ' ' || parse_hash(end + 1, &setup_hash, &end) || *end : *end != 0))
        return format_error(r, err, "malformed header line \"%s %s\"", key, val);
      r->info.setup_line = r->line + 1;
      rc = read_block(r, n, RLOG_MAX_SETUP, "the setup", &setup, err);
      if (rc) return rc;
    } else if (!strcmp(key, "cards") && cards < 0 && !r->cards) {
      if (v >= 2) {
        rc = read_cards(r, val, err);
        if (rc) return rc;
      } else {
        long n;
        if (parse_count(val, RLOG_MAX_CARDS_V1, &n, NULL))
          return format_error(r, err, "malformed header line \"%s %s\"", key, val);
        r->info.cards_line = r->line + 1;
        rc = read_block(r, n, RLOG_MAX_CARDS_V1, "the cards block", &cards, err);
        if (rc) return rc;
      }
    } else if (!strcmp(key, "setup") || !strcmp(key, "cards") || !strcmp(key, "until")) {
      return format_error(r, err, "unexpected header line%s \"%s\"", "", line);
    }
    /* other keys: informational fields a later writer of this version may add */
  }
  const char *missing = !r->info.engine[0] ? "no engine version" : v == 1 && !have_pool ? "no pool hash"
                        : setup < 0 ? "no setup" : v >= 2 && !have_until ? "no until line"
                        : v >= 2 && !r->cards ? "no cards block" : NULL;
  if (missing) return format_error(r, err, "incomplete header%s: %s", "", missing);
  r->info.origin = origin >= 0 ? r->text + origin : "";
  r->info.cites = cites >= 0 ? r->text + cites : "";
  r->info.setup_text = r->text + setup;
  r->info.cards_yaml = cards >= 0 ? r->text + cards : "";
  r->info.cards_len = strlen(r->info.cards_yaml);
  r->info.cards = r->cards;
  if (v >= 2) {
    /* r->text moved as it grew: the cards' strings by offset */
    for (int i = 0; i < r->info.ncards; i++) {
      r->cards[i].name = r->text + r->card_at[2 * i];
      r->cards[i].text = r->text + r->card_at[2 * i + 1];
    }
    size_t slen = strlen(r->info.setup_text);
    uint64_t h = rlog_text_hash(r->info.setup_text, slen);
    if (h != setup_hash) {
      mtg_error_set(err, RLOG_ETAMPER,
                    "line %ld: the setup does not match its hash (recorded %016" PRIx64 ", the text's is %016" PRIx64
                    ")",
                    r->info.setup_line - 1, setup_hash, h);
      return RLOG_ETAMPER;
    }
  }
  return 0;
}

int rlog_reader_open(rlog_reader **out, const char *path, mtg_error *err) {
  return rlog_reader_open_known(out, path, NULL, err);
}

int rlog_reader_open_known(rlog_reader **out, const char *path, rlog_known *known, mtg_error *err) {
  *out = NULL;
  rlog_reader *r = calloc(1, sizeof *r);
  if (!r) {
    mtg_error_set(err, MTG_ENOMEM, "out of memory");
    return MTG_ENOMEM;
  }
  r->known = known;
  int rc = zlines_open_with(&r->z, path, known ? known->dec : NULL, err);
  if (!rc) rc = parse_header(r, err);
  if (rc == RLOG_EFORMAT || rc == RLOG_EVERSION) {
    /* a header that makes no sense may be damaged data: then say that */
    mtg_error derr;
    int drc = zlines_drain(r->z, ZLINES_DRAIN_LIMIT, &derr);
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
  int rc = next_line(r, &line, &len, err);
  if (rc < 0) return rc;
  if (r->ended) {
    if (rc == 0) return 0;
    return format_error(r, err, "data after the trailer%s: \"%s\"", "", line);
  }
  if (rc == 0) {
    mtg_error_set(err, RLOG_ETRUNC, "truncated: the log ends after event %ld without a trailer", r->events);
    return RLOG_ETRUNC;
  }
  rec->text = line;
  rec->len = len;
  rec->line = r->line;
  if (line[0] == '@') {
    if (starts(line, "@checkpoint ")) rec->kind = RLOG_R_CHECKPOINT;
    else if (starts(line, "@options ") && r->info.version >= 2) rec->kind = RLOG_R_OPTIONS;
    else if (starts(line, "@end ")) {
      rec->kind = RLOG_R_END;
      r->ended = 1;
    } else {
      char after[32];
      snprintf(after, sizeof after, "%ld", r->events);
      return format_error(r, err, "unknown record after event %s: \"%s\"", after, line);
    }
  } else {
    /* the first byte first: most lines are events, and a call each costs */
    rec->kind = line[0] == 'd' && starts(line, "decide ") ? RLOG_R_DECISION : RLOG_R_EVENT;
    r->events++;
    r->decisions += rec->kind == RLOG_R_DECISION;
  }
  rec->event = r->events;
  rec->decision = r->decisions;
  return 1;
}

int rlog_reader_drain(rlog_reader *r, mtg_error *err) { return zlines_drain(r->z, 0, err); }
int rlog_reader_drain_some(rlog_reader *r, uint64_t limit, mtg_error *err) { return zlines_drain(r->z, limit, err); }
