/* ydoc: a YAML document tree with source positions, built on libyaml's event
 * parser. Shared by the card loader (engine/) and the case loader (harness/).
 * Unlike libyaml's own document API it rejects duplicate mapping keys, bounds
 * nesting depth and alias use, and keeps line/column marks on every node so
 * that every later semantic error can point at file:line:column. */
#ifndef YDOC_H
#define YDOC_H

#include <stddef.h>
#include <string.h>
#include "mtg.h"

#define YDOC_MAX_DEPTH 64
#define YDOC_MAX_ALIASES 64
#define YDOC_MAX_DOCS 10000  /* documents in one file */

typedef enum { YN_SCALAR, YN_SEQ, YN_MAP } ynode_kind;

typedef struct ynode ynode;
struct ynode {
  ynode_kind kind;
  int line, col;     /* 1-based position of the node's first character */
  int quoted;        /* scalar written with quotes or as a block scalar */
  const char *str;   /* scalar text, NUL-terminated (empty for collections) */
  size_t len;
  int n;             /* sequence items, or mapping pairs */
  unsigned keymask;  /* a mapping: ykey_bit of each scalar key, so that most absent keys are told at once */
  ynode **items;     /* sequence items; for a mapping, keys[i] = items[2i] */
};

/* One of 32 bits for a key of len bytes: a mapping without it lacks the key. */
static inline unsigned ykey_bit(const char *key, size_t len) {
  return 1u << ((len * 7 + (unsigned char)key[0] + (len ? (unsigned char)key[len - 1] : 0)) & 31);
}

typedef struct ydoc ydoc;

/* s is the text lit (usually a literal): the first bytes tell most
 * mismatches without a call, which matters where a key is compared with a
 * list of names. */
static inline int ystr_is(const char *s, const char *lit) { return s[0] == lit[0] && strcmp(s, lit) == 0; }

/* Parses every document of a file (or of a buffer named `name`).
 * Returns 0 and fills *out, or -1 and fills err (file, line, column, message,
 * offending source line). The caller frees *out with ydoc_free. A file is
 * read only if it is a regular file of at most 16 MiB (util/input.h), or of
 * at most max bytes with ydoc_parse_file_max (0: the default). */
int ydoc_parse_file(const char *path, ydoc **out, mtg_error *err);
int ydoc_parse_file_max(const char *path, size_t max, ydoc **out, mtg_error *err);
int ydoc_parse_buffer(const char *name, const char *buf, size_t len, ydoc **out,
                      mtg_error *err);
void ydoc_free(ydoc *d);
/* As ydoc_parse_buffer, with libyaml alone (fast 0) or the fast scanner of the
 * plain layout first (fast 1, what every other parse does); for the tests
 * that hold the two to the same trees and errors. */
int ydoc_parse_buffer_with(const char *name, const char *buf, size_t len, int fast, ydoc **out, mtg_error *err);

int ydoc_count(const ydoc *d);                 /* number of documents */
const ynode *ydoc_root(const ydoc *d, int i);  /* root of document i (may be NULL for an empty doc) */
const char *ydoc_name(const ydoc *d);          /* file name used in messages */

/* Mapping helpers. */
static inline const ynode *ymap_key(const ynode *m, int i) { return m->items[2 * i]; }
static inline const ynode *ymap_val(const ynode *m, int i) { return m->items[2 * i + 1]; }
/* The value of key (len bytes) in mapping m, or NULL. */
const ynode *ymap_getn(const ynode *m, const char *key, size_t len);
/* inline, so that a literal key's length is known when compiling */
static inline const ynode *ymap_get(const ynode *m, const char *key) { return ymap_getn(m, key, strlen(key)); }

/* Fills err with a located error at node n (file from d) and returns -1.
 * The source line is copied so the message can show it with a caret. */
int ydoc_error(const ydoc *d, const ynode *n, mtg_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Scalar conversions; return 0 on success, -1 (with a located error) when the
 * node is not a scalar of the expected form. An integer is decimal digits with
 * an optional sign; one outside [lo, hi] is reported as out of range, not as a
 * malformed number. ynode_int takes the range of every number the engine
 * counts, [-MTG_NUM_MAX, MTG_NUM_MAX]. */
int ynode_int_range(const ydoc *d, const ynode *n, long lo, long hi, long *out, mtg_error *err);
int ynode_int(const ydoc *d, const ynode *n, long *out, mtg_error *err);
int ynode_bool(const ydoc *d, const ynode *n, int *out, mtg_error *err);
int ynode_str(const ydoc *d, const ynode *n, const char **out, mtg_error *err);
const char *ynode_kind_name(const ynode *n);

/* Checks that every key of mapping m is one of `allowed` (NULL-terminated);
 * an unknown key is a located error with a "did you mean" suggestion. */
int ymap_check_keys(const ydoc *d, const ynode *m, const char *const *allowed,
                    const char *what, mtg_error *err);

/* Copies line `line` (1-based) of the document's source into buf. */
void ydoc_source_line(const ydoc *d, int line, char *buf, size_t size);

#endif
