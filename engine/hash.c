/* hash.c - a 64-bit hash of the whole game state, computed from values in a
 * fixed order (never from addresses), for replay checkpoints and the
 * determinism checks. */
#include <string.h>

#include "internal.h"
#include "num.h"

uint64_t hash_bytes(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ULL;
  return h;
}

uint64_t hash_str(uint64_t h, const char *s) { return hash_bytes(h, s ? s : "", s ? strlen(s) + 1 : 1); }

static uint64_t hu(uint64_t h, uint64_t v) { return hash_mix(h ^ v) + 0x9e3779b97f4a7c15ULL; }

static uint64_t hdef(const CardDef *d) { return d ? d->hash : 0; }

static uint64_t hcounters(uint64_t h, G *g, const Counter *c, int n) {
  for (int i = 0; i < n; i++) {
    h = hash_str(h, ckind_name(g, c[i].kind));
    h = hu(h, (uint64_t)c[i].n);
  }
  return hu(h, (uint64_t)n);
}

static uint64_t hobj(uint64_t h, G *g, int slot) {
  const Obj *o = &g->s->obj[slot];
  h = hu(h, o->id);
  h = hu(h, (uint64_t)(int64_t)o->card);
  h = hu(h, hdef(o->def));
  h = hu(h, hdef(o->copy_of));
  h = hu(h, (uint64_t)o->owner << 8 | o->controller);
  h = hu(h, (uint64_t)o->zone << 16 | (uint64_t)o->kind << 8 | o->tapped);
  h = hu(h, (uint64_t)o->face_down << 8 | o->phased_out | (uint64_t)o->phased_indirectly << 16 | (uint64_t)o->manifested << 24 | (uint64_t)o->adventured << 32);
  h = hu(h, (uint64_t)o->attacking << 16 | (uint64_t)o->blocked << 8 | o->blocking);
  h = hu(h, (uint64_t)(int64_t)o->atk_player);
  h = hu(h, o->atk_obj.id);
  h = hu(h, o->block_of.id);
  if (o->band) h = hu(h, 0xba00u | o->band); /* only where there is one: the hashes of games without bands stay */
  if (o->band) h = hu(h, 0xba00u | o->band); /* only where there is one: the hashes of games without bands stay */
  h = hu(h, o->ts);
  h = hu(h, (uint64_t)(int64_t)o->damage);
  h = hu(h, o->dt_hit);
  h = hcounters(h, g, o->c, o->nc);
  h = hu(h, o->attached.id);
  h = hu(h, (uint64_t)(int64_t)o->attached_player);
  h = hu(h, (uint64_t)(int64_t)o->ctl_since);
  h = hu(h, (uint64_t)(int64_t)o->x);
  h = hu(h, o->kicked);
  h = hu(h, o->abil_used[0] ^ ((uint64_t)o->abil_used[1] << 32));
  static const uint8_t none[sizeof o->resolved];
  if (memcmp(o->resolved, none, sizeof none)) /* most objects: no ability resolved this turn */
    for (int i = 0; i < 16; i++)
      if (o->resolved[i]) h = hu(h, (uint64_t)i << 8 | o->resolved[i]);
  h = hu(h, (uint64_t)o->protector << 16 | (uint64_t)o->sector << 8 | o->room);
  h = hu(h, o->transformed);
  if (o->flipped) h = hu(h, 0x666c6970u);
  if (o->paired.id) h = hu(h, 0x7061ull << 48 | (uint64_t)(uint8_t)o->paired_by << 32 | o->paired.id);
  if (o->monstrous || o->renowned || o->exerted)
    h = hu(h, 0x6d6f6e00u | (uint64_t)o->monstrous << 16 | (uint64_t)o->renowned << 8 | o->exerted);
  if (o->saddled) h = hu(h, 0x73616464u);
  if (o->class_level) h = hu(h, 0x6c766c00u | o->class_level);
  if (o->alt || o->face || o->kick_n) h = hu(h, (uint64_t)o->alt << 16 | (uint64_t)o->face << 8 | o->kick_n);
  if (o->foretold) h = hu(h, (uint64_t)(int64_t)o->foretold);
  if (o->suspend_haste) h = hu(h, 0x73757370u);
  return h;
}

static uint64_t hlki(uint64_t h, const Lki *l) {
  h = hu(h, l->id);
  h = hu(h, hdef(l->def));
  h = hu(h, (uint64_t)l->controller << 8 | l->owner);
  return h;
}

static uint64_t hchoice(uint64_t h, const Choice *c) {
  for (int i = 0; i < c->nmode; i++) h = hu(h, c->mode[i]);
  for (int i = 0; i < CHOICE_SLOTS; i++) {
    const Target *t = &c->t[i];
    if (t->kind == TK_NONE) continue;
    h = hu(h, (uint64_t)i << 32 | t->kind);
    h = hu(h, (uint64_t)(int64_t)t->player);
    h = hu(h, t->obj.id);
    h = hu(h, t->stack_id);
    if (t->div) h = hu(h, 0x64697600u | (uint64_t)(uint16_t)t->div << 32); /* a division (601.2d) */
  }
  h = hu(h, (uint64_t)(int64_t)c->x);
  if (c->ret_atk_player || c->ret_atk_obj.id) h = hu(h, (uint64_t)c->ret_atk_player << 32 | c->ret_atk_obj.id);
  if (c->alt || c->face || c->bought || c->kick_n) h = hu(h, (uint64_t)c->alt << 24 | (uint64_t)c->face << 16 | (uint64_t)c->bought << 8 | c->kick_n);
  for (int i = 0; i < c->nadd; i++) {
    h = hu(h, hdef(c->add[i]));
    for (int k = 0; k < MAX_TARGETS; k++)
      if (c->at[i][k].kind != TK_NONE) h = hu(h, (uint64_t)c->at[i][k].obj.id << 8 ^ (uint64_t)(uint8_t)c->at[i][k].player ^ c->at[i][k].stack_id);
  }
  return hu(h, (uint64_t)c->kicked << 8 | c->free);
}

uint64_t state_hash(G *g) {
  State *s = g->s;
  Core *c = &s->c;
  uint64_t h = 0xcbf29ce484222325ULL;
  for (int i = 0; i < 4; i++) h = hu(h, c->rng[i]);
  h = hu(h, (uint64_t)c->turn << 32 | (uint32_t)c->turn_seq);
  h = hu(h, (uint64_t)c->active << 24 | (uint64_t)c->step << 16 | (uint64_t)c->stage << 8 | c->prio);
  h = hu(h, c->passes);
  h = hu(h, c->next_id);
  for (int p = 0; p < c->np; p++) {
    Player *pl = &c->pl[p];
    h = hash_str(h, pl->name);
    h = hu(h, (uint64_t)(int64_t)pl->life);
    h = hcounters(h, g, pl->c, pl->nc);
    h = hu(h, (uint64_t)pl->lost << 24 | (uint64_t)pl->won << 16 | (uint64_t)pl->left << 8 | pl->drew_empty);
    h = hu(h, (uint64_t)pl->lands_played << 32 | (uint64_t)pl->drawn_turn << 16 | (uint64_t)pl->spells_cast_turn);
    if (pl->extra_lands) h = hu(h, (uint64_t)(uint16_t)pl->extra_lands); /* hashes without it stay as they were */
    for (int k = 0; k < COL_COUNT; k++) h = hu(h, (uint64_t)pl->mana[k]);
    h = hu(h, (uint64_t)(int64_t)pl->speed);
    h = hu(h, (uint64_t)(int64_t)pl->dungeons_done);
    for (int k = 0; k < c->noutside[p]; k++) h = hu(h, hdef(c->outside[p][k]));
    h = hu(h, pl->team);
  }
  /* variants (704.6) */
  {
    const Variant *v = &c->v;
    h = hu(h, (uint64_t)v->kind << 16 | (uint64_t)v->archenemy << 8 | (uint8_t)v->planar_ctl);
    for (int i = 0; i < v->ncmd; i++) {
      h = hu(h, (uint64_t)(uint16_t)v->cmd_card[i] << 8 | v->cmd_owner[i]);
      h = hu(h, v->cmd_moved[i]);
      h = hu(h, (uint64_t)(int64_t)v->cmd_casts[i]);
      for (int p = 0; p < c->np; p++) h = hu(h, (uint64_t)(int64_t)v->cmd_dmg[p][i]);
    }
  }
  /* zones in order */
  for (int z = 0; z < NZL; z++) {
    h = hu(h, 0x5a00u + (unsigned)z);
    for (int i = 0; i < c->zn[z]; i++) h = hobj(h, g, s->zl[z][i]);
  }
  /* the stack */
  for (int i = 0; i < c->nstack; i++) {
    StackItem *si = &s->stack[i];
    h = hu(h, si->id);
    h = hu(h, (uint64_t)si->kind << 8 | si->controller);
    if (si->kind == SI_SPELL) h = hobj(h, g, si->slot);
    h = hu(h, si->ab ? si->ab->index : 255);
    h = hu(h, hdef(si->def));
    h = hlki(h, &si->srcl);
    h = hchoice(h, &si->ch);
  }
  /* pending triggers */
  for (int i = 0; i < c->npend; i++) {
    Pending *p = &s->pend[i];
    h = hu(h, p->ab ? p->ab->index : 255);
    h = hu(h, hdef(p->def));
    h = hlki(h, &p->srcl);
    h = hu(h, p->controller);
    h = hu(h, p->tc.obj.id);
  }
  /* continuous effects */
  for (int i = 0; i < c->neff; i++) {
    Effect *e = &s->eff[i];
    if (e->used == 2) continue;
    h = hu(h, e->id);
    h = hu(h, (uint64_t)e->kind << 24 | (uint64_t)e->dur << 16 | (uint64_t)e->used << 8 | e->controller);
    h = hu(h, e->ts);
    h = hu(h, e->obj.id);
    h = hu(h, (uint64_t)(int64_t)e->player);
    h = hu(h, (uint64_t)(uint16_t)e->a << 16 | (uint16_t)e->b);
    /* values past 16 bits (rare) add their full value; smaller ones hash as
     * they always have, so recorded hashes stay valid */
    if (e->a != (int16_t)e->a || e->b != (int16_t)e->b) h = hu(h, (uint64_t)(uint32_t)e->a << 32 | (uint32_t)e->b);
    h = hu(h, e->kw);
    if (e->kind == EK_CONT && e->st && e->st->kind == SE_COPY && e->grant_def) h = hash_str(h, e->grant_def->name);
    if (e->kind == EK_CONT && (e->types || e->chosen_colors)) h = hu(h, (uint64_t)e->types << 8 | e->chosen_colors);
    h = hu(h, (uint64_t)(int64_t)e->shield);
    h = hu(h, e->chosen_src);
    h = hu(h, e->source.id);
  }
  /* linked-ability records */
  for (int i = 0; i < c->nlink; i++) {
    Link *l = &s->link[i];
    h = hu(h, l->oid);
    h = hash_str(h, l->label);
    h = hu(h, (uint64_t)l->grant << 32 | (uint32_t)l->value);
    h = hash_str(h, l->sval);
    h = hu(h, l->obj.id);
  }
  for (int p = 0; p < c->np; p++)
    for (int st = 0; st < MTG_S_COUNT; st++) h = hu(h, c->skip[p][st]);
  h = hu(h, (uint64_t)(uint32_t)c->combat_seq);
  /* combat and the phases added to the turn (500.8) */
  if (c->blockers_declared) h = hu(h, 0xb10c);
  for (int i = 0; i < c->nxblk; i++) h = hu(h, (uint64_t)s->xblk[i].blk.id << 32 | s->xblk[i].atk.id);
  for (int i = 0; i < c->nxblk; i++) h = hu(h, (uint64_t)g->s->xblk[i].blk.id << 32 | g->s->xblk[i].atk.id);
  if (c->nxafter || c->nxq || c->xresume) {
    h = hu(h, (uint64_t)c->nxafter << 16 | (uint64_t)c->nxq << 8 | c->xresume);
    for (int i = 0; i < c->nxafter; i++) h = hu(h, c->xafter[i]);
    for (int i = 0; i < c->nxq; i++) h = hu(h, c->xq[i]);
  }
  return hist_hash(g, h);
}
