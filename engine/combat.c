/* combat.c - the combat phase (506-511): declaring attackers and blockers
 * with their restrictions and requirements (508.1c-d, 509.1b-c: evasion
 * abilities, protection, rule effects of static abilities and of effects with
 * a duration, and the most requirements that can be obeyed), optional costs
 * to attack (exert, 508.1g), and combat damage with first strike, double
 * strike, trample, deathtouch and the rule effects that change who is dealt
 * combat damage (510.1). */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* ---- combat rules in force ---- */

/* A rule-modifying effect about attacking, blocking or combat damage: a
 * static ability of a permanent, or an effect with a duration. They are
 * gathered once per declaration and looked up per creature. */
typedef struct CRule {
  const StaticSpec *st;
  int16_t src;       /* the static ability's source, or -1 */
  int16_t eff;       /* the effect's index, or -1 */
  uint8_t controller;
  const CardDef *def;
  uint16_t grant;
} CRule;

#define MAX_CRULES 512
typedef struct CRules {
  CRule r[MAX_CRULES];
  int n;
} CRules;

static int combat_kind(int k) {
  return k == SE_CANT_ATTACK || k == SE_CANT_BLOCK || k == SE_CANT_ATTACK_OR_BLOCK || k == SE_MUST_BLOCK ||
         (k >= SE_CANT_BE_BLOCKED && k <= SE_BLOCK_ANY_NUMBER);
}

static void crules_collect(G *g, CRules *cr) {
  State *s = g->s;
  cr->n = 0;
  int nb = bf_count(g);
  const int16_t *bf = bf_list(g);
  for (int k = 0; k < nb; k++) {
    int i = bf[k];
    if (s->obj[i].phased_out) continue;
    const Chars *c = chars(g, i);
    for (int a = 0; a < c->nab; a++) {
      const Ability *ab = c->ab[a].ab;
      if (ab->kind != AB_STATIC || !combat_kind(ab->st.kind)) continue;
      if (cr->n >= MAX_CRULES) game_limit(g, "combat restrictions and requirements at once", MAX_CRULES);
      CRule *r = &cr->r[cr->n++];
      r->st = &ab->st;
      r->src = (int16_t)i;
      r->eff = -1;
      r->controller = c->controller;
      r->def = c->ab[a].def;
      r->grant = c->ab[a].grant;
    }
  }
  for (int i = 0; i < s->c.neff; i++) {
    const Effect *e = &s->eff[i];
    if (e->kind != EK_RULE || e->used || !e->st || !combat_kind(e->st->kind)) continue;
    if (cr->n >= MAX_CRULES) game_limit(g, "combat restrictions and requirements at once", MAX_CRULES);
    CRule *r = &cr->r[cr->n++];
    r->st = e->st;
    r->src = -1;
    r->eff = (int16_t)i;
    r->controller = e->controller;
    r->def = e->def;
    r->grant = e->grant;
  }
}

/* Does rule r apply to the object at slot? cx is filled for evaluating the
 * rule's parameters (its source, its controller, the choices of the effect). */
static int crule_on(G *g, const CRule *r, int slot, Ctx *cx) {
  State *s = g->s;
  ctx_init(g, cx);
  cx->controller = r->controller;
  cx->def = r->def;
  cx->grant = r->grant;
  if (r->eff >= 0) {
    Effect *e = &s->eff[r->eff];
    cx->src = e->source;
    cx->srcl = &e->srcl;
    cx->ch = &e->ch;
    /* about the objects it named, or whatever matches while it lasts (611.2c) */
    if (!e->obj.id && e->st->affected) return filter_match(g, cx, e->st->affected, slot);
    return oref_ok(g, e->obj) && e->obj.slot == slot;
  }
  const StaticSpec *st = r->st;
  cx->src = oref(g, r->src);
  if (st->cond && !cond_eval(g, cx, st->cond)) return 0;
  if (st->self) return slot == r->src;
  if (st->attached) return oref_ok(g, s->obj[r->src].attached) && s->obj[r->src].attached.slot == slot;
  return st->affected && filter_match(g, cx, st->affected, slot);
}

/* The rule's other creature: no filter means any (702.16f-like "can't be blocked"). */
static int crule_other(G *g, const CRule *r, Ctx *cx, int other) {
  return !r->st->other || filter_match(g, cx, r->st->other, other);
}

/* How many rules of this kind apply to the object (each instance of a requirement counts, 508.1d, 509.1c). */
static int crule_count(G *g, const CRules *cr, int kind, int slot) {
  int n = 0;
  Ctx cx;
  for (int i = 0; i < cr->n; i++)
    if (cr->r[i].st->kind == kind && crule_on(g, &cr->r[i], slot, &cx)) n++;
  return n;
}

/* The greatest `n` of the rules of this kind on the object, or dflt. */
static int crule_n(G *g, const CRules *cr, int kind, int slot, int dflt, int greatest) {
  int v = dflt;
  Ctx cx;
  for (int i = 0; i < cr->n; i++)
    if (cr->r[i].st->kind == kind && crule_on(g, &cr->r[i], slot, &cx)) {
      int n = cr->r[i].st->a;
      if (greatest ? n > v : n < v) v = n;
    }
  return v;
}

/* A restriction "can't [attack|block] unless [condition]": does one forbid it,
 * the defending player being dp (508.1c, 509.1b)? */
static int restricted(G *g, const CRules *cr, int kind, int slot, int dp) {
  Ctx cx;
  for (int i = 0; i < cr->n; i++) {
    const CRule *r = &cr->r[i];
    if (r->st->kind != kind || !crule_on(g, r, slot, &cx)) continue;
    if (kind == SE_CANT_BLOCK && r->st->other) continue; /* "can't block [quality]": per attacker */
    if (r->st->unless) {
      cx.defending = (int8_t)dp;
      if (cond_eval(g, &cx, r->st->unless)) continue;
    }
    return 1;
  }
  return 0;
}

/* ---- attacking ---- */

/* Whether the creature can attack at all, before looking at what it attacks (508.1a, 508.1c). */
static int can_attack(G *g, const CRules *cr, int slot) {
  State *s = g->s;
  const Obj *o = &s->obj[slot];
  const Chars *c = chars(g, slot);
  if (!(c->types & T_CREATURE) || o->tapped || o->phased_out) return 0;
  if (c->types & T_BATTLE) return 0; /* 508.1a */
  if (c->controller != s->c.active) return 0;
  /* 702.3b; "can attack as though it didn't have defender" */
  if ((c->kw >> KW_DEFENDER & 1) && !crule_count(g, cr, SE_ATTACKS_AS_NO_DEFENDER, slot)) return 0;
  if (obj_sick(g, slot)) return 0; /* 302.6 */
  return 1;
}

/* Whether it can attack with dp as the defending player (508.1c: "can't attack unless"). */
static int can_attack_player(G *g, const CRules *cr, int slot, int dp) {
  return !restricted(g, cr, SE_CANT_ATTACK, slot, dp) && !restricted(g, cr, SE_CANT_ATTACK_OR_BLOCK, slot, dp);
}

/* 701.43a: exerted, it won't untap during its exerter's next untap step; the exert
 * events happen with the costs to attack (508.1g-j), before it becomes attacking. */
static int ask_exert(G *g, int ap, const TopOption *t, const int *v, int cnt, Event *ev) {
  int ne = 0;
  for (int i = 0; i < cnt; i++) {
    int o = t[v[i]].slot;
    if (!has_kw(g, o, KW_EXERT)) continue;
    char nm[110];
    fmt_slot(g, o, nm, sizeof nm);
    if (!ask_yes_no(g, ap, "508.1g", "exert %s as it attacks?", nm)) continue;
    ev_init(&ev[ne], EV_EXERT);
    ev[ne].obj = oref(g, o);
    ev[ne].player = (int8_t)ap;
    ev[ne].rule = "701.43a";
    ne++;
  }
  return ne;
}

/* The attackers decision's options (508.1a-b); 0 when no creature can attack. */
static int attack_options(G *g, const CRules *cr, const int16_t *bf, int nb) {
  State *s = g->s;
  int ap = s->c.active;
  TopOption *t = g->w->topt;
  dec_begin(g, MTG_D_ATTACKERS, ap, "508.1", "declare attackers");
  int n = 0;
  for (int k = 0; k < nb; k++) {
    int i = bf[k];
    if (!can_attack(g, cr, i)) continue;
    char nm[110];
    fmt_slot(g, i, nm, sizeof nm);
    for (int p = 0; p < s->c.np; p++) {
      if (!player_alive(g, p) || !opponents(g, ap, p)) continue;
      if (!can_attack_player(g, cr, i, p)) continue;
      /* past MAX_OPTIONS dec_opt stops the game: no attack left out unsaid */
      dec_opt(g, MTG_O_ATTACK, s->obj[i].id, 0, p, -1, "%s -> %s", nm, player_name(g, p));
      t[n].slot = (int16_t)i;
      t[n].player = (int8_t)p;
      t[n].slot2 = -1;
      n++;
    }
    for (int kk = 0; kk < nb; kk++) {
      int w = bf[kk];
      /* 508.1b: planeswalkers of defending players, battles they protect (310.8b) */
      if (!ct_attackable(g, ap, w)) continue;
      if (!can_attack_player(g, cr, i, ct_defender(g, w))) continue;
      char wn[110];
      fmt_slot(g, w, wn, sizeof wn);
      dec_opt(g, MTG_O_ATTACK, s->obj[i].id, s->obj[w].id, -1, -1, "%s -> %s", nm, wn);
      t[n].slot = (int16_t)i;
      t[n].player = -1;
      t[n].slot2 = (int16_t)w;
      n++;
    }
  }
  if (n) dec_range(g, 0, n);
  return n;
}

/* 508.1e, 702.22c-d: the active player announces the bands among the chosen
 * attackers, one band a decision, until they choose none or no band is left to
 * make: one or more creatures with banding and up to one without, all attacking
 * the same player, planeswalker or battle. band[i] is the band of t[v[i]] (0: none). */
static void declare_bands(G *g, int ap, const TopOption *t, const int *v, int cnt, uint8_t *band) {
  State *s = g->s;
  for (int nband = 1; nband < 256; nband++) {
    int cand[MAX_OPTIONS], nc = 0, with = 0;
    for (int i = 0; i < cnt; i++)
      if (!band[i]) {
        cand[nc++] = i;
        with += has_kw(g, t[v[i]].slot, KW_BANDING);
      }
    if (!with || nc < 2) return; /* a band of one changes nothing: not asked */
    dec_begin(g, MTG_D_CHOOSE, ap, "508.1e,702.22c", "announce a band of attacking creatures (702.22c), or choose none for no more bands");
    for (int i = 0; i < nc; i++) {
      char nm[110];
      fmt_slot(g, t[v[cand[i]]].slot, nm, sizeof nm);
      dec_opt(g, MTG_O_OBJECT, s->obj[t[v[cand[i]]].slot].id, 0, -1, -1, "%s", nm);
    }
    dec_range(g, 0, nc);
    int n;
    const int *w = dec_ask(g, 0, &n);
    if (!n) return;
    int without = 0, banding = 0;
    for (int k = 0; k < n; k++) {
      const TopOption *o = &t[v[cand[w[k]]]], *f = &t[v[cand[w[0]]]];
      if (has_kw(g, o->slot, KW_BANDING)) banding++;
      else without++;
      if (o->player != f->player || o->slot2 != f->slot2)
        game_illegal(g, "all creatures in a band attack the same player, planeswalker or battle (702.22d)");
      band[cand[w[k]]] = (uint8_t)nband;
    }
    if (!banding || without > 1)
      game_illegal(g, "a band is one or more creatures with banding and up to one creature without banding (702.22c); this one has %d "
                      "without", without);
  }
}

void combat_declare_attackers(G *g) {
  State *s = g->s;
  int ap = s->c.active;
  int nb = bf_count(g);
  int16_t bf[MAX_SLOTS];
  memcpy(bf, bf_list(g), (size_t)nb * sizeof *bf);
  CRules cr;
  crules_collect(g, &cr);
  int n = dec_resume(g) ? g->w->dtop.pub.n_options : attack_options(g, &cr, bf, nb);
  if (!n) {
    log_line(g, 0, "attackers none=1");
    return;
  }
  int cnt;
  const int *v = dec_ask(g, 1, &cnt);
  const TopOption *t = g->w->topt;
  unsigned char used[MAX_SLOTS] = {0};
  for (int i = 0; i < cnt; i++) {
    if (used[t[v[i]].slot]) game_illegal(g, "a creature can attack only once (508.1a)");
    used[t[v[i]].slot] = 1;
  }
  /* 508.1c: "can't attack alone" (506.5) */
  if (cnt == 1 && crule_count(g, &cr, SE_CANT_ATTACK_ALONE, t[v[0]].slot)) {
    char nm[110];
    fmt_slot(g, t[v[0]].slot, nm, sizeof nm);
    game_illegal(g, "%s can't attack alone (506.5, 508.1c)", nm);
  }
    /* 508.1d: as many requirements obeyed as can be. With only restrictions about
   * one creature and "can't attack alone", every creature that attacks if able
   * and has a legal attack obeys them, unless it is the only creature able to
   * attack at all and can't attack alone. */
  {
    int able_req = 0, able_any = 0, max = 0, obeyed = 0, first_missing = -1, lone = -1;
    for (int k = 0; k < nb; k++) {
      int i = bf[k], able = 0;
      for (int j = 0; j < n && !able; j++) able = t[j].slot == i;
      if (!able) continue;
      able_any++;
      int req = crule_count(g, &cr, SE_ATTACKS_EACH_COMBAT, i);
      if (!req) continue;
      able_req++;
      lone = i;
      max += req;
      if (used[i]) obeyed += req;
      else if (first_missing < 0) first_missing = i;
    }
    if (able_req == 1 && able_any == 1 && crule_count(g, &cr, SE_CANT_ATTACK_ALONE, lone))
      max -= crule_count(g, &cr, SE_ATTACKS_EACH_COMBAT, lone);
    if (obeyed < max && first_missing >= 0) {
      char nm[110];
      fmt_slot(g, first_missing, nm, sizeof nm);
      game_illegal(g, "%s attacks each combat if able: the declaration obeys %d requirement%s where %d can be obeyed (508.1d)",
                   nm, obeyed, obeyed == 1 ? "" : "s", max);
    }
  }
  uint8_t band[MAX_OPTIONS] = {0};
  declare_bands(g, ap, t, v, cnt, band);
  /* 508.1f: tap attackers without vigilance; 508.1g: optional costs (exert);
   * 508.1k: they become attacking */
  Event ev[MAX_OPTIONS];
  int ne = 0;
  for (int i = 0; i < cnt; i++) {
    int o = t[v[i]].slot;
    Obj *ob = obj_w(g, o);
    ob->attacking = 1;
    ob->band = band[i];
    ob->atk_player = t[v[i]].player;
    ob->atk_obj = t[v[i]].slot2 >= 0 ? oref(g, t[v[i]].slot2) : oref_none();
    int dp = combat_defending_player(g, o);
    if (dp >= 0) s->c.defending[dp] = 1;
    if (!has_kw(g, o, KW_VIGILANCE)) {
      ev_init(&ev[ne], EV_TAP);
      ev[ne].obj = oref(g, o);
      ne++;
    }
  }
  if (ne) ev_run(g, ev, ne);
  ne = ask_exert(g, ap, t, v, cnt, ev);
  if (ne) ev_run(g, ev, ne);
  ne = 0;
  if (cnt) s->c.attackers_declared = 1;
  s->c.nattackers = (uint8_t)(cnt < 255 ? cnt : 255);
  for (int i = 0; i < cnt; i++) {
    int o = t[v[i]].slot;
    ev_init(&ev[ne], EV_ATTACKS);
    ev[ne].obj = oref(g, o);
    ev[ne].player = (int8_t)combat_defending_player(g, o);
    ev[ne].src = t[v[i]].slot2 >= 0 ? oref(g, t[v[i]].slot2) : oref_none();
    ev[ne].rule = "508.1";
    ne++;
  }
  ev_run(g, ev, ne);
}

/* ---- blocking ---- */

/* 702.14c: a land of the landwalk's type or quality controlled by the defending player */
static int landwalk_blocked(G *g, int atk, int dp) {
  State *s = g->s;
  const Chars *a = chars(g, atk);
  static const char *const types[5] = {"Plains", "Island", "Swamp", "Mountain", "Forest"};
  int nb = bf_count(g);
  const int16_t *bf = bf_list(g);
  for (int w = 0; w < 5; w++) {
    if (!(a->kw >> (KW_PLAINSWALK + w) & 1)) continue;
    for (int k = 0; k < nb; k++) {
      const Chars *l = chars(g, bf[k]);
      if ((l->types & T_LAND) && l->controller == dp && !s->obj[bf[k]].phased_out && has_subtype(l, types[w])) return 1;
    }
  }
  for (int i = 0; i < a->nab; i++) {
    const Ability *ab = a->ab[i].ab;
    if (ab->kind != AB_KEYWORD || ab->kw != PK_LANDWALK) continue;
    Ctx cx;
    ctx_ability(g, &cx, atk, a, &a->ab[i]);
    for (int k = 0; k < nb; k++)
      if (chars(g, bf[k])->controller == dp && filter_match(g, &cx, ab->kwf, bf[k])) return 1;
  }
  return 0;
}

/* Can creature blk block creature atk, as far as rules about the two of them
 * go (509.1a-b): evasion abilities, protection and combat rules of either. */
static int can_block(G *g, const CRules *cr, int blk, int atk) {
  State *s = g->s;
  const Obj *o = &s->obj[blk];
  const Chars *b = chars(g, blk), *a = chars(g, atk);
  uint64_t bk = b->kw, ak = a->kw;
  int dp = b->controller;
  if (!(b->types & T_CREATURE) || o->tapped || o->phased_out) return 0;
  if (b->types & T_BATTLE) return 0; /* 509.1a */
  if (restricted(g, cr, SE_CANT_BLOCK, blk, dp) || restricted(g, cr, SE_CANT_ATTACK_OR_BLOCK, blk, dp)) return 0;
  if ((ak >> KW_FLYING & 1) && !(bk >> KW_FLYING & 1) && !(bk >> KW_REACH & 1)) return 0; /* 702.9b */
  /* 702.28b: shadow blocks and is blocked only by shadow; "can block creatures
   * with shadow as though they didn't have shadow" */
  if ((bk >> KW_SHADOW & 1) && !(ak >> KW_SHADOW & 1)) return 0;
  if ((ak >> KW_SHADOW & 1) && !(bk >> KW_SHADOW & 1) && !crule_count(g, cr, SE_CAN_BLOCK_SHADOW, blk)) return 0;
  if ((ak >> KW_HORSEMANSHIP & 1) && !(bk >> KW_HORSEMANSHIP & 1)) return 0; /* 702.31b */
  if ((ak >> KW_FEAR & 1) && !(b->types & T_ARTIFACT) && !(b->colors >> COL_B & 1)) return 0; /* 702.36b */
  if ((ak >> KW_INTIMIDATE & 1) && !(b->types & T_ARTIFACT) && !(b->colors & a->colors)) return 0; /* 702.13b */
  if ((ak >> KW_SKULK & 1) && b->power > a->power) return 0; /* 702.118b */
  if (landwalk_blocked(g, atk, dp)) return 0; /* 702.14c */
  /* protection: can't be blocked by creatures of the quality (702.16f) */
  if (protected_from(g, atk, blk, b->colors, 0)) return 0;
  Ctx cx;
  for (int i = 0; i < cr->n; i++) {
    const CRule *r = &cr->r[i];
    int k = r->st->kind;
    if (k == SE_CANT_BE_BLOCKED && crule_on(g, r, atk, &cx) && crule_other(g, r, &cx, blk)) return 0;
    if (k == SE_CANT_BLOCK && r->st->other && crule_on(g, r, blk, &cx) && crule_other(g, r, &cx, atk)) return 0;
    if (k == SE_CAN_BLOCK_ONLY && crule_on(g, r, blk, &cx) && !crule_other(g, r, &cx, atk)) return 0;
  }
  return 1;
}

/* How many more creatures than one it can block (509.1a): each "can block an
 * additional creature" adds one (or its n), "any number" all there are. */
static int blocks_more(G *g, const CRules *cr, int blk) {
  if (crule_count(g, cr, SE_BLOCK_ANY_NUMBER, blk)) return MAX_SLOTS;
  int n = 0;
  Ctx cx;
  for (int i = 0; i < cr->n; i++)
    if (cr->r[i].st->kind == SE_BLOCK_ADDITIONAL && crule_on(g, &cr->r[i], blk, &cx))
      n += cr->r[i].st->a > 0 ? cr->r[i].st->a : 1;
  return n;
}

int combat_blocks_id(G *g, int blk, uint32_t aid) {
  const State *s = g->s;
  const Obj *b = &s->obj[blk];
  if (!b->blocking || !aid) return 0;
  if (b->block_of.id == aid) return 1;
  for (int i = 0; i < s->c.nxblk; i++) {
    const BlockPair *p = &s->xblk[i];
    if (p->blk.slot == blk && p->blk.id == b->id && p->atk.id == aid) return 1;
  }
  return 0;
}

/* an object id is in one slot at most: the attacker's id names it */
int combat_blocks(G *g, int blk, int atk) { return combat_blocks_id(g, blk, g->s->obj[atk].id); }

/* blk becomes a blocking creature blocking atk too (509.1g, 702.22h) */
static void add_block(G *g, int blk, int atk) {
  State *s = g->s;
  if (combat_blocks(g, blk, atk)) return;
  Obj *b = obj_w(g, blk);
  if (!b->blocking) {
    b->blocking = 1;
    b->block_of = oref(g, atk);
    return;
  }
  if (s->c.nxblk >= MAX_XBLOCKS) game_limit(g, "blocks of creatures blocking several attackers", MAX_XBLOCKS);
  s->xblk[s->c.nxblk].blk = oref(g, blk);
  s->xblk[s->c.nxblk].atk = oref(g, atk);
  s->c.nxblk++;
}

/* 509.1c: the requirements of a blockers declaration and the restrictions
 * about several creatures together, and a search for the most requirements a
 * legal declaration obeys. */
#define BS_MAX 48
typedef struct BSearch {
  int nb, na;
  int blk[BS_MAX], atk[BS_MAX];
  uint8_t ok[BS_MAX][BS_MAX];   /* can_block */
  uint8_t pick[BS_MAX][BS_MAX]; /* the declaration's blocks */
  int each[BS_MAX];             /* "blocks each combat if able" */
  int must[BS_MAX][BS_MAX];     /* "blocks [this creature] if able" */
  int all[BS_MAX];              /* "all creatures able to block it do so": for each able blocker */
  int mbb[BS_MAX];              /* "must be blocked if able" */
  int minb[BS_MAX], maxb[BS_MAX];
  uint8_t alone[BS_MAX];        /* "can't block alone" */
  int any_alone;
  /* search */
  int choice[BS_MAX], cnt[BS_MAX], nblocking, nalone;
  int opt[BS_MAX][BS_MAX + 1], nopt[BS_MAX];
  int rest[BS_MAX + 1];         /* the most the blockers from i on can add by themselves */
  int left[BS_MAX + 1][BS_MAX]; /* how many of the blockers from i on may block attacker a */
  int best[BS_MAX];             /* a declaration found */
  long nodes, steps;            /* steps taken, and allowed */
} BSearch;

static int bs_gain(const BSearch *b, int i, int a) {
  return b->each[i] + b->must[i][a] + b->all[a];
}

static int bs_legal(const BSearch *b) {
  for (int a = 0; a < b->na; a++)
    if (b->cnt[a] && (b->cnt[a] < b->minb[a] || b->cnt[a] > b->maxb[a])) return 0;
  return !b->nalone || b->nblocking >= 2; /* 506.5 */
}

static int bs_score(const BSearch *b) {
  int sc = 0;
  for (int i = 0; i < b->nb; i++)
    if (b->choice[i] >= 0) sc += bs_gain(b, i, b->choice[i]);
  for (int a = 0; a < b->na; a++)
    if (b->cnt[a]) sc += b->mbb[a];
  return sc;
}

/* Is there a legal declaration obeying at least `want` requirements? A
 * partial declaration is given up when no way of completing it is legal (an
 * attacker blocked by more creatures than it may be, or by fewer than it must
 * with too few left that could join) or when even the best completion obeys
 * fewer than `want`. */
#define SEARCH_BUDGET 2000000 /* the default allowance of steps */
static int bs_dfs(BSearch *b, int i, int score, int want) {
  if (++b->nodes > b->steps) return 0;
  if (i == b->nb) {
    if (!bs_legal(b)) return 0;
    int sc = score;
    for (int a = 0; a < b->na; a++)
      if (b->cnt[a]) sc += b->mbb[a];
    if (sc < want) return 0;
    memcpy(b->best, b->choice, sizeof b->best);
    return 1;
  }
  int bound = score + b->rest[i];
  for (int a = 0; a < b->na; a++) {
    int most = b->cnt[a] + b->left[i][a]; /* the most creatures that can end up blocking it */
    if (b->cnt[a] && (b->cnt[a] > b->maxb[a] || most < b->minb[a])) return 0;
    if (most && most >= b->minb[a]) bound += b->mbb[a];
  }
  if (bound < want) return 0;
  for (int k = 0; k < b->nopt[i]; k++) {
    int a = b->opt[i][k];
    b->choice[i] = a;
    if (a >= 0) {
      b->cnt[a]++;
      b->nblocking++;
      b->nalone += b->alone[i];
    }
    int found = bs_dfs(b, i + 1, score + (a >= 0 ? bs_gain(b, i, a) : 0), want);
    if (a >= 0) {
      b->cnt[a]--;
      b->nblocking--;
      b->nalone -= b->alone[i];
    }
    b->choice[i] = -1;
    if (found) return 1;
  }
  return 0;
}

/* "blocks [source] this turn if able" (S_MUST_BLOCK) and "blocks [quality] if
 * able": requirements of blocker blk about attacker atk */
static int must_block_count(G *g, const CRules *cr, int blk, int atk) {
  int n = 0;
  Ctx cx;
  for (int i = 0; i < cr->n; i++) {
    const CRule *r = &cr->r[i];
    if (r->st->kind != SE_MUST_BLOCK || !crule_on(g, r, blk, &cx)) continue;
    if (r->st->other ? filter_match(g, &cx, r->st->other, atk) : (oref_ok(g, cx.src) && cx.src.slot == atk)) n++;
  }
  return n;
}

/* "can't be blocked except by N or more creatures" (the most such N, menace's
 * 2 included, 702.111b) and "by more than N" (the least N): about a blocked
 * attacker, so only a least number above 1 restricts anything */
static int min_blockers(G *g, const CRules *cr, int atk) {
  return crule_n(g, cr, SE_MIN_BLOCKERS, atk, has_kw(g, atk, KW_MENACE) ? 2 : 1, 1);
}

static int max_blockers(G *g, const CRules *cr, int atk) { return crule_n(g, cr, SE_MAX_BLOCKERS, atk, 1 << 20, 0); }

/* Checks the restrictions about several creatures (menace and "except by N or
 * more", "by more than N", "can't block alone") and the requirements (509.1b-c)
 * of the declaration t[v[i]].slot -> t[v[i]].slot2. */
static void check_blocks(G *g, const CRules *cr, int dp, const int16_t *bf, int nb, const TopOption *t, const int *v,
                         int cnt) {
  State *s = g->s;
  BSearch *b = &(BSearch){0};
  int left_out = 0;
  for (int k = 0; k < nb; k++) {
    int i = bf[k];
    if (s->obj[i].attacking && combat_defending_player(g, i) == dp) {
      if (b->na < BS_MAX) b->atk[b->na++] = i;
      else left_out = 1;
    } else if (obj_controller(g, i) == dp && is_type(g, i, T_CREATURE) && !s->obj[i].attacking) {
      if (b->nb < BS_MAX) b->blk[b->nb++] = i;
      else left_out = 1;
    }
  }
  int chosen[BS_MAX], several = 0;
  for (int i = 0; i < b->nb; i++) chosen[i] = -1;
  for (int c = 0; c < cnt; c++)
    for (int i = 0; i < b->nb; i++)
      for (int a = 0; a < b->na; a++)
        if (b->blk[i] == t[v[c]].slot && b->atk[a] == t[v[c]].slot2) {
          several |= chosen[i] >= 0;
          chosen[i] = a;
          b->pick[i][a] = 1;
        }
  for (int a = 0; a < b->na; a++) {
    int x = b->atk[a];
    b->minb[a] = min_blockers(g, cr, x);
    b->maxb[a] = max_blockers(g, cr, x);
    b->mbb[a] = crule_count(g, cr, SE_MUST_BE_BLOCKED, x);
    b->all[a] = crule_count(g, cr, SE_MUST_BE_BLOCKED_BY_ALL, x);
  }
  /* the restrictions, on the whole declaration */
  for (int k = 0; k < nb; k++) {
    int x = bf[k], c = 0;
    if (!s->obj[x].attacking || combat_defending_player(g, x) != dp) continue;
    for (int j = 0; j < cnt; j++) c += t[v[j]].slot2 == x;
    if (!c) continue;
    int minb = min_blockers(g, cr, x), maxb = max_blockers(g, cr, x);
    char an[110];
    fmt_slot(g, x, an, sizeof an);
    if (c < minb)
      game_illegal(g, "%s can't be blocked except by %d or more creatures (%s)", an, minb,
                   has_kw(g, x, KW_MENACE) && minb == 2 ? "menace, 702.111b" : "509.1b");
    if (c > maxb) game_illegal(g, "%s can't be blocked by more than %d creature%s (509.1b)", an, maxb, maxb == 1 ? "" : "s");
  }
  int lone = 1; /* one creature blocks, however many it blocks (506.5) */
  for (int j = 1; j < cnt; j++) lone &= t[v[j]].slot == t[v[0]].slot;
  if (cnt && lone && crule_count(g, cr, SE_CANT_BLOCK_ALONE, t[v[0]].slot)) {
    char bn[110];
    fmt_slot(g, t[v[0]].slot, bn, sizeof bn);
    game_illegal(g, "%s can't block alone (506.5, 509.1b)", bn);
  }
  int anyreq = 0;
  for (int i = 0; i < b->nb; i++) {
    b->alone[i] = (uint8_t)(crule_count(g, cr, SE_CANT_BLOCK_ALONE, b->blk[i]) > 0);
    b->any_alone |= b->alone[i];
    b->each[i] = crule_count(g, cr, SE_BLOCKS_EACH_COMBAT, b->blk[i]);
    anyreq |= b->each[i];
    for (int a = 0; a < b->na; a++) {
      b->ok[i][a] = (uint8_t)can_block(g, cr, b->blk[i], b->atk[a]);
      b->must[i][a] = b->ok[i][a] ? must_block_count(g, cr, b->blk[i], b->atk[a]) : 0;
      anyreq |= b->must[i][a] | (b->ok[i][a] ? b->all[a] : 0);
    }
  }
  for (int a = 0; a < b->na; a++) anyreq |= b->mbb[a];
  /* the search below sees 48 attackers and 48 creatures that could block:
   * past that, a requirement could involve one it doesn't see */
  for (int i = 0; left_out && i < cr->n; i++) {
    int k = cr->r[i].st->kind;
    if (k == SE_MUST_BLOCK || k == SE_BLOCKS_EACH_COMBAT || k == SE_MUST_BE_BLOCKED || k == SE_MUST_BE_BLOCKED_BY_ALL)
      game_limit(g, "attacking creatures or creatures able to block checked for blocking requirements", BS_MAX);
  }
  if (!anyreq) return;
  for (int i = 0; i < b->nb; i++) {
    b->choice[i] = chosen[i];
    if (chosen[i] >= 0) b->cnt[chosen[i]]++;
  }
  /* the requirements: no legal declaration may obey more of them; a creature
   * blocking several obeys those about each attacker it blocks. The search
   * below tries one attacker a blocker, so it finds no declaration that obeys
   * more only by blocking several (docs/cards.md says so) */
  int obeyed = bs_score(b);
  if (several) {
    obeyed = 0;
    for (int i = 0; i < b->nb; i++) {
      int any = 0;
      for (int a = 0; a < b->na; a++)
        if (b->pick[i][a]) {
          any = 1;
          obeyed += b->must[i][a] + b->all[a];
        }
      obeyed += any ? b->each[i] : 0;
    }
    for (int a = 0; a < b->na; a++) {
      int blocked = 0;
      for (int i = 0; i < b->nb; i++) blocked |= b->pick[i][a];
      obeyed += blocked ? b->mbb[a] : 0;
    }
  }
  for (int i = 0; i < b->nb; i++) {
    b->choice[i] = -1;
    int req = b->each[i];
    for (int a = 0; a < b->na; a++) req |= b->must[i][a] | (b->ok[i][a] ? b->all[a] : 0);
    /* a creature with no requirement of its own matters only to help obey
     * others: blocking an attacker that must be blocked, that needs more
     * blockers, or making company for a creature that can't block alone */
    b->nopt[i] = 0;
    b->opt[i][b->nopt[i]++] = -1;
    for (int a = 0; a < b->na; a++)
      if (b->ok[i][a] && (req || b->mbb[a] || b->minb[a] > 1 || b->any_alone)) b->opt[i][b->nopt[i]++] = a;
  }
  memset(b->cnt, 0, sizeof b->cnt);
  b->nblocking = b->nalone = 0;
  b->rest[b->nb] = 0;
  for (int i = b->nb - 1; i >= 0; i--) {
    for (int a = 0; a < b->na; a++) b->left[i][a] = b->left[i + 1][a];
    for (int k = 0; k < b->nopt[i]; k++)
      if (b->opt[i][k] >= 0) b->left[i][b->opt[i][k]]++;
    int m = 0;
    for (int k = 0; k < b->nopt[i]; k++)
      if (b->opt[i][k] >= 0 && bs_gain(b, i, b->opt[i][k]) > m) m = bs_gain(b, i, b->opt[i][k]);
    b->rest[i] = b->rest[i + 1] + m;
  }
  b->steps = g->search_budget ? g->search_budget : SEARCH_BUDGET;
  if (!bs_dfs(b, 0, 0, obeyed + 1)) {
    /* a search cut short can't tell that no declaration obeys more: the
     * declaration is refused as past a capacity, never accepted on a guess */
    if (b->nodes > b->steps)
      game_limit(g, "steps searching for a declaration that obeys more blocking requirements (509.1c)", (int)b->steps);
    return;
  }
  char wit[600] = "";
  size_t u = 0;
  for (int i = 0; i < b->nb && u < sizeof wit - 240; i++) {
    if (b->best[i] < 0) continue;
    char bn[110], an[110];
    fmt_slot(g, b->blk[i], bn, sizeof bn);
    fmt_slot(g, b->atk[b->best[i]], an, sizeof an);
    u += (size_t)snprintf(wit + u, sizeof wit - u, "%s%s -> %s", u ? ", " : "", bn, an);
  }
  game_illegal(g, "creatures must block as their requirements say if able: the declaration obeys %d where %d or more can "
                  "be obeyed, e.g. %s (509.1c)", obeyed, obeyed + 1, wit);
}

/* Defending player dp's blockers decision's options (509.1a); 0 when none
 * of their creatures can block. */
static int block_options(G *g, const CRules *cr, int dp, const int16_t *bf, int nb) {
  State *s = g->s;
  TopOption *t = g->w->topt;
  dec_begin(g, MTG_D_BLOCKERS, dp, "509.1", "declare blockers");
  int n = 0;
  for (int k = 0; k < nb; k++) {
    int b = bf[k];
    if (obj_controller(g, b) != dp || !is_type(g, b, T_CREATURE)) continue;
    char bn[110];
    fmt_slot(g, b, bn, sizeof bn);
    for (int j = 0; j < nb; j++) {
      int a = bf[j];
      const Obj *ao = &s->obj[a];
      if (!ao->attacking) continue;
      /* 509.1a: attacking this player, a planeswalker they control or a battle they protect */
      if (combat_defending_player(g, a) != dp || !can_block(g, cr, b, a)) continue;
      char an[110];
      fmt_slot(g, a, an, sizeof an);
      dec_opt(g, MTG_O_BLOCK, s->obj[b].id, s->obj[a].id, -1, -1, "%s -> %s", bn, an); /* stops the game past MAX_OPTIONS */
      t[n].slot = (int16_t)b;
      t[n].slot2 = (int16_t)a;
      n++;
    }
  }
  if (n) dec_range(g, 0, n);
  return n;
}

void combat_declare_blockers(G *g) {
  State *s = g->s;
  int order[MAX_PLAYERS];
  apnap_order(g, order);
  int nb = bf_count(g);
  int16_t bf[MAX_SLOTS];
  memcpy(bf, bf_list(g), (size_t)nb * sizeof *bf);
  CRules cr;
  crules_collect(g, &cr);
  const TopOption *t = g->w->topt;
  for (int oi = 0; oi < MAX_PLAYERS && order[oi] >= 0; oi++) {
    int dp = order[oi];
    if (!s->c.defending[dp] || (s->c.blockers_done >> dp & 1)) continue;
    int cnt = 0;
    const int *v = NULL;
    int n = dec_resume(g) ? g->w->dtop.pub.n_options : block_options(g, &cr, dp, bf, nb);
    if (n) {
      v = dec_ask(g, 1, &cnt);
    } else {
      log_line(g, 0, "blockers player=%s none=1", player_name(g, dp));
    }
    s->c.blockers_done |= (uint8_t)(1u << dp);
    /* 509.1a: one attacker each, or as many more as "can block an additional
     * creature" allows (each instance one more, or its n) */
    unsigned short used[MAX_SLOTS] = {0};
    for (int i = 0; i < cnt; i++) {
      int b = t[v[i]].slot;
      if (++used[b] < 2) continue;
      int more = blocks_more(g, &cr, b);
      if (!more) game_illegal(g, "a creature can block only one attacker (509.1a)");
      if (used[b] > 1 + more) {
        char bn[110];
        fmt_slot(g, b, bn, sizeof bn);
        game_illegal(g, "%s can block only %d creatures (509.1a, its abilities)", bn, 1 + more);
      }
    }
    if (n) check_blocks(g, &cr, dp, bf, nb, t, v, cnt);
    /* 509.1g: each blocks the attackers chosen for it, and 702.22h: blocking
     * one creature of a band blocks the others; a 'blocks' event per creature
     * blocked (509.3b, 509.3d) and a 'blocked' or 'unblocked' one per
     * attacker: on the event stack, more than a frame holds */
    int first = s->c.nxblk;
    for (int i = 0; i < cnt; i++) {
      int b = t[v[i]].slot, a = t[v[i]].slot2;
      add_block(g, b, a);
      for (int j = 0; s->obj[a].band && j < nb; j++)
        if (bf[j] != a && s->obj[bf[j]].attacking && s->obj[bf[j]].band == s->obj[a].band) add_block(g, b, bf[j]);
    }
    int base = g->evtop;
    Event *ev = ev_alloc(g, cnt + (s->c.nxblk - first) + nb);
    int ne = 0;
    int16_t eb[MAX_OPTIONS + MAX_XBLOCKS], ea[MAX_OPTIONS + MAX_XBLOCKS];
    for (int i = 0; i < cnt; i++) {
      int b = t[v[i]].slot, a = t[v[i]].slot2;
      for (int j = -1; j < nb; j++) {
        /* the attacker chosen, then the others of its band (702.22h) */
        int m = j < 0 ? a : bf[j];
        if (j >= 0 && (m == a || !s->obj[a].band || !s->obj[m].attacking || s->obj[m].band != s->obj[a].band)) continue;
        int nth = 0, dup = 0;
        for (int e = 0; e < ne; e++) {
          nth += eb[e] == b;
          dup |= eb[e] == b && ea[e] == m;
        }
        if (dup) continue;
        eb[ne] = (int16_t)b;
        ea[ne] = (int16_t)m;
        ev_init(&ev[ne], EV_BLOCKS);
        ev[ne].obj = oref(g, b);
        ev[ne].src = oref(g, m);
        ev[ne].amount = nth; /* "whenever [it] blocks" triggers on its first only (509.3a) */
        ev[ne].rule = j < 0 ? "509.1" : "702.22h";
        ne++;
      }
    }
    for (int j = 0; j < nb; j++) {
      /* the options name only creatures attacking dp, none blocked yet (this
       * is dp's one declaration this combat) */
      int a = bf[j], k = 0;
      if (!s->obj[a].attacking || combat_defending_player(g, a) != dp) continue;
      for (int i = 0; i < nb && !k; i++) k = combat_blocks(g, bf[i], a);
      if (!k) continue;
      obj_w(g, a)->blocked = 1; /* 509.1h */
      ev_init(&ev[ne], EV_BLOCKED);
      ev[ne].obj = oref(g, a);
      ev[ne].rule = "509.1h";
      ne++;
    }
    /* 509.1h: the others attacking this player are unblocked creatures (509.3g) */
    for (int j = 0; j < nb; j++) {
      int a = bf[j];
      if (!s->obj[a].attacking || s->obj[a].blocked || combat_defending_player(g, a) != dp) continue;
      ev_init(&ev[ne], EV_UNBLOCKED);
      ev[ne].obj = oref(g, a);
      ev[ne].rule = "509.1h";
      ne++;
    }
    if (ne) ev_run(g, ev, ne);
    g->evtop = base;
  }
  /* attackers attacking nothing any more (506.4c) are unblocked too */
  Event ev[MAX_OPTIONS];
  int ne = 0;
  for (int j = 0; j < nb && ne < MAX_OPTIONS; j++) {
    int a = bf[j];
    if (!s->obj[a].id || !s->obj[a].attacking || s->obj[a].blocked || combat_defending_player(g, a) >= 0) continue;
    ev_init(&ev[ne], EV_UNBLOCKED);
    ev[ne].obj = oref(g, a);
    ev[ne].rule = "509.1h";
    ne++;
  }
  s->c.blockers_declared = 1;
  if (ne) ev_run(g, ev, ne);
}

int combat_defending_player(G *g, int slot) {
  const Obj *o = &g->s->obj[slot];
  if (o->atk_player >= 0) return o->atk_player;
  return oref_ok(g, o->atk_obj) ? ct_defender(g, o->atk_obj.slot) : -1;
}

int combat_has_first_strike(G *g) {
  State *s = g->s;
  for (int i = 0; i < s->c.nslots; i++) {
    const Obj *o = &s->obj[i];
    if (!o->id || o->zone != MTG_Z_BATTLEFIELD || !(o->attacking || o->blocking)) continue;
    if (has_kw(g, i, KW_FIRST_STRIKE) || has_kw(g, i, KW_DOUBLE_STRIKE)) return 1;
  }
  return 0;
}

/* ---- combat damage ---- */

static int deals_now(G *g, int slot, int first) {
  int fs = has_kw(g, slot, KW_FIRST_STRIKE), ds = has_kw(g, slot, KW_DOUBLE_STRIKE);
  if (first) return fs || ds;
  /* 510.4, 702.7c: those that had neither first strike nor double strike as
   * the first combat damage step began, and those that have double strike now */
  if (ds) return 1;
  if (!g->s->c.first_strike_done) return 1;
  return !g->s->obj[slot].fs_dealt;
}

/* 702.19b: has the blocker been assigned lethal damage, for a trampling
 * attacker: damage already marked and all that attackers assign it in this step
 * count (given), any from a source with deathtouch is lethal (702.2c, dt) */
static int lethal_given(G *g, int attacker, int blocker, int given, int dt) {
  if (dt) return 1;
  if (has_kw(g, attacker, KW_DEATHTOUCH)) return 0; /* it assigned none */
  return given >= obj_toughness(g, blocker) - g->s->obj[blocker].damage;
}

void combat_damage(G *g, int first) {
  State *s = g->s;
  combat_check(g);
  int nb = bf_count(g);
  int16_t bf[MAX_SLOTS];
  memcpy(bf, bf_list(g), (size_t)nb * sizeof *bf);
  CRules cr;
  crules_collect(g, &cr);
  /* 510.4: which creatures had first strike or double strike as the first
   * combat damage step began, whatever they deal in it */
  for (int k = 0; first && k < nb; k++) {
    Obj *o = obj_w(g, bf[k]);
    if ((o->attacking || o->blocking) && (has_kw(g, bf[k], KW_FIRST_STRIKE) || has_kw(g, bf[k], KW_DOUBLE_STRIKE)))
      o->fs_dealt = 1;
  }
  /* each attacker deals damage to its blockers and at most one more
   * recipient, each blocker to what it blocks: at most 2 * nb events, and
   * one more for each block past a blocker's first */
  int base = g->evtop;
  Event *ev = ev_alloc(g, 2 * nb + 2 * s->c.nxblk);
  int ne = 0;
  /* the damage assigned to each blocker in this step, and whether by a source
   * with deathtouch (702.19b); the trampling attackers that assign some to
   * what they attack */
  int32_t given[MAX_SLOTS] = {0};
  uint8_t dt_given[MAX_SLOTS] = {0};
  int16_t tramplers[MAX_SLOTS];
  int ntr = 0;
  for (int k = 0; k < nb; k++) {
    int a = bf[k];
    const Obj *o = &s->obj[a];
    if (!o->attacking || !deals_now(g, a, first)) continue;
    int power = obj_power(g, a);
    if (power <= 0) continue; /* 510.1a */
    if (crule_count(g, &cr, SE_NO_COMBAT_DAMAGE, a)) continue; /* "assigns no combat damage" */
    /* 510.1c: every creature blocking it is among the recipients, and the
     * division is one decision: its blockers and the player or permanent it
     * attacks are at most MAX_OPTIONS options */
    int blockers[MAX_OPTIONS - 1], nbk = 0, banded = 0;
    for (int j = 0; j < nb; j++) {
      if (!combat_blocks(g, bf[j], a)) continue;
      if (nbk == NELEM(blockers)) game_limit(g, "creatures blocking one creature", NELEM(blockers));
      blockers[nbk++] = bf[j];
      banded |= has_kw(g, bf[j], KW_BANDING);
    }
    int trample = has_kw(g, a, KW_TRAMPLE);
    Target to_def;
    memset(&to_def, 0, sizeof to_def);
    if (o->atk_player >= 0) {
      to_def.kind = TK_PLAYER;
      to_def.player = o->atk_player;
    } else if (oref_ok(g, o->atk_obj)) {
      to_def.kind = TK_OBJ;
      to_def.obj = o->atk_obj;
    }
    char an[110];
    fmt_slot(g, a, an, sizeof an);
    int as_unblocked = 0;
    if (o->blocked && to_def.kind != TK_NONE && crule_count(g, &cr, SE_DAMAGE_AS_UNBLOCKED, a))
      as_unblocked = ask_yes_no(g, obj_controller(g, a), "510.1c", "have %s assign its combat damage as though it weren't blocked?", an);
    if (!o->blocked || as_unblocked) {
      if (to_def.kind == TK_NONE) continue; /* 510.1b */
      ev_init(&ev[ne], EV_DAMAGE);
      ev[ne].src = oref(g, a);
      ev[ne].amount = power;
      ev[ne].flags = EF_COMBAT;
      if (to_def.kind == TK_PLAYER) ev[ne].player = to_def.player;
      else ev[ne].obj = to_def.obj;
      ne++;
      continue;
    }
    if (!nbk) {
      /* 702.19e: trample with no blockers left: all to the player */
      if (!trample || to_def.kind == TK_NONE) continue;
      ev_init(&ev[ne], EV_DAMAGE);
      ev[ne].src = oref(g, a);
      ev[ne].amount = power;
      ev[ne].flags = EF_COMBAT;
      if (to_def.kind == TK_PLAYER) ev[ne].player = to_def.player;
      else ev[ne].obj = to_def.obj;
      ne++;
      continue;
    }
    int amounts[MAX_OPTIONS] = {0};
    /* 702.22j: blocked by a creature with banding, it is the defending player
     * who divides its damage, among the creatures blocking it only */
    int nopt = nbk + (trample && to_def.kind != TK_NONE && !banded);
    if (nopt == 1) {
      amounts[0] = power;
    } else {
      /* 510.1c: divided as its controller chooses */
      dec_begin(g, MTG_D_DAMAGE, banded ? obj_controller(g, blockers[0]) : obj_controller(g, a), banded ? "702.22j" : "510.1c",
                "assign %d combat damage of %s", power, an);
      for (int i = 0; i < nbk; i++) {
        char bn[110];
        fmt_slot(g, blockers[i], bn, sizeof bn);
        dec_opt(g, MTG_O_OBJECT, s->obj[blockers[i]].id, 0, -1, -1, "%s", bn);
      }
      if (nopt > nbk) {
        char dn[110];
        fmt_target(g, &to_def, dn, sizeof dn);
        dec_opt(g, to_def.kind == TK_PLAYER ? MTG_O_PLAYER : MTG_O_OBJECT, to_def.kind == TK_OBJ ? to_def.obj.id : 0, 0,
                to_def.kind == TK_PLAYER ? to_def.player : -1, -1, "%s", dn);
      }
      g->dec->pub.lo = 0;
      g->dec->pub.hi = power;
      int cnt;
      const int *v = dec_ask(g, 0, &cnt);
      for (int i = 0; i < cnt; i++) amounts[i] = v[i];
      /* 702.19b: the player gets damage only once every blocker has lethal,
       * checked when all attackers' damage is assigned (510.1e) */
      if (nopt > nbk && amounts[nbk] > 0) tramplers[ntr++] = a;
    }
    for (int i = 0; i < nbk; i++) {
      given[blockers[i]] += amounts[i];
      if (amounts[i] > 0 && has_kw(g, a, KW_DEATHTOUCH)) dt_given[blockers[i]] = 1;
    }
    for (int i = 0; i < nopt; i++) {
      if (amounts[i] <= 0) continue;
      ev_init(&ev[ne], EV_DAMAGE);
      ev[ne].src = oref(g, a);
      ev[ne].amount = amounts[i];
      ev[ne].flags = EF_COMBAT;
      if (i < nbk) ev[ne].obj = oref(g, blockers[i]);
      else if (to_def.kind == TK_PLAYER) ev[ne].player = to_def.player;
      else ev[ne].obj = to_def.obj;
      ne++;
    }
  }
  /* 702.19b with 510.1e: lethal damage to a blocker counts what every
   * attacker assigned it in this step, and damage from a source with
   * deathtouch (702.2c) */
  for (int i = 0; i < ntr; i++)
    for (int j = 0; j < nb; j++)
      if (combat_blocks(g, bf[j], tramplers[i]) && !lethal_given(g, tramplers[i], bf[j], given[bf[j]], dt_given[bf[j]]))
        game_illegal(g, "trample: assign lethal damage to every blocker before the player (702.19b)");
  for (int k = 0; k < nb; k++) {
    int b = bf[k];
    const Obj *o = &s->obj[b];
    if (!o->blocking || !deals_now(g, b, first)) continue;
    int power = obj_power(g, b);
    if (power <= 0) continue; /* 510.1a */
    if (crule_count(g, &cr, SE_NO_COMBAT_DAMAGE, b)) continue;
    /* 510.1d: to the creatures it blocks still in combat; none once they left */
    int atk[MAX_OPTIONS], na = 0, banded = 0;
    for (int j = 0; j < nb; j++) {
      const Obj *x = &s->obj[bf[j]];
      if (!combat_blocks(g, b, bf[j]) || x->zone != MTG_Z_BATTLEFIELD || !x->attacking || x->phased_out) continue;
      if (na == NELEM(atk)) game_limit(g, "creatures one creature blocks", NELEM(atk));
      atk[na++] = bf[j];
      banded |= has_kw(g, bf[j], KW_BANDING);
    }
    int amounts[MAX_OPTIONS] = {0};
    if (!na) continue;
    if (na == 1) {
      amounts[0] = power;
    } else {
      /* 510.1d: divided as its controller chooses; 702.22k: blocking a
       * creature with banding, as the active player chooses */
      char bn[110];
      fmt_slot(g, b, bn, sizeof bn);
      dec_begin(g, MTG_D_DAMAGE, banded ? s->c.active : obj_controller(g, b), banded ? "702.22k" : "510.1d",
                "assign %d combat damage of %s", power, bn);
      for (int i = 0; i < na; i++) {
        char an[110];
        fmt_slot(g, atk[i], an, sizeof an);
        dec_opt(g, MTG_O_OBJECT, s->obj[atk[i]].id, 0, -1, -1, "%s", an);
      }
      g->dec->pub.lo = 0;
      g->dec->pub.hi = power;
      int cnt;
      const int *v = dec_ask(g, 0, &cnt);
      for (int i = 0; i < cnt; i++) amounts[i] = v[i];
    }
    for (int i = 0; i < na; i++) {
      if (amounts[i] <= 0) continue;
      ev_init(&ev[ne], EV_DAMAGE);
      ev[ne].src = oref(g, b);
      ev[ne].obj = oref(g, atk[i]);
      ev[ne].amount = amounts[i];
      ev[ne].flags = EF_COMBAT;
      ne++;
    }
  }
  if (ne) ev_run(g, ev, ne);
  g->evtop = base;
}

/* ---- leaving combat ---- */

void combat_remove(G *g, int slot) {
  Obj *o = obj_w(g, slot);
  if (!o->attacking && !o->blocking) return;
  o->attacking = 0;
  o->blocking = 0;
  o->blocked = 0;
  o->atk_player = -1;
  o->atk_obj = oref_none();
  o->block_of = oref_none();
  o->band = 0; /* 702.22f */
  /* nor blocking or blocked in the blocks past a blocker's first */
  State *s = g->s;
  int k = 0;
  for (int i = 0; i < s->c.nxblk; i++)
    if (s->xblk[i].blk.slot != slot && s->xblk[i].atk.slot != slot) s->xblk[k++] = s->xblk[i];
  s->c.nxblk = (int16_t)k;
  char nm[110];
  fmt_slot(g, slot, nm, sizeof nm);
  log_line(g, 0, "remove_from_combat obj=%s rule=506.4", nm);
}

void combat_check(G *g) {
  int nb = bf_count(g);
  const int16_t *bf = bf_list(g);
  for (int k = 0; k < nb; k++) {
    const Obj *o = &g->s->obj[bf[k]];
    if ((o->attacking || o->blocking) && !is_type(g, bf[k], T_CREATURE)) combat_remove(g, bf[k]);
  }
}

void combat_end(G *g) {
  State *s = g->s;
  effects_expire(g, DUR_COMBAT); /* 511.2: "until end of combat" */
  for (int i = 0; i < s->c.nslots; i++) {
    const Obj *r = &s->obj[i];
    /* written only where in combat: a written slot is copied at the next snapshot */
    if (!r->attacking && !r->blocking && !r->blocked && r->atk_player == -1 && !r->atk_obj.id && r->atk_obj.slot == -1 &&
        !r->block_of.id && r->block_of.slot == -1 && !r->band)
      continue;
    Obj *o = obj_w(g, i);
    o->attacking = o->blocking = o->blocked = o->band = 0;
    o->atk_player = -1;
    o->atk_obj = oref_none();
    o->block_of = oref_none();
  }
  memset(s->c.defending, 0, sizeof s->c.defending);
  s->c.nxblk = 0;
  s->c.blockers_declared = 0;
}
