/* zlines.c - gzip line reader (see zlines.h). zlib's inflate is driven by
 * hand rather than through gzread so that an input that stops early (inflate
 * wants more and the file has none) and damaged data (Z_DATA_ERROR, which
 * includes CRC and length mismatches) are reported as what they are.
 *
 * A file read whole by the first read (nearly every replay) is first
 * decompressed whole by libdeflate, which takes half of inflate's
 * instructions; only a file it decompresses cleanly is read that way. Any
 * other (damaged, cut short, unusual, or large) is left untouched to zlib's
 * stream, so that every refusal and its message stay zlib's. */
#include "zlines.h"

#include "mtg_private.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libdeflate.h>
#include <zlib.h>

#include "input.h"

#include "replaylog.h"

#define IN_SIZE 65536
#define OUT_START 65536
/* The most text a file decompressed whole may hold. Not more than
 * ZLINES_MAX_LINE: a stream holding that little cannot have a line over the
 * limit, which zlib's stream would find part way through the file. */
#define WHOLE_MAX ((size_t)ZLINES_MAX_LINE)

struct zlines {
  int fd;           /* read with read(2): a replay is read once, front to back, in big blocks */
  z_stream z;
  int zinit;
  int eof;          /* the file has no more bytes */
  int member_done;  /* inflate reached the end of a gzip member */
  int status;       /* the stream: 0 running, 1 clean end, < 0 sticky error */
  int line_error;   /* a line over the limit: the stream itself may be fine */
  int tried_whole;  /* whole() has had its one chance */
  struct libdeflate_decompressor *dec; /* the caller's, or NULL */
  mtg_error err;    /* the sticky error */
  uint64_t in_total;/* bytes read from the file */
  char *buf;        /* decompressed text: [start, end) not yet returned */
  size_t cap, start, end, scan;
  unsigned char in[IN_SIZE]; /* last: not cleared, as only what fread put there is read */
};

int zlines_open(zlines **out, const char *path, mtg_error *err) { return zlines_open_with(out, path, NULL, err); }

int zlines_open_with(zlines **out, const char *path, struct libdeflate_decompressor *dec, mtg_error *err) {
  *out = NULL;
  zlines *z = malloc(sizeof *z);
  char *buf = malloc(OUT_START);
  if (z) {
    memset(z, 0, offsetof(zlines, in));
    z->fd = -1;
  }
  if (!z || !buf) {
    free(z);
    free(buf);
    mtg_error_set(err, MTG_ENOMEM, "out of memory");
    return MTG_ENOMEM;
  }
  z->buf = buf;
  z->cap = OUT_START;
  z->dec = dec;
  /* a regular file only: a FIFO or device named as a replay is refused at
   * once rather than waited on or read forever */
  mtg_error oerr;
  if ((z->fd = input_open(path, &oerr)) < 0) {
    mtg_error_set(err, MTG_EIO, "%s", oerr.msg);
    zlines_close(z);
    return MTG_EIO;
  }
  /* 16 + MAX_WBITS: expect the gzip wrapper (header and CRC-32 trailer) */
  if (inflateInit2(&z->z, 16 + MAX_WBITS) != Z_OK) {
    mtg_error_set(err, MTG_ENOMEM, "cannot initialise zlib: out of memory");
    zlines_close(z);
    return MTG_ENOMEM;
  }
  z->zinit = 1;
  *out = z;
  return 0;
}

void zlines_close(zlines *z) {
  if (!z) return;
  if (z->zinit) inflateEnd(&z->z);
  if (z->fd >= 0) close(z->fd);
  free(z->buf);
  free(z);
}

uint64_t zlines_offset(const zlines *z) { return z->in_total - z->z.avail_in; }
static unsigned long long off(const zlines *z) { return (unsigned long long)zlines_offset(z); }

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static int fail(zlines *z, int status, mtg_error *err, const char *fmt, ...) {
  memset(&z->err, 0, sizeof z->err);
  z->err.status = status;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(z->err.msg, sizeof z->err.msg, fmt, ap);
  va_end(ap);
  z->status = status;
  if (err) *err = z->err;
  return status;
}

/* Reads more compressed input, as much as fits or the file has; 0 at the
 * end of the file. */
static int read_input(zlines *z, mtg_error *err) {
  size_t n = 0;
  while (n < IN_SIZE && !z->eof) {
    ssize_t k = read(z->fd, z->in + n, IN_SIZE - n);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) {
      if (n) break; /* what was read first; the error again on the next call */
      return fail(z, MTG_EIO, err, "cannot read after %llu bytes: %s", off(z), strerror(errno));
    }
    if (k == 0) z->eof = 1;
    n += (size_t)k;
  }
  if (n == 0) return 0;
  if (z->in_total == 0 && (n < 2 || z->in[0] != 0x1f || z->in[1] != 0x8b))
    return fail(z, RLOG_EFORMAT, err, "not a gzip stream: no gzip signature at byte %llu", off(z));
  z->in_total += n;
  z->z.next_in = z->in;
  z->z.avail_in = (uInt)n;
  return 1;
}

/* Makes buf hold at least size bytes; 0 when out of memory. */
static int reserve(zlines *z, size_t size) {
  if (size <= z->cap) return 1;
  char *b = realloc(z->buf, size);
  if (!b) return 0;
  z->buf = b;
  z->cap = size;
  return 1;
}

/* A gzip member's header that zlib and libdeflate take alike: the signature,
 * deflate, and no flag but FTEXT, FEXTRA, FNAME and FCOMMENT (libdeflate
 * skips a header CRC, FHCRC, without checking it as zlib does). */
static int plain_member(const unsigned char *p, size_t n) {
  return n >= 18 && p[0] == 0x1f && p[1] == 0x8b && p[2] == 8 && !(p[3] & ~0x1d);
}

/* The whole file is in `in` and nothing of it is decompressed yet: its
 * members are decompressed into buf at once. Returns 1 when they all are,
 * the stream then at its clean end with every byte consumed as zlib's would
 * be; 0 when anything fails (the file's text is then read through zlib's
 * stream from its start, which reports what is wrong). */
static int whole(zlines *z) {
  const unsigned char *in = z->in;
  size_t n = z->z.avail_in;
  if (!z->eof || z->in_total != n || !plain_member(in, n)) return 0;
  /* ISIZE, the last member's length of text, as the first guess */
  size_t want = (size_t)in[n - 4] | (size_t)in[n - 3] << 8 | (size_t)in[n - 2] << 16 | (size_t)in[n - 1] << 24;
  size_t cap = z->cap;
  if (want > WHOLE_MAX) return 0;
  struct libdeflate_decompressor *d = z->dec ? z->dec : libdeflate_alloc_decompressor();
  if (!d) return 0;
  size_t at = 0, out = 0;
  int ok = reserve(z, want + 1);
  while (ok && at < n) {
    size_t used, got;
    /* one byte of buf stays free, so that make_room never finds it full */
    enum libdeflate_result rc =
        plain_member(in + at, n - at)
            ? libdeflate_gzip_decompress_ex(d, in + at, n - at, z->buf + out, z->cap - 1 - out, &used, &got)
            : LIBDEFLATE_BAD_DATA;
    if (rc == LIBDEFLATE_SUCCESS) {
      at += used;
      out += got;
    } else if (rc == LIBDEFLATE_INSUFFICIENT_SPACE && z->cap <= WHOLE_MAX)
      ok = reserve(z, z->cap * 2 > WHOLE_MAX + 1 ? WHOLE_MAX + 1 : z->cap * 2);
    else
      ok = 0;
  }
  if (d != z->dec) libdeflate_free_decompressor(d);
  if (!ok) {
    /* zlib's stream fills the window it would have had, so that it stops
     * where it always did; a larger buffer only goes partly used */
    z->cap = cap;
    return 0;
  }
  z->end = out;
  z->z.avail_in = 0;
  z->member_done = 1;
  z->status = 1;
  return 1;
}

/* Decompresses more text into buf[end..cap). Returns the number of bytes
 * added (> 0), 0 at the clean end of the stream, or a negative status. */
static int fill(zlines *z, mtg_error *err) {
  if (z->status < 0) {
    if (err) *err = z->err;
    return z->status;
  }
  if (z->status == 1) return 0;
  if (!z->tried_whole) {
    z->tried_whole = 1;
    if (z->z.avail_in == 0 && !z->eof) {
      int rc = read_input(z, err);
      if (rc < 0) return rc;
    }
    /* at the first fill nothing is pending: the text starts buf */
    if (z->start == 0 && z->end == 0 && whole(z)) return (int)z->end;
  }
  for (;;) {
    if (z->z.avail_in == 0 && !z->eof) {
      int rc = read_input(z, err);
      if (rc < 0) return rc;
    }
    if (z->member_done) {
      if (z->z.avail_in == 0 && z->eof) {
        z->status = 1;
        return 0;
      }
      if (z->z.avail_in == 0) continue;
      /* concatenated gzip members form one stream, as for zcat */
      if (z->z.next_in[0] != 0x1f)
        return fail(z, RLOG_ECORRUPT, err, "damaged data: unexpected bytes after the end of the compressed stream at byte %llu", off(z));
      inflateReset(&z->z);
      z->member_done = 0;
    }
    if (z->z.avail_in == 0 && z->eof) {
      if (z->in_total == 0) return fail(z, RLOG_EFORMAT, err, "empty file (%llu bytes): not a replay", off(z));
      return fail(z, RLOG_ETRUNC, err, "truncated: the compressed stream ends unexpectedly at byte %llu", off(z));
    }
    z->z.next_out = (unsigned char *)z->buf + z->end;
    z->z.avail_out = (uInt)(z->cap - z->end);
    int rc = inflate(&z->z, Z_NO_FLUSH);
    size_t got = z->cap - z->end - z->z.avail_out;
    z->end += got;
    if (rc == Z_STREAM_END) z->member_done = 1;
    else if (rc == Z_DATA_ERROR) {
      const char *m = z->z.msg ? z->z.msg : "data error";
      if (!strcmp(m, "incorrect data check")) m = "CRC-32 mismatch (incorrect data check)";
      return fail(z, RLOG_ECORRUPT, err, "damaged compressed data at byte %llu: %s", off(z), m);
    }
    else if (rc == Z_MEM_ERROR)
      return fail(z, MTG_ENOMEM, err, "out of memory at byte %llu", off(z));
    else if (rc != Z_OK && rc != Z_BUF_ERROR)
      return fail(z, RLOG_ECORRUPT, err, "damaged compressed data at byte %llu: %s", off(z),
                  z->z.msg ? z->z.msg : "stream error");
    if (got) return (int)got;
  }
}

/* Makes room after the pending text: slides it to the front, or grows buf. */
static int make_room(zlines *z, mtg_error *err) {
  if (z->start > 0) {
    memmove(z->buf, z->buf + z->start, z->end - z->start);
    z->end -= z->start;
    z->scan -= z->start;
    z->start = 0;
  }
  if (z->end < z->cap) return 0;
  if (z->cap > ZLINES_MAX_LINE) {
    int rc = fail(z, RLOG_EFORMAT, err, "a line longer than %d bytes before byte %llu: not a replay", ZLINES_MAX_LINE,
                  off(z));
    z->status = 0; /* the stream can still be drained */
    z->line_error = 1;
    return rc;
  }
  char *b = realloc(z->buf, z->cap * 2);
  if (!b) return fail(z, MTG_ENOMEM, err, "out of memory at byte %llu", off(z));
  z->buf = b;
  z->cap *= 2;
  return 0;
}

int zlines_next(zlines *z, const char **line, size_t *len, mtg_error *err) {
  if (z->line_error) {
    if (err) *err = z->err;
    return z->err.status;
  }
  for (;;) {
    char *nl = z->scan < z->end ? memchr(z->buf + z->scan, '\n', z->end - z->scan) : NULL;
    if (nl) {
      *nl = 0;
      *line = z->buf + z->start;
      *len = (size_t)(nl - (z->buf + z->start));
      z->start = z->scan = (size_t)(nl - z->buf) + 1;
      return 1;
    }
    z->scan = z->end;
    int rc = make_room(z, err);
    if (rc < 0) return rc;
    rc = fill(z, err);
    if (rc < 0) return rc;
    if (rc == 0) {
      if (z->start == z->end) return 0;
      return fail(z, RLOG_ETRUNC, err, "truncated: the text stops in the middle of a line (byte %llu)", off(z));
    }
  }
}

int zlines_drain(zlines *z, uint64_t limit, mtg_error *err) {
  uint64_t seen = 0;
  for (;;) {
    z->start = z->end = z->scan = 0;
    int rc = fill(z, err);
    if (rc <= 0) return rc;
    seen += (uint64_t)rc;
    if (limit && seen >= limit) return 0;
  }
}
