/* main: the command line of bin/harness: options, loading the card pool and
 * the cases once, running the selected cases on worker threads, writing the
 * report in case order, and the exit code (0 passed, 1 failed, 2 bad input). */
#include <errno.h>
#include <fnmatch.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "buf.h"
#include "caseload.h"
#include "coverage.h"
#include "escape.h"
#include "input.h"
#include "known.h"
#include "mtg_private.h"
#include "parallel.h"
#include "paths.h"
#include "record.h"
#include "report.h"
#include "rules.h"
#include "run.h"


static const char usage[] =
    "usage: bin/harness [options] [PATH...]   (installed as arbiter-harness)\n"
    "Runs the conformance cases under each PATH (files, or directories searched for\n"
    "*.yaml; default cases/; - reads one case file from standard input) in sorted\n"
    "order and checks each against its expectations.\n"
    "\n"
    "selecting:\n"
    "  --rule R              only cases listing rule R or a subrule of it (repeatable);\n"
    "                        603 selects 603.4 and 603.6a; an older (seed) number is\n"
    "                        accepted and the current rule it means is named on stderr\n"
    "  --id GLOB             only cases whose id matches the shell pattern GLOB\n"
    "                        (repeatable; with --rule, both must hold)\n"
    "  --list                list the selected cases (id, file:line, rules, title)\n"
    "                        without running them; --format text or json\n"
    "reporting:\n"
    "  --format F            text (default), tap (TAP version 13), tap14 (the same\n"
    "                        with a version 14 header), junit (JUnit XML with file\n"
    "                        and line), junit-strict (JUnit XML as Jenkins' xunit\n"
    "                        schema allows), json (one JSON object per case and\n"
    "                        line), html (the conformance report page), markdown\n"
    "                        (a summary for CI job pages)\n"
    "  --output FILE, -o FILE  also write the report to FILE, in the --format given\n"
    "                        just before (else text); repeatable, so that one run\n"
    "                        writes text to the terminal and JUnit to a file:\n"
    "                        --format junit --output report.xml. A --format after\n"
    "                        the last --output is standard output's; FILE - is\n"
    "                        standard output\n"
    "  --quiet, -q           text: only what did not pass, and the counts\n"
    "  --verbose             print each case's full event log\n"
    "  --coverage            per rule of the index (or of --rule): passing, failing and\n"
    "                        todo cases listing it; --format text or json\n"
    "  Text is coloured on a terminal unless the environment sets NO_COLOR.\n"
    "running:\n"
    "  --known-failures FILE ids of cases expected to fail: a new failure or an\n"
    "                        unexpected pass fails the run\n"
    "  --update-known-failures  rewrite that file from this run (sorted)\n"
    "  -j N                  run N cases at a time (threads); output is the same\n"
    "  --record DIR          write each case's game as a replay file into DIR\n"
    "  --run-todo            play todo cases as ordinary ones (which has an engine change fixed?)\n"
    "  --check               run the engine's invariant checker (mtg_game_check) after\n"
    "                        every decision: a broken invariant fails the case\n"
    "  --fail-fast           stop at the first problem: on any input error, report\n"
    "                        only the errors (on stderr) and run nothing; else stop\n"
    "                        at the first case that fails, reporting those run so far\n"
    "                        (with -j above 1, which ran before the stop may vary)\n"
    "  --warnings            list the warnings (else only counted on stderr): a rule\n"
    "                        listed in rules: that no event of the case's log\n"
    "                        carries, no decision was asked by and no pattern names\n"
    "  --strict              those warnings are errors (input errors: exit 2)\n"
    "  --cards DIR           the engine's card pool (see below)\n"
    "  --max-file-size N     read case and card files of up to N bytes (K, M, G\n"
    "                        suffixes; default 16M): a larger file is an input error\n"
    "  --check-rules-index FILE  check that FILE (cases/rules.yaml) matches the\n"
    "                        index compiled into this program\n"
    "  --help, --version\n"
    "\n"
    "exit status: 0 all selected cases passed (todo cases are skipped); 1 a case\n"
    "failed or has a script error; 2 bad input or usage (malformed YAML, unknown key,\n"
    "card, event type or rule number): each input error is an error entry of the\n"
    "report, and the other cases still run; 5 no case was selected.\n"
    "The case format is described in docs/cases.md.\n";

typedef struct opts {
  const char **paths;
  int npaths;
  const char **rules; /* selections after alias expansion */
  int nrules;
  int format, coverage, verbose, jobs, update_known, run_todo, fail_fast, strict, warnings, quiet, list, check;
  const char **ids; /* --id globs */
  int nids;
  report_out *outs; /* --output files, each with its format */
  int nouts;
  const char *known, *record, *cards, *check_index;
  size_t max_file;
  char (*norm)[32]; /* --rule arguments without a trailing '.' */
  int nnorm;
} opts;

static int usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "harness: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n(see bin/harness --help)\n");
  return 2;
}

static int add_rule(opts *o, const char *r) {
  o->rules[o->nrules++] = r;
  return 0;
}

/* --rule R: a current rule number (or a section), or an older seed number. */
/* --output FILE takes the format of the --format just before it. */
static int add_output(opts *o, const char *path, int *pending) {
  o->outs[o->nouts].format = *pending >= 0 ? *pending : FMT_TEXT;
  o->outs[o->nouts++].path = path;
  *pending = -1;
  return 0;
}

static int select_rule(opts *o, const char *arg) {
  char *r = o->norm[o->nnorm++];
  snprintf(r, sizeof o->norm[0], "%s", arg);
  size_t n = strlen(r);
  if (n && r[n - 1] == '.') r[n - 1] = 0;
  int current = rules_find(r) >= 0;
  int idx[8], k = rules_alias(r, idx, 8);
  if (current) add_rule(o, r);
  for (int i = 0; i < k; i++) add_rule(o, rules_table[idx[i]].num);
  if (k) {
    fprintf(stderr, "harness: --rule %s: seed number %s is current rule", r, r);
    for (int i = 0; i < k; i++) fprintf(stderr, "%s %s (%s)", i ? "," : "", rules_table[idx[i]].num, rules_table[idx[i]].title);
    if (current) fprintf(stderr, "; selecting it as well as current rule %s (%s)", r, rules_table[rules_find(r)].title);
    fprintf(stderr, "\n");
  }
  if (current || k) return 0;
  const char *removed = rules_removed_note(r);
  if (removed) {
    fprintf(stderr, "harness: --rule %s: that seed rule is no longer in the rules (%s)\n", r, removed);
    return 2;
  }
  char sug[80];
  rules_suggest(r, sug, sizeof sug);
  fprintf(stderr, "harness: --rule %s: unknown rule number%s%s\n", r, sug[0] ? "; nearest rules: " : "", sug);
  return 2;
}

static int parse_args(int argc, char **argv, opts *o) {
  o->paths = calloc((size_t)argc + 1, sizeof *o->paths);
  o->ids = calloc((size_t)argc + 1, sizeof *o->ids);
  o->outs = calloc((size_t)argc + 1, sizeof *o->outs);
  int pending = -1; /* a --format not yet taken by an --output */
  o->rules = calloc((size_t)argc * 8 + 1, sizeof *o->rules);
  o->norm = calloc((size_t)argc + 1, sizeof *o->norm);
  if (!o->paths || !o->rules || !o->norm || !o->ids || !o->outs) return usage_error("out of memory%s", "");
  o->jobs = parallel_cpus() < 8 ? parallel_cpus() : 8;
  int only_paths = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *val = NULL;
#define ARG(name)                                                                   \
  (!strcmp(a, name) ? (i + 1 < argc ? (val = argv[++i], 1) : (usage_error("%s needs a value", name), -1)) \
   : !strncmp(a, name "=", strlen(name) + 1) ? (val = a + strlen(name) + 1, 1) : 0)
    int rc;
    if (only_paths || a[0] != '-' || !strcmp(a, "-")) {
      o->paths[o->npaths++] = a;
    } else if (!strcmp(a, "--")) {
      only_paths = 1;
    } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(usage, stdout);
      printf("\nCards: %s.\n", paths_cards_help());
      exit(0);
    } else if (!strcmp(a, "--version")) {
      printf("arbiter-harness %s (library %s, rules index effective %s, engine rules %s)\n", MTG_VERSION, mtg_version(),
             rules_effective, MTG_RULES_EFFECTIVE);
      exit(0);
    } else if (!strcmp(a, "--coverage")) {
      o->coverage = 1;
    } else if (!strcmp(a, "--verbose") || !strcmp(a, "-v")) {
      o->verbose = 1;
    } else if (!strcmp(a, "--run-todo")) {
      o->run_todo = 1;
    } else if (!strcmp(a, "--check")) {
      o->check = 1;
    } else if (!strcmp(a, "--fail-fast")) {
      o->fail_fast = 1;
    } else if (!strcmp(a, "--strict")) {
      o->strict = 1;
    } else if (!strcmp(a, "--warnings")) {
      o->warnings = 1;
    } else if (!strcmp(a, "--update-known-failures")) {
      o->update_known = 1;
    } else if ((rc = ARG("--rule"))) {
      if (rc < 0 || select_rule(o, val)) return 2;
    } else if ((rc = ARG("--format"))) {
      if (rc < 0) return 2;
      pending = report_format_parse(val);
      if (pending < 0)
        return usage_error("unknown format '%s' (text, tap, tap14, junit, junit-strict, json, html or markdown)", val);
    } else if ((rc = ARG("--output")) || (rc = ARG("-o"))) {
      if (rc < 0) return 2;
      add_output(o, val, &pending);
    } else if ((rc = ARG("--id"))) {
      if (rc < 0) return 2;
      o->ids[o->nids++] = val;
    } else if (!strcmp(a, "--list")) {
      o->list = 1;
    } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
      o->quiet = 1;
    } else if ((rc = ARG("--known-failures"))) {
      if (rc < 0) return 2;
      o->known = val;
    } else if ((rc = ARG("--record"))) {
      if (rc < 0) return 2;
      o->record = val;
    } else if ((rc = ARG("--cards"))) {
      if (rc < 0) return 2;
      o->cards = val;
    } else if ((rc = ARG("--max-file-size"))) {
      if (rc < 0) return 2;
      if (input_parse_size(val, &o->max_file))
        return usage_error("--max-file-size takes a size in bytes such as 65536, 512K or 64M, not '%s'", val);
    } else if ((rc = ARG("--check-rules-index"))) {
      if (rc < 0) return 2;
      o->check_index = val;
    } else if (!strncmp(a, "-j", 2) || (rc = ARG("--jobs"))) {
      if (!val) val = a[2] ? a + 2 : (i + 1 < argc ? argv[++i] : "");
      char *end;
      long j = strtol(val, &end, 10);
      if (!*val || *end || j < 1 || j > 256) return usage_error("-j takes a number from 1 to 256, not '%s'", val);
      o->jobs = (int)j;
    } else {
      return usage_error("unknown option '%s'", a);
    }
#undef ARG
  }
  /* the last --format not taken by an --output is standard output's */
  o->format = pending >= 0 ? pending : FMT_TEXT;
  if (o->update_known && !o->known) return usage_error("--update-known-failures needs --known-failures FILE%s", "");
  if (o->coverage && o->format != FMT_TEXT && o->format != FMT_JSON)
    return usage_error("--coverage writes text or json%s", "");
  if (o->record && !record_available())
    return usage_error("--record %s: this build has no replay writer (tools/replaylog.c was not there)", o->record);
  if (!o->npaths) o->paths[o->npaths++] = "cases";
  return 0;
}

static void free_opts(opts *o) {
  free(o->ids);
  free(o->outs);
  free(o->paths);
  free(o->rules);
  free(o->norm);
}

/* Selected: keyed to a --rule (if any) and with an id matching an --id
 * glob (if any). */
static int selected(const opts *o, const hcase *hc) {
  int ok = !o->nids;
  for (int k = 0; k < o->nids && !ok; k++) ok = hc->id && !fnmatch(o->ids[k], hc->id, 0);
  if (!ok || !o->nrules) return ok;
  for (int i = 0; i < hc->nrules; i++)
    for (int k = 0; k < o->nrules; k++)
      if (rules_is_under(hc->rules[i], o->rules[k])) return 1;
  return 0;
}

/* ---- loading and running on threads ---- */

/* The card pool loads on its own thread while the first case files parse;
 * checking a file's cases waits for it. */
typedef struct pool_job {
  const char *dir;
  size_t max_file;
  int texts; /* the cards' texts are kept: --record writes them into replays */
  mtg_pool *pool;
  mtg_error err;
  int rc;
  int threaded;
  atomic_int done;
  pthread_mutex_t lock;
  pthread_cond_t loaded;
} pool_job;

static void *load_pool(void *arg) {
  pool_job *j = arg;
  j->rc = mtg_pool_new(&j->pool, NULL);
  if (j->rc) mtg_error_set(&j->err, MTG_ENOMEM, "out of memory");
  if (!j->rc && !j->texts) mtg_pool_skip_texts(j->pool); /* only a recording carries them */
  if (!j->rc && j->max_file) j->rc = mtg_pool_max_file_size(j->pool, j->max_file, &j->err);
  if (!j->rc) j->rc = mtg_pool_load_dir(j->pool, j->dir, &j->err);
  if (j->threaded) pthread_mutex_lock(&j->lock);
  atomic_store(&j->done, 1);
  if (j->threaded) {
    pthread_cond_broadcast(&j->loaded);
    pthread_mutex_unlock(&j->lock);
  }
  return NULL;
}

/* The loaded pool, or NULL if it failed to load. */
static const mtg_pool *pool_wait(pool_job *j) {
  if (j->threaded) {
    pthread_mutex_lock(&j->lock);
    while (!atomic_load(&j->done)) pthread_cond_wait(&j->loaded, &j->lock);
    pthread_mutex_unlock(&j->lock);
  }
  return j->rc ? NULL : j->pool;
}

/* The runs of one file's selected cases, in case order. */
typedef struct file_runs {
  hrun_item *items;
  hresult *results;
  int n, oom;
} file_runs;

/* The text report written as the run goes, when it is the run's only
 * report (text on standard output, the default): once a file and every file
 * before it have run, its entries are written and what was kept of its cases
 * is freed; the end needs only the counts, the did-not-pass lines and the
 * case ids met (for duplicates), so that memory stays flat however many
 * cases run. The output is the same as report_write's. JSON lines (a line
 * per item, nothing at the end) and --list (its entries, then the count, as
 * list_cases writes them) are written the same way; --coverage keeps only
 * its counts per rule to the end. */
typedef struct stream {
  pthread_mutex_t lock;
  report_opts ro;
  int next;             /* the first file not yet written */
  unsigned char *ran;   /* per file: its cases have run */
  hids *ids;
  buf errs;             /* input errors, as corpus_errors lists them */
  buf missed;           /* the did-not-pass lines */
  hsummary s;
  coverage *cov;        /* --coverage: the counts per rule */
  buf unrec;            /* --record: the notes of the first cases not recorded */
  int bad, cases_run, nwarn, failed; /* cases_run: with --list, the cases listed; failed: out of memory or a write failed */
  int unrecorded;
} stream;

typedef struct corpus_job {
  hcorpus *c;
  pool_job *pj;
  const opts *o;
  const run_opts *ro;
  file_runs *runs;    /* one per file */
  atomic_int *parse;  /* per file: 0 not parsed, 1 being parsed, 2 parsed */
  atomic_int ahead;   /* the next file to try parsing ahead */
  atomic_int broken;  /* an error was found: cases stop being run */
  atomic_int failed;  /* --fail-fast: a case failed, no further case runs */
  mtg_game **games;   /* one per worker, reused from case to case */
  const hknown *known;
  stream *st;         /* the report written as files finish, or NULL */
} corpus_job;

static void stream_ready(corpus_job *j, int i);
static void list_file(buf *out, const opts *o, const hfile *f, int *n);
static int list_end(buf *out, const opts *o, int n, int bad, const buf *errs);

#define PARSE_AHEAD 32

/* Parses file i unless another thread has taken it. */
static void try_parse(corpus_job *j, int i) {
  int expect = 0;
  if (atomic_compare_exchange_strong(&j->parse[i], &expect, 1)) {
    corpus_parse_file(&j->c->files[i]);
    atomic_store(&j->parse[i], 2);
  }
}

/* A case that runs: selected, and free of input errors. */
static int runs_case(const opts *o, const hcase *hc) { return !hc->nerr && selected(o, hc); }

/* One file, on any thread: parse (and, while the card pool is still loading,
 * parse the files after it), check, run its selected cases that have no
 * input errors, and release it, so that memory holds one file's cases per
 * thread. With --fail-fast, once any file has an error no case runs (the
 * run ends with the errors and no results). */
static void do_file(void *ctx, int i, int worker) {
  corpus_job *j = ctx;
  hfile *f = &j->c->files[i];
  file_runs *fr = &j->runs[i];
  try_parse(j, i);
  while (atomic_load(&j->parse[i]) != 2) sched_yield(); /* another thread is parsing it */
  /* a bounded way ahead, so that a slow pool can't make memory hold the corpus */
  while (!atomic_load(&j->pj->done)) {
    int k = atomic_fetch_add(&j->ahead, 1);
    if (k >= j->c->nfiles || k > i + PARSE_AHEAD) break;
    try_parse(j, k);
  }
  const mtg_pool *pool = pool_wait(j->pj);
  if (!pool) return;
  if (corpus_check_file(f, pool) && j->o->fail_fast) atomic_store(&j->broken, 1);
  if (j->o->list) {
    corpus_release_file(f); /* --list: nothing runs */
    if (j->st) stream_ready(j, i);
    return;
  }
  if (!atomic_load(&j->broken)) {
    for (int k = 0; k < f->ncases; k++) fr->n += runs_case(j->o, f->cases[k]);
    fr->items = calloc((size_t)(fr->n ? fr->n : 1), sizeof *fr->items);
    fr->results = calloc((size_t)(fr->n ? fr->n : 1), sizeof *fr->results);
    if (!fr->items || !fr->results) {
      fr->oom = 1;
      fr->n = 0;
      atomic_store(&j->broken, 1);
    }
    run_opts ro = *j->ro;
    ro.pool = pool;
    ro.game = j->games ? &j->games[worker] : NULL;
    for (int k = 0, m = 0; k < f->ncases && m < fr->n; k++) {
      if (!runs_case(j->o, f->cases[k])) continue;
      if (j->o->fail_fast && atomic_load(&j->failed)) {
        fr->n = m; /* the cases not run are left out of the report */
        break;
      }
      run_case(f->cases[k], &ro, &fr->results[m]);
      int st = fr->results[m++].status;
      if (st == ST_FAIL || st == ST_ERROR) atomic_store(&j->failed, 1);
    }
  }
  corpus_release_file(f);
  for (int k = 0, m = 0; k < f->ncases && m < fr->n; k++)
    if (runs_case(j->o, f->cases[k])) {
      fr->items[m].hc = f->cases[k];
      fr->items[m].r = &fr->results[m];
      m++;
    }
  if (j->st) stream_ready(j, i);
}

/* Room for a file's items and the errors made for them (file_items). */
static int file_item_count(const hfile *f, const file_runs *fr, int *nextra) {
  *nextra = f->nmore > 0;
  for (int k = 0; k < f->ncases; k++) *nextra += f->cases[k]->dup_file != NULL;
  return f->failed + f->nerrs + fr->n + *nextra;
}

/* A file's items, in order: the file's parse error, then per case its input
 * errors and duplicate id, by line, or its result when it ran. Errors made
 * here (duplicate ids, errors past the per-file limit) go to extra. */
static int file_items(const opts *o, const hfile *f, const file_runs *fr, const hknown *known, mtg_error *extra,
                      hrun_item *it) {
  int m = 0, x = 0;
  if (f->failed) it[m++] = (hrun_item){.err = f->err, .file = f->path, .verdict = V_ERROR};
  for (int k = 0, r = 0; k < f->ncases; k++) {
    const hcase *hc = f->cases[k];
    mtg_error *dup = NULL;
    if (hc->dup_file) case_dup_error(hc, dup = &extra[x++]);
    for (int e = hc->err0; e < hc->err0 + hc->nerr && e < f->nerrs; e++) {
      if (dup && dup->line <= f->errs[e].line) {
        it[m++] = (hrun_item){.hc = hc, .err = dup, .verdict = V_ERROR};
        dup = NULL;
      }
      it[m++] = (hrun_item){.hc = hc, .err = &f->errs[e], .verdict = V_ERROR};
    }
    if (dup) it[m++] = (hrun_item){.hc = hc, .err = dup, .verdict = V_ERROR};
    if (r < fr->n && fr->items[r].hc == hc) {
      hrun_item ri = fr->items[r++];
      if (hc->dup_file) continue; /* its id is in error: its result would be taken for the other's */
      int st = ri.r->status, listed = o->known && known_has(known, hc->id);
      ri.verdict = st == ST_TODO   ? V_SKIP
                   : st == ST_PASS ? (listed ? V_XPASS : V_PASS)
                   : listed        ? V_XFAIL
                   : st == ST_FAIL ? V_FAIL
                                   : V_ERROR;
      it[m++] = ri;
    }
  }
  if (f->nmore) {
    mtg_error *e = &extra[x++];
    mtg_error_set(e, MTG_ELIMIT, "%d more error%s in this file, not shown (at most %d are kept per file)", f->nmore,
                  f->nmore == 1 ? "" : "s", CASE_MAX_FILE_ERRORS);
    snprintf(e->file, sizeof e->file, "%s", f->path);
    it[m++] = (hrun_item){.err = e, .file = f->path, .verdict = V_ERROR};
  }
  return m;
}

/* The items of the run in file order (file_items of each file). Errors made
 * for them are kept in *extra. */
static hrun_item *collect(const opts *o, const hcorpus *c, const file_runs *runs, const hknown *known, mtg_error **extra,
                          int *count) {
  int n = 0, nextra = 0;
  for (int i = 0; i < c->nfiles; i++) {
    int x;
    n += file_item_count(&c->files[i], &runs[i], &x);
    nextra += x;
  }
  hrun_item *it = calloc((size_t)(n ? n : 1), sizeof *it);
  *extra = calloc((size_t)(nextra ? nextra : 1), sizeof **extra);
  if (!it || !*extra) {
    free(it);
    free(*extra);
    *extra = NULL;
    return NULL;
  }
  int m = 0, x = 0;
  for (int i = 0; i < c->nfiles; i++) {
    int nx;
    file_item_count(&c->files[i], &runs[i], &nx);
    m += file_items(o, &c->files[i], &runs[i], known, *extra + x, it + m);
    x += nx;
  }
  *count = m;
  return it;
}

/* Writes file i's entries and frees what was kept of its cases. */
static void stream_file(corpus_job *j, int i) {
  stream *st = j->st;
  hfile *f = &j->c->files[i];
  file_runs *fr = &j->runs[i];
  st->bad += corpus_file_errors(j->c, i, &st->ids, &st->errs);
  if (j->o->list) {
    buf out = {0};
    list_file(&out, j->o, f, &st->cases_run);
    if (out.oom || fwrite(buf_str(&out), 1, out.len, stdout) != out.len) st->failed = 1;
    buf_free(&out);
    corpus_drop_file(f);
    return;
  }
  if (fr->oom) {
    buf_printf(&st->errs, "harness: %s: out of memory\n", f->path);
    st->bad++;
  }
  int nx, n = file_item_count(f, fr, &nx);
  hrun_item *it = calloc((size_t)(n ? n : 1), sizeof *it);
  mtg_error *extra = calloc((size_t)(nx ? nx : 1), sizeof *extra);
  buf out = {0};
  if (!it || !extra) {
    fprintf(stderr, "harness: out of memory\n");
    st->failed = 1;
    n = 0;
  } else {
    n = file_items(j->o, f, fr, j->known, extra, it);
  }
  for (int k = 0; k < n; k++) {
    if (st->cov) {
      coverage_add(st->cov, &it[k], 1);
    } else if (st->ro.format == FMT_JSON) {
      report_write(&out, &st->ro, &it[k], 1); /* a line per item */
    } else {
      report_text_item(&out, &st->ro, &it[k]);
      report_text_missed(&st->missed, &st->ro, &it[k]);
    }
    hsummary one = report_summary(&it[k], 1);
    st->s.passed += one.passed;
    st->s.failed += one.failed;
    st->s.skipped += one.skipped;
    st->s.xfail += one.xfail;
    st->s.xpass += one.xpass;
    st->s.errors += one.errors;
    st->s.input_errors += one.input_errors;
    if (!it[k].r) continue;
    st->cases_run++;
    if (it[k].r->unrecorded && st->unrecorded++ < 5) buf_puts(&st->unrec, buf_str(&it[k].r->note));
    if (it[k].r->warn.len && !j->o->strict)
      for (const char *p = buf_str(&it[k].r->warn); (p = strchr(p, '\n')); p++) st->nwarn++;
  }
  if (out.oom || fwrite(buf_str(&out), 1, out.len, stdout) != out.len) st->failed = 1;
  buf_free(&out);
  free(it);
  free(extra);
  for (int k = 0; k < fr->n; k++) hresult_free(&fr->results[k]);
  free(fr->items);
  free(fr->results);
  fr->items = NULL;
  fr->results = NULL;
  fr->n = 0;
  corpus_drop_file(f);
}

/* File i has run: writes it, and the files after it that ran, once every
 * file before it is written. */
static void stream_ready(corpus_job *j, int i) {
  stream *st = j->st;
  pthread_mutex_lock(&st->lock);
  st->ran[i] = 1;
  while (st->next < j->c->nfiles && st->ran[st->next]) stream_file(j, st->next++);
  pthread_mutex_unlock(&st->lock);
}

/* A report that did not reach standard output (a full disk, a closed pipe)
 * is an error, whatever the format: said on standard error, exit 2. */
static int write_out(const buf *b) {
  if (b->oom) fprintf(stderr, "harness: out of memory while writing the report\n");
  errno = 0;
  int failed = fwrite(buf_str(b), 1, b->len, stdout) != b->len;
  failed |= fflush(stdout) != 0;
  if ((failed || ferror(stdout)) && !b->oom) {
    fprintf(stderr, "harness: writing the report to standard output: %s\n", errno ? strerror(errno) : "write error");
    clearerr(stdout);
    return 1;
  }
  return b->oom;
}

/* The end of a run reported as it went: what is left to write, then what
 * standard error says, then the did-not-pass lines and the counts, last.
 * Returns the exit status. */
static int stream_end(corpus_job *j, int bad) {
  stream *st = j->st;
  const opts *o = j->o;
  while (st->next < j->c->nfiles) stream_file(j, st->next++); /* files that did not run */
  bad += st->bad;
  if (o->list) {
    buf out = {0};
    int rc = list_end(&out, o, st->cases_run, bad, &st->errs);
    buf_free(&out);
    return st->failed ? 2 : rc;
  }
  if (bad && (o->quiet || o->format == FMT_JSON || o->coverage)) {
    if (o->format == FMT_JSON || o->coverage) escape_fwrite(stderr, buf_str(&st->errs), st->errs.len, 1); /* as the end of a run writes it */
    else fputs(buf_str(&st->errs), stderr);
    fprintf(stderr, "harness: %d input error%s, reported as errors\n", bad, bad == 1 ? "" : "s");
  }
  if (st->nwarn)
    fprintf(stderr,
            "harness: %d warning%s: a rule listed that no event of its case's log carries, no decision was asked by "
            "and no pattern names (--warnings lists them; --strict makes them errors)\n",
            st->nwarn, st->nwarn == 1 ? "" : "s");
  buf out = {0};
  if (st->cov) coverage_end(&out, o->format == FMT_JSON, o->rules, o->nrules, st->cov);
  else if (o->format != FMT_JSON) report_text_end(&out, &st->s, buf_str(&st->missed));
  out.oom |= st->missed.oom;
  int werr = write_out(&out) || st->failed;
  buf_free(&out);
  /* --record: a case whose game could not be written is an error (its note says why) */
  if (st->unrecorded) {
    fputs(buf_str(&st->unrec), stderr);
    fprintf(stderr, "harness: --record %s: %d case%s not recorded\n", o->record, st->unrecorded,
            st->unrecorded == 1 ? "" : "s");
  }
  if (!st->cases_run && !bad) fprintf(stderr, "harness: no case selected (exit status 5)\n");
  return werr || bad || st->s.input_errors || st->unrecorded ? 2 : st->s.failed ? 1 : !st->cases_run ? 5 : 0;
}


/* --output FILE: each file's report in its format ("-": standard output).
 * 0, or 1 after saying why a file could not be written. */
static int write_outputs(const opts *o, const hrun_item *it, int n) {
  int bad = 0;
  for (int k = 0; k < o->nouts; k++) {
    buf b = {0};
    report_opts ro = {.format = o->outs[k].format, .verbose = o->verbose};
    report_write(&b, &ro, it, n);
    if (!strcmp(o->outs[k].path, "-")) {
      bad |= write_out(&b);
    } else {
      FILE *f = fopen(o->outs[k].path, "w");
      int failed = !f || fwrite(buf_str(&b), 1, b.len, f) != b.len || b.oom;
      if (f && fclose(f)) failed = 1;
      if (failed) {
        fprintf(stderr, "harness: --output %s: %s\n", o->outs[k].path, b.oom ? "out of memory" : strerror(errno));
        bad = 1;
      }
    }
    buf_free(&b);
  }
  return bad;
}

/* --list: the selected cases, in file order, without running them: text
 * (id, file:line, rules, title) or JSON lines. list_file writes one file's
 * entries and counts them in *n; list_end, the count (text) and the input
 * errors (on stderr), and returns the exit status: 2 with input errors, 5
 * when nothing is selected, else 0. */
static void list_file(buf *out, const opts *o, const hfile *f, int *n) {
  for (int k = 0; k < f->ncases; k++) {
    const hcase *hc = f->cases[k];
    if (hc->nerr || hc->dup_file || !selected(o, hc)) continue;
    (*n)++;
    if (o->format == FMT_JSON) {
      buf_puts(out, "{\"id\":");
      buf_json(out, hc->id);
      buf_puts(out, ",\"file\":");
      buf_json(out, hc->file->path);
      buf_printf(out, ",\"line\":%d,\"rules\":[", hc->line);
      for (int r = 0; r < hc->nrules; r++) {
        buf_puts(out, r ? "," : "");
        buf_json(out, hc->rules[r]);
      }
      buf_printf(out, "],\"todo\":%s,\"title\":", hc->todo ? "true" : "false");
      buf_json(out, hc->title);
      buf_puts(out, "}\n");
    } else {
      buf_printf(out, "%s  ", hc->id);
      buf_esc(out, hc->file->path);
      buf_printf(out, ":%d  ", hc->line);
      for (int r = 0; r < hc->nrules; r++) buf_printf(out, "%s%s", r ? "," : "", hc->rules[r]);
      buf_puts(out, hc->todo ? "  (todo) " : "  ");
      buf_esc(out, hc->title);
      buf_puts(out, "\n");
    }
  }
}

static int list_end(buf *out, const opts *o, int n, int bad, const buf *errs) {
  if (o->format != FMT_JSON) buf_printf(out, "%d case%s selected\n", n, n == 1 ? "" : "s");
  int werr = write_out(out);
  if (bad) {
    escape_fwrite(stderr, buf_str(errs), errs->len, 1);
    fprintf(stderr, "harness: %d input error%s\n", bad, bad == 1 ? "" : "s");
  }
  return werr || bad ? 2 : n ? 0 : 5;
}

static int list_cases(const opts *o, const hcorpus *c, int bad, const buf *errs) {
  buf out = {0};
  int n = 0;
  for (int i = 0; i < c->nfiles; i++) list_file(&out, o, &c->files[i], &n);
  int rc = list_end(&out, o, n, bad, errs);
  buf_free(&out);
  return rc;
}

/* Each game allocates about 2.5 MB: a 0.9 MB handle by calloc and three
 * blocks of 0.6-0.7 MB by malloc, most of it never touched. With glibc's
 * default, freeing the first game raises the mmap threshold, and every later
 * handle comes from the heap, where calloc must clear all of it: that was
 * most of a case's run time. A fixed threshold between the two sizes keeps
 * the handle mmap'ed (fresh pages are zero; only touched ones cost) and the
 * malloc'ed blocks on the heap, reused from game to game; a high trim
 * threshold keeps the heap from being handed back and faulted in again. */
static void tune_malloc(void) {
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
  mallopt(M_MMAP_THRESHOLD, 768 * 1024);
  mallopt(M_TRIM_THRESHOLD, 64 * 1024 * 1024);
#endif
}

int main(int argc, char **argv) {
  tune_malloc();
  opts o = {0};
  int rc = parse_args(argc, argv, &o);
  if (rc) {
    free_opts(&o);
    return rc;
  }
  if (o.check_index) {
    mtg_error err;
    char msg[2048];
    rc = rules_check_file(o.check_index, &err);
    if (rc) {
      error_format(&err, msg, sizeof msg);
      fprintf(stderr, "%s\n", msg);
    } else {
      printf("%s: %d rules, effective %s: matches the compiled-in index\n", o.check_index, rules_count, rules_effective);
    }
    free_opts(&o);
    return rc ? 1 : 0;
  }
  hknown known = {0};
  if (o.known) {
    char why[512];
    if (known_load(&known, o.known, why, sizeof why)) {
      fprintf(stderr, "harness: --known-failures %s\n", why);
      known_free(&known);
      free_opts(&o);
      return 2;
    }
  }
  /* the directory replays go to: made if missing (not its parents) */
  struct stat rst;
  if (o.record && ((mkdir(o.record, 0777) && errno != EEXIST) || stat(o.record, &rst) || !S_ISDIR(rst.st_mode))) {
    fprintf(stderr, "harness: --record %s: %s\n", o.record, errno == EEXIST ? "not a directory" : strerror(errno));
    known_free(&known);
    free_opts(&o);
    return 2;
  }
  hcorpus corpus;
  buf errs = {0};
  int bad = corpus_find(&corpus, o.paths, o.npaths, &errs);
  /* paths that give no case file (missing, a FIFO, a device) belong to no
   * case of the report: said here, counted in the exit status */
  if (errs.len) {
    escape_fwrite(stderr, buf_str(&errs), errs.len, 1);
    buf_reset(&errs);
  }
  for (int i = 0; i < corpus.nfiles; i++) corpus.files[i].max_size = o.max_file;
  pool_job pj = {.dir = paths_cards(o.cards), .max_file = o.max_file, .texts = o.record != NULL};
  pthread_t pt;
  pj.threaded = o.jobs > 1 && !pthread_mutex_init(&pj.lock, NULL);
  if (pj.threaded && pthread_cond_init(&pj.loaded, NULL)) {
    pthread_mutex_destroy(&pj.lock);
    pj.threaded = 0;
  }
  if (pj.threaded && pthread_create(&pt, NULL, load_pool, &pj)) {
    pthread_cond_destroy(&pj.loaded);
    pthread_mutex_destroy(&pj.lock);
    pj.threaded = 0;
  }
  if (!pj.threaded) load_pool(&pj);
  run_opts ro = {.verbose = o.verbose, .record_dir = o.record, .run_todo = o.run_todo, .strict = o.strict, .check = o.check};
  file_runs *runs = calloc((size_t)(corpus.nfiles ? corpus.nfiles : 1), sizeof *runs);
  atomic_int *parse = calloc((size_t)(corpus.nfiles ? corpus.nfiles : 1), sizeof *parse);
  mtg_game **games = calloc((size_t)o.jobs, sizeof *games); /* without it, each case allocates its own */
  corpus_job cj = {.c = &corpus, .pj = &pj, .o = &o, .ro = &ro, .runs = runs, .parse = parse, .games = games,
                   .known = &known};
  /* the text report alone, on standard output: written as files finish */
  stream sm = {0};
  const char *nc = getenv("NO_COLOR");
  int color = isatty(STDOUT_FILENO) && !(nc && *nc);
  if ((((o.format == FMT_TEXT || o.format == FMT_JSON) && !o.nouts && !o.update_known && !o.warnings) || o.list) && !o.fail_fast &&
      runs && parse && corpus.nfiles && !bad && (sm.ran = calloc((size_t)corpus.nfiles, 1)) &&
      (!o.coverage || o.list || (sm.cov = coverage_new())) && !pthread_mutex_init(&sm.lock, NULL)) {
    sm.ro = (report_opts){.format = o.format, .verbose = o.verbose, .quiet = o.quiet, .color = color};
    cj.st = &sm;
  }
  for (int i = 0; parse && i < corpus.nfiles; i++) atomic_init(&parse[i], 0);
  atomic_init(&cj.ahead, 0);
  atomic_init(&cj.failed, 0);
  if (!parse) {
    free(runs);
    runs = NULL;
  }
  atomic_init(&cj.broken, (bad && o.fail_fast) || !runs);
  if (runs) parallel_for(corpus.nfiles, o.jobs, do_file, &cj);
  for (int k = 0; games && k < o.jobs; k++) mtg_game_free(games[k]);
  free(games);
  if (pj.threaded) {
    pthread_join(pt, NULL);
    pthread_cond_destroy(&pj.loaded);
    pthread_mutex_destroy(&pj.lock);
  }
  hrun_item *items = NULL;
  int n = 0;
  if (pj.rc) {
    char msg[2048];
    error_format(&pj.err, msg, sizeof msg);
    fprintf(stderr, "harness: card pool: ");
    escape_fwrite(stderr, msg, strlen(msg), 1);
    fputc('\n', stderr);
    rc = 2;
    goto out;
  }
  if (cj.st) {
    rc = stream_end(&cj, bad);
    goto out;
  }
  bad += corpus_errors(&corpus, &errs);
  for (int i = 0; runs && i < corpus.nfiles; i++) {
    if (runs[i].oom) {
      buf_printf(&errs, "harness: %s: out of memory\n", corpus.files[i].path);
      bad++;
    }
  }
  if (!runs) {
    buf_printf(&errs, "harness: out of memory\n");
    bad++;
  }
  if (bad && (o.fail_fast || !runs || !corpus.files)) {
    escape_fwrite(stderr, buf_str(&errs), errs.len, 1);
    fprintf(stderr, "harness: %d error%s in the cases; no results reported (--fail-fast)\n", bad, bad == 1 ? "" : "s");
    rc = 2;
    goto out;
  }
  if (o.list) {
    rc = list_cases(&o, &corpus, bad, &errs);
    goto out;
  }
  mtg_error *extra = NULL;
  items = collect(&o, &corpus, runs, &known, &extra, &n);
  if (!items) {
    fprintf(stderr, "harness: out of memory\n");
    rc = 2;
  } else {
    buf out = {0};
    report_opts ro = {.format = o.format, .verbose = o.verbose, .quiet = o.quiet, .color = color};
    int to_stdout = 1; /* no --output - */
    for (int k = 0; k < o.nouts; k++) to_stdout &= strcmp(o.outs[k].path, "-") != 0;
    if (o.coverage) coverage_write(&out, o.format == FMT_JSON, o.rules, o.nrules, items, n);
    else if (to_stdout) report_write(&out, &ro, items, n);
    int werr = write_outputs(&o, items, n);
    /* a machine format on stdout: the input errors are said on stderr too */
    if (bad && (o.coverage || o.format != FMT_TEXT || !to_stdout || o.quiet)) {
      escape_fwrite(stderr, buf_str(&errs), errs.len, 1);
      fprintf(stderr, "harness: %d input error%s, reported as errors\n", bad, bad == 1 ? "" : "s");
    }
    /* warnings: counted, listed with --warnings, errors with --strict */
    int nwarn = 0;
    for (int i = 0; i < n; i++)
      if (items[i].r && items[i].r->warn.len && !o.strict) {
        if (o.warnings) escape_fwrite(stderr, buf_str(&items[i].r->warn), items[i].r->warn.len, 1);
        for (const char *p = buf_str(&items[i].r->warn); (p = strchr(p, '\n')); p++) nwarn++;
      }
    if (nwarn)
      fprintf(stderr,
              "harness: %d warning%s: a rule listed that no event of its case's log carries, no decision was asked by "
              "and no pattern names (%s; --strict makes them errors)\n",
              nwarn, nwarn == 1 ? "" : "s", o.warnings ? "listed above" : "--warnings lists them");
    werr |= write_out(&out);
    buf_free(&out);
    hsummary s = report_summary(items, n);
    int ran = 0;
    for (int i = 0; i < n; i++) ran += items[i].r != NULL;
    rc = werr || bad || s.input_errors ? 2 : s.failed ? 1 : !ran ? 5 : 0;
    if (o.update_known) {
      char why[512];
      if (known_update(&known, o.known, items, n, why, sizeof why)) {
        fprintf(stderr, "harness: --update-known-failures: %s\n", why);
        rc = 2;
      } else {
        fprintf(stderr, "harness: rewrote %s\n", o.known);
        if (rc == 1) rc = 0; /* the list now says what fails */
      }
    }
    /* --record: a case whose game could not be written is an error (its note says why) */
    int unrecorded = 0;
    for (int i = 0; i < n; i++)
      if (items[i].r && items[i].r->unrecorded) {
        if (unrecorded++ < 5) fputs(buf_str(&items[i].r->note), stderr);
        rc = 2;
      }
    if (unrecorded)
      fprintf(stderr, "harness: --record %s: %d case%s not recorded\n", o.record, unrecorded, unrecorded == 1 ? "" : "s");
    if (!ran && !bad) fprintf(stderr, "harness: no case selected (exit status 5)\n");
  }
  free(extra);
out:
  if (cj.st) {
    pthread_mutex_destroy(&sm.lock);
    hids_free(sm.ids);
    buf_free(&sm.errs);
    buf_free(&sm.missed);
    buf_free(&sm.unrec);
  }
  free(sm.ran);
  coverage_free(sm.cov);
  for (int i = 0; runs && i < corpus.nfiles; i++) {
    for (int k = 0; k < runs[i].n; k++) hresult_free(&runs[i].results[k]);
    free(runs[i].items);
    free(runs[i].results);
  }
  free(runs);
  free(parse);
  free(items);
  known_free(&known);
  buf_free(&errs);
  corpus_free(&corpus);
  mtg_pool_free(pj.pool);
  free_opts(&o);
  return rc;
}
