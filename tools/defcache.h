/* defcache.h - compiled card definitions kept from one replay to the next:
 * a version-2 replay carries the definition of every card its game used,
 * and most replays of a corpus carry the same few hundred (basic lands, the
 * cards of a deck), so each text is compiled once and its definition shared
 * into the pools of the replays that carry it (mtg_pool_share). One cache
 * serves one thread; its size is bounded. */
#ifndef DEFCACHE_H
#define DEFCACHE_H

#include <stddef.h>

#include "mtg.h"

/* Kept: at most this many definitions, of at most this many bytes of text
 * in all (what one replay may carry, RLOG_MAX_CARD_TEXT), so that the
 * cache holds no more than the largest replay's own cards would; when full,
 * a replay's new ones are compiled as before, and the next replay starts
 * an empty cache. */
#define DEFCACHE_MAX 2048
#define DEFCACHE_TEXT (1 << 20)

typedef struct defcache defcache;

/* An empty cache whose definitions take their keyword abilities from the
 * root of keywords (mtg_pool_new_like), which must outlive it. */
defcache *defcache_new(const mtg_pool *keywords);
void defcache_free(defcache *c);

/* Between replays: empties a cache that refused a text for want of room,
 * so that the next replay's cards are kept again (no pool shares from the
 * cache at that moment). */
void defcache_trim(defcache *c);

/* The pool holding exactly the definition that text (len bytes, loaded
 * under the name name) compiles to, compiled the first time: NULL when it
 * does not compile to one definition named name (the caller loads it itself
 * and reports why), when the cache is full, or out of memory. */
const mtg_pool *defcache_get(defcache *c, const char *name, const char *text, size_t len);

#endif
