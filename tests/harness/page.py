#!/usr/bin/env python3
"""tests/harness/page.py - the conformance report page in a real browser.

Writes `bin/harness --format html cases` to a file, has headless Chromium
render it (--dump-dom: the DOM after the page's script ran), and checks the
rendered page against `bin/harness --coverage --format json cases`:
  - the script ran (body data-ready), with no network, no external script,
    style sheet or font;
  - the summary by section has one row per section of the index, the core
    sections (603, 607, 614, 615, 616, 704) first;
  - each row's rules, passed, failed, todo, covered and no-case counts are
    those of the JSON coverage summed over the section;
  - every rule of the index is in the tree with its status, and every case
    listing a rule is a link to its detail.
With `--screenshot FILE` it also writes a PNG of the page (the README's).

usage: python3 tests/harness/page.py HARNESS [--screenshot FILE]
Last line "N passed, N failed[, N skipped]"; skipped without Chromium.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from html.parser import HTMLParser

CORE = ["603", "607", "614", "615", "616", "704"]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Tally  # noqa: E402

T = Tally()
check, skip = T.check, T.skip



def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


def browser_args(profile):
    # what the README's screenshot uses too: no sandbox (runs as root in CI),
    # no GPU, nothing fetched, a fresh profile
    return ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--user-data-dir=" + profile]


class Dom(HTMLParser):
    """The parts of the rendered page the checks read."""

    def __init__(self):
        super().__init__()
        self.ready = False
        self.rows = []       # summary rows: {section, cells: {class: text}}
        self.rules = {}      # data-rule -> attributes
        self.links = 0       # case links in the tree
        self.external = []   # anything fetched from elsewhere
        self._row = None
        self._cell = None
        self.panel = None     # the detail panel's case and text
        self.visible = []     # rules the filter left visible
        self._in_panel = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body" and a.get("data-ready") == "1":
            self.ready = True
        if tag == "script" and a.get("src"):
            self.external.append("script " + a["src"])
        if tag == "link":
            self.external.append("link " + a.get("href", ""))
        if tag in ("img", "iframe") and re.match(r"https?:", a.get("src", "")):
            self.external.append(tag + " " + a["src"])
        if tag == "tr" and a.get("data-section"):
            self._row = {"section": a["data-section"], "cells": {}}
            self.rows.append(self._row)
        if tag in ("td", "th") and self._row is not None:
            self._cell = a.get("class", "")
            self._row["cells"][self._cell] = ""
        if a.get("data-rule") and "data-status" in a:
            self.rules[a["data-rule"]] = a
            if tag == "div" and "hidden" not in (a.get("class") or "").split():
                self.visible.append(a["data-rule"])
        if tag == "div" and a.get("id") == "detail":
            self.panel = {"case": a.get("data-case"), "text": ""}
            self._in_panel = 1
        elif self._in_panel and tag == "div":
            self._in_panel += 1
        if tag == "a" and "case" in (a.get("class") or "").split() and a.get("data-case"):
            self.links += 1

    def handle_endtag(self, tag):
        if self._in_panel and tag == "div":
            self._in_panel -= 1
        if tag in ("td", "th"):
            self._cell = None
        if tag == "tr":
            self._row = None

    def handle_data(self, data):
        if self._in_panel:
            self.panel["text"] += data
        if self._row is not None and self._cell is not None:
            self._row["cells"][self._cell] += data


def main(harness, shot):
    tmp = tempfile.mkdtemp()
    try:
        page = os.path.join(tmp, "report.html")
        with open(page, "w") as f:
            p = subprocess.run([harness, "--format", "html", "cases"], stdout=f, stderr=subprocess.PIPE, text=True)
        check(p.returncode in (0, 1), "--format html writes the page", "exit %d: %s" % (p.returncode, p.stderr[-300:]))
        text = open(page, encoding="utf-8").read()
        check(not re.search(r"""(src|href)=["']?(https?:)?//""", text) and "@import" not in text and "url(" not in text,
              "the page is self-contained (no external script, style sheet, font or image)")
        cov = json.loads(subprocess.run([harness, "--coverage", "--format", "json", "cases"], capture_output=True,
                                        text=True).stdout)
        chrome = chromium()
        if not chrome:
            skip("no Chromium: the page is not rendered (mk/deps.sh test installs Debian's chromium)")
            return
        profile = os.path.join(tmp, "profile")
        r = subprocess.run([chrome, *browser_args(profile), "--dump-dom", "file://" + page], capture_output=True,
                           text=True, timeout=300)
        dom = Dom()
        dom.feed(r.stdout)
        check(dom.ready, "headless Chromium renders the page and its script runs",
              "exit %d: %s" % (r.returncode, r.stderr[-400:]))
        check(not dom.external, "the rendered page fetches nothing", ", ".join(dom.external[:5]))

        # the counts per section, from the JSON coverage
        want = {}
        for e in cov:
            sec = e["rule"].split(".")[0]
            w = want.setdefault(sec, {"rules": 0, "passed": 0, "failed": 0, "todo": 0, "covered": 0, "none": 0})
            w["rules"] += 1
            w["passed"] += e["passed"]
            w["failed"] += e["failed"]
            w["todo"] += e["todo"]
            w["covered"] += e["passed"] > 0
            w["none"] += not (e["passed"] or e["failed"] or e["todo"])
        order = [row["section"] for row in dom.rows]
        check(sorted(order) == sorted(want), "a summary row per section of the index (%d)" % len(want),
              "rows %d, sections %d" % (len(order), len(want)))
        core = [s for s in CORE if s in want]
        check(order[:len(core)] == core, "the core sections first: " + ", ".join(core), ", ".join(order[:8]))
        bad = []
        for row in dom.rows:
            w = want.get(row["section"])
            if not w:
                continue
            got = {k: int(row["cells"].get(k, "-1") or -1) for k in w}
            if got != w:
                bad.append("%s: page %s, coverage %s" % (row["section"], got, w))
        check(not bad, "each section's counts equal the JSON coverage's", "; ".join(bad[:3]))
        missing = [e["rule"] for e in cov if e["rule"] not in dom.rules]
        check(not missing, "every rule of the index is in the tree (%d)" % len(cov), ", ".join(missing[:5]))
        wrong = []
        for e in cov:
            a = dom.rules.get(e["rule"])
            st = "fail" if e["failed"] else "pass" if e["passed"] else "todo" if e["todo"] else "none"
            if a and a.get("data-status") != st:
                wrong.append("%s: %s, want %s" % (e["rule"], a.get("data-status"), st))
        check(not wrong, "each rule coloured by its cases' status", "; ".join(wrong[:3]))
        listings = sum(e["passed"] + e["failed"] + e["todo"] for e in cov)
        check(dom.links == listings, "every case listing a rule links to its detail (%d links)" % listings,
              "%d links" % dom.links)

        # a link to a case opens its detail; ?filter= narrows the tree
        rc_ = subprocess.run([harness, "--format", "json", "--rule", "704.5g", "cases"], capture_output=True, text=True)
        first = json.loads(rc_.stdout.splitlines()[0])["id"]
        r = subprocess.run([chrome, *browser_args(profile), "--dump-dom",
                            "file://" + page + "?filter=704.5g#c-" + first], capture_output=True, text=True, timeout=300)
        d2 = Dom()
        d2.feed(r.stdout)
        check(d2.panel and d2.panel["case"] == first and first in d2.panel["text"], "#c-ID shows that case in the panel",
              str(d2.panel)[:200])
        check(d2.visible and all("704.5g" in v or "704.5g".startswith(v) for v in d2.visible),
              "?filter=704.5g leaves only 704.5g and the rules above it visible", ", ".join(d2.visible[:8]))
        # a failure's explanation in the panel
        bad_page = os.path.join(tmp, "bad.html")
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "script.yaml")
        with open(bad_page, "w") as f:
            subprocess.run([harness, "--format", "html", script], stdout=f, stderr=subprocess.DEVNULL)
        r = subprocess.run([chrome, *browser_args(profile), "--dump-dom", "file://" + bad_page + "#c-script-error"],
                           capture_output=True, text=True, timeout=300)
        d3 = Dom()
        d3.feed(r.stdout)
        txt = d3.panel["text"] if d3.panel else ""
        check("not among alice's priority options" in txt and "script.yaml:15" in txt and "601.2h" in txt,
              "a failing case's panel: its rules, file:line and explanation", txt[:300])
        st = {k: v.get("data-status") for k, v in d3.rules.items() if k in ("601.2h", "120.3a")}
        check(st == {"601.2h": "fail", "120.3a": "fail"}, "rules of failing cases are coloured failing", str(st))

        if shot:
            r = subprocess.run([chrome, *browser_args(profile), "--hide-scrollbars", "--window-size=1100,760",
                                "--screenshot=" + os.path.abspath(shot), "file://" + page], capture_output=True,
                               text=True, timeout=300)
            check(r.returncode == 0 and os.path.exists(shot), "screenshot written to " + shot, r.stderr[-300:])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    args = sys.argv[1:]
    shot = None
    if "--screenshot" in args:
        i = args.index("--screenshot")
        shot = args[i + 1]
        del args[i:i + 2]
    main(os.path.abspath(args[0] if args else "bin/harness"), shot)
    sys.exit(T.finish())
