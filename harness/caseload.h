/* caseload: the case model and its loading. A case file (YAML, one case per
 * document) is parsed with ydoc and checked completely before its cases run:
 * every key, type, player, card, label and rule number, each error located at
 * file:line:column. A loaded case holds a ready mtg_setup and its script and
 * expectations in plain structs that point into the file's ydoc. Once a
 * file's cases have run, only what a report reads of them is kept, so that
 * memory holds one file's cases per thread, not the whole corpus. */
#ifndef HARNESS_CASELOAD_H
#define HARNESS_CASELOAD_H

#include <limits.h>

#include "mtg.h"
#include "ydoc.h"

#define UNSET INT_MIN /* an integer expectation that was not given */

/* The work budget of a case's game (mtg_setup_work_budget), in log lines:
 * every event and decision. The longest case of the corpus logs about 14000
 * (a 104.4b loop played until it is a draw), a typical one under 200, so this
 * is generous for any real case, and a broken engine that loops inside one
 * action fails its case within a few milliseconds instead of hanging the run.
 * A case's `setup: budget:` sets another. */
#define CASE_WORK_BUDGET 50000

/* ---- actions ---- */

typedef enum {
  /* priority */
  A_CAST, A_ACTIVATE, A_PLAY, A_PASS, A_TURN_FACE_UP, A_FORETELL, A_SUSPEND,
  /* turn-based declarations */
  A_ATTACK, A_BLOCK,
  /* pass priority (and declare nothing) until a step begins, or until the
   * stack is empty (resolve) */
  A_ADVANCE, A_RESOLVE,
  /* state expectations at this point of the script, not an answer */
  A_CHECK,
  /* answers to the other decisions, one per decision kind */
  A_TARGET, A_MODE, A_X, A_NUMBER, A_MAY, A_REPLACEMENT, A_TRIGGER_ORDER, A_ORDER,
  A_CHOOSE, A_PLAYER, A_COLOR, A_NAME, A_WORD, A_DAMAGE, A_COST, A_DIVIDE,
  A_COUNT
} act_kind;

typedef struct hact hact;
struct hact {
  int kind;              /* act_kind */
  const ynode *at;       /* the action's mapping, for messages */
  const char *key;       /* the key naming the action ("cast", "target", ...) */
  int player;            /* index of the deciding player; -1: whoever decides */
  const char *obj;       /* cast/activate/play: card name or label */
  int ability;           /* activate: ability index, -1 if not given */
  int from;              /* cast: zone cast from */
  int face_down;         /* cast: face down (702.37c) */
  const char *face;      /* cast, play: the half or face (709.3, 712.11b, 712.12), by name */
  const char **items;    /* picks; for attack/block pairs (item, item-or-NULL) */
  int nitems;
  int *nums;             /* modes (1-based), x/number, may (1/0), damage amounts */
  int nnums;
  int step, turn;        /* advance: step and turn (0: the next such step) */
  const char *refused;   /* must be refused, with a message containing this */
  hact *sub;             /* answers to the decisions the action brings (targets, modes, x, then) */
  const struct hcase *check; /* check: the case with these state expectations in place of its own */
  int nsub;
};

/* ---- expectations ---- */

typedef struct hpat {    /* an event pattern: field subset of a log line */
  const ynode *at;
  const char *type;      /* first word of the line, or NULL for any */
  const char **keys;
  const ynode **vals;    /* scalar, or a list matched element-wise */
  int nf;
  int times;             /* events: matched this many times in a row; count: exact total */
} hpat;

typedef struct hevx {    /* an item of expect.events */
  const ynode *at;
  int seq;               /* an exact-sequence block: adjacent lines, in order */
  hpat *p;
  int np;
} hevx;

typedef struct hzonex {  /* contents of one zone of one player */
  const ynode *at;
  int player, zone;
  int count;             /* UNSET if not given */
  const char **exact;    /* exact contents (ordered for library and graveyard) */
  int nexact, has_exact;
  const char **incl, **excl;
  int nincl, nexcl;
} hzonex;

typedef struct hcountx {
  const ynode *at;
  const char *kind;
  int n;
} hcountx;

typedef struct hcmdx {    /* commander damage: a player's, from a labelled commander */
  const ynode *at;
  const char *label;
  int card;              /* the label's setup entry = the commander's stable card id */
  int n;
} hcmdx;

typedef struct hplayerx {
  const ynode *at;
  int player;
  int life, poison;      /* UNSET if not given */
  int team, dungeons;    /* UNSET if not given */
  int lost, won;         /* -1 if not given */
  int hand_revealed;     /* -1 if not given */
  hcountx *counters;
  int ncounters;
  hcmdx *cmd;            /* commander_damage */
  int ncmd;
} hplayerx;

typedef struct hobjx {   /* an object, by card name or label */
  const ynode *at;
  const char *ref;
  int zone, owner, controller;                 /* -1 if not given */
  int power, toughness, damage, loyalty;       /* UNSET if not given */
  int tapped, sick, token, attacking, blocking;/* -1 if not given */
  int face_down, protector;                    /* -1 if not given */
  const char *sector, *room;                   /* NULL if not given */
  const char *types;                           /* the type line, NULL if not given */
  const char *attached_to;
  hcountx *counters;
  int ncounters;
} hobjx;

typedef struct hresultx {
  const ynode *at;
  int given;
  int over, draw, stopped;   /* -1 if not given */
  unsigned winners, losers;  /* bit masks */
  int has_winners, has_losers;
} hresultx;

/* ---- the case ---- */

enum { STOP_SETTLE, STOP_NOW, STOP_STEP, STOP_GAME_OVER };

/* The name of a case file read from standard input (the path "-"). */
#define CASE_STDIN "<stdin>"

/* Input errors kept per file; more are counted, not kept. */
#define CASE_MAX_FILE_ERRORS 100

typedef struct hfile {  /* one per case file, for the whole run: pointers first, then ints (no padding) */
  char *path;
  size_t max_size;       /* the file is read only up to this size (0: the default of util/input.h) */
  ydoc *doc;
  const mtg_error *err;  /* kept only for a file that failed */
  /* its cases once checked (on any thread), in document order */
  struct hcase **cases;
  mtg_error *errs;       /* errors found checking them: by case in document order, each case's by line */
  struct arena *arena;   /* what its cases point to */
  struct arena *keep;    /* what is kept of them once released */
  int failed;            /* the file did not parse: err says why */
  int ncases;
  int nerrs, caperrs;
  int nmore;             /* errors past CASE_MAX_FILE_ERRORS */
  int released;          /* cases[] are now the kept heads (corpus_release_file) */
} hfile;

typedef struct hlabel {
  const char *name;      /* the label */
  const char *card;      /* card name of the entry */
  int entry;             /* setup entry index = the engine's stable card id */
  int commander;         /* the entry is its owner's commander (commander: true) */
  const ynode *at;
} hlabel;

typedef struct hcase {
  /* the head: what reports read, kept after the file is released */
  const hfile *file;
  int line;              /* line of the case's first key */
  int id_line, id_col;   /* where its id is written (duplicate-id errors) */
  const char *id, *title, *source, *reason;
  const char **rules;
  int nrules;
  int todo;
  int err0, nerr;        /* its input errors: file->errs[err0 .. err0 + nerr), as far as kept */
  const char *dup_file;  /* an earlier case has the same id: its file (set by corpus_file_errors), else NULL */
  int dup_line;          /* and its line */
  /* the rest: valid until the file is released */
  const ynode *root;
  const ynode **rule_at; /* where each rule number is written */
  mtg_pool *pool;        /* child pool for inline cards, else NULL */
  int pool_borrowed;     /* the pool is an earlier case's of the file (the same cards), freed with it */
  const ynode *cards;    /* the inline `cards:` node */
  uint64_t cards_hash;   /* of its text and shape, for telling a repeat; 0 if its pool is not to be shared */
  mtg_setup *setup;
  const char *players[4];
  int nplayers;
  int start_turn;
  hlabel *labels;
  int nlabels;
  hact *acts;
  int nacts;
  int autopass;
  int stop, stop_step, stop_turn;
  hevx *events;
  int nevents;
  hpat *counts, *absent;
  int ncounts, nabsent;
  hplayerx *px;
  int npx;
  hzonex *zx;
  int nzx;
  hobjx *ox;
  int nox;
  hresultx result;
  int turn_x, step_x, active_x, stack_x; /* UNSET / -1 if not given */
} hcase;

typedef struct hcorpus {
  hfile *files;
  int nfiles;
  struct arena *arena;
} hcorpus;

/* The case ids met so far in a run, each with where it was first used. */
typedef struct hids hids;

/* Loading goes file by file so that parsing can run beside the card pool's
 * loading, files load on several threads, and a file's memory is released
 * once its cases have run. corpus_find lists the case files under the paths
 * (files, or directories searched recursively for *.yaml, skipping the rules
 * index rules.yaml) in sorted order. On any thread, one file at a time:
 * corpus_parse_file parses it, corpus_check_file checks its cases against the
 * pool (returning the number of errors found), corpus_release_file keeps the
 * head of each case and frees the rest. corpus_errors, once every file is
 * loaded, lists the cases in file order in c->cases and writes every error
 * (parse, case, duplicate id; located, with the source line and a caret) to
 * `errs` in file order, and returns their count: 0 when all is well. */
struct buf;
int corpus_find(hcorpus *c, const char *const *paths, int npaths, struct buf *errs);
void corpus_parse_file(hfile *f);
int corpus_check_file(hfile *f, const mtg_pool *pool);
void corpus_release_file(hfile *f);
int corpus_errors(hcorpus *c, struct buf *errs);
void corpus_free(hcorpus *c);
/* For a run that reports file by file: corpus_errors for file i of c, the
 * files before it having been given to the same ids in order (the set is
 * created on first use: *ids NULL); and, once a released file's cases are
 * reported, corpus_drop_file frees what was kept of them. */
int corpus_file_errors(hcorpus *c, int i, hids **ids, struct buf *errs);
void corpus_drop_file(hfile *f);
void hids_free(hids *ids);

/* The error of a case whose id an earlier case uses (hc->dup_file set). */
void case_dup_error(const hcase *hc, mtg_error *e);

/* mtg_error_format, safe for columns past the stored source line. */
void error_format(const mtg_error *e, char *buf, size_t size);
/* Names for messages. */
const char *act_name(int kind);
/* The label of a setup entry, or NULL. */
const hlabel *case_label(const hcase *hc, const char *name);

#endif
