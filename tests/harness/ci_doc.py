#!/usr/bin/env python3
"""tests/harness/ci_doc.py - docs/ci.md says what works, and the project is
adoptable: a LICENSE and a NOTICE, and one version (CHANGELOG.md's latest
release is MTG_VERSION, which the programs' --version report).

Every YAML block of docs/ci.md (the GitHub Actions workflow, the GitLab job)
parses (with PyYAML, when installed), and every `bin/harness` command in it, in
a code block or inside a YAML step, is accepted by the harness: run with
--list added (which selects without running or writing), it exits 0.

usage: python3 tests/harness/ci_doc.py HARNESS
Last line "N passed, N failed[, N skipped]".
"""
import os
import re
import shlex
import subprocess
import sys

DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "ci.md")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Tally  # noqa: E402

T = Tally()
check, skip = T.check, T.skip



def strings(node):
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for v in node.values():
            yield from strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from strings(v)


def main(harness):
    text = open(DOC, encoding="utf-8").read()
    blocks = re.findall(r"```(\w*)\n(.*?)```", text, re.S)
    commands = []
    try:
        import yaml
    except ImportError:
        yaml = None
    for lang, body in blocks:
        if lang == "yaml":
            if yaml is None:
                skip("no PyYAML: a YAML block of docs/ci.md is not parsed")
                lines = body
            else:
                try:
                    doc = yaml.safe_load(body)
                    check(isinstance(doc, dict), "a YAML block parses: " + ", ".join(map(str, doc)))
                except yaml.YAMLError as e:
                    check(False, "a YAML block parses", str(e))
                    continue
                lines = "\n".join(strings(doc))
        else:
            lines = body
        for line in lines.splitlines():
            line = line.strip().lstrip("- ")
            if line.startswith("bin/harness"):
                commands.append(line.split("#")[0].strip())
        # a folded run: step (one command over several lines)
        if yaml is not None and lang == "yaml":
            for s in strings(yaml.safe_load(body)):
                if s.startswith("bin/harness") and "\n" in s:
                    commands.append(" ".join(s.split()))
    root = os.path.join(os.path.dirname(DOC), "..")
    for f in ("LICENSE", "NOTICE"):
        check(os.path.isfile(os.path.join(root, f)), f + " is there")
    with open(os.path.join(root, "engine", "include", "mtg.h")) as f:
        version = re.search(r'#define MTG_VERSION "([^"]+)"', f.read()).group(1)
    with open(os.path.join(root, "CHANGELOG.md")) as f:
        released = re.findall(r"^## (\d+\.\d+\.\d+)", f.read(), re.M)
    check(released[:1] == [version], "CHANGELOG.md's latest release is MTG_VERSION %s" % version, str(released[:1]))
    out = subprocess.run([harness, "--version"], capture_output=True, text=True).stdout
    check(out.startswith("arbiter-harness %s " % version), "--version says %s" % version, out.strip())
    check(len(commands) >= 5, "docs/ci.md has bin/harness commands (%d)" % len(commands))
    for cmd in commands:
        args = shlex.split(cmd)[1:]
        p = subprocess.run([harness, *args, "--list"], capture_output=True, text=True)
        check(p.returncode == 0, "accepted: " + cmd, "exit %d: %s" % (p.returncode, p.stderr[-300:]))


if __name__ == "__main__":
    main(os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "bin/harness"))
    sys.exit(T.finish())
