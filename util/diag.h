/* diag: helpers for filling mtg_error (diag.c), beside mtg_error_set of mtg.h. */
#ifndef DIAG_H
#define DIAG_H

#include "mtg.h"

/* Misuse of the API: fills err (if not NULL) with MTG_EARG and the message,
 * and returns MTG_EARG. */
int diag_arg(mtg_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
