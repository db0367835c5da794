/* internal.h - the engine's internal API, grouped by module. Each group's
 * functions carry the module's prefix and live in the file named for it. */
#ifndef INTERNAL_H
#define INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "card.h"
#include "mtg_private.h"
#include "state.h"

/* ---- card.c: the pool ---- */
typedef struct pblock {
  struct pblock *next;
  size_t used, size;
  max_align_t mem[];
} pblock;

struct mtg_pool {
  const mtg_pool *parent;
  CardDef **cards;
  int n, cap;
  pblock *arena;
  const char **tokens;    /* names of the tokens its cards create */
  int ntok, captok;
  int *index;             /* open addressing over names: card index + 1, 0 empty */
  int icap;
  /* what each keyword that stands for an ability means (702), compiled once by a
   * pool without a parent: a printed keyword and one granted by an effect have
   * the same ability (613.1f) */
  const CardDef *kwdef[KW_COUNT];
  uint64_t kwmask;        /* the keywords that have one */
  int *tindex;            /* the same over token names: token index + 1 */
  int tcap;
  size_t max_file;        /* files read whole up to this size (0: INPUT_MAX_DEFAULT) */
  int *faces;             /* cards also found by their other face's name (modal double-faced, 712.3) */
  int nfaces, capfaces;
  int no_texts;           /* cards loaded keep no text (mtg_pool_skip_texts) */
};

void *pool_alloc(mtg_pool *p, size_t n); /* zeroed */
const char *pool_strdup(mtg_pool *p, const char *s);
int pool_add(mtg_pool *p, CardDef *d);
int pool_add_token(mtg_pool *p, const char *name); /* a token name its cards create */
const CardDef *pool_find(const mtg_pool *p, const char *name);
int pool_kw_init(mtg_pool *p); /* cardload.c: compiles kwdef */
/* The ability keyword kw stands for (its definition in *def), or NULL for a
 * keyword the rules implement directly (flying, lifelink, ...). */
const Ability *pool_kw_ability(const mtg_pool *p, int kw, const CardDef **def);
uint64_t pool_kw_mask(const mtg_pool *p); /* the keywords that stand for an ability */
const CardDef *pool_find_own(const mtg_pool *p, const char *name); /* this pool only, not its parents */
int mana_parse(const char *s, ManaCost *c, int *tap, int *untap, char *why, size_t wsz);
int mana_format(const ManaCost *c, char *buf, size_t size);
typedef struct CounterSymbol {
  const char *sym, *kind, *rule;
} CounterSymbol;
#define N_COUNTER_SYMBOLS 2
extern const CounterSymbol counter_symbols[N_COUNTER_SYMBOLS];
int cost_counter_symbols(const char *s, char *rest, size_t rsz, int n[N_COUNTER_SYMBOLS]);
int mana_add_parse(const char *s, uint8_t *mask, int *one_of, char *why, size_t wsz);
int color_from_char(int ch);
int color_parse(const char *s);
extern const char *const color_names[COL_COUNT];

/* s copied into dst of `size` bytes (size > 0), cut to fit and terminated,
 * as snprintf(dst, size, "%s", s) does, without the formatter's cost. */
static inline void str_copy(char *dst, size_t size, const char *s) {
  size_t n = 0;
  for (; n + 1 < size && s[n]; n++) dst[n] = s[n];
  dst[n] = 0;
}

/* ---- hash.c ---- */
static inline uint64_t hash_mix(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}
uint64_t hash_bytes(uint64_t h, const void *p, size_t n);
uint64_t hash_str(uint64_t h, const char *s);
uint64_t state_hash(G *g);

/* ---- rng.c ---- */
void rng_seed(uint64_t s[4], uint64_t seed);
uint64_t rng_next(uint64_t s[4]);
int rng_below(uint64_t s[4], int n);

/* A function kept out of its callers' frames: its locals (a Ctx, a Sel) are
 * then on the stack only while it runs, not through every nested event its
 * caller performs. */
#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

/* ---- game.c: the segment boundary, decisions and answers ---- */
enum { JMP_DECISION = 1, JMP_ILLEGAL, JMP_NOMEM, JMP_LIMIT, JMP_OVER, JMP_INTERNAL, JMP_BUDGET };
_Noreturn void game_throw(G *g, int code);
/* Stops the run past an engine capacity (JMP_LIMIT), naming it: `what` is a
 * string literal such as "objects on the stack", `cap` the capacity. */
_Noreturn void game_limit(G *g, const char *what, int cap);
_Noreturn void game_illegal(G *g, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* decision building: dec_begin, then dec_opt for each option, then ask; the
 * rule is a string literal (the decision keeps the pointer) */
void dec_begin(G *g, int kind, int player, const char *rule, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
int dec_opt(G *g, int kind, uint32_t obj, uint32_t obj2, int player, int index, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;
void dec_range(G *g, int min, int max);
/* Asks the decision built by dec_*; returns the answer values (count in *n).
 * `top` marks a top-level point where a new segment begins. */
const int *dec_ask(G *g, int top, int *n);
/* A top-level point about to build its decision: 1 if it is the one the
 * snapshot was taken at, asked again by a re-run: its options and g->w->topt
 * stand as built then, and the caller goes straight to dec_ask. */
int dec_resume(G *g);
/* The top-level answer just taken changed nothing but State.c (a pass): the
 * next snapshot copies only that. */
void dec_core_only(G *g);
int ask_pick(G *g);                 /* single pick; returns option index */
int ask_yes_no(G *g, int player, const char *rule, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
int ask_number(G *g, int player, int lo, int hi, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
void game_stop(G *g); /* the game is over: unwinds to the boundary */

/* The index of the lowest bit set in m (m != 0). */
static inline int low_bit(uint64_t m) {
#if defined(__GNUC__)
  return __builtin_ctzll(m);
#else
  int i = 0;
  for (; !(m & 1); m >>= 1) i++;
  return i;
#endif
}

/* ---- zone.c: objects, zones, last known information ---- */
/* The object in `slot`, to be written. Every write to an object goes through
 * here: it marks the slot as possibly differing from the snapshot, and the
 * snapshot and its restore copy only the marked slots (game.c). Reads use
 * g->s->obj directly; built with -DOBJ_WRITE_CHECK the table is const, so a
 * write that bypasses this does not compile (make obj-write-check). */
static inline Obj *obj_w(G *g, int slot) {
  g->odirty[slot >> 6] |= (uint64_t)1 << (slot & 63);
  g->owrites++; /* the state-based action check's key (sba.c) */
  return (Obj *)&g->s->obj[slot];
}
static inline ORef oref(G *g, int slot) { ORef r = {(int16_t)slot, g->s->obj[slot].id}; return r; }
static inline int oref_ok(G *g, ORef r) { return r.slot >= 0 && r.id && g->s->obj[r.slot].id == r.id; }
static inline ORef oref_none(void) { ORef r = {-1, 0}; return r; }
/* The object a zone change made (400.7): check it with oref_ok before use. */
static inline ORef ev_new_obj(const Event *e) { ORef r = {e->new_slot, e->new_id}; return r; }
int obj_by_id(G *g, uint32_t id); /* slot or -1 */
int slot_alloc(G *g);
void slot_free(G *g, int slot);
uint32_t new_id(G *g);
uint32_t new_ts(G *g);
void zl_insert(G *g, int zone, int player, int slot, int pos); /* pos -1: end (top for library is 0) */
void zl_remove(G *g, int zone, int player, int slot);
int zl_count(G *g, int zone, int player);
int16_t *zl_list(G *g, int zone, int player);
/* The battlefield and the command zone are one list each, for all players. */
int bf_count(G *g);
int16_t *bf_list(G *g);
int cmd_count(G *g);
int16_t *cmd_list(G *g);
void cmd_insert(G *g, int slot, int pos);
void cmd_remove(G *g, int slot);
/* Moves the object in slot to zone (400.7: new object id); returns the slot.
 * lib_pos: 0 top, 1 bottom (libraries). */
int zone_move(G *g, int slot, int zone, int lib_pos, int controller);
void lki_of(G *g, int slot, Lki *out);
/* Last known information (608.2h): lki_keep records the object in slot as it
 * is, before it leaves its zone; lki_find gives the newest record of the
 * object with that id, or NULL. */
void lki_keep(G *g, int slot);
const Lki *lki_find(G *g, uint32_t id);
int zone_owner_list(int zone); /* zone has per-player lists */
int ckind_id(G *g, const char *name); /* counter kind index (interned per game) */
const char *ckind_name(G *g, int k);
int counters_get(const Counter *c, int nc, int kind);
int counters_count(const Counter *c, int nc, int kind); /* kind -1: all kinds */
void counters_add(Counter *c, uint8_t *nc, int kind, int n);
enum { CN_PLUS1 = 0, CN_MINUS1 = 1, CN_LOYALTY = 2, CN_POISON = 3 };

/* ---- layer.c: characteristics after continuous effects (613) ---- */
const Chars *chars_get(G *g, int slot); /* chars() when the cache must be consulted */
/* An object's characteristics; cached, and valid until the state changes. */
static inline const Chars *chars(G *g, int slot) {
  if (g->ch_epoch == g->epoch && slot != g->hyp_slot && g->ch_lazy[slot] != 1) return &g->ch[slot];
  return chars_get(g, slot);
}
void chars_dirty(G *g); /* something changed: recompute when next asked */
int chars_current(G *g); /* the cache holds every object as it is, on a plain board */
void chars_kept(G *g);   /* after writes that changed nothing the cache reads: it stays current */
/* What the battlefield's permanents have between them (phased-out ones too). */
const BfSum *bf_sum_get(G *g);
static inline const BfSum *bf_sum(G *g) { return g->sum_epoch == g->epoch ? &g->bfsum : bf_sum_get(g); }
/* A static ability of kind k (enum se_kind) may be on the battlefield. */
static inline int bf_has_static(G *g, int k) { return bf_sum(g)->statics[k >> 6] >> (k & 63) & 1; }
void chars_reset(G *g); /* the same, rebuilding every object from its card (the invariant checker) */
/* The invariant checker's view of the cache (check.c): a copy of all of it,
 * put back (and freed) by chars_restore; chars_forget makes the next chars()
 * compute every object from scratch, as a new game would. */
typedef struct ChSave ChSave;
ChSave *chars_save(G *g); /* NULL: out of memory */
void chars_restore(G *g, ChSave *v);
void chars_forget(G *g);
static inline int obj_types(G *g, int slot) { return (int)chars(g, slot)->types; }
static inline int is_type(G *g, int slot, uint32_t t) { return (chars(g, slot)->types & t) != 0; }
static inline int has_kw(G *g, int slot, int kw) { return (int)(chars(g, slot)->kw >> kw & 1); }
/* 702.16: the object at slot has protection from a source of these colors
 * (src_is_spell: the source is a spell); src: the source's slot, for
 * protection from other qualities (-1: none, only its colors) */
int protected_from(G *g, int slot, int src, uint8_t src_colors, int src_is_spell);
/* 702.16: player p has protection from the object in slot src (a rule effect
 * "you have protection from ..."); *from, when given, gets the effect's source */
int player_protected_from(G *g, int p, int src, ORef *from);
static inline int obj_power(G *g, int slot) { return chars(g, slot)->power; }
static inline int obj_toughness(G *g, int slot) { return chars(g, slot)->toughness; }
static inline int obj_controller(G *g, int slot) { return chars(g, slot)->controller; }
static inline int obj_colors(G *g, int slot) { return chars(g, slot)->colors; }
int obj_mv(G *g, int slot);
static inline const char *obj_name(G *g, int slot) { return chars(g, slot)->name; }
int has_subtype(const Chars *c, const char *sub);
/* an Aura: an enchantment with the subtype Aura (303.4) */
static inline int is_aura(const Chars *c) { return (c->types & T_ENCHANTMENT) && has_subtype(c, "Aura"); }
int is_creature_type(const char *sub); /* 205.3m (subtype.c) */
/* Characteristics of an object as it would exist on the battlefield under
 * controller ctl (614.12); valid until the next chars() call. */
const Chars *chars_as_entering(G *g, int slot, int ctl);
int rule_effect(G *g, int kind, int player, int slot, const StaticSpec **out_spec, ORef *out_src);
struct Ctx;
/* a further test of a rule effect, asked with the effect's source */
typedef int (*rule_also)(G *g, struct Ctx *cx, const StaticSpec *st, int arg);
int rule_effect_if(G *g, int kind, int player, int slot, rule_also also, int arg);
int cant_cast_types(G *g, int player, uint32_t types);
int cant_be_targeted_by(G *g, int slot, int src);
int cant_have_counters(G *g, int slot, int kind); /* 614.17 */
int source_tapped_holds(G *g, ORef src, int dur, int controller);
void control_watch(G *g); /* 302.6, 506.4 after a static control-changing effect begins or ends */
int rule_effect_count(G *g, int kind, int player, int slot, rule_also also, int arg);
int rule_effect_sum(G *g, int kind, int player, int *any);
int effect_add(G *g, const Effect *e); /* returns index */
void effects_expire(G *g, int dur);
void effects_source_left(G *g, uint32_t src_id);
void effects_player_left(G *g, int p); /* 800.4a: effects giving p control of objects end */
void effects_turn_begin(G *g, int player); /* "until your next turn" effects of this player end (611.2a) */
enum { PP_OK = 1, PP_PAY = 2, PP_ANY_MANA = 4, PP_NO_LAND = 8 };
int play_permission(G *g, int player, int slot); /* an effect lets player play this exiled card: 0 or PP_* */
int play_effect_for(const Effect *e, int player);  /* e is a permission in force for player to play a card */
int face_up_to_play(G *g, int player, int slot); /* 406.3a: turns a face-down exiled card it may play face up; 1 if it did */
void face_down_again(G *g, int slot);

/* ---- event.c: the pipeline (replace -> perform -> log -> trigger) ---- */
void ev_init(Event *e, int type);
/* Runs events that happen simultaneously through the whole pipeline. */
void ev_run(G *g, Event *ev, int n);
static inline void ev_one(G *g, Event *e) { ev_run(g, e, 1); }
/* n events of scratch on the event stack (the caller restores evtop after use);
 * JMP_LIMIT past its capacity. */
Event *ev_alloc(G *g, int n);
int ev_applied(const Event *e, uint32_t key);
int can_draw(G *g, int player);
int ev_possible(G *g, Event *e); /* 614.17: can the event happen at all */ /* 614.17b: an impossible draw can't be chosen */
/* helpers that build and run common events */
int do_draw(G *g, int player, int n, int cause_ctl, uint32_t cause_id);
void do_life(G *g, int player, int amount, int cause_ctl, uint32_t cause_id); /* gain (>0) or loss (<0) */
void do_set_life(G *g, int player, int life, int cause_ctl, uint32_t cause_id);
/* Objects moved to a zone (not to a place in a library) together, as one
 * batch. */
void do_move(G *g, int slot, int type, int to, int cause, int cause_ctl, uint32_t cause_id);
void do_move_many(G *g, const int *slots, int n, int type, int to, int cause, int cause_ctl, uint32_t cause_id);
void do_counters(G *g, int slot, int player, int kind, int n, int cause_ctl, uint32_t cause_id);
void do_counters_as(G *g, int slot, int player, int kind, int n, int cause_ctl, uint32_t cause_id, int cause); /* cause: CA_* */
void do_remove_counters(G *g, int slot, int player, int kind, int n);
void do_pay_counters(G *g, int player, int kind, int n);
void do_tap(G *g, int slot, int tap);
void do_lose(G *g, unsigned players, const char *rule);
void do_win(G *g, int player, const char *rule);
void do_shuffle(G *g, int player);
void do_mana(G *g, int player, int color, int n, ORef src);
int do_token(G *g, const CardDef *def, int controller, int n, int cause_ctl, uint32_t cause_id, int *slots, int max);
int do_token_copy(G *g, const CardDef *def, const char *sub, int controller, int n, int cause_ctl, uint32_t cause_id, int *slots, int max);
void do_attach(G *g, int slot, ORef to, int player);
void do_unattach(G *g, int slot);
int phase_events(G *g, Event *ev, int n, int slot, int out, int indirect); /* 702.26g */

/* ---- replace.c: replacement and prevention effects (614-616) ---- */
/* Applies replacement effects to ev per 616. Returns 1 if the event (possibly
 * modified) still happens, 0 if it was replaced by something else or prevented. */
int replace_event(G *g, Event *ev);
/* The event types (bit t: enum evtype t) a replacement ability of this
 * pattern can apply to. */
uint64_t repl_event_mask(const ReplSpec *rp);
/* Runs the rests of prevention effects recorded since `from` (615.5): a batch
 * calls it once its events are done. */
void prevention_riders(G *g, int from);
/* The counters an entering permanent (ev, moving to the battlefield) is given
 * as it enters (122.6) are gathered from every source that gives them
 * (etb_counters; rule: the rule logged for them, or NULL when a replacement's
 * own line says it), then put on it as one event (etb_counters_put): counter
 * replacements apply once to each kind, however many sources there were, to
 * the permanent as it would exist (614.12, 614.16, 616), and "can't have"
 * effects stop them. */
void etb_counters(G *g, Event *ev, int kind, int n, const char *rule);
void etb_counters_put(G *g, Event *ev);

/* ---- perform.c: performing events ---- */
void perform(G *g, Event *ev, int n);

/* ---- log.c ---- */
int fmt_v(char *buf, size_t n, const char *fmt, va_list ap); /* vsnprintf, fast for %s %d %u %c */
int fmt_s(char *buf, size_t n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void log_event(G *g, const Event *e);
/* Checks a log line against the vocabulary (vocab.c): 0, or -1 with why. */
int vocab_check_line(const char *line, char *why, size_t size);
void log_line(G *g, int decision, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* A line of any length written in place: room for len bytes, then commit. */
char *log_reserve(G *g, int decision, size_t len);
void log_commit(G *g, size_t len);
void log_truncate(G *g, int n);
void fmt_obj(G *g, ORef r, char *buf, size_t n);
void fmt_slot(G *g, int slot, char *buf, size_t n);
void fmt_lki(const Lki *l, char *buf, size_t n);
const char *player_name(G *g, int p);

/* ---- trigger.c: triggered abilities (603) ---- */
void trig_lookback(G *g, const Event *ev, int n);   /* before performing */
void trig_detect(G *g, const Event *ev, int n);     /* after performing and logging */
void trig_step(G *g, int step);                     /* 603.2b */
int affected_player(G *g, const Event *ev); /* who chooses among replacements (616.1) */
int trig_mana_bonus(G *g, int slot, int player, uint8_t *out, int max); /* 605.1b */
void trig_state(G *g);                              /* 603.8 */
int trig_put_on_stack(G *g);                        /* 603.3b; returns how many */
void trig_reflexive(G *g, const Ability *ab, const CardDef *def, uint16_t grant, ORef src, const Lki *srcl,
                    int controller, const TrigCtx *tc);
void trig_index_dirty(G *g);
int trig_index_valid(G *g); /* the listener index holds without a rebuild */
/* the listener index equals a rebuild from chars() (the invariant checker);
 * -1 with why filled if not */
int trig_index_check(G *g, char *why, size_t n);
/* The priority listing's index of activated abilities (turn.c): whether it
 * is valid, and whether it lists what a look at every object finds (0) or
 * not (-1, why says so). */
int act_index_valid(G *g);
int act_index_check(G *g, char *why, size_t n);
/* A triggered ability fired by the rules rather than matched to an event (a room ability, 309.4c). */
void trig_add(G *g, const Ability *ab, const CardDef *def, uint16_t grant, int src_slot, int controller, const TrigCtx *tc);
void trig_log(G *g, int from, int to);

/* ---- sba.c: state-based actions (704) ---- */
int sba_check(G *g); /* performs one round; returns 1 if any action was performed */
void sba_loop(G *g); /* 704.3 with 603.3b: SBAs and triggers until stable */
/* The event of a permanent put into its owner's graveyard by a state-based action
 * (type EV_ZONE, EV_DESTROY or EV_SACRIFICE), marked with the rule. */
Event sba_event(G *g, int type, int slot, const char *rule);
int aura_can_enchant(G *g, int slot, int t, int ctl); /* 303.4a, 702.16c: the Aura in slot could enchant t */
int aura_can_enchant_player(G *g, int slot, int p, int ctl); /* 303.4a, 303.4c: ... could enchant player p */

/* ---- stack.c: casting, activating, resolving (601, 602, 608) ---- */
/* A way to cast a card (601.2a-b). */
typedef struct CastWay {
  int8_t zone;    /* where it is cast from */
  uint8_t face;   /* the face or half cast (cast_face) */
  uint8_t during; /* cast while a spell or ability resolves (608.2g): timing permissions don't matter */
  uint8_t alt;    /* with during: the cost the effect allows (ALT_FREE, ALT_MIRACLE) */
} CastWay;
int can_cast_way(G *g, int player, int slot, const CastWay *w);
void stack_cast_way(G *g, int player, int slot, const CastWay *w);
const Ability *spell_ability(const CardDef *d);
const Ability *flashback_ability(const CardDef *d); /* the ability carrying a flashback cost (702.34) */
int spell_to_stack(G *g, int player, int slot, int zone_from, const Ability *ab, const CardDef *def); /* 601.2a */
void spell_cast_done(G *g, int player, int slot); /* 601.2i */
int can_cast_face_down(G *g, int player, int slot);   /* 702.37c */
void stack_cast_face_down(G *g, int player, int slot);
void stack_activate(G *g, int player, int slot, int abi);
void stack_resolve_top(G *g);
/* EV_CAST, EV_ACTIVATE with what the stack item stack_id targets becoming its targets */
void stack_action_taken(G *g, int type, int player, int slot, const Lki *src, int tap_cost, uint32_t stack_id);
void stack_targeted(G *g, uint32_t stack_id, int only); /* "becomes the target" events (only: one target index, or -1) */
int cost_has_tap(const Cost *c);
int stack_find(G *g, uint32_t id);
/* Counters the spell or ability at idx (701.6): whether it was countered,
 * *countered the countered spell's card where it went (none for an ability). */
int stack_counter(G *g, int idx, int to_zone, int cause_ctl, uint32_t cause_id, ORef *countered);
int stack_push(G *g, const StackItem *si);
void stack_remove(G *g, int idx);
int can_cast(G *g, int player, int slot, int zone_from);
int can_activate(G *g, int player, int slot, int abi);
/* 602.2: whether player could activate ability ab of object o (characteristics c)
 * as far as where o is and who controls or owns it go: what the priority
 * listing asks first, so that it asks can_activate (the rest) about few of the
 * abilities (not an opponent's lands, say). */
static inline int activation_reaches(const Obj *o, const Chars *c, const Ability *ab, int player) {
  int z = ab->zone < 0 ? MTG_Z_BATTLEFIELD : ab->zone;
  if (o->zone != z) return 0;
  int ctl = z == MTG_Z_BATTLEFIELD ? c->controller : o->owner;
  return ctl == player || ab->any_player;
}
void choose_modes_targets(G *g, StackItem *si, int player);
/* A mode's target slots, k from 0 to mode_nslots: slot k < MAX_TARGETS is
 * the mode's own (index m * MAX_TARGETS + k in Choice.t); a variable number
 * of targets (the mode's last spec) runs on into the MAX_MORE_T slots after
 * the modes'. mode_slot_spec: the spec a slot's target is chosen for. */
static inline int mode_nslots(const Mode *md) { return md->var ? MAX_MODE_SLOTS : md->nt; }
static inline int mode_slot(int m, int k) { return k < MAX_TARGETS ? m * MAX_TARGETS + k : MAX_CHOICE_T + k - MAX_TARGETS; }
static inline const TargetSpec *mode_slot_spec(const Mode *md, int k) { return &md->t[k < md->nt ? k : md->nt - 1]; }
/* the slots of mode m holding what ch chose, for reading them */
static inline int choice_nslots(const Choice *ch, int m) { return ch->more_mode == m + 1 ? MAX_MODE_SLOTS : MAX_TARGETS; }
/* the spec of Choice.t[i], a slot holding a target, for ability ab, or NULL */
const TargetSpec *choice_slot_spec(const Ability *ab, int i);
int target_legal(G *g, const TargetSpec *ts, const Target *t, int controller, ORef src, const Chars *srcc);
/* whether t can be targeted by controller's spell or ability from src (srcc: its
 * characteristics), whatever the target's filter: shroud, hexproof, protection
 * (702.16b), "can't be the target of"; t is a player or an object */
int target_ok(G *g, const Target *t, int controller, ORef src, const Chars *srcc);
int targets_still_legal(G *g, StackItem *si, int *any_legal);
int target_candidates(G *g, StackItem *si, const TargetSpec *ts, int controller, Target *out, int max);
int target_legal_for(G *g, StackItem *si, const TargetSpec *ts, const Target *t);
void fmt_target(G *g, const Target *t, char *buf, size_t n);

/* ---- cast.c: the casting keywords (601.2b, 702, 709, 712.3) ---- */
struct Ctx;
int cast_can_turn_face_up(G *g, int player, int slot); /* 702.37e */
void cast_turn_face_up(G *g, int player, int slot);
const CardDef *cast_face(const CardDef *card, int face); /* 709.3a, 712.11c */
const CardDef *face_up_def(const Obj *o); /* 712.8d-f, 709.3b */
const CardDef *copiable_def(G *g, int slot, const char **sub); /* 707.2, 707.9b, 708.2 */
int cast_faces(const CardDef *card, int *out);
void cast_face_label(const CardDef *card, int face, char *buf, size_t n);
void cast_set_face(G *g, int slot, const CardDef *card, int face);
int cast_alts(G *g, int player, int slot, int zone, int face, uint8_t *out); /* enum alt_cost ways */
int cast_anywhere_alts(const CardDef *card, int face, uint8_t *out, int n); /* evoke (702.74a) */
int cast_choose_alt(G *g, int player, const char *nm, const uint8_t *alts, int n);
void cast_announce_additional(G *g, int player, int slot, const CardDef *fd, StackItem *si, ManaCost *total, int any_mana);
void cast_pay_additional(G *g, int player, int slot, const CardDef *fd, StackItem *si);
void cast_added_targets(G *g, StackItem *si, int player);
void cast_log_fields(G *g, const StackItem *si, char *buf, size_t n);
void cast_leaving_stack(G *g, Event *e); /* 702.34a, 702.133a, 702.127a */
void cast_added_targets_legal(G *g, StackItem *si, int *total, int *legal); /* 702.47d */
void cast_resolve_added(G *g, const StackItem *si); /* 702.47b, 702.102d */
void cast_during(G *g, int player, int slot, int alt, int mv_below); /* 608.2g */
void cast_cascade(G *g, struct Ctx *c); /* 702.85a */
void cast_resolved(G *g, const StackItem *si, int slot); /* a permanent spell became slot (dash, 702.109a) */
void cast_drawn(G *g, const Event *e); /* 702.94a: miracle */
void cast_madness(G *g, const Event *e); /* 702.35a */
int cast_can_foretell(G *g, int player, int slot); /* 702.143a, 116.2h */
void cast_foretell(G *g, int player, int slot);
int cast_can_suspend(G *g, int player, int slot); /* 702.62a, 116.2f */
void cast_suspend(G *g, int player, int slot);
int could_begin_to_cast(G *g, int player, int slot); /* 116.2f, 702.62c */

/* ---- cost.c: costs and mana (118, 601.2f-h, 605) ---- */
uint8_t mana_mask(G *g, int slot, const AbRef *r); /* colors a simple mana ability adds */
int cost_can_pay_mana(G *g, int player, const ManaCost *c, int x, int for_slot, int any_color_blue);
/* 1 when c (no X) surely can't be paid now: while priority options are
 * listed, more of its symbols need mana than the mana units the listing
 * found for player (gather, kept for the listing), and nothing but mana
 * can pay (no convoke, improvise or delve); 0 when it may be payable. */
int cost_mana_short(G *g, int player, const ManaCost *c, int for_slot);
void cost_pay_mana(G *g, int player, const ManaCost *c, int x, int for_slot, int any_color_blue,
                   uint8_t *spent);
/* The other parts of the cost being paid (those of the object at slot), whose
 * "tap N untapped [quality]" parts the mana payment leaves what it can to
 * (cost_pay_mana: none) */
typedef struct CostSpare {
  const Cost *parts;
  int slot;
} CostSpare;
void cost_pay_mana_sparing(G *g, int player, const ManaCost *c, int x, int for_slot, int any_color_blue,
                           uint8_t *spent, const CostSpare *sp);
int cost_can_pay_parts(G *g, int player, int slot, const Cost *c);
int cost_x_max(G *g, int player, int slot, const Cost *c);
int pick_slot(G *g, int player, const int *cand, int n, const char *rule, const char *prompt);
int obj_sick(G *g, int slot);
void cost_pay_parts(G *g, int player, int slot, const Cost *c, StackItem *si);
void mana_empty(G *g);
void mana_ability_activate(G *g, int player, int slot, int abi);
void mana_total_cost(G *g, int player, int slot, const Choice *ch, ManaCost *out);
/* 601.2f: the generic mana that cost increases add to a spell of these types */
int cost_increase(G *g, uint32_t types);

/* ---- effect.c: the effect interpreter ---- */
/* the objects one selection, and one step's result, hold (select.c, effect.c) */
#define MAX_SEL 256

typedef struct Ctx {
  int controller;         /* "you" */
  ORef src;               /* source object */
  const Lki *srcl;        /* its last known information */
  const CardDef *def;
  uint16_t grant;
  const Ability *ab;
  Choice *ch;
  const TrigCtx *tc;
  uint32_t pushed_ts;     /* when the resolving object was put on the stack (0: none) */
  Event *ev;              /* the event being replaced (replacement programs) */
  int mode;               /* mode being resolved */
  /* results of the last step, for "it", "if you do", "that much": res[0..nres) */
  uint16_t nres;
  uint8_t res_over;       /* the step had more results than res holds: reading them stops the game (res_count) */
  int8_t res_player;
  int did;
  uint8_t paid_any;        /* the last step paid a cost any number of times (603.12a) */
  uint8_t choose_for;      /* the event the objects being chosen will undergo (0: none) */
  int32_t amount;
  int32_t prevented;
  int32_t tgt_x;          /* while targets are chosen or checked: the X announced (601.2b) */
  int32_t life_lost;      /* life the last lose_life step made players lose ("you gain that much life") */
  int8_t each_player;     /* current player in for_each over players */
  int8_t it_player;       /* the player a player filter's condition is asked about (`it`), -1: none */
  ORef each_obj;
  uint32_t cause_id;
  int8_t forced_color;    /* mana ability activated by payment for this color */
  uint8_t spell_ch;       /* ch holds the choices made casting the source (a resolving spell) */
  uint8_t nresl;          /* resl[0..nresl): res[i] as it was before the step moved it (id 0: not moved,
                           * or moved onto the battlefield); resold[0..nresold): its id then, for the rest */
  uint16_t nresold;
  int8_t defending;       /* the defending player a combat rule is checked against (508.1c), or -1 */
  uint8_t mana_spent;     /* colors of the mana spent to activate the resolving ability (bits) */
  /* below: storage read only through nres and the pointers above; ctx_init
   * leaves it uninitialised */
  ORef res[MAX_SEL];      /* as many as one selection holds (select.c) */
  Lki resl[4];
  uint32_t resold[MAX_SEL];
  Choice chbuf;           /* copies, so the stack may move during resolution */
  TrigCtx tcbuf;
  Lki srclbuf;
} Ctx;
void ctx_init(G *g, Ctx *c);
/* A step's result: cleared, then added to one object at a time; past MAX_SEL
 * objects the rest are not kept, and reading the result (res_count) then stops
 * the game at that capacity rather than act on part of it. */
void res_clear(Ctx *c);
void res_add(Ctx *c, ORef r);
int res_count(G *g, const Ctx *c);
/* A fresh context whose "you" is controller and whose source is src. */
void ctx_for(G *g, Ctx *c, int controller, ORef src);
/* The context of ability r of the object at slot (ch: its characteristics): "you" is its controller. */
void ctx_ability(G *g, Ctx *c, int slot, const Chars *ch, const AbRef *r);
void ctx_from_stack(G *g, Ctx *c, StackItem *si);
void eff_run(G *g, Ctx *c, const Node *steps);
/* The options of a "choose a card name" decision begun (201.4): every card
 * name of the game's pools, once, not a token's, of the card types nf asks
 * for (NULL: any), in pool order, nearest pool first; fills names (room for
 * MAX_OPTIONS) and returns how many. */
int name_options(G *g, const Filter *nf, const char **names);
void eff_delayed(G *g, Ctx *c, const Ability *ab, int dur, ORef obj); /* 603.7 */

/* ---- select.c: selectors, filters, conditions, values ---- */
typedef struct Sel {
  int n;
  ORef o[MAX_SEL];
  int np;
  int8_t p[MAX_PLAYERS];
} Sel;
void sel_eval(G *g, Ctx *c, const Node *n, Sel *out);
void sel_put(G *g, Sel *s, ORef o); /* appends; past MAX_SEL the game stops (MTG_ELIMIT) */
int cond_eval(G *g, Ctx *c, const Node *n);
int expr_eval(G *g, Ctx *c, const Node *n);
int filter_match(G *g, Ctx *c, const Filter *f, int slot);
int filter_match_lki(G *g, Ctx *c, const Filter *f, const Lki *l);
/* The zones (bits 1 << zone) where objects matching f can be, its 'or'
 * branches included: where to look for candidates. */
unsigned filter_zones(const Filter *f);
/* The object that does something (608.2h): the first object n refers to,
 * as it is, or as it last existed (*lk set, *o its reference, now stale). */
int sel_object_ref(G *g, Ctx *c, const Node *n, ORef *o, const Lki **lk);
int filter_match_player(G *g, Ctx *c, const Filter *f, int player);
int ctx_defending(G *g, Ctx *c); /* the defending player the context refers to (508.5), or -1 */
int rel_match(G *g, Ctx *c, int rel, int player);
int link_find_value(G *g, uint32_t oid, uint16_t grant, const char *label, int32_t *v, const char **sv);
int link_find_color(G *g, uint32_t oid, uint16_t grant, const char *label);
void link_add(G *g, uint32_t oid, uint16_t grant, const char *label, int kind, int32_t v, const char *sv, ORef o);
int opponents(G *g, int a, int b);
int player_alive(G *g, int p);
int next_player(G *g, int p);
void apnap_order(G *g, int *order); /* players in APNAP order, living ones first */

/* ---- history.c: the history of the turn ---- */
enum { HQ_LAST_TURN = 1, HQ_THIS_COMBAT = 2, HQ_COMBAT = 4, HQ_NONCOMBAT = 8, HQ_EVENTS = 16 }; /* E_HISTORY flags (Node.j) */
void hist_turn_begin(G *g);                  /* drops records older than last turn */
void hist_cast(G *g, int player, int slot);
void hist_venture(G *g, int player);          /* 701.49 */  /* 601.2i: a spell became cast */
int hist_before(G *g, const Event *b, int m); /* before a batch is performed: returns where its records start */
int hist_mover(G *g, const Event *e);          /* the player who moved an object (a zone change's "you") */
void hist_after(G *g, const Event *b, int m, int from);
int hist_count(G *g, Ctx *c, int kind, int player, const Filter *f); /* this turn's records; player -1: anyone's */
int hist_value(G *g, Ctx *c, const Node *n); /* E_HISTORY */
uint64_t hist_hash(G *g, uint64_t h);

/* ---- cardtype.c: Sagas (714), dungeons (309, 701.49), space sculptor (702.158), battles (310) ---- */
void ct_entering(G *g, Event *e);   /* as a Saga, battle or planeswalker enters: 714.3a, 310.4b, 310.8a, 310.11a, 306.5b */
void ct_precombat_main(G *g);       /* 714.3b, 505.4: lore counters (a turn-based action) */
int ct_sba(G *g, Event *ev, int *n, int max, const int16_t *bf, int nb); /* 704.5s-704.5x */
int ct_chapter_match(G *g, const TrigPat *t, const Event *e, uint32_t src_id); /* 714.2b */
int ct_defeated(G *g, const Event *e); /* 310.11b: the last defense counter was removed */
void ct_venture(G *g, int player);  /* 701.49 */
void ct_cast_transformed(G *g, int player, int slot); /* 712.11a */
int ct_defender(G *g, int slot);    /* defending player of an attacked planeswalker or battle (508.5) */
int ct_attackable(G *g, int attacker, int slot); /* 506.2, 508.1b, 310.8b */
int ct_check(G *g, char *why, size_t n);
const char *ct_sector_name(int sector);
int ct_sector_parse(const char *name);

/* ---- combat.c ---- */
void combat_declare_attackers(G *g);
void combat_declare_blockers(G *g);
void combat_damage(G *g, int first_strike);
int combat_has_first_strike(G *g);
void combat_end(G *g);
void combat_remove(G *g, int slot);
void combat_check(G *g); /* 506.4: an attacking or blocking permanent that stops being a creature leaves combat */
/* The defending player of an attacking creature: the player it attacks, or the
 * one who controls or protects the planeswalker or battle it attacks (508.5);
 * -1 if that is gone. */
int combat_defending_player(G *g, int slot);
/* Is the creature at blk blocking the one at atk (509.1g, a band's 702.22h)? */
int combat_blocks(G *g, int blk, int atk);
int combat_blocks_id(G *g, int blk, uint32_t atk_id); /* the attacker by its id, wherever it is now */

/* ---- turn.c: turns, steps, priority ---- */
void turn_run(G *g);

/* ---- variant.c: Two-Headed Giant, Commander, Archenemy, Planechase (704.6) ---- */
int var_init(G *g, mtg_error *err);             /* after the setup is built */
int var_2hg(G *g);
int var_starting_life(G *g, int p);
void var_life_add(G *g, int p, int delta);      /* 810.9 */
void var_player_counters(G *g, int p, int kind, int n); /* 810.10 */
int var_rule_effect(G *g, int kind, int p);     /* rule_effect for p's whole team (810.8a, 810.9g/h, 810.10c) */
void var_team_loss(G *g);                       /* 810.8a */
void var_check_over(G *g);                      /* teams win together */
int var_commander(G *g, int slot);              /* commander index or -1 (903.3) */
void var_damage_dealt(G *g, const Event *e);    /* 903.10a */
void var_zone_moved(G *g, const Event *e, int slot); /* 704.6d */
int var_commander_tax(G *g, int slot);          /* 903.8 */
void var_commander_cast(G *g, int slot);
int var_perform(G *g, Event *e);                /* set in motion, deck bottom, planeswalk */
int var_stays_in_command(G *g, const Event *e); /* 311.2, 312.2, 314.2 */
void var_precombat_main(G *g);                  /* 904.9 */
void var_abandon(G *g, int slot);               /* 701.33 */
void var_planeswalk(G *g, int p, const char *rule); /* 701.31 */
void var_game_begin(G *g);                      /* 901.5 */
void var_turn_begin(G *g);                      /* 901.6 */
/* Adds the 704.6 actions to the SBA batch ev[0..*n); *then: a planar controller who
 * turns the top of their planar deck face up after the batch (701.31b), or -1. */
int var_sba(G *g, Event *ev, int *n, int max, int *then);
void var_sba_then(G *g, int then);
int var_check(G *g, char *why, size_t n);       /* invariants for mtg_game_check */

/* ---- setup.c ---- */
int setup_build(G *g, const mtg_setup *s, mtg_error *err);

#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))

#endif
