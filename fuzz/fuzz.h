/* fuzz.h - what the libFuzzer targets share: the engine's card pool, loaded
 * once, and the list of known engine issues (tests/unit/soak-known.txt) that
 * a target reports without crashing, so that fuzzing goes on past them. A
 * finding the list does not know is turned into a crash (abort) for
 * libFuzzer to save. Fuzz binaries run from the top of the tree. */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "mtg.h"

/* engine/cards, loaded at the first call (NULL if it cannot be) */
const mtg_pool *fuzz_pool(void);
/* Reports a finding: returns if `why` names a known issue, else prints it
 * and aborts. */
void fuzz_finding(const char *target, const char *why);

#endif
