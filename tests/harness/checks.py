"""tests/harness/checks.py - what the harness's test scripts share: each check
counted once with an "ok" or "FAIL" line, a "SKIP" line for what this machine
can't check, and the last line "N passed, N failed[, N skipped]" that make
test adds up."""


class Tally:
    def __init__(self):
        self.passed = self.failed = self.skipped = 0

    def check(self, ok, what, detail=""):
        if ok:
            self.passed += 1
            print("ok   " + what)
        else:
            self.failed += 1
            print("FAIL " + what + (": " + detail if detail else ""))
        return ok

    def skip(self, what):
        self.skipped += 1
        print("SKIP " + what)

    def finish(self):
        """Prints the counts line; returns the exit status."""
        if self.skipped:
            print("%d passed, %d failed, %d skipped" % (self.passed, self.failed, self.skipped))
        else:
            print("%d passed, %d failed" % (self.passed, self.failed))
        return 1 if self.failed else 0
