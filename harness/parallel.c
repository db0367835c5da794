/* parallel: the worker threads behind parallel_for (see parallel.h). */
#include "parallel.h"

#include <pthread.h>
#include <unistd.h>

#define MAX_THREADS 256

typedef struct work {
  int n, next;
  void (*fn)(void *, int, int);
  void *ctx;
  pthread_mutex_t lock;
} work;

typedef struct thread {
  work *w;
  int id;
} thread;

static void *worker(void *arg) {
  thread *t = arg;
  work *w = t->w;
  for (;;) {
    pthread_mutex_lock(&w->lock);
    int i = w->next++;
    pthread_mutex_unlock(&w->lock);
    if (i >= w->n) return NULL;
    w->fn(w->ctx, i, t->id);
  }
}

void parallel_for(int n, int jobs, void (*fn)(void *ctx, int i, int worker), void *ctx) {
  if (jobs > n) jobs = n;
  if (jobs > MAX_THREADS) jobs = MAX_THREADS;
  if (jobs <= 1) {
    for (int i = 0; i < n; i++) fn(ctx, i, 0);
    return;
  }
  work w = {.n = n, .fn = fn, .ctx = ctx};
  if (pthread_mutex_init(&w.lock, NULL)) {
    for (int i = 0; i < n; i++) fn(ctx, i, 0);
    return;
  }
  pthread_t th[MAX_THREADS];
  thread ts[MAX_THREADS];
  int started = 0;
  for (int t = 1; t < jobs; t++) {
    ts[started] = (thread){&w, started + 1};
    if (!pthread_create(&th[started], NULL, worker, &ts[started])) started++;
  }
  thread self = {&w, 0};
  worker(&self);
  for (int t = 0; t < started; t++) pthread_join(th[t], NULL);
  pthread_mutex_destroy(&w.lock);
}

int parallel_cpus(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (int)n;
}
