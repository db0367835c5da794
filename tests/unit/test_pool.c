/* test_pool.c - the card pool's arena (engine/card.c, pool_alloc): every
 * allocation is zeroed and 16-byte aligned, a block is used up to its last
 * byte before another is made, blocks grow from 4 KB by doubling up to
 * 64 KB, and an allocation larger than the next block gets a block of its
 * own size. White-box: the arena is an engine type. */
#include <stdint.h>
#include <string.h>

#include "internal.h"
#include "unit.h"

static int zeroed(const void *r, size_t n) {
  const unsigned char *b = r;
  for (size_t i = 0; i < n; i++)
    if (b[i]) return 0;
  return 1;
}

TEST(pool_arena_fills_each_block_to_its_last_byte) {
  mtg_pool *base, *p;
  CHECK_INT(mtg_pool_new(&base, NULL), MTG_OK);
  /* a pool on top of another allocates nothing until asked */
  if (mtg_pool_new(&p, base) != MTG_OK) {
    mtg_pool_free(base);
    CHECK(0);
  }
  int ok = 0;
  do {
    if (p->arena) break;
    /* the first block is 4 KB; sizes are rounded up to 16 bytes */
    char *a = pool_alloc(p, 1);
    if (!a || !p->arena || p->arena->size != 4096 || p->arena->used != 16 || (uintptr_t)a % 16) break;
    memset(a, 0xff, 16);
    char *b = pool_alloc(p, 4000);
    if (b != a + 16 || !zeroed(b, 4000)) break;
    /* the 80 bytes left take an allocation of exactly 80 */
    pblock *first = p->arena;
    char *c = pool_alloc(p, 80);
    if (c != b + 4000 || p->arena != first || first->used != 4096 || !zeroed(c, 80)) break;
    /* the next one opens a block twice as large */
    char *d = pool_alloc(p, 1);
    if (!d || p->arena == first || p->arena->next != first || p->arena->size != 8192 || (uintptr_t)d % 16) break;
    /* more than the next block would hold: a block of that size */
    char *big = pool_alloc(p, 100000);
    if (!big || p->arena->size != 100000 || p->arena->used != 100000 || !zeroed(big, 100000)) break;
    /* after a block of 64 KB or more, blocks stay at 64 KB */
    char *e = pool_alloc(p, 16);
    if (!e || p->arena->size != 65536) break;
    char *f = pool_alloc(p, 65536 - 16);
    if (f != e + 16 || p->arena->used != 65536) break;
    pblock *full = p->arena;
    if (!pool_alloc(p, 1) || p->arena == full || p->arena->size != 65536) break;
    /* a copy of a string lives in the arena */
    const char *s = pool_strdup(p, "Grizzly Bears");
    if (!s || strcmp(s, "Grizzly Bears") || s != (char *)p->arena->mem + 16) break;
    ok = 1;
  } while (0);
  mtg_pool_free(p);
  mtg_pool_free(base);
  CHECK(ok);
}

const unit_test pool_tests[] = {
    {"pool_arena_fills_each_block_to_its_last_byte", pool_arena_fills_each_block_to_its_last_byte},
    {NULL, NULL},
};
