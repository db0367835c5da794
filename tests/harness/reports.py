#!/usr/bin/env python3
"""tests/harness/reports.py - the harness's reports in CI: bad input, script
errors and failures in every format.

Checks, each counted once (last line "N passed, N failed[, N skipped]"):
  - a case document with many input errors reports every one of them, in file
    order, at the line and column tests/harness/errors.yaml lists by hand, and
    the valid case beside them still runs; exit status 2;
  - the corpus plus that file: JUnit (strict: valid against
    tests/schema/junit.xsd with xmllint), TAP (parsed by prove) and JSON carry
    one error entry per input error and every case's result;
  - --fail-fast reports the errors only, on stderr, and no results;
  - a script error (an action the engine refuses) is an error, a wrong
    expectation a failure, in every format;
  - text output ends with one line per case that did not pass, then the counts;
  - a listed rule that nothing in its case checks is a warning (listed with
    --warnings, counted without), an input error with --strict;
  - CI conventions: exit 5 when nothing is selected, --id GLOB, --list, - for
    standard input, --output FILE per --format, --quiet, colour on a terminal
    unless NO_COLOR.

usage: python3 tests/harness/reports.py HARNESS
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Tally  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ERRORS = os.path.join(HERE, "errors.yaml")
SCRIPT = os.path.join(HERE, "script.yaml")
RULES = os.path.join(HERE, "rules.yaml")
T = Tally()
check, skip = T.check, T.skip




def run(*args, stdin=None):
    p = subprocess.run([HARNESS, *args], capture_output=True, text=True, input=stdin)
    return p.returncode, p.stdout, p.stderr


def json_rows(out):
    return [json.loads(l) for l in out.splitlines() if l.strip()]


def expected_errors():
    with open(ERRORS) as f:
        for line in f:
            if line.startswith("# errors:"):
                return [tuple(int(x) for x in p.split(":")) for p in line.split(":", 1)[1].split()]
    raise SystemExit("tests/harness/errors.yaml has no '# errors:' line")


def run_tty(args, env_extra):
    """Runs the harness with standard output on a terminal; its output."""
    import pty
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    env.update(env_extra)
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(HARNESS, [HARNESS, *args], env)
    out = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.waitpid(pid, 0)
    return out.decode("utf-8", "replace")


def ci_conventions():
    import fnmatch
    _, out, _ = run("--format", "json", "cases")
    every = [r["id"] for r in json_rows(out)]

    rc, out, err = run("--id", "zz-no-such-case-*", "cases")
    check(rc == 5 and "no case selected" in err, "nothing selected exits 5", "exit %d" % rc)
    glob = "704-5*"
    rc, out, _ = run("--format", "json", "--id", glob, "--id", "603-*", "cases")
    ids = [r["id"] for r in json_rows(out)]
    want = [i for i in every if fnmatch.fnmatchcase(i, glob) or fnmatch.fnmatchcase(i, "603-*")]
    check(rc == 0 and ids == want and ids, "--id GLOB (repeated) selects the matching ids (%d)" % len(want),
          "exit %d, %d ids" % (rc, len(ids)))
    rc, out, _ = run("--list", "--format", "json", "--id", glob, "--id", "603-*", "cases")
    check(rc == 0 and [r["id"] for r in json_rows(out)] == want, "--list names the same cases, in order")
    rc, out, _ = run("--list", "--id", glob, "cases")
    check(out.splitlines()[-1] == "%d cases selected" % len([i for i in want if fnmatch.fnmatchcase(i, glob)]),
          "--list text ends with the count", out.splitlines()[-1])

    with open(SCRIPT) as f:
        rc, out, _ = run("--format", "json", "-", stdin=f.read())
    rows = json_rows(out)
    check(rc == 1 and [r["file"] for r in rows] == ["<stdin>", "<stdin>"], "- reads a case file from standard input",
          "exit %d, %s" % (rc, [r["file"] for r in rows]))
    rc, out, _ = run("-", stdin="id: x\nrules: [\"704.5a\"]\ntitle: t\nsource: s\nsetpu: {}\n")
    check(rc == 2 and "<stdin>:5:1: unknown key 'setpu'" in out, "an error in standard input is located at <stdin>",
          out[-300:])

    tmp = tempfile.mkdtemp()
    try:
        x, t = os.path.join(tmp, "r.xml"), os.path.join(tmp, "r.tap")
        rc, out, _ = run("--id", glob, "--format", "junit-strict", "--output", x, "--format", "tap14", "--output", t, "cases")
        n = len([i for i in want if fnmatch.fnmatchcase(i, glob)])
        xml_cases = len(list(ET.parse(x).getroot().iter("testcase")))
        tap = open(t).read().splitlines()
        check(rc == 0 and out.splitlines()[-1] == "%d passed, 0 failed, 0 skipped" % n and xml_cases == n
              and tap[:2] == ["TAP version 14", "1..%d" % n],
              "--output FILE with --format: text on stdout, JUnit and TAP 14 in files",
              "exit %d, %d testcases, %s" % (rc, xml_cases, tap[:2]))
    finally:
        shutil.rmtree(tmp)

    rc, out, _ = run("--quiet", SCRIPT)
    lines = out.splitlines()
    check(not any(l.startswith("PASS") for l in lines) and lines[0].startswith("ERROR script-error")
          and lines[-1] == "0 passed, 2 failed, 0 skipped", "--quiet: what did not pass and the counts", lines[0])
    rc, out, _ = run("--quiet", "--id", glob, "cases")
    check(out.splitlines() == ["%d passed, 0 failed, 0 skipped" % n], "--quiet on an all-pass run: the counts only",
          out[:200])

    out = run_tty([SCRIPT], {})
    check("\033[31mFAIL \033[0m" in out and "\033[31mERROR\033[0m" in out, "colour on a terminal")
    out = run_tty([SCRIPT], {"NO_COLOR": "1"})
    check("\033[" not in out and "FAIL  script-expectation" in out, "no colour with NO_COLOR")
    _, out, _ = run(SCRIPT)
    check("\033[" not in out, "no colour when standard output is not a terminal")


def main():
    rel = os.path.relpath(ERRORS)
    want = expected_errors()

    # every error of a document, in file order, where the file says
    rc, out, err = run("--format", "json", rel)
    rows = json_rows(out)
    got = [(r["failure"]["line"], r["failure"].get("column", 0)) for r in rows if r["status"] == "error"]
    check(rc == 2, "input errors exit 2", "exit %d" % rc)
    check(got == want, "each input error of errors.yaml reported once, in file order", "got %s, want %s" % (got, want))
    check(all(r.get("error") == "input" for r in rows if r["status"] == "error"), "input errors say error: input")
    check(all(re.match(r"^%s:\d+:\d+: " % re.escape(rel), r["failure"]["message"]) for r in rows if r["status"] == "error"),
          "each error message is located file:line:column")
    check([r["id"] for r in rows if r["status"] == "pass"] == ["errors-two"], "the valid case beside the errors runs and passes")
    check(all("^" in r["failure"]["detail"] for r in rows if r["status"] == "error"), "each error's detail shows a caret")

    # the corpus with one bad file: every format keeps every case
    rc, out, _ = run("--format", "json", "cases")
    corpus = json_rows(out)
    n_cases = len(corpus)
    tmp = tempfile.mkdtemp()
    try:
        shutil.copytree("cases", os.path.join(tmp, "cases"))
        shutil.copy(ERRORS, os.path.join(tmp, "cases", "zz-errors.yaml"))
        tree = os.path.join(tmp, "cases")
        n_err, n_items = len(want), n_cases + len(want) + 1

        rc, out, _ = run("--format", "junit-strict", tree)
        path = os.path.join(tmp, "strict.xml")
        with open(path, "w") as f:
            f.write(out)
        root = ET.fromstring(out)
        cases = list(root.iter("testcase"))
        errors = [c for c in cases if c.find("error") is not None]
        check(rc == 2 and len(cases) == n_items, "JUnit with a bad file: every case and every error (%d testcases)" % n_items,
              "exit %d, %d testcases" % (rc, len(cases)))
        check(len(errors) == n_err and all(c.find("error").get("type") == "input" for c in errors),
              "JUnit: one <error type=\"input\"> per input error", "%d errors" % len(errors))
        check(root.get("errors") == str(n_err), "JUnit: testsuites errors=\"%d\"" % n_err, str(root.get("errors")))
        if shutil.which("xmllint"):
            p = subprocess.run(["xmllint", "--noout", "--schema", os.path.join(HERE, "..", "schema", "junit.xsd"), path],
                               capture_output=True, text=True)
            check(p.returncode == 0, "strict JUnit is valid against tests/schema/junit.xsd", p.stderr[-600:])
        else:
            skip("xmllint not installed: strict JUnit not validated")

        rc, out, _ = run("--format", "tap", tree)
        tap = out.splitlines()
        check(tap[0] == "TAP version 13" and tap[1] == "1..%d" % n_items, "TAP: version 13 and the plan",
              " / ".join(tap[:2]))
        notok = [l for l in tap if l.startswith("not ok ")]
        check(len(notok) == n_err and sum(1 for l in tap if l == "  severity: error") == n_err,
              "TAP: one not ok with severity error per input error", "%d not ok" % len(notok))
        check(sum(1 for l in tap if re.match(r"^  message: \".*zz-errors\.yaml:\d+:\d+: ", l)) == n_err,
              "TAP: each error's message is located")
        if shutil.which("prove"):
            path = os.path.join(tmp, "t.tap")
            with open(path, "w") as f:
                f.write(out)
            p = subprocess.run(["prove", "-e", "cat", path], capture_output=True, text=True)
            m = re.search(r"Failed (\d+)/(\d+) subtests", p.stdout)
            check(m is not None and m.group(1) == str(n_err) and m.group(2) == str(n_items),
                  "prove parses the TAP: %d of %d subtests failed" % (n_err, n_items), p.stdout[-400:])
        else:
            skip("prove not installed: TAP not parsed")

        rc, out, _ = run("--format", "json", tree)
        rows = json_rows(out)
        st = [r["status"] for r in rows]
        check(len(rows) == n_items and st.count("error") == n_err, "JSON: every case and one status error per input error",
              "%d rows, %d errors" % (len(rows), st.count("error")))

        rc, out, err = run("--fail-fast", "--format", "junit", tree)
        check(rc == 2 and out == "" and len(re.findall(r"zz-errors\.yaml:\d+:\d+: ", err)) == n_err,
              "--fail-fast: the errors on stderr, no results", "exit %d, %d bytes out" % (rc, len(out)))
    finally:
        shutil.rmtree(tmp)

    # script errors and failures
    rel = os.path.relpath(SCRIPT)
    rc, out, _ = run("--format", "json", rel)
    rows = {r["id"]: r for r in json_rows(out)}
    check(rc == 1, "a script error or a failure exits 1", "exit %d" % rc)
    e, f = rows.get("script-error", {}), rows.get("script-expectation", {})
    check(e.get("status") == "error" and e.get("error") == "script", "a refused action is a script error", str(e)[:300])
    check(f.get("status") == "fail" and "error" not in f, "a wrong expectation is a failure", str(f)[:300])
    rc, out, _ = run("--format", "junit", rel)
    root = ET.fromstring(out)
    kinds = {c.get("name"): (c.find("error") if c.find("error") is not None else c.find("failure")) for c in root.iter("testcase")}
    check(kinds["script-error"].tag == "error" and kinds["script-error"].get("type") == "script"
          and kinds["script-expectation"].tag == "failure", "JUnit: <error type=\"script\"> and <failure>")
    check(next(c for c in root.iter("testcase") if c.get("name") == "script-expectation").get("line") == "34",
          "JUnit: line is that of the failing expectation (34)")
    rc, out, _ = run("--format", "tap", rel)
    check("  severity: error" in out.splitlines() and "  severity: fail" in out.splitlines(), "TAP: severity error and fail")

    # the end of text output: what did not pass, then the counts
    rc, out, _ = run(rel)
    lines = out.splitlines()
    check(lines[-1] == "0 passed, 2 failed, 0 skipped", "text: the counts line is last", lines[-1])
    i = lines.index("did not pass:") if "did not pass:" in lines else -1
    check(i >= 0 and lines[i + 1].startswith("  ERROR script-error  ") and lines[i + 2].startswith("  FAIL  script-expectation  "),
          "text: a summary line per case that did not pass", "\n".join(lines[i:]))

    # listed rules that nothing checks: warnings, errors with --strict
    rel = os.path.relpath(RULES)
    want = [l.split(":", 1)[1].strip() for l in open(RULES) if l.startswith("# warning:")]
    rc, out, err = run("--warnings", rel)
    got = re.findall(r"^%s:(\d+:\d+): warning: " % re.escape(rel), err, re.M)
    check(rc == 0 and got == want, "--warnings: one warning, at the unchecked rule (%s)" % ", ".join(want),
          "exit %d, warnings at %s" % (rc, got))
    rc, out, err = run(rel)
    check(rc == 0 and "harness: 1 warning: " in err and not re.search(r"warning: rule", err),
          "without --warnings the warnings are counted, not listed", err[-300:])
    rc, out, _ = run("--strict", "--format", "json", rel)
    rows = {r["id"]: r for r in json_rows(out)}
    u = rows.get("rules-unchecked", {})
    check(rc == 2 and u.get("status") == "error" and u.get("error") == "input" and u["failure"]["line"] == int(want[0].split(":")[0])
          and rows["rules-carried"]["status"] == "pass" and rows["rules-named"]["status"] == "pass",
          "--strict: the case with the unchecked rule is an input error (exit 2), the others pass", "exit %d, %s" % (rc, u))

    ci_conventions()

    return T.finish()


if __name__ == "__main__":
    HARNESS = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "bin/harness")
    sys.exit(main())
