/* combat.c - the combat phase (506-511): declaring attackers and blockers
 * with their restrictions and requirements, and combat damage with first
 * strike, double strike, trample and deathtouch. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

static int cant_attack_or_block(G *g, int slot, int which) {
  int k = which == 0 ? SE_CANT_ATTACK : SE_CANT_BLOCK;
  return rule_effect(g, k, -1, slot, NULL, NULL) || rule_effect(g, SE_CANT_ATTACK_OR_BLOCK, -1, slot, NULL, NULL);
}

static int can_attack(G *g, int slot) {
  State *s = g->s;
  Obj *o = &s->obj[slot];
  const Chars *c = chars(g, slot);
  if (!(c->types & T_CREATURE) || o->tapped || o->phased_out) return 0;
  if (c->types & T_BATTLE) return 0; /* 508.1a */
  if (c->controller != s->c.active) return 0;
  if (c->kw >> KW_DEFENDER & 1) return 0;
  if (obj_sick(g, slot)) return 0; /* 302.6 */
  if (cant_attack_or_block(g, slot, 0)) return 0;
  return 1;
}

static int can_block(G *g, int blk, int atk) {
  State *s = g->s;
  Obj *o = &s->obj[blk];
  const Chars *b = chars(g, blk), *a = chars(g, atk);
  if (!(b->types & T_CREATURE) || o->tapped || o->phased_out) return 0;
  if (b->types & T_BATTLE) return 0; /* 509.1a */
  if (cant_attack_or_block(g, blk, 1)) return 0;
  if ((a->kw >> KW_FLYING & 1) && !(b->kw >> KW_FLYING & 1) && !(b->kw >> KW_REACH & 1)) return 0; /* 702.9b */
  if ((a->kw >> KW_SHADOW & 1) != (b->kw >> KW_SHADOW & 1)) return 0; /* 702.28b */
  /* protection: can't be blocked by creatures of the quality (702.16e) */
  return !protected_from(a, b->colors, 0);
}

void combat_remove(G *g, int slot) {
  Obj *o = &g->s->obj[slot];
  if (!o->attacking && !o->blocking) return;
  o->attacking = 0;
  o->blocking = 0;
  o->blocked = 0;
  o->atk_player = -1;
  o->atk_obj = oref_none();
  o->block_of = oref_none();
  char nm[110];
  fmt_slot(g, slot, nm, sizeof nm);
  log_line(g, 0, "remove_from_combat obj=%s rule=506.4", nm);
}

void combat_check(G *g) {
  State *s = g->s;
  int nb = bf_count(g);
  const int16_t *bf = bf_list(g);
  for (int k = 0; k < nb; k++) {
    const Obj *o = &s->obj[bf[k]];
    if ((o->attacking || o->blocking) && !is_type(g, bf[k], T_CREATURE)) combat_remove(g, bf[k]);
  }
}

void combat_end(G *g) {
  State *s = g->s;
  effects_expire(g, DUR_COMBAT); /* 511.2: "until end of combat" */
  for (int i = 0; i < s->c.nslots; i++) {
    Obj *o = &s->obj[i];
    o->attacking = o->blocking = o->blocked = 0;
    o->atk_player = -1;
    o->atk_obj = oref_none();
    o->block_of = oref_none();
  }
  memset(s->c.defending, 0, sizeof s->c.defending);
}

void combat_declare_attackers(G *g) {
  State *s = g->s;
  int ap = s->c.active;
  int nb = bf_count(g);
  int16_t bf[MAX_SLOTS];
  memcpy(bf, bf_list(g), (size_t)nb * sizeof *bf);
  dec_begin(g, MTG_D_ATTACKERS, ap, "508.1", "declare attackers");
  int atk[MAX_OPTIONS], def_p[MAX_OPTIONS], def_o[MAX_OPTIONS], n = 0;
  for (int k = 0; k < nb; k++) {
    int i = bf[k];
    if (!can_attack(g, i)) continue;
    char nm[110];
    fmt_slot(g, i, nm, sizeof nm);
    for (int p = 0; p < s->c.np; p++) {
      if (!player_alive(g, p) || !opponents(g, ap, p) || n >= MAX_OPTIONS) continue;
      atk[n] = i;
      def_p[n] = p;
      def_o[n] = -1;
      dec_opt(g, MTG_O_ATTACK, s->obj[i].id, 0, p, -1, "%s -> %s", nm, player_name(g, p));
      n++;
    }
    for (int kk = 0; kk < nb; kk++) {
      int w = bf[kk];
      /* 508.1b: planeswalkers of defending players, battles they protect (310.8b) */
      if (!ct_attackable(g, ap, w) || n >= MAX_OPTIONS) continue;
      char wn[110];
      fmt_slot(g, w, wn, sizeof wn);
      atk[n] = i;
      def_p[n] = -1;
      def_o[n] = w;
      dec_opt(g, MTG_O_ATTACK, s->obj[i].id, s->obj[w].id, -1, -1, "%s -> %s", nm, wn);
      n++;
    }
  }
  if (!n) {
    log_line(g, 0, "attackers none=1");
    return;
  }
  dec_range(g, 0, n);
  int cnt;
  const int *v = dec_ask(g, 1, &cnt);
  unsigned char used[MAX_SLOTS] = {0};
  for (int i = 0; i < cnt; i++) {
    if (used[atk[v[i]]]) game_illegal(g, "a creature can attack only once (508.1a)");
    used[atk[v[i]]] = 1;
  }
  /* 508.1f: tap attackers without vigilance; 508.1k: they become attacking */
  Event ev[MAX_OPTIONS];
  int ne = 0;
  for (int i = 0; i < cnt; i++) {
    int o = atk[v[i]];
    Obj *ob = &s->obj[o];
    ob->attacking = 1;
    ob->atk_player = (int8_t)def_p[v[i]];
    ob->atk_obj = def_o[v[i]] >= 0 ? oref(g, def_o[v[i]]) : oref_none();
    int dp = combat_defending_player(g, o);
    if (dp >= 0) s->c.defending[dp] = 1;
    if (!has_kw(g, o, KW_VIGILANCE)) {
      ev_init(&ev[ne], EV_TAP);
      ev[ne].obj = oref(g, o);
      ne++;
    }
  }
  if (ne) ev_run(g, ev, ne);
  ne = 0;
  if (cnt) s->c.attackers_declared = 1;
  s->c.nattackers = (uint8_t)(cnt < 255 ? cnt : 255);
  for (int i = 0; i < cnt; i++) {
    int o = atk[v[i]];
    ev_init(&ev[ne], EV_ATTACKS);
    ev[ne].obj = oref(g, o);
    ev[ne].player = (int8_t)combat_defending_player(g, o);
    ev[ne].src = def_o[v[i]] >= 0 ? oref(g, def_o[v[i]]) : oref_none();
    ev[ne].rule = "508.1";
    ne++;
  }
  ev_run(g, ev, ne);
}

int combat_has_attackers(G *g) {
  State *s = g->s;
  for (int i = 0; i < s->c.nslots; i++)
    if (s->obj[i].id && s->obj[i].attacking && s->obj[i].zone == MTG_Z_BATTLEFIELD) return 1;
  return 0;
}

static int must_block_source(G *g, int blk) {
  /* "target creature blocks [source] this turn if able" */
  State *s = g->s;
  for (int i = 0; i < s->c.neff; i++) {
    Effect *e = &s->eff[i];
    if (e->kind == EK_RULE && !e->used && e->st && e->st->kind == SE_MUST_BLOCK && oref_ok(g, e->obj) && e->obj.slot == blk &&
        oref_ok(g, e->source))
      return e->source.slot;
  }
  return -1;
}

void combat_declare_blockers(G *g) {
  State *s = g->s;
  int order[MAX_PLAYERS];
  apnap_order(g, order);
  int nb = bf_count(g);
  int16_t bf[MAX_SLOTS];
  memcpy(bf, bf_list(g), (size_t)nb * sizeof *bf);
  for (int oi = 0; oi < MAX_PLAYERS && order[oi] >= 0; oi++) {
    int dp = order[oi];
    if (!s->c.defending[dp] || (s->c.blockers_done >> dp & 1)) continue;
    dec_begin(g, MTG_D_BLOCKERS, dp, "509.1", "declare blockers");
    int blk[MAX_OPTIONS], atk[MAX_OPTIONS], n = 0;
    for (int k = 0; k < nb; k++) {
      int b = bf[k];
      if (obj_controller(g, b) != dp || !is_type(g, b, T_CREATURE)) continue;
      char bn[110];
      fmt_slot(g, b, bn, sizeof bn);
      for (int j = 0; j < nb; j++) {
        int a = bf[j];
        Obj *ao = &s->obj[a];
        if (!ao->attacking) continue;
        /* 509.1a: attacking this player, a planeswalker they control or a battle they protect */
        if (combat_defending_player(g, a) != dp || !can_block(g, b, a) || n >= MAX_OPTIONS) continue;
        char an[110];
        fmt_slot(g, a, an, sizeof an);
        blk[n] = b;
        atk[n] = a;
        dec_opt(g, MTG_O_BLOCK, s->obj[b].id, s->obj[a].id, -1, -1, "%s -> %s", bn, an);
        n++;
      }
    }
    int cnt = 0;
    const int *v = NULL;
    if (n) {
      dec_range(g, 0, n);
      v = dec_ask(g, 1, &cnt);
    } else {
      log_line(g, 0, "blockers player=%s none=1", player_name(g, dp));
    }
    s->c.blockers_done |= (uint8_t)(1u << dp);
    unsigned char used[MAX_SLOTS] = {0};
    for (int i = 0; i < cnt; i++) {
      if (used[blk[v[i]]]) game_illegal(g, "a creature can block only one attacker (509.1a)");
      used[blk[v[i]]] = 1;
    }
    /* 509.1c requirements: a creature that must block and can, does */
    for (int k = 0; k < nb; k++) {
      int b = bf[k];
      int src = must_block_source(g, b);
      if (src < 0 || used[b] || obj_controller(g, b) != dp) continue;
      if (s->obj[src].attacking && can_block(g, b, src)) {
        char bn[110];
        fmt_slot(g, b, bn, sizeof bn);
        game_illegal(g, "%s must block if able (509.1c)", bn);
      }
    }
    /* 702.110b menace: blocked by two or more */
    for (int j = 0; j < nb; j++) {
      int a = bf[j];
      if (!s->obj[a].attacking || !has_kw(g, a, KW_MENACE)) continue;
      int k = 0;
      for (int i = 0; i < cnt; i++) k += atk[v[i]] == a;
      if (k == 1) game_illegal(g, "a creature with menace can't be blocked except by two or more creatures");
    }
    Event ev[MAX_OPTIONS];
    int ne = 0;
    for (int i = 0; i < cnt; i++) {
      int b = blk[v[i]], a = atk[v[i]];
      s->obj[b].blocking = 1;
      s->obj[b].block_of = oref(g, a);
      ev_init(&ev[ne], EV_BLOCKS);
      ev[ne].obj = oref(g, b);
      ev[ne].src = oref(g, a);
      ev[ne].rule = "509.1";
      ne++;
    }
    for (int j = 0; j < nb; j++) {
      int a = bf[j];
      if (!s->obj[a].attacking || s->obj[a].blocked) continue;
      int k = 0;
      for (int i = 0; i < cnt; i++) k += atk[v[i]] == a;
      if (!k) continue;
      s->obj[a].blocked = 1; /* 509.1h */
      ev_init(&ev[ne], EV_BLOCKED);
      ev[ne].obj = oref(g, a);
      ev[ne].rule = "509.1h";
      ne++;
    }
    if (ne) ev_run(g, ev, ne);
  }
}

int combat_defending_player(G *g, int slot) {
  const Obj *o = &g->s->obj[slot];
  if (o->atk_player >= 0) return o->atk_player;
  return oref_ok(g, o->atk_obj) ? ct_defender(g, o->atk_obj.slot) : -1;
}

int combat_has_first_strike(G *g) {
  State *s = g->s;
  for (int i = 0; i < s->c.nslots; i++) {
    Obj *o = &s->obj[i];
    if (!o->id || o->zone != MTG_Z_BATTLEFIELD || !(o->attacking || o->blocking)) continue;
    if (has_kw(g, i, KW_FIRST_STRIKE) || has_kw(g, i, KW_DOUBLE_STRIKE)) return 1;
  }
  return 0;
}

static int deals_now(G *g, int slot, int first) {
  int fs = has_kw(g, slot, KW_FIRST_STRIKE), ds = has_kw(g, slot, KW_DOUBLE_STRIKE);
  if (first) return fs || ds;
  /* 510.4, 702.7c: those that had neither first strike nor double strike as
   * the first combat damage step began, and those that have double strike now */
  if (ds) return 1;
  if (!g->s->c.first_strike_done) return 1;
  return !g->s->obj[slot].fs_dealt;
}

static int lethal(G *g, int attacker, int blocker) {
  /* 702.19c: lethal damage considering damage already marked; 702.2c deathtouch */
  if (has_kw(g, attacker, KW_DEATHTOUCH)) return 1;
  int l = obj_toughness(g, blocker) - g->s->obj[blocker].damage;
  return l > 0 ? l : 0;
}

void combat_damage(G *g, int first) {
  State *s = g->s;
  combat_check(g);
  int nb = bf_count(g);
  int16_t bf[MAX_SLOTS];
  memcpy(bf, bf_list(g), (size_t)nb * sizeof *bf);
  /* 510.4: which creatures had first strike or double strike as the first
   * combat damage step began, whatever they deal in it */
  for (int k = 0; first && k < nb; k++) {
    Obj *o = &s->obj[bf[k]];
    if ((o->attacking || o->blocking) && (has_kw(g, bf[k], KW_FIRST_STRIKE) || has_kw(g, bf[k], KW_DOUBLE_STRIKE)))
      o->fs_dealt = 1;
  }
  Event ev[MAX_OPTIONS];
  int ne = 0;
  for (int k = 0; k < nb; k++) {
    int a = bf[k];
    Obj *o = &s->obj[a];
    if (!o->attacking || !deals_now(g, a, first)) continue;
    int power = obj_power(g, a);
    if (power <= 0) continue; /* 510.1a */
    int blockers[32], nbk = 0;
    for (int j = 0; j < nb && nbk < 32; j++) {
      Obj *b = &s->obj[bf[j]];
      if (b->blocking && b->block_of.id == o->id) blockers[nbk++] = bf[j];
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
    if (!o->blocked) {
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
    int amounts[33] = {0};
    int nopt = nbk + (trample && to_def.kind != TK_NONE);
    if (nopt == 1) {
      amounts[0] = power;
    } else {
      /* 510.1c: divided as its controller chooses */
      dec_begin(g, MTG_D_DAMAGE, obj_controller(g, a), "510.1c", "assign %d combat damage of %s", power, an);
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
      g->dec.pub.lo = 0;
      g->dec.pub.hi = power;
      int cnt;
      const int *v = dec_ask(g, 0, &cnt);
      for (int i = 0; i < cnt; i++) amounts[i] = v[i];
      if (nopt > nbk && amounts[nbk] > 0) {
        /* 702.19b: the player gets damage only once every blocker has lethal */
        for (int i = 0; i < nbk; i++)
          if (amounts[i] < lethal(g, a, blockers[i]))
            game_illegal(g, "trample: assign lethal damage to every blocker before the player (702.19b)");
      }
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
  for (int k = 0; k < nb; k++) {
    int b = bf[k];
    Obj *o = &s->obj[b];
    if (!o->blocking || !deals_now(g, b, first)) continue;
    int power = obj_power(g, b);
    if (power <= 0 || !oref_ok(g, o->block_of)) continue; /* 510.1d */
    const Obj *blocked = &s->obj[o->block_of.slot];
    /* 510.1d: not blocking any creature once what it blocked left combat */
    if (blocked->zone != MTG_Z_BATTLEFIELD || !blocked->attacking || blocked->phased_out) continue;
    ev_init(&ev[ne], EV_DAMAGE);
    ev[ne].src = oref(g, b);
    ev[ne].obj = o->block_of;
    ev[ne].amount = power;
    ev[ne].flags = EF_COMBAT;
    ne++;
  }
  if (ne) ev_run(g, ev, ne);
}
