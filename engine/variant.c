/* variant.c - the rules of the casual and multiplayer variants that have
 * state-based actions of their own (704.6): Two-Headed Giant teams with a
 * shared life total and shared poison counters (810), commanders and
 * commander damage (903), scheme decks and setting schemes in motion (904),
 * planar decks, planeswalking and phenomena (901). It owns State.c.v and the
 * variant parts of the pipeline; the hooks in sba.c, perform.c, event.c,
 * turn.c, trigger.c and setup.c call in here.
 *
 * Scheme and planar decks are not zones: schemes, planes and phenomena stay
 * in the command zone all game (311.2, 312.2, 314.2). A player's deck is the
 * face-down cards of that kind they own in the command zone, in command-zone
 * order (top first); putting a card on the bottom moves it to the end. */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "num.h"

static Variant *V(G *g) { return &g->s->c.v; }

int var_2hg(G *g) { return (V(g)->kind & VAR_2HG) != 0; }

/* A player's starting life total (103.4): 20, or a team's 30 in Two-Headed
 * Giant (103.4a), 40 in Commander (103.4c) and for the archenemy (103.4e). */
int var_starting_life(G *g, int p) {
  const Variant *v = V(g);
  if (v->kind & VAR_2HG) return 30;
  if (v->kind & VAR_COMMANDER) return 40;
  if ((v->kind & VAR_ARCHENEMY) && (v->archenemy >> p & 1)) return 40;
  return 20;
}

/* Teammates in a Two-Headed Giant game (810.1); a player with team 0 plays alone. */
static int teammates(G *g, int a, int b) {
  Player *pl = g->s->c.pl;
  return a != b && var_2hg(g) && pl[a].team && pl[a].team == pl[b].team;
}

/* ---- setup ---- */

int var_init(G *g, mtg_error *err) {
  State *s = g->s;
  Core *c = &s->c;
  Variant *v = V(g);
  v->planar_ctl = -1;
  if (var_2hg(g)) {
    /* 810.4, 810.10: teammates share one life total and their poison counters; the
     * engine keeps them per player, always equal */
    /* each pair once, the earlier player q first */
    for (int p = 0; p < c->np; p++)
      for (int q = 0; q < p; q++) {
        if (!teammates(g, q, p)) continue;
        int qp = counters_get(c->pl[q].c, c->pl[q].nc, CN_POISON), pp = counters_get(c->pl[p].c, c->pl[p].nc, CN_POISON);
        if (c->pl[q].life != c->pl[p].life || qp != pp) {
          mtg_error_set(err, MTG_EDATA,
                        "teammates %s and %s share a life total and poison counters (810.4, 810.10): life %d/%d, poison %d/%d",
                        c->pl[q].name, c->pl[p].name, c->pl[q].life, c->pl[p].life, qp, pp);
          return MTG_EDATA;
        }
      }
  }
  /* 903.3: a commander is a card; a token with a legendary creature's
   * characteristics can't be one (var_commander and var_check rely on it) */
  for (int i = 0; i < v->ncmd; i++) {
    const Obj *o = &s->obj[v->cmd_card[i]];
    if (o->kind != OK_CARD) {
      mtg_error_set(err, MTG_EDATA, "'%s' can't be a commander: a token is not a card (903.3)", o->def->name);
      return MTG_EDATA;
    }
  }
  int nc = cmd_count(g);
  int16_t *cz = cmd_list(g);
  for (int i = 0; i < nc; i++) {
    Obj *o = obj_w(g, cz[i]);
    uint32_t t = o->def->types;
    /* 904.7: the archenemy started the game with schemes in the command zone */
    if (t & T_SCHEME) v->archenemy |= (uint8_t)(1u << o->owner);
    /* 311.5, 314.5: a face-up scheme is controlled by its owner, a face-up plane by the
     * planar controller (901.6: normally the active player) */
    if (t & (T_PLANE | T_PHENOMENON)) o->controller = c->active;
  }
  if (v->kind & VAR_PLANECHASE) v->planar_ctl = (int8_t)c->active;
  return MTG_OK;
}

/* ---- Two-Headed Giant (810) ---- */

/* 810.9: life changes happen to a player and are applied to the team's total. */
void var_life_add(G *g, int p, int delta) {
  Core *c = &g->s->c;
  c->pl[p].life = num_add(c->pl[p].life, delta);
  for (int q = 0; q < c->np; q++)
    if (teammates(g, p, q)) c->pl[q].life = num_add(c->pl[q].life, delta);
}

/* 810.10: poison counters a player gets or loses are the team's. */
void var_player_counters(G *g, int p, int kind, int n) {
  Core *c = &g->s->c;
  counters_add(c->pl[p].c, &c->pl[p].nc, kind, n);
  if (kind != CN_POISON) return;
  for (int q = 0; q < c->np; q++)
    if (teammates(g, p, q)) counters_add(c->pl[q].c, &c->pl[q].nc, kind, n);
}

/* 810.8a, 810.9g, 810.9h, 810.10c: "can't lose", "can't win", "can't gain life",
 * "life total can't change" and "can't get poison counters" for a player hold
 * for the whole team. */
int var_rule_effect(G *g, int kind, int p) {
  if (rule_effect(g, kind, p, -1, NULL, NULL)) return 1;
  for (int q = 0; q < g->s->c.np; q++)
    if (teammates(g, p, q) && rule_effect(g, kind, q, -1, NULL, NULL)) return 1;
  return 0;
}

/* 810.8a: if either player on a team loses the game, the team loses. */
void var_team_loss(G *g) {
  if (!var_2hg(g)) return;
  Core *c = &g->s->c;
  unsigned lose = 0;
  for (int p = 0; p < c->np; p++) {
    if (!c->pl[p].lost) continue;
    for (int q = 0; q < c->np; q++)
      if (teammates(g, p, q) && player_alive(g, q)) lose |= 1u << q;
  }
  if (lose) do_lose(g, lose, "810.8a");
}

/* 810.8a, 808: in a game with teams, a team wins together, and the game ends
 * when one team is left. Returns without ending the game if it goes on. */
void var_check_over(G *g) {
  Core *c = &g->s->c;
  int teams = 0;
  for (int p = 0; p < c->np; p++) teams |= c->pl[p].team;
  if (!teams) return;
  int winner = -1;
  for (int p = 0; p < c->np && winner < 0; p++)
    if (c->pl[p].won) winner = p;
  if (winner < 0) {
    /* the players still in the game are all on one team */
    int t = -1, one = 1;
    for (int p = 0; p < c->np; p++) {
      if (!player_alive(g, p)) continue;
      if (t < 0) t = p;
      else if (!c->pl[p].team || c->pl[p].team != c->pl[t].team) one = 0;
    }
    if (t < 0 || !one) return;
    winner = t;
  }
  char names[160] = "";
  for (int p = 0; p < c->np; p++) {
    int same = p == winner || (c->pl[winner].team && c->pl[p].team == c->pl[winner].team);
    if (same) {
      /* 104.2c: each player of the winning team wins, one who had lost included */
      c->pl[p].won = 1;
      size_t u = strlen(names);
      snprintf(names + u, sizeof names - u, "%s%s", u ? "," : "", c->pl[p].name);
    } else if (player_alive(g, p)) {
      c->pl[p].lost = 1;
    }
  }
  log_line(g, 0, "game_over result=win winner=%s team=%d rule=%s", names, c->pl[winner].team,
           var_2hg(g) ? "810.8a" : c->pl[winner].team ? "104.2c" : "104.2a");
  game_stop(g);
}

/* ---- Commander (903) ---- */

int var_commander(G *g, int slot) {
  Variant *v = V(g);
  if (slot < 0 || !(v->kind & VAR_COMMANDER)) return -1;
  const Obj *o = &g->s->obj[slot];
  if (!o->id || o->kind != OK_CARD) return -1; /* 903.3: a copy of a commander is not a commander */
  for (int i = 0; i < v->ncmd; i++)
    if (v->cmd_card[i] == o->card) return i;
  return -1;
}

/* 903.10a: combat damage dealt to a player by a commander, over the game. */
void var_damage_dealt(G *g, const Event *e) {
  if (e->player < 0 || !(e->flags & EF_COMBAT) || !oref_ok(g, e->src)) return;
  int ci = var_commander(g, e->src.slot);
  if (ci >= 0) V(g)->cmd_dmg[e->player][ci] = num_add(V(g)->cmd_dmg[e->player][ci], e->amount);
}

/* 704.6d: remember a commander put into a graveyard or exile. A move on to
 * another zone before the check needs no mark: the commander is a new object
 * then (400.7), and var_sba asks only about the object that was put there. */
void var_zone_moved(G *g, const Event *e, int slot) {
  int ci = var_commander(g, slot);
  if (ci >= 0 && (e->to == MTG_Z_GRAVEYARD || e->to == MTG_Z_EXILE)) V(g)->cmd_moved[ci] = g->s->obj[slot].id;
}

/* 903.8: the commander tax, {2} for each previous cast from the command zone. */
int var_commander_tax(G *g, int slot) {
  int ci = var_commander(g, slot);
  if (ci < 0) return 0;
  const Obj *o = &g->s->obj[slot];
  /* while being cast, the spell was cast from the command zone (601.2f) */
  if (o->zone != MTG_Z_COMMAND && !(o->zone == MTG_Z_STACK && o->cast_zone == MTG_Z_COMMAND + 1)) return 0;
  return 2 * V(g)->cmd_casts[ci];
}

void var_commander_cast(G *g, int slot) {
  int ci = var_commander(g, slot);
  if (ci >= 0) NUM_INC(V(g)->cmd_casts[ci], MTG_NUM_MAX / 2);
}

/* ---- Archenemy (904) and Planechase (901): the decks ---- */

/* 311.2, 312.2, 314.2: a plane, phenomenon or scheme that would leave the command
 * zone remains there. */
int var_stays_in_command(G *g, const Event *e) {
  const Obj *o = &g->s->obj[e->obj.slot];
  return e->type != EV_TAP && e->type != EV_UNTAP && o->zone == MTG_Z_COMMAND && o->kind == OK_CARD &&
         (o->def->types & T_VARIANT_CARD) && e->to != MTG_Z_COMMAND;
}

static int is_planar(uint32_t t) { return (t & (T_PLANE | T_PHENOMENON)) != 0; }
static uint32_t def_types(G *g, int slot) { return g->s->obj[slot].def->types; }

/* The top card of a player's scheme or planar deck (face down in the command zone). */
static int deck_top(G *g, int p, uint32_t kind) {
  int n = cmd_count(g);
  int16_t *l = cmd_list(g);
  for (int i = 0; i < n; i++) {
    const Obj *o = &g->s->obj[l[i]];
    if (o->owner == p && o->face_down && (o->def->types & kind)) return l[i];
  }
  return -1;
}

/* Events that turn cards of the command zone over. */
int var_perform(G *g, Event *e) {
  State *s = g->s;
  if (e->type != EV_SET_IN_MOTION && e->type != EV_DECK_BOTTOM && e->type != EV_PLANESWALK) return 0;
  if (!oref_ok(g, e->obj) || s->obj[e->obj.slot].zone != MTG_Z_COMMAND) return 1;
  int slot = e->obj.slot;
  Obj *o = obj_w(g, slot);
  switch (e->type) {
  case EV_SET_IN_MOTION: /* 701.32b: off the top of the scheme deck, face up */
    o->face_down = 0;
    o->controller = o->owner; /* 904.7 */
    break;
  case EV_PLANESWALK: /* 701.31b: off the top of the planar deck, face up */
    o->face_down = 0;
    o->controller = (uint8_t)e->player; /* 901.6: the planar controller */
    V(g)->planar_ctl = e->player;
    break;
  case EV_DECK_BOTTOM:
    /* 701.31b, 701.33b, 704.6e: face down on the bottom of its owner's deck; a plane or
     * phenomenon turned face down becomes a new object (311.6, 312.6) */
    if (is_planar(o->def->types)) o->id = new_id(g);
    o->face_down = 1;
    o->controller = o->owner;
    o->nc = 0;
    memset(o->c, 0, sizeof o->c);
    o->abil_used[0] = o->abil_used[1] = 0;
    cmd_remove(g, slot);
    cmd_insert(g, slot, -1);
    e->new_id = o->id;
    e->new_slot = (int16_t)slot;
    break;
  }
  o->ts = new_ts(g);
  chars_dirty(g);
  trig_index_dirty(g);
  e->done = 1;
  return 1;
}

static void bottom_event(G *g, Event *e, int slot, int planeswalk, const char *rule) {
  ev_init(e, EV_DECK_BOTTOM);
  e->obj = oref(g, slot);
  e->amount = planeswalk; /* 1: planeswalking away from it (603.10g) */
  e->rule = rule;
}

/* 904.9: immediately after the archenemy's precombat main phase begins, the top
 * scheme is set in motion (a turn-based action). */
void var_precombat_main(G *g) {
  Core *c = &g->s->c;
  int p = c->active;
  if (!(V(g)->kind & VAR_ARCHENEMY) || !(V(g)->archenemy >> p & 1)) return;
  int top = deck_top(g, p, T_SCHEME);
  if (top < 0) return;
  Event e;
  ev_init(&e, EV_SET_IN_MOTION);
  e.obj = oref(g, top);
  e.player = (int8_t)p;
  e.rule = "904.9";
  ev_one(g, &e);
}

/* 701.33b: abandon a face-up ongoing scheme. */
void var_abandon(G *g, int slot) {
  const Obj *o = &g->s->obj[slot];
  if (o->zone != MTG_Z_COMMAND || o->face_down || !(o->def->types & T_SCHEME) || !(o->def->supers & ST_ONGOING)) return;
  Event e;
  bottom_event(g, &e, slot, 0, "701.33b");
  ev_one(g, &e);
}

/* 701.31b: turn the top card of the planar controller's planar deck face up. */
static void planeswalk_to(G *g, int p, const char *rule) {
  int top = deck_top(g, p, T_PLANE | T_PHENOMENON);
  if (top < 0) return;
  Event e;
  ev_init(&e, EV_PLANESWALK);
  e.obj = oref(g, top);
  e.player = (int8_t)p;
  e.rule = rule;
  ev_one(g, &e);
}

static int planar_controller(G *g) {
  int p = V(g)->planar_ctl;
  return player_alive(g, p) ? p : g->s->c.active;
}

/* 701.31: planeswalk. Only the planar controller may (701.31a). */
void var_planeswalk(G *g, int p, const char *rule) {
  if (!(V(g)->kind & VAR_PLANECHASE) || p != planar_controller(g)) return;
  int n = cmd_count(g);
  int16_t l[MAX_SLOTS];
  memcpy(l, cmd_list(g), (size_t)n * sizeof *l);
  Event ev[MAX_PLAYERS * 4];
  int m = 0;
  for (int i = 0; i < n && m < NELEM(ev); i++)
    if (!g->s->obj[l[i]].face_down && is_planar(def_types(g, l[i]))) bottom_event(g, &ev[m++], l[i], 1, rule);
  if (m) ev_run(g, ev, m);
  planeswalk_to(g, p, rule);
}

/* 901.5: the starting plane; nothing triggers. */
void var_game_begin(G *g) {
  State *s = g->s;
  if (!(V(g)->kind & VAR_PLANECHASE)) return;
  int n = cmd_count(g);
  int16_t *l = cmd_list(g);
  for (int i = 0; i < n; i++)
    if (!s->obj[l[i]].face_down && is_planar(def_types(g, l[i]))) return; /* the setup placed it */
  int p = s->c.active;
  char nm[110];
  for (int guard = 0; guard < MAX_SLOTS; guard++) {
    int top = deck_top(g, p, T_PLANE | T_PHENOMENON);
    if (top < 0) return;
    Obj *o = obj_w(g, top);
    if (o->def->types & T_PLANE) {
      o->face_down = 0;
      o->controller = (uint8_t)p;
      V(g)->planar_ctl = (int8_t)p;
      chars_dirty(g);
      trig_index_dirty(g);
      fmt_slot(g, top, nm, sizeof nm);
      log_line(g, 0, "starting_plane player=%s obj=%s rule=901.5", player_name(g, p), nm);
      return;
    }
    /* a phenomenon goes to the bottom and the process repeats */
    snprintf(nm, sizeof nm, "\"%s\"#%u", o->def->name, (unsigned)o->id);
    cmd_remove(g, top);
    cmd_insert(g, top, -1);
    log_line(g, 0, "deck_bottom obj=%s deck=planar rule=901.5", nm);
    if (deck_top(g, p, T_PLANE) < 0) return; /* no plane at all */
  }
}

/* 901.6, 311.5: the planar controller is the active player; so is the
 * controller of the face-up planes and phenomena. The turn's beginning marks
 * the characteristics stale after this (turn.c), so a new controller is seen.
 * The trigger listener index holds no controller, only which objects' abilities
 * can trigger, and a new controller changes neither the object's zone nor its
 * abilities (a granted one is rechecked with the characteristics), so the index
 * stays as it is. */
void var_turn_begin(G *g) {
  State *s = g->s;
  if (!(V(g)->kind & VAR_PLANECHASE)) return;
  int p = s->c.active;
  V(g)->planar_ctl = (int8_t)p;
  int n = cmd_count(g);
  int16_t *l = cmd_list(g);
  for (int i = 0; i < n; i++) {
    Obj *o = obj_w(g, l[i]);
    if (!o->face_down && is_planar(o->def->types)) o->controller = (uint8_t)p;
  }
}

/* ---- state-based actions (704.6) ---- */

/* Has a triggered ability whose source matches (by object id, or by any scheme)
 * triggered and not yet left the stack? */
static int trig_waiting(G *g, uint32_t src_id, uint32_t src_types) {
  State *s = g->s;
  for (int i = 0; i < s->c.npend; i++) {
    const Pending *p = &s->pend[i];
    if ((src_id && p->srcl.id == src_id) || (src_types && (p->srcl.types & src_types))) return 1;
  }
  for (int i = 0; i < s->c.nstack; i++) {
    const StackItem *si = &s->stack[i];
    if (si->kind != SI_TRIGGERED) continue;
    if ((src_id && si->srcl.id == src_id) || (src_types && (si->srcl.types & src_types))) return 1;
  }
  return 0;
}

static int has_lose(const Event *ev, int n, int p) {
  for (int i = 0; i < n; i++)
    if (ev[i].type == EV_LOSE && ev[i].player == p) return 1;
  return 0;
}

static int add_lose(G *g, Event *ev, int *n, int max, int p, const char *rule) {
  if (has_lose(ev, *n, p) || *n >= max) return 0; /* 704.7: one loss */
  Event e;
  ev_init(&e, EV_LOSE);
  e.player = (int8_t)p;
  e.rule = rule;
  if (!ev_possible(g, &e)) return 0; /* "can't lose" (810.8a for teams) */
  ev[(*n)++] = e;
  return 1;
}

int var_sba(G *g, Event *ev, int *n, int max, int *then) {
  State *s = g->s;
  Core *c = &s->c;
  Variant *v = V(g);
  int any = 0;
  char nm[110];
  *then = -1;
  if (var_2hg(g)) {
    /* 704.6a, 704.6b (810.8c, 810.8d): a team with 0 or less life, or fifteen or more
     * poison counters, loses; 704.5a and 704.5c don't apply to its players separately
     * (810.8a: a player's "you don't lose for having 0 or less life" keeps the team in).
     * A team is looked at once for each of its players: teammates' life and poison are
     * always equal (var_init), so the later looks find the same rule, and add_lose
     * adds no second loss (704.7), so they add and log nothing */
    for (int p = 0; p < c->np; p++) {
      if (!player_alive(g, p)) continue;
      unsigned team = 1u << p;
      int no_life_loss = rule_effect(g, SE_NO_LIFE_LOSS_GAME, p, -1, NULL, NULL);
      for (int q = 0; q < c->np; q++)
        if (teammates(g, p, q) && player_alive(g, q)) {
          team |= 1u << q;
          no_life_loss |= rule_effect(g, SE_NO_LIFE_LOSS_GAME, q, -1, NULL, NULL);
        }
      int life = c->pl[p].life, poison = counters_get(c->pl[p].c, c->pl[p].nc, CN_POISON);
      const char *rule = NULL;
      if (life <= 0 && !no_life_loss) rule = "704.6a";
      if (poison >= 15) rule = rule ? "704.6a,704.6b" : "704.6b";
      if (!rule) continue;
      char names[160] = "";
      int added = 0;
      for (int q = 0; team >> q; q++)
        if (team >> q & 1) {
          size_t u = strlen(names);
          snprintf(names + u, sizeof names - u, "%s%s", u ? "," : "", c->pl[q].name);
          added |= add_lose(g, ev, n, max, q, rule);
        }
      if (!added) continue;
      log_line(g, 0, "sba rule=%s team=%d players=%s life=%d poison=%d", rule, c->pl[p].team, names, life, poison);
      any = 1;
    }
  }
  if (v->kind & VAR_COMMANDER) {
    /* 704.6c (903.10a): 21 or more combat damage from the same commander */
    for (int p = 0; p < c->np; p++) {
      if (!player_alive(g, p)) continue;
      for (int ci = 0; ci < v->ncmd; ci++) {
        if (v->cmd_dmg[p][ci] < 21) continue;
        Event e;
        ev_init(&e, EV_LOSE);
        e.player = (int8_t)p;
        if (!ev_possible(g, &e)) break;
        const Obj *o = &s->obj[v->cmd_card[ci]];
        log_line(g, 0, "sba rule=704.6c player=%s commander=\"%s\" owner=%s damage=%d", player_name(g, p), o->def->name,
                 player_name(g, v->cmd_owner[ci]), v->cmd_dmg[p][ci]);
        add_lose(g, ev, n, max, p, "704.6c");
        any = 1;
        break;
      }
    }
    /* 704.6d (903.9a): a commander put into a graveyard or exile since the last check
     * may be put into the command zone by its owner; asked in APNAP order */
    int order[MAX_PLAYERS];
    apnap_order(g, order);
    for (int oi = 0; oi < MAX_PLAYERS; oi++) {
      int p = order[oi];
      if (p < 0) continue;
      for (int ci = 0; ci < v->ncmd; ci++) {
        if (v->cmd_owner[ci] != p || !v->cmd_moved[ci]) continue;
        int slot = v->cmd_card[ci];
        const Obj *o = &s->obj[slot];
        /* the object it became there: a later move made a new object (400.7) */
        if (o->id != v->cmd_moved[ci] || *n >= max) continue;
        fmt_slot(g, slot, nm, sizeof nm);
        if (!ask_yes_no(g, p, "704.6d", "put %s from your %s into the command zone?", nm, mtg_zone_name(o->zone))) continue;
        log_line(g, 0, "sba rule=704.6d obj=%s player=%s", nm, player_name(g, p));
        Event e;
        ev_init(&e, EV_ZONE);
        e.obj = oref(g, slot);
        e.from = (int8_t)o->zone;
        e.to = MTG_Z_COMMAND;
        e.cause = CA_SBA;
        e.rule = "704.6d";
        ev[(*n)++] = e;
        any = 1;
      }
    }
    memset(v->cmd_moved, 0, sizeof v->cmd_moved); /* this check is now the last one */
  }
  int nc = cmd_count(g);
  int16_t *cz = cmd_list(g);
  if ((v->kind & VAR_ARCHENEMY) && !trig_waiting(g, 0, T_SCHEME)) {
    /* 704.6e (904.10): a face-up non-ongoing scheme, with no scheme's triggered ability
     * on the stack or waiting, goes face down to the bottom of its owner's scheme deck */
    for (int i = 0; i < nc && *n < max; i++) {
      const Obj *o = &s->obj[cz[i]];
      if (o->face_down || !(o->def->types & T_SCHEME) || (o->def->supers & ST_ONGOING)) continue;
      fmt_slot(g, cz[i], nm, sizeof nm);
      log_line(g, 0, "sba rule=704.6e obj=%s", nm);
      bottom_event(g, &ev[(*n)++], cz[i], 0, "704.6e");
      any = 1;
    }
  }
  if (v->kind & VAR_PLANECHASE) {
    /* 704.6f (312.7): a face-up phenomenon that isn't the source of a triggered ability
     * that has triggered but not yet left the stack: the planar controller planeswalks */
    int found = -1;
    for (int i = 0; i < nc; i++) {
      const Obj *o = &s->obj[cz[i]];
      if (!o->face_down && (o->def->types & T_PHENOMENON) && !trig_waiting(g, o->id, 0)) {
        found = cz[i];
        break;
      }
    }
    if (found >= 0) {
      int p = planar_controller(g);
      fmt_slot(g, found, nm, sizeof nm);
      log_line(g, 0, "sba rule=704.6f obj=%s player=%s", nm, player_name(g, p));
      /* 701.31b: each face-up plane and phenomenon goes to the bottom, then the top
       * card of the planar controller's planar deck is turned face up */
      for (int i = 0; i < nc && *n < max; i++)
        if (!s->obj[cz[i]].face_down && is_planar(def_types(g, cz[i]))) bottom_event(g, &ev[(*n)++], cz[i], 1, "704.6f");
      *then = p;
      any = 1;
    }
  }
  return any;
}

void var_sba_then(G *g, int then) {
  if (then >= 0) planeswalk_to(g, then, "704.6f");
}

/* ---- invariants (mtg_game_check) ---- */

int var_check(G *g, char *why, size_t n) {
  State *s = g->s;
  Core *c = &s->c;
  for (int p = 0; p < c->np; p++)
    for (int q = p + 1; q < c->np; q++) {
      if (!teammates(g, p, q)) continue;
      /* 810.9, 810.10: one life total and one poison count per team */
      if (c->pl[p].life != c->pl[q].life ||
          counters_get(c->pl[p].c, c->pl[p].nc, CN_POISON) != counters_get(c->pl[q].c, c->pl[q].nc, CN_POISON)) {
        snprintf(why, n, "teammates %s and %s differ in life or poison", c->pl[p].name, c->pl[q].name);
        return -1;
      }
    }
  int nc = cmd_count(g);
  int16_t *cz = cmd_list(g);
  for (int i = 0; i < nc; i++) {
    const Obj *o = &s->obj[cz[i]];
    /* only scheme and planar decks are face down in the command zone */
    if (o->face_down && !(o->def->types & T_VARIANT_CARD)) {
      snprintf(why, n, "#%u is face down in the command zone but no scheme, plane or phenomenon", (unsigned)o->id);
      return -1;
    }
  }
  for (int i = 0; i < c->v.ncmd; i++) {
    const Obj *o = &s->obj[c->v.cmd_card[i]];
    if (o->kind != OK_CARD || o->card != c->v.cmd_card[i]) {
      snprintf(why, n, "commander %d lost its card", i);
      return -1;
    }
  }
  return 0;
}

/* ---- public queries ---- */

int mtg_commander_damage(const mtg_game *gc, int player, int card) {
  G *g = (G *)gc;
  if (!g) return MTG_EARG;
  Variant *v = &g->s->c.v;
  if (player < 0 || player >= g->s->c.np) return -1;
  for (int i = 0; i < v->ncmd; i++)
    if (v->cmd_card[i] == card) return v->cmd_dmg[player][i];
  return -1;
}
