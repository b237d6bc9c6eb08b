"""Prints charsight's and ftfy's exact repair rates on the same mojibake
cases, and both tools' false changes on clean text.

Usage: compare.py CASES.jsonl TEXT_DIR

CASES.jsonl is written by `cargo run -p xtask -- repair-eval --dump`: one
object per case with `set`, `lang`, `original`, `damaged` and `charsight`
(charsight's output). ftfy is run with `ftfy.fix_encoding`, its repair of
mojibake alone (`fix_text` would also change quotes, widths and line
breaks, which the cases do not damage). TEXT_DIR is ../shared/text: every
line of every file is clean text, and is passed through both tools.
"""

import collections
import json
import pathlib
import subprocess
import sys

import ftfy


def main():
    cases_path, text_dir = sys.argv[1], pathlib.Path(sys.argv[2])
    sets = collections.OrderedDict()
    with open(cases_path, encoding="utf-8") as f:
        for line in f:
            case = json.loads(line)
            tally = sets.setdefault(case["set"], [0, 0, 0])
            tally[0] += 1
            tally[1] += case["charsight"] == case["original"]
            tally[2] += ftfy.fix_encoding(case["damaged"]) == case["original"]

    print(f"Mojibake repaired exactly (ftfy {ftfy.__version__}, fix_encoding):\n")
    print("| damage | cases | charsight | ftfy |")
    print("| --- | ---: | ---: | ---: |")
    totals = [0, 0, 0]
    for name, (n, ours, theirs) in sorted(sets.items()):
        totals = [totals[0] + n, totals[1] + ours, totals[2] + theirs]
        print(f"| {name} | {n} | {pct(ours, n)} | {pct(theirs, n)} |")
    n, ours, theirs = totals
    print(f"| **all** | {n} | {pct(ours, n)} | {pct(theirs, n)} |\n")

    lines = changed = 0
    for path in sorted(text_dir.glob("*.txt")):
        for line in path.read_text(encoding="utf-8").splitlines():
            lines += 1
            changed += ftfy.fix_encoding(line) != line
    print("False changes on every line of shared/text:\n")
    print("| tool | lines | changed |")
    print("| --- | ---: | ---: |")
    print(f"| ftfy | {lines} | {changed} |")
    print(f"| charsight | {lines} | {charsight_changes(text_dir)} |")


def charsight_changes(text_dir):
    """Lines charsight changes: each file through `charsight repair`."""
    changed = 0
    for path in sorted(text_dir.glob("*.txt")):
        out = subprocess.run(
            ["cargo", "run", "--quiet", "--release", "-p", "charsight-cli", "--", "repair", str(path)],
            check=True,
            capture_output=True,
        ).stdout.decode("utf-8")
        before = path.read_text(encoding="utf-8").splitlines()
        changed += sum(a != b for a, b in zip(before, out.splitlines()))
    return changed


def pct(part, whole):
    return f"{100 * part / whole:.2f}%" if whole else "-"


if __name__ == "__main__":
    main()
