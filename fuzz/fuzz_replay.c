/* fuzz_replay.c - libFuzzer target: the replay reader (tools/replaylog.h)
 * and the replay checker (tools/verify.h). The first input byte chooses how
 * the rest is used: 0, as the file itself (compressed data, mostly damaged);
 * 1, as the uncompressed text of a replay, gzip-compressed here so that the
 * fuzzer works on the text format; 2, the same text checked in full by
 * verify_file, which re-runs its setup and decisions through the engine. A
 * refusal must come with a consistent error status. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "fuzz.h"
#include "replaylog.h"
#include "verify.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[128]; /* the input written as a file, removed at exit */
static void remove_input(void) {
  if (path[0]) remove(path);
}

static int write_gzip(const char *path, const uint8_t *d, size_t n) {
  z_stream z;
  memset(&z, 0, sizeof z);
  if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return -1;
  uLong cap = deflateBound(&z, (uLong)n) + 64;
  unsigned char *out = malloc(cap);
  if (!out) return deflateEnd(&z), -1;
  z.next_in = (unsigned char *)(uintptr_t)d;
  z.avail_in = (uInt)n;
  z.next_out = out;
  z.avail_out = (uInt)cap;
  int rc = deflate(&z, Z_FINISH);
  size_t len = cap - z.avail_out;
  deflateEnd(&z);
  FILE *f = rc == Z_STREAM_END ? fopen(path, "wb") : NULL;
  if (f) {
    fwrite(out, 1, len, f);
    fclose(f);
  }
  free(out);
  return f ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  if (!path[0] && !atexit(remove_input))
    snprintf(path, sizeof path, "%s/fuzz-replay-%ld.gz", access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm",
             (long)getpid());
  int mode = data[0] % 3;
  if (mode == 0) {
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    fwrite(data + 1, 1, size - 1, f);
    fclose(f);
  } else if (write_gzip(path, data + 1, size - 1)) {
    return 0;
  }
  if (mode == 2) {
    const mtg_pool *pool = fuzz_pool();
    if (!pool) return 0;
    verify_opts o = {.pool = pool, .pool_dir = "engine/cards"};
    verify_report *rep = calloc(1, sizeof *rep);
    if (!rep) return 0;
    int rc = verify_file(&o, NULL, path, rep);
    if (rc != rep->outcome || rc < VERIFY_OK || rc > VERIFY_UNREADABLE) {
      char why[256];
      snprintf(why, sizeof why, "verify_file returned %d, report says %d", rc, rep->outcome);
      fuzz_finding("fuzz_replay", why);
    }
    free(rep);
    return 0;
  }
  rlog_reader *r = NULL;
  mtg_error e;
  memset(&e, 0, sizeof e);
  int rc = rlog_reader_open(&r, path, &e);
  if (rc == 0) {
    rlog_record rec;
    long n = 0;
    while ((rc = rlog_reader_next(r, &rec, &e)) > 0 && n++ < 2000000)
      if (!rec.text || rec.text[rec.len] || strlen(rec.text) > rec.len) /* a NUL inside a line is allowed */
        fuzz_finding("fuzz_replay", "a record's text and length disagree");
    if (rc == 0) rc = rlog_reader_drain(r, &e);
  }
  if (rc < 0 && (e.status != rc || !e.msg[0])) {
    char why[1400];
    snprintf(why, sizeof why, "status %d but the error says %d '%s'", rc, e.status, e.msg);
    fuzz_finding("fuzz_replay", why);
  }
  rlog_reader_free(r);
  return 0;
}
