/* mtg_private.h - what libmtg offers the programs of this source tree (the
 * harness, the replay tools, the tests) beyond its public API, mtg.h: filling
 * an mtg_error, and loading card definitions from an already parsed YAML
 * tree (util/ydoc.h). Not installed: the public header shows no internal type. */
#ifndef MTG_PRIVATE_H
#define MTG_PRIVATE_H

#include "mtg.h"
#include "ydoc.h"

/* Fills e (status, message; no location). */
void mtg_error_set(mtg_error *e, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* A card definition (mapping) or list of them from an already parsed document. */
int mtg_pool_load_node(mtg_pool *p, const ydoc *doc, const ynode *node, mtg_error *err);

/* A pool without a parent whose keyword abilities (702: undying, storm, ...)
 * are those of like's root, shared rather than compiled again (compiling them
 * is most of what a new pool costs). like must outlive the pool. */
int mtg_pool_new_like(mtg_pool **out, const mtg_pool *like);

/* mtg_object_info(g, id, &o) == MTG_OK ? o.card : -1, without filling the rest
 * (characteristics, counters, ...): the setup entry a card or token came from. */
int mtg_object_card(const mtg_game *g, uint32_t id);

/* mtg_object_info(g, id, &o) == MTG_OK ? o.name : NULL, without the rest (the
 * type line, counters, ...): a script's object names are matched against
 * every option a decision offers. */
const char *mtg_object_name(const mtg_game *g, uint32_t id);

/* mtg_player_info(g, p, &pl) == MTG_OK ? pl.name : NULL, without the rest
 * (zone sizes, effects on the player): what a check asks at every decision. */
const char *mtg_player_name(const mtg_game *g, int p);

/* Cards loaded into p from now on, and into pools made on top of it, keep
 * no text (mtg_pool_card_text gives NULL): for a program that writes no
 * replay, as writing each definition back is a good part of loading it. */
void mtg_pool_skip_texts(mtg_pool *p);

/* Adds to p every definition of from (its own, not its parents') and the
 * token names they create, shared rather than copied: from must outlive p.
 * Both are to share their keyword abilities (mtg_pool_new_like), so that a
 * card holds the same ability as one an effect grants. A name p already has
 * (a card's, or a modal double-faced card's back face's) adds nothing and
 * returns MTG_EDATA; MTG_ENOMEM leaves p partly added to, to be freed. */
int mtg_pool_share(mtg_pool *p, const mtg_pool *from);

/* The same for one definition of from, the one whose (front) name is name,
 * without token names (which only a case's checks look up): MTG_EDATA when
 * from has no such card or p already has one of its names. */
int mtg_pool_share_card(mtg_pool *p, const mtg_pool *from, const char *name);

#endif
