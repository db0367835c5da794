/* input: regular files only, read whole up to a limit (see input.h). */
#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mtg_private.h"

static void io_error(mtg_error *err, int status, const char *path, const char *fmt, const char *what) {
  mtg_error_set(err, status, fmt, what);
  if (err) snprintf(err->file, sizeof err->file, "%s", path);
}

const char *input_kind(mode_t m) {
  if (S_ISDIR(m)) return "a directory";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISSOCK(m)) return "a socket";
  if (S_ISREG(m)) return "a regular file";
  return "not a regular file";
}

int input_open(const char *path, mtg_error *err) {
  /* O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused
   * below, and a regular file ignores the flag */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    io_error(err, MTG_EIO, path, "cannot open: %s", strerror(errno));
    return -1;
  }
  struct stat st;
  if (fstat(fd, &st)) {
    io_error(err, MTG_EIO, path, "cannot read: %s", strerror(errno));
    close(fd);
    return -1;
  }
  if (!S_ISREG(st.st_mode)) {
    io_error(err, MTG_EIO, path, "not a regular file (%s): not read", input_kind(st.st_mode));
    close(fd);
    return -1;
  }
  int fl = fcntl(fd, F_GETFL);
  if (fl >= 0) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
  return fd;
}

int input_read_fd(int fd, const char *name, size_t max, char **out, size_t *len, mtg_error *err) {
  *out = NULL;
  *len = 0;
  if (!max) max = INPUT_MAX_DEFAULT;
  /* the size fstat gives is only a hint (a file may grow while read, a pipe
   * has none): the limit is enforced on what is read */
  struct stat st;
  size_t cap = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && (unsigned long long)st.st_size < max
                   ? (size_t)st.st_size + 1
                   : 8192;
  if (cap > max + 1) cap = max + 1;
  char *buf = malloc(cap + 1);
  size_t n = 0;
  int rc = buf ? MTG_OK : MTG_ENOMEM;
  while (rc == MTG_OK) {
    if (n == cap) {
      if (cap > max) {
        char lim[64];
        snprintf(lim, sizeof lim, "%zu", max);
        io_error(err, MTG_ELIMIT, name, "larger than the input size limit of %s bytes", lim);
        rc = MTG_ELIMIT;
        break;
      }
      size_t nc = cap * 2 > max + 1 ? max + 1 : cap * 2;
      char *nb = realloc(buf, nc + 1);
      if (!nb) {
        rc = MTG_ENOMEM;
        break;
      }
      buf = nb;
      cap = nc;
    }
    ssize_t r = read(fd, buf + n, cap - n);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      io_error(err, MTG_EIO, name, "read error: %s", strerror(errno));
      rc = MTG_EIO;
    } else if (r == 0) {
      break;
    } else {
      n += (size_t)r;
    }
  }
  if (rc == MTG_ENOMEM) io_error(err, MTG_ENOMEM, name, "%s", "out of memory");
  if (rc) {
    free(buf);
    return rc;
  }
  buf[n] = 0;
  *out = buf;
  *len = n;
  return MTG_OK;
}

int input_read(const char *path, size_t max, char **out, size_t *len, mtg_error *err) {
  *out = NULL;
  *len = 0;
  int fd = input_open(path, err);
  if (fd < 0) return MTG_EIO;
  int rc = input_read_fd(fd, path, max, out, len, err);
  close(fd);
  return rc;
}

int input_parse_size(const char *s, size_t *out) {
  char *end;
  errno = 0;
  if (!s || *s < '0' || *s > '9') return -1;
  unsigned long long v = strtoull(s, &end, 10);
  unsigned long long mul = 1;
  if (*end == 'K' || *end == 'k') mul = 1ull << 10, end++;
  else if (*end == 'M' || *end == 'm') mul = 1ull << 20, end++;
  else if (*end == 'G' || *end == 'g') mul = 1ull << 30, end++;
  if (*end || errno || !v || v > (1ull << 40) / mul) return -1;
  *out = (size_t)(v * mul);
  return 0;
}
