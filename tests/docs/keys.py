#!/usr/bin/env python3
"""tests/docs/keys.py - every name the card loader accepts is documented.

Reads engine/cardload.c for the names it accepts: the key lists of its
mappings (`static const char *const NAME[] = {"...", ...}`) and the effect
steps with their parameters (the step table, `{"name", S_..., {{"key", P_...`),
and checks that docs/cards.md names each one in code (between backticks, as a
whole word). A name the loader accepts that the reference never mentions is a
construct no writer can find; the fix is a line in docs/cards.md saying what
it does, with an example. Exit 0, or 1 listing what is missing.
"""
import re
import sys

SRC = "engine/cardload.c"
DOC = "docs/cards.md"


def loader_names(src):
    names = {}
    for m in re.finditer(r'static const char \*const (\w+)\[\]\s*=\s*\{(.*?)\};', src, re.S):
        for k in re.findall(r'"([a-z_0-9]+)"', m.group(2)):
            names.setdefault(k, m.group(1))
    for m in re.finditer(r'\{"(\w+)", S_\w+, \{(.*?)\}\},\s*\n', src, re.S):
        names.setdefault(m.group(1), "effect steps")
        for k in re.findall(r'\{"(\w+)", P_', m.group(2)):
            names.setdefault(k, "parameters of " + m.group(1))
    return names


def main():
    src = open(SRC, encoding="utf-8").read()
    doc = open(DOC, encoding="utf-8").read()
    # a code span may run over a line end, not over a blank line
    code = " ".join(re.findall(r'`((?:[^`\n]|\n(?!\n))+)`', doc)) + " " + " ".join(re.findall(r'```yaml\n(.*?)```', doc, re.S))
    words = set(re.findall(r'[a-z_0-9]+', code))
    names = loader_names(src)
    if len(names) < 200:
        print(f"FAIL: only {len(names)} names read from {SRC}: has its layout changed?")
        return 1
    missing = sorted((where, k) for k, where in names.items() if k not in words)
    for where, k in missing:
        print(f"FAIL: '{k}' ({where} in {SRC}) is accepted by the loader but not documented in {DOC}")
    print(f"card format keys: {len(names) - len(missing)} of {len(names)} documented in {DOC}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
