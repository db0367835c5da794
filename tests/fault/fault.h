/* fault.h - fault injection for the test builds: a counting allocator and
 * failing reads, linked in with
 *   -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free,
 *   --wrap=strdup,--wrap=strndup,--wrap=fread,--wrap=fgets,--wrap=read
 * (FAULT_LDFLAGS in tests/tests.mk). Only the calls made by the objects so
 * linked are counted and failed: the engine, the programs, and libyaml/zlib
 * when they are linked statically.
 *
 * Test programs arm it through this API; the programs, through the
 * environment, read at the first counted call:
 *   FAULT_ALLOC=N   the Nth allocation fails (N+ : the Nth and every later one)
 *   FAULT_READ=N    the Nth read fails (N+ : every read from the Nth on)
 *   FAULT_REPORT=F  at exit, append "allocs=A live=L failed=X reads=R" to F
 * The global state here is test-only: no engine code depends on it. */
#ifndef FAULT_H
#define FAULT_H

/* n >= 1 arms the nth counted call from now to fail (and every later one
 * when persistent); n = 0 disarms. Arming resets the counter. */
void fault_alloc(long n, int persistent);
void fault_read(long n, int persistent);

long fault_allocs(void); /* allocations since the last fault_alloc / fault_reset */
long fault_reads(void);  /* reads since the last fault_read / fault_reset */
long fault_failed(void); /* failures injected since the last fault_reset */
long fault_live(void);   /* blocks allocated through the wrappers and not yet freed */
void fault_reset(void);  /* disarm both and zero the counters (not fault_live) */

#endif
