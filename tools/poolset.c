/* poolset.c - frozen pools beside version-1 replays, loaded once per
 * directory and shared by threads (see poolset.h). */
#include "poolset.h"

#include "mtg_private.h"

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct frozen_dir {
  char *dir;
  int n;
  const mtg_pool *pool[POOLSET_POOLS];
  mtg_error err; /* status set: loading failed, and every call says so */
} frozen_dir;

struct poolset {
  pthread_mutex_t lock;
  frozen_dir d[POOLSET_DIRS];
  int n;
};

poolset *poolset_new(void) {
  poolset *s = calloc(1, sizeof *s);
  if (s && pthread_mutex_init(&s->lock, NULL)) {
    free(s);
    return NULL;
  }
  return s;
}

void poolset_free(poolset *s) {
  if (!s) return;
  for (int i = 0; i < s->n; i++) {
    free(s->d[i].dir);
    for (int k = 0; k < s->d[i].n; k++) mtg_pool_free((mtg_pool *)s->d[i].pool[k]);
  }
  pthread_mutex_destroy(&s->lock);
  free(s);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Loads every pool directory (pool-HASH) of f->dir into f. */
static void load_dir(frozen_dir *f) {
  DIR *d = opendir(f->dir);
  if (!d) return; /* no directory: no frozen pools */
  char *names[POOLSET_POOLS + 1];
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) && !f->err.status) {
    if (strncmp(e->d_name, "pool-", 5)) continue;
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", f->dir, e->d_name);
    if (stat(path, &st) || !S_ISDIR(st.st_mode)) continue;
    if (n == POOLSET_POOLS) {
      mtg_error_set(&f->err, MTG_ELIMIT, "%s: more than %d frozen pools (pool-HASH directories)", f->dir, POOLSET_POOLS);
      break;
    }
    if (!(names[n] = malloc(strlen(path) + 1))) {
      mtg_error_set(&f->err, MTG_ENOMEM, "out of memory");
      break;
    }
    strcpy(names[n++], path);
  }
  closedir(d);
  qsort(names, (size_t)n, sizeof *names, by_name);
  for (int i = 0; i < n; i++) {
    mtg_pool *p = NULL;
    mtg_error err;
    if (!f->err.status && (mtg_pool_new(&p, NULL) || mtg_pool_load_dir(p, names[i], &err))) {
      char msg[1024];
      if (!p) mtg_error_set(&err, MTG_ENOMEM, "out of memory");
      mtg_error_format(&err, msg, sizeof msg);
      mtg_error_set(&f->err, err.status == MTG_ENOMEM ? MTG_ENOMEM : MTG_EDATA, "the frozen pool %s does not load: %s",
                    names[i], msg);
      mtg_pool_free(p);
      p = NULL;
    }
    if (p) f->pool[f->n++] = p;
    free(names[i]);
  }
}

int poolset_frozen(poolset *s, const char *dir, const mtg_pool *const **pools, mtg_error *err) {
  pthread_mutex_lock(&s->lock);
  frozen_dir *f = NULL;
  for (int i = 0; i < s->n && !f; i++)
    if (!strcmp(s->d[i].dir, dir)) f = &s->d[i];
  int rc;
  if (!f && s->n == POOLSET_DIRS) {
    mtg_error_set(err, MTG_ELIMIT, "%s: frozen pools in more than %d directories", dir, POOLSET_DIRS);
    rc = -1;
  } else {
    if (!f) {
      f = &s->d[s->n];
      memset(f, 0, sizeof *f);
      if (!(f->dir = malloc(strlen(dir) + 1))) {
        pthread_mutex_unlock(&s->lock);
        mtg_error_set(err, MTG_ENOMEM, "out of memory");
        return -1;
      }
      strcpy(f->dir, dir);
      s->n++;
      load_dir(f);
    }
    rc = f->err.status ? -1 : f->n;
    if (rc < 0 && err) *err = f->err;
    *pools = f->pool;
  }
  pthread_mutex_unlock(&s->lock);
  return rc;
}
