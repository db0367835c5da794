/* html: the conformance report page (--format html) and its Markdown
 * summary (--format markdown). The page is one self-contained file: the
 * rules index as a tree (chapter, section, rule, subrule), each rule
 * coloured by the status of the cases listing it, the case ids linked to a
 * detail panel, a summary by section (the core sections first) that its
 * script counts from the tree, and a filter box. No network, no external
 * scripts or fonts. The counts are those of --coverage: the cases that list
 * exactly that rule number. */
#include "html.h"

#include <stdlib.h>
#include <string.h>

#include "rules.h"

/* The chapters of the Comprehensive Rules, by first digit of a section. */
static const char *const chapters[10] = {NULL,
                                         "Game Concepts",
                                         "Parts of a Card",
                                         "Card Types",
                                         "Zones",
                                         "Turn Structure",
                                         "Spells, Abilities, and Effects",
                                         "Additional Rules",
                                         "Multiplayer Rules",
                                         "Casual Variants"};

/* The core sections, summarised first. */
static const char *const core[] = {"603", "607", "614", "615", "616", "704"};
#define NCORE 6

typedef struct rule_cases {
  int passed, failed, todo;
  int *items; /* indexes of the items listing exactly this rule */
  int n, cap;
} rule_cases;

/* Per rule of the index: its cases, counted as --coverage counts them. */
static rule_cases *tally(const hrun_item *it, int n) {
  rule_cases *c = calloc((size_t)rules_count, sizeof *c);
  if (!c) return NULL;
  for (int i = 0; i < n; i++)
    for (int k = 0; it[i].r && k < it[i].hc->nrules; k++) {
      int r = rules_find(it[i].hc->rules[k]);
      if (r < 0) continue;
      rule_cases *rc = &c[r];
      switch (it[i].verdict) {
      case V_PASS: rc->passed++; break;
      case V_SKIP: rc->todo++; break;
      default: rc->failed++; break;
      }
      if (rc->n == rc->cap) {
        int cap = rc->cap ? 2 * rc->cap : 4;
        int *v = realloc(rc->items, (size_t)cap * sizeof *v);
        if (!v) continue;
        rc->items = v;
        rc->cap = cap;
      }
      rc->items[rc->n++] = i;
    }
  return c;
}

static void tally_free(rule_cases *c) {
  for (int r = 0; c && r < rules_count; r++) free(c[r].items);
  free(c);
}

static const char *status_of(const rule_cases *c) {
  return c->failed ? "fail" : c->passed ? "pass" : c->todo ? "todo" : "none";
}

static const char *verdict_class(int v) {
  static const char *const w[] = {"pass", "fail", "todo", "xfail", "xpass", "error"};
  return w[v];
}

/* Depth of a rule number: 0 section "603", 1 rule "603.1", 2 subrule "603.1a". */
static int depth(const char *num) {
  const char *dot = strchr(num, '.');
  if (!dot) return 0;
  size_t n = strlen(num);
  return num[n - 1] >= 'a' && num[n - 1] <= 'z' ? 2 : 1;
}

static void html_text(buf *out, const char *s) { buf_xml_text(out, s ? s : "", 0); }

static const char style[] =
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0;color:#1b1f24;background:#fff}"
    "header{padding:14px 20px;border-bottom:1px solid #d0d7de;background:#f6f8fa}"
    "h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:18px 0 8px}"
    "main{display:flex;gap:16px;padding:0 20px 20px}#left{flex:1 1 60%;min-width:0}"
    "#panel{flex:0 0 36%;position:sticky;top:0;align-self:flex-start;max-height:100vh;overflow:auto;"
    "border-left:1px solid #d0d7de;padding:0 0 0 16px}"
    "table{border-collapse:collapse;font-size:13px}th,td{padding:2px 8px;text-align:right;border-bottom:1px solid #eaeef2}"
    "th.l,td.l{text-align:left}thead th{background:#f6f8fa}"
    "#filter{width:100%;box-sizing:border-box;font-size:14px;padding:6px 8px;margin:8px 0;border:1px solid #d0d7de;"
    "border-radius:6px}"
    "details{margin:2px 0}details details{margin-left:14px}summary{cursor:pointer}"
    ".rule{margin:1px 0 1px 14px;padding:1px 4px;border-left:4px solid #d0d7de}"
    ".rule .rule{margin-left:18px}.num{font-family:ui-monospace,Menlo,Consolas,monospace;font-weight:600}"
    ".st-pass{border-color:#1a7f37}.st-fail{border-color:#cf222e;background:#fff5f5}"
    ".st-todo{border-color:#bf8700}.st-none{border-color:#d0d7de;color:#57606a}"
    "summary .num.st-pass,.dot.pass{color:#1a7f37}summary .num.st-fail,.dot.fail{color:#cf222e}"
    "summary .num.st-todo,.dot.todo{color:#9a6700}"
    "a.case{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;margin-left:6px;text-decoration:none;"
    "padding:0 4px;border-radius:4px}"
    "a.pass{background:#dafbe1;color:#116329}a.fail,a.error,a.xpass{background:#ffebe9;color:#a40e26}"
    "a.todo,a.xfail{background:#fff8c5;color:#7d4e00}"
    ".legend span{margin-right:12px}.sw{display:inline-block;width:10px;height:10px;margin-right:4px;"
    "border-radius:2px;vertical-align:middle}"
    "pre{white-space:pre-wrap;background:#f6f8fa;padding:8px;border-radius:6px;font-size:12px}"
    ".case-detail{display:none}#cases:target .case-detail,.case-detail:target{display:block}"
    ".hidden{display:none}.note{color:#57606a;font-size:12px}";

static const char script[] =
    "(function(){\n"
    "var core=['603','607','614','615','616','704'];\n"
    "function num(e,a){return parseInt(e.getAttribute(a)||'0',10);}\n"
    /* the summary by section, counted from the tree */
    "var secs=[].slice.call(document.querySelectorAll('details.section'));\n"
    "secs.sort(function(a,b){var x=core.indexOf(a.dataset.section),y=core.indexOf(b.dataset.section);\n"
    " if(x<0)x=99;if(y<0)y=99;return x-y||(a.dataset.section<b.dataset.section?-1:1);});\n"
    "var tb=document.getElementById('summary');\n"
    "secs.forEach(function(s){var rules=[s].concat([].slice.call(s.querySelectorAll('.rule')));\n"
    " var c={rules:0,passed:0,failed:0,todo:0,covered:0,none:0};\n"
    " rules.forEach(function(r){if(!r.hasAttribute('data-rule'))return;c.rules++;\n"
    "  c.passed+=num(r,'data-passed');c.failed+=num(r,'data-failed');c.todo+=num(r,'data-todo');\n"
    "  if(num(r,'data-passed')>0)c.covered++;if(r.getAttribute('data-status')==='none')c.none++;});\n"
    " var tr=document.createElement('tr');tr.setAttribute('data-section',s.dataset.section);\n"
    " var cells=[['l','<a href=\"#s-'+s.dataset.section+'\">'+s.dataset.section+'</a>'],['l',s.dataset.title]];\n"
    " ['rules','passed','failed','todo','covered','none'].forEach(function(k){cells.push([k,String(c[k])]);});\n"
    " cells.forEach(function(x,i){var td=document.createElement(i?'td':'th');td.className=x[0];\n"
    "  if(i===1)td.textContent=x[1];else td.innerHTML=x[1];tr.appendChild(td);});\n"
    " tb.appendChild(tr);});\n"
    "document.body.setAttribute('data-ready','1');\n"
    /* the detail panel */
    "var panel=document.getElementById('detail');\n"
    "function show(id){var d=document.getElementById('c-'+id);if(!d)return;\n"
    " panel.innerHTML=d.innerHTML;panel.setAttribute('data-case',id);}\n"
    "document.addEventListener('click',function(e){var a=e.target.closest?e.target.closest('a.case'):null;\n"
    " if(!a)return;e.preventDefault();show(a.getAttribute('data-case'));});\n"
    /* the filter */
    "var f=document.getElementById('filter');\n"
    "f.addEventListener('input',function(){var q=f.value.trim().toLowerCase();\n"
    " [].forEach.call(document.querySelectorAll('.rule'),function(r){\n"
    "  var hit=!q||r.textContent.toLowerCase().indexOf(q)>=0;r.classList.toggle('hidden',!hit);});\n"
    " [].forEach.call(document.querySelectorAll('details.section,details.chapter'),function(d){\n"
    "  var hit=!q||d.textContent.toLowerCase().indexOf(q)>=0;d.classList.toggle('hidden',!hit);if(q&&hit)d.open=true;});\n"
    "});\n"
    /* a link to #c-ID opens that case; ?filter=TEXT filters at once */
    "var m=/[?&]filter=([^&#]*)/.exec(location.search);\n"
    "if(m){f.value=decodeURIComponent(m[1]);f.dispatchEvent(new Event('input'));}\n"
    "if(location.hash.indexOf('#c-')===0)show(decodeURIComponent(location.hash.slice(3)));\n"
    "})();\n";

/* The colour of a section's number: the worst status among its rules. */
static const char *section_status(const rule_cases *c, int r) {
  int failed = 0, passed = 0, todo = 0;
  for (int k = r; k < rules_count && (k == r || depth(rules_table[k].num)); k++) {
    failed += c[k].failed;
    passed += c[k].passed;
    todo += c[k].todo;
  }
  return failed ? "fail" : passed ? "pass" : todo ? "todo" : "none";
}

/* The ids of the cases listing a rule, each a link to its detail. */
static void case_links(buf *out, const rule_cases *c, const hrun_item *it) {
  for (int k = 0; k < c->n; k++) {
    const hcase *hc = it[c->items[k]].hc;
    buf_printf(out, "<a class=\"case %s\" href=\"#c-", verdict_class(it[c->items[k]].verdict));
    html_text(out, hc->id);
    buf_puts(out, "\" data-case=\"");
    html_text(out, hc->id);
    buf_puts(out, "\">");
    html_text(out, hc->id);
    buf_puts(out, "</a>");
  }
}

/* One rule of the tree, with its case links; children are nested inside. */
static void rule_open(buf *out, const rule_entry *re, const rule_cases *c, const hrun_item *it) {
  buf_printf(out, "<div class=\"rule st-%s\" data-rule=\"%s\" data-status=\"%s\" data-passed=\"%d\" data-failed=\"%d\" "
                  "data-todo=\"%d\"><span class=\"num\">%s</span> ",
             status_of(c), re->num, status_of(c), c->passed, c->failed, c->todo, re->num);
  html_text(out, re->title);
  case_links(out, c, it);
  buf_puts(out, "\n");
}

static void tree(buf *out, const rule_cases *c, const hrun_item *it) {
  int chapter = -1, open_rules = 0; /* rule divs left open: 0, 1 (a rule) or 2 (a subrule inside it) */
  int in_section = 0;
  for (int r = 0; r < rules_count; r++) {
    const rule_entry *re = &rules_table[r];
    int d = depth(re->num), ch = re->num[0] - '0';
    while (open_rules > (d == 2 ? 1 : 0)) {
      buf_puts(out, "</div>");
      open_rules--;
    }
    if (d == 0) {
      if (in_section) buf_puts(out, "</details>\n");
      in_section = 0;
      if (ch != chapter) {
        if (chapter >= 0) buf_puts(out, "</details>\n");
        chapter = ch;
        buf_printf(out, "<details class=\"chapter\" open><summary><b>%d. %s</b></summary>\n", ch,
                   ch >= 1 && ch <= 9 ? chapters[ch] : "");
      }
      in_section = 1;
      buf_printf(out, "<details class=\"section\" id=\"s-%s\" data-section=\"%s\" data-title=\"", re->num, re->num);
      buf_xml(out, re->title);
      buf_printf(out, "\" data-rule=\"%s\" data-status=\"%s\" data-passed=\"%d\" data-failed=\"%d\" data-todo=\"%d\">"
                      "<summary><span class=\"num st-%s\">%s</span> ",
                 re->num, status_of(&c[r]), c[r].passed, c[r].failed, c[r].todo, section_status(c, r), re->num);
      html_text(out, re->title);
      case_links(out, &c[r], it);
      buf_puts(out, "</summary>\n");
      continue;
    }
    rule_open(out, re, &c[r], it);
    open_rules++;
  }
  while (open_rules-- > 0) buf_puts(out, "</div>");
  if (in_section) buf_puts(out, "</details>\n");
  if (chapter >= 0) buf_puts(out, "</details>\n");
}

/* The hidden detail of every case listing a rule of the index. */
static void case_details(buf *out, const hrun_item *it, int n) {
  buf_puts(out, "<div id=\"cases\"><h2>Cases</h2>\n");
  for (int i = 0; i < n; i++) {
    if (!it[i].r) continue;
    const hcase *hc = it[i].hc;
    buf_puts(out, "<section class=\"case-detail\" id=\"c-");
    html_text(out, hc->id);
    buf_printf(out, "\"><h3><span class=\"dot %s\">&#9679;</span> ", verdict_class(it[i].verdict));
    html_text(out, hc->id);
    buf_puts(out, "</h3>\n<p>");
    html_text(out, hc->title);
    buf_puts(out, "</p>\n<table>");
    buf_printf(out, "<tr><th class=\"l\">status</th><td class=\"l\">%s</td></tr>", verdict_class(it[i].verdict));
    buf_puts(out, "<tr><th class=\"l\">rules</th><td class=\"l\">");
    for (int k = 0; k < hc->nrules; k++) buf_printf(out, "%s%s", k ? ", " : "", hc->rules[k]);
    buf_puts(out, "</td></tr><tr><th class=\"l\">source</th><td class=\"l\">");
    html_text(out, hc->source);
    buf_printf(out, "</td></tr><tr><th class=\"l\">file</th><td class=\"l\">");
    html_text(out, hc->file->path);
    buf_printf(out, ":%d</td></tr>", report_item_line(&it[i]));
    if (it[i].verdict == V_SKIP || it[i].verdict == V_XFAIL) {
      buf_puts(out, "<tr><th class=\"l\">todo</th><td class=\"l\">");
      html_text(out, it[i].verdict == V_SKIP ? hc->reason : "known failure");
      buf_puts(out, "</td></tr>");
    }
    buf_puts(out, "</table>\n");
    if (it[i].verdict == V_FAIL || it[i].verdict == V_ERROR || it[i].verdict == V_XPASS) {
      buf d = {0};
      report_item_detail(&it[i], &d);
      buf_puts(out, "<pre>");
      html_text(out, buf_str(&d));
      buf_puts(out, "</pre>\n");
      buf_free(&d);
    }
    buf_puts(out, "</section>\n");
  }
  buf_puts(out, "</div>\n");
}

/* The tally of a run and the rules with a passing case; NULL (out of
 * memory noted in out) if it can't be made. */
static rule_cases *tally_covered(buf *out, const hrun_item *it, int n, int *covered) {
  rule_cases *c = tally(it, n);
  if (!c) {
    out->oom = 1;
    return NULL;
  }
  *covered = 0;
  for (int r = 0; r < rules_count; r++) *covered += c[r].passed > 0;
  return c;
}

void html_write(buf *out, const hrun_item *it, int n) {
  int covered;
  rule_cases *c = tally_covered(out, it, n, &covered);
  if (!c) return;
  hsummary s = report_summary(it, n);
  buf_puts(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
                "<title>arbiter conformance report</title>\n<style>");
  buf_puts(out, style);
  buf_puts(out, "</style></head>\n<body>\n<header><h1>arbiter conformance report</h1>\n");
  buf_printf(out, "<div id=\"totals\" data-passed=\"%d\" data-failed=\"%d\" data-skipped=\"%d\">%d cases: %d passed, "
                  "%d failed (%d errors), %d skipped. %d of %d rules of the index (effective %s) have a passing case "
                  "(%.1f%%).</div>\n",
             s.passed, s.failed, s.skipped, n, s.passed, s.failed, s.errors, s.skipped, covered, rules_count,
             rules_effective, rules_count ? 100.0 * covered / rules_count : 0.0);
  buf_puts(out, "<div class=\"legend\"><span><i class=\"sw\" style=\"background:#1a7f37\"></i>passing</span>"
                "<span><i class=\"sw\" style=\"background:#cf222e\"></i>failing</span>"
                "<span><i class=\"sw\" style=\"background:#bf8700\"></i>todo</span>"
                "<span><i class=\"sw\" style=\"background:#d0d7de\"></i>no case</span>"
                "A rule's colour is that of the cases listing exactly its number; click a case for its detail."
                "</div></header>\n<main><div id=\"left\">\n");
  buf_puts(out, "<h2>By section</h2>\n<table><thead><tr><th class=\"l\">section</th><th class=\"l\">title</th>"
                "<th>rules</th><th>cases passing</th><th>cases failing</th><th>cases todo</th><th>rules with a passing case</th>"
                "<th>rules with no case</th></tr></thead>\n<tbody id=\"summary\"></tbody></table>\n"
                "<p class=\"note\">A case counts once for each rule it lists. The table is counted from the tree below "
                "by the page's script.</p>\n");
  buf_puts(out, "<h2>Rules</h2>\n<input id=\"filter\" type=\"search\" placeholder=\"filter: a rule number, words of its "
                "title, a case id\" aria-label=\"filter the rules\">\n<div id=\"tree\">\n");
  tree(out, c, it);
  buf_puts(out, "</div>\n");
  case_details(out, it, n);
  buf_puts(out, "</div>\n<aside id=\"panel\"><h2>Case</h2><div id=\"detail\">Click a case id to see it here.</div></aside>"
                "</main>\n<script>");
  buf_puts(out, script);
  buf_puts(out, "</script>\n</body></html>\n");
  tally_free(c);
}

/* ---- Markdown (CI job summaries) ---- */

static void md_text(buf *out, const char *s) {
  for (; s && *s; s++) {
    if (strchr("|`*_<>[]\\", *s)) buf_put(out, "\\", 1);
    buf_put(out, *s == '\n' ? " " : s, 1);
  }
}

void markdown_write(buf *out, const hrun_item *it, int n) {
  int covered;
  rule_cases *c = tally_covered(out, it, n, &covered);
  if (!c) return;
  hsummary s = report_summary(it, n);
  buf_printf(out, "## arbiter conformance\n\n**%d passed, %d failed, %d skipped** (%d errors); %d of %d rules have a "
                  "passing case (%.1f%%).\n\n",
             s.passed, s.failed, s.skipped, s.errors, covered, rules_count,
             rules_count ? 100.0 * covered / rules_count : 0.0);
  buf_puts(out, "| section | title | rules | passed | failed | todo | rules covered |\n|---|---|--:|--:|--:|--:|--:|\n");
  /* the core sections first, then the rest in order */
  for (int pass = 0; pass < 2; pass++)
    for (int r = 0; r < rules_count; r++) {
      if (depth(rules_table[r].num)) continue;
      int is_core = 0;
      for (int k = 0; k < NCORE; k++) is_core |= !strcmp(core[k], rules_table[r].num);
      if (is_core != (pass == 0)) continue;
      int rules = 0, p = 0, f = 0, t = 0, cov = 0;
      for (int k = r; k < rules_count && (k == r || depth(rules_table[k].num)); k++) {
        rules++;
        p += c[k].passed;
        f += c[k].failed;
        t += c[k].todo;
        cov += c[k].passed > 0;
      }
      buf_printf(out, "| %s | ", rules_table[r].num);
      md_text(out, rules_table[r].title);
      buf_printf(out, " | %d | %d | %d | %d | %d |\n", rules, p, f, t, cov);
    }
  if (s.failed) {
    buf_puts(out, "\n### Did not pass\n\n");
    for (int i = 0; i < n; i++) {
      int v = it[i].verdict;
      if (v != V_FAIL && v != V_ERROR && v != V_XPASS) continue;
      char name[300];
      buf m = {0};
      report_item_name(&it[i], name, sizeof name);
      report_item_message(&it[i], &m);
      buf_printf(out, "- **%s** `", verdict_class(v));
      md_text(out, name);
      buf_printf(out, "` (%s:%d): ", report_item_file(&it[i]), report_item_line(&it[i]));
      md_text(out, buf_str(&m));
      buf_puts(out, "\n");
      buf_free(&m);
    }
  }
  tally_free(c);
}
