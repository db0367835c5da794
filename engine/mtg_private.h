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

#endif
