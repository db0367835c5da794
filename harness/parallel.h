/* parallel: a parallel for-loop over indexes on worker threads (pthreads).
 * Work is handed out one index at a time; callers write results into slots
 * of their own, so the outcome does not depend on the thread count. */
#ifndef HARNESS_PARALLEL_H
#define HARNESS_PARALLEL_H

/* Calls fn(ctx, i, worker) for every i in [0, n) using up to `jobs` threads
 * (the calling thread is one of them); worker (0 to jobs - 1) tells which
 * thread runs it, for what each keeps of its own. Falls back to a plain
 * loop when threads can't be had. */
void parallel_for(int n, int jobs, void (*fn)(void *ctx, int i, int worker), void *ctx);
/* The number of processors online (at least 1). */
int parallel_cpus(void);

#endif
