/* cardtype.c - the card types and designations behind state-based actions
 * 704.5s-704.5x: Sagas and their chapter abilities and lore counters (714),
 * dungeons, the venture marker and venturing into the dungeon (309, 701.49),
 * space sculptor and sector designations (702.158), and battles with their
 * defense counters and protectors (310). The rest of the engine calls in
 * through small hooks: as a permanent enters (event.c), the precombat main
 * phase (turn.c), the state-based action check (sba.c), trigger matching
 * (trigger.c), attacking and blocking (combat.c) and effect steps (effect.c). */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "num.h"

static const char *const sector_names[] = {"none", "alpha", "beta", "gamma"};

/* sector is 0 (none) to 3: ct_sector_parse gives 1 to 3 and ct_check holds every
 * object to at most 3 */
const char *ct_sector_name(int sector) { return sector_names[sector]; }

int ct_sector_parse(const char *name) {
  for (int i = 1; i <= 3; i++)
    if (!strcmp(sector_names[i], name)) return i;
  return -1;
}

/* ---- shared helpers ---- */

/* 714.2d: the greatest chapter number among the chapter abilities it has (0: none) */
static int final_chapter(const Chars *c) {
  int f = 0;
  for (int a = 0; a < c->nab; a++) {
    const Ability *ab = c->ab[a].ab;
    if (ab->kind == AB_TRIGGERED && ab->trig.ev == TE_CHAPTER && ab->trig.chapter > f) f = ab->trig.chapter;
  }
  return f;
}

static int is_saga(const Chars *c) { return (c->types & T_ENCHANTMENT) && has_subtype(c, "Saga"); }
static int is_siege(const Chars *c) { return has_subtype(c, "Siege"); }

/* "the source of an ability that has triggered but not yet left the stack":
 * waiting to be put on the stack (State.pend) or on it (704.5s, t, v).
 * kind: the trigger event of the ability, or -1 for any triggered ability. */
static int trig_not_left(G *g, uint32_t src_id, int kind) {
  State *s = g->s;
  for (int i = 0; i < s->c.npend; i++) {
    const Pending *p = &s->pend[i];
    if ((p->src.id == src_id || p->srcl.id == src_id) && (kind < 0 || p->ab->trig.ev == kind)) return 1;
  }
  for (int i = 0; i < s->c.nstack; i++) {
    const StackItem *si = &s->stack[i];
    if (si->kind == SI_TRIGGERED && si->src.id == src_id && si->ab && (kind < 0 || si->ab->trig.ev == kind)) return 1;
  }
  return 0;
}

static int defense_of(G *g, int slot) {
  const Obj *o = &g->s->obj[slot];
  return counters_get(o->c, o->nc, ckind_id(g, "defense")); /* 310.4c */
}


/* The players who may protect a battle controlled by ctl (310.8a, 310.11a). */
static int protector_candidates(G *g, const Chars *c, int ctl, int *out) {
  int n = 0;
  if (!is_siege(c)) {
    if (player_alive(g, ctl)) out[n++] = ctl; /* 310.8a: no battle type: its controller */
    return n;
  }
  int order[MAX_PLAYERS];
  apnap_order(g, order);
  for (int i = 0; i < MAX_PLAYERS && order[i] >= 0; i++)
    if (opponents(g, ctl, order[i])) out[n++] = order[i]; /* 310.11a: an opponent */
  return n;
}

/* The controller chooses a protector among the candidates (a single candidate is no choice). */
static int choose_protector(G *g, int ctl, const int *cand, int n, const char *rule, const char *what) {
  if (n <= 0) return -1;
  if (n == 1) return cand[0];
  dec_begin(g, MTG_D_PLAYER, ctl, rule, "choose the protector of %s", what);
  for (int i = 0; i < n; i++) dec_opt(g, MTG_O_PLAYER, 0, 0, cand[i], -1, "%s", player_name(g, cand[i]));
  return cand[ask_pick(g)];
}

/* ---- as a permanent enters ---- */

static int maybe_special(const CardDef *d) {
  if (!d) return 0;
  if (d->types & (T_BATTLE | T_PLANESWALKER)) return 1;
  for (int i = 0; i < d->nsub; i++)
    if (!strcmp(d->subtypes[i], "Saga")) return 1;
  return 0;
}

void ct_entering(G *g, Event *e) {
  if (!oref_ok(g, e->obj)) return;
  int slot = e->obj.slot;
  Obj *o = obj_w(g, slot);
  /* only cards that could be a Saga, a battle or a planeswalker as they enter are looked at closely */
  if (!maybe_special(o->def) && !maybe_special(o->def->back) && !maybe_special(e->etb_copy) && !maybe_special(o->copy_of)) return;
  int ctl = e->etb_ctl >= 0 ? e->etb_ctl : (o->zone == MTG_Z_STACK ? o->controller : o->owner);
  /* the object as it would exist on the battlefield (614.12), with the face and copy it enters with */
  const CardDef *save_copy = o->copy_of;
  uint8_t save_tr = o->transformed, save_fd = o->face_down;
  if (e->etb_copy) o->copy_of = e->etb_copy;
  if (e->etb_transformed) o->transformed = 1;
  o->face_down = e->face_down;
  Chars c = *chars_as_entering(g, slot, ctl);
  o->copy_of = save_copy;
  o->transformed = save_tr;
  o->face_down = save_fd;
  chars_dirty(g);
  /* 306.5b: a planeswalker enters with its printed loyalty */
  if ((c.types & T_PLANESWALKER) && c.base && c.base->has_loyalty) etb_counters(g, e, CN_LOYALTY, c.base->loyalty, "306.5b");
  if (is_saga(&c)) etb_counters(g, e, ckind_id(g, "lore"), 1, "714.3a"); /* 714.3a */
  if (c.types & T_BATTLE) {
    etb_counters(g, e, ckind_id(g, "defense"), c.base ? c.base->defense : 0, "310.4b"); /* 310.4b */
    /* 310.8a, 310.11a: its controller chooses its protector as it enters */
    int cand[MAX_PLAYERS];
    int n = protector_candidates(g, &c, ctl, cand);
    char nm[110];
    fmt_obj(g, e->obj, nm, sizeof nm);
    const char *rule = is_siege(&c) ? "310.11a" : "310.8a";
    int p = choose_protector(g, ctl, cand, n, rule, nm);
    if (p >= 0) {
      e->etb_protector = (uint8_t)(p + 1);
      log_line(g, 0, "protector obj=%s player=%s rule=%s", nm, player_name(g, p), rule);
    }
  }
}

/* ---- the precombat main phase ---- */

void ct_precombat_main(G *g) {
  State *s = g->s;
  int ap = s->c.active;
  int nb = bf_count(g);
  int16_t bf[MAX_SLOTS];
  memcpy(bf, bf_list(g), (size_t)nb * sizeof *bf);
  int base = g->evtop, n = 0;
  Event *ev = ev_alloc(g, nb);
  for (int k = 0; k < nb; k++) {
    int i = bf[k];
    if (s->obj[i].phased_out) continue;
    const Chars *c = chars(g, i);
    /* 714.3b, 505.4: a lore counter on each Saga with one or more chapter abilities */
    if (c->controller != ap || !is_saga(c) || !final_chapter(c)) continue;
    ev_init(&ev[n], EV_COUNTERS);
    ev[n].obj = oref(g, i);
    ev[n].ckind = (uint8_t)ckind_id(g, "lore");
    ev[n].amount = 1;
    ev[n].cause_ctl = (int8_t)ap;
    ev[n].rule = "714.3b";
    n++;
  }
  if (n) ev_run(g, ev, n); /* a turn-based action: one batch, no stack */
  g->evtop = base;
}

/* ---- trigger matching ---- */

/* 714.2b: "When one or more lore counters are put onto this Saga, if the
 * number of lore counters on it was less than N and became at least N": a
 * property of the event itself, so it is part of the trigger condition and is
 * not checked again on resolution. Counters it enters with are put on it too (122.6). */
int ct_chapter_match(G *g, const TrigPat *t, const Event *e, uint32_t src_id) {
  /* lore counters put on it, also as it entered (122.6: a counters event of the entering batch) */
  if (e->type != EV_COUNTERS || !e->obj.id || e->obj.id != src_id || !oref_ok(g, e->obj)) return 0;
  if (strcmp(ckind_name(g, e->ckind), "lore")) return 0;
  const Obj *o = &g->s->obj[e->obj.slot];
  if (o->zone != MTG_Z_BATTLEFIELD) return 0;
  int after = counters_get(o->c, o->nc, ckind_id(g, "lore"));
  int before = after - e->amount;
  return before < t->chapter && after >= t->chapter;
}

/* 310.11b: the event removed the last defense counter from a battle. */
int ct_defeated(G *g, const Event *e) {
  if (!e->emptied || !oref_ok(g, e->obj)) return 0;
  if (e->type == EV_COUNTERS_OFF && strcmp(ckind_name(g, e->ckind), "defense")) return 0;
  if (e->type != EV_DAMAGE && e->type != EV_COUNTERS_OFF) return 0;
  return g->s->obj[e->obj.slot].zone == MTG_Z_BATTLEFIELD;
}

/* ---- dungeons ---- */

static int dungeon_of(G *g, int player) {
  int n = cmd_count(g);
  int16_t *l = cmd_list(g);
  for (int i = 0; i < n; i++) {
    const Obj *o = &g->s->obj[l[i]];
    if (o->owner == player && (o->def->types & T_DUNGEON)) return l[i];
  }
  return -1;
}

/* 309.4c: "When you move your venture marker into this room, [effect]";
 * controlled by the dungeon's owner. */
static void enter_room(G *g, int slot, int room, const char *rule) {
  Obj *o = obj_w(g, slot);
  const Room *r = &o->def->rooms[room];
  o->room = (uint8_t)(room + 1);
  char nm[110], q[80];
  fmt_slot(g, slot, nm, sizeof nm);
  snprintf(q, sizeof q, "%s", r->name);
  log_line(g, 0, "venture player=%s obj=%s room=%d name=\"%s\" rule=%s", player_name(g, o->owner), nm, room + 1, q, rule);
  const Chars *c = chars(g, slot);
  for (int a = 0; a < c->nab; a++)
    if (c->ab[a].ab == &o->def->ab[r->ab]) {
      TrigCtx tc;
      memset(&tc, 0, sizeof tc);
      tc.player = (int8_t)o->owner;
      tc.obj = tc.src = oref_none();
      trig_add(g, c->ab[a].ab, c->ab[a].def, c->ab[a].grant, slot, o->owner, &tc);
    }
}

/* 309.7: a player completes a dungeon as it is removed from the game. */
static void complete_dungeon(G *g, int slot) {
  State *s = g->s;
  const Obj *o = &s->obj[slot];
  int p = o->owner;
  char nm[110];
  fmt_slot(g, slot, nm, sizeof nm);
  cmd_remove(g, slot);
  slot_free(g, slot); /* the card is outside the game again */
  NUM_INC(s->c.pl[p].dungeons_done, INT16_MAX);
  trig_index_dirty(g);
  log_line(g, 0, "complete player=%s obj=%s rule=309.7", player_name(g, p), nm);
}

/* 701.49a, 309.2a: the player chooses a dungeon card they own from outside the
 * game and puts it into the command zone with the venture marker on its topmost room. */
static void bring_dungeon(G *g, int p) {
  State *s = g->s;
  const CardDef *cand[MAX_OPTIONS];
  int n = 0;
  if (s->c.noutside[p]) {
    for (int i = 0; i < s->c.noutside[p]; i++)
      if (s->c.outside[p][i]->types & T_DUNGEON) cand[n++] = s->c.outside[p][i];
  } else {
    /* no list given: every dungeon card of the pool is available (309.2) */
    for (const mtg_pool *q = g->pool; q; q = q->parent)
      for (int i = 0; i < q->n && n < MAX_OPTIONS; i++) {
        const CardDef *d = q->cards[i];
        if (!(d->types & T_DUNGEON) || !d->nrooms || d->token) continue;
        int dup = 0;
        for (int j = 0; j < n; j++) dup |= !strcmp(cand[j]->name, d->name);
        if (!dup) cand[n++] = d;
      }
  }
  if (!n) return; /* 101.3: no dungeon to choose: nothing happens */
  int pick = 0;
  if (n > 1) {
    dec_begin(g, MTG_D_NAME, p, "701.49a", "choose a dungeon to venture into");
    for (int i = 0; i < n; i++) dec_opt(g, MTG_O_NAME, 0, 0, -1, i, "%s", cand[i]->name);
    pick = ask_pick(g);
  }
  int slot = slot_alloc(g);
  Obj *o = obj_w(g, slot);
  memset(o, 0, sizeof *o);
  o->id = new_id(g);
  o->ts = new_ts(g);
  o->card = -1;
  o->def = cand[pick];
  o->owner = o->controller = (uint8_t)p;
  o->zone = MTG_Z_COMMAND;
  o->kind = OK_CARD;
  o->attached = oref_none();
  o->attached_player = -1;
  o->atk_player = -1;
  o->atk_obj = o->block_of = oref_none();
  o->loyalty_turn = -1;
  o->ctl_since = s->c.turn_seq;
  cmd_insert(g, slot, -1);
  chars_dirty(g);
  trig_index_dirty(g);
  char nm[110];
  fmt_slot(g, slot, nm, sizeof nm);
  log_line(g, 0, "dungeon player=%s obj=%s rule=701.49a", player_name(g, p), nm);
  enter_room(g, slot, 0, "309.4a");
}

void ct_venture(G *g, int p) {
  State *s = g->s;
  if (!player_alive(g, p)) return;
  /* "can't venture into the dungeon more than once each turn": the venture doesn't happen */
  const StaticSpec *lim;
  if (rule_effect(g, SE_VENTURE_LIMIT, p, -1, &lim, NULL) && hist_count(g, NULL, HK_VENTURE, p, NULL) >= lim->a) return;
  hist_venture(g, p);
  int d = dungeon_of(g, p);
  if (d >= 0) {
    const Obj *o = &s->obj[d];
    int room = o->room ? o->room - 1 : 0;
    const Room *r = &o->def->rooms[room];
    if (r->nnext) {
      /* 701.49b, 309.5a: follow an arrow; the player chooses among several */
      int pick = 0;
      if (r->nnext > 1) {
        char nm[110];
        fmt_slot(g, d, nm, sizeof nm);
        dec_begin(g, MTG_D_WORD, p, "701.49b", "choose the next room of %s", nm);
        for (int i = 0; i < r->nnext; i++) dec_opt(g, MTG_O_WORD, o->id, 0, -1, r->next[i], "%s", o->def->rooms[r->next[i]].name);
        pick = ask_pick(g);
      }
      enter_room(g, d, r->next[pick], "701.49b");
      return;
    }
    /* 701.49c, 309.5b: from the bottommost room: complete it, then a new one */
    complete_dungeon(g, d);
  }
  bring_dungeon(g, p);
}

/* ---- casting a card transformed (712.11a), e.g. a defeated Siege (310.11b) ---- */

void ct_cast_transformed(G *g, int player, int slot) {
  State *s = g->s;
  Obj *o = obj_w(g, slot);
  const CardDef *back = o->def->back;
  if (o->kind != OK_CARD || !back || o->zone == MTG_Z_STACK || o->zone == MTG_Z_BATTLEFIELD) return;
  /* 712.11c: only the back face is considered; lands can't be cast (305.9),
   * and a face whose spell needs targets is not supported here */
  if (back->types & T_LAND) return;
  if (o->zone != MTG_Z_HAND && rule_effect(g, SE_CAST_ONLY_FROM_HAND, player, -1, NULL, NULL)) return;
  if (cant_cast_types(g, player, back->types)) return;
  const Ability *sp = NULL;
  for (int i = 0; i < back->nab; i++)
    if (back->ab[i].kind == AB_SPELL) sp = &back->ab[i];
  if (sp && (sp->nmodes != 1 || sp->modes[0].nt)) return;
  char nm[110];
  fmt_slot(g, slot, nm, sizeof nm);
  if (!ask_yes_no(g, player, "712.11a", "cast %s transformed without paying its mana cost?", nm)) return;
  int from = o->zone;
  /* 601.2a, 608.2g: onto the stack with its back face up (712.11a); no mana is paid */
  int idx = spell_to_stack(g, player, slot, from, sp, back);
  /* 712.11a: cast with its back face up; spell_to_stack's zone move and push
   * have marked the characteristics and the trigger index stale, and nothing
   * has read them since */
  o->transformed = 1;
  s->stack[idx].ch.free = 1;
  s->stack[idx].ch.mode[s->stack[idx].ch.nmode++] = 0;
  fmt_slot(g, slot, nm, sizeof nm);
  log_line(g, 0, "cast player=%s obj=%s from=%s transformed=1 rule=712.11a", player_name(g, player), nm, mtg_zone_name(from));
  spell_cast_done(g, player, slot);
}

/* ---- combat ---- */

/* The defending player for an attacked planeswalker (its controller) or battle (its protector), 506.2, 508.5. */
int ct_defender(G *g, int slot) {
  const Obj *o = &g->s->obj[slot];
  if (is_type(g, slot, T_BATTLE) && !is_type(g, slot, T_PLANESWALKER)) return o->protector ? o->protector - 1 : -1;
  return obj_controller(g, slot);
}

/* 506.2, 508.1b, 310.8b: a planeswalker a defending player controls or a
 * battle a defending player protects; never a battle the attacker protects. */
int ct_attackable(G *g, int attacker, int slot) {
  const Obj *o = &g->s->obj[slot];
  if (o->zone != MTG_Z_BATTLEFIELD || o->phased_out) return 0;
  int battle = is_type(g, slot, T_BATTLE), pw = is_type(g, slot, T_PLANESWALKER);
  if (!battle && !pw) return 0;
  int dp = ct_defender(g, slot);
  if (battle && !pw && dp == attacker) return 0;
  return dp >= 0 && player_alive(g, dp) && opponents(g, attacker, dp);
}

/* ---- state-based actions 704.5s-704.5x ---- */

static int sculptor_present(G *g, const int16_t *bf, int nb) {
  if (!(bf_sum(g)->kw >> KW_SPACE_SCULPTOR & 1)) return 0;
  for (int k = 0; k < nb; k++)
    if (g->s->obj[bf[k]].id && !g->s->obj[bf[k]].phased_out && has_kw(g, bf[k], KW_SPACE_SCULPTOR)) return 1;
  return 0;
}

/* 702.158b: designations stay until no player controls a permanent with space
 * sculptor or an ability whose source has space sculptor. */
static void sectors_lapse(G *g, const int16_t *bf, int nb) {
  State *s = g->s;
  if (sculptor_present(g, bf, nb)) return;
  for (int i = 0; i < s->c.nstack; i++)
    if (s->stack[i].kind != SI_SPELL && (s->stack[i].srcl.kw >> KW_SPACE_SCULPTOR & 1)) return;
  for (int i = 0; i < s->c.npend; i++)
    if (s->pend[i].srcl.kw >> KW_SPACE_SCULPTOR & 1) return;
  for (int k = 0; k < nb; k++) {
    if (!s->obj[bf[k]].sector) continue;
    obj_w(g, bf[k])->sector = 0;
    char nm[110];
    fmt_slot(g, bf[k], nm, sizeof nm);
    log_line(g, 0, "sector obj=%s sector=none rule=702.158b", nm);
  }
}

static int sba_sectors(G *g, const int16_t *bf, int nb) {
  State *s = g->s;
  sectors_lapse(g, bf, nb);
  if (!sculptor_present(g, bf, nb)) return 0;
  int need[MAX_SLOTS], nn = 0, has_sc[MAX_PLAYERS] = {0};
  for (int k = 0; k < nb; k++) {
    int i = bf[k];
    if (!s->obj[i].id || s->obj[i].phased_out || s->obj[i].zone != MTG_Z_BATTLEFIELD) continue;
    if (has_kw(g, i, KW_SPACE_SCULPTOR)) has_sc[obj_controller(g, i)] = 1;
    if (is_type(g, i, T_CREATURE) && !s->obj[i].sector) need[nn++] = i;
  }
  if (!nn) return 0;
  /* 704.5u: players without space sculptor choose first, then the others, each group in APNAP order */
  int order[MAX_PLAYERS], pick[MAX_SLOTS];
  apnap_order(g, order);
  int who[2 * MAX_PLAYERS], nw = 0;
  for (int sc = 0; sc <= 1; sc++)
    for (int i = 0; i < MAX_PLAYERS && order[i] >= 0; i++)
      if (has_sc[order[i]] == sc) who[nw++] = order[i];
  for (int w = 0; w < nw; w++) {
    int p = who[w];
    for (int k = 0; k < nn; k++) {
      if (obj_controller(g, need[k]) != p) continue;
      char nm[110];
      fmt_slot(g, need[k], nm, sizeof nm);
      dec_begin(g, MTG_D_WORD, p, "704.5u", "choose a sector designation for %s", nm);
      for (int sct = 1; sct <= 3; sct++) dec_opt(g, MTG_O_WORD, s->obj[need[k]].id, 0, -1, sct, "%s", sector_names[sct]);
      pick[k] = ask_pick(g) + 1;
    }
  }
  /* the designations are all given at once, as one state-based action */
  for (int w = 0; w < nw; w++)
    for (int k = 0; k < nn; k++) {
      if (obj_controller(g, need[k]) != who[w]) continue;
      char nm[110];
      fmt_slot(g, need[k], nm, sizeof nm);
      log_line(g, 0, "sba rule=704.5u obj=%s player=%s", nm, player_name(g, who[w]));
      obj_w(g, need[k])->sector = (uint8_t)pick[k];
      log_line(g, 0, "sector obj=%s sector=%s", nm, sector_names[pick[k]]);
    }
  return 1;
}

static void to_graveyard(G *g, Event *ev, int *n, int max, int slot, const char *rule) {
  if (*n >= max) return;
  Event *e = &ev[(*n)++];
  ev_init(e, EV_ZONE);
  e->obj = oref(g, slot);
  e->from = MTG_Z_BATTLEFIELD;
  e->to = MTG_Z_GRAVEYARD;
  e->cause = CA_SBA;
  e->rule = rule;
}

int ct_sba(G *g, Event *ev, int *n, int max, const int16_t *bf, int nb) {
  State *s = g->s;
  int any = 0;
  char nm[110];
  const BfSum *sum = bf_sum(g);
  /* 704.5s, 714.4: a Saga past its final chapter is sacrificed */
  for (int k = 0; k < nb && (sum->types & T_ENCHANTMENT); k++) {
    int i = bf[k];
    const Obj *o = &s->obj[i];
    if (!o->id || o->zone != MTG_Z_BATTLEFIELD || o->phased_out) continue;
    const Chars *c = chars(g, i);
    int fin = is_saga(c) ? final_chapter(c) : 0;
    if (!fin) continue;
    int lore = counters_get(o->c, o->nc, ckind_id(g, "lore"));
    if (lore < fin || trig_not_left(g, o->id, TE_CHAPTER)) continue;
    Event e = sba_event(g, EV_SACRIFICE, i, "704.5s");
    e.cause_ctl = (int8_t)c->controller;
    if (!ev_possible(g, &e) || *n >= max) continue;
    fmt_slot(g, i, nm, sizeof nm);
    log_line(g, 0, "sba rule=704.5s obj=%s lore=%d final=%d", nm, lore, fin);
    ev[(*n)++] = e;
    any = 1;
  }
  /* 704.5t, 309.6: a dungeon whose venture marker is on its bottommost room is removed from the game */
  {
    int cnt = cmd_count(g);
    int16_t cmd[MAX_SLOTS];
    memcpy(cmd, cmd_list(g), (size_t)cnt * sizeof *cmd);
    for (int k = 0; k < cnt; k++) {
      const Obj *o = &s->obj[cmd[k]];
      if (!(o->def->types & T_DUNGEON) || !o->room || o->def->rooms[o->room - 1].nnext) continue;
      if (trig_not_left(g, o->id, TE_ROOM)) continue;
      fmt_slot(g, cmd[k], nm, sizeof nm);
      log_line(g, 0, "sba rule=704.5t obj=%s player=%s", nm, player_name(g, o->owner));
      complete_dungeon(g, cmd[k]);
      any = 1;
    }
  }
  /* 704.5u: sector designations */
  any |= sba_sectors(g, bf, nb);
  /* 704.5v-x: battles */
  for (int k = 0; k < nb && (bf_sum(g)->types & T_BATTLE); k++) {
    int i = bf[k];
    Obj *o = obj_w(g, i);
    if (!o->id || o->zone != MTG_Z_BATTLEFIELD || o->phased_out) continue;
    const Chars *c = chars(g, i);
    if (!(c->types & T_BATTLE)) continue;
    fmt_slot(g, i, nm, sizeof nm);
    /* 704.5v, 310.7: defense 0 and not the source of a waiting triggered ability */
    if (defense_of(g, i) <= 0 && !trig_not_left(g, o->id, -1)) {
      log_line(g, 0, "sba rule=704.5v obj=%s", nm);
      to_graveyard(g, ev, n, max, i, "704.5v");
      any = 1;
      continue;
    }
    int prot = o->protector ? o->protector - 1 : -1;
    const char *rule = NULL;
    if (prot < 0 || !player_alive(g, prot)) {
      /* 704.5w, 310.10: no protector in the game and not being attacked */
      int attacked = 0;
      for (int j = 0; j < nb; j++)
        if (s->obj[bf[j]].attacking && s->obj[bf[j]].atk_obj.id == o->id) attacked = 1;
      if (!attacked) rule = "704.5w";
    } else if (is_siege(c) && prot == c->controller) {
      rule = "704.5x"; /* 704.5x, 310.11a: a Siege's controller can't protect it */
    }
    if (!rule) continue;
    int cand[MAX_PLAYERS];
    int cn = protector_candidates(g, c, c->controller, cand);
    log_line(g, 0, "sba rule=%s obj=%s player=%s", rule, nm, player_name(g, c->controller));
    int p = choose_protector(g, c->controller, cand, cn, rule, nm);
    any = 1;
    if (p < 0) {
      to_graveyard(g, ev, n, max, i, rule); /* no player can be chosen */
      continue;
    }
    o->protector = (uint8_t)(p + 1);
    log_line(g, 0, "protector obj=%s player=%s", nm, player_name(g, p));
  }
  return any;
}

/* ---- invariants ---- */

int ct_check(G *g, char *why, size_t n) {
  State *s = g->s;
  int seen[MAX_PLAYERS] = {0};
  int cnt = cmd_count(g);
  int16_t *l = cmd_list(g);
  for (int k = 0; k < cnt; k++) {
    const Obj *o = &s->obj[l[k]];
    if (!(o->def->types & T_DUNGEON)) continue;
    if (seen[o->owner]++) {
      snprintf(why, n, "player %s owns two dungeons in the command zone (309.3)", player_name(g, o->owner));
      return -1;
    }
    if (!o->room || o->room > o->def->nrooms) {
      snprintf(why, n, "dungeon #%u has its venture marker on no room", (unsigned)o->id);
      return -1;
    }
  }
  for (int i = 0; i < s->c.nslots; i++) {
    const Obj *o = &s->obj[i];
    if (!o->id || o->zone == MTG_Z_COUNT) continue; /* left the game with its owner (800.4a) */
    if (o->protector > s->c.np || o->sector > 3) {
      snprintf(why, n, "object #%u has a bad protector or sector", (unsigned)o->id);
      return -1;
    }
    if (o->zone != MTG_Z_BATTLEFIELD && (o->protector || o->sector)) {
      snprintf(why, n, "object #%u keeps a designation off the battlefield", (unsigned)o->id);
      return -1;
    }
    if (o->def && (o->def->types & T_DUNGEON) && o->zone != MTG_Z_COMMAND) {
      snprintf(why, n, "dungeon #%u is outside the command zone (309.2c)", (unsigned)o->id);
      return -1;
    }
  }
  return 0;
}
