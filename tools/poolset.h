/* poolset.h - the card pools frozen beside version-1 replays, which name
 * their pool by its hash only: every directory named pool-HASH next to a replay
 * holds a copy of a pool some replays there were recorded with. The pools of
 * a directory are loaded once, on first use, and shared read-only by the
 * threads that check replays. */
#ifndef POOLSET_H
#define POOLSET_H

#include "mtg.h"

#define POOLSET_DIRS 16 /* directories with frozen pools in one check */
#define POOLSET_POOLS 8 /* frozen pools in one directory */

typedef struct poolset poolset;

poolset *poolset_new(void);
void poolset_free(poolset *s);

/* The pools frozen in dir (its subdirectories whose names begin with "pool-", in name order):
 * their number (0 when there are none), with *pools set, or -1 with err
 * filled when one does not load or there are too many. */
int poolset_frozen(poolset *s, const char *dir, const mtg_pool *const **pools, mtg_error *err);

#endif
