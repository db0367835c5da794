/* parallel.c - ordered parallel jobs (see parallel.h). */
#include "parallel.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define WINDOW_PER_THREAD 32
#define MAX_THREADS 256

typedef struct par {
  pthread_mutex_t mu;
  pthread_cond_t ready;  /* a result arrived */
  pthread_cond_t room;   /* the caller handed back a result */
  int n, next, handed, window;
  void **result;
  unsigned char *done;
  par_job job;
  void *ctx;
} par;

static void *worker(void *arg) {
  par *p = arg;
  pthread_mutex_lock(&p->mu);
  for (;;) {
    while (p->next < p->n && p->next >= p->handed + p->window) pthread_cond_wait(&p->room, &p->mu);
    if (p->next >= p->n) break;
    int i = p->next++;
    pthread_mutex_unlock(&p->mu);
    void *r = p->job(p->ctx, i);
    pthread_mutex_lock(&p->mu);
    p->result[i] = r;
    p->done[i] = 1;
    pthread_cond_signal(&p->ready);
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

int par_run(int n, int threads, par_job job, par_done done, par_tick tick, void *ctx) {
  if (n <= 0) return 0;
  if (threads < 1) threads = 1;
  if (threads > n) threads = n;
  if (threads > MAX_THREADS) threads = MAX_THREADS;
  if (threads == 1) {
    /* on the calling thread: the same order, without a worker to hand each
     * result over (two context switches a job) */
    for (int i = 0; i < n; i++) {
      done(ctx, i, job(ctx, i));
      if (tick) tick(ctx);
    }
    return 0;
  }
  par p = {.n = n, .window = threads * WINDOW_PER_THREAD, .job = job, .ctx = ctx};
  pthread_t tid[MAX_THREADS];
  p.result = calloc((size_t)n, sizeof *p.result);
  p.done = calloc((size_t)n, 1);
  if (!p.result || !p.done) {
    free(p.result);
    free(p.done);
    return -1;
  }
  pthread_mutex_init(&p.mu, NULL);
  pthread_cond_init(&p.ready, NULL);
  pthread_cond_init(&p.room, NULL);
  int started = 0;
  while (started < threads && pthread_create(&tid[started], NULL, worker, &p) == 0) started++;
  if (!started) {
    free(p.result);
    free(p.done);
    return -1;
  }
  for (int i = 0; i < n; i++) {
    pthread_mutex_lock(&p.mu);
    while (!p.done[i]) {
      if (!tick) {
        pthread_cond_wait(&p.ready, &p.mu);
        continue;
      }
      struct timespec ts;
      clock_gettime(CLOCK_REALTIME, &ts);
      ts.tv_nsec += 200 * 1000000L;
      if (ts.tv_nsec >= 1000000000L) ts.tv_sec++, ts.tv_nsec -= 1000000000L;
      if (pthread_cond_timedwait(&p.ready, &p.mu, &ts) == ETIMEDOUT) {
        pthread_mutex_unlock(&p.mu);
        tick(ctx);
        pthread_mutex_lock(&p.mu);
      }
    }
    void *r = p.result[i];
    p.handed = i + 1;
    pthread_cond_broadcast(&p.room);
    pthread_mutex_unlock(&p.mu);
    done(ctx, i, r);
    if (tick) tick(ctx);
  }
  for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
  pthread_cond_destroy(&p.room);
  pthread_cond_destroy(&p.ready);
  pthread_mutex_destroy(&p.mu);
  free(p.result);
  free(p.done);
  return 0;
}

int par_cpus(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (int)n;
}
