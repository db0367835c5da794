#!/usr/bin/env python3
"""rulesindex: builds the rules index the conformance harness checks case rule numbers against.

Reads the Comprehensive Rules text (one rule or subrule per paragraph, '== NNN. title'
section headings) and the seed-numbering table of the rules README, and writes

  cases/rules.yaml         the index: every numbered rule and subrule of the sections below,
                           each with a short title, whether it is in a core section, and the
                           older (seed) numbers that now mean it; plus the effective date.
  harness/rules_index.c    the same index as a C table compiled into bin/harness, so the
                           harness never parses the index at run time.

usage:
  tools/rulesindex.py [--rules CR.txt] [--readme README.md] [--yaml OUT] [--c OUT]
  tools/rulesindex.py --c-from cases/rules.yaml --c OUT   (regenerate the C table only)

The defaults read ../shared/rules/ and write cases/rules.yaml and harness/rules_index.c.
`bin/harness --check-rules-index cases/rules.yaml` checks that the two outputs agree.
"""
import argparse
import re
import sys

# Sections indexed: the six core sections (603, 607, 614, 615, 616, 704) and the rules
# they lean on (game concepts, card types, zones, turn structure, spells and abilities,
# keyword actions and abilities, state-based actions, additional rules such as copies,
# face-down and double-faced objects, multiplayer and casual variants).
# Sections 721 to 732 appear twice in the rules text (two numberings of the same
# sections), so the 700s stop at 720.
RANGES = [(100, 123), (200, 213), (300, 315), (400, 408), (500, 514), (600, 616), (700, 720), (800, 811), (900, 905)]
CORE = {"603", "607", "614", "615", "616", "704"}
TITLE_MAX = 90

RULE_RE = re.compile(r"^(\d{3})\.(\d+)([a-z]?)\.?\s+(.*)$")
SECTION_RE = re.compile(r"^== (\d{3})\. (.*)$")
DATE_RE = re.compile(r"effective (?:as of )?([A-Z][a-z]+) (\d{1,2}), (\d{4})")
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]
ASCII = {"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2014": "-",
         "\u2013": "-", "\u2026": "...", "\u00ae": "", "\u2122": "", "\ufeff": ""}


def indexed(section):
    n = int(section)
    return any(lo <= n <= hi for lo, hi in RANGES)


def asciify(s):
    for k, v in ASCII.items():
        s = s.replace(k, v)
    return s


def short_title(text):
    """The first sentence, cut at a word boundary."""
    text = asciify(text).strip().replace(". . .", "...")
    m = re.search(r"(?<![A-Z.])[.:](\s|$)", text)
    first = text[: m.start() + 1].rstrip(":") if m else text
    if len(first) > TITLE_MAX:
        cut = first[:TITLE_MAX].rsplit(" ", 1)[0]
        first = cut.rstrip(",;") + "..."
    return first


def parse_rules(path):
    rules, effective = [], None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if effective is None:
                m = DATE_RE.search(line)
                if m:
                    effective = "%s-%02d-%02d" % (m.group(3), MONTHS.index(m.group(1)) + 1, int(m.group(2)))
            if line.startswith("Glossary"):
                break
            m = SECTION_RE.match(line)
            if m:
                if indexed(m.group(1)):
                    title = asciify(m.group(2)).strip()
                    rules.append((m.group(1), title[:1].upper() + title[1:]))
                continue
            m = RULE_RE.match(line)
            if m and indexed(m.group(1)):
                num = "%s.%s%s" % (m.group(1), m.group(2), m.group(3))
                rules.append((num, short_title(m.group(4))))
    if effective is None:
        sys.exit("rulesindex: no effective date found in %s" % path)
    seen = set()
    for num, _ in rules:
        if num in seen:
            sys.exit("rulesindex: rule %s appears twice" % num)
        seen.add(num)
    return rules, effective


def parse_aliases(path):
    """The seed-to-current table: {current: [seed, ...]} and [(seed, note)] of removed rules."""
    aliases, removed = {}, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) != 3 or not re.match(r"^\d{3}\.", cells[0]):
                continue
            seeds = [s.strip() for s in cells[0].split(",")]
            if cells[1].startswith("("):
                removed.extend((s, asciify(cells[2])) for s in seeds)
                continue
            cur = [c.strip() for c in cells[1].split(",")]
            if len(seeds) == len(cur):
                pairs = zip(seeds, cur)
            elif len(seeds) == 1:
                pairs = [(seeds[0], c) for c in cur]
            else:
                sys.exit("rulesindex: cannot pair %s with %s" % (cells[0], cells[1]))
            for s, c in pairs:
                aliases.setdefault(c, []).append(s)
    return aliases, removed


def yq(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_yaml(out, rules, effective, aliases, removed):
    known = {n for n, _ in rules}
    for cur in aliases:
        if cur not in known:
            sys.exit("rulesindex: alias target %s is not in the index" % cur)
    with open(out, "w", encoding="utf-8") as f:
        f.write("# Rules index for the conformance cases. Generated by tools/rulesindex.py from the\n")
        f.write("# Comprehensive Rules text and the seed-numbering table; do not edit by hand.\n")
        f.write("# core: in one of the six core sections. aliases: older (seed) numbers of the rule.\n")
        f.write("effective: %s\n" % yq(effective))
        f.write("sections: [%s]\n" % ", ".join('"%d-%d"' % r for r in RANGES))
        f.write("core: [%s]\n" % ", ".join(yq(c) for c in sorted(CORE)))
        f.write("removed:\n")
        for s, note in removed:
            f.write("  - {alias: %s, note: %s}\n" % (yq(s), yq(note)))
        f.write("rules:\n")
        for num, title in rules:
            extra = ""
            if num.split(".")[0] in CORE:
                extra += ", core: true"
            if num in aliases:
                extra += ", aliases: [%s]" % ", ".join(yq(a) for a in aliases[num])
            f.write("  - {rule: %s, title: %s%s}\n" % (yq(num), yq(title), extra))


def read_yaml(path):
    """Reads back the file write_yaml writes (its own fixed layout; no YAML library needed)."""
    rules, removed, effective = [], [], None
    item = re.compile(r'^  - \{rule: "([^"]*)", title: "((?:[^"\\]|\\.)*)"(, core: true)?(?:, aliases: \[([^\]]*)\])?\}$')
    rem = re.compile(r'^  - \{alias: "([^"]*)", note: "((?:[^"\\]|\\.)*)"\}$')
    unq = lambda s: re.sub(r"\\(.)", r"\1", s)
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("effective:"):
                effective = line.split('"')[1]
            m = item.match(line)
            if m:
                al = [a.strip().strip('"') for a in m.group(4).split(",")] if m.group(4) else []
                rules.append((m.group(1), unq(m.group(2)), bool(m.group(3)), al))
                continue
            m = rem.match(line)
            if m:
                removed.append((m.group(1), unq(m.group(2))))
    return rules, effective, removed


def cq(s):
    out = []
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20:
            out.append("\\%03o" % ord(ch))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def natural_key(num):
    parts = re.match(r"^(\d+)(?:\.(\d+)([a-z]?))?$", num)
    return (int(parts.group(1)), int(parts.group(2) or -1), parts.group(3) or "")


def write_c(out, rules, effective, removed):
    """rules: [(num, title, core, aliases)] in document order."""
    order = sorted(range(len(rules)), key=lambda i: rules[i][0])
    with open(out, "w", encoding="utf-8") as f:
        f.write("/* rules_index.c - the rules index (cases/rules.yaml) as a table compiled into the\n")
        f.write(" * harness. Generated by tools/rulesindex.py; do not edit. */\n")
        f.write('#include "rules.h"\n\n')
        f.write("const char rules_effective[] = %s;\n\n" % cq(effective))
        f.write("const rule_entry rules_table[] = {\n")
        for num, title, core, al in rules:
            f.write("  {%s, %s, %s, %d},\n" % (cq(num), cq(title), cq(",".join(al)), 1 if core else 0))
        f.write("};\n")
        f.write("const int rules_count = %d;\n\n" % len(rules))
        f.write("/* indexes into rules_table in strcmp order of the numbers, for binary search */\n")
        f.write("const unsigned short rules_sorted[] = {\n")
        for k in range(0, len(order), 16):
            f.write("  " + ", ".join(str(i) for i in order[k:k + 16]) + ",\n")
        f.write("};\n\n")
        f.write("const rule_removed rules_removed[] = {\n")
        for s, note in removed:
            f.write("  {%s, %s},\n" % (cq(s), cq(note)))
        if not removed:
            f.write("  {0, 0},\n")
        f.write("};\n")
        f.write("const int rules_removed_count = %d;\n" % len(removed))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rules", default="../shared/rules/comprehensive-rules.txt")
    ap.add_argument("--readme", default="../shared/rules/README.md")
    ap.add_argument("--yaml", default="cases/rules.yaml")
    ap.add_argument("--c", default="harness/rules_index.c")
    ap.add_argument("--c-from", help="regenerate the C table from an existing rules.yaml")
    a = ap.parse_args()
    if a.c_from:
        rules, effective, removed = read_yaml(a.c_from)
        if not rules or not effective:
            sys.exit("rulesindex: %s has no rules or no effective date" % a.c_from)
        write_c(a.c, rules, effective, removed)
        return
    rules, effective = parse_rules(a.rules)
    aliases, removed = parse_aliases(a.readme)
    write_yaml(a.yaml, rules, effective, aliases, removed)
    rules4, effective, removed = read_yaml(a.yaml)
    if len(rules4) != len(rules):
        sys.exit("rulesindex: wrote %d rules but read back %d" % (len(rules), len(rules4)))
    write_c(a.c, rules4, effective, removed)
    core = sum(1 for r in rules4 if r[2])
    print("rulesindex: %d rules (%d in core sections), effective %s, %d aliased, %d removed"
          % (len(rules4), core, effective, sum(len(v) for v in aliases.values()), len(removed)))


if __name__ == "__main__":
    main()
