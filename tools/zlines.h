/* zlines.h - reading a gzip file as a stream of text lines, telling a stream
 * cut short (truncation) apart from damaged compressed data (zlib data or CRC
 * errors). Memory is bounded: one input buffer, one output window (a file
 * read whole holds at most ZLINES_MAX_LINE bytes of text). */
#ifndef ZLINES_H
#define ZLINES_H

#include <stddef.h>
#include <stdint.h>

#include "mtg.h"

#define ZLINES_MAX_LINE (1 << 20) /* a longer line is malformed input */

typedef struct zlines zlines;

/* Opens path (MTG_EIO if it cannot be opened). */
int zlines_open(zlines **out, const char *path, mtg_error *err);
/* The same, decompressing a file read whole with dec (libdeflate's, NULL:
 * one of the reader's own), which a caller reading many files keeps from
 * one to the next: allocating one clears 11 KB, a tenth of what reading a
 * small replay costs. dec must outlive the reader, used by one at a time. */
struct libdeflate_decompressor;
int zlines_open_with(zlines **out, const char *path, struct libdeflate_decompressor *dec, mtg_error *err);
void zlines_close(zlines *z);

/* The next line, without its newline, NUL-terminated (valid until the next
 * call). Returns 1 with a line, 0 at the clean end of the stream, or a
 * negative status: RLOG_ETRUNC (the stream stops early, or the last line has
 * no newline), RLOG_ECORRUPT (damaged data), RLOG_EFORMAT (empty file, not
 * gzip, a line over ZLINES_MAX_LINE), MTG_EIO. Errors are sticky. */
int zlines_next(zlines *z, const char **line, size_t *len, mtg_error *err);

/* Decompresses the rest of the stream without looking at it, or at most
 * `limit` bytes of text when limit is not 0: 0 if it ends cleanly (or the
 * limit comes first), else the error zlines_next would have met. Used after
 * a log-level problem to learn whether the data itself is damaged. */
int zlines_drain(zlines *z, uint64_t limit, mtg_error *err);

/* How much a reader decompresses after a problem, looking for damage. */
#define ZLINES_DRAIN_LIMIT ((uint64_t)16 << 20)

/* Compressed bytes consumed so far (for messages). */
uint64_t zlines_offset(const zlines *z);

#endif
