/* perform.c - performing events: the only place the game state changes in
 * response to an event (after replacement effects had their say, before the
 * event is logged and checked for triggers). */
#include <string.h>

#include "internal.h"
#include "num.h"

/* 508.4: a creature put onto the battlefield attacking is attacking what the
 * event names; never attacking if it isn't a creature, isn't controlled by the
 * attacking player, or what it would attack is gone (506.3a-c, 508.4a). It was
 * never declared as an attacker, and is unblocked once blockers are declared
 * (509.1h, 702.49c). */
static void enter_attacking(G *g, Event *e, int slot) {
  State *s = g->s;
  Obj *o = obj_w(g, slot);
  if (s->c.step < MTG_S_BEGIN_COMBAT || s->c.step > MTG_S_END_COMBAT) return;
  if (!is_type(g, slot, T_CREATURE) || is_type(g, slot, T_BATTLE) || obj_controller(g, slot) != s->c.active) return;
  if (e->etb_atk_player >= 0 ? !player_alive(g, e->etb_atk_player) : !oref_ok(g, e->etb_atk_obj)) return;
  o->attacking = 1;
  o->blocked = 0;
  o->atk_player = e->etb_atk_player;
  o->atk_obj = e->etb_atk_player >= 0 ? oref_none() : e->etb_atk_obj;
  int dp = combat_defending_player(g, slot);
  if (dp >= 0) s->c.defending[dp] = 1;
  s->c.attackers_declared = 1; /* 508.8 */
}

static void perform_zone(G *g, Event *e) {
  State *s = g->s;
  if (!oref_ok(g, e->obj)) return;
  int slot = e->obj.slot;
  Obj *o = obj_w(g, slot);
  int from = o->zone;
  if (e->from >= 0 && from != e->from) return;
  /* no effect moves an object to the stack (cardload.c refuses it): only the
   * battlefield takes a controller */
  int ctl = -1;
  if (e->to == MTG_Z_BATTLEFIELD) ctl = e->etb_ctl >= 0 ? e->etb_ctl : (from == MTG_Z_STACK ? o->controller : o->owner);
  /* a spell moving off the stack leaves its stack entry */
  if (from == MTG_Z_STACK) {
    for (int i = 0; i < s->c.nstack; i++)
      if (s->stack[i].kind == SI_SPELL && s->stack[i].slot == slot) {
        stack_remove(g, i);
        break;
      }
  }
  uint32_t old_id = o->id;
  /* 708.9: a face-down permanent or spell moving anywhere but the battlefield
   * (or face down into exile) is revealed */
  int reveal = o->face_down && (from == MTG_Z_BATTLEFIELD || from == MTG_Z_STACK) && e->to != MTG_Z_BATTLEFIELD &&
               !e->face_down;
  zone_move(g, slot, e->to, e->lib_pos == 1, ctl);
  if (reveal) {
    char nm[110];
    fmt_slot(g, slot, nm, sizeof nm);
    log_line(g, 0, "reveal obj=%s player=%s rule=708.9", nm, player_name(g, o->owner));
  }
  o->entered_batch = s->c.batch_seq;
  e->new_id = o->id;
  e->new_slot = (int16_t)slot;
  if (from == MTG_Z_STACK && e->to == MTG_Z_BATTLEFIELD) {
    /* 400.7d, 607.2q: the permanent knows what was exiled or chosen to cast the spell */
    for (int i = 0; i < s->c.nlink; i++)
      if (s->link[i].oid == old_id) s->link[i].oid = o->id;
    /* 400.7a, 603.7g: effects on the permanent spell follow the permanent it becomes */
    for (int i = 0; i < s->c.neff; i++)
      if (s->eff[i].obj.id == old_id) s->eff[i].obj = oref(g, slot);
  }
  if (e->to == MTG_Z_BATTLEFIELD) {
    o->tapped = e->etb_tapped;
    o->copy_of = e->etb_copy;
    o->copy_sub = e->etb_copy ? e->etb_copy_sub : NULL;
    o->transformed = e->etb_transformed;
    o->face_down = e->face_down;
    for (int i = 0; i < e->netb_c; i++)
      if (!cant_have_counters(g, slot, e->etb_c[i].kind)) counters_add(o->c, &o->nc, e->etb_c[i].kind, e->etb_c[i].n);
    if (e->etb_choice_label) {
      link_add(g, o->id, 0, e->etb_choice_label, e->etb_choice_kind == 3 || e->etb_choice_kind == 4 ? LK_NAME : LK_VALUE, e->etb_choice, e->etb_choice_s, oref_none());
      /* what was exiled as it entered is linked to the permanent (614.13, 607.2a) */
      for (int i = 0; i < s->c.nlink; i++)
        if (s->link[i].oid == old_id && s->link[i].kind == LK_OBJ && !strcmp(s->link[i].label, e->etb_choice_label))
          s->link[i].oid = o->id;
    }
    if (e->cause_id) o->entered_with = e->cause_id;
    for (int i = 0; i < e->netb_types; i++) {
      /* "as a Mutant in addition to its other types" (614.1c): a type-changing
       * effect (layer 4) from the moment it enters, for as long as it stays */
      Effect te;
      memset(&te, 0, sizeof te);
      te.kind = EK_CONT;
      te.dur = DUR_FOREVER;
      te.controller = o->controller;
      te.source = te.obj = oref(g, slot);
      te.player = -1;
      te.st = e->etb_types[i];
      te.types = e->etb_types[i]->types;
      te.ts = o->ts;
      effect_add(g, &te);
    }
    if (e->etb_attach == 2 || (e->etb_attach == 1 && oref_ok(g, e->etb_attach_obj))) {
      /* 303.4f: it enters attached, so what its entering triggers sees it so (603.6a) */
      o->attached = e->etb_attach == 1 ? e->etb_attach_obj : oref_none();
      o->attached_player = e->etb_attach == 2 ? e->etb_attach_player : -1;
      o->ts = new_ts(g); /* 613.7e */
    } else {
      e->etb_attach = 0;
    }
    o->protector = e->etb_protector; /* 310.8a */
    if (e->etb_attacking) enter_attacking(g, e, slot);
  }
  if (e->to == MTG_Z_EXILE) o->face_down = e->face_down; /* 406.3 */
  if (e->dest_counter_kind1) counters_add(o->c, &o->nc, (int)e->dest_counter_kind1 - 1, e->dest_counter_n ? e->dest_counter_n : 1);
  if (e->link_src) link_add(g, e->link_src, e->link_grant, e->link_label, LK_OBJ, 0, NULL, oref(g, slot));
  var_zone_moved(g, e, slot); /* 704.6d */
  e->done = 1;
}

static void perform_draw(G *g, Event *e) {
  State *s = g->s;
  Player *pl = &s->c.pl[e->player];
  int n = zl_count(g, MTG_Z_LIBRARY, e->player);
  e->done = 1;
  if (n == 0) {
    pl->drew_empty = 1; /* 704.5b */
    e->new_id = 0;
    return;
  }
  int slot = zl_list(g, MTG_Z_LIBRARY, e->player)[0];
  e->obj = oref(g, slot);
  zone_move(g, slot, MTG_Z_HAND, 0, -1);
  e->new_id = s->obj[slot].id;
  e->new_slot = (int16_t)slot;
  NUM_INC(pl->drawn_turn, INT16_MAX);
}

/* 702.164b: a creature's total toxic value, the sum of the N of its toxic abilities. */
static int toxic_value(G *g, int slot) {
  const Chars *c = chars(g, slot);
  int sum = 0;
  for (int i = 0; i < c->nab; i++) {
    const Ability *ab = c->ab[i].ab;
    if (ab->kind == AB_KEYWORD && ab->kw == PK_TOXIC) sum = num_add(sum, ab->kwn);
  }
  return sum;
}

static void perform_damage(G *g, Event *e) {
  State *s = g->s;
  int toxic = 0;
  int infect = (e->flags & EF_INFECT) != 0, dt = (e->flags & EF_DEATHTOUCH) != 0, ll = (e->flags & EF_LIFELINK) != 0;
  int wither = (e->flags & EF_WITHER) != 0;
  int src_ctl = e->cause_ctl;
  if (oref_ok(g, e->src)) {
    int ss = e->src.slot;
    infect |= has_kw(g, ss, KW_INFECT) && !rule_effect(g, SE_LOSE_INFECT, -1, ss, NULL, NULL);
    wither |= has_kw(g, ss, KW_WITHER);
    dt |= has_kw(g, ss, KW_DEATHTOUCH);
    ll |= has_kw(g, ss, KW_LIFELINK);
    if ((e->flags & EF_COMBAT) && e->player >= 0 && e->amount > 0 && (chars(g, ss)->types & T_CREATURE)) toxic = toxic_value(g, ss);
    src_ctl = obj_controller(g, ss);
  } else {
    /* a source that is gone: its controller as it last existed (702.15b-c) */
    const Lki *l = lki_find(g, e->src.id);
    if (l) src_ctl = l->controller;
  }
  if (dt) e->flags |= EF_DEATHTOUCH;
  if (ll) {
    e->flags |= EF_LIFELINK;
    e->player2 = (int8_t)src_ctl;
  }
  if (e->player >= 0) {
    Player *pl = &s->c.pl[e->player];
    /* Phyrexian Unlife: damage as though its source had infect while at 0 or less life */
    if (!infect && pl->life <= 0 && rule_effect(g, SE_DAMAGE_AS_INFECT, e->player, -1, NULL, NULL)) infect = 1;
    if (infect) e->flags |= EF_INFECT;
    /* 120.3b infect: poison counters instead of life loss; 120.3g toxic: poison
     * counters in addition to the damage's other results */
    int poison = num_add(infect ? e->amount : 0, toxic);
    if (poison > 0 && !var_rule_effect(g, SE_CANT_GET_POISON, e->player)) var_player_counters(g, e->player, CN_POISON, poison);
    if (!infect && !var_rule_effect(g, SE_LIFE_CANT_CHANGE, e->player)) {
      int loss = e->amount;
      if (e->life_floor && (int64_t)pl->life - loss < e->life_floor) loss = pl->life > e->life_floor ? num_sub(pl->life, e->life_floor) : 0;
      var_life_add(g, e->player, -loss); /* 120.3a; 810.9: the team's life */
      e->aux = loss; /* the life lost, for the history of the turn */
    }
    var_damage_dealt(g, e); /* 903.10a */
    e->done = 1;
    return;
  }
  int slot = e->obj.slot;
  Obj *o = obj_w(g, slot);
  const Chars *c = chars(g, slot);
  if (c->types & T_CREATURE) {
    if (infect || wither) {
      /* 702.90b infect, 702.80a wither: -1/-1 counters instead of marked damage */
      e->flags |= infect ? EF_INFECT : EF_WITHER;
      if (!rule_effect(g, SE_NO_MINUS_COUNTERS, -1, slot, NULL, NULL) && !cant_have_counters(g, slot, CN_MINUS1))
        counters_add(o->c, &o->nc, CN_MINUS1, e->amount);
    } else {
      o->damage = num_add(o->damage, e->amount); /* 120.3e */
    }
    if (dt) o->dt_hit = 1;
  }
  if (c->types & T_PLANESWALKER) counters_add(o->c, &o->nc, CN_LOYALTY, -e->amount); /* 120.3c */
  if (c->types & T_BATTLE) {
    /* 120.3h, 310.6; 310.11b looks for the last defense counter leaving */
    int k = ckind_id(g, "defense"), have = counters_get(o->c, o->nc, k);
    counters_add(o->c, &o->nc, k, -e->amount);
    e->emptied = (uint8_t)(have > 0 && have <= e->amount);
  }
  e->done = 1;
}

void perform(G *g, Event *b, int m) {
  State *s = g->s;
  g->batches++; /* every batch: the state-based action check's key (sba.c), which
                 * unlike epoch must see mana, tap and life batches too */
  /* What the batch may change decides whether characteristics must be
   * computed again (613). No filter, condition or value looks at a mana
   * pool: a batch only adding mana leaves them as they are. Tapping,
   * untapping and life are read only by continuous effects' filters and
   * conditions: while none is in the game (the last recompute found no
   * continuous effect and no card's own ability applied since, ch_plain)
   * and no object is being looked at as it would enter (614.12), such a
   * batch leaves them as they are too. */
  int only_mana = 1, plain = 1, taps = 1;
  for (int i = 0; i < m; i++) {
    Event *e = &b[i];
    if (e->type != EV_MANA) only_mana = 0;
    if (e->type != EV_MANA && e->type != EV_TAP && e->type != EV_UNTAP) taps = 0;
    if (e->type != EV_MANA && e->type != EV_TAP && e->type != EV_UNTAP && e->type != EV_GAIN_LIFE &&
        e->type != EV_LOSE_LIFE)
      plain = 0;
    if (e->done) continue; /* compound actions were logged already */
    switch (e->type) {
    case EV_ZONE:
      perform_zone(g, e);
      break;
    case EV_DRAW:
      perform_draw(g, e);
      break;
    case EV_DAMAGE:
      perform_damage(g, e);
      break;
    case EV_GAIN_LIFE:
      var_life_add(g, e->player, e->amount); /* 810.9 */
      e->done = 1;
      break;
    case EV_LOSE_LIFE:
      var_life_add(g, e->player, -e->amount);
      e->done = 1;
      break;
    case EV_COUNTERS:
      if (e->obj.id) {
        if (!oref_ok(g, e->obj)) break;
        Obj *o = obj_w(g, e->obj.slot);
        counters_add(o->c, &o->nc, e->ckind, e->amount);
      } else {
        var_player_counters(g, e->player, e->ckind, e->amount); /* 810.10 */
      }
      e->done = 1;
      break;
    case EV_COUNTERS_OFF:
      if (e->obj.id) {
        if (!oref_ok(g, e->obj)) break;
        Obj *o = obj_w(g, e->obj.slot);
        int have = counters_get(o->c, o->nc, e->ckind);
        if (e->amount > have) e->amount = have;
        if (e->amount <= 0) break;
        counters_add(o->c, &o->nc, e->ckind, -e->amount);
        e->emptied = (uint8_t)(e->amount == have);
      } else {
        Player *p = &s->c.pl[e->player];
        int have = counters_get(p->c, p->nc, e->ckind);
        if (e->amount > have) e->amount = have;
        if (e->amount <= 0) break;
        var_player_counters(g, e->player, e->ckind, -e->amount); /* 810.10b */
      }
      e->done = 1;
      break;
    case EV_TAP:
    case EV_UNTAP:
      if (!oref_ok(g, e->obj)) break;
      obj_w(g, e->obj.slot)->tapped = e->type == EV_TAP;
      e->done = 1;
      break;
    case EV_ATTACH: {
      if (!oref_ok(g, e->obj)) break;
      Obj *o = obj_w(g, e->obj.slot);
      o->attached = e->player >= 0 ? oref_none() : e->src;
      o->attached_player = e->player;
      o->ts = new_ts(g); /* 613.7e */
      e->done = 1;
      break;
    }
    case EV_UNATTACH: {
      if (!oref_ok(g, e->obj)) break;
      e->src = s->obj[e->obj.slot].attached;
      Obj *o = obj_w(g, e->obj.slot);
      o->attached = oref_none();
      o->attached_player = -1;
      e->done = 1;
      break;
    }
    case EV_LOSE:
      s->c.pl[e->player].lost = 1;
      e->done = 1;
      break;
    case EV_WIN:
      s->c.pl[e->player].won = 1;
      e->done = 1;
      break;
    case EV_SHUFFLE: {
      /* a library (701.24a), or a graveyard reordered at random */
      int z = e->to == MTG_Z_GRAVEYARD ? MTG_Z_GRAVEYARD : MTG_Z_LIBRARY;
      int n = zl_count(g, z, e->player);
      int16_t *l = zl_list(g, z, e->player);
      for (int k = n - 1; k > 0; k--) {
        int j = rng_below(s->c.rng, k + 1);
        int16_t t = l[k];
        l[k] = l[j];
        l[j] = t;
      }
      e->done = 1;
      break;
    }
    case EV_MANA:
      s->c.pl[e->player].mana[e->ckind] = num_add(s->c.pl[e->player].mana[e->ckind], e->amount);
      e->done = 1;
      break;
    case EV_CONTROL: {
      if (!oref_ok(g, e->obj)) break;
      int before = obj_controller(g, e->obj.slot);
      if (e->aux > 0) s->eff[e->aux - 1].used = 0;      /* the control effect begins */
      else if (e->aux < 0) s->eff[-e->aux - 1].used = 2; /* it ends */
      Obj *o = obj_w(g, e->obj.slot);
      o->ctl_since = s->c.turn_seq; /* 302.6 */
      o->ctl_seen = 0;              /* control_watch: seen afresh */
      chars_dirty(g);
      trig_index_dirty(g);
      if (obj_controller(g, e->obj.slot) != before) {
        combat_remove(g, e->obj.slot); /* 506.4 */
        obj_w(g, e->obj.slot)->suspend_haste = 0; /* 702.62a: "until you lose control of ... the permanent it becomes" */
        chars_dirty(g);
      }
      e->done = 1;
      break;
    }
    case EV_FACE_UP: {
      if (!oref_ok(g, e->obj)) break;
      Obj *o = obj_w(g, e->obj.slot);
      o->face_down = 0;
      o->transformed = 0; /* 712.15a: a double-faced card turned face up has its front face up */
      o->ts = new_ts(g); /* 613.7f */
      if (e->etb_choice_label)
        link_add(g, o->id, 0, e->etb_choice_label, e->etb_choice_kind == 3 || e->etb_choice_kind == 4 ? LK_NAME : LK_VALUE,
                 e->etb_choice, e->etb_choice_s, oref_none());
      trig_index_dirty(g);
      e->done = 1;
      break;
    }
    case EV_EXERT:
      /* 701.43a, 701.43b: it won't untap during the exerter's next untap step */
      if (!oref_ok(g, e->obj) || s->obj[e->obj.slot].zone != MTG_Z_BATTLEFIELD) break; /* 701.43c */
      obj_w(g, e->obj.slot)->exerted = (uint8_t)(e->player + 1);
      e->done = 1;
      break;
    case EV_BECOMES: {
      /* 701.37b monstrous, 702.112b renowned, 702.171b saddled, 716.2b a level: designations of the permanent */
      if (!oref_ok(g, e->obj) || s->obj[e->obj.slot].zone != MTG_Z_BATTLEFIELD) break;
      Obj *o = obj_w(g, e->obj.slot);
      if (e->ckind == 1) o->monstrous = 1;
      else if (e->ckind == 3) o->saddled = 1;
      else if (e->ckind == 2) o->renowned = 1; /* 4, "becomes crewed", is an event only (702.122d) */
      else if (e->ckind == 5) o->class_level = (uint8_t)e->amount; /* 716.2a */
      e->done = 1;
      break;
    }
    case EV_PHASE: {
      if (!oref_ok(g, e->obj)) break;
      Obj *o = obj_w(g, e->obj.slot);
      /* what is attached phases with it by events of its own (phase_events, 702.26g) */
      o->phased_out = (uint8_t)(e->amount != 0);
      o->phased_indirectly = (uint8_t)(e->amount && e->aux);
      if (o->phased_out && (o->attacking || o->blocking)) combat_remove(g, e->obj.slot); /* 702.26b, 506.4 */
      trig_index_dirty(g);
      e->done = 1;
      break;
    }
    default:
      if (!var_perform(g, e)) e->done = 1;
      break;
    }
  }
  if (only_mana || (plain && g->ch_plain && g->ch_epoch == g->epoch && g->hyp_slot < 0)) return;
  /* a batch that only taps and untaps, when what is computed read no
   * object's tapped status: the same computations give the same values */
  if (taps && !g->ch_read_tapped && !g->ch_in && g->ch_epoch == g->epoch && g->hyp_slot < 0) return;
  chars_dirty(g);
}
