/* cast.c - the casting keywords: ways a card may be cast other than from a
 * hand for its mana cost, and what they change (601.2b, 702): alternative
 * costs (dash, escape, evoke, flashback, foretell, miracle), additional costs
 * (buyback, multikicker, splice, jump-start, retrace), split cards (709),
 * modal double-faced cards (712.3), and morph's turning face up (702.37e). */
#include <stdio.h>
#include <string.h>

#include "internal.h"

const char *const alt_names[ALT_COUNT] = {"none",      "flashback", "dash",    "escape",    "foretell",
                                          "miracle",   "jump_start", "retrace", "aftermath", "free",
                                          "alternative", "evoke",     "madness",  "disturb", "suspend"};

/* ---- morph (702.37) ---- */

/* 702.37e: a face-down permanent with a morph cost its controller can pay. */
static int morph_payable(G *g, int player, int slot) {
  const Obj *o = &g->s->obj[slot];
  return o->def->has_morph && cost_can_pay_parts(g, player, slot, &o->def->morph) &&
         cost_can_pay_mana(g, player, &o->def->morph.mana, 0, -1, 0);
}

/* 701.40b: a manifested creature card, turned face up for its mana cost */
static int manifest_payable(G *g, int player, int slot) {
  const Obj *o = &g->s->obj[slot];
  return o->manifested && (o->def->types & T_CREATURE) && o->def->cost.present &&
         cost_can_pay_mana(g, player, &o->def->cost, 0, -1, 0);
}

int cast_can_turn_face_up(G *g, int player, int slot) {
  const Obj *o = &g->s->obj[slot];
  if (!o->face_down || obj_controller(g, slot) != player) return 0;
  return morph_payable(g, player, slot) || manifest_payable(g, player, slot);
}

/* 116.2b, 702.37e: a special action, not using the stack: pay the morph cost,
 * turn it face up; 702.37b: a megamorph cost paid puts a +1/+1 counter on it
 * as it is turned face up. */
void cast_turn_face_up(G *g, int player, int slot) {
  const CardDef *d = g->s->obj[slot].def;
  int morph = morph_payable(g, player, slot);
  char nm[110];
  fmt_slot(g, slot, nm, sizeof nm);
  /* a manifested card with morph: either cost (701.40c) */
  if (manifest_payable(g, player, slot) &&
      (!morph || ask_yes_no(g, player, "701.40b", "turn %s face up for its mana cost rather than its morph cost?", nm)))
    morph = 0;
  ManaCost mc = morph ? d->morph.mana : d->cost;
  cost_pay_mana(g, player, &mc, 0, -1, 0, NULL);
  if (morph) cost_pay_parts(g, player, slot, &d->morph, NULL);
  Event fe;
  ev_init(&fe, EV_FACE_UP);
  fe.obj = oref(g, slot);
  fe.player = (int8_t)player;
  ev_one(g, &fe);
  if (morph && d->megamorph && oref_ok(g, fe.obj) && g->s->obj[slot].zone == MTG_Z_BATTLEFIELD)
    do_counters(g, slot, -1, CN_PLUS1, 1, player, 0);
}

/* ---- faces and halves ---- */

/* 702.146a: a transforming double-faced card with disturb, whose back face
 * may be cast (face 1) from its owner's graveyard */
static int disturb_card(const CardDef *card) { return card->back && !card->modal && card->cast && card->cast->has_disturb; }

/* The definition whose characteristics the object has, before continuous
 * effects: its copiable values (layer 1), the back face of a double-faced
 * card with its back face up (712.8d-f), the half of a split card cast (709.3b). */
const CardDef *face_up_def(const Obj *o) {
  const CardDef *d = o->copy_of ? o->copy_of : o->def;
  if (o->transformed && d->back) d = d->back;
  if (o->face && d->split && o->face <= 2) d = d->half[o->face - 1];
  else if (o->face == 1 && d->adventure) d = d->adventure; /* 715.3b: the Adventure's characteristics */
  return d;
}

/* The face of `card` cast as `face` (709.3a, 712.11c, 715.3a): 0 the card
 * itself (its front face); a split card's halves 1 and 2, both fused 3; the
 * back face of a modal double-faced card 1. NULL: no such face to cast. */
const CardDef *cast_face(const CardDef *card, int face) {
  if (card->split) {
    if (face == 1 || face == 2) return card->half[face - 1];
    return face == 3 && card->fuse ? card : NULL; /* 702.102b: combined characteristics */
  }
  if (!face) return card;
  if (face == 1 && card->modal) return card->back;
  if (face == 1 && card->adventure) return card->adventure; /* 715.3: cast as an Adventure */
  if (face == 1 && disturb_card(card)) return card->back; /* 702.146a: cast transformed */
  return NULL;
}

/* The faces of the card that may be cast or played (priority options). */
int cast_faces(const CardDef *card, int *out) {
  if (!card->split && !card->modal && !card->adventure && !disturb_card(card)) {
    out[0] = 0; /* a card of one face (most cards): cast_face gives only 0 */
    return 1;
  }
  int n = 0;
  for (int f = 0; f <= 3; f++)
    if (cast_face(card, f)) out[n++] = f;
  return n;
}

/* 601.2a: the spell has the characteristics of the face cast (709.3b,
 * 712.8f): a half of a split card, or a modal double-faced card's back face.
 * Called as the card has just moved to the stack, a move that already marked
 * the trigger index to be rebuilt (zone_move). */
void cast_set_face(G *g, int slot, const CardDef *card, int face) {
  Obj *o = obj_w(g, slot);
  if ((card->split || card->adventure) && face) o->face = (uint8_t)face;
  else if ((card->modal || disturb_card(card)) && face == 1) o->transformed = 1; /* 712.11b, 702.146a: cast with its back face up */
  else return;
  chars_dirty(g);
}

/* ---- alternative costs (601.2b) ---- */

static int foretold_before(G *g, const Obj *o) {
  /* 702.143a: cast after the turn it was foretold has ended */
  return o->foretold && o->foretold - 1 < g->s->c.turn_seq;
}

/* The casting keywords of the face fd of card: the face's own, else the card's. */
static const CastKw *face_kw(const CardDef *card, const CardDef *fd) { return fd->cast ? fd->cast : card->cast; }

/* 702.74a: the alternative costs that function in any zone the card may be
 * cast from (evoke), appended to the n ways in out: the hand, and a zone an
 * effect or rule lets it be cast from paying its costs. Returns how many. */
int cast_anywhere_alts(const CardDef *card, int face, uint8_t *out, int n) {
  const CardDef *fd = cast_face(card, face);
  const CastKw *k = fd ? face_kw(card, fd) : NULL;
  if (k && k->has_evoke) out[n++] = ALT_EVOKE;
  return n;
}

/* The ways face `face` of the card in slot may be cast from `zone` for a cost
 * (enum alt_cost; ALT_NONE: its mana cost): the zone's permissions (flashback,
 * escape, jump-start, retrace, aftermath from a graveyard, a foretold card from
 * exile) and the alternative costs offered there (dash, evoke). Returns how many. */
int cast_alts(G *g, int player, int slot, int zone, int face, uint8_t *out) {
  const Obj *o = &g->s->obj[slot];
  const CardDef *card = chars(g, slot)->base, *fd = cast_face(card, face);
  int n = 0;
  if (!fd) return 0;
  if (o->adventured) {
    /* 715.3d: exiled by its resolving Adventure, the card may be cast by that
     * Adventure's controller, whoever owns it, and not as its Adventure again */
    if (o->adventured != player + 1 || face) return 0;
    out[n++] = ALT_NONE;
    return n;
  }
  if (o->owner != player) return 0;
  if (face == 3 && zone != MTG_Z_HAND) return 0; /* 702.102a: fused only from a hand */
  const CastKw *k = face_kw(card, fd);
  if (face == 1 && disturb_card(card)) {
    /* 702.146a: "You may cast this card transformed from your graveyard by
     * paying [cost] rather than its mana cost": only so */
    if (zone == MTG_Z_GRAVEYARD) out[n++] = ALT_DISTURB;
    return n;
  }
  switch (zone) {
  case MTG_Z_HAND:
    if (!fd->aftermath) out[n++] = ALT_NONE; /* 702.127a: that half can't be cast from another zone */
    if (k && k->has_dash) out[n++] = ALT_DASH;
    n = cast_anywhere_alts(card, face, out, n);
    break;
  case MTG_Z_GRAVEYARD: {
    const Ability *fb = flashback_ability(fd);
    if (fb && fb->flashback && (fd->types & (T_INSTANT | T_SORCERY))) out[n++] = ALT_FLASHBACK;
    if (k && k->has_escape) out[n++] = ALT_ESCAPE;
    if (k && k->jump_start && (fd->types & (T_INSTANT | T_SORCERY))) out[n++] = ALT_JUMP_START;
    if (k && k->retrace) out[n++] = ALT_RETRACE;
    if (fd->aftermath) out[n++] = ALT_AFTERMATH;
    break;
  }
  case MTG_Z_EXILE:
    if (k && k->has_foretell && foretold_before(g, o)) out[n++] = ALT_FORETELL;
    break;
  default: break;
  }
  return n;
}

/* 601.2b: the player announces how the spell is cast, when there is a choice. */
int cast_choose_alt(G *g, int player, const char *nm, const uint8_t *alts, int n) {
  if (n <= 1) return n ? alts[0] : ALT_NONE;
  dec_begin(g, MTG_D_WORD, player, "601.2b", "choose how to cast %s", nm);
  for (int i = 0; i < n; i++) dec_opt(g, MTG_O_WORD, 0, 0, -1, alts[i], "%s", alts[i] ? alt_names[alts[i]] : "mana_cost");
  int k = ask_pick(g);
  return alts[k < 0 ? 0 : k];
}

/* ---- additional costs (601.2b): kicker (702.33), buyback (702.27) ---- */

static void fmt_cost(const Cost *c, char *buf, size_t n) {
  mana_format(&c->mana, buf, n);
  if (c->nparts) snprintf(buf + strlen(buf), n - strlen(buf), "%s(and other costs)", c->mana.present || mana_value(&c->mana) ? " " : "");
}

/* ---- splice (702.47) ---- */

/* Can the spell ability ab of a card added to spell si have its targets
 * chosen (702.47b)? A card with splice has one mode (the loader refuses
 * others). */
static int added_feasible(G *g, const StackItem *si, const Ability *ab) {
  if (!ab) return 0;
  StackItem t = *si; /* target_candidates reads only the spell: its kind, slot and source */
  const Mode *m = ab->modes; /* its one mode */
  for (int k = 0; k < m->nt; k++) {
    Target cand[2];
    if (!m->t[k].optional && !target_candidates(g, &t, &m->t[k], si->controller, cand, 1)) return 0;
  }
  return 1;
}

/* 702.47a-b: as a spell with a subtype is cast, its controller may reveal
 * cards with "splice onto [that subtype]" from their hand, each once, and
 * pay their splice costs; the spell gains their effects, in the order chosen
 * (the answer's order), after its own. */
static void cast_choose_splices(G *g, int player, int slot, StackItem *si, ManaCost *total, int any_mana) {
  State *s = g->s;
  const Chars *sc = chars(g, slot);
  int hn = zl_count(g, MTG_Z_HAND, player), cand[MAX_OPTIONS], n = 0;
  int16_t *h = zl_list(g, MTG_Z_HAND, player);
  for (int i = 0; i < hn && n < MAX_OPTIONS; i++) {
    const CastKw *k = s->obj[h[i]].def->cast;
    if (!k || !k->has_splice || !has_subtype(sc, k->splice_onto)) continue;
    ManaCost t = *total;
    mana_add(&t, &k->splice.mana, 1);
    if (!cost_can_pay_parts(g, player, h[i], &k->splice) || !cost_can_pay_mana(g, player, &t, 0, slot, any_mana)) continue;
    if (!added_feasible(g, si, spell_ability(s->obj[h[i]].def))) continue;
    cand[n++] = h[i];
  }
  if (!n || si->ch.nadd >= MAX_ADDED) return;
  char nm[110];
  fmt_slot(g, slot, nm, sizeof nm);
  dec_begin(g, MTG_D_CHOOSE, player, "702.47a", "reveal cards to splice onto %s (in the order their effects happen)", nm);
  for (int i = 0; i < n; i++) {
    char cn[110];
    fmt_slot(g, cand[i], cn, sizeof cn);
    dec_opt(g, MTG_O_OBJECT, s->obj[cand[i]].id, 0, -1, -1, "%s", cn);
  }
  dec_range(g, 0, n < MAX_ADDED - si->ch.nadd ? n : MAX_ADDED - si->ch.nadd);
  int cnt;
  const int *v = dec_ask(g, 0, &cnt);
  int picked[MAX_ADDED], np = 0;
  for (int i = 0; i < cnt && np < MAX_ADDED; i++) picked[np++] = cand[v[i]];
  for (int i = 0; i < np; i++) {
    const CardDef *d = s->obj[picked[i]].def;
    if (i) { /* the costs of all of them together (601.2f) */
      ManaCost t = *total;
      mana_add(&t, &d->cast->splice.mana, 1);
      if (!cost_can_pay_mana(g, player, &t, 0, slot, any_mana)) game_illegal(g, "the splice costs of %s can't all be paid", nm);
    }
    mana_add(total, &d->cast->splice.mana, 1);
    si->ch.add[si->ch.nadd] = d;
    si->ch.splice[si->ch.nadd] = s->obj[picked[i]].id;
    si->ch.nadd++;
    Event r;
    ev_init(&r, EV_REVEAL);
    r.obj = oref(g, picked[i]);
    r.player = (int8_t)player;
    r.rule = "702.47a";
    ev_one(g, &r);
  }
}

/* Announces the optional additional costs of the spell si (the face fd of the
 * card in slot), adding their mana to *total. */
void cast_announce_additional(G *g, int player, int slot, const CardDef *fd, StackItem *si, ManaCost *total, int any_mana) {
  const CastKw *k = fd->cast;
  char nm[110], kc[64];
  fmt_slot(g, slot, nm, sizeof nm);
  if (k && k->multikicker && fd->nkick) {
    /* 702.33c: "Multikicker [cost]": pay it any number of times */
    int hi = 0;
    for (;;) {
      ManaCost t = *total;
      mana_add(&t, &fd->kick[0], hi + 1);
      if (hi >= MAX_UNITS || !cost_can_pay_mana(g, player, &t, 0, slot, any_mana)) break;
      hi++;
    }
    mana_format(&fd->kick[0], kc, sizeof kc);
    int times = hi ? ask_number(g, player, 0, hi, "pay multikicker %s how many times for %s?", kc, nm) : 0;
    if (times) {
      si->ch.kicked = 1;
      si->ch.kick_n = (uint8_t)times;
      mana_add(total, &fd->kick[0], times);
    }
  } else {
    for (int i = 0; i < fd->nkick; i++) {
      /* 702.33b, 601.2b: each kicker cost is announced or not; 702.33f: which were paid */
      ManaCost t = *total;
      mana_add(&t, &fd->kick[i], 1);
      mana_format(&fd->kick[i], kc, sizeof kc);
      if (cost_can_pay_mana(g, player, &t, 0, slot, any_mana) && ask_yes_no(g, player, "702.33", "pay kicker %s for %s?", kc, nm)) {
        si->ch.kicked |= (uint8_t)(1u << i);
        *total = t;
      }
    }
  }
  cast_choose_splices(g, player, slot, si, total, any_mana);
  if (k && k->has_buyback) {
    ManaCost t = *total;
    mana_add(&t, &k->buyback.mana, 1);
    fmt_cost(&k->buyback, kc, sizeof kc);
    if (cost_can_pay_parts(g, player, slot, &k->buyback) && cost_can_pay_mana(g, player, &t, 0, slot, any_mana) &&
        ask_yes_no(g, player, "702.27a", "pay buyback %s for %s?", kc, nm)) {
      si->ch.bought = 1;
      *total = t;
    }
  }
}

/* 601.2h: the other parts of the additional costs announced. */
void cast_pay_additional(G *g, int player, int slot, const CardDef *fd, StackItem *si) {
  if (si->ch.bought && fd->cast->buyback.nparts) cost_pay_parts(g, player, slot, &fd->cast->buyback, si);
  for (int i = 0; i < si->ch.nadd; i++) {
    const CastKw *k = si->ch.add[i]->cast;
    int sp = obj_by_id(g, si->ch.splice[i]);
    if (k && k->has_splice && k->splice.nparts && sp >= 0) cost_pay_parts(g, player, sp, &k->splice, si);
  }
}

/* The cast line's fields about how it was cast. */
void cast_log_fields(G *g, const StackItem *si, char *buf, size_t n) {
  size_t u = 0;
  const Choice *ch = &si->ch;
  buf[0] = 0;
  if (ch->alt && ch->alt != ALT_FREE) u += (size_t)snprintf(buf + u, n - u, " how=%s", alt_names[ch->alt]);
  if (ch->face && u < n) {
    cast_face_label(g->s->obj[si->slot].def, ch->face, buf + u, n - u);
    u += strlen(buf + u);
  }
  if (ch->bought && u < n) u += (size_t)snprintf(buf + u, n - u, " bought=1");
  for (int i = 0, k = 0; i < ch->nadd && u < n; i++) {
    int sp = ch->splice[i] ? obj_by_id(g, ch->splice[i]) : -1;
    if (sp < 0) continue;
    char cn[110];
    fmt_slot(g, sp, cn, sizeof cn);
    u += (size_t)snprintf(buf + u, n - u, "%s%s", k++ ? "," : " spliced=", cn);
  }
}

/* 702.47d: the targets of the text added to the spell are chosen as it is
 * cast (601.2c), after its own, as targets of the spell. */
void cast_added_targets(G *g, StackItem *si, int player) {
  uint32_t id = si->id;
  for (int i = 0; i < si->ch.nadd; i++) {
    int idx = stack_find(g, id);
    if (idx < 0) return;
    StackItem t = g->s->stack[idx];
    t.ab = spell_ability(t.ch.add[i]);
    if (!t.ab) continue;
    memset(t.ch.t, 0, sizeof t.ch.t); /* TK_NONE: choose_modes_targets fills each target it chooses whole */
    t.ch.nmode = 0;
    choose_modes_targets(g, &t, player);
    /* the spliced text keeps its first mode's first MAX_TARGETS targets */
    for (int k = MAX_TARGETS; k < CHOICE_SLOTS; k++)
      if (t.ch.t[k].kind != TK_NONE) game_limit(g, "targets of text spliced onto a spell", MAX_TARGETS);
    idx = stack_find(g, id);
    if (idx < 0) return;
    memcpy(g->s->stack[idx].ch.at[i], t.ch.t, sizeof t.ch.at[i]);
  }
}

/* 608.2b for the added text: its illegal targets are forgotten; counts its
 * targets and the legal ones. */
void cast_added_targets_legal(G *g, StackItem *si, int *total, int *legal) {
  for (int i = 0; i < si->ch.nadd; i++) {
    const Ability *ab = spell_ability(si->ch.add[i]); /* its one mode: added_feasible, cardload.c's splice */
    for (int k = 0; k < ab->modes[0].nt; k++) {
      Target *t = &si->ch.at[i][k];
      if (t->kind == TK_NONE) continue;
      (*total)++;
      if (target_legal_for(g, si, &ab->modes[0].t[k], t)) (*legal)++;
      else t->kind = TK_NONE;
    }
  }
}

/* 702.47b, 702.102d: after its own effect, the spell follows the text added
 * to it, in order. */
void cast_resolve_added(G *g, const StackItem *si) {
  for (int i = 0; i < si->ch.nadd; i++) {
    const Ability *ab = spell_ability(si->ch.add[i]); /* its one mode: added_feasible, cardload.c's splice */
    int idx = stack_find(g, si->id);
    StackItem live = idx >= 0 ? g->s->stack[idx] : *si;
    Ctx c;
    ctx_from_stack(g, &c, &live);
    c.ab = ab;
    memcpy(c.chbuf.t, live.ch.at[i], sizeof live.ch.at[i]);
    c.chbuf.nmode = 1;
    c.chbuf.mode[0] = 0;
    c.mode = 0;
    eff_run(g, &c, ab->modes[0].effect);
  }
}

/* ---- leaving the stack ---- */

/* "If the flashback cost was paid, exile this card instead of putting it
 * anywhere else any time it would leave the stack" (702.34a); the same for a
 * spell cast with jump-start (702.133a) and an aftermath half cast from a
 * graveyard (702.127a). */
void cast_leaving_stack(G *g, Event *e) {
  if ((e->type != EV_ZONE && e->type != EV_COUNTER_SPELL) || !oref_ok(g, e->obj) || e->to == MTG_Z_EXILE) return;
  const Obj *o = &g->s->obj[e->obj.slot];
  if (o->zone != MTG_Z_STACK || o->kind != OK_CARD) return;
  static const char *const rule[ALT_COUNT] = {[ALT_FLASHBACK] = "702.34a", [ALT_JUMP_START] = "702.133a",
                                              [ALT_AFTERMATH] = "702.127a"};
  if (!rule[o->alt]) return;
  e->to = MTG_Z_EXILE;
  e->rule = rule[o->alt];
}

/* ---- casting during a resolution (608.2g) ---- */

/* An effect lets player cast the card in slot now, for the cost `alt` allows
 * (ALT_FREE: without paying its mana cost; ALT_MIRACLE, ALT_MADNESS), and, with mv_below
 * >= 0, only a spell of mana value less than that (cascade, 702.85a). The
 * player may decline. */
void cast_during(G *g, int player, int slot, int alt, int mv_below) {
  const Obj *o = &g->s->obj[slot];
  const CardDef *card = chars(g, slot)->base;
  int faces[4], nf = cast_faces(card, faces), ok[4], n = 0;
  for (int i = 0; i < nf; i++) {
    const CardDef *fd = cast_face(card, faces[i]);
    CastWay w = {.zone = (int8_t)o->zone, .face = (uint8_t)faces[i], .during = 1, .alt = (uint8_t)alt};
    if (mv_below >= 0 && mana_value(&fd->cost) >= mv_below) continue;
    if (can_cast_way(g, player, slot, &w)) ok[n++] = faces[i];
  }
  if (!n) return;
  char nm[110], mc[64] = "";
  fmt_slot(g, slot, nm, sizeof nm);
  if (alt == ALT_MIRACLE || alt == ALT_MADNESS) mana_format(alt == ALT_MIRACLE ? &card->cast->miracle : &card->cast->madness, mc, sizeof mc);
  if (!(alt == ALT_FREE || alt == ALT_SUSPEND
            ? ask_yes_no(g, player, alt == ALT_SUSPEND ? "702.62a" : "608.2g", "cast %s without paying its mana cost?", nm)
                        : ask_yes_no(g, player, alt == ALT_MIRACLE ? "702.94a" : "702.35a", "cast %s for its %s cost %s?", nm, alt_names[alt], mc)))
    return;
  int face = ok[0];
  if (n > 1) {
    /* 709.3, 712.11b: which half or face */
    dec_begin(g, MTG_D_WORD, player, "709.3", "choose the face of %s to cast", nm);
    for (int i = 0; i < n; i++) dec_opt(g, MTG_O_WORD, 0, 0, -1, ok[i], "%s", cast_face(card, ok[i])->name);
    int k = ask_pick(g);
    face = ok[k < 0 ? 0 : k];
  }
  CastWay w = {.zone = (int8_t)o->zone, .face = (uint8_t)face, .during = 1, .alt = (uint8_t)alt};
  stack_cast_way(g, player, slot, &w);
}

/* 702.85a: exile cards from the top of your library until you exile a nonland
 * card whose mana value is less than this spell's; you may cast it without
 * paying its mana cost if the resulting spell's mana value is less; then put
 * the exiled cards not cast on the bottom of your library in a random order. */
void cast_cascade(G *g, Ctx *c) {
  State *s = g->s;
  int p = c->controller;
  int mv = oref_ok(g, c->src) ? obj_mv(g, c->src.slot) : c->srcl ? c->srcl->mv : 0;
  /* every card exiled leaves the library, which holds at most MAX_SLOTS, so
   * however long the library the exiled cards fit (no cap, 702.85a) */
  ORef exiled[MAX_SLOTS];
  int n = 0, hit = -1;
  while (zl_count(g, MTG_Z_LIBRARY, p) > 0) {
    int top = zl_list(g, MTG_Z_LIBRARY, p)[0];
    Event e;
    ev_init(&e, EV_EXILE);
    e.obj = oref(g, top);
    e.from = MTG_Z_LIBRARY;
    e.to = MTG_Z_EXILE;
    e.cause_ctl = (int8_t)p;
    e.cause_id = c->cause_id;
    e.rule = "702.85a";
    ev_one(g, &e);
    if (!e.done || e.new_slot < 0 || s->obj[e.new_slot].id != e.new_id) break; /* replaced: it is not exiled this way */
    ORef r = {e.new_slot, e.new_id};
    if (s->obj[r.slot].zone != MTG_Z_EXILE) break; /* put elsewhere instead: not exiled this way either */
    exiled[n++] = r;
    if (!is_type(g, r.slot, T_LAND) && obj_mv(g, r.slot) < mv) {
      hit = n - 1;
      break;
    }
  }
  if (hit >= 0) cast_during(g, p, exiled[hit].slot, ALT_FREE, mv);
  /* the rest, in a random order, to the bottom */
  int rest[MAX_SLOTS], k = 0;
  for (int i = 0; i < n; i++) /* still the card exiled: any move since (a cast) made a new object (400.7) */
    if (oref_ok(g, exiled[i])) rest[k++] = exiled[i].slot;
  for (int i = k - 1; i > 0; i--) {
    int j = rng_below(s->c.rng, i + 1), t = rest[i];
    rest[i] = rest[j];
    rest[j] = t;
  }
  for (int i = 0; i < k; i++) {
    Event e;
    ev_init(&e, EV_ZONE);
    e.obj = oref(g, rest[i]);
    e.from = MTG_Z_EXILE;
    e.to = MTG_Z_LIBRARY;
    e.lib_pos = 1; /* the bottom */
    e.cause_ctl = (int8_t)p;
    e.cause_id = c->cause_id;
    ev_one(g, &e);
  }
}

/* ---- when a spell resolves (608.3) ---- */

/* The permanent spell si became the permanent in slot. 702.109a: "If this
 * spell's dash cost was paid, return the permanent this spell becomes to its
 * owner's hand at the beginning of the next end step." */
void cast_resolved(G *g, const StackItem *si, int slot) {
  if (si->ch.alt != ALT_DASH) return;
  const CardDef *card = g->s->obj[slot].def;
  const CastKw *k = face_kw(card, cast_face(card, si->ch.face)); /* where cast_alts found the dash */
  Ctx cx;
  ctx_for(g, &cx, si->controller, oref(g, slot));
  cx.def = card;
  eff_delayed(g, &cx, k->dash_return, DUR_FOREVER, oref(g, slot));
}

/* ---- miracle (702.94) ---- */

/* 702.94a: "You may reveal this card from your hand as you draw it if it's the
 * first card you've drawn this turn. When you reveal this card this way, you
 * may cast it by paying [cost] rather than its mana cost." */
void cast_drawn(G *g, const Event *e) {
  State *s = g->s;
  if (e->player < 0 || s->c.pl[e->player].drawn_turn != 1) return; /* e: a draw (event.c's after_batch) */
  int slot = e->new_slot;
  if (!oref_ok(g, ev_new_obj(e)) || s->obj[slot].zone != MTG_Z_HAND) return; /* a draw that drew nothing has no new object */
  const CastKw *k = s->obj[slot].def->cast;
  if (!k || !k->has_miracle) return;
  char nm[110];
  fmt_slot(g, slot, nm, sizeof nm);
  if (!ask_yes_no(g, e->player, "702.94a", "reveal %s as you draw it (miracle)?", nm)) return;
  Event r;
  ev_init(&r, EV_REVEAL);
  r.obj = oref(g, slot);
  r.player = e->player;
  r.cause_id = s->obj[slot].id;
  r.src = oref(g, slot);
  r.rule = "702.94a";
  ev_one(g, &r);
  TrigCtx tc = {.ev = EV_REVEAL, .obj = oref(g, slot), .player = e->player};
  trig_add(g, k->miracle_trig, s->obj[slot].def, 0, slot, e->player, &tc);
}

/* ---- madness (702.35) ---- */

/* 702.35a: "When this card is exiled this way, its owner may cast it by paying
 * [cost] rather than paying its mana cost. If that player doesn't, they put
 * this card into their graveyard." e moved a card into exile: "this way" is by
 * the card's own madness replacement, which links the card it exiled by its
 * label (607.2b) and whose source is the card itself. */
void cast_madness(G *g, const Event *e) {
  State *s = g->s;
  if (e->to != MTG_Z_EXILE || !e->link_label || e->link_src != e->obj.id || strcmp(e->link_label, MADNESS_LINK)) return;
  ORef o = ev_new_obj(e);
  if (!oref_ok(g, o) || s->obj[o.slot].zone != MTG_Z_EXILE) return;
  const CardDef *d = s->obj[o.slot].def;
  if (!d->cast || !d->cast->has_madness) return;
  int owner = s->obj[o.slot].owner;
  TrigCtx tc = {.ev = EV_ZONE, .obj = o, .player = (int8_t)owner};
  trig_add(g, d->cast->madness_trig, d, 0, o.slot, owner, &tc);
}

/* ---- foretell (702.143) ---- */

/* 702.143a: {2}, less what "foretelling cards from your hand costs {N} less"
 * effects take off; *any_turn: one lets it be done on any player's turn. */
static ManaCost foretell_cost(G *g, int player, int *any_turn) {
  int less = rule_effect_sum(g, SE_FORETELL_COST, player, any_turn);
  ManaCost m = {.generic = (uint8_t)(less >= 2 ? 0 : 2 - less)};
  return m;
}

/* 116.2h: a player with priority during their turn may pay {2} and exile a
 * card with foretell from their hand face down. slot is a card in player's
 * hand: the priority options ask only about those. */
int cast_can_foretell(G *g, int player, int slot) {
  const Obj *o = &g->s->obj[slot];
  if (!o->def->cast || !o->def->cast->has_foretell) return 0;
  int any_turn;
  ManaCost m = foretell_cost(g, player, &any_turn);
  if (g->s->c.active != player && !any_turn) return 0;
  return cost_can_pay_mana(g, player, &m, 0, -1, 0);
}

/* A special action exiling a card from its owner's hand (116.2f, 116.2h):
 * the cost m paid, the action logged as `what` with its rule, the card exiled
 * (face down, or with n counters of kind ckind1 - 1 on it). The event, done or
 * not (a replacement may move the card elsewhere), for the caller to read. */
static void hand_exile_action(G *g, int player, int slot, const ManaCost *m, const char *what, const char *rule, int face_down,
                              uint32_t ckind1, int n, Event *e) {
  char nm[110];
  fmt_slot(g, slot, nm, sizeof nm);
  cost_pay_mana(g, player, m, 0, -1, 0, NULL);
  log_line(g, 0, "%s player=%s obj=%s rule=%s", what, player_name(g, player), nm, rule);
  ev_init(e, EV_ZONE);
  e->obj = oref(g, slot);
  e->from = MTG_Z_HAND;
  e->to = MTG_Z_EXILE;
  e->face_down = (uint8_t)face_down;
  e->cause_ctl = (int8_t)player;
  e->dest_counter_kind1 = ckind1;
  e->dest_counter_n = (int16_t)n;
  e->rule = rule;
  ev_one(g, e);
}

/* The special action (116.2h, 702.143b): pay, exile face down; the card can be
 * cast for its foretell cost after this turn (702.143a). Offered only where
 * cast_can_foretell allows it, in the same state. */
void cast_foretell(G *g, int player, int slot) {
  int any_turn;
  ManaCost m = foretell_cost(g, player, &any_turn);
  Event e;
  hand_exile_action(g, player, slot, &m, "foretell", "702.143a", 1, 0, 0, &e);
  if (e.done && oref_ok(g, ev_new_obj(&e)) && g->s->obj[e.new_slot].zone == MTG_Z_EXILE)
    obj_w(g, e.new_slot)->foretold = g->s->c.turn_seq + 1;
}

/* ---- suspend (702.62) ---- */

/* 116.2f, 702.62a: a player with priority who could begin to cast a card with
 * suspend from their hand (its timing, and no effect prohibiting it: 702.62c)
 * may pay its suspend cost and exile it. slot is a card in player's hand: the
 * priority options ask only about those. */
int cast_can_suspend(G *g, int player, int slot) {
  const CastKw *k = g->s->obj[slot].def->cast;
  if (!k || !k->suspend_time || !could_begin_to_cast(g, player, slot)) return 0;
  return cost_can_pay_mana(g, player, &k->suspend, 0, -1, 0);
}

/* The special action (116.2f): pay the suspend cost, exile the card with N
 * time counters on it; it doesn't use the stack (702.62a). Offered only where
 * cast_can_suspend allows it, in the same state. */
void cast_suspend(G *g, int player, int slot) {
  const CastKw *k = g->s->obj[slot].def->cast;
  Event e;
  hand_exile_action(g, player, slot, &k->suspend, "suspend", "702.62a", 0, (uint32_t)ckind_id(g, "time") + 1, k->suspend_time, &e);
}

/* The priority option's suffix naming the face cast or played: ` face="NAME"` (none for 0). */
void cast_face_label(const CardDef *card, int face, char *buf, size_t n) {
  const CardDef *fd = face ? cast_face(card, face) : NULL;
  if (fd) snprintf(buf, n, " face=\"%s\"", face == 3 ? "fused" : fd->name);
  else buf[0] = 0;
}
