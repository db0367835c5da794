/* card.h - compiled card definitions: characteristics and abilities as data.
 *
 * The YAML card format (docs/cards.md) is compiled by cardload.c into these
 * structures. Abilities are built from a small vocabulary: effect steps
 * (Node with op S_*), values (E_*), selectors of objects and players (SL_*),
 * conditions (C_*), object filters (Filter), trigger patterns (TrigPat),
 * replacement patterns (ReplSpec) and continuous effects (StaticSpec).
 * Definitions are immutable once loaded and shared by every game. */
#ifndef CARD_H
#define CARD_H

#include <stdint.h>

#include "mtg_private.h"

/* ---- characteristics ---- */

enum { COL_W, COL_U, COL_B, COL_R, COL_G, COL_C, COL_COUNT };
#define COLORS_ALL 0x1f

enum {
  T_ARTIFACT = 1 << 0, T_BATTLE = 1 << 1, T_CREATURE = 1 << 2, T_ENCHANTMENT = 1 << 3,
  T_INSTANT = 1 << 4, T_KINDRED = 1 << 5, T_LAND = 1 << 6, T_PLANESWALKER = 1 << 7,
  T_SORCERY = 1 << 8, T_DUNGEON = 1 << 9, /* 309: not a permanent type */
  /* nontraditional card types of the casual variants (311, 312, 314) */
  T_PLANE = 1 << 10, T_PHENOMENON = 1 << 11, T_SCHEME = 1 << 12
};
#define N_CARD_TYPES 13
#define T_VARIANT_CARD (T_PLANE | T_PHENOMENON | T_SCHEME)
#define T_PERMANENT (T_ARTIFACT | T_BATTLE | T_CREATURE | T_ENCHANTMENT | T_LAND | T_PLANESWALKER)
enum { ST_BASIC = 1, ST_LEGENDARY = 2, ST_SNOW = 4, ST_WORLD = 8, ST_ONGOING = 16 /* 314, 904.11 */ };

/* Keywords the engine implements as rules (bit numbers). */
enum {
  KW_FLYING, KW_REACH, KW_HASTE, KW_VIGILANCE, KW_DEFENDER, KW_FIRST_STRIKE,
  KW_DOUBLE_STRIKE, KW_TRAMPLE, KW_DEATHTOUCH, KW_LIFELINK, KW_INDESTRUCTIBLE,
  KW_HEXPROOF, KW_SHROUD, KW_INFECT, KW_SHADOW, KW_PROTECTION_ALL, KW_PROT_W,
  KW_PROT_U, KW_PROT_B, KW_PROT_R, KW_PROT_G, KW_PROT_MULTICOLOR_SPELLS,
  KW_CANT_BE_COUNTERED, KW_FLASH, KW_MENACE, KW_UNDYING, KW_PERSIST,
  KW_STORM, KW_START_YOUR_ENGINES, KW_SPACE_SCULPTOR, KW_PHASING, KW_EXALTED, KW_PROWESS,
  /* evasion and combat keywords (702.36, 702.13, 702.118, 702.31, 702.25, 702.80,
   * 702.22, 702.14 for the basic land types, 701.43d) */
  KW_FEAR, KW_INTIMIDATE, KW_SKULK, KW_HORSEMANSHIP, KW_FLANKING, KW_WITHER, KW_BANDING,
  KW_PLAINSWALK, KW_ISLANDWALK, KW_SWAMPWALK, KW_MOUNTAINWALK, KW_FORESTWALK, KW_EXERT,
  KW_CHANGELING, /* 702.73a: a characteristic-defining ability, "this object is every creature type" */
  KW_SOULBOND,   /* 702.95a: stands for its pairing triggered abilities */
  KW_EXTORT,     /* 702.101: a triggered ability */
  KW_CASCADE,
  KW_PARTNER,    /* 702.124: two commanders if both have it (checked by the setup, 903.3c) */
  KW_CONVOKE,    /* 702.51: creatures tapped rather than mana paid (cost.c) */
  KW_IMPROVISE,  /* 702.126: artifacts tapped rather than generic mana paid */
  KW_DELVE,      /* 702.66: graveyard cards exiled rather than generic mana paid */
  KW_COUNT
};
/* Keyword abilities with a parameter, kept as abilities (AB_KEYWORD, Ability.kw):
 * "protection from [quality]" (702.16a), "[quality] landwalk" (702.14a),
 * "bands with other [quality]" (702.22b), "toxic N" (702.164a, its N in Ability.kwn). */
enum { PK_PROTECTION = 1, PK_LANDWALK, PK_BANDS_WITH_OTHER, PK_TOXIC };
extern const char *const kw_names[KW_COUNT];

typedef struct ManaCost {
  uint8_t generic;
  uint8_t colored[COL_COUNT]; /* W U B R G C (C: colorless-specific {C}) */
  uint8_t hybrid[4][2];       /* pairs of colors, e.g. {G/W} */
  uint8_t nhybrid;
  uint8_t phyrexian[5];       /* Phyrexian symbols {W/P} ... {G/P}: one mana of the color or 2 life (107.4f) */
  uint8_t x;                  /* number of {X} */
  uint8_t present;            /* 0: no mana cost at all (e.g. lands) */
} ManaCost;

int mana_value(const ManaCost *c);
void mana_add(ManaCost *a, const ManaCost *b, int n);
uint8_t mana_colors(const ManaCost *c);

/* ---- AST ---- */

typedef struct Node Node;
typedef struct Filter Filter;
typedef struct Ability Ability;
typedef struct CardDef CardDef;

/* Operations. S_* effect steps, E_* integer values, SL_* selectors, C_* conditions. */
#define OPS(X)                                                                              \
  X(S_SEQ) X(S_DAMAGE) X(S_DRAW) X(S_GAIN_LIFE) X(S_LOSE_LIFE) X(S_SET_LIFE) X(S_DESTROY) \
  X(S_EXILE) X(S_SACRIFICE) X(S_BOUNCE) X(S_PUT_BATTLEFIELD) X(S_COUNTER) X(S_MILL)       \
  X(S_DISCARD) X(S_SHUFFLE_INTO) X(S_PUT_LIBRARY) X(S_SHUFFLE) X(S_SEARCH) X(S_TOKEN) X(S_PUT_COUNTERS)    \
  X(S_REMOVE_COUNTERS) X(S_DOUBLE_COUNTERS) X(S_TAP) X(S_UNTAP) X(S_PUMP) X(S_GRANT)      \
  X(S_GAIN_CONTROL) X(S_ADD_MANA) X(S_WIN) X(S_LOSE) X(S_MAY) X(S_IF) X(S_FOR_EACH)       \
  X(S_CHOOSE) X(S_DELAYED) X(S_REFLEXIVE) X(S_REPLACE_NEXT) X(S_PREVENT) X(S_REGENERATE)  \
  X(S_ATTACH) X(S_FIGHT) X(S_COPY_SPELL) X(S_CHANGE_TARGET) X(S_REVEAL) X(S_UNLESS)       \
  X(S_EXTRA_TURN) X(S_RETURN) X(S_ANY_PLAYER_MAY) X(S_SKIP) X(S_NOTE) X(S_EXILE_TOP)      \
  X(S_LOSE_ABILITY) X(S_GRANT_ABILITY) X(S_CLEAR_COUNTERS) X(S_MUST_BLOCK)                \
  X(S_EXILE_GRAVEYARD) X(S_SHUFFLE_GRAVEYARD) X(S_CAST_FREE) X(S_PHASE_OUT) X(S_PAY_ANY_NUMBER) X(S_TRANSFORM)   \
  X(S_VENTURE) X(S_CAST_TRANSFORMED) X(S_SCRY) X(S_SURVEIL) X(S_PLAY_FREE) X(S_ABANDON) X(S_PLANESWALK)             \
  X(S_MONSTROSITY) X(S_RENOWN) X(S_ADD_PHASES) X(S_FLIP) X(S_ROLL_DICE) X(S_BECOMES) X(S_PAIR) X(S_BECOME_COPY) X(S_PROLIFERATE) X(S_LOOK_TOP)  \
  X(S_CLASH)                                                                             \
  X(S_EXILE_UNTIL) X(S_LAND_PLAYS) X(S_REPLACEMENT) X(S_PLAY_EXILED) X(S_CAST) X(S_CASCADE) X(S_MANIFEST)         \
  X(S_PAY) X(S_REORDER_GRAVEYARD) X(S_LOOK_HAND) X(S_EXPLORE) X(S_SADDLE) X(S_CREWED) X(S_CLASS_LEVEL) X(S_TOKEN_COPY)                         \
  X(E_INT) X(E_X) X(E_AMOUNT) X(E_COUNT) X(E_POWER) X(E_TOUGHNESS) X(E_LIFE) X(E_HAND)     \
  X(E_LIBRARY) X(E_COUNTERS) X(E_SUM) X(E_DIFF) X(E_MUL) X(E_MIN) X(E_MAX) X(E_HALF)      \
  X(E_PREVENTED) X(E_DEVOTION) X(E_CHOSEN) X(E_STORM) X(E_RESOLUTIONS) X(E_MANA_VALUE) X(E_NEG)            \
  X(E_KICKED) X(E_KICK_N) X(E_PAID) X(E_RESULT) X(E_DAMAGE_ON) X(E_LOYALTY) X(E_NOTED) X(E_HISTORY) X(E_GREATEST) X(E_LIFE_LOST) X(E_STARTING_LIFE) X(E_CLASS_LEVEL) \
  X(SL_SELF) X(SL_YOU) X(SL_TARGET) X(SL_TARGETS) X(SL_EACH) X(SL_EACH_PLAYER)            \
  X(SL_EACH_OPPONENT) X(SL_IT) X(SL_TRIG_PLAYER) X(SL_TRIG_SOURCE) X(SL_ENCHANTED)        \
  X(SL_EQUIPPED) X(SL_CONTROLLER_OF) X(SL_OWNER_OF) X(SL_LINKED) X(SL_CHOSEN)             \
  X(SL_ACTIVE) X(SL_DEFENDING) X(SL_RESULT) X(SL_TOP) X(SL_UNION) X(SL_NONE)              \
  X(SL_TRIG_TARGET) X(SL_ATTACHED_TO_IT) X(SL_LINKED_ANY) X(SL_ITS_CONTROLLER) X(SL_CHOOSE)  \
  X(SL_REMEMBERED) X(SL_THIS_CARD) X(SL_TRIG_STACK)                                                     \
  X(C_TRUE) X(C_NOT) X(C_ALL) X(C_ANY) X(C_CMP) X(C_EXISTS) X(C_YOUR_TURN) X(C_KICKED)     \
  X(C_IS) X(C_DID) X(C_HAD_COUNTERS) X(C_IN_ZONE) X(C_CHOSEN_IS) X(C_TRIGGERED_IS)        \
  X(C_CAST_FROM) X(C_ADDL_PAID) X(C_CAST_WITH) X(C_NEW_SINCE_UPKEEP)

enum op {
#define X(n) n,
  OPS(X)
#undef X
      OP_COUNT
};
extern const char *const op_names[OP_COUNT];

enum cmp { CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE };
enum dur { DUR_FOREVER, DUR_EOT, DUR_NEXT_TURN, DUR_SOURCE_LEAVES, DUR_USED, DUR_COMBAT,
           DUR_SOURCE_TAPPED,     /* "for as long as [this] remains tapped" */
           DUR_SOURCE_CTL_TAPPED  /* "for as long as you control [this] and it remains tapped" */ };

/* Player relations used by filters and patterns. */
enum rel { R_ANY, R_YOU, R_OPP, R_ACTIVE, R_NOT_YOU, R_CHOSEN, R_TARGET, R_OWNER, R_TRIGGERING, R_DEFENDING,
           R_ITS_CONTROLLER /* the controller of `it` (in a filter's `if`, the candidate) */ };

struct Filter {
  uint32_t types_any;    /* at least one of these card types */
  uint32_t types_all;    /* all of these */
  uint32_t types_none;   /* none of these */
  uint8_t super_any, super_none;
  const char *subtypes[4]; /* any of these subtypes */
  uint8_t nsub;
  const char *not_subtype;
  uint8_t colors_any, colors_none;
  int8_t colored;        /* 1 colored, 0 colorless, -1 any */
  int8_t multicolored;   /* 1 yes, 0 no, -1 any */
  uint8_t controller;    /* enum rel */
  uint8_t owner;         /* enum rel */
  uint8_t other;         /* not the source itself */
  int8_t tapped;         /* 1 tapped, 0 untapped, -1 any */
  int8_t token;          /* 1 token, 0 nontoken, -1 any */
  int8_t attacking, blocking; /* -1 any */
  int8_t spell;          /* an object on the stack that is a spell */
  int8_t zone;           /* -1: battlefield (default for permanents); -2 any zone */
  const char *name;      /* exact name */
  int8_t chosen_color;   /* 1: of the color chosen for the source (607.2d) */
  int8_t chosen_name;    /* 1: with the name chosen for the source */
  const char *chosen_label; /* the choice's label ("color" / "name" when true was given) */
  int8_t pow_cmp, mv_cmp, tough_cmp;
  int16_t pow_val, mv_val, tough_val;
  uint64_t kw_has, kw_not;
  const char *counter;   /* has at least one counter of this kind */
  const char *no_counter;/* has no counter of this kind */
  const Filter *not_f;   /* and does not match this */
  const Node *cond;      /* extra condition evaluated with `it` = candidate */
  uint8_t card;          /* a card (not a token or copy) */
  uint8_t blocking_or_blocked_by_self;
  uint8_t enchanted_by_self; /* attached to: the object the source is attached to */
  uint8_t linked;        /* "exiled with [this]" is handled by SL_LINKED */
  uint8_t player_target; /* filter over players: 1 players allowed */
  uint8_t player_rel;    /* enum rel for players */
  uint8_t any_target;    /* creature, player, planeswalker or battle (115.4) */
  uint8_t stack_ability; /* an activated or triggered ability on the stack */
  uint8_t single_target; /* a spell with a single target (Misdirection) */
  const Filter *targets_f; /* a spell or ability with a target matching this ("spell that targets a permanent you control") */
  uint8_t entered_with_self; /* put onto the battlefield by the source (607.2c) */
  const Filter *or_f;    /* or matches this instead */
  const Node *share_color; /* shares a color with an object of this selector */
  const Node *same_name;   /* has the same name as an object of this selector (201.2a) */
  const Node *other_than;  /* is none of the objects of this selector */
  const Node *one_of;      /* is one of the objects of this selector */
  uint8_t self_only;       /* is the source itself ("this creature") */
  int8_t unblocked;        /* 1: an unblocked attacking creature (509.1h), 0: not one, -1 any */
  int8_t renowned, monstrous; /* designations (702.112b, 701.37b); -1 any */
  int8_t saddled;           /* 702.171b: 1 saddled, 0 not, -1 any */
  uint8_t mana_spent_color; /* shares a color with the mana spent to activate the resolving ability */
  uint8_t attached_player;  /* attached to a player of this relation + 1 ("Curses attached to you"); 0 any */
  int8_t paired;            /* 1 paired with a creature, 0 unpaired (702.95b), -1 any */
  uint8_t paired_with_self; /* the creature the source is paired with */
};

struct Node {
  uint16_t op;
  uint16_t n;         /* number of kids */
  int32_t i;          /* integer parameter (literal, index, comparison, ...) */
  int32_t j;          /* second integer parameter */
  const char *s;      /* string parameter (label, counter kind, mana, ...) */
  const Filter *f;    /* filter parameter */
  Node **k;           /* parameters by position (see cardload.c op table) */
  const Ability *ab;  /* an ability carried by the step (delayed trigger, replacement, token) */
  const CardDef *def; /* token definition */
  int line, col;      /* position in the card file, for messages */
};

/* ---- abilities ---- */

enum abkind { AB_SPELL, AB_ACTIVATED, AB_TRIGGERED, AB_STATIC, AB_REPLACEMENT, AB_KEYWORD };

/* Trigger events. */
enum trig_ev {
  TE_ENTERS, TE_DIES, TE_LEAVES, TE_ZONE, TE_CAST, TE_DRAW, TE_DAMAGE, TE_GAIN_LIFE,
  TE_LOSE_LIFE, TE_STEP, TE_ATTACKS, TE_BLOCKS, TE_BLOCKED, TE_TAPPED, TE_UNTAPPED,
  TE_COUNTERS, TE_LOSES, TE_COUNTERED, TE_DISCARD, TE_SACRIFICE, TE_UNATTACHED,
  TE_CONTROL_LOST, TE_MANA, TE_STATE, TE_REVEAL, TE_ACTIVATE, TE_PREVENTED, TE_PHASED_OUT, TE_FACE_UP, TE_TRIGGERED,
  TE_CHAPTER,  /* a Saga's chapter ability (714.2b); cardtype.c */
  TE_ROOM,     /* a dungeon's room ability (309.4c): fired by venturing, never by an event */
  TE_DEFEATED, /* the last defense counter is removed from a battle (310.11b) */
  TE_SET_IN_MOTION, TE_PLANESWALK_TO, TE_PLANESWALK_AWAY, /* 904.9, 901.11 */
  TE_CYCLE,    /* a card is cycled: discarded to pay a cycling ability's cost (702.29c) */
  TE_TARGETED,       /* becomes the target of a spell or ability (115.1, 601.2c) */
  TE_COUNTERS_REMOVED,
  TE_UNBLOCKED, /* "attacks and isn't blocked" (509.3g) */
  TE_EXERTED,   /* a permanent is exerted (701.43) */
  TE_BECOMES,   /* a permanent becomes monstrous or renowned (701.37b, 702.112b) */
  TE_COUNT
};

typedef struct TrigPat {
  uint8_t ev;
  uint8_t self;          /* the object is this object */
  uint8_t self_or_other; /* "this or another [filter]" */
  const Filter *obj;     /* the object involved */
  uint8_t player;        /* enum rel: whose turn/step, who drew, who gained life ... */
  int8_t from, to;       /* zones (-1 any) for TE_ZONE */
  const Filter *src;     /* damage source filter */
  uint8_t src_self;      /* damage dealt by this object */
  uint8_t to_self;       /* damage dealt to this object */
  int8_t combat;         /* 1 combat damage only, 0 noncombat only, -1 any */
  uint8_t to_player;     /* damage to a player */
  int8_t step;           /* TE_STEP */
  const Node *state;     /* TE_STATE: the condition */
  const char *counter;   /* TE_COUNTERS kind */
  uint8_t once_per_turn; /* 603.2i */
  uint8_t from_anywhere; /* "put into a graveyard from anywhere": not a leaves trigger */
  uint8_t lookback;      /* computed: 603.10 */
  uint8_t attached;      /* the object is the one this is attached to */
  uint8_t mana_ability;  /* triggered mana ability (605.1b) */
  uint8_t this_way;      /* only events caused by this object ("this way", 603.11) */
  uint8_t chapter;       /* TE_CHAPTER: the chapter number N (714.2a) */
  uint8_t alone;         /* TE_ATTACKS: only when it is the one creature declared as an attacker (506.5) */
  uint8_t nth;           /* TE_CAST, TE_DRAW: only the player's Nth spell / card this turn */
  uint8_t nth_in_turn;   /* TE_CAST: nth counts every player's spells ("the fourth spell of a turn") */
  int8_t tap_cost;       /* TE_ACTIVATE: 1 only abilities with {T} in their activation cost, 0 only without, -1 any */
  uint8_t by;            /* enum rel: TE_TARGETED who controls the spell or ability; TE_ZONE who moved it */
  uint8_t by_kind;       /* TE_TARGETED: 0 a spell or an ability, 1 a spell, 2 an ability */
  uint8_t last;          /* TE_COUNTERS_REMOVED: only when the last such counter is removed */
  uint8_t atk_self;      /* TE_BLOCKS: the creature blocked is this object ("blocks this creature") */
  const Filter *atk;     /* TE_BLOCKS: a filter on the creature blocked */
  uint8_t designation;   /* TE_BECOMES: 1 monstrous, 2 renowned, 4 crewed (a crew ability of it resolved, 702.122d),
                          * 5 a Class level (716.2a) */
  uint8_t level;         /* TE_BECOMES 5: the level it becomes */
  uint8_t batch;         /* "one or more": once for all the matching events of one batch, amount = how many */
  uint16_t from_mask;    /* TE_ZONE: from any of these zones (bits; 0: `from`) */
} TrigPat;

/* Replacement and prevention patterns. */
enum repl_ev {
  RE_DRAW, RE_DAMAGE, RE_ZONE, RE_DISCARD, RE_DESTROY, RE_GAIN_LIFE, RE_LOSE_LIFE,
  RE_LOSE_GAME, RE_WIN_GAME, RE_COUNTERS, RE_TOKEN, RE_ENTERS, RE_SKIP_STEP, RE_SACRIFICE,
  RE_POISON, RE_FACE_UP, RE_COUNT
};
enum repl_act {
  RA_MODIFY, RA_INSTEAD, RA_PREVENT, RA_REDIRECT, RA_ETB_TAPPED, RA_ETB_COUNTERS,
  RA_ETB_CHOOSE, RA_ETB_COPY, RA_SKIP, RA_TO_ZONE, RA_REGENERATE, RA_ETB_CONTROLLER,
  RA_AS_INFECT, RA_ETB_TRANSFORMED,
  RA_ETB_TYPES /* "enters as a [subtype] in addition to its other types" (614.1c) */
};

typedef struct ReplSpec {
  uint8_t ev;            /* enum repl_ev */
  uint8_t act;           /* enum repl_act */
  uint8_t self_repl;     /* 614.15 self-replacement */
  uint8_t optional;      /* "you may ... instead" */
  uint8_t self;          /* affects only this object */
  const Filter *obj;     /* affected object */
  uint8_t player;        /* enum rel: affected player */
  const Filter *src;     /* damage source */
  uint8_t src_self;
  int8_t to_kind;        /* damage or counters to: 1 a player, 2 a permanent, 0 either */
  int8_t from, to;       /* zone change (-1 any) */
  uint8_t cause_opp;     /* caused by a spell or ability an opponent controls */
  uint8_t cause_effect;  /* done by an effect, not as a cost ("if an effect would ...") */
  const char *copy_sub;  /* enters_as_copy: a subtype added as an exception (707.9b) */
  const struct StaticSpec *etb_types; /* enters "as a [subtype] in addition to its other types" (alone, or with enters_with) */
  const char *counter;   /* counters: kind (NULL any) */
  int8_t combat;         /* -1 any */
  /* action */
  int8_t mul;            /* modify amount: times */
  int16_t add;           /* modify amount: plus (negative: minus) */
  int8_t floor_one;      /* Worship: reduce to 1 instead */
  int8_t dest;           /* RA_TO_ZONE: new destination zone */
  int8_t dest_shuffle;   /* shuffle into library */
  int8_t dest_bottom;
  const char *dest_counter; /* exile "with a void counter on it" */
  const Node *steps;     /* RA_INSTEAD program; RA_ETB_COUNTERS amount */
  const Node *amount;    /* prevent N (NULL = all) */
  const Node *redirect;  /* RA_REDIRECT: selector of the new recipient */
  int8_t choose_kind;    /* RA_ETB_CHOOSE: color/player/name/word */
  const Filter *take;    /* RA_ETB_CHOOSE exile/sacrifice: the objects that may be chosen (614.13);
                          * RA_ETB_COPY: what may be copied */
  uint8_t copy_self;     /* RA_ETB_COPY: a copy of the effect's source ("enter as a copy of [this]") */
  const Filter *unless_reveal; /* RA_ETB_TAPPED: "you may reveal a [quality] card from your hand. If you don't, it enters tapped" */
  const char *label;     /* link label of the choice or exile (607.2b, 607.2d) */
  const char *const *words;
  uint8_t nwords;
  int8_t step;           /* RA_SKIP step */
  const Node *cond;      /* extra condition */
  uint8_t can_be_prevented_ignored;
  uint8_t has_all_but;   /* RA_PREVENT: "prevent all but all_but of that damage" */
  int16_t all_but;
} ReplSpec;

/* Continuous effects of static abilities (and of resolved effects). */
typedef struct StaticSpec StaticSpec;
enum se_kind {
  SE_PT_MOD, SE_PT_SET, SE_PT_CDA, SE_ADD_TYPES, SE_REMOVE_TYPES, SE_ADD_KEYWORDS,
  SE_REMOVE_KEYWORDS, SE_LOSE_ALL_ABILITIES, SE_ADD_COLORS, SE_SET_COLORS, SE_CONTROL,
  SE_GAIN_ABILITIES,
  /* rule-modifying effects (613.11): checked where the rule applies */
  SE_CANT_LOSE, SE_CANT_WIN, SE_LIFE_CANT_CHANGE, SE_DRAW_LIMIT, SE_NO_LEGEND_RULE,
  SE_CANT_ATTACK, SE_CANT_BLOCK, SE_CANT_ATTACK_OR_BLOCK, SE_CANT_CAST_NAMED,
  SE_COST_MORE, SE_NO_ETB_TRIGGERS, SE_NO_DIES_TRIGGERS, SE_EXTRA_TRIGGER,
  SE_NO_LIFE_LOSS_GAME, SE_CANT_GET_POISON, SE_NO_MINUS_COUNTERS, SE_MAX_COUNTERS,
  SE_CAST_FREE, SE_CANT_SACRIFICE_OPP, SE_LOSE_INFECT, SE_MUST_BLOCK, SE_DAMAGE_AS_INFECT,
  SE_ANY_MANA_FOR_ABILITIES, SE_HAND_SIZE, SE_CANT_REGENERATE, SE_CANT_BE_DESTROYED,
  SE_CANT_DRAW, SE_CANT_GAIN_LIFE, SE_REVEAL_FIRST_DRAW, SE_CAST_AS_FLASH,
  SE_CYCLING_FREE,       /* "you may pay {0} rather than pay cycling costs" */
  /* combat restrictions and requirements (508.1c-d, 509.1b-c) and combat damage (510.1) */
  SE_CANT_BE_BLOCKED, SE_CAN_BLOCK_ONLY, SE_MIN_BLOCKERS, SE_MAX_BLOCKERS, SE_CAN_BLOCK_SHADOW,
  SE_ATTACKS_EACH_COMBAT, SE_BLOCKS_EACH_COMBAT, SE_MUST_BE_BLOCKED, SE_MUST_BE_BLOCKED_BY_ALL,
  SE_ATTACKS_AS_NO_DEFENDER, SE_NO_COMBAT_DAMAGE, SE_DAMAGE_AS_UNBLOCKED, SE_CANT_ATTACK_ALONE,
  SE_CANT_BLOCK_ALONE,
  SE_BLOCK_ADDITIONAL,   /* "can block an additional [n] creature[s] each combat" (509.1a changed) */
  SE_BLOCK_ANY_NUMBER,   /* "can block any number of creatures" */
  SE_HAND_REVEALED, /* a player plays with their hand revealed */
  SE_PLAYER_HEXPROOF, SE_PLAYER_SHROUD, /* "you have hexproof / shroud" (702.11c, 702.18b) */
  SE_CANT_BE_TARGET,     /* "can't be the target of [quality] spells" (115.1) */
  SE_CAST_ONLY_FROM_HAND, /* "can't cast spells from anywhere other than their hands" */
  SE_CANT_CAST,          /* "can't cast [noncreature] spells" (the `spells` card types) */
  SE_VENTURE_LIMIT,      /* "can't venture into the dungeon more than [n] times each turn" */
  SE_DOESNT_UNTAP,       /* "doesn't untap during its controller's untap step" (502.3) */
  SE_MAY_NOT_UNTAP,      /* "you may choose not to untap [this] during your untap step" (502.3) */
  SE_DICE_ADVANTAGE,     /* "if you would roll one or more dice, instead roll that many dice plus one and ignore the lowest roll" */
  SE_CANT_HAVE_COUNTERS, /* "[this] can't have counters put on it" (`counter`: only that kind) */
  SE_FORETELL_COST,      /* "Foretelling cards from your hand costs {N} less [and can be done on any player's turn]" */
  SE_PLAYER_PROTECTION,  /* "you have protection from [quality]" (`other`: the sources; none: everything; 702.16) */
  SE_NO_MAX_HAND_SIZE,   /* "you have no maximum hand size" (402.2) */
  /* not rule effects: */
  SE_COPY,               /* layer 1: "becomes a copy of ..., except ..." (an effect of a resolved ability, 707.9) */
  SE_COUNT
};

/* Which permanents entering or dying a trigger rule effect looks at. */
enum trig_kind { TK_CREATURE = 1, TK_ARTIFACT_OR_CREATURE, TK_PERMANENT };

struct StaticSpec {
  uint8_t kind;          /* enum se_kind */
  uint8_t self;          /* affects the object itself */
  uint8_t attached;      /* affects the object this is attached to */
  const Filter *affected;/* affected objects */
  uint8_t player;        /* enum rel: affected players (rule effects) */
  int16_t a, b;          /* +a/+b, set a/b, max counters a */
  const Node *ea, *eb;   /* computed P/T (CDA, "equal to ...") */
  uint32_t types, supers;/* added/removed card types */
  const char *subtypes[4];
  uint8_t nsub;
  uint8_t colors;
  uint64_t keywords;
  const Node *cond;      /* "as long as ..." */
  const char *counter;   /* SE_MAX_COUNTERS kind */
  uint32_t spell_types;  /* SE_COST_MORE: affected spells (types_none for "noncreature") */
  uint32_t spell_types_none;
  const CardDef *grant_from; /* SE_GAIN_ABILITIES: abilities of this definition */
  uint8_t trig_kind;     /* SE_EXTRA_TRIGGER / SE_NO_*_TRIGGERS: the permanents entering or dying (enum trig_kind) */
  uint8_t trig_dies;     /* SE_EXTRA_TRIGGER: dying, not entering, causes the additional trigger */
  const char *label;     /* chosen-name link */
  const Node *when_used; /* SE_CAST_AS_FLASH: done when a spell is cast this way (603.7g) */
  /* combat rules: the other creature of the pair ("can't be blocked by [filter]",
   * "can't block [filter]"; `self_only`: the effect's source), and "unless [condition]" */
  const Filter *other;
  const Node *unless;
  /* add_keywords: keyword abilities with a parameter (protection from a quality,
   * landwalk, bands with other), as the AB_KEYWORD abilities of this definition;
   * protection from the color chosen for the source (607.2d): the choice's label */
  const CardDef *kw_abs;
  const char *prot_chosen;
  /* 613.6: the next part of the same effect, in a later layer ("are 2/2
   * artifact creatures": layer 4, then 7b); it applies to the objects the
   * first part applied to */
  const struct StaticSpec *part;
};

/* How many targets one "target" word asks for (601.2c): one, "any number of
 * target ..." (none to as many as the capacity allows), "X target ..." (X
 * as announced, 601.2b: the X of the mana cost, or TN_PAID the amount of a
 * variable additional cost, "discard X cards"). */
enum { TN_ONE, TN_ANY, TN_X, TN_PAID };

typedef struct TargetSpec {
  const Filter *f;       /* what can be targeted */
  uint8_t optional;      /* "up to one" */
  uint8_t number;        /* TN_*: a variable number is the mode's last spec */
  uint8_t distinct_from_prev;
  uint8_t by_trig_player; /* "of their choice": the trigger event's player chooses it (603.3d, 601.2c) */
  const char *prompt;
} TargetSpec;

#define MAX_TARGETS 4
#define MAX_MODES 5

typedef struct Mode {
  TargetSpec t[MAX_TARGETS];
  uint8_t nt;
  uint8_t var;           /* its last spec asks for a variable number of targets (one such mode per ability) */
  const Node *effect;
  const Node *divide;    /* its damage step `divided` among the targets (601.2d), or NULL */
  const char *text;
} Mode;

/* Costs other than mana. */
enum cost_kind {
  CK_TAP, CK_UNTAP, CK_SAC_SELF, CK_SAC, CK_PAY_LIFE, CK_EXILE_SELF, CK_EXILE_HAND,
  CK_EXILE_TOP, CK_EXILE_GRAVEYARD, CK_REMOVE_COUNTERS, CK_ADD_COUNTERS, CK_DISCARD,
  CK_LOYALTY, CK_RETURN_UNBLOCKED, CK_EXILE_GRAVEYARD_N,
  CK_DISCARD_SELF,       /* "Discard this card": an ability that functions in a hand */
  CK_TAP_OTHERS,         /* "Tap N untapped [quality] you control" (the source too, if it has the quality) */
  CK_RETURN_OWN,         /* "return a [quality] you control to its owner's hand" */
  CK_TAP_POWER,          /* "Tap any number of other untapped creatures you control with total power N
                          * or greater" (crew 702.122a, saddle 702.171a): f the creatures, n the power */
  CK_PAY_COUNTERS        /* n counters of kind `counter` removed from the paying player: "Pay {E}{E}"
                          * (107.14), a ticket cost (107.17a) */
};
typedef struct CostPart {
  uint8_t kind;
  uint8_t sets_x;          /* CK_EXILE_HAND: X is the exiled card's mana value ("with mana value X") */
  int16_t n;
  const char *counter;
  const Filter *f;
} CostPart;
#define MAX_COST_PARTS 4

typedef struct Cost {
  ManaCost mana;
  CostPart part[MAX_COST_PARTS];
  uint8_t nparts;
  const char *label_for_exile; /* cards exiled by this cost are linked (607.2q) */
} Cost;

#define AB_ZONE_ANY (-2)     /* a triggered ability that triggers from whatever zone its card is in (702.29c) */

struct Ability {
  uint8_t kind;            /* enum abkind */
  uint8_t index;           /* position on the card */
  const char *label;       /* linked-ability label (607) */
  const char *text;        /* rules text for logs and docs */
  /* spells, activated and triggered abilities */
  Mode modes[MAX_MODES];
  uint8_t nmodes;          /* 1: not modal */
  uint8_t mode_min, mode_max;
  uint8_t kmode_min, kmode_max; /* kicked: "if this spell was kicked, choose any number instead" (0: as unkicked) */
  /* activated */
  Cost cost;
  uint8_t sorcery;         /* activate only as a sorcery */
  uint8_t loyalty;         /* loyalty ability (606) */
  uint8_t mana;            /* mana ability (605), computed */
  uint8_t once_per_turn;
  uint8_t any_player;      /* "any player may activate this ability" (602.2) */
  int8_t zone;             /* zone the ability functions in (-1: battlefield; AB_ZONE_ANY: wherever the object is) */
  uint8_t equip;           /* equip: attach to target creature you control, sorcery */
  uint8_t ninjutsu;
  uint8_t cycling;         /* a cycling or typecycling ability (702.29): its cost but the discard is the cycling cost */
  /* triggered */
  TrigPat trig;
  const Node *cond;        /* intervening "if" (603.4) */
  uint8_t delayed_once;    /* delayed trigger without duration (603.7b) */
  const TrigPat *alt;      /* more trigger events of one ability ("at the beginning of your upkeep or
                            * whenever you cast a black spell", "attacks or blocks") */
  uint8_t nalt;
  /* static */
  StaticSpec st;
  /* replacement / prevention */
  ReplSpec rp;
  /* keyword */
  uint8_t kw;              /* AB_KEYWORD: PK_* */
  uint8_t kw_of;           /* this ability is what keyword kw_of - 1 means (702): it comes and goes with the keyword */
  const Filter *kwf;       /* its quality: what protection is from, the land of landwalk */
  int16_t kwn;             /* its number: the N of toxic N */
  Cost kicker;             /* additional optional cost (kicker), or flashback cost */
  uint8_t has_kicker;
  uint8_t flashback;
  uint8_t alt_cost_exile_blue; /* Misdirection's alternative cost */
  uint8_t uncounterable;   /* "this ability can't be countered" (603.1a) */
  const Node *x_rule;      /* chalice: X fixed, etc. */
};

/* A dungeon's room (309.4): its room ability and the rooms its arrows lead to.
 * Rooms are listed top to bottom; room 0 is the topmost, the one without
 * exits the bottommost. */
#define MAX_ROOM_EXITS 4
typedef struct Room {
  const char *name;        /* flavor (309.4b), but names the room in setups and logs */
  uint8_t ab;              /* index of its room ability in CardDef.ab */
  uint8_t next[MAX_ROOM_EXITS];
  uint8_t nnext;
} Room;

/* Ways a spell may be cast other than for its mana cost (601.2b): the
 * alternative cost paid, recorded on the spell and the permanent it becomes. */
enum alt_cost {
  ALT_NONE, ALT_FLASHBACK /* 702.34 */, ALT_DASH /* 702.109 */, ALT_ESCAPE /* 702.138 */,
  ALT_FORETELL /* 702.143 */, ALT_MIRACLE /* 702.94 */, ALT_JUMP_START /* 702.133 */,
  ALT_RETRACE /* 702.81 */, ALT_AFTERMATH /* 702.127 */, ALT_FREE /* without paying its mana cost */,
  ALT_ALTERNATIVE /* 118.9: a card's own "rather than pay this spell's mana cost" */, ALT_EVOKE /* 702.74 */,
  ALT_MADNESS /* 702.35 */, ALT_DISTURB /* 702.146 */,
  ALT_SUSPEND /* 702.62a: without paying its mana cost, by its suspend ability */, ALT_COUNT
};
extern const char *const alt_names[ALT_COUNT];

/* The label linking a card's madness replacement to its madness trigger
 * (607.2b): the card it exiled is "this card exiled this way" (702.35a) */
#define MADNESS_LINK "madness"

/* The casting keywords of a card (cast.c): the costs it may be cast for or
 * with, and abilities that come with them. Only cards with one have these. */
typedef struct CastKw {
  Cost buyback;            /* 702.27: an optional additional cost; the spell returns to its owner's hand */
  Cost escape;             /* 702.138: mana and other cards to exile from its owner's graveyard */
  Cost splice;             /* 702.47: the splice cost */
  Cost evoke;              /* 702.74: an alternative cost, mana and other parts */
  ManaCost dash, foretell, miracle, madness, disturb; /* 702.109, 702.143, 702.94, 702.35, 702.146 */
  const char *splice_onto; /* "Splice onto [subtype]" */
  const Ability *miracle_trig; /* "When you reveal this card this way, you may cast it ..." (702.94a) */
  const Ability *madness_trig; /* "When this card is exiled this way, its owner may cast it ..." (702.35a) */
  const Ability *dash_return; /* "return the permanent this spell becomes to its owner's hand at the beginning of the next end step" */
  ManaCost suspend;        /* 702.62a: "Suspend N--[cost]": the cost of the special action */
  uint8_t suspend_time;    /* its N: the time counters the card is exiled with (0: no suspend) */
  uint8_t has_buyback, has_escape, has_splice, has_dash, has_foretell, has_miracle, has_evoke, has_madness, has_disturb;
  uint8_t retrace, jump_start; /* 702.81, 702.133 */
  uint8_t multikicker;     /* 702.33c: its kicker cost may be paid any number of times */
} CastKw;

#define MAX_SUBTYPES 4
struct CardDef {
  const char *name;
  ManaCost cost;
  uint32_t types;
  uint8_t supers;
  const char *subtypes[MAX_SUBTYPES];
  uint8_t nsub;
  uint8_t colors;          /* from the cost, or the color indicator */
  uint8_t has_pt;
  int16_t power, toughness;
  int16_t loyalty, defense;
  uint8_t has_loyalty;
  uint64_t keywords;       /* keyword abilities */
  const Ability *ab;
  uint8_t nab;
  const char *text;        /* Oracle text */
  uint8_t token;           /* defined as a token */
  uint8_t leyline;         /* may begin the game on the battlefield */
  const Filter *enchant;   /* Aura: what it can enchant (303.4) */
  const Filter *equip_f;   /* Equipment / Fortification: what it can be attached to */
  ManaCost kick[3];        /* kicker costs (702.33b: "Kicker [cost1] and/or [cost2]") */
  uint8_t nkick;
  Cost addl;               /* additional cost to cast it (601.2b); a part with n = -1 is variable */
  uint8_t has_addl, addl_optional;
  Cost alt;                /* "You may pay [cost] rather than pay this spell's mana cost" (118.9) */
  uint8_t has_alt;
  const Node *costs_less;  /* "This spell costs {N} less to cast" (601.2f): generic mana, a value */
  ManaCost strive;         /* strive: "costs [this] more to cast for each target beyond the first" (601.2f) */
  uint8_t has_strive;
  const Node *alt_if;      /* "As long as [condition], you may pay [cost] to cast this spell" */
  const char *addl_label;  /* cards exiled to pay it are linked to this label (607.2q) */
  const CardDef *back;     /* the back face of a double-faced card (712) */
  const CardDef *flip;     /* a flip card's alternative characteristics (710.1b) */
  uint8_t modal;           /* a modal double-faced card: either face may be cast or played (712.3, 712.11b, 712.12) */
  const CardDef *half[2];  /* a split card's halves (709); the card itself has their combined characteristics (709.4) */
  uint8_t split;           /* a split card: both halves are set (the loader takes exactly two) */
  const CardDef *adventure; /* an adventurer card's Adventure (715.2): face 1 */
  uint8_t aftermath;       /* this half can be cast only from a graveyard, and is then exiled (702.127a) */
  uint8_t fuse;            /* both halves may be cast together from a hand (702.102) */
  const CastKw *cast;      /* casting keywords, or NULL */
  Cost morph;              /* face-down: the cost to turn it face up (702.37) */
  uint8_t has_morph;
  uint8_t ctl_static;      /* one of ab is a static control-changing ability (SE_CONTROL): asked of each
                            * permanent after each batch (layer.c control_watch), set with ab (def_abilities) */
  uint8_t megamorph;       /* turned up for its megamorph cost: a +1/+1 counter (702.37b) */
  const Room *rooms;       /* dungeons (309.4) */
  uint8_t nrooms;
  const char *file;        /* where it was defined */
  int line;
  uint64_t hash;
  const char *yaml;        /* the definition written back canonically (yemit), for replays */
};

#endif
