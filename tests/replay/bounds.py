#!/usr/bin/env python3
"""tests/replay/bounds.py - writes replays that push every bound of the
reader and the checker (docs/replay-format.md, "Limits") into DIR, each named
for the exit status bin/replay check must give it, within a few seconds and
under 64 MiB (checked by tests/replay/replay-test.sh):

  over-*.gz (exit 2)  past a bound: refused without loading what is over
  within-*.gz, any-*.gz  at a bound, or damaged: checked (any outcome)

usage: bounds.py BASE.gz DIR   (BASE: a version-2 replay to build on)
"""
import gzip
import os
import sys

FNV_INIT = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3
MASK = (1 << 64) - 1


def fnv(data):
    h = FNV_INIT
    for b in data:
        h = ((h ^ b) * FNV_PRIME) & MASK
    return h


def write(path, text):
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, compresslevel=9) as f:
        f.write(text.encode("utf-8"))


def card(name, body):
    text = "- name: %s\n  type: Artifact\n%s" % (name, body)
    lines = text.count("\n")
    return 'card extra %d %016x "%s"\n%s' % (lines, fnv(text.encode()), name, text)


def main():
    base, d = sys.argv[1], sys.argv[2]
    os.makedirs(d, exist_ok=True)
    with gzip.open(base, "rb") as f:
        lines = f.read().decode("utf-8").split("\n")[:-1]
    first = lines[0]
    head_end = lines.index("log")
    cards_at = next(i for i, l in enumerate(lines) if l.startswith("cards "))
    header, log = lines[:cards_at], lines[head_end:]
    # 200,000 unknown header lines (about 10 MB) before the setup
    write(d + "/over-unknown-header-lines.gz",
          first + "\n" + "".join("x%d %s\n" % (i, "y" * 40) for i in range(200000)) + "\n".join(lines[1:]) + "\n")
    # one header line of 1 MiB
    write(d + "/over-long-header-line.gz", first + "\nx " + "y" * (1 << 20) + "\n" + "\n".join(lines[1:]) + "\n")
    # 60,000 card definitions
    many = "".join(card("Bound Card %d" % i, "") for i in range(60000))
    write(d + "/over-60000-cards.gz", "\n".join(header) + "\ncards 60000\n" + many + "\n".join(log) + "\n")
    # the game's own cards and fillers up to 4,096 definitions and nearly 1 MiB:
    # the most a replay holds
    own = lines[cards_at + 1:head_end]
    k = int(lines[cards_at].split(" ")[1])
    room = (1 << 20) - sum(len(l) + 1 for l in own if not l.startswith("card ")) - 4096 * 80
    pad = "  text: %s\n" % ("z" * (room // (4096 - k) - 40))
    fill = "".join(card("Bound Card %04d" % i, pad) for i in range(4096 - k))
    write(d + "/within-4096-cards.gz",
          "\n".join(header) + "\ncards 4096\n" + "\n".join(own) + "\n" + fill + "\n".join(log) + "\n")
    # one card of 300,000 tiny list items: past the size of one definition
    big = "  keywords: [%s]\n" % ", ".join(["a"] * 150000)
    write(d + "/over-card-size.gz", "\n".join(header) + "\ncards 1\n" + card("Bound Big", big) + "\n".join(log) + "\n")
    # a card nested as deep as YAML lets it
    deep = "  text: " + "[" * 10000 + "]" * 10000 + "\n"
    write(d + "/over-card-depth.gz", "\n".join(header) + "\ncards 1\n" + card("Bound Deep", deep) + "\n".join(log) + "\n")
    # version 1: a cards block of 8 MiB (an 18 KB file once took 340 MB)
    v1 = ["arbiter-replay 1", "engine 0.1.0", "rules 2025-09-19", "pool 0000000000000000", "seed 1"]
    setup = [l for l in lines[lines.index(next(l for l in lines if l.startswith("setup "))):cards_at]]
    setup[0] = "setup %d" % (len(setup) - 1)
    block = ["- {name: V1 Card %d, type: Land, text: [%s]}" % (i, ",".join(["a"] * 200)) for i in range(10000)]
    write(d + "/over-v1-cards-block.gz", "\n".join(v1 + setup + ["cards %d" % len(block)] + block + log) + "\n")
    # 3 million tiny lines after a spell is cast, before its target is chosen:
    # the check reads ahead over them to the decision, as far as it may
    cut = next((i for i in range(1, len(log)) if log[i].startswith("decide kind=target ")), 1)
    flood = ["x"] * (3 << 20)
    write(d + "/any-flood-of-lines.gz", "\n".join(lines[:head_end] + log[:cut] + flood + log[cut:]) + "\n")
    # a line of 4 MiB in the log
    write(d + "/over-long-log-line.gz", "\n".join(lines[:head_end + 3] + ["z" * (4 << 20)] + lines[head_end + 3:]) + "\n")
    # 64 MiB of text after the trailer (a gzip bomb: never decompressed in full)
    write(d + "/over-after-trailer.gz", "\n".join(lines) + "\n" + ("x" * 1023 + "\n") * (64 << 10))


if __name__ == "__main__":
    main()
