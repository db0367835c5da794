/* selfplay.c - bin/selfplay: plays games between seeded random agents
 * (agent.c) and records each as a replay. A game is a pure function of the
 * run's seed and its number, so the files are the same for the same seed
 * whatever the thread count. Engine failures met on the way (errors,
 * invariant violations, answers all refused, games that never end) end that
 * game, are reported with what reproduces them, and make the exit status 1. */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "agent.h"
#include "cli.h"
#include "decks.h"
#include "match.h"
#include "mtg_private.h"
#include "paths.h"
#include "parallel.h"
#include "replaylog.h"

#define MAX_DECKS 64
/* Refused answers are rare (the agent proposes declarations of a legal
 * shape; 10,000 games of the bundled decks refused 416 answers in all, but one
 * long game with combat requirements and trample refused 201): a game that
 * keeps refusing answers is an engine problem. */
#define MAX_REFUSALS 1000

static const char usage[] =
    "usage: selfplay --games N --seed S --out DIR [--deck FILE ...] [-j N]\n"
    "                [--max-turns T] [--max-decisions D] [--check] [--cards DIR]\n"
    "                [--first K] [--format-version V]\n"
    "       selfplay --help | --version\n"
    "\n"
    "Plays N games between random agents (each picks uniformly among the legal\n"
    "options, seeded per game from S and the game number) and writes one replay per\n"
    "game, DIR/game-0001.rpl.gz and so on. The same seed gives the same files, with\n"
    "any -j.\n"
    "  --deck FILE       a deck (YAML list of card names); repeat for more. Each game\n"
    "                    draws two decks from the list. Default: replays/decks/*.yaml\n"
    "                    in a source tree, else the installed decks\n"
    "  -j N              play N games at a time (default: the number of processors)\n"
    "  --max-turns T     stop a game after turn T (default 30)\n"
    "  --max-decisions D give up on a game after D decisions (default 100000)\n"
    "  --check           run the engine's invariant checker after every decision\n"
    "  --cards DIR       card pool directory (default: $ARBITER_CARDS, else engine/cards\n"
    "                    in a source tree, else the installed pool)\n"
    "  --first K         number the games from K (default 1): plays games K..K+N-1,\n"
    "                    the same games a longer run from 1 plays\n"
    "  --format-version V  write replay format version V (default: the current one;\n"
    "                    1 is for the frozen samples of replays/compat/)\n"
    "\n"
    "exit status: 0 all games played cleanly, 1 an engine problem in some game\n"
    "(reported on stderr; the game's replay ends where it stopped), 2 bad usage or\n"
    "input, or a file that could not be written.\n";

typedef struct selfplay {
  const mtg_pool *pool;
  deck decks[MAX_DECKS];
  int ndecks;
  uint64_t seed;
  const char *out;
  long games, first, max_turns, max_decisions;
  int check;
  long version;       /* replay format version written (0: the current one) */
  /* totals, kept by the caller thread */
  long events, decisions, turns, refusals;
  int problems, io_errors, over, stopped;
  /* game handles between games, at most one per thread: each game starts in
   * the memory of an earlier one (mtg_game_renew), none is allocated anew */
  pthread_mutex_t lock;
  mtg_game *spare[256];
  int nspare;
  /* the recording's buffers and compressor, likewise (rlog_scratch) */
  rlog_scratch *scratch[256];
  int nscratch;
} selfplay;

typedef struct game_result {
  match_result m;
  int over, stopped, turns;
  long events;
  char where[256]; /* which game, for the problem report */
} game_result;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void say(game_result *r, const char *fmt, ...) {
  size_t u = strlen(r->m.text);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->m.text + u, sizeof r->m.text - u, fmt, ap);
  va_end(ap);
}

/* The setup of game `number`: two players with decks drawn by the agent. */
static mtg_setup *game_setup(selfplay *sp, agent *a, long number, game_result *r, uint64_t *seed_out, char *origin,
                              size_t size) {
  const deck *d0 = &sp->decks[agent_below(a, sp->ndecks)], *d1 = &sp->decks[agent_below(a, sp->ndecks)];
  uint64_t seed = *seed_out = agent_next(a);
  snprintf(origin, size, "selfplay seed=%" PRIu64 " game=%ld decks=%s,%s", sp->seed, number, d0->name, d1->name);
  snprintf(r->where, sizeof r->where, "game %ld of seed %" PRIu64 ", %s vs %s", number, sp->seed, d0->name, d1->name);
  mtg_setup *s = mtg_setup_new(sp->pool);
  mtg_error err;
  if (!s) {
    r->m.io_error = 1;
    say(r, "out of memory\n");
    return NULL;
  }
  mtg_setup_player(s, "alice", 20, 0);
  mtg_setup_player(s, "bob", 20, 0);
  mtg_setup_seed(s, seed);
  mtg_setup_max_turns(s, (int)sp->max_turns);
  if (deck_to_setup(d0, s, 0, &err) || deck_to_setup(d1, s, 1, &err)) {
    char msg[2048];
    mtg_error_format(&err, msg, sizeof msg);
    r->m.problem = 1;
    say(r, "the engine refuses the decks: %s\n", msg);
    mtg_setup_free(s);
    return NULL;
  }
  return s;
}

static void *game_job(void *ctx, int i) {
  selfplay *sp = ctx;
  game_result *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  long number = sp->first + i;
  agent a;
  agent_seed(&a, agent_mix(sp->seed ^ agent_mix((uint64_t)number)));
  char path[4096], origin[512], msg[2048];
  snprintf(path, sizeof path, "%s/game-%04ld.rpl.gz", sp->out, number);
  uint64_t seed;
  mtg_setup *s = game_setup(sp, &a, number, r, &seed, origin, sizeof origin);
  if (!s) return r;
  mtg_error err;
  int len = mtg_setup_write(s, NULL, 0);
  char *text = malloc((size_t)len + 1);
  rlog_writer *w = NULL;
  pthread_mutex_lock(&sp->lock);
  rlog_scratch *sc = sp->nscratch ? sp->scratch[--sp->nscratch] : NULL;
  pthread_mutex_unlock(&sp->lock);
  if (!sc) sc = rlog_scratch_new(); /* NULL: the writer allocates its own */
  if (!text) {
    r->m.io_error = 1;
    say(r, "out of memory\n");
  } else {
    mtg_setup_write(s, text, (size_t)len + 1);
    rlog_header h = {.setup_text = text, .pool = sp->pool, .origin = origin, .seed = seed, .version = sp->version,
                     .level = RLOG_SELFPLAY_LEVEL, .scratch = sc};
    if (rlog_writer_open(&w, path, &h, &err)) {
      mtg_error_format(&err, msg, sizeof msg);
      r->m.io_error = 1;
      say(r, "%s\n", msg);
    }
  }
  if (w) {
    match_opts o = {.max_decisions = sp->max_decisions, .max_refusals = MAX_REFUSALS, .check = sp->check};
    pthread_mutex_lock(&sp->lock);
    mtg_game *g = sp->nspare ? sp->spare[--sp->nspare] : NULL;
    pthread_mutex_unlock(&sp->lock);
    g = match_play(g, s, &a, w, &o, &r->m);
    int failed = r->m.problem || r->m.io_error;
    if (g && !failed) {
      mtg_result res;
      mtg_game_result(g, &res);
      r->over = res.over && !res.stopped;
      r->stopped = res.stopped;
      r->turns = mtg_game_turn(g);
      r->events = mtg_log_total(g);
    }
    /* a game stopped by a problem ends where its replay was last synced */
    if (rlog_writer_close(w, failed ? NULL : g, &err)) {
      mtg_error_format(&err, msg, sizeof msg);
      r->m.io_error = 1;
      say(r, "cannot write the replay: %s\n", msg);
    }
    pthread_mutex_lock(&sp->lock);
    if (g && sp->nspare < (int)(sizeof sp->spare / sizeof *sp->spare)) sp->spare[sp->nspare++] = g, g = NULL;
    pthread_mutex_unlock(&sp->lock);
    mtg_game_free(g);
  }
  pthread_mutex_lock(&sp->lock);
  if (sc && sp->nscratch < (int)(sizeof sp->scratch / sizeof *sp->scratch)) sp->scratch[sp->nscratch++] = sc, sc = NULL;
  pthread_mutex_unlock(&sp->lock);
  rlog_scratch_free(sc);
  if (r->m.problem)
    say(r, "  to reproduce: the replay holds the setup and every decision before the failing one "
           "(bin/replay dump %s)\n", path);
  free(text);
  mtg_setup_free(s);
  return r;
}

static void game_done(void *ctx, int i, void *result) {
  selfplay *sp = ctx;
  game_result *r = result;
  if (!r) {
    fprintf(stderr, "selfplay: game %ld: out of memory\n", sp->first + i);
    sp->io_errors++;
    return;
  }
  if (r->m.problem || r->m.io_error) fprintf(stderr, "%s/game-%04ld.rpl.gz (%s): %s", sp->out, sp->first + i, r->where, r->m.text);
  sp->problems += r->m.problem;
  sp->io_errors += r->m.io_error;
  sp->over += r->over;
  sp->stopped += r->stopped;
  sp->events += r->events;
  sp->decisions += r->m.decisions;
  sp->refusals += r->m.refusals;
  sp->turns += r->turns;
  free(r);
}

static int make_dirs(const char *path) {
  char p[4096];
  if (!*path || strlen(path) >= sizeof p) {
    errno = *path ? ENAMETOOLONG : ENOENT;
    return -1;
  }
  snprintf(p, sizeof p, "%s", path);
  for (char *s = p + 1;; s++) {
    if (*s == '/' || !*s) {
      char c = *s;
      *s = 0;
      if (mkdir(p, 0777) && errno != EEXIST) return -1;
      if (!c) return 0;
      *s = c;
    }
  }
}

static int load_decks(selfplay *sp, char **files, int n, mtg_error *err) {
  for (int i = 0; i < n; i++) {
    if (sp->ndecks == MAX_DECKS) {
      mtg_error_set(err, MTG_ELIMIT, "more than %d decks", MAX_DECKS);
      return -1;
    }
    if (deck_load(&sp->decks[sp->ndecks], sp->pool, files[i], err)) return -1;
    sp->ndecks++;
  }
  return 0;
}

static int fail(const char *msg) {
  fprintf(stderr, "selfplay: %s\n", msg);
  return 2;
}

int main(int argc, char **argv) {
  selfplay sp = {.games = -1, .first = 1, .max_turns = 30, .max_decisions = 100000, .lock = PTHREAD_MUTEX_INITIALIZER};
  long jobs = par_cpus();
  int have_seed = 0, ndeckargs = 0;
  const char *cards = NULL; /* paths_cards: --cards, $ARBITER_CARDS, the tree's or the installed pool */
  char **deckargs = calloc((size_t)argc + 1, sizeof *deckargs);
  if (!deckargs) return fail("out of memory");
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(usage, stdout);
      free(deckargs);
      return 0;
    }
    if (!strcmp(a, "--version")) {
      printf("arbiter-selfplay %s (rules %s, replay format %d)\n", MTG_VERSION, MTG_RULES_EFFECTIVE,
             RLOG_FORMAT_VERSION);
      free(deckargs);
      return 0;
    }
    if (!strcmp(a, "--check")) {
      sp.check = 1;
      continue;
    }
    if (!strncmp(a, "-j", 2) && a[2]) { /* -jN */
      if (cli_long(a + 2, 1, 256, &jobs)) {
        free(deckargs);
        fprintf(stderr, "selfplay: bad value for -j: %s\n", a + 2);
        return 2;
      }
      continue;
    }
    if (!v) {
      free(deckargs);
      fprintf(stderr, "selfplay: %s %s\n%s", a, a[0] == '-' ? "needs a value (or is unknown)" : "is not an option", usage);
      return 2;
    }
    i++;
    int bad = 0;
    if (!strcmp(a, "--games")) bad = cli_long(v, 0, 100000000, &sp.games);
    else if (!strcmp(a, "--seed")) bad = cli_u64(v, &sp.seed), have_seed = 1;
    else if (!strcmp(a, "--first")) bad = cli_long(v, 1, 1000000000, &sp.first);
    else if (!strcmp(a, "--out")) sp.out = v;
    else if (!strcmp(a, "--deck")) deckargs[ndeckargs++] = argv[i];
    else if (!strcmp(a, "-j")) bad = cli_long(v, 1, 256, &jobs);
    else if (!strcmp(a, "--max-turns")) bad = cli_long(v, 1, 100000, &sp.max_turns);
    else if (!strcmp(a, "--max-decisions")) bad = cli_long(v, 1, 1000000000, &sp.max_decisions);
    else if (!strcmp(a, "--cards")) cards = v;
    else if (!strcmp(a, "--format-version")) bad = cli_long(v, 1, RLOG_FORMAT_VERSION, &sp.version);
    else {
      free(deckargs);
      fprintf(stderr, "selfplay: unknown option %s\n%s", a, usage);
      return 2;
    }
    if (bad) {
      free(deckargs);
      fprintf(stderr, "selfplay: bad value for %s: %s\n", a, v);
      return 2;
    }
  }
  if (sp.games < 0 || !have_seed || !sp.out) {
    free(deckargs);
    fprintf(stderr, "selfplay: --games, --seed and --out are required\n%s", usage);
    return 2;
  }

  mtg_pool *pool = NULL;
  mtg_error err;
  cli_files defaults = {0};
  int rc = 2;
  char msg[2048];
  cards = paths_cards(cards);
  if (mtg_pool_new(&pool, NULL) || mtg_pool_load_dir(pool, cards, &err)) {
    mtg_error_format(&err, msg, sizeof msg);
    fprintf(stderr, "selfplay: cannot load the card pool from %s: %s\n", cards, msg);
    goto out;
  }
  sp.pool = pool;
  if (!ndeckargs) {
    char *dir = (char *)paths_decks();
    if (cli_files_collect(&defaults, &dir, 1, ".yaml", "selfplay")) goto out;
    if (load_decks(&sp, defaults.path, defaults.n, &err)) goto bad_deck;
  } else if (load_decks(&sp, deckargs, ndeckargs, &err))
    goto bad_deck;
  if (!sp.ndecks) {
    fail("no decks: give --deck FILE (the default decks are replays/decks in a source tree, else the installed ones)");
    goto out;
  }
  if (make_dirs(sp.out)) {
    fprintf(stderr, "selfplay: cannot create %s: %s\n", sp.out, strerror(errno));
    goto out;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  if (par_run((int)sp.games, (int)jobs, game_job, game_done, NULL, &sp)) {
    fail("cannot start threads");
    goto out;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
  printf("%ld games in %.2f s (%.0f games/s, %ld thread%s): %d ended by the rules, %d stopped at turn %ld; "
         "%ld turns, %ld events, %ld decisions, %ld answers refused; %d with engine problems\n",
         sp.games, secs, secs > 0 ? (double)sp.games / secs : 0.0, jobs, jobs == 1 ? "" : "s", sp.over, sp.stopped,
         sp.max_turns, sp.turns, sp.events, sp.decisions, sp.refusals, sp.problems);
  rc = sp.io_errors ? 2 : sp.problems ? 1 : 0;
  goto out;
bad_deck:
  mtg_error_format(&err, msg, sizeof msg);
  fprintf(stderr, "selfplay: %s\n", msg);
out:
  for (int i = 0; i < sp.ndecks; i++) deck_free(&sp.decks[i]);
  for (int i = 0; i < sp.nspare; i++) mtg_game_free(sp.spare[i]);
  for (int i = 0; i < sp.nscratch; i++) rlog_scratch_free(sp.scratch[i]);
  cli_files_free(&defaults);
  mtg_pool_free(pool);
  free(deckargs);
  return rc;
}
