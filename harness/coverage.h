/* coverage: for each rule of the index (or of the --rule selection), how many
 * passing, failing and todo cases list exactly that rule number. */
#ifndef HARNESS_COVERAGE_H
#define HARNESS_COVERAGE_H

#include "buf.h"
#include "report.h"

/* sel: the --rule selections (current numbers), or nsel 0 for the whole index. */
void coverage_write(buf *out, int json, const char *const *sel, int nsel, const hrun_item *it, int n);

#endif
