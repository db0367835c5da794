/* walk: a loop-safe, sorted directory walk (see walk.h). */
/* d_type (DT_REG) is not POSIX: asked for where the C library has it, and
 * done without elsewhere */
#define _DEFAULT_SOURCE
#include "walk.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "input.h"
#include "mtg_private.h"

#define WALK_DEFAULT_DEPTH 64

/* The directories read so far: an open-addressing set of (device, inode). */
typedef struct dirkey {
  dev_t dev;
  ino_t ino;
  int used;
} dirkey;

typedef struct walker {
  const walk_opts *o;
  walk_list *out;
  mtg_error *err;
  dirkey *seen;
  size_t nseen, cap;
} walker;

static size_t key_hash(dev_t dev, ino_t ino) {
  uint64_t h = (uint64_t)ino * 0x9e3779b97f4a7c15ULL ^ (uint64_t)dev * 0xc2b2ae3d27d4eb4fULL;
  return (size_t)(h ^ h >> 29);
}

/* Adds a directory; 1 if it was new, 0 if already read, -1 out of memory. */
static int seen_add(walker *w, dev_t dev, ino_t ino) {
  if (2 * (w->nseen + 1) > w->cap) {
    size_t cap = w->cap ? 2 * w->cap : 64;
    dirkey *k = calloc(cap, sizeof *k);
    if (!k) return -1;
    for (size_t i = 0; i < w->cap; i++)
      if (w->seen[i].used) {
        size_t h = key_hash(w->seen[i].dev, w->seen[i].ino) & (cap - 1);
        while (k[h].used) h = (h + 1) & (cap - 1);
        k[h] = w->seen[i];
      }
    free(w->seen);
    w->seen = k;
    w->cap = cap;
  }
  size_t h = key_hash(dev, ino) & (w->cap - 1);
  for (; w->seen[h].used; h = (h + 1) & (w->cap - 1))
    if (w->seen[h].dev == dev && w->seen[h].ino == ino) return 0;
  w->seen[h].dev = dev;
  w->seen[h].ino = ino;
  w->seen[h].used = 1;
  w->nseen++;
  return 1;
}

int walk_has_suffix(const char *name, const char *suffix) {
  size_t a = strlen(name), b = strlen(suffix);
  return a >= b && !strcmp(name + a - b, suffix);
}

int walk_list_add(walk_list *l, const char *path) {
  if (l->n == l->cap) {
    int cap = l->cap ? l->cap * 2 : 64;
    char **v = realloc(l->path, (size_t)cap * sizeof *v);
    if (!v) return MTG_ENOMEM;
    l->path = v;
    l->cap = cap;
  }
  size_t n = strlen(path) + 1;
  char *p = malloc(n);
  if (!p) return MTG_ENOMEM;
  memcpy(p, path, n);
  l->path[l->n++] = p;
  return MTG_OK;
}

void walk_list_free(walk_list *l) {
  for (int i = 0; i < l->n; i++) free(l->path[i]);
  free(l->path);
  memset(l, 0, sizeof *l);
}

static int by_path(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void skip(walker *w, const char *path, walk_skip kind, const char *why) {
  if (w->o->skipped) w->o->skipped(w->o->ctx, path, kind, why);
}

static int oom(walker *w) {
  mtg_error_set(w->err, MTG_ENOMEM, "out of memory");
  return MTG_ENOMEM;
}

/* Names tagged by read_names with what the directory says they are: a
 * regular file, or anything else (to be asked with stat). */
#define TAG_FILE 'f'
#define TAG_ASK '?'

static int by_tagged_path(const void *a, const void *b) {
  return strcmp(*(char *const *)a + 1, *(char *const *)b + 1);
}

/* The entries of a directory, sorted, so that which of several paths to one
 * directory is read never depends on the file system's order. Each name is
 * tagged (its first byte): an entry the directory lists as a regular file
 * needs no stat, which is most of a walk's system calls over many files. */
static int read_names(DIR *dp, walk_list *names) {
  struct dirent *e;
  char tagged[sizeof e->d_name + 1];
  while ((e = readdir(dp))) {
    if (e->d_name[0] == '.') continue;
#ifdef DT_REG
    tagged[0] = e->d_type == DT_REG ? TAG_FILE : TAG_ASK;
#else
    tagged[0] = TAG_ASK;
#endif
    size_t nl = strnlen(e->d_name, sizeof tagged - 2); /* once per file: no printf */
    memcpy(tagged + 1, e->d_name, nl);
    tagged[nl + 1] = 0;
    if (walk_list_add(names, tagged)) return MTG_ENOMEM;
  }
  if (names->n) qsort(names->path, (size_t)names->n, sizeof *names->path, by_tagged_path);
  return MTG_OK;
}

static int walk_in(walker *w, const char *dir, int depth) {
  DIR *dp = opendir(dir);
  if (!dp) {
    if (depth == 0) {
      mtg_error_set(w->err, MTG_EIO, "cannot open directory: %s", strerror(errno));
      if (w->err) snprintf(w->err->file, sizeof w->err->file, "%s", dir);
      return MTG_EIO;
    }
    skip(w, dir, WALK_UNREADABLE, strerror(errno));
    return MTG_OK;
  }
  walk_list names = {0};
  int rc = read_names(dp, &names);
  closedir(dp);
  if (rc) {
    walk_list_free(&names);
    return oom(w);
  }
  size_t dl = strlen(dir);
  int slash = dl && dir[dl - 1] == '/';
  for (int i = 0; i < names.n && !rc; i++) {
    const char *name = names.path[i] + 1;
    int regular = names.path[i][0] == TAG_FILE;
    int wanted = w->o->want ? w->o->want(name, w->o->ctx) : 1;
    if (regular && !wanted) continue; /* a file passed over: nothing to say */
    size_t size = dl + strlen(name) + 2;
    char *path = malloc(size);
    if (!path) {
      rc = oom(w);
      break;
    }
    /* dir, a slash unless dir ends with one, name: sized above, no printf */
    size_t at = dl;
    memcpy(path, dir, dl);
    if (!slash) path[at++] = '/';
    memcpy(path + at, name, strlen(name) + 1);
    struct stat lst, st;
    if (regular) {
      if (walk_list_add(w->out, path)) rc = oom(w);
      free(path);
      continue;
    }
    int is_link = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode);
    if (stat(path, &st)) {
      if (wanted || is_link) skip(w, path, WALK_DANGLING, is_link ? "a dangling link" : strerror(errno));
    } else if (S_ISDIR(st.st_mode)) {
      int max = w->o->max_depth > 0 ? w->o->max_depth : WALK_DEFAULT_DEPTH;
      if (is_link && !w->o->follow_links) {
        skip(w, path, WALK_LINK, "a link to a directory, not followed");
      } else if (depth + 1 > max) {
        skip(w, path, WALK_DEEP, "too deep");
      } else {
        int fresh = seen_add(w, st.st_dev, st.st_ino);
        if (fresh < 0) rc = oom(w);
        else if (!fresh) skip(w, path, WALK_SEEN, "a directory already read (a link loop)");
        else rc = walk_in(w, path, depth + 1);
      }
    } else if (wanted) {
      if (S_ISREG(st.st_mode)) {
        if (walk_list_add(w->out, path)) rc = oom(w);
      } else {
        char why[80];
        snprintf(why, sizeof why, "not a regular file (%s%s)", is_link ? "a link to " : "", input_kind(st.st_mode));
        skip(w, path, WALK_SPECIAL, why);
      }
    }
    free(path);
  }
  walk_list_free(&names);
  return rc;
}

int walk_dir(const char *root, const walk_opts *o, walk_list *out, mtg_error *err) {
  walker w = {o, out, err, NULL, 0, 0};
  struct stat st;
  if (stat(root, &st) || !S_ISDIR(st.st_mode)) {
    mtg_error_set(err, MTG_EIO, "%s", stat(root, &st) ? "no such directory" : "not a directory");
    if (err) snprintf(err->file, sizeof err->file, "%s", root);
    return MTG_EIO;
  }
  if (seen_add(&w, st.st_dev, st.st_ino) < 0) return oom(&w);
  int first = out->n;
  int rc = walk_in(&w, root, 0);
  free(w.seen);
  if (!rc && out->n > first) qsort(out->path + first, (size_t)(out->n - first), sizeof *out->path, by_path);
  return rc;
}
