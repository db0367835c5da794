#!/usr/bin/env python3
"""tests/replay/tamper.py - makes tampered copies of a replay for the replay
tests: edits that keep the file self-consistent where a forger would make it
so (hashes of the setup and of card definitions recomputed, the trailer's
counts and hash chain rewritten), so that what the checker must catch is the
lie itself, not a broken checksum.

usage: tamper.py KIND IN.gz OUT.gz [ARG]
  cut-open        the log cut after its middle checkpoint, trailer status=open
  cut-abandoned   the same with status=abandoned
  drop-checkpoint the first checkpoint removed (counts and chain rewritten)
  drop-options    the first options record removed
  alter-options   the first options record's count changed
  seed            the header's seed changed (the setup's left alone)
  players         the header's players swapped
  engine          the header's engine version changed
  setup-nohash    a setup line changed, its hash left as it was
  card-nohash     a card definition's text changed, its hash left as it was
  card-text ARG   card ARG's text field changed, its hash recomputed
  card-bad ARG    card ARG's definition given an unknown key, hash recomputed
"""
import gzip
import sys

FNV_INIT = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3
MASK = (1 << 64) - 1


def fnv(data, h=FNV_INIT):
    for b in data:
        h = ((h ^ b) * FNV_PRIME) & MASK
    return h


def read(path):
    with gzip.open(path, "rb") as f:
        return f.read().decode("utf-8").split("\n")[:-1]


def write(path, lines):
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f:
        f.write(("\n".join(lines) + "\n").encode("utf-8"))


def log_start(lines):
    return lines.index("log") + 1


def retrail(lines, status=None):
    """Rewrites the trailer's counts and chain for the lines as they are."""
    start = log_start(lines)
    end = [i for i, l in enumerate(lines) if l.startswith("@end ")][-1]
    events = decisions = checkpoints = 0
    chain = FNV_INIT
    for l in lines[start:end]:
        if l.startswith("@checkpoint "):
            checkpoints += 1
        elif not l.startswith("@"):
            events += 1
            decisions += l.startswith("decide ")
            chain = fnv(l.encode("utf-8") + b"\n", chain)
    old = lines[end]
    st = status or old.split(" status=")[1].split(" ")[0]
    lines[end] = "@end events=%d decisions=%d checkpoints=%d status=%s chain=%016x" % (
        events, decisions, checkpoints, st, chain)
    return lines


def card_block(lines, name):
    """(index of the card line, first and last index of its text)"""
    for i, l in enumerate(lines):
        if l.startswith(("card pool ", "card extra ")) and l.endswith(' "%s"' % name):
            n = int(l.split(" ")[2])
            return i, i + 1, i + n
    sys.exit("no card %s" % name)


def rehash_card(lines, i, first, last):
    text = "".join(l + "\n" for l in lines[first:last + 1])
    parts = lines[i].split(" ", 4)
    parts[2] = str(last - first + 1)
    parts[3] = "%016x" % fnv(text.encode("utf-8"))
    lines[i] = " ".join(parts)


def main():
    kind, src, dst = sys.argv[1:4]
    arg = sys.argv[4] if len(sys.argv) > 4 else None
    lines = read(src)
    start = log_start(lines)
    if kind in ("cut-open", "cut-abandoned"):
        cps = [i for i in range(start, len(lines)) if lines[i].startswith("@checkpoint ")]
        cut = cps[len(cps) // 2]
        lines = lines[:cut + 1] + [lines[-1]]
        retrail(lines, "open" if kind == "cut-open" else "abandoned")
    elif kind == "drop-checkpoint":
        i = next(i for i in range(start, len(lines)) if lines[i].startswith("@checkpoint "))
        del lines[i]
        retrail(lines)
    elif kind in ("drop-options", "alter-options"):
        i = next(i for i in range(start, len(lines)) if lines[i].startswith("@options "))
        if kind == "drop-options":
            del lines[i]
        else:
            n = int(lines[i].split("n=")[1].split(" ")[0])
            lines[i] = lines[i].replace("n=%d " % n, "n=%d " % (n + 1))
    elif kind == "seed":
        i = next(i for i, l in enumerate(lines) if l.startswith("seed "))
        lines[i] = "seed %d" % (int(lines[i][5:]) ^ 1)
    elif kind == "players":
        i = next(i for i, l in enumerate(lines) if l.startswith("players "))
        lines[i] = "players " + " ".join(reversed(lines[i][8:].split(" ")))
    elif kind == "engine":
        i = next(i for i, l in enumerate(lines) if l.startswith("engine "))
        lines[i] = "engine 0.0.1-old"
    elif kind == "setup-nohash":
        i = next(i for i, l in enumerate(lines) if l.startswith("setup "))
        lines[i + 1] = lines[i + 1].replace(" 20", " 21", 1)
    elif kind == "card-nohash":
        i = next(i for i, l in enumerate(lines) if l.startswith(("card pool ", "card extra ")))
        lines[i + 1] = lines[i + 1] + "x"
    elif kind in ("card-text", "card-bad"):
        i, first, last = card_block(lines, arg)
        if kind == "card-text":
            k = next(k for k in range(first, last + 1) if lines[k].startswith("  text:"))
            lines[k] = '  text: "edited in the replay"'
        else:
            lines.insert(last + 1, "  colour: red")
            last += 1
        rehash_card(lines, i, first, last)
    else:
        sys.exit("unknown kind " + kind)
    write(dst, lines)


if __name__ == "__main__":
    main()
