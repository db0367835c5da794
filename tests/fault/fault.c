/* fault.c - the counting, failing allocator and the failing reads of
 * fault.h, as --wrap wrappers. Live blocks are kept in a pointer set so that
 * blocks made by libc itself (and freed by us) are told apart from ours:
 * fault_live() counts only what went through __wrap_*. A mutex makes the
 * wrappers safe for the harness's worker threads. */
#include "fault.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t k, size_t n);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
size_t __real_fread(void *buf, size_t size, size_t n, FILE *f);
char *__real_fgets(char *s, int n, FILE *f);
ssize_t __real_read(int fd, void *buf, size_t n);

void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t k, size_t n);
void *__wrap_realloc(void *p, size_t n);
void __wrap_free(void *p);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);
size_t __wrap_fread(void *buf, size_t size, size_t n, FILE *f);
char *__wrap_fgets(char *s, int n, FILE *f);
ssize_t __wrap_read(int fd, void *buf, size_t n);

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int inited;
static long a_at, a_count, r_at, r_count, injected;
static int a_persist, r_persist;
static const char *report;

/* ---- the set of live blocks: open addressing, tombstones ---- */
#define TOMB ((uintptr_t)1)
static uintptr_t *set;
static size_t cap, used, live;

static size_t slot_of(uintptr_t p) {
  uint64_t h = (uint64_t)p * 0x9E3779B97F4A7C15ULL;
  return (size_t)(h >> 17) & (cap - 1);
}

static void set_put(uintptr_t p);

static void grow(void) {
  uintptr_t *old = set;
  size_t oldcap = cap;
  cap = cap ? cap * 2 : 4096;
  set = __real_calloc(cap, sizeof *set);
  if (!set) abort(); /* the test harness itself cannot go on */
  used = live = 0;
  for (size_t i = 0; i < oldcap; i++)
    if (old[i] > TOMB) set_put(old[i]);
  __real_free(old);
}

static void set_put(uintptr_t p) {
  if ((used + 1) * 2 > cap) grow();
  size_t i = slot_of(p);
  while (set[i] > TOMB) i = (i + 1) & (cap - 1);
  if (set[i] == 0) used++;
  set[i] = p;
  live++;
}

static int set_del(uintptr_t p) {
  if (!cap) return 0;
  size_t i = slot_of(p);
  while (set[i]) {
    if (set[i] == p) {
      set[i] = TOMB;
      live--;
      return 1;
    }
    i = (i + 1) & (cap - 1);
  }
  return 0;
}

/* ---- arming ---- */

static void parse_env(const char *v, long *at, int *persist) {
  if (!v || !*v) return;
  *at = strtol(v, NULL, 10);
  *persist = strchr(v, '+') != NULL;
}

static void at_exit_report(void) {
  if (!report) return;
  FILE *f = fopen(report, "a");
  if (!f) return;
  fprintf(f, "allocs=%ld live=%ld failed=%ld reads=%ld\n", a_count, (long)live, injected, r_count);
  fclose(f);
}

static void init(void) {
  if (inited) return;
  inited = 1;
  parse_env(getenv("FAULT_ALLOC"), &a_at, &a_persist);
  parse_env(getenv("FAULT_READ"), &r_at, &r_persist);
  report = getenv("FAULT_REPORT");
  if (report) atexit(at_exit_report);
}

/* counts an allocation; 1 when this one must fail */
static int alloc_fails(void) {
  init();
  a_count++;
  if (a_at > 0 && (a_count == a_at || (a_persist && a_count > a_at))) {
    injected++;
    return 1;
  }
  return 0;
}

static int read_fails(void) {
  init();
  r_count++;
  if (r_at > 0 && (r_count == r_at || (r_persist && r_count > r_at))) {
    injected++;
    return 1;
  }
  return 0;
}

void fault_alloc(long n, int persistent) {
  pthread_mutex_lock(&mu);
  init();
  a_at = n;
  a_persist = persistent;
  a_count = 0;
  pthread_mutex_unlock(&mu);
}

void fault_read(long n, int persistent) {
  pthread_mutex_lock(&mu);
  init();
  r_at = n;
  r_persist = persistent;
  r_count = 0;
  pthread_mutex_unlock(&mu);
}

long fault_allocs(void) { return a_count; }
long fault_reads(void) { return r_count; }
long fault_failed(void) { return injected; }
long fault_live(void) { return (long)live; }

void fault_reset(void) {
  pthread_mutex_lock(&mu);
  init();
  a_at = r_at = 0;
  a_count = r_count = injected = 0;
  pthread_mutex_unlock(&mu);
}

/* ---- the wrappers ---- */

void *__wrap_malloc(size_t n) {
  pthread_mutex_lock(&mu);
  void *p = alloc_fails() ? NULL : __real_malloc(n);
  if (p) set_put((uintptr_t)p);
  pthread_mutex_unlock(&mu);
  if (!p) errno = ENOMEM;
  return p;
}

void *__wrap_calloc(size_t k, size_t n) {
  pthread_mutex_lock(&mu);
  void *p = alloc_fails() ? NULL : __real_calloc(k, n);
  if (p) set_put((uintptr_t)p);
  pthread_mutex_unlock(&mu);
  if (!p) errno = ENOMEM;
  return p;
}

void *__wrap_realloc(void *old, size_t n) {
  pthread_mutex_lock(&mu);
  void *p;
  if (old && n == 0) { /* glibc frees here */
    set_del((uintptr_t)old);
    p = __real_realloc(old, 0);
    if (p) set_put((uintptr_t)p);
  } else if (alloc_fails()) {
    p = NULL; /* old stays valid and owned by the caller */
  } else {
    p = __real_realloc(old, n);
    if (p) {
      if (old) set_del((uintptr_t)old);
      set_put((uintptr_t)p);
    }
  }
  pthread_mutex_unlock(&mu);
  if (!p && n) errno = ENOMEM;
  return p;
}

void __wrap_free(void *p) {
  if (!p) return;
  pthread_mutex_lock(&mu);
  set_del((uintptr_t)p);
  __real_free(p);
  pthread_mutex_unlock(&mu);
}

char *__wrap_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = __wrap_malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

char *__wrap_strndup(const char *s, size_t n) {
  size_t k = 0;
  while (k < n && s[k]) k++;
  char *d = __wrap_malloc(k + 1);
  if (d) {
    memcpy(d, s, k);
    d[k] = 0;
  }
  return d;
}

/* A failed read sets the stream's error flag, as a real I/O error would, so
 * that callers telling errors apart from end of file with ferror() see one. */
static void mark_error(FILE *f) {
#ifdef _IO_ERR_SEEN
  f->_flags |= _IO_ERR_SEEN;
#else
  (void)f;
#endif
}

size_t __wrap_fread(void *buf, size_t size, size_t n, FILE *f) {
  pthread_mutex_lock(&mu);
  int fail = read_fails();
  pthread_mutex_unlock(&mu);
  if (fail) {
    mark_error(f);
    errno = EIO;
    return 0;
  }
  return __real_fread(buf, size, n, f);
}

char *__wrap_fgets(char *s, int n, FILE *f) {
  pthread_mutex_lock(&mu);
  int fail = read_fails();
  pthread_mutex_unlock(&mu);
  if (fail) {
    mark_error(f);
    errno = EIO;
    return NULL;
  }
  return __real_fgets(s, n, f);
}

ssize_t __wrap_read(int fd, void *buf, size_t n) {
  pthread_mutex_lock(&mu);
  int fail = read_fails();
  pthread_mutex_unlock(&mu);
  if (fail) {
    errno = EIO;
    return -1;
  }
  return __real_read(fd, buf, n);
}
