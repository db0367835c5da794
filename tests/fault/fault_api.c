/* fault_api.c - failing allocations and reads looped over the public API.
 *
 * For each task (load the card pool, load inline cards, build and write and
 * read a setup, start games, answer decisions, read a card file, read a
 * replay with the replay tools' reader when the tree has it), the task
 * first runs clean to count its allocations A; then for N = 1..A (or a
 * spread sample of them, for large A) the Nth allocation fails, once
 * (transient) and from then on (persistent). Each run
 * must return an error status (MTG_ENOMEM for allocations, a negative status
 * for reads) or absorb the failure and succeed, must leave no block
 * allocated once its objects are freed, and must not crash (the sanitizer
 * build catches memory errors on the failure paths). An error must say what
 * failed: where the API has a channel for the message (an mtg_error,
 * mtg_setup_error), its status must be the one returned and its text must
 * name the failure ("out of memory"; a failed read: strerror(EIO)). A decision answered
 * while memory fails must leave the game at the same decision, and the same
 * answer must then succeed and give the state a clean run gives.
 *
 * usage: fault-api [-v] [TASK...]   (run from the top of the tree) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fault.h"
#include "mtg.h"
#include "play.h"

static int verbose;
static int passed, failed;

typedef struct task {
  const char *name;
  /* runs the task once, freeing all it made; returns 0 on success, the
   * negative status it failed with, or 1 with why filled when it misbehaved */
  int (*run)(void *ctx, char *why, size_t n);
  void *ctx;
  int want;   /* the status a failure must be reported with (0: any negative) */
  int reads;  /* inject read failures instead of allocation failures */
  const char *known; /* a known engine issue with the reported status, or NULL */
} task;

/* The error a run failed with, as its task reports it (said()): the status
 * and the message the API gave, or none where the call has no channel for
 * one (mtg_pool_new, mtg_setup_new). */
static struct {
  int set, status;
  char msg[1024];
} said_err;

static int said(int rc, int status, const char *msg) {
  said_err.set = msg != NULL;
  said_err.status = status;
  snprintf(said_err.msg, sizeof said_err.msg, "%s", msg ? msg : "");
  return rc;
}

/* what an injected failure's message must contain */
static const char *failure_text(int reads) { return reads ? strerror(EIO) : "out of memory"; }

/* 0 when the error of a run that failed with rc under an injected failure
 * has rc for status and names the failure; else 1 with why filled */
static int check_said(int rc, int reads, char *why, size_t n) {
  if (!said_err.set) return 0;
  const char *want = failure_text(reads);
  if (said_err.status != rc) {
    snprintf(why, n, "returned %d but the error says %d ('%s')", rc, said_err.status, said_err.msg);
    return 1;
  }
  if (!strstr(said_err.msg, want)) {
    snprintf(why, n, "the message '%s' does not say '%s'", said_err.msg, want);
    return 1;
  }
  return 0;
}

static int skipped;

/* Every failure point of a small task; for a large one (loading the whole
 * card pool makes thousands of allocations) the first 150, then 150 more
 * spread evenly up to the last, so that the loop stays quadratic-free. */
#define DENSE 150
static long next_k(long k, long total) {
  if (total <= 2 * DENSE || k < DENSE) return k + 1;
  long stride = (total - DENSE) / DENSE;
  if (stride < 1) stride = 1;
  if (k < total && k + stride > total) return total;
  return k + stride;
}

static int loop(const task *t) {
  char why[2048] = "";
  long base = fault_live();
  fault_reset();
  int rc = t->run(t->ctx, why, sizeof why);
  long total = t->reads ? fault_reads() : fault_allocs();
  if (rc != 0 || fault_live() != base) {
    printf("FAIL %s: clean run returned %d (%s), %ld blocks left\n", t->name, rc, why, fault_live() - base);
    return -1;
  }
  long runs = 0, errors = 0, absorbed = 0, misreported = 0, first_mis = 0;
  int mis_status = 0;
  for (int persistent = 0; persistent < 2; persistent++)
    for (long k = 1; k <= total; k = next_k(k, total)) {
      fault_reset();
      if (t->reads) fault_read(k, persistent);
      else fault_alloc(k, persistent);
      why[0] = 0;
      said_err.set = 0;
      rc = t->run(t->ctx, why, sizeof why);
      long inj = fault_failed();
      fault_reset();
      runs++;
      const char *bad = NULL;
      char msg[2300];
      if (rc == 1) bad = why;
      else if (rc < 0 && !inj) bad = "an error without an injected failure";
      else if (rc < 0 && check_said(rc, t->reads, msg, sizeof msg)) bad = msg;
      else if (fault_live() != base) {
        snprintf(msg, sizeof msg, "%ld blocks leaked (status %d)", fault_live() - base, rc);
        bad = msg;
      } else if (rc < 0 && t->want && rc != t->want) {
        if (!misreported++) first_mis = k, mis_status = rc;
        if (!t->known) {
          snprintf(msg, sizeof msg, "status %d, want %d (%s)", rc, t->want, why);
          bad = msg;
        }
      }
      if (bad) {
        printf("FAIL %s: %s failure %s #%ld: %s\n", t->name, persistent ? "persistent" : "transient",
               t->reads ? "read" : "allocation", k, bad);
        return -1;
      }
      if (rc < 0) errors++;
      else if (inj) absorbed++;
      if (verbose) printf("     %s %s #%ld: %d\n", t->name, persistent ? "persistent" : "transient", k, rc);
    }
  printf("ok   %s: %ld %s, %ld failing runs: %ld reported an error, %ld absorbed the failure\n", t->name, total,
         t->reads ? "reads" : "allocations", runs, errors, absorbed);
  if (misreported) {
    skipped++;
    printf("SKIP known engine issue: %s: %ld failures reported as status %d instead of %d (first: allocation #%ld): %s\n",
           t->name, misreported, mis_status, t->want, first_mis, t->known);
  } else if (t->known) {
    printf("     %s: the known issue is fixed (%s): drop the mark in tests/fault/fault_api.c\n", t->name, t->known);
  }
  return 0;
}

/* ---- tasks ---- */

static int t_pool_dir(void *ctx, char *why, size_t n) {
  (void)ctx;
  mtg_pool *p = NULL;
  mtg_error e;
  int rc = mtg_pool_new(&p, NULL);
  if (rc == 0) rc = mtg_pool_load_dir(p, "engine/cards", &e);
  if (rc < 0) snprintf(why, n, "%s", p ? e.msg : "mtg_pool_new"), said(rc, p ? e.status : rc, p ? e.msg : NULL);
  mtg_pool_free(p);
  return rc;
}

static int t_pool_file(void *ctx, char *why, size_t n) {
  (void)ctx;
  mtg_pool *p = NULL;
  mtg_error e;
  int rc = mtg_pool_new(&p, NULL);
  if (rc == 0) rc = mtg_pool_load_file(p, "engine/cards/staples.yaml", &e);
  if (rc < 0) snprintf(why, n, "%s", p ? e.msg : "mtg_pool_new"), said(rc, p ? e.status : rc, p ? e.msg : NULL);
  mtg_pool_free(p);
  return rc;
}

static const char inline_cards[] =
    "- name: Fault Bear\n  cost: \"{1}{G}\"\n  type: Creature — Bear\n  pt: 2/2\n"
    "- name: Fault Wall\n  cost: \"{W}\"\n  type: Creature — Wall\n  pt: 0/4\n  keywords: [defender]\n"
    "- name: Fault Spark\n  cost: \"{R}\"\n  type: Instant\n  spell:\n    targets: [any_target]\n"
    "    effect: [{damage: 1, to: target}]\n";

static int t_child_pool(void *ctx, char *why, size_t n) {
  const mtg_pool *parent = ctx;
  mtg_pool *p = NULL;
  mtg_error e;
  int rc = mtg_pool_new(&p, parent);
  if (rc == 0) rc = mtg_pool_load_buffer(p, "inline.yaml", inline_cards, sizeof inline_cards - 1, &e);
  if (rc == 0 && !mtg_pool_has(p, "Fault Spark")) snprintf(why, n, "loaded without its cards"), rc = 1;
  else if (rc < 0) snprintf(why, n, "%s", p ? e.msg : "mtg_pool_new"), said(rc, p ? e.status : rc, p ? e.msg : NULL);
  mtg_pool_free(p);
  return rc;
}

static int t_setup(void *ctx, char *why, size_t n) {
  const mtg_pool *pool = ctx;
  mtg_error e;
  mtg_setup *s = mtg_setup_new(pool), *back = NULL;
  if (!s) return MTG_ENOMEM;
  int rc = 0;
  if ((rc = mtg_setup_player(s, "alice", 20, 0)) >= 0 && (rc = mtg_setup_player(s, "bob", 20, 0)) >= 0) {
    rc = 0;
    static const char *const cards[] = {"Forest", "Grizzly Bears", "Lightning Bolt", "Mountain", "Soul Warden"};
    for (int i = 0; i < 40 && rc >= 0; i++) rc = mtg_setup_card(s, i % 2, i % 3 ? MTG_Z_LIBRARY : MTG_Z_HAND, cards[i % 5], &e);
    if (rc >= 0) rc = mtg_setup_card(s, 0, MTG_Z_BATTLEFIELD, "Grizzly Bears", &e);
    if (rc < 0) said(rc, e.status, e.msg);
    if (rc >= 0) {
      int entry = rc;
      rc = mtg_setup_counters(s, entry, "+1/+1", 2);
      if (rc >= 0) rc = mtg_setup_player_counters(s, 1, "poison", 1);
      /* an attachment: the reader keeps it until every card is read */
      int aura = rc >= 0 ? mtg_setup_card(s, 1, MTG_Z_BATTLEFIELD, "Pacifism", &e) : rc;
      if (aura < 0) rc = aura, said(rc, e.status, e.msg);
      else rc = mtg_setup_attach(s, aura, entry);
    }
  }
  /* the setters without an mtg_error say why in mtg_setup_error */
  if (rc < 0 && !said_err.set) said(rc, rc, mtg_setup_error(s));
  else if (rc < 0 && !strstr(mtg_setup_error(s), said_err.msg))
    snprintf(why, n, "mtg_setup_card said '%s', mtg_setup_error '%s'", said_err.msg, mtg_setup_error(s)), rc = 1;
  char *text = NULL, *again = NULL;
  if (rc >= 0) {
    int need = mtg_setup_write(s, NULL, 0);
    if (need < 0) rc = need;
    else if (!(text = malloc((size_t)need + 1))) rc = MTG_ENOMEM; /* the test's own: no message */
    else mtg_setup_write(s, text, (size_t)need + 1);
  }
  if (rc >= 0) {
    rc = mtg_setup_read(pool, "setup.txt", text, &back, &e);
    if (rc < 0 && back) snprintf(why, n, "mtg_setup_read failed (%d) but set *out", rc), rc = 1;
    else if (rc < 0) said(rc, e.status, e.msg);
  }
  /* a setup read back writes the same text */
  if (rc >= 0) {
    int need = mtg_setup_write(back, NULL, 0);
    if (need >= 0 && (again = malloc((size_t)need + 1))) {
      mtg_setup_write(back, again, (size_t)need + 1);
      if (strcmp(text, again)) snprintf(why, n, "the setup read back writes another text"), rc = 1;
    } else if (need >= 0) {
      rc = MTG_ENOMEM;
    }
  }
  if (rc > 0 && rc != 1) rc = 0;
  free(again);
  free(text);
  mtg_setup_free(back);
  mtg_setup_free(s);
  return rc;
}

typedef struct game_ctx {
  const mtg_pool *pool;
  mtg_setup *setup;
} game_ctx;

static int t_game_new(void *ctx, char *why, size_t n) {
  game_ctx *c = ctx;
  mtg_game *g = (mtg_game *)&g; /* must be set to NULL on failure */
  mtg_error e;
  int rc = mtg_game_new(&g, c->setup, &e);
  if (rc < 0) {
    if (g) {
      snprintf(why, n, "mtg_game_new failed (%d) but set *out", rc);
      return 1;
    }
    return said(rc, e.status, e.msg);
  }
  char w[512];
  if (mtg_game_check(g, w, sizeof w) && !strstr(w, "out of memory")) {
    snprintf(why, n, "invariant after mtg_game_new: %s", w);
    rc = 1;
  } else {
    rc = 0;
  }
  mtg_game_free(g);
  return rc;
}

/* a game started in the handle of another: on failure the handle is freed
 * and *g set to NULL */
static int t_game_renew(void *ctx, char *why, size_t n) {
  game_ctx *c = ctx;
  mtg_game *g = NULL;
  mtg_error e;
  int rc = mtg_game_new(&g, c[0].setup, &e);
  if (rc < 0) return said(rc, e.status, e.msg);
  for (int i = 0; i < 5 && mtg_game_status(g) == MTG_DECISION; i++) {
    const mtg_decision *d = mtg_game_decision(g);
    int v[1] = {0};
    mtg_answer a = {d->kind == MTG_D_ATTACKERS || d->kind == MTG_D_BLOCKERS ? 0 : 1, v};
    int drc = mtg_game_decide(g, &a, &e);
    if (drc == MTG_ENOMEM && (e.status != drc || !strstr(e.msg, "out of memory"))) {
      snprintf(why, n, "mtg_game_decide returned %d, its error says %d '%.900s'", drc, e.status, e.msg);
      mtg_game_free(g);
      return 1;
    }
    if (drc < 0) break;
  }
  rc = mtg_game_renew(&g, c[1].setup, &e);
  if (rc < 0) {
    if (g) {
      snprintf(why, n, "mtg_game_renew failed (%d) but left *g", rc);
      mtg_game_free(g);
      return 1;
    }
    return said(rc, e.status, e.msg);
  }
  char w[512];
  rc = 0;
  if (mtg_game_check(g, w, sizeof w) && !strstr(w, "out of memory")) {
    snprintf(why, n, "invariant after mtg_game_renew: %s", w);
    rc = 1;
  }
  mtg_game_free(g);
  return rc;
}

/* ---- the replay reader (tools/replaylog.h), when the tree has it ---- */
#ifdef FAULT_RLOG
#include "replaylog.h"

static int t_replay_read(void *ctx, char *why, size_t n) {
  const char *path = ctx;
  rlog_reader *r = NULL;
  mtg_error e;
  memset(&e, 0, sizeof e);
  int rc = rlog_reader_open(&r, path, &e);
  long records = 0;
  if (rc == 0) {
    rlog_record rec;
    while ((rc = rlog_reader_next(r, &rec, &e)) > 0) records++;
    if (rc == 0) rc = rlog_reader_drain(r, &e);
  }
  if (rc < 0) {
    said(rc, e.status, e.msg);
  } else if (rc == 0 && records == 0) {
    snprintf(why, n, "a replay read without records");
    rc = 1;
  }
  rlog_reader_free(r);
  return rc;
}
#endif

/* ---- decisions under failing allocations ---- */

typedef struct script {
  int *v;     /* answers, concatenated */
  int *off;   /* answer i is v[off[i] .. off[i+1]) */
  uint64_t *hash; /* the state hash after answer i */
  int n;
} script;

/* records a clean random game's accepted answers and the hash after each */
static int record(const mtg_setup *s, uint64_t seed, int max, script *sc) {
  mtg_game *g;
  mtg_error e;
  if (mtg_game_new(&g, s, &e) < 0) return -1;
  sc->v = malloc(sizeof(int) * 256 * (size_t)max);
  sc->off = malloc(sizeof(int) * ((size_t)max + 1));
  sc->hash = malloc(sizeof(uint64_t) * (size_t)max);
  sc->n = 0;
  if (!sc->v || !sc->off || !sc->hash) return mtg_game_free(g), -1;
  sc->off[0] = 0;
  uint64_t r = seed;
  while (sc->n < max && mtg_game_status(g) == MTG_DECISION) {
    int *v = sc->v + sc->off[sc->n], k = 0, rc = MTG_EILLEGAL;
    for (int attempt = 0; attempt < 6 && rc == MTG_EILLEGAL; attempt++) {
      uint64_t before = mtg_game_hash(g);
      k = play_answer(mtg_game_decision(g), play_rng_next, &r, attempt, v, 256);
      mtg_answer a = {k, v};
      rc = mtg_game_decide(g, &a, &e);
      if (rc == MTG_EILLEGAL && mtg_game_hash(g) != before) break; /* an action taken back: stop here */
    }
    if (rc < 0) break;
    sc->hash[sc->n] = mtg_game_hash(g);
    sc->off[sc->n + 1] = sc->off[sc->n] + k;
    sc->n++;
  }
  mtg_game_free(g);
  return 0;
}

typedef struct decide_ctx {
  const mtg_setup *setup;
  const script *sc;
  int at; /* the answer given under failing allocations */
} decide_ctx;

static int answer(mtg_game *g, const script *sc, int i, mtg_error *e) {
  mtg_answer a = {sc->off[i + 1] - sc->off[i], sc->v + sc->off[i]};
  return mtg_game_decide(g, &a, e);
}

/* plays the recorded answers up to `at`, then answers `at`; the loop arms
 * the failure past the allocations of the clean part, so that only the one
 * mtg_game_decide runs under failures */
static int t_decide(void *ctx, char *why, size_t n) {
  decide_ctx *c = ctx;
  mtg_game *g = NULL;
  mtg_error e;
  int rc = mtg_game_new(&g, c->setup, &e);
  if (rc < 0) return rc;
  for (int i = 0; i < c->at && rc >= 0; i++) rc = answer(g, c->sc, i, &e);
  if (rc < 0) {
    mtg_game_free(g);
    return rc;
  }
  uint64_t h0 = mtg_game_hash(g);
  const mtg_decision *d = mtg_game_decision(g);
  int kind = d ? d->kind : -1, nopt = d ? d->n_options : -1, log = mtg_log_count(g);
  rc = answer(g, c->sc, c->at, &e);
  if (rc == MTG_ENOMEM && (e.status != rc || !strstr(e.msg, "out of memory"))) {
    snprintf(why, n, "answer %d returned %d, its error says %d '%.900s'", c->at, rc, e.status, e.msg);
    mtg_game_free(g);
    return 1;
  }
  if (rc == MTG_ENOMEM) {
    d = mtg_game_decision(g);
    if (mtg_game_hash(g) != h0 || !d || d->kind != kind || d->n_options != nopt || mtg_log_count(g) != log) {
      snprintf(why, n, "decide returned MTG_ENOMEM but the game moved (answer %d)", c->at);
      mtg_game_free(g);
      return 1;
    }
    mtg_game_free(g);
    return MTG_ENOMEM;
  }
  if (rc >= 0 && mtg_game_hash(g) != c->sc->hash[c->at]) {
    snprintf(why, n, "answer %d succeeded under failing allocations but reached another state", c->at);
    rc = 1;
  } else if (rc >= 0) {
    /* a failure absorbed (an index or cache not made) must leave nothing
     * claiming to be valid that is not: the next listing would read it */
    char w[512];
    rc = 0;
    if (mtg_game_check(g, w, sizeof w) && !strstr(w, "out of memory")) {
      snprintf(why, n, "answer %d succeeded under failing allocations but left a broken invariant: %.400s", c->at, w);
      rc = 1;
    }
  }
  mtg_game_free(g);
  return rc;
}

/* Loops failures over the one decide of answer `at`: the game is brought to
 * that decision clean (counting its allocations first), then the failure is
 * armed at (clean allocations + k). */
static int decide_loop(const char *name, const mtg_setup *s, const script *sc, int at, long *runs_out) {
  decide_ctx c = {s, sc, at};
  char why[1024] = "";
  long base = fault_live();
  /* allocations before the decide, and in it */
  fault_reset();
  mtg_game *g = NULL;
  mtg_error e;
  if (mtg_game_new(&g, s, &e) < 0) return -1;
  for (int i = 0; i < at; i++)
    if (answer(g, sc, i, &e) < 0) return mtg_game_free(g), -1;
  long before = fault_allocs();
  if (answer(g, sc, at, &e) < 0) return mtg_game_free(g), -1;
  long during = fault_allocs() - before;
  mtg_game_free(g);
  long runs = 0;
  for (int persistent = 0; persistent < 2; persistent++)
    for (long k = 1; k <= during; k++) {
      fault_reset();
      fault_alloc(before + k, persistent);
      int rc = t_decide(&c, why, sizeof why);
      long inj = fault_failed();
      fault_reset();
      runs++;
      if (rc == 1 || (rc < 0 && rc != MTG_ENOMEM) || (rc < 0 && !inj) || fault_live() != base) {
        printf("FAIL %s: answer %d, %s allocation failure %ld of %ld: status %d, %ld blocks left: %s\n", name, at,
               persistent ? "persistent" : "transient", k, during, rc, fault_live() - base, why);
        return -1;
      }
    }
  *runs_out += runs;
  return 0;
}

/* util/ydoc.c reports running out of memory while parsing as MTG_EDATA */

int main(int argc, char **argv) {
  int first = 1;
  if (argc > 1 && !strcmp(argv[1], "-v")) verbose = 1, first = 2;
  mtg_pool *pool;
  mtg_error e;
  if (mtg_pool_new(&pool, NULL) < 0 || mtg_pool_load_dir(pool, "engine/cards", &e) < 0) {
    printf("FAIL cannot load engine/cards\n0 passed, 1 failed\n");
    return 1;
  }
  game_ctx games[4];
  int ngames = 0;
  for (uint64_t seed = 1; seed <= 3; seed++) {
    games[ngames].pool = pool;
    games[ngames].setup = play_setup(pool, seed, &e);
    if (games[ngames].setup) ngames++;
  }
  task tasks[] = {
      {"pool_load_dir", t_pool_dir, NULL, MTG_ENOMEM, 0, NULL},
      {"pool_load_file_reads", t_pool_file, NULL, MTG_EIO, 1, NULL},
      {"pool_load_dir_reads", t_pool_dir, NULL, MTG_EIO, 1, NULL},
      {"child_pool_inline_cards", t_child_pool, pool, MTG_ENOMEM, 0, NULL},
      {"setup_build_write_read", t_setup, pool, MTG_ENOMEM, 0, NULL},
      {"game_new_seed1", t_game_new, &games[0], MTG_ENOMEM, 0, NULL},
      {"game_new_seed2", t_game_new, &games[1], MTG_ENOMEM, 0, NULL},
      {"game_new_seed3", t_game_new, &games[2], MTG_ENOMEM, 0, NULL},
      {"game_renew", t_game_renew, &games[0], MTG_ENOMEM, 0, NULL},
  };
#ifdef FAULT_RLOG
  /* the first replay of the corpus, if there is one */
  static char replay[4096];
  FILE *pf = popen("find replays -name '*.gz' 2>/dev/null | sort | head -n 1", "r");
  if (pf) {
    if (!fgets(replay, sizeof replay, pf)) replay[0] = 0;
    replay[strcspn(replay, "\n")] = 0;
    pclose(pf);
  }
#endif
  for (size_t i = 0; i < sizeof tasks / sizeof *tasks; i++) {
    int sel = first >= argc;
    for (int a = first; a < argc; a++) sel |= strstr(tasks[i].name, argv[a]) != NULL;
    if (!sel || (tasks[i].run == t_game_new && !((game_ctx *)tasks[i].ctx)->setup)) continue;
    if (tasks[i].run == t_game_renew && (ngames < 2 || !games[0].setup || !games[1].setup)) continue;
    if (loop(&tasks[i])) failed++;
    else passed++;
  }
#ifdef FAULT_RLOG
  if (replay[0]) {
    task rt[] = {{"replay_reader_allocations", t_replay_read, replay, MTG_ENOMEM, 0, NULL},
                 {"replay_reader_reads", t_replay_read, replay, 0, 1, NULL}};
    for (size_t i = 0; i < sizeof rt / sizeof *rt; i++) {
      int sel = first >= argc;
      for (int a = first; a < argc; a++) sel |= strstr(rt[i].name, argv[a]) != NULL;
      if (sel && loop(&rt[i])) failed++;
      else if (sel) passed++;
    }
  } else {
    printf("SKIP replay reader: no replays/*.gz\n");
    skipped++;
  }
#endif
  /* decisions: every answer of the first part of three recorded games */
  int sel = first >= argc;
  for (int a = first; a < argc; a++) sel |= strstr("decide", argv[a]) != NULL;
  for (int gi = 0; gi < ngames && sel; gi++) {
    script sc = {0};
    char name[64];
    snprintf(name, sizeof name, "decide_seed%d", gi + 1);
    if (record(games[gi].setup, 100 + (uint64_t)gi, 120, &sc)) {
      printf("FAIL %s: cannot record a game\n", name);
      failed++;
    } else {
      long runs = 0;
      int ok = 1;
      for (int at = 0; at < sc.n && ok; at++) ok = decide_loop(name, games[gi].setup, &sc, at, &runs) == 0;
      if (ok) {
        printf("ok   %s: %d answers, %ld runs with a failing allocation in mtg_game_decide\n", name, sc.n, runs);
        passed++;
      } else {
        failed++;
      }
    }
    free(sc.v);
    free(sc.off);
    free(sc.hash);
  }
  for (int i = 0; i < ngames; i++) mtg_setup_free(games[i].setup);
  mtg_pool_free(pool);
  if (skipped) printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
  else printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
