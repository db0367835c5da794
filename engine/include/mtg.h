/* mtg.h - the arbiter rules engine: the whole public API.
 *
 * A game is a pure function of (card pool, setup, seed, decisions). The engine
 * never reads input and contains no AI: whenever a player must choose, it stops
 * with MTG_DECISION and describes the choice and its legal options; the caller
 * answers with mtg_game_decide(). Everything that happens is recorded as
 * canonical text lines in the game's log (see docs/events.md).
 *
 * Ownership: objects made by *_new are released by the matching *_free.
 * Strings returned by query functions belong to the game or pool and stay valid
 * until the next call that changes it. All functions are reentrant; distinct
 * games may run in distinct threads (a pool may be shared read-only).
 *
 * Status codes: 0 is success, positive values are normal outcomes, negative
 * values are errors. Errors fill a caller-owned mtg_error.
 *
 * Misuse is never a crash: given NULL where an object, name or output is
 * needed, or an index out of its range, a function that returns a status
 * returns MTG_EARG (saying why in its mtg_error, or for a setup in
 * mtg_setup_error()); a query of a count or number returns MTG_EARG, a
 * lookup -1 ("unknown"), a string or object query NULL, a hash 0, a check -1
 * with the reason, and a function returning nothing does nothing. */
#ifndef MTG_H
#define MTG_H

#include <stddef.h>
#include <stdint.h>

/* The one version of arbiter: library, programs, pkg-config and the engine
 * field of replays (SemVer; CHANGELOG.md says what each version changed). */
#define MTG_VERSION "0.2.0"
#define MTG_RULES_EFFECTIVE "2025-09-19" /* Comprehensive Rules the engine follows */

/* The range of every number the rules count (life, damage, counters, turns,
 * mana, X, power and toughness, the values of card expressions): |n| <=
 * MTG_NUM_MAX = 2^31 - 1. Arithmetic on them is done in 64 bits and saturates
 * at these bounds (life can grow very large, but not wrap); a number outside
 * them in input (a card file, a setup, a case) is an input error. */
#define MTG_NUM_MAX 2147483647

enum {
  MTG_OK = 0,
  MTG_DECISION = 1, /* the game waits for a decision: see mtg_game_decision() */
  MTG_OVER = 2,     /* the game has ended: see mtg_game_result() */
  MTG_EARG = -1,    /* misuse of the API */
  MTG_ENOMEM = -2,  /* out of memory; the game is unchanged */
  MTG_EDATA = -3,   /* malformed card definition or impossible setup */
  MTG_EILLEGAL = -4,/* an answer or action the rules do not allow; nothing changed */
  MTG_ELIMIT = -5,  /* an engine capacity was exceeded */
  MTG_EIO = -6,     /* a file could not be read */
  MTG_EINTERNAL = -7
};

typedef struct mtg_error {
  int status;
  char file[256];
  int line, col;    /* 1-based; 0 when not applicable */
  char msg[1024];
  char source[256]; /* the offending source line, shown with a caret */
} mtg_error;

/* "file:line:col: message" followed, when known, by the source line and a caret. */
void mtg_error_format(const mtg_error *e, char *buf, size_t size);

/* The version of the library in use (MTG_VERSION of the build it comes from),
 * which a program compiled against another header can compare with MTG_VERSION. */
const char *mtg_version(void);

/* ---- Names shared by the API, the log and the card format ---- */

typedef enum {
  MTG_Z_LIBRARY, MTG_Z_HAND, MTG_Z_BATTLEFIELD, MTG_Z_GRAVEYARD,
  MTG_Z_STACK, MTG_Z_EXILE, MTG_Z_COMMAND, MTG_Z_ANTE, MTG_Z_COUNT
} mtg_zone;

typedef enum {
  MTG_S_UNTAP, MTG_S_UPKEEP, MTG_S_DRAW, MTG_S_MAIN1, MTG_S_BEGIN_COMBAT,
  MTG_S_DECLARE_ATTACKERS, MTG_S_DECLARE_BLOCKERS, MTG_S_COMBAT_DAMAGE,
  MTG_S_END_COMBAT, MTG_S_MAIN2, MTG_S_END, MTG_S_CLEANUP, MTG_S_COUNT
} mtg_step;

const char *mtg_zone_name(int zone);     /* "battlefield" */
int mtg_zone_parse(const char *name);    /* -1 if unknown */
const char *mtg_step_name(int step);     /* "declare_attackers" */
int mtg_step_parse(const char *name);    /* -1 if unknown */

/* ---- Card pool ---- */

typedef struct mtg_pool mtg_pool;
/* A child pool sees its own cards first, then its parent's (the parent must
 * outlive it). Used for cards defined inline by a test case. */
int mtg_pool_new(mtg_pool **out, const mtg_pool *parent);
void mtg_pool_free(mtg_pool *p);
int mtg_pool_load_file(mtg_pool *p, const char *path, mtg_error *err);
/* *.yaml under dir and its subdirectories (links to directories not followed),
 * in sorted path order; only regular files are read. */
int mtg_pool_load_dir(mtg_pool *p, const char *dir, mtg_error *err);
/* Files read by mtg_pool_load_file and _dir: at most `bytes` each (default
 * 16 MiB); a larger one is refused with MTG_ELIMIT. */
int mtg_pool_max_file_size(mtg_pool *p, size_t bytes, mtg_error *err);
int mtg_pool_load_buffer(mtg_pool *p, const char *name, const char *text, size_t len,
                         mtg_error *err);
int mtg_pool_count(const mtg_pool *p);          /* own cards only */
const char *mtg_pool_name(const mtg_pool *p, int i);
int mtg_pool_has(const mtg_pool *p, const char *name);
/* Whether a card of the pool (or its parents) creates tokens with this name. */
int mtg_pool_has_token(const mtg_pool *p, const char *name);
/* Writes up to three nearest card names (", "-separated) into buf. */
void mtg_pool_suggest(const mtg_pool *p, const char *name, char *buf, size_t size);
/* Hash of the pool's definitions (parent included): replays record it. */
uint64_t mtg_pool_hash(const mtg_pool *p);
/* The definition of card `name` as p sees it (its own cards first, then its
 * parents'): the YAML text of a one-item list, written back in one canonical
 * block layout (the same definition gives the same text, whatever the layout
 * it was read from; it loads back as the same card). The text belongs to the
 * pool that defines the card (the same pointer seen from p or its parent);
 * NULL if p has no such card. Replays carry these texts. */
const char *mtg_pool_card_text(const mtg_pool *p, const char *name);
/* The name of the card p finds by `name` as its definition names it: the
 * front face's for a modal double-faced card found by its back face (712.8a);
 * NULL if p has no such card. */
const char *mtg_pool_card_name(const mtg_pool *p, const char *name);

/* ---- Setup ---- */

typedef struct mtg_setup mtg_setup;

/* NULL if pool is NULL or out of memory. */
mtg_setup *mtg_setup_new(const mtg_pool *pool);
void mtg_setup_free(mtg_setup *s);
/* Every setter checks its arguments: a NULL setup or name, a player or entry
 * that does not exist, a number out of its range (life and counts within
 * |n| <= MTG_NUM_MAX, counts not negative, lands played up to 32767), a name
 * too long. A refused call returns a negative status (MTG_EARG, or MTG_EDATA /
 * MTG_ELIMIT as said), changes nothing, and mtg_setup_error says why. */
const char *mtg_setup_error(const mtg_setup *s);
/* Adds a player (2 to 4 in all); returns the player index or a negative status. */
int mtg_setup_player(mtg_setup *s, const char *name, int life, int poison);
int mtg_setup_seed(mtg_setup *s, uint64_t seed);
/* Start on turn `turn` (1 or more) in step `step` (an mtg_step) with `active`
 * the active player. By default a game starts at turn 1, untap step, player 0,
 * after shuffling each library and drawing opening hands
 * (mtg_setup_opening_hand). */
int mtg_setup_start(mtg_setup *s, int active, int turn, int step);
int mtg_setup_opening_hand(mtg_setup *s, int cards); /* 0: no opening draw; at most MTG_MAX_SETUP_CARDS */
int mtg_setup_shuffle(mtg_setup *s, int yes);        /* shuffle libraries at start */
int mtg_setup_max_turns(mtg_setup *s, int turns);    /* stop (no result) after this turn; 0: no limit */
/* A work budget: at most `lines` lines in the game's log over the whole game
 * (every event and every decision is one line, docs/events.md). When the game
 * would go past it, mtg_game_new or mtg_game_decide returns MTG_ELIMIT with a
 * message naming the budget (the game is put back at the priority, attackers
 * or blockers decision before), so an engine fault that loops inside one
 * action, or a runaway game, ends with an error instead of running on. Lines
 * are counted the same way on every run, so the budget is deterministic.
 * 0 (the default): no budget. It belongs to the run, not to the game: the
 * setup text leaves it out. */
int mtg_setup_work_budget(mtg_setup *s, long lines);
/* The steps a search for a legal choice may take: today the check that no
 * legal blocking declaration obeys more requirements than the one declared
 * (509.1c), a search over the possible declarations. A declaration whose check
 * would take more steps is refused with MTG_ELIMIT naming the budget, never
 * accepted on a guess. 0 (the default): 2,000,000 steps, far more than any
 * board of a real game needs. Like the work budget it belongs to the run: the
 * setup text leaves it out. */
int mtg_setup_search_budget(mtg_setup *s, long steps);
/* Puts a card into a zone; returns an entry handle (>= 0) for the options
 * below, or a negative status with err filled (unknown card name, ...).
 * Libraries are listed top first. Plane, phenomenon and scheme cards can
 * only be in the command zone (901.4, 904.4), dungeons too (below). */
int mtg_setup_card(mtg_setup *s, int player, int zone, const char *card, mtg_error *err);
int mtg_setup_tapped(mtg_setup *s, int entry, int tapped);
int mtg_setup_sick(mtg_setup *s, int entry, int sick); /* default: not sick */
int mtg_setup_damage(mtg_setup *s, int entry, int damage);
int mtg_setup_counters(mtg_setup *s, int entry, const char *kind, int n);
int mtg_setup_controller(mtg_setup *s, int entry, int player);
int mtg_setup_attach(mtg_setup *s, int entry, int target_entry);
int mtg_setup_attach_player(mtg_setup *s, int entry, int player);
int mtg_setup_choice(mtg_setup *s, int entry, const char *key, const char *value);
/* Face down on the battlefield (708), or, for a scheme, plane or phenomenon in
 * the command zone, in its deck (the default there). */
int mtg_setup_face_down(mtg_setup *s, int entry, int face_down);
int mtg_setup_transformed(mtg_setup *s, int entry, int back_face_up);
/* A token on the battlefield (111.1) with the entry card's characteristics, as
 * though a token copy of it had been created: it ceases to exist when it leaves
 * the battlefield (704.5d, 111.7). Only for battlefield entries. */
int mtg_setup_token(mtg_setup *s, int entry, int token);
/* A card in exile exiled by another entry's linked ability (607.2a, 607.2n). */
int mtg_setup_exiled_with(mtg_setup *s, int entry, int by_entry, const char *label);
int mtg_setup_player_counters(mtg_setup *s, int player, const char *kind, int n);
int mtg_setup_lands_played(mtg_setup *s, int player, int n);
/* Mana already in a player's mana pool as the game starts, as mana symbols of
 * one color each: "{R}{R}{G}", "{C}" (106.4); "" empties it. It empties as
 * any mana does, at the end of the step (500.4). */
int mtg_setup_mana(mtg_setup *s, int player, const char *mana);
/* Card types with designations (docs/cards.md, "Sagas, dungeons, battles"):
 * - a battle on the battlefield protected by `player` (310.8); without one,
 *   state-based action 704.5w has its controller choose one when the game starts;
 * - a creature's sector designation, "alpha", "beta" or "gamma" (702.158b);
 * - a dungeon card in the command zone with the venture marker on the room
 *   named `room` (309.4); without one the marker is on the topmost room.
 * A battle's defense counters and a Saga's lore counters are ordinary
 * counters (mtg_setup_counters "defense", "lore"); when none are given, a
 * battle has its printed defense (310.4b) and a Saga one lore counter (714.3a).
 * Dungeon cards can only be in the command zone (309.2c), one per owner (309.3). */
int mtg_setup_protector(mtg_setup *s, int entry, int player);
int mtg_setup_sector(mtg_setup *s, int entry, const char *sector);
int mtg_setup_room(mtg_setup *s, int entry, const char *room);
/* A card the player owns outside the game (at most 8): when venturing into
 * the dungeon the player chooses among their dungeon cards listed here
 * (309.2a); with none listed, among all dungeon cards of the pool. */
int mtg_setup_outside(mtg_setup *s, int player, const char *card, mtg_error *err);

/* Variants with state-based actions of their own (704.6). Each returns 0 or a
 * negative status.
 * - mtg_setup_variant: "two_headed_giant" (810), "commander" (903), "archenemy"
 *   (904) or "planechase" (901); they combine. Only the rules named in
 *   docs/variants.md are modelled, not whole formats (no shared team turns, no
 *   planar die, no deck construction).
 * - mtg_setup_team: player's team, 1..4 (0: none). opponents() respects teams in
 *   every game; in Two-Headed Giant teammates share their life total and poison
 *   counters (810.9, 810.10), so teammates must be given equal life and poison.
 * - mtg_setup_commander: the entry's card is its owner's commander (903.3; a
 *   legendary creature or Vehicle card; MTG_EDATA otherwise).
 * - mtg_setup_commander_damage: combat damage `player` has already been dealt by
 *   the commander of `entry` this game (903.10a).
 * Schemes, planes and phenomena are cards put in their owner's command zone
 * with mtg_setup_card; listed in order, they form the owner's scheme or planar
 * deck (top first), face down unless mtg_setup_face_down(entry, 0) turns one
 * face up (a scheme in motion, the current plane). The archenemy is the player
 * who starts with schemes (904.7). */
int mtg_setup_variant(mtg_setup *s, const char *name);
int mtg_setup_team(mtg_setup *s, int player, int team);
int mtg_setup_commander(mtg_setup *s, int entry);
int mtg_setup_commander_damage(mtg_setup *s, int player, int entry, int damage);

/* At most this many cards in a setup (all players and zones together). */
#define MTG_MAX_SETUP_CARDS 500
/* At most this many bytes in a card's name, counting a backslash for each '"'
 * and '\\' it holds as the log quotes it: log lines and decision labels show
 * every name whole, so that no two objects read alike (the longest real card
 * names but one are under 70). */
#define MTG_MAX_NAME 80
/* At most this many records (lines) in the text form of a setup. */
#define MTG_SETUP_MAX_RECORDS 1024

/* The setup as canonical text (one record per line, docs/replay-format.md),
 * and back: replays carry it so a game can be rebuilt exactly. write returns
 * the length needed (excluding the NUL), like snprintf. read fills *out (free
 * with mtg_setup_free) or returns a negative status with err located at the
 * record's line (err->file is set to `name`). */
int mtg_setup_write(const mtg_setup *s, char *buf, size_t size);
int mtg_setup_read(const mtg_pool *pool, const char *name, const char *text, mtg_setup **out, mtg_error *err);

/* ---- Games ---- */

typedef struct mtg_game mtg_game;

/* Creates the game and runs it to its first decision. Returns MTG_DECISION,
 * MTG_OVER or a negative status (err filled, *out NULL). */
int mtg_game_new(mtg_game **out, const mtg_setup *s, mtg_error *err);
/* The same for a program that plays many games one after another: the game
 * in *g (finished or not) ends and a new one from setup s starts in its
 * memory, which saves allocating and clearing it again. The new game is
 * exactly the one mtg_game_new would give. *g may be NULL: then this is
 * mtg_game_new. On failure *g is freed and set to NULL. */
int mtg_game_renew(mtg_game **g, const mtg_setup *s, mtg_error *err);
void mtg_game_free(mtg_game *g);
int mtg_game_status(const mtg_game *g); /* MTG_DECISION or MTG_OVER */

/* Decisions. Every choice is "pick among options": answer with option indices
 * (priority, targets, modes, yes/no, objects, players, colors, names, replacement
 * effects), a permutation of all options (orders), one number (X, numbers), or
 * one amount per option (dividing combat damage; dividing what a spell or
 * ability divides among its targets as it is cast or put on the stack, 601.2d). */
typedef enum {
  MTG_D_PRIORITY, MTG_D_MODE, MTG_D_X, MTG_D_TARGET, MTG_D_COST, MTG_D_ATTACKERS,
  MTG_D_BLOCKERS, MTG_D_DAMAGE, MTG_D_TRIGGER_ORDER, MTG_D_REPLACEMENT, MTG_D_MAY,
  MTG_D_CHOOSE, MTG_D_PLAYER, MTG_D_COLOR, MTG_D_NAME, MTG_D_NUMBER, MTG_D_ORDER,
  MTG_D_WORD, MTG_D_DIVIDE, MTG_D_COUNT
} mtg_decision_kind;

typedef enum {
  MTG_O_PASS, MTG_O_CAST, MTG_O_ACTIVATE, MTG_O_PLAY, MTG_O_OBJECT, MTG_O_PLAYER,
  MTG_O_MODE, MTG_O_YES, MTG_O_NO, MTG_O_EFFECT, MTG_O_TRIGGER, MTG_O_ATTACK,
  MTG_O_BLOCK, MTG_O_COLOR, MTG_O_NAME, MTG_O_WORD
} mtg_option_kind;

typedef struct mtg_option {
  int kind;        /* mtg_option_kind */
  uint32_t obj;    /* object id, if any */
  uint32_t obj2;   /* second object (the attacked planeswalker, the blocked attacker) */
  int player;      /* player index, or -1 */
  int index;       /* ability, mode, color or name index, or -1 */
  const char *label; /* canonical text, e.g. cast "Lightning Bolt"#12 */
} mtg_option;

typedef struct mtg_decision {
  int kind;             /* mtg_decision_kind */
  int player;           /* who decides */
  const char *kind_name;/* "priority", "target", ... */
  const char *prompt;   /* what is being decided, e.g. target 1 of "Lightning Bolt"#12 */
  const char *rule;     /* rule that asks for it, e.g. "616.1", or "" */
  int n_options;
  const mtg_option *options;
  int min, max;         /* how many options to pick (pick decisions) */
  int lo, hi;           /* range (number decisions), or for a division (damage, divide): the least each option gets (lo) and the total (hi) */
} mtg_decision;

typedef struct mtg_answer {
  int n;
  const int *v;
} mtg_answer;

const mtg_decision *mtg_game_decision(const mtg_game *g); /* NULL unless waiting */
/* Answers the pending decision and runs the game to the next decision or its
 * end. An illegal answer returns MTG_EILLEGAL with err explaining why, and the
 * game is exactly as before (the same decision is pending). When the answer is
 * legal but completes an action found illegal only then (a spell whose cost
 * can't be paid once its targets and X are chosen), the whole action is taken
 * back as rule 732 says: MTG_EILLEGAL, and the game is as it was at the
 * decision that began the action (the priority decision). */
int mtg_game_decide(mtg_game *g, const mtg_answer *a, mtg_error *err);
/* Finds the option whose label equals `label`; -1 if none. */
int mtg_decision_find(const mtg_decision *d, const char *label);

/* ---- Queries ---- */

typedef struct mtg_result {
  int over;
  int stopped;           /* ended by the turn limit, not by the rules */
  int draw;              /* the game is a draw */
  unsigned winners;      /* bit i: player i won */
  unsigned losers;       /* bit i: player i lost */
} mtg_result;

typedef struct mtg_player {
  const char *name;
  int life, poison;
  int lost, won, left;
  int hand, library, graveyard; /* zone sizes */
  int drew_from_empty;          /* attempted to draw from an empty library since the last SBA check */
  int lands_played;
  int speed;                    /* 702.179 (0: none) */
  int team;                     /* 0: none */
  int mana[6];                  /* mana pool: W U B R G C */
  int dungeons_completed;       /* 309.7 */
  int hand_revealed;            /* an effect has the player play with their hand revealed */
} mtg_player;

/* At most this many kinds of counters on one object or player: a setup with
 * more is refused (mtg_setup_counters); in a game, counters of a further kind
 * put on an object that already has this many kinds are not put on it. */
#define MTG_MAX_COUNTER_KINDS 6
typedef struct mtg_object {
  uint32_t id;           /* object id (changes when the object changes zones, 400.7) */
  int card;              /* stable physical card id (-1 for tokens and copies; a token the
                          * setup put on the battlefield has its setup entry's id) */
  const char *name;
  int zone, owner, controller;
  int is_token, is_copy, face_down;
  int commander;         /* the card is a commander (903.3) */
  int power, toughness, loyalty; /* current values (after continuous effects) */
  int tapped, damage, sick;
  int attacking, blocking, blocked;
  uint32_t attached_to;  /* object id, or 0 */
  int attached_player;   /* player index, or -1 */
  int n_counters;
  const char *counter_kind[MTG_MAX_COUNTER_KINDS];
  int counter_n[MTG_MAX_COUNTER_KINDS];
  char types[128];       /* type line after continuous effects, e.g. "Legendary Creature - Angel" */
  int protector;         /* a battle's protector (310.8), or -1 */
  const char *sector;    /* sector designation (702.158b): "alpha", "beta", "gamma", or NULL */
  int room;              /* a dungeon's venture marker: room index, topmost 0 (309.4), or -1 */
  const char *room_name; /* that room's name, or NULL */
} mtg_object;

int mtg_game_players(const mtg_game *g);
int mtg_game_turn(const mtg_game *g);
int mtg_game_step(const mtg_game *g);
int mtg_game_active(const mtg_game *g);
void mtg_game_result(const mtg_game *g, mtg_result *r);
int mtg_player_info(const mtg_game *g, int player, mtg_player *out);
int mtg_player_find(const mtg_game *g, const char *name); /* -1 if unknown */
/* Object ids in a zone, in order (libraries top first, graveyards bottom first,
 * the stack bottom first). player selects the owner's zone; for the
 * battlefield it selects the controller, -1 for all. Returns the count
 * (which may exceed max). */
int mtg_zone_objects(const mtg_game *g, int player, int zone, uint32_t *ids, int max);
int mtg_object_info(const mtg_game *g, uint32_t id, mtg_object *out);
/* Every object of the game, in any zone, in no particular order, with its physical
 * card id (-1 for tokens and copies): ids[i] and cards[i], at most max of
 * them. Returns the count (which may exceed max). Far cheaper than
 * mtg_object_info per object when only the card is wanted. */
int mtg_game_objects(const mtg_game *g, uint32_t *ids, int *cards, int max);
/* Combat damage a player has been dealt this game by the commander whose
 * physical card id is `card` (mtg_object.card), 903.10a; -1 if no such commander. */
int mtg_commander_damage(const mtg_game *g, int player, int card);
/* Number of counters of a kind on an object or (id 0) a player. */
int mtg_counters(const mtg_game *g, uint32_t id, int player, const char *kind);
/* 64-bit hash of the whole game state (zones in order, objects, counters,
 * damage, life, pending triggers, effects, RNG state). */
uint64_t mtg_game_hash(const mtg_game *g);

/* Checks the engine's invariants (every object in exactly one zone, a
 * consistent stack, non-negative counters, nothing orphaned at priority, the
 * characteristics cache equal to a recomputation, every line logged since the
 * last check of a type and with fields of mtg_event_types, and marked a decision
 * by mtg_log_is_decision exactly when it is a decide line). Returns 0, or -1 with a
 * description in why. For tests; costs a full recomputation. */
int mtg_game_check(mtg_game *g, char *why, size_t size);
/* Checks the pending decision against the option contract of mtg_option:
 * obj2 only for an attacked planeswalker or battle and a blocked attacker;
 * a player only for player options and a player attacked; an object for the
 * options that are about one (play, cast, activate, attack, block, object,
 * trigger, effect) and none for pass, yes, no, player, mode, color and name;
 * an index only where it names an ability, mode, color, name, word, trigger
 * or replacement effect (or a candidate of an object choice: its place
 * among the options), and labels
 * that agree with the fields (a color's name, "mode N", "activate X/N", a
 * player's name); a prompt and labels that are readable text, a deciding
 * player who is in the game. Returns 0 (also when nothing is pending), or -1 with the
 * option in why. Cheap: for tests and drivers, after every decision. */
int mtg_decision_check(const mtg_game *g, char *why, size_t size);

/* ---- Event log ----
 * Lines are canonical: byte-identical for the same pool, setup, seed and
 * decisions. Entries before mtg_log_committed() are final; later entries
 * belong to an unfinished action and may be rewritten by the next decision.
 * mtg_log_drop() discards final entries from the front (bounded memory). */
int mtg_log_count(const mtg_game *g);
int mtg_log_committed(const mtg_game *g);
const char *mtg_log_line(const mtg_game *g, int i);
int mtg_log_is_decision(const mtg_game *g, int i);
void mtg_log_drop(mtg_game *g, int n);
/* Total number of entries ever logged, dropped ones included. */
long mtg_log_total(const mtg_game *g);

/* The log's vocabulary: every type of line the engine writes (the first word)
 * and the fields it may carry, as docs/events.md lists them. */
typedef struct mtg_event_type {
  const char *name;   /* "damage" */
  const char *fields; /* space-separated, in the order written: "src to amount combat deathtouch infect rule" */
  int open;           /* it also carries fields the game names: a linked choice's label, a note's key,
                         the recipients of a combat damage division */
} mtg_event_type;

/* The types, in the order of docs/events.md; returns their count. */
int mtg_event_types(const mtg_event_type **types);
/* The type named name[0..len), or NULL. */
const mtg_event_type *mtg_event_type_find(const char *name, size_t len);
/* Whether key[0..len) is one of the type's fields (an open type's other
 * fields are not). */
int mtg_event_has_field(const mtg_event_type *t, const char *key, size_t len);

#endif
