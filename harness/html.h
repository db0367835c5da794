/* html: the conformance report page (--format html), one self-contained
 * HTML file with the rules index as a tree coloured by the cases' status, and
 * its Markdown summary for CI job pages (--format markdown). */
#ifndef HARNESS_HTML_H
#define HARNESS_HTML_H

#include "buf.h"
#include "report.h"

void html_write(buf *out, const hrun_item *it, int n);
void markdown_write(buf *out, const hrun_item *it, int n);

#endif
