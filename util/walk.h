/* walk: the one directory walk of every program that reads a tree of input
 * files (the harness's cases, the replay tools' recordings, the card pool's
 * directories). It lists the files under a directory whose names a caller
 * accepts, in sorted path order, so that results never depend on the order a
 * file system lists entries. It is safe on trees made by anyone: each
 * directory is read at most once, whatever links lead to it (its device and
 * inode are remembered), so symbolic-link loops end and a tree of links can't
 * make the walk exponential; a FIFO, device or socket is never listed (it
 * would block or never end), and each thing skipped is reported. Names
 * starting with '.' are not read. */
#ifndef WALK_H
#define WALK_H

#include "mtg.h"

typedef struct walk_list {
  char **path;
  int n, cap;
} walk_list;

/* Why a path was skipped. */
typedef enum {
  WALK_SPECIAL,    /* not a regular file (FIFO, device, socket), or a link to one */
  WALK_SEEN,       /* a directory already read (a link back to it: a loop) */
  WALK_LINK,       /* a link to a directory, not followed (follow_links 0) */
  WALK_DEEP,       /* a directory deeper than max_depth */
  WALK_UNREADABLE, /* a directory that can't be opened */
  WALK_DANGLING    /* a link to nothing, or a name stat can't follow */
} walk_skip;

typedef struct walk_opts {
  /* 1 if a regular file of this name (the last path component) is wanted */
  int (*want)(const char *name, void *ctx);
  /* told about each path skipped (may be NULL); `why` is a short phrase */
  void (*skipped)(void *ctx, const char *path, walk_skip kind, const char *why);
  void *ctx;
  int follow_links; /* follow symbolic links to directories (still each read once) */
  int max_depth;    /* directories below the root; 0: 64 */
} walk_opts;

/* Appends the wanted files under the directory `root` to out, the new ones
 * sorted by path (byte order). Returns 0, or a negative status with err
 * filled: MTG_EIO if root can't be opened as a directory, MTG_ENOMEM. */
int walk_dir(const char *root, const walk_opts *o, walk_list *out, mtg_error *err);
/* Appends one path as given. 0, or MTG_ENOMEM. */
int walk_list_add(walk_list *l, const char *path);
void walk_list_free(walk_list *l);

/* 1 if name ends with suffix. */
int walk_has_suffix(const char *name, const char *suffix);

#endif
