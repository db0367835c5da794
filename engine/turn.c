/* turn.c - the main loop: turns, phases and steps (500-514), turn-based
 * actions (703), priority (117) with the state-based action and trigger loop
 * before every priority (704.3), special actions (116: playing a land), and
 * the cleanup step (514.3a). The loop's position is State.c.stage, so a run
 * can resume at a top-level decision. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "num.h"

static int step_next(int st) { return st + 1; }

static void begin_turn(G *g) {
  State *s = g->s;
  Core *c = &s->c;
  int next;
  if (c->turn_seq == 0) next = c->in_order = c->active;
  else if (c->nextra) {
    /* 500.7: extra turns, most recently created first, added after the
     * turn they were created in: the turn order then goes on from there */
    next = c->extra_turns[--c->nextra];
  } else next = c->in_order = (uint8_t)next_player(g, c->in_order);
  /* the turn number is in the engine's range (num.h): past MTG_NUM_MAX the
   * game stops as at a turn limit, rather than number two turns alike */
  if (c->turn >= MTG_NUM_MAX) {
    c->stopped = 1;
    log_line(g, 0, "game_over result=stopped reason=turn_limit turn=%d", c->turn);
    game_stop(g);
  }
  c->turn++;
  if (c->max_turns && c->turn > c->max_turns) {
    c->stopped = 1;
    log_line(g, 0, "game_over result=stopped reason=turn_limit turn=%d", c->turn - 1);
    game_stop(g);
  }
  c->turn_seq = num_add(c->turn_seq, 1);
  c->active = (uint8_t)next;
  c->pl[next].turn_started = c->turn_seq;
  for (int p = 0; p < c->np; p++) {
    c->pl[p].lands_played = 0;
    c->pl[p].extra_lands = 0;
    c->pl[p].drawn_turn = 0;
    c->pl[p].spells_cast_turn = 0;
  }
  static const uint8_t none[sizeof s->obj[0].resolved];
  /* written only where set: a written slot is copied at the next snapshot.
   * abil_used[0] (a triggered ability's action taken, 603.2i) is set only as
   * that ability resolves, which counts in resolved too */
  for (int i = 0; i < c->nslots; i++) {
    const Obj *r = &s->obj[i];
    if (!r->abil_used[1] && !memcmp(r->resolved, none, sizeof none)) continue;
    Obj *o = obj_w(g, i);
    o->abil_used[0] = o->abil_used[1] = 0;
    memset(o->resolved, 0, sizeof o->resolved);
  }
  hist_turn_begin(g); /* "last turn" is now the turn that just ended */
  c->resolutions_since_action = 0;
  c->nxafter = c->nxq = c->xresume = 0;
  log_line(g, 0, "turn n=%d player=%s", c->turn, player_name(g, next));
  effects_turn_begin(g, next);
  var_turn_begin(g); /* 901.6: the planar controller */
  c->step = MTG_S_UNTAP;
  c->stage = SG_STEP_BEGIN;
  chars_dirty(g); /* static abilities conditioned on whose turn it is (611.3a) */
}

static int hand_size(G *g, int p) {
  const StaticSpec *st;
  if (rule_effect(g, SE_NO_MAX_HAND_SIZE, p, -1, NULL, NULL)) return INT_MAX; /* 402.2 */
  if (rule_effect(g, SE_HAND_SIZE, p, -1, &st, NULL)) return st->a;
  (void)p;
  return 7;
}

/* 514.1: discard down to the maximum hand size */
static void cleanup_discard(G *g) {
  State *s = g->s;
  int p = s->c.active;
  int n = zl_count(g, MTG_Z_HAND, p), max = hand_size(g, p);
  if (n <= max) return;
  int k = n - max;
  int16_t *h = zl_list(g, MTG_Z_HAND, p);
  dec_begin(g, MTG_D_CHOOSE, p, "514.1", "discard %d card%s to hand size", k, k == 1 ? "" : "s");
  int16_t hand[MAX_SLOTS];
  memcpy(hand, h, (size_t)n * sizeof *hand);
  for (int i = 0; i < n; i++) {
    char nm[110];
    fmt_slot(g, hand[i], nm, sizeof nm);
    dec_opt(g, MTG_O_OBJECT, s->obj[hand[i]].id, 0, -1, -1, "%s", nm);
  }
  dec_range(g, k, k);
  int cnt;
  const int *v = dec_ask(g, 0, &cnt);
  int slots[MAX_OPTIONS];
  for (int i = 0; i < cnt; i++) slots[i] = hand[v[i]];
  do_move_many(g, slots, cnt, EV_DISCARD, MTG_Z_GRAVEYARD, CA_EFFECT, -1, 0);
}

/* the step's line is logged once, before anything happening in it */
static void step_log(G *g, Event *se, int *logged) {
  if (*logged) return;
  *logged = 1;
  log_event(g, se);
}

static void begin_step(G *g) {
  State *s = g->s;
  Core *c = &s->c;
  int ap = c->active;
  /* 614.10: skipped steps */
  if (c->skip[ap][c->step] > 0) {
    c->skip[ap][c->step]--;
    log_line(g, 0, "skip step=%s player=%s rule=614.10", mtg_step_name(c->step), player_name(g, ap));
    c->stage = SG_STEP_END;
    c->skipping = 1;
    return;
  }
  Event se;
  ev_init(&se, EV_STEP);
  se.amount = c->step;
  se.player = (int8_t)ap;
  if (!replace_event(g, &se)) {
    log_line(g, 0, "skip step=%s player=%s rule=614.10", mtg_step_name(c->step), player_name(g, ap));
    c->stage = SG_STEP_END;
    c->skipping = 1;
    return;
  }
  c->skipping = 0;
  if (c->step == MTG_S_UPKEEP) {
    /* 702.30a: read as this upkeep's triggers are, "your last upkeep" is the one before it */
    c->pl[ap].upkeep_prev = c->pl[ap].upkeep_last;
    c->pl[ap].upkeep_last = c->turn_seq;
  }
  c->passes = 0;
  c->prio = (uint8_t)ap;
  if (c->step == MTG_S_BEGIN_COMBAT) c->combat_seq++; /* a new combat phase ("this combat") */
  int step_logged = 0;
  if (c->after_skip) {
    /* 614.10b: the action that followed a skip happens first in this step */
    const Node *steps = c->after_skip;
    c->after_skip = NULL;
    Ctx cx;
    ctx_for(g, &cx, c->after_skip_ctl, c->after_skip_src);
    step_log(g, &se, &step_logged);
    eff_run(g, &cx, steps);
  }
  switch (c->step) {
  case MTG_S_UNTAP: {
    step_log(g, &se, &step_logged);
    int nb = bf_count(g);
    int16_t *bf = bf_list(g);
    /* one event per permanent at most, however many: on the event stack */
    int base = g->evtop;
    Event *ev = ev_alloc(g, nb);
    int ne = 0;
    /* 502.2, 702.26a: at once, the active player's phased-in permanents with
     * phasing phase out and those that phased out under their control phase
     * in; what is attached goes with them (702.26g) */
    for (int i = 0; i < nb; i++) {
      const Obj *o = &s->obj[bf[i]];
      if (o->controller != ap) continue;
      if (o->phased_out) {
        if (o->phased_indirectly) continue; /* phases in with its host */
        ne = phase_events(g, ev, ne, bf[i], 0, 0);
      } else if (has_kw(g, bf[i], KW_PHASING)) {
        ne = phase_events(g, ev, ne, bf[i], 1, 0);
      }
    }
    if (ne) ev_run(g, ev, ne);
    ne = 0;
    /* 502.3: untap everything the active player controls; 701.43a: what they
     * exerted doesn't untap during this, their next untap step */
    for (int i = 0; i < nb; i++) {
      const Obj *o = &s->obj[bf[i]];
      int exerted = o->exerted == ap + 1;
      if (exerted) obj_w(g, bf[i])->exerted = 0;
      if (o->tapped && !o->phased_out && !exerted && obj_controller(g, bf[i]) == ap) { /* 702.26b */
        /* 502.3: the active player determines which permanents untap */
        if (rule_effect(g, SE_DOESNT_UNTAP, -1, bf[i], NULL, NULL)) continue;
        if (rule_effect(g, SE_MAY_NOT_UNTAP, -1, bf[i], NULL, NULL)) {
          char nm[110];
          fmt_slot(g, bf[i], nm, sizeof nm);
          if (!ask_yes_no(g, ap, "502.3", "untap %s?", nm)) continue;
        }
        ev_init(&ev[ne], EV_UNTAP);
        ev[ne].obj = oref(g, bf[i]);
        ev[ne].rule = "502.3";
        ne++;
      }
    }
    if (ne) ev_run(g, ev, ne);
    g->evtop = base;
    trig_step(g, c->step);
    /* 502.4: no priority in the untap step; triggers wait for the upkeep */
    c->stage = SG_STEP_END;
    return;
  }
  case MTG_S_DRAW:
    step_log(g, &se, &step_logged);
    trig_step(g, c->step);
    /* 103.8a: the starting player skips the first draw in a two-player game */
    if (!(c->turn_seq == 1 && c->np == 2 && c->skip_first_draw)) do_draw(g, ap, 1, -1, 0);
    break;
  case MTG_S_DECLARE_ATTACKERS:
    step_log(g, &se, &step_logged);
    /* 703.3: "at the beginning of" abilities trigger as the step begins and
     * wait through the turn-based action for priority (603.3) */
    trig_step(g, c->step);
    c->stage = SG_ATTACKERS_ASK;
    return;
  case MTG_S_BEGIN_COMBAT:
    /* each combat phase starts afresh (500.8: a turn may have several) */
    c->first_strike_done = 0;
    c->attackers_declared = 0;
    c->blockers_done = 0;
    c->blockers_declared = 0;
    for (int i = 0; i < c->nslots; i++)
      if (s->obj[i].fs_dealt) obj_w(g, i)->fs_dealt = 0;
    step_log(g, &se, &step_logged);
    trig_step(g, c->step);
    break;
  case MTG_S_DECLARE_BLOCKERS:
  case MTG_S_COMBAT_DAMAGE:
    /* 508.8: if no creatures were declared as attackers these steps are
     * skipped; attackers removed from combat since don't make it so (510.4) */
    if (!c->attackers_declared) {
      c->stage = SG_STEP_END;
      c->skipping = 1;
      return;
    }
    if (c->step == MTG_S_DECLARE_BLOCKERS) {
      step_log(g, &se, &step_logged);
      trig_step(g, c->step); /* as in the declare attackers step */
      c->stage = SG_BLOCKERS_ASK;
      return;
    }
    if (!c->first_strike_done && combat_has_first_strike(g)) {
      log_line(g, 0, "step name=combat_damage player=%s first_strike=1", player_name(g, ap));
      c->in_fs_step = 1;
      combat_damage(g, 1);
      c->first_strike_done = 1;
    } else {
      step_log(g, &se, &step_logged);
      c->in_fs_step = 0;
      combat_damage(g, 0);
    }
    trig_step(g, c->step);
    break;
  case MTG_S_CLEANUP:
    step_log(g, &se, &step_logged);
    cleanup_discard(g);
    /* 514.2: damage wears off and "until end of turn" effects end, together */
    for (int i = 0; i < c->nslots; i++)
      if (s->obj[i].id && s->obj[i].zone == MTG_Z_BATTLEFIELD && (s->obj[i].damage || s->obj[i].saddled)) {
        obj_w(g, i)->damage = 0;
        obj_w(g, i)->saddled = 0; /* 702.171b: saddled until end of turn */
      }
    effects_expire(g, DUR_EOT);
    log_line(g, 0, "damage_removed rule=514.2");
    trig_step(g, c->step);
    /* 603.8: a state trigger whose ability came back as the effects ended
     * (or whose condition they made true) triggers now, and is then one of
     * the triggered abilities 514.3a finds waiting */
    trig_state(g);
    /* 514.3a: priority only if something happened */
    if (sba_check(g) || c->npend) {
      sba_loop(g);
      c->cleanup_again = 1;
      c->stage = SG_PRIORITY;
    } else {
      c->stage = SG_STEP_END;
    }
    return;
  default:
    step_log(g, &se, &step_logged);
    if (c->step == MTG_S_MAIN1) ct_precombat_main(g); /* 505.4, 714.3b */
    if (c->step == MTG_S_MAIN1) var_precombat_main(g); /* 904.9 */
    trig_step(g, c->step);
    break;
  }
  c->stage = SG_PRIORITY;
}

/* The step after step in a turn with no phases added. */
static int normal_next(int step) { return step + 1; }

/* 500.8: when a phase ends, the phases added after it come next, before the
 * phases added earlier that are still to come; then the turn goes on. Returns 1
 * if the next step was set. */
static int added_phases(G *g) {
  Core *c = &g->s->c;
  int phase_end = c->step == MTG_S_MAIN1 || c->step == MTG_S_MAIN2 || c->step == MTG_S_END_COMBAT;
  if (!phase_end) return 0;
  if (c->nxafter) {
    if (c->nxq + c->nxafter > (int)sizeof c->xq) game_limit(g, "extra phases waiting", (int)sizeof c->xq);
    memmove(c->xq + c->nxafter, c->xq, c->nxq);
    memcpy(c->xq, c->xafter, c->nxafter);
    c->nxq = (uint8_t)(c->nxq + c->nxafter);
    c->nxafter = 0;
    if (!c->xresume) c->xresume = (uint8_t)(normal_next(c->step) + 1);
  }
  if (!c->xresume) return 0;
  if (c->nxq) {
    int ph = c->xq[0];
    memmove(c->xq, c->xq + 1, --c->nxq);
    c->step = (uint8_t)(ph == PH_COMBAT ? MTG_S_BEGIN_COMBAT : MTG_S_MAIN2); /* 505.1a */
  } else {
    c->step = (uint8_t)(c->xresume - 1);
    c->xresume = 0;
  }
  c->stage = SG_STEP_BEGIN;
  return 1;
}

static void end_step(G *g) {
  Core *c = &g->s->c;
  if (!c->skipping) mana_empty(g); /* 500.4; begin_step sets skipping for every step */
  if (c->step == MTG_S_END_COMBAT) combat_end(g); /* 511.3 */
  if (c->step == MTG_S_COMBAT_DAMAGE && c->in_fs_step) {
    /* 510.4: a second combat damage step follows the first-strike one */
    c->in_fs_step = 0;
    c->stage = SG_STEP_BEGIN;
    return;
  }
  if (c->step == MTG_S_CLEANUP) {
    if (c->cleanup_again) {
      c->cleanup_again = 0;
      c->stage = SG_STEP_BEGIN;
      return;
    }
    c->stage = SG_TURN_BEGIN;
    return;
  }
  if (added_phases(g)) return;
  c->step = (uint8_t)step_next(c->step);
  c->stage = SG_STEP_BEGIN;
}

/* ---- priority ---- */

enum { A_PASS, A_PLAY, A_CAST, A_ACT, A_FACE_UP, A_CAST_FACE_DOWN, A_FORETELL, A_SUSPEND };

static int can_play_land_as_is(G *g, int p, int slot, int face);

/* face: the face played, of a modal double-faced card (712.12; 0 its front) */
static int can_play_land(G *g, int p, int slot, int face) {
  int up = face_up_to_play(g, p, slot); /* 406.3a */
  int r = can_play_land_as_is(g, p, slot, face);
  if (up) face_down_again(g, slot);
  return r;
}

/* Whether player p may play a land now, whichever land (305.1, 305.2, 305.2a). */
static int land_timing(G *g, int p) {
  const Core *c = &g->s->c;
  if (c->active != p || c->nstack || (c->step != MTG_S_MAIN1 && c->step != MTG_S_MAIN2)) return 0;
  return c->pl[p].lands_played < 1 + c->pl[p].extra_lands;
}

static int can_play_land_as_is(G *g, int p, int slot, int face) {
  State *s = g->s;
  if (!land_timing(g, p)) return 0;
  const Obj *o = &s->obj[slot];
  const CardDef *fd = face ? cast_face(o->def, face) : NULL;
  if (face ? !fd || !(fd->types & T_LAND) || o->def->split : !is_type(g, slot, T_LAND)) return 0;
  if (o->zone == MTG_Z_EXILE) return (play_permission(g, p, slot) & (PP_OK | PP_NO_LAND)) == PP_OK; /* "you may play it" */
  return o->zone == MTG_Z_HAND; /* p's own hand: a hand holds only its owner's cards (400.3) */
}

/* Only ever the answer to a priority option, which is offered where
 * can_play_land holds in this very state (priority_options). */
static void play_land(G *g, int p, int slot, int face) {
  face_up_to_play(g, p, slot); /* 406.3a */
  char nm[110];
  fmt_slot(g, slot, nm, sizeof nm);
  NUM_INC(g->s->c.pl[p].lands_played, INT16_MAX);
  log_line(g, 0, "play_land player=%s obj=%s rule=116.2a", player_name(g, p), nm);
  /* it enters under the control of the player who played it, whoever owns it */
  Event e;
  ev_init(&e, EV_ZONE);
  e.obj = oref(g, slot);
  e.from = (int8_t)g->s->obj[slot].zone;
  e.to = MTG_Z_BATTLEFIELD;
  e.etb_ctl = (int8_t)p;
  e.cause = CA_PLAY;
  e.cause_ctl = (int8_t)p;
  e.etb_transformed = (uint8_t)(face == 1); /* 712.12: with the face played up */
  ev_one(g, &e);
}

/* The option to activate ability a of the object in slot, which
 * activation_reaches lets player p activate, if p can now (602.2, 605.3a). */
static void activate_option(G *g, int p, int slot, int a, PrioOpts *o) {
  if (!can_activate(g, p, slot, a)) return;
  char nm[110];
  fmt_slot(g, slot, nm, sizeof nm);
  o->act[o->n] = A_ACT;
  o->slot[o->n] = slot;
  o->ab[o->n++] = a;
  dec_opt(g, MTG_O_ACTIVATE, g->s->obj[slot].id, 0, -1, a, "activate %s/%d", nm, a);
}

/* The players who may activate ability a of the object in slot as far as
 * where it is and who controls or owns it go (activation_reaches), as bits. */
static unsigned act_reach(const Obj *ob, const Chars *ch, const Ability *ab, int np) {
  unsigned r = 0;
  for (int q = 0; q < np; q++) r |= (unsigned)activation_reaches(ob, ch, ab, q) << q;
  return r;
}

/* Objects the activated abilities' options look at: none in a library or
 * on the stack. */
static int act_looked_at(const Obj *ob) { return ob->id && ob->zone != MTG_Z_LIBRARY && ob->zone != MTG_Z_STACK; }

/* Adds an entry to the index (g->act); 0 when there is no room for it. */
static int act_add(G *g, int slot, int a, unsigned reach) {
  if (g->act_n == g->act_cap) {
    int cap = g->act_cap ? 2 * g->act_cap : 128;
    ActRef *l = realloc(g->act, (size_t)cap * sizeof *l);
    if (!l) return 0;
    g->act = l;
    g->act_cap = cap;
  }
  g->act[g->act_n++] = (ActRef){(int16_t)slot, (uint8_t)a, (uint8_t)reach};
  return 1;
}

/* The activated abilities' options, in the order of the objects' slots and
 * of their abilities, from slot i0 and its ability a0 on. With record, the
 * abilities met that some player may activate from where they are become
 * the index (g->act) if the look reaches the last slot in the same epoch. */
static void activate_scan(G *g, int p, PrioOpts *o, int i0, int a0, int record) {
  State *s = g->s;
  uint32_t e0 = g->epoch;
  g->act_n = 0;
  for (int i = i0; i < s->c.nslots && o->n < MAX_OPTIONS; i++, a0 = 0) {
    const Obj *ob = &s->obj[i];
    if (!act_looked_at(ob)) continue;
    const Chars *ch = chars(g, i);
    for (int a = a0; a < ch->nab && o->n < MAX_OPTIONS; a++) {
      const Ability *ab = ch->ab[a].ab;
      if (ab->kind != AB_ACTIVATED) continue;
      unsigned reach = act_reach(ob, ch, ab, s->c.np);
      if (record && reach) record = act_add(g, i, a, reach);
      if (reach >> p & 1) activate_option(g, p, i, a, o);
    }
  }
  g->act_ok = (uint8_t)(record && o->n < MAX_OPTIONS && g->epoch == e0);
  g->act_epoch = e0;
}

/* The activated abilities' options, as activate_scan(g, p, o, 0, 0, 0) finds
 * them: from the index while it is valid (nothing was added, moved or
 * changed since it was made: the abilities, and who may activate them from
 * where they are, are those), by a look at every object otherwise, which
 * makes it again. The object looked at as it would enter (614.12) has other
 * characteristics than the index's. */
static void activate_options(G *g, int p, PrioOpts *o) {
  uint32_t e0 = g->epoch;
  if (!g->act_ok || g->act_epoch != e0 || g->hyp_slot >= 0) {
    activate_scan(g, p, o, 0, 0, g->hyp_slot < 0);
    return;
  }
  int ri = 0, ra = 0; /* where a look would go on from */
  for (int k = 0; k < g->act_n && o->n < MAX_OPTIONS; k++) {
    const ActRef *r = &g->act[k];
    if (g->epoch != e0) { /* never while a listing changes nothing: the look goes on */
      activate_scan(g, p, o, ri, ra, 0);
      return;
    }
    if (r->reach >> p & 1) activate_option(g, p, r->slot, r->ab, o);
    ri = r->slot;
    ra = r->ab + 1;
  }
}

int act_index_valid(G *g) { return g->act_ok && g->act_epoch == g->epoch && g->hyp_slot < 0; }

int act_index_check(G *g, char *why, size_t n) {
  State *s = g->s;
  int k = 0, rc = 0;
  for (int i = 0; i < s->c.nslots && !rc; i++) {
    const Obj *ob = &s->obj[i];
    if (!act_looked_at(ob)) continue;
    const Chars *ch = chars(g, i);
    for (int a = 0; a < ch->nab && !rc; a++) {
      const Ability *ab = ch->ab[a].ab;
      unsigned reach = ab->kind == AB_ACTIVATED ? act_reach(ob, ch, ab, s->c.np) : 0;
      if (!reach) continue;
      const ActRef *r = k < g->act_n ? &g->act[k] : NULL;
      if (!r || r->slot != i || r->ab != a || r->reach != reach) {
        snprintf(why, n, "the activated-ability index is stale: its entry %d is not ability %d of #%u (slot %d) for players %#x", k,
                 a, (unsigned)ob->id, i, reach);
        rc = -1;
      }
      k++;
    }
  }
  if (!rc && k != g->act_n) {
    snprintf(why, n, "the activated-ability index is stale: it lists %d abilities, a look finds %d", g->act_n, k);
    rc = -1;
  }
  return rc;
}

/* The options to play or cast the card in slot from zone, one per face (709.3,
 * 712.11b, 712.12); none once the decision is full (MAX_OPTIONS), so that its
 * callers' loops need not stop. */
static void play_or_cast_options(G *g, int p, int slot, int zone, const char *suffix, int lands, int spells, PrioOpts *o) {
  int faces[4], nf = cast_faces(g->s->obj[slot].def, faces);
  char nm[110], fl[140];
  for (int f = 0; f < nf && o->n < MAX_OPTIONS; f++) {
    int land = lands && can_play_land(g, p, slot, faces[f]);
    CastWay w = {.zone = (int8_t)zone, .face = (uint8_t)faces[f]};
    if (!land && !(spells && can_cast_way(g, p, slot, &w))) continue;
    fmt_slot(g, slot, nm, sizeof nm);
    cast_face_label(g->s->obj[slot].def, faces[f], fl, sizeof fl);
    o->act[o->n] = land ? A_PLAY : A_CAST;
    o->slot[o->n] = slot;
    o->zone[o->n] = zone;
    o->face[o->n] = faces[f];
    dec_opt(g, land ? MTG_O_PLAY : MTG_O_CAST, g->s->obj[slot].id, 0, -1, -1, "%s %s%s%s", land ? "play" : "cast", nm, suffix, fl);
    o->n++;
  }
}

/* Whether some face of the card in slot, in player p's graveyard, has a way
 * to be cast from there (cast_alts: flashback, escape, ...): without one,
 * can_cast_way refuses it whatever else it asks, and most cards in
 * graveyards have none (asked first, it spares the timing and cost
 * questions about each of them at every listing). */
static int grave_castable(G *g, int p, int slot) {
  int faces[4], nf = cast_faces(g->s->obj[slot].def, faces);
  uint8_t alts[ALT_COUNT];
  for (int f = 0; f < nf; f++)
    if (cast_alts(g, p, slot, MTG_Z_GRAVEYARD, faces[f], alts)) return 1;
  return 0;
}

/* The priority decision's options: what player p can do now (117.1), and
 * what each does (g->w->popt, kept with the snapshot: dec_resume). */
static void priority_options(G *g, int p) {
  State *s = g->s;
  Core *c = &s->c;
  dec_begin(g, MTG_D_PRIORITY, p, "117.3", "priority");
  g->listing = ++g->listings ? g->listings : ++g->listings; /* never 0 */
  PrioOpts *o = &g->w->popt;
  o->n = 0;
  o->act[o->n++] = A_PASS;
  dec_opt(g, MTG_O_PASS, 0, 0, -1, -1, "pass");
  int hn = zl_count(g, MTG_Z_HAND, p);
  int16_t hand[MAX_SLOTS];
  memcpy(hand, zl_list(g, MTG_Z_HAND, p), (size_t)hn * sizeof *hand);
  char nm[110];
  /* lands first; none when no land can be played now (a card in a hand is
   * never turned face up to be played: nothing is skipped but the asking) */
  if (land_timing(g, p))
    for (int i = 0; i < hn; i++) play_or_cast_options(g, p, hand[i], MTG_Z_HAND, "", 1, 0, o);
  for (int i = 0; i < hn; i++) play_or_cast_options(g, p, hand[i], MTG_Z_HAND, "", 0, 1, o);
  /* special actions with a card in the hand: foretelling (116.2h), suspending (116.2f) */
  for (int i = 0; i < hn && o->n < MAX_OPTIONS; i++) {
    if (!s->obj[hand[i]].def->cast) continue; /* most cards have neither foretell nor suspend */
    for (int w = 0; w < 2 && o->n < MAX_OPTIONS; w++) {
      if (!(w ? cast_can_suspend : cast_can_foretell)(g, p, hand[i])) continue;
      fmt_slot(g, hand[i], nm, sizeof nm);
      o->act[o->n] = w ? A_SUSPEND : A_FORETELL;
      o->slot[o->n++] = hand[i];
      dec_opt(g, MTG_O_ACTIVATE, s->obj[hand[i]].id, 0, -1, -1, "%s %s", w ? "suspend" : "foretell", nm);
    }
  }
  for (int i = 0; i < hn && o->n < MAX_OPTIONS; i++)
    if (s->obj[hand[i]].def->has_morph && can_cast_face_down(g, p, hand[i])) { /* most cards have no morph */
      fmt_slot(g, hand[i], nm, sizeof nm);
      o->act[o->n] = A_CAST_FACE_DOWN;
      o->slot[o->n++] = hand[i];
      dec_opt(g, MTG_O_CAST, s->obj[hand[i]].id, 0, -1, 1, "cast %s face_down=1", nm);
    }
  /* 903.8: commanders in the command zone */
  int cn = cmd_count(g);
  int16_t *cz = cmd_list(g);
  for (int i = 0; i < cn; i++) play_or_cast_options(g, p, cz[i], MTG_Z_COMMAND, " from=command", 0, 1, o);
  /* exiled cards an effect lets this player play ("you may play it this turn") */
  for (int i = 0; i < c->neff; i++) {
    const Effect *pe = &s->eff[i];
    if (!play_effect_for(pe, p) || !oref_ok(g, pe->obj)) continue;
    if (s->obj[pe->obj.slot].zone == MTG_Z_EXILE) play_or_cast_options(g, p, pe->obj.slot, MTG_Z_EXILE, " from=exile", 1, 1, o);
  }
  /* foretold cards (702.143a), cards back from an Adventure (715.3d) */
  int xn = zl_count(g, MTG_Z_EXILE, 0);
  int16_t *ex = zl_list(g, MTG_Z_EXILE, 0);
  for (int i = 0; i < xn; i++)
    if ((s->obj[ex[i]].foretold || s->obj[ex[i]].adventured) && !play_permission(g, p, ex[i]))
      play_or_cast_options(g, p, ex[i], MTG_Z_EXILE, " from=exile", 0, 1, o);
  int gn = zl_count(g, MTG_Z_GRAVEYARD, p);
  int16_t *gy = zl_list(g, MTG_Z_GRAVEYARD, p);
  for (int i = 0; i < gn; i++)
    if (grave_castable(g, p, gy[i])) play_or_cast_options(g, p, gy[i], MTG_Z_GRAVEYARD, " from=graveyard", 0, 1, o);
  activate_options(g, p, o);
  int nb = bf_count(g);
  int16_t *bf = bf_list(g);
  for (int i = 0; i < nb && o->n < MAX_OPTIONS; i++) {
    if (!s->obj[bf[i]].face_down || !cast_can_turn_face_up(g, p, bf[i])) continue; /* most permanents are face up */
    fmt_slot(g, bf[i], nm, sizeof nm);
    o->act[o->n] = A_FACE_UP;
    o->slot[o->n++] = bf[i];
    dec_opt(g, MTG_O_ACTIVATE, s->obj[bf[i]].id, 0, -1, -1, "turn_face_up %s", nm);
  }
  g->listing = 0;
}

static void priority_ask(G *g) {
  State *s = g->s;
  Core *c = &s->c;
  int p = c->prio;
  if (!player_alive(g, p)) {
    c->prio = (uint8_t)next_player(g, p);
    return;
  }
  if (!dec_resume(g)) priority_options(g, p);
  const PrioOpts *o = &g->w->popt;
  int cnt;
  const int *v = dec_ask(g, 1, &cnt);
  int k = v[0];
  switch (o->act[k]) {
  case A_PASS:
    c->passes++;
    {
      int alive = 0;
      for (int q = 0; q < c->np; q++) alive += player_alive(g, q);
      if (c->passes >= alive) {
        /* 117.4: all passed in succession */
        c->passes = 0;
        if (!c->nstack) {
          c->stage = SG_STEP_END;
        } else {
          /* 104.4b: a loop of mandatory actions through priority (a damage
           * trigger redirected back to its source, say) is a draw. Taken as
           * such: 2000 resolutions in one turn with every player only passing */
          if (++c->resolutions_since_action > 2000) {
            c->draw_game = 1;
            log_line(g, 0, "game_over result=draw rule=104.4b reason=mandatory_loop");
            game_stop(g);
          }
          stack_resolve_top(g);
          c->prio = c->active; /* 117.3b */
          c->stage = SG_PRIORITY;
        }
      } else {
        /* 117.3d; a pass changes nothing but who has priority, so the
         * state-based actions and triggers checked before this player got it
         * would be found again as they were: none (704.3, 603.8) */
        c->prio = (uint8_t)next_player(g, p);
        c->stage = SG_PRIORITY_ASK;
        dec_core_only(g);
      }
    }
    return;
  case A_PLAY:
    play_land(g, p, o->slot[k], o->face[k]);
    break;
  case A_CAST: {
    CastWay w = {.zone = (int8_t)o->zone[k], .face = (uint8_t)o->face[k]};
    stack_cast_way(g, p, o->slot[k], &w);
    break;
  }
  case A_ACT:
    stack_activate(g, p, o->slot[k], o->ab[k]);
    break;
  case A_CAST_FACE_DOWN:
    stack_cast_face_down(g, p, o->slot[k]);
    break;
  case A_FORETELL:
    cast_foretell(g, p, o->slot[k]);
    break;
  case A_SUSPEND:
    cast_suspend(g, p, o->slot[k]);
    break;
  case A_FACE_UP:
    cast_turn_face_up(g, p, o->slot[k]);
    break;
  }
  /* 117.3c: the player who acted receives priority */
  c->resolutions_since_action = 0;
  c->passes = 0;
  c->prio = (uint8_t)p;
  c->stage = SG_PRIORITY;
}

static void game_begin(G *g) {
  /* Leylines: "if this card is in your opening hand" (103.6) */
  State *s = g->s;
  int order[MAX_PLAYERS];
  apnap_order(g, order);
  for (int oi = 0; oi < MAX_PLAYERS && order[oi] >= 0; oi++) {
    int p = order[oi];
    int n = zl_count(g, MTG_Z_HAND, p);
    int16_t hand[MAX_SLOTS];
    memcpy(hand, zl_list(g, MTG_Z_HAND, p), (size_t)n * sizeof *hand);
    for (int i = 0; i < n; i++) {
      const CardDef *d = s->obj[hand[i]].def;
      if (!d->leyline) continue;
      char nm[110];
      fmt_slot(g, hand[i], nm, sizeof nm);
      if (ask_yes_no(g, p, "103.6", "begin the game with %s on the battlefield?", nm))
        do_move(g, hand[i], EV_ZONE, MTG_Z_BATTLEFIELD, CA_SETUP, p, 0);
    }
  }
  var_game_begin(g); /* 901.5: the starting plane */
  s->c.begun = 1;
}

void turn_run(G *g) {
  State *s = g->s;
  for (;;) {
    Core *c = &s->c;
    if (c->over) return;
    switch (c->stage) {
    case SG_TURN_BEGIN:
      if (!c->begun) game_begin(g); /* the first turn of a game set up before its start */
      begin_turn(g);
      break;
    case SG_STEP_BEGIN:
      begin_step(g);
      break;
    case SG_PRIORITY:
      sba_loop(g);
      c->stage = SG_PRIORITY_ASK;
      break;
    case SG_PRIORITY_ASK:
      priority_ask(g);
      break;
    case SG_ATTACKERS_ASK:
      combat_declare_attackers(g);
      c->stage = SG_PRIORITY;
      break;
    case SG_BLOCKERS_ASK:
      combat_declare_blockers(g);
      c->stage = SG_PRIORITY;
      break;
    case SG_STEP_END:
      end_step(g);
      break;
    case SG_OVER:
    default:
      return;
    }
  }
}
