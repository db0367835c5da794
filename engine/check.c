/* check.c - the invariant checker run by the test build after every engine
 * step: every object in exactly one zone, consistent stack, non-negative
 * counters and damage, no orphaned attachments at priority, a pending
 * decision with options, the caches (characteristics, the battlefield's
 * summary, the trigger listener index) equal to a from-scratch
 * recomputation, and every log line in the log's vocabulary. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static int bad(char *why, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, n, fmt, ap);
  va_end(ap);
  return -1;
}

static int opt_bad(char *why, size_t n, int i, const mtg_option *o, const char *what) {
  return bad(why, n, "option %d '%s' (kind %d, obj #%u, obj2 #%u, player %d, index %d): %s", i, o->label, o->kind,
             (unsigned)o->obj, (unsigned)o->obj2, o->player, o->index, what);
}

/* prefix (a literal of at most 15 characters) and then v in decimal, in buf:
 * 16 + 16 characters at most, without snprintf, as every option of every
 * decision is checked */
static const char *with_number(char buf[static 32], const char *prefix, int v) {
  char digits[16];
  size_t k = sizeof digits, u = strlen(prefix);
  unsigned x = (unsigned)v;
  do digits[--k] = (char)('0' + x % 10);
  while (x /= 10); /* ten digits at most */
  memcpy(buf, prefix, u);
  memcpy(buf + u, digits + k, sizeof digits - k);
  buf[u + sizeof digits - k] = 0;
  return buf;
}

/* Text shown to players: not empty, no control characters. */
static int printable(const char *s) {
  if (!s || !*s) return 0;
  for (; *s; s++)
    if ((unsigned char)*s < 0x20 || *s == 0x7f) return 0;
  return 1;
}

int mtg_decision_check(const mtg_game *g, char *why, size_t n) {
  if (!why) n = 0;
  if (!g) return bad(why, n, "the game is NULL");
  if (g->status != MTG_DECISION) return 0;
  const mtg_decision *d = &g->dec->pub;
  int np = g->s->c.np;
  if (!printable(d->prompt)) return bad(why, n, "decision %s has no readable prompt", d->kind_name);
  if (d->player < 0 || d->player >= np) return bad(why, n, "decision %s for no player (%d)", d->kind_name, d->player);
  for (int i = 0; i < d->n_options; i++) {
    const mtg_option *o = &d->options[i];
    if (!printable(o->label)) return bad(why, n, "option %d of decision %s has no readable label", i, d->kind_name);
    int k = o->kind;
    int attack = k == MTG_O_ATTACK, block = k == MTG_O_BLOCK;
    if (o->obj2 && !attack && !block) return opt_bad(why, n, i, o, "a second object on an option that has none");
    if (block && !o->obj2) return opt_bad(why, n, i, o, "a block without the attacker it blocks");
    if (attack && (o->obj2 != 0) == (o->player >= 0)) return opt_bad(why, n, i, o, "an attack on no defender or on two");
    if (o->player != -1 && k != MTG_O_PLAYER && !attack) return opt_bad(why, n, i, o, "a player on an option that has none");
    if ((k == MTG_O_PLAYER || (attack && !o->obj2)) && (o->player < 0 || o->player >= np))
      return opt_bad(why, n, i, o, "no such player");
    if (k == MTG_O_PLAYER && strcmp(o->label, g->s->c.pl[o->player].name)) return opt_bad(why, n, i, o, "not the player's name");
    int about_object = k == MTG_O_PLAY || k == MTG_O_CAST || k == MTG_O_ACTIVATE || attack || block ||
                       k == MTG_O_OBJECT || k == MTG_O_TRIGGER || k == MTG_O_EFFECT;
    int objectless = k == MTG_O_PASS || k == MTG_O_YES || k == MTG_O_NO || k == MTG_O_PLAYER || k == MTG_O_MODE ||
                     k == MTG_O_COLOR || k == MTG_O_NAME;
    if (about_object && !o->obj) return opt_bad(why, n, i, o, "no object");
    if (objectless && o->obj) return opt_bad(why, n, i, o, "an object on an option that has none");
    switch (k) {
    case MTG_O_PASS:
    case MTG_O_YES:
    case MTG_O_NO:
    case MTG_O_PLAY:
    case MTG_O_PLAYER:
    case MTG_O_ATTACK:
    case MTG_O_BLOCK:
      if (o->index != -1) return opt_bad(why, n, i, o, "an index on an option that has none");
      break;
    case MTG_O_CAST: /* index 1: cast face down for {3} (702.37c) */
      if (o->index != -1 && o->index != 1) return opt_bad(why, n, i, o, "a cast option's index is -1 or 1");
      if ((o->index == 1) != (strstr(o->label, " face_down=1") != NULL)) return opt_bad(why, n, i, o, "face down or not");
      break;
    case MTG_O_ACTIVATE: { /* -1: a special action, turning a face-down permanent face up (116.2b), suspending (116.2f)
                            * or foretelling (116.2h) */
      char want[32];
      int special = !strncmp(o->label, "turn_face_up ", 13) || !strncmp(o->label, "foretell ", 9) || !strncmp(o->label, "suspend ", 8);
      if (special ? o->index != -1 : o->index < 0 || !strstr(o->label, with_number(want, "/", o->index)))
        return opt_bad(why, n, i, o, "the ability index and the label disagree");
      break;
    }
    case MTG_O_COLOR:
      if (o->index < 0 || o->index > 4 || strcmp(o->label, color_names[o->index]))
        return opt_bad(why, n, i, o, "not one of the five colors by name");
      break;
    case MTG_O_MODE: {
      char want[32];
      if (o->index < 0) return opt_bad(why, n, i, o, "the mode and the label disagree");
      with_number(want, "mode ", o->index + 1);
      if (strncmp(o->label, want, strlen(want))) return opt_bad(why, n, i, o, "the mode and the label disagree");
      break;
    }
    default: /* name, word, trigger, effect, object: an index or none */
      if (o->index < -1 || (o->index == -1 && (k == MTG_O_NAME || k == MTG_O_WORD || k == MTG_O_TRIGGER || k == MTG_O_EFFECT)))
        return opt_bad(why, n, i, o, "a bad index");
      /* an object's index numbers the candidates of an ordered choice */
      if (k == MTG_O_OBJECT && o->index != -1 && o->index != i)
        return opt_bad(why, n, i, o, "an object option's index is -1 or its place among the options");
      break;
    }
  }
  return 0;
}

/* The first field in which two computations of an object's characteristics
 * differ, or NULL. */
static const char *chars_differ(const Chars *a, const Chars *b) {
  if (a->base != b->base) return "copiable values (base)";
  if ((a->name == NULL) != (b->name == NULL) || (a->name && strcmp(a->name, b->name))) return "name";
  if (a->types != b->types) return "types";
  if (a->supers != b->supers) return "supertypes";
  if (a->colors != b->colors) return "colors";
  if (a->has_pt != b->has_pt) return "has_pt";
  if (a->lost_all != b->lost_all) return "lost_all";
  if (a->all_creature_types != b->all_creature_types) return "all_creature_types";
  if (a->nsub != b->nsub) return "number of subtypes";
  for (int k = 0; k < a->nsub; k++)
    if (strcmp(a->sub[k], b->sub[k])) return "subtypes";
  if (a->power != b->power) return "power";
  if (a->toughness != b->toughness) return "toughness";
  if (a->kw != b->kw) return "keywords";
  if (a->controller != b->controller) return "controller";
  if (a->nab != b->nab) return "number of abilities";
  for (int k = 0; k < a->nab; k++)
    if (a->ab[k].ab != b->ab[k].ab || a->ab[k].def != b->ab[k].def || a->ab[k].grant != b->ab[k].grant) return "abilities";
  return NULL;
}

static const char *bf_sum_differ(const BfSum *a, const BfSum *b) {
  if (a->types != b->types) return "types";
  if (a->supers != b->supers) return "supertypes";
  if (a->kw != b->kw) return "keywords";
  if (a->statics[0] != b->statics[0] || a->statics[1] != b->statics[1]) return "static ability kinds";
  if (a->repl_events != b->repl_events) return "replacement events";
  return NULL;
}

/* The derived data the engine keeps for speed equals a computation from
 * scratch: every object's characteristics as the cache would answer now
 * (its incremental paths: copiable values kept per slot, only the written
 * objects redone on a plain board, cards in hands and libraries computed
 * when asked for or kept), the battlefield's summary and the set of objects
 * it was made of, the counts of flash permissions and ability grants a plain
 * recomputation relies on, and the trigger listener index where it is taken as
 * valid. A fault in invalidating one is a wrong answer some later question
 * may get. The cache is saved first and put back after, bit for bit: the
 * game goes on as it would without the check (a check that rebuilt the
 * cache would also hide every fault of its incremental paths). */
static int cache_check(mtg_game *g, char *why, size_t n) {
  State *s = g->s;
  int ns = s->c.nslots, rc = 0;
  int li_valid = trig_index_valid(g), act_valid = act_index_valid(g);
  ChSave *saved = chars_save(g);
  Chars *cached = malloc((size_t)ns * sizeof *cached + 1);
  uint8_t *asked = malloc((size_t)ns + 1);
  if (!saved || !cached || !asked) {
    if (saved) chars_restore(g, saved);
    free(cached);
    free(asked);
    return bad(why, n, "out of memory in the checker");
  }
  /* as the cache answers: a card computed when asked for is asked for
   * (the object looked at as it would enter, 614.12, answers apart) */
  for (int i = 0; i < ns; i++) {
    asked[i] = s->obj[i].id && i != g->hyp_slot;
    if (asked[i]) chars(g, i);
  }
  memcpy(cached, g->ch, (size_t)ns * sizeof *cached);
  BfSum sum = *bf_sum(g);
  int flash_perms = g->flash_perms, grants = g->grants;
  uint64_t in_sum[(MAX_SLOTS + 63) / 64];
  memcpy(in_sum, g->ch_bf, sizeof in_sum);
  /* from scratch */
  chars_forget(g);
  for (int i = 0; i < ns && !rc; i++) {
    if (!asked[i]) continue;
    chars(g, i);
    const char *f = chars_differ(&cached[i], &g->ch[i]);
    if (f) rc = bad(why, n, "cached characteristics of #%u (slot %d) are stale: %s", (unsigned)s->obj[i].id, i, f);
  }
  const char *f = rc ? NULL : bf_sum_differ(&sum, bf_sum(g));
  if (f) rc = bad(why, n, "the cached summary of the battlefield is stale: %s", f);
  for (int i = 0; i < ns && !rc; i++) {
    int was = (int)(in_sum[i >> 6] >> (i & 63) & 1), is = (int)(g->ch_bf[i >> 6] >> (i & 63) & 1);
    if (was != is)
      rc = bad(why, n, "the cached summary of the battlefield %s #%u (slot %d)", was ? "counts" : "misses", (unsigned)s->obj[i].id, i);
  }
  /* what the last whole recomputation counted, which a plain one relies on */
  if (!rc && flash_perms != g->flash_perms)
    rc = bad(why, n, "the cached count of \"as though it had flash\" abilities is stale: %d, a recomputation finds %d", flash_perms, g->flash_perms);
  if (!rc && grants != g->grants)
    rc = bad(why, n, "the cached count of ability-granting effects is stale: %d, a recomputation finds %d", grants, g->grants);
  if (!rc && li_valid) rc = trig_index_check(g, why, n);
  if (!rc && act_valid) rc = act_index_check(g, why, n);
  chars_restore(g, saved);
  free(cached);
  free(asked);
  return rc;
}

int mtg_game_check(mtg_game *g, char *why, size_t n) {
  if (!why) n = 0;
  if (!g) return bad(why, n, "the game is NULL");
  State *s = g->s;
  Core *c = &s->c;
  static const int zones[] = {MTG_Z_LIBRARY, MTG_Z_HAND, MTG_Z_GRAVEYARD};
  unsigned char seen[MAX_SLOTS];
  memset(seen, 0, sizeof seen);
  for (int z = 0; z < NZL; z++) {
    int zone = z < 12 ? zones[z % 3] : z == 12 ? MTG_Z_BATTLEFIELD : z == 13 ? MTG_Z_EXILE : z == 14 ? MTG_Z_COMMAND : MTG_Z_ANTE;
    int owner = z < 12 ? z / 3 : -1;
    for (int i = 0; i < c->zn[z]; i++) {
      int slot = s->zl[z][i];
      if (slot < 0 || slot >= c->nslots) return bad(why, n, "zone list %d holds slot %d out of range", z, slot);
      const Obj *o = &s->obj[slot];
      if (!o->id) return bad(why, n, "zone %s holds a free slot %d", mtg_zone_name(zone), slot);
      if (seen[slot]++) return bad(why, n, "object #%u is in two zone lists", (unsigned)o->id);
      if (o->zone != zone) return bad(why, n, "object #%u is listed in %s but says %s", (unsigned)o->id, mtg_zone_name(zone), mtg_zone_name(o->zone));
      if (owner >= 0 && o->owner != owner) return bad(why, n, "object #%u is in another player's %s", (unsigned)o->id, mtg_zone_name(zone));
    }
  }
  uint32_t ids[MAX_STACK];
  for (int i = 0; i < c->nstack; i++) {
    StackItem *si = &s->stack[i];
    for (int j = 0; j < i; j++)
      if (ids[j] == si->id) return bad(why, n, "stack id #%u twice", (unsigned)si->id);
    ids[i] = si->id;
    if (si->kind != SI_SPELL) continue;
    if (si->slot < 0 || si->slot >= c->nslots || s->obj[si->slot].zone != MTG_Z_STACK || s->obj[si->slot].id != si->id)
      return bad(why, n, "stack spell #%u does not match its object", (unsigned)si->id);
    /* in no zone list: those hold only objects whose zone is theirs, checked
     * above, and a second entry with this slot failed an id test before */
    seen[si->slot] = 1;
  }
  for (int i = 0; i < c->nslots; i++) {
    const Obj *o = &s->obj[i];
    if (!o->id) continue;
    if (o->zone == MTG_Z_COUNT) {
      if (o->kind == OK_CARD && c->pl[o->owner].left) continue; /* left the game with its owner */
      /* a token being created while a choice about its entering is pending */
      if (o->kind == OK_TOKEN && g->status == MTG_DECISION && !g->dec->top) continue;
      return bad(why, n, "object #%u is in no zone", (unsigned)o->id);
    }
    if (!seen[i]) return bad(why, n, "object #%u (%s) is in no zone list", (unsigned)o->id, mtg_zone_name(o->zone));
    if (o->damage < 0) return bad(why, n, "object #%u has negative damage", (unsigned)o->id);
    for (int k = 0; k < o->nc; k++)
      if (o->c[k].n <= 0) return bad(why, n, "object #%u has %d %s counters", (unsigned)o->id, o->c[k].n, ckind_name(g, o->c[k].kind));
    /* control_watch reads a definition's ctl_static rather than its abilities:
     * a definition made without def_abilities (cardload.c) would be missed */
    const CardDef *d = o->copy_of ? o->copy_of : o->def;
    int ctl = 0;
    for (int a = 0; d && a < d->nab; a++) ctl |= d->ab[a].kind == AB_STATIC && d->ab[a].st.kind == SE_CONTROL;
    if (d && d->ctl_static != ctl)
      return bad(why, n, "object #%u: its definition says %s static control-changing ability, its abilities %s", (unsigned)o->id,
                 d->ctl_static ? "a" : "no", ctl ? "one" : "none");
  }
  for (int p = 0; p < c->np; p++)
    for (int k = 0; k < c->pl[p].nc; k++)
      if (c->pl[p].c[k].n <= 0) return bad(why, n, "player %s has %d %s counters", c->pl[p].name, c->pl[p].c[k].n, ckind_name(g, c->pl[p].c[k].kind));
  if (g->status == MTG_DECISION) {
    const mtg_decision *d = &g->dec->pub;
    if (d->n_options == 0 && d->kind != MTG_D_X && d->kind != MTG_D_NUMBER && d->min > 0)
      return bad(why, n, "decision %s has no options", d->kind_name);
    if (mtg_decision_check(g, why, n)) return -1;
    if (d->kind == MTG_D_PRIORITY) {
      /* after state-based actions: nothing orphaned, no lethal damage left */
      int nb = bf_count(g);
      int16_t *bf = bf_list(g);
      for (int k = 0; k < nb; k++) {
        const Obj *o = &s->obj[bf[k]];
        /* a phased-out permanent is treated as though it doesn't exist: state-based
         * actions see it once it phases in (702.26b, 702.26i) */
        if (o->phased_out) continue;
        if (o->attached.id && !oref_ok(g, o->attached) && !has_subtype(chars(g, bf[k]), "Equipment"))
          return bad(why, n, "#%u is attached to an object that no longer exists", (unsigned)o->id);
        const Chars *ch = chars(g, bf[k]);
        if ((ch->types & T_CREATURE) && ch->toughness <= 0) return bad(why, n, "creature #%u has toughness %d at priority", (unsigned)o->id, ch->toughness);
      }
      if (c->npend) return bad(why, n, "%d triggered abilities wait at priority", c->npend);
    }
  } else if (g->status == MTG_OVER) {
    if (!c->over) return bad(why, n, "status is over but the game is not");
  }
  if (ct_check(g, why, n)) return -1; /* dungeons, protectors, sectors */
  if (var_check(g, why, n)) return -1; /* teams, the command zone, commanders */
  /* an object no write marked since the snapshot was taken (obj_w) is as the
   * snapshot has it: the snapshot and its restore copy only marked slots */
  int same = c->nslots < g->snap->c.nslots ? c->nslots : g->snap->c.nslots;
  for (int i = 0; i < same; i++)
    if (!(g->odirty[i >> 6] >> (i & 63) & 1) && memcmp(&s->obj[i], &g->snap->obj[i], sizeof(Obj)))
      return bad(why, n, "object #%u (slot %d) was written without obj_w: it differs from the snapshot", (unsigned)s->obj[i].id, i);
  if (cache_check(g, why, n)) return -1;
  /* every line logged since the last check is in the vocabulary (docs/events.md),
   * and marked a decision exactly when it is a decide line (replays count them) */
  for (; g->vocab_seen < g->nent; g->vocab_seen++) {
    const char *line = g->text + g->ent[g->vocab_seen].off;
    if (vocab_check_line(line, why, n)) return -1;
    if (!g->ent[g->vocab_seen].decision != !!strncmp(line, "decide ", 7))
      return bad(why, n, "log line %d is %smarked a decision: %s", g->vocab_seen + 1, g->ent[g->vocab_seen].decision ? "" : "not ", line);
  }
  return 0;
}
