/* escape: text that came from input, made safe to print on a terminal. A
 * title, a card name or a replay line may hold any byte; written raw, control
 * characters could move the cursor, retitle the window or hide what follows.
 * Every control character (C0, DEL, and C1 as UTF-8), and every byte that is
 * not part of valid UTF-8, is written as a visible escape: \n, \t, \r, \e, or
 * \xHH for a byte, \u00HH for a C1 character. Printable text, backslashes
 * included, is unchanged, so ordinary text prints exactly as before. Used by
 * every text output of the programs. */
#ifndef ESCAPE_H
#define ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/* Writes the escaped form of s[0..len) into out (NUL-terminated, cut to
 * size like snprintf); returns the length of the whole escaped form. */
size_t escape_mem(const char *s, size_t len, char *out, size_t size);
/* The same for a NUL-terminated string. */
size_t escape_text(const char *s, char *out, size_t size);
/* Writes s[0..len) escaped to f; with keep_newlines, '\n' is written as a
 * line break (multi-line text such as a report), every other control
 * character still escaped. */
void escape_fwrite(FILE *f, const char *s, size_t len, int keep_newlines);
/* The length of the valid UTF-8 sequence at s (1 to 4 bytes, at most left),
 * or 0 if there is none (overlong forms, surrogates and bytes past U+10FFFF
 * are not valid). */
size_t escape_utf8_len(const char *s, size_t left);
/* 1 if s[0..len) would be changed by escaping. */
int escape_needed(const char *s, size_t len);

#endif
