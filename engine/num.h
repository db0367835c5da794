/* num.h - the range of the numbers the rules count and arithmetic that stays
 * in it. Life, damage, counters, mana, turns, X, power and toughness and the
 * values of card expressions are held as int32_t with |n| <= MTG_NUM_MAX
 * (2^31 - 1, mtg.h). The rules set no upper bound (107.1: the game uses only
 * integers; life totals can grow without limit), so a result past the range
 * saturates at its bound instead of wrapping: gaining 2,000,000,000 life twice
 * leaves 2,147,483,647, never a negative total. Operands are widened to 64
 * bits first, where the sum, difference or product of two in-range values
 * always fits. Input past the range is refused where it is read (the card
 * loader, the setup reader, the harness). */
#ifndef NUM_H
#define NUM_H

#include <stdint.h>

#include "mtg.h"

static inline int32_t num_clamp(int64_t v) {
  return v > MTG_NUM_MAX ? MTG_NUM_MAX : v < -MTG_NUM_MAX ? -MTG_NUM_MAX : (int32_t)v;
}
/* each operand brought into the range first, then combined in 64 bits */
static inline int32_t num_add(int64_t a, int64_t b) { return num_clamp((int64_t)num_clamp(a) + num_clamp(b)); }
static inline int32_t num_sub(int64_t a, int64_t b) { return num_clamp((int64_t)num_clamp(a) - num_clamp(b)); }
static inline int32_t num_mul(int64_t a, int64_t b) { return num_clamp((int64_t)num_clamp(a) * num_clamp(b)); }
static inline int32_t num_neg(int64_t a) { return num_clamp(-(int64_t)num_clamp(a)); }

/* The lesser of two counts ("up to N of them": no more than there are). */
static inline int num_min(int a, int b) { return a < b ? a : b; }

/* A value kept in a 16-bit field (counters given as a card enters) */
static inline int32_t num_clamp16(int64_t v) { return v > INT16_MAX ? INT16_MAX : v < -INT16_MAX ? -INT16_MAX : (int32_t)v; }

/* A count kept in a narrower field (per-turn tallies): incremented up to its bound. */
#define NUM_INC(field, max) ((field) < (max) ? (field)++ : (field))

#endif
