/* input: opening and reading input files that may come from anyone. Only a
 * regular file is read: a FIFO, a device (a link to /dev/zero), a socket or a
 * directory is refused at once, without blocking on it; and a file is read
 * whole only up to a size limit, so that no path can hang a program or
 * exhaust its memory. Shared by the card loader, the harness and the tools. */
#ifndef INPUT_H
#define INPUT_H

#include <stddef.h>
#include <sys/types.h>

#include "mtg.h"

/* The default limit of one input file read whole (a case file, a card file):
 * 16 MiB. The harness raises it with --max-file-size. */
#define INPUT_MAX_DEFAULT ((size_t)16 << 20)

/* Opens path read-only as a regular file. Returns a file descriptor, or -1
 * with err filled (status MTG_EIO, err->file = path): cannot open, or not a
 * regular file (named as what it is). */
int input_open(const char *path, mtg_error *err);

/* Reads the whole regular file at path (at most max bytes; 0 means
 * INPUT_MAX_DEFAULT) into a NUL-terminated buffer the caller frees. Returns 0,
 * or a negative status with err filled: MTG_EIO (cannot open or read, not a
 * regular file), MTG_ELIMIT (larger than max), MTG_ENOMEM. */
int input_read(const char *path, size_t max, char **out, size_t *len, mtg_error *err);

/* The same from an open descriptor (standard input: a pipe is read too),
 * named `name` in messages; the descriptor is not closed. */
int input_read_fd(int fd, const char *name, size_t max, char **out, size_t *len, mtg_error *err);

/* What a file of this mode is, for messages: "a FIFO", "a character device", ... */
const char *input_kind(mode_t mode);

/* Parses a size such as "16M", "512K", "1G" or "100000" (bytes) into *out;
 * 0, or -1 if it is not one (or is 0, or over 2^40). */
int input_parse_size(const char *s, size_t *out);

#endif
