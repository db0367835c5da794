/* ydoc: builds located YAML trees from libyaml events (see ydoc.h). */
#include "ydoc.h"

#include "mtg_private.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "input.h"
#include "yfast.h"
#include "suggest.h"

typedef struct ablock {
  struct ablock *next;
  size_t used, size;
  max_align_t align[];
} ablock;

struct ydoc {
  char *name;
  char *text;   /* whole source, NUL-terminated */
  size_t len;
  ablock *arena;
  int ndocs;
  ynode **roots;
  /* where every YDOC_LINE_STEP-th line starts, built at the first error, so
   * that locating many errors costs each a short scan, not one from the top */
  size_t *lines;
  size_t nlines;
};

#define YDOC_LINE_STEP 64

/* A new block for n bytes (a multiple of 16), the old one kept in the list. */
static void *arena_grow(ydoc *d, size_t n) {
  size_t sz = n > 16384 ? n : 16384;
  ablock *b = malloc(sizeof *b + sz);
  if (!b) return NULL;
  b->next = d->arena;
  b->used = n;
  b->size = sz;
  d->arena = b;
  return b->align;
}

/* inline: it runs once or twice for every node of every file, and but for a
 * new block every 16 KiB it is an addition */
static inline void *arena_alloc(ydoc *d, size_t n) {
  n = (n + 15) & ~(size_t)15;
  ablock *b = d->arena;
  if (!b || b->size - b->used < n) return arena_grow(d, n);
  void *p = (char *)b->align + b->used;
  b->used += n;
  return p;
}

void ydoc_free(ydoc *d) {
  if (!d) return;
  ablock *b = d->arena;
  while (b) {
    ablock *n = b->next;
    free(b);
    b = n;
  }
  free(d->roots);
  free(d->lines);
  free(d->text);
  free(d->name);
  free(d);
}

int ydoc_count(const ydoc *d) { return d->ndocs; }
const ynode *ydoc_root(const ydoc *d, int i) { return i >= 0 && i < d->ndocs ? d->roots[i] : NULL; }
const char *ydoc_name(const ydoc *d) { return d->name; }

/* Builds the sparse line index: offsets of lines 1, 1 + STEP, 1 + 2 STEP, ... */
static void index_lines(ydoc *d) {
  size_t n = 1, cap = 64;
  size_t *v = malloc(cap * sizeof *v);
  if (!v) return;
  v[0] = 0;
  const char *p = d->text, *end = d->text + d->len;
  for (size_t line = 1;; line++) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    if (!nl) break;
    p = nl + 1;
    if (line % YDOC_LINE_STEP) continue;
    if (n == cap) {
      size_t *w = realloc(v, 2 * cap * sizeof *v);
      if (!w) break; /* a shorter index: lines beyond it are found by scanning */
      v = w;
      cap *= 2;
    }
    v[n++] = (size_t)(p - d->text);
  }
  d->lines = v;
  d->nlines = n;
}

void ydoc_source_line(const ydoc *d, int line, char *buf, size_t size) {
  if (size == 0) return;
  buf[0] = 0;
  if (!d || !d->text || line < 1) return;
  /* the index is built once, by the thread that owns the document */
  if (!d->lines) index_lines((ydoc *)d);
  size_t from = 1;
  const char *p = d->text, *end = d->text + d->len;
  if (d->nlines) {
    size_t k = ((size_t)line - 1) / YDOC_LINE_STEP;
    if (k >= d->nlines) k = d->nlines - 1;
    from = k * YDOC_LINE_STEP + 1;
    p = d->text + d->lines[k];
  }
  for (size_t l = from; l < (size_t)line && p < end; l++) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    if (!nl) return;
    p = nl + 1;
  }
  size_t n = 0;
  while (p + n < end && p[n] != '\n' && p[n] != '\r' && n + 1 < size) n++;
  memcpy(buf, p, n);
  buf[n] = 0;
}

static int verr(const ydoc *d, const char *name, int line, int col, mtg_error *err,
                const char *fmt, va_list ap) {
  if (!err) return -1;
  memset(err, 0, sizeof *err);
  err->status = MTG_EDATA;
  snprintf(err->file, sizeof err->file, "%s", name ? name : "");
  err->line = line;
  err->col = col;
  vsnprintf(err->msg, sizeof err->msg, fmt, ap);
  ydoc_source_line(d, line, err->source, sizeof err->source);
  return -1;
}

static int perr(const ydoc *d, int line, int col, mtg_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
static int perr(const ydoc *d, int line, int col, mtg_error *err, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  verr(d, d->name, line, col, err, fmt, ap);
  va_end(ap);
  return -1;
}

/* Out of memory while parsing: located like any error, but MTG_ENOMEM. */
static int oom(const ydoc *d, int line, int col, mtg_error *err) {
  perr(d, line, col, err, "out of memory");
  if (err) err->status = MTG_ENOMEM;
  return -1;
}

int ydoc_error(const ydoc *d, const ynode *n, mtg_error *err, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  verr(d, d ? d->name : "", n ? n->line : 0, n ? n->col : 0, err, fmt, ap);
  va_end(ap);
  return -1;
}

/* ---- building ---- */

typedef struct {
  ynode *node;
  ynode **kids;
  int n, cap;
  /* a large mapping's keys, hashed (kid index + 1, 0 empty): duplicate
   * keys are found in linear time however many keys a mapping has */
  int *keyset;
  size_t keycap;
  unsigned keymask; /* a mapping: ykey_bit of its scalar keys so far */
} frame;

/* Mappings with more keys than this get a key set; smaller ones are scanned. */
#define YDOC_SCAN_KEYS 16

typedef struct {
  char *name;
  ynode *node;
} anchor;

typedef struct {
  ydoc *d;
  frame st[YDOC_MAX_DEPTH + 1];
  int depth;
  anchor *anchors;
  int nanchors, capanchors;
  int aliases;
  ynode **roots;
  int nroots, caproots;
  mtg_error *err;
} builder;

static size_t key_hash(const ynode *k) {
  size_t h = 1469598103u;
  for (size_t i = 0; i < k->len; i++) h = (h ^ (unsigned char)k->str[i]) * 16777619u;
  return h;
}

static int same_key(const ynode *a, const ynode *b) {
  return a->kind == YN_SCALAR && a->len == b->len && memcmp(a->str, b->str, b->len) == 0;
}

/* Adds kid i (a scalar key) to the frame's key set, growing it; returns the
 * index of an equal earlier key, -1 if none, -2 out of memory. */
static int keyset_add(frame *f, int i) {
  if (2 * (size_t)(f->n / 2 + 1) > f->keycap) {
    size_t cap = f->keycap ? 2 * f->keycap : 64;
    int *set = calloc(cap, sizeof *set);
    if (!set) return -2;
    free(f->keyset);
    f->keyset = set;
    f->keycap = cap;
    for (int k = 0; k < f->n; k += 2)
      if (f->kids[k]->kind == YN_SCALAR) {
        size_t h = key_hash(f->kids[k]) & (cap - 1);
        while (set[h]) h = (h + 1) & (cap - 1);
        set[h] = k + 1;
      }
  }
  const ynode *n = f->kids[i];
  size_t h = key_hash(n) & (f->keycap - 1);
  for (; f->keyset[h]; h = (h + 1) & (f->keycap - 1))
    if (same_key(f->kids[f->keyset[h] - 1], n)) return f->keyset[h] - 1;
  f->keyset[h] = i + 1;
  return -1;
}

static int push_kid(builder *b, ynode *n) {
  if (b->depth == 0) {
    if (b->nroots == b->caproots) {
      int cap = b->caproots ? b->caproots * 2 : 4;
      ynode **r = realloc(b->roots, (size_t)cap * sizeof *r);
      if (!r) return oom(b->d, n->line, n->col, b->err);
      b->roots = r;
      b->caproots = cap;
    }
    b->roots[b->nroots++] = n;
    return 0;
  }
  frame *f = &b->st[b->depth - 1];
  if (f->n == f->cap) {
    int cap = f->cap ? f->cap * 2 : 8;
    ynode **k = realloc(f->kids, (size_t)cap * sizeof *k);
    if (!k) return oom(b->d, n->line, n->col, b->err);
    f->kids = k;
    f->cap = cap;
  }
  f->kids[f->n] = n;
  /* Duplicate keys: libyaml accepts them silently, we do not. */
  if (f->node->kind == YN_MAP && f->n % 2 == 0 && n->kind == YN_SCALAR) {
    int dup = -1;
    unsigned bit = ykey_bit(n->str, n->len);
    if (f->n / 2 < YDOC_SCAN_KEYS) {
      /* no earlier key has the new one's bit: none is the same (most keys) */
      if (f->keymask & bit)
        for (int i = 0; i < f->n && dup < 0; i += 2)
          if (same_key(f->kids[i], n)) dup = i;
    } else {
      dup = keyset_add(f, f->n);
      if (dup == -2) return oom(b->d, n->line, n->col, b->err);
    }
    if (dup >= 0)
      return perr(b->d, n->line, n->col, b->err, "duplicate key '%s' (first given at line %d)", n->str,
                  f->kids[dup]->line);
    f->keymask |= bit;
  }
  f->n++;
  return 0;
}

/* A node with `extra` bytes after it (a scalar's text, so that a scalar is
 * one allocation). */
static inline ynode *new_node(builder *b, ynode_kind k, int line, int col, size_t extra) {
  ynode *n = arena_alloc(b->d, sizeof *n + extra);
  if (!n) {
    oom(b->d, line, col, b->err);
    return NULL;
  }
  *n = (ynode){.kind = k, .line = line, .col = col, .str = ""};
  return n;
}

static int add_anchor(builder *b, const char *name, ynode *n) {
  if (!name) return 0;
  if (b->nanchors == b->capanchors) {
    int cap = b->capanchors ? b->capanchors * 2 : 8;
    anchor *a = realloc(b->anchors, (size_t)cap * sizeof *a);
    if (!a) return oom(b->d, n->line, n->col, b->err);
    b->anchors = a;
    b->capanchors = cap;
  }
  char *copy = malloc(strlen(name) + 1);
  if (!copy) return oom(b->d, n->line, n->col, b->err);
  strcpy(copy, name);
  b->anchors[b->nanchors].name = copy;
  b->anchors[b->nanchors].node = n;
  b->nanchors++;
  return 0;
}

static int open_collection(builder *b, ynode_kind k, int line, int col, const char *anchor_name) {
  if (b->depth >= YDOC_MAX_DEPTH) return perr(b->d, line, col, b->err, "nesting deeper than %d levels", YDOC_MAX_DEPTH);
  ynode *n = new_node(b, k, line, col, 0);
  if (!n) return -1;
  if (add_anchor(b, anchor_name, n)) return -1;
  frame *f = &b->st[b->depth++];
  f->node = n;
  f->n = 0; /* its kids buffer is kept from the last collection at this depth */
  f->keyset = NULL;
  f->keycap = 0;
  f->keymask = 0;
  return 0;
}

static int close_collection(builder *b) {
  frame *f = &b->st[--b->depth];
  ynode *n = f->node;
  free(f->keyset);
  f->keyset = NULL;
  f->keycap = 0;
  n->n = n->kind == YN_MAP ? f->n / 2 : f->n;
  n->keymask = f->keymask;
  if (f->n) {
    n->items = arena_alloc(b->d, (size_t)f->n * sizeof *n->items);
    if (!n->items) return oom(b->d, n->line, n->col, b->err);
    memcpy(n->items, f->kids, (size_t)f->n * sizeof *n->items);
  }
  return push_kid(b, n);
}

static void builder_fini(builder *b) {
  for (int i = 0; i <= YDOC_MAX_DEPTH; i++) free(b->st[i].kids);
  for (int i = 0; i < b->depth; i++) free(b->st[i].keyset);
  for (int i = 0; i < b->nanchors; i++) free(b->anchors[i].name);
  free(b->anchors);
  free(b->roots);
}

/* Hands the tree over to the document when the build went well; rc. */
static int builder_end(builder *b, int rc) {
  if (!rc) {
    b->d->roots = b->roots;
    b->roots = NULL;
    b->d->ndocs = b->nroots;
  }
  builder_fini(b);
  return rc;
}

/* The events of either parser (libyaml's, or util/yfast.c's for the plain
 * layout) build the tree through these, so both give the same tree and the
 * same errors. */
static int doc_start(builder *b, int line, int col, int *in_doc) {
  if (b->nroots >= YDOC_MAX_DOCS) return perr(b->d, line, col, b->err, "more than %d YAML documents in one file", YDOC_MAX_DOCS);
  *in_doc = 1;
  /* forget anchors of earlier documents */
  for (int i = 0; i < b->nanchors; i++) free(b->anchors[i].name);
  b->nanchors = 0;
  return 0;
}

static int doc_end(builder *b, int *in_doc) {
  if (*in_doc && b->nroots == b->d->ndocs) {
    /* empty document: record a NULL root */
    if (b->nroots == b->caproots) {
      int cap = b->caproots ? b->caproots * 2 : 4;
      ynode **r = realloc(b->roots, (size_t)cap * sizeof *r);
      if (!r) return oom(b->d, 0, 0, b->err);
      b->roots = r;
      b->caproots = cap;
    }
    b->roots[b->nroots++] = NULL;
  }
  b->d->ndocs = b->nroots;
  *in_doc = 0;
  return 0;
}

static int add_scalar(builder *b, int line, int col, const char *text, size_t len, int quoted, const char *anchor_name) {
  ynode *n = new_node(b, YN_SCALAR, line, col, len + 1);
  if (!n) return -1;
  char *s = (char *)(n + 1);
  memcpy(s, text, len);
  s[len] = 0;
  /* the text has no NUL byte (ydoc_parse_buffer): only an escape (\0) in a
   * double-quoted scalar can make one */
  if (quoted && memchr(s, 0, len)) return perr(b->d, n->line, n->col, b->err, "NUL character inside a scalar");
  n->str = s;
  n->len = len;
  n->quoted = quoted;
  if (add_anchor(b, anchor_name, n)) return -1;
  return push_kid(b, n);
}

/* Builds the tree from the fast scanner's events. */
static int build_fast(ydoc *d, const yf_events *ev, mtg_error *err) {
  builder b;
  memset(&b, 0, sizeof b);
  b.d = d;
  b.err = err;
  int rc = 0, in_doc = 0;
  for (int i = 0; i < ev->n && !rc; i++) {
    const yf_event *e = &ev->ev[i];
    switch ((yf_kind)e->kind) {
    case YF_DOC_START: rc = doc_start(&b, e->line, e->col, &in_doc); break;
    case YF_DOC_END: rc = doc_end(&b, &in_doc); break;
    case YF_MAP: rc = open_collection(&b, YN_MAP, e->line, e->col, NULL); break;
    case YF_SEQ: rc = open_collection(&b, YN_SEQ, e->line, e->col, NULL); break;
    case YF_END: rc = close_collection(&b); break;
    case YF_SCALAR: rc = add_scalar(&b, e->line, e->col, yf_str(ev, e), e->len, e->quoted, NULL); break;
    }
  }
  return builder_end(&b, rc);
}

static int build(ydoc *d, mtg_error *err) {
  yaml_parser_t p;
  if (!yaml_parser_initialize(&p)) return oom(d, 0, 0, err);
  yaml_parser_set_input_string(&p, (const unsigned char *)d->text, d->len);
  builder b;
  memset(&b, 0, sizeof b);
  b.d = d;
  b.err = err;
  int rc = 0, done = 0, in_doc = 0;
  while (!done) {
    yaml_event_t e;
    if (!yaml_parser_parse(&p, &e)) {
      const char *prob = p.problem ? p.problem : "malformed YAML";
      yaml_mark_t m = p.problem_mark;
      if (p.error == YAML_MEMORY_ERROR) {
        rc = oom(d, (int)m.line + 1, (int)m.column + 1, err);
        break;
      }
      if (p.error == YAML_READER_ERROR) {
        /* the reader checks the encoding ahead of the scanner: locate the
         * offending byte itself */
        size_t off = p.problem_offset < d->len ? p.problem_offset : d->len;
        int line = 1, col = 1;
        for (size_t i = 0; i < off; i++) {
          if (d->text[i] == '\n') {
            line++;
            col = 1;
          } else if (((unsigned char)d->text[i] & 0xc0) != 0x80) {
            col++;
          }
        }
        if (p.problem_value >= 0)
          rc = perr(d, line, col, err, "%s (byte 0x%02X): the file must be UTF-8", prob, (unsigned)p.problem_value & 0xff);
        else
          rc = perr(d, line, col, err, "%s: the file must be UTF-8", prob);
        break;
      }
      if (p.context)
        rc = perr(d, (int)m.line + 1, (int)m.column + 1, err, "%s %s", prob, p.context);
      else
        rc = perr(d, (int)m.line + 1, (int)m.column + 1, err, "%s", prob);
      break;
    }
    switch (e.type) {
    case YAML_STREAM_END_EVENT:
      done = 1;
      break;
    case YAML_DOCUMENT_START_EVENT:
      rc = doc_start(&b, (int)e.start_mark.line + 1, (int)e.start_mark.column + 1, &in_doc);
      break;
    case YAML_DOCUMENT_END_EVENT:
      rc = doc_end(&b, &in_doc);
      break;
    case YAML_MAPPING_START_EVENT:
      rc = open_collection(&b, YN_MAP, (int)e.start_mark.line + 1, (int)e.start_mark.column + 1,
                           (const char *)e.data.mapping_start.anchor);
      break;
    case YAML_SEQUENCE_START_EVENT:
      rc = open_collection(&b, YN_SEQ, (int)e.start_mark.line + 1, (int)e.start_mark.column + 1,
                           (const char *)e.data.sequence_start.anchor);
      break;
    case YAML_MAPPING_END_EVENT:
    case YAML_SEQUENCE_END_EVENT:
      rc = close_collection(&b);
      break;
    case YAML_SCALAR_EVENT:
      /* the NUL test of add_scalar applies to double-quoted scalars (escapes) */
      rc = add_scalar(&b, (int)e.start_mark.line + 1, (int)e.start_mark.column + 1, (const char *)e.data.scalar.value,
                      e.data.scalar.length, e.data.scalar.style != YAML_PLAIN_SCALAR_STYLE,
                      (const char *)e.data.scalar.anchor);
      break;
    case YAML_ALIAS_EVENT: {
      const char *name = (const char *)e.data.alias.anchor;
      int line = (int)e.start_mark.line + 1, col = (int)e.start_mark.column + 1;
      if (++b.aliases > YDOC_MAX_ALIASES) {
        rc = perr(d, line, col, err, "more than %d aliases in one file", YDOC_MAX_ALIASES);
        break;
      }
      ynode *target = NULL;
      for (int i = b.nanchors - 1; i >= 0; i--)
        if (strcmp(b.anchors[i].name, name) == 0) { target = b.anchors[i].node; break; }
      if (!target) { rc = perr(d, line, col, err, "unknown alias '*%s'", name); break; }
      /* an alias to an open collection would make a cycle */
      for (int i = 0; i < b.depth; i++)
        if (b.st[i].node == target) target = NULL;
      if (!target) { rc = perr(d, line, col, err, "recursive alias '*%s'", name); break; }
      if (target->kind != YN_SCALAR) {
        /* Sharing collections through aliases multiplies the work of every
         * walk over the tree; allow it, but count the nodes as aliases. */
        b.aliases += target->n;
        if (b.aliases > YDOC_MAX_ALIASES) {
          rc = perr(d, line, col, err, "aliases expand to more than %d nodes", YDOC_MAX_ALIASES);
          break;
        }
      }
      rc = push_kid(&b, target);
      break;
    }
    default:
      break;
    }
    yaml_event_delete(&e);
    if (rc) break;
  }
  yaml_parser_delete(&p);
  return builder_end(&b, rc);
}

/* Parses text (len bytes, NUL-terminated, malloc'ed), which the document
 * then owns: freed with it, or at once on failure. */
static int parse_owned_with(const char *name, char *text, size_t len, int fast, ydoc **out, mtg_error *err) {
  *out = NULL;
  ydoc *d = calloc(1, sizeof *d);
  if (d) d->name = malloc(strlen(name) + 1);
  if (!d || !d->name) {
    free(text);
    ydoc_free(d);
    mtg_error_set(err, MTG_ENOMEM, "out of memory");
    return -1;
  }
  strcpy(d->name, name);
  d->text = text;
  d->len = len;
  const char *nul = memchr(text, 0, len);
  if (nul) {
    size_t off = (size_t)(nul - text);
    int line = 1;
    for (size_t i = 0; i < off; i++) line += text[i] == '\n';
    perr(d, line, 1, err, "NUL byte in input (not a text file?)");
    ydoc_free(d);
    return -1;
  }
  /* the plain layout of the project's own files is scanned fast; anything
   * else, and every error, is libyaml's */
  yf_events ev = {0};
  int rc = !fast || yf_scan(text, len, &ev) ? build(d, err) : build_fast(d, &ev, err);
  yf_events_fini(&ev);
  if (rc) {
    if (err) err->status = err->status ? err->status : MTG_EDATA;
    ydoc_free(d);
    return -1;
  }
  *out = d;
  return 0;
}

static int parse_owned(const char *name, char *text, size_t len, ydoc **out, mtg_error *err) {
  return parse_owned_with(name, text, len, 1, out, err);
}

int ydoc_parse_buffer(const char *name, const char *buf, size_t len, ydoc **out, mtg_error *err) {
  return ydoc_parse_buffer_with(name, buf, len, 1, out, err);
}

int ydoc_parse_buffer_with(const char *name, const char *buf, size_t len, int fast, ydoc **out, mtg_error *err) {
  *out = NULL;
  char *text = malloc(len + 1);
  if (!text) {
    mtg_error_set(err, MTG_ENOMEM, "out of memory");
    return -1;
  }
  memcpy(text, buf, len);
  text[len] = 0;
  return parse_owned_with(name, text, len, fast, out, err);
}

int ydoc_parse_file(const char *path, ydoc **out, mtg_error *err) { return ydoc_parse_file_max(path, 0, out, err); }

int ydoc_parse_file_max(const char *path, size_t max, ydoc **out, mtg_error *err) {
  *out = NULL;
  char *buf;
  size_t len;
  if (input_read(path, max, &buf, &len, err)) return -1;
  return parse_owned(path, buf, len, out, err); /* the text read is the document's: no copy */
}

/* ---- accessors ---- */

const ynode *ymap_getn(const ynode *m, const char *key, size_t len) {
  if (!m || m->kind != YN_MAP || !(m->keymask & ykey_bit(key, len))) return NULL;
  for (int i = 0; i < m->n; i++) {
    const ynode *k = ymap_key(m, i);
    if (k->kind == YN_SCALAR && k->len == len && k->str[0] == key[0] && memcmp(k->str, key, len) == 0)
      return ymap_val(m, i);
  }
  return NULL;
}

const char *ynode_kind_name(const ynode *n) {
  if (!n) return "nothing";
  switch (n->kind) {
  case YN_SCALAR: return "a scalar";
  case YN_SEQ: return "a list";
  case YN_MAP: return "a mapping";
  }
  return "?";
}

int ynode_str(const ydoc *d, const ynode *n, const char **out, mtg_error *err) {
  if (!n || n->kind != YN_SCALAR)
    return ydoc_error(d, n, err, "expected a string, found %s", ynode_kind_name(n));
  *out = n->str;
  return 0;
}

int ynode_int_range(const ydoc *d, const ynode *n, long lo, long hi, long *out, mtg_error *err) {
  if (!n || n->kind != YN_SCALAR)
    return ydoc_error(d, n, err, "expected an integer, found %s", ynode_kind_name(n));
  const char *s = n->str;
  const char *digits = s + (*s == '-' || *s == '+');
  int form = *digits != 0;
  for (const char *p = digits; *p; p++) form &= *p >= '0' && *p <= '9';
  if (!form) return ydoc_error(d, n, err, "expected an integer, found '%s'", s);
  errno = 0;
  long v = strtol(s, NULL, 10);
  if (errno || v < lo || v > hi) return ydoc_error(d, n, err, "%s is out of range (%ld to %ld)", s, lo, hi);
  *out = v;
  return 0;
}

int ynode_int(const ydoc *d, const ynode *n, long *out, mtg_error *err) {
  return ynode_int_range(d, n, -MTG_NUM_MAX, MTG_NUM_MAX, out, err);
}

int ynode_bool(const ydoc *d, const ynode *n, int *out, mtg_error *err) {
  if (n && n->kind == YN_SCALAR && !n->quoted) {
    if (!strcmp(n->str, "true") || !strcmp(n->str, "yes")) { *out = 1; return 0; }
    if (!strcmp(n->str, "false") || !strcmp(n->str, "no")) { *out = 0; return 0; }
  }
  return ydoc_error(d, n, err, "expected true or false, found %s%s%s",
                    n && n->kind == YN_SCALAR ? "'" : "", n && n->kind == YN_SCALAR ? n->str : ynode_kind_name(n),
                    n && n->kind == YN_SCALAR ? "'" : "");
}

int ymap_check_keys(const ydoc *d, const ynode *m, const char *const *allowed, const char *what,
                    mtg_error *err) {
  if (!m || m->kind != YN_MAP)
    return ydoc_error(d, m, err, "%s must be a mapping, found %s", what, ynode_kind_name(m));
  for (int i = 0; i < m->n; i++) {
    const ynode *k = ymap_key(m, i);
    if (k->kind != YN_SCALAR)
      return ydoc_error(d, k, err, "%s: keys must be plain strings", what);
    int ok = 0;
    for (int j = 0; allowed[j]; j++)
      if (ystr_is(k->str, allowed[j])) { ok = 1; break; }
    if (!ok) {
      const char *best = suggest_best(k->str, allowed, -1);
      if (best)
        return ydoc_error(d, k, err, "unknown key '%s' in %s; did you mean '%s'?", k->str, what, best);
      char list[512];
      suggest_join(allowed, -1, list, sizeof list);
      return ydoc_error(d, k, err, "unknown key '%s' in %s; expected one of: %s", k->str, what, list);
    }
  }
  return 0;
}
