/* vocab.c - the vocabulary of the event log: every type of line the engine
 * writes and the fields each may carry. docs/events.md lists the same (a unit
 * test compares the two), the harness checks the event patterns of cases
 * against it, and the invariant checker checks every line of the log. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* In the order of docs/events.md. `open`: the line also carries fields named
 * by the game (a linked choice's label, a note's key, the recipients of a
 * combat damage division). */
static const mtg_event_type types[] = {
    {"game_start", "players seed rules", 0},
    {"opening_hand", "player n rule", 0},
    {"turn", "n player", 0},
    {"step", "name player first_strike", 0},
    {"skip", "step player rule", 0},
    {"decide", "kind player choice value", 1},
    {"play_land", "player obj rule", 0},
    {"cast", "player obj from face_down kicked kickers how face bought spliced transformed targets rule", 0},
    {"turn_face_up", "obj rule", 0},
    {"foretell", "player obj rule", 0},
    {"suspend", "player obj rule", 0},
    {"phase", "obj out in indirectly rule", 0},
    {"activate", "player src ability id mana targets", 0},
    {"pay", "player mana", 0},
    {"add_mana", "player mana n src", 0},
    {"mana_empty", "player", 0},
    {"trigger", "src ability controller event rule", 0},
    {"stack_push", "id kind src ability controller", 0},
    {"stack_remove", "id rule", 0},
    {"resolve", "id obj", 0},
    {"counter", "obj id rule", 0},
    {"counter_failed", "obj id rule", 0},
    {"copy", "obj of controller rule", 0},
    {"change_target", "obj to", 0},
    {"becomes_target", "obj player by src ability controller", 0},
    {"zone", "obj new from to cause controller tapped attacking rule", 0},
    {"draw", "player card empty", 0},
    {"destroy", "obj by rule", 0},
    {"sacrifice", "obj by rule", 0},
    {"discard", "obj by rule", 0},
    {"mill", "obj by rule", 0},
    {"exile", "obj by rule", 0},
    {"damage", "src to amount combat deathtouch infect wither rule", 0},
    {"gain_life", "player amount life rule", 0},
    {"lose_life", "player amount life rule", 0},
    {"counters_put", "obj player kind n rule", 0},
    {"counters_removed", "obj player kind n rule", 0},
    {"tap", "obj rule", 0},
    {"untap", "obj rule", 0},
    {"attach", "obj to rule", 0},
    {"pair", "obj with rule", 0},
    {"unpair", "obj rule", 0},
    {"unattach", "obj rule", 0},
    {"create_token", "player name n", 0},
    {"cease_to_exist", "obj rule", 0},
    {"attacks", "obj player defender rule", 0},
    {"blocks", "obj src rule", 0},
    {"blocked", "obj rule", 0},
    {"unblocked", "obj rule", 0},
    {"exert", "obj player rule", 0},
    {"becomes", "obj designation n rule", 0},
    {"attackers", "none", 0},
    {"blockers", "player none", 0},
    {"remove_from_combat", "obj rule", 0},
    {"damage_removed", "rule", 0},
    {"sba", "rule obj player team players life poison commander owner damage toughness lore final n speed", 0},
    {"enters_with", "obj kind n rule", 0},
    {"protector", "obj player rule", 0},
    {"sector", "obj sector rule", 0},
    {"dungeon", "player obj rule", 0},
    {"venture", "player obj room name rule", 0},
    {"complete", "player obj rule", 0},
    {"scry", "player n top bottom rule", 0},
    {"surveil", "player n top graveyard rule", 0},
    {"look", "player of zone n rule", 0},
    {"library_order", "player n to rule", 0},
    {"put_on_top", "obj player rule", 0},
    {"clash", "player opponent winner bottom rule", 0},
    {"land_plays", "player n rule", 0},
    {"replace", "rule by event amount to tapped counters chosen life_floor sacrificed exiled paid copy controller face types infect", 0},
    {"prevent", "rule by event amount", 0},
    {"regenerate", "obj rule", 0},
    {"choose", "player obj x", 1},
    {"reveal", "obj player by rule", 0},
    {"shuffle", "player zone", 0},
    {"extra_turn", "player", 0},
    {"additional_phases", "phases after rule", 0},
    {"control", "obj player from", 0},
    {"transform", "obj face rule", 0},
    {"flip", "obj rule", 0},
    {"roll", "player sides result ignored rule", 0},
    {"paid", "player cost times", 0},
    {"note", "", 1},
    {"effect", "unsupported", 0},
    {"lose", "player rule", 0},
    {"win", "player rule", 0},
    {"leaves_game", "obj player rule", 0},
    {"set_in_motion", "player obj rule", 0},
    {"deck_bottom", "obj new deck rule", 0},
    {"planeswalk", "player to rule", 0},
    {"starting_plane", "player obj rule", 0},
    {"game_over", "result winner team reason turn rule", 0},
};

#define NTYPES ((int)(sizeof types / sizeof types[0]))

int mtg_event_types(const mtg_event_type **out) {
  if (out) *out = types;
  return NTYPES;
}

const mtg_event_type *mtg_event_type_find(const char *name, size_t len) {
  if (!name || !len) return NULL;
  /* the first letter first: most types fail it, without a strlen each */
  for (int i = 0; i < NTYPES; i++) {
    const char *t = types[i].name;
    if (t[0] == name[0] && strlen(t) == len && !strncmp(t, name, len)) return &types[i];
  }
  return NULL;
}

int mtg_event_has_field(const mtg_event_type *t, const char *key, size_t len) {
  if (!t || !key) return 0;
  for (const char *f = t->fields; *f;) {
    size_t k = strcspn(f, " ");
    if (k == len && !strncmp(f, key, len)) return 1;
    f += k;
    while (*f == ' ') f++;
  }
  return 0;
}

/* The next token of a line (words are split at spaces outside quotes); its
 * key (before a '=' outside quotes) and whether it has one. */
static const char *token(const char *p, const char **key_end, const char **end) {
  int inq = 0;
  *key_end = NULL;
  for (; *p && (inq || *p != ' '); p++) {
    if (*p == '"') inq = !inq;
    else if (*p == '=' && !inq && !*key_end) *key_end = p;
  }
  *end = p;
  return p;
}

int vocab_check_line(const char *line, char *why, size_t size) {
  size_t tl = strcspn(line, " ");
  const mtg_event_type *t = mtg_event_type_find(line, tl);
  if (!t) return snprintf(why, size, "a line of unknown type '%.*s': %s", (int)tl, line, line), -1;
  for (const char *p = line + tl; *p;) {
    while (*p == ' ') p++;
    const char *start = p, *key_end, *end;
    token(p, &key_end, &end);
    p = end;
    /* a word without '=' continues the value before it */
    if (!key_end || key_end == start) continue;
    size_t kl = (size_t)(key_end - start);
    if (!t->open && !mtg_event_has_field(t, start, kl))
      return snprintf(why, size, "a %s line with field '%.*s', which the vocabulary does not give it: %s", t->name, (int)kl,
                      start, line),
             -1;
  }
  return 0;
}
