/* yemit: writes a YAML tree (ydoc.h) back as text in one canonical block
 * layout. The same tree always gives the same bytes, whatever layout it was
 * read from (flow or block style, comments, anchors, line lengths), and the
 * text parses back to the same tree: the same kinds, the same scalar values,
 * the same plain-or-quoted style (which the loaders look at). Replays carry
 * card definitions written this way (docs/replay-format.md). */
#ifndef YEMIT_H
#define YEMIT_H

#include <stddef.h>

#include "ydoc.h"

/* The node as the single item of a block sequence ("- ..."), each line
 * ending in '\n'. Returns a malloc'd NUL-terminated text and its length, or
 * NULL when out of memory. */
char *yemit_item(const ynode *n, size_t *len);

#endif
