/* defcache.c - compiled card definitions found by their name and text
 * (see defcache.h): an open-addressing table of one-definition pools. */
#include "defcache.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mtg_private.h"

#define SLOTS (2 * DEFCACHE_MAX) /* a power of two, at most half full */

typedef struct entry {
  uint64_t hash;  /* of name and text */
  char *key;      /* name, a NUL, then the text */
  size_t nlen, tlen;
  mtg_pool *pool; /* NULL: an empty slot */
} entry;

struct defcache {
  const mtg_pool *keywords;
  int n;
  size_t text; /* bytes of the texts kept */
  int full;    /* a text was refused for want of room */
  entry slot[SLOTS];
};

defcache *defcache_new(const mtg_pool *keywords) {
  defcache *c = calloc(1, sizeof *c);
  if (c) c->keywords = keywords;
  return c;
}

static void clear(defcache *c) {
  for (int i = 0; i < SLOTS; i++) {
    mtg_pool_free(c->slot[i].pool);
    free(c->slot[i].key);
  }
  memset(c->slot, 0, sizeof c->slot);
  c->n = 0;
  c->text = 0;
  c->full = 0;
}

void defcache_free(defcache *c) {
  if (!c) return;
  clear(c);
  free(c);
}

void defcache_trim(defcache *c) {
  if (c && c->full) clear(c);
}

/* FNV-1a 64 over bytes, continuing from h */
static uint64_t fnv(uint64_t h, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
  return h;
}

const mtg_pool *defcache_get(defcache *c, const char *name, const char *text, size_t len) {
  size_t nlen = strlen(name);
  uint64_t h = fnv(fnv(0xcbf29ce484222325ULL, name, nlen + 1), text, len);
  unsigned i = (unsigned)h & (SLOTS - 1);
  for (; c->slot[i].pool; i = (i + 1) & (SLOTS - 1)) {
    const entry *e = &c->slot[i];
    if (e->hash == h && e->nlen == nlen && e->tlen == len && !memcmp(e->key, name, nlen + 1) &&
        !memcmp(e->key + nlen + 1, text, len))
      return e->pool;
  }
  if (c->n >= DEFCACHE_MAX || len > DEFCACHE_TEXT - c->text) {
    c->full = 1;
    return NULL;
  }
  mtg_pool *p = NULL;
  mtg_error err;
  char *key = malloc(nlen + 1 + len);
  if (!key || mtg_pool_new_like(&p, c->keywords) || mtg_pool_load_buffer(p, name, text, len, &err) ||
      mtg_pool_count(p) != 1 || strcmp(mtg_pool_name(p, 0), name)) {
    free(key);
    mtg_pool_free(p);
    return NULL;
  }
  memcpy(key, name, nlen + 1);
  memcpy(key + nlen + 1, text, len);
  c->slot[i] = (entry){h, key, nlen, len, p};
  c->n++;
  c->text += len;
  return p;
}
