/* coverage: for each rule of the index (or of the --rule selection), how many
 * passing, failing and todo cases list exactly that rule number. */
#ifndef HARNESS_COVERAGE_H
#define HARNESS_COVERAGE_H

#include "buf.h"
#include "report.h"

/* sel: the --rule selections (current numbers), or nsel 0 for the whole index. */
void coverage_write(buf *out, int json, const char *const *sel, int nsel, const hrun_item *it, int n);

/* The same a part at a time, for a run that reports as it goes: the counts
 * (NULL if out of memory), items added to them, and the report of them. */
typedef struct coverage coverage;
coverage *coverage_new(void);
void coverage_add(coverage *cov, const hrun_item *it, int n);
void coverage_end(buf *out, int json, const char *const *sel, int nsel, const coverage *cov);
void coverage_free(coverage *cov);

#endif
