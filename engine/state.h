/* state.h - the game state and the game handle.
 *
 * The whole rules state lives in one State struct of fixed-capacity arrays
 * with index references (no pointers into it), so that it can be copied: the
 * game keeps a snapshot taken at the last top-level decision, and an action
 * that needs a decision part-way (a target, a "may", a replacement order) is
 * re-run from that snapshot with the answers given so far (see game.c). The
 * same copy undoes an illegal action (rule 732). Derived data (characteristics
 * after continuous effects) is cached outside the State and recomputed. */
#ifndef STATE_H
#define STATE_H

#include <setjmp.h>
#include <stdint.h>

#include "card.h"
#include "mtg.h"

#define MAX_PLAYERS 4
#define MAX_SLOTS 1000
#define MAX_CKINDS MTG_MAX_COUNTER_KINDS
#define MAX_STACK 160
#define MAX_EFFECTS 300
#define MAX_PENDING 200
#define MAX_LINKS 400
#define MAX_ABS 20
#define MAX_COUNTER_NAMES 32
#define NZL 16
#define MAX_OUTSIDE 8
#define MAX_LKI 32
_Static_assert(MAX_LKI <= 32, "the entries of the last known information in use are bits of a uint32_t (state_copy)");

/* A reference to an object: its slot and the object id it had. The reference
 * is stale (the object is gone, 400.7) when the slot holds another id. */
typedef struct ORef {
  int32_t slot;           /* as wide as id: no padding, whose bytes no initializer sets (objects are compared whole) */
  uint32_t id;
} ORef;

/* A creature blocking one more attacker than its block_of: blocking several
 * (509.1a as "can block an additional creature" changes it) or a band (702.22h) */
typedef struct BlockPair {
  ORef blk, atk;
} BlockPair;
#define MAX_XBLOCKS 256

typedef struct Counter {
  uint8_t kind; /* index into State.cnames */
  int32_t n;
} Counter;

enum okind { OK_CARD, OK_TOKEN, OK_SPELL_COPY, OK_CARD_COPY, OK_EMBLEM };

typedef struct Obj {
  uint32_t id;            /* current object id; 0 = free slot */
  int32_t card;           /* physical card id, -1 for tokens and copies */
  const CardDef *def;     /* characteristics as printed or as defined by the token */
  const CardDef *copy_of; /* copiable values from a copy effect (layer 1) */
  const char *copy_sub;   /* a subtype the copy effect adds as an exception (707.9b), or NULL */
  uint8_t owner, controller, zone, kind;
  uint8_t tapped, face_down, phased_out;
  uint8_t manifested;     /* put onto the battlefield face down by manifest (701.40a) */
  uint8_t adventured;     /* exiled by its own resolving Adventure: its controller + 1, who may cast the card (715.3d) */
  uint8_t phased_indirectly; /* phased out with what it is attached to (702.26g) */
  uint8_t dt_hit;         /* dealt damage by a deathtouch source since the last SBA check */
  uint8_t fs_dealt;       /* had first strike or double strike as the first combat damage step began (510.4) */
  uint8_t attacking, blocked, blocking;
  int8_t atk_player;      /* attacked player, or -1 */
  ORef atk_obj;           /* attacked planeswalker or battle */
  ORef block_of;          /* attacker this creature blocks (the first; the others in State.xblk) */
  uint32_t ts;            /* timestamp (613.7) */
  int32_t damage;
  Counter c[MAX_CKINDS];
  uint8_t nc;
  ORef attached;          /* object this is attached to */
  int8_t attached_player; /* player this is attached to, or -1 */
  int32_t ctl_since;      /* turn sequence number when its controller got it */
  int32_t loyalty_turn;   /* turn sequence of the last loyalty activation */
  int32_t x;              /* X paid when cast (for "enters with X") */
  uint8_t kicked;         /* kicker paid when cast (607.2i) */
  uint8_t transformed;    /* back face up (712) */
  uint8_t flipped;        /* flipped status (110.5, 710): a flip card's alternative characteristics */
  uint32_t transformed_ts; /* timestamp of its last transformation (701.27f) */
  int32_t paid;           /* a variable additional cost paid when cast (607.2j) */
  uint8_t addl_paid;      /* its optional additional cost was paid when cast */
  uint8_t alt;            /* the alternative cost it was cast for (enum alt_cost): "escaped", "dashed" */
  uint8_t face;           /* on the stack: the half of a split card (1, 2) or an Adventure (1) cast */
  uint8_t kick_n;         /* times its multikicker cost was paid when cast (702.33c) */
  int32_t foretold;       /* in exile: foretold (702.143) during turn sequence foretold - 1; 0: not foretold */
  uint32_t entered_batch; /* the event batch that put it where it is (704.5k ties) */
  uint8_t cast_zone;      /* zone it was cast from, +1 (0: not cast) */
  uint32_t entered_with;  /* object id of the effect source that put it onto the battlefield */
  uint32_t abil_used[2];  /* once-each-turn ability use bits, reset each turn */
  uint8_t resolved[16];   /* times each of its abilities resolved this turn (603.7h) */
  /* card types with designations (cardtype.c); 0 = none */
  uint8_t protector;      /* a battle's protector + 1 (310.8) */
  uint8_t sector;         /* sector designation (702.158b): 1 alpha, 2 beta, 3 gamma */
  uint8_t room;           /* a dungeon's venture marker: room index + 1 (309.4) */
  uint8_t monstrous, renowned; /* designations (701.37b, 702.112b) */
  uint8_t saddled;        /* 702.171b: until end of turn (514.2) or it leaves the battlefield; not copiable */
  uint8_t class_level;    /* 716.2b: its level, a designation (0: none, read as level 1, 716.2d); not copiable */
  uint8_t exerted;        /* exerted by this player + 1: doesn't untap during their next untap step (701.43a) */
  ORef paired;            /* the creature it is paired with (soulbond, 702.95b), or none */
  int8_t paired_by;       /* the player who controlled both as they were paired */
  uint8_t ctl_seen;       /* its controller + 1 as last seen by control_watch (0: not yet seen) */
  uint8_t band;           /* attacking in the band of this number (702.22c), 0: in none */
  uint8_t suspend_haste;  /* a creature spell cast by its suspend ability, or the permanent it became, whose
                           * caster has not lost control of it since: it has haste (702.62a) */
} Obj;

/* Last known information of an object (608.2h, 603.10, 704.8). */
typedef struct Lki {
  uint32_t id;
  int16_t slot;
  int32_t card;
  const CardDef *def;
  const char *name;
  uint8_t owner, controller, zone, token;
  uint32_t types;
  uint8_t supers, colors, tapped, has_pt;
  int32_t power, toughness;
  uint64_t kw;
  Counter c[MAX_CKINDS];
  uint8_t nc;
  int32_t damage;
  ORef attached;
  int8_t attached_player;
  int32_t mv;
  uint8_t spell;
  uint8_t kicked;
  uint8_t class_level;    /* 716.2b */
  uint8_t kick_n;         /* times a multikicker cost was paid (702.33c) */
  uint8_t addl_paid;      /* its optional additional cost was paid when cast */
  uint8_t alt;            /* the alternative cost it was cast for */
  uint8_t cast_zone;      /* zone the spell it was cast from, +1 (0: not cast), 400.7d */
  uint8_t kind;           /* enum okind */
  uint8_t attacking, blocking;
  uint8_t nsub;
  const char *sub[MAX_SUBTYPES + 4];
  uint32_t entered_with;
} Lki;

enum tkind { TK_NONE, TK_OBJ, TK_PLAYER, TK_STACK };
typedef struct Target {
  uint8_t kind;
  int8_t player;
  int16_t div;            /* its share of what the spell or ability divides (601.2d), 0: none */
  ORef obj;
  uint32_t stack_id;
} Target;

#define MAX_CHOICE_T (MAX_MODES * MAX_TARGETS)
/* The targets of a variable number (TN_ANY, TN_X) run on from their mode's
 * own slots into MAX_MORE_T more, after the modes' (see mode_slot). */
#define MAX_MORE_T 12
#define MAX_MODE_SLOTS (MAX_TARGETS + MAX_MORE_T)
#define CHOICE_SLOTS (MAX_CHOICE_T + MAX_MORE_T)
#define MAX_ADDED 4
typedef struct Choice {
  uint8_t mode[MAX_MODES];
  uint8_t nmode;
  Target t[CHOICE_SLOTS]; /* index: mode_slot(mode, k) */
  uint8_t more_mode;      /* the mode + 1 whose targets run on into the MAX_MORE_T slots, 0: none */
  int32_t x;
  uint8_t kicked;
  int32_t paid;           /* a variable cost paid */
  /* what the attacker returned to pay a cost was attacking (ninjutsu, 702.49c):
   * a player + 1, or a planeswalker or battle */
  uint8_t ret_atk_player;
  ORef ret_atk_obj;
  uint8_t cast_zone;
  uint8_t free;           /* cast without paying its mana cost */
  uint8_t addl_paid;      /* an optional additional cost was paid (601.2b) */
  /* casting keywords (cast.c) */
  uint8_t alt;            /* the alternative cost it was cast for (enum alt_cost) */
  uint8_t face;           /* the half of a split card cast (1, 2: 709.3), or 1: an Adventure (715.3) */
  uint8_t bought;         /* its buyback cost was paid (702.27a) */
  uint8_t kick_n;         /* times its multikicker cost was paid (702.33c) */
  uint8_t nadd;           /* spells whose effects follow its own: spliced cards (702.47), a fused half (702.102d) */
  const CardDef *add[MAX_ADDED];
  uint32_t splice[MAX_ADDED]; /* the spliced card, in its owner's hand (0: a fused half) */
  Target at[MAX_ADDED][MAX_TARGETS]; /* their targets */
} Choice;

/* Event types (docs/events.md). */
#define EVENTS(X)                                                                      \
  X(EV_GAME_START, "game_start") X(EV_TURN, "turn") X(EV_STEP, "step")                 \
  X(EV_ZONE, "zone") X(EV_DRAW, "draw") X(EV_DISCARD, "discard") X(EV_DESTROY, "destroy") \
  X(EV_SACRIFICE, "sacrifice") X(EV_MILL, "mill") X(EV_EXILE, "exile")                 \
  X(EV_DAMAGE, "damage") X(EV_GAIN_LIFE, "gain_life") X(EV_LOSE_LIFE, "lose_life")     \
  X(EV_COUNTERS, "counters_put") X(EV_COUNTERS_OFF, "counters_removed")                \
  X(EV_TAP, "tap") X(EV_UNTAP, "untap") X(EV_TOKEN, "create_token")                    \
  X(EV_ATTACH, "attach") X(EV_UNATTACH, "unattach") X(EV_LOSE, "lose")                 \
  X(EV_WIN, "win") X(EV_GAME_OVER, "game_over") X(EV_CAST, "cast")                     \
  X(EV_ACTIVATE, "activate") X(EV_TRIGGER, "trigger") X(EV_PUSH, "stack_push")         \
  X(EV_RESOLVE, "resolve") X(EV_STACK_REMOVE, "stack_remove")                          \
  X(EV_COUNTER_SPELL, "counter") X(EV_MANA, "add_mana") X(EV_MANA_EMPTY, "mana_empty") \
  X(EV_ATTACKS, "attacks") X(EV_BLOCKS, "blocks") X(EV_BLOCKED, "blocked")             \
  X(EV_SHUFFLE, "shuffle") X(EV_CONTROL, "control") X(EV_SBA, "sba")                   \
  X(EV_REPLACE, "replace") X(EV_PREVENT, "prevent") X(EV_CHOOSE, "choose")             \
  X(EV_PLAY_LAND, "play_land") X(EV_CEASE, "cease_to_exist") X(EV_REGENERATE, "regenerate") \
  X(EV_PAY, "pay") X(EV_REVEAL, "reveal") X(EV_EFFECT, "effect") X(EV_SKIP, "skip")     \
  X(EV_REMOVE_COMBAT, "remove_from_combat") X(EV_DAMAGE_CLEARED, "damage_removed")      \
  X(EV_EFFECT_END, "effect_end") X(EV_LIFE_SET, "life_total") X(EV_PHASE, "phase") \
  X(EV_FACE_UP, "turn_face_up") X(EV_SET_IN_MOTION, "set_in_motion")                  \
  X(EV_DECK_BOTTOM, "deck_bottom") X(EV_PLANESWALK, "planeswalk")                       \
  X(EV_TARGETED, "becomes_target") X(EV_UNBLOCKED, "unblocked") X(EV_EXERT, "exert") X(EV_BECOMES, "becomes")

enum evtype {
#define X(e, s) e,
  EVENTS(X)
#undef X
      EV_COUNT
};
extern const char *const ev_names[EV_COUNT];

enum { ETB_ATTACH_AFTER = 3 }; /* Event.etb_attach: attached by the effect, after it enters (303.4h) */
enum { EF_COMBAT = 1, EF_DEATHTOUCH = 2, EF_INFECT = 4, EF_UNPREVENTABLE = 8, EF_NOREGEN = 16,
       EF_LIFELINK = 32, EF_FACE_DOWN = 64, EF_WITHER = 128 };

/* Why an object moved (the zone event's cause). */
enum cause { CA_EFFECT, CA_CAST, CA_RESOLVE, CA_DESTROY, CA_SACRIFICE, CA_DISCARD, CA_MILL,
             CA_DRAW, CA_COUNTER, CA_SBA, CA_PLAY, CA_TOKEN, CA_COST, CA_RETURN, CA_SETUP };

#define MAX_APPLIED 64
typedef struct Event {
  uint8_t type;
  uint8_t flags;
  int8_t player;          /* affected player */
  int8_t player2;         /* new controller, damage assigner, ... */
  ORef obj;               /* affected object */
  ORef src;               /* source of damage, or the object causing the event */
  int32_t amount;
  int8_t from, to;        /* zones */
  int8_t lib_pos;         /* 0 top, 1 bottom, 2 shuffle in */
  uint8_t ckind;
  uint8_t cause;
  uint8_t cost_cause;     /* a zone change caused by paying a cost: CA_SACRIFICE or CA_DISCARD when it is one (701.21a, 701.9a) */
  int8_t cause_ctl;       /* controller of the spell or ability causing it, -1: a rule */
  uint32_t cause_id;      /* object id of the spell or ability causing it */
  const char *rule;       /* rule that performs it, for the log */
  /* entering the battlefield */
  uint8_t etb_tapped;
  int8_t etb_ctl;
  Counter etb_c[4];        /* kinds of counters it enters with; a fifth stops the game (replace.c) */
  const char *etb_rule[4]; /* the rule that gives etb_c[i], for the log (NULL: a replacement's) */
  uint8_t netb_c;
  uint8_t given_ckind;    /* counters the moving effect gives it as it enters ("return it with a */
  int16_t given_n;        /* +1/+1 counter"): through counter replacements just before it enters (122.6) */
  const CardDef *etb_copy;
  const char *etb_copy_sub; /* the copy's exception: an added subtype (707.9b) */
  const struct StaticSpec *etb_types[4]; /* "enters as a [subtype] in addition to its other types"; a fifth stops the game */
  uint8_t netb_types;
  uint8_t etb_attach;     /* 303.4f: an Aura enters attached: 1 to etb_attach_obj, 2 to etb_attach_player;
                           * ETB_ATTACH_AFTER: the effect attaches it once it is there */
  int8_t etb_attach_player;
  ORef etb_attach_obj;
  int8_t etb_choice_kind;
  int32_t etb_choice;
  const char *etb_choice_label;
  const char *etb_choice_s;
  const CardDef *token_def;
  uint8_t face_down;
  uint8_t etb_transformed;
  uint8_t etb_protector;  /* a battle's protector + 1, chosen as it enters (310.8a) */
  uint8_t etb_attacking;  /* it enters attacking (508.4): etb_atk_player or etb_atk_obj */
  int8_t etb_atk_player;
  ORef etb_atk_obj;
  uint8_t emptied;        /* damage or counter removal took a battle's last defense counter (310.11b) */
  int8_t life_floor;      /* damage to a player: its life total goes no lower than this (Worship) */
  /* results */
  uint32_t new_id;
  int16_t new_slot;
  uint8_t done;           /* performed */
  int16_t orig;           /* in ev_run's batch: index of the caller's event it came from */
  /* replacement bookkeeping (614.5) */
  uint32_t applied[MAX_APPLIED];
  uint8_t napplied;
  uint8_t unpreventable;
  uint32_t dest_counter_kind1; /* counter placed on arrival (+1) */
  int16_t dest_counter_n; /* how many of them (0: one): "exile it with N time counters on it" (702.62a) */
  int32_t aux;            /* control events: effect index to begin (+1) or end (-1) */
  uint32_t link_src;      /* link the moved card to this object (607.2a/b) */
  uint16_t link_grant;
  const char *link_label;
} Event;

/* Triggering-event context kept with a triggered ability (603.2, 603.10). */
typedef struct TrigCtx {
  uint8_t ev;
  int8_t player;
  int8_t player2;         /* becomes-the-target events: the player targeted (player is the targeting one's controller) */
  ORef obj;
  Lki objl;               /* the object as it last existed (look-back) */
  ORef src;
  Lki srcl;
  int32_t amount;
  int8_t from, to;
  uint32_t new_id;
  int16_t new_slot;
  uint32_t cause_id;
  uint8_t ckind;
  uint32_t spell_id;      /* the spell cast */
} TrigCtx;

enum sikind { SI_SPELL, SI_ACTIVATED, SI_TRIGGERED };
typedef struct StackItem {
  uint32_t id;
  uint8_t kind;
  int16_t slot;           /* the spell's object */
  uint8_t controller;
  const Ability *ab;
  const CardDef *def;     /* definition the ability comes from */
  uint16_t grant;         /* grant group (0 printed) for linked abilities, 607.5 */
  ORef src;               /* source object */
  Lki srcl;
  Choice ch;
  TrigCtx tc;
  uint32_t eff_id;        /* delayed trigger effect that created it */
  uint8_t copy;
  uint8_t state_trig;
  uint8_t mana_spent;     /* colors of mana spent (bits) */
  uint32_t pushed_ts;     /* the timestamp counter when it was put on the stack (701.27f) */
} StackItem;

enum ekind { EK_CONT, EK_REPL, EK_DELAYED, EK_UNTIL, EK_RULE, EK_PLAY /* obj may be played by player (from exile) */ };
typedef struct Effect {
  uint32_t id;
  uint8_t kind;           /* enum ekind */
  uint8_t dur;            /* enum dur */
  uint8_t controller;
  uint8_t used;           /* 1 used up (one-shot replacements, 603.7b), 2 free slot */
  uint8_t once;           /* "the next time": used up by its first application */
  uint32_t ts;
  ORef source;
  Lki srcl;
  const CardDef *def;
  uint16_t grant;
  const StaticSpec *st;
  const ReplSpec *rp;
  const Ability *ab;      /* delayed trigger (EK_DELAYED) */
  int32_t a, b;
  uint64_t kw;
  uint32_t types;
  ORef obj;               /* affected object (fixed at creation, 611.2c) */
  int8_t player;          /* affected player */
  int32_t shield;         /* prevention shield left (615.7); -1 = all */
  uint32_t chosen_src;    /* "source of your choice" (615.9) */
  uint8_t chosen_colors;
  Choice ch;              /* choices carried by the effect */
  int32_t turn_seq;       /* turn it was created */
  const CardDef *grant_def; /* gained abilities of this definition (607.5) */
  uint8_t step;           /* delayed: step it waits for */
} Effect;

enum lkind { LK_OBJ, LK_VALUE, LK_NAME };
typedef struct Link {
  uint32_t oid;           /* object the link belongs to */
  uint16_t grant;         /* grant group of the ability pair (607.5) */
  const char *label;
  uint8_t kind;
  int32_t value;
  const char *sval;
  ORef obj;
  uint8_t follows_card;   /* a choice made before the game: kept across zones (607.2p) */
} Link;

typedef struct Pending {
  const Ability *ab;
  const CardDef *def;
  uint16_t grant;
  ORef src;
  Lki srcl;
  uint8_t controller;
  TrigCtx tc;
  uint32_t eff_id;
  uint32_t seq;
  uint8_t state_trig;
} Pending;

/* The history of the turn (history.c): what happened this turn and last turn
 * that rules and cards ask about ("spells cast last turn", "you attacked this
 * turn", "damage already dealt to it this turn", "a creature died this turn").
 * One record per event, in the order they happened; records older than last
 * turn are dropped as a turn begins. */
enum hkind { HK_CAST, HK_DRAW, HK_ATTACK, HK_ZONE, HK_DAMAGE, HK_GAIN_LIFE, HK_LOSE_LIFE, HK_VENTURE, HK_COUNT };
#define MAX_HIST 1024
/* An object as it was, as much of it as filters ask about (filter_match_lki). */
typedef struct HObj {
  uint32_t id;
  const CardDef *def;     /* printed subtypes */
  const char *name;
  uint64_t kw;
  uint32_t types;
  int32_t power, toughness;
  int16_t mv;
  uint8_t supers, colors, controller, owner, token, tapped;
} HObj;
typedef struct Hist {
  uint8_t kind;           /* enum hkind */
  uint8_t combat;         /* damage: combat damage */
  uint8_t cause;          /* zone changes: enum cause (discard, sacrifice, destroy, ...) */
  uint8_t pending;        /* recorded just before its event is performed; dropped if it isn't */
  int8_t player;          /* who did it: caster, drawer, attacking player, the player who moved it
                           * (a discarding player, a sacrificing controller), damage source's controller */
  int8_t to_player;       /* damage dealt to a player; attack: the defending player */
  int8_t from, to;        /* zone changes */
  int32_t turn;           /* turn sequence number (Core.turn_seq) */
  int32_t combat_n;       /* combat sequence number (Core.combat_seq) */
  uint32_t src;           /* damage: the source's object id */
  uint32_t new_id;        /* zone changes: the object it became */
  int32_t amount;         /* damage dealt, life gained or lost (all the times together) */
  int32_t times;          /* identical events merged into this record (a loop dealing the same damage) */
  HObj o;                 /* the object as it was: the spell cast, the attacker, the object moved
                           * (as it last existed before leaving the battlefield, as it entered),
                           * the permanent dealt damage */
} Hist;

typedef struct Player {
  char name[32];
  int32_t life;
  Counter c[MAX_CKINDS];
  uint8_t nc;
  uint8_t lost, won, left, drew_empty;
  int16_t lands_played;
  int16_t extra_lands;     /* additional land plays this turn from resolved effects (305.2) */
  int16_t drawn_turn;
  int16_t spells_cast_turn;
  int32_t mana[COL_COUNT];
  int32_t turn_started;   /* turn sequence of this player's most recent turn */
  int32_t upkeep_last, upkeep_prev; /* turn sequence of the beginning of their most recent upkeep and of the
                                     * one before it (0: none): echo's "since the beginning of your last upkeep" */
  uint8_t team;
  int8_t speed;           /* 702.179: 0 = no speed */
  int16_t dungeons_done;  /* dungeons completed (309.7) */
} Player;

/* The casual and multiplayer variants a game uses (variant.c): Two-Headed
 * Giant teams (810), commanders (903), scheme decks (904), planar decks (901).
 * Scheme and planar decks are the face-down schemes / planes and phenomena
 * an owner has in the command zone, in command-zone order, top first. */
enum { VAR_2HG = 1, VAR_COMMANDER = 2, VAR_ARCHENEMY = 4, VAR_PLANECHASE = 8 };
#define MAX_COMMANDERS 8
typedef struct Variant {
  uint8_t kind;                 /* VAR_* bits */
  uint8_t ncmd;
  int16_t cmd_card[MAX_COMMANDERS];   /* physical card ids designated as commanders (903.3) */
  uint8_t cmd_owner[MAX_COMMANDERS];
  uint32_t cmd_moved[MAX_COMMANDERS]; /* object id it got when put into a graveyard or exile
                                         since the last SBA check (704.6d), 0: none */
  int32_t cmd_casts[MAX_COMMANDERS];  /* times cast from the command zone (903.8) */
  int32_t cmd_dmg[MAX_PLAYERS][MAX_COMMANDERS]; /* combat damage dealt to a player by a commander (903.10a) */
  uint8_t archenemy;            /* players who started with a scheme deck (904.7), bits */
  int8_t planar_ctl;            /* the planar controller (901.6), -1: none */
} Variant;

/* Phases added to a turn (500.8). */
enum { PH_COMBAT = 1, PH_MAIN = 2 };

/* Where the main loop stands (turn.c). */
enum stage {
  SG_TURN_BEGIN, SG_STEP_BEGIN, SG_PRIORITY, SG_PRIORITY_ASK, SG_ALL_PASSED, SG_STEP_END,
  SG_ATTACKERS_ASK, SG_BLOCKERS_ASK, SG_CLEANUP_CHECK, SG_OVER
};

typedef struct Core {
  uint64_t rng[4];
  uint32_t next_id, next_ts, next_eff, next_seq;
  int32_t turn;           /* turn number shown to players */
  int32_t turn_seq;       /* turns begun so far in this game */
  uint8_t np, active, step, stage, prio, passes;
  uint8_t in_order;         /* whose turn in turn order was taken last: not an extra turn's player (500.7) */
  uint8_t first_strike_done, combat_damage_fs, blockers_done, extra_turns[32], nextra;
  uint8_t attackers_declared; /* this combat had attackers declared or put onto the battlefield attacking (508.8) */
  uint8_t nattackers;         /* creatures declared as attackers in this combat (506.5), at most 255; set by each declaration, read only by the "attacks alone" triggers it causes */
  uint8_t blockers_declared;  /* this combat's blockers were declared: attackers are blocked or unblocked (509.1h) */
  uint8_t made_noncards;      /* a token or a copy of a spell was made in this game: only then may
                               * one be in a zone where it ceases to exist (704.5d, 704.5e) */
  /* phases added to this turn (500.8): `xafter` are added after the current phase
   * ends (most recently added first), `xq` are the added phases still to come, in
   * order, and `xresume` the step the turn goes on with after them (+1; 0: none) */
  uint8_t xafter[8], nxafter, xq[16], nxq, xresume;
  uint8_t cleanup_again, over, stopped, draw_game;
  int32_t max_turns;
  int16_t nslots, nstack, neff, npend, nlink;
  int16_t zn[NZL];
  uint8_t ncnames;
  char cnames[MAX_COUNTER_NAMES][24];
  Player pl[MAX_PLAYERS];
  uint32_t state_trig_on_stack[8]; /* (slot<<8|ability) of state triggers not yet left the stack */
  uint8_t nstate_trig;
  int8_t defending[MAX_PLAYERS];
  int16_t nxblk;            /* State.xblk in use */
  uint8_t skip[MAX_PLAYERS][MTG_S_COUNT]; /* steps to skip (614.10) */
  uint32_t events_since_choice;           /* mandatory-loop detection (104.4b) */
  uint32_t resolutions_since_action;      /* stack resolutions since a player last did more than pass (104.4b) */
  uint8_t skipping, in_fs_step, skip_first_draw, begun;
  const Node *after_skip;   /* 614.10b: done first in the next step that occurs */
  ORef after_skip_src;
  int8_t after_skip_ctl;
  uint32_t batch_seq;       /* simultaneous event batches so far (704.5k "time") */
  int32_t combat_seq;       /* combat phases begun so far ("this combat", history.c) */
  int16_t nhist;            /* records in State.hist */
  int16_t nhist_pend;       /* records in it made pending since the last hist_after (at least as many as are
                             * pending): when all are its batch's, hist_after need not look before them */
  uint16_t nlki, lki_next;  /* State.lki: entries used, the next one to overwrite */
  /* dungeon cards each player owns outside the game (309.2a); none listed: the pool's */
  const CardDef *outside[MAX_PLAYERS][MAX_OUTSIDE];
  uint8_t noutside[MAX_PLAYERS];
  Variant v;
} Core;

#ifdef OBJ_WRITE_CHECK
#define OBJ_RO const
#else
#define OBJ_RO
#endif
typedef struct State {
  Core c;
  OBJ_RO Obj obj[MAX_SLOTS];
  int16_t zl[NZL][MAX_SLOTS];
  StackItem stack[MAX_STACK];
  Effect eff[MAX_EFFECTS];
  Pending pend[MAX_PENDING];
  Link link[MAX_LINKS];
  BlockPair xblk[MAX_XBLOCKS];
  Hist hist[MAX_HIST];
  /* the objects that most recently left a public zone, as they last existed
   * there (608.2h, 113.7a): a ring, newest at lki_next - 1 */
  Lki lki[MAX_LKI];
} State;

/* Zone list index: per-player hidden and graveyard zones, then shared zones. */
enum { ZL_BATTLEFIELD = 12, ZL_EXILE, ZL_COMMAND, ZL_ANTE };
static inline int zl_index(int zone, int player) {
  switch (zone) {
  case MTG_Z_LIBRARY: return player * 3;
  case MTG_Z_HAND: return player * 3 + 1;
  case MTG_Z_GRAVEYARD: return player * 3 + 2;
  case MTG_Z_BATTLEFIELD: return ZL_BATTLEFIELD;
  case MTG_Z_EXILE: return ZL_EXILE;
  case MTG_Z_COMMAND: return ZL_COMMAND;
  case MTG_Z_ANTE: return ZL_ANTE;
  default: return -1; /* the stack is State.stack */
  }
}

/* An ability an object has (after continuous effects), with its grant group. */
typedef struct AbRef {
  const Ability *ab;
  const CardDef *def;
  uint16_t grant;
} AbRef;

/* Characteristics after continuous effects (613), cached per slot. */
typedef struct Chars {
  const CardDef *base;    /* copiable values */
  const char *name;
  uint32_t types;
  uint8_t supers, colors, has_pt, lost_all;
  uint8_t all_creature_types; /* every creature type (changeling, 702.73a) */
  const char *sub[MAX_SUBTYPES + 4];
  uint8_t nsub;
  int32_t power, toughness;
  uint64_t kw;
  uint8_t controller;
  AbRef ab[MAX_ABS];
  uint8_t nab;
} Chars;

/* The copiable values cached in a slot of the characteristics cache (layer.c):
 * the object fields base_chars reads when they were computed. */
typedef struct ChBase {
  const CardDef *def, *copy_of;
  const char *copy_sub;
  uint8_t controller, face_down, transformed, flipped, zone;
  uint8_t suspend_haste;  /* 702.62a */
  uint8_t valid;          /* 0: nothing cached */
  uint8_t modified;       /* an effect or counters changed the cached values since */
  uint8_t nstatic;        /* static abilities among the copiable values */
} ChBase;

/* What the permanents on the battlefield have between them, as of the
 * characteristics cache (layer.c): lets a check for something rare (a
 * legend, a Saga, a "can't" effect) skip the battlefield when none has it. */
typedef struct BfSum {
  uint32_t types;
  uint8_t supers;
  uint64_t kw;
  uint64_t statics[2];    /* kinds of static abilities (bit k & 63 of word k >> 6: enum se_kind k); every
                           * kind has its bit, so a check for one no permanent has skips the battlefield */
  uint64_t repl_events;   /* types of events their replacement abilities can apply to (repl_event_mask) */
} BfSum;

/* ---- the game handle ---- */

#define MAX_OPTIONS 512
#define MAX_EVSTACK 4096
typedef struct Decision {
  mtg_decision pub;
  mtg_option opt[MAX_OPTIONS];
  char labels[MAX_OPTIONS][256]; /* whole with two objects of MTG_MAX_NAME ("A"#1 -> "B"#2) */
  char prompt[160];
  int top;                /* asked at a top-level point (a new segment starts) */
} Decision;

/* What an option of a top-level decision does (turn.c, combat.c): kept with
 * the snapshot, so that a segment re-run from it does not build the
 * decision's options again (dec_resume). */
typedef struct TopOption {
  uint8_t act;            /* the asker's kind of action */
  int8_t zone, player;
  int16_t slot, slot2, index;
} TopOption;

/* The priority decision's options (turn.c): what each does. */
typedef struct PrioOpts {
  int act[MAX_OPTIONS], slot[MAX_OPTIONS], ab[MAX_OPTIONS], zone[MAX_OPTIONS], face[MAX_OPTIONS];
  int n;
} PrioOpts;

typedef struct LogEnt {
  uint32_t off;           /* offset of the line in the text buffer */
  uint8_t decision;
} LogEnt;

#define ID_HINTS 256
_Static_assert((ID_HINTS & (ID_HINTS - 1)) == 0, "obj_by_id masks an id by ID_HINTS - 1");

/* A game's working storage that is never cleared: each part is read only as
 * far as a count in the handle says it was written, or once recomputed (the
 * decisions, hyp). A new game in the same handle (mtg_game_renew) keeps it. */
typedef struct Work {
  Decision dtop;          /* top-level decisions (priority, attackers, blockers) */
  Decision dsub;          /* decisions inside an action */
  TopOption topt[MAX_OPTIONS]; /* what dtop's options do (attackers, blockers) */
  PrioOpts popt;          /* and a priority decision's */
  Chars hyp;              /* characteristics as an object would enter (614.12) */
  char strs[32][64];      /* strings given by the setup (chosen names) */
  /* once-only delayed abilities matched by a batch, for 603.7b's choice */
  struct { int eff; TrigCtx tc; uint32_t obj; char label[110]; } dcand[8];
  /* prevention applied during a batch, one entry per effect and recipient,
   * checked for triggers once the batch is built (615.13) */
  Event prev_ev[16];
  /* the rest of a prevention effect ("put a +1/+1 counter for each 1 damage
   * prevented"), done once the batch it prevented damage in is done (615.5) */
  struct PrevRider {
    const ReplSpec *rp;
    const CardDef *def;
    ORef src;
    Lki srcl;
    uint8_t has_srcl;
    uint16_t grant;
    int eff, controller;
    uint32_t key;
    Event ev;
    int prevented;
  } rider[64];
  /* triggered mana abilities waiting to resolve at once (605.4a) */
  Pending mtq[8];
  /* obj_by_id's memory: id & (ID_HINTS - 1) -> the slot that last held that id
   * (zeroed once, with the handle). Only a guess, checked before use (a live
   * object's id is in no other slot: every id comes from new_id, and a freed
   * slot is zeroed), so a restore or a new game never makes it wrong; it spares
   * the search of every slot, libraries and all, that the harness's questions
   * about objects cost. Here, not in the handle, which a new game clears. */
  int16_t id_hint[ID_HINTS];
} Work;

/* The most mana one payment holds: a cost of more is unpayable, and X is
 * offered up to what fits in it with the rest of the cost (107.3a). */
#define MAX_UNITS 64

/* One mana a payment can use: mana in a pool, or a source's tap (cost.c). */
typedef struct ManaUnit {
  int8_t pool;    /* 1: mana already in the pool */
  uint8_t mask;   /* colors it can be (bits W U B R G C) */
  int16_t slot;   /* source permanent */
  int8_t abi;     /* its mana ability; -1 in the pool, -2 added by a triggered mana ability */
  int8_t used;
  uint8_t alt;    /* what it pays rather than mana (convoke, improvise, delve): colors, UNIT_GENERIC */
  uint8_t how;    /* UNIT_TAP, UNIT_EXILE: how it pays so; 0 only as mana */
} ManaUnit;
enum { UNIT_GENERIC = 0x40, UNIT_TAP = 1, UNIT_EXILE = 2 };

/* The mana units a player's payments could use, as found during a listing. */
typedef struct ManaSeen {
  uint32_t listing, epoch; /* found during that listing, at that epoch */
  int player, exclude, n;
  ManaUnit u[MAX_UNITS];
} ManaSeen;

/* An activated ability of an object, and the players activation_reaches
 * lets activate it (bit p: player p). */
typedef struct ActRef {
  int16_t slot;
  uint8_t ab, reach;
} ActRef;

/* The handle. Everything in it starts a game zeroed; what it points to is
 * kept by mtg_game_renew (game.c, game_clear). */
struct mtg_game {
  const mtg_pool *pool;
  Work *w;
  State *s;               /* current state */
  State *snap;            /* state at the start of the current segment */
  Chars *ch;              /* characteristics cache */
  ChBase *chb;            /* what each slot of it was computed from (MAX_SLOTS) */
  int chb_used;           /* slots of chb ever filled (cleared for a new game) */
  BfSum bfsum;            /* valid while sum_epoch == epoch */
  uint32_t sum_epoch;
  uint32_t ch_epoch, epoch; /* the cache is valid while ch_epoch == epoch */
  uint32_t ch_owrites;    /* owrites when the cache was last computed or kept (chars_current) */
  uint8_t ch_lazy[MAX_SLOTS]; /* a card in a hand or library: 1 computed when asked for, 2 kept (ch_kept) */
  uint32_t ch_kept[MAX_SLOTS]; /* such a card computed without any ability of its own applying: its id (it stays valid) */
  uint64_t ch_changed[(MAX_SLOTS + 63) / 64]; /* slots written (odirty) before the last snapshot or restore and
                              since the last recompute: with odirty, the objects a recompute of a plain board redoes */
  uint64_t ch_bf[(MAX_SLOTS + 63) / 64]; /* the objects bfsum was made of (bit i: slot i) */
  uint8_t ch_full;           /* the next recompute is a whole one (after a restore, chars_reset) */
  uint8_t ch_lazy_on;        /* the last recompute left cards in hands and libraries to be computed when asked for */
  uint8_t ch_plain;          /* the last recompute met no continuous effect (no layer effect, copy or grant)
                                and no card's own ability applied since (materialize): characteristics
                                are the objects' own values and counters (perform) */
  uint8_t ch_in;             /* characteristics are being computed (recompute, materialize): depth */
  uint8_t ch_read_tapped;    /* the computations the cache holds read whether some object is tapped
                                (a filter's tapped: while ch_in): a batch that only taps, untaps
                                and adds mana can change them only then (perform) */
  int flash_perms;           /* "cast as though it had flash" abilities seen by the last recompute */
  /* the priority options being listed (turn.c), numbered (0: none), and the
   * mana a player's payments could use found once during it (cost.c gather):
   * listing changes nothing, and what changes characteristics moves epoch */
  uint32_t listing, listings;
  ManaSeen mana_seen;
  int grants;                /* ability-granting effects seen by the last recompute */
  jmp_buf jb;
  int jb_set;
  int status;             /* MTG_DECISION / MTG_OVER */
  /* answers given since the segment began */
  int *av;                /* values */
  int avn, avcap;
  int *aoff;              /* answer i: values av[aoff[i] .. aoff[i+1]) */
  int an, acap, apos;     /* answers given, answers consumed in this run */
  Decision *dec;          /* the decision being built or pending: Work.dtop or Work.dsub */
  int top_ready;          /* dtop and topt are those of the decision the snapshot was taken at */
  uint8_t snap_top;       /* the snapshot was taken at a top-level decision (not the setup's) */
  uint8_t live_same;      /* the state differs from the snapshot in State.c at most */
  uint8_t same_before;    /* live_same before the last top-level answer was taken */
  uint64_t odirty[(MAX_SLOTS + 63) / 64]; /* State.obj slots written since the snapshot was taken or restored
                           * (bit i: slot i, obj_w): the others are the same in both */
  uint32_t lki_dirty;     /* State.lki entries written since the snapshot was taken or restored (bit i: entry i):
                           * the others are the same in both (lki_keep is the only writer) */
  char illegal[512];      /* why the last action was refused */
  const char *limit_what; /* the capacity a JMP_LIMIT exceeded (game_limit), and its size */
  int limit_cap;
  int illegal_status;
  /* the log */
  char *text;
  size_t tlen, tcap;
  LogEnt *ent;
  int nent, entcap, committed;
  long dropped;
  long budget;            /* the most lines the log may hold, dropped ones included; 0: no limit */
  long search_budget;     /* the steps a search for a legal choice may take (509.1c); 0: SEARCH_BUDGET */
  int vocab_seen;         /* lines before this one were checked against the vocabulary (mtg_game_check) */
  /* trigger listener index, rebuilt when abilities may have changed */
  uint32_t li_epoch;
  int16_t *li;            /* [TE_COUNT][...] (slot, ability) pairs */
  int li_n[TE_COUNT];
  int li_cap;
  int have_statics;       /* any static ability with a condition */
  int in_sba;
  /* The last state-based action check found nothing to do and changed
   * nothing it would change again (sba.c): while no object has been written
   * (owrites), no batch of events performed (batches) and epoch has not
   * moved since, the next check finds the same nothing. */
  uint32_t owrites;           /* calls of obj_w */
  uint32_t batches;           /* batches of events performed (perform.c), whatever they change */
  uint32_t sba_epoch, sba_batches, sba_owrites;
  int sba_clean;
  int hypothetical;       /* computing characteristics as they would be (614.12) */
  int hyp_slot, hyp_ctl;  /* chars() of hyp_slot answer as it would enter (-1: none) */
  uint32_t hyp_epoch;
  int in_hyp;
  /* scratch stack of event batches (no allocation per event) */
  Event *evstack;         /* MAX_EVSTACK events, not zeroed (only used as scratch) */
  int evtop;
  /* replacement marks inherited by events an "instead" creates (614.5) */
  uint32_t inh[64];
  int ninh;
  /* tokens made by the current create_token event */
  int *tok_out;
  int tok_max, tok_n;
  uint32_t abil_epoch, li_abil;
  /* the activated abilities of the objects outside libraries and the stack
   * that can be activated from where they are, in slot order, as the priority
   * listing found them (turn.c): valid while act_ok and act_epoch == epoch,
   * since what adds, moves or changes an object, or its abilities, moves epoch */
  ActRef *act;
  int act_n, act_cap;
  uint32_t act_epoch;
  uint8_t act_ok;
  int nstrs;              /* Work.strs */
  int defer_trig_log;
  uint32_t dmg_seen[64];  /* damage triggers already found in this batch (603.2c) */
  int16_t dmg_pend[64][2]; /* the pending triggers each made: [first, end) */
  int ndmg_seen;
  int ndcand;             /* Work.dcand */
  /* objects whose entering the battlefield is being modified (614.13) */
  uint32_t entering[16];
  int nentering;
  uint32_t prev_key[16];  /* Work.prev_ev */
  int nprev;
  int nrider;             /* Work.rider */
  int nmtq;               /* Work.mtq */
  uint8_t in_mtq;         /* the queue is being resolved: a mana event of one of its abilities adds to it, no deeper */
  uint8_t collecting;        /* trig_lookback / trig_detect gather dcand */
  uint8_t batch_draw;        /* the batch being scanned makes every remaining player lose (104.4a) */
  int push_failed;        /* choose_modes_targets found no legal choice (603.3c/d) */
  const Lki *act_lki;     /* the source of the ability being activated as it was before its costs (EV_ACTIVATE) */
  const TrigCtx *tgt_tc;  /* the trigger of a triggered ability whose targets are being chosen or checked */
  int32_t tgt_x;          /* the X of the spell or ability whose targets are being chosen or checked (601.2b before 601.2c) */
  uint64_t pool_hash;
};

typedef struct mtg_game G;

#endif
