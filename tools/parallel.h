/* parallel.h - running numbered jobs on a few threads while their results
 * are handed back in job order on the calling thread, so that output is the
 * same whatever the thread count. */
#ifndef PARALLEL_H
#define PARALLEL_H

typedef void *(*par_job)(void *ctx, int i);                /* runs on a worker */
typedef void (*par_done)(void *ctx, int i, void *result);  /* in order, on the caller */
typedef void (*par_tick)(void *ctx);                       /* often; it limits its own rate */

/* Runs job(ctx, i) for i in [0, n) on `threads` threads (>= 1). Workers run
 * at most a bounded window ahead of the results handed back, so memory for
 * results stays bounded; with one thread, jobs run on the calling thread.
 * tick may be NULL. Returns 0, or -1 if no thread could be started
 * (nothing ran). */
int par_run(int n, int threads, par_job job, par_done done, par_tick tick, void *ctx);

/* The number of online processors (at least 1). */
int par_cpus(void);

#endif
