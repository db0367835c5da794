/* event.c - the event pipeline. Every game action is an Event; events that
 * happen simultaneously travel together as a batch through, in order:
 *   1. "can't" checks (614.17) and replacement/prevention effects (replace.c, 616);
 *      compound actions (destroy, sacrifice, discard, mill, counter a spell)
 *      are expanded into the zone change they contain, itself replaceable;
 *      an Aura entering chooses what it will enchant (303.4f-g);
 *   2. look-back trigger detection on the state before the batch (trigger.c, 603.10, 704.8);
 *   3. performing (perform.c);
 *   4. logging (log.c);
 *   5. trigger detection on the state after the batch (trigger.c, 603.2).
 * The do_* helpers build the common events and run them. */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "num.h"

void ev_init(Event *e, int type) {
  memset(e, 0, sizeof *e);
  e->type = (uint8_t)type;
  e->player = e->player2 = -1;
  e->obj = e->src = oref_none();
  e->from = e->to = -1;
  e->cause_ctl = -1;
  e->orig = -1;
  e->etb_ctl = -1;
  e->new_slot = -1;
  e->etb_choice_kind = -1;
}

int ev_applied(const Event *e, uint32_t key) {
  for (int i = 0; i < e->napplied; i++)
    if (e->applied[i] == key) return 1;
  return 0;
}

static int is_compound(int t) {
  return t == EV_DESTROY || t == EV_SACRIFICE || t == EV_DISCARD || t == EV_MILL || t == EV_COUNTER_SPELL ||
         t == EV_EXILE;
}

/* Whether the event can happen at all (614.17: "can't" is not a replacement). */
int ev_possible(G *g, Event *e) {
  State *s = g->s;
  switch (e->type) {
  case EV_ZONE:
  case EV_DESTROY:
  case EV_SACRIFICE:
  case EV_DISCARD:
  case EV_MILL:
  case EV_EXILE:
  case EV_TAP:
  case EV_UNTAP:
  case EV_ATTACH:
  case EV_UNATTACH:
  case EV_CONTROL:
    if (!oref_ok(g, e->obj)) return 0;
    if (e->from >= 0 && s->obj[e->obj.slot].zone != e->from) return 0;
    if (s->obj[e->obj.slot].def && (s->obj[e->obj.slot].def->types & T_DUNGEON)) return 0; /* 309.2c */
    if (var_stays_in_command(g, e)) return 0; /* 311.2, 312.2, 314.2 */
    /* 111.8: a token that has left the battlefield can't move to another zone */
    if (s->obj[e->obj.slot].kind == OK_TOKEN && s->obj[e->obj.slot].zone != MTG_Z_BATTLEFIELD &&
        s->obj[e->obj.slot].zone != MTG_Z_COUNT && e->type != EV_TAP && e->type != EV_UNTAP && e->type != EV_ATTACH &&
        e->type != EV_UNATTACH && e->type != EV_CONTROL)
      return 0;
    if (e->type == EV_DESTROY) {
      if (has_kw(g, e->obj.slot, KW_INDESTRUCTIBLE)) return 0; /* 702.12b */
      if (rule_effect(g, SE_CANT_BE_DESTROYED, -1, e->obj.slot, NULL, NULL)) return 0;
    }
    if (e->type == EV_SACRIFICE && e->cause_ctl >= 0 &&
        opponents(g, e->cause_ctl, obj_controller(g, e->obj.slot)) &&
        rule_effect(g, SE_CANT_SACRIFICE_OPP, obj_controller(g, e->obj.slot), -1, NULL, NULL))
      return 0;
    if (e->type == EV_TAP && s->obj[e->obj.slot].tapped) return 0;
    if (e->type == EV_UNTAP && !s->obj[e->obj.slot].tapped) return 0;
    return 1;
  case EV_COUNTER_SPELL:
    return oref_ok(g, e->obj) && s->obj[e->obj.slot].zone == MTG_Z_STACK;
  case EV_GAIN_LIFE:
  case EV_LOSE_LIFE:
    if (!player_alive(g, e->player) || e->amount <= 0) return 0;
    if (var_rule_effect(g, SE_LIFE_CANT_CHANGE, e->player)) return 0;
    if (e->type == EV_GAIN_LIFE && var_rule_effect(g, SE_CANT_GAIN_LIFE, e->player)) return 0; /* 810.9g */
    return 1;
  case EV_DAMAGE:
    if (e->amount <= 0) return 0; /* 614.7a */
    if (e->player >= 0) return player_alive(g, e->player);
    return oref_ok(g, e->obj) && s->obj[e->obj.slot].zone == MTG_Z_BATTLEFIELD;
  case EV_COUNTERS:
    if (e->amount <= 0) return 0;
    if (e->player >= 0) {
      if (e->ckind == CN_POISON && var_rule_effect(g, SE_CANT_GET_POISON, e->player)) return 0; /* 810.10c */
      return player_alive(g, e->player);
    }
    if (!oref_ok(g, e->obj)) return 0;
    if (e->ckind == CN_MINUS1 && rule_effect(g, SE_NO_MINUS_COUNTERS, -1, e->obj.slot, NULL, NULL)) return 0;
    if (cant_have_counters(g, e->obj.slot, e->ckind)) return 0;
    return 1;
  case EV_DRAW:
    if (!player_alive(g, e->player)) return 0;
    if (rule_effect(g, SE_CANT_DRAW, e->player, -1, NULL, NULL)) return 0;
    {
      const StaticSpec *st;
      if (rule_effect(g, SE_DRAW_LIMIT, e->player, -1, &st, NULL) &&
          s->c.pl[e->player].drawn_turn >= (st->a ? st->a : 1))
        return 0;
    }
    return 1;
  case EV_LOSE:
    if (!player_alive(g, e->player)) return 0;
    if (var_rule_effect(g, SE_CANT_LOSE, e->player)) return 0; /* 810.8a: the team can't lose */
    return 1;
  case EV_WIN:
    /* "your opponents can't win the game": the effect names the players it affects */
    if (!player_alive(g, e->player)) return 0;
    return !var_rule_effect(g, SE_CANT_WIN, e->player);
  case EV_TOKEN:
    return e->amount > 0; /* 107.1b: no token is created of none or a negative number */
  default:
    return 1;
  }
}

int can_draw(G *g, int player) {
  Event e;
  ev_init(&e, EV_DRAW);
  e.player = (int8_t)player;
  return ev_possible(g, &e);
}

Event *ev_alloc(G *g, int n) {
  if (g->evtop + n > MAX_EVSTACK) game_limit(g, "events being performed at once", MAX_EVSTACK);
  Event *e = &g->evstack[g->evtop];
  g->evtop += n;
  return e;
}

/* bytes of scratch memory on the event stack, released with the events
 * (evtop): working arrays of a batch, whatever their type, kept out of the
 * frames of functions that run nested */
static void *ev_scratch(G *g, size_t bytes) {
  return ev_alloc(g, (int)((bytes + sizeof(Event) - 1) / sizeof(Event)));
}

/* The zone change a compound action contains. */
static void contained_zone(G *g, const Event *c, Event *z) {
  ev_init(z, EV_ZONE);
  z->obj = c->obj;
  z->from = (int8_t)g->s->obj[c->obj.slot].zone;
  z->to = c->to;
  z->lib_pos = c->lib_pos;
  z->cause = c->cause == CA_COST ? CA_COST : c->type == EV_DESTROY ? CA_DESTROY : c->type == EV_SACRIFICE ? CA_SACRIFICE
           : c->type == EV_DISCARD ? CA_DISCARD : c->type == EV_MILL ? CA_MILL
           : c->type == EV_COUNTER_SPELL ? CA_COUNTER : CA_EFFECT;
  if (c->cause == CA_COST) z->cost_cause = c->type == EV_SACRIFICE ? CA_SACRIFICE : c->type == EV_DISCARD ? CA_DISCARD : 0;
  z->cause_ctl = c->cause_ctl;
  z->cause_id = c->cause_id;
  z->rule = c->rule;
  z->link_src = c->link_src;
  z->link_grant = c->link_grant;
  z->link_label = c->link_label;
  z->dest_counter_kind1 = c->dest_counter_kind1;
  z->dest_counter_n = c->dest_counter_n;
  z->etb_ctl = c->etb_ctl;
  z->etb_tapped = c->etb_tapped;
  z->face_down = c->face_down;
  memcpy(z->applied, c->applied, sizeof z->applied);
  z->napplied = c->napplied;
}

static void after_batch(G *g, Event *b, int m);

/* 615.7: if a prevention shield could prevent damage from two or more sources at
 * once, the shielded player (or the permanent's controller) chooses the order in
 * which the shield meets them; the events are processed in that order. */
static void shield_order(G *g, Event *in, int n) {
  State *s = g->s;
  for (int i = 0; i < s->c.neff; i++) {
    Effect *e = &s->eff[i];
    if (e->kind != EK_REPL || e->used || !e->rp || e->rp->act != RA_PREVENT || !e->rp->amount || e->shield <= 0) continue;
    int idx[64], k = 0;
    for (int j = 0; j < n && k < 64; j++) {
      Event *d = &in[j];
      if (d->type != EV_DAMAGE || d->unpreventable) continue;
      if ((e->obj.id && d->obj.id == e->obj.id) || (e->player >= 0 && !d->obj.id && d->player == e->player)) idx[k++] = j;
    }
    if (k < 2) continue;
    int who = e->player >= 0 ? e->player : obj_controller(g, e->obj.slot);
    dec_begin(g, MTG_D_ORDER, who, "615.7", "order the damage the prevention shield meets (first listed first)");
    for (int j = 0; j < k; j++) {
      char nm[110];
      fmt_obj(g, in[idx[j]].src, nm, sizeof nm);
      dec_opt(g, MTG_O_OBJECT, in[idx[j]].src.id, 0, -1, j, "%s %d damage", nm, in[idx[j]].amount);
    }
    int cnt;
    const int *v = dec_ask(g, 0, &cnt);
    Event tmp[64];
    for (int j = 0; j < k; j++) tmp[j] = in[idx[v[j]]];
    for (int j = 0; j < k; j++) in[idx[j]] = tmp[j];
  }
}

/* 404.3, 401.4: cards put into the same graveyard, or on top or bottom of
 * the same library, at the same time are arranged by their owner. The batch's
 * zone changes of such a group are reordered among their own places so that
 * performing them leaves the first listed card on top. */
static void zone_order(G *g, Event *b, int m) {
  State *s = g->s;
  unsigned char done[2 * MAX_OPTIONS];
  if (m < 2 || m > (int)sizeof done) return; /* one card has no order */
  memset(done, 0, (size_t)m);
  for (int i = 0; i < m; i++) {
    Event *e = &b[i];
    if (done[i] || e->type != EV_ZONE || !oref_ok(g, e->obj)) continue;
    if (e->to != MTG_Z_GRAVEYARD && !(e->to == MTG_Z_LIBRARY && e->lib_pos != 2)) continue;
    const Obj *o = &s->obj[e->obj.slot];
    if (o->kind != OK_CARD) continue;
    int idx[MAX_OPTIONS], k = 0;
    for (int j = i; j < m && k < MAX_OPTIONS; j++) {
      const Event *f = &b[j];
      if (done[j] || f->type != EV_ZONE || f->to != e->to || f->lib_pos != e->lib_pos || !oref_ok(g, f->obj)) continue;
      const Obj *p = &s->obj[f->obj.slot];
      if (p->kind != OK_CARD || p->owner != o->owner) continue;
      idx[k++] = j;
      done[j] = 1;
    }
    if (k < 2) continue;
    int lib = e->to == MTG_Z_LIBRARY;
    /* appended to a graveyard or put on top one by one, the last performed
     * ends on top; put on the bottom one by one, the first does. Options are
     * listed top first as the batch would leave them. */
    int bottom = lib && e->lib_pos == 1;
    if (!bottom)
      for (int j = 0; j < k / 2; j++) {
        int t = idx[j];
        idx[j] = idx[k - 1 - j];
        idx[k - 1 - j] = t;
      }
    dec_begin(g, MTG_D_ORDER, o->owner, lib ? "401.4" : "404.3", "order the cards put into your %s%s (first listed on top)",
              lib ? "library" : "graveyard", lib ? (bottom ? " at the bottom" : " on top") : "");
    for (int j = 0; j < k; j++) {
      char nm[110];
      fmt_obj(g, b[idx[j]].obj, nm, sizeof nm);
      dec_opt(g, MTG_O_OBJECT, b[idx[j]].obj.id, 0, -1, j, "%s", nm);
    }
    int cnt;
    const int *v = dec_ask(g, 0, &cnt);
    int top = g->evtop;
    Event *tmp = ev_alloc(g, k); /* not in this frame: k may be hundreds of events */
    int pos[MAX_OPTIONS];
    for (int j = 0; j < k; j++) {
      tmp[j] = b[idx[v[j]]];
      pos[j] = idx[j];
    }
    /* the places of the group in batch order; the top card goes last (or,
     * at the bottom, first) */
    for (int a = 1; a < k; a++)
      for (int c = a; c > 0 && pos[c - 1] > pos[c]; c--) {
        int t = pos[c];
        pos[c] = pos[c - 1];
        pos[c - 1] = t;
      }
    for (int j = 0; j < k; j++) b[pos[bottom ? j : k - 1 - j]] = tmp[j];
    g->evtop = top;
  }
}

/* 400.4a: an instant or sorcery card that would enter the battlefield
 * remains in its previous zone (checked after replacement, where the
 * destination is final). */
static int cant_enter(G *g, const Event *e) {
  if (e->type != EV_ZONE || e->to != MTG_Z_BATTLEFIELD || !oref_ok(g, e->obj)) return 0;
  if (e->face_down) return 0; /* 701.40a, 708.2: a card put onto it face down is a 2/2 creature card */
  const CardDef *d = g->s->obj[e->obj.slot].def;
  if (e->etb_transformed && d && d->back) return (d->back->types & (T_INSTANT | T_SORCERY)) != 0; /* 712.13a, 712.14a */
  return (chars(g, e->obj.slot)->types & (T_INSTANT | T_SORCERY)) != 0;
}

/* 303.4f-g: an Aura put onto the battlefield other than by resolving as an
 * Aura spell, by an effect that doesn't say what it will enchant, enters
 * attached to what its controller-to-be chooses among what it could legally
 * enchant (not what enters at the same time: that isn't on the battlefield
 * yet). With nothing to choose, it stays where it is; one leaving the stack
 * goes to its owner's graveyard instead. Returns 0 when the Aura stays. */
static int aura_enters(G *g, Event *e) {
  if (e->type != EV_ZONE || e->to != MTG_Z_BATTLEFIELD || !oref_ok(g, e->obj) || e->etb_attach) return 1;
  if (e->face_down || e->etb_copy) return 1; /* 708.2: a face-down card is a creature; a copy has its own */
  State *s = g->s;
  int slot = e->obj.slot;
  const Chars *ch = chars(g, slot);
  if (!is_aura(ch)) return 1;
  int ctl = e->etb_ctl >= 0 ? e->etb_ctl : s->obj[slot].owner;
  int obj[MAX_OPTIONS], pl[MAX_OPTIONS], cnt = 0;
  int nb = bf_count(g);
  const int16_t *bf = bf_list(g);
  for (int i = 0; i < nb && cnt < MAX_OPTIONS; i++)
    if (aura_can_enchant(g, slot, bf[i], ctl)) {
      obj[cnt] = bf[i];
      pl[cnt++] = -1;
    }
  for (int p = 0; p < s->c.np && cnt < MAX_OPTIONS; p++)
    if (aura_can_enchant_player(g, slot, p, ctl)) {
      obj[cnt] = -1;
      pl[cnt++] = p;
    }
  if (!cnt) {
    /* 303.4g: nothing happens; from the stack, the graveyard instead */
    if (e->from != MTG_Z_STACK) return 0;
    e->to = MTG_Z_GRAVEYARD;
    return 1;
  }
  int v = 0;
  if (cnt > 1) {
    char nm[110];
    fmt_obj(g, e->obj, nm, sizeof nm);
    dec_begin(g, MTG_D_CHOOSE, ctl, "303.4f", "choose what %s will enchant", nm);
    for (int i = 0; i < cnt; i++) {
      char on[110];
      if (obj[i] >= 0) {
        fmt_slot(g, obj[i], on, sizeof on);
        dec_opt(g, MTG_O_OBJECT, s->obj[obj[i]].id, 0, -1, -1, "%s", on);
      } else {
        dec_opt(g, MTG_O_PLAYER, 0, 0, pl[i], -1, "%s", player_name(g, pl[i]));
      }
    }
    v = ask_pick(g);
  }
  if (obj[v] >= 0) {
    e->etb_attach = 1;
    e->etb_attach_obj = oref(g, obj[v]);
  } else {
    e->etb_attach = 2;
    e->etb_attach_player = (int8_t)pl[v];
  }
  return 1;
}

/* 615.13: the prevention recorded since `from` (this batch's) is checked
 * for "whenever damage is prevented" triggers. */
static void prevented_triggers(G *g, int from) {
  if (g->nprev <= from) return;
  Event pe[NELEM(g->w->prev_ev)];
  int n = g->nprev - from;
  memcpy(pe, &g->w->prev_ev[from], (size_t)n * sizeof *pe);
  g->nprev = from;
  trig_detect(g, pe, n);
}

/* 122.6: counters a permanent is given as it enters are "put" on it, so
 * "whenever counters are put on" abilities see them with the batch that moved
 * it: the batch, with a counters event for each, or b itself if none. */
static const Event *with_entered_counters(G *g, const Event *b, int *n) {
  int m = *n, k = 0;
  for (int i = 0; i < m; i++)
    if (b[i].done && b[i].type == EV_ZONE && b[i].to == MTG_Z_BATTLEFIELD) k += b[i].netb_c;
  if (!k) return b;
  Event *all = ev_alloc(g, m + k);
  memcpy(all, b, (size_t)m * sizeof *all);
  for (int i = 0; i < m; i++) {
    if (!b[i].done || b[i].type != EV_ZONE || b[i].to != MTG_Z_BATTLEFIELD || b[i].new_slot < 0) continue;
    for (int j = 0; j < b[i].netb_c; j++) {
      Event *c = &all[(*n)++];
      ev_init(c, EV_COUNTERS);
      c->obj.slot = b[i].new_slot;
      c->obj.id = b[i].new_id;
      c->ckind = b[i].etb_c[j].kind;
      c->amount = b[i].etb_c[j].n;
      c->cause_ctl = b[i].cause_ctl;
      c->cause_id = b[i].cause_id;
      c->done = 1;
    }
  }
  return all;
}

void ev_run(G *g, Event *in, int n) {
  int base = g->evtop;
  int prev_from = g->nprev, rider_from = g->nrider;
  g->s->c.batch_seq++;
  Event *b = ev_alloc(g, 2 * n);
  int m = 0;
  if (n > 1) shield_order(g, in, n);
  g->s->c.events_since_choice += (uint32_t)n;
  if (g->s->c.events_since_choice > 200000) {
    /* 104.4b: a loop of mandatory actions: the game is a draw */
    g->s->c.draw_game = 1;
    log_line(g, 0, "game_over result=draw rule=104.4b reason=mandatory_loop");
    game_stop(g);
  }
  /* 616.1, 101.4: players choosing replacements for simultaneous events do
   * so in APNAP order; the batch keeps its own order otherwise */
  int no = n > 1 ? n : 0, *ord = NULL;
  int16_t *bi = NULL; /* the caller's event each entry of b comes from */
  if (no) {
    /* on the event stack, not in this frame: an event replaced by one that is
     * replaced in turn runs this again, nested (614.5) */
    ord = ev_scratch(g, (size_t)no * sizeof *ord);
    bi = ev_scratch(g, (size_t)2 * (size_t)no * sizeof *bi);
  }
  for (int i = 0; i < no; i++) ord[i] = i;
  if (no > 1) {
    int rank[MAX_PLAYERS], ap[MAX_PLAYERS];
    apnap_order(g, ap);
    for (int p = 0; p < MAX_PLAYERS; p++) rank[p] = MAX_PLAYERS;
    for (int p = 0; p < MAX_PLAYERS; p++)
      if (ap[p] >= 0) rank[ap[p]] = p;
    int *key = ev_scratch(g, (size_t)no * sizeof *key);
    for (int i = 0; i < no; i++) {
      int p = affected_player(g, &in[i]);
      key[i] = p >= 0 && p < g->s->c.np ? rank[p] : 0;
    }
    for (int a = 1; a < no; a++)
      for (int c = a; c > 0 && key[ord[c - 1]] > key[ord[c]]; c--) {
        int t = ord[c];
        ord[c] = ord[c - 1];
        ord[c - 1] = t;
      }
  }
  /* 614.13a, 614.13c: objects entering at the same time can't be chosen or
   * milled while their entering is modified */
  int entering_from = g->nentering;
  for (int i = 0; i < n && g->nentering < (int)NELEM(g->entering); i++)
    if (in[i].type == EV_ZONE && in[i].to == MTG_Z_BATTLEFIELD && in[i].obj.id) g->entering[g->nentering++] = in[i].obj.id;
  for (int oi = 0; oi < n; oi++) {
    int i = no ? ord[oi] : oi;
    if (no) bi[m] = bi[m + 1] = (int16_t)i;
    Event *e = &in[i];
    /* events made by a replacement's "instead" carry its marks (614.5) */
    for (int k = 0; k < g->ninh; k++)
      if (!ev_applied(e, g->inh[k]) && e->napplied < MAX_APPLIED) e->applied[e->napplied++] = g->inh[k];
    if (!ev_possible(g, e)) continue;
    cast_leaving_stack(g, e); /* 702.34a, 702.133a, 702.127a: a self-replacement, applied first (614.15) */
    if (!replace_event(g, e)) continue;
    if (is_compound(e->type)) {
      if (!oref_ok(g, e->obj)) continue;
      Event z;
      contained_zone(g, e, &z);
      b[m] = *e;
      b[m].done = 1;
      log_event(g, &b[m]);
      m++;
      if (ev_possible(g, &z) && replace_event(g, &z) && !cant_enter(g, &z) && aura_enters(g, &z)) b[m++] = z;
    } else {
      if (cant_enter(g, e) || !aura_enters(g, e)) continue;
      b[m] = *e;
      b[m++].orig = (int16_t)i;
    }
  }
  g->nentering = entering_from;
  if (m == 0) {
    prevented_triggers(g, prev_from);
    g->evtop = base;
    prevention_riders(g, rider_from);
    return;
  }
  if (no > 1) {
    /* back to the batch's order: where each entry goes, by a stable counting
     * sort on the caller's event (bi), then each moved once into its place.
     * Moving entries past each other one step at a time cost a large batch
     * that APNAP order reversed (hundreds of creatures dealt damage) a copy
     * of every event past every other. bi is not used after. */
    int *at = ev_scratch(g, (size_t)(no + 1) * sizeof *at);
    int16_t *dest = ev_scratch(g, (size_t)2 * (size_t)no * sizeof *dest);
    memset(at, 0, (size_t)(no + 1) * sizeof *at);
    for (int j = 0; j < m; j++) at[bi[j] + 1]++;
    for (int i = 0; i < no; i++) at[i + 1] += at[i];
    for (int j = 0; j < m; j++) dest[j] = (int16_t)at[bi[j]]++;
    for (int j = 0; j < m; j++)
      while (dest[j] != j) { /* the entry at j to its place d; the one there to j */
        int d = dest[j];
        Event t = b[d];
        b[d] = b[j];
        b[j] = t;
        dest[j] = dest[d];
        dest[d] = (int16_t)d;
      }
  }
  zone_order(g, b, m);
  /* as a permanent enters: counters the moving effect gives it; a Saga's,
   * battle's or planeswalker's own counters, a protector (cardtype.c) */
  for (int i = 0; i < m; i++)
    if (b[i].type == EV_ZONE && b[i].to == MTG_Z_BATTLEFIELD) {
      if (b[i].given_n > 0) etb_counters(g, &b[i], b[i].given_ckind, b[i].given_n, "122.6");
      ct_entering(g, &b[i]);
      etb_counters_put(g, &b[i]);
    }
  int lb = g->s->c.npend;
  g->defer_trig_log++;
  trig_lookback(g, b, m);
  g->defer_trig_log--;
  int lb_end = g->s->c.npend;
  int hist_from = hist_before(g, b, m);
  /* 608.2h: what leaves a public zone is kept as it last existed there, for
   * the abilities and effects that still refer to it */
  for (int i = 0; i < m; i++)
    if (b[i].type == EV_ZONE && oref_ok(g, b[i].obj) && b[i].from != MTG_Z_LIBRARY && b[i].from != MTG_Z_HAND)
      lki_keep(g, b[i].obj.slot);
  perform(g, b, m);
  hist_after(g, b, m, hist_from);
  /* look-back triggers were found before the move: tell them the new object (400.7e) */
  for (int k = lb; k < lb_end; k++) {
    TrigCtx *tc = &g->s->pend[k].tc;
    for (int j = 0; j < m; j++)
      if (b[j].type == EV_ZONE && b[j].done && b[j].obj.id == tc->obj.id) {
        tc->new_id = b[j].new_id;
        tc->new_slot = b[j].new_slot;
        tc->to = b[j].to;
      }
  }
  for (int i = 0; i < m; i++)
    if (b[i].done && !is_compound(b[i].type)) log_event(g, &b[i]);
  if (!g->defer_trig_log) trig_log(g, lb, lb_end);
  int nt = m;
  const Event *t = with_entered_counters(g, b, &nt);
  trig_detect(g, t, nt);
  prevented_triggers(g, prev_from);
  /* report results to the caller's events (new ids, done flags) */
  for (int i = 0, k = 0; i < n && k < m; i++) {
    for (int j = 0; j < m; j++)
      if (b[j].done && ((b[j].obj.id && b[j].obj.id == in[i].obj.id && b[j].type == EV_ZONE) ||
                        (b[j].orig == i && b[j].type == in[i].type))) {
        /* a zone change (also the one a compound event contains), or the
         * event itself as performed: a draw reports the card drawn (614.11b) */
        in[i].new_id = b[j].new_id;
        in[i].new_slot = b[j].new_slot;
        in[i].done = 1;
      }
  }
  after_batch(g, b, m);
  g->evtop = base;
  prevention_riders(g, rider_from);
}

/* Consequences that follow a batch: lifelink life gain (702.15b), "until"
 * exiles returning (610.3), effects whose source left. */
static void make_tokens(G *g, Event *e) {
  State *s = g->s;
  int n = e->amount; /* more than 0 (ev_possible); do_token, the only maker, names the definition */
  int base = g->evtop;
  Event *z = ev_alloc(g, n);
  for (int i = 0; i < n; i++) {
    int slot = slot_alloc(g);
    Obj *o = obj_w(g, slot);
    memset(o, 0, sizeof *o);
    o->id = new_id(g);
    o->card = -1;
    o->def = e->token_def;
    o->owner = o->controller = (uint8_t)e->player;
    o->kind = OK_TOKEN;
    s->c.made_noncards = 1;
    o->zone = MTG_Z_COUNT; /* not yet in a zone */
    o->attached = oref_none();
    o->attached_player = -1;
    ev_init(&z[i], EV_ZONE);
    z[i].obj = oref(g, slot);
    z[i].to = MTG_Z_BATTLEFIELD;
    z[i].etb_ctl = e->player;
    z[i].cause = CA_TOKEN;
    z[i].cause_ctl = e->cause_ctl;
    z[i].cause_id = e->cause_id;
    z[i].etb_copy = e->etb_copy;
    z[i].etb_copy_sub = e->etb_copy_sub;
  }
  ev_run(g, z, n);
  for (int i = 0; i < n; i++) {
    int slot = z[i].obj.slot;
    if (s->obj[slot].zone == MTG_Z_COUNT) slot_free(g, slot); /* never entered */
    else if (g->tok_out && g->tok_n < g->tok_max) g->tok_out[g->tok_n++] = slot;
    else if (g->tok_out) g->tok_n++;
  }
  g->evtop = base;
}

/* 104.2-104.4: the game ends when a player wins or at most one remains. */
static void check_over(G *g) {
  State *s = g->s;
  var_check_over(g); /* teams (810.8a) */
  int alive = 0, last = -1;
  for (int p = 0; p < s->c.np; p++) {
    if (s->c.pl[p].won) {
      for (int q = 0; q < s->c.np; q++)
        if (q != p && player_alive(g, q)) s->c.pl[q].lost = 1;
      log_line(g, 0, "game_over result=win winner=%s", player_name(g, p));
      game_stop(g);
    }
    if (player_alive(g, p)) {
      alive++;
      last = p;
    }
  }
  if (alive == 1) { /* a game has two or more players (setup.c) */
    s->c.pl[last].won = 1;
    log_line(g, 0, "game_over result=win winner=%s rule=104.2a", player_name(g, last));
    game_stop(g);
  }
  if (alive == 0) {
    s->c.draw_game = 1;
    log_line(g, 0, "game_over result=draw rule=104.4a");
    game_stop(g);
  }
}

/* 800.4a: a player who leaves a multiplayer game takes their objects along. */
static void leave_game(G *g, int p) {
  State *s = g->s;
  if (s->c.pl[p].left) return;
  s->c.pl[p].left = 1;
  /* 603.6c: its phased-in permanents leaving the game with it trigger
   * leaves-the-battlefield abilities, looking back at them (603.10a) */
  int nb0 = bf_count(g), base0 = g->evtop, nl = 0;
  const int16_t *bf0 = bf_list(g);
  Event *lv = ev_alloc(g, nb0);
  for (int k = 0; k < nb0; k++) {
    const Obj *o = &g->s->obj[bf0[k]];
    if (o->owner != p || o->phased_out) continue;
    ev_init(&lv[nl], EV_ZONE);
    lv[nl].obj = oref(g, bf0[k]);
    lv[nl].from = MTG_Z_BATTLEFIELD;
    lv[nl].to = MTG_Z_COUNT; /* out of the game */
    lv[nl].rule = "800.4a";
    char nm[110];
    fmt_slot(g, bf0[k], nm, sizeof nm);
    log_line(g, 0, "leaves_game obj=%s player=%s rule=800.4a", nm, player_name(g, p));
    nl++;
  }
  int lb = s->c.npend;
  g->defer_trig_log++;
  if (nl) trig_lookback(g, lv, nl);
  g->defer_trig_log--;
  int lb_end = s->c.npend;
  g->evtop = base0;
  for (int i = 0; i < s->c.nslots; i++) {
    Obj *o = obj_w(g, i);
    if (!o->id || o->owner != p) continue;
    if (o->zone == MTG_Z_STACK) {
      for (int k = 0; k < s->c.nstack; k++)
        if (s->stack[k].kind == SI_SPELL && s->stack[k].slot == i) { stack_remove(g, k); break; }
    } else {
      zl_remove(g, o->zone, zone_owner_list(o->zone) ? o->owner : 0, i);
    }
    if (o->kind == OK_CARD) {
      o->zone = MTG_Z_COUNT;
      o->id = new_id(g);
      o->paired = oref_none(); /* a new object, unpaired, as zone_move makes one (702.95e) */
    } else {
      slot_free(g, i);
    }
  }
  /* 800.4a: what the player still controls on the stack and no card
   * represents (an ability; copies of spells are owned by their controller
   * and went above) ceases to exist; a spell that is another player's card
   * is still a card, exiled with the permanents below */
  int nspells = 0;
  for (int k = s->c.nstack - 1; k >= 0; k--) {
    if (s->stack[k].controller != p) continue;
    if (s->stack[k].kind == SI_SPELL && s->obj[s->stack[k].slot].kind == OK_CARD) nspells++;
    else stack_remove(g, k);
  }
  chars_dirty(g);
  trig_index_dirty(g);
  if (!g->defer_trig_log) trig_log(g, lb, lb_end);
  /* 800.4a: effects giving the player control of objects end; then what the
   * player still controls is exiled */
  effects_player_left(g, p);
  int nb = bf_count(g), base = g->evtop;
  int16_t *bf = bf_list(g);
  Event *x = ev_alloc(g, nb + nspells);
  int nx = 0;
  for (int k = 0; k < nb; k++) {
    if (obj_controller(g, bf[k]) != p) continue;
    ev_init(&x[nx], EV_ZONE);
    x[nx].obj = oref(g, bf[k]);
    x[nx].from = MTG_Z_BATTLEFIELD;
    x[nx].to = MTG_Z_EXILE;
    x[nx].rule = "800.4a";
    nx++;
  }
  for (int k = 0; k < s->c.nstack && nspells; k++) {
    if (s->stack[k].controller != p || s->stack[k].kind != SI_SPELL) continue;
    ev_init(&x[nx], EV_ZONE);
    x[nx].obj = oref(g, s->stack[k].slot);
    x[nx].from = MTG_Z_STACK;
    x[nx].to = MTG_Z_EXILE;
    x[nx].rule = "800.4a";
    nx++;
    nspells--;
  }
  if (nx) ev_run(g, x, nx);
  g->evtop = base;
}

static void after_batch(G *g, Event *b, int m) {
  State *s = g->s;
  int over = 0;
  unsigned shuffled = 0;
  control_watch(g);
  for (int i = 0; i < m; i++) {
    Event *e = &b[i];
    if (!e->done) continue;
    if (e->type == EV_LOSE || e->type == EV_WIN) over = 1;
    if (e->type == EV_TOKEN) make_tokens(g, e);
    if (e->type == EV_DRAW) cast_drawn(g, e); /* 702.94a: miracle */
    if (e->type == EV_ZONE && e->link_label) cast_madness(g, e); /* 702.35a */
    if (e->type == EV_DRAW && e->new_id && s->c.pl[e->player].drawn_turn == 1) {
      /* 603.11: "Reveal the first card you draw each turn" (a static ability) */
      int nb = bf_count(g);
      int16_t *bf = bf_list(g);
      for (int k = 0; k < nb; k++) {
        const Chars *ch = chars(g, bf[k]);
        if (ch->controller != e->player) continue;
        for (int a = 0; a < ch->nab; a++)
          if (ch->ab[a].ab->kind == AB_STATIC && ch->ab[a].ab->st.kind == SE_REVEAL_FIRST_DRAW && e->new_slot >= 0 &&
              s->obj[e->new_slot].id == e->new_id) {
            Event r;
            ev_init(&r, EV_REVEAL);
            r.obj = oref(g, e->new_slot);
            r.player = e->player;
            r.cause_id = s->obj[bf[k]].id;
            r.src = oref(g, bf[k]);
            r.aux = 1; /* revealed by the static ability */
            ev_one(g, &r);
          }
      }
    }
    /* shuffled into a library: each library once for the whole batch, after
     * every card is in it (701.24a; 701.24f counts shuffles, not cards) */
    if (e->type == EV_ZONE && e->to == MTG_Z_LIBRARY && e->lib_pos == 2 && e->new_slot >= 0)
      shuffled |= 1u << s->obj[e->new_slot].owner;
    if (e->type == EV_DAMAGE && (e->flags & EF_LIFELINK) && e->player2 >= 0) {
      /* one life gain per source per batch */
      int dup = 0;
      for (int j = 0; j < i; j++)
        if (b[j].done && b[j].type == EV_DAMAGE && (b[j].flags & EF_LIFELINK) && b[j].src.id == e->src.id) dup = 1;
      if (dup) continue;
      int total = 0;
      for (int j = i; j < m; j++)
        if (b[j].done && b[j].type == EV_DAMAGE && (b[j].flags & EF_LIFELINK) && b[j].src.id == e->src.id)
          total = num_add(total, b[j].amount);
      do_life(g, e->player2, total, e->player2, e->src.id);
    }
    if (e->type == EV_ZONE && e->from == MTG_Z_BATTLEFIELD) {
      uint32_t old = e->obj.id;
      effects_source_left(g, old);
      for (int k = 0; k < s->c.neff; k++) {
        Effect *ef = &s->eff[k];
        if (ef->kind != EK_UNTIL || ef->used || ef->source.id != old) continue;
        ef->used = 2;
        if (oref_ok(g, ef->obj) && s->obj[ef->obj.slot].zone == MTG_Z_EXILE) {
          Event z;
          ev_init(&z, EV_ZONE);
          z.obj = ef->obj;
          z.from = MTG_Z_EXILE;
          z.to = MTG_Z_BATTLEFIELD;
          z.etb_ctl = (int8_t)s->obj[ef->obj.slot].owner;
          z.cause = CA_RETURN;
          z.rule = "610.3";
          ev_one(g, &z);
        }
      }
    }
  }
  for (int p = 0; p < s->c.np; p++)
    if (shuffled >> p & 1) do_shuffle(g, p);
  if (over) {
    var_team_loss(g); /* 810.8a */
    int alive = 0;
    for (int p = 0; p < s->c.np; p++) alive += player_alive(g, p);
    if (s->c.np > 2 && alive > 1)
      for (int p = 0; p < s->c.np; p++)
        if (s->c.pl[p].lost) leave_game(g, p);
    check_over(g);
  }
}

/* ---- helpers ---- */

int do_draw(G *g, int player, int n, int cause_ctl, uint32_t cause_id) {
  int drawn = 0;
  for (int i = 0; i < n; i++) {
    /* 121.2: cards are drawn one at a time, each a separate event (614.11a) */
    Event e;
    ev_init(&e, EV_DRAW);
    e.player = (int8_t)player;
    e.cause_ctl = (int8_t)cause_ctl;
    e.cause_id = cause_id;
    ev_one(g, &e);
    drawn += e.done;
  }
  return drawn;
}

void do_life(G *g, int player, int amount, int cause_ctl, uint32_t cause_id) {
  if (!amount) return;
  Event e;
  ev_init(&e, amount > 0 ? EV_GAIN_LIFE : EV_LOSE_LIFE);
  e.player = (int8_t)player;
  e.amount = amount > 0 ? amount : -amount;
  e.cause_ctl = (int8_t)cause_ctl;
  e.cause_id = cause_id;
  ev_one(g, &e);
}

void do_set_life(G *g, int player, int life, int cause_ctl, uint32_t cause_id) {
  /* 119.5: setting a life total is gaining or losing the difference */
  int cur = g->s->c.pl[player].life;
  if (life != cur) do_life(g, player, num_sub(life, cur), cause_ctl, cause_id);
}

void do_move_many(G *g, const int *slots, int n, int type, int to, int cause, int cause_ctl, uint32_t cause_id) {
  int base = g->evtop;
  Event *e = ev_alloc(g, n);
  for (int i = 0; i < n; i++) {
    ev_init(&e[i], type);
    e[i].obj = oref(g, slots[i]);
    e[i].from = (int8_t)g->s->obj[slots[i]].zone;
    e[i].to = (int8_t)to;
    e[i].cause = (uint8_t)cause;
    e[i].cause_ctl = (int8_t)cause_ctl;
    e[i].cause_id = cause_id;
  }
  ev_run(g, e, n);
  g->evtop = base;
}

void do_move(G *g, int slot, int type, int to, int cause, int cause_ctl, uint32_t cause_id) {
  do_move_many(g, &slot, 1, type, to, cause, cause_ctl, cause_id);
}

void do_counters_as(G *g, int slot, int player, int kind, int n, int cause_ctl, uint32_t cause_id, int cause) {
  if (n <= 0) return;
  Event e;
  ev_init(&e, EV_COUNTERS);
  if (slot >= 0) e.obj = oref(g, slot);
  e.player = (int8_t)player;
  e.ckind = (uint8_t)kind;
  e.amount = n;
  e.cause_ctl = (int8_t)cause_ctl;
  e.cause_id = cause_id;
  e.cause = (uint8_t)cause;
  ev_one(g, &e);
}

void do_counters(G *g, int slot, int player, int kind, int n, int cause_ctl, uint32_t cause_id) {
  do_counters_as(g, slot, player, kind, n, cause_ctl, cause_id, CA_EFFECT);
}

static void remove_counters(G *g, int slot, int player, int kind, int n, const char *rule) {
  if (n <= 0) return;
  Event e;
  ev_init(&e, EV_COUNTERS_OFF);
  if (slot >= 0) e.obj = oref(g, slot);
  e.player = (int8_t)player;
  e.ckind = (uint8_t)kind;
  e.amount = n;
  e.rule = rule;
  ev_one(g, &e);
}

void do_remove_counters(G *g, int slot, int player, int kind, int n) { remove_counters(g, slot, player, kind, n, NULL); }

/* A cost paid with a player's counters: {E} (107.14), {TK} (107.17a), or
 * "remove N [kind] counters from you" (122.1). */
void do_pay_counters(G *g, int player, int kind, int n) {
  const char *nm = ckind_name(g, kind), *rule = "122.1";
  for (int i = 0; i < N_COUNTER_SYMBOLS; i++)
    if (!strcmp(nm, counter_symbols[i].kind)) rule = counter_symbols[i].rule;
  remove_counters(g, -1, player, kind, n, rule);
}

void do_tap(G *g, int slot, int tap) {
  Event e;
  ev_init(&e, tap ? EV_TAP : EV_UNTAP);
  e.obj = oref(g, slot);
  ev_one(g, &e);
}

void do_lose(G *g, unsigned players, const char *rule) {
  int base = g->evtop;
  Event *e = ev_alloc(g, MAX_PLAYERS);
  int n = 0;
  for (int p = 0; p < g->s->c.np; p++)
    if (players >> p & 1) {
      ev_init(&e[n], EV_LOSE);
      e[n].player = (int8_t)p;
      e[n].rule = rule;
      n++;
    }
  if (n) ev_run(g, e, n);
  g->evtop = base;
}

void do_win(G *g, int player, const char *rule) {
  Event e;
  ev_init(&e, EV_WIN);
  e.player = (int8_t)player;
  e.rule = rule;
  ev_one(g, &e);
}

void do_shuffle(G *g, int player) {
  Event e;
  ev_init(&e, EV_SHUFFLE);
  e.player = (int8_t)player;
  ev_one(g, &e);
}

void do_mana(G *g, int player, int color, int n, ORef src) {
  Event e;
  ev_init(&e, EV_MANA);
  e.player = (int8_t)player;
  e.amount = n;
  e.ckind = (uint8_t)color;
  e.src = src;
  ev_one(g, &e);
}

/* Creates n tokens of def under controller; with copy, tokens that are copies
 * of an object whose copiable values are def and the added subtype sub (707.2,
 * 707.9b): they enter as copies, so a copy of them copies the same values. */
static int token_run(G *g, const CardDef *def, int copy, const char *sub, int controller, int n, int cause_ctl, uint32_t cause_id,
                     int *slots, int max) {
  Event e;
  ev_init(&e, EV_TOKEN);
  e.player = (int8_t)controller;
  e.token_def = def;
  if (copy) {
    e.etb_copy = def;
    e.etb_copy_sub = sub;
  }
  e.amount = n;
  e.cause_ctl = (int8_t)cause_ctl;
  e.cause_id = cause_id;
  g->tok_out = slots;
  g->tok_max = max;
  g->tok_n = 0;
  ev_one(g, &e);
  int made = g->tok_n;
  g->tok_out = NULL;
  return made;
}

int do_token(G *g, const CardDef *def, int controller, int n, int cause_ctl, uint32_t cause_id, int *slots, int max) {
  return token_run(g, def, 0, NULL, controller, n, cause_ctl, cause_id, slots, max);
}

int do_token_copy(G *g, const CardDef *def, const char *sub, int controller, int n, int cause_ctl, uint32_t cause_id, int *slots, int max) {
  return token_run(g, def, 1, sub, controller, n, cause_ctl, cause_id, slots, max);
}

void do_attach(G *g, int slot, ORef to, int player) {
  const Obj *o = &g->s->obj[slot];
  if (player >= 0 ? o->attached_player == player : o->attached.id == to.id) return; /* 701.3b */
  /* 701.3d: moved away from what it was attached to, it becomes unattached */
  if ((oref_ok(g, o->attached) || o->attached_player >= 0) && o->zone == MTG_Z_BATTLEFIELD) {
    do_unattach(g, slot);
    if (!oref_ok(g, oref(g, slot))) return;
  }
  Event e;
  ev_init(&e, EV_ATTACH);
  e.obj = oref(g, slot);
  e.src = to;
  e.player = (int8_t)player;
  ev_one(g, &e);
}

/* Appends the events of slot phasing out (out=1) or in, and of what is
 * attached to it phasing with it "indirectly" (702.26g); returns the count.
 * Each permanent is listed once, so ev needs room for the battlefield's
 * permanents (bf_count) and no more. */
int phase_events(G *g, Event *ev, int n, int slot, int out, int indirect) {
  State *s = g->s;
  for (int k = 0; k < n; k++)
    if (ev[k].obj.id == s->obj[slot].id) {
      if (indirect) ev[k].aux = 1; /* 702.26h: directly and indirectly at once is once, indirectly */
      return n;
    }
  ev_init(&ev[n], EV_PHASE);
  ev[n].obj = oref(g, slot);
  ev[n].amount = out;
  ev[n].aux = indirect;
  n++;
  for (int k = 0; k < s->c.nslots; k++) {
    const Obj *a = &s->obj[k];
    if (!a->id || a->zone != MTG_Z_BATTLEFIELD || a->attached.id != s->obj[slot].id) continue;
    if ((a->phased_out != 0) == (out != 0)) continue;
    /* phasing in: only what phased out indirectly with it (702.26g, 702.26i) */
    if (!out && !a->phased_indirectly) continue;
    n = phase_events(g, ev, n, k, out, 1);
  }
  return n;
}

void do_unattach(G *g, int slot) {
  Event e;
  ev_init(&e, EV_UNATTACH);
  e.obj = oref(g, slot);
  ev_one(g, &e);
}
