/* fuzz_cases.c - libFuzzer target: the harness's case loader. The input is
 * written to a case file and goes through the harness's loading steps
 * (corpus_find, corpus_parse_file, corpus_check_file against engine/cards,
 * corpus_errors); cases
 * that load are then run (run_case), as bin/harness would. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "caseload.h"
#include "fuzz.h"
#include "run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[128]; /* the input written as a file, removed at exit */
static void remove_input(void) {
  if (path[0]) remove(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const mtg_pool *pool = fuzz_pool();
  if (!pool) return 0;
  if (!path[0] && !atexit(remove_input))
    snprintf(path, sizeof path, "%s/fuzz-case-%ld.yaml", access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm",
             (long)getpid());
  FILE *f = fopen(path, "wb");
  if (!f) return 0;
  fwrite(data, 1, size, f);
  fclose(f);
  hcorpus c;
  memset(&c, 0, sizeof c);
  buf errs = {0};
  const char *paths[1] = {path};
  int bad = corpus_find(&c, paths, 1, &errs);
  for (int i = 0; i < c.nfiles; i++) {
    corpus_parse_file(&c.files[i]);
    corpus_check_file(&c.files[i], pool);
  }
  bad += corpus_errors(&c, &errs);
  for (int i = 0; !bad && i < c.nfiles; i++)
    for (int k = 0; k < c.files[i].ncases; k++) {
      hresult r;
      memset(&r, 0, sizeof r);
      run_opts ro;
      memset(&ro, 0, sizeof ro); /* defaults: no log kept, nothing recorded */
      run_case(c.files[i].cases[k], &ro, &r);
      hresult_free(&r);
    }
  buf_free(&errs);
  corpus_free(&c);
  return 0;
}
