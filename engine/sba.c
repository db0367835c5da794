/* sba.c - state-based actions (rule 704). One check finds every applicable
 * action, and all of them are performed simultaneously as a single event
 * batch (704.3), so last known information comes from before any of them
 * (704.8) and identical results are one (704.7: one loss per player). The loop
 * with triggered abilities (704.3, 603.3b) is sba_loop. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define MAX_SBA_EV 512

/* Whether the Aura in slot, controlled by ctl, could enchant the object in
 * slot t: its enchant ability (303.4a) and protection (702.16c); 303.4d: an
 * Aura that's also a creature can't enchant anything. */
int aura_can_enchant(G *g, int slot, int t, int ctl) {
  const Chars *c = chars(g, slot);
  const Filter *f = c->base ? c->base->enchant : NULL;
  if (c->types & T_CREATURE) return 0;
  if (t == slot) return 0;
  if (!f) return 1;
  Ctx cx;
  ctx_for(g, &cx, ctl, oref(g, slot));
  if (!filter_match(g, &cx, f, t)) return 0;
  return !protected_from(g, t, slot, c->colors, 0);
}

/* Whether the Aura in slot, controlled by ctl, could enchant player p: its
 * enchant ability, seen from ctl ("enchant opponent", 303.4a, 303.4c), and
 * the player's protection (702.16c, 702.16j). */
int aura_can_enchant_player(G *g, int slot, int p, int ctl) {
  const Chars *c = chars(g, slot);
  const Filter *f = c->base ? c->base->enchant : NULL;
  if (!f) return 0;
  Ctx cx;
  ctx_for(g, &cx, ctl, oref(g, slot));
  return filter_match_player(g, &cx, f, p) && !player_protected_from(g, p, slot, NULL);
}

static int aura_legal(G *g, int slot) {
  State *s = g->s;
  const Obj *o = &s->obj[slot];
  const Chars *c = chars(g, slot);
  if (c->types & T_CREATURE) return 0; /* 303.4d */
  /* seen from the Aura's controller, who may have changed (303.4e) */
  if (o->attached_player >= 0) return aura_can_enchant_player(g, slot, o->attached_player, c->controller);
  if (!oref_ok(g, o->attached)) return 0;
  return aura_can_enchant(g, slot, o->attached.slot, c->controller);
}

static int has_subtype_name(const Chars *c, const char *n) { return has_subtype(c, n); }

Event sba_event(G *g, int type, int slot, const char *rule) {
  Event e;
  ev_init(&e, type);
  e.obj = oref(g, slot);
  e.from = MTG_Z_BATTLEFIELD;
  e.to = MTG_Z_GRAVEYARD;
  e.cause = CA_SBA;
  e.rule = rule;
  return e;
}

int sba_check(G *g) {
  State *s = g->s;
  /* Nothing has happened since a check that found nothing: it would find
   * nothing again. What the check reads is an object's (written through
   * obj_w: owrites), a player's (life, counters, a draw from an empty
   * library: changed by a performed batch of events) or moves epoch (types,
   * abilities, controllers, the stack, pending triggers, the effects whose
   * conditions it asks); and what a check finding nothing writes (drew_empty
   * and dt_hit cleared, stale Equipment unattached, non-creatures removed
   * from combat) leaves nothing for the next one to write. Two checks in
   * five are skipped so in self-play. */
  if (g->sba_clean && g->sba_epoch == g->epoch && g->sba_batches == g->batches && g->sba_owrites == g->owrites)
    return 0;
  combat_check(g); /* not a state-based action, but seen whenever they are checked */
  int base = g->evtop, n = 0;
  Event *ev = ev_alloc(g, MAX_SBA_EV);
  int any = 0;
  char nm[110];
#define ADD(e) do { if (n < MAX_SBA_EV) ev[n++] = (e); } while (0)
  /* 704.5a-c: one loss per player however many reasons (704.7); in Two-Headed Giant
   * life and poison are the team's (704.6a, 704.6b in variant.c) */
  int thg = var_2hg(g);
  for (int p = 0; p < s->c.np; p++) {
    if (!player_alive(g, p)) continue;
    Player *pl = &s->c.pl[p];
    const char *rule = NULL;
    if (!thg && pl->life <= 0 && !rule_effect(g, SE_NO_LIFE_LOSS_GAME, p, -1, NULL, NULL)) rule = "704.5a";
    if (pl->drew_empty) rule = rule ? "704.5a,704.5b" : "704.5b";
    if (!thg && counters_get(pl->c, pl->nc, CN_POISON) >= 10) rule = rule ? (strlen(rule) > 6 ? "704.5a,704.5b,704.5c" : "704.5a,704.5c") : "704.5c";
    pl->drew_empty = 0;
    if (!rule) continue;
    Event e;
    ev_init(&e, EV_LOSE);
    e.player = (int8_t)p;
    e.rule = rule;
    if (!ev_possible(g, &e)) continue; /* "you can't lose the game": nothing is performed */
    log_line(g, 0, "sba rule=%s player=%s", rule, player_name(g, p));
    ADD(e);
    any = 1;
  }
  /* 704.5d, 704.5e: tokens and copies of spells in the wrong zone cease to
   * exist (the engine makes no copies of cards, 704.5e's other half); none
   * to look for in a game that has made none */
  for (int i = 0; i < (s->c.made_noncards ? s->c.nslots : 0); i++) {
    const Obj *o = &s->obj[i];
    if (o->kind == OK_CARD || !o->id) continue; /* most objects: cards */
    int gone = (o->kind == OK_TOKEN && o->zone != MTG_Z_BATTLEFIELD && o->zone != MTG_Z_COUNT) ||
               (o->kind == OK_SPELL_COPY && o->zone != MTG_Z_STACK);
    if (!gone) continue;
    fmt_slot(g, i, nm, sizeof nm);
    log_line(g, 0, "sba rule=%s obj=%s", o->kind == OK_TOKEN ? "704.5d" : "704.5e", nm);
    log_line(g, 0, "cease_to_exist obj=%s", nm);
    if (o->zone != MTG_Z_STACK) zl_remove(g, o->zone, o->owner, i); /* a shared zone's list ignores the player */
    slot_free(g, i);
    any = 1;
  }
  /* phased-out permanents are treated as though they don't exist (702.26b) */
  int nb = 0, nall = bf_count(g);
  int16_t bf[MAX_SLOTS];
  const int16_t *all = bf_list(g);
  for (int k = 0; k < nall; k++)
    if (!s->obj[all[k]].phased_out) bf[nb++] = all[k];
  /* what the later loops over the permanents look for, noted here so that
   * most checks skip them: counters, deathtouch damage, attachments (nothing
   * before those loops adds any; the loop below only removes attachments) */
  int any_nc = 0, any_dt = 0, any_att = 0;
  for (int k = 0; k < nb; k++) {
    int i = bf[k];
    const Obj *o = &s->obj[i];
    any_nc |= o->nc != 0;
    any_dt |= o->dt_hit;
    any_att |= o->attached.id != 0;
    const Chars *c = chars(g, i);
    Event e;
    if (c->types & T_CREATURE) {
      if (c->toughness <= 0) {
        /* 704.5f: put into its owner's graveyard; not destruction */
        fmt_slot(g, i, nm, sizeof nm);
        log_line(g, 0, "sba rule=704.5f obj=%s toughness=%d", nm, c->toughness);
        ADD(sba_event(g, EV_ZONE, i, "704.5f"));
        any = 1;
        continue;
      }
      if ((o->damage > 0 && o->damage >= c->toughness) || o->dt_hit) {
        const char *rule = o->damage > 0 && o->damage >= c->toughness ? "704.5g" : "704.5h";
        e = sba_event(g, EV_DESTROY, i, rule);
        /* an indestructible creature is not destroyed: nothing is performed (702.12b) */
        if (ev_possible(g, &e)) {
          fmt_slot(g, i, nm, sizeof nm);
          log_line(g, 0, "sba rule=%s obj=%s damage=%d toughness=%d", rule, nm, o->damage, c->toughness);
          ADD(e);
          any = 1;
        }
      }
    }
    if ((c->types & T_PLANESWALKER) && counters_get(o->c, o->nc, CN_LOYALTY) <= 0) {
      fmt_slot(g, i, nm, sizeof nm);
      log_line(g, 0, "sba rule=704.5i obj=%s", nm);
      ADD(sba_event(g, EV_ZONE, i, "704.5i"));
      any = 1;
    }
    /* 704.5m: Auras */
    if (is_aura(c)) {
      if (!aura_legal(g, i)) {
        fmt_slot(g, i, nm, sizeof nm);
        log_line(g, 0, "sba rule=704.5m obj=%s", nm);
        ADD(sba_event(g, EV_ZONE, i, "704.5m"));
        any = 1;
      }
      continue;
    }
    int attached = o->attached_player >= 0 || o->attached.id;
    if (!attached) continue;
    int equip = has_subtype_name(c, "Equipment") || has_subtype_name(c, "Fortification");
    int stale = o->attached_player < 0 && !oref_ok(g, o->attached);
    if (equip && stale) {
      /* the equipped permanent is gone: it simply stays unattached */
      obj_w(g, i)->attached = oref_none();
      continue;
    }
    const char *rule = NULL;
    if (c->types & (T_CREATURE | T_BATTLE)) {
      rule = "704.5p"; /* an Equipment that is also a creature can't equip (301.5c) */
    } else if (equip) {
      int t = o->attached.slot;
      int legal = o->attached_player < 0 && !stale && s->obj[t].zone == MTG_Z_BATTLEFIELD &&
                  (has_subtype_name(c, "Equipment") ? is_type(g, t, T_CREATURE) : is_type(g, t, T_LAND));
      if (legal) {
        /* 702.16d: protection from a quality: not equipped by Equipment with it */
        if (protected_from(g, t, i, c->colors, 0)) legal = 0;
      }
      if (!legal) rule = "704.5n";
    } else if (!has_subtype_name(c, "Aura")) {
      rule = "704.5p";
    }
    if (rule) {
      fmt_slot(g, i, nm, sizeof nm);
      log_line(g, 0, "sba rule=%s obj=%s", rule, nm);
      ev_init(&e, EV_UNATTACH);
      e.obj = oref(g, i);
      e.rule = rule;
      ADD(e);
      any = 1;
    }
  }
  /* 704.5q, 704.5r: counters */
  const BfSum *sum = bf_sum(g);
  int max_counters = bf_has_static(g, SE_MAX_COUNTERS);
  for (int k = 0; k < nb && (any_nc || max_counters); k++) {
    int i = bf[k];
    const Obj *o = &s->obj[i];
    if (!o->nc && !max_counters) continue; /* most: no counters */
    int p1 = counters_get(o->c, o->nc, CN_PLUS1), m1 = counters_get(o->c, o->nc, CN_MINUS1);
    Event e;
    if (p1 > 0 && m1 > 0) {
      int nn = p1 < m1 ? p1 : m1;
      fmt_slot(g, i, nm, sizeof nm);
      log_line(g, 0, "sba rule=704.5q obj=%s n=%d", nm, nn);
      ev_init(&e, EV_COUNTERS_OFF);
      e.obj = oref(g, i);
      e.ckind = CN_PLUS1;
      e.amount = nn;
      e.rule = "704.5q";
      ADD(e);
      e.ckind = CN_MINUS1;
      ADD(e);
      any = 1;
    }
    if (!max_counters) continue;
    const Chars *c = chars(g, i);
    for (int a = 0; a < c->nab; a++) {
      const Ability *ab = c->ab[a].ab;
      if (ab->kind != AB_STATIC || ab->st.kind != SE_MAX_COUNTERS || !ab->st.counter) continue;
      int kind = ckind_id(g, ab->st.counter), have = counters_get(o->c, o->nc, kind);
      if (have <= ab->st.a) continue;
      fmt_slot(g, i, nm, sizeof nm);
      log_line(g, 0, "sba rule=704.5r obj=%s n=%d", nm, have - ab->st.a);
      ev_init(&e, EV_COUNTERS_OFF);
      e.obj = oref(g, i);
      e.ckind = (uint8_t)kind;
      e.amount = have - ab->st.a;
      e.rule = "704.5r";
      ADD(e);
      any = 1;
    }
  }
  /* 704.5j: the legend rule, each player choosing which to keep */
  int legends = 0;
  for (int k = 0; k < nb && !legends && (sum->supers & ST_LEGENDARY); k++) legends = (chars(g, bf[k])->supers & ST_LEGENDARY) != 0;
  if (legends) {
    unsigned char done[MAX_SLOTS];
    int order[MAX_PLAYERS];
    apnap_order(g, order); /* the choices are made in APNAP order (101.4) */
    for (int pi = 0; pi < s->c.np && order[pi] >= 0; pi++) {
      int p = order[pi];
      /* "the legend rule doesn't apply" (to each player), or "to permanents
       * you control": the rule looks at one player's permanents at a time */
      if (rule_effect(g, SE_NO_LEGEND_RULE, p, -1, NULL, NULL)) continue;
      memset(done, 0, (size_t)nb);
      for (int k = 0; k < nb; k++) {
        int i = bf[k];
        if (done[k]) continue; /* bf is the battlefield: nothing leaves it before the batch */
        const Chars *c = chars(g, i);
        if (!(c->supers & ST_LEGENDARY) || c->controller != p) continue;
        int grp[64], ng = 0;
        for (int j = k; j < nb && ng < 64; j++) {
          int q = bf[j];
          const Chars *d = chars(g, q);
          if ((d->supers & ST_LEGENDARY) && d->controller == p && !strcmp(d->name, c->name)) {
            grp[ng++] = q;
            done[j] = 1;
          }
        }
        if (ng < 2) continue;
        dec_begin(g, MTG_D_CHOOSE, p, "704.5j", "legend rule: choose the %s to keep", c->name);
        for (int j = 0; j < ng; j++) {
          fmt_slot(g, grp[j], nm, sizeof nm);
          dec_opt(g, MTG_O_OBJECT, s->obj[grp[j]].id, 0, -1, -1, "%s", nm);
        }
        int keep = ask_pick(g);
        for (int j = 0; j < ng; j++) {
          if (j == keep) continue;
          fmt_slot(g, grp[j], nm, sizeof nm);
          log_line(g, 0, "sba rule=704.5j obj=%s player=%s", nm, player_name(g, p));
          ADD(sba_event(g, EV_ZONE, grp[j], "704.5j"));
          any = 1;
        }
      }
    }
  }
  /* 704.5k: the world rule */
  {
    /* "the shortest amount of time": permanents that entered in one event tie;
     * every world permanent is seen, however many (a tie puts all of them
     * into the graveyard), so w holds as many as the battlefield can */
    int16_t w[MAX_SLOTS];
    int nw = 0;
    uint32_t newest = 0;
    for (int k = 0; k < nb && (sum->supers & ST_WORLD); k++)
      if (chars(g, bf[k])->supers & ST_WORLD) {
        w[nw++] = bf[k];
        if (s->obj[bf[k]].entered_batch > newest) newest = s->obj[bf[k]].entered_batch;
      }
    if (nw >= 2) {
      int tie = 0;
      for (int j = 0; j < nw; j++) tie += s->obj[w[j]].entered_batch == newest;
      for (int j = 0; j < nw; j++) {
        if (s->obj[w[j]].entered_batch == newest && tie == 1) continue;
        fmt_slot(g, w[j], nm, sizeof nm);
        log_line(g, 0, "sba rule=704.5k obj=%s", nm);
        ADD(sba_event(g, EV_ZONE, w[j], "704.5k"));
        any = 1;
      }
    }
  }
  /* 704.5s-704.5x: Sagas, dungeons, sectors, battles (cardtype.c) */
  any |= ct_sba(g, ev, &n, MAX_SBA_EV, bf, nb);
  /* 704.5z: start your engines! */
  for (int p = 0; p < s->c.np && (sum->kw >> KW_START_YOUR_ENGINES & 1); p++) {
    if (!player_alive(g, p) || s->c.pl[p].speed) continue;
    for (int k = 0; k < nb; k++)
      if (obj_controller(g, bf[k]) == p && has_kw(g, bf[k], KW_START_YOUR_ENGINES)) {
        s->c.pl[p].speed = 1;
        log_line(g, 0, "sba rule=704.5z player=%s speed=1", player_name(g, p));
        any = 1;
        break;
      }
  }
  /* 704.5y: more than one Role from the same player on a permanent: keep the newest */
  int attached_roles[64], nar = 0;
  for (int j = 0; j < nb && nar < 64 && any_att && (sum->types & T_ENCHANTMENT); j++)
    if (s->obj[bf[j]].id && s->obj[bf[j]].attached.id && has_subtype(chars(g, bf[j]), "Role")) attached_roles[nar++] = bf[j];
  for (int k = 0; k < nb && nar > 1; k++) {
    int host = bf[k];
    if (!s->obj[host].id) continue;
    for (int p = 0; p < s->c.np; p++) {
      int roles[16], nr = 0, newest = -1;
      for (int j = 0; j < nar && nr < 16; j++) {
        const Obj *r = &s->obj[attached_roles[j]];
        if (r->attached.id != s->obj[host].id || obj_controller(g, attached_roles[j]) != p) continue;
        roles[nr++] = attached_roles[j];
        if (newest < 0 || r->ts > s->obj[newest].ts) newest = attached_roles[j];
      }
      if (nr < 2) continue;
      for (int j = 0; j < nr; j++) {
        if (roles[j] == newest) continue;
        fmt_slot(g, roles[j], nm, sizeof nm);
        log_line(g, 0, "sba rule=704.5y obj=%s", nm);
        ADD(sba_event(g, EV_ZONE, roles[j], "704.5y"));
        any = 1;
      }
    }
  }
  /* 704.6: the variants' state-based actions */
  int then;
  any |= var_sba(g, ev, &n, MAX_SBA_EV, &then);
  /* deathtouch damage counts "since the last time state-based actions were checked" */
  for (int k = 0; k < nb && any_dt; k++)
    if (s->obj[bf[k]].dt_hit) obj_w(g, bf[k])->dt_hit = 0;
#undef ADD
  if (n) {
    g->in_sba = 1;
    ev_run(g, ev, n);
    g->in_sba = 0;
  }
  var_sba_then(g, then);
  g->evtop = base;
  g->sba_clean = !any && !n && then < 0;
  g->sba_epoch = g->epoch;
  g->sba_batches = g->batches;
  g->sba_owrites = g->owrites;
  return any;
}

void sba_loop(G *g) {
  /* 704.3 with 603.3b: SBAs until none, then triggers, then again */
  for (;;) {
    while (sba_check(g)) {
    }
    /* 603.8: a state trigger checks its state whenever it could, also right
     * after its previous instance left the stack with nothing happening */
    trig_state(g);
    if (!trig_put_on_stack(g)) break;
  }
}
