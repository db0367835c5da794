/* replay.c - bin/replay: checks recorded games against the engine (check),
 * prints one (dump) or compares two (diff). The only place that decides the
 * exit status: 0 consistent, 1 a divergence, 2 unreadable input or misuse. */
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "escape.h"
#include "impact.h"
#include "mtg_private.h"
#include "parallel.h"
#include "paths.h"
#include "poolset.h"
#include "replaylog.h"
#include "report.h"
#include "verify.h"

#define EXIT_DIVERGED 1
#define EXIT_UNREADABLE 2

static const char usage[] =
    "usage: replay check [-j N] [--format text|json] [--shard I/N] [--cards DIR] PATH...\n"
    "       replay rerecord [-j N] [--cards DIR] PATH...\n"
    "       replay impact [-j N] [--format text|json] [--rules-from DIR] PATH...\n"
    "       replay dump FILE\n"
    "       replay diff [--format text|json] A B\n"
    "       replay --help | --version\n"
    "\n"
    "check  re-runs each replay's setup and decisions through the engine, with the card\n"
    "       definitions the replay carries, and compares every event, the options of\n"
    "       every decision, every checkpoint and the trailer with the recording. PATHs\n"
    "       are files or directories (searched recursively for *.gz files).\n"
    "       -j N          check N files at a time (default: the number of processors)\n"
    "       --format F    text (default) or json (one object per file)\n"
    "       --shard I/N   check only the I-th (1..N) of N slices of the sorted file list\n"
    "       --cards DIR   the card pool to check against: a card the game used that DIR\n"
    "                     defines otherwise makes the outcome pool-changed (default:\n"
    "                     $ARBITER_CARDS, else engine/cards in a source tree, else the\n"
    "                     installed pool, when there, is only compared with)\n"
    "rerecord  plays each replay's setup and decisions again and writes the game as\n"
    "       the engine now plays it over the file (same format version, card definitions,\n"
    "       origin and seed): after an intended change of the engine's log. A replay\n"
    "       whose decisions the engine no longer takes is left as it was (exit 1).\n"
    "impact checks each replay like check and reports only what changed, grouped by\n"
    "       rule: under each rule a replay cites (a case's rules) or, if it cites none,\n"
    "       the rule of its first differing line; --rules-from DIR takes a case's\n"
    "       rules from its recording in DIR when the replay cites none. Exit 0 nothing\n"
    "       changed, 1 something did, 2 unreadable input.\n"
    "dump   prints a replay's header and its log, numbering events as check reports them\n"
    "diff   compares two replays of the same game and reports their first difference\n"
    "\n"
    "outcomes: ok; open (recorded up to a pending decision, as a case is); incomplete\n"
    "(the game is unfinished: abandoned, or cut short); pool-changed; divergence;\n"
    "unreadable (truncated, damaged, not a replay, unsupported version, bad card\n"
    "definitions, another card pool for a version-1 replay).\n"
    "exit status: 0 all ok or open, 1 incomplete, pool-changed or a divergence (or a\n"
    "difference), 2 unreadable input or bad usage; the highest wins.\n";

#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static int bad_usage(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "replay: ");
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\n%s", usage);
  return EXIT_UNREADABLE;
}

/* ---- check ---- */

typedef struct check {
  verify_opts vo;
  char **path;
  int n;
  int json;
  int rerecord;          /* write each replay again instead of checking it */
  impact *impact;        /* group what changed by rule instead of reporting each replay */
  const char *rules_from; /* recordings of cases whose cites stand in for a replay's missing ones */
  int oom;
  int counts[VERIFY_OUTCOMES];
  long events;
  atomic_long progress;
  int tty;
  struct timespec start, shown;
  /* workspaces not in use: one per thread at most, kept between its replays */
  pthread_mutex_t ws_lock;
  verify_ws **ws;
  int nws;
} check;

static double since(const struct timespec *t) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

static void *check_job(void *ctx, int i) {
  check *c = ctx;
  pthread_mutex_lock(&c->ws_lock);
  verify_ws *w = c->nws ? c->ws[--c->nws] : NULL;
  pthread_mutex_unlock(&c->ws_lock);
  if (!w) w = verify_ws_new(&c->vo); /* NULL: the check goes on without */
  verify_report *r = malloc(sizeof *r);
  if (r && c->rerecord) verify_rerecord(&c->vo, w, c->path[i], c->path[i], r);
  else if (r) verify_file(&c->vo, w, c->path[i], r);
  pthread_mutex_lock(&c->ws_lock);
  if (w) c->ws[c->nws++] = w; /* room for one per thread */
  pthread_mutex_unlock(&c->ws_lock);
  return r;
}

/* The rules a case's recording in dir cites, for a replay of the same case
 * (origin "harness case ID ...") that cites none (an older recording). */
static void cites_from(const char *dir, verify_report *r) {
  const char *o = r->origin;
  if (strncmp(o, "harness case ", 13)) return;
  o += 13;
  size_t n = strcspn(o, " ");
  char path[4096];
  snprintf(path, sizeof path, "%s/%s%.*s.gz", dir, o[0] == '.' ? "%2E" : "", (int)(n - (o[0] == '.')), o + (o[0] == '.'));
  rlog_reader *rd;
  mtg_error err;
  if (rlog_reader_open(&rd, path, &err)) return;
  snprintf(r->cites, sizeof r->cites, "%s", rlog_reader_info(rd)->cites);
  rlog_reader_free(rd);
}

static void check_done(void *ctx, int i, void *result) {
  check *c = ctx;
  verify_report *r = result;
  report_labels labels = {"expected:", "actual:", c->vo.pool_dir};
  if (!r) {
    fprintf(stdout, "%s: UNREADABLE (memory): out of memory\n", c->path[i]);
    c->counts[VERIFY_UNREADABLE]++;
    return;
  }
  if (c->tty) fputs("\r\033[K", stderr);
  if (c->impact) {
    if (!r->cites[0] && c->rules_from) cites_from(c->rules_from, r);
    c->oom |= impact_add(c->impact, c->path[i], r) != 0;
  } else if (c->json) report_json(stdout, c->path[i], r, &labels);
  else if (c->rerecord && r->outcome == VERIFY_OK)
    printf("%s: re-recorded (%ld decisions given)\n", c->path[i], r->decisions);
  else report_text(stdout, c->path[i], r, &labels);
  c->counts[r->outcome]++;
  c->events += r->events;
  free(r);
}

/* progress on a terminal: files done and events per second */
static void check_tick(void *ctx) {
  check *c = ctx;
  if (!c->tty || since(&c->shown) < 0.25) return;
  clock_gettime(CLOCK_MONOTONIC, &c->shown);
  double t = since(&c->start);
  long ev = atomic_load(&c->progress);
  int done = 0;
  for (int k = 0; k < VERIFY_OUTCOMES; k++) done += c->counts[k];
  fflush(stdout);
  fprintf(stderr, "\r\033[K%d/%d replays, %ld events, %.0f events/s", done, c->n, ev, t > 0 ? (double)ev / t : 0.0);
}

static int parse_shard(const char *s, long *i, long *n) {
  const char *slash = strchr(s, '/');
  char a[32];
  if (!slash || (size_t)(slash - s) >= sizeof a) return -1;
  snprintf(a, sizeof a, "%.*s", (int)(slash - s), s);
  if (cli_long(a, 1, 1000000, i) || cli_long(slash + 1, 1, 1000000, n) || *i > *n) return -1;
  return 0;
}

enum { CHECK, RERECORD, IMPACT };

static int cmd_check(int argc, char **argv, int mode) {
  int rerecord = mode == RERECORD;
  const char *rules_from = NULL;
  long jobs = par_cpus(), si = 1, sn = 1;
  const char *cards = NULL; /* --cards; else paths_cards: $ARBITER_CARDS, the tree's or the installed pool */
  int json = 0, npaths = 0;
  char **paths = calloc((size_t)argc + 1, sizeof *paths);
  if (!paths) return bad_usage("%s", "out of memory");
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    const char *val = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strncmp(a, "-j", 2) && a[2]) { /* -jN */
      if (cli_long(a + 2, 1, 256, &jobs)) return free(paths), bad_usage("-j wants 1 to 256, not %s", a + 2);
    } else if (!strcmp(a, "-j") || !strcmp(a, "--format") || !strcmp(a, "--shard") || !strcmp(a, "--cards") ||
               (mode == IMPACT && !strcmp(a, "--rules-from"))) {
      if (!val) return free(paths), bad_usage("%s needs a value", a);
      i++;
      if (!strcmp(a, "-j") && cli_long(val, 1, 256, &jobs)) return free(paths), bad_usage("-j wants 1 to 256, not %s", val);
      if (!strcmp(a, "--format")) {
        if (strcmp(val, "text") && strcmp(val, "json")) return free(paths), bad_usage("--format is text or json, not %s", val);
        json = !strcmp(val, "json");
      }
      if (!strcmp(a, "--shard") && parse_shard(val, &si, &sn))
        return free(paths), bad_usage("--shard wants I/N with 1 <= I <= N, not %s", val);
      if (!strcmp(a, "--cards")) cards = val;
      if (!strcmp(a, "--rules-from")) rules_from = val;
    } else if (a[0] == '-' && a[1]) {
      return free(paths), bad_usage("unknown option %s", a);
    } else
      paths[npaths++] = argv[i];
  }
  if (!npaths)
    return free(paths), bad_usage("%s needs at least one PATH", mode == RERECORD ? "rerecord" : mode == IMPACT ? "impact" : "check");

  cli_files files = {0};
  if (cli_files_collect(&files, paths, npaths, ".gz", "replay")) {
    free(paths);
    fprintf(stderr, "replay: out of memory\n");
    return EXIT_UNREADABLE;
  }
  free(paths);
  if (!files.n) {
    fprintf(stderr, "replay: no replay files (*.gz) under the given paths\n");
    cli_files_free(&files);
    return EXIT_UNREADABLE;
  }
  /* the I-th slice: every N-th file of the sorted list, from the I-th */
  int k = 0;
  for (int i = 0; i < files.n; i++)
    if (i % sn == si - 1) files.path[k++] = files.path[i];
    else free(files.path[i]);
  files.n = k;

  /* the pool to compare with: the one given, or else the default one when
   * it is there (a version-2 replay plays with its own definitions and needs
   * none); a pool that is there must load */
  mtg_pool *pool = NULL;
  mtg_error err;
  struct stat st;
  const char *dir = paths_cards(cards);
  if ((cards || (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))) &&
      (mtg_pool_new(&pool, NULL) || mtg_pool_load_dir(pool, dir, &err))) {
    char msg[2048];
    if (!pool) mtg_error_set(&err, MTG_ENOMEM, "out of memory");
    mtg_error_format(&err, msg, sizeof msg);
    fprintf(stderr, "replay: cannot load the card pool from %s: %s\n", dir, msg);
    mtg_pool_free(pool);
    cli_files_free(&files);
    return EXIT_UNREADABLE;
  }
  /* the keyword abilities every replay's pools share, compiled once */
  mtg_pool *keywords = NULL;
  poolset *frozen = poolset_new();
  verify_ws **ws = calloc((size_t)jobs, sizeof *ws);
  if (!frozen || !ws || (!pool && mtg_pool_new(&keywords, NULL))) {
    poolset_free(frozen);
    free(ws);
    mtg_pool_free(pool);
    cli_files_free(&files);
    fprintf(stderr, "replay: out of memory\n");
    return EXIT_UNREADABLE;
  }
  check c = {.vo = {.pool = pool, .pool_dir = pool ? dir : NULL, .pool_given = cards != NULL, .frozen = frozen,
                    .keywords = pool ? pool : keywords},
             .path = files.path, .n = files.n, .json = json, .rerecord = rerecord, .rules_from = rules_from,
             .tty = isatty(2), .ws = ws};
  pthread_mutex_init(&c.ws_lock, NULL);
  if (mode == IMPACT && !(c.impact = impact_new())) c.oom = 1;
  atomic_init(&c.progress, 0);
  c.vo.progress = c.tty ? &c.progress : NULL;
  clock_gettime(CLOCK_MONOTONIC, &c.start);
  c.shown = c.start;
  int rc = par_run(files.n, (int)jobs, check_job, check_done, c.tty ? check_tick : NULL, &c);
  if (c.tty) fputs("\r\033[K", stderr);
  if (rc) fprintf(stderr, "replay: cannot start threads\n");
  else if (c.impact) {
    if (json) impact_json(stdout, c.impact);
    else impact_text(stdout, c.impact);
  } else if (!json && rerecord)
    printf("%d replays: %d re-recorded, %d not\n", files.n, c.counts[VERIFY_OK], files.n - c.counts[VERIFY_OK]);
  else if (!json) {
    int *k = c.counts;
    printf("%d replays: %d consistent", files.n, k[VERIFY_OK] + k[VERIFY_OPEN]);
    if (k[VERIFY_OPEN]) printf(" (%d open)", k[VERIFY_OPEN]);
    if (k[VERIFY_INCOMPLETE]) printf(", %d incomplete", k[VERIFY_INCOMPLETE]);
    if (k[VERIFY_POOL_CHANGED]) printf(", %d pool-changed", k[VERIFY_POOL_CHANGED]);
    printf(", %d diverged, %d unreadable (%ld events checked)\n", k[VERIFY_DIVERGED], k[VERIFY_UNREADABLE], c.events);
  }
  int changed = c.impact ? impact_changed(c.impact) : 0;
  impact_free(c.impact);
  for (int k = 0; k < c.nws; k++) verify_ws_free(ws[k]);
  free(ws);
  pthread_mutex_destroy(&c.ws_lock);
  poolset_free(frozen);
  mtg_pool_free(keywords);
  mtg_pool_free(pool);
  cli_files_free(&files);
  if (rc || c.oom) {
    if (c.oom) fprintf(stderr, "replay: out of memory\n");
    return EXIT_UNREADABLE;
  }
  if (mode == IMPACT) return c.counts[VERIFY_UNREADABLE] ? EXIT_UNREADABLE : changed ? EXIT_DIVERGED : 0;
  int worst = 0;
  for (int k = 0; k < VERIFY_OUTCOMES; k++)
    if (c.counts[k] && verify_exit_status(k) > worst) worst = verify_exit_status(k);
  return worst;
}

/* ---- dump ---- */

/* What a replay holds is shown escaped: it may come from anyone (util/escape.h). */
static void print_block(const char *title, const char *text) {
  printf("# %s:%s\n", title, *text ? "" : " (none)");
  escape_fwrite(stdout, text, strlen(text), 1);
}

static void print_field(const char *text) { escape_fwrite(stdout, text, strlen(text), 0); }

static int cmd_dump(int argc, char **argv) {
  if (argc != 1) return bad_usage("%s", "dump takes one FILE");
  rlog_reader *r;
  mtg_error err;
  int rc = rlog_reader_open(&r, argv[0], &err);
  if (!rc) {
    const rlog_info *h = rlog_reader_info(r);
    if (h->version == 1)
      printf("# replay format %d, engine %s, rules %s, pool %016" PRIx64 ", seed %" PRIu64 "\n", h->version, h->engine,
             h->rules, h->pool_hash, h->seed);
    else
      printf("# replay format %d, engine %s, rules %s, seed %" PRIu64 "\n", h->version, h->engine, h->rules, h->seed);
    printf("# origin: ");
    print_field(h->origin);
    printf("\n# players:");
    for (int i = 0; i < h->nplayers; i++) {
      printf(" ");
      print_field(h->players[i]);
    }
    printf("\n");
    if (h->version >= 2) printf("# until %s\n", h->partial ? "decision" : "over");
    print_block("setup", h->setup_text);
    if (h->version >= 2) {
      printf("# cards: %d definition%s\n", h->ncards, h->ncards == 1 ? "" : "s");
      for (int i = 0; i < h->ncards; i++) {
        printf("# card %s %016" PRIx64 " ", h->cards[i].extra ? "extra" : "pool", h->cards[i].hash);
        print_field(h->cards[i].name);
        printf("\n");
        escape_fwrite(stdout, h->cards[i].text, strlen(h->cards[i].text), 1);
      }
    } else
      print_block("cards", h->cards_yaml);
    printf("# log (event number, then the line):\n");
    rlog_record rec;
    while ((rc = rlog_reader_next(r, &rec, &err)) > 0) {
      if (rec.kind == RLOG_R_EVENT || rec.kind == RLOG_R_DECISION) printf("%7ld ", rec.event);
      else printf("        ");
      escape_fwrite(stdout, rec.text, rec.len, 0);
      printf("\n");
    }
  }
  rlog_reader_free(r);
  fflush(stdout);
  if (rc < 0) {
    char msg[2048];
    mtg_error_format(&err, msg, sizeof msg);
    fprintf(stderr, "replay: %s: ", argv[0]);
    escape_fwrite(stderr, msg, strlen(msg), 1);
    fputc('\n', stderr);
    return EXIT_UNREADABLE;
  }
  return 0;
}

/* ---- diff ---- */

static int cmd_diff(int argc, char **argv) {
  int json = 0;
  char *p[2];
  int np = 0;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--format") && i + 1 < argc) {
      if (strcmp(argv[i + 1], "text") && strcmp(argv[i + 1], "json")) return bad_usage("--format is text or json, not %s", argv[i + 1]);
      json = !strcmp(argv[++i], "json");
    } else if (argv[i][0] == '-' && argv[i][1])
      return bad_usage("unknown option %s", argv[i]);
    else if (np < 2)
      p[np++] = argv[i];
    else
      return bad_usage("%s", "diff takes two files");
  }
  if (np != 2) return bad_usage("%s", "diff takes two files");
  verify_report *r = malloc(sizeof *r);
  if (!r) return bad_usage("%s", "out of memory");
  verify_diff(p[0], p[1], r);
  char name[4096];
  snprintf(name, sizeof name, "%s vs %s", p[0], p[1]);
  report_labels labels = {p[0], p[1], NULL};
  if (json) report_json(stdout, name, r, &labels);
  else if (r->outcome == VERIFY_OK)
    printf("%s: the same game (%ld events, %ld decisions)\n", name, r->events, r->decisions);
  else
    report_text(stdout, name, r, &labels);
  int outcome = r->outcome;
  free(r);
  return verify_exit_status(outcome);
}

int main(int argc, char **argv) {
  if (argc < 2) return bad_usage("%s", "missing command");
  const char *cmd = argv[1];
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
    fputs(usage, stdout);
    return 0;
  }
  if (!strcmp(cmd, "--version")) {
    printf("arbiter-replay %s (rules %s, replay format %d)\n", MTG_VERSION, MTG_RULES_EFFECTIVE,
           RLOG_FORMAT_VERSION);
    return 0;
  }
  if (!strcmp(cmd, "check")) return cmd_check(argc - 2, argv + 2, CHECK);
  if (!strcmp(cmd, "rerecord")) return cmd_check(argc - 2, argv + 2, RERECORD);
  if (!strcmp(cmd, "impact")) return cmd_check(argc - 2, argv + 2, IMPACT);
  if (!strcmp(cmd, "dump")) return cmd_dump(argc - 2, argv + 2);
  if (!strcmp(cmd, "diff")) return cmd_diff(argc - 2, argv + 2);
  return bad_usage("unknown command %s", cmd);
}
