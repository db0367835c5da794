/* cli.h - small helpers shared by the command-line programs: numeric option
 * values, and the set of replay files named by paths (files and
 * directories), sorted so that any slicing of it is deterministic. */
#ifndef CLI_H
#define CLI_H

#include <stdint.h>

/* Parses all of s as a decimal integer in [lo, hi]; 0 or -1. */
int cli_long(const char *s, long lo, long hi, long *out);
int cli_u64(const char *s, uint64_t *out);

typedef struct cli_files {
  char **path;
  int n, cap;
} cli_files;

/* Adds each argument: a file as given, a directory as every regular file
 * under it (recursively, util/walk.h: links followed, each directory read
 * once) whose name ends in `suffix`; what the walk passes over (a FIFO or a
 * device, a link loop) is said on stderr after `prog: `, and what cannot be
 * read is kept, to be reported when opened. The result is sorted by path
 * (byte order) without duplicates. Returns 0, or -1 when out of memory. */
int cli_files_collect(cli_files *f, char **args, int n, const char *suffix, const char *prog);
void cli_files_free(cli_files *f);

#endif
